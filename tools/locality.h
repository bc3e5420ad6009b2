/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where each I/O ran (locality.c): the module's debugfs locality file
 * parsed, the pairs (submit CPU, completion CPU) sorted by the last-level
 * cache they share (sysfs), and the devices' interrupts over the job
 * (/proc/interrupts before and after).
 */
#ifndef KIOBENCH_LOCALITY_H
#define KIOBENCH_LOCALITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum kb_loc_ctx { KB_LOC_HARDIRQ, KB_LOC_SOFTIRQ, KB_LOC_TASK, KB_LOC_NR_CTX };
enum kb_loc_where { KB_LOC_LOCAL, KB_LOC_LLC, KB_LOC_REMOTE, KB_LOC_NR_WHERE };

extern const char *const kb_loc_ctx_names[KB_LOC_NR_CTX];
extern const char *const kb_loc_where_names[KB_LOC_NR_WHERE];

/* One CPU's line: I/Os submitted on it, completed on it (by context). */
struct kb_loc_cpu {
	unsigned int cpu;
	uint64_t submitted, completed, local;
	uint64_t ctx[KB_LOC_NR_CTX];
};

struct kb_loc_pair {
	unsigned int s, c;	/* submitted on s, completed on c */
	uint64_t n;
};

struct kb_loc_queue {
	int q;			/* hardware queue; -1: none (bio-based device) */
	uint64_t n;
};

/* One interrupt of the job's devices: its count on each CPU over the job. */
struct kb_irq {
	unsigned int irq;
	char name[48];
	uint64_t total;
	uint64_t *cnt;		/* [ncpu], by /proc/interrupts' columns */
};

/* /proc/interrupts' lines of some IRQs, or their difference. */
struct kb_irqs {
	unsigned int ncpu;
	unsigned int *cpu;	/* [ncpu]: the CPU of each column */
	struct kb_irq *l;
	unsigned int nr;
};

struct kb_locality {
	bool present;
	struct kb_loc_cpu *cpus;
	unsigned int nr_cpus;
	struct kb_loc_pair *pairs;
	unsigned int nr_pairs;
	struct kb_loc_queue *queues;
	unsigned int nr_queues;
	uint64_t total;				/* completions */
	uint64_t ctx[KB_LOC_NR_CTX];
	uint64_t where[KB_LOC_NR_WHERE];	/* by the pairs */
	bool llc_known;		/* sysfs told every CPU's last-level cache */
	struct kb_irqs irqs;	/* over the job; nr 0: none found */
	bool has_irqs;		/* the devices' interrupts were looked for */
};

/* debugfs job<ID>/locality's text into loc.  0, or -1 with err set. */
int kb_loc_parse(const char *text, struct kb_locality *loc, char *err, size_t errlen);
/*
 * loc->where from its pairs: the same CPU, CPUs sharing a last-level cache
 * by sysfs under sysroot, or neither (when sysfs has no caches, "elsewhere").
 */
void kb_loc_classify(const char *sysroot, struct kb_locality *loc);
/*
 * The IRQs of the devices devs[0..n) (MSI/MSI-X vectors or the legacy
 * line of the nearest ancestor in sysfs that has any), their counts read
 * now from procfile.  0, or -1 (no such IRQ: out->nr 0).
 */
int kb_irqs_read(const char *sysroot, const char *procfile, char *const *devs, unsigned int n,
		 struct kb_irqs *out);
/* Adds the IRQs of block device dev (its nearest device's in sysfs) to irqs[0..*n). */
void kb_dev_irqs(const char *sysroot, const char *dev, unsigned int **irqs, unsigned int *n);
/* /proc/interrupts' text (changed) into out, the lines of irqs[0..nr) only.  0, or -1: none. */
int kb_irqs_parse(char *text, const unsigned int *irqs, unsigned int nr, struct kb_irqs *out);
/* after - before into after, lines without any count dropped. */
void kb_irqs_delta(struct kb_irqs *after, const struct kb_irqs *before);
void kb_irqs_free(struct kb_irqs *irqs);
/*
 * a += x, the locality of a group of jobs reported as one (group_reporting):
 * the counts per CPU, per pair, per queue and per context summed, so the
 * shares are those of the sums; each interrupt vector once.  When either
 * lacks its report, the group has none (a is freed).  0, or -1: no memory
 * (a freed).
 */
int kb_loc_add(struct kb_locality *a, const struct kb_locality *x);
void kb_loc_free(struct kb_locality *loc);

#endif /* KIOBENCH_LOCALITY_H */
