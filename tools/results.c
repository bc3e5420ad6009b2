// SPDX-License-Identifier: GPL-2.0
/*
 * The module's debugfs files: reading them, and parsing the histogram,
 * timeline and config texts.  The parsers are pure functions of the text
 * (unit-tested); kb_read_file() is the only I/O.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "cli.h"
#include "fiolog.h"
#include "kiobench.h"
#include "options.h"
#include "result.h"
#include "values.h"

const char *const kb_dir_names[KIOBENCH_NR_DIRS] = { "read", "write", "trim", "sync" };

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

/*
 * "# key value" of a number: bits, samples, min, max, sum; sumsq_hi,
 * sumsq_lo, unsplit and unsplit_<why> of a secondary measure (others: newer
 * module).
 */
static int hist_key(struct hist_ctx *c, char **f, unsigned int no, char *err, size_t errlen)
{
	static const struct { const char *key; unsigned int bit; size_t off; } keys[] = {
		{ "bits", H_BITS, offsetof(struct kb_hist, bits) },
		{ "samples", H_SAMPLES, offsetof(struct kb_hist, samples) },
		{ "min", H_MIN, offsetof(struct kb_hist, min) },
		{ "max", H_MAX, offsetof(struct kb_hist, max) },
		{ "sum", H_SUM, offsetof(struct kb_hist, sum) },
		{ "sumsq_hi", 0, offsetof(struct kb_hist, sumsq_hi) },
		{ "sumsq_lo", 0, offsetof(struct kb_hist, sumsq_lo) },
		{ "unsplit", 0, offsetof(struct kb_hist, unsplit) },
		{ "unsplit_split", 0, offsetof(struct kb_hist, unsplit_why[KB_UNSPLIT_SPLIT]) },
		{ "unsplit_no_request", 0,
		  offsetof(struct kb_hist, unsplit_why[KB_UNSPLIT_NO_REQUEST]) },
		{ "unsplit_no_driver", 0,
		  offsetof(struct kb_hist, unsplit_why[KB_UNSPLIT_NO_DRIVER]) },
		{ "unsplit_disordered", 0,
		  offsetof(struct kb_hist, unsplit_why[KB_UNSPLIT_DISORDERED]) },
		{ "unsplit_sync_call", 0,
		  offsetof(struct kb_hist, unsplit_why[KB_UNSPLIT_SYNC_CALL]) },
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(f[0], keys[i].key))
			break;
	if (i == sizeof(keys) / sizeof(keys[0]))
		return 0;
	if (dec_u64(f[1], &v) || (keys[i].bit == H_BITS && v > KB_HIST_MAX_BITS))
		return kb_errf(err, errlen, "line %u: invalid %s '%s'", no, f[0], f[1]);
	if (keys[i].bit == H_BITS)
		c->h->bits = v;
	else
		*(uint64_t *)((char *)c->h + keys[i].off) = v;
	c->seen |= keys[i].bit;
	return 0;
}

/* A "#" line: the magic line first, then "key value" headers. */
static int hist_header(struct hist_ctx *c, char *line, unsigned int no,
		       char *err, size_t errlen)
{
	char *f[4];
	uint64_t ver;
	int n = split(line + 1, f, 3);

	if (!c->magic) {
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
		const char *want = kb_dir_names[c->want_dir];

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
		return hist_key(c, f, no, err, errlen);
	}
	return 0;
}

/* "lo hi count": buckets in ascending order; empty ones are not kept. */
static int hist_bucket(struct hist_ctx *c, char *line, unsigned int no,
		       char *err, size_t errlen)
{
	struct kb_hist *h = c->h;
	struct kb_bucket b;
	char *f[4];
	int n = split(line, f, 3);

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
	return 0;
}

static int hist_line(char *line, unsigned int no, void *arg, char *err, size_t errlen)
{
	struct hist_ctx *c = arg;

	if (line[0] == '#')
		return hist_header(c, line, no, err, errlen);
	if (!c->magic)
		return kb_errf(err, errlen, "line %u: not a kiobench histogram", no);
	c->data = true;
	return hist_bucket(c, line, no, err, errlen);
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
	/* optional: a module without trims and flushes has neither */
	"trim_ios", "trim_bytes", "trim_lat_ns",
	"sync_ios", "sync_bytes", "sync_lat_ns",
};
#define TL_NCOLS 13
#define TL_NEEDED 7	/* the columns every module has */
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
				if (c->map[i] < 0 && i < TL_NEEDED)
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
		int *m = &c->map[1 + 3 * i];

		p->ios[i] = m[0] < 0 ? 0 : v[m[0]];
		p->bytes[i] = m[1] < 0 ? 0 : v[m[1]];
		p->lat_ns[i] = m[2] < 0 ? 0 : v[m[2]];
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


/* ---- reading the files ---------------------------------------------------- */

static const char *debugfs_root(void)
{
	const char *root = getenv("KIOBENCH_DEBUGFS");

	return root && *root ? root : "/sys/kernel/debug";
}

/* The text of file in job directory dir (path: its name); NULL after a message. */
static char *read_debugfs(const char *dir, const char *file, char *path, size_t pathlen)
{
	char *text;

	snprintf(path, pathlen, "%s/kiobench/%s/%s", debugfs_root(), dir, file);
	text = kb_read_file(path);
	if (!text)
		msg("cannot read %s: %s%s", path, strerror(errno),
		    errno == ENOENT ? " (is debugfs mounted?)" : "");
	return text;
}

/* Direction d's histogram; it must hold every I/O the kernel counted. */
static bool read_hist(const char *dir, int d, struct kb_result *res)
{
	static const char *const hfile[KIOBENCH_NR_DIRS] = { "hist_read", "hist_write",
							       "hist_trim", "hist_sync" };
	char path[512], err[KB_ERRLEN], *text;
	bool ok;

	/* a module without trims and flushes reports neither */
	if (d > KIOBENCH_DIR_WRITE && !res->st.dir[d].present)
		return true;
	text = read_debugfs(dir, hfile[d], path, sizeof(path));
	ok = text != NULL;

	if (text && kb_hist_parse(text, d, &res->hist[d], err, sizeof(err))) {
		msg("%s: %s", path, err);
		ok = false;
	} else if (text) {
		res->has_hist[d] = true;
		if (res->hist[d].samples != res->st.dir[d].ios)
			msg("warning: %s has %" PRIu64 " samples but the kernel counted %"
			    PRIu64 " %s I/Os", path, res->hist[d].samples, res->st.dir[d].ios,
			    kb_dir_names[d]);
	}
	free(text);
	return ok;
}

static bool read_timeline(const char *dir, struct kb_result *res)
{
	char path[512], err[KB_ERRLEN], *text = read_debugfs(dir, "timeline", path, sizeof(path));
	bool ok = text != NULL;

	if (text && kb_timeline_parse(text, &res->tl, err, sizeof(err))) {
		msg("%s: %s", path, err);
		ok = false;
	} else if (text) {
		res->has_tl = true;
		if (res->tl.dropped)
			msg("warning: %s: %" PRIu64 " samples dropped (the module keeps a "
			    "bounded number)", path, res->tl.dropped);
	}
	free(text);
	return ok;
}

/*
 * raw_lat_log: the job's per-I/O log from debugfs, as it is, into the user's file
 * (FILE.NAME when the run has several jobs, FILE.NAME.K for clone K of
 * numjobs).  false: not written.
 */
static bool save_raw_lat_log(const char *text, const struct kb_job *job, bool several)
{
	char dst[4096];
	FILE *f;
	bool ok;

	if (several && job->clones > 1)	/* numjobs' clones share their name */
		snprintf(dst, sizeof(dst), "%s.%s.%u", job->raw_lat_log, job->name, job->clone);
	else if (several)
		snprintf(dst, sizeof(dst), "%s.%s", job->raw_lat_log, job->name);
	else
		snprintf(dst, sizeof(dst), "%s", job->raw_lat_log);
	f = fopen(dst, "w");
	if (!f) {
		msg("%s: %s", dst, strerror(errno));
		return false;
	}
	fputs(text, f);
	ok = !ferror(f);
	ok &= !fclose(f);
	if (!ok)
		msg("%s: %s", dst, strerror(errno));
	return ok;
}

/* fio's logs of the job (fiolog.c), made from its per-I/O log. */
static bool save_fio_logs(const char *text, const char *path, const struct kb_result *res)
{
	const struct kb_job *job = res->job;
	char err[KB_ERRLEN + 4200];
	struct kb_io_entry *e = NULL;
	uint64_t dropped, ramp;
	size_t n, i;
	bool ok;

	if (!job->lat_log && !job->bw_log && !job->iops_log && !job->hist_log)
		return true;
	if (kb_io_log_parse(text, &e, &n, &dropped, err, sizeof(err))) {
		msg("%s: %s", path, err);
		return false;
	}
	if (job->write_iolog) {
		/*
		 * A log of every I/O (write_iolog): these logs keep their
		 * meaning, the measured I/Os only; past its end, those of the
		 * measured I/Os the kernel counted that it does not hold.
		 */
		uint64_t measured = 0;
		size_t k = 0;
		int d;

		for (i = 0; i < n; i++)
			if (!e[i].flags)
				e[k++] = e[i];
		n = k;
		for (d = 0; d < KIOBENCH_NR_DIRS; d++)
			measured += res->st.dir[d].ios;
		dropped = measured > n ? measured - n : 0;
	}
	if (dropped)
		msg("warning: job %s: the logs hold its first %zu I/Os; %" PRIu64 " more "
		    "were not logged (lat_log_entries)", job->name, n, dropped);
	/*
	 * fio's log times start where its statistics do, after ramp_time
	 * (reset_all_stats() resets the epoch); the kernel's are since the job's
	 * start, and every logged I/O was submitted after the warm-up.
	 */
	ramp = res->st.cfg.present ? kb_kcfg_u64(&res->st.cfg, KIOBENCH_A_RAMP_NS) : job->ramp_ns;
	for (i = 0; i < n; i++)
		e[i].end_ns = e[i].end_ns > ramp ? e[i].end_ns - ramp : 0;
	/* log_unix_epoch...: the clock at the job's start, plus its warm-up (fio's epoch) */
	ok = !kb_fio_logs_write(job, res->index ? res->index : 1,
				res->log_epoch_ns ? (res->log_epoch_ns + ramp) / 1000000 : 0,
				e, n, err, sizeof(err));
	if (!ok)
		msg("%s", err);
	free(e);
	return ok;
}

/*
 * write_iolog: fio's iolog of every I/O the job issued, from the kernel's
 * log of every I/O (lat-log-all).  Never a part of them: a log that could
 * not hold them all is said, with how many it left out, and not written.
 */
static bool save_iolog(const char *text, const char *path, const struct kb_result *res)
{
	const struct kb_job *job = res->job;
	char err[KB_ERRLEN + 4200];
	struct kb_io_entry *e = NULL;
	uint64_t dropped;
	size_t n;
	bool ok;

	if (!job->write_iolog)
		return true;
	if (!strstr(text, "\n# all 1\n")) {
		msg("error: job %s: write_iolog: %s holds only the measured I/Os (a module "
		    "without lat-log-all): %s not written", job->name, path, job->write_iolog);
		return false;
	}
	if (kb_io_log_parse(text, &e, &n, &dropped, err, sizeof(err))) {
		msg("%s: %s", path, err);
		return false;
	}
	if (dropped) {
		msg("error: job %s: write_iolog: the kernel's per-I/O log held %zu of the %"
		    PRIu64 " I/Os the job issued, %" PRIu64 " left out (lat_log_entries=%u): "
		    "%s not written; raise lat_log_entries", job->name, n, n + dropped,
		    dropped, job->lat_log_entries, job->write_iolog);
		free(e);
		return false;
	}
	ok = !kb_fio_iolog_write(job, e, n, err, sizeof(err));
	if (!ok)
		msg("error: job %s: %s", job->name, err);
	free(e);
	return ok;
}

/* The per-I/O log, for raw_lat_log and fio's logs.  false: not all written. */
static bool save_logs(const char *dir, bool several, const struct kb_result *res)
{
	char path[512], *text;
	bool ok = true;

	if (!kb_job_wants_io_log(res->job))
		return true;
	text = read_debugfs(dir, "lat_log", path, sizeof(path));
	if (!text)
		return false;
	if (res->job->raw_lat_log)
		ok &= save_raw_lat_log(text, res->job, several);
	ok &= save_fio_logs(text, path, res);
	ok &= save_iolog(text, path, res);
	free(text);
	return ok;
}

const char *const kb_metric_names[KB_NR_MET] = {
	[KB_MET_SCHED_LAG] = "sched_lag",
	[KB_MET_LAT_SCHED] = "lat_sched",
	[KB_MET_STAGE_QUEUE] = "stage_queue",
	[KB_MET_STAGE_DEVICE] = "stage_device",
	[KB_MET_STAGE_COMPLETE] = "stage_complete",
	[KB_MET_CLAT_PRIO_DEF] = "clat_prio_default",
	[KB_MET_CLAT_PRIO_CMD] = "clat_prio_cmd",
	[KB_MET_LAT_LOCAL] = "lat_local",
	[KB_MET_LAT_REMOTE] = "lat_remote",
};

/* Secondary measure m of direction d, when the job asked for it. */
static bool read_metric(const char *dir, enum kb_metric m, int d, struct kb_result *res)
{
	char file[64], path[512], err[KB_ERRLEN], *text;
	bool ok;

	if (m <= KB_MET_LAT_SCHED ? !res->job->rate_iops :
	    m <= KB_MET_STAGE_COMPLETE ? !res->job->stages :
	    m <= KB_MET_CLAT_PRIO_CMD ? !kb_job_cmdprio(res->job) : !res->job->locality)
		return true;
	snprintf(file, sizeof(file), "%s_%s", kb_metric_names[m], kb_dir_names[d]);
	text = read_debugfs(dir, file, path, sizeof(path));
	ok = text != NULL;
	if (text && kb_hist_parse(text, d, &res->met[m][d], err, sizeof(err))) {
		msg("%s: %s", path, err);
		ok = false;
	} else if (text) {
		res->has_met[m][d] = true;
	}
	free(text);
	return ok;
}

/*
 * verify: the mismatches the kernel recorded (debugfs verify, after its
 * counts line), as "    mismatch=N kind=... offset=..." lines.
 */
static void read_verify(const char *dir, struct kb_result *res)
{
	char path[512], *text = read_debugfs(dir, "verify", path, sizeof(path));
	char *line, *save = NULL;
	size_t n = 0;

	res->verify_log[0] = '\0';
	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "mismatch=", 9))
			continue;
		/* a line whole or not at all: its last fields are the found header's */
		if (n + strlen(line) + 6 > sizeof(res->verify_log)) {
			msg("verify: mismatch lines past %zu bytes not kept", n);
			break;
		}
		n += snprintf(res->verify_log + n, sizeof(res->verify_log) - n, "    %s\n",
			      line);
	}
	free(text);
}

/* The value of " key=" in a mismatch line, into @out (empty if absent). */
static void vfield(const char *line, const char *key, char *out, size_t len)
{
	size_t n = strlen(key);
	const char *p;

	out[0] = '\0';
	for (p = strstr(line, key); p; p = strstr(p + 1, key))
		if ((p == line || p[-1] == ' ') && p[n] == '=') {
			snprintf(out, len, "%.*s", (int)strcspn(p + n + 1, " "), p + n + 1);
			return;
		}
}

/*
 * Debugfs blob @from (at most @max bytes) copied to @to: 1; 0 when the
 * kernel kept none (no such file, or empty: the first mismatches only are
 * kept); -1 on an error (errno).
 */
static int copy_blob(const char *from, const char *to, size_t max)
{
	FILE *in = fopen(from, "rb"), *out;
	char *buf = NULL;
	int ret = -1;
	size_t n;

	if (!in)
		return errno == ENOENT ? 0 : -1;
	buf = malloc(max);
	n = buf ? fread(buf, 1, max, in) : 0;
	if (buf && !n && !ferror(in)) {
		ret = 0;
	} else if (buf && n) {
		out = fopen(to, "wb");
		if (out) {
			ret = fwrite(buf, 1, n, out) == n ? 1 : -1;
			if (fclose(out))
				ret = -1;
		}
	}
	fclose(in);
	free(buf);
	return ret;
}

/*
 * verify_dump: the copies the kernel kept of its first mismatches, saved
 * where fio's dump_buf() saves them, the working directory, under its
 * names: DEVICE.OFFSET.received and .expected, or for a wrong header
 * .hdr_fail, what was read (fio dumps no expected copy of a header).  A
 * trimmed block's mismatch fio does not dump.
 */
static void save_verify_dumps(const char *dir, const struct kb_result *res)
{
	char *log = strdup(res->verify_log), *line, *save = NULL;
	char n[16], dev[256], off[32], iv[32], hdr[4], trim[4], from[512], to[512];
	const char *name;
	size_t max;
	int k, ret;
	bool hdr_fail;

	for (line = log ? strtok_r(log, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		vfield(line, "mismatch", n, sizeof(n));
		vfield(line, "device", dev, sizeof(dev));
		vfield(line, "offset", off, sizeof(off));
		vfield(line, "interval", iv, sizeof(iv));
		vfield(line, "header", hdr, sizeof(hdr));
		vfield(line, "trimmed", trim, sizeof(trim));
		max = strtoul(iv, NULL, 10);
		if (!*n || !strcmp(trim, "1") || !max)
			continue;
		hdr_fail = !strcmp(hdr, "1");
		name = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
		for (k = 0; k < (hdr_fail ? 1 : 2); k++) {	/* a header: the read alone */
			const char *what = k ? "expected" : "received";
			const char *type = hdr_fail ? "hdr_fail" : what;

			snprintf(from, sizeof(from), "%s/kiobench/%s/verify_dump/%s.%s",
				 debugfs_root(), dir, n, what);
			snprintf(to, sizeof(to), "%s.%s.%s", name, off, type);
			ret = copy_blob(from, to, max);
			if (ret > 0)
				msg("       %s data dumped as %s", type, to);
			else if (ret < 0)
				msg("verify_dump: cannot save %s as %s: %s", from, to,
				    strerror(errno));
		}
	}
	free(log);
}

/* The value after " key " in @line (0 if absent). */
static uint64_t zbd_field(const char *line, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	for (p = strstr(line, key); p; p = strstr(p + 1, key))
		if ((p == line || p[-1] == ' ') && p[n] == ' ')
			return strtoull(p + n + 1, NULL, 10);
	return 0;
}

/* zonemode=zbd: the workers' counts of debugfs zones, summed over the devices. */
static void read_zones(const char *dir, struct kb_result *res)
{
	char path[512], *text = read_debugfs(dir, "zones", path, sizeof(path));
	struct kb_zbd_counts *z = &res->zbd;
	char *line, *save = NULL;

	if (!text)
		return;
	z->present = true;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "worker ", 7)) {
			z->written += zbd_field(line, "written");
			z->resets += zbd_field(line, "resets");
			z->reset_bytes += zbd_field(line, "reset_bytes");
			z->beyond += zbd_field(line, "reads_beyond_wp");
			z->append_in += zbd_field(line, "append_in");
			z->append_out += zbd_field(line, "append_out");
			z->append_reordered += zbd_field(line, "append_reordered");
		} else if (!strncmp(line, "ops ", 4)) {
			z->opens += zbd_field(line, "opens");
			z->closes += zbd_field(line, "closes");
			z->finishes += zbd_field(line, "finishes");
		} else if (!strncmp(line, "gc ", 3)) {
			z->gc_resets += zbd_field(line, "resets");
		} else if (!strncmp(line, "zone ", 5)) {
			z->zones++;
			z->touched += zbd_field(line, "touched") != 0;
		}
	}
	free(text);
}

/* latency_target: the depth each worker found and the windows it judged. */
static bool read_latt(const char *dir, struct kb_result *res)
{
	char path[512], err[KB_ERRLEN], *text = read_debugfs(dir, "latency_target", path,
							     sizeof(path));
	bool ok = text && !kb_latt_parse(text, &res->latt, err, sizeof(err));

	if (text && !ok)
		msg("%s: %s", path, err);
	free(text);
	return ok;
}

/* locality: where the I/Os ran; a module without the file has none to tell. */
static bool read_locality(const char *dir, struct kb_result *res)
{
	char path[512], err[KB_ERRLEN], *text;

	snprintf(path, sizeof(path), "%s/kiobench/%s/locality", debugfs_root(), dir);
	text = kb_read_file(path);
	if (!text)
		return true;
	if (kb_loc_parse(text, &res->loc, err, sizeof(err))) {
		msg("%s: %s", path, err);
		free(text);
		return false;
	}
	free(text);
	return true;
}

bool kb_read_results(const char *dir, bool several, struct kb_result *res)
{
	bool ok = true;
	int d, m;

	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		ok &= read_hist(dir, d, res);
		for (m = 0; m < KB_NR_MET; m++)
			ok &= read_metric(dir, m, d, res);
	}
	ok &= read_timeline(dir, res);
	ok &= read_locality(dir, res);
	if (res->st.has_verify)
		read_verify(dir, res);
	if (res->st.has_verify && res->st.cfg.present &&
	    kb_kcfg_has(&res->st.cfg, KIOBENCH_A_VERIFY_DUMP))
		save_verify_dumps(dir, res);
	if (res->st.cfg.present && kb_kcfg_u64(&res->st.cfg, KIOBENCH_A_ZONEMODE))
		read_zones(dir, res);
	if (res->st.cfg.present && kb_kcfg_u64(&res->st.cfg, KIOBENCH_A_LATENCY_TARGET_NS))
		ok &= read_latt(dir, res);
	kb_read_versions(res);
	ok &= save_logs(dir, several, res);
	return ok;
}

void kb_read_versions(struct kb_result *res)
{
	char path[512], *text, *cpu;
	struct utsname u = { 0 };

	res->kernel[0] = res->module_version[0] = '\0';
	if (!uname(&u))
		snprintf(res->kernel, sizeof(res->kernel), "%s", u.release);
	snprintf(path, sizeof(path), "%s/module/kiobench/version", kb_sysfs_root());
	text = kb_read_file(path);
	if (text) {
		text[strcspn(text, "\n")] = '\0';
		snprintf(res->module_version, sizeof(res->module_version), "%s", text);
	}
	free(text);
	snprintf(res->hostname, sizeof(res->hostname), "%s", u.nodename);
	res->cpus = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	res->cpu_model[0] = '\0';
	text = kb_read_file("/proc/cpuinfo");
	cpu = text ? strstr(text, "model name") : NULL;
	if (cpu && strchr(cpu, ':')) {
		cpu = strchr(cpu, ':') + 1;
		cpu += strspn(cpu, " \t");
		snprintf(res->cpu_model, sizeof(res->cpu_model), "%.*s", (int)strcspn(cpu, "\n"),
			 cpu);
	}
	free(text);
}

void kb_debugfs_devices(const char *dir, char *out, size_t len)
{
	char path[512], *text;

	snprintf(out, len, "-");
	snprintf(path, sizeof(path), "%s/kiobench/%s/config", debugfs_root(), dir);
	text = kb_read_file(path);
	if (!text)
		return;
	kb_config_devices(text, out, len);
	if (!out[0])
		snprintf(out, len, "-");
	free(text);
}
