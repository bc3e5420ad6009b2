// SPDX-License-Identifier: GPL-2.0
/*
 * The per-stage split of --stages in the reports: the stage table of the
 * normal output and jobs[i].kiobench.stages of the JSON
 * (Documentation/kiobench.rst, "Stages"), from the stage_<stage>_<dir>
 * measures (results.c reads them, measures.c merges and shapes them).
 */
#include <inttypes.h>
#include <string.h>

#include "json.h"
#include "kiobench.h"
#include "measures.h"
#include "result.h"
#include "stages_out.h"
#include "stats.h"
#include "steps.h"

const char *const kb_stage_names[KB_NR_STAGES] = { "queue", "device", "complete" };

const char *const kb_unsplit_names[KB_NR_UNSPLIT] = {
	[KB_UNSPLIT_SPLIT] = "split",
	[KB_UNSPLIT_NO_REQUEST] = "no_request",
	[KB_UNSPLIT_NO_DRIVER] = "no_driver",
	[KB_UNSPLIT_DISORDERED] = "disordered",
	[KB_UNSPLIT_SYNC_CALL] = "sync_call",
};

/* What the table says of the I/Os of each enum kb_unsplit. */
static const char *const unsplit_says[KB_NR_UNSPLIT] = {
	[KB_UNSPLIT_SPLIT] = "split by the block layer over several requests",
	[KB_UNSPLIT_NO_REQUEST] = "never issued to a driver in a request (a bio-based "
		"device, md or dm, sends clones down; the block layer ended them itself)",
	[KB_UNSPLIT_NO_DRIVER] = "issued, but ended with no driver completion of them",
	[KB_UNSPLIT_DISORDERED] = "stamped out of order",
	[KB_UNSPLIT_SYNC_CALL] = "zone resets timed around the block layer's call "
		"(zone_mgmt), whose bios are its own",
};

/* The table's percentiles: p50, p99, p99.9. */
static const uint32_t stage_pcts[KB_STAGE_NR_PCT] = {
	50 * KB_PCT_ONE, 99 * KB_PCT_ONE, 99900000,
};

static bool has_stages(const struct kb_result *r, int d)
{
	return r->job->stages && r->has_met[KB_MET_STAGE_QUEUE][d];
}

/*
 * The table's figures of each stage of direction d over the jobs r[0..n),
 * and the I/Os without stages; -1 when the jobs have no stages (or out of
 * memory).
 */
int kb_stage_rows(const struct kb_result *r, size_t n, int d,
		  struct kb_stage_row rows[KB_NR_STAGES], struct kb_unsplit_count *unsplit)
{
	double total = 0;
	struct kb_hist h;
	int s;

	memset(rows, 0, sizeof(*rows) * KB_NR_STAGES);
	memset(unsplit, 0, sizeof(*unsplit));
	if (!n || !has_stages(r, d))
		return -1;
	for (s = 0; s < KB_NR_STAGES; s++) {
		struct kb_stage_row *row = &rows[s];

		if (kb_metric_merged(r, n, KB_MET_STAGE_QUEUE + s, d, &h))
			return -1;
		row->n = h.samples;
		row->mean = kb_lat_mean(h.samples, h.sum);
		row->max = h.samples ? h.max : 0;
		if (kb_hist_percentiles(&h, stage_pcts, KB_STAGE_NR_PCT, row->pct, NULL))
			memset(row->pct, 0, sizeof(row->pct));
		/* the same in each stage's file */
		unsplit->all = h.unsplit;
		memcpy(unsplit->why, h.unsplit_why, sizeof(unsplit->why));
		total += row->mean;
		kb_hist_free(&h);
	}
	/* the stages of each I/O add up to its latency: so do their means */
	for (s = 0; s < KB_NR_STAGES; s++)
		rows[s].share = total > 0 ? 100.0 * rows[s].mean / total : 0.0;
	return 0;
}

/* The stage table of direction d of the jobs r[0..n), with indent. */
void kb_print_stage_table(FILE *f, const struct kb_result *r, size_t n, int d,
			  const char *indent)
{
	struct kb_stage_row rows[KB_NR_STAGES];
	struct kb_unsplit_count un;
	uint64_t split, told = 0;
	const char *sep = "";
	unsigned int i;
	int s;

	if (kb_stage_rows(r, n, d, rows, &un))
		return;
	split = rows[0].n;
	fprintf(f, "%sstages (%s): %" PRIu64 " of %" PRIu64 " I/Os split, %" PRIu64
		" unsplit\n", indent, kb_dir_names[d], split, split + un.all, un.all);
	if (split) {
		fprintf(f, "%s  stage (usec)       mean        p50        p99      p99.9"
			"        max   share\n", indent);
		for (s = 0; s < KB_NR_STAGES; s++) {
			fprintf(f, "%s  %-12s %10.2f", indent, kb_stage_names[s],
				rows[s].mean / 1e3);
			for (i = 0; i < KB_STAGE_NR_PCT; i++)
				fprintf(f, " %10.2f", rows[s].pct[i] / 1e3);
			fprintf(f, " %10.2f %6.1f%%\n", rows[s].max / 1e3, rows[s].share);
		}
	}
	if (!un.all)
		return;
	fprintf(f, "%s  %" PRIu64 " I/Os have no stages:", indent, un.all);
	for (s = 0; s < KB_NR_UNSPLIT; s++) {
		if (!un.why[s])
			continue;
		fprintf(f, "%s %" PRIu64 " %s", sep, un.why[s], unsplit_says[s]);
		told += un.why[s];
		sep = ";";
	}
	if (told < un.all)	/* a module that does not say why */
		fprintf(f, "%s %" PRIu64 " for reasons the module does not give", sep,
			un.all - told);
	fprintf(f, "; their latency is in the total only\n");
}

/* After a job's directions in the normal output. */
void kb_print_stages(FILE *f, const struct kb_result *r)
{
	int d;

	for (d = 0; d < KIOBENCH_NR_DIRS; d++)
		if (r->st.dir[d].ios)
			kb_print_stage_table(f, r, 1, d, "  ");
}

/* The merged stages of a step's jobs, under its rows, for each direction. */
void kb_print_step_stages(FILE *f, const struct kb_step *st)
{
	int d;

	for (d = 0; d < KIOBENCH_NR_DIRS; d++)
		if (st->sum[d].present && st->sum[d].ios)
			kb_print_stage_table(f, st->res, st->nr_res, d, "  ");
}

/*
 * jobs[i].kiobench.stages: per direction, each stage in the shape of
 * fio's clat_ns, and the I/Os without stages; NULL without stages.
 */
struct json_object *kb_stages_json(const struct kb_result *r)
{
	struct json_object *o = NULL, *dir, *why;
	int d, s;

	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		if (!has_stages(r, d))
			continue;
		if (!o)
			o = json_object_new_object();
		dir = json_object_new_object();
		for (s = 0; s < KB_NR_STAGES; s++)
			kb_jadd(dir, kb_stage_names[s],
				kb_json_metric(&r->met[KB_MET_STAGE_QUEUE + s][d], r->job));
		kb_jadd(dir, "unsplit", kb_ju64(r->met[KB_MET_STAGE_QUEUE][d].unsplit));
		why = json_object_new_object();
		for (s = 0; s < KB_NR_UNSPLIT; s++)
			kb_jadd(why, kb_unsplit_names[s],
				kb_ju64(r->met[KB_MET_STAGE_QUEUE][d].unsplit_why[s]));
		kb_jadd(dir, "unsplit_why", why);
		kb_jadd(o, kb_dir_names[d], dir);
	}
	return o;
}
