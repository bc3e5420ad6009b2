// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoint probes of the per-stage latency split (stages.h).
 *
 * block_rq_issue, block_rq_complete and nvme_sq are not exported to
 * modules: the first two are found by name among the kernel's built-in
 * tracepoints (for_each_kernel_tracepoint()); nvme_sq lives in nvme-core,
 * built in on some kernels and a module on Debian's, so it is looked for
 * among the built-in ones and through the tracepoint module notifier,
 * which replays the modules already loaded and says when nvme-core comes
 * and goes.
 *
 * Attached only while a job with stages runs: the first such job's start
 * attaches, the end of the last one detaches.  While attached, every
 * request of every device passes through the probes, which look at each
 * of its bios (one, unless merged): a bio that is not kiobench's costs a
 * comparison, one of a job without stages two loads more.
 *
 * Up to 6.x tracepoints call their probes with preemption off; from 7.x
 * (srcu-fast) they may be preempted.  Either way a probe only stamps the
 * slot of an I/O in flight (alive until its kb_end_io()), whose stamps
 * nobody else writes at that moment, and bumps a per-CPU counter with
 * this_cpu_inc(), which is safe preemptible or not.  The probes' code may
 * run a little after they are detached: module exit waits for that
 * (tracepoint_synchronize_unregister()).
 *
 * Ordering of the stamps across CPUs: the issue stamp is stored before the
 * driver hands the request to the device, and the completion side runs
 * after the device answered it, the same chain by which the block layer
 * reads its own request fields (io_start_time_ns) at completion.
 */
#include <linux/blk-mq.h>
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>

#include "kiobench.h"

enum kb_tp_id {
	KB_TP_ISSUE,
	KB_TP_COMPLETE,
	KB_TP_NVME_SQ,
	KB_NR_TPS
};

struct kb_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;	/* found and attached; NULL: not */
	struct module *mod;	/* the module that holds it; NULL: built in */
};

/* Stamps made by each tracepoint, since the module was loaded. */
struct kb_tp_stamps {
	u64 n[KB_NR_TPS];
};

static DEFINE_PER_CPU(struct kb_tp_stamps, kb_tp_stamps);

/*
 * kb_stages_mutex serialises attaching and detaching, and guards
 * kb_stages_users and the built-in entries of kb_tps.  The module entry of
 * nvme_sq is written by the notifier only, under the tracepoint module
 * list's mutex, while the notifier is registered (it is registered last
 * when attaching and unregistered first when detaching).  ORDER:
 * kb_stages_mutex, then the tracepoint module list's mutex.
 */
static DEFINE_MUTEX(kb_stages_mutex);
static unsigned int kb_stages_users;
static bool kb_stages_used;	/* ever attached: module exit must wait */
static bio_end_io_t *kb_stages_end_io;	/* kiobench's bios end there */

/* ---- probes -------------------------------------------------------------- */

/* @bio's slot if it is a kiobench I/O of a stages job. */
static inline struct kb_slot *kb_stage_slot(struct bio *bio)
{
	struct kb_slot *slot;

	if (bio->bi_end_io != kb_stages_end_io)
		return NULL;
	slot = container_of(bio, struct kb_slot, bio);
	return slot->w->job->cfg.stages ? slot : NULL;
}

/*
 * Every kiobench bio of the request, alone or merged with others, gets the
 * request's issue: one clock read per request.  A bio whose size is not
 * its I/O's at its first issue is the rest of a split one, whose first
 * part went in another request (bio_split_to_limits() sends down a clone
 * of the front and the original with what is left): it has no stages.
 * Issued again after a requeue, a bio is stamped again, and a driver
 * completion of the failed dispatch forgotten: the queue stage holds the
 * failed dispatch, the device stage the one that worked.
 */
static void kb_probe_issue(void *data, struct request *rq)
{
	struct kb_slot *slot;
	struct bio *bio;
	u64 now = 0;

	__rq_for_each_bio(bio, rq) {
		slot = kb_stage_slot(bio);
		if (!slot)
			continue;
		if (!(slot->stage_flags & KB_SF_ISSUE) &&
		    bio->bi_iter.bi_size != slot->len)
			slot->stage_flags |= KB_SF_SPLIT;
		if (!now)
			now = ktime_get_ns();
		slot->issue_ns = now;
		slot->stage_flags &= ~(KB_SF_DRV | KB_SF_NVME);
		slot->stage_flags |= KB_SF_ISSUE;
		this_cpu_inc(kb_tp_stamps.n[KB_TP_ISSUE]);
	}
}

/*
 * The driver completed @nr_bytes of @rq from its start: the bios those
 * bytes cover whole end now (blk_update_request() ends them after this
 * tracepoint), and get the driver's completion; a bio only partly
 * covered gets it when its last part completes.  A bio already stamped
 * (by nvme_sq, or earlier) keeps its stamp.
 */
static void kb_stamp_drv(struct request *rq, unsigned int nr_bytes,
			 enum kb_tp_id id)
{
	struct kb_slot *slot;
	struct bio *bio;
	u64 now = 0;

	__rq_for_each_bio(bio, rq) {
		if (bio->bi_iter.bi_size > nr_bytes)
			break;
		nr_bytes -= bio->bi_iter.bi_size;
		slot = kb_stage_slot(bio);
		if (!slot || (slot->stage_flags & (KB_SF_ISSUE | KB_SF_DRV)) !=
			     KB_SF_ISSUE)
			continue;
		if (!now)
			now = ktime_get_ns();
		slot->drv_ns = now;
		slot->stage_flags |= KB_SF_DRV |
				     (id == KB_TP_NVME_SQ ? KB_SF_NVME : 0);
		this_cpu_inc(kb_tp_stamps.n[id]);
	}
}

/* NVMe PCI: the completion queue entry of the whole request is reaped. */
static void kb_probe_nvme_sq(void *data, struct request *req, __le16 sq_head,
			     int sq_tail)
{
	kb_stamp_drv(req, blk_rq_bytes(req), KB_TP_NVME_SQ);
}

/* Every request-based driver; after nvme_sq it changes nothing. */
static void kb_probe_complete(void *data, struct request *rq,
			      blk_status_t error, unsigned int nr_bytes)
{
	kb_stamp_drv(rq, nr_bytes, KB_TP_COMPLETE);
}

static struct kb_tp kb_tps[KB_NR_TPS] = {
	[KB_TP_ISSUE] = { "block_rq_issue", kb_probe_issue },
	[KB_TP_COMPLETE] = { "block_rq_complete", kb_probe_complete },
	[KB_TP_NVME_SQ] = { "nvme_sq", kb_probe_nvme_sq },
};

/* ---- finding and attaching ----------------------------------------------- */

static void kb_tp_attach(struct kb_tp *t, struct tracepoint *tp,
			 struct module *mod)
{
	int err = tracepoint_probe_register(tp, t->probe, NULL);

	if (err) {
		pr_warn("stages: cannot attach to tracepoint %s: %d\n", t->name,
			err);
		return;
	}
	t->tp = tp;
	t->mod = mod;
}

static void kb_tp_detach(struct kb_tp *t)
{
	if (!t->tp)
		return;
	WARN_ON_ONCE(tracepoint_probe_unregister(t->tp, t->probe, NULL));
	t->tp = NULL;
	t->mod = NULL;
}

static void kb_find_builtin(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < KB_NR_TPS; i++)
		if (!kb_tps[i].tp && !strcmp(tp->name, kb_tps[i].name))
			kb_tp_attach(&kb_tps[i], tp, NULL);
}

/*
 * nvme-core coming (or already there when the notifier is registered) and
 * going (or still there when it is unregistered).  Called with the
 * tracepoint module list's mutex held.
 */
static int kb_stages_module_notify(struct notifier_block *nb,
				   unsigned long val, void *data)
{
	struct kb_tp *t = &kb_tps[KB_TP_NVME_SQ];
	struct module *mod = ((struct tp_module *)data)->mod;
	unsigned int i;

	if (val == MODULE_STATE_GOING) {
		if (t->tp && t->mod == mod)
			kb_tp_detach(t);
		return NOTIFY_OK;
	}
	if (val != MODULE_STATE_COMING || t->tp)
		return NOTIFY_OK;
	for (i = 0; i < mod->num_tracepoints && !t->tp; i++) {
		struct tracepoint *tp = tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);

		if (!strcmp(tp->name, t->name))
			kb_tp_attach(t, tp, mod);
	}
	return NOTIFY_OK;
}

static struct notifier_block kb_stages_nb = {
	.notifier_call = kb_stages_module_notify,
};

static void kb_tp_detach_all(void)
{
	unsigned int i;

	for (i = 0; i < KB_NR_TPS; i++)
		kb_tp_detach(&kb_tps[i]);
}

/* ORDER: the notifier first, so that it no longer changes kb_tps. */
static void kb_stages_detach(void)
{
	lockdep_assert_held(&kb_stages_mutex);
	unregister_tracepoint_module_notifier(&kb_stages_nb);
	kb_tp_detach_all();
}

static int kb_stages_attach(struct netlink_ext_ack *extack)
{
	lockdep_assert_held(&kb_stages_mutex);
	kb_stages_used = true;
	for_each_kernel_tracepoint(kb_find_builtin, NULL);
	if (!kb_tps[KB_TP_ISSUE].tp || !kb_tps[KB_TP_COMPLETE].tp) {
		NL_SET_ERR_MSG(extack,
			       "stages: tracepoints block_rq_issue and block_rq_complete cannot be attached");
		goto out_detach;
	}
	/* ORDER: last; it attaches nvme_sq of the modules already loaded */
	if (register_tracepoint_module_notifier(&kb_stages_nb)) {
		NL_SET_ERR_MSG(extack,
			       "stages: cannot watch modules for tracepoint nvme_sq");
		goto out_detach;
	}
	return 0;

out_detach:
	kb_tp_detach_all();
	return -EOPNOTSUPP;
}

/**
 * kb_stages_get() - attach the probes for one more job with stages
 * @end_io: the bi_end_io of kiobench's bios (kb_end_io()), by which the
 *	probes know them; the same for every job
 * @extack: where to say why they cannot be
 *
 * Sleeps.  Each success is undone by exactly one kb_stages_put().
 *
 * Return: 0, or -EOPNOTSUPP when the block layer's tracepoints cannot be
 * attached.
 */
int kb_stages_get(bio_end_io_t *end_io, struct netlink_ext_ack *extack)
{
	int err = 0;

	mutex_lock(&kb_stages_mutex);
	/* before the probes see it: attaching them orders the store */
	WRITE_ONCE(kb_stages_end_io, end_io);
	if (!kb_stages_users)
		err = kb_stages_attach(extack);
	if (!err)
		kb_stages_users++;
	mutex_unlock(&kb_stages_mutex);
	return err;
}

/* The end of a job with stages; the last one detaches the probes. */
void kb_stages_put(void)
{
	mutex_lock(&kb_stages_mutex);
	if (!WARN_ON_ONCE(!kb_stages_users) && !--kb_stages_users)
		kb_stages_detach();
	mutex_unlock(&kb_stages_mutex);
}

/* ---- debugfs and exit ---------------------------------------------------- */

static int kb_stages_show(struct seq_file *m, void *unused)
{
	unsigned int i, cpu;

	mutex_lock(&kb_stages_mutex);
	seq_puts(m, "# kiobench-stages 1\n");
	seq_printf(m, "# jobs %u\n", kb_stages_users);
	seq_puts(m, "# columns tracepoint attached stamps\n");
	for (i = 0; i < KB_NR_TPS; i++) {
		u64 n = 0;

		for_each_possible_cpu(cpu)
			n += per_cpu(kb_tp_stamps, cpu).n[i];
		seq_printf(m, "%s %s %llu\n", kb_tps[i].name,
			   !READ_ONCE(kb_tps[i].tp) ? "no" :
			   READ_ONCE(kb_tps[i].mod) ? "module" : "builtin", n);
	}
	mutex_unlock(&kb_stages_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kb_stages);

/* /sys/kernel/debug/kiobench/stages: what is attached, what it stamped. */
void kb_stages_debugfs(struct dentry *root)
{
	debugfs_create_file("stages", 0400, root, NULL, &kb_stages_fops);
}

/* Module exit, every job gone: no probe may still be running our code. */
void kb_stages_exit(void)
{
	WARN_ON_ONCE(kb_stages_users);
	if (kb_stages_used)
		tracepoint_synchronize_unregister();
}
