// SPDX-License-Identifier: GPL-2.0
/*
 * The commands made of parts (part.c): sweep, precondition and suite.
 * Each checks its options, runs its parts and writes one document.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#include <json-c/json.h>

#include "cli.h"
#include "commands.h"
#include "tuning.h"
#include "json.h"
#include "options.h"
#include "part.h"
#include "run.h"
#include "steps.h"

#define KB_PRECOND_QD	32	/* preconditioning's depth per worker (SNIA PTS) */
#define KB_SUITE_MAX_DEVICES 4	/* a suite's device sweep: 1 to 4 */

/* ---- usage ------------------------------------------------------------------ */

static void usage_sweep(FILE *f)
{
	fprintf(f,
		"Usage: kiobench sweep [JOB OPTIONS] [SWEEP OPTIONS]\n"
		"One kernel job per step, sweeping one variable with the rest fixed.\n"
		"Each step ends at --runtime or --io_size, whichever comes first;\n"
		"--ramp_time is excluded from every step.\n"
		"\n");
	usage_options(f, KB_CMD_SWEEP, false);
	fprintf(f, "Other job options are those of 'kiobench run' (see its --help).\n");
}

static void usage_precondition(FILE *f)
{
	fprintf(f,
		"Usage: kiobench precondition --filename=DEV --allow-writes [OPTIONS]\n"
		"Sequential fill of the span, then random-write passes (each pass writes\n"
		"the span's size), optionally until steady state (SNIA PTS style): the\n"
		"last %d rounds' IOPS within +-%d %% of their mean and the least-squares\n"
		"line moving by at most %d %% of it.  --bs (%d) and --iodepth (%d) are\n"
		"those of the passes; --size and --offset the span (to the end of the\n"
		"device).\n"
		"\n", KB_SS_WINDOW, KB_SS_DATA_PCT, KB_SS_SLOPE_PCT, KB_DEFAULT_BS,
		KB_PRECOND_QD);
	usage_options(f, KB_CMD_PRECOND, false);
	fprintf(f, "Other job options are those of 'kiobench run' (see its --help).\n");
}

static void usage_suite(FILE *f)
{
	fprintf(f,
		"Usage: kiobench suite --list\n"
		"       kiobench suite NAME --filename=DEV[:DEV...] [OPTIONS]\n"
		"Run a review methodology (see --list) and print its figures.\n"
		"\n");
	usage_options(f, KB_CMD_SUITE, false);
	fprintf(f,
		"Job options of 'kiobench run' (--cpus_allowed, --randseed...) apply to every\n"
		"step; the suite's own parameters win over them.\n");
}

/* ---- the document --------------------------------------------------------------- */

/* Options of command cmd into m.  -1 to go on, else an exit code. */
static int method_init(struct method *m, unsigned int cmd, int argc, char **argv,
		       void (*usage)(FILE *), bool need_dev)
{
	char err[KB_ERRLEN];
	int ret;

	memset(m, 0, sizeof(*m));
	m->out = stdout;
	kb_global_init(&m->g, cmd);
	kb_job_init(&m->tmpl);
	/* the template gets the job options; what a sweep takes as lists, it does not */
	ret = parse_cli(argc, argv, usage, &m->tmpl, &m->g, &m->cli);
	if (ret >= 0 || m->g.list_suites)
		return ret;
	/* fio's one I/O in flight would silently undo the depths of the steps */
	if (m->tmpl.sync_engine) {
		msg("--ioengine=%s: a synchronous engine keeps one I/O in flight; the steps "
		    "of %s set their own depths (give an asynchronous engine or none)",
		    m->tmpl.ioengine, argv[0]);
		return KB_EXIT_USAGE;
	}
	if (need_dev && kb_job_finalize(&m->tmpl, err, sizeof(err))) {
		msg("%s", err);
		return KB_EXIT_USAGE;
	}
	return -1;
}

static int method_open(struct method *m)
{
	if (m->g.output) {
		m->out = fopen(m->g.output, "w");
		if (!m->out) {
			msg("--output: %s: %s", m->g.output, strerror(errno));
			m->out = stdout;
			return KB_EXIT_SYSTEM;
		}
	}
	if (m->g.csv) {
		m->csv = fopen(m->g.csv, "w");
		if (!m->csv) {
			msg("--csv: %s: %s", m->g.csv, strerror(errno));
			return KB_EXIT_SYSTEM;
		}
	} else if (m->g.formats & KB_FMT_CSV) {
		m->csv = m->out;
	}
	if (m->csv)
		kb_csv_header(m->csv);
	m->parts = json_object_new_array();
	install_signals();
	return 0;
}

static void write_document(struct method *m, const char *command, const char *suite,
			   struct json_object *pre)
{
	struct json_object *root = json_object_new_object();
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	kb_jadd(root, "kiobench", kb_jstr(KB_TOOL_VERSION));
	kb_jadd(root, "command", kb_jstr(command));
	kb_jadd(root, "suite", suite ? kb_jstr(suite) : NULL);
	kb_jadd(root, "scale", kb_jdbl3(m->g.scale ? m->g.scale : 1));
	kb_jadd(root, "timestamp", json_object_new_int64(ts.tv_sec));
	kb_jadd(root, "interrupted", json_object_new_boolean(m->interrupted));
	if (pre)
		kb_jadd(root, "precondition", json_object_get(pre));
	kb_jadd(root, "parts", json_object_get(m->parts));
	fprintf(m->out, "%s\n", json_object_to_json_string_ext(root, KB_JSON_FLAGS));
	json_object_put(root);
}

/* Close a closable output; a failure becomes the exit code if there was none. */
static int close_output(FILE *f, const char *name, int ret)
{
	if (fclose(f) && !ret) {
		msg("%s: %s", name, strerror(errno));
		ret = KB_EXIT_SYSTEM;
	}
	return ret;
}

/* The document (JSON), then everything closed and freed.  Returns the exit code. */
static int method_finish(struct method *m, const char *command, const char *suite,
			 struct json_object *pre, int ret)
{
	kb_tune_restore();	/* the tuning's old values, on every path */
	if ((m->g.formats & KB_FMT_JSON) && m->parts)
		write_document(m, command, suite, pre);
	json_object_put(pre);
	if (m->interrupted)
		msg("stopped by user: the results above are partial");
	if (m->out && (fflush(m->out) || ferror(m->out)) && !ret) {
		msg("%s: %s", m->g.output ? m->g.output : "stdout", strerror(errno));
		ret = KB_EXIT_SYSTEM;
	}
	if (m->csv && m->csv != m->out)
		ret = close_output(m->csv, m->g.csv, ret);
	if (m->out && m->out != stdout)
		ret = close_output(m->out, m->g.output, ret);
	json_object_put(m->parts);
	kb_job_free(&m->tmpl);
	kb_assign_list_free(&m->cli);
	kb_global_free(&m->g);
	return signal_exit(ret);
}

/* The one value of list var, as a number within [min, max]. */
static int one_value(const struct method *m, enum kb_var var, uint64_t min, uint64_t max,
		     uint64_t *x)
{
	char err[KB_ERRLEN];
	unsigned int n = 0;
	uint64_t *vals;

	if (kb_parse_value_list(m->g.list[var], var == KB_VAR_BS, min, max, &vals, &n,
				err, sizeof(err)) || n != 1) {
		msg("--%s: %s", kb_var_names[var], n > 1 ? "one value" : err);
		if (n)
			free(vals);
		return -1;
	}
	*x = vals[0];
	free(vals);
	return 0;
}

/* ---- sweep ---------------------------------------------------------------------- */

/*
 * The swept variable: the one list of more than one value, else a fixed
 * value (a sweep of one step); with bursts, which are the steps, none: a
 * list of one value is then a fixed setting of every burst (--bs=128k).
 */
static int sweep_variable(const struct method *m, struct part_def *def)
{
	bool bursts = def->burst_size || def->burst_total || def->duty || def->burst_idle_ns;
	enum kb_var v;

	for (v = KB_VAR_IODEPTH; v <= KB_VAR_DEVICES; v++) {
		const char *l = m->g.list[v];

		if (!l || ((def->var != KB_VAR_NONE || bursts) && !strpbrk(l, ",-")))
			continue;
		if (def->var != KB_VAR_NONE && strpbrk(m->g.list[def->var], ",-")) {
			msg("--%s and --%s: sweep one variable at a time",
			    kb_var_names[def->var], kb_var_names[v]);
			return -1;
		}
		def->var = v;
		def->values = l;
	}
	return 0;
}

/* The lists of one value that are not swept: fixed settings of every step. */
static int sweep_fixed(struct method *m, struct part_def *def)
{
	char err[KB_ERRLEN] = "out of memory";
	enum kb_var v;
	uint64_t x;

	for (v = KB_VAR_IODEPTH; v <= KB_VAR_DEVICES; v++) {
		struct kb_assign a = { .opt = kb_opt_of_var(v), .val = m->g.list[v] };

		if (!m->g.list[v] || v == def->var)
			continue;
		if (one_value(m, v, v == KB_VAR_STREAMS ? 0 : 1, v == KB_VAR_BS ? UINT32_MAX :
			      v == KB_VAR_STREAMS ? KB_MAX_WRITE_STREAMS : 1u << 24, &x))
			return -1;
		if (v == KB_VAR_IODEPTH)
			def->iodepth = x;
		else if (v == KB_VAR_BS)
			def->bs = x;
		else if (v == KB_VAR_DEVICES)
			def->devices = x;
		else if (v == KB_VAR_STREAMS)
			def->streams = x;
		else if (kb_apply(&m->tmpl, &m->g, &a, err, sizeof(err)) ||
			 kb_assign_add(&m->cli, a.opt, a.val, NULL, 0)) {
			msg("%s", err);
			return -1;
		}
	}
	return 0;
}

/* Bursts: each step one burst of the same workload. */
static int sweep_bursts(const struct method *m, struct part_def *def)
{
	if (!def->burst_size || !def->burst_total) {
		msg("--burst-size and --burst-total go together");
		return -1;
	}
	if (def->duty && def->burst_idle_ns) {
		msg("--duty-cycle and --burst-idle: one or the other");
		return -1;
	}
	if (def->var != KB_VAR_NONE) {
		msg("--burst-size: bursts repeat one workload; --%s has a list",
		    kb_var_names[def->var]);
		return -1;
	}
	if (kb_job_isset(&m->tmpl, KB_OPT_IO_SIZE) || kb_job_isset(&m->tmpl, KB_OPT_NUMBER_IOS)) {
		msg("--burst-size: sets each burst's io_size; drop --io_size/--number_ios");
		return -1;
	}
	def->var = KB_VAR_BURST;
	def->name = "burst";
	return 0;
}

/*
 * The tuning options: refused without --allow-tuning; a list of more than
 * one value is the swept variable (before the others: theirs of one value
 * are then fixed settings).
 */
static int sweep_tuning(struct method *m, struct part_def *def)
{
	int t;

	for (t = 0; t < KB_NR_TUNE; t++) {
		if (!m->g.tune[t])
			continue;
		if (!m->g.allow_tuning) {
			msg("--%s: changes a machine-wide setting of the devices (%s); "
			    "it needs --allow-tuning, and is put back at the end", kb_tune_names[t],
			    t == KB_TUNE_IRQ_CPUS ? "their interrupts' affinity" :
			    t >= KB_TUNE_WRITE_GENERATE ? "their block integrity's" :
			    "their block queue's");
			return -1;
		}
		if (!strchr(m->g.tune[t], ','))
			continue;
		if (def->var == KB_VAR_TUNE) {
			msg("--%s and --%s: sweep one variable at a time",
			    kb_tune_names[def->tune], kb_tune_names[t]);
			return -1;
		}
		def->var = KB_VAR_TUNE;
		def->tune = t;
		def->values = m->g.tune[t];
		free(m->g.list[KB_VAR_TUNE]);	/* the other lists see a variable swept */
		m->g.list[KB_VAR_TUNE] = strdup(m->g.tune[t]);
		if (!m->g.list[KB_VAR_TUNE])
			return -1;
	}
	return 0;
}

/* The sweep's part from its options. */
static int sweep_part(struct method *m, struct part_def *def)
{
	def->name = "sweep";
	def->split_qd = m->g.split_qd;
	def->idle_ns = m->g.idle_ns;
	def->burst_size = m->g.burst_size;
	def->burst_total = m->g.burst_total;
	def->duty = m->g.duty;
	def->burst_idle_ns = m->g.burst_idle_ns;
	if (sweep_tuning(m, def) || sweep_variable(m, def) || sweep_fixed(m, def))
		return -1;
	if (def->split_qd && def->var != KB_VAR_IODEPTH && !def->iodepth) {
		msg("--split-qd: needs --iodepth (the total depth)");
		return -1;
	}
	if (def->split_qd && m->g.list[KB_VAR_NUMJOBS]) {
		msg("--split-qd: chooses the workers itself; drop --numjobs");
		return -1;
	}
	if ((def->burst_size || def->burst_total || def->duty || def->burst_idle_ns) &&
	    sweep_bursts(m, def))
		return -1;
	if (def->var == KB_VAR_NONE && !def->devices) {
		msg("sweep: nothing to sweep (give a list to --iodepth, --bs, --numjobs, "
		    "--rate_iops, --streams or --devices, or --burst-size)");
		return -1;
	}
	if (m->g.list[KB_VAR_STREAMS] && m->tmpl.nr_write_streams) {
		msg("--streams: sets each step's write streams; drop --write_streams");
		return -1;
	}
	return 0;
}

int cmd_sweep(int argc, char **argv)
{
	struct part_def def = { 0 };
	struct method m;
	int ret;

	ret = method_init(&m, KB_CMD_SWEEP, argc, argv, usage_sweep, true);
	if (ret >= 0)
		return method_finish(&m, "sweep", NULL, NULL, ret);
	if (optind < argc) {
		msg("sweep: unexpected argument '%s'", argv[optind]);
		return method_finish(&m, "sweep", NULL, NULL, KB_EXIT_USAGE);
	}
	if (sweep_part(&m, &def))
		return method_finish(&m, "sweep", NULL, NULL, KB_EXIT_USAGE);
	ret = method_open(&m);
	if (!ret)
		ret = do_part(&m, &def, NULL, NULL);
	return method_finish(&m, "sweep", NULL, NULL, ret);
}

/* ---- precondition ------------------------------------------------------------ */

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

/* The steady-state check of the rounds so far (their write IOPS). */
static bool steady(const struct part_run *pr, struct kb_ss *ss)
{
	double *y = calloc(pr->n + 1, sizeof(*y));
	bool reached;
	size_t i;

	memset(ss, 0, sizeof(*ss));
	if (!y)
		return false;
	for (i = 0; i < pr->n; i++)
		y[i] = pr->steps[i].sum[KIOBENCH_DIR_WRITE].iops;
	reached = kb_steady_state(y, pr->n, KB_SS_WINDOW, KB_SS_DATA_PCT, KB_SS_SLOPE_PCT, ss);
	free(y);
	return reached;
}

/* Stop the rounds at steady state, after at least --passes of them. */
static bool steady_stop(const struct method *m, const struct part_run *pr)
{
	struct kb_ss ss;

	if (!m->g.steady || pr->n < KB_SS_WINDOW || pr->n < m->g.passes)
		return false;
	return steady(pr, &ss);
}

/* Bytes the steps of pr wrote. */
static uint64_t written(const struct part_run *pr)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < pr->n; i++)
		n += pr->steps[i].sum[KIOBENCH_DIR_WRITE].all_bytes;
	return n;
}

/* The sequential fill of span on every device.  Adds its bytes to *bytes. */
static int fill(struct method *m, const struct precond_def *pre, uint64_t span,
		struct json_object *o, uint64_t *bytes)
{
	struct part_def def = { .name = "fill", .title = "sequential fill of the span",
				.rw = "write", .iodepth = pre->iodepth, .span = span };
	struct part_run pr = { 0 };
	int ret;

	def.bs = pre->fill_bs ? pre->fill_bs : KB_FILL_BS;
	/* io_size counts every device of the job: the span of each */
	def.io_size = span * m->tmpl.nr_devices;
	ret = do_part(m, &def, NULL, &pr);
	kb_jadd(o, "fill_bytes", kb_ju64(written(&pr)));
	*bytes += written(&pr);
	free_part(&pr);
	return ret;
}

/* The steady-state verdict: into the JSON summary, and printed. */
static void steady_report(struct method *m, const struct part_run *pr, struct json_object *o)
{
	struct json_object *s = json_object_new_object();
	struct kb_ss ss;

	steady(pr, &ss);
	kb_jadd(s, "reached", json_object_new_boolean(ss.reached));
	kb_jadd(s, "rounds", kb_ju64(pr->n));
	kb_jadd(s, "window", kb_ju64(KB_SS_WINDOW));
	kb_jadd(s, "mean_iops", kb_jdbl3(ss.mean));
	kb_jadd(s, "max_deviation_pct", kb_jdbl3(ss.mean > 0 ? 100 * ss.max_dev / ss.mean : 0));
	kb_jadd(s, "slope_iops_per_round", kb_jdbl3(ss.slope));
	kb_jadd(s, "excursion_pct", kb_jdbl3(ss.mean > 0 ? 100 * ss.excursion / ss.mean : 0));
	kb_jadd(o, "steady_state", s);
	if (!(m->g.formats & KB_FMT_NORMAL))
		return;
	if (pr->n < KB_SS_WINDOW)
		fprintf(m->out, "  steady state: not checked (%zu rounds, the window is %d)\n",
			pr->n, KB_SS_WINDOW);
	else
		fprintf(m->out, "  steady state: %s after %zu rounds (last %d: mean %.0f IOPS, "
			"max deviation %.1f %% <= %d %%: %s, fit excursion %.1f %% <= %d %%: "
			"%s)\n", ss.reached ? "REACHED" : "NOT reached", pr->n, KB_SS_WINDOW,
			ss.mean, 100 * ss.max_dev / ss.mean, KB_SS_DATA_PCT,
			ss.data_ok ? "yes" : "no", 100 * ss.excursion / ss.mean,
			KB_SS_SLOPE_PCT, ss.slope_ok ? "yes" : "no");
}

/* Random-write passes or rounds over span.  Adds their bytes to *bytes. */
static int rounds(struct method *m, const struct precond_def *pre, uint64_t span,
		  struct json_object *o, uint64_t *bytes)
{
	struct part_def def = { .name = "random", .rw = "randwrite", .iodepth = pre->iodepth,
				.span = span, .var = KB_VAR_ROUND };
	struct part_run pr = { 0 };
	char values[32];
	int ret;

	snprintf(values, sizeof(values), "1-%u", pre->steady ? pre->max_rounds : pre->passes);
	def.title = pre->steady ? "random-write rounds until steady state" :
		    "random-write passes";
	def.bs = pre->bs ? pre->bs : KB_DEFAULT_BS;
	def.io_size = (pre->round_size ? pre->round_size : span) * m->tmpl.nr_devices;
	def.values = values;
	ret = do_part(m, &def, steady_stop, &pr);
	kb_jadd(o, "rounds", kb_ju64(pr.n));
	kb_jadd(o, "round_bytes", kb_ju64(written(&pr)));
	*bytes += written(&pr);
	if (pre->steady)
		steady_report(m, &pr, o);
	free_part(&pr);
	return ret;
}

/*
 * Preconditioning of pre over the template job's devices: two parts added
 * to the document; *info gets the JSON summary (bytes written, steady state).
 */
static int precondition(struct method *m, const struct precond_def *pre,
			struct json_object **info)
{
	struct json_object *o = json_object_new_object();
	uint64_t span, bytes = 0;
	int ret = 0;

	*info = o;
	if (device_span(&m->tmpl, &span))
		return KB_EXIT_SYSTEM;
	if (pre->span && pre->span < span)
		span = pre->span;
	span -= span % KB_DEFAULT_BS;
	kb_jadd(o, "span", kb_ju64(span));
	if (!pre->no_fill) {
		ret = fill(m, pre, span, o, &bytes);
		if (ret || got_signal)
			return ret;
	}
	if (pre->steady ? pre->max_rounds : pre->passes)
		ret = rounds(m, pre, span, o, &bytes);
	kb_jadd(o, "written_bytes", kb_ju64(bytes));
	if (m->g.formats & KB_FMT_NORMAL)
		fprintf(m->out, "  preconditioning wrote %" PRIu64 " bytes (span %" PRIu64
			" on each of %u device%s)\n", bytes, span, m->tmpl.nr_devices,
			m->tmpl.nr_devices > 1 ? "s" : "");
	return ret;
}

/* precondition's options into pre.  0 or an exit code. */
static int precond_args(struct method *m, struct precond_def *pre)
{
	struct kb_assign a = { .opt = &kb_opts[KB_OPT_NUMJOBS] };
	uint64_t x;

	*pre = (struct precond_def){ .passes = m->g.passes, .max_rounds = m->g.max_rounds,
				     .iodepth = KB_PRECOND_QD, .fill_bs = m->g.fill_bs,
				     .round_size = m->g.round_size, .steady = m->g.steady,
				     .no_fill = m->g.no_fill };
	if (!m->g.allow_writes)
		return refuse_writes("precondition writes the whole span of",
				     m->tmpl.devices[0], "");
	if (m->g.list[KB_VAR_RATE]) {
		msg("--rate_iops: preconditioning runs closed loop, as fast as the device goes");
		return KB_EXIT_USAGE;
	}
	if (m->g.list[KB_VAR_IODEPTH] && one_value(m, KB_VAR_IODEPTH, 1, UINT32_MAX, &x))
		return KB_EXIT_USAGE;
	if (m->g.list[KB_VAR_IODEPTH])
		pre->iodepth = x;
	if (m->g.list[KB_VAR_BS] && one_value(m, KB_VAR_BS, KB_SECTOR, UINT32_MAX, &x))
		return KB_EXIT_USAGE;
	if (m->g.list[KB_VAR_BS])
		pre->bs = x;
	if (m->g.list[KB_VAR_NUMJOBS]) {
		if (one_value(m, KB_VAR_NUMJOBS, 1, UINT32_MAX, &x))
			return KB_EXIT_USAGE;
		a.val = m->g.list[KB_VAR_NUMJOBS];
		if (kb_assign_add(&m->cli, a.opt, a.val, NULL, 0))
			return KB_EXIT_SYSTEM;
	}
	if (pre->steady && pre->passes > pre->max_rounds)
		pre->max_rounds = pre->passes;
	if (!pre->passes && pre->no_fill && !pre->steady) {
		msg("--passes: 0 with --no-fill does nothing");
		return KB_EXIT_USAGE;
	}
	return 0;
}

int cmd_precondition(int argc, char **argv)
{
	struct json_object *info = NULL;
	struct precond_def pre;
	struct method m;
	int ret;

	ret = method_init(&m, KB_CMD_PRECOND, argc, argv, usage_precondition, true);
	if (ret >= 0)
		return method_finish(&m, "precondition", NULL, NULL, ret);
	if (optind < argc) {
		msg("precondition: unexpected argument '%s'", argv[optind]);
		return method_finish(&m, "precondition", NULL, NULL, KB_EXIT_USAGE);
	}
	ret = precond_args(&m, &pre);
	if (!ret)
		ret = method_open(&m);
	if (!ret)
		ret = precondition(&m, &pre, &info);
	return method_finish(&m, "precondition", NULL, info, ret);
}

/* ---- suite -------------------------------------------------------------------- */

static void list_suites(void)
{
	unsigned int i;

	for (i = 0; i < kb_nr_suites; i++)
		printf("%-18s %s%s\n  reproduces: %s\n  also named: %s\n  %s\n",
		       kb_suites[i].name, kb_suites[i].title, kb_suites[i].writes ? " [writes]" : "",
		       kb_suites[i].review, kb_suites[i].alias, kb_suites[i].source);
}

/* The suite called name or by its drive's name, or its first three characters ("003"). */
static const struct kb_suite *find_suite(const char *name)
{
	const struct kb_suite *su = NULL;
	unsigned int i;

	for (i = 0; i < kb_nr_suites; i++)
		if (!strcmp(kb_suites[i].name, name) || !strcmp(kb_suites[i].alias, name) ||
		    (strlen(name) == 3 && !strncmp(kb_suites[i].name, name, 3)))
			su = &kb_suites[i];
	if (!su)
		msg("suite: unknown suite '%s' (see 'kiobench suite --list')", name);
	return su;
}

/* What the user gave that suite su cannot take.  0 or an exit code. */
static int suite_checks(struct method *m, const struct kb_suite *su)
{
	bool pre = (su->pre.fill || su->pre.passes) && !m->g.no_precond;
	char err[KB_ERRLEN], what[64];
	int v;

	if (kb_job_finalize(&m->tmpl, err, sizeof(err))) {
		msg("%s", err);
		return KB_EXIT_USAGE;
	}
	for (v = KB_VAR_IODEPTH; v < KB_VAR_DEVICES; v++)
		if (m->g.list[v]) {
			msg(v == KB_VAR_RATE ? "--%s: suites run closed loop, as their reviews did" :
			    "--%s: set by the suite (use 'kiobench sweep' for other values)",
			    kb_var_names[v]);
			return KB_EXIT_USAGE;
		}
	if ((su->writes || pre) && !m->g.allow_writes) {
		snprintf(what, sizeof(what), "suite %s writes to", su->name);
		return refuse_writes(what, m->tmpl.devices[0], su->writes ? "" :
				     " (its preconditioning; --no-precondition skips it)");
	}
	return 0;
}

/* Part i of su, scaled, on the user's devices.  0 or an exit code. */
static int suite_part(struct method *m, const struct part_def *def, uint64_t basespan,
		      uint64_t devspan)
{
	struct part_def d = *def;
	char *v = NULL;
	int ret;

	kb_scale_part(&d, m->g.scale, basespan);
	if (d.span > devspan) {
		msg("note: %s: span %" PRIu64 " is larger than the device; using %" PRIu64,
		    d.name, d.span, devspan);
		d.span = devspan - devspan % KB_DEFAULT_BS;
	}
	if (d.devices > m->tmpl.nr_devices ||
	    (d.var == KB_VAR_DEVICES && m->tmpl.nr_devices < 2)) {
		msg("note: part %s needs more devices than --filename has; skipped", d.name);
		return 0;
	}
	if (d.var == KB_VAR_DEVICES) {
		if (asprintf(&v, "1-%u", m->tmpl.nr_devices < KB_SUITE_MAX_DEVICES ?
			     m->tmpl.nr_devices : KB_SUITE_MAX_DEVICES) < 0)
			return KB_EXIT_SYSTEM;
		d.values = v;
	}
	ret = do_part(m, &d, NULL, NULL);
	free(v);
	return ret;
}

/* Suite su: its preconditioning, then its parts.  *info: the preconditioning's. */
static int run_suite(struct method *m, const struct kb_suite *su, uint64_t devspan,
		     struct json_object **info)
{
	/*
	 * Scaled down, the whole-device span shrinks too: parts without a span
	 * of their own then run on the preconditioned start of the device.
	 */
	uint64_t basespan = m->g.scale < 1 ?
			    kb_scaled(devspan, m->g.scale, KB_MIN_SPAN, KB_MIN_SPAN) : 0;
	unsigned int i;
	int ret = 0;

	if (m->g.formats & KB_FMT_NORMAL)
		fprintf(m->out, "suite %s: %s (scale %g)\n  reproduces: %s\n  %s\n", su->name,
			su->title, m->g.scale, su->review, su->source);
	if (!m->g.no_precond && (su->pre.fill || su->pre.passes)) {
		struct precond_def pre = su->pre;

		pre.no_fill = !su->pre.fill;
		pre.span = su->pre.span ? kb_scaled(su->pre.span, m->g.scale, KB_MIN_SPAN,
						    KB_MIN_SPAN) : basespan;
		ret = precondition(m, &pre, info);
	}
	for (i = 0; !ret && !got_signal && i < su->nr_parts; i++)
		ret = suite_part(m, &su->parts[i], basespan, devspan);
	return ret;
}

int cmd_suite(int argc, char **argv)
{
	const struct kb_suite *su = NULL;
	struct json_object *info = NULL;
	const char *name = NULL;
	uint64_t devspan;
	struct method m;
	int ret;

	/* the suite's name may come first */
	if (argc > 1 && argv[1][0] != '-') {
		name = argv[1];
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	ret = method_init(&m, KB_CMD_SUITE, argc, argv, usage_suite, false);
	if (ret >= 0)
		return method_finish(&m, "suite", NULL, NULL, ret);
	if (!name && optind < argc)
		name = argv[optind++];
	if (m.g.list_suites) {
		list_suites();
		return method_finish(&m, "suite", NULL, NULL, KB_EXIT_OK);
	}
	ret = KB_EXIT_USAGE;
	if (optind < argc)
		msg("suite: unexpected argument '%s'", argv[optind]);
	else if (!name)
		msg("suite: missing suite name (see 'kiobench suite --list')");
	else
		su = find_suite(name);
	if (su)
		ret = suite_checks(&m, su);
	if (su && !ret && device_span(&m.tmpl, &devspan))
		ret = KB_EXIT_SYSTEM;
	if (su && !ret)
		ret = method_open(&m);
	if (su && !ret)
		ret = run_suite(&m, su, devspan, &info);
	return method_finish(&m, "suite", su ? su->name : NULL, info, ret);
}
