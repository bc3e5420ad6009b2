/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Percentiles, means, deviations and fio's latency distribution of
 * histograms (stats.c).
 */
#ifndef KIOBENCH_STATS_H
#define KIOBENCH_STATS_H

#include "result.h"

uint64_t kb_bucket_estimate(const struct kb_bucket *b, uint64_t min, uint64_t max);
uint64_t kb_pct_rank(uint64_t n, uint32_t pct);
bool kb_pct_low_confidence(uint64_t n, uint32_t pct);
/* 0 and out[] filled, or -1 when there are no samples. */
int kb_hist_percentiles(const struct kb_hist *h, const uint32_t *plist,
			unsigned int nr, uint64_t *out, bool *lowconf);
double kb_lat_mean(uint64_t n, uint64_t sum);
double kb_lat_stddev(uint64_t n, uint64_t sum, uint64_t sumsq_hi, uint64_t sumsq_lo);

/* fio's latency distribution ranges (percent of all I/Os). */
#define KB_LAT_N_NR	10
#define KB_LAT_U_NR	10
#define KB_LAT_M_NR	12
extern const unsigned int kb_lat_nu_edges[KB_LAT_N_NR];	/* 2 4 10 ... 1000 */
extern const unsigned int kb_lat_m_edges[KB_LAT_M_NR];	/* 2 ... 2000, >=2000 */
void kb_lat_dist(const struct kb_hist *const *h, unsigned int nh,
		 double *pn, double *pu, double *pm);

#endif /* KIOBENCH_STATS_H */
