// SPDX-License-Identifier: GPL-2.0
/* compare_load.c: result files of run, sweep and fio read into steps of jobs. */
#include "compare.h"
#include "compare_stats.h"
#include "report.h"
#include "result.h"
#include "tool_test.h"

/* The JSON of run (json+ if plus) of the fixture's job. */
static char *run_json(bool plus)
{
	struct kb_result r;
	struct kb_job job;
	char *s;

	static struct kb_devid id = { .model = "QEMU NVMe Ctrl", .serial = "kiobench0",
				      .firmware = "9.2", .transport = "pcie" };

	make_result(&r, &job, 1000);
	snprintf(r.kernel, sizeof(r.kernel), "6.12.1");
	snprintf(r.module_version, sizeof(r.module_version), "abc123");
	snprintf(r.hostname, sizeof(r.hostname), "lab-a");
	r.cpus = 4;
	r.devid = &id;
	r.nr_devid = 1;
	/* 1000 completions: 250 local, 750 elsewhere, all in softirq */
	r.loc.present = true;
	r.loc.total = 1000;
	r.loc.where[0] = 250;
	r.loc.where[2] = 750;
	r.loc.ctx[1] = 1000;
	s = kb_json_report_ext(&r, 1, 0, plus);
	free_result(&r, &job);
	return s;
}

static void t_run(void)
{
	struct kb_cmp_doc d;
	const struct kb_cmp_dir *cd;
	char *s = run_json(false);

	CHECK(kb_cmp_parse("a.json", s, &d, err, sizeof(err)) == 0);
	CHECK_STR(d.kind, "run");
	CHECK(d.nr_steps == 1 && d.steps[0].nr_jobs == 1);
	CHECK_STR(d.steps[0].label, "");
	CHECK_STR(d.steps[0].jobs[0].name, "kiobench");
	cd = &d.steps[0].jobs[0].dir[0];
	CHECK(cd->present && cd->n == 1000 && cd->nr == 2);
	CHECK(cd->b[0].lo == 1016 && cd->b[1].hi == 1032 && cd->b[0].count == 500);
	CHECK(cd->has_pct && cd->pct[0] >= 1016 && cd->pct[2] <= 1032);
	CHECK(fabs(cd->iops - 100) < 1e-6);
	/* both intervals are in the 2 s warm-up */
	CHECK(cd->nr_iv == 0);
	CHECK(!d.steps[0].jobs[0].dir[1].present);
	CHECK_STR(kb_cmp_kv_get(&d.steps[0].jobs[0].cfg, "devices"), "/dev/nullb0");
	CHECK_STR(kb_cmp_kv_get(&d.steps[0].jobs[0].cfg, "kernel"), "6.12.1");
	CHECK_STR(kb_cmp_kv_get(&d.steps[0].jobs[0].cfg, "module version"), "abc123");
	/* where it ran and on what: compare names them when they differ */
	CHECK_STR(kb_cmp_kv_get(&d.steps[0].jobs[0].cfg, "host hostname"), "lab-a");
	CHECK_STR(kb_cmp_kv_get(&d.steps[0].jobs[0].cfg, "host cpus"), "4");
	CHECK_STR(kb_cmp_kv_get(&d.steps[0].jobs[0].cfg, "device 1 serial"), "kiobench0");
	CHECK_STR(kb_cmp_kv_get(&d.steps[0].jobs[0].cfg, "device 1 model"), "QEMU NVMe Ctrl");
	CHECK_STR(kb_cmp_kv_get(&d.steps[0].jobs[0].cfg, "option rw"), "randread");
	CHECK(!kb_cmp_kv_get(&d.steps[0].jobs[0].cfg, "option filename"));
	/* the locality's counts as shares of the completions */
	CHECK(d.steps[0].jobs[0].loc.present && d.steps[0].jobs[0].loc.n == 1000);
	CHECK(fabs(d.steps[0].jobs[0].loc.where[0] - 25) < 1e-9);
	CHECK(fabs(d.steps[0].jobs[0].loc.where[2] - 75) < 1e-9);
	CHECK(fabs(d.steps[0].jobs[0].loc.ctx[1] - 100) < 1e-9);
	kb_cmp_doc_free(&d);
	free(s);
}

/* json+ bins: fio's key is the middle of the bucket. */
static void t_jsonplus(void)
{
	char *s = run_json(true);
	struct json_object *root = json_tokener_parse(s), *bins;

	CHECK(root != NULL);
	bins = json_object_object_get(json_object_object_get(json_object_object_get(
		json_object_array_get_idx(json_object_object_get(root, "jobs"), 0), "read"),
		"clat_ns"), "bins");
	CHECK(bins && json_object_object_length(bins) == 2);
	CHECK(json_object_get_uint64(json_object_object_get(bins, "1020")) == 500);
	CHECK(json_object_get_uint64(json_object_object_get(bins, "1028")) == 500);
	/* no bins where nothing was done: fio_jsonplus_clat2csv cannot take empty ones */
	CHECK(!json_object_object_get(json_object_object_get(json_object_object_get(
		json_object_array_get_idx(json_object_object_get(root, "jobs"), 0), "write"),
		"clat_ns"), "bins"));
	json_object_put(root);
	free(s);
}

static void t_fio_bins(void)
{
	static const char fio[] =
		"{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"j\", \"read\": "
		"{\"iops\": 10.5, \"bw_bytes\": 2000000, \"total_ios\": 4, \"clat_ns\": "
		"{\"N\": 4, \"mean\": 20.0, \"stddev\": 1.0, \"max\": 30, \"min\": 10, "
		"\"percentile\": {\"50.000000\": 20, \"99.000000\": 30, \"99.900000\": 30}, "
		"\"bins\": {\"30\": 1, \"10\": 1, \"20\": 2}}}}]}";
	struct kb_cmp_doc d;
	const struct kb_cmp_dir *cd;

	CHECK(kb_cmp_parse("fio.json", fio, &d, err, sizeof(err)) == 0);
	CHECK_STR(d.kind, "fio");
	cd = &d.steps[0].jobs[0].dir[0];
	CHECK(cd->nr == 3 && cd->b[0].lo == 10 && cd->b[2].lo == 30 && cd->b[1].count == 2);
	CHECK(cd->has_pct && cd->pct[0] == 20 && cd->pct[1] == 30);
	CHECK(fabs(cd->mbs - 2.0) < 1e-9 && cd->iops == 10.5 && cd->nr_iv == 0);
	kb_cmp_doc_free(&d);
}

static void t_sweep(void)
{
	static const char sw[] =
		"{\"kiobench\": \"x\", \"command\": \"sweep\", \"parts\": [{\"name\": \"p\", "
		"\"steps\": [{\"index\": 0, \"variable\": \"iodepth\", \"value\": \"4\", "
		"\"config\": {\"bs\": 4096}, \"jobs\": [{\"jobname\": \"a\"}]}, "
		"{\"index\": 1, \"variable\": \"none\", \"value\": \"-\", \"jobs\": []}]}]}";
	struct kb_cmp_doc d;

	CHECK(kb_cmp_parse("s.json", sw, &d, err, sizeof(err)) == 0);
	CHECK_STR(d.kind, "sweep");
	CHECK(d.nr_steps == 2);
	CHECK_STR(d.steps[0].label, "p iodepth=4");
	CHECK_STR(d.steps[1].label, "p #1");
	CHECK_STR(kb_cmp_kv_get(&d.steps[0].cfg, "step bs"), "4096");
	CHECK(d.steps[0].nr_jobs == 1 && !d.steps[0].jobs[0].dir[0].present);
	kb_cmp_doc_free(&d);
}

static void t_bad(void)
{
	static const struct { const char *text, *msg; } t[] = {
		{ "", "x.json: empty file, not a kiobench or fio result" },
		{ "{\"jobs\": [", "x.json: not JSON" },
		{ "[1, 2]", "x.json: not a kiobench or fio result (not a JSON object)" },
		{ "{\"a\": 1}", "x.json: not a kiobench or fio result (no \"jobs\" or \"parts\")" },
		{ "{\"jobs\": [{\"x\": 1}]}", "x.json: jobs[0]: not a job (no \"jobname\")" },
		{ "{\"parts\": [{}]}", "x.json: parts[0]: no \"steps\"" },
		{ "{\"jobs\": [{\"jobname\": \"a\", \"kiobench\": {\"hist\": {\"read\": "
		  "[[5, 4, 1]]}}, \"read\": {}}]}", "x.json: jobs[0]: malformed read histogram" },
	};
	struct kb_cmp_doc d;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		CHECK(kb_cmp_parse("x.json", t[i].text, &d, err, sizeof(err)) == KB_EXIT_USAGE);
		CHECK(!strncmp(err, t[i].msg, strlen(t[i].msg)));
		if (strncmp(err, t[i].msg, strlen(t[i].msg)))
			printf("    got: %s\n", err);
	}
	CHECK(kb_cmp_load("/nonexistent/x.json", &d, err, sizeof(err)) == KB_EXIT_USAGE);
	CHECK_STR(err, "/nonexistent/x.json: No such file or directory");
}

void compare_load_tests(void)
{
	run_case("compare: a run's JSON with its histogram and settings", t_run);
	run_case("compare: json+ bins, as fio writes them", t_jsonplus);
	run_case("compare: fio's JSON with json+ bins", t_fio_bins);
	run_case("compare: a sweep's steps", t_sweep);
	run_case("compare: what is not a result file", t_bad);
}
