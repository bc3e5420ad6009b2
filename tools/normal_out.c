// SPDX-License-Identifier: GPL-2.0
/*
 * The normal report: fio's human-readable output, per job and direction,
 * with kiobench's own lines (completion, CPU, sensors).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "json.h"
#include "kiobench.h"
#include "measures.h"
#include "options.h"
#include "output.h"
#include "report.h"
#include "result.h"
#include "sensors.h"
#include "locality_out.h"
#include "stages_out.h"
#include "stats.h"

/* ---- normal --------------------------------------------------------------- */

/* "<what> percentiles (unit, N=n):" and fio's rows of percentiles. */
static void print_percentiles(FILE *f, const struct kb_result *r, const struct dir_calc *c,
			      const char *what, uint64_t nr)
{
	unsigned int n = r->job->nr_plist, prec = kb_plist_precision(r->job->plist, n);
	uint64_t minv = UINT64_MAX, maxv = 0, divisor = 1, v;
	unsigned int i, j, scale = 0, per_line, width;
	const char *unit = "nsec";

	for (i = 0; i < n; i++) {
		if (c->pv[i] < minv)
			minv = c->pv[i];
		if (c->pv[i] > maxv)
			maxv = c->pv[i];
	}
	/* fio's unit choice */
	if (minv > 2000000 && maxv > 99999999ULL) {
		scale = 2;
		divisor = 1000000;
		unit = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1;
		divisor = 1000;
		unit = "usec";
	}
	width = kb_ndigits(maxv / divisor);
	if (width < 5)
		width = 5;
	per_line = (80 - 7) / (prec + 10 + width);
	if (!per_line)
		per_line = 1;
	fprintf(f, "    %s percentiles (%s, N=%" PRIu64 "):\n", what, unit, nr);
	for (i = 0; i < n; i++) {
		if (i % per_line == 0)
			fprintf(f, "     |");
		v = c->pv[i];
		for (j = 0; j < scale; j++)
			v = (v + 999) / 1000;
		fprintf(f, " %*.*fth=[%*" PRIu64 "]%s%s", prec + 3, prec,
			r->job->plist[i] / (double)KB_PCT_ONE, width, v,
			c->lowconf[i] ? "*" : "", i == n - 1 ? "\n" : ",");
		if (i != n - 1 && i % per_line == per_line - 1)
			fprintf(f, "\n");
	}
	if (c->any_lowconf)
		fprintf(f, "     * fewer than 1/(1-p) samples: tail not resolved\n");
}

/*
 * fio's clat prio lines: the latency of the I/Os of one priority, from the
 * kernel's histogram of that priority (cmdprio_percentage), and its share.
 */
static void print_prio(FILE *f, const struct kb_result *r, int d, enum kb_metric m)
{
	const struct kb_kcfg *k = &r->st.cfg;
	const struct kb_hist *h = &r->met[m][d];
	bool cmd = m == KB_MET_CLAT_PRIO_CMD;
	unsigned int class = cmd ? k->cmdprio_class[d] : kb_kcfg_u64(k, KIOBENCH_A_PRIOCLASS);
	unsigned int level = cmd ? k->cmdprio[d] : kb_kcfg_u64(k, KIOBENCH_A_PRIO);
	uint64_t all = r->met[KB_MET_CLAT_PRIO_DEF][d].samples +
		       r->met[KB_MET_CLAT_PRIO_CMD][d].samples;
	struct dir_calc c = { 0 };
	char what[64];
	unsigned int i;

	if (!r->has_met[m][d])
		return;
	if (!h->samples) {
		fprintf(f, "    clat prio %u/%u: no sample\n", class, level);
		return;
	}
	fprintf(f, "    clat prio %u/%u (usec): min=%.1f, max=%.1f, avg=%.2f, stdev=%.2f, "
		"samples=%" PRIu64 "\n", class, level, h->min / 1e3, h->max / 1e3,
		kb_lat_mean(h->samples, h->sum) / 1e3,
		kb_lat_stddev(h->samples, h->sum, h->sumsq_hi, h->sumsq_lo) / 1e3, h->samples);
	if (!kb_pct_shown(r->job) ||
	    kb_hist_percentiles(h, r->job->plist, r->job->nr_plist, c.pv, c.lowconf))
		return;
	for (i = 0; i < r->job->nr_plist; i++)
		c.any_lowconf |= c.lowconf[i];
	snprintf(what, sizeof(what), "clat prio %u/%u (%.2f%% of IOs)", class, level,
		 all ? 100.0 * h->samples / all : 0.0);
	print_percentiles(f, r, &c, what, h->samples);
}

/* The report's results, for fio's "per" (its group's aggregate); NULL: one job. */
static const struct kb_result *report_all;
static size_t report_n;

/*
 * fio's bw and iops lines: the samples of bwavgtime and iopsavgtime
 * windows (output.c), the bandwidth in kb_base's KiB or kB (unit_base=1:
 * bits), MiB past kb_base^2, as fio's show_ddir_status().
 */
static void print_rate_samples(FILE *f, const struct kb_result *r, int d)
{
	struct kb_samples bw, iops;
	double mean, dev, base = r->job->kb_base ? r->job->kb_base : 1024;
	bool pow2 = base == 1024, bits = r->job->unit_base == 1;
	double min, max, per;
	const char *unit;

	kb_rate_samples(r, d, &bw, &iops);
	if (kb_samples_stats(&bw, &mean, &dev)) {
		per = kb_bw_per(report_all, report_n, r, d, mean);
		unit = bits ? (pow2 ? "Kibit" : "kbit") : (pow2 ? "KiB" : "kB");
		min = bw.min;
		max = bw.max;
		if (bits) {
			min *= 8;
			max *= 8;
			mean *= 8;
			dev *= 8;
		}
		if (mean > base * base) {
			min /= base;
			max /= base;
			mean /= base;
			dev /= base;
			unit = bits ? "Mibit" : "MiB";
		}
		fprintf(f, "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, "
			"stdev=%5.02f, samples=%" PRIu64 "\n", unit, (unsigned long long)min,
			(unsigned long long)max, per, mean, dev, bw.n);
	}
	if (kb_samples_stats(&iops, &mean, &dev))
		fprintf(f, "   iops        : min=%5" PRIu64 ", max=%5" PRIu64 ", avg=%5.02f, "
			"stdev=%5.02f, samples=%" PRIu64 "\n", iops.min, iops.max, mean, dev,
			iops.n);
}

/*
 * Direction d of r under fio's name for it (what: "mixed" for the sum of
 * unified_rw_reporting), in significant_figures digits and unit_base's unit.
 */
static void print_dir_normal(FILE *f, const struct kb_result *r, int d, const char *what)
{
	unsigned int sig = kb_sig_figs(r->job);
	struct dir_calc c;
	char iops[32], bw[32], bwalt[32], io[32], smin[32], smax[32], ramp[32];
	const char *unit = "nsec";
	uint64_t min, max;
	double mean, dev;

	kb_calc_dir(r, d, &c);
	kb_num2str(iops, sizeof(iops), c.iops_int, sig, false, "");
	kb_bw_str(bw, sizeof(bw), c.bw_bytes, true, r->job);
	kb_bw_str(bwalt, sizeof(bwalt), c.bw_bytes, false, r->job);
	kb_bytes_str(io, sizeof(io), c.ds->bytes, true, r->job);
	if (d == KIOBENCH_DIR_SYNC)	/* fio's heading of its syncs; no bytes */
		fprintf(f, "  fsync/fdatasync/sync_file_range: flushes=%" PRIu64 ", IOPS=%s\n",
			c.ds->ios, iops);
	else
		fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)\n", what,
			iops, bw, bwalt, io, r->st.measured_ns / 1000000);
	if (c.ds->ios) {
		min = c.ds->lat_min;
		max = c.ds->lat_max;
		mean = c.mean;
		dev = c.dev;
		/* fio's nsec_to_msec / nsec_to_usec */
		if (min > 2000000 && max > 99999999ULL && dev > 1000000.0) {
			min /= 1000000;
			max /= 1000000;
			mean /= 1e6;
			dev /= 1e6;
			unit = "msec";
		} else if (min > 2000 && max > 99999 && dev > 1000.0) {
			min /= 1000;
			max /= 1000;
			mean /= 1e3;
			dev /= 1e3;
			unit = "usec";
		}
		fprintf(f, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f, "
			"samples=%" PRIu64 "\n", d == KIOBENCH_DIR_SYNC ? "sync" : "lat", unit,
			kb_num2str(smin, sizeof(smin), min, 6, false, ""),
			kb_num2str(smax, sizeof(smax), max, 6, false, ""),
			mean, dev, c.ds->ios);
		/*
		 * clat_percentiles and lat_percentiles both name this one
		 * latency; fio shows its flushes' percentiles whatever they say
		 */
		if (c.has_pct && (kb_pct_shown(r->job) || d == KIOBENCH_DIR_SYNC))
			print_percentiles(f, r, &c, d == KIOBENCH_DIR_SYNC ? "sync" : "lat",
					  c.ds->ios);
		print_prio(f, r, d, KB_MET_CLAT_PRIO_DEF);
		print_prio(f, r, d, KB_MET_CLAT_PRIO_CMD);
	}
	if (d != KIOBENCH_DIR_SYNC)
		print_rate_samples(f, r, d);
	if (r->job->ramp_ns) {
		kb_fmt_duration(ramp, sizeof(ramp), r->job->ramp_ns);
		fprintf(f, "    warm-up excluded: %s, %" PRIu64 " I/Os; errors: %" PRIu64 "\n",
			ramp, c.ds->all_ios > c.ds->ios ? c.ds->all_ios - c.ds->ios : 0,
			c.ds->errors);
	} else {
		fprintf(f, "    warm-up: none; errors: %" PRIu64 "\n", c.ds->errors);
	}
}

static void print_job_header(FILE *f, const struct kb_result *r)
{
	const struct kb_job *job = r->job;
	const struct kb_opt *bs;
	unsigned int i;
	char val[1024];

	fprintf(f, "%s: (groupid=%u, jobs=%u): err=%2d: devices=", job->name, r->groupid,
		r->nr_jobs ? r->nr_jobs : 1, kb_fio_error(r));
	for (i = 0; i < job->nr_devices; i++)
		fprintf(f, "%s%s", i ? ":" : "", job->devices[i]);
	fprintf(f, " rw=%s", job->rw_str);
	if (job->rw == KB_RW_MIXED)
		fprintf(f, " rwmixread=%u", kb_job_rwmix_read(job));
	bs = &kb_opts[kb_job_isset(job, KB_OPT_BSSPLIT) ? KB_OPT_BSSPLIT : KB_OPT_BS];
	kb_opt_format(bs, job, val, sizeof(val));
	fprintf(f, " %s=%s", kb_opt_print_name(bs, job), val);
	fprintf(f, " iodepth=%u", job->iodepth ? job->iodepth : 1);
	if (!job->clones)	/* a sweep's step: numjobs is its workers per device */
		fprintf(f, " numjobs=%u", job->numjobs ? job->numjobs : 1);
	else if (job->clones > 1 && r->nr_jobs <= 1)	/* run: fio's clones */
		fprintf(f, " clone=%u/%u", job->clone, job->clones);
	if (job->clones && job->workers > 1)
		fprintf(f, " workers=%u", job->workers);
	fprintf(f, "\n");
	if (job->description)	/* as fio prints it */
		fprintf(f, "  Description  : [%s]\n", job->description);
	if (r->st.state != KIOBENCH_STATE_DONE) {
		const struct kiobench_err_at *at = kb_error_at(r);

		fprintf(f, "  state: %s", kb_state_name(r->st.state));
		if (r->st.error)
			fprintf(f, " (%s)", strerror(-r->st.error));
		if (at)
			fprintf(f, ": a %s of %u bytes at offset %llu (sector %llu) of %s, %s",
				kb_dir_names[at->dir], at->length, (unsigned long long)at->offset,
				(unsigned long long)at->offset >> 9, r->job->devices[at->device],
				kb_errno_name(at->err));
		fprintf(f, "\n");
	}
}

/* Workers' CPU time: percent of one CPU over the run, and per I/O. */
static void print_sensors(FILE *f, const struct kb_result *r)
{
	struct kb_hw_sum s;
	double iops, bw, iops_w, mbs_w;
	unsigned int i;
	size_t n = 0;

	kb_hwmon_summarize(r, 1, &s);
	if (!s.devices) {
		fprintf(f, "  sensors      : none (no hwmon sensor for %s%s)\n", r->job->devices[0],
			r->job->nr_devices > 1 ? " ..." : "");
	} else {
		fprintf(f, "  sensors      : ");
		for (i = 0; i < r->nr_hw; i++) {
			fprintf(f, "%s%s", i ? "," : "", r->hw[i].owner);
			n += r->hw[i].nr_s;
		}
		if (s.has_temp)
			fprintf(f, " temp min/max %.1f/%.1f C", s.temp_min_mc / 1e3,
				s.temp_max_mc / 1e3);
		else
			fprintf(f, " no temperature sensor");
		fprintf(f, " (hwmon %s, %zu samples)\n", r->hw[0].name, n);
	}
	if (!s.has_power) {
		fprintf(f, "  power        : n/a (" KB_NO_POWER_NOTE ")\n");
		return;
	}
	kb_job_rates(r, &iops, &bw);
	kb_efficiency(&s, iops, bw, &iops_w, &mbs_w);
	fprintf(f, "  power        : mean %.2f W, %.0f IOPS/W, %.2f MB/s per W\n",
		s.power_uw / 1e6, iops_w, mbs_w);
}

/* fio's steadystate line: the window's means and its last criterion. */
static void print_steady(FILE *f, const struct kb_steady *ss, const struct kb_job *job)
{
	char bw[32], bwalt[32], iops[32];
	uint64_t b = kb_ss_mean(ss, true);

	fprintf(f, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
		ss->attained ? "yes" : "no", kb_bw_str(bw, sizeof(bw), b, true, job),
		kb_bw_str(bwalt, sizeof(bwalt), b, false, job),
		kb_num2str(iops, sizeof(iops), kb_ss_mean(ss, false), kb_sig_figs(job), false,
			   ""),
		kb_ss_on_bw(&ss->o) ? "bw" : "iops",
		kb_ss_on_slope(&ss->o) ? " slope" : " mean dev", ss->criterion,
		ss->o.pct ? "%" : "");
}

static void print_job_footer(FILE *f, const struct kb_result *r)
{
	uint64_t reads = r->st.dir[KIOBENCH_DIR_READ].all_ios;

	fprintf(f, "  cpu          : sys=%.2f%%, %.0f ns per I/O (workers; interrupt-side "
		"completion not included)\n", kb_sys_cpu_pct(r), kb_cpu_ns_per_io(r));
	if (r->ss)
		print_steady(f, r->ss, r->job);
	if (r->st.zero_reads)
		fprintf(f, "  warning: %" PRIu64 " of %" PRIu64 " " KB_ZERO_READS_WARNING "\n",
			r->st.zero_reads, reads);
	if (r->st.has_verify) {
		fprintf(f, "  verify       : %" PRIu64 " intervals checked, %" PRIu64 " corrupt, %"
			PRIu64 " misdirected, %" PRIu64 " stale (lost writes)",
			r->st.verify[0], r->st.verify[1], r->st.verify[2], r->st.verify[3]);
		if (r->st.verify[4])
			fprintf(f, "; %" PRIu64 " trimmed, read as zeroes", r->st.verify[4]);
		fprintf(f, "\n%s", r->verify_log);
	}
	if (r->st.has_pi) {	/* pi_act=0: the reads' tuples as kiobench checked them */
		fprintf(f, "  protection   : kiobench's own (pi_act=0): %" PRIu64 " guard, %" PRIu64
			" reference tag, %" PRIu64 " application tag errors read",
			r->st.pi_errors[KIOBENCH_PI_CHECK_GUARD],
			r->st.pi_errors[KIOBENCH_PI_CHECK_REFTAG],
			r->st.pi_errors[KIOBENCH_PI_CHECK_APPTAG]);
		if (r->st.has_pi_first_lba)
			fprintf(f, ", the first at LBA %" PRIu64 " (debugfs pi lists them)",
				r->st.pi_first_lba);
		fputc('\n', f);
	}
	print_sensors(f, r);
}

/*
 * unified_rw_reporting=mixed or both: the reads, writes and trims summed,
 * as fio's "mixed" (after the directions with both, as fio 3.33; its
 * "mixed" line of both says IOPS=0, BW=0, a bug of its, not followed).
 */
static bool print_mixed(FILE *f, const struct kb_result *r)
{
	struct kb_result m;
	bool shown;

	if (r->job->unified_rw == KB_UNIFIED_NONE)
		return false;
	if (kb_mixed_result(r, &m)) {
		fprintf(f, "  mixed: out of memory\n");
		return false;
	}
	shown = kb_dir_shown(&m, KIOBENCH_DIR_READ);
	if (shown)
		print_dir_normal(f, &m, KIOBENCH_DIR_READ, "mixed");
	kb_mixed_free(&m);
	return shown;
}

void kb_print_normal(FILE *f, const struct kb_result *r, size_t n)
{
	size_t i;
	int d;

	report_all = r;
	report_n = n;
	for (i = 0; i < n; i++) {
		bool any = false;

		print_job_header(f, &r[i]);
		for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
			if (d == KIOBENCH_DIR_SYNC)
				any |= print_mixed(f, &r[i]);
			if (!kb_dir_shown(&r[i], d) ||
			    (d != KIOBENCH_DIR_SYNC && r[i].job->unified_rw == KB_UNIFIED_MIXED))
				continue;
			print_dir_normal(f, &r[i], d, kb_dir_names[d]);
			any = true;
		}
		if (!any)
			fprintf(f, "  no I/O completed\n");
		kb_print_ops_notes(f, &r[i]);
		kb_print_stages(f, &r[i]);
		kb_print_locality(f, &r[i]);
		kb_print_latt(f, &r[i].latt);
		kb_print_measures(f, &r[i]);
		print_job_footer(f, &r[i]);
		if (i + 1 < n)
			fprintf(f, "\n");
	}
	report_all = NULL;
	report_n = 0;
}

/* ---- fio's closing lines ---------------------------------------------------- */

/*
 * One "READ:" line of group g: the directions in mask (bit d: direction d)
 * of its jobs summed, each job's rate over its own measured time.
 */
static void run_status_line(FILE *f, const struct kb_result *res, size_t n, unsigned int g,
			    unsigned int mask, const char *name, const struct kb_job *job)
{
	uint64_t bytes = 0, tmax = 0, rmin = UINT64_MAX, rmax = 0;
	uint64_t bmin = UINT64_MAX, bmax = 0, agg;
	char a[32], b[32], c[32], e[32], h[32], k[32], io[32], io2[32];
	bool any = false;
	size_t i;
	int d;

	for (i = 0; i < n; i++) {
		uint64_t jb = 0, ios = 0, bw;

		if (!res[i].job || res[i].groupid != g)
			continue;
		for (d = 0; d < KIOBENCH_DIR_SYNC; d++) {
			if (mask & (1u << d)) {
				jb += res[i].st.dir[d].bytes;
				ios += res[i].st.dir[d].ios;
			}
		}
		if (!ios)
			continue;
		any = true;
		bytes += jb;
		if (res[i].st.measured_ns > tmax)
			tmax = res[i].st.measured_ns;
		if (res[i].st.measured_ns / 1000000 < rmin)
			rmin = res[i].st.measured_ns / 1000000;
		if (res[i].st.measured_ns / 1000000 > rmax)
			rmax = res[i].st.measured_ns / 1000000;
		bw = res[i].st.measured_ns ?
		     (uint64_t)((u128)jb * 1000000000u / res[i].st.measured_ns) : 0;
		if (bw < bmin)
			bmin = bw;
		if (bw > bmax)
			bmax = bw;
	}
	if (!any)
		return;
	agg = tmax ? (uint64_t)((u128)bytes * 1000000000u / tmax) : 0;
	fprintf(f, "  %5s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64 "-%"
		PRIu64 "msec\n", name,
		kb_bw_str(a, sizeof(a), agg, true, job),
		kb_bw_str(b, sizeof(b), agg, false, job),
		kb_bw_str(c, sizeof(c), bmin, true, job),
		kb_bw_str(e, sizeof(e), bmax, true, job),
		kb_bw_str(h, sizeof(h), bmin, false, job),
		kb_bw_str(k, sizeof(k), bmax, false, job),
		kb_bytes_str(io, sizeof(io), bytes, true, job),
		kb_bytes_str(io2, sizeof(io2), bytes, false, job), rmin, rmax);
}

/*
 * fio's group lines: its first job's significant_figures and unit_base;
 * unified_rw_reporting as any of its jobs asks (fio ORs them).
 */
void kb_print_run_status(FILE *f, const struct kb_result *res, size_t n)
{
	static const char *const up[KIOBENCH_NR_DIRS] = { "READ", "WRITE", "TRIM", "SYNC" };
	const unsigned int rwt = (1u << KIOBENCH_DIR_SYNC) - 1;
	unsigned int g, last = 0;
	size_t i;
	int d;

	for (i = 0; i < n; i++)
		if (res[i].job && res[i].groupid > last)
			last = res[i].groupid;
	for (g = 0; g <= last && n; g++) {
		const struct kb_job *job = NULL;
		unsigned int unified = KB_UNIFIED_NONE;

		for (i = 0; i < n; i++) {
			if (!res[i].job || res[i].groupid != g)
				continue;
			if (!job)
				job = res[i].job;
			if (res[i].job->unified_rw > unified)
				unified = res[i].job->unified_rw;
		}
		if (!job)
			continue;
		fprintf(f, "\nRun status group %u (all jobs):\n", g);
		for (d = 0; d < KIOBENCH_DIR_SYNC && unified != KB_UNIFIED_MIXED; d++)
			run_status_line(f, res, n, g, 1u << d, up[d], job);	/* flushes move no bytes */
		if (unified != KB_UNIFIED_NONE)
			run_status_line(f, res, n, g, rwt, "MIXED", job);
	}
}

/* util: the share of the run the disk was busy (io_ticks), as fio's. */
double kb_disk_util(const struct kb_disk *d)
{
	uint64_t wall_ms = (d->t_after_ns - d->t_before_ns) / 1000000;
	double u;

	if (!wall_ms)
		return 0;
	u = 100.0 * kb_disk_delta(d, KB_DS_IOTICKS) / wall_ms;
	return u > 100 ? 100 : u;
}

void kb_print_disk_stats(FILE *f, const struct kb_disk *d, size_t n)
{
	size_t i, shown = 0;

	for (i = 0; i < n; i++) {
		if (!d[i].ok)
			continue;
		if (!shown++)
			fprintf(f, "\nDisk stats (read/write):\n");
		fprintf(f, "  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64
			", ticks=%" PRIu64 "/%" PRIu64 ", in_queue=%" PRIu64 ", util=%3.2f%%\n",
			d[i].name, kb_disk_delta(&d[i], KB_DS_RIOS),
			kb_disk_delta(&d[i], KB_DS_WIOS), kb_disk_delta(&d[i], KB_DS_RMERGE),
			kb_disk_delta(&d[i], KB_DS_WMERGE), kb_disk_delta(&d[i], KB_DS_RTICKS),
			kb_disk_delta(&d[i], KB_DS_WTICKS), kb_disk_delta(&d[i], KB_DS_INQUEUE),
			kb_disk_util(&d[i]));
	}
}

struct json_object *kb_json_disk_util(const struct kb_disk *d, size_t n)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++) {
		struct json_object *o;

		if (!d[i].ok)
			continue;
		o = json_object_new_object();
		kb_jadd(o, "name", kb_jstr(d[i].name));
		kb_jadd(o, "read_ios", kb_ju64(kb_disk_delta(&d[i], KB_DS_RIOS)));
		kb_jadd(o, "write_ios", kb_ju64(kb_disk_delta(&d[i], KB_DS_WIOS)));
		kb_jadd(o, "read_merges", kb_ju64(kb_disk_delta(&d[i], KB_DS_RMERGE)));
		kb_jadd(o, "write_merges", kb_ju64(kb_disk_delta(&d[i], KB_DS_WMERGE)));
		kb_jadd(o, "read_ticks", kb_ju64(kb_disk_delta(&d[i], KB_DS_RTICKS)));
		kb_jadd(o, "write_ticks", kb_ju64(kb_disk_delta(&d[i], KB_DS_WTICKS)));
		kb_jadd(o, "in_queue", kb_ju64(kb_disk_delta(&d[i], KB_DS_INQUEUE)));
		kb_jadd(o, "util", kb_jdbl(kb_disk_util(&d[i])));
		json_object_array_add(a, o);
	}
	return a;
}
