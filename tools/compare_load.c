// SPDX-License-Identifier: GPL-2.0
/*
 * compare's input: the JSON of run (kiobench's or fio's: "jobs") or of
 * sweep, suite and precondition ("parts" of "steps", each with its "jobs"),
 * read into steps of jobs.  A job's latency histogram is its
 * kiobench.hist (or json+'s clat_ns.bins), its rates per interval come
 * from kiobench.timeline without the warm-up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "compare.h"
#include "compare_stats.h"
#include "result.h"
#include "stats.h"
#include "values.h"

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static struct json_object *get_type(struct json_object *o, const char *key,
				    enum json_type t)
{
	struct json_object *v = get(o, key);

	return v && json_object_is_type(v, t) ? v : NULL;
}

static double num(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v ? json_object_get_double(v) : 0.0;
}

static uint64_t u64(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v ? json_object_get_uint64(v) : 0;
}

const char *kb_cmp_kv_get(const struct kb_cmp_kvs *kvs, const char *key)
{
	size_t i;

	for (i = 0; i < kvs->n; i++)
		if (!strcmp(kvs->v[i].key, key))
			return kvs->v[i].val;
	return NULL;
}

static int kv_add(struct kb_cmp_kvs *kvs, const char *key, const char *val)
{
	struct kb_cmp_kv *nv = realloc(kvs->v, (kvs->n + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	kvs->v = nv;
	nv[kvs->n].key = strdup(key);
	nv[kvs->n].val = strdup(val);
	kvs->n++;
	return nv[kvs->n - 1].key && nv[kvs->n - 1].val ? 0 : -1;
}

/* Every member of object o as key = its text (strings without quotes), prefix first. */
static int kv_object(struct kb_cmp_kvs *kvs, struct json_object *o, const char *prefix)
{
	char key[256];

	if (!o || !json_object_is_type(o, json_type_object))
		return 0;
	json_object_object_foreach(o, k, v) {
		const char *s = json_object_is_type(v, json_type_string) ?
				json_object_get_string(v) :
				json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);

		if (!strcmp(k, "filename"))
			continue;	/* "devices" says it */
		snprintf(key, sizeof(key), "%s%s", prefix, k);
		if (kv_add(kvs, key, s ? s : "null"))
			return -1;
	}
	return 0;
}

static void kvs_free(struct kb_cmp_kvs *kvs)
{
	size_t i;

	for (i = 0; i < kvs->n; i++) {
		free(kvs->v[i].key);
		free(kvs->v[i].val);
	}
	free(kvs->v);
	memset(kvs, 0, sizeof(*kvs));
}

/* ---- a job ----------------------------------------------------------------- */

/* kiobench.hist.DIR: [[lo, hi, count], ...] in ascending order. */
static int hist_kiobench(struct kb_cmp_dir *cd, struct json_object *a)
{
	size_t i, n = json_object_array_length(a);

	cd->b = calloc(n ? n : 1, sizeof(*cd->b));
	if (!cd->b)
		return -1;
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		struct kb_bucket *b = &cd->b[cd->nr];

		if (!json_object_is_type(e, json_type_array) || json_object_array_length(e) != 3)
			return -1;
		b->lo = json_object_get_uint64(json_object_array_get_idx(e, 0));
		b->hi = json_object_get_uint64(json_object_array_get_idx(e, 1));
		b->count = json_object_get_uint64(json_object_array_get_idx(e, 2));
		if (b->hi <= b->lo || (cd->nr && b->lo < cd->b[cd->nr - 1].hi))
			return -1;
		cd->nr += b->count > 0;
	}
	return 0;
}

static int bucket_cmp(const void *a, const void *b)
{
	const struct kb_bucket *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* json+'s clat_ns.bins: {"VALUE_NS": count}, each value a bucket of its own. */
static int hist_bins(struct kb_cmp_dir *cd, struct json_object *bins)
{
	size_t n = json_object_object_length(bins);

	cd->b = calloc(n ? n : 1, sizeof(*cd->b));
	if (!cd->b)
		return -1;
	json_object_object_foreach(bins, k, v) {
		struct kb_bucket *b = &cd->b[cd->nr];
		char *end;

		errno = 0;
		b->lo = strtoull(k, &end, 10);
		if (errno || *end || end == k)
			return -1;
		b->hi = b->lo + 1;
		b->count = json_object_get_uint64(v);
		cd->nr += b->count > 0;
	}
	qsort(cd->b, cd->nr, sizeof(*cd->b), bucket_cmp);
	return 0;
}

/* p50, p99, p99.9 from the histogram, else from fio's "percentile". */
static void percentiles(struct kb_cmp_dir *cd, struct json_object *clat)
{
	static const uint32_t pl[3] = { 50000000, 99000000, 99900000 };
	static const char *const keys[3] = { "50.000000", "99.000000", "99.900000" };
	struct kb_hist h = { .b = cd->b, .nr = cd->nr, .samples = 0, .max = cd->max };
	struct json_object *p = get_type(clat, "percentile", json_type_object);
	size_t i;

	h.min = u64(clat, "min");
	for (i = 0; i < cd->nr; i++)
		h.samples += cd->b[i].count;
	if (cd->nr && !kb_hist_percentiles(&h, pl, 3, cd->pct, NULL)) {
		cd->has_pct = true;
		return;
	}
	for (i = 0; p && i < 3; i++)
		cd->pct[i] = u64(p, keys[i]);
	cd->has_pct = p && get(p, keys[0]);
}

/*
 * The rates of the timeline's intervals that start after the warm-up and
 * last at least half an interval (the last one is cut short by the end).
 */
static int intervals(struct kb_cmp_dir *cd, struct json_object *kb, int d)
{
	struct json_object *tl = get_type(kb, "timeline", json_type_array);
	uint64_t ramp = u64(kb, "ramp_ns"), iv = u64(kb, "timeline_interval_ns"), prev = 0;
	size_t i, n = tl ? json_object_array_length(tl) : 0;

	cd->iops_iv = calloc(n + 1, sizeof(double));
	cd->mbs_iv = calloc(n + 1, sizeof(double));
	cd->ios_iv = calloc(n + 1, sizeof(double));
	cd->lat_iv = calloc(n + 1, sizeof(double));
	if (!cd->iops_iv || !cd->mbs_iv || !cd->ios_iv || !cd->lat_iv)
		return -1;
	for (i = 0; i < n; i++) {
		struct json_object *pt = json_object_array_get_idx(tl, i);
		struct json_object *x = get(pt, kb_dir_names[d]);
		uint64_t t = u64(pt, "t_ns"), dt = t > prev ? t - prev : 0;

		if (prev >= ramp && dt && dt >= iv / 2) {
			cd->ios_iv[cd->nr_iv] = u64(x, "ios");
			cd->lat_iv[cd->nr_iv] = u64(x, "lat_ns");
			cd->iops_iv[cd->nr_iv] = u64(x, "ios") * 1e9 / dt;
			cd->mbs_iv[cd->nr_iv++] = u64(x, "bytes") * 1e3 / dt;
		}
		prev = t;
	}
	return 0;
}

static int load_dir(struct kb_cmp_dir *cd, struct json_object *job, int d)
{
	struct json_object *o = get_type(job, kb_dir_names[d], json_type_object);
	/* fio's "sync" has its flushes' latency as lat_ns, and no clat_ns */
	struct json_object *clat = get_type(o, d == KIOBENCH_DIR_SYNC ? "lat_ns" : "clat_ns",
					    json_type_object);
	struct json_object *kb = get_type(job, "kiobench", json_type_object);
	struct json_object *h = get_type(get(kb, "hist"), kb_dir_names[d], json_type_array);
	struct json_object *bins = get_type(clat, "bins", json_type_object);

	if (!o)
		return 0;
	cd->n = u64(clat, "N");
	cd->present = u64(o, "total_ios") || cd->n;
	cd->iops = num(o, "iops");
	cd->mbs = num(o, "bw_bytes") / 1e6;
	cd->mean = num(clat, "mean");
	cd->stddev = num(clat, "stddev");
	cd->max = u64(clat, "max");
	cd->min = u64(clat, "min");
	cd->hist_src = h ? 'k' : bins ? 'b' : 0;
	if ((h && hist_kiobench(cd, h)) || (!h && bins && hist_bins(cd, bins)))
		return -1;
	percentiles(cd, clat);
	return kb ? intervals(cd, kb, d) : 0;
}

/* Where the job ran and each device's identity: "host cpus", "device 1 serial". */
static int job_identity(struct kb_cmp_job *j, struct json_object *kb)
{
	struct json_object *ids = get_type(kb, "device_ids", json_type_array);
	char prefix[32];
	size_t i;

	if (kv_object(&j->cfg, get(kb, "host"), "host "))
		return -1;
	for (i = 0; ids && i < json_object_array_length(ids); i++) {
		snprintf(prefix, sizeof(prefix), "device %zu ", i + 1);
		if (kv_object(&j->cfg, json_object_array_get_idx(ids, i), prefix))
			return -1;
	}
	return 0;
}

/* A job's settings: its devices, job options, kernel and versions. */
static int job_config(struct kb_cmp_job *j, struct json_object *job)
{
	struct json_object *kb = get_type(job, "kiobench", json_type_object);
	struct json_object *devs = get_type(kb, "devices", json_type_array);
	char buf[4096] = "";
	size_t i, len = 0;

	for (i = 0; devs && i < json_object_array_length(devs) && len < sizeof(buf); i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? ":" : "",
				json_object_get_string(json_object_array_get_idx(devs, i)));
	if (devs && kv_add(&j->cfg, "devices", buf))
		return -1;
	if (kv_object(&j->cfg, get(job, "job options"), "option "))
		return -1;
	if (get_type(kb, "kernel", json_type_string) &&
	    kv_add(&j->cfg, "kernel", json_object_get_string(get(kb, "kernel"))))
		return -1;
	if (get_type(kb, "module_version", json_type_string) &&
	    kv_add(&j->cfg, "module version", json_object_get_string(get(kb, "module_version"))))
		return -1;
	if (get_type(kb, "version", json_type_string) &&
	    kv_add(&j->cfg, "tool version", json_object_get_string(get(kb, "version"))))
		return -1;
	return job_identity(j, kb);
}

/* kiobench.locality's counts as shares; nothing when the job has none. */
static void load_locality(struct kb_cmp_loc *l, struct json_object *job)
{
	static const char *const where[] = { "local", "llc", "remote" };
	static const char *const ctx[] = { "hardirq", "softirq", "task" };
	struct json_object *kb = get_type(job, "kiobench", json_type_object);
	struct json_object *loc = get_type(kb, "locality", json_type_object);
	struct json_object *c = get_type(loc, "context", json_type_object);
	int k;

	if (!loc || !c || !get(loc, "completions"))
		return;
	l->n = json_object_get_uint64(get(loc, "completions"));
	for (k = 0; k < 3; k++) {
		l->where[k] = l->n ? 100.0 * json_object_get_uint64(get(loc, where[k])) / l->n : 0;
		l->ctx[k] = l->n ? 100.0 * json_object_get_uint64(get(c, ctx[k])) / l->n : 0;
	}
	l->present = true;
}

static int load_job(struct kb_cmp_job *j, struct json_object *job, const char *where,
		    char *err, size_t errlen)
{
	struct json_object *name = get_type(job, "jobname", json_type_string);
	struct json_object *kb;
	int d;

	if (!name)
		return kb_errf(err, errlen, "%s: not a job (no \"jobname\")", where);
	j->name = strdup(json_object_get_string(name));
	kb = get_type(job, "kiobench", json_type_object);
	j->hist_bits = get_type(kb, "hist_bits", json_type_int) ? (int)u64(kb, "hist_bits") : -1;
	if (!j->name || job_config(j, job))
		return kb_errf(err, errlen, "out of memory");
	load_locality(&j->loc, job);
	for (d = 0; d < KIOBENCH_NR_DIRS; d++)
		if (load_dir(&j->dir[d], job, d))
			return kb_errf(err, errlen, "%s: malformed %s histogram", where,
				       kb_dir_names[d]);
	return 0;
}

/* ---- documents -------------------------------------------------------------- */

static int load_jobs(struct kb_cmp_step *st, struct json_object *jobs, const char *where,
		     char *err, size_t errlen)
{
	char w[512];
	size_t i, n = json_object_array_length(jobs);

	st->jobs = calloc(n ? n : 1, sizeof(*st->jobs));
	if (!st->jobs)
		return kb_errf(err, errlen, "out of memory");
	for (i = 0; i < n; i++) {
		snprintf(w, sizeof(w), "%s[%zu]", where, i);
		st->nr_jobs++;
		if (load_job(&st->jobs[i], json_object_array_get_idx(jobs, i), w, err, errlen))
			return -1;
	}
	return 0;
}

static struct kb_cmp_step *new_step(struct kb_cmp_doc *doc, const char *label)
{
	struct kb_cmp_step *ns = realloc(doc->steps, (doc->nr_steps + 1) * sizeof(*ns));

	if (!ns)
		return NULL;
	doc->steps = ns;
	ns += doc->nr_steps++;
	memset(ns, 0, sizeof(*ns));
	ns->label = strdup(label);
	return ns->label ? ns : NULL;
}

/* "PART VARIABLE=VALUE", or the part's name alone for a one-step part. */
static void step_label(char *buf, size_t len, struct json_object *part,
		       struct json_object *step)
{
	const char *pn = json_object_get_string(get(part, "name"));
	const char *var = json_object_get_string(get(step, "variable"));
	const char *val = json_object_get_string(get(step, "value"));

	if (!var || !strcmp(var, "none"))
		snprintf(buf, len, "%s #%" PRIu64, pn ? pn : "?", u64(step, "index"));
	else
		snprintf(buf, len, "%s %s=%s", pn ? pn : "?", var, val ? val : "?");
}

static int load_part(struct kb_cmp_doc *doc, struct json_object *part, size_t pi,
		     char *err, size_t errlen)
{
	struct json_object *steps = get_type(part, "steps", json_type_array);
	char label[256], where[512];
	size_t i;

	if (!steps)
		return kb_errf(err, errlen, "%s: parts[%zu]: no \"steps\"", doc->path, pi);
	for (i = 0; i < json_object_array_length(steps); i++) {
		struct json_object *s = json_object_array_get_idx(steps, i);
		struct json_object *jobs = get_type(s, "jobs", json_type_array);
		struct kb_cmp_step *st;

		snprintf(where, sizeof(where), "%s: parts[%zu].steps[%zu].jobs", doc->path, pi, i);
		if (!jobs)
			return kb_errf(err, errlen, "%s: missing", where);
		step_label(label, sizeof(label), part, s);
		st = new_step(doc, label);
		if (!st || kv_object(&st->cfg, get(s, "config"), "step "))
			return kb_errf(err, errlen, "out of memory");
		if (load_jobs(st, jobs, where, err, errlen))
			return -1;
	}
	return 0;
}

static int load_root(struct kb_cmp_doc *doc, struct json_object *root, char *err,
		     size_t errlen)
{
	struct json_object *parts = get_type(root, "parts", json_type_array);
	struct json_object *jobs = get_type(root, "jobs", json_type_array);
	const char *ver = json_object_get_string(get(root, "fio version"));
	const char *cmd = json_object_get_string(get(root, "command"));
	char where[512];
	size_t i;

	if (parts) {
		snprintf(doc->kind, sizeof(doc->kind), "%s", cmd ? cmd : "sweep");
		for (i = 0; i < json_object_array_length(parts); i++)
			if (load_part(doc, json_object_array_get_idx(parts, i), i, err, errlen))
				return -1;
		return 0;
	}
	if (!jobs)
		return kb_errf(err, errlen, "%s: not a kiobench or fio result (no \"jobs\" "
			       "or \"parts\")", doc->path);
	snprintf(doc->kind, sizeof(doc->kind), "%s",
		 ver && !strncmp(ver, "kiobench", 8) ? "run" : "fio");
	if (!new_step(doc, ""))
		return kb_errf(err, errlen, "out of memory");
	snprintf(where, sizeof(where), "%s: jobs", doc->path);
	return load_jobs(&doc->steps[0], jobs, where, err, errlen);
}

int kb_cmp_parse(const char *path, const char *text, struct kb_cmp_doc *doc,
		 char *err, size_t errlen)
{
	enum json_tokener_error jerr;
	struct json_object *root;
	int ret;

	memset(doc, 0, sizeof(*doc));
	doc->path = path;
	if (!text[strspn(text, " \t\r\n")]) {
		kb_errf(err, errlen, "%s: empty file, not a kiobench or fio result", path);
		return KB_EXIT_USAGE;
	}
	root = json_tokener_parse_verbose(text, &jerr);
	if (!root) {
		kb_errf(err, errlen, "%s: not JSON (%s)", path, json_tokener_error_desc(jerr));
		return KB_EXIT_USAGE;
	}
	if (!json_object_is_type(root, json_type_object))
		ret = kb_errf(err, errlen, "%s: not a kiobench or fio result (not a JSON "
			      "object)", path);
	else
		ret = load_root(doc, root, err, errlen);
	json_object_put(root);
	if (ret)
		kb_cmp_doc_free(doc);
	return ret ? KB_EXIT_USAGE : 0;
}

int kb_cmp_load(const char *path, struct kb_cmp_doc *doc, char *err, size_t errlen)
{
	char *text = kb_read_file(path);
	int ret, e = errno;

	memset(doc, 0, sizeof(*doc));
	if (!text) {
		kb_errf(err, errlen, "%s: %s", path, strerror(e));
		/* missing or a directory: the wrong name; else it cannot be read */
		return e == ENOENT || e == EISDIR ? KB_EXIT_USAGE : KB_EXIT_SYSTEM;
	}
	ret = kb_cmp_parse(path, text, doc, err, errlen);
	free(text);
	return ret;
}

void kb_cmp_dir_free(struct kb_cmp_dir *cd)
{
	free(cd->b);
	free(cd->iops_iv);
	free(cd->mbs_iv);
	free(cd->ios_iv);
	free(cd->lat_iv);
}

void kb_cmp_doc_free(struct kb_cmp_doc *doc)
{
	size_t i, k;
	int d;

	for (i = 0; i < doc->nr_steps; i++) {
		struct kb_cmp_step *st = &doc->steps[i];

		for (k = 0; k < st->nr_jobs; k++) {
			for (d = 0; d < KIOBENCH_NR_DIRS; d++)
				kb_cmp_dir_free(&st->jobs[k].dir[d]);
			free(st->jobs[k].name);
			kvs_free(&st->jobs[k].cfg);
		}
		free(st->jobs);
		free(st->label);
		kvs_free(&st->cfg);
	}
	free(doc->steps);
	doc->steps = NULL;
	doc->nr_steps = 0;
}
