// SPDX-License-Identifier: GPL-2.0
/*
 * Offset, transfer size and random number generation.  Pure functions of
 * their arguments, so that a seed reproduces a run and KUnit can check
 * them.
 */
#include <linux/bitmap.h>
#include <linux/export.h>
#include <linux/find.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "kiobench.h"

static u64 kb_splitmix64(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* xoshiro256** seeded through splitmix64, as its authors recommend. */
void kb_rng_seed(struct kb_rng *rng, u64 seed)
{
	int i;

	for (i = 0; i < 4; i++)
		rng->s[i] = kb_splitmix64(&seed);
}
EXPORT_SYMBOL_IF_KUNIT(kb_rng_seed);

u64 kb_rng_next(struct kb_rng *rng)
{
	u64 *s = rng->s;
	u64 result = rol64(s[1] * 5, 7) * 9;
	u64 t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rol64(s[3], 45);
	return result;
}
EXPORT_SYMBOL_IF_KUNIT(kb_rng_next);

/*
 * Uniform in [0, n) by multiply-shift; the bias is below n / 2^64, far
 * under anything measurable for n up to the number of blocks of a device.
 */
u64 kb_rng_below(struct kb_rng *rng, u64 n)
{
	return (u64)(((__uint128_t)kb_rng_next(rng) * n) >> 64);
}
EXPORT_SYMBOL_IF_KUNIT(kb_rng_below);

/* A range's size for a uniform byte count @u below its high: see below. */
static u32 kb_range_len(const struct kb_bss *b, u64 u)
{
	u64 len = b[0].size + u;

	do_div(len, b[0].size);		/* in multiples of low */
	return min_t(u64, len * b[0].size, b[1].size);
}

/*
 * A transfer size drawn from a weighted bssplit table of several sizes, or
 * a range's, as fio's get_next_buflen() draws bsrange's: low plus a
 * uniform byte count below high, down to a multiple of low, at most high
 * (below 2^33: no overflow in u64).
 */
u32 kb_pick_bs_drawn(const struct kb_bss_dir *t, const struct kb_bss *b,
		     struct kb_rng *rng)
{
	unsigned int i;
	u32 r;

	if (t->range)
		return kb_range_len(b, kb_rng_below(rng, b[1].size));
	r = kb_rng_below(rng, t->total_weight);
	for (i = 0; i < t->nr - 1U; i++)
		if (r < b[i].cum_weight)
			break;
	return b[i].size;
}
EXPORT_SYMBOL_IF_KUNIT(kb_pick_bs_drawn);

/*
 * A random offset, relative to the span, aligned to @align, such that
 * [offset, offset + len) lies inside the span.  Needs len <= span_len.
 */
u64 kb_rand_offset(struct kb_rng *rng, u64 span_len, u32 len, u32 align)
{
	u64 slots = div_u64(span_len - len, align) + 1;

	return kb_rng_below(rng, slots) * align;
}
EXPORT_SYMBOL_IF_KUNIT(kb_rand_offset);

/*
 * fio's zoned random distributions: direction @dir's zones in order from
 * the start of the span, zone i taking z[i].access percent of the offsets,
 * mapped to the 100 percents of the accesses as fio's zone index does.
 * -EINVAL unless the accesses add up to exactly 100 and, for percentages
 * of the span, the sizes to at most 100.
 */
int kb_zones_build(struct kb_zones *zs, unsigned int dir)
{
	unsigned int i, j, at = 0;
	u64 lo = 0;

	for (i = 0; i < zs->nr[dir]; i++) {
		const struct kb_zone *z = &zs->z[dir][i];

		if (at + z->access > KB_ZONE_PCTS)
			return -EINVAL;
		for (j = at; j < at + z->access; j++)
			zs->at[dir][j] = (struct kb_zone_range){ lo, lo + z->size };
		at += z->access;
		/* zoned_abs past 2^64: saturated, kb_zones_bytes() as well */
		if (check_add_overflow(lo, z->size, &lo))
			lo = U64_MAX;
	}
	if (at != KB_ZONE_PCTS || (!zs->abs && lo > KB_ZONE_PCTS))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kb_zones_build);

/*
 * The bytes that zoned_abs zones of @dir cover (0 for percentages),
 * U64_MAX past it: a sum that wrapped would pass for a small one.
 */
u64 kb_zones_bytes(const struct kb_zones *zs, unsigned int dir)
{
	u64 sum = 0;
	unsigned int i;

	for (i = 0; zs->abs && i < zs->nr[dir]; i++)
		if (check_add_overflow(sum, zs->z[dir][i].size, &sum))
			return U64_MAX;
	return sum;
}
EXPORT_SYMBOL_IF_KUNIT(kb_zones_bytes);

/*
 * A random offset of direction @dir, relative to the span: a percent of
 * the accesses picks the zone, then a block of the zone, uniformly, as
 * fio: the span's blocks of @align bytes, a zone of percentages starting
 * at block lo * blocks / 100 and holding blocks * (hi - lo) / 100 of them,
 * a zone of bytes at block lo / align with (hi - lo) / align.  An I/O
 * longer than @align that would end past the span is moved back into it.
 */
u64 kb_zone_offset(const struct kb_zones *zs, unsigned int dir,
		   struct kb_rng *rng, u64 span_len, u32 len, u32 align)
{
	const struct kb_zone_range *r;
	u64 blocks = div_u64(span_len, align), first, n, off;

	r = &zs->at[dir][kb_rng_below(rng, KB_ZONE_PCTS)];
	if (zs->abs) {
		first = div_u64(r->lo, align);
		n = div_u64(r->hi, align) - first;
	} else {
		first = div_u64(r->lo * blocks, KB_ZONE_PCTS);
		n = div_u64(blocks * (r->hi - r->lo), KB_ZONE_PCTS);
	}
	off = (first + kb_rng_below(rng, n ?: 1)) * align;
	return min(off, rounddown(span_len - len, align));
}
EXPORT_SYMBOL_IF_KUNIT(kb_zone_offset);

/*
 * fio's skewed distributions as a table of the ranks' inverse
 * distribution: -EINVAL unless rank increases strictly and cum does not
 * fall, both from 0, and cum ends at 2^32 (a piece of ranks whose cum
 * equals the next one's is never drawn).
 */
int kb_cdf_check(const struct kiobench_cdf_ent *t, unsigned int nr)
{
	unsigned int i;

	if (nr < 2 || t[0].cum || t[0].rank || t[nr - 1].cum != BIT_ULL(32))
		return -EINVAL;
	for (i = 1; i < nr; i++)
		if (t[i].cum < t[i - 1].cum || t[i].rank <= t[i - 1].rank)
			return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kb_cdf_check);

/*
 * The rank of draw @x (32 bits): between the entries whose cum enclose it,
 * interpolated, so that each piece's ranks are equally likely.
 */
u64 kb_cdf_rank(const struct kiobench_cdf_ent *t, unsigned int nr, u64 x)
{
	unsigned int lo = 0, hi = nr - 1, mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (t[mid].cum <= x)
			lo = mid;
		else
			hi = mid;
	}
	return t[lo].rank + mul_u64_u64_div_u64(x - t[lo].cum,
						t[hi].rank - t[lo].rank,
						t[hi].cum - t[lo].cum);
}
EXPORT_SYMBOL_IF_KUNIT(kb_cdf_rank);

/*
 * The Feistel network run backwards (gen.h has the map's description):
 * round i took (l, r) to (r, l ^ F(r)), so it gives l back as the right
 * half, with the left half's size, xored with F of the left.
 */
static u64 kb_perm_feistel_inv(const struct kb_perm *p, u64 x)
{
	unsigned int lb = p->bits - p->half, rb = p->half, i;
	u64 l = x >> rb, r = x & (BIT_ULL(rb) - 1), t;

	for (i = KB_PERM_ROUNDS; i-- > 0;) {
		t = r ^ kb_perm_round(l, p->keys[i], rb);
		r = l;
		l = t;
		swap(lb, rb);
	}
	return (l << rb) | r;
}

/* The permutation of [0, @n) (n >= 1) that @key selects. */
void kb_perm_init(struct kb_perm *p, u64 n, u64 key)
{
	unsigned int i;

	p->n = n;
	p->bits = n > 1 ? fls64(n - 1) : 1;
	p->half = p->bits / 2;
	for (i = 0; i < KB_PERM_ROUNDS; i++)
		p->keys[i] = kb_splitmix64(&key);
}
EXPORT_SYMBOL_IF_KUNIT(kb_perm_init);

/* Where the permutation puts index @v (< n): kb_perm_at()'s inverse. */
u64 kb_perm_pos(const struct kb_perm *p, u64 v)
{
	do
		v = kb_perm_feistel_inv(p, v);
	while (v >= p->n);
	return v;
}
EXPORT_SYMBOL_IF_KUNIT(kb_perm_pos);

/*
 * The key of pass @pass of the map that @seed selects: every pass a new
 * permutation, the same for every worker that shares the map.
 */
static u64 kb_rmap_key(u64 seed, u64 pass)
{
	u64 x = seed ^ 0x72616e646d6170ULL;	/* "randmap" */

	x = kb_splitmix64(&x) + pass;
	return kb_splitmix64(&x);
}

/*
 * Part @part of @parts of the passes over @n blocks: the workers that share
 * a span take consecutive shares of each pass's positions, so that together
 * they visit every block once per pass (a worker with an empty share walks
 * whole passes).
 */
void kb_rmap_init(struct kb_rmap *m, u64 n, u64 seed, unsigned int parts,
		  unsigned int part)
{
	u32 extra;
	u64 per = div_u64_rem(n, parts, &extra);

	m->seed = seed;
	m->pass = 0;
	m->lo = per * part + min(part, extra);
	m->hi = m->lo + per + (part < extra ? 1 : 0);
	if (m->lo == m->hi) {
		m->lo = 0;
		m->hi = n;
	}
	m->next = m->lo;
	kb_perm_init(&m->perm, n, kb_rmap_key(seed, 0));
}
EXPORT_SYMBOL_IF_KUNIT(kb_rmap_init);

/* Past the end of the worker's share: a new pass, a new key. */
void kb_rmap_new_pass(struct kb_rmap *m)
{
	m->pass++;
	m->next = m->lo;
	kb_perm_init(&m->perm, m->perm.n, kb_rmap_key(m->seed, m->pass));
}
EXPORT_SYMBOL_IF_KUNIT(kb_rmap_new_pass);

/*
 * fio's get_next_buflen() where a transfer of @dir starts @room bytes
 * before the map's end (io_u_fits()), and the size drawn, @len (as the
 * budget clamped it), does not fit.  fio draws until a size fits, which
 * is, without a loop:
 *
 *   - for a range, a draw from the sizes that fit: the uniform byte count
 *     below the multiple of low within @room;
 *   - for a table, in its order (the tool sends fio's: by share, rising),
 *     fio's walk with the same draw: on from the entry drawn to the first
 *     later one that fits; past the last one that fits, fio draws again,
 *     so a draw below that entry's cumulative weight is walked instead.
 *
 * @len when no size of the direction fits (one size, or a smallest one
 * past @room): the caller then cuts the transfer or moves it back.  The
 * size returned is below @len, so that what the budget took covers it.
 */
u32 kb_pick_bs_fit(const struct kb_config *cfg, unsigned int dir,
		   struct kb_rng *rng, u32 len, u64 room)
{
	const struct kb_bss_dir *t = &cfg->bsd[min(dir, KB_BSS_DIRS - 1U)];
	const struct kb_bss *b = cfg->bss + t->first;
	unsigned int i, last = t->nr;
	u64 top;
	u32 r;

	if (len <= room || t->nr == 1)
		return len;
	if (t->range) {
		top = min_t(u64, b[1].size, rounddown(room, b[0].size));
		return top ? kb_range_len(b, kb_rng_below(rng, top)) : len;
	}
	for (i = 0; i < t->nr; i++)
		if (b[i].size <= room)
			last = i;
	if (last == t->nr)
		return len;
	/* the entry drawn; none of @len's size when the budget cut it */
	for (i = 0; i < t->nr && b[i].size != len; i++)
		;
	if (i > last) {
		r = kb_rng_below(rng, b[last].cum_weight);
		for (i = 0; r >= b[i].cum_weight; i++)
			;
	}
	while (b[i].size > room)	/* ends at last */
		i++;
	return b[i].size;
}
EXPORT_SYMBOL_IF_KUNIT(kb_pick_bs_fit);

/*
 * Whether a job's random map is a bitmap (struct kb_bmap): a random job
 * with several transfer sizes, whose larger transfers fio shortens to the
 * blocks not taken yet.  With one size the Feistel map is exact, in
 * constant memory; with fio's lfsr (random-lfsr) it is the map whatever
 * the sizes, as fio's lfsr keeps no bitmap and cuts nothing.
 */
bool kb_bmap_wanted(const struct kb_config *cfg)
{
	return cfg->random && !cfg->norandommap && !cfg->random_lfsr &&
	       cfg->min_bs != cfg->max_bs;
}
EXPORT_SYMBOL_IF_KUNIT(kb_bmap_wanted);

/* Bytes of the two levels of a bitmap of @cap blocks (cap < 2^63). */
size_t kb_bmap_bytes(u64 cap)
{
	u64 words = DIV_ROUND_UP_ULL(cap, BITS_PER_LONG);

	return size_mul(words + DIV_ROUND_UP_ULL(words, BITS_PER_LONG),
			sizeof(unsigned long));
}
EXPORT_SYMBOL_IF_KUNIT(kb_bmap_bytes);

/* A bitmap of @cap (>= 1) blocks, all in use and free. */
int kb_bmap_alloc(struct kb_bmap *m, u64 cap)
{
	u64 words = DIV_ROUND_UP_ULL(cap, BITS_PER_LONG);

	m->map = kvcalloc(words + DIV_ROUND_UP_ULL(words, BITS_PER_LONG),
			  sizeof(unsigned long), GFP_KERNEL);
	if (!m->map)
		return -ENOMEM;
	m->sum = m->map + words;
	m->cap = cap;
	kb_bmap_reset(m, cap);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kb_bmap_alloc);

void kb_bmap_free(struct kb_bmap *m)
{
	kvfree(m->map);
	m->map = NULL;
	m->sum = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(kb_bmap_free);

/*
 * A new pass over @n (1 to cap) blocks: all free.  The last word's bits
 * past @n are set, so that no search finds them; a word they fill is
 * marked full.
 */
void kb_bmap_reset(struct kb_bmap *m, u64 n)
{
	unsigned long words = DIV_ROUND_UP_ULL(n, BITS_PER_LONG);

	m->n = n;
	m->left = n;
	bitmap_zero(m->map, words * BITS_PER_LONG);
	bitmap_zero(m->sum, words);
	if (n % BITS_PER_LONG)
		m->map[words - 1] = ~BITMAP_LAST_WORD_MASK(n);
}
EXPORT_SYMBOL_IF_KUNIT(kb_bmap_reset);

/*
 * The first free block at or after @from, or n: in @from's word, else in
 * the first word the summary does not mark full after it.
 */
static u64 kb_bmap_find(const struct kb_bmap *m, u64 from)
{
	unsigned long words = DIV_ROUND_UP_ULL(m->n, BITS_PER_LONG);
	unsigned long w = from / BITS_PER_LONG, free;

	if (from >= m->n)
		return m->n;
	free = ~m->map[w] & BITMAP_FIRST_WORD_MASK(from);
	if (!free) {
		w = find_next_zero_bit(m->sum, words, w + 1);
		if (w >= words)
			return m->n;
		free = ~m->map[w];
	}
	return (u64)w * BITS_PER_LONG + __ffs(free);
}

/*
 * fio's axmap_next_free(): block @b (< n) is taken; the next free block
 * after it, else the first one from the map's start (it wraps), U64_MAX
 * when none is free.
 */
u64 kb_bmap_next_free(const struct kb_bmap *m, u64 b)
{
	u64 f = kb_bmap_find(m, b + 1);

	if (f < m->n)
		return f;
	f = kb_bmap_find(m, 0);
	return f < m->n ? f : U64_MAX;
}
EXPORT_SYMBOL_IF_KUNIT(kb_bmap_next_free);

/*
 * fio's axmap_set_nr(): takes up to @nr free blocks from @b (< n) on,
 * stopping at the first taken one or at the map's end; how many it took
 * (0 when @b is taken).  A word it fills is marked full in the summary.
 */
u64 kb_bmap_set_nr(struct kb_bmap *m, u64 b, u64 nr)
{
	u64 i = b, end = b + min(nr, m->n - b);

	while (i < end) {
		unsigned long w = i / BITS_PER_LONG;
		unsigned int bit = i % BITS_PER_LONG;
		unsigned int cnt = min_t(u64, BITS_PER_LONG - bit, end - i);
		unsigned long mask = (cnt == BITS_PER_LONG ? ~0UL :
				      (BIT(cnt) - 1)) << bit;
		unsigned long taken = m->map[w] & mask;

		if (taken)	/* the free blocks below the first taken one */
			mask &= BIT(__ffs(taken)) - 1;
		m->map[w] |= mask;
		if (m->map[w] == ~0UL)
			__set_bit(w, m->sum);
		i += hweight_long(mask);
		if (taken)
			break;
	}
	m->left -= i - b;
	return i - b;
}
EXPORT_SYMBOL_IF_KUNIT(kb_bmap_set_nr);

/*
 * The random map with several sizes, in fio's order: the block first
 * (__get_next_rand_offset(): drawn uniformly from the n, the next free one
 * after it, wrapping, if it is taken), then the size (get_next_buflen():
 * *@len, a transfer of @dir, drawn again while it passes the map's end,
 * kb_pick_bs_fit()), then mark_random_map(): up to its blocks of
 * cfg->min_bs set from the block on, stopping at the first taken one, and
 * *@len cut to them (never below a block; a partial block counts).  A map
 * with none free starts a new pass first, as fio's time_based job resets
 * its file.
 */
u64 kb_bmap_take(struct kb_bmap *m, const struct kb_config *cfg,
		 unsigned int dir, struct kb_rng *rng, u32 *len)
{
	u32 bs = cfg->min_bs;
	u64 b, nr;

	if (!m->left)
		kb_bmap_reset(m, m->n);
	b = kb_rng_below(rng, m->n);
	if (test_bit(b, m->map))
		b = kb_bmap_next_free(m, b);
	*len = kb_pick_bs_fit(cfg, dir, rng, *len, (m->n - b) * bs);
	nr = kb_bmap_set_nr(m, b, DIV_ROUND_UP(*len, bs));
	if (nr * bs < *len)
		*len = nr * bs;
	return b;
}
EXPORT_SYMBOL_IF_KUNIT(kb_bmap_take);

/*
 * The next sequential offset; wraps to the span's start at its end.  The
 * cursor may be anywhere (rw-seq-add moves it): compared without a sum
 * that could wrap.
 */
u64 kb_seq_offset(u64 *cursor, u64 span_len, u32 len)
{
	u64 off;

	if (*cursor > span_len || len > span_len - *cursor)
		*cursor = 0;
	off = *cursor;
	*cursor += len;
	return off;
}
EXPORT_SYMBOL_IF_KUNIT(kb_seq_offset);

/*
 * fio's rw=randread:N: whether a random job's next I/O draws its offset,
 * the first of every @nr (0 and 1: each one).  @left counts the I/Os still
 * to follow the last drawn one.
 */
bool kb_seq_nr_draw(u32 *left, u32 nr)
{
	if (*left) {
		(*left)--;
		return false;
	}
	*left = nr > 1 ? nr - 1 : 0;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(kb_seq_nr_draw);

/*
 * fio's zonemode=strided: the zone an I/O of @len goes to.  After zonesize
 * bytes of I/O in a zone the next one starts zoneskip bytes past its
 * zonerange; past the span's end the first one again.  A zone the span
 * cuts short is used as far as it goes, one too short for @len not at all
 * (the first instead).  @range gets the bytes of the zone the I/O may use;
 * true when it starts a new zone.
 */
bool kb_stride_zone(struct kb_opat *p, const struct kb_config *cfg,
		    u64 span_len, u32 len, u64 *range)
{
	bool moved = false;

	if (p->zdone >= cfg->zonesize) {
		/* past the span, saturated: the first zone again, below */
		if (check_add_overflow(p->zbase, cfg->zonerange, &p->zbase) ||
		    check_add_overflow(p->zbase, cfg->zoneskip, &p->zbase))
			p->zbase = U64_MAX;
		p->zdone = 0;
		p->zpos = 0;
		moved = true;
	}
	if (p->zbase >= span_len || span_len - p->zbase < len) {
		p->zbase = 0;
		p->zpos = 0;
	}
	*range = min(cfg->zonerange, span_len - p->zbase);
	p->zdone += len;
	return moved;
}
EXPORT_SYMBOL_IF_KUNIT(kb_stride_zone);

/*
 * The next sequential offset in a strided zone of @range bytes, relative
 * to the zone: from its start on, @add bytes skipped after each I/O (fio's
 * rw=write:N), back to its start where @len would pass its end.
 */
u64 kb_stride_seq(struct kb_opat *p, u64 range, u32 len, u64 add)
{
	u64 off;

	if (p->zpos > range || len > range - p->zpos)
		p->zpos = 0;
	off = p->zpos;
	/* past the zone, saturated: its start again, above */
	if (check_add_overflow(off + len, add, &p->zpos))
		p->zpos = U64_MAX;
	return off;
}
EXPORT_SYMBOL_IF_KUNIT(kb_stride_seq);

/*
 * Share @i of @parts of @total, in whole @unit: the shares differ by at most
 * one unit and add up to @total when @total is a multiple of @unit.
 */
u64 kb_split_budget(u64 total, u32 unit, unsigned int parts, unsigned int i)
{
	u64 units = div_u64(total, unit);
	u32 extra;
	u64 per = div_u64_rem(units, parts, &extra);

	return (per + (i < extra ? 1 : 0)) * unit;
}
EXPORT_SYMBOL_IF_KUNIT(kb_split_budget);

/* ln(2) in 0.64 fixed point */
#define KB_LN2_FX64	0xb17217f7d1cf79abULL

/*
 * -ln(U) in 32.32 fixed point, for U = (top 53 bits of @r + 1) / 2^53 in
 * (0, 1]: an exponentially distributed variate of mean 1.  log2 by the
 * bit-by-bit squaring method, 32 fraction bits; at most 36.7 (U = 2^-53).
 */
u64 kb_exp_fx(u64 r)
{
	u64 x = (r >> 11) + 1;		/* 1 .. 2^53 */
	unsigned int k = fls64(x) - 1, i;
	u64 m = x << (62 - k);		/* mantissa in [1, 2), 62 fraction bits */
	u64 log2_fx = (u64)k << 32;

	for (i = 31; i < 32; i--) {
		m = (u64)(((__uint128_t)m * m) >> 62);
		if (m >= 1ULL << 63) {
			m >>= 1;
			log2_fx |= 1ULL << i;
		}
	}
	return (u64)(((__uint128_t)((53ULL << 32) - log2_fx) * KB_LN2_FX64) >> 64);
}
EXPORT_SYMBOL_IF_KUNIT(kb_exp_fx);

/* @rate arrivals per second from @start_ns on, the first at @start_ns. */
void kb_sched_init(struct kb_sched *sc, u64 start_ns, u32 rate, u8 process)
{
	sc->next_ns = start_ns;
	sc->frac = 0;
	sc->process = process;
	sc->gap_fx = div_u64(NSEC_PER_SEC << KB_SCHED_FX, rate);
}
EXPORT_SYMBOL_IF_KUNIT(kb_sched_init);

/*
 * The next arrival: a mean gap later (linear), or an exponentially
 * distributed gap of that mean (poisson).  The fractions of a ns add up,
 * so that the mean rate is exact over any run.
 */
void kb_sched_advance(struct kb_sched *sc, struct kb_rng *rng)
{
	u64 gap = sc->gap_fx;
	u64 sum;

	if (sc->process == KIOBENCH_RATE_POISSON)
		gap = (u64)(((__uint128_t)gap * kb_exp_fx(kb_rng_next(rng))) >> 32);
	sum = sc->frac + (gap & (BIT_ULL(KB_SCHED_FX) - 1));
	sc->next_ns += (gap >> KB_SCHED_FX) + (sum >> KB_SCHED_FX);
	sc->frac = sum & (BIT_ULL(KB_SCHED_FX) - 1);
}
EXPORT_SYMBOL_IF_KUNIT(kb_sched_advance);
