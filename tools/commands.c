// SPDX-License-Identifier: GPL-2.0
/*
 * The commands of one run of jobs and of the module's state: run,
 * features, list, stop, destroy; and plot, which runs kiobench-plot.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "fdp.h"
#include "jobfile.h"
#include "json.h"
#include "measures.h"
#include "nl.h"
#include "options.h"
#include "replay.h"
#include "report.h"
#include "result.h"
#include "run.h"
#include "values.h"

/* ---- usage ------------------------------------------------------------------ */

static void usage_run(FILE *f)
{
	fprintf(f,
		"Usage: kiobench run [OPTIONS] [JOBFILE...]\n"
		"Run jobs configured by fio-style options and/or fio job files.  As fio's,\n"
		"command-line options are the globals the first job file starts from (its\n"
		"[global] sections override them); a further file starts from the defaults.\n"
		"\n"
		"Options:\n");
	usage_options(f, KB_CMD_RUN, true);
	fprintf(f,
		"\n"
		"SIZE: bytes or k/m/g/t/p with optional b, i or ib; as fio's kb_base=1024,\n"
		"k and kb are powers of 1024, ki and kib of 1000 (kb_base=1000: the reverse).\n"
		"size and offset take N%% of the device too.\n"
		"fio's other options are refused with the reason (Documentation/fio-options.rst).\n"
		"TIME: seconds, or a number with us, ms, s, m, h or d.\n"
		"json+ is fio's: json with each latency bucket in clat_ns.bins.\n"
		"Exit status: 0 ok, 1 bad usage, 2 kernel/system error, 3 a job failed,\n"
		"129 stopped by SIGHUP (results written).\n");
}

static void usage_features(FILE *f)
{
	fprintf(f, "Usage: kiobench features\nShow the module's version and limits.\n");
}

static void usage_list(FILE *f)
{
	fprintf(f, "Usage: kiobench list [--output-format=normal|json]\n"
		"List the jobs that exist in the kernel, each with the settings the\n"
		"kernel reports for it (whoever created it).\n");
}

static void usage_stop(FILE *f)
{
	fprintf(f, "Usage: kiobench stop ID\n"
		"Ask running job ID to stop; it drains and ends STOPPED.\n");
}

static void usage_destroy(FILE *f)
{
	fprintf(f, "Usage: kiobench destroy ID\n"
		"Destroy job ID (it must not be running).\n");
}

/* ---- run -------------------------------------------------------------------- */

/* JSON's fdp: the devices' FDP counters, or none. */
static struct json_object *kb_json_fdp_or_null(const struct kb_fdp *f, size_t n)
{
	return n ? kb_json_fdp(f, n) : NULL;
}

/*
 * fio's report of a run: the jobs or groups (res, n), then (normal) the
 * run status of each group (status: written from the jobs before they
 * were grouped) and the disks' own counts.
 */
static int print_results(const struct kb_global *g, FILE *out,
			 const struct kb_result *res, size_t n, const char *status,
			 const struct run *r)
{
	if (g->formats & KB_FMT_TERSE)
		kb_print_terse_disks(out, res, n, r->disks, r->nr_disks);
	if (g->formats & KB_FMT_NORMAL) {
		kb_print_normal(out, res, n);
		if (status)
			fputs(status, out);
		kb_print_disk_stats(out, r->disks, r->nr_disks);
		kb_print_fdp(out, r->fdp, r->nr_fdp);
	}
	if (g->formats & (KB_FMT_JSON | KB_FMT_JSONPLUS)) {
		struct timespec ts;
		char *s;

		clock_gettime(CLOCK_REALTIME, &ts);
		s = kb_json_report_run(res, n, ts.tv_sec * 1000LL + ts.tv_nsec / 1000000,
				       g->formats & KB_FMT_JSONPLUS, r->disks, r->nr_disks,
				       kb_json_fdp_or_null(r->fdp, r->nr_fdp));
		if (!s) {
			msg("out of memory");
			return KB_EXIT_SYSTEM;
		}
		fprintf(out, "%s\n", s);
		free(s);
	}
	if (fflush(out) || ferror(out)) {
		msg("%s: %s", g->output ? g->output : "stdout", strerror(errno));
		return KB_EXIT_SYSTEM;
	}
	return 0;
}

/* The run status lines of the jobs res[0..n), as a string (NULL: none). */
static char *run_status(const struct kb_result *res, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	kb_print_run_status(f, res, n);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int execute(struct run *r, const struct kb_global *g, FILE *out)
{
	struct kb_result *res, *grp;
	char *status;
	size_t i, ng;
	int ret, rret;

	install_signals();
	r->detach = g->detach || g->keep;	/* kept jobs must outlive us */
	r->nr_disks = 0;
	/* every device of the run's jobs that keep disk_util (fio's default), once */
	for (i = 0; i < r->n; i++) {
		struct kb_disk *d = NULL;
		size_t k, nd;

		if (!r->rj[i].job.disk_util)
			continue;
		nd = kb_disks_of(kb_sysfs_root(), r->rj[i].job.devices,
				 r->rj[i].job.nr_devices, &d);
		for (k = 0; k < nd; k++) {
			size_t m;
			bool dup = false;

			for (m = 0; m < r->nr_disks; m++)
				dup |= r->disks[m].major == d[k].major &&
				       r->disks[m].minor == d[k].minor;
			if (!dup) {
				struct kb_disk *nv = realloc(r->disks, (r->nr_disks + 1) *
							     sizeof(*nv));

				if (!nv)
					break;
				r->disks = nv;
				r->disks[r->nr_disks++] = d[k];
			}
		}
		free(d);
	}
	kb_find_fdp(r, false);
	rret = run_jobs(r, g->keep, 0, &res, NULL, NULL);
	if (!res)
		return rret;
	for (i = 0; i < r->n; i++)
		res[i].groupid = r->rj[i].groupid;
	status = run_status(res, r->n);
	grp = kb_group_results(res, r->n, &ng);
	if (!grp) {
		msg("out of memory");
		free(status);
		free_results(res, r->n);
		return KB_EXIT_SYSTEM;
	}
	ret = print_results(g, out, grp, ng, status, r);
	free(status);
	free_results(grp, ng);
	free_results(res, r->n);
	return rret ? rret : ret;
}

/*
 * Where a job came from: section i of a job file, or (jf NULL) the command
 * line: its global options, then those of [from, to).
 */
struct job_src {
	const struct kb_jobfile *jf;
	size_t i;
	size_t from, to;
};

/* A job's error, named by its job file and section when it has them. */
static int job_error(const struct kb_job *job, const struct job_src *src, const char *err)
{
	if (src->jf)
		msg("%s: job '%s': %s", src->jf->path, job->name[0] ? job->name :
		    src->jf->sec[src->i].name, err);
	else
		msg("%s", err);
	return KB_EXIT_USAGE;
}

/* fio's note on a synchronous engine, and the job checked (finalized unless parse-only). */
static int check_job(struct kb_job *job, const struct job_src *src, const struct kb_global *g)
{
	char err[KB_ERRLEN];
	int ret;

	if (job->sync_engine && job->iodepth > 1)
		msg("%s%s%sioengine=%s is synchronous: one I/O in flight per worker, as fio "
		    "(iodepth=%u capped at 1)", src->jf ? "job '" : "",
		    src->jf ? job->name : "", src->jf ? "': " : "", job->ioengine, job->iodepth);
	if (!g->parse_only) {
		ret = kb_job_finalize(job, err, sizeof(err));
	} else {
		bool unreadable;

		/* --parse-only: N% of a device whose size is unknown stays N% */
		ret = kb_job_check(job, err, sizeof(err));
		if (!ret && kb_job_resolve_pct(job, &unreadable, err, sizeof(err)))
			ret = unreadable ? 0 : -1;
	}
	if (!ret)
		return 0;
	return job_error(job, src, err);
}

/* fio: the command-line options before the first --name are global. */
static size_t kb_cli_globals(const struct kb_assign_list *cli)
{
	size_t k;

	for (k = 0; k < cli->n; k++)
		if (cli->v[k].opt->id == KB_OPT_NAME)
			return k;
	return cli->n;
}

/*
 * fio: each --name on the command line starts a job of its own, made of
 * the global options and those up to the next --name.  Their sources into
 * src (room for cli->n), their count returned.
 */
static size_t cli_jobs(const struct kb_assign_list *cli, struct job_src *src)
{
	size_t k, n = 0;

	for (k = kb_cli_globals(cli); k < cli->n; k++) {
		if (cli->v[k].opt->id != KB_OPT_NAME)
			continue;
		if (n)
			src[n - 1].to = k;
		src[n++] = (struct job_src){ .from = k, .to = cli->n };
	}
	return n;
}

/* The job of src, finalized and checked. */
static int build_job(struct kb_job *job, const struct job_src *src,
		     const struct kb_assign_list *cli, struct kb_global *g, uint32_t clone)
{
	/* a job file's jobs get the command line's global options only */
	struct kb_assign_list globals = { cli ? cli->v : NULL, cli ? kb_cli_globals(cli) : 0, 0 };
	char err[KB_ERRLEN], what[KB_ERRLEN];
	size_t k;
	int ret;

	if (src->jf && kb_jobfile_build(src->jf, src->i, cli ? &globals : NULL, job, err,
					sizeof(err))) {
		msg("%s", err);
		return KB_EXIT_USAGE;
	}
	if (!src->jf) {
		kb_job_init(job);
		for (k = 0; k < cli->n; k++) {
			if (k >= kb_cli_globals(cli) && (k < src->from || k >= src->to))
				continue;
			if (kb_apply(job, g, &cli->v[k], err, sizeof(err))) {
				msg("%s", err);
				return KB_EXIT_USAGE;
			}
		}
	}
	if (kb_replay_load(job, clone, err, sizeof(err)))
		return job_error(job, src, err);
	ret = check_job(job, src, g);
	if (ret)
		return ret;
	if (job->replay_write_line && !g->allow_writes && !g->parse_only) {
		snprintf(what, sizeof(what), "%s%s%s%sread_iolog %s:%u writes to",
			 src->jf ? src->jf->path : "", src->jf ? ": job '" : "",
			 src->jf ? job->name : "", src->jf ? "': " : "", job->replay_path,
			 job->replay_write_line);
		return refuse_writes(what, job->devices[0], "");
	}
	if (kb_job_has_writes(job) && !g->allow_writes && !g->parse_only) {
		what[0] = '\0';
		if (src->jf)
			snprintf(what, sizeof(what), "%s: job '%s': ", src->jf->path, job->name);
		snprintf(what + strlen(what), sizeof(what) - strlen(what), "rw=%s writes to",
			 job->rw_str);
		return refuse_writes(what, job->devices[0], job->nr_devices > 1 ? " ..." : "");
	}
	return 0;
}

/* fio's --section: a job section runs if none is given or it is one of them. */
static bool section_runs(const struct kb_global *g, const char *name)
{
	unsigned int i;

	for (i = 0; i < g->nr_sections; i++)
		if (!strcmp(g->sections[i], name))
			return true;
	return !g->nr_sections;
}

/* Every --section names a section of some job file. */
static int sections_found(const struct kb_global *g, const struct kb_jobfile *jf, int nr_jf)
{
	unsigned int s;
	size_t i;
	int f;

	for (s = 0; s < g->nr_sections; s++) {
		bool found = false;

		for (f = 0; f < nr_jf && !found; f++)
			for (i = 0; i < jf[f].nr_sec && !found; i++)
				found = !strcmp(jf[f].sec[i].name, g->sections[s]);
		if (!found) {
			msg("--section=%s: no such job section in the job file%s", g->sections[s],
			    nr_jf > 1 ? "s" : "");
			return KB_EXIT_USAGE;
		}
	}
	return 0;
}

/*
 * The span of job's devices from its offset, summed (BLKGETSIZE64 on a
 * read-only open); 0 if one cannot be read (the kernel then says why).
 */
static uint64_t devices_span(const struct kb_job *job)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < job->nr_devices; i++) {
		uint64_t sz = 0;
		int fd = open(job->devices[i], O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			return 0;
		if (ioctl(fd, BLKGETSIZE64, &sz) || sz <= job->offset) {
			close(fd);
			return 0;
		}
		close(fd);
		sum += sz - job->offset;
	}
	return sum;
}

/*
 * Clone k of numjobs (fio's numjobs): one kernel job with one worker per
 * device (workers: that many), at offset + k x offset_increment.  Without size or io_size, and
 * unless time_based, fio ends a job after one pass over its span even when
 * runtime, number_ios or loops would let it go on: the kernel is told that
 * span as its byte budget.  With io_size alone, the span is fio's size,
 * each of its rounds' (kb_job_rounds()).
 */
/*
 * write_stream_select=worker over fio's clones: the kernel numbers only a
 * job's own workers (its devices times workers), so clone k's list starts
 * where the clones before it left off, rotated by k times that: the run's
 * worker i takes streams[i % n], as if one kernel job had them all.
 */
static void rotate_streams(struct kb_job *job, uint32_t k)
{
	unsigned int n = job->nr_write_streams, r, i;
	uint8_t tmp[sizeof(job->write_streams)];

	if (job->write_stream_select != KIOBENCH_WS_WORKER || n < 2)
		return;
	r = (unsigned int)((uint64_t)k * job->nr_devices * job->numjobs % n);
	for (i = 0; i < n; i++)
		tmp[i] = job->write_streams[(i + r) % n];
	memcpy(job->write_streams, tmp, n);
}

static void make_clone(struct kb_job *job, uint32_t k, uint32_t clones, uint32_t thread)
{
	job->clone = k;
	job->thread = thread;
	job->clones = clones;
	job->numjobs = job->workers ? job->workers : 1;
	job->clones_given = kb_job_isset(job, KB_OPT_NUMJOBS);
	kb_job_mark(job, KB_OPT_NUMJOBS, kb_job_isset(job, KB_OPT_WORKERS));
	rotate_streams(job, k);
	if (job->clone_align) {		/* fio's N% offsets: aligned as a whole */
		uint64_t off = job->offset_raw + k * job->offset_increment;

		job->offset = (off + job->clone_align - 1) / job->clone_align * job->clone_align;
		kb_job_mark(job, KB_OPT_OFFSET, true);
	} else if (k && job->offset_increment) {
		job->offset += k * job->offset_increment;
		kb_job_mark(job, KB_OPT_OFFSET, true);
	}
	if (!job->time_based && !kb_job_isset(job, KB_OPT_SIZE) &&
	    (kb_job_isset(job, KB_OPT_RUNTIME) || kb_job_isset(job, KB_OPT_NUMBER_IOS) ||
	     kb_job_isset(job, KB_OPT_IO_SIZE) || job->loops > 1))
		job->span_bytes = devices_span(job);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * fio's cpus_allowed_policy=split: the run's job number i (from 0, clones
 * counted, fio's thread_number - 1) takes the set's (i mod n)-th CPU, in
 * increasing order.  Without a set it changes nothing, as in fio.
 */
static void split_cpus(struct kb_job *job, size_t i)
{
	if (!job->nr_cpus)
		return;
	qsort(job->cpus, job->nr_cpus, sizeof(*job->cpus), cmp_u32);
	job->split_cpu = job->cpus[i % job->nr_cpus];
	job->has_split_cpu = true;
}

/* A start delay of startdelay's range, the same for a given seed and clone. */
static uint64_t draw_delay(const struct kb_job *job)
{
	uint64_t x = job->seed ^ (0x9e3779b97f4a7c15ULL * (job->clone + 1));

	if (job->startdelay_hi_ns <= job->startdelay_ns)
		return job->startdelay_ns;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return job->startdelay_ns + x % (job->startdelay_hi_ns - job->startdelay_ns + 1);
}

/*
 * The clones of a zbd job that writes must not share zones: each clone is
 * a kernel job of its own, which writes at the write pointers it read
 * (fio's clones share one zone state).  Refused where the spans surely
 * meet: the same offset, or offsets closer than a size given in bytes.
 */
static int check_zbd_clones(const struct run *r, size_t first, uint32_t clones)
{
	const struct kb_job *c0 = &r->rj[first].job;
	uint32_t k;

	if (clones < 2 || c0->zonemode != KIOBENCH_ZONEMODE_ZBD || !kb_job_has_writes(c0))
		return 0;
	for (k = 1; k < clones; k++) {
		const struct kb_job *a = &r->rj[first + k - 1].job, *b = &r->rj[first + k].job;
		uint64_t gap = b->offset > a->offset ? b->offset - a->offset : a->offset - b->offset;

		if (!gap || (a->size && !a->size_pct && !a->offset_increment_pct &&
			     gap < a->size)) {
			msg("job '%s': numjobs=%u with zonemode=zbd: the clones would write the "
			    "same zones, each a job of its own from its own write pointers; give "
			    "them spans apart (offset_increment of at least size), or use "
			    "--workers=%u (one job whose workers share the zones)",
			    c0->name, clones, clones);
			return KB_EXIT_USAGE;
		}
	}
	return 0;
}

/*
 * wait_for: the clones [lo, hi) of the one section above first (the jobs
 * of sections [0, sec)) named name.  0, or an error reported.
 */
static int find_waitee(const struct run *r, size_t first, const char *who, const char *name,
		       size_t *lo, size_t *hi)
{
	size_t i, found = 0;

	for (i = 0; i < first; i++) {
		if (strcmp(r->rj[i].job.name, name) || r->rj[i].job.clone)
			continue;
		if (found++) {
			msg("job '%s': wait_for=%s: several jobs above are named so "
			    "(fio: the job waited for must have a unique name)", who, name);
			return KB_EXIT_USAGE;
		}
		*lo = i;
		*hi = i + r->rj[i].job.clones;
	}
	if (!found) {
		msg("job '%s': wait_for=%s: no job of that name above this one", who, name);
		return KB_EXIT_USAGE;
	}
	return 0;
}

/* The job files, read; the sources of the jobs that run into src[] (*n of them). */
static int load_files(char **files, int nr_jf, struct kb_jobfile *jf,
		      const struct kb_global *g, const struct kb_assign_list *cli,
		      struct job_src **src, size_t *n)
{
	char err[KB_ERRLEN];
	size_t i;
	int f;

	*n = 0;
	for (f = 0; f < nr_jf; f++) {
		if (kb_jobfile_load(files[f], &jf[f], err, sizeof(err))) {
			msg("%s", err);
			return KB_EXIT_USAGE;
		}
		*n += jf[f].nr_sec;
	}
	if (sections_found(g, jf, nr_jf))
		return KB_EXIT_USAGE;
	*src = calloc(*n + cli->n + 1, sizeof(**src));
	if (!*src) {
		msg("out of memory");
		return KB_EXIT_SYSTEM;
	}
	*n = cli_jobs(cli, *src);	/* fio: the command line's jobs first */
	for (f = 0; f < nr_jf; f++)
		for (i = 0; i < jf[f].nr_sec; i++)
			if (section_runs(g, jf[f].sec[i].name))
				(*src)[(*n)++] = (struct job_src){ .jf = &jf[f], .i = i };
	return 0;
}

/* The engines named: kiobench issues the I/O itself, in the kernel (said once). */
static void engine_note(const struct run *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		const char *e = r->rj[i].job.ioengine;

		if (e) {
			msg("ioengine=%s: kiobench issues the I/O in the kernel, as bios from its "
			    "worker threads, not through %s", e, e);
			return;
		}
	}
}

/*
 * fio's options about how fio itself runs (thread, io_submit_mode...):
 * each named once per run, saying that nothing of it reaches the device.
 */
static void host_note(const struct run *r)
{
	size_t i;
	int k;

	for (k = 0; k < KB_NR_OPTS; k++) {
		if (!kb_opts[k].host)
			continue;
		for (i = 0; i < r->n; i++)
			if (kb_job_isset(&r->rj[i].job, kb_opts[k].id))
				break;
		if (i < r->n)
			msg("%s: taken, it changes nothing that reaches the device: %s",
			    kb_opts[k].name, kb_opts[k].help);
	}
}

/*
 * fio's zone_reset_threshold without zone_reset_frequency: fio takes it and
 * resets nothing for it (zbd.c reads the threshold only with a frequency).
 * Named once, and not sent: the kernel refuses a threshold alone.
 */
static void inert_zone_threshold(struct run *r)
{
	bool said = false;
	size_t i;

	for (i = 0; i < r->n; i++) {
		struct kb_job *job = &r->rj[i].job;

		if (job->zone_reset_frequency ||
		    !kb_job_isset(job, KB_OPT_ZONE_RESET_THRESHOLD))
			continue;
		if (!said)
			msg("zone_reset_threshold: taken, it changes nothing without "
			    "zone_reset_frequency, as in fio");
		said = true;
		kb_job_mark(job, KB_OPT_ZONE_RESET_THRESHOLD, false);
		job->zone_reset_threshold = 0;
	}
}

/* What the run's options change, said once before it starts. */
static void notes(struct run *r)
{
	engine_note(r);
	host_note(r);
	inert_zone_threshold(r);
}

/*
 * fio's dedupe_global shares the working set among every job of the run
 * (init_dedupe_working_set_seeds() rotates through all of its threads):
 * each job is told the group's seed, its first worker's number in the
 * group and the group's workers.  fio's rotation takes pages of the jobs
 * without the option too, which such a job here cannot lend: the option is
 * on every job of the run or on none.
 */
static int dedupe_group(struct run *r)
{
	uint64_t seed = r->n ? kb_job_seed(&r->rj[0].job) : 0;
	uint32_t first = 0;
	size_t i, with = 0;

	for (i = 0; i < r->n; i++)
		with += r->rj[i].job.dedupe_global;
	if (!with)
		return 0;
	if (with != r->n) {
		msg("dedupe_global: on %zu of the run's %zu jobs: fio's shared working set also "
		    "takes pages of the jobs without it, which kiobench's cannot lend; set it on "
		    "every job or on none", with, r->n);
		return KB_EXIT_USAGE;
	}
	for (i = 0; i < r->n; i++) {
		struct kb_job *job = &r->rj[i].job;
		uint32_t workers = job->nr_devices * (job->numjobs ? job->numjobs : 1);

		if (workers > KIOBENCH_DEDUPE_GROUP_MAX - first) {
			msg("dedupe_global: more than %u workers in the run's jobs",
			    KIOBENCH_DEDUPE_GROUP_MAX);
			return KB_EXIT_USAGE;
		}
		job->dedupe_group_seed = seed;
		job->dedupe_group_first = first;
		first += workers;
	}
	for (i = 0; i < r->n; i++)
		r->rj[i].job.dedupe_group_workers = first;
	return 0;
}

/* Once every job is built: what they take of each other, then the notes. */
static int run_wide(struct run *r)
{
	int ret = dedupe_group(r);

	if (!ret)
		notes(r);
	return ret;
}

/*
 * The jobs of the job files (none: the command line's) into r, in fio's
 * order: each job section (or command-line job) numjobs clones, grouped
 * and sequenced as stonewall, new_group and wait_for say.  As fio's, the
 * command-line job options are the globals the first job file starts
 * from; a further file starts from the defaults.
 */
static int build_jobs(struct run *r, char **files, int nr_jf, struct kb_jobfile *jf,
		      const struct kb_assign_list *cli, struct kb_global *g)
{
	size_t i, nsrc, first, barrier = 0;
	struct job_src *src = NULL;
	unsigned int groupid = 0;
	struct kb_job probe;
	uint32_t k, clones;
	int ret = 0;

	if (nr_jf) {
		ret = load_files(files, nr_jf, jf, g, cli, &src, &nsrc);
		if (ret)
			goto out;
	} else {
		src = calloc(cli->n + 1, sizeof(*src));
		if (!src)
			goto oom;
		nsrc = cli_jobs(cli, src);
		if (!nsrc)	/* no --name: one job of every option */
			src[nsrc++] = (struct job_src){ .from = cli->n, .to = cli->n };
	}
	r->sequenced = true;
	r->rj = calloc(1, sizeof(*r->rj));
	if (!r->rj)
		goto oom;
	for (i = 0; i < nsrc; i++) {
		const struct kb_assign_list *c = !src[i].jf || src[i].jf == &jf[0] ? cli : NULL;
		struct run_job *nv;

		ret = build_job(&probe, &src[i], c, g, 0);
		clones = probe.numjobs ? probe.numjobs : 1;
		kb_job_free(&probe);
		if (ret)
			goto out;
		nv = realloc(r->rj, (r->n + clones) * sizeof(*nv));
		if (!nv)
			goto oom;
		r->rj = nv;
		memset(&r->rj[r->n], 0, clones * sizeof(*nv));
		first = r->n;
		for (k = 0; k < clones; k++) {
			struct run_job *j = &r->rj[r->n];

			r->n++;
			ret = build_job(&j->job, &src[i], c, g, k);
			if (ret)
				goto out;
			make_clone(&j->job, k, clones, r->n - 1);
			if (j->job.cpus_split)
				split_cpus(&j->job, r->n - 1);
			/* fio: a stonewall or new_group below the first job starts a group */
			if (!k && first && (j->job.stonewall || j->job.new_group))
				groupid++;
			if (!k && j->job.stonewall)
				barrier = first;
			j->groupid = groupid;
			j->after = barrier;
			j->delay_ns = draw_delay(&j->job);
			if (j->job.wait_for) {
				ret = find_waitee(r, first, j->job.name, j->job.wait_for,
						  &j->wait_lo, &j->wait_hi);
				if (ret)
					goto out;
			}
		}
		ret = check_zbd_clones(r, first, clones);
		if (ret)
			goto out;
	}
	ret = run_wide(r);
out:
	free(src);
	return ret;
oom:
	msg("out of memory");
	ret = KB_EXIT_SYSTEM;
	goto out;
}

/* --parse-only: the jobs as a job file, every option resolved, one section each. */
static void print_jobs(FILE *out, const struct run *r)
{
	char val[4096];
	size_t i;
	int k;

	for (i = 0; i < r->n; i++) {
		const struct kb_job *job = &r->rj[i].job;

		if (job->clone)	/* a section once, as its file has it */
			continue;
		fprintf(out, "%s[%s]\n", i ? "\n" : "", job->name);
		for (k = 0; k < KB_NR_OPTS; k++) {
			const struct kb_opt *o = &kb_opts[k];

			if (o->scope != KB_SCOPE_JOB || o->id == KB_OPT_NAME ||
			    o->id == KB_OPT_NUMJOBS || o->mark != o->id ||
			    !kb_job_isset(job, o->id))
				continue;
			kb_opt_format(o, job, val, sizeof(val));
			fprintf(out, "%s=%s\n", kb_opt_print_name(o, job), val);
		}
		if (job->clones_given)
			fprintf(out, "numjobs=%u\n", job->clones);
	}
}

int cmd_run(int argc, char **argv)
{
	struct kb_assign_list cli = { 0 };
	struct kb_jobfile *jf = NULL;
	struct run r = { 0 };
	struct kb_global g;
	struct kb_job scratch;
	FILE *out = stdout;
	int ret, nr_jf = 0, f;

	kb_job_init(&scratch);
	kb_global_init(&g, KB_CMD_RUN);
	ret = parse_cli(argc, argv, usage_run, &scratch, &g, &cli);
	if (ret >= 0)
		goto out;
	nr_jf = argc - optind;
	jf = calloc(nr_jf ? nr_jf : 1, sizeof(*jf));
	ret = KB_EXIT_SYSTEM;
	if (!jf)
		goto out;
	ret = KB_EXIT_USAGE;
	if (g.nr_sections && !nr_jf) {
		msg("--section: needs a job file");
		goto out;
	}
	ret = build_jobs(&r, argv + optind, nr_jf, jf, &cli, &g);
	if (ret)
		goto out;
	if (g.parse_only) {
		print_jobs(stdout, &r);
		goto out;
	}
	if (g.output) {
		out = fopen(g.output, "w");
		if (!out) {
			msg("--output: %s: %s", g.output, strerror(errno));
			out = stdout;
			ret = KB_EXIT_SYSTEM;
			goto out;
		}
	}
	ret = signal_exit(execute(&r, &g, out));
out:
	if (out != stdout && fclose(out) && !ret) {
		msg("%s: %s", g.output, strerror(errno));
		ret = KB_EXIT_SYSTEM;
	}
	free_run(&r);
	for (f = 0; jf && f < nr_jf; f++)
		kb_jobfile_free(&jf[f]);
	free(jf);
	kb_assign_list_free(&cli);
	kb_job_free(&scratch);
	kb_global_free(&g);
	return ret;
}

/* ---- features, list, stop, destroy ----------------------------------------- */

int cmd_features(int argc, char **argv)
{
	struct kb_features f;
	struct kb_nlerr e;
	struct kb_nl nl;
	char b1[32], b2[32], b3[32];
	int ret = simple_opts(argc, argv, usage_features);

	if (ret >= 0)
		return ret;
	if (optind < argc) {
		msg("features: unexpected argument '%s'", argv[optind]);
		return KB_EXIT_USAGE;
	}
	if (kb_nl_open(&nl, false, &e))
		return nl_fail("netlink", &e);
	ret = kb_nl_features(&nl, &f, &e);
	kb_nl_close(&nl);
	if (ret)
		return nl_fail("GET_FEATURES", &e);
	printf("kiobench %s, module interface version %u%s\n", KB_TOOL_VERSION, f.version,
	       f.version != KIOBENCH_GENL_VERSION ? " (this tool speaks version "
	       "1: expect trouble)" : "");
	printf("limits:\n");
	printf("  jobs at once:          %u\n", f.jobs);
	printf("  devices per job:       %u\n", f.devices);
	printf("  workers per job:       %u\n", f.workers);
	printf("  iodepth per worker:    %u\n", f.iodepth);
	printf("  largest block size:    %u (%s)\n", f.bs,
	       kb_num2str(b1, sizeof(b1), f.bs, 4, true, "B"));
	printf("  bssplit entries:       %u\n", f.bssplit);
	/* what the module charges: buffers and latency logs */
	printf("  memory per job:        %" PRIu64 " (%s, buffers and latency log)\n",
	       f.job_mem, kb_num2str(b2, sizeof(b2), f.job_mem, 4, true, "B"));
	printf("  memory, all jobs:      %" PRIu64 " (%s)\n", f.total_mem,
	       kb_num2str(b3, sizeof(b3), f.total_mem, 4, true, "B"));
	if (f.present[KIOBENCH_A_LIMIT_LAT_LOG])
		printf("  latency log entries:   %u\n", f.lat_log);
	if (f.present[KIOBENCH_A_LIMIT_RATE_IOPS])
		printf("  rate_iops per worker:  %u\n", f.rate_iops);
	if (f.present[KIOBENCH_A_LIMIT_SOCKET_JOBS])
		printf("  jobs per socket:       %u\n", f.socket_jobs);
	if (f.present[KIOBENCH_A_LIMIT_DETACHED_NS])
		printf("  detached job runtime:  %" PRIu64 " s\n", (uint64_t)(f.detached_ns / 1000000000u));
	printf("histogram: %u sub-bucket bits (relative error <= 1/%llu), %u buckets\n",
	       f.hist_bits, f.hist_bits < 63 ? 1ULL << (f.hist_bits + 1) : 0ULL,
	       f.hist_buckets);
	return KB_EXIT_OK;
}
static void list_header(bool *done)
{
	if (!*done)
		printf("%-6s %-31s %-8s %-10s %7s %10s %14s  %s\n", "ID", "NAME", "STATE",
		       "OWNER", "WORKERS", "ELAPSED_S", "IOS", "DEVICES");
	*done = true;
}

struct list_ctx {
	bool header;
	struct json_object *jobs;	/* --output-format=json */
};

/*
 * The devices and the settings come from the kernel's status reply; a
 * module older than 0.5 sends none, and the devices then come from the
 * job's debugfs config.
 */
static int list_one(const struct kb_status *st, void *arg)
{
	struct list_ctx *c = arg;
	char devs[1024] = "-", owner[16] = "-", line[16384];
	uint64_t ios = 0;
	int d;

	for (d = 0; d < KIOBENCH_NR_DIRS; d++)
		ios += st->dir[d].all_ios;
	if (st->cfg.present)
		snprintf(devs, sizeof(devs), "%s", st->cfg.devices);
	else if (st->debugfs_dir[0])
		kb_debugfs_devices(st->debugfs_dir, devs, sizeof(devs));
	if (st->has_owner && st->owner)
		snprintf(owner, sizeof(owner), "%" PRIu32, st->owner);
	else if (st->has_owner)
		snprintf(owner, sizeof(owner), "detached");
	if (c->jobs) {
		struct json_object *o = json_object_new_object();

		kb_jadd(o, "job_id", kb_ju64(st->id));
		kb_jadd(o, "name", kb_jstr(st->name));
		kb_jadd(o, "state", kb_jstr(kb_state_name(st->state)));
		kb_jadd(o, "owner", st->has_owner ? kb_ju64(st->owner) : NULL);
		kb_jadd(o, "nr_workers", kb_ju64(st->nr_workers));
		kb_jadd(o, "elapsed_ns", kb_ju64(st->elapsed_ns));
		kb_jadd(o, "all_ios", kb_ju64(ios));
		kb_jadd(o, "error", json_object_new_int(-st->error));
		kb_jadd(o, "devices", kb_jstr(devs));
		kb_jadd(o, "settings", kb_kcfg_json(&st->cfg));
		json_object_array_add(c->jobs, o);
		return 0;
	}
	list_header(&c->header);
	printf("%-6u %-31s %-8s %-10s %7u %10.1f %14" PRIu64 "  %s", st->id, st->name,
	       kb_state_name(st->state), owner, st->nr_workers, st->elapsed_ns / 1e9, ios,
	       devs);
	if (st->error)
		printf("  %s", errname(-st->error));
	kb_kcfg_str(&st->cfg, line, sizeof(line));
	printf("\n       settings: %s\n", line);
	return 0;
}

/* --output-format=normal|json and --help; 1: bad usage (reported). */
static int list_opts(int argc, char **argv, unsigned int *fmt)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "output-format", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	char err[KB_ERRLEN];
	int c;

	opterr = 0;
	optind = 1;
	*fmt = KB_FMT_NORMAL;
	while ((c = getopt_long(argc, argv, "+h", lo, NULL)) != -1) {
		if (c == 'h') {
			usage_list(stdout);
			return KB_EXIT_OK;
		}
		if (c == 'o' && !kb_parse_formats(optarg, KB_FMT_NORMAL | KB_FMT_JSON, fmt, err,
						  sizeof(err)) && (*fmt == KB_FMT_NORMAL ||
								   *fmt == KB_FMT_JSON))
			continue;
		if (c == 'o')
			msg("list: %s", *fmt == (KB_FMT_NORMAL | KB_FMT_JSON) ?
			    "one output format at a time" : err);
		else
			msg("list: unknown option '%s'", argv[optind - 1]);
		usage_list(stderr);
		return KB_EXIT_USAGE;
	}
	if (optind < argc) {
		msg("list: unexpected argument '%s'", argv[optind]);
		return KB_EXIT_USAGE;
	}
	return -1;
}

int cmd_list(int argc, char **argv)
{
	struct list_ctx c = { 0 };
	struct kb_nlerr e;
	struct kb_nl nl;
	unsigned int fmt;
	int ret = list_opts(argc, argv, &fmt);

	if (ret >= 0)
		return ret;
	if (kb_nl_open(&nl, false, &e))
		return nl_fail("netlink", &e);
	if (fmt == KB_FMT_JSON)
		c.jobs = json_object_new_array();
	ret = kb_nl_job_dump(&nl, list_one, &c, &e);
	kb_nl_close(&nl);
	if (ret) {
		json_object_put(c.jobs);
		return nl_fail("JOB_GET", &e);
	}
	if (c.jobs) {
		struct json_object *root = json_object_new_object();

		kb_jadd(root, "jobs", c.jobs);
		printf("%s\n", json_object_to_json_string_ext(root, KB_JSON_FLAGS));
		json_object_put(root);
		return KB_EXIT_OK;
	}
	list_header(&c.header);
	return KB_EXIT_OK;
}
static int cmd_id(int argc, char **argv, int cmd, void (*usage)(FILE *))
{
	char err[KB_ERRLEN], what[64];
	struct kb_nlerr e;
	struct kb_nl nl;
	uint64_t id;
	int ret = simple_opts(argc, argv, usage);

	if (ret >= 0)
		return ret;
	if (optind + 1 != argc) {
		msg("%s: %s", argv[0], optind == argc ? "missing job ID" : "too many arguments");
		usage(stderr);
		return KB_EXIT_USAGE;
	}
	if (kb_parse_u64(argv[optind], &id, err, sizeof(err)) || id > UINT32_MAX) {
		msg("%s: invalid job ID '%s'", argv[0], argv[optind]);
		return KB_EXIT_USAGE;
	}
	if (kb_nl_open(&nl, false, &e))
		return nl_fail("netlink", &e);
	ret = kb_nl_job_cmd(&nl, cmd, id, &e);
	kb_nl_close(&nl);
	snprintf(what, sizeof(what), "%s job %" PRIu64, argv[0], id);
	return ret ? nl_fail(what, &e) : KB_EXIT_OK;
}

int cmd_stop(int argc, char **argv)
{
	return cmd_id(argc, argv, KIOBENCH_CMD_JOB_STOP, usage_stop);
}

int cmd_destroy(int argc, char **argv)
{
	return cmd_id(argc, argv, KIOBENCH_CMD_JOB_DEL, usage_destroy);
}

/* ---- plot ------------------------------------------------------------------- */

/* kiobench-plot: $KIOBENCH_PLOT, else next to this program, else in $PATH. */
static void plot_path(char *path, size_t len)
{
	const char *env = getenv("KIOBENCH_PLOT");
	char self[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env) {
		snprintf(path, len, "%s", env);
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = 0;
		slash = strrchr(self, '/');
		if (slash) {
			*slash = 0;
			snprintf(path, len, "%s/kiobench-plot", self);
			if (!access(path, X_OK))
				return;
		}
	}
	snprintf(path, len, "kiobench-plot");
}

int cmd_plot(int argc, char **argv)
{
	char path[PATH_MAX + 32];

	(void)argc;
	plot_path(path, sizeof(path));
	argv[0] = path;
	execvp(path, argv);
	msg("plot: cannot run %s: %s (install tools/kiobench-plot next to kiobench or "
	    "set KIOBENCH_PLOT)", path, strerror(errno));
	return KB_EXIT_SYSTEM;
}
