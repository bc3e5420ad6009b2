// SPDX-License-Identifier: GPL-2.0
/*
 * Value parsers behind the option table (options.c): fio's syntax for
 * numbers, sizes, times, booleans, block size splits, CPU lists,
 * percentile lists and output formats.  Each returns 0, or -1 with a
 * message in err.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/fs.h>

#include "kiobench.h"
#include "options.h"
#include "values.h"

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
 * fio sizes: bytes, or a prefix k/m/g/t/p/e with an optional "b", "i" or
 * "ib", any case.  As fio: with kb_base=1024 (its default) "k" and "kb" are
 * powers of 1024 and "ki" and "kib" powers of 1000, for old scripts; with
 * kb_base=1000 it is the other way round, as the standards have it.
 */
int kb_parse_size_base(const char *s, unsigned int kb_base, uint64_t *out,
		       char *err, size_t errlen)
{
	static const char prefixes[] = "kmgtpe";
	const char *end, *pp;
	uint64_t v, mult = 1;
	char suf[4] = "";
	int ret, i, k;

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
		bool iec = *rest == 'i';
		unsigned int base;

		if (*rest && strcmp(rest, "b") && strcmp(rest, "i") && strcmp(rest, "ib"))
			return kb_errf(err, errlen, "invalid size '%s'", s);
		base = (kb_base == 1000) == iec ? 1024 : 1000;
		for (k = 0; k <= pp - prefixes; k++)
			mult *= base;
	} else if (suf[0] && strcmp(suf, "b")) {
		return kb_errf(err, errlen, "invalid size '%s'", s);
	}
	if (v > UINT64_MAX / mult)
		return kb_errf(err, errlen, "invalid size '%s' (too large)", s);
	*out = v * mult;
	return 0;
}

int kb_parse_size(const char *s, uint64_t *out, char *err, size_t errlen)
{
	return kb_parse_size_base(s, 1024, out, err, errlen);
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
	return kb_errf(err, errlen, "invalid boolean '%s' (0 or 1, false or true, no or yes, "
		       "off or on)", s);
}

int kb_check_bs(const char *s, uint64_t v, char *err, size_t errlen)
{
	if (!v)
		return kb_errf(err, errlen, "invalid block size '%s' (must not be zero)", s);
	if (v > UINT32_MAX)
		return kb_errf(err, errlen, "invalid block size '%s' (too large)", s);
	if (v % KB_SECTOR && strpbrk(s, "iI"))
		return kb_errf(err, errlen, "invalid block size '%s' (must be a multiple of 512; "
			       "with fio's kb_base=1024, its default, KiB means 1000: write "
			       "k, or set kb_base=1000)", s);
	if (v % KB_SECTOR)
		return kb_errf(err, errlen,
			    "invalid block size '%s' (must be a multiple of 512)", s);
	return 0;
}

/*
 * One bssplit entry, "SIZE", "SIZE/" or "SIZE/PCT" (tok is modified).  As
 * fio's atoi: a percentage of 0, or none, is none (weight 0 here), one
 * above 100 is 100.
 */
static int bss_entry(char *tok, unsigned int kb_base, struct kb_bss *b,
		     char *err, size_t errlen)
{
	char *slash = strchr(tok, '/');
	uint64_t size, pct = 0;
	const char *end;

	if (slash)
		*slash++ = '\0';
	if (kb_parse_size_base(tok, kb_base, &size, err, errlen) ||
	    kb_check_bs(tok, size, err, errlen))
		return -1;
	if (slash && *slash &&
	    (parse_uint(slash, &pct, &end) || *end || (slash[0] == '0' && slash[1] == 'x')))
		return kb_errf(err, errlen, "invalid percentage '%s'", slash);
	b->size = size;
	b->weight = pct > 100 ? 100 : pct;
	return 0;
}

/*
 * The share of the I/Os fio 3.33 gives each entry, in percent
 * (options.c bssplit_ddir(), io_u.c get_next_buflen()).  The entries
 * without a percentage get (100 - sum) / missing each, in unsigned 32-bit
 * arithmetic: the integer remainder goes to no one, and with one such
 * entry beside percentages above 100 its share wraps to nearly 2^32.  fio
 * refuses a sum above 100 with two or more of them.  It sorts the table by
 * percentage, ascending as a signed int (glibc's qsort, a merge sort
 * here, keeps the order of equal ones), and a draw r in [0, 2^32) takes
 * the first entry with a percentage whose running sum s has r / s <=
 * (2^32 - 1) / 100, that is r below s percent of 2^32; a draw past them
 * all takes the last entry with a percentage.  So an entry's share is its
 * running sum capped at 100 less the one before, and the last one also
 * takes what the sum leaves below 100 (1k/50:2k:4k:8k: 16, 16, 16 and 52;
 * 4k/10:8k/20: 10 and 90).  @share[i] gets entry i's; @order the entries
 * in fio's order.
 */
static int bss_fio_shares(const struct kb_bss *v, unsigned int n, unsigned int *share,
			  unsigned int *order, char *err, size_t errlen)
{
	unsigned int missing = 0, sum = 0, i, j, last = 0;
	uint64_t run = 0, before = 0;
	uint32_t *perc;

	for (i = 0; i < n; i++) {
		sum += v[i].weight;
		missing += !v[i].weight;
	}
	if (sum > 100 && missing > 1)
		return kb_errf(err, errlen, "percentages add up to %u, more than 100, with %u "
			       "entries left to share the rest (fio refuses this too)", sum,
			       missing);
	perc = calloc(n, sizeof(*perc));
	if (!perc)
		return kb_errf(err, errlen, "out of memory");
	if (missing == 1 && n == 1)
		sum = 100;
	for (i = 0; i < n; i++)
		perc[i] = v[i].weight ? v[i].weight : (uint32_t)(100U - sum) / missing;
	for (i = 0; i < n; i++) {		/* a stable insertion sort, as int */
		for (j = i; j > 0 && (int32_t)perc[order[j - 1]] > (int32_t)perc[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (i = 0; i < n; i++) {
		unsigned int k = order[i];
		uint64_t capped;

		share[k] = 0;
		if (!perc[k])
			continue;
		run += perc[k];
		capped = run < 100 ? run : 100;
		share[k] = capped - before;
		before = capped;
		last = k;
	}
	free(perc);
	if (run)
		share[last] += 100 - before;
	return 0;
}

/*
 * @v rewritten as the table of what fio issues, in fio's order: sizes
 * aligned down to the smallest (fio's !bs_unaligned, which kiobench always
 * is), equal ones merged, entries without a share left out, then sorted by share as fio
 * would sort this table (so that it reads back the same).  An entry with no
 * share is refused when it is the smallest size: fio would still align
 * offsets and the other sizes to it, which a table without it cannot say.
 */
static int bss_as_fio(struct kb_bss *v, unsigned int *nr, const char *s,
		      char *err, size_t errlen)
{
	unsigned int n = *nr, i, j, m = 0, *share, *order;
	uint32_t min = UINT32_MAX, max = 0, min_used = UINT32_MAX;
	struct kb_bss *t;
	int ret = -1;

	share = calloc(n, sizeof(*share));
	order = calloc(n, sizeof(*order));
	t = calloc(n, sizeof(*t));
	if (!share || !order || !t) {
		kb_errf(err, errlen, "out of memory");
		goto out;
	}
	if (bss_fio_shares(v, n, share, order, err, errlen))
		goto out;
	for (i = 0; i < n; i++) {
		if (v[i].size < min)
			min = v[i].size;
		if (v[i].size > max)
			max = v[i].size;
	}
	if (min == max) {	/* fio draws nothing: one size (4k, or 4k/10:4k/20) */
		v[0] = (struct kb_bss){ .size = min, .weight = 100 };
		*nr = 1;
		ret = 0;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (share[i] && v[i].size / min * min < min_used)
			min_used = v[i].size / min * min;
	if (min_used == UINT32_MAX) {	/* fio draws no size: its I/O fails */
		kb_errf(err, errlen, "'%s': no entry gets a share of the I/Os by fio's rule "
			"(%u entries share what the others leave of 100)", s, n);
		goto out;
	}
	if (min_used != min) {
		for (i = 0; v[i].size != min; i++)
			;
		ret = kb_errf(err, errlen, "'%s': %u bytes get no share of the I/Os by fio's "
			      "rule, yet as the smallest size would align fio's offsets and "
			      "sizes; give it a percentage or leave it out", s, v[i].size);
		goto out;
	}
	for (i = 0; i < n; i++) {
		unsigned int k = order[i];
		uint32_t size = v[k].size / min * min;

		if (!share[k])
			continue;
		for (j = 0; j < m && t[j].size != size; j++)
			;
		if (j == m)
			t[m++] = (struct kb_bss){ .size = size };
		t[j].weight += share[k];
	}
	for (i = 1; i < m; i++) {		/* stable, by share */
		struct kb_bss e = t[i];

		for (j = i; j > 0 && t[j - 1].weight > e.weight; j--)
			t[j] = t[j - 1];
		t[j] = e;
	}
	memcpy(v, t, m * sizeof(*t));
	*nr = m;
	ret = 0;
out:
	free(t);
	free(order);
	free(share);
	return ret;
}

int kb_parse_bssplit(const char *s, struct kb_bss **out, unsigned int *nr,
		     char *err, size_t errlen)
{
	return kb_parse_bssplit_base(s, 1024, out, nr, NULL, err, errlen);
}

/* fio bssplit: SIZE/PCT:SIZE/PCT...  (like fio). */
int kb_parse_bssplit_base(const char *s, unsigned int kb_base, struct kb_bss **out,
			  unsigned int *nr, uint32_t *given_max, char *err, size_t errlen)
{
	struct kb_bss *v = NULL, *nv;
	char *copy, *tok, *save = NULL;
	unsigned int n = 0;
	int ret = -1;

	if (strchr(s, ','))
		return kb_errf(err, errlen,
			    "per-direction bssplit (',') is not supported: '%s'", s);
	if (!*s || s[strlen(s) - 1] == ':' || strstr(s, "::") || s[0] == ':')
		return kb_errf(err, errlen, "invalid bssplit '%s' (empty entry)", s);
	copy = strdup(s);
	if (!copy)
		return kb_errf(err, errlen, "out of memory");
	for (tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		if (n >= KB_MAX_LIST) {
			kb_errf(err, errlen, "invalid bssplit '%s' (too many entries)", s);
			goto out;
		}
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv) {
			kb_errf(err, errlen, "out of memory");
			goto out;
		}
		v = nv;
		if (bss_entry(tok, kb_base, &v[n], err, errlen))
			goto out;
		n++;
	}
	if (given_max) {	/* fio's max_bs, which verify_interval's rule reads */
		unsigned int i;

		*given_max = 0;
		for (i = 0; i < n; i++)
			if (v[i].size > *given_max)
				*given_max = v[i].size;
	}
	if (bss_as_fio(v, &n, s, err, errlen))
		goto out;
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
const char *kb_sysfs_root(void)
{
	const char *root = getenv("KIOBENCH_SYSFS");

	return root && *root ? root : "/sys";
}

/* /proc/interrupts, or $KIOBENCH_INTERRUPTS (the tests' copy). */
const char *kb_proc_interrupts(void)
{
	const char *path = getenv("KIOBENCH_INTERRUPTS");

	return path && *path ? path : "/proc/interrupts";
}

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

static const char *const fmt_name[KB_FMT_NR] = {
	[KB_FMT_NORMAL_BIT] = "normal",
	[KB_FMT_JSON_BIT] = "json",
	[KB_FMT_JSONPLUS_BIT] = "json+",
	[KB_FMT_TERSE_BIT] = "terse",
	[KB_FMT_CSV_BIT] = "csv",
};

void kb_fmt_names(unsigned int mask, char *buf, size_t len)
{
	unsigned int i, n = 0, left = __builtin_popcount(mask);
	size_t at = 0;

	buf[0] = '\0';
	for (i = 0; i < KB_FMT_NR; i++) {
		if (!(mask & (1u << i)) || at >= len)
			continue;
		left--;
		at += snprintf(buf + at, len - at, "%s%s", n++ ? (left ? ", " : " or ") : "",
			       fmt_name[i]);
	}
}

/* A comma-separated list of the formats in allowed (KB_FMT_*). */
int kb_parse_formats(const char *s, unsigned int allowed, unsigned int *out,
		     char *err, size_t errlen)
{
	unsigned int f = 0, i;
	const char *p = s;
	char names[64];

	for (;;) {
		size_t len = strcspn(p, ",");

		for (i = 0; i < KB_FMT_NR; i++)
			if ((allowed & (1u << i)) && strlen(fmt_name[i]) == len &&
			    !strncmp(p, fmt_name[i], len))
				break;
		if (i == KB_FMT_NR) {
			kb_fmt_names(allowed, names, sizeof(names));
			return kb_errf(err, errlen, "invalid output format '%.*s' (%s)",
				       (int)len, p, names);
		}
		f |= 1u << i;
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

char *kb_read_file(const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	int fd, e;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto err;
	for (;;) {
		ssize_t n;

		if (cap - len < 2) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				errno = ENOMEM;
				goto err_close;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto err_close;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
err_close:
	e = errno;
	close(fd);
	errno = e;
err:
	e = errno;
	free(buf);
	errno = e;
	return NULL;
}

int kb_dev_bytes(const char *path, uint64_t *bytes)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret, e;

	if (fd < 0)
		return -1;
	ret = ioctl(fd, BLKGETSIZE64, bytes);
	e = errno;
	close(fd);
	errno = e;
	return ret ? -1 : 0;
}

/* ---- fio's ${VAR} and $keywords in values -------------------------------------- */

struct kb_buf {
	char *s;
	size_t len, cap;
	bool oom;
};

static void buf_add(struct kb_buf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *ns = realloc(b->s, cap);

		if (!ns) {
			b->oom = true;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

/* fio's reserved keywords: $ncpus, $pagesize, $mb_memory. */
static bool keyword(const char *p, size_t *len, uint64_t *v)
{
	static const char *const names[] = { "ncpus", "pagesize", "mb_memory" };
	size_t i, n;

	for (i = 0; i < 3; i++) {
		n = strlen(names[i]);
		if (strncmp(p, names[i], n) || isalnum((unsigned char)p[n]) || p[n] == '_')
			continue;
		*len = n;
		if (i == 0)
			*v = sysconf(_SC_NPROCESSORS_ONLN);
		else if (i == 1)
			*v = sysconf(_SC_PAGESIZE);
		else
			*v = (uint64_t)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE) >> 20;
		return true;
	}
	return false;
}

/* Integer arithmetic: + - * / and parentheses, as fio evaluates keywords. */
struct expr {
	const char *p;
	bool bad;
};

static int64_t expr_sum(struct expr *e);

static void expr_space(struct expr *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static int64_t expr_atom(struct expr *e)
{
	int64_t v = 0;

	expr_space(e);
	if (*e->p == '(') {
		e->p++;
		v = expr_sum(e);
		expr_space(e);
		if (*e->p++ != ')')
			e->bad = true;
		return v;
	}
	if (*e->p == '-') {
		e->p++;
		return -expr_atom(e);
	}
	if (!isdigit((unsigned char)*e->p)) {
		e->bad = true;
		return 0;
	}
	while (isdigit((unsigned char)*e->p))
		v = v * 10 + (*e->p++ - '0');
	return v;
}

static int64_t expr_product(struct expr *e)
{
	int64_t v = expr_atom(e), r;

	for (;;) {
		char op;

		expr_space(e);
		op = *e->p;
		if (op != '*' && op != '/')
			return v;
		e->p++;
		r = expr_atom(e);
		if (op == '/' && !r) {
			e->bad = true;
			return 0;
		}
		v = op == '*' ? v * r : v / r;
	}
}

static int64_t expr_sum(struct expr *e)
{
	int64_t v = expr_product(e);

	for (;;) {
		char op;

		expr_space(e);
		op = *e->p;
		if (op != '+' && op != '-')
			return v;
		e->p++;
		v = op == '+' ? v + expr_product(e) : v - expr_product(e);
	}
}

/* ${NAME} of the environment (unset: empty), then the keywords. */
static void expand_into(struct kb_buf *b, const char *val, bool *kw)
{
	const char *p = val;

	while (*p) {
		size_t n = strcspn(p, "$");
		uint64_t v;
		char num[32];

		buf_add(b, p, n);
		p += n;
		if (!*p)
			break;
		if (p[1] == '{' && strchr(p, '}')) {
			const char *end = strchr(p, '}');
			char *name = strndup(p + 2, end - p - 2);
			const char *env = name ? getenv(name) : NULL;

			b->oom |= !name;
			if (env)
				buf_add(b, env, strlen(env));
			free(name);
			p = end + 1;
		} else if (keyword(p + 1, &n, &v)) {
			buf_add(b, num, snprintf(num, sizeof(num), "%llu", (unsigned long long)v));
			*kw = true;
			p += 1 + n;
		} else {
			buf_add(b, p, 1);
			p++;
		}
	}
}

/*
 * fio's expansion of an option's value: ${NAME} from the environment (an
 * unset one is empty), $ncpus, $pagesize and $mb_memory; a value with a
 * keyword is evaluated as integer arithmetic (size=8*$mb_memory), as fio
 * does.  A malloc'ed string, or NULL and a message.
 */
char *kb_expand_value(const char *val, char *err, size_t errlen)
{
	struct kb_buf b = { 0 };
	bool kw = false;

	if (strstr(val, "$(")) {
		kb_errf(err, errlen, "invalid value '%s' (fio takes no $(...) arithmetic; "
			"arithmetic goes with $ncpus, $pagesize or $mb_memory, e.g. 2*$ncpus)",
			val);
		return NULL;
	}
	buf_add(&b, "", 0);
	expand_into(&b, val, &kw);
	if (!b.oom && kw && strpbrk(b.s, "+-*/()")) {
		struct expr e = { .p = b.s };
		int64_t v = expr_sum(&e);
		char num[32];

		expr_space(&e);
		if (e.bad || *e.p || v < 0) {
			kb_errf(err, errlen, "invalid expression '%s' (%s)", val, b.s);
			free(b.s);
			return NULL;
		}
		b.len = 0;
		buf_add(&b, num, snprintf(num, sizeof(num), "%lld", (long long)v));
	}
	if (b.oom) {
		free(b.s);
		kb_errf(err, errlen, "out of memory");
		return NULL;
	}
	return b.s;
}
