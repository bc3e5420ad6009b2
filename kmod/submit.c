// SPDX-License-Identifier: GPL-2.0
/*
 * fio's options of how I/O is submitted, and barrier writes, for bios that
 * kernel threads issue:
 *
 * - nice: the workers' nice value, set before they first run.
 * - write_barrier=N (the tool's preflush_fua; fio's write_barrier sends
 *   nothing): after every N writes the next is a barrier write,
 *   REQ_PREFLUSH | REQ_FUA (barriers became exactly that in 2.6.37).
 * - nowait: REQ_NOWAIT on reads and writes; the block layer fails such a
 *   bio with BLK_STS_AGAIN instead of sleeping for a request (or splitting
 *   it), and that is an I/O error, as EAGAIN is for fio (kb_end_io()).
 * - serialize_overlap: an I/O that overlaps one of its worker's in flight
 *   waits, and those picked after it wait behind it (worker.c's queue of
 *   deferred slots), as fio's FIO_Q_BUSY requeues it and reaps.  Only the
 *   worker's own slots are looked at: fio's jobs (numjobs) check their own.
 * - write_hint: every data bio's bi_write_hint (compat.h), as the kernel's
 *   direct I/O sets the block device inode's F_SET_RW_HINT.
 * - write_streams: every REQ_OP_WRITE bio's bi_write_stream (compat.h),
 *   one of the job's list as write_stream_select says (kb_write_stream()):
 *   the NVMe driver sends stream N as the namespace's FDP placement handle
 *   N-1.  Each device must offer the largest (max_write_streams).
 *
 * Nothing here allocates or takes a lock on the I/O path.
 */
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <net/genetlink.h>
#include <kunit/visibility.h>

#include "kiobench.h"

/*
 * fio's iodepth_batch_submit, iodepth_low and iodepth_batch_complete_min,
 * taken at most iodepth as fio takes them (init.c).  A worker reaps as fio
 * does (kb_fio_reap()) unless that is one completion at a time, which a
 * completion's refill is: complete_min at most 1 and iodepth_low at least
 * iodepth - 1.  Not with rate-iops, latency-target-ns or flow, whose
 * depth is their own.
 */
static int kb_parse_batch(struct genl_info *info, struct kb_config *cfg)
{
	struct nlattr **tb = info->attrs;
	u32 d = cfg->iodepth;

	cfg->iodepth_batch = min(cfg->iodepth_batch, d);
	cfg->iodepth_low = cfg->iodepth_low < d ? cfg->iodepth_low : 0;
	cfg->iodepth_batch_complete_min = min(cfg->iodepth_batch_complete_min, d);
	cfg->reap_rounds = cfg->iodepth_batch_complete_min > 1 ||
			   (cfg->iodepth_low && cfg->iodepth_low < d - 1);
	if (cfg->reap_rounds && (cfg->rate_iops || cfg->latency_target_ns || cfg->flow)) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    tb[KIOBENCH_A_IODEPTH_LOW] ?:
				    tb[KIOBENCH_A_IODEPTH_BATCH_COMPLETE_MIN],
				    "iodepth-low, iodepth-batch-complete-min: not with rate-iops, latency-target-ns or flow");
		return -EINVAL;
	}
	cfg->submit_opts = cfg->write_barrier || cfg->nowait ||
			   cfg->serialize_overlap || cfg->iodepth_batch ||
			   cfg->reap_rounds;
	return 0;
}

/*
 * write-streams: 1 to KB_MAX_WRITE_STREAMS ids (the policy bounds the
 * length), none 0; job selection takes one.  A kernel without write
 * streams refuses them; the devices' limit is kb_check_submit()'s.
 */
static int kb_parse_streams(struct genl_info *info, struct kb_config *cfg)
{
	struct nlattr **tb = info->attrs;
	struct nlattr *a = tb[KIOBENCH_A_WRITE_STREAMS];
	const u8 *ids;
	int i, n;

	if (!a) {
		if (tb[KIOBENCH_A_WRITE_STREAM_SELECT]) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    tb[KIOBENCH_A_WRITE_STREAM_SELECT],
					    "write-stream-select: only with write-streams");
			return -EINVAL;
		}
		return 0;
	}
	if (!KB_WRITE_STREAMS) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "write-streams: this kernel's bios carry no write stream (bi_write_stream: 6.16)");
		return -EOPNOTSUPP;
	}
	n = nla_len(a);
	ids = nla_data(a);
	if (!n) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "write-streams: 1 to 16 stream ids");
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (!ids[i]) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "write-streams: stream ids from 1 (0 is none)");
			return -ERANGE;
		}
		cfg->write_streams[i] = ids[i];
		cfg->max_write_stream = max(cfg->max_write_stream, ids[i]);
	}
	cfg->nr_write_streams = n;
	if (tb[KIOBENCH_A_WRITE_STREAM_SELECT])
		cfg->write_stream_select =
			nla_get_u8(tb[KIOBENCH_A_WRITE_STREAM_SELECT]);
	if (cfg->write_stream_select == KIOBENCH_WS_JOB && n != 1) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    tb[KIOBENCH_A_WRITE_STREAM_SELECT],
				    "write-stream-select: job takes one stream in write-streams");
		return -EINVAL;
	}
	return 0;
}

/*
 * The request's nice (s32: -20 to 19, bounds the spec cannot say) and the
 * rules across attributes: write_barrier only on plain writes, write_hint
 * only where bios carry one.  serialize_overlap is dropped by a job that only reads,
 * as fio drops it (init.c): reads change nothing.
 */
int kb_parse_submit(struct genl_info *info, struct kb_config *cfg)
{
	struct nlattr **tb = info->attrs;

	if (tb[KIOBENCH_A_NICE])
		cfg->nice = nla_get_s32(tb[KIOBENCH_A_NICE]);
	if (cfg->nice < MIN_NICE || cfg->nice > MAX_NICE) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KIOBENCH_A_NICE],
				    "nice: -20 to 19");
		return -ERANGE;
	}
	if (cfg->write_barrier && (cfg->write_zeroes || cfg->zone_append)) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KIOBENCH_A_WRITE_BARRIER],
				    "write-barrier: not with write-zeroes or zone-append (REQ_PREFLUSH | REQ_FUA on REQ_OP_WRITE only)");
		return -EINVAL;
	}
	if (cfg->write_hint && !KB_WRITE_HINTS) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KIOBENCH_A_WRITE_HINT],
				    "write-hint: this kernel's bios carry no write hint (bi_write_hint: removed in 5.18, back in 6.9)");
		return -EOPNOTSUPP;
	}
	if (cfg->rwmix_read == 100)
		cfg->serialize_overlap = false;
	return kb_parse_streams(info, cfg) ?: kb_parse_batch(info, cfg);
}

/*
 * nowait on a device that cannot take REQ_NOWAIT (QUEUE_FLAG_NOWAIT
 * clear): submit_bio_noacct() would fail every I/O with BLK_STS_NOTSUPP.
 */
int kb_check_submit(struct kb_job *job, struct kb_dev *dev, const char *path,
		    struct netlink_ext_ack *extack)
{
	if (job->cfg.nowait && !bdev_nowait(dev->bdev.bdev)) {
		KB_ERR_FMT(extack, NULL,
			   "nowait: a device does not take REQ_NOWAIT (QUEUE_FLAG_NOWAIT)",
			   "nowait: %s does not take REQ_NOWAIT (QUEUE_FLAG_NOWAIT)",
			   path);
		return -EOPNOTSUPP;
	}
	if (job->cfg.nr_write_streams) {
		unsigned int max = kb_max_write_streams(dev->bdev.bdev);

		if (job->cfg.max_write_stream > max) {
			KB_ERR_FMT(extack, NULL,
				   "write-streams: a stream beyond a device's max_write_streams",
				   "write-streams: stream %u beyond max_write_streams %u of %s",
				   job->cfg.max_write_stream, max, path);
			return -ERANGE;
		}
	}
	return 0;
}

/* write_stream_select's stream for the next write of @w. */
u8 kb_write_stream(struct kb_worker *w)
{
	const struct kb_config *cfg = &w->job->cfg;
	unsigned int i;

	switch (cfg->write_stream_select) {
	case KIOBENCH_WS_RANDOM:
		i = kb_rng_below(&w->wsrng, cfg->nr_write_streams);
		break;
	case KIOBENCH_WS_WORKER:
		i = w->index % cfg->nr_write_streams;
		break;
	case KIOBENCH_WS_JOB:
		i = 0;
		break;
	default:
		i = w->ws_next;
		if (++w->ws_next == cfg->nr_write_streams)
			w->ws_next = 0;
		break;
	}
	return cfg->write_streams[i];
}

/* A worker's kthread, created and not yet woken. */
void kb_submit_nice(struct kb_job *job, struct task_struct *task)
{
	if (job->cfg.nice)
		set_user_nice(task, job->cfg.nice);
}

/* The flags write_barrier and nowait add to a bio of @opf. */
blk_opf_t kb_submit_opf(struct kb_worker *w, struct kb_slot *slot,
			blk_opf_t opf)
{
	const struct kb_config *cfg = &w->job->cfg;
	enum req_op op = opf & REQ_OP_MASK;
	blk_opf_t add = 0;

	if (slot->barrier && slot->dir == KIOBENCH_DIR_WRITE)
		add |= REQ_PREFLUSH | REQ_FUA;
	if (cfg->nowait && (op == REQ_OP_READ || op == REQ_OP_WRITE) &&
	    slot->len)
		add |= REQ_NOWAIT;
	return add;
}

/*
 * After a submission: iodepth_batch flushes a plug that holds that many
 * requests (the block layer's own count: a bio merged into one adds none),
 * and a worker that has become full in fio's view, its completions not
 * reaped counting, starts to reap (kb_fio_reap()).
 */
void kb_submit_issued(struct kb_worker *w)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct blk_plug *plug = current->plug;

	if (cfg->iodepth_batch && plug && plug->rq_count >= cfg->iodepth_batch) {
		blk_finish_plug(plug);
		blk_start_plug(plug);
		plug->nr_ios = cfg->iodepth_batch;
	}
	if (cfg->reap_rounds && w->inflight + w->unreaped == w->nr_slots)
		w->held = true;
}

/*
 * fio's wait_for_completions() (backend.c), for a worker that is full:
 * rounds of io_u_queued_complete(), each reaping exactly complete_min
 * completions (at least 1, at most fio's depth: its getevents() takes as
 * many as complete_max, which defaults to complete_min), while more than
 * iodepth_low are in fio's depth.  A completion is reaped in a round, not
 * at bi_end_io: until then it holds its slot, as an io_u fio has not
 * reaped, so the refill is the rounds' I/Os: all the depth's completions
 * at once leave the last round's extra unreaped.  A worker not full, with
 * nothing in flight and nothing reaped to refill (its other slots parked
 * for a thinktime pause, or the job ending) reaps the rest, as fio's
 * quiesce does: nothing else would.
 */
void kb_fio_reap(struct kb_worker *w)
{
	const struct kb_config *cfg = &w->job->cfg;
	u32 low = cfg->iodepth_low ?: cfg->iodepth;
	u32 depth = w->inflight + w->unreaped, n;

	while (w->held) {
		/*
		 * Of fio's depth, as it is: with nothing in flight all of it
		 * is unreaped, and at the job's end (completions dropped)
		 * possibly nothing, a round of none that ends the rounds.
		 */
		n = min(max(cfg->iodepth_batch_complete_min, 1U), depth);
		if (w->unreaped < n)
			return;
		w->unreaped -= n;
		w->reaped += n;
		depth -= n;
		if (depth <= low)
			w->held = false;
	}
	if (!w->inflight && !w->reaped) {
		w->reaped = w->unreaped;
		w->unreaped = 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(kb_fio_reap);

/* Whether @slot's blocks overlap those of a slot of its worker in flight. */
bool kb_overlaps(const struct kb_worker *w, const struct kb_slot *slot)
{
	u64 start = slot->off, end = slot->off + slot->len;
	unsigned int i;

	if (!slot->len)
		return false;
	for (i = 0; i < w->nr_slots; i++) {
		const struct kb_slot *s = w->slots[i];

		if (s->busy && s != slot && s->off < end && start < s->off + s->len)
			return true;
	}
	return false;
}
