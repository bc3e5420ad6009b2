/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Machine-wide settings a sweep changes and puts back (tuning.c): the
 * block queue's rq_affinity, nomerges, scheduler and nr_requests, the
 * affinity of the device's interrupt vectors, and the block integrity's
 * write_generate and read_verify.  Each old value is recorded
 * in the run directory (/run/kiobench, $KIOBENCH_RUN_DIR) before it is
 * changed, so that the next kiobench puts back what a killed one left.
 */
#ifndef KIOBENCH_TUNING_H
#define KIOBENCH_TUNING_H

#include <stdio.h>

#include <json-c/json.h>

#include "kiobench.h"

/*
 * The options' names: rq_affinity, nomerges, ioscheduler, nr_requests,
 * irq_cpus, write_generate, read_verify.
 */
extern const char *const kb_tune_names[KB_NR_TUNE];

/* Value i of a comma-separated list into buf; false: there is none. */
bool kb_tune_value(const char *list, unsigned int i, char *buf, size_t len);
/* The values of a comma-separated list. */
unsigned int kb_tune_count(const char *list);
/*
 * Setting t of the devices devs[0..n) to val, each old value recorded
 * first.  0, or -1 with a message (the kernel refused: which, and why).
 */
int kb_tune_set(enum kb_tune t, char *const *devs, unsigned int n, const char *val);
/* Puts back every value this process changed, and removes its record. */
void kb_tune_restore(void);
/*
 * Puts back what a kiobench that did not end left changed (its record in
 * the run directory, its process gone), saying so on stderr.
 */
void kb_tune_recover(void);
/* The settings in effect on devs[0..n), read back: {"dev": {"setting": "value"}}. */
struct json_object *kb_tune_json(char *const *devs, unsigned int n);
/* The same as one line per device: "  settings of DEV: rq_affinity=2 ...". */
void kb_tune_print(FILE *f, char *const *devs, unsigned int n);

#endif /* KIOBENCH_TUNING_H */
