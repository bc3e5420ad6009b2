/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generators' per-I/O steps, inline in the worker's loop: the size of
 * a single-size job, the random map's next block and its offset.  The
 * rest of gen.c is called rarely (a new pass of the map, a weighted size).
 * Inlined, they spare each I/O four calls and returns, which a
 * 4 KiB random read's IOPS shows (measured: 2-3.5 % at QD 32 and 128).
 */
#ifndef KB_GEN_H
#define KB_GEN_H

#include <linux/bits.h>
#include <linux/math64.h>
#include <linux/minmax.h>

u32 kb_pick_bs_drawn(const struct kb_bss_dir *t, const struct kb_bss *b,
		     struct kb_rng *rng);
void kb_rmap_new_pass(struct kb_rmap *m);

/* A transfer size of @dir from the weighted bssplit table. */
static inline u32 kb_pick_bs(const struct kb_config *cfg, unsigned int dir,
			     struct kb_rng *rng)
{
	const struct kb_bss_dir *t = &cfg->bsd[min(dir, KB_BSS_DIRS - 1U)];
	const struct kb_bss *b = cfg->bss + t->first;

	if (t->nr == 1)
		return b[0].size;
	return kb_pick_bs_drawn(t, b, rng);
}

/*
 * The random map: a keyed pseudo-random permutation of the span's block
 * indices [0, n), so that a pass of n draws visits every block exactly
 * once, in constant memory whatever n (no bitmap).  A Feistel network of
 * KB_PERM_ROUNDS rounds permutes the smallest domain of 2^bits indices
 * that holds n; an index that lands outside [0, n) is put through the
 * network again (cycle-walking), which keeps the map a bijection of
 * [0, n).  The domain is below 2n, so a draw takes fewer than two walks
 * on average.  With an odd number of bits the two halves differ by one
 * bit: each round swaps their sizes, and an even number of rounds ends
 * with the sizes it started with.  The round function mixes the half,
 * the round's key xored in, through two xorshift-multiply steps and takes
 * the top bits: every bit of the result hangs nonlinearly on every bit of
 * the half.  (One multiply alone maps consecutive halves to top bits in
 * arithmetic progression: a pass's order then clusters, and a runs test
 * rejected it for most seeds of a large span.)  Six rounds rather than
 * four: small domains have halves of a few bits, where four rounds leave
 * an order runs tests can tell from chance (kb_perm_passes_runs_tests).
 */
static_assert(!(KB_PERM_ROUNDS & 1), "the halves' sizes come back");

/* @out (at most 32) bits of the round function of @r under @key. */
static inline u64 kb_perm_round(u64 r, u64 key, unsigned int out)
{
	u64 z = r ^ key;

	z = (z ^ (z >> 32)) * 0xd6e8feb86659fd93ULL;
	z = (z ^ (z >> 32)) * 0xd6e8feb86659fd93ULL;
	return ((z ^ (z >> 32)) >> (63 - out)) >> 1;
}

static inline u64 kb_perm_feistel(const struct kb_perm *p, u64 x)
{
	unsigned int lb = p->bits - p->half, rb = p->half, i;
	u64 l = x >> rb, r = x & (BIT_ULL(rb) - 1), t;

	for (i = 0; i < KB_PERM_ROUNDS; i++) {
		t = l ^ kb_perm_round(r, p->keys[i], lb);
		l = r;
		r = t;
		swap(lb, rb);
	}
	return (l << rb) | r;
}

/* The @i-th index of the permutation, for @i < n. */
static inline u64 kb_perm_at(const struct kb_perm *p, u64 i)
{
	do
		i = kb_perm_feistel(p, i);
	while (i >= p->n);
	return i;
}

/* The next block of the worker's share; a new pass past its end. */
static inline u64 kb_rmap_next(struct kb_rmap *m)
{
	if (unlikely(m->next == m->hi))
		kb_rmap_new_pass(m);
	return kb_perm_at(&m->perm, m->next++);
}

/*
 * The random map's offset for a transfer of @len, relative to the span, in
 * blocks of @align (the smallest transfer size): block @blk's start, or
 * the last aligned start where a transfer larger than a block fits.
 */
static inline u64 kb_rmap_offset(u64 blk, u64 span_len, u32 len, u32 align)
{
	u64 off = blk * align;

	if (unlikely(off + len > span_len))
		off = div_u64(span_len - len, align) * align;
	return off;
}

#endif /* KB_GEN_H */
