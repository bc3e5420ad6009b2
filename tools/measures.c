// SPDX-License-Identifier: GPL-2.0
/*
 * The secondary latency measures in the reports, and how the workers ran:
 * the completion mode, the depth they kept (Little's law), and in the open
 * loop (rate_iops) the schedule lag and the latency from the scheduled
 * arrival, which is free of coordinated omission.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distrib.h"
#include "json.h"
#include "kiobench.h"
#include "measures.h"
#include "options.h"
#include "result.h"
#include "stats.h"
#include "steps.h"

typedef unsigned __int128 u128;

#define KB_DEPTH_WARN	0.98	/* kept below this share of iodepth: warn */
#define KB_DEPTH_MIN_IOS 100	/* per worker; fewer: the start-up dominates */

/*
 * The depth each worker kept on average: I/Os in flight integrated over
 * the measured time (the sum of the measured latencies) per unit of time,
 * i.e. IOPS x mean latency (Little's law), per worker.
 */
double kb_effective_iodepth(const struct kb_result *r)
{
	uint64_t lat = kb_dirs_sum(r, offsetof(struct kb_dirstat, lat_sum));

	if (!r->st.measured_ns || !r->st.nr_workers)
		return 0.0;
	return (double)lat / (double)r->st.measured_ns / r->st.nr_workers;
}

/* dst += src, the sums of squares too (kb_hist_merge() leaves them). */
static int merge_metric(struct kb_hist *dst, const struct kb_hist *src)
{
	u128 a = ((u128)dst->sumsq_hi << 64) | dst->sumsq_lo;
	u128 b = ((u128)src->sumsq_hi << 64) | src->sumsq_lo;
	int w;

	if (kb_hist_merge(dst, src))
		return -1;
	a += b;
	dst->sumsq_hi = (uint64_t)(a >> 64);
	dst->sumsq_lo = (uint64_t)a;
	dst->unsplit += src->unsplit;
	for (w = 0; w < KB_NR_UNSPLIT; w++)
		dst->unsplit_why[w] += src->unsplit_why[w];
	return 0;
}

/* Measure m of the jobs r[0..n), direction d (< 0: both), into h. */
int kb_metric_merged(const struct kb_result *r, size_t n, enum kb_metric m, int d,
		     struct kb_hist *h)
{
	size_t i;
	int e;

	memset(h, 0, sizeof(*h));
	h->dir = d < 0 ? KIOBENCH_DIR_READ : d;
	for (i = 0; i < n; i++)
		for (e = 0; e < KIOBENCH_NR_DIRS; e++)
			if ((d < 0 || e == d) && r[i].has_met[m][e] &&
			    merge_metric(h, &r[i].met[m][e])) {
				kb_hist_free(h);
				return -1;
			}
	return 0;
}

/* A measure in the shape of fio's clat_ns: N, min, max, mean, stddev, percentile. */
struct json_object *kb_json_metric(const struct kb_hist *h, const struct kb_job *job)
{
	struct json_object *o = json_object_new_object(), *p;
	uint64_t pv[KB_MAX_PERCENTILES];
	unsigned int i;

	kb_jadd(o, "min", kb_ju64(h->samples ? h->min : 0));
	kb_jadd(o, "max", kb_ju64(h->samples ? h->max : 0));
	kb_jadd(o, "mean", kb_jdbl(kb_lat_mean(h->samples, h->sum)));
	kb_jadd(o, "stddev", kb_jdbl(kb_lat_stddev(h->samples, h->sum, h->sumsq_hi,
						   h->sumsq_lo)));
	kb_jadd(o, "N", kb_ju64(h->samples));
	if (kb_hist_percentiles(h, job->plist, job->nr_plist, pv, NULL))
		return o;
	p = json_object_new_object();
	for (i = 0; i < job->nr_plist; i++) {
		char key[32];

		kb_pct_str(job->plist[i], key, sizeof(key));
		kb_jadd(p, key, kb_ju64(pv[i]));
	}
	kb_jadd(o, "percentile", p);
	return o;
}

/* One of both directions' measure m, merged; JSON null if it cannot be. */
static struct json_object *both_dirs(const struct kb_result *r, enum kb_metric m)
{
	struct json_object *o;
	struct kb_hist h;

	if (kb_metric_merged(r, 1, m, -1, &h))
		return NULL;
	o = kb_json_metric(&h, r->job);
	kb_hist_free(&h);
	return o;
}

/* ---- the settings the kernel reports ---------------------------------------- */

/* The kernel's zones in fio's random_distribution syntax ("random": none). */
static void kcfg_zones(const struct kb_kcfg *c, char *buf, size_t len)
{
	const struct kb_zone *z[KIOBENCH_NR_DIRS] = { c->zones[0], c->zones[1] };

	kb_random_dist_str(z, c->nr_zones, c->zones_abs, buf, len);
}

/* The kernel's completion mode, or NULL when its reply did not say. */
const char *kb_kcfg_completion(const struct kb_kcfg *c)
{
	switch (c->present ? (int)kb_kcfg_u64(c, KIOBENCH_A_COMPLETION) : -1) {
	case KIOBENCH_COMPLETION_SLEEP: return "sleep";
	case KIOBENCH_COMPLETION_SPIN: return "spin";
	case KIOBENCH_COMPLETION_POLL: return "poll";
	default: return NULL;
	}
}

/* The kernel's value of attribute KIOBENCH_A_<a>. */
#define K(a)		kb_kcfg_u64(c, KIOBENCH_A_##a)
#define K_HAS(a)	kb_kcfg_has(c, KIOBENCH_A_##a)

/* kiobench's zone management ops (rw=zone_*), by enum kiobench_zone_op. */
static const char *const kb_zone_op_names[] = {
	[KIOBENCH_ZONE_OP_RESET] = "zone_reset",
	[KIOBENCH_ZONE_OP_OPEN] = "zone_open",
	[KIOBENCH_ZONE_OP_CLOSE] = "zone_close",
	[KIOBENCH_ZONE_OP_FINISH] = "zone_finish",
	[KIOBENCH_ZONE_OP_RESET_ALL] = "zone_reset_all",
};

/*
 * kiobench's key for the job's trims when they are zone management ops
 * (zone-op): timed in the trim direction, reported under this key too.
 */
const char *kb_kcfg_trim_op(const struct kb_kcfg *c)
{
	uint64_t op = c->present ? K(ZONE_OP) : 0;

	return op && op < sizeof(kb_zone_op_names) / sizeof(kb_zone_op_names[0]) ?
	       kb_zone_op_names[op] : NULL;
}

/* fio's rw_sequencer, as the kernel runs it. */
static const char *kcfg_sequencer(const struct kb_kcfg *c)
{
	return K(RW_SEQUENCER) == KIOBENCH_RW_SEQ_IDENTICAL ? "identical" : "sequential";
}

static const char *kcfg_rw(const struct kb_kcfg *c)
{
	if (K(TRIM_MODE) == KIOBENCH_TRIM_TRIM && kb_kcfg_trim_op(c))
		return kb_kcfg_trim_op(c);
	if (K(TRIM_MODE) == KIOBENCH_TRIM_TRIM)
		return K_HAS(RANDOM) ? "randtrim" : "trim";
	if (K(TRIM_MODE) == KIOBENCH_TRIM_TRIMWRITE)
		return K_HAS(RANDOM) ? "randtrimwrite" : "trimwrite";
	if (K(RWMIX_READ) >= 100)
		return K_HAS(RANDOM) ? "randread" : "read";
	if (!K(RWMIX_READ))
		return K_HAS(RANDOM) ? "randwrite" : "write";
	return K_HAS(RANDOM) ? "randrw" : "rw";
}

/* The direction whose sizes direction @d takes: its own, or the previous one's. */
static unsigned int kcfg_bss_dir(const struct kb_kcfg *c, unsigned int d)
{
	for (; d && !c->nr_bss_wt[d - 1]; d--)
		;
	return d;
}

/* The kernel's sizes of direction @d (0 reads, 1 writes, 2 trims). */
static const struct kb_kcfg_bs *kcfg_bss(const struct kb_kcfg *c, unsigned int d,
					 unsigned int *n)
{
	d = kcfg_bss_dir(c, d);
	*n = d ? c->nr_bss_wt[d - 1] : c->nr_bss;
	return d ? c->bss_wt[d - 1] : c->bss;
}

/* Whether the kernel draws direction @d's sizes as a bsrange (low to high). */
static bool kcfg_range(const struct kb_kcfg *c, unsigned int d)
{
	return K(BSRANGE) & (1u << kcfg_bss_dir(c, d));
}

static const char *kcfg_process(const struct kb_kcfg *c)
{
	return K(RATE_PROCESS) == KIOBENCH_RATE_POISSON ? "poisson" : "linear";
}

#define KCFG_ADD(...) do { \
		if (at < len) \
			at += snprintf(buf + at, len - at, __VA_ARGS__); \
	} while (0)

/* zonemode=zbd's options, as the kernel reports them: what was written */
static size_t kcfg_zbd_str(const struct kb_kcfg *c, char *buf, size_t len)
{
	size_t at = 0;

	KCFG_ADD(" zonemode=zbd max_open_zones=%" PRIu64 " job_max_open_zones=%" PRIu64
		 "%s%s%s", K(MAX_OPEN_ZONES), K(JOB_MAX_OPEN_ZONES),
		 K_HAS(IGNORE_ZONE_LIMITS) ? " ignore_zone_limits" : "",
		 K_HAS(READ_BEYOND_WP) ? " read_beyond_wp" : "",
		 K_HAS(ZONE_APPEND) ? " write_mode=zone_append" : "");
	if (K(ZONE_RESET_FREQUENCY))
		KCFG_ADD(" zone_reset_threshold=%g zone_reset_frequency=%g",
			 K(ZONE_RESET_THRESHOLD) / 1e6, K(ZONE_RESET_FREQUENCY) / 1e6);
	if (K(ZONE_OP) && K(TRIM_MODE) != KIOBENCH_TRIM_TRIM)
		KCFG_ADD(" zone_mgmt");
	return at;
}

/* fio's name of the kernel's write hint (RWH_WRITE_LIFE_*, 1..5). */
static const char *kcfg_write_hint(const struct kb_kcfg *c)
{
	static const char *const hints[] = { "?", "none", "short", "medium", "long",
					     "extreme" };

	return hints[K(WRITE_HINT) < 6 ? K(WRITE_HINT) : 0];
}

/* kiobench's write_stream_select (enum kiobench_write_stream_select). */
static const char *kcfg_ws_select(const struct kb_kcfg *c)
{
	static const char *const sel[] = { "roundrobin", "random", "job", "worker" };

	return K(WRITE_STREAM_SELECT) < 4 ? sel[K(WRITE_STREAM_SELECT)] : "?";
}

/* The operations' part of kb_kcfg_str(): from @at of @buf; the new @at. */
/*
 * fio's offset patterns (ba, rw's :N, rw_sequencer, zonemode=strided),
 * cmdprio_bssplit's table, rate_ignore_thinktime and flow control, as the
 * kernel runs them.
 */
static size_t kcfg_fio_str(const struct kb_kcfg *c, char *buf, size_t len, size_t at)
{
	unsigned int i;

	if (K(BLOCKALIGN))
		KCFG_ADD(" blockalign=%" PRIu64, K(BLOCKALIGN));
	if (K(RW_SEQ_NR) > 1)
		KCFG_ADD(" rw_seq_nr=%" PRIu64 " rw_sequencer=%s", K(RW_SEQ_NR),
			 kcfg_sequencer(c));
	if (K(RW_SEQ_ADD))
		KCFG_ADD(" rw_seq_add=%" PRIu64, K(RW_SEQ_ADD));
	if (K(ZONESIZE))
		KCFG_ADD(" zonemode=strided zonerange=%" PRIu64 " zonesize=%" PRIu64
			 " zoneskip=%" PRIu64, K(ZONERANGE), K(ZONESIZE), K(ZONESKIP));
	for (i = 0; i < c->nr_cmdprio_bs; i++) {
		const struct kiobench_cmdprio_bs_ent *e = &c->cmdprio_bs[i];

		KCFG_ADD("%s%u/%u/%u/%u", !i ? " cmdprio_bssplit=" :
			 e->dir != e[-1].dir ? "," : ":", e->size, e->pct, e->class, e->level);
	}
	if (K_HAS(RATE_IGNORE_THINKTIME))
		KCFG_ADD(" rate_ignore_thinktime");
	if (K(FLOW))
		KCFG_ADD(" flow=%" PRIu64 " flow_id=%" PRIu64 " flow_sleep=%" PRIu64 "us",
			 K(FLOW), K(FLOW_ID), K(FLOW_SLEEP_NS) / 1000);
	if (K(NICE))
		KCFG_ADD(" nice=%d", (int)(int64_t)K(NICE));
	if (K(WRITE_BARRIER))
		KCFG_ADD(" preflush_fua=%" PRIu64, K(WRITE_BARRIER));
	KCFG_ADD("%s%s", K_HAS(NOWAIT) ? " nowait" : "",
		 K_HAS(SERIALIZE_OVERLAP) ? " serialize_overlap" : "");
	if (K(WRITE_HINT))
		KCFG_ADD(" write_hint=%s", kcfg_write_hint(c));
	for (i = 0; i < c->nr_write_streams; i++)
		KCFG_ADD("%s%u", i ? "," : " write_streams=", c->write_streams[i]);
	if (c->nr_write_streams)
		KCFG_ADD(" write_stream_select=%s", kcfg_ws_select(c));
	if (K(IODEPTH_BATCH))
		KCFG_ADD(" iodepth_batch=%" PRIu64, K(IODEPTH_BATCH));
	if (K(IODEPTH_LOW))
		KCFG_ADD(" iodepth_low=%" PRIu64, K(IODEPTH_LOW));
	if (K(IODEPTH_BATCH_COMPLETE_MIN))
		KCFG_ADD(" iodepth_batch_complete_min=%" PRIu64, K(IODEPTH_BATCH_COMPLETE_MIN));
	return at;
}

/*
 * bssplit's sizes and weights per direction, or bsrange's ends when the
 * kernel draws a direction from a range (a table's, for the others).
 */
static size_t kcfg_bss_str(const struct kb_kcfg *c, char *buf, size_t len, size_t at)
{
	unsigned int i, d, n;

	KCFG_ADD(" %s=", K(BSRANGE) ? "bsrange" : "bssplit");
	for (d = 0; d < (c->nr_bss_wt[0] || c->nr_bss_wt[1] ? KB_BSS_DIRS : 1U); d++) {
		const struct kb_kcfg_bs *b = kcfg_bss(c, d, &n);

		if (K(BSRANGE) && n) {
			KCFG_ADD("%s%u-%u", d ? "," : "", b[0].size, b[n - 1].size);
			continue;
		}
		for (i = 0; i < n; i++)
			KCFG_ADD("%s%u/%u", i ? ":" : d ? "," : "", b[i].size, b[i].weight);
	}
	return at;
}

static size_t kcfg_dedupe_str(const struct kb_kcfg *c, char *buf, size_t len, size_t at)
{
	if (!K(DEDUPE_PERCENTAGE))
		return at;
	KCFG_ADD(" dedupe_percentage=%" PRIu64 " dedupe_mode=%s", K(DEDUPE_PERCENTAGE),
		 K(DEDUPE_MODE) ? "working_set" : "repeat");
	if (K(DEDUPE_MODE))
		KCFG_ADD(" dedupe_working_set_percentage=%" PRIu64 "%s",
			 K(DEDUPE_WORKING_SET_PERCENTAGE),
			 K_HAS(DEDUPE_GLOBAL) ? " dedupe_global" : "");
	return at;
}

/* ignore_error's lists in fio's syntax: EIO:ENOSPC,,EILSEQ; "" when none. */
static void kcfg_ignore_error(const struct kb_kcfg *c, char *buf, size_t len)
{
	size_t at = 0;
	unsigned int t, i, last = 0;

	buf[0] = '\0';
	for (t = 0; t < 3; t++)
		if (c->nr_ignore_error[t])
			last = t + 1;
	for (t = 0; t < last; t++) {
		if (t)
			KCFG_ADD(",");
		for (i = 0; i < c->nr_ignore_error[t]; i++)
			KCFG_ADD("%s%s", i ? ":" : "", kb_errno_name(c->ignore_error[t][i]));
	}
}

static size_t kcfg_errors_str(const struct kb_kcfg *c, char *buf, size_t len, size_t at)
{
	char l[512];

	kcfg_ignore_error(c, l, sizeof(l));
	if (l[0])
		KCFG_ADD(" ignore_error=%s", l);
	if (K_HAS(ERROR_DUMP))
		KCFG_ADD(" error_dump");
	return at;
}

/* The open loop's rates: the reads', then the writes' when they have their own. */
static size_t kcfg_rate_str(const struct kb_kcfg *c, char *buf, size_t len, size_t at)
{
	if (!K(RATE_IOPS))
		return at;
	KCFG_ADD(" rate_iops=%" PRIu64, K(RATE_IOPS));
	if (K_HAS(RATE_IOPS_WRITE))
		KCFG_ADD(",%" PRIu64, K(RATE_IOPS_WRITE));
	KCFG_ADD(" rate_process=%s", kcfg_process(c));
	return at;
}

static size_t kcfg_ops_str(const struct kb_kcfg *c, char *buf, size_t len, size_t at)
{
	if (K_HAS(WRITE_ZEROES))
		KCFG_ADD(" write_mode=zeroes%s", K_HAS(ZEROES_UNMAP) ? " write_zeroes_unmap" : "");
	if (K(FSYNC))
		KCFG_ADD(" fsync=%" PRIu64, K(FSYNC));
	KCFG_ADD("%s%s%s", K_HAS(END_FSYNC) ? " end_fsync" : "",
		 K_HAS(WRITEFUA) ? " writefua" : "", K_HAS(ATOMIC) ? " atomic" : "");
	if (K(RWMIX_READ) < 100 && !K(VERIFY) && !K_HAS(WRITE_ZEROES)) {
		static const char *const fills[] = { "random", "zeroes", "pattern" };

		KCFG_ADD(" buffers=%s%s%s", fills[K(BUFFER_FILL) % 3],
			 K_HAS(REFILL_BUFFERS) ? " refill_buffers" : "",
			 K_HAS(SCRAMBLE_BUFFERS) && !K_HAS(REFILL_BUFFERS) ?
			 " scramble_buffers" : "");
		if (K(BUFFER_COMPRESS_PERCENTAGE))
			KCFG_ADD(" buffer_compress_percentage=%" PRIu64
				 " buffer_compress_chunk=%" PRIu64,
				 K(BUFFER_COMPRESS_PERCENTAGE), K(BUFFER_COMPRESS_CHUNK));
		at = kcfg_dedupe_str(c, buf, len, at);
	}
	at = kcfg_errors_str(c, buf, len, at);
	if (K(VERIFY) && K(DO_VERIFY))
		KCFG_ADD(" experimental_verify=%d", !K_HAS(VERIFY_SORTED));
	if (K(VERIFY_BACKLOG))
		KCFG_ADD(" verify_backlog=%" PRIu64, K(VERIFY_BACKLOG));
	if (K(IO_ROUND))
		KCFG_ADD(" io_round=%" PRIu64, K(IO_ROUND));
	if (K(TRIM_BACKLOG))
		KCFG_ADD(" trim_percentage=%" PRIu64 " trim_backlog=%" PRIu64
			 " trim_backlog_batch=%" PRIu64 " trim_verify_zero=%" PRIu64,
			 K(TRIM_PERCENTAGE), K(TRIM_BACKLOG), K(TRIM_BACKLOG_BATCH),
			 K(TRIM_VERIFY_ZERO));
	return at;
}

/*
 * One line of fio's option names, from the kernel's reply: rw, bssplit,
 * depth and workers, pinning, span, limits, completion and rate.
 */
void kb_kcfg_str(const struct kb_kcfg *c, char *buf, size_t len)
{
	size_t at = 0;
	unsigned int i;

	buf[0] = '\0';
	if (!c->present) {
		KCFG_ADD("(not reported by the module)");
		return;
	}
	KCFG_ADD("rw=%s", kcfg_rw(c));
	if (K(RWMIX_READ) && K(RWMIX_READ) < 100)
		KCFG_ADD(" rwmixread=%" PRIu64, K(RWMIX_READ));
	at = kcfg_bss_str(c, buf, len, at);
	KCFG_ADD(" iodepth=%" PRIu64 " numjobs=%" PRIu64 " cpus_allowed=", K(IODEPTH),
		 K(NUMJOBS));
	for (i = 0; i < c->nr_cpus; i++)
		KCFG_ADD("%s%u", i ? "," : "", c->cpus[i]);
	if (!c->nr_cpus)
		KCFG_ADD("any");
	else	/* the kernel's: each worker bound to one, or all allowed all */
		KCFG_ADD(" cpus_allowed_policy=%s", K(CPUS_SHARED) ? "shared" : "split");
	KCFG_ADD(" offset=%" PRIu64 " size=%" PRIu64 " span=", K(OFFSET), K(SIZE));
	for (i = 0; i < c->nr_spans && i < KB_KCFG_DEVS; i++)
		KCFG_ADD("%s%" PRIu64, i ? ":" : "", c->span_len[i]);
	if (K(RUNTIME_NS))
		KCFG_ADD(" runtime=%" PRIu64 "ns", K(RUNTIME_NS));
	if (K(IO_BYTES))
		KCFG_ADD(" io_size=%" PRIu64, K(IO_BYTES));
	if (K(NUMBER_IOS))
		KCFG_ADD(" number_ios=%" PRIu64, K(NUMBER_IOS));
	KCFG_ADD(" ramp_time=%" PRIu64 "ns completion=%s", K(RAMP_NS),
		 kb_kcfg_completion(c) ? kb_kcfg_completion(c) : "?");
	KCFG_ADD(" randseed=%" PRIu64, K(SEED));
	if (K_HAS(RANDOM))
		KCFG_ADD(" %s%s", K_HAS(NORANDOMMAP) ? "norandommap" : "randommap",
			 K_HAS(RANDOM_LFSR) ? " random_generator=lfsr" : "");
	if (c->nr_zones[0] || c->nr_zones[1]) {
		char zones[4096];

		kcfg_zones(c, zones, sizeof(zones));
		KCFG_ADD(" random_distribution=%s", zones);
	}
	if (c->nr_cdf)
		KCFG_ADD(" random_cdf=%u/%" PRIu64 " hottest_1%%=%.4f",
			 c->nr_cdf, c->cdf_blocks, c->cdf_hot[0]);
	if (K_HAS(PERCENTAGE_RANDOM) &&
	    (K(PERCENTAGE_RANDOM) < 100 || K(PERCENTAGE_RANDOM_WRITE) < 100))
		KCFG_ADD(" percentage_random=%" PRIu64 ",%" PRIu64, K(PERCENTAGE_RANDOM),
			 K(PERCENTAGE_RANDOM_WRITE));
	at = kcfg_rate_str(c, buf, len, at);
	if (c->has_prio)
		KCFG_ADD(" prioclass=%" PRIu64 " prio=%" PRIu64, K(PRIOCLASS), K(PRIO));
	if (c->cmdprio_pct[0] || c->cmdprio_pct[1])
		KCFG_ADD(" cmdprio_percentage=%u,%u cmdprio_class=%u,%u cmdprio=%u,%u",
			 c->cmdprio_pct[0], c->cmdprio_pct[1], c->cmdprio_class[0],
			 c->cmdprio_class[1], c->cmdprio[0], c->cmdprio[1]);
	if (K(THINKTIME_NS))
		KCFG_ADD(" thinktime=%" PRIu64 "ns thinktime_spin=%" PRIu64
			 "ns thinktime_blocks=%" PRIu64 " thinktime_iotime=%" PRIu64 "ns",
			 K(THINKTIME_NS), K(THINKTIME_SPIN_NS), K(THINKTIME_BLOCKS),
			 K(THINKTIME_IOTIME_NS));
	if (K(LAT_LOG))
		KCFG_ADD(" lat_log_entries=%" PRIu64 "%s", K(LAT_LOG),
			 K_HAS(LAT_LOG_ALL) ? " lat_log_all" : "");
	at = kcfg_ops_str(c, buf, len, at);
	at = kcfg_fio_str(c, buf, len, at);
	if (K(ZONEMODE) && at < len)
		at += kcfg_zbd_str(c, buf + at, len - at);
	KCFG_ADD("%s%s%s%s", K_HAS(ALLOW_WRITES) ? " allow_writes" : "",
		 K_HAS(CONTINUE_ON_ERROR) ? " continue_on_error" : "",
		 K_HAS(STAGES) ? " stages" : "", K_HAS(DETACH) ? " detach" : "");
}

#undef KCFG_ADD

/*
 * kiobench's key for the job's writes when they are another op than a
 * plain write: fio reports them as writes, kiobench under this key too.
 */
const char *kb_kcfg_write_op(const struct kb_kcfg *c)
{
	if (!c->present)
		return NULL;
	if (K_HAS(WRITE_ZEROES))
		return "write_zeroes";
	if (K_HAS(ZONE_APPEND))
		return "zone_append";
	return K_HAS(ATOMIC) ? "atomic_write" : NULL;
}

/* cmdprio_bssplit's table: each direction's entries, or NULL without one. */
static struct json_object *kcfg_cmdprio_bs_json(const struct kb_kcfg *c)
{
	struct json_object *o, *dirs[2];
	unsigned int i;

	if (!c->nr_cmdprio_bs)
		return NULL;
	o = json_object_new_object();
	dirs[0] = json_object_new_array();
	dirs[1] = json_object_new_array();
	for (i = 0; i < c->nr_cmdprio_bs; i++) {
		const struct kiobench_cmdprio_bs_ent *e = &c->cmdprio_bs[i];
		struct json_object *x = json_object_new_object();

		kb_jadd(x, "bs", kb_ju64(e->size));
		kb_jadd(x, "percentage", kb_ju64(e->pct));
		kb_jadd(x, "prioclass", kb_ju64(e->class));
		kb_jadd(x, "prio", kb_ju64(e->level));
		json_object_array_add(dirs[e->dir ? 1 : 0], x);
	}
	kb_jadd(o, "read", dirs[0]);
	kb_jadd(o, "write", dirs[1]);
	return o;
}

/* kcfg_fio_str()'s settings, in the JSON settings. */
static void kcfg_fio_json(struct json_object *o, const struct kb_kcfg *c)
{
	kb_jadd(o, "rw_seq_nr", kb_ju64(K(RW_SEQ_NR) ? K(RW_SEQ_NR) : 1));
	kb_jadd(o, "rw_sequencer", K(RW_SEQ_NR) > 1 ? kb_jstr(kcfg_sequencer(c)) : NULL);
	kb_jadd(o, "rw_seq_add", kb_ju64(K(RW_SEQ_ADD)));
	kb_jadd(o, "seq_wrap", json_object_new_boolean(K_HAS(SEQ_WRAP)));
	if (K(ZONESIZE)) {
		kb_jadd(o, "zonerange", kb_ju64(K(ZONERANGE)));
		kb_jadd(o, "zonesize", kb_ju64(K(ZONESIZE)));
		kb_jadd(o, "zoneskip", kb_ju64(K(ZONESKIP)));
	}
	kb_jadd(o, "cmdprio_bssplit", kcfg_cmdprio_bs_json(c));
	kb_jadd(o, "blockalign", K(BLOCKALIGN) ? kb_ju64(K(BLOCKALIGN)) : NULL);
	kb_jadd(o, "rate_ignore_thinktime",
		json_object_new_boolean(K_HAS(RATE_IGNORE_THINKTIME)));
	kb_jadd(o, "flow", kb_ju64(K(FLOW)));
	if (K(FLOW)) {
		kb_jadd(o, "flow_id", kb_ju64(K(FLOW_ID)));
		kb_jadd(o, "flow_sleep_ns", kb_ju64(K(FLOW_SLEEP_NS)));
	}
	/* how bios are submitted (kmod/submit.c) */
	kb_jadd(o, "nice", json_object_new_int((int)(int64_t)K(NICE)));
	kb_jadd(o, "preflush_fua", kb_ju64(K(WRITE_BARRIER)));
	kb_jadd(o, "nowait", json_object_new_boolean(K_HAS(NOWAIT)));
	kb_jadd(o, "serialize_overlap", json_object_new_boolean(K_HAS(SERIALIZE_OVERLAP)));
	kb_jadd(o, "write_hint", K(WRITE_HINT) ? kb_jstr(kcfg_write_hint(c)) : NULL);
	if (c->nr_write_streams) {
		struct json_object *ws = json_object_new_array();
		unsigned int i;

		for (i = 0; i < c->nr_write_streams; i++)
			json_object_array_add(ws, json_object_new_int(c->write_streams[i]));
		kb_jadd(o, "write_streams", ws);
		kb_jadd(o, "write_stream_select", kb_jstr(kcfg_ws_select(c)));
	} else {
		kb_jadd(o, "write_streams", NULL);
		kb_jadd(o, "write_stream_select", NULL);
	}
	kb_jadd(o, "iodepth_batch", K(IODEPTH_BATCH) ? kb_ju64(K(IODEPTH_BATCH)) : NULL);
	kb_jadd(o, "iodepth_low", K(IODEPTH_LOW) ? kb_ju64(K(IODEPTH_LOW)) : NULL);
	kb_jadd(o, "iodepth_batch_complete_min", kb_ju64(K(IODEPTH_BATCH_COMPLETE_MIN) ?: 1));
}

/* Whether the kernel's bssplit table has more than one size. */
static bool kcfg_several_sizes(const struct kb_kcfg *c)
{
	unsigned int i;

	for (i = 1; i < c->nr_bss; i++)
		if (c->bss[i].size != c->bss[0].size)
			return true;
	return false;
}

/*
 * The kernel's generator of random offsets, from what it reports: with
 * several sizes the random map is fio's bitmap (kb_bmap_wanted() in
 * kmod/gen.c) unless random-lfsr asked for the permutation, as it is with
 * one size.
 */
const char *kb_kcfg_generator(const struct kb_kcfg *c)
{
	if (K_HAS(NORANDOMMAP))
		return "xoshiro256**";
	return kcfg_several_sizes(c) && !K_HAS(RANDOM_LFSR) ? "bitmap" :
							      "feistel-permutation";
}

/* {"read": v[0], "write": v[1]}, or JSON null unless present. */
/* One of fio's read,write pairs (cmdprio_percentage, percentage_random...). */
static struct json_object *per_dir_u8(const uint8_t *v, bool present)
{
	struct json_object *o;
	int d;

	if (!present)
		return NULL;
	o = json_object_new_object();
	for (d = KIOBENCH_DIR_READ; d <= KIOBENCH_DIR_WRITE; d++)
		kb_jadd(o, kb_dir_names[d], kb_ju64(v[d]));
	return o;
}

/*
 * The kernel's random-cdf: its entries, the blocks it spreads over and the
 * share of the I/Os it sends to the hottest 1, 10 and 50 % of them.
 */
static struct json_object *kcfg_cdf_json(const struct kb_kcfg *c)
{
	static const double pct[KB_KCFG_HOT] = KB_KCFG_HOT_PCTS;
	struct json_object *o, *h;
	char key[16];
	int i;

	if (!c->nr_cdf)
		return NULL;
	o = json_object_new_object();
	h = json_object_new_object();
	kb_jadd(o, "entries", kb_ju64(c->nr_cdf));
	kb_jadd(o, "blocks", kb_ju64(c->cdf_blocks));
	for (i = 0; i < KB_KCFG_HOT; i++) {
		snprintf(key, sizeof(key), "%g%%", pct[i]);
		kb_jadd(h, key, kb_jdbl(c->cdf_hot[i]));
	}
	kb_jadd(o, "hottest_share", h);
	return o;
}

/*
 * Each device's protection information, as the job found it at its start:
 * its integrity profile and whether the block layer generated the writes'
 * PI (write_generate) and verified the reads' (read_verify).  Without, a
 * device formatted with PI generates and strips it itself (NVMe: PRACT).
 */
static void print_protection(FILE *f, const struct kb_kcfg *c)
{
	unsigned int i, n = c->nr_pi < KB_KCFG_DEVS ? c->nr_pi : KB_KCFG_DEVS;

	for (i = 0; i < n; i++) {
		uint32_t fl = i < c->nr_pi_flags ? c->pi_flags[i] : 0;

		if (!strcmp(c->pi_format[i], "none"))
			continue;
		fprintf(f, "  protection");
		if (n > 1)
			fprintf(f, " (device %u)", i + 1);
		if (fl & (1u << KIOBENCH_INTEGRITY_BIT_STACKED)) {
			fprintf(f, ": %s, a bio-based device: the write_generate and read_verify "
				"of the devices below it decide\n", c->pi_format[i]);
			continue;
		}
		fprintf(f, ": %s, %s on writes, %s on reads\n", c->pi_format[i],
			fl & (1u << KIOBENCH_INTEGRITY_BIT_GENERATE) ?
			"block layer generated" : "not generated by the block layer (write_generate 0)",
			fl & (1u << KIOBENCH_INTEGRITY_BIT_VERIFY) ?
			"verified by the block layer" : "not verified by the block layer (read_verify 0)");
	}
}

/* The same as a JSON array, one object a device (null: not reported). */
static struct json_object *protection_json(const struct kb_kcfg *c)
{
	unsigned int i, n = c->nr_pi < KB_KCFG_DEVS ? c->nr_pi : KB_KCFG_DEVS;
	struct json_object *a, *o;

	if (!n)
		return NULL;
	a = json_object_new_array();
	for (i = 0; i < n; i++) {
		uint32_t fl = i < c->nr_pi_flags ? c->pi_flags[i] : 0;

		o = json_object_new_object();
		kb_jadd(o, "format", kb_jstr(c->pi_format[i]));
		kb_jadd(o, "write_generate", json_object_new_boolean(
				fl & (1u << KIOBENCH_INTEGRITY_BIT_GENERATE)));
		kb_jadd(o, "read_verify", json_object_new_boolean(
				fl & (1u << KIOBENCH_INTEGRITY_BIT_VERIFY)));
		kb_jadd(o, "stacked", json_object_new_boolean(
				fl & (1u << KIOBENCH_INTEGRITY_BIT_STACKED)));
		json_object_array_add(a, o);
	}
	return a;
}

/* The operations: write zeroes, flushes, FUA, and what the block layer did. */
static void kcfg_dedupe_errors_json(struct json_object *o, const struct kb_kcfg *c)
{
	char l[512];

	kb_jadd(o, "dedupe_percentage", kb_ju64(K(DEDUPE_PERCENTAGE)));
	kb_jadd(o, "dedupe_mode", K(DEDUPE_PERCENTAGE) ?
		kb_jstr(K(DEDUPE_MODE) ? "working_set" : "repeat") : NULL);
	kb_jadd(o, "dedupe_working_set_percentage", K(DEDUPE_MODE) ?
		kb_ju64(K(DEDUPE_WORKING_SET_PERCENTAGE)) : NULL);
	kb_jadd(o, "dedupe_global", json_object_new_boolean(K_HAS(DEDUPE_GLOBAL)));
	kcfg_ignore_error(c, l, sizeof(l));
	kb_jadd(o, "ignore_error", l[0] ? kb_jstr(l) : NULL);
	kb_jadd(o, "error_dump", json_object_new_boolean(K_HAS(ERROR_DUMP)));
}

static void kcfg_ops_json(struct json_object *o, const struct kb_kcfg *c)
{
	kb_jadd(o, "write_mode", kb_jstr(K_HAS(WRITE_ZEROES) ? "zeroes" :
					 K_HAS(ZONE_APPEND) ? "zone_append" : "write"));
	kb_jadd(o, "write_zeroes_unmap", json_object_new_boolean(K_HAS(ZEROES_UNMAP)));
	kb_jadd(o, "fsync", kb_ju64(K(FSYNC)));
	kb_jadd(o, "end_fsync", json_object_new_boolean(K_HAS(END_FSYNC)));
	kb_jadd(o, "writefua", json_object_new_boolean(K_HAS(WRITEFUA)));
	kb_jadd(o, "atomic", json_object_new_boolean(K_HAS(ATOMIC)));
	kb_jadd(o, "buffer_fill", kb_jstr(K(BUFFER_FILL) == KIOBENCH_BUFFER_ZEROES ? "zeroes" :
					  K(BUFFER_FILL) == KIOBENCH_BUFFER_PATTERN ? "pattern" :
					  "random"));
	kb_jadd(o, "refill_buffers", json_object_new_boolean(K_HAS(REFILL_BUFFERS)));
	kb_jadd(o, "scramble_buffers", json_object_new_boolean(K_HAS(SCRAMBLE_BUFFERS)));
	kb_jadd(o, "buffer_compress_percentage", kb_ju64(K(BUFFER_COMPRESS_PERCENTAGE)));
	kb_jadd(o, "buffer_compress_chunk", kb_ju64(K(BUFFER_COMPRESS_CHUNK)));
	kcfg_dedupe_errors_json(o, c);
	kb_jadd(o, "zonemode", kb_jstr(K(ZONEMODE) ? "zbd" : "none"));
	kb_jadd(o, "max_open_zones", kb_ju64(K(MAX_OPEN_ZONES)));
	kb_jadd(o, "job_max_open_zones", kb_ju64(K(JOB_MAX_OPEN_ZONES)));
	kb_jadd(o, "ignore_zone_limits", json_object_new_boolean(K_HAS(IGNORE_ZONE_LIMITS)));
	kb_jadd(o, "read_beyond_wp", json_object_new_boolean(K_HAS(READ_BEYOND_WP)));
	kb_jadd(o, "zone_reset_threshold", kb_jdbl(K(ZONE_RESET_THRESHOLD) / 1e6));
	kb_jadd(o, "zone_reset_frequency", kb_jdbl(K(ZONE_RESET_FREQUENCY) / 1e6));
	kb_jadd(o, "zone_op", kb_jstr(kb_kcfg_trim_op(c) ? kb_kcfg_trim_op(c) : "none"));
	kb_jadd(o, "verify_sorted", json_object_new_boolean(K_HAS(VERIFY_SORTED)));
	kb_jadd(o, "verify_backlog", kb_ju64(K(VERIFY_BACKLOG)));
	kb_jadd(o, "io_round", kb_ju64(K(IO_ROUND)));
	kb_jadd(o, "trim_percentage", kb_ju64(K(TRIM_PERCENTAGE)));
	kb_jadd(o, "trim_backlog", kb_ju64(K(TRIM_BACKLOG)));
	kb_jadd(o, "trim_backlog_batch", kb_ju64(K(TRIM_BACKLOG_BATCH)));
	/* as the kernel found the devices */
	kb_jadd(o, "fua_emulated", json_object_new_boolean(K_HAS(JOB_FUA_EMULATED)));
	kb_jadd(o, "flush_noop", json_object_new_boolean(K_HAS(JOB_FLUSH_NOOP)));
	kb_jadd(o, "protection", protection_json(c));
}

/* Each direction's sizes, as the kernel took them: bssplit, bssplit_write, bssplit_trim. */
static void kcfg_bss_json(struct json_object *o, const struct kb_kcfg *c)
{
	static const char *const keys[KB_BSS_DIRS] = { "bssplit", "bssplit_write",
						       "bssplit_trim" };
	static const char *const ranges[KB_BSS_DIRS] = { "bsrange", "bsrange_write",
							 "bsrange_trim" };
	struct json_object *a, *e;
	unsigned int i, d, n;

	for (d = 0; d < KB_BSS_DIRS; d++) {
		const struct kb_kcfg_bs *b = kcfg_bss(c, d, &n);

		/* a range: its two entries are low and high, each size drawn between */
		kb_jadd(o, ranges[d], json_object_new_boolean(kcfg_range(c, d)));
		a = json_object_new_array();
		for (i = 0; i < n; i++) {
			e = json_object_new_object();
			kb_jadd(e, "bs", kb_ju64(b[i].size));
			kb_jadd(e, "weight", kb_ju64(b[i].weight));
			json_object_array_add(a, e);
		}
		kb_jadd(o, keys[d], a);
	}
}

/* The same as a JSON object (JSON null when the module did not report them). */
struct json_object *kb_kcfg_json(const struct kb_kcfg *c)
{
	struct json_object *o, *a;
	unsigned int i;

	if (!c->present)
		return NULL;
	o = json_object_new_object();
	kb_jadd(o, "devices", kb_jstr(c->devices));
	a = json_object_new_array();
	for (i = 0; i < c->nr_spans && i < KB_KCFG_DEVS; i++)
		json_object_array_add(a, kb_ju64(c->span_len[i]));
	kb_jadd(o, "span_len", a);
	kb_jadd(o, "rw", kb_jstr(kcfg_rw(c)));
	kb_jadd(o, "random", json_object_new_boolean(K_HAS(RANDOM)));
	kb_jadd(o, "rwmixread", kb_ju64(K(RWMIX_READ)));
	kcfg_bss_json(o, c);
	kb_jadd(o, "iodepth", kb_ju64(K(IODEPTH)));
	kb_jadd(o, "numjobs", kb_ju64(K(NUMJOBS)));
	a = json_object_new_array();
	for (i = 0; i < c->nr_cpus; i++)
		json_object_array_add(a, kb_ju64(c->cpus[i]));
	kb_jadd(o, "cpus", a);
	if (c->nr_cpus)
		kb_jadd(o, "cpus_allowed_policy",
			json_object_new_string(K(CPUS_SHARED) ? "shared" : "split"));
	kb_jadd(o, "offset", kb_ju64(K(OFFSET)));
	kb_jadd(o, "size", kb_ju64(K(SIZE)));
	kb_jadd(o, "runtime_ns", kb_ju64(K(RUNTIME_NS)));
	kb_jadd(o, "io_size", kb_ju64(K(IO_BYTES)));
	kb_jadd(o, "number_ios", kb_ju64(K(NUMBER_IOS)));
	kb_jadd(o, "ramp_ns", kb_ju64(K(RAMP_NS)));
	kb_jadd(o, "randseed", kb_ju64(K(SEED)));
	kb_jadd(o, "norandommap", json_object_new_boolean(K_HAS(NORANDOMMAP)));
	kb_jadd(o, "random_lfsr", json_object_new_boolean(K_HAS(RANDOM_LFSR)));
	if (K_HAS(RANDOM) && !c->nr_cdf) {	/* a table is random_cdf's */
		char zones[4096];

		kcfg_zones(c, zones, sizeof(zones));
		kb_jadd(o, "random_distribution", kb_jstr(zones));
	}
	kb_jadd(o, "random_cdf", kcfg_cdf_json(c));
	if (K_HAS(PERCENTAGE_RANDOM)) {
		const uint8_t pr[KIOBENCH_NR_DIRS] = { K(PERCENTAGE_RANDOM),
						       K(PERCENTAGE_RANDOM_WRITE) };

		kb_jadd(o, "percentage_random", per_dir_u8(pr, true));
	}
	if (c->has_prio) {
		kb_jadd(o, "prioclass", kb_ju64(K(PRIOCLASS)));
		kb_jadd(o, "prio", kb_ju64(K(PRIO)));
		kb_jadd(o, "cmdprio_percentage", per_dir_u8(c->cmdprio_pct, true));
		kb_jadd(o, "cmdprio_class", per_dir_u8(c->cmdprio_class, c->cmdprio_pct[0] ||
						       c->cmdprio_pct[1]));
		kb_jadd(o, "cmdprio", per_dir_u8(c->cmdprio, c->cmdprio_pct[0] || c->cmdprio_pct[1]));
	}
	kb_jadd(o, "offset_generator", K_HAS(RANDOM) ? kb_jstr(kb_kcfg_generator(c)) : NULL);
	kb_jadd(o, "interval_ns", kb_ju64(K(INTERVAL_NS)));
	kb_jadd(o, "lat_log_entries", kb_ju64(K(LAT_LOG)));
	kb_jadd(o, "lat_log_all", json_object_new_boolean(K_HAS(LAT_LOG_ALL)));
	kb_jadd(o, "completion", kb_jstr(kb_kcfg_completion(c)));
	kb_jadd(o, "rate_iops", kb_ju64(K(RATE_IOPS)));
	kb_jadd(o, "rate_iops_write", K_HAS(RATE_IOPS_WRITE) ? kb_ju64(K(RATE_IOPS_WRITE)) : NULL);
	kb_jadd(o, "rate_process", K(RATE_IOPS) ? kb_jstr(kcfg_process(c)) : NULL);
	kb_jadd(o, "thinktime_ns", kb_ju64(K(THINKTIME_NS)));
	kb_jadd(o, "thinktime_spin_ns", kb_ju64(K(THINKTIME_SPIN_NS)));
	kb_jadd(o, "thinktime_blocks", kb_ju64(K(THINKTIME_BLOCKS)));
	kb_jadd(o, "thinktime_iotime_ns", kb_ju64(K(THINKTIME_IOTIME_NS)));
	kb_jadd(o, "allow_writes", json_object_new_boolean(K_HAS(ALLOW_WRITES)));
	kb_jadd(o, "continue_on_error", json_object_new_boolean(K_HAS(CONTINUE_ON_ERROR)));
	kb_jadd(o, "stages", json_object_new_boolean(K_HAS(STAGES)));
	kb_jadd(o, "detach", json_object_new_boolean(K_HAS(DETACH)));
	kcfg_ops_json(o, c);
	kcfg_fio_json(o, c);
	return o;
}

/*
 * kiobench's own figures of how the job ran, into its "kiobench" object;
 * the completion mode and the rate are the kernel's (JSON null when the
 * module did not report them), never the options this tool sent.
 */
static const char *const kb_err_types[3] = { "read", "write", "verify" };

static void json_errors(struct json_object *o, const struct kb_status *st)
{
	struct json_object *a = json_object_new_array(), *e;
	unsigned int i;

	kb_jadd(o, "total_err", kb_ju64(kb_total_err(st)));
	kb_jadd(o, "first_error", json_object_new_int(-st->first_error));
	for (i = 0; i < st->nr_errs; i++) {
		e = json_object_new_object();
		kb_jadd(e, "type", kb_jstr(kb_err_types[st->errs[i].type % 3]));
		kb_jadd(e, "errno", kb_ju64(st->errs[i].err));
		kb_jadd(e, "name", kb_jstr(kb_errno_name(st->errs[i].err)));
		kb_jadd(e, "count", kb_ju64(st->errs[i].count));
		json_object_array_add(a, e);
	}
	kb_jadd(o, "errors_gone_on", a);
}

static void print_errors(FILE *f, const struct kb_status *st)
{
	unsigned int i;

	if (!st->nr_errs)
		return;
	fprintf(f, "  errors       : %" PRIu64 " gone on from (total_err), first_error=%d (%s):",
		kb_total_err(st), -st->first_error, kb_errno_name(-st->first_error));
	for (i = 0; i < st->nr_errs; i++)
		fprintf(f, "%s %s %s=%" PRIu64, i ? "," : "",
			kb_err_types[st->errs[i].type % 3],
			kb_errno_name(st->errs[i].err), (uint64_t)st->errs[i].count);
	fputc('\n', f);
}

void kb_json_measures(struct json_object *o, const struct kb_result *r)
{
	const struct kb_kcfg *c = &r->st.cfg;
	const char *mode = kb_kcfg_completion(c);

	json_errors(o, &r->st);
	kb_jadd(o, "settings", kb_kcfg_json(c));
	kb_jadd(o, "completion", mode ? kb_jstr(mode) : NULL);
	kb_jadd(o, "effective_iodepth", kb_jdbl(kb_effective_iodepth(r)));
	kb_jadd(o, "retries", kb_ju64(r->st.retries));
	if (!K(RATE_IOPS))
		return;
	kb_jadd(o, "rate_iops", kb_ju64(K(RATE_IOPS)));
	kb_jadd(o, "rate_process", kb_jstr(kcfg_process(c)));
	kb_jadd(o, "schedule_lag_ns", both_dirs(r, KB_MET_SCHED_LAG));
	kb_jadd(o, "lat_from_schedule_ns", both_dirs(r, KB_MET_LAT_SCHED));
}

/* "min=..., max=..., avg=..., p50=..., p99=..., p99.9=..." in microseconds. */
static void print_metric_line(FILE *f, const char *what, const struct kb_hist *h)
{
	static const uint32_t pl[] = { 50 * KB_PCT_ONE, 99 * KB_PCT_ONE, 999 * KB_PCT_ONE / 10 };
	uint64_t pv[3];

	if (!h->samples) {
		fprintf(f, "    %s: no sample\n", what);
		return;
	}
	if (kb_hist_percentiles(h, pl, 3, pv, NULL))
		memset(pv, 0, sizeof(pv));
	fprintf(f, "    %s (usec): min=%.1f, max=%.1f, avg=%.1f, p50=%.1f, p99=%.1f, "
		"p99.9=%.1f\n", what, h->min / 1e3, h->max / 1e3,
		kb_lat_mean(h->samples, h->sum) / 1e3, pv[0] / 1e3, pv[1] / 1e3, pv[2] / 1e3);
}

static void print_open_loop(FILE *f, const struct kb_result *r)
{
	const struct kb_kcfg *c = &r->st.cfg;
	uint64_t ios = kb_dirs_sum(r, offsetof(struct kb_dirstat, ios));
	double got = r->st.measured_ns && r->st.nr_workers ?
		     ios * 1e9 / r->st.measured_ns / r->st.nr_workers : 0.0;
	uint64_t want = K(RATE_IOPS) + K(RATE_IOPS_WRITE);
	struct kb_hist h;

	if (K_HAS(RATE_IOPS_WRITE))
		fprintf(f, "  open loop    : rate_iops=%" PRIu64 ",%" PRIu64 " (reads, writes) "
			"per worker (%s), achieved %.0f (%.1f %%)\n", K(RATE_IOPS),
			K(RATE_IOPS_WRITE), kcfg_process(c), got, 100.0 * got / want);
	else
		fprintf(f, "  open loop    : rate_iops=%" PRIu64 " per worker (%s), achieved "
			"%.0f (%.1f %%)\n", K(RATE_IOPS), kcfg_process(c), got,
			100.0 * got / want);
	if (!kb_metric_merged(r, 1, KB_MET_SCHED_LAG, -1, &h)) {
		print_metric_line(f, "schedule lag", &h);
		kb_hist_free(&h);
	}
	if (!kb_metric_merged(r, 1, KB_MET_LAT_SCHED, -1, &h)) {
		print_metric_line(f, "lat from schedule", &h);
		kb_hist_free(&h);
	}
}

/*
 * How the kernel drew the random offsets (its norandommap, its seed), and
 * what became of fio's random_generator when the job named one.
 */
static void print_offsets(FILE *f, const struct kb_result *r)
{
	const struct kb_kcfg *c = &r->st.cfg;
	uint32_t blk = 0, big = 0;
	unsigned int i;

	for (i = 0; i < c->nr_bss; i++) {
		if (!blk || c->bss[i].size < blk)
			blk = c->bss[i].size;
		if (c->bss[i].size > big)
			big = c->bss[i].size;
	}
	if (c->nr_zones[0] || c->nr_zones[1]) {
		char zones[4096];

		kcfg_zones(c, zones, sizeof(zones));
		fprintf(f, "  offsets      : %s: uniform in each zone, %s, with replacement "
			"(randseed=%" PRIu64 ")\n", zones, kb_kcfg_generator(c), K(SEED));
	} else if (c->nr_cdf) {
		fprintf(f, "  offsets      : skewed by the kernel's table of %u pieces over %"
			PRIu64 " blocks, scattered by a keyed permutation (randseed=%" PRIu64
			"): the hottest 1%% of the blocks take %.1f%% of the I/Os, 10%%: %.1f%%, "
			"50%%: %.1f%%\n", c->nr_cdf, c->cdf_blocks, K(SEED), 100 * c->cdf_hot[0],
			100 * c->cdf_hot[1], 100 * c->cdf_hot[2]);
	} else if (K_HAS(NORANDOMMAP)) {
		fprintf(f, "  offsets      : norandommap: %s, with replacement, "
			"multiples of %" PRIu64 " (randseed=%" PRIu64 ")\n",
			kb_kcfg_generator(c), K(BLOCKALIGN) ? K(BLOCKALIGN) : blk, K(SEED));
	} else {
		fprintf(f, "  offsets      : random map: %s of the span's %u-byte blocks, "
			"each once per pass (randseed=%" PRIu64 ")\n",
			kb_kcfg_generator(c), blk, K(SEED));
		if (big > blk && K_HAS(RANDOM_LFSR))
			fprintf(f, "  note         : as fio's lfsr, a block starts a transfer "
				"once per pass, of the drawn size (drawn again to fit before "
				"the span's end), never cut: transfers overlap\n");
		else if (big > blk)	/* Documentation/kiobench.rst, "The block" */
			fprintf(f, "  note         : as fio's random map, a transfer is cut "
				"to the blocks not yet done where it starts: fewer large "
				"ones as the map fills (norandommap keeps the drawn sizes)\n");
	}
	if (r->job && kb_job_isset(r->job, KB_OPT_RANDGEN))
		fprintf(f, "  note         : random_generator=%s asked; the kernel runs "
			"its %s, which keeps that generator's guarantee\n",
			kb_randgen_name(r->job->random_generator), kb_kcfg_generator(c));
}

/* fio's offset patterns the kernel ran: rw's :N, zonemode=strided. */
static void print_pattern(FILE *f, const struct kb_kcfg *c)
{
	if (K(RW_SEQ_NR) > 1)
		fprintf(f, "  pattern      : a drawn offset every %" PRIu64 " I/Os, the %" PRIu64
			" between %s\n", K(RW_SEQ_NR), K(RW_SEQ_NR) - 1,
			K(RW_SEQUENCER) == KIOBENCH_RW_SEQ_IDENTICAL ?
			"at the same offset" : "going on from where the previous one ended");
	if (K(RW_SEQ_ADD))
		fprintf(f, "  pattern      : sequential, %" PRIu64 " bytes skipped after each I/O%s\n",
			K(RW_SEQ_ADD), K_HAS(SEQ_WRAP) ?
			", from the start again where the next one would not fit" : "");
	if (K(ZONESIZE))
		fprintf(f, "  pattern      : strided: %" PRIu64 " bytes of I/O in each zone's first %"
			PRIu64 " bytes, the next zone %" PRIu64 " bytes past its end\n",
			K(ZONESIZE), K(ZONERANGE), K(ZONESKIP));
}

/* The completion mode, the depth kept, the open loop: after a job's directions. */
void kb_print_measures(FILE *f, const struct kb_result *r)
{
	const struct kb_kcfg *c = &r->st.cfg;
	double depth = kb_effective_iodepth(r);
	unsigned int qd = c->present ? K(IODEPTH) : r->job->iodepth ? r->job->iodepth : 1;
	uint64_t ios = kb_dirs_sum(r, offsetof(struct kb_dirstat, ios));
	char line[16384];

	kb_kcfg_str(c, line, sizeof(line));
	fprintf(f, "  kernel ran   : %s\n", line);
	fprintf(f, "  completion   : %s; depth kept %.2f per worker (iodepth=%u)",
		kb_kcfg_completion(c) ? kb_kcfg_completion(c) : "not reported", depth, qd);
	if (r->st.retries)
		fprintf(f, "; %" PRIu64 " submissions refused for want of a tag, retried",
			r->st.retries);
	fputc('\n', f);
	if (c->present && K_HAS(RANDOM))
		print_offsets(f, r);
	if (c->present)
		print_pattern(f, c);
	print_errors(f, &r->st);
	if (K(RATE_IOPS))
		print_open_loop(f, r);
	else if (ios >= KB_DEPTH_MIN_IOS * r->st.nr_workers && depth < KB_DEPTH_WARN * qd &&
		 !r->latt.present)	/* latency_target: the search set the depth */
		fprintf(f, "  warning: the workers kept %.2f of iodepth=%u in flight (below "
			"%.0f %%): the submission path, not the device, set part of the pace\n",
			depth, qd, 100 * KB_DEPTH_WARN);
}

/* zonemode=zbd: what the workers did with the zones (debugfs zones). */
static void print_zbd(FILE *f, const struct kb_zbd_counts *z)
{
	fprintf(f, "  zones        : %u of %u written, %" PRIu64 " bytes at write pointers, %"
		PRIu64 " resets (%" PRIu64 " bytes; %" PRIu64 " of zone_reset_frequency)",
		z->touched, z->zones, z->written, z->resets, z->reset_bytes, z->gc_resets);
	if (z->beyond)
		fprintf(f, ", %" PRIu64 " reads past a pointer", z->beyond);
	if (z->opens || z->closes || z->finishes)
		fprintf(f, ", %" PRIu64 " opened, %" PRIu64 " closed, %" PRIu64 " finished",
			z->opens, z->closes, z->finishes);
	if (z->append_in || z->append_out)
		fprintf(f, "; zone appends: %" PRIu64 " in their zone, %" PRIu64 " outside, %"
			PRIu64 " before an earlier one's end", z->append_in, z->append_out,
			z->append_reordered);
	fputc('\n', f);
}

/* The same, in JSON: kiobench.zones. */
struct json_object *kb_zbd_json(const struct kb_zbd_counts *z)
{
	struct json_object *o;

	if (!z->present)
		return NULL;
	o = json_object_new_object();
	kb_jadd(o, "zones", kb_ju64(z->zones));
	kb_jadd(o, "zones_written", kb_ju64(z->touched));
	kb_jadd(o, "written_bytes", kb_ju64(z->written));
	kb_jadd(o, "resets", kb_ju64(z->resets));
	kb_jadd(o, "reset_bytes", kb_ju64(z->reset_bytes));
	kb_jadd(o, "frequency_resets", kb_ju64(z->gc_resets));
	kb_jadd(o, "reads_beyond_wp", kb_ju64(z->beyond));
	kb_jadd(o, "append_in_zone", kb_ju64(z->append_in));
	kb_jadd(o, "append_outside", kb_ju64(z->append_out));
	kb_jadd(o, "append_reordered", kb_ju64(z->append_reordered));
	kb_jadd(o, "opens", kb_ju64(z->opens));
	kb_jadd(o, "closes", kb_ju64(z->closes));
	kb_jadd(o, "finishes", kb_ju64(z->finishes));
	return o;
}

/*
 * What the block layer made of the job's flushes and FUA writes, as the
 * kernel found its devices (the status, not the options asked for).
 */
void kb_print_ops_notes(FILE *f, const struct kb_result *r)
{
	const struct kb_kcfg *c = &r->st.cfg;

	if (K_HAS(WRITE_ZEROES) && r->st.dir[KIOBENCH_DIR_WRITE].ios)
		fprintf(f, "  write_zeroes: the writes above are write zeroes (REQ_OP_WRITE_ZEROES%s), "
			"no data sent\n", K_HAS(ZEROES_UNMAP) ? ", unmap allowed" : " with REQ_NOUNMAP");
	if (K_HAS(ATOMIC) && r->st.dir[KIOBENCH_DIR_WRITE].ios)
		fprintf(f, "  atomic_write: the writes above are atomic (REQ_ATOMIC)\n");
	if (kb_kcfg_trim_op(c) && r->st.dir[KIOBENCH_DIR_TRIM].ios)
		fprintf(f, "  %s: the trims above are %s\n", kb_kcfg_trim_op(c),
			K(TRIM_MODE) == KIOBENCH_TRIM_TRIM ?
			"zone management commands, one zone each (the device: reset-all), "
			"timed from submit_bio() to bi_end_io()" :
			"the zone resets of zonemode=zbd beside the writes, each timed around "
			"blkdev_zone_mgmt()");
	if (r->zbd.present)
		print_zbd(f, &r->zbd);
	if (K_HAS(JOB_FUA_EMULATED))
		fprintf(f, "  writefua: emulated: a device has a volatile write cache but no "
			"FUA; the block layer sends each write, then a flush\n");
	if (K_HAS(JOB_FLUSH_NOOP))
		fprintf(f, "  flush: no-op: a device has no volatile write cache; the block "
			"layer completes each flush at once and drops FUA, sending neither\n");
	print_protection(f, c);
}
