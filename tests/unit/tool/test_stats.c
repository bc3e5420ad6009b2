// SPDX-License-Identifier: GPL-2.0
/* Unit tests of statistics (tools/stats.c): percentiles, stddev, merges, series. */
#include "options.h"
#include "result.h"
#include "stats.h"
#include "steps.h"
#include "tool_test.h"

/* ---- percentile math ------------------------------------------------------------ */

static void t_rank(void)
{
	CHECK(kb_pct_rank(1000, 99900000) == 999);	/* 0.999 * 1000 exactly */
	CHECK(kb_pct_rank(1000, 99900001) == 1000);
	CHECK(kb_pct_rank(1, 50000000) == 1);
	CHECK(kb_pct_rank(10, 1000000) == 1);		/* ceil(0.1) */
	CHECK(kb_pct_rank(1, 1) == 1);			/* at least 1 */
	CHECK(kb_pct_rank(100, KB_PCT_100) == 100);
	CHECK(kb_pct_rank(4, 25000000) == 1);
	CHECK(kb_pct_rank(4, 25000001) == 2);
	CHECK(kb_pct_rank(100000, 99999000) == 99999);
	CHECK(kb_pct_rank(1ULL << 62, 50000000) == 1ULL << 61);
	CHECK(kb_pct_rank(UINT64_MAX, KB_PCT_100) == UINT64_MAX);
}

static void t_low_confidence(void)
{
	CHECK(kb_pct_low_confidence(99999, 99999000));
	CHECK(!kb_pct_low_confidence(100000, 99999000));
	CHECK(kb_pct_low_confidence(99, 99000000));
	CHECK(!kb_pct_low_confidence(100, 99000000));
	CHECK(kb_pct_low_confidence(1, 50000000));
	CHECK(!kb_pct_low_confidence(2, 50000000));
	CHECK(kb_pct_low_confidence(UINT64_MAX, KB_PCT_100));	/* p100 never resolved */
	CHECK(kb_pct_low_confidence(0, 1000000));
}

static void t_estimate(void)
{
	struct kb_bucket b1 = { 100, 101, 1 }, b2 = { 100, 102, 1 }, b8 = { 1016, 1024, 1 };

	CHECK(kb_bucket_estimate(&b1, 0, UINT64_MAX) == 100);	/* exact */
	CHECK(kb_bucket_estimate(&b2, 0, UINT64_MAX) == 100);
	CHECK(kb_bucket_estimate(&b8, 0, UINT64_MAX) == 1019);
	CHECK(kb_bucket_estimate(&b8, 1020, 1030) == 1020);	/* clamped to min */
	CHECK(kb_bucket_estimate(&b8, 0, 1017) == 1017);		/* clamped to max */
}

static void t_percentiles(void)
{
	static const struct kb_bucket four[] = {
		{ 10, 11, 1 }, { 20, 21, 1 }, { 30, 31, 1 }, { 40, 41, 1 },
	};
	uint32_t pl[] = { 1000000, 25000000, 25000001, 50000000, 75000000, KB_PCT_100 };
	uint64_t out[6];
	bool lc[6];
	struct kb_hist h;

	mkhist(&h, four, 4, 10, 40);
	CHECK(kb_hist_percentiles(&h, pl, 6, out, lc) == 0);
	CHECK(out[0] == 10 && out[1] == 10 && out[2] == 20 && out[3] == 20 &&
	      out[4] == 30 && out[5] == 40);
	CHECK(lc[0] == false && lc[1] == false && lc[3] == false);
	CHECK(lc[4] == false);	/* 4 * 0.25 = 1 is not < 1 */
	CHECK(lc[5] == true);
	kb_hist_free(&h);
}

static void t_percentiles_edges(void)
{
	static const struct kb_bucket one[] = { { 1016, 1024, 1 } };
	static const struct kb_bucket same[] = { { 1016, 1024, 100 } };
	static const struct kb_bucket tail[] = { { 1016, 1024, 99 }, { 8192, 8320, 1 } };
	uint32_t pl[] = { 1000000, 50000000, 99000000, KB_PCT_100 };
	uint64_t out[4] = { 7, 7, 7, 7 };
	bool lc[4];
	struct kb_hist h;

	/* no samples: nothing, not zeros */
	memset(&h, 0, sizeof(h));
	CHECK(kb_hist_percentiles(&h, pl, 4, out, lc) == -1);
	CHECK(out[0] == 7);
	/* one sample: every percentile is that sample (clamped to min = max) */
	mkhist(&h, one, 1, 1020, 1020);
	CHECK(kb_hist_percentiles(&h, pl, 4, out, lc) == 0);
	CHECK(out[0] == 1020 && out[1] == 1020 && out[2] == 1020 && out[3] == 1020);
	CHECK(lc[0] && lc[1] && lc[2] && lc[3]);
	kb_hist_free(&h);
	/* all in one bucket: the midpoint */
	mkhist(&h, same, 1, 1016, 1023);
	CHECK(kb_hist_percentiles(&h, pl, 4, out, lc) == 0);
	CHECK(out[0] == 1019 && out[1] == 1019 && out[3] == 1019);
	CHECK(!lc[2] && lc[3]);	/* 100 samples resolve p99, never p100 */
	kb_hist_free(&h);
	/* p100 is the last bucket, clamped to max; p99 the first */
	mkhist(&h, tail, 2, 1016, 8200);
	CHECK(kb_hist_percentiles(&h, pl, 4, out, lc) == 0);
	CHECK(out[2] == 1019 && out[3] == 8200);
	kb_hist_free(&h);
}

static void t_stddev(void)
{
	/* 2 4 4 4 5 5 7 9: sum 40, sumsq 232, sample variance 32/7 */
	double sd = kb_lat_stddev(8, 40, 0, 232);
	uint64_t n = 1000000, v = 1000000000ULL;
	unsigned __int128 sq;

	CHECK(fabs(sd - sqrt(32.0 / 7.0)) < 1e-12);
	CHECK(kb_lat_stddev(0, 0, 0, 0) == 0.0);
	CHECK(kb_lat_stddev(1, 5, 0, 25) == 0.0);
	CHECK(fabs(kb_lat_mean(8, 40) - 5.0) < 1e-12);
	CHECK(kb_lat_mean(0, 0) == 0.0);
	/* a million samples of 1 s each: sumsq needs 128 bits, stddev exactly 0 */
	sq = (unsigned __int128)v * v * n;
	CHECK(kb_lat_stddev(n, v * n, (uint64_t)(sq >> 64), (uint64_t)sq) == 0.0);
	/* half 1e9, half 1e9 + 2: stddev sqrt(n / (n - 1)) despite the huge mean */
	sq = (unsigned __int128)v * v * (n / 2) +
	     (unsigned __int128)(v + 2) * (v + 2) * (n / 2);
	sd = kb_lat_stddev(n, v * n + n, (uint64_t)(sq >> 64), (uint64_t)sq);
	CHECK(fabs(sd - sqrt((double)n / (n - 1))) < 1e-9);
	/* inconsistent input does not produce NaN */
	CHECK(kb_lat_stddev(2, 100, 0, 1) == 0.0);
}

static void t_lat_dist(void)
{
	static const struct kb_bucket b[] = {
		{ 1, 2, 1 }, { 500, 501, 1 }, { 1500, 1501, 1 }, { 3000000, 3000001, 1 },
		{ 2500000000ULL, 2500000001ULL, 1 },
	};
	double pn[KB_LAT_N_NR], pu[KB_LAT_U_NR], pm[KB_LAT_M_NR];
	const struct kb_hist *hp[2];
	struct kb_hist h;

	mkhist(&h, b, 5, 1, 2500000000ULL);
	hp[0] = &h;
	hp[1] = NULL;
	kb_lat_dist(hp, 2, pn, pu, pm);
	CHECK(pn[0] == 20.0);	/* 1 ns: below 2 */
	CHECK(pn[8] == 20.0);	/* 500 ns: 500..749 */
	CHECK(pu[0] == 20.0);	/* 1.5 us: below 2 us */
	CHECK(pm[1] == 20.0);	/* 3 ms: 2..3 ms */
	CHECK(pm[11] == 20.0);	/* 2.5 s: >= 2000 ms */
	CHECK(pn[1] == 0.0 && pu[9] == 0.0 && pm[10] == 0.0);
	kb_hist_free(&h);
}

static void t_steady_state(void)
{
	struct kb_ss ss;
	const double flat[] = { 500, 100, 1000, 1010, 990, 1005, 995 };
	const double noisy[] = { 1000, 800, 1250, 800, 1000 };	/* 1250 is +29 %, flat fit */
	const double rising[] = { 900, 950, 1000, 1050, 1100 };	/* within 20 %, fit moves 20 % */
	const double slow[] = { 980, 990, 1000, 1010, 1020 };		/* fit moves 4 % */

	CHECK(kb_steady_state(flat, 7, 5, 20, 10, &ss));	/* only the last 5 count */
	CHECK(fabs(ss.mean - 1000) < 1e-9 && fabs(ss.max_dev - 10) < 1e-9);
	CHECK(!kb_steady_state(flat, 6, 5, 20, 10, &ss));	/* 100 is in the window */
	CHECK(!ss.data_ok);
	CHECK(!kb_steady_state(noisy, 5, 5, 20, 10, &ss));
	CHECK(!ss.data_ok && ss.slope_ok);
	CHECK(!kb_steady_state(rising, 5, 5, 20, 10, &ss));
	CHECK(ss.data_ok && !ss.slope_ok);
	CHECK(fabs(ss.slope - 50) < 1e-9 && fabs(ss.excursion - 200) < 1e-9);
	CHECK(kb_steady_state(slow, 5, 5, 20, 10, &ss));
	CHECK(fabs(ss.slope - 10) < 1e-9 && fabs(ss.intercept - 980) < 1e-9);
	CHECK(!kb_steady_state(slow, 4, 5, 20, 10, &ss));	/* fewer than the window */
	CHECK(!ss.reached);
}

static void t_hist_merge_and_summary(void)
{
	static const char a[] = "# kiobench-histogram 1\n# dir read\n# unit ns\n# bits 6\n"
		"# samples 3\n# min 100\n# max 2000\n# sum 2200\n100 101 2\n1984 2000 1\n";
	static const char b[] = "# kiobench-histogram 1\n# dir read\n# unit ns\n# bits 6\n"
		"# samples 2\n# min 50\n# max 1990\n# sum 2040\n50 51 1\n1984 2000 1\n";
	struct kb_result r[2];
	struct kb_job job;
	struct kb_sum s;
	struct kb_hist h = { 0 };

	memset(r, 0, sizeof(r));
	kb_job_init(&job);
	CHECK(kb_hist_parse(a, 0, &r[0].hist[0], err, sizeof(err)) == 0);
	CHECK(kb_hist_parse(b, 0, &r[1].hist[0], err, sizeof(err)) == 0);
	CHECK(kb_hist_merge(&h, &r[0].hist[0]) == 0 && kb_hist_merge(&h, &r[1].hist[0]) == 0);
	CHECK(h.nr == 3 && h.samples == 5 && h.min == 50 && h.max == 2000 && h.sum == 4240);
	CHECK(h.b[0].lo == 50 && h.b[1].lo == 100 && h.b[1].count == 2 && h.b[2].count == 2);
	kb_hist_free(&h);
	r[0].job = r[1].job = &job;
	r[0].has_hist[0] = r[1].has_hist[0] = true;
	r[0].st.measured_ns = 1000000000;	/* 3 I/Os in 1 s */
	r[0].st.dir[0] = (struct kb_dirstat){ .present = true, .ios = 3, .bytes = 12288,
		.lat_min = 100, .lat_max = 2000, .lat_sum = 2200, .all_ios = 4 };
	r[1].st.measured_ns = 500000000;	/* 2 I/Os in 0.5 s */
	r[1].st.dir[0] = (struct kb_dirstat){ .present = true, .ios = 2, .bytes = 8192,
		.lat_min = 50, .lat_max = 1990, .lat_sum = 2040, .all_ios = 2 };
	/* side by side: the rates add up */
	CHECK(kb_summarize(r, 2, 0, false, &s) == 0);
	CHECK(s.present && s.ios == 5 && s.all_ios == 6 && s.samples == 5);
	CHECK(fabs(s.iops - 7.0) < 1e-9 && fabs(s.bw - 28672.0) < 1e-6);
	CHECK(fabs(s.mean - 848.0) < 1e-9 && s.min == 50 && s.max == 2000);
	CHECK(s.has_pct && s.pct[0] == 100);	/* p50: the 3rd of 5 is in [100, 101) */
	CHECK(s.measured_ns == 1000000000);
	/* one after the other (bursts): totals over the summed times */
	CHECK(kb_summarize(r, 2, 0, true, &s) == 0);
	CHECK(fabs(s.iops - 5 / 1.5) < 1e-9 && s.measured_ns == 1500000000);
	/* an empty direction */
	CHECK(kb_summarize(r, 2, 1, false, &s) == 0);
	CHECK(!s.present && !s.has_pct && s.iops == 0);
	kb_hist_free(&r[0].hist[0]);
	kb_hist_free(&r[1].hist[0]);
	kb_job_free(&job);
}

static void t_saturation(void)
{
	const double iops[] = { 100, 200, 400, 410, 415, 405 };
	const double lat[] = { 10, 10, 10, 19, 38, 40 };
	const double flat_lat[] = { 10, 10, 10, 10, 10, 10 };
	const double noisy[] = { 100, 200, 195, 400, 410, 500 };
	const double noisy_lat[] = { 10, 10, 11, 10, 20, 12 };

	CHECK(kb_saturation(iops, lat, 6, 5) == 2);	/* nothing beyond 420 after 400 */
	CHECK(kb_saturation(iops, flat_lat, 6, 5) == -1);	/* latency must grow */
	CHECK(kb_saturation(iops, lat, 3, 5) == -1);
	CHECK(kb_saturation(iops, lat, 1, 5) == -1);
	/* a dip (200 -> 195) is not saturation while later steps grow */
	CHECK(kb_saturation(noisy, noisy_lat, 6, 5) == -1);
	CHECK(kb_saturation(noisy, noisy_lat, 5, 5) == 3);	/* 400 -> 410, 10 -> 20 us */
}

void stats_tests(void)
{
	run_case("percentile rank rounding", t_rank);
	run_case("low-confidence tail flag", t_low_confidence);
	run_case("bucket midpoint estimate", t_estimate);
	run_case("percentiles: rank walk", t_percentiles);
	run_case("percentiles: 0 samples, 1 sample, one bucket, p100", t_percentiles_edges);
	run_case("stddev from sum and 128-bit sumsq", t_stddev);
	run_case("latency distribution", t_lat_dist);
	run_case("steady state: window, data and slope excursion", t_steady_state);
	run_case("histogram merge and step summary", t_hist_merge_and_summary);
	run_case("saturation point", t_saturation);
}
