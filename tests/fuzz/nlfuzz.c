// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz: raw generic netlink client of the kiobench family, for the guest
 * robustness tests (tests/guest/test_robust.py).  No libnl, no tool code:
 * it builds every byte itself, so it can send what the tool never would.
 * Built statically by tests/vm/initramfs.py.
 *
 *   nlfuzz req [--dump] [--owned] [--make-it-fail] [--repeat=N] [--unread] CMD [ATTR=VALUE...]
 *	One request; prints the replies and the ack.  A job-new request
 *	carries "detach" (the job outlives nlfuzz, so that later requests
 *	find it) unless --owned is given (the job then ends when nlfuzz
 *	exits) or the arguments name detach themselves.  (--make-it-fail: with
 *	fault injection on for this task while the kernel handles it; a
 *	request the kernel could not take prints "send failed", an ack it
 *	could not allocate "ack lost", and both exit 3; --repeat=N: N times,
 *	destroying the jobs it creates, see req_repeat(); --unread: sent
 *	with the socket's receive buffer full, so that neither reply nor ack
 *	can be delivered, prints "sent", see req_unread()):
 *	    reply cmd=2 job-id=3 state=0 error=0
 *	    ack errno=22 name=EINVAL attr=23 msg="..." min=1 max=4096
 *	CMD: an operation of the spec (job-new), the last word of its name
 *	(features, new, start, stop, get, del) or a number.  ATTR: a request
 *	attribute of the spec (job-id, iodepth, ...; "name" for job-name),
 *	"dev" (one path of the devices nest; repeat for more), "bss"
 *	(SIZE[/WEIGHT], one bssplit entry), "zone" (DIR/ACCESS/SIZE, one
 *	random-zones entry: SIZE a percent, or bytes with a "b" after it; an
 *	empty field is left out) or a number; the names come from
 *	tools/nl-names.h, generated from the spec.  ":TYPE" after it
 *	overrides the width (u8, u16, u32, u64, flag, str (NUL-terminated),
 *	raw (no NUL), hex).  Exit status 0 when the ack says 0, 1 when it
 *	carries an error.
 *
 *   nlfuzz upload [--make-it-fail] TRIES PIECES ATTR=VALUE...
 *	TRIES times a replay job (the JOB_NEW of ATTR=VALUE, detached, with
 *	replay-nr=N among them) and its log of N 4 KiB reads in PIECES
 *	JOB_REPLAY requests (with --make-it-fail: fault injection on for
 *	each of them, as req's); a piece refused (ENOMEM) or not sent is sent
 *	again, a job whose ack was lost is destroyed.  A whole log must start
 *	and replay each entry once (see upload_try()).  Prints each try's
 *	end, "try T: whole|refused: ...|abandoned at piece P: ...", then
 *	"tries=... whole=... refused=... abandoned=... broken=... resent=..."
 *	(pieces sent again); exit 0
 *	when no try broke and no job is left, 2 otherwise.
 *
 *   nlfuzz fuzz [--hook=CMD --hook-every=N] SEED COUNT DEV...
 *	COUNT random and malformed messages (seeded, reproducible: message i
 *	of a seed is the same whatever the kernel answered), among them the
 *	spec's commands with the attributes the spec says they take, at their
 *	edges (gen_spec_cmd(): drawn from tools/nl-names.h, so a new
 *	attribute is fuzzed once the spec has it), each
 *	read to its ack, or when none came at once followed by a probe that
 *	proves every reply to it was read; then
 *	every job it created is stopped and destroyed, and a dump must show
 *	no job it did not create.  Exit 0 if all went well.  With --hook,
 *	every N messages a removal step (removal_step()) runs `sh -c CMD`
 *	twice: the first run removes the last DEV, the second brings it back
 *	under the same path; "removals=... removed-failed=... removed-live=...
 *	hook-failed=..." is printed after the first line.
 *
 *   nlfuzz listen COUNT
 *	Joins "events" (as join), prints "listening", then the next COUNT
 *	JOB_NTF: "event" and each attribute as the spec names it
 *	(completion=1 iodepth=4 ...; a flag by its name).  Exit 1 if they
 *	did not all come within 60 s.
 *
 *   nlfuzz join
 *	Subscribes to the family's multicast group "events"; prints "joined"
 *	or the errno, and exits 0 or 1.
 *
 *   nlfuzz family NAME
 *	Resolves generic netlink family NAME with CTRL_CMD_GETFAMILY, a
 *	request to the controller ("nlctrl"), another family than kiobench;
 *	prints "family NAME id=N" and exits 0, or exits 1 when the family is
 *	unknown or no answer came within 30 s.
 *
 *   nlfuzz hold PATH
 *	Opens block device PATH exclusively (O_EXCL) for writing, prints
 *	"held" and sleeps until killed.
 *
 *   nlfuzz as-user UID CMD ARGS...	   setuid/setgid to UID, then exec
 *   nlfuzz without-cap CAP CMD ARGS...	   drop CAP (a number) from the
 *	bounding, effective, permitted and inheritable sets, then exec
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/kiobench.h>
#include "../../tools/nl-names.h"
#include <linux/netlink.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BUFSZ		(64 * 1024)
#define MAX_TRACKED	4096

static int sock = -1;
static bool injecting;	/* req --make-it-fail */
static bool req_quiet;	/* req_once() prints nothing (upload) */
static uint16_t family;
static uint32_t seq = 1;

static void die(const char *what)
{
	fprintf(stderr, "nlfuzz: %s: %s\n", what, strerror(errno));
	exit(2);
}

/* ---- message building ---------------------------------------------------- */

struct msg {
	unsigned char buf[BUFSZ];
	size_t len;
	size_t nest[8];
	int depth;
};

static void msg_init(struct msg *m, uint16_t type, uint16_t flags, uint8_t cmd)
{
	struct nlmsghdr *h = (struct nlmsghdr *)m->buf;
	struct genlmsghdr *g = (struct genlmsghdr *)(m->buf + NLMSG_HDRLEN);

	memset(m->buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = seq++;
	g->cmd = cmd;
	g->version = KIOBENCH_GENL_VERSION;
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;
	m->depth = 0;
}

/* Appends an attribute; returns its offset in the message. */
static size_t put(struct msg *m, uint16_t type, const void *data, size_t len)
{
	size_t at = m->len, tot = NLA_ALIGN(NLA_HDRLEN + len);
	struct nlattr *a;

	if (at + tot > sizeof(m->buf) - 64)
		return at;	/* full: silently dropped (fuzz only) */
	a = (struct nlattr *)(m->buf + at);
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy(m->buf + at + NLA_HDRLEN, data, len);
	memset(m->buf + at + NLA_HDRLEN + len, 0, tot - NLA_HDRLEN - len);
	m->len += tot;
	return at;
}

static void put_u8(struct msg *m, uint16_t t, uint8_t v) { put(m, t, &v, 1); }
static void put_u32(struct msg *m, uint16_t t, uint32_t v) { put(m, t, &v, 4); }
static void put_u64(struct msg *m, uint16_t t, uint64_t v) { put(m, t, &v, 8); }
static void put_str(struct msg *m, uint16_t t, const char *s) { put(m, t, s, strlen(s) + 1); }

static void nest_start(struct msg *m, uint16_t type)
{
	m->nest[m->depth++] = put(m, type | NLA_F_NESTED, NULL, 0);
}

static void nest_end(struct msg *m)
{
	size_t at = m->nest[--m->depth];

	((struct nlattr *)(m->buf + at))->nla_len = m->len - at;
}

static void msg_finish(struct msg *m)
{
	((struct nlmsghdr *)m->buf)->nlmsg_len = m->len;
}

/* 0, or the errno of a send that failed while faults were injected. */
static int send_raw(const void *buf, size_t len)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	if (sendto(sock, buf, len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0 &&
	    errno != EINVAL && errno != EMSGSIZE) {
		if (injecting)	/* the request never reached the family */
			return errno;
		die("sendto");
	}
	return 0;
}

/* ---- replies ------------------------------------------------------------- */

struct ack {
	bool seen;
	int err;		/* errno, positive, 0: success */
	char msg[256];
	int attr;		/* top-level attribute at the bad offset, or -1 */
	int missing;		/* NLMSGERR_ATTR_MISS_TYPE, or -1 */
	uint32_t offs;
	bool has_range;
	uint64_t min, max;
	uint32_t max_len;
};

/* The top-level attribute of m that contains byte offset off, or -1. */
static int attr_at(const struct msg *m, uint32_t off)
{
	size_t at = NLMSG_HDRLEN + GENL_HDRLEN;

	while (at + NLA_HDRLEN <= m->len) {
		const struct nlattr *a = (const struct nlattr *)(m->buf + at);

		if (a->nla_len < NLA_HDRLEN)
			return -1;
		if (off >= at && off < at + a->nla_len)
			return a->nla_type & NLA_TYPE_MASK;
		at += NLA_ALIGN(a->nla_len);
	}
	return -1;
}

/* Checks that attributes fit [p, p+len); false on a malformed reply. */
static bool attrs_ok(const unsigned char *p, size_t len, int depth)
{
	size_t at = 0;

	while (at + NLA_HDRLEN <= len) {
		const struct nlattr *a = (const struct nlattr *)(p + at);

		if (a->nla_len < NLA_HDRLEN || at + a->nla_len > len)
			return false;
		if ((a->nla_type & NLA_F_NESTED) && depth < 4 &&
		    !attrs_ok(p + at + NLA_HDRLEN, a->nla_len - NLA_HDRLEN, depth + 1))
			return false;
		at += NLA_ALIGN(a->nla_len);
	}
	return true;
}

static void parse_extack(const struct nlmsghdr *h, size_t off, const struct msg *req,
			 struct ack *ack)
{
	const unsigned char *p = (const unsigned char *)h;
	size_t at = off;

	while (at + NLA_HDRLEN <= h->nlmsg_len) {
		const struct nlattr *a = (const struct nlattr *)(p + at);
		const unsigned char *d = p + at + NLA_HDRLEN;
		size_t dl;

		if (a->nla_len < NLA_HDRLEN || at + a->nla_len > h->nlmsg_len)
			break;
		dl = a->nla_len - NLA_HDRLEN;
		switch (a->nla_type & NLA_TYPE_MASK) {
		case NLMSGERR_ATTR_MSG:
			snprintf(ack->msg, sizeof(ack->msg), "%.*s", (int)dl, (const char *)d);
			break;
		case NLMSGERR_ATTR_OFFS:
			if (dl >= 4) {
				memcpy(&ack->offs, d, 4);
				if (req)
					ack->attr = attr_at(req, ack->offs);
			}
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			if (dl >= 4) {
				uint32_t t;

				memcpy(&t, d, 4);
				ack->missing = t;
			}
			break;
		case NLMSGERR_ATTR_POLICY: {
			size_t pa = 0;

			while (pa + NLA_HDRLEN <= dl) {
				const struct nlattr *q = (const struct nlattr *)(d + pa);
				uint64_t v = 0;

				if (q->nla_len < NLA_HDRLEN || pa + q->nla_len > dl)
					break;
				memcpy(&v, d + pa + NLA_HDRLEN,
				       q->nla_len - NLA_HDRLEN > 8 ? 8 : q->nla_len - NLA_HDRLEN);
				switch (q->nla_type) {
				case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
				case NL_POLICY_TYPE_ATTR_MIN_VALUE_S:
					ack->min = v;
					ack->has_range = true;
					break;
				case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
				case NL_POLICY_TYPE_ATTR_MAX_VALUE_S:
					ack->max = v;
					ack->has_range = true;
					break;
				case NL_POLICY_TYPE_ATTR_MAX_LENGTH:
					ack->max_len = (uint32_t)v;
					break;
				}
				pa += NLA_ALIGN(q->nla_len);
			}
			break;
		}
		}
		at += NLA_ALIGN(a->nla_len);
	}
}

typedef void (*reply_fn)(const struct nlmsghdr *h, void *arg);

static unsigned long malformed, lost;

/*
 * Reads until the ack (NLMSG_ERROR) or NLMSG_DONE of sequence number want;
 * messages of other sequence numbers (late dump parts) are checked and
 * passed to fn too.  Returns false on timeout.
 */
static bool read_replies(uint32_t want, const struct msg *req, struct ack *ack,
			 reply_fn fn, void *arg, int timeout_ms)
{
	static unsigned char buf[BUFSZ * 4];

	memset(ack, 0, sizeof(*ack));
	ack->attr = -1;
	ack->missing = -1;
	for (;;) {
		struct pollfd pfd = { .fd = sock, .events = POLLIN };
		ssize_t n;
		size_t at = 0;

		if (poll(&pfd, 1, timeout_ms) <= 0)
			return false;
		n = recv(sock, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			if (errno == ENOBUFS) {	/* a reply was lost */
				lost++;
				if (injecting)	/* the kernel could not allocate it */
					return false;
				fprintf(stderr, "nlfuzz: a reply was lost (ENOBUFS)\n");
				continue;
			}
			die("recv");
		}
		while (at + NLMSG_HDRLEN <= (size_t)n) {
			const struct nlmsghdr *h = (const struct nlmsghdr *)(buf + at);
			bool mine;

			if (h->nlmsg_len < NLMSG_HDRLEN || at + h->nlmsg_len > (size_t)n) {
				malformed++;
				fprintf(stderr, "nlfuzz: malformed reply header\n");
				break;
			}
			mine = h->nlmsg_seq == want;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);
				size_t off = NLMSG_HDRLEN + sizeof(*e);

				if (h->nlmsg_len < off || e->error > 0) {
					malformed++;
					fprintf(stderr, "nlfuzz: malformed ack\n");
				} else if (mine) {
					ack->seen = true;
					ack->err = -e->error;
					if (!(h->nlmsg_flags & NLM_F_CAPPED))
						off += NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
					if (h->nlmsg_flags & NLM_F_ACK_TLVS)
						parse_extack(h, off, req, ack);
				}
			} else if (h->nlmsg_type == NLMSG_DONE) {
				if (mine) {
					int e = 0;

					if (h->nlmsg_len >= NLMSG_HDRLEN + sizeof(int))
						memcpy(&e, NLMSG_DATA(h), sizeof(int));
					ack->seen = true;
					ack->err = -e;
					if (h->nlmsg_flags & NLM_F_ACK_TLVS)
						parse_extack(h, NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(int)),
							     req, ack);
				}
			} else {
				size_t hl = NLMSG_HDRLEN + GENL_HDRLEN;

				if (h->nlmsg_len < hl ||
				    !attrs_ok((const unsigned char *)h + hl, h->nlmsg_len - hl, 0)) {
					malformed++;
					fprintf(stderr, "nlfuzz: malformed reply attributes\n");
				} else if (fn) {
					fn(h, arg);
				}
			}
			at += NLMSG_ALIGN(h->nlmsg_len);
			if (mine && ack->seen)
				return true;
		}
	}
}

static uint32_t mcgrp_events;

/* Family id, and the id of the "events" multicast group. */
static void family_reply(const struct nlmsghdr *h, void *arg)
{
	size_t at = NLMSG_HDRLEN + GENL_HDRLEN;

	while (at + NLA_HDRLEN <= h->nlmsg_len) {
		const struct nlattr *a = (const struct nlattr *)((const char *)h + at);
		const unsigned char *d = (const unsigned char *)a + NLA_HDRLEN;

		if (a->nla_len < NLA_HDRLEN)
			break;
		if (a->nla_type == CTRL_ATTR_FAMILY_ID && a->nla_len >= NLA_HDRLEN + 2)
			memcpy(arg, d, 2);
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_MCAST_GROUPS) {
			size_t g = 0, glen = a->nla_len - NLA_HDRLEN;

			while (g + NLA_HDRLEN <= glen) {	/* one nest per group */
				const struct nlattr *grp = (const struct nlattr *)(d + g);
				size_t f = NLA_HDRLEN;
				uint32_t id = 0;
				bool events = false;

				if (grp->nla_len < NLA_HDRLEN)
					break;
				while (f + NLA_HDRLEN <= grp->nla_len) {
					const struct nlattr *x = (const struct nlattr *)
						((const char *)grp + f);

					if (x->nla_len < NLA_HDRLEN)
						break;
					if (x->nla_type == CTRL_ATTR_MCAST_GRP_ID)
						memcpy(&id, (const char *)x + NLA_HDRLEN, 4);
					if (x->nla_type == CTRL_ATTR_MCAST_GRP_NAME)
						events = !strcmp((const char *)x + NLA_HDRLEN,
								 KIOBENCH_MCGRP_EVENTS);
					f += NLA_ALIGN(x->nla_len);
				}
				if (events)
					mcgrp_events = id;
				g += NLA_ALIGN(grp->nla_len);
			}
		}
		at += NLA_ALIGN(a->nla_len);
	}
}

static void open_raw_socket(void)
{
	int one = 1, sz = 4 << 20;

	sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (sock < 0)
		die("socket");
	setsockopt(sock, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(sock, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
}

/*
 * CTRL_CMD_GETFAMILY for @name: its id in *@id, 0 if it has none; false
 * when no answer came within @timeout_ms.
 */
static bool get_family(const char *name, uint16_t *id, struct ack *ack,
		       int timeout_ms)
{
	struct msg m;

	msg_init(&m, GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK, CTRL_CMD_GETFAMILY);
	put_str(&m, CTRL_ATTR_FAMILY_NAME, name);
	msg_finish(&m);
	send_raw(m.buf, m.len);
	*id = 0;
	return read_replies(((struct nlmsghdr *)m.buf)->nlmsg_seq, &m, ack,
			    family_reply, id, timeout_ms);
}

/* Opens the socket and resolves the family with CTRL_CMD_GETFAMILY. */
static void open_socket(void)
{
	struct ack ack;

	open_raw_socket();
	if (!get_family(KIOBENCH_GENL_NAME, &family, &ack, 30000) || ack.err ||
	    !family) {
		fprintf(stderr, "nlfuzz: no genetlink family %s: %s\n", KIOBENCH_GENL_NAME,
			strerror(ack.err));
		exit(2);
	}
}

/* nlfuzz family NAME: a request to nlctrl, another family than ours. */
static int cmd_family(const char *name)
{
	struct ack ack;
	uint16_t id;

	open_raw_socket();
	if (!get_family(name, &id, &ack, 30000)) {
		printf("family %s: no answer\n", name);
		return 1;
	}
	if (ack.err || !id) {
		printf("family %s: errno=%d\n", name, ack.err);
		return 1;
	}
	printf("family %s id=%u\n", name, id);
	return 0;
}

/* ---- attributes by name -------------------------------------------------- */

enum vtype { T_U8, T_U16, T_U32, T_U64, T_FLAG, T_STR, T_RAW, T_HEX, T_CPUS };

/*
 * Names, types and which attributes a request takes: tools/nl-names.h,
 * generated from the spec.  The command line has one short name of its
 * own, "name" for job-name, which it also prints.
 */
#define JOB_NAME_ALIAS "name"

/* The width of a request attribute of the spec's type. */
static enum vtype spec_vtype(enum kb_nl_type t)
{
	switch (t) {
	case KB_NLT_U8: return T_U8;
	case KB_NLT_U16: return T_U16;
	case KB_NLT_U64: return T_U64;
	case KB_NLT_FLAG: return T_FLAG;
	case KB_NLT_STRING: return T_STR;
	case KB_NLT_BINARY: return T_CPUS;	/* cpus, the one binary: u32[] */
	default: return T_U32;
	}
}

/* A top-level request attribute by name, or -1; its nests are "dev", "bss". */
static int attr_by_name(const char *name)
{
	if (!strcmp(name, JOB_NAME_ALIAS))
		return KIOBENCH_A_JOB_NAME;
	for (int t = 0; t <= KIOBENCH_A_MAX; t++)
		if (kb_nl_attrs[t].request && kb_nl_attrs[t].type != KB_NLT_NEST &&
		    !strcmp(name, kb_nl_attrs[t].name))
			return t;
	return -1;
}

/* A command by its name in the spec (job-new) or that name's last word (new). */
static int cmd_by_name(const char *name)
{
	for (int c = 1; c <= KIOBENCH_CMD_MAX; c++) {
		const char *n = kb_nl_cmds[c], *w = n ? strrchr(n, '-') : NULL;

		if (n && (!strcmp(name, n) || (w && !strcmp(name, w + 1))))
			return c;
	}
	return -1;
}

/* The name of a top-level request attribute, or "?". */
static const char *attr_name(int type)
{
	if (type == KIOBENCH_A_JOB_NAME)
		return JOB_NAME_ALIAS;
	if (type < 0 || type > KIOBENCH_A_MAX || !kb_nl_attrs[type].request)
		return "?";
	return kb_nl_attrs[type].name;
}

static void put_value(struct msg *m, int type, enum vtype vt, const char *val)
{
	unsigned long long v = strtoull(val, NULL, 0);

	switch (vt) {
	case T_U8: put_u8(m, type, v); break;
	case T_U16: { uint16_t x = v; put(m, type, &x, 2); break; }
	case T_U32: put_u32(m, type, v); break;
	case T_U64: put_u64(m, type, v); break;
	case T_FLAG: put(m, type, NULL, 0); break;
	case T_STR: put_str(m, type, val); break;
	case T_RAW: put(m, type, val, strlen(val)); break;
	case T_HEX: {
		unsigned char b[4096];
		size_t n = 0;

		for (const char *p = val; p[0] && p[1] && n < sizeof(b); p += 2) {
			unsigned int x;

			sscanf(p, "%2x", &x);
			b[n++] = x;
		}
		put(m, type, b, n);
		break;
	}
	case T_CPUS: {
		uint32_t c[1100];
		size_t n = 0;
		char *dup = strdup(val), *tok, *save;

		for (tok = strtok_r(dup, ",", &save); tok && n < 1100;
		     tok = strtok_r(NULL, ",", &save))
			c[n++] = strtoul(tok, NULL, 0);
		put(m, type, c, n * 4);
		free(dup);
		break;
	}
	}
}

static enum vtype parse_vtype(const char *s)
{
	static const char *const n[] = { "u8", "u16", "u32", "u64", "flag", "str", "raw",
					 "hex", "cpus" };

	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		if (!strcmp(s, n[i]))
			return i;
	fprintf(stderr, "nlfuzz: unknown type %s\n", s);
	exit(2);
}

static void print_reply(const struct nlmsghdr *h, void *arg)
{
	const struct genlmsghdr *g = NLMSG_DATA(h);
	size_t at = NLMSG_HDRLEN + GENL_HDRLEN;

	(void)arg;
	printf("reply cmd=%u", g->cmd);
	while (at + NLA_HDRLEN <= h->nlmsg_len) {
		const struct nlattr *a = (const struct nlattr *)((const char *)h + at);
		const char *d = (const char *)a + NLA_HDRLEN;
		int len = a->nla_len - NLA_HDRLEN;
		uint64_t v = 0;

		switch (a->nla_type & NLA_TYPE_MASK) {
		case KIOBENCH_A_JOB_ID: memcpy(&v, d, 4); printf(" job-id=%" PRIu64, v); break;
		case KIOBENCH_A_JOB_STATE: printf(" state=%u", (unsigned char)d[0]); break;
		case KIOBENCH_A_JOB_ERROR: { int32_t e; memcpy(&e, d, 4); printf(" error=%d", e); break; }
		case KIOBENCH_A_JOB_NAME: printf(" name=%.*s", len, d); break;
		case KIOBENCH_A_DEBUGFS_DIR: printf(" debugfs=%.*s", len, d); break;
		case KIOBENCH_A_VERSION: memcpy(&v, d, 4); printf(" version=%" PRIu64, v); break;
		case KIOBENCH_A_JOB_STATS: {
			/* dir, ios, errors of one direction */
			size_t sa = 0;
			uint64_t dir = 0, ios = 0, errs = 0;

			while (sa + NLA_HDRLEN <= (size_t)len) {
				const struct nlattr *s = (const struct nlattr *)(d + sa);
				uint64_t x = 0;

				memcpy(&x, (const char *)s + NLA_HDRLEN,
				       s->nla_len - NLA_HDRLEN > 8 ? 8 : s->nla_len - NLA_HDRLEN);
				if (s->nla_type == KIOBENCH_STAT_A_DIR)
					dir = x & 0xff;
				else if (s->nla_type == KIOBENCH_STAT_A_ALL_IOS)
					ios = x;
				else if (s->nla_type == KIOBENCH_STAT_A_ERRORS)
					errs = x;
				sa += NLA_ALIGN(s->nla_len);
			}
			printf(" %s-ios=%" PRIu64 " %s-errors=%" PRIu64, dir ? "write" : "read", ios,
			       dir ? "write" : "read", errs);
			break;
		}
		}
		at += NLA_ALIGN(a->nla_len);
	}
	printf("\n");
}

/* ---- jobs --------------------------------------------------------------- */

static int simple(uint8_t cmd, uint32_t id, struct ack *ack, reply_fn fn, void *arg)
{
	struct msg m;

	msg_init(&m, family, NLM_F_REQUEST | NLM_F_ACK, cmd);
	put_u32(&m, KIOBENCH_A_JOB_ID, id);
	msg_finish(&m);
	send_raw(m.buf, m.len);
	if (!read_replies(((struct nlmsghdr *)m.buf)->nlmsg_seq, &m, ack, fn, arg, 120000)) {
		fprintf(stderr, "nlfuzz: no ack to command %u on job %u\n", cmd, id);
		exit(2);
	}
	return ack->err;
}

static void get_state(const struct nlmsghdr *h, void *arg)
{
	size_t at = NLMSG_HDRLEN + GENL_HDRLEN;

	while (at + NLA_HDRLEN <= h->nlmsg_len) {
		const struct nlattr *a = (const struct nlattr *)((const char *)h + at);

		if (a->nla_type == KIOBENCH_A_JOB_STATE)
			*(int *)arg = *((const unsigned char *)a + NLA_HDRLEN);
		at += NLA_ALIGN(a->nla_len);
	}
}

struct idlist {
	uint32_t ids[256];
	size_t n;
};

static void collect_id(const struct nlmsghdr *h, void *arg)
{
	struct idlist *l = arg;
	size_t at = NLMSG_HDRLEN + GENL_HDRLEN;

	while (at + NLA_HDRLEN <= h->nlmsg_len) {
		const struct nlattr *a = (const struct nlattr *)((const char *)h + at);

		if (a->nla_type == KIOBENCH_A_JOB_ID && l->n < 256) {
			uint32_t id;
			size_t i = 0;

			memcpy(&id, (const char *)a + NLA_HDRLEN, 4);
			while (i < l->n && l->ids[i] != id)
				i++;
			if (i == l->n)	/* once: a late reply may name it again */
				l->ids[l->n++] = id;
		}
		at += NLA_ALIGN(a->nla_len);
	}
}

/* Stops and destroys one job; false if it cannot be destroyed. */
static bool destroy(uint32_t id)
{
	struct ack ack;
	int state = -1, i;

	simple(KIOBENCH_CMD_JOB_STOP, id, &ack, NULL, NULL);
	for (i = 0; i < 1200; i++) {	/* 120 s */
		state = -1;
		if (simple(KIOBENCH_CMD_JOB_GET, id, &ack, get_state, &state) == ENOENT)
			return true;
		if (state != KIOBENCH_STATE_RUNNING)
			break;
		usleep(100000);
	}
	if (simple(KIOBENCH_CMD_JOB_DEL, id, &ack, NULL, NULL) && ack.err != ENOENT) {
		fprintf(stderr, "nlfuzz: cannot destroy job %u (state %d): %s: %s\n", id, state,
			strerror(ack.err), ack.msg);
		return false;
	}
	return true;
}

/* Adds the id of every job there is to l (a JOB_GET dump); false on failure. */
static bool list_jobs(struct idlist *l)
{
	struct msg m;
	struct ack ack;

	msg_init(&m, family, NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP, KIOBENCH_CMD_JOB_GET);
	msg_finish(&m);
	send_raw(m.buf, m.len);
	return read_replies(((struct nlmsghdr *)m.buf)->nlmsg_seq, &m, &ack, collect_id, l,
			    120000) && !ack.err;
}

enum req_outcome { REQ_ACK, REQ_SEND_FAILED, REQ_ACK_LOST, REQ_NO_ACK };

/*
 * Sends the request in m and prints its outcome: the replies (through fn),
 * then one line, "ack errno=...", "send failed errno=N" or "ack lost".
 * With fail_fd, fault injection is on for this task inside sendto() only.
 */
static enum req_outcome req_once(struct msg *m, int fail_fd, struct ack *ack, reply_fn fn,
				 void *arg)
{
	unsigned long lost_before = lost;

	/*
	 * genetlink handles the request in this task, within sendto(), and
	 * nothing else happens inside the window.  cmd_req() faulted in and
	 * locked every page first: a page fault of ours inside the window (a
	 * page table, the "0" below) could fail too, and end this program
	 * instead of the request.  Nothing is printed inside it either: a
	 * write to a pipe allocates a page, which would fail and lose the
	 * output.
	 */
	if (fail_fd >= 0) {
		static const char on = '1', off = '0';
		int err;

		if (pwrite(fail_fd, &on, 1, 0) != 1)
			die("make-it-fail");
		err = send_raw(m->buf, m->len);
		if (pwrite(fail_fd, &off, 1, 0) != 1)
			die("make-it-fail");
		if (err) {
			if (!req_quiet)
				printf("send failed errno=%d\n", err);
			return REQ_SEND_FAILED;
		}
	} else {
		send_raw(m->buf, m->len);
	}
	if (!read_replies(((struct nlmsghdr *)m->buf)->nlmsg_seq, m, ack, fn, arg, 30000)) {
		if (lost != lost_before) {
			if (!req_quiet)
				printf("ack lost\n");
			return REQ_ACK_LOST;
		}
		fprintf(stderr, "nlfuzz req: no ack within 30 s\n");
		return REQ_NO_ACK;
	}
	if (req_quiet)
		return REQ_ACK;
	printf("ack errno=%d name=%s attr=%d attr-name=%s msg=\"%s\"", ack->err,
	       ack->err ? strerrorname_np(ack->err) : "0", ack->attr,
	       ack->attr >= 0 ? attr_name(ack->attr) : "-", ack->msg);
	if (ack->missing >= 0)
		printf(" missing=%s missing-type=%d", attr_name(ack->missing), ack->missing);
	if (ack->has_range)
		printf(" min=%" PRIu64 " max=%" PRIu64, ack->min, ack->max);
	if (ack->max_len)
		printf(" max-len=%u", ack->max_len);
	printf("\n");
	return REQ_ACK;
}

static void print_and_collect(const struct nlmsghdr *h, void *arg)
{
	print_reply(h, NULL);
	collect_id(h, arg);
}

/*
 * --unread: the request goes out with the socket's receive buffer full
 * (at its smallest, SOCK_MIN_RCVBUF, and GET_FEATURES replies left unread
 * in it), so that the kernel can deliver neither its reply nor its ack.
 * Generic netlink handles a request within sendmsg(): once send returns,
 * the kernel is done with it.  Prints "sent"; nothing is read.
 */
static int req_unread(const struct msg *req)
{
	static struct msg f;
	int zero = 0, i;

	if (setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &zero, sizeof(zero)))
		die("SO_RCVBUF");
	for (i = 0; i < 16; i++) {
		msg_init(&f, family, NLM_F_REQUEST, KIOBENCH_CMD_GET_FEATURES);
		msg_finish(&f);
		send_raw(f.buf, f.len);
	}
	send_raw(req->buf, req->len);
	printf("sent\n");
	return 0;
}

/*
 * req --repeat=N: the request N times, each outcome printed; a job that a
 * reply names is destroyed at once, and after a lost ack every job there
 * is ("reaped": the request may have created one), so that the next
 * request fits.  0 when every request had an outcome, 2 otherwise.  The
 * socket reports a lost ack before a reply queued ahead of it, so such a
 * reply is read late, with the dump that follows (or the next request).
 */
static int req_repeat(struct msg *m, int fail_fd, unsigned long repeat)
{
	for (unsigned long r = 0; r < repeat; r++) {
		struct idlist made = { .n = 0 }, left = { .n = 0 };
		enum req_outcome out;
		struct ack ack;

		((struct nlmsghdr *)m->buf)->nlmsg_seq = seq++;
		out = req_once(m, fail_fd, &ack, print_and_collect, &made);
		if (out == REQ_NO_ACK)
			return 2;
		for (size_t i = 0; i < made.n; i++)
			if (!destroy(made.ids[i]))
				return 2;
		if (out != REQ_ACK_LOST)
			continue;
		if (!list_jobs(&left)) {
			fprintf(stderr, "nlfuzz req: dump after a lost ack failed\n");
			return 2;
		}
		for (size_t i = 0; i < left.n; i++) {
			printf("reaped\n");
			if (!destroy(left.ids[i]))
				return 2;
		}
	}
	return malformed ? 2 : 0;
}

/* The nest of the request the last ATTR=VALUE of `nlfuzz req` is in. */
enum open_nest { NEST_NONE, NEST_DEVS, NEST_BSS, NEST_ZONES };

/* One random-zones entry, "DIR/ACCESS/SIZE" (see the usage above). */
static void put_zone_arg(struct msg *m, char *val)
{
	char *f[3] = { val, NULL, NULL }, *end;
	int i;

	for (i = 1; i < 3 && f[i - 1]; i++) {
		f[i] = strchr(f[i - 1], '/');
		if (f[i])
			*f[i]++ = '\0';
	}
	nest_start(m, KIOBENCH_ZONE_A_ENTRY);
	if (*f[0])
		put_u8(m, KIOBENCH_ZONE_A_DIR, strtoul(f[0], NULL, 0));
	if (f[1] && *f[1])
		put_u8(m, KIOBENCH_ZONE_A_ACCESS_PCT, strtoul(f[1], NULL, 0));
	if (f[2] && *f[2]) {
		uint64_t v = strtoull(f[2], &end, 0);

		if (*end == 'b')
			put(m, KIOBENCH_ZONE_A_SIZE, &v, sizeof(v));
		else
			put_u8(m, KIOBENCH_ZONE_A_SIZE_PCT, v);
	}
	nest_end(m);
}

/*
 * "dev=PATH" (one path of the devices nest), "bss=SIZE[/WEIGHT]" (one
 * entry of the bssplit nest) or "zone=..." (one of random-zones): the nest
 * is opened, and another one closed, as needed.
 */
static void put_nest_arg(struct msg *m, enum open_nest *open, enum open_nest want,
			 bool typed, enum vtype vt, char *val)
{
	static const int nest_attr[] = { [NEST_DEVS] = KIOBENCH_A_DEVICES,
					  [NEST_BSS] = KIOBENCH_A_BSSPLIT,
					  [NEST_ZONES] = KIOBENCH_A_RANDOM_ZONES };
	char *w;

	if (*open != want) {
		if (*open != NEST_NONE)
			nest_end(m);
		nest_start(m, nest_attr[want]);
		*open = want;
	}
	if (want == NEST_DEVS) {
		put_value(m, KIOBENCH_DEV_A_PATH, typed ? vt : T_STR, val);
		return;
	}
	if (want == NEST_ZONES) {
		put_zone_arg(m, val);
		return;
	}
	w = strchr(val, '/');
	nest_start(m, KIOBENCH_BSS_A_ENTRY);
	if (w)
		*w++ = '\0';
	if (*val)
		put_value(m, KIOBENCH_BSS_A_SIZE, typed ? vt : T_U32, val);
	if (w)
		put_u32(m, KIOBENCH_BSS_A_WEIGHT, strtoul(w, NULL, 0));
	nest_end(m);
}

/* The ATTR[:TYPE]=VALUE arguments of `nlfuzz req` into m: 0, or -1. */
static int put_args(struct msg *m, int argc, char **argv)
{
	enum open_nest open = NEST_NONE;

	for (int i = 0; i < argc; i++) {
		char *arg = strdup(argv[i]), *val = strchr(arg, '='), *ty, *end;
		enum vtype vt = T_U32;
		bool typed = false;
		int type;

		if (val)
			*val++ = '\0';
		else
			val = "";
		ty = strchr(arg, ':');
		if (ty) {
			*ty++ = '\0';
			vt = parse_vtype(ty);
			typed = true;
		}
		if (!strcmp(arg, "dev") || !strcmp(arg, "bss") || !strcmp(arg, "zone")) {
			put_nest_arg(m, &open, arg[0] == 'd' ? NEST_DEVS :
					       arg[0] == 'b' ? NEST_BSS : NEST_ZONES,
				     typed, vt, val);
			free(arg);
			continue;
		}
		if (open != NEST_NONE) {
			nest_end(m);
			open = NEST_NONE;
		}
		type = attr_by_name(arg);
		if (type >= 0 && !typed)
			vt = spec_vtype(kb_nl_attrs[type].type);
		if (type < 0) {
			type = strtol(arg, &end, 0);
			if (*end || !*arg) {
				fprintf(stderr, "nlfuzz req: unknown attribute %s\n", arg);
				free(arg);
				return -1;
			}
		}
		put_value(m, type, vt, val);
		free(arg);
	}
	if (open != NEST_NONE)
		nest_end(m);
	return 0;
}

/* Whether the ATTR=VALUE arguments of `nlfuzz req` give detach. */
static bool names_detach(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (!strncmp(argv[i], "detach", 6) && strchr("=:", argv[i][6]))
			return true;
	return false;
}

static int cmd_req(int argc, char **argv)
{
	bool dump = false;
	struct msg m;
	struct ack ack;
	int cmd = -1, i = 0;
	int fail_fd = -1;
	unsigned long repeat = 0;
	bool owned = false, unread = false;

	if (i < argc && !strcmp(argv[i], "--dump")) {
		dump = true;
		i++;
	}
	if (i < argc && !strcmp(argv[i], "--owned")) {
		owned = true;
		i++;
	}
	if (i < argc && !strcmp(argv[i], "--make-it-fail")) {
		fail_fd = open("/proc/self/make-it-fail", O_WRONLY);
		if (fail_fd < 0)
			die("/proc/self/make-it-fail");
		injecting = true;
		i++;
	}
	if (i < argc && !strncmp(argv[i], "--repeat=", 9)) {
		repeat = strtoul(argv[i] + 9, NULL, 0);
		i++;
	}
	if (i < argc && !strcmp(argv[i], "--unread")) {
		unread = true;
		i++;
	}
	if (i >= argc) {
		fprintf(stderr, "nlfuzz req: CMD missing\n");
		return 2;
	}
	cmd = cmd_by_name(argv[i]);
	if (cmd < 0)
		cmd = strtol(argv[i], NULL, 0);
	i++;
	open_socket();
	msg_init(&m, family, NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0), cmd);
	if (put_args(&m, argc - i, argv + i))
		return 2;
	if (cmd == KIOBENCH_CMD_JOB_NEW && !owned && !names_detach(argc - i, argv + i))
		put(&m, KIOBENCH_A_DETACH, NULL, 0);
	msg_finish(&m);
	if (fail_fd >= 0 && mlockall(MCL_CURRENT | MCL_FUTURE))
		die("mlockall");
	if (repeat)
		return req_repeat(&m, fail_fd, repeat);
	if (unread)
		return req_unread(&m);
	switch (req_once(&m, fail_fd, &ack, print_reply, NULL)) {
	case REQ_SEND_FAILED:
	case REQ_ACK_LOST:
		return 3;
	case REQ_NO_ACK:
		return 2;
	case REQ_ACK:
		break;
	}
	return malformed || lost ? 2 : ack.err ? 1 : 0;
}

/* ---- replay upload under faults ------------------------------------------ */

/* What a JOB_GET reply says of a job: its state, error and reads. */
struct job_status {
	int state;
	int32_t error;
	uint64_t read_ios;
};

static void get_status(const struct nlmsghdr *h, void *arg)
{
	struct job_status *st = arg;
	size_t at = NLMSG_HDRLEN + GENL_HDRLEN;

	while (at + NLA_HDRLEN <= h->nlmsg_len) {
		const struct nlattr *a = (const struct nlattr *)((const char *)h + at);
		const unsigned char *d = (const unsigned char *)a + NLA_HDRLEN;
		size_t len = a->nla_len - NLA_HDRLEN, sa = 0;
		uint64_t dir = 0, ios = 0;

		if (a->nla_len < NLA_HDRLEN)
			break;
		switch (a->nla_type & NLA_TYPE_MASK) {
		case KIOBENCH_A_JOB_STATE:
			st->state = d[0];
			break;
		case KIOBENCH_A_JOB_ERROR:
			memcpy(&st->error, d, 4);
			break;
		case KIOBENCH_A_JOB_STATS:	/* one direction's */
			while (sa + NLA_HDRLEN <= len) {
				const struct nlattr *s = (const struct nlattr *)(d + sa);
				uint64_t x = 0;

				if (s->nla_len < NLA_HDRLEN)
					break;
				memcpy(&x, (const char *)s + NLA_HDRLEN,
				       s->nla_len - NLA_HDRLEN > 8 ? 8 : s->nla_len - NLA_HDRLEN);
				if (s->nla_type == KIOBENCH_STAT_A_DIR)
					dir = x & 0xff;
				else if (s->nla_type == KIOBENCH_STAT_A_ALL_IOS)
					ios = x;
				sa += NLA_ALIGN(s->nla_len);
			}
			if (dir == KIOBENCH_DIR_READ)
				st->read_ios = ios;
			break;
		}
		at += NLA_ALIGN(a->nla_len);
	}
}

/* The job's status; false when it does not exist (ENOENT). */
static bool job_status(uint32_t id, struct job_status *st)
{
	struct ack ack;

	memset(st, 0, sizeof(*st));
	st->state = -1;
	return simple(KIOBENCH_CMD_JOB_GET, id, &ack, get_status, st) != ENOENT;
}

/* Destroys every job there is (after a lost ack); false on failure. */
static bool reap_all(void)
{
	struct idlist left = { .n = 0 };

	if (!list_jobs(&left)) {
		fprintf(stderr, "nlfuzz: dump after a lost ack failed\n");
		return false;
	}
	for (size_t i = 0; i < left.n; i++) {
		printf("reaped\n");
		if (!destroy(left.ids[i]))
			return false;
	}
	return true;
}

/*
 * Entry j of an uploaded log: a 4 KiB read in the device's first MiB,
 * valid whatever its logical block size.
 */
static void upload_piece(struct msg *m, uint32_t id, uint32_t first, uint32_t n)
{
	static struct kiobench_replay_ent e[BUFSZ / 2 / sizeof(struct kiobench_replay_ent)];

	msg_init(m, family, NLM_F_REQUEST | NLM_F_ACK, KIOBENCH_CMD_JOB_REPLAY);
	put_u32(m, KIOBENCH_A_JOB_ID, id);
	for (uint32_t j = 0; j < n; j++)
		e[j] = (struct kiobench_replay_ent){
			.offset = (uint64_t)((first + j) % 256) * 4096, .len = 4096,
			.dir = KIOBENCH_DIR_READ };
	put(m, KIOBENCH_A_REPLAY_ENTS, e, n * sizeof(e[0]));
	msg_finish(m);
}

enum upload_end { UP_WHOLE, UP_REFUSED, UP_ABANDONED, UP_BROKEN };

/* How many times a piece is sent again after a refusal (ENOMEM, a failed send). */
#define UPLOAD_RETRIES	16

static unsigned long upload_resent;	/* pieces sent again */

/*
 * One try of `nlfuzz upload`: the JOB_NEW in @new, then the log of @nr
 * entries in @pieces JOB_REPLAY requests, all with faults injected (@fail_fd),
 * then, without faults, JOB_START, the job run to its end and destroyed.
 * A piece refused (ENOMEM) or never sent is sent again: it must have added
 * nothing.  After a lost ack the job is destroyed: nobody knows what it got.
 */
static enum upload_end upload_try(unsigned long t, struct msg *new, int fail_fd, uint32_t nr,
				  uint32_t pieces)
{
	static struct msg m;
	struct idlist made = { .n = 0 };
	struct job_status st;
	enum req_outcome out;
	struct ack ack;
	uint32_t id, p, at = 0;
	int i;

	((struct nlmsghdr *)new->buf)->nlmsg_seq = seq++;
	out = req_once(new, fail_fd, &ack, collect_id, &made);
	if (out == REQ_NO_ACK)
		return UP_BROKEN;
	if (out == REQ_ACK_LOST) {
		printf("try %lu: refused: job-new ack lost\n", t);
		return reap_all() ? UP_REFUSED : UP_BROKEN;
	}
	if (out == REQ_SEND_FAILED || ack.err) {
		printf("try %lu: refused: job-new %s\n", t,
		       out == REQ_SEND_FAILED ? "not sent" : strerrorname_np(ack.err));
		if (made.n) {
			fprintf(stderr, "nlfuzz upload: a refused job-new made job %u\n",
				made.ids[0]);
			return UP_BROKEN;
		}
		return UP_REFUSED;
	}
	if (made.n != 1) {
		fprintf(stderr, "nlfuzz upload: job-new acked without its reply\n");
		return UP_BROKEN;
	}
	id = made.ids[0];
	for (p = 0; p < pieces; p++) {
		uint32_t n = nr / pieces + (p < nr % pieces);

		upload_piece(&m, id, at, n);
		for (i = 0; i <= UPLOAD_RETRIES; i++) {
			((struct nlmsghdr *)m.buf)->nlmsg_seq = seq++;
			out = req_once(&m, fail_fd, &ack, NULL, NULL);
			if (out == REQ_NO_ACK)
				return UP_BROKEN;
			if (out == REQ_ACK_LOST || (out == REQ_ACK && !ack.err))
				break;
			if (out == REQ_ACK && ack.err != ENOMEM) {
				fprintf(stderr, "nlfuzz upload: try %lu: piece %u of job %u refused: "
					"%s: %s\n", t, p, id, strerrorname_np(ack.err), ack.msg);
				return UP_BROKEN;
			}
			upload_resent += i < UPLOAD_RETRIES;
		}
		if (out == REQ_ACK_LOST || i > UPLOAD_RETRIES) {
			printf("try %lu: abandoned at piece %u: %s\n", t, p,
			       out == REQ_ACK_LOST ? "ack lost" : "refused each time");
			return destroy(id) ? UP_ABANDONED : UP_BROKEN;
		}
		at += n;
	}
	/* whole: it starts, and replays every entry once */
	if (simple(KIOBENCH_CMD_JOB_START, id, &ack, NULL, NULL)) {
		fprintf(stderr, "nlfuzz upload: try %lu: job %u uploaded whole does not start: "
			"%s: %s\n", t, id, strerrorname_np(ack.err), ack.msg);
		return UP_BROKEN;
	}
	for (i = 0; i < 1200 && job_status(id, &st) && st.state == KIOBENCH_STATE_RUNNING; i++)
		usleep(100000);
	if (st.state != KIOBENCH_STATE_DONE || st.read_ios != nr) {
		fprintf(stderr, "nlfuzz upload: try %lu: job %u: state %d error %d, %" PRIu64
			" of %u reads\n", t, id, st.state, st.error, st.read_ios, nr);
		return UP_BROKEN;
	}
	if (simple(KIOBENCH_CMD_JOB_DEL, id, &ack, NULL, NULL)) {
		fprintf(stderr, "nlfuzz upload: job %u: del: %s\n", id, strerrorname_np(ack.err));
		return UP_BROKEN;
	}
	printf("try %lu: whole\n", t);
	return UP_WHOLE;
}

/*
 * nlfuzz upload [--make-it-fail] TRIES PIECES ATTR=VALUE...: TRIES times a
 * replay job (the JOB_NEW of ATTR=VALUE, which names replay-nr) and its log
 * in PIECES JOB_REPLAY requests, see upload_try().  Prints each try's end,
 * then "tries=... whole=... refused=... abandoned=..."; exit 0 when every
 * try ended so and no job is left, 2 otherwise.
 */
static int cmd_upload(int argc, char **argv)
{
	static struct msg new;
	unsigned long tries, t, ends[UP_BROKEN + 1] = { 0 };
	struct idlist left = { .n = 0 };
	uint32_t nr = 0, pieces;
	int fail_fd = -1, i = 0;

	if (i < argc && !strcmp(argv[i], "--make-it-fail")) {
		fail_fd = open("/proc/self/make-it-fail", O_WRONLY);
		if (fail_fd < 0)
			die("/proc/self/make-it-fail");
		injecting = true;
		i++;
	}
	if (argc - i < 3) {
		fprintf(stderr, "usage: nlfuzz upload [--make-it-fail] TRIES PIECES ATTR=VALUE...\n");
		return 2;
	}
	tries = strtoul(argv[i++], NULL, 0);
	pieces = strtoul(argv[i++], NULL, 0);
	for (int j = i; j < argc; j++)
		if (!strncmp(argv[j], "replay-nr=", 10))
			nr = strtoul(argv[j] + 10, NULL, 0);
	if (!nr || !pieces || pieces > nr ||
	    (nr + pieces - 1) / pieces > BUFSZ / 2 / sizeof(struct kiobench_replay_ent)) {
		fprintf(stderr, "nlfuzz upload: replay-nr=N needed, N/PIECES of 24 bytes "
			"within %d bytes\n", BUFSZ / 2);
		return 2;
	}
	open_socket();
	msg_init(&new, family, NLM_F_REQUEST | NLM_F_ACK, KIOBENCH_CMD_JOB_NEW);
	if (put_args(&new, argc - i, argv + i))
		return 2;
	put(&new, KIOBENCH_A_DETACH, NULL, 0);
	msg_finish(&new);
	if (fail_fd >= 0 && mlockall(MCL_CURRENT | MCL_FUTURE))
		die("mlockall");
	req_quiet = true;
	for (t = 0; t < tries; t++) {
		enum upload_end end = upload_try(t, &new, fail_fd, nr, pieces);

		ends[end]++;
		if (end == UP_BROKEN)
			break;
	}
	if (!list_jobs(&left) || left.n) {
		fprintf(stderr, "nlfuzz upload: %zu jobs left\n", left.n);
		ends[UP_BROKEN]++;
	}
	printf("tries=%lu whole=%lu refused=%lu abandoned=%lu broken=%lu resent=%lu\n", t,
	       ends[UP_WHOLE], ends[UP_REFUSED], ends[UP_ABANDONED], ends[UP_BROKEN],
	       upload_resent);
	return ends[UP_BROKEN] || malformed ? 2 : 0;
}

/* ---- fuzzing ------------------------------------------------------------- */

static uint64_t rng_s;

static uint64_t rnd(void)	/* splitmix64 */
{
	uint64_t z = (rng_s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }
static bool chance(unsigned int pct) { return below(100) < pct; }

static uint32_t tracked[MAX_TRACKED];
static size_t nr_tracked;
static unsigned long stats_err[256], stats_ok, stats_noack, stats_created;
static char **devs;
static int nr_devs;

static void track_reply(const struct nlmsghdr *h, void *arg)
{
	const struct genlmsghdr *g = NLMSG_DATA(h);
	size_t at = NLMSG_HDRLEN + GENL_HDRLEN;

	(void)arg;
	if (g->cmd != KIOBENCH_CMD_JOB_NEW)
		return;
	while (at + NLA_HDRLEN <= h->nlmsg_len) {
		const struct nlattr *a = (const struct nlattr *)((const char *)h + at);

		if (a->nla_type == KIOBENCH_A_JOB_ID && a->nla_len >= NLA_HDRLEN + 4 &&
		    nr_tracked < MAX_TRACKED) {
			memcpy(&tracked[nr_tracked++], (const char *)a + NLA_HDRLEN, 4);
			stats_created++;
		}
		at += NLA_ALIGN(a->nla_len);
	}
}

static void untrack(uint32_t id)
{
	for (size_t i = 0; i < nr_tracked; i++) {
		if (tracked[i] == id) {
			memmove(&tracked[i], &tracked[i + 1],
				(--nr_tracked - i) * sizeof(tracked[0]));
			return;
		}
	}
}

static uint64_t edge_u64(uint64_t lo, uint64_t hi)
{
	static const uint64_t special[] = { 0, 1, 2, 511, 512, 513, 4095, 4096, 4097, 65536,
					    1ULL << 20, 1ULL << 31, 1ULL << 32, 1ULL << 63,
					    UINT32_MAX, UINT64_MAX, UINT64_MAX - 1 };

	switch (below(4)) {
	case 0: return special[below(sizeof(special) / sizeof(special[0]))];
	case 1: return lo ? lo - 1 : 0;
	case 2: return hi + 1;
	default: return lo + below(hi - lo + 1);
	}
}

static const char *pick_path(void)
{
	static const char *const bogus[] = { "", "/", "/dev/null", "/nonexistent", "/dev",
					     "/proc/self/fd/0", "relative/path", "/dev/zero" };

	if (chance(80))
		return devs[below(nr_devs)];
	return bogus[below(sizeof(bogus) / sizeof(bogus[0]))];
}

/* A JOB_NEW that is valid, or valid but for one or a few mutations. */
/* The devices nest of a JOB_NEW: nd paths (mutate: some bogus). */
static void gen_devices(struct msg *m, int nd, bool mutate)
{
	nest_start(m, KIOBENCH_A_DEVICES);
	for (int i = 0; i < nd; i++) {
		if (mutate && chance(10)) {
			char junk[32];

			for (size_t j = 0; j < sizeof(junk); j++)
				junk[j] = rnd();
			put(m, below(4), junk, below(sizeof(junk)));	/* no NUL, wrong type */
		} else {
			put_str(m, KIOBENCH_DEV_A_PATH, mutate ? pick_path() : devs[i % nr_devs]);
		}
	}
	nest_end(m);
}

/* The bssplit nest of a JOB_NEW (mutate: too many entries, edge values). */
static void gen_bssplit(struct msg *m, bool mutate)
{
	int n = 1 + below(mutate ? 20 : 4);

	nest_start(m, KIOBENCH_A_BSSPLIT);
	for (int i = 0; i < n; i++) {
		nest_start(m, KIOBENCH_BSS_A_ENTRY);
		put_u32(m, KIOBENCH_BSS_A_SIZE, mutate && chance(30) ?
			edge_u64(512, 16 << 20) : 512ULL << below(5));
		if (chance(70))
			put_u32(m, KIOBENCH_BSS_A_WEIGHT, mutate && chance(30) ?
				edge_u64(1, 100) : 1 + below(100));
		nest_end(m);
	}
	nest_end(m);
}

/*
 * The random-zones nest of a JOB_NEW with norandommap: a direction's zones
 * adding up to 100 (two halves) or not (mutate: a size of the other kind,
 * a missing direction, edge values).
 */
static void gen_zones(struct msg *m, bool mutate)
{
	int n = 1 + below(mutate ? 8 : 2);
	bool abs = chance(50);

	put(m, KIOBENCH_A_NORANDOMMAP, NULL, 0);
	nest_start(m, KIOBENCH_A_RANDOM_ZONES);
	for (int i = 0; i < n; i++) {
		nest_start(m, KIOBENCH_ZONE_A_ENTRY);
		if (!mutate || chance(90))
			put_u8(m, KIOBENCH_ZONE_A_DIR, mutate ? below(3) : (unsigned int)i % 2);
		put_u8(m, KIOBENCH_ZONE_A_ACCESS_PCT, mutate ? edge_u64(0, 101) : 100U / n);
		if (abs != (mutate && chance(20))) {
			uint64_t v = mutate ? edge_u64(0, 1ULL << 40) : 512ULL << below(12);

			put(m, KIOBENCH_ZONE_A_SIZE, &v, sizeof(v));
		} else {
			put_u8(m, KIOBENCH_ZONE_A_SIZE_PCT, mutate ? edge_u64(0, 101) : 1 + below(50));
		}
		nest_end(m);
	}
	nest_end(m);
}

/* One mutation of a JOB_NEW: an out-of-range value, a wrong width, a dup. */
static void gen_mutation(struct msg *m)
{
	static const int u64s[] = { KIOBENCH_A_OFFSET, KIOBENCH_A_SIZE,
				    KIOBENCH_A_RUNTIME_NS, KIOBENCH_A_IO_BYTES,
				    KIOBENCH_A_NUMBER_IOS, KIOBENCH_A_RAMP_NS,
				    KIOBENCH_A_INTERVAL_NS, KIOBENCH_A_SEED };
	uint64_t v = edge_u64(0, 1ULL << 40);

	switch (below(8)) {
	case 0: put_u32(m, KIOBENCH_A_IODEPTH, edge_u64(1, 4096)); break;
	case 1: put_u32(m, KIOBENCH_A_NUMJOBS, edge_u64(1, 256)); break;
	case 2: put_u8(m, KIOBENCH_A_RWMIX_READ, edge_u64(0, 100)); break;
	case 3: put_u64(m, u64s[below(8)], v); break;
	case 4: put(m, u64s[below(8)], &v, below(9)); break;	/* wrong width */
	case 5: {	/* cpus: random entries, random length */
		uint32_t c[8];

		for (size_t j = 0; j < 8; j++)
			c[j] = chance(50) ? below(4) : rnd();
		put(m, KIOBENCH_A_CPUS, c, below(33));
		break;
	}
	case 6: {	/* a name without NUL or too long */
		char n[64];

		memset(n, 'a' + below(26), sizeof(n));
		put(m, KIOBENCH_A_JOB_NAME, n, below(sizeof(n)));
		break;
	}
	default:	/* flags with a payload, unknown attributes */
		put_u32(m, chance(50) ? KIOBENCH_A_RANDOM : KIOBENCH_A_MAX + 1 + below(20),
			rnd());
		break;
	}
}

static void gen_job_new(struct msg *m, bool mutate)
{
	int nd = 1 + below(mutate ? 3 : 2), i;
	bool writes = chance(30);

	gen_devices(m, nd, mutate);
	if (chance(50))
		put_str(m, KIOBENCH_A_JOB_NAME, "fuzz");
	if (chance(50))
		put(m, KIOBENCH_A_RANDOM, NULL, 0);
	if (writes) {
		put(m, KIOBENCH_A_ALLOW_WRITES, NULL, 0);
		put_u8(m, KIOBENCH_A_RWMIX_READ, below(100));
	}
	if (chance(30))
		gen_bssplit(m, mutate);
	if (chance(15))
		gen_zones(m, mutate);
	put_u32(m, KIOBENCH_A_IODEPTH, 1 + below(8));
	if (chance(30))
		put_u32(m, KIOBENCH_A_NUMJOBS, 1 + below(2));
	if (chance(20)) {
		uint32_t c[2] = { below(2), below(2) };

		put(m, KIOBENCH_A_CPUS, c, 4 + 4 * below(2));
	}
	/* limits: keep valid jobs short */
	switch (below(4)) {
	case 0: put_u64(m, KIOBENCH_A_NUMBER_IOS, 1 + below(2000)); break;
	case 1: put_u64(m, KIOBENCH_A_RUNTIME_NS, (1 + below(500)) * 1000000ULL); break;
	case 2: put_u64(m, KIOBENCH_A_IO_BYTES, (1 + below(512)) * 4096); break;
	default: put_u64(m, KIOBENCH_A_SIZE, (1 + below(256)) * 4096); break;
	}
	if (chance(20))
		put_u64(m, KIOBENCH_A_RAMP_NS, below(100) * 1000000ULL);
	if (chance(20))
		put_u64(m, KIOBENCH_A_SEED, rnd());
	if (chance(10))
		put(m, KIOBENCH_A_CONTINUE_ON_ERROR, NULL, 0);
	if (!mutate)
		return;
	/* one to three mutations: out-of-range values, wrong widths, dups */
	for (i = 0, nd = 1 + below(3); i < nd; i++)
		gen_mutation(m);
}

static uint32_t pick_id(void)
{
	static const uint32_t odd[] = { 0, 1, 64, 65, 0x7fffffff, 0x80000000, UINT32_MAX };

	/* Same draws whatever the kernel answered before: the stream of
	 * random numbers, hence of messages, depends on the seed only. */
	uint64_t kind = below(100), pick = rnd();

	if (nr_tracked && kind < 75)
		return tracked[pick % nr_tracked];
	return kind % 2 ? odd[pick % 7] : (uint32_t)(pick % 200);
}

static void gen_garbage_attrs(struct msg *m, int depth)
{
	int n = below(8), i;

	for (i = 0; i < n; i++) {
		unsigned char b[64];
		uint16_t type = chance(80) ? below(KIOBENCH_A_MAX + 4) : rnd();

		if (depth < 3 && chance(15)) {
			nest_start(m, type);
			gen_garbage_attrs(m, depth + 1);
			nest_end(m);
			continue;
		}
		for (size_t j = 0; j < sizeof(b); j++)
			b[j] = rnd();
		if (chance(30))
			type |= NLA_F_NESTED;
		put(m, type, b, below(chance(70) ? 9 : sizeof(b)));
	}
}

/* ---- attributes drawn from the spec ------------------------------------- */

/*
 * Whatever the spec says a request takes, with no list kept here: the
 * attributes, their types, checks and nests come from tools/nl-names.h,
 * generated from the spec, so that a new attribute is fuzzed as soon as
 * the spec has it.  Values are boundaries: 0, 1, the spec's min - 1, min,
 * max, max + 1 (an enum's last value and the next), the type's largest,
 * 2^32 - 1, 2^64 - 1 cut to the width, and random ones; sometimes the
 * wrong width.
 */
static unsigned int spec_width(enum kb_nl_type t)
{
	switch (t) {
	case KB_NLT_U8: case KB_NLT_S8: return 1;
	case KB_NLT_U16: case KB_NLT_S16: return 2;
	case KB_NLT_U32: case KB_NLT_S32: return 4;
	case KB_NLT_U64: case KB_NLT_S64: return 8;
	default: return 0;
	}
}

static uint64_t spec_edge(const struct kb_nl_attr *a, unsigned int width)
{
	uint64_t top = width == 8 ? UINT64_MAX : (1ULL << (8 * width)) - 1;
	uint64_t v;

	switch (below(10)) {
	case 0: v = 0; break;
	case 1: v = 1; break;
	case 2: v = a->min ? a->min - 1 : 2; break;
	case 3: v = a->min; break;
	case 4: v = a->max ? a->max : top; break;
	case 5: v = a->max ? a->max + 1 : top / 2 + 1; break;
	case 6: v = top; break;
	case 7: v = UINT32_MAX; break;
	case 8: v = UINT64_MAX; break;
	default: v = rnd(); break;
	}
	return v & top;
}

/* A length for a string or binary attribute: around its max-len, or not. */
static size_t spec_len(const struct kb_nl_attr *a, size_t room)
{
	size_t max = a->max_len ? a->max_len : 256, n;

	switch (below(6)) {
	case 0: n = 0; break;
	case 1: n = 1 + below(8); break;
	case 2: n = max; break;
	case 3: n = max + 1; break;
	case 4: n = 4 * below(9); break;
	default: n = below(max + 2); break;
	}
	return n < room ? n : room;
}

static void spec_attr(struct msg *m, const struct kb_nl_attr *set, unsigned int type,
		      int depth);

static bool spec_drawn[KIOBENCH_A_MAX + 1];	/* the top-level ones drawn */

/* "drawn/all" of the request attributes of the spec's commands. */
static void print_spec_drawn(void)
{
	unsigned int drawn = 0, all = 0, c, t;
	bool req[KIOBENCH_A_MAX + 1] = { false };

	for (c = 0; c <= KIOBENCH_CMD_MAX; c++)
		for (t = 0; kb_nl_cmd_req[c] && kb_nl_cmd_req[c][t]; t++)
			req[kb_nl_cmd_req[c][t]] = true;
	for (t = 0; t <= KIOBENCH_A_MAX; t++) {
		all += req[t];
		drawn += req[t] && spec_drawn[t];
	}
	printf("spec-attrs=%u/%u", drawn, all);
	for (t = 0; t <= KIOBENCH_A_MAX; t++)
		if (req[t] && !spec_drawn[t])
			printf(" undrawn=%s", kb_nl_attrs[t].name);
	printf("\n");
}

/* A nest of 0-5 attributes of its set, or an empty or garbage one. */
static void spec_nest(struct msg *m, const struct kb_nl_attr *a, unsigned int type, int depth)
{
	int n = below(6), i;

	nest_start(m, type);
	if (depth < 4 && chance(90)) {
		for (i = 0; i < n; i++)
			spec_attr(m, a->nest, 1 + below(a->nest_max), depth + 1);
	} else {
		gen_garbage_attrs(m, 3);
	}
	nest_end(m);
}

static void spec_attr(struct msg *m, const struct kb_nl_attr *set, unsigned int type,
		      int depth)
{
	const struct kb_nl_attr *a = &set[type];
	unsigned char b[BUFSZ / 2];
	unsigned int w = spec_width(a->type);
	size_t room = sizeof(m->buf) - 256 > m->len ? sizeof(m->buf) - 256 - m->len : 0;
	size_t n, j;
	uint64_t v = rnd();

	room = room < sizeof(b) ? room : sizeof(b);
	if (chance(5)) {		/* any width, any bytes */
		n = below(17);
		for (j = 0; j < n; j++)
			b[j] = rnd();
		put(m, type, b, n);
		return;
	}
	switch (a->type) {
	case KB_NLT_FLAG:
		put(m, type, &v, chance(10) ? 4 : 0);
		break;
	case KB_NLT_NEST:
		if (a->nest) {
			spec_nest(m, a, type, depth);
			break;
		}
		/* a nest without its set: bytes, as binary */
		__attribute__((fallthrough));
	case KB_NLT_STRING:
	case KB_NLT_BINARY:
	case KB_NLT_UNUSED:
	case KB_NLT_PAD:
		n = spec_len(a, room);
		for (j = 0; j < n; j++)	/* printable mostly, NUL-ended mostly */
			b[j] = chance(90) ? 'a' + below(26) : rnd();
		if (n && a->type == KB_NLT_STRING && chance(80))
			b[n - 1] = 0;
		put(m, type, b, n);
		break;
	default:
		v = spec_edge(a, w);
		put(m, type, &v, chance(5) ? below(9) : w);	/* little-endian */
		break;
	}
}

/*
 * A command of the spec with attributes its request takes: a job-new is a
 * valid job (gen_job_new) plus one to four of them; another command gets
 * a tracked or odd job id and up to three more.
 */
static void gen_spec_cmd(struct msg *m, uint16_t flags)
{
	static const uint8_t cmds[] = { KIOBENCH_CMD_JOB_NEW, KIOBENCH_CMD_JOB_NEW,
					KIOBENCH_CMD_JOB_START, KIOBENCH_CMD_JOB_STOP,
					KIOBENCH_CMD_JOB_GET, KIOBENCH_CMD_JOB_DEL,
					KIOBENCH_CMD_JOB_REPLAY };
	uint8_t cmd = cmds[below(sizeof(cmds))];
	const unsigned short *req = kb_nl_cmd_req[cmd];
	int nreq = 0, n, i;

	while (req && req[nreq])
		nreq++;
	msg_init(m, family, flags, cmd);
	if (cmd == KIOBENCH_CMD_JOB_NEW) {
		gen_job_new(m, false);
		n = 1 + below(4);
	} else {
		put_u32(m, KIOBENCH_A_JOB_ID, pick_id());
		n = below(4);
	}
	for (i = 0; i < n && nreq; i++) {
		unsigned short type = req[below(nreq)];

		spec_drawn[type] = true;
		spec_attr(m, kb_nl_attrs, type, 0);
	}
}

/* Builds one fuzz message into m; returns the number of bytes to send. */
/* A job op on a tracked or odd id. */
static void gen_job_op(struct msg *m, uint16_t flags)
{
	static const uint8_t ops[] = { KIOBENCH_CMD_JOB_START, KIOBENCH_CMD_JOB_STOP,
				       KIOBENCH_CMD_JOB_GET, KIOBENCH_CMD_JOB_DEL };

	msg_init(m, family, flags, ops[below(4)]);
	if (chance(90)) {
		uint32_t id = pick_id();

		if (chance(10))
			put(m, KIOBENCH_A_JOB_ID, &id, below(8));	/* wrong width */
		else
			put_u32(m, KIOBENCH_A_JOB_ID, id);
		if (chance(5))
			put_u32(m, KIOBENCH_A_JOB_ID, pick_id());	/* twice */
	}
	if (chance(10))
		gen_garbage_attrs(m, 0);
}

/* A random command with garbage attributes. */
static void gen_random_cmd(struct msg *m, uint16_t flags)
{
	uint8_t cmd = chance(70) ? below(KIOBENCH_CMD_MAX + 3) : rnd();

	if (chance(10))
		flags |= NLM_F_DUMP;
	msg_init(m, family, flags, cmd);
	gen_garbage_attrs(m, 0);
	if (chance(20)) {		/* duplicate the first attribute */
		size_t at = NLMSG_HDRLEN + GENL_HDRLEN;

		if (m->len > at + NLA_HDRLEN) {
			struct nlattr *a = (struct nlattr *)(m->buf + at);

			put(m, a->nla_type, m->buf + at + NLA_HDRLEN, a->nla_len - NLA_HDRLEN);
		}
	}
}

/* A truncated or lying header; returns the length to send. */
static size_t gen_bad_header(struct msg *m, uint16_t flags)
{
	msg_init(m, family, flags, below(KIOBENCH_CMD_MAX + 1));
	gen_garbage_attrs(m, 0);
	msg_finish(m);
	switch (below(4)) {
	case 0:	/* nlmsg_len shorter than the header */
		((struct nlmsghdr *)m->buf)->nlmsg_len = below(NLMSG_HDRLEN);
		return m->len;
	case 1:	/* genl header cut */
		((struct nlmsghdr *)m->buf)->nlmsg_len = NLMSG_HDRLEN + below(GENL_HDRLEN);
		return NLMSG_HDRLEN + below(GENL_HDRLEN + 1);
	case 2:	/* nlmsg_len beyond the datagram */
		((struct nlmsghdr *)m->buf)->nlmsg_len = m->len + 1 + below(100);
		return m->len;
	default: /* last attribute cut */
		if (m->len > NLMSG_HDRLEN + GENL_HDRLEN + 1) {
			size_t n = m->len - 1 - below(3);

			((struct nlmsghdr *)m->buf)->nlmsg_len = n;
			return n;
		}
		return m->len;
	}
}

static size_t gen_message(struct msg *m, unsigned int *kind)
{
	uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;

	*kind = below(100);
	if (*kind < 25) {			/* a job op on a tracked or odd id */
		gen_job_op(m, flags);
	} else if (*kind < 40) {		/* a valid job */
		msg_init(m, family, flags, KIOBENCH_CMD_JOB_NEW);
		gen_job_new(m, false);
	} else if (*kind < 50) {		/* a job with mutations */
		msg_init(m, family, flags, KIOBENCH_CMD_JOB_NEW);
		gen_job_new(m, true);
	} else if (*kind < 70) {		/* the spec's attributes at their edges */
		gen_spec_cmd(m, flags);
	} else if (*kind < 80) {		/* random command, garbage attributes */
		gen_random_cmd(m, flags);
	} else if (*kind < 85) {		/* dumps */
		msg_init(m, family, flags | NLM_F_DUMP, KIOBENCH_CMD_JOB_GET);
		if (chance(30))
			gen_garbage_attrs(m, 0);
	} else if (*kind < 92) {		/* random bytes after the header */
		size_t n = below(200);

		msg_init(m, family, chance(50) ? flags : (uint16_t)rnd(), below(256));
		for (size_t i = 0; i < n; i++)
			m->buf[m->len + i] = rnd();
		m->len += n;
	} else {				/* truncated or lying headers */
		return gen_bad_header(m, flags);
	}
	msg_finish(m);
	return m->len;
}

/* A request whose ack proves that the replies before it were all read. */
static bool probe(void)
{
	struct msg m;
	struct ack ack;

	msg_init(&m, family, NLM_F_REQUEST | NLM_F_ACK, KIOBENCH_CMD_GET_FEATURES);
	msg_finish(&m);
	send_raw(m.buf, m.len);
	if (!read_replies(((struct nlmsghdr *)m.buf)->nlmsg_seq, &m, &ack, track_reply, NULL,
			  120000))
		return false;
	if (ack.err)
		fprintf(stderr, "nlfuzz: probe failed: %s\n", strerror(ack.err));
	return !ack.err;
}

/*
 * Message i of the fuzz run: sent, its replies read, then the probe if its
 * ack did not come at once.  false if a job could not be destroyed (*ok) or
 * the probe got no answer (return).
 */
static bool fuzz_one(unsigned long i, uint64_t seed, unsigned long kinds[8], bool *ok)
{
	unsigned int kind;
	struct msg m;
	struct ack ack;
	size_t len;
	uint32_t want;
	bool answered;

	/* Keep few jobs alive: each has kthreads and buffers. */
	while (nr_tracked >= 8) {	/* the oldest: no random draw */
		uint32_t id = tracked[0];

		if (!destroy(id))
			*ok = false;
		untrack(id);
	}
	len = gen_message(&m, &kind);
	want = ((struct nlmsghdr *)m.buf)->nlmsg_seq;
	kinds[kind * 8 / 100]++;
	send_raw(m.buf, len);
	/*
	 * The ack of a well-formed request (a dump's NLMSG_DONE) comes at
	 * once, after every reply to it: nothing more of it can come, and the
	 * kernel answered.  The
	 * others get the probe, whose ack proves both.  (A probe after every
	 * message took 37 of the 160 s of 10,000 in a debug guest.)
	 */
	answered = read_replies(want, &m, &ack, track_reply, NULL, 0);
	if (answered) {
		if (ack.err < 256)
			stats_err[ack.err]++;
		if (!ack.err)
			stats_ok++;
		if (m.buf[NLMSG_HDRLEN] == KIOBENCH_CMD_JOB_DEL && !ack.err &&
		    len >= NLMSG_HDRLEN + GENL_HDRLEN + 8) {
			/* the id of a successful DEL is the first attribute */
			uint32_t id;

			memcpy(&id, m.buf + NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN, 4);
			untrack(id);
		}
	} else {
		stats_noack++;
	}
	if (!answered && !probe()) {
		fprintf(stderr, "nlfuzz: message %lu (seed %" PRIu64 "): no answer to the "
			"probe after it\n", i, seed);
		return false;
	}
	return true;
}

/* ---- device removal in the middle (fuzz --hook) --------------------------- */

/*
 * fuzz --hook=CMD --hook-every=N: every N messages a removal step
 * (removal_step()) runs `sh -c CMD` twice: the first run must remove the
 * last DEV (null_blk: power=0, rmdir), the second bring it back under the
 * same path.  The steps draw no random number: message i of a seed is the
 * same with removals as without.
 */
static const char *hook_cmd;
static unsigned long hook_every, hook_failed, removals, removed_failed, removed_live;
static pid_t hook_pid = -1;

/* Waits for the hook started last, if any. */
static void hook_wait(void)
{
	int st;

	if (hook_pid < 0)
		return;
	if (waitpid(hook_pid, &st, 0) < 0)
		die("waitpid");
	hook_pid = -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "nlfuzz: hook %s failed (status %#x)\n", hook_cmd, st);
		hook_failed++;
	}
}

/* Starts the hook, once the one before has ended; returns at once. */
static void hook_start(void)
{
	hook_wait();
	fflush(NULL);
	hook_pid = fork();
	if (hook_pid < 0)
		die("fork");
	if (!hook_pid) {
		execl("/bin/sh", "sh", "-c", hook_cmd, (char *)NULL);
		_exit(127);
	}
}

/*
 * One well-formed request of a removal step, read to its ack (a job a
 * reply names is tracked, so destroyed later); its errno, counted.
 */
static int step_req(struct msg *m)
{
	struct ack ack;

	msg_finish(m);
	send_raw(m->buf, m->len);
	if (!read_replies(((struct nlmsghdr *)m->buf)->nlmsg_seq, m, &ack, track_reply, NULL,
			  120000)) {
		fprintf(stderr, "nlfuzz: removal step: no ack to command %u\n",
			m->buf[NLMSG_HDRLEN]);
		exit(2);
	}
	if (ack.err < 256)
		stats_err[ack.err]++;
	if (!ack.err)
		stats_ok++;
	return ack.err;
}

/* A JOB_NEW on @dev (the last one tracked is the job made); its id or 0. */
static uint32_t step_new(const char *dev, uint32_t replay_nr, bool locality, uint64_t runtime_ns)
{
	static struct msg m;
	size_t before = nr_tracked;

	msg_init(&m, family, NLM_F_REQUEST | NLM_F_ACK, KIOBENCH_CMD_JOB_NEW);
	nest_start(&m, KIOBENCH_A_DEVICES);
	put_str(&m, KIOBENCH_DEV_A_PATH, dev);
	nest_end(&m);
	put(&m, KIOBENCH_A_RANDOM, NULL, 0);
	put_u32(&m, KIOBENCH_A_IODEPTH, 8);
	if (locality)
		put(&m, KIOBENCH_A_LOCALITY, NULL, 0);
	if (replay_nr)
		put_u32(&m, KIOBENCH_A_REPLAY_NR, replay_nr);
	else if (runtime_ns)
		put_u64(&m, KIOBENCH_A_RUNTIME_NS, runtime_ns);
	else
		put_u64(&m, KIOBENCH_A_NUMBER_IOS, 1000);
	if (step_req(&m) || nr_tracked == before)
		return 0;
	return tracked[nr_tracked - 1];
}

static int step_op(uint8_t cmd, uint32_t id)
{
	static struct msg m;

	msg_init(&m, family, NLM_F_REQUEST | NLM_F_ACK, cmd);
	put_u32(&m, KIOBENCH_A_JOB_ID, id);
	return step_req(&m);
}

#define STEP_PIECE	64	/* entries of one JOB_REPLAY of a removal step */

/* Piece @p (of three) of a removal step's replay job @id. */
static int step_piece(uint32_t id, uint32_t p)
{
	static struct msg m;

	upload_piece(&m, id, p * STEP_PIECE, STEP_PIECE);
	return step_req(&m);
}

/* Waits (30 s at most) for @id to leave RUNNING; FAILED counted, as ENODEV. */
static void step_wait_end(uint32_t id)
{
	struct job_status st;

	for (int i = 0; i < 300 && job_status(id, &st); i++) {
		if (st.state != KIOBENCH_STATE_RUNNING) {
			if (st.state == KIOBENCH_STATE_FAILED && st.error == -ENODEV)
				removed_failed++;
			return;
		}
		usleep(100000);
	}
	removed_live++;
	fprintf(stderr, "nlfuzz: job %u still runs 30 s after its device was removed\n", id);
}

/*
 * A removal step: on the last DEV a job runs (locality on every other
 * step: its I/O looks up hardware queues), a job is made to be started
 * after the removal, and a replay job has the first of the three pieces
 * of its log.  The hook removes the device; meanwhile the second piece
 * and a JOB_NEW on the device race it; once it is gone the third piece,
 * the starts and the running job's end (FAILED, ENODEV).  Every other
 * step the socket is then closed, so that its jobs are reaped with their
 * device gone, and reopened.  The hook brings the device back while the
 * fuzzing goes on.
 */
static void removal_step(unsigned long step)
{
	const char *dev = devs[nr_devs - 1];
	uint32_t run, idle, rep;

	hook_wait();		/* the device is back */
	/* room for the step's jobs (fuzz_one() keeps at most 8) */
	while (nr_tracked > 4) {
		uint32_t id = tracked[0];

		destroy(id);
		untrack(id);
	}
	removals++;
	run = step_new(dev, 0, step % 2, 20000000000ULL);
	if (run)
		step_op(KIOBENCH_CMD_JOB_START, run);
	idle = step_new(dev, 0, !(step % 2), 0);
	rep = step_new(dev, 3 * STEP_PIECE, false, 0);
	if (rep)
		step_piece(rep, 0);
	hook_start();				/* the removal */
	if (rep)
		step_piece(rep, 1);
	step_new(dev, 0, true, 0);
	hook_wait();
	if (rep) {
		step_piece(rep, 2);
		step_op(KIOBENCH_CMD_JOB_START, rep);
	}
	if (idle) {
		step_op(KIOBENCH_CMD_JOB_START, idle);
		step_wait_end(idle);
	}
	if (run)
		step_wait_end(run);
	if (step % 2) {		/* the socket's jobs go with it */
		close(sock);
		open_socket();
	}
	hook_start();				/* the device back */
}

static int cmd_fuzz(int argc, char **argv)
{
	unsigned long count, i, kinds[8] = { 0 };
	uint64_t seed;
	struct idlist dump = { .n = 0 };
	bool ok = true;

	for (; argc && !strncmp(argv[0], "--hook", 6); argc--, argv++) {
		if (!strncmp(argv[0], "--hook=", 7))
			hook_cmd = argv[0] + 7;
		else if (!strncmp(argv[0], "--hook-every=", 13))
			hook_every = strtoul(argv[0] + 13, NULL, 0);
	}
	if (argc < 3 || !hook_cmd != !hook_every) {
		fprintf(stderr, "usage: nlfuzz fuzz [--hook=CMD --hook-every=N] SEED COUNT DEV...\n");
		return 2;
	}
	seed = strtoull(argv[0], NULL, 0);
	count = strtoul(argv[1], NULL, 0);
	devs = argv + 2;
	nr_devs = argc - 2;
	rng_s = seed;
	/*
	 * A job the fuzzer started may have hundreds of workers busy on a
	 * device that never waits: at nice 0 they starved the fuzzer (215
	 * runnable tasks in the debug guest), which took most of a minute to
	 * get round to destroying the job.  SCHED_FIFO: 163 s -> 128 s for
	 * the 10,000 messages there.
	 */
	if (sched_setscheduler(0, SCHED_FIFO, &(struct sched_param){ .sched_priority = 1 }))
		die("sched_setscheduler");
	open_socket();
	for (i = 0; i < count; i++) {
		if (hook_cmd && i % hook_every == hook_every / 2)
			removal_step(i / hook_every);
		if (!fuzz_one(i, seed, kinds, &ok))
			return 2;
	}
	hook_wait();
	/* Jobs that exist must be ones this fuzzer created. */
	if (!list_jobs(&dump)) {
		fprintf(stderr, "nlfuzz: final dump failed\n");
		return 2;
	}
	for (size_t d = 0; d < dump.n; d++) {
		bool known = false;

		for (size_t t = 0; t < nr_tracked; t++)
			known |= tracked[t] == dump.ids[d];
		if (!known) {
			fprintf(stderr, "nlfuzz: job %u exists but no JOB_NEW reply created it\n",
				dump.ids[d]);
			ok = false;
		}
	}
	for (size_t d = 0; d < dump.n; d++)
		if (!destroy(dump.ids[d]))
			ok = false;
	printf("seed=%" PRIu64 " messages=%lu acked-ok=%lu no-ack=%lu created=%lu "
	       "left=%zu malformed-replies=%lu lost-replies=%lu\n", seed, count, stats_ok,
	       stats_noack, stats_created, dump.n, malformed, lost);
	if (hook_cmd)
		printf("removals=%lu removed-failed=%lu removed-live=%lu hook-failed=%lu\n",
		       removals, removed_failed, removed_live, hook_failed);
	printf("kinds:");
	for (i = 0; i < 8; i++)
		printf(" %lu", kinds[i]);
	printf("\nerrnos:");
	for (i = 1; i < 256; i++)
		if (stats_err[i])
			printf(" %s=%lu", strerrorname_np(i), stats_err[i]);
	printf("\n");
	print_spec_drawn();
	return ok && !malformed && !lost && !removed_live && !hook_failed ? 0 : 1;
}

/* ---- privileges ---------------------------------------------------------- */

static int cmd_join(void)
{
	open_socket();
	if (!mcgrp_events) {
		fprintf(stderr, "nlfuzz: no multicast group %s\n", KIOBENCH_MCGRP_EVENTS);
		return 2;
	}
	if (setsockopt(sock, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &mcgrp_events,
		       sizeof(mcgrp_events))) {
		printf("join errno=%d name=%s\n", errno, strerrorname_np(errno));
		return 1;
	}
	printf("joined\n");
	return 0;
}

/* One JOB_NTF: "event" and each top-level attribute as the spec names it. */
static void print_event(const struct nlmsghdr *h)
{
	size_t at = NLMSG_HDRLEN + GENL_HDRLEN;

	printf("event");
	while (at + NLA_HDRLEN <= h->nlmsg_len) {
		const struct nlattr *a = (const struct nlattr *)((const char *)h + at);
		const unsigned char *d = (const unsigned char *)a + NLA_HDRLEN;
		unsigned int type = a->nla_type & NLA_TYPE_MASK;
		int len = a->nla_len - NLA_HDRLEN;
		const char *name = type <= KIOBENCH_A_MAX ? kb_nl_attrs[type].name : NULL;
		uint64_t v = 0;
		int32_t sv;

		if (a->nla_len < NLA_HDRLEN || at + a->nla_len > h->nlmsg_len)
			break;
		at += NLA_ALIGN(a->nla_len);
		if (!name)
			continue;
		switch (kb_nl_attrs[type].type) {
		case KB_NLT_FLAG:
			printf(" %s", name);
			break;
		case KB_NLT_U8:
		case KB_NLT_U16:
		case KB_NLT_U32:
		case KB_NLT_U64:
			memcpy(&v, d, len > 8 ? 8 : len);
			printf(" %s=%" PRIu64, name, v);
			break;
		case KB_NLT_S32:
			memcpy(&sv, d, 4);
			printf(" %s=%d", name, sv);
			break;
		case KB_NLT_STRING:
			printf(" %s=%.*s", name, len > 0 ? len - 1 : 0, (const char *)d);
			break;
		case KB_NLT_BINARY:	/* cpus: u32[] */
			printf(" %s=", name);
			for (int i = 0; i + 4 <= len; i += 4) {
				uint32_t c;

				memcpy(&c, d + i, 4);
				printf("%s%u", i ? "," : "", c);
			}
			break;
		default:
			printf(" %s=nest", name);
		}
	}
	printf("\n");
}

/*
 * nlfuzz listen COUNT: joins "events", prints "listening", then each
 * JOB_NTF (print_event()) until COUNT were printed; exit 1 after 60 s.
 */
static int cmd_listen(int count)
{
	static unsigned char buf[BUFSZ];
	time_t end = time(NULL) + 60;

	if (cmd_join())
		return 1;
	printf("listening\n");
	while (count > 0 && time(NULL) < end) {
		struct pollfd pfd = { .fd = sock, .events = POLLIN };
		ssize_t n;
		size_t at = 0;

		if (poll(&pfd, 1, 1000) <= 0)
			continue;
		n = recv(sock, buf, sizeof(buf), 0);
		if (n < 0)
			die("recv");
		while (at + NLMSG_HDRLEN <= (size_t)n) {
			const struct nlmsghdr *h = (const struct nlmsghdr *)(buf + at);

			if (h->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN || at + h->nlmsg_len > (size_t)n)
				break;
			if (h->nlmsg_type == family &&
			    ((const struct genlmsghdr *)NLMSG_DATA(h))->cmd == KIOBENCH_CMD_JOB_NTF &&
			    count-- > 0)
				print_event(h);
			at += NLMSG_ALIGN(h->nlmsg_len);
		}
	}
	return count > 0;
}

static __attribute__((noreturn)) void cmd_hold(const char *path)
{
	int fd = open(path, O_RDWR | O_EXCL);

	if (fd < 0)
		die(path);
	printf("held\n");
	for (;;)
		pause();
}

static int cmd_as_user(int argc, char **argv)
{
	uid_t uid;

	if (argc < 2)
		return 2;
	uid = strtoul(argv[0], NULL, 0);
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
		die("setuid");
	execvp(argv[1], argv + 1);
	die(argv[1]);
	return 2;
}

static int cmd_without_cap(int argc, char **argv)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	int cap;

	if (argc < 2)
		return 2;
	cap = strtol(argv[0], NULL, 0);
	if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0))
		die("PR_CAPBSET_DROP");
	if (syscall(SYS_capget, &hdr, data))
		die("capget");
	data[cap / 32].effective &= ~(1U << (cap % 32));
	data[cap / 32].permitted &= ~(1U << (cap % 32));
	data[cap / 32].inheritable &= ~(1U << (cap % 32));
	if (syscall(SYS_capset, &hdr, data))
		die("capset");
	execvp(argv[1], argv + 1);
	die(argv[1]);
	return 2;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && !strcmp(argv[1], "req"))
		return cmd_req(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "upload"))
		return cmd_upload(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "fuzz"))
		return cmd_fuzz(argc - 2, argv + 2);
	if (argc == 2 && !strcmp(argv[1], "join"))
		return cmd_join();
	if (argc == 3 && !strcmp(argv[1], "listen"))
		return cmd_listen(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "hold"))
		cmd_hold(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "family"))
		return cmd_family(argv[2]);
	if (argc >= 2 && !strcmp(argv[1], "as-user"))
		return cmd_as_user(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "without-cap"))
		return cmd_without_cap(argc - 2, argv + 2);
	fprintf(stderr, "usage: nlfuzz req|upload|fuzz|join|listen|family|hold|as-user|without-cap ...\n");
	return 2;
}
