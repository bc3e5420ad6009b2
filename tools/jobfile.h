/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio-style ini job files (jobfile.c).
 */
#ifndef KIOBENCH_JOBFILE_H
#define KIOBENCH_JOBFILE_H

#include "kiobench.h"

struct kb_section {
	char *name;
	unsigned int line;
	size_t nr_global;	/* [global] assignments that precede it */
	struct kb_assign_list opts;
};

struct kb_jobfile {
	char *path;
	struct kb_assign_list global;
	struct kb_section *sec;
	size_t nr_sec;
};

/* Parse text (path used for messages). 0 or -1 with "path:line: msg". */
int kb_jobfile_parse_text(const char *path, const char *text,
			  struct kb_jobfile *jf, char *err, size_t errlen);
int kb_jobfile_load(const char *path, struct kb_jobfile *jf,
		    char *err, size_t errlen);
void kb_jobfile_free(struct kb_jobfile *jf);
/*
 * Build the job of section i: defaults, the [global] options above it,
 * the command-line options, then the section's own options.
 */
int kb_jobfile_build(const struct kb_jobfile *jf, size_t i,
		     const struct kb_assign_list *cli, struct kb_job *job,
		     char *err, size_t errlen);

#endif /* KIOBENCH_JOBFILE_H */
