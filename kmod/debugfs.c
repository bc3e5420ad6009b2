// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs: /sys/kernel/debug/kiobench/stages (stages.c), .../charged and
 * /sys/kernel/debug/kiobench/job<ID>/{config,hist_read,hist_write,
 * timeline,lat_log,<metric>_<dir>}, root only (0400) and read-only, so they stay readable under
 * lockdown's debugfs restrictions.  Documentation/kiobench.rst gives the
 * formats.  Removal waits for readers (full debugfs proxy fops), so a job
 * is never freed under a reader.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "kiobench.h"

static struct dentry *kb_dbg_root;

static const char *const kb_dir_names[KIOBENCH_NR_DIRS] = {
	[KIOBENCH_DIR_READ] = "read",
	[KIOBENCH_DIR_WRITE] = "write",
	[KIOBENCH_DIR_TRIM] = "trim",
	[KIOBENCH_DIR_SYNC] = "sync",
};

static const char *const kb_completion_names[] = {
	[KIOBENCH_COMPLETION_SLEEP] = "sleep",
	[KIOBENCH_COMPLETION_SPIN] = "spin",
	[KIOBENCH_COMPLETION_POLL] = "poll",
};

/* Each direction's sizes (bs, bs_write, bs_trim), unless it shares the last one's. */
static void kb_show_bss(struct seq_file *m, const struct kb_config *cfg)
{
	static const char *const keys[KB_BSS_DIRS] = { "bs", "bs_write", "bs_trim" };
	const struct kb_bss *b;
	unsigned int d, i;

	for (d = 0; d < KB_BSS_DIRS; d++) {
		if (d && cfg->bsd[d].first == cfg->bsd[d - 1].first)
			continue;
		b = cfg->bss + cfg->bsd[d].first;
		if (cfg->bsd[d].range) {	/* fio's bsrange: low to high */
			seq_printf(m, "%s=%u-%u range\n", keys[d], b[0].size, b[1].size);
			continue;
		}
		for (i = 0; i < cfg->bsd[d].nr; i++)
			seq_printf(m, "%s=%u weight=%u\n", keys[d], b[i].size,
				   b[i].cum_weight - (i ? b[i - 1].cum_weight : 0));
	}
}

static int kb_config_show(struct seq_file *m, void *unused)
{
	struct kb_job *job = m->private;
	const struct kb_config *cfg = &job->cfg;
	unsigned int i;

	seq_printf(m, "id=%u\nname=%s\n", job->id, cfg->name);
	for (i = 0; i < cfg->nr_devs; i++)
		seq_printf(m, "device=%s lbs=%u span=%llu+%llu\n", cfg->paths[i],
			   job->devs[i].lbs, job->devs[i].span_start,
			   job->devs[i].span_len);
	/* pairs with kb_job_start()'s release: kb_note_integrity()'s record */
	if (smp_load_acquire(&job->state) != KIOBENCH_STATE_NEW)
		for (i = 0; i < cfg->nr_devs; i++)
			seq_printf(m, "integrity=%s %s write_generate=%d read_verify=%d stacked=%d\n",
				   cfg->paths[i], job->devs[i].pi_format ?: "none",
				   !!(job->devs[i].pi_flags &
				      BIT(KIOBENCH_INTEGRITY_BIT_GENERATE)),
				   !!(job->devs[i].pi_flags &
				      BIT(KIOBENCH_INTEGRITY_BIT_VERIFY)),
				   !!(job->devs[i].pi_flags &
				      BIT(KIOBENCH_INTEGRITY_BIT_STACKED)));
	seq_printf(m, "random=%d\nrwmix_read=%u\n", cfg->random, cfg->rwmix_read);
	kb_show_bss(m, cfg);
	seq_printf(m, "iodepth=%u\nnumjobs=%u\nworkers=%u\n", cfg->iodepth,
		   cfg->numjobs, job->nr_workers);
	seq_printf(m, "cpus_shared=%d\n", cfg->cpus_shared);
	for (i = 0; i < job->nr_workers; i++)	/* -1: not bound */
		seq_printf(m, "worker=%u cpu=%d\n", i, job->workers[i]->cpu);
	seq_printf(m, "runtime_ns=%llu\nio_bytes=%llu\nnumber_ios=%llu\n",
		   cfg->runtime_ns, cfg->io_bytes, cfg->number_ios);
	seq_printf(m, "ramp_ns=%llu\nseed=%llu\ninterval_ns=%llu\n",
		   cfg->ramp_ns, cfg->seed, cfg->interval_ns);
	seq_printf(m, "continue_on_error=%d\nlat_log=%u\nbuffer_bytes=%llu\n",
		   cfg->continue_on_error, cfg->lat_log, job->mem);
	seq_printf(m, "rate_iops=%u\nrate_iops_write=%u\n", cfg->rate_iops,
		   cfg->rate_iops_write);
	seq_printf(m, "rate_process=%s\ncompletion=%s\nstages=%d\n",
		   cfg->rate_process == KIOBENCH_RATE_POISSON ? "poisson" : "linear",
		   kb_completion_names[cfg->completion], cfg->stages);
	seq_printf(m, "norandommap=%d\nlocality=%d\n", cfg->norandommap,
		   cfg->locality);
	seq_printf(m, "ioprio=%u/%u\n", cfg->prioclass, cfg->prio);
	seq_printf(m, "trim_mode=%u\nwrite_zeroes=%d%s\nfsync=%u\nend_fsync=%d\n",
		   cfg->trim_mode, cfg->write_zeroes,
		   cfg->zeroes_unmap ? " unmap" : "", cfg->fsync, cfg->end_fsync);
	seq_printf(m, "writefua=%d\nfua_emulated=%d\nflush_noop=%d\n",
		   cfg->writefua, job->fua_emulated, job->flush_noop);
	for (i = 0; i <= KIOBENCH_DIR_WRITE; i++)	/* fio's R,W pair */
		seq_printf(m, "cmdprio_%s=%u%% %u/%u\n", kb_dir_names[i],
			   cfg->cmdprio_pct[i], cfg->cmdprio_class[i],
			   cfg->cmdprio[i]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kb_config);

static const char *const kb_metric_names[KB_NR_METRICS] = {
	[KB_M_SCHED_LAG] = "sched_lag",
	[KB_M_LAT_SCHED] = "lat_sched",
	[KB_M_STAGE_QUEUE] = "stage_queue",
	[KB_M_STAGE_DEVICE] = "stage_device",
	[KB_M_STAGE_COMPLETE] = "stage_complete",
	[KB_M_LAT_LOCAL] = "lat_local",
	[KB_M_LAT_REMOTE] = "lat_remote",
	[KB_M_CLAT_PRIO_DEF] = "clat_prio_default",
	[KB_M_CLAT_PRIO_CMD] = "clat_prio_cmd",
};

/*
 * The buckets' total, which is the count once the job has ended: while it
 * runs, the buckets are read after the counters, and the header must still
 * add up to the lines below.
 */
static u64 kb_hist_samples(const u64 *hist)
{
	unsigned int i;
	u64 samples = 0;

	for (i = 0; i < KB_HIST_BUCKETS; i++)
		samples += hist[i];
	return samples;
}

static void kb_hist_head(struct seq_file *m, unsigned int dir, const u64 *hist,
			 u64 min, u64 max, u64 sum)
{
	seq_printf(m, "# kiobench-histogram 1\n# dir %s\n# unit ns\n# bits %u\n",
		   kb_dir_names[dir], KB_HIST_BITS);
	seq_printf(m, "# samples %llu\n# min %llu\n# max %llu\n# sum %llu\n",
		   kb_hist_samples(hist), min, max, sum);
}

static void kb_hist_buckets(struct seq_file *m, const u64 *hist)
{
	unsigned int i;

	for (i = 0; i < KB_HIST_BUCKETS; i++)
		if (hist[i])
			seq_printf(m, "%llu %llu %llu\n", kb_hist_lo(i),
				   kb_hist_hi(i), hist[i]);
}

static int kb_hist_show(struct seq_file *m, unsigned int dir)
{
	struct kb_job *job = m->private;
	struct kb_counters c;
	u64 *hist;

	hist = kvmalloc_array(KB_HIST_BUCKETS, sizeof(*hist), GFP_KERNEL);
	if (!hist)
		return -ENOMEM;
	kb_job_sum(job, dir, &c, hist);
	kb_hist_head(m, dir, hist, c.lat_min, c.lat_max, c.lat_sum);
	kb_hist_buckets(m, hist);
	kvfree(hist);
	return 0;
}

/* "# unsplit_<name>" of the stage files, by enum kb_unsplit */
static const char *const kb_unsplit_names[KB_NR_UNSPLIT] = {
	[KB_UNSPLIT_SPLIT] = "split",
	[KB_UNSPLIT_NO_REQUEST] = "no_request",
	[KB_UNSPLIT_NO_DRIVER] = "no_driver",
	[KB_UNSPLIT_DISORDERED] = "disordered",
	[KB_UNSPLIT_SYNC_CALL] = "sync_call",
};

/*
 * A secondary measure: the histogram format, its name, the sum of squares
 * (for the standard deviation) and, for the stages, the unsplit I/Os: in
 * all, then by why.
 */
static int kb_metric_show(struct seq_file *m, void *unused)
{
	const struct kb_metric_file *mf = m->private;
	u64 *hist, unsplit[KB_NR_UNSPLIT], all = 0;
	struct kb_metric_sum c;
	unsigned int i;

	hist = kvmalloc_array(KB_HIST_BUCKETS, sizeof(*hist), GFP_KERNEL);
	if (!hist)
		return -ENOMEM;
	kb_job_metric_sum(mf->job, mf->id, mf->dir, &c, hist, unsplit);
	kb_hist_head(m, mf->dir, hist, c.min, c.max, c.sum);
	seq_printf(m, "# metric %s\n# sumsq_hi %llu\n# sumsq_lo %llu\n",
		   kb_metric_names[mf->id], (u64)(c.sumsq >> 64), (u64)c.sumsq);
	if (mf->id >= KB_M_STAGE_QUEUE && mf->id <= KB_M_STAGE_COMPLETE) {
		for (i = 0; i < KB_NR_UNSPLIT; i++)
			all += unsplit[i];
		seq_printf(m, "# unsplit %llu\n", all);
		for (i = 0; i < KB_NR_UNSPLIT; i++)
			seq_printf(m, "# unsplit_%s %llu\n", kb_unsplit_names[i],
				   unsplit[i]);
	}
	kb_hist_buckets(m, hist);
	kvfree(hist);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kb_metric);

static int kb_hist_read_show(struct seq_file *m, void *unused)
{
	return kb_hist_show(m, KIOBENCH_DIR_READ);
}
DEFINE_SHOW_ATTRIBUTE(kb_hist_read);

static int kb_hist_write_show(struct seq_file *m, void *unused)
{
	return kb_hist_show(m, KIOBENCH_DIR_WRITE);
}
DEFINE_SHOW_ATTRIBUTE(kb_hist_write);

static int kb_hist_trim_show(struct seq_file *m, void *unused)
{
	return kb_hist_show(m, KIOBENCH_DIR_TRIM);
}
DEFINE_SHOW_ATTRIBUTE(kb_hist_trim);

static int kb_hist_sync_show(struct seq_file *m, void *unused)
{
	return kb_hist_show(m, KIOBENCH_DIR_SYNC);
}
DEFINE_SHOW_ATTRIBUTE(kb_hist_sync);

static int kb_timeline_show(struct seq_file *m, void *unused)
{
	struct kb_job *job = m->private;
	unsigned int i, n, d;

	/* Pairs with kb_timeline_sample(): entries below tl_len are written. */
	n = smp_load_acquire(&job->tl_len);

	seq_printf(m, "# kiobench-timeline 1\n# interval_ns %llu\n# dropped %llu\n",
		   job->cfg.interval_ns, job->tl_dropped);
	seq_puts(m, "# columns t_ns");
	for (d = 0; d < KIOBENCH_NR_DIRS; d++)
		seq_printf(m, " %s_ios %s_bytes %s_lat_ns", kb_dir_names[d],
			   kb_dir_names[d], kb_dir_names[d]);
	seq_putc(m, '\n');
	for (i = 0; i < n; i++) {
		const struct kb_tl_entry *e = &job->tl[i];

		seq_printf(m, "%llu", e->t_ns);
		for (d = 0; d < KIOBENCH_NR_DIRS; d++)
			seq_printf(m, " %llu %llu %llu", e->dir[d].ios,
				   e->dir[d].bytes, e->dir[d].lat_sum);
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kb_timeline);

/*
 * The per-I/O log, once the job has ended (before, claimed entries may not
 * be written yet).  Streamed: it can hold millions of lines.
 */
static u64 kb_lat_log_len(struct kb_job *job)
{
	return min_t(u64, atomic64_read(&job->lat_log_next), job->cfg.lat_log);
}

static void *kb_lat_log_start(struct seq_file *m, loff_t *pos)
{
	struct kb_job *job = m->private;
	u8 state = smp_load_acquire(&job->state);	/* then the entries */

	if (state == KIOBENCH_STATE_NEW || state == KIOBENCH_STATE_RUNNING)
		return ERR_PTR(-EBUSY);
	if (!*pos) {
		struct kb_counters c;
		u64 ios = 0;
		unsigned int dir;

		/* lat-log-all: every I/O issued, successful or failed */
		for (dir = 0; dir < KIOBENCH_NR_DIRS; dir++) {
			kb_job_sum(job, dir, &c, NULL);
			ios += job->cfg.lat_log_all ? c.all_ios + c.errors :
						      c.ios;
		}
		seq_printf(m, "# kiobench-lat-log 1\n# entries %llu\n# dropped %llu\n",
			   kb_lat_log_len(job), ios - kb_lat_log_len(job));
		if (job->cfg.lat_log_all)
			seq_puts(m, "# all 1\n# flags 1 warm-up, 2 failed\n"
				 "# columns end_ns lat_ns dir offset bytes ioprio dev flags\n");
		else
			seq_puts(m, "# columns end_ns lat_ns dir offset bytes ioprio\n");
	}
	return *pos < kb_lat_log_len(job) ? &job->lat_log[*pos] : NULL;
}

static void *kb_lat_log_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct kb_job *job = m->private;

	++*pos;
	return *pos < kb_lat_log_len(job) ? &job->lat_log[*pos] : NULL;
}

static void kb_lat_log_stop(struct seq_file *m, void *v)
{
}

static int kb_lat_log_show(struct seq_file *m, void *v)
{
	const struct kb_lat_entry *e = v;
	struct kb_job *job = m->private;

	seq_printf(m, "%llu %llu %s %llu %u %u", e->end_ns, e->lat_ns,
		   kb_dir_names[e->dir], e->offset, e->len, e->ioprio);
	if (job->cfg.lat_log_all)
		seq_printf(m, " %u %u", e->dev, e->warmup | e->failed << 1);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations kb_lat_log_sops = {
	.start = kb_lat_log_start,
	.next = kb_lat_log_next,
	.stop = kb_lat_log_stop,
	.show = kb_lat_log_show,
};
DEFINE_SEQ_ATTRIBUTE(kb_lat_log);

/*
 * "worker W N" per worker, then "total N": the job's own I/Os in flight
 * now (submitted, not yet reaped; REQ_NOWAIT ones waiting for a tag too),
 * each worker at most its iodepth.  A snapshot: the workers move on.
 */
static int kb_inflight_show(struct seq_file *m, void *unused)
{
	struct kb_job *job = m->private;
	unsigned int i, n, total = 0;

	seq_puts(m, "# kiobench-inflight 1\n");
	for (i = 0; i < job->nr_workers; i++) {
		n = kb_worker_inflight(job->workers[i]);
		total += n;
		seq_printf(m, "worker %u %u\n", i, n);
	}
	seq_printf(m, "total %u\n", total);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kb_inflight);

static const struct {
	const char *name;
	const struct file_operations *fops;
} kb_dbg_files[] = {
	{ "config", &kb_config_fops },
	{ "hist_read", &kb_hist_read_fops },
	{ "hist_write", &kb_hist_write_fops },
	{ "hist_trim", &kb_hist_trim_fops },
	{ "hist_sync", &kb_hist_sync_fops },
	{ "timeline", &kb_timeline_fops },
	{ "inflight", &kb_inflight_fops },
	{ "lat_log", &kb_lat_log_fops },	/* last: only with a log */
};

/* <metric>_<dir> for each secondary measure the job keeps. */
static int kb_debugfs_add_metrics(struct kb_job *job, struct dentry *dir)
{
	unsigned int id, d;
	struct dentry *f;
	char name[32];

	for (id = 0; id < KB_NR_METRICS; id++) {
		if (job->metric_idx[id] < 0)
			continue;
		for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
			struct kb_metric_file *mf = &job->mfiles[id][d];

			*mf = (struct kb_metric_file){ job, id, d };
			snprintf(name, sizeof(name), "%s_%s", kb_metric_names[id],
				 kb_dir_names[d]);
			f = debugfs_create_file(name, 0400, dir, mf,
						&kb_metric_fops);
			if (IS_ERR(f))
				return PTR_ERR(f);
		}
	}
	return 0;
}

/*
 * The job's directory and files, all or none: they are where its
 * histograms and timeline are read, so a job without them is refused.
 * Call before the job is registered, and kb_debugfs_del_job() before it
 * is destroyed.
 */
int kb_debugfs_add_job(struct kb_job *job)
{
	unsigned int i, n = ARRAY_SIZE(kb_dbg_files) - !job->lat_log;
	struct dentry *dir, *f;
	int err;

	snprintf(job->dbg_name, sizeof(job->dbg_name), "job%u", job->id);
	dir = debugfs_create_dir(job->dbg_name, kb_dbg_root);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	for (i = 0; i < n; i++) {
		f = debugfs_create_file(kb_dbg_files[i].name, 0400, dir, job,
					kb_dbg_files[i].fops);
		if (IS_ERR(f)) {
			err = PTR_ERR(f);
			goto out_remove_dir;
		}
	}
	err = kb_debugfs_add_metrics(job, dir) ?: kb_verify_debugfs(job, dir) ?:
	      kb_loc_debugfs(job, dir) ?:
	      kb_zbd_debugfs(job, dir) ?: kb_latt_debugfs(job, dir) ?:
	      kb_pi_debugfs(job, dir);
	if (err)
		goto out_remove_dir;
	job->dbg = dir;
	return 0;

out_remove_dir:
	debugfs_remove(dir);
	return err;
}

/* Waits for the files' readers to leave; then nothing reads the job. */
void kb_debugfs_del_job(struct kb_job *job)
{
	debugfs_remove(job->dbg);
	job->dbg = NULL;
}

/* charged: the bytes all jobs have charged to max_total_mem (mem.c). */
static int kb_dbg_charged_get(void *data, u64 *val)
{
	*val = kb_total_mem();
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(kb_dbg_charged_fops, kb_dbg_charged_get, NULL, "%llu\n");

/*
 * Without the root directory (debugfs off), the module loads and answers
 * requests, but every job is refused: kb_debugfs_add_job() fails.
 */
void kb_debugfs_init(void)
{
	kb_dbg_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	kb_stages_debugfs(kb_dbg_root);
	debugfs_create_file_unsafe("charged", 0400, kb_dbg_root, NULL,
				   &kb_dbg_charged_fops);
}

void kb_debugfs_exit(void)
{
	debugfs_remove(kb_dbg_root);
}
