// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: a command line, `kiobench run --parse-only ARGS...`, one
 * argument a line of the input (a NUL also ends one), at most MAX_ARGS:
 * getopt_long over the run command's options, each value parsed, the
 * --name'd jobs built, checked and printed; a job file argument may name
 * the sandbox's inc.fio or job.fio (the input itself).  The print, read
 * as a job file, must print the same (kbfuzz_check_print()): the command
 * line and the job file mean the same.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define MAX_ARGS	64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char *argv[MAX_ARGS + 3] = { "run", "--parse-only" }, *text, *p;
	int argc = 2;

	kbfuzz_write("job.fio", data, n);
	text = malloc(n + 1);
	if (!text)
		return 0;
	memcpy(text, data, n);
	text[n] = '\0';
	for (p = text; p < text + n && argc < MAX_ARGS + 2; p += strlen(p) + 1) {
		p[strcspn(p, "\n")] = '\0';
		argv[argc++] = p;
	}
	argv[argc] = NULL;
	if (!kbfuzz_run_to("print1.fio", argc, argv))
		kbfuzz_check_print("print1.fio");
	free(text);
	return 0;
}
