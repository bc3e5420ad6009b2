// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer's dictionary for the parsers' targets (tests/fuzz/parsers/run
 * writes it at each run): every option name and alias the run command
 * takes, as a job file's "name=" and a command line's "--name=", and the
 * names of fio's options that kiobench refuses.
 */
#include <stdio.h>

#include "fio_opts.h"
#include "options.h"

static void word(const char *prefix, const char *name, const char *suffix)
{
	if (name)
		printf("\"%s%s%s\"\n", prefix, name, suffix);
}

int main(void)
{
	size_t i;

	for (i = 0; i < KB_NR_OPTS; i++) {
		if (!(kb_opts[i].cmds & KB_CMD_RUN))
			continue;
		word("", kb_opts[i].name, "=");
		word("--", kb_opts[i].name, "=");
		word("", kb_opts[i].alias, "=");
		if (kb_opts[i].metavar)
			word("", kb_opts[i].metavar, "");
	}
	for (i = 0; i < kb_nr_fio_refused; i++)
		word("", kb_fio_refused[i].name, "=");
	return 0;
}
