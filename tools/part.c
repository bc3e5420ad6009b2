// SPDX-License-Identifier: GPL-2.0
/*
 * Running a part: the jobs of each step built from the part's definition
 * and the command's job options, run one step after the other (run.c),
 * summarized, and written as each step ends (steps_out.c).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "fdp.h"
#include "json.h"
#include "options.h"
#include "part.h"
#include "report.h"
#include "run.h"
#include "steps.h"
#include "tuning.h"

#define KB_MAX_BURSTS	100000		/* bursts of one part */
#define KB_MAX_STEP_X	(1u << 24)	/* depths, worker and device counts of a list */

static int set_opt(const struct method *m, struct kb_job *job, enum kb_opt_id id,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Apply option id=value (formatted) to job, as if given by the user. */
static int set_opt(const struct method *m, struct kb_job *job, enum kb_opt_id id,
		   const char *fmt, ...)
{
	struct kb_assign a = { .opt = &kb_opts[id] };
	char val[256], err[KB_ERRLEN];
	struct kb_global g = m->g;	/* job options never change it */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	a.val = val;
	if (kb_apply(job, &g, &a, err, sizeof(err))) {
		msg("%s", err);
		return -1;
	}
	return 0;
}

/* The shape of a step: k devices (0: the job's), total depth qd and its split. */
struct shape {
	unsigned int k;
	uint32_t qd, workers, per;
};

/* The part's own settings of a step's job (a suite's win over the user's). */
static int part_opts(const struct method *m, const struct part_def *def, struct kb_job *job)
{
	return (def->rw && set_opt(m, job, KB_OPT_RW, "%s", def->rw)) ||
	       (def->bs && set_opt(m, job, KB_OPT_BS, "%u", def->bs)) ||
	       (def->span && set_opt(m, job, KB_OPT_SIZE, "%" PRIu64, def->span)) ||
	       /* a suite's step is limited by its time and io_size, not its span */
	       (def->runtime_ns && (set_opt(m, job, KB_OPT_RUNTIME, "%" PRIu64 "ns", def->runtime_ns) ||
				    set_opt(m, job, KB_OPT_TIME_BASED, "1"))) ||
	       (def->ramp_ns && set_opt(m, job, KB_OPT_RAMP, "%" PRIu64 "ns", def->ramp_ns)) ||
	       (def->io_size && set_opt(m, job, KB_OPT_IO_SIZE, "%" PRIu64, def->io_size)) ||
	       (def->burst_size && set_opt(m, job, KB_OPT_IO_SIZE, "%" PRIu64, def->burst_size));
}

/* Write streams 1..k of the step's writes (0: none). */
static int step_streams(const struct method *m, struct kb_job *job, uint64_t k)
{
	char ids[4 * KB_MAX_WRITE_STREAMS] = "";
	size_t at = 0;
	uint64_t i;

	for (i = 1; i <= k && i <= KB_MAX_WRITE_STREAMS; i++)
		at += snprintf(ids + at, sizeof(ids) - at, "%s%" PRIu64, i > 1 ? "," : "", i);
	return k ? set_opt(m, job, KB_OPT_WRITE_STREAMS, "%s", ids) : 0;
}

/* The streams of the step at x: the swept count, or the part's own. */
static uint64_t streams_of(const struct part_def *def, uint64_t x)
{
	return def->var == KB_VAR_STREAMS ? x : def->streams;
}

/* Job i of the step of def at value x, from the user's job options. */
static int step_job(const struct method *m, const struct part_def *def, uint64_t x,
		    const struct shape *sh, unsigned int i, const char *label,
		    struct kb_job *job)
{
	struct kb_global g = m->g;	/* job options never change it */
	char err[KB_ERRLEN], what[64];
	size_t a;

	kb_job_init(job);
	for (a = 0; a < m->cli.n; a++) {
		if (kb_apply(job, &g, &m->cli.v[a], err, sizeof(err))) {
			msg("%s", err);
			return -1;
		}
	}
	if (part_opts(m, def, job) ||
	    (sh->qd && !def->split_qd && set_opt(m, job, KB_OPT_IODEPTH, "%u", sh->qd)) ||
	    (sh->qd && def->split_qd && (set_opt(m, job, KB_OPT_IODEPTH, "%u", sh->per) ||
					 set_opt(m, job, KB_OPT_NUMJOBS, "%u", sh->workers))) ||
	    (def->var == KB_VAR_NUMJOBS && set_opt(m, job, KB_OPT_NUMJOBS, "%" PRIu64, x)) ||
	    (def->var == KB_VAR_BS && set_opt(m, job, KB_OPT_BS, "%" PRIu64, x)) ||
	    (def->var == KB_VAR_RATE && set_opt(m, job, KB_OPT_RATE_IOPS, "%" PRIu64, x)) ||
	    step_streams(m, job, streams_of(def, x)) ||
	    (sh->k && set_opt(m, job, KB_OPT_FILENAME, "%s", m->tmpl.devices[i])) ||
	    set_opt(m, job, KB_OPT_NAME, "%.20s-%.10s", def->name, label))
		return -1;
	if (kb_job_finalize(job, err, sizeof(err))) {
		msg("%s", err);
		return -1;
	}
	if (kb_job_has_writes(job) && !m->g.allow_writes) {
		snprintf(what, sizeof(what), "rw=%s writes to", job->rw_str);
		return refuse_writes(what, job->devices[0], "");
	}
	return 0;
}

/* Build the jobs of one step of part def with swept value x into st and r. */
static int build_step(const struct method *m, const struct part_def *def, uint64_t x,
		      struct kb_step *st, struct run *r)
{
	struct shape sh = { 0 };
	unsigned int i;

	if (def->var == KB_VAR_DEVICES)
		sh.k = x;
	else if (def->devices)
		sh.k = def->devices;
	if (sh.k > m->tmpl.nr_devices) {
		msg("--devices: %u devices asked, --filename has %u", sh.k, m->tmpl.nr_devices);
		return -1;
	}
	if (def->var == KB_VAR_IODEPTH)
		sh.qd = x;
	else if (def->iodepth)
		sh.qd = def->iodepth;
	/* without a split, the depth is per worker and numjobs is the user's */
	if (sh.qd && def->split_qd)
		kb_split_qd(sh.qd, def->split_qd, &sh.workers, &sh.per);
	r->n = sh.k ? sh.k : 1;
	r->rj = calloc(r->n, sizeof(*r->rj));
	if (!r->rj)
		return -1;
	for (i = 0; i < r->n; i++)
		if (step_job(m, def, x, &sh, i, st->value, &r->rj[i].job))
			return -1;
	/* unset: the kernel's default of 1 */
	st->iodepth = r->rj[0].job.iodepth ? r->rj[0].job.iodepth : 1;
	st->numjobs = r->rj[0].job.numjobs ? r->rj[0].job.numjobs : 1;
	st->qd = st->iodepth * st->numjobs;
	st->bs = r->rj[0].job.bs;
	st->nr_devices = 0;
	for (i = 0; i < r->n; i++)
		st->nr_devices += r->rj[i].job.nr_devices;
	return 0;
}

/* The values of def's steps: burst numbers, the value list, or one step. */
static int part_values(const struct part_def *def, uint64_t **vals, unsigned int *nr)
{
	char err[KB_ERRLEN];
	unsigned int i;

	*vals = NULL;
	if (def->burst_size) {
		uint64_t n = (def->burst_total + def->burst_size - 1) / def->burst_size;

		if (!n || n > KB_MAX_BURSTS) {
			msg("--burst-total: %" PRIu64 " bursts (must be 1..%u)", n, KB_MAX_BURSTS);
			return KB_EXIT_USAGE;
		}
		*nr = n;
		*vals = calloc(n, sizeof(**vals));
		for (i = 0; *vals && i < n; i++)
			(*vals)[i] = i + 1;
	} else if (def->var == KB_VAR_TUNE) {
		*nr = kb_tune_count(def->values);	/* each value by its index */
		*vals = calloc(*nr, sizeof(**vals));
		for (i = 0; *vals && i < *nr; i++)
			(*vals)[i] = i;
	} else if (def->values) {
		bool sizes = def->var == KB_VAR_BS, streams = def->var == KB_VAR_STREAMS;

		if (kb_parse_value_list(def->values, sizes, streams ? 0 : 1,
					sizes ? UINT32_MAX : streams ? KB_MAX_WRITE_STREAMS :
					KB_MAX_STEP_X, vals, nr, err, sizeof(err))) {
			msg("--%s: %s", kb_var_names[def->var], err);
			return KB_EXIT_USAGE;
		}
	} else {
		*nr = 1;
		*vals = calloc(1, sizeof(**vals));
	}
	if (!*vals) {
		msg("out of memory");
		return KB_EXIT_SYSTEM;
	}
	return 0;
}

/* Step value x as printed: a tuning's value is the x-th of its list. */
static void step_label(const struct part_def *def, struct kb_step *st, uint64_t x)
{
	if (def->var != KB_VAR_TUNE || !kb_tune_value(def->values, x, st->value,
						      sizeof(st->value)))
		kb_step_label(st->value, sizeof(st->value), def->var, x);
}

/* The variable's name: a tuning's option. */
static const char *var_name(const struct part_def *def)
{
	return def->var == KB_VAR_TUNE ? kb_tune_names[def->tune] : kb_var_names[def->var];
}

/*
 * The tuning of step x on its jobs' devices: the fixed values, and the
 * swept one.  0 or -1 (the kernel refused: said).
 */
static int tune_step(const struct method *m, const struct part_def *def, uint64_t x,
		     const struct run *r)
{
	char val[256];
	size_t k;
	int t;

	for (t = 0; t < KB_NR_TUNE; t++) {
		const char *list = m->g.tune[t];

		if (!list || !kb_tune_value(list, def->var == KB_VAR_TUNE && (int)def->tune == t ?
					    x : 0, val, sizeof(val)))
			continue;
		for (k = 0; k < r->n; k++)
			if (kb_tune_set(t, r->rj[k].job.devices, r->rj[k].job.nr_devices, val))
				return -1;
	}
	return 0;
}

/* The settings in effect during step st, read back: under its rows, in its JSON. */
static void report_tuning(struct method *m, const struct kb_step *st, struct json_object *o)
{
	int t;
	bool any = false;

	for (t = 0; t < KB_NR_TUNE; t++)
		any |= m->g.tune[t] != NULL;
	if (!any || !st->nr_res)
		return;
	if (m->g.formats & KB_FMT_NORMAL)
		kb_tune_print(m->out, st->res[0].job->devices, st->res[0].job->nr_devices);
	kb_jadd(o, "tuning", kb_tune_json(st->res[0].job->devices, st->res[0].job->nr_devices));
}

/* Every step's jobs are checked before the first one runs. */
static int check_steps(const struct method *m, const struct part_def *def,
		       const uint64_t *vals, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		struct kb_step st = { .var = def->var };
		struct run r = { 0 };
		int bad;

		step_label(def, &st, vals[i]);
		bad = build_step(m, def, vals[i], &st, &r);
		free_run(&r);
		if (bad)
			return KB_EXIT_USAGE;
	}
	return 0;
}

static void part_json(struct part_run *pr, const struct part_def *def)
{
	pr->json = json_object_new_object();
	pr->steps_json = json_object_new_array();
	pr->figures = json_object_new_object();
	kb_jadd(pr->json, "name", kb_jstr(def->name));
	kb_jadd(pr->json, "title", kb_jstr(def->title ? def->title : def->name));
	kb_jadd(pr->json, "variable", kb_jstr(var_name(def)));
	kb_jadd(pr->json, "steps", pr->steps_json);
	kb_jadd(pr->json, "figures", pr->figures);
}

/* The idle time before step i (after prev_end): a burst's, or the part's. */
static uint64_t idle_before(const struct part_run *pr, unsigned int i)
{
	const struct part_def *def = pr->def;

	if (!def->burst_size)
		return def->idle_ns;
	return def->duty ? kb_duty_idle_ns(pr->steps[i - 1].busy_ns, def->duty) :
	       def->burst_idle_ns;
}

/* Step i measured idle_ns after the previous one: into both and the document. */
static void set_idle(struct part_run *pr, size_t i, uint64_t idle_ns)
{
	pr->steps[i].idle_ns = idle_ns;
	pr->idle_ns += idle_ns;
	kb_jadd(json_object_array_get_idx(pr->steps_json, i), "idle_ns", kb_ju64(idle_ns));
}

/* Step st has run: summaries, warnings, rows, its JSON. */
static void report_step(struct method *m, struct part_run *pr, struct kb_step *st,
			bool *zero_warned)
{
	const struct part_def *def = pr->def;
	struct json_object *o;
	uint64_t zero = 0;
	size_t k;
	int d;

	for (d = 0; d < KIOBENCH_NR_DIRS; d++)
		kb_summarize(st->res, st->nr_res, d, false, &st->sum[d]);
	for (k = 0; k < st->nr_res; k++)
		zero += st->res[k].st.zero_reads;
	if (zero && !*zero_warned) {
		msg("warning: %s, %s=%s: %" PRIu64 " of %" PRIu64 " " KB_ZERO_READS_WARNING,
		    def->name, var_name(def), st->value, zero,
		    st->sum[KIOBENCH_DIR_READ].ios);
		*zero_warned = true;
	}
	if ((m->g.formats & KB_FMT_NORMAL) && !st->index) {
		fprintf(m->out, "\n== %s%s%s ==\n", def->name, def->title ? ": " : "",
			def->title ? def->title : "");
		kb_table_header(m->out, var_name(def));
	}
	kb_step_rows(m->g.formats & KB_FMT_NORMAL ? m->out : NULL, m->csv, def->name, st);
	o = kb_step_json(st);
	kb_jadd(o, "variable", kb_jstr(var_name(def)));	/* a tuning's own name */
	report_tuning(m, st, o);
	if (st->nr_fdp) {
		if (m->g.formats & KB_FMT_NORMAL)
			kb_print_fdp(m->out, st->fdp, st->nr_fdp);
		kb_jadd(o, "fdp", kb_json_fdp(st->fdp, st->nr_fdp));
	}
	json_object_array_add(pr->steps_json, o);
}

/*
 * Step i of pr at value x, started idle after prev_end (0: at once).
 * Returns 0, an exit code, or -1 when a signal ended the part before it.
 */
static int run_step(struct method *m, struct part_run *pr, unsigned int i, uint64_t x,
		    bool last, uint64_t *prev_end, bool *zero_warned)
{
	const struct part_def *def = pr->def;
	struct kb_step *st = &pr->steps[i];
	uint64_t start_at = 0, t0 = 0, t1 = 0;
	struct run r = { 0 };
	size_t k;
	int ret;

	st->index = i;
	st->var = def->var;
	st->x = x;
	step_label(def, st, x);
	if (build_step(m, def, x, st, &r)) {
		free_run(&r);
		return KB_EXIT_USAGE;
	}
	if (tune_step(m, def, x, &r)) {
		free_run(&r);
		return KB_EXIT_SYSTEM;
	}
	/* the last burst carries the rest of the total */
	if (def->burst_size && last && def->burst_total % def->burst_size)
		for (k = 0; k < r.n; k++)
			r.rj[k].job.io_size = def->burst_total % def->burst_size;
	if (i && *prev_end)
		start_at = *prev_end + idle_before(pr, i);
	/*
	 * Each step's write amplification: as run's, of the jobs with streams
	 * (a precondition's rounds with --write_streams); a streams sweep's,
	 * of every step, streams or not.
	 */
	kb_find_fdp(&r, def->var == KB_VAR_STREAMS || def->streams);
	ret = run_jobs(&r, false, start_at, &st->res, &t0, &t1);
	if (!st->res) {
		free_run(&r);
		/* a signal during the idle time: the steps so far are the result */
		return got_signal ? -1 : ret;
	}
	st->fdp = r.fdp;	/* the step's now: free_part() frees it */
	st->nr_fdp = r.nr_fdp;
	r.fdp = NULL;
	r.nr_fdp = 0;
	st->nr_res = r.n;
	st->busy_ns = t1 - t0;
	if (i)
		set_idle(pr, i - 1, t0 - *prev_end);
	pr->busy_ns += st->busy_ns;
	*prev_end = t1;
	pr->n = i + 1;
	report_step(m, pr, st, zero_warned);
	free_run(&r);
	return ret;
}

/* The idle time after the last burst completes its period. */
static void last_idle(struct part_run *pr, uint64_t prev_end)
{
	const struct kb_step *st = &pr->steps[pr->n - 1];
	uint64_t idle = pr->def->duty ? kb_duty_idle_ns(st->busy_ns, pr->def->duty) :
			pr->def->burst_idle_ns;

	sleep_until(prev_end + idle);
	set_idle(pr, pr->n - 1, now_ns() - prev_end);
}

/* Run part def's steps in order.  0 or an exit code; pr holds the steps that ran. */
static int run_part(struct method *m, const struct part_def *def, struct part_run *pr,
		    part_stop_fn stop)
{
	uint64_t *vals, prev_end = 0;
	bool zero_warned = false;
	unsigned int nr = 0, i;
	int ret;

	memset(pr, 0, sizeof(*pr));
	pr->def = def;
	ret = part_values(def, &vals, &nr);
	if (ret)
		return ret;
	pr->steps = calloc(nr, sizeof(*pr->steps));
	ret = pr->steps ? check_steps(m, def, vals, nr) : KB_EXIT_SYSTEM;
	if (ret) {
		if (!pr->steps)
			msg("out of memory");
		free(vals);
		return ret;
	}
	part_json(pr, def);
	for (i = 0; i < nr && !got_signal && !ret; i++) {
		ret = run_step(m, pr, i, vals[i], i == nr - 1, &prev_end, &zero_warned);
		if (ret < 0)
			ret = 0;
		else if (!ret && stop && stop(m, pr))
			break;
	}
	if (def->burst_size && pr->n && !ret && !got_signal)
		last_idle(pr, prev_end);
	if (got_signal)
		m->interrupted = true;
	free(vals);
	return ret;
}

void free_part(struct part_run *pr)
{
	size_t i;

	for (i = 0; pr->steps && i < pr->n; i++) {
		free_results(pr->steps[i].res, pr->steps[i].nr_res);
		free(pr->steps[i].fdp);
	}
	free(pr->steps);
	pr->steps = NULL;
}

int do_part(struct method *m, const struct part_def *def, part_stop_fn stop,
	    struct part_run *keep)
{
	struct part_run pr;
	int ret = run_part(m, def, &pr, stop);

	if (pr.json) {
		figures(m, &pr);
		json_object_array_add(m->parts, pr.json);
	}
	if (keep)
		*keep = pr;
	else
		free_part(&pr);
	return ret;
}
