/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a worker submits its bios, fio's options of it (submit.c): nice,
 * write_barrier, nowait, serialize_overlap, write_hint, write_streams.  The
 * worker's hot path calls in only when the job has one of them
 * (kb_config.submit_opts, write_hint, nr_write_streams): an option that is
 * off costs one predictable branch.
 */
#ifndef KB_SUBMIT_H
#define KB_SUBMIT_H

struct genl_info;

int kb_parse_submit(struct genl_info *info, struct kb_config *cfg);
int kb_check_submit(struct kb_job *job, struct kb_dev *dev, const char *path,
		    struct netlink_ext_ack *extack);
void kb_submit_nice(struct kb_job *job, struct task_struct *task);
blk_opf_t kb_submit_opf(struct kb_worker *w, struct kb_slot *slot,
			blk_opf_t opf);
bool kb_overlaps(const struct kb_worker *w, const struct kb_slot *slot);
u8 kb_write_stream(struct kb_worker *w);
void kb_submit_issued(struct kb_worker *w);
void kb_fio_reap(struct kb_worker *w);

/*
 * iodepth_low, iodepth_batch_complete_min (reap_rounds): the slots on
 * deferred go out only once fio's rounds of reaping are over, as many as
 * it reaped, each taking one (kb_took_deferred()).  Completions join
 * deferred as unreaped, the other slots it holds (refused, waiting for a
 * tag) as reaped.
 */
static inline bool kb_refill_held(struct kb_worker *w)
{
	if (likely(!w->job->cfg.reap_rounds))
		return false;
	if (w->held || !w->reaped)
		kb_fio_reap(w);
	return w->held || !w->reaped;
}

static inline void kb_deferred_added(struct kb_worker *w, bool done)
{
	if (unlikely(w->job->cfg.reap_rounds)) {
		if (done)
			w->unreaped++;
		else
			w->reaped++;
	}
}

static inline void kb_took_deferred(struct kb_worker *w)
{
	if (unlikely(w->job->cfg.reap_rounds))
		w->reaped--;
}

/* A picked write: whether write_barrier makes it a barrier write. */
static inline bool kb_barrier_due(struct kb_worker *w)
{
	u32 n = w->job->cfg.write_barrier;

	if (likely(!n) || ++w->since_barrier <= n)
		return false;
	w->since_barrier = 1;
	return true;
}

/* serialize_overlap: whether @slot must wait for an I/O in flight. */
static inline bool kb_overlap_held(const struct kb_worker *w,
				   const struct kb_slot *slot)
{
	return unlikely(w->job->cfg.serialize_overlap) && w->inflight &&
	       kb_overlaps(w, slot);
}

#endif /* KB_SUBMIT_H */
