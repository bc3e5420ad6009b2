// SPDX-License-Identifier: GPL-2.0
/* Unit tests of parsing the module's debugfs texts (tools/results.c). */
#include "result.h"
#include "tool_test.h"

const char hist_text[] =
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

const char hist_text2[] =
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

void results_tests(void)
{
	run_case("histogram parsing", t_hist_parse);
	run_case("histogram parsing: malformed input", t_hist_malformed);
	run_case("timeline parsing", t_timeline);
	run_case("debugfs config: devices", t_config_devices);
}
