/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's log files (write_lat_log, write_bw_log, write_iops_log,
 * write_hist_log) made from the job's per-I/O log, which the kernel keeps
 * (debugfs lat_log): every figure in them is a kernel measurement, the
 * latency and completion time of each logged I/O.
 */
#ifndef KIOBENCH_FIOLOG_H
#define KIOBENCH_FIOLOG_H

#include <stddef.h>
#include <stdint.h>

#include "kiobench.h"

/* fio's histogram layout (FIO_IO_U_PLAT_*, fio 3.x, values in ns). */
#define KB_FIO_PLAT_BITS	6
#define KB_FIO_PLAT_VAL		(1u << KB_FIO_PLAT_BITS)
#define KB_FIO_PLAT_GROUPS	29
#define KB_FIO_PLAT_NR		(KB_FIO_PLAT_GROUPS * KB_FIO_PLAT_VAL)	/* 1856 */

/* One I/O of the kernel's per-I/O log. */
struct kb_io_entry {
	uint64_t end_ns;	/* completion: since the job's start (debugfs), since
				 * the warm-up's end (results.c, for fio's logs) */
	uint64_t lat_ns;
	uint64_t offset;	/* bytes */
	uint32_t len;
	uint32_t dir;		/* KIOBENCH_DIR_*: fio's 0 read, 1 write */
	uint32_t ioprio;	/* the bi_ioprio it was sent with (0: a module before 0.6) */
	/* a log of every I/O (debugfs "# all 1", write_iolog's): */
	uint32_t dev;		/* its device's index in the job's */
	uint32_t flags;		/* KB_IO_*: 0 a measured I/O */
};

#define KB_IO_WARMUP	1u	/* submitted before the warm-up's end */
#define KB_IO_FAILED	2u	/* completed with an error */

/* The job needs the kernel's per-I/O log: one of the logs is asked for. */
bool kb_job_wants_io_log(const struct kb_job *job);
/* fio's histogram bin of a latency of ns nanoseconds. */
unsigned int kb_fio_plat_idx(uint64_t ns);
/*
 * The debugfs lat_log text into *e (malloc'ed, n entries, sorted by
 * completion time), *dropped: measured I/Os past the log's end.
 */
int kb_io_log_parse(const char *text, struct kb_io_entry **e, size_t *n,
		    uint64_t *dropped, char *err, size_t errlen);
/*
 * write_iolog: fio 3.33's version 3 iolog of the job's n I/Os (every one it
 * issued, any order) appended to job->write_iolog, as each fio job appends
 * its own: the version line, "add" and "open" of each device, a line per
 * I/O at its submission, in submission order, "close" of each device at
 * the last completion.  Times in us since the job's start.  -1 with err:
 * not (all) written.
 */
int kb_fio_iolog_write(const struct kb_job *job, const struct kb_io_entry *e, size_t n,
		       char *err, size_t errlen);
/* "PREFIX_TYPE.INDEX.log", or "PREFIX_TYPE.log" without per_job_logs. */
void kb_fio_log_name(char *buf, size_t len, const char *prefix, const char *type,
		     unsigned int index, bool per_job);
/*
 * Every fio log the job asks for, from its n logged I/Os (sorted); index:
 * the job's number in the run, from 1; epoch_ms: added to every time
 * (log_unix_epoch, log_alternate_epoch: the clock's ms at the end of
 * ramp_time; else 0).  -1 with err: a file not written.
 */
int kb_fio_logs_write(const struct kb_job *job, unsigned int index, uint64_t epoch_ms,
		      const struct kb_io_entry *e, size_t n, char *err, size_t errlen);

#endif /* KIOBENCH_FIOLOG_H */
