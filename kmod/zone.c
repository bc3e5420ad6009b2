// SPDX-License-Identifier: GPL-2.0
/*
 * fio's zonemode=zbd on zoned block devices.
 *
 * Each worker keeps the write pointers of its share of the span's zones,
 * read with blkdev_report_zones() at its start and advanced as it submits
 * its writes: a write goes at the pointer of its offset's zone (or of the
 * next zone of the worker's that can take it), never elsewhere, so the
 * device sees every zone written sequentially.  The workers of a device
 * share its zones, zone i to worker i mod numjobs: no zone has two
 * writers, and the hot path takes no lock.
 *
 * A zone is open, as fio counts, while written and not full.  A worker
 * opens a new zone only while fewer than its max_open are open; a full
 * zone is reset when none of the worker's zones has room, synchronously
 * (as fio does) and only when none of its writes is in flight: the reset
 * would fail them.  The job asks for at least iodepth zones a worker, so
 * such a zone always exists (each write in flight holds at most one).
 *
 * The order of the writes to a zone is the order of their submit_bio():
 * from 6.10 zone write plugging keeps it for any scheduler; before, only
 * mq-deadline's zone write locking does, and the job is refused at depth
 * > 1 without it (compat.h).
 *
 * zone-op (kiobench's rw=zone_reset, zone_open, zone_close, zone_finish,
 * zone_reset_all): the trims of a zbd job are that zone management
 * command, one zone each (reset-all: the device), at the job's depth and
 * timed in the trim direction; beside writes, reset times the resets zbd
 * issues (zone_mgmt).
 */
#include <linux/blkdev.h>
#include <linux/debugfs.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <net/genetlink.h>

#include "kiobench.h"

/*
 * zone-op: the trims of a job that only trims, any op; beside writes, the
 * resets zbd issues.  Every op destroys data; reset-all is one command for
 * the whole device, from one worker.
 */
static int kb_zbd_parse_op(struct genl_info *info, const struct kb_config *cfg)
{
	struct nlattr *at = info->attrs[KIOBENCH_A_ZONE_OP];
	struct netlink_ext_ack *extack = info->extack;

	if (!cfg->allow_writes) {
		NL_SET_ERR_MSG_ATTR(extack, at,
				    "zone-op: zone management destroys data; the request must set allow-writes");
		return -EINVAL;
	}
	if (cfg->trim_mode != KIOBENCH_TRIM_TRIM &&
	    (cfg->zone_op != KIOBENCH_ZONE_OP_RESET || cfg->rwmix_read == 100 ||
	     cfg->trim_mode)) {
		NL_SET_ERR_MSG_ATTR(extack, at,
				    "zone-op: with trim-mode trim (every I/O a zone op), or reset beside writes");
		return -EINVAL;
	}
	if (cfg->zone_op == KIOBENCH_ZONE_OP_RESET_ALL && cfg->numjobs > 1) {
		NL_SET_ERR_MSG_ATTR(extack, at,
				    "zone-op: reset-all resets every zone of a device: numjobs must be 1");
		return -EINVAL;
	}
	return 0;
}

/*
 * The request's rules: the zone options only with zonemode, and zonemode
 * not with what would send a zone's writes out of order or off its write
 * pointer.
 */
int kb_zbd_parse(struct genl_info *info, struct kb_config *cfg)
{
	static const int only_zbd[] = { KIOBENCH_A_MAX_OPEN_ZONES,
					KIOBENCH_A_JOB_MAX_OPEN_ZONES,
					KIOBENCH_A_IGNORE_ZONE_LIMITS,
					KIOBENCH_A_READ_BEYOND_WP,
					KIOBENCH_A_ZONE_RESET_THRESHOLD,
					KIOBENCH_A_ZONE_RESET_FREQUENCY };
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	struct nlattr *zm = tb[KIOBENCH_A_ZONEMODE];
	unsigned int i;

	/* zone ops exist only under zbd: they imply it */
	if (cfg->zone_op && !zm)
		cfg->zonemode = KIOBENCH_ZONEMODE_ZBD;
	for (i = 0; i < ARRAY_SIZE(only_zbd); i++) {
		if (tb[only_zbd[i]] && !cfg->zonemode) {
			NL_SET_ERR_MSG_ATTR(extack, tb[only_zbd[i]],
					    "max-open-zones/job-max-open-zones/ignore-zone-limits/read-beyond-wp/zone-reset-*: only with zonemode zbd");
			return -EINVAL;
		}
	}
	if (cfg->zone_op && zm && !cfg->zonemode) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_ZONE_OP],
				    "zone-op: only with zonemode zbd (which it implies)");
		return -EINVAL;
	}
	if (cfg->zone_append && !cfg->zonemode) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_ZONE_APPEND],
				    "zone-append: only with zonemode zbd");
		return -EINVAL;
	}
	if (!cfg->zonemode)
		return 0;
	if (cfg->completion == KIOBENCH_COMPLETION_POLL) {
		NL_SET_ERR_MSG_ATTR(extack, zm,
				    "zonemode: not with completion poll: a write refused a tag is sent again after later writes of its zone");
		return -EOPNOTSUPP;
	}
	if (cfg->verify) {
		NL_SET_ERR_MSG_ATTR(extack, zm,
				    "zonemode: not with verify yet");
		return -EOPNOTSUPP;
	}
	if (cfg->trim_mode == KIOBENCH_TRIM_TRIMWRITE) {
		NL_SET_ERR_MSG_ATTR(extack, zm,
				    "zonemode: not with trimwrite yet");
		return -EOPNOTSUPP;
	}
	if (cfg->write_zeroes) {
		NL_SET_ERR_MSG_ATTR(extack, zm,
				    "zonemode: not with write-zeroes yet");
		return -EOPNOTSUPP;
	}
	if (cfg->atomic) {
		NL_SET_ERR_MSG_ATTR(extack, zm,
				    "zonemode: not with atomic yet");
		return -EOPNOTSUPP;
	}
	if (cfg->continue_on_error) {
		NL_SET_ERR_MSG_ATTR(extack, zm,
				    "zonemode: not with continue-on-error: a failed write leaves its zone's write pointer unknown");
		return -EOPNOTSUPP;
	}
	if (tb[KIOBENCH_A_ZONE_RESET_THRESHOLD] && !cfg->zone_reset_frequency) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_ZONE_RESET_THRESHOLD],
				    "zone-reset-threshold: needs zone-reset-frequency");
		return -EINVAL;
	}
	if (cfg->zone_op && kb_zbd_parse_op(info, cfg))
		return -EINVAL;
	if (cfg->max_open_zones && cfg->job_max_open_zones > cfg->max_open_zones) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_JOB_MAX_OPEN_ZONES],
				    "job-max-open-zones: more than max-open-zones");
		return -EINVAL;
	}
	return 0;
}

void kb_zbd_free(struct kb_dev *dev)
{
	if (dev->zbd)
		kvfree(dev->zbd->open_idx);
	kvfree(dev->zbd);
	dev->zbd = NULL;
}

/* What a zone report fills: the zones of worker j of nw (nw 0: all). */
struct kb_zbd_rep {
	struct kb_zbd_dev *zd;
	u32 j, nw;
	u32 conv, bad;		/* conventional, read-only or offline zones */
	u64 first_conv, first_bad;	/* the first of each, on the device */
	u64 *dev_wp;		/* debugfs: the device's pointers, bytes */
	u8 *dev_cond;
};

/* The worker's zone nearest @i at or after it, and the next of its zones. */
static u32 kb_zbd_own(const struct kb_zbd_w *zw, u32 i)
{
	u32 k = i - i % zw->nw + zw->j;

	return k < zw->zd->nr ? k : zw->j;
}

static u32 kb_zbd_next(const struct kb_zbd_w *zw, u32 i)
{
	return i + zw->nw < zw->zd->nr ? i + zw->nw : zw->j;
}

static u32 kb_zbd_owned(const struct kb_zbd_w *zw)
{
	return (zw->zd->nr - zw->j + zw->nw - 1) / zw->nw;
}

/* Zone @i joins the worker's open zones, and leaves them (full, or reset). */
static void kb_zbd_open(struct kb_zbd_w *zw, u32 i)
{
	zw->zd->z[i].open = true;
	if (zw->max_open)
		zw->open_idx[zw->open] = i;
	zw->open++;
}

static void kb_zbd_close(struct kb_zbd_w *zw, u32 i)
{
	u32 k;

	zw->zd->z[i].open = false;
	zw->open--;
	if (!zw->max_open)
		return;
	for (k = 0; k < zw->open; k++) {
		if (zw->open_idx[k] == i) {
			zw->open_idx[k] = zw->open_idx[zw->open];
			break;
		}
	}
}

#ifdef CONFIG_BLK_DEV_ZONED

static bool kb_zbd_bad(const struct blk_zone *bz)
{
	return bz->cond == BLK_ZONE_COND_READONLY ||
	       bz->cond == BLK_ZONE_COND_OFFLINE;
}

static int kb_zbd_report_cb(struct blk_zone *bz, unsigned int idx, void *data)
{
	struct kb_zbd_rep *r = data;
	struct kb_zbd_dev *zd = r->zd;
	u64 cap = (bz->capacity ?: bz->len) << SECTOR_SHIFT;
	u64 wp = bz->cond == BLK_ZONE_COND_FULL ? cap :
		 (bz->wp - bz->start) << SECTOR_SHIFT;
	struct kb_zbd_zone *z;

	if (idx >= zd->nr)
		return 0;
	if (bz->type == BLK_ZONE_TYPE_CONVENTIONAL && !r->conv++)
		r->first_conv = zd->first + idx;
	if (kb_zbd_bad(bz) && !r->bad++)
		r->first_bad = zd->first + idx;
	if (r->dev_wp) {
		r->dev_wp[idx] = min(wp, cap);
		r->dev_cond[idx] = bz->cond;
		return 0;
	}
	if (r->nw && idx % r->nw != r->j)
		return 0;
	z = &zd->z[idx];
	z->cond0 = bz->cond;
	/*
	 * A conventional zone holds data everywhere (reads go anywhere in it)
	 * and has no room: zbd's writes skip it, and never reset it.
	 */
	z->conv = bz->type == BLK_ZONE_TYPE_CONVENTIONAL;
	z->cap = z->conv ? 0 : cap;
	z->wp = z->conv ? bz->len << SECTOR_SHIFT : min(wp, cap);
	return 0;
}

static int kb_zbd_report(struct block_device *bdev, struct kb_zbd_rep *r)
{
	struct kb_zbd_dev *zd = r->zd;
	int n;

	n = blkdev_report_zones(bdev, (zd->first << zd->shift) >> SECTOR_SHIFT,
				zd->nr, kb_zbd_report_cb, r);
	if (n < 0)
		return n;
	return n < zd->nr ? -EIO : 0;
}

/* The open zones each worker may have: the job's or the device's limit. */
static int kb_zbd_limits(const struct kb_config *cfg, struct kb_zbd_dev *zd,
			 const char *path, struct netlink_ext_ack *extack)
{
	u32 dlim = min_not_zero(zd->dev_max_open, zd->dev_max_active);
	u32 lim = cfg->max_open_zones;

	if (!cfg->ignore_zone_limits && dlim) {
		if (lim > dlim) {
			KB_ERR_FMT(extack, NULL,
				   "max-open-zones: more than a device allows",
				   "max-open-zones: %u is over %s's limit (max_open %u, max_active %u)",
				   lim, path, zd->dev_max_open, zd->dev_max_active);
			return -EINVAL;
		}
		lim = lim ?: dlim;
	}
	zd->max_open = lim / cfg->numjobs;
	if (lim && !zd->max_open) {
		KB_ERR_FMT(extack, NULL,
			   "max-open-zones: fewer open zones than workers of a device",
			   "max-open-zones: %u open zones for %u workers of %s",
			   lim, cfg->numjobs, path);
		return -EINVAL;
	}
	if (cfg->job_max_open_zones) {
		if (zd->max_open && cfg->job_max_open_zones > zd->max_open) {
			KB_ERR_FMT(extack, NULL,
				   "job-max-open-zones: more than a worker's share of a device's open zones",
				   "job-max-open-zones: %u is over a worker's share, %u, on %s",
				   cfg->job_max_open_zones, zd->max_open, path);
			return -EINVAL;
		}
		zd->max_open = cfg->job_max_open_zones;
	}
	/*
	 * A worker never has more zones open than it has: a larger limit
	 * never binds, and its open_idx entries would go unused.
	 */
	zd->max_open = min(zd->max_open, DIV_ROUND_UP(zd->nr, cfg->numjobs));
	return 0;
}

/*
 * Whether a worker has fewer than iodepth sequential zones in its share:
 * each write in flight holds one, and a reset needs one with none.
 */
static bool kb_zbd_seq_short(const struct kb_zbd_dev *zd,
			     const struct kb_config *cfg)
{
	u32 j, i, n;

	for (j = 0; j < cfg->numjobs; j++) {
		for (n = 0, i = j; i < zd->nr; i += cfg->numjobs)
			n += !zd->z[i].conv;
		if (n < cfg->iodepth)
			return true;
	}
	return false;
}

/* zone-op against a device: reset-all's whole device, open's limits. */
static int kb_zbd_check_op(const struct kb_config *cfg, struct kb_dev *dev,
			   const struct kb_zbd_dev *zd, const char *path,
			   struct netlink_ext_ack *extack)
{
	struct block_device *bdev = dev->bdev.bdev;
	u32 dlim = min_not_zero(zd->dev_max_open, zd->dev_max_active);

	if (cfg->zone_op == KIOBENCH_ZONE_OP_RESET_ALL) {
		if (dev->span_start || dev->span_len != bdev_nr_bytes(bdev)) {
			KB_ERR_FMT(extack, NULL,
				   "zone-op: reset-all resets every zone of a device; a span is not the whole device",
				   "zone-op reset-all: %s's span %llu+%llu is not the whole device",
				   path, dev->span_start, dev->span_len);
			return -EINVAL;
		}
		if (!kb_zone_resetall(bdev)) {
			KB_ERR_FMT(extack, NULL,
				   "zone-op: reset-all: a device does not reset all its zones at once (QUEUE_FLAG_ZONE_RESETALL, before 6.10)",
				   "zone-op reset-all: %s has no QUEUE_FLAG_ZONE_RESETALL",
				   path);
			return -EOPNOTSUPP;
		}
	}
	if (cfg->zone_op == KIOBENCH_ZONE_OP_OPEN && !cfg->ignore_zone_limits &&
	    dlim && zd->nr > dlim) {
		KB_ERR_FMT(extack, NULL,
			   "zone-op: open: a span has more zones than a device keeps open (max_open_zones, max_active_zones)",
			   "zone-op open: %u zones of %s over max_open %u/max_active %u",
			   zd->nr, path, zd->dev_max_open, zd->dev_max_active);
		return -EINVAL;
	}
	return 0;
}

/*
 * The largest zone append the block layer takes whole: it never splits
 * one (a split is a WARN, and fails the bio), so a bio must fit the
 * queue's segment limits as well as max_zone_append_bytes.  The slot's
 * buffer is order-0 pages, a bvec each at offset 0, so a bio of n pages
 * needs at most n segments, none longer than a page, and has no gap for
 * a virt boundary up to a page; a device with smaller segments or
 * boundaries takes no append of ours.
 */
static u64 kb_zbd_append_max(struct block_device *bdev)
{
	struct request_queue *q = bdev_get_queue(bdev);

	if (queue_max_segment_size(q) < PAGE_SIZE ||
	    queue_virt_boundary(q) >= PAGE_SIZE ||
	    queue_segment_boundary(q) < PAGE_SIZE - 1)
		return 0;
	return min((u64)bdev_max_zone_append_sectors(bdev) << SECTOR_SHIFT,
		   (u64)queue_max_segments(q) << PAGE_SHIFT);
}

/* The span against the zones of @dev, before any I/O. */
static int kb_zbd_check_span(struct kb_job *job, struct kb_dev *dev,
			     struct kb_zbd_dev *zd, const char *path,
			     struct netlink_ext_ack *extack)
{
	const struct kb_config *cfg = &job->cfg;
	struct block_device *bdev = dev->bdev.bdev;
	bool writes = cfg->rwmix_read < 100;
	struct kb_zbd_rep rep = { .zd = zd };
	int err;

	if (writes && div_u64(zd->nr, cfg->numjobs) < cfg->iodepth) {
		KB_ERR_FMT(extack, NULL,
			   "iodepth: zonemode zbd needs iodepth zones per worker",
			   "iodepth: zbd needs %u zones a worker; %s's span has %u for %u",
			   cfg->iodepth, path, zd->nr, cfg->numjobs);
		return -EINVAL;
	}
	if (zd->nr < cfg->numjobs) {
		KB_ERR_FMT(extack, NULL,
			   "numjobs: fewer zones in a span than workers",
			   "numjobs: %u workers for the %u zones of %s's span",
			   cfg->numjobs, zd->nr, path);
		return -EINVAL;
	}
	if (writes && cfg->zone_append &&
	    kb_zbd_append_max(bdev) < cfg->max_bs) {
		KB_ERR_FMT(extack, NULL,
			   "zone-append: bs over what a device takes in one append (max_zone_append_bytes; max_segments pages; virt_boundary_mask and max_segment_size to a page)",
			   "zone-append: bs %u over %llu, what %s appends whole",
			   cfg->max_bs, kb_zbd_append_max(bdev), path);
		return -EOPNOTSUPP;
	}
	/* appends need no order: the device places them; nor zone ops */
	if (writes && !cfg->zone_append && cfg->trim_mode != KIOBENCH_TRIM_TRIM &&
	    cfg->iodepth > 1 &&
	    !kb_zone_writes_ordered(bdev)) {
		KB_ERR_FMT(extack, NULL,
			   "iodepth: writes to a zone at depth > 1 need zone write locking (mq-deadline) before 6.10; a device's scheduler is none: set iodepth 1 or mq-deadline",
			   "iodepth: %u needs mq-deadline (zone write locking); %s has none",
			   cfg->iodepth, path);
		return -EOPNOTSUPP;
	}
	err = kb_zbd_report(bdev, &rep);
	if (err) {
		KB_ERR_FMT(extack, NULL, "zonemode: a zone report failed",
			   "zonemode: the zone report of %s failed (%d)", path,
			   err);
		return err;
	}
	if (rep.conv && cfg->trim_mode) {
		KB_ERR_FMT(extack, NULL,
			   "zonemode: trims and zone ops reset zones; a span holds conventional zones",
			   "zonemode: zone %llu of %s is conventional: it has no reset",
			   rep.first_conv, path);
		return -EOPNOTSUPP;
	}
	if (rep.conv && writes && kb_zbd_seq_short(zd, cfg)) {
		KB_ERR_FMT(extack, NULL,
			   "iodepth: zonemode zbd needs iodepth sequential zones per worker (conventional ones are skipped)",
			   "iodepth: zbd needs %u sequential zones a worker; %s's span has %u conventional",
			   cfg->iodepth, path, rep.conv);
		return -EINVAL;
	}
	if (rep.bad) {
		KB_ERR_FMT(extack, NULL,
			   "zonemode: a span holds read-only or offline zones",
			   "zonemode: zone %llu of %s is read-only or offline",
			   rep.first_bad, path);
		return -EIO;
	}
	return kb_zbd_limits(cfg, zd, path, extack) ?:
	       kb_zbd_check_op(cfg, dev, zd, path, extack);
}

/*
 * zonemode zbd: @dev must be zoned, the span whole zones; its zones are
 * allocated here, their pointers read at each worker's start.
 */
int kb_zbd_check(struct kb_job *job, struct kb_dev *dev, const char *path,
		 struct netlink_ext_ack *extack)
{
	struct block_device *bdev = dev->bdev.bdev;
	struct kb_zbd_dev *zd;
	u64 zb, nr;
	int err;

	if (!job->cfg.zonemode)
		return 0;
	if (!bdev_is_zoned(bdev)) {
		KB_ERR_FMT(extack, NULL, "zonemode: zbd on a device that is not zoned",
			   "zonemode: zbd on %s, which is not zoned", path);
		return -EINVAL;
	}
	zb = (u64)bdev_zone_sectors(bdev) << SECTOR_SHIFT;
	if (!is_power_of_2(zb) || (dev->span_start | dev->span_len) & (zb - 1)) {
		KB_ERR_FMT(extack, NULL,
			   "offset/size: a span does not start and end on zone boundaries",
			   "offset/size: %s's span cuts zone %llu (zones of %llu bytes)",
			   path, (dev->span_start & (zb - 1) ? dev->span_start :
				  dev->span_start + dev->span_len) / zb, zb);
		return -EINVAL;
	}
	nr = div64_u64(dev->span_len, zb);
	if (nr > KB_MAX_SPAN_ZONES) {
		KB_ERR_FMT(extack, NULL,
			   "offset/size: zonemode zbd takes a span of at most 16777216 zones",
			   "offset/size: %s's span has %llu zones, over %u",
			   path, nr, KB_MAX_SPAN_ZONES);
		return -EINVAL;
	}
	if (zb > U32_MAX && (job->cfg.trim_mode || job->cfg.zone_op)) {
		KB_ERR_FMT(extack, NULL,
			   "zonemode: trims and zone-op on zones of 4 GiB or more: an op counts its bytes in 32 bits",
			   "zonemode: zone ops on %s's zones of %llu bytes, over 4 GiB",
			   path, zb);
		return -EOPNOTSUPP;
	}
	err = kb_job_charge(job, struct_size(zd, z, nr), extack);
	if (err)
		return err;
	zd = kvzalloc(struct_size(zd, z, nr), GFP_KERNEL);
	if (!zd)
		return -ENOMEM;
	zd->zone_bytes = zb;
	zd->shift = ilog2(zb);
	zd->first = dev->span_start / zb;
	zd->nr = nr;
	zd->dev_max_open = bdev_max_open_zones(bdev);
	zd->dev_max_active = bdev_max_active_zones(bdev);
	dev->zbd = zd;
	err = kb_zbd_check_span(job, dev, zd, path, extack);
	if (!err && zd->max_open)	/* max_open entries a worker */
		err = kb_job_charge(job, array3_size(job->cfg.numjobs,
						     zd->max_open,
						     sizeof(*zd->open_idx)),
				    extack);
	if (!err && zd->max_open) {
		/* each worker's open zones, max_open entries a worker */
		zd->open_idx = kvcalloc(size_mul(job->cfg.numjobs, zd->max_open),
					sizeof(*zd->open_idx), GFP_KERNEL);
		if (!zd->open_idx)
			err = -ENOMEM;
	}
	if (err)
		kb_zbd_free(dev);
	return err;
}

/*
 * zone-op: one pass (no size, time or count limit given) is an op on each
 * of the worker's zones, or one reset-all: what the ops cover, not what
 * their bs took (kb_zbd_take()).
 */
static void kb_zbd_op_budget(struct kb_worker *w)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct kb_zbd_w *zw = &w->zbd;
	struct kb_zbd_dev *zd = w->dev->zbd;

	if (cfg->trim_mode != KIOBENCH_TRIM_TRIM || !cfg->zone_op)
		return;
	if (cfg->io_bytes || cfg->runtime_ns || cfg->number_ios)
		return;
	w->bytes_left = cfg->zone_op == KIOBENCH_ZONE_OP_RESET_ALL ?
			w->dev->span_len :
			(u64)DIV_ROUND_UP(zd->nr - zw->j, zw->nw) * zd->zone_bytes;
}

/* The worker's zones, from the device; 0, or the job fails. */
int kb_zbd_begin(struct kb_worker *w)
{
	struct kb_zbd_dev *zd = w->dev->zbd;
	struct kb_zbd_w *zw = &w->zbd;
	struct kb_zbd_rep rep = { .zd = zd };
	u32 i;
	int err;

	if (!zd)
		return 0;
	zw->nw = w->job->cfg.numjobs;
	zw->j = w->index % zw->nw;
	zw->max_open = zd->max_open;
	rep.j = zw->j;
	rep.nw = zw->nw;
	err = kb_zbd_report(w->dev->bdev.bdev, &rep);
	if (err) {
		cmpxchg(&w->job->error, 0, err);
		WRITE_ONCE(w->job->stop, true);
		return err;
	}
	zw->open_idx = zd->open_idx + zw->j * zd->max_open;
	if (w->job->cfg.zone_reset_frequency) {
		const struct kb_config *cfg = &w->job->cfg;

		zw->gc_every = max(1U, 1000000U / cfg->zone_reset_frequency);
		zw->gc_cnt = zw->gc_every;
		/* the worker's zones: zw->zd is set last */
		zw->gc_bytes = mul_u64_u32_div((u64)DIV_ROUND_UP(zd->nr - zw->j, zw->nw) *
					       zd->zone_bytes,
					       cfg->zone_reset_threshold, 1000000);
	}
	zw->op_next = zw->j;
	kb_zbd_op_budget(w);
	for (i = zw->j; i < zd->nr; i += zw->nw) {
		if (zd->z[i].conv)
			continue;
		zw->start_bytes += zd->z[i].wp;
		/* kb_zbd_open() without zw->zd, which is set last */
		if (zd->z[i].wp && zd->z[i].wp < zd->z[i].cap &&
		    (!zw->max_open || zw->open < zw->max_open)) {
			zd->z[i].open = true;
			if (zw->max_open)
				zw->open_idx[zw->open] = i;
			zw->open++;
		}
	}
	WRITE_ONCE(zw->zd, zd);
	return 0;
}

#else /* !CONFIG_BLK_DEV_ZONED */

int kb_zbd_check(struct kb_job *job, struct kb_dev *dev, const char *path,
		 struct netlink_ext_ack *extack)
{
	if (!job->cfg.zonemode)
		return 0;
	NL_SET_ERR_MSG(extack,
		       "zonemode: this kernel has no zoned block devices (CONFIG_BLK_DEV_ZONED is off)");
	return -EOPNOTSUPP;
}

int kb_zbd_begin(struct kb_worker *w)
{
	return 0;
}

#endif /* CONFIG_BLK_DEV_ZONED */

/*
 * A full zone's reset, from the worker, none of its writes in flight (the
 * slot's own I/O waits for it).  A failure fails the job: the write that
 * follows fails as well.  With zone-op reset (zone_mgmt), timed around
 * blkdev_zone_mgmt(): submission to completion, as the worker waits.
 */
static void kb_zbd_reset_full(struct kb_worker *w, u32 i)
{
	struct kb_zbd_dev *zd = w->zbd.zd;
	struct kb_zbd_zone *z = &zd->z[i];
	u64 start = ktime_get_ns();
	int err = -EOPNOTSUPP;

#ifdef CONFIG_BLK_DEV_ZONED
	err = kb_zone_mgmt(w->dev->bdev.bdev, REQ_OP_ZONE_RESET,
			   ((zd->first + i) << zd->shift) >> SECTOR_SHIFT,
			   zd->zone_bytes >> SECTOR_SHIFT);
#endif
	/* zone_mgmt: timed, a zone_reset op in the trim direction */
	if (w->job->cfg.zone_op)
		kb_account_op(w, KIOBENCH_DIR_TRIM, zd->zone_bytes, start,
			      ktime_get_ns(), err);
	if (err) {
		cmpxchg(&w->job->error, 0, err);
		WRITE_ONCE(w->job->stop, true);
	}
	w->zbd.resets++;
	w->zbd.reset_bytes += z->wp;
	WRITE_ONCE(z->wp, 0);
	z->append_end = 0;
}

/*
 * The zone of a write, as fio picks it: its offset's zone if open.  Without
 * a limit of open zones, that zone, reset first when full (fio's
 * zbd_open_zone() takes any zone then, and a full one is reset before the
 * write), unless a write of it is in flight (fio waits for those; here the
 * next zone with room takes the write).  With fewer than max_open open,
 * the first of the worker's zones from there on with room, opened; else
 * one of the open zones at random.  When no zone has room (none is open),
 * the first full one with none of its writes in flight, reset.
 */
static u32 kb_zbd_write_zone(struct kb_worker *w, u32 start)
{
	struct kb_zbd_w *zw = &w->zbd;
	struct kb_zbd_dev *zd = zw->zd;
	struct kb_zbd_zone *z = &zd->z[start];
	u32 n, i, owned = kb_zbd_owned(zw);

	if (z->open)
		return start;
	if (!zw->max_open && !z->conv && (z->wp < z->cap || !z->inflight)) {
		if (z->wp >= z->cap)
			kb_zbd_reset_full(w, start);
		kb_zbd_open(zw, start);
		return start;
	}
	if (zw->max_open && zw->open >= zw->max_open)
		return zw->open_idx[kb_rng_below(&w->rng, zw->open)];
	for (n = 0, i = start; n < owned; n++, i = kb_zbd_next(zw, i)) {
		if (zd->z[i].wp < zd->z[i].cap) {
			if (!zd->z[i].open)
				kb_zbd_open(zw, i);
			return i;
		}
	}
	for (n = 0, i = start; n < owned; n++, i = kb_zbd_next(zw, i)) {
		if (!zd->z[i].inflight && !zd->z[i].conv) {
			kb_zbd_reset_full(w, i);
			kb_zbd_open(zw, i);
			return i;
		}
	}
	return start;	/* cannot be: iodepth zones a worker (the device fails it) */
}

/*
 * fio's zone_reset_frequency: past zone_reset_threshold of data in the
 * worker's zones, every gc_every-th write resets its zone first, when none
 * of the zone's writes is in flight (else the next write tries; fio waits
 * for them).  An empty zone takes the turn and is not reset, as fio's
 * zbd_reset_zone() does nothing for it.
 */
static void kb_zbd_gc(struct kb_worker *w, u32 i)
{
	struct kb_zbd_w *zw = &w->zbd;
	struct kb_zbd_zone *z = &zw->zd->z[i];

	if (zw->start_bytes + zw->written - zw->reset_bytes < zw->gc_bytes)
		return;
	if (zw->gc_cnt > 1) {
		zw->gc_cnt--;
		return;
	}
	if (z->inflight)
		return;
	zw->gc_cnt = zw->gc_every;
	if (!z->wp)
		return;
	kb_zbd_reset_full(w, i);
	zw->gc_resets++;
}

static void kb_zbd_write(struct kb_worker *w, struct kb_slot *slot, u32 i,
			 u64 *off, u32 *len)
{
	struct kb_zbd_w *zw = &w->zbd;
	struct kb_zbd_zone *z;
	u64 room;

	i = kb_zbd_write_zone(w, i);
	if (zw->gc_every)
		kb_zbd_gc(w, i);
	z = &zw->zd->z[i];
	room = z->cap - min(z->wp, z->cap);
	if (*len > room && room) {
		w->bytes_left += *len - room;	/* the rest stays to do */
		*len = room;
	}
	*off = ((u64)i << zw->zd->shift) +
	       (w->job->cfg.zone_append ? 0 : z->wp);
	WRITE_ONCE(z->wp, z->wp + *len);
	if (z->wp >= z->cap && z->open)
		kb_zbd_close(zw, i);
	z->inflight++;
	z->touched = true;
	zw->written += *len;
	slot->zone = i;
}

/* A read below the write pointer of the first of the worker's zones with data. */
static void kb_zbd_read(struct kb_worker *w, u32 i, u64 *off, u32 len)
{
	struct kb_zbd_w *zw = &w->zbd;
	u32 n, owned = kb_zbd_owned(zw);
	struct kb_zbd_zone *z;
	u64 in;

	for (n = 0; n < owned; n++, i = kb_zbd_next(zw, i)) {
		z = &zw->zd->z[i];
		if (z->wp < len)
			continue;
		div64_u64_rem(*off & (zw->zd->zone_bytes - 1), z->wp - len + 1,
			      &in);
		*off = ((u64)i << zw->zd->shift) + round_down(in, w->dev->lbs);
		return;
	}
	zw->beyond++;	/* no data anywhere: the read goes to its offset */
}

/* A zone op's budget: what it covers, of which its bs took @took. */
static void kb_zbd_take(struct kb_worker *w, u64 cover, u32 took)
{
	if (cover > took)
		w->bytes_left -= min(w->bytes_left, cover - took);
}

/* reset-all: every zone of the span, which is the device, empty. */
static void kb_zbd_reset_all(struct kb_worker *w, u64 *off, u32 *len)
{
	struct kb_zbd_w *zw = &w->zbd;
	u32 i;

	for (i = 0; i < zw->zd->nr; i++) {
		struct kb_zbd_zone *z = &zw->zd->z[i];

		zw->reset_bytes += z->wp;
		WRITE_ONCE(z->wp, 0);
		z->append_end = 0;
		z->touched = true;
	}
	WRITE_ONCE(zw->resets, zw->resets + zw->zd->nr);
	kb_zbd_take(w, w->dev->span_len, *len);
	*off = 0;
	*len = 0;	/* the device's zones: no bytes of its own */
}

/*
 * A trim: the reset of its offset's zone (REQ_OP_ZONE_RESET), timed as a
 * trim; with zone-op, that op, on the worker's zones in turn unless random.
 */
static void kb_zbd_trim(struct kb_worker *w, u32 i, u64 *off, u32 *len)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct kb_zbd_w *zw = &w->zbd;
	struct kb_zbd_zone *z;

	if (cfg->zone_op == KIOBENCH_ZONE_OP_RESET_ALL) {
		kb_zbd_reset_all(w, off, len);
		return;
	}
	if (cfg->zone_op && !cfg->random) {
		i = zw->op_next;
		zw->op_next = kb_zbd_next(zw, i);
	}
	z = &zw->zd->z[i];
	switch (cfg->zone_op) {
	case KIOBENCH_ZONE_OP_OPEN:
		WRITE_ONCE(zw->opens, zw->opens + 1);
		break;
	case KIOBENCH_ZONE_OP_CLOSE:
		WRITE_ONCE(zw->closes, zw->closes + 1);
		break;
	case KIOBENCH_ZONE_OP_FINISH:
		if (z->open)
			kb_zbd_close(zw, i);
		WRITE_ONCE(zw->finishes, zw->finishes + 1);
		WRITE_ONCE(z->wp, z->cap);
		break;
	default:
		if (z->open)
			kb_zbd_close(zw, i);
		zw->resets++;
		zw->reset_bytes += z->wp;
		WRITE_ONCE(z->wp, 0);
		z->append_end = 0;
	}
	z->touched = true;
	if (cfg->zone_op)
		kb_zbd_take(w, zw->zd->zone_bytes, *len);
	*off = (u64)i << zw->zd->shift;
	*len = zw->zd->zone_bytes;
}

/* The op of a zbd trim: a zone's reset, or zone-op's. */
blk_opf_t kb_zbd_opf(const struct kb_config *cfg)
{
	switch (cfg->zone_op) {
	case KIOBENCH_ZONE_OP_OPEN:
		return REQ_OP_ZONE_OPEN;
	case KIOBENCH_ZONE_OP_CLOSE:
		return REQ_OP_ZONE_CLOSE;
	case KIOBENCH_ZONE_OP_FINISH:
		return REQ_OP_ZONE_FINISH;
	case KIOBENCH_ZONE_OP_RESET_ALL:
		return REQ_OP_ZONE_RESET_ALL;
	default:
		return REQ_OP_ZONE_RESET;
	}
}

/* Moves the picked I/O of @dir at @off (in the span) where zbd wants it. */
void kb_zbd_pick(struct kb_worker *w, struct kb_slot *slot, unsigned int dir,
		 u64 *off, u32 *len)
{
	struct kb_zbd_w *zw = &w->zbd;
	u32 i = kb_zbd_own(zw, (u32)(*off >> zw->zd->shift));

	switch (dir) {
	case KIOBENCH_DIR_WRITE:
		kb_zbd_write(w, slot, i, off, len);
		break;
	case KIOBENCH_DIR_READ:
		if (!w->job->cfg.read_beyond_wp)
			kb_zbd_read(w, i, off, *len);
		break;
	case KIOBENCH_DIR_TRIM:
		kb_zbd_trim(w, i, off, len);
		break;
	}
}

/*
 * A zone append reaped: where the device put it, bi_iter.bi_sector as
 * bi_end_io left it, must lie inside the zone's capacity; a sector below
 * an earlier completion's end in the zone is counted as reordered.
 */
static void kb_zbd_append_check(struct kb_zbd_w *zw, struct kb_slot *slot)
{
	struct kb_zbd_dev *zd = zw->zd;
	struct kb_zbd_zone *z = &zd->z[slot->zone];
	u64 at = (u64)slot->bio.bi_iter.bi_sector << SECTOR_SHIFT;
	u64 start = (zd->first + slot->zone) << zd->shift;

	if (at < start || at + slot->len > start + z->cap) {
		WRITE_ONCE(zw->append_out, zw->append_out + 1);
		return;
	}
	WRITE_ONCE(zw->append_in, zw->append_in + 1);
	if (at - start < z->append_end)
		WRITE_ONCE(zw->append_reordered, zw->append_reordered + 1);
	else
		z->append_end = at - start + slot->len;
}

/* A slot reaped: its write no longer holds its zone. */
void kb_zbd_done(struct kb_worker *w, struct kb_slot *slot)
{
	if (slot->dir != KIOBENCH_DIR_WRITE)
		return;
	w->zbd.zd->z[slot->zone].inflight--;
	if (w->job->cfg.zone_append && !slot->bio.bi_status)
		kb_zbd_append_check(&w->zbd, slot);
}

/* ---- debugfs: "zones" -------------------------------------------------- */

static const char *const kb_zone_conds[] = {
	[BLK_ZONE_COND_NOT_WP] = "not_wp",
	[BLK_ZONE_COND_EMPTY] = "empty",
	[BLK_ZONE_COND_IMP_OPEN] = "imp_open",
	[BLK_ZONE_COND_EXP_OPEN] = "exp_open",
	[BLK_ZONE_COND_CLOSED] = "closed",
	[BLK_ZONE_COND_READONLY] = "readonly",
	[BLK_ZONE_COND_FULL] = "full",
	[BLK_ZONE_COND_OFFLINE] = "offline",
};

static const char *kb_zone_cond(u8 c)
{
	return c < ARRAY_SIZE(kb_zone_conds) && kb_zone_conds[c] ?
	       kb_zone_conds[c] : "?";
}

/*
 * One device: its workers' counts, then each zone of the span: the job's
 * write pointer, and the device's with its condition, reported now.
 */
static void kb_zbd_show_dev(struct seq_file *m, struct kb_job *job,
			    unsigned int d)
{
	struct kb_dev *dev = &job->devs[d];
	struct kb_zbd_dev *zd = dev->zbd;
	struct kb_zbd_rep rep = { .zd = zd };
	unsigned int k;
	int err = -EOPNOTSUPP;
	u32 i;

	seq_printf(m, "dev %u zone_bytes %llu first %llu zones %u max_open %u dev_max_open %u dev_max_active %u ordered %d\n",
		   d, zd->zone_bytes, zd->first, zd->nr, zd->max_open,
		   zd->dev_max_open, zd->dev_max_active,
		   kb_zone_writes_ordered(dev->bdev.bdev));
	for (k = d * job->cfg.numjobs; k < (d + 1) * job->cfg.numjobs; k++) {
		const struct kb_zbd_w *zw = &job->workers[k]->zbd;

		seq_printf(m, "worker %u start_bytes %llu written %llu resets %llu reset_bytes %llu open %u reads_beyond_wp %llu append_in %llu append_out %llu append_reordered %llu\n",
			   k, READ_ONCE(zw->start_bytes), READ_ONCE(zw->written),
			   READ_ONCE(zw->resets), READ_ONCE(zw->reset_bytes),
			   READ_ONCE(zw->open), READ_ONCE(zw->beyond),
			   READ_ONCE(zw->append_in), READ_ONCE(zw->append_out),
			   READ_ONCE(zw->append_reordered));
		seq_printf(m, "gc %u resets %llu\n", k,
			   READ_ONCE(zw->gc_resets));
		seq_printf(m, "ops %u opens %llu closes %llu finishes %llu\n", k,
			   READ_ONCE(zw->opens), READ_ONCE(zw->closes),
			   READ_ONCE(zw->finishes));
	}
	rep.dev_wp = kvcalloc(zd->nr, sizeof(*rep.dev_wp), GFP_KERNEL);
	rep.dev_cond = kvcalloc(zd->nr, 1, GFP_KERNEL);
#ifdef CONFIG_BLK_DEV_ZONED
	if (rep.dev_wp && rep.dev_cond)
		err = kb_zbd_report(dev->bdev.bdev, &rep);
#endif
	for (i = 0; i < zd->nr; i++) {
		const struct kb_zbd_zone *z = &zd->z[i];

		seq_printf(m, "zone %llu wp %llu cap %llu touched %d conv %d",
			   zd->first + i, READ_ONCE(z->wp), z->cap, z->touched,
			   z->conv);
		if (!err)
			seq_printf(m, " dev_wp %llu cond %s", rep.dev_wp[i],
				   kb_zone_cond(rep.dev_cond[i]));
		seq_putc(m, '\n');
	}
	kvfree(rep.dev_wp);
	kvfree(rep.dev_cond);
}

static int kb_zones_show(struct seq_file *m, void *v)
{
	struct kb_job *job = m->private;
	unsigned int d;

	for (d = 0; d < job->cfg.nr_devs; d++)
		if (job->devs[d].zbd)
			kb_zbd_show_dev(m, job, d);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kb_zones);

int kb_zbd_debugfs(struct kb_job *job, struct dentry *dir)
{
	struct dentry *f;

	if (!job->cfg.zonemode)
		return 0;
	f = debugfs_create_file("zones", 0400, dir, job, &kb_zones_fops);
	return PTR_ERR_OR_ZERO(f);
}
