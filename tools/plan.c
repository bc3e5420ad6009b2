// SPDX-License-Identifier: GPL-2.0
/*
 * Planning the steps of a part: value lists of a swept variable, the
 * split of a total queue depth over workers, duty-cycle arithmetic, the
 * scaling of a suite's part, and the label of a step.  Pure functions.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiobench.h"
#include "steps.h"
#include "suite.h"
#include "values.h"

#define KB_MAX_VALUES	4096	/* steps of a value list */

const char *const kb_var_names[KB_VAR_NR] = {
	[KB_VAR_NONE] = "none",
	[KB_VAR_IODEPTH] = "iodepth",
	[KB_VAR_BS] = "bs",
	[KB_VAR_NUMJOBS] = "numjobs",
	[KB_VAR_DEVICES] = "devices",
	[KB_VAR_BURST] = "burst",
	[KB_VAR_ROUND] = "round",
	[KB_VAR_RATE] = "rate_iops",
	[KB_VAR_STREAMS] = "streams",
	[KB_VAR_TUNE] = "tuning",
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


void kb_step_label(char *buf, size_t len, enum kb_var var, uint64_t v)
{
	if (var == KB_VAR_NONE)
		snprintf(buf, len, "-");
	else if (var != KB_VAR_BS)
		snprintf(buf, len, "%" PRIu64, v);
	else if (v && !(v % (1ULL << 30)))
		snprintf(buf, len, "%" PRIu64 "g", v >> 30);
	else if (v && !(v % (1ULL << 20)))
		snprintf(buf, len, "%" PRIu64 "m", v >> 20);
	else if (v && !(v % 1024))
		snprintf(buf, len, "%" PRIu64 "k", v >> 10);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

/* v scaled by f, rounded down to a multiple of unit, at least min (0 stays 0). */
uint64_t kb_scaled(uint64_t v, double f, uint64_t unit, uint64_t min)
{
	uint64_t s;

	if (!v)
		return 0;
	s = (uint64_t)(v * f);
	s -= s % unit;
	return s < min ? min : s;
}

/*
 * A burst must outlast the tool's per-burst overhead (collect, destroy,
 * create: milliseconds) or no idle time is short enough for the duty
 * cycle: at least KB_MIN_BURST bytes and KB_MIN_BURST_IOS transfers, and
 * at least KB_MIN_BURSTS whole bursts.
 */
static void scale_bursts(struct part_def *d, double f, uint64_t unit)
{
	uint64_t n = d->burst_total / d->burst_size;
	uint64_t min = KB_MIN_BURST_IOS * unit > KB_MIN_BURST ? KB_MIN_BURST_IOS * unit :
		       KB_MIN_BURST;

	d->burst_size = kb_scaled(d->burst_size, f, unit, min);
	n = (uint64_t)(n * f + 0.5);
	d->burst_total = (n < KB_MIN_BURSTS ? KB_MIN_BURSTS : n) * d->burst_size;
}

/*
 * Part d of a suite scaled by f (suite --scale): times, byte limits,
 * spans and bursts.  basespan is the span of parts without one of their
 * own.
 */
void kb_scale_part(struct part_def *d, double f, uint64_t basespan)
{
	uint64_t unit = d->bs ? d->bs : KB_DEFAULT_BS;

	d->runtime_ns = kb_scaled(d->runtime_ns, f, KB_NS_PER_MS, KB_MIN_STEP_NS);
	d->ramp_ns = kb_scaled(d->ramp_ns, f, KB_NS_PER_MS, 0);
	d->idle_ns = kb_scaled(d->idle_ns, f, KB_NS_PER_MS, 0);
	d->io_size = kb_scaled(d->io_size, f, unit, KB_MIN_SPAN);
	if (d->burst_size) {
		scale_bursts(d, f, unit);
		d->var = KB_VAR_BURST;
	}
	d->span = d->span ? kb_scaled(d->span, f, KB_MIN_SPAN, KB_MIN_SPAN) : basespan;
}
