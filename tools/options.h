/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The option table (options.c): every option of every command, and how an
 * assignment applies to a job or to the command's options.
 */
#ifndef KIOBENCH_OPTIONS_H
#define KIOBENCH_OPTIONS_H

#include "kiobench.h"

enum kb_opt_id {
	KB_OPT_NAME,
	KB_OPT_FILENAME,
	KB_OPT_RW,
	KB_OPT_RWMIXREAD,
	KB_OPT_RWMIXWRITE,
	KB_OPT_BS,
	KB_OPT_BSSPLIT,
	KB_OPT_BSRANGE,
	KB_OPT_IODEPTH,
	KB_OPT_NUMJOBS,
	KB_OPT_CPUS,
	KB_OPT_SIZE,
	KB_OPT_OFFSET,
	KB_OPT_IO_SIZE,
	KB_OPT_NUMBER_IOS,
	KB_OPT_RUNTIME,
	KB_OPT_TIME_BASED,
	KB_OPT_RAMP,
	KB_OPT_SEED,
	KB_OPT_PLIST,
	/* fio's report options (output.c and the formats) */
	KB_OPT_CLAT_PERCENTILES,
	KB_OPT_LAT_PERCENTILES,
	KB_OPT_SLAT_PERCENTILES,
	KB_OPT_UNIFIED_RW,
	KB_OPT_SIG_FIGS,
	KB_OPT_UNIT_BASE,
	KB_OPT_DISK_UTIL,
	KB_OPT_BWAVGTIME,
	KB_OPT_IOPSAVGTIME,
	KB_OPT_INTERVAL,
	KB_OPT_CONT_ERR,
	KB_OPT_LAT_LOG,
	KB_OPT_LAT_LOG_ENTRIES,
	KB_OPT_RATE_IOPS,
	KB_OPT_RATE_PROCESS,
	KB_OPT_STAGES,
	KB_OPT_HIPRI,
	KB_OPT_SPIN,
	KB_OPT_NORANDOMMAP,
	KB_OPT_RANDREPEAT,
	KB_OPT_ALLRANDREPEAT,
	KB_OPT_RANDGEN,
	KB_OPT_SOFTRANDOMMAP,
	KB_OPT_RANDOM_DIST,
	/* fio's, for job files that run unchanged (fio_opts.c lists the others) */
	KB_OPT_DIRECT,
	KB_OPT_BUFFERED,
	KB_OPT_IOENGINE,
	KB_OPT_KB_BASE,
	KB_OPT_DESCRIPTION,
	KB_OPT_FIXEDBUFS,
	KB_OPT_REGISTERFILES,
	KB_OPT_RAW_LAT_LOG,
	KB_OPT_BW_LOG,
	KB_OPT_IOPS_LOG,
	KB_OPT_HIST_LOG,
	KB_OPT_LOG_AVG_MSEC,
	KB_OPT_LOG_OFFSET,
	KB_OPT_LOG_PRIO,
	KB_OPT_LOG_HIST_MSEC,
	KB_OPT_LOG_HIST_COARSENESS,
	KB_OPT_PER_JOB_LOGS,
	/* fio's log options (fiolog.c) */
	KB_OPT_LOG_MAX_VALUE,
	KB_OPT_LOG_UNIX_EPOCH,
	KB_OPT_LOG_ALT_EPOCH,
	KB_OPT_LOG_ALT_EPOCH_CLOCK,
	KB_OPT_LOG_ENTRIES,
	KB_OPT_LOG_COMPRESSION,
	KB_OPT_LOG_COMPRESSION_CPUS,
	KB_OPT_LOG_STORE_COMPRESSED,
	KB_OPT_WRITE_IOLOG,	/* fio's write_iolog (fiolog.c) */
	/* fio's execution model */
	KB_OPT_STONEWALL,
	KB_OPT_NEW_GROUP,
	KB_OPT_WAIT_FOR,
	KB_OPT_GROUP_REPORTING,
	KB_OPT_STARTDELAY,
	KB_OPT_LOOPS,
	KB_OPT_EXITALL,
	KB_OPT_EXIT_WHAT,
	KB_OPT_EXITALL_ON_ERROR,
	KB_OPT_OFFSET_INCREMENT,
	KB_OPT_OFFSET_ALIGN,
	KB_OPT_WORKERS,
	/* fio's I/O priorities (bi_ioprio) */
	KB_OPT_PRIOCLASS,
	KB_OPT_PRIO,
	KB_OPT_CMDPRIO_PCT,
	KB_OPT_CMDPRIO_CLASS,
	KB_OPT_CMDPRIO,
	KB_OPT_PERCENTAGE_RANDOM,
	/* fio's verify */
	KB_OPT_VERIFY,
	KB_OPT_VERIFY_PATTERN,
	KB_OPT_VERIFY_INTERVAL,
	KB_OPT_VERIFY_OFFSET,
	KB_OPT_DO_VERIFY,
	KB_OPT_VERIFY_ONLY,
	KB_OPT_VERIFY_FATAL,
	KB_OPT_VERIFY_DUMP,
	KB_OPT_VERIFY_GENERATION,
	KB_OPT_EXPERIMENTAL_VERIFY,
	/* fio's thinktime */
	KB_OPT_THINKTIME,
	KB_OPT_THINKTIME_SPIN,
	KB_OPT_THINKTIME_BLOCKS,
	KB_OPT_THINKTIME_BLOCKS_TYPE,
	KB_OPT_THINKTIME_IOTIME,
	/* fio's rate, paced by the kernel's open loop */
	KB_OPT_RATE,
	/* fio's minimum rates and max_latency, checked by run.c each tick */
	KB_OPT_RATE_MIN,
	KB_OPT_RATE_IOPS_MIN,
	KB_OPT_MAX_LATENCY,
	KB_OPT_RATE_CYCLE,
	/* fio's steady state, checked by run.c once a second */
	KB_OPT_SS,
	KB_OPT_SS_DUR,
	KB_OPT_SS_RAMP,
	/* fio's CPU placement beside cpus_allowed */
	KB_OPT_CPUMASK,
	KB_OPT_CPUS_POLICY,
	KB_OPT_NUMA_CPU_NODES,
	/* the operations: write zeroes, flushes, FUA */
	KB_OPT_WRITE_MODE,
	KB_OPT_ZEROES_UNMAP,
	KB_OPT_FSYNC,
	KB_OPT_FDATASYNC,
	KB_OPT_END_FSYNC,
	KB_OPT_WRITEFUA,
	KB_OPT_ATOMIC,
	KB_OPT_LOCALITY,
	/* fio's zonemode=zbd */
	KB_OPT_ZONEMODE,
	KB_OPT_MAX_OPEN_ZONES,
	KB_OPT_JOB_MAX_OPEN_ZONES,
	KB_OPT_IGNORE_ZONE_LIMITS,
	KB_OPT_READ_BEYOND_WP,
	KB_OPT_ZONE_RESET_THRESHOLD,
	KB_OPT_ZONE_RESET_FREQUENCY,
	KB_OPT_ZONE_MGMT,
	KB_OPT_VERIFY_BACKLOG,
	KB_OPT_VERIFY_BACKLOG_BATCH,
	KB_OPT_TRIM_PERCENTAGE,
	KB_OPT_TRIM_BACKLOG,
	KB_OPT_TRIM_BACKLOG_BATCH,
	KB_OPT_TRIM_VERIFY_ZERO,
	/* fio's buffer contents */
	KB_OPT_ZERO_BUFFERS,
	KB_OPT_REFILL_BUFFERS,
	KB_OPT_SCRAMBLE_BUFFERS,
	KB_OPT_BUFFER_PATTERN,
	KB_OPT_BUFFER_COMPRESS_PERCENTAGE,
	KB_OPT_BUFFER_COMPRESS_CHUNK,
	/* fio's latency target, searched by the kernel's workers (kmod/latt.c) */
	KB_OPT_LATENCY_TARGET,
	KB_OPT_LATENCY_WINDOW,
	KB_OPT_LATENCY_PERCENTILE,
	KB_OPT_LATENCY_RUN,
	/* fio's offset patterns: rw_sequencer, zonemode=strided */
	KB_OPT_RW_SEQUENCER,
	KB_OPT_ZONERANGE,
	KB_OPT_ZONESIZE,
	KB_OPT_ZONESKIP,
	KB_OPT_CMDPRIO_BSSPLIT,
	KB_OPT_RATE_IGNORE_THINKTIME,
	KB_OPT_FLOW,
	KB_OPT_FLOW_ID,
	KB_OPT_FLOW_SLEEP,
	KB_OPT_BA,
	/* fio's dedupe (kmod/data.c) and error lists (kmod/errors.c) */
	KB_OPT_DEDUPE_PERCENTAGE,
	KB_OPT_DEDUPE_MODE,
	KB_OPT_DEDUPE_WORKING_SET_PERCENTAGE,
	KB_OPT_DEDUPE_GLOBAL,
	KB_OPT_IGNORE_ERROR,
	KB_OPT_ERROR_DUMP,
	/* how bios are submitted (kmod/submit.c) */
	KB_OPT_SYNC,
	KB_OPT_NICE,
	KB_OPT_WRITE_BARRIER,
	KB_OPT_PREFLUSH_FUA,
	KB_OPT_NOWAIT,
	KB_OPT_SERIALIZE_OVERLAP,
	KB_OPT_WRITE_HINT,
	KB_OPT_WRITE_STREAMS,
	KB_OPT_WRITE_STREAM_SELECT,
	KB_OPT_IODEPTH_BATCH,
	KB_OPT_IODEPTH_LOW,
	KB_OPT_IODEPTH_BATCH_COMPLETE_MIN,
	KB_OPT_PI_ACT,
	KB_OPT_PI_CHK,
	KB_OPT_APPTAG,
	KB_OPT_APPTAG_MASK,
	KB_OPT_PI_INJECT,
	KB_OPT_PI_INJECT_LBA,
	/* fio's read_iolog and replay options (replay.c) */
	KB_OPT_READ_IOLOG,
	KB_OPT_READ_IOLOG_CHUNKED,
	KB_OPT_REPLAY_NO_STALL,
	KB_OPT_REPLAY_REDIRECT,
	KB_OPT_REPLAY_SCALE,
	KB_OPT_REPLAY_ALIGN,
	KB_OPT_REPLAY_SKIP,
	KB_OPT_REPLAY_TIME_SCALE,
	/* fio's about how fio itself runs: accepted, nothing reaches the device */
	KB_OPT_THREAD,
	KB_OPT_THREADS,
	KB_OPT_IO_SUBMIT_MODE,
	KB_OPT_VERIFY_ASYNC_CPUS,
	/* command line only */
	KB_OPT_ALLOW_WRITES,
	KB_OPT_OUTFMT,
	KB_OPT_OUTPUT,
	KB_OPT_KEEP,
	KB_OPT_DETACH,
	KB_OPT_SECTION,
	KB_OPT_PARSE_ONLY,
	/* sweep, precondition, suite */
	KB_OPT_CSV,
	KB_OPT_DEVICES,
	KB_OPT_STREAMS,
	KB_OPT_SPLIT_QD,
	KB_OPT_IDLE,
	KB_OPT_BURST_SIZE,
	KB_OPT_BURST_TOTAL,
	KB_OPT_DUTY,
	KB_OPT_BURST_IDLE,
	KB_OPT_FILL_BS,
	KB_OPT_NO_FILL,
	KB_OPT_PASSES,
	KB_OPT_STEADY,
	KB_OPT_MAX_ROUNDS,
	KB_OPT_ROUND_SIZE,
	KB_OPT_SCALE,
	KB_OPT_QUICK,
	KB_OPT_LIST,
	KB_OPT_NO_PRECOND,
	KB_OPT_ALLOW_TUNING,
	KB_OPT_RQ_AFFINITY,
	KB_OPT_NOMERGES,
	KB_OPT_IOSCHEDULER,
	KB_OPT_NR_REQUESTS,
	KB_OPT_IRQ_CPUS,
	KB_OPT_WRITE_GENERATE,
	KB_OPT_READ_VERIFY,
	/* compare */
	KB_OPT_THRESHOLD,
	KB_OPT_OUTLIER,
	KB_NR_OPTS
};

enum kb_opt_scope {
	KB_SCOPE_JOB,		/* a job's: command line and job file */
	KB_SCOPE_CLI,		/* the command's: command line only */
};

struct kb_opt {
	const char *name;
	const char *alias;	/* fio's other name, or NULL */
	enum kb_opt_id id;
	enum kb_opt_id mark;	/* "set" bit to raise */
	enum kb_opt_scope scope;
	unsigned int cmds;	/* KB_CMD_*: the commands that take it */
	bool flag;		/* boolean: value optional */
	/*
	 * How fio itself runs (threads or processes, who submits): taken, and
	 * said once per run to change nothing that reaches the device.
	 */
	bool host;
	size_t off;		/* its field in struct kb_job (JOB) or kb_global (CLI) */
	/*
	 * The netlink attribute (enum kiobench_attr) that kb_nl_job_new() puts
	 * with the field's value (of size bytes) when the option is set; 0:
	 * none, or code puts it (tools/nl.c's kb_nl_by_code[] says why).
	 */
	unsigned int attr;
	unsigned int size;
	uint64_t min, max;	/* bounds of a number */
	const char *def;	/* default, parsed like a value given */
	enum kb_var list_var;	/* sweeps take a value list of this variable */
	const char *list_help;	/* what the list is, for usage */
	const char *metavar;
	const char *help;
	/*
	 * A fio option's proof that it means what it means to fio: the case of
	 * tests/guest/fio_cases.py, or the guest test ("test_x.py::test_y")
	 * that runs fio beside kiobench and compares what the device saw; or
	 * "-" and why it is not compared with fio.  NULL: not checked
	 * against fio yet (Documentation/fio-options.rst says so).
	 */
	const char *fio_case;
	int (*parse)(const struct kb_opt *o, const char *val, struct kb_job *job,
		     struct kb_global *g, char *err, size_t errlen);
};

extern const struct kb_opt kb_opts[KB_NR_OPTS];

const struct kb_opt *kb_opt_find(const char *name);	/* a user's name */
const struct kb_opt *kb_opt_of_var(enum kb_var v);
/* The option whose .attr is netlink attribute attr, or NULL. */
const struct kb_opt *kb_opt_of_attr(unsigned int attr);
/* The value of an option with an .attr in job: its field, widened. */
uint64_t kb_opt_value(const struct kb_opt *o, const struct kb_job *job);
/* The output formats command cmd writes (KB_FMT_*). */
unsigned int kb_cmd_formats(unsigned int cmd);
bool kb_opt_name_eq(const char *a, const char *b);
/* The value an assignment of option id last gave job (NULL: none, or a bare flag). */
const char *kb_job_applied(const struct kb_job *job, enum kb_opt_id id, bool *found);

void kb_job_init(struct kb_job *job);
void kb_job_free(struct kb_job *job);
void kb_global_init(struct kb_global *g, unsigned int cmd);
/* g->list[var] = a copy of val; -1: out of memory. */
int kb_set_list(struct kb_global *g, enum kb_var var, const char *val);
void kb_global_free(struct kb_global *g);
/* Apply one assignment; err gets "bs: invalid size 'x'" style messages. */
int kb_apply(struct kb_job *job, struct kb_global *g, const struct kb_assign *a,
	     char *err, size_t errlen);
/* Format "file:line: " or "--" prefix of an assignment error. */
void kb_assign_where(const struct kb_assign *a, char *buf, size_t len);
int kb_assign_add(struct kb_assign_list *l, const struct kb_opt *o,
		  const char *val, const char *file, unsigned int line);
void kb_assign_list_free(struct kb_assign_list *l);

bool kb_job_has_writes(const struct kb_job *job);
uint8_t kb_job_zone_op(const struct kb_job *job);
/* The kernel's verify (enum kiobench_verify): verify_pattern alone is pattern (fio). */
uint8_t kb_job_verify(const struct kb_job *job);
/* A cmdprio_percentage share in either direction: per-priority latency. */
uint64_t kb_job_seed(const struct kb_job *job);
bool kb_job_cmdprio(const struct kb_job *job);
/*
 * Whether the kernel draws offsets with replacement: norandommap (not
 * lfsr), or zones (fio turns its random map off for them).
 */
bool kb_job_norandommap(const struct kb_job *job);
bool kb_job_seq_wrap(const struct kb_job *job);
bool kb_job_random_lfsr(const struct kb_job *job);
bool kb_job_verify_sorted(const struct kb_job *job);
uint64_t kb_job_io_round(const struct kb_job *job);
const char *kb_randgen_name(enum kb_randgen g);
const char *kb_errno_name(int e);
bool kb_job_isset(const struct kb_job *job, enum kb_opt_id id);
/* Mark option id as given by the user (or not). */
void kb_job_mark(struct kb_job *job, enum kb_opt_id id, bool given);
/*
 * Cross-option checks after every assignment; fills derived fields.
 * kb_job_finalize also turns size=N% and offset=N% into bytes of the
 * devices' size (BLKGETSIZE64); kb_job_check leaves them.
 */
int kb_job_finalize(struct kb_job *job, char *err, size_t errlen);
int kb_job_check(struct kb_job *job, char *err, size_t errlen);
/*
 * size=N% and offset=N% into bytes of the devices' size; *unreadable: a
 * device's size could not be read (not a block device...).
 */
int kb_job_resolve_pct(struct kb_job *job, bool *unreadable, char *err, size_t errlen);
/* size=N% and offset=N% of a device of dev bytes, as fio resolves them. */
int kb_job_span_pct(struct kb_job *job, uint64_t dev, char *err, size_t errlen);
/*
 * The smallest block size of any direction, fio's min_bs: a direction's
 * table (bssplit's, or bs's once checked) overrides bs and bs=R,W,T.
 */
uint32_t kb_job_min_bs(const struct kb_job *job);
uint32_t kb_job_ba(const struct kb_job *job);
const struct kb_bss *kb_job_bss(const struct kb_job *job, unsigned int d, unsigned int *n);
/*
 * Option o's value in job, resolved, as a job file line takes it (sizes in
 * bytes, times in ns): what --parse-only prints.
 */
void kb_opt_format(const struct kb_opt *o, const struct kb_job *job, char *buf, size_t len);
const char *kb_opt_print_name(const struct kb_opt *o, const struct kb_job *job);
/* Limits sent to the kernel (fio semantics); 0 = not sent. */
uint64_t kb_job_io_bytes(const struct kb_job *job);
uint64_t kb_job_number_ios(const struct kb_job *job);
uint32_t kb_job_rwmix_read(const struct kb_job *job);
uint32_t kb_job_fsync(const struct kb_job *job);
/*
 * The window of fio's bandwidth (iops: IOPS) samples, ns: bwavgtime
 * (iopsavgtime), or with write_bw_log (write_iops_log) and log_avg_msec the
 * smaller of the two, as fio; 0: neither given, the timeline's interval.
 */
uint64_t kb_job_rate_window_ns(const struct kb_job *job, bool iops);
/* Percentile as fio prints it in keys: "99.990000". */
void kb_pct_str(uint32_t pct, char *buf, size_t len);
unsigned int kb_plist_precision(const uint32_t *plist, unsigned int nr);

#endif /* KIOBENCH_OPTIONS_H */
