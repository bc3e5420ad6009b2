/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's options that kiobench refuses, each with its reason, and fio's I/O
 * engines (fio_opts.c).  Every option fio 3.33 lists (fio --cmdhelp, and
 * --enghelp=io_uring / --enghelp=libaio) is either in the option table
 * (options.c: honored) or here (refused), never in both and never in
 * neither (tests/unit/test_fio_opts.py walks the installed fio's lists).
 */
#ifndef KIOBENCH_FIO_OPTS_H
#define KIOBENCH_FIO_OPTS_H

#include "kiobench.h"

/* Why slat_percentiles=1 is refused (options.c) and slat is reported as zero. */
#define KB_NO_SLAT	"kiobench has no submission latency: its one latency runs from just " \
			"before submit_bio() to bi_end_io() (fio's lat, reported as clat too); " \
			"nothing stamps submit_bio()'s return"

struct kb_fio_refused {
	const char *name;
	const char *alias;	/* fio's other name, or NULL */
	const char *reason;
};

extern const struct kb_fio_refused kb_fio_refused[];
extern const size_t kb_nr_fio_refused;

/* The reason fio option name (or alias) is refused, else NULL. */
const char *kb_fio_refusal(const char *name);

/* fio's command-line options kiobench refuses (--bandwidth-log). */
extern const struct kb_fio_refused kb_fio_cli_refused[];
extern const size_t kb_nr_fio_cli_refused;

/* As kb_fio_refusal, fio's command-line options too. */
const char *kb_fio_cli_refusal(const char *name);

struct kb_fio_engine {
	const char *name;
	bool accepted;		/* a way of submitting block I/O */
	bool sync;		/* fio: one I/O in flight per job, whatever iodepth */
	const char *what;	/* accepted: what fio does; refused: why not */
};

extern const struct kb_fio_engine kb_fio_engines[];
extern const size_t kb_nr_fio_engines;

const struct kb_fio_engine *kb_fio_engine(const char *name);

#endif /* KIOBENCH_FIO_OPTS_H */
