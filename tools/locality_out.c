// SPDX-License-Identifier: GPL-2.0
/*
 * Where each I/O ran, in the reports (Documentation/kiobench.rst,
 * "Locality"): shares of the completions on the submitting CPU, on one
 * sharing its last-level cache and elsewhere, their contexts, the CPUs
 * and hardware queues, the devices' interrupts over the job; and with
 * --locality the latency of local and remote completions side by side.
 */
#include <inttypes.h>
#include <string.h>

#include "json.h"
#include "kiobench.h"
#include "locality_out.h"
#include "measures.h"
#include "result.h"
#include "stats.h"

static double pct(uint64_t n, uint64_t total)
{
	return total ? 100.0 * (double)n / (double)total : 0.0;
}

static const uint32_t loc_pcts[] = { 50 * KB_PCT_ONE, 99 * KB_PCT_ONE, 99900000 };
#define NR_LOC_PCTS (sizeof(loc_pcts) / sizeof(loc_pcts[0]))

/* "local" and "remote" latency of direction d side by side (usec). */
static void print_split(FILE *f, const struct kb_result *r, int d)
{
	static const char *const names[] = { "local", "remote" };
	int k;

	if (!r->has_met[KB_MET_LAT_LOCAL][d] || !r->st.dir[d].ios)
		return;
	fprintf(f, "    latency by locality (%s, usec)       n       mean        p50"
		"        p99      p99.9        max\n", kb_dir_names[d]);
	for (k = 0; k < 2; k++) {
		const struct kb_hist *h = &r->met[KB_MET_LAT_LOCAL + k][d];
		uint64_t p[NR_LOC_PCTS] = { 0 };
		unsigned int i;

		if (h->samples)
			kb_hist_percentiles(h, loc_pcts, NR_LOC_PCTS, p, NULL);
		fprintf(f, "      %-28s %10" PRIu64 " %10.2f", names[k], h->samples,
			kb_lat_mean(h->samples, h->sum) / 1e3);
		for (i = 0; i < NR_LOC_PCTS; i++)
			fprintf(f, " %10.2f", p[i] / 1e3);
		fprintf(f, " %10.2f\n", (h->samples ? h->max : 0) / 1e3);
	}
}

static void print_cpus(FILE *f, const struct kb_locality *l)
{
	unsigned int i;

	fprintf(f, "    cpu  submitted  completed      local    hardirq    softirq       task\n");
	for (i = 0; i < l->nr_cpus; i++) {
		const struct kb_loc_cpu *c = &l->cpus[i];

		fprintf(f, "    %3u %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
			" %10" PRIu64 " %10" PRIu64 "\n", c->cpu, c->submitted, c->completed,
			c->local, c->ctx[0], c->ctx[1], c->ctx[2]);
	}
}

static void print_queues_irqs(FILE *f, const struct kb_locality *l)
{
	unsigned int i, k;

	fprintf(f, "    hardware queues:");
	for (i = 0; i < l->nr_queues; i++)
		if (l->queues[i].q < 0)
			fprintf(f, " none (bio-based) %" PRIu64, l->queues[i].n);
		else
			fprintf(f, " hq%d %" PRIu64, l->queues[i].q, l->queues[i].n);
	fprintf(f, "%s\n", l->nr_queues ? "" : " -");
	if (!l->has_irqs) {
		fprintf(f, "    device interrupts: none found in sysfs\n");
		return;
	}
	for (i = 0; i < l->irqs.nr; i++) {
		const struct kb_irq *q = &l->irqs.l[i];

		fprintf(f, "    interrupt %s (irq %u): %" PRIu64 " over the job:", q->name, q->irq,
			q->total);
		for (k = 0; k < l->irqs.ncpu; k++)
			if (q->cnt[k])
				fprintf(f, " cpu%u %" PRIu64, l->irqs.cpu[k], q->cnt[k]);
		fprintf(f, "\n");
	}
	if (!l->irqs.nr)
		fprintf(f, "    device interrupts: none over the job\n");
}

void kb_print_locality(FILE *f, const struct kb_result *r)
{
	const struct kb_locality *l = &r->loc;
	int d;

	if (!l->present)
		return;
	fprintf(f, "  locality: %" PRIu64 " I/Os completed: %.2f%% on the submitting CPU, "
		"%.2f%% on another sharing its last-level cache%s, %.2f%% elsewhere\n", l->total,
		pct(l->where[KB_LOC_LOCAL], l->total), pct(l->where[KB_LOC_LLC], l->total),
		l->llc_known ? "" : " (caches unknown)", pct(l->where[KB_LOC_REMOTE], l->total));
	fprintf(f, "    context: hardirq %.2f%%, softirq %.2f%%, task %.2f%%\n",
		pct(l->ctx[KB_LOC_HARDIRQ], l->total), pct(l->ctx[KB_LOC_SOFTIRQ], l->total),
		pct(l->ctx[KB_LOC_TASK], l->total));
	print_cpus(f, l);
	print_queues_irqs(f, l);
	for (d = 0; d < KIOBENCH_NR_DIRS; d++)
		print_split(f, r, d);
}

static struct json_object *cpus_json(const struct kb_locality *l)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;
	int k;

	for (i = 0; i < l->nr_cpus; i++) {
		const struct kb_loc_cpu *c = &l->cpus[i];
		struct json_object *o = json_object_new_object();

		kb_jadd(o, "cpu", kb_ju64(c->cpu));
		kb_jadd(o, "submitted", kb_ju64(c->submitted));
		kb_jadd(o, "completed", kb_ju64(c->completed));
		kb_jadd(o, "local", kb_ju64(c->local));
		for (k = 0; k < KB_LOC_NR_CTX; k++)
			kb_jadd(o, kb_loc_ctx_names[k], kb_ju64(c->ctx[k]));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *pairs_queues_json(const struct kb_locality *l,
					     struct json_object **queues)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < l->nr_pairs; i++) {
		struct json_object *o = json_object_new_object();

		kb_jadd(o, "submit_cpu", kb_ju64(l->pairs[i].s));
		kb_jadd(o, "complete_cpu", kb_ju64(l->pairs[i].c));
		kb_jadd(o, "ios", kb_ju64(l->pairs[i].n));
		json_object_array_add(a, o);
	}
	*queues = json_object_new_array();
	for (i = 0; i < l->nr_queues; i++) {
		struct json_object *o = json_object_new_object();

		kb_jadd(o, "queue", l->queues[i].q < 0 ? NULL :
			json_object_new_int(l->queues[i].q));
		kb_jadd(o, "ios", kb_ju64(l->queues[i].n));
		json_object_array_add(*queues, o);
	}
	return a;
}

static struct json_object *irqs_json(const struct kb_irqs *irqs)
{
	struct json_object *a = json_object_new_array();
	unsigned int i, k;
	char key[16];

	for (i = 0; i < irqs->nr; i++) {
		struct json_object *o = json_object_new_object(), *c = json_object_new_object();

		kb_jadd(o, "irq", kb_ju64(irqs->l[i].irq));
		kb_jadd(o, "name", kb_jstr(irqs->l[i].name));
		kb_jadd(o, "total", kb_ju64(irqs->l[i].total));
		for (k = 0; k < irqs->ncpu; k++) {
			snprintf(key, sizeof(key), "%u", irqs->cpu[k]);
			kb_jadd(c, key, kb_ju64(irqs->l[i].cnt[k]));
		}
		kb_jadd(o, "cpus", c);
		json_object_array_add(a, o);
	}
	return a;
}

/* latency.<dir>.{local,remote}: --locality's split; NULL without it. */
static struct json_object *split_json(const struct kb_result *r)
{
	struct json_object *o = NULL, *dir;
	int d;

	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		if (!r->has_met[KB_MET_LAT_LOCAL][d])
			continue;
		if (!o)
			o = json_object_new_object();
		dir = json_object_new_object();
		kb_jadd(dir, "local", kb_json_metric(&r->met[KB_MET_LAT_LOCAL][d], r->job));
		kb_jadd(dir, "remote", kb_json_metric(&r->met[KB_MET_LAT_REMOTE][d], r->job));
		kb_jadd(o, kb_dir_names[d], dir);
	}
	return o;
}

struct json_object *kb_locality_json(const struct kb_result *r)
{
	const struct kb_locality *l = &r->loc;
	struct json_object *o, *ctx, *queues, *split;
	int k;

	if (!l->present)
		return NULL;
	o = json_object_new_object();
	kb_jadd(o, "completions", kb_ju64(l->total));
	for (k = 0; k < KB_LOC_NR_WHERE; k++)
		kb_jadd(o, kb_loc_where_names[k], kb_ju64(l->where[k]));
	kb_jadd(o, "llc_known", json_object_new_boolean(l->llc_known));
	ctx = json_object_new_object();
	for (k = 0; k < KB_LOC_NR_CTX; k++)
		kb_jadd(ctx, kb_loc_ctx_names[k], kb_ju64(l->ctx[k]));
	kb_jadd(o, "context", ctx);
	kb_jadd(o, "cpus", cpus_json(l));
	kb_jadd(o, "pairs", pairs_queues_json(l, &queues));
	kb_jadd(o, "queues", queues);
	kb_jadd(o, "interrupts", l->has_irqs ? irqs_json(&l->irqs) : NULL);
	split = split_json(r);
	if (split)
		kb_jadd(o, "latency", split);
	return o;
}
