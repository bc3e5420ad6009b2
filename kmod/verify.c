// SPDX-License-Identifier: GPL-2.0
/*
 * fio's verify, in the kernel.  A job with verify fills each verify_interval
 * of its writes' buffers, before submission, with data (verify_pattern's,
 * else pseudo-random bytes drawn from the job's seed, the interval's offset
 * and verify_generation) and, at verify_offset, a header: the offset, the
 * seed, the generation, a checksum of the rest of the interval and the
 * header's own CRC-32C.  Its reads are checked as the worker reaps them:
 *
 *   - a header that is not valid, or data whose checksum (or pattern) is
 *     wrong: corruption;
 *   - a valid header that names another offset: a misdirected write;
 *   - a valid header for the offset, of another generation (or seed): a
 *     lost write, the block as an older write left it (stale).
 *
 * A write job reads back what it wrote once every worker's writes are done
 * (do_verify): each worker replays its write pass's generators, so its
 * reads go to the same offsets with the same sizes, at the job's depth.
 * verify_only replays them as reads from the start, writing nothing.
 *
 * Nothing here allocates per I/O: a worker's expected copy and the job's
 * records of mismatches are allocated with the job.  A mismatch rebuilds
 * the expected interval to name the first differing byte, logs the device,
 * offset and both headers, and keeps the first ones for debugfs (with
 * verify_dump, both copies of the interval too).
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/hash.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/xxhash.h>
#include <kunit/visibility.h>

#include "kiobench.h"

#define KB_VLOG_MAX	16	/* mismatches recorded, logged and shown */
#define KB_VDUMP_MAX	4	/* of them dumped with verify_dump */
#define KB_VPAT_ALL	U32_MAX	/* kb_vmis.diff: no byte differs */

/* A recorded mismatch; @ready publishes the rest. */
struct kb_vmis {
	bool ready;
	bool trimmed;		/* a trimmed block: zeroes expected */
	bool hdr;		/* its header is what is wrong */
	u8 kind;		/* enum kb_vkind */
	u8 dev;			/* index in the job's devices */
	u8 exp_byte, found_byte;
	u32 diff;		/* first differing byte of the interval */
	u64 off;		/* of the interval, bytes on the device */
	struct kb_vhdr exp, found;
};

struct kb_verify {
	u32 interval;
	struct crypto_shash *crc32c;	/* compat.h: a faster CRC-32C, or NULL */
	struct crypto_shash *md5;	/* compat.h: verify=md5's */
	u8 *pat;		/* an interval of verify_pattern, or NULL */
	atomic_t nr_mis;	/* records claimed; may pass KB_VLOG_MAX */
	struct kb_vmis mis[KB_VLOG_MAX];
	u8 *dump;		/* verify_dump: expected, found, per record */
	struct debugfs_blob_wrapper blob[KB_VDUMP_MAX][2];
};

static const char *const kb_vkind_names[KB_V_NR_KINDS] = {
	[KB_V_OK] = "ok",
	[KB_V_CORRUPT] = "corrupt",
	[KB_V_MISDIRECTED] = "misdirected",
	[KB_V_STALE] = "stale",
};

/* Whether the job writes: else each of its reads is checked, as fio's are. */
static bool kb_vwrites(const struct kb_config *cfg)
{
	return cfg->rwmix_read < 100;
}

static bool kb_vhas_hdr(const struct kb_config *cfg)
{
	return cfg->verify != KIOBENCH_VERIFY_PATTERN;
}

static u8 kb_vcsum_len(u8 type)
{
	switch (type) {
	case KIOBENCH_VERIFY_CRC32C:
		return sizeof(u32);
	case KIOBENCH_VERIFY_CRC64:
	case KIOBENCH_VERIFY_XXHASH:
		return sizeof(u64);
	case KIOBENCH_VERIFY_SHA256:
		return SHA256_DIGEST_SIZE;
	case KIOBENCH_VERIFY_MD5:
		return MD5_DIGEST_SIZE;
	default:
		return 0;	/* pattern, meta: none */
	}
}

/* ---- an interval in a slot's pages, or in a flat buffer ------------------ */

struct kb_vbuf {
	struct page **pages;	/* NULL: @lin */
	u8 *lin;
	u32 base;		/* the interval's first byte in the pages */
};

/* The byte at @pos of the interval, and how many follow it contiguously. */
static u8 *kb_vptr(const struct kb_vbuf *b, u32 pos, u32 *avail)
{
	u32 off = b->base + pos;

	if (!b->pages) {
		*avail = U32_MAX;
		return b->lin + pos;
	}
	*avail = PAGE_SIZE - offset_in_page(off);
	return (u8 *)page_address(b->pages[off >> PAGE_SHIFT]) +
	       offset_in_page(off);
}

/*
 * Copies @len bytes at @pos of the interval out to @out, or in from @in
 * (the other one NULL): the pages' segments one after another.
 */
static void kb_vcopy(const struct kb_vbuf *b, u32 pos, void *out,
		     const void *in, u32 len)
{
	u32 avail, n, done;
	u8 *p;

	for (done = 0; done < len; done += n) {
		p = kb_vptr(b, pos + done, &avail);
		n = min(avail, len - done);
		if (out)
			memcpy(out + done, p, n);
		else
			memcpy(p, in + done, n);
	}
}

static void kb_vcopy_out(const struct kb_vbuf *b, u32 pos, void *dst, u32 len)
{
	kb_vcopy(b, pos, dst, NULL, len);
}

static void kb_vcopy_in(const struct kb_vbuf *b, u32 pos, const void *src,
			u32 len)
{
	kb_vcopy(b, pos, NULL, src, len);
}

/* ---- checksums ----------------------------------------------------------- */

struct kb_vcsum {
	u8 type;
	/* crc32c: the crypto API's, or NULL; md5: the crypto API's */
	struct crypto_shash *tfm;
	union {
		u32 crc32c;
		u64 crc64;
		struct xxh64_state xxh;
		struct kb_sha256_ctx sha;
		struct kb_md5 md5;
	};
};

static void kb_vcsum_init(struct kb_vcsum *c, u8 type, struct crypto_shash *tfm)
{
	c->type = type;
	c->tfm = tfm;
	switch (type) {
	case KIOBENCH_VERIFY_CRC32C:
		c->crc32c = ~0U;
		break;
	case KIOBENCH_VERIFY_CRC64:
		c->crc64 = 0;
		break;
	case KIOBENCH_VERIFY_XXHASH:
		xxh64_reset(&c->xxh, 0);
		break;
	case KIOBENCH_VERIFY_SHA256:
		sha256_init(&c->sha);
		break;
	case KIOBENCH_VERIFY_MD5:
		kb_md5_init(&c->md5, tfm);
		break;
	}
}

static void kb_vcsum_update(struct kb_vcsum *c, const u8 *p, u32 len)
{
	switch (c->type) {
	case KIOBENCH_VERIFY_CRC32C:
		c->crc32c = c->tfm ? kb_crc32c_fast(c->tfm, c->crc32c, p, len) :
				      kb_crc32c(c->crc32c, p, len);
		break;
	case KIOBENCH_VERIFY_CRC64:
		c->crc64 = kb_crc64(c->crc64, p, len);
		break;
	case KIOBENCH_VERIFY_XXHASH:
		xxh64_update(&c->xxh, p, len);
		break;
	case KIOBENCH_VERIFY_SHA256:
		sha256_update(&c->sha, p, len);
		break;
	case KIOBENCH_VERIFY_MD5:
		kb_md5_update(&c->md5, p, len);
		break;
	}
}

static void kb_vcsum_final(struct kb_vcsum *c, u8 out[32])
{
	__le32 v32;
	__le64 v64;

	memset(out, 0, 32);
	switch (c->type) {
	case KIOBENCH_VERIFY_CRC32C:
		v32 = cpu_to_le32(~c->crc32c);
		memcpy(out, &v32, sizeof(v32));
		break;
	case KIOBENCH_VERIFY_CRC64:
		v64 = cpu_to_le64(c->crc64);
		memcpy(out, &v64, sizeof(v64));
		break;
	case KIOBENCH_VERIFY_XXHASH:
		v64 = cpu_to_le64(xxh64_digest(&c->xxh));
		memcpy(out, &v64, sizeof(v64));
		break;
	case KIOBENCH_VERIFY_SHA256:
		sha256_final(&c->sha, out);
		break;
	case KIOBENCH_VERIFY_MD5:
		kb_md5_final(&c->md5, out);
		break;
	}
}

/* The checksum of the interval's bytes [from, to). */
static void kb_vcsum_range(struct kb_vcsum *c, const struct kb_vbuf *b,
			   u32 from, u32 to)
{
	u32 avail, n;
	u8 *p;

	for (; from < to; from += n) {
		p = kb_vptr(b, from, &avail);
		n = min(avail, to - from);
		kb_vcsum_update(c, p, n);
	}
}

/* The checksum of the interval but its header. */
static void kb_vcsum_interval(const struct kb_job *job, const struct kb_vbuf *b,
			      u8 out[32])
{
	const struct kb_config *cfg = &job->cfg;
	u32 interval = job->verify->interval;
	struct kb_vcsum c;

	kb_vcsum_init(&c, cfg->verify, job->verify->md5 ?: job->verify->crc32c);
	kb_vcsum_range(&c, b, 0, cfg->verify_offset);
	kb_vcsum_range(&c, b, cfg->verify_offset + sizeof(struct kb_vhdr),
		       interval);
	kb_vcsum_final(&c, out);
}

/* ---- the header ---------------------------------------------------------- */

/* The header of the interval at @off, but its checksums. */
VISIBLE_IF_KUNIT void kb_vhdr_make(struct kb_vhdr *h, const struct kb_config *cfg,
				   u64 off)
{
	memset(h, 0, sizeof(*h));
	h->magic = cpu_to_le32(KB_VHDR_MAGIC);
	h->type = cfg->verify;
	h->csum_len = kb_vcsum_len(cfg->verify);
	h->hdr_len = cpu_to_le16(sizeof(*h));
	h->interval = cpu_to_le32(cfg->verify_interval);
	h->gen = cpu_to_le32(cfg->verify_generation);
	h->offset = cpu_to_le64(off);
	h->seed = cpu_to_le64(cfg->seed);
}
EXPORT_SYMBOL_IF_KUNIT(kb_vhdr_make);

static u32 kb_vhdr_crc(const struct kb_vhdr *h)
{
	return ~kb_crc32c(~0U, (const u8 *)h, offsetof(struct kb_vhdr, hdr_crc));
}

VISIBLE_IF_KUNIT void kb_vhdr_seal(struct kb_vhdr *h)
{
	h->hdr_crc = cpu_to_le32(kb_vhdr_crc(h));
}
EXPORT_SYMBOL_IF_KUNIT(kb_vhdr_seal);

/* Whether @h is a header as kiobench writes them, intact. */
VISIBLE_IF_KUNIT bool kb_vhdr_valid(const struct kb_vhdr *h)
{
	return le32_to_cpu(h->magic) == KB_VHDR_MAGIC &&
	       le16_to_cpu(h->hdr_len) == sizeof(*h) &&
	       le32_to_cpu(h->hdr_crc) == kb_vhdr_crc(h);
}
EXPORT_SYMBOL_IF_KUNIT(kb_vhdr_valid);

/*
 * Whether the job holds a header's seed to its own: fio's verify_io_u()
 * does for a read/write mix (td_rw()) without verify_backlog; any other job
 * takes the header's, as the block may be another job's (a read job's, or
 * verify_only's of a write job before it in the run, whose seed is its own).
 */
static bool kb_vseed_own(const struct kb_config *cfg)
{
	return cfg->rwmix_read && cfg->rwmix_read < 100 && !cfg->verify_backlog;
}

/*
 * What the header found at the interval of @off says, before the data's
 * checksum: corrupt if invalid, misdirected if it names another offset,
 * stale if written with other settings (generation, seed as
 * kb_vseed_own() says, type, interval).
 */
VISIBLE_IF_KUNIT enum kb_vkind kb_vhdr_classify(const struct kb_vhdr *h,
						const struct kb_config *cfg,
						u64 off)
{
	if (!kb_vhdr_valid(h))
		return KB_V_CORRUPT;
	if (le64_to_cpu(h->offset) != off)
		return KB_V_MISDIRECTED;
	if (le32_to_cpu(h->gen) != cfg->verify_generation ||
	    (kb_vseed_own(cfg) && le64_to_cpu(h->seed) != cfg->seed) ||
	    h->type != cfg->verify ||
	    le32_to_cpu(h->interval) != cfg->verify_interval)
		return KB_V_STALE;
	return KB_V_OK;
}
EXPORT_SYMBOL_IF_KUNIT(kb_vhdr_classify);

/* ---- verify-sorted: the log of writes, fio's io_hist rb-tree ----------- */

/*
 * The first unit at or after @u that starts an extent or is not covered:
 * the end of the extent covering the unit before @u.  An extent is at most
 * maxn units long, so the search stops there.
 */
static u64 kb_xmap_end(const struct kb_xmap *x, u64 u)
{
	u64 lim = min(x->units, u + x->maxn);

	return min(find_next_bit(x->start, lim, u),
		   find_next_zero_bit(x->cover, lim, u));
}

/*
 * fio's log_io_piece() without a random map: the write of units [a, a + n)
 * drops whole every older extent it overlaps (the one it starts in, those
 * within it, the one it ends in), then is an extent of its own.  Returns
 * how many it dropped: fio's io_hist_len goes down by as many.
 */
VISIBLE_IF_KUNIT u64 kb_xmap_insert(struct kb_xmap *x, u64 a, u64 n)
{
	u64 b = a + n, lo = a, hi = b, s, dropped = 0;

	if (test_bit(a, x->cover) && !test_bit(a, x->start)) {
		lo = find_last_bit(x->start, a);
		if (lo >= a)	/* not a log's state: a cover bit starts one */
			lo = a;
	}
	if (b < x->units && test_bit(b, x->cover) && !test_bit(b, x->start))
		hi = kb_xmap_end(x, b);
	for (s = find_next_bit(x->start, hi, lo); s < hi;
	     s = find_next_bit(x->start, hi, s + 1))
		dropped++;
	bitmap_clear(x->start, lo, hi - lo);
	bitmap_clear(x->cover, lo, hi - lo);
	__set_bit(a, x->start);
	bitmap_set(x->cover, a, n);
	return dropped;
}
EXPORT_SYMBOL_IF_KUNIT(kb_xmap_insert);

/*
 * fio's get_next_verify() from the rb-tree: the lowest extent at or after
 * the read-back's place, taken out of the log.  False: none is left.
 */
VISIBLE_IF_KUNIT bool kb_xmap_pop(struct kb_xmap *x, u64 *a, u64 *n)
{
	u64 s = find_next_bit(x->start, x->units, x->next), e;

	if (s >= x->units)
		return false;
	e = kb_xmap_end(x, s + 1);
	__clear_bit(s, x->start);
	bitmap_clear(x->cover, s, e - s);
	x->next = e;
	*a = s;
	*n = e - s;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(kb_xmap_pop);

/*
 * fio's unlog_io_piece() for a write that failed: its extent leaves the
 * log, if it is still there whole (no later write has dropped it).  The
 * older extents it dropped stay dropped, as fio's do.  Whether it left.
 */
VISIBLE_IF_KUNIT bool kb_xmap_remove(struct kb_xmap *x, u64 a, u64 n)
{
	if (a + n > x->units || !test_bit(a, x->start) ||
	    kb_xmap_end(x, a + 1) != a + n)
		return false;
	__clear_bit(a, x->start);
	bitmap_clear(x->cover, a, n);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(kb_xmap_remove);

/* The extents in the log: a read-back's I/Os. */
VISIBLE_IF_KUNIT u64 kb_xmap_count(const struct kb_xmap *x)
{
	return bitmap_weight(x->start, x->units);
}
EXPORT_SYMBOL_IF_KUNIT(kb_xmap_count);

/* @slot's extent in the log's units, false if it is not made of them. */
static bool kb_xmap_units(const struct kb_worker *w, const struct kb_slot *slot,
			  u64 *a, u64 *n)
{
	const struct kb_xmap *x = &w->vw->xmap;
	u64 rel = slot->off - w->dev->span_start;

	if ((rel | slot->len) & ((1ULL << x->shift) - 1))
		return false;
	*a = rel >> x->shift;
	*n = slot->len >> x->shift;
	return true;
}

/* A write of the write pass, into the log: how many extents it dropped. */
static u64 kb_xmap_log(struct kb_worker *w, const struct kb_slot *slot)
{
	u64 a, n;

	/* kb_xmap_shift() missed a way of drawing a write */
	if (WARN_ON_ONCE(!kb_xmap_units(w, slot, &a, &n)))
		return 0;
	return kb_xmap_insert(&w->vw->xmap, a, n);
}

/*
 * The units [*@a, *@b) of the replay's failed map that @slot touches, or
 * (@whole) that it covers whole.  Writes are made of units (kb_xmap_shift());
 * were one not, a failure would mark more and a pick clear less, never the
 * other way.
 */
static void kb_vfail_range(const struct kb_worker *w, const struct kb_slot *slot,
			   bool whole, u64 *a, u64 *b)
{
	const struct kb_xmap *x = &w->vw->xmap;
	u64 rel = slot->off - w->dev->span_start, m = (1ULL << x->shift) - 1;

	*b = min((rel + slot->len + (whole ? 0 : m)) >> x->shift, x->units);
	*a = min((rel + (whole ? m : 0)) >> x->shift, *b);
}

/*
 * A write of the write pass picked: its units' last write is this one,
 * not failed (yet).  So the replay reads back each write of a block
 * whose last write went through, and none of one whose last write failed.
 */
static void kb_vfail_clear(struct kb_worker *w, const struct kb_slot *slot)
{
	u64 a, b;

	kb_vfail_range(w, slot, true, &a, &b);
	bitmap_clear(w->vw->failed, a, b - a);
}

/* A replayed write: whether a unit of it was last written by a failed write. */
static bool kb_vfail_marked(const struct kb_worker *w, const struct kb_slot *slot)
{
	u64 a, b;

	kb_vfail_range(w, slot, false, &a, &b);
	return find_next_bit(w->vw->failed, b, a) < b;
}

/*
 * A write of the write pass failed and the job goes on (in the worker,
 * which reaps its own completions): a sorted read-back does not read it
 * (fio drops it from its log), nor does a replay, which marks its units.
 * The sorted log holds one extent fewer, so a verify_backlog window still
 * being written needs one more write to fill (fio's io_hist_len goes down).
 */
void kb_verify_write_failed(struct kb_worker *w, const struct kb_slot *slot)
{
	struct kb_vw *vw = w->vw;
	u64 a, b, n;

	if (!vw || w->verifying || slot->dir != KIOBENCH_DIR_WRITE)
		return;
	if (vw->failed) {
		kb_vfail_range(w, slot, false, &a, &b);
		bitmap_set(vw->failed, a, b - a);
	} else if (vw->xmap.start && kb_xmap_units(w, slot, &a, &n) &&
		   kb_xmap_remove(&vw->xmap, a, n) && w->job->cfg.verify_backlog &&
		   vw->phase == KB_VP_WRITE && vw->wleft) {
		vw->wleft++;
	}
}

/* A sorted read-back's next I/O: the log's next extent, read and checked. */
void kb_verify_pick_sorted(struct kb_worker *w, struct kb_slot *slot)
{
	struct kb_xmap *x = &w->vw->xmap;
	u64 a = 0, n = 1;

	/* the pass takes as many I/Os as the log had extents */
	if (WARN_ON_ONCE(!kb_xmap_pop(x, &a, &n)))
		w->ios_left = 1;
	w->ios_left--;
	slot->off = w->dev->span_start + (a << x->shift);
	slot->len = n << x->shift;
	slot->dir = KIOBENCH_DIR_READ;
	slot->vcheck = true;
	slot->vtrimmed = false;
	slot->barrier = false;
	slot->cmdprio = false;
	slot->submit_ns = 0;
}

/* A sorted read-back starts: the log's extents, lowest first. */
static u64 kb_xmap_readback(struct kb_worker *w)
{
	struct kb_xmap *x = &w->vw->xmap;

	x->next = 0;
	w->vsorted = true;
	w->bytes_left = U64_MAX;
	return kb_xmap_count(x);
}

/* ---- filling and checking ------------------------------------------------ */

/* The data of the interval at @off, as the job writes it. */
static void kb_vfill_data(const struct kb_job *job, const struct kb_vbuf *b,
			  u64 off, u64 seed)
{
	const struct kb_config *cfg = &job->cfg;
	u32 interval = job->verify->interval;
	struct kb_rng rng;
	u32 pos, avail, n, i;
	u64 *p;

	if (job->verify->pat) {
		kb_vcopy_in(b, 0, job->verify->pat, interval);
		return;
	}
	kb_rng_seed(&rng, seed ^ (off * 0x9e3779b97f4a7c15ULL) ^
			  ((u64)cfg->verify_generation << 40));
	/* segments break at pages: multiples of 512 into the interval */
	for (pos = 0; pos < interval; pos += n) {
		p = (u64 *)kb_vptr(b, pos, &avail);
		n = min(avail, interval - pos);
		for (i = 0; i < n / sizeof(u64); i++)
			p[i] = kb_rng_next(&rng);
	}
}

/* The interval at @off whole, as a job of @seed writes it. */
static void kb_vfill(const struct kb_job *job, const struct kb_vbuf *b, u64 off,
		     u64 seed)
{
	const struct kb_config *cfg = &job->cfg;
	struct kb_vhdr h;

	kb_vfill_data(job, b, off, seed);
	if (!kb_vhas_hdr(cfg))
		return;
	kb_vhdr_make(&h, cfg, off);
	h.seed = cpu_to_le64(seed);
	kb_vcsum_interval(job, b, h.csum);
	kb_vhdr_seal(&h);
	kb_vcopy_in(b, cfg->verify_offset, &h, sizeof(h));
}

static u32 kb_vintervals(const struct kb_job *job, const struct kb_slot *slot)
{
	return slot->len / job->verify->interval;
}

/* Writes per window: verify_backlog's or trim_backlog's; 0: none. */
static u32 kb_vwindow(const struct kb_config *cfg)
{
	return cfg->verify_backlog ?: cfg->trim_backlog;
}

/*
 * fio's trim_percentage: whether the job's @n-th write is chosen for a trim,
 * drawn from the seed and @n alone, so that the read-back knows it again.
 */
static bool kb_vtrim_chosen(const struct kb_config *cfg, u64 n)
{
	return cfg->trim_backlog &&
	       hash_64(cfg->seed ^ (n * 0x9e3779b97f4a7c15ULL), 32) % 100 <
	       cfg->trim_percentage;
}

/*
 * The read-back of a write: whether its block was trimmed.  The chosen
 * writes are trimmed oldest first, so the read-back's j-th chosen one was
 * if fewer than trim_upto came before it.
 */
static bool kb_vreplay_trimmed(struct kb_worker *w)
{
	struct kb_vw *vw = w->vw;

	if (!kb_vtrim_chosen(&w->job->cfg, vw->rwrites++))
		return false;
	return vw->rchosen++ < vw->trim_upto;
}

/* A write of the write pass: remembered for its trim if chosen. */
static void kb_vtrim_note(struct kb_worker *w, const struct kb_slot *slot)
{
	u32 cap = w->job->cfg.trim_backlog;
	struct kb_vw *vw = w->vw;
	struct kb_vtrim *t;

	/* a window has trim_backlog writes, and each trims all it chose */
	if (!kb_vtrim_chosen(&w->job->cfg, vw->writes++) ||
	    WARN_ON_ONCE(vw->ring_len == cap))
		return;
	t = &vw->ring[(vw->ring_head + vw->ring_len++) % cap];
	t->off = slot->off;
	t->len = slot->len;
	vw->chosen++;
}

/*
 * A write of the window, which dropped @dropped older extents from the
 * sorted log: the writes the window has left.  fio ends a window when its
 * log holds verify_backlog extents (io_hist_len % N), so a write that
 * drops older ones leaves the window as many writes further from its end.
 * The log is empty at a window's start and holds N - wleft extents of it,
 * so wleft + dropped stays within N.
 */
static u32 kb_vwindow_written(struct kb_vw *vw, u64 dropped)
{
	vw->wleft += dropped;
	return --vw->wleft;
}

/*
 * Before a write's submission: every interval of its buffer.  Replayed by
 * the read-back, the write becomes a read; false: no I/O, draw again if
 * the budget has any left.  A read of a read/write mix is not replayed,
 * its budget given back, as fio verifies only what it wrote; nor is a
 * write that failed (the job went on), its budget spent, as fio drops it
 * from its list.  A job that only reads checks each read (fio's do_io():
 * !td_rw()).
 */
bool kb_verify_pick(struct kb_worker *w, struct kb_slot *slot)
{
	struct kb_job *job = w->job;
	u32 interval = job->verify->interval;
	struct kb_vbuf b = { .pages = slot->pages };
	u64 dropped = 0;
	u32 i;

	slot->vcheck = w->verifying ||
		       (slot->dir == KIOBENCH_DIR_READ && !kb_vwrites(&job->cfg));
	if (w->verifying) {
		if (slot->dir != KIOBENCH_DIR_WRITE) {
			w->ios_left++;
			w->bytes_left += slot->len;
			return false;
		}
		slot->dir = KIOBENCH_DIR_READ;	/* the write pass's, read */
		slot->vtrimmed = kb_vreplay_trimmed(w);
		return !(unlikely(w->vw->failed) && kb_vfail_marked(w, slot));
	}
	if (slot->dir != KIOBENCH_DIR_WRITE)
		return true;
	w->vw->picks++;
	if (unlikely(w->vw->failed))
		kb_vfail_clear(w, slot);
	if (w->vw->xmap.start)
		dropped = kb_xmap_log(w, slot);
	if (w->vw->dry)
		return true;	/* fio's do_dry_run(): logged, not written */
	if (job->cfg.trim_backlog)
		kb_vtrim_note(w, slot);
	if (kb_vwindow(&job->cfg) && !kb_vwindow_written(w->vw, dropped)) {
		w->vw->ios_rest = w->ios_left;	/* the window's last write */
		w->ios_left = 0;
	}
	for (i = 0; i < kb_vintervals(job, slot); i++) {
		b.base = i * interval;
		kb_vfill(job, &b, slot->off + b.base, job->cfg.seed);
	}
	return true;
}

/* A trim pass's next I/O: the oldest chosen write's blocks. */
void kb_verify_pick_trim(struct kb_worker *w, struct kb_slot *slot)
{
	struct kb_vw *vw = w->vw;
	const struct kb_vtrim *t = &vw->ring[vw->ring_head];

	vw->ring_head = (vw->ring_head + 1) % w->job->cfg.trim_backlog;
	vw->ring_len--;
	vw->trim_upto++;
	w->ios_left--;
	slot->off = t->off;
	slot->len = t->len;
	slot->dir = KIOBENCH_DIR_TRIM;
	slot->cmdprio = false;
	slot->submit_ns = 0;
}

/* Where @b and the flat @exp first differ, or KB_VPAT_ALL. */
static u32 kb_vfirst_diff(const struct kb_vbuf *b, const u8 *exp, u32 len)
{
	u32 pos, avail, n, i;
	u8 *p;

	for (pos = 0; pos < len; pos += n) {
		p = kb_vptr(b, pos, &avail);
		n = min(avail, len - pos);
		if (!memcmp(p, exp + pos, n))
			continue;
		for (i = 0; p[i] == exp[pos + i]; i++)
			;
		return pos + i;
	}
	return KB_VPAT_ALL;
}

static void kb_vhdr_log(const char *what, const struct kb_vhdr *h)
{
	pr_err("  %s header: magic %#x type %u interval %u offset %llu seed %#llx generation %u csum %*phN hdr_crc %#x\n",
	       what, le32_to_cpu(h->magic), h->type, le32_to_cpu(h->interval),
	       le64_to_cpu(h->offset), le64_to_cpu(h->seed), le32_to_cpu(h->gen),
	       min_t(int, h->csum_len, 32), h->csum, le32_to_cpu(h->hdr_crc));
}

/*
 * A mismatch of kind @kind at the interval @b of @off: counted; the first
 * KB_VLOG_MAX are recorded and logged with the expected interval, rebuilt
 * in the worker's scratch buffer.  @hdr: the header is what is wrong,
 * which verify_fatal leaves alone.
 */
/*
 * The seed the interval in @b was written with, as far as the job can
 * tell: its header's when valid and the job takes it (kb_vseed_own()),
 * else the job's own.  The expected copy of a mismatch is rebuilt with it.
 */
static u64 kb_vseed_of(const struct kb_job *job, const struct kb_vbuf *b)
{
	struct kb_vhdr h;

	if (!kb_vhas_hdr(&job->cfg) || kb_vseed_own(&job->cfg))
		return job->cfg.seed;
	kb_vcopy_out(b, job->cfg.verify_offset, &h, sizeof(h));
	return kb_vhdr_valid(&h) ? le64_to_cpu(h.seed) : job->cfg.seed;
}

static void kb_vmismatch(struct kb_worker *w, const struct kb_vbuf *b, u64 off,
			 enum kb_vkind kind, bool trimmed, bool hdr)
{
	struct kb_job *job = w->job;
	struct kb_verify *v = job->verify;
	struct kb_vbuf exp = { .lin = w->vw->scratch };
	unsigned int dev = w->dev - job->devs;
	struct kb_vmis *m;
	bool listed;
	int n;

	/*
	 * As fio's: a mismatch is an EILSEQ error, which stops the job unless
	 * ignore_error's verify list (continue_on_error=verify) goes on from
	 * it, counted; verify_fatal stops it whatever the list says.
	 */
	listed = kb_err_listed(job, KIOBENCH_ERR_VERIFY, EILSEQ);
	if (!listed)
		cmpxchg(&job->error, 0, -EILSEQ);
	if (!listed || (job->cfg.verify_fatal && !hdr))
		WRITE_ONCE(job->stop, true);
	n = atomic_inc_return(&v->nr_mis) - 1;
	if (n >= KB_VLOG_MAX)
		return;
	m = &v->mis[n];
	if (trimmed)
		memset(exp.lin, 0, v->interval);
	else
		kb_vfill(job, &exp, off, kb_vseed_of(job, b));
	m->trimmed = trimmed;
	m->hdr = hdr;
	m->kind = kind;
	m->dev = dev;
	m->off = off;
	m->diff = kb_vfirst_diff(b, exp.lin, v->interval);
	if (m->diff != KB_VPAT_ALL) {
		m->exp_byte = exp.lin[m->diff];
		kb_vcopy_out(b, m->diff, &m->found_byte, 1);
	}
	if (kb_vhas_hdr(&job->cfg)) {
		memcpy(&m->exp, exp.lin + job->cfg.verify_offset, sizeof(m->exp));
		kb_vcopy_out(b, job->cfg.verify_offset, &m->found, sizeof(m->found));
	}
	if (v->dump && n < KB_VDUMP_MAX) {
		u8 *d = v->dump + (size_t)2 * n * v->interval;

		memcpy(d, exp.lin, v->interval);
		kb_vcopy_out(b, 0, d + v->interval, v->interval);
		WRITE_ONCE(v->blob[n][0].size, v->interval);
		WRITE_ONCE(v->blob[n][1].size, v->interval);
	}
	/* the record's fields before its flag: debugfs reads them after it */
	smp_store_release(&m->ready, true);
	pr_err("job %u: %s: verify: %s%s at offset %llu (interval %u): first differing byte %d: expected %#04x, found %#04x\n",
	       job->id, job->cfg.paths[dev], kb_vkind_names[kind],
	       trimmed ? " (trimmed, not zeroes)" : "", off,
	       v->interval, m->diff == KB_VPAT_ALL ? -1 : (int)m->diff,
	       m->exp_byte, m->found_byte);
	if (kb_vhas_hdr(&job->cfg)) {
		kb_vhdr_log("expected", &m->exp);
		kb_vhdr_log("found", &m->found);
	}
}

/*
 * Whether every byte of the interval is @pat's (an interval of it), or
 * zero without one: verify=pattern's check, and a trimmed block's.
 */
static bool kb_vmatches(const struct kb_job *job, const struct kb_vbuf *b,
			const u8 *pat)
{
	u32 interval = job->verify->interval;
	u32 pos, avail, n;
	u8 *p;

	for (pos = 0; pos < interval; pos += n) {
		p = kb_vptr(b, pos, &avail);
		n = min(avail, interval - pos);
		if (pat ? memcmp(p, pat + pos, n) : !!memchr_inv(p, 0, n))
			return false;
	}
	return true;
}

/*
 * The interval's kind; *@hdr: whether its header is what is wrong (not
 * valid, or another offset's, generation's or seed's).
 */
static enum kb_vkind kb_vcheck_interval(struct kb_job *job,
					const struct kb_vbuf *b, u64 off,
					bool *hdr)
{
	const struct kb_config *cfg = &job->cfg;
	enum kb_vkind kind;
	struct kb_vhdr h;
	u8 csum[32];

	*hdr = false;
	if (!kb_vhas_hdr(cfg))
		return kb_vmatches(job, b, job->verify->pat) ? KB_V_OK : KB_V_CORRUPT;
	kb_vcopy_out(b, cfg->verify_offset, &h, sizeof(h));
	kind = kb_vhdr_classify(&h, cfg, off);
	*hdr = kind != KB_V_OK;
	if (kind != KB_V_OK || !h.csum_len)
		return kind;
	kb_vcsum_interval(job, b, csum);
	return memcmp(csum, h.csum, sizeof(csum)) ? KB_V_CORRUPT : KB_V_OK;
}

/*
 * At a read's reaping, in the worker: every interval of its buffer.  A
 * trimmed block must read as zeroes, or is skipped (!trim_verify_zero).
 */
void kb_verify_check(struct kb_worker *w, struct kb_slot *slot)
{
	struct kb_job *job = w->job;
	u32 interval = job->verify->interval;
	struct kb_vbuf b = { .pages = slot->pages };
	bool trimmed = slot->vtrimmed;
	struct kb_vw *vw = w->vw;
	bool hdr = false;
	enum kb_vkind kind;
	u32 i;

	if (trimmed && !job->cfg.trim_verify_zero)
		return;
	for (i = 0; i < kb_vintervals(job, slot); i++) {
		b.base = i * interval;
		if (trimmed)	/* it reads back as zeroes (trim_verify_zero) */
			kind = kb_vmatches(job, &b, NULL) ? KB_V_OK : KB_V_CORRUPT;
		else
			kind = kb_vcheck_interval(job, &b, slot->off + b.base, &hdr);
		WRITE_ONCE(vw->n[kind], vw->n[kind] + 1);
		if (trimmed && kind == KB_V_OK)
			WRITE_ONCE(vw->trimmed, vw->trimmed + 1);
		if (unlikely(kind != KB_V_OK)) {
			/*
			 * As fio's verify_io_u(): a wrong header ends the
			 * block's check there, and is an error like any other
			 * but not verify_fatal's (fio returns before marking
			 * the job to end); wrong data is, and verify_fatal
			 * skips the block's other intervals.
			 */
			kb_vmismatch(w, &b, slot->off + b.base, kind, trimmed, hdr);
			if (hdr || job->cfg.verify_fatal)
				break;
		}
		/*
		 * kb_reap() checks a whole batch of completions: iodepth x bs
		 * of checksums (SHA-256 of MiBs each) without a break could
		 * hold the CPU for seconds on a kernel without preemption.
		 */
		cond_resched();
	}
}

/* ---- the passes ---------------------------------------------------------- */

static void kb_vsave_take(const struct kb_worker *w, struct kb_vsave *s)
{
	s->rng = w->rng;
	s->rmap = w->rmap;
	s->bmap_n = w->bmap.n;
	s->bmap_left = w->bmap.left;
	s->seq_next = w->seq_next;
	s->ios_left = w->ios_left;
	s->bytes_left = w->bytes_left;
	memcpy(s->last_end, w->last_end, sizeof(s->last_end));
	s->opat = w->opat;
}

static void kb_vsave_put(struct kb_worker *w, const struct kb_vsave *s)
{
	w->rng = s->rng;
	w->rmap = s->rmap;
	/*
	 * The bitmap as the save found it: empty, at the worker's start
	 * (kb_verify_begin()), as no verify-backlog window runs with it, or
	 * full, at a io-round round's start (whole passes: kb_bmap_check()),
	 * whose next draw empties it; a trim-backlog window's trims leave it
	 * as it was.
	 */
	if (w->bmap.map && (w->bmap.n != s->bmap_n ||
			    w->bmap.left != s->bmap_left)) {
		WARN_ON_ONCE(s->bmap_left && s->bmap_left != s->bmap_n);
		kb_bmap_reset(&w->bmap, s->bmap_n);
	}
	w->seq_next = s->seq_next;
	w->ios_left = s->ios_left;
	w->bytes_left = s->bytes_left;
	memcpy(w->last_end, s->last_end, sizeof(w->last_end));
	w->opat = s->opat;
}

/* Neither the job's end nor a stop has come: more may be written. */
static bool kb_vgo_on(const struct kb_worker *w)
{
	return ktime_get_ns() < w->deadline_ns && !READ_ONCE(w->job->stop) &&
	       !READ_ONCE(w->job->error) && !kthread_should_stop();
}

/* A pass starts again: every slot is free, none in flight. */
static void kb_vpass_reset(struct kb_worker *w)
{
	w->idle = NULL;
	w->thinking = false;
}

/*
 * The next write window: I/O until its kb_vwindow()-th write, whose pick
 * keeps the rest of the budget aside (a read/write mix's reads do not
 * count, as fio counts written blocks); with verify_backlog, the
 * read-back's start moves here.
 */
static void kb_vwindow_start(struct kb_worker *w)
{
	struct kb_vw *vw = w->vw;

	vw->phase = KB_VP_WRITE;
	vw->ios_rest = 0;
	vw->wleft = kb_vwindow(&w->job->cfg);
	if (w->job->cfg.verify_backlog || vw->round_bytes) {
		kb_vsave_take(w, &vw->save);
		vw->picks = 0;
	}
}

/*
 * io_round: the worker's budget in rounds of its share of a round's
 * bytes (split as the job's io-bytes is), the last one the rest, each read
 * back before the next is written.
 */
static void kb_vrounds_begin(struct kb_worker *w)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct kb_vw *vw = w->vw;

	if (!cfg->io_round)
		return;
	vw->round_bytes = kb_split_budget(cfg->io_round, w->job->io_unit,
					  w->job->nr_workers, w->index);
	if (!vw->round_bytes || vw->round_bytes >= w->bytes_left) {
		vw->round_bytes = 0;	/* one round: the job's read-back */
		return;
	}
	vw->rounds_rest = w->bytes_left - vw->round_bytes;
	w->bytes_left = vw->round_bytes;
}

/* At the worker's start: its generators, for the read-back to replay. */
void kb_verify_begin(struct kb_worker *w)
{
	if (!w->vw)
		return;
	kb_vrounds_begin(w);
	if (w->bmap.map)	/* a pass from the start, for the read-back */
		kb_bmap_reset(&w->bmap, w->bmap.n);
	kb_vsave_take(w, &w->vw->save);
	w->verifying = w->job->cfg.verify_only && kb_vwrites(&w->job->cfg);
	/* verify-sorted: the write pass is logged, then the log read back */
	if (w->verifying && w->vw->xmap.start) {
		w->verifying = false;
		w->vw->dry = true;
	}
	if ((kb_vwindow(&w->job->cfg) || w->vw->round_bytes) && !w->verifying)
		kb_vwindow_start(w);
}

/* A round of io_round has written its bytes, and another follows. */
static bool kb_vround_end(const struct kb_worker *w)
{
	return w->vw->round_bytes && !w->bytes_left && w->vw->rounds_rest;
}

/* Whether the pass that ended is a round's writes, whose end_fsync is due. */
bool kb_verify_round_ends(const struct kb_worker *w)
{
	return w->vw && w->vw->phase == KB_VP_WRITE && !w->verifying &&
	       kb_vround_end(w);
}

/*
 * After a pass of a worker with windows, the next one, if any:
 *
 *   - after a write window, trim_backlog's trims of the writes it chose
 *     (trim_backlog_batch of them, all there are), at the job's depth; or
 *     verify_backlog's read-back of the window, a replay as the final
 *     read-back's;
 *   - after a round of io_round, its read-back, a replay as the final
 *     read-back's;
 *   - after those, the next window (the next round's first, after a round),
 *     unless the window ended with the job's budget, runtime or a stop.
 *
 * A window ends with nothing in flight: a trim never races its write, and
 * a read-back never reads a block still being written.  Whatever is left
 * for the end (the last window's read-back, chosen writes not trimmed) is
 * kb_verify_next_pass()'s.
 */
bool kb_verify_window_next(struct kb_worker *w)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct kb_vw *vw = w->vw;

	if (!vw || (!kb_vwindow(cfg) && !vw->round_bytes) ||
	    (w->verifying && vw->phase != KB_VP_READBACK))
		return false;
	if (vw->phase == KB_VP_WRITE) {
		kb_vsave_take(w, &vw->after);
		if (!kb_vgo_on(w))
			goto done;
		kb_vpass_reset(w);
		if (vw->ring_len) {
			vw->phase = KB_VP_TRIM;
			w->vtrimming = true;
			w->ios_left = vw->ring_len;	/* batch >= window >= ring */
			w->bytes_left = U64_MAX;
			return true;
		}
		if ((cfg->verify_backlog || kb_vround_end(w)) && cfg->do_verify &&
		    vw->picks) {
			vw->phase = KB_VP_READBACK;
			kb_vsave_put(w, &vw->save);
			w->ios_left = vw->xmap.start ? kb_xmap_readback(w) :
						       vw->picks;
			vw->rb_ios = w->ios_left;
			w->verifying = true;
			w->vdeadline_ns = cfg->max_ns ?
					  w->job->start_ns + cfg->max_ns : U64_MAX;
			vw->picks = 0;
			return true;
		}
	}
	/*
	 * fio's number_ios counts every I/O, verify_backlog's reads too
	 * (exceeds_number_ios()), and stops the writes where the count is
	 * reached: the window's reads come off the budget past it.
	 */
	if (vw->phase == KB_VP_READBACK && cfg->number_ios)
		vw->ios_rest -= min(vw->ios_rest, vw->rb_ios - w->ios_left);
	w->vtrimming = false;
	w->verifying = false;
	w->vsorted = false;
	w->vdeadline_ns = 0;
	kb_vsave_put(w, &vw->after);
	if (!kb_vgo_on(w))
		goto done;
	if (kb_vround_end(w)) {		/* the next round */
		w->bytes_left = min(vw->round_bytes, vw->rounds_rest);
		vw->rounds_rest -= w->bytes_left;
	} else if (w->ios_left || !vw->ios_rest || !w->bytes_left) {
		goto done;		/* not a window's end: the job's */
	}
	if (!w->ios_left)
		w->ios_left = vw->ios_rest;
	kb_vpass_reset(w);
	kb_vwindow_start(w);
	return true;
done:
	kb_vsave_put(w, &vw->after);
	w->ios_left += vw->ios_rest;
	vw->ios_rest = 0;
	return false;
}

/*
 * After the write pass: whether a read-back follows.  It starts once every
 * worker's writes are done (none reads a block another is writing), and
 * replays the write pass's picks, as many as it made: the same offsets and
 * sizes, as reads.  It is bounded by that count, not by the job's runtime;
 * only a stop (or a detached job's cap) ends it sooner.  With windows,
 * only the last one's writes are left to read back.
 */
bool kb_verify_next_pass(struct kb_worker *w)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct kb_job *job = w->job;
	struct kb_vw *vw = w->vw;

	if (!vw || w->verifying || !kb_vwrites(cfg) || !cfg->do_verify)
		return false;
	atomic_dec(&job->vwriters);
	while (atomic_read(&job->vwriters) && !READ_ONCE(job->stop) &&
	       !kthread_should_stop())
		schedule_timeout_idle(1);
	if (READ_ONCE(job->stop) || kthread_should_stop())
		return false;
	kb_vsave_put(w, &vw->save);
	w->ios_left = vw->xmap.start ? kb_xmap_readback(w) :
				       min(w->ios_left, vw->picks);
	kb_vpass_reset(w);
	w->verifying = true;
	w->vdeadline_ns = cfg->max_ns ? job->start_ns + cfg->max_ns : U64_MAX;
	return w->ios_left;
}

/* ---- the job ------------------------------------------------------------- */

/* Whether the job's workers log their writes for a sorted read-back. */
static bool kb_vsorted(const struct kb_config *cfg)
{
	return cfg->verify != KIOBENCH_VERIFY_NONE && cfg->verify_sorted &&
	       cfg->do_verify && kb_vwrites(cfg);
}

/*
 * The log's unit on @dev: a power of two dividing every write's offset (in
 * the span) and length.  Lengths are the sizes drawn (multiples of each
 * bssplit size, bsrange's of its low one) or what a byte budget has left:
 * io-bytes, or the span, whole for a lone worker (kb_split_budget()).
 * Offsets are multiples of min_bs or blockalign (random, zones, skewed),
 * or sums of lengths and rw-seq-add, zonesize, zonerange and zoneskip
 * (sequential, strided), clipped to the span.  Budgets split among workers
 * are whole logical blocks, as are the starts of numjobs' sequential
 * workers: the unit is then at most the device's logical block.
 */
static u8 kb_xmap_shift(const struct kb_config *cfg, const struct kb_dev *dev)
{
	u64 m = cfg->min_bs | cfg->blockalign | dev->span_len | cfg->rw_seq_add |
		cfg->zonesize | cfg->zonerange | cfg->zoneskip | cfg->io_bytes;
	unsigned int i;

	for (i = 0; i < cfg->nr_bss; i++)
		m |= cfg->bss[i].size;
	if (cfg->numjobs * cfg->nr_devs > 1)
		m |= dev->lbs;
	return __ffs64(m);
}

/*
 * Whether the job's replay (not sorted) may meet a write that failed: it
 * goes on from write errors (errors.c: kb_err_go_on()).
 */
static bool kb_vfail_wanted(const struct kb_config *cfg)
{
	return cfg->verify != KIOBENCH_VERIFY_NONE && kb_vwrites(cfg) &&
	       cfg->do_verify && !cfg->verify_only && !cfg->verify_sorted &&
	       (cfg->continue_on_error ||
		cfg->nr_ignore_error[KIOBENCH_ERR_WRITE]);
}

/* Bytes of one bitmap of the log of a worker of @dev. */
static size_t kb_xmap_bytes(const struct kb_config *cfg, const struct kb_dev *dev)
{
	return size_mul(BITS_TO_LONGS(dev->span_len >> kb_xmap_shift(cfg, dev)),
			sizeof(unsigned long));
}

/* @nr bitmaps of the log's units for every worker of the job.  Saturates. */
static size_t kb_xmap_maps_mem(const struct kb_job *job, unsigned int nr)
{
	const struct kb_config *cfg = &job->cfg;
	size_t mem = 0;
	unsigned int i;

	for (i = 0; i < cfg->nr_devs; i++)
		mem = size_add(mem, size_mul(nr * cfg->numjobs,
					     kb_xmap_bytes(cfg, &job->devs[i])));
	return mem;
}

/* verify-sorted's logs: both bitmaps of every worker. */
static size_t kb_xmap_mem(const struct kb_job *job)
{
	return kb_vsorted(&job->cfg) ? kb_xmap_maps_mem(job, 2) : 0;
}

/* The replay's failed maps: one bitmap of every worker. */
static size_t kb_vfail_mem(const struct kb_job *job)
{
	return kb_vfail_wanted(&job->cfg) ? kb_xmap_maps_mem(job, 1) : 0;
}

/*
 * What kb_verify_create() will allocate, charged before it does: the job's
 * records, its pattern and verify_dump's copies, and each worker's state,
 * expected copy, trim ring (trim_backlog entries), verify-sorted's log and
 * the replay's failed map.  Saturates.
 */
u64 kb_verify_mem(const struct kb_job *job)
{
	const struct kb_config *cfg = &job->cfg;
	size_t interval = cfg->verify_interval, w;

	if (cfg->verify == KIOBENCH_VERIFY_NONE)
		return 0;
	w = size_add(sizeof(struct kb_vw), interval);
	w = size_add(w, size_mul(cfg->trim_backlog, sizeof(struct kb_vtrim)));
	return size_add(size_add(size_add(sizeof(struct kb_verify),
					  cfg->verify_pattern ? interval : 0),
				 size_add(kb_xmap_mem(job), kb_vfail_mem(job))),
			size_add(cfg->verify_dump ?
				 size_mul(2 * KB_VDUMP_MAX, interval) : 0,
				 size_mul(job->nr_workers, w)));
}

/*
 * verify-sorted's logs within KIOBENCH_MAX_VERIFY_SORTED_MAP, the replay's
 * failed maps within KIOBENCH_MAX_VERIFY_FAILED_MAP; the devices known.
 */
int kb_verify_check_map(const struct kb_job *job, struct netlink_ext_ack *extack)
{
	if (kb_vfail_mem(job) > KIOBENCH_MAX_VERIFY_FAILED_MAP) {
		NL_SET_ERR_MSG(extack,
			       "verify: the failed writes' map passes max-verify-failed-map (256 MiB a job, a bit a unit of the writes' alignment in each worker's span): a smaller size, larger blocks, fewer numjobs, or no continue_on_error");
		return -E2BIG;
	}
	if (kb_xmap_mem(job) <= KIOBENCH_MAX_VERIFY_SORTED_MAP)
		return 0;
	NL_SET_ERR_MSG(extack,
		       "verify-sorted: the writes' log passes max-verify-sorted-map (64 MiB a job, 2 bits a unit of their alignment in each worker's span): a smaller size, larger blocks, fewer numjobs, or experimental_verify=1");
	return -E2BIG;
}

/* The log's units in the worker's span: the log's and the failed map's. */
static void kb_xmap_geometry(const struct kb_config *cfg, struct kb_worker *w)
{
	struct kb_xmap *x = &w->vw->xmap;

	x->shift = kb_xmap_shift(cfg, w->dev);
	x->units = w->dev->span_len >> x->shift;
	x->maxn = DIV_ROUND_UP(cfg->max_bs, 1U << x->shift);
}

/* A worker's log: both bitmaps, empty. */
static int kb_xmap_alloc(const struct kb_config *cfg, struct kb_worker *w)
{
	struct kb_xmap *x = &w->vw->xmap;
	size_t bytes = kb_xmap_bytes(cfg, w->dev);

	kb_xmap_geometry(cfg, w);
	x->start = kvzalloc(bytes, GFP_KERNEL);
	x->cover = kvzalloc(bytes, GFP_KERNEL);
	return x->start && x->cover ? 0 : -ENOMEM;
}

/* A worker's failed map, empty: a bitmap in the log's units. */
static int kb_vfail_alloc(const struct kb_config *cfg, struct kb_worker *w)
{
	kb_xmap_geometry(cfg, w);
	w->vw->failed = kvzalloc(kb_xmap_bytes(cfg, w->dev), GFP_KERNEL);
	return w->vw->failed ? 0 : -ENOMEM;
}

int kb_verify_create(struct kb_job *job)
{
	const struct kb_config *cfg = &job->cfg;
	u32 interval = cfg->verify_interval;
	struct kb_verify *v;
	unsigned int i;
	u32 pos, n;

	if (cfg->verify == KIOBENCH_VERIFY_NONE)
		return 0;
	v = kvzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	job->verify = v;
	v->interval = interval;
	atomic_set(&job->vwriters, job->nr_workers);
	if (cfg->verify == KIOBENCH_VERIFY_CRC32C)
		v->crc32c = kb_crc32c_fast_get();
	if (cfg->verify == KIOBENCH_VERIFY_MD5) {
		v->md5 = kb_md5_get();	/* kb_parse_verify() took one */
		if (!v->md5)
			goto out_free;
	}
	if (cfg->verify_pattern) {
		v->pat = kvmalloc(interval, GFP_KERNEL);
		if (!v->pat)
			goto out_free;
		for (pos = 0; pos < interval; pos += n) {
			n = min(interval - pos, cfg->verify_pattern_len);
			memcpy(v->pat + pos, cfg->verify_pattern, n);
		}
	}
	if (cfg->verify_dump) {
		v->dump = kvzalloc((size_t)2 * KB_VDUMP_MAX * interval, GFP_KERNEL);
		if (!v->dump)
			goto out_free;
		for (i = 0; i < 2 * KB_VDUMP_MAX; i++)
			v->blob[i / 2][i % 2].data = v->dump + (size_t)i * interval;
	}
	for (i = 0; i < job->nr_workers; i++) {
		struct kb_vw *vw = kvzalloc(sizeof(*vw), GFP_KERNEL);

		if (!vw)
			goto out_free;
		job->workers[i]->vw = vw;
		vw->scratch = kvmalloc(interval, GFP_KERNEL);
		if (!vw->scratch)
			goto out_free;
		if (kb_vsorted(cfg) && kb_xmap_alloc(cfg, job->workers[i]))
			goto out_free;
		if (kb_vfail_wanted(cfg) && kb_vfail_alloc(cfg, job->workers[i]))
			goto out_free;
		if (!cfg->trim_backlog)
			continue;
		vw->ring = kvmalloc_array(cfg->trim_backlog, sizeof(*vw->ring),
					  GFP_KERNEL);
		if (!vw->ring)
			goto out_free;
	}
	return 0;

out_free:
	kb_verify_destroy(job);
	return -ENOMEM;
}

void kb_verify_destroy(struct kb_job *job)
{
	struct kb_verify *v = job->verify;
	unsigned int i;

	if (!v)
		return;
	for (i = 0; job->workers && i < job->nr_workers; i++) {
		struct kb_worker *w = job->workers[i];

		if (!w || !w->vw)
			continue;
		kvfree(w->vw->failed);
		kvfree(w->vw->xmap.cover);
		kvfree(w->vw->xmap.start);
		kvfree(w->vw->ring);
		kvfree(w->vw->scratch);
		kvfree(w->vw);
		w->vw = NULL;
	}
	kb_crc32c_fast_put(v->crc32c);
	kb_md5_put(v->md5);
	kvfree(v->dump);
	kvfree(v->pat);
	kvfree(v);
	job->verify = NULL;
}

static u64 kb_vsum(struct kb_job *job, enum kb_vkind kind)
{
	unsigned int i;
	u64 n = 0;

	for (i = 0; i < job->nr_workers; i++)
		n += READ_ONCE(job->workers[i]->vw->n[kind]);
	return n;
}

static u64 kb_vchecked(struct kb_job *job)
{
	u64 n = 0;
	int k;

	for (k = 0; k < KB_V_NR_KINDS; k++)
		n += kb_vsum(job, k);
	return n;
}

/* Intervals of trimmed blocks read back as zeroes. */
u64 kb_verify_trimmed(struct kb_job *job)
{
	unsigned int i;
	u64 n = 0;

	for (i = 0; i < job->nr_workers; i++)
		n += READ_ONCE(job->workers[i]->vw->trimmed);
	return n;
}

/* What the job status reports: intervals checked (KB_V_OK), or of a kind. */
u64 kb_verify_count(struct kb_job *job, enum kb_vkind kind)
{
	return kind == KB_V_OK ? kb_vchecked(job) : kb_vsum(job, kind);
}

/* ---- the request --------------------------------------------------------- */

static const int kb_verify_attrs[] = {
	KIOBENCH_A_VERIFY_PATTERN, KIOBENCH_A_VERIFY_INTERVAL,
	KIOBENCH_A_VERIFY_OFFSET, KIOBENCH_A_VERIFY_ONLY,
	KIOBENCH_A_VERIFY_FATAL, KIOBENCH_A_VERIFY_DUMP,
	KIOBENCH_A_VERIFY_GENERATION, KIOBENCH_A_VERIFY_BACKLOG,
	KIOBENCH_A_VERIFY_BACKLOG_BATCH, KIOBENCH_A_TRIM_PERCENTAGE,
	KIOBENCH_A_TRIM_BACKLOG, KIOBENCH_A_TRIM_BACKLOG_BATCH,
	KIOBENCH_A_TRIM_VERIFY_ZERO, KIOBENCH_A_VERIFY_SORTED,
};

/*
 * verify_backlog and fio's trims of verified writes: the windows they take
 * and what kiobench does not do of fio's (each refusal says why).
 */
static int kb_parse_backlogs(struct genl_info *info, struct kb_config *cfg)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;

	if (cfg->verify_backlog_batch &&
	    cfg->verify_backlog_batch != cfg->verify_backlog) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_VERIFY_BACKLOG_BATCH],
				    "verify-backlog-batch: only equal to verify-backlog (each block read back once)");
		return -EOPNOTSUPP;
	}
	if (cfg->verify_backlog && (cfg->verify_only || cfg->trim_backlog)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_VERIFY_BACKLOG],
				    "verify-backlog: not with verify-only (nothing is written) or trim-backlog");
		return -EOPNOTSUPP;
	}
	if (!!cfg->trim_percentage != !!cfg->trim_backlog) {
		NL_SET_ERR_MSG_ATTR(extack, tb[cfg->trim_backlog ?
					       KIOBENCH_A_TRIM_BACKLOG :
					       KIOBENCH_A_TRIM_PERCENTAGE],
				    "trim-percentage, trim-backlog: one without the other sends no trim (fio sends its trims every trim-backlog writes)");
		return -EINVAL;
	}
	if (!cfg->trim_backlog) {
		if (tb[KIOBENCH_A_TRIM_BACKLOG_BATCH] || tb[KIOBENCH_A_TRIM_VERIFY_ZERO]) {
			NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_TRIM_BACKLOG_BATCH] ?:
					    tb[KIOBENCH_A_TRIM_VERIFY_ZERO],
					    "trim-*: only with trim-percentage and trim-backlog");
			return -EINVAL;
		}
		return 0;
	}
	if (cfg->verify_only) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_TRIM_BACKLOG],
				    "trim-backlog: not with verify-only (nothing is written to trim)");
		return -EOPNOTSUPP;
	}
	if (!cfg->trim_backlog_batch)
		cfg->trim_backlog_batch = cfg->trim_backlog;
	if (cfg->trim_backlog_batch < cfg->trim_backlog) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_TRIM_BACKLOG_BATCH],
				    "trim-backlog-batch: below trim-backlog the chosen writes would pile up without bound");
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * verify-sorted: only where the log is fio's io_hist rb-tree.  fio's trim
 * list would need more of it than the log keeps: refused, the replay
 * (experimental_verify) does it.  verify-only logs
 * its write pass without running it (fio's do_dry_run()), bounded by the
 * pass's budget, not by a runtime.
 */
static int kb_parse_sorted(struct genl_info *info, struct kb_config *cfg)
{
	struct nlattr *attr = info->attrs[KIOBENCH_A_VERIFY_SORTED];

	if (!cfg->verify_sorted)
		return 0;
	if (!cfg->do_verify || !kb_vwrites(cfg)) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "verify-sorted: only for a job that writes and reads back (do-verify)");
		return -EINVAL;
	}
	if (cfg->trim_backlog) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "verify-sorted: not with trim-backlog, whose trims the log does not model; set experimental_verify=1 (the write pass replayed)");
		return -EOPNOTSUPP;
	}
	if (cfg->verify_only && !cfg->io_bytes && !cfg->number_ios &&
	    cfg->runtime_ns) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "verify-sorted: verify-only logs the write pass without running it, which a runtime alone does not end: a size, io-bytes or number-ios, or experimental_verify=1");
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * io-round: rounds of a budget of bytes alone; with verify, not with
 * trim-backlog, whose ring and trims the rounds do not start again;
 * without, only for end-fsync's flushes (kb_worker_rounds()).
 */
static int kb_parse_round(struct genl_info *info, const struct kb_config *cfg)
{
	bool verify = cfg->verify != KIOBENCH_VERIFY_NONE && cfg->do_verify &&
		      kb_vwrites(cfg);

	if (!cfg->io_round)
		return 0;
	if (cfg->number_ios || cfg->io_round >= cfg->io_bytes ||
	    (verify && (cfg->verify_only || cfg->trim_backlog)) ||
	    (!verify && !cfg->end_fsync)) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[KIOBENCH_A_IO_ROUND],
				    "io-round: needs io-bytes above it, and do-verify on a job that writes (not with verify-only or trim-backlog) or end-fsync; not with number-ios");
		return -EINVAL;
	}
	return 0;
}

/* The verify attributes' rules across attributes; after bssplit's. */
int kb_parse_verify(struct genl_info *info, struct kb_config *cfg)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	struct nlattr *pat = tb[KIOBENCH_A_VERIFY_PATTERN];
	unsigned int i;

	if (cfg->verify == KIOBENCH_VERIFY_NONE) {
		for (i = 0; i < ARRAY_SIZE(kb_verify_attrs); i++) {
			if (!tb[kb_verify_attrs[i]])
				continue;
			NL_SET_ERR_MSG_ATTR(extack, tb[kb_verify_attrs[i]],
					    "verify-*: only with verify");
			return -EINVAL;
		}
		return kb_parse_round(info, cfg);
	}
	if (cfg->trim_mode || cfg->write_zeroes) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_VERIFY],
				    "verify: not with trim-mode or write-zeroes; their blocks carry no data to check");
		return -EOPNOTSUPP;
	}
	if (cfg->verify == KIOBENCH_VERIFY_MD5) {
		struct crypto_shash *md5 = kb_md5_get();

		if (!md5) {
			NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_VERIFY],
					    "verify: md5: no md5 hash to take on this kernel (the crypto API's: CONFIG_CRYPTO_MD5, with CONFIG_CRYPTO_HASH2 built in); use crc32c, crc64, xxhash or sha256");
			return -EOPNOTSUPP;
		}
		kb_md5_put(md5);
	}
	if (pat && !nla_len(pat)) {
		NL_SET_ERR_MSG_ATTR(extack, pat, "verify-pattern: empty");
		return -EINVAL;
	}
	if (!pat && cfg->verify == KIOBENCH_VERIFY_PATTERN) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_VERIFY],
				    "verify: pattern needs verify-pattern");
		return -EINVAL;
	}
	if (!cfg->verify_interval)
		cfg->verify_interval = cfg->min_bs;
	if (cfg->verify_interval % SECTOR_SIZE) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_VERIFY_INTERVAL],
				    "verify-interval: must be a multiple of 512");
		return -EINVAL;
	}
	for (i = 0; i < cfg->nr_bss; i++) {
		if (cfg->bss[i].size % cfg->verify_interval) {
			NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_VERIFY_INTERVAL],
					    "verify-interval: must divide every block size");
			return -EINVAL;
		}
	}
	if (kb_vhas_hdr(cfg) &&
	    (u64)cfg->verify_offset + sizeof(struct kb_vhdr) > cfg->verify_interval) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_VERIFY_OFFSET],
				    "verify-offset: the 72-byte header must end within verify-interval");
		return -EINVAL;
	}
	i = kb_parse_backlogs(info, cfg);
	if (i)
		return i;
	i = kb_parse_sorted(info, cfg);
	if (i)
		return i;
	i = kb_parse_round(info, cfg);
	if (i)
		return i;
	if (pat) {
		cfg->verify_pattern = kmemdup(nla_data(pat), nla_len(pat), GFP_KERNEL);
		if (!cfg->verify_pattern)
			return -ENOMEM;
		cfg->verify_pattern_len = nla_len(pat);
	}
	return 0;
}

/* ---- debugfs ------------------------------------------------------------- */

static void kb_vhdr_show(struct seq_file *m, const char *what,
			 const struct kb_vhdr *h)
{
	seq_printf(m, " %s_magic=%#x %s_offset=%llu %s_seed=%#llx %s_generation=%u %s_csum=%*phN",
		   what, le32_to_cpu(h->magic), what, le64_to_cpu(h->offset),
		   what, le64_to_cpu(h->seed), what, le32_to_cpu(h->gen), what,
		   min_t(int, h->csum_len, 32), h->csum);
}

static int kb_verify_show(struct seq_file *m, void *unused)
{
	struct kb_job *job = m->private;
	struct kb_verify *v = job->verify;
	int i, n = min(atomic_read(&v->nr_mis), KB_VLOG_MAX);

	seq_printf(m, "verified=%llu corrupt=%llu misdirected=%llu stale=%llu trimmed=%llu\n",
		   kb_vchecked(job), kb_vsum(job, KB_V_CORRUPT),
		   kb_vsum(job, KB_V_MISDIRECTED), kb_vsum(job, KB_V_STALE),
		   kb_verify_trimmed(job));
	for (i = 0; i < n; i++) {
		struct kb_vmis *r = &v->mis[i];

		/* pairs with kb_vmismatch()'s release: the fields are set */
		if (!smp_load_acquire(&r->ready))
			continue;
		seq_printf(m, "mismatch=%d kind=%s device=%s offset=%llu interval=%u trimmed=%d header=%d",
			   i, kb_vkind_names[r->kind], job->cfg.paths[r->dev],
			   r->off, v->interval, r->trimmed, r->hdr);
		if (r->diff == KB_VPAT_ALL)
			seq_puts(m, " first_diff=-1");
		else
			seq_printf(m, " first_diff=%u expected_byte=%#04x found_byte=%#04x",
				   r->diff, r->exp_byte, r->found_byte);
		if (kb_vhas_hdr(&job->cfg)) {
			kb_vhdr_show(m, "expected", &r->exp);
			kb_vhdr_show(m, "found", &r->found);
		}
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kb_verify);

/*
 * <job>/verify: the counts and the recorded mismatches; with verify_dump,
 * <job>/verify_dump/<N>.expected and <N>.received, each empty until the
 * Nth mismatch fills it.
 */
int kb_verify_debugfs(struct kb_job *job, struct dentry *dir)
{
	struct kb_verify *v = job->verify;
	struct dentry *d, *f;
	char name[24];
	unsigned int i;

	if (!v)
		return 0;
	f = debugfs_create_file("verify", 0400, dir, job, &kb_verify_fops);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (!v->dump)
		return 0;
	d = debugfs_create_dir("verify_dump", dir);
	if (IS_ERR(d))
		return PTR_ERR(d);
	for (i = 0; i < 2 * KB_VDUMP_MAX; i++) {
		snprintf(name, sizeof(name), "%u.%s", i / 2,
			 i % 2 ? "received" : "expected");
		f = debugfs_create_blob(name, 0400, d, &v->blob[i / 2][i % 2]);
		if (IS_ERR(f))
			return PTR_ERR(f);
	}
	return 0;
}
