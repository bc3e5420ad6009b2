// SPDX-License-Identifier: GPL-2.0
/*
 * compare's statistics: is a figure of NEW significantly different from
 * BASE, and worse by more than the threshold?  Pure functions.
 *
 * - Latency distributions come from the two full histograms.  p50 is
 *   judged by a Mann-Whitney U test over the buckets (a bucket is a group
 *   of ties; normal approximation with the tie correction).
 * - p99 and p99.9 by distribution-free confidence intervals of the
 *   quantile from each histogram (binomial ranks, widened to the buckets):
 *   significant when the two intervals do not overlap.
 * - IOPS and MB/s by Welch's t test over the rates of the timeline's
 *   measured intervals, the mean latency over their mean latencies.
 * - The maximum is one sample: shown, never tested.
 * The latencies of one run are not independent: a stall of the host (or
 * of the device) delays every I/O in flight and those behind them.  The
 * timeline's intervals measure how much: the variance of the mean latency
 * between intervals against that of independent samples is the design
 * effect, by which the histogram tests divide their sample size (the
 * Mann-Whitney z by its root, the quantile intervals widen by its root).
 * A tail is a few stalls more than many I/Os: for p99 and p99.9 each
 * interval counts for one independent sample above the quantile at most
 * (kb_tail_effect()).
 * Without a timeline (fio's json) the mean falls back to Welch's t test
 * on the I/Os' mean and standard deviation; without a histogram the
 * percentiles are untested.
 */
#define _GNU_SOURCE
#include <math.h>
#include <string.h>

#include "compare_stats.h"
#include "kiobench.h"
#include "result.h"

const char *const kb_cf_names[KB_CF_NR] = {
	"IOPS", "MB/s", "mean", "p50", "p99", "p99.9", "max",
};
const char *const kb_cf_keys[KB_CF_NR] = {
	"iops", "mb_s", "mean_ns", "p50_ns", "p99_ns", "p99.9_ns", "max_ns",
};

/* One group of ties: counts of a (base) and b (new) at the next lowest bucket. */
static bool next_tie(const struct kb_bucket *a, size_t na, size_t *i,
		     const struct kb_bucket *b, size_t nb, size_t *j,
		     double *ca, double *cb)
{
	*ca = *cb = 0;
	if (*i >= na && *j >= nb)
		return false;
	if (*j >= nb || (*i < na && a[*i].lo < b[*j].lo)) {
		*ca = a[(*i)++].count;
	} else if (*i >= na || b[*j].lo < a[*i].lo) {
		*cb = b[(*j)++].count;
	} else {
		*ca = a[(*i)++].count;
		*cb = b[(*j)++].count;
	}
	return true;
}

static double total(const struct kb_bucket *b, size_t nr)
{
	double n = 0;
	size_t i;

	for (i = 0; i < nr; i++)
		n += b[i].count;
	return n;
}

int kb_mwu_hist(const struct kb_bucket *a, size_t na, const struct kb_bucket *b, size_t nb,
		struct kb_mwu *r)
{
	long double n1 = total(a, na), n2 = total(b, nb), n = n1 + n2;
	long double below = 0, rank_b = 0, ties = 0, u, mu, var;
	double ca, cb;
	size_t i = 0, j = 0;

	memset(r, 0, sizeof(*r));
	r->p = NAN;
	if (!(n1 > 0) || !(n2 > 0))
		return -1;
	while (next_tie(a, na, &i, b, nb, &j, &ca, &cb)) {
		long double t = (long double)ca + cb;

		rank_b += cb * (below + (t + 1) / 2);	/* the group's average rank */
		ties += t * t * t - t;
		below += t;
	}
	u = rank_b - n2 * (n2 + 1) / 2;		/* pairs in which new is higher */
	mu = n1 * n2 / 2;
	var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)));
	r->auc = (double)(u / (n1 * n2));
	if (!(var > 0)) {		/* every value one tie: nothing differs */
		r->p = 1.0;
		return 0;
	}
	r->z = (double)((u - mu) / sqrtl(var));
	r->p = erfc(fabs(r->z) / M_SQRT2);
	return 0;
}

/* The bucket holding rank k (1-based) of b[0..nr). */
static const struct kb_bucket *at_rank(const struct kb_bucket *b, size_t nr, double k)
{
	double cum = 0;
	size_t i;

	for (i = 0; i < nr; i++) {
		cum += b[i].count;
		if (cum >= k)
			return &b[i];
	}
	return &b[nr - 1];
}

double kb_design_effect(const struct kb_cmp_dir *cd)
{
	double n = 0, sum = 0, m, between = 0, iid, d;
	size_t i, k = 0;

	for (i = 0; cd->ios_iv && i < cd->nr_iv; i++) {
		n += cd->ios_iv[i];
		sum += cd->lat_iv[i];
		k += cd->ios_iv[i] > 0;
	}
	if (k < 2 || !(n > 0) || !(cd->stddev > 0))
		return 1.0;
	m = sum / n;
	for (i = 0; i < cd->nr_iv; i++) {
		/* the interval's share of the deviation of the ratio estimate */
		double e = cd->lat_iv[i] - m * cd->ios_iv[i];

		between += e * e;
	}
	between = between * k / (k - 1) / (n * n);
	iid = cd->stddev * cd->stddev / n;
	d = between / iid;
	return d > 1 ? d : 1.0;
}

int kb_quantile_ci(const struct kb_bucket *b, size_t nr, double q, double z,
		   uint64_t *lo, uint64_t *hi)
{
	double n = total(b, nr), half, rlo, rhi;

	if (!(n > 0))
		return -1;
	half = z * sqrt(n * q * (1 - q));
	rlo = floor(n * q - half);
	rhi = ceil(n * q + half) + 1;
	if (rlo < 1)
		rlo = 1;
	if (rhi > n)
		rhi = n;
	*lo = at_rank(b, nr, rlo)->lo;
	*hi = at_rank(b, nr, rhi)->hi - 1;
	return 0;
}

void kb_mean_var(const double *x, size_t n, double *mean, double *var)
{
	double m = 0, s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		m += x[i];
	m = n ? m / n : 0;
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	*mean = m;
	*var = n > 1 ? s / (n - 1) : 0;
}

/* The continued fraction of the incomplete beta function (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;
		int k;

		for (k = 0; k < 2; k++) {
			aa = !k ? m * (b - m) * x / ((a + m2 - 1) * (a + m2)) :
			     -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
			d = 1 + aa * d;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = 1 + aa / c;
			if (fabs(c) < tiny)
				c = tiny;
			del = d * c;
			h *= del;
		}
		if (fabs(del - 1) < 1e-12)
			break;
	}
	return h;
}

double kb_betai(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

double kb_welch_p(double m1, double v1, double n1, double m2, double v2, double n2)
{
	double s1, s2, se2, t, df;

	if (n1 < 2 || n2 < 2)
		return NAN;
	s1 = v1 / n1;
	s2 = v2 / n2;
	se2 = s1 + s2;
	if (!(se2 > 0))
		return m1 == m2 ? 1.0 : 0.0;
	t = (m2 - m1) / sqrt(se2);
	df = se2 * se2 / (s1 * s1 / (n1 - 1) + s2 * s2 / (n2 - 1));
	return kb_betai(df / 2, 0.5, df / (df + t * t));
}

void kb_cmp_judge(struct kb_cmp_fig *f, bool higher_worse, double threshold)
{
	double worse_pct;

	f->change_pct = f->base != 0 ? (f->new - f->base) / f->base * 100.0 : NAN;
	f->verdict = KB_V_SAME;
	if (f->significant != 1 || isnan(f->change_pct))
		return;
	worse_pct = higher_worse ? f->change_pct : -f->change_pct;
	if (worse_pct > threshold)
		f->verdict = KB_V_WORSE;
	else if (-worse_pct > threshold)
		f->verdict = KB_V_BETTER;
}

static void fig_set(struct kb_cmp_fig *f, double base, double new, const char *test)
{
	f->base = base;
	f->new = new;
	f->p = NAN;
	f->significant = -1;
	f->test = test;
}

/* p-value test: significant when p < alpha. */
static void fig_p(struct kb_cmp_fig *f, double p, const char *test)
{
	f->test = test;
	f->p = p;
	f->significant = isnan(p) ? -1 : p < KB_CMP_ALPHA;
}

/* A rate (IOPS, MB/s) by Welch's t over the timeline intervals. */
static void rate_fig(struct kb_cmp_fig *f, const double *a, const double *b, size_t na,
		     size_t nb)
{
	double m1, v1, m2, v2;

	if (na < 2 || nb < 2)
		return;
	kb_mean_var(a, na, &m1, &v1);
	kb_mean_var(b, nb, &m2, &v2);
	fig_p(f, kb_welch_p(m1, v1, na, m2, v2, nb), "welch");
}

static size_t iv_means(const struct kb_cmp_dir *cd, double *mean, double *var);

double kb_tail_effect(const struct kb_cmp_dir *cd, double deff, double q)
{
	double m, v, tail;
	size_t k = iv_means(cd, &m, &v);

	if (k < 2)
		return deff;
	tail = cd->n * (1 - q) / k;	/* n / (k / (1 - q)) */
	return tail > deff ? tail : deff;
}

/* p99, p99.9: the quantiles' confidence intervals do not overlap. */
static void tail_fig(struct kb_cmp_fig *f, const struct kb_cmp_dir *a,
		     const struct kb_cmp_dir *b, double q, const double *deff)
{
	double za = KB_CMP_Z * sqrt(kb_tail_effect(a, deff[0], q));
	double zb = KB_CMP_Z * sqrt(kb_tail_effect(b, deff[1], q));
	uint64_t alo, ahi, blo, bhi;

	if (kb_quantile_ci(a->b, a->nr, q, za, &alo, &ahi) ||
	    kb_quantile_ci(b->b, b->nr, q, zb, &blo, &bhi))
		return;
	f->test = "quantile-ci";
	f->significant = blo > ahi || bhi < alo;
}

/* The mean latency of each interval that did I/O: their mean, variance and number. */
static size_t iv_means(const struct kb_cmp_dir *cd, double *mean, double *var)
{
	double s = 0, ss = 0;
	size_t i, k = 0;

	for (i = 0; cd->ios_iv && i < cd->nr_iv; i++) {
		if (cd->ios_iv[i] > 0) {
			s += cd->lat_iv[i] / cd->ios_iv[i];
			k++;
		}
	}
	*mean = k ? s / k : 0;
	for (i = 0; cd->ios_iv && i < cd->nr_iv; i++) {
		if (cd->ios_iv[i] > 0) {
			double d = cd->lat_iv[i] / cd->ios_iv[i] - *mean;

			ss += d * d;
		}
	}
	*var = k > 1 ? ss / (k - 1) : 0;
	return k;
}

/*
 * The mean: Welch's t over the intervals' mean latencies (their scatter
 * holds the stalls), else over the I/Os with their variance times the
 * design effect.
 */
static void mean_fig(struct kb_cmp_fig *f, const struct kb_cmp_dir *a,
		     const struct kb_cmp_dir *b, const double *deff)
{
	double m1, v1, m2, v2;
	size_t k1 = iv_means(a, &m1, &v1), k2 = iv_means(b, &m2, &v2);

	if (k1 >= 2 && k2 >= 2)
		fig_p(f, kb_welch_p(m1, v1, k1, m2, v2, k2), "welch");
	else
		fig_p(f, kb_welch_p(a->mean, a->stddev * a->stddev, a->n / deff[0], b->mean,
				    b->stddev * b->stddev, b->n / deff[1]), "welch");
}

/* p50 by the Mann-Whitney U test, in the direction of the change. */
static void mwu_fig(struct kb_cmp_fig *f, const struct kb_cmp_result *r)
{
	bool up = f->new > f->base;

	fig_p(f, r->mwu.p, "mann-whitney");
	if (f->significant == 1 && up != (r->mwu.auc > 0.5))
		f->significant = 0;	/* the distribution moved the other way */
}

static void latency_figs(const struct kb_cmp_dir *a, const struct kb_cmp_dir *b,
			 struct kb_cmp_result *r)
{
	double d = r->deff[0] > r->deff[1] ? r->deff[0] : r->deff[1];

	r->has_mwu = a->nr && b->nr && !kb_mwu_hist(a->b, a->nr, b->b, b->nr, &r->mwu);
	if (r->has_mwu) {
		/* the larger design effect: fewer independent samples than I/Os */
		r->mwu.z /= sqrt(d);
		r->mwu.p = r->mwu.p == 1.0 ? 1.0 : erfc(fabs(r->mwu.z) / M_SQRT2);
		mwu_fig(&r->f[KB_CF_P50], r);
		tail_fig(&r->f[KB_CF_P99], a, b, 0.99, r->deff);
		tail_fig(&r->f[KB_CF_P999], a, b, 0.999, r->deff);
	}
	mean_fig(&r->f[KB_CF_MEAN], a, b, r->deff);
}

void kb_cmp_dirs(const struct kb_cmp_dir *a, const struct kb_cmp_dir *b,
		 double threshold, struct kb_cmp_result *r)
{
	int i;

	memset(r, 0, sizeof(*r));
	r->deff[0] = kb_design_effect(a);
	r->deff[1] = kb_design_effect(b);
	fig_set(&r->f[KB_CF_IOPS], a->iops, b->iops, "none");
	fig_set(&r->f[KB_CF_MBS], a->mbs, b->mbs, "none");
	fig_set(&r->f[KB_CF_MEAN], a->mean, b->mean, "none");
	for (i = 0; i < 3; i++)
		fig_set(&r->f[KB_CF_P50 + i], a->has_pct ? a->pct[i] : 0,
			b->has_pct ? b->pct[i] : 0, "none");
	fig_set(&r->f[KB_CF_MAX], a->max, b->max, "none");
	rate_fig(&r->f[KB_CF_IOPS], a->iops_iv, b->iops_iv, a->nr_iv, b->nr_iv);
	rate_fig(&r->f[KB_CF_MBS], a->mbs_iv, b->mbs_iv, a->nr_iv, b->nr_iv);
	if (a->n && b->n)
		latency_figs(a, b, r);
	for (i = 0; i < KB_CF_NR; i++) {
		kb_cmp_judge(&r->f[i], i >= KB_CF_MEAN, threshold);
		r->worse += r->f[i].verdict == KB_V_WORSE;
	}
}
