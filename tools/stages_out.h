/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --stages in the reports (stages_out.c).
 */
#ifndef KIOBENCH_STAGES_OUT_H
#define KIOBENCH_STAGES_OUT_H

#include "result.h"

struct json_object;

#define KB_NR_STAGES		3	/* queue, device, complete */
#define KB_STAGE_NR_PCT		3	/* the table's p50, p99, p99.9 */
extern const char *const kb_stage_names[KB_NR_STAGES];
/* The module's names of enum kb_unsplit, which the JSON keeps. */
extern const char *const kb_unsplit_names[KB_NR_UNSPLIT];

/* One stage of one direction, as the stage table shows it. */
struct kb_stage_row {
	uint64_t n, max;
	double mean;			/* ns */
	double share;			/* percent of the summed stage means */
	uint64_t pct[KB_STAGE_NR_PCT];
};

/* The I/Os of one direction that have no stages: in all and by why. */
struct kb_unsplit_count {
	uint64_t all, why[KB_NR_UNSPLIT];
};

/*
 * Stage figures of direction d over the jobs r[0..n) (merged), and the
 * I/Os that have no stages; -1 when the jobs have none.
 */
int kb_stage_rows(const struct kb_result *r, size_t n, int d,
		  struct kb_stage_row rows[KB_NR_STAGES], struct kb_unsplit_count *unsplit);
/* The stage table of direction d of r[0..n), each line after indent. */
void kb_print_stage_table(FILE *f, const struct kb_result *r, size_t n, int d,
			  const char *indent);
void kb_print_stages(FILE *f, const struct kb_result *r);
/* Under a step's rows in the table of a sweep or suite: its jobs' stages. */
struct kb_step;
void kb_print_step_stages(FILE *f, const struct kb_step *st);
/* jobs[i].kiobench.stages; NULL for a job without stages. */
struct json_object *kb_stages_json(const struct kb_result *r);

#endif /* KIOBENCH_STAGES_OUT_H */
