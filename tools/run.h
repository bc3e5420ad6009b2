/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running jobs in the kernel (main.c), shared by the subcommands of main.c
 * and bench.c.
 */
#ifndef KIOBENCH_RUN_H
#define KIOBENCH_RUN_H

#include <getopt.h>
#include <signal.h>

#include "kiobench.h"

#define NSEC_PER_SEC	1000000000ULL
#define OPT_BASE	1000	/* getopt_long value of kb_opts[i]: OPT_BASE + i */
#define OPT_EXTRA	2000	/* a command's own options: OPT_EXTRA + n */

struct run_job {
	struct kb_job job;
	uint32_t id;
	bool created, started, ended;
	char dir[128];
	struct kb_status st;
	/* the devices' hwmon sensors, sampled from start_ns on (main.c) */
	struct kb_hwmon *hw;
	unsigned int nr_hw;
	uint64_t start_ns, next_sample_ns;
};

struct run {
	struct kb_nl nl;
	struct run_job *rj;
	size_t n;
	uint64_t prev_ios, prev_bytes, prev_t;
};

extern volatile sig_atomic_t got_signal;

void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *errname(int err);
int nl_fail(const char *what, const struct kb_nlerr *e);
uint64_t now_ns(void);
void install_signals(void);
bool sleep_until(uint64_t t);
struct option *build_longopts(const struct option *extra);
void free_longopts(struct option *lo);
int parse_cli(int argc, char **argv, const struct option *lo, void (*usage)(FILE *),
	      struct kb_job *scratch, struct kb_global *g, struct kb_assign_list *cli,
	      int (*hook)(int c, const char *arg, void *ctx), void *ctx);
int run_jobs(struct run *r, bool keep, uint64_t start_at, struct kb_result **resp,
	     uint64_t *t_start, uint64_t *t_end);
void free_results(struct kb_result *res, size_t n);

/* bench.c */
int cmd_sweep(int argc, char **argv);
int cmd_precondition(int argc, char **argv);
int cmd_suite(int argc, char **argv);
int cmd_plot(int argc, char **argv);

#endif /* KIOBENCH_RUN_H */
