/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The steps of sweeps and suites: value lists (plan.c), their figures
 * (stats.c) and their tables, CSV and JSON (steps_out.c).
 */
#ifndef KIOBENCH_STEPS_H
#define KIOBENCH_STEPS_H

#include "result.h"
#include "sensors.h"

struct json_object;

extern const char *const kb_var_names[KB_VAR_NR];

#define KB_SUM_NR_PCT	5	/* 50, 99, 99.9, 99.99, 99.999 */
extern const uint32_t kb_sum_pcts[KB_SUM_NR_PCT];

/* One direction of one step, over all of its jobs. */
struct kb_sum {
	bool present, has_pct;
	uint64_t ios, bytes, all_ios, all_bytes, errors, measured_ns;
	uint64_t min, max, samples;
	uint64_t pct[KB_SUM_NR_PCT];
	double iops, bw, mean;	/* bw in bytes/s, mean in ns */
	uint64_t cpu_ns;	/* the jobs' workers, both directions */
	double cpu_ns_per_io;	/* per I/O of either direction, warm-up included */
};

/* One step of a sweep (or one burst). */
struct kb_step {
	unsigned int index;
	enum kb_var var;
	char value[32];		/* the swept value as printed */
	uint64_t x;		/* the swept value as a number */
	uint32_t iodepth;	/* per worker */
	uint32_t numjobs;	/* workers per device */
	uint32_t qd;		/* total in flight per device */
	uint32_t bs;
	uint32_t nr_devices;
	uint64_t busy_ns, idle_ns;	/* tool's CLOCK_MONOTONIC */
	struct kb_result *res;	/* one per job */
	size_t nr_res;
	struct kb_sum sum[KIOBENCH_NR_DIRS];
	struct kb_fdp *fdp;	/* a streams sweep's: the devices' FDP counters */
	size_t nr_fdp;
};

/* Steady-state check of the last w values. */
struct kb_ss {
	bool reached, data_ok, slope_ok;
	double mean, slope, intercept, max_dev, excursion;
};

int kb_parse_value_list(const char *s, bool sizes, uint64_t min, uint64_t max,
			uint64_t **out, unsigned int *nr, char *err, size_t errlen);
void kb_split_qd(uint32_t qd, uint32_t maxw, uint32_t *workers, uint32_t *per);
uint64_t kb_duty_idle_ns(uint64_t busy_ns, unsigned int pct);
double kb_duty_cycle(uint64_t busy_ns, uint64_t idle_ns);
bool kb_steady_state(const double *y, size_t n, size_t w, double data_pct,
		     double slope_pct, struct kb_ss *ss);
int kb_hist_merge(struct kb_hist *dst, const struct kb_hist *src);
int kb_summarize(const struct kb_result *r, size_t n, int d, bool sequential,
		 struct kb_sum *s);
int kb_saturation(const double *iops, const double *lat, size_t n, double thresh_pct);
/* stats.c: the direction a step's figures are about: write if it only wrote. */
int kb_step_dir(const struct kb_step *st);
/* plan.c: a step's value as printed: sizes as 4k, 1m; "-" for no variable. */
void kb_step_label(char *buf, size_t len, enum kb_var var, uint64_t v);

/* steps_out.c */
void kb_table_header(FILE *f, const char *var);
/* hw: the sensors of the row's jobs, NULL: none */
void kb_table_row(FILE *f, const char *value, int d, const struct kb_sum *s,
		  const struct kb_hw_sum *hw);
void kb_csv_header(FILE *f);
void kb_csv_row(FILE *f, const char *part, const struct kb_step *st, const char *device,
		int d, const struct kb_sum *s, const struct kb_hw_sum *hw);
/* Step st's rows (table, csv: NULL for none): the aggregate, then each job's. */
void kb_step_rows(FILE *table, FILE *csv, const char *part, const struct kb_step *st);
struct json_object *kb_sum_json(const struct kb_sum *s);
/* The step's object in the document of a sweep or suite. */
struct json_object *kb_step_json(const struct kb_step *st);

#endif /* KIOBENCH_STEPS_H */
