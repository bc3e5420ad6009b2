/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's zonemode=zbd (zone.c): the zones of a device's span as the job
 * sees them, a worker's share of them, and the calls of job creation, the
 * worker's loop, netlink and debugfs.
 */
#ifndef KB_ZONE_H
#define KB_ZONE_H

#include <linux/blk_types.h>
#include <linux/types.h>

struct kb_job;
struct kb_dev;
struct kb_worker;
struct kb_slot;
struct kb_config;
struct dentry;
struct genl_info;
struct netlink_ext_ack;

/*
 * One sequential zone of the span.  Only the worker that owns it (zone i:
 * worker i mod numjobs of its device) writes these, in its own task;
 * debugfs reads them with READ_ONCE().
 */
struct kb_zbd_zone {
	u64 wp;			/* bytes from the zone's start, advanced at submission */
	u64 cap;		/* the zone's capacity, bytes */
	u32 inflight;		/* writes submitted and not reaped */
	u8 cond0;		/* BLK_ZONE_COND_* at the worker's start */
	u64 append_end;		/* zone append: the furthest end returned, bytes */
	bool open;		/* one of the owner's open zones */
	bool touched;		/* written or reset by the job */
	bool conv;		/* conventional: read anywhere, never written */
};

struct kb_zbd_dev {
	u64 zone_bytes;		/* a power of two */
	unsigned int shift;	/* ilog2(zone_bytes) */
	u64 first;		/* the span's first zone, on the device */
	u32 nr;			/* zones in the span */
	u32 max_open;		/* a worker's open zones; 0: no limit */
	u32 dev_max_open, dev_max_active;	/* the device's; 0: none */
	u32 *open_idx;		/* max_open entries a worker, or NULL */
	struct kb_zbd_zone z[];
};

/* A worker's share: zones j, j + nw, j + 2 nw, ... of its device's span. */
struct kb_zbd_w {
	struct kb_zbd_dev *zd;	/* NULL: not zonemode zbd */
	u32 j, nw;
	u32 open;		/* zones opened, not full (fio's open zones) */
	u32 max_open;		/* 0: no limit */
	u32 *open_idx;		/* with max_open: the open zones, open of them */
	u64 start_bytes;	/* the sum of its zones' write pointers at start */
	u64 written;		/* bytes the job's writes moved them by */
	u64 resets;		/* zone resets: full zones, and trims */
	u64 reset_bytes;	/* the write pointers the resets took back */
	u64 beyond;		/* reads with no zone below its pointer to go to */
	/*
	 * zone append: the sectors returned, inside their zone or not, and
	 * those below an earlier completion's in the zone (reordered)
	 */
	u64 append_in, append_out, append_reordered;
	/* zone_reset_frequency: every gc_every writes past gc_bytes of data */
	u32 gc_every, gc_cnt;
	u64 gc_bytes;
	u64 gc_resets;		/* of resets, those */
	/* zone-op: the zones opened, closed and finished; the next zone */
	u64 opens, closes, finishes;
	u32 op_next;
};

int kb_zbd_parse(struct genl_info *info, struct kb_config *cfg);
int kb_zbd_check(struct kb_job *job, struct kb_dev *dev, const char *path,
		 struct netlink_ext_ack *extack);
void kb_zbd_free(struct kb_dev *dev);
int kb_zbd_begin(struct kb_worker *w);
void kb_zbd_pick(struct kb_worker *w, struct kb_slot *slot, unsigned int dir,
		 u64 *off, u32 *len);
void kb_zbd_done(struct kb_worker *w, struct kb_slot *slot);
blk_opf_t kb_zbd_opf(const struct kb_config *cfg);
int kb_zbd_debugfs(struct kb_job *job, struct dentry *dir);

#endif /* KB_ZONE_H */
