// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: a fio iolog (version 2 or 3 text), as read_iolog reads it
 * for `kiobench run --parse-only`: the log alone, and with every replay
 * option that changes how its entries are read (redirect, scale, align,
 * skip, time scale), each entry checked against the sandbox's fake device
 * (1 GiB, 512-byte blocks: sandbox.c).
 */
#include <stdio.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	static char opt[300];
	char *plain[] = { "run", "--parse-only", "--name=replay", opt, NULL };
	char *replay[] = {
		"run", "--parse-only", "--name=replay", opt, "--replay_redirect=/dev/y",
		"--replay_scale=2", "--replay_align=4096", "--replay_skip=write,sync",
		"--replay_time_scale=50", "--numjobs=2", NULL,
	};

	snprintf(opt, sizeof(opt), "--read_iolog=%s", kbfuzz_write("fuzz.log", data, n));
	kbfuzz_run(4, plain);
	kbfuzz_run(10, replay);
	return 0;
}
