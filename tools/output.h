/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the report formats share (output.c): the derived numbers of one
 * direction, for normal_out.c, terse_out.c and json_out.c only.
 */
#ifndef KB_OUTPUT_H
#define KB_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiobench.h"
#include "result.h"
#include "sensors.h"

typedef unsigned __int128 u128;

/* Derived numbers of one direction. */
struct dir_calc {
	const struct kb_dirstat *ds;
	uint64_t runtime_ms, bw_bytes, iops_int;
	double iops, mean, dev;
	bool has_pct;
	uint64_t pv[KB_MAX_PERCENTILES];
	bool lowconf[KB_MAX_PERCENTILES];
	bool any_lowconf;
};

void kb_calc_rates(const struct kb_result *r, int d, struct dir_calc *c);
void kb_calc_dir(const struct kb_result *r, int d, struct dir_calc *c);
bool kb_dir_shown(const struct kb_result *r, int d);
void kb_fmt_duration(char *buf, size_t len, uint64_t ns);
int kb_ndigits(uint64_t v);
double kb_sys_cpu_pct(const struct kb_result *r);
double kb_cpu_ns_per_io(const struct kb_result *r);
void kb_result_lat_dist(const struct kb_result *r, double *pn, double *pu, double *pm);
void kb_job_rates(const struct kb_result *r, double *iops, double *bw);

/*
 * fio's unified_rw_reporting=mixed of r: a copy whose reads are r's reads,
 * writes and trims summed (counts, bytes, latency, histograms, the
 * per-priority latency), with no writes or trims and none of r's other
 * measures; the rest is r's (shared, not copied).  kb_mixed_free() frees
 * what it made.  -1: out of memory.
 */
int kb_mixed_result(const struct kb_result *r, struct kb_result *m);
void kb_mixed_free(struct kb_result *m);
/* clat_percentiles or lat_percentiles: the latency's percentiles are shown. */
bool kb_pct_shown(const struct kb_job *job);
/* fio's num2str of a bandwidth (bytes/s) in the job's unit_base, sig_figs digits. */
char *kb_bw_str(char *buf, size_t len, uint64_t bytes_s, bool primary,
		const struct kb_job *job);
char *kb_bytes_str(char *buf, size_t len, uint64_t bytes, bool primary,
		   const struct kb_job *job);
/* significant_figures, or fio's default 4 (a job of a sweep's step has it too) */
unsigned int kb_sig_figs(const struct kb_job *job);

/*
 * fio's bw (KiB/s) and iops samples of direction d of r: r's own when it
 * has them, else from its timeline, a sample per window of
 * kb_job_rate_window_ns() (0: each interval) from the end of the warm-up on
 * that has I/O of d, as fio's; a last window shorter than that is left out.
 */
void kb_rate_samples(const struct kb_result *r, int d, struct kb_samples *bw,
		     struct kb_samples *iops);
/* fio's calc_lat of samples: false when there are none. */
bool kb_samples_stats(const struct kb_samples *s, double *mean, double *dev);

/*
 * fio's "per" of a mean bandwidth sample (KiB/s): its share of the
 * aggregate bandwidth of r's group in direction d (fio's rs->agg: its
 * entries among all[0..n) summed over the longest runtime; all NULL: r's
 * own), percent, at most 100.
 */
double kb_bw_per(const struct kb_result *all, size_t n, const struct kb_result *r, int d,
		 double mean_kib);

#define KB_NO_POWER_NOTE "no power sensor: efficiency not reported"

/* IOPS per watt and MB/s per watt at iops and bw (bytes/s); false: no power. */
bool kb_efficiency(const struct kb_hw_sum *s, double iops, double bw,
		double *iops_w, double *mbs_w);

#endif /* KB_OUTPUT_H */
