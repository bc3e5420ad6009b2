// SPDX-License-Identifier: GPL-2.0
/*
 * The command line: messages, the progress line, getopt_long from the
 * option table (options.c) and the usage lines of the options.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fio_opts.h"
#include "jobfile.h"
#include "nl.h"
#include "options.h"
#include "values.h"

static bool progress_shown;

void progress_clear(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = false;
	}
}

void msg(const char *fmt, ...)
{
	va_list ap;

	progress_clear();
	fputs("kiobench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void progress(const char *fmt, ...)
{
	va_list ap;

	fputs("\r\033[Kkiobench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	progress_shown = true;
}

const char *errname(int err)
{
	const char *s = strerrorname_np(err);

	return s ? s : "unknown error";
}

int nl_fail(const char *what, const struct kb_nlerr *e)
{
	if (e->no_family)
		msg("module not loaded (modprobe kiobench / insmod kiobench.ko)");
	else if (e->err == -EPERM)
		msg("needs CAP_SYS_ADMIN (run as root)");
	else
		msg("%s: %s (%s)", what, e->msg[0] ? e->msg : strerror(-e->err),
		    errname(-e->err));
	return KB_EXIT_SYSTEM;
}

int refuse_writes(const char *what, const char *device, const char *more)
{
	msg("%s %s%s: refusing without --allow-writes (writing destroys the data on the "
	    "device)", what, device, more);
	return KB_EXIT_USAGE;
}

int simple_opts(int argc, char **argv, void (*usage)(FILE *))
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", lo, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return KB_EXIT_OK;
		}
		if (optopt)
			msg("%s: unknown option '-%c'", argv[0], optopt);
		else
			msg("%s: unknown option '%s'", argv[0], argv[optind - 1]);
		usage(stderr);
		return KB_EXIT_USAGE;
	}
	return -1;
}

/* name, and its other spelling (allow-writes / allow_writes) if it has one. */
static int add_names(struct option *lo, const char *name, int has_arg, int val)
{
	char *alt = strdup(name), *p;
	int n = 0;

	lo[n++] = (struct option){ name, has_arg, NULL, val };
	for (p = alt; p && *p; p++)
		*p = *p == '-' ? '_' : *p == '_' ? '-' : *p;
	if (alt && strcmp(alt, name))
		lo[n++] = (struct option){ alt, has_arg, NULL, val };
	else
		free(alt);
	return n;
}

/* The options of command cmd (KB_OPT_BASE + index), then --help. */
static struct option *build_longopts(unsigned int cmd)
{
	/* name, alias, and their '-'/'_' spellings, then --help and the end */
	struct option *lo = calloc(4 * KB_NR_OPTS + 2, sizeof(*lo));
	int i, n = 0;

	if (!lo)
		return NULL;
	for (i = 0; i < KB_NR_OPTS; i++) {
		const struct kb_opt *o = &kb_opts[i];
		int has_arg = o->flag ? optional_argument : required_argument;

		if (!(o->cmds & cmd))
			continue;
		n += add_names(lo + n, o->name, has_arg, KB_OPT_BASE + i);
		if (o->alias)
			n += add_names(lo + n, o->alias, has_arg, KB_OPT_BASE + i);
	}
	lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	return lo;
}

static void free_longopts(struct option *lo)
{
	struct option *o;
	int i;

	if (!lo)
		return;
	for (o = lo; o->name; o++) {
		if (o->val < KB_OPT_BASE || o->val >= KB_OPT_BASE + KB_NR_OPTS)
			continue;
		i = o->val - KB_OPT_BASE;
		if (o->name != kb_opts[i].name && o->name != kb_opts[i].alias)
			free((char *)o->name);
	}
	free(lo);
}

/* The long name of getopt value val in lo. */
static const char *lo_name(const struct option *lo, int val)
{
	for (; lo->name; lo++)
		if (lo->val == val)
			return lo->name;
	return "?";
}

/* --NAME[=V] that no command takes: fio's and refused, or unknown. */
static int unknown_long(char **argv)
{
	const char *arg = argv[optind - 1], *name = arg + strspn(arg, "-"), *why, *near;
	char key[64];

	snprintf(key, sizeof(key), "%.*s", (int)strcspn(name, "="), name);
	why = kb_fio_cli_refusal(key);
	near = why ? NULL : kb_closest_option(key);
	if (why)
		msg("--%s: option '%s' is refused: %s", key, key, why);
	else if (near)
		msg("%s: unknown option '%.*s' (did you mean '--%s'? see 'kiobench %s --help')",
		    argv[0], (int)strcspn(arg, "="), arg, near, argv[0]);
	else
		msg("%s: unknown option '%.*s' (see 'kiobench %s --help')", argv[0],
		    (int)strcspn(arg, "="), arg, argv[0]);
	return KB_EXIT_USAGE;
}

/* getopt_long returned c, not an option of ours: say what was wrong. */
static int bad_option(int c, char **argv, const struct option *lo)
{
	if (c == ':') {
		if (optopt >= KB_OPT_BASE)
			msg("--%s: missing value", lo_name(lo, optopt));
		else
			msg("%s: option '%s' needs a value", argv[0], argv[optind - 1]);
	} else if (optopt && optopt < KB_OPT_BASE) {
		msg("%s: unknown option '-%c' (see 'kiobench %s --help')", argv[0], optopt,
		    argv[0]);
	} else if (optopt >= KB_OPT_BASE) {
		msg("--%s: takes no value", lo_name(lo, optopt));
	} else {
		return unknown_long(argv);
	}
	return KB_EXIT_USAGE;
}

/* Option o with value val (NULL: a bare flag).  -1 to go on, else an exit code. */
static int one_option(const struct kb_opt *o, const char *val, struct kb_job *scratch,
		      struct kb_global *g, struct kb_assign_list *cli)
{
	struct kb_assign a = { .opt = o };
	char err[KB_ERRLEN], *exp = NULL;
	int ret = -1;

	/* fio expands $ncpus, $pagesize, $mb_memory on the command line too */
	if (val && !(exp = kb_expand_value(val, err, sizeof(err)))) {
		msg("--%s: %s", o->name, err);
		return KB_EXIT_USAGE;
	}
	a.val = exp;
	if (o->scope == KB_SCOPE_JOB && o->list_var && (g->cmd & KB_CMD_METHODS)) {
		if (kb_set_list(g, o->list_var, exp)) {
			msg("out of memory");
			ret = KB_EXIT_SYSTEM;
		}
	} else if (kb_apply(scratch, g, &a, err, sizeof(err))) {
		msg("%s", err);
		ret = KB_EXIT_USAGE;
	} else if (o->scope == KB_SCOPE_JOB && kb_assign_add(cli, o, exp, NULL, 0)) {
		msg("out of memory");
		ret = KB_EXIT_SYSTEM;
	}
	free(exp);
	return ret;
}

/*
 * getopt_long takes an unambiguous prefix of an option for it: the name
 * typed (the last option getopt read) that is exactly a fio option kiobench
 * refuses is that option, refused, not one it is a prefix of.
 */
static bool refused_exactly(int argc, char **argv, const struct kb_opt *o)
{
	int at = optarg && optind >= 2 && optind <= argc && optarg == argv[optind - 1] ?
		 optind - 2 : optind - 1;
	const char *arg = argv[at], *name = arg + strspn(arg, "-");
	char key[64];

	snprintf(key, sizeof(key), "%.*s", (int)strcspn(name, "="), name);
	/* the command's own option of that name (a sweep's ioscheduler) */
	if (kb_opt_name_eq(o->name, key) || (o->alias && kb_opt_name_eq(o->alias, key)))
		return false;
	if (!kb_fio_cli_refusal(key))
		return false;
	optind = at + 1;	/* unknown_long() reads argv[optind - 1] */
	return true;
}

int parse_cli(int argc, char **argv, void (*usage)(FILE *), struct kb_job *scratch,
	      struct kb_global *g, struct kb_assign_list *cli)
{
	struct option *lo = build_longopts(g->cmd);
	int c, ret = -1;

	if (!lo) {
		msg("out of memory");
		return KB_EXIT_SYSTEM;
	}
	opterr = 0;
	optind = 1;
	while (ret < 0 && (c = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			ret = KB_EXIT_OK;
		} else if (c == ':' || c == '?' || c < KB_OPT_BASE) {
			ret = bad_option(c, argv, lo);
		} else if (refused_exactly(argc, argv, &kb_opts[c - KB_OPT_BASE])) {
			/* getopt took --verify_async for --verify_async_cpus */
			ret = unknown_long(argv);
		} else {
			ret = one_option(&kb_opts[c - KB_OPT_BASE], optarg, scratch, g, cli);
		}
	}
	free_longopts(lo);
	return ret;
}

#define KB_USAGE_COLS	79

/* "  NAME  HELP", HELP wrapped at KB_USAGE_COLS under itself. */
static void usage_line(FILE *f, int width, const char *name, const char *help)
{
	int col = fprintf(f, "  %-*s", width, name), indent = width + 3;
	const char *p = help;

	if (col > indent - 1) {
		fprintf(f, "\n%*s", indent - 1, "");
		col = indent - 1;
	}
	while (*p) {
		int len = strcspn(p, " ");

		if (col + 1 + len > KB_USAGE_COLS && col > indent - 1) {
			fprintf(f, "\n%*s", indent - 1, "");
			col = indent - 1;
		}
		col += fprintf(f, " %.*s", len, p);
		p += len;
		p += strspn(p, " ");
	}
	fputc('\n', f);
}

/* The help of option o in the usage of command cmd, with its default. */
static void opt_help(const struct kb_opt *o, unsigned int cmd, bool list, bool job_opts,
		     char *buf, size_t len)
{
	char fmts[64];
	size_t at;

	if (list) {
		snprintf(buf, len, "%s", o->list_help);
		return;
	}
	if (o->id == KB_OPT_OUTFMT) {
		kb_fmt_names(kb_cmd_formats(cmd), fmts, sizeof(fmts));
		snprintf(buf, len, "%s, comma-separated", fmts);
	} else {
		snprintf(buf, len, "%s", o->help);
	}
	at = strlen(buf);
	if (o->def && at < len)
		at += snprintf(buf + at, len - at, " (%s)", o->def);
	if (job_opts && o->scope == KB_SCOPE_CLI && at < len)
		snprintf(buf + at, len - at, " [command line only]");
}

void usage_options(FILE *f, unsigned int cmd, bool job_opts)
{
	int width = job_opts ? 30 : 20, i;
	char name[64], help[512];

	for (i = 0; i < KB_NR_OPTS; i++) {
		const struct kb_opt *o = &kb_opts[i];
		bool list = o->list_var && cmd == KB_CMD_SWEEP && o->list_help;
		const char *metavar = list ? "LIST" : o->metavar;

		if (!(o->cmds & cmd) ||
		    (!job_opts && o->scope == KB_SCOPE_JOB && !list))
			continue;
		snprintf(name, sizeof(name), "--%s%s%s", o->name, metavar ? "=" : "",
			 metavar ? metavar : "");
		opt_help(o, cmd, list, job_opts, help, sizeof(help));
		usage_line(f, width, name, help);
	}
	usage_line(f, width, "-h, --help", "show this help");
}
