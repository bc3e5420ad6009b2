// SPDX-License-Identifier: GPL-2.0
/*
 * fio's latency_target: what the kernel's workers found (kmod/latt.c's
 * debugfs latency_target), for the reports.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "latt.h"
#include "values.h"

void kb_latt_free(struct kb_latt *lt)
{
	unsigned int i;

	for (i = 0; lt->w && i < lt->nr_workers; i++)
		free(lt->w[i].win);
	free(lt->w);
	memset(lt, 0, sizeof(*lt));
}

static int add_worker(struct kb_latt *lt, const char *line, char *err, size_t errlen)
{
	struct kb_latt_worker *w, *nw;
	unsigned int idx;
	unsigned long long windows;
	unsigned int depth;
	char state[8];

	if (sscanf(line, "worker %u depth %u windows %llu state %7s", &idx, &depth,
		   &windows, state) != 4 || idx != lt->nr_workers)
		return kb_errf(err, errlen, "bad line '%s'", line);
	nw = realloc(lt->w, (lt->nr_workers + 1) * sizeof(*lt->w));
	if (!nw)
		return kb_errf(err, errlen, "out of memory");
	lt->w = nw;
	w = &lt->w[lt->nr_workers++];
	memset(w, 0, sizeof(*w));
	w->depth = depth;
	w->windows = windows;
	snprintf(w->state, sizeof(w->state), "%s", state);
	return 0;
}

static int add_win(struct kb_latt *lt, const char *line, char *err, size_t errlen)
{
	struct kb_latt_worker *w;
	struct kb_latt_win e, *nw;
	unsigned long long end;
	unsigned int pass;

	if (!lt->nr_workers ||
	    sscanf(line, "win %llu %u %u %u %u", &end, &e.depth, &e.ios, &e.within,
		   &pass) != 5 || e.within > e.ios)
		return kb_errf(err, errlen, "bad line '%s'", line);
	e.end_ns = end;
	e.pass = pass;
	w = &lt->w[lt->nr_workers - 1];
	nw = realloc(w->win, (w->nr + 1) * sizeof(*w->win));
	if (!nw)
		return kb_errf(err, errlen, "out of memory");
	w->win = nw;
	w->win[w->nr++] = e;
	return 0;
}

int kb_latt_parse(const char *text, struct kb_latt *lt, char *err, size_t errlen)
{
	char *copy = strdup(text), *line, *save = NULL;
	unsigned long long t, win;
	unsigned int ppm, run;
	int rc = 0;

	memset(lt, 0, sizeof(*lt));
	if (!copy)
		return kb_errf(err, errlen, "out of memory");
	if (strncmp(copy, "# kiobench-latency-target 1\n", 28)) {
		free(copy);
		return kb_errf(err, errlen, "not a kiobench-latency-target 1 file");
	}
	for (line = strtok_r(copy, "\n", &save); line && !rc;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "# target_ns %llu window_ns %llu percentile_ppm %u run %u",
			   &t, &win, &ppm, &run) == 4) {
			lt->target_ns = t;
			lt->window_ns = win;
			lt->percentile_ppm = ppm;
			lt->run = run;
		} else if (line[0] == '#') {
			continue;
		} else if (!strncmp(line, "worker ", 7)) {
			rc = add_worker(lt, line, err, errlen);
		} else if (!strncmp(line, "win ", 4)) {
			rc = add_win(lt, line, err, errlen);
		} else {
			rc = kb_errf(err, errlen, "bad line '%s'", line);
		}
	}
	free(copy);
	if (rc) {
		kb_latt_free(lt);
		return -1;
	}
	lt->present = true;
	return 0;
}

uint32_t kb_latt_depth(const struct kb_latt *lt)
{
	uint32_t d = 0;
	unsigned int i;

	for (i = 0; i < lt->nr_workers; i++)
		if (!d || lt->w[i].depth < d)
			d = lt->w[i].depth;
	return d;
}

/* "latency target: ..." then each worker's depth and the curve it walked. */
void kb_print_latt(FILE *f, const struct kb_latt *lt)
{
	unsigned int i, k;

	if (!lt->present)
		return;
	/* fio's line: the target in ns, the window in us */
	fprintf(f, "  latency      : target=%" PRIu64 ", window=%" PRIu64 ", percentile=%.2f%%, "
		"depth=%u%s\n", lt->target_ns, lt->window_ns / 1000, lt->percentile_ppm / 1e4,
		kb_latt_depth(lt), lt->run ? " (latency_run)" : "");
	for (i = 0; i < lt->nr_workers; i++) {
		const struct kb_latt_worker *w = &lt->w[i];

		fprintf(f, "    worker %u: depth %u (%s), %" PRIu64 " windows:", i, w->depth,
			w->state, w->windows);
		for (k = 0; k < w->nr; k++) {
			const struct kb_latt_win *e = &w->win[k];

			fprintf(f, "%s %u:%s%.1f%%", k % 8 ? "" : "\n     ", e->depth,
				e->pass ? "ok" : "FAIL",
				e->ios ? 100.0 * e->within / e->ios : 0.0);
		}
		if (w->nr < w->windows)
			fprintf(f, "\n      (the first %u shown)", w->nr);
		fputc('\n', f);
	}
}

/* kiobench.latency_target: the settings, and each worker's curve. */
struct json_object *kb_latt_json(const struct kb_latt *lt)
{
	struct json_object *o, *ws, *wo, *c, *e;
	unsigned int i, k;

	if (!lt->present)
		return NULL;
	o = json_object_new_object();
	kb_jadd(o, "target_ns", kb_ju64(lt->target_ns));
	kb_jadd(o, "window_ns", kb_ju64(lt->window_ns));
	kb_jadd(o, "percentile", kb_jdbl(lt->percentile_ppm / 1e4));
	kb_jadd(o, "run", json_object_new_boolean(lt->run));
	kb_jadd(o, "depth", kb_ju64(kb_latt_depth(lt)));
	ws = json_object_new_array();
	for (i = 0; i < lt->nr_workers; i++) {
		const struct kb_latt_worker *w = &lt->w[i];

		wo = json_object_new_object();
		kb_jadd(wo, "depth", kb_ju64(w->depth));
		kb_jadd(wo, "state", kb_jstr(w->state));
		kb_jadd(wo, "windows", kb_ju64(w->windows));
		c = json_object_new_array();
		for (k = 0; k < w->nr; k++) {
			e = json_object_new_object();
			kb_jadd(e, "end_ns", kb_ju64(w->win[k].end_ns));
			kb_jadd(e, "depth", kb_ju64(w->win[k].depth));
			kb_jadd(e, "ios", kb_ju64(w->win[k].ios));
			kb_jadd(e, "within", kb_ju64(w->win[k].within));
			kb_jadd(e, "pass", json_object_new_boolean(w->win[k].pass));
			json_object_array_add(c, e);
		}
		kb_jadd(wo, "curve", c);
		json_object_array_add(ws, wo);
	}
	kb_jadd(o, "workers", ws);
	return o;
}
