/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's read_iolog (replay.c): a job replays a log of I/Os, uploaded
 * entry by entry after JOB_NEW (JOB_REPLAY) and read by every worker with
 * a cursor of its own; with replay-timed each goes out at its time.
 */
#ifndef KB_REPLAY_H
#define KB_REPLAY_H

#include <linux/types.h>

struct genl_info;
struct kb_config;
struct kb_job;
struct kb_worker;
struct kb_slot;
struct nlattr;
struct netlink_ext_ack;

/* The most entries a job's log may have (the spec's replay-nr max). */
#define KB_REPLAY_MAX	1048576U

int kb_replay_parse(struct genl_info *info, const struct kb_config *cfg);
u64 kb_replay_mem(const struct kb_job *job);
int kb_replay_alloc(struct kb_job *job);
void kb_replay_free(struct kb_job *job);
int kb_replay_append(struct kb_job *job, const struct nlattr *a,
		     struct netlink_ext_ack *extack);
int kb_replay_ready(const struct kb_job *job, struct netlink_ext_ack *extack);
void kb_replay_pick(struct kb_worker *w, struct kb_slot *slot);
void kb_replay_issued(struct kb_worker *w);
void kb_replay_sched(struct kb_worker *w);

#endif
