/* SPDX-License-Identifier: GPL-2.0 */
/* Running jobs in the kernel (run.c), for the commands and the parts. */
#ifndef KIOBENCH_RUN_H
#define KIOBENCH_RUN_H

#include <signal.h>

#include "kiobench.h"
#include "nl.h"
#include "result.h"
#include "sensors.h"

#define NSEC_PER_SEC	1000000000ULL

struct run_job {
	struct kb_job job;
	uint32_t id;
	bool created, started, ended;
	char dir[128];
	struct kb_status st;
	/* the devices' hwmon sensors, sampled from start_ns on */
	struct kb_hwmon *hw;
	unsigned int nr_hw;
	uint64_t start_ns, next_sample_ns;
	/* fio's execution model (commands.c fills it; 0 everywhere: start together) */
	unsigned int groupid;	/* fio's reporting group */
	size_t after;		/* jobs [0, after) end before this one starts (stonewall) */
	size_t wait_lo, wait_hi;	/* and jobs [wait_lo, wait_hi) (wait_for) */
	uint64_t delay_ns;	/* startdelay, from the start of the run */
	bool cancelled;		/* never to start: exitall or a signal came first */
	bool end_seen;		/* its end acted upon (exitall) */
	uint64_t end_ns;	/* when it was seen ended */
	/* fio's steady state: this job's, or with group_reporting its group's (the first job's) */
	struct kb_steady ss;
	bool has_ss;
	/* fio's rate_min, rate_iops_min, max_latency: their state; the error when passed */
	struct kb_limits_state limits_state;
	int limit_err;
	struct kb_irqs irqs;	/* its devices' interrupts at its start */
	bool has_irqs;
	uint64_t log_epoch_ns;	/* log_unix_epoch...: its clock at JOB_START, ns */
};

struct kb_fdp;

struct run {
	struct kb_nl nl;
	struct run_job *rj;
	size_t n;
	bool detach;		/* the jobs outlive this process */
	bool sequenced;		/* start each job when its turn comes (run_job's fields) */
	uint64_t t0;		/* CLOCK_MONOTONIC ns: the start of the run */
	struct kb_disk *disks;	/* the devices' own counts over the run */
	size_t nr_disks;
	struct kb_fdp *fdp;	/* FDP counters of write_streams jobs' NVMe devices */
	size_t nr_fdp;
	uint64_t prev_ios, prev_bytes, prev_t;	/* of the progress line */
	uint64_t tick_ns;	/* JOB_GET's period: 1 s, or the shortest rate_cycle */
};

/* The first SIGINT, SIGTERM or SIGHUP (install_signals()), else 0. */
extern volatile sig_atomic_t got_signal;

uint64_t now_ns(void);
/*
 * The first SIGINT, SIGTERM or SIGHUP stops the jobs, which are then
 * reported and destroyed; a second one kills us.  SIGPIPE is ignored, so
 * that a closed stdout or stderr does not lose what goes to --output.
 */
void install_signals(void);
/* The exit status of a command that ended ret: KB_EXIT_HANGUP after SIGHUP. */
int signal_exit(int ret);
/* Sleep until CLOCK_MONOTONIC t (ns); false if a signal came first. */
bool sleep_until(uint64_t t);
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
	     uint64_t *t_start, uint64_t *t_end);
void free_results(struct kb_result *res, size_t n);
/*
 * r->fdp: the NVMe devices of the jobs with write_streams (all: of every
 * job), once each, whose FDP statistics run_jobs() reads around the run;
 * a device without them is warned about and left out.
 */
void kb_find_fdp(struct run *r, bool all);
/* The jobs of r (not r itself). */
void free_run(struct run *r);

#endif /* KIOBENCH_RUN_H */
