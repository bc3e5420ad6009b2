// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the kiobench tool's pure logic (tools/options.c, jobfile.c,
 * hist.c, output.c).  Built and run by "make -C tools test".  Prints one
 * line per case and ends with "N passed, M failed"; exits non-zero on any
 * failure.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "kiobench.h"

static int case_failed, n_pass, n_fail;

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		printf("    check failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
		case_failed = 1;					\
	}								\
} while (0)

#define CHECK_STR(a, b) do {						\
	const char *_a = (a), *_b = (b);				\
	if (strcmp(_a, _b)) {						\
		printf("    check failed: \"%s\" != \"%s\" (%s:%d)\n", _a, _b, \
		       __FILE__, __LINE__);				\
		case_failed = 1;					\
	}								\
} while (0)

static void run_case(const char *name, void (*fn)(void))
{
	case_failed = 0;
	fn();
	printf("%s %s\n", case_failed ? "FAIL" : "ok  ", name);
	if (case_failed)
		n_fail++;
	else
		n_pass++;
}

static char err[KB_ERRLEN];

/* ---- sizes and times -------------------------------------------------------- */

static uint64_t size_of(const char *s)
{
	uint64_t v = 12345;

	CHECK(kb_parse_size(s, &v, err, sizeof(err)) == 0);
	return v;
}

static bool size_bad(const char *s)
{
	uint64_t v;

	return kb_parse_size(s, &v, err, sizeof(err)) == -1;
}

static void t_size_valid(void)
{
	CHECK(size_of("0") == 0);
	CHECK(size_of("4096") == 4096);
	CHECK(size_of("512b") == 512);
	CHECK(size_of("512B") == 512);
	CHECK(size_of("4k") == 4096);
	CHECK(size_of("4K") == 4096);
	CHECK(size_of("4kb") == 4096);
	CHECK(size_of("4KB") == 4096);
	CHECK(size_of("4KiB") == 4096);
	CHECK(size_of("4kib") == 4096);
	CHECK(size_of("4ki") == 4096);
	CHECK(size_of("1m") == 1048576);
	CHECK(size_of("1MiB") == 1048576);
	CHECK(size_of("2g") == 2ULL << 30);
	CHECK(size_of("2G") == 2ULL << 30);
	CHECK(size_of("1t") == 1ULL << 40);
	CHECK(size_of("1TiB") == 1ULL << 40);
	CHECK(size_of("1p") == 1ULL << 50);
	CHECK(size_of("0x1000") == 4096);
	CHECK(size_of("15e") == 15ULL << 60);
	CHECK(size_of("18446744073709551615") == UINT64_MAX);
}

static void t_size_invalid(void)
{
	CHECK(size_bad("x4k"));
	CHECK_STR(err, "invalid size 'x4k'");
	CHECK(size_bad(""));
	CHECK(size_bad("k"));
	CHECK(size_bad("4kk"));
	CHECK(size_bad("4 k"));
	CHECK(size_bad(" 4k"));
	CHECK(size_bad("-1"));
	CHECK(size_bad("4.5k"));
	CHECK(size_bad("4q"));
	CHECK(size_bad("4kibb"));
	CHECK(size_bad("4mb "));
	CHECK(size_bad("0x"));
	CHECK(size_bad("18446744073709551616"));
	CHECK(strstr(err, "too large"));
	CHECK(size_bad("16777216t"));	/* 2^64 */
	CHECK(strstr(err, "too large"));
	CHECK(size_bad("16e"));
}

static uint64_t time_of(const char *s)
{
	uint64_t v = 12345;

	CHECK(kb_parse_time_ns(s, &v, err, sizeof(err)) == 0);
	return v;
}

static bool time_bad(const char *s)
{
	uint64_t v;

	return kb_parse_time_ns(s, &v, err, sizeof(err)) == -1;
}

static void t_time(void)
{
	CHECK(time_of("0") == 0);
	CHECK(time_of("10") == 10000000000ULL);
	CHECK(time_of("10s") == 10000000000ULL);
	CHECK(time_of("10sec") == 10000000000ULL);
	CHECK(time_of("500ms") == 500000000ULL);
	CHECK(time_of("500MS") == 500000000ULL);
	CHECK(time_of("500msec") == 500000000ULL);
	CHECK(time_of("100us") == 100000ULL);
	CHECK(time_of("100usec") == 100000ULL);
	CHECK(time_of("7ns") == 7);
	CHECK(time_of("2m") == 120000000000ULL);
	CHECK(time_of("1h") == 3600000000000ULL);
	CHECK(time_of("1d") == 86400000000000ULL);
	CHECK(time_bad("1x"));
	CHECK_STR(err, "invalid time '1x'");
	CHECK(time_bad(""));
	CHECK(time_bad("ms"));
	CHECK(time_bad("-1"));
	CHECK(time_bad("1.5s"));
	CHECK(time_bad("0x10"));
	CHECK(time_bad("18446744073709551615s"));
	CHECK(strstr(err, "too large"));
}

static void t_numbers_bools_formats(void)
{
	unsigned int f = 0;
	uint64_t v = 0;
	bool b = false;

	CHECK(kb_parse_u64("42", &v, err, sizeof(err)) == 0 && v == 42);
	CHECK(kb_parse_u64("4k", &v, err, sizeof(err)) == -1);
	CHECK(kb_parse_u64("", &v, err, sizeof(err)) == -1);
	CHECK(kb_parse_bool(NULL, &b, err, sizeof(err)) == 0 && b);
	CHECK(kb_parse_bool("0", &b, err, sizeof(err)) == 0 && !b);
	CHECK(kb_parse_bool("1", &b, err, sizeof(err)) == 0 && b);
	CHECK(kb_parse_bool("maybe", &b, err, sizeof(err)) == -1);
	CHECK(kb_parse_formats("json,normal", &f, err, sizeof(err)) == 0 &&
	      f == (KB_FMT_JSON | KB_FMT_NORMAL));
	CHECK(kb_parse_formats("terse", &f, err, sizeof(err)) == 0 && f == KB_FMT_TERSE);
	CHECK(kb_parse_formats("json,xml", &f, err, sizeof(err)) == -1);
	CHECK(strstr(err, "'xml'"));
	CHECK(kb_parse_formats("json,", &f, err, sizeof(err)) == -1);
	CHECK(kb_parse_formats("", &f, err, sizeof(err)) == -1);
}

/* ---- bssplit, cpus, percentile lists ---------------------------------------- */

static void t_bssplit(void)
{
	struct kb_bss *b = NULL;
	unsigned int n = 0;

	CHECK(kb_parse_bssplit("4k/10:64k/50:32k/40", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 3 && b[0].size == 4096 && b[0].weight == 10 &&
	      b[1].size == 65536 && b[1].weight == 50 &&
	      b[2].size == 32768 && b[2].weight == 40);
	free(b);
	CHECK(kb_parse_bssplit("4k/50:8k", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 2 && b[0].weight == 50 && b[1].weight == 50);
	free(b);
	/* missing percentages share the remainder; sum stays 100 */
	CHECK(kb_parse_bssplit("4k:8k:16k", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 3 && b[0].weight == 34 && b[1].weight == 33 && b[2].weight == 33);
	free(b);
	CHECK(kb_parse_bssplit("4k/10:8k:16k", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 3 && b[0].weight == 10 && b[1].weight == 45 && b[2].weight == 45);
	free(b);
	CHECK(kb_parse_bssplit("1m", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 1 && b[0].size == 1048576 && b[0].weight == 100);
	free(b);
	b = NULL;
	CHECK(kb_parse_bssplit("4k/50:8k/40", &b, &n, err, sizeof(err)) == -1);
	CHECK(strstr(err, "90"));
	CHECK(kb_parse_bssplit("4k/60:8k/50", &b, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_bssplit("4k/60:8k/50:16k", &b, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_bssplit("4k/100:8k", &b, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_bssplit("4k/0:8k/100", &b, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_bssplit("4k/101", &b, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_bssplit("4k/x", &b, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_bssplit("4k/50:", &b, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_bssplit(":4k", &b, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_bssplit("4k/50::8k/50", &b, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_bssplit("", &b, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_bssplit("x4k/100", &b, &n, err, sizeof(err)) == -1);
	CHECK_STR(err, "invalid size 'x4k'");
	CHECK(kb_parse_bssplit("3000/100", &b, &n, err, sizeof(err)) == -1);
	CHECK(strstr(err, "multiple of 512"));
	CHECK(kb_parse_bssplit("0/100", &b, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_bssplit("8g/100", &b, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_bssplit("4k/50,8k/100", &b, &n, err, sizeof(err)) == -1);
	CHECK(b == NULL);
}

static void t_cpus(void)
{
	uint32_t *c = NULL;
	unsigned int n = 0;

	CHECK(kb_parse_cpus("0-3,6", &c, &n, err, sizeof(err)) == 0);
	CHECK(n == 5 && c[0] == 0 && c[3] == 3 && c[4] == 6);
	free(c);
	CHECK(kb_parse_cpus("5", &c, &n, err, sizeof(err)) == 0 && n == 1 && c[0] == 5);
	free(c);
	CHECK(kb_parse_cpus("2,0", &c, &n, err, sizeof(err)) == 0 && n == 2 &&
	      c[0] == 2 && c[1] == 0);
	free(c);
	CHECK(kb_parse_cpus("7-7", &c, &n, err, sizeof(err)) == 0 && n == 1 && c[0] == 7);
	free(c);
	c = NULL;
	CHECK(kb_parse_cpus("3-1", &c, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_cpus("1,1", &c, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_cpus("0-3,2", &c, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_cpus("a", &c, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_cpus("", &c, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_cpus("1,", &c, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_cpus("1-", &c, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_cpus("-1", &c, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_cpus("0-8192", &c, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_cpus("1 2", &c, &n, err, sizeof(err)) == -1);
	CHECK(c == NULL);
}

static void t_plist(void)
{
	uint32_t p[KB_MAX_PERCENTILES];
	unsigned int n = 0;
	char buf[32];

	CHECK(kb_parse_plist("99.9:50:1", p, &n, err, sizeof(err)) == 0);
	CHECK(n == 3 && p[0] == 1000000 && p[1] == 50000000 && p[2] == 99900000);
	CHECK(kb_plist_precision(p, n) == 2);
	CHECK(kb_parse_plist("50:50:100", p, &n, err, sizeof(err)) == 0);
	CHECK(n == 2 && p[1] == KB_PCT_100);
	CHECK(kb_parse_plist("99.9999", p, &n, err, sizeof(err)) == 0);
	CHECK(kb_plist_precision(p, n) == 4);
	kb_pct_str(p[0], buf, sizeof(buf));
	CHECK_STR(buf, "99.999900");
	CHECK(kb_parse_plist("0.000001", p, &n, err, sizeof(err)) == 0 && p[0] == 1);
	CHECK(kb_parse_plist("0", p, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_plist("100.5", p, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_plist("abc", p, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_plist("1e2", p, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_plist("", p, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_plist("50:", p, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_plist("50,90", p, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_plist("1.2.3", p, &n, err, sizeof(err)) == -1);
	CHECK(kb_parse_plist("1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20",
			     p, &n, err, sizeof(err)) == 0 && n == 20);
	CHECK(kb_parse_plist("1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21",
			     p, &n, err, sizeof(err)) == -1);
}

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

static const char hist_text[] =
	"# kiobench-histogram 1\n"
	"# dir read\n"
	"# unit ns\n"
	"# bits 6\n"
	"# samples 20\n"
	"# min 1020\n"
	"# max 2040\n"
	"# sum 25000\n"
	"1016 1024 3\n"
	"1024 1032 17\n"
	"\n"
	"2032 2048 0\n"
	"2032 2048 0\n";

static const char hist_text2[] =
	"# kiobench-histogram 1\n"
	"# dir read\n"
	"# unit ns\n"
	"# bits 6\n"
	"# samples 20\n"
	"# min 1020\n"
	"# max 2040\n"
	"# sum 25000\n"
	"1016 1024 3\n"
	"1024 1032 16\n"
	"2032 2048 1\n";

static void t_hist_parse(void)
{
	struct kb_hist h;

	CHECK(kb_hist_parse(hist_text2, KIOBENCH_DIR_READ, &h, err, sizeof(err)) == 0);
	CHECK(h.bits == 6 && h.samples == 20 && h.min == 1020 && h.max == 2040 &&
	      h.sum == 25000 && h.nr == 3);
	CHECK(h.nr == 3 && h.b[1].lo == 1024 && h.b[1].hi == 1032 && h.b[1].count == 16);
	kb_hist_free(&h);
	/* empty buckets are tolerated, unknown header keys ignored, CRLF ok */
	CHECK(kb_hist_parse("# kiobench-histogram 1\r\n# dir write\n# unit ns\n# bits 4\n"
			    "# samples 0\n# future 7\n", KIOBENCH_DIR_WRITE, &h, err,
			    sizeof(err)) == 0);
	CHECK(h.samples == 0 && h.nr == 0);
	kb_hist_free(&h);
}

static bool hist_bad(const char *text, const char *needle)
{
	struct kb_hist h;
	bool bad = kb_hist_parse(text, KIOBENCH_DIR_READ, &h, err, sizeof(err)) == -1;

	if (bad && needle && !strstr(err, needle)) {
		printf("    message \"%s\" lacks \"%s\"\n", err, needle);
		return false;
	}
	if (!bad)
		kb_hist_free(&h);
	return bad;
}

#define HDR "# kiobench-histogram 1\n# dir read\n# unit ns\n# bits 6\n"
static void t_hist_malformed(void)
{
	CHECK(hist_bad("", "empty"));
	CHECK(hist_bad("1016 1024 3\n", "line 1: not a kiobench histogram"));
	CHECK(hist_bad("# kiobench-timeline 1\n", "not a kiobench histogram"));
	CHECK(hist_bad("# kiobench-histogram 2\n", "line 1: unsupported histogram version"));
	CHECK(hist_bad("# kiobench-histogram 1\n# dir write\n", "line 2: direction 'write'"));
	CHECK(hist_bad("# kiobench-histogram 1\n# dir read\n# unit us\n", "unit 'us'"));
	CHECK(hist_bad(HDR "# samples 4\n# min 1\n# max 9\n# sum 9\n1 2 3\n",
		       "add up to 3, header says 4"));
	CHECK(hist_bad(HDR "# samples 2\n# min 1\n# max 9\n# sum 9\n4 5 1\n1 2 1\n",
		       "line 10: buckets not in ascending order"));
	CHECK(hist_bad(HDR "# samples 2\n# min 1\n# max 9\n# sum 9\n4 5 x\n",
		       "line 9: malformed bucket line"));
	CHECK(hist_bad(HDR "# samples 2\n# min 1\n# max 9\n# sum 9\n4 5\n",
		       "line 9: malformed bucket line"));
	CHECK(hist_bad(HDR "# samples 2\n# min 1\n# max 9\n# sum 9\n4 5 1 1\n",
		       "line 9: malformed bucket line"));
	CHECK(hist_bad(HDR "# samples 2\n# min 1\n# max 9\n# sum 9\n5 5 2\n",
		       "line 9: empty bucket range"));
	CHECK(hist_bad(HDR "# samples 2\n# min 1\n# max 9\n# sum 9\n4 5 2\n# x 1\n",
		       "line 10: header line after the buckets"));
	CHECK(hist_bad(HDR "# min 1\n# max 9\n# sum 9\n4 5 2\n", "'samples' missing"));
	CHECK(hist_bad(HDR "# samples 2\n# max 9\n# sum 9\n4 5 2\n", "'min' missing"));
	CHECK(hist_bad(HDR "# samples -2\n", "line 5: invalid samples"));
	CHECK(hist_bad(HDR "# samples 99999999999999999999\n", "invalid samples"));
	CHECK(hist_bad(HDR "# samples 2\n# min 9\n# max 1\n# sum 9\n4 5 2\n", "above max"));
	CHECK(hist_bad(HDR "# samples\n", "line 5: malformed header"));
	CHECK(hist_bad(HDR "# samples 2\n# min 1\n# max 9\n# sum 9\n"
		       "4 5 18446744073709551615\n6 7 1\n", "overflow"));
}

static void mkhist(struct kb_hist *h, const struct kb_bucket *b, size_t nr,
		   uint64_t min, uint64_t max)
{
	size_t i;

	memset(h, 0, sizeof(*h));
	h->b = malloc(nr * sizeof(*b) + 1);
	memcpy(h->b, b, nr * sizeof(*b));
	h->nr = nr;
	h->min = min;
	h->max = max;
	for (i = 0; i < nr; i++)
		h->samples += b[i].count;
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

static void t_timeline(void)
{
	struct kb_timeline tl;

	CHECK(kb_timeline_parse("# kiobench-timeline 1\n# interval_ns 1000000000\n"
				"# dropped 3\n# columns t_ns read_ios read_bytes read_lat_ns write_ios "
				"write_bytes write_lat_ns\n"
				"1000000000 1234 5054464 123456789 0 0 0\n"
				"1500000000 10 40960 5000 2 8192 7000\n", &tl, err,
				sizeof(err)) == 0);
	CHECK(tl.interval_ns == 1000000000ULL && tl.nr == 2 && tl.dropped == 3);
	CHECK(tl.nr == 2 && tl.p[0].ios[0] == 1234 && tl.p[0].bytes[0] == 5054464 &&
	      tl.p[0].lat_ns[0] == 123456789 && tl.p[1].t_ns == 1500000000ULL &&
	      tl.p[1].ios[1] == 2 && tl.p[1].lat_ns[1] == 7000);
	kb_timeline_free(&tl);
	/* columns are found by name */
	CHECK(kb_timeline_parse("# kiobench-timeline 1\n# interval_ns 5\n"
				"# columns write_ios t_ns read_ios read_bytes read_lat_ns "
				"write_bytes write_lat_ns extra\n"
				"1 2 3 4 5 6 7 8\n", &tl, err, sizeof(err)) == 0);
	CHECK(tl.nr == 1 && tl.p[0].ios[1] == 1 && tl.p[0].t_ns == 2 && tl.p[0].ios[0] == 3);
	kb_timeline_free(&tl);
	CHECK(kb_timeline_parse("# kiobench-timeline 1\n# interval_ns 5\n"
				"# columns t_ns read_ios\n", &tl, err, sizeof(err)) == -1);
	CHECK(strstr(err, "line 3: column 'read_bytes' missing"));
	CHECK(kb_timeline_parse("# kiobench-timeline 1\n# interval_ns 5\n"
				"# columns t_ns read_ios read_bytes read_lat_ns write_ios "
				"write_bytes write_lat_ns\n1 2 3\n", &tl, err,
				sizeof(err)) == -1);
	CHECK(strstr(err, "line 4: 3 fields, expected 7"));
	CHECK(kb_timeline_parse("# kiobench-timeline 1\n# dropped x\n", &tl, err,
				sizeof(err)) == -1);
	CHECK(strstr(err, "line 2: malformed dropped"));
	CHECK(kb_timeline_parse("# kiobench-timeline 1\n1 2 3\n", &tl, err,
				sizeof(err)) == -1);
	CHECK(kb_timeline_parse("# kiobench-histogram 1\n", &tl, err, sizeof(err)) == -1);
	CHECK(kb_timeline_parse("", &tl, err, sizeof(err)) == -1);
}

static void t_config_devices(void)
{
	char buf[64];

	kb_config_devices("id=3\nname=x\ndevice=/dev/nullb0 lbs=512 span=0+1\n"
			  "random=1\ndevice=/dev/nullb1 lbs=4096 span=0+2\n", buf, sizeof(buf));
	CHECK_STR(buf, "/dev/nullb0:/dev/nullb1");
	kb_config_devices("id=3\n", buf, sizeof(buf));
	CHECK_STR(buf, "");
	kb_config_devices("device=/dev/a\ndevice=/dev/bbbbbbbb\n", buf, 12);
	CHECK_STR(buf, "/dev/a");			/* truncated at a device */
}

/* ---- options and job files ----------------------------------------------------- */

static int apply(struct kb_job *job, struct kb_global *g, const char *name, const char *val)
{
	struct kb_assign a = { .opt = kb_opt_find(name), .val = (char *)val };

	if (!a.opt) {
		snprintf(err, sizeof(err), "no option %s", name);
		return -1;
	}
	return kb_apply(job, g, &a, err, sizeof(err));
}

static void t_options(void)
{
	struct kb_global g = { 0 };
	struct kb_job job;

	CHECK(kb_opt_find("allow_writes") == &kb_opts[KB_OPT_ALLOW_WRITES]);
	CHECK(kb_opt_find("allow-writes") == &kb_opts[KB_OPT_ALLOW_WRITES]);
	CHECK(kb_opt_find("cpus-allowed") == &kb_opts[KB_OPT_CPUS]);
	CHECK(kb_opt_find("readwrite") == &kb_opts[KB_OPT_RW]);
	CHECK(kb_opt_find("foo") == NULL);
	CHECK(kb_opt_find("bs_") == NULL);

	kb_job_init(&job);
	CHECK(apply(&job, &g, "bs", "x4k") == -1);
	CHECK_STR(err, "--bs: invalid size 'x4k'");
	CHECK(apply(&job, &g, "bs", NULL) == -1);
	CHECK_STR(err, "--bs: missing value");
	CHECK(apply(&job, &g, "bs", "1000") == -1);
	CHECK(apply(&job, &g, "iodepth", "0") == -1);
	CHECK(apply(&job, &g, "numjobs", "x") == -1);
	CHECK(apply(&job, &g, "size", "0") == -1);
	CHECK(apply(&job, &g, "offset", "0") == 0);
	CHECK(apply(&job, &g, "runtime", "0") == -1);
	CHECK(apply(&job, &g, "ramp_time", "0") == 0);
	CHECK(apply(&job, &g, "number_ios", "0") == -1);
	CHECK(apply(&job, &g, "rwmixread", "101") == -1);
	CHECK(apply(&job, &g, "rw", "trim") == -1);
	CHECK(apply(&job, &g, "name", "0123456789012345678901234567890123") == -1);
	CHECK(apply(&job, &g, "name", "a b") == -1);
	CHECK(apply(&job, &g, "filename", "/dev/a::/dev/b") == -1);
	CHECK(apply(&job, &g, "filename", "/dev/a:/dev/a") == -1);
	CHECK(apply(&job, &g, "time_based", "yes") == 0 && job.time_based);

	/* rw modes, writes and rwmix */
	CHECK(kb_job_rwmix_read(&job) == 100 && !kb_job_has_writes(&job));
	CHECK(apply(&job, &g, "rw", "randwrite") == 0 && job.random);
	CHECK(kb_job_rwmix_read(&job) == 0 && kb_job_has_writes(&job));
	CHECK(apply(&job, &g, "rw", "randrw") == 0 && kb_job_rwmix_read(&job) == 50);
	CHECK(apply(&job, &g, "rwmixwrite", "30") == 0 && kb_job_rwmix_read(&job) == 70);
	CHECK(kb_job_isset(&job, KB_OPT_RWMIXREAD));
	CHECK(apply(&job, &g, "rwmixread", "100") == 0 && !kb_job_has_writes(&job));
	CHECK(apply(&job, &g, "rw", "readwrite") == 0 && !job.random);
	CHECK(apply(&job, &g, "rw", "read") == 0 && kb_job_rwmix_read(&job) == 100);

	/* command-line only options go to the global settings */
	CHECK(apply(&job, &g, "allow-writes", NULL) == 0 && g.allow_writes);
	CHECK(apply(&job, &g, "output-format", "json,terse") == 0 &&
	      g.formats == (KB_FMT_JSON | KB_FMT_TERSE));
	CHECK(apply(&job, &g, "keep", "0") == 0 && !g.keep);
	kb_job_free(&job);
	kb_global_free(&g);
}

static void t_limits(void)
{
	struct kb_global g = { 0 };
	struct kb_job job;

	kb_job_init(&job);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == -1);	/* no device */
	CHECK(apply(&job, &g, "filename", "/dev/nullb0:/dev/nullb1") == 0);
	CHECK(job.nr_devices == 2);
	CHECK(kb_job_io_bytes(&job) == 0);			/* kernel default */
	CHECK(apply(&job, &g, "size", "1g") == 0);
	CHECK(kb_job_io_bytes(&job) == 1ULL << 30);		/* size limits */
	CHECK(apply(&job, &g, "time_based", NULL) == 0);
	CHECK(kb_job_io_bytes(&job) == 0);			/* ... unless time_based */
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == -1);	/* time_based needs runtime */
	CHECK(apply(&job, &g, "runtime", "10") == 0);
	CHECK(apply(&job, &g, "io_size", "4m") == 0);
	CHECK(kb_job_io_bytes(&job) == 4ULL << 20);		/* io_size wins */
	CHECK(apply(&job, &g, "bssplit", "4k/50:64k/50") == 0);
	CHECK(apply(&job, &g, "bs", "8k") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0);
	CHECK(job.nr_bss == 2 && job.bss[0].size == 4096);	/* bssplit beats bs */
	CHECK_STR(job.name, "kiobench");
	kb_job_free(&job);

	kb_job_init(&job);
	CHECK(apply(&job, &g, "filename", "/dev/x") == 0);
	CHECK(apply(&job, &g, "bs", "16k") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0);
	CHECK(job.nr_bss == 1 && job.bss[0].size == 16384 && job.bss[0].weight == 100);
	CHECK(job.bs == 16384 && job.nr_plist == 18);
	kb_job_free(&job);
	kb_global_free(&g);
}

static const char jobfile_text[] =
	"; a comment\n"
	"# another\n"
	"[global]\n"
	"filename=/dev/nullb0\n"
	"  bs = 8k  \n"
	"time_based\n"
	"runtime=10s\n"
	"\n"
	"[first]\n"
	"rw=randread\n"
	"iodepth=32\n"
	"\n"
	"[global]\n"
	"iodepth=4\n"
	"[second]\n"
	"rw=randrw\r\n"
	"rwmixread=70\n"
	"name=renamed\n";

static void t_jobfile(void)
{
	struct kb_assign_list cli = { 0 };
	struct kb_jobfile jf;
	struct kb_job a, b;

	CHECK(kb_jobfile_parse_text("job.fio", jobfile_text, &jf, err, sizeof(err)) == 0);
	if (case_failed) {
		printf("    %s\n", err);
		return;
	}
	CHECK(jf.nr_sec == 2 && jf.global.n == 5);
	kb_assign_add(&cli, kb_opt_find("bs"), "16k", NULL, 0);
	kb_assign_add(&cli, kb_opt_find("iodepth"), "2", NULL, 0);

	CHECK(kb_jobfile_build(&jf, 0, &cli, &a, err, sizeof(err)) == 0);
	CHECK(kb_job_finalize(&a, err, sizeof(err)) == 0);
	CHECK_STR(a.name, "first");
	CHECK(a.nr_devices == 1 && !strcmp(a.devices[0], "/dev/nullb0"));
	CHECK(a.bs == 16384);			/* command line beats [global] */
	CHECK(a.iodepth == 32);			/* section beats the command line */
	CHECK(a.time_based && a.runtime_ns == 10000000000ULL && a.random);
	CHECK(kb_job_rwmix_read(&a) == 100);

	CHECK(kb_jobfile_build(&jf, 1, &cli, &b, err, sizeof(err)) == 0);
	CHECK(kb_job_finalize(&b, err, sizeof(err)) == 0);
	CHECK_STR(b.name, "renamed");
	CHECK(b.iodepth == 2);			/* later [global] iodepth=4, then CLI 2 */
	CHECK(kb_job_rwmix_read(&b) == 70 && b.random && kb_job_has_writes(&b));
	CHECK(b.applied.n > 0);
	kb_job_free(&a);
	kb_job_free(&b);

	/* without command-line options the later [global] applies to [second] only */
	CHECK(kb_jobfile_build(&jf, 1, NULL, &b, err, sizeof(err)) == 0);
	CHECK(b.iodepth == 4 && b.bs == 8192);
	kb_job_free(&b);
	CHECK(kb_jobfile_build(&jf, 0, NULL, &a, err, sizeof(err)) == 0);
	CHECK(a.iodepth == 32);
	kb_job_free(&a);
	kb_assign_list_free(&cli);
	kb_jobfile_free(&jf);
}

static bool jobfile_bad(const char *text, const char *expect)
{
	struct kb_jobfile jf;

	if (kb_jobfile_parse_text("job.fio", text, &jf, err, sizeof(err)) == 0) {
		kb_jobfile_free(&jf);
		printf("    parsed: %s", text);
		return false;
	}
	if (strcmp(err, expect)) {
		printf("    message \"%s\", expected \"%s\"\n", err, expect);
		return false;
	}
	return true;
}

static void t_jobfile_errors(void)
{
	CHECK(jobfile_bad("[a]\nfilename=/dev/x\n\n; c\n# c\n\nfoo=1\n",
			  "job.fio:7: unknown option 'foo'"));
	CHECK(jobfile_bad("[global]\nbs=4k\n[a]\niodepth=2\nbs=x4k\n",
			  "job.fio:5: bs: invalid size 'x4k'"));
	CHECK(jobfile_bad("bs=4k\n[a]\n", "job.fio:1: option 'bs' outside of a section"));
	CHECK(jobfile_bad("[a\nbs=4k\n", "job.fio:1: malformed section header"));
	CHECK(jobfile_bad("[ ]\n", "job.fio:1: empty section name"));
	CHECK(jobfile_bad("[global]\nbs=4k\n", "job.fio: no job section (only [global])"));
	CHECK(jobfile_bad("", "job.fio: no job section (only [global])"));
	CHECK(jobfile_bad("[a]\nallow-writes\n",
			  "job.fio:2: option 'allow-writes' is only valid on the command line"));
	CHECK(jobfile_bad("[a]\noutput-format=json\n",
			  "job.fio:2: option 'output-format' is only valid on the command line"));
	CHECK(jobfile_bad("[a]\nbs\n", "job.fio:2: bs: missing value"));
	CHECK(jobfile_bad("[a]\ntime_based=yes please\n",
			  "job.fio:2: time_based: invalid boolean 'yes please' (0 or 1)"));
	CHECK(jobfile_bad("[a]\n\n[this-name-is-much-too-long-for-the-kernel]\n",
			  "job.fio:3: name: invalid name "
			  "'this-name-is-much-too-long-for-the-kernel' (1 to 31 characters)"));
	CHECK(jobfile_bad("[a]\nrw=randwrite\nrwmixread=\n",
			  "job.fio:3: rwmixread: invalid number ''"));
}

/* ---- output ------------------------------------------------------------------------ */

static void make_result(struct kb_result *r, struct kb_job *job, uint64_t n)
{
	struct kb_global g = { 0 };
	static const struct kb_bucket b[] = { { 1016, 1024, 3 }, { 1024, 1032, 0 } };
	size_t i;

	kb_job_init(job);
	apply(job, &g, "filename", "/dev/nullb0");
	apply(job, &g, "rw", "randread");
	apply(job, &g, "ramp_time", "2");
	kb_job_finalize(job, err, sizeof(err));
	memset(r, 0, sizeof(*r));
	r->job = job;
	r->st.state = KIOBENCH_STATE_DONE;
	r->st.measured_ns = 10000000000ULL;
	r->st.nr_workers = 1;
	r->st.dir[0].ios = n;
	r->st.dir[0].bytes = n * 4096;
	r->st.dir[0].lat_min = 1020;
	r->st.dir[0].lat_max = 1030;
	r->st.dir[0].lat_sum = 1025 * n;
	r->st.dir[0].sumsq_lo = 1025 * 1025 * n;
	r->st.dir[0].all_ios = n + 10;
	r->st.dir[0].all_bytes = (n + 10) * 4096;
	mkhist(&r->hist[0], b, 2, 1020, 1030);
	r->hist[0].b[0].count = n / 2;
	r->hist[0].b[1].count = n - n / 2;
	r->hist[0].samples = n;
	r->hist[0].bits = 6;
	r->has_hist[0] = true;
	r->hist[1].dir = 1;
	r->has_hist[1] = true;
	r->has_tl = true;
	r->tl.interval_ns = 1000000000ULL;
	r->tl.nr = 2;
	r->tl.p = calloc(2, sizeof(*r->tl.p));
	for (i = 0; i < 2; i++) {
		r->tl.p[i].t_ns = (i + 1) * 1000000000ULL;
		r->tl.p[i].ios[0] = n / 2;
	}
}

static void free_result(struct kb_result *r, struct kb_job *job)
{
	kb_hist_free(&r->hist[0]);
	kb_timeline_free(&r->tl);
	kb_job_free(job);
}

static char *capture(void (*fn)(FILE *, const struct kb_result *, size_t),
		     const struct kb_result *r)
{
	static char *buf;
	static size_t len;
	FILE *f;

	buf = NULL;
	f = open_memstream(&buf, &len);
	fn(f, r, 1);
	fclose(f);
	return buf;
}


static void free_hw_results(struct kb_result *r, struct kb_job *job)
{
	int i;

	for (i = 0; i < 2; i++) {
		kb_hwmon_free(r[i].hw, r[i].nr_hw);
		free_result(&r[i], &job[i]);
	}
}

/* ---- sensors (a fake sysfs tree) ------------------------------------------------ */

static char sysroot[64];

static void mkfile(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", sysroot, rel);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Shell-free mkdir -p and ln -s below sysroot. */
static void mk(const char *rel, const char *link_to)
{
	char path[512], *p;

	snprintf(path, sizeof(path), "%s/%s", sysroot, rel);
	for (p = path + strlen(sysroot) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	if (link_to)
		CHECK(symlink(link_to, path) == 0);
	else
		mkdir(path, 0755);
}

#define NVME "devices/pci0000:00/0000:00:03.0/nvme/nvme0"
#define SATA "devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0"

/*
 * 259:0 nvme0n1 (controller nvme0 with hwmon3: a composite temperature and
 * a second sensor at temp3) and 259:1 its partition; 8:0 sda whose PCI
 * function has hwmon/hwmon1 with power1_average; 259:2 a multipath disk on
 * nvme-subsys0 whose path is nvme0c0n2 of nvme0; 251:0 a virtual disk.
 */
static void make_sysfs(void)
{
	strcpy(sysroot, "/tmp/kb-sysfs-XXXXXX");
	CHECK(mkdtemp(sysroot) != NULL);
	mk(NVME "/nvme0n1/device", "../../nvme0");
	mk(NVME "/nvme0n1/nvme0n1p1/partition", NULL);
	mk(NVME "/hwmon3/x", NULL);
	mkfile(NVME "/hwmon3/name", "nvme\n");
	mkfile(NVME "/hwmon3/temp1_input", "49850\n");
	mkfile(NVME "/hwmon3/temp1_label", "Composite\n");
	mkfile(NVME "/hwmon3/temp3_input", "-1000\n");
	mk(NVME "/nvme0c0n2/device", "../../nvme0");
	mk("devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n2/device", "../../nvme-subsys0");
	mk("devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n2/multipath/nvme0c0n2",
	   "../../../../../pci0000:00/0000:00:03.0/nvme/nvme0/nvme0c0n2");
	mk(SATA "/block/sda/device", "../../../0:0:0:0");
	mk("devices/pci0000:00/0000:00:1f.2/hwmon/hwmon1/x", NULL);
	mkfile("devices/pci0000:00/0000:00:1f.2/hwmon/hwmon1/name", "ahcihw\n");
	mkfile("devices/pci0000:00/0000:00:1f.2/hwmon/hwmon1/power1_average", "2500000\n");
	mk("devices/virtual/block/nullb0/x", NULL);
	mk("dev/block/259:0", "../../" NVME "/nvme0n1");
	mk("dev/block/259:1", "../../" NVME "/nvme0n1/nvme0n1p1");
	mk("dev/block/259:2", "../../devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n2");
	mk("dev/block/8:0", "../../" SATA "/block/sda");
	mk("dev/block/251:0", "../../devices/virtual/block/nullb0");
}

static const char *found(unsigned int major, unsigned int minor)
{
	static char dir[256];
	size_t n = strlen(sysroot);

	if (kb_hwmon_find(sysroot, major, minor, dir, sizeof(dir)))
		return "-";
	return strncmp(dir, sysroot, n) ? dir : dir + n + 1;
}

static void t_hwmon_find(void)
{
	make_sysfs();
	CHECK_STR(found(259, 0), NVME "/hwmon3");
	CHECK_STR(found(259, 1), NVME "/hwmon3");	/* partition: its disk's */
	CHECK_STR(found(259, 2), NVME "/hwmon3");	/* multipath: its path's */
	/* a parent's, in the "hwmon" directory of a non-class device */
	CHECK_STR(found(8, 0), "devices/pci0000:00/0000:00:1f.2/hwmon/hwmon1");
	CHECK_STR(found(251, 0), "-");			/* null_blk: none */
	CHECK(kb_hwmon_find(sysroot, 1, 99, (char[8]){ 0 }, 8) == -1);	/* no such dev */
}

static void open_hw(struct kb_hwmon *h, unsigned int major, unsigned int minor,
		    const char *dev)
{
	char dir[256];

	CHECK(kb_hwmon_find(sysroot, major, minor, dir, sizeof(dir)) == 0);
	CHECK(kb_hwmon_open(h, dir, dev) == 0);
}

/* Two results over the fake tree: nvme0n1 and its partition (one hwmon), sda. */
static void sensor_results(struct kb_result *r, struct kb_job *job)
{
	unsigned int i;

	make_result(&r[0], &job[0], 1000);
	make_result(&r[1], &job[1], 1000);
	r[0].hw = calloc(2, sizeof(*r[0].hw));
	r[1].hw = calloc(1, sizeof(*r[1].hw));
	r[0].nr_hw = 2;
	r[1].nr_hw = 1;
	open_hw(&r[0].hw[0], 259, 0, "/dev/nvme0n1");
	open_hw(&r[0].hw[1], 259, 1, "/dev/nvme0n1p1");
	open_hw(&r[1].hw[0], 8, 0, "/dev/sda");
	/* ramp_time is 2 s: power counts from there */
	for (i = 0; i < 4; i++) {
		kb_hwmon_sample(&r[0].hw[0], i * 1000000000ULL);
		kb_hwmon_sample(&r[1].hw[0], i * 1000000000ULL);
	}
	r[1].hw[0].s[0].v[KB_HW_POWER][0] = 9000000;	/* in the warm-up */
	r[0].hw[0].s[1].v[KB_HW_TEMP][0] = 51000;
	r[0].hw[0].s[2].v[KB_HW_TEMP][0] = KB_HWMON_NONE;	/* failed read */
	for (i = 0; i < 2; i++)
		kb_hwmon_close(&r[0].hw[i]);
}

static void t_hwmon_read(void)
{
	struct kb_result r[2];
	struct kb_job job[2];
	struct kb_hw_sum s;
	size_t hint = 0;
	struct kb_hwmon *h;

	sensor_results(r, job);
	h = &r[0].hw[0];
	CHECK_STR(h->name, "nvme");
	CHECK_STR(h->owner, "nvme0");
	CHECK(h->nr[KB_HW_TEMP] == 2 && h->nr[KB_HW_POWER] == 0);
	CHECK_STR(h->label[KB_HW_TEMP][0], "Composite");
	CHECK_STR(h->label[KB_HW_TEMP][1], "temp3");	/* no label: its name */
	CHECK(h->nr_s == 4 && h->s[0].v[KB_HW_TEMP][0] == 49850 &&
	      h->s[0].v[KB_HW_TEMP][1] == -1000);
	CHECK_STR(r[1].hw[0].owner, "0000:00:1f.2");	/* past the "hwmon" directory */
	CHECK(r[1].hw[0].nr[KB_HW_POWER] == 1 && r[1].hw[0].s[3].v[KB_HW_POWER][0] == 2500000);
	/* nearest within the tolerance; the hint only moves forward */
	CHECK(kb_hwmon_nearest(h, 1400000000ULL, 500000000ULL, &hint) == &h->s[1]);
	CHECK(kb_hwmon_nearest(h, 1600000000ULL, 500000000ULL, &hint) == &h->s[2]);
	CHECK(hint == 1);
	CHECK(kb_hwmon_nearest(h, 3600000000ULL, 500000000ULL, &hint) == NULL);
	hint = 0;
	CHECK(kb_hwmon_nearest(h, 0, 0, &hint) == &h->s[0]);
	/* one job: temperatures of the first sensor, no power */
	kb_hwmon_summarize(r, 1, &s);
	CHECK(s.devices == 1 && s.has_temp && !s.has_power);
	CHECK(s.temp_min_mc == 49850 && s.temp_max_mc == 51000);
	/* both: sda's power from the warm-up's end on (not 9 W) */
	kb_hwmon_summarize(r, 2, &s);
	CHECK(s.devices == 2 && s.has_power && fabs(s.power_uw - 2500000) < 1e-6);
	free_hw_results(r, job);
}

static void t_hwmon_json(void)
{
	struct json_object *root, *kb, *v, *e, *sm;
	struct kb_result r[2];
	struct kb_job job[2];
	char *s, *text;

	sensor_results(r, job);
	s = kb_json_report(&r[0], 1, 0);
	root = json_tokener_parse(s);
	kb = json_object_object_get(json_object_array_get_idx(
		json_object_object_get(root, "jobs"), 0), "kiobench");
	v = json_object_array_get_idx(json_object_object_get(kb, "sensors"), 0);
	CHECK(json_object_array_length(json_object_object_get(kb, "sensors")) == 2);
	CHECK_STR(json_object_get_string(json_object_object_get(v, "device")), "/dev/nvme0n1");
	CHECK_STR(json_object_get_string(json_object_object_get(v, "hwmon")), "nvme");
	CHECK_STR(json_object_to_json_string(json_object_array_get_idx(
		json_object_object_get(v, "samples"), 2)),
		"{ \"t_ms\": 2000, \"temp_mc\": [ null, -1000 ], \"power_uw\": [ ] }");
	/* timeline entries at 1 s and 2 s: the samples taken then; the partition has none */
	e = json_object_array_get_idx(json_object_object_get(kb, "timeline"), 0);
	CHECK_STR(json_object_to_json_string(json_object_object_get(e, "temp_mc")),
		  "[ 51000, -1000, null, null ]");
	CHECK(!json_object_object_get_ex(e, "power_uw", NULL));
	sm = json_object_object_get(kb, "sensors_summary");
	CHECK(json_object_get_int64(json_object_object_get(sm, "temp_max_mc")) == 51000);
	CHECK(json_object_get_type(json_object_object_get(sm, "iops_per_w")) == json_type_null);
	CHECK_STR(json_object_get_string(json_object_object_get(sm, "note")),
		  "no power sensor: efficiency not reported");
	json_object_put(root);
	free(s);
	/* power: 2.5 W at 100 IOPS and 0.4096 MB/s */
	sm = kb_json_sensors(&r[1], 1, 100, 409600);
	CHECK(fabs(json_object_get_double(json_object_object_get(sm, "iops_per_w")) - 40) < 1e-6);
	CHECK(fabs(json_object_get_double(json_object_object_get(sm, "mb_s_per_w")) - 0.16384)
	      < 1e-6);
	json_object_put(sm);
	text = capture(kb_print_normal, &r[1]);
	CHECK(strstr(text, "  sensors      : 0000:00:1f.2 no temperature sensor (hwmon ahcihw, "
		     "4 samples)\n"));
	CHECK(strstr(text, "  power        : mean 2.50 W, 40 IOPS/W, 0.16 MB/s per W\n"));
	free(text);
	free_hw_results(r, job);
	/* no sensors */
	make_result(&r[0], &job[0], 1000);
	text = capture(kb_print_normal, &r[0]);
	CHECK(strstr(text, "  sensors      : none (no hwmon sensor for /dev/nullb0)\n"));
	CHECK(strstr(text, "  power        : n/a (no power sensor: efficiency not reported)\n"));
	free(text);
	s = kb_json_report(&r[0], 1, 0);
	CHECK(strstr(s, "\"sensors\": null") && strstr(s, "\"sensors_summary\": null") &&
	      strstr(s, "\"sensors_note\": \"no hwmon sensor: /dev/nullb0\""));
	free(s);
	free_result(&r[0], &job[0]);
}

static void t_num2str(void)
{
	char b[32];

	CHECK_STR(kb_num2str(b, sizeof(b), 503316480, 4, true, "B/s"), "480MiB/s");
	CHECK_STR(kb_num2str(b, sizeof(b), 503316480, 4, false, "B/s"), "503MB/s");
	CHECK_STR(kb_num2str(b, sizeof(b), 19713229, 4, true, "B/s"), "18.8MiB/s");
	CHECK_STR(kb_num2str(b, sizeof(b), 1091000, 4, false, ""), "1091k");
	CHECK_STR(kb_num2str(b, sizeof(b), 123456, 4, false, ""), "123k");
	CHECK_STR(kb_num2str(b, sizeof(b), 4800ULL << 20, 4, true, "B"), "4800MiB");
	CHECK_STR(kb_num2str(b, sizeof(b), 4263, 4, false, ""), "4263");
	CHECK_STR(kb_num2str(b, sizeof(b), 0, 4, true, "B"), "0B");
	CHECK_STR(kb_num2str(b, sizeof(b), 98765, 6, false, ""), "98765");
	CHECK_STR(kb_num2str(b, sizeof(b), UINT64_MAX, 4, true, "B"), "16.0EiB");
}

static void t_output_normal(void)
{
	struct kb_result r;
	struct kb_job job;
	char *s;

	make_result(&r, &job, 1000);
	s = capture(kb_print_normal, &r);
	CHECK(strstr(s, "kiobench: (groupid=0, jobs=1): err= 0: devices=/dev/nullb0 "
		      "rw=randread bs=4096 iodepth=1 numjobs=1\n"));
	CHECK(strstr(s, "  read: IOPS=100, BW=400KiB/s (410kB/s)(4000KiB/10000msec)\n"));
	CHECK(strstr(s, "    lat (nsec): min=1020, max=1030, avg=1025.00, stdev= 0.00, "
		      "samples=1000\n"));
	CHECK(strstr(s, "    lat percentiles (nsec, N=1000):\n"));
	CHECK(strstr(s, " 1.000th=[ 1020],"));
	CHECK(strstr(s, "99.900th=[ 1027],"));	/* 1000 * 0.001 = 1 is not < 1 */
	CHECK(strstr(s, "99.950th=[ 1027]*,"));
	CHECK(strstr(s, "99.999th=[ 1027]*\n"));
	CHECK(strstr(s, "     * fewer than 1/(1-p) samples: tail not resolved\n"));
	CHECK(strstr(s, "    warm-up excluded: 2.0 s, 10 I/Os; errors: 0\n"));
	CHECK(!strstr(s, "write:"));
	free(s);
	free_result(&r, &job);

	/* no samples: no percentiles at all */
	make_result(&r, &job, 0);
	r.st.dir[0].all_ios = 5;
	s = capture(kb_print_normal, &r);
	CHECK(strstr(s, "  read: IOPS=0"));
	CHECK(!strstr(s, "percentiles"));
	CHECK(!strstr(s, "lat ("));
	free(s);
	free_result(&r, &job);
}

static void t_output_terse(void)
{
	struct kb_result r;
	struct kb_job job;
	char *s, *p;
	int fields = 1;

	make_result(&r, &job, 1000);
	s = capture(kb_print_terse, &r);
	for (p = s; *p; p++)
		fields += *p == ';';
	CHECK(fields == 121);				/* fio terse v3 */
	CHECK(!strncmp(s, "3;kiobench-" KB_TOOL_VERSION ";kiobench;0;0;4000;400;100;10000;",
		       strlen("3;kiobench-" KB_TOOL_VERSION ";kiobench;0;0;4000;400;100;10000;")));
	CHECK(strstr(s, ";1.000000%=1;"));		/* usec */
	CHECK(strstr(s, ";0%=0;0%=0;"));		/* 18 percentiles, 20 slots */
	CHECK(s[strlen(s) - 1] == '\n' && !strchr(s, '\n')[1]);
	free(s);
	job.continue_on_error = true;
	s = capture(kb_print_terse, &r);
	for (fields = 1, p = s; *p; p++)
		fields += *p == ';';
	CHECK(fields == 123);
	free(s);
	free_result(&r, &job);
}

static void t_output_json(void)
{
	struct json_object *root, *jobs, *job0, *rd, *wr, *clat, *pct, *kb, *v, *a;
	struct kb_result r;
	struct kb_job job;
	char *s;

	make_result(&r, &job, 1000);
	s = kb_json_report(&r, 1, 1700000000123LL);
	root = json_tokener_parse(s);
	CHECK(root != NULL);
	if (!root) {
		free(s);
		free_result(&r, &job);
		return;
	}
	CHECK(json_object_object_get_ex(root, "fio version", &v) &&
	      !strcmp(json_object_get_string(v), "kiobench-" KB_TOOL_VERSION));
	CHECK(json_object_object_get_ex(root, "timestamp", &v) &&
	      json_object_get_int64(v) == 1700000000LL);
	CHECK(json_object_object_get_ex(root, "jobs", &jobs) &&
	      json_object_array_length(jobs) == 1);
	job0 = json_object_array_get_idx(jobs, 0);
	CHECK(json_object_object_get_ex(job0, "jobname", &v) &&
	      !strcmp(json_object_get_string(v), "kiobench"));
	CHECK(json_object_object_get_ex(job0, "job options", &v) &&
	      json_object_object_get_ex(v, "rw", &v) &&
	      !strcmp(json_object_get_string(v), "randread"));
	CHECK(json_object_object_get_ex(job0, "read", &rd));
	CHECK(json_object_object_get_ex(job0, "write", &wr));
	CHECK(json_object_object_get_ex(rd, "io_bytes", &v) && json_object_get_int64(v) == 4096000);
	CHECK(json_object_object_get_ex(rd, "bw", &v) && json_object_get_int64(v) == 400);
	CHECK(json_object_object_get_ex(rd, "runtime", &v) && json_object_get_int64(v) == 10000);
	CHECK(json_object_object_get_ex(rd, "iops", &v) && json_object_get_double(v) == 100.0);
	CHECK(json_object_object_get_ex(rd, "clat_ns", &clat) &&
	      json_object_object_get_ex(clat, "percentile", &pct) &&
	      json_object_object_get_ex(pct, "99.000000", &v) && json_object_get_int64(v) == 1027);
	CHECK(json_object_object_get_ex(rd, "lat_ns", &v) &&
	      !json_object_object_get_ex(v, "percentile", NULL));
	CHECK(json_object_object_get_ex(rd, "slat_ns", &v) &&
	      json_object_object_get_ex(v, "N", &v) && json_object_get_int64(v) == 0);
	CHECK(json_object_object_get_ex(wr, "clat_ns", &clat) &&
	      !json_object_object_get_ex(clat, "percentile", NULL));
	CHECK(json_object_object_get_ex(job0, "kiobench", &kb));
	CHECK(json_object_object_get_ex(kb, "low_confidence_percentiles", &a) &&
	      json_object_object_get_ex(a, "read", &a) && json_object_array_length(a) == 3 &&
	      !strcmp(json_object_get_string(json_object_array_get_idx(a, 2)), "99.999000"));
	CHECK(json_object_object_get_ex(kb, "percentile_samples", &v) &&
	      json_object_object_get_ex(v, "read", &v) && json_object_get_int64(v) == 1000);
	CHECK(json_object_object_get_ex(kb, "ramp_ios", &v) &&
	      json_object_object_get_ex(v, "read", &v) && json_object_get_int64(v) == 10);
	CHECK(json_object_object_get_ex(kb, "timeline", &a) && json_object_array_length(a) == 2);
	CHECK(json_object_object_get_ex(kb, "devices", &a) &&
	      !strcmp(json_object_get_string(json_object_array_get_idx(a, 0)), "/dev/nullb0"));
	CHECK(strstr(s, "\"/dev/nullb0\""));	/* no escaped slashes */
	json_object_put(root);
	free(s);
	free_result(&r, &job);
}

/* ---- sweeps, bursts, steady state (sweep.c) ------------------------------------ */

static bool list_is(const char *s, bool sizes, const uint64_t *want, unsigned int n)
{
	uint64_t *v = NULL;
	unsigned int nr = 0, i;
	bool ok;

	if (kb_parse_value_list(s, sizes, 1, UINT32_MAX, &v, &nr, err, sizeof(err))) {
		printf("    %s: %s\n", s, err);
		return false;
	}
	ok = nr == n;
	for (i = 0; ok && i < n; i++)
		ok = v[i] == want[i];
	if (!ok) {
		printf("    %s ->", s);
		for (i = 0; i < nr; i++)
			printf(" %llu", (unsigned long long)v[i]);
		printf("\n");
	}
	free(v);
	return ok;
}

static bool list_bad(const char *s, bool sizes, const char *msg)
{
	uint64_t *v = NULL;
	unsigned int nr = 0;

	if (!kb_parse_value_list(s, sizes, 1, 1u << 24, &v, &nr, err, sizeof(err))) {
		free(v);
		return false;
	}
	if (!strstr(err, msg))
		printf("    %s: '%s' lacks '%s'\n", s, err, msg);
	return strstr(err, msg) != NULL;
}

static void t_value_lists(void)
{
	static const uint64_t qd000[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
					  16, 18, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60,
					  64 };
	static const uint64_t bs[] = { 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
				       131072, 262144, 524288, 1048576 };
	static const uint64_t odd[] = { 3, 8 }, one[] = { 7 }, pw[] = { 1, 3, 9 };
	static const uint64_t sz[] = { 4096, 131072, 1048576 };

	CHECK(list_is("1-16,18,20,24-64:4", false, qd000, 29));
	CHECK(list_is("512-1m:x2", true, bs, 12));
	CHECK(list_is("4k,128k,1m", true, sz, 3));
	CHECK(list_is("3-10:5", false, odd, 2));	/* the step does not reach 10 */
	CHECK(list_is("7", false, one, 1));
	CHECK(list_is("1-10:*3", false, pw, 3));
	CHECK(list_bad("", false, "empty"));
	CHECK(list_bad("0-4", false, "must be 1..16777216"));
	CHECK(list_bad("8-4", false, "goes down"));
	CHECK(list_bad("4:2", false, "needs a range"));
	CHECK(list_bad("1-8:0", false, "bad step"));
	CHECK(list_bad("1-8:x1", false, "bad step"));
	CHECK(list_bad("1,,x", false, "invalid number 'x'"));
	CHECK(list_bad("4q", true, "invalid size"));
	CHECK(list_bad("1-100000", false, "more than 4096"));
}

static void t_split_qd(void)
{
	static const struct { uint32_t qd, maxw, w, per; } t[] = {
		{ 1, 4, 1, 1 }, { 2, 4, 2, 1 }, { 3, 4, 3, 1 }, { 4, 4, 4, 1 },
		{ 6, 4, 3, 2 }, { 7, 4, 1, 7 }, { 9, 4, 3, 3 }, { 18, 4, 3, 6 },
		{ 20, 4, 4, 5 }, { 64, 4, 4, 16 }, { 64, 1, 1, 64 }, { 5, 0, 1, 5 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t w = 0, per = 0;

		kb_split_qd(t[i].qd, t[i].maxw, &w, &per);
		CHECK(w == t[i].w && per == t[i].per);
		CHECK(w * per == t[i].qd);
	}
}

static void t_duty(void)
{
	CHECK(kb_duty_idle_ns(1000000000, 20) == 4000000000ULL);
	CHECK(kb_duty_idle_ns(300, 25) == 900);
	CHECK(kb_duty_idle_ns(123456789, 100) == 0);
	CHECK(kb_duty_idle_ns(UINT64_MAX / 2, 1) == (uint64_t)((unsigned __int128)(UINT64_MAX / 2) * 99));
	CHECK(fabs(kb_duty_cycle(1000, kb_duty_idle_ns(1000, 20)) - 20.0) < 1e-9);
	CHECK(fabs(kb_duty_cycle(1, 3) - 25.0) < 1e-9);
	CHECK(kb_duty_cycle(0, 0) == 0.0);
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

static void t_csv_row(void)
{
	struct kb_step st = { .index = 2, .var = KB_VAR_IODEPTH, .iodepth = 2, .numjobs = 2,
			      .bs = 4096, .nr_devices = 1, .busy_ns = 5, .idle_ns = 6 };
	struct kb_sum s = { .present = true, .has_pct = true, .ios = 10, .bytes = 40960,
			    .measured_ns = 1000, .iops = 1e7, .bw = 4.096e10, .mean = 100,
			    .min = 90, .max = 200, .samples = 10, .cpu_ns = 7000,
			    .cpu_ns_per_io = 700, .pct = { 100, 150, 190, 200, 200 } };
	const char *hdr = "part,step,variable,value,dir,iodepth,numjobs,bs,devices,device,ios,";
	char buf[1024];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	strcpy(st.value, "4");
	kb_csv_header(f);
	kb_csv_row(f, "p", &st, NULL, 1, &s);
	kb_csv_row(f, "p", &st, "/dev/nullb1", 0, &s);
	fclose(f);
	/* the step's aggregate: no device; then one device's row */
	CHECK(strstr(buf, "\np,2,iodepth,4,write,2,2,4096,1,,10,40960,1000,10000000.000,"
		      "40960.000,100.0,100,150,190,200,200,90,200,10,0,5,6,7000,700.0\n") != NULL);
	CHECK(strstr(buf, "\np,2,iodepth,4,read,2,2,4096,1,/dev/nullb1,10,40960,") != NULL);
	CHECK(strncmp(buf, hdr, strlen(hdr)) == 0);
}

int main(void)
{
	run_case("size: valid forms and units", t_size_valid);
	run_case("size: garbage and overflow", t_size_invalid);
	run_case("time: units, garbage, overflow", t_time);
	run_case("numbers, booleans, output formats", t_numbers_bools_formats);
	run_case("bssplit: fio format, shared remainder, errors", t_bssplit);
	run_case("cpus_allowed lists", t_cpus);
	run_case("percentile_list", t_plist);
	run_case("percentile rank rounding", t_rank);
	run_case("low-confidence tail flag", t_low_confidence);
	run_case("bucket midpoint estimate", t_estimate);
	run_case("histogram parsing", t_hist_parse);
	run_case("histogram parsing: malformed input", t_hist_malformed);
	run_case("percentiles: rank walk", t_percentiles);
	run_case("percentiles: 0 samples, 1 sample, one bucket, p100", t_percentiles_edges);
	run_case("stddev from sum and 128-bit sumsq", t_stddev);
	run_case("latency distribution", t_lat_dist);
	run_case("timeline parsing", t_timeline);
	run_case("debugfs config: devices", t_config_devices);
	run_case("options: values, rw modes, command-line only", t_options);
	run_case("options: limits and finalize", t_limits);
	run_case("job file: sections, precedence", t_jobfile);
	run_case("job file: errors with file:line", t_jobfile_errors);
	run_case("num2str like fio", t_num2str);
	run_case("normal output", t_output_normal);
	run_case("terse output (fio v3)", t_output_terse);
	run_case("json output (fio schema)", t_output_json);
	run_case("sweep value lists and ranges", t_value_lists);
	run_case("total queue depth split over workers", t_split_qd);
	run_case("duty cycle: idle from busy, achieved", t_duty);
	run_case("steady state: window, data and slope excursion", t_steady_state);
	run_case("histogram merge and step summary", t_hist_merge_and_summary);
	run_case("saturation point", t_saturation);
	run_case("CSV row", t_csv_row);
	run_case("sensors: hwmon of disk, partition, multipath, parent; none", t_hwmon_find);
	run_case("sensors: open, sample, nearest, summary", t_hwmon_read);
	run_case("sensors: JSON, timeline, normal output, efficiency", t_hwmon_json);
	(void)hist_text;
	if (sysroot[0]) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", sysroot);
		if (system(cmd))
			printf("cannot remove %s\n", sysroot);
	}
	printf("%d passed, %d failed\n", n_pass, n_fail);
	return n_fail ? 1 : 0;
}
