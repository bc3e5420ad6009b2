/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's flow control (flow.c): jobs that share a flow-id keep their I/O in
 * the ratio of their weights.  Each worker counts its I/O in its group
 * with one atomic add, and holds back while its share of the group's I/O
 * is above its share of the group's weight; the group is looked up once,
 * at the job's creation.
 */
#ifndef KB_FLOW_H
#define KB_FLOW_H

#include <linux/types.h>

struct genl_info;
struct kb_config;
struct kb_job;
struct kb_worker;
struct kb_slot;

int kb_flow_parse(struct genl_info *info, const struct kb_config *cfg);
int kb_flow_join(struct kb_job *job);
void kb_flow_leave(struct kb_worker *w);
void kb_flow_put(struct kb_job *job);
bool kb_flow_held(struct kb_worker *w);
bool kb_flow_park(struct kb_worker *w, struct kb_slot *slot);

#endif
