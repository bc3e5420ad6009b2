/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * kiobench: in-kernel block I/O benchmark, generic netlink interface.
 *
 * Documentation/netlink/specs/kiobench.yaml is the normative description of
 * this family; tests/unit/test_spec.py checks that this header (its enums
 * and the attribute lists below) matches it and kmod/netlink.c, and
 * tests/unit/test_ynl_gen.py that it matches what the kernel's YNL
 * generator makes of the spec.
 *
 * Family "kiobench", version KIOBENCH_GENL_VERSION, multicast group
 * "events".  Every operation needs CAP_SYS_ADMIN (checked in the handlers,
 * and CAP_NET_ADMIN through GENL_ADMIN_PERM).  Below, for each command,
 * every attribute of its request, reply or event; "nothing": none.
 *
 * KIOBENCH_CMD_GET_FEATURES (do)
 *	The version and the limits.
 *	Request: nothing.
 *	Reply: KIOBENCH_A_VERSION, KIOBENCH_A_LIMIT_JOBS,
 *	KIOBENCH_A_LIMIT_DEVICES, KIOBENCH_A_LIMIT_WORKERS,
 *	KIOBENCH_A_LIMIT_IODEPTH, KIOBENCH_A_LIMIT_BS, KIOBENCH_A_LIMIT_BSSPLIT,
 *	KIOBENCH_A_LIMIT_JOB_MEM, KIOBENCH_A_LIMIT_TOTAL_MEM,
 *	KIOBENCH_A_HIST_BITS, KIOBENCH_A_HIST_BUCKETS, KIOBENCH_A_LIMIT_LAT_LOG,
 *	KIOBENCH_A_LIMIT_RATE_IOPS, KIOBENCH_A_LIMIT_SOCKET_JOBS,
 *	KIOBENCH_A_LIMIT_DETACHED_NS.
 * KIOBENCH_CMD_JOB_NEW (do)
 *	Opens the devices and allocates every buffer; nothing is submitted
 *	yet.  KIOBENCH_A_DEVICES is required.
 *	Request: KIOBENCH_A_JOB_NAME, KIOBENCH_A_DEVICES, KIOBENCH_A_RANDOM,
 *	KIOBENCH_A_RWMIX_READ, KIOBENCH_A_ALLOW_WRITES, KIOBENCH_A_BSSPLIT,
 *	KIOBENCH_A_IODEPTH, KIOBENCH_A_NUMJOBS, KIOBENCH_A_CPUS,
 *	KIOBENCH_A_OFFSET, KIOBENCH_A_SIZE, KIOBENCH_A_RUNTIME_NS,
 *	KIOBENCH_A_IO_BYTES, KIOBENCH_A_NUMBER_IOS, KIOBENCH_A_RAMP_NS,
 *	KIOBENCH_A_SEED, KIOBENCH_A_INTERVAL_NS, KIOBENCH_A_CONTINUE_ON_ERROR,
 *	KIOBENCH_A_LAT_LOG, KIOBENCH_A_DETACH, KIOBENCH_A_RATE_IOPS,
 *	KIOBENCH_A_RATE_PROCESS, KIOBENCH_A_STAGES, KIOBENCH_A_COMPLETION,
 *	KIOBENCH_A_NORANDOMMAP, KIOBENCH_A_PRIOCLASS, KIOBENCH_A_PRIO,
 *	KIOBENCH_A_CMDPRIO_PERCENTAGE, KIOBENCH_A_CMDPRIO_CLASS,
 *	KIOBENCH_A_CMDPRIO, KIOBENCH_A_CMDPRIO_PERCENTAGE_WRITE,
 *	KIOBENCH_A_CMDPRIO_CLASS_WRITE, KIOBENCH_A_CMDPRIO_WRITE,
 *	KIOBENCH_A_THINKTIME_NS, KIOBENCH_A_THINKTIME_SPIN_NS,
 *	KIOBENCH_A_THINKTIME_BLOCKS, KIOBENCH_A_THINKTIME_IOTIME_NS,
 *	KIOBENCH_A_RANDOM_ZONES, KIOBENCH_A_RANDOM_CDF.
 *	The job belongs to the requesting socket: when that socket is closed
 *	(its process exits or is killed) the job is stopped and destroyed.
 *	With KIOBENCH_A_DETACH it belongs to no socket and runs at most the
 *	module's max_detached_runtime.
 *	Reply: the job's status: KIOBENCH_A_JOB_ID, KIOBENCH_A_JOB_NAME,
 *	KIOBENCH_A_JOB_STATE, KIOBENCH_A_JOB_ERROR, KIOBENCH_A_DEBUGFS_DIR,
 *	KIOBENCH_A_JOB_NR_WORKERS, KIOBENCH_A_JOB_ELAPSED_NS,
 *	KIOBENCH_A_JOB_MEASURED_NS, KIOBENCH_A_JOB_CPU_NS,
 *	KIOBENCH_A_JOB_ZERO_READS, KIOBENCH_A_JOB_RETRIES,
 *	KIOBENCH_A_JOB_OWNER, KIOBENCH_A_JOB_STATS
 *	(one nest per direction), and the job's settings as the kernel holds
 *	them, in the request's attributes: KIOBENCH_A_DEVICES, KIOBENCH_A_JOB_SPAN_LEN,
 *	KIOBENCH_A_RANDOM, KIOBENCH_A_RWMIX_READ, KIOBENCH_A_ALLOW_WRITES,
 *	KIOBENCH_A_BSSPLIT, KIOBENCH_A_IODEPTH, KIOBENCH_A_NUMJOBS,
 *	KIOBENCH_A_CPUS, KIOBENCH_A_OFFSET, KIOBENCH_A_SIZE,
 *	KIOBENCH_A_RUNTIME_NS, KIOBENCH_A_IO_BYTES, KIOBENCH_A_NUMBER_IOS,
 *	KIOBENCH_A_RAMP_NS, KIOBENCH_A_SEED, KIOBENCH_A_INTERVAL_NS,
 *	KIOBENCH_A_CONTINUE_ON_ERROR, KIOBENCH_A_LAT_LOG, KIOBENCH_A_DETACH,
 *	KIOBENCH_A_RATE_IOPS, KIOBENCH_A_RATE_PROCESS, KIOBENCH_A_STAGES,
 *	KIOBENCH_A_COMPLETION, KIOBENCH_A_NORANDOMMAP, KIOBENCH_A_PRIOCLASS,
 *	KIOBENCH_A_PRIO, KIOBENCH_A_CMDPRIO_PERCENTAGE, KIOBENCH_A_CMDPRIO_CLASS,
 *	KIOBENCH_A_CMDPRIO, KIOBENCH_A_CMDPRIO_PERCENTAGE_WRITE,
 *	KIOBENCH_A_CMDPRIO_CLASS_WRITE, KIOBENCH_A_CMDPRIO_WRITE,
 *	KIOBENCH_A_THINKTIME_NS, KIOBENCH_A_THINKTIME_SPIN_NS,
 *	KIOBENCH_A_THINKTIME_BLOCKS, KIOBENCH_A_THINKTIME_IOTIME_NS,
 *	KIOBENCH_A_RANDOM_ZONES, KIOBENCH_A_RANDOM_CDF (a flag or a limit
 *	that is off is absent; the span on each device follows the devices).
 * KIOBENCH_CMD_JOB_START (do)
 *	NEW -> RUNNING.
 *	Request: KIOBENCH_A_JOB_ID.
 *	Reply: nothing.
 * KIOBENCH_CMD_JOB_STOP (do)
 *	Asks a RUNNING job to stop; its workers stop submitting, drain what
 *	is in flight and the job ends STOPPED.
 *	Request: KIOBENCH_A_JOB_ID.
 *	Reply: nothing.
 * KIOBENCH_CMD_JOB_GET (do, dump)
 *	One job (do) or every job (dump).
 *	Request: KIOBENCH_A_JOB_ID.
 *	Dump request: nothing.
 *	Reply: the job's status, as the reply to JOB_NEW: KIOBENCH_A_JOB_ID,
 *	KIOBENCH_A_JOB_NAME, KIOBENCH_A_JOB_STATE, KIOBENCH_A_JOB_ERROR,
 *	KIOBENCH_A_DEBUGFS_DIR, KIOBENCH_A_JOB_NR_WORKERS,
 *	KIOBENCH_A_JOB_ELAPSED_NS, KIOBENCH_A_JOB_MEASURED_NS,
 *	KIOBENCH_A_JOB_CPU_NS, KIOBENCH_A_JOB_ZERO_READS, KIOBENCH_A_JOB_RETRIES,
 *	KIOBENCH_A_JOB_OWNER,
 *	KIOBENCH_A_JOB_STATS (one nest per direction) and the settings:
 *	KIOBENCH_A_DEVICES, KIOBENCH_A_JOB_SPAN_LEN,
 *	KIOBENCH_A_RANDOM, KIOBENCH_A_RWMIX_READ, KIOBENCH_A_ALLOW_WRITES,
 *	KIOBENCH_A_BSSPLIT, KIOBENCH_A_IODEPTH, KIOBENCH_A_NUMJOBS,
 *	KIOBENCH_A_CPUS, KIOBENCH_A_OFFSET, KIOBENCH_A_SIZE,
 *	KIOBENCH_A_RUNTIME_NS, KIOBENCH_A_IO_BYTES, KIOBENCH_A_NUMBER_IOS,
 *	KIOBENCH_A_RAMP_NS, KIOBENCH_A_SEED, KIOBENCH_A_INTERVAL_NS,
 *	KIOBENCH_A_CONTINUE_ON_ERROR, KIOBENCH_A_LAT_LOG, KIOBENCH_A_DETACH,
 *	KIOBENCH_A_RATE_IOPS, KIOBENCH_A_RATE_PROCESS, KIOBENCH_A_STAGES,
 *	KIOBENCH_A_COMPLETION, KIOBENCH_A_NORANDOMMAP, KIOBENCH_A_PRIOCLASS,
 *	KIOBENCH_A_PRIO, KIOBENCH_A_CMDPRIO_PERCENTAGE, KIOBENCH_A_CMDPRIO_CLASS,
 *	KIOBENCH_A_CMDPRIO, KIOBENCH_A_CMDPRIO_PERCENTAGE_WRITE,
 *	KIOBENCH_A_CMDPRIO_CLASS_WRITE, KIOBENCH_A_CMDPRIO_WRITE,
 *	KIOBENCH_A_THINKTIME_NS, KIOBENCH_A_THINKTIME_SPIN_NS,
 *	KIOBENCH_A_THINKTIME_BLOCKS, KIOBENCH_A_THINKTIME_IOTIME_NS,
 *	KIOBENCH_A_RANDOM_ZONES, KIOBENCH_A_RANDOM_CDF.
 * KIOBENCH_CMD_JOB_DEL (do)
 *	Destroys a job that is not RUNNING.
 *	Request: KIOBENCH_A_JOB_ID.
 *	Reply: nothing.
 * KIOBENCH_CMD_JOB_NTF (multicast "events")
 *	Sent when a job starts and when it reaches DONE, STOPPED or FAILED.
 *	Event: the job's status without its statistics: KIOBENCH_A_JOB_ID,
 *	KIOBENCH_A_JOB_NAME, KIOBENCH_A_JOB_STATE, KIOBENCH_A_JOB_ERROR,
 *	KIOBENCH_A_DEBUGFS_DIR, KIOBENCH_A_JOB_NR_WORKERS,
 *	KIOBENCH_A_JOB_ELAPSED_NS, KIOBENCH_A_JOB_MEASURED_NS,
 *	KIOBENCH_A_JOB_CPU_NS, KIOBENCH_A_JOB_ZERO_READS, KIOBENCH_A_JOB_RETRIES,
 *	KIOBENCH_A_JOB_OWNER
 *	and the settings: KIOBENCH_A_DEVICES, KIOBENCH_A_JOB_SPAN_LEN,
 *	KIOBENCH_A_RANDOM, KIOBENCH_A_RWMIX_READ, KIOBENCH_A_ALLOW_WRITES,
 *	KIOBENCH_A_BSSPLIT, KIOBENCH_A_IODEPTH, KIOBENCH_A_NUMJOBS,
 *	KIOBENCH_A_CPUS, KIOBENCH_A_OFFSET, KIOBENCH_A_SIZE,
 *	KIOBENCH_A_RUNTIME_NS, KIOBENCH_A_IO_BYTES, KIOBENCH_A_NUMBER_IOS,
 *	KIOBENCH_A_RAMP_NS, KIOBENCH_A_SEED, KIOBENCH_A_INTERVAL_NS,
 *	KIOBENCH_A_CONTINUE_ON_ERROR, KIOBENCH_A_LAT_LOG, KIOBENCH_A_DETACH,
 *	KIOBENCH_A_RATE_IOPS, KIOBENCH_A_RATE_PROCESS, KIOBENCH_A_STAGES,
 *	KIOBENCH_A_COMPLETION, KIOBENCH_A_NORANDOMMAP, KIOBENCH_A_PRIOCLASS,
 *	KIOBENCH_A_PRIO, KIOBENCH_A_CMDPRIO_PERCENTAGE, KIOBENCH_A_CMDPRIO_CLASS,
 *	KIOBENCH_A_CMDPRIO, KIOBENCH_A_CMDPRIO_PERCENTAGE_WRITE,
 *	KIOBENCH_A_CMDPRIO_CLASS_WRITE, KIOBENCH_A_CMDPRIO_WRITE,
 *	KIOBENCH_A_THINKTIME_NS, KIOBENCH_A_THINKTIME_SPIN_NS,
 *	KIOBENCH_A_THINKTIME_BLOCKS, KIOBENCH_A_THINKTIME_IOTIME_NS,
 *	KIOBENCH_A_RANDOM_ZONES, KIOBENCH_A_RANDOM_CDF.
 */
#ifndef _UAPI_LINUX_KIOBENCH_H
#define _UAPI_LINUX_KIOBENCH_H

#include <linux/types.h>

#define KIOBENCH_GENL_NAME	"kiobench"
#define KIOBENCH_GENL_VERSION	1
#define KIOBENCH_MCGRP_EVENTS	"events"

enum kiobench_job_state {
	KIOBENCH_STATE_NEW,	/* created, devices open, not started */
	KIOBENCH_STATE_RUNNING,	/* workers submitting (or draining) */
	KIOBENCH_STATE_DONE,	/* ended by a limit */
	KIOBENCH_STATE_STOPPED,	/* ended by JOB_STOP */
	KIOBENCH_STATE_FAILED,	/* ended by an I/O error (stop-on-error) */
};

enum kiobench_dir {
	KIOBENCH_DIR_READ,
	KIOBENCH_DIR_WRITE,
	KIOBENCH_NR_DIRS,
};

/* How a worker waits for its completions (KIOBENCH_A_COMPLETION). */
enum kiobench_completion {
	KIOBENCH_COMPLETION_SLEEP,	/* sleeps until a completion wakes it */
	KIOBENCH_COMPLETION_SPIN,	/* busy-waits on its completion list */
	KIOBENCH_COMPLETION_POLL,	/* REQ_POLLED bios, reaped by bio_poll() */
};

/* Arrivals of an open-loop job (KIOBENCH_A_RATE_PROCESS). */
enum kiobench_rate_process {
	KIOBENCH_RATE_LINEAR,		/* evenly spaced */
	KIOBENCH_RATE_POISSON,		/* exponential gaps, same mean */
};

enum kiobench_cmd {
	KIOBENCH_CMD_UNSPEC,
	KIOBENCH_CMD_GET_FEATURES,
	KIOBENCH_CMD_JOB_NEW,
	KIOBENCH_CMD_JOB_START,
	KIOBENCH_CMD_JOB_STOP,
	KIOBENCH_CMD_JOB_GET,
	KIOBENCH_CMD_JOB_DEL,
	KIOBENCH_CMD_JOB_NTF,

	__KIOBENCH_CMD_MAX,
	KIOBENCH_CMD_MAX = __KIOBENCH_CMD_MAX - 1
};

/* Top-level attributes. */
enum kiobench_attr {
	KIOBENCH_A_UNSPEC,
	KIOBENCH_A_PAD,

	/* features / limits (GET_FEATURES reply) */
	KIOBENCH_A_VERSION,		/* u32: KIOBENCH_GENL_VERSION */
	KIOBENCH_A_LIMIT_JOBS,		/* u32: jobs that may exist at once */
	KIOBENCH_A_LIMIT_DEVICES,	/* u32: devices per job */
	KIOBENCH_A_LIMIT_WORKERS,	/* u32: workers per job */
	KIOBENCH_A_LIMIT_IODEPTH,	/* u32: queue depth per worker */
	KIOBENCH_A_LIMIT_BS,		/* u32: largest transfer size, bytes */
	KIOBENCH_A_LIMIT_BSSPLIT,	/* u32: entries in a bssplit */
	KIOBENCH_A_LIMIT_JOB_MEM,	/* u64: buffer + latency log bytes per job */
	KIOBENCH_A_LIMIT_TOTAL_MEM,	/* u64: the same, all jobs */
	KIOBENCH_A_HIST_BITS,		/* u32: histogram sub-bucket bits */
	KIOBENCH_A_HIST_BUCKETS,	/* u32: histogram buckets */

	/* job configuration (JOB_NEW) */
	KIOBENCH_A_JOB_NAME,		/* string, < KIOBENCH_NAME_LEN */
	KIOBENCH_A_DEVICES,		/* nest: KIOBENCH_DEV_A_PATH, 1+ */
	KIOBENCH_A_RANDOM,		/* flag: random offsets, else sequential */
	KIOBENCH_A_RWMIX_READ,		/* u8 0..100: % reads (default 100) */
	KIOBENCH_A_ALLOW_WRITES,	/* flag: required for any write */
	KIOBENCH_A_BSSPLIT,		/* nest: KIOBENCH_BSS_A_ENTRY, 1+ */
	KIOBENCH_A_IODEPTH,		/* u32: in flight per worker (1) */
	KIOBENCH_A_NUMJOBS,		/* u32: workers per device (1) */
	KIOBENCH_A_CPUS,		/* binary: u32[] CPUs (<= 1024), round robin */
	KIOBENCH_A_OFFSET,		/* u64: span start, bytes (0) */
	KIOBENCH_A_SIZE,		/* u64: span length, bytes (to end) */
	KIOBENCH_A_RUNTIME_NS,		/* u64: measured time, after ramp */
	KIOBENCH_A_IO_BYTES,		/* u64: bytes to transfer, all workers */
	KIOBENCH_A_NUMBER_IOS,		/* u64: I/Os to issue, all workers */
	KIOBENCH_A_RAMP_NS,		/* u64: warm-up, excluded from stats */
	KIOBENCH_A_SEED,		/* u64: random seed */
	KIOBENCH_A_INTERVAL_NS,		/* u64: timeline interval (1 s) */
	KIOBENCH_A_CONTINUE_ON_ERROR,	/* flag: count I/O errors, go on */

	/* job identity and status (JOB_NEW reply, JOB_GET, JOB_NTF) */
	KIOBENCH_A_JOB_ID,		/* u32 */
	KIOBENCH_A_DEBUGFS_DIR,		/* string: dir under kiobench/ */
	KIOBENCH_A_JOB_STATE,		/* u8: enum kiobench_job_state */
	KIOBENCH_A_JOB_ERROR,		/* s32: -errno that failed the job, or 0 */
	KIOBENCH_A_JOB_ELAPSED_NS,	/* u64: since start, ramp included */
	KIOBENCH_A_JOB_MEASURED_NS,	/* u64: since ramp end */
	KIOBENCH_A_JOB_STATS,		/* nest: KIOBENCH_STAT_A_*, one per dir */
	KIOBENCH_A_JOB_NR_WORKERS,	/* u32 */

	/* added in kiobench 0.2 */
	KIOBENCH_A_LAT_LOG,		/* u32: per-I/O log entries (JOB_NEW; 0) */
	KIOBENCH_A_LIMIT_LAT_LOG,	/* u32: largest KIOBENCH_A_LAT_LOG */
	KIOBENCH_A_JOB_CPU_NS,		/* u64: CPU time of the workers */
	KIOBENCH_A_JOB_ZERO_READS,	/* u64: reads of all-zero blocks */

	/* added in kiobench 0.3 */
	KIOBENCH_A_DETACH,		/* flag: the job outlives its socket */
	KIOBENCH_A_JOB_OWNER,		/* u32: owning socket's port id; 0: detached */

	/* added in kiobench 0.4 */
	KIOBENCH_A_RATE_IOPS,		/* u32: open-loop arrivals/s per worker */
	KIOBENCH_A_RATE_PROCESS,	/* u8: enum kiobench_rate_process */
	KIOBENCH_A_STAGES,		/* flag: per-stage latency split */
	KIOBENCH_A_COMPLETION,		/* u8: enum kiobench_completion (sleep) */
	KIOBENCH_A_LIMIT_RATE_IOPS,	/* u32: largest KIOBENCH_A_RATE_IOPS */
	KIOBENCH_A_LIMIT_SOCKET_JOBS,	/* u32: jobs one socket may own */
	KIOBENCH_A_LIMIT_DETACHED_NS,	/* u64: ramp + runtime of a detached job */

	/* added in kiobench 0.5: the status reply states the job's settings */
	KIOBENCH_A_JOB_SPAN_LEN,	/* u64: span on each device, one per device */
	KIOBENCH_A_JOB_RETRIES,		/* u64: polled bios refused for a tag */

	/* added in kiobench 0.6 */
	KIOBENCH_A_NORANDOMMAP,		/* flag: random offsets with replacement */
	KIOBENCH_A_PRIOCLASS,		/* u8: bi_ioprio class of every bio (0) */
	KIOBENCH_A_PRIO,		/* u8: its level, 0..7 (0) */
	KIOBENCH_A_CMDPRIO_PERCENTAGE,	/* u8: % of I/Os with the cmdprio (0) */
	KIOBENCH_A_CMDPRIO_CLASS,	/* u8: their class (1: realtime) */
	KIOBENCH_A_CMDPRIO,		/* u8: their level (0) */
	KIOBENCH_A_CMDPRIO_PERCENTAGE_WRITE,	/* u8: the writes' (as reads') */
	KIOBENCH_A_CMDPRIO_CLASS_WRITE,	/* u8: the writes' class (as reads') */
	KIOBENCH_A_CMDPRIO_WRITE,	/* u8: the writes' level (as reads') */

	/* added in kiobench 0.7: fio's thinktime */
	KIOBENCH_A_THINKTIME_NS,	/* u64: pause after a batch of I/Os */
	KIOBENCH_A_THINKTIME_SPIN_NS,	/* u64: of it spinning */
	KIOBENCH_A_THINKTIME_BLOCKS,	/* u32: completions between pauses */
	KIOBENCH_A_THINKTIME_IOTIME_NS,	/* u64: I/O time between pauses */

	/* added in kiobench 0.8: fio's random_distribution=zoned, zoned_abs */
	KIOBENCH_A_RANDOM_ZONES,	/* nest: KIOBENCH_ZONE_A_ENTRY, 1+ */
	KIOBENCH_A_RANDOM_CDF,		/* binary: struct kiobench_cdf_ent[] */

	__KIOBENCH_A_MAX,
	KIOBENCH_A_MAX = __KIOBENCH_A_MAX - 1
};

/* Inside KIOBENCH_A_DEVICES. */
enum kiobench_dev_attr {
	KIOBENCH_DEV_A_UNSPEC,
	KIOBENCH_DEV_A_PATH,		/* string: block device path, repeated */

	__KIOBENCH_DEV_A_MAX,
	KIOBENCH_DEV_A_MAX = __KIOBENCH_DEV_A_MAX - 1
};

/* Inside KIOBENCH_A_BSSPLIT: KIOBENCH_BSS_A_ENTRY nests. */
enum kiobench_bss_attr {
	KIOBENCH_BSS_A_UNSPEC,
	KIOBENCH_BSS_A_ENTRY,		/* nest: SIZE, WEIGHT */
	KIOBENCH_BSS_A_SIZE,		/* u32: bytes, multiple of LBS */
	KIOBENCH_BSS_A_WEIGHT,		/* u32: relative weight, 1..100 */

	__KIOBENCH_BSS_A_MAX,
	KIOBENCH_BSS_A_MAX = __KIOBENCH_BSS_A_MAX - 1
};

/* Inside KIOBENCH_A_RANDOM_ZONES: KIOBENCH_ZONE_A_ENTRY nests. */
enum kiobench_zone_attr {
	KIOBENCH_ZONE_A_UNSPEC,
	KIOBENCH_ZONE_A_PAD,
	KIOBENCH_ZONE_A_ENTRY,		/* nest: DIR, ACCESS_PCT, SIZE_PCT or SIZE */
	KIOBENCH_ZONE_A_DIR,		/* u8: enum kiobench_dir */
	KIOBENCH_ZONE_A_ACCESS_PCT,	/* u8: share of the offsets, 1..100 */
	KIOBENCH_ZONE_A_SIZE_PCT,	/* u8: length, percent of the span */
	KIOBENCH_ZONE_A_SIZE,		/* u64: length, bytes */

	__KIOBENCH_ZONE_A_MAX,
	KIOBENCH_ZONE_A_MAX = __KIOBENCH_ZONE_A_MAX - 1
};

/*
 * Inside KIOBENCH_A_JOB_STATS.  "All" counters include the warm-up; the
 * latency fields and KIOBENCH_STAT_A_IOS cover only I/Os submitted after the
 * warm-up, and equal the sums of the debugfs histogram of that direction.
 */
enum kiobench_stat_attr {
	KIOBENCH_STAT_A_UNSPEC,
	KIOBENCH_STAT_A_PAD,
	KIOBENCH_STAT_A_DIR,		/* u8: enum kiobench_dir */
	KIOBENCH_STAT_A_IOS,		/* u64: measured completions */
	KIOBENCH_STAT_A_BYTES,		/* u64: measured bytes */
	KIOBENCH_STAT_A_ERRORS,		/* u64: failed I/Os, ramp included */
	KIOBENCH_STAT_A_LAT_MIN,	/* u64: ns */
	KIOBENCH_STAT_A_LAT_MAX,	/* u64: ns */
	KIOBENCH_STAT_A_LAT_SUM,	/* u64: ns */
	KIOBENCH_STAT_A_LAT_SUMSQ_HI,	/* u64: high half of sum of ns^2 */
	KIOBENCH_STAT_A_LAT_SUMSQ_LO,	/* u64: low half of sum of ns^2 */
	KIOBENCH_STAT_A_ALL_IOS,	/* u64: completions, ramp included */
	KIOBENCH_STAT_A_ALL_BYTES,	/* u64: bytes, ramp included */

	__KIOBENCH_STAT_A_MAX,
	KIOBENCH_STAT_A_MAX = __KIOBENCH_STAT_A_MAX - 1
};

#define KIOBENCH_NAME_LEN	32
#define KIOBENCH_MAX_RATE_IOPS	10000000

/* One entry of KIOBENCH_A_RANDOM_CDF: the draws below cum reach rank. */
struct kiobench_cdf_ent {
	__u64 cum;		/* a fraction of 2^32 */
	__u64 rank;		/* a block rank, from 0 */
};

#endif /* _UAPI_LINUX_KIOBENCH_H */
