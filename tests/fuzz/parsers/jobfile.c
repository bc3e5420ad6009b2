// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: a job file, as `kiobench run --parse-only JOBFILE` reads
 * it: parsed, every section built with its [global]s, checked, expanded
 * into its jobs (numjobs' clones, groups, wait_for, read_iolog's log),
 * and printed back as a job file, which must read back to the same print
 * (kbfuzz_check_print()).
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char *argv[] = { "run", "--parse-only", (char *)kbfuzz_write("job.fio", data, n), NULL };

	if (!kbfuzz_run_to("print1.fio", 3, argv))
		kbfuzz_check_print("print1.fio");
	return 0;
}
