// SPDX-License-Identifier: GPL-2.0
/*
 * What a part writes of each step: the table rows of normal output, the
 * CSV rows, and the step's JSON object.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "json.h"
#include "kiobench.h"
#include "measures.h"
#include "options.h"
#include "report.h"
#include "result.h"
#include "sensors.h"
#include "stages_out.h"
#include "stats.h"
#include "steps.h"


static void fmt_us(char *buf, size_t len, double ns, bool ok)
{
	if (!ok)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", ns / 1000.0);
}

void kb_table_header(FILE *f, const char *var)
{
	fprintf(f, "%-10s %-5s %11s %10s %10s %10s %10s %10s %10s %10s %10s %11s %10s %7s %8s\n",
		var, "dir", "IOPS", "MB/s", "mean_us", "p50_us", "p99_us", "p99.9_us",
		"p99.99_us", "p99.999_us", "max_us", "samples", "cpu_ns/io", "temp_C", "power_W");
}

/* The sensor columns: the hottest temperature and the mean power, or "-". */
static void fmt_sensors(char *temp, char *power, size_t len, const struct kb_hw_sum *hw)
{
	snprintf(temp, len, "-");
	snprintf(power, len, "-");
	if (hw && hw->has_temp)
		snprintf(temp, len, "%.1f", hw->temp_max_mc / 1e3);
	if (hw && hw->has_power)
		snprintf(power, len, "%.2f", hw->power_uw / 1e6);
}

void kb_table_row(FILE *f, const char *value, int d, const struct kb_sum *s,
		  const struct kb_hw_sum *hw)
{
	char c[6][24], m[24], x[24], t[24], w[24];
	int i;

	fmt_us(m, sizeof(m), s->mean, s->ios);
	for (i = 0; i < KB_SUM_NR_PCT; i++)
		fmt_us(c[i], sizeof(c[i]), s->pct[i], s->has_pct);
	fmt_us(x, sizeof(x), s->max, s->ios);
	fmt_sensors(t, w, sizeof(t), hw);
	fprintf(f, "%-10s %-5s %11.0f %10.1f %10s %10s %10s %10s %10s %10s %10s %11" PRIu64
		" %10.0f %7s %8s\n", value, kb_dir_names[d], s->iops, s->bw / 1e6, m, c[0], c[1],
		c[2], c[3], c[4], x, s->samples, s->cpu_ns_per_io, t, w);
}

void kb_csv_header(FILE *f)
{
	fprintf(f, "part,step,variable,value,dir,iodepth,numjobs,bs,devices,device,ios,bytes,"
		"measured_ns,iops,mb_s,mean_ns,p50_ns,p99_ns,p99_9_ns,p99_99_ns,p99_999_ns,"
		"min_ns,max_ns,samples,errors,busy_ns,idle_ns,cpu_ns,cpu_ns_per_io,"
		"temp_min_mc,temp_max_mc,power_uw\n");
}

void kb_csv_row(FILE *f, const char *part, const struct kb_step *st, const char *device,
		int d, const struct kb_sum *s, const struct kb_hw_sum *hw)
{
	int i;

	fprintf(f, "%s,%u,%s,%s,%s,%u,%u,%u,%u,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%.3f,%.3f,%.1f", part, st->index, kb_var_names[st->var], st->value,
		kb_dir_names[d], st->iodepth, st->numjobs, st->bs, st->nr_devices,
		device ? device : "", s->ios, s->bytes, s->measured_ns, s->iops, s->bw / 1e6, s->mean);
	for (i = 0; i < KB_SUM_NR_PCT; i++) {
		if (s->has_pct)
			fprintf(f, ",%" PRIu64, s->pct[i]);
		else
			fputc(',', f);
	}
	fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%" PRIu64 ",%.1f", s->min, s->max, s->samples, s->errors, st->busy_ns,
		st->idle_ns, s->cpu_ns, s->cpu_ns_per_io);
	if (hw && hw->has_temp)
		fprintf(f, ",%" PRId64 ",%" PRId64, hw->temp_min_mc, hw->temp_max_mc);
	else
		fputs(",,", f);
	if (hw && hw->has_power)
		fprintf(f, ",%.0f\n", hw->power_uw);
	else
		fputs(",\n", f);
}

/*
 * Open-loop steps: a row of the latency from the scheduled arrival under
 * the step's own rows, the latency-against-load curve free of coordinated
 * omission.
 */
static void open_loop_rows(FILE *table, const struct kb_step *st)
{
	const uint32_t *pcts = kb_sum_pcts;
	struct kb_hist h;
	struct kb_sum s;
	int d;

	if (!table || !st->nr_res || !st->res[0].job->rate_iops)
		return;
	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		if (!st->sum[d].present || kb_metric_merged(st->res, st->nr_res,
							    KB_MET_LAT_SCHED, d, &h))
			continue;
		s = st->sum[d];
		s.samples = h.samples;
		s.ios = h.samples;
		s.mean = kb_lat_mean(h.samples, h.sum);
		s.max = h.max;
		s.has_pct = !kb_hist_percentiles(&h, pcts, KB_SUM_NR_PCT, s.pct, NULL);
		kb_table_row(table, " +sched", d, &s, NULL);
		kb_hist_free(&h);
	}
}

/* The aggregate rows of step st, then each job's device under it. */
void kb_step_rows(FILE *table, FILE *csv, const char *part, const struct kb_step *st)
{
	struct kb_hw_sum hw;
	struct kb_sum one;
	char label[32];
	size_t k;
	int d;

	kb_hwmon_summarize(st->res, st->nr_res, &hw);
	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		if (!st->sum[d].present)
			continue;
		if (table)
			kb_table_row(table, st->value, d, &st->sum[d], &hw);
		if (csv)
			kb_csv_row(csv, part, st, NULL, d, &st->sum[d], &hw);
	}
	open_loop_rows(table, st);
	for (k = 0; st->nr_res > 1 && k < st->nr_res; k++) {
		const char *dev = st->res[k].job->devices[0];
		const char *base = strrchr(dev, '/');

		snprintf(label, sizeof(label), " %.9s", base ? base + 1 : dev);
		kb_hwmon_summarize(&st->res[k], 1, &hw);
		for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
			kb_summarize(&st->res[k], 1, d, false, &one);
			if (!one.present)
				continue;
			if (table)
				kb_table_row(table, label, d, &one, &hw);
			if (csv)
				kb_csv_row(csv, part, st, dev, d, &one, &hw);
		}
	}
	if (table)
		kb_print_step_stages(table, st);
	if (table)
		fflush(table);
	if (csv)
		fflush(csv);
}

struct json_object *kb_sum_json(const struct kb_sum *s)
{
	static const char *const pk[KB_SUM_NR_PCT] = {
		"p50", "p99", "p99.9", "p99.99", "p99.999" };
	struct json_object *o = json_object_new_object(), *l = json_object_new_object();
	int i;

	kb_jadd(o, "ios", kb_ju64(s->ios));
	kb_jadd(o, "bytes", kb_ju64(s->bytes));
	kb_jadd(o, "all_ios", kb_ju64(s->all_ios));
	kb_jadd(o, "all_bytes", kb_ju64(s->all_bytes));
	kb_jadd(o, "errors", kb_ju64(s->errors));
	kb_jadd(o, "measured_ns", kb_ju64(s->measured_ns));
	kb_jadd(o, "iops", kb_jdbl3(s->iops));
	kb_jadd(o, "bw_bytes", kb_jdbl3(s->bw));
	kb_jadd(o, "mb_s", kb_jdbl3(s->bw / 1e6));
	kb_jadd(l, "mean", kb_jdbl3(s->ios ? s->mean : 0));
	kb_jadd(l, "min", kb_ju64(s->min));
	kb_jadd(l, "max", kb_ju64(s->max));
	for (i = 0; i < KB_SUM_NR_PCT; i++)
		kb_jadd(l, pk[i], s->has_pct ? kb_ju64(s->pct[i]) : NULL);
	kb_jadd(o, "lat_ns", l);
	kb_jadd(o, "samples", kb_ju64(s->samples));
	return o;
}

/* What the jobs of step st were (they all share these). */
static struct json_object *step_config(const struct kb_step *st)
{
	const struct kb_job *j = st->res[0].job;
	struct json_object *c = json_object_new_object(), *devs = json_object_new_array();
	unsigned int k;
	size_t i;

	for (i = 0; i < st->nr_res; i++)
		for (k = 0; k < st->res[i].job->nr_devices; k++)
			json_object_array_add(devs, kb_jstr(st->res[i].job->devices[k]));
	kb_jadd(c, "rw", kb_jstr(j->rw_str));
	kb_jadd(c, "bs", kb_ju64(st->bs));
	kb_jadd(c, "iodepth", kb_ju64(st->iodepth));
	kb_jadd(c, "numjobs", kb_ju64(st->numjobs));
	kb_jadd(c, "total_qd", kb_ju64(st->qd));
	kb_jadd(c, "devices", devs);
	kb_jadd(c, "jobs", kb_ju64(st->nr_res));
	kb_jadd(c, "runtime_ns", kb_ju64(kb_job_isset(j, KB_OPT_RUNTIME) ? j->runtime_ns : 0));
	kb_jadd(c, "ramp_ns", kb_ju64(j->ramp_ns));
	kb_jadd(c, "io_size", kb_ju64(kb_job_io_bytes(j)));
	kb_jadd(c, "size", kb_ju64(j->size));
	kb_jadd(c, "offset", kb_ju64(j->offset));
	return c;
}

struct json_object *kb_step_json(const struct kb_step *st)
{
	struct json_object *o = json_object_new_object(), *jobs = json_object_new_array();
	size_t i;
	int d;

	kb_jadd(o, "index", kb_ju64(st->index));
	kb_jadd(o, "variable", kb_jstr(kb_var_names[st->var]));
	kb_jadd(o, "value", kb_jstr(st->value));
	kb_jadd(o, "x", kb_ju64(st->x));
	kb_jadd(o, "config", step_config(st));
	kb_jadd(o, "busy_ns", kb_ju64(st->busy_ns));
	kb_jadd(o, "idle_ns", kb_ju64(st->idle_ns));
	kb_jadd(o, "direction", kb_jstr(kb_dir_names[kb_step_dir(st)]));
	for (d = 0; d < KIOBENCH_NR_DIRS; d++)
		kb_jadd(o, kb_dir_names[d], kb_sum_json(&st->sum[d]));
	kb_jadd(o, "sensors", kb_json_sensors(st->res, st->nr_res,
					      st->sum[0].iops + st->sum[1].iops,
					      st->sum[0].bw + st->sum[1].bw));
	for (i = 0; i < st->nr_res; i++)
		json_object_array_add(jobs, kb_json_job(&st->res[i]));
	kb_jadd(o, "jobs", jobs);
	return o;
}
