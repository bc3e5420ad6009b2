// SPDX-License-Identifier: GPL-2.0
/*
 * merge A.json B.json ...: the results of one job run on several hosts
 * (Documentation/kiobench.rst, "Fleets") as one fleet.  Each document is
 * read by compare's loader (compare_load.c); those of the same job and
 * histogram layout are summed bucket by bucket, and the fleet's
 * percentiles are those of the summed histogram (stats.c): exact for the
 * buckets, never an average of the hosts' percentiles.  One row per host
 * and device; a host is an outlier when its p50 or p99 is off the merged
 * percentile of the other hosts (its leave-one-out ratio) by more than
 * --outlier-threshold.  A document that cannot be read is named and left
 * out; the others are merged and the exit status says that one is missing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "commands.h"
#include "compare.h"
#include "json.h"
#include "options.h"
#include "result.h"
#include "stats.h"

/* The figures of a histogram: p50, p99, p99.9. */
#define NR_PCT	3
static const uint32_t pct_list[NR_PCT] = { 50000000, 99000000, 99900000 };
static const char *const pct_names[NR_PCT] = { "p50", "p99", "p99.9" };
/* The outlier test's figures: p50 and p99 (pct_list's first two). */
#define NR_TESTED	2
/* The merged document's percentile list: fio's default. */
static const uint32_t doc_plist[] = {
	1000000, 5000000, 10000000, 20000000, 30000000, 40000000, 50000000, 60000000,
	70000000, 80000000, 90000000, 95000000, 99000000, 99500000, 99900000, 99950000,
	99990000,
};

#define OUTLIER_TEST	"leave-one-out ratio"

/*
 * One input document: read once to be summed and once for its rows, and
 * kept only while it is used (the reference document, the first one read,
 * all along: it gives the layout).
 */
struct input {
	const char *path;
	struct kb_cmp_doc doc;
	bool ok;
	char err[KB_ERRLEN];
};

/* The fleet's sum of one direction of one job of one step. */
struct fleet_dir {
	bool present;
	char src;			/* the histograms' source, as kb_cmp_dir's hist_src */
	struct kb_bucket *b;
	size_t nr;
	uint64_t n, min, max;
	/* for the others' bounds: the second smallest minimum, the second
	 * largest maximum, and which document has the smallest and largest */
	uint64_t min2, max2;
	size_t min_in, max_in;
	double iops, mbs, sum, sumsq;	/* sum: of latencies; sumsq: of squares (ns^2) */
};

struct merge {
	struct input *in;
	size_t nr_in, nr_ok, ref;	/* ref: the first document read */
	double ratio;			/* outlier beyond ratio or 1 / ratio */
	struct fleet_dir *fd;		/* [step][job][dir] of the reference document */
	FILE *out;			/* normal output, or NULL */
	bool json;			/* JSON output: the rows kept as objects */
	bool plus;			/* json+: the merged buckets as fio's bins too */
	struct json_object *rows, *outliers, *missing;
	unsigned int nr_outliers;
};

static void usage_merge(FILE *f)
{
	fprintf(f,
		"Usage: kiobench merge [OPTIONS] RESULTS.json...\n"
		"Merge the results of one job run on several hosts (kiobench's JSON, or\n"
		"fio's json+) into the fleet's: the histograms summed, the fleet's\n"
		"percentiles from the sum.  One row per host and device; a host whose p50\n"
		"or p99 is off the others' merged percentile (leave-one-out ratio) by\n"
		"more than --outlier-threshold is named an outlier.  Documents of another\n"
		"job or histogram layout are refused; one that cannot be read is named and\n"
		"the others are merged.\n"
		"\n"
		"Options:\n");
	usage_options(f, KB_CMD_MERGE, false);
	fprintf(f,
		"\n"
		"Exit status: 0 merged, no outlier; 4 merged, an outlier; 2 a document\n"
		"could not be read (the others merged); 1 bad usage, or documents that\n"
		"do not merge.\n");
}

static struct fleet_dir *fdir(struct merge *m, size_t s, size_t j, int d)
{
	const struct kb_cmp_doc *ref = &m->in[m->ref].doc;
	size_t i, k = 0;

	for (i = 0; i < s; i++)
		k += ref->steps[i].nr_jobs;
	return &m->fd[((k + j) * KIOBENCH_NR_DIRS) + d];
}

/* ---- the same job and layout ---------------------------------------------------- */

static const char *src_name(char src)
{
	return src == 'k' ? "kiobench's histogram" : src == 'b' ? "json+ bins" :
	       "no histogram";
}

/* The job options (and step settings) of two jobs are the same; else what differs. */
static int same_kvs(const struct kb_cmp_kvs *a, const struct kb_cmp_kvs *b, const char *prefix,
		    char *what, size_t len)
{
	size_t i, pl = strlen(prefix);

	for (i = 0; i < a->n; i++) {
		const char *vb;

		if (strncmp(a->v[i].key, prefix, pl))
			continue;
		vb = kb_cmp_kv_get(b, a->v[i].key);
		if (!vb || strcmp(vb, a->v[i].val)) {
			snprintf(what, len, "%s %s against %s", a->v[i].key + pl,
				 a->v[i].val, vb ? vb : "(unset)");
			return -1;
		}
	}
	for (i = 0; i < b->n; i++) {
		if (!strncmp(b->v[i].key, prefix, pl) && !kb_cmp_kv_get(a, b->v[i].key)) {
			snprintf(what, len, "%s (unset) against %s", b->v[i].key + pl,
				 b->v[i].val);
			return -1;
		}
	}
	return 0;
}

/* Doc x is of the reference's job and layout; else what differs, in what. */
static int same_job(const struct kb_cmp_doc *ref, const struct kb_cmp_doc *x, char *what,
		    size_t len)
{
	char w[512];
	size_t s, j;
	int d;

	if (x->nr_steps != ref->nr_steps)
		return snprintf(what, len, "%zu steps against %zu", x->nr_steps, ref->nr_steps),
		       -1;
	for (s = 0; s < ref->nr_steps; s++) {
		const struct kb_cmp_step *a = &ref->steps[s], *b = &x->steps[s];

		if (strcmp(a->label, b->label))
			return snprintf(what, len, "step \"%s\" against \"%s\"", b->label,
					a->label), -1;
		if (same_kvs(&b->cfg, &a->cfg, "step ", w, sizeof(w)))
			return snprintf(what, len, "step \"%s\": %s", a->label, w), -1;
		if (a->nr_jobs != b->nr_jobs)
			return snprintf(what, len, "%zu jobs against %zu", b->nr_jobs, a->nr_jobs),
			       -1;
		for (j = 0; j < a->nr_jobs; j++) {
			const struct kb_cmp_job *ja = &a->jobs[j], *jb = &b->jobs[j];

			if (strcmp(ja->name, jb->name))
				return snprintf(what, len, "job \"%s\" against \"%s\"", jb->name,
						ja->name), -1;
			if (same_kvs(&jb->cfg, &ja->cfg, "option ", w, sizeof(w)))
				return snprintf(what, len, "job %s: job option %s", ja->name, w),
				       -1;
			if (ja->hist_bits != jb->hist_bits)
				return snprintf(what, len, "job %s: histogram layout: hist_bits "
						"%d against %d", ja->name, jb->hist_bits,
						ja->hist_bits), -1;
			for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
				const struct kb_cmp_dir *da = &ja->dir[d], *db = &jb->dir[d];

				if (da->present != db->present)
					return snprintf(what, len, "job %s: %s %s", ja->name,
							kb_dir_names[d], db->present ?
							"done, not in the first" :
							"not done, done in the first"), -1;
				if (db->present && da->hist_src != db->hist_src)
					return snprintf(what, len, "job %s: %s: histogram "
							"layout: %s against %s", ja->name,
							kb_dir_names[d], src_name(db->hist_src),
							src_name(da->hist_src)), -1;
				if (db->present && !db->hist_src)
					return snprintf(what, len, "job %s: %s: no histogram "
							"(kiobench's JSON or fio's json+ has one)",
							ja->name, kb_dir_names[d]), -1;
			}
		}
	}
	return 0;
}

/* ---- sums ----------------------------------------------------------------------- */

/*
 * a[0..na) + b[0..nb), both ascending, into a new array: the buckets of
 * equal lo summed, which must then end at the same hi; -1 (what says why)
 * when they do not, or overlap.
 */
static int add_buckets(struct kb_bucket **a, size_t *na, const struct kb_bucket *b, size_t nb,
		       char *what, size_t len)
{
	struct kb_bucket *o = calloc(*na + nb + 1, sizeof(*o)), *x = *a;
	size_t i = 0, j = 0, n = 0;

	if (!o)
		return snprintf(what, len, "out of memory"), -1;
	while (i < *na || j < nb) {
		if (j >= nb || (i < *na && x[i].lo < b[j].lo)) {
			o[n] = x[i++];
		} else if (i >= *na || b[j].lo < x[i].lo) {
			o[n] = b[j++];
		} else {
			if (x[i].hi != b[j].hi) {
				snprintf(what, len, "histogram layout: bucket [%" PRIu64 ", %"
					 PRIu64 ") against [%" PRIu64 ", %" PRIu64 ")", b[j].lo,
					 b[j].hi, x[i].lo, x[i].hi);
				free(o);
				return -1;
			}
			o[n] = x[i++];
			o[n].count += b[j++].count;
		}
		if (n && o[n].lo < o[n - 1].hi) {
			snprintf(what, len, "histogram layout: bucket [%" PRIu64 ", %" PRIu64
				 ") overlaps [%" PRIu64 ", %" PRIu64 ")", o[n].lo, o[n].hi,
				 o[n - 1].lo, o[n - 1].hi);
			free(o);
			return -1;
		}
		n++;
	}
	free(*a);
	*a = o;
	*na = n;
	return 0;
}

static int add_dir(struct fleet_dir *f, const struct kb_cmp_dir *cd, size_t in, char *what,
		   size_t len)
{
	double n = cd->n;

	if (!cd->present)
		return 0;
	if (add_buckets(&f->b, &f->nr, cd->b, cd->nr, what, len))
		return -1;
	if (!f->present) {
		f->min2 = UINT64_MAX;
		f->min = UINT64_MAX;
	}
	if (cd->min < f->min) {
		f->min2 = f->min;
		f->min = cd->min;
		f->min_in = in;
	} else if (cd->min < f->min2) {
		f->min2 = cd->min;
	}
	if (!f->present || cd->max > f->max) {
		f->max2 = f->present ? f->max : 0;
		f->max = cd->max;
		f->max_in = in;
	} else if (cd->max > f->max2) {
		f->max2 = cd->max;
	}
	f->present = true;
	f->src = cd->hist_src;
	f->n += cd->n;
	f->iops += cd->iops;
	f->mbs += cd->mbs;
	f->sum += cd->mean * n;
	/* (n - 1) s^2 + n m^2: the sum of the squares */
	f->sumsq += (n > 1 ? (n - 1) * cd->stddev * cd->stddev : 0) + n * cd->mean * cd->mean;
	return 0;
}

static int add_doc(struct merge *m, const struct kb_cmp_doc *doc, size_t in, char *what,
		   size_t len)
{
	size_t s, j;
	int d;

	for (s = 0; s < doc->nr_steps; s++)
		for (j = 0; j < doc->steps[s].nr_jobs; j++)
			for (d = 0; d < KIOBENCH_NR_DIRS; d++)
				if (add_dir(fdir(m, s, j, d), &doc->steps[s].jobs[j].dir[d],
					    in, what, len))
					return -1;
	return 0;
}

/* p50, p99, p99.9 of b[0..nr) seen within [min, max]: 0, or -1 when empty. */
static int percentiles(const struct kb_bucket *b, size_t nr, uint64_t min, uint64_t max,
		       const uint32_t *pl, unsigned int n, uint64_t *out)
{
	struct kb_hist h = { .b = (struct kb_bucket *)b, .nr = nr, .min = min, .max = max };
	size_t i;

	for (i = 0; i < nr; i++)
		h.samples += b[i].count;
	return kb_hist_percentiles(&h, pl, n, out, NULL);
}

/*
 * The fleet's histogram without one host's (both ascending, the host's
 * buckets a subset of the fleet's): the others'.
 */
static struct kb_bucket *without(const struct fleet_dir *f, const struct kb_cmp_dir *cd,
				 size_t *nr)
{
	struct kb_bucket *o = calloc(f->nr + 1, sizeof(*o));
	size_t i, j = 0;

	if (!o)
		return NULL;
	for (i = 0; i < f->nr; i++) {
		o[i] = f->b[i];
		if (j < cd->nr && cd->b[j].lo == f->b[i].lo)
			o[i].count -= cd->b[j++].count;
	}
	*nr = f->nr;
	return o;
}

/* ---- rows ------------------------------------------------------------------------ */

static const char *host_of(const struct input *in, const struct kb_cmp_job *j)
{
	const char *h = kb_cmp_kv_get(&j->cfg, "host hostname");

	return h && strcmp(h, "null") ? h : in->path;
}

/* "PATH (MODEL, SERIAL)" of each of the job's devices, ", "-separated. */
static void devices_of(const struct kb_cmp_job *j, char *buf, size_t len)
{
	char key[64];
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 1; n < len; i++) {
		const char *p, *model, *serial;

		snprintf(key, sizeof(key), "device %u path", i);
		p = kb_cmp_kv_get(&j->cfg, key);
		if (!p)
			break;
		snprintf(key, sizeof(key), "device %u model", i);
		model = kb_cmp_kv_get(&j->cfg, key);
		snprintf(key, sizeof(key), "device %u serial", i);
		serial = kb_cmp_kv_get(&j->cfg, key);
		n += snprintf(buf + n, len - n, "%s%s (%s, %s)", i > 1 ? ", " : "", p,
			      model && *model ? model : "-", serial && *serial ? serial : "-");
	}
	if (!buf[0])
		snprintf(buf, len, "%s", kb_cmp_kv_get(&j->cfg, "devices") ?: "-");
}

static void where(char *buf, size_t len, const struct kb_cmp_step *st, const char *job, int d)
{
	snprintf(buf, len, "%s%s%sjob %s, %s", st->label[0] ? "step " : "", st->label,
		 st->label[0] ? ", " : "", job, kb_dir_names[d]);
}

static void print_head(FILE *f, const char *what)
{
	fprintf(f, "\n%s:\n  %-16s %-32s %10s %10s %10s %10s %8s %8s\n", what, "host", "device",
		"ios", "p50 (us)", "p99 (us)", "p99.9 (us)", "p50/rest", "p99/rest");
}

static void print_row(FILE *f, const char *host, const char *dev, uint64_t n,
		      const uint64_t *pct, const double *ratio, bool outlier)
{
	char r[NR_TESTED][16];
	int i;

	for (i = 0; i < NR_TESTED; i++)
		snprintf(r[i], sizeof(r[i]), ratio && !isnan(ratio[i]) ? "%.2f" : "-",
			 ratio ? ratio[i] : 0);
	fprintf(f, "  %-16s %-32s %10" PRIu64 " %10.2f %10.2f %10.2f %8s %8s%s\n", host, dev, n,
		pct[0] / 1e3, pct[1] / 1e3, pct[2] / 1e3, r[0], r[1], outlier ? "  OUTLIER" : "");
}

static struct json_object *pct_json(const uint64_t *pct)
{
	struct json_object *o = json_object_new_object();
	int i;

	for (i = 0; i < NR_PCT; i++) {
		char key[16];

		snprintf(key, sizeof(key), "%s_ns", pct_names[i]);
		kb_jadd(o, key, kb_ju64(pct[i]));
	}
	return o;
}

/*
 * p50, p99, p99.9 of every host but in's (the fleet's sum less its
 * histogram), bounded by the others' observed extremes: 1, 0 when there
 * are no others, -1 out of memory.
 */
static int others_pcts(size_t in, const struct kb_cmp_dir *cd, const struct fleet_dir *f,
		       uint64_t *rest)
{
	uint64_t rmin = in == f->min_in ? f->min2 : f->min;
	uint64_t rmax = in == f->max_in ? f->max2 : f->max;
	struct kb_bucket *rb;
	size_t nr = 0;
	int ret;

	rb = without(f, cd, &nr);
	if (!rb)
		return -1;
	ret = !percentiles(rb, nr, rmin, rmax, pct_list, NR_PCT, rest);
	free(rb);
	return ret;
}

/*
 * One host's row: its percentiles, and each tested one's ratio to the
 * others' merged percentile.  An outlier is named.
 */
static int host_row(struct merge *m, size_t k_in, const struct kb_cmp_step *st,
		    const struct kb_cmp_job *job, int d, const struct fleet_dir *f,
		    const char *what, FILE *out, struct json_object *rows)
{
	const struct input *in = &m->in[k_in];
	const struct kb_cmp_dir *cd = &job->dir[d];
	uint64_t pct[NR_PCT] = { 0 }, rest[NR_PCT] = { 0 };
	double ratio[NR_TESTED] = { NAN, NAN };
	struct json_object *row, *ro = NULL;
	char dev[512];
	bool outlier = false;
	int k, has_rest;

	percentiles(cd->b, cd->nr, cd->min, cd->max, pct_list, NR_PCT, pct);
	has_rest = others_pcts(k_in, cd, f, rest);
	if (has_rest < 0)
		return -1;
	for (k = 0; has_rest && k < NR_TESTED; k++) {
		if (!rest[k])
			continue;
		ratio[k] = (double)pct[k] / rest[k];
		if (ratio[k] > m->ratio || ratio[k] * m->ratio < 1) {
			struct json_object *o = json_object_new_object();

			outlier = true;
			m->nr_outliers++;
			if (out)
				fprintf(out, "  outlier: %s, %s: %s %.2f us is %.2fx the other "
					"hosts' %.2f us (%s beyond %.2fx)\n", host_of(in, job),
					what, pct_names[k], pct[k] / 1e3, ratio[k], rest[k] / 1e3,
					OUTLIER_TEST, m->ratio);
			kb_jadd(o, "host", kb_jstr(host_of(in, job)));
			kb_jadd(o, "file", kb_jstr(in->path));
			kb_jadd(o, "step", st->label[0] ? kb_jstr(st->label) : NULL);
			kb_jadd(o, "job", kb_jstr(job->name));
			kb_jadd(o, "direction", kb_jstr(kb_dir_names[d]));
			kb_jadd(o, "figure", kb_jstr(pct_names[k]));
			kb_jadd(o, "host_ns", kb_ju64(pct[k]));
			kb_jadd(o, "others_ns", kb_ju64(rest[k]));
			kb_jadd(o, "ratio", kb_jdbl_fmt(ratio[k], "%.4f"));
			kb_jadd(o, "slower", json_object_new_boolean(ratio[k] > 1));
			json_object_array_add(m->outliers, o);
		}
	}
	devices_of(job, dev, sizeof(dev));
	if (out)
		print_row(out, host_of(in, job), dev, cd->n, pct, ratio, outlier);
	if (!rows)	/* no JSON asked for */
		return 0;
	row = json_object_new_object();
	kb_jadd(row, "host", kb_jstr(host_of(in, job)));
	kb_jadd(row, "file", kb_jstr(in->path));
	kb_jadd(row, "devices", kb_jstr(dev));
	kb_jadd(row, "step", st->label[0] ? kb_jstr(st->label) : NULL);
	kb_jadd(row, "job", kb_jstr(job->name));
	kb_jadd(row, "direction", kb_jstr(kb_dir_names[d]));
	kb_jadd(row, "ios", kb_ju64(cd->n));
	kb_jadd(row, "percentiles", pct_json(pct));
	if (has_rest) {
		ro = json_object_new_object();
		for (k = 0; k < NR_TESTED; k++) {
			char key[16];

			snprintf(key, sizeof(key), "%s", pct_names[k]);
			kb_jadd(ro, key, isnan(ratio[k]) ? NULL : kb_jdbl_fmt(ratio[k], "%.4f"));
		}
	}
	kb_jadd(row, "ratio_to_others", ro);
	kb_jadd(row, "outlier", json_object_new_boolean(outlier));
	json_object_array_add(rows, row);
	return 0;
}

/* ---- the merged document: a run's JSON, so that compare and merge read it ------- */

static struct json_object *merged_dir(const struct fleet_dir *f, int d, bool plus)
{
	struct json_object *o = json_object_new_object(), *clat = json_object_new_object(), *p;
	uint64_t pv[sizeof(doc_plist) / sizeof(doc_plist[0])];
	double n = f->n, mean = n ? f->sum / n : 0, var = 0;
	unsigned int i, np = sizeof(doc_plist) / sizeof(doc_plist[0]);

	if (n > 1)
		var = (f->sumsq - n * mean * mean) / (n - 1);
	kb_jadd(o, "total_ios", kb_ju64(f->n));
	kb_jadd(o, "iops", kb_jdbl(f->iops));
	kb_jadd(o, "bw_bytes", kb_ju64((uint64_t)llround(f->mbs * 1e6)));
	kb_jadd(clat, "min", kb_ju64(f->min));
	kb_jadd(clat, "max", kb_ju64(f->max));
	kb_jadd(clat, "mean", kb_jdbl(mean));
	kb_jadd(clat, "stddev", kb_jdbl(var > 0 ? sqrt(var) : 0));
	kb_jadd(clat, "N", kb_ju64(f->n));
	if (!percentiles(f->b, f->nr, f->min, f->max, doc_plist, np, pv)) {
		p = json_object_new_object();
		for (i = 0; i < np; i++) {
			char key[32];

			kb_pct_str(doc_plist[i], key, sizeof(key));
			kb_jadd(p, key, kb_ju64(pv[i]));
		}
		kb_jadd(clat, "percentile", p);
	}
	if (f->src == 'b' || plus) {	/* json+: fio's bins, from either source */
		p = json_object_new_object();
		for (i = 0; i < f->nr; i++) {
			char key[32];

			snprintf(key, sizeof(key), "%" PRIu64, f->b[i].lo);
			kb_jadd(p, key, kb_ju64(f->b[i].count));
		}
		kb_jadd(clat, "bins", p);
	}
	kb_jadd(o, d == KIOBENCH_DIR_SYNC ? "lat_ns" : "clat_ns", clat);
	return o;
}

static struct json_object *merged_job(struct merge *m, size_t s, size_t j)
{
	const struct kb_cmp_job *job = &m->in[m->ref].doc.steps[s].jobs[j];
	struct json_object *o = json_object_new_object(), *opts = json_object_new_object();
	struct json_object *kb = json_object_new_object(), *hist = json_object_new_object();
	size_t i;
	int d;

	kb_jadd(o, "jobname", kb_jstr(job->name));
	for (i = 0; i < job->cfg.n; i++)
		if (!strncmp(job->cfg.v[i].key, "option ", 7))
			kb_jadd(opts, job->cfg.v[i].key + 7, kb_jstr(job->cfg.v[i].val));
	kb_jadd(o, "job options", opts);
	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		const struct fleet_dir *f = fdir(m, s, j, d);
		struct json_object *a = json_object_new_array();

		if (f->present)
			kb_jadd(o, kb_dir_names[d], merged_dir(f, d, m->plus));
		for (i = 0; f->present && f->src == 'k' && i < f->nr; i++) {
			struct json_object *e = json_object_new_array();

			json_object_array_add(e, kb_ju64(f->b[i].lo));
			json_object_array_add(e, kb_ju64(f->b[i].hi));
			json_object_array_add(e, kb_ju64(f->b[i].count));
			json_object_array_add(a, e);
		}
		kb_jadd(hist, kb_dir_names[d], a);
	}
	kb_jadd(kb, "hosts", kb_ju64(m->nr_ok));
	if (job->hist_bits >= 0)
		kb_jadd(kb, "hist_bits", kb_ju64(job->hist_bits));
	kb_jadd(kb, "hist", hist);
	kb_jadd(o, "kiobench", kb);
	return o;
}

/* "jobs" for one step; else "parts", one a step (compare labels them "LABEL #0"). */
static void merged_doc(struct merge *m, struct json_object *doc)
{
	const struct kb_cmp_doc *ref = &m->in[m->ref].doc;
	struct json_object *parts = json_object_new_array(), *jobs;
	size_t s, j;

	for (s = 0; s < ref->nr_steps; s++) {
		struct json_object *part, *steps, *step;

		jobs = json_object_new_array();
		for (j = 0; j < ref->steps[s].nr_jobs; j++)
			json_object_array_add(jobs, merged_job(m, s, j));
		if (ref->nr_steps == 1 && !ref->steps[0].label[0]) {
			kb_jadd(doc, "jobs", jobs);
			json_object_put(parts);
			return;
		}
		part = json_object_new_object();
		steps = json_object_new_array();
		step = json_object_new_object();
		kb_jadd(part, "name", kb_jstr(ref->steps[s].label));
		kb_jadd(step, "index", kb_ju64(0));
		kb_jadd(step, "variable", kb_jstr("none"));
		kb_jadd(step, "jobs", jobs);
		json_object_array_add(steps, step);
		kb_jadd(part, "steps", steps);
		json_object_array_add(parts, part);
	}
	kb_jadd(doc, "parts", parts);
}

/* ---- the command ------------------------------------------------------------------ */

static size_t nr_jobs(const struct kb_cmp_doc *doc)
{
	size_t i, n = 0;

	for (i = 0; i < doc->nr_steps; i++)
		n += doc->steps[i].nr_jobs;
	return n;
}

/*
 * Read every document once and sum it, keeping only the first one read
 * (the reference); name those that cannot be read.  0, or -1 with what
 * does not merge (or out of memory) said.
 */
static int sum_all(struct merge *m)
{
	char what[768];
	size_t i;

	for (i = 0; i < m->nr_in; i++) {
		struct input *in = &m->in[i];

		in->ok = !kb_cmp_load(in->path, &in->doc, in->err, sizeof(in->err));
		if (!in->ok) {
			msg("merge: missing: %s", in->err);
			json_object_array_add(m->missing, kb_jstr(in->err));
			continue;
		}
		if (!m->nr_ok++) {
			m->ref = i;
			m->fd = calloc(nr_jobs(&in->doc) * KIOBENCH_NR_DIRS + 1, sizeof(*m->fd));
			if (!m->fd)
				return msg("out of memory"), -1;
		}
		if (same_job(&m->in[m->ref].doc, &in->doc, what, sizeof(what)) ||
		    add_doc(m, &in->doc, i, what, sizeof(what))) {
			msg("merge: %s does not merge with %s: %s", in->path,
			    m->in[m->ref].path, what);
			if (i != m->ref)
				kb_cmp_doc_free(&in->doc);
			return -1;
		}
		if (i != m->ref)
			kb_cmp_doc_free(&in->doc);
	}
	return 0;
}

/* One (step, job, direction) of the rows: its text and JSON rows, a document at a time. */
struct group {
	FILE *f;			/* into text, or NULL without normal output */
	char *text;
	size_t len;
	struct json_object *rows;	/* NULL without JSON output */
};

/* Each document's rows, read again one at a time, into its groups. */
static int rows_of(struct merge *m, size_t k, struct group *gr)
{
	const struct kb_cmp_doc *ref = &m->in[m->ref].doc;
	struct input *in = &m->in[k];
	size_t s, j, g = 0;
	char what[512];
	int d, ret = 0;

	if (k != m->ref && kb_cmp_load(in->path, &in->doc, in->err, sizeof(in->err))) {
		msg("merge: %s: read again: %s", in->path, in->err);
		return -1;
	}
	for (s = 0; s < ref->nr_steps; s++)
		for (j = 0; j < ref->steps[s].nr_jobs; j++)
			for (d = 0; d < KIOBENCH_NR_DIRS; d++, g++) {
				const struct kb_cmp_step *st = &in->doc.steps[s];

				if (ret || !fdir(m, s, j, d)->present)
					continue;
				where(what, sizeof(what), &ref->steps[s], ref->steps[s].jobs[j].name, d);
				ret = host_row(m, k, st, &st->jobs[j], d, fdir(m, s, j, d), what,
					       gr[g].f, gr[g].rows);
			}
	if (k != m->ref)
		kb_cmp_doc_free(&in->doc);
	return ret;
}

/*
 * The rows, grouped by step, job and direction: each group's head, its
 * hosts' rows, the fleet's.  The documents are read again one at a time,
 * so that memory holds the fleet's sums and the rows, not the documents.
 */
static int rows_all(struct merge *m)
{
	const struct kb_cmp_doc *ref = &m->in[m->ref].doc;
	size_t ng = nr_jobs(ref) * KIOBENCH_NR_DIRS, g, i, s, j, n;
	struct group *gr = calloc(ng + 1, sizeof(*gr));
	char what[512];
	int d, ret = -1;

	if (!gr)
		return -1;
	for (g = 0; g < ng; g++) {
		gr[g].rows = m->json ? json_object_new_array() : NULL;
		if (m->out && !(gr[g].f = open_memstream(&gr[g].text, &gr[g].len)))
			goto out;
	}
	for (i = 0; i < m->nr_in; i++)
		if (m->in[i].ok && rows_of(m, i, gr))
			goto out;
	g = 0;
	for (s = 0; s < ref->nr_steps; s++) {
		for (j = 0; j < ref->steps[s].nr_jobs; j++) {
			for (d = 0; d < KIOBENCH_NR_DIRS; d++, g++) {
				const struct fleet_dir *f = fdir(m, s, j, d);
				uint64_t pct[NR_PCT] = { 0 };
				char hosts[32];

				if (!f->present)
					continue;
				for (n = 0; gr[g].rows && n < json_object_array_length(gr[g].rows); n++)
					json_object_array_add(m->rows, json_object_get(
						json_object_array_get_idx(gr[g].rows, n)));
				if (!m->out)
					continue;
				fclose(gr[g].f);
				gr[g].f = NULL;
				where(what, sizeof(what), &ref->steps[s], ref->steps[s].jobs[j].name, d);
				print_head(m->out, what);
				fwrite(gr[g].text, 1, gr[g].len, m->out);
				percentiles(f->b, f->nr, f->min, f->max, pct_list, NR_PCT, pct);
				snprintf(hosts, sizeof(hosts), "(%zu hosts)", m->nr_ok);
				print_row(m->out, "fleet", hosts, f->n, pct, NULL, false);
			}
		}
	}
	ret = 0;
out:
	for (g = 0; g < ng; g++) {
		if (gr[g].f)
			fclose(gr[g].f);
		free(gr[g].text);
		json_object_put(gr[g].rows);
	}
	free(gr);
	return ret;
}

static int merge_docs(struct merge *m, FILE *out, unsigned int formats, double outlier_pct)
{
	struct json_object *doc = NULL, *test;
	size_t i;
	int ret;

	m->out = formats & KB_FMT_NORMAL ? out : NULL;
	m->json = formats & (KB_FMT_JSON | KB_FMT_JSONPLUS);
	m->plus = formats & KB_FMT_JSONPLUS;
	m->rows = json_object_new_array();
	m->outliers = json_object_new_array();
	if (m->out) {
		fprintf(m->out, "merge: %zu of %zu documents", m->nr_ok, m->nr_in);
		for (i = 0; i < m->nr_in; i++)
			if (!m->in[i].ok)
				fprintf(m->out, "%s%s", i == 0 || m->in[i - 1].ok ? "\nmissing: " :
					"; ", m->in[i].err);
		fprintf(m->out, "\noutlier test: %s, each host's p50 and p99 against the "
			"merged percentile of the other hosts; outlier above %.2fx or below "
			"1/%.2fx (--outlier-threshold=%g%%)\n", OUTLIER_TEST, m->ratio,
			m->ratio, outlier_pct);
	}
	ret = rows_all(m);
	if (ret) {
		msg("out of memory");
		ret = KB_EXIT_SYSTEM;
	} else {
		ret = m->nr_ok < m->nr_in ? KB_EXIT_SYSTEM : m->nr_outliers ? KB_EXIT_WORSE : 0;
	}
	if (m->out)
		fprintf(m->out, "\nmerge: %zu host(s) merged, %zu missing, %u outlier(s)\n",
			m->nr_ok, m->nr_in - m->nr_ok, m->nr_outliers);
	if (m->json) {
		doc = json_object_new_object();
		kb_jadd(doc, "fio version", kb_jstr("kiobench-" KB_TOOL_VERSION));
		kb_jadd(doc, "command", kb_jstr("merge"));
		kb_jadd(doc, "documents", kb_ju64(m->nr_in));
		kb_jadd(doc, "merged", kb_ju64(m->nr_ok));
		kb_jadd(doc, "missing", json_object_get(m->missing));
		test = json_object_new_object();
		kb_jadd(test, "name", kb_jstr(OUTLIER_TEST));
		kb_jadd(test, "figures", json_object_new_string("p50, p99"));
		kb_jadd(test, "threshold_pct", kb_jdbl3(outlier_pct));
		kb_jadd(test, "ratio_above", kb_jdbl_fmt(m->ratio, "%.4f"));
		kb_jadd(test, "ratio_below", kb_jdbl_fmt(1 / m->ratio, "%.4f"));
		kb_jadd(doc, "outlier_test", test);
		kb_jadd(doc, "hosts", json_object_get(m->rows));
		kb_jadd(doc, "outliers", json_object_get(m->outliers));
		merged_doc(m, doc);
		kb_jadd(doc, "exit_status", json_object_new_int(ret));
		fprintf(out, "%s\n", json_object_to_json_string_ext(doc, KB_JSON_FLAGS));
		json_object_put(doc);
	}
	json_object_put(m->rows);
	json_object_put(m->outliers);
	return ret;
}

static void merge_free(struct merge *m)
{
	const struct kb_cmp_doc *ref = m->nr_ok ? &m->in[m->ref].doc : NULL;
	size_t i, n = 0;

	for (i = 0; ref && m->fd && i < ref->nr_steps; i++)
		n += ref->steps[i].nr_jobs;
	for (i = 0; m->fd && i < n * KIOBENCH_NR_DIRS; i++)
		free(m->fd[i].b);
	free(m->fd);
	if (m->nr_ok)		/* the others are let go once read */
		kb_cmp_doc_free(&m->in[m->ref].doc);
	free(m->in);
	json_object_put(m->missing);
}

int cmd_merge(int argc, char **argv)
{
	struct kb_assign_list cli = { 0 };
	struct merge m = { 0 };
	struct kb_global g;
	struct kb_job scratch;
	FILE *out = stdout;
	int ret, i;

	kb_job_init(&scratch);
	kb_global_init(&g, KB_CMD_MERGE);
	ret = parse_cli(argc, argv, usage_merge, &scratch, &g, &cli);
	if (ret >= 0)
		goto out;
	if (argc - optind < 1) {
		msg("merge: result files needed (RESULTS.json...)");
		ret = KB_EXIT_USAGE;
		goto out;
	}
	m.nr_in = argc - optind;
	m.in = calloc(m.nr_in, sizeof(*m.in));
	m.missing = json_object_new_array();
	if (!m.in) {
		msg("out of memory");
		ret = KB_EXIT_SYSTEM;
		goto out;
	}
	for (i = 0; i < argc - optind; i++)
		m.in[i].path = argv[optind + i];
	m.ratio = 1 + g.outlier_pct / 100;
	if (sum_all(&m)) {
		ret = KB_EXIT_USAGE;
	} else if (!m.nr_ok) {
		msg("merge: none of the %zu documents could be read", m.nr_in);
		ret = KB_EXIT_SYSTEM;
	} else if (g.output && !(out = fopen(g.output, "w"))) {
		msg("--output: %s: %s", g.output, strerror(errno));
		ret = KB_EXIT_SYSTEM;
	} else {
		ret = merge_docs(&m, out, g.formats, g.outlier_pct);
		if ((out != stdout ? fclose(out) : fflush(out)) && ret != KB_EXIT_SYSTEM) {
			msg("%s: %s", g.output ? g.output : "stdout", strerror(errno));
			ret = KB_EXIT_SYSTEM;
		}
	}
	merge_free(&m);
out:
	kb_assign_list_free(&cli);
	kb_job_free(&scratch);
	kb_global_free(&g);
	return ret;
}
