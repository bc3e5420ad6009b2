// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the netlink client's messages (tools/nl.c): which option
 * sets each request attribute of the spec, the JOB_NEW request an option
 * table entry's .attr makes, and the status read back by attribute.
 */
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "nl-names.h"
#include "nl.h"
#include "options.h"
#include "tool_test.h"

static const struct kb_nl_by_code *by_code(unsigned int attr)
{
	unsigned int i;

	for (i = 0; i < kb_nl_nr_by_code; i++)
		if (kb_nl_by_code[i].attr == attr)
			return &kb_nl_by_code[i];
	return NULL;
}

/* The bytes of a scalar type; 0: not one. */
static unsigned int type_bytes(enum kb_nl_type t)
{
	switch (t) {
	case KB_NLT_FLAG:
	case KB_NLT_U8:	return 1;
	case KB_NLT_U16: return 2;
	case KB_NLT_U32: return 4;
	case KB_NLT_U64: return 8;
	default: return 0;
	}
}

/*
 * Every request attribute of the spec is set by one option (its .attr) or
 * by code (kb_nl_by_code[], with why), not both; an option's attribute is
 * a scalar its field fits.
 */
static void t_request_attrs_have_a_setter(void)
{
	unsigned int a, i, opts;

	for (a = 1; a <= KIOBENCH_A_MAX; a++) {
		const struct kb_nl_attr *na = &kb_nl_attrs[a];

		for (i = 0, opts = 0; i < KB_NR_OPTS; i++)
			opts += kb_opts[i].attr == a;
		if (!na->request) {
			if (opts || by_code(a))
				printf("    %s: not a request attribute, but an option or code "
				       "sets it\n", na->name);
			CHECK(!opts && !by_code(a));
			continue;
		}
		if (opts + !!by_code(a) != 1)
			printf("    request attribute %s: set by %u options and %s code "
			       "(kb_opts[].attr or kb_nl_by_code[]: one of them)\n", na->name,
			       opts, by_code(a) ? "by" : "not by");
		CHECK(opts + !!by_code(a) == 1);
	}
	for (i = 0; i < KB_NR_OPTS; i++) {
		const struct kb_opt *o = &kb_opts[i];
		unsigned int bytes;

		if (!o->attr)
			continue;
		CHECK(o->attr <= KIOBENCH_A_MAX);
		bytes = o->attr <= KIOBENCH_A_MAX ? type_bytes(kb_nl_attrs[o->attr].type) : 0;
		if (!bytes || o->scope != KB_SCOPE_JOB || (o->size > bytes &&
		    (!o->max || o->max >> (8 * bytes))))
			printf("    %s: attribute %u, a field of %u bytes\n", o->name, o->attr,
			       o->size);
		CHECK(bytes && o->scope == KB_SCOPE_JOB);
		CHECK(o->size == 1 || o->size == 2 || o->size == 4 || o->size == 8);
		CHECK(o->size <= bytes || (o->max && !(o->max >> (8 * bytes))));
	}
	for (i = 0; i < kb_nl_nr_by_code; i++) {
		const struct kb_nl_by_code *c = &kb_nl_by_code[i];
		char label[64], *tok, *save;

		CHECK(c->why && c->why[0]);
		if (c->attr == KIOBENCH_A_JOB_ID)
			continue;
		/* the label names options: bs/bssplit is two */
		snprintf(label, sizeof(label), "%s", c->label);
		for (tok = strtok_r(label, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
			if (!kb_opt_find(tok))
				printf("    %s: no option %s\n", kb_nl_attrs[c->attr].name, tok);
			CHECK(kb_opt_find(tok));
		}
	}
}

/* A value of o's field that its attribute's width must carry whole. */
static uint64_t test_value(const struct kb_opt *o)
{
	enum kb_nl_type t = kb_nl_attrs[o->attr].type;

	if (t == KB_NLT_FLAG)
		return 1;
	if (o->max && o->max < 0xff)
		return o->max;
	return t == KB_NLT_U64 ? 0x123456789aULL + o->id : t == KB_NLT_U32 ? 0x12345 + o->id :
	       t == KB_NLT_U16 ? 0x123 + o->id : 0x42;
}

static void set_field(const struct kb_opt *o, struct kb_job *job, uint64_t v)
{
	void *f = (char *)job + o->off;

	switch (o->size) {
	case 1: *(uint8_t *)f = v; break;
	case 2: *(uint16_t *)f = v; break;
	case 4: *(uint32_t *)f = v; break;
	default: *(uint64_t *)f = v;
	}
	kb_job_mark(job, o->id, true);
}

/* job's JOB_NEW request, read back as the kernel's status of it would be. */
static int round_trip(const struct kb_job *job, struct kb_status *st)
{
	struct nl_msg *msg;
	int ret;

	if (kb_nl_job_msg(0, job, false, &msg))
		return -1;
	ret = nla_put_u32(msg, KIOBENCH_A_JOB_ID, 7) ? -1 : kb_nl_parse_status(msg, st);
	nlmsg_free(msg);
	return ret;
}

static void base_job(struct kb_job *job)
{
	struct kb_global g;

	kb_global_init(&g, KB_CMD_RUN);
	kb_job_init(job);
	CHECK(!apply(job, &g, "filename", "/dev/nullb0"));
	CHECK(!apply(job, &g, "hipri", "1"));	/* completion: a status has it */
	CHECK(!kb_job_check(job, err, sizeof(err)));
	kb_global_free(&g);
}

/*
 * Each option with an .attr that was given reaches the request whole, in
 * its attribute's type, and the status parse reads it back by attribute;
 * one not given is not sent.
 */
static void t_job_new_puts_every_option(void)
{
	static struct kb_status st;
	struct kb_global g;
	struct kb_job job;
	int i;

	kb_global_init(&g, KB_CMD_RUN);
	base_job(&job);
	for (i = 0; i < KB_NR_OPTS; i++)
		if (kb_opts[i].attr)
			set_field(&kb_opts[i], &job, test_value(&kb_opts[i]));
	CHECK(!round_trip(&job, &st));
	CHECK(st.cfg.present);
	for (i = 0; i < KB_NR_OPTS; i++) {
		const struct kb_opt *o = &kb_opts[i];

		if (!o->attr)
			continue;
		if (!kb_kcfg_has(&st.cfg, o->attr) ||
		    kb_kcfg_u64(&st.cfg, o->attr) != test_value(o))
			printf("    %s: sent %llu, read %llu\n", o->name,
			       (unsigned long long)test_value(o),
			       (unsigned long long)kb_kcfg_u64(&st.cfg, o->attr));
		CHECK(kb_kcfg_has(&st.cfg, o->attr));
		CHECK(kb_kcfg_u64(&st.cfg, o->attr) == test_value(o));
	}
	kb_job_free(&job);

	base_job(&job);
	CHECK(!apply(&job, &g, "iodepth", "3"));
	CHECK(!apply(&job, &g, "stages", "0"));	/* a flag given false: not sent */
	CHECK(!round_trip(&job, &st));
	for (i = 0; i < KB_NR_OPTS; i++)
		if (kb_opts[i].attr && i != KB_OPT_IODEPTH)
			CHECK(!kb_kcfg_has(&st.cfg, kb_opts[i].attr));
	CHECK(kb_kcfg_u64(&st.cfg, KIOBENCH_A_IODEPTH) == 3);
	kb_job_free(&job);
	kb_global_free(&g);
}

/* The rules of code: prio alone is best-effort, a zero spin is not sent... */
static void t_job_new_by_code(void)
{
	static struct kb_status st;
	struct kb_global g;
	struct kb_job job;

	kb_global_init(&g, KB_CMD_RUN);
	base_job(&job);
	CHECK(!apply(&job, &g, "iodepth", "2"));
	CHECK(!apply(&job, &g, "prio", "4"));
	CHECK(!apply(&job, &g, "thinktime", "1ms"));
	CHECK(!apply(&job, &g, "thinktime_spin", "0"));
	CHECK(!apply(&job, &g, "cmdprio_percentage", "30,40"));
	CHECK(!round_trip(&job, &st));
	CHECK(st.cfg.has_prio);
	CHECK(kb_kcfg_u64(&st.cfg, KIOBENCH_A_PRIOCLASS) == 2);
	CHECK(kb_kcfg_u64(&st.cfg, KIOBENCH_A_PRIO) == 4);
	CHECK(kb_kcfg_u64(&st.cfg, KIOBENCH_A_COMPLETION) == KIOBENCH_COMPLETION_POLL);
	CHECK(kb_kcfg_u64(&st.cfg, KIOBENCH_A_THINKTIME_NS) == 1000000);
	CHECK(!kb_kcfg_has(&st.cfg, KIOBENCH_A_THINKTIME_SPIN_NS));
	/* rwmix-read is always sent; the writes' cmdprio class and level are the reads' */
	CHECK(kb_kcfg_u64(&st.cfg, KIOBENCH_A_RWMIX_READ) == 100);
	CHECK(st.cfg.cmdprio_pct[KIOBENCH_DIR_READ] == 30);
	CHECK(st.cfg.cmdprio_pct[KIOBENCH_DIR_WRITE] == 40);
	CHECK(!kb_kcfg_has(&st.cfg, KIOBENCH_A_CMDPRIO_CLASS_WRITE));
	CHECK(st.cfg.cmdprio_class[KIOBENCH_DIR_WRITE] == st.cfg.cmdprio_class[KIOBENCH_DIR_READ]);
	CHECK(!kb_kcfg_has(&st.cfg, KIOBENCH_A_IO_BYTES));	/* no span known */
	kb_job_free(&job);
	kb_global_free(&g);
}

/* The kernel's lists of one round trip: "r|w|v" as errnos joined by ':'. */
static void lists(const struct kb_status *st, char *buf, size_t len)
{
	size_t at = 0;
	unsigned int t, i;

	buf[0] = '\0';
	for (t = 0; t < 3 && at < len; t++) {
		at += snprintf(buf + at, len - at, "%s", t ? "|" : "");
		for (i = 0; i < st->cfg.nr_ignore_error[t] && at < len; i++)
			at += snprintf(buf + at, len - at, "%s%u", i ? ":" : "",
				       st->cfg.ignore_error[t][i]);
	}
}

/*
 * fio's td_non_fatal_error() as the kernel's lists: each type with
 * continue_on_error's bit gets its ignore_error list, else EIO:EILSEQ; a
 * type without the bit none (it stops at any error); the kernel's
 * go-on-from-everything continue-on-error never.
 */
static void t_job_new_error_lists(void)
{
	static const struct { const char *coe, *ie, *first, *want; } t[] = {
		{ "none", NULL, NULL, "||" },
		{ "read", NULL, NULL, "5:84||" },
		{ "write", NULL, NULL, "|5:84|" },
		{ "io", NULL, NULL, "5:84|5:84|" },
		{ "verify", NULL, NULL, "||5:84" },
		{ "all", NULL, NULL, "5:84|5:84|5:84" },
		{ "1", NULL, NULL, "5:84|5:84|5:84" },
		{ "all", "EAGAIN,,EILSEQ", NULL, "11|5:84|84" },
		{ "read", ",ENOSPC", NULL, "5:84|28|" },
		{ NULL, "ENOSPC", NULL, "28||" },		/* the list alone: its type on */
		{ "none", NULL, "EIO", "||" },			/* the list, then none */
		{ "read", NULL, ",EIO", "5:84||" },		/* the write list inert */
	};
	static struct kb_status st;
	struct kb_global g;
	struct kb_job job;
	char got[128];
	size_t i;

	kb_global_init(&g, KB_CMD_RUN);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		base_job(&job);
		CHECK(!apply(&job, &g, "iodepth", "2"));	/* a status has it */
		if (t[i].first)
			CHECK(!apply(&job, &g, "ignore_error", t[i].first));
		if (t[i].coe)
			CHECK(!apply(&job, &g, "continue_on_error", t[i].coe));
		if (t[i].ie)
			CHECK(!apply(&job, &g, "ignore_error", t[i].ie));
		CHECK(!round_trip(&job, &st));
		lists(&st, got, sizeof(got));
		if (strcmp(got, t[i].want))
			printf("    continue_on_error=%s ignore_error=%s: lists %s, not %s\n",
			       t[i].coe, t[i].ie, got, t[i].want);
		CHECK(!strcmp(got, t[i].want));
		CHECK(!kb_kcfg_has(&st.cfg, KIOBENCH_A_CONTINUE_ON_ERROR));
		kb_job_free(&job);
	}
	kb_global_free(&g);
}

/* latency_target's group: the four attributes as the kernel takes them. */
static void t_job_new_latency_target(void)
{
	static struct kb_status st;
	struct kb_global g;
	struct kb_job job;

	kb_global_init(&g, KB_CMD_RUN);
	base_job(&job);
	CHECK(!apply(&job, &g, "iodepth", "4"));
	CHECK(!apply(&job, &g, "latency_target", "1500"));
	CHECK(!round_trip(&job, &st));
	CHECK(kb_kcfg_u64(&st.cfg, KIOBENCH_A_LATENCY_TARGET_NS) == 1500000);
	/* not given: the kernel's defaults (100 %, no window, no run) */
	CHECK(!kb_kcfg_has(&st.cfg, KIOBENCH_A_LATENCY_PERCENTILE_PPM));
	CHECK(!kb_kcfg_has(&st.cfg, KIOBENCH_A_LATENCY_WINDOW_NS));
	CHECK(!kb_kcfg_has(&st.cfg, KIOBENCH_A_LATENCY_RUN));
	kb_job_free(&job);
	base_job(&job);
	CHECK(!apply(&job, &g, "iodepth", "4"));
	CHECK(!apply(&job, &g, "latency_target", "1ms"));
	CHECK(!apply(&job, &g, "latency_window", "100ms"));
	CHECK(!apply(&job, &g, "latency_percentile", "99.9"));
	CHECK(!apply(&job, &g, "latency_run", "1"));
	CHECK(!round_trip(&job, &st));
	CHECK(kb_kcfg_u64(&st.cfg, KIOBENCH_A_LATENCY_WINDOW_NS) == 100000000);
	CHECK(kb_kcfg_u64(&st.cfg, KIOBENCH_A_LATENCY_PERCENTILE_PPM) == 999000);
	CHECK(kb_kcfg_has(&st.cfg, KIOBENCH_A_LATENCY_RUN));
	kb_job_free(&job);
	kb_global_free(&g);
}

/*
 * blockalign below a bssplit table's smallest size reaches the kernel:
 * kb_job_min_bs() had counted bs's default 4k beside the table, took
 * blockalign=4k for the default alignment and sent none, so the kernel
 * aligned random offsets to the table's 8k, where fio aligns to 4k.
 * Mutation: kb_job_min_bs() starting from job->bs again: red.
 */
static void t_job_new_blockalign_of_bssplit(void)
{
	static struct kb_status st;
	struct kb_global g;
	struct kb_job job;

	kb_global_init(&g, KB_CMD_RUN);
	kb_job_init(&job);
	CHECK(!apply(&job, &g, "filename", "/dev/nullb0"));
	CHECK(!apply(&job, &g, "rw", "randread"));
	CHECK(!apply(&job, &g, "bssplit", "8k/50:64k/50"));
	CHECK(!apply(&job, &g, "blockalign", "4k"));
	/* what a status has */
	CHECK(!apply(&job, &g, "hipri", "1"));
	CHECK(!apply(&job, &g, "iodepth", "4"));
	CHECK(!kb_job_check(&job, err, sizeof(err)));
	CHECK(!round_trip(&job, &st));
	CHECK(kb_kcfg_u64(&st.cfg, KIOBENCH_A_BLOCKALIGN) == 4096);
	kb_job_free(&job);
	kb_global_free(&g);
}

/*
 * random_generator=lfsr of a random job under the random map sends
 * random-lfsr, which the status reads back; norandommap's does not (lfsr
 * with ba runs without the map), nor does a sequential job's.
 */
static void t_job_new_random_lfsr(void)
{
	static const char *const cases[][3] = {
		/* rw, extra option, its value */
		{ "randread", "bs", "4k" },
		{ "randrw", "bssplit", "4k/50:16k/50" },
		{ "randread", "ba", "8k" },
		{ "read", "bs", "4k" },
	};
	static struct kb_status st;
	struct kb_global g;
	struct kb_job job;
	unsigned int i;

	kb_global_init(&g, KB_CMD_RUN);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		base_job(&job);
		CHECK(!apply(&job, &g, "rw", cases[i][0]));
		CHECK(!apply(&job, &g, cases[i][1], cases[i][2]));
		CHECK(!apply(&job, &g, "random_generator", "lfsr"));
		CHECK(!apply(&job, &g, "iodepth", "2"));	/* what a status has */
		CHECK(!kb_job_check(&job, err, sizeof(err)));
		CHECK(!round_trip(&job, &st));
		CHECK(st.cfg.present);
		CHECK(kb_kcfg_has(&st.cfg, KIOBENCH_A_RANDOM_LFSR) == (i < 2));
		CHECK(kb_kcfg_has(&st.cfg, KIOBENCH_A_NORANDOMMAP) == (i == 2));
		kb_job_free(&job);
	}
	base_job(&job);
	CHECK(!apply(&job, &g, "rw", "randread"));
	CHECK(!apply(&job, &g, "iodepth", "2"));
	CHECK(!round_trip(&job, &st));
	CHECK(st.cfg.present && !kb_kcfg_has(&st.cfg, KIOBENCH_A_RANDOM_LFSR));
	kb_job_free(&job);
	kb_global_free(&g);
}

void nl_tests(void)
{
	run_case("nl: random_generator=lfsr sends random-lfsr", t_job_new_random_lfsr);
	run_case("nl: blockalign below bssplit's sizes is sent", t_job_new_blockalign_of_bssplit);
	run_case("nl: latency_target's attributes", t_job_new_latency_target);
	run_case("nl: every request attribute has its setter", t_request_attrs_have_a_setter);
	run_case("nl: job-new puts every option given", t_job_new_puts_every_option);
	run_case("nl: job-new's attributes set by code", t_job_new_by_code);
	run_case("nl: continue_on_error and ignore_error as the kernel's lists", t_job_new_error_lists);
}
