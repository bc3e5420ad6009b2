// SPDX-License-Identifier: GPL-2.0
/* Unit tests of fio's random_distribution as the tool reads it (tools/distrib.c). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "distrib.h"
#include "options.h"
#include "tool_test.h"

/* val parsed into a fresh job; the zones as fio's syntax, or "ERR" and err. */
static const char *dist(const char *val)
{
	static char buf[4096];
	struct kb_job job;

	kb_job_init(&job);
	if (kb_parse_random_dist(val, 1024, &job, err, sizeof(err)))
		snprintf(buf, sizeof(buf), "ERR");
	else
		kb_random_dist_str((const struct kb_zone *const *)job.zones, job.nr_zones,
				   job.zones_abs, buf, sizeof(buf));
	kb_job_free(&job);
	return buf;
}

static void t_zoned(void)
{
	CHECK_STR(dist("random"), "random");
	/* one set is every direction's */
	CHECK_STR(dist("zoned:60/10:30/20:8/30:2/40"),
		  "zoned:60/10:30/20:8/30:2/40,60/10:30/20:8/30:2/40");
	/* the reads', then the writes'; an empty set leaves a direction uniform */
	CHECK_STR(dist("zoned:80/25:20/75,20/25:80/75"), "zoned:80/25:20/75,20/25:80/75");
	CHECK_STR(dist("zoned:,50/50:50/50"), "zoned:,50/50:50/50");
	/* the trims' set is read (and checked), not used */
	CHECK_STR(dist("zoned:100/100,100/100,50/50:50/50"), "zoned:100/100,100/100");
	CHECK_STR(dist("zoned:100/100,100/100,50/50:40/50"), "ERR");
	/* fio: a size above 100 is 100; 0 or none shares what the others leave */
	CHECK_STR(dist("zoned:100/150"), "zoned:100/100,100/100");
	CHECK_STR(dist("zoned:50:30/20:20"), "zoned:50/40:30/20:20/40,50/40:30/20:20/40");
	CHECK_STR(dist("zoned:50/0:50/10"), "zoned:50/90:50/10,50/90:50/10");
	/*
	 * ... and an empty one (fio's atoi("") is 0): "20/" is "20".
	 * Mutation: zone_entry() refusing an empty size again: red.
	 */
	CHECK_STR(dist("zoned:50/5:30/15:20/"), "zoned:50/5:30/15:20/80,50/5:30/15:20/80");
	CHECK_STR(dist("zoned:50/:50/"), "zoned:50/50:50/50,50/50:50/50");
	/* and a zone that comes out with none is refused */
	CHECK_STR(dist("zoned:50/100:50"), "ERR");
	CHECK(strstr(err, "one block") != NULL);
	/* accesses add up to exactly 100, sizes to at most 100 */
	CHECK_STR(dist("zoned:50/10:40/20"), "ERR");
	CHECK(strstr(err, "90, not 100") != NULL);
	CHECK_STR(dist("zoned:50/60:50/60"), "ERR");
	CHECK_STR(dist("zoned:101/1"), "ERR");
	CHECK_STR(dist("zoned:x/1:100/1"), "ERR");
	CHECK_STR(dist("zoned:100/y"), "ERR");
	CHECK_STR(dist("zoned"), "ERR");
	CHECK_STR(dist("uniform"), "ERR");
}

static void t_zoned_abs(void)
{
	CHECK_STR(dist("zoned_abs:60/20G:30/100G:10/500g"),
		  "zoned_abs:60/21474836480:30/107374182400:10/536870912000,"
		  "60/21474836480:30/107374182400:10/536870912000");
	CHECK_STR(dist("zoned_abs:80/16M:20/48M,20/16M:80/48M"),
		  "zoned_abs:80/16777216:20/50331648,20/16777216:80/50331648");
	/* fio reads a missing size as 0: all the zone's accesses on one block */
	CHECK_STR(dist("zoned_abs:50/1M:50"), "ERR");
	CHECK_STR(dist("zoned_abs:50/1M:50/1000"), "ERR");	/* not sectors */
	CHECK_STR(dist("zoned_abs:50/1M:40/1M"), "ERR");
}

static void t_refused_and_more_than_256(void)
{
	char many[2048] = "zoned:100/1";
	int i;

	CHECK_STR(dist("normal:100"), "ERR");
	CHECK(strstr(err, "normal deviation 100 out of range") != NULL);
	CHECK_STR(dist("normal:-1"), "ERR");
	CHECK_STR(dist("normal:10:0.5"), "ERR");	/* the center */
	CHECK_STR(dist("zipf:1"), "ERR");
	CHECK_STR(dist("zipf:1.2:0.5"), "ERR");
	CHECK(strstr(err, "center") != NULL);
	CHECK_STR(dist("pareto:1"), "ERR");
	CHECK_STR(dist("pareto:0"), "ERR");
	CHECK_STR(dist("pareto:x"), "ERR");
	for (i = 0; i < 256; i++)
		strcat(many, ":0/1");
	CHECK_STR(dist(many), "ERR");
	CHECK(strstr(err, "more than 256") != NULL);
}

/* zipf and pareto: fio's defaults, and the table against fio's formulas. */
static void t_skew_tables(void)
{
	struct kiobench_cdf_ent *t;
	double zetan = 0;
	struct kb_job job;
	unsigned int nr, i;
	uint64_t n = 4096;

	kb_job_init(&job);
	CHECK(kb_parse_random_dist("zipf", 1024, &job, err, sizeof(err)) == 0);
	CHECK(job.skew == KB_SKEW_ZIPF && job.skew_val == 1.1);
	CHECK(kb_parse_random_dist("pareto", 1024, &job, err, sizeof(err)) == 0);
	CHECK(job.skew == KB_SKEW_PARETO && job.skew_val == 0.2);
	CHECK(kb_job_norandommap(&job));
	/* pareto 0.2: fio's 80/20, the first fifth of the ranks take 80 % */
	CHECK(kb_skew_table(&job, n, &t, &nr, err, sizeof(err)) == 0);
	CHECK(fabs(kb_cdf_share(t, nr, n / 5) - 0.8) < 0.002);
	free(t);
	/* zipf 1.2: rank 0 takes 1 / zeta(n), rank 1 2^-1.2 of that */
	CHECK(kb_parse_random_dist("zipf:1.2", 1024, &job, err, sizeof(err)) == 0);
	CHECK(kb_skew_table(&job, n, &t, &nr, err, sizeof(err)) == 0);
	for (i = 1; i <= n; i++)
		zetan += pow(1.0 / i, 1.2);
	CHECK(t[0].rank == 0 && t[0].cum == 0 && t[1].rank == 1);
	CHECK(fabs(t[1].cum / 4294967296.0 - 1 / zetan) < 1e-6);
	CHECK(fabs((t[2].cum - t[1].cum) / 4294967296.0 - pow(0.5, 1.2) / zetan) < 1e-6);
	CHECK(t[nr - 1].rank == n && t[nr - 1].cum == 1ULL << 32);
	for (i = 1; i < nr; i++)
		CHECK(t[i].rank > t[i - 1].rank && t[i].cum >= t[i - 1].cum);
	free(t);
	/* a huge span still fits the kernel's 2049 entries */
	CHECK(kb_skew_table(&job, 1ULL << 40, &t, &nr, err, sizeof(err)) == 0);
	CHECK(nr <= KB_CDF_MAX && t[nr - 1].rank == 1ULL << 40);
	free(t);
	CHECK(kb_skew_table(&job, 1, &t, &nr, err, sizeof(err)) == -1);
	kb_job_free(&job);
}

/*
 * fio's gauss_next() without its hash (lib/gauss.c, read for its meaning):
 * the distance from the middle of n of each of `draws` ranks, counted into
 * within[d] for the draws nearer than d.
 */
static uint64_t xs_state = 88172645463325252ULL;

static uint32_t xs32(void)
{
	xs_state ^= xs_state << 13;
	xs_state ^= xs_state >> 7;
	xs_state ^= xs_state << 17;
	return (uint32_t)(xs_state >> 32);
}

static double fio_gauss_share_within(uint64_t n, double dev, uint64_t d, unsigned int draws)
{
	uint64_t stddev = 0, inside = 0;
	unsigned int i, k;

	if (dev != 0.0) {
		stddev = (uint64_t)ceil((double)n * dev / 100.0);
		if (stddev > n / 2)
			stddev = n / 2;
	}
	for (i = 0; i < draws; i++) {
		uint64_t sum = 0;
		int64_t x;

		for (k = 0; k < 12; k++)
			sum += xs32() % (n + 1);
		sum = (sum + 11) / 12;
		if (stddev) {
			int vr = (int)(stddev * (xs32() / 4294967296.0)) - (int)(stddev / 2);

			while ((int64_t)sum + vr >= (int64_t)n)
				vr /= 2;
			sum += vr;
		}
		x = (int64_t)sum - (int64_t)(n / 2);
		inside += (uint64_t)llabs(x) < d;
	}
	return (double)inside / draws;
}

/*
 * normal[:DEV]: the table's share of the ranks nearest the middle is what
 * fio's own procedure gives, at 1/4, 1 and 2 standard deviations (n / 12)
 * of the middle, within 0.005 (a million draws: 10 standard errors).
 */
static void t_normal_table(void)
{
	static const double devs[] = { 0, 30 };
	const uint64_t n = 4096, ds[] = { 85, 341, 683 };
	struct kiobench_cdf_ent *t;
	unsigned int nr, i, j;
	struct kb_job job;
	char val[32];

	kb_job_init(&job);
	CHECK(kb_parse_random_dist("normal", 1024, &job, err, sizeof(err)) == 0);
	CHECK(job.skew == KB_SKEW_NORMAL && job.skew_val == 0.0);
	CHECK(kb_job_norandommap(&job));
	for (i = 0; i < 2; i++) {
		snprintf(val, sizeof(val), "normal:%g", devs[i]);
		CHECK(kb_parse_random_dist(val, 1024, &job, err, sizeof(err)) == 0);
		CHECK(kb_skew_table(&job, n, &t, &nr, err, sizeof(err)) == 0);
		CHECK(t[0].rank == 0 && t[0].cum == 0 && t[nr - 1].rank == n &&
		      t[nr - 1].cum == 1ULL << 32);
		for (j = 1; j < nr; j++)
			CHECK(t[j].rank > t[j - 1].rank && t[j].cum >= t[j - 1].cum);
		for (j = 0; j < 3; j++) {
			double want = fio_gauss_share_within(n, devs[i], ds[j], 1000000);
			double got = kb_cdf_share(t, nr, 2 * ds[j]);

			if (fabs(got - want) > 0.005)
				printf("    normal:%g within %" PRIu64 ": table %.4f, fio %.4f\n",
				       devs[i], ds[j], got, want);
			CHECK(fabs(got - want) <= 0.005);
		}
		free(t);
	}
	/* a huge span still fits the kernel's 2049 entries */
	CHECK(kb_parse_random_dist("normal", 1024, &job, err, sizeof(err)) == 0);
	CHECK(kb_skew_table(&job, 1ULL << 40, &t, &nr, err, sizeof(err)) == 0);
	CHECK(nr <= KB_CDF_MAX && t[nr - 1].rank == 1ULL << 40);
	CHECK(fabs(kb_cdf_share(t, nr, (1ULL << 40) / 6) - 0.6827) < 0.01);	/* +-1 sd */
	free(t);
	kb_job_free(&job);
}

/* fio turns its random map off for zones: the kernel is asked for none. */
static void t_zones_turn_the_map_off(void)
{
	struct kb_job job;

	kb_job_init(&job);
	CHECK(!kb_job_norandommap(&job));
	CHECK(kb_parse_random_dist("zoned:100/50", 1024, &job, err, sizeof(err)) == 0);
	CHECK(kb_job_norandommap(&job));
	CHECK(kb_parse_random_dist("random", 1024, &job, err, sizeof(err)) == 0);
	CHECK(!kb_job_norandommap(&job));
	kb_job_free(&job);
}

void distrib_tests(void)
{
	run_case("random_distribution: zoned as fio reads it", t_zoned);
	run_case("random_distribution: zoned_abs sizes", t_zoned_abs);
	run_case("random_distribution: bad values; center refused; 256 zones",
		 t_refused_and_more_than_256);
	run_case("random_distribution: zipf and pareto tables as fio's formulas", t_skew_tables);
	run_case("random_distribution: normal's table as fio's procedure", t_normal_table);
	run_case("random_distribution: zones turn the random map off", t_zones_turn_the_map_off);
}
