// SPDX-License-Identifier: GPL-2.0
/* Unit tests of where each I/O ran (tools/locality.c, tools/locality_out.c). */
#include "locality.h"
#include "locality_out.h"
#include "report.h"
#include "tool_test.h"

/* Worker on CPU 1; interrupt on CPU 3 (CPUs 2-3 share a cache); one on CPU 1. */
static const char loc_text[] =
	"# kiobench-locality 1\n"
	"# cpus 4 queues 2\n"
	"cpu 1 submitted 100 completed 10 local 10 hardirq 0 softirq 0 task 10\n"
	"cpu 2 submitted 0 completed 30 local 0 hardirq 30 softirq 0 task 0\n"
	"cpu 3 submitted 20 completed 80 local 20 hardirq 0 softirq 80 task 0\n"
	"pair 1 1 10\n"
	"pair 1 2 30\n"
	"pair 1 3 60\n"
	"pair 3 3 20\n"
	"hq 0 100\n"
	"hq none 20\n";

static void t_parse(void)
{
	struct kb_locality l;

	CHECK(!kb_loc_parse(loc_text, &l, err, sizeof(err)));
	CHECK(l.present && l.nr_cpus == 3 && l.nr_pairs == 4 && l.nr_queues == 2);
	CHECK(l.total == 120);
	CHECK(l.ctx[KB_LOC_HARDIRQ] == 30 && l.ctx[KB_LOC_SOFTIRQ] == 80 &&
	      l.ctx[KB_LOC_TASK] == 10);
	CHECK(l.pairs[2].s == 1 && l.pairs[2].c == 3 && l.pairs[2].n == 60);
	CHECK(l.queues[0].q == 0 && l.queues[0].n == 100);
	CHECK(l.queues[1].q == -1 && l.queues[1].n == 20);
	kb_loc_free(&l);
	CHECK(kb_loc_parse("# kiobench-locality 1\ncpu x\n", &l, err, sizeof(err)) == -1);
	CHECK(strstr(err, "bad line") != NULL);
	CHECK(!l.present && !l.cpus);
	CHECK(kb_loc_parse("# kiobench-stages 1\n", &l, err, sizeof(err)) == -1);
}

/* sysfs: CPU 1 has L1 (itself) and L3 (1-2), CPU 3 its own L2 only. */
static void fake_caches(const char *root)
{
	static const char *const dirs[] = {
		"devices", "devices/system", "devices/system/cpu", "devices/system/cpu/cpu1",
		"devices/system/cpu/cpu1/cache", "devices/system/cpu/cpu1/cache/index0",
		"devices/system/cpu/cpu1/cache/index3", "devices/system/cpu/cpu3",
		"devices/system/cpu/cpu3/cache", "devices/system/cpu/cpu3/cache/index2",
	};
	char path[512];
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		mkdir(path, 0755);
	}
	write_text(root, "devices/system/cpu/cpu1/cache/index0/level", "1\n");
	write_text(root, "devices/system/cpu/cpu1/cache/index0/shared_cpu_list", "1\n");
	write_text(root, "devices/system/cpu/cpu1/cache/index3/level", "3\n");
	write_text(root, "devices/system/cpu/cpu1/cache/index3/shared_cpu_list", "0-2\n");
	write_text(root, "devices/system/cpu/cpu3/cache/index2/level", "2\n");
	write_text(root, "devices/system/cpu/cpu3/cache/index2/shared_cpu_list", "3\n");
}

static void t_classify(void)
{
	char root[] = "/tmp/kbloc.XXXXXX", cmd[600];
	struct kb_locality l;

	CHECK(mkdtemp(root) != NULL);
	fake_caches(root);
	CHECK(!kb_loc_parse(loc_text, &l, err, sizeof(err)));
	kb_loc_classify(root, &l);
	/* 1->1 and 3->3 local, 1->2 shares CPU 1's L3, 1->3 does not */
	CHECK(l.where[KB_LOC_LOCAL] == 30);
	CHECK(l.where[KB_LOC_LLC] == 30);
	CHECK(l.where[KB_LOC_REMOTE] == 60);
	CHECK(l.llc_known);
	kb_loc_free(&l);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK(!system(cmd));
}

static const char interrupts[] =
	"            CPU0       CPU1       CPU2       CPU3       \n"
	"   0:         44          0          0          0   IO-APIC   2-edge      timer\n"
	"  27:          0          0          0          2  PCI-MSIX-0000:00:05.0   0-edge      nvme1q0\n"
	"  28:          5          0          0        577  PCI-MSIX-0000:00:05.0   1-edge      nvme1q1\n"
	" NMI:          0          0          0          0   Non-maskable interrupts\n";

static void t_irqs(void)
{
	static const unsigned int irqs[] = { 27, 28 };
	struct kb_irqs before, after;
	char *t = strdup(interrupts);

	CHECK(!kb_irqs_parse(t, irqs, 2, &after));
	CHECK(after.ncpu == 4 && after.cpu[3] == 3 && after.nr == 2);
	CHECK_STR(after.l[1].name, "nvme1q1");
	CHECK(after.l[1].irq == 28 && after.l[1].cnt[3] == 577 && after.l[1].total == 582);
	strcpy(t, interrupts);
	CHECK(!kb_irqs_parse(t, irqs, 2, &before));
	before.l[1].cnt[3] = 77;
	kb_irqs_delta(&after, &before);
	/* nvme1q0 did not move: dropped; nvme1q1 moved by 500 on CPU 3 */
	CHECK(after.nr == 1 && after.l[0].irq == 28 && after.l[0].total == 500);
	CHECK(after.l[0].cnt[3] == 500 && after.l[0].cnt[0] == 0);
	kb_irqs_free(&after);
	kb_irqs_free(&before);
	strcpy(t, interrupts);
	CHECK(kb_irqs_parse(t, irqs, 0, &after) == -1);
	kb_irqs_free(&after);
	free(t);
}

static void print_loc(FILE *f, const struct kb_result *r, size_t n)
{
	(void)n;
	kb_print_locality(f, r);
}

static void t_output(void)
{
	struct kb_result r;
	struct kb_job job;
	struct json_object *o;
	char *out;

	make_result(&r, &job, 100);
	CHECK(!kb_loc_parse(loc_text, &r.loc, err, sizeof(err)));
	r.loc.where[KB_LOC_LOCAL] = 30;
	r.loc.where[KB_LOC_LLC] = 30;
	r.loc.where[KB_LOC_REMOTE] = 60;
	r.loc.llc_known = true;
	out = capture(print_loc, &r);
	CHECK(strstr(out, "locality: 120 I/Os completed: 25.00% on the submitting CPU, 25.00% on "
		      "another sharing its last-level cache, 50.00% elsewhere") != NULL);
	CHECK(strstr(out, "context: hardirq 25.00%, softirq 66.67%, task 8.33%") != NULL);
	CHECK(strstr(out, "hardware queues: hq0 100 none (bio-based) 20") != NULL);
	CHECK(strstr(out, "device interrupts: none found") != NULL);
	free(out);
	o = kb_locality_json(&r);
	CHECK_STR(json_object_to_json_string_ext(json_object_object_get(o, "context"),
						 JSON_C_TO_STRING_PLAIN),
		  "{\"hardirq\":30,\"softirq\":80,\"task\":10}");
	CHECK(json_object_get_uint64(json_object_object_get(o, "remote")) == 60);
	CHECK(json_object_array_length(json_object_object_get(o, "pairs")) == 4);
	json_object_put(o);
	kb_loc_free(&r.loc);
	free_result(&r, &job);
}

/* A second job of the group: worker on CPU 2, its own queue 1, the same vector. */
static const char loc_text2[] =
	"# kiobench-locality 1\n"
	"# cpus 4 queues 2\n"
	"cpu 2 submitted 80 completed 50 local 50 hardirq 50 softirq 0 task 0\n"
	"cpu 3 submitted 0 completed 30 local 0 hardirq 0 softirq 30 task 0\n"
	"pair 2 2 50\n"
	"pair 2 3 30\n"
	"hq 1 80\n";

static void group_member(struct kb_result *r, struct kb_job *job, const char *text,
			 unsigned int irq28)
{
	static const unsigned int irqs[] = { 27, 28 };
	char *t = strdup(interrupts);

	make_result(r, job, 100);
	job->group_reporting = true;
	CHECK(!kb_loc_parse(text, &r->loc, err, sizeof(err)));
	kb_loc_classify("/nonexistent", &r->loc);	/* caches unknown: local or elsewhere */
	CHECK(!kb_irqs_parse(t, irqs, 2, &r->loc.irqs));
	r->loc.irqs.l[1].cnt[3] = irq28;
	r->loc.irqs.l[1].total = irq28 + 5;
	r->loc.has_irqs = true;
	free(t);
}

/*
 * group_reporting sums the locality of the group's jobs: counts per CPU,
 * per pair, per queue and per context, the shares from the sums; a vector
 * both saw counts once (the larger).  Mutation: merge_result() does not
 * call kb_loc_add() (the first job's report stands for the group): red.
 */
static void t_group(void)
{
	struct kb_result r[2], *g;
	struct kb_job job[2];
	struct json_object *o;
	size_t i, n;
	char *out;

	group_member(&r[0], &job[0], loc_text, 577);
	group_member(&r[1], &job[1], loc_text2, 300);
	g = kb_group_results(r, 2, &n);
	CHECK(g && n == 1 && g[0].nr_jobs == 2);
	CHECK(g[0].loc.present && g[0].loc.total == 200);
	/* CPUs 1, 2, 3; CPU 2: 0 + 80 submitted, 30 + 50 completed, 50 local */
	CHECK(g[0].loc.nr_cpus == 3 && g[0].loc.cpus[1].cpu == 2);
	CHECK(g[0].loc.cpus[1].submitted == 80 && g[0].loc.cpus[1].completed == 80 &&
	      g[0].loc.cpus[1].local == 50 && g[0].loc.cpus[1].ctx[KB_LOC_HARDIRQ] == 80);
	CHECK(g[0].loc.cpus[2].completed == 110 && g[0].loc.cpus[2].ctx[KB_LOC_SOFTIRQ] == 110);
	CHECK(g[0].loc.nr_pairs == 6 && g[0].loc.pairs[4].s == 2 && g[0].loc.pairs[4].c == 3);
	CHECK(g[0].loc.nr_queues == 3 && g[0].loc.queues[1].q == 1 &&
	      g[0].loc.queues[2].q == -1);
	CHECK(g[0].loc.irqs.nr == 2 && g[0].loc.irqs.l[1].total == 582);
	out = capture(print_loc, &g[0]);
	/* local: 10 + 20 + 50 of 200; elsewhere: 30 + 60 + 30 */
	CHECK(strstr(out, "locality: 200 I/Os completed: 40.00% on the submitting CPU, 0.00% on "
		      "another sharing its last-level cache (caches unknown), 60.00% elsewhere")
	      != NULL);
	CHECK(strstr(out, "context: hardirq 40.00%, softirq 55.00%, task 5.00%") != NULL);
	CHECK(strstr(out, "hardware queues: hq0 100 hq1 80 none (bio-based) 20") != NULL);
	free(out);
	o = kb_locality_json(&g[0]);
	CHECK(json_object_get_uint64(json_object_object_get(o, "completions")) == 200);
	CHECK(json_object_get_uint64(json_object_object_get(o, "local")) == 80);
	CHECK(json_object_array_length(json_object_object_get(o, "cpus")) == 3);
	json_object_put(o);
	kb_loc_free(&g[0].loc);
	kb_hist_free(&g[0].hist[0]);
	free(g);
	for (i = 0; i < 2; i++) {
		kb_loc_free(&r[i].loc);
		free_result(&r[i], &job[i]);
	}
}

void locality_tests(void)
{
	run_case("locality: debugfs file parsed, bad lines refused", t_parse);
	run_case("locality: pairs by the caches sysfs lists", t_classify);
	run_case("locality: /proc/interrupts lines and their difference", t_irqs);
	run_case("locality: normal output and JSON", t_output);
	run_case("locality: group_reporting sums the group's", t_group);
}
