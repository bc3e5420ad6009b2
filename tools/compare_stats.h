/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare's tests (compare_stats.c): is NEW worse than BASE?
 */
#ifndef KIOBENCH_COMPARE_STATS_H
#define KIOBENCH_COMPARE_STATS_H

#include "result.h"

#define KB_CMP_ALPHA	0.01	/* significance level of every test */
#define KB_CMP_Z	2.5758	/* two-sided normal quantile of KB_CMP_ALPHA */

/* The figures compared, per job and direction. */
enum kb_cmp_fig_id {
	KB_CF_IOPS, KB_CF_MBS, KB_CF_MEAN, KB_CF_P50, KB_CF_P99, KB_CF_P999, KB_CF_MAX,
	KB_CF_NR
};
extern const char *const kb_cf_names[KB_CF_NR];	/* "IOPS", "MB/s", "mean" ... */
extern const char *const kb_cf_keys[KB_CF_NR];	/* "iops", "mb_s", "mean_ns" ... */

/* One direction of one job of a result file, as compare reads it. */
struct kb_cmp_dir {
	bool present;
	double iops, mbs;		/* MB/s: 10^6 bytes/s */
	double mean, stddev;		/* ns */
	uint64_t n, max;
	bool has_pct;
	uint64_t pct[3];		/* p50, p99, p99.9 ns */
	struct kb_bucket *b;		/* the latency histogram; NULL: none */
	size_t nr;
	uint64_t min;			/* ns */
	char hist_src;			/* 'k': kiobench.hist, 'b': json+'s bins, 0: none */
	double *iops_iv, *mbs_iv;	/* rates of the measured timeline intervals */
	double *ios_iv, *lat_iv;	/* their I/Os and summed latency (ns) */
	size_t nr_iv;
};

enum kb_verdict { KB_V_SAME, KB_V_BETTER, KB_V_WORSE };

struct kb_cmp_fig {
	double base, new;
	double change_pct;		/* NAN when base is 0 */
	double p;			/* NAN: no p-value (not tested, or an interval test) */
	int significant;		/* 1, 0, or -1: not tested */
	enum kb_verdict verdict;
	const char *test;		/* how: "welch", "mann-whitney", "quantile-ci", "none" */
};

/* Mann-Whitney U of new against base; buckets of equal lo are ties. */
struct kb_mwu {
	double auc;			/* P(new > base) + P(new == base) / 2 */
	double z, p;			/* normal approximation, tie-corrected; p two-sided */
};

struct kb_cmp_result {
	struct kb_cmp_fig f[KB_CF_NR];
	double deff[2];			/* kb_design_effect() of base and new */
	bool has_mwu;
	struct kb_mwu mwu;
	unsigned int worse;		/* figures judged KB_V_WORSE */
};

/* 0, or -1 when either side is empty. */
int kb_mwu_hist(const struct kb_bucket *a, size_t na, const struct kb_bucket *b, size_t nb,
		struct kb_mwu *r);
/*
 * Distribution-free confidence interval of quantile q (0 < q < 1) of the
 * histogram b[0..nr): the values of ranks nq -+ z sqrt(nq(1 - q)), each
 * widened to its bucket.  -1 when it is empty.
 */
int kb_quantile_ci(const struct kb_bucket *b, size_t nr, double q, double z,
		   uint64_t *lo, uint64_t *hi);
/* Two-sided p of Welch's t test (Student's t, Welch-Satterthwaite df); NAN if n < 2. */
double kb_welch_p(double m1, double v1, double n1, double m2, double v2, double n2);
/* Mean and sample variance of x[0..n) (variance 0 when n < 2). */
void kb_mean_var(const double *x, size_t n, double *mean, double *var);
/*
 * The design effect of cd's latencies: the variance of their mean over
 * the timeline's intervals, against what independent samples would give
 * (sd^2 / n); at least 1, and 1 without intervals.  Latencies of one run
 * are not independent (a stall of the host delays every I/O in flight),
 * so the tests over histograms divide their sample sizes by it.
 */
double kb_design_effect(const struct kb_cmp_dir *cd);
/*
 * The design effect of quantile q's interval: at least deff, and at least
 * what makes the samples above q as many as the timeline's intervals
 * (n (1 - q) / k): the slow I/Os come in clusters, one stall delaying all
 * in flight, and the timeline cannot tell how many stalls an interval had.
 */
double kb_tail_effect(const struct kb_cmp_dir *cd, double deff, double q);
/* Regularized incomplete beta function I_x(a, b). */
double kb_betai(double a, double b, double x);
/* Worse, better or the same, given threshold percent; higher_worse: latency. */
void kb_cmp_judge(struct kb_cmp_fig *f, bool higher_worse, double threshold);
/* Every figure of base against new. */
void kb_cmp_dirs(const struct kb_cmp_dir *base, const struct kb_cmp_dir *new,
		 double threshold, struct kb_cmp_result *r);

#endif /* KIOBENCH_COMPARE_STATS_H */
