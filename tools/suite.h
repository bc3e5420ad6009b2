/* SPDX-License-Identifier: GPL-2.0 */
/* Parts, preconditioning and the named suites (suite.c; plan.c, part.c, methods.c). */
#ifndef KIOBENCH_SUITE_H
#define KIOBENCH_SUITE_H

#include "kiobench.h"


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
	uint32_t streams;	/* write streams 1..k of every step (var: each step's) */
	uint64_t runtime_ns, ramp_ns, io_size, idle_ns, span;
	uint64_t burst_size, burst_total, burst_idle_ns;
	unsigned int duty;	/* percent */
	unsigned int figs;	/* FIG_* */
	enum kb_tune tune;	/* var KB_VAR_TUNE: the setting swept */
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
	const char *name, *title;
	const char *source;	/* the article's setup before the parts */
	const char *alias;	/* the drive reviewed: another name of the suite */
	const char *review;	/* the review reproduced: drive, site, year as known */
	bool writes;
	struct precond_def pre;
	const struct part_def *parts;
	unsigned int nr_parts;
};

/* What a suite's scaled parts keep at least (plan.c). */
#define KB_NS_PER_MS		1000000ULL
#define KB_MIN_STEP_NS		200000000ULL	/* a timed step: 200 ms */
#define KB_MIN_SPAN		(1ULL << 20)	/* spans and byte limits: 1 MiB */
#define KB_MIN_BURST		(1ULL << 20)	/* a burst: 1 MiB... */
#define KB_MIN_BURST_IOS	256		/* ...and 256 transfers */
#define KB_MIN_BURSTS		4

uint64_t kb_scaled(uint64_t v, double f, uint64_t unit, uint64_t min);
void kb_scale_part(struct part_def *d, double f, uint64_t basespan);

extern const struct kb_suite kb_suites[];
extern const unsigned int kb_nr_suites;

#endif /* KIOBENCH_SUITE_H */
