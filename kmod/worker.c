// SPDX-License-Identifier: GPL-2.0
/*
 * A worker's loop: it builds and submits its slots' bios, waits for their
 * completions (sleeping, spinning or polling), reaps them and submits
 * again, until the job's end.  The loop allocates nothing and takes no
 * lock shared between workers or CPUs.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/overflow.h>
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

/* ---- submission ---------------------------------------------------------- */

/* The job's end; verify's read-back has its own (verify.c). */
static u64 kb_deadline(const struct kb_worker *w)
{
	return unlikely(w->vdeadline_ns) ? w->vdeadline_ns : w->deadline_ns;
}

/* Neither the job's end nor a stop has come. */
static bool kb_may_go_on(struct kb_worker *w, u64 now)
{
	return now < kb_deadline(w) && !READ_ONCE(w->job->stop) &&
	       !kthread_should_stop();
}

/* Budget left for another I/O: a trimwrite's write is on its trim's. */
static bool kb_budget_left(const struct kb_worker *w)
{
	return (w->ios_left && w->bytes_left) || w->tw_write;
}

static bool kb_may_submit(struct kb_worker *w, u64 now)
{
	return kb_budget_left(w) && kb_may_go_on(w, now);
}

/*
 * fio's percentage_random: whether a random job's I/O of @dir goes on from
 * where the previous one of @dir ended (a random one when that would pass
 * the span's end, as fio).
 */
static bool kb_go_on_sequentially(struct kb_worker *w, unsigned int dir, u32 len)
{
	const struct kb_config *cfg = &w->job->cfg;
	u8 pct = dir == KIOBENCH_DIR_READ ? cfg->percentage_random :
					    cfg->percentage_random_write;

	return pct < 100 && kb_rng_below(&w->rng, 100) >= pct &&
	       w->last_end[dir] + len <= w->dev->span_len;
}

/*
 * fio's rw=randread:N between two drawn offsets: the I/O goes on from where
 * the previous one of @dir ended (rw_sequencer=sequential; a drawn one where
 * that would pass the span's end, as fio) or repeats its offset
 * (identical).  False: the I/O draws its offset.
 */
static bool kb_follow(struct kb_worker *w, unsigned int dir, u32 len, u64 *off)
{
	const struct kb_config *cfg = &w->job->cfg;
	u64 span_len = w->dev->span_len;

	if (kb_seq_nr_draw(&w->opat.seq_left, cfg->rw_seq_nr))
		return false;
	if (cfg->rw_sequencer == KIOBENCH_RW_SEQ_IDENTICAL) {
		*off = min(w->opat.last_start[dir],
			   rounddown(span_len - len, cfg->min_bs));
		return true;
	}
	if (w->last_end[dir] + len > span_len)
		return false;
	*off = w->last_end[dir];
	return true;
}

/*
 * The random map's bitmap (several sizes): its next block, relative to the
 * span or the strided zone, *@len, a transfer of @dir, drawn again while it
 * passes the map's end, then cut to the free blocks from the block on
 * (kb_bmap_take(): fio's order, never below a block).
 */
static u64 kb_bmap_offset(struct kb_worker *w, unsigned int dir, u32 *len)
{
	const struct kb_config *cfg = &w->job->cfg;
	u64 b = kb_bmap_take(&w->bmap, cfg, dir, &w->rng, len);

	return (w->bmap.base + b) * cfg->min_bs;
}

/*
 * The permutation's next block, relative to the span or the strided zone
 * of @end bytes.  A transfer of @dir that would pass @end is drawn again
 * until it fits (fio's lfsr, random-lfsr, with several sizes: nothing is
 * cut, transfers overlap); one that cannot (a direction of one size) is
 * moved back, kb_rmap_offset().
 */
static u64 kb_rmap_fit_offset(struct kb_worker *w, unsigned int dir, u64 end,
			      u32 *len)
{
	const struct kb_config *cfg = &w->job->cfg;
	u64 blk = kb_rmap_next(&w->rmap), off = blk * cfg->min_bs;

	if (unlikely(off + *len > end) && off < end)
		*len = kb_pick_bs_fit(cfg, dir, &w->rng, *len, end - off);
	return kb_rmap_offset(blk, end, *len, cfg->min_bs);
}

/*
 * fio's zonemode=strided: the I/O's offset in its zone (gen.c), relative
 * to the span.  A random job walks a new random map in each zone (the
 * bitmap of the zone's blocks, as the span cuts it).
 */
static u64 kb_strided_offset(struct kb_worker *w, unsigned int dir, u32 *len)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct kb_rmap *m = &w->rmap;
	u64 range, off;

	if (kb_stride_zone(&w->opat, cfg, w->dev->span_len, *len, &range) &&
	    cfg->random && !cfg->norandommap) {
		kb_rmap_init(m, m->perm.n, m->seed + 1, 1, 0);
		if (w->bmap.map)
			kb_bmap_reset(&w->bmap, div_u64(range, cfg->min_bs));
	}
	if (!cfg->random)
		off = kb_stride_seq(&w->opat, range, *len, cfg->rw_seq_add);
	else if (cfg->norandommap)
		off = kb_rand_offset(&w->rng, range, *len,
				     cfg->blockalign ?: cfg->min_bs);
	else if (w->bmap.map)
		off = kb_bmap_offset(w, dir, len);
	else
		off = kb_rmap_fit_offset(w, dir, range, len);
	return w->opat.zbase + off;
}

/*
 * fio's get_next_seq_offset() and get_next_offset() for the I/O after this
 * one, in a pass that ends at the span's end (w->seq_once): past the end
 * of the device it starts over (a cursor at or past fio's real_file_size,
 * which fio compares with an offset relative to the span); else, unless
 * the smallest size still fits in the span, the pass, and the worker's
 * budget, end here, as fio's file is done there.
 */
static void kb_seq_end(struct kb_worker *w)
{
	const struct kb_dev *dev = w->dev;

	if (w->seq_next >= dev->dev_bytes ||
	    (w->seq_next <= dev->span_len &&
	     w->job->cfg.min_bs <= dev->span_len - w->seq_next))
		return;
	w->ios_left = 0;
	w->bytes_left = 0;
}

/*
 * A drawn offset of @dir, relative to the span: the job's distribution.
 * The random map may draw *@len again, to fit before its end (never
 * larger), and its bitmap cut it.
 */
static u64 kb_draw_offset(struct kb_worker *w, unsigned int dir, u32 *len_p)
{
	u32 len = *len_p;
	const struct kb_config *cfg = &w->job->cfg;
	struct kb_dev *dev = w->dev;
	u64 off;

	if (cfg->random && kb_go_on_sequentially(w, dir, len))
		return w->last_end[dir];
	if (cfg->cdf)
		return min(kb_perm_at(&w->scatter,
				      kb_cdf_rank(cfg->cdf, cfg->nr_cdf,
						  kb_rng_next(&w->rng) >> 32)) *
			   cfg->min_bs, rounddown(dev->span_len - len, cfg->min_bs));
	if (cfg->zones && cfg->zones->nr[dir])
		return kb_zone_offset(cfg->zones, dir, &w->rng, dev->span_len,
				      len, cfg->blockalign ?: cfg->min_bs);
	if (cfg->random && cfg->norandommap)
		return kb_rand_offset(&w->rng, dev->span_len, len,
				      cfg->blockalign ?: cfg->min_bs);
	if (cfg->random && w->bmap.map)
		return kb_bmap_offset(w, dir, len_p);
	if (cfg->random)
		return kb_rmap_fit_offset(w, dir, dev->span_len, len_p);
	/* fio's rw=write:N: N bytes skipped after each I/O */
	off = kb_seq_offset(&w->seq_next, dev->span_len, len);
	/* past the span, saturated: kb_seq_offset() starts over */
	if (check_add_overflow(w->seq_next, cfg->rw_seq_add, &w->seq_next))
		w->seq_next = U64_MAX;
	if (w->seq_once)
		kb_seq_end(w);
	return off;
}

/*
 * Whether the I/O carries its direction's cmdprio priority: the
 * cmdprio_percentage share, or cmdprio_bssplit's share of its size (none
 * for a size the table does not name), drawn per I/O as fio does.
 */
static bool kb_cmdprio_draw(struct kb_worker *w, unsigned int dir, u32 len)
{
	const struct kb_config *cfg = &w->job->cfg;
	u8 pct = cfg->cmdprio_pct[dir];
	unsigned int i;

	for (i = 0; i < cfg->nr_cmdprio_bs[dir]; i++)
		if (cfg->cmdprio_bs[dir][i].size == len)
			pct = cfg->cmdprio_bs[dir][i].pct;
	return pct && kb_rng_below(&w->rng, 100) < pct;
}

/* A flush: an empty write with REQ_PREFLUSH (kb_issue()), no budget. */
static void kb_pick_sync(struct kb_slot *slot)
{
	slot->off = 0;
	slot->len = 0;
	slot->dir = KIOBENCH_DIR_SYNC;
	slot->cmdprio = false;
	slot->submit_ns = 0;
}

/*
 * The direction of the next I/O: with rate-iops-write the arrival's, as
 * fio issues the direction whose schedule is due; else rwmix-read's draw
 * between reads and writes, a write of the job's trim-mode being a trim (trimwrite: every
 * other one, the write after it taking its blocks, kb_pick_io()).
 */
static unsigned int kb_pick_dir(struct kb_worker *w)
{
	const struct kb_config *cfg = &w->job->cfg;

	if (cfg->rate_iops_write)	/* the arrival's own direction */
		return w->pick_dir;
	if (cfg->rwmix_read == 100 ||
	    (cfg->rwmix_read && kb_rng_below(&w->rng, 100) < cfg->rwmix_read))
		return KIOBENCH_DIR_READ;
	if (cfg->trim_mode == KIOBENCH_TRIM_TRIM ||
	    (cfg->trim_mode == KIOBENCH_TRIM_TRIMWRITE && !w->tw_write))
		return KIOBENCH_DIR_TRIM;
	return KIOBENCH_DIR_WRITE;
}

/*
 * fio's fsync=N: after every N writes the next I/O is a flush, queued at
 * the worker's depth as any other (fio's io_u of ddir sync).
 */
static void kb_count_write(struct kb_worker *w)
{
	u32 n = w->job->cfg.fsync;

	if (n && ++w->since_sync >= n) {
		w->since_sync = 0;
		w->sync_due = true;
	}
}

/* An I/O of @dir, @len bytes at @off (relative to the span) in the slot. */
static void kb_pick_set(struct kb_worker *w, struct kb_slot *slot,
			unsigned int dir, u64 off, u32 len)
{
	w->last_end[dir] = off + len;
	w->opat.last_start[dir] = off;
	slot->off = off + w->dev->span_start;
	slot->len = len;
	slot->dir = dir;
	slot->submit_ns = 0;	/* not tried yet */
}

/* The size drawn, as much of it as the byte budget has, taken from both. */
static u32 kb_take_budget(struct kb_worker *w, u32 len)
{
	if (len > w->bytes_left)
		len = w->bytes_left;	/* budgets are multiples of the LBS */
	w->bytes_left -= len;
	w->ios_left--;
	return len;
}

/*
 * Whether each I/O of the worker's pass is a read of the job's one size at
 * the random map's next block, with the job's own priority: rw=randread
 * with nothing that changes a read's size, offset or flags.  Every option
 * that kb_pick_io() looks at for a read is here; kb_pick_plain_read() then
 * does what kb_pick_io() would, without asking each I/O about them all
 * (measured: 2-3 % of the IOPS of 4 KiB random reads at QD 32 and 128).
 */
static bool kb_plain_read(const struct kb_worker *w)
{
	const struct kb_config *cfg = &w->job->cfg;
	const unsigned int dir = KIOBENCH_DIR_READ;

	return cfg->rwmix_read == 100 && !cfg->trim_mode && cfg->random &&
	       !cfg->norandommap && cfg->percentage_random >= 100 &&
	       !cfg->zonesize && cfg->rw_seq_nr <= 1 && !cfg->cdf &&
	       !(cfg->zones && cfg->zones->nr[dir]) && cfg->bsd[dir].nr == 1 &&
	       !cfg->cmdprio_pct[dir] && !cfg->nr_cmdprio_bs[dir] &&
	       !w->job->replay && !w->vw && !w->zbd.zd && !w->bmap.map;
}

static void kb_pick_plain_read(struct kb_worker *w, struct kb_slot *slot)
{
	const struct kb_config *cfg = &w->job->cfg;
	u32 len = kb_take_budget(w, kb_pick_bs(cfg, KIOBENCH_DIR_READ, &w->rng));
	u64 off = kb_rmap_offset(kb_rmap_next(&w->rmap), w->dev->span_len, len,
				 cfg->min_bs);

	kb_pick_set(w, slot, KIOBENCH_DIR_READ, off, len);
	slot->barrier = false;
	slot->cmdprio = false;
}

/*
 * Picks the slot's next I/O and takes it from the worker's budgets; false:
 * none, the budget's last pick being a failed write that verify's replay
 * skips (kb_verify_pick()).
 */
static bool kb_pick_io(struct kb_worker *w, struct kb_slot *slot)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct kb_dev *dev = w->dev;
	unsigned int dir;
	u32 len, drawn;
	u64 off;

	slot->vcheck = false;
	if (unlikely(w->sync_due)) {
		w->sync_due = false;
		kb_pick_sync(slot);
		return true;
	}
	if (unlikely(w->vtrimming)) {
		kb_verify_pick_trim(w, slot);	/* trim_backlog's pass */
		return true;
	}
	if (unlikely(w->vsorted)) {
		kb_verify_pick_sorted(w, slot);	/* verify-sorted's read-back */
		return true;
	}
	if (likely(w->plain_read)) {
		kb_pick_plain_read(w, slot);
		return true;
	}
	if (unlikely(w->job->replay)) {
		kb_replay_pick(w, slot);	/* read_iolog: the log's next */
		return true;
	}
again:
	dir = kb_pick_dir(w);
	if (unlikely(w->tw_write) && dir == KIOBENCH_DIR_WRITE) {
		/* trimwrite: the trimmed blocks, budgets taken by the trim */
		w->tw_write = false;
		len = w->tw_len;
		off = w->tw_off;
		goto picked;
	}
	len = kb_take_budget(w, kb_pick_bs(cfg, dir, &w->rng));
	drawn = len;
	if (unlikely(cfg->zonesize))
		off = kb_strided_offset(w, dir, &len);
	else if (!(cfg->rw_seq_nr > 1 && kb_follow(w, dir, len, &off)))
		off = kb_draw_offset(w, dir, &len);
	/* what the map's size drawn again or its bitmap's cut left, back */
	w->bytes_left += drawn - len;
	if (cfg->trim_mode == KIOBENCH_TRIM_TRIMWRITE) {
		w->tw_write = true;
		w->tw_off = off;
		w->tw_len = len;
	}
	if (unlikely(w->zbd.zd))	/* zonemode zbd: at the write pointers */
		kb_zbd_pick(w, slot, dir, &off, &len);
picked:
	if (dir == KIOBENCH_DIR_WRITE) {
		kb_count_write(w);
		if (unlikely(kb_data_per_write(cfg)))
			kb_data_write(w, slot, off + dev->span_start, len);
	}
	kb_pick_set(w, slot, dir, off, len);
	slot->barrier = dir == KIOBENCH_DIR_WRITE && kb_barrier_due(w);
	slot->cmdprio = kb_cmdprio_draw(w, dir, len);
	if (unlikely(w->vw) && !kb_verify_pick(w, slot)) {
		/* not read back: a mix's read, or a write that failed */
		if (!kb_budget_left(w))
			return false;
		goto again;
	}
	return true;
}

/*
 * The op and flags of a bio of @dir.  Writes carry the flags of the
 * kernel's own O_DIRECT writes (dio_bio_write_op() in block/fops.c,
 * iomap): writeback throttling passes REQ_SYNC | REQ_IDLE writes untouched
 * (wbt_should_throttle()), and REQ_SYNC makes them synchronous: issued
 * directly to a busy multi-queue device (blk_mq_submit_bio()), and not
 * held to the smaller depth kyber and bfq allow asynchronous requests.
 * Without them a write would be served, and timed, as buffered writeback.
 * Trims, write zeroes and flushes carry no data: REQ_OP_DISCARD and
 * REQ_OP_WRITE_ZEROES as blkdev_issue_discard() and
 * blkdev_issue_zeroout() send them, a flush as blkdev_issue_flush() (an
 * empty REQ_OP_WRITE with REQ_PREFLUSH).  REQ_FUA goes on REQ_OP_WRITE
 * only: submit_bio_noacct() fails any other op with it.
 */
VISIBLE_IF_KUNIT blk_opf_t kb_opf(const struct kb_config *cfg, unsigned int dir)
{
	switch (dir) {
	case KIOBENCH_DIR_WRITE:
		if (cfg->write_zeroes)
			return REQ_OP_WRITE_ZEROES |
			       (cfg->zeroes_unmap ? 0 : REQ_NOUNMAP);
		if (cfg->zone_append)	/* at its zone's start (zone.c) */
			return REQ_OP_ZONE_APPEND | REQ_SYNC | REQ_IDLE;
		return REQ_OP_WRITE | REQ_SYNC | REQ_IDLE |
		       (cfg->writefua ? REQ_FUA : 0) |
		       (cfg->atomic ? KB_REQ_ATOMIC : 0);
	case KIOBENCH_DIR_TRIM:	/* zonemode zbd: a zone's reset, or zone-op */
		return cfg->zonemode ? kb_zbd_opf(cfg) | REQ_SYNC :
				       REQ_OP_DISCARD;
	case KIOBENCH_DIR_SYNC:
		return REQ_OP_WRITE | REQ_PREFLUSH;
	default:
		return REQ_OP_READ;
	}
}
EXPORT_SYMBOL_IF_KUNIT(kb_opf);

/*
 * The operations against what one device can do, before any I/O: a trim
 * or write zeroes the device cannot take would fail (BLK_STS_NOTSUPP) at
 * the first I/O.  What the block layer does instead of a flush or FUA is
 * kept for the report: with no volatile write cache it drops REQ_PREFLUSH
 * and REQ_FUA and completes an empty flush at once; with a cache but no
 * FUA it follows each FUA write with a flush (submit_bio_noacct(),
 * blk-flush.c; the same on every kernel from 6.1).
 */
int kb_check_dev_ops(struct kb_job *job, struct kb_dev *dev, const char *path,
		     struct netlink_ext_ack *extack)
{
	const struct kb_config *cfg = &job->cfg;
	struct block_device *bdev = dev->bdev.bdev;

	if (((cfg->trim_mode && !cfg->zonemode) || cfg->trim_backlog) &&
	    !bdev_max_discard_sectors(bdev)) {
		KB_ERR_FMT(extack, NULL, "trim-mode, trim-backlog: discard_max_bytes is 0",
			   "%s: discard_max_bytes is 0 on %s",
			   cfg->trim_mode ? "trim-mode" : "trim-backlog", path);
		return -EOPNOTSUPP;
	}
	if (cfg->write_zeroes && !bdev_write_zeroes_sectors(bdev)) {
		KB_ERR_FMT(extack, NULL,
			   "write-zeroes: a device cannot write zeroes (write_zeroes_max_bytes 0)",
			   "write-zeroes: write_zeroes_max_bytes is 0 on %s", path);
		return -EOPNOTSUPP;
	}
	if (cfg->atomic) {
		unsigned int min, max;

		kb_atomic_limits(bdev, &min, &max);
		if (cfg->min_bs < min || cfg->min_bs > max) {
			KB_ERR_FMT(extack, NULL,
				   "atomic: bs outside a device's atomic_write_unit_min/max_bytes (0: no atomic writes, or a kernel before 6.11)",
				   "atomic: bs %u not in %u..%u of %s",
				   cfg->min_bs, min, max, path);
			return -EOPNOTSUPP;
		}
	}
	if ((cfg->fsync || cfg->end_fsync || cfg->writefua) &&
	    !bdev_write_cache(bdev))
		job->flush_noop = true;
	if (cfg->writefua && bdev_write_cache(bdev) && !bdev_fua(bdev))
		job->fua_emulated = true;
	return kb_check_submit(job, dev, path, extack);
}

/*
 * Whether a bio of @opf carries the slot's pages: a flush is an empty
 * REQ_OP_WRITE, but is picked with a length of 0.  Only data bios that
 * bypass blk-flush are polled (a discard may be split into several): the
 * others complete by interrupt, which a polling worker sees as it polls.
 */
static bool kb_has_data(blk_opf_t opf)
{
	return (opf & REQ_OP_MASK) == REQ_OP_READ ||
	       (opf & REQ_OP_MASK) == REQ_OP_WRITE ||
	       (opf & REQ_OP_MASK) == REQ_OP_ZONE_APPEND;
}

/* Whether a bio of @opf may be polled: data, and not through blk-flush. */
static bool kb_pollable(blk_opf_t opf)
{
	return kb_has_data(opf) && !(opf & (REQ_PREFLUSH | REQ_FUA));
}

/*
 * The slot's pages as the bio's data.  bio_reset() leaves the bio's table
 * of pages (bi_io_vec) as it was, and the block layer only reads it (a
 * split or a clone walks it with an iterator of its own), so an I/O of the
 * same length as the slot's last one takes the table back as it stands,
 * as bio_reuse() (7.0) does, instead of adding its pages again.
 */
VISIBLE_IF_KUNIT void kb_bio_payload(struct bio *bio, struct kb_slot *slot)
{
	u32 rem, n;
	unsigned int i;

	if (slot->vlen == slot->len) {
		bio->bi_vcnt = DIV_ROUND_UP(slot->len, PAGE_SIZE);
		bio->bi_iter.bi_size = slot->len;
		return;
	}
	for (i = 0, rem = slot->len; rem; i++, rem -= n) {
		n = min_t(u32, rem, PAGE_SIZE);
		__bio_add_page(bio, slot->pages[i], n, 0);
	}
	slot->vlen = slot->len;
}
EXPORT_SYMBOL_IF_KUNIT(kb_bio_payload);

/*
 * Submits the slot's I/O; false if submit_bio() refused it for want of a
 * tag.  A polled bio must not sleep for a tag: only its worker polls, so
 * no tag of this worker's would come back meanwhile, and the bios in flight
 * would time out.  It asks for REQ_NOWAIT, as io_uring does, except when
 * the worker has none in flight: that one may sleep, for a tag that others
 * free (their own polling, or interrupts), and so every worker progresses.
 * A bio the block layer would split is refused with REQ_NOWAIT whatever the
 * tags, and a split bio is not polled: such a bio never asks for it.
 *
 * A refused I/O keeps its first try's time: its latency holds its wait for
 * a tag, as a sleeping worker's does.
 */
static bool kb_issue(struct kb_worker *w, struct kb_slot *slot)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct bio *bio = &slot->bio;
	blk_opf_t opf;
	int pi_err = 0;

	opf = kb_opf(cfg, slot->dir);
	if (unlikely(cfg->submit_opts))
		opf |= kb_submit_opf(w, slot, opf);
	if (cfg->completion == KIOBENCH_COMPLETION_POLL && kb_pollable(opf)) {
		opf |= REQ_POLLED;
		if (w->inflight && slot->len <= w->nowait_max)
			opf |= REQ_NOWAIT;
	}
	if (unlikely(slot->pi))
		kb_pi_detach(bio);	/* bio_reset() would free one of its own */
	kb_bio_reset(bio, w->dev->bdev.bdev, opf, w->blkcg);
	if (unlikely(cfg->write_hint) && kb_has_data(opf))
		kb_bio_set_write_hint(bio, cfg->write_hint);
	if (unlikely(cfg->nr_write_streams) && bio_op(bio) == REQ_OP_WRITE)
		kb_bio_set_write_stream(bio, kb_write_stream(w));
	bio->bi_iter.bi_sector = slot->off >> SECTOR_SHIFT;
	/* 0 (IOPRIO_CLASS_NONE): the block layer gives the worker's own */
	bio->bi_ioprio = slot->cmdprio ? cfg->cmdprio_ioprio[slot->dir] :
					 cfg->ioprio;
	bio->bi_end_io = kb_end_io;
	if (kb_has_data(opf)) {
		kb_bio_payload(bio, slot);
		if (unlikely(slot->pi))
			pi_err = kb_pi_attach(w, slot, bio);
	} else if (!op_is_zone_mgmt(bio_op(bio))) {
		bio->bi_iter.bi_size = slot->len;	/* no pages */
	}
	w->inflight++;
	slot->busy = true;
	slot->refused = false;
	slot->issue_ns = 0;
	slot->drv_ns = 0;
	slot->stage_flags = 0;
	if (!slot->submit_ns)
		slot->submit_ns = ktime_get_ns();
	kb_loc_submit(w->dev, slot, bio);
	if (unlikely(pi_err)) {
		/* as bio_integrity_prep() fails a bio it has no payload for */
		bio->bi_status = BLK_STS_RESOURCE;
		bio_endio(bio);
	} else {
		submit_bio(bio);
	}
	if (unlikely(cfg->submit_opts))
		kb_submit_issued(w);
	/* a refusal ends the bio inside submit_bio(), in this task */
	return !READ_ONCE(slot->refused);
}

/*
 * Holds a slot whose I/O waits for a tag: behind those already waiting, or
 * at their head when it was refused, as it has waited longest.  @done: a
 * completion's slot, to go out again once fio would have reaped it.
 */
static void kb_defer(struct kb_worker *w, struct kb_slot *slot, bool first,
		     bool done)
{
	struct llist_node *n = &slot->node;

	kb_deferred_added(w, done);
	if (first || !w->deferred) {
		n->next = w->deferred;
		if (!w->deferred)
			w->deferred_tail = &n->next;
		w->deferred = n;
	} else {
		n->next = NULL;
		*w->deferred_tail = n;
		w->deferred_tail = &n->next;
	}
}

/*
 * Completions after which a learnt tag_cap is forgotten, and the worker
 * tries past it: another user of the queue may have freed tags meanwhile.
 */
#define KB_TAG_CAP_AGE	256

/*
 * Whether to try a submission that may be refused: not while the worker
 * has as many bios in flight as when the last one was refused.  That also
 * holds off every try after a refusal until a completion frees a tag; and
 * a worker whose depth passes the tags would otherwise have a bio refused
 * at every round of completions, a failed submit_bio() each (measured on
 * 6.1: a third of the IOPS at QD 32 on 31 tags).  With nothing in flight it
 * always tries.
 */
static bool kb_may_try(const struct kb_worker *w)
{
	return !(w->tag_cap && w->inflight >= w->tag_cap);
}

/* A bio was refused a tag: with the others in flight, the queue is full. */
static void kb_refused(struct kb_worker *w)
{
	w->tag_cap = w->inflight - 1;	/* the refused bio still counts */
	w->cap_age = 0;
}

/* Submits the slot's I/O, or queues it behind those waiting for a tag. */
static void kb_queue(struct kb_worker *w, struct kb_slot *slot)
{
	if (w->deferred || !kb_may_try(w) || kb_overlap_held(w, slot))
		kb_defer(w, slot, false, false);
	else if (!kb_issue(w, slot))
		kb_refused(w);
}

static void kb_submit(struct kb_worker *w, struct kb_slot *slot)
{
	if (kb_pick_io(w, slot))
		kb_queue(w, slot);
}

/* ---- workers ------------------------------------------------------------- */

/* latency_target: parked slots back, up to the depth the search set. */
static void kb_latt_fill(struct kb_worker *w, u64 now)
{
	struct kb_latt *lt = w->latt;
	struct kb_slot *slot;

	while (w->idle && w->nr_slots - lt->parked < lt->depth &&
	       kb_may_submit(w, now)) {
		slot = container_of(w->idle, struct kb_slot, node);
		w->idle = w->idle->next;
		lt->parked--;
		kb_submit(w, slot);
	}
}

/*
 * Never-written or deallocated (trimmed, thin) blocks read back as zeroes,
 * and devices often return them without touching the media: such reads
 * are unrealistically fast, and a read benchmark on a fresh device would
 * measure the mapping table, not the media.  The first logical block of
 * each read tells, at little cost; the count goes out with the results.
 */
VISIBLE_IF_KUNIT bool kb_zero_block(struct kb_worker *w,
				    const struct kb_slot *slot)
{
	u32 n, left = min_t(u32, w->dev->lbs, slot->len);
	unsigned int i;

	/* nearly every block read has data in its first bytes */
	if (*(const u64 *)page_address(slot->pages[0]))
		return false;
	/*
	 * A slot's pages are separate order-0 pages, and from 6.15 a logical
	 * block may span several (up to 64 KiB): one page at a time.
	 */
	for (i = 0; left; i++, left -= n) {
		n = min_t(u32, left, PAGE_SIZE);
		if (memchr_inv(page_address(slot->pages[i]), 0, n))
			return false;
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(kb_zero_block);

/*
 * Stops the job at its first failed I/O, unless it goes on from that error
 * (continue_on_error, ignore_error: errors.c).  A device that has been
 * removed fails every I/O at once, so continuing would only spin until the
 * job's limit: that ends the job either way.
 */
static void kb_io_error(struct kb_worker *w, struct kb_slot *slot)
{
	struct kb_job *job = w->job;
	int err = blk_status_to_errno(slot->bio.bi_status);

	if (!disk_live(w->dev->bdev.bdev->bd_disk)) {
		err = -ENODEV;
	} else if (kb_err_go_on(w, slot, err)) {
		kb_verify_write_failed(w, slot);
		return;
	}
	if (!cmpxchg(&job->error, 0, err))
		kb_err_stopped_at(w, slot, err);
	WRITE_ONCE(job->stop, true);
}

/* Whether a completion waits to be reaped: the worker's own, or another's. */
static bool kb_done_pending(struct kb_worker *w)
{
	return w->own_done || !llist_empty(&w->done);
}

/*
 * The completed slots: the worker's own (kb_end_io()), then those that
 * others completed (an interrupt, another worker's poll), taken with an
 * atomic only when there are some.
 */
static struct llist_node *kb_take_done(struct kb_worker *w)
{
	struct llist_node *list = w->own_done, *others = NULL;

	if (!llist_empty(&w->done))
		others = llist_del_all(&w->done);
	if (!list)
		return others;
	*w->own_tail = others;
	w->own_done = NULL;
	return list;
}

/* rate-iops, or a log replayed at its times (read_iolog, replay-timed) */
static bool kb_open_loop(const struct kb_worker *w)
{
	return w->job->cfg.rate_iops || w->job->cfg.replay_timed;
}

/* Open loop: a free slot and the job may go on; else no arrival matters. */
static bool kb_arrival_pending(struct kb_worker *w, u64 now)
{
	return kb_open_loop(w) && w->idle && !w->thinking &&
	       kb_may_submit(w, now);
}

/*
 * rate-iops-write: sched is the earlier of the two directions' schedules
 * (reads first at a tie), sched_dir its direction.
 */
static void kb_sched_merge(struct kb_worker *w)
{
	w->sched_dir = w->dsched[1].next_ns < w->dsched[0].next_ns;
	w->sched = w->dsched[w->sched_dir];
}

/* The next arrival: of the one schedule, or of the due direction's. */
static void kb_sched_next(struct kb_worker *w)
{
	if (!w->job->cfg.rate_iops_write) {
		kb_sched_advance(&w->sched, &w->rng);
		return;
	}
	w->pick_dir = w->sched_dir;
	kb_sched_advance(&w->dsched[w->sched_dir], &w->rng);
	kb_sched_merge(w);
}

/* Submits every arrival that is due, while slots are free. */
static void kb_submit_due(struct kb_worker *w, u64 now)
{
	struct kb_slot *slot;

	while (w->sched.next_ns <= now && kb_arrival_pending(w, now)) {
		slot = container_of(w->idle, struct kb_slot, node);
		w->idle = w->idle->next;
		slot->sched_ns = w->sched.next_ns;
		if (unlikely(w->job->cfg.replay_timed)) {
			kb_submit(w, slot);
			kb_replay_issued(w);
			kb_replay_sched(w);
			continue;
		}
		kb_sched_next(w);
		kb_submit(w, slot);
	}
}

/* Open loop: until the next arrival or the job's end, whichever is first. */
static void kb_sleep_until_arrival(struct kb_worker *w)
{
	ktime_t until = ns_to_ktime(min(w->sched.next_ns, kb_deadline(w)));

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
		if (kb_done_pending(w))
			break;
		/* the clock only when an arrival may be due: it can be slow */
		if (kb_open_loop(w) && kb_arrival_pending(w, ktime_get_ns())) {
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
 * A busy wait's turn: whether an arrival of the open loop is due, at @now,
 * the clock read only when one may be (it can be slow; 0 otherwise).
 */
static bool kb_arrival_due(struct kb_worker *w, u64 *now)
{
	*now = kb_open_loop(w) ? ktime_get_ns() : 0;
	return kb_arrival_pending(w, *now) && w->sched.next_ns <= *now;
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
	u64 now;

	while (!kb_done_pending(w)) {
		if (kb_arrival_due(w, &now))
			break;
		if (!w->inflight && !kb_arrival_pending(w, now))
			break;
		cpu_relax();
		cond_resched();
	}
}

/*
 * Polls the hardware queue of one bio in flight, round robin.  The
 * completions one poll finds ended by the time it returned: the worker's
 * own are stamped with that one reading of the clock (kb_end_io()), not
 * one each as the batch is completed after it.
 */
static void kb_poll_one(struct kb_worker *w)
{
	DEFINE_IO_COMP_BATCH(iob);
	unsigned int i;

	for (i = 0; i < w->nr_slots; i++) {
		struct kb_slot *slot = w->slots[w->poll_next];

		w->poll_next = (w->poll_next + 1) % w->nr_slots;
		if (!slot->busy)
			continue;
		kb_bio_poll(&slot->bio, &iob);
		if (iob.complete) {
			w->poll_ns = ktime_get_ns();
			iob.complete(&iob);
			w->poll_ns = 0;
		}
		return;
	}
}

/*
 * Reaps completions with bio_poll(): kb_end_io() runs in this task.  The
 * completions found may be other bios' on the same hardware queue, this
 * worker's or another's.
 */
static void kb_wait_poll(struct kb_worker *w)
{
	u64 now;

	while (!kb_done_pending(w)) {
		if (kb_arrival_due(w, &now))
			break;
		if (!w->inflight) {
			if (w->deferred || !kb_arrival_pending(w, now))
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

/*
 * The requests to take at once for the resubmissions of @list and of the
 * slots waiting for a tag: one a slot, at most @max, and at least
 * blk_start_plug()'s own 1.
 */
static unsigned int kb_plug_batch(struct llist_node *list,
				  struct llist_node *waiting, unsigned int max)
{
	unsigned int nr = 0;

	for (; list && nr < max; list = list->next)
		nr++;
	for (; waiting && nr < max; waiting = waiting->next)
		nr++;
	return max(nr, 1U);
}

/*
 * Submits again, oldest first, the I/Os waiting for a tag, while
 * kb_may_try(); or drops them when the job ends (@go_on false: they were
 * never done).  The first may sleep for a tag when none of the worker's
 * bios is in flight: then nothing of its own is left to poll.
 */
static void kb_retry(struct kb_worker *w, bool go_on)
{
	struct blk_plug *plug = current->plug;
	unsigned int left = w->plug_batch;
	struct kb_slot *slot;

	while (w->deferred && kb_may_try(w) && !kb_refill_held(w)) {
		slot = container_of(w->deferred, struct kb_slot, node);
		if (go_on && kb_overlap_held(w, slot))
			break;	/* serialize_overlap: until that one is reaped */
		w->deferred = w->deferred->next;
		kb_took_deferred(w);
		if (!go_on) {
			if (kb_open_loop(w)) {
				slot->node.next = w->idle;
				w->idle = &slot->node;
			}
			continue;
		}
		/*
		 * The block layer takes the plug's batch of requests once and
		 * sets nr_ios back to 1: arm it again for each batch of
		 * resubmissions, or all but the first batch would take their
		 * tags one at a time.  It is read only when the plug holds no
		 * request, so arming it early costs nothing.  A countdown, not
		 * a division per I/O.
		 */
		if (!left) {
			if (plug)
				plug->nr_ios = kb_plug_batch(&slot->node, NULL,
							     w->plug_batch);
			left = w->plug_batch;
		}
		left--;
		if (!kb_issue(w, slot))
			kb_refused(w);
	}
}

/* ---- thinktime ----------------------------------------------------------- */

/*
 * Counts a completion, and starts the drain before a pause when one is due:
 * after thinktime_blocks completions or thinktime_iotime of I/O since the
 * last pause, if more I/O may follow it.  The count restarts at the
 * trigger: the completions that drain before the pause count toward the
 * next one, as fio's do.
 */
static void kb_think_count(struct kb_worker *w, u64 now)
{
	const struct kb_config *cfg = &w->job->cfg;

	w->think_count++;
	if (w->thinking || !kb_may_submit(w, now))
		return;
	if ((cfg->thinktime_blocks && w->think_count >= cfg->thinktime_blocks) ||
	    (cfg->thinktime_iotime_ns &&
	     now - w->think_last_ns >= cfg->thinktime_iotime_ns)) {
		w->thinking = true;
		w->think_count = 0;
	}
}

/* Sleeps until @end, or the job's end or a stop (which wakes the worker). */
static void kb_sleep_until(struct kb_worker *w, u64 end)
{
	ktime_t until = ns_to_ktime(end);

	for (;;) {
		set_current_state(TASK_IDLE);
		if (ktime_get_ns() >= end || !kb_may_go_on(w, 0))
			break;
		schedule_hrtimeout_range(&until, 0, HRTIMER_MODE_ABS);
	}
	__set_current_state(TASK_RUNNING);
}

/*
 * The pause, with nothing in flight: spins thinktime_spin, then sleeps the
 * rest of thinktime, both cut short by the job's end or a stop (which wakes
 * the worker).  No bio of the worker's is in flight meanwhile, so a polled
 * or spinning worker leaves no completion unreaped.
 */
static void kb_think(struct kb_worker *w)
{
	const struct kb_config *cfg = &w->job->cfg;
	u64 start = ktime_get_ns();
	u64 spin_end = min(start + cfg->thinktime_spin_ns, kb_deadline(w));
	u64 end = min(start + max(cfg->thinktime_ns, cfg->thinktime_spin_ns),
		      kb_deadline(w));

	while (ktime_get_ns() < spin_end && kb_may_go_on(w, 0)) {
		cpu_relax();
		cond_resched();
	}
	kb_sleep_until(w, end);
}

/*
 * After the drain, the pause; then the parked slots fill the depth again,
 * or in the open loop the arrivals due go out: those of the pause too
 * (fio's catch-up), or with rate_ignore_thinktime the schedule moves on by
 * the pause, as fio counts the pause's I/O as issued.
 */
static void kb_think_and_resume(struct kb_worker *w, unsigned int batch)
{
	u64 start = ktime_get_ns(), now;
	struct kb_slot *slot;
	struct blk_plug plug;

	kb_think(w);
	w->thinking = false;
	now = ktime_get_ns();
	w->think_last_ns = now;
	kb_start_plug(&plug, batch);
	if (kb_open_loop(w)) {
		if (w->job->cfg.rate_ignore_thinktime) {
			w->sched.next_ns += now - start;
			w->dsched[0].next_ns += now - start;
			w->dsched[1].next_ns += now - start;
		}
		kb_submit_due(w, now);
		blk_finish_plug(&plug);
		return;
	}
	while (w->idle && kb_may_submit(w, now)) {
		slot = container_of(w->idle, struct kb_slot, node);
		w->idle = w->idle->next;
		kb_submit(w, slot);
	}
	blk_finish_plug(&plug);
}

/*
 * Takes the completed slots back: counted, then resubmitted (closed loop)
 * or freed; and the refused ones, to wait at the head of the queue for a
 * tag, which the completions among them free.  The job's end and the
 * thread's stop are asked once for the batch (its clock is one reading
 * already); a stop, which a failure in the batch may set, at each I/O.
 */
static void kb_reap(struct kb_worker *w, struct llist_node *list, u64 now)
{
	bool go_on = kb_may_go_on(w, now);
	struct kb_slot *slot, *tmp;

	kb_account_reaped(w, list);
	llist_for_each_entry_safe(slot, tmp, list, node) {
		w->inflight--;
		slot->busy = false;
		if (unlikely(w->zbd.zd))
			kb_zbd_done(w, slot);
		if (unlikely(slot->refused)) {
			WRITE_ONCE(w->retries, w->retries + 1);
			kb_defer(w, slot, true, false);
			continue;
		}
		if (unlikely(w->tag_cap) && ++w->cap_age >= KB_TAG_CAP_AGE)
			w->tag_cap = 0;
		if (unlikely(slot->bio.bi_status))
			kb_io_error(w, slot);
		else if (slot->dir == KIOBENCH_DIR_READ &&
			 kb_zero_block(w, slot))
			WRITE_ONCE(w->zero_reads, w->zero_reads + 1);
		if (unlikely(slot->pi) && slot->dir == KIOBENCH_DIR_READ &&
		    !slot->bio.bi_status)
			kb_pi_check(w, slot);
		if (unlikely(slot->vcheck) && !slot->bio.bi_status)
			kb_verify_check(w, slot);
		if (unlikely(w->job->cfg.thinktime_ns))
			kb_think_count(w, now);
		if (kb_open_loop(w) || unlikely(w->thinking)) {
			slot->node.next = w->idle;	/* parked */
			w->idle = &slot->node;
		} else if (unlikely(w->latt) && kb_latt_park(w, slot)) {
			continue;	/* latency_target: above the depth */
		} else if (go_on && kb_budget_left(w) &&
			   !READ_ONCE(w->job->stop)) {
			if (unlikely(w->flow) && kb_flow_park(w, slot))
				continue;	/* flow: over its share */
			if (kb_pick_io(w, slot))
				kb_defer(w, slot, false, true);
		}
	}
	kb_retry(w, go_on && !READ_ONCE(w->job->stop));
}

/*
 * flow: the slots held back go out while the worker's share allows.  With
 * nothing in flight and its share still too large, it waits for the other
 * jobs of its group: flow-sleep-ns at a time, or spinning without it, as
 * fio; with flow-sleep-ns it first lets its I/O in flight complete (fio's
 * io_u_quiesce()).  At the job's end the held slots are dropped.
 */
static void kb_flow_resume(struct kb_worker *w)
{
	u64 pause = w->job->cfg.flow_sleep_ns, now;
	struct kb_slot *slot;

	if (pause && w->inflight)
		return;
	for (;;) {
		now = ktime_get_ns();
		while (w->idle && kb_may_submit(w, now) && !kb_flow_held(w)) {
			slot = container_of(w->idle, struct kb_slot, node);
			w->idle = w->idle->next;
			kb_submit(w, slot);
		}
		if (!kb_may_submit(w, now))
			w->idle = NULL;
		if (!w->idle || w->inflight || w->deferred)
			return;
		if (pause)
			kb_sleep_until(w, min(now + pause, kb_deadline(w)));
		else
			cpu_relax();
		cond_resched();
	}
}

/* The first submissions: every slot (closed loop), or the first arrival. */
static void kb_worker_start(struct kb_worker *w)
{
	const struct kb_config *cfg = &w->job->cfg;
	u64 now = ktime_get_ns();
	unsigned int i;

	w->think_last_ns = now;
	if (!kb_open_loop(w)) {
		for (i = 0; i < w->nr_slots && kb_may_submit(w, now); i++)
			if ((likely(!w->latt) || !kb_latt_park(w, w->slots[i])) &&
			    (likely(!w->flow) || !kb_flow_park(w, w->slots[i])))
				kb_submit(w, w->slots[i]);
		return;
	}
	for (i = w->nr_slots; i--; ) {
		w->slots[i]->node.next = w->idle;
		w->idle = &w->slots[i]->node;
	}
	if (cfg->replay_timed) {
		w->rp_start_ns = now;
		kb_replay_sched(w);
	} else if (cfg->rate_iops_write) {
		kb_sched_init(&w->dsched[0], now, cfg->rate_iops, cfg->rate_process);
		kb_sched_init(&w->dsched[1], now, cfg->rate_iops_write,
			      cfg->rate_process);
		kb_sched_merge(w);
	} else {
		kb_sched_init(&w->sched, now, cfg->rate_iops, cfg->rate_process);
	}
	kb_submit_due(w, now);
}

/*
 * The longest bio @bdev takes without a split, as far as its limits tell
 * (a split at a chunk boundary depends on the offset), or 0 if it cannot
 * refuse a bio rather than sleep.
 */
static u32 kb_nowait_max(struct block_device *bdev)
{
	struct request_queue *q = bdev_get_queue(bdev);

	if (!bdev_nowait(bdev))
		return 0;
	return min_t(u64, (u64)queue_max_sectors(q) << SECTOR_SHIFT,
		     (u64)queue_max_segments(q) * PAGE_SIZE);
}

/*
 * fio's end_fsync: with nothing left in flight, one flush, timed as the
 * sync direction, unless the job failed.  The job's end does not cut it
 * short: a stop waits for it, as for any I/O in flight.
 */
static void kb_end_fsync(struct kb_worker *w)
{
	struct kb_slot *slot = w->slots[0];

	if (!w->job->cfg.end_fsync || READ_ONCE(w->job->error))
		return;
	kb_pick_sync(slot);
	kb_issue(w, slot);
	while (w->inflight) {
		kb_wait(w);
		kb_reap(w, kb_take_done(w), ktime_get_ns());
	}
}

/*
 * A worker's warm-up and run time count from its first run, as each of
 * fio's jobs counts its own: one the scheduler runs late (a stalled guest)
 * still runs its whole time rather than none of it.  The job's measured
 * time starts with the first worker's warm-up end.  max_ns, a detached
 * job's cap, stays counted from JOB_START.
 */
VISIBLE_IF_KUNIT void kb_worker_clock(struct kb_worker *w, u64 now)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct kb_job *job = w->job;

	w->ramp_end_ns = now + cfg->ramp_ns;
	w->deadline_ns = cfg->runtime_ns ? w->ramp_end_ns + cfg->runtime_ns
					 : U64_MAX;
	if (cfg->max_ns)
		w->deadline_ns = min(w->deadline_ns,
				     job->start_ns + cfg->max_ns);
	if (atomic_inc_return(&job->clocked) == 1)
		WRITE_ONCE(job->ramp_end_ns, w->ramp_end_ns);
}
EXPORT_SYMBOL_IF_KUNIT(kb_worker_clock);

/* One pass of the job's I/O, until its end and nothing is in flight. */
static void kb_worker_pass(struct kb_worker *w)
{
	/* the open loop submits its due arrivals, not its completions */
	unsigned int batch = kb_open_loop(w) ? 1 : w->dev->plug_max;
	struct llist_node *done;
	struct blk_plug plug;
	u64 now;

	w->nowait_max = kb_nowait_max(w->dev->bdev.bdev);
	w->plug_batch = batch;
	w->plain_read = kb_plain_read(w);
	kb_start_plug(&plug, min(batch, w->nr_slots));
	kb_worker_start(w);
	blk_finish_plug(&plug);

	while (w->inflight || w->deferred ||
	       kb_arrival_pending(w, ktime_get_ns())) {
		kb_wait(w);
		now = ktime_get_ns();
		done = kb_take_done(w);
		kb_start_plug(&plug, kb_plug_batch(done, w->deferred, batch));
		kb_reap(w, done, now);
		if (unlikely(w->latt) && kb_latt_step(w, now))
			kb_latt_fill(w, now);
		if (kb_open_loop(w))
			kb_submit_due(w, now);
		blk_finish_plug(&plug);
		if (unlikely(w->thinking) && !w->inflight && !w->deferred)
			kb_think_and_resume(w, min(batch, w->nr_slots));
		if (unlikely(w->flow) && w->idle)
			kb_flow_resume(w);
		/*
		 * A device that completes inside submit_bio() (null_blk with
		 * irqmode=0, a polled queue) refills the list before we look
		 * again, so this loop may never sleep: without a preemption
		 * point it would hold the CPU until the job's end on a
		 * PREEMPT_NONE kernel, and the soft-lockup watchdog fires.
		 */
		cond_resched();
	}
	/* reap_rounds: what fio's view counted has all gone out or been dropped */
	WARN_ON_ONCE(w->unreaped || w->reaped);
	w->held = false;
}

/*
 * verify_only with verify-sorted: fio's do_dry_run(), the write pass's
 * picks logged (kb_verify_pick()) and none submitted, within its budget.
 */
static void kb_verify_dry_run(struct kb_worker *w)
{
	struct kb_slot *slot = w->slots[0];

	while (kb_budget_left(w) && !READ_ONCE(w->job->stop) &&
	       !kthread_should_stop()) {
		kb_pick_io(w, slot);
		cond_resched();
	}
	w->sync_due = false;
	w->vw->dry = false;
}

/*
 * io_round without verify: fio's rounds of a job that reads nothing back
 * (loops, io_size past size), each but the last ended by its end_fsync
 * (kb_parse_round() asks for it), the last one's the job's.  The worker's
 * budget in rounds of its share of a round's bytes, split as io_bytes is,
 * the last one the rest; a round cut short (runtime, stop, an error) is
 * the last.
 */
static void kb_worker_rounds(struct kb_worker *w)
{
	u64 round = kb_split_budget(w->job->cfg.io_round, w->job->io_unit,
				    w->job->nr_workers, w->index);
	u64 rest;

	if (!round || round >= w->bytes_left) {
		kb_worker_pass(w);
		return;
	}
	rest = w->bytes_left - round;
	w->bytes_left = round;
	for (;;) {
		kb_worker_pass(w);
		if (w->bytes_left || !rest || READ_ONCE(w->job->error) ||
		    !kb_may_go_on(w, ktime_get_ns()))
			return;
		kb_end_fsync(w);
		w->bytes_left = min(round, rest);
		rest -= w->bytes_left;
		w->idle = NULL;		/* a pass starts again: every slot free */
		w->thinking = false;
	}
}

/*
 * The job's I/O, in windows with verify_backlog or trim_backlog, each
 * followed by its trims or read-back, and in io_round's rounds, each
 * followed by its end_fsync and (with verify) read-back; its end_fsync; then, for
 * verify, the read-back of what it wrote (of the last window's, with
 * windows).  Its
 * bios' blk-cgroup is taken for the run (compat.h).
 */
void kb_worker_run(struct kb_worker *w)
{
	kb_worker_clock(w, ktime_get_ns());
	w->blkcg = kb_blkcg_get();
	if (kb_zbd_begin(w))
		goto out_put_blkcg;
	kb_verify_begin(w);
	if (unlikely(w->vw && w->vw->dry))
		kb_verify_dry_run(w);
	else if (unlikely(!w->vw && w->job->cfg.io_round))
		kb_worker_rounds(w);
	else
		do {
			kb_worker_pass(w);
			if (unlikely(kb_verify_round_ends(w)))
				kb_end_fsync(w);	/* fio's, each round */
		} while (kb_verify_window_next(w));
	kb_end_fsync(w);
	while (kb_verify_next_pass(w))
		kb_worker_pass(w);
out_put_blkcg:
	kb_blkcg_put(w->blkcg);
	w->blkcg = NULL;
}
