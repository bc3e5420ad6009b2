/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's latency_target (latt.c): each worker searches for the highest
 * depth at which latency-percentile of its completions are within the
 * target.  kb_end_io() tests every completion against the target and
 * counts it in the worker's window, one atomic add, no lock; the worker
 * judges the window between submissions, when it has reaped, and sets
 * the depth it keeps in flight (slots beyond it wait on its idle stack).
 */
#ifndef KB_LATT_H
#define KB_LATT_H

#include <linux/atomic.h>
#include <linux/types.h>

struct dentry;
struct kb_job;
struct kb_worker;
struct kb_slot;

#define KB_LATT_CURVE		256	/* windows kept per worker, the first */
#define KB_LATT_OVER_SHIFT	32	/* kb_latt.win: over the target, high half */
#define KB_LATT_PPM_ALL		1000000U	/* latency-percentile-ppm: 100 % */

/* One window the search judged. */
struct kb_latt_win {
	u64 end_ns;		/* since the job's start */
	u32 depth;		/* the depth it ran at */
	u32 ios;		/* completions counted in it */
	u32 within;		/* of them, within the target */
	bool pass;
};

struct kb_latt {
	/*
	 * The window's completions (low half) and those over the target (high
	 * half), added by kb_end_io() on any CPU, taken by the worker in one
	 * exchange at the window's end.
	 */
	atomic64_t win;
	u32 depth;		/* fio's latency_qd: the depth kept in flight */
	u32 low, high;		/* fio's latency_qd_low and _high */
	u32 stable;		/* fio's latency_stable_count */
	u32 parked;		/* slots on the worker's idle stack */
	u64 win_start_ns;
	bool started;		/* past the ramp: the search runs */
	bool draining;		/* stepped down: nothing new until drained */
	bool final;		/* fio's latency_end_run: one last window */
	bool done;		/* the search ended: the worker submits no more */
	u64 windows;		/* judged so far; the curve keeps the first */
	u32 nr_curve;		/* written entries, published with release */
	struct kb_latt_win curve[KB_LATT_CURVE];
};

u64 kb_latt_mem(const struct kb_job *job);
int kb_latt_alloc(struct kb_worker *w);
void kb_latt_free(struct kb_worker *w);
void kb_latt_start(struct kb_worker *w);
bool kb_latt_park(struct kb_worker *w, struct kb_slot *slot);
bool kb_latt_step(struct kb_worker *w, u64 now);
int kb_latt_debugfs(struct kb_job *job, struct dentry *dir);

/* kb_end_io(): counts a completion in the worker's window. */
static inline void kb_latt_complete(struct kb_latt *lt, u64 lat, u64 target)
{
	atomic64_add(1 + (lat > target ? 1ULL << KB_LATT_OVER_SHIFT : 0),
		     &lt->win);
}

#endif /* KB_LATT_H */
