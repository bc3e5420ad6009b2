/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kiobench internal definitions.
 *
 * A job owns one or more block devices and numjobs workers per device.  A
 * worker is a kthread that keeps iodepth bios in flight on its device (a
 * polled one may wait in the worker for a tag: worker.c): each slot holds a
 * preallocated bio and its buffer pages, so the submission and completion
 * paths allocate nothing.  Completions
 * (kb_end_io(), any context, any CPU) timestamp the bio and hand the slot
 * back to its worker through a lock-free llist, or a private list when the
 * worker completes it in its own task; the worker counts it in its own
 * statistics as it reaps it (account.c).
 *
 * Jobs live in a registry (job.c) whose mutex serialises the control
 * operations on registered jobs (start, stop, reads of the results, their
 * removal); jobs are made, drained and freed outside it, kept alive by a
 * reference count.  A job belongs to the netlink socket that created it,
 * and is stopped and destroyed when that socket is released, unless it was
 * created detached (netlink.c).
 */
#ifndef KB_KIOBENCH_H
#define KB_KIOBENCH_H

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/seqlock.h>
#include <linux/workqueue.h>
#include <uapi/linux/kiobench.h>

#include "hist.h"
#include "errors.h"

/* Hard limits, reported by KIOBENCH_CMD_GET_FEATURES. */
#define KB_MAX_JOBS		64
#define KB_MAX_DEVICES		16
#define KB_MAX_WORKERS		256	/* per job, all devices */
#define KB_MAX_IODEPTH		4096	/* per worker */
#define KB_MAX_BS		(16U << 20)
#define KB_MIN_BS		512U
#define KB_MAX_BSSPLIT		16	/* per direction */
#define KB_MAX_WRITE_STREAMS	16	/* the spec's max-len of write-streams */
#define KB_BSS_DIRS		3	/* read, write, trim: fio's bs values */
#define KB_MAX_CPUS		1024	/* entries in KIOBENCH_A_CPUS */
#define KB_MIN_INTERVAL_NS	(10 * NSEC_PER_MSEC)
#define KB_MAX_INTERVAL_NS	(3600 * NSEC_PER_SEC)
#define KB_DEF_INTERVAL_NS	NSEC_PER_SEC
#define KB_TIMELINE_DEF		3600	/* entries when the run has no time limit */
#define KB_TIMELINE_MAX		65536
#define KB_MAX_TIME_NS		(1000000ULL * NSEC_PER_SEC)	/* runtime, ramp */
#define KB_MAX_THINK_NS		(3600 * NSEC_PER_SEC)	/* thinktime and its parts */
#define KB_MAX_LAT_LOG		(16U << 20)	/* entries; memory is charged */
#define KB_READ_POISON		0x5a	/* fresh buffers: never zeroes */
#define KB_MAX_RATE_IOPS	KIOBENCH_MAX_RATE_IOPS	/* per worker: 100 ns apart */
#define KB_MAX_SPAN_ZONES	(16U << 20)	/* zonemode zbd: a span's zones */

struct kb_bss {
	u32 size;
	u32 cum_weight;		/* cumulative: entry chosen if r < cum_weight */
};

/*
 * A direction's transfer sizes: @nr entries of kb_config.bss from @first;
 * @range: fio's bsrange over the two, low and high (kb_pick_bs_drawn()).
 */
struct kb_bss_dir {
	u8 first, nr;
	bool range;
	u32 total_weight;
};

/*
 * fio's random_distribution=zoned and zoned_abs: each direction's zones
 * as the request gave them, and the zone of each percent of its accesses
 * ([lo, hi): percent of the span, or bytes), built by kb_zones_build().
 */
#define KB_MAX_ZONES		256
#define KB_ZONE_PCTS		100
#define KB_MAX_CDF		2049

struct kb_zone {
	u64 size;		/* bytes (abs), or percent of the span */
	u8 access;		/* percent of the direction's random offsets */
};

struct kb_zone_range {
	u64 lo, hi;
};

struct kb_zones {
	unsigned int nr[KIOBENCH_NR_DIRS];	/* 0: uniform */
	bool abs;		/* sizes in bytes, not percent */
	struct kb_zone z[KIOBENCH_NR_DIRS][KB_MAX_ZONES];
	struct kb_zone_range at[KIOBENCH_NR_DIRS][KB_ZONE_PCTS];
};

/* Validated job configuration; see the uapi header for the meaning. */
struct kb_config {
	char name[KIOBENCH_NAME_LEN];
	char *paths[KB_MAX_DEVICES];
	unsigned int nr_devs;
	bool random;
	bool norandommap;	/* random offsets with replacement */
	bool random_lfsr;	/* fio's lfsr: the permutation, sizes uncut */
	bool allow_writes;
	bool continue_on_error;
	bool detach;		/* the job outlives the socket that made it */
	u8 rwmix_read;
	/* every direction's sizes; a direction without its own shares one */
	struct kb_bss bss[KB_BSS_DIRS * KB_MAX_BSSPLIT];
	unsigned int nr_bss;
	struct kb_bss_dir bsd[KB_BSS_DIRS];
	u32 min_bs, max_bs;	/* of all directions */
	u32 iodepth;
	u32 numjobs;
	u32 *cpus;
	unsigned int nr_cpus;
	bool cpus_shared;	/* every worker on any of cpus, not one each */
	u8 bsrange;		/* bit d: bssplit list d is a range (bsd[].range) */
	u64 offset;
	u64 size;		/* 0: to the end of each device */
	u64 runtime_ns;		/* 0: no time limit */
	u64 io_bytes;		/* 0: no byte limit */
	u64 number_ios;		/* 0: no count limit */
	u64 ramp_ns;
	u64 max_ns;		/* 0: none; detached jobs: ramp + run at most */
	u64 seed;
	u64 interval_ns;
	u32 lat_log;		/* entries of the per-I/O log; 0: none */
	u32 rate_iops;		/* open loop, per worker; 0: closed loop */
	u32 rate_iops_write;	/* open loop: the writes' own; rate_iops reads' */
	u8 rate_process;	/* enum kiobench_rate_process */
	u8 completion;		/* enum kiobench_completion */
	bool stages;		/* per-stage latency split */
	u8 prioclass, prio;	/* every bio's bi_ioprio ... */
	bool cmdprio_any;	/* a cmdprio_pct of either direction */
	/* ... but this share of each direction's, in percent */
	u8 cmdprio_pct[KIOBENCH_NR_DIRS];
	u8 cmdprio_class[KIOBENCH_NR_DIRS], cmdprio[KIOBENCH_NR_DIRS];
	u16 ioprio;		/* IOPRIO_PRIO_VALUE(prioclass, prio) */
	/* IOPRIO_PRIO_VALUE(cmdprio_class, cmdprio) of each direction */
	u16 cmdprio_ioprio[KIOBENCH_NR_DIRS];
	u64 thinktime_ns;		/* fio's thinktime; 0: none */
	u64 thinktime_spin_ns;	/* of it spinning */
	u64 thinktime_iotime_ns;	/* I/O time between pauses; 0: none */
	u32 thinktime_blocks;	/* completions between pauses; 0: none */
	/* fio's percentage_random of each direction: the rest sequential */
	u8 percentage_random, percentage_random_write;
	struct kb_zones *zones;	/* NULL: uniform random offsets */
	/* fio's zipf, pareto: the ranks' inverse distribution, NULL: none */
	struct kiobench_cdf_ent *cdf;
	unsigned int nr_cdf;	/* entries, the last one's rank the blocks */
	/* fio's verify (verify.c) */
	u8 verify;		/* enum kiobench_verify */
	u8 do_verify;		/* a write job reads back what it wrote */
	bool verify_only;	/* ... or only reads it */
	bool verify_sorted;	/* ... lowest offset first, fio's default */
	bool verify_fatal;
	bool verify_dump;
	u32 verify_interval;	/* bytes; 0 in the request: min_bs */
	u32 verify_offset;	/* of the header in each interval */
	u32 verify_generation;
	u8 *verify_pattern;	/* NULL: random data */
	u32 verify_pattern_len;
	u32 verify_backlog;	/* writes between read-backs; 0: at the end */
	u32 verify_backlog_batch;	/* taken equal to verify_backlog */
	u64 io_round;	/* bytes read back at a time; 0: all */
	u8 trim_percentage;	/* verify's writes chosen for a trim */
	u8 trim_verify_zero;	/* a trimmed block reads back as zeroes */
	u32 trim_backlog;	/* writes between trims; 0: no trims */
	u32 trim_backlog_batch;	/* trims each time; 0: trim_backlog */
	/* the operations: what a write is, flushes, FUA */
	u8 trim_mode;		/* enum kiobench_trim_mode */
	bool write_zeroes;	/* writes are REQ_OP_WRITE_ZEROES ... */
	bool zeroes_unmap;	/* ... without REQ_NOUNMAP */
	u32 fsync;		/* a flush after every fsync writes; 0: none */
	bool end_fsync;		/* a flush at each worker's end */
	bool writefua;		/* REQ_FUA on writes */
	bool atomic;		/* REQ_ATOMIC on writes */
	bool locality;		/* latency split local/remote (locality.h) */
	/* fio's zonemode=zbd (zone.c) */
	u8 zonemode;		/* enum kiobench_zonemode */
	u32 max_open_zones;	/* each device's, all workers; 0: the device's */
	u32 job_max_open_zones;	/* each worker's; 0: its share */
	bool ignore_zone_limits;
	bool read_beyond_wp;
	bool zone_append;	/* writes are REQ_OP_ZONE_APPEND */
	u32 zone_reset_threshold;	/* millionths of the zones' size */
	u32 zone_reset_frequency;	/* millionths of the writes; 0: none */
	u8 zone_op;		/* enum kiobench_zone_op: what trims are */
	/* what writes carry (data.c) */
	u8 buffer_fill;		/* enum kiobench_buffer_fill */
	u8 *buffer_pattern;	/* NULL: none */
	u32 buffer_pattern_len;
	bool refill_buffers;
	bool scramble_buffers;
	u8 buffer_compress_percentage;
	u32 buffer_compress_chunk;	/* bytes; 0: the write's size */
	/* fio's latency_target (latt.c) */
	u64 latency_target_ns;	/* 0: none */
	u64 latency_window_ns;
	u32 latency_percentile_ppm;
	bool latency_run;
	/* fio's rw=...:N, rw_sequencer and zonemode=strided (worker.c) */
	u32 rw_seq_nr;		/* random: a drawn offset every N; 0, 1: each */
	u8 rw_sequencer;	/* enum kiobench_rw_sequencer */
	u64 rw_seq_add;		/* sequential: bytes skipped after each I/O */
	bool seq_wrap;		/* ... and a pass of the span starts over */
	u64 zonesize;		/* strided: bytes of I/O per zone; 0: none */
	u64 zonerange;		/* strided: a zone's bytes */
	u64 zoneskip;		/* strided: bytes between zones */
	/* fio's cmdprio_bssplit: each direction's sizes and their shares */
	struct kb_cmdprio_bs {
		u32 size;
		u8 pct;
	} cmdprio_bs[KIOBENCH_NR_DIRS][KB_MAX_BSSPLIT];
	u8 nr_cmdprio_bs[KIOBENCH_NR_DIRS];
	bool rate_ignore_thinktime;	/* open loop: no catch-up after a pause */
	u32 blockalign;		/* norandommap's offsets; 0: min_bs */
	/* fio's dedupe_* (data.c) */
	u8 dedupe_percentage;
	u8 dedupe_mode;		/* enum kiobench_dedupe_mode */
	u8 dedupe_working_set_percentage;
	bool dedupe_global;
	u64 dedupe_global_seed;		/* the group's, across jobs */
	u32 dedupe_global_first;	/* this job's first worker in the group */
	u32 dedupe_global_workers;	/* the group's; 0: the job's own */
	u32 pi_chk;		/* pi.c: kiobench's own PI, checked as this says */
	u32 pi_apptag;		/* pi.c: its application tag */
	u32 pi_inject;		/* pi.c: the fields written wrong at ... */
	u64 pi_inject_lba;	/* ... this interval */
	/* fio's ignore_error and error_dump (errors.c) */
	u16 ignore_error[KB_ERR_TYPES][KB_MAX_IGNORE_ERROR];
	u8 nr_ignore_error[KB_ERR_TYPES];
	bool error_dump;
	u32 flow;		/* flow control's weight (flow.c); 0: none */
	u32 flow_id;
	u64 flow_sleep_ns;
	/* how bios are submitted (submit.c) */
	int nice;		/* the workers' nice value */
	u32 write_barrier;	/* every Nth write PREFLUSH | FUA; 0: none */
	bool nowait;		/* REQ_NOWAIT on reads and writes: EAGAIN fails */
	bool serialize_overlap;	/* an I/O waits for the overlapping in flight */
	u8 write_hint;		/* bi_write_hint of every data bio; 0: none */
	/* write streams of REQ_OP_WRITE bios, ids from 1 (submit.c) */
	u8 write_streams[KB_MAX_WRITE_STREAMS];
	u8 nr_write_streams;	/* 0: none */
	u8 max_write_stream;	/* the largest of them */
	u8 write_stream_select;	/* enum kiobench_write_stream_select */
	u32 iodepth_batch;	/* bios a plug holds; 0: a round's */
	u32 iodepth_low;	/* once full: reap down to this many; 0: iodepth */
	u32 iodepth_batch_complete_min;	/* once full: completions a reap takes */
	bool reap_rounds;	/* fio's reaping is not one completion at a time */
	/* write_barrier, nowait, serialize_overlap, iodepth_batch, reap_rounds */
	bool submit_opts;
	bool lat_log_all;	/* the per-I/O log holds every I/O, marked */
	u32 replay_nr;		/* read_iolog: the log's I/Os (replay.c); 0: none */
	bool replay_timed;	/* read_iolog: at the entries' times */
};

/*
 * Why a measured I/O of a stages job has no stages (stages.h,
 * kb_stage_split()); debugfs "# unsplit_<why>" of the stage files.
 */
enum kb_unsplit {
	KB_UNSPLIT_SPLIT,	/* split by the block layer: several requests */
	KB_UNSPLIT_NO_REQUEST,	/* never issued to a driver in a request */
	KB_UNSPLIT_NO_DRIVER,	/* issued, ended with no driver completion */
	KB_UNSPLIT_DISORDERED,	/* its stamps out of order */
	KB_UNSPLIT_SYNC_CALL,	/* timed around a call: no kiobench bio */
	KB_NR_UNSPLIT
};

struct kb_counters {
	u64 ios;		/* measured: submitted after the warm-up */
	u64 bytes;
	u64 lat_min;
	u64 lat_max;
	u64 lat_sum;
	__uint128_t lat_sumsq;	/* ns^2: 64 bits overflow past 4.3 s */
	u64 all_ios;		/* everything, warm-up included */
	u64 all_bytes;
	u64 all_lat_sum;
	u64 errors;		/* failed I/Os, warm-up included */
	u64 unsplit[KB_NR_UNSPLIT]; /* stages jobs: measured, no stages */
};

struct kb_dir_stats {
	struct kb_counters c;
	u64 hist[KB_HIST_BUCKETS];	/* measured latencies, see hist.h */
};

/*
 * Secondary latency measures of measured I/Os, recorded only by the jobs
 * that ask for them: the open-loop schedule (rate_iops), the stages and
 * the latency per priority (cmdprio_pct).
 */
enum kb_metric_id {
	KB_M_SCHED_LAG,		/* submission - scheduled arrival */
	KB_M_LAT_SCHED,		/* completion - scheduled arrival */
	KB_M_STAGE_QUEUE,	/* driver issue - submission */
	KB_M_STAGE_DEVICE,	/* driver completion - driver issue */
	KB_M_STAGE_COMPLETE,	/* bi_end_io - driver completion */
	KB_M_CLAT_PRIO_DEF,	/* latency of the I/Os with the job's priority */
	KB_M_CLAT_PRIO_CMD,	/* latency of the cmdprio_pct share */
	KB_M_LAT_LOCAL,		/* locality: completed on the submitting CPU */
	KB_M_LAT_REMOTE,	/* ... on another CPU */
	KB_NR_METRICS
};

struct kb_metric {
	u64 n;
	u64 min, max, sum;
	__uint128_t sumsq;
	u64 hist[KB_HIST_BUCKETS];
};

/* A copy of a metric's figures; hist comes separately. */
struct kb_metric_sum {
	u64 n, min, max, sum;
	__uint128_t sumsq;
};

/*
 * One worker's statistics, written by that worker alone as it reaps its
 * completions (kb_account_reaped()).  @seq is odd while it updates them,
 * so that a reader on another CPU can take a copy that no update has torn
 * (the 128-bit lat_sumsq is two stores; ios, lat_sum and lat_sumsq must
 * agree, or a running job's standard deviation is garbage).  The
 * histogram's buckets are single u64s, read one by one.
 */
struct kb_stats {
	seqcount_t seq;
	struct kb_dir_stats dir[KIOBENCH_NR_DIRS];
	/* the job's metrics, in the order of kb_job.metric_idx */
	struct kb_metric m[][KIOBENCH_NR_DIRS];
};

struct kb_tl_dir {
	u64 ios, bytes, lat_sum;
};

struct kb_tl_entry {
	u64 t_ns;
	struct kb_tl_dir dir[KIOBENCH_NR_DIRS];
};

/*
 * One measured I/O in the per-I/O latency log; with lat-log-all, one I/O
 * the job issued, measured or marked (and its device).  32 bytes.
 */
struct kb_lat_entry {
	u64 end_ns;		/* completion, since the job's start */
	u64 lat_ns;
	u64 offset;		/* bytes, on the device */
	u32 len;
	u8 dir;
	u8 dev:4;		/* lat-log-all: its device's index in the job */
	u8 warmup:1;		/* lat-log-all: submitted before the warm-up's end */
	u8 failed:1;		/* lat-log-all: completed with an error */
	u16 ioprio;		/* the bi_ioprio the I/O was sent with */
};

static_assert(KB_MAX_DEVICES <= 16, "kb_lat_entry.dev holds 4 bits");

struct kb_rng {
	u64 s[4];
};

/* A keyed permutation of [0, n) (gen.c): the random map's. */
#define KB_PERM_ROUNDS	6
struct kb_perm {
	u64 n;
	u64 keys[KB_PERM_ROUNDS];
	unsigned int bits;	/* of the domain, [0, 2^bits) */
	unsigned int half;	/* of them in the right half; the left has the rest */
};

/*
 * A worker's walk of the random map: positions [lo, hi) of each pass's
 * permutation of the span's blocks, a new key every pass.  Constant size.
 */
struct kb_rmap {
	struct kb_perm perm;
	u64 seed;
	u64 pass;
	u64 lo, hi, next;
};

/*
 * The random map of a job with several transfer sizes (gen.c): a bit per
 * block of the smallest size in the worker's share of the span, set once
 * an I/O has taken it, and a summary bit per word of those, set once the
 * word is full: fio's axmap, in two levels.  The bits of the last word
 * past @n are set, as if taken.  @map NULL: the Feistel map (one size).
 */
struct kb_bmap {
	unsigned long *map;	/* BITS_TO_LONGS(cap) words */
	unsigned long *sum;	/* a bit per word of map */
	u64 cap;		/* blocks the bitmap holds */
	u64 n;			/* blocks in use: the share, or a strided zone's */
	u64 left;		/* blocks not taken yet in this pass */
	u64 base;		/* the share's first block in the span */
};

/*
 * An open-loop schedule of arrivals (gen.c).  Gaps are kept in ns with
 * KB_SCHED_FX fraction bits: a rate of 1/s, even a Poisson gap 37 times
 * the mean, fits, and the fractions make the mean rate exact.
 */
#define KB_SCHED_FX	24
struct kb_sched {
	u64 next_ns;		/* the next arrival */
	u32 frac;		/* of a ns, in units of 2^-KB_SCHED_FX */
	u8 process;		/* enum kiobench_rate_process */
	u64 gap_fx;		/* mean gap, ns << KB_SCHED_FX */
};

#include "data.h"
/*
 * A worker's place in fio's offset patterns (gen.c, worker.c): rw=...:N's
 * count, the previous offsets rw_sequencer=identical repeats, and the zone
 * of zonemode=strided.  Constant size; verify saves and restores it with
 * the rest of the generator's state.
 */
struct kb_opat {
	u32 seq_left;		/* rw-seq-nr: I/Os before the next drawn one */
	u64 last_start[KIOBENCH_NR_DIRS];	/* relative to the span */
	u64 zbase;		/* strided: the zone's start, in the span */
	u64 zdone;		/* strided: bytes of I/O in the zone */
	u64 zpos;		/* strided: next sequential offset in the zone */
};

#include "verify.h"
#include "pi.h"
#include "zone.h"
#include "latt.h"
#include "flow.h"
#include "replay.h"

struct kb_dev {
	struct kb_bdev bdev;	/* compat.h */
	u64 span_start;		/* bytes */
	u64 span_len;
	u64 dev_bytes;		/* the device's: fio's real_file_size */
	u32 lbs;
	struct kb_zbd_dev *zbd;	/* zonemode zbd: the span's zones (zone.c) */
	/*
	 * Its queue's tag set as it was at JOB_NEW (kb_snap_queue()): the
	 * tag set is the driver's, which may free it before the job ends.
	 */
	u16 *hq_map;		/* locality.h: [KB_HQ_NR_ROWS][nr_cpu_ids], or NULL */
	u16 nr_hq;		/* nr_hw_queues, 0: bio-based */
	bool hq_poll;		/* hq_map's poll row is the poll map's */
	bool can_poll;		/* REQ_POLLED bios can be polled */
	u8 plug_max;		/* the most requests a plug takes at once */
	/*
	 * At the job's start (kb_job_start()): its integrity profile's name
	 * (NULL: none) and what the block layer does with its protection
	 * information, BIT(KIOBENCH_INTEGRITY_BIT_*).
	 */
	const char *pi_format;
	u8 pi_flags;
};

/* Room in a status for a profile's name: "EXT-DIF-TYPE1-CRC64" and the like */
#define KB_INTEGRITY_NAME_ROOM	64

#define KB_PLUG_MAX_IOS	32U	/* BLK_MAX_REQUEST_COUNT, block/blk.h */

struct kb_worker;

struct kb_slot {
	struct bio bio;		/* preallocated, reused for every I/O */
	struct kb_worker *w;
	struct llist_node node;
	u64 sched_ns;		/* open loop: scheduled arrival */
	u64 submit_ns;
	u64 end_ns;		/* kb_end_io()'s stamp */
	u64 issue_ns;		/* stages: driver issue, 0: not seen */
	u64 drv_ns;		/* stages: driver completion, 0: not seen */
	u8 stage_flags;		/* stages.c */
	bool busy;		/* submitted and not reaped (worker only) */
	bool refused;		/* submit_bio() had no tag for it (REQ_NOWAIT) */
	bool cmdprio;		/* carries cfg.cmdprio_ioprio[dir] */
	bool barrier;		/* write_barrier: PREFLUSH | FUA (a write) */
	u16 loc_hq;		/* locality.h: hardware queue */
	u32 loc_cpu;		/* locality.h: submitting CPU */
	bool loc_local;		/* locality.h: completed on loc_cpu */
	bool vtrimmed;		/* verify: its block was trimmed, reads zeroes */
	bool vcheck;		/* verify: a read-back, checked when reaped */
	u64 off;
	u32 len;
	u32 vlen;		/* bvec holds the pages of an I/O of vlen (kb_issue()) */
	u8 dir;
	u32 zone;		/* zonemode zbd: the write's zone in the span */
	unsigned int nr_pages;
	struct page **pages;	/* nr_pages pages, the buffer */
	struct kb_pi_slot *pi;	/* pi.c: its own PI; NULL: no pi-chk */
	struct bio_vec bvec[];	/* nr_pages entries */
};

struct kb_worker {
	struct kb_job *job;
	struct kb_dev *dev;
	struct task_struct *task;
	struct cgroup_subsys_state *blkcg;	/* its bios' (compat.h), while it runs */
	struct llist_head done;	/* completed slots, from kb_end_io() */
	/* those it completed itself, in its own task: no atomic (kb_end_io()) */
	struct llist_node *own_done, **own_tail;
	bool sleeps;		/* completion sleep: kb_end_io() wakes it */
	struct rcu_work free_work;	/* kb_free_workers(): after kb_end_io() */
	struct bio_set *pi_bs;	/* pi.c: its slots' payloads, before 7.0 */
	struct kb_stats *stats;	/* job->stats[index]: its own, written by it */
	unsigned int index;
	int cpu;		/* -1: not pinned */
	unsigned int inflight;
	u64 zero_reads;		/* worker only; read unlocked by GET */
	u64 retries;		/* polled bios refused for want of a tag; ditto */
	u64 ios_left;		/* budgets; U64_MAX: unlimited */
	u64 bytes_left;
	u64 seq_next;		/* sequential cursor, relative to the span */
	bool seq_once;		/* worker.c: rw-seq-add ends at the span's end */
	struct kb_rng rng;
	bool plain_read;	/* worker.c: kb_plain_read() for this pass */
	struct kb_rng drng;	/* data.c: refill_buffers' bytes */
	u64 dwrites;		/* data.c: writes scrambled */
	struct kb_rmap rmap;	/* random offsets, unless norandommap */
	struct kb_bmap bmap;	/* the random map's bitmap: several sizes */
	struct kb_perm scatter;	/* random-cdf: ranks to blocks */
	u64 last_end[KIOBENCH_NR_DIRS];	/* where the previous I/O ended */
	struct kb_opat opat;	/* rw=...:N, rw_sequencer, strided */
	u32 since_sync;		/* fsync: writes picked since the last flush */
	u32 since_barrier;	/* write_barrier: writes since the last one */
	u8 ws_next;		/* write streams: roundrobin's next index */
	struct kb_rng wsrng;	/* write streams: random's generator */
	u32 plugged;		/* iodepth_batch: bios in the plug */
	/* reap_rounds (submit.h): fio's view of the worker's depth */
	bool held;		/* full: reaping, no refill */
	u32 unreaped;		/* completed, on deferred, not reaped by fio */
	u32 reaped;		/* reaped, on deferred: as many may be refilled */
	bool sync_due;		/* fsync: the next I/O is a flush */
	bool tw_write;		/* trimwrite: the next I/O writes tw_off */
	u32 tw_len;
	u64 tw_off;		/* relative to the span */
	struct kb_sched sched;	/* open loop */
	/* rate_iops_write: each direction's schedule, sched the earlier */
	struct kb_sched dsched[2];
	u8 sched_dir;		/* rate_iops_write: sched's direction */
	u8 pick_dir;		/* rate_iops_write: the arrival being picked */
	struct llist_node *idle;	/* open loop, thinktime: free slots, a stack */
	bool thinking;		/* thinktime: draining before a pause */
	u32 think_count;	/* thinktime: completions since the last pause */
	u64 think_last_ns;	/* thinktime: end of the last pause */
	unsigned int poll_next;	/* poll: the slot to poll next */
	u64 poll_ns;		/* poll: its batch's stamp, kb_poll_one(); 0 */
	u32 nowait_max;		/* poll: longest bio submitted with REQ_NOWAIT */
	unsigned int plug_batch;	/* requests a plug takes at once */
	unsigned int tag_cap;	/* poll: in flight at the last refusal; 0: none */
	unsigned int cap_age;	/* poll: completions since tag_cap was learnt */
	struct llist_node *deferred;	/* poll: slots waiting for a tag, FIFO */
	struct llist_node **deferred_tail;
	struct kb_vw *vw;	/* verify.c; NULL: the job does not verify */
	bool verifying;		/* verify: reads of the write pass's blocks */
	bool vtrimming;		/* verify: trims of chosen writes (trim_backlog) */
	bool vsorted;		/* verify: reading back the log of writes, sorted */
	u64 vdeadline_ns;	/* verify: the read-back's end; 0: the job's */
	u64 ramp_end_ns;	/* its own clock, from its first run (fio's) */
	u64 deadline_ns;	/* U64_MAX: none */
	struct kb_zbd_w zbd;	/* zonemode zbd (zone.c) */
	struct kb_latt *latt;	/* latency_target (latt.c); NULL: none */
	struct kb_dedupe dd;	/* dedupe_percentage (data.c) */
	struct kb_flow *flow;	/* flow control (flow.c); NULL: none */
	u64 flow_ios;		/* flow: I/Os counted in the group */
	bool flow_in;		/* flow: its weight and I/Os in the group */
	u32 rp_next;		/* read_iolog: its next entry of job->replay */
	u64 rp_start_ns;	/* read_iolog: when its entries' times count from */
	unsigned int nr_slots;
	struct kb_slot *slots[];
};

/* What a debugfs file of a secondary measure shows (debugfs.c). */
struct kb_metric_file {
	struct kb_job *job;
	u8 id;			/* enum kb_metric_id */
	u8 dir;
};

struct kb_job {
	u32 id;
	refcount_t ref;			/* the registry's, requests' (job.c) */
	struct work_struct put_work;	/* kb_job_put_async() */
	struct delayed_work expire;	/* netlink.c: a detached job never started */
	u32 owner_portid;		/* the creating socket; 0: detached */
	struct kb_holder *holder;	/* its socket's claims (job.c); NULL: none */
	const struct net *owner_net;	/* compared, never dereferenced */
	struct kb_config cfg;
	struct kb_dev devs[KB_MAX_DEVICES];
	struct kb_worker **workers;
	unsigned int nr_workers;
	u32 io_unit;			/* largest LBS of the devices */
	bool fua_emulated;		/* writefua: a device has a cache, no FUA */
	bool flush_noop;		/* flushes: a device has no volatile cache */
	u64 mem;			/* buffer bytes charged */
	struct kb_stats **stats;	/* per worker, by index */
	s8 metric_idx[KB_NR_METRICS];	/* in kb_stats.m; -1: not kept */
	unsigned int nr_metrics;

	u8 state;			/* enum kiobench_job_state */
	int error;			/* -errno that failed the job */
	bool stop;			/* workers: submit no more */
	bool user_stop;			/* the stop came from JOB_STOP */
	atomic_t active;		/* workers not finished yet */
	atomic_t clocked;		/* workers whose clock started */
	bool stages_held;		/* a kb_stages_get() to put back */
	struct kb_loc *loc;		/* locality.c */
	u64 start_ns;
	u64 ramp_end_ns;		/* the first worker's (kb_worker_clock) */
	u64 finish_ns;

	struct delayed_work tl_work;
	struct kb_tl_entry *tl;
	unsigned int tl_len, tl_cap;
	u64 tl_next_ns;			/* next sample, since start_ns */
	u64 tl_dropped;
	struct kb_tl_dir tl_prev[KIOBENCH_NR_DIRS];

	struct kb_lat_entry *lat_log;	/* cfg.lat_log entries, or NULL */
	atomic64_t lat_log_next;	/* entries claimed; may pass the end */

	struct kb_verify *verify;	/* verify.c; NULL: no verify */
	struct kb_pi *pi;		/* pi.c; NULL: no pi-chk */
	u8 pi_exp;		/* pi.c: log2 of the protection interval */
	struct kb_flow *flow;		/* flow.c; NULL: no flow control */
	atomic_t vwriters;		/* verify: workers still writing */

	struct dentry *dbg;		/* debugfs.c; gone before destruction */
	struct kb_metric_file mfiles[KB_NR_METRICS][KIOBENCH_NR_DIRS];
	char dbg_name[16];
	struct kb_errs errs;		/* errors.c: errors gone on from */
	/* read_iolog (replay.c): cfg.replay_nr entries, replay_fill uploaded */
	struct kiobench_replay_ent *replay;
	u32 replay_fill;
};

/* main.c: module parameters */
extern unsigned long kb_max_job_mem;
extern unsigned long kb_max_total_mem;
extern unsigned int kb_max_detached_runtime;
extern unsigned int kb_max_socket_jobs;

/* job.c: the registry of jobs, used with kb_jobs_lock() held */
void kb_jobs_init(void (*ended)(struct kb_job *job),
		  void (*released)(struct kb_job *job));
void kb_jobs_lock(void);
void kb_jobs_unlock(void);
int kb_job_reserve_id(u32 *id, struct netlink_ext_ack *extack);
int kb_job_register(struct kb_job *job);
void kb_job_unregister(struct kb_job *job);
struct kb_job *kb_job_find(u32 id);
struct kb_job *kb_job_next(unsigned long *id);
void kb_jobs_close(void);
unsigned int kb_jobs_owned(const struct net *net, u32 portid);
unsigned int kb_jobs_mark_orphans(const struct net *net, u32 portid);
struct kb_job *kb_job_next_orphan(unsigned long *id);

/* job.c, without kb_jobs_lock() held */
void kb_job_release_id(u32 id);
void kb_jobs_wait_all(void);

/* job.c: one job's life */
struct kb_job *kb_job_create(u32 id, struct kb_config *cfg, const struct net *net,
			     u32 owner_portid, struct netlink_ext_ack *extack);
int kb_job_start(struct kb_job *job, struct netlink_ext_ack *extack);
void kb_job_stop(struct kb_job *job);
void kb_job_put(struct kb_job *job);
void kb_job_put_async(struct kb_job *job);
void kb_config_free(struct kb_config *cfg);
u64 kb_total_mem(void);
int kb_job_charge(struct kb_job *job, u64 bytes, struct netlink_ext_ack *extack);
void kb_job_uncharge(struct kb_job *job);
int kb_job_init(void);
void kb_job_exit(void);

/* worker.c: a worker's loop, until the job's end (job.c's kthread) */
void kb_worker_run(struct kb_worker *w);

/* account.c: completion, and the statistics read back */
void kb_end_io(struct bio *bio);	/* every kiobench bio ends there */
void kb_timeline_sample(struct kb_job *job);
unsigned long kb_timeline_delay(struct kb_job *job);
void kb_timeline_work(struct work_struct *work);
void kb_job_sum(struct kb_job *job, unsigned int dir, struct kb_counters *sum,
		u64 *hist);
bool kb_job_metric_sum(struct kb_job *job, enum kb_metric_id id,
		       unsigned int dir, struct kb_metric_sum *sum, u64 *hist,
		       u64 unsplit[KB_NR_UNSPLIT]);
u64 kb_job_measured_ns(struct kb_job *job);
u64 kb_job_cpu_ns(struct kb_job *job);
u64 kb_job_zero_reads(struct kb_job *job);
u64 kb_job_retries(struct kb_job *job);
void kb_account_reaped(struct kb_worker *w, struct llist_node *list);
void kb_account_op(struct kb_worker *w, unsigned int dir, u32 len, u64 start,
		   u64 now, int err);
unsigned int kb_worker_inflight(const struct kb_worker *w);

#if IS_ENABLED(CONFIG_KUNIT)
/* account.c and job.c internals, visible to kiobench_kunit.c only */
void kb_stamp(struct kb_slot *slot, u64 now);
void kb_init_budgets(struct kb_job *job, struct kb_worker *w, unsigned int j);
/* worker.c internals */
void kb_worker_clock(struct kb_worker *w, u64 now);
blk_opf_t kb_opf(const struct kb_config *cfg, unsigned int dir);
void kb_bio_payload(struct bio *bio, struct kb_slot *slot);
bool kb_zero_block(struct kb_worker *w, const struct kb_slot *slot);
/* netlink.c internals */
#include <net/genetlink.h>
extern const struct nla_policy kb_new_policy[KIOBENCH_A_MAX + 1];
int kb_parse_config(struct genl_info *info, struct kb_config *cfg);
#endif

/* stages.h: the per-stage split (stages.c attaches its probes) */
#include "stages.h"

/* locality.h: where each I/O ran (locality.c: counters, debugfs) */
#include "locality.h"

/* submit.h: how bios are submitted, fio's options of it (submit.c) */
#include "submit.h"

/* gen.c: offsets, sizes, random numbers (pure, KUnit-tested) */
void kb_rng_seed(struct kb_rng *rng, u64 seed);
u64 kb_rng_next(struct kb_rng *rng);
u64 kb_rng_below(struct kb_rng *rng, u64 n);

/* worker.c: the ops a job issues against what a device takes */
int kb_check_dev_ops(struct kb_job *job, struct kb_dev *dev, const char *path,
		     struct netlink_ext_ack *extack);
u64 kb_rand_offset(struct kb_rng *rng, u64 span_len, u32 len, u32 align);
int kb_zones_build(struct kb_zones *zs, unsigned int dir);
u64 kb_zones_bytes(const struct kb_zones *zs, unsigned int dir);
u64 kb_zone_offset(const struct kb_zones *zs, unsigned int dir,
		   struct kb_rng *rng, u64 span_len, u32 len, u32 align);
int kb_cdf_check(const struct kiobench_cdf_ent *t, unsigned int nr);
u64 kb_cdf_rank(const struct kiobench_cdf_ent *t, unsigned int nr, u64 x);
u64 kb_seq_offset(u64 *cursor, u64 span_len, u32 len);
bool kb_seq_nr_draw(u32 *left, u32 nr);
bool kb_stride_zone(struct kb_opat *p, const struct kb_config *cfg,
		    u64 span_len, u32 len, u64 *range);
u64 kb_stride_seq(struct kb_opat *p, u64 range, u32 len, u64 add);
void kb_perm_init(struct kb_perm *p, u64 n, u64 key);
u64 kb_perm_pos(const struct kb_perm *p, u64 v);
void kb_rmap_init(struct kb_rmap *m, u64 n, u64 seed, unsigned int parts,
		  unsigned int part);
u32 kb_pick_bs_fit(const struct kb_config *cfg, unsigned int dir,
		   struct kb_rng *rng, u32 len, u64 room);
bool kb_bmap_wanted(const struct kb_config *cfg);
size_t kb_bmap_bytes(u64 cap);
int kb_bmap_alloc(struct kb_bmap *m, u64 cap);
void kb_bmap_free(struct kb_bmap *m);
void kb_bmap_reset(struct kb_bmap *m, u64 n);
u64 kb_bmap_next_free(const struct kb_bmap *m, u64 b);
u64 kb_bmap_set_nr(struct kb_bmap *m, u64 b, u64 nr);
u64 kb_bmap_take(struct kb_bmap *m, const struct kb_config *cfg,
		 unsigned int dir, struct kb_rng *rng, u32 *len);
u64 kb_split_budget(u64 total, u32 unit, unsigned int parts, unsigned int i);
u64 kb_exp_fx(u64 r);
void kb_sched_init(struct kb_sched *sc, u64 start_ns, u32 rate, u8 process);
void kb_sched_advance(struct kb_sched *sc, struct kb_rng *rng);

/* gen.h: their per-I/O steps, inline */
#include "gen.h"

/* debugfs.c */
void kb_debugfs_init(void);
void kb_debugfs_exit(void);
int kb_debugfs_add_job(struct kb_job *job);
void kb_debugfs_del_job(struct kb_job *job);

/* netlink.c */
int kb_nl_init(void);
void kb_nl_exit(void);

#endif /* KB_KIOBENCH_H */
