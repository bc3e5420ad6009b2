// SPDX-License-Identifier: GPL-2.0
/*
 * fio's random_distribution.  The kernel draws zoned and zoned_abs
 * offsets (a percent of the accesses picks the zone, then a block of it,
 * uniformly); this file reads the option as fio 3.33 does:
 *   - a zone is ACCESS/SIZE, ACCESS an integer percent of the accesses;
 *   - zoned: SIZE a percent of the span (above 100: 100); a zone without
 *     one (or 0) gets an equal part of what the others leave of 100;
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distrib.h"
#include "values.h"

#define KB_MAX_ZONES	256
#define KB_ZONE_MISSING	UINT64_MAX

static const char *const kb_dist_refused[] = { "zipf", "pareto", "normal" };

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
	if (slash && !abs) {
		size = strtoul(slash, &end, 10);
		if (!*slash || *end)
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

int kb_parse_random_dist(const char *val, unsigned int kb_base, struct kb_job *job,
			 char *err, size_t errlen)
{
	size_t len = strcspn(val, ":");
	unsigned int i;

	if (!strcmp(val, "random")) {
		kb_zones_free(job);
		return 0;
	}
	if (!strncmp(val, "zoned:", 6))
		return parse_zoned(val + 6, false, kb_base, job, err, errlen);
	if (!strncmp(val, "zoned_abs:", 10))
		return parse_zoned(val + 10, true, kb_base, job, err, errlen);
	for (i = 0; i < sizeof(kb_dist_refused) / sizeof(kb_dist_refused[0]); i++)
		if (len == strlen(kb_dist_refused[i]) && !strncmp(val, kb_dist_refused[i], len))
			return kb_errf(err, errlen, "random_distribution=%s is refused: not "
				       "implemented yet (random, zoned and zoned_abs are)",
				       kb_dist_refused[i]);
	return kb_errf(err, errlen, "invalid random_distribution '%s' (random, "
		       "zoned:ACCESS/SIZE%%:... or zoned_abs:ACCESS/SIZE:...)", val);
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
	for (d = 0; d < KIOBENCH_NR_DIRS && at < len; d++) {
		if (d)
			at += snprintf(buf + at, len - at, ",");
		for (i = 0; i < nr[d] && at < len; i++)
			at += snprintf(buf + at, len - at, "%s%u/%" PRIu64, i ? ":" : "",
				       zones[d][i].access, zones[d][i].size);
	}
}
