// SPDX-License-Identifier: GPL-2.0
/*
 * fio's read_iolog and its replay options (replay.h).  The tool reads the
 * log (fio's text iologs, versions 2 and 3), applies replay_scale,
 * replay_align, replay_skip and replay_time_scale, and sends the I/Os as
 * fixed-size entries: replay-nr, their count, at JOB_NEW, which allocates
 * the table; the entries themselves with JOB_REPLAY, as many as a message
 * holds each time (an attribute holds at most 64 KiB), checked against
 * the device as they come; JOB_START refuses a job whose table is not full.
 * The table is read-only once the job runs: each worker reads it with a
 * cursor of its own, so the hot path takes no lock and allocates nothing.
 */
#include <linux/blkdev.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <net/genetlink.h>

#include "kiobench.h"

/* What a replay cannot be combined with, checked at JOB_NEW. */
int kb_replay_parse(struct genl_info *info, const struct kb_config *cfg)
{
	struct nlattr *a = info->attrs[KIOBENCH_A_REPLAY_NR];

	if (!cfg->replay_nr) {
		if (!cfg->replay_timed)
			return 0;
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[KIOBENCH_A_REPLAY_TIMED],
				    "replay-timed: only with replay-nr");
		return -EINVAL;
	}
	if (cfg->nr_devs > 1) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "replay-nr: one device per job (the log's I/Os go to one device)");
		return -EINVAL;
	}
	if (cfg->rate_iops || cfg->thinktime_ns || cfg->verify || cfg->trim_mode ||
	    cfg->zonemode || cfg->latency_target_ns || cfg->flow || cfg->fsync) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "replay-nr: not with rate-iops, thinktime-ns, verify, trim-mode, zonemode, latency-target-ns, flow or fsync (the log has its syncs)");
		return -EINVAL;
	}
	return 0;
}

/* The size of the job's table of cfg.replay_nr entries (24 MiB at most). */
u64 kb_replay_mem(const struct kb_job *job)
{
	return (u64)job->cfg.replay_nr * sizeof(*job->replay);
}

/* The job's table, charged (kb_replay_mem()) by kb_charge_mem() first. */
int kb_replay_alloc(struct kb_job *job)
{
	if (!job->cfg.replay_nr)
		return 0;
	job->replay = kvcalloc(job->cfg.replay_nr, sizeof(*job->replay),
			       GFP_KERNEL);
	return job->replay ? 0 : -ENOMEM;
}

void kb_replay_free(struct kb_job *job)
{
	kvfree(job->replay);
	job->replay = NULL;
}

/* One entry against the job's device and settings; 0 if it may be issued. */
static int kb_replay_check(const struct kb_job *job,
			   const struct kiobench_replay_ent *e, u32 idx,
			   const struct nlattr *a, struct netlink_ext_ack *extack)
{
	const struct kb_config *cfg = &job->cfg;
	const struct kb_dev *dev = &job->devs[0];
	struct block_device *bdev = dev->bdev.bdev;
	u64 end;

	if (e->dir > KIOBENCH_DIR_SYNC) {
		KB_ERR_FMT(extack, a,
			   "replay-ents: an entry's dir is not read, write, trim or sync",
			   "replay-ents: entry %u: dir %u unknown", idx, e->dir);
		return -EINVAL;
	}
	/*
	 * A flush writes the device's cache out, as fsync's and end-fsync's
	 * do: without allow-writes the device is opened shared, and may be
	 * mounted.
	 */
	if (e->dir != KIOBENCH_DIR_READ && !cfg->allow_writes) {
		KB_ERR_FMT(extack, a,
			   "replay-ents: a write, trim or sync; the request must set allow-writes",
			   "replay-ents: entry %u: a %s without allow-writes", idx,
			   e->dir == KIOBENCH_DIR_WRITE ? "write" :
			   e->dir == KIOBENCH_DIR_TRIM ? "trim" : "sync");
		return -EINVAL;	/* as rwmix-read's; EPERM reads as no CAP_SYS_ADMIN */
	}
	if (e->dir == KIOBENCH_DIR_SYNC) {
		if (!e->offset && !e->len)
			return 0;
		KB_ERR_FMT(extack, a, "replay-ents: a sync entry has an offset or length",
			   "replay-ents: entry %u: a sync with an offset or len", idx);
		return -EINVAL;
	}
	if (e->offset % dev->lbs) {
		KB_ERR_FMT(extack, a,
			   "replay-ents: an entry's offset is not a multiple of the logical block size",
			   "replay-ents: entry %u: offset not a multiple of the LBS %u",
			   idx, dev->lbs);
		return -EINVAL;
	}
	if (!e->len || e->len > cfg->max_bs || e->len % dev->lbs) {
		KB_ERR_FMT(extack, a,
			   "replay-ents: an entry's len is 0, above bs or not a multiple of the logical block size",
			   "replay-ents: entry %u: len %u: 0, above bs or not LBS-aligned",
			   idx, e->len);
		return -EINVAL;
	}
	if (check_add_overflow(e->offset, (u64)e->len, &end) ||
	    end > bdev_nr_bytes(bdev)) {
		KB_ERR_FMT(extack, a, "replay-ents: an entry ends beyond the device",
			   "replay-ents: entry %u: ends beyond the device", idx);
		return -ERANGE;
	}
	if (e->dir == KIOBENCH_DIR_TRIM && !bdev_max_discard_sectors(bdev)) {
		KB_ERR_FMT(extack, a,
			   "replay-ents: a trim, and the device's discard_max_bytes is 0",
			   "replay-ents: entry %u: a trim; discard_max_bytes is 0", idx);
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * JOB_REPLAY: appends the attribute's entries to a new job's table, all
 * or none; called with the registry locked, so that no START races it.
 */
int kb_replay_append(struct kb_job *job, const struct nlattr *a,
		     struct netlink_ext_ack *extack)
{
	const struct kiobench_replay_ent *e = nla_data(a);
	u32 n, i;
	int err;

	if (!job->cfg.replay_nr) {
		NL_SET_ERR_MSG_ATTR(extack, a, "replay-ents: the job has no replay-nr");
		return -EINVAL;
	}
	if (nla_len(a) % sizeof(*e)) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "replay-ents: not a whole number of 24-byte entries");
		return -EINVAL;
	}
	n = nla_len(a) / sizeof(*e);
	if (n > job->cfg.replay_nr - job->replay_fill) {
		KB_ERR_FMT(extack, a, "replay-ents: more entries than replay-nr announced",
			   "replay-ents: %u more entries after %u of replay-nr %u",
			   n, job->replay_fill, job->cfg.replay_nr);
		return -E2BIG;
	}
	for (i = 0; i < n; i++) {
		err = kb_replay_check(job, &e[i], job->replay_fill + i, a, extack);
		if (err)
			return err;
	}
	memcpy(job->replay + job->replay_fill, e, n * sizeof(*e));
	job->replay_fill += n;
	return 0;
}

/* JOB_START: the table is full. */
int kb_replay_ready(const struct kb_job *job, struct netlink_ext_ack *extack)
{
	if (job->replay_fill == job->cfg.replay_nr)
		return 0;
	KB_ERR_FMT(extack, NULL,
		   "replay-nr: the job's log has not been uploaded whole (job-replay)",
		   "replay-nr: %u of %u entries uploaded (job-replay)",
		   job->replay_fill, job->cfg.replay_nr);
	return -EINVAL;
}

/*
 * The worker's next entry into @slot; the budget of I/Os (replay-nr, set
 * by kb_init_budgets()) tells when there is none.
 */
void kb_replay_pick(struct kb_worker *w, struct kb_slot *slot)
{
	const struct kiobench_replay_ent *e = &w->job->replay[w->rp_next++];

	w->ios_left--;
	slot->off = e->offset;
	slot->len = e->len;
	slot->dir = e->dir;
	slot->barrier = false;
	slot->cmdprio = false;
	slot->submit_ns = 0;
	if (e->dir == KIOBENCH_DIR_WRITE && kb_data_per_write(&w->job->cfg))
		kb_data_write(w, slot, e->offset, e->len);
}

/*
 * replay-timed: once the first entry is submitted, the others' times count
 * from then (one clock read, for the first only): the log's gaps count
 * from its actual issue, as fio's delays from its previous issue, and the
 * first one's lateness (waking the worker, a cold submission path) does
 * not shorten the gap after it.
 */
void kb_replay_issued(struct kb_worker *w)
{
	if (w->rp_next == 1)
		w->rp_start_ns = ktime_get_ns() - w->job->replay[0].time_ns;
}

/* replay-timed: the next entry's arrival; none (U64_MAX) after the last. */
void kb_replay_sched(struct kb_worker *w)
{
	const struct kb_job *job = w->job;

	w->sched.next_ns = w->rp_next < job->cfg.replay_nr ?
			   w->rp_start_ns + job->replay[w->rp_next].time_ns :
			   U64_MAX;
}
