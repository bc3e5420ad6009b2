// SPDX-License-Identifier: GPL-2.0
/*
 * fio's random_distribution.  The kernel draws the offsets: zoned and
 * zoned_abs from each direction's zones (a percent of the accesses picks
 * the zone, then a block of it, uniformly), zipf and pareto from a table
 * of the ranks' inverse distribution that this file computes with fio's
 * own formulas (lib/zipf.c), the ranks scattered over the span by a keyed
 * permutation.  The option is read as fio 3.33 reads it:
 *   - zipf[:THETA] (1.1 when not given; not 1.0), pareto[:H] (0.2;
 *     0 < H < 1); fio's center (a third field) is refused;
 *   - a zone is ACCESS/SIZE, ACCESS an integer percent of the accesses;
 *   - zoned: SIZE a percent of the span (above 100: 100); a zone without
 *     one (or 0, or an empty one: "20/") gets an equal part of what the
 *     others leave of 100;
 *   - zoned_abs: SIZE in bytes, with fio's suffixes;
 *   - a direction's accesses add up to exactly 100, its sizes to at most
 *     100 percent (zoned_abs: at most the span, which the kernel checks);
 *   - "A,B[,C]": the reads' zones, the writes' (and the trims'); one set
 *     is every direction's; an empty set leaves that direction uniform.
 * Where fio would send a zone's accesses to one block (a zone whose size
 * comes out 0) it is refused, and so are more than 256 zones (fio keeps
 * the first 256 and then fails on the sum).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distrib.h"
#include "values.h"

#define KB_MAX_ZONES	256
#define KB_ZONE_MISSING	UINT64_MAX

/* One zone, "ACCESS[/SIZE]" (tok is modified). */
static int zone_entry(char *tok, bool abs, unsigned int kb_base, struct kb_zone *z,
		      char *err, size_t errlen)
{
	char *slash = strchr(tok, '/'), *end;
	unsigned long access;
	uint64_t size = KB_ZONE_MISSING;

	if (slash)
		*slash++ = '\0';
	access = strtoul(tok, &end, 10);
	if (!*tok || *end || access > 100)
		return kb_errf(err, errlen, "invalid access percentage '%s' (0..100)", tok);
	if (slash && abs && kb_parse_size_base(slash, kb_base, &size, err, errlen))
		return -1;
	if (slash && !abs && !*slash) {
		/* fio: atoi("") is 0, a zone without a size ("20/" is "20") */
		size = KB_ZONE_MISSING;
	} else if (slash && !abs) {
		size = strtoul(slash, &end, 10);
		if (*end)
			return kb_errf(err, errlen, "invalid size percentage '%s'", slash);
		if (size > 100)
			size = 100;
		else if (!size)
			size = KB_ZONE_MISSING;
	}
	if (abs && (size == KB_ZONE_MISSING || !size))
		return kb_errf(err, errlen, "zone '%s' has no size: fio would send all its "
			       "accesses to one block", tok);
	if (abs && size % KB_SECTOR)
		return kb_errf(err, errlen, "zone size %" PRIu64 " is not a multiple of 512",
			       size);
	z->access = access;
	z->size = size;
	return 0;
}

/* The zones without a size share what the others leave of 100, as fio's. */
static int zone_sizes(struct kb_zone *v, unsigned int n, bool abs, char *err, size_t errlen)
{
	unsigned int access = 0, sum = 0, missing = 0, i;

	for (i = 0; i < n; i++) {
		access += v[i].access;
		if (v[i].size == KB_ZONE_MISSING)
			missing++;
		else if (!abs)
			sum += v[i].size;
	}
	if (access != 100)
		return kb_errf(err, errlen, "access percentages add up to %u, not 100", access);
	if (sum > 100)
		return kb_errf(err, errlen, "size percentages add up to %u (more than 100)", sum);
	for (i = 0; i < n; i++) {
		if (v[i].size != KB_ZONE_MISSING)
			continue;
		v[i].size = (100 - sum) / missing;
		if (!v[i].size)
			return kb_errf(err, errlen, "%u%% of the span left for %u zones without "
				       "a size: fio would send a zone's accesses to one block",
				       100 - sum, missing);
	}
	return 0;
}

/* One direction's set "A/S:A/S..." into *out (NULL and 0 if empty). */
static int zone_set(const char *set, bool abs, unsigned int kb_base, struct kb_zone **out,
		    unsigned int *nr, char *err, size_t errlen)
{
	char *copy = strdup(set), *tok, *save = NULL;
	struct kb_zone *v = calloc(KB_MAX_ZONES, sizeof(*v));
	unsigned int n = 0;

	if (!copy || !v) {
		free(copy);
		free(v);
		return kb_errf(err, errlen, "out of memory");
	}
	for (tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		if (n == KB_MAX_ZONES) {
			kb_errf(err, errlen, "more than %d zones", KB_MAX_ZONES);
			goto fail;
		}
		if (zone_entry(tok, abs, kb_base, &v[n], err, errlen))
			goto fail;
		n++;
	}
	if (n && zone_sizes(v, n, abs, err, errlen))
		goto fail;
	free(copy);
	if (!n) {
		free(v);
		v = NULL;
	}
	*out = v;
	*nr = n;
	return 0;
fail:
	free(copy);
	free(v);
	return -1;
}

void kb_zones_free(struct kb_job *job)
{
	int d;

	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		free(job->zones[d]);
		job->zones[d] = NULL;
		job->nr_zones[d] = 0;
	}
}

/* "zoned:..." / "zoned_abs:...": the sets after the prefix, by direction. */
static int parse_zoned(const char *sets, bool abs, unsigned int kb_base, struct kb_job *job,
		       char *err, size_t errlen)
{
	struct kb_zone *z[KIOBENCH_NR_DIRS] = { NULL };
	unsigned int nr[KIOBENCH_NR_DIRS] = { 0 }, n;
	const char *comma = strchr(sets, ',');
	char *read = strndup(sets, comma ? (size_t)(comma - sets) : strlen(sets));
	char *write = comma ? strndup(comma + 1, strcspn(comma + 1, ",")) : NULL;
	int ret = -1;

	if (!read || (comma && !write)) {
		kb_errf(err, errlen, "out of memory");
		goto out;
	}
	/* the trims' set (after a second ','): read as fio does, unused */
	if (comma && strchr(comma + 1, ',')) {
		struct kb_zone *trim;

		if (zone_set(strchr(comma + 1, ',') + 1, abs, kb_base, &trim, &n, err, errlen))
			goto out;
		free(trim);
	}
	if (zone_set(read, abs, kb_base, &z[KIOBENCH_DIR_READ], &nr[KIOBENCH_DIR_READ],
		     err, errlen) ||
	    zone_set(comma ? write : read, abs, kb_base, &z[KIOBENCH_DIR_WRITE],
		     &nr[KIOBENCH_DIR_WRITE], err, errlen))
		goto out;
	kb_zones_free(job);
	memcpy(job->zones, z, sizeof(z));
	memcpy(job->nr_zones, nr, sizeof(nr));
	memset(z, 0, sizeof(z));
	job->zones_abs = abs;
	ret = 0;
out:
	free(z[0]);
	free(z[1]);
	free(read);
	free(write);
	return ret;
}

/*
 * "zipf[:THETA]", "pareto[:H]", "normal[:DEV]": fio's defaults 1.1, 0.2
 * and 0; theta not 1, 0 < H < 1, 0 <= DEV < 100.  fio's third field, the
 * center, is refused: fio adds it to the hashed ranks, so it moves only
 * which blocks are hot (kiobench's are its permutation's, by the seed).
 */
static int parse_skew(const char *val, size_t len, enum kb_skew skew, struct kb_job *job,
		      char *err, size_t errlen)
{
	bool zipf = skew == KB_SKEW_ZIPF;
	double v = zipf ? 1.1 : skew == KB_SKEW_PARETO ? 0.2 : 0.0;
	char *end;

	if (val[len] == ':') {
		v = strtod(val + len + 1, &end);
		if (end == val + len + 1 || (*end && *end != ':') || !isfinite(v))
			return kb_errf(err, errlen, "invalid %.*s value '%s'", (int)len, val,
				       val + len + 1);
		if (*end == ':')
			return kb_errf(err, errlen, "random_distribution center ('%s') is refused: "
				       "not implemented yet", end + 1);
	}
	if (zipf && v == 1.0)
		return kb_errf(err, errlen, "zipf theta must differ from 1.0 (fio's rule)");
	if (skew == KB_SKEW_PARETO && (v <= 0.0 || v >= 1.0))
		return kb_errf(err, errlen, "pareto input %g out of range (0 < H < 1)", v);
	if (skew == KB_SKEW_NORMAL && (v < 0.0 || v >= 100.0))
		return kb_errf(err, errlen, "normal deviation %g out of range (0 <= DEV < 100)", v);
	kb_zones_free(job);
	job->skew = skew;
	job->skew_val = v;
	return 0;
}

int kb_parse_random_dist(const char *val, unsigned int kb_base, struct kb_job *job,
			 char *err, size_t errlen)
{
	size_t len = strcspn(val, ":");
	int ret;

	if (!strcmp(val, "random")) {
		kb_zones_free(job);
		job->skew = KB_SKEW_NONE;
		return 0;
	}
	if (len == 4 && !strncmp(val, "zipf", 4))
		return parse_skew(val, len, KB_SKEW_ZIPF, job, err, errlen);
	if (len == 6 && !strncmp(val, "pareto", 6))
		return parse_skew(val, len, KB_SKEW_PARETO, job, err, errlen);
	if (len == 6 && !strncmp(val, "normal", 6))
		return parse_skew(val, len, KB_SKEW_NORMAL, job, err, errlen);
	ret = -2;
	if (!strncmp(val, "zoned:", 6))
		ret = parse_zoned(val + 6, false, kb_base, job, err, errlen);
	if (!strncmp(val, "zoned_abs:", 10))
		ret = parse_zoned(val + 10, true, kb_base, job, err, errlen);
	if (ret == 0)
		job->skew = KB_SKEW_NONE;
	if (ret != -2)
		return ret;
	return kb_errf(err, errlen, "invalid random_distribution '%s' (random, "
		       "zipf[:THETA], pareto[:H], normal[:DEV], zoned:ACCESS/SIZE%%:... or "
		       "zoned_abs:ACCESS/SIZE:...)", val);
}

void kb_random_dist_str(const struct kb_zone *const zones[KIOBENCH_NR_DIRS],
			const unsigned int nr[KIOBENCH_NR_DIRS], bool abs,
			char *buf, size_t len)
{
	size_t at = 0;
	unsigned int i;
	int d;

	if (!nr[0] && !nr[1]) {
		snprintf(buf, len, "random");
		return;
	}
	at += snprintf(buf, len, "%s:", abs ? "zoned_abs" : "zoned");
	/* fio's R,W pair: trims and flushes take no zones */
	for (d = 0; d <= KIOBENCH_DIR_WRITE && at < len; d++) {
		if (d)
			at += snprintf(buf + at, len - at, ",");
		for (i = 0; i < nr[d] && at < len; i++)
			at += snprintf(buf + at, len - at, "%s%u/%" PRIu64, i ? ":" : "",
				       zones[d][i].access, zones[d][i].size);
	}
}

/* ---- zipf, pareto and normal: the table of random-cdf ----------------------------- */

struct skew {
	bool zipf;
	double n, theta, zetan, alpha, eta, pareto_pow;
};

/*
 * fio's rank (from 0) for a uniform draw u in [0, 1] (lib/zipf.c): zipf
 * after Gray et al.'s approximation, with fio's zeta(n) summed over at
 * most its 10M first terms; pareto (n - 1) u^(log h / log(1 - h)).
 * Clamped to [0, n - 1].
 */
static double skew_rank(const struct skew *k, double u)
{
	double v, rz;

	if (k->zipf) {
		rz = u * k->zetan;
		if (rz < 1.0)
			return 0;
		if (rz < 1.0 + pow(0.5, k->theta))
			return 1;
		v = floor(k->n * pow(k->eta * u - k->eta + 1.0, k->alpha));
	} else {
		v = floor((k->n - 1) * pow(u, k->pareto_pow));
	}
	if (!(v >= 0))
		return 0;
	return v > k->n - 1 ? k->n - 1 : v;
}

/* The fewest draws x (of 2^32) whose rank is at least r. */
static uint64_t skew_cum(const struct skew *k, uint64_t r)
{
	uint64_t lo = 0, hi = KB_CDF_ONE;	/* rank(lo) < r <= rank(hi), or hi */

	if (skew_rank(k, 0) >= (double)r)
		return 0;
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (skew_rank(k, (double)mid / (double)KB_CDF_ONE) >= (double)r)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

static void skew_init(struct skew *k, const struct kb_job *job, uint64_t n)
{
	uint64_t i, terms = n < 10000000 ? n : 10000000;

	memset(k, 0, sizeof(*k));
	k->zipf = job->skew == KB_SKEW_ZIPF;
	k->n = (double)n;
	k->theta = job->skew_val;
	if (!k->zipf) {
		k->pareto_pow = log(job->skew_val) / log(1.0 - job->skew_val);
		return;
	}
	for (i = 0; i < terms; i++)
		k->zetan += pow(1.0 / (double)(i + 1), k->theta);
	k->alpha = 1.0 / (1.0 - k->theta);
	k->eta = (1.0 - pow(2.0 / k->n, 1.0 - k->theta)) /
		 (1.0 - (1.0 + pow(0.5, k->theta)) / k->zetan);
}

/*
 * normal: fio's rank (lib/gauss.c) is the mean of 12 uniform draws in
 * [0, n] (Irwin-Hall's distribution of 12 terms, scaled: sd n / 12),
 * plus a uniform deviation in [-S/2, S/2), S = DEV % of n (at most n / 2),
 * then hashed over the span.  As the ranks are scattered anyway, the table
 * lists them by likelihood: rank k is the k-th nearest the middle, so that
 * the first ranks are the hottest as zipf's are, and the share below k is
 * the probability of a draw within k / 2 of the middle.  fio folds a
 * deviation that would pass the end back in; here the draws past the span
 * (under 1 in 10,000 at the largest DEV) go to the last piece.
 */
#define KB_IH_TERMS	12

/* Irwin-Hall's CDF of 12 terms at y in [0, 12], and its integral from 0. */
static double ih_sum(double y, int power, double scale)
{
	double c = 1, sum = 0;
	int k;

	for (k = 0; k <= KB_IH_TERMS && k < y; k++) {
		sum += (k % 2 ? -c : c) * pow(y - k, power);
		c = c * (KB_IH_TERMS - k) / (k + 1);
	}
	return sum / scale;
}

static double ih_cdf(double y)
{
	if (y <= 0)
		return 0;
	if (y >= KB_IH_TERMS)
		return 1;
	if (y > KB_IH_TERMS / 2)
		return 1 - ih_cdf(KB_IH_TERMS - y);
	return ih_sum(y, KB_IH_TERMS, tgamma(KB_IH_TERMS + 1));
}

static double ih_cdf_integral(double y)
{
	if (y <= 0)
		return 0;
	if (y >= KB_IH_TERMS)
		return y - KB_IH_TERMS / 2;
	if (y > KB_IH_TERMS / 2)
		return y - KB_IH_TERMS / 2 + ih_cdf_integral(KB_IH_TERMS - y);
	return ih_sum(y, KB_IH_TERMS + 1, tgamma(KB_IH_TERMS + 2));
}

/* The share of fio's normal ranks over n below x, with deviation width s. */
static double normal_cdf(double n, double s, double x)
{
	double k = KB_IH_TERMS / n;

	if (s < 1)
		return ih_cdf(x * k);
	return (ih_cdf_integral((x + s / 2) * k) - ih_cdf_integral((x - s / 2) * k)) /
	       (s * k);
}

static void normal_table(const struct kb_job *job, uint64_t n, struct kiobench_cdf_ent *t,
			 unsigned int *nr)
{
	double s = ceil((double)n * job->skew_val / 100.0), mid = (double)n / 2, share;
	unsigned int steps = n < KB_CDF_MAX - 1 ? (unsigned int)n : KB_CDF_MAX - 1, i;
	uint64_t cum = 0;

	if (s > (double)(n / 2))
		s = (double)(n / 2);
	for (i = 0; i < steps; i++) {
		t[i].rank = (uint64_t)((double)i * (double)n / steps);
		share = normal_cdf((double)n, s, mid + t[i].rank / 2.0) -
			normal_cdf((double)n, s, mid - t[i].rank / 2.0);
		if ((uint64_t)llround(share * KB_CDF_ONE) > cum)
			cum = (uint64_t)llround(share * KB_CDF_ONE);
		t[i].cum = cum < KB_CDF_ONE ? cum : KB_CDF_ONE;
	}
	t[steps].rank = n;
	t[steps].cum = KB_CDF_ONE;
	*nr = steps + 1;
}

/*
 * zipf and pareto: entries at ranks 0, 1, ... 63, then growing by a factor that fits
 * the rest in KB_CDF_MAX entries (1.3 % at 2^40 blocks): the ranks of a
 * piece are taken as equally likely, off by that factor to the power
 * theta at most.
 */
int kb_skew_table(const struct kb_job *job, uint64_t n, struct kiobench_cdf_ent **out,
		  unsigned int *nr, char *err, size_t errlen)
{
	const uint64_t singles = 64;
	struct kiobench_cdf_ent *t;
	double grow = 1.0;
	unsigned int k = 0;
	struct skew sk;
	uint64_t r = 0;

	if (n < 2)
		return kb_errf(err, errlen, "random_distribution: the span has %" PRIu64
			       " block(s) of the smallest transfer size", n);
	t = calloc(KB_CDF_MAX, sizeof(*t));
	if (!t)
		return kb_errf(err, errlen, "out of memory");
	*out = t;
	if (job->skew == KB_SKEW_NORMAL) {
		normal_table(job, n, t, nr);
		return 0;
	}
	skew_init(&sk, job, n);
	if (n > singles)	/* room too for the steps of 1 just past the singles */
		grow = exp(log((double)n / singles) / (KB_CDF_MAX - 3 * singles));
	while (r < n && k < KB_CDF_MAX - 1) {
		t[k].rank = r;
		t[k].cum = skew_cum(&sk, r);
		k++;
		r = r < singles ? r + 1 : (uint64_t)((double)r * grow) > r ?
		    (uint64_t)((double)r * grow) : r + 1;
	}
	t[k].rank = n;
	t[k].cum = KB_CDF_ONE;
	*nr = k + 1;
	return 0;
}

double kb_cdf_share(const struct kiobench_cdf_ent *t, unsigned int nr, uint64_t r)
{
	unsigned int i;

	for (i = 1; i < nr; i++)
		if (t[i].rank >= r)
			return ((double)t[i - 1].cum + (double)(t[i].cum - t[i - 1].cum) *
				(double)(r - t[i - 1].rank) / (double)(t[i].rank - t[i - 1].rank)) /
			       (double)KB_CDF_ONE;
	return 1.0;
}
