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

/* At the job's creation: the whole of a slot's buffer. */
void kb_data_fill_slot(struct kb_worker *w, struct kb_slot *slot)
{
	kb_dfill_buffer(&w->job->cfg, slot, slot->nr_pages * PAGE_SIZE, &w->rng);
	if (w->job->cfg.refill_buffers)
		kb_rng_seed(&w->drng, kb_rng_next(&w->rng));
}

/* Before the submission of a write of @len bytes at device offset @off. */
void kb_data_write(struct kb_worker *w, struct kb_slot *slot, u64 off, u32 len)
{
	const struct kb_config *cfg = &w->job->cfg;
	u32 line, pos;
	u8 *sec;

	if (cfg->refill_buffers) {
		kb_dfill_buffer(cfg, slot, len, &w->drng);
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
			    cfg->buffer_compress_percentage)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KIOBENCH_A_VERIFY],
				    "verify: its writes carry verify's data, not buffer-fill, buffer-pattern, refill-buffers or buffer-compress-percentage (use verify-pattern)");
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
	if (cfg->verify || cfg->write_zeroes || cfg->buffer_compress_percentage)
		cfg->scramble_buffers = false;
	if (!pat)
		return 0;
	cfg->buffer_pattern = kmemdup(nla_data(pat), nla_len(pat), GFP_KERNEL);
	if (!cfg->buffer_pattern)
		return -ENOMEM;
	cfg->buffer_pattern_len = nla_len(pat);
	return 0;
}
