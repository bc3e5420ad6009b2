// SPDX-License-Identifier: GPL-2.0
/*
 * Reports: fio-like normal output, fio terse version 3 and fio's JSON
 * schema (built with json-c) with a "kiobench" object per job.
 *
 * Our latency is submission to completion in the kernel, so fio's clat and
 * lat are the same numbers; slat is not measured and reported as zero.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "kiobench.h"
#include "json.h"

typedef unsigned __int128 u128;

const char *kb_state_name(int state)
{
	switch (state) {
	case KIOBENCH_STATE_NEW: return "NEW";
	case KIOBENCH_STATE_RUNNING: return "RUNNING";
	case KIOBENCH_STATE_DONE: return "DONE";
	case KIOBENCH_STATE_STOPPED: return "STOPPED";
	case KIOBENCH_STATE_FAILED: return "FAILED";
	default: return "UNKNOWN";
	}
}

static int ndigits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/*
 * fio's num2str: at most maxlen digits, scaled by 1000 (k, M, ...) or 1024
 * (Ki, Mi, ...), with as many decimals as fit (rounded).
 */
char *kb_num2str(char *buf, size_t len, uint64_t num, int maxlen, bool pow2,
		 const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	const char *const *pfx = pow2 ? iec : si;
	const uint64_t base = pow2 ? 1024 : 1000;
	uint64_t rem = 0;
	int idx = 0, dec;

	while (ndigits(num) > maxlen && idx < 6) {
		rem = num % base;
		num /= base;
		idx++;
	}
	dec = maxlen - ndigits(num) - 1;
	if (!idx || dec <= 0) {
		if (idx && rem >= base / 2)
			num++;
		snprintf(buf, len, "%" PRIu64 "%s%s", num, pfx[idx], unit);
	} else {
		uint64_t scale = 1, frac;
		int i;

		for (i = 0; i < dec; i++)
			scale *= 10;
		frac = (2 * rem * scale + base) / (2 * base);	/* rounded */
		if (frac == scale) {
			num++;
			frac = 0;
		}
		snprintf(buf, len, "%" PRIu64 ".%0*" PRIu64 "%s%s", num, dec, frac,
			 pfx[idx], unit);
	}
	return buf;
}

/* Derived numbers of one direction. */
struct dir_calc {
	const struct kb_dirstat *ds;
	uint64_t runtime_ms, bw_bytes, iops_int;
	double iops, mean, dev;
	bool has_pct;
	uint64_t pv[KB_MAX_PERCENTILES];
	bool lowconf[KB_MAX_PERCENTILES];
	bool any_lowconf;
};

/* The rates of one direction over the measured time. */
static void calc_rates(const struct kb_result *r, int d, struct dir_calc *c)
{
	const struct kb_dirstat *ds = &r->st.dir[d];
	uint64_t t = r->st.measured_ns;

	memset(c, 0, sizeof(*c));
	c->ds = ds;
	if (ds->ios && t) {
		c->runtime_ms = t / 1000000;
		c->bw_bytes = (uint64_t)((u128)ds->bytes * 1000000000u / t);
		c->iops_int = (uint64_t)((u128)ds->ios * 1000000000u / t);
		c->iops = (double)ds->ios * 1e9 / (double)t;
	}
}

static void calc_dir(const struct kb_result *r, int d, struct dir_calc *c)
{
	const struct kb_dirstat *ds = &r->st.dir[d];
	unsigned int i;

	calc_rates(r, d, c);
	c->mean = kb_lat_mean(ds->ios, ds->lat_sum);
	c->dev = kb_lat_stddev(ds->ios, ds->lat_sum, ds->sumsq_hi, ds->sumsq_lo);
	if (r->has_hist[d] && !kb_hist_percentiles(&r->hist[d], r->job->plist,
						   r->job->nr_plist, c->pv, c->lowconf)) {
		c->has_pct = true;
		for (i = 0; i < r->job->nr_plist; i++)
			c->any_lowconf |= c->lowconf[i];
	}
}

static bool dir_shown(const struct kb_result *r, int d)
{
	const struct kb_dirstat *ds = &r->st.dir[d];

	return ds->ios || ds->all_ios || ds->errors;
}

static void fmt_duration(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 1000000000ULL)
		snprintf(buf, len, "%.1f s", ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.1f us", ns / 1e3);
}

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
	width = ndigits(maxv / divisor);
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

	calc_dir(r, d, &c);
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
		fmt_duration(ramp, sizeof(ramp), r->job->ramp_ns);
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
	if (r->st.state != KIOBENCH_STATE_DONE) {
		fprintf(f, "  state: %s", kb_state_name(r->st.state));
		if (r->st.error)
			fprintf(f, " (%s)", strerror(-r->st.error));
		fprintf(f, "\n");
	}
}

/* Workers' CPU time: percent of one CPU over the run, and per I/O. */
static double sys_cpu_pct(const struct kb_result *r)
{
	return r->st.elapsed_ns ? 100.0 * r->st.cpu_ns / r->st.elapsed_ns : 0.0;
}

static double cpu_ns_per_io(const struct kb_result *r)
{
	uint64_t ios = r->st.dir[0].all_ios + r->st.dir[1].all_ios;

	return ios ? (double)r->st.cpu_ns / ios : 0.0;
}

/* Both directions' IOPS and bytes/s over the measured time. */
static void job_rates(const struct kb_result *r, double *iops, double *bw)
{
	struct dir_calc c;
	int d;

	*iops = *bw = 0;
	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		calc_rates(r, d, &c);
		*iops += c.iops;
		*bw += c.bw_bytes;
	}
}

#define KB_NO_POWER_NOTE "no power sensor: efficiency not reported"

/* IOPS per watt and MB/s per watt at iops and bw (bytes/s); false: no power. */
static bool efficiency(const struct kb_hw_sum *s, double iops, double bw,
		       double *iops_w, double *mbs_w)
{
	double w = s->power_uw / 1e6;

	*iops_w = *mbs_w = 0.0;
	if (!s->has_power || !(w > 0))
		return false;
	*iops_w = iops / w;
	*mbs_w = bw / 1e6 / w;
	return true;
}

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
	job_rates(r, &iops, &bw);
	efficiency(&s, iops, bw, &iops_w, &mbs_w);
	fprintf(f, "  power        : mean %.2f W, %.0f IOPS/W, %.2f MB/s per W\n",
		s.power_uw / 1e6, iops_w, mbs_w);
}

static void print_job_footer(FILE *f, const struct kb_result *r)
{
	uint64_t reads = r->st.dir[KIOBENCH_DIR_READ].all_ios;

	fprintf(f, "  cpu          : sys=%.2f%%, %.0f ns per I/O (workers; interrupt-side "
		"completion not included)\n", sys_cpu_pct(r), cpu_ns_per_io(r));
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
			if (!dir_shown(&r[i], d))
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

/* ---- terse (fio version 3) ------------------------------------------------- */

static void terse_dir(FILE *f, const struct kb_result *r, int d)
{
	struct dir_calc c;
	unsigned int i;

	calc_dir(r, d, &c);
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64,
		c.ds->bytes >> 10, c.bw_bytes / 1024, c.iops_int, c.runtime_ms);
	/* slat: not measured */
	fprintf(f, ";0;0;%f;%f", 0.0, 0.0);
	/* clat (us) */
	if (c.ds->ios)
		fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f", c.ds->lat_min / 1000,
			c.ds->lat_max / 1000, c.mean / 1000, c.dev / 1000);
	else
		fprintf(f, ";0;0;%f;%f", 0.0, 0.0);
	for (i = 0; i < KB_MAX_PERCENTILES; i++) {
		if (c.has_pct && i < r->job->nr_plist)
			fprintf(f, ";%f%%=%" PRIu64, r->job->plist[i] / (double)KB_PCT_ONE,
				c.pv[i] / 1000);
		else
			fprintf(f, ";0%%=0");
	}
	/* lat (us): the same as clat */
	if (c.ds->ios)
		fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f", c.ds->lat_min / 1000,
			c.ds->lat_max / 1000, c.mean / 1000, c.dev / 1000);
	else
		fprintf(f, ";0;0;%f;%f", 0.0, 0.0);
	/* bandwidth samples: not measured */
	fprintf(f, ";0;0;%f%%;%f;%f", 0.0, 0.0, 0.0);
}

static void lat_dist(const struct kb_result *r, double *pn, double *pu, double *pm)
{
	const struct kb_hist *h[KIOBENCH_NR_DIRS];
	int d;

	for (d = 0; d < KIOBENCH_NR_DIRS; d++)
		h[d] = r->has_hist[d] ? &r->hist[d] : NULL;
	kb_lat_dist(h, KIOBENCH_NR_DIRS, pn, pu, pm);
}

void kb_print_terse(FILE *f, const struct kb_result *r, size_t n)
{
	double pn[KB_LAT_N_NR], pu[KB_LAT_U_NR], pm[KB_LAT_M_NR];
	size_t i;
	int d, k;

	for (i = 0; i < n; i++) {
		fprintf(f, "3;kiobench-%s;%s;0;%d", KB_TOOL_VERSION, r[i].job->name,
			-r[i].st.error);
		for (d = 0; d < KIOBENCH_NR_DIRS; d++)
			terse_dir(f, &r[i], d);
		/* CPU usage: the workers' system time; context switches not counted */
		fprintf(f, ";%f%%;%f%%;0;0;0", 0.0, sys_cpu_pct(&r[i]));
		/* I/O depth distribution: not measured */
		for (k = 0; k < 7; k++)
			fprintf(f, ";%3.1f%%", 0.0);
		/* latency distribution; fio adds the ns ranges to the first us one */
		lat_dist(&r[i], pn, pu, pm);
		for (k = 0; k < KB_LAT_N_NR; k++)
			pu[0] += pn[k];
		for (k = 0; k < KB_LAT_U_NR; k++)
			fprintf(f, ";%3.2f%%", pu[k]);
		for (k = 0; k < KB_LAT_M_NR; k++)
			fprintf(f, ";%3.2f%%", pm[k]);
		if (r[i].job->continue_on_error)
			fprintf(f, ";%" PRIu64 ";%d",
				r[i].st.dir[0].errors + r[i].st.dir[1].errors, -r[i].st.error);
		fprintf(f, "\n");
	}
}

/* ---- json --------------------------------------------------------------- */

uint64_t kb_bin_value(const struct kb_bucket *b)
{
	return b->lo + (b->hi - b->lo) / 2;
}

/* json+: "bins", each bucket's middle value in ns -> its count (fio's). */
static struct json_object *bins_obj(const struct kb_hist *h)
{
	struct json_object *o = json_object_new_object();
	size_t i;

	for (i = 0; i < h->nr; i++) {
		char key[32];

		snprintf(key, sizeof(key), "%" PRIu64, kb_bin_value(&h->b[i]));
		kb_jadd(o, key, kb_ju64(h->b[i].count));
	}
	return o;
}

static struct json_object *lat_obj(const struct kb_result *r, const struct dir_calc *c,
				   bool percentiles)
{
	struct json_object *o = json_object_new_object();
	bool any = c && c->ds->ios;
	unsigned int i;

	kb_jadd(o, "min", kb_ju64(any ? c->ds->lat_min : 0));
	kb_jadd(o, "max", kb_ju64(any ? c->ds->lat_max : 0));
	kb_jadd(o, "mean", kb_jdbl(any ? c->mean : 0.0));
	kb_jadd(o, "stddev", kb_jdbl(any ? c->dev : 0.0));
	kb_jadd(o, "N", kb_ju64(any ? c->ds->ios : 0));
	if (percentiles && any && c->has_pct) {
		struct json_object *p = json_object_new_object();

		for (i = 0; i < r->job->nr_plist; i++) {
			char key[32];

			kb_pct_str(r->job->plist[i], key, sizeof(key));
			kb_jadd(p, key, kb_ju64(c->pv[i]));
		}
		kb_jadd(o, "percentile", p);
	}
	return o;
}

/* d < 0: an empty direction (trim).  plus: json+, with the bins (if any I/O). */
static struct json_object *dir_obj_ext(const struct kb_result *r, int d, bool plus);

static struct json_object *dir_obj(const struct kb_result *r, int d)
{
	return dir_obj_ext(r, d, false);
}

static struct json_object *dir_obj_ext(const struct kb_result *r, int d, bool plus)
{
	struct json_object *o = json_object_new_object(), *clat;
	struct dir_calc c, *cp = NULL;

	if (d >= 0) {
		calc_dir(r, d, &c);
		cp = &c;
	}
	kb_jadd(o, "io_bytes", kb_ju64(cp ? c.ds->bytes : 0));
	kb_jadd(o, "io_kbytes", kb_ju64(cp ? c.ds->bytes >> 10 : 0));
	kb_jadd(o, "bw_bytes", kb_ju64(cp ? c.bw_bytes : 0));
	kb_jadd(o, "bw", kb_ju64(cp ? c.bw_bytes / 1024 : 0));
	kb_jadd(o, "iops", kb_jdbl(cp ? c.iops : 0.0));
	kb_jadd(o, "runtime", kb_ju64(cp ? c.runtime_ms : 0));
	kb_jadd(o, "total_ios", kb_ju64(cp ? c.ds->ios : 0));
	kb_jadd(o, "short_ios", kb_ju64(0));
	kb_jadd(o, "drop_ios", kb_ju64(0));
	kb_jadd(o, "slat_ns", lat_obj(r, NULL, false));
	clat = lat_obj(r, cp, true);
	/* fio_jsonplus_clat2csv wants bins with something in them */
	if (plus && cp && r->has_hist[d] && r->hist[d].nr)
		kb_jadd(clat, "bins", bins_obj(&r->hist[d]));
	kb_jadd(o, "clat_ns", clat);
	kb_jadd(o, "lat_ns", lat_obj(r, cp, false));
	return o;
}

static struct json_object *per_dir_u64(const struct kb_result *r, size_t field_off,
				       bool minus_ios)
{
	struct json_object *o = json_object_new_object();
	int d;

	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		const struct kb_dirstat *ds = &r->st.dir[d];
		uint64_t v = *(const uint64_t *)((const char *)ds + field_off);

		if (minus_ios)
			v = v > ds->ios ? v - ds->ios : 0;
		kb_jadd(o, kb_dir_names[d], kb_ju64(v));
	}
	return o;
}

/* Readings v[0..n) (NULL: n missing ones) appended to array a; null where none. */
static void add_readings(struct json_object *a, const int64_t *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, v && v[i] != KB_HWMON_NONE ?
				      json_object_new_int64(v[i]) : NULL);
}

static struct json_object *labels_obj(const struct kb_hwmon *h, int k)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < h->nr[k]; i++)
		json_object_array_add(a, kb_jstr(h->label[k][i]));
	return a;
}

static struct json_object *readings_obj(const int64_t *v, unsigned int n)
{
	struct json_object *a = json_object_new_array();

	add_readings(a, v, n);
	return a;
}

static struct json_object *hwmon_obj(const struct kb_hwmon *h)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	size_t i;

	kb_jadd(o, "device", kb_jstr(h->device));
	kb_jadd(o, "hwmon", kb_jstr(h->name));
	kb_jadd(o, "hwmon_device", kb_jstr(h->owner));
	kb_jadd(o, "hwmon_path", kb_jstr(h->path));
	kb_jadd(o, "temp_labels", labels_obj(h, KB_HW_TEMP));
	kb_jadd(o, "power_labels", labels_obj(h, KB_HW_POWER));
	kb_jadd(o, "samples_dropped", kb_ju64(h->dropped));
	for (i = 0; i < h->nr_s; i++) {
		struct json_object *p = json_object_new_object();

		kb_jadd(p, "t_ms", kb_ju64(h->s[i].t_ns / 1000000));
		kb_jadd(p, "temp_mc", readings_obj(h->s[i].v[KB_HW_TEMP], h->nr[KB_HW_TEMP]));
		kb_jadd(p, "power_uw", readings_obj(h->s[i].v[KB_HW_POWER], h->nr[KB_HW_POWER]));
		json_object_array_add(a, p);
	}
	kb_jadd(o, "samples", a);
	return o;
}

struct json_object *kb_json_sensors(const struct kb_result *r, size_t n, double iops,
				    double bw)
{
	struct json_object *o;
	struct kb_hw_sum s;
	double iops_w, mbs_w;
	bool eff;

	kb_hwmon_summarize(r, n, &s);
	if (!s.devices)
		return NULL;
	o = json_object_new_object();
	eff = efficiency(&s, iops, bw, &iops_w, &mbs_w);
	kb_jadd(o, "temp_min_mc", s.has_temp ? json_object_new_int64(s.temp_min_mc) : NULL);
	kb_jadd(o, "temp_max_mc", s.has_temp ? json_object_new_int64(s.temp_max_mc) : NULL);
	kb_jadd(o, "power_mean_uw", s.has_power ? kb_jdbl(s.power_uw) : NULL);
	kb_jadd(o, "iops_per_w", eff ? kb_jdbl(iops_w) : NULL);
	kb_jadd(o, "mb_s_per_w", eff ? kb_jdbl(mbs_w) : NULL);
	if (!s.has_power)
		kb_jadd(o, "note", kb_jstr(KB_NO_POWER_NOTE));
	return o;
}

/* The job's sensors: "sensors" (one object per device that has any, or null), a note. */
static void sensors_json(struct json_object *o, const struct kb_result *r)
{
	struct json_object *a = NULL;
	char note[KB_ERRLEN] = "";
	unsigned int i, k;
	size_t len = 0;
	double iops, bw;

	for (i = 0; i < r->job->nr_devices; i++) {
		bool has = false;

		for (k = 0; k < r->nr_hw; k++)
			has |= !strcmp(r->hw[k].device, r->job->devices[i]);
		if (!has && len < sizeof(note))
			len += snprintf(note + len, sizeof(note) - len, "%s%s",
					len ? ", " : "no hwmon sensor: ", r->job->devices[i]);
	}
	for (k = 0; k < r->nr_hw; k++) {
		if (!a)
			a = json_object_new_array();
		json_object_array_add(a, hwmon_obj(&r->hw[k]));
	}
	kb_jadd(o, "sensors", a);
	if (note[0])
		kb_jadd(o, "sensors_note", kb_jstr(note));
	job_rates(r, &iops, &bw);
	kb_jadd(o, "sensors_summary", kb_json_sensors(r, 1, iops, bw));
}

/*
 * The sensor readings nearest timeline entry t_ns (within half an
 * interval) into pt: "temp_mc" and "power_uw", the devices' readings one
 * after the other (in "sensors" order); nothing when no device has one.
 */
static void timeline_sensors(struct json_object *pt, const struct kb_result *r,
			     uint64_t t_ns, size_t *hint)
{
	struct json_object *a[KB_HW_NR] = { NULL };
	bool found = false;
	unsigned int i;
	int k;

	for (k = 0; k < KB_HW_NR; k++)
		a[k] = json_object_new_array();
	for (i = 0; i < r->nr_hw; i++) {
		const struct kb_hw_sample *s = kb_hwmon_nearest(&r->hw[i], t_ns,
								r->tl.interval_ns / 2, &hint[i]);

		found |= s != NULL;
		for (k = 0; k < KB_HW_NR; k++)
			add_readings(a[k], s ? s->v[k] : NULL, r->hw[i].nr[k]);
	}
	for (k = 0; k < KB_HW_NR; k++) {
		if (found && json_object_array_length(a[k]))
			kb_jadd(pt, k == KB_HW_TEMP ? "temp_mc" : "power_uw", a[k]);
		else
			json_object_put(a[k]);
	}
}

/* "percentile_samples" and "low_confidence_percentiles" of both directions. */
static void pct_objs(struct json_object *o, const struct kb_result *r)
{
	struct json_object *a, *lc, *ps;
	unsigned int i;
	int d;

	ps = json_object_new_object();
	lc = json_object_new_object();
	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		struct dir_calc c;

		calc_dir(r, d, &c);
		kb_jadd(ps, kb_dir_names[d], kb_ju64(c.has_pct ? r->hist[d].samples : 0));
		a = json_object_new_array();
		for (i = 0; c.has_pct && i < r->job->nr_plist; i++) {
			char key[32];

			if (!c.lowconf[i])
				continue;
			kb_pct_str(r->job->plist[i], key, sizeof(key));
			json_object_array_add(a, kb_jstr(key));
		}
		kb_jadd(lc, kb_dir_names[d], a);
	}
	kb_jadd(o, "percentile_samples", ps);
	kb_jadd(o, "low_confidence_percentiles", lc);
}

/* The timeline, with the sensors' readings nearest each point. */
static void timeline_obj(struct json_object *o, const struct kb_result *r)
{
	/* where each device's search for the nearest sample resumes */
	size_t *hint = calloc(r->nr_hw + 1, sizeof(*hint));
	struct json_object *a;
	unsigned int i;
	int d;

	kb_jadd(o, "timeline_interval_ns", kb_ju64(r->tl.interval_ns));
	kb_jadd(o, "timeline_dropped", kb_ju64(r->tl.dropped));
	a = json_object_new_array();
	for (i = 0; i < r->tl.nr; i++) {
		const struct kb_tl_point *p = &r->tl.p[i];
		struct json_object *pt = json_object_new_object();

		kb_jadd(pt, "t_ns", kb_ju64(p->t_ns));
		for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
			struct json_object *x = json_object_new_object();

			kb_jadd(x, "ios", kb_ju64(p->ios[d]));
			kb_jadd(x, "bytes", kb_ju64(p->bytes[d]));
			kb_jadd(x, "lat_ns", kb_ju64(p->lat_ns[d]));
			kb_jadd(pt, kb_dir_names[d], x);
		}
		if (hint)
			timeline_sensors(pt, r, p->t_ns, hint);
		json_object_array_add(a, pt);
	}
	kb_jadd(o, "timeline", a);
	free(hint);
}

/* "hist": {"read": [[lo, hi, count], ...], "write": ...}, the non-empty buckets. */
static struct json_object *hist_obj(const struct kb_result *r)
{
	struct json_object *o = json_object_new_object();
	size_t i;
	int d;

	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		struct json_object *a = json_object_new_array();

		for (i = 0; r->has_hist[d] && i < r->hist[d].nr; i++) {
			const struct kb_bucket *b = &r->hist[d].b[i];
			struct json_object *e = json_object_new_array();

			json_object_array_add(e, kb_ju64(b->lo));
			json_object_array_add(e, kb_ju64(b->hi));
			json_object_array_add(e, kb_ju64(b->count));
			json_object_array_add(a, e);
		}
		kb_jadd(o, kb_dir_names[d], a);
	}
	return o;
}

static struct json_object *kiobench_obj(const struct kb_result *r)
{
	struct json_object *o = json_object_new_object(), *a, *stages;
	unsigned int i;
	int d;

	kb_jadd(o, "version", kb_jstr(KB_TOOL_VERSION));
	kb_jadd(o, "module_version", r->module_version[0] ? kb_jstr(r->module_version) : NULL);
	kb_jadd(o, "kernel", r->kernel[0] ? kb_jstr(r->kernel) : NULL);
	kb_jadd(o, "job_id", kb_ju64(r->st.id));
	kb_jadd(o, "state", kb_jstr(kb_state_name(r->st.state)));
	a = json_object_new_array();
	if (r->st.cfg.present) {	/* the kernel's, ':'-separated as --filename */
		const char *p = r->st.cfg.devices;

		for (; *p; p += strcspn(p, ":"), p += *p == ':')
			json_object_array_add(a, json_object_new_string_len(p, strcspn(p, ":")));
	} else {
		for (i = 0; i < r->job->nr_devices; i++)
			json_object_array_add(a, kb_jstr(r->job->devices[i]));
	}
	kb_jadd(o, "devices", a);
	kb_jadd(o, "nr_workers", kb_ju64(r->st.nr_workers));
	kb_jadd(o, "elapsed_ns", kb_ju64(r->st.elapsed_ns));
	kb_jadd(o, "measured_ns", kb_ju64(r->st.measured_ns));
	kb_jadd(o, "ramp_ns", kb_ju64(r->job->ramp_ns));
	kb_jadd(o, "ramp_ios", per_dir_u64(r, offsetof(struct kb_dirstat, all_ios), true));
	kb_jadd(o, "all_ios", per_dir_u64(r, offsetof(struct kb_dirstat, all_ios), false));
	kb_jadd(o, "all_bytes", per_dir_u64(r, offsetof(struct kb_dirstat, all_bytes), false));
	kb_jadd(o, "errors", per_dir_u64(r, offsetof(struct kb_dirstat, errors), false));
	kb_jadd(o, "cpu_ns", kb_ju64(r->st.cpu_ns));
	kb_jadd(o, "cpu_ns_per_io", kb_jdbl(cpu_ns_per_io(r)));
	kb_jadd(o, "zero_reads", kb_ju64(r->st.zero_reads));
	stages = kb_stages_json(r);
	if (stages)
		kb_jadd(o, "stages", stages);
	kb_json_measures(o, r);
	if (r->job->lat_log)
		kb_jadd(o, "lat_log", kb_jstr(r->job->lat_log));
	pct_objs(o, r);
	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		if (r->has_hist[d]) {
			kb_jadd(o, "hist_bits", kb_ju64(r->hist[d].bits));
			break;
		}
	}
	kb_jadd(o, "hist", hist_obj(r));
	sensors_json(o, r);
	if (r->has_tl)
		timeline_obj(o, r);
	return o;
}

static struct json_object *lat_dist_obj(const double *p, const unsigned int *edges,
					unsigned int nr, bool last_ge)
{
	struct json_object *o = json_object_new_object();
	unsigned int i;

	for (i = 0; i < nr; i++) {
		char key[16];

		snprintf(key, sizeof(key), "%s%u", last_ge && i == nr - 1 ? ">=" : "",
			 edges[i]);
		kb_jadd(o, key, kb_jdbl(p[i]));
	}
	return o;
}

static struct json_object *json_job(const struct kb_result *r, bool plus)
{
	struct json_object *o = json_object_new_object(), *opts;
	double pn[KB_LAT_N_NR], pu[KB_LAT_U_NR], pm[KB_LAT_M_NR];
	size_t i;

	kb_jadd(o, "jobname", kb_jstr(r->job->name));
	kb_jadd(o, "groupid", json_object_new_int(0));
	kb_jadd(o, "error", json_object_new_int(-r->st.error));
	kb_jadd(o, "elapsed", kb_ju64(r->st.elapsed_ns / 1000000000ULL));
	opts = json_object_new_object();
	for (i = 0; i < r->job->applied.n; i++) {
		const struct kb_assign *a = &r->job->applied.v[i];

		kb_jadd(opts, a->opt->name, kb_jstr(a->val ? a->val : ""));
	}
	kb_jadd(o, "job options", opts);
	kb_jadd(o, "usr_cpu", kb_jdbl(0.0));
	kb_jadd(o, "sys_cpu", kb_jdbl(sys_cpu_pct(r)));
	kb_jadd(o, "read", dir_obj_ext(r, KIOBENCH_DIR_READ, plus));
	kb_jadd(o, "write", dir_obj_ext(r, KIOBENCH_DIR_WRITE, plus));
	kb_jadd(o, "trim", dir_obj(r, -1));
	kb_jadd(o, "job_runtime", kb_ju64(r->st.measured_ns / 1000000));
	lat_dist(r, pn, pu, pm);
	kb_jadd(o, "latency_ns", lat_dist_obj(pn, kb_lat_nu_edges, KB_LAT_N_NR, false));
	kb_jadd(o, "latency_us", lat_dist_obj(pu, kb_lat_nu_edges, KB_LAT_U_NR, false));
	kb_jadd(o, "latency_ms", lat_dist_obj(pm, kb_lat_m_edges, KB_LAT_M_NR, true));
	kb_jadd(o, "kiobench", kiobench_obj(r));
	return o;
}

struct json_object *kb_json_job(const struct kb_result *r)
{
	return json_job(r, false);
}

char *kb_json_report(const struct kb_result *r, size_t n, long long now_ms)
{
	return kb_json_report_ext(r, n, now_ms, false);
}

char *kb_json_report_ext(const struct kb_result *r, size_t n, long long now_ms, bool plus)
{
	struct json_object *root = json_object_new_object(), *jobs;
	time_t t = now_ms / 1000;
	char tbuf[64] = "";
	struct tm tm;
	char *s;
	size_t i;

	if (localtime_r(&t, &tm))
		strftime(tbuf, sizeof(tbuf), "%a %b %e %H:%M:%S %Y", &tm);
	kb_jadd(root, "fio version", kb_jstr("kiobench-" KB_TOOL_VERSION));
	kb_jadd(root, "timestamp", json_object_new_int64(now_ms / 1000));
	kb_jadd(root, "timestamp_ms", json_object_new_int64(now_ms));
	kb_jadd(root, "time", kb_jstr(tbuf));
	jobs = json_object_new_array();
	for (i = 0; i < n; i++)
		json_object_array_add(jobs, json_job(&r[i], plus));
	kb_jadd(root, "jobs", jobs);
	s = strdup(json_object_to_json_string_ext(root, KB_JSON_FLAGS));
	json_object_put(root);
	return s;
}
