// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON reports, json and json+: fio's schema (json-c), with a
 * "kiobench" object per job.
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

#include "json.h"
#include "kiobench.h"
#include "measures.h"
#include "options.h"
#include "output.h"
#include "report.h"
#include "result.h"
#include "sensors.h"
#include "locality_out.h"
#include "stages_out.h"
#include "stats.h"

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

/*
 * fio's "prios": the latency of each priority's I/Os, from the kernel's
 * histograms of the two (cmdprio_percentage), the job's own first.
 */
static struct json_object *prios_obj(const struct kb_result *r, int d)
{
	const struct kb_kcfg *k = &r->st.cfg;
	struct json_object *a = json_object_new_array(), *e, *lat;
	int i;

	for (i = 0; i < 2; i++) {
		enum kb_metric m = i ? KB_MET_CLAT_PRIO_CMD : KB_MET_CLAT_PRIO_DEF;

		if (!r->has_met[m][d])
			continue;
		e = json_object_new_object();
		kb_jadd(e, "prioclass", kb_ju64(i ? k->cmdprio_class[d] :
						kb_kcfg_u64(k, KIOBENCH_A_PRIOCLASS)));
		kb_jadd(e, "prio", kb_ju64(i ? k->cmdprio[d] : kb_kcfg_u64(k, KIOBENCH_A_PRIO)));
		lat = kb_json_metric(&r->met[m][d], r->job);
		if (!kb_pct_shown(r->job))	/* fio: percentiles with either switch */
			json_object_object_del(lat, "percentile");
		/* fio: "lat_ns" with lat_percentiles */
		kb_jadd(e, r->job->lat_percentiles ? "lat_ns" : "clat_ns", lat);
		json_object_array_add(a, e);
	}
	return a;
}

/*
 * fio's "sync": the flushes (fsync, fdatasync, end_fsync), a count and
 * their latency, with no bytes, as fio 3.33 has it.
 */
static struct json_object *sync_obj(const struct kb_result *r, bool plus)
{
	struct json_object *o = json_object_new_object(), *lat;
	int d = KIOBENCH_DIR_SYNC;
	struct dir_calc c;

	kb_calc_dir(r, d, &c);
	kb_jadd(o, "total_ios", kb_ju64(c.ds->ios));
	lat = lat_obj(r, &c, kb_pct_shown(r->job));
	if (plus && kb_pct_shown(r->job) && r->has_hist[d] && r->hist[d].nr)
		kb_jadd(lat, "bins", bins_obj(&r->hist[d]));
	kb_jadd(o, "lat_ns", lat);
	return o;
}

/* The report's results, for fio's bw_agg (its group's aggregate); NULL: one job. */
static const struct kb_result *report_all;
static size_t report_n;

/*
 * fio's bw_* (KiB/s) and iops_* samples: windows of bwavgtime and
 * iopsavgtime of the timeline (output.c); zeros without any.
 */
static void rate_samples_obj(struct json_object *o, const struct kb_result *r, int d)
{
	struct kb_samples bw = { 0 }, iops = { 0 };
	double mean = 0, dev = 0, per = 0;

	if (d >= 0)
		kb_rate_samples(r, d, &bw, &iops);
	if (kb_samples_stats(&bw, &mean, &dev))
		per = kb_bw_per(report_all, report_n, r, d, mean);
	kb_jadd(o, "bw_min", kb_ju64(bw.min));
	kb_jadd(o, "bw_max", kb_ju64(bw.max));
	kb_jadd(o, "bw_agg", kb_jdbl(per));
	kb_jadd(o, "bw_mean", kb_jdbl(mean));
	kb_jadd(o, "bw_dev", kb_jdbl(dev));
	kb_jadd(o, "bw_samples", kb_ju64(bw.n));
	mean = dev = 0;
	kb_samples_stats(&iops, &mean, &dev);
	kb_jadd(o, "iops_min", kb_ju64(iops.min));
	kb_jadd(o, "iops_max", kb_ju64(iops.max));
	kb_jadd(o, "iops_mean", kb_jdbl(mean));
	kb_jadd(o, "iops_stddev", kb_jdbl(dev));
	kb_jadd(o, "iops_samples", kb_ju64(iops.n));
}

static struct json_object *dir_obj_ext(const struct kb_result *r, int d, bool plus)
{
	struct json_object *o = json_object_new_object(), *clat, *lat;
	struct dir_calc c, *cp = NULL;

	if (d >= 0) {
		kb_calc_dir(r, d, &c);
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
	/*
	 * The one latency is fio's clat and lat: each with its percentiles
	 * (and json+'s bins) as its switch asks, as fio's.
	 * fio_jsonplus_clat2csv wants bins with something in them.
	 */
	clat = lat_obj(r, cp, r->job->clat_percentiles);
	if (plus && cp && r->job->clat_percentiles && r->has_hist[d] && r->hist[d].nr)
		kb_jadd(clat, "bins", bins_obj(&r->hist[d]));
	kb_jadd(o, "clat_ns", clat);
	lat = lat_obj(r, cp, r->job->lat_percentiles);
	if (plus && cp && r->job->lat_percentiles && r->has_hist[d] && r->hist[d].nr)
		kb_jadd(lat, "bins", bins_obj(&r->hist[d]));
	kb_jadd(o, "lat_ns", lat);
	if (cp && r->has_met[KB_MET_CLAT_PRIO_DEF][d])
		kb_jadd(o, "prios", prios_obj(r, d));
	rate_samples_obj(o, r, d);
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

		kb_calc_dir(r, d, &c);
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
			kb_json_point_sensors(pt, r, p->t_ns, hint);
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

/* Where the job ran, and each device's identity (its sysfs). */
static void host_objs(struct json_object *o, const struct kb_result *r)
{
	struct json_object *h = json_object_new_object(), *a = json_object_new_array(), *d;
	unsigned int i;

	kb_jadd(h, "hostname", r->hostname[0] ? kb_jstr(r->hostname) : NULL);
	kb_jadd(h, "cpu_model", r->cpu_model[0] ? kb_jstr(r->cpu_model) : NULL);
	kb_jadd(h, "cpus", kb_ju64(r->cpus));
	kb_jadd(o, "host", h);
	for (i = 0; i < r->nr_devid && i < r->job->nr_devices; i++) {
		const struct kb_devid *id = &r->devid[i];

		d = json_object_new_object();
		kb_jadd(d, "path", kb_jstr(r->job->devices[i]));
		kb_jadd(d, "model", kb_jstr(id->model));
		kb_jadd(d, "serial", kb_jstr(id->serial));
		kb_jadd(d, "firmware", kb_jstr(id->firmware));
		kb_jadd(d, "transport", kb_jstr(id->transport));
		json_object_array_add(a, d);
	}
	kb_jadd(o, "device_ids", a);
}

/*
 * verify: the kernel's counts, and its recorded mismatches, each line of
 * debugfs verify as an object of its key=value fields (numbers as numbers).
 */
static struct json_object *kb_verify_json(const struct kb_result *r)
{
	static const char *const keys[KB_VCOUNTS] = { "verified", "corrupt", "misdirected",
						      "stale", "trimmed_zeroes" };
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	char *log = strdup(r->verify_log), *line, *tok, *s1 = NULL, *s2 = NULL;
	int i;

	for (i = 0; i < KB_VCOUNTS; i++)
		kb_jadd(o, keys[i], kb_ju64(r->st.verify[i]));
	for (line = log ? strtok_r(log, "\n", &s1) : NULL; line;
	     line = strtok_r(NULL, "\n", &s1)) {
		struct json_object *m = json_object_new_object();

		for (tok = strtok_r(line, " ", &s2); tok; tok = strtok_r(NULL, " ", &s2)) {
			char *eq = strchr(tok, '='), *end;
			unsigned long long v;

			if (!eq)
				continue;
			*eq++ = '\0';
			v = strtoull(eq, &end, 10);
			kb_jadd(m, tok, *eq && !*end && *eq != '-' ? kb_ju64(v) : kb_jstr(eq));
		}
		json_object_array_add(a, m);
	}
	free(log);
	kb_jadd(o, "mismatches", a);
	return o;
}

/*
 * kiobench's own protection information's wrong tuples, and the failed
 * I/O that stopped the job (job-error-at): into the kiobench object o.
 */
static void add_errors(struct json_object *o, const struct kb_result *r)
{
	const struct kiobench_err_at *at;

	if (r->st.has_pi) {
		struct json_object *pi = json_object_new_object();

		kb_jadd(pi, "guard_errors", kb_ju64(r->st.pi_errors[KIOBENCH_PI_CHECK_GUARD]));
		kb_jadd(pi, "reftag_errors", kb_ju64(r->st.pi_errors[KIOBENCH_PI_CHECK_REFTAG]));
		kb_jadd(pi, "apptag_errors", kb_ju64(r->st.pi_errors[KIOBENCH_PI_CHECK_APPTAG]));
		if (r->st.has_pi_first_lba)
			kb_jadd(pi, "first_lba", kb_ju64(r->st.pi_first_lba));
		kb_jadd(o, "protection_errors", pi);
	}
	at = kb_error_at(r);
	if (at) {
		struct json_object *e = json_object_new_object();

		kb_jadd(e, "device", kb_jstr(r->job->devices[at->device]));
		kb_jadd(e, "op", kb_jstr(kb_dir_names[at->dir]));
		kb_jadd(e, "offset", kb_ju64(at->offset));
		kb_jadd(e, "length", kb_ju64(at->length));
		kb_jadd(e, "errno", kb_jstr(kb_errno_name(at->err)));
		kb_jadd(o, "error_at", e);
	}
}

static struct json_object *kiobench_obj(const struct kb_result *r)
{
	struct json_object *o = json_object_new_object(), *a, *stages;
	unsigned int i;
	int d;

	kb_jadd(o, "version", kb_jstr(KB_TOOL_VERSION));
	kb_jadd(o, "module_version", r->module_version[0] ? kb_jstr(r->module_version) : NULL);
	kb_jadd(o, "kernel", r->kernel[0] ? kb_jstr(r->kernel) : NULL);
	host_objs(o, r);
	kb_jadd(o, "job_id", kb_ju64(r->st.id));
	kb_jadd(o, "jobs", kb_ju64(r->nr_jobs ? r->nr_jobs : 1));
	if (r->job->clones)
		kb_jadd(o, "clone", kb_ju64(r->job->clone));
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
	kb_jadd(o, "cpu_ns_per_io", kb_jdbl(kb_cpu_ns_per_io(r)));
	kb_jadd(o, "zero_reads", kb_ju64(r->st.zero_reads));
	if (r->st.has_verify)
		kb_jadd(o, "verify", kb_verify_json(r));
	add_errors(o, r);
	if (r->zbd.present)
		kb_jadd(o, "zones", kb_zbd_json(&r->zbd));
	if (r->latt.present)
		kb_jadd(o, "latency_target", kb_latt_json(&r->latt));
	stages = kb_stages_json(r);
	if (stages)
		kb_jadd(o, "stages", stages);
	kb_json_measures(o, r);
	if (r->loc.present)
		kb_jadd(o, "locality", kb_locality_json(r));
	if (r->job->raw_lat_log)
		kb_jadd(o, "raw_lat_log", kb_jstr(r->job->raw_lat_log));
	pct_objs(o, r);
	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		if (r->has_hist[d]) {
			kb_jadd(o, "hist_bits", kb_ju64(r->hist[d].bits));
			break;
		}
	}
	kb_jadd(o, "hist", hist_obj(r));
	kb_json_job_sensors(o, r);
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

/* fio's "steadystate": the criterion, its last value, the window's samples. */
static struct json_object *steady_obj(const struct kb_steady *ss)
{
	struct json_object *o = json_object_new_object(), *data = json_object_new_object();
	struct json_object *iops = json_object_new_array(), *bw = json_object_new_array();
	char buf[64];
	uint32_t i;

	kb_ss_str(&ss->o, buf, sizeof(buf));
	kb_jadd(o, "ss", kb_jstr(buf));
	kb_jadd(o, "duration", kb_ju64(ss->o.dur_s));
	kb_jadd(o, "attained", json_object_new_int(ss->attained));
	snprintf(buf, sizeof(buf), "%f%s", ss->criterion, ss->o.pct ? "%" : "");
	kb_jadd(o, "criterion", kb_jstr(buf));
	kb_jadd(o, "max_deviation", kb_jdbl(ss->deviation));
	kb_jadd(o, "slope", kb_jdbl(ss->slope));
	for (i = 0; i < ss->o.dur_s; i++) {
		json_object_array_add(bw, kb_ju64(kb_ss_at(ss, true, i)));
		json_object_array_add(iops, kb_ju64(kb_ss_at(ss, false, i)));
	}
	kb_jadd(data, "bw_mean", kb_ju64(kb_ss_mean(ss, true)));
	kb_jadd(data, "iops_mean", kb_ju64(kb_ss_mean(ss, false)));
	kb_jadd(data, "iops", iops);
	kb_jadd(data, "bw", bw);
	kb_jadd(o, "data", data);
	return o;
}

/*
 * unified_rw_reporting: "mixed", the reads, writes and trims summed; alone
 * (mixed: fio 3.33 has no read, write, trim or sync then) or after them
 * (both).
 */
static void mixed_obj(struct json_object *o, const struct kb_result *r, bool plus)
{
	struct kb_result m;

	if (r->job->unified_rw == KB_UNIFIED_NONE)
		return;
	if (kb_mixed_result(r, &m)) {
		kb_jadd(o, "mixed", NULL);
		return;
	}
	kb_jadd(o, "mixed", dir_obj_ext(&m, KIOBENCH_DIR_READ, plus));
	kb_mixed_free(&m);
}

static struct json_object *json_job(const struct kb_result *r, bool plus)
{
	struct json_object *o = json_object_new_object(), *opts, *kb;
	const char *op = kb_kcfg_write_op(&r->st.cfg);
	const char *top = kb_kcfg_trim_op(&r->st.cfg);
	double pn[KB_LAT_N_NR], pu[KB_LAT_U_NR], pm[KB_LAT_M_NR];
	size_t i;

	kb_jadd(o, "jobname", kb_jstr(r->job->name));
	kb_jadd(o, "groupid", json_object_new_int(r->groupid));
	kb_jadd(o, "error", json_object_new_int(kb_fio_error(r)));
	if (r->job->continue_on_error) {	/* fio's, with continue_on_error */
		kb_jadd(o, "total_err", kb_ju64(kb_total_err(&r->st)));
		kb_jadd(o, "first_error", json_object_new_int(-r->st.first_error));
	}
	kb_jadd(o, "elapsed", kb_ju64(r->st.elapsed_ns / 1000000000ULL));
	if (r->job->description)	/* fio's key */
		kb_jadd(o, "desc", kb_jstr(r->job->description));
	opts = json_object_new_object();
	for (i = 0; i < r->job->applied.n; i++) {
		const struct kb_assign *a = &r->job->applied.v[i];

		kb_jadd(opts, a->opt->name, kb_jstr(a->val ? a->val : ""));
	}
	kb_jadd(o, "job options", opts);
	kb_jadd(o, "usr_cpu", kb_jdbl(0.0));
	kb_jadd(o, "sys_cpu", kb_jdbl(kb_sys_cpu_pct(r)));
	if (r->job->unified_rw != KB_UNIFIED_MIXED) {
		kb_jadd(o, "read", dir_obj_ext(r, KIOBENCH_DIR_READ, plus));
		kb_jadd(o, "write", dir_obj_ext(r, KIOBENCH_DIR_WRITE, plus));
		kb_jadd(o, "trim", dir_obj_ext(r, KIOBENCH_DIR_TRIM, plus));
		kb_jadd(o, "sync", sync_obj(r, plus));
	}
	mixed_obj(o, r, plus);
	kb_jadd(o, "job_runtime", kb_ju64(r->st.measured_ns / 1000000));
	kb_result_lat_dist(r, pn, pu, pm);
	kb_jadd(o, "latency_ns", lat_dist_obj(pn, kb_lat_nu_edges, KB_LAT_N_NR, false));
	kb_jadd(o, "latency_us", lat_dist_obj(pu, kb_lat_nu_edges, KB_LAT_U_NR, false));
	kb_jadd(o, "latency_ms", lat_dist_obj(pm, kb_lat_m_edges, KB_LAT_M_NR, true));
	if (r->ss)
		kb_jadd(o, "steadystate", steady_obj(r->ss));
	if (r->latt.present) {	/* fio's fields: target in ns, window in us */
		kb_jadd(o, "latency_depth", kb_ju64(kb_latt_depth(&r->latt)));
		kb_jadd(o, "latency_target", kb_ju64(r->latt.target_ns));
		kb_jadd(o, "latency_percentile", kb_jdbl(r->latt.percentile_ppm / 1e4));
		kb_jadd(o, "latency_window", kb_ju64(r->latt.window_ns / 1000));
	}
	kb = kiobench_obj(r);
	if (op)		/* the writes, under their op's name too */
		kb_jadd(kb, op, dir_obj_ext(r, KIOBENCH_DIR_WRITE, plus));
	if (top)	/* the trims: zone management ops */
		kb_jadd(kb, top, dir_obj_ext(r, KIOBENCH_DIR_TRIM, plus));
	kb_jadd(o, "kiobench", kb);
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
	return kb_json_report_disks(r, n, now_ms, plus, NULL, 0);
}

char *kb_json_report_disks(const struct kb_result *r, size_t n, long long now_ms, bool plus,
			   const struct kb_disk *disks, size_t nd)
{
	return kb_json_report_run(r, n, now_ms, plus, disks, nd, NULL);
}

char *kb_json_report_run(const struct kb_result *r, size_t n, long long now_ms, bool plus,
			 const struct kb_disk *disks, size_t nd, struct json_object *fdp)
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
	report_all = r;
	report_n = n;
	for (i = 0; i < n; i++)
		json_object_array_add(jobs, json_job(&r[i], plus));
	report_all = NULL;
	report_n = 0;
	kb_jadd(root, "jobs", jobs);
	if (disks && nd)	/* fio: none without disks (disk_util=0) */
		kb_jadd(root, "disk_util", kb_json_disk_util(disks, nd));
	if (fdp)	/* kiobench's own: write_streams jobs' NVMe FDP counters */
		kb_jadd(root, "fdp", fdp);
	s = strdup(json_object_to_json_string_ext(root, KB_JSON_FLAGS));
	json_object_put(root);
	return s;
}
