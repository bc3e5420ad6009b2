// SPDX-License-Identifier: GPL-2.0
/*
 * fio-style job files: "[global]" and "[jobname]" sections, "key=value" or
 * bare "key" lines, full-line comments starting with ';' or '#'.  Option
 * names and values are those of the command line (options.c).  Every value
 * is checked while reading, so errors point at file:line.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile.h"
#include "kiobench.h"
#include "options.h"
#include "values.h"

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

void kb_jobfile_free(struct kb_jobfile *jf)
{
	size_t i;

	for (i = 0; i < jf->nr_sec; i++) {
		free(jf->sec[i].name);
		kb_assign_list_free(&jf->sec[i].opts);
	}
	free(jf->sec);
	kb_assign_list_free(&jf->global);
	free(jf->path);
	memset(jf, 0, sizeof(*jf));
}

static int add_section(struct kb_jobfile *jf, const char *name, unsigned int line)
{
	struct kb_section *ns = realloc(jf->sec, (jf->nr_sec + 1) * sizeof(*ns));

	if (!ns)
		return -1;
	jf->sec = ns;
	ns = &jf->sec[jf->nr_sec];
	memset(ns, 0, sizeof(*ns));
	ns->name = strdup(name);
	if (!ns->name)
		return -1;
	ns->line = line;
	ns->nr_global = jf->global.n;
	jf->nr_sec++;
	return 0;
}

/* A job file being parsed: every option is checked on scratch as it is read. */
struct jf_parse {
	struct kb_jobfile *jf;
	struct kb_assign_list *cur;	/* the section's options, NULL: none yet */
	struct kb_job scratch;
	struct kb_global g;
	const char *path;
	unsigned int line;
};

/* "[name]": [global], or a job whose name is checked like --name. */
static int jf_section(struct jf_parse *p, char *s, char *err, size_t errlen)
{
	struct kb_assign a = { .opt = &kb_opts[KB_OPT_NAME], .file = p->jf->path,
			       .line = p->line };
	char *name, *end = s + strlen(s) - 1;

	if (*end != ']')
		return kb_errf(err, errlen, "%s:%u: malformed section header", p->path, p->line);
	*end = '\0';
	name = trim(s + 1);
	if (!*name)
		return kb_errf(err, errlen, "%s:%u: empty section name", p->path, p->line);
	if (!strcmp(name, "global")) {
		p->cur = &p->jf->global;
		return 0;
	}
	a.val = name;
	if (kb_apply(&p->scratch, &p->g, &a, err, errlen))
		return -1;
	if (add_section(p->jf, name, p->line))
		return kb_errf(err, errlen, "out of memory");
	p->cur = &p->jf->sec[p->jf->nr_sec - 1].opts;
	return 0;
}

/* "key" or "key=value" of the current section. */
static int jf_option(struct jf_parse *p, char *s, char *err, size_t errlen)
{
	struct kb_assign a = { .file = p->jf->path, .line = p->line };
	char *eq = strchr(s, '='), *key;

	if (eq) {
		*eq = '\0';
		a.val = trim(eq + 1);
	}
	key = trim(s);
	if (!p->cur)
		return kb_errf(err, errlen, "%s:%u: option '%s' outside of a section",
			       p->path, p->line, key);
	a.opt = kb_opt_find(key);
	if (!a.opt)
		return kb_errf(err, errlen, "%s:%u: unknown option '%s'", p->path, p->line, key);
	if (kb_apply(&p->scratch, &p->g, &a, err, errlen))
		return -1;
	if (kb_assign_add(p->cur, a.opt, a.val, p->jf->path, p->line))
		return kb_errf(err, errlen, "out of memory");
	return 0;
}

int kb_jobfile_parse_text(const char *path, const char *text,
			  struct kb_jobfile *jf, char *err, size_t errlen)
{
	struct jf_parse p = { .jf = jf, .path = path };
	char *copy, *line, *next, *s;
	int ret = -1;

	memset(jf, 0, sizeof(*jf));
	kb_job_init(&p.scratch);
	kb_global_init(&p.g, KB_CMD_RUN);
	jf->path = strdup(path);
	copy = strdup(text);
	if (!jf->path || !copy) {
		kb_errf(err, errlen, "out of memory");
		goto out;
	}
	for (line = copy; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		p.line++;
		s = trim(line);
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[' ? jf_section(&p, s, err, errlen) : jf_option(&p, s, err, errlen))
			goto out;
	}
	if (!jf->nr_sec) {
		kb_errf(err, errlen, "%s: no job section (only [global])", path);
		goto out;
	}
	ret = 0;
out:
	free(copy);
	kb_job_free(&p.scratch);
	kb_global_free(&p.g);
	if (ret)
		kb_jobfile_free(jf);
	return ret;
}

int kb_jobfile_load(const char *path, struct kb_jobfile *jf,
		    char *err, size_t errlen)
{
	char *text = kb_read_file(path);
	int ret;

	if (!text)
		return kb_errf(err, errlen, "%s: %s", path, strerror(errno));
	ret = kb_jobfile_parse_text(path, text, jf, err, errlen);
	free(text);
	return ret;
}

static int apply_list(struct kb_job *job, struct kb_global *g,
		      const struct kb_assign_list *l, size_t n,
		      char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (l->v[i].opt->scope != KB_SCOPE_JOB)
			continue;
		if (kb_apply(job, g, &l->v[i], err, errlen))
			return -1;
	}
	return 0;
}

int kb_jobfile_build(const struct kb_jobfile *jf, size_t i,
		     const struct kb_assign_list *cli, struct kb_job *job,
		     char *err, size_t errlen)
{
	const struct kb_section *sec = &jf->sec[i];
	struct kb_global g = { 0 };
	struct kb_assign name = {
		.opt = &kb_opts[KB_OPT_NAME], .val = sec->name,
		.file = jf->path, .line = sec->line,
	};
	int ret = -1;

	kb_job_init(job);
	/* [global] above the section, then the command line, then the section. */
	if (apply_list(job, &g, &jf->global, sec->nr_global, err, errlen) ||
	    (cli && apply_list(job, &g, cli, cli->n, err, errlen)) ||
	    kb_apply(job, &g, &name, err, errlen) ||
	    apply_list(job, &g, &sec->opts, sec->opts.n, err, errlen))
		goto out;
	ret = 0;
out:
	kb_global_free(&g);
	return ret;
}
