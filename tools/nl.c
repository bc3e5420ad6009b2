// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink client for the "kiobench" family (libnl-genl-3).
 *
 * Two sockets: one for requests (strict sequence checking, every "do"
 * request ends with an ACK or an error carrying the kernel's extended ACK
 * message), one joined to the "events" multicast group for JOB_NTF.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "distrib.h"
#include "fiolog.h"
#include "kiobench.h"
#include "nl-names.h"
#include "nl.h"
#include "options.h"
#include "replay.h"
#include "result.h"
#include "values.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/*
 * The parse policies, from the spec's types (tools/nl-names.h, generated):
 * no attribute's type is written down twice.  Signed types travel as their
 * unsigned size; binary is checked by its reader.
 */
static struct nla_policy kb_policy[KIOBENCH_A_MAX + 1];
static struct nla_policy kb_stat_policy[KIOBENCH_STAT_A_MAX + 1];
static struct nla_policy kb_bss_policy[KIOBENCH_BSS_A_MAX + 1];
static struct nla_policy kb_zone_policy[KIOBENCH_ZONE_A_MAX + 1];

static uint16_t nla_type_of(enum kb_nl_type t)
{
	switch (t) {
	case KB_NLT_FLAG:	return NLA_FLAG;
	case KB_NLT_U8:
	case KB_NLT_S8:		return NLA_U8;
	case KB_NLT_U16:
	case KB_NLT_S16:	return NLA_U16;
	case KB_NLT_U32:
	case KB_NLT_S32:	return NLA_U32;
	case KB_NLT_U64:
	case KB_NLT_S64:	return NLA_U64;
	case KB_NLT_STRING:	return NLA_STRING;
	case KB_NLT_NEST:	return NLA_NESTED;
	default:		return NLA_UNSPEC;
	}
}

static void fill_policy(struct nla_policy *p, const struct kb_nl_attr *a, int max)
{
	int i;

	for (i = 0; i <= max; i++)
		p[i].type = nla_type_of(a[i].type);
}

static void init_policies(void)
{
	fill_policy(kb_policy, kb_nl_attrs, KIOBENCH_A_MAX);
	fill_policy(kb_stat_policy, kb_nl_stats_attrs, KIOBENCH_STAT_A_MAX);
	fill_policy(kb_bss_policy, kb_nl_bssplit_attrs, KIOBENCH_BSS_A_MAX);
	fill_policy(kb_zone_policy, kb_nl_zone_attrs, KIOBENCH_ZONE_A_MAX);
}

/*
 * The request attributes that no option's .attr names (tools/options.c):
 * kb_nl_job_new() and kb_nl_job_cmd() put them by code, for the reason
 * given.  tool_test fails on a request attribute of the spec that is in
 * neither.  label: the options that set it, to name it in kernel errors.
 */
const struct kb_nl_by_code kb_nl_by_code[] = {
	{ KIOBENCH_A_JOB_NAME, "name", "a string: the name, else kiobench" },
	{ KIOBENCH_A_DEVICES, "filename", "a nest of the devices' paths" },
	{ KIOBENCH_A_RANDOM, "rw", "from rw: its random offsets" },
	{ KIOBENCH_A_RWMIX_READ, "rwmixread", "always, from rw and rwmixread: 100 for "
	  "read, 0 for write (kb_job_rwmix_read)" },
	{ KIOBENCH_A_ALLOW_WRITES, "allow-writes", "from rw: a job that writes (the command "
	  "checked --allow-writes)" },
	{ KIOBENCH_A_TRIM_MODE, "rw", "from rw: trim, randtrim (trim), trimwrite, "
	  "randtrimwrite (trimwrite)" },
	{ KIOBENCH_A_FSYNC, "fsync/fdatasync", "one flush interval for both, for a job that "
	  "writes (kb_job_fsync)" },
	{ KIOBENCH_A_END_FSYNC, "end_fsync", "for a job that writes only (fio syncs after "
	  "a write stage)" },
	{ KIOBENCH_A_ZONE_APPEND, "write_mode", "write_mode=zone_append; the option's own "
	  "attribute is write_zeroes" },
	{ KIOBENCH_A_ZONE_OP, "rw/zone_mgmt", "rw=zone_reset, zone_open, zone_close, "
	  "zone_finish, zone_reset_all; zone_mgmt: reset, beside writes (kb_job_zone_op)" },
	{ KIOBENCH_A_BSSPLIT, "bs/bssplit", "a nest of sizes and weights: bssplit, else bs" },
	{ KIOBENCH_A_BSSPLIT_WRITE, "bs/bssplit", "the writes' own sizes: bs's, bssplit's or "
	  "bsrange's second value" },
	{ KIOBENCH_A_BSSPLIT_TRIM, "bs/bssplit", "the trims' own sizes: the third value" },
	{ KIOBENCH_A_BSRANGE, "bsrange", "the directions whose sizes are a range, low and "
	  "high, where bsrange's outnumber the table" },
	{ KIOBENCH_A_CPUS, "cpus_allowed", "an array of CPU numbers" },
	{ KIOBENCH_A_CPUS_SHARED, "cpus_allowed_policy", "with a set under fio's default "
	  "policy, shared; split gives a run's job one CPU, a sweep's workers one each" },
	{ KIOBENCH_A_IO_BYTES, "io_size/size", "fio's bytes to transfer over its rounds: of "
	  "size each, within io_size (else size) times loops, loops of them and more while "
	  "io_size is not done; none when time_based (kb_job_io_bytes)" },
	{ KIOBENCH_A_LAT_LOG, "lat_log_entries", "only when a log wants the per-I/O log "
	  "(kb_job_wants_io_log); the option has a default" },
	{ KIOBENCH_A_LAT_LOG_ALL, "write_iolog", "a flag when the job writes fio's iolog, "
	  "whose option is a file name" },
	{ KIOBENCH_A_DETACH, "detach/keep", "the command's --detach or --keep, not a job's" },
	{ KIOBENCH_A_RATE_IOPS, "rate_iops", "when not zero: rate sets it too, unmarked "
	  "(kb_job_check); the reads' when rate_iops_write is given" },
	{ KIOBENCH_A_RATE_IOPS_WRITE, "rate_iops/rate", "the writes' own rate of a mix of "
	  "reads and writes whose two directions are rated (kb_job_check)" },
	{ KIOBENCH_A_COMPLETION, "hipri/spin", "the mode of hipri or spin, when not sleep" },
	{ KIOBENCH_A_NORANDOMMAP, "norandommap", "with random offsets only, and not with "
	  "random_generator=lfsr (kb_job_norandommap)" },
	{ KIOBENCH_A_PRIOCLASS, "prioclass", "when not 0; best-effort when prio is given "
	  "alone (fio)" },
	{ KIOBENCH_A_PRIO, "prio", "when not 0: the kernel's default, and a module older "
	  "than 0.6 refuses it" },
	{ KIOBENCH_A_CMDPRIO_PERCENTAGE, "cmdprio_percentage", "the reads' of fio's R,W "
	  "pair; all three when either direction has a share (kb_job_cmdprio)" },
	{ KIOBENCH_A_CMDPRIO_CLASS, "cmdprio_class", "as cmdprio-percentage" },
	{ KIOBENCH_A_CMDPRIO, "cmdprio", "as cmdprio-percentage" },
	{ KIOBENCH_A_CMDPRIO_PERCENTAGE_WRITE, "cmdprio_percentage", "the writes' of the "
	  "pair, only when they differ from the reads' (a 0.6 module has none)" },
	{ KIOBENCH_A_CMDPRIO_CLASS_WRITE, "cmdprio_class", "as cmdprio-percentage-write" },
	{ KIOBENCH_A_CMDPRIO_WRITE, "cmdprio", "as cmdprio-percentage-write" },
	{ KIOBENCH_A_THINKTIME_SPIN_NS, "thinktime_spin", "when not zero, the kernel's "
	  "default: thinktime_spin=0 is given, not sent" },
	{ KIOBENCH_A_RANDOM_ZONES, "random_distribution", "zoned, zoned_abs: a nest of "
	  "each direction's zones, a random job's only" },
	{ KIOBENCH_A_RANDOM_CDF, "random_distribution", "zipf, pareto: a table computed "
	  "for the first device's span (kb_skew_table)" },
	{ KIOBENCH_A_PERCENTAGE_RANDOM, "percentage_random", "the reads' of fio's R,W pair, "
	  "a random job's only, both when given" },
	{ KIOBENCH_A_PERCENTAGE_RANDOM_WRITE, "percentage_random", "the writes' of the pair" },
	{ KIOBENCH_A_VERIFY, "verify", "when given; pattern when verify_pattern is given "
	  "alone (fio)" },
	{ KIOBENCH_A_VERIFY_PATTERN, "verify_pattern", "its bytes, when given" },
	{ KIOBENCH_A_VERIFY_SORTED, "experimental_verify", "when off (fio's default), for a "
	  "write job that reads back and has no random map in fio's sense (kb_job_verify_sorted)" },
	{ KIOBENCH_A_IO_ROUND, "loops/io_size", "with verify or end_fsync, a round's bytes "
	  "when a write job's budget of bytes takes several of fio's (kb_job_io_round)" },
	{ KIOBENCH_A_RANDOM_LFSR, "random_generator", "random_generator=lfsr with random "
	  "offsets under the random map, not norandommap's (kb_job_random_lfsr)" },
	{ KIOBENCH_A_BUFFER_FILL, "zero_buffers/buffer_pattern", "pattern with buffer_pattern "
	  "(unless buffer_compress_percentage lays it out), zeroes with zero_buffers or "
	  "buffer_compress_percentage=100 (fio), else none (random)" },
	{ KIOBENCH_A_BUFFER_PATTERN, "buffer_pattern", "its bytes, when given" },
	{ KIOBENCH_A_REFILL_BUFFERS, "refill_buffers", "when set, or implied by "
	  "buffer_compress_percentage or dedupe_percentage unless set to 0 (fio); never with "
	  "verify, which fills every write" },
	{ KIOBENCH_A_IGNORE_ERROR_READ, "continue_on_error/ignore_error",
	  "with continue_on_error's read bit: the first list's errnos, else EIO:EILSEQ" },
	{ KIOBENCH_A_IGNORE_ERROR_WRITE, "continue_on_error/ignore_error",
	  "with continue_on_error's write bit: the second list's errnos, else EIO:EILSEQ" },
	{ KIOBENCH_A_IGNORE_ERROR_VERIFY, "continue_on_error/ignore_error",
	  "with continue_on_error's verify bit: the third list's errnos, else EIO:EILSEQ" },
	{ KIOBENCH_A_CONTINUE_ON_ERROR, "continue_on_error",
	  "never: it goes on from every error, not fio's EIO and EILSEQ (the lists say it)" },
	{ KIOBENCH_A_ERROR_DUMP, "error_dump", "on unless error_dump=0 (fio's default)" },
	{ KIOBENCH_A_SCRAMBLE_BUFFERS, "scramble_buffers", "fio's rule: on (its default) "
	  "unless zero_buffers or buffer_pattern is given and scramble_buffers is not" },
	{ KIOBENCH_A_BUFFER_COMPRESS_PERCENTAGE, "buffer_compress_percentage", "when 1 to 99 "
	  "(100 is zero buffers, as fio makes it)" },
	{ KIOBENCH_A_BUFFER_COMPRESS_CHUNK, "buffer_compress_chunk", "with "
	  "buffer_compress_percentage only (its default is 512)" },
	{ KIOBENCH_A_RW_SEQ_NR, "rw", "a random rw's :N, when above 1" },
	{ KIOBENCH_A_RW_SEQUENCER, "rw_sequencer", "with rw-seq-nr only: fio's rw_sequencer "
	  "does nothing without rw's :N" },
	{ KIOBENCH_A_RW_SEQ_ADD, "rw", "a sequential rw's :N, in bytes, when not zero" },
	{ KIOBENCH_A_SEQ_WRAP, "io_size", "with a sequential rw's :N, when io_size is given "
	  "(kb_job_seq_wrap)" },
	{ KIOBENCH_A_CMDPRIO_BSSPLIT, "cmdprio_bssplit", "a table of the reads' and "
	  "writes' entries, each with its priority (cmdprio_class/cmdprio's when it names "
	  "none)" },
	{ KIOBENCH_A_RATE_IGNORE_THINKTIME, "rate_ignore_thinktime", "with rate or rate_iops "
	  "and thinktime only: fio's does nothing without them" },
	{ KIOBENCH_A_BLOCKALIGN, "ba", "a random job's, when not the smallest block size "
	  "(fio's has no effect then); the random map off with it (kb_job_ba)" },
	{ KIOBENCH_A_NICE, "nice", "signed, which the options' put does not type; when not "
	  "0" },
	{ KIOBENCH_A_JOB_ID, "job id", "job-start, -stop, -get, -del: the job's number" },
	{ KIOBENCH_A_REPLAY_NR, "read_iolog", "the log's I/Os as loaded, after replay_skip "
	  "(replay.c)" },
	{ KIOBENCH_A_REPLAY_TIMED, "read_iolog/replay_no_stall", "with a log whose I/Os have "
	  "times (v3 timestamps, v2 wait), unless replay_no_stall" },
	{ KIOBENCH_A_REPLAY_ENTS, "read_iolog", "job-replay: the log's entries, in chunks "
	  "after job-new" },
	{ KIOBENCH_A_WRITE_STREAMS, "write_streams", "an array of stream ids, a byte each, "
	  "when given" },
	{ KIOBENCH_A_WRITE_STREAM_SELECT, "write_stream_select", "with write_streams only, "
	  "when given" },
	{ KIOBENCH_A_NUMBER_IOS, "number_ios", "times loops, as fio counts it over its loops "
	  "(kb_job_number_ios)" },
	{ KIOBENCH_A_SEED, "randseed", "the run's job n's own, the seed (or the kernel's "
	  "default) plus n times 0x9e3779b97f4a7c15, as fio seeds job n from the seed times n; "
	  "the first job's only when given (kb_job_seed)" },
	{ KIOBENCH_A_DEDUPE_GLOBAL_SEED, "dedupe_global", "every job of a run with "
	  "dedupe_global: its first job's seed (the group's)" },
	{ KIOBENCH_A_DEDUPE_GLOBAL_FIRST, "dedupe_global", "every job of a run with "
	  "dedupe_global: the workers of the jobs before it" },
	{ KIOBENCH_A_DEDUPE_GLOBAL_WORKERS, "dedupe_global", "every job of a run with "
	  "dedupe_global: the workers of all of them" },
};
const unsigned int kb_nl_nr_by_code = sizeof(kb_nl_by_code) / sizeof(kb_nl_by_code[0]);

/* The options behind a request attribute, to name it in kernel errors. */
static const char *attr_name(unsigned int type)
{
	const struct kb_opt *o = kb_opt_of_attr(type);
	unsigned int i;

	if (o)
		return o->name;
	for (i = 0; i < kb_nl_nr_by_code; i++)
		if (kb_nl_by_code[i].attr == type)
			return kb_nl_by_code[i].label;
	return NULL;
}

static bool attr_in_ns(unsigned int type)
{
	return type == KIOBENCH_A_RUNTIME_NS || type == KIOBENCH_A_RAMP_NS ||
	       type == KIOBENCH_A_INTERVAL_NS || type == KIOBENCH_A_THINKTIME_NS ||
	       type == KIOBENCH_A_THINKTIME_SPIN_NS || type == KIOBENCH_A_THINKTIME_IOTIME_NS;
}

static void set_err(struct kb_nlerr *e, int err, const char *msg)
{
	e->err = err;
	e->no_family = false;
	snprintf(e->msg, sizeof(e->msg), "%s", msg ? msg : "");
}

/* libnl error code -> -errno, for the few that matter here. */
static int nlerr_errno(int nlerr)
{
	switch (-nlerr) {
	case NLE_PERM: return -EPERM;
	case NLE_NOMEM: return -ENOMEM;
	case NLE_OBJ_NOTFOUND: return -ENOENT;
	case NLE_AGAIN: return -EAGAIN;
	case NLE_INTR: return -EINTR;
	default: return -EIO;
	}
}

/*
 * The top-level attribute of the echoed request at byte offset off (from
 * the start of its header), or -1.
 */
static int attr_at(const struct nlmsghdr *req, size_t avail, uint32_t off)
{
	size_t start = NLMSG_HDRLEN + GENL_HDRLEN, len = req->nlmsg_len;
	const struct nlattr *a;
	int rem;

	if (len > avail || len <= start || off < start || off >= len)
		return -1;
	nla_for_each_attr(a, (const struct nlattr *)((const char *)req + start),
			  len - start, rem) {
		size_t at = (const char *)a - (const char *)req;

		if (off >= at && off < at + a->nla_len)
			return nla_type(a);
	}
	return -1;
}

/* ", must be MIN..MAX" from an NLMSGERR_ATTR_POLICY nest, or "". */
static void policy_range(struct nlattr *pol, bool ns, char *out, size_t outlen)
{
	struct nlattr *pt[NL_POLICY_TYPE_ATTR_MAX + 1];
	const char *unit = ns ? " ns" : "";

	out[0] = '\0';
	if (!pol || nla_parse_nested(pt, NL_POLICY_TYPE_ATTR_MAX, pol, NULL) < 0)
		return;
	if (pt[NL_POLICY_TYPE_ATTR_MIN_VALUE_U] && pt[NL_POLICY_TYPE_ATTR_MAX_VALUE_U])
		snprintf(out, outlen, ", must be %llu..%llu%s",
			 (unsigned long long)nla_get_u64(pt[NL_POLICY_TYPE_ATTR_MIN_VALUE_U]),
			 (unsigned long long)nla_get_u64(pt[NL_POLICY_TYPE_ATTR_MAX_VALUE_U]),
			 unit);
	else if (pt[NL_POLICY_TYPE_ATTR_MIN_VALUE_S] && pt[NL_POLICY_TYPE_ATTR_MAX_VALUE_S])
		snprintf(out, outlen, ", must be %lld..%lld%s",
			 (long long)nla_get_u64(pt[NL_POLICY_TYPE_ATTR_MIN_VALUE_S]),
			 (long long)nla_get_u64(pt[NL_POLICY_TYPE_ATTR_MAX_VALUE_S]),
			 unit);
	else if (pt[NL_POLICY_TYPE_ATTR_MAX_LENGTH])
		snprintf(out, outlen, ", at most %u bytes",
			 nla_get_u32(pt[NL_POLICY_TYPE_ATTR_MAX_LENGTH]));
}

/*
 * Extended ACK.  In NLMSG_ERROR the TLVs follow the nlmsgerr and (unless
 * capped) the echoed request; in NLMSG_DONE they follow the int error.
 * Builds "<option>: <kernel message>[, must be MIN..MAX]": the option is
 * found from the offset of the offending attribute in the echoed request
 * (when the kernel's message does not name it already), the bounds from
 * the policy the kernel reports.
 */
static void parse_extack(const struct nlmsghdr *nlh, char *out, size_t outlen)
{
	const char *data = (const char *)nlh + NLMSG_HDRLEN;
	const struct nlmsgerr *err = NULL;
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	char range[96] = "", text[KB_ERRLEN] = "";
	const char *name = NULL;
	size_t len, off;
	int type = -1;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || nlh->nlmsg_len < NLMSG_HDRLEN)
		return;
	len = nlh->nlmsg_len - NLMSG_HDRLEN;
	if (nlh->nlmsg_type == NLMSG_DONE) {
		off = NLMSG_ALIGN(sizeof(int));
	} else {
		err = (const struct nlmsgerr *)data;
		off = sizeof(*err);
		if (len < off)
			return;
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
			if (err->msg.nlmsg_len < NLMSG_HDRLEN)
				return;
			off += NLMSG_ALIGN(err->msg.nlmsg_len - NLMSG_HDRLEN);
		}
	}
	if (off >= len)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)(data + off),
		      len - off, NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG] && nla_len(tb[NLMSGERR_ATTR_MSG]) > 0)
		snprintf(text, sizeof(text), "%.*s", nla_len(tb[NLMSGERR_ATTR_MSG]),
			 (const char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	if (err && !(nlh->nlmsg_flags & NLM_F_CAPPED) && tb[NLMSGERR_ATTR_OFFS] &&
	    nla_len(tb[NLMSGERR_ATTR_OFFS]) >= 4) {
		type = attr_at(&err->msg, len - offsetof(struct nlmsgerr, msg),
			       nla_get_u32(tb[NLMSGERR_ATTR_OFFS]));
		name = type >= 0 ? attr_name(type) : NULL;
		policy_range(tb[NLMSGERR_ATTR_POLICY], type >= 0 && attr_in_ns(type),
			     range, sizeof(range));
	}
	if (!text[0] && tb[NLMSGERR_ATTR_MISS_TYPE] &&
	    nla_len(tb[NLMSGERR_ATTR_MISS_TYPE]) >= 4) {
		unsigned int t = nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);

		name = tb[NLMSGERR_ATTR_MISS_NEST] ? NULL : attr_name(t);
		if (name)
			snprintf(text, sizeof(text), "missing attribute");
		else
			snprintf(text, sizeof(text), "missing attribute %u", t);
	}
	if (!text[0] && !name)
		return;
	if (name && (!text[0] || !strstr(text, ": ")))
		snprintf(out, outlen, "%s: %s%s", name, text[0] ? text : "invalid value",
			 range);
	else
		snprintf(out, outlen, "%s%s", text, range);
}

/* ---- request / reply ----------------------------------------------------- */

struct req_ctx {
	int (*parse)(struct nl_msg *msg, void *arg);
	void *arg;
	struct kb_nlerr *e;
	bool done;
	int kerr;		/* -errno from the kernel */
	int perr;		/* first error of parse() */
};

static int cb_valid(struct nl_msg *msg, void *arg)
{
	struct req_ctx *c = arg;
	int ret;

	if (c->parse) {
		ret = c->parse(msg, c->arg);
		if (ret < 0 && !c->perr)
			c->perr = ret;
	}
	return NL_OK;
}

static int cb_ack(struct nl_msg *msg, void *arg)
{
	struct req_ctx *c = arg;
	char warn[KB_ERRLEN] = "";

	parse_extack(nlmsg_hdr(msg), warn, sizeof(warn));
	if (warn[0])
		fprintf(stderr, "kiobench: kernel: %s\n", warn);
	c->done = true;
	return NL_STOP;
}

static int cb_finish(struct nl_msg *msg, void *arg)
{
	struct req_ctx *c = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	if (nlmsg_datalen(nlh) >= (int)sizeof(int)) {
		int err;

		memcpy(&err, nlmsg_data(nlh), sizeof(err));
		if (err < 0) {
			c->kerr = err;
			parse_extack(nlh, c->e->msg, sizeof(c->e->msg));
		}
	}
	c->done = true;
	return NL_STOP;
}

static int cb_error(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	struct req_ctx *c = arg;
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)((char *)err - NLMSG_HDRLEN);

	(void)nla;
	c->kerr = err->error < 0 ? err->error : -EIO;
	parse_extack(nlh, c->e->msg, sizeof(c->e->msg));
	c->done = true;
	return NL_STOP;
}

/* Send msg (consumed) and read the reply; parse() is called per message. */
static int request(struct kb_nl *nl, struct nl_msg *msg,
		   int (*parse)(struct nl_msg *, void *), void *arg,
		   struct kb_nlerr *e)
{
	struct req_ctx c = { .parse = parse, .arg = arg, .e = e };
	struct nl_cb *cb;
	int ret;

	set_err(e, 0, NULL);
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		set_err(e, -ENOMEM, NULL);
		return e->err;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, cb_valid, &c);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, cb_ack, &c);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, cb_finish, &c);
	nl_cb_err(cb, NL_CB_CUSTOM, cb_error, &c);
	ret = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (ret < 0) {
		set_err(e, nlerr_errno(ret), nl_geterror(ret));
		goto out;
	}
	while (!c.done) {
		ret = nl_recvmsgs(nl->sk, cb);
		if (c.kerr)
			break;
		if (ret < 0) {
			set_err(e, nlerr_errno(ret), nl_geterror(ret));
			goto out;
		}
	}
	if (c.kerr)
		e->err = c.kerr;
	else if (c.perr)
		set_err(e, c.perr, "malformed reply from the kernel");
out:
	nl_cb_put(cb);
	return e->err;
}

static struct nl_msg *new_msg(struct kb_nl *nl, int cmd, int flags, size_t size)
{
	struct nl_msg *msg = size ? nlmsg_alloc_size(size) : nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, flags, cmd,
			 KIOBENCH_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int parse_attrs(struct nl_msg *msg, struct nlattr **tb)
{
	return genlmsg_parse(nlmsg_hdr(msg), 0, tb, KIOBENCH_A_MAX, kb_policy) < 0 ?
		-EINVAL : 0;
}

/* ---- socket setup ----------------------------------------------------------- */

static int connect_sock(struct nl_sock **skp, struct kb_nlerr *e)
{
	int one = 1, ret;

	*skp = nl_socket_alloc();
	if (!*skp) {
		set_err(e, -ENOMEM, NULL);
		return e->err;
	}
	ret = genl_connect(*skp);
	if (ret < 0) {
		set_err(e, nlerr_errno(ret), nl_geterror(ret));
		return e->err;
	}
	/* Extended ACK; older kernels refuse it, which is fine. */
	setsockopt(nl_socket_get_fd(*skp), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	/*
	 * A job's request and status may carry a random-cdf table of 32 KiB:
	 * past the 32 KiB socket buffers that libnl sets by default, with which
	 * such a request fails (ENOMEM).
	 */
	nl_socket_set_buffer_size(*skp, 1 << 20, 1 << 20);
	return 0;
}

int kb_nl_open(struct kb_nl *nl, bool events, struct kb_nlerr *e)
{
	int ret, grp;

	memset(nl, 0, sizeof(*nl));
	set_err(e, 0, NULL);
	init_policies();
	if (connect_sock(&nl->sk, e))
		goto fail;
	nl->family = genl_ctrl_resolve(nl->sk, KIOBENCH_GENL_NAME);
	if (nl->family < 0) {
		if (nl->family == -NLE_OBJ_NOTFOUND) {
			set_err(e, -ENOENT, "module not loaded (modprobe kiobench / insmod kiobench.ko)");
			e->no_family = true;
		} else {
			set_err(e, nlerr_errno(nl->family), nl_geterror(nl->family));
		}
		goto fail;
	}
	if (!events)
		return 0;
	if (connect_sock(&nl->ev, e))
		goto fail;
	grp = genl_ctrl_resolve_grp(nl->ev, KIOBENCH_GENL_NAME, KIOBENCH_MCGRP_EVENTS);
	if (grp < 0) {
		set_err(e, nlerr_errno(grp), "multicast group \"" KIOBENCH_MCGRP_EVENTS
			"\" not found");
		goto fail;
	}
	ret = nl_socket_add_membership(nl->ev, grp);
	if (ret < 0) {
		set_err(e, nlerr_errno(ret), nl_geterror(ret));
		goto fail;
	}
	nl_socket_set_nonblocking(nl->ev);
	return 0;
fail:
	kb_nl_close(nl);
	return e->err;
}

void kb_nl_close(struct kb_nl *nl)
{
	if (nl->sk)
		nl_socket_free(nl->sk);
	if (nl->ev)
		nl_socket_free(nl->ev);
	nl->sk = nl->ev = NULL;
}

/* ---- commands --------------------------------------------------------------- */

static int parse_features(struct nl_msg *msg, void *arg)
{
	struct kb_features *f = arg;
	struct nlattr *tb[KIOBENCH_A_MAX + 1];
	int i;

	if (parse_attrs(msg, tb))
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	for (i = 0; i <= KIOBENCH_A_MAX; i++)
		if (tb[i])
			f->present[i] = true;
#define U32(a, field) if (tb[a]) f->field = nla_get_u32(tb[a])
#define U64(a, field) if (tb[a]) f->field = nla_get_u64(tb[a])
	U32(KIOBENCH_A_VERSION, version);
	U32(KIOBENCH_A_LIMIT_JOBS, jobs);
	U32(KIOBENCH_A_LIMIT_DEVICES, devices);
	U32(KIOBENCH_A_LIMIT_WORKERS, workers);
	U32(KIOBENCH_A_LIMIT_IODEPTH, iodepth);
	U32(KIOBENCH_A_LIMIT_BS, bs);
	U32(KIOBENCH_A_LIMIT_BSSPLIT, bssplit);
	U64(KIOBENCH_A_LIMIT_JOB_MEM, job_mem);
	U64(KIOBENCH_A_LIMIT_TOTAL_MEM, total_mem);
	U32(KIOBENCH_A_HIST_BITS, hist_bits);
	U32(KIOBENCH_A_HIST_BUCKETS, hist_buckets);
	U32(KIOBENCH_A_LIMIT_LAT_LOG, lat_log);
	U32(KIOBENCH_A_LIMIT_RATE_IOPS, rate_iops);
	U32(KIOBENCH_A_LIMIT_SOCKET_JOBS, socket_jobs);
	U64(KIOBENCH_A_LIMIT_DETACHED_NS, detached_ns);
#undef U32
#undef U64
	return 0;
}

int kb_nl_features(struct kb_nl *nl, struct kb_features *f, struct kb_nlerr *e)
{
	struct nl_msg *msg = new_msg(nl, KIOBENCH_CMD_GET_FEATURES, 0, 0);

	if (!msg) {
		set_err(e, -ENOMEM, NULL);
		return e->err;
	}
	memset(f, 0, sizeof(*f));
	return request(nl, msg, parse_features, f, e);
}

struct new_reply {
	uint32_t id;
	bool has_id;
	char *dir;
	size_t dirlen;
};

static int parse_new(struct nl_msg *msg, void *arg)
{
	struct new_reply *r = arg;
	struct nlattr *tb[KIOBENCH_A_MAX + 1];

	if (parse_attrs(msg, tb) || !tb[KIOBENCH_A_JOB_ID] || !tb[KIOBENCH_A_DEBUGFS_DIR])
		return -EINVAL;
	r->id = nla_get_u32(tb[KIOBENCH_A_JOB_ID]);
	r->has_id = true;
	snprintf(r->dir, r->dirlen, "%s", nla_get_string(tb[KIOBENCH_A_DEBUGFS_DIR]));
	return 0;
}

/*
 * fio's priorities: prio without prioclass is best-effort (class none would
 * drop the level: the block layer gives such a bio its task's priority).
 */
static int put_cmdprio_bs(struct nl_msg *msg, const struct kb_job *job)
{
	struct kiobench_cmdprio_bs_ent t[2 * KB_CMDPRIO_BS_MAX];
	unsigned int d, i, n = 0;

	for (d = 0; d < 2; d++)
		for (i = 0; i < job->nr_cmdprio_bs[d]; i++) {
			const struct kb_cmdprio_bs *e = &job->cmdprio_bs[d][i];

			t[n++] = (struct kiobench_cmdprio_bs_ent){ .size = e->size, .dir = d,
				.pct = e->pct, .class = e->class, .level = e->level };
		}
	return nla_put(msg, KIOBENCH_A_CMDPRIO_BSSPLIT, n * sizeof(t[0]), t);
}

static int put_prio(struct nl_msg *msg, const struct kb_job *job)
{
	const int r = KIOBENCH_DIR_READ, w = KIOBENCH_DIR_WRITE;
	uint8_t class = job->prioclass;

	if (!kb_job_isset(job, KB_OPT_PRIOCLASS) && kb_job_isset(job, KB_OPT_PRIO))
		class = 2;	/* IOPRIO_CLASS_BE */
	if ((class && nla_put_u8(msg, KIOBENCH_A_PRIOCLASS, class)) ||
	    (job->prio && nla_put_u8(msg, KIOBENCH_A_PRIO, job->prio)))
		return -1;
	if (job->nr_cmdprio_bs[r] || job->nr_cmdprio_bs[w])
		return put_cmdprio_bs(msg, job);
	if (!kb_job_cmdprio(job))
		return 0;
	if (nla_put_u8(msg, KIOBENCH_A_CMDPRIO_PERCENTAGE, job->cmdprio_pct[r]) ||
	    nla_put_u8(msg, KIOBENCH_A_CMDPRIO_CLASS, job->cmdprio_class[r]) ||
	    nla_put_u8(msg, KIOBENCH_A_CMDPRIO, job->cmdprio[r]))
		return -1;
	/* the writes' own only when they differ: a 0.6 module without them */
	if ((job->cmdprio_pct[w] != job->cmdprio_pct[r] &&
	     nla_put_u8(msg, KIOBENCH_A_CMDPRIO_PERCENTAGE_WRITE, job->cmdprio_pct[w])) ||
	    (job->cmdprio_class[w] != job->cmdprio_class[r] &&
	     nla_put_u8(msg, KIOBENCH_A_CMDPRIO_CLASS_WRITE, job->cmdprio_class[w])) ||
	    (job->cmdprio[w] != job->cmdprio[r] &&
	     nla_put_u8(msg, KIOBENCH_A_CMDPRIO_WRITE, job->cmdprio[w])))
		return -1;
	return 0;
}

/*
 * Every option that names its attribute (kb_opts[].attr) and was given:
 * its field, as the spec types the attribute (nl-names.h); a flag only
 * when true (it cannot say false).  The attributes whose rule is another
 * are put by put_by_code().
 */
static int put_options(struct nl_msg *msg, const struct kb_job *job)
{
	int i, ret;

	for (i = 0; i < KB_NR_OPTS; i++) {
		const struct kb_opt *o = &kb_opts[i];
		uint64_t v;

		if (!o->attr || !kb_job_isset(job, o->id))
			continue;
		v = kb_opt_value(o, job);
		switch (kb_nl_attrs[o->attr].type) {
		case KB_NLT_FLAG:	ret = v ? nla_put_flag(msg, o->attr) : 0; break;
		case KB_NLT_U8:		ret = nla_put_u8(msg, o->attr, v); break;
		case KB_NLT_U16:	ret = nla_put_u16(msg, o->attr, v); break;
		case KB_NLT_U32:	ret = nla_put_u32(msg, o->attr, v); break;
		case KB_NLT_U64:	ret = nla_put_u64(msg, o->attr, v); break;
		default:		ret = -1;	/* tool_test: a scalar */
		}
		if (ret)
			return -1;
	}
	return 0;
}

/* What writes carry, by fio's rules (init.c's fixup_options, setup_td_flags). */
static int put_data(struct nl_msg *msg, const struct kb_job *job)
{
	uint32_t pct = job->buffer_compress_percentage == 100 ? 0 :
		       job->buffer_compress_percentage;
	bool zero = job->zero_buffers || job->buffer_compress_percentage == 100;
	bool refill = kb_job_isset(job, KB_OPT_REFILL_BUFFERS) ? job->refill_buffers :
		      pct || job->dedupe_percentage;
	/* zero_buffers and buffer_pattern turn fio's default scrambling off */
	bool scramble = job->scramble_buffers && (kb_job_isset(job, KB_OPT_SCRAMBLE_BUFFERS) ||
						  (!kb_job_isset(job, KB_OPT_ZERO_BUFFERS) &&
						   !job->buffer_pattern_len));
	uint8_t fill = job->buffer_pattern_len ? (pct ? KIOBENCH_BUFFER_RANDOM :
						  KIOBENCH_BUFFER_PATTERN) :
		       zero ? KIOBENCH_BUFFER_ZEROES : KIOBENCH_BUFFER_RANDOM;

	if (kb_job_verify(job))
		refill = false;		/* verify fills every write */
	if ((fill && nla_put_u8(msg, KIOBENCH_A_BUFFER_FILL, fill)) ||
	    (job->buffer_pattern_len &&
	     nla_put(msg, KIOBENCH_A_BUFFER_PATTERN, job->buffer_pattern_len,
		     job->buffer_pattern)) ||
	    (refill && nla_put_flag(msg, KIOBENCH_A_REFILL_BUFFERS)) ||
	    (scramble && nla_put_flag(msg, KIOBENCH_A_SCRAMBLE_BUFFERS)))
		return -1;
	if (pct && (nla_put_u8(msg, KIOBENCH_A_BUFFER_COMPRESS_PERCENTAGE, pct) ||
		    nla_put_u32(msg, KIOBENCH_A_BUFFER_COMPRESS_CHUNK,
				job->buffer_compress_chunk)))
		return -1;
	return 0;
}

/*
 * fio's td_non_fatal_error(): an error type goes on only when
 * continue_on_error has its bit, and then from its ignore_error list, else
 * from __NON_FATAL_ERR (EIO, EILSEQ).  The kernel's lists say exactly that:
 * each type with the bit gets its list, the others none (a type without a
 * list stops at any error).  The kernel's continue-on-error, which goes on
 * from every error of a type without a list, is never put.  And
 * error_dump (fio's default on).
 */
static int put_errors(struct nl_msg *msg, const struct kb_job *job)
{
	static const int attrs[3] = { KIOBENCH_A_IGNORE_ERROR_READ,
		KIOBENCH_A_IGNORE_ERROR_WRITE, KIOBENCH_A_IGNORE_ERROR_VERIFY };
	static const uint32_t non_fatal[] = { EIO, EILSEQ };
	int t;

	for (t = 0; t < 3; t++) {
		if (!(job->continue_on_error & 1u << t))
			continue;
		if (job->nr_ignore_error[t] ?
		    nla_put(msg, attrs[t], job->nr_ignore_error[t] * sizeof(uint32_t),
			    job->ignore_error[t]) :
		    nla_put(msg, attrs[t], sizeof(non_fatal), non_fatal))
			return -1;
	}
	return job->error_dump && nla_put_flag(msg, KIOBENCH_A_ERROR_DUMP) ? -1 : 0;
}

/*
 * What code sets, by rules other than "put when given" (kb_nl_by_code[]
 * says each one's): the command's detach, the latency log, the rate,
 * the completion mode, norandommap, the priorities, the thinktime's spin.
 */
/* The seed, the run's job n's own (kb_job_seed()); the first job's as given. */
static int put_seed(struct nl_msg *msg, const struct kb_job *job)
{
	if (!kb_job_isset(job, KB_OPT_SEED) && !job->thread)
		return 0;
	return nla_put_u64(msg, KIOBENCH_A_SEED, kb_job_seed(job));
}

static int put_by_code(struct nl_msg *msg, const struct kb_job *job, bool detach)
{
	uint8_t mode = job->hipri ? KIOBENCH_COMPLETION_POLL :
		       job->spin ? KIOBENCH_COMPLETION_SPIN : KIOBENCH_COMPLETION_SLEEP;
	uint64_t io_bytes = kb_job_io_bytes(job);

	if (put_seed(msg, job))
		return -1;
	if (job->dedupe_group_workers &&
	    (nla_put_u64(msg, KIOBENCH_A_DEDUPE_GLOBAL_SEED, job->dedupe_group_seed) ||
	     nla_put_u32(msg, KIOBENCH_A_DEDUPE_GLOBAL_FIRST, job->dedupe_group_first) ||
	     nla_put_u32(msg, KIOBENCH_A_DEDUPE_GLOBAL_WORKERS, job->dedupe_group_workers)))
		return -1;
	if ((io_bytes && nla_put_u64(msg, KIOBENCH_A_IO_BYTES, io_bytes)) ||
	    (kb_job_number_ios(job) &&
	     nla_put_u64(msg, KIOBENCH_A_NUMBER_IOS, kb_job_number_ios(job))) ||
	    (detach && nla_put_flag(msg, KIOBENCH_A_DETACH)))
		return -1;
	if (kb_job_wants_io_log(job) &&
	    nla_put_u32(msg, KIOBENCH_A_LAT_LOG, job->lat_log_entries))
		return -1;
	if (job->write_iolog && nla_put_flag(msg, KIOBENCH_A_LAT_LOG_ALL))
		return -1;
	if (job->rate_iops && nla_put_u32(msg, KIOBENCH_A_RATE_IOPS, job->rate_iops))
		return -1;
	if (job->rate_iops_write &&
	    nla_put_u32(msg, KIOBENCH_A_RATE_IOPS_WRITE, job->rate_iops_write))
		return -1;
	if (kb_job_verify(job) && nla_put_u8(msg, KIOBENCH_A_VERIFY, kb_job_verify(job)))
		return -1;
	if (job->verify_pattern_len &&
	    nla_put(msg, KIOBENCH_A_VERIFY_PATTERN, job->verify_pattern_len, job->verify_pattern))
		return -1;
	if (mode != KIOBENCH_COMPLETION_SLEEP && nla_put_u8(msg, KIOBENCH_A_COMPLETION, mode))
		return -1;
	if (job->random && kb_job_norandommap(job) && nla_put_flag(msg, KIOBENCH_A_NORANDOMMAP))
		return -1;
	if (kb_job_verify_sorted(job) && nla_put_flag(msg, KIOBENCH_A_VERIFY_SORTED))
		return -1;
	if (kb_job_io_round(job) &&
	    nla_put_u64(msg, KIOBENCH_A_IO_ROUND, kb_job_io_round(job)))
		return -1;
	if (kb_job_random_lfsr(job) && nla_put_flag(msg, KIOBENCH_A_RANDOM_LFSR))
		return -1;
	if (put_prio(msg, job) || put_data(msg, job) || put_errors(msg, job))
		return -1;
	if (kb_job_ba(job) && nla_put_u32(msg, KIOBENCH_A_BLOCKALIGN, kb_job_ba(job)))
		return -1;
	if (job->nice && nla_put_s32(msg, KIOBENCH_A_NICE, job->nice))
		return -1;
	if (job->rate_ignore_thinktime && job->rate_iops && job->thinktime_ns &&
	    nla_put_flag(msg, KIOBENCH_A_RATE_IGNORE_THINKTIME))
		return -1;
	if (job->thinktime_spin_ns &&
	    nla_put_u64(msg, KIOBENCH_A_THINKTIME_SPIN_NS, job->thinktime_spin_ns))
		return -1;
	if (job->random && job->rw_seq_nr > 1 &&
	    (nla_put_u32(msg, KIOBENCH_A_RW_SEQ_NR, job->rw_seq_nr) ||
	     (kb_job_isset(job, KB_OPT_RW_SEQUENCER) &&
	      nla_put_u8(msg, KIOBENCH_A_RW_SEQUENCER, job->rw_sequencer))))
		return -1;
	if (!job->random && job->rw_seq_add &&
	    nla_put_u64(msg, KIOBENCH_A_RW_SEQ_ADD, job->rw_seq_add))
		return -1;
	if (kb_job_seq_wrap(job) && nla_put_flag(msg, KIOBENCH_A_SEQ_WRAP))
		return -1;
	if (job->nr_write_streams &&
	    (nla_put(msg, KIOBENCH_A_WRITE_STREAMS, job->nr_write_streams,
		     job->write_streams) ||
	     (kb_job_isset(job, KB_OPT_WRITE_STREAM_SELECT) &&
	      nla_put_u8(msg, KIOBENCH_A_WRITE_STREAM_SELECT, job->write_stream_select))))
		return -1;
	if (job->random && kb_job_isset(job, KB_OPT_PERCENTAGE_RANDOM) &&
	    (nla_put_u8(msg, KIOBENCH_A_PERCENTAGE_RANDOM,
			job->percentage_random[KIOBENCH_DIR_READ]) ||
	     nla_put_u8(msg, KIOBENCH_A_PERCENTAGE_RANDOM_WRITE,
			job->percentage_random[KIOBENCH_DIR_WRITE])))
		return -1;
	return 0;
}

/* random_distribution=zoned/zoned_abs: each direction's zones, a random job's only. */
static int put_zones(struct nl_msg *msg, const struct kb_job *job)
{
	struct nlattr *nest, *ent;
	unsigned int i;
	int d;

	if (!job->random || (!job->nr_zones[0] && !job->nr_zones[1]))
		return 0;
	nest = nla_nest_start(msg, KIOBENCH_A_RANDOM_ZONES | NLA_F_NESTED);
	if (!nest)
		return -1;
	for (d = 0; d < KIOBENCH_NR_DIRS; d++)
		for (i = 0; i < job->nr_zones[d]; i++) {
			const struct kb_zone *z = &job->zones[d][i];

			ent = nla_nest_start(msg, KIOBENCH_ZONE_A_ENTRY | NLA_F_NESTED);
			if (!ent || nla_put_u8(msg, KIOBENCH_ZONE_A_DIR, d) ||
			    nla_put_u8(msg, KIOBENCH_ZONE_A_ACCESS_PCT, z->access) ||
			    (job->zones_abs ? nla_put_u64(msg, KIOBENCH_ZONE_A_SIZE, z->size) :
			     nla_put_u8(msg, KIOBENCH_ZONE_A_SIZE_PCT, z->size)))
				return -1;
			nla_nest_end(msg, ent);
		}
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * random_distribution=zipf/pareto: the table for the first device's span
 * (the kernel refuses a device whose span has another number of blocks).
 */
static int put_cdf(struct nl_msg *msg, const struct kb_job *job, struct kb_nlerr *e)
{
	struct kiobench_cdf_ent *t;
	uint64_t bytes, n;
	unsigned int nr;
	int ret;

	if (!job->random || !job->skew || !job->nr_devices)
		return 0;
	if (kb_dev_bytes(job->devices[0], &bytes) || bytes <= job->offset) {
		set_err(e, -EINVAL, "random_distribution: cannot read the size of the device");
		return -1;
	}
	bytes -= job->offset;
	if (job->size && job->size < bytes)
		bytes = job->size;
	n = bytes / kb_job_min_bs(job);
	if (kb_skew_table(job, n, &t, &nr, e->msg, sizeof(e->msg))) {
		e->err = -EINVAL;
		return -1;
	}
	ret = nla_put(msg, KIOBENCH_A_RANDOM_CDF, nr * sizeof(*t), t);
	free(t);
	if (ret)
		set_err(e, -EMSGSIZE, "request too large");
	return ret ? -1 : 0;
}

/* The lists: name, devices, the direction, the transfer sizes, the CPUs. */
/* A direction's sizes: bssplit, bssplit-write or bssplit-trim (@attr). */
static int put_bss(struct nl_msg *msg, int attr, const struct kb_bss *b, unsigned int n)
{
	struct nlattr *nest = nla_nest_start(msg, attr | NLA_F_NESTED), *ent;
	unsigned int i;

	if (!nest)
		return -1;
	for (i = 0; i < n; i++) {
		ent = nla_nest_start(msg, KIOBENCH_BSS_A_ENTRY | NLA_F_NESTED);
		if (!ent || nla_put_u32(msg, KIOBENCH_BSS_A_SIZE, b[i].size) ||
		    nla_put_u32(msg, KIOBENCH_BSS_A_WEIGHT, b[i].weight))
			return -1;
		nla_nest_end(msg, ent);
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int put_lists(struct nl_msg *msg, const struct kb_job *job)
{
	struct nlattr *nest;
	unsigned int i;

	if (nla_put_string(msg, KIOBENCH_A_JOB_NAME, job->name))
		return -1;
	nest = nla_nest_start(msg, KIOBENCH_A_DEVICES | NLA_F_NESTED);
	if (!nest)
		return -1;
	for (i = 0; i < job->nr_devices; i++)
		if (nla_put_string(msg, KIOBENCH_DEV_A_PATH, job->devices[i]))
			return -1;
	nla_nest_end(msg, nest);
	if ((job->random && nla_put_flag(msg, KIOBENCH_A_RANDOM)) ||
	    nla_put_u8(msg, KIOBENCH_A_RWMIX_READ, kb_job_rwmix_read(job)) ||
	    (kb_job_has_writes(job) && nla_put_flag(msg, KIOBENCH_A_ALLOW_WRITES)) ||
	    (job->trim_mode && nla_put_u8(msg, KIOBENCH_A_TRIM_MODE, job->trim_mode)) ||
	    (kb_job_fsync(job) && nla_put_u32(msg, KIOBENCH_A_FSYNC, kb_job_fsync(job))) ||
	    (job->end_fsync && kb_job_has_writes(job) &&
	     nla_put_flag(msg, KIOBENCH_A_END_FSYNC)) ||
	    (job->zone_append && nla_put_flag(msg, KIOBENCH_A_ZONE_APPEND)) ||
	    (kb_job_zone_op(job) && nla_put_u8(msg, KIOBENCH_A_ZONE_OP, kb_job_zone_op(job))))
		return -1;
	if (put_bss(msg, KIOBENCH_A_BSSPLIT, job->bss, job->nr_bss) ||
	    (job->bss_wt[0] && put_bss(msg, KIOBENCH_A_BSSPLIT_WRITE, job->bss_wt[0],
				       job->nr_bss_wt[0])) ||
	    (job->bss_wt[1] && put_bss(msg, KIOBENCH_A_BSSPLIT_TRIM, job->bss_wt[1],
				       job->nr_bss_wt[1])) ||
	    (job->bsrange && nla_put_u8(msg, KIOBENCH_A_BSRANGE, job->bsrange)))
		return -1;
	if (!job->nr_cpus)
		return 0;
	if (job->cpus_split && job->has_split_cpu)	/* split, in a run: its one */
		return nla_put(msg, KIOBENCH_A_CPUS, sizeof(uint32_t), &job->split_cpu) ? -1 : 0;
	/* split in a sweep: worker i on the i-th; shared (fio's default): all on all */
	if (nla_put(msg, KIOBENCH_A_CPUS, job->nr_cpus * sizeof(uint32_t), job->cpus) ||
	    (!job->cpus_split && nla_put_flag(msg, KIOBENCH_A_CPUS_SHARED)))
		return -1;
	return 0;
}

/* read_iolog: the count of the log's entries, and whether they are timed. */
static int put_replay(struct nl_msg *msg, const struct kb_job *job)
{
	bool timed = false;
	uint32_t i;

	if (!job->nr_replay)
		return 0;
	for (i = 0; i < job->nr_replay && !timed; i++)
		timed = job->replay[i].time_ns;
	if (nla_put_u32(msg, KIOBENCH_A_REPLAY_NR, job->nr_replay) ||
	    (timed && nla_put_flag(msg, KIOBENCH_A_REPLAY_TIMED)))
		return -1;
	return 0;
}

/*
 * JOB_REPLAY: the log's entries after JOB_NEW, as many as an attribute
 * holds each time.  The kernel names a bad entry by its index: the line
 * of the log is added.
 */
static int upload_replay(struct kb_nl *nl, const struct kb_job *job, uint32_t id,
			 struct kb_nlerr *e)
{
	uint32_t at, n;

	for (at = 0; at < job->nr_replay; at += n) {
		struct nl_msg *msg;
		unsigned int idx;
		const char *p;

		n = job->nr_replay - at;
		if (n > KB_REPLAY_CHUNK)
			n = KB_REPLAY_CHUNK;
		msg = new_msg(nl, KIOBENCH_CMD_JOB_REPLAY, 0,
			      n * sizeof(*job->replay) + 2 * NLA_HDRLEN + 256);
		if (!msg || nla_put_u32(msg, KIOBENCH_A_JOB_ID, id) ||
		    nla_put(msg, KIOBENCH_A_REPLAY_ENTS, n * sizeof(*job->replay),
			    job->replay + at)) {
			nlmsg_free(msg);
			set_err(e, -ENOMEM, NULL);
			return e->err;
		}
		if (request(nl, msg, NULL, NULL, e)) {
			p = strstr(e->msg, "entry ");
			if (p && sscanf(p, "entry %u", &idx) == 1 && idx < job->nr_replay) {
				size_t l = strlen(e->msg);

				snprintf(e->msg + l, sizeof(e->msg) - l, " (read_iolog %s:%u)",
					 job->replay_path, job->replay_lines[idx]);
			}
			return e->err;
		}
	}
	return 0;
}

int kb_nl_job_msg(int family, const struct kb_job *job, bool detach, struct nl_msg **msgp)
{
	struct nl_msg *msg;
	size_t size = 4096;
	unsigned int i;

	init_policies();
	for (i = 0; i < job->nr_devices; i++)
		size += NLA_ALIGN(strlen(job->devices[i]) + 1) + NLA_HDRLEN;
	size += (job->nr_bss + job->nr_bss_wt[0] + job->nr_bss_wt[1]) * 3 * (NLA_HDRLEN + 4) +
		job->nr_cpus * 4;
	size += (job->nr_zones[0] + job->nr_zones[1]) * 4 * (NLA_HDRLEN + 8);
	if (job->skew)	/* kb_nl_job_new() puts it */
		size += KB_CDF_MAX * sizeof(struct kiobench_cdf_ent) + NLA_HDRLEN;
	msg = nlmsg_alloc_size(size);
	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, 0,
				 KIOBENCH_CMD_JOB_NEW, KIOBENCH_GENL_VERSION)) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	if (put_lists(msg, job) || put_options(msg, job) || put_by_code(msg, job, detach) ||
	    put_zones(msg, job) || put_replay(msg, job)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	*msgp = msg;
	return 0;
}

int kb_nl_job_new(struct kb_nl *nl, const struct kb_job *job, bool detach, uint32_t *id,
		  char *dir, size_t dirlen, struct kb_nlerr *e)
{
	struct new_reply r = { .dir = dir, .dirlen = dirlen };
	struct nl_msg *msg;
	int ret = kb_nl_job_msg(nl->family, job, detach, &msg);

	if (ret) {
		set_err(e, ret, ret == -EMSGSIZE ? "request too large" : NULL);
		return e->err;
	}
	if (put_cdf(msg, job, e)) {
		nlmsg_free(msg);
		return e->err;
	}
	ret = request(nl, msg, parse_new, &r, e);
	if (!ret && !r.has_id)
		set_err(e, -EINVAL, "JOB_NEW reply without a job id");
	*id = r.id;
	if (!e->err && job->nr_replay)
		upload_replay(nl, job, r.id, e);
	return e->err;
}

int kb_nl_job_cmd(struct kb_nl *nl, int cmd, uint32_t id, struct kb_nlerr *e)
{
	struct nl_msg *msg = new_msg(nl, cmd, 0, 0);

	if (!msg || nla_put_u32(msg, KIOBENCH_A_JOB_ID, id)) {
		nlmsg_free(msg);
		set_err(e, -ENOMEM, NULL);
		return e->err;
	}
	return request(nl, msg, NULL, NULL, e);
}

/* The kernel's random-zones, by direction in their order. */
static int parse_kzones(struct nlattr *nest, struct kb_kcfg *c)
{
	struct nlattr *e;
	int rem;

	nla_for_each_nested(e, nest, rem) {
		struct nlattr *zt[KIOBENCH_ZONE_A_MAX + 1];
		struct kb_zone *z;
		unsigned int d;

		if (nla_type(e) != KIOBENCH_ZONE_A_ENTRY ||
		    nla_parse_nested(zt, KIOBENCH_ZONE_A_MAX, e, kb_zone_policy) < 0 ||
		    !zt[KIOBENCH_ZONE_A_DIR] || !zt[KIOBENCH_ZONE_A_ACCESS_PCT] ||
		    (!zt[KIOBENCH_ZONE_A_SIZE] && !zt[KIOBENCH_ZONE_A_SIZE_PCT]))
			return -EINVAL;
		d = nla_get_u8(zt[KIOBENCH_ZONE_A_DIR]);
		if (d >= KIOBENCH_NR_DIRS || c->nr_zones[d] == KB_KCFG_ZONES)
			return -EINVAL;
		z = &c->zones[d][c->nr_zones[d]++];
		z->access = nla_get_u8(zt[KIOBENCH_ZONE_A_ACCESS_PCT]);
		c->zones_abs = zt[KIOBENCH_ZONE_A_SIZE];
		z->size = c->zones_abs ? nla_get_u64(zt[KIOBENCH_ZONE_A_SIZE]) :
					 nla_get_u8(zt[KIOBENCH_ZONE_A_SIZE_PCT]);
	}
	return 0;
}

/* The kernel's random-cdf: its blocks and the hottest ones' shares. */
static int parse_kcdf(struct nlattr *a, struct kb_kcfg *c)
{
	const struct kiobench_cdf_ent *t = nla_data(a);
	unsigned int nr = nla_len(a) / sizeof(*t), i;
	static const double pct[KB_KCFG_HOT] = KB_KCFG_HOT_PCTS;

	if (nla_len(a) % sizeof(*t) || nr < 2)
		return -EINVAL;
	c->nr_cdf = nr;
	c->cdf_blocks = t[nr - 1].rank;
	for (i = 0; i < KB_KCFG_HOT; i++)
		c->cdf_hot[i] = kb_cdf_share(t, nr, (uint64_t)ceil(c->cdf_blocks * pct[i] / 100.0));
	return 0;
}

/* The devices, the span on each and the transfer sizes of a status reply. */
/* The kernel's sizes of direction @d: bssplit, bssplit-write or bssplit-trim. */
static int parse_kbss(struct nlattr *a, struct kb_kcfg *c, unsigned int d)
{
	struct kb_kcfg_bs *b = d ? c->bss_wt[d - 1] : c->bss;
	unsigned int *n = d ? &c->nr_bss_wt[d - 1] : &c->nr_bss;
	struct nlattr *e;
	int rem;

	nla_for_each_nested(e, a, rem) {
		struct nlattr *bt[KIOBENCH_BSS_A_MAX + 1];

		if (nla_type(e) != KIOBENCH_BSS_A_ENTRY ||
		    nla_parse_nested(bt, KIOBENCH_BSS_A_MAX, e, kb_bss_policy) < 0 ||
		    !bt[KIOBENCH_BSS_A_SIZE] || *n == KB_KCFG_BSS)
			return -EINVAL;
		b[*n].size = nla_get_u32(bt[KIOBENCH_BSS_A_SIZE]);
		b[*n].weight = bt[KIOBENCH_BSS_A_WEIGHT] ? nla_get_u32(bt[KIOBENCH_BSS_A_WEIGHT]) : 1;
		(*n)++;
	}
	return 0;
}

static int parse_kcfg_lists(struct nlmsghdr *nlh, struct nlattr **tb, struct kb_kcfg *c)
{
	static const int bss_attrs[KB_BSS_DIRS] = {
		KIOBENCH_A_BSSPLIT, KIOBENCH_A_BSSPLIT_WRITE, KIOBENCH_A_BSSPLIT_TRIM,
	};
	unsigned int d;
	struct nlattr *a;
	size_t at = 0;
	int rem;

	if (tb[KIOBENCH_A_DEVICES])
		nla_for_each_nested(a, tb[KIOBENCH_A_DEVICES], rem) {
			if (nla_type(a) != KIOBENCH_DEV_A_PATH || nla_len(a) < 1)
				return -EINVAL;
			if (at < sizeof(c->devices))
				at += snprintf(c->devices + at, sizeof(c->devices) - at, "%s%.*s",
					       c->nr_devs ? ":" : "", nla_len(a) - 1,
					       (const char *)nla_data(a));
			c->nr_devs++;
		}
	if (at >= sizeof(c->devices))	/* cut: say so */
		memcpy(c->devices + sizeof(c->devices) - 4, "...", 4);
	/* KIOBENCH_A_JOB_SPAN_LEN: one per device, in their order */
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		if (nla_type(a) != KIOBENCH_A_JOB_SPAN_LEN)
			continue;
		if (nla_len(a) != 8)
			return -EINVAL;
		if (c->nr_spans < KB_KCFG_DEVS)
			c->span_len[c->nr_spans] = nla_get_u64(a);
		c->nr_spans++;
	}
	/* KIOBENCH_A_JOB_INTEGRITY_FORMAT, _FLAGS: likewise, once started */
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		if (nla_type(a) == KIOBENCH_A_JOB_INTEGRITY_FORMAT) {
			if (nla_len(a) < 1)
				return -EINVAL;
			if (c->nr_pi < KB_KCFG_DEVS)
				snprintf(c->pi_format[c->nr_pi], sizeof(c->pi_format[0]),
					 "%.*s", nla_len(a) - 1, (const char *)nla_data(a));
			c->nr_pi++;
		} else if (nla_type(a) == KIOBENCH_A_JOB_INTEGRITY_FLAGS) {
			if (nla_len(a) != 4)
				return -EINVAL;
			if (c->nr_pi_flags < KB_KCFG_DEVS)
				c->pi_flags[c->nr_pi_flags] = nla_get_u32(a);
			c->nr_pi_flags++;
		}
	}
	if (tb[KIOBENCH_A_RANDOM_ZONES] && parse_kzones(tb[KIOBENCH_A_RANDOM_ZONES], c))
		return -EINVAL;
	if (tb[KIOBENCH_A_RANDOM_CDF] && parse_kcdf(tb[KIOBENCH_A_RANDOM_CDF], c))
		return -EINVAL;
	if (tb[KIOBENCH_A_CMDPRIO_BSSPLIT]) {
		int len = nla_len(tb[KIOBENCH_A_CMDPRIO_BSSPLIT]);

		if (len <= 0 || len % (int)sizeof(c->cmdprio_bs[0]) ||
		    len / sizeof(c->cmdprio_bs[0]) > 2 * KB_CMDPRIO_BS_MAX)
			return -EINVAL;
		memcpy(c->cmdprio_bs, nla_data(tb[KIOBENCH_A_CMDPRIO_BSSPLIT]), len);
		c->nr_cmdprio_bs = len / sizeof(c->cmdprio_bs[0]);
	}
	for (d = 0; d < KB_BSS_DIRS; d++)
		if (tb[bss_attrs[d]] && parse_kbss(tb[bss_attrs[d]], c, d))
			return -EINVAL;
	return 0;
}

/* A flag's or an unsigned number's value into *v; false: another type. */
static bool scalar_value(const struct nlattr *a, enum kb_nl_type t, uint64_t *v)
{
	switch (t) {
	case KB_NLT_FLAG:	*v = 1; return true;
	case KB_NLT_U8:		*v = nla_get_u8(a); return true;
	case KB_NLT_U16:	*v = nla_get_u16(a); return true;
	case KB_NLT_U32:	*v = nla_get_u32(a); return true;
	case KB_NLT_U64:	*v = nla_get_u64(a); return true;
	case KB_NLT_S32:	*v = (uint64_t)(int64_t)nla_get_s32(a); return true;
	default:		return false;
	}
}

/* cmdprio: all three or none; the writes' own, else (a 0.6 module) the reads'. */
static void parse_kcfg_cmdprio(struct kb_kcfg *c)
{
	static const unsigned int attr[3][KIOBENCH_NR_DIRS] = {
		{ KIOBENCH_A_CMDPRIO_PERCENTAGE, KIOBENCH_A_CMDPRIO_PERCENTAGE_WRITE },
		{ KIOBENCH_A_CMDPRIO_CLASS, KIOBENCH_A_CMDPRIO_CLASS_WRITE },
		{ KIOBENCH_A_CMDPRIO, KIOBENCH_A_CMDPRIO_WRITE },
	};
	uint8_t *dst[3] = { c->cmdprio_pct, c->cmdprio_class, c->cmdprio };
	const int r = KIOBENCH_DIR_READ, w = KIOBENCH_DIR_WRITE;
	int i;

	for (i = 0; i < 3; i++)
		if (!c->has[attr[i][r]])
			return;
	for (i = 0; i < 3; i++) {
		dst[i][r] = c->val[attr[i][r]];
		dst[i][w] = c->has[attr[i][w]] ? c->val[attr[i][w]] : dst[i][r];
	}
}

/*
 * The job's settings in a status reply (a module older than 0.5 sends none:
 * present stays false): every flag and unsigned number by its attribute (a
 * flag or a limit the kernel leaves out is off), then the rules and lists.
 */
static int parse_kcfg(struct nlmsghdr *nlh, struct nlattr **tb, struct kb_kcfg *c)
{
	unsigned int a;

	memset(c, 0, sizeof(*c));
	if (!tb[KIOBENCH_A_COMPLETION] || !tb[KIOBENCH_A_IODEPTH])
		return 0;
	c->present = true;
	for (a = 0; a <= KIOBENCH_A_MAX; a++)
		c->has[a] = tb[a] && scalar_value(tb[a], kb_nl_attrs[a].type, &c->val[a]);
	if (!c->has[KIOBENCH_A_RWMIX_READ])
		c->val[KIOBENCH_A_RWMIX_READ] = 100;	/* a module without it reads */
	c->has_prio = c->has[KIOBENCH_A_PRIOCLASS] && c->has[KIOBENCH_A_PRIO];
	parse_kcfg_cmdprio(c);
	if (tb[KIOBENCH_A_CPUS]) {
		int len = nla_len(tb[KIOBENCH_A_CPUS]);

		if (len <= 0 || len % 4 || len / 4 > KB_KCFG_CPUS)
			return -EINVAL;
		c->nr_cpus = len / 4;
		memcpy(c->cpus, nla_data(tb[KIOBENCH_A_CPUS]), len);
	}
	if (tb[KIOBENCH_A_WRITE_STREAMS]) {
		int len = nla_len(tb[KIOBENCH_A_WRITE_STREAMS]);

		if (len <= 0 || len > (int)sizeof(c->write_streams))
			return -EINVAL;
		c->nr_write_streams = (unsigned int)len;
		memcpy(c->write_streams, nla_data(tb[KIOBENCH_A_WRITE_STREAMS]), len);
	}
	for (a = 0; a < 3; a++) {
		static const int ea[3] = { KIOBENCH_A_IGNORE_ERROR_READ,
			KIOBENCH_A_IGNORE_ERROR_WRITE, KIOBENCH_A_IGNORE_ERROR_VERIFY };
		int len = tb[ea[a]] ? nla_len(tb[ea[a]]) : 0;

		if (len % 4 || len / 4 > 16)
			return -EINVAL;
		c->nr_ignore_error[a] = len / 4;
		if (len)
			memcpy(c->ignore_error[a], nla_data(tb[ea[a]]), len);
	}
	return parse_kcfg_lists(nlh, tb, c);
}

/* The errors gone on from: fio's first_error and the counts by type and errno. */
static int parse_errs(struct nlattr **tb, struct kb_status *st)
{
	int len = tb[KIOBENCH_A_JOB_ERR_COUNTS] ? nla_len(tb[KIOBENCH_A_JOB_ERR_COUNTS]) : 0;

	if (tb[KIOBENCH_A_JOB_FIRST_ERROR])
		st->first_error = (int32_t)nla_get_u32(tb[KIOBENCH_A_JOB_FIRST_ERROR]);
	if (tb[KIOBENCH_A_JOB_ERROR_AT] &&
	    nla_len(tb[KIOBENCH_A_JOB_ERROR_AT]) == sizeof(st->error_at)) {
		memcpy(&st->error_at, nla_data(tb[KIOBENCH_A_JOB_ERROR_AT]), sizeof(st->error_at));
		st->has_error_at = true;
	}
	if (len % sizeof(st->errs[0]))
		return -1;
	st->nr_errs = len / sizeof(st->errs[0]);
	if (st->nr_errs > KB_ERR_COUNTS)
		st->nr_errs = KB_ERR_COUNTS;
	if (len)
		memcpy(st->errs, nla_data(tb[KIOBENCH_A_JOB_ERR_COUNTS]),
		       st->nr_errs * sizeof(st->errs[0]));
	return 0;
}

/*
 * pi_act=0's counts: JOB_PI_ERRORS thrice, in the order of enum
 * kiobench_pi_check; the first wrong LBA once there is one.  Never fails.
 */
static int pi_st(struct kb_status *st, struct nlattr **tb, struct nlmsghdr *nlh)
{
	struct nlattr *a;
	unsigned int k = 0;
	int rem;

	if (tb[KIOBENCH_A_JOB_PI_FIRST_LBA]) {
		st->pi_first_lba = nla_get_u64(tb[KIOBENCH_A_JOB_PI_FIRST_LBA]);
		st->has_pi_first_lba = true;
	}
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		if (nla_type(a) != KIOBENCH_A_JOB_PI_ERRORS || nla_len(a) != sizeof(uint64_t))
			continue;
		if (k < sizeof(st->pi_errors) / sizeof(st->pi_errors[0]))
			st->pi_errors[k] = nla_get_u64(a);
		k++;
		st->has_pi = true;
	}
	return 0;
}

static int parse_status(struct nl_msg *msg, struct kb_status *st)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[KIOBENCH_A_MAX + 1], *a;
	int rem;

	if (parse_attrs(msg, tb) || !tb[KIOBENCH_A_JOB_ID])
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->state = -1;
	st->id = nla_get_u32(tb[KIOBENCH_A_JOB_ID]);
	if (tb[KIOBENCH_A_JOB_NAME])
		snprintf(st->name, sizeof(st->name), "%s",
			 nla_get_string(tb[KIOBENCH_A_JOB_NAME]));
	if (tb[KIOBENCH_A_JOB_STATE])
		st->state = nla_get_u8(tb[KIOBENCH_A_JOB_STATE]);
	if (tb[KIOBENCH_A_JOB_ERROR])
		st->error = (int32_t)nla_get_u32(tb[KIOBENCH_A_JOB_ERROR]);
	if (tb[KIOBENCH_A_JOB_ELAPSED_NS])
		st->elapsed_ns = nla_get_u64(tb[KIOBENCH_A_JOB_ELAPSED_NS]);
	if (tb[KIOBENCH_A_JOB_MEASURED_NS])
		st->measured_ns = nla_get_u64(tb[KIOBENCH_A_JOB_MEASURED_NS]);
	if (tb[KIOBENCH_A_JOB_NR_WORKERS])
		st->nr_workers = nla_get_u32(tb[KIOBENCH_A_JOB_NR_WORKERS]);
	if (tb[KIOBENCH_A_JOB_CPU_NS])
		st->cpu_ns = nla_get_u64(tb[KIOBENCH_A_JOB_CPU_NS]);
	if (tb[KIOBENCH_A_JOB_ZERO_READS])
		st->zero_reads = nla_get_u64(tb[KIOBENCH_A_JOB_ZERO_READS]);
	if (tb[KIOBENCH_A_JOB_RETRIES])
		st->retries = nla_get_u64(tb[KIOBENCH_A_JOB_RETRIES]);
	if (tb[KIOBENCH_A_JOB_VERIFIED]) {
		static const int va[KB_VCOUNTS] = {
			KIOBENCH_A_JOB_VERIFIED, KIOBENCH_A_JOB_VERIFY_CORRUPT,
			KIOBENCH_A_JOB_VERIFY_MISDIRECTED, KIOBENCH_A_JOB_VERIFY_STALE,
			KIOBENCH_A_JOB_VERIFY_TRIMMED };
		int i;

		for (i = 0; i < KB_VCOUNTS; i++)
			st->verify[i] = tb[va[i]] ? nla_get_u64(tb[va[i]]) : 0;
		st->has_verify = true;
	}
	if (tb[KIOBENCH_A_JOB_OWNER]) {
		st->owner = nla_get_u32(tb[KIOBENCH_A_JOB_OWNER]);
		st->has_owner = true;
	}
	if (tb[KIOBENCH_A_DEBUGFS_DIR])
		snprintf(st->debugfs_dir, sizeof(st->debugfs_dir), "%s",
			 nla_get_string(tb[KIOBENCH_A_DEBUGFS_DIR]));
	/* KIOBENCH_A_JOB_STATS appears once per direction */
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		struct nlattr *sb[KIOBENCH_STAT_A_MAX + 1];
		struct kb_dirstat *ds;
		unsigned int d;

		if (nla_type(a) != KIOBENCH_A_JOB_STATS)
			continue;
		if (nla_parse_nested(sb, KIOBENCH_STAT_A_MAX, a, kb_stat_policy) < 0 ||
		    !sb[KIOBENCH_STAT_A_DIR])
			return -EINVAL;
		d = nla_get_u8(sb[KIOBENCH_STAT_A_DIR]);
		if (d >= KIOBENCH_NR_DIRS)
			continue;
		ds = &st->dir[d];
		ds->present = true;
#define G(attr, field) if (sb[attr]) ds->field = nla_get_u64(sb[attr])
		G(KIOBENCH_STAT_A_IOS, ios);
		G(KIOBENCH_STAT_A_BYTES, bytes);
		G(KIOBENCH_STAT_A_ERRORS, errors);
		G(KIOBENCH_STAT_A_LAT_MIN, lat_min);
		G(KIOBENCH_STAT_A_LAT_MAX, lat_max);
		G(KIOBENCH_STAT_A_LAT_SUM, lat_sum);
		G(KIOBENCH_STAT_A_LAT_SUMSQ_HI, sumsq_hi);
		G(KIOBENCH_STAT_A_LAT_SUMSQ_LO, sumsq_lo);
		G(KIOBENCH_STAT_A_ALL_IOS, all_ios);
		G(KIOBENCH_STAT_A_ALL_BYTES, all_bytes);
#undef G
	}
	return parse_errs(tb, st) || pi_st(st, tb, nlh) ? -EINVAL : parse_kcfg(nlh, tb, &st->cfg);
}

int kb_nl_parse_status(struct nl_msg *msg, struct kb_status *st)
{
	init_policies();
	return parse_status(msg, st);
}

struct get_ctx {
	struct kb_status *st;
	bool got;
	int (*cb)(const struct kb_status *, void *);
	void *arg;
};

static int parse_get(struct nl_msg *msg, void *arg)
{
	struct get_ctx *c = arg;
	struct kb_status st;
	int ret = parse_status(msg, c->cb ? &st : c->st);

	if (ret)
		return ret;
	c->got = true;
	return c->cb ? c->cb(&st, c->arg) : 0;
}

int kb_nl_job_get(struct kb_nl *nl, uint32_t id, struct kb_status *st,
		  struct kb_nlerr *e)
{
	struct get_ctx c = { .st = st };
	struct nl_msg *msg = new_msg(nl, KIOBENCH_CMD_JOB_GET, 0, 0);

	if (!msg || nla_put_u32(msg, KIOBENCH_A_JOB_ID, id)) {
		nlmsg_free(msg);
		set_err(e, -ENOMEM, NULL);
		return e->err;
	}
	if (!request(nl, msg, parse_get, &c, e) && !c.got)
		set_err(e, -EINVAL, "JOB_GET without a reply");
	return e->err;
}

int kb_nl_job_dump(struct kb_nl *nl, int (*cb)(const struct kb_status *st, void *arg),
		   void *arg, struct kb_nlerr *e)
{
	struct get_ctx c = { .cb = cb, .arg = arg };
	struct nl_msg *msg = new_msg(nl, KIOBENCH_CMD_JOB_GET, NLM_F_DUMP, 0);

	if (!msg) {
		set_err(e, -ENOMEM, NULL);
		return e->err;
	}
	return request(nl, msg, parse_get, &c, e);
}

/* ---- events --------------------------------------------------------------------- */

int kb_nl_event_fd(const struct kb_nl *nl)
{
	return nl->ev ? nl_socket_get_fd(nl->ev) : -1;
}

struct ev_ctx {
	struct kb_nl *nl;
	void (*cb)(uint32_t, int, int32_t, void *);
	void *arg;
};

static int cb_event(struct nl_msg *msg, void *arg)
{
	struct ev_ctx *c = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[KIOBENCH_A_MAX + 1];

	if (nlh->nlmsg_type != c->nl->family ||
	    genlmsg_hdr(nlh)->cmd != KIOBENCH_CMD_JOB_NTF ||
	    parse_attrs(msg, tb) || !tb[KIOBENCH_A_JOB_ID] || !tb[KIOBENCH_A_JOB_STATE])
		return NL_SKIP;
	c->cb(nla_get_u32(tb[KIOBENCH_A_JOB_ID]), nla_get_u8(tb[KIOBENCH_A_JOB_STATE]),
	      tb[KIOBENCH_A_JOB_ERROR] ? (int32_t)nla_get_u32(tb[KIOBENCH_A_JOB_ERROR]) : 0,
	      c->arg);
	return NL_OK;
}

/* Multicast notifications carry sequence number 0: accept any. */
static int cb_seq_any(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

int kb_nl_events(struct kb_nl *nl, void (*cb)(uint32_t id, int state, int32_t error,
					       void *arg), void *arg, struct kb_nlerr *e)
{
	struct ev_ctx c = { .nl = nl, .cb = cb, .arg = arg };
	struct nl_cb *ncb = nl_cb_alloc(NL_CB_DEFAULT);
	int ret;

	set_err(e, 0, NULL);
	if (!ncb) {
		set_err(e, -ENOMEM, NULL);
		return e->err;
	}
	nl_cb_set(ncb, NL_CB_VALID, NL_CB_CUSTOM, cb_event, &c);
	nl_cb_set(ncb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, cb_seq_any, NULL);
	for (;;) {
		ret = nl_recvmsgs_report(nl->ev, ncb);
		if (ret == 0 || ret == -NLE_AGAIN) {
			ret = 0;
			break;
		}
		/* -NLE_NOMEM: the group overran the buffer; JOB_GET polling covers it */
		if (ret < 0 && ret != -NLE_NOMEM) {
			set_err(e, nlerr_errno(ret), nl_geterror(ret));
			ret = e->err;
			break;
		}
	}
	nl_cb_put(ncb);
	return ret;
}
