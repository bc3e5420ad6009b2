/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A job's results: its status as the module reports it, its histograms
 * and timeline as debugfs shows them, parsed (results.c), and what a
 * finished job's report is made of (struct kb_result).
 */
#ifndef KIOBENCH_RESULT_H
#define KIOBENCH_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "distrib.h"
#include "kiobench.h"
#include "latt.h"
#include "locality.h"

struct kb_hwmon;

struct kb_bucket {
	uint64_t lo, hi, count;		/* [lo, hi) ns */
};

#define KB_HIST_MAX_BITS	32	/* sub-bucket bits a histogram may have */
#define KB_VCOUNTS		5	/* verify's counts in a job's status */

/* Why I/Os have no stages: the module's "# unsplit_<name>" (stages_out.c) */
enum kb_unsplit {
	KB_UNSPLIT_SPLIT,		/* split over several requests */
	KB_UNSPLIT_NO_REQUEST,		/* never issued in a request */
	KB_UNSPLIT_NO_DRIVER,		/* issued, no driver completion */
	KB_UNSPLIT_DISORDERED,		/* stamps out of order */
	KB_UNSPLIT_SYNC_CALL,		/* timed around a call (zone resets) */
	KB_NR_UNSPLIT
};

struct kb_hist {
	int dir;			/* KIOBENCH_DIR_* */
	unsigned int bits;
	uint64_t samples, min, max, sum;
	/* secondary measures (<metric>_<dir> files) only */
	uint64_t sumsq_hi, sumsq_lo;	/* sum of squares, ns^2 */
	uint64_t unsplit;		/* stages: measured I/Os without stages */
	uint64_t unsplit_why[KB_NR_UNSPLIT];	/* ... by why (older module: 0) */
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

struct kb_dirstat {
	bool present;
	uint64_t ios, bytes, errors;
	uint64_t lat_min, lat_max, lat_sum, sumsq_hi, sumsq_lo;
	uint64_t all_ios, all_bytes;
};

/*
 * A job's settings as the kernel states them in its status (JOB_GET,
 * JOB_NTF): what the workers do, whoever created the job.  Absent from the
 * reply of a module older than 0.5 (present false).  Every flag and
 * unsigned number of the status is kept by its attribute (kb_kcfg_u64(),
 * kb_kcfg_has()): a new one needs no parse code.  The lists, and the
 * values that follow a rule, have fields of their own.
 */
#define KB_KCFG_DEVS	16		/* the module's limit-devices */
#define KB_KCFG_ZONES	256
#define KB_KCFG_HOT	3
#define KB_KCFG_HOT_PCTS	{ 1, 10, 50 }
#define KB_KCFG_BSS	16		/* the module's limit-bssplit */
#define KB_KCFG_CPUS	1024		/* entries of the module's cpus */
struct kb_kcfg {
	bool present;
	/* by attribute (enum kiobench_attr): a flag is 1 */
	uint64_t val[KIOBENCH_A_MAX + 1];
	bool has[KIOBENCH_A_MAX + 1];	/* in the reply */
	/* rules: rwmix-read absent is 100 (val[] has it so) */
	bool has_prio;			/* prioclass and prio: a module that sets bi_ioprio (0.6) */
	/* each direction's cmdprio_percentage share (0: none), the reads' when alone */
	uint8_t cmdprio_pct[KIOBENCH_NR_DIRS];
	uint8_t cmdprio_class[KIOBENCH_NR_DIRS], cmdprio[KIOBENCH_NR_DIRS];
	/* cmdprio_bssplit's table, the kernel's: the reads' entries then the writes' */
	struct kiobench_cmdprio_bs_ent cmdprio_bs[2 * KB_CMDPRIO_BS_MAX];
	unsigned int nr_cmdprio_bs;
	/* lists */
	char devices[1024];		/* the paths, ':'-separated */
	unsigned int nr_devs;
	uint64_t span_len[KB_KCFG_DEVS];	/* per device, bytes */
	unsigned int nr_spans;
	/* per device, at the job's start: integrity/format ("none"), and
	 * BIT(KIOBENCH_INTEGRITY_BIT_*); nr_pi 0: not reported */
	char pi_format[KB_KCFG_DEVS][32];
	uint32_t pi_flags[KB_KCFG_DEVS];
	unsigned int nr_pi, nr_pi_flags;
	struct kb_kcfg_bs { uint32_t size, weight; } bss[KB_KCFG_BSS];	/* the reads' */
	unsigned int nr_bss;
	/* the writes' and trims' where they differ from the previous direction's; else 0 */
	struct kb_kcfg_bs bss_wt[2][KB_KCFG_BSS];
	unsigned int nr_bss_wt[2];
	uint32_t cpus[KB_KCFG_CPUS];
	unsigned int nr_cpus;		/* 0: not pinned */
	uint8_t write_streams[KB_MAX_WRITE_STREAMS];	/* bi_write_stream ids; none: none */
	unsigned int nr_write_streams;
	/* random_distribution=zoned/zoned_abs: each direction's zones; none: uniform */
	struct kb_zone zones[KIOBENCH_NR_DIRS][KB_KCFG_ZONES];
	unsigned int nr_zones[KIOBENCH_NR_DIRS];
	bool zones_abs;
	/* random_distribution=zipf/pareto: the kernel's table, summed up */
	unsigned int nr_cdf;		/* its entries; 0: none */
	uint64_t cdf_blocks;		/* the ranks it spreads over */
	double cdf_hot[KB_KCFG_HOT];	/* share of the I/Os on the hottest KB_KCFG_HOT_PCTS % */
	/* ignore_error's read, write and verify lists, the kernel's */
	uint32_t ignore_error[3][16];
	unsigned int nr_ignore_error[3];
};

/* The kernel's value of attribute attr (enum kiobench_attr): 0 when absent (rwmix-read 100). */
static inline uint64_t kb_kcfg_u64(const struct kb_kcfg *c, unsigned int attr)
{
	return attr <= KIOBENCH_A_MAX ? c->val[attr] : 0;
}

/* Whether the status had attribute attr: a flag's value. */
static inline bool kb_kcfg_has(const struct kb_kcfg *c, unsigned int attr)
{
	return attr <= KIOBENCH_A_MAX && c->has[attr];
}

struct kb_status {
	uint32_t id;
	char name[KIOBENCH_NAME_LEN];
	int state;			/* enum kiobench_job_state, -1 unknown */
	int32_t error;			/* -errno */
	uint64_t elapsed_ns, measured_ns;
	uint32_t nr_workers;
	uint64_t cpu_ns, zero_reads;
	uint64_t retries;		/* polled bios refused for want of a tag */
	/* errors gone on from (continue_on_error, ignore_error): fio's first_error, by errno */
	int32_t first_error;		/* -errno; 0: none */
#define KB_ERR_COUNTS	32
	struct kiobench_err_count errs[KB_ERR_COUNTS];
	unsigned int nr_errs;
	/* the failed I/O that stopped the job (job-error-at), if has_error_at */
	struct kiobench_err_at error_at;
	bool has_error_at;
	/*
	 * verify: intervals checked, corrupt, misdirected, stale, and the
	 * checked ones of trimmed blocks that read as zeroes
	 */
	uint64_t verify[KB_VCOUNTS];
	bool has_verify;
	/* pi_act=0: wrong guard, reftag, apptag; the first wrong LBA */
	uint64_t pi_errors[KIOBENCH_PI_CHECK_APPTAG + 1];
	uint64_t pi_first_lba;
	bool has_pi, has_pi_first_lba;
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
	KB_MET_CLAT_PRIO_DEF,	/* cmdprio_percentage: the job's priority's I/Os */
	KB_MET_CLAT_PRIO_CMD,	/* the cmdprio share's I/Os */
	KB_MET_LAT_LOCAL,	/* locality: completed on the submitting CPU */
	KB_MET_LAT_REMOTE,	/* on another CPU */
	KB_NR_MET
};

extern const char *const kb_metric_names[KB_NR_MET];

/*
 * zonemode=zbd, the workers' counts summed (debugfs zones): bytes written
 * at write pointers, zone resets (those of zone_reset_frequency among
 * them) and the bytes they took back, reads past a pointer, zone appends
 * whose returned sector was inside their zone or not, or before an
 * earlier completion's end in the zone; and the zones written.
 */
struct kb_zbd_counts {
	bool present;
	uint64_t written, resets, reset_bytes, gc_resets, beyond;
	uint64_t append_in, append_out, append_reordered;
	uint64_t opens, closes, finishes;	/* zone-op's */
	uint32_t zones, touched;
};

/*
 * fio's bandwidth (KiB/s) or IOPS samples of one direction: a rate per
 * window of the timeline with I/O in it (output.c); s: the sum of the
 * squared deviations from the mean (fio's S).
 */
struct kb_samples {
	uint64_t n, min, max;
	double mean, s;
};

struct kb_result {
	const struct kb_job *job;
	unsigned int index;		/* the job's number in the run, from 1 (fio's logs) */
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
	unsigned int groupid;		/* fio's reporting group */
	unsigned int nr_jobs;		/* jobs reported as one (group_reporting); 0: 1 */
	const struct kb_steady *ss;	/* fio's steady state checked, or NULL */
	char kernel[65];		/* uname -r of the run, "" unknown */
	char module_version[64];	/* kiobench.ko's, "" unknown */
	/* debugfs verify: the mismatches' lines, whole (16 of about 600 bytes at most) */
	char verify_log[16384];
	/* where it ran: host name, CPU model and online CPUs ("" / 0 unknown) */
	char hostname[65], cpu_model[96];
	unsigned int cpus;
	struct kb_devid *devid;		/* each of the job's devices (malloc'ed) */
	struct kb_locality loc;		/* where its I/Os ran (malloc'ed parts) */
	unsigned int nr_devid;
	struct kb_zbd_counts zbd;	/* zonemode=zbd: what the workers did */
	struct kb_latt latt;		/* latency_target: the depth search (malloc'ed parts) */
	/*
	 * log_unix_epoch, log_alternate_epoch: log_alternate_epoch_clock_id's
	 * clock when the job was started, ns; 0: the logs' times from its start
	 */
	uint64_t log_epoch_ns;
	/* fio's bw and iops samples per direction, when kb_group_results() made them */
	struct kb_samples bw_s[KIOBENCH_NR_DIRS], iops_s[KIOBENCH_NR_DIRS];
	bool has_samples;
};

/* A block device's identity from sysfs ("" where sysfs has none). */
struct kb_devid {
	char model[96], serial[64], firmware[32], transport[16];	/* model: vendor too */
};

/* The "device=PATH ..." lines of a debugfs config file, joined with ':'. */
void kb_config_devices(const char *text, char *out, size_t len);
/*
 * Histograms, timeline and (write_lat_log) latency log of the job whose
 * debugfs directory is dir into res (res->job and res->st set), with a
 * message for each part that is missing.  several: the run has several
 * jobs (the log file gets the job's name).  false: incomplete.
 */
bool kb_read_results(const char *dir, bool several, struct kb_result *res);
/*
 * Where res ran: the kernel's release, the module's version, the host's
 * name, CPU model and online CPUs ("" or 0 unknown).
 */
void kb_read_versions(struct kb_result *res);
/* The devices of the job in dir from its config file, joined with ':'; "-" if unknown. */
void kb_debugfs_devices(const char *dir, char *out, size_t len);

/*
 * A u64 field of struct kb_dirstat (its offsetof) summed over every
 * direction: reads, writes, trims and flushes.
 */
static inline uint64_t kb_dirs_sum(const struct kb_result *r, size_t field_off)
{
	uint64_t v = 0;
	int d;

	for (d = 0; d < KIOBENCH_NR_DIRS; d++)
		v += *(const uint64_t *)((const char *)&r->st.dir[d] + field_off);
	return v;
}

/*
 * The failed I/O that stopped the job (job-error-at), or NULL: none, or
 * one naming a direction or device the job does not have.
 */
static inline const struct kiobench_err_at *kb_error_at(const struct kb_result *r)
{
	const struct kiobench_err_at *at = &r->st.error_at;

	return r->st.has_error_at && at->dir < KIOBENCH_NR_DIRS &&
	       at->device < r->job->nr_devices ? at : NULL;
}

/* The errors the job went on from: fio's total_err. */
static inline uint64_t kb_total_err(const struct kb_status *st)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < st->nr_errs; i++)
		n += st->errs[i].count;
	return n;
}

/*
 * fio's error of a job (stat.c's ts->error): the one that stopped it, else,
 * with continue_on_error, the first it went on from; an errno.
 */
static inline int kb_fio_error(const struct kb_result *r)
{
	if (r->st.error)
		return -r->st.error;
	return r->job->continue_on_error ? -r->st.first_error : 0;
}

#endif /* KIOBENCH_RESULT_H */
