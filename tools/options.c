// SPDX-License-Identifier: GPL-2.0
/*
 * The option table, shared by getopt_long (main.c) and job files
 * (jobfile.c), and the value parsers behind it.  fio's option names and
 * value syntax.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kiobench.h"

#define KB_MAX_CPU	8192	/* CONFIG_NR_CPUS upper bound */
#define KB_MAX_LIST	4096	/* devices / bssplit entries, sanity only */
#define KB_SECTOR	512u

/* Default percentiles: fio's list plus 99.999. */
static const uint32_t kb_default_plist[] = {
	1000000, 5000000, 10000000, 20000000, 30000000, 40000000, 50000000,
	60000000, 70000000, 80000000, 90000000, 95000000, 99000000, 99500000,
	99900000, 99950000, 99990000, 99999000,
};

/* Formats an error message into err; returns -1 for the caller to return. */
int kb_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Unsigned integer: decimal, or hex with 0x.  *end is the first other char. */
static int parse_uint(const char *s, uint64_t *out, const char **end)
{
	unsigned int base = 10;
	uint64_t v = 0;
	const char *p = s;
	int digits = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (;; p++) {
		unsigned int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = tolower((unsigned char)*p) - 'a' + 10;
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
		digits++;
	}
	if (!digits)
		return -EINVAL;
	*out = v;
	*end = p;
	return 0;
}

int kb_parse_u64(const char *s, uint64_t *out, char *err, size_t errlen)
{
	const char *end;
	int ret = parse_uint(s, out, &end);

	if (ret == -ERANGE)
		return kb_errf(err, errlen, "invalid number '%s' (too large)", s);
	if (ret || *end)
		return kb_errf(err, errlen, "invalid number '%s'", s);
	return 0;
}

/*
 * fio sizes: bytes, or k/m/g/t/p/e with optional "b", "i" or "ib", any case;
 * every prefix is a power of 1024.
 */
int kb_parse_size(const char *s, uint64_t *out, char *err, size_t errlen)
{
	static const char prefixes[] = "kmgtpe";
	const char *end, *pp;
	uint64_t v, mult = 1;
	char suf[4] = "";
	int ret, i;

	ret = parse_uint(s, &v, &end);
	if (ret == -ERANGE)
		return kb_errf(err, errlen, "invalid size '%s' (too large)", s);
	if (ret || strlen(end) >= sizeof(suf))
		return kb_errf(err, errlen, "invalid size '%s'", s);
	for (i = 0; end[i]; i++)
		suf[i] = tolower((unsigned char)end[i]);
	pp = suf[0] ? strchr(prefixes, suf[0]) : NULL;
	if (pp) {
		const char *rest = suf + 1;

		if (*rest && strcmp(rest, "b") && strcmp(rest, "i") && strcmp(rest, "ib"))
			return kb_errf(err, errlen, "invalid size '%s'", s);
		mult = 1ULL << (10 * (pp - prefixes + 1));
	} else if (suf[0] && strcmp(suf, "b")) {
		return kb_errf(err, errlen, "invalid size '%s'", s);
	}
	if (v > UINT64_MAX / mult)
		return kb_errf(err, errlen, "invalid size '%s' (too large)", s);
	*out = v * mult;
	return 0;
}

/* fio times: plain number = seconds; d h m s sec ms msec us usec ns nsec. */
int kb_parse_time_ns(const char *s, uint64_t *out, char *err, size_t errlen)
{
	static const struct { const char *suf; uint64_t ns; } units[] = {
		{ "", 1000000000ULL }, { "s", 1000000000ULL },
		{ "sec", 1000000000ULL }, { "m", 60000000000ULL },
		{ "min", 60000000000ULL }, { "h", 3600000000000ULL },
		{ "d", 86400000000000ULL }, { "ms", 1000000ULL },
		{ "msec", 1000000ULL }, { "us", 1000ULL }, { "usec", 1000ULL },
		{ "ns", 1 }, { "nsec", 1 },
	};
	const char *end;
	uint64_t v;
	size_t i;
	int ret;

	ret = parse_uint(s, &v, &end);
	if (ret == -ERANGE)
		return kb_errf(err, errlen, "invalid time '%s' (too large)", s);
	if (ret || (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')))
		return kb_errf(err, errlen, "invalid time '%s'", s);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(end, units[i].suf))
			continue;
		if (v > UINT64_MAX / units[i].ns)
			return kb_errf(err, errlen, "invalid time '%s' (too large)", s);
		*out = v * units[i].ns;
		return 0;
	}
	return kb_errf(err, errlen, "invalid time '%s'", s);
}

int kb_parse_bool(const char *s, bool *out, char *err, size_t errlen)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	size_t i;

	if (!s) {
		*out = true;
		return 0;
	}
	for (i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return kb_errf(err, errlen, "invalid boolean '%s' (0 or 1)", s);
}

static int check_block_size(const char *s, uint64_t v, char *err, size_t errlen)
{
	if (!v)
		return kb_errf(err, errlen, "invalid block size '%s' (must not be zero)", s);
	if (v > UINT32_MAX)
		return kb_errf(err, errlen, "invalid block size '%s' (too large)", s);
	if (v % KB_SECTOR)
		return kb_errf(err, errlen,
			    "invalid block size '%s' (must be a multiple of 512)", s);
	return 0;
}

/*
 * fio bssplit: SIZE/PCT:SIZE/PCT...  Entries without a percentage share
 * what the others leave of 100 (like fio; the integer remainder goes to
 * the first of them so that the weights sum to exactly 100).
 */
int kb_parse_bssplit(const char *s, struct kb_bss **out, unsigned int *nr,
		     char *err, size_t errlen)
{
	struct kb_bss *v = NULL;
	unsigned int n = 0, missing = 0, i, sum = 0, share, extra;
	char *copy, *tok, *save = NULL;
	int ret = -1;

	if (strchr(s, ','))
		return kb_errf(err, errlen,
			    "per-direction bssplit (',') is not supported: '%s'", s);
	copy = strdup(s);
	if (!copy)
		return kb_errf(err, errlen, "out of memory");
	if (!*s || s[strlen(s) - 1] == ':' || strstr(s, "::") || s[0] == ':') {
		kb_errf(err, errlen, "invalid bssplit '%s' (empty entry)", s);
		goto out;
	}
	for (tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		uint64_t size, pct = 0;
		struct kb_bss *nv;

		if (n >= KB_MAX_LIST) {
			kb_errf(err, errlen, "invalid bssplit '%s' (too many entries)", s);
			goto out;
		}
		if (slash)
			*slash++ = '\0';
		if (kb_parse_size(tok, &size, err, errlen) ||
		    check_block_size(tok, size, err, errlen))
			goto out;
		if (slash) {
			const char *end;

			if (parse_uint(slash, &pct, &end) || *end ||
			    (slash[0] == '0' && slash[1] == 'x')) {
				kb_errf(err, errlen, "invalid percentage '%s'", slash);
				goto out;
			}
			if (pct < 1 || pct > 100) {
				kb_errf(err, errlen,
				     "invalid percentage '%s' (must be 1..100)",
				     slash);
				goto out;
			}
			sum += pct;
		} else {
			missing++;
		}
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv) {
			kb_errf(err, errlen, "out of memory");
			goto out;
		}
		v = nv;
		v[n].size = size;
		v[n].weight = pct;	/* 0: to be shared */
		n++;
	}
	if (sum > 100) {
		kb_errf(err, errlen, "percentages add up to %u (more than 100)", sum);
		goto out;
	}
	if (!missing && sum != 100) {
		kb_errf(err, errlen, "percentages add up to %u, not 100", sum);
		goto out;
	}
	if (missing) {
		share = (100 - sum) / missing;
		extra = (100 - sum) % missing;
		if (!share) {
			kb_errf(err, errlen,
			     "%u%% left for %u entries without a percentage",
			     100 - sum, missing);
			goto out;
		}
		for (i = 0; i < n; i++) {
			if (v[i].weight)
				continue;
			v[i].weight = share + (extra ? 1 : 0);
			if (extra)
				extra--;
		}
	}
	*out = v;
	*nr = n;
	v = NULL;
	ret = 0;
out:
	free(v);
	free(copy);
	return ret;
}

/* CPU list: N or N-M, comma separated ("0-3,6").  Order is kept. */
int kb_parse_cpus(const char *s, uint32_t **out, unsigned int *nr,
		  char *err, size_t errlen)
{
	uint32_t *v = NULL;
	unsigned int n = 0;
	unsigned char *seen;
	const char *p = s;
	int ret = -1;

	seen = calloc(KB_MAX_CPU, 1);
	if (!seen)
		return kb_errf(err, errlen, "out of memory");
	for (;;) {
		uint64_t a, b;
		const char *end;

		if (!isdigit((unsigned char)*p) || parse_uint(p, &a, &end) ||
		    (p[0] == '0' && p[1] == 'x'))
			goto bad;
		p = end;
		b = a;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p) || parse_uint(p, &b, &end) ||
			    (p[0] == '0' && p[1] == 'x'))
				goto bad;
			p = end;
		}
		if (a >= KB_MAX_CPU || b >= KB_MAX_CPU) {
			kb_errf(err, errlen, "invalid CPU list '%s' (CPU numbers must be below %u)",
			     s, KB_MAX_CPU);
			goto out;
		}
		if (b < a) {
			kb_errf(err, errlen, "invalid CPU list '%s' (descending range)", s);
			goto out;
		}
		for (; a <= b; a++) {
			uint32_t *nv;

			if (seen[a]) {
				kb_errf(err, errlen, "invalid CPU list '%s' (CPU %llu listed twice)",
				     s, (unsigned long long)a);
				goto out;
			}
			seen[a] = 1;
			nv = realloc(v, (n + 1) * sizeof(*v));
			if (!nv) {
				kb_errf(err, errlen, "out of memory");
				goto out;
			}
			v = nv;
			v[n++] = a;
		}
		if (!*p)
			break;
		if (*p != ',')
			goto bad;
		p++;
	}
	*out = v;
	*nr = n;
	v = NULL;
	ret = 0;
	goto out;
bad:
	kb_errf(err, errlen, "invalid CPU list '%s'", s);
out:
	free(seen);
	free(v);
	return ret;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* fio percentile_list: P:P:... each 0 < P <= 100; sorted, duplicates merged. */
int kb_parse_plist(const char *s, uint32_t *out, unsigned int *nr,
		   char *err, size_t errlen)
{
	uint32_t v[KB_MAX_PERCENTILES];
	unsigned int n = 0, i, j;
	const char *p = s;

	for (;;) {
		const char *q = p;
		int digits = 0, dots = 0;
		char num[64];
		double d;

		while (*q && *q != ':') {
			if (isdigit((unsigned char)*q))
				digits++;
			else if (*q == '.')
				dots++;
			else
				break;
			q++;
		}
		if ((*q && *q != ':') || !digits || dots > 1 ||
		    (size_t)(q - p) >= sizeof(num))
			return kb_errf(err, errlen, "invalid percentile list '%s'", s);
		memcpy(num, p, q - p);
		num[q - p] = '\0';
		d = strtod(num, NULL);
		if (!(d > 0.0 && d <= 100.0) || llround(d * KB_PCT_ONE) < 1)
			return kb_errf(err, errlen,
				    "invalid percentile '%s' (must be above 0 and at most 100)",
				    num);
		if (n >= KB_MAX_PERCENTILES)
			return kb_errf(err, errlen,
				    "invalid percentile list '%s' (at most %d entries)",
				    s, KB_MAX_PERCENTILES);
		v[n++] = (uint32_t)llround(d * KB_PCT_ONE);
		if (!*q)
			break;
		p = q + 1;
	}
	qsort(v, n, sizeof(v[0]), cmp_u32);
	for (i = 0, j = 0; i < n; i++)
		if (!j || v[i] != out[j - 1])
			out[j++] = v[i];
	*nr = j;
	return 0;
}

int kb_parse_formats(const char *s, unsigned int *out, char *err, size_t errlen)
{
	unsigned int f = 0;
	const char *p = s;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (len == 6 && !strncmp(p, "normal", 6))
			f |= KB_FMT_NORMAL;
		else if (len == 4 && !strncmp(p, "json", 4))
			f |= KB_FMT_JSON;
		else if (len == 5 && !strncmp(p, "terse", 5))
			f |= KB_FMT_TERSE;
		else
			return kb_errf(err, errlen,
				    "invalid output format '%.*s' (normal, json or terse)",
				    (int)len, p);
		if (!p[len])
			break;
		p += len + 1;
	}
	*out = f;
	return 0;
}

void kb_pct_str(uint32_t pct, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%06u", pct / KB_PCT_ONE, pct % KB_PCT_ONE);
}

/* Decimals needed to print every percentile exactly, at least 2 (fio). */
unsigned int kb_plist_precision(const uint32_t *plist, unsigned int nr)
{
	unsigned int prec = 2, i;

	for (i = 0; i < nr; i++) {
		uint32_t frac = plist[i] % KB_PCT_ONE;
		unsigned int d = 6;

		if (!frac)
			continue;
		while (frac % 10 == 0) {
			frac /= 10;
			d--;
		}
		if (d > prec)
			prec = d;
	}
	return prec;
}

/* ---- option handlers ---------------------------------------------------- */

static void free_devices(struct kb_job *job)
{
	unsigned int i;

	for (i = 0; i < job->nr_devices; i++)
		free(job->devices[i]);
	free(job->devices);
	job->devices = NULL;
	job->nr_devices = 0;
}

static int p_name(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	size_t i, len = strlen(val);

	(void)o; (void)g;
	if (!len || len >= KIOBENCH_NAME_LEN)
		return kb_errf(err, errlen, "invalid name '%s' (1 to %d characters)",
			    val, KIOBENCH_NAME_LEN - 1);
	for (i = 0; i < len; i++)
		if (!isgraph((unsigned char)val[i]))
			return kb_errf(err, errlen,
				    "invalid name '%s' (no spaces or control characters)", val);
	memcpy(job->name, val, len + 1);
	return 0;
}

static int p_filename(const struct kb_opt *o, const char *val, struct kb_job *job,
		      struct kb_global *g, char *err, size_t errlen)
{
	char **devs = NULL;
	unsigned int n = 0, i;
	const char *p = val;

	(void)o; (void)g;
	for (;;) {
		size_t len = strcspn(p, ":");
		char **nd;

		if (!len) {
			kb_errf(err, errlen, "invalid filename '%s' (empty device name)", val);
			goto bad;
		}
		for (i = 0; i < n; i++) {
			if (strlen(devs[i]) == len && !strncmp(devs[i], p, len)) {
				kb_errf(err, errlen, "invalid filename '%s' (%s listed twice)",
				     val, devs[i]);
				goto bad;
			}
		}
		if (n >= KB_MAX_LIST) {
			kb_errf(err, errlen, "invalid filename '%s' (too many devices)", val);
			goto bad;
		}
		nd = realloc(devs, (n + 1) * sizeof(*devs));
		if (!nd || !(nd[n] = strndup(p, len))) {
			devs = nd ? nd : devs;
			kb_errf(err, errlen, "out of memory");
			goto bad;
		}
		devs = nd;
		n++;
		if (!p[len])
			break;
		p += len + 1;
	}
	free_devices(job);
	job->devices = devs;
	job->nr_devices = n;
	return 0;
bad:
	for (i = 0; i < n; i++)
		free(devs[i]);
	free(devs);
	return -1;
}

static int p_rw(const struct kb_opt *o, const char *val, struct kb_job *job,
		struct kb_global *g, char *err, size_t errlen)
{
	static const struct { const char *name; enum kb_rw rw; bool random; } t[] = {
		{ "read", KB_RW_READ, false },
		{ "write", KB_RW_WRITE, false },
		{ "randread", KB_RW_READ, true },
		{ "randwrite", KB_RW_WRITE, true },
		{ "rw", KB_RW_MIXED, false },
		{ "readwrite", KB_RW_MIXED, false },
		{ "randrw", KB_RW_MIXED, true },
	};
	size_t i;

	(void)o; (void)g;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (!strcmp(val, t[i].name)) {
			job->rw = t[i].rw;
			job->random = t[i].random;
			job->rw_str = t[i].name;
			return 0;
		}
	}
	return kb_errf(err, errlen, "invalid rw '%s' (read, write, randread, randwrite, "
		    "rw, readwrite or randrw)", val);
}

static int get_range(const char *val, uint64_t *v, uint64_t min, uint64_t max,
		     char *err, size_t errlen)
{
	if (kb_parse_u64(val, v, err, errlen))
		return -1;
	if (max == 100 && (*v < min || *v > max))
		return kb_errf(err, errlen, "invalid value '%s' (must be %llu..%llu)", val,
			    (unsigned long long)min, (unsigned long long)max);
	if (*v < min)
		return kb_errf(err, errlen, "invalid value '%s' (must be at least %llu)",
			    val, (unsigned long long)min);
	if (*v > max)
		return kb_errf(err, errlen, "invalid value '%s' (must be at most %llu)",
			    val, (unsigned long long)max);
	return 0;
}

static int p_rwmixread(const struct kb_opt *o, const char *val, struct kb_job *job,
		       struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v;

	(void)o; (void)g;
	if (get_range(val, &v, 0, 100, err, errlen))
		return -1;
	job->rwmixread = v;
	return 0;
}

static int p_rwmixwrite(const struct kb_opt *o, const char *val, struct kb_job *job,
			struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v;

	(void)o; (void)g;
	if (get_range(val, &v, 0, 100, err, errlen))
		return -1;
	job->rwmixread = 100 - v;
	return 0;
}

static int p_bs(const struct kb_opt *o, const char *val, struct kb_job *job,
		struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v;

	(void)o; (void)g;
	if (strchr(val, ','))
		return kb_errf(err, errlen,
			    "per-direction block sizes (',') are not supported: '%s'", val);
	if (kb_parse_size(val, &v, err, errlen)) {
		if (isdigit((unsigned char)val[0]) && strpbrk(val, "-:"))
			return kb_errf(err, errlen, "block size ranges are not supported: '%s'",
				    val);
		return -1;
	}
	if (check_block_size(val, v, err, errlen))
		return -1;
	job->bs = v;
	return 0;
}

static int p_bssplit(const struct kb_opt *o, const char *val, struct kb_job *job,
		     struct kb_global *g, char *err, size_t errlen)
{
	struct kb_bss *v;
	unsigned int n;

	(void)o; (void)g;
	if (kb_parse_bssplit(val, &v, &n, err, errlen))
		return -1;
	free(job->bss);
	job->bss = v;
	job->nr_bss = n;
	return 0;
}

static int p_u32(const struct kb_opt *o, const char *val, struct kb_job *job,
		 struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v;

	(void)g;
	if (get_range(val, &v, 1, UINT32_MAX, err, errlen))
		return -1;
	if (o->id == KB_OPT_IODEPTH)
		job->iodepth = v;
	else if (o->id == KB_OPT_LAT_LOG_ENTRIES)
		job->lat_log_entries = v;
	else
		job->numjobs = v;
	return 0;
}

/* write_lat_log: where the per-I/O latency log goes after the run. */
static int p_lat_log(const struct kb_opt *o, const char *val, struct kb_job *job,
		     struct kb_global *g, char *err, size_t errlen)
{
	char *s;

	(void)o; (void)g;
	if (!*val)
		return kb_errf(err, errlen, "empty file name");
	s = strdup(val);
	if (!s)
		return kb_errf(err, errlen, "out of memory");
	free(job->lat_log);
	job->lat_log = s;
	return 0;
}

static int p_cpus(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	uint32_t *v;
	unsigned int n;

	(void)o; (void)g;
	if (kb_parse_cpus(val, &v, &n, err, errlen))
		return -1;
	free(job->cpus);
	job->cpus = v;
	job->nr_cpus = n;
	return 0;
}

static uint64_t *u64_field(struct kb_job *job, enum kb_opt_id id)
{
	switch (id) {
	case KB_OPT_SIZE: return &job->size;
	case KB_OPT_OFFSET: return &job->offset;
	case KB_OPT_IO_SIZE: return &job->io_size;
	case KB_OPT_NUMBER_IOS: return &job->number_ios;
	case KB_OPT_RUNTIME: return &job->runtime_ns;
	case KB_OPT_RAMP: return &job->ramp_ns;
	case KB_OPT_SEED: return &job->seed;
	case KB_OPT_INTERVAL: return &job->interval_ns;
	default: return NULL;
	}
}

/* size, offset, io_size: zero only for offset. */
static int p_size(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v;

	(void)g;
	if (kb_parse_size(val, &v, err, errlen))
		return -1;
	if (!v && o->id != KB_OPT_OFFSET)
		return kb_errf(err, errlen, "invalid size '%s' (must not be zero)", val);
	*u64_field(job, o->id) = v;
	return 0;
}

/* runtime, interval (not zero), ramp_time (zero allowed). */
static int p_time(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v;

	(void)g;
	if (kb_parse_time_ns(val, &v, err, errlen))
		return -1;
	if (!v && o->id != KB_OPT_RAMP)
		return kb_errf(err, errlen, "invalid time '%s' (must not be zero)", val);
	*u64_field(job, o->id) = v;
	return 0;
}

/* number_ios (not zero), randseed. */
static int p_u64(const struct kb_opt *o, const char *val, struct kb_job *job,
		 struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v;

	(void)g;
	if (get_range(val, &v, o->id == KB_OPT_NUMBER_IOS ? 1 : 0, UINT64_MAX,
		      err, errlen))
		return -1;
	*u64_field(job, o->id) = v;
	return 0;
}

static int p_plist(const struct kb_opt *o, const char *val, struct kb_job *job,
		   struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)g;
	return kb_parse_plist(val, job->plist, &job->nr_plist, err, errlen);
}

static int p_flag(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	bool v;

	if (kb_parse_bool(val, &v, err, errlen))
		return -1;
	switch (o->id) {
	case KB_OPT_TIME_BASED: job->time_based = v; break;
	case KB_OPT_CONT_ERR: job->continue_on_error = v; break;
	case KB_OPT_ALLOW_WRITES: g->allow_writes = v; break;
	case KB_OPT_KEEP: g->keep = v; break;
	default: break;
	}
	return 0;
}

static int p_outfmt(const struct kb_opt *o, const char *val, struct kb_job *job,
		    struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)job;
	return kb_parse_formats(val, &g->formats, err, errlen);
}

static int p_output(const struct kb_opt *o, const char *val, struct kb_job *job,
		    struct kb_global *g, char *err, size_t errlen)
{
	char *s;

	(void)o; (void)job;
	if (!*val)
		return kb_errf(err, errlen, "empty file name");
	s = strdup(val);
	if (!s)
		return kb_errf(err, errlen, "out of memory");
	free(g->output);
	g->output = s;
	return 0;
}

#define JOB(_id, _name, _alias, _metavar, _parse, _help) \
	[_id] = { .name = _name, .alias = _alias, .id = _id, .mark = _id, \
		  .scope = KB_SCOPE_JOB, .metavar = _metavar, .parse = _parse, \
		  .help = _help }
#define FLAG(_id, _name, _scope, _help) \
	[_id] = { .name = _name, .id = _id, .mark = _id, .scope = _scope, \
		  .flag = true, .parse = p_flag, .help = _help }

const struct kb_opt kb_opts[KB_NR_OPTS] = {
	JOB(KB_OPT_NAME, "name", NULL, "NAME", p_name, "job name (default: section name or \"kiobench\")"),
	JOB(KB_OPT_FILENAME, "filename", NULL, "DEV[:DEV...]", p_filename, "block devices"),
	JOB(KB_OPT_RW, "rw", "readwrite", "MODE", p_rw,
	    "read|write|randread|randwrite|rw|readwrite|randrw (read)"),
	JOB(KB_OPT_RWMIXREAD, "rwmixread", NULL, "PCT", p_rwmixread, "percent reads of a mixed workload (50)"),
	[KB_OPT_RWMIXWRITE] = { .name = "rwmixwrite", .id = KB_OPT_RWMIXWRITE,
		.mark = KB_OPT_RWMIXREAD, .scope = KB_SCOPE_JOB, .metavar = "PCT",
		.parse = p_rwmixwrite, .help = "percent writes of a mixed workload" },
	JOB(KB_OPT_BS, "bs", "blocksize", "SIZE", p_bs, "block size (4k)"),
	JOB(KB_OPT_BSSPLIT, "bssplit", NULL, "SIZE/PCT:...", p_bssplit, "block size mix (overrides bs)"),
	JOB(KB_OPT_IODEPTH, "iodepth", NULL, "N", p_u32, "I/Os in flight per worker (1)"),
	JOB(KB_OPT_NUMJOBS, "numjobs", NULL, "N", p_u32, "workers per device (1)"),
	JOB(KB_OPT_CPUS, "cpus_allowed", NULL, "LIST", p_cpus, "CPUs for the workers, e.g. 0-3,6"),
	JOB(KB_OPT_SIZE, "size", NULL, "SIZE", p_size, "span length (to the end of the device)"),
	JOB(KB_OPT_OFFSET, "offset", NULL, "SIZE", p_size, "span start (0)"),
	JOB(KB_OPT_IO_SIZE, "io_size", "io_limit", "SIZE", p_size, "bytes to transfer, all workers"),
	JOB(KB_OPT_NUMBER_IOS, "number_ios", NULL, "N", p_u64, "I/Os to issue, all workers"),
	JOB(KB_OPT_RUNTIME, "runtime", NULL, "TIME", p_time, "measured run time (after ramp_time)"),
	FLAG(KB_OPT_TIME_BASED, "time_based", KB_SCOPE_JOB, "run for runtime, ignoring size"),
	JOB(KB_OPT_RAMP, "ramp_time", NULL, "TIME", p_time, "warm-up excluded from the statistics"),
	JOB(KB_OPT_SEED, "randseed", NULL, "N", p_u64, "random seed"),
	JOB(KB_OPT_PLIST, "percentile_list", NULL, "P:P:...", p_plist, "latency percentiles to report"),
	JOB(KB_OPT_INTERVAL, "interval", NULL, "TIME", p_time, "timeline interval (1s)"),
	FLAG(KB_OPT_CONT_ERR, "continue_on_error", KB_SCOPE_JOB, "count I/O errors and go on"),
	JOB(KB_OPT_LAT_LOG, "write_lat_log", NULL, "FILE", p_lat_log,
	    "write every measured I/O's latency to FILE"),
	JOB(KB_OPT_LAT_LOG_ENTRIES, "lat_log_entries", NULL, "N", p_u32,
	    "most I/Os in the latency log (1048576)"),
	FLAG(KB_OPT_ALLOW_WRITES, "allow-writes", KB_SCOPE_CLI,
	     "allow writing to the devices (DESTROYS DATA)"),
	[KB_OPT_OUTFMT] = { .name = "output-format", .id = KB_OPT_OUTFMT, .mark = KB_OPT_OUTFMT,
		.scope = KB_SCOPE_CLI, .metavar = "FMT[,FMT]", .parse = p_outfmt,
		.help = "normal, json and/or terse (normal)" },
	[KB_OPT_OUTPUT] = { .name = "output", .id = KB_OPT_OUTPUT, .mark = KB_OPT_OUTPUT,
		.scope = KB_SCOPE_CLI, .metavar = "FILE", .parse = p_output,
		.help = "write the results to FILE" },
	FLAG(KB_OPT_KEEP, "keep", KB_SCOPE_CLI, "do not destroy the jobs at the end"),
};

/* Option names match with '-' and '_' taken as the same character. */
bool kb_opt_name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;

		if (x != y)
			return false;
	}
	return *a == *b;
}

const struct kb_opt *kb_opt_find(const char *name)
{
	int i;

	for (i = 0; i < KB_NR_OPTS; i++)
		if (kb_opt_name_eq(kb_opts[i].name, name) ||
		    (kb_opts[i].alias && kb_opt_name_eq(kb_opts[i].alias, name)))
			return &kb_opts[i];
	return NULL;
}

/* ---- jobs and assignments ------------------------------------------------ */

void kb_job_init(struct kb_job *job)
{
	memset(job, 0, sizeof(*job));
	job->rw = KB_RW_READ;
	job->rw_str = "read";
	job->bs = 4096;
	job->rwmixread = 50;
	job->lat_log_entries = 1U << 20;
	memcpy(job->plist, kb_default_plist, sizeof(kb_default_plist));
	job->nr_plist = sizeof(kb_default_plist) / sizeof(kb_default_plist[0]);
}

void kb_job_free(struct kb_job *job)
{
	free_devices(job);
	free(job->bss);
	free(job->cpus);
	free(job->lat_log);
	kb_assign_list_free(&job->applied);
	memset(job, 0, sizeof(*job));
}

void kb_global_free(struct kb_global *g)
{
	free(g->output);
	g->output = NULL;
}

int kb_assign_add(struct kb_assign_list *l, const struct kb_opt *o,
		  const char *val, const char *file, unsigned int line)
{
	struct kb_assign *a;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		struct kb_assign *nv = realloc(l->v, cap * sizeof(*nv));

		if (!nv)
			return -1;
		l->v = nv;
		l->cap = cap;
	}
	a = &l->v[l->n];
	a->opt = o;
	a->val = NULL;
	if (val && !(a->val = strdup(val)))
		return -1;
	a->file = file;
	a->line = line;
	l->n++;
	return 0;
}

void kb_assign_list_free(struct kb_assign_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].val);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void kb_assign_where(const struct kb_assign *a, char *buf, size_t len)
{
	if (a->file)
		snprintf(buf, len, "%s:%u: %s", a->file, a->line, a->opt->name);
	else
		snprintf(buf, len, "--%s", a->opt->name);
}

int kb_apply(struct kb_job *job, struct kb_global *g, const struct kb_assign *a,
	     char *err, size_t errlen)
{
	const struct kb_opt *o = a->opt;
	char where[KB_ERRLEN], msg[KB_ERRLEN];

	kb_assign_where(a, where, sizeof(where));
	if (o->scope == KB_SCOPE_CLI && a->file)
		return kb_errf(err, errlen, "%s:%u: option '%s' is only valid on the command line",
			    a->file, a->line, o->name);
	if (!a->val && !o->flag)
		return kb_errf(err, errlen, "%s: missing value", where);
	if (o->parse(o, a->val, job, g, msg, sizeof(msg)))
		return kb_errf(err, errlen, "%s: %s", where, msg);
	if (o->scope == KB_SCOPE_JOB) {
		job->set |= 1ULL << o->mark;
		if (kb_assign_add(&job->applied, o, a->val, a->file, a->line))
			return kb_errf(err, errlen, "out of memory");
	}
	return 0;
}

bool kb_job_isset(const struct kb_job *job, enum kb_opt_id id)
{
	return job->set & (1ULL << id);
}

uint32_t kb_job_rwmix_read(const struct kb_job *job)
{
	switch (job->rw) {
	case KB_RW_READ: return 100;
	case KB_RW_WRITE: return 0;
	default: return job->rwmixread;
	}
}

bool kb_job_has_writes(const struct kb_job *job)
{
	return kb_job_rwmix_read(job) < 100;
}

/* fio: io_size if given, else size unless time_based. */
uint64_t kb_job_io_bytes(const struct kb_job *job)
{
	if (kb_job_isset(job, KB_OPT_IO_SIZE))
		return job->io_size;
	if (kb_job_isset(job, KB_OPT_SIZE) && !job->time_based)
		return job->size;
	return 0;
}

int kb_job_finalize(struct kb_job *job, char *err, size_t errlen)
{
	if (!job->nr_devices)
		return kb_errf(err, errlen, "no device given (--filename=DEV)");
	if (job->time_based && !kb_job_isset(job, KB_OPT_RUNTIME))
		return kb_errf(err, errlen, "time_based needs runtime");
	if (!kb_job_isset(job, KB_OPT_BSSPLIT)) {
		struct kb_bss *b = realloc(job->bss, sizeof(*b));

		if (!b)
			return kb_errf(err, errlen, "out of memory");
		b->size = job->bs;
		b->weight = 100;
		job->bss = b;
		job->nr_bss = 1;
	}
	if (!job->name[0])
		strcpy(job->name, "kiobench");
	return 0;
}
