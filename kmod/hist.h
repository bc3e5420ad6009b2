/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Log-linear latency histogram.
 *
 * Values (nanoseconds) below 2 * 2^KB_HIST_BITS = 128 have a bucket each.
 * Above, every power-of-two range [2^m, 2^(m+1)) is cut into 2^KB_HIST_BITS
 * equal buckets of width 2^(m - KB_HIST_BITS).  Estimating a value by the
 * middle of its bucket is therefore off by at most half a bucket width,
 * i.e. a relative error of at most 1 / 2^(KB_HIST_BITS + 1) = 0.78 %, over
 * the whole range 0 .. 2^(KB_HIST_MAX_MSB + 1) ns (about 1100 s).  Larger
 * values land in the last bucket; the exact maximum is kept beside the
 * histogram.  Memory: KB_HIST_BUCKETS * 8 = 17.5 KiB per histogram.
 *
 * kb_hist_idx() and kb_hist_lo() are pure so that KUnit can check the
 * mapping and its error bound over the whole range.
 */
#ifndef KB_HIST_H
#define KB_HIST_H

#include <linux/bitops.h>
#include <linux/types.h>

#define KB_HIST_BITS	6
#define KB_HIST_SUB	BIT(KB_HIST_BITS)
#define KB_HIST_MAX_MSB	39
#define KB_HIST_BUCKETS	((KB_HIST_MAX_MSB - KB_HIST_BITS + 2) << KB_HIST_BITS)

/* Bucket index of value @v. */
static inline unsigned int kb_hist_idx(u64 v)
{
	unsigned int msb, shift;

	if (v < 2 * KB_HIST_SUB)
		return v & (2 * KB_HIST_SUB - 1);	/* v itself */
	msb = fls64(v) - 1;
	if (msb > KB_HIST_MAX_MSB)
		return KB_HIST_BUCKETS - 1;
	shift = msb - KB_HIST_BITS;
	return ((shift + 1) << KB_HIST_BITS) + ((v >> shift) & (KB_HIST_SUB - 1));
}

/* Lowest value of bucket @idx (inclusive). */
static inline u64 kb_hist_lo(unsigned int idx)
{
	unsigned int shift;

	if (idx < 2 * KB_HIST_SUB)
		return idx;
	shift = (idx >> KB_HIST_BITS) - 1;
	return (u64)(KB_HIST_SUB + (idx & (KB_HIST_SUB - 1))) << shift;
}

/* One past the highest value of bucket @idx (exclusive bound). */
static inline u64 kb_hist_hi(unsigned int idx)
{
	if (idx < 2 * KB_HIST_SUB)
		return idx + 1;
	return kb_hist_lo(idx) + (1ULL << ((idx >> KB_HIST_BITS) - 1));
}

#endif /* KB_HIST_H */
