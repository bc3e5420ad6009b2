// SPDX-License-Identifier: GPL-2.0
/*
 * The normal report: fio's human-readable output, per job and direction,
 * with kiobench's own lines (completion, CPU, sensors).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "json.h"
#include "kiobench.h"
#include "measures.h"
#include "options.h"
#include "output.h"
#include "report.h"
#include "result.h"
#include "sensors.h"
#include "stages_out.h"

/* ---- normal --------------------------------------------------------------- */

static void print_percentiles(FILE *f, const struct kb_result *r, const struct dir_calc *c)
{
	unsigned int n = r->job->nr_plist, prec = kb_plist_precision(r->job->plist, n);
	uint64_t minv = UINT64_MAX, maxv = 0, divisor = 1, v;
	unsigned int i, j, scale = 0, per_line, width;
	const char *unit = "nsec";

	for (i = 0; i < n; i++) {
		if (c->pv[i] < minv)
			minv = c->pv[i];
		if (c->pv[i] > maxv)
			maxv = c->pv[i];
	}
	/* fio's unit choice */
	if (minv > 2000000 && maxv > 99999999ULL) {
		scale = 2;
		divisor = 1000000;
		unit = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1;
		divisor = 1000;
		unit = "usec";
	}
	width = kb_ndigits(maxv / divisor);
	if (width < 5)
		width = 5;
	per_line = (80 - 7) / (prec + 10 + width);
	if (!per_line)
		per_line = 1;
	fprintf(f, "    lat percentiles (%s, N=%" PRIu64 "):\n", unit, c->ds->ios);
	for (i = 0; i < n; i++) {
		if (i % per_line == 0)
			fprintf(f, "     |");
		v = c->pv[i];
		for (j = 0; j < scale; j++)
			v = (v + 999) / 1000;
		fprintf(f, " %*.*fth=[%*" PRIu64 "]%s%s", prec + 3, prec,
			r->job->plist[i] / (double)KB_PCT_ONE, width, v,
			c->lowconf[i] ? "*" : "", i == n - 1 ? "\n" : ",");
		if (i != n - 1 && i % per_line == per_line - 1)
			fprintf(f, "\n");
	}
	if (c->any_lowconf)
		fprintf(f, "     * fewer than 1/(1-p) samples: tail not resolved\n");
}

static void print_dir_normal(FILE *f, const struct kb_result *r, int d)
{
	struct dir_calc c;
	char iops[32], bw[32], bwalt[32], io[32], smin[32], smax[32], ramp[32];
	const char *unit = "nsec";
	uint64_t min, max;
	double mean, dev;

	kb_calc_dir(r, d, &c);
	kb_num2str(iops, sizeof(iops), c.iops_int, 4, false, "");
	kb_num2str(bw, sizeof(bw), c.bw_bytes, 4, true, "B/s");
	kb_num2str(bwalt, sizeof(bwalt), c.bw_bytes, 4, false, "B/s");
	kb_num2str(io, sizeof(io), c.ds->bytes, 4, true, "B");
	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)\n", kb_dir_names[d],
		iops, bw, bwalt, io, r->st.measured_ns / 1000000);
	if (c.ds->ios) {
		min = c.ds->lat_min;
		max = c.ds->lat_max;
		mean = c.mean;
		dev = c.dev;
		/* fio's nsec_to_msec / nsec_to_usec */
		if (min > 2000000 && max > 99999999ULL && dev > 1000000.0) {
			min /= 1000000;
			max /= 1000000;
			mean /= 1e6;
			dev /= 1e6;
			unit = "msec";
		} else if (min > 2000 && max > 99999 && dev > 1000.0) {
			min /= 1000;
			max /= 1000;
			mean /= 1e3;
			dev /= 1e3;
			unit = "usec";
		}
		fprintf(f, "    lat (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f, "
			"samples=%" PRIu64 "\n", unit,
			kb_num2str(smin, sizeof(smin), min, 6, false, ""),
			kb_num2str(smax, sizeof(smax), max, 6, false, ""),
			mean, dev, c.ds->ios);
		if (c.has_pct)
			print_percentiles(f, r, &c);
	}
	if (r->job->ramp_ns) {
		kb_fmt_duration(ramp, sizeof(ramp), r->job->ramp_ns);
		fprintf(f, "    warm-up excluded: %s, %" PRIu64 " I/Os; errors: %" PRIu64 "\n",
			ramp, c.ds->all_ios > c.ds->ios ? c.ds->all_ios - c.ds->ios : 0,
			c.ds->errors);
	} else {
		fprintf(f, "    warm-up: none; errors: %" PRIu64 "\n", c.ds->errors);
	}
}

static void print_job_header(FILE *f, const struct kb_result *r)
{
	const struct kb_job *job = r->job;
	unsigned int i, workers = r->st.nr_workers;

	if (!workers)
		workers = (job->numjobs ? job->numjobs : 1) * job->nr_devices;
	fprintf(f, "%s: (groupid=0, jobs=%u): err=%2d: devices=", job->name, workers,
		-r->st.error);
	for (i = 0; i < job->nr_devices; i++)
		fprintf(f, "%s%s", i ? ":" : "", job->devices[i]);
	fprintf(f, " rw=%s", job->rw_str);
	if (job->rw == KB_RW_MIXED)
		fprintf(f, " rwmixread=%u", kb_job_rwmix_read(job));
	if (kb_job_isset(job, KB_OPT_BSSPLIT)) {
		fprintf(f, " bssplit=");
		for (i = 0; i < job->nr_bss; i++)
			fprintf(f, "%s%u/%u", i ? ":" : "", job->bss[i].size,
				job->bss[i].weight);
	} else {
		fprintf(f, " bs=%u", job->bs);
	}
	fprintf(f, " iodepth=%u numjobs=%u\n", job->iodepth ? job->iodepth : 1,
		job->numjobs ? job->numjobs : 1);
	if (job->description)	/* as fio prints it */
		fprintf(f, "  Description  : [%s]\n", job->description);
	if (r->st.state != KIOBENCH_STATE_DONE) {
		fprintf(f, "  state: %s", kb_state_name(r->st.state));
		if (r->st.error)
			fprintf(f, " (%s)", strerror(-r->st.error));
		fprintf(f, "\n");
	}
}

/* Workers' CPU time: percent of one CPU over the run, and per I/O. */
static void print_sensors(FILE *f, const struct kb_result *r)
{
	struct kb_hw_sum s;
	double iops, bw, iops_w, mbs_w;
	unsigned int i;
	size_t n = 0;

	kb_hwmon_summarize(r, 1, &s);
	if (!s.devices) {
		fprintf(f, "  sensors      : none (no hwmon sensor for %s%s)\n", r->job->devices[0],
			r->job->nr_devices > 1 ? " ..." : "");
	} else {
		fprintf(f, "  sensors      : ");
		for (i = 0; i < r->nr_hw; i++) {
			fprintf(f, "%s%s", i ? "," : "", r->hw[i].owner);
			n += r->hw[i].nr_s;
		}
		if (s.has_temp)
			fprintf(f, " temp min/max %.1f/%.1f C", s.temp_min_mc / 1e3,
				s.temp_max_mc / 1e3);
		else
			fprintf(f, " no temperature sensor");
		fprintf(f, " (hwmon %s, %zu samples)\n", r->hw[0].name, n);
	}
	if (!s.has_power) {
		fprintf(f, "  power        : n/a (" KB_NO_POWER_NOTE ")\n");
		return;
	}
	kb_job_rates(r, &iops, &bw);
	kb_efficiency(&s, iops, bw, &iops_w, &mbs_w);
	fprintf(f, "  power        : mean %.2f W, %.0f IOPS/W, %.2f MB/s per W\n",
		s.power_uw / 1e6, iops_w, mbs_w);
}

static void print_job_footer(FILE *f, const struct kb_result *r)
{
	uint64_t reads = r->st.dir[KIOBENCH_DIR_READ].all_ios;

	fprintf(f, "  cpu          : sys=%.2f%%, %.0f ns per I/O (workers; interrupt-side "
		"completion not included)\n", kb_sys_cpu_pct(r), kb_cpu_ns_per_io(r));
	if (r->st.zero_reads)
		fprintf(f, "  warning: %" PRIu64 " of %" PRIu64 " " KB_ZERO_READS_WARNING "\n",
			r->st.zero_reads, reads);
	print_sensors(f, r);
}

void kb_print_normal(FILE *f, const struct kb_result *r, size_t n)
{
	size_t i;
	int d;

	for (i = 0; i < n; i++) {
		bool any = false;

		print_job_header(f, &r[i]);
		for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
			if (!kb_dir_shown(&r[i], d))
				continue;
			print_dir_normal(f, &r[i], d);
			any = true;
		}
		if (!any)
			fprintf(f, "  no I/O completed\n");
		kb_print_stages(f, &r[i]);
		kb_print_measures(f, &r[i]);
		print_job_footer(f, &r[i]);
		if (i + 1 < n)
			fprintf(f, "\n");
	}
}
