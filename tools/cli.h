/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line (cli.c): messages on stderr, the live progress line,
 * getopt_long built from the option table, and usage texts.
 */
#ifndef KIOBENCH_CLI_H
#define KIOBENCH_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "kiobench.h"
#include "nl.h"

#define KB_OPT_BASE	1000	/* getopt_long value of kb_opts[i]: KB_OPT_BASE + i */

/* "kiobench: ..." on stderr, after wiping a live progress line. */
void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A progress line on stderr, replaced by the next one or by msg(). */
void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_clear(void);
const char *errname(int err);
/* Report a failed netlink request; returns KB_EXIT_SYSTEM. */
int nl_fail(const char *what, const struct kb_nlerr *e);
/*
 * "WHAT DEVICE MORE: refusing without --allow-writes (...)": a workload
 * that writes, without the user's leave.  Returns KB_EXIT_USAGE.
 */
int refuse_writes(const char *what, const char *device, const char *more);

/* getopt_long with only --help; returns -1 to go on, else an exit code. */
int simple_opts(int argc, char **argv, void (*usage)(FILE *));
/*
 * getopt_long over the options of command g->cmd.  Job options are
 * checked on scratch and appended to cli (in sweeps, those that take a
 * value list go to g->list instead); the command's options go to g.
 * Returns -1 to go on (optind at the first operand), else an exit code.
 */
int parse_cli(int argc, char **argv, void (*usage)(FILE *), struct kb_job *scratch,
	      struct kb_global *g, struct kb_assign_list *cli);
/*
 * The option lines of command cmd for its usage: the job options (all) or
 * only the command's own and the value lists of a sweep.
 */
void usage_options(FILE *f, unsigned int cmd, bool job_opts);

#endif /* KIOBENCH_CLI_H */
