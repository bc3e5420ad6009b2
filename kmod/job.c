// SPDX-License-Identifier: GPL-2.0
/*
 * Jobs: their registry, devices, workers, bio submission and completion,
 * statistics and the timeline.  Everything a job needs is allocated in
 * kb_job_create(); the I/O path (kb_submit(), kb_end_io(), kb_worker_run())
 * allocates nothing and takes no lock shared between workers or CPUs.
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

static atomic64_t kb_mem_used = ATOMIC64_INIT(0);

/* ---- registry ------------------------------------------------------------ */

/*
 * Every job that exists, by id.  kb_jobs_mutex also serialises whatever is
 * done to a job from outside its workers (start, stop, reads of results,
 * destruction), so that a job found in the registry stays alive until the
 * mutex is released.  Ids are reserved before a job is created and filled
 * in once it is whole, so a half-made job is never found.
 */
static DEFINE_MUTEX(kb_jobs_mutex);
static DEFINE_XARRAY_ALLOC1(kb_jobs);
static unsigned int kb_nr_jobs;		/* registered, reserved ids excluded */
static u32 kb_next_id;
static bool kb_jobs_closed;		/* module exit: no new job */

#define KB_MARK_ORPHAN	XA_MARK_1	/* its socket is gone: to destroy */

void kb_jobs_lock(void)
{
	mutex_lock(&kb_jobs_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(kb_jobs_lock);

void kb_jobs_unlock(void)
{
	mutex_unlock(&kb_jobs_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(kb_jobs_unlock);

/* An id for a job about to be created: kb_job_register() or _release_id(). */
int kb_job_reserve_id(u32 *id, struct netlink_ext_ack *extack)
{
	int err;

	lockdep_assert_held(&kb_jobs_mutex);
	if (kb_jobs_closed)
		return -ENODEV;
	if (kb_nr_jobs == KB_MAX_JOBS) {
		NL_SET_ERR_MSG(extack,
			       "jobs: at most " __stringify(KB_MAX_JOBS)
			       " jobs may exist; destroy one");
		return -EBUSY;
	}
	err = xa_alloc_cyclic(&kb_jobs, id, NULL, xa_limit_31b, &kb_next_id,
			      GFP_KERNEL);
	return err < 0 ? err : 0;
}
EXPORT_SYMBOL_IF_KUNIT(kb_job_reserve_id);

void kb_job_release_id(u32 id)
{
	lockdep_assert_held(&kb_jobs_mutex);
	xa_erase(&kb_jobs, id);
}

/* Makes a whole job, on its reserved id, visible to kb_job_find(). */
void kb_job_register(struct kb_job *job)
{
	lockdep_assert_held(&kb_jobs_mutex);
	xa_store(&kb_jobs, job->id, job, GFP_KERNEL);	/* reserved: no alloc */
	kb_nr_jobs++;
}
EXPORT_SYMBOL_IF_KUNIT(kb_job_register);

void kb_job_unregister(struct kb_job *job)
{
	lockdep_assert_held(&kb_jobs_mutex);
	xa_erase(&kb_jobs, job->id);
	kb_nr_jobs--;
}
EXPORT_SYMBOL_IF_KUNIT(kb_job_unregister);

struct kb_job *kb_job_find(u32 id)
{
	lockdep_assert_held(&kb_jobs_mutex);
	return xa_load(&kb_jobs, id);
}

/* The job of the lowest id from *@id up, and its id in *@id; or NULL. */
struct kb_job *kb_job_next(unsigned long *id)
{
	lockdep_assert_held(&kb_jobs_mutex);
	return xa_find(&kb_jobs, id, ULONG_MAX, XA_PRESENT);
}

/* Module exit: no id is reserved from now on. */
void kb_jobs_close(void)
{
	lockdep_assert_held(&kb_jobs_mutex);
	kb_jobs_closed = true;
}

/* How many registered jobs belong to socket @portid of @net. */
unsigned int kb_jobs_owned(const struct net *net, u32 portid)
{
	unsigned int n = 0;
	struct kb_job *job;
	unsigned long id;

	lockdep_assert_held(&kb_jobs_mutex);
	xa_for_each(&kb_jobs, id, job)
		n += job->owner_portid == portid && job->owner_net == net;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(kb_jobs_owned);

/*
 * Marks the jobs of a released socket for the reaper (netlink.c), without
 * sleeping.  The xarray's lock keeps every job it holds alive: a job is
 * erased from it, under that lock, before it is freed; and its owner is set
 * before it is stored.  Returns how many were marked.
 */
unsigned int kb_jobs_mark_orphans(const struct net *net, u32 portid)
{
	XA_STATE(xas, &kb_jobs, 0);
	unsigned int n = 0;
	struct kb_job *job;

	xas_lock(&xas);
	xas_for_each(&xas, job, ULONG_MAX) {
		if (xa_is_zero(job) || job->owner_portid != portid ||
		    job->owner_net != net)
			continue;
		xas_set_mark(&xas, KB_MARK_ORPHAN);
		n++;
	}
	xas_unlock(&xas);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(kb_jobs_mark_orphans);

/* Like kb_job_next(), among the jobs whose socket has been released. */
struct kb_job *kb_job_next_orphan(unsigned long *id)
{
	lockdep_assert_held(&kb_jobs_mutex);
	return xa_find(&kb_jobs, id, ULONG_MAX, KB_MARK_ORPHAN);
}
EXPORT_SYMBOL_IF_KUNIT(kb_job_next_orphan);

u64 kb_total_mem(void)
{
	return atomic64_read(&kb_mem_used);
}

void kb_config_free(struct kb_config *cfg)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_devs; i++)
		kfree(cfg->paths[i]);
	kfree(cfg->cpus);
	cfg->nr_devs = 0;
	cfg->cpus = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(kb_config_free);

/* ---- completion ---------------------------------------------------------- */

/*
 * The optional per-I/O log: one atomic per measured I/O claims an entry,
 * and stops being taken once the log is full.  Entries are read only after
 * the job has ended, when every claimed entry has been written.
 */
static void kb_log_lat(struct kb_job *job, struct kb_slot *slot, u64 now,
		       u64 lat)
{
	struct kb_lat_entry *e;
	s64 i;

	if (atomic64_read(&job->lat_log_next) >= job->cfg.lat_log)
		return;
	i = atomic64_fetch_inc(&job->lat_log_next);
	if (i >= job->cfg.lat_log)
		return;
	e = &job->lat_log[i];
	e->end_ns = now - job->start_ns;
	e->lat_ns = lat;
	e->offset = slot->off;
	e->len = slot->len;
	e->dir = slot->dir;
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

static void kb_metric_add(struct kb_job *job, struct kb_cpu_stats *s,
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
static void kb_count_metrics(struct kb_job *job, struct kb_cpu_stats *s,
			     struct kb_slot *slot, u64 now)
{
	unsigned int dir = slot->dir;
	u64 st[3];

	if (job->cfg.rate_iops) {
		kb_metric_add(job, s, KB_M_SCHED_LAG, dir,
			      slot->submit_ns - slot->sched_ns);
		kb_metric_add(job, s, KB_M_LAT_SCHED, dir, now - slot->sched_ns);
	}
	if (!job->cfg.stages)
		return;
	if (!kb_stage_split(slot, now, st)) {
		s->dir[dir].c.unsplit++;
		return;
	}
	kb_metric_add(job, s, KB_M_STAGE_QUEUE, dir, st[0]);
	kb_metric_add(job, s, KB_M_STAGE_DEVICE, dir, st[1]);
	kb_metric_add(job, s, KB_M_STAGE_COMPLETE, dir, st[2]);
}

/*
 * Only the completing CPU writes its statistics, so they need no lock.
 * Interrupts are off because completions come from hard and soft
 * interrupts and from the submitter itself (a bio failed inside
 * submit_bio()): none may interrupt another on the same CPU halfway
 * through an update, or inside the write section of the sequence count,
 * which would then look even (stable) to readers mid-update.  A plain
 * seqcount_t: u64_stats_sync does nothing on 64-bit, where the 128-bit
 * lat_sumsq still takes two stores, and a seqlock_t's spinlock would be
 * shared with readers and, on PREEMPT_RT, sleep with interrupts off.  A
 * writer with interrupts off is never preempted, on PREEMPT_RT either, so
 * no reader spins behind a writer that cannot run.
 */
VISIBLE_IF_KUNIT void kb_account(struct kb_job *job, struct kb_slot *slot,
				 u64 now, blk_status_t status)
{
	u64 lat = now - slot->submit_ns;
	bool measured = !status && slot->submit_ns >= job->ramp_end_ns;
	struct kb_cpu_stats *s;
	struct kb_dir_stats *d;
	unsigned long flags;

	local_irq_save(flags);
	s = job->stats[smp_processor_id()];
	d = &s->dir[slot->dir];
	write_seqcount_begin(&s->seq);
	if (unlikely(status))
		d->c.errors++;
	else
		kb_count(d, slot->len, lat, measured);
	if (measured && job->nr_metrics)
		kb_count_metrics(job, s, slot, now);
	write_seqcount_end(&s->seq);
	if (measured && unlikely(job->lat_log))
		kb_log_lat(job, slot, now, lat);
	local_irq_restore(flags);
}
EXPORT_SYMBOL_IF_KUNIT(kb_account);

/*
 * Any context, any CPU, possibly inside submit_bio() when the block layer
 * fails a bio early.  Never resubmits (submit_bio may sleep): the slot goes
 * back to its worker, which is woken if it may be waiting.  The RCU read
 * section lets kb_job_destroy() wait, with synchronize_rcu(), for the last
 * kb_end_io() to stop touching the worker and its task.
 */
void kb_end_io(struct bio *bio)
{
	struct kb_slot *slot = container_of(bio, struct kb_slot, bio);
	struct kb_worker *w = slot->w;
	u64 now = ktime_get_ns();

	kb_account(w->job, slot, now, bio->bi_status);
	rcu_read_lock();
	/* A spinning or polling worker never sleeps: it needs no wake-up. */
	if (llist_add(&slot->node, &w->done) &&
	    w->job->cfg.completion == KIOBENCH_COMPLETION_SLEEP)
		wake_up_process(w->task);
	rcu_read_unlock();
}

/* ---- submission ---------------------------------------------------------- */

static bool kb_may_submit(struct kb_worker *w, u64 now)
{
	struct kb_job *job = w->job;

	return w->ios_left && w->bytes_left && now < job->deadline_ns &&
	       !READ_ONCE(job->stop) && !kthread_should_stop();
}

static void kb_submit(struct kb_worker *w, struct kb_slot *slot)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct kb_dev *dev = w->dev;
	struct bio *bio = &slot->bio;
	bool write = false;
	u32 len, rem, n;
	unsigned int i;
	u64 off;

	len = kb_pick_bs(cfg, &w->rng);
	if (len > w->bytes_left)
		len = w->bytes_left;	/* budgets are multiples of the LBS */
	w->bytes_left -= len;
	w->ios_left--;
	if (cfg->rwmix_read < 100)
		write = kb_rng_below(&w->rng, 100) >= cfg->rwmix_read;
	if (cfg->random)
		off = kb_rand_offset(&w->rng, dev->span_len, len, cfg->min_bs);
	else
		off = kb_seq_offset(&w->seq_next, dev->span_len, len);
	off += dev->span_start;
	slot->off = off;

	/*
	 * Writes carry the flags of the kernel's own O_DIRECT writes
	 * (dio_bio_write_op() in block/fops.c, iomap): writeback throttling
	 * passes REQ_SYNC | REQ_IDLE writes untouched (wbt_should_throttle()),
	 * and REQ_SYNC makes them synchronous: issued directly to a busy
	 * multi-queue device (blk_mq_submit_bio()), and not held to the
	 * smaller depth kyber and bfq allow asynchronous requests.  Without
	 * them a write would be served, and timed, as buffered writeback.
	 */
	bio_reset(bio, dev->bdev.bdev,
		  (write ? REQ_OP_WRITE | REQ_SYNC | REQ_IDLE : REQ_OP_READ) |
		  (cfg->completion == KIOBENCH_COMPLETION_POLL ? REQ_POLLED : 0));
	bio->bi_iter.bi_sector = off >> SECTOR_SHIFT;
	bio->bi_end_io = kb_end_io;
	for (i = 0, rem = len; rem; i++, rem -= n) {
		n = min_t(u32, rem, PAGE_SIZE);
		__bio_add_page(bio, slot->pages[i], n, 0);
	}
	slot->len = len;
	slot->dir = write ? KIOBENCH_DIR_WRITE : KIOBENCH_DIR_READ;
	w->inflight++;
	slot->busy = true;
	slot->issue_ns = 0;
	slot->drv_ns = 0;
	slot->stage_flags = 0;
	slot->submit_ns = ktime_get_ns();
	submit_bio(bio);
}

/* ---- workers ------------------------------------------------------------- */

/*
 * Never-written or deallocated (trimmed, thin) blocks read back as zeroes,
 * and devices often return them without touching the media: such reads
 * are unrealistically fast, and a read benchmark on a fresh device would
 * measure the mapping table, not the media.  The first logical block of
 * each read tells, at little cost; the count goes out with the results.
 */
static bool kb_zero_block(struct kb_worker *w, struct kb_slot *slot)
{
	return !memchr_inv(page_address(slot->pages[0]), 0,
			   min_t(u32, w->dev->lbs, slot->len));
}

/*
 * Stops the job at its first failed I/O, unless it continues on errors.  A
 * device that has been removed fails every I/O at once, so continuing
 * would only spin until the job's limit: that ends the job either way.
 */
static void kb_io_error(struct kb_worker *w, struct kb_slot *slot)
{
	struct kb_job *job = w->job;
	int err = blk_status_to_errno(slot->bio.bi_status);

	if (!disk_live(w->dev->bdev.bdev->bd_disk))
		err = -ENODEV;
	else if (job->cfg.continue_on_error)
		return;
	cmpxchg(&job->error, 0, err);
	WRITE_ONCE(job->stop, true);
}

static bool kb_open_loop(const struct kb_worker *w)
{
	return w->job->cfg.rate_iops;
}

/* Open loop: a free slot and the job may go on; else no arrival matters. */
static bool kb_arrival_pending(struct kb_worker *w, u64 now)
{
	return kb_open_loop(w) && w->idle && kb_may_submit(w, now);
}

/* Submits every arrival that is due, while slots are free. */
static void kb_submit_due(struct kb_worker *w, u64 now)
{
	struct kb_slot *slot;

	while (w->sched.next_ns <= now && kb_arrival_pending(w, now)) {
		slot = container_of(w->idle, struct kb_slot, node);
		w->idle = w->idle->next;
		slot->sched_ns = w->sched.next_ns;
		kb_sched_advance(&w->sched, &w->rng);
		kb_submit(w, slot);
	}
}

/* Open loop: until the next arrival or the job's end, whichever is first. */
static void kb_sleep_until_arrival(struct kb_worker *w)
{
	ktime_t until = ns_to_ktime(min(w->sched.next_ns,
					w->job->deadline_ns));

	if (ktime_get_ns() < w->sched.next_ns)
		schedule_hrtimeout_range(&until, 0, HRTIMER_MODE_ABS);
}

/*
 * Sleeps until a completion, or in the open loop an arrival, is due.
 * kb_end_io() and kb_job_stop() wake the worker; the state is set before
 * the checks, so that no wake-up between them is lost.
 */
static void kb_wait_sleep(struct kb_worker *w)
{
	for (;;) {
		set_current_state(TASK_IDLE);
		if (!llist_empty(&w->done))
			break;
		if (kb_arrival_pending(w, ktime_get_ns())) {
			kb_sleep_until_arrival(w);
			break;
		}
		if (!w->inflight)
			break;		/* stopped: nothing will come */
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/*
 * Busy-waits: a completed slot is resubmitted without a wake-up.  A good
 * citizen all the same, on a device that stops answering too: every turn
 * offers the CPU (cond_resched(), which also reports a quiescent state to
 * non-preemptible RCU), so neither the soft-lockup watchdog nor RCU's stall
 * detector fires, and stop and rmmod wait only for the I/O in flight.
 */
static void kb_wait_spin(struct kb_worker *w)
{
	while (llist_empty(&w->done)) {
		/* the clock only when an arrival may be due: it can be slow */
		u64 now = kb_open_loop(w) ? ktime_get_ns() : 0;

		if (kb_arrival_pending(w, now) && w->sched.next_ns <= now)
			break;
		if (!w->inflight && !kb_arrival_pending(w, now))
			break;
		cpu_relax();
		cond_resched();
	}
}

/* Polls the hardware queue of one bio in flight, round robin. */
static void kb_poll_one(struct kb_worker *w)
{
	unsigned int i;

	for (i = 0; i < w->nr_slots; i++) {
		struct kb_slot *slot = w->slots[w->poll_next];

		w->poll_next = (w->poll_next + 1) % w->nr_slots;
		if (slot->busy) {
			kb_bio_poll(&slot->bio);
			return;
		}
	}
}

/*
 * Reaps completions with bio_poll(): kb_end_io() runs in this task.  The
 * completions found may be other bios' on the same hardware queue, this
 * worker's or another's.
 */
static void kb_wait_poll(struct kb_worker *w)
{
	while (llist_empty(&w->done)) {
		u64 now = ktime_get_ns();

		if (kb_arrival_pending(w, now) && w->sched.next_ns <= now)
			break;
		if (!w->inflight) {
			if (!kb_arrival_pending(w, now))
				break;
			cpu_relax();
		} else {
			kb_poll_one(w);
		}
		cond_resched();
	}
}

static void kb_wait(struct kb_worker *w)
{
	switch (w->job->cfg.completion) {
	case KIOBENCH_COMPLETION_SPIN:
		kb_wait_spin(w);
		break;
	case KIOBENCH_COMPLETION_POLL:
		kb_wait_poll(w);
		break;
	default:
		kb_wait_sleep(w);
	}
}

/*
 * A plug whose first request allocation takes @nr requests at once, for
 * the bios about to be submitted: one tag allocation and one queue
 * reference for the batch instead of one each, as io_uring does.  This is
 * what blk_start_plug_nr_ios() does, which is not exported; the field is
 * public on every kernel since 5.16.  blk_finish_plug() gives back the
 * requests no bio took.
 */
static void kb_start_plug(struct blk_plug *plug, unsigned int nr)
{
	blk_start_plug(plug);
	plug->nr_ios = nr;
}

#define KB_PLUG_MAX_IOS	32U	/* BLK_MAX_REQUEST_COUNT, block/blk.h */

/*
 * The most requests a plug can take at once from @bdev's tags.  blk-mq
 * takes a batch only from free bits of one sbitmap word, from the word's
 * first free bit on (__sbitmap_queue_get_batch()), and sbitmap makes its
 * words shorter on a small queue: 16 bits for null_blk's 64 tags.  A
 * larger batch would fail, and blk-mq would take one tag at a time.  Read
 * at the worker's start (the scheduler may have changed since the job was
 * made): a hint, which at worst costs that one failed try.
 */
static unsigned int kb_plug_max(struct block_device *bdev)
{
	struct request_queue *q = bdev_get_queue(bdev);
	unsigned int depth;

	if (!queue_is_mq(q))
		return 1;	/* no requests of its own */
	depth = q->elevator ? q->nr_requests :	/* the scheduler's tags */
		q->tag_set->queue_depth - q->tag_set->reserved_tags;
	return min(KB_PLUG_MAX_IOS, 1U << sbitmap_calculate_shift(depth));
}

/*
 * The requests to take at once for @list's resubmissions: one a slot, at
 * most @max, and at least blk_start_plug()'s own 1.
 */
static unsigned int kb_plug_batch(struct llist_node *list, unsigned int max)
{
	unsigned int nr = 1;

	for (; list && list->next && nr < max; list = list->next)
		nr++;
	return nr;
}

/* Takes the completed slots back: resubmitted (closed loop) or freed. */
static void kb_reap(struct kb_worker *w, struct llist_node *list, u64 now)
{
	struct kb_slot *slot, *tmp;

	llist_for_each_entry_safe(slot, tmp, list, node) {
		w->inflight--;
		slot->busy = false;
		if (unlikely(slot->bio.bi_status))
			kb_io_error(w, slot);
		else if (slot->dir == KIOBENCH_DIR_READ &&
			 kb_zero_block(w, slot))
			WRITE_ONCE(w->zero_reads, w->zero_reads + 1);
		if (kb_open_loop(w)) {
			slot->node.next = w->idle;
			w->idle = &slot->node;
		} else if (kb_may_submit(w, now)) {
			kb_submit(w, slot);
		}
	}
}

/* The first submissions: every slot (closed loop), or the first arrival. */
static void kb_worker_start(struct kb_worker *w)
{
	const struct kb_config *cfg = &w->job->cfg;
	u64 now = ktime_get_ns();
	unsigned int i;

	if (!kb_open_loop(w)) {
		for (i = 0; i < w->nr_slots && kb_may_submit(w, now); i++)
			kb_submit(w, w->slots[i]);
		return;
	}
	for (i = w->nr_slots; i--; ) {
		w->slots[i]->node.next = w->idle;
		w->idle = &w->slots[i]->node;
	}
	kb_sched_init(&w->sched, now, cfg->rate_iops, cfg->rate_process);
	kb_submit_due(w, now);
}

static void kb_worker_run(struct kb_worker *w)
{
	/* the open loop submits its due arrivals, not its completions */
	unsigned int batch = kb_open_loop(w) ? 1 : kb_plug_max(w->dev->bdev.bdev);
	struct llist_node *done;
	struct blk_plug plug;
	u64 now;

	kb_start_plug(&plug, min(batch, w->nr_slots));
	kb_worker_start(w);
	blk_finish_plug(&plug);

	while (w->inflight || kb_arrival_pending(w, ktime_get_ns())) {
		kb_wait(w);
		now = ktime_get_ns();
		done = llist_del_all(&w->done);
		kb_start_plug(&plug, kb_plug_batch(done, batch));
		kb_reap(w, done, now);
		if (kb_open_loop(w))
			kb_submit_due(w, now);
		blk_finish_plug(&plug);
		/*
		 * A device that completes inside submit_bio() (null_blk with
		 * irqmode=0, a polled queue) refills the list before we look
		 * again, so this loop may never sleep: without a preemption
		 * point it would hold the CPU until the job's end on a
		 * PREEMPT_NONE kernel, and the soft-lockup watchdog fires.
		 */
		cond_resched();
	}
}

static void kb_timeline_sample(struct kb_job *job);

/*
 * A started job's probes (stages.c) go back once: when its last worker
 * finishes, or at its destruction if none ran to the end (kthread_stop()
 * orders the two).
 */
static void kb_job_put_stages(struct kb_job *job)
{
	if (!job->stages_held)
		return;
	job->stages_held = false;
	kb_stages_put();
}

/* The last worker to finish ends the job and announces it. */
static void kb_worker_finish(struct kb_worker *w)
{
	struct kb_job *job = w->job;
	u8 state = KIOBENCH_STATE_DONE;

	if (!atomic_dec_and_test(&job->active))
		return;
	job->finish_ns = ktime_get_ns();
	cancel_delayed_work_sync(&job->tl_work);
	kb_timeline_sample(job);
	kb_job_put_stages(job);	/* detached when the job is seen ended */
	if (READ_ONCE(job->error))
		state = KIOBENCH_STATE_FAILED;
	else if (READ_ONCE(job->user_stop))
		state = KIOBENCH_STATE_STOPPED;
	/* Publishes finish_ns, the timeline and the stats with the state. */
	smp_store_release(&job->state, state);
	kb_nl_notify(job);
}

static int kb_worker_fn(void *data)
{
	struct kb_worker *w = data;

	kb_worker_run(w);
	kb_worker_finish(w);
	/* The job owns this task: stay until kb_job_destroy() stops it. */
	for (;;) {
		set_current_state(TASK_IDLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* ---- statistics and timeline --------------------------------------------- */

/* A copy of one CPU's counters that no completion was updating meanwhile. */
static void kb_read_counters(struct kb_cpu_stats *s, unsigned int dir,
			     struct kb_counters *c)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&s->seq);
		*c = s->dir[dir].c;
	} while (read_seqcount_retry(&s->seq, seq));
}

/*
 * Sums the CPUs' counters of @dir, each CPU's read whole; and, if @hist,
 * the histogram, bucket by bucket (copying it whole could be retried
 * forever behind a CPU that completes an I/O every microsecond): while the
 * job runs it may hold a few I/Os more or fewer than the counters.  Once
 * the job has ended both are exact.
 */
void kb_job_sum(struct kb_job *job, unsigned int dir, struct kb_counters *sum,
		u64 *hist)
{
	struct kb_counters c;
	unsigned int cpu, i;

	memset(sum, 0, sizeof(*sum));
	sum->lat_min = U64_MAX;
	if (hist)
		memset(hist, 0, sizeof(u64) * KB_HIST_BUCKETS);
	for_each_possible_cpu(cpu) {
		const struct kb_dir_stats *d = &job->stats[cpu]->dir[dir];

		kb_read_counters(job->stats[cpu], dir, &c);
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
		sum->unsplit += c.unsplit;
		if (hist)
			for (i = 0; i < KB_HIST_BUCKETS; i++)
				hist[i] += READ_ONCE(d->hist[i]);
	}
	if (!sum->ios)
		sum->lat_min = 0;
}
EXPORT_SYMBOL_IF_KUNIT(kb_job_sum);

/* A copy of one CPU's figures of a metric, which no completion tore. */
static void kb_read_metric(struct kb_cpu_stats *s, const struct kb_metric *m,
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
 * kb_job_metric_sum() - a secondary measure, summed over the CPUs
 * @job: the job
 * @id: the measure
 * @dir: enum kiobench_dir
 * @sum: count, min, max, sum and sum of squares
 * @hist: NULL, or KB_HIST_BUCKETS entries for its histogram
 * @unsplit: NULL, or where to put the measured I/Os that have no stages
 *
 * Exact once the job has ended; see kb_job_sum() while it runs.
 *
 * Return: false if the job does not keep that measure.
 */
bool kb_job_metric_sum(struct kb_job *job, enum kb_metric_id id,
		       unsigned int dir, struct kb_metric_sum *sum, u64 *hist,
		       u64 *unsplit)
{
	struct kb_metric_sum c;
	struct kb_counters cnt;
	unsigned int cpu, i;

	if (job->metric_idx[id] < 0)
		return false;
	memset(sum, 0, sizeof(*sum));
	sum->min = U64_MAX;
	if (hist)
		memset(hist, 0, sizeof(u64) * KB_HIST_BUCKETS);
	if (unsplit)
		*unsplit = 0;
	for_each_possible_cpu(cpu) {
		struct kb_cpu_stats *s = job->stats[cpu];
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
			*unsplit += cnt.unsplit;
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
	u64 end;

	if (state == KIOBENCH_STATE_NEW)
		return 0;
	end = state == KIOBENCH_STATE_RUNNING ? ktime_get_ns() : job->finish_ns;
	return end > job->ramp_end_ns ? end - job->ramp_end_ns : 0;
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

u64 kb_job_zero_reads(struct kb_job *job)
{
	unsigned int i;
	u64 n = 0;

	for (i = 0; i < job->nr_workers; i++)
		n += READ_ONCE(job->workers[i]->zero_reads);
	return n;
}

/* Appends the completions since the previous sample; control path only. */
static void kb_timeline_sample(struct kb_job *job)
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
static unsigned long kb_timeline_delay(struct kb_job *job)
{
	u64 now = ktime_get_ns() - job->start_ns;
	u64 interval = job->cfg.interval_ns;

	if (job->tl_next_ns <= now)
		job->tl_next_ns += (div64_u64(now - job->tl_next_ns, interval) + 1) *
				   interval;
	return nsecs_to_jiffies(job->tl_next_ns - now) + 1;
}

static void kb_timeline_work(struct work_struct *work)
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

/* ---- creation ------------------------------------------------------------ */

/*
 * Formatted extacks hold at most NETLINK_MAX_FMTMSG_LEN - 1 (79) characters
 * and are cut beyond.  So that a cut never changes a figure, every message
 * below puts its numbers first (sized for their largest possible values)
 * and a device path, of any length, last.
 */

/* Why a device could not be opened; static text, usable as extack. */
static const char *kb_open_error(int err)
{
	switch (err) {
	case -EBUSY:
		return "devices: mounted or held exclusively by another user (EBUSY)";
	case -EACCES:
	case -EROFS:
		return "devices: read-only, cannot be opened for writing";
	case -ENOENT:
		return "devices: no such file";
	case -ENOTBLK:
		return "devices: not a block device";
	case -ENXIO:
	case -ENODEV:
		return "devices: no such device";
	default:
		return "devices: cannot be opened";
	}
}

/*
 * allow-writes opens for writing and exclusively, as the spec says, even if
 * rwmix-read is 100: the flag, not the mix, claims the devices.
 */
static int kb_open_devices(struct kb_job *job, struct netlink_ext_ack *extack)
{
	struct kb_config *cfg = &job->cfg;
	bool write = cfg->allow_writes;
	unsigned int i, j;
	int err;

	for (i = 0; i < cfg->nr_devs; i++) {
		struct kb_dev *dev = &job->devs[i];

		err = kb_bdev_open(&dev->bdev, cfg->paths[i], write, job);
		if (err) {
			KB_ERR_FMT(extack, NULL, kb_open_error(err), "%s: %s",
				   kb_open_error(err), cfg->paths[i]);
			goto out_close_devices;
		}
		for (j = 0; j < i; j++) {
			if (job->devs[j].bdev.bdev != dev->bdev.bdev)
				continue;
			kb_bdev_close(&dev->bdev);
			err = -EINVAL;
			KB_ERR_FMT(extack, NULL,
				   "devices: the same device is given twice",
				   "devices: %s is the same device as %s",
				   cfg->paths[i], cfg->paths[j]);
			goto out_close_devices;
		}
	}
	return 0;

out_close_devices:
	while (i--)
		kb_bdev_close(&job->devs[i].bdev);
	return err;
}

static void kb_close_devices(struct kb_job *job)
{
	unsigned int i;

	for (i = 0; i < job->cfg.nr_devs; i++)
		kb_bdev_close(&job->devs[i].bdev);
}

/* Checks the configuration against one device's size and block size. */
static int kb_check_device(struct kb_job *job, struct kb_dev *dev,
			   const char *path, struct netlink_ext_ack *extack)
{
	const struct kb_config *cfg = &job->cfg;
	u64 nr = bdev_nr_bytes(dev->bdev.bdev);
	bool aligned = !(cfg->offset % dev->lbs) && !(cfg->size % dev->lbs);
	unsigned int b;

	for (b = 0; b < cfg->nr_bss; b++)
		aligned &= !(cfg->bss[b].size % dev->lbs);
	if (!aligned) {
		KB_ERR_FMT(extack, NULL,
			   "bs/offset/size: not a multiple of a device's logical block size",
			   "bs/offset/size: must be multiples of the logical block size %u of %s",
			   dev->lbs, path);
		return -EINVAL;
	}
	if (cfg->offset >= nr || cfg->size > nr - cfg->offset) {
		KB_ERR_FMT(extack, NULL, "offset/size: span ends beyond a device",
			   "offset/size: the span ends beyond the %llu bytes of %s",
			   nr, path);
		return -EINVAL;
	}
	if (cfg->completion == KIOBENCH_COMPLETION_POLL &&
	    !kb_bdev_can_poll(dev->bdev.bdev)) {
		KB_ERR_FMT(extack, NULL,
			   "completion: poll needs a device with poll queues (nvme.poll_queues=N)",
			   "completion: poll needs poll queues (nvme.poll_queues=N); none on %s",
			   path);
		return -EOPNOTSUPP;
	}
	dev->span_start = cfg->offset;
	dev->span_len = cfg->size ?: nr - cfg->offset;
	if (cfg->max_bs > dev->span_len) {
		KB_ERR_FMT(extack, NULL, "bs: larger than the span of a device",
			   "bs: %u is larger than the span, %llu bytes, of %s",
			   cfg->max_bs, dev->span_len, path);
		return -EINVAL;
	}
	return 0;
}

static int kb_check_devices(struct kb_job *job, struct netlink_ext_ack *extack)
{
	struct kb_config *cfg = &job->cfg;
	unsigned int i;
	u32 unit = 0;
	int err;

	for (i = 0; i < cfg->nr_devs; i++) {
		struct kb_dev *dev = &job->devs[i];

		dev->lbs = bdev_logical_block_size(dev->bdev.bdev);
		unit = max(unit, dev->lbs);
		err = kb_check_device(job, dev, cfg->paths[i], extack);
		if (err)
			return err;
	}
	if (cfg->io_bytes % unit) {
		KB_ERR_FMT(extack, NULL,
			   "io-bytes: not a multiple of the devices' logical block size",
			   "io-bytes: not a multiple of the logical block size %u",
			   unit);
		return -EINVAL;
	}
	job->io_unit = unit;
	return 0;
}

static void kb_free_stats(struct kb_job *job)
{
	unsigned int cpu;

	if (!job->stats)
		return;
	for_each_possible_cpu(cpu)
		kvfree(job->stats[cpu]);
	kfree(job->stats);
	job->stats = NULL;
}

/*
 * Per-CPU statistics, but not from alloc_percpu(): one CPU's share, two
 * histograms of KB_HIST_BUCKETS u64s, is about 35 KiB, and the percpu
 * allocator refuses anything above PCPU_MIN_UNIT_SIZE (32 KiB) per CPU.
 * kvzalloc_node() places each CPU's block on that CPU's node, as percpu
 * memory would be, and separate blocks share no cache line.
 */
/* The secondary measures the job keeps, and their place in kb_cpu_stats.m. */
static void kb_pick_metrics(struct kb_job *job)
{
	const struct kb_config *cfg = &job->cfg;
	unsigned int id;

	for (id = 0; id < KB_NR_METRICS; id++) {
		bool keep = id <= KB_M_LAT_SCHED ? cfg->rate_iops : cfg->stages;

		job->metric_idx[id] = keep ? job->nr_metrics++ : -1;
	}
}

static void kb_init_cpu_stats(struct kb_job *job, struct kb_cpu_stats *s)
{
	unsigned int dir, i;

	seqcount_init(&s->seq);
	for (dir = 0; dir < KIOBENCH_NR_DIRS; dir++) {
		s->dir[dir].c.lat_min = U64_MAX;
		for (i = 0; i < job->nr_metrics; i++)
			s->m[i][dir].min = U64_MAX;
	}
}

static int kb_alloc_stats(struct kb_job *job)
{
	unsigned int cpu;

	kb_pick_metrics(job);
	job->stats = kcalloc(nr_cpu_ids, sizeof(*job->stats), GFP_KERNEL);
	if (!job->stats)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct kb_cpu_stats *s;

		s = kvzalloc_node(struct_size(s, m, job->nr_metrics), GFP_KERNEL,
				  cpu_to_node(cpu));
		if (!s) {
			kb_free_stats(job);
			return -ENOMEM;
		}
		kb_init_cpu_stats(job, s);
		job->stats[cpu] = s;
	}
	return 0;
}

static void kb_free_slot(struct kb_slot *slot)
{
	unsigned int i;

	for (i = 0; i < slot->nr_pages; i++)
		if (slot->pages[i])
			__free_page(slot->pages[i]);
	kvfree(slot->pages);
	kvfree(slot);
}

/* Write buffers hold pseudo-random data: never zeroes, never stale memory. */
static void kb_fill_page(struct page *page, struct kb_rng *rng)
{
	u64 *p = page_address(page);
	unsigned int i;

	for (i = 0; i < PAGE_SIZE / sizeof(u64); i++)
		p[i] = kb_rng_next(rng);
}

static struct kb_slot *kb_alloc_slot(struct kb_worker *w, unsigned int nr_pages,
				     bool fill)
{
	struct kb_slot *slot;
	unsigned int i;

	slot = kvzalloc(struct_size(slot, bvec, nr_pages), GFP_KERNEL);
	if (!slot)
		return NULL;
	slot->pages = kvcalloc(nr_pages, sizeof(*slot->pages), GFP_KERNEL);
	if (!slot->pages)
		goto out_free_slot;
	slot->nr_pages = nr_pages;
	for (i = 0; i < nr_pages; i++) {
		slot->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!slot->pages[i])
			goto out_free_slot;
		if (fill)
			kb_fill_page(slot->pages[i], &w->rng);
	}
	slot->w = w;
	bio_init(&slot->bio, w->dev->bdev.bdev, slot->bvec, nr_pages, 0);
	return slot;

out_free_slot:
	kb_free_slot(slot);
	return NULL;
}

static void kb_free_worker(struct kb_worker *w)
{
	unsigned int i;

	for (i = 0; i < w->nr_slots; i++)
		kb_free_slot(w->slots[i]);
	if (w->task)
		put_task_struct(w->task);
	kvfree(w);
}

/*
 * Stops every worker that has a task; a worker that was never woken does
 * not run kb_worker_fn() at all.  Then waits until no kb_end_io() can still
 * be touching a worker, and frees them.
 */
static void kb_free_workers(struct kb_job *job)
{
	unsigned int i;

	if (!job->workers)
		return;
	WRITE_ONCE(job->stop, true);
	for (i = 0; i < job->nr_workers; i++)
		if (job->workers[i] && job->workers[i]->task)
			kthread_stop(job->workers[i]->task);
	synchronize_rcu();
	for (i = 0; i < job->nr_workers; i++)
		if (job->workers[i])
			kb_free_worker(job->workers[i]);
	kfree(job->workers);
	job->workers = NULL;
}

/* Budgets: see Documentation/kiobench.rst, "Limits". */
VISIBLE_IF_KUNIT void kb_init_budgets(struct kb_job *job, struct kb_worker *w,
				      unsigned int j)
{
	const struct kb_config *cfg = &job->cfg;
	struct kb_dev *dev = w->dev;

	w->ios_left = U64_MAX;
	w->bytes_left = U64_MAX;
	if (cfg->number_ios)
		w->ios_left = kb_split_budget(cfg->number_ios, 1,
					      job->nr_workers, w->index);
	if (cfg->io_bytes)
		w->bytes_left = kb_split_budget(cfg->io_bytes, job->io_unit,
						job->nr_workers, w->index);
	else if (!cfg->runtime_ns && !cfg->number_ios)
		w->bytes_left = kb_split_budget(dev->span_len, dev->lbs,
						cfg->numjobs, j);
	/* Sequential workers on one device start evenly spread over it. */
	w->seq_next = kb_split_budget(dev->span_len, dev->lbs, cfg->numjobs, 0) * j;
}
EXPORT_SYMBOL_IF_KUNIT(kb_init_budgets);

static int kb_alloc_workers(struct kb_job *job)
{
	const struct kb_config *cfg = &job->cfg;
	unsigned int nr_pages = DIV_ROUND_UP(cfg->max_bs, PAGE_SIZE);
	bool fill = cfg->rwmix_read < 100;
	unsigned int i, s;

	job->workers = kcalloc(job->nr_workers, sizeof(*job->workers),
			       GFP_KERNEL);
	if (!job->workers)
		return -ENOMEM;
	for (i = 0; i < job->nr_workers; i++) {
		unsigned int j = i % cfg->numjobs;
		struct kb_worker *w;

		w = kvzalloc(struct_size(w, slots, cfg->iodepth), GFP_KERNEL);
		if (!w)
			goto out_free_workers;
		job->workers[i] = w;
		w->job = job;
		w->index = i;
		w->dev = &job->devs[i / cfg->numjobs];
		w->cpu = cfg->nr_cpus ? cfg->cpus[i % cfg->nr_cpus] : -1;
		init_llist_head(&w->done);
		kb_rng_seed(&w->rng, cfg->seed + i);
		kb_init_budgets(job, w, j);
		for (s = 0; s < cfg->iodepth; s++) {
			w->slots[s] = kb_alloc_slot(w, nr_pages, fill);
			if (!w->slots[s])
				goto out_free_workers;
			w->nr_slots++;
		}
	}
	return 0;

out_free_workers:
	kb_free_workers(job);
	return -ENOMEM;
}

static int kb_create_threads(struct kb_job *job)
{
	unsigned int i;

	for (i = 0; i < job->nr_workers; i++) {
		struct kb_worker *w = job->workers[i];
		struct task_struct *task;

		task = kthread_create(kb_worker_fn, w, "kiobench%u/%u", job->id,
				      i);
		if (IS_ERR(task))
			return PTR_ERR(task);
		if (w->cpu >= 0)
			kthread_bind(task, w->cpu);
		get_task_struct(task);
		w->task = task;
	}
	return 0;
}

static int kb_charge_mem(struct kb_job *job, struct netlink_ext_ack *extack)
{
	const struct kb_config *cfg = &job->cfg;
	u64 mem = (u64)job->nr_workers * cfg->iodepth *
		  DIV_ROUND_UP(cfg->max_bs, PAGE_SIZE) * PAGE_SIZE +
		  (u64)cfg->lat_log * sizeof(struct kb_lat_entry);

	if (mem > kb_max_job_mem) {
		KB_ERR_FMT(extack, NULL,
			   "iodepth x bs x workers + lat-log: above the module's max_job_mem",
			   "iodepth x bs x workers + lat-log: %llu bytes > max_job_mem %lu",
			   mem, kb_max_job_mem);
		return -E2BIG;
	}
	if (atomic64_add_return(mem, &kb_mem_used) > kb_max_total_mem) {
		atomic64_sub(mem, &kb_mem_used);
		KB_ERR_FMT(extack, NULL,
			   "iodepth x bs x workers + lat-log: all jobs together above max_total_mem",
			   "iodepth x bs x workers + lat-log: +%llu bytes > max_total_mem %lu",
			   mem, kb_max_total_mem);
		return -ENOMEM;
	}
	job->mem = mem;
	return 0;
}

/**
 * kb_job_create() - make a job ready to start
 * @id: the job's id
 * @cfg: validated configuration; the job takes over its allocations, and
 *	 @cfg is left empty whatever the outcome
 * @extack: where to say what is wrong
 *
 * Opens the devices (exclusively with allow-writes), checks the
 * configuration against them, and allocates every buffer, bio and kthread
 * the job will use.
 *
 * Return: the job, or an ERR_PTR.
 */
struct kb_job *kb_job_create(u32 id, struct kb_config *cfg,
			     struct netlink_ext_ack *extack)
{
	struct kb_job *job;
	unsigned int tl_cap = KB_TIMELINE_DEF;
	int err;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job) {
		kb_config_free(cfg);
		return ERR_PTR(-ENOMEM);
	}
	job->id = id;
	job->cfg = *cfg;
	memset(cfg, 0, sizeof(*cfg));
	cfg = &job->cfg;
	job->nr_workers = cfg->numjobs * cfg->nr_devs;
	job->state = KIOBENCH_STATE_NEW;
	INIT_DELAYED_WORK(&job->tl_work, kb_timeline_work);

	err = kb_open_devices(job, extack);
	if (err)
		goto out_free_config;
	err = kb_check_devices(job, extack);
	if (err)
		goto out_close_devices;
	err = kb_charge_mem(job, extack);
	if (err)
		goto out_close_devices;
	err = kb_alloc_stats(job);
	if (err)
		goto out_uncharge_mem;
	if (cfg->runtime_ns)
		tl_cap = min_t(u64, KB_TIMELINE_MAX,
			       div64_u64(cfg->ramp_ns + cfg->runtime_ns,
					 cfg->interval_ns) + 2);
	job->tl = kvcalloc(tl_cap, sizeof(*job->tl), GFP_KERNEL);
	if (!job->tl) {
		err = -ENOMEM;
		goto out_free_stats;
	}
	job->tl_cap = tl_cap;
	if (cfg->lat_log) {
		job->lat_log = kvcalloc(cfg->lat_log, sizeof(*job->lat_log),
					GFP_KERNEL);
		if (!job->lat_log) {
			err = -ENOMEM;
			goto out_free_timeline;
		}
	}
	err = kb_alloc_workers(job);
	if (err)
		goto out_free_lat_log;
	err = kb_create_threads(job);
	if (err)
		goto out_free_workers;
	return job;

out_free_workers:
	kb_free_workers(job);
out_free_lat_log:
	kvfree(job->lat_log);
out_free_timeline:
	kvfree(job->tl);
out_free_stats:
	kb_free_stats(job);
out_uncharge_mem:
	atomic64_sub(job->mem, &kb_mem_used);
out_close_devices:
	kb_close_devices(job);
out_free_config:
	kb_config_free(&job->cfg);
	kfree(job);
	return ERR_PTR(err);
}

/*
 * NEW -> RUNNING.  The caller found the job NEW under the registry's lock
 * and holds it still, so that two START requests cannot both start it.
 */
int kb_job_start(struct kb_job *job, struct netlink_ext_ack *extack)
{
	const struct kb_config *cfg = &job->cfg;
	unsigned int i;
	u64 now;

	lockdep_assert_held(&kb_jobs_mutex);
	for (i = 0; i < cfg->nr_cpus; i++) {
		if (!cpu_online(cfg->cpus[i])) {
			KB_ERR_FMT(extack, NULL, "cpus: a CPU is offline",
				   "cpus: CPU %u is offline", cfg->cpus[i]);
			return -EINVAL;
		}
	}
	if (cfg->stages) {
		int err = kb_stages_get(extack);

		if (err)
			return err;
		job->stages_held = true;
	}
	now = ktime_get_ns();
	job->start_ns = now;
	job->ramp_end_ns = now + cfg->ramp_ns;
	job->deadline_ns = cfg->runtime_ns ? job->ramp_end_ns + cfg->runtime_ns
					   : U64_MAX;
	if (cfg->max_ns)
		job->deadline_ns = min(job->deadline_ns, now + cfg->max_ns);
	job->tl_next_ns = cfg->interval_ns;
	atomic_set(&job->active, job->nr_workers);
	/* Readers of RUNNING see start_ns and ramp_end_ns. */
	smp_store_release(&job->state, KIOBENCH_STATE_RUNNING);
	schedule_delayed_work(&job->tl_work, kb_timeline_delay(job));
	for (i = 0; i < job->nr_workers; i++)
		wake_up_process(job->workers[i]->task);
	return 0;
}

/* Asks a running job to stop; its workers drain what is in flight. */
void kb_job_stop(struct kb_job *job)
{
	unsigned int i;

	lockdep_assert_held(&kb_jobs_mutex);
	WRITE_ONCE(job->user_stop, true);
	WRITE_ONCE(job->stop, true);
	/* An open-loop worker may sleep until its next arrival. */
	if (smp_load_acquire(&job->state) != KIOBENCH_STATE_NEW)
		for (i = 0; i < job->nr_workers; i++)
			wake_up_process(job->workers[i]->task);
}

/*
 * Stops (if need be) and frees a job, which is no longer registered or was
 * never registered.  ORDER: its debugfs directory, whose files read the
 * job, is gone already; the registry's lock keeps netlink readers out.
 */
void kb_job_destroy(struct kb_job *job)
{
	lockdep_assert_held(&kb_jobs_mutex);
	WARN_ON_ONCE(job->dbg);
	kb_free_workers(job);
	kb_job_put_stages(job);
	cancel_delayed_work_sync(&job->tl_work);
	kvfree(job->lat_log);
	kvfree(job->tl);
	kb_free_stats(job);
	atomic64_sub(job->mem, &kb_mem_used);
	kb_close_devices(job);
	kb_config_free(&job->cfg);
	kfree(job);
}
