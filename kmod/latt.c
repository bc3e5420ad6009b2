// SPDX-License-Identifier: GPL-2.0
/*
 * fio's latency_target, latency_window, latency_percentile and latency_run
 * (latt.h).  The search is fio's (lat_target_*() in its io_u.c), per
 * worker: it starts at depth 1; a window that holds raises the depth
 * (doubling it until a window fails, then bisecting between the highest
 * depth that held and the lowest that failed, that one creeping up after
 * three windows held just below it); a window that fails lowers it to
 * halfway to the highest that held, after the I/O in flight has drained.
 * Without latency_run the worker ends once a window leaves the depth
 * unchanged, after one more window at that depth.  fio samples each
 * completion in its reaping thread; here kb_end_io() tests every one.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "kiobench.h"

/* ---- the workers' state --------------------------------------------------- */

/* What the workers' kb_latt_alloc() will allocate; charged before. */
u64 kb_latt_mem(const struct kb_job *job)
{
	if (!job->cfg.latency_target_ns)
		return 0;
	return (u64)job->nr_workers * sizeof(struct kb_latt);
}

int kb_latt_alloc(struct kb_worker *w)
{
	struct kb_latt *lt;

	if (!w->job->cfg.latency_target_ns)
		return 0;
	lt = kvzalloc(sizeof(*lt), GFP_KERNEL);
	if (!lt)
		return -ENOMEM;
	atomic64_set(&lt->win, 0);
	lt->depth = 1;
	lt->low = 1;
	lt->high = w->job->cfg.iodepth;
	w->latt = lt;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kb_latt_alloc);

void kb_latt_free(struct kb_worker *w)
{
	kvfree(w->latt);
	w->latt = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(kb_latt_free);

/* ---- the search ---------------------------------------------------------- */

/* fio's lat_new_cycle(): a new window, what completed before forgotten. */
static void kb_latt_cycle(struct kb_latt *lt, u64 now)
{
	atomic64_set(&lt->win, 0);
	lt->win_start_ns = now;
}

/*
 * Whether the slot just reaped (or, at the start, not yet submitted) waits
 * on the idle stack instead of going out again: the search ended, the
 * worker drains before a lower depth, or the slots in use pass the depth.
 */
bool kb_latt_park(struct kb_worker *w, struct kb_slot *slot)
{
	struct kb_latt *lt = w->latt;

	if (!lt->done && !lt->draining && w->nr_slots - lt->parked <= lt->depth)
		return false;
	slot->node.next = w->idle;
	w->idle = &slot->node;
	lt->parked++;
	return true;
}

static void kb_latt_record(struct kb_worker *w, u64 now, u32 ios, u32 over,
			   bool pass)
{
	struct kb_latt *lt = w->latt;
	struct kb_latt_win *e;

	lt->windows++;
	if (lt->nr_curve >= KB_LATT_CURVE)
		return;
	e = &lt->curve[lt->nr_curve];
	e->end_ns = now - w->job->start_ns;
	e->depth = lt->depth;
	e->ios = ios;
	e->within = ios - over;
	e->pass = pass;
	/* the entry before its count: pairs with kb_latt_show()'s acquire */
	smp_store_release(&lt->nr_curve, lt->nr_curve + 1);
}

/* fio's lat_target_success(): up, doubling or bisecting; true: fill up. */
static bool kb_latt_up(struct kb_worker *w, u64 now)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct kb_latt *lt = w->latt;
	u32 depth = lt->depth;

	lt->low = depth;
	/* just below the lowest that failed: it may have been bad luck */
	if (depth + 1 == lt->high && ++lt->stable >= 3) {
		lt->high++;
		lt->stable = 0;
	}
	if (lt->high != cfg->iodepth)
		lt->depth = (depth + lt->high) / 2;
	else
		lt->depth = depth * 2;
	lt->depth = min(lt->depth, cfg->iodepth);
	if (!cfg->latency_run && lt->depth == depth) {
		if (lt->final) {
			lt->done = true;
			return false;
		}
		/* one last window at the depth found, from nothing in flight */
		lt->final = true;
		lt->draining = true;
		return false;
	}
	kb_latt_cycle(lt, now);
	return true;
}

/*
 * fio's __lat_target_failed(): halfway down to the highest depth that held,
 * once what is in flight at this depth has drained.  At depth 1 it stays;
 * false then.
 */
static bool kb_latt_down(struct kb_worker *w, u64 now)
{
	struct kb_latt *lt = w->latt;

	if (lt->depth == 1) {
		kb_latt_cycle(lt, now);
		return false;
	}
	lt->high = lt->depth;
	if (lt->depth == lt->low)
		lt->low--;
	lt->depth = (lt->depth + lt->low) / 2;
	lt->stable = 0;
	lt->draining = true;
	return true;
}

/*
 * Between submissions, after a reap: judges the window when it has run
 * its time, and at once when a single I/O over the target fails it
 * (latency-percentile 100 %, as fio does).  At depth 1 that fails the job
 * with ETIMEDOUT, as fio's lat_fatal().  True when the depth has room for
 * parked slots: the worker submits them (kb_latt_fill()).
 */
bool kb_latt_step(struct kb_worker *w, u64 now)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct kb_latt *lt = w->latt;
	u32 ios, over;
	u64 v;

	if (lt->done)
		return false;
	if (!lt->started) {
		/* fio judges no window in the ramp: depth 1 until its end */
		if (now < w->ramp_end_ns)
			return false;
		lt->started = true;
		kb_latt_cycle(lt, now);
		return false;
	}
	if (lt->draining) {
		if (w->inflight || w->deferred)
			return false;
		lt->draining = false;
		kb_latt_cycle(lt, now);
		return true;
	}
	v = atomic64_read(&lt->win);
	if (cfg->latency_percentile_ppm == KB_LATT_PPM_ALL &&
	    v >> KB_LATT_OVER_SHIFT) {
		v = atomic64_xchg(&lt->win, 0);
		ios = (u32)v;
		over = v >> KB_LATT_OVER_SHIFT;
		kb_latt_record(w, now, ios, over, false);
		if (lt->depth == 1) {
			cmpxchg(&w->job->error, 0, -ETIMEDOUT);
			WRITE_ONCE(w->job->stop, true);
			lt->done = true;
			return false;
		}
		kb_latt_down(w, now);
		return false;
	}
	/* a window ends at its first reap past its time, with completions */
	if (now - lt->win_start_ns < cfg->latency_window_ns || !(u32)v)
		return false;
	v = atomic64_xchg(&lt->win, 0);
	ios = (u32)v;
	over = v >> KB_LATT_OVER_SHIFT;
	/* fio: success = within / ios >= percentile */
	if ((u64)(ios - over) * KB_LATT_PPM_ALL >=
	    (u64)cfg->latency_percentile_ppm * ios) {
		kb_latt_record(w, now, ios, over, true);
		return kb_latt_up(w, now);
	}
	kb_latt_record(w, now, ios, over, false);
	kb_latt_down(w, now);
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(kb_latt_step);

/* ---- debugfs ------------------------------------------------------------- */

/*
 * Each worker's depth, state and the windows it judged.  While the job
 * runs, a worker's figures may be a window apart from each other.
 */
static int kb_latt_show(struct seq_file *m, void *unused)
{
	struct kb_job *job = m->private;
	const struct kb_config *cfg = &job->cfg;
	unsigned int i, k, n;

	seq_puts(m, "# kiobench-latency-target 1\n");
	seq_printf(m, "# target_ns %llu window_ns %llu percentile_ppm %u run %u\n",
		   cfg->latency_target_ns, cfg->latency_window_ns,
		   cfg->latency_percentile_ppm, cfg->latency_run);
	seq_puts(m, "# win end_ns depth ios within pass\n");
	for (i = 0; i < job->nr_workers; i++) {
		struct kb_latt *lt = job->workers[i]->latt;

		/* entries below it are written: kb_latt_record()'s release */
		n = smp_load_acquire(&lt->nr_curve);
		seq_printf(m, "worker %u depth %u windows %llu state %s\n", i,
			   READ_ONCE(lt->depth), READ_ONCE(lt->windows),
			   READ_ONCE(lt->done) ? "done" :
			   READ_ONCE(lt->final) ? "final" : "search");
		for (k = 0; k < n; k++) {
			const struct kb_latt_win *e = &lt->curve[k];

			seq_printf(m, "win %llu %u %u %u %u\n", e->end_ns,
				   e->depth, e->ios, e->within, e->pass);
		}
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kb_latt);

int kb_latt_debugfs(struct kb_job *job, struct dentry *dir)
{
	if (!job->cfg.latency_target_ns)
		return 0;
	return PTR_ERR_OR_ZERO(debugfs_create_file("latency_target", 0400, dir,
						   job, &kb_latt_fops));
}
