// SPDX-License-Identifier: GPL-2.0
/*
 * The figures of a part, printed after its table and kept in its JSON:
 * one function per kind (suite.h's FIG_*), and the aggregate of a burst
 * sequence.  A step's figures are about its main direction
 * (kb_step_dir()).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "json.h"
#include "part.h"
#include "result.h"
#include "steps.h"

#define KB_SATURATION_PCT	5	/* IOPS grows by less: saturated */
#define KB_DUTY_TOLERANCE	0.05	/* achieved duty cycle off by more: a note */

static void fig(struct method *m, struct part_run *pr, const char *key,
		struct json_object *v, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Record figure key in the part's JSON and print it. */
static void fig(struct method *m, struct part_run *pr, const char *key,
		struct json_object *v, const char *fmt, ...)
{
	va_list ap;

	kb_jadd(pr->figures, key, v);
	if (!(m->g.formats & KB_FMT_NORMAL))
		return;
	fputs("  ", m->out);
	va_start(ap, fmt);
	vfprintf(m->out, fmt, ap);
	va_end(ap);
	fputc('\n', m->out);
}

static const struct kb_sum *main_sum(const struct kb_step *st)
{
	return &st->sum[kb_step_dir(st)];
}

static const struct kb_step *step_at(const struct part_run *pr, uint64_t x)
{
	size_t i;

	for (i = 0; i < pr->n; i++)
		if (pr->steps[i].x == x)
			return &pr->steps[i];
	return NULL;
}

/* The average of QD1, QD2 and QD4, when the part has all three. */
static void fig_score_qd124(struct method *m, struct part_run *pr)
{
	struct json_object *o;
	double mb = 0, iops = 0;
	uint64_t q;
	int n = 0;

	for (q = 1; q <= 4; q *= 2) {
		const struct kb_step *st = step_at(pr, q);

		if (st) {
			mb += main_sum(st)->bw / 1e6;
			iops += main_sum(st)->iops;
			n++;
		}
	}
	if (n != 3)
		return;
	o = json_object_new_object();
	kb_jadd(o, "mb_s", kb_jdbl3(mb / 3));
	kb_jadd(o, "iops", kb_jdbl3(iops / 3));
	fig(m, pr, "score_qd1_2_4", o, "score (average of QD1, QD2, QD4): %.1f MB/s, %.0f IOPS",
	    mb / 3, iops / 3);
}

/* Each step's maximum latency, and their average. */
static void fig_max_lat(struct method *m, struct part_run *pr)
{
	struct json_object *a = json_object_new_array();
	double avg = 0;
	size_t i;

	for (i = 0; i < pr->n; i++) {
		struct json_object *o = json_object_new_object();

		kb_jadd(o, "x", kb_ju64(pr->steps[i].x));
		kb_jadd(o, "max_ns", kb_ju64(main_sum(&pr->steps[i])->max));
		json_object_array_add(a, o);
		avg += main_sum(&pr->steps[i])->max;
	}
	kb_jadd(pr->figures, "max_latency", a);
	fig(m, pr, "average_of_max_latency_ns", kb_jdbl3(avg / pr->n),
	    "average of the maximum latencies over %zu steps: %.1f us", pr->n,
	    avg / pr->n / 1000);
}

/* The mean latency at QD32 and QD128. */
static void fig_lat_at(struct method *m, struct part_run *pr)
{
	static const uint64_t at[] = { 32, 128 };
	char key[32];
	size_t i;

	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		const struct kb_step *st = step_at(pr, at[i]);

		if (!st)
			continue;
		snprintf(key, sizeof(key), "mean_latency_ns_qd%" PRIu64, at[i]);
		fig(m, pr, key, kb_jdbl3(main_sum(st)->mean), "average latency at QD%" PRIu64
		    ": %.1f us", at[i], main_sum(st)->mean / 1000);
	}
}

/* The step beyond which IOPS stops growing while latency grows. */
static void fig_saturation(struct method *m, struct part_run *pr)
{
	double *iops = calloc(pr->n, sizeof(double)), *lat = calloc(pr->n, sizeof(double));
	size_t i;
	int s;

	for (i = 0; iops && lat && i < pr->n; i++) {
		iops[i] = main_sum(&pr->steps[i])->iops;
		lat[i] = main_sum(&pr->steps[i])->mean;
	}
	s = iops && lat ? kb_saturation(iops, lat, pr->n, KB_SATURATION_PCT) : -2;
	if (s >= 0)
		fig(m, pr, "saturation", kb_jstr(pr->steps[s].value),
		    "saturation at %s=%s: %.0f IOPS; beyond it IOPS grows <= %d %% while "
		    "latency grows", kb_var_names[pr->def->var], pr->steps[s].value, iops[s],
		    KB_SATURATION_PCT);
	else if (s == -1)
		fig(m, pr, "saturation", NULL, "no saturation point in the sweep");
	free(iops);
	free(lat);
}

/* Throughput per step, and against linear scaling of the first step. */
static void fig_scaling(struct method *m, struct part_run *pr)
{
	const struct kb_step *one = step_at(pr, 1);
	const char *var = kb_var_names[pr->def->var];
	char key[80];
	size_t i;

	for (i = 0; i < pr->n; i++) {
		const struct kb_step *st = &pr->steps[i];
		const struct kb_sum *s = main_sum(st);
		double pct;

		snprintf(key, sizeof(key), "mb_s_%s_%s", var, st->value);
		fig(m, pr, key, kb_jdbl3(s->bw / 1e6), "%s=%s: %.1f MB/s", var, st->value,
		    s->bw / 1e6);
		if (!one || !(main_sum(one)->bw > 0) || st->x <= 1)
			continue;
		pct = 100 * s->bw / (main_sum(one)->bw * st->x);
		snprintf(key, sizeof(key), "linear_scaling_pct_%s_%s", var, st->value);
		fig(m, pr, key, kb_jdbl3(pct), "%s=%s: %.0f %% of linear scaling", var,
		    st->value, pct);
	}
}

/* The bursts as one sequential run: rows "all" and the part's "aggregate". */
static void burst_aggregate(struct method *m, struct part_run *pr)
{
	struct json_object *agg = json_object_new_object();
	struct kb_result *all;
	size_t i, k, n = 0;
	struct kb_sum s;
	int d;

	for (i = 0; i < pr->n; i++)
		n += pr->steps[i].nr_res;
	all = calloc(n ? n : 1, sizeof(*all));
	for (i = 0, n = 0; all && i < pr->n; i++)
		for (k = 0; k < pr->steps[i].nr_res; k++)
			all[n++] = pr->steps[i].res[k];
	for (d = 0; all && d < KIOBENCH_NR_DIRS; d++) {
		struct kb_step t = pr->steps[0];

		kb_summarize(all, n, d, true, &s);
		if (!s.present)
			continue;
		kb_jadd(agg, kb_dir_names[d], kb_sum_json(&s));
		if (m->g.formats & KB_FMT_NORMAL)
			kb_table_row(m->out, "all", d, &s, NULL);
		if (!m->csv)
			continue;
		t.index = pr->n;
		t.busy_ns = pr->busy_ns;
		t.idle_ns = pr->idle_ns;
		strcpy(t.value, "all");
		kb_csv_row(m->csv, pr->def->name, &t, NULL, d, &s, NULL);
	}
	free(all);
	kb_jadd(pr->json, "aggregate", agg);
}

/* A burst sequence: its aggregate and the duty cycle it achieved. */
static void fig_bursts(struct method *m, struct part_run *pr)
{
	double duty = kb_duty_cycle(pr->busy_ns, pr->idle_ns);
	char asked[32] = "a fixed idle time";

	burst_aggregate(m, pr);
	kb_jadd(pr->figures, "busy_ns", kb_ju64(pr->busy_ns));
	kb_jadd(pr->figures, "idle_ns", kb_ju64(pr->idle_ns));
	if (pr->def->duty) {
		kb_jadd(pr->figures, "duty_cycle_asked", kb_ju64(pr->def->duty));
		snprintf(asked, sizeof(asked), "%u %%", pr->def->duty);
	}
	fig(m, pr, "duty_cycle", kb_jdbl3(duty),
	    "%zu bursts: busy %.3f s, idle %.3f s, duty cycle %.2f %% (asked: %s)",
	    pr->n, pr->busy_ns / 1e9, pr->idle_ns / 1e9, duty, asked);
	if (pr->def->duty && fabs(duty / pr->def->duty - 1) > KB_DUTY_TOLERANCE)
		msg("note: %s: achieved duty cycle %.2f %% is not the asked %u %%: the "
		    "bursts (%.1f ms on average) are too short next to the tool's "
		    "per-burst overhead; use larger bursts", pr->def->name, duty,
		    pr->def->duty, pr->busy_ns / 1e6 / pr->n);
}

static const struct {
	unsigned int fig;
	void (*fn)(struct method *m, struct part_run *pr);
} kinds[] = {
	{ FIG_SCORE_QD124, fig_score_qd124 },
	{ FIG_MAX_LAT, fig_max_lat },
	{ FIG_LAT_AT, fig_lat_at },
	{ FIG_SATURATION, fig_saturation },
	{ FIG_SCALING, fig_scaling },
};

void figures(struct method *m, struct part_run *pr)
{
	size_t i;

	if (!pr->n)
		return;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (pr->def->figs & kinds[i].fig)
			kinds[i].fn(m, pr);
	if (pr->def->burst_size)
		fig_bursts(m, pr);
}
