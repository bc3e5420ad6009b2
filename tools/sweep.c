// SPDX-License-Identifier: GPL-2.0
/*
 * Pure logic of sweeps, bursts, preconditioning and suites: value lists,
 * queue-depth splitting, duty-cycle arithmetic, the steady-state check,
 * per-step summaries (merged histograms), the saturation point, and the
 * step table and CSV rows.  No netlink: unit-tested by tests/unit/tool_test.c.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kiobench.h"

#define KB_MAX_VALUES	4096

const char *const kb_var_names[KB_VAR_NR] = {
	[KB_VAR_NONE] = "none",
	[KB_VAR_IODEPTH] = "iodepth",
	[KB_VAR_BS] = "bs",
	[KB_VAR_NUMJOBS] = "numjobs",
	[KB_VAR_DEVICES] = "devices",
	[KB_VAR_BURST] = "burst",
	[KB_VAR_ROUND] = "round",
};

/* The percentiles of the step table, in millionths of a percent. */
const uint32_t kb_sum_pcts[KB_SUM_NR_PCT] = {
	50000000, 99000000, 99900000, 99990000, 99999000,
};

static int parse_one(const char *s, bool sizes, uint64_t *v, char *err, size_t errlen)
{
	char msg[KB_ERRLEN];

	if (sizes ? kb_parse_size(s, v, msg, sizeof(msg)) :
		    kb_parse_u64(s, v, msg, sizeof(msg)))
		return kb_errf(err, errlen, "%s", msg);
	return 0;
}

static int push(uint64_t **vals, unsigned int *n, uint64_t v, const char *s,
		char *err, size_t errlen)
{
	uint64_t *nv;

	if (*n >= KB_MAX_VALUES)
		return kb_errf(err, errlen, "invalid list '%s' (more than %d values)", s,
			       KB_MAX_VALUES);
	nv = realloc(*vals, (*n + 1) * sizeof(*nv));
	if (!nv)
		return kb_errf(err, errlen, "out of memory");
	nv[(*n)++] = v;
	*vals = nv;
	return 0;
}

/*
 * "1-16,18,20,24-64:4": comma-separated values and ranges A-B, with an
 * optional step ":N" (arithmetic, default 1) or ":xN" (geometric: A, A*N,
 * ... up to B).  With sizes, values take size suffixes ("512-1m:x2").
 * Values must be within [min, max]; the order is kept as written.
 */
int kb_parse_value_list(const char *s, bool sizes, uint64_t min, uint64_t max,
			uint64_t **out, unsigned int *nr, char *err, size_t errlen)
{
	char *copy, *tok, *save = NULL;
	uint64_t *vals = NULL;
	unsigned int n = 0;
	int ret = -1;

	if (!*s)
		return kb_errf(err, errlen, "empty list");
	copy = strdup(s);
	if (!copy)
		return kb_errf(err, errlen, "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-'), *colon = strchr(tok, ':');
		uint64_t a, b, step = 1, v;
		bool geo = false;

		if (colon) {
			*colon++ = 0;
			if (!dash) {
				kb_errf(err, errlen, "invalid list '%s' (a step needs a range A-B:N)", s);
				goto out;
			}
			if (*colon == 'x' || *colon == '*') {
				geo = true;
				colon++;
			}
			if (kb_parse_u64(colon, &step, err, errlen) || step < (geo ? 2 : 1)) {
				kb_errf(err, errlen, "invalid list '%s' (bad step '%s')", s, colon);
				goto out;
			}
		}
		if (dash) {
			*dash++ = 0;
			if (parse_one(tok, sizes, &a, err, errlen) ||
			    parse_one(dash, sizes, &b, err, errlen))
				goto out;
			if (a > b) {
				kb_errf(err, errlen, "invalid list '%s' (range %s-%s goes down)", s,
					tok, dash);
				goto out;
			}
			if (geo && !a) {
				kb_errf(err, errlen, "invalid list '%s' (geometric range from 0)", s);
				goto out;
			}
		} else {
			if (parse_one(tok, sizes, &a, err, errlen))
				goto out;
			b = a;
		}
		if (a < min || b > max) {
			kb_errf(err, errlen, "invalid list '%s' (values must be %" PRIu64 "..%"
				PRIu64 ")", s, min, max);
			goto out;
		}
		for (v = a; v <= b;) {
			if (push(&vals, &n, v, s, err, errlen))
				goto out;
			if (geo ? v > b / step : b - v < step)
				break;
			v = geo ? v * step : v + step;
		}
	}
	if (!n) {
		kb_errf(err, errlen, "empty list '%s'", s);
		goto out;
	}
	*out = vals;
	*nr = n;
	vals = NULL;
	ret = 0;
out:
	free(vals);
	free(copy);
	return ret;
}

/*
 * Total queue depth qd over at most maxw workers: the largest worker count
 * w <= maxw that divides qd, each worker keeping qd / w in flight, so that
 * the total is exactly qd (a prime qd above maxw runs on one worker).
 */
void kb_split_qd(uint32_t qd, uint32_t maxw, uint32_t *workers, uint32_t *per)
{
	uint32_t w;

	if (!maxw)
		maxw = 1;
	for (w = maxw < qd ? maxw : qd; w > 1; w--)
		if (qd % w == 0)
			break;
	if (!w)
		w = 1;
	*workers = w;
	*per = qd / w;
}

/* Idle time that makes busy / (busy + idle) = pct / 100. */
uint64_t kb_duty_idle_ns(uint64_t busy_ns, unsigned int pct)
{
	if (!pct || pct >= 100)
		return 0;
	return (uint64_t)((unsigned __int128)busy_ns * (100 - pct) / pct);
}

double kb_duty_cycle(uint64_t busy_ns, uint64_t idle_ns)
{
	return busy_ns + idle_ns ? 100.0 * busy_ns / (double)(busy_ns + idle_ns) : 0.0;
}

/*
 * Steady state over the last w values of y[0..n) (SNIA PTS style): every
 * value within +-data_pct % of the window's mean, and the least-squares
 * line through the window moving by at most slope_pct % of the mean across
 * the window (|slope| * (w - 1)).
 */
bool kb_steady_state(const double *y, size_t n, size_t w, double data_pct,
		     double slope_pct, struct kb_ss *ss)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, mean, d;
	size_t i;

	memset(ss, 0, sizeof(*ss));
	if (w < 2 || n < w)
		return false;
	y += n - w;
	for (i = 0; i < w; i++) {
		sx += i;
		sy += y[i];
		sxx += (double)i * i;
		sxy += i * y[i];
	}
	mean = sy / w;
	d = w * sxx - sx * sx;
	ss->mean = mean;
	ss->slope = (w * sxy - sx * sy) / d;
	ss->intercept = (sy - ss->slope * sx) / w;
	for (i = 0; i < w; i++) {
		double dev = fabs(y[i] - mean);

		if (dev > ss->max_dev)
			ss->max_dev = dev;
	}
	ss->excursion = fabs(ss->slope) * (w - 1);
	ss->data_ok = mean > 0 && ss->max_dev <= mean * data_pct / 100.0;
	ss->slope_ok = mean > 0 && ss->excursion <= mean * slope_pct / 100.0;
	ss->reached = ss->data_ok && ss->slope_ok;
	return ss->reached;
}

/* dst += src: both sorted by lo, with the same geometry. */
int kb_hist_merge(struct kb_hist *dst, const struct kb_hist *src)
{
	struct kb_bucket *b;
	size_t i = 0, j = 0, n = 0;

	if (!src->samples && !src->nr)
		return 0;
	b = malloc((dst->nr + src->nr + 1) * sizeof(*b));
	if (!b)
		return -1;
	while (i < dst->nr || j < src->nr) {
		if (j >= src->nr || (i < dst->nr && dst->b[i].lo < src->b[j].lo)) {
			b[n++] = dst->b[i++];
		} else if (i >= dst->nr || src->b[j].lo < dst->b[i].lo) {
			b[n++] = src->b[j++];
		} else {
			b[n] = dst->b[i++];
			b[n++].count += src->b[j++].count;
		}
	}
	free(dst->b);
	dst->b = b;
	dst->nr = n;
	if (!dst->samples || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->samples += src->samples;
	dst->sum += src->sum;
	if (!dst->bits)
		dst->bits = src->bits;
	return 0;
}

/*
 * Figures of direction d over n jobs.  Jobs of one step run at the same
 * time on different devices: IOPS and MB/s are the sums of each job's rates
 * over its measured time.  sequential (bursts, one after the other): the
 * totals over the summed measured times.  Counts and bytes add up; latency
 * statistics come from the merged histograms.
 */
int kb_summarize(const struct kb_result *r, size_t n, int d, bool sequential,
		 struct kb_sum *s)
{
	struct kb_hist h = { .dir = d };
	uint64_t sum = 0, all = 0;
	size_t i;
	bool lowconf[KB_SUM_NR_PCT];

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		const struct kb_dirstat *ds = &r[i].st.dir[d];

		s->ios += ds->ios;
		s->bytes += ds->bytes;
		s->all_ios += ds->all_ios;
		s->all_bytes += ds->all_bytes;
		s->errors += ds->errors;
		s->cpu_ns += r[i].st.cpu_ns;
		all += r[i].st.dir[0].all_ios + r[i].st.dir[1].all_ios;
		sum += ds->lat_sum;
		if (ds->ios && (!s->min || ds->lat_min < s->min))
			s->min = ds->lat_min;
		if (ds->lat_max > s->max)
			s->max = ds->lat_max;
		if (sequential) {
			s->measured_ns += r[i].st.measured_ns;
		} else {
			if (r[i].st.measured_ns) {
				s->iops += ds->ios * 1e9 / r[i].st.measured_ns;
				s->bw += ds->bytes * 1e9 / r[i].st.measured_ns;
			}
			if (r[i].st.measured_ns > s->measured_ns)
				s->measured_ns = r[i].st.measured_ns;
		}
		if (r[i].has_hist[d] && kb_hist_merge(&h, &r[i].hist[d])) {
			kb_hist_free(&h);
			return -1;
		}
	}
	if (sequential && s->measured_ns) {
		s->iops = s->ios * 1e9 / s->measured_ns;
		s->bw = s->bytes * 1e9 / s->measured_ns;
	}
	s->present = s->ios || s->all_ios || s->errors;
	s->mean = kb_lat_mean(s->ios, sum);
	s->cpu_ns_per_io = all ? (double)s->cpu_ns / all : 0.0;
	s->samples = h.samples;
	s->has_pct = !kb_hist_percentiles(&h, kb_sum_pcts, KB_SUM_NR_PCT, s->pct, lowconf);
	kb_hist_free(&h);
	return 0;
}

/*
 * The queue depth that saturates the device: the first step beyond which
 * no step has more than thresh_pct % more IOPS, while the mean latency of
 * the last step is higher.  Asking it of every later step, not only the
 * next, keeps one noisy step from marking an early saturation.  -1: none.
 */
int kb_saturation(const double *iops, const double *lat, size_t n, double thresh_pct)
{
	size_t i, j;

	for (i = 0; i + 1 < n; i++) {
		bool flat = iops[i] > 0 && lat[n - 1] > lat[i];

		for (j = i + 1; flat && j < n; j++)
			flat = iops[j] <= iops[i] * (1 + thresh_pct / 100.0);
		if (flat)
			return i;
	}
	return -1;
}

/* ---- table and CSV ------------------------------------------------------------ */

static void fmt_us(char *buf, size_t len, double ns, bool ok)
{
	if (!ok)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", ns / 1000.0);
}

void kb_table_header(FILE *f, const char *var)
{
	fprintf(f, "%-10s %-5s %11s %10s %10s %10s %10s %10s %10s %10s %10s %11s %10s\n", var,
		"dir", "IOPS", "MB/s", "mean_us", "p50_us", "p99_us", "p99.9_us", "p99.99_us",
		"p99.999_us", "max_us", "samples", "cpu_ns/io");
}

void kb_table_row(FILE *f, const char *value, int d, const struct kb_sum *s)
{
	char c[6][24], m[24], x[24];
	int i;

	fmt_us(m, sizeof(m), s->mean, s->ios);
	for (i = 0; i < KB_SUM_NR_PCT; i++)
		fmt_us(c[i], sizeof(c[i]), s->pct[i], s->has_pct);
	fmt_us(x, sizeof(x), s->max, s->ios);
	fprintf(f, "%-10s %-5s %11.0f %10.1f %10s %10s %10s %10s %10s %10s %10s %11" PRIu64
		" %10.0f\n", value, d ? "write" : "read", s->iops, s->bw / 1e6, m, c[0], c[1], c[2],
		c[3], c[4], x, s->samples, s->cpu_ns_per_io);
}

void kb_csv_header(FILE *f)
{
	fprintf(f, "part,step,variable,value,dir,iodepth,numjobs,bs,devices,device,ios,bytes,"
		"measured_ns,iops,mb_s,mean_ns,p50_ns,p99_ns,p99_9_ns,p99_99_ns,p99_999_ns,"
		"min_ns,max_ns,samples,errors,busy_ns,idle_ns,cpu_ns,cpu_ns_per_io\n");
}

void kb_csv_row(FILE *f, const char *part, const struct kb_step *st, const char *device,
		int d, const struct kb_sum *s)
{
	int i;

	fprintf(f, "%s,%u,%s,%s,%s,%u,%u,%u,%u,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%.3f,%.3f,%.1f", part, st->index, kb_var_names[st->var], st->value,
		d ? "write" : "read", st->iodepth, st->numjobs, st->bs, st->nr_devices,
		device ? device : "", s->ios, s->bytes, s->measured_ns, s->iops, s->bw / 1e6, s->mean);
	for (i = 0; i < KB_SUM_NR_PCT; i++) {
		if (s->has_pct)
			fprintf(f, ",%" PRIu64, s->pct[i]);
		else
			fputc(',', f);
	}
	fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%" PRIu64 ",%.1f\n", s->min, s->max, s->samples, s->errors, st->busy_ns,
		st->idle_ns, s->cpu_ns, s->cpu_ns_per_io);
}
