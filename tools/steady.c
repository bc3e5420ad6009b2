// SPDX-License-Identifier: GPL-2.0
/*
 * fio's steady state (HOWTO: steadystate, ss_dur, ss_ramp).  Once a second
 * after ss_ramp and one more second, the job's IOPS and bandwidth over the
 * last second are a sample; once ss_dur samples are in, the window of the
 * last ss_dur of them is judged after each new one:
 *   - iops, bw: the largest distance of a sample from the window's mean;
 *   - iops_slope, bw_slope: the least-squares slope of the samples against
 *     their second (0, 1, ...);
 * as a percent of the mean when the limit has '%'.  Below the limit (the
 * slope's absolute value), steady state is attained and the job stops, as
 * in fio.  The rates are the totals' differences over the time between
 * calls, as fio's are over the time between its checks.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "steady.h"
#include "values.h"

static const char *const crit_names[] = {
	[KB_SS_IOPS] = "iops", [KB_SS_IOPS_SLOPE] = "iops_slope",
	[KB_SS_BW] = "bw", [KB_SS_BW_SLOPE] = "bw_slope",
};

static bool is_bw(const struct kb_ss_opts *o)
{
	return o->crit == KB_SS_BW || o->crit == KB_SS_BW_SLOPE;
}

static bool is_slope(const struct kb_ss_opts *o)
{
	return o->crit == KB_SS_IOPS_SLOPE || o->crit == KB_SS_BW_SLOPE;
}

int kb_ss_parse(const char *val, unsigned int kb_base, struct kb_ss_opts *o, char *err,
		size_t errlen)
{
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	struct kb_ss_opts n = *o;
	char num[64], *end;
	unsigned int c;
	uint64_t bytes;

	for (c = 0; c < sizeof(crit_names) / sizeof(crit_names[0]); c++)
		if (strlen(crit_names[c]) == len && !strncmp(val, crit_names[c], len))
			break;
	if (c == sizeof(crit_names) / sizeof(crit_names[0]))
		return kb_errf(err, errlen, "invalid steadystate '%s' (iops, iops_slope, bw or "
			       "bw_slope, then :LIMIT or :PERCENT%%)", val);
	if (!colon || !colon[1])
		return kb_errf(err, errlen, "steadystate '%s': the limit must follow the "
			       "criterion (fio's rule)", val);
	n.crit = c;
	snprintf(num, sizeof(num), "%s", colon + 1);
	n.pct = strchr(num, '%') != NULL;
	if (n.pct)
		*strchr(num, '%') = '\0';
	if (n.pct || !is_bw(&n)) {
		n.limit = strtod(num, &end);
		if (end == num || *end || !isfinite(n.limit) || n.limit < 0)
			return kb_errf(err, errlen, "invalid steadystate limit '%s'", colon + 1);
	} else {
		if (kb_parse_size_base(num, kb_base, &bytes, err, errlen))
			return -1;
		n.limit = (double)bytes;
	}
	*o = n;
	return 0;
}

void kb_ss_str(const struct kb_ss_opts *o, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%f%s", crit_names[o->crit], o->limit, o->pct ? "%" : "");
}

void kb_ss_opt_str(const struct kb_ss_opts *o, char *buf, size_t len)
{
	if (is_bw(o) && !o->pct)
		snprintf(buf, len, "%s:%.0f", crit_names[o->crit], o->limit);
	else
		snprintf(buf, len, "%s:%g%s", crit_names[o->crit], o->limit, o->pct ? "%" : "");
}

bool kb_ss_on_bw(const struct kb_ss_opts *o)
{
	return is_bw(o);
}

bool kb_ss_on_slope(const struct kb_ss_opts *o)
{
	return is_slope(o);
}

int kb_ss_check_opts(const struct kb_ss_opts *o, char *err, size_t errlen)
{
	if (o->dur_s == 1 && is_slope(o))
		return kb_errf(err, errlen, "steadystate %s with ss_dur=1s: a slope needs 2 "
			       "samples at least (fio would never find it)", crit_names[o->crit]);
	return 0;
}

int kb_ss_init(struct kb_steady *ss, const struct kb_ss_opts *o)
{
	memset(ss, 0, sizeof(*ss));
	ss->o = *o;
	ss->iops = calloc(o->dur_s, sizeof(*ss->iops));
	ss->bw = calloc(o->dur_s, sizeof(*ss->bw));
	if (!ss->iops || !ss->bw) {
		kb_ss_free(ss);
		return -1;
	}
	return 0;
}

void kb_ss_free(struct kb_steady *ss)
{
	free(ss->iops);
	free(ss->bw);
	ss->iops = ss->bw = NULL;
}

uint64_t kb_ss_at(const struct kb_steady *ss, bool bw, uint32_t i)
{
	uint32_t d = ss->o.dur_s, first = ss->n > d ? ss->n % d : 0;

	return (bw ? ss->bw : ss->iops)[(first + i) % d];
}

uint64_t kb_ss_mean(const struct kb_steady *ss, bool bw)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < ss->o.dur_s; i++)
		sum += (bw ? ss->bw : ss->iops)[i];
	return ss->o.dur_s ? sum / ss->o.dur_s : 0;
}

/* The full window judged: criterion, deviation, slope; true when below the limit. */
static bool judge(struct kb_steady *ss)
{
	const uint32_t d = ss->o.dur_s;
	const bool bw = is_bw(&ss->o);
	double mean, sy = 0, sxy = 0, sx = d * (d - 1) / 2.0;
	double sxx = (d - 1.0) * d * (2.0 * d - 1) / 6.0, v;
	uint32_t i;

	for (i = 0; i < d; i++) {
		v = (double)kb_ss_at(ss, bw, i);
		sy += v;
		sxy += i * v;
	}
	mean = sy / d;
	ss->deviation = 0;
	for (i = 0; i < d; i++)
		ss->deviation = fmax(ss->deviation, fabs((double)kb_ss_at(ss, bw, i) - mean));
	ss->slope = d > 1 ? (sxy - sx * sy / d) / (sxx - sx * sx / d) : 0;
	ss->criterion = is_slope(&ss->o) ? ss->slope : ss->deviation;
	if (ss->o.pct && mean == 0)	/* fio's 0/0: never below the limit */
		return false;
	if (ss->o.pct)
		ss->criterion = 100.0 * ss->criterion / mean;
	return fabs(ss->criterion) < ss->o.limit;
}

bool kb_ss_sample(struct kb_steady *ss, uint64_t now_ns, uint64_t elapsed_ns, uint64_t ios,
		  uint64_t bytes)
{
	uint64_t dt = now_ns - ss->prev_ns, slot;
	bool take = ss->prev_ns && dt && elapsed_ns >= ss->o.ramp_ns + 1000000000ULL;

	if (take && !ss->attained) {
		slot = ss->n % ss->o.dur_s;
		ss->iops[slot] = (uint64_t)((ios - ss->prev_ios) * 1e9 / dt);
		ss->bw[slot] = (uint64_t)((bytes - ss->prev_bytes) * 1e9 / dt);
		ss->n++;
		if (ss->n >= ss->o.dur_s && judge(ss))
			ss->attained = true;
	}
	ss->prev_ns = now_ns;
	ss->prev_ios = ios;
	ss->prev_bytes = bytes;
	return ss->attained;
}

/* ---- rate_min, rate_iops_min, max_latency ----------------------------------- */

static const char *const dir_names[KB_LIMIT_DIRS] = { "read", "write", "trim" };

bool kb_limits_any(const struct kb_limits *m)
{
	int d;

	for (d = 0; d < KB_LIMIT_DIRS; d++)
		if (m->bps[d] || m->iops[d] || m->max_lat_ns[d])
			return true;
	return false;
}

/* A direction's rate over the cycle that ends at elapsed_ns: EIO if under. */
static int min_rate(const struct kb_limits *m, struct kb_limits_state *c, int d,
		    uint64_t elapsed_ns, const struct kb_limits_counts *n, char *msg, size_t len)
{
	uint64_t spent = elapsed_ns - c->ns[d], got;

	if (c->ns[d] && spent < m->cycle_ms * 1000000ULL)
		return 0;
	if (c->ns[d] && m->bps[d]) {
		got = (uint64_t)((n->bytes[d] - c->bytes[d]) * 1e9 / spent);
		if (got < m->bps[d]) {
			snprintf(msg, len, "%s: rate_min=%" PRIu64 "B/s not met, got %" PRIu64
				 "B/s", dir_names[d], m->bps[d], got);
			return EIO;
		}
	} else if (c->ns[d]) {
		got = (uint64_t)((n->ios[d] - c->ios[d]) * 1e9 / spent);
		if (got < m->iops[d]) {
			snprintf(msg, len, "%s: rate_iops_min=%" PRIu64 " not met, got %" PRIu64
				 " IOPS", dir_names[d], m->iops[d], got);
			return EIO;
		}
	}
	c->ns[d] = elapsed_ns;
	c->bytes[d] = n->bytes[d];
	c->ios[d] = n->ios[d];
	return 0;
}

int kb_limits_check(const struct kb_limits *m, struct kb_limits_state *c, uint64_t elapsed_ns,
		    uint64_t ramp_ns, const struct kb_limits_counts *n, char *msg, size_t len)
{
	int d, ret;

	for (d = 0; d < KB_LIMIT_DIRS; d++)
		if (m->max_lat_ns[d] && n->lat_max[d] > m->max_lat_ns[d]) {
			snprintf(msg, len, "%s: latency of %" PRIu64 " usec exceeds specified max "
				 "(%" PRIu64 " usec)", dir_names[d], n->lat_max[d] / 1000,
				 m->max_lat_ns[d] / 1000);
			return ETIMEDOUT;
		}
	if (elapsed_ns < ramp_ns + 2000000000ULL)
		return 0;
	for (d = 0; d < KB_LIMIT_DIRS; d++) {
		if ((!m->bps[d] && !m->iops[d]) || !n->bytes[d])
			continue;
		ret = min_rate(m, c, d, elapsed_ns, n, msg, len);
		if (ret)
			return ret;
	}
	return 0;
}
