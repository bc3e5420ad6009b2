// SPDX-License-Identifier: GPL-2.0
/*
 * What a job's writes carry, with fio's meanings.  A worker's slots are
 * filled when the job is created: pseudo-random bytes from the worker's
 * seed (fio's default), zeroes (zero_buffers), buffer_pattern's bytes, or
 * buffer_compress_percentage's mix.  Then, before each write's submission:
 *
 *   - refill_buffers (which the tool sets with buffer_compress_percentage,
 *     as fio does, unless refill_buffers=0 is given) fills the
 *     write's bytes anew, from a generator of the worker's own, so the
 *     offsets drawn do not change with it;
 *   - otherwise, unless the buffer is buffer_compress_percentage's,
 *     scramble_buffers (fio's default) writes, in every 512-byte
 *     sector, the sector's device offset into one of its first eight
 *     64-byte lines (chosen per write, as fio chooses) and the worker's
 *     write count at byte 48: no two writes carry the same sector, which
 *     defeats a device's naive deduplication, as fio's does.
 *
 * dedupe_percentage (with refill_buffers, as fio sets it) fills each write
 * from a seed of its own, so that a write can carry an earlier one's
 * content: drawn for each write, that share replays the seed of the
 * worker's previous unique write (dedupe_mode repeat) or of a page of its
 * working set (working_set: its first unique writes, as fio's, or, with
 * dedupe_global, the first ones of every worker of the job, or of every
 * job of the run with dedupe-global-workers, an even share each); the
 * others take the next seed of their own.  A seed is a function of the
 * job's (or the group's) seed, the worker and the unique write's number, so nothing
 * is kept of the writes, nothing is shared and nothing is locked; the
 * buffer_compress_percentage layout is filled from it as from any seed.
 *
 * A verified job's writes carry verify's data (verify.c), and write zeroes
 * carries none: neither is touched here.  Nothing allocates per I/O.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "kiobench.h"

#define KB_SECTOR	512

/* @n random bytes at @p, eight from each draw. */
static void kb_drandom(u8 *p, u32 n, struct kb_rng *rng)
{
	u32 i;

	for (i = 0; i < n; i += sizeof(u64)) {
		u64 v = kb_rng_next(rng);

		memcpy(p + i, &v, min_t(u32, sizeof(v), n - i));
	}
}

/* @n bytes of the pattern at @p from its byte @at; the next byte's index. */
static u32 kb_dpattern(u8 *p, u32 n, const struct kb_config *cfg, u32 at)
{
	while (n) {
		u32 k = min(n, cfg->buffer_pattern_len - at);

		memcpy(p, cfg->buffer_pattern + at, k);
		p += k;
		n -= k;
		at = (at + k) % cfg->buffer_pattern_len;
	}
	return at;
}

enum kb_dkind { KB_D_RANDOM, KB_D_FIXED };

/*
 * @n bytes of @slot's buffer from byte @pos: random, or fixed (the
 * pattern from its start, else zeroes).
 */
static void kb_dfill(const struct kb_config *cfg, struct kb_slot *slot, u32 pos,
		     u32 n, enum kb_dkind kind, struct kb_rng *rng)
{
	u32 at = 0;

	while (n) {
		u32 in = offset_in_page(pos), k = min_t(u32, n, PAGE_SIZE - in);
		u8 *p = (u8 *)page_address(slot->pages[pos >> PAGE_SHIFT]) + in;

		if (kind == KB_D_RANDOM)
			kb_drandom(p, k, rng);
		else if (cfg->buffer_pattern)
			at = kb_dpattern(p, k, cfg, at);
		else
			memset(p, 0, k);
		pos += k;
		n -= k;
	}
}

/*
 * The first @len bytes of @slot's buffer, as the job's options say; with
 * buffer_compress_percentage N, each chunk is (100 - N) % random bytes
 * then N % fixed ones, as fio's fill_random_buf_percentage() lays it out.
 */
static void kb_dfill_buffer(const struct kb_config *cfg, struct kb_slot *slot,
			    u32 len, struct kb_rng *rng)
{
	u32 chunk, pos, r;

	if (cfg->buffer_compress_percentage) {
		chunk = min(cfg->buffer_compress_chunk ?: len, len);
		for (pos = 0; pos < len; pos += chunk) {
			chunk = min(chunk, len - pos);
			r = div_u64((u64)chunk * (100 - cfg->buffer_compress_percentage), 100);
			kb_dfill(cfg, slot, pos, r, KB_D_RANDOM, rng);
			kb_dfill(cfg, slot, pos + r, chunk - r, KB_D_FIXED, rng);
		}
	} else if (cfg->buffer_fill == KIOBENCH_BUFFER_RANDOM) {
		kb_dfill(cfg, slot, 0, len, KB_D_RANDOM, rng);
	} else {
		kb_dfill(cfg, slot, 0, len, KB_D_FIXED, rng);
	}
}

/* dedupe: the seed of unique write @k of worker @s (below 2^24 workers). */
static u64 kb_dseed(const struct kb_dedupe *dd, u64 s, u64 k)
{
	return dd->key + (s << 40) + k;
}

/* The smallest size a write of the job may have. */
static u32 kb_min_write_bs(const struct kb_config *cfg)
{
	const struct kb_bss_dir *t = &cfg->bsd[KIOBENCH_DIR_WRITE];
	u32 bs = U32_MAX;
	unsigned int i;

	for (i = t->first; i < t->first + t->nr; i++)
		bs = min(bs, cfg->bss[i].size);
	return t->nr ? bs : cfg->min_bs;
}

/*
 * dedupe: the working set is dedupe_working_set_percentage of the
 * device's span, in pages of the smallest write (fio's min_bs), at least
 * one; with dedupe_global, an even share of it from each worker's first
 * unique writes, as fio spreads its jobs'.
 */
static void kb_dedupe_init(struct kb_worker *w)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct kb_dedupe *dd = &w->dd;
	bool group = cfg->dedupe_global_workers;

	dd->key = (group ? cfg->dedupe_global_seed : cfg->seed) ^ 0xd5a61266f0c9392cULL;
	dd->self = (group ? cfg->dedupe_global_first : 0) + w->index;
	dd->sharers = group ? cfg->dedupe_global_workers : w->job->nr_workers;
	dd->unique = 0;
	dd->prev = kb_dseed(dd, dd->self, 0);
	dd->ws_pages = div_u64(div_u64(w->dev->span_len *
				       cfg->dedupe_working_set_percentage, 100),
			       kb_min_write_bs(cfg)) ?: 1;
	dd->ws_share = div_u64(dd->ws_pages, dd->sharers) ?: 1;
}

/* working_set: the seed of page @i of the worker's working set. */
static u64 kb_dws_seed(struct kb_worker *w, u64 i)
{
	const struct kb_dedupe *dd = &w->dd;
	u64 s = dd->self, k = i, q;

	if (w->job->cfg.dedupe_global) {
		q = div64_u64_rem(i, dd->ws_share, &k);
		s += q;
		s = do_div(s, dd->sharers);
	}
	return kb_dseed(dd, s, k);
}

/*
 * The seed of the next write's content: dedupe_percentage % of the writes
 * (all at 100, as fio) an earlier content's, the others a new one.
 */
static u64 kb_dedupe_seed(struct kb_worker *w)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct kb_dedupe *dd = &w->dd;

	if (cfg->dedupe_percentage == 100)
		return dd->prev;
	if (kb_rng_below(&w->drng, 100) < cfg->dedupe_percentage) {
		if (cfg->dedupe_mode == KIOBENCH_DEDUPE_WORKING_SET)
			return kb_dws_seed(w, kb_rng_below(&w->drng, dd->ws_pages));
		return dd->prev;
	}
	dd->prev = kb_dseed(dd, dd->self, dd->unique++);
	return dd->prev;
}

/* At the job's creation: the whole of a slot's buffer. */
void kb_data_fill_slot(struct kb_worker *w, struct kb_slot *slot)
{
	kb_dfill_buffer(&w->job->cfg, slot, slot->nr_pages * PAGE_SIZE, &w->rng);
	if (w->job->cfg.refill_buffers)
		kb_rng_seed(&w->drng, kb_rng_next(&w->rng));
	if (w->job->cfg.dedupe_percentage)
		kb_dedupe_init(w);
}

/* Before the submission of a write of @len bytes at device offset @off. */
void kb_data_write(struct kb_worker *w, struct kb_slot *slot, u64 off, u32 len)
{
	const struct kb_config *cfg = &w->job->cfg;
	u32 line, pos;
	u8 *sec;

	if (cfg->refill_buffers) {
		struct kb_rng r, *rng = &w->drng;

		if (cfg->dedupe_percentage) {
			kb_rng_seed(&r, kb_dedupe_seed(w));
			rng = &r;
		}
		kb_dfill_buffer(cfg, slot, len, rng);
		return;
	}
	line = (w->dwrites ^ (off >> SECTOR_SHIFT)) & 7;
	for (pos = 0; pos + KB_SECTOR <= len; pos += KB_SECTOR) {
		sec = (u8 *)page_address(slot->pages[pos >> PAGE_SHIFT]) +
		      offset_in_page(pos);
		*(u64 *)(sec + line * 64) = off + pos;
		*(u64 *)(sec + 48) = w->dwrites;
	}
	w->dwrites++;
}

/*
 * buffer-pattern, and what goes with what.  Verify's writes carry its own
 * data: the options that choose data are refused with it, as is a
 * pattern nothing uses.
 */
int kb_parse_data(struct genl_info *info, struct kb_config *cfg)
{
	struct nlattr *pat = info->attrs[KIOBENCH_A_BUFFER_PATTERN];
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	bool want_pat = cfg->buffer_fill == KIOBENCH_BUFFER_PATTERN;

	if (cfg->verify && (cfg->buffer_fill || pat || cfg->refill_buffers ||
			    cfg->buffer_compress_percentage ||
			    cfg->dedupe_percentage)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_VERIFY],
				    "verify: its writes carry verify's data, not buffer-fill, buffer-pattern, refill-buffers, buffer-compress-percentage or dedupe-percentage (use verify-pattern)");
		return -EINVAL;
	}
	if (pat && !nla_len(pat)) {
		NL_SET_ERR_MSG_ATTR(extack, pat, "buffer-pattern: empty");
		return -EINVAL;
	}
	if (!pat == want_pat && !(pat && cfg->buffer_compress_percentage)) {
		NL_SET_ERR_MSG_ATTR(extack, pat ?: tb[KIOBENCH_A_BUFFER_FILL],
				    "buffer-pattern: with buffer-fill pattern (or buffer-compress-percentage), and only then");
		return -EINVAL;
	}
	if (tb[KIOBENCH_A_BUFFER_COMPRESS_CHUNK] && !cfg->buffer_compress_percentage) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_BUFFER_COMPRESS_CHUNK],
				    "buffer-compress-chunk: only with buffer-compress-percentage");
		return -EINVAL;
	}
	/*
	 * What each write does, decided once and reported as done: verify
	 * fills its writes itself, write zeroes carries no data, and fio
	 * scrambles no compressible buffer.
	 */
	if (cfg->verify || cfg->write_zeroes)
		cfg->refill_buffers = false;
	if (cfg->verify || cfg->write_zeroes || cfg->buffer_compress_percentage ||
	    cfg->dedupe_percentage)
		cfg->scramble_buffers = false;
	if (!pat)
		return 0;
	cfg->buffer_pattern = kmemdup(nla_data(pat), nla_len(pat), GFP_KERNEL);
	if (!cfg->buffer_pattern)
		return -ENOMEM;
	cfg->buffer_pattern_len = nla_len(pat);
	return 0;
}

/*
 * dedupe-percentage and its options, after kb_parse_data(): only with
 * refill-buffers (a buffer filled once cannot be chosen per write), and
 * fio's rules for the working set.
 */
int kb_parse_dedupe(struct genl_info *info, struct kb_config *cfg)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	bool ws = cfg->dedupe_mode == KIOBENCH_DEDUPE_WORKING_SET;
	struct nlattr *group = tb[KIOBENCH_A_DEDUPE_GLOBAL_SEED] ?:
			       tb[KIOBENCH_A_DEDUPE_GLOBAL_FIRST] ?:
			       tb[KIOBENCH_A_DEDUPE_GLOBAL_WORKERS];

	if (!cfg->dedupe_percentage) {
		struct nlattr *a = tb[KIOBENCH_A_DEDUPE_MODE] ?:
				   tb[KIOBENCH_A_DEDUPE_WORKING_SET_PERCENTAGE] ?:
				   tb[KIOBENCH_A_DEDUPE_GLOBAL] ?: group;

		if (!a)
			return 0;
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "dedupe-mode, -working-set-percentage, -global (and its group): only with dedupe-percentage");
		return -EINVAL;
	}
	if (cfg->write_zeroes) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_DEDUPE_PERCENTAGE],
				    "dedupe-percentage: write-zeroes carries no data");
		return -EINVAL;
	}
	if (!cfg->refill_buffers) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_DEDUPE_PERCENTAGE],
				    "dedupe-percentage: only with refill-buffers: a buffer filled once is not chosen per write");
		return -EINVAL;
	}
	if (!ws && (tb[KIOBENCH_A_DEDUPE_WORKING_SET_PERCENTAGE] ||
		    cfg->dedupe_global)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_DEDUPE_WORKING_SET_PERCENTAGE] ?:
				    tb[KIOBENCH_A_DEDUPE_GLOBAL],
				    "dedupe-working-set-percentage, dedupe-global: only with dedupe-mode working-set");
		return -EINVAL;
	}
	if (!cfg->dedupe_global && group) {
		NL_SET_ERR_MSG_ATTR(extack, group,
				    "dedupe-global-seed, -first, -workers: only with dedupe-global");
		return -EINVAL;
	}
	if (group && !(tb[KIOBENCH_A_DEDUPE_GLOBAL_SEED] && tb[KIOBENCH_A_DEDUPE_GLOBAL_FIRST] &&
		       tb[KIOBENCH_A_DEDUPE_GLOBAL_WORKERS])) {
		NL_SET_ERR_MSG_ATTR(extack, group,
				    "dedupe-global-seed, -first, -workers: all three or none");
		return -EINVAL;
	}
	/* numjobs x devices is at most KB_MAX_WORKERS: no overflow */
	if (group && (u64)cfg->dedupe_global_first + cfg->numjobs * cfg->nr_devs >
		     cfg->dedupe_global_workers) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_DEDUPE_GLOBAL_FIRST],
				    "dedupe-global-first: the job's workers (numjobs x devices) from it pass dedupe-global-workers");
		return -EINVAL;
	}
	if (ws && cfg->dedupe_working_set_percentage + cfg->dedupe_percentage > 100) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_DEDUPE_WORKING_SET_PERCENTAGE],
				    "dedupe-working-set-percentage: its sum with dedupe-percentage above 100 (the working set's pages are unique), as fio refuses");
		return -EINVAL;
	}
	return 0;
}
