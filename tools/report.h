/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reports of jobs (output.c, normal_out.c, terse_out.c, json_out.c):
 * fio's normal output, terse version 3, JSON and json+.
 */
#ifndef KIOBENCH_REPORT_H
#define KIOBENCH_REPORT_H

#include "result.h"
#include "sensors.h"

/* What "N of M reads returned ..." warnings go on with (run, sweep, suite). */
#define KB_ZERO_READS_WARNING \
	"reads returned an all-zero block: never-written or deallocated blocks can " \
	"read unrealistically fast; write the span first (precondition)"

const char *kb_state_name(int state);
/*
 * fio's reports of the jobs res[0..n) (each with its groupid): in each
 * group, the jobs that set group_reporting as one entry (at the place of
 * the first of them; sums of I/Os, bytes, histograms; the longest
 * runtime), the others each on their own.  The entries move out of res
 * (free_results() both); *nout gets their count.  NULL: out of memory.
 */
struct kb_result *kb_group_results(struct kb_result *res, size_t n, size_t *nout);
struct kb_disk;
/* fio's "Run status group N (all jobs):" lines of the jobs res[0..n). */
void kb_print_run_status(FILE *f, const struct kb_result *res, size_t n);
/* fio's "Disk stats (read/write):" lines, and its JSON "disk_util" array. */
void kb_print_disk_stats(FILE *f, const struct kb_disk *d, size_t n);
struct json_object;
struct json_object *kb_json_disk_util(const struct kb_disk *d, size_t n);
char *kb_num2str(char *buf, size_t len, uint64_t num, int maxlen, bool pow2,
		 const char *unit);
void kb_print_normal(FILE *f, const struct kb_result *r, size_t n);
void kb_print_terse(FILE *f, const struct kb_result *r, size_t n);
struct kb_disk;
/* The same with fio's disk utilization of d[0..nd) at the end of each line. */
void kb_print_terse_disks(FILE *f, const struct kb_result *r, size_t n,
			  const struct kb_disk *d, size_t nd);
/* A disk's busy share of the run, percent (fio's util). */
double kb_disk_util(const struct kb_disk *d);
/* Returns a newly allocated string. */
char *kb_json_report(const struct kb_result *r, size_t n, long long now_ms);
/* plus: fio's json+ (clat_ns.bins); json otherwise. */
char *kb_json_report_ext(const struct kb_result *r, size_t n, long long now_ms, bool plus);
/* The same with fio's "disk_util" of the disks d[0..nd). */
char *kb_json_report_disks(const struct kb_result *r, size_t n, long long now_ms, bool plus,
			   const struct kb_disk *d, size_t nd);
struct json_object;
/* And kiobench's "fdp" (fdp.c: an array, taken; NULL: none). */
char *kb_json_report_run(const struct kb_result *r, size_t n, long long now_ms, bool plus,
			 const struct kb_disk *d, size_t nd, struct json_object *fdp);
/* The fio-compatible object of one job (as in "jobs" of kb_json_report). */
struct json_object *kb_json_job(const struct kb_result *r);
/* fio's json+ bin value of a bucket: its middle ns (fio's plat_idx_to_val). */
uint64_t kb_bin_value(const struct kb_bucket *b);
/*
 * The sensor summary of the jobs r[0..n) that ran at iops (both
 * directions) and bw (bytes/s) together: temperatures, mean power and
 * efficiency, or JSON null when none of their devices has sensors.
 */
struct json_object *kb_json_sensors(const struct kb_result *r, size_t n, double iops,
				    double bw);

/*
 * The job's sensors into its JSON object o: "sensors" (one object per
 * device that has any, or null), "sensors_note", "sensors_summary".
 */
void kb_json_job_sensors(struct json_object *o, const struct kb_result *r);
/*
 * The sensor readings nearest timeline entry t_ns (within half an
 * interval) into pt; hint[i]: where device i's search resumes.
 */
void kb_json_point_sensors(struct json_object *pt, const struct kb_result *r, uint64_t t_ns,
			   size_t *hint);

#endif /* KIOBENCH_REPORT_H */
