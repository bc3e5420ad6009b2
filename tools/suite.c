// SPDX-License-Identifier: GPL-2.0
/*
 * The named suites: the methodologies of the drive reviews in
 * Documentation/kiobench.rst ("Suites"), as data.  Each names the review
 * it reproduces as far as the article's text tells (drive, site, year:
 * the years are those of its reader comments).  Times and sizes are the
 * articles' own; --scale multiplies them (plan.c).  Where an article is
 * vague the choice is marked "chosen" and documented.
 */
#include "suite.h"

#define SEC	1000000000ULL
#define MIN	(60 * SEC)
#define MiB	(1ULL << 20)
#define GiB	(1ULL << 30)
#define N(a)	(sizeof(a) / sizeof((a)[0]))

/* QD 1..16 every step, 18, 20, then steps of 4 up to 64 */
#define QD_000	"1-16,18,20,24-64:4"
/* up to QD128 in powers of two (chosen: the article names no steps) */
#define QD_001	"1,2,4,8,16,32,64,128"
#define QD_CLIENT "1,2,4,8,16,32"
/* QD1..4 for the bar charts, then to 32 */
#define QD_004	"1-4,8,16,32"

static const struct part_def p000[] = {
	{ .name = "qd1-randread-bs", .title = "QD1 random read, transfer-size sweep",
	  .rw = "randread", .iodepth = 1, .var = KB_VAR_BS, .values = "512-1m:x2",
	  .ramp_ns = 1 * MIN, .runtime_ns = 3 * MIN },
	{ .name = "randread-qd", .title = "4 kB random read, queue-depth sweep",
	  .rw = "randread", .bs = 4096, .var = KB_VAR_IODEPTH, .values = QD_000,
	  .split_qd = 4, .ramp_ns = 1 * MIN, .runtime_ns = 3 * MIN, .figs = FIG_SATURATION },
	{ .name = "qd1-randwrite-bs", .title = "QD1 random write, transfer-size sweep",
	  .rw = "randwrite", .iodepth = 1, .var = KB_VAR_BS, .values = "512-1m:x2",
	  .ramp_ns = 1 * MIN, .runtime_ns = 3 * MIN },
	{ .name = "randwrite-qd", .title = "4 kB random write, queue-depth sweep",
	  .rw = "randwrite", .bs = 4096, .var = KB_VAR_IODEPTH, .values = QD_000,
	  .split_qd = 4, .ramp_ns = 1 * MIN, .runtime_ns = 3 * MIN, .figs = FIG_SATURATION },
};

static const struct part_def p001[] = {
	{ .name = "randread-qd", .title = "4 kB random read, QD1..QD128",
	  .rw = "randread", .bs = 4096, .var = KB_VAR_IODEPTH, .values = QD_001,
	  .runtime_ns = 3 * MIN, .figs = FIG_MAX_LAT | FIG_LAT_AT | FIG_SATURATION },
	{ .name = "randwrite-qd", .title = "4 kB random write (steady state), QD1..QD128",
	  .rw = "randwrite", .bs = 4096, .var = KB_VAR_IODEPTH, .values = QD_001,
	  .runtime_ns = 3 * MIN, .figs = FIG_MAX_LAT | FIG_LAT_AT | FIG_SATURATION },
};

static const struct part_def p002[] = {
	{ .name = "burst-read", .title = "burst sequential read, 128 kB QD1, 20 % duty cycle",
	  .rw = "read", .bs = 128 * 1024, .iodepth = 1, .span = 16 * GiB,
	  .burst_size = 128 * MiB, .burst_total = 1 * GiB, .duty = 20 },
	{ .name = "sustained-read", .title = "sustained sequential read, 128 kB, QD1..32",
	  .rw = "read", .bs = 128 * 1024, .var = KB_VAR_IODEPTH, .values = QD_CLIENT,
	  .runtime_ns = 1 * MIN, .io_size = 32 * GiB, .span = 64 * GiB,
	  .figs = FIG_SCORE_QD124 },
	{ .name = "burst-write", .title = "burst sequential write, 128 kB QD1, 20 % duty cycle",
	  .rw = "write", .bs = 128 * 1024, .iodepth = 1, .span = 16 * GiB,
	  .burst_size = 128 * MiB, .burst_total = 1 * GiB, .duty = 20 },
	{ .name = "sustained-write", .title = "sustained sequential write, 128 kB, QD1..32",
	  .rw = "write", .bs = 128 * 1024, .var = KB_VAR_IODEPTH, .values = QD_CLIENT,
	  .runtime_ns = 1 * MIN, .io_size = 32 * GiB, .span = 64 * GiB,
	  .idle_ns = 1 * MIN, .figs = FIG_SCORE_QD124 },
};

static const struct part_def p003[] = {
	{ .name = "burst-randread", .title = "burst random read, 4 kB QD1, 20 % duty cycle",
	  .rw = "randread", .bs = 4096, .iodepth = 1, .span = 16 * GiB,
	  .burst_size = 32 * MiB, .burst_total = 1 * GiB, .duty = 20 },
	{ .name = "sustained-randread", .title = "sustained random read, 4 kB, QD1..32",
	  .rw = "randread", .bs = 4096, .var = KB_VAR_IODEPTH, .values = QD_CLIENT,
	  .runtime_ns = 1 * MIN, .io_size = 32 * GiB, .span = 64 * GiB,
	  .idle_ns = 1 * MIN, .figs = FIG_SCORE_QD124 },
	/* duty cycle chosen: the article gives 20 % for the read bursts only */
	{ .name = "burst-randwrite", .title = "burst random write, 4 kB QD1, 20 % duty cycle",
	  .rw = "randwrite", .bs = 4096, .iodepth = 1, .span = 16 * GiB,
	  .burst_size = 4 * MiB, .burst_total = 128 * MiB, .duty = 20 },
	{ .name = "sustained-randwrite", .title = "sustained random write, 4 kB, QD1..32",
	  .rw = "randwrite", .bs = 4096, .var = KB_VAR_IODEPTH, .values = QD_CLIENT,
	  .runtime_ns = 1 * MIN, .io_size = 32 * GiB, .span = 64 * GiB,
	  .idle_ns = 1 * MIN, .figs = FIG_SCORE_QD124 },
};

/* step times chosen: the article gives none (1 minute, 10 s warm-up) */
#define P004(k) \
	{ .name = "randread-qd-" #k "dev", .title = "4 kB random read vs QD, " #k " device(s)", \
	  .rw = "randread", .bs = 4096, .var = KB_VAR_IODEPTH, .values = QD_004, \
	  .devices = k, .ramp_ns = 10 * SEC, .runtime_ns = 1 * MIN, \
	  .figs = FIG_SCORE_QD124 }, \
	{ .name = "seqread-qd-" #k "dev", .title = "128 kB sequential read vs QD, " #k \
	  " device(s)", .rw = "read", .bs = 128 * 1024, .var = KB_VAR_IODEPTH, \
	  .values = QD_004, .devices = k, .ramp_ns = 10 * SEC, .runtime_ns = 1 * MIN }

static const struct part_def p004[] = {
	P004(1), P004(2), P004(3), P004(4),
	{ .name = "seqread-qd32-devices", .title = "128 kB sequential read at QD32, 1..4 devices",
	  .rw = "read", .bs = 128 * 1024, .iodepth = 32, .var = KB_VAR_DEVICES,
	  .ramp_ns = 10 * SEC, .runtime_ns = 1 * MIN, .figs = FIG_SCALING },
};

const struct kb_suite kb_suites[] = {
	{ .name = "000-enterprise", .alias = "optane-p4800x", .writes = true,
	  .review = "Optane SSD DC P4800X review; the site is not named in the text; "
		    "reader comments from April 2017",
	  .title = "enterprise drive review: transfer-size and QD sweeps, read and write",
	  .source = "preconditioning: 4 kB random writes twice over the capacity",
	  .pre = { .passes = 2, .iodepth = 32, .bs = 4096 },
	  .parts = p000, .nr_parts = N(p000) },
	{ .name = "001-datacenter", .alias = "p3700", .writes = true,
	  .review = "Intel P3700 NVMe review (against S3700, SSD 910, Micron P420m); the "
		    "site is not named in the text; reader comments from June 2014",
	  .title = "datacenter NVMe review: QD1..QD128, latency figures",
	  .source = "preconditioning: sequential fill, one 4 kB random-write pass at QD128",
	  .pre = { .fill = true, .passes = 1, .iodepth = 128, .bs = 4096 },
	  .parts = p001, .nr_parts = N(p001) },
	{ .name = "002-client-seq", .alias = "optane-800p", .writes = true,
	  .review = "Intel Optane SSD 800p review; the site is not named in the text; "
		    "reader comments from March 2018",
	  .title = "client drive review, sequential: bursts at 20 % duty, sustained QD1..32",
	  .source = "preconditioning: the drive holds data (sequential fill of the 64 GB span)",
	  .pre = { .fill = true, .iodepth = 32, .span = 64 * GiB },
	  .parts = p002, .nr_parts = N(p002) },
	{ .name = "003-client-random", .alias = "optane-900p", .writes = true,
	  .review = "Optane SSD 900P review, AnandTech (its \"AnandTech Storage Bench\"); "
		    "year not stated, earliest reader comment March 2018",
	  .title = "client drive review, random: bursts at 20 % duty, sustained QD1..32",
	  .source = "preconditioning: the drive holds data (sequential fill of the 64 GB span)",
	  .pre = { .fill = true, .iodepth = 32, .span = 64 * GiB },
	  .parts = p003, .nr_parts = N(p003) },
	{ .name = "004-raid0-scaling", .alias = "optane-memory-vroc", .writes = false,
	  .review = "4x Optane Memory 32GB and 4x Samsung 960 PRO 512GB in VROC RAID-0; "
		    "site and year are not in the text",
	  .title = "scaling over 1..4 devices: 4 kB random and 128 kB sequential read vs QD",
	  .source = "preconditioning: sequential fill; here k devices side by side, not a "
		    "RAID-0",
	  .pre = { .fill = true, .iodepth = 32 },
	  .parts = p004, .nr_parts = N(p004) },
};

const unsigned int kb_nr_suites = N(kb_suites);
