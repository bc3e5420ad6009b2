// SPDX-License-Identifier: GPL-2.0
/*
 * Running jobs in the kernel: create them, start them back to back, wait
 * for them (job events, a progress line, the devices' sensors sampled on
 * the way), collect their results and destroy them; on a signal or an
 * error, stop and destroy whatever was created.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "nl.h"
#include "options.h"
#include "report.h"
#include "result.h"
#include "run.h"
#include "sensors.h"
#include "fdp.h"
#include "values.h"

#define KB_ABORT_WAIT_NS	(30 * NSEC_PER_SEC)	/* a stopped job drains by then */
#define KB_ABORT_POLL_US	100000			/* JOB_GET while it drains */
#define KB_TICK_NS		NSEC_PER_SEC		/* JOB_GET and progress */

volatile sig_atomic_t got_signal;

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static bool terminal(int state)
{
	return state == KIOBENCH_STATE_DONE || state == KIOBENCH_STATE_STOPPED ||
	       state == KIOBENCH_STATE_FAILED;
}

/* The first SIGINT, SIGTERM or SIGHUP: stop the jobs and report; a second one kills us. */
static void on_signal(int sig)
{
	if (got_signal) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	got_signal = sig;
}

static void on_event(uint32_t id, int state, int32_t error, void *arg)
{
	struct run *r = arg;
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (r->rj[i].created && r->rj[i].id == id && terminal(state)) {
			if (!r->rj[i].ended)
				r->rj[i].end_ns = now_ns();
			r->rj[i].ended = true;	/* collect() reads the final status */
			r->rj[i].st.state = state;
			r->rj[i].st.error = error;
		}
	}
}

/*
 * JOB_STOP for job @id; a job that has already ended (or is ending) is not
 * an error, anything else is said.
 */
static void stop_job(struct run *r, uint32_t id)
{
	struct kb_nlerr e;

	if (kb_nl_job_cmd(&r->nl, KIOBENCH_CMD_JOB_STOP, id, &e) &&
	    e.err != -EINVAL && e.err != -EBUSY && e.err != -EALREADY)
		msg("job %u: JOB_STOP: %s (%s)", id, e.msg[0] ? e.msg : strerror(-e.err),
		    errname(-e.err));
}

/* Best effort: stop what runs, wait for it to drain, destroy everything. */
static void abort_jobs(struct run *r)
{
	struct kb_nlerr e;
	uint64_t deadline = now_ns() + KB_ABORT_WAIT_NS;
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
			usleep(KB_ABORT_POLL_US);
	} while (busy && now_ns() < deadline);
	for (i = 0; i < r->n; i++)
		if (r->rj[i].created)
			kb_nl_job_cmd(&r->nl, KIOBENCH_CMD_JOB_DEL, r->rj[i].id, &e);
}

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
		    kb_hwmon_find(kb_sysfs_root(), major(sb.st_rdev), minor(sb.st_rdev), dir,
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
	progress("%.0fs elapsed%s, IOPS=%s, BW=%s", elapsed / 1e9, left, iops, bw);
}

/* ---- fio's execution model: which job starts when -------------------------- */

static bool done(const struct run_job *j)
{
	return j->ended || j->cancelled;
}

/* Job i may start now: what it waits for has ended and its delay has passed. */
static bool may_start(const struct run *r, size_t i, uint64_t t)
{
	const struct run_job *j = &r->rj[i];
	size_t k;

	if (j->started || j->cancelled)
		return false;
	for (k = 0; k < j->after; k++)
		if (!done(&r->rj[k]))
			return false;
	for (k = j->wait_lo; k < j->wait_hi; k++)
		if (!done(&r->rj[k]))
			return false;
	return t >= r->t0 + j->delay_ns;
}

/*
 * The earliest start delay still to expire; UINT64_MAX: none (a job whose
 * delay has passed waits for an end, which an event or a tick brings).
 */
static uint64_t next_start(const struct run *r)
{
	uint64_t next = UINT64_MAX, t = now_ns(), at;
	size_t i;

	for (i = 0; i < r->n; i++) {
		at = r->t0 + r->rj[i].delay_ns;
		if (!r->rj[i].started && !r->rj[i].cancelled && at > t && at < next)
			next = at;
	}
	return next;
}

static int start_one(struct run *r, struct run_job *j)
{
	struct kb_nlerr e;
	char what[KB_ERRLEN];

	j->start_ns = j->next_sample_ns = now_ns();
	j->has_irqs = !kb_irqs_read(kb_sysfs_root(), kb_proc_interrupts(), j->job.devices,
				    j->job.nr_devices, &j->irqs);
	if (j->job.log_unix_epoch || j->job.log_alternate_epoch) {
		struct timespec ts;

		/* fio's epoch: the clock (checked by the option) as the job starts */
		clock_gettime((clockid_t)j->job.log_epoch_clock, &ts);
		j->log_epoch_ns = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	}
	if (kb_nl_job_cmd(&r->nl, KIOBENCH_CMD_JOB_START, j->id, &e)) {
		snprintf(what, sizeof(what), "cannot start job '%s'", j->job.name);
		return nl_fail(what, &e);
	}
	j->started = true;
	return 0;
}

/*
 * exitall of job x, which has just ended: stop the running jobs exit_what
 * names (its group, or all), and cancel those of them that have not started
 * (its group's, or all; exit_what=stonewall lets the next groups start).
 */
static void exit_all(struct run *r, const struct run_job *x)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		struct run_job *j = &r->rj[i];
		bool mine = x->job.exit_what != KB_EXIT_WHAT_GROUP || j->groupid == x->groupid;

		if (!mine || done(j))
			continue;
		if (!j->started) {
			if (x->job.exit_what != KB_EXIT_WHAT_STONEWALL)
				j->cancelled = true;
			continue;
		}
		stop_job(r, j->id);
	}
}

/* The ends seen so far acted upon (exitall), then every job whose turn it is started. */
static int sequence(struct run *r)
{
	uint64_t t = now_ns();
	size_t i;
	int ret;

	for (i = 0; i < r->n; i++) {
		struct run_job *j = &r->rj[i];

		if (j->ended && !j->end_seen) {
			j->end_seen = true;
			if (j->job.exitall ||
			    (j->job.exitall_on_error && (j->st.error || j->limit_err)))
				exit_all(r, j);
		}
	}
	for (i = 0; i < r->n; i++) {
		if (!may_start(r, i, t))
			continue;
		ret = start_one(r, &r->rj[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* A signal: stop the running jobs; those not started never will. */
static void stop_on_signal(struct run *r)
{
	size_t i;

	msg("stopped by user");
	for (i = 0; i < r->n; i++) {
		if (!r->rj[i].started)
			r->rj[i].cancelled = true;
		if (r->rj[i].ended || !r->rj[i].started)
			continue;
		stop_job(r, r->rj[i].id);
	}
}

/* ---- fio's steady state ------------------------------------------------------ */

/* Whether job k's steady state is that of unit j (j itself, or its group's). */
static bool ss_member(const struct run *r, size_t j, size_t k)
{
	const struct run_job *a = &r->rj[j], *b = &r->rj[k];

	return j == k || (a->job.group_reporting && b->job.group_reporting &&
			  a->groupid == b->groupid);
}

/*
 * A check for each job with ss_dur, or for the first of a group that
 * reports as one (fio: the group's jobs must agree on the options); the
 * JOB_GET tick no longer than any rate_cycle.
 */
static int setup_checks(struct run *r)
{
	char err[KB_ERRLEN];
	size_t i, k;

	r->tick_ns = KB_TICK_NS;
	for (i = 0; i < r->n; i++)
		if (kb_limits_any(&r->rj[i].job.limits) &&
		    r->rj[i].job.limits.cycle_ms * 1000000ULL < r->tick_ns)
			r->tick_ns = r->rj[i].job.limits.cycle_ms * 1000000ULL;
	for (i = 0; i < r->n; i++) {
		struct run_job *j = &r->rj[i];
		bool led = false;

		for (k = 0; k < i && !led; k++)
			led = ss_member(r, k, i);
		for (k = 0; k < i && led; k++)
			if (ss_member(r, k, i) &&
			    memcmp(&r->rj[k].job.ss, &j->job.ss, sizeof(j->job.ss))) {
				msg("job '%s': steadystate options must be the same in a group that "
				    "reports as one (fio's rule)", j->job.name);
				return KB_EXIT_USAGE;
			}
		if (led || !j->job.ss.dur_s)
			continue;
		if (kb_ss_check_opts(&j->job.ss, err, sizeof(err))) {
			msg("job '%s': %s", j->job.name, err);
			return KB_EXIT_USAGE;
		}
		if (kb_ss_init(&j->ss, &j->job.ss)) {
			msg("out of memory");
			return KB_EXIT_SYSTEM;
		}
		j->has_ss = true;
	}
	return 0;
}

/* Once a second: each unit's rates sampled; at steady state its jobs stop, as fio's. */
static void check_steady(struct run *r, uint64_t t)
{
	size_t i, k;
	int d;

	for (i = 0; i < r->n; i++) {
		struct run_job *j = &r->rj[i];
		uint64_t ios = 0, bytes = 0, elapsed = 0;

		if (!j->has_ss || j->ss.attained || !j->started)
			continue;
		for (k = 0; k < r->n; k++) {
			if (!ss_member(r, i, k) || !r->rj[k].started)
				continue;
			for (d = 0; d <= KIOBENCH_DIR_TRIM; d++) {	/* fio's: not its syncs */
				ios += r->rj[k].st.dir[d].all_ios;
				bytes += r->rj[k].st.dir[d].all_bytes;
			}
			if (r->rj[k].st.elapsed_ns > elapsed)
				elapsed = r->rj[k].st.elapsed_ns;
		}
		if (!kb_ss_sample(&j->ss, t, elapsed, ios, bytes))
			continue;
		for (k = 0; k < r->n; k++) {
			if (!ss_member(r, i, k) || !r->rj[k].started || r->rj[k].ended)
				continue;
			stop_job(r, r->rj[k].id);
		}
	}
}

/*
 * fio's rate_min, rate_iops_min and max_latency: a job past one is stopped
 * and fails with fio's error (EIO: check_min_rate(); ETIMEDOUT: lat_fatal()).
 */
static void check_limits(struct run *r)
{
	struct kb_limits_counts n;
	char why[KB_ERRLEN];
	size_t i;
	int d;

	for (i = 0; i < r->n; i++) {
		struct run_job *j = &r->rj[i];

		if (!kb_limits_any(&j->job.limits) || !j->started || j->ended || j->limit_err)
			continue;
		for (d = 0; d < KB_LIMIT_DIRS; d++) {
			n.ios[d] = j->st.dir[d].all_ios;
			n.bytes[d] = j->st.dir[d].all_bytes;
			n.lat_max[d] = j->st.dir[d].lat_max;
		}
		j->limit_err = kb_limits_check(&j->job.limits, &j->limits_state,
					       j->st.elapsed_ns, j->job.ramp_ns, &n, why,
					       sizeof(why));
		if (!j->limit_err)
			continue;
		msg("job '%s': %s", j->job.name, why);
		stop_job(r, j->id);
	}
}

/* Wait until every job is in a terminal state.  0 or an exit code. */
static int wait_jobs(struct run *r)
{
	bool live = isatty(STDERR_FILENO), stop_sent = false;
	uint64_t next_tick = now_ns() + r->tick_ns;
	struct kb_nlerr e;
	size_t i, running;

	r->prev_t = now_ns();	/* the counters start at zero */

	for (;;) {
		struct pollfd pfd = { .fd = kb_nl_event_fd(&r->nl), .events = POLLIN };
		uint64_t t, wake;
		int ret, timeout;

		running = 0;
		for (i = 0; i < r->n; i++)
			running += !r->rj[i].ended && !r->rj[i].cancelled;
		if (!running)
			break;
		if (got_signal && !stop_sent) {
			stop_on_signal(r);
			stop_sent = true;
		}
		wake = sample_sensors(r, false);
		if (wake > next_tick)
			wake = next_tick;
		if (r->sequenced) {
			uint64_t at = next_start(r);

			if (at < wake)
				wake = at;
		}
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
		if (r->sequenced && !got_signal) {
			ret = sequence(r);
			if (ret)
				return ret;
		}
		t = now_ns();
		if (t < next_tick)
			continue;
		next_tick = t + r->tick_ns;
		for (i = 0; i < r->n; i++) {
			struct run_job *j = &r->rj[i];

			if (j->ended)
				continue;
			if (kb_nl_job_get(&r->nl, j->id, &j->st, &e)) {
				char what[64];

				snprintf(what, sizeof(what), "job %u: JOB_GET", j->id);
				return nl_fail(what, &e);
			}
			if (terminal(j->st.state) && !j->ended) {
				j->ended = true;
				j->end_ns = t;
			}
		}
		check_steady(r, t);
		check_limits(r);
		if (r->sequenced) {
			ret = sequence(r);
			if (ret)
				return ret;
		}
		if (live)
			show_progress(r, t);
	}
	progress_clear();
	return 0;
}

/* The identity of each of job j's devices, from sysfs (unknown: all ""). */
static void read_devids(const struct run_job *j, struct kb_result *res)
{
	struct stat sb;
	unsigned int i;

	res->devid = calloc(j->job.nr_devices, sizeof(*res->devid));
	if (!res->devid)
		return;
	res->nr_devid = j->job.nr_devices;
	for (i = 0; i < j->job.nr_devices; i++)
		if (!stat(j->job.devices[i], &sb) && S_ISBLK(sb.st_mode))
			kb_devid_read(kb_sysfs_root(), major(sb.st_rdev), minor(sb.st_rdev),
				      &res->devid[i]);
}

/* The locality's pairs sorted by cache, and j's devices' interrupts over it. */
static void read_irqs(struct run_job *j, struct kb_result *res)
{
	if (!res->loc.present)
		return;
	kb_loc_classify(kb_sysfs_root(), &res->loc);
	if (!j->has_irqs)
		return;
	res->loc.has_irqs = true;
	if (!kb_irqs_read(kb_sysfs_root(), kb_proc_interrupts(), j->job.devices,
			  j->job.nr_devices, &res->loc.irqs))
		kb_irqs_delta(&res->loc.irqs, &j->irqs);
	kb_irqs_free(&j->irqs);
	j->has_irqs = false;
}

/* Final status, histograms and timeline of job j.  false: incomplete. */
static bool collect(struct run *r, struct run_job *j, struct kb_result *res)
{
	struct kb_nlerr e;
	bool ok = true;
	unsigned int k;

	memset(res, 0, sizeof(*res));
	res->job = &j->job;
	res->index = j - r->rj + 1;
	if (kb_nl_job_get(&r->nl, j->id, &j->st, &e)) {
		char what[64];

		snprintf(what, sizeof(what), "job %u: JOB_GET", j->id);
		nl_fail(what, &e);
		ok = false;
	}
	res->st = j->st;
	res->st.id = j->id;
	if (j->has_ss)
		res->ss = &j->ss;
	if (j->limit_err && !res->st.error)	/* fio's error for the limit */
		res->st.error = -j->limit_err;
	res->log_epoch_ns = j->log_epoch_ns;
	ok &= kb_read_results(j->dir, r->n > 1, res);
	read_devids(j, res);
	read_irqs(j, res);
	res->hw = j->hw;
	res->nr_hw = j->nr_hw;
	for (k = 0; k < j->nr_hw; k++)
		kb_hwmon_close(&j->hw[k]);
	j->hw = NULL;
	j->nr_hw = 0;
	return ok;
}

void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a lost SSH session: its jobs must not run on, its results not be lost */
	sigaction(SIGHUP, &sa, NULL);
	/* a closed stdout or stderr fails that write (EPIPE), not the whole run */
	signal(SIGPIPE, SIG_IGN);
}

int signal_exit(int ret)
{
	return !ret && got_signal == SIGHUP ? KB_EXIT_HANGUP : ret;
}

void free_results(struct kb_result *res, size_t n)
{
	size_t i;
	int d, m;

	for (i = 0; res && i < n; i++) {
		for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
			kb_hist_free(&res[i].hist[d]);
			for (m = 0; m < KB_NR_MET; m++)
				kb_hist_free(&res[i].met[m][d]);
		}
		kb_timeline_free(&res[i].tl);
		kb_hwmon_free(res[i].hw, res[i].nr_hw);
		free(res[i].devid);
		kb_loc_free(&res[i].loc);
		kb_latt_free(&res[i].latt);
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

/* Create every job of r and open its devices' sensors.  0 or an exit code. */
static int create_jobs(struct run *r)
{
	struct kb_nlerr e;
	char what[KB_ERRLEN];
	size_t i;

	for (i = 0; i < r->n; i++) {
		struct run_job *j = &r->rj[i];

		if (kb_nl_job_new(&r->nl, &j->job, r->detach, &j->id, j->dir, sizeof(j->dir), &e)) {
			if (r->n == 1)
				snprintf(what, sizeof(what), "kernel refused job");
			else
				snprintf(what, sizeof(what), "kernel refused job '%s'", j->job.name);
			return nl_fail(what, &e);
		}
		j->created = true;
		open_sensors(j);
	}
	return 0;
}

/*
 * The NVMe devices of the jobs that place their writes (write_streams; all:
 * every job's), once each: their FDP statistics are read around the run.
 */
void kb_find_fdp(struct run *r, bool all)
{
	char err[256];
	size_t i, k, m;

	r->nr_fdp = 0;
	for (i = 0; i < r->n; i++) {
		const struct kb_job *job = &r->rj[i].job;

		for (k = 0; (all || job->nr_write_streams) && k < job->nr_devices; k++) {
			struct kb_fdp f, *nv;
			bool dup = false;

			if (kb_fdp_find(kb_sysfs_root(), job->devices[k], &f, err, sizeof(err))) {
				msg("warning: no FDP statistics: %s", err);
				continue;
			}
			for (m = 0; m < r->nr_fdp; m++)
				dup |= !strcmp(r->fdp[m].dev, f.dev);
			if (dup)
				continue;
			nv = realloc(r->fdp, (r->nr_fdp + 1) * sizeof(*nv));
			if (!nv)
				return;
			r->fdp = nv;
			r->fdp[r->nr_fdp++] = f;
		}
	}
}

/* The FDP counters of the run's NVMe devices (fdp.c): before or after. */
static void read_fdp(struct run *r, bool after)
{
	char err[256];
	size_t i;

	for (i = 0; i < r->nr_fdp; i++)
		if (!kb_fdp_read(&r->fdp[i], after, err, sizeof(err)))
			msg("warning: FDP statistics of %s: %s", r->fdp[i].dev, err);
}

/* At start_at (0: now), start every job back to back.  0 or an exit code. */
static int start_jobs(struct run *r, uint64_t start_at, uint64_t *t_start)
{
	size_t i;
	int ret;

	/* nothing ran: the status a shell gives for a process the signal ended */
	if ((start_at && !sleep_until(start_at)) || got_signal) {
		msg("interrupted before the jobs started");
		return 128 + got_signal;
	}
	r->t0 = now_ns();
	if (t_start)
		*t_start = r->t0;
	for (i = 0; i < r->nr_disks; i++)
		kb_disk_read(kb_sysfs_root(), &r->disks[i], false, r->t0);
	read_fdp(r, false);
	if (r->sequenced)
		return sequence(r);
	for (i = 0; i < r->n; i++) {
		ret = start_one(r, &r->rj[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Destroy the jobs (unless keep).  false: one could not be destroyed. */
static bool destroy_jobs(struct run *r, bool keep)
{
	struct kb_nlerr e;
	bool ok = true;
	char what[64];
	size_t i;

	for (i = 0; i < r->n; i++) {
		struct run_job *j = &r->rj[i];

		if (keep) {
			msg("kept job %u (debugfs kiobench/%s); 'kiobench destroy %u' removes it",
			    j->id, j->dir, j->id);
			continue;
		}
		if (kb_nl_job_cmd(&r->nl, KIOBENCH_CMD_JOB_DEL, j->id, &e)) {
			snprintf(what, sizeof(what), "cannot destroy job %u", j->id);
			nl_fail(what, &e);
			ok = false;
		}
		j->created = false;
	}
	return ok;
}

/* The jobs have ended: results, destruction, the verdict.  0 or an exit code. */
static int finish_jobs(struct run *r, bool keep, struct kb_result **resp)
{
	struct kb_result *res = calloc(r->n, sizeof(*res));
	bool complete = true;
	int failed = 0;
	size_t i;

	if (!res) {
		msg("out of memory");
		return KB_EXIT_SYSTEM;
	}
	sample_sensors(r, true);	/* the end of the run */
	for (i = 0; i < r->n; i++)
		complete &= collect(r, &r->rj[i], &res[i]);
	complete &= destroy_jobs(r, keep);
	for (i = 0; i < r->n; i++) {
		if (res[i].st.state == KIOBENCH_STATE_FAILED && res[i].st.has_verify &&
		    res[i].st.error == -EILSEQ) {
			msg("job '%s' failed: verify found %" PRIu64 " mismatches (EILSEQ)",
			    r->rj[i].job.name, res[i].st.verify[1] + res[i].st.verify[2] +
			    res[i].st.verify[3]);
			failed++;
		} else if (res[i].st.state == KIOBENCH_STATE_FAILED || r->rj[i].limit_err) {
			msg("job '%s' failed: %s (%s)", r->rj[i].job.name,
			    strerror(-res[i].st.error), errname(-res[i].st.error));
			failed++;
		}
	}
	*resp = res;
	if (failed)
		return KB_EXIT_JOB_FAILED;
	if (!complete) {
		msg("results incomplete (see the messages above)");
		return KB_EXIT_SYSTEM;
	}
	return 0;
}

int run_jobs(struct run *r, bool keep, uint64_t start_at, struct kb_result **resp,
	     uint64_t *t_start, uint64_t *t_end)
{
	struct kb_nlerr e;
	int ret;

	*resp = NULL;
	ret = setup_checks(r);
	if (ret)
		return ret;
	if (kb_nl_open(&r->nl, true, &e))
		return nl_fail("netlink", &e);
	ret = create_jobs(r);
	if (!ret)
		ret = start_jobs(r, start_at, t_start);
	if (!ret) {
		ret = wait_jobs(r);
		if (t_end)
			*t_end = now_ns();
		for (size_t i = 0; i < r->nr_disks; i++)
			kb_disk_read(kb_sysfs_root(), &r->disks[i], true, now_ns());
		read_fdp(r, true);
	}
	if (!ret)
		ret = finish_jobs(r, keep, resp);
	if (!*resp)
		abort_jobs(r);
	kb_nl_close(&r->nl);
	free_sensors(r);
	return ret;
}

void free_run(struct run *r)
{
	size_t i;

	for (i = 0; r->rj && i < r->n; i++) {
		kb_job_free(&r->rj[i].job);
		kb_ss_free(&r->rj[i].ss);
	}
	free(r->rj);
	r->rj = NULL;
	free(r->disks);
	r->disks = NULL;
	r->nr_disks = 0;
	free(r->fdp);
	r->fdp = NULL;
	r->nr_fdp = 0;
}
