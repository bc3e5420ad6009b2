/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's random_distribution (distrib.c): the uniform one, zoned and
 * zoned_abs; the others are refused with the reason.
 */
#ifndef KIOBENCH_DISTRIB_H
#define KIOBENCH_DISTRIB_H

#include <stdint.h>

#include "kiobench.h"

/*
 * val, as fio reads it: "random", or "zoned:A/S:A/S..." and
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

#endif /* KIOBENCH_DISTRIB_H */
