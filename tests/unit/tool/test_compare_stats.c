// SPDX-License-Identifier: GPL-2.0
/*
 * compare_stats.c: the tests on synthetic histograms (the module's
 * log-linear geometry, 6 sub-bucket bits) and timeline rates.
 */
#include "compare.h"
#include "compare_stats.h"
#include "result.h"
#include "stats.h"
#include "tool_test.h"

#define SUB	64
#define NB	((39 - 6 + 2) * SUB)

static unsigned int idx(uint64_t v)
{
	unsigned int msb, shift;

	if (v < 2 * SUB)
		return v;
	msb = 63 - __builtin_clzll(v);
	shift = msb - 6;
	return ((shift + 1) << 6) + ((v >> shift) & (SUB - 1));
}

static uint64_t lo_of(unsigned int i)
{
	unsigned int shift;

	if (i < 2 * SUB)
		return i;
	shift = (i >> 6) - 1;
	return (uint64_t)(SUB + (i & (SUB - 1))) << shift;
}

static uint64_t hi_of(unsigned int i)
{
	return i < 2 * SUB ? i + 1 : lo_of(i) + (1ULL << ((i >> 6) - 1));
}

static uint64_t rnd_state;

static double uniform(void)
{
	rnd_state = rnd_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((rnd_state >> 11) + 0.5) / 9007199254740992.0;
}

/*
 * n latencies around center ns (log-normal, sigma 0.2) into a histogram of
 * dir d: its buckets, count, mean and max.  Same seed, same samples.
 */
static void synth(struct kb_cmp_dir *cd, double center, uint64_t n, uint64_t seed)
{
	uint64_t *c = calloc(NB, sizeof(*c));
	double sum = 0, sumsq = 0;
	uint64_t i, k;

	memset(cd, 0, sizeof(*cd));
	rnd_state = seed;
	for (i = 0; i < n; i++) {
		double g = sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
		uint64_t v = center * exp(0.2 * g);

		c[idx(v)]++;
		sum += v;
		sumsq += (double)v * v;
		if (v > cd->max)
			cd->max = v;
	}
	cd->b = calloc(NB, sizeof(*cd->b));
	for (k = 0; k < NB; k++)
		if (c[k])
			cd->b[cd->nr++] = (struct kb_bucket){ lo_of(k), hi_of(k), c[k] };
	free(c);
	cd->present = true;
	cd->n = n;
	cd->mean = sum / n;
	cd->stddev = sqrt((sumsq - sum * sum / n) / (n - 1));
}

/* The percentiles as compare_load.c computes them. */
static void pcts(struct kb_cmp_dir *cd)
{
	static const uint32_t pl[3] = { 50000000, 99000000, 99900000 };
	struct kb_hist h = { .b = cd->b, .nr = cd->nr, .samples = cd->n, .max = cd->max };

	cd->has_pct = !kb_hist_percentiles(&h, pl, 3, cd->pct, NULL);
}

/* k timeline intervals of rate iops +- jitter (fraction), 4 KiB each. */
static void rates(struct kb_cmp_dir *cd, double iops, double jitter, size_t k, uint64_t seed)
{
	size_t i;

	rnd_state = seed;
	cd->iops_iv = calloc(k, sizeof(double));
	cd->mbs_iv = calloc(k, sizeof(double));
	cd->nr_iv = k;
	cd->iops = 0;
	for (i = 0; i < k; i++) {
		cd->iops_iv[i] = iops * (1 + jitter * (2 * uniform() - 1));
		cd->mbs_iv[i] = cd->iops_iv[i] * 4096 / 1e6;
		cd->iops += cd->iops_iv[i] / k;
	}
	cd->mbs = cd->iops * 4096 / 1e6;
}

static void side(struct kb_cmp_dir *cd, double lat, double iops, double jitter,
		 uint64_t seed)
{
	synth(cd, lat, 20000, seed);
	pcts(cd);
	rates(cd, iops, jitter, 10, seed + 1);
}

/* The 10 intervals of side() with 2000 I/Os each, of mean latencies m(i). */
static void set_iv(struct kb_cmp_dir *cd, double m0, double m1)
{
	size_t i;

	free(cd->ios_iv);
	free(cd->lat_iv);
	cd->ios_iv = calloc(cd->nr_iv, sizeof(double));
	cd->lat_iv = calloc(cd->nr_iv, sizeof(double));
	for (i = 0; i < cd->nr_iv; i++) {
		cd->ios_iv[i] = 2000;
		cd->lat_iv[i] = 2000 * (i % 2 ? m1 : m0);
	}
}

/*
 * Two independent runs of one setup (other seeds, so other samples and
 * rates: never a copy, whose every difference is exactly 0 and passes any
 * test): nothing significant, nothing worse.  Mutation: fig_test() calling
 * every p below 1 significant (`p < 1.0` for `p < KB_CMP_ALPHA`): a copy
 * still passes (p = 1), these two runs do not.
 */
static void t_identical(void)
{
	struct kb_cmp_dir a, b;
	struct kb_cmp_result r;
	int i;

	side(&a, 200000, 5000, 0.03, 1);
	side(&b, 200000, 5000, 0.03, 2);
	kb_cmp_dirs(&a, &b, 5, &r);
	CHECK(r.worse == 0);
	CHECK(r.has_mwu && fabs(r.mwu.auc - 0.5) < 0.02 && r.mwu.p > 0.05);
	CHECK(r.f[KB_CF_MEAN].change_pct != 0 && r.f[KB_CF_IOPS].change_pct != 0);
	for (i = 0; i < KB_CF_NR; i++) {
		CHECK(r.f[i].significant != 1);
		CHECK(r.f[i].verdict == KB_V_SAME);
	}
	CHECK(r.f[KB_CF_MAX].significant == -1);	/* one sample: never tested */
	kb_cmp_dir_free(&a);
	kb_cmp_dir_free(&b);
}

/* Latency 50 % higher, IOPS a third lower: every tested figure is worse. */
static void t_shifted(void)
{
	struct kb_cmp_dir a, b;
	struct kb_cmp_result r;
	int i;

	side(&a, 200000, 5000, 0.03, 1);
	side(&b, 300000, 3333, 0.03, 7);
	kb_cmp_dirs(&a, &b, 5, &r);
	CHECK(r.mwu.auc > 0.9 && r.mwu.p < 1e-10);
	for (i = 0; i < KB_CF_MAX; i++) {
		CHECK(r.f[i].significant == 1);
		CHECK(r.f[i].verdict == KB_V_WORSE);
	}
	CHECK(r.f[KB_CF_MEAN].change_pct > 45 && r.f[KB_CF_MEAN].change_pct < 55);
	CHECK(r.f[KB_CF_IOPS].change_pct < -30);
	CHECK(!strcmp(r.f[KB_CF_P99].test, "quantile-ci"));
	CHECK(!strcmp(r.f[KB_CF_IOPS].test, "welch"));
	CHECK(r.worse == KB_CF_MAX);
	/* the other way round: better, nothing worse */
	kb_cmp_dirs(&b, &a, 5, &r);
	CHECK(r.worse == 0 && r.f[KB_CF_P50].verdict == KB_V_BETTER);
	kb_cmp_dir_free(&a);
	kb_cmp_dir_free(&b);
}

/* Other samples of the same distribution, 1 % apart: not worse. */
static void t_noise(void)
{
	struct kb_cmp_dir a, b;
	struct kb_cmp_result r;
	int i;

	side(&a, 200000, 5000, 0.05, 1);
	side(&b, 202000, 4950, 0.05, 99);
	kb_cmp_dirs(&a, &b, 5, &r);
	CHECK(r.worse == 0);
	for (i = 0; i < KB_CF_NR; i++)
		CHECK(r.f[i].verdict == KB_V_SAME);
	CHECK(r.f[KB_CF_P99].significant == 0 && r.f[KB_CF_IOPS].significant == 0);
	/* a 3 % shift of 20000 samples is significant, but under the threshold */
	kb_cmp_dir_free(&b);
	side(&b, 206000, 5000, 0.05, 99);
	kb_cmp_dirs(&a, &b, 5, &r);
	CHECK(r.f[KB_CF_P50].significant == 1 && r.f[KB_CF_P50].verdict == KB_V_SAME);
	kb_cmp_dirs(&a, &b, 2, &r);
	CHECK(r.f[KB_CF_P50].verdict == KB_V_WORSE);
	kb_cmp_dir_free(&a);
	kb_cmp_dir_free(&b);
}

/*
 * Stalls make the latencies of a run depend on each other: its intervals'
 * means scatter far more than independent samples allow, and a 10 % shift
 * between two such runs is not significant any more.
 */
static void t_design_effect(void)
{
	struct kb_cmp_dir a, b;
	struct kb_cmp_result r;

	side(&a, 200000, 5000, 0.03, 1);
	side(&b, 220000, 5000, 0.03, 5);
	CHECK(kb_design_effect(&a) == 1.0);	/* no intervals */
	kb_cmp_dirs(&a, &b, 5, &r);
	CHECK(r.f[KB_CF_P50].verdict == KB_V_WORSE && r.f[KB_CF_P99].verdict == KB_V_WORSE);
	/* steady intervals: independent enough */
	set_iv(&a, a.mean, a.mean * 1.001);
	set_iv(&b, b.mean, b.mean * 1.001);
	CHECK(kb_design_effect(&a) == 1.0);
	kb_cmp_dirs(&a, &b, 5, &r);
	CHECK(r.deff[0] == 1.0 && r.f[KB_CF_P50].verdict == KB_V_WORSE);
	/* 200 samples above p99 in 10 intervals: counted as 10 */
	CHECK(fabs(kb_tail_effect(&a, 1.0, 0.99) - 20) < 1e-9);
	CHECK(fabs(kb_tail_effect(&a, 3.0, 0.999) - 3) < 1e-9);
	free(a.ios_iv);
	a.ios_iv = NULL;
	CHECK(kb_tail_effect(&a, 1.5, 0.99) == 1.5);	/* no timeline */
	set_iv(&a, a.mean, a.mean * 1.001);
	/* intervals of 150 and 250 us: stalls */
	set_iv(&a, 150000, 250000);
	set_iv(&b, 165000, 275000);
	CHECK(kb_design_effect(&a) > 1000);
	kb_cmp_dirs(&a, &b, 5, &r);
	CHECK(r.worse == 0);
	CHECK(r.f[KB_CF_P50].significant == 0 && r.f[KB_CF_P99].significant == 0);
	kb_cmp_dir_free(&a);
	kb_cmp_dir_free(&b);
}

static void t_mwu(void)
{
	static const struct kb_bucket lo[] = { { 10, 11, 50 }, { 20, 21, 50 } };
	static const struct kb_bucket hi[] = { { 30, 31, 50 }, { 40, 41, 50 } };
	static const struct kb_bucket mid[] = { { 20, 21, 100 } };
	struct kb_mwu m;

	CHECK(kb_mwu_hist(lo, 2, hi, 2, &m) == 0 && m.auc == 1.0 && m.z > 10 && m.p < 1e-20);
	CHECK(kb_mwu_hist(hi, 2, lo, 2, &m) == 0 && m.auc == 0.0 && m.z < -10);
	/* ties: half of lo is below mid, half tied with it */
	CHECK(kb_mwu_hist(lo, 2, mid, 1, &m) == 0 && fabs(m.auc - 0.75) < 1e-12);
	/* every value one tie */
	CHECK(kb_mwu_hist(mid, 1, mid, 1, &m) == 0 && m.p == 1.0 && m.auc == 0.5);
	CHECK(kb_mwu_hist(lo, 0, hi, 2, &m) == -1);
}

static void t_quantile_ci(void)
{
	struct kb_cmp_dir a;
	uint64_t lo, hi;

	synth(&a, 200000, 100000, 3);
	pcts(&a);
	CHECK(kb_quantile_ci(a.b, a.nr, 0.5, KB_CMP_Z, &lo, &hi) == 0);
	CHECK(lo <= a.pct[0] && a.pct[0] <= hi);
	CHECK(lo > 195000 && hi < 205000);	/* the median of 100000 is sharp */
	CHECK(kb_quantile_ci(a.b, a.nr, 0.999, KB_CMP_Z, &lo, &hi) == 0);
	CHECK(lo <= a.pct[2] && a.pct[2] <= hi && hi <= a.max + a.max / 64);
	CHECK(kb_quantile_ci(a.b, 0, 0.5, KB_CMP_Z, &lo, &hi) == -1);
	kb_cmp_dir_free(&a);
}

static void t_welch(void)
{
	static const double x[] = { 1, 2, 3, 4, 5 };
	double m, v;

	kb_mean_var(x, 5, &m, &v);
	CHECK(m == 3 && v == 2.5);
	CHECK(fabs(kb_betai(1, 1, 0.3) - 0.3) < 1e-12);
	CHECK(fabs(kb_betai(2, 3, 0.4) - 0.5248) < 1e-9);
	/* t = 2.228 with 10 degrees of freedom: p = 0.05 */
	CHECK(fabs(kb_betai(5, 0.5, 10 / (10 + 2.228 * 2.228)) - 0.05) < 1e-3);
	/* equal variances and sizes: df = 2n - 2 = 10, t = 2.228 */
	CHECK(fabs(kb_welch_p(0, 1, 6, 2.228 * sqrt(2.0 / 6), 1, 6) - 0.05) < 1e-3);
	CHECK(kb_welch_p(5, 1, 10, 5, 1, 10) == 1.0);
	CHECK(isnan(kb_welch_p(5, 1, 1, 5, 1, 10)));
	CHECK(kb_welch_p(5, 0, 3, 6, 0, 3) == 0.0);
}

static void t_judge(void)
{
	struct kb_cmp_fig f = { .base = 100, .new = 106, .significant = 1 };

	kb_cmp_judge(&f, true, 5);
	CHECK(f.verdict == KB_V_WORSE && fabs(f.change_pct - 6) < 1e-9);
	kb_cmp_judge(&f, false, 5);		/* IOPS up 6 %: better */
	CHECK(f.verdict == KB_V_BETTER);
	kb_cmp_judge(&f, true, 10);
	CHECK(f.verdict == KB_V_SAME);
	f.significant = 0;
	kb_cmp_judge(&f, true, 5);
	CHECK(f.verdict == KB_V_SAME);
	f.significant = 1;
	f.base = 0;
	kb_cmp_judge(&f, true, 5);
	CHECK(isnan(f.change_pct) && f.verdict == KB_V_SAME);
}

void compare_stats_tests(void)
{
	run_case("compare: two runs of one setup are not significantly different", t_identical);
	run_case("compare: 50 % slower is significantly worse", t_shifted);
	run_case("compare: small noise is not worse", t_noise);
	run_case("compare: dependent latencies count for fewer samples", t_design_effect);
	run_case("compare: Mann-Whitney U over buckets, with ties", t_mwu);
	run_case("compare: quantile confidence intervals", t_quantile_ci);
	run_case("compare: Welch's t and the incomplete beta", t_welch);
	run_case("compare: verdicts against the threshold", t_judge);
}
