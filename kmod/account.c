// SPDX-License-Identifier: GPL-2.0
/*
 * Completion and accounting: kb_end_io() stamps each bio and hands it back
 * to its worker, which counts it in its own statistics as it reaps it
 * (kb_account_reaped()), with no lock and no atomic; the control path reads
 * those statistics back (kb_job_sum() and the other readers) and samples
 * the timeline.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sbitmap.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/xarray.h>
#include <kunit/visibility.h>

#include "kiobench.h"

/* ---- completion ---------------------------------------------------------- */

/*
 * The optional per-I/O log: one atomic per measured I/O (with lat-log-all,
 * per I/O) claims an entry, and stops being taken once the log is full.
 * Entries are read only after the job has ended, when every claimed entry
 * has been written.
 */
static void kb_log_lat(struct kb_job *job, struct kb_slot *slot, u64 now,
		       blk_status_t status)
{
	bool warmup = slot->submit_ns < slot->w->ramp_end_ns;
	struct kb_lat_entry *e;
	s64 i;

	if (!job->cfg.lat_log_all && (status || warmup))
		return;		/* only measured I/Os */
	if (atomic64_read(&job->lat_log_next) >= job->cfg.lat_log)
		return;
	i = atomic64_fetch_inc(&job->lat_log_next);
	if (i >= job->cfg.lat_log)
		return;
	e = &job->lat_log[i];
	e->end_ns = now - job->start_ns;
	e->lat_ns = now - slot->submit_ns;
	e->offset = slot->off;
	e->len = slot->len;
	e->dir = slot->dir;
	if (job->cfg.lat_log_all) {
		e->dev = slot->w->dev - job->devs;
		e->warmup = warmup;
		e->failed = status != BLK_STS_OK;
	}
	e->ioprio = slot->cmdprio ? job->cfg.cmdprio_ioprio[slot->dir] :
				    job->cfg.ioprio;
}

/* Counts a successful I/O; measured: submitted after the warm-up. */
static void kb_count(struct kb_dir_stats *d, u32 len, u64 lat, bool measured)
{
	struct kb_counters *c = &d->c;

	c->all_ios++;
	c->all_bytes += len;
	c->all_lat_sum += lat;
	if (!measured)
		return;
	c->ios++;
	c->bytes += len;
	c->lat_sum += lat;
	c->lat_sumsq += (__uint128_t)lat * lat;
	if (lat < c->lat_min)
		c->lat_min = lat;
	if (lat > c->lat_max)
		c->lat_max = lat;
	d->hist[kb_hist_idx(lat)]++;
}

static void kb_metric_add(struct kb_job *job, struct kb_stats *s,
			  enum kb_metric_id id, unsigned int dir, u64 v)
{
	struct kb_metric *m;

	if (job->metric_idx[id] < 0)
		return;
	m = &s->m[job->metric_idx[id]][dir];
	m->n++;
	m->sum += v;
	m->sumsq += (__uint128_t)v * v;
	if (v < m->min)
		m->min = v;
	if (v > m->max)
		m->max = v;
	m->hist[kb_hist_idx(v)]++;
}

/* The secondary measures of a measured, successful I/O. */
static void kb_count_metrics(struct kb_job *job, struct kb_stats *s,
			     struct kb_slot *slot, u64 now, bool local)
{
	unsigned int dir = slot->dir;
	enum kb_unsplit why;
	u64 st[3];

	if (job->cfg.cmdprio_any)
		kb_metric_add(job, s, slot->cmdprio ? KB_M_CLAT_PRIO_CMD :
			      KB_M_CLAT_PRIO_DEF, dir, now - slot->submit_ns);
	if (job->cfg.rate_iops) {
		kb_metric_add(job, s, KB_M_SCHED_LAG, dir,
			      slot->submit_ns - slot->sched_ns);
		kb_metric_add(job, s, KB_M_LAT_SCHED, dir, now - slot->sched_ns);
	}
	if (job->cfg.locality)
		kb_metric_add(job, s, local ? KB_M_LAT_LOCAL : KB_M_LAT_REMOTE,
			      dir, now - slot->submit_ns);
	if (!job->cfg.stages)
		return;
	if (!kb_stage_split(slot, now, st, &why)) {
		s->dir[dir].c.unsplit[why]++;
		return;
	}
	kb_metric_add(job, s, KB_M_STAGE_QUEUE, dir, st[0]);
	kb_metric_add(job, s, KB_M_STAGE_DEVICE, dir, st[1]);
	kb_metric_add(job, s, KB_M_STAGE_COMPLETE, dir, st[2]);
}

/* Counts one reaped I/O in @s, inside the caller's write section. */
static void kb_count_io(struct kb_job *job, struct kb_stats *s,
			struct kb_slot *slot)
{
	u64 now = slot->end_ns, lat = now - slot->submit_ns;
	blk_status_t status = slot->bio.bi_status;
	bool measured = !status && slot->submit_ns >= slot->w->ramp_end_ns;
	struct kb_dir_stats *d = &s->dir[slot->dir];

	if (unlikely(status))
		d->c.errors++;
	else
		kb_count(d, slot->len, lat, measured);
	if (measured && job->nr_metrics)
		kb_count_metrics(job, s, slot, now, slot->loc_local);
}

/**
 * kb_account_reaped() - counts a worker's reaped completions
 * @w: the worker, in its own task
 * @list: the slots it took from its done list; the refused ones (which
 *	  did nothing) are skipped
 *
 * Each I/O is counted in the worker's own statistics, which only it
 * writes, so nothing here turns interrupts off or takes an atomic: one
 * write section of the sequence count covers the whole batch.  A plain
 * seqcount_t's writer must not be preempted (a reader would spin behind
 * it), on PREEMPT_RT too, so preemption is off for that section, which
 * is as short as the batch's counting.  The latency was fixed when
 * kb_end_io() stamped the I/O: when it is counted changes nothing but
 * when a running job's readers see it.
 */
void kb_account_reaped(struct kb_worker *w, struct llist_node *list)
{
	struct kb_stats *s = w->stats;
	struct kb_slot *slot;

	preempt_disable();
	write_seqcount_begin(&s->seq);
	llist_for_each_entry(slot, list, node)
		if (likely(!slot->refused))
			kb_count_io(w->job, s, slot);
	write_seqcount_end(&s->seq);
	preempt_enable();
}
EXPORT_SYMBOL_IF_KUNIT(kb_account_reaped);

/*
 * An operation the worker timed itself around a synchronous call (the zone
 * resets of zonemode zbd, zone.c): counted as a reaped bio of @dir is,
 * with no secondary measures (it has no slot).  A stages job counts it
 * unsplit: the call's bio is the block layer's, which the probes do not
 * know.
 */
void kb_account_op(struct kb_worker *w, unsigned int dir, u32 len, u64 start,
		   u64 now, int err)
{
	struct kb_stats *s = w->stats;
	struct kb_dir_stats *d = &s->dir[dir];

	preempt_disable();
	write_seqcount_begin(&s->seq);
	if (unlikely(err))
		d->c.errors++;
	else
		kb_count(d, len, now - start, start >= w->ramp_end_ns);
	if (!err && start >= w->ramp_end_ns && w->job->cfg.stages)
		d->c.unsplit[KB_UNSPLIT_SYNC_CALL]++;
	write_seqcount_end(&s->seq);
	preempt_enable();
}

/*
 * What kb_end_io() records of a bio that ended at @now, before it hands
 * the slot back: its stamp, where it completed, its log entry.
 */
VISIBLE_IF_KUNIT void kb_stamp(struct kb_slot *slot, u64 now)
{
	struct kb_job *job = slot->w->job;
	struct bio *bio = &slot->bio;

	slot->end_ns = now;
	/*
	 * Refused for want of a tag, inside submit_bio(): nothing was done,
	 * the polled path tries again.  With nowait the refusal is the I/O's
	 * error (-EAGAIN), as for fio.
	 */
	if (unlikely(bio->bi_status == BLK_STS_AGAIN &&
		     (bio->bi_opf & REQ_NOWAIT) && !job->cfg.nowait)) {
		WRITE_ONCE(slot->refused, true);
		return;
	}
	if (likely(job->loc))	/* none: KUnit's jobs, too many CPUs */
		slot->loc_local = kb_loc_complete(job->loc, slot);
	if (unlikely(job->lat_log))
		kb_log_lat(job, slot, now, bio->bi_status);
}
EXPORT_SYMBOL_IF_KUNIT(kb_stamp);

/*
 * Any context, any CPU, possibly inside submit_bio() when the block layer
 * fails a bio early.  Stamps the I/O; its worker counts it when it reaps
 * it (kb_account_reaped()).  Never resubmits (submit_bio may sleep): the
 * slot goes back to its worker, which is woken if it may be waiting.  Once
 * the slot is on the worker's list, the worker may reap it, end and be
 * stopped: from then on only the worker and its task are touched, in an
 * RCU read section, after which kb_free_workers() frees them.
 */
void kb_end_io(struct bio *bio)
{
	struct kb_slot *slot = container_of(bio, struct kb_slot, bio);
	struct kb_worker *w = slot->w;
	bool own = in_task() && w->task == current;
	/* its own poll's batch: stamped when the poll found it */
	u64 now = own && w->poll_ns ? w->poll_ns : ktime_get_ns();

	kb_stamp(slot, now);
	/* latency_target: before the worker can reap it (latt.h) */
	if (unlikely(w->latt) && !bio->bi_status &&
	    slot->dir != KIOBENCH_DIR_SYNC)
		kb_latt_complete(w->latt, now - slot->submit_ns,
				 w->job->cfg.latency_target_ns);
	/*
	 * A worker that completes its own bio in its own task, inside
	 * submit_bio() or its poll, is alive, and reaps before it sleeps:
	 * the slot goes on its private list, which only that task touches,
	 * with no atomic.  An interrupt that completes one while the worker is
	 * about to sleep has the worker as current too, and must wake it.  A
	 * spinning or polling worker never sleeps: it needs no wake-up.
	 */
	if (own) {
		slot->node.next = w->own_done;
		if (!w->own_done)
			w->own_tail = &slot->node.next;
		w->own_done = &slot->node;
		return;
	}
	rcu_read_lock();
	if (llist_add(&slot->node, &w->done) && w->sleeps)
		wake_up_process(w->task);
	rcu_read_unlock();
}

/* ---- statistics and timeline --------------------------------------------- */

/* A copy of one worker's counters that it was not updating meanwhile. */
static void kb_read_counters(struct kb_stats *s, unsigned int dir,
			     struct kb_counters *c)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&s->seq);
		*c = s->dir[dir].c;
	} while (read_seqcount_retry(&s->seq, seq));
}

/*
 * Sums the workers' counters of @dir, each worker's read whole; and, if
 * @hist, the histogram, bucket by bucket (copying it whole could be
 * retried forever behind a worker that reaps every microsecond): while the
 * job runs it may hold a few I/Os more or fewer than the counters.  Once
 * the job has ended both are exact.
 */
void kb_job_sum(struct kb_job *job, unsigned int dir, struct kb_counters *sum,
		u64 *hist)
{
	struct kb_counters c;
	unsigned int wi, i;

	memset(sum, 0, sizeof(*sum));
	sum->lat_min = U64_MAX;
	if (hist)
		memset(hist, 0, sizeof(u64) * KB_HIST_BUCKETS);
	for (wi = 0; wi < job->nr_workers; wi++) {
		const struct kb_dir_stats *d = &job->stats[wi]->dir[dir];

		kb_read_counters(job->stats[wi], dir, &c);
		sum->ios += c.ios;
		sum->bytes += c.bytes;
		sum->lat_sum += c.lat_sum;
		sum->lat_sumsq += c.lat_sumsq;
		sum->lat_min = min(sum->lat_min, c.lat_min);
		sum->lat_max = max(sum->lat_max, c.lat_max);
		sum->all_ios += c.all_ios;
		sum->all_bytes += c.all_bytes;
		sum->all_lat_sum += c.all_lat_sum;
		sum->errors += c.errors;
		for (i = 0; i < KB_NR_UNSPLIT; i++)
			sum->unsplit[i] += c.unsplit[i];
		if (hist)
			for (i = 0; i < KB_HIST_BUCKETS; i++)
				hist[i] += READ_ONCE(d->hist[i]);
	}
	if (!sum->ios)
		sum->lat_min = 0;
}
EXPORT_SYMBOL_IF_KUNIT(kb_job_sum);

/* A copy of one worker's figures of a metric, which no update tore. */
static void kb_read_metric(struct kb_stats *s, const struct kb_metric *m,
			   struct kb_metric_sum *c)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&s->seq);
		c->n = m->n;
		c->min = m->min;
		c->max = m->max;
		c->sum = m->sum;
		c->sumsq = m->sumsq;
	} while (read_seqcount_retry(&s->seq, seq));
}

/**
 * kb_job_metric_sum() - a secondary measure, summed over the workers
 * @job: the job
 * @id: the measure
 * @dir: enum kiobench_dir
 * @sum: count, min, max, sum and sum of squares
 * @hist: NULL, or KB_HIST_BUCKETS entries for its histogram
 * @unsplit: NULL, or where to put the measured I/Os that have no stages,
 *	by why (enum kb_unsplit)
 *
 * Exact once the job has ended; see kb_job_sum() while it runs.
 *
 * Return: false if the job does not keep that measure.
 */
bool kb_job_metric_sum(struct kb_job *job, enum kb_metric_id id,
		       unsigned int dir, struct kb_metric_sum *sum, u64 *hist,
		       u64 unsplit[KB_NR_UNSPLIT])
{
	struct kb_metric_sum c;
	struct kb_counters cnt;
	unsigned int wi, i;

	if (job->metric_idx[id] < 0)
		return false;
	memset(sum, 0, sizeof(*sum));
	sum->min = U64_MAX;
	if (hist)
		memset(hist, 0, sizeof(u64) * KB_HIST_BUCKETS);
	if (unsplit)
		memset(unsplit, 0, sizeof(u64) * KB_NR_UNSPLIT);
	for (wi = 0; wi < job->nr_workers; wi++) {
		struct kb_stats *s = job->stats[wi];
		const struct kb_metric *m = &s->m[job->metric_idx[id]][dir];

		kb_read_metric(s, m, &c);
		sum->n += c.n;
		sum->sum += c.sum;
		sum->sumsq += c.sumsq;
		sum->min = min(sum->min, c.min);
		sum->max = max(sum->max, c.max);
		if (hist)
			for (i = 0; i < KB_HIST_BUCKETS; i++)
				hist[i] += READ_ONCE(m->hist[i]);
		if (unsplit) {
			kb_read_counters(s, dir, &cnt);
			for (i = 0; i < KB_NR_UNSPLIT; i++)
				unsplit[i] += cnt.unsplit[i];
		}
	}
	if (!sum->n)
		sum->min = 0;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(kb_job_metric_sum);

/* Time counted for IOPS and bandwidth: from the end of the warm-up. */
u64 kb_job_measured_ns(struct kb_job *job)
{
	u8 state = smp_load_acquire(&job->state);	/* then finish_ns */
	u64 end, ramp_end;

	if (state == KIOBENCH_STATE_NEW)
		return 0;
	end = state == KIOBENCH_STATE_RUNNING ? ktime_get_ns() : job->finish_ns;
	ramp_end = READ_ONCE(job->ramp_end_ns);	/* the first worker's */
	return end > ramp_end ? end - ramp_end : 0;
}

/*
 * CPU time the workers have run: submission, and completions where the
 * block layer completes in the submitter's context.  Interrupt-side
 * completion work is not included.  Exact once the workers sleep.
 */
u64 kb_job_cpu_ns(struct kb_job *job)
{
	unsigned int i;
	u64 ns = 0;

	for (i = 0; i < job->nr_workers; i++)
		ns += READ_ONCE(job->workers[i]->task->se.sum_exec_runtime);
	return ns;
}

/* The sum over the workers of a counter that each writes alone. */
static u64 kb_workers_sum(struct kb_job *job, size_t field)
{
	unsigned int i;
	u64 n = 0;

	for (i = 0; i < job->nr_workers; i++)
		n += READ_ONCE(*(u64 *)((char *)job->workers[i] + field));
	return n;
}

u64 kb_job_zero_reads(struct kb_job *job)
{
	return kb_workers_sum(job, offsetof(struct kb_worker, zero_reads));
}

u64 kb_job_retries(struct kb_job *job)
{
	return kb_workers_sum(job, offsetof(struct kb_worker, retries));
}

/* The I/Os a worker has submitted and not yet taken back (debugfs inflight). */
unsigned int kb_worker_inflight(const struct kb_worker *w)
{
	/*
	 * Only the worker writes it, unmarked (the hot path stays as it is);
	 * a display reads a snapshot, a word that may be one I/O stale.
	 */
	return data_race(w->inflight);
}

/* Appends the completions since the previous sample; control path only. */
void kb_timeline_sample(struct kb_job *job)
{
	struct kb_tl_entry *e;
	struct kb_counters c;
	unsigned int dir;

	if (job->tl_len == job->tl_cap) {
		job->tl_dropped++;
		return;
	}
	e = &job->tl[job->tl_len];
	e->t_ns = ktime_get_ns() - job->start_ns;
	for (dir = 0; dir < KIOBENCH_NR_DIRS; dir++) {
		struct kb_tl_dir *prev = &job->tl_prev[dir];

		kb_job_sum(job, dir, &c, NULL);
		e->dir[dir].ios = c.all_ios - prev->ios;
		e->dir[dir].bytes = c.all_bytes - prev->bytes;
		e->dir[dir].lat_sum = c.all_lat_sum - prev->lat_sum;
		prev->ios = c.all_ios;
		prev->bytes = c.all_bytes;
		prev->lat_sum = c.all_lat_sum;
	}
	/* Pairs with kb_timeline_show(): the entry is written before. */
	smp_store_release(&job->tl_len, job->tl_len + 1);
}

/*
 * Delay to the sample boundary tl_next_ns, moved past now by whole
 * intervals if the work ran late.  Rounded up, at least one jiffy.
 */
unsigned long kb_timeline_delay(struct kb_job *job)
{
	u64 now = ktime_get_ns() - job->start_ns;
	u64 interval = job->cfg.interval_ns;

	if (job->tl_next_ns <= now)
		job->tl_next_ns += (div64_u64(now - job->tl_next_ns, interval) + 1) *
				   interval;
	return nsecs_to_jiffies(job->tl_next_ns - now) + 1;
}

void kb_timeline_work(struct work_struct *work)
{
	struct kb_job *job = container_of(to_delayed_work(work), struct kb_job,
					  tl_work);

	kb_timeline_sample(job);
	/*
	 * One sample per boundary: a timer that fired a little early (jiffies
	 * are coarser than the interval) must not sample this boundary again.
	 */
	job->tl_next_ns += job->cfg.interval_ns;
	schedule_delayed_work(&job->tl_work, kb_timeline_delay(job));
}
