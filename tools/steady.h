/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tool checks while a job runs (steady.c), once a second or each
 * rate_cycle: fio's steady state (steadystate, ss_dur, ss_ramp), with what
 * the reports show of it, and fio's rate_min and rate_iops_min.
 */
#ifndef KIOBENCH_STEADY_H
#define KIOBENCH_STEADY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* fio's criteria: IOPS or bandwidth; their deviation from the mean, or slope. */
enum kb_ss_crit { KB_SS_IOPS, KB_SS_IOPS_SLOPE, KB_SS_BW, KB_SS_BW_SLOPE };

struct kb_ss_opts {
	uint8_t crit;		/* enum kb_ss_crit; fio's default iops_slope:0.01% */
	bool pct;		/* the limit is a percent of the window's mean */
	double limit;		/* IOPS, bytes/s, or percent */
	uint32_t dur_s;		/* ss_dur: the window of 1 s samples; 0: no check */
	uint64_t ramp_ns;	/* ss_ramp: the samples start 1 s after it */
};

/* One job's (or group's) check while it runs. */
struct kb_steady {
	struct kb_ss_opts o;
	uint64_t *iops, *bw;	/* the last o.dur_s samples: a ring, per second */
	uint32_t n;		/* samples taken, past o.dur_s too */
	bool attained;
	double criterion;	/* of the last full window: percent when o.pct */
	double deviation;	/* its largest distance from the mean */
	double slope;		/* its least-squares slope, per second */
	uint64_t prev_ns, prev_ios, prev_bytes;	/* at the previous call */
};

/* fio's "CRIT:LIMIT[%]" (kb_base for a bandwidth limit's suffixes): 0, or -1 and err. */
int kb_ss_parse(const char *val, unsigned int kb_base, struct kb_ss_opts *o, char *err,
		size_t errlen);
/* fio's form of the criterion in its JSON, "iops_slope:0.010000%". */
void kb_ss_str(const struct kb_ss_opts *o, char *buf, size_t len);
/* The option's value as it reads back, "iops_slope:0.01%", "bw:1048576". */
void kb_ss_opt_str(const struct kb_ss_opts *o, char *buf, size_t len);
bool kb_ss_on_bw(const struct kb_ss_opts *o);	/* bw, bw_slope */
bool kb_ss_on_slope(const struct kb_ss_opts *o);	/* iops_slope, bw_slope */
/* Whether the check can ever pass (a slope needs 2 samples): 0, or -1 and err. */
int kb_ss_check_opts(const struct kb_ss_opts *o, char *err, size_t errlen);
int kb_ss_init(struct kb_steady *ss, const struct kb_ss_opts *o);
void kb_ss_free(struct kb_steady *ss);
/*
 * The totals of I/Os and bytes at now_ns, elapsed_ns into the job: a
 * sample of the rates since the previous call once the ramp and one second
 * are over, then the window's check.  true: steady state attained.
 */
bool kb_ss_sample(struct kb_steady *ss, uint64_t now_ns, uint64_t elapsed_ns, uint64_t ios,
		  uint64_t bytes);
/* The window's i-th sample in time order (of min(n, dur_s)); bw or IOPS. */
uint64_t kb_ss_at(const struct kb_steady *ss, bool bw, uint32_t i);
/* fio's mean of the window: the sum over dur_s, however many were taken. */
uint64_t kb_ss_mean(const struct kb_steady *ss, bool bw);

/*
 * fio's rate_min and rate_iops_min, per direction, judged over rate_cycle,
 * and its max_latency.  fio's "R,W,T" directions: reads, writes, trims.
 */
#define KB_LIMIT_DIRS	3
struct kb_limits {
	uint64_t bps[KB_LIMIT_DIRS], iops[KB_LIMIT_DIRS];	/* read, write, trim; 0: none */
	uint32_t cycle_ms;		/* rate_cycle: fio's 1000 */
	uint64_t max_lat_ns[KB_LIMIT_DIRS];	/* max_latency; 0: none */
};

/* One job's check: the totals at its last check, per direction. */
struct kb_limits_state {
	uint64_t ns[KB_LIMIT_DIRS], bytes[KB_LIMIT_DIRS], ios[KB_LIMIT_DIRS];
};

bool kb_limits_any(const struct kb_limits *m);
/* The job's counts per direction so far, as JOB_GET gives them. */
struct kb_limits_counts {
	uint64_t ios[KB_LIMIT_DIRS], bytes[KB_LIMIT_DIRS], lat_max[KB_LIMIT_DIRS];
};

/*
 * The job's counts at elapsed_ns into it (ramp_ns its ramp): fio's error,
 * with its message in msg, if a limit is passed, else 0:
 *   - ETIMEDOUT: a direction's longest latency over its max_latency;
 *   - EIO: a direction that has done I/O under its minimum rate over the
 *     last rate_cycle.  As fio: nothing is judged in the ramp and its
 *     first 2 s after; bytes/s is judged if given, else IOPS; the first
 *     check of a direction only starts its cycle.
 */
int kb_limits_check(const struct kb_limits *m, struct kb_limits_state *c, uint64_t elapsed_ns,
		    uint64_t ramp_ns, const struct kb_limits_counts *n, char *msg, size_t len);

#endif /* KIOBENCH_STEADY_H */
