// SPDX-License-Identifier: GPL-2.0
/*
 * fio's flow, flow_id and flow_sleep (flow.h), with fio's rule (its
 * flow.c): a group of the jobs with one flow-id keeps a count of their
 * I/O, starting at 1, and the sum of their weights; before each I/O a
 * worker compares its own count over the group's with its weight over the
 * group's, and while the first is the larger it issues nothing.  fio
 * counts per job (a thread, with all its files); here per worker, each
 * worker weighing the job's flow, so a job has one device (kb_flow_parse).
 * A job's weight counts from its creation, as fio's from its setup, and a
 * worker's weight and I/O leave the group when it ends, as fio's job's
 * when it exits.
 */
#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <kunit/visibility.h>

#include "kiobench.h"

struct kb_flow {
	struct list_head node;		/* in kb_flows */
	u32 id;
	unsigned int refs;		/* jobs in it; under kb_flows_lock */
	atomic64_t ios;			/* fio's flow_counter, from 1 */
	atomic64_t weight;		/* fio's total_weight */
};

static LIST_HEAD(kb_flows);
static DEFINE_MUTEX(kb_flows_lock);

/* What flow control cannot be combined with, checked at JOB_NEW. */
int kb_flow_parse(struct genl_info *info, const struct kb_config *cfg)
{
	struct nlattr *a = info->attrs[KIOBENCH_A_FLOW];

	if (!cfg->flow)
		return 0;
	if (cfg->nr_devs > 1) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "flow: one device per job (fio weighs all of a job's files as one)");
		return -EINVAL;
	}
	if (cfg->rate_iops || cfg->thinktime_ns || cfg->latency_target_ns) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "flow: not with rate-iops, thinktime-ns or latency-target-ns");
		return -EINVAL;
	}
	return 0;
}

/* The job's group, found or made, and its workers' weight in it. */
int kb_flow_join(struct kb_job *job)
{
	const struct kb_config *cfg = &job->cfg;
	struct kb_flow *f;
	unsigned int i;

	if (!cfg->flow)
		return 0;
	mutex_lock(&kb_flows_lock);
	list_for_each_entry(f, &kb_flows, node)
		if (f->id == cfg->flow_id)
			goto found;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f) {
		mutex_unlock(&kb_flows_lock);
		return -ENOMEM;
	}
	f->id = cfg->flow_id;
	atomic64_set(&f->ios, 1);
	list_add(&f->node, &kb_flows);
found:
	f->refs++;
	atomic64_add((u64)cfg->flow * job->nr_workers, &f->weight);
	mutex_unlock(&kb_flows_lock);
	job->flow = f;
	for (i = 0; i < job->nr_workers; i++) {
		job->workers[i]->flow = f;
		job->workers[i]->flow_in = true;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kb_flow_join);

/*
 * A worker's weight and I/O out of the group: when it ends, or, for one
 * that never ran, when its job goes (kb_flow_put(), its task stopped).
 */
void kb_flow_leave(struct kb_worker *w)
{
	if (!w->flow_in)
		return;
	w->flow_in = false;
	atomic64_sub(w->flow_ios, &w->flow->ios);
	atomic64_sub(w->job->cfg.flow, &w->flow->weight);
}

/* The job's part in its group, its workers stopped; the last one frees it. */
void kb_flow_put(struct kb_job *job)
{
	struct kb_flow *f = job->flow;
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < job->nr_workers; i++)
		if (job->workers[i])
			kb_flow_leave(job->workers[i]);
	mutex_lock(&kb_flows_lock);
	if (!--f->refs) {
		list_del(&f->node);
		kfree(f);
	}
	mutex_unlock(&kb_flows_lock);
	job->flow = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(kb_flow_put);

/*
 * fio's flow_threshold_exceeded(): held while own / group I/O is above
 * flow / group weight (compared as products: own I/O times a weight of at
 * most 1000 x workers x jobs stays far below 2^64); else the I/O counts.
 */
bool kb_flow_held(struct kb_worker *w)
{
	struct kb_flow *f = w->flow;
	u64 all = atomic64_read(&f->ios), weight = atomic64_read(&f->weight);

	if (w->flow_ios * weight > (u64)w->job->cfg.flow * all)
		return true;
	atomic64_inc(&f->ios);
	w->flow_ios++;
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(kb_flow_held);

/* A slot whose I/O flow holds back: on the idle stack (kb_flow_resume()). */
bool kb_flow_park(struct kb_worker *w, struct kb_slot *slot)
{
	if (!kb_flow_held(w))
		return false;
	slot->node.next = w->idle;
	w->idle = &slot->node;
	return true;
}
