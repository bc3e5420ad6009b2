// SPDX-License-Identifier: GPL-2.0
/*
 * compare BASE.json NEW.json: two result files side by side, per step,
 * job and direction, with the change of each figure and whether it is
 * significant (compare_stats.c).  Differences of configuration are
 * printed first; exit status 4 when a figure is significantly worse by
 * more than --threshold percent.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "commands.h"
#include "compare.h"
#include "compare_stats.h"
#include "json.h"
#include "options.h"
#include "result.h"

struct cmp {
	const struct kb_cmp_doc *a, *b;
	double threshold;
	FILE *out;			/* normal output, or NULL */
	struct json_object *doc;	/* json output, or NULL */
	struct json_object *diffs, *only, *cmps, *worse, *locs;
	unsigned int nr_worse, nr_diffs;
};

static void usage_compare(FILE *f)
{
	fprintf(f,
		"Usage: kiobench compare [OPTIONS] BASE.json NEW.json\n"
		"Compare two results of run, sweep or suite (kiobench's JSON, or fio's):\n"
		"per step, job and direction, IOPS, MB/s and the latency figures, their\n"
		"change and whether it is significant.  Differences of configuration\n"
		"are printed first.\n"
		"\n"
		"Options:\n");
	usage_options(f, KB_CMD_COMPARE, false);
	fprintf(f,
		"\n"
		"Exit status: 0 nothing significantly worse by more than the threshold,\n"
		"4 something is, 1 bad usage or input, 2 a file could not be read.\n");
}

/* ---- matching ----------------------------------------------------------------- */

/* Two lists of names matched by name: map[i] is the index in nb of na[i], or -1. */
struct matching {
	const char **na, **nb;
	size_t n_a, n_b;
	long *map;
	bool *used;		/* nb[j] has a match */
};

static void matching_free(struct matching *m)
{
	free(m->na);
	free(m->nb);
	free(m->map);
	free(m->used);
}

/*
 * Room for n_a and n_b names; match() after filling na and nb.  0, or -1
 * (out of memory) with m freed.
 */
static int matching_init(struct matching *m, size_t n_a, size_t n_b)
{
	m->n_a = n_a;
	m->n_b = n_b;
	m->na = calloc(n_a + 1, sizeof(*m->na));
	m->nb = calloc(n_b + 1, sizeof(*m->nb));
	m->map = calloc(n_a + 1, sizeof(*m->map));
	m->used = calloc(n_b + 1, sizeof(*m->used));
	if (m->na && m->nb && m->map && m->used)
		return 0;
	matching_free(m);
	return -1;
}

/* A name matches the first unused one of the same name, the same index first. */
static void match(struct matching *m)
{
	size_t i, j;

	for (i = 0; i < m->n_a; i++) {
		m->map[i] = -1;
		if (i < m->n_b && !m->used[i] && !strcmp(m->na[i], m->nb[i])) {
			m->map[i] = i;
			m->used[i] = true;
		}
	}
	for (i = 0; i < m->n_a; i++)
		for (j = 0; m->map[i] < 0 && j < m->n_b; j++)
			if (!m->used[j] && !strcmp(m->na[i], m->nb[j])) {
				m->map[i] = j;
				m->used[j] = true;
			}
}

typedef void (*pair_fn)(struct cmp *c, const struct kb_cmp_step *sa,
			const struct kb_cmp_step *sb, const struct kb_cmp_job *ja,
			const struct kb_cmp_job *jb);

static void one_side(struct cmp *c, const char *side, const char *step, const char *job)
{
	char what[512];

	snprintf(what, sizeof(what), "%s%s%s%s%s", step[0] ? "step " : "", step,
		 step[0] && job ? ", " : "", job ? "job " : "", job ? job : "");
	if (c->out)
		fprintf(c->out, "only in %s: %s\n", side, what);
	if (c->doc) {
		struct json_object *o = json_object_new_object();

		kb_jadd(o, "in", kb_jstr(side));
		kb_jadd(o, "step", step[0] ? kb_jstr(step) : NULL);
		kb_jadd(o, "job", job ? kb_jstr(job) : NULL);
		json_object_array_add(c->only, o);
	}
}

/* Jobs of two matched steps; fn on each pair, or (fn NULL) the unmatched named. */
static int each_job(struct cmp *c, const struct kb_cmp_step *sa,
		    const struct kb_cmp_step *sb, pair_fn fn)
{
	struct matching m;
	size_t i;

	if (matching_init(&m, sa->nr_jobs, sb->nr_jobs))
		return -1;
	for (i = 0; i < sa->nr_jobs; i++)
		m.na[i] = sa->jobs[i].name;
	for (i = 0; i < sb->nr_jobs; i++)
		m.nb[i] = sb->jobs[i].name;
	match(&m);
	for (i = 0; i < sa->nr_jobs; i++)
		if (m.map[i] >= 0 && fn)
			fn(c, sa, sb, &sa->jobs[i], &sb->jobs[m.map[i]]);
		else if (m.map[i] < 0 && !fn)
			one_side(c, "base", sa->label, m.na[i]);
	for (i = 0; i < sb->nr_jobs && !fn; i++)
		if (!m.used[i])
			one_side(c, "new", sb->label, m.nb[i]);
	matching_free(&m);
	return 0;
}

/* Every pair of matched steps through each_job(fn); fn NULL: name the unmatched. */
static int each_step(struct cmp *c, pair_fn fn)
{
	const struct kb_cmp_doc *a = c->a, *b = c->b;
	struct matching m;
	size_t i;
	int ret = 0;

	if (matching_init(&m, a->nr_steps, b->nr_steps))
		return -1;
	for (i = 0; i < a->nr_steps; i++)
		m.na[i] = a->steps[i].label;
	for (i = 0; i < b->nr_steps; i++)
		m.nb[i] = b->steps[i].label;
	match(&m);
	for (i = 0; i < a->nr_steps && !ret; i++)
		if (m.map[i] >= 0)
			ret = each_job(c, &a->steps[i], &b->steps[m.map[i]], fn);
		else if (!fn)
			one_side(c, "base", m.na[i], NULL);
	for (i = 0; i < b->nr_steps && !fn; i++)
		if (!m.used[i])
			one_side(c, "new", m.nb[i], NULL);
	matching_free(&m);
	return ret;
}

/* ---- configuration differences ---------------------------------------------- */

/* key's values differ: say so once per distinct (key, base, new). */
static void diff(struct cmp *c, const char *key, const char *va, const char *vb)
{
	struct json_object *o;
	size_t i, n = json_object_array_length(c->diffs);

	for (i = 0; i < n; i++) {
		struct json_object *x, *y, *k;

		o = json_object_array_get_idx(c->diffs, i);
		json_object_object_get_ex(o, "key", &k);
		json_object_object_get_ex(o, "base", &x);
		json_object_object_get_ex(o, "new", &y);
		if (!strcmp(json_object_get_string(k), key) &&
		    !strcmp(json_object_get_string(x), va) &&
		    !strcmp(json_object_get_string(y), vb))
			return;
	}
	if (!c->nr_diffs++ && c->out)
		fprintf(c->out, "configuration differences (compared all the same):\n");
	if (c->out)
		fprintf(c->out, "  %s: %s -> %s\n", key, va, vb);
	o = json_object_new_object();
	kb_jadd(o, "key", kb_jstr(key));
	kb_jadd(o, "base", kb_jstr(va));
	kb_jadd(o, "new", kb_jstr(vb));
	json_object_array_add(c->diffs, o);
}

static void diff_kvs(struct cmp *c, const struct kb_cmp_kvs *a, const struct kb_cmp_kvs *b)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		const char *vb = kb_cmp_kv_get(b, a->v[i].key);

		if (!vb || strcmp(a->v[i].val, vb))
			diff(c, a->v[i].key, a->v[i].val, vb ? vb : "(none)");
	}
	for (i = 0; i < b->n; i++)
		if (!kb_cmp_kv_get(a, b->v[i].key))
			diff(c, b->v[i].key, "(none)", b->v[i].val);
}

static void diff_pair(struct cmp *c, const struct kb_cmp_step *sa,
		      const struct kb_cmp_step *sb, const struct kb_cmp_job *ja,
		      const struct kb_cmp_job *jb)
{
	diff_kvs(c, &sa->cfg, &sb->cfg);
	diff_kvs(c, &ja->cfg, &jb->cfg);
}

/* ---- figures ------------------------------------------------------------------- */

static void fmt_p(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 1e-16)
		snprintf(buf, len, "<1e-16");
	else
		snprintf(buf, len, "%.2g", p);
}

static const char *verdict_name(enum kb_verdict v)
{
	return v == KB_V_WORSE ? "worse" : v == KB_V_BETTER ? "better" : "same";
}

static void print_fig(FILE *f, int i, const struct kb_cmp_fig *x)
{
	static const char *const sig[] = { "no", "yes" };
	double scale = i >= KB_CF_MEAN ? 1e-3 : 1;	/* latency in us */
	char name[32], p[16], ch[16], line[160];
	int n;

	snprintf(name, sizeof(name), "%s%s", kb_cf_names[i], i >= KB_CF_MEAN ? " (us)" : "");
	fmt_p(p, sizeof(p), x->p);
	if (isnan(x->change_pct))
		snprintf(ch, sizeof(ch), "-");
	else
		snprintf(ch, sizeof(ch), "%+.1f%%", x->change_pct);
	n = snprintf(line, sizeof(line), "  %-12s %12.2f %12.2f %8s  %-4s %-12s %-6s  %s", name,
		     x->base * scale, x->new * scale, ch,
		     x->significant < 0 ? "-" : sig[x->significant], x->test, p,
		     x->verdict == KB_V_WORSE ? "WORSE" : x->verdict == KB_V_BETTER ? "better" : "");
	while (n > 0 && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(f, "%s\n", line);
}

static void print_result(FILE *f, const char *what, const struct kb_cmp_result *r)
{
	char p[16];
	int i;

	fprintf(f, "\n%s:\n  %-12s %12s %12s %8s  %-4s %-12s %s\n", what, "figure", "base",
		"new", "change", "sig", "test", "p");
	for (i = 0; i < KB_CF_NR; i++)
		print_fig(f, i, &r->f[i]);
	if (r->has_mwu) {
		fmt_p(p, sizeof(p), r->mwu.p);
		fprintf(f, "  latency distribution: P(new > base) = %.3f (Mann-Whitney U: "
			"z = %.2f, p %s %s; design effect %.1f, %.1f)\n", r->mwu.auc, r->mwu.z,
			p[0] == '<' ? "<" : "=", p + (p[0] == '<'), r->deff[0], r->deff[1]);
	}
}

static struct json_object *fig_json(const struct kb_cmp_fig *x)
{
	struct json_object *o = json_object_new_object();

	kb_jadd(o, "base", kb_jdbl3(x->base));
	kb_jadd(o, "new", kb_jdbl3(x->new));
	kb_jadd(o, "change_pct", isnan(x->change_pct) ? NULL : kb_jdbl3(x->change_pct));
	kb_jadd(o, "significant", x->significant < 0 ? NULL :
		json_object_new_boolean(x->significant));
	kb_jadd(o, "test", kb_jstr(x->test));
	kb_jadd(o, "p", isnan(x->p) ? NULL : kb_jdbl_fmt(x->p, "%.3g"));
	kb_jadd(o, "verdict", kb_jstr(verdict_name(x->verdict)));
	return o;
}

static struct json_object *result_json(const char *step, const char *job, int d,
				       const struct kb_cmp_result *r)
{
	struct json_object *o = json_object_new_object(), *f = json_object_new_object();
	struct json_object *m = NULL;
	int i;

	kb_jadd(o, "step", step[0] ? kb_jstr(step) : NULL);
	kb_jadd(o, "job", kb_jstr(job));
	kb_jadd(o, "direction", kb_jstr(kb_dir_names[d]));
	for (i = 0; i < KB_CF_NR; i++)
		kb_jadd(f, kb_cf_keys[i], fig_json(&r->f[i]));
	kb_jadd(o, "figures", f);
	if (r->has_mwu) {
		m = json_object_new_object();
		kb_jadd(m, "p_new_greater", kb_jdbl_fmt(r->mwu.auc, "%.4f"));
		kb_jadd(m, "z", kb_jdbl3(r->mwu.z));
		kb_jadd(m, "p", kb_jdbl_fmt(r->mwu.p, "%.3g"));
	}
	kb_jadd(o, "distribution", m);
	m = json_object_new_array();
	json_object_array_add(m, kb_jdbl3(r->deff[0]));
	json_object_array_add(m, kb_jdbl3(r->deff[1]));
	kb_jadd(o, "design_effect", m);
	return o;
}

/* What got worse, for the summary: "step S, job J, read: mean, p50". */
static void note_worse(struct cmp *c, const char *what, const struct kb_cmp_result *r)
{
	char buf[768];
	size_t len;
	int i;

	if (!r->worse)
		return;
	c->nr_worse += r->worse;
	len = snprintf(buf, sizeof(buf), "%s:", what);
	for (i = 0; i < KB_CF_NR && len < sizeof(buf); i++)
		if (r->f[i].verdict == KB_V_WORSE)
			len += snprintf(buf + len, sizeof(buf) - len, " %s", kb_cf_names[i]);
	json_object_array_add(c->worse, kb_jstr(buf));
}

/* Where the I/Os completed, base -> new: shares, not tested (counts, not samples). */
static void cmp_locality(struct cmp *c, const char *step, const struct kb_cmp_job *ja,
			 const struct kb_cmp_job *jb)
{
	static const char *const names[] = { "local", "llc", "remote", "hardirq", "softirq",
					     "task" };
	struct json_object *o;
	int k;

	if (!ja->loc.present || !jb->loc.present)
		return;
	if (c->out) {
		fprintf(c->out, "  locality of job %s (%% of completions, base -> new):", ja->name);
		for (k = 0; k < 6; k++)
			fprintf(c->out, "%s %s %.2f -> %.2f", k == 3 ? ";" : k ? "," : "", names[k],
				k < 3 ? ja->loc.where[k] : ja->loc.ctx[k - 3],
				k < 3 ? jb->loc.where[k] : jb->loc.ctx[k - 3]);
		fprintf(c->out, "\n");
	}
	if (!c->doc)
		return;
	o = json_object_new_object();
	kb_jadd(o, "step", kb_jstr(step));
	kb_jadd(o, "job", kb_jstr(ja->name));
	for (k = 0; k < 6; k++) {
		struct json_object *p = json_object_new_object();

		kb_jadd(p, "base_pct", kb_jdbl3(k < 3 ? ja->loc.where[k] : ja->loc.ctx[k - 3]));
		kb_jadd(p, "new_pct", kb_jdbl3(k < 3 ? jb->loc.where[k] : jb->loc.ctx[k - 3]));
		kb_jadd(o, names[k], p);
	}
	json_object_array_add(c->locs, o);
}

/*
 * A direction's name, with the zone op its trims are (kiobench's
 * rw=zone_*, or zone_mgmt's timed resets): "trim (zone_finish)".
 */
static void dir_label(const struct kb_cmp_job *j, int d, char *buf, size_t len)
{
	const char *rw = kb_cmp_kv_get(&j->cfg, "option rw");
	const char *mgmt = kb_cmp_kv_get(&j->cfg, "option zone_mgmt");
	const char *op = NULL;

	if (d == KIOBENCH_DIR_TRIM && rw && !strncmp(rw, "zone_", 5))
		op = rw;
	else if (d == KIOBENCH_DIR_TRIM && mgmt && strcmp(mgmt, "0"))
		op = "zone_reset";
	if (op)
		snprintf(buf, len, "%s (%s)", kb_dir_names[d], op);
	else
		snprintf(buf, len, "%s", kb_dir_names[d]);
}

static void cmp_pair(struct cmp *c, const struct kb_cmp_step *sa,
		     const struct kb_cmp_step *sb, const struct kb_cmp_job *ja,
		     const struct kb_cmp_job *jb)
{
	struct kb_cmp_result r;
	char what[512], dir[64];
	int d;

	(void)sb;
	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		if (!ja->dir[d].present && !jb->dir[d].present)
			continue;
		dir_label(ja, d, dir, sizeof(dir));
		snprintf(what, sizeof(what), "%s%s%sjob %s, %s", sa->label[0] ? "step " : "",
			 sa->label, sa->label[0] ? ", " : "", ja->name, dir);
		if (ja->dir[d].present != jb->dir[d].present) {
			one_side(c, ja->dir[d].present ? "base" : "new", sa->label, what);
			continue;
		}
		kb_cmp_dirs(&ja->dir[d], &jb->dir[d], c->threshold, &r);
		if (c->out)
			print_result(c->out, what, &r);
		if (c->doc)
			json_object_array_add(c->cmps, result_json(sa->label, ja->name, d, &r));
		note_worse(c, what, &r);
	}
	cmp_locality(c, sa->label, ja, jb);
}

/* ---- the command ------------------------------------------------------------------ */

static void summary(struct cmp *c)
{
	size_t i, n = json_object_array_length(c->worse);

	if (!c->out)
		return;
	fprintf(c->out, "\n");
	for (i = 0; i < n; i++)
		fprintf(c->out, "worse by more than %g%%: %s\n", c->threshold,
			json_object_get_string(json_object_array_get_idx(c->worse, i)));
	if (c->nr_worse)
		fprintf(c->out, "compare: %u figure(s) significantly worse by more than %g%%\n",
			c->nr_worse, c->threshold);
	else
		fprintf(c->out, "compare: nothing significantly worse by more than %g%%\n",
			c->threshold);
}

static struct json_object *side_json(const struct kb_cmp_doc *d)
{
	struct json_object *o = json_object_new_object();

	kb_jadd(o, "file", kb_jstr(d->path));
	kb_jadd(o, "kind", kb_jstr(d->kind));
	return o;
}

static void json_start(struct cmp *c)
{
	c->doc = json_object_new_object();
	kb_jadd(c->doc, "kiobench", kb_jstr(KB_TOOL_VERSION));
	kb_jadd(c->doc, "command", kb_jstr("compare"));
	kb_jadd(c->doc, "base", side_json(c->a));
	kb_jadd(c->doc, "new", side_json(c->b));
	kb_jadd(c->doc, "threshold_pct", kb_jdbl3(c->threshold));
	kb_jadd(c->doc, "alpha", kb_jdbl3(KB_CMP_ALPHA));
	c->only = json_object_new_array();
	c->cmps = json_object_new_array();
	kb_jadd(c->doc, "config_differences", json_object_get(c->diffs));
	kb_jadd(c->doc, "only_in_one", c->only);
	kb_jadd(c->doc, "comparisons", c->cmps);
	c->locs = json_object_new_array();
	kb_jadd(c->doc, "locality", c->locs);
}

/* Compare c->a and c->b into the outputs; the exit code. */
static int compare_docs(struct cmp *c, FILE *out, unsigned int formats)
{
	int ret;

	c->out = formats & KB_FMT_NORMAL ? out : NULL;
	c->worse = json_object_new_array();
	c->diffs = json_object_new_array();	/* also what was said once */
	if (formats & KB_FMT_JSON)
		json_start(c);
	if (c->out)
		fprintf(c->out, "base: %s (%s)\nnew:  %s (%s)\nthreshold: %g%%, significance "
			"level %g\n", c->a->path, c->a->kind, c->b->path, c->b->kind,
			c->threshold, KB_CMP_ALPHA);
	ret = each_step(c, diff_pair) || each_step(c, NULL) || each_step(c, cmp_pair);
	summary(c);
	if (c->doc) {
		kb_jadd(c->doc, "worse", json_object_get(c->worse));
		kb_jadd(c->doc, "exit_status", json_object_new_int(c->nr_worse ?
								    KB_EXIT_WORSE : 0));
		fprintf(out, "%s\n", json_object_to_json_string_ext(c->doc, KB_JSON_FLAGS));
		json_object_put(c->doc);
	}
	json_object_put(c->worse);
	json_object_put(c->diffs);
	if (ret) {
		msg("out of memory");
		return KB_EXIT_SYSTEM;
	}
	return c->nr_worse ? KB_EXIT_WORSE : KB_EXIT_OK;
}

static int load_both(int argc, char **argv, struct kb_cmp_doc *a, struct kb_cmp_doc *b)
{
	char err[KB_ERRLEN];
	int ret;

	if (argc - optind != 2) {
		msg("compare: %s (BASE.json NEW.json)", argc - optind < 2 ?
		    "two result files needed" : "too many arguments");
		return KB_EXIT_USAGE;
	}
	ret = kb_cmp_load(argv[optind], a, err, sizeof(err));
	if (!ret) {
		ret = kb_cmp_load(argv[optind + 1], b, err, sizeof(err));
		if (ret)
			kb_cmp_doc_free(a);
	}
	if (ret)
		msg("compare: %s", err);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	struct kb_assign_list cli = { 0 };
	struct kb_cmp_doc a, b;
	struct kb_global g;
	struct kb_job scratch;
	struct cmp c = { .a = &a, .b = &b };
	FILE *out = stdout;
	int ret;

	kb_job_init(&scratch);
	kb_global_init(&g, KB_CMD_COMPARE);
	ret = parse_cli(argc, argv, usage_compare, &scratch, &g, &cli);
	if (ret >= 0)
		goto out;
	ret = load_both(argc, argv, &a, &b);
	if (ret)
		goto out;
	c.threshold = g.threshold;
	if (g.output && !(out = fopen(g.output, "w"))) {
		msg("--output: %s: %s", g.output, strerror(errno));
		ret = KB_EXIT_SYSTEM;
	} else {
		ret = compare_docs(&c, out, g.formats);
		if ((out != stdout ? fclose(out) : fflush(out)) && ret != KB_EXIT_SYSTEM) {
			msg("%s: %s", g.output ? g.output : "stdout", strerror(errno));
			ret = KB_EXIT_SYSTEM;
		}
	}
	kb_cmp_doc_free(&a);
	kb_cmp_doc_free(&b);
out:
	kb_assign_list_free(&cli);
	kb_job_free(&scratch);
	kb_global_free(&g);
	return ret;
}
