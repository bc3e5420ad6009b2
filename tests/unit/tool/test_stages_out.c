// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the stage table and JSON (tools/stages_out.c). */
#include "result.h"
#include "stages_out.h"
#include "steps.h"
#include "tool_test.h"

/* A stage histogram of n samples, all in one bucket around v ns. */
static void stage_hist(struct kb_hist *h, struct kb_bucket *b, uint64_t n, uint64_t v)
{
	b->lo = v - v / 128;
	b->hi = v + v / 128;
	b->count = n;
	mkhist(h, b, 1, v, v);
	h->samples = n;
	h->sum = n * v;
	h->sumsq_hi = 0;
	h->sumsq_lo = n * v * v;
}

/*
 * Reads: 400 I/Os of 2 + 100 + 4 us, 100 more unsplit (60 split by the
 * block layer, 40 for no reason the module gives); writes: none.
 */
static void make_stages(struct kb_result *r, struct kb_job *job, struct kb_bucket *b)
{
	static const uint64_t v[KB_NR_STAGES] = { 2000, 100000, 4000 };
	int s, d;

	make_result(r, job, 500);
	job->stages = true;
	for (s = 0; s < KB_NR_STAGES; s++) {
		struct kb_hist *h = r->met[KB_MET_STAGE_QUEUE + s];

		stage_hist(&h[KIOBENCH_DIR_READ], &b[s], 400, v[s]);
		h[KIOBENCH_DIR_READ].unsplit = 100;
		h[KIOBENCH_DIR_READ].unsplit_why[KB_UNSPLIT_SPLIT] = 60;
		mkhist(&h[KIOBENCH_DIR_WRITE], NULL, 0, 0, 0);
		for (d = 0; d < KIOBENCH_NR_DIRS; d++)
			r->has_met[KB_MET_STAGE_QUEUE + s][d] = true;
	}
}

static void free_stages(struct kb_result *r, struct kb_job *job)
{
	int s, d;

	for (s = 0; s < KB_NR_STAGES; s++)
		for (d = 0; d < KIOBENCH_NR_DIRS; d++)
			kb_hist_free(&r->met[KB_MET_STAGE_QUEUE + s][d]);
	free_result(r, job);
}

static void print_stages(FILE *f, const struct kb_result *r, size_t n)
{
	(void)n;
	kb_print_stages(f, r);
}

static void t_rows_share(void)
{
	struct kb_result r;
	struct kb_job job;
	struct kb_bucket b[KB_NR_STAGES];
	struct kb_stage_row rows[KB_NR_STAGES];
	struct kb_unsplit_count unsplit;

	make_stages(&r, &job, b);
	CHECK(kb_stage_rows(&r, 1, KIOBENCH_DIR_READ, rows, &unsplit) == 0);
	CHECK(unsplit.all == 100 && unsplit.why[KB_UNSPLIT_SPLIT] == 60 &&
	      unsplit.why[KB_UNSPLIT_NO_REQUEST] == 0);
	CHECK(rows[0].n == 400 && rows[1].n == 400 && rows[2].n == 400);
	CHECK(fabs(rows[1].mean - 100000) < 1e-6);
	CHECK(fabs(rows[0].share + rows[1].share + rows[2].share - 100) < 1e-9);
	CHECK(fabs(rows[1].share - 100.0 * 100000 / 106000) < 1e-9);
	CHECK(rows[2].pct[0] == 4000 && rows[2].max == 4000);
	/* a direction without I/O has empty rows; a job without stages none */
	CHECK(kb_stage_rows(&r, 1, KIOBENCH_DIR_WRITE, rows, &unsplit) == 0);
	CHECK(rows[0].n == 0 && unsplit.all == 0 && rows[0].share == 0);
	job.stages = false;
	CHECK(kb_stage_rows(&r, 1, KIOBENCH_DIR_READ, rows, &unsplit) == -1);
	free_stages(&r, &job);
}

static void t_table(void)
{
	struct kb_result r;
	struct kb_job job;
	struct kb_bucket b[KB_NR_STAGES];
	char *out;

	make_stages(&r, &job, b);
	out = capture(print_stages, &r);
	CHECK(strstr(out, "  stages (read): 400 of 500 I/Os split, 100 unsplit\n") != NULL);
	CHECK(strstr(out, "    stage (usec)       mean        p50        p99      p99.9"
		      "        max   share\n") != NULL);
	CHECK(strstr(out, "    device           100.00     100.00     100.00     100.00"
		      "     100.00   94.3%\n") != NULL);
	CHECK(strstr(out, "    100 I/Os have no stages: 60 split by the block layer over several "
		      "requests; 40 for reasons the module does not give; their latency is in "
		      "the total only\n") != NULL);
	CHECK(strstr(out, "stages (write)") == NULL);
	free(out);
	/* all unsplit (a bio-based device): the count and the sentence, no rows */
	r.met[KB_MET_STAGE_QUEUE][KIOBENCH_DIR_READ].samples = 0;
	out = capture(print_stages, &r);
	CHECK(strstr(out, "  stages (read): 0 of 100 I/Os split, 100 unsplit\n") != NULL);
	CHECK(strstr(out, "stage (usec)") == NULL);
	CHECK(strstr(out, "have no stages") != NULL);
	free(out);
	free_stages(&r, &job);
}

static void t_json(void)
{
	struct kb_result r;
	struct kb_job job;
	struct kb_bucket b[KB_NR_STAGES];
	struct json_object *o, *rd, *q, *v;

	make_stages(&r, &job, b);
	o = kb_stages_json(&r);
	CHECK(json_object_object_get_ex(o, "read", &rd));
	CHECK(json_object_object_get_ex(o, "write", NULL));
	CHECK(json_object_object_get_ex(rd, "unsplit", &v) && json_object_get_uint64(v) == 100);
	CHECK(json_object_object_get_ex(rd, "unsplit_why", &v) &&
	      json_object_object_get_ex(v, "split", &q) && json_object_get_uint64(q) == 60);
	CHECK(json_object_object_get_ex(rd, "queue", &q));
	CHECK(json_object_object_get_ex(q, "N", &v) && json_object_get_uint64(v) == 400);
	CHECK(json_object_object_get_ex(q, "min", &v) && json_object_get_uint64(v) == 2000);
	CHECK(json_object_object_get_ex(q, "max", &v) && json_object_get_uint64(v) == 2000);
	CHECK(json_object_object_get_ex(q, "mean", &v) &&
	      fabs(json_object_get_double(v) - 2000) < 1e-6);
	CHECK(json_object_object_get_ex(q, "stddev", &v) &&
	      fabs(json_object_get_double(v)) < 1e-6);
	CHECK(json_object_object_get_ex(q, "percentile", &v) &&
	      json_object_object_length(v) == (int)job.nr_plist);
	CHECK(json_object_object_get_ex(rd, "device", NULL));
	CHECK(json_object_object_get_ex(rd, "complete", NULL));
	json_object_put(o);
	/* a job without stages has no "stages" */
	job.stages = false;
	CHECK(kb_stages_json(&r) == NULL);
	free_stages(&r, &job);
}

/* A step of two jobs: their stages merged under the step's rows. */
static void t_step(void)
{
	struct kb_result r[2];
	struct kb_job job[2];
	struct kb_bucket b[2][KB_NR_STAGES];
	struct kb_step st = { .res = r, .nr_res = 2 };
	char buf[4096];
	FILE *f;

	make_stages(&r[0], &job[0], b[0]);
	make_stages(&r[1], &job[1], b[1]);
	st.sum[KIOBENCH_DIR_READ].present = true;
	st.sum[KIOBENCH_DIR_READ].ios = 1000;
	f = fmemopen(buf, sizeof(buf), "w");
	kb_print_step_stages(f, &st);
	fclose(f);
	CHECK(strstr(buf, "  stages (read): 800 of 1000 I/Os split, 200 unsplit\n") != NULL);
	CHECK(strstr(buf, "    queue              2.00") != NULL);
	CHECK(strstr(buf, "stages (write)") == NULL);
	free_stages(&r[0], &job[0]);
	free_stages(&r[1], &job[1]);
}

void stages_out_tests(void)
{
	run_case("stages: rows and shares", t_rows_share);
	run_case("stages: table and unsplit sentence", t_table);
	run_case("stages: JSON as clat_ns", t_json);
	run_case("stages: a step's jobs merged", t_step);
}
