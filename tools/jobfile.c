// SPDX-License-Identifier: GPL-2.0
/*
 * fio job files, read as fio 3.33 reads them: "[global]" and "[jobname]"
 * sections, "key=value" or bare "key" lines; ';' or '#' starts a comment
 * anywhere on a line; "include FILE" (relative to the including file)
 * pulls a file's lines into the current section; values expand ${VAR},
 * $ncpus, $pagesize and $mb_memory (values.c).  Option names and value
 * syntax are those of the command line (options.c); fio's options that
 * kiobench does not take are refused with their reason (fio_opts.c).
 * Every value is checked while reading, so errors point at file:line.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fio_opts.h"
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
	free(jf->gsec);
	for (i = 0; i < jf->nr_files; i++)
		free(jf->files[i]);
	free(jf->files);
	free(jf->path);
	memset(jf, 0, sizeof(*jf));
}

/* A file name the assignments of jf point at, kept until kb_jobfile_free. */
static const char *add_file(struct kb_jobfile *jf, const char *path)
{
	char **nf = realloc(jf->files, (jf->nr_files + 1) * sizeof(*nf));

	if (!nf)
		return NULL;
	jf->files = nf;
	nf[jf->nr_files] = strdup(path);
	return nf[jf->nr_files] ? nf[jf->nr_files++] : NULL;
}

static int add_section(struct kb_jobfile *jf, const char *name, const char *file,
		       unsigned int line)
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
	ns->file = file;
	ns->line = line;
	ns->nr_global = jf->global.n;
	jf->nr_sec++;
	return 0;
}

/* A job file being parsed, and the file of the lines being read (or an include). */
struct jf_parse {
	struct kb_jobfile *jf;
	struct kb_assign_list *cur;	/* the section's options, NULL: none yet */
	struct kb_job scratch;
	struct kb_global g;
	char *real[KB_INCLUDE_DEPTH + 1];	/* the files being read, for cycles */
	unsigned int depth;
};

struct jf_file {
	const char *path;	/* as shown in messages */
	unsigned int line;
};

static int jf_text(struct jf_parse *p, const char *path, const char *text,
		   char *err, size_t errlen);

/* "[name]": [global], or a job whose name is checked like --name. */
static int jf_section(struct jf_parse *p, struct jf_file *f, char *s,
		      char *err, size_t errlen)
{
	struct kb_assign a = { .opt = &kb_opts[KB_OPT_NAME], .file = f->path,
			       .line = f->line };
	char *name, *end = s + strlen(s) - 1;

	if (p->depth > 1)
		return kb_errf(err, errlen, "%s:%u: a section in an included file (fio "
			       "takes none)", f->path, f->line);
	if (*end != ']')
		return kb_errf(err, errlen, "%s:%u: malformed section header", f->path, f->line);
	*end = '\0';
	name = trim(s + 1);
	if (!*name)
		return kb_errf(err, errlen, "%s:%u: empty section name", f->path, f->line);
	if (!strcmp(name, "global")) {
		size_t *ng = realloc(p->jf->gsec, (p->jf->nr_gsec + 1) * sizeof(*ng));

		if (!ng)
			return kb_errf(err, errlen, "out of memory");
		p->jf->gsec = ng;
		ng[p->jf->nr_gsec++] = p->jf->global.n;
		p->cur = &p->jf->global;
		return 0;
	}
	a.val = name;
	if (kb_apply(&p->scratch, &p->g, &a, err, errlen))
		return -1;
	if (add_section(p->jf, name, f->path, f->line))
		return kb_errf(err, errlen, "out of memory");
	p->cur = &p->jf->sec[p->jf->nr_sec - 1].opts;
	return 0;
}

/* "include FILE": its lines go where the directive is, as fio's do. */
static int jf_include(struct jf_parse *p, struct jf_file *f, const char *name,
		      char *err, size_t errlen)
{
	char *dir = strdup(f->path), *path = NULL, *text = NULL;
	const char *kept;
	int ret = -1;

	if (!dir)
		return kb_errf(err, errlen, "out of memory");
	if (!*name) {
		kb_errf(err, errlen, "%s:%u: include: no file name", f->path, f->line);
		goto out;
	}
	if (asprintf(&path, "%s/%s", dirname(dir), name) < 0) {
		path = NULL;
		kb_errf(err, errlen, "out of memory");
		goto out;
	}
	kept = add_file(p->jf, name[0] == '/' ? name : path);
	text = kept ? kb_read_file(kept) : NULL;
	if (!kept)
		kb_errf(err, errlen, "out of memory");
	else if (!text)
		kb_errf(err, errlen, "%s:%u: include %s: %s", f->path, f->line, kept,
			strerror(errno));
	else
		ret = jf_text(p, kept, text, err, errlen);
out:
	free(text);
	free(path);
	free(dir);
	return ret;
}

/* "unknown option 'X'", with the closest name if one is close. */
static int unknown(struct jf_file *f, const char *key, char *err, size_t errlen)
{
	const char *near = kb_closest_option(key);

	if (near)
		return kb_errf(err, errlen, "%s:%u: unknown option '%s' (did you mean '%s'?)",
			       f->path, f->line, key, near);
	return kb_errf(err, errlen, "%s:%u: unknown option '%s'", f->path, f->line, key);
}

/* "key" or "key=value" of the current section, or "include FILE". */
static int jf_option(struct jf_parse *p, struct jf_file *f, char *s,
		     char *err, size_t errlen)
{
	struct kb_assign a = { .file = f->path, .line = f->line };
	char *eq = strchr(s, '='), *key, *val = NULL, msg[KB_ERRLEN];
	const char *why;
	int ret;

	if (!eq && !strncmp(s, "include", 7) && isspace((unsigned char)s[7]))
		return jf_include(p, f, trim(s + 8), err, errlen);
	if (eq) {
		*eq = '\0';
		val = trim(eq + 1);
	}
	key = trim(s);
	if (!p->cur)
		return kb_errf(err, errlen, "%s:%u: option '%s' outside of a section",
			       f->path, f->line, key);
	a.opt = kb_opt_find(key);
	/* a fio name that kiobench takes on a command line only: fio's refusal */
	why = a.opt && a.opt->scope != KB_SCOPE_CLI ? NULL : kb_fio_refusal(key);
	if (why)
		return kb_errf(err, errlen, "%s:%u: option '%s' is refused: %s", f->path,
			       f->line, key, why);
	if (!a.opt)
		return unknown(f, key, err, errlen);
	if (a.opt->scope == KB_SCOPE_CLI)
		return kb_errf(err, errlen, "%s:%u: option '%s' is only valid on the command line",
			       f->path, f->line, a.opt->name);
	if (val && !(val = kb_expand_value(val, msg, sizeof(msg))))
		return kb_errf(err, errlen, "%s:%u: %s: %s", f->path, f->line, a.opt->name, msg);
	a.val = val;
	ret = kb_assign_add(p->cur, a.opt, a.val, f->path, f->line);
	free(val);
	return ret ? kb_errf(err, errlen, "out of memory") : 0;
}

/* fio strips a comment from the first ';' or '#' of a line. */
static char *strip_comment(char *line)
{
	line[strcspn(line, ";#")] = '\0';
	return trim(line);
}

/* The lines of one file (the job file or an include) into p. */
static int jf_text(struct jf_parse *p, const char *path, const char *text,
		   char *err, size_t errlen)
{
	struct jf_file f = { .path = path };
	char *copy, *line, *next, *s, *real = realpath(path, NULL);
	unsigned int i;
	int ret = -1;

	for (i = 0; real && i < p->depth; i++)
		if (p->real[i] && !strcmp(p->real[i], real)) {
			free(real);
			return kb_errf(err, errlen, "%s: included by itself (an include cycle)",
				       path);
		}
	if (p->depth >= KB_INCLUDE_DEPTH) {
		free(real);
		return kb_errf(err, errlen, "%s: includes nested more than %d deep", path,
			       KB_INCLUDE_DEPTH);
	}
	copy = strdup(text);
	p->real[p->depth++] = real;
	for (line = copy; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		f.line++;
		s = strip_comment(line);
		if (!*s)
			continue;
		if (*s == '[' ? jf_section(p, &f, s, err, errlen) :
				jf_option(p, &f, s, err, errlen))
			goto out;
	}
	ret = copy ? 0 : kb_errf(err, errlen, "out of memory");
out:
	free(p->real[--p->depth]);
	free(copy);
	return ret;
}

/* Every value checked: each section built with the [global]s above it. */
static int jf_check(const struct kb_jobfile *jf, char *err, size_t errlen)
{
	struct kb_section all = { .nr_global = jf->global.n };
	struct kb_jobfile globals = *jf;
	struct kb_job job;
	size_t i;
	int ret = 0;

	/* the [global]s after the last section, too */
	globals.sec = &all;
	globals.nr_sec = 1;
	for (i = 0; i <= jf->nr_sec && !ret; i++) {
		ret = kb_jobfile_build(i < jf->nr_sec ? jf : &globals,
				       i < jf->nr_sec ? i : 0, NULL, &job, err, errlen);
		kb_job_free(&job);
	}
	return ret;
}

int kb_jobfile_parse_text(const char *path, const char *text,
			  struct kb_jobfile *jf, char *err, size_t errlen)
{
	struct jf_parse p = { .jf = jf };
	const char *kept;
	int ret = -1;

	memset(jf, 0, sizeof(*jf));
	kb_job_init(&p.scratch);
	kb_global_init(&p.g, KB_CMD_RUN);
	jf->path = strdup(path);
	kept = add_file(jf, path);
	if (!jf->path || !kept) {
		kb_errf(err, errlen, "out of memory");
		goto out;
	}
	if (jf_text(&p, kept, text, err, errlen) || jf_check(jf, err, errlen))
		goto out;
	if (!jf->nr_sec) {
		kb_errf(err, errlen, "%s: no job section (only [global])", path);
		goto out;
	}
	ret = 0;
out:
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

/*
 * The job options of l[from..to); in a job file's section kb_base first,
 * as fio sorts it before the others (fio's command line goes in order).
 */
static int apply_range(struct kb_job *job, struct kb_global *g,
		       const struct kb_assign_list *l, size_t from, size_t to,
		       bool kb_base_first, char *err, size_t errlen)
{
	int pass;
	size_t i;

	for (pass = kb_base_first ? 0 : 1; pass < 2; pass++) {
		for (i = from; i < to; i++) {
			const struct kb_opt *o = l->v[i].opt;

			if (o->scope != KB_SCOPE_JOB ||
			    (kb_base_first && (o->id == KB_OPT_KB_BASE) != !pass))
				continue;
			if (kb_apply(job, g, &l->v[i], err, errlen))
				return -1;
		}
	}
	return 0;
}

static int apply_list(struct kb_job *job, struct kb_global *g,
		      const struct kb_assign_list *l, size_t n, bool kb_base_first,
		      char *err, size_t errlen)
{
	return apply_range(job, g, l, 0, n, kb_base_first, err, errlen);
}

/* The [global] sections' options before index n, each section on its own (fio). */
static int apply_globals(struct kb_job *job, struct kb_global *g,
			 const struct kb_jobfile *jf, size_t n, char *err, size_t errlen)
{
	size_t u, end;

	for (u = 0; u < jf->nr_gsec && jf->gsec[u] < n; u++) {
		end = u + 1 < jf->nr_gsec ? jf->gsec[u + 1] : jf->global.n;
		if (apply_range(job, g, &jf->global, jf->gsec[u], end < n ? end : n, true,
				err, errlen))
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
		.file = sec->file, .line = sec->line,
	};
	int ret = -1;

	kb_job_init(job);
	/* fio: the command line, the [global]s above the section, the section */
	if ((cli && apply_list(job, &g, cli, cli->n, false, err, errlen)) ||
	    apply_globals(job, &g, jf, sec->nr_global, err, errlen) ||
	    (sec->name && kb_apply(job, &g, &name, err, errlen)) ||
	    apply_list(job, &g, &sec->opts, sec->opts.n, true, err, errlen))
		goto out;
	ret = 0;
out:
	kb_global_free(&g);
	return ret;
}

/* Levenshtein distance of a and b, both short option names. */
static unsigned int distance(const char *a, const char *b)
{
	unsigned int d[64], i, j, prev, tmp;
	size_t la = strlen(a), lb = strlen(b);

	if (la >= 64 || lb >= 64)
		return UINT_MAX;
	for (j = 0; j <= lb; j++)
		d[j] = j;
	for (i = 1; i <= la; i++) {
		prev = d[0];
		d[0] = i;
		for (j = 1; j <= lb; j++) {
			unsigned int sub = prev + (tolower((unsigned char)a[i - 1]) !=
						   tolower((unsigned char)b[j - 1]));

			tmp = d[j];
			d[j] = sub;
			if (d[j - 1] + 1 < d[j])
				d[j] = d[j - 1] + 1;
			if (tmp + 1 < d[j])
				d[j] = tmp + 1;
			prev = tmp;
		}
	}
	return d[lb];
}

static void closer(const char *name, const char *cand, const char **best,
		   unsigned int *bd)
{
	unsigned int dist;

	if (!cand)
		return;
	dist = distance(name, cand);
	if (dist < *bd) {
		*bd = dist;
		*best = cand;
	}
}

const char *kb_closest_option(const char *name)
{
	unsigned int bd = UINT_MAX, limit = strlen(name) < 6 ? 1 : 2;
	const char *best = NULL;
	size_t i;

	for (i = 0; i < KB_NR_OPTS; i++) {
		if (kb_opts[i].scope != KB_SCOPE_JOB)
			continue;
		closer(name, kb_opts[i].name, &best, &bd);
		closer(name, kb_opts[i].alias, &best, &bd);
	}
	for (i = 0; i < kb_nr_fio_refused; i++) {
		closer(name, kb_fio_refused[i].name, &best, &bd);
		closer(name, kb_fio_refused[i].alias, &best, &bd);
	}
	return bd <= limit ? best : NULL;
}
