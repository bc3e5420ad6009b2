// SPDX-License-Identifier: GPL-2.0
/*
 * The memory charge: what a job's settings make the kernel allocate is
 * charged to the job (job->mem, at most max_job_mem) and to all jobs
 * together (at most max_total_mem) before it is allocated, and released
 * when the job is destroyed.  Called by job.c and by the files that
 * allocate for a job while its devices are checked (zone.c).
 */
#include <linux/atomic.h>
#include <linux/overflow.h>

#include "kiobench.h"

static atomic64_t kb_mem_used = ATOMIC64_INIT(0);

u64 kb_total_mem(void)
{
	return atomic64_read(&kb_mem_used);
}

/**
 * kb_job_charge() - charge memory to a job before allocating it
 * @job: the job being made
 * @bytes: what is about to be allocated (SIZE_MAX: overflowed)
 * @extack: where to say which limit it passes
 *
 * Adds @bytes to the job's charge (job->mem) and all jobs' together,
 * unless the job's would pass max_job_mem (-E2BIG) or all jobs' would
 * pass max_total_mem (-ENOMEM).  kb_job_uncharge() releases the job's
 * whole charge.
 *
 * Return: 0, -E2BIG or -ENOMEM.
 */
int kb_job_charge(struct kb_job *job, u64 bytes, struct netlink_ext_ack *extack)
{
	u64 mem;

	if (check_add_overflow(job->mem, bytes, &mem) || mem > kb_max_job_mem) {
		NL_SET_ERR_MSG(extack,
			       "memory: iodepth x bs x workers, lat-log, replay-nr, verify, trim-backlog, locality, zones, latency-target, random map: above the module's max_job_mem");
		return -E2BIG;
	}
	if (atomic64_add_return(bytes, &kb_mem_used) > kb_max_total_mem) {
		atomic64_sub(bytes, &kb_mem_used);
		NL_SET_ERR_MSG(extack,
			       "memory: iodepth x bs x workers, lat-log, replay-nr, verify, trim-backlog, locality, zones, latency-target, random map: all jobs together above max_total_mem");
		return -ENOMEM;
	}
	job->mem = mem;
	return 0;
}

/* Releases the job's whole charge (what kb_job_charge() added). */
void kb_job_uncharge(struct kb_job *job)
{
	atomic64_sub(job->mem, &kb_mem_used);
	job->mem = 0;
}
