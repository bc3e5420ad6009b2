/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kiobench userspace tool: the constants and the data every layer shares,
 * a job as the user configured it and the command's options.  Each layer
 * declares what it offers in a header of its own (result.h, options.h,
 * report.h, nl.h, run.h...).  The files and their layers, in the order in
 * which calls go downward only, are listed once, in Documentation/
 * kiobench.rst ("Source layout"); tests/unit/test_layers.py checks that no
 * file calls one above it, and that the table keeps their order.
 */
#ifndef KIOBENCH_TOOL_H
#define KIOBENCH_TOOL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/kiobench.h>

#include "steady.h"

#ifndef KB_TOOL_VERSION		/* set by the Makefile from git describe */
#define KB_TOOL_VERSION		"0.1"
#endif
#define KB_ERRLEN		256
/* words of struct kb_job's "set" bits: one per option (options.c checks) */
#define KB_OPT_SET_WORDS	4
#define KB_BSS_DIRS		3	/* fio's bs values: reads, writes, trims */
#define KB_MAX_BSSPLIT_DIR	16	/* the module's limit-bssplit, per direction */
#define KB_CMDPRIO_BS_MAX	16	/* the module's cmdprio_bssplit sizes a direction */

/* Exit codes. */
#define KB_EXIT_OK		0
#define KB_EXIT_USAGE		1	/* bad usage, option or job file */
#define KB_EXIT_SYSTEM		2	/* kernel or system error */
#define KB_EXIT_JOB_FAILED	3	/* a job ended FAILED */
#define KB_EXIT_WORSE		4	/* compare: significantly worse beyond --threshold */
#define KB_EXIT_HANGUP		129	/* SIGHUP (128 + 1): stopped, reported, destroyed */

/* Percentiles are kept as integers in millionths of a percent: 99.9 -> 99900000. */
#define KB_PCT_ONE		1000000u
#define KB_PCT_100		(100u * KB_PCT_ONE)
#define KB_MAX_PERCENTILES	20	/* as fio (terse has 20 slots) */

#define KB_DEFAULT_BS		4096	/* fio's default block size */
#define KB_SECTOR		512u	/* block sizes are multiples of it */
#define KB_MAX_CPU		8192	/* CONFIG_NR_CPUS upper bound */
#define KB_MAX_LIST		4096	/* devices / bssplit entries, sanity only */
#define KB_MAX_SPLIT_QD		1024	/* --split-qd: workers at most */
/* fio's error types (td_error.h's ERROR_TYPE_*): continue_on_error's bits */
#define KB_COE_READ		1u	/* a read's error */
#define KB_COE_WRITE		2u	/* a write's, trim's, flush's, zone op's */
#define KB_COE_VERIFY		4u	/* EILSEQ: a verify mismatch, any I/O's EILSEQ */
#define KB_COE_ALL		0xffffu	/* fio's ERROR_TYPE_ANY */
#define KB_MAX_OPEN_ZONES	4096	/* the spec's bound, fio's limit */
#define KB_MAX_ROUNDS		1000	/* preconditioning passes and rounds */
#define KB_FILL_BS		131072	/* preconditioning's sequential fill */
#define KB_QUICK_SCALE		0.004	/* --quick: 4 minutes become about a second */
#define KB_SS_WINDOW		5	/* steady-state window, rounds */
#define KB_SS_DATA_PCT		20	/* each round within +-20 % of their mean */
#define KB_SS_SLOPE_PCT		10	/* the fitted line moves by at most 10 % of it */

/* The commands that take options (kb_opt.cmds, kb_global.cmd). */
#define KB_CMD_RUN	(1u << 0)
#define KB_CMD_SWEEP	(1u << 1)
#define KB_CMD_PRECOND	(1u << 2)
#define KB_CMD_SUITE	(1u << 3)
#define KB_CMD_METHODS	(KB_CMD_SWEEP | KB_CMD_PRECOND | KB_CMD_SUITE)
#define KB_CMD_ALL	(KB_CMD_RUN | KB_CMD_METHODS)	/* the commands that run jobs */
#define KB_CMD_COMPARE	(1u << 4)	/* takes no job option */
#define KB_CMD_MERGE	(1u << 5)	/* takes no job option either */

/* The variables a sweep can step through. */
/* A job's write streams (write_streams=) at most: a sweep's --streams too. */
#define KB_MAX_WRITE_STREAMS	16

enum kb_var {
	KB_VAR_NONE,		/* one step */
	KB_VAR_IODEPTH,		/* total queue depth (split with --split-qd) */
	KB_VAR_BS,
	KB_VAR_NUMJOBS,
	KB_VAR_RATE,		/* rate_iops per worker */
	KB_VAR_STREAMS,		/* write streams 1..k of the writes; 0: none */
	KB_VAR_DEVICES,		/* the first k devices, one job each */
	KB_VAR_BURST,		/* burst number */
	KB_VAR_ROUND,		/* preconditioning round */
	KB_VAR_TUNE,		/* a machine-wide setting (enum kb_tune), values by index */
	KB_VAR_NR
};

/* exit_what: the jobs that exitall ends (fio's). */
enum kb_exit_what {
	KB_EXIT_WHAT_GROUP,	/* the running jobs of the finished job's group */
	KB_EXIT_WHAT_STONEWALL,	/* every running job; the next group still starts */
	KB_EXIT_WHAT_ALL,	/* every job, started or not */
};

enum kb_rw {
	KB_RW_READ,
	KB_RW_WRITE,
	KB_RW_MIXED,
};

enum { KB_FMT_NORMAL_BIT, KB_FMT_JSON_BIT, KB_FMT_JSONPLUS_BIT, KB_FMT_TERSE_BIT,
       KB_FMT_CSV_BIT, KB_FMT_NR };
#define KB_FMT_NORMAL	(1u << KB_FMT_NORMAL_BIT)
#define KB_FMT_JSON	(1u << KB_FMT_JSON_BIT)
#define KB_FMT_JSONPLUS	(1u << KB_FMT_JSONPLUS_BIT)	/* json with clat_ns.bins (fio's json+) */
#define KB_FMT_TERSE	(1u << KB_FMT_TERSE_BIT)
#define KB_FMT_CSV	(1u << KB_FMT_CSV_BIT)
#define KB_FMT_RUN	(KB_FMT_NORMAL | KB_FMT_JSON | KB_FMT_JSONPLUS | KB_FMT_TERSE)
#define KB_FMT_STEPS	(KB_FMT_NORMAL | KB_FMT_JSON | KB_FMT_CSV)	/* sweeps' and suites' */
#define KB_FMT_COMPARE	(KB_FMT_NORMAL | KB_FMT_JSON)

struct kb_bss {
	uint32_t size;		/* bytes */
	uint32_t weight;	/* percent, 1..100 */
};

struct kb_opt;

/* One option assignment as written by the user ("bs=4k", "--bs=4k"). */
struct kb_assign {
	const struct kb_opt *opt;
	char *val;		/* NULL for a bare flag */
	const char *file;	/* NULL: command line */
	unsigned int line;
};

struct kb_assign_list {
	struct kb_assign *v;
	size_t n, cap;
};

/*
 * fio's unified_rw_reporting: reads, writes and trims reported apart
 * (none), summed into one "mixed" direction (mixed), or both.
 */
enum kb_unified { KB_UNIFIED_NONE, KB_UNIFIED_MIXED, KB_UNIFIED_BOTH };

/* fio's random_generator values; kiobench's kernel runs its own (options.c). */
enum kb_randgen { KB_RANDGEN_TAUSWORTHE, KB_RANDGEN_LFSR, KB_RANDGEN_TAUSWORTHE64 };

struct kb_zone;		/* distrib.h */

/* A job as configured by the user (defaults + assignments). */
struct kb_job {
	char name[KIOBENCH_NAME_LEN];
	char **devices;
	unsigned int nr_devices;
	enum kb_rw rw;
	bool random;
	uint32_t rwmixread;
	uint32_t bs;
	struct kb_bss *bss;	/* bssplit as given; the reads' with per-direction sizes */
	unsigned int nr_bss;
	/*
	 * fio's bs=R,W,T and bssplit=R,W,T: the writes' and trims' sizes
	 * (bs_wt: from bs, 0 for the previous direction's; bss_wt: from
	 * bssplit or bsrange, and the kernel's once resolved, NULL for the
	 * previous direction's)
	 */
	uint32_t bs_wt[2];
	struct kb_bss *bss_wt[2];
	unsigned int nr_bss_wt[2];
	/*
	 * bsrange whose sizes outnumber the kernel's table: bit d, direction
	 * d's own table (bss, bss_wt[d - 1]) is a range, low then high
	 */
	uint8_t bsrange;
	/* bssplit's largest size per direction as given (fio's max_bs), before
	 * fio's alignment to the smallest shrank it; 0: bs or bsrange */
	uint32_t bss_given_max[KB_BSS_DIRS];
	uint32_t iodepth, numjobs;
	uint32_t *cpus;
	unsigned int nr_cpus;
	bool cpus_split;	/* cpus_allowed_policy=split: job i of the run on one CPU, */
	bool has_split_cpu;	/* split_cpu (run sets it; a sweep's workers take */
	uint32_t split_cpu;	/* the set's CPUs in turn), else every worker shares it */
	uint64_t size, offset, io_size, number_ios;
	/*
	 * size= not a multiple of the block size: the bytes fio issues per
	 * pass (kb_job_check sets size to the span fio draws from); 0: size.
	 */
	uint64_t size_io;
	uint64_t size_given;	/* that size as given (what --parse-only prints); 0: size */
	uint64_t runtime_ns, ramp_ns, seed, interval_ns;
	bool time_based;
	/*
	 * fio's continue_on_error: the bits of the error types (KB_COE_*) the
	 * job may go on from, each from its ignore_error list, else from EIO
	 * and EILSEQ; ignore_error's lists add theirs (fio's order: a later
	 * continue_on_error sets them anew).  coe_given: the value given.
	 */
	uint32_t continue_on_error, coe_given;
	char *lat_log;		/* write_lat_log: fio's lat and clat logs, PREFIX */
	uint32_t lat_log_entries;
	/* fio's other logs (fiolog.c), made from the per-I/O log */
	char *raw_lat_log;	/* raw_lat_log: the per-I/O log in kiobench's format */
	char *bw_log, *iops_log, *hist_log;	/* write_{bw,iops,hist}_log: PREFIX */
	char *write_iolog;	/* write_iolog: fio's I/O log of every I/O, FILE */
	uint32_t log_avg_msec, log_hist_msec, log_hist_coarseness;
	bool log_offset, per_job_logs;
	bool log_prio;		/* the logs' priority column: the value, not the RT flag */
	bool log_max_value;	/* log_avg_msec windows: the largest latency, not the mean */
	/* log_unix_epoch, log_alternate_epoch: times on this clock (clock_gettime's id) */
	bool log_unix_epoch, log_alternate_epoch;
	uint32_t log_epoch_clock;
	uint32_t log_entries;	/* fio's initial log allocation: no effect here */
	uint32_t log_compression;	/* fio's chunk size: each .fz stream's samples */
	bool log_store_compressed;	/* fio's .fz logs (zlib) */
	uint32_t *log_compression_cpus;	/* where the tool compresses them; NULL: anywhere */
	unsigned int nr_log_compression_cpus;
	uint32_t rate_iops;	/* per worker; 0: closed loop; the reads' with rate_iops_write */
	uint32_t rate_iops_write;	/* a mix's writes' own (kb_job_check); 0: none */
	uint64_t rate_iops_rw[3];	/* fio's rate_iops, per direction; 0: none */
	uint8_t rate_process;	/* enum kiobench_rate_process */
	bool stages, hipri, spin;
	bool norandommap;	/* random offsets with replacement */
	bool randrepeat, allrandrepeat, softrandommap;
	enum kb_randgen random_generator;	/* as asked; the kernel has its own */
	/* random_distribution=zoned/zoned_abs: each direction's zones; none: uniform */
	struct kb_zone *zones[KIOBENCH_NR_DIRS];
	unsigned int nr_zones[KIOBENCH_NR_DIRS];
	bool zones_abs;
	/* random_distribution=zipf/pareto/normal (enum kb_skew): the kernel gets the table */
	uint8_t skew;
	double skew_val;
	/* fio's execution model: run.c sequences the jobs, output.c groups them */
	bool stonewall, new_group, group_reporting, exitall, exitall_on_error;
	char *wait_for;		/* name of the job this one waits for */
	uint64_t startdelay_ns, startdelay_hi_ns;	/* hi > lo: a range */
	uint32_t loops;
	uint8_t exit_what;	/* enum kb_exit_what */
	uint64_t offset_increment, offset_align;	/* offset_align: of offset=N%; 0: min bs */
	uint32_t workers;	/* run: kernel workers per device of each clone */
	/* fio's I/O priorities: every bio's, and the cmdprio_percentage share's */
	uint32_t prioclass, prio;
	uint32_t cmdprio_pct[KIOBENCH_NR_DIRS];	/* fio's read,write pairs */
	uint32_t cmdprio_class[KIOBENCH_NR_DIRS], cmdprio[KIOBENCH_NR_DIRS];
	uint32_t percentage_random[KIOBENCH_NR_DIRS];	/* fio's R,W pair; the rest sequential */
	/* fio's verify, done by the kernel (kmod/verify.c); verify: enum kiobench_verify */
	uint8_t verify, verify_pattern[512];
	uint32_t verify_pattern_len, verify_interval, verify_offset, verify_generation;
	bool do_verify, verify_only, verify_fatal, verify_dump;
	bool experimental_verify;	/* fio's: what kiobench's read-back always is */
	uint32_t verify_backlog, verify_backlog_batch;	/* writes per read-back */
	/* fio's trims of verified writes: trim_percentage every trim_backlog */
	uint32_t trim_percentage, trim_backlog, trim_backlog_batch;
	bool trim_verify_zero;
	/* what writes carry (kmod/data.c): fio's buffer options */
	bool zero_buffers, refill_buffers, scramble_buffers;
	uint8_t buffer_pattern[512];
	uint32_t buffer_pattern_len, buffer_compress_percentage, buffer_compress_chunk;
	/* fio's dedupe_percentage and its options (kmod/data.c) */
	uint32_t dedupe_percentage, dedupe_mode, dedupe_working_set_percentage;
	bool dedupe_global;
	/* run: dedupe_global's group, every job of the run (0 workers: none) */
	uint64_t dedupe_group_seed;
	uint32_t dedupe_group_first, dedupe_group_workers;
	/* fio's ignore_error: read, write and verify lists (kmod/errors.c); error_dump */
	uint32_t ignore_error[3][16];
	uint32_t nr_ignore_error[3];
	bool error_dump;
	/* fio's thinktime, done by the kernel's workers; 0: none */
	uint64_t thinktime_ns, thinktime_spin_ns, thinktime_iotime_ns;
	bool rate_ignore_thinktime;	/* with rate: no catch-up after a pause */
	uint32_t ba;		/* fio's blockalign of random offsets; 0: the smallest bs */
	uint32_t flow, flow_id;	/* fio's flow control (kmod/flow.c); flow 0: none */
	uint64_t flow_sleep_ns;
	/* how bios are submitted (kmod/submit.c) */
	bool sync_writes;	/* fio's sync=sync|dsync: writefua with sync_engine refused */
	int nice;		/* the workers' nice value, -20..19 */
	uint32_t write_barrier;	/* every Nth write a barrier write; 0: none */
	bool nowait, serialize_overlap;
	uint8_t write_hint;	/* RWH_WRITE_LIFE_*: 1 none .. 5 extreme; 0: none */
	/* kiobench's write_streams: stream ids from 1 (bi_write_stream) */
	uint8_t write_streams[KB_MAX_WRITE_STREAMS], nr_write_streams;
	uint8_t write_stream_select;	/* enum kiobench_write_stream_select */
	uint32_t pi_act;		/* fio's: 0, kiobench's own PI (pi_chk) */
	uint32_t pi_chk;		/* BIT(KIOBENCH_PI_CHECK_*) */
	uint32_t apptag;		/* fio's: the PI's application tag */
	uint32_t pi_inject;		/* BIT(KIOBENCH_PI_CHECK_*) written wrong */
	uint64_t pi_inject_lba;		/* at this interval */
	/* fio's iodepth_batch_submit, iodepth_low, iodepth_batch_complete_min */
	uint32_t iodepth_batch, iodepth_low, iodepth_batch_complete_min;
	uint32_t thinktime_blocks;
	uint64_t rate_bps[3];	/* fio's rate, bytes/s per direction; 0: none */
	struct kb_ss_opts ss;	/* fio's steadystate (steady.h) */
	struct kb_limits limits;	/* fio's rate_min, rate_iops_min, max_latency (steady.h) */
	/* the operations: rw's trims, write_mode, flushes, FUA */
	uint8_t trim_mode;	/* enum kiobench_trim_mode, from rw */
	bool write_zeroes;	/* write_mode=zeroes */
	bool zeroes_unmap;	/* write_zeroes_unmap */
	uint32_t fsync, fdatasync;	/* a flush every N writes; 0: none */
	bool end_fsync, writefua;
	bool atomic;		/* REQ_ATOMIC writes */
	bool locality;		/* latency split local/remote completions */
	/* fio's zonemode=zbd */
	uint8_t zonemode;	/* enum kiobench_zonemode */
	uint32_t max_open_zones, job_max_open_zones;
	bool ignore_zone_limits, read_beyond_wp;
	bool zone_append;	/* write_mode=zone_append */
	uint32_t zone_reset_threshold, zone_reset_frequency;	/* millionths */
	uint8_t zone_op;	/* enum kiobench_zone_op, from rw=zone_* */
	bool zone_mgmt;		/* zbd writes: their zone resets timed (zone_op reset) */
	/* fio's latency target: the depth search of the kernel's workers */
	uint64_t latency_target_ns, latency_window_ns;
	uint32_t latency_percentile_ppm;	/* millionths: 1000000 is 100 % */
	bool latency_run;
	/* fio's rw=...:N and rw_sequencer, its zonemode=strided */
	uint32_t rw_seq_nr;	/* rw=randread:N: a drawn offset every N; 0, 1: each */
	uint64_t rw_seq_add;	/* rw=write:N: bytes skipped after each I/O */
	uint8_t rw_sequencer;	/* enum kiobench_rw_sequencer */
	bool strided;		/* zonemode=strided, or zonesize alone (fio) */
	uint64_t zonesize, zonerange, zoneskip;
	/* fio's cmdprio_bssplit: the reads' and the writes' sizes, percents, priorities */
	struct kb_cmdprio_bs {
		uint32_t size;
		uint8_t pct;
		int8_t class, level;	/* -1: cmdprio_class's, cmdprio's */
	} cmdprio_bs[2][KB_CMDPRIO_BS_MAX];
	unsigned int nr_cmdprio_bs[2];
	/* run: set by the command, not by an option */
	uint32_t clone, clones;	/* this clone's number, of numjobs clones */
	uint32_t thread;	/* the job's number in its run, from 0 (fio's thread_number - 1) */
	bool clones_given;	/* numjobs was given (--parse-only prints it) */
	uint64_t span_bytes;	/* the devices' span from offset, when needed; 0: unknown */
	uint32_t plist[KB_MAX_PERCENTILES];	/* sorted, unique */
	unsigned int nr_plist;
	/* fio's report options */
	bool clat_percentiles, lat_percentiles;	/* the one latency's percentiles shown */
	uint8_t unified_rw;	/* enum kb_unified: reads, writes, trims apart or summed */
	uint32_t sig_figs;	/* significant_figures: normal output's digits */
	uint32_t unit_base;	/* 0 auto, 8 bytes, 1 bits: normal output's bandwidth */
	bool disk_util;		/* the disks' statistics reported */
	uint32_t bw_avg_ms, iops_avg_ms;	/* bwavgtime, iopsavgtime: sample windows */
	unsigned int kb_base;	/* fio's kb_base: 1024 (its default) or 1000 */
	/* size=N%, offset=N%, offset_increment=N%: of the device; 0: bytes */
	uint8_t size_pct, offset_pct, offset_increment_pct;
	/*
	 * fio's N% offsets, once resolved: clone k starts at offset_raw +
	 * k x offset_increment aligned up to clone_align; 0: offset as it is
	 */
	uint64_t offset_raw, clone_align;
	const char *ioengine;	/* as given (fio_opts.c), NULL: none */
	bool sync_engine;	/* a synchronous ioengine: one I/O in flight */
	char *description;
	uint64_t set[KB_OPT_SET_WORDS];	/* bit enum kb_opt_id: given by the user */
	const char *rw_str;	/* "randread" ... for display */
	/* every assignment applied, for "job options" in JSON */
	struct kb_assign_list applied;
	/* fio's read_iolog and its replay options (replay.c) */
	char *read_iolog;	/* the log, or NAME:NAME... one per clone */
	bool read_iolog_chunked;	/* fio reads the log in parts: same replay */
	bool replay_no_stall;
	char *replay_redirect;
	uint32_t replay_scale, replay_align, replay_time_scale;
	uint32_t replay_skip;	/* bits 1 << KIOBENCH_DIR_*: kinds left out */
	struct kiobench_replay_ent *replay;	/* the log's I/Os, loaded */
	uint32_t nr_replay;
	unsigned int *replay_lines;	/* the line of each entry */
	char *replay_path;	/* the log this clone replays */
	unsigned int replay_write_line;	/* its first write, trim or sync; 0: none */
};

/* Machine-wide settings a sweep may change (tuning.c), with --allow-tuning. */
enum kb_tune {
	KB_TUNE_RQ_AFFINITY,	/* queue/rq_affinity */
	KB_TUNE_NOMERGES,	/* queue/nomerges */
	KB_TUNE_SCHEDULER,	/* queue/scheduler (fio's ioscheduler) */
	KB_TUNE_NR_REQUESTS,	/* queue/nr_requests */
	KB_TUNE_IRQ_CPUS,	/* the device's vectors' smp_affinity_list */
	KB_TUNE_WRITE_GENERATE,	/* integrity/write_generate */
	KB_TUNE_READ_VERIFY,	/* integrity/read_verify */
	KB_NR_TUNE
};

/* Options of the command, not of a job. */
struct kb_global {
	unsigned int cmd;	/* KB_CMD_*: the command they are for */
	bool allow_writes;
	bool keep;		/* implies detach */
	bool detach;
	bool parse_only;	/* run --parse-only: print the jobs as read, run none */
	char **sections;	/* run --section: the job sections to run (NULL: all) */
	unsigned int nr_sections;
	unsigned int formats;	/* KB_FMT_* */
	char *output;
	/* sweep, precondition, suite */
	char *csv;
	char *list[KB_VAR_NR];	/* value lists as given (--iodepth=1-32 ...) */
	uint32_t split_qd, duty, fill_bs, passes, max_rounds;
	uint64_t idle_ns, burst_size, burst_total, burst_idle_ns, round_size;
	bool no_fill, steady, list_suites, no_precond;
	double scale;
	double threshold;	/* compare: percent */
	double outlier_pct;	/* merge: percent */
	char *tune[KB_NR_TUNE];	/* sweep: tuning values as given (a list: swept) */
	bool allow_tuning;
};

#endif /* KIOBENCH_TOOL_H */
