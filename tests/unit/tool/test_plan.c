// SPDX-License-Identifier: GPL-2.0
/* Unit tests of planning steps (tools/plan.c): value lists, depth split, duty cycle. */
#include "steps.h"
#include "suite.h"
#include "tool_test.h"

static bool list_is(const char *s, bool sizes, const uint64_t *want, unsigned int n)
{
	uint64_t *v = NULL;
	unsigned int nr = 0, i;
	bool ok;

	if (kb_parse_value_list(s, sizes, 1, UINT32_MAX, &v, &nr, err, sizeof(err))) {
		printf("    %s: %s\n", s, err);
		return false;
	}
	ok = nr == n;
	for (i = 0; ok && i < n; i++)
		ok = v[i] == want[i];
	if (!ok) {
		printf("    %s ->", s);
		for (i = 0; i < nr; i++)
			printf(" %llu", (unsigned long long)v[i]);
		printf("\n");
	}
	free(v);
	return ok;
}

static bool list_bad(const char *s, bool sizes, const char *msg)
{
	uint64_t *v = NULL;
	unsigned int nr = 0;

	if (!kb_parse_value_list(s, sizes, 1, 1u << 24, &v, &nr, err, sizeof(err))) {
		free(v);
		return false;
	}
	if (!strstr(err, msg))
		printf("    %s: '%s' lacks '%s'\n", s, err, msg);
	return strstr(err, msg) != NULL;
}

static void t_value_lists(void)
{
	static const uint64_t qd000[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
					  16, 18, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60,
					  64 };
	static const uint64_t bs[] = { 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
				       131072, 262144, 524288, 1048576 };
	static const uint64_t odd[] = { 3, 8 }, one[] = { 7 }, pw[] = { 1, 3, 9 };
	static const uint64_t sz[] = { 4096, 131072, 1048576 };

	CHECK(list_is("1-16,18,20,24-64:4", false, qd000, 29));
	CHECK(list_is("512-1m:x2", true, bs, 12));
	CHECK(list_is("4k,128k,1m", true, sz, 3));
	CHECK(list_is("3-10:5", false, odd, 2));	/* the step does not reach 10 */
	CHECK(list_is("7", false, one, 1));
	CHECK(list_is("1-10:*3", false, pw, 3));
	CHECK(list_bad("", false, "empty"));
	CHECK(list_bad("0-4", false, "must be 1..16777216"));
	CHECK(list_bad("8-4", false, "goes down"));
	CHECK(list_bad("4:2", false, "needs a range"));
	CHECK(list_bad("1-8:0", false, "bad step"));
	CHECK(list_bad("1-8:x1", false, "bad step"));
	CHECK(list_bad("1,,x", false, "invalid number 'x'"));
	CHECK(list_bad("4q", true, "invalid size"));
	CHECK(list_bad("1-100000", false, "more than 4096"));
}

static void t_split_qd(void)
{
	static const struct { uint32_t qd, maxw, w, per; } t[] = {
		{ 1, 4, 1, 1 }, { 2, 4, 2, 1 }, { 3, 4, 3, 1 }, { 4, 4, 4, 1 },
		{ 6, 4, 3, 2 }, { 7, 4, 1, 7 }, { 9, 4, 3, 3 }, { 18, 4, 3, 6 },
		{ 20, 4, 4, 5 }, { 64, 4, 4, 16 }, { 64, 1, 1, 64 }, { 5, 0, 1, 5 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t w = 0, per = 0;

		kb_split_qd(t[i].qd, t[i].maxw, &w, &per);
		CHECK(w == t[i].w && per == t[i].per);
		CHECK(w * per == t[i].qd);
	}
}

static void t_duty(void)
{
	CHECK(kb_duty_idle_ns(1000000000, 20) == 4000000000ULL);
	CHECK(kb_duty_idle_ns(300, 25) == 900);
	CHECK(kb_duty_idle_ns(123456789, 100) == 0);
	CHECK(kb_duty_idle_ns(UINT64_MAX / 2, 1) == (uint64_t)((unsigned __int128)(UINT64_MAX / 2) * 99));
	CHECK(fabs(kb_duty_cycle(1000, kb_duty_idle_ns(1000, 20)) - 20.0) < 1e-9);
	CHECK(fabs(kb_duty_cycle(1, 3) - 25.0) < 1e-9);
	CHECK(kb_duty_cycle(0, 0) == 0.0);
}

static void t_step_label(void)
{
	char b[32];

	kb_step_label(b, sizeof(b), KB_VAR_BS, 4096);
	CHECK_STR(b, "4k");
	kb_step_label(b, sizeof(b), KB_VAR_BS, 3 << 20);
	CHECK_STR(b, "3m");
	kb_step_label(b, sizeof(b), KB_VAR_BS, 1536);
	CHECK_STR(b, "1536");
	kb_step_label(b, sizeof(b), KB_VAR_IODEPTH, 1024);
	CHECK_STR(b, "1024");
	kb_step_label(b, sizeof(b), KB_VAR_NONE, 7);
	CHECK_STR(b, "-");
}

/* A suite's part scaled down keeps what a step needs to mean something. */
static void t_scale_part(void)
{
	struct part_def d = { .bs = 8192, .runtime_ns = 240000000000ULL, .ramp_ns = 60000000000ULL,
			      .io_size = 10ULL << 30, .span = 0 };
	struct part_def b = { .runtime_ns = 1000000000ULL, .burst_size = 1ULL << 30,
			      .burst_total = 20ULL << 30, .span = 8ULL << 30 };

	kb_scale_part(&d, 0.004, 64 << 20);
	CHECK(d.runtime_ns == 960000000ULL);
	CHECK(d.ramp_ns == 240000000ULL);
	CHECK(d.io_size % 8192 == 0 && d.io_size <= (uint64_t)((10ULL << 30) * 0.004));
	CHECK(d.span == 64 << 20);	/* no span of its own: the scaled device's */
	kb_scale_part(&b, 0.0001, 64 << 20);
	CHECK(b.runtime_ns == KB_MIN_STEP_NS);	/* 0.1 ms: at least 200 ms */
	CHECK(b.var == KB_VAR_BURST);
	CHECK(b.burst_size == KB_MIN_BURST);	/* 1 MiB and 256 x 4 KiB */
	CHECK(b.burst_total == KB_MIN_BURSTS * b.burst_size);	/* 20 x 0.0001 rounds to 0 */
	CHECK(b.span == KB_MIN_SPAN);
	CHECK(kb_scaled(0, 0.5, 4096, 1 << 20) == 0);
	CHECK(kb_scaled(10 << 20, 0.5, 1 << 20, 1 << 20) == 5 << 20);
}

void plan_tests(void)
{
	run_case("step labels", t_step_label);
	run_case("suite part scaling", t_scale_part);
	run_case("sweep value lists and ranges", t_value_lists);
	run_case("total queue depth split over workers", t_split_qd);
	run_case("duty cycle: idle from busy, achieved", t_duty);
}
