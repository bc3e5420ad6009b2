/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unit tests of the kiobench tool's layers under netlink, and of the
 * netlink client's messages without a socket, one file per file of
 * tools/ (test_values.c tests values.c...).  Built and run by
 * "make -C tools test": one line per case, then "N passed, M failed";
 * the exit status is non-zero on any failure.
 */
#ifndef KIOBENCH_TOOL_TEST_H
#define KIOBENCH_TOOL_TEST_H

#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "kiobench.h"
#include "result.h"

extern int case_failed;
extern char err[KB_ERRLEN];	/* for the functions under test */

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		printf("    check failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
		case_failed = 1;					\
	}								\
} while (0)

#define CHECK_STR(a, b) do {						\
	const char *_a = (a), *_b = (b);				\
	if (strcmp(_a, _b)) {						\
		printf("    check failed: \"%s\" != \"%s\" (%s:%d)\n", _a, _b, \
		       __FILE__, __LINE__);				\
		case_failed = 1;					\
	}								\
} while (0)

void run_case(const char *name, void (*fn)(void));

/* fixtures.c */
/* dir/rel gets text (the directories must exist). */
void write_text(const char *dir, const char *rel, const char *text);
/* Option name=val applied as the user would (err: the message). */
int apply(struct kb_job *job, struct kb_global *g, const char *name, const char *val);
/* Options applied in turn from NULL-terminated name, value pairs: 0, or -1 at the first refused. */
int apply_all(struct kb_job *job, const char *const *kv);
/* A histogram of buckets b[0..nr) seen between min and max. */
void mkhist(struct kb_hist *h, const struct kb_bucket *b, size_t nr, uint64_t min, uint64_t max);
/* Results of a job as the tool collects them. */
extern const char hist_text[], hist_text2[];
void make_result(struct kb_result *r, struct kb_job *job, uint64_t n);
void free_result(struct kb_result *r, struct kb_job *job);
void free_hw_results(struct kb_result *r, struct kb_job *job);
/* What fn prints of r (one result), as a string to free. */
char *capture(void (*fn)(FILE *, const struct kb_result *, size_t), const struct kb_result *r);

/* One function per file: runs its cases. */
void values_tests(void);
void distrib_tests(void);
void steady_tests(void);
void options_tests(void);
void jobfile_tests(void);
void results_tests(void);
void stats_tests(void);
void plan_tests(void);
void output_tests(void);
void sensors_tests(void);
void fdp_tests(void);
void steps_out_tests(void);
void stages_out_tests(void);
void locality_tests(void);
void latt_tests(void);
void compare_stats_tests(void);
void compare_load_tests(void);
void fiolog_tests(void);
void replay_tests(void);
void nl_tests(void);
void sensors_cleanup(void);

#endif /* KIOBENCH_TOOL_TEST_H */
