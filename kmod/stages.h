/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-stage latency split (job attribute "stages").
 *
 * Four stamps of one I/O, all from ktime_get_ns():
 *
 *   submit_ns   kb_submit(), just before submit_bio()
 *   issue_ns    block_rq_issue: the driver is handed the request
 *   drv_ns      nvme_sq (NVMe PCI: the completion queue entry is reaped) or,
 *               where no nvme_sq came, block_rq_complete
 *   end         kb_end_io()
 *
 * queue = issue - submit, device = drv - issue, complete = end - drv: the
 * three add up to the I/O's latency exactly.  The tracepoint probes
 * (stages.c) stamp every kiobench bio a request carries, alone or merged
 * with others (each has its own submission and end; the request's issue
 * and driver completion are theirs), and a bio completed by parts when
 * its last part is.  What has no stages is counted by why (enum
 * kb_unsplit): a bio the block layer split over several requests, one
 * never issued in a request (bio-based drivers, md and dm, send clones
 * down; an empty flush the block layer ends itself), one whose driver
 * completion never came, or stamps out of order; and, in the trim
 * direction, a zone reset the worker timed around blkdev_zone_mgmt()
 * (account.c, kb_account_op()), whose bio is the block layer's.  Nothing
 * is guessed.
 */
#ifndef KB_STAGES_H
#define KB_STAGES_H

#include <linux/bits.h>
#include <linux/types.h>

struct dentry;
struct netlink_ext_ack;

enum kb_stage {
	KB_STAGE_QUEUE,		/* driver issue - submission */
	KB_STAGE_DEVICE,	/* driver completion - driver issue */
	KB_STAGE_COMPLETE,	/* bi_end_io - driver completion */
	KB_NR_STAGES
};

/* kb_slot.stage_flags, zeroed before each submission */
#define KB_SF_ISSUE	BIT(0)	/* issue_ns: a request holding this bio issued */
#define KB_SF_DRV	BIT(1)	/* drv_ns stamped */
#define KB_SF_NVME	BIT(2)	/* ... by nvme_sq, which block_rq_complete keeps */
#define KB_SF_SPLIT	BIT(3)	/* issued as the rest of a split bio */

/**
 * kb_stage_split() - the stages of one completed I/O
 * @slot: its slot, with the stamps of the probes
 * @end_ns: its bi_end_io stamp
 * @st: the stages, indexed by enum kb_stage, on success
 * @why: why it has none, on failure
 *
 * Pure: KUnit checks it.  An I/O whose four stamps are not all there, or
 * not in order, has no stages; nothing is guessed.
 *
 * Return: true and @st filled (summing to @end_ns - submit_ns exactly), or
 * false and @why set: count the I/O as unsplit, for that reason.
 */
static inline bool kb_stage_split(const struct kb_slot *slot, u64 end_ns,
				  u64 st[KB_NR_STAGES], enum kb_unsplit *why)
{
	u8 f = slot->stage_flags;

	if (f & KB_SF_SPLIT) {
		*why = KB_UNSPLIT_SPLIT;
		return false;
	}
	if (!(f & KB_SF_ISSUE)) {
		*why = KB_UNSPLIT_NO_REQUEST;
		return false;
	}
	if (!(f & KB_SF_DRV)) {
		*why = KB_UNSPLIT_NO_DRIVER;
		return false;
	}
	if (slot->issue_ns < slot->submit_ns || slot->drv_ns < slot->issue_ns ||
	    end_ns < slot->drv_ns) {
		*why = KB_UNSPLIT_DISORDERED;
		return false;
	}
	st[KB_STAGE_QUEUE] = slot->issue_ns - slot->submit_ns;
	st[KB_STAGE_DEVICE] = slot->drv_ns - slot->issue_ns;
	st[KB_STAGE_COMPLETE] = end_ns - slot->drv_ns;
	return true;
}

#ifdef CONFIG_TRACEPOINTS
/* stages.c: the probes, attached while a job with stages runs */
int kb_stages_get(bio_end_io_t *end_io, struct netlink_ext_ack *extack);
void kb_stages_put(void);
void kb_stages_debugfs(struct dentry *root);
void kb_stages_exit(void);
#else
static inline int kb_stages_get(bio_end_io_t *end_io,
				struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG(extack,
		       "stages: this kernel has no tracepoints (CONFIG_TRACEPOINTS)");
	return -EOPNOTSUPP;
}

static inline void kb_stages_put(void)
{
}

static inline void kb_stages_debugfs(struct dentry *root)
{
}

static inline void kb_stages_exit(void)
{
}
#endif

#endif /* KB_STAGES_H */
