// SPDX-License-Identifier: GPL-2.0
/* The runner of the tool's unit tests (tool_test.h). */
#include "tool_test.h"

int case_failed;
char err[KB_ERRLEN];
static int n_pass, n_fail;

void run_case(const char *name, void (*fn)(void))
{
	case_failed = 0;
	fn();
	printf("%s %s\n", case_failed ? "FAIL" : "ok  ", name);
	if (case_failed)
		n_fail++;
	else
		n_pass++;
}

int main(void)
{
	values_tests();
	distrib_tests();
	steady_tests();
	results_tests();
	stats_tests();
	options_tests();
	jobfile_tests();
	output_tests();
	plan_tests();
	steps_out_tests();
	stages_out_tests();
	locality_tests();
	latt_tests();
	compare_stats_tests();
	compare_load_tests();
	fiolog_tests();
	replay_tests();
	nl_tests();
	sensors_tests();
	fdp_tests();
	sensors_cleanup();
	printf("%d passed, %d failed\n", n_pass, n_fail);
	return n_fail ? 1 : 0;
}
