/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's random_distribution (distrib.c): the uniform one, zipf, pareto,
 * normal, zoned and zoned_abs.
 */
#ifndef KIOBENCH_DISTRIB_H
#define KIOBENCH_DISTRIB_H

#include <stdint.h>

#include "kiobench.h"

/* fio's skewed random_distribution values (kb_job.skew). */
enum kb_skew { KB_SKEW_NONE, KB_SKEW_ZIPF, KB_SKEW_PARETO, KB_SKEW_NORMAL };

/* One zone of fio's random_distribution=zoned/zoned_abs. */
struct kb_zone {
	uint8_t access;		/* percent of the direction's random offsets */
	uint64_t size;		/* percent of the span (zoned), bytes (zoned_abs) */
};

/*
 * val, as fio reads it: "random", "zipf[:THETA]", "pareto[:H]", "normal[:DEV]", or
 * "zoned:A/S:A/S..." and
 * "zoned_abs:A/SIZE:..." with ',' between the reads', writes' and trims'
 * sets (one set: every direction's).  Sets job->random_dist and each
 * direction's zones (a direction with none is uniform).  0, or -1 with a
 * message in err and job untouched.
 */
int kb_parse_random_dist(const char *val, unsigned int kb_base, struct kb_job *job,
			 char *err, size_t errlen);
/* The zones of job as fio's syntax, "random" without zones. */
void kb_random_dist_str(const struct kb_zone *const zones[KIOBENCH_NR_DIRS],
			const unsigned int nr[KIOBENCH_NR_DIRS], bool abs,
			char *buf, size_t len);
void kb_zones_free(struct kb_job *job);

#define KB_CDF_MAX	2049	/* entries of the kernel's table */
#define KB_CDF_ONE	(1ULL << 32)

/*
 * The table of random-cdf for job's zipf, pareto or normal over n blocks:
 * ranks from 0 (the most likely) and the fraction of 2^32 of the draws below
 * each, from fio's own formulas; malloc'ed, *nr entries.  0, or -1 and err.
 */
int kb_skew_table(const struct kb_job *job, uint64_t n, struct kiobench_cdf_ent **out,
		  unsigned int *nr, char *err, size_t errlen);
/* The share of the draws that the table t[0..nr) sends below rank r. */
double kb_cdf_share(const struct kiobench_cdf_ent *t, unsigned int nr, uint64_t r);

#endif /* KIOBENCH_DISTRIB_H */
