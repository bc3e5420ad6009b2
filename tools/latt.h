/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's latency_target (latt.c): the module's debugfs latency_target file
 * parsed (each worker's depth found and the windows it judged), and its
 * lines in the normal output and the JSON.
 */
#ifndef KIOBENCH_LATT_H
#define KIOBENCH_LATT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json_object;
struct kb_result;

/* One window a worker judged. */
struct kb_latt_win {
	uint64_t end_ns;	/* since the job's start */
	uint32_t depth, ios, within;
	bool pass;
};

struct kb_latt_worker {
	uint32_t depth;		/* the depth it ended at, or runs at */
	uint64_t windows;	/* judged; the curve holds the first of them */
	char state[8];		/* search, final or done */
	unsigned int nr;
	struct kb_latt_win *win;
};

struct kb_latt {
	bool present;
	uint64_t target_ns, window_ns;
	uint32_t percentile_ppm;
	bool run;
	unsigned int nr_workers;
	struct kb_latt_worker *w;
};

/* Parses the text of debugfs latency_target; -1 with err on a bad line. */
int kb_latt_parse(const char *text, struct kb_latt *lt, char *err, size_t errlen);
void kb_latt_free(struct kb_latt *lt);
/* fio's latency_depth: the lowest depth a worker ended at (0: none). */
uint32_t kb_latt_depth(const struct kb_latt *lt);
void kb_print_latt(FILE *f, const struct kb_latt *lt);
struct json_object *kb_latt_json(const struct kb_latt *lt);

#endif /* KIOBENCH_LATT_H */
