// SPDX-License-Identifier: GPL-2.0
/*
 * Reports: what the three formats share.  Each format has its file:
 * fio-like normal output (normal_out.c), fio terse version 3
 * (terse_out.c) and fio's JSON schema with a "kiobench" object per job,
 * json and json+ (json_out.c).
 *
 * Our latency is submission to completion in the kernel, so fio's clat and
 * lat are the same numbers; slat is not measured and reported as zero.
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
#include "options.h"
#include "output.h"
#include "report.h"
#include "result.h"
#include "sensors.h"
#include "stats.h"
#include "steps.h"

const char *kb_state_name(int state)
{
	switch (state) {
	case KIOBENCH_STATE_NEW: return "NEW";
	case KIOBENCH_STATE_RUNNING: return "RUNNING";
	case KIOBENCH_STATE_DONE: return "DONE";
	case KIOBENCH_STATE_STOPPED: return "STOPPED";
	case KIOBENCH_STATE_FAILED: return "FAILED";
	default: return "UNKNOWN";
	}
}

int kb_ndigits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/*
 * fio's num2str: at most maxlen digits, scaled by 1000 (k, M, ...) or 1024
 * (Ki, Mi, ...), with as many decimals as fit (rounded).
 */
char *kb_num2str(char *buf, size_t len, uint64_t num, int maxlen, bool pow2,
		 const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	const char *const *pfx = pow2 ? iec : si;
	const uint64_t base = pow2 ? 1024 : 1000;
	uint64_t rem = 0;
	int idx = 0, dec;

	while (kb_ndigits(num) > maxlen && idx < 6) {
		rem = num % base;
		num /= base;
		idx++;
	}
	dec = maxlen - kb_ndigits(num) - 1;
	if (!idx || dec <= 0) {
		if (idx && rem >= base / 2)
			num++;
		snprintf(buf, len, "%" PRIu64 "%s%s", num, pfx[idx], unit);
	} else {
		uint64_t scale = 1, frac;
		int i;

		for (i = 0; i < dec; i++)
			scale *= 10;
		frac = (2 * rem * scale + base) / (2 * base);	/* rounded */
		if (frac == scale) {
			num++;
			frac = 0;
		}
		snprintf(buf, len, "%" PRIu64 ".%0*" PRIu64 "%s%s", num, dec, frac,
			 pfx[idx], unit);
	}
	return buf;
}


/* The rates of one direction over the measured time. */
void kb_calc_rates(const struct kb_result *r, int d, struct dir_calc *c)
{
	const struct kb_dirstat *ds = &r->st.dir[d];
	uint64_t t = r->st.measured_ns;

	memset(c, 0, sizeof(*c));
	c->ds = ds;
	if (ds->ios && t) {
		c->runtime_ms = t / 1000000;
		c->bw_bytes = (uint64_t)((u128)ds->bytes * 1000000000u / t);
		c->iops_int = (uint64_t)((u128)ds->ios * 1000000000u / t);
		c->iops = (double)ds->ios * 1e9 / (double)t;
	}
}

void kb_calc_dir(const struct kb_result *r, int d, struct dir_calc *c)
{
	const struct kb_dirstat *ds = &r->st.dir[d];
	unsigned int i;

	kb_calc_rates(r, d, c);
	c->mean = kb_lat_mean(ds->ios, ds->lat_sum);
	c->dev = kb_lat_stddev(ds->ios, ds->lat_sum, ds->sumsq_hi, ds->sumsq_lo);
	if (r->has_hist[d] && !kb_hist_percentiles(&r->hist[d], r->job->plist,
						   r->job->nr_plist, c->pv, c->lowconf)) {
		c->has_pct = true;
		for (i = 0; i < r->job->nr_plist; i++)
			c->any_lowconf |= c->lowconf[i];
	}
}

bool kb_dir_shown(const struct kb_result *r, int d)
{
	const struct kb_dirstat *ds = &r->st.dir[d];

	return ds->ios || ds->all_ios || ds->errors;
}

void kb_fmt_duration(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 1000000000ULL)
		snprintf(buf, len, "%.1f s", ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.1f us", ns / 1e3);
}

/* The workers' CPU time over the job's elapsed time, percent. */
double kb_sys_cpu_pct(const struct kb_result *r)
{
	return r->st.elapsed_ns ? 100.0 * r->st.cpu_ns / r->st.elapsed_ns : 0.0;
}

/* The workers' CPU time per I/O (trims and flushes too), warm-up included. */
double kb_cpu_ns_per_io(const struct kb_result *r)
{
	uint64_t ios = kb_dirs_sum(r, offsetof(struct kb_dirstat, all_ios));

	return ios ? (double)r->st.cpu_ns / ios : 0.0;
}

/* Both directions' IOPS and bytes/s over the measured time. */
void kb_job_rates(const struct kb_result *r, double *iops, double *bw)
{
	struct dir_calc c;
	int d;

	*iops = *bw = 0;
	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		kb_calc_rates(r, d, &c);
		*iops += c.iops;
		*bw += c.bw_bytes;
	}
}

/* IOPS per watt and MB/s per watt at iops and bw (bytes/s); false: no power. */
bool kb_efficiency(const struct kb_hw_sum *s, double iops, double bw,
		double *iops_w, double *mbs_w)
{
	double w = s->power_uw / 1e6;

	*iops_w = *mbs_w = 0.0;
	if (!s->has_power || !(w > 0))
		return false;
	*iops_w = iops / w;
	*mbs_w = bw / 1e6 / w;
	return true;
}

/* Both directions' latency distribution in fio's ns, us and ms bins. */
void kb_result_lat_dist(const struct kb_result *r, double *pn, double *pu, double *pm)
{
	const struct kb_hist *h[KIOBENCH_NR_DIRS];
	int d;

	for (d = 0; d < KIOBENCH_NR_DIRS; d++)
		h[d] = r->has_hist[d] ? &r->hist[d] : NULL;
	kb_lat_dist(h, KIOBENCH_NR_DIRS, pn, pu, pm);
}

static void sample_add(struct kb_samples *s, uint64_t v)
{
	double delta = (double)v - s->mean;

	if (!s->n || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->n++;
	s->mean += delta / s->n;
	s->s += delta * ((double)v - s->mean);
}

bool kb_samples_stats(const struct kb_samples *s, double *mean, double *dev)
{
	if (!s->n)
		return false;
	*mean = s->mean;
	*dev = s->n > 1 ? sqrt(s->s / (s->n - 1)) : 0.0;
	return true;
}

/* fio's sum of its jobs' samples in a group: each figure added (pure_sum). */
static void samples_sum(struct kb_samples *a, const struct kb_samples *x)
{
	if (!x->n)
		return;
	if (!a->n) {
		*a = *x;
		return;
	}
	a->min += x->min;
	a->max += x->max;
	a->n += x->n;
	a->mean += x->mean;
	a->s += x->s;
}

/* Samples of the timeline of r in windows of w_ns (0: each interval). */
static void tl_samples(const struct kb_result *r, int d, uint64_t w_ns, bool iops,
		       struct kb_samples *out)
{
	uint64_t ramp = r->st.cfg.present ? kb_kcfg_u64(&r->st.cfg, KIOBENCH_A_RAMP_NS) :
		       r->job->ramp_ns;
	uint64_t k = 1, prev = 0, start = 0, ios = 0, bytes = 0;
	size_t i, in = 0;

	memset(out, 0, sizeof(*out));
	if (!r->has_tl || !r->tl.interval_ns)
		return;
	if (w_ns >= r->tl.interval_ns)
		k = w_ns / r->tl.interval_ns;
	for (i = 0; i < r->tl.nr; prev = r->tl.p[i++].t_ns) {
		uint64_t ms;

		if (prev < ramp)	/* an interval of the warm-up, or across its end */
			continue;
		if (!in++)
			start = prev;
		ios += r->tl.p[i].ios[d];
		bytes += r->tl.p[i].bytes[d];
		if (in < k)
			continue;
		ms = (r->tl.p[i].t_ns - start) / 1000000;
		/* fio: no sample of a window without I/O, rate 0 of one of 0 ms */
		if (iops ? ios : bytes)
			sample_add(out, !ms ? 0 : iops ? ios * 1000 / ms : bytes * 1000 / ms / 1024);
		in = 0;
		ios = bytes = 0;
	}
}

void kb_rate_samples(const struct kb_result *r, int d, struct kb_samples *bw,
		     struct kb_samples *iops)
{
	if (r->has_samples) {
		*bw = r->bw_s[d];
		*iops = r->iops_s[d];
		return;
	}
	tl_samples(r, d, kb_job_rate_window_ns(r->job, false), false, bw);
	tl_samples(r, d, kb_job_rate_window_ns(r->job, true), true, iops);
}

double kb_bw_per(const struct kb_result *all, size_t n, const struct kb_result *r, int d,
		 double mean_kib)
{
	uint64_t bytes = 0, tmax = 0;
	double agg, p;
	size_t i;

	if (!all) {
		all = r;
		n = 1;
	}
	for (i = 0; i < n; i++) {
		if (!all[i].job || all[i].groupid != r->groupid)
			continue;
		bytes += all[i].st.dir[d].bytes;
		if (all[i].st.dir[d].ios && all[i].st.measured_ns > tmax)
			tmax = all[i].st.measured_ns;
	}
	agg = tmax ? (double)bytes * 1e9 / tmax : 0;
	if (agg <= 1024)	/* fio's convert_agg_kbytes_percent() */
		return 100.0;
	p = mean_kib * 100.0 / (agg / 1024.0);
	return p > 100.0 ? 100.0 : p;
}

/* ---- fio's report options ------------------------------------------------- */

bool kb_pct_shown(const struct kb_job *job)
{
	return job->clat_percentiles || job->lat_percentiles;
}

unsigned int kb_sig_figs(const struct kb_job *job)
{
	return job->sig_figs ? job->sig_figs : 4;
}

/*
 * fio's i2p: with kb_base=1024 (its default) a figure is shown in powers of
 * 2 first and of 10 in the brackets after it; kb_base=1000 the reverse.
 */
static bool kb_i2p(const struct kb_job *job)
{
	return !job->kb_base || job->kb_base == 1024;
}

/*
 * A bandwidth, first (@primary) or in the brackets after: unit_base=1 in
 * bits (fio's N2S_BITPERSEC multiplies by 8), 0 and 8 in bytes.
 */
char *kb_bw_str(char *buf, size_t len, uint64_t bytes_s, bool primary,
		const struct kb_job *job)
{
	bool bits = job->unit_base == 1;

	return kb_num2str(buf, len, bits ? bytes_s * 8 : bytes_s, kb_sig_figs(job),
			  primary == kb_i2p(job), bits ? "bit/s" : "B/s");
}

/* A number of bytes, first (@primary) or in the brackets after. */
char *kb_bytes_str(char *buf, size_t len, uint64_t bytes, bool primary,
		   const struct kb_job *job)
{
	return kb_num2str(buf, len, bytes, kb_sig_figs(job), primary == kb_i2p(job), "B");
}

static void add_dirstat(struct kb_dirstat *s, const struct kb_dirstat *t)
{
	uint64_t lo = s->sumsq_lo + t->sumsq_lo;

	if (t->ios && (!s->ios || t->lat_min < s->lat_min))
		s->lat_min = t->lat_min;
	if (t->lat_max > s->lat_max)
		s->lat_max = t->lat_max;
	s->present |= t->present;
	s->ios += t->ios;
	s->bytes += t->bytes;
	s->errors += t->errors;
	s->lat_sum += t->lat_sum;
	s->sumsq_hi += t->sumsq_hi + (lo < s->sumsq_lo);
	s->sumsq_lo = lo;
	s->all_ios += t->all_ios;
	s->all_bytes += t->all_bytes;
}

/* h = the sum of src[d] for the kept directions d < KIOBENCH_DIR_SYNC. */
static int mixed_hist(struct kb_hist *h, bool *has, const struct kb_hist *src,
		      const bool *src_has)
{
	int d;

	memset(h, 0, sizeof(*h));
	h->dir = KIOBENCH_DIR_READ;
	*has = false;
	for (d = 0; d < KIOBENCH_DIR_SYNC; d++) {
		uint64_t lo;

		if (!src_has[d])
			continue;
		*has = true;
		if (kb_hist_merge(h, &src[d]))
			return -1;
		lo = h->sumsq_lo + src[d].sumsq_lo;
		h->sumsq_hi += src[d].sumsq_hi + (lo < h->sumsq_lo);
		h->sumsq_lo = lo;
	}
	return 0;
}

int kb_mixed_result(const struct kb_result *r, struct kb_result *m)
{
	bool has[KB_NR_MET][KIOBENCH_NR_DIRS];
	struct kb_dirstat sum = { 0 };
	int d, k;

	*m = *r;
	for (d = 0; d < KIOBENCH_DIR_SYNC; d++)
		add_dirstat(&sum, &r->st.dir[d]);
	m->st.dir[KIOBENCH_DIR_READ] = sum;
	for (d = KIOBENCH_DIR_WRITE; d < KIOBENCH_DIR_SYNC; d++) {
		memset(&m->st.dir[d], 0, sizeof(m->st.dir[d]));
		m->has_hist[d] = false;
	}
	memset(m->hist, 0, sizeof(m->hist));
	memset(m->met, 0, sizeof(m->met));
	memset(has, 0, sizeof(has));
	memcpy(m->has_met, has, sizeof(has));
	m->has_hist[KIOBENCH_DIR_SYNC] = false;
	m->tl = (struct kb_timeline){ 0 };
	m->has_tl = false;
	/* fio's mixed samples: the directions' summed (pure_sum) */
	memset(m->bw_s, 0, sizeof(m->bw_s));
	memset(m->iops_s, 0, sizeof(m->iops_s));
	for (d = 0; d < KIOBENCH_DIR_SYNC; d++) {
		struct kb_samples bw, iops;

		kb_rate_samples(r, d, &bw, &iops);
		samples_sum(&m->bw_s[0], &bw);
		samples_sum(&m->iops_s[0], &iops);
	}
	m->has_samples = true;
	if (mixed_hist(&m->hist[0], &m->has_hist[0], r->hist, r->has_hist))
		goto fail;
	for (k = KB_MET_CLAT_PRIO_DEF; k <= KB_MET_CLAT_PRIO_CMD; k++)
		if (mixed_hist(&m->met[k][0], &m->has_met[k][0], r->met[k], r->has_met[k]))
			goto fail;
	return 0;
fail:
	kb_mixed_free(m);
	return -1;
}

void kb_mixed_free(struct kb_result *m)
{
	int k;

	kb_hist_free(&m->hist[0]);
	for (k = KB_MET_CLAT_PRIO_DEF; k <= KB_MET_CLAT_PRIO_CMD; k++)
		kb_hist_free(&m->met[k][0]);
}

/* ---- fio's groups ---------------------------------------------------------- */

static int worse_state(int a, int b)
{
	static const int rank[] = { [KIOBENCH_STATE_DONE] = 1, [KIOBENCH_STATE_STOPPED] = 2,
				    [KIOBENCH_STATE_FAILED] = 3 };
	int ra = a >= 0 && a <= KIOBENCH_STATE_FAILED ? rank[a] : 0;
	int rb = b >= 0 && b <= KIOBENCH_STATE_FAILED ? rank[b] : 0;

	return rb > ra ? b : a;
}

static bool is_prio_metric(int m)
{
	return m == KB_MET_CLAT_PRIO_DEF || m == KB_MET_CLAT_PRIO_CMD;
}

/* The measures a group keeps, merged over its jobs: they split its I/Os. */
static bool is_group_metric(int m)
{
	return is_prio_metric(m) || m == KB_MET_LAT_LOCAL || m == KB_MET_LAT_REMOTE;
}

/* The same priorities in both jobs' per-priority latency (the kernel's). */
static bool same_prios(const struct kb_result *a, const struct kb_result *x)
{
	const struct kb_kcfg *p = &a->st.cfg, *q = &x->st.cfg;

	return a->has_met[KB_MET_CLAT_PRIO_DEF][KIOBENCH_DIR_READ] &&
	       x->has_met[KB_MET_CLAT_PRIO_DEF][KIOBENCH_DIR_READ] &&
	       kb_kcfg_u64(p, KIOBENCH_A_PRIOCLASS) == kb_kcfg_u64(q, KIOBENCH_A_PRIOCLASS) &&
	       kb_kcfg_u64(p, KIOBENCH_A_PRIO) == kb_kcfg_u64(q, KIOBENCH_A_PRIO) &&
	       !memcmp(p->cmdprio_class, q->cmdprio_class, sizeof(p->cmdprio_class)) &&
	       !memcmp(p->cmdprio, q->cmdprio, sizeof(p->cmdprio));
}

/*
 * fio's clat_prio of a group: each priority's latency over the group's
 * jobs when they all kept it with the same priorities; else none, since a
 * split of some of the group's I/Os would not add up to its total.
 */
static bool merge_prios(struct kb_result *a, const struct kb_result *x)
{
	bool same = same_prios(a, x);
	int m, d;

	for (m = KB_MET_CLAT_PRIO_DEF; m <= KB_MET_CLAT_PRIO_CMD; m++)
		for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
			struct kb_hist *h = &a->met[m][d];
			const struct kb_hist *y = &x->met[m][d];
			uint64_t lo;

			if (!same) {
				kb_hist_free(h);
				a->has_met[m][d] = false;
				continue;
			}
			if (!x->has_met[m][d])
				continue;
			if (!a->has_met[m][d]) {
				h->dir = d;
				a->has_met[m][d] = true;
			}
			if (kb_hist_merge(h, y))
				return false;
			lo = h->sumsq_lo + y->sumsq_lo;
			h->sumsq_hi += y->sumsq_hi + (lo < h->sumsq_lo);
			h->sumsq_lo = lo;
		}
	return true;
}

/*
 * --locality's latency of local and of remote completions over a group:
 * summed when every job of the group kept the split; else none (a split
 * of some of the group's I/Os would not add up to its total).
 */
static bool merge_split(struct kb_result *a, const struct kb_result *x)
{
	bool both = a->job->locality && x->job->locality;
	int m, d;

	for (m = KB_MET_LAT_LOCAL; m <= KB_MET_LAT_REMOTE; m++)
		for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
			if (!both) {
				kb_hist_free(&a->met[m][d]);
				a->has_met[m][d] = false;
				continue;
			}
			if (!x->has_met[m][d])
				continue;
			if (!a->has_met[m][d]) {
				a->met[m][d].dir = d;
				a->has_met[m][d] = true;
			}
			if (kb_hist_merge(&a->met[m][d], &x->met[m][d]))
				return false;
		}
	return true;
}

/* Entry a += job x (x's histograms are merged, the rest stays x's). */
/*
 * A group's zone counts: the I/O ones summed; of the zones, the most any
 * job had (clones share their devices' zones).
 */
static void kb_zbd_add(struct kb_zbd_counts *a, const struct kb_zbd_counts *x)
{
	if (!x->present)
		return;
	a->present = true;
	a->written += x->written;
	a->resets += x->resets;
	a->reset_bytes += x->reset_bytes;
	a->gc_resets += x->gc_resets;
	a->beyond += x->beyond;
	a->append_in += x->append_in;
	a->append_out += x->append_out;
	a->append_reordered += x->append_reordered;
	a->opens += x->opens;
	a->closes += x->closes;
	a->finishes += x->finishes;
	a->zones = a->zones > x->zones ? a->zones : x->zones;
	a->touched = a->touched > x->touched ? a->touched : x->touched;
}

static bool merge_result(struct kb_result *a, const struct kb_result *x)
{
	int d;

	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		struct kb_dirstat *s = &a->st.dir[d];
		const struct kb_dirstat *t = &x->st.dir[d];

		samples_sum(&a->bw_s[d], &x->bw_s[d]);
		samples_sum(&a->iops_s[d], &x->iops_s[d]);
		add_dirstat(s, t);
		if (x->has_hist[d]) {
			if (!a->has_hist[d]) {
				a->hist[d].dir = d;
				a->has_hist[d] = true;
			}
			if (kb_hist_merge(&a->hist[d], &x->hist[d]))
				return false;
		}
	}
	if (x->st.elapsed_ns > a->st.elapsed_ns)
		a->st.elapsed_ns = x->st.elapsed_ns;
	if (x->st.measured_ns > a->st.measured_ns)	/* fio: the longest runtime */
		a->st.measured_ns = x->st.measured_ns;
	a->st.nr_workers += x->st.nr_workers;
	a->st.cpu_ns += x->st.cpu_ns;
	a->st.zero_reads += x->st.zero_reads;
	a->st.retries += x->st.retries;
	kb_zbd_add(&a->zbd, &x->zbd);
	if (kb_loc_add(&a->loc, &x->loc) || !merge_split(a, x))
		return false;
	for (d = 0; d < KB_VCOUNTS; d++)	/* verify's counts; its records stay the first job's */
		a->st.verify[d] += x->st.verify[d];
	a->st.has_verify |= x->st.has_verify;
	for (d = 0; d <= KIOBENCH_PI_CHECK_APPTAG; d++)
		a->st.pi_errors[d] += x->st.pi_errors[d];
	if (!a->st.has_pi_first_lba && x->st.has_pi_first_lba) {
		a->st.pi_first_lba = x->st.pi_first_lba;
		a->st.has_pi_first_lba = true;
	}
	a->st.has_pi |= x->st.has_pi;
	if (!a->st.error)
		a->st.error = x->st.error;
	a->st.state = worse_state(a->st.state, x->st.state);
	a->nr_jobs++;
	return merge_prios(a, x);
}

/*
 * The merged entry's parts that no longer say one job's: timeline,
 * measures (but the per-priority and the locality split latency, merged
 * with the group's; the locality report is summed, kb_loc_add()).
 */
static void drop_per_job(struct kb_result *a)
{
	int d, m;

	kb_timeline_free(&a->tl);
	a->has_tl = false;
	for (m = 0; m < KB_NR_MET; m++)
		for (d = 0; d < KIOBENCH_NR_DIRS && !is_group_metric(m); d++) {
			kb_hist_free(&a->met[m][d]);
			a->has_met[m][d] = false;
		}
}

struct kb_result *kb_group_results(struct kb_result *res, size_t n, size_t *nout)
{
	struct kb_result *out = calloc(n ? n : 1, sizeof(*out));
	size_t i, k, no = 0;

	if (!out)
		return NULL;
	for (i = 0; i < n; i++) {
		struct kb_result *x = &res[i];
		bool merged = false;
		int d;

		if (!x->job)
			continue;
		/* fio's bw and iops samples, before a merge drops the timeline */
		for (d = 0; d < KIOBENCH_NR_DIRS && !x->has_samples; d++)
			kb_rate_samples(x, d, &x->bw_s[d], &x->iops_s[d]);
		x->has_samples = true;
		if (x->job->group_reporting) {
			for (k = 0; k < no && !merged; k++) {
				struct kb_result *a = &out[k];

				if (a->groupid != x->groupid || !a->job->group_reporting)
					continue;
				if (a->nr_jobs <= 1)
					drop_per_job(a);
				if (!merge_result(a, x)) {
					free(out);
					return NULL;
				}
				merged = true;
			}
		}
		if (!merged) {
			out[no] = *x;
			if (!out[no].nr_jobs)
				out[no].nr_jobs = 1;
			memset(x, 0, sizeof(*x));	/* moved */
			no++;
		} else {
			/* what was not merged stays x's and is freed with res */
		}
	}
	*nout = no;
	return out;
}
