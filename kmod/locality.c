// SPDX-License-Identifier: GPL-2.0
/*
 * Where each I/O ran (locality.h): the job's per-CPU counters, allocated
 * with the job, and their debugfs file.
 */
#include <linux/blk-mq.h>
#include <linux/debugfs.h>
#include <linux/percpu.h>
#include <linux/sbitmap.h>
#include <linux/seq_file.h>
#include <linux/wait.h>

#include "kiobench.h"

/*
 * A reference on @q's usage counter, as blk_queue_enter() takes (which is
 * not exported): while it is held, the queue cannot be frozen, and so its
 * tag set can be neither changed (blk_mq_update_nr_hw_queues()) nor freed
 * (a driver frees it after del_gendisk(), which freezes the queue).  Waits
 * out a freeze; fails once @disk is being removed.
 */
static int kb_queue_enter(struct request_queue *q, struct gendisk *disk)
{
	while (!percpu_ref_tryget_live(&q->q_usage_counter)) {
		if (wait_event_killable(q->mq_freeze_wq,
					!READ_ONCE(q->mq_freeze_depth) ||
					!disk_live(disk)))
			return -EINTR;
		if (!disk_live(disk))
			return -ENODEV;
	}
	return 0;
}

/* The tag set's map of @type, or its default one when that is empty. */
static const struct blk_mq_queue_map *kb_snap_map(const struct blk_mq_tag_set *set,
						  enum hctx_type type)
{
	if (type >= set->nr_maps || !set->map[type].nr_queues)
		type = HCTX_TYPE_DEFAULT;
	return &set->map[type];
}

/* The most requests a plug of kb_start_plug() can take at once from @q. */
static u8 kb_snap_plug_max(const struct request_queue *q,
			   const struct blk_mq_tag_set *set)
{
	unsigned int depth;

	/*
	 * blk-mq takes a batch only from free bits of one sbitmap word, from
	 * the word's first free bit on (__sbitmap_queue_get_batch()), and
	 * sbitmap makes its words shorter on a small queue: 16 bits for
	 * null_blk's 64 tags.  A larger batch would fail, and blk-mq would
	 * take one tag at a time.  A hint: the scheduler may change after
	 * JOB_NEW, which at worst costs that one failed try.
	 */
	depth = q->elevator ? q->nr_requests :	/* the scheduler's tags */
		set->queue_depth - set->reserved_tags;
	return min(KB_PLUG_MAX_IOS, 1U << sbitmap_calculate_shift(depth));
}

/**
 * kb_snap_queue() - what the I/O path needs of @dev's queue, copied
 * @job: the job being made, charged for the copy
 * @dev: an open device of @job
 * @extack: where to say which memory limit the copy passes
 *
 * The I/O path never reads the tag set (locality.h): its poll queues,
 * its CPU-to-queue maps (one row of nr_cpu_ids queue numbers a kind of
 * bio, kb_loc_hq()) and its depth are copied here, under a reference
 * that keeps the driver from freeing them meanwhile.
 *
 * Return: 0, -ENODEV (the device is being removed), -EINTR, -ENOMEM or
 * -E2BIG (kb_job_charge()).
 */
int kb_snap_queue(struct kb_job *job, struct kb_dev *dev,
		  struct netlink_ext_ack *extack)
{
	static const enum hctx_type types[KB_HQ_NR_ROWS] = {
		[KB_HQ_DEFAULT] = HCTX_TYPE_DEFAULT,
		[KB_HQ_READ] = HCTX_TYPE_READ,
		[KB_HQ_POLL] = HCTX_TYPE_POLL,
	};
	struct block_device *bdev = dev->bdev.bdev;
	struct request_queue *q = bdev_get_queue(bdev);
	const struct blk_mq_tag_set *set;
	unsigned int row, cpu;
	u16 *map;
	int err;

	if (!queue_is_mq(q)) {
		dev->can_poll = kb_bdev_can_poll(bdev);
		dev->plug_max = 1;	/* no requests of its own */
		return 0;
	}
	err = kb_job_charge(job, array3_size(KB_HQ_NR_ROWS, nr_cpu_ids,
					     sizeof(*map)), extack);
	if (err)
		return err;
	map = kvmalloc_array(array_size(KB_HQ_NR_ROWS, nr_cpu_ids),
			     sizeof(*map), GFP_KERNEL);
	if (!map)
		return -ENOMEM;
	err = kb_queue_enter(q, bdev->bd_disk);
	if (err) {
		kvfree(map);
		return err;
	}
	set = q->tag_set;
	dev->can_poll = kb_bdev_can_poll(bdev);
	dev->hq_poll = dev->can_poll;	/* the same test: a poll map */
	dev->nr_hq = min_t(unsigned int, set->nr_hw_queues, KB_LOC_NO_HQ);
	dev->plug_max = kb_snap_plug_max(q, set);
	for (row = 0; row < KB_HQ_NR_ROWS; row++) {
		const struct blk_mq_queue_map *qmap = kb_snap_map(set, types[row]);

		for (cpu = 0; cpu < nr_cpu_ids; cpu++)
			map[row * nr_cpu_ids + cpu] = qmap->mq_map[cpu];
	}
	percpu_ref_put(&q->q_usage_counter);	/* blk_queue_exit() */
	dev->hq_map = map;
	return 0;
}

void kb_snap_free(struct kb_dev *dev)
{
	kvfree(dev->hq_map);
	dev->hq_map = NULL;
}

/* The largest number of hardware queues among the job's devices. */
static unsigned int kb_loc_nr_hq(const struct kb_job *job)
{
	unsigned int i, nr = 0;

	for (i = 0; i < job->cfg.nr_devs; i++)
		nr = max_t(unsigned int, nr, job->devs[i].nr_hq);
	return nr;
}

static size_t kb_loc_size(unsigned int nr_hq)
{
	return sizeof(struct kb_loc_cpu) + (nr_cpu_ids + nr_hq + 1) * sizeof(u64);
}

/* What kb_loc_alloc() will allocate: a copy per possible CPU; charged. */
u64 kb_loc_mem(struct kb_job *job)
{
	size_t size = kb_loc_size(kb_loc_nr_hq(job));

	if (size > PCPU_MIN_UNIT_SIZE)
		return 0;
	return sizeof(struct kb_loc) + (u64)size * num_possible_cpus();
}

/**
 * kb_loc_alloc() - the job's locality counters
 * @job: a job whose devices are open
 *
 * The percpu allocator takes at most PCPU_MIN_UNIT_SIZE (32 KiB) a CPU:
 * past some 4000 CPUs and queues a job has no locality (no debugfs file)
 * unless it asked for the split, which is then refused.
 *
 * Return: 0, -E2BIG or -ENOMEM.
 */
int kb_loc_alloc(struct kb_job *job)
{
	unsigned int nr_hq = kb_loc_nr_hq(job);
	size_t size = kb_loc_size(nr_hq);
	struct kb_loc *loc;

	if (size > PCPU_MIN_UNIT_SIZE)
		return job->cfg.locality ? -E2BIG : 0;
	loc = kzalloc(sizeof(*loc), GFP_KERNEL);
	if (!loc)
		return -ENOMEM;
	loc->nr_hq = nr_hq;
	loc->pcpu = __alloc_percpu_gfp(size, sizeof(u64), GFP_KERNEL);
	if (!loc->pcpu) {
		kfree(loc);
		return -ENOMEM;
	}
	job->loc = loc;
	return 0;
}

void kb_loc_free(struct kb_job *job)
{
	if (!job->loc)
		return;
	free_percpu(job->loc->pcpu);
	kfree(job->loc);
	job->loc = NULL;
}

static u64 kb_loc_get(const struct kb_loc *loc, unsigned int cpu,
		      unsigned int i)
{
	return READ_ONCE(per_cpu_ptr(loc->pcpu, cpu)->n[i]);
}

/* "cpu C submitted S completed N local L hardirq H softirq I task T" */
static void kb_loc_show_cpus(struct seq_file *m, const struct kb_loc *loc)
{
	unsigned int cpu, s, k;

	for_each_possible_cpu(cpu) {
		const struct kb_loc_cpu *c = per_cpu_ptr(loc->pcpu, cpu);
		u64 sub = 0, done = 0, ctx[KB_LOC_NR_CTX];

		for (k = 0; k < KB_LOC_NR_CTX; k++) {
			ctx[k] = READ_ONCE(c->ctx[k]);
			done += ctx[k];
		}
		for_each_possible_cpu(s)
			sub += kb_loc_get(loc, s, cpu);
		if (!sub && !done)
			continue;
		seq_printf(m, "cpu %u submitted %llu completed %llu local %llu hardirq %llu softirq %llu task %llu\n",
			   cpu, sub, done, kb_loc_get(loc, cpu, cpu),
			   ctx[KB_LOC_HARDIRQ], ctx[KB_LOC_SOFTIRQ],
			   ctx[KB_LOC_TASK]);
	}
}

/* "pair S C N": N I/Os submitted on S completed on C, non-zero ones. */
static void kb_loc_show_pairs(struct seq_file *m, const struct kb_loc *loc)
{
	unsigned int s, c;

	for_each_possible_cpu(s)
		for_each_possible_cpu(c) {
			u64 n = kb_loc_get(loc, c, s);

			if (n)
				seq_printf(m, "pair %u %u %llu\n", s, c, n);
		}
}

/* "hq Q N" per hardware queue, "hq none N" for I/Os without one. */
static void kb_loc_show_queues(struct seq_file *m, const struct kb_loc *loc)
{
	unsigned int q, cpu;

	for (q = 0; q <= loc->nr_hq; q++) {
		u64 n = 0;

		for_each_possible_cpu(cpu)
			n += kb_loc_get(loc, cpu, nr_cpu_ids + q);
		if (!n)
			continue;
		if (q < loc->nr_hq)
			seq_printf(m, "hq %u %llu\n", q, n);
		else
			seq_printf(m, "hq none %llu\n", n);
	}
}

/*
 * The counts so far: while the job runs, a CPU's may be a completion or
 * two behind another's.  Exact once it has ended.
 */
static int kb_loc_show(struct seq_file *m, void *unused)
{
	struct kb_job *job = m->private;

	seq_puts(m, "# kiobench-locality 1\n");
	seq_printf(m, "# cpus %u queues %u\n", nr_cpu_ids, job->loc->nr_hq);
	kb_loc_show_cpus(m, job->loc);
	kb_loc_show_pairs(m, job->loc);
	kb_loc_show_queues(m, job->loc);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kb_loc);

int kb_loc_debugfs(struct kb_job *job, struct dentry *dir)
{
	if (!job->loc)	/* too many CPUs (kb_loc_alloc()) */
		return 0;
	return PTR_ERR_OR_ZERO(debugfs_create_file("locality", 0400, dir, job,
						   &kb_loc_fops));
}
