// SPDX-License-Identifier: GPL-2.0
/*
 * Jobs: their registry and their life, from kb_job_create(), which opens
 * the devices and allocates everything a job needs (buffers, bios,
 * statistics, threads), to kb_job_destroy().  The workers' loop is in
 * worker.c, completion and the statistics in account.c.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sbitmap.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <kunit/visibility.h>

#include "kiobench.h"

/* ---- registry ------------------------------------------------------------ */

/*
 * Every job, by id.  kb_jobs_mutex guards the table, and serialises what is
 * done to a registered job from outside its workers (start, stop, replay
 * log, reads of the results, removal), none of which waits for I/O.  It is
 * held neither while a job is made (devices opened, zones reported, threads
 * started) nor while one drains its I/O and is freed: a device that never
 * completes holds up only the job on it.  The job's reference count keeps
 * it alive outside the lock (kb_job_put()).
 *
 * An id is taken (kb_job_reserve_id()) before its job is made, filled in
 * (kb_job_register()) once the job is whole, emptied (kb_job_unregister())
 * when the job is removed, and given back when the job is freed.  So a
 * half-made or half-gone job is never found, and kb_nr_jobs counts every
 * job that holds anything: module exit waits for it to reach 0.
 */
static DEFINE_MUTEX(kb_jobs_mutex);
/* Hears of each job's end (netlink.c's event): the job layer calls no upper one. */
static void (*kb_job_ended)(struct kb_job *job);
/* Before a job is freed (netlink.c: its debugfs files, its expiry). */
static void (*kb_job_released)(struct kb_job *job);
static DEFINE_XARRAY_ALLOC1(kb_jobs);
static unsigned int kb_nr_jobs;		/* ids taken: made, registered, draining */
static DECLARE_WAIT_QUEUE_HEAD(kb_jobs_wq);	/* kb_nr_jobs reaching 0 */
static u32 kb_next_id;
static bool kb_jobs_closed;		/* module exit: no new job */
static struct workqueue_struct *kb_free_wq;

#define KB_MARK_ORPHAN	XA_MARK_1	/* its socket is gone: to destroy */

/*
 * Before the first job: @ended is called when a job ends, in its last
 * worker; @released before a job is freed, in its last kb_job_put().
 */
void kb_jobs_init(void (*ended)(struct kb_job *job),
		  void (*released)(struct kb_job *job))
{
	kb_job_ended = ended;
	kb_job_released = released;
}

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

/*
 * An id for a job about to be made: kb_job_register() or _release_id().
 * Jobs being made or destroyed count against KB_MAX_JOBS, as they hold
 * what a job holds.
 */
int kb_job_reserve_id(u32 *id, struct netlink_ext_ack *extack)
{
	int err;

	lockdep_assert_held(&kb_jobs_mutex);
	if (kb_jobs_closed)
		return -ENODEV;
	if (kb_nr_jobs == KB_MAX_JOBS) {
		NL_SET_ERR_MSG(extack,
			       "jobs: at most " __stringify(KB_MAX_JOBS)
			       " jobs may exist (being destroyed included); destroy one");
		return -EBUSY;
	}
	err = xa_alloc_cyclic(&kb_jobs, id, NULL, xa_limit_31b, &kb_next_id,
			      GFP_KERNEL);
	if (err < 0)
		return err;
	kb_nr_jobs++;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kb_job_reserve_id);

/* Gives back the id of a job never made, or freed; takes the lock. */
void kb_job_release_id(u32 id)
{
	mutex_lock(&kb_jobs_mutex);
	xa_erase(&kb_jobs, id);
	WRITE_ONCE(kb_nr_jobs, kb_nr_jobs - 1);
	if (!kb_nr_jobs)
		wake_up_all(&kb_jobs_wq);
	mutex_unlock(&kb_jobs_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(kb_job_release_id);

/*
 * Makes a whole job, on its reserved id, visible to kb_job_find(); the
 * registry takes a reference.  Refused once module exit has begun, which
 * waits for the job's id instead.
 */
int kb_job_register(struct kb_job *job)
{
	lockdep_assert_held(&kb_jobs_mutex);
	if (kb_jobs_closed)
		return -ENODEV;
	refcount_inc(&job->ref);
	xa_store(&kb_jobs, job->id, job, GFP_KERNEL);	/* reserved: no alloc */
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kb_job_register);

/*
 * No request finds the job any more.  The registry's reference goes to
 * the caller, who drops it (kb_job_put(), _put_async()) once the lock is
 * released; the id stays taken until the job is freed.
 */
void kb_job_unregister(struct kb_job *job)
{
	lockdep_assert_held(&kb_jobs_mutex);
	xa_clear_mark(&kb_jobs, job->id, KB_MARK_ORPHAN);
	/* NULL in an allocating xarray: reserved again, no alloc */
	xa_store(&kb_jobs, job->id, NULL, GFP_KERNEL);
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

/* Module exit: no id is reserved, no job registered from now on. */
void kb_jobs_close(void)
{
	lockdep_assert_held(&kb_jobs_mutex);
	kb_jobs_closed = true;
}

/*
 * Module exit, after kb_jobs_close() and the registered jobs' removal:
 * waits until every job is freed (those draining their I/O, those being
 * made or removed by a request still running), then frees the xarray's
 * nodes.  An id allocation that failed half way (an injected allocation
 * failure) can leave empty ones, which outlive the module's copy of the
 * xarray and leak.
 */
void kb_jobs_wait_all(void)
{
	wait_event(kb_jobs_wq, !READ_ONCE(kb_nr_jobs));
	mutex_lock(&kb_jobs_mutex);
	xa_destroy(&kb_jobs);
	mutex_unlock(&kb_jobs_mutex);
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
 * taken out of it, under that lock, before the registry's reference is
 * dropped; and its owner is set before it is stored.  Returns how many were
 * marked.
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

static void kb_job_destroy(struct kb_job *job);

/*
 * Drops a reference to @job.  The last one stops the job if it still
 * runs, waits for its workers to drain their I/O, frees it and gives its
 * id back.  Never with the registry's lock held: the drain lasts as long
 * as a device takes to complete (or fail) what it was given, without end
 * for one that never does.
 */
void kb_job_put(struct kb_job *job)
{
	u32 id = job->id;

	lockdep_assert_not_held(&kb_jobs_mutex);
	might_sleep();
	if (!refcount_dec_and_test(&job->ref))
		return;
	if (kb_job_released)
		kb_job_released(job);
	kb_job_destroy(job);
	kb_job_release_id(id);
}

static void kb_job_put_work(struct work_struct *work)
{
	kb_job_put(container_of(work, struct kb_job, put_work));
}

/*
 * kb_job_put() in a work item of the job's own, for whoever may not wait
 * (the reaper, module exit): jobs drain side by side, and one stuck on
 * its device holds up no other.  Once per job: the registry's reference.
 */
void kb_job_put_async(struct kb_job *job)
{
	INIT_WORK(&job->put_work, kb_job_put_work);
	queue_work(kb_free_wq, &job->put_work);
}

void kb_config_free(struct kb_config *cfg)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_devs; i++)
		kfree(cfg->paths[i]);
	kfree(cfg->cpus);
	kfree(cfg->zones);
	kvfree(cfg->cdf);
	kfree(cfg->verify_pattern);
	cfg->verify_pattern = NULL;
	kfree(cfg->buffer_pattern);
	cfg->buffer_pattern = NULL;
	cfg->nr_devs = 0;
	cfg->cpus = NULL;
	cfg->zones = NULL;
	cfg->cdf = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(kb_config_free);

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

/* The job's end, seen by its last worker to finish: announced. */
static void kb_job_finish(struct kb_job *job)
{
	u8 state = KIOBENCH_STATE_DONE;

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
	if (kb_job_ended)
		kb_job_ended(job);
}

/* The last worker to finish ends the job. */
static void kb_worker_finish(struct kb_worker *w)
{
	if (atomic_dec_and_test(&w->job->active))
		kb_job_finish(w->job);
}

static int kb_worker_fn(void *data)
{
	struct kb_worker *w = data;
	bool started;

	/*
	 * Woken at creation, so that a job left unstarted does not hold
	 * threads in kthread()'s uninterruptible first sleep, which the
	 * hung-task detector reports after 120 s: it waits here, idle, for
	 * kb_job_start() (which sets RUNNING, then wakes it) or its end.
	 */
	for (;;) {
		set_current_state(TASK_IDLE);
		/* pairs with kb_job_start()'s release: the job's start seen */
		started = smp_load_acquire(&w->job->state) != KIOBENCH_STATE_NEW;
		if (started || kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	if (!started)
		return 0;	/* a job that never started ends its threads unrun */
	kb_worker_run(w);
	kb_flow_leave(w);
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
 * The holder of a socket's exclusive claims.  The jobs one socket owns
 * share it, so that they may write one device at the same time (fio's
 * numjobs clones, the phases of a job file, all created before the first
 * starts); another socket's jobs, a detached job (its own holder) and any
 * other opener are refused as before.
 */
struct kb_holder {
	struct list_head node;
	const struct net *net;	/* compared, never dereferenced */
	u32 portid;
	unsigned int users;	/* jobs holding claims through it */
};

static LIST_HEAD(kb_holders);
static DEFINE_MUTEX(kb_holders_mutex);

static struct kb_holder *kb_holder_get(const struct net *net, u32 portid)
{
	struct kb_holder *h;

	mutex_lock(&kb_holders_mutex);
	list_for_each_entry(h, &kb_holders, node)
		if (h->net == net && h->portid == portid)
			goto out_use;
	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		goto out_unlock;
	h->net = net;
	h->portid = portid;
	list_add(&h->node, &kb_holders);
out_use:
	h->users++;
out_unlock:
	mutex_unlock(&kb_holders_mutex);
	return h;
}

static void kb_holder_put(struct kb_holder *h)
{
	mutex_lock(&kb_holders_mutex);
	if (!--h->users) {
		list_del(&h->node);
		kfree(h);
	}
	mutex_unlock(&kb_holders_mutex);
}

/*
 * allow-writes opens for writing and exclusively, as the spec says, even if
 * rwmix-read is 100: the flag, not the mix, claims the devices, for the
 * job's socket (a detached job: for itself).
 */
static int kb_open_devices(struct kb_job *job, struct netlink_ext_ack *extack)
{
	struct kb_config *cfg = &job->cfg;
	bool write = cfg->allow_writes;
	void *holder = job;
	unsigned int i, j;
	int err;

	if (write && job->owner_portid) {
		job->holder = kb_holder_get(job->owner_net, job->owner_portid);
		if (!job->holder)
			return -ENOMEM;
		holder = job->holder;
	}
	for (i = 0; i < cfg->nr_devs; i++) {
		struct kb_dev *dev = &job->devs[i];

		err = kb_bdev_open(&dev->bdev, cfg->paths[i], write, holder);
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
	if (job->holder) {
		kb_holder_put(job->holder);
		job->holder = NULL;
	}
	return err;
}

static void kb_close_devices(struct kb_job *job)
{
	unsigned int i;

	for (i = 0; i < job->cfg.nr_devs; i++) {
		kb_zbd_free(&job->devs[i]);
		kb_snap_free(&job->devs[i]);
		kb_bdev_close(&job->devs[i].bdev);
	}
	if (job->holder) {
		kb_holder_put(job->holder);
		job->holder = NULL;
	}
}

/*
 * fio's zoned_abs: the zones must lie inside every device's span; a
 * random-cdf must be built for its number of blocks.
 */
static int kb_check_zones(const struct kb_config *cfg, const struct kb_dev *dev,
			  const char *path, struct netlink_ext_ack *extack)
{
	unsigned int d;

	u64 blocks = div_u64(dev->span_len, cfg->min_bs);

	if (cfg->cdf && cfg->cdf[cfg->nr_cdf - 1].rank != blocks) {
		KB_ERR_FMT(extack, NULL,
			   "random-cdf: built for another number of blocks than a device's span",
			   "random-cdf: built for %llu blocks; the span of %s has %llu",
			   cfg->cdf[cfg->nr_cdf - 1].rank, path, blocks);
		return -EINVAL;
	}
	for (d = 0; cfg->zones && d < KIOBENCH_NR_DIRS; d++) {
		u64 sum = kb_zones_bytes(cfg->zones, d);

		if (sum > dev->span_len) {
			KB_ERR_FMT(extack, NULL,
				   "random-zones: zoned_abs sizes exceed the span of a device",
				   "random-zones: zoned_abs sizes %llu > span %llu of %s",
				   sum, dev->span_len, path);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * fio's rw=write:N and zonemode=strided move offsets by their bytes: the
 * device's logical block size must divide them, and a strided zone lie
 * within the span.
 */
static int kb_check_pattern(const struct kb_config *cfg, const struct kb_dev *dev,
			    const char *path, struct netlink_ext_ack *extack)
{
	if ((cfg->rw_seq_add | cfg->zonerange | cfg->zoneskip | cfg->blockalign) %
	    dev->lbs) {
		KB_ERR_FMT(extack, NULL,
			   "rw-seq-add/zonerange/zoneskip/blockalign: not a multiple of a device's logical block size",
			   "rw-seq-add/zonerange/zoneskip/blockalign: not multiples of LBS %u of %s",
			   dev->lbs, path);
		return -EINVAL;
	}
	if (cfg->zonerange > dev->span_len) {
		KB_ERR_FMT(extack, NULL, "zonerange: larger than the span of a device",
			   "zonerange: %llu is larger than the span (%llu) of %s",
			   cfg->zonerange, dev->span_len, path);
		return -EINVAL;
	}
	return 0;
}

/* Checks the configuration against one device's size and block size. */
static int kb_check_device(struct kb_job *job, struct kb_dev *dev,
			   const char *path, struct netlink_ext_ack *extack)
{
	const struct kb_config *cfg = &job->cfg;
	u64 nr = bdev_nr_bytes(dev->bdev.bdev);
	bool aligned = !(cfg->offset % dev->lbs) && !(cfg->size % dev->lbs);
	unsigned int b;
	int err;

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
	if (cfg->completion == KIOBENCH_COMPLETION_POLL && !dev->can_poll) {
		KB_ERR_FMT(extack, NULL,
			   "completion: poll needs a device with poll queues (nvme.poll_queues=N)",
			   "completion: poll needs poll queues (nvme.poll_queues=N); none on %s",
			   path);
		return -EOPNOTSUPP;
	}
	err = kb_check_dev_ops(job, dev, path, extack);
	if (err)
		return err;
	dev->span_start = cfg->offset;
	dev->span_len = cfg->size ?: nr - cfg->offset;
	dev->dev_bytes = nr;
	if (cfg->max_bs > dev->span_len) {
		KB_ERR_FMT(extack, NULL, "bs: larger than the span of a device",
			   "bs: %u is larger than the span, %llu bytes, of %s",
			   cfg->max_bs, dev->span_len, path);
		return -EINVAL;
	}
	return kb_check_zones(cfg, dev, path, extack) ?:
	       kb_check_pattern(cfg, dev, path, extack) ?:
	       kb_zbd_check(job, dev, path, extack) ?:
	       kb_pi_check_dev(job, dev, path, extack);
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
		err = kb_snap_queue(job, dev, extack);
		if (err == -ENODEV)
			KB_ERR_FMT(extack, NULL, "devices: a device is being removed",
				   "devices: %s is being removed", cfg->paths[i]);
		if (err)
			return err;
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
	unsigned int i;

	kb_loc_free(job);
	if (!job->stats)
		return;
	for (i = 0; i < job->nr_workers; i++)
		kvfree(job->stats[i]);
	kfree(job->stats);
	job->stats = NULL;
}

/* The secondary measures the job keeps, and their place in kb_stats.m. */
static void kb_pick_metrics(struct kb_job *job)
{
	const struct kb_config *cfg = &job->cfg;
	unsigned int id;

	for (id = 0; id < KB_NR_METRICS; id++) {
		bool keep = id <= KB_M_LAT_SCHED ? cfg->rate_iops :
			    id <= KB_M_STAGE_COMPLETE ? cfg->stages :
			    id <= KB_M_CLAT_PRIO_CMD ? cfg->cmdprio_any :
			    cfg->locality;

		job->metric_idx[id] = keep ? job->nr_metrics++ : -1;
	}
}

static void kb_init_stats(struct kb_job *job, struct kb_stats *s)
{
	unsigned int dir, i;

	seqcount_init(&s->seq);
	for (dir = 0; dir < KIOBENCH_NR_DIRS; dir++) {
		s->dir[dir].c.lat_min = U64_MAX;
		for (i = 0; i < job->nr_metrics; i++)
			s->m[i][dir].min = U64_MAX;
	}
}

/* The CPU worker @i is bound to, or -1 (unpinned, or cpus-shared). */
static int kb_worker_cpu(const struct kb_config *cfg, unsigned int i)
{
	return cfg->nr_cpus && !cfg->cpus_shared ?
	       cfg->cpus[i % cfg->nr_cpus] : -1;
}

/*
 * Each worker's statistics, which it alone writes (kb_account_reaped()):
 * about 70 KiB (a histogram of KB_HIST_BUCKETS u64s per direction), and
 * as much again per further measure the job keeps, on the node of the CPU
 * it is bound to.  They stay with the job until it is destroyed.
 */
static int kb_alloc_stats(struct kb_job *job)
{
	unsigned int i;

	kb_pick_metrics(job);
	job->stats = kcalloc(job->nr_workers, sizeof(*job->stats), GFP_KERNEL);
	if (!job->stats)
		return -ENOMEM;
	for (i = 0; i < job->nr_workers; i++) {
		int cpu = kb_worker_cpu(&job->cfg, i);
		struct kb_stats *s;

		s = kvzalloc_node(struct_size(s, m, job->nr_metrics), GFP_KERNEL,
				  cpu < 0 ? NUMA_NO_NODE : cpu_to_node(cpu));
		if (!s)
			break;
		kb_init_stats(job, s);
		job->stats[i] = s;
	}
	if (i == job->nr_workers && !kb_loc_alloc(job))
		return 0;
	kb_free_stats(job);	/* and the locality counters */
	return -ENOMEM;
}

static void kb_free_slot(struct kb_slot *slot)
{
	unsigned int i;

	kb_pi_free_slot(slot);
	for (i = 0; i < slot->nr_pages; i++)
		if (slot->pages[i])
			__free_page(slot->pages[i]);
	kvfree(slot->pages);
	kvfree(slot);
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
		slot->pages[i] = alloc_page(GFP_KERNEL);
		if (!slot->pages[i])
			goto out_free_slot;
		/*
		 * Never stale memory.  A read-only job's buffers hold no
		 * zeroes: a block reads back as all zeroes (zero_reads)
		 * only if the device put them there, never because a
		 * device that moves no data (null_blk without
		 * memory_backed) left the buffer as it was.
		 */
		memset(page_address(slot->pages[i]), KB_READ_POISON,
		       PAGE_SIZE);
	}
	if (fill)	/* the data it writes (data.c) */
		kb_data_fill_slot(w, slot);
	if (kb_pi_alloc_slot(w->job, slot))
		goto out_free_slot;
	slot->w = w;
	/*
	 * No device yet: kb_issue() gives it with each I/O.  bio_init() with
	 * one takes a reference on the device's blkg, which only the I/O's
	 * completion puts back (bio_endio()): a slot that never carried an
	 * I/O (a depth above the job's I/Os, a job never started) would keep
	 * the device's request_queue alive after its removal.
	 */
	bio_init(&slot->bio, NULL, slot->bvec, nr_pages, 0);
	return slot;

out_free_slot:
	kb_free_slot(slot);
	return NULL;
}

static void kb_free_worker(struct work_struct *work)
{
	struct kb_worker *w = container_of(to_rcu_work(work), struct kb_worker,
					   free_work);
	unsigned int i;

	for (i = 0; i < w->nr_slots; i++)
		kb_free_slot(w->slots[i]);
	kb_pi_free_worker(w);	/* after the slots: their last payloads */
	kb_latt_free(w);
	kb_bmap_free(&w->bmap);
	if (w->task)
		put_task_struct(w->task);
	kvfree(w);
}

/*
 * Stops every worker that has a task; one whose job never started returns
 * from kb_worker_fn() without running.  Its bios have all ended, but a
 * kb_end_io() may still be waking it, inside an RCU read section: the
 * worker (its slots, its task) is freed after a grace period, by
 * kb_free_wq, while the job goes on to release its devices at once.
 * Waiting here (synchronize_rcu()) cost every JOB_DEL a grace period,
 * 20-40 ms in a TCG guest.  Its memory is uncharged at once
 * (kb_job_destroy()), and is free a grace period later.
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
	kb_flow_put(job);
	kb_verify_destroy(job);
	kb_pi_destroy(job);
	for (i = 0; i < job->nr_workers; i++) {
		struct kb_worker *w = job->workers[i];

		if (!w)
			continue;
		INIT_RCU_WORK(&w->free_work, kb_free_worker);
		queue_rcu_work(kb_free_wq, &w->free_work);
	}
	kfree(job->workers);
	job->workers = NULL;
}

int kb_job_init(void)
{
	kb_free_wq = alloc_workqueue("kiobench_free", WQ_UNBOUND, 0);
	return kb_free_wq ? 0 : -ENOMEM;
}

/* After the last job's kb_job_destroy(): every worker freed. */
void kb_job_exit(void)
{
	rcu_barrier();	/* every worker's grace period has queued its work */
	destroy_workqueue(kb_free_wq);	/* which it runs, first */
}

/*
 * The unit of the span's budget: the random map's block, so that workers
 * sharing it take whole blocks, as their shares of the map's passes are.
 */
static u32 kb_pass_unit(const struct kb_config *cfg, const struct kb_dev *dev)
{
	if (cfg->random && !cfg->norandommap)
		return cfg->min_bs;
	return dev->lbs;
}

/* Budgets: see Documentation/kiobench.rst, "Limits". */
VISIBLE_IF_KUNIT void kb_init_budgets(struct kb_job *job, struct kb_worker *w,
				      unsigned int j)
{
	const struct kb_config *cfg = &job->cfg;
	struct kb_dev *dev = w->dev;

	w->ios_left = U64_MAX;
	w->bytes_left = U64_MAX;
	if (cfg->replay_nr) {	/* every worker the whole log, as fio's clones */
		w->ios_left = cfg->replay_nr;
		return;
	}
	if (cfg->number_ios)
		w->ios_left = kb_split_budget(cfg->number_ios, 1,
					      job->nr_workers, w->index);
	if (cfg->io_bytes)
		w->bytes_left = kb_split_budget(cfg->io_bytes, job->io_unit,
						job->nr_workers, w->index);
	else if (!cfg->runtime_ns && !cfg->number_ios)
		w->bytes_left = kb_split_budget(dev->span_len, kb_pass_unit(cfg, dev),
						cfg->numjobs, j);
	/* Sequential workers on one device start evenly spread over it. */
	w->seq_next = kb_split_budget(dev->span_len, dev->lbs, cfg->numjobs, 0) * j;
	/*
	 * fio's rw=read:N with a budget of one pass (size): fio marks the file
	 * done when the next offset passes the span's end, and its job ends
	 * there, short of size; time_based, io_size (seq-wrap) and loops start
	 * it over.
	 */
	w->seq_once = cfg->rw_seq_add && !cfg->random && !cfg->zonesize &&
		      !cfg->seq_wrap && cfg->io_bytes &&
		      w->bytes_left <= dev->span_len;
}
EXPORT_SYMBOL_IF_KUNIT(kb_init_budgets);

/*
 * The random map's bitmap of worker @j of @dev (kb_bmap_wanted()): the
 * blocks of its share of the span, as kb_rmap_init() shares the Feistel
 * map's positions (the whole span with an empty share), from block *@base;
 * with zonesize those of a strided zone, each worker its own.
 */
static u64 kb_bmap_share(const struct kb_config *cfg, const struct kb_dev *dev,
			 unsigned int j, u64 *base)
{
	u64 n = div_u64(dev->span_len, cfg->min_bs), per;
	u32 extra;

	*base = 0;
	if (cfg->zonesize)
		return div_u64(cfg->zonerange, cfg->min_bs);
	per = div_u64_rem(n, cfg->numjobs, &extra);
	if (!per && j >= extra)
		return n;
	*base = per * j + min(j, extra);
	return per + (j < extra ? 1 : 0);
}

/* The bitmaps of every worker (none with one size).  Saturates. */
static size_t kb_bmap_mem(const struct kb_job *job)
{
	const struct kb_config *cfg = &job->cfg;
	size_t mem = 0;
	unsigned int i;
	u64 base, cap;

	if (!kb_bmap_wanted(cfg))
		return 0;
	for (i = 0; i < job->nr_workers; i++) {
		cap = kb_bmap_share(cfg, &job->devs[i / cfg->numjobs],
				    i % cfg->numjobs, &base);
		mem = size_add(mem, kb_bmap_bytes(cap));
	}
	return mem;
}

/*
 * The bitmaps within KIOBENCH_MAX_RANDOM_MAP, the devices known; and no
 * verify-backlog with them: its read-back replays a window from the map
 * as the window found it, which only an empty map is (kb_vsave_put()).
 * io-round's rounds must be whole passes of each worker's map: a
 * round starts from a map empty or full, which the next draw empties.
 */
static int kb_bmap_check(const struct kb_job *job, struct netlink_ext_ack *extack)
{
	const struct kb_config *cfg = &job->cfg;
	unsigned int i;

	if (!kb_bmap_wanted(cfg))
		return 0;
	if (cfg->verify != KIOBENCH_VERIFY_NONE && cfg->verify_backlog) {
		NL_SET_ERR_MSG(extack,
			       "verify-backlog: not with several sizes under the random map, whose state a window's read-back cannot replay: norandommap, or one size");
		return -EOPNOTSUPP;
	}
	/* a round's read-back replays the map from empty: whole passes */
	for (i = 0; cfg->io_round && cfg->verify != KIOBENCH_VERIFY_NONE &&
	     i < job->nr_workers; i++) {
		u64 base, pass, round, rem;

		pass = kb_bmap_share(cfg, &job->devs[i / cfg->numjobs],
				     i % cfg->numjobs, &base) * cfg->min_bs;
		round = kb_split_budget(cfg->io_round, job->io_unit,
					job->nr_workers, i);
		if (!round)
			continue;
		if (!pass)
			goto out_round;
		div64_u64_rem(round, pass, &rem);
		if (rem)
			goto out_round;
	}
	if (kb_bmap_mem(job) <= KIOBENCH_MAX_RANDOM_MAP)
		return 0;
	NL_SET_ERR_MSG(extack,
		       "norandommap: several sizes' random map passes max-random-map (256 MiB a job, a bit per smallest block of each worker's span): norandommap, a smaller size or a larger smallest size");
	return -E2BIG;

out_round:
	NL_SET_ERR_MSG(extack,
		       "io-round: with several sizes under the random map, a round must be whole passes of each worker's map, which its read-back replays from empty: norandommap, one size, or size a multiple of the largest");
	return -EOPNOTSUPP;
}

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
	if (kb_pi_create(job))
		goto out_free_workers;
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
		w->cpu = kb_worker_cpu(cfg, i);
		w->stats = job->stats[i];
		init_llist_head(&w->done);
		w->sleeps = cfg->completion == KIOBENCH_COMPLETION_SLEEP;
		kb_rng_seed(&w->rng, cfg->seed + i);
		kb_rng_seed(&w->wsrng, ~(cfg->seed + i));
		/* the workers of a device share its map, a share each */
		kb_rmap_init(&w->rmap, div_u64(w->dev->span_len, cfg->min_bs),
			     cfg->seed + i / cfg->numjobs, cfg->numjobs, j);
		/* strided: a map of the zone's blocks, each worker its own */
		if (cfg->zonesize)
			kb_rmap_init(&w->rmap, div_u64(cfg->zonerange, cfg->min_bs),
				     cfg->seed + i, 1, 0);
		/* the workers of a device share its hot blocks */
		kb_perm_init(&w->scatter, div_u64(w->dev->span_len, cfg->min_bs),
			     ~cfg->seed + i / cfg->numjobs);
		/* several sizes: the bitmap, fio's, as it shortens transfers */
		if (kb_bmap_wanted(cfg)) {
			u64 base, cap = kb_bmap_share(cfg, w->dev, j, &base);

			if (kb_bmap_alloc(&w->bmap, cap))
				goto out_free_workers;
			w->bmap.base = base;
			if (cfg->zonesize)	/* the first zone, as the span cuts it */
				kb_bmap_reset(&w->bmap,
					      div_u64(min(cfg->zonerange, w->dev->span_len),
						      cfg->min_bs));
		}
		kb_init_budgets(job, w, j);
		if (kb_latt_alloc(w) || kb_pi_alloc_worker(w))
			goto out_free_workers;
		for (s = 0; s < cfg->iodepth; s++) {
			w->slots[s] = kb_alloc_slot(w, nr_pages, fill);
			if (!w->slots[s])
				goto out_free_workers;
			w->nr_slots++;
		}
	}
	/* verify's buffers, the workers' and the job's (verify.c); the flow */
	if (!kb_verify_create(job) && !kb_flow_join(job))
		return 0;

out_free_workers:
	kb_free_workers(job);
	return -ENOMEM;
}

/*
 * The workers' kthreads, each bound to its CPU, or with cpus-shared each
 * allowed all of cfg->cpus (fio's cpus_allowed_policy=shared: the
 * scheduler places them).  A thread made is the job's even if a later one
 * fails: the unwind, kb_free_workers(), stops them all.
 */
static int kb_create_threads(struct kb_job *job)
{
	const struct kb_config *cfg = &job->cfg;
	cpumask_var_t shared;
	unsigned int i;
	int err = 0;

	if (!zalloc_cpumask_var(&shared, GFP_KERNEL))
		return -ENOMEM;
	for (i = 0; cfg->cpus_shared && i < cfg->nr_cpus; i++)
		cpumask_set_cpu(cfg->cpus[i], shared);
	for (i = 0; i < job->nr_workers; i++) {
		struct kb_worker *w = job->workers[i];
		struct task_struct *task;

		task = kthread_create(kb_worker_fn, w, "kiobench%u/%u", job->id,
				      i);
		if (IS_ERR(task)) {
			err = PTR_ERR(task);
			break;
		}
		if (w->cpu >= 0)
			kthread_bind(task, w->cpu);
		else if (cfg->cpus_shared)
			err = kb_kthread_affine(task, shared);
		kb_submit_nice(job, task);
		get_task_struct(task);
		w->task = task;
		wake_up_process(task);	/* to wait for the start, idle */
		if (err)
			break;
	}
	free_cpumask_var(shared);
	return err;
}

/*
 * Everything kb_job_create() will allocate that a job's settings can make
 * large, before it is allocated: the buffers (pages), the latency log, the
 * replay table, verify's buffers and trim rings, the per-CPU locality
 * counters and the latency-target state (the zones' tables were charged
 * with the devices' checks).  Each term saturates.
 */
static int kb_charge_mem(struct kb_job *job, struct netlink_ext_ack *extack)
{
	const struct kb_config *cfg = &job->cfg;
	size_t mem;

	mem = size_mul(array3_size(job->nr_workers, cfg->iodepth,
				   DIV_ROUND_UP(cfg->max_bs, PAGE_SIZE)),
		       PAGE_SIZE);
	mem = size_add(mem, size_mul(cfg->lat_log, sizeof(struct kb_lat_entry)));
	mem = size_add(mem, kb_replay_mem(job));
	mem = size_add(mem, kb_verify_mem(job));
	mem = size_add(mem, kb_loc_mem(job));
	mem = size_add(mem, kb_latt_mem(job));
	mem = size_add(mem, kb_pi_mem(job));
	mem = size_add(mem, kb_bmap_mem(job));
	return kb_verify_check_map(job, extack) ?: kb_bmap_check(job, extack) ?:
	       kb_job_charge(job, mem, extack);
}

/**
 * kb_job_create() - make a job ready to start
 * @id: the job's id
 * @cfg: validated configuration; the job takes over its allocations, and
 *	 @cfg is left empty whatever the outcome
 * @net: the network namespace of the creating socket
 * @owner_portid: the creating socket, whose jobs share their claims; 0:
 *		  detached, the job claims its devices for itself
 * @extack: where to say what is wrong
 *
 * Opens the devices (exclusively with allow-writes), checks the
 * configuration against them, and allocates every buffer, bio and kthread
 * the job will use.
 *
 * Called without the registry's lock: opening a device may load its
 * driver's module, whose init may wait for locks a request holds.
 *
 * Return: the job, with one reference (the caller's), or an ERR_PTR.
 */
struct kb_job *kb_job_create(u32 id, struct kb_config *cfg, const struct net *net,
			     u32 owner_portid, struct netlink_ext_ack *extack)
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
	job->owner_portid = owner_portid;
	job->owner_net = net;
	job->cfg = *cfg;
	memset(cfg, 0, sizeof(*cfg));
	cfg = &job->cfg;
	job->nr_workers = cfg->numjobs * cfg->nr_devs;
	job->state = KIOBENCH_STATE_NEW;
	refcount_set(&job->ref, 1);	/* the creator's */
	INIT_DELAYED_WORK(&job->tl_work, kb_timeline_work);

	err = kb_open_devices(job, extack);
	if (err)
		goto out_free_config;
	err = kb_check_devices(job, extack);	/* charges the zones' tables */
	if (err)
		goto out_uncharge_mem;
	/* the charge, then read_iolog's entries (charged with the rest) */
	err = kb_charge_mem(job, extack) ?: kb_replay_alloc(job);
	if (err)
		goto out_uncharge_mem;
	err = kb_alloc_stats(job);
	if (err)
		goto out_free_replay;
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
out_free_replay:
	kb_replay_free(job);
out_uncharge_mem:
	kb_job_uncharge(job);
	kb_close_devices(job);
out_free_config:
	kb_config_free(&job->cfg);
	kfree(job);
	return ERR_PTR(err);
}

/*
 * What the block layer will do with a device's protection information, as
 * the job starts: the report says whether the PI of its writes and reads
 * was the block layer's (integrity/write_generate, read_verify), which
 * the administrator may change between two jobs.  A bio-based device's
 * own settings are not consulted: its bios get their PI where they reach
 * a blk-mq device below it, by that device's settings.  Read after the job's
 * RUNNING (kb_put_config()), whose release publishes it.
 */
static void kb_note_integrity(struct kb_dev *dev)
{
	struct block_device *bdev = dev->bdev.bdev;
	bool gen = false, ver = false;

	dev->pi_format = kb_integrity(bdev, &gen, &ver);
	/* bio_integrity_prep() runs in blk_mq_submit_bio(): the devices below */
	if (dev->pi_format && !queue_is_mq(bdev_get_queue(bdev))) {
		dev->pi_flags = BIT(KIOBENCH_INTEGRITY_BIT_STACKED);
		return;
	}
	dev->pi_flags = (gen ? BIT(KIOBENCH_INTEGRITY_BIT_GENERATE) : 0) |
			(ver ? BIT(KIOBENCH_INTEGRITY_BIT_VERIFY) : 0);
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
	if (cfg->replay_nr) {
		int err = kb_replay_ready(job, extack);

		if (err)
			return err;
	}
	for (i = 0; i < cfg->nr_cpus; i++) {
		if (!cpu_online(cfg->cpus[i])) {
			KB_ERR_FMT(extack, NULL, "cpus: a CPU is offline",
				   "cpus: CPU %u is offline", cfg->cpus[i]);
			return -EINVAL;
		}
	}
	if (cfg->stages) {
		int err = kb_stages_get(kb_end_io, extack);

		if (err)
			return err;
		job->stages_held = true;
	}
	for (i = 0; i < cfg->nr_devs; i++)
		kb_note_integrity(&job->devs[i]);
	now = ktime_get_ns();
	job->start_ns = now;
	job->ramp_end_ns = now + cfg->ramp_ns;	/* until a worker runs */
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
 * Stops (if need be), drains and frees a job that no reference reaches any
 * more (kb_job_put()).  ORDER: its debugfs directory, whose files read the
 * job, is gone already; it is unregistered, so no request finds it.
 */
static void kb_job_destroy(struct kb_job *job)
{
	WARN_ON_ONCE(job->dbg);
	kb_free_workers(job);
	kb_job_put_stages(job);
	cancel_delayed_work_sync(&job->tl_work);
	kvfree(job->lat_log);
	kvfree(job->tl);
	kb_free_stats(job);
	kb_replay_free(job);
	kb_job_uncharge(job);
	kb_close_devices(job);
	kb_config_free(&job->cfg);
	kfree(job);
}
