/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kiobench userspace tool: the data shared by its layers, and the
 * functions of the layers that know nothing of netlink or of the command
 * line (unit-tested by tests/unit/tool/).  Each section names its file;
 * the files above them have headers of their own (cli.h, run.h, part.h,
 * commands.h).  Calls go downward only, in this order:
 *
 *   main.c       the table of commands
 *   compare.c    compare: two result files side by side, with significance
 *   commands.c   run, features, list, stop, destroy, plot
 *   methods.c    sweep, precondition, suite: their checks and drivers
 *   part.c       one part: its steps built, run and written
 *   figures.c    a part's figures, one function per kind
 *   steps_out.c  step tables, CSV rows, step JSON
 *   run.c        create, start, wait, collect, abort, progress, signals
 *   nl.c         generic netlink client (libnl-genl-3)
 *   output.c     normal, terse and JSON reports of jobs
 *   stages_out.c the stage table and JSON of --stages
 *   sensors.c    hwmon sensors of the devices (sysfs)
 *   compare_load.c  compare's input: run, sweep, suite or fio JSON read
 *   compare_stats.c compare's tests: Mann-Whitney U over histograms, quantile
 *                confidence intervals, Welch's t over timeline intervals
 *   stats.c      percentiles, stddev, merges, summaries, series analysis
 *   results.c    the module's debugfs files: reading and parsing; versions
 *   cli.c        messages, long options and usage from the option table
 *   jobfile.c    fio-style ini job files
 *   options.c    the option table of every command
 *   plan.c       value lists, depth splitting, duty cycle, suite scaling
 *   suite.c      the named suites (data)
 *   values.c     value syntax: sizes, times, lists; reading a file
 * tests/unit/test_layers.py checks that no file calls one above it.
 */
#ifndef KIOBENCH_TOOL_H
#define KIOBENCH_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/kiobench.h>

#ifndef KB_TOOL_VERSION		/* set by the Makefile from git describe */
#define KB_TOOL_VERSION		"0.1"
#endif
#define KB_ERRLEN		256

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
#define KB_MAX_ROUNDS		1000	/* preconditioning passes and rounds */
#define KB_FILL_BS		131072	/* preconditioning's sequential fill */
#define KB_QUICK_SCALE		0.004	/* --quick: 4 minutes become about a second */
#define KB_SS_WINDOW		5	/* steady-state window, rounds */
#define KB_SS_DATA_PCT		20	/* each round within +-20 % of their mean */
#define KB_SS_SLOPE_PCT		10	/* the fitted line moves by at most 10 % of it */

/* ---- options.c ---------------------------------------------------------- */

enum kb_opt_id {
	KB_OPT_NAME,
	KB_OPT_FILENAME,
	KB_OPT_RW,
	KB_OPT_RWMIXREAD,
	KB_OPT_RWMIXWRITE,
	KB_OPT_BS,
	KB_OPT_BSSPLIT,
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
	KB_OPT_INTERVAL,
	KB_OPT_CONT_ERR,
	KB_OPT_LAT_LOG,
	KB_OPT_LAT_LOG_ENTRIES,
	KB_OPT_RATE_IOPS,
	KB_OPT_RATE_PROCESS,
	KB_OPT_STAGES,
	KB_OPT_HIPRI,
	KB_OPT_SPIN,
	/* command line only */
	KB_OPT_ALLOW_WRITES,
	KB_OPT_OUTFMT,
	KB_OPT_OUTPUT,
	KB_OPT_KEEP,
	KB_OPT_DETACH,
	/* sweep, precondition, suite */
	KB_OPT_CSV,
	KB_OPT_DEVICES,
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
	/* compare */
	KB_OPT_THRESHOLD,
	KB_NR_OPTS
};

/* The commands that take options (kb_opt.cmds, kb_global.cmd). */
#define KB_CMD_RUN	(1u << 0)
#define KB_CMD_SWEEP	(1u << 1)
#define KB_CMD_PRECOND	(1u << 2)
#define KB_CMD_SUITE	(1u << 3)
#define KB_CMD_METHODS	(KB_CMD_SWEEP | KB_CMD_PRECOND | KB_CMD_SUITE)
#define KB_CMD_ALL	(KB_CMD_RUN | KB_CMD_METHODS)	/* the commands that run jobs */
#define KB_CMD_COMPARE	(1u << 4)	/* takes no job option */

/* The variables a sweep can step through. */
enum kb_var {
	KB_VAR_NONE,		/* one step */
	KB_VAR_IODEPTH,		/* total queue depth (split with --split-qd) */
	KB_VAR_BS,
	KB_VAR_NUMJOBS,
	KB_VAR_RATE,		/* rate_iops per worker */
	KB_VAR_DEVICES,		/* the first k devices, one job each */
	KB_VAR_BURST,		/* burst number */
	KB_VAR_ROUND,		/* preconditioning round */
	KB_VAR_NR
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

/* A job as configured by the user (defaults + assignments). */
struct kb_job {
	char name[KIOBENCH_NAME_LEN];
	char **devices;
	unsigned int nr_devices;
	enum kb_rw rw;
	bool random;
	uint32_t rwmixread;
	uint32_t bs;
	struct kb_bss *bss;	/* bssplit as given */
	unsigned int nr_bss;
	uint32_t iodepth, numjobs;
	uint32_t *cpus;
	unsigned int nr_cpus;
	uint64_t size, offset, io_size, number_ios;
	uint64_t runtime_ns, ramp_ns, seed, interval_ns;
	bool time_based, continue_on_error;
	char *lat_log;		/* write_lat_log: file for the per-I/O log */
	uint32_t lat_log_entries;
	uint32_t rate_iops;	/* per worker; 0: closed loop */
	uint8_t rate_process;	/* enum kiobench_rate_process */
	bool stages, hipri, spin;
	uint32_t plist[KB_MAX_PERCENTILES];	/* sorted, unique */
	unsigned int nr_plist;
	uint64_t set;		/* bit (1 << enum kb_opt_id): given by the user */
	const char *rw_str;	/* "randread" ... for display */
	/* every assignment applied, for "job options" in JSON */
	struct kb_assign_list applied;
};

/* Options of the command, not of a job. */
struct kb_global {
	unsigned int cmd;	/* KB_CMD_*: the command they are for */
	bool allow_writes;
	bool keep;		/* implies detach */
	bool detach;
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
	size_t off;		/* its field in struct kb_job (JOB) or kb_global (CLI) */
	uint64_t min, max;	/* bounds of a number */
	const char *def;	/* default, parsed like a value given */
	enum kb_var list_var;	/* sweeps take a value list of this variable */
	const char *list_help;	/* what the list is, for usage */
	const char *metavar;
	const char *help;
	int (*parse)(const struct kb_opt *o, const char *val, struct kb_job *job,
		     struct kb_global *g, char *err, size_t errlen);
};

extern const struct kb_opt kb_opts[KB_NR_OPTS];

const struct kb_opt *kb_opt_find(const char *name);
/* The output formats command cmd writes (KB_FMT_*). */
unsigned int kb_cmd_formats(unsigned int cmd);
bool kb_opt_name_eq(const char *a, const char *b);

/* values.c: 0 on success, else -1 and a message in err. */
int kb_parse_size(const char *s, uint64_t *out, char *err, size_t errlen);
int kb_parse_time_ns(const char *s, uint64_t *out, char *err, size_t errlen);
int kb_parse_u64(const char *s, uint64_t *out, char *err, size_t errlen);
int kb_parse_bool(const char *s, bool *out, char *err, size_t errlen);
int kb_parse_bssplit(const char *s, struct kb_bss **out, unsigned int *nr,
		     char *err, size_t errlen);
int kb_parse_cpus(const char *s, uint32_t **out, unsigned int *nr,
		  char *err, size_t errlen);
int kb_parse_plist(const char *s, uint32_t *out, unsigned int *nr,
		   char *err, size_t errlen);
int kb_parse_formats(const char *s, unsigned int allowed, unsigned int *out,
		     char *err, size_t errlen);
int kb_check_bs(const char *s, uint64_t v, char *err, size_t errlen);
/* "normal, json or terse": the names of the formats in mask (KB_FMT_*). */
void kb_fmt_names(unsigned int mask, char *buf, size_t len);
/* Read a whole (debugfs, sysfs, job) file; NULL and errno on error. */
char *kb_read_file(const char *path);

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
bool kb_job_isset(const struct kb_job *job, enum kb_opt_id id);
/* Cross-option checks after every assignment; fills derived fields. */
int kb_job_finalize(struct kb_job *job, char *err, size_t errlen);
/* Limits sent to the kernel (fio semantics); 0 = not sent. */
uint64_t kb_job_io_bytes(const struct kb_job *job);
uint32_t kb_job_rwmix_read(const struct kb_job *job);
/* Percentile as fio prints it in keys: "99.990000". */
void kb_pct_str(uint32_t pct, char *buf, size_t len);
unsigned int kb_plist_precision(const uint32_t *plist, unsigned int nr);

/* ---- jobfile.c ---------------------------------------------------------- */

struct kb_section {
	char *name;
	unsigned int line;
	size_t nr_global;	/* [global] assignments that precede it */
	struct kb_assign_list opts;
};

struct kb_jobfile {
	char *path;
	struct kb_assign_list global;
	struct kb_section *sec;
	size_t nr_sec;
};

/* Parse text (path used for messages). 0 or -1 with "path:line: msg". */
int kb_jobfile_parse_text(const char *path, const char *text,
			  struct kb_jobfile *jf, char *err, size_t errlen);
int kb_jobfile_load(const char *path, struct kb_jobfile *jf,
		    char *err, size_t errlen);
void kb_jobfile_free(struct kb_jobfile *jf);
/*
 * Build the job of section i: defaults, the [global] options above it,
 * the command-line options, then the section's own options.
 */
int kb_jobfile_build(const struct kb_jobfile *jf, size_t i,
		     const struct kb_assign_list *cli, struct kb_job *job,
		     char *err, size_t errlen);

/* ---- results.c: the module's debugfs texts, parsed --------------------- */

struct kb_bucket {
	uint64_t lo, hi, count;		/* [lo, hi) ns */
};

#define KB_HIST_MAX_BITS	32	/* sub-bucket bits a histogram may have */

struct kb_hist {
	int dir;			/* KIOBENCH_DIR_* */
	unsigned int bits;
	uint64_t samples, min, max, sum;
	/* secondary measures (<metric>_<dir> files) only */
	uint64_t sumsq_hi, sumsq_lo;	/* sum of squares, ns^2 */
	uint64_t unsplit;		/* stages: measured I/Os without stages */
	struct kb_bucket *b;
	size_t nr;
};

struct kb_tl_point {
	uint64_t t_ns;
	uint64_t ios[KIOBENCH_NR_DIRS];
	uint64_t bytes[KIOBENCH_NR_DIRS];
	uint64_t lat_ns[KIOBENCH_NR_DIRS];
};

struct kb_timeline {
	uint64_t interval_ns;
	uint64_t dropped;	/* samples the module could not keep */
	struct kb_tl_point *p;
	size_t nr;
};

extern const char *const kb_dir_names[KIOBENCH_NR_DIRS];	/* "read", "write" */
int kb_hist_parse(const char *text, int dir, struct kb_hist *h,
		  char *err, size_t errlen);
void kb_hist_free(struct kb_hist *h);
int kb_timeline_parse(const char *text, struct kb_timeline *tl,
		      char *err, size_t errlen);
void kb_timeline_free(struct kb_timeline *tl);

/* ---- stats.c ------------------------------------------------------------ */

uint64_t kb_bucket_estimate(const struct kb_bucket *b, uint64_t min, uint64_t max);
uint64_t kb_pct_rank(uint64_t n, uint32_t pct);
bool kb_pct_low_confidence(uint64_t n, uint32_t pct);
/* 0 and out[] filled, or -1 when there are no samples. */
int kb_hist_percentiles(const struct kb_hist *h, const uint32_t *plist,
			unsigned int nr, uint64_t *out, bool *lowconf);
double kb_lat_mean(uint64_t n, uint64_t sum);
double kb_lat_stddev(uint64_t n, uint64_t sum, uint64_t sumsq_hi, uint64_t sumsq_lo);

/* fio's latency distribution ranges (percent of all I/Os). */
#define KB_LAT_N_NR	10
#define KB_LAT_U_NR	10
#define KB_LAT_M_NR	12
extern const unsigned int kb_lat_nu_edges[KB_LAT_N_NR];	/* 2 4 10 ... 1000 */
extern const unsigned int kb_lat_m_edges[KB_LAT_M_NR];	/* 2 ... 2000, >=2000 */
void kb_lat_dist(const struct kb_hist *const *h, unsigned int nh,
		 double *pn, double *pu, double *pm);


/* The "device=PATH ..." lines of a debugfs config file, joined with ':'. */
void kb_config_devices(const char *text, char *out, size_t len);
struct kb_result;
/*
 * Histograms, timeline and (write_lat_log) latency log of the job whose
 * debugfs directory is dir into res (res->job and res->st set), with a
 * message for each part that is missing.  several: the run has several
 * jobs (the log file gets the job's name).  false: incomplete.
 */
bool kb_read_results(const char *dir, bool several, struct kb_result *res);
/* The running kernel's release and the module's version into res ("" unknown). */
void kb_read_versions(struct kb_result *res);
/* The devices of the job in dir from its config file, joined with ':'; "-" if unknown. */
void kb_debugfs_devices(const char *dir, char *out, size_t len);

/* ---- sensors.c: a block device's hwmon sensors (sysfs) -------------------- */

enum kb_hw_kind {
	KB_HW_TEMP,		/* temp*_input, millidegree Celsius */
	KB_HW_POWER,		/* power*_input or power*_average, microwatt */
	KB_HW_NR
};

#define KB_HWMON_MAX		8	/* sensors of one kind kept per device */
#define KB_HWMON_MAX_SAMPLES	65536	/* as the module's timeline */
#define KB_HWMON_MIN_PERIOD_NS	100000000ULL	/* reading may cost a device command */
#define KB_HWMON_NONE		INT64_MIN	/* a reading that failed */

struct kb_hw_sample {
	uint64_t t_ns;			/* since the job's start */
	int64_t v[KB_HW_NR][KB_HWMON_MAX];
};

/* The hwmon sensors of one device of a job, and their samples. */
struct kb_hwmon {
	const char *device;		/* the job's device path (not owned) */
	char path[256];			/* the hwmon directory in sysfs */
	char name[32];			/* its "name": "nvme", "drivetemp" */
	char owner[64];			/* the device it hangs on: "nvme0" */
	unsigned int nr[KB_HW_NR];
	char label[KB_HW_NR][KB_HWMON_MAX][32];
	int fd[KB_HW_NR][KB_HWMON_MAX];	/* open while sampling, else -1 */
	struct kb_hw_sample *s;
	size_t nr_s, cap_s;
	uint64_t dropped;		/* samples beyond KB_HWMON_MAX_SAMPLES */
};

/* Sensor figures of a job or a step (several jobs). */
struct kb_hw_sum {
	unsigned int devices;		/* distinct hwmon devices */
	bool has_temp, has_power;
	int64_t temp_min_mc, temp_max_mc;	/* first temperature sensor of each */
	double power_uw;		/* mean total power in the measured time */
};

/*
 * The hwmon directory of block device devnum (a partition: its disk) under
 * sysfs (normally "/sys"): the nearest one on the disk's device or a parent
 * of it, or on the first path of an NVMe multipath disk.  0 and dir filled,
 * 1 when there is none, -1 on a sysfs error (errno).
 */
int kb_hwmon_find(const char *sysfs, unsigned int major, unsigned int minor,
		  char *dir, size_t len);
/*
 * Open the temperature and power sensors of hwmon directory dir for device:
 * 0, 1 when it has neither (h closed), -1 on an error (errno).
 */
int kb_hwmon_open(struct kb_hwmon *h, const char *dir, const char *device);
/* Read every sensor once, stamped t_ns; false when out of room or memory. */
bool kb_hwmon_sample(struct kb_hwmon *h, uint64_t t_ns);
/* Close the sensors' files, keeping the samples. */
void kb_hwmon_close(struct kb_hwmon *h);
void kb_hwmon_free(struct kb_hwmon *h, unsigned int n);
/* The sample nearest t_ns, if within tol; *hint: where to start (0 first). */
const struct kb_hw_sample *kb_hwmon_nearest(const struct kb_hwmon *h, uint64_t t_ns,
					    uint64_t tol, size_t *hint);
struct kb_result;
/*
 * The sensor figures of the jobs r[0..n) into s (zeroed here).  Power is
 * averaged over each job's measured time (the samples from its warm-up's
 * end on; all of them if none is).  A hwmon device counts once, however
 * many of the devices (namespaces of one controller) share it.
 */
void kb_hwmon_summarize(const struct kb_result *r, size_t n, struct kb_hw_sum *s);

/* ---- output.c ----------------------------------------------------------- */

/* What "N of M reads returned ..." warnings go on with (run, sweep, suite). */
#define KB_ZERO_READS_WARNING \
	"reads returned an all-zero block: never-written or deallocated blocks can " \
	"read unrealistically fast; write the span first (precondition)"

struct kb_dirstat {
	bool present;
	uint64_t ios, bytes, errors;
	uint64_t lat_min, lat_max, lat_sum, sumsq_hi, sumsq_lo;
	uint64_t all_ios, all_bytes;
};

/*
 * A job's settings as the kernel states them in its status (JOB_GET,
 * JOB_NTF): what the workers do, whoever created the job.  Absent from the
 * reply of a module older than 0.5 (present false).
 */
#define KB_KCFG_DEVS	16		/* the module's limit-devices */
#define KB_KCFG_BSS	16		/* the module's limit-bssplit */
#define KB_KCFG_CPUS	1024		/* entries of the module's cpus */
struct kb_kcfg {
	bool present;
	char devices[1024];		/* the paths, ':'-separated */
	unsigned int nr_devs;
	uint64_t span_len[KB_KCFG_DEVS];	/* per device, bytes */
	unsigned int nr_spans;
	bool random, allow_writes, continue_on_error, detach, stages;
	uint8_t rwmix_read;
	struct { uint32_t size, weight; } bss[KB_KCFG_BSS];
	unsigned int nr_bss;
	uint32_t iodepth, numjobs;
	uint32_t cpus[KB_KCFG_CPUS];
	unsigned int nr_cpus;		/* 0: not pinned */
	uint64_t offset, size;		/* size 0: each device to its end */
	uint64_t runtime_ns, io_bytes, number_ios;	/* 0: no such limit */
	uint64_t ramp_ns, seed, interval_ns;
	uint32_t lat_log;
	uint32_t rate_iops;		/* 0: closed loop */
	int rate_process;		/* enum kiobench_rate_process */
	int completion;			/* enum kiobench_completion, -1: not said */
};

struct kb_status {
	uint32_t id;
	char name[KIOBENCH_NAME_LEN];
	int state;			/* enum kiobench_job_state, -1 unknown */
	int32_t error;			/* -errno */
	uint64_t elapsed_ns, measured_ns;
	uint32_t nr_workers;
	uint64_t cpu_ns, zero_reads;
	uint32_t owner;			/* owning socket's port id; 0: detached */
	bool has_owner;
	char debugfs_dir[64];		/* if the reply has it */
	struct kb_dirstat dir[KIOBENCH_NR_DIRS];
	struct kb_kcfg cfg;		/* the settings the kernel reports */
};

/* Everything known about one finished job. */
/* The module's secondary latency measures, as its debugfs files name them. */
enum kb_metric {
	KB_MET_SCHED_LAG,	/* open loop: submission - scheduled arrival */
	KB_MET_LAT_SCHED,	/* open loop: completion - scheduled arrival */
	KB_MET_STAGE_QUEUE,	/* stages: driver issue - submission */
	KB_MET_STAGE_DEVICE,	/* driver completion - driver issue */
	KB_MET_STAGE_COMPLETE,	/* bi_end_io - driver completion */
	KB_NR_MET
};

extern const char *const kb_metric_names[KB_NR_MET];

struct kb_result {
	const struct kb_job *job;
	struct kb_status st;
	struct kb_hist hist[KIOBENCH_NR_DIRS];
	bool has_hist[KIOBENCH_NR_DIRS];
	/* the secondary measures the job asked for */
	struct kb_hist met[KB_NR_MET][KIOBENCH_NR_DIRS];
	bool has_met[KB_NR_MET][KIOBENCH_NR_DIRS];
	struct kb_timeline tl;
	bool has_tl;
	struct kb_hwmon *hw;		/* devices of the job that have sensors */
	unsigned int nr_hw;
	char kernel[65];		/* uname -r of the run, "" unknown */
	char module_version[64];	/* kiobench.ko's, "" unknown */
};

const char *kb_state_name(int state);
char *kb_num2str(char *buf, size_t len, uint64_t num, int maxlen, bool pow2,
		 const char *unit);
void kb_print_normal(FILE *f, const struct kb_result *r, size_t n);
void kb_print_terse(FILE *f, const struct kb_result *r, size_t n);
/* Returns a newly allocated string. */
char *kb_json_report(const struct kb_result *r, size_t n, long long now_ms);
/* plus: fio's json+ (clat_ns.bins); json otherwise. */
char *kb_json_report_ext(const struct kb_result *r, size_t n, long long now_ms, bool plus);
struct json_object;
/* The fio-compatible object of one job (as in "jobs" of kb_json_report). */
struct json_object *kb_json_job(const struct kb_result *r);
/* fio's json+ bin value of a bucket: its middle ns (fio's plat_idx_to_val). */
uint64_t kb_bin_value(const struct kb_bucket *b);
/*
 * The sensor summary of the jobs r[0..n) that ran at iops (both
 * directions) and bw (bytes/s) together: temperatures, mean power and
 * efficiency, or JSON null when none of their devices has sensors.
 */
struct json_object *kb_json_sensors(const struct kb_result *r, size_t n, double iops,
				    double bw);

/* ---- measures.c: completion mode, depth kept, open loop, other measures -- */

double kb_effective_iodepth(const struct kb_result *r);
/* Measure m of jobs r[0..n), direction d (< 0: both merged), into h (then kb_hist_free). */
int kb_metric_merged(const struct kb_result *r, size_t n, enum kb_metric m, int d,
		     struct kb_hist *h);
/* A measure in the shape of fio's clat_ns, percentiles from job's percentile_list. */
struct json_object *kb_json_metric(const struct kb_hist *h, const struct kb_job *job);
void kb_json_measures(struct json_object *o, const struct kb_result *r);
void kb_print_measures(FILE *f, const struct kb_result *r);
/* The kernel's settings (kb_status.cfg): fio's names, one line / an object. */
const char *kb_kcfg_completion(const struct kb_kcfg *c);
void kb_kcfg_str(const struct kb_kcfg *c, char *buf, size_t len);
struct json_object *kb_kcfg_json(const struct kb_kcfg *c);

/* ---- stages_out.c: --stages in the reports -------------------------------- */

#define KB_NR_STAGES		3	/* queue, device, complete */
#define KB_STAGE_NR_PCT		3	/* the table's p50, p99, p99.9 */
extern const char *const kb_stage_names[KB_NR_STAGES];

/* One stage of one direction, as the stage table shows it. */
struct kb_stage_row {
	uint64_t n, max;
	double mean;			/* ns */
	double share;			/* percent of the summed stage means */
	uint64_t pct[KB_STAGE_NR_PCT];
};

/*
 * Stage figures of direction d over the jobs r[0..n) (merged), and the
 * I/Os that have no stages; -1 when the jobs have none.
 */
int kb_stage_rows(const struct kb_result *r, size_t n, int d,
		  struct kb_stage_row rows[KB_NR_STAGES], uint64_t *unsplit);
/* The stage table of direction d of r[0..n), each line after indent. */
void kb_print_stage_table(FILE *f, const struct kb_result *r, size_t n, int d,
			  const char *indent);
void kb_print_stages(FILE *f, const struct kb_result *r);
/* Under a step's rows in the table of a sweep or suite: its jobs' stages. */
struct kb_step;
void kb_print_step_stages(FILE *f, const struct kb_step *st);
/* jobs[i].kiobench.stages; NULL for a job without stages. */
struct json_object *kb_stages_json(const struct kb_result *r);

/* ---- plan.c, stats.c, steps_out.c: the steps of sweeps and suites -------- */

extern const char *const kb_var_names[KB_VAR_NR];

#define KB_SUM_NR_PCT	5	/* 50, 99, 99.9, 99.99, 99.999 */
extern const uint32_t kb_sum_pcts[KB_SUM_NR_PCT];

/* One direction of one step, over all of its jobs. */
struct kb_sum {
	bool present, has_pct;
	uint64_t ios, bytes, all_ios, all_bytes, errors, measured_ns;
	uint64_t min, max, samples;
	uint64_t pct[KB_SUM_NR_PCT];
	double iops, bw, mean;	/* bw in bytes/s, mean in ns */
	uint64_t cpu_ns;	/* the jobs' workers, both directions */
	double cpu_ns_per_io;	/* per I/O of either direction, warm-up included */
};

/* One step of a sweep (or one burst). */
struct kb_step {
	unsigned int index;
	enum kb_var var;
	char value[32];		/* the swept value as printed */
	uint64_t x;		/* the swept value as a number */
	uint32_t iodepth;	/* per worker */
	uint32_t numjobs;	/* workers per device */
	uint32_t qd;		/* total in flight per device */
	uint32_t bs;
	uint32_t nr_devices;
	uint64_t busy_ns, idle_ns;	/* tool's CLOCK_MONOTONIC */
	struct kb_result *res;	/* one per job */
	size_t nr_res;
	struct kb_sum sum[KIOBENCH_NR_DIRS];
};

/* Steady-state check of the last w values. */
struct kb_ss {
	bool reached, data_ok, slope_ok;
	double mean, slope, intercept, max_dev, excursion;
};

int kb_parse_value_list(const char *s, bool sizes, uint64_t min, uint64_t max,
			uint64_t **out, unsigned int *nr, char *err, size_t errlen);
void kb_split_qd(uint32_t qd, uint32_t maxw, uint32_t *workers, uint32_t *per);
uint64_t kb_duty_idle_ns(uint64_t busy_ns, unsigned int pct);
double kb_duty_cycle(uint64_t busy_ns, uint64_t idle_ns);
bool kb_steady_state(const double *y, size_t n, size_t w, double data_pct,
		     double slope_pct, struct kb_ss *ss);
int kb_hist_merge(struct kb_hist *dst, const struct kb_hist *src);
int kb_summarize(const struct kb_result *r, size_t n, int d, bool sequential,
		 struct kb_sum *s);
int kb_saturation(const double *iops, const double *lat, size_t n, double thresh_pct);
/* stats.c: the direction a step's figures are about: write if it only wrote. */
int kb_step_dir(const struct kb_step *st);
/* plan.c: a step's value as printed: sizes as 4k, 1m; "-" for no variable. */
void kb_step_label(char *buf, size_t len, enum kb_var var, uint64_t v);

/* steps_out.c */
void kb_table_header(FILE *f, const char *var);
/* hw: the sensors of the row's jobs, NULL: none */
void kb_table_row(FILE *f, const char *value, int d, const struct kb_sum *s,
		  const struct kb_hw_sum *hw);
void kb_csv_header(FILE *f);
void kb_csv_row(FILE *f, const char *part, const struct kb_step *st, const char *device,
		int d, const struct kb_sum *s, const struct kb_hw_sum *hw);
/* Step st's rows (table, csv: NULL for none): the aggregate, then each job's. */
void kb_step_rows(FILE *table, FILE *csv, const char *part, const struct kb_step *st);
struct json_object *kb_sum_json(const struct kb_sum *s);
/* The step's object in the document of a sweep or suite. */
struct json_object *kb_step_json(const struct kb_step *st);

/* ---- compare_stats.c: is NEW worse than BASE? ---------------------------- */

#define KB_CMP_ALPHA	0.01	/* significance level of every test */
#define KB_CMP_Z	2.5758	/* two-sided normal quantile of KB_CMP_ALPHA */

/* The figures compared, per job and direction. */
enum kb_cmp_fig_id {
	KB_CF_IOPS, KB_CF_MBS, KB_CF_MEAN, KB_CF_P50, KB_CF_P99, KB_CF_P999, KB_CF_MAX,
	KB_CF_NR
};
extern const char *const kb_cf_names[KB_CF_NR];	/* "IOPS", "MB/s", "mean" ... */
extern const char *const kb_cf_keys[KB_CF_NR];	/* "iops", "mb_s", "mean_ns" ... */

/* One direction of one job of a result file, as compare reads it. */
struct kb_cmp_dir {
	bool present;
	double iops, mbs;		/* MB/s: 10^6 bytes/s */
	double mean, stddev;		/* ns */
	uint64_t n, max;
	bool has_pct;
	uint64_t pct[3];		/* p50, p99, p99.9 ns */
	struct kb_bucket *b;		/* the latency histogram; NULL: none */
	size_t nr;
	double *iops_iv, *mbs_iv;	/* rates of the measured timeline intervals */
	double *ios_iv, *lat_iv;	/* their I/Os and summed latency (ns) */
	size_t nr_iv;
};

enum kb_verdict { KB_V_SAME, KB_V_BETTER, KB_V_WORSE };

struct kb_cmp_fig {
	double base, new;
	double change_pct;		/* NAN when base is 0 */
	double p;			/* NAN: no p-value (not tested, or an interval test) */
	int significant;		/* 1, 0, or -1: not tested */
	enum kb_verdict verdict;
	const char *test;		/* how: "welch", "mann-whitney", "quantile-ci", "none" */
};

/* Mann-Whitney U of new against base; buckets of equal lo are ties. */
struct kb_mwu {
	double auc;			/* P(new > base) + P(new == base) / 2 */
	double z, p;			/* normal approximation, tie-corrected; p two-sided */
};

struct kb_cmp_result {
	struct kb_cmp_fig f[KB_CF_NR];
	double deff[2];			/* kb_design_effect() of base and new */
	bool has_mwu;
	struct kb_mwu mwu;
	unsigned int worse;		/* figures judged KB_V_WORSE */
};

/* 0, or -1 when either side is empty. */
int kb_mwu_hist(const struct kb_bucket *a, size_t na, const struct kb_bucket *b, size_t nb,
		struct kb_mwu *r);
/*
 * Distribution-free confidence interval of quantile q (0 < q < 1) of the
 * histogram b[0..nr): the values of ranks nq -+ z sqrt(nq(1 - q)), each
 * widened to its bucket.  -1 when it is empty.
 */
int kb_quantile_ci(const struct kb_bucket *b, size_t nr, double q, double z,
		   uint64_t *lo, uint64_t *hi);
/* Two-sided p of Welch's t test (Student's t, Welch-Satterthwaite df); NAN if n < 2. */
double kb_welch_p(double m1, double v1, double n1, double m2, double v2, double n2);
/* Mean and sample variance of x[0..n) (variance 0 when n < 2). */
void kb_mean_var(const double *x, size_t n, double *mean, double *var);
/*
 * The design effect of cd's latencies: the variance of their mean over
 * the timeline's intervals, against what independent samples would give
 * (sd^2 / n); at least 1, and 1 without intervals.  Latencies of one run
 * are not independent (a stall of the host delays every I/O in flight),
 * so the tests over histograms divide their sample sizes by it.
 */
double kb_design_effect(const struct kb_cmp_dir *cd);
/*
 * The design effect of quantile q's interval: at least deff, and at least
 * what makes the samples above q as many as the timeline's intervals
 * (n (1 - q) / k): the slow I/Os come in clusters, one stall delaying all
 * in flight, and the timeline cannot tell how many stalls an interval had.
 */
double kb_tail_effect(const struct kb_cmp_dir *cd, double deff, double q);
/* Regularized incomplete beta function I_x(a, b). */
double kb_betai(double a, double b, double x);
/* Worse, better or the same, given threshold percent; higher_worse: latency. */
void kb_cmp_judge(struct kb_cmp_fig *f, bool higher_worse, double threshold);
/* Every figure of base against new. */
void kb_cmp_dirs(const struct kb_cmp_dir *base, const struct kb_cmp_dir *new,
		 double threshold, struct kb_cmp_result *r);

/* ---- nl.c --------------------------------------------------------------- */

struct nl_sock;

struct kb_nl {
	struct nl_sock *sk;	/* requests and replies */
	struct nl_sock *ev;	/* "events" multicast group, or NULL */
	int family;
};

/* A failed request: -errno and the kernel's extack message, if any. */
struct kb_nlerr {
	int err;
	bool no_family;		/* the kiobench family is not registered */
	char msg[KB_ERRLEN];
};

struct kb_features {
	uint64_t present;	/* bit (1 << KIOBENCH_A_*) */
	uint32_t version, jobs, devices, workers, iodepth, bs, bssplit;
	uint32_t hist_bits, hist_buckets, lat_log, rate_iops, socket_jobs;
	uint64_t job_mem, total_mem, detached_ns;
};

int kb_nl_open(struct kb_nl *nl, bool events, struct kb_nlerr *e);
void kb_nl_close(struct kb_nl *nl);
int kb_nl_features(struct kb_nl *nl, struct kb_features *f, struct kb_nlerr *e);
int kb_nl_job_new(struct kb_nl *nl, const struct kb_job *job, bool detach, uint32_t *id,
		  char *dir, size_t dirlen, struct kb_nlerr *e);
/* JOB_START, JOB_STOP, JOB_DEL */
int kb_nl_job_cmd(struct kb_nl *nl, int cmd, uint32_t id, struct kb_nlerr *e);
int kb_nl_job_get(struct kb_nl *nl, uint32_t id, struct kb_status *st,
		  struct kb_nlerr *e);
int kb_nl_job_dump(struct kb_nl *nl, int (*cb)(const struct kb_status *st, void *arg),
		   void *arg, struct kb_nlerr *e);
int kb_nl_event_fd(const struct kb_nl *nl);
/* Read every pending JOB_NTF; cb(id, state, error).  -errno on failure. */
int kb_nl_events(struct kb_nl *nl, void (*cb)(uint32_t id, int state, int32_t error,
					       void *arg), void *arg, struct kb_nlerr *e);

/* values.c: formats an error message into err; returns -1 */
int kb_errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* KIOBENCH_TOOL_H */
