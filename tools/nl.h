/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic netlink client of the kiobench family (nl.c, libnl-genl-3).
 */
#ifndef KIOBENCH_NL_H
#define KIOBENCH_NL_H

#include "result.h"

struct nl_msg;
struct nl_sock;

struct kb_nl {
	struct nl_sock *sk;	/* requests and replies */
	struct nl_sock *ev;	/* "events" multicast group, or NULL */
	int family;
};

/* A failed request: -errno and the kernel's extack message, if any. */
struct kb_nlerr {
	int err;
	bool no_family;		/* the kiobench family is not registered */
	char msg[KB_ERRLEN];
};

struct kb_features {
	bool present[KIOBENCH_A_MAX + 1];	/* the attributes the module sent */
	uint32_t version, jobs, devices, workers, iodepth, bs, bssplit;
	uint32_t hist_bits, hist_buckets, lat_log, rate_iops, socket_jobs;
	uint64_t job_mem, total_mem, detached_ns;
};

int kb_nl_open(struct kb_nl *nl, bool events, struct kb_nlerr *e);
void kb_nl_close(struct kb_nl *nl);
int kb_nl_features(struct kb_nl *nl, struct kb_features *f, struct kb_nlerr *e);
/*
 * The request attributes that code puts, not an option's .attr (tool_test
 * checks that every request attribute of the spec is one or the other).
 */
struct kb_nl_by_code {
	unsigned int attr;	/* enum kiobench_attr */
	const char *label;	/* the options that set it, for messages */
	const char *why;	/* the rule that is not "put when given" */
};
extern const struct kb_nl_by_code kb_nl_by_code[];
extern const unsigned int kb_nl_nr_by_code;

/* The JOB_NEW request of job into *msg: 0, -ENOMEM or -EMSGSIZE. */
int kb_nl_job_msg(int family, const struct kb_job *job, bool detach, struct nl_msg **msg);
/* A JOB_GET reply or JOB_NTF into st: 0 or -EINVAL. */
int kb_nl_parse_status(struct nl_msg *msg, struct kb_status *st);
int kb_nl_job_new(struct kb_nl *nl, const struct kb_job *job, bool detach, uint32_t *id,
		  char *dir, size_t dirlen, struct kb_nlerr *e);
/* JOB_START, JOB_STOP, JOB_DEL */
int kb_nl_job_cmd(struct kb_nl *nl, int cmd, uint32_t id, struct kb_nlerr *e);
int kb_nl_job_get(struct kb_nl *nl, uint32_t id, struct kb_status *st,
		  struct kb_nlerr *e);
int kb_nl_job_dump(struct kb_nl *nl, int (*cb)(const struct kb_status *st, void *arg),
		   void *arg, struct kb_nlerr *e);
int kb_nl_event_fd(const struct kb_nl *nl);
/* Read every pending JOB_NTF; cb(id, state, error).  -errno on failure. */
int kb_nl_events(struct kb_nl *nl, void (*cb)(uint32_t id, int state, int32_t error,
					       void *arg), void *arg, struct kb_nlerr *e);

#endif /* KIOBENCH_NL_H */
