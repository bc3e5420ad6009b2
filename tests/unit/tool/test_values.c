// SPDX-License-Identifier: GPL-2.0
/* Unit tests of value syntax (tools/values.c): sizes, times, numbers, lists. */
#include "options.h"
#include "tool_test.h"
#include "values.h"

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
	/* fio's kb_base=1024 (its default): "KiB" is 1000 for old scripts */
	CHECK(size_of("4KiB") == 4000);
	CHECK(size_of("4kib") == 4000);
	CHECK(size_of("4ki") == 4000);
	CHECK(size_of("1m") == 1048576);
	CHECK(size_of("1MiB") == 1000000);
	CHECK(size_of("2g") == 2ULL << 30);
	CHECK(size_of("2G") == 2ULL << 30);
	CHECK(size_of("1t") == 1ULL << 40);
	CHECK(size_of("1TiB") == 1000000000000ULL);
	CHECK(size_of("1p") == 1ULL << 50);
	CHECK(size_of("0x1000") == 4096);
	CHECK(size_of("15e") == 15ULL << 60);
	CHECK(size_of("18446744073709551615") == UINT64_MAX);
}

/* fio's kb_base=1000: SI prefixes are powers of 1000, IEC ones of 1024. */
static void t_size_kb_base(void)
{
	uint64_t v = 0;

	CHECK(kb_parse_size_base("4k", 1000, &v, err, sizeof(err)) == 0 && v == 4000);
	CHECK(kb_parse_size_base("4kB", 1000, &v, err, sizeof(err)) == 0 && v == 4000);
	CHECK(kb_parse_size_base("4KiB", 1000, &v, err, sizeof(err)) == 0 && v == 4096);
	CHECK(kb_parse_size_base("1Ti", 1000, &v, err, sizeof(err)) == 0 && v == 1ULL << 40);
	CHECK(kb_parse_size_base("1t", 1000, &v, err, sizeof(err)) == 0 && v == 1000000000000ULL);
	CHECK(kb_parse_size_base("4KiB", 1024, &v, err, sizeof(err)) == 0 && v == 4000);
	CHECK(kb_parse_size_base("4KB", 1024, &v, err, sizeof(err)) == 0 && v == 4096);
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
	CHECK(kb_parse_formats("json,normal", KB_FMT_RUN, &f, err, sizeof(err)) == 0 &&
	      f == (KB_FMT_JSON | KB_FMT_NORMAL));
	CHECK(kb_parse_formats("terse", KB_FMT_RUN, &f, err, sizeof(err)) == 0 &&
	      f == KB_FMT_TERSE);
	CHECK(kb_parse_formats("json,xml", KB_FMT_RUN, &f, err, sizeof(err)) == -1);
	CHECK_STR(err, "invalid output format 'xml' (normal, json, json+ or terse)");
	CHECK(kb_parse_formats("json+,normal", KB_FMT_RUN, &f, err, sizeof(err)) == 0 &&
	      f == (KB_FMT_JSONPLUS | KB_FMT_NORMAL));
	CHECK(kb_parse_formats("json+", KB_FMT_STEPS, &f, err, sizeof(err)) == -1);
	CHECK(kb_parse_formats("json,", KB_FMT_RUN, &f, err, sizeof(err)) == -1);
	CHECK(kb_parse_formats("", KB_FMT_RUN, &f, err, sizeof(err)) == -1);
	/* each command its own formats */
	CHECK(kb_parse_formats("csv,json", KB_FMT_STEPS, &f, err, sizeof(err)) == 0 &&
	      f == (KB_FMT_CSV | KB_FMT_JSON));
	CHECK(kb_parse_formats("terse", KB_FMT_STEPS, &f, err, sizeof(err)) == -1);
	CHECK_STR(err, "invalid output format 'terse' (normal, json or csv)");
	CHECK(kb_parse_formats("csv", KB_FMT_RUN, &f, err, sizeof(err)) == -1);
}

/* ---- bssplit, cpus, percentile lists ---------------------------------------- */

static void t_bssplit(void)
{
	struct kb_bss *b = NULL;
	unsigned int n = 0;

	/* fio's order: by percentage, ascending, equal ones as given */
	CHECK(kb_parse_bssplit("4k/10:64k/50:32k/40", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 3 && b[0].size == 4096 && b[0].weight == 10 &&
	      b[1].size == 32768 && b[1].weight == 40 &&
	      b[2].size == 65536 && b[2].weight == 50);
	free(b);
	CHECK(kb_parse_bssplit("4k/50:8k", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 2 && b[0].weight == 50 && b[1].weight == 50);
	free(b);
	/*
	 * Entries without a percentage get (100 - sum) / missing each; the
	 * integer remainder falls to the last entry in fio's order, as does a
	 * draw past the sum.
	 */
	CHECK(kb_parse_bssplit("4k:8k:16k", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 3 && b[0].size == 4096 && b[0].weight == 33 &&
	      b[1].size == 8192 && b[1].weight == 33 &&
	      b[2].size == 16384 && b[2].weight == 34);
	free(b);
	CHECK(kb_parse_bssplit("4k/10:8k:16k", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 3 && b[0].weight == 10 && b[1].weight == 45 && b[2].weight == 45);
	free(b);
	CHECK(kb_parse_bssplit("1k/50:2k:4k:8k", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 4 && b[0].size == 2048 && b[0].weight == 16 &&
	      b[1].size == 4096 && b[1].weight == 16 &&
	      b[2].size == 8192 && b[2].weight == 16 &&
	      b[3].size == 1024 && b[3].weight == 52);
	free(b);
	/* HOWTO's example: a blank percentage is none, as 0 is */
	CHECK(kb_parse_bssplit("4k/50:1k/:32k/0", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 3 && b[0].size == 1024 && b[0].weight == 25 &&
	      b[1].size == 32768 && b[1].weight == 25 &&
	      b[2].size == 4096 && b[2].weight == 50);
	free(b);
	CHECK(kb_parse_bssplit("1m", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 1 && b[0].size == 1048576 && b[0].weight == 100);
	free(b);
	/* a sum below 100: the rest to the largest share, the last of equal ones */
	CHECK(kb_parse_bssplit("4k/10:8k/20:16k/30", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 3 && b[0].weight == 10 && b[1].weight == 20 &&
	      b[2].size == 16384 && b[2].weight == 70);
	free(b);
	CHECK(kb_parse_bssplit("8k/30:4k/30", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 2 && b[0].size == 8192 && b[0].weight == 30 &&
	      b[1].size == 4096 && b[1].weight == 70);
	free(b);
	/* above 100: the running sum is cut at 100; a percentage above 100 is 100 */
	CHECK(kb_parse_bssplit("4k/60:8k/50", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 2 && b[0].size == 8192 && b[0].weight == 50 &&
	      b[1].size == 4096 && b[1].weight == 50);
	free(b);
	CHECK(kb_parse_bssplit("4k/150:8k/101:16k/10", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 2 && b[0].size == 16384 && b[0].weight == 10 &&
	      b[1].size == 4096 && b[1].weight == 90);
	free(b);
	/* one entry without a percentage beside more than 100: its share wraps, it takes all */
	CHECK(kb_parse_bssplit("8k/60:4k/50:2k", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 1 && b[0].size == 2048 && b[0].weight == 100);
	free(b);
	/* sizes aligned down to the smallest (fio without bs_unaligned), then merged */
	CHECK(kb_parse_bssplit("4k/30:6k/30:12k/40", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 2 && b[0].size == 12288 && b[0].weight == 40 &&
	      b[1].size == 4096 && b[1].weight == 60);
	free(b);
	CHECK(kb_parse_bssplit("3k/50:4k/20:7k/30", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 2 && b[0].size == 6144 && b[0].weight == 30 &&
	      b[1].size == 3072 && b[1].weight == 70);
	free(b);
	/* an entry with no share left out, unless it is the smallest */
	CHECK(kb_parse_bssplit("4k/100:8k", &b, &n, err, sizeof(err)) == 0);
	CHECK(n == 1 && b[0].size == 4096 && b[0].weight == 100);
	free(b);
	b = NULL;
	CHECK(kb_parse_bssplit("8k/100:4k", &b, &n, err, sizeof(err)) == -1);
	CHECK(strstr(err, "4096 bytes get no share"));
	CHECK(kb_parse_bssplit("8k/60:4k/50:16k", &b, &n, err, sizeof(err)) == -1);
	CHECK(strstr(err, "4096 bytes get no share"));
	/* fio refuses these too */
	CHECK(kb_parse_bssplit("4k/60:8k/50:16k:32k", &b, &n, err, sizeof(err)) == -1);
	CHECK(strstr(err, "add up to 110, more than 100, with 2 entries"));
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

void values_tests(void)
{
	run_case("size: valid forms and units", t_size_valid);
	run_case("size: kb_base=1000 and 1024 as fio", t_size_kb_base);
	run_case("size: garbage and overflow", t_size_invalid);
	run_case("time: units, garbage, overflow", t_time);
	run_case("numbers, booleans, output formats", t_numbers_bools_formats);
	run_case("bssplit: fio format, shared remainder, errors", t_bssplit);
	run_case("cpus_allowed lists", t_cpus);
	run_case("percentile_list", t_plist);
}
