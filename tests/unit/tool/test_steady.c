// SPDX-License-Identifier: GPL-2.0
/* Unit tests of fio's steady state (tools/steady.c) and its options. */
#include <errno.h>
#include <math.h>

#include "options.h"
#include "steady.h"
#include "tool_test.h"

#define SEC	1000000000ULL

/*
 * A check of opts fed one sample a second: the I/Os of second k are
 * iops[k] (4 KiB each); true if it attained steady state, after how many
 * seconds in *at.
 */
static bool feed(const struct kb_ss_opts *o, const uint64_t *iops, unsigned int n,
		 struct kb_steady *ss, unsigned int *at)
{
	uint64_t ios = 0;
	unsigned int k;

	CHECK(kb_ss_init(ss, o) == 0);
	kb_ss_sample(ss, 1, 0, 0, 0);	/* the start: no sample yet */
	for (k = 0; k < n; k++) {
		ios += iops[k];
		if (kb_ss_sample(ss, 1 + (k + 1) * SEC, (k + 1) * SEC, ios, ios * 4096)) {
			*at = k + 1;
			return true;
		}
	}
	return false;
}

static struct kb_ss_opts opts(const char *crit, uint32_t dur_s, uint64_t ramp_ns)
{
	struct kb_ss_opts o = { 0 };

	CHECK(kb_ss_parse(crit, 1024, &o, err, sizeof(err)) == 0);
	o.dur_s = dur_s;
	o.ramp_ns = ramp_ns;
	return o;
}

static void t_ss_parse(void)
{
	struct kb_ss_opts o = { 0 };
	char buf[64];

	CHECK(kb_ss_parse("iops:10%", 1024, &o, err, sizeof(err)) == 0);
	CHECK(!kb_ss_on_bw(&o) && !kb_ss_on_slope(&o) && o.pct && o.limit == 10);
	CHECK(kb_ss_parse("bw_slope:1M", 1024, &o, err, sizeof(err)) == 0);
	CHECK(kb_ss_on_bw(&o) && kb_ss_on_slope(&o) && !o.pct && o.limit == 1048576);
	CHECK(kb_ss_parse("bw:1M", 1000, &o, err, sizeof(err)) == 0 && o.limit == 1e6);
	kb_ss_str(&o, buf, sizeof(buf));
	CHECK_STR(buf, "bw:1000000.000000");
	CHECK(kb_ss_parse("iops_slope:0.01%", 1024, &o, err, sizeof(err)) == 0);
	kb_ss_str(&o, buf, sizeof(buf));
	CHECK_STR(buf, "iops_slope:0.010000%");
	CHECK(kb_ss_parse("iops", 1024, &o, err, sizeof(err)) == -1);
	CHECK(strstr(err, "limit must follow") != NULL);
	CHECK(kb_ss_parse("lat:1", 1024, &o, err, sizeof(err)) == -1);
	CHECK(kb_ss_parse("iops:-1", 1024, &o, err, sizeof(err)) == -1);
	CHECK(kb_ss_parse("iops:x%", 1024, &o, err, sizeof(err)) == -1);
	/* unchanged by the failures */
	CHECK(!kb_ss_on_bw(&o) && kb_ss_on_slope(&o) && o.pct && o.limit == 0.01);
	o.dur_s = 1;
	CHECK(kb_ss_check_opts(&o, err, sizeof(err)) == -1);
	o.dur_s = 2;
	CHECK(kb_ss_check_opts(&o, err, sizeof(err)) == 0);
}

/* The options: fio's names and defaults; ss_dur in whole seconds. */
static void t_ss_options(void)
{
	struct kb_global g;
	struct kb_job job;

	kb_job_init(&job);
	kb_global_init(&g, KB_CMD_RUN);
	CHECK(job.ss.dur_s == 0 && job.ss.ramp_ns == 0);
	CHECK(kb_ss_on_slope(&job.ss) && !kb_ss_on_bw(&job.ss) && job.ss.pct &&
	      job.ss.limit == 0.01);	/* fio's iops_slope:0.01% */
	CHECK(apply(&job, &g, "ss", "bw:5%") == 0 && kb_ss_on_bw(&job.ss));
	CHECK(apply(&job, &g, "ss_dur", "30") == 0 && job.ss.dur_s == 30);
	CHECK(apply(&job, &g, "steadystate_duration", "2m") == 0 && job.ss.dur_s == 120);
	CHECK(apply(&job, &g, "ss_dur", "1500ms") == 0 && job.ss.dur_s == 1);
	CHECK(apply(&job, &g, "ss_dur", "500ms") == -1);
	CHECK(strstr(err, "under a second") != NULL && job.ss.dur_s == 1);
	CHECK(apply(&job, &g, "ss_ramp", "10") == 0 && job.ss.ramp_ns == 10 * SEC);
	kb_job_free(&job);
	kb_global_free(&g);
}

/*
 * fio's criteria on known samples: 1000, 1100, 1200 IOPS have mean 1100,
 * largest deviation 100 (9.09 % of the mean) and slope 100 a second
 * (9.09 %); steady when the criterion is under the limit, never at it.
 */
static void t_ss_criteria(void)
{
	static const uint64_t rising[] = { 1000, 1100, 1200 }, flat[] = { 500, 500, 500 };
	struct kb_ss_opts o;
	struct kb_steady ss;
	unsigned int at = 0;

	o = opts("iops:9.1%", 3, 0);
	CHECK(feed(&o, rising, 3, &ss, &at) && at == 3);
	CHECK(fabs(ss.deviation - 100) < 1e-9 && fabs(ss.criterion - 100.0 / 11) < 1e-9);
	CHECK(fabs(ss.slope - 100) < 1e-9);
	kb_ss_free(&ss);
	o = opts("iops:9%", 3, 0);
	CHECK(!feed(&o, rising, 3, &ss, &at));
	kb_ss_free(&ss);
	o = opts("iops:101", 3, 0);
	CHECK(feed(&o, rising, 3, &ss, &at));
	kb_ss_free(&ss);
	o = opts("iops:100", 3, 0);
	CHECK(!feed(&o, rising, 3, &ss, &at));
	kb_ss_free(&ss);
	o = opts("iops_slope:9.1%", 3, 0);
	CHECK(feed(&o, rising, 3, &ss, &at));
	kb_ss_free(&ss);
	o = opts("iops_slope:9%", 3, 0);
	CHECK(!feed(&o, rising, 3, &ss, &at));
	kb_ss_free(&ss);
	/* bandwidth: 4 KiB I/Os, the same shares */
	o = opts("bw_slope:409601", 3, 0);
	CHECK(feed(&o, rising, 3, &ss, &at));
	CHECK(kb_ss_mean(&ss, true) == 1100 * 4096 && kb_ss_mean(&ss, false) == 1100);
	kb_ss_free(&ss);
	/* a flat window: 0 is under any positive limit, never under 0 */
	o = opts("iops:0%", 3, 0);
	CHECK(!feed(&o, flat, 3, &ss, &at));
	kb_ss_free(&ss);
}

/* The window slides: the last dur samples in order; the ramp holds it off. */
static void t_ss_window_and_ramp(void)
{
	static const uint64_t s[] = { 10, 5000, 3000, 1000, 1000, 1000, 1000 };
	struct kb_ss_opts o;
	struct kb_steady ss;
	unsigned int at = 0;

	o = opts("iops:1%", 3, 0);
	CHECK(feed(&o, s, 7, &ss, &at) && at == 6);
	CHECK(kb_ss_at(&ss, false, 0) == 1000 && kb_ss_at(&ss, false, 2) == 1000);
	kb_ss_free(&ss);
	o = opts("iops:1%", 3, 0);
	CHECK(!feed(&o, s, 5, &ss, &at));
	CHECK(ss.n == 5 && kb_ss_at(&ss, false, 0) == 3000 && kb_ss_at(&ss, false, 2) == 1000);
	kb_ss_free(&ss);
	/*
	 * ramp 2 s: samples from 3 s on (fio: one second after the ramp), so
	 * 3000, 1000 (50 %: not under) then 1000, 1000; from 2 s, 5000 and
	 * 3000 (25 %) would pass at once
	 */
	o = opts("iops:50%", 2, 2 * SEC);
	CHECK(feed(&o, s, 7, &ss, &at) && at == 5);
	CHECK(kb_ss_at(&ss, false, 0) == 1000);
	kb_ss_free(&ss);
}

/*
 * fio's check_min_rate: nothing in the ramp and 2 s after; a direction's
 * first check starts its cycle; then each rate_cycle its rate over the
 * cycle against the minimum, bytes/s before IOPS; idle directions skipped.
 */
static void t_min_rate(void)
{
	struct kb_limits m = { .bps = { 1000000, 0 }, .iops = { 50, 100 }, .cycle_ms = 1000 };
	struct kb_limits_state c = { 0 };
	struct kb_limits_counts n = { 0 };
	char msg[128] = "";

	CHECK(kb_limits_any(&m));
	/* 2 s into a job with a 1 s ramp: too early whatever the counts */
	n.ios[0] = 300;
	n.bytes[0] = 300 * 4096;
	CHECK(kb_limits_check(&m, &c, 2 * SEC, SEC, &n, msg, sizeof(msg)) == 0);
	CHECK(c.ns[0] == 0);
	CHECK(kb_limits_check(&m, &c, 3 * SEC, SEC, &n, msg, sizeof(msg)) == 0);
	CHECK(c.ns[0] == 3 * SEC && c.ns[1] == 0);	/* the writes did nothing */
	/* within the cycle: not judged, even at no I/O */
	CHECK(kb_limits_check(&m, &c, 3 * SEC + SEC / 2, SEC, &n, msg, sizeof(msg)) == 0);
	/* 250 reads of 4 KiB in the next second: 1024000 B/s >= 1000000 */
	n.ios[0] += 250;
	n.bytes[0] += 250 * 4096;
	CHECK(kb_limits_check(&m, &c, 4 * SEC, SEC, &n, msg, sizeof(msg)) == 0);
	/* 240 in the next: 983040 B/s, under; the IOPS (240 >= 50) do not count */
	n.ios[0] += 240;
	n.bytes[0] += 240 * 4096;
	CHECK(kb_limits_check(&m, &c, 5 * SEC, SEC, &n, msg, sizeof(msg)) == EIO);
	CHECK_STR(msg, "read: rate_min=1000000B/s not met, got 983040B/s");
	/* a job of writes: IOPS only */
	memset(&c, 0, sizeof(c));
	memset(&n, 0, sizeof(n));
	n.ios[1] = 10;
	n.bytes[1] = 10 * 4096;
	CHECK(kb_limits_check(&m, &c, 3 * SEC, 0, &n, msg, sizeof(msg)) == 0);
	n.ios[1] += 99;
	n.bytes[1] += 99 * 4096;
	CHECK(kb_limits_check(&m, &c, 4 * SEC, 0, &n, msg, sizeof(msg)) == EIO);
	CHECK_STR(msg, "write: rate_iops_min=100 not met, got 99 IOPS");
}

/* fio's max_latency: any I/O longer than a direction's bound, at any time. */
static void t_max_latency(void)
{
	struct kb_limits m = { .max_lat_ns = { 0, 2000000 }, .cycle_ms = 1000 };
	struct kb_limits_state c = { 0 };
	struct kb_limits_counts n = { .lat_max = { 9000000, 2000000 } };
	char msg[128] = "";

	CHECK(kb_limits_any(&m));
	CHECK(kb_limits_check(&m, &c, SEC / 2, SEC, &n, msg, sizeof(msg)) == 0);
	n.lat_max[1] = 2000001;
	CHECK(kb_limits_check(&m, &c, SEC / 2, SEC, &n, msg, sizeof(msg)) == ETIMEDOUT);
	CHECK_STR(msg, "write: latency of 2000 usec exceeds specified max (2000 usec)");
}

/* The options: fio's R[,W] pairs, rate_cycle's default. */
static void t_min_rate_options(void)
{
	struct kb_global g;
	struct kb_job job;

	kb_job_init(&job);
	kb_global_init(&g, KB_CMD_RUN);
	CHECK(!kb_limits_any(&job.limits) && job.limits.cycle_ms == 1000);
	CHECK(apply(&job, &g, "max_latency", "500") == 0);
	CHECK(job.limits.max_lat_ns[0] == 500000 && job.limits.max_lat_ns[1] == 500000);
	CHECK(apply(&job, &g, "max_latency", "1ms,2s") == 0);
	CHECK(job.limits.max_lat_ns[0] == 1000000 && job.limits.max_lat_ns[1] == 2 * SEC);
	CHECK(apply(&job, &g, "max_latency", ",,9") == 0);	/* the trims' */
	CHECK(!job.limits.max_lat_ns[0] && !job.limits.max_lat_ns[1] &&
	      job.limits.max_lat_ns[2] == 9000);
	CHECK(apply(&job, &g, "max_latency", "x") == -1);
	CHECK(apply(&job, &g, "rate_min", "1m") == 0);
	CHECK(job.limits.bps[0] == 1048576 && job.limits.bps[1] == 1048576);
	CHECK(apply(&job, &g, "ratemin", ",2k") == 0);
	CHECK(job.limits.bps[0] == 0 && job.limits.bps[1] == 2048);
	CHECK(apply(&job, &g, "rate_iops_min", "100,50") == 0);
	CHECK(job.limits.iops[0] == 100 && job.limits.iops[1] == 50);
	CHECK(apply(&job, &g, "rate_cycle", "250") == 0 && job.limits.cycle_ms == 250);
	CHECK(apply(&job, &g, "rate_cycle", "0") == -1);
	CHECK(apply(&job, &g, "rate_min", "1,2,3,4") == -1);
	CHECK(apply(&job, &g, "rate_iops_min", ",") == -1);
	kb_job_free(&job);
	kb_global_free(&g);
}

void steady_tests(void)
{
	run_case("steadystate: fio's syntax, refusals", t_ss_parse);
	run_case("steadystate: options, defaults, ss_dur in seconds", t_ss_options);
	run_case("steadystate: deviation and slope, absolute and percent", t_ss_criteria);
	run_case("steadystate: the sliding window, ss_ramp", t_ss_window_and_ramp);
	run_case("rate_min, rate_iops_min: fio's check", t_min_rate);
	run_case("max_latency: fio's check", t_max_latency);
	run_case("rate_min, rate_iops_min, rate_cycle: options", t_min_rate_options);
}
