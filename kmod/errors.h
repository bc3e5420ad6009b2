/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's ignore_error and error_dump (errors.c): which failed I/Os a job
 * goes on from, counted by type and errno, and which are logged.
 */
#ifndef KB_ERRORS_H
#define KB_ERRORS_H

#include <linux/atomic.h>
#include <linux/types.h>
#include <uapi/linux/kiobench.h>

#define KB_ERR_TYPES		(KIOBENCH_ERR_VERIFY + 1)
#define KB_MAX_IGNORE_ERROR	16
#define KB_ERRNO_MAX		134	/* EHWPOISON + 1; 0 counts the others */
#define KB_MAX_ERR_COUNTS	32	/* (type, errno) pairs a status holds */

struct genl_info;
struct sk_buff;
struct kb_config;
struct kb_job;
struct kb_worker;
struct kb_slot;

/* The errors a job went on from; only the error path touches them. */
struct kb_errs {
	int first;		/* -errno of the first; 0: none */
	atomic64_t count[KB_ERR_TYPES][KB_ERRNO_MAX];
	/* the failed I/O that stopped the job, once at_set (release) */
	struct kiobench_err_at at;
	bool at_set;
};

int kb_parse_errors(struct genl_info *info, struct kb_config *cfg);
int kb_put_errors(struct sk_buff *msg, struct kb_job *job, bool settings);
size_t kb_errors_size(void);
bool kb_err_go_on(struct kb_worker *w, struct kb_slot *slot, int err);
void kb_err_stopped_at(struct kb_worker *w, const struct kb_slot *slot, int err);
bool kb_err_listed(struct kb_job *job, unsigned int type, int err);

#endif /* KB_ERRORS_H */
