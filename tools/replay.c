// SPDX-License-Identifier: GPL-2.0
/*
 * fio's read_iolog and its replay options: the log (fio's text iolog,
 * version 2 or 3) read into the kernel's entries (struct
 * kiobench_replay_ent), with fio's meaning of replay_redirect,
 * replay_scale, replay_align, replay_skip, replay_no_stall and
 * replay_time_scale; each entry checked against the device, with the
 * line it came from.  kb_nl_job_new() uploads them (JOB_REPLAY).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kiobench.h"
#include "options.h"
#include "replay.h"
#include "values.h"

/* blkparse's binary output starts with struct blk_io_trace's magic */
#define BLK_IO_TRACE_MAGIC	0x65617400u

/* The clone-th name of fio's NAME:NAME... list (fio's get_name_by_idx). */
static char *nth_name(const char *list, uint32_t clone)
{
	unsigned int n = 1, i;
	const char *p;
	size_t len;

	for (p = list; *p; p++)
		n += *p == ':';
	clone %= n;
	for (p = list, i = 0; i < clone; i++)
		p = strchr(p, ':') + 1;
	len = strcspn(p, ":");
	return strndup(p, len);
}

/* Logical block size and bytes of dev; false if it cannot be read. */
static bool dev_geometry(const char *dev, uint32_t *lbs, uint64_t *bytes)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	int ssz = 0;
	bool ok;

	if (fd < 0)
		return false;
	ok = !ioctl(fd, BLKSSZGET, &ssz) && !ioctl(fd, BLKGETSIZE64, bytes) && ssz > 0;
	close(fd);
	*lbs = ssz;
	return ok;
}

struct reader {
	const char *path;
	unsigned int line;
	int version;
	char *err;
	size_t errlen;
};

/* An error naming the log's line. */
__attribute__((format(printf, 2, 3)))
static int bad(struct reader *r, const char *fmt, ...)
{
	char msg[KB_ERRLEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return kb_errf(r->err, r->errlen, "read_iolog %s:%u: %s", r->path, r->line, msg);
}

/* The action's direction, or -1 for a file action, -2 for wait, -3 unknown. */
static int action_dir(const char *act, bool io)
{
	static const struct { const char *name; int dir; bool io; } t[] = {
		{ "read", KIOBENCH_DIR_READ, true }, { "write", KIOBENCH_DIR_WRITE, true },
		{ "trim", KIOBENCH_DIR_TRIM, true }, { "sync", KIOBENCH_DIR_SYNC, true },
		{ "datasync", KIOBENCH_DIR_SYNC, true }, { "wait", -2, true },
		{ "add", -1, false }, { "open", -1, false }, { "close", -1, false },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].io == io && !strcmp(t[i].name, act))
			return t[i].dir;
	return -3;
}

/* Appends an entry and its line; -1 past KB_REPLAY_MAX or out of memory. */
static int push(struct kb_job *job, uint32_t *cap, const struct kiobench_replay_ent *e,
		unsigned int line)
{
	struct kiobench_replay_ent *nv;
	unsigned int *nl;

	if (job->nr_replay == *cap) {
		if (*cap >= KB_REPLAY_MAX)
			return -1;
		*cap = *cap ? *cap * 2 : 256;
		nv = realloc(job->replay, *cap * sizeof(*nv));
		if (!nv)
			return -1;
		job->replay = nv;
		nl = realloc(job->replay_lines, *cap * sizeof(*nl));
		if (!nl)
			return -1;
		job->replay_lines = nl;
	}
	job->replay_lines[job->nr_replay] = line;
	job->replay[job->nr_replay++] = *e;
	return 0;
}

/* v3: fio's delay_since_ttime(), from the previous line's timestamp. */
static uint64_t delay_us(const struct kb_job *job, uint64_t *last, uint64_t t)
{
	uint64_t d = 0;

	if (*last && !job->replay_no_stall && t >= *last)
		d = (t - *last) * 100 / job->replay_time_scale;
	*last = t;
	return d;
}

/* Without replay_redirect, the log's one file: the device. */
static int one_file(const struct kb_job *job, struct reader *r, const char *fname,
		    char **file)
{
	if (job->replay_redirect)
		return 0;
	if (!*file) {
		*file = strdup(fname);
		return *file ? 0 : kb_errf(r->err, r->errlen, "out of memory");
	}
	if (!strcmp(*file, fname))
		return 0;
	return kb_errf(r->err, r->errlen, "read_iolog %s:%u: a second file %s (after %s): "
		       "kiobench replays a log on one device; give replay_redirect=DEV",
		       r->path, r->line, fname, *file);
}

/*
 * An I/O of the log, as fio replays it: replay_skip's kinds left out, the
 * offset divided by replay_scale then aligned down to replay_align.
 */
static int add_io(struct kb_job *job, struct reader *r, uint32_t *cap, int dir,
		  unsigned long long off, unsigned long long len, uint64_t now_us)
{
	struct kiobench_replay_ent e = { 0 };

	if (job->replay_skip & (1u << dir))
		return 0;
	if (len > UINT32_MAX)
		return bad(r, "length %llu above 4 GiB", len);
	off /= job->replay_scale;
	if (job->replay_align)
		off &= ~((uint64_t)job->replay_align - 1);
	if (dir == KIOBENCH_DIR_SYNC)
		off = len = 0;	/* a flush of the whole device */
	/* a flush writes the device's cache out: as fsync, allow-writes */
	if (dir != KIOBENCH_DIR_READ && !job->replay_write_line)
		job->replay_write_line = r->line;
	e.offset = off;
	e.len = len;
	e.dir = dir;
	e.time_ns = now_us * 1000;	/* 0 with replay_no_stall (delay_us()) */
	if (push(job, cap, &e, r->line))
		return kb_errf(r->err, r->errlen, "read_iolog %s:%u: more than %u I/Os "
			       "(kiobench's most), or out of memory", r->path, r->line,
			       KB_REPLAY_MAX);
	return 0;
}

static int parse_log(struct kb_job *job, FILE *f, struct reader *r, char **file)
{
	char *buf = NULL, fname[257], act[257];
	uint64_t now_us = 0, last_t = 0;
	unsigned long long v1, v2, v3;
	size_t cap_line = 0;
	uint32_t cap = 0;
	int ret = 0;

	while (getline(&buf, &cap_line, f) > 0) {
		char extra[2];
		int n, dir;

		r->line++;
		buf[strcspn(buf, "\r\n")] = '\0';
		if (!buf[strspn(buf, " \t")])
			continue;	/* a blank line */
		if (r->version == 3)
			n = sscanf(buf, "%llu %256s %256s %llu %llu %1s", &v1, fname, act, &v2,
				   &v3, extra) - 1;
		else
			n = sscanf(buf, "%256s %256s %llu %llu %1s", fname, act, &v2, &v3,
				   extra);
		if (n != 2 && n != 4) {
			ret = bad(r, "'%s': not %s'FILE ACTION' or 'FILE ACTION OFFSET LENGTH'",
				  buf, r->version == 3 ? "'TIME' then " : "");
			break;
		}
		if (r->version == 3)
			now_us += delay_us(job, &last_t, v1);
		dir = action_dir(act, n == 4);
		if (dir == -3) {
			ret = bad(r, "unknown action '%s' (fio's: add, open, close; read, "
				  "write, sync, datasync, trim, wait)", act);
			break;
		}
		if (dir == -1)
			continue;	/* add, open, close: the device is open throughout */
		if (dir == -2) {
			/* fio 3.33 ignores wait in v3; in v2, not before OFFSET ms */
			if (r->version == 2 && !job->replay_no_stall && v2 * 1000 > now_us)
				now_us = v2 * 1000;
			continue;
		}
		ret = one_file(job, r, fname, file) ?: add_io(job, r, &cap, dir, v2, v3, now_us);
		if (ret)
			break;
	}
	free(buf);
	return ret;
}

/* Every entry against the device, naming its line. */
static int check_entries(const struct kb_job *job, uint32_t lbs, uint64_t bytes, char *err,
			 size_t errlen)
{
	uint32_t i;

	for (i = 0; i < job->nr_replay; i++) {
		const struct kiobench_replay_ent *e = &job->replay[i];

		if (e->dir == KIOBENCH_DIR_SYNC)
			continue;
		if (!e->len || e->offset % lbs || e->len % lbs)
			return kb_errf(err, errlen, "read_iolog %s:%u: offset %" PRIu64 " length "
				       "%u: not multiples of %s's logical block size %u%s",
				       job->replay_path, job->replay_lines[i],
				       (uint64_t)e->offset, e->len, job->devices[0], lbs,
				       e->len ? "" : " (length 0)");
		if (e->offset + e->len > bytes || e->offset + e->len < e->offset)
			return kb_errf(err, errlen, "read_iolog %s:%u: offset %" PRIu64 " length "
				       "%u ends beyond %s (%" PRIu64 " bytes)", job->replay_path,
				       job->replay_lines[i], (uint64_t)e->offset, e->len,
				       job->devices[0], bytes);
	}
	return 0;
}

/* The clone's log, opened past its first line, which gives r's version. */
static FILE *open_log(struct kb_job *job, uint32_t clone, struct reader *r)
{
	uint32_t magic = 0;
	char head[64];
	FILE *f;

	free(job->replay_path);
	job->replay_path = nth_name(job->read_iolog, clone);
	if (!job->replay_path) {
		kb_errf(r->err, r->errlen, "out of memory");
		return NULL;
	}
	r->path = job->replay_path;
	f = fopen(r->path, "re");
	if (!f) {
		kb_errf(r->err, r->errlen, "read_iolog %s: %s", r->path, strerror(errno));
		return NULL;
	}
	if (fread(&magic, sizeof(magic), 1, f) == 1 &&
	    (magic & 0xffffff00u) == BLK_IO_TRACE_MAGIC) {
		kb_errf(r->err, r->errlen, "read_iolog %s: blktrace binary traces: kiobench "
			"replays fio's text iologs (v2, v3) only", r->path);
		fclose(f);
		return NULL;
	}
	rewind(f);
	r->line = 1;
	if (!fgets(head, sizeof(head), f))
		head[0] = '\0';
	head[strcspn(head, "\r\n")] = '\0';
	if (!strcmp(head, "fio version 2 iolog") || !strcmp(head, "fio version 3 iolog")) {
		r->version = head[12] - '0';
		return f;
	}
	kb_errf(r->err, r->errlen, "read_iolog %s: not a fio iolog (its first line is not "
		"'fio version 2 iolog' or 'fio version 3 iolog'; v1 logs are not replayed, as "
		"fio's since 1.20)", r->path);
	fclose(f);
	return NULL;
}

/*
 * The job as the log makes it: on its device (replay_redirect's, or the
 * log's one file), buffers of its longest I/O (as fio sizes them), a read
 * job or, with a write or trim in the log, a mix (which needs the
 * permission to write).
 */
static int use_device(struct kb_job *job, char *file, char *err, size_t errlen)
{
	uint32_t i, max_len = 0;

	while (job->nr_devices)
		free(job->devices[--job->nr_devices]);
	free(job->devices);
	job->devices = calloc(1, sizeof(*job->devices));
	if (job->devices)
		job->devices[0] = job->replay_redirect ? strdup(job->replay_redirect) : file;
	if (job->replay_redirect || !job->devices)
		free(file);
	if (!job->devices || !job->devices[0])
		return kb_errf(err, errlen, "out of memory");
	job->nr_devices = 1;
	for (i = 0; i < job->nr_replay; i++)
		if (job->replay[i].len > max_len)
			max_len = job->replay[i].len;
	job->bs = max_len ? max_len : 4096;
	job->random = false;
	job->trim_mode = 0;
	job->rw = job->replay_write_line ? KB_RW_MIXED : KB_RW_READ;
	job->rwmixread = 50;
	job->rw_str = "read_iolog";
	/* the log's directions, not rw's or rwmix's: --parse-only prints neither */
	kb_job_mark(job, KB_OPT_RW, false);
	kb_job_mark(job, KB_OPT_RWMIXREAD, false);
	return 0;
}

int kb_replay_load(struct kb_job *job, uint32_t clone, char *err, size_t errlen)
{
	struct reader r = { .err = err, .errlen = errlen };
	char *file = NULL;
	uint64_t bytes;
	uint32_t lbs;
	FILE *f;
	int ret;

	if (!job->read_iolog)
		return 0;
	if (job->replay_align & (job->replay_align - 1))
		return kb_errf(err, errlen, "replay_align=%u: not a power of 2", job->replay_align);
	if (job->nr_bss || job->bs_wt[0] || job->bs_wt[1] || job->bss_wt[0] || job->bss_wt[1])
		return kb_errf(err, errlen, "read_iolog: the log's lengths are replayed; "
			       "not with bssplit or bs=R,W,T");
	f = open_log(job, clone, &r);
	if (!f)
		return -1;
	free(job->replay);
	free(job->replay_lines);
	job->replay = NULL;
	job->replay_lines = NULL;
	job->nr_replay = 0;
	job->replay_write_line = 0;
	ret = parse_log(job, f, &r, &file);
	fclose(f);
	if (!ret && !job->nr_replay)
		ret = kb_errf(err, errlen, "read_iolog %s: no I/O to replay%s", r.path,
			      job->replay_skip ? " (replay_skip left none)" : "");
	if (!ret && !job->replay_redirect && !file)
		ret = kb_errf(err, errlen, "read_iolog %s: the log names no file", r.path);
	if (ret) {
		free(file);
		return ret;
	}
	ret = use_device(job, file, err, errlen);
	if (!ret && dev_geometry(job->devices[0], &lbs, &bytes))
		return check_entries(job, lbs, bytes, err, errlen);
	return ret;	/* else the kernel checks them against the device it opens */
}
