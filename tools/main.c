// SPDX-License-Identifier: GPL-2.0
/*
 * kiobench: userspace front end of the in-kernel block I/O benchmark.
 *
 *   kiobench run [options] [JOBFILE]
 *   kiobench features | list | stop ID | destroy ID
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "kiobench.h"
#include "run.h"


volatile sig_atomic_t got_signal;
static bool progress_shown;

/* One line on stderr, after wiping a live progress line. */
void msg(const char *fmt, ...)
{
	va_list ap;

	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = false;
	}
	fputs("kiobench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *errname(int err)
{
	const char *s = strerrorname_np(err);

	return s ? s : "unknown error";
}

/* Report a failed netlink request; returns the exit code. */
int nl_fail(const char *what, const struct kb_nlerr *e)
{
	if (e->no_family)
		msg("module not loaded (modprobe kiobench / insmod kiobench.ko)");
	else if (e->err == -EPERM)
		msg("needs CAP_SYS_ADMIN (run as root)");
	else
		msg("%s: %s (%s)", what, e->msg[0] ? e->msg : strerror(-e->err),
		    errname(-e->err));
	return KB_EXIT_SYSTEM;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static const char *debugfs_root(void)
{
	const char *root = getenv("KIOBENCH_DEBUGFS");

	return root && *root ? root : "/sys/kernel/debug";
}

static const char *sysfs_root(void)
{
	const char *root = getenv("KIOBENCH_SYSFS");

	return root && *root ? root : "/sys";
}

static bool terminal(int state)
{
	return state == KIOBENCH_STATE_DONE || state == KIOBENCH_STATE_STOPPED ||
	       state == KIOBENCH_STATE_FAILED;
}

/* getopt_long with only --help; returns -1 to go on, else an exit code. */
static int simple_opts(int argc, char **argv, void (*usage)(FILE *))
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", lo, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return KB_EXIT_OK;
		}
		if (optopt)
			msg("%s: unknown option '-%c'", argv[0], optopt);
		else
			msg("%s: unknown option '%s'", argv[0], argv[optind - 1]);
		usage(stderr);
		return KB_EXIT_USAGE;
	}
	return -1;
}

/* ---- usage ------------------------------------------------------------------ */

static void usage_main(FILE *f)
{
	fprintf(f,
		"Usage: kiobench COMMAND [ARGS]\n"
		"In-kernel block I/O benchmark (kiobench.ko) front end.\n"
		"\n"
		"Commands:\n"
		"  run [OPTIONS] [JOBFILE]  configure, run and report one or more jobs\n"
		"  sweep [OPTIONS]          one job per step of a swept variable, or bursts\n"
		"  precondition [OPTIONS]   sequential fill, random-write passes, steady state\n"
		"  suite NAME [OPTIONS]     a review methodology as one command (--list)\n"
		"  plot RESULTS.json...     charts of sweep/suite results (kiobench-plot)\n"
		"  features                 show the module's version and limits\n"
		"  list                     list the jobs that exist in the kernel\n"
		"  stop ID                  ask a running job to stop\n"
		"  destroy ID               destroy a job that is not running\n"
		"\n"
		"Options:\n"
		"  -h, --help               show this help\n"
		"  -V, --version            show the version\n"
		"\n"
		"'kiobench COMMAND --help' describes a command; see kiobench(1).\n");
}

static void usage_run(FILE *f)
{
	int i;

	fprintf(f,
		"Usage: kiobench run [OPTIONS] [JOBFILE]\n"
		"Run jobs configured by fio-style options and/or an fio-style job file\n"
		"(command-line options act as [global] options of the file).\n"
		"\n"
		"Options:\n");
	for (i = 0; i < KB_NR_OPTS; i++) {
		const struct kb_opt *o = &kb_opts[i];
		char buf[64];

		snprintf(buf, sizeof(buf), "--%s%s%s", o->name, o->metavar ? "=" : "",
			 o->metavar ? o->metavar : "");
		fprintf(f, "  %-30s %s%s\n", buf, o->help,
			o->scope == KB_SCOPE_CLI ? " [command line only]" : "");
	}
	fprintf(f,
		"  %-30s %s\n"
		"\n"
		"SIZE: bytes or k/m/g/t/p with optional b, i or ib (powers of 1024).\n"
		"TIME: seconds, or a number with us, ms, s, m, h or d.\n"
		"Exit status: 0 ok, 1 bad usage, 2 kernel/system error, 3 a job failed.\n",
		"-h, --help", "show this help");
}

static void usage_features(FILE *f)
{
	fprintf(f, "Usage: kiobench features\nShow the module's version and limits.\n");
}

static void usage_list(FILE *f)
{
	fprintf(f, "Usage: kiobench list\nList the jobs that exist in the kernel.\n");
}

static void usage_stop(FILE *f)
{
	fprintf(f, "Usage: kiobench stop ID\n"
		"Ask running job ID to stop; it drains and ends STOPPED.\n");
}

static void usage_destroy(FILE *f)
{
	fprintf(f, "Usage: kiobench destroy ID\n"
		"Destroy job ID (it must not be running).\n");
}

/* ---- run ---------------------------------------------------------------------- */

/*
 * The job options (OPT_BASE + index), then extra (a command's own options,
 * ended by a NULL name), then --help.
 */
struct option *build_longopts(const struct option *extra)
{
	/* name, alias, and their '-'/'_' spellings, then --help and the end */
	size_t nx = 0;
	struct option *lo;
	int i, n = 0;

	while (extra && extra[nx].name)
		nx++;
	lo = calloc(4 * KB_NR_OPTS + nx + 2, sizeof(*lo));
	if (!lo)
		return NULL;
	for (i = 0; i < KB_NR_OPTS; i++) {
		const struct kb_opt *o = &kb_opts[i];
		int has_arg = o->flag ? optional_argument : required_argument;
		const char *names[2] = { o->name, o->alias };
		int k;

		for (k = 0; k < 2 && names[k]; k++) {
			char *alt = strdup(names[k]), *p;

			lo[n++] = (struct option){ names[k], has_arg, NULL, OPT_BASE + i };
			/* the other spelling: allow-writes / allow_writes */
			for (p = alt; p && *p; p++)
				*p = *p == '-' ? '_' : *p == '_' ? '-' : *p;
			if (alt && strcmp(alt, names[k]))
				lo[n++] = (struct option){ alt, has_arg, NULL, OPT_BASE + i };
			else
				free(alt);
		}
	}
	memcpy(lo + n, extra, nx * sizeof(*lo));
	n += nx;
	lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	return lo;
}

void free_longopts(struct option *lo)
{
	struct option *o;
	int i;

	if (!lo)
		return;
	for (o = lo; o->name; o++) {
		if (o->val < OPT_BASE || o->val >= OPT_BASE + KB_NR_OPTS)
			continue;
		i = o->val - OPT_BASE;
		if (o->name != kb_opts[i].name && o->name != kb_opts[i].alias)
			free((char *)o->name);
	}
	free(lo);
}

/* First SIGINT/SIGTERM: stop the jobs and report; a second one kills us. */
void on_signal(int sig)
{
	if (got_signal) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	got_signal = 1;
}

static void on_event(uint32_t id, int state, int32_t error, void *arg)
{
	struct run *r = arg;
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (r->rj[i].created && r->rj[i].id == id && terminal(state)) {
			r->rj[i].ended = true;	/* collect() reads the final status */
			r->rj[i].st.state = state;
			r->rj[i].st.error = error;
		}
	}
}

/* Best effort: stop what runs, wait for it to drain, destroy everything. */
static void abort_jobs(struct run *r)
{
	struct kb_nlerr e;
	uint64_t deadline = now_ns() + 30 * NSEC_PER_SEC;
	size_t i;
	bool busy;

	for (i = 0; i < r->n; i++)
		if (r->rj[i].started && !r->rj[i].ended)
			kb_nl_job_cmd(&r->nl, KIOBENCH_CMD_JOB_STOP, r->rj[i].id, &e);
	do {
		busy = false;
		for (i = 0; i < r->n; i++) {
			struct kb_status st;

			if (!r->rj[i].started || r->rj[i].ended)
				continue;
			if (kb_nl_job_get(&r->nl, r->rj[i].id, &st, &e) || terminal(st.state))
				r->rj[i].ended = true;
			else
				busy = true;
		}
		if (busy)
			usleep(100000);
	} while (busy && now_ns() < deadline);
	for (i = 0; i < r->n; i++)
		if (r->rj[i].created)
			kb_nl_job_cmd(&r->nl, KIOBENCH_CMD_JOB_DEL, r->rj[i].id, &e);
}

/* ---- sensors ------------------------------------------------------------------ */

/* Open the hwmon sensors of j's devices (those that have any; one per hwmon). */
static void open_sensors(struct run_job *j)
{
	unsigned int i, k;
	char dir[256];

	j->hw = calloc(j->job.nr_devices, sizeof(*j->hw));
	for (i = 0; j->hw && i < j->job.nr_devices; i++) {
		const char *dev = j->job.devices[i];
		struct stat sb;
		bool dup = false;
		int ret;

		if (stat(dev, &sb) || !S_ISBLK(sb.st_mode) ||
		    kb_hwmon_find(sysfs_root(), major(sb.st_rdev), minor(sb.st_rdev), dir,
				  sizeof(dir)))
			continue;
		for (k = 0; k < j->nr_hw; k++)
			dup |= !strcmp(j->hw[k].path, dir);
		if (dup)
			continue;
		ret = kb_hwmon_open(&j->hw[j->nr_hw], dir, dev);
		if (ret < 0)
			msg("warning: %s: sensors in %s: %s", dev, dir, strerror(errno));
		if (!ret)
			j->nr_hw++;
	}
}

/* Sampling period: the job's timeline interval, but not too often. */
static uint64_t sample_period(const struct run_job *j)
{
	uint64_t p = j->job.interval_ns ? j->job.interval_ns : NSEC_PER_SEC;

	return p < KB_HWMON_MIN_PERIOD_NS ? KB_HWMON_MIN_PERIOD_NS : p;
}

/*
 * Sample the sensors of every started job that has any and is due (all:
 * every such job, ended or not).  Returns the earliest next due time.
 */
static uint64_t sample_sensors(struct run *r, bool all)
{
	uint64_t next = UINT64_MAX, t;
	unsigned int k;
	size_t i;

	for (i = 0; i < r->n; i++) {
		struct run_job *j = &r->rj[i];

		if (!j->nr_hw || !j->started || (j->ended && !all))
			continue;
		t = now_ns();
		if (all || t >= j->next_sample_ns) {
			for (k = 0; k < j->nr_hw; k++)
				kb_hwmon_sample(&j->hw[k], now_ns() - j->start_ns);
			j->next_sample_ns += sample_period(j);
			if (j->next_sample_ns <= t)	/* late: no burst of catch-up samples */
				j->next_sample_ns = t + sample_period(j);
		}
		if (j->next_sample_ns < next)
			next = j->next_sample_ns;
	}
	return next;
}

static void free_sensors(struct run *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		kb_hwmon_free(r->rj[i].hw, r->rj[i].nr_hw);
		r->rj[i].hw = NULL;
		r->rj[i].nr_hw = 0;
	}
}

static void show_progress(struct run *r, uint64_t t)
{
	uint64_t ios = 0, bytes = 0, elapsed = 0, end = 0;
	char left[48] = "", iops[32] = "-", bw[32] = "-";
	bool all_timed = true;
	size_t i;
	int d;

	for (i = 0; i < r->n; i++) {
		struct run_job *j = &r->rj[i];

		for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
			ios += j->st.dir[d].all_ios;
			bytes += j->st.dir[d].all_bytes;
		}
		if (j->st.elapsed_ns > elapsed)
			elapsed = j->st.elapsed_ns;
		if (kb_job_isset(&j->job, KB_OPT_RUNTIME)) {
			if (j->job.ramp_ns + j->job.runtime_ns > end)
				end = j->job.ramp_ns + j->job.runtime_ns;
		} else {
			all_timed = false;
		}
	}
	if (r->prev_t && t > r->prev_t && ios >= r->prev_ios && bytes >= r->prev_bytes) {
		double dt = (t - r->prev_t) / 1e9;

		kb_num2str(iops, sizeof(iops), (uint64_t)((ios - r->prev_ios) / dt), 4, false, "");
		kb_num2str(bw, sizeof(bw), (uint64_t)((bytes - r->prev_bytes) / dt), 4, true,
			   "B/s");
	}
	r->prev_t = t;
	r->prev_ios = ios;
	r->prev_bytes = bytes;
	if (all_timed)
		snprintf(left, sizeof(left), ", %.0fs left",
			 end > elapsed ? (end - elapsed) / 1e9 : 0.0);
	fprintf(stderr, "\r\033[Kkiobench: %.0fs elapsed%s, IOPS=%s, BW=%s",
		elapsed / 1e9, left, iops, bw);
	fflush(stderr);
	progress_shown = true;
}

/* Wait until every job is in a terminal state.  0 or an exit code. */
static int wait_jobs(struct run *r)
{
	bool live = isatty(STDERR_FILENO), stop_sent = false;
	uint64_t next_tick = now_ns() + NSEC_PER_SEC;
	struct kb_nlerr e;
	size_t i, running;

	r->prev_t = now_ns();	/* the counters start at zero */

	for (;;) {
		struct pollfd pfd = { .fd = kb_nl_event_fd(&r->nl), .events = POLLIN };
		uint64_t t, wake;
		int ret, timeout;

		running = 0;
		for (i = 0; i < r->n; i++)
			running += !r->rj[i].ended;
		if (!running)
			break;
		if (got_signal && !stop_sent) {
			msg("stopped by user");
			for (i = 0; i < r->n; i++) {
				if (r->rj[i].ended)
					continue;
				if (kb_nl_job_cmd(&r->nl, KIOBENCH_CMD_JOB_STOP, r->rj[i].id, &e) &&
				    e.err != -EINVAL && e.err != -EBUSY && e.err != -EALREADY)
					msg("job %u: JOB_STOP: %s (%s)", r->rj[i].id,
					    e.msg[0] ? e.msg : strerror(-e.err), errname(-e.err));
			}
			stop_sent = true;
		}
		wake = sample_sensors(r, false);
		if (wake > next_tick)
			wake = next_tick;
		t = now_ns();
		timeout = wake > t ? (int)((wake - t + 999999) / 1000000) : 0;
		ret = poll(&pfd, 1, timeout);
		if (ret < 0 && errno != EINTR) {
			msg("poll: %s", strerror(errno));
			return KB_EXIT_SYSTEM;
		}
		/* on failure JOB_GET polling below still sees the end */
		if (ret > 0 && kb_nl_events(&r->nl, on_event, r, &e) < 0)
			msg("warning: reading job events: %s", e.msg);
		t = now_ns();
		if (t < next_tick)
			continue;
		next_tick = t + NSEC_PER_SEC;
		for (i = 0; i < r->n; i++) {
			struct run_job *j = &r->rj[i];

			if (j->ended)
				continue;
			if (kb_nl_job_get(&r->nl, j->id, &j->st, &e)) {
				char what[64];

				snprintf(what, sizeof(what), "job %u: JOB_GET", j->id);
				return nl_fail(what, &e);
			}
			if (terminal(j->st.state))
				j->ended = true;
		}
		if (live)
			show_progress(r, t);
	}
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = false;
	}
	return 0;
}

static bool read_debugfs(const struct run_job *j, const char *file, char **text,
			 char *path, size_t pathlen)
{
	snprintf(path, pathlen, "%s/kiobench/%s/%s", debugfs_root(), j->dir, file);
	*text = kb_read_file(path);
	if (!*text) {
		msg("cannot read %s: %s%s", path, strerror(errno),
		    errno == ENOENT ? " (is debugfs mounted?)" : "");
		return false;
	}
	return true;
}

/*
 * write_lat_log: the job's per-I/O log from debugfs into the user's file
 * (FILE.NAME when the run has several jobs).  false: not written.
 */
static bool save_lat_log(const struct run *r, const struct run_job *j)
{
	char path[512], dst[4096], *text;
	FILE *f;
	bool ok;

	if (r->n > 1)
		snprintf(dst, sizeof(dst), "%s.%s", j->job.lat_log, j->job.name);
	else
		snprintf(dst, sizeof(dst), "%s", j->job.lat_log);
	if (!read_debugfs(j, "lat_log", &text, path, sizeof(path)))
		return false;
	f = fopen(dst, "w");
	if (!f) {
		msg("%s: %s", dst, strerror(errno));
		free(text);
		return false;
	}
	fputs(text, f);
	ok = !ferror(f);
	ok &= !fclose(f);
	if (!ok)
		msg("%s: %s", dst, strerror(errno));
	free(text);
	return ok;
}

/* Final status, histograms and timeline of job j.  false: incomplete. */
static bool collect(struct run *r, struct run_job *j, struct kb_result *res)
{
	static const char *const hfile[KIOBENCH_NR_DIRS] = { "hist_read", "hist_write" };
	char path[512], err[KB_ERRLEN], *text;
	struct kb_nlerr e;
	bool ok = true;
	unsigned int k;
	int d;

	memset(res, 0, sizeof(*res));
	res->job = &j->job;
	if (kb_nl_job_get(&r->nl, j->id, &j->st, &e)) {
		char what[64];

		snprintf(what, sizeof(what), "job %u: JOB_GET", j->id);
		nl_fail(what, &e);
		ok = false;
	}
	res->st = j->st;
	res->st.id = j->id;
	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		if (!read_debugfs(j, hfile[d], &text, path, sizeof(path))) {
			ok = false;
			continue;
		}
		if (kb_hist_parse(text, d, &res->hist[d], err, sizeof(err))) {
			msg("%s: %s", path, err);
			ok = false;
		} else {
			res->has_hist[d] = true;
			if (res->hist[d].samples != res->st.dir[d].ios)
				msg("warning: %s has %" PRIu64 " samples but the kernel "
				    "counted %" PRIu64 " %s I/Os", path, res->hist[d].samples,
				    res->st.dir[d].ios, d ? "write" : "read");
		}
		free(text);
	}
	if (read_debugfs(j, "timeline", &text, path, sizeof(path))) {
		if (kb_timeline_parse(text, &res->tl, err, sizeof(err))) {
			msg("%s: %s", path, err);
			ok = false;
		} else {
			res->has_tl = true;
			if (res->tl.dropped)
				msg("warning: %s: %" PRIu64 " samples dropped (the module "
				    "keeps a bounded number)", path, res->tl.dropped);
		}
		free(text);
	} else {
		ok = false;
	}
	if (j->job.lat_log && !save_lat_log(r, j))
		ok = false;
	res->hw = j->hw;
	res->nr_hw = j->nr_hw;
	for (k = 0; k < j->nr_hw; k++)
		kb_hwmon_close(&j->hw[k]);
	j->hw = NULL;
	j->nr_hw = 0;
	return ok;
}

static int print_results(const struct kb_global *g, FILE *out,
			 const struct kb_result *res, size_t n)
{
	if (g->formats & KB_FMT_TERSE)
		kb_print_terse(out, res, n);
	if (g->formats & KB_FMT_NORMAL)
		kb_print_normal(out, res, n);
	if (g->formats & KB_FMT_JSON) {
		struct timespec ts;
		char *s;

		clock_gettime(CLOCK_REALTIME, &ts);
		s = kb_json_report(res, n, ts.tv_sec * 1000LL + ts.tv_nsec / 1000000);
		if (!s) {
			msg("out of memory");
			return KB_EXIT_SYSTEM;
		}
		fprintf(out, "%s\n", s);
		free(s);
	}
	if (fflush(out) || ferror(out)) {
		msg("%s: %s", g->output ? g->output : "stdout", strerror(errno));
		return KB_EXIT_SYSTEM;
	}
	return 0;
}

void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void free_results(struct kb_result *res, size_t n)
{
	size_t i;
	int d;

	for (i = 0; res && i < n; i++) {
		for (d = 0; d < KIOBENCH_NR_DIRS; d++)
			kb_hist_free(&res[i].hist[d]);
		kb_timeline_free(&res[i].tl);
		kb_hwmon_free(res[i].hw, res[i].nr_hw);
	}
	free(res);
}

/* Sleep until CLOCK_MONOTONIC t (ns); false if a signal came first. */
bool sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = t / NSEC_PER_SEC, .tv_nsec = t % NSEC_PER_SEC };

	while (!got_signal) {
		int ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

		if (ret != EINTR)
			return !got_signal;
	}
	return false;
}

/*
 * Talk to the kernel: create every job of r, wait until start_at
 * (CLOCK_MONOTONIC ns; 0: at once), start them back to back, wait for all
 * of them, collect the results, destroy the jobs (unless keep).
 * *resp gets r->n results (free_results()) whenever the jobs ran, even if
 * one failed; t_start and t_end (may be NULL) get the time just before the
 * first JOB_START and the time the last job was seen ended.
 * Returns 0, KB_EXIT_JOB_FAILED or KB_EXIT_SYSTEM.
 */
int run_jobs(struct run *r, bool keep, uint64_t start_at, struct kb_result **resp,
	     uint64_t *t_start, uint64_t *t_end)
{
	struct kb_result *res = NULL;
	struct kb_nlerr e;
	bool complete = true;
	int ret, failed = 0;
	size_t i;

	*resp = NULL;
	ret = kb_nl_open(&r->nl, true, &e);
	if (ret)
		return nl_fail("netlink", &e);

	for (i = 0; i < r->n; i++) {
		struct run_job *j = &r->rj[i];

		if (kb_nl_job_new(&r->nl, &j->job, &j->id, j->dir, sizeof(j->dir), &e)) {
			char what[KB_ERRLEN];

			if (r->n == 1)
				snprintf(what, sizeof(what), "kernel refused job");
			else
				snprintf(what, sizeof(what), "kernel refused job '%s'", j->job.name);
			ret = nl_fail(what, &e);
			goto abort;
		}
		j->created = true;
		open_sensors(j);
	}
	if (start_at && !sleep_until(start_at)) {
		msg("interrupted before the jobs started");
		ret = KB_EXIT_SYSTEM;
		goto abort;
	}
	if (got_signal) {
		msg("interrupted before the jobs started");
		ret = KB_EXIT_SYSTEM;
		goto abort;
	}
	if (t_start)
		*t_start = now_ns();
	for (i = 0; i < r->n; i++) {
		struct run_job *j = &r->rj[i];

		j->start_ns = j->next_sample_ns = now_ns();
		if (kb_nl_job_cmd(&r->nl, KIOBENCH_CMD_JOB_START, j->id, &e)) {
			char what[KB_ERRLEN];

			snprintf(what, sizeof(what), "cannot start job '%s'", j->job.name);
			ret = nl_fail(what, &e);
			goto abort;
		}
		j->started = true;
	}
	ret = wait_jobs(r);
	if (t_end)
		*t_end = now_ns();
	if (ret)
		goto abort;
	sample_sensors(r, true);	/* the end of the run */

	res = calloc(r->n, sizeof(*res));
	if (!res) {
		msg("out of memory");
		ret = KB_EXIT_SYSTEM;
		goto abort;
	}
	for (i = 0; i < r->n; i++)
		complete &= collect(r, &r->rj[i], &res[i]);
	for (i = 0; i < r->n; i++) {
		struct run_job *j = &r->rj[i];

		if (keep) {
			msg("kept job %u (debugfs kiobench/%s); 'kiobench destroy %u' removes it",
			    j->id, j->dir, j->id);
			continue;
		}
		if (kb_nl_job_cmd(&r->nl, KIOBENCH_CMD_JOB_DEL, j->id, &e)) {
			char what[64];

			snprintf(what, sizeof(what), "cannot destroy job %u", j->id);
			nl_fail(what, &e);
			complete = false;
		}
		j->created = false;
	}
	for (i = 0; i < r->n; i++) {
		if (res[i].st.state == KIOBENCH_STATE_FAILED) {
			msg("job '%s' failed: %s (%s)", r->rj[i].job.name,
			    strerror(-res[i].st.error), errname(-res[i].st.error));
			failed++;
		}
	}
	kb_nl_close(&r->nl);
	free_sensors(r);
	*resp = res;
	if (failed)
		return KB_EXIT_JOB_FAILED;
	if (!complete) {
		msg("results incomplete (see the messages above)");
		return KB_EXIT_SYSTEM;
	}
	return 0;
abort:
	abort_jobs(r);
	kb_nl_close(&r->nl);
	free_sensors(r);
	return ret;
}

/* Run the jobs of cmd_run and report them. */
static int execute(struct run *r, const struct kb_global *g, FILE *out)
{
	struct kb_result *res;
	int ret, rret;

	install_signals();
	rret = run_jobs(r, g->keep, 0, &res, NULL, NULL);
	if (!res)
		return rret;
	ret = print_results(g, out, res, r->n);
	free_results(res, r->n);
	return rret ? rret : ret;
}

/* The long name of getopt value val in lo. */
static const char *lo_name(const struct option *lo, int val)
{
	for (; lo->name; lo++)
		if (lo->val == val)
			return lo->name;
	return "?";
}

/*
 * getopt_long over the job options and a command's own ones (lo from
 * build_longopts()).  hook (may be NULL) sees every option first and returns
 * 1 if it took it, 0 if not, -1 after printing an error.  Job options are
 * checked on scratch and g, and those of job scope appended to cli.
 * Returns -1 to go on (optind at the first operand), else an exit code.
 */
int parse_cli(int argc, char **argv, const struct option *lo, void (*usage)(FILE *),
	      struct kb_job *scratch, struct kb_global *g, struct kb_assign_list *cli,
	      int (*hook)(int c, const char *arg, void *ctx), void *ctx)
{
	char err[KB_ERRLEN];
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		struct kb_assign a = { 0 };

		if (c == 'h') {
			usage(stdout);
			return KB_EXIT_OK;
		}
		if (c == ':') {
			if (optopt >= OPT_BASE)
				msg("--%s: missing value", lo_name(lo, optopt));
			else
				msg("%s: option '%s' needs a value", argv[0], argv[optind - 1]);
			return KB_EXIT_USAGE;
		}
		if (c == '?' || c < OPT_BASE) {
			if (optopt && optopt < OPT_BASE)
				msg("%s: unknown option '-%c' (see 'kiobench %s --help')", argv[0],
				    optopt, argv[0]);
			else if (optopt >= OPT_BASE)
				msg("--%s: takes no value", lo_name(lo, optopt));
			else
				msg("%s: unknown option '%.*s' (see 'kiobench %s --help')", argv[0],
				    (int)strcspn(argv[optind - 1], "="), argv[optind - 1], argv[0]);
			return KB_EXIT_USAGE;
		}
		if (hook) {
			int h = hook(c, optarg, ctx);

			if (h < 0)
				return KB_EXIT_USAGE;
			if (h)
				continue;
		}
		if (c >= OPT_BASE + KB_NR_OPTS) {
			msg("%s: option '%s' is not handled", argv[0], argv[optind - 1]);
			return KB_EXIT_USAGE;
		}
		a.opt = &kb_opts[c - OPT_BASE];
		a.val = optarg;
		if (kb_apply(scratch, g, &a, err, sizeof(err))) {
			msg("%s", err);
			return KB_EXIT_USAGE;
		}
		if (a.opt->scope == KB_SCOPE_JOB && kb_assign_add(cli, a.opt, optarg, NULL, 0)) {
			msg("out of memory");
			return KB_EXIT_SYSTEM;
		}
	}
	return -1;
}

static int cmd_run(int argc, char **argv)
{
	struct kb_global g = { .formats = KB_FMT_NORMAL };
	struct kb_assign_list cli = { 0 };
	struct kb_jobfile jf = { 0 };
	struct run r = { 0 };
	struct kb_job scratch;
	struct option *lo;
	char err[KB_ERRLEN];
	const char *jobfile = NULL;
	FILE *out = stdout;
	int c, ret = KB_EXIT_USAGE;
	size_t i;

	kb_job_init(&scratch);
	lo = build_longopts(NULL);
	if (!lo) {
		msg("out of memory");
		return KB_EXIT_SYSTEM;
	}
	c = parse_cli(argc, argv, lo, usage_run, &scratch, &g, &cli, NULL, NULL);
	if (c >= 0) {
		ret = c;
		goto out;
	}
	if (optind < argc)
		jobfile = argv[optind++];
	if (optind < argc) {
		msg("run: unexpected argument '%s' (one job file at most)", argv[optind]);
		goto out;
	}

	if (jobfile) {
		if (kb_jobfile_load(jobfile, &jf, err, sizeof(err))) {
			msg("%s", err);
			goto out;
		}
		r.n = jf.nr_sec;
	} else {
		r.n = 1;
	}
	r.rj = calloc(r.n, sizeof(*r.rj));
	if (!r.rj) {
		msg("out of memory");
		ret = KB_EXIT_SYSTEM;
		goto out;
	}
	for (i = 0; i < r.n; i++) {
		struct kb_job *job = &r.rj[i].job;

		if (jobfile) {
			if (kb_jobfile_build(&jf, i, &cli, job, err, sizeof(err))) {
				msg("%s", err);
				goto out;
			}
		} else {
			size_t k;

			kb_job_init(job);
			for (k = 0; k < cli.n; k++) {
				if (kb_apply(job, &g, &cli.v[k], err, sizeof(err))) {
					msg("%s", err);
					goto out;
				}
			}
		}
		if (kb_job_finalize(job, err, sizeof(err))) {
			if (jobfile)
				msg("%s: job '%s': %s", jobfile, job->name[0] ? job->name :
				    jf.sec[i].name, err);
			else
				msg("%s", err);
			goto out;
		}
		if (kb_job_has_writes(job) && !g.allow_writes) {
			char where[KB_ERRLEN] = "";

			if (jobfile)
				snprintf(where, sizeof(where), "%s: job '%s': ", jobfile,
					 job->name);
			msg("%srw=%s writes to %s%s: refusing without --allow-writes "
			    "(writing destroys the data on the device)", where, job->rw_str,
			    job->devices[0], job->nr_devices > 1 ? " ..." : "");
			goto out;
		}
	}
	if (g.output) {
		out = fopen(g.output, "w");
		if (!out) {
			msg("--output: %s: %s", g.output, strerror(errno));
			out = stdout;
			ret = KB_EXIT_SYSTEM;
			goto out;
		}
	}
	ret = execute(&r, &g, out);
out:
	if (out != stdout && fclose(out) && !ret) {
		msg("%s: %s", g.output, strerror(errno));
		ret = KB_EXIT_SYSTEM;
	}
	for (i = 0; r.rj && i < r.n; i++)
		kb_job_free(&r.rj[i].job);
	free(r.rj);
	kb_jobfile_free(&jf);
	kb_assign_list_free(&cli);
	kb_job_free(&scratch);
	kb_global_free(&g);
	free_longopts(lo);
	return ret;
}

/* ---- features, list, stop, destroy ----------------------------------------- */

static int cmd_features(int argc, char **argv)
{
	struct kb_features f;
	struct kb_nlerr e;
	struct kb_nl nl;
	char b1[32], b2[32], b3[32];
	int ret = simple_opts(argc, argv, usage_features);

	if (ret >= 0)
		return ret;
	if (optind < argc) {
		msg("features: unexpected argument '%s'", argv[optind]);
		return KB_EXIT_USAGE;
	}
	if (kb_nl_open(&nl, false, &e))
		return nl_fail("netlink", &e);
	ret = kb_nl_features(&nl, &f, &e);
	kb_nl_close(&nl);
	if (ret)
		return nl_fail("GET_FEATURES", &e);
	printf("kiobench %s, module interface version %u%s\n", KB_TOOL_VERSION, f.version,
	       f.version != KIOBENCH_GENL_VERSION ? " (this tool speaks version "
	       "1: expect trouble)" : "");
	printf("limits:\n");
	printf("  jobs at once:          %u\n", f.jobs);
	printf("  devices per job:       %u\n", f.devices);
	printf("  workers per job:       %u\n", f.workers);
	printf("  iodepth per worker:    %u\n", f.iodepth);
	printf("  largest block size:    %u (%s)\n", f.bs,
	       kb_num2str(b1, sizeof(b1), f.bs, 4, true, "B"));
	printf("  bssplit entries:       %u\n", f.bssplit);
	printf("  buffer memory per job: %" PRIu64 " (%s)\n", f.job_mem,
	       kb_num2str(b2, sizeof(b2), f.job_mem, 4, true, "B"));
	printf("  buffer memory, total:  %" PRIu64 " (%s)\n", f.total_mem,
	       kb_num2str(b3, sizeof(b3), f.total_mem, 4, true, "B"));
	if (f.present & (1ULL << KIOBENCH_A_LIMIT_LAT_LOG))
		printf("  latency log entries:   %u\n", f.lat_log);
	printf("histogram: %u sub-bucket bits (relative error <= 1/%llu), %u buckets\n",
	       f.hist_bits, f.hist_bits < 63 ? 1ULL << (f.hist_bits + 1) : 0ULL,
	       f.hist_buckets);
	return KB_EXIT_OK;
}

static void list_header(bool *done)
{
	if (!*done)
		printf("%-6s %-31s %-8s %7s %10s %14s  %s\n", "ID", "NAME", "STATE",
		       "WORKERS", "ELAPSED_S", "IOS", "DEVICES");
	*done = true;
}

/*
 * JOB_GET does not carry the devices: they come from the job's debugfs
 * config file, when it can be read ("-" otherwise).
 */
static int list_one(const struct kb_status *st, void *arg)
{
	char path[512], devs[1024] = "-", *text;
	uint64_t ios = 0;
	int d;

	list_header(arg);
	for (d = 0; d < KIOBENCH_NR_DIRS; d++)
		ios += st->dir[d].all_ios;
	if (st->debugfs_dir[0]) {
		snprintf(path, sizeof(path), "%s/kiobench/%s/config", debugfs_root(),
			 st->debugfs_dir);
		text = kb_read_file(path);
		if (text) {
			kb_config_devices(text, devs, sizeof(devs));
			if (!devs[0])
				strcpy(devs, "-");
			free(text);
		}
	}
	printf("%-6u %-31s %-8s %7u %10.1f %14" PRIu64 "  %s", st->id, st->name,
	       kb_state_name(st->state), st->nr_workers, st->elapsed_ns / 1e9, ios, devs);
	if (st->error)
		printf("  %s", errname(-st->error));
	printf("\n");
	return 0;
}

static int cmd_list(int argc, char **argv)
{
	bool header = false;
	struct kb_nlerr e;
	struct kb_nl nl;
	int ret = simple_opts(argc, argv, usage_list);

	if (ret >= 0)
		return ret;
	if (optind < argc) {
		msg("list: unexpected argument '%s'", argv[optind]);
		return KB_EXIT_USAGE;
	}
	if (kb_nl_open(&nl, false, &e))
		return nl_fail("netlink", &e);
	ret = kb_nl_job_dump(&nl, list_one, &header, &e);
	kb_nl_close(&nl);
	if (ret)
		return nl_fail("JOB_GET", &e);
	list_header(&header);
	return KB_EXIT_OK;
}

static int cmd_id(int argc, char **argv, int cmd, void (*usage)(FILE *))
{
	char err[KB_ERRLEN], what[64];
	struct kb_nlerr e;
	struct kb_nl nl;
	uint64_t id;
	int ret = simple_opts(argc, argv, usage);

	if (ret >= 0)
		return ret;
	if (optind + 1 != argc) {
		msg("%s: %s", argv[0], optind == argc ? "missing job ID" : "too many arguments");
		usage(stderr);
		return KB_EXIT_USAGE;
	}
	if (kb_parse_u64(argv[optind], &id, err, sizeof(err)) || id > UINT32_MAX) {
		msg("%s: invalid job ID '%s'", argv[0], argv[optind]);
		return KB_EXIT_USAGE;
	}
	if (kb_nl_open(&nl, false, &e))
		return nl_fail("netlink", &e);
	ret = kb_nl_job_cmd(&nl, cmd, id, &e);
	kb_nl_close(&nl);
	snprintf(what, sizeof(what), "%s job %" PRIu64, argv[0], id);
	return ret ? nl_fail(what, &e) : KB_EXIT_OK;
}

int main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2) {
		msg("missing command");
		usage_main(stderr);
		return KB_EXIT_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		usage_main(stdout);
		return KB_EXIT_OK;
	}
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
		printf("kiobench %s (netlink interface version %d)\n", KB_TOOL_VERSION,
		       KIOBENCH_GENL_VERSION);
		return KB_EXIT_OK;
	}
	argc--;
	argv++;
	if (!strcmp(cmd, "run"))
		return cmd_run(argc, argv);
	if (!strcmp(cmd, "sweep") || !strcmp(cmd, "burst"))
		return cmd_sweep(argc, argv);
	if (!strcmp(cmd, "precondition"))
		return cmd_precondition(argc, argv);
	if (!strcmp(cmd, "suite"))
		return cmd_suite(argc, argv);
	if (!strcmp(cmd, "plot"))
		return cmd_plot(argc, argv);
	if (!strcmp(cmd, "features"))
		return cmd_features(argc, argv);
	if (!strcmp(cmd, "list"))
		return cmd_list(argc, argv);
	if (!strcmp(cmd, "stop"))
		return cmd_id(argc, argv, KIOBENCH_CMD_JOB_STOP, usage_stop);
	if (!strcmp(cmd, "destroy"))
		return cmd_id(argc, argv, KIOBENCH_CMD_JOB_DEL, usage_destroy);
	if (cmd[0] == '-')
		msg("unknown option '%s' before the command (see 'kiobench --help')", cmd);
	else
		msg("unknown command '%s' (see 'kiobench --help')", cmd);
	return KB_EXIT_USAGE;
}
