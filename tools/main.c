// SPDX-License-Identifier: GPL-2.0
/*
 * kiobench: userspace front end of the in-kernel block I/O benchmark.
 * The table of commands and the dispatch; kiobench.h lists the layers.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "top.h"
#include "tuning.h"

static const struct command {
	const char *name, *args, *help;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "run", "[OPTIONS] [JOBFILE]", "configure, run and report one or more jobs", cmd_run },
	{ "sweep", "[OPTIONS]", "one job per step of a swept variable, or bursts", cmd_sweep },
	{ "precondition", "[OPTIONS]", "sequential fill, random-write passes, steady state",
	  cmd_precondition },
	{ "suite", "NAME [OPTIONS]", "a review methodology as one command (--list)", cmd_suite },
	{ "compare", "BASE NEW", "two results side by side: changes, significance",
	  cmd_compare },
	{ "merge", "RESULTS.json...", "one job's results of several hosts as a fleet's",
	  cmd_merge },
	{ "plot", "RESULTS.json...", "charts of sweep/suite results (kiobench-plot)", cmd_plot },
	{ "features", "", "show the module's version and limits", cmd_features },
	{ "list", "", "list the jobs that exist in the kernel", cmd_list },
	{ "stop", "ID", "ask a running job to stop", cmd_stop },
	{ "destroy", "ID", "destroy a job that is not running", cmd_destroy },
	{ "top", "[--batch]", "every job in the kernel, live: IOPS, latency, depth, locality",
	  cmd_top },
};

static void usage_main(FILE *f)
{
	char synopsis[64];
	size_t i;

	fprintf(f,
		"Usage: kiobench COMMAND [ARGS]\n"
		"In-kernel block I/O benchmark (kiobench.ko) front end.\n"
		"\n"
		"Commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		snprintf(synopsis, sizeof(synopsis), "%s %s", commands[i].name, commands[i].args);
		fprintf(f, "  %-24s %s\n", synopsis, commands[i].help);
	}
	fprintf(f,
		"\n"
		"Options:\n"
		"  -h, --help               show this help\n"
		"  -V, --version            show the version\n"
		"\n"
		"'kiobench COMMAND --help' describes a command; see kiobench(1).\n");
}

int main(int argc, char **argv)
{
	const char *cmd;
	size_t i;

	if (argc < 2) {
		msg("missing command");
		usage_main(stderr);
		return KB_EXIT_USAGE;
	}
	cmd = argv[1];
	kb_tune_recover();	/* what a killed kiobench left changed */
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		usage_main(stdout);
		return KB_EXIT_OK;
	}
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
		printf("kiobench %s (netlink interface version %d)\n", KB_TOOL_VERSION,
		       KIOBENCH_GENL_VERSION);
		return KB_EXIT_OK;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(cmd, commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	if (cmd[0] == '-')
		msg("unknown option '%s' before the command (see 'kiobench --help')", cmd);
	else
		msg("unknown command '%s' (see 'kiobench --help')", cmd);
	return KB_EXIT_USAGE;
}
