/* SPDX-License-Identifier: GPL-2.0 */
/* Parts, preconditioning and the named suites (suite.c, bench.c). */
#ifndef KIOBENCH_SUITE_H
#define KIOBENCH_SUITE_H

#include "kiobench.h"

#define KB_QUICK_SCALE	0.004	/* --quick: 4 minutes become about a second */
#define KB_SS_WINDOW	5	/* steady-state window, rounds */

/* Figures a part prints after its table. */
#define FIG_SCORE_QD124	(1u << 0)	/* average of QD1, QD2, QD4 */
#define FIG_MAX_LAT	(1u << 1)	/* max latency per step, average of them */
#define FIG_LAT_AT	(1u << 2)	/* mean latency at QD32 and QD128 */
#define FIG_SATURATION	(1u << 3)	/* IOPS stops growing >5 % while latency grows */
#define FIG_SCALING	(1u << 4)	/* throughput per step vs linear scaling */

/* One sweep (or burst sequence); zero fields take the user's job options. */
struct part_def {
	const char *name, *title;
	const char *rw;
	uint32_t bs;
	uint32_t iodepth;	/* total depth when not swept */
	enum kb_var var;
	const char *values;	/* value list of var */
	uint32_t split_qd;	/* workers at most, for a total depth */
	uint32_t devices;	/* k: first k devices, one job each; 0: one job */
	uint64_t runtime_ns, ramp_ns, io_size, idle_ns, span;
	uint64_t burst_size, burst_total, burst_idle_ns;
	unsigned int duty;	/* percent */
	unsigned int figs;	/* FIG_* */
};

struct precond_def {
	bool fill;		/* suites: sequential fill first */
	bool no_fill;		/* command line */
	unsigned int passes;	/* random-write passes of span bytes */
	uint32_t iodepth, bs, fill_bs;
	uint64_t span;		/* 0: the device */
	uint64_t round_size;
	bool steady;
	unsigned int max_rounds;
};

struct kb_suite {
	const char *name, *title, *source;
	bool writes;
	struct precond_def pre;
	const struct part_def *parts;
	unsigned int nr_parts;
};

extern const struct kb_suite kb_suites[];
extern const unsigned int kb_nr_suites;

#endif /* KIOBENCH_SUITE_H */
