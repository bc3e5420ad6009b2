// SPDX-License-Identifier: GPL-2.0
/*
 * fio's ignore_error and error_dump.  fio sorts an error into a type:
 * EILSEQ is a verify error, any other of a read a read error, of anything
 * else a write error.  A type with a list (ignore_error's read, write and
 * verify lists) goes on from the errors listed and stops at any other,
 * continue_on_error or not; a type without one goes on from every error
 * with continue_on_error, as before.  An error gone on from is counted by
 * type and errno, the first kept (fio's total_err and first_error).
 * error_dump logs every failed I/O, rate limited; without it only the one
 * that stops the job.  All of it is on the error path: a failed I/O looks
 * at a list of at most 16 numbers, and nothing is locked.
 */
#include <linux/blkdev.h>
#include <net/genetlink.h>

#include "kiobench.h"

static const int kb_err_attrs[KB_ERR_TYPES] = {
	[KIOBENCH_ERR_READ] = KIOBENCH_A_IGNORE_ERROR_READ,
	[KIOBENCH_ERR_WRITE] = KIOBENCH_A_IGNORE_ERROR_WRITE,
	[KIOBENCH_ERR_VERIFY] = KIOBENCH_A_IGNORE_ERROR_VERIFY,
};

static const char *const kb_err_ops[KIOBENCH_NR_DIRS] = {
	"read", "write", "trim", "flush",
};

/* ignore-error-{read,write,verify}: arrays of u32 errnos, 1 to 133. */
int kb_parse_errors(struct genl_info *info, struct kb_config *cfg)
{
	struct nlattr **tb = info->attrs;
	unsigned int t, i, n;
	const u32 *e;

	for (t = 0; t < KB_ERR_TYPES; t++) {
		struct nlattr *a = tb[kb_err_attrs[t]];

		if (!a)
			continue;
		n = nla_len(a) / sizeof(u32);
		if (!n || nla_len(a) % sizeof(u32) || n > KB_MAX_IGNORE_ERROR) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "ignore-error: 1 to 16 u32 errnos");
			return -EINVAL;
		}
		if (cfg->zonemode) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "ignore-error: not with zonemode: a failed write leaves its zone's write pointer unknown");
			return -EOPNOTSUPP;
		}
		e = nla_data(a);
		for (i = 0; i < n; i++) {
			if (!e[i] || e[i] >= KB_ERRNO_MAX) {
				NL_SET_ERR_MSG_ATTR(info->extack, a,
						    "ignore-error: errnos 1 to 133");
				return -EINVAL;
			}
			cfg->ignore_error[t][i] = e[i];
		}
		cfg->nr_ignore_error[t] = n;
	}
	return 0;
}

/* An error the job goes on from (@err positive): counted. */
static void kb_err_count(struct kb_job *job, unsigned int type, int err)
{
	atomic64_inc(&job->errs.count[type][err < KB_ERRNO_MAX ? err : 0]);
	cmpxchg(&job->errs.first, 0, -err);
}

/* Whether @err (positive) is in the list of @type; counted if so. */
bool kb_err_listed(struct kb_job *job, unsigned int type, int err)
{
	const struct kb_config *cfg = &job->cfg;
	unsigned int i;

	for (i = 0; i < cfg->nr_ignore_error[type]; i++)
		if (cfg->ignore_error[type][i] == err) {
			kb_err_count(job, type, err);
			return true;
		}
	return false;
}

/*
 * A failed I/O (@err: -errno): whether the job goes on from it; logged
 * with error_dump, or when it stops the job.
 */
bool kb_err_go_on(struct kb_worker *w, struct kb_slot *slot, int err)
{
	struct kb_job *job = w->job;
	unsigned int type = -err == EILSEQ ? KIOBENCH_ERR_VERIFY :
			    slot->dir == KIOBENCH_DIR_READ ? KIOBENCH_ERR_READ :
			    KIOBENCH_ERR_WRITE;
	bool go_on;

	if (job->cfg.nr_ignore_error[type]) {
		go_on = kb_err_listed(job, type, -err);
	} else {
		go_on = job->cfg.continue_on_error;
		if (go_on)
			kb_err_count(job, type, -err);
	}
	if (!go_on || job->cfg.error_dump)
		pr_info_ratelimited("kiobench: job %u: %pg: %s error %d at %llu, %u bytes%s\n",
				    job->id, w->dev->bdev.bdev,
				    kb_err_ops[slot->dir], err, slot->off,
				    slot->len, go_on ? ", gone on from" : "");
	return go_on;
}

/*
 * The failed I/O that stopped the job, by the worker whose error did
 * (the one that set job->error: written once); job-error-at.
 */
void kb_err_stopped_at(struct kb_worker *w, const struct kb_slot *slot, int err)
{
	struct kb_errs *e = &w->job->errs;

	e->at = (struct kiobench_err_at){
		.offset = slot->off, .length = slot->len,
		.device = w->dev - w->job->devs, .dir = slot->dir, .err = -err };
	/* pairs with kb_put_errors()'s acquire */
	smp_store_release(&e->at_set, true);
}

/* @t's list into @e; its length in bytes. */
static int kb_err_list(const struct kb_config *cfg, unsigned int t, u32 *e)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_ignore_error[t]; i++)
		e[i] = cfg->ignore_error[t][i];
	return i * sizeof(*e);
}

/* The lists the job was given (settings, not for every listener). */
static int kb_put_err_lists(struct sk_buff *msg, const struct kb_config *cfg)
{
	u32 e[KB_MAX_IGNORE_ERROR];

	if ((cfg->nr_ignore_error[KIOBENCH_ERR_READ] &&
	     nla_put(msg, KIOBENCH_A_IGNORE_ERROR_READ,
		     kb_err_list(cfg, KIOBENCH_ERR_READ, e), e)) ||
	    (cfg->nr_ignore_error[KIOBENCH_ERR_WRITE] &&
	     nla_put(msg, KIOBENCH_A_IGNORE_ERROR_WRITE,
		     kb_err_list(cfg, KIOBENCH_ERR_WRITE, e), e)) ||
	    (cfg->nr_ignore_error[KIOBENCH_ERR_VERIFY] &&
	     nla_put(msg, KIOBENCH_A_IGNORE_ERROR_VERIFY,
		     kb_err_list(cfg, KIOBENCH_ERR_VERIFY, e), e)))
		return -EMSGSIZE;
	return 0;
}

/*
 * The lists the job was given (@settings), and what it went on from (the
 * first 32).
 */
int kb_put_errors(struct sk_buff *msg, struct kb_job *job, bool settings)
{
	struct kiobench_err_count ec[KB_MAX_ERR_COUNTS];
	unsigned int t, i, n = 0;
	u64 c;

	if (settings && kb_put_err_lists(msg, &job->cfg))
		return -EMSGSIZE;
	for (t = 0; t < KB_ERR_TYPES; t++)
		for (i = 0; i < KB_ERRNO_MAX && n < KB_MAX_ERR_COUNTS; i++) {
			c = atomic64_read(&job->errs.count[t][i]);
			if (c)
				ec[n++] = (struct kiobench_err_count){
					.type = t, .err = i, .count = c };
		}
	if (nla_put_s32(msg, KIOBENCH_A_JOB_FIRST_ERROR, READ_ONCE(job->errs.first)) ||
	    nla_put(msg, KIOBENCH_A_JOB_ERR_COUNTS, n * sizeof(*ec), ec))
		return -EMSGSIZE;
	/* pairs with kb_err_stopped_at()'s release: the fields written first */
	if (smp_load_acquire(&job->errs.at_set) &&
	    nla_put(msg, KIOBENCH_A_JOB_ERROR_AT, sizeof(job->errs.at), &job->errs.at))
		return -EMSGSIZE;
	return 0;
}

/* Room for the lists and for every count. */
size_t kb_errors_size(void)
{
	return KB_ERR_TYPES * nla_total_size(KB_MAX_IGNORE_ERROR * sizeof(u32)) +
	       nla_total_size(sizeof(s32)) +
	       nla_total_size(KB_MAX_ERR_COUNTS * sizeof(struct kiobench_err_count)) +
	       nla_total_size(sizeof(struct kiobench_err_at));
}
