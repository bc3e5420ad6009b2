// SPDX-License-Identifier: GPL-2.0
/*
 * fio's log files, from the kernel's per-I/O log (Documentation/
 * kiobench.rst, "Logs in fio's formats").  The kernel logs each measured
 * I/O's completion time, latency, direction, offset and size; every line
 * written here is those figures, one per I/O, or their sums over a window
 * of log_avg_msec or log_hist_msec: nothing is estimated.
 *
 * A line is "time (ms), value, direction, size, [offset,] priority", as
 * fio 3.33 writes it.  kiobench's latency runs from just before
 * submit_bio() to bi_end_io(), fio's "lat"; its JSON reports it as clat
 * too, and the _clat log holds the same figure.  There is no _slat log: the
 * per-I/O log has no stamp at the return from submit_bio().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "fiolog.h"
#include "values.h"

/* The directions as debugfs names them. */
static const char *const dir_names[KIOBENCH_NR_DIRS] = {
	[KIOBENCH_DIR_READ] = "read", [KIOBENCH_DIR_WRITE] = "write",
	[KIOBENCH_DIR_TRIM] = "trim", [KIOBENCH_DIR_SYNC] = "sync",
};

bool kb_job_wants_io_log(const struct kb_job *job)
{
	return job->raw_lat_log || job->lat_log || job->bw_log || job->iops_log ||
	       job->hist_log || job->write_iolog;
}

/*
 * fio's bins: below 2^(bits+1) ns one bin per ns; above, each power of two
 * [2^m, 2^(m+1)) is cut into 2^bits equal bins; the last bin takes all
 * that is larger.
 */
unsigned int kb_fio_plat_idx(uint64_t ns)
{
	unsigned int msb = ns ? 63 - __builtin_clzll(ns) : 0, shift, idx;

	if (msb <= KB_FIO_PLAT_BITS)
		return ns;
	shift = msb - KB_FIO_PLAT_BITS;
	idx = ((shift + 1) << KB_FIO_PLAT_BITS) + ((ns >> shift) & (KB_FIO_PLAT_VAL - 1));
	return idx < KB_FIO_PLAT_NR ? idx : KB_FIO_PLAT_NR - 1;
}

static int cmp_end(const void *a, const void *b)
{
	const struct kb_io_entry *x = a, *y = b;

	if (x->end_ns != y->end_ns)
		return x->end_ns < y->end_ns ? -1 : 1;
	return x->lat_ns < y->lat_ns ? 1 : x->lat_ns > y->lat_ns ? -1 : 0;
}

int kb_io_log_parse(const char *text, struct kb_io_entry **out, size_t *n,
		    uint64_t *dropped, char *err, size_t errlen)
{
	struct kb_io_entry *v = NULL;
	size_t cap = 0, nr = 0, line = 0;
	const char *p = text;

	*dropped = 0;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char buf[160], dir[16];
		struct kb_io_entry e;
		unsigned long long a, b, c;
		unsigned int sz, d, prio = 0, dev = 0, flags = 0;
		int got;

		line++;
		if (len >= sizeof(buf))
			goto bad;
		memcpy(buf, p, len);
		buf[len] = '\0';
		p += len + !!eol;
		if (!len)
			continue;
		if (buf[0] == '#') {
			sscanf(buf, "# dropped %" SCNu64, dropped);
			continue;
		}
		/* a module before 0.6 has no ioprio column; dev, flags: "# all 1" */
		got = sscanf(buf, "%llu %llu %15s %llu %u %u %u %u", &a, &b, dir, &c, &sz, &prio,
			     &dev, &flags);
		if (got != 5 && got != 6 && got != 8)
			goto bad;
		for (d = 0; d < KIOBENCH_NR_DIRS && strcmp(dir, dir_names[d]); d++)
			;
		if (d == KIOBENCH_NR_DIRS)
			goto bad;
		e = (struct kb_io_entry){ .end_ns = a, .lat_ns = b, .offset = c, .len = sz,
					  .dir = d, .ioprio = prio, .dev = dev, .flags = flags };
		if (nr == cap) {
			struct kb_io_entry *nv;

			cap = cap ? 2 * cap : 1024;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				return kb_errf(err, errlen, "out of memory");
			}
			v = nv;
		}
		v[nr++] = e;
	}
	if (nr)
		qsort(v, nr, sizeof(*v), cmp_end);
	*out = v;
	*n = nr;
	return 0;
bad:
	free(v);
	return kb_errf(err, errlen, "line %zu: not a latency log entry", line);
}

void kb_fio_log_name(char *buf, size_t len, const char *prefix, const char *type,
		     unsigned int index, bool per_job)
{
	if (per_job)
		snprintf(buf, len, "%s_%s.%u.log", prefix, type, index);
	else
		snprintf(buf, len, "%s_%s.log", prefix, type);
}

/* The logs of one job being written; a NULL FILE: not asked for. */
struct fio_logs {
	FILE *lat, *clat, *bw, *iops, *hist;
	bool offset;
	bool prio;		/* log_prio: the priority's value, not its high flag */
	bool gz;		/* log_store_compressed: fio's samples, binary (memstreams) */
	bool max;		/* log_max_value: a window's largest latency */
	uint64_t epoch_ms;	/* added to every time (log_unix_epoch...) */
};

/*
 * fio 3.33's in-memory sample (iolog.h struct io_sample, x86-64 layout),
 * what its log_store_compressed files hold deflated: fio --inflate-log
 * prints each as the line it stands for.  The two top bits of ddir say
 * that an offset follows (log_offset) and that priority is the value
 * itself (log_prio), as fio sets them.
 */
struct fio_sample {
	uint64_t time, val;
	uint32_t ddir;
	uint16_t prio;
	uint16_t pad;
	uint64_t bs;
};
_Static_assert(sizeof(struct fio_sample) == 32, "fio's struct io_sample is 32 bytes");
#define FIO_SAMPLE_OFFSET	0x80000000u
#define FIO_SAMPLE_PRIO		0x40000000u

/*
 * "time, value, direction, size, [offset, ]priority": fio's log line.  The
 * priority as fio 3.33 writes it: 1 for a realtime-class I/O, else 0, or
 * with log_prio the bi_ioprio value itself, in hex (0x4005: class 2, level 5).
 */
static void line(const struct fio_logs *l, FILE *f, uint64_t ms, uint64_t val,
		 unsigned int dir, uint64_t size, uint64_t offset, uint32_t ioprio)
{
	if (!f)
		return;
	ms += l->epoch_ms;
	if (l->gz) {
		struct fio_sample s = {
			.time = ms, .val = val, .bs = size, .prio = ioprio,
			.ddir = dir | (l->offset ? FIO_SAMPLE_OFFSET : 0) |
				(l->prio ? FIO_SAMPLE_PRIO : 0),
		};

		fwrite(&s, sizeof(s), 1, f);
		if (l->offset)
			fwrite(&offset, sizeof(offset), 1, f);
		return;
	}
	fprintf(f, "%" PRIu64 ", %" PRIu64 ", %u, %" PRIu64 ", ", ms, val, dir, size);
	if (l->offset)
		fprintf(f, "%" PRIu64 ", ", offset);
	if (l->prio)
		fprintf(f, "0x%04x\n", ioprio);
	else
		fprintf(f, "%u\n", ioprio >> 13 == 1);	/* IOPRIO_CLASS_RT */
}

/* Without log_avg_msec: a line per I/O, as fio's. */
static void per_io(const struct fio_logs *l, const struct kb_io_entry *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t ms = e[i].end_ns / 1000000;

		line(l, l->lat, ms, e[i].lat_ns, e[i].dir, e[i].len, e[i].offset, e[i].ioprio);
		line(l, l->clat, ms, e[i].lat_ns, e[i].dir, e[i].len, e[i].offset, e[i].ioprio);
		/* fio's per-I/O bandwidth: bytes x 10^6 / latency in ns */
		line(l, l->bw, ms, e[i].lat_ns ? (uint64_t)e[i].len * 1000000 / e[i].lat_ns : 0,
		     e[i].dir, e[i].len, e[i].offset, e[i].ioprio);
		line(l, l->iops, ms, 1, e[i].dir, e[i].len, e[i].offset, e[i].ioprio);
	}
}

/*
 * Window k of w_ns: [k w, (k + 1) w), and the last one ends at its last
 * completion, rounded up to the ms.  *ms: the time its lines carry, *dur_ns:
 * its length.
 */
static void window_end(uint64_t k, uint64_t w_ns, bool last, uint64_t last_end_ns,
		       uint64_t *ms, uint64_t *dur_ns)
{
	uint64_t t0 = k * w_ns, t1 = (k + 1) * w_ns;

	if (last) {
		uint64_t up = (last_end_ns + 999999) / 1000000 * 1000000;

		if (up <= t0)
			up = t0 + 1000000;
		if (up < t1)
			t1 = up;
	}
	*ms = t1 / 1000000;
	*dur_ns = t1 - t0;
}

struct win {
	uint64_t n, bytes, lat_sum, lat_max;
	uint32_t last_len;
};

/*
 * log_avg_msec: per window and direction the mean latency of its
 * completions (log_max_value: the largest), its bandwidth (KiB/s) and
 * IOPS; a direction of the job with no completion in a window has
 * bandwidth and IOPS 0 there.  A window's bandwidth and IOPS are one
 * figure each, its bytes and I/Os over its length: their largest is it.
 */
static void averaged(const struct fio_logs *l, const struct kb_io_entry *e, size_t n,
		     uint32_t avg_ms)
{
	uint64_t w_ns = (uint64_t)avg_ms * 1000000, k, last_k;
	bool seen[KIOBENCH_NR_DIRS] = { false };
	size_t i = 0;
	unsigned int d;

	if (!n)
		return;
	for (i = 0; i < n; i++)
		seen[e[i].dir] = true;
	last_k = e[n - 1].end_ns / w_ns;
	for (i = 0, k = e[0].end_ns / w_ns; k <= last_k; k++) {
		struct win w[KIOBENCH_NR_DIRS] = { { 0 } };
		uint64_t ms, dur;

		for (; i < n && e[i].end_ns / w_ns == k; i++) {
			w[e[i].dir].n++;
			w[e[i].dir].bytes += e[i].len;
			w[e[i].dir].lat_sum += e[i].lat_ns;
			if (e[i].lat_ns > w[e[i].dir].lat_max)
				w[e[i].dir].lat_max = e[i].lat_ns;
		}
		window_end(k, w_ns, k == last_k, e[n - 1].end_ns, &ms, &dur);
		for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
			if (w[d].n) {
				uint64_t v = l->max ? w[d].lat_max : w[d].lat_sum / w[d].n;

				/* fio's windows carry no priority: 0 (0x0000) */
				line(l, l->lat, ms, v, d, 0, 0, 0);
				line(l, l->clat, ms, v, d, 0, 0, 0);
			}
			if (!seen[d])
				continue;
			line(l, l->bw, ms,
			     (uint64_t)((unsigned __int128)w[d].bytes * 1000000000 / dur / 1024),
			     d, 0, 0, 0);
			line(l, l->iops, ms,
			     (uint64_t)((unsigned __int128)w[d].n * 1000000000 / dur), d, 0, 0, 0);
		}
	}
}

/*
 * log_hist_msec: per window and direction with completions, fio's
 * histogram of their latencies, 2^coarseness bins summed into one:
 * "time, direction, size, bin0, bin1, ...".
 */
static int histograms(FILE *f, const struct kb_io_entry *e, size_t n, uint32_t hist_ms,
		      unsigned int coarse)
{
	uint64_t w_ns = (uint64_t)hist_ms * 1000000, k, last_k, *bins;
	size_t i;
	unsigned int d, b, nr = KB_FIO_PLAT_NR >> coarse;

	if (!n)
		return 0;
	bins = malloc(KIOBENCH_NR_DIRS * KB_FIO_PLAT_NR * sizeof(*bins));
	if (!bins)
		return -1;
	last_k = e[n - 1].end_ns / w_ns;
	for (i = 0, k = e[0].end_ns / w_ns; k <= last_k; k++) {
		struct win w[KIOBENCH_NR_DIRS] = { { 0 } };
		uint64_t ms, dur;

		memset(bins, 0, KIOBENCH_NR_DIRS * KB_FIO_PLAT_NR * sizeof(*bins));
		for (; i < n && e[i].end_ns / w_ns == k; i++) {
			w[e[i].dir].n++;
			w[e[i].dir].last_len = e[i].len;
			bins[e[i].dir * KB_FIO_PLAT_NR + kb_fio_plat_idx(e[i].lat_ns)]++;
		}
		window_end(k, w_ns, k == last_k, e[n - 1].end_ns, &ms, &dur);
		for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
			const uint64_t *h = bins + d * KB_FIO_PLAT_NR;

			if (!w[d].n)
				continue;
			fprintf(f, "%" PRIu64 ", %u, %u", ms, d, w[d].last_len);
			for (b = 0; b < nr; b++) {
				uint64_t sum = 0;
				unsigned int j;

				for (j = b << coarse; j < (b + 1) << coarse; j++)
					sum += h[j];
				fprintf(f, ", %" PRIu64, sum);
			}
			fputc('\n', f);
		}
	}
	free(bins);
	return 0;
}

/* One log file being written: its name, and its memstream when deflated. */
struct log_out {
	FILE *f;
	char name[4096];
	char *buf;		/* gz: the samples, deflated into name at the end */
	size_t len;
};

static int open_log(struct log_out *o, const char *prefix, const char *type,
		    unsigned int index, const struct kb_job *job, bool gz, char *err,
		    size_t errlen)
{
	o->f = NULL;
	if (!prefix)
		return 0;
	kb_fio_log_name(o->name, sizeof(o->name), prefix, type, index, job->per_job_logs);
	if (gz) {	/* fio's name: the log's with .fz after it */
		strncat(o->name, ".fz", sizeof(o->name) - strlen(o->name) - 1);
		o->f = open_memstream(&o->buf, &o->len);
	} else {
		/* fio: without per_job_logs, jobs of one name append to one file */
		o->f = fopen(o->name, job->per_job_logs ? "w" : "a");
	}
	if (!o->f)
		return kb_errf(err, errlen, "%s: %s", o->name, strerror(errno));
	return 0;
}

/*
 * log_store_compressed: the samples deflated, a zlib stream per chunk of
 * log_compression bytes (whole samples; all in one without it), one after
 * the other as fio stores its chunks; fio --inflate-log reads them in turn.
 */
static int deflate_to(FILE *f, const unsigned char *buf, size_t len, size_t chunk)
{
	unsigned char out[65536];
	size_t at = 0;

	do {
		size_t n = chunk && len - at > chunk ? chunk : len - at;
		z_stream zs = { 0 };
		int ret;

		if (deflateInit(&zs, Z_DEFAULT_COMPRESSION) != Z_OK)
			return -1;
		zs.next_in = (unsigned char *)buf + at;
		zs.avail_in = n;
		do {
			zs.next_out = out;
			zs.avail_out = sizeof(out);
			ret = deflate(&zs, Z_FINISH);
			if (ret == Z_STREAM_ERROR ||
			    fwrite(out, 1, sizeof(out) - zs.avail_out, f) !=
			    sizeof(out) - zs.avail_out) {
				deflateEnd(&zs);
				return -1;
			}
		} while (ret != Z_STREAM_END);
		deflateEnd(&zs);
		at += n;
	} while (at < len);
	return 0;
}

/* log_compression_cpus: the tool on those CPUs while it deflates (old: its set). */
static bool pin(const struct kb_job *job, cpu_set_t *old)
{
	cpu_set_t set;
	unsigned int i;

	if (!job->nr_log_compression_cpus || sched_getaffinity(0, sizeof(*old), old))
		return false;
	CPU_ZERO(&set);
	for (i = 0; i < job->nr_log_compression_cpus; i++)
		if (job->log_compression_cpus[i] < CPU_SETSIZE)
			CPU_SET(job->log_compression_cpus[i], &set);
	return !sched_setaffinity(0, sizeof(set), &set);
}

static int close_log(struct log_out *o, const struct kb_job *job, size_t sample_sz,
		     char *err, size_t errlen)
{
	size_t chunk = job->log_compression / sample_sz * sample_sz;
	cpu_set_t old;
	bool ok, pinned;
	FILE *f;

	if (!o->f)
		return 0;
	ok = !ferror(o->f);
	ok &= !fclose(o->f);
	if (!ok || !o->buf)
		goto out;
	f = fopen(o->name, job->per_job_logs ? "wb" : "ab");
	if (!f)
		goto out;
	pinned = pin(job, &old);
	if (o->len && deflate_to(f, (unsigned char *)o->buf, o->len,
				 job->log_compression ? (chunk ? chunk : sample_sz) : 0))
		ok = false;
	if (pinned)
		sched_setaffinity(0, sizeof(old), &old);
	ok &= !ferror(f);
	ok &= !fclose(f);
out:
	free(o->buf);
	o->buf = NULL;
	if (!ok)
		return kb_errf(err, errlen, "%s: %s", o->name, errno ? strerror(errno) :
			       "cannot write");
	return 0;
}

int kb_fio_logs_write(const struct kb_job *job, unsigned int index, uint64_t epoch_ms,
		      const struct kb_io_entry *e, size_t n, char *err, size_t errlen)
{
	struct fio_logs l = { .offset = job->log_offset, .prio = job->log_prio,
			      .gz = job->log_store_compressed, .max = job->log_max_value,
			      .epoch_ms = epoch_ms };
	struct log_out out[5];
	FILE **files[5] = { &l.lat, &l.clat, &l.bw, &l.iops, &l.hist };
	static const char *const types[5] = { "lat", "clat", "bw", "iops", "clat_hist" };
	const char *prefix[5] = { job->lat_log, job->lat_log, job->bw_log, job->iops_log,
				  job->hist_log };
	size_t sample_sz = sizeof(struct fio_sample) + (job->log_offset ? sizeof(uint64_t) : 0);
	int i, ret = 0;

	memset(out, 0, sizeof(out));
	for (i = 0; i < 5; i++) {
		/* fio's make_log_name(): a log named without a prefix takes the job's name */
		if (prefix[i] && !*prefix[i])
			prefix[i] = job->name;
		/* the histogram log is text: kb_job_check refuses it with log_store_compressed */
		if (open_log(&out[i], prefix[i], types[i], index, job, l.gz && i < 4, err,
			     errlen)) {
			ret = -1;
			goto out;
		}
		*files[i] = out[i].f;
	}
	if (job->log_avg_msec)
		averaged(&l, e, n, job->log_avg_msec);
	else
		per_io(&l, e, n);
	/* fio: the histogram log stays empty without log_hist_msec */
	if (l.hist && job->log_hist_msec &&
	    histograms(l.hist, e, n, job->log_hist_msec, job->log_hist_coarseness))
		ret = kb_errf(err, errlen, "out of memory");
out:
	for (i = 0; i < 5; i++)
		if (close_log(&out[i], job, sample_sz, err, errlen))
			ret = -1;
	return ret;
}

/* Submission order: the kernel logs each I/O at its completion. */
static int cmp_submit(const void *a, const void *b)
{
	const struct kb_io_entry *x = a, *y = b;
	uint64_t sx = x->end_ns - x->lat_ns, sy = y->end_ns - y->lat_ns;

	if (sx != sy)
		return sx < sy ? -1 : 1;
	if (x->end_ns != y->end_ns)
		return x->end_ns < y->end_ns ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* fio's io_ddir_name(); a flush of a job that asked only fdatasync is fio's datasync. */
static const char *iolog_dir(const struct kb_job *job, uint32_t dir)
{
	if (dir == KIOBENCH_DIR_SYNC && job->fdatasync && !job->fsync)
		return "datasync";
	return dir_names[dir];
}

int kb_fio_iolog_write(const struct kb_job *job, const struct kb_io_entry *e, size_t n,
		       char *err, size_t errlen)
{
	struct kb_io_entry *v = NULL;
	uint64_t end_us = 0;
	unsigned int d;
	size_t i;
	FILE *f;
	bool ok;

	for (i = 0; i < n; i++) {
		if (e[i].dev >= job->nr_devices || e[i].dir >= KIOBENCH_NR_DIRS ||
		    e[i].lat_ns > e[i].end_ns)
			return kb_errf(err, errlen, "write_iolog: entry %zu of the kernel's log "
				       "is not an I/O of the job", i + 1);
		if (e[i].end_ns / 1000 > end_us)
			end_us = e[i].end_ns / 1000;
	}
	if (n) {
		v = malloc(n * sizeof(*v));
		if (!v)
			return kb_errf(err, errlen, "out of memory");
		memcpy(v, e, n * sizeof(*v));
		qsort(v, n, sizeof(*v), cmp_submit);
	}
	/* fio opens its iolog in append mode, every job and every clone */
	f = fopen(job->write_iolog, "a");
	if (!f) {
		free(v);
		return kb_errf(err, errlen, "%s: %s", job->write_iolog, strerror(errno));
	}
	fputs("fio version 3 iolog\n", f);
	/* the devices are open before the job starts: added and opened at 0 */
	for (d = 0; d < job->nr_devices; d++)
		fprintf(f, "0 %s add\n", job->devices[d]);
	for (d = 0; d < job->nr_devices; d++)
		fprintf(f, "0 %s open\n", job->devices[d]);
	for (i = 0; i < n; i++)
		fprintf(f, "%" PRIu64 " %s %s %" PRIu64 " %" PRIu32 "\n",
			(v[i].end_ns - v[i].lat_ns) / 1000, job->devices[v[i].dev],
			iolog_dir(job, v[i].dir), v[i].offset, v[i].len);
	for (d = 0; d < job->nr_devices; d++)
		fprintf(f, "%" PRIu64 " %s close\n", end_us, job->devices[d]);
	free(v);
	ok = !ferror(f);
	ok &= !fclose(f);
	if (!ok)
		return kb_errf(err, errlen, "%s: %s", job->write_iolog, strerror(errno));
	return 0;
}
