// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics of latency histograms and of series of steps: percentiles,
 * mean and standard deviation, fio's latency distribution, histogram
 * merges and step summaries, the steady-state check and the saturation
 * point.  Pure functions.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kiobench.h"
#include "result.h"
#include "stats.h"
#include "steps.h"

typedef unsigned __int128 u128;

/* Midpoint of [lo, hi), clamped to the observed [min, max]. */
uint64_t kb_bucket_estimate(const struct kb_bucket *b, uint64_t min, uint64_t max)
{
	uint64_t v = b->lo + (b->hi - b->lo - 1) / 2;

	if (v < min)
		v = min;
	if (v > max)
		v = max;
	return v;
}

/* rank = ceil(p/100 * n), at least 1. */
uint64_t kb_pct_rank(uint64_t n, uint32_t pct)
{
	u128 r = ((u128)pct * n + KB_PCT_100 - 1) / KB_PCT_100;

	if (r < 1)
		r = 1;
	if (r > n)
		r = n;
	return (uint64_t)r;
}

/* n * (1 - p/100) < 1: not one sample is expected above the percentile. */
bool kb_pct_low_confidence(uint64_t n, uint32_t pct)
{
	return (u128)n * (KB_PCT_100 - pct) < KB_PCT_100;
}

int kb_hist_percentiles(const struct kb_hist *h, const uint32_t *plist,
			unsigned int nr, uint64_t *out, bool *lowconf)
{
	unsigned int i;
	size_t j;

	if (!h->samples || !h->nr)
		return -1;
	for (i = 0; i < nr; i++) {
		uint64_t rank = kb_pct_rank(h->samples, plist[i]), cum = 0;

		for (j = 0; j < h->nr; j++) {
			cum += h->b[j].count;
			if (cum >= rank)
				break;
		}
		if (j == h->nr)
			j = h->nr - 1;
		out[i] = kb_bucket_estimate(&h->b[j], h->min, h->max);
		if (lowconf)
			lowconf[i] = kb_pct_low_confidence(h->samples, plist[i]);
	}
	return 0;
}

double kb_lat_mean(uint64_t n, uint64_t sum)
{
	return n ? (double)((long double)sum / n) : 0.0;
}

/*
 * Sample standard deviation (n - 1, as fio) from the sum and the 128-bit
 * sum of squares.  sum^2/n is split into an exact integer quotient and a
 * remainder so that sumsq - sum^2/n does not cancel catastrophically.
 */
double kb_lat_stddev(uint64_t n, uint64_t sum, uint64_t sumsq_hi, uint64_t sumsq_lo)
{
	u128 sumsq = ((u128)sumsq_hi << 64) | sumsq_lo;
	u128 s2 = (u128)sum * sum, q, r;
	long double m2;

	if (n < 2)
		return 0.0;
	q = s2 / n;
	r = s2 % n;
	if (sumsq < q)
		return 0.0;	/* inconsistent input */
	m2 = (long double)(sumsq - q) - (long double)r / n;
	if (m2 <= 0)
		return 0.0;
	return (double)sqrtl(m2 / (n - 1));
}

const unsigned int kb_lat_nu_edges[KB_LAT_N_NR] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000,
};
const unsigned int kb_lat_m_edges[KB_LAT_M_NR] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000, 2000,	/* last: >= 2000 */
};

static unsigned int lat_idx(uint64_t v, const unsigned int *edges, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr - 1; i++)
		if (v < edges[i])
			return i;
	return nr - 1;
}

/*
 * fio's latency distribution (percent of all I/Os of every direction in
 * ranges below 2, 4, 10 ... 1000 ns, us and ms, and >= 2000 ms), with each
 * bucket counted at its estimated value.  Non-zero shares below 0.01% are
 * shown as 0.01%, like fio.
 */
void kb_lat_dist(const struct kb_hist *const *h, unsigned int nh,
		 double *pn, double *pu, double *pm)
{
	uint64_t cn[KB_LAT_N_NR] = { 0 }, cu[KB_LAT_U_NR] = { 0 }, cm[KB_LAT_M_NR] = { 0 };
	uint64_t total = 0;
	unsigned int i;
	size_t j;

	for (i = 0; i < nh; i++) {
		if (!h[i])
			continue;
		for (j = 0; j < h[i]->nr; j++) {
			uint64_t v = kb_bucket_estimate(&h[i]->b[j], h[i]->min, h[i]->max);
			uint64_t c = h[i]->b[j].count;

			if (v < 1000)
				cn[lat_idx(v, kb_lat_nu_edges, KB_LAT_N_NR)] += c;
			else if (v < 1000000)
				cu[lat_idx(v / 1000, kb_lat_nu_edges, KB_LAT_U_NR)] += c;
			else
				cm[lat_idx(v / 1000000, kb_lat_m_edges, KB_LAT_M_NR)] += c;
			total += c;
		}
	}
#define PCT(c) (!total ? 0.0 : ((c) && 100.0 * (c) / total < 0.01) ? 0.01 : \
		100.0 * (double)(c) / (double)total)
	for (i = 0; i < KB_LAT_N_NR; i++)
		pn[i] = PCT(cn[i]);
	for (i = 0; i < KB_LAT_U_NR; i++)
		pu[i] = PCT(cu[i]);
	for (i = 0; i < KB_LAT_M_NR; i++)
		pm[i] = PCT(cm[i]);
#undef PCT
}

/*
 * Steady state over the last w values of y[0..n) (SNIA PTS style): every
 * value within +-data_pct % of the window's mean, and the least-squares
 * line through the window moving by at most slope_pct % of the mean across
 * the window (|slope| * (w - 1)).
 */
bool kb_steady_state(const double *y, size_t n, size_t w, double data_pct,
		     double slope_pct, struct kb_ss *ss)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, mean, d;
	size_t i;

	memset(ss, 0, sizeof(*ss));
	if (w < 2 || n < w)
		return false;
	y += n - w;
	for (i = 0; i < w; i++) {
		sx += i;
		sy += y[i];
		sxx += (double)i * i;
		sxy += i * y[i];
	}
	mean = sy / w;
	d = w * sxx - sx * sx;
	ss->mean = mean;
	ss->slope = (w * sxy - sx * sy) / d;
	ss->intercept = (sy - ss->slope * sx) / w;
	for (i = 0; i < w; i++) {
		double dev = fabs(y[i] - mean);

		if (dev > ss->max_dev)
			ss->max_dev = dev;
	}
	ss->excursion = fabs(ss->slope) * (w - 1);
	ss->data_ok = mean > 0 && ss->max_dev <= mean * data_pct / 100.0;
	ss->slope_ok = mean > 0 && ss->excursion <= mean * slope_pct / 100.0;
	ss->reached = ss->data_ok && ss->slope_ok;
	return ss->reached;
}

/* dst += src: both sorted by lo, with the same geometry. */
int kb_hist_merge(struct kb_hist *dst, const struct kb_hist *src)
{
	struct kb_bucket *b;
	size_t i = 0, j = 0, n = 0;

	if (!src->samples && !src->nr)
		return 0;
	b = malloc((dst->nr + src->nr + 1) * sizeof(*b));
	if (!b)
		return -1;
	while (i < dst->nr || j < src->nr) {
		if (j >= src->nr || (i < dst->nr && dst->b[i].lo < src->b[j].lo)) {
			b[n++] = dst->b[i++];
		} else if (i >= dst->nr || src->b[j].lo < dst->b[i].lo) {
			b[n++] = src->b[j++];
		} else {
			b[n] = dst->b[i++];
			b[n++].count += src->b[j++].count;
		}
	}
	free(dst->b);
	dst->b = b;
	dst->nr = n;
	if (!dst->samples || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->samples += src->samples;
	dst->sum += src->sum;
	if (!dst->bits)
		dst->bits = src->bits;
	return 0;
}

/*
 * Figures of direction d over n jobs.  Jobs of one step run at the same
 * time on different devices: IOPS and MB/s are the sums of each job's rates
 * over its measured time.  sequential (bursts, one after the other): the
 * totals over the summed measured times.  Counts and bytes add up; latency
 * statistics come from the merged histograms.
 */
int kb_summarize(const struct kb_result *r, size_t n, int d, bool sequential,
		 struct kb_sum *s)
{
	struct kb_hist h = { .dir = d };
	uint64_t sum = 0, all = 0;
	size_t i;
	bool lowconf[KB_SUM_NR_PCT];

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		const struct kb_dirstat *ds = &r[i].st.dir[d];

		s->ios += ds->ios;
		s->bytes += ds->bytes;
		s->all_ios += ds->all_ios;
		s->all_bytes += ds->all_bytes;
		s->errors += ds->errors;
		s->cpu_ns += r[i].st.cpu_ns;
		all += kb_dirs_sum(&r[i], offsetof(struct kb_dirstat, all_ios));
		sum += ds->lat_sum;
		if (ds->ios && (!s->min || ds->lat_min < s->min))
			s->min = ds->lat_min;
		if (ds->lat_max > s->max)
			s->max = ds->lat_max;
		if (sequential) {
			s->measured_ns += r[i].st.measured_ns;
		} else {
			if (r[i].st.measured_ns) {
				s->iops += ds->ios * 1e9 / r[i].st.measured_ns;
				s->bw += ds->bytes * 1e9 / r[i].st.measured_ns;
			}
			if (r[i].st.measured_ns > s->measured_ns)
				s->measured_ns = r[i].st.measured_ns;
		}
		if (r[i].has_hist[d] && kb_hist_merge(&h, &r[i].hist[d])) {
			kb_hist_free(&h);
			return -1;
		}
	}
	if (sequential && s->measured_ns) {
		s->iops = s->ios * 1e9 / s->measured_ns;
		s->bw = s->bytes * 1e9 / s->measured_ns;
	}
	s->present = s->ios || s->all_ios || s->errors;
	s->mean = kb_lat_mean(s->ios, sum);
	s->cpu_ns_per_io = all ? (double)s->cpu_ns / all : 0.0;
	s->samples = h.samples;
	s->has_pct = !kb_hist_percentiles(&h, kb_sum_pcts, KB_SUM_NR_PCT, s->pct, lowconf);
	kb_hist_free(&h);
	return 0;
}

/*
 * The queue depth that saturates the device: the first step beyond which
 * no step has more than thresh_pct % more IOPS, while the mean latency of
 * the last step is higher.  Asking it of every later step, not only the
 * next, keeps one noisy step from marking an early saturation.  -1: none.
 */
int kb_saturation(const double *iops, const double *lat, size_t n, double thresh_pct)
{
	size_t i, j;

	for (i = 0; i + 1 < n; i++) {
		bool flat = iops[i] > 0 && lat[n - 1] > lat[i];

		for (j = i + 1; flat && j < n; j++)
			flat = iops[j] <= iops[i] * (1 + thresh_pct / 100.0);
		if (flat)
			return i;
	}
	return -1;
}


/* The percentiles of the step table, in millionths of a percent. */
const uint32_t kb_sum_pcts[KB_SUM_NR_PCT] = {
	50000000, 99000000, 99900000, 99990000, 99999000,
};

int kb_step_dir(const struct kb_step *st)
{
	return st->sum[KIOBENCH_DIR_READ].ios || !st->sum[KIOBENCH_DIR_WRITE].ios ?
	       KIOBENCH_DIR_READ : KIOBENCH_DIR_WRITE;
}
