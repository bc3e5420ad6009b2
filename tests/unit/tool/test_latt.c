// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the latency target's report (tools/latt.c). */
#include <json-c/json.h>

#include "latt.h"
#include "measures.h"
#include "options.h"
#include "result.h"
#include "tool_test.h"

static const char latt_text[] =
	"# kiobench-latency-target 1\n"
	"# target_ns 1500000 window_ns 100000000 percentile_ppm 900000 run 0\n"
	"# win end_ns depth ios within pass\n"
	"worker 0 depth 4 windows 3 state done\n"
	"win 100 1 90 90 1\n"
	"win 200 8 400 10 0\n"
	"win 300 4 380 379 1\n"
	"worker 1 depth 3 windows 300 state search\n"
	"win 150 1 50 49 1\n";

static void t_latt_parse(void)
{
	struct kb_latt lt;
	char buf[4096];
	FILE *f;

	CHECK(kb_latt_parse(latt_text, &lt, err, sizeof(err)) == 0);
	CHECK(lt.present && lt.target_ns == 1500000 && lt.window_ns == 100000000);
	CHECK(lt.percentile_ppm == 900000 && !lt.run);
	CHECK(lt.nr_workers == 2 && lt.w[0].nr == 3 && lt.w[1].nr == 1);
	CHECK(lt.w[0].win[1].depth == 8 && lt.w[0].win[1].ios == 400 &&
	      lt.w[0].win[1].within == 10 && !lt.w[0].win[1].pass);
	CHECK(lt.w[1].windows == 300 && !strcmp(lt.w[1].state, "search"));
	/* fio's latency_depth of the job: the lowest a worker ended at */
	CHECK(kb_latt_depth(&lt) == 3);
	f = fmemopen(buf, sizeof(buf), "w");
	kb_print_latt(f, &lt);
	fclose(f);
	/* fio's line: target in ns, window in us */
	CHECK(strstr(buf, "target=1500000, window=100000, percentile=90.00%, depth=3") != NULL);
	CHECK(strstr(buf, "8:FAIL2.5%") != NULL);
	CHECK(strstr(buf, "(the first 1 shown)") != NULL);
	kb_latt_free(&lt);

	CHECK(kb_latt_parse("# kiobench-latency-target 1\nwin 1 1 1 1 1\n", &lt, err,
			    sizeof(err)) == -1);	/* a window before its worker */
	CHECK(kb_latt_parse("# kiobench-latency-target 1\nworker 0 depth 1 windows 1 state done\n"
			    "win 1 1 1 2 1\n", &lt, err, sizeof(err)) == -1);	/* within > ios */
	CHECK(kb_latt_parse("# kiobench-locality 1\n", &lt, err, sizeof(err)) == -1);
}

static void t_latt_json(void)
{
	struct json_object *o, *w, *c;
	struct kb_latt lt;

	CHECK(kb_latt_parse(latt_text, &lt, err, sizeof(err)) == 0);
	o = kb_latt_json(&lt);
	CHECK(json_object_get_int64(json_object_object_get(o, "depth")) == 3);
	w = json_object_array_get_idx(json_object_object_get(o, "workers"), 0);
	c = json_object_object_get(w, "curve");
	CHECK(json_object_array_length(c) == 3);
	CHECK(json_object_get_int64(json_object_object_get(json_object_array_get_idx(c, 2),
							   "depth")) == 4);
	json_object_put(o);
	kb_latt_free(&lt);
}

/*
 * A job kept far below iodepth is warned about (the submission path set
 * the pace), but not with a latency target: its search set the depth.
 */
static void t_latt_no_depth_warning(void)
{
	struct kb_result r;
	struct kb_job job;
	char buf[8192];
	FILE *f;

	make_result(&r, &job, 1000);
	f = fmemopen(buf, sizeof(buf), "w");
	kb_print_measures(f, &r);
	fclose(f);
	CHECK(strstr(buf, "warning: the workers kept") != NULL);
	CHECK(kb_latt_parse(latt_text, &r.latt, err, sizeof(err)) == 0);
	f = fmemopen(buf, sizeof(buf), "w");
	kb_print_measures(f, &r);
	fclose(f);
	CHECK(strstr(buf, "warning: the workers kept") == NULL);
	kb_latt_free(&r.latt);
	kb_hist_free(&r.hist[0]);
	kb_job_free(&job);
}

void latt_tests(void)
{
	run_case("latt: no depth warning with a latency target", t_latt_no_depth_warning);
	run_case("latt: debugfs latency_target parsed, fio's line", t_latt_parse);
	run_case("latt: kiobench.latency_target in JSON", t_latt_json);
}
