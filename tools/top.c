// SPDX-License-Identifier: GPL-2.0
/*
 * kiobench top: a live view of every job in the kernel, whoever started
 * it, detached ones too, from the module's status (JOB_GET dump) and
 * debugfs files, never from another tool's memory.  Per job and interval:
 * IOPS and MB/s, p50, p99 and p99.9 of the histogram's difference, its
 * own I/Os in flight (debugfs inflight) against the depth it asked for,
 * and the share of its completions on the submitting CPU.
 * A curses screen (q quits; resizing redraws), or plain lines (--batch).
 */
#define _GNU_SOURCE
#include <curses.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "locality.h"
#include "nl.h"
#include "result.h"
#include "run.h"
#include "stats.h"
#include "top.h"
#include "values.h"

#define NR_PCT	3

static const uint32_t top_pcts[NR_PCT] = { 50 * KB_PCT_ONE, 99 * KB_PCT_ONE, 99900000 };

/* What a job was at the previous refresh. */
struct prev {
	uint32_t id;
	uint64_t t_ns, ios, bytes, loc_n, loc_local;
	struct kb_hist h[2];	/* read, write */
	bool live;		/* seen at this refresh */
};

struct row {
	uint32_t id;
	char name[KIOBENCH_NAME_LEN], state[12];
	double iops, mbs, local_pct;
	uint64_t pct[NR_PCT];
	bool has_pct, has_loc, has_inflight;
	uint64_t inflight, depth;	/* the job's own I/Os in flight; asked */
};

struct top {
	struct prev *p;
	size_t nr_p;
	struct row *rows;
	size_t nr_rows;
	uint64_t now;
};

static const char *debugfs(void)
{
	const char *r = getenv("KIOBENCH_DEBUGFS");

	return r && *r ? r : "/sys/kernel/debug";
}

static char *read_dbg(const struct kb_status *st, const char *file)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/kiobench/%s/%s", debugfs(), st->debugfs_dir, file);
	return kb_read_file(path);
}

/* The count of bucket lo in h (0 when absent). */
static uint64_t count_at(const struct kb_hist *h, uint64_t lo)
{
	size_t i;

	for (i = 0; h && i < h->nr; i++)
		if (h->b[i].lo == lo)
			return h->b[i].count;
	return 0;
}

/* Percentiles of (now - was) over both directions; false: no sample. */
static bool interval_pcts(const struct kb_hist now[2], const struct kb_hist was[2],
			  uint64_t out[NR_PCT])
{
	struct kb_hist d = { .dir = -1 };
	size_t i, k;
	bool ok;

	d.b = calloc(now[0].nr + now[1].nr + 1, sizeof(*d.b));
	if (!d.b)
		return false;
	for (k = 0; k < 2; k++)
		for (i = 0; i < now[k].nr; i++) {
			uint64_t c = now[k].b[i].count - count_at(&was[k], now[k].b[i].lo);

			if (!c || now[k].b[i].count < c)
				continue;
			d.b[d.nr] = now[k].b[i];
			d.b[d.nr++].count = c;
			d.samples += c;
		}
	/* the two directions' buckets in order of value */
	for (i = 1; i < d.nr; i++)
		for (k = i; k && d.b[k - 1].lo > d.b[k].lo; k--) {
			struct kb_bucket t = d.b[k];

			d.b[k] = d.b[k - 1];
			d.b[k - 1] = t;
		}
	d.max = d.nr ? d.b[d.nr - 1].hi : 0;
	ok = d.samples && !kb_hist_percentiles(&d, top_pcts, NR_PCT, out, NULL);
	free(d.b);
	return ok;
}

/*
 * The job's own I/Os in flight (debugfs inflight's total); false: a
 * module without the file.  Not the devices' sysfs inflight, which counts
 * every job's and every other user's requests.
 */
static bool job_inflight(const struct kb_status *st, uint64_t *n)
{
	char *text = read_dbg(st, "inflight"), *p = text ? strstr(text, "\ntotal ") : NULL;
	unsigned long long v;
	bool ok = p && sscanf(p, "\ntotal %llu", &v) == 1;

	*n = ok ? v : 0;
	free(text);
	return ok;
}

static struct prev *find_prev(struct top *t, uint32_t id)
{
	size_t i;
	struct prev *p;

	for (i = 0; i < t->nr_p; i++)
		if (t->p[i].id == id)
			return &t->p[i];
	p = realloc(t->p, (t->nr_p + 1) * sizeof(*p));
	if (!p)
		return NULL;
	t->p = p;
	p = &t->p[t->nr_p++];
	memset(p, 0, sizeof(*p));
	p->id = id;
	return p;
}

/* The job's locality so far: completions and those on the submitting CPU. */
static void locality_counts(const struct kb_status *st, uint64_t *n, uint64_t *local)
{
	char *text = read_dbg(st, "locality"), err[KB_ERRLEN];
	struct kb_locality l;
	unsigned int i;

	*n = *local = 0;
	if (!text || kb_loc_parse(text, &l, err, sizeof(err))) {
		free(text);
		return;
	}
	*n = l.total;
	for (i = 0; i < l.nr_cpus; i++)
		*local += l.cpus[i].local;
	kb_loc_free(&l);
	free(text);
}

static const char *state_name(int s)
{
	static const char *const n[] = { "new", "running", "done", "stopped", "failed" };

	return s >= 0 && s <= KIOBENCH_STATE_FAILED ? n[s] : "?";
}

/* One job's row from its status and its previous refresh. */
static void make_row(struct top *t, const struct kb_status *st, struct prev *p, struct row *r)
{
	static const char *const hf[2] = { "hist_read", "hist_write" };
	struct kb_hist h[2] = { { 0 }, { 0 } };
	uint64_t ios = 0, bytes = 0, ln, ll;
	double dt;
	char err[KB_ERRLEN], *text;
	int d;

	memset(r, 0, sizeof(*r));
	r->id = st->id;
	snprintf(r->name, sizeof(r->name), "%s", st->name);
	snprintf(r->state, sizeof(r->state), "%s", state_name(st->state));
	for (d = 0; d < KIOBENCH_NR_DIRS; d++) {
		ios += st->dir[d].all_ios;
		bytes += st->dir[d].all_bytes;
	}
	dt = p->t_ns ? (double)(t->now - p->t_ns) / 1e9 : (double)st->elapsed_ns / 1e9;
	if (dt > 0) {
		r->iops = (double)(ios - p->ios) / dt;
		r->mbs = (double)(bytes - p->bytes) / dt / 1e6;
	}
	for (d = 0; d < 2; d++) {
		text = read_dbg(st, hf[d]);
		if (text && kb_hist_parse(text, d, &h[d], err, sizeof(err)))
			memset(&h[d], 0, sizeof(h[d]));
		free(text);
	}
	r->has_pct = interval_pcts(h, p->h, r->pct);
	locality_counts(st, &ln, &ll);
	r->has_loc = ln > p->loc_n;
	if (r->has_loc)
		r->local_pct = 100.0 * (double)(ll - p->loc_local) / (double)(ln - p->loc_n);
	r->has_inflight = job_inflight(st, &r->inflight);
	if (st->cfg.present)
		r->depth = kb_kcfg_u64(&st->cfg, KIOBENCH_A_IODEPTH) * st->nr_workers;
	for (d = 0; d < 2; d++) {
		kb_hist_free(&p->h[d]);
		p->h[d] = h[d];
	}
	p->t_ns = t->now;
	p->ios = ios;
	p->bytes = bytes;
	p->loc_n = ln;
	p->loc_local = ll;
	p->live = true;
}

static int one_job(const struct kb_status *st, void *arg)
{
	struct top *t = arg;
	struct prev *p = find_prev(t, st->id);
	struct row *rows = realloc(t->rows, (t->nr_rows + 1) * sizeof(*rows));

	if (!p || !rows)
		return -1;
	t->rows = rows;
	make_row(t, st, p, &t->rows[t->nr_rows++]);
	return 0;
}

/* The jobs now; the state of those gone is dropped. */
static int update(struct top *t, struct kb_nl *nl)
{
	struct kb_nlerr e;
	size_t i, k = 0;

	t->nr_rows = 0;
	t->now = now_ns();
	for (i = 0; i < t->nr_p; i++)
		t->p[i].live = false;
	if (kb_nl_job_dump(nl, one_job, t, &e))
		return nl_fail("JOB_GET", &e);
	for (i = 0; i < t->nr_p; i++) {
		if (t->p[i].live) {
			t->p[k++] = t->p[i];
			continue;
		}
		kb_hist_free(&t->p[i].h[0]);
		kb_hist_free(&t->p[i].h[1]);
	}
	t->nr_p = k;
	return 0;
}

static void format_row(const struct row *r, char *buf, size_t len)
{
	char pct[64] = "         -          -          -", loc[16] = "     -", inf[24] = "-";

	if (r->has_pct)
		snprintf(pct, sizeof(pct), "%10.1f %10.1f %10.1f", r->pct[0] / 1e3, r->pct[1] / 1e3,
			 r->pct[2] / 1e3);
	if (r->has_loc)
		snprintf(loc, sizeof(loc), "%5.1f%%", r->local_pct);
	if (r->has_inflight)
		snprintf(inf, sizeof(inf), "%" PRIu64, r->inflight);
	snprintf(buf, len, "%5u %-16.16s %-8s %10.0f %8.1f %s %6s/%-6" PRIu64 " %s",
		 r->id, r->name, r->state, r->iops, r->mbs, pct, inf, r->depth, loc);
}

static const char header[] =
	"   ID NAME             STATE          IOPS     MB/s    p50(us)    p99(us)  p99.9(us)"
	"  inflight/depth  local";

static void print_batch(const struct top *t, uint64_t t0)
{
	size_t i;

	printf("top t=%.2f jobs=%zu\n", (double)(t->now - t0) / 1e9, t->nr_rows);
	for (i = 0; i < t->nr_rows; i++) {
		const struct row *r = &t->rows[i];

		printf("job id=%u name=%s state=%s iops=%.0f mbs=%.2f", r->id, r->name, r->state,
		       r->iops, r->mbs);
		if (r->has_pct)
			printf(" p50_us=%.2f p99_us=%.2f p99.9_us=%.2f", r->pct[0] / 1e3,
			       r->pct[1] / 1e3, r->pct[2] / 1e3);
		if (r->has_inflight)
			printf(" inflight=%" PRIu64, r->inflight);
		printf(" depth=%" PRIu64, r->depth);
		if (r->has_loc)
			printf(" local_pct=%.1f", r->local_pct);
		printf("\n");
	}
	fflush(stdout);
}

/* The screen at its size now (ncurses updates COLS and LINES on SIGWINCH). */
static void draw(const struct top *t)
{
	const int w = COLS;
	char line[512];
	size_t i;

	erase();
	mvprintw(0, 0, "kiobench top: %zu job(s); q quits", t->nr_rows);
	attron(A_REVERSE);
	mvprintw(2, 0, "%-*.*s", w, w, header);
	attroff(A_REVERSE);
	for (i = 0; i < t->nr_rows && (int)i + 3 < LINES; i++) {
		format_row(&t->rows[i], line, sizeof(line));
		mvprintw((int)i + 3, 0, "%.*s", w, line);
	}
	refresh();
}

static void usage_top(FILE *f)
{
	fprintf(f, "usage: kiobench top [--batch] [--interval=TIME] [--iterations=N]\n"
		"  every job in the kernel, refreshed (q quits)\n"
		"  --batch         plain lines, one per job and refresh, for scripts\n"
		"  --interval=TIME between refreshes (1s)\n"
		"  --iterations=N  refreshes, then exit (0: until q or a signal)\n");
}

static int top_opts(int argc, char **argv, bool *batch, uint64_t *interval, uint64_t *iters)
{
	static const struct option lo[] = {
		{ "batch", no_argument, NULL, 'b' }, { "interval", required_argument, NULL, 'i' },
		{ "iterations", required_argument, NULL, 'n' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char err[KB_ERRLEN];
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		if (c == 'b') {
			*batch = true;
		} else if (c == 'i' && kb_parse_time_ns(optarg, interval, err, sizeof(err))) {
			msg("--interval: %s", err);
			return KB_EXIT_USAGE;
		} else if (c == 'n' && kb_parse_u64(optarg, iters, err, sizeof(err))) {
			msg("--iterations: %s", err);
			return KB_EXIT_USAGE;
		} else if (c == 'h' || c == '?') {
			usage_top(c == 'h' ? stdout : stderr);
			return c == 'h' ? KB_EXIT_OK : KB_EXIT_USAGE;
		}
	}
	if (optind < argc || *interval < 10000000) {
		msg(optind < argc ? "top: unexpected argument '%s'" :
		    "--interval: at least 10ms", argv[optind]);
		return KB_EXIT_USAGE;
	}
	return -1;
}

/* The refreshes until q, a signal or the count; 0 or an exit code. */
static int loop(struct top *t, struct kb_nl *nl, bool batch, uint64_t interval, uint64_t iters)
{
	uint64_t t0 = now_ns(), next = t0, n;
	int ret = 0, ch;

	for (n = 0; !ret && (!iters || n < iters) && !got_signal; n++) {
		ret = update(t, nl);
		if (ret)
			break;
		next += interval;
		if (batch) {
			print_batch(t, t0);
			if (!iters || n + 1 < iters)
				sleep_until(next);
			continue;
		}
		draw(t);
		timeout((int)(interval / 1000000));
		ch = getch();
		if (ch == 'q' || ch == 'Q')
			break;
		/* KEY_RESIZE: ncurses has the new size; the next draw uses it */
	}
	return ret;
}

int cmd_top(int argc, char **argv)
{
	uint64_t interval = 1000000000, iters = 0;
	struct top t = { 0 };
	bool batch = false;
	struct kb_nlerr e;
	struct kb_nl nl;
	size_t i;
	int ret = top_opts(argc, argv, &batch, &interval, &iters);

	if (ret >= 0)
		return ret;
	if (kb_nl_open(&nl, false, &e))
		return nl_fail("netlink", &e);
	install_signals();
	if (!batch) {
		initscr();
		cbreak();
		noecho();
		keypad(stdscr, TRUE);
		curs_set(0);
	}
	ret = loop(&t, &nl, batch, interval, iters);
	if (!batch)
		endwin();
	kb_nl_close(&nl);
	for (i = 0; i < t.nr_p; i++) {
		kb_hist_free(&t.p[i].h[0]);
		kb_hist_free(&t.p[i].h[1]);
	}
	free(t.p);
	free(t.rows);
	return signal_exit(ret);
}
