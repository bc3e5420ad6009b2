// SPDX-License-Identifier: GPL-2.0
/*
 * Where each I/O ran (locality.h): the job's per-CPU counters, allocated
 * with the job, and their debugfs file.
 */
#include <linux/debugfs.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include "kiobench.h"

/* The largest number of hardware queues among the job's devices. */
static unsigned int kb_loc_nr_hq(const struct kb_job *job)
{
	unsigned int i, nr = 0;

	for (i = 0; i < job->cfg.nr_devs; i++) {
		struct request_queue *q = bdev_get_queue(job->devs[i].bdev.bdev);

		if (queue_is_mq(q) && q->tag_set)
			nr = max(nr, q->tag_set->nr_hw_queues);
	}
	return min_t(unsigned int, nr, KB_LOC_NO_HQ);
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
	size_t size = sizeof(struct kb_loc_cpu) +
		      (nr_cpu_ids + nr_hq + 1) * sizeof(u64);
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
