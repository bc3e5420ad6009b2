/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where each I/O ran (debugfs job<ID>/locality): the CPU it was submitted
 * on, the CPU and context it completed in, and the hardware queue that
 * blk-mq's CPU-to-queue map gives its submitting CPU and op type.
 *
 * Every job counts them, for every completed I/O (warm-up and failed ones
 * included): the submit side stamps the slot (kb_loc_submit(), before
 * submit_bio()), the completion counts it in the completing CPU's own
 * counters (kb_loc_complete(), in kb_end_io()).  No lock, no atomic, no
 * allocation: one per-CPU block per job, allocated with it, of
 * KB_LOC_NR_CTX context counters then a counter per submit CPU
 * (nr_cpu_ids) then one per hardware queue (nr_hq, the largest
 * nr_hw_queues of the job's devices) and one for "no queue" (a bio-based
 * device, or a queue number past nr_hq after the device's queues were
 * changed).  The pairs (submit CPU, completion CPU) are in it whole; the
 * tool tells which share a last-level cache from sysfs.
 *
 * The submitting CPU is the one kb_loc_submit() runs on: an unpinned
 * worker may move between it and submit_bio(), rarely.  The hardware
 * queue is the map's answer as blk_mq_map_queue() picks it: REQ_POLLED to
 * the poll map (dropped when the queue has no poll queues, as
 * submit_bio_noacct() does), reads to the read map, the rest and any empty
 * map to the default one.  The maps are the tag set's (struct
 * blk_mq_tag_set.map[], the same from 6.1 to 7.3), which the driver owns
 * and may free while the job still holds the device open (null_blk when
 * its configfs device is powered off, virtio-blk on removal): the job
 * copies them at JOB_NEW (kb_snap_queue(), locality.c), and the I/O path
 * reads its copy only.  A job does not see the maps change after it was
 * made (blk_mq_update_nr_hw_queues()); a queue number past nr_hq counts
 * as "no queue".
 */
#ifndef KB_LOCALITY_H
#define KB_LOCALITY_H

#include <linux/blk_types.h>
#include <linux/hardirq.h>
#include <linux/percpu.h>
#include <linux/smp.h>

struct dentry;

enum kb_loc_ctx {
	KB_LOC_HARDIRQ,		/* in_hardirq() */
	KB_LOC_SOFTIRQ,		/* in_serving_softirq() */
	KB_LOC_TASK,		/* neither: a poller, an irq thread, the submitter */
	KB_LOC_NR_CTX
};

#define KB_LOC_NO_HQ	U16_MAX	/* slot->loc_hq of a bio-based device */

/* One completing CPU's counters. */
struct kb_loc_cpu {
	u64 ctx[KB_LOC_NR_CTX];
	u64 n[];	/* [nr_cpu_ids] by submit CPU, [nr_hq + 1] by queue */
};

struct kb_loc {
	struct kb_loc_cpu __percpu *pcpu;
	unsigned int nr_hq;
};

/* The rows of kb_dev.hq_map: a CPU's queue by kind of bio. */
enum kb_hq_row {
	KB_HQ_DEFAULT,		/* writes, trims, flushes: HCTX_TYPE_DEFAULT */
	KB_HQ_READ,		/* reads: HCTX_TYPE_READ, or DEFAULT's */
	KB_HQ_POLL,		/* REQ_POLLED: HCTX_TYPE_POLL, when hq_poll */
	KB_HQ_NR_ROWS
};

/* The hardware queue of a bio of @opf submitted on @cpu to @dev. */
static inline u16 kb_loc_hq(const struct kb_dev *dev, blk_opf_t opf, int cpu)
{
	enum kb_hq_row row = KB_HQ_DEFAULT;

	if (!dev->hq_map)
		return KB_LOC_NO_HQ;
	if ((opf & REQ_POLLED) && dev->hq_poll)
		row = KB_HQ_POLL;
	else if ((opf & REQ_OP_MASK) == REQ_OP_READ)
		row = KB_HQ_READ;
	return dev->hq_map[row * nr_cpu_ids + cpu];
}

/* Submit side, just before submit_bio(): where the I/O starts. */
static inline void kb_loc_submit(const struct kb_dev *dev,
				 struct kb_slot *slot, const struct bio *bio)
{
	int cpu = raw_smp_processor_id();

	slot->loc_cpu = cpu;
	slot->loc_hq = kb_loc_hq(dev, bio->bi_opf, cpu);
}

/*
 * Completion side, on the completing CPU: counted there alone.  Any
 * context: a task-context completion (a poller) may be interrupted by an
 * interrupt's, on the same CPU, so each count is one this_cpu_inc(), which
 * no interrupt can tear (one instruction on x86); preemption is off so
 * that the three counts and the answer are one CPU's.  Return: the I/O
 * completed on the CPU that submitted it.
 */
static inline bool kb_loc_complete(struct kb_loc *loc,
				   const struct kb_slot *slot)
{
	unsigned int hq = min_t(unsigned int, slot->loc_hq, loc->nr_hq);
	bool local;

	preempt_disable();
	this_cpu_inc(loc->pcpu->ctx[in_hardirq() ? KB_LOC_HARDIRQ :
				    in_serving_softirq() ? KB_LOC_SOFTIRQ :
				    KB_LOC_TASK]);
	this_cpu_inc(loc->pcpu->n[slot->loc_cpu]);
	this_cpu_inc(loc->pcpu->n[nr_cpu_ids + hq]);
	local = slot->loc_cpu == smp_processor_id();
	preempt_enable();
	return local;
}

/* locality.c */
int kb_snap_queue(struct kb_job *job, struct kb_dev *dev,
		  struct netlink_ext_ack *extack);
void kb_snap_free(struct kb_dev *dev);
u64 kb_loc_mem(struct kb_job *job);
int kb_loc_alloc(struct kb_job *job);
void kb_loc_free(struct kb_job *job);
int kb_loc_debugfs(struct kb_job *job, struct dentry *dir);

#endif /* KB_LOCALITY_H */
