/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The completion mode, the depth kept, the open loop and the other
 * measures in the reports (measures.c).
 */
#ifndef KIOBENCH_MEASURES_H
#define KIOBENCH_MEASURES_H

#include "result.h"

struct json_object;

double kb_effective_iodepth(const struct kb_result *r);
/* Measure m of jobs r[0..n), direction d (< 0: both merged), into h (then kb_hist_free). */
int kb_metric_merged(const struct kb_result *r, size_t n, enum kb_metric m, int d,
		     struct kb_hist *h);
/* A measure in the shape of fio's clat_ns, percentiles from job's percentile_list. */
struct json_object *kb_json_metric(const struct kb_hist *h, const struct kb_job *job);
void kb_json_measures(struct json_object *o, const struct kb_result *r);
void kb_print_measures(FILE *f, const struct kb_result *r);
/* The block layer's flush and FUA in place of the job's (normal output). */
void kb_print_ops_notes(FILE *f, const struct kb_result *r);
/* The kernel's settings (kb_status.cfg): fio's names, one line / an object. */
const char *kb_kcfg_completion(const struct kb_kcfg *c);
/* "feistel-permutation" (the random map) or "xoshiro256**" (norandommap). */
const char *kb_kcfg_generator(const struct kb_kcfg *c);
const char *kb_kcfg_write_op(const struct kb_kcfg *c);
const char *kb_kcfg_trim_op(const struct kb_kcfg *c);
struct json_object *kb_zbd_json(const struct kb_zbd_counts *z);
void kb_kcfg_str(const struct kb_kcfg *c, char *buf, size_t len);
struct json_object *kb_kcfg_json(const struct kb_kcfg *c);

#endif /* KIOBENCH_MEASURES_H */
