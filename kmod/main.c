// SPDX-License-Identifier: GPL-2.0
/*
 * kiobench: an in-kernel block I/O benchmark.
 *
 * Kernel threads build bios and submit them straight to block devices;
 * completions are timestamped in bi_end_io.  Jobs are configured over the
 * "kiobench" generic netlink family; results are read from debugfs.
 * Documentation/kiobench.rst describes the whole.
 */
#include <linux/module.h>

#include "kiobench.h"

unsigned long kb_max_job_mem = 256UL << 20;
module_param_named(max_job_mem, kb_max_job_mem, ulong, 0444);
MODULE_PARM_DESC(max_job_mem,
		 "Largest charged memory of one job (buffers: workers x iodepth x bs; latency log; replay table; verify buffers and trim rings; locality counters; zone tables; random map bitmaps), bytes. Default: 256 MiB");

unsigned long kb_max_total_mem = 1UL << 30;
module_param_named(max_total_mem, kb_max_total_mem, ulong, 0444);
MODULE_PARM_DESC(max_total_mem,
		 "Largest charged memory of all jobs together (as max_job_mem), bytes. Default: 1 GiB");

unsigned int kb_max_detached_runtime = 86400;
module_param_named(max_detached_runtime, kb_max_detached_runtime, uint, 0444);
MODULE_PARM_DESC(max_detached_runtime,
		 "Longest run of a detached job (warm-up included), and longest wait of one never started, seconds. Default: 1 day");

unsigned int kb_max_socket_jobs = KB_MAX_JOBS;
module_param_named(max_socket_jobs, kb_max_socket_jobs, uint, 0444);
MODULE_PARM_DESC(max_socket_jobs,
		 "Most jobs one netlink socket may own (detached jobs excluded). Default: 64");

static int __init kb_init(void)
{
	int err;

	err = kb_job_init();
	if (err)
		return err;
	kb_debugfs_init();
	err = kb_nl_init();
	if (err)
		goto out_debugfs_exit;
	pr_info("version %s loaded\n", KB_VERSION);
	return 0;

out_debugfs_exit:
	kb_debugfs_exit();
	kb_job_exit();
	return err;
}

/* ORDER: the exact mirror of kb_init(); kb_nl_exit() stops every job. */
static void __exit kb_exit(void)
{
	kb_nl_exit();
	kb_stages_exit();	/* after every job: waits for running probes */
	kb_debugfs_exit();
	kb_job_exit();		/* after every job: frees their workers */
}

module_init(kb_init);
module_exit(kb_exit);
MODULE_DESCRIPTION("In-kernel block I/O benchmark");
MODULE_AUTHOR("The kiobench developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(KB_VERSION);
