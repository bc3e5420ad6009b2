/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare's input (compare_load.c): result files of run, sweep, suite or
 * precondition, or fio's json, read into steps of jobs for compare.c.
 */
#ifndef KIOBENCH_COMPARE_H
#define KIOBENCH_COMPARE_H

#include "compare_stats.h"
#include "kiobench.h"

/* A setting of a run: "devices", "bs" (a job option), "kernel"... */
struct kb_cmp_kv {
	char *key, *val;
};

struct kb_cmp_kvs {
	struct kb_cmp_kv *v;
	size_t n;
};

/* jobs[i].kiobench.locality: shares of the completions, in percent. */
struct kb_cmp_loc {
	bool present;
	uint64_t n;			/* completions */
	double where[3];		/* local, llc, remote */
	double ctx[3];			/* hardirq, softirq, task */
};

struct kb_cmp_job {
	char *name;
	struct kb_cmp_dir dir[KIOBENCH_NR_DIRS];
	struct kb_cmp_kvs cfg;
	int hist_bits;			/* kiobench.hist_bits; -1: none */
	struct kb_cmp_loc loc;
};

/* A run is one step with an empty label; a sweep's steps are "PART VAR=VALUE". */
struct kb_cmp_step {
	char *label;
	struct kb_cmp_kvs cfg;		/* the step's "config" */
	struct kb_cmp_job *jobs;
	size_t nr_jobs;
};

struct kb_cmp_doc {
	const char *path;
	char kind[16];			/* "run", "fio", "sweep", "suite", "precondition" */
	struct kb_cmp_step *steps;
	size_t nr_steps;
};

/*
 * Read result file path into doc: 0, KB_EXIT_USAGE (missing, not JSON,
 * not a result file) or KB_EXIT_SYSTEM (read error), with the message in err.
 */
int kb_cmp_load(const char *path, struct kb_cmp_doc *doc, char *err, size_t errlen);
/* The same from the text of a file (path for messages). */
int kb_cmp_parse(const char *path, const char *text, struct kb_cmp_doc *doc,
		 char *err, size_t errlen);
/* The buckets and intervals of one direction (not cd itself). */
void kb_cmp_dir_free(struct kb_cmp_dir *cd);
void kb_cmp_doc_free(struct kb_cmp_doc *doc);
/* The value of key in kvs, or NULL. */
const char *kb_cmp_kv_get(const struct kb_cmp_kvs *kvs, const char *key);

#endif /* KIOBENCH_COMPARE_H */
