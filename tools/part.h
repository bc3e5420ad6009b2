/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parts (part.c) and their figures (figures.c), for the commands of
 * methods.c: sweep, precondition and suite.
 *
 * A part is a sequence of steps; each step is one or more kernel jobs
 * (one per device when devices are counted) that run together.  A sweep
 * is one part; a suite is a list of parts, optionally after the
 * preconditioning parts.  Every part's steps and figures go into one JSON
 * document.
 */
#ifndef KIOBENCH_PART_H
#define KIOBENCH_PART_H

#include <stdio.h>

#include "kiobench.h"
#include "steps.h"
#include "suite.h"

struct json_object;

/* A command made of parts: its options, outputs and document. */
struct method {
	struct kb_global g;		/* the command's options */
	struct kb_assign_list cli;	/* job options as given */
	struct kb_job tmpl;		/* cli applied */
	FILE *out, *csv;
	struct json_object *parts;	/* the document's array of parts */
	bool interrupted;		/* by a signal: the results are partial */
};

/* A part that ran. */
struct part_run {
	const struct part_def *def;
	struct kb_step *steps;
	size_t n;			/* steps that ran */
	struct json_object *json;	/* the part's object */
	struct json_object *steps_json;
	struct json_object *figures;
	uint64_t busy_ns, idle_ns;
};

/* Whether to end a part early, asked after each of its steps. */
typedef bool (*part_stop_fn)(const struct method *m, const struct part_run *pr);

/*
 * Run part def (every step's jobs are checked before the first one runs),
 * print its rows as each step ends, add it to the document and print its
 * figures.  keep (may be NULL) gets the part for the caller to free with
 * free_part().  Returns 0 or an exit code.
 */
int do_part(struct method *m, const struct part_def *def, part_stop_fn stop,
	    struct part_run *keep);
void free_part(struct part_run *pr);

/* figures.c: the figures of pr->def->figs, and the aggregate of bursts. */
void figures(struct method *m, struct part_run *pr);

#endif /* KIOBENCH_PART_H */
