/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where each I/O ran, in the reports (locality_out.c): the locality lines
 * of the normal output and jobs[i].kiobench.locality of the JSON.
 */
#ifndef KIOBENCH_LOCALITY_OUT_H
#define KIOBENCH_LOCALITY_OUT_H

#include <stdio.h>

#include <json-c/json.h>

#include "result.h"

/* After a job's directions in the normal output; nothing without a locality. */
void kb_print_locality(FILE *f, const struct kb_result *r);
/* jobs[i].kiobench.locality; NULL without one. */
struct json_object *kb_locality_json(const struct kb_result *r);

#endif /* KIOBENCH_LOCALITY_OUT_H */
