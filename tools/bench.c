// SPDX-License-Identifier: GPL-2.0
/*
 * Methodologies built of jobs: sweeps, bursts, preconditioning, named
 * suites, and "plot" (runs kiobench-plot).
 *
 * A *part* is a sequence of steps; each step is one or more kernel jobs
 * (one per device when devices are counted) created, started back to back,
 * waited for together and destroyed by run_jobs() in main.c.  A sweep is one
 * part; a suite is a list of parts (suite.c's table), optionally after the
 * preconditioning parts.  Every part's steps and figures go into one JSON
 * document.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#include <json-c/json.h>

#include "kiobench.h"
#include "run.h"
#include "suite.h"

#define KB_FMT_CSV	(1u << 3)

/* A command's own options. */
enum {
	X_SPLIT_QD = OPT_EXTRA, X_IDLE, X_DEVICES, X_CSV, X_BURST_SIZE, X_BURST_TOTAL,
	X_DUTY, X_BURST_IDLE, X_PASSES, X_STEADY, X_MAX_ROUNDS, X_ROUND_SIZE, X_FILL_BS,
	X_NO_FILL, X_SCALE, X_QUICK, X_LIST, X_NO_PRECOND,
};

struct bench {
	struct kb_global g;
	struct kb_assign_list cli;	/* job options as given */
	struct kb_job tmpl;		/* cli applied and finalized */
	unsigned int formats;
	FILE *out, *csv;
	char *csv_path;
	/* sweep options */
	struct part_def def;
	char *list[KB_VAR_NR];		/* value lists as given */
	/* precondition */
	struct precond_def pre;
	/* suite */
	double scale;
	bool list_suites, no_precond;
	struct json_object *parts;	/* array */
	bool interrupted;
};

/* ---- options ----------------------------------------------------------------- */

static int parse_pct(const char *name, const char *val, unsigned int *out)
{
	char err[KB_ERRLEN];
	uint64_t v;

	if (kb_parse_u64(val, &v, err, sizeof(err)) || v < 1 || v > 100) {
		msg("--%s: invalid percentage '%s' (must be 1..100)", name, val);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_sz(const char *name, const char *val, uint64_t *out)
{
	char err[KB_ERRLEN];

	if (kb_parse_size(val, out, err, sizeof(err))) {
		msg("--%s: %s", name, err);
		return -1;
	}
	if (!*out) {
		msg("--%s: invalid size '%s' (must not be zero)", name, val);
		return -1;
	}
	return 0;
}

static int parse_tm(const char *name, const char *val, uint64_t *out)
{
	char err[KB_ERRLEN];

	if (kb_parse_time_ns(val, out, err, sizeof(err))) {
		msg("--%s: %s", name, err);
		return -1;
	}
	return 0;
}

static int parse_count(const char *name, const char *val, uint64_t min, uint64_t max,
		       uint64_t *out)
{
	char err[KB_ERRLEN];

	if (kb_parse_u64(val, out, err, sizeof(err)) || *out < min || *out > max) {
		msg("--%s: invalid value '%s' (must be %" PRIu64 "..%" PRIu64 ")", name, val,
		    min, max);
		return -1;
	}
	return 0;
}

static int parse_outfmt(const char *val, unsigned int *out)
{
	char *copy = strdup(val), *tok, *save = NULL;
	unsigned int f = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "normal"))
			f |= KB_FMT_NORMAL;
		else if (!strcmp(tok, "json"))
			f |= KB_FMT_JSON;
		else if (!strcmp(tok, "csv"))
			f |= KB_FMT_CSV;
		else {
			msg("--output-format: invalid format '%s' (normal, json or csv)", tok);
			free(copy);
			return -1;
		}
	}
	free(copy);
	if (!f) {
		msg("--output-format: empty format list");
		return -1;
	}
	*out = f;
	return 0;
}

static int set_list(struct bench *b, enum kb_var var, const char *val)
{
	free(b->list[var]);
	b->list[var] = strdup(val);
	return b->list[var] ? 0 : -1;
}

static int hook(int c, const char *arg, void *ctx)
{
	struct bench *b = ctx;
	uint64_t v;

	switch (c) {
	case OPT_BASE + KB_OPT_OUTFMT:
		return parse_outfmt(arg, &b->formats) ? -1 : 1;
	case OPT_BASE + KB_OPT_IODEPTH:
		return set_list(b, KB_VAR_IODEPTH, arg) ? -1 : 1;
	case OPT_BASE + KB_OPT_NUMJOBS:
		return set_list(b, KB_VAR_NUMJOBS, arg) ? -1 : 1;
	case OPT_BASE + KB_OPT_BS:
		return set_list(b, KB_VAR_BS, arg) ? -1 : 1;
	case X_DEVICES:
		return set_list(b, KB_VAR_DEVICES, arg) ? -1 : 1;
	case X_SPLIT_QD:
		if (parse_count("split-qd", arg, 1, 1024, &v))
			return -1;
		b->def.split_qd = v;
		return 1;
	case X_IDLE:
		return parse_tm("idle", arg, &b->def.idle_ns) ? -1 : 1;
	case X_CSV:
		free(b->csv_path);
		b->csv_path = strdup(arg);
		return 1;
	case X_BURST_SIZE:
		return parse_sz("burst-size", arg, &b->def.burst_size) ? -1 : 1;
	case X_BURST_TOTAL:
		return parse_sz("burst-total", arg, &b->def.burst_total) ? -1 : 1;
	case X_DUTY:
		return parse_pct("duty-cycle", arg, &b->def.duty) ? -1 : 1;
	case X_BURST_IDLE:
		return parse_tm("burst-idle", arg, &b->def.burst_idle_ns) ? -1 : 1;
	case X_PASSES:
		if (parse_count("passes", arg, 0, 1000, &v))
			return -1;
		b->pre.passes = v;
		return 1;
	case X_STEADY:
		b->pre.steady = true;
		return 1;
	case X_MAX_ROUNDS:
		if (parse_count("max-rounds", arg, 5, 1000, &v))
			return -1;
		b->pre.max_rounds = v;
		return 1;
	case X_ROUND_SIZE:
		return parse_sz("round-size", arg, &b->pre.round_size) ? -1 : 1;
	case X_FILL_BS:
		if (parse_sz("fill-bs", arg, &v))
			return -1;
		if (v % 512 || v > UINT32_MAX) {
			msg("--fill-bs: invalid block size '%s' (a multiple of 512)", arg);
			return -1;
		}
		b->pre.fill_bs = v;
		return 1;
	case X_NO_FILL:
		b->pre.no_fill = true;
		return 1;
	case X_SCALE: {
		char *end;

		errno = 0;
		b->scale = strtod(arg, &end);
		if (errno || *end || !(b->scale > 0) || b->scale > 1) {
			msg("--scale: invalid factor '%s' (must be > 0 and <= 1)", arg);
			return -1;
		}
		return 1;
	}
	case X_QUICK:
		b->scale = KB_QUICK_SCALE;
		return 1;
	case X_LIST:
		b->list_suites = true;
		return 1;
	case X_NO_PRECOND:
		b->no_precond = true;
		return 1;
	}
	return 0;
}

static const struct option sweep_opts[] = {
	{ "split-qd", required_argument, NULL, X_SPLIT_QD },
	{ "idle", required_argument, NULL, X_IDLE },
	{ "devices", required_argument, NULL, X_DEVICES },
	{ "csv", required_argument, NULL, X_CSV },
	{ "burst-size", required_argument, NULL, X_BURST_SIZE },
	{ "burst-total", required_argument, NULL, X_BURST_TOTAL },
	{ "duty-cycle", required_argument, NULL, X_DUTY },
	{ "burst-idle", required_argument, NULL, X_BURST_IDLE },
	{ NULL, 0, NULL, 0 },
};

static const struct option precond_opts[] = {
	{ "passes", required_argument, NULL, X_PASSES },
	{ "steady-state", no_argument, NULL, X_STEADY },
	{ "max-rounds", required_argument, NULL, X_MAX_ROUNDS },
	{ "round-size", required_argument, NULL, X_ROUND_SIZE },
	{ "fill-bs", required_argument, NULL, X_FILL_BS },
	{ "no-fill", no_argument, NULL, X_NO_FILL },
	{ "csv", required_argument, NULL, X_CSV },
	{ NULL, 0, NULL, 0 },
};

static const struct option suite_opts[] = {
	{ "scale", required_argument, NULL, X_SCALE },
	{ "quick", no_argument, NULL, X_QUICK },
	{ "list", no_argument, NULL, X_LIST },
	{ "no-precondition", no_argument, NULL, X_NO_PRECOND },
	{ "devices", required_argument, NULL, X_DEVICES },
	{ "csv", required_argument, NULL, X_CSV },
	{ NULL, 0, NULL, 0 },
};

static void usage_sweep(FILE *f)
{
	fprintf(f,
		"Usage: kiobench sweep [JOB OPTIONS] [SWEEP OPTIONS]\n"
		"One kernel job per step, sweeping one variable with the rest fixed.\n"
		"Each step ends at --runtime or --io_size, whichever comes first;\n"
		"--ramp_time is excluded from every step.\n"
		"\n"
		"  --iodepth=LIST       depths per worker (total with --split-qd),\n"
		"                       e.g. 1-16,18,20,24-64:4\n"
		"  --bs=LIST            transfer sizes, e.g. 512-1m:x2 or 4k,8k,128k\n"
		"  --numjobs=LIST       workers per device\n"
		"  --devices=LIST       the first k devices of --filename, one job each\n"
		"  --split-qd=N         --iodepth is the total depth, over up to N workers\n"
		"                       (the largest count <= N that divides it)\n"
		"  --idle=TIME          idle time between steps\n"
		"  --burst-size=SIZE    bursts: each burst is a job of SIZE bytes...\n"
		"  --burst-total=SIZE   ...until SIZE bytes in all\n"
		"  --duty-cycle=PCT     idle after each burst = busy x (100 - PCT) / PCT\n"
		"  --burst-idle=TIME    or a fixed idle time after each burst\n"
		"  --output-format=FMT  normal, json and/or csv (normal)\n"
		"  --output=FILE        write the results to FILE\n"
		"  --csv=FILE           also write the CSV rows to FILE\n"
		"  --allow-writes       allow write workloads (DESTROYS DATA)\n"
		"Other job options are those of 'kiobench run' (see its --help).\n");
}

static void usage_precondition(FILE *f)
{
	fprintf(f,
		"Usage: kiobench precondition --filename=DEV --allow-writes [OPTIONS]\n"
		"Sequential fill of the span, then random-write passes (each pass writes\n"
		"the span's size), optionally until steady state (SNIA PTS style).\n"
		"\n"
		"  --fill-bs=SIZE       transfer size of the fill (128k)\n"
		"  --no-fill            skip the sequential fill\n"
		"  --passes=N           random-write passes (2)\n"
		"  --bs=SIZE            transfer size of the passes (4k)\n"
		"  --iodepth=N          in flight per worker (32); --numjobs as 'run'\n"
		"  --size=SIZE          span (to the end of the device); --offset\n"
		"  --steady-state       rounds until steady state: the last 5 rounds' IOPS\n"
		"                       within +-20 %% of their mean and the least-squares\n"
		"                       line moving by at most 10 %% of it (at least --passes\n"
		"                       rounds, at most --max-rounds, default 25)\n"
		"  --round-size=SIZE    bytes per round (the span)\n"
		"  --output-format=FMT  normal, json and/or csv; --output=FILE, --csv=FILE\n");
}

static void usage_suite(FILE *f)
{
	fprintf(f,
		"Usage: kiobench suite --list\n"
		"       kiobench suite NAME --filename=DEV[:DEV...] [OPTIONS]\n"
		"Run a review methodology (see --list) and print its figures.\n"
		"\n"
		"  --scale=F            multiply step times, byte limits, spans and burst\n"
		"                       sizes by F (0 < F <= 1)\n"
		"  --quick              --scale=%g\n"
		"  --no-precondition    skip the suite's preconditioning\n"
		"  --allow-writes       needed by suites that write (preconditioning too)\n"
		"  --output-format=FMT  normal, json and/or csv; --output=FILE, --csv=FILE\n"
		"Job options of 'kiobench run' (--cpus_allowed, --randseed...) apply to every\n"
		"step; the suite's own parameters win over them.\n", KB_QUICK_SCALE);
}

/* ---- steps ------------------------------------------------------------------- */

static void fmt_size(char *buf, size_t len, uint64_t v)
{
	if (v && !(v % (1ULL << 30)))
		snprintf(buf, len, "%" PRIu64 "g", v >> 30);
	else if (v && !(v % (1ULL << 20)))
		snprintf(buf, len, "%" PRIu64 "m", v >> 20);
	else if (v && !(v % 1024))
		snprintf(buf, len, "%" PRIu64 "k", v >> 10);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

static int set_opt(struct bench *b, struct kb_job *job, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Apply option name=value (formatted) to job, as if given by the user. */
static int set_opt(struct bench *b, struct kb_job *job, const char *name, const char *fmt, ...)
{
	struct kb_assign a = { .opt = kb_opt_find(name) };
	char val[256], err[KB_ERRLEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	a.val = val;
	if (kb_apply(job, &b->g, &a, err, sizeof(err))) {
		msg("%s", err);
		return -1;
	}
	return 0;
}

/* Build the jobs of one step of part def with swept value x into st and r. */
static int build_step(struct bench *b, const struct part_def *def, uint64_t x,
		      struct kb_step *st, struct run *r)
{
	unsigned int k = 0, i;
	uint32_t qd = 0, workers = 0, per = 0;
	char err[KB_ERRLEN];

	if (def->var == KB_VAR_DEVICES)
		k = x;
	else if (def->devices)
		k = def->devices;
	if (k > b->tmpl.nr_devices) {
		msg("--devices: %u devices asked, --filename has %u", k, b->tmpl.nr_devices);
		return -1;
	}
	if (def->var == KB_VAR_IODEPTH)
		qd = x;
	else if (def->iodepth)
		qd = def->iodepth;
	/* without a split, the depth is per worker and numjobs is the user's */
	if (qd && def->split_qd)
		kb_split_qd(qd, def->split_qd, &workers, &per);
	r->n = k ? k : 1;
	r->rj = calloc(r->n, sizeof(*r->rj));
	if (!r->rj)
		return -1;
	for (i = 0; i < r->n; i++) {
		struct kb_job *job = &r->rj[i].job;
		size_t a;

		kb_job_init(job);
		for (a = 0; a < b->cli.n; a++)
			if (kb_apply(job, &b->g, &b->cli.v[a], err, sizeof(err))) {
				msg("%s", err);
				return -1;
			}
		if ((def->rw && set_opt(b, job, "rw", "%s", def->rw)) ||
		    (def->bs && set_opt(b, job, "bs", "%u", def->bs)) ||
		    (def->span && set_opt(b, job, "size", "%" PRIu64, def->span)) ||
		    /* a suite's step is limited by its time and io_size, not its span */
		    (def->runtime_ns && (set_opt(b, job, "runtime", "%" PRIu64 "ns",
						 def->runtime_ns) ||
					 set_opt(b, job, "time_based", "1"))) ||
		    (def->ramp_ns && set_opt(b, job, "ramp_time", "%" PRIu64 "ns",
					     def->ramp_ns)) ||
		    (def->io_size && set_opt(b, job, "io_size", "%" PRIu64, def->io_size)) ||
		    (def->burst_size && set_opt(b, job, "io_size", "%" PRIu64,
						def->burst_size)) ||
		    (qd && !def->split_qd && set_opt(b, job, "iodepth", "%u", qd)) ||
		    (qd && def->split_qd && (set_opt(b, job, "iodepth", "%u", per) ||
					     set_opt(b, job, "numjobs", "%u", workers))) ||
		    (def->var == KB_VAR_NUMJOBS && set_opt(b, job, "numjobs", "%" PRIu64, x)) ||
		    (def->var == KB_VAR_BS && set_opt(b, job, "bs", "%" PRIu64, x)) ||
		    (k && set_opt(b, job, "filename", "%s", b->tmpl.devices[i])) ||
		    set_opt(b, job, "name", "%.20s-%.10s", def->name, st->value))
			return -1;
		if (kb_job_finalize(job, err, sizeof(err))) {
			msg("%s", err);
			return -1;
		}
		if (kb_job_has_writes(job) && !b->g.allow_writes) {
			msg("rw=%s writes to %s: refusing without --allow-writes (writing "
			    "destroys the data on the device)", job->rw_str, job->devices[0]);
			return -1;
		}
	}
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

static void free_run(struct run *r)
{
	size_t i;

	for (i = 0; r->rj && i < r->n; i++)
		kb_job_free(&r->rj[i].job);
	free(r->rj);
	r->rj = NULL;
}

/* ---- JSON -------------------------------------------------------------------- */

static struct json_object *jd(double v)
{
	char buf[64];

	if (!isfinite(v))
		v = 0;
	snprintf(buf, sizeof(buf), "%.3f", v);
	return json_object_new_double_s(v, buf);
}

#define JU(v) json_object_new_uint64(v)
#define JS(v) json_object_new_string(v)
#define JADD(o, k, v) json_object_object_add(o, k, v)

static struct json_object *sum_json(const struct kb_sum *s)
{
	struct json_object *o = json_object_new_object(), *l = json_object_new_object();
	static const char *const pk[KB_SUM_NR_PCT] = {
		"p50", "p99", "p99.9", "p99.99", "p99.999" };
	int i;

	JADD(o, "ios", JU(s->ios));
	JADD(o, "bytes", JU(s->bytes));
	JADD(o, "all_ios", JU(s->all_ios));
	JADD(o, "all_bytes", JU(s->all_bytes));
	JADD(o, "errors", JU(s->errors));
	JADD(o, "measured_ns", JU(s->measured_ns));
	JADD(o, "iops", jd(s->iops));
	JADD(o, "bw_bytes", jd(s->bw));
	JADD(o, "mb_s", jd(s->bw / 1e6));
	JADD(l, "mean", jd(s->ios ? s->mean : 0));
	JADD(l, "min", JU(s->min));
	JADD(l, "max", JU(s->max));
	for (i = 0; i < KB_SUM_NR_PCT; i++)
		JADD(l, pk[i], s->has_pct ? JU(s->pct[i]) : NULL);
	JADD(o, "lat_ns", l);
	JADD(o, "samples", JU(s->samples));
	return o;
}

static struct json_object *step_json(const struct kb_step *st, const struct run *r)
{
	struct json_object *o = json_object_new_object(), *c = json_object_new_object();
	struct json_object *jobs = json_object_new_array(), *devs = json_object_new_array();
	const struct kb_job *j = &r->rj[0].job;
	size_t i;
	unsigned int k;
	int d;

	JADD(o, "index", JU(st->index));
	JADD(o, "variable", JS(kb_var_names[st->var]));
	JADD(o, "value", JS(st->value));
	JADD(o, "x", JU(st->x));
	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->rj[i].job.nr_devices; k++)
			json_object_array_add(devs, JS(r->rj[i].job.devices[k]));
	JADD(c, "rw", JS(j->rw_str));
	JADD(c, "bs", JU(st->bs));
	JADD(c, "iodepth", JU(st->iodepth));
	JADD(c, "numjobs", JU(st->numjobs));
	JADD(c, "total_qd", JU(st->qd));
	JADD(c, "devices", devs);
	JADD(c, "jobs", JU(r->n));
	JADD(c, "runtime_ns", JU(kb_job_isset(j, KB_OPT_RUNTIME) ? j->runtime_ns : 0));
	JADD(c, "ramp_ns", JU(j->ramp_ns));
	JADD(c, "io_size", JU(kb_job_io_bytes(j)));
	JADD(c, "size", JU(j->size));
	JADD(c, "offset", JU(j->offset));
	JADD(o, "config", c);
	JADD(o, "busy_ns", JU(st->busy_ns));
	JADD(o, "idle_ns", JU(st->idle_ns));
	for (d = 0; d < KIOBENCH_NR_DIRS; d++)
		JADD(o, d ? "write" : "read", sum_json(&st->sum[d]));
	JADD(o, "sensors", kb_json_sensors(st->res, st->nr_res,
					   st->sum[0].iops + st->sum[1].iops,
					   st->sum[0].bw + st->sum[1].bw));
	for (i = 0; st->res && i < st->nr_res; i++)
		json_object_array_add(jobs, kb_json_job(&st->res[i]));
	JADD(o, "jobs", jobs);
	return o;
}

/* ---- parts ------------------------------------------------------------------- */

struct part_run {
	const struct part_def *def;
	struct kb_step *steps;
	size_t n;
	struct json_object *json;	/* the part's object */
	struct json_object *steps_json;
	struct json_object *figures;
	uint64_t busy_ns, idle_ns;
};

static const char *dir_of(const struct kb_step *st)
{
	/* the direction a step's figures are about: write if it only wrote */
	return st->sum[KIOBENCH_DIR_READ].ios || !st->sum[KIOBENCH_DIR_WRITE].ios ?
	       "read" : "write";
}

static const struct kb_sum *main_sum(const struct kb_step *st)
{
	return &st->sum[strcmp(dir_of(st), "read") ? KIOBENCH_DIR_WRITE : KIOBENCH_DIR_READ];
}

/*
 * Run part def: its steps in order, table rows and CSV rows as each ends.
 * stop (may be NULL) is asked after each step whether to end early.
 * Returns 0 or an exit code; pr holds the steps that ran.
 */
static int run_part(struct bench *b, const struct part_def *def, struct part_run *pr,
		    bool (*stop)(struct bench *b, struct part_run *pr))
{
	uint64_t *vals = NULL, prev_end = 0, busy_sum = 0, idle_sum = 0, zero;
	unsigned int nr = 0, i;
	bool zero_warned = false;
	char err[KB_ERRLEN];
	int ret = 0, d;

	memset(pr, 0, sizeof(*pr));
	pr->def = def;
	if (def->burst_size) {
		uint64_t n = (def->burst_total + def->burst_size - 1) / def->burst_size;

		if (!n || n > 100000) {
			msg("--burst-total: %" PRIu64 " bursts (must be 1..100000)", n);
			return KB_EXIT_USAGE;
		}
		nr = n;
		vals = calloc(nr, sizeof(*vals));
		for (i = 0; vals && i < nr; i++)
			vals[i] = i + 1;
	} else if (def->values) {
		bool sizes = def->var == KB_VAR_BS;

		if (kb_parse_value_list(def->values, sizes, 1, sizes ? UINT32_MAX : 1u << 24,
					&vals, &nr, err, sizeof(err))) {
			msg("--%s: %s", kb_var_names[def->var], err);
			return KB_EXIT_USAGE;
		}
	} else {
		nr = 1;
		vals = calloc(1, sizeof(*vals));
	}
	pr->steps = calloc(nr, sizeof(*pr->steps));
	if (!vals || !pr->steps) {
		free(vals);
		msg("out of memory");
		return KB_EXIT_SYSTEM;
	}
	/* every step's jobs are checked before the first one runs */
	for (i = 0; i < nr; i++) {
		struct kb_step st = { .var = def->var };
		struct run r = { 0 };
		int bad;

		snprintf(st.value, sizeof(st.value), "%" PRIu64, vals[i]);
		bad = build_step(b, def, vals[i], &st, &r);
		free_run(&r);
		if (bad) {
			free(vals);
			return KB_EXIT_USAGE;
		}
	}
	pr->json = json_object_new_object();
	pr->steps_json = json_object_new_array();
	pr->figures = json_object_new_object();
	JADD(pr->json, "name", JS(def->name));
	JADD(pr->json, "title", JS(def->title ? def->title : def->name));
	JADD(pr->json, "variable", JS(kb_var_names[def->var]));
	JADD(pr->json, "steps", pr->steps_json);
	JADD(pr->json, "figures", pr->figures);

	for (i = 0; i < nr && !got_signal; i++) {
		struct kb_step *st = &pr->steps[i];
		uint64_t start_at = 0, t0 = 0, t1 = 0;
		struct run r = { 0 };
		size_t k;
		int rret;

		st->index = i;
		st->var = def->var;
		st->x = vals[i];
		if (def->var == KB_VAR_BS)
			fmt_size(st->value, sizeof(st->value), vals[i]);
		else if (def->var == KB_VAR_NONE)
			snprintf(st->value, sizeof(st->value), "-");
		else
			snprintf(st->value, sizeof(st->value), "%" PRIu64, vals[i]);
		if (build_step(b, def, vals[i], st, &r)) {
			free_run(&r);
			ret = KB_EXIT_USAGE;
			break;
		}
		if (def->burst_size && i == nr - 1 && def->burst_total % def->burst_size) {
			/* the last burst carries the rest of the total */
			for (k = 0; k < r.n; k++)
				r.rj[k].job.io_size = def->burst_total % def->burst_size;
		}
		if (i && prev_end) {
			uint64_t idle = def->idle_ns;

			if (def->burst_size)
				idle = def->duty ? kb_duty_idle_ns(pr->steps[i - 1].busy_ns,
								   def->duty) :
				       def->burst_idle_ns;
			start_at = prev_end + idle;
		}
		rret = run_jobs(&r, false, start_at, &st->res, &t0, &t1);
		if (!st->res) {
			free_run(&r);
			/* a signal during the idle time: the steps so far are the result */
			ret = got_signal ? 0 : rret;
			break;
		}
		st->nr_res = r.n;
		st->busy_ns = t1 - t0;
		if (i) {
			pr->steps[i - 1].idle_ns = t0 - prev_end;
			idle_sum += t0 - prev_end;
			JADD(json_object_array_get_idx(pr->steps_json, i - 1), "idle_ns",
			     JU(t0 - prev_end));
		}
		busy_sum += st->busy_ns;
		prev_end = t1;
		pr->n = i + 1;
		for (d = 0; d < KIOBENCH_NR_DIRS; d++)
			kb_summarize(st->res, st->nr_res, d, false, &st->sum[d]);
		for (k = 0, zero = 0; k < st->nr_res; k++)
			zero += st->res[k].st.zero_reads;
		if (zero && !zero_warned) {
			msg("warning: %s, %s=%s: %" PRIu64 " of %" PRIu64 " " KB_ZERO_READS_WARNING,
			    def->name, kb_var_names[def->var], st->value, zero,
			    st->sum[KIOBENCH_DIR_READ].ios);
			zero_warned = true;
		}
		if ((b->formats & KB_FMT_NORMAL) && !i) {
			fprintf(b->out, "\n== %s%s%s ==\n", def->name, def->title ? ": " : "",
				def->title ? def->title : "");
			kb_table_header(b->out, kb_var_names[def->var]);
		}
		for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
			if (!st->sum[d].present)
				continue;
			if (b->formats & KB_FMT_NORMAL)
				kb_table_row(b->out, st->value, d, &st->sum[d]);
			if (b->csv)
				kb_csv_row(b->csv, def->name, st, NULL, d, &st->sum[d]);
		}
		/* jobs side by side: each device under the aggregate */
		for (k = 0; st->nr_res > 1 && k < st->nr_res; k++) {
			const char *dev = r.rj[k].job.devices[0];
			const char *base = strrchr(dev, '/');
			char label[32];

			snprintf(label, sizeof(label), " %.9s", base ? base + 1 : dev);
			for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
				struct kb_sum one;

				kb_summarize(&st->res[k], 1, d, false, &one);
				if (!one.present)
					continue;
				if (b->formats & KB_FMT_NORMAL)
					kb_table_row(b->out, label, d, &one);
				if (b->csv)
					kb_csv_row(b->csv, def->name, st, dev, d, &one);
			}
		}
		if (b->formats & KB_FMT_NORMAL)
			fflush(b->out);
		if (b->csv)
			fflush(b->csv);
		json_object_array_add(pr->steps_json, step_json(st, &r));
		free_run(&r);
		if (rret) {
			ret = rret;
			break;
		}
		if (stop && stop(b, pr))
			break;
	}
	/* the idle after the last burst completes its period */
	if (def->burst_size && pr->n && !ret && !got_signal) {
		struct kb_step *st = &pr->steps[pr->n - 1];
		uint64_t idle = def->duty ? kb_duty_idle_ns(st->busy_ns, def->duty) :
			def->burst_idle_ns;

		sleep_until(prev_end + idle);
		st->idle_ns = now_ns() - prev_end;
		idle_sum += st->idle_ns;
		JADD(json_object_array_get_idx(pr->steps_json, pr->n - 1), "idle_ns",
		     JU(st->idle_ns));
	}
	if (got_signal)
		b->interrupted = true;
	pr->busy_ns = busy_sum;
	pr->idle_ns = idle_sum;
	free(vals);
	return ret;
}

static void free_part(struct part_run *pr)
{
	size_t i;

	for (i = 0; pr->steps && i < pr->n; i++)
		free_results(pr->steps[i].res, pr->steps[i].nr_res);
	free(pr->steps);
	pr->steps = NULL;
}

/* ---- figures ------------------------------------------------------------------ */

static void fig(struct bench *b, struct part_run *pr, const char *key,
		struct json_object *v, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Record figure key in the part's JSON and print it. */
static void fig(struct bench *b, struct part_run *pr, const char *key,
		struct json_object *v, const char *fmt, ...)
{
	va_list ap;

	JADD(pr->figures, key, v);
	if (!(b->formats & KB_FMT_NORMAL))
		return;
	fputs("  ", b->out);
	va_start(ap, fmt);
	vfprintf(b->out, fmt, ap);
	va_end(ap);
	fputc('\n', b->out);
}

static const struct kb_step *step_at(const struct part_run *pr, uint64_t x)
{
	size_t i;

	for (i = 0; i < pr->n; i++)
		if (pr->steps[i].x == x)
			return &pr->steps[i];
	return NULL;
}

static void figures(struct bench *b, struct part_run *pr)
{
	unsigned int f = pr->def->figs;
	size_t i;
	int d;

	if (!pr->n)
		return;
	if (f & FIG_SCORE_QD124) {
		double mb = 0, iops = 0;
		int n = 0;
		uint64_t q;

		for (q = 1; q <= 4; q *= 2) {
			const struct kb_step *st = step_at(pr, q);

			if (st) {
				mb += main_sum(st)->bw / 1e6;
				iops += main_sum(st)->iops;
				n++;
			}
		}
		if (n == 3) {
			struct json_object *o = json_object_new_object();

			JADD(o, "mb_s", jd(mb / 3));
			JADD(o, "iops", jd(iops / 3));
			fig(b, pr, "score_qd1_2_4", o,
			    "score (average of QD1, QD2, QD4): %.1f MB/s, %.0f IOPS", mb / 3,
			    iops / 3);
		}
	}
	if (f & FIG_MAX_LAT) {
		struct json_object *a = json_object_new_array();
		double avg = 0;

		for (i = 0; i < pr->n; i++) {
			struct json_object *o = json_object_new_object();

			JADD(o, "x", JU(pr->steps[i].x));
			JADD(o, "max_ns", JU(main_sum(&pr->steps[i])->max));
			json_object_array_add(a, o);
			avg += main_sum(&pr->steps[i])->max;
		}
		JADD(pr->figures, "max_latency", a);
		fig(b, pr, "average_of_max_latency_ns", jd(avg / pr->n),
		    "average of the maximum latencies over %zu steps: %.1f us", pr->n,
		    avg / pr->n / 1000);
	}
	if (f & FIG_LAT_AT) {
		static const uint64_t at[] = { 32, 128 };

		for (i = 0; i < 2; i++) {
			const struct kb_step *st = step_at(pr, at[i]);
			char key[32];

			if (!st)
				continue;
			snprintf(key, sizeof(key), "mean_latency_ns_qd%" PRIu64, at[i]);
			fig(b, pr, key, jd(main_sum(st)->mean), "average latency at QD%" PRIu64
			    ": %.1f us", at[i], main_sum(st)->mean / 1000);
		}
	}
	if (f & FIG_SATURATION) {
		double *iops = calloc(pr->n, sizeof(double)), *lat = calloc(pr->n, sizeof(double));
		int s;

		if (iops && lat) {
			for (i = 0; i < pr->n; i++) {
				iops[i] = main_sum(&pr->steps[i])->iops;
				lat[i] = main_sum(&pr->steps[i])->mean;
			}
			s = kb_saturation(iops, lat, pr->n, 5);
			if (s >= 0)
				fig(b, pr, "saturation", JS(pr->steps[s].value),
				    "saturation at %s=%s: %.0f IOPS; beyond it IOPS grows <= 5 %% "
				    "while latency grows", kb_var_names[pr->def->var],
				    pr->steps[s].value, iops[s]);
			else
				fig(b, pr, "saturation", NULL, "no saturation point in the sweep");
		}
		free(iops);
		free(lat);
	}
	if (f & FIG_SCALING) {
		const struct kb_step *one = step_at(pr, 1);

		for (i = 0; i < pr->n; i++) {
			const struct kb_sum *s = main_sum(&pr->steps[i]);
			char key[80];

			snprintf(key, sizeof(key), "mb_s_%s_%s", kb_var_names[pr->def->var],
				 pr->steps[i].value);
			fig(b, pr, key, jd(s->bw / 1e6), "%s=%s: %.1f MB/s%s", kb_var_names[pr->def->var],
			    pr->steps[i].value, s->bw / 1e6, "");
			if (one && main_sum(one)->bw > 0 && pr->steps[i].x > 1) {
				double pct = 100 * s->bw / (main_sum(one)->bw * pr->steps[i].x);

				snprintf(key, sizeof(key), "linear_scaling_pct_%s_%s",
					 kb_var_names[pr->def->var], pr->steps[i].value);
				fig(b, pr, key, jd(pct), "%s=%s: %.0f %% of linear scaling",
				    kb_var_names[pr->def->var], pr->steps[i].value, pct);
			}
		}
	}
	if (pr->def->burst_size) {
		struct kb_result *all;
		size_t n = 0, k;
		struct json_object *agg = json_object_new_object();

		for (i = 0; i < pr->n; i++)
			n += pr->steps[i].nr_res;
		all = calloc(n ? n : 1, sizeof(*all));
		for (i = 0, n = 0; all && i < pr->n; i++)
			for (k = 0; k < pr->steps[i].nr_res; k++)
				all[n++] = pr->steps[i].res[k];
		for (d = 0; all && d < KIOBENCH_NR_DIRS; d++) {
			struct kb_sum s;

			kb_summarize(all, n, d, true, &s);
			if (!s.present)
				continue;
			JADD(agg, d ? "write" : "read", sum_json(&s));
			if (b->formats & KB_FMT_NORMAL)
				kb_table_row(b->out, "all", d, &s);
			if (b->csv) {
				struct kb_step t = { .index = pr->n, .var = pr->def->var,
						     .iodepth = pr->steps[0].iodepth,
						     .numjobs = pr->steps[0].numjobs,
						     .bs = pr->steps[0].bs,
						     .nr_devices = pr->steps[0].nr_devices,
						     .busy_ns = pr->busy_ns, .idle_ns = pr->idle_ns };

				strcpy(t.value, "all");
				kb_csv_row(b->csv, pr->def->name, &t, NULL, d, &s);
			}
		}
		free(all);
		JADD(pr->json, "aggregate", agg);
		JADD(pr->figures, "busy_ns", JU(pr->busy_ns));
		JADD(pr->figures, "idle_ns", JU(pr->idle_ns));
		if (pr->def->duty)
			JADD(pr->figures, "duty_cycle_asked", JU(pr->def->duty));
		char asked[32] = "a fixed idle time";

		if (pr->def->duty)
			snprintf(asked, sizeof(asked), "%u %%", pr->def->duty);
		fig(b, pr, "duty_cycle", jd(kb_duty_cycle(pr->busy_ns, pr->idle_ns)),
		    "%zu bursts: busy %.3f s, idle %.3f s, duty cycle %.2f %% (asked: %s)",
		    pr->n, pr->busy_ns / 1e9, pr->idle_ns / 1e9,
		    kb_duty_cycle(pr->busy_ns, pr->idle_ns), asked);
		if (pr->def->duty &&
		    fabs(kb_duty_cycle(pr->busy_ns, pr->idle_ns) / pr->def->duty - 1) > 0.05)
			msg("note: %s: achieved duty cycle %.2f %% is not the asked %u %%: the "
			    "bursts (%.1f ms on average) are too short next to the tool's "
			    "per-burst overhead; use larger bursts", pr->def->name,
			    kb_duty_cycle(pr->busy_ns, pr->idle_ns), pr->def->duty,
			    pr->busy_ns / 1e6 / pr->n);
	}
}

/* ---- common driver ------------------------------------------------------------ */

static int bench_init(struct bench *b, int argc, char **argv, const struct option *extra,
		      void (*usage)(FILE *), bool need_dev)
{
	struct option *lo = build_longopts(extra);
	char err[KB_ERRLEN];
	size_t i;
	int ret;

	b->formats = KB_FMT_NORMAL;
	b->out = stdout;
	kb_job_init(&b->tmpl);
	if (!lo) {
		msg("out of memory");
		return KB_EXIT_SYSTEM;
	}
	ret = parse_cli(argc, argv, lo, usage, &b->tmpl, &b->g, &b->cli, hook, b);
	free_longopts(lo);
	if (ret >= 0)
		return ret;
	if (b->list_suites)
		return -1;
	kb_job_free(&b->tmpl);
	kb_job_init(&b->tmpl);
	for (i = 0; i < b->cli.n; i++)
		kb_apply(&b->tmpl, &b->g, &b->cli.v[i], err, sizeof(err));
	if (need_dev && kb_job_finalize(&b->tmpl, err, sizeof(err))) {
		msg("%s", err);
		return KB_EXIT_USAGE;
	}
	return -1;
}

static int open_outputs(struct bench *b)
{
	if (b->g.output) {
		b->out = fopen(b->g.output, "w");
		if (!b->out) {
			msg("--output: %s: %s", b->g.output, strerror(errno));
			b->out = stdout;
			return KB_EXIT_SYSTEM;
		}
	}
	if (b->csv_path) {
		b->csv = fopen(b->csv_path, "w");
		if (!b->csv) {
			msg("--csv: %s: %s", b->csv_path, strerror(errno));
			return KB_EXIT_SYSTEM;
		}
	} else if (b->formats & KB_FMT_CSV) {
		b->csv = b->out;
	}
	if (b->csv)
		kb_csv_header(b->csv);
	b->parts = json_object_new_array();
	install_signals();
	return 0;
}

static int bench_finish(struct bench *b, const char *command, const char *suite,
			struct json_object *extra, int ret)
{
	if ((b->formats & KB_FMT_JSON) && b->parts) {
		struct json_object *root = json_object_new_object();
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		JADD(root, "kiobench", JS(KB_TOOL_VERSION));
		JADD(root, "command", JS(command));
		JADD(root, "suite", suite ? JS(suite) : NULL);
		JADD(root, "scale", jd(b->scale ? b->scale : 1));
		JADD(root, "timestamp", json_object_new_int64(ts.tv_sec));
		JADD(root, "interrupted", json_object_new_boolean(b->interrupted));
		if (extra)
			JADD(root, "precondition", extra);
		JADD(root, "parts", json_object_get(b->parts));
		fprintf(b->out, "%s\n", json_object_to_json_string_ext(root,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
	} else if (extra) {
		json_object_put(extra);
	}
	if (b->interrupted)
		msg("stopped by user: the results above are partial");
	if (b->out && (fflush(b->out) || ferror(b->out)) && !ret) {
		msg("%s: %s", b->g.output ? b->g.output : "stdout", strerror(errno));
		ret = KB_EXIT_SYSTEM;
	}
	if (b->csv && b->csv != b->out && fclose(b->csv) && !ret) {
		msg("%s: %s", b->csv_path, strerror(errno));
		ret = KB_EXIT_SYSTEM;
	}
	if (b->out && b->out != stdout && fclose(b->out) && !ret) {
		msg("%s: %s", b->g.output, strerror(errno));
		ret = KB_EXIT_SYSTEM;
	}
	json_object_put(b->parts);
	kb_job_free(&b->tmpl);
	kb_assign_list_free(&b->cli);
	kb_global_free(&b->g);
	free(b->csv_path);
	for (int v = 0; v < KB_VAR_NR; v++)
		free(b->list[v]);
	return ret;
}

/* Run one part, add it to the document, print its figures. */
static int do_part(struct bench *b, const struct part_def *def,
		   bool (*stop)(struct bench *b, struct part_run *pr), struct part_run *keep)
{
	struct part_run pr;
	int ret = run_part(b, def, &pr, stop);

	if (pr.json) {
		figures(b, &pr);
		json_object_array_add(b->parts, pr.json);
	}
	if (keep)
		*keep = pr;
	else
		free_part(&pr);
	return ret;
}

/* ---- sweep -------------------------------------------------------------------- */

int cmd_sweep(int argc, char **argv)
{
	struct bench b = { 0 };
	struct part_def *def = &b.def;
	enum kb_var v;
	int ret;

	ret = bench_init(&b, argc, argv, sweep_opts, usage_sweep, true);
	if (ret >= 0)
		return bench_finish(&b, "sweep", NULL, NULL, ret);
	ret = KB_EXIT_USAGE;
	if (optind < argc) {
		msg("sweep: unexpected argument '%s'", argv[optind]);
		return bench_finish(&b, "sweep", NULL, NULL, ret);
	}
	def->name = "sweep";
	/* the variable: the one list of more than one value, else a fixed value */
	for (v = KB_VAR_IODEPTH; v <= KB_VAR_DEVICES; v++) {
		if (!b.list[v])
			continue;
		if (strpbrk(b.list[v], ",-") || def->var == KB_VAR_NONE) {
			if (def->var != KB_VAR_NONE && strpbrk(b.list[def->var], ",-")) {
				msg("--%s and --%s: sweep one variable at a time",
				    kb_var_names[def->var], kb_var_names[v]);
				return bench_finish(&b, "sweep", NULL, NULL, ret);
			}
			if (def->var != KB_VAR_NONE && !strpbrk(b.list[v], ",-"))
				continue;
			def->var = v;
			def->values = b.list[v];
		}
	}
	/* the fixed ones */
	for (v = KB_VAR_IODEPTH; v <= KB_VAR_DEVICES; v++) {
		uint64_t *vals, x;
		unsigned int n;
		char err[KB_ERRLEN];

		if (!b.list[v] || v == def->var)
			continue;
		if (kb_parse_value_list(b.list[v], v == KB_VAR_BS, 1,
					v == KB_VAR_BS ? UINT32_MAX : 1u << 24, &vals, &n,
					err, sizeof(err))) {
			msg("--%s: %s", kb_var_names[v], err);
			return bench_finish(&b, "sweep", NULL, NULL, ret);
		}
		x = vals[0];
		free(vals);
		if (v == KB_VAR_IODEPTH)
			def->iodepth = x;
		else if (v == KB_VAR_BS)
			def->bs = x;
		else if (v == KB_VAR_DEVICES)
			def->devices = x;
		else if (set_opt(&b, &b.tmpl, "numjobs", "%" PRIu64, x) ||
			 kb_assign_add(&b.cli, kb_opt_find("numjobs"), b.list[v], NULL, 0))
			return bench_finish(&b, "sweep", NULL, NULL, ret);
	}
	if (def->split_qd && def->var != KB_VAR_IODEPTH && !def->iodepth) {
		msg("--split-qd: needs --iodepth (the total depth)");
		return bench_finish(&b, "sweep", NULL, NULL, ret);
	}
	if (def->split_qd && (b.list[KB_VAR_NUMJOBS])) {
		msg("--split-qd: chooses the workers itself; drop --numjobs");
		return bench_finish(&b, "sweep", NULL, NULL, ret);
	}
	if (def->burst_size || def->burst_total || def->duty || def->burst_idle_ns) {
		if (!def->burst_size || !def->burst_total) {
			msg("--burst-size and --burst-total go together");
			return bench_finish(&b, "sweep", NULL, NULL, ret);
		}
		if (def->duty && def->burst_idle_ns) {
			msg("--duty-cycle and --burst-idle: one or the other");
			return bench_finish(&b, "sweep", NULL, NULL, ret);
		}
		if (def->var != KB_VAR_NONE) {
			msg("--burst-size: bursts repeat one workload; --%s has a list",
			    kb_var_names[def->var]);
			return bench_finish(&b, "sweep", NULL, NULL, ret);
		}
		if (kb_job_isset(&b.tmpl, KB_OPT_IO_SIZE) || kb_job_isset(&b.tmpl, KB_OPT_NUMBER_IOS)) {
			msg("--burst-size: sets each burst's io_size; drop --io_size/--number_ios");
			return bench_finish(&b, "sweep", NULL, NULL, ret);
		}
		def->var = KB_VAR_BURST;
		def->name = "burst";
	}
	if (def->var == KB_VAR_NONE && !def->devices) {
		msg("sweep: nothing to sweep (give a list to --iodepth, --bs, --numjobs or "
		    "--devices, or --burst-size)");
		return bench_finish(&b, "sweep", NULL, NULL, ret);
	}
	ret = open_outputs(&b);
	if (!ret)
		ret = do_part(&b, def, NULL, NULL);
	return bench_finish(&b, "sweep", NULL, NULL, ret);
}

/* ---- precondition -------------------------------------------------------------- */

/* Smallest span of the devices (from offset), via BLKGETSIZE64 on a read-only open. */
static int device_span(const struct kb_job *job, uint64_t *span)
{
	unsigned int i;

	*span = UINT64_MAX;
	for (i = 0; i < job->nr_devices; i++) {
		uint64_t sz = 0;
		int fd = open(job->devices[i], O_RDONLY | O_CLOEXEC);

		if (fd < 0 || ioctl(fd, BLKGETSIZE64, &sz)) {
			msg("%s: %s", job->devices[i], strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
		if (sz <= job->offset) {
			msg("--offset: %" PRIu64 " is beyond the end of %s (%" PRIu64 " bytes)",
			    job->offset, job->devices[i], sz);
			return -1;
		}
		if (sz - job->offset < *span)
			*span = sz - job->offset;
	}
	if (kb_job_isset(job, KB_OPT_SIZE) && job->size < *span)
		*span = job->size;
	return 0;
}

static bool steady_stop(struct bench *b, struct part_run *pr)
{
	double *y;
	struct kb_ss ss;
	size_t i;
	bool reached;

	if (!b->pre.steady || pr->n < KB_SS_WINDOW || pr->n < b->pre.passes)
		return false;
	y = calloc(pr->n, sizeof(*y));
	if (!y)
		return false;
	for (i = 0; i < pr->n; i++)
		y[i] = pr->steps[i].sum[KIOBENCH_DIR_WRITE].iops;
	reached = kb_steady_state(y, pr->n, KB_SS_WINDOW, 20, 10, &ss);
	free(y);
	return reached;
}

/*
 * Preconditioning of pre over the template job's devices: two parts added
 * to b->parts; *info gets the JSON summary (bytes written, steady state).
 */
static int precondition(struct bench *b, const struct precond_def *pre,
			struct json_object **info)
{
	struct part_def fill = { 0 }, rnd = { 0 };
	struct part_run pr = { 0 };
	struct json_object *o = json_object_new_object();
	uint64_t span, written = 0, fill_bytes = 0;
	char values[32];
	unsigned int rounds = pre->steady ? pre->max_rounds : pre->passes;
	size_t i;
	int ret;

	*info = o;
	if (device_span(&b->tmpl, &span))
		return KB_EXIT_SYSTEM;
	if (pre->span && pre->span < span)
		span = pre->span;
	span -= span % 4096;
	JADD(o, "span", JU(span));
	if (!pre->no_fill) {
		fill.name = "fill";
		fill.title = "sequential fill of the span";
		fill.rw = "write";
		fill.bs = pre->fill_bs ? pre->fill_bs : 128 * 1024;
		fill.iodepth = pre->iodepth;
		fill.span = span;
		/* io_size counts every device of the job: the span of each */
		fill.io_size = span * b->tmpl.nr_devices;
		ret = do_part(b, &fill, NULL, &pr);
		for (i = 0; i < pr.n; i++)
			fill_bytes += pr.steps[i].sum[KIOBENCH_DIR_WRITE].all_bytes;
		free_part(&pr);
		JADD(o, "fill_bytes", JU(fill_bytes));
		written += fill_bytes;
		if (ret || got_signal)
			return ret;
	}
	if (rounds) {
		uint64_t rbytes = 0;

		snprintf(values, sizeof(values), "1-%u", rounds);
		rnd.name = "random";
		rnd.title = pre->steady ? "random-write rounds until steady state" :
			"random-write passes";
		rnd.rw = "randwrite";
		rnd.bs = pre->bs ? pre->bs : 4096;
		rnd.iodepth = pre->iodepth;
		rnd.span = span;
		rnd.io_size = (pre->round_size ? pre->round_size : span) * b->tmpl.nr_devices;
		rnd.var = KB_VAR_ROUND;
		rnd.values = values;
		ret = do_part(b, &rnd, steady_stop, &pr);
		for (i = 0; i < pr.n; i++)
			rbytes += pr.steps[i].sum[KIOBENCH_DIR_WRITE].all_bytes;
		JADD(o, "rounds", JU(pr.n));
		JADD(o, "round_bytes", JU(rbytes));
		written += rbytes;
		if (pre->steady) {
			struct json_object *s = json_object_new_object();
			double *y = calloc(pr.n + 1, sizeof(*y));
			struct kb_ss ss = { 0 };

			for (i = 0; y && i < pr.n; i++)
				y[i] = pr.steps[i].sum[KIOBENCH_DIR_WRITE].iops;
			if (y)
				kb_steady_state(y, pr.n, KB_SS_WINDOW, 20, 10, &ss);
			free(y);
			JADD(s, "reached", json_object_new_boolean(ss.reached));
			JADD(s, "rounds", JU(pr.n));
			JADD(s, "window", JU(KB_SS_WINDOW));
			JADD(s, "mean_iops", jd(ss.mean));
			JADD(s, "max_deviation_pct", jd(ss.mean > 0 ? 100 * ss.max_dev / ss.mean : 0));
			JADD(s, "slope_iops_per_round", jd(ss.slope));
			JADD(s, "excursion_pct", jd(ss.mean > 0 ? 100 * ss.excursion / ss.mean : 0));
			JADD(o, "steady_state", s);
			if (b->formats & KB_FMT_NORMAL) {
				if (pr.n < KB_SS_WINDOW)
					fprintf(b->out, "  steady state: not checked (%zu rounds, "
						"the window is %d)\n", pr.n, KB_SS_WINDOW);
				else
					fprintf(b->out, "  steady state: %s after %zu rounds (last %d: "
						"mean %.0f IOPS, max deviation %.1f %% <= 20 %%: %s, "
						"fit excursion %.1f %% <= 10 %%: %s)\n",
						ss.reached ? "REACHED" : "NOT reached", pr.n,
						KB_SS_WINDOW, ss.mean, 100 * ss.max_dev / ss.mean,
						ss.data_ok ? "yes" : "no",
						100 * ss.excursion / ss.mean, ss.slope_ok ? "yes" : "no");
			}
		}
		free_part(&pr);
	}
	JADD(o, "written_bytes", JU(written));
	if (b->formats & KB_FMT_NORMAL)
		fprintf(b->out, "  preconditioning wrote %" PRIu64 " bytes (span %" PRIu64
			" on each of %u device%s)\n", written, span, b->tmpl.nr_devices,
			b->tmpl.nr_devices > 1 ? "s" : "");
	return ret;
}

int cmd_precondition(int argc, char **argv)
{
	struct bench b = { 0 };
	struct json_object *info = NULL;
	uint64_t *vals;
	unsigned int n;
	char err[KB_ERRLEN];
	int ret;

	b.pre.passes = 2;
	b.pre.max_rounds = 25;
	b.pre.iodepth = 32;
	ret = bench_init(&b, argc, argv, precond_opts, usage_precondition, true);
	if (ret >= 0)
		return bench_finish(&b, "precondition", NULL, NULL, ret);
	ret = KB_EXIT_USAGE;
	if (optind < argc) {
		msg("precondition: unexpected argument '%s'", argv[optind]);
		return bench_finish(&b, "precondition", NULL, NULL, ret);
	}
	if (!b.g.allow_writes) {
		msg("precondition writes the whole span of %s: refusing without --allow-writes "
		    "(writing destroys the data on the device)", b.tmpl.devices[0]);
		return bench_finish(&b, "precondition", NULL, NULL, ret);
	}
	if (b.list[KB_VAR_DEVICES]) {
		msg("--devices: not an option of precondition");
		return bench_finish(&b, "precondition", NULL, NULL, ret);
	}
	if (b.list[KB_VAR_IODEPTH] || b.list[KB_VAR_BS]) {
		enum kb_var v = b.list[KB_VAR_IODEPTH] ? KB_VAR_IODEPTH : KB_VAR_BS;

		if (kb_parse_value_list(b.list[v], v == KB_VAR_BS, 1, UINT32_MAX, &vals, &n,
					err, sizeof(err)) || n != 1) {
			msg("--%s: %s", kb_var_names[v], n != 1 ? "one value" : err);
			return bench_finish(&b, "precondition", NULL, NULL, ret);
		}
		if (v == KB_VAR_BS)
			b.pre.bs = vals[0];
		else
			b.pre.iodepth = vals[0];
		free(vals);
		if (b.list[KB_VAR_IODEPTH] && b.list[KB_VAR_BS]) {
			if (kb_parse_value_list(b.list[KB_VAR_BS], true, 512, UINT32_MAX, &vals,
						&n, err, sizeof(err)) || n != 1) {
				msg("--bs: one value");
				return bench_finish(&b, "precondition", NULL, NULL, ret);
			}
			b.pre.bs = vals[0];
			free(vals);
		}
	}
	if (b.list[KB_VAR_NUMJOBS]) {
		if (kb_parse_value_list(b.list[KB_VAR_NUMJOBS], false, 1, UINT32_MAX, &vals, &n,
					err, sizeof(err)) || n != 1) {
			msg("--numjobs: %s", n != 1 ? "one value" : err);
			return bench_finish(&b, "precondition", NULL, NULL, ret);
		}
		free(vals);
		if (kb_assign_add(&b.cli, kb_opt_find("numjobs"), b.list[KB_VAR_NUMJOBS], NULL, 0))
			return bench_finish(&b, "precondition", NULL, NULL, KB_EXIT_SYSTEM);
	}
	if (b.pre.steady && b.pre.passes > b.pre.max_rounds)
		b.pre.max_rounds = b.pre.passes;
	if (!b.pre.passes && b.pre.no_fill && !b.pre.steady) {
		msg("--passes: 0 with --no-fill does nothing");
		return bench_finish(&b, "precondition", NULL, NULL, ret);
	}
	ret = open_outputs(&b);
	if (!ret)
		ret = precondition(&b, &b.pre, &info);
	return bench_finish(&b, "precondition", NULL, info, ret);
}

/* ---- suites ------------------------------------------------------------------ */

static uint64_t scaled(uint64_t v, double f, uint64_t unit, uint64_t min)
{
	uint64_t s;

	if (!v)
		return 0;
	s = (uint64_t)(v * f);
	s -= s % unit;
	return s < min ? min : s;
}

int cmd_suite(int argc, char **argv)
{
	const struct kb_suite *su = NULL;
	struct json_object *info = NULL;
	struct bench b = { 0 };
	const char *name = NULL;
	uint64_t devspan, basespan;
	unsigned int i;
	int ret;

	/* the suite's name may come first */
	if (argc > 1 && argv[1][0] != '-') {
		name = argv[1];
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	ret = bench_init(&b, argc, argv, suite_opts, usage_suite, false);
	if (ret >= 0)
		return bench_finish(&b, "suite", NULL, NULL, ret);
	if (!name && optind < argc)
		name = argv[optind++];
	if (b.list_suites) {
		for (i = 0; i < kb_nr_suites; i++)
			printf("%-22s %s%s\n  %s\n", kb_suites[i].name, kb_suites[i].title,
			       kb_suites[i].writes ? " [writes]" : "", kb_suites[i].source);
		return bench_finish(&b, "suite", NULL, NULL, KB_EXIT_OK);
	}
	ret = KB_EXIT_USAGE;
	if (optind < argc) {
		msg("suite: unexpected argument '%s'", argv[optind]);
		return bench_finish(&b, "suite", NULL, NULL, ret);
	}
	if (!name) {
		msg("suite: missing suite name (see 'kiobench suite --list')");
		return bench_finish(&b, "suite", NULL, NULL, ret);
	}
	for (i = 0; i < kb_nr_suites; i++)
		if (!strcmp(kb_suites[i].name, name) ||
		    (strlen(name) == 3 && !strncmp(kb_suites[i].name, name, 3)))
			su = &kb_suites[i];
	if (!su) {
		msg("suite: unknown suite '%s' (see 'kiobench suite --list')", name);
		return bench_finish(&b, "suite", NULL, NULL, ret);
	}
	{
		char err[KB_ERRLEN];

		if (kb_job_finalize(&b.tmpl, err, sizeof(err))) {
			msg("%s", err);
			return bench_finish(&b, "suite", su->name, NULL, ret);
		}
	}
	for (i = KB_VAR_IODEPTH; i < KB_VAR_DEVICES; i++)
		if (b.list[i]) {
			msg("--%s: set by the suite (use 'kiobench sweep' for other values)",
			    kb_var_names[i]);
			return bench_finish(&b, "suite", su->name, NULL, ret);
		}
	if ((su->writes || (su->pre.fill || su->pre.passes)) && !b.no_precond &&
	    !b.g.allow_writes) {
		msg("suite %s writes to %s%s: refusing without --allow-writes (writing destroys "
		    "the data on the device)", su->name, b.tmpl.devices[0],
		    su->writes ? "" : " (its preconditioning; --no-precondition skips it)");
		return bench_finish(&b, "suite", su->name, NULL, ret);
	}
	if (su->writes && !b.g.allow_writes) {
		msg("suite %s writes to %s: refusing without --allow-writes (writing destroys "
		    "the data on the device)", su->name, b.tmpl.devices[0]);
		return bench_finish(&b, "suite", su->name, NULL, ret);
	}
	if (!b.scale)
		b.scale = 1;
	if (device_span(&b.tmpl, &devspan))
		return bench_finish(&b, "suite", su->name, NULL, KB_EXIT_SYSTEM);
	ret = open_outputs(&b);
	if (!ret && b.formats & KB_FMT_NORMAL)
		fprintf(b.out, "suite %s: %s (scale %g)\n  %s\n", su->name, su->title, b.scale,
			su->source);
	/*
	 * Scaled down, the whole-device span shrinks too: parts without a span
	 * of their own then run on the preconditioned start of the device.
	 */
	basespan = b.scale < 1 ? scaled(devspan, b.scale, 1 << 20, 1 << 20) : 0;
	if (!ret && !b.no_precond && (su->pre.fill || su->pre.passes)) {
		struct precond_def pre = su->pre;

		pre.no_fill = !su->pre.fill;
		pre.span = su->pre.span ? scaled(su->pre.span, b.scale, 1 << 20, 1 << 20) :
			basespan;
		ret = precondition(&b, &pre, &info);
	}
	for (i = 0; !ret && !got_signal && i < su->nr_parts; i++) {
		struct part_def d = su->parts[i];
		uint64_t unit = d.bs ? d.bs : 4096;

		d.runtime_ns = scaled(d.runtime_ns, b.scale, 1000000, 200000000);
		d.ramp_ns = scaled(d.ramp_ns, b.scale, 1000000, 0);
		d.idle_ns = scaled(d.idle_ns, b.scale, 1000000, 0);
		d.io_size = scaled(d.io_size, b.scale, unit, 1 << 20);
		/*
		 * A burst must outlast the tool's per-burst overhead (collect,
		 * destroy, create: milliseconds) or no idle time is short enough
		 * for the duty cycle: at least 1 MiB and 256 transfers, and at
		 * least 4 whole bursts.
		 */
		if (d.burst_size) {
			uint64_t n = d.burst_total / d.burst_size;

			d.burst_size = scaled(d.burst_size, b.scale, unit,
					      256 * unit > (1 << 20) ? 256 * unit : 1 << 20);
			n = (uint64_t)(n * b.scale + 0.5);
			d.burst_total = (n < 4 ? 4 : n) * d.burst_size;
		}
		d.span = d.span ? scaled(d.span, b.scale, 1 << 20, 1 << 20) : basespan;
		if (d.burst_size)
			d.var = KB_VAR_BURST;
		if (d.span > devspan) {
			msg("note: %s: span %" PRIu64 " is larger than the device; using %" PRIu64,
			    d.name, d.span, devspan);
			d.span = devspan - devspan % 4096;
		}
		if (d.devices > b.tmpl.nr_devices || (d.var == KB_VAR_DEVICES &&
						      b.tmpl.nr_devices < 2)) {
			msg("note: part %s needs more devices than --filename has; skipped",
			    d.name);
			continue;
		}
		if (d.var == KB_VAR_DEVICES) {
			char *v = NULL;

			if (asprintf(&v, "1-%u", b.tmpl.nr_devices < 4 ? b.tmpl.nr_devices : 4) < 0)
				break;
			d.values = v;
			ret = do_part(&b, &d, NULL, NULL);
			free(v);
			continue;
		}
		ret = do_part(&b, &d, NULL, NULL);
	}
	return bench_finish(&b, "suite", su->name, info, ret);
}

/* ---- plot ------------------------------------------------------------------- */

int cmd_plot(int argc, char **argv)
{
	char self[PATH_MAX], path[PATH_MAX + 32], *slash;
	const char *env = getenv("KIOBENCH_PLOT");
	ssize_t n;

	if (env && *env) {
		snprintf(path, sizeof(path), "%s", env);
	} else {
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		path[0] = 0;
		if (n > 0) {
			self[n] = 0;
			slash = strrchr(self, '/');
			if (slash) {
				*slash = 0;
				snprintf(path, sizeof(path), "%s/kiobench-plot", self);
				if (access(path, X_OK))
					path[0] = 0;
			}
		}
		if (!path[0])
			snprintf(path, sizeof(path), "kiobench-plot");
	}
	argv[0] = path;
	execvp(path, argv);
	msg("plot: cannot run %s: %s (install tools/kiobench-plot next to kiobench or "
	    "set KIOBENCH_PLOT)", path, strerror(errno));
	(void)argc;
	return KB_EXIT_SYSTEM;
}
