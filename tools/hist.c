// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs histogram and timeline parsing, percentiles and latency
 * statistics.  Pure functions, no I/O except kb_read_file().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kiobench.h"

typedef unsigned __int128 u128;

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

void kb_config_devices(const char *text, char *out, size_t len)
{
	const char *p = text;
	size_t used = 0;

	if (len)
		out[0] = '\0';
	while (p && *p) {
		if (!strncmp(p, "device=", 7)) {
			size_t n = strcspn(p + 7, " \t\r\n");
			int w = snprintf(out + used, len - used, "%s%.*s", used ? ":" : "",
					 (int)n, p + 7);

			if (w < 0 || (size_t)w >= len - used) {
				out[used] = '\0';	/* whole devices only */
				break;
			}
			used += w;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
}

/* Strict decimal u64. */
static int dec_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - (*s - '0')) / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	*out = v;
	return 0;
}

/* Split a line into at most max whitespace separated fields. */
static int split(char *s, char **f, int max)
{
	char *save = NULL, *t;
	int n = 0;

	for (t = strtok_r(s, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
		if (n == max)
			return max + 1;
		f[n++] = t;
	}
	return n;
}

/*
 * Iterate over the lines of text; calls fn for each non-empty line with its
 * number.  Returns the first non-zero value of fn.
 */
static int for_each_line(const char *text, char *err, size_t errlen,
			 int (*fn)(char *line, unsigned int no, void *arg,
				   char *err, size_t errlen), void *arg)
{
	char *copy = strdup(text), *line, *next;
	unsigned int no = 0;
	int ret = 0;

	if (!copy)
		return kb_errf(err, errlen, "out of memory");
	for (line = copy; line && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		no++;
		if (line[strspn(line, " \t\r")] == '\0')
			continue;
		ret = fn(line, no, arg, err, errlen);
	}
	free(copy);
	return ret;
}

/* ---- histogram ----------------------------------------------------------- */

enum { H_DIR = 1, H_UNIT = 2, H_BITS = 4, H_SAMPLES = 8, H_MIN = 16,
       H_MAX = 32, H_SUM = 64, H_ALL = 127 };

struct hist_ctx {
	struct kb_hist *h;
	int want_dir;
	unsigned int seen;
	bool magic, data;
	uint64_t total;
	size_t cap;
};

static int hist_line(char *line, unsigned int no, void *arg, char *err, size_t errlen)
{
	struct hist_ctx *c = arg;
	struct kb_hist *h = c->h;
	char *f[4];
	int n;

	if (line[0] == '#') {
		n = split(line + 1, f, 3);
		if (!c->magic) {
			uint64_t ver;

			if (n != 2 || strcmp(f[0], "kiobench-histogram"))
				return kb_errf(err, errlen, "line %u: not a kiobench histogram", no);
			if (dec_u64(f[1], &ver) || ver != 1)
				return kb_errf(err, errlen,
					    "line %u: unsupported histogram version '%s'", no, f[1]);
			c->magic = true;
			return 0;
		}
		if (c->data)
			return kb_errf(err, errlen, "line %u: header line after the buckets", no);
		if (n != 2)
			return kb_errf(err, errlen, "line %u: malformed header line", no);
		if (!strcmp(f[0], "dir")) {
			const char *want = c->want_dir == KIOBENCH_DIR_READ ? "read" : "write";

			if (strcmp(f[1], want))
				return kb_errf(err, errlen, "line %u: direction '%s', expected '%s'",
					    no, f[1], want);
			c->seen |= H_DIR;
		} else if (!strcmp(f[0], "unit")) {
			if (strcmp(f[1], "ns"))
				return kb_errf(err, errlen, "line %u: unit '%s', expected 'ns'",
					    no, f[1]);
			c->seen |= H_UNIT;
		} else {
			static const struct { const char *key; unsigned int bit; } keys[] = {
				{ "bits", H_BITS }, { "samples", H_SAMPLES },
				{ "min", H_MIN }, { "max", H_MAX }, { "sum", H_SUM },
			};
			uint64_t v;
			size_t i;

			for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
				if (!strcmp(f[0], keys[i].key))
					break;
			if (i == sizeof(keys) / sizeof(keys[0]))
				return 0;	/* unknown key: newer module */
			if (dec_u64(f[1], &v))
				return kb_errf(err, errlen, "line %u: invalid %s '%s'",
					    no, f[0], f[1]);
			switch (keys[i].bit) {
			case H_BITS:
				if (v > 32)
					return kb_errf(err, errlen, "line %u: invalid bits '%s'",
						    no, f[1]);
				h->bits = v;
				break;
			case H_SAMPLES: h->samples = v; break;
			case H_MIN: h->min = v; break;
			case H_MAX: h->max = v; break;
			case H_SUM: h->sum = v; break;
			}
			c->seen |= keys[i].bit;
		}
		return 0;
	}
	if (!c->magic)
		return kb_errf(err, errlen, "line %u: not a kiobench histogram", no);
	c->data = true;
	{
		struct kb_bucket b;

		n = split(line, f, 3);
		if (n != 3 || dec_u64(f[0], &b.lo) || dec_u64(f[1], &b.hi) ||
		    dec_u64(f[2], &b.count))
			return kb_errf(err, errlen, "line %u: malformed bucket line", no);
		if (b.hi <= b.lo)
			return kb_errf(err, errlen, "line %u: empty bucket range [%llu, %llu)",
				    no, (unsigned long long)b.lo, (unsigned long long)b.hi);
		if (h->nr && b.lo < h->b[h->nr - 1].hi)
			return kb_errf(err, errlen, "line %u: buckets not in ascending order", no);
		if (c->total > UINT64_MAX - b.count)
			return kb_errf(err, errlen, "line %u: counts overflow", no);
		c->total += b.count;
		if (!b.count)
			return 0;
		if (h->nr == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 64;
			struct kb_bucket *nb = realloc(h->b, cap * sizeof(*nb));

			if (!nb)
				return kb_errf(err, errlen, "out of memory");
			h->b = nb;
			c->cap = cap;
		}
		h->b[h->nr++] = b;
	}
	return 0;
}

int kb_hist_parse(const char *text, int dir, struct kb_hist *h,
		  char *err, size_t errlen)
{
	static const char *const names[] = { "dir", "unit", "bits", "samples",
					     "min", "max", "sum" };
	struct hist_ctx c = { .h = h, .want_dir = dir };
	unsigned int i;

	memset(h, 0, sizeof(*h));
	h->dir = dir;
	if (for_each_line(text, err, errlen, hist_line, &c))
		goto bad;
	if (!c.magic) {
		kb_errf(err, errlen, "empty histogram file");
		goto bad;
	}
	for (i = 0; i < 7; i++) {
		/* min, max and sum may be left out of an empty histogram */
		if (!(c.seen & (1u << i)) && (h->samples || (1u << i) < H_MIN)) {
			kb_errf(err, errlen, "header '%s' missing", names[i]);
			goto bad;
		}
	}
	if (c.total != h->samples) {
		kb_errf(err, errlen, "bucket counts add up to %llu, header says %llu samples",
		     (unsigned long long)c.total, (unsigned long long)h->samples);
		goto bad;
	}
	if (h->samples && h->min > h->max) {
		kb_errf(err, errlen, "min %llu is above max %llu",
		     (unsigned long long)h->min, (unsigned long long)h->max);
		goto bad;
	}
	return 0;
bad:
	kb_hist_free(h);
	return -1;
}

void kb_hist_free(struct kb_hist *h)
{
	free(h->b);
	h->b = NULL;
	h->nr = 0;
}

/* ---- timeline ------------------------------------------------------------ */

static const char *const tl_cols[] = {
	"t_ns", "read_ios", "read_bytes", "read_lat_ns",
	"write_ios", "write_bytes", "write_lat_ns",
};
#define TL_NCOLS 7
#define TL_MAXCOLS 64

struct tl_ctx {
	struct kb_timeline *tl;
	bool magic, interval;
	int ncols;
	int map[TL_NCOLS];	/* our column -> file column */
	size_t cap;
};

static int tl_line(char *line, unsigned int no, void *arg, char *err, size_t errlen)
{
	struct tl_ctx *c = arg;
	char *f[TL_MAXCOLS + 1];
	uint64_t v[TL_MAXCOLS];
	struct kb_tl_point *p;
	int n, i, j;

	if (line[0] == '#') {
		n = split(line + 1, f, TL_MAXCOLS);
		if (!c->magic) {
			uint64_t ver;

			if (n != 2 || strcmp(f[0], "kiobench-timeline"))
				return kb_errf(err, errlen, "line %u: not a kiobench timeline", no);
			if (dec_u64(f[1], &ver) || ver != 1)
				return kb_errf(err, errlen,
					    "line %u: unsupported timeline version '%s'", no, f[1]);
			c->magic = true;
			return 0;
		}
		if (c->tl->nr)
			return kb_errf(err, errlen, "line %u: header line after the data", no);
		if (n >= 1 && !strcmp(f[0], "interval_ns")) {
			if (n != 2 || dec_u64(f[1], &c->tl->interval_ns))
				return kb_errf(err, errlen, "line %u: malformed interval_ns", no);
			c->interval = true;
		} else if (n >= 1 && !strcmp(f[0], "dropped")) {
			if (n != 2 || dec_u64(f[1], &c->tl->dropped))
				return kb_errf(err, errlen, "line %u: malformed dropped", no);
		} else if (n >= 1 && !strcmp(f[0], "columns")) {
			if (n > TL_MAXCOLS)
				return kb_errf(err, errlen, "line %u: too many columns", no);
			c->ncols = n - 1;
			for (i = 0; i < TL_NCOLS; i++) {
				c->map[i] = -1;
				for (j = 1; j < n; j++)
					if (!strcmp(f[j], tl_cols[i]))
						c->map[i] = j - 1;
				if (c->map[i] < 0)
					return kb_errf(err, errlen, "line %u: column '%s' missing",
						    no, tl_cols[i]);
			}
		}
		return 0;
	}
	if (!c->magic)
		return kb_errf(err, errlen, "line %u: not a kiobench timeline", no);
	if (!c->ncols || !c->interval)
		return kb_errf(err, errlen, "line %u: data before the columns/interval_ns headers",
			    no);
	n = split(line, f, TL_MAXCOLS);
	if (n != c->ncols)
		return kb_errf(err, errlen, "line %u: %d fields, expected %d", no, n, c->ncols);
	for (i = 0; i < n; i++)
		if (dec_u64(f[i], &v[i]))
			return kb_errf(err, errlen, "line %u: invalid number '%s'", no, f[i]);
	if (c->tl->nr == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		struct kb_tl_point *np = realloc(c->tl->p, cap * sizeof(*np));

		if (!np)
			return kb_errf(err, errlen, "out of memory");
		c->tl->p = np;
		c->cap = cap;
	}
	p = &c->tl->p[c->tl->nr++];
	p->t_ns = v[c->map[0]];
	for (i = 0; i < KIOBENCH_NR_DIRS; i++) {
		p->ios[i] = v[c->map[1 + 3 * i]];
		p->bytes[i] = v[c->map[2 + 3 * i]];
		p->lat_ns[i] = v[c->map[3 + 3 * i]];
	}
	return 0;
}

int kb_timeline_parse(const char *text, struct kb_timeline *tl,
		      char *err, size_t errlen)
{
	struct tl_ctx c = { .tl = tl };

	memset(tl, 0, sizeof(*tl));
	if (for_each_line(text, err, errlen, tl_line, &c))
		goto bad;
	if (!c.magic) {
		kb_errf(err, errlen, "empty timeline file");
		goto bad;
	}
	if (!c.interval || !c.ncols) {
		kb_errf(err, errlen, "header '%s' missing", c.interval ? "columns" : "interval_ns");
		goto bad;
	}
	return 0;
bad:
	kb_timeline_free(tl);
	return -1;
}

void kb_timeline_free(struct kb_timeline *tl)
{
	free(tl->p);
	tl->p = NULL;
	tl->nr = 0;
}

/* ---- statistics ---------------------------------------------------------- */

/* Midpoint of [lo, hi), clamped to the observed [min, max]. */
uint64_t kb_bucket_estimate(const struct kb_bucket *b, uint64_t min, uint64_t max)
{
	uint64_t v = b->lo + (b->hi - b->lo - 1) / 2;

	if (v < min)
		v = min;
	if (v > max)
		v = max;
	return v;
}

/* rank = ceil(p/100 * n), at least 1. */
uint64_t kb_pct_rank(uint64_t n, uint32_t pct)
{
	u128 r = ((u128)pct * n + KB_PCT_100 - 1) / KB_PCT_100;

	if (r < 1)
		r = 1;
	if (r > n)
		r = n;
	return (uint64_t)r;
}

/* n * (1 - p/100) < 1: not one sample is expected above the percentile. */
bool kb_pct_low_confidence(uint64_t n, uint32_t pct)
{
	return (u128)n * (KB_PCT_100 - pct) < KB_PCT_100;
}

int kb_hist_percentiles(const struct kb_hist *h, const uint32_t *plist,
			unsigned int nr, uint64_t *out, bool *lowconf)
{
	unsigned int i;
	size_t j;

	if (!h->samples || !h->nr)
		return -1;
	for (i = 0; i < nr; i++) {
		uint64_t rank = kb_pct_rank(h->samples, plist[i]), cum = 0;

		for (j = 0; j < h->nr; j++) {
			cum += h->b[j].count;
			if (cum >= rank)
				break;
		}
		if (j == h->nr)
			j = h->nr - 1;
		out[i] = kb_bucket_estimate(&h->b[j], h->min, h->max);
		if (lowconf)
			lowconf[i] = kb_pct_low_confidence(h->samples, plist[i]);
	}
	return 0;
}

double kb_lat_mean(uint64_t n, uint64_t sum)
{
	return n ? (double)((long double)sum / n) : 0.0;
}

/*
 * Sample standard deviation (n - 1, as fio) from the sum and the 128-bit
 * sum of squares.  sum^2/n is split into an exact integer quotient and a
 * remainder so that sumsq - sum^2/n does not cancel catastrophically.
 */
double kb_lat_stddev(uint64_t n, uint64_t sum, uint64_t sumsq_hi, uint64_t sumsq_lo)
{
	u128 sumsq = ((u128)sumsq_hi << 64) | sumsq_lo;
	u128 s2 = (u128)sum * sum, q, r;
	long double m2;

	if (n < 2)
		return 0.0;
	q = s2 / n;
	r = s2 % n;
	if (sumsq < q)
		return 0.0;	/* inconsistent input */
	m2 = (long double)(sumsq - q) - (long double)r / n;
	if (m2 <= 0)
		return 0.0;
	return (double)sqrtl(m2 / (n - 1));
}

const unsigned int kb_lat_nu_edges[KB_LAT_N_NR] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000,
};
const unsigned int kb_lat_m_edges[KB_LAT_M_NR] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000, 2000,	/* last: >= 2000 */
};

static unsigned int lat_idx(uint64_t v, const unsigned int *edges, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr - 1; i++)
		if (v < edges[i])
			return i;
	return nr - 1;
}

/*
 * fio's latency distribution (percent of all I/Os of every direction in
 * ranges below 2, 4, 10 ... 1000 ns, us and ms, and >= 2000 ms), with each
 * bucket counted at its estimated value.  Non-zero shares below 0.01% are
 * shown as 0.01%, like fio.
 */
void kb_lat_dist(const struct kb_hist *const *h, unsigned int nh,
		 double *pn, double *pu, double *pm)
{
	uint64_t cn[KB_LAT_N_NR] = { 0 }, cu[KB_LAT_U_NR] = { 0 }, cm[KB_LAT_M_NR] = { 0 };
	uint64_t total = 0;
	unsigned int i;
	size_t j;

	for (i = 0; i < nh; i++) {
		if (!h[i])
			continue;
		for (j = 0; j < h[i]->nr; j++) {
			uint64_t v = kb_bucket_estimate(&h[i]->b[j], h[i]->min, h[i]->max);
			uint64_t c = h[i]->b[j].count;

			if (v < 1000)
				cn[lat_idx(v, kb_lat_nu_edges, KB_LAT_N_NR)] += c;
			else if (v < 1000000)
				cu[lat_idx(v / 1000, kb_lat_nu_edges, KB_LAT_U_NR)] += c;
			else
				cm[lat_idx(v / 1000000, kb_lat_m_edges, KB_LAT_M_NR)] += c;
			total += c;
		}
	}
#define PCT(c) (!total ? 0.0 : ((c) && 100.0 * (c) / total < 0.01) ? 0.01 : \
		100.0 * (double)(c) / (double)total)
	for (i = 0; i < KB_LAT_N_NR; i++)
		pn[i] = PCT(cn[i]);
	for (i = 0; i < KB_LAT_U_NR; i++)
		pu[i] = PCT(cu[i]);
	for (i = 0; i < KB_LAT_M_NR; i++)
		pm[i] = PCT(cm[i]);
#undef PCT
}
