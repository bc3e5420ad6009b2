// SPDX-License-Identifier: GPL-2.0
/* Unit tests of reports of jobs (tools/output.c): normal, terse, JSON. */
#include "options.h"
#include "report.h"
#include "result.h"
#include "sensors.h"
#include "tool_test.h"

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

	/* fio's description line, under the header */
	make_result(&r, &job, 1000);
	CHECK(!strstr(s = capture(kb_print_normal, &r), "Description"));
	free(s);
	job.description = strdup("hello world");
	s = capture(kb_print_normal, &r);
	CHECK(strstr(s, "numjobs=1\n  Description  : [hello world]\n  read: IOPS="));
	free(s);
	s = capture(kb_print_terse, &r);
	CHECK(strlen(s) > 13 && !strcmp(s + strlen(s) - 13, ";hello world\n"));
	free(s);
	s = kb_json_report(&r, 1, 1700000000123LL);
	CHECK(strstr(s, "\"desc\":\"hello world\"") || strstr(s, "\"desc\": \"hello world\""));
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

/*
 * fio's groups: three jobs of group 0, two of them with group_reporting,
 * and one of group 1.  The two are one entry with their sums (I/Os,
 * bytes, histogram, the longest runtime, jobs=2); the others stay.
 * Mutation: merge_result() without `s->ios += t->ios`: red.
 */
static void t_groups(void)
{
	struct kb_result r[4], *g;
	struct kb_job job[4];
	size_t i, n;
	char *s = NULL;
	size_t len = 0;
	FILE *f;

	for (i = 0; i < 4; i++) {
		make_result(&r[i], &job[i], 100 * (i + 1));
		job[i].group_reporting = i < 2;
		r[i].groupid = i == 3;
		r[i].st.measured_ns = 1000000000ULL * (i + 1);
	}
	f = open_memstream(&s, &len);
	kb_print_run_status(f, r, 4);
	fclose(f);
	/* group 0: 600 I/Os x 4 KiB over the longest, 3 s; jobs 40-100 KiB/s */
	CHECK(strstr(s, "\nRun status group 0 (all jobs):\n   READ: bw=800KiB/s (819kB/s), "
		      "400KiB/s-400KiB/s (410kB/s-410kB/s), io=2400KiB (2458kB), "
		      "run=1000-3000msec\n"));
	CHECK(strstr(s, "\nRun status group 1 (all jobs):\n"));
	free(s);
	g = kb_group_results(r, 4, &n);
	CHECK(g && n == 3);
	CHECK(g[0].job == &job[0] && g[0].nr_jobs == 2 && g[0].groupid == 0);
	CHECK(g[0].st.dir[0].ios == 300 && g[0].st.dir[0].bytes == 300 * 4096);
	CHECK(g[0].hist[0].samples == 300);
	CHECK(g[0].hist[0].b[0].count + g[0].hist[0].b[1].count == 300);
	CHECK(g[0].st.measured_ns == 2000000000ULL && !g[0].has_tl);
	CHECK(g[1].job == &job[2] && g[1].nr_jobs == 1 && g[1].st.dir[0].ios == 300);
	CHECK(g[2].job == &job[3] && g[2].groupid == 1);
	s = capture(kb_print_normal, &g[0]);
	CHECK(strstr(s, "kiobench: (groupid=0, jobs=2): err= 0:"));
	free(s);
	for (i = 0; i < n; i++) {
		kb_hist_free(&g[i].hist[0]);
		kb_timeline_free(&g[i].tl);
	}
	for (i = 0; i < 4; i++) {
		kb_hist_free(&r[i].hist[0]);
		kb_timeline_free(&r[i].tl);
		kb_job_free(&job[i]);
	}
	free(g);
}

/* A job of n reads with cmdprio: def I/Os of the job's priority 2/5, the rest 1/3. */
static void prio_result(struct kb_result *r, struct kb_job *job, uint64_t n, uint64_t def,
			uint8_t cmd_class)
{
	static const struct kb_bucket b[] = { { 1016, 1024, 0 } };
	int m, d;

	make_result(r, job, n);
	job->group_reporting = true;
	r->st.cfg.has_prio = true;
	r->st.cfg.has[KIOBENCH_A_PRIOCLASS] = r->st.cfg.has[KIOBENCH_A_PRIO] = true;
	r->st.cfg.val[KIOBENCH_A_PRIOCLASS] = 2;
	r->st.cfg.val[KIOBENCH_A_PRIO] = 5;
	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		r->st.cfg.cmdprio_pct[d] = 30;
		r->st.cfg.cmdprio_class[d] = cmd_class;
		r->st.cfg.cmdprio[d] = 3;
		for (m = KB_MET_CLAT_PRIO_DEF; m <= KB_MET_CLAT_PRIO_CMD; m++) {
			mkhist(&r->met[m][d], b, 1, 1020, 1020);
			r->met[m][d].dir = d;
			r->met[m][d].b[0].count = d ? 0 : m == KB_MET_CLAT_PRIO_DEF ? def : n - def;
			r->met[m][d].samples = r->met[m][d].b[0].count;
			r->has_met[m][d] = true;
		}
	}
}

/*
 * group_reporting keeps fio's clat_prio: the members' per-priority
 * latency merged when they share the priorities (the counts add up to the
 * group's), dropped when one differs.  Mutation: drop_per_job() dropping
 * every measure (no `!is_prio_metric(m)`): red.
 */
static void t_group_prios(void)
{
	struct kb_result r[3], *g;
	struct kb_job job[3];
	size_t i, n;
	int m, d;

	prio_result(&r[0], &job[0], 100, 70, 1);
	prio_result(&r[1], &job[1], 200, 150, 1);
	g = kb_group_results(r, 2, &n);
	CHECK(g && n == 1 && g[0].nr_jobs == 2 && g[0].st.dir[0].ios == 300);
	CHECK(g[0].has_met[KB_MET_CLAT_PRIO_DEF][0] && g[0].has_met[KB_MET_CLAT_PRIO_CMD][0]);
	CHECK(g[0].met[KB_MET_CLAT_PRIO_DEF][0].samples == 220);
	CHECK(g[0].met[KB_MET_CLAT_PRIO_CMD][0].samples == 80);
	for (m = 0; m < KB_NR_MET; m++)
		for (d = 0; d < KIOBENCH_NR_DIRS; d++)
			kb_hist_free(&g[0].met[m][d]);
	kb_hist_free(&g[0].hist[0]);
	free(g);
	for (i = 0; i < 2; i++) {
		kb_hist_free(&r[i].hist[0]);
		kb_timeline_free(&r[i].tl);
		for (m = 0; m < KB_NR_MET; m++)
			for (d = 0; d < KIOBENCH_NR_DIRS; d++)
				kb_hist_free(&r[i].met[m][d]);
		kb_job_free(&job[i]);
	}
	/* a member whose share has another class: no split for the group */
	prio_result(&r[0], &job[0], 100, 70, 1);
	prio_result(&r[1], &job[1], 200, 150, 1);
	prio_result(&r[2], &job[2], 100, 70, 3);
	g = kb_group_results(r, 3, &n);
	CHECK(g && n == 1 && g[0].nr_jobs == 3);
	CHECK(!g[0].has_met[KB_MET_CLAT_PRIO_DEF][0] && !g[0].has_met[KB_MET_CLAT_PRIO_CMD][0]);
	for (m = 0; m < KB_NR_MET; m++)
		for (d = 0; d < KIOBENCH_NR_DIRS; d++)
			kb_hist_free(&g[0].met[m][d]);
	kb_hist_free(&g[0].hist[0]);
	free(g);
	for (i = 0; i < 3; i++) {
		kb_hist_free(&r[i].hist[0]);
		kb_timeline_free(&r[i].tl);
		for (m = 0; m < KB_NR_MET; m++)
			for (d = 0; d < KIOBENCH_NR_DIRS; d++)
				kb_hist_free(&r[i].met[m][d]);
		kb_job_free(&job[i]);
	}
}

/*
 * fio's disk stats: after minus before of the device's stat, util the
 * busy share of the wall time; in normal, terse (appended to each line)
 * and JSON ("disk_util").  Mutation: kb_disk_delta() returning the after
 * value (`d->after[k] - d->before[k]` -> `d->after[k]`): red.
 */
static void t_disks(void)
{
	struct kb_disk d;
	struct kb_result r;
	struct kb_job job;
	struct json_object *a;
	char *s = NULL;
	size_t len = 0;
	FILE *f;
	int k;

	memset(&d, 0, sizeof(d));
	strcpy(d.name, "nullb0");
	for (k = 0; k < KB_DS_NR; k++) {
		d.before[k] = 1000 + k;
		d.after[k] = 1000 + k + 10 * (k + 1);
	}
	d.t_before_ns = 1000000000ULL;
	d.t_after_ns = 1000000000ULL + 1000 * 1000000ULL;	/* 1000 ms */
	d.ok = true;
	f = open_memstream(&s, &len);
	kb_print_disk_stats(f, &d, 1);
	fclose(f);
	/* rios 10, wios 50, rmerge 20, wmerge 60, rticks 40, wticks 80, in_queue 110,
	 * io_ticks 100 of 1000 ms */
	CHECK_STR(s, "\nDisk stats (read/write):\n  nullb0: ios=10/50, merge=20/60, "
		  "ticks=40/80, in_queue=110, util=10.00%\n");
	free(s);
	make_result(&r, &job, 10);
	s = NULL;
	f = open_memstream(&s, &len);
	kb_print_terse_disks(f, &r, 1, &d, 1);
	fclose(f);
	CHECK(strstr(s, ";nullb0;10;50;20;60;40;80;110;10.00%\n"));
	free(s);
	free_result(&r, &job);
	a = kb_json_disk_util(&d, 1);
	CHECK_STR(json_object_to_json_string(json_object_array_get_idx(a, 0)),
		  "{ \"name\": \"nullb0\", \"read_ios\": 10, \"write_ios\": 50, "
		  "\"read_merges\": 20, \"write_merges\": 60, \"read_ticks\": 40, "
		  "\"write_ticks\": 80, \"in_queue\": 110, \"util\": 10.000000 }");
	json_object_put(a);
}


/* r's writes: n I/Os of 8 KiB at 2000-2010 ns (a bucket [2000, 2016)). */
static void add_writes(struct kb_result *r, uint64_t n)
{
	static const struct kb_bucket b[] = { { 2000, 2016, 0 } };

	r->st.dir[1].ios = r->st.dir[1].all_ios = n;
	r->st.dir[1].bytes = r->st.dir[1].all_bytes = n * 8192;
	r->st.dir[1].lat_min = 2000;
	r->st.dir[1].lat_max = 2010;
	r->st.dir[1].lat_sum = 2005 * n;
	mkhist(&r->hist[1], b, 1, 2000, 2010);
	r->hist[1].b[0].count = n;
	r->hist[1].samples = n;
	r->hist[1].bits = 6;
	r->hist[1].dir = 1;
}

static struct json_object *job0_of(const char *s, struct json_object **root)
{
	struct json_object *jobs;

	*root = json_tokener_parse(s);
	if (!*root || !json_object_object_get_ex(*root, "jobs", &jobs))
		return NULL;
	return json_object_array_get_idx(jobs, 0);
}

static int64_t jget(struct json_object *o, const char *k1, const char *k2)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, k1, &v) ||
	    (k2 && !json_object_object_get_ex(v, k2, &v)))
		return -1;
	return json_object_get_int64(v);
}

static void run_status_of(const struct kb_result *r, char **s)
{
	size_t len = 0;
	FILE *f = open_memstream(s, &len);

	kb_print_run_status(f, r, 1);
	fclose(f);
}

/*
 * unified_rw_reporting: mixed sums reads and writes into fio's one
 * "mixed" direction, alone (JSON: no read, write, trim or sync, as fio
 * 3.33), both after them; normal, terse, JSON and the run status.
 * Mutation: kb_mixed_result() without add_dirstat() of the writes
 * (`d < KIOBENCH_DIR_SYNC` -> `d < KIOBENCH_DIR_WRITE`): red.
 */
static void t_unified(void)
{
	struct json_object *root, *j, *m;
	struct kb_global g = { 0 };
	struct kb_result r;
	struct kb_job job;
	char *s, *p;
	int fields = 1;

	make_result(&r, &job, 1000);
	add_writes(&r, 1000);
	CHECK(apply(&job, &g, "unified_rw_reporting", "mixed") == 0);
	s = capture(kb_print_normal, &r);
	/* 1000 x 4 KiB + 1000 x 8 KiB in 10 s: 200 IOPS, 1200 KiB/s */
	CHECK(strstr(s, "  mixed: IOPS=200, BW=1200KiB/s (1229kB/s)(11.7MiB/10000msec)\n"));
	CHECK(strstr(s, "    lat (nsec): min=1020, max=2010, avg=1515.00,"));
	CHECK(strstr(s, "    lat percentiles (nsec, N=2000):\n"));
	CHECK(!strstr(s, "  read:") && !strstr(s, "  write:"));
	free(s);
	run_status_of(&r, &s);
	CHECK(strstr(s, "  MIXED: bw=1200KiB/s (1229kB/s), 1200KiB/s-1200KiB/s "));
	CHECK(!strstr(s, "READ:"));
	free(s);
	s = kb_json_report(&r, 1, 1700000000123LL);
	j = job0_of(s, &root);
	CHECK(j && json_object_object_get_ex(j, "mixed", &m));
	CHECK(jget(j, "mixed", "total_ios") == 2000);
	CHECK(jget(j, "mixed", "io_bytes") == 12288000);
	CHECK(j && json_object_object_get_ex(j, "mixed", &m) &&
	      jget(m, "clat_ns", "N") == 2000 && jget(m, "clat_ns", "max") == 2010);
	CHECK(j && !json_object_object_get_ex(j, "read", NULL) &&
	      !json_object_object_get_ex(j, "write", NULL) &&
	      !json_object_object_get_ex(j, "trim", NULL) &&
	      !json_object_object_get_ex(j, "sync", NULL));
	json_object_put(root);
	free(s);
	s = capture(kb_print_terse, &r);
	for (p = s; *p; p++)
		fields += *p == ';';
	CHECK(fields == 80);	/* fio 3.33's count: the mixed direction in the reads' place */
	CHECK(!strncmp(s, "3;kiobench-" KB_TOOL_VERSION ";kiobench;0;0;12000;1200;200;",
		       strlen("3;kiobench-" KB_TOOL_VERSION ";kiobench;0;0;12000;1200;200;")));
	free(s);

	CHECK(apply(&job, &g, "unified_rw_reporting", "2") == 0);	/* both */
	s = capture(kb_print_normal, &r);
	p = strstr(s, "  write: IOPS=100,");
	CHECK(strstr(s, "  read: IOPS=100,") && p && strstr(p, "  mixed: IOPS=200,"));
	free(s);
	run_status_of(&r, &s);
	CHECK(strstr(s, "   READ: bw=") && strstr(s, "  WRITE: bw=") && strstr(s, "  MIXED: bw="));
	free(s);
	s = kb_json_report(&r, 1, 1700000000123LL);
	j = job0_of(s, &root);
	CHECK(jget(j, "read", "total_ios") == 1000 && jget(j, "write", "total_ios") == 1000 &&
	      jget(j, "mixed", "total_ios") == 2000);
	json_object_put(root);
	free(s);
	CHECK(apply(&job, &g, "unified_rw_reporting", "0") == 0);
	s = capture(kb_print_normal, &r);
	CHECK(!strstr(s, "mixed"));
	free(s);
	CHECK(apply(&job, &g, "unified_rw_reporting", "sum") != 0);
	kb_hist_free(&r.hist[1]);
	free_result(&r, &job);
}

/*
 * clat_percentiles and lat_percentiles: the one latency's percentiles,
 * under JSON's clat_ns and lat_ns as each asks, in the normal and terse
 * output when either does.  Mutation: lat_obj()'s clat call with `true`
 * for r->job->clat_percentiles: red.
 */
static void t_pct_switches(void)
{
	struct json_object *root, *j, *v;
	struct kb_global g = { 0 };
	struct kb_result r;
	struct kb_job job;
	char *s;

	make_result(&r, &job, 1000);
	CHECK(job.clat_percentiles && !job.lat_percentiles);	/* fio's defaults */
	CHECK(apply(&job, &g, "clat_percentiles", "0") == 0);
	s = kb_json_report(&r, 1, 1700000000123LL);
	j = job0_of(s, &root);
	CHECK(j && json_object_object_get_ex(j, "read", &v) &&
	      json_object_object_get_ex(v, "clat_ns", &v) &&
	      jget(v, "N", NULL) == 1000 && !json_object_object_get_ex(v, "percentile", NULL));
	json_object_put(root);
	free(s);
	s = capture(kb_print_normal, &r);
	CHECK(strstr(s, "    lat (nsec): min=1020") && !strstr(s, "percentiles"));
	free(s);
	s = capture(kb_print_terse, &r);
	CHECK(!strstr(s, "%=1;") && strstr(s, ";0%=0;"));
	free(s);
	CHECK(apply(&job, &g, "lat_percentiles", "1") == 0);
	s = kb_json_report(&r, 1, 1700000000123LL);
	j = job0_of(s, &root);
	CHECK(j && json_object_object_get_ex(j, "read", &v) &&
	      json_object_object_get_ex(v, "lat_ns", &v) &&
	      jget(v, "percentile", "99.000000") == 1027);
	json_object_put(root);
	free(s);
	s = capture(kb_print_normal, &r);
	CHECK(strstr(s, "    lat percentiles (nsec, N=1000):\n"));
	free(s);
	CHECK(apply(&job, &g, "slat_percentiles", "0") == 0);
	CHECK(apply(&job, &g, "slat_percentiles", "1") != 0 &&
	      strstr(err, "no submission latency"));
	free_result(&r, &job);
}

/*
 * significant_figures and unit_base: fio's num2str digits of the normal
 * output's IOPS, bandwidth and sizes, and bits for bandwidth.  Expected
 * strings are Debian fio 3.33's for the same figures (4 MiB in 1 ms:
 * "IOPS=1024.0k, BW=32000Mibit/s (33554Mbit/s)(4096.0KiB/1msec)").
 * Mutation: kb_bw_str() without `* 8`: red.
 */
static void t_sig_figs(void)
{
	struct kb_global g = { 0 };
	struct kb_result r;
	struct kb_job job;
	char *s;

	make_result(&r, &job, 1024);
	r.st.measured_ns = 1000000;	/* 1024 x 4 KiB in 1 ms */
	CHECK(apply(&job, &g, "significant_figures", "6") == 0);
	CHECK(apply(&job, &g, "unit_base", "1") == 0);
	s = capture(kb_print_normal, &r);
	CHECK(strstr(s, "  read: IOPS=1024.0k, BW=32000Mibit/s (33554Mbit/s)(4096.0KiB/1msec)\n"));
	free(s);
	run_status_of(&r, &s);
	CHECK(strstr(s, "   READ: bw=32000Mibit/s (33554Mbit/s), 32000Mibit/s-32000Mibit/s "
		      "(33554Mbit/s-33554Mbit/s), io=4096.0KiB (4194.3kB), run=1-1msec\n"));
	free(s);
	CHECK(apply(&job, &g, "significant_figures", "2") == 0);
	CHECK(apply(&job, &g, "unit_base", "8") == 0);
	s = capture(kb_print_normal, &r);
	CHECK(strstr(s, "  read: IOPS=1M, BW=4GiB/s (4GB/s)(4MiB/1msec)\n"));
	free(s);
	CHECK(apply(&job, &g, "significant_figures", "11") != 0);
	CHECK(apply(&job, &g, "unit_base", "2") != 0);
	free_result(&r, &job);
}

/*
 * disk_util: the JSON's "disk_util" is there only with disks to report
 * (the run collects none for jobs with disk_util=0), as fio's.
 * Mutation: kb_json_report_disks()'s `disks && nd` -> `disks`: red.
 */
static void t_no_disks(void)
{
	struct kb_disk d = { 0 };
	struct kb_result r;
	struct kb_job job;
	char *s;

	make_result(&r, &job, 10);
	CHECK(job.disk_util);
	s = kb_json_report_disks(&r, 1, 1700000000123LL, false, &d, 0);
	CHECK(!strstr(s, "disk_util"));
	free(s);
	free_result(&r, &job);
}


/*
 * bwavgtime and iopsavgtime: fio's bw and iops samples from the timeline,
 * one a window of the option's ms (whole intervals) after the warm-up, no
 * sample of a window without I/O; each interval without the options.
 * Ten 100 ms intervals of 1..10 reads of 4 KiB, the ninth empty; the
 * warm-up (ramp_time=250ms) ends in the third, which is left out.
 * Mutation: tl_samples() taking the interval across the warm-up's end
 * (`prev < ramp` -> `r->tl.p[i].t_ns <= ramp`): red.
 */
static void t_rate_samples(void)
{
	struct json_object *root, *j, *rd;
	struct kb_global g = { 0 };
	struct kb_result r;
	struct kb_job job;
	unsigned int i;
	char *s;

	make_result(&r, &job, 1000);
	CHECK(apply(&job, &g, "ramp_time", "250ms") == 0);
	free(r.tl.p);
	r.tl.interval_ns = 100000000ULL;
	r.tl.nr = 10;
	r.tl.p = calloc(10, sizeof(*r.tl.p));
	for (i = 0; i < 10; i++) {
		r.tl.p[i].t_ns = (i + 1) * 100000000ULL;
		r.tl.p[i].ios[0] = i == 8 ? 0 : i + 1;
		r.tl.p[i].bytes[0] = r.tl.p[i].ios[0] * 4096;
	}
	/* each interval from 300 ms: reads 4..8, 0, 10: 6 samples */
	s = kb_json_report(&r, 1, 1700000000123LL);
	j = job0_of(s, &root);
	CHECK(j && json_object_object_get_ex(j, "read", &rd));
	CHECK(jget(rd, "bw_samples", NULL) == 6 && jget(rd, "iops_samples", NULL) == 6);
	CHECK(jget(rd, "bw_min", NULL) == 160 && jget(rd, "bw_max", NULL) == 400);
	CHECK(jget(rd, "iops_min", NULL) == 40 && jget(rd, "iops_max", NULL) == 100);
	json_object_put(root);
	free(s);
	/* bwavgtime=200: 300-500, 500-700, 700-900 ms of 9, 13, 8 reads (900-1000 too short) */
	CHECK(apply(&job, &g, "bwavgtime", "200") == 0);
	CHECK(kb_job_rate_window_ns(&job, false) == 200000000ULL &&
	      kb_job_rate_window_ns(&job, true) == 0);
	s = kb_json_report(&r, 1, 1700000000123LL);
	j = job0_of(s, &root);
	CHECK(j && json_object_object_get_ex(j, "read", &rd));
	CHECK(jget(rd, "bw_samples", NULL) == 3 && jget(rd, "iops_samples", NULL) == 6);
	CHECK(jget(rd, "bw_min", NULL) == 160 && jget(rd, "bw_max", NULL) == 260);
	json_object_put(root);
	free(s);
	/* per: of the job's 400 KiB/s */
	s = capture(kb_print_normal, &r);
	CHECK(strstr(s, "   bw (  KiB/s): min=  160, max=  260, per=50.00%, avg=200.00, "
		      "stdev=52.92, samples=3\n"));
	CHECK(strstr(s, "   iops        : min=   40, max=  100, avg=66.67, stdev=21.60, "
		      "samples=6\n"));
	free(s);
	s = capture(kb_print_terse, &r);
	CHECK(strstr(s, ";160;260;50.000000%;200.000000;52.915026;"));
	free(s);
	free_result(&r, &job);

	/* the timeline's interval: theirs when not given, else a divisor of theirs */
	kb_job_init(&job);
	CHECK(apply(&job, &g, "filename", "/dev/nullb0") == 0);
	CHECK(apply(&job, &g, "bwavgtime", "500") == 0);
	CHECK(apply(&job, &g, "iopsavgtime", "300") == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == 0 && job.interval_ns == 100000000ULL);
	CHECK(apply(&job, &g, "interval", "200ms") == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == -1 && strstr(err, "bwavgtime=500ms"));
	kb_job_free(&job);
	kb_job_init(&job);
	CHECK(apply(&job, &g, "filename", "/dev/nullb0") == 0);
	CHECK(apply(&job, &g, "iopsavgtime", "25") == 0);
	CHECK(apply(&job, &g, "bwavgtime", "30") == 0);	/* gcd 5 ms */
	CHECK(kb_job_check(&job, err, sizeof(err)) == -1 && strstr(err, "10ms"));
	kb_job_free(&job);
}

void output_tests(void)
{
	run_case("num2str like fio", t_num2str);
	run_case("normal output", t_output_normal);
	run_case("terse output (fio v3)", t_output_terse);
	run_case("json output (fio schema)", t_output_json);
	run_case("fio's groups: group_reporting, run status", t_groups);
	run_case("output: group_reporting keeps the per-priority latency", t_group_prios);
	run_case("fio's disk stats: normal, terse, JSON", t_disks);
	run_case("output: unified_rw_reporting mixed and both", t_unified);
	run_case("output: clat_percentiles, lat_percentiles, slat_percentiles", t_pct_switches);
	run_case("output: significant_figures, unit_base", t_sig_figs);
	run_case("output: no disk_util without disks", t_no_disks);
	run_case("output: bwavgtime, iopsavgtime samples", t_rate_samples);
}
