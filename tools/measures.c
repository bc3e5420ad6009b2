// SPDX-License-Identifier: GPL-2.0
/*
 * The secondary latency measures in the reports, and how the workers ran:
 * the completion mode, the depth they kept (Little's law), and in the open
 * loop (rate_iops) the schedule lag and the latency from the scheduled
 * arrival, which is free of coordinated omission.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "kiobench.h"
#include "measures.h"
#include "options.h"
#include "result.h"
#include "stats.h"
#include "steps.h"

typedef unsigned __int128 u128;

#define KB_DEPTH_WARN	0.98	/* kept below this share of iodepth: warn */
#define KB_DEPTH_MIN_IOS 100	/* per worker; fewer: the start-up dominates */

const char *kb_completion_name(const struct kb_job *job)
{
	return job->hipri ? "poll" : job->spin ? "spin" : "sleep";
}

/*
 * The depth each worker kept on average: I/Os in flight integrated over
 * the measured time (the sum of the measured latencies) per unit of time,
 * i.e. IOPS x mean latency (Little's law), per worker.
 */
double kb_effective_iodepth(const struct kb_result *r)
{
	uint64_t lat = r->st.dir[0].lat_sum + r->st.dir[1].lat_sum;

	if (!r->st.measured_ns || !r->st.nr_workers)
		return 0.0;
	return (double)lat / (double)r->st.measured_ns / r->st.nr_workers;
}

/* dst += src, the sums of squares too (kb_hist_merge() leaves them). */
static int merge_metric(struct kb_hist *dst, const struct kb_hist *src)
{
	u128 a = ((u128)dst->sumsq_hi << 64) | dst->sumsq_lo;
	u128 b = ((u128)src->sumsq_hi << 64) | src->sumsq_lo;

	if (kb_hist_merge(dst, src))
		return -1;
	a += b;
	dst->sumsq_hi = (uint64_t)(a >> 64);
	dst->sumsq_lo = (uint64_t)a;
	dst->unsplit += src->unsplit;
	return 0;
}

/* Measure m of the jobs r[0..n), direction d (< 0: both), into h. */
int kb_metric_merged(const struct kb_result *r, size_t n, enum kb_metric m, int d,
		     struct kb_hist *h)
{
	size_t i;
	int e;

	memset(h, 0, sizeof(*h));
	h->dir = d < 0 ? KIOBENCH_DIR_READ : d;
	for (i = 0; i < n; i++)
		for (e = 0; e < KIOBENCH_NR_DIRS; e++)
			if ((d < 0 || e == d) && r[i].has_met[m][e] &&
			    merge_metric(h, &r[i].met[m][e])) {
				kb_hist_free(h);
				return -1;
			}
	return 0;
}

/* A measure in the shape of fio's clat_ns: N, min, max, mean, stddev, percentile. */
struct json_object *kb_json_metric(const struct kb_hist *h, const struct kb_job *job)
{
	struct json_object *o = json_object_new_object(), *p;
	uint64_t pv[KB_MAX_PERCENTILES];
	unsigned int i;

	kb_jadd(o, "min", kb_ju64(h->samples ? h->min : 0));
	kb_jadd(o, "max", kb_ju64(h->samples ? h->max : 0));
	kb_jadd(o, "mean", kb_jdbl(kb_lat_mean(h->samples, h->sum)));
	kb_jadd(o, "stddev", kb_jdbl(kb_lat_stddev(h->samples, h->sum, h->sumsq_hi,
						   h->sumsq_lo)));
	kb_jadd(o, "N", kb_ju64(h->samples));
	if (kb_hist_percentiles(h, job->plist, job->nr_plist, pv, NULL))
		return o;
	p = json_object_new_object();
	for (i = 0; i < job->nr_plist; i++) {
		char key[32];

		kb_pct_str(job->plist[i], key, sizeof(key));
		kb_jadd(p, key, kb_ju64(pv[i]));
	}
	kb_jadd(o, "percentile", p);
	return o;
}

/* One of both directions' measure m, merged; JSON null if it cannot be. */
static struct json_object *both_dirs(const struct kb_result *r, enum kb_metric m)
{
	struct json_object *o;
	struct kb_hist h;

	if (kb_metric_merged(r, 1, m, -1, &h))
		return NULL;
	o = kb_json_metric(&h, r->job);
	kb_hist_free(&h);
	return o;
}

/* kiobench's own figures of how the job ran, into its "kiobench" object. */
void kb_json_measures(struct json_object *o, const struct kb_result *r)
{
	kb_jadd(o, "completion", kb_jstr(kb_completion_name(r->job)));
	kb_jadd(o, "effective_iodepth", kb_jdbl(kb_effective_iodepth(r)));
	kb_jadd(o, "retries", kb_ju64(r->st.retries));
	if (!r->job->rate_iops)
		return;
	kb_jadd(o, "rate_iops", kb_ju64(r->job->rate_iops));
	kb_jadd(o, "rate_process", kb_jstr(r->job->rate_process == KIOBENCH_RATE_POISSON ?
					   "poisson" : "linear"));
	kb_jadd(o, "schedule_lag_ns", both_dirs(r, KB_MET_SCHED_LAG));
	kb_jadd(o, "lat_from_schedule_ns", both_dirs(r, KB_MET_LAT_SCHED));
}

/* "min=..., max=..., avg=..., p50=..., p99=..., p99.9=..." in microseconds. */
static void print_metric_line(FILE *f, const char *what, const struct kb_hist *h)
{
	static const uint32_t pl[] = { 50 * KB_PCT_ONE, 99 * KB_PCT_ONE, 999 * KB_PCT_ONE / 10 };
	uint64_t pv[3];

	if (!h->samples) {
		fprintf(f, "    %s: no sample\n", what);
		return;
	}
	if (kb_hist_percentiles(h, pl, 3, pv, NULL))
		memset(pv, 0, sizeof(pv));
	fprintf(f, "    %s (usec): min=%.1f, max=%.1f, avg=%.1f, p50=%.1f, p99=%.1f, "
		"p99.9=%.1f\n", what, h->min / 1e3, h->max / 1e3,
		kb_lat_mean(h->samples, h->sum) / 1e3, pv[0] / 1e3, pv[1] / 1e3, pv[2] / 1e3);
}

static void print_open_loop(FILE *f, const struct kb_result *r)
{
	uint64_t ios = r->st.dir[0].ios + r->st.dir[1].ios;
	double got = r->st.measured_ns && r->st.nr_workers ?
		     ios * 1e9 / r->st.measured_ns / r->st.nr_workers : 0.0;
	struct kb_hist h;

	fprintf(f, "  open loop    : rate_iops=%u per worker (%s), achieved %.0f (%.1f %%)\n",
		r->job->rate_iops, r->job->rate_process == KIOBENCH_RATE_POISSON ?
		"poisson" : "linear", got, 100.0 * got / r->job->rate_iops);
	if (!kb_metric_merged(r, 1, KB_MET_SCHED_LAG, -1, &h)) {
		print_metric_line(f, "schedule lag", &h);
		kb_hist_free(&h);
	}
	if (!kb_metric_merged(r, 1, KB_MET_LAT_SCHED, -1, &h)) {
		print_metric_line(f, "lat from schedule", &h);
		kb_hist_free(&h);
	}
}

/* The completion mode, the depth kept, the open loop: after a job's directions. */
void kb_print_measures(FILE *f, const struct kb_result *r)
{
	double depth = kb_effective_iodepth(r);
	unsigned int qd = r->job->iodepth ? r->job->iodepth : 1;	/* the module's default */
	uint64_t ios = r->st.dir[0].ios + r->st.dir[1].ios;

	fprintf(f, "  completion   : %s; depth kept %.2f per worker (iodepth=%u)",
		kb_completion_name(r->job), depth, qd);
	if (r->st.retries)
		fprintf(f, "; %" PRIu64 " submissions refused for want of a tag, retried",
			r->st.retries);
	fputc('\n', f);
	if (r->job->rate_iops)
		print_open_loop(f, r);
	else if (ios >= KB_DEPTH_MIN_IOS * r->st.nr_workers && depth < KB_DEPTH_WARN * qd)
		fprintf(f, "  warning: the workers kept %.2f of iodepth=%u in flight (below "
			"%.0f %%): the submission path, not the device, set part of the pace\n",
			depth, qd, 100 * KB_DEPTH_WARN);
}
