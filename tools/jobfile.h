/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio job files (jobfile.c), read the way fio 3.33 reads them.
 */
#ifndef KIOBENCH_JOBFILE_H
#define KIOBENCH_JOBFILE_H

#include "kiobench.h"

struct kb_section {
	char *name;
	const char *file;	/* the file of its header (the job file or an include) */
	unsigned int line;
	size_t nr_global;	/* [global] assignments that precede it */
	struct kb_assign_list opts;
};

struct kb_jobfile {
	char *path;
	struct kb_assign_list global;
	size_t *gsec;		/* where each [global] section starts in global */
	size_t nr_gsec;
	struct kb_section *sec;
	size_t nr_sec;
	char **files;		/* path and the included files: assignments point here */
	size_t nr_files;
};

#define KB_INCLUDE_DEPTH	16	/* includes within includes, at most */

/*
 * Parse text (path used for messages and as the base of includes).  0 or
 * -1 with "file:line: msg".  Every value is checked, a job section with the
 * [global] sections above it.
 */
int kb_jobfile_parse_text(const char *path, const char *text,
			  struct kb_jobfile *jf, char *err, size_t errlen);
int kb_jobfile_load(const char *path, struct kb_jobfile *jf,
		    char *err, size_t errlen);
void kb_jobfile_free(struct kb_jobfile *jf);
/*
 * Build the job of section i as fio does: defaults, the command-line
 * options (fio: the globals the first job file starts from; NULL: none),
 * the [global] options above the section, then the section's own.
 * Within a [global] or job section kb_base applies first, as in fio; the
 * command line goes in order, as fio's.
 */
int kb_jobfile_build(const struct kb_jobfile *jf, size_t i,
		     const struct kb_assign_list *cli, struct kb_job *job,
		     char *err, size_t errlen);
/*
 * The closest option name to an unknown one (kiobench's or a refused
 * fio option), for "did you mean"; NULL if none is close.
 */
const char *kb_closest_option(const char *name);

#endif /* KIOBENCH_JOBFILE_H */
