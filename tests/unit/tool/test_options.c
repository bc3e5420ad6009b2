// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the option table (tools/options.c). */
#include "options.h"
#include "tool_test.h"

/* ---- options and job files ----------------------------------------------------- */

static void t_options(void)
{
	struct kb_global g;
	struct kb_job job;

	CHECK(kb_opt_find("allow_writes") == &kb_opts[KB_OPT_ALLOW_WRITES]);
	CHECK(kb_opt_find("allow-writes") == &kb_opts[KB_OPT_ALLOW_WRITES]);
	CHECK(kb_opt_find("cpus-allowed") == &kb_opts[KB_OPT_CPUS]);
	CHECK(kb_opt_find("readwrite") == &kb_opts[KB_OPT_RW]);
	CHECK(kb_opt_find("foo") == NULL);
	CHECK(kb_opt_find("bs_") == NULL);

	kb_global_init(&g, KB_CMD_RUN);
	kb_job_init(&job);
	CHECK(apply(&job, &g, "bs", "x4k") == -1);
	CHECK_STR(err, "--bs: invalid size 'x4k'");
	CHECK(apply(&job, &g, "bs", NULL) == -1);
	CHECK_STR(err, "--bs: missing value");
	CHECK(apply(&job, &g, "bs", "1000") == -1);
	CHECK(apply(&job, &g, "iodepth", "0") == -1);
	CHECK(apply(&job, &g, "numjobs", "x") == -1);
	CHECK(apply(&job, &g, "size", "0") == -1);
	CHECK(apply(&job, &g, "offset", "0") == 0);
	CHECK(apply(&job, &g, "runtime", "0") == -1);
	CHECK(apply(&job, &g, "ramp_time", "0") == 0);
	CHECK(apply(&job, &g, "number_ios", "0") == -1);
	CHECK(apply(&job, &g, "rwmixread", "101") == -1);
	CHECK(apply(&job, &g, "rw", "trimread") == -1);
	CHECK(apply(&job, &g, "name", "0123456789012345678901234567890123") == -1);
	CHECK(apply(&job, &g, "name", "a b") == -1);
	CHECK(apply(&job, &g, "filename", "/dev/a::/dev/b") == -1);
	CHECK(apply(&job, &g, "filename", "/dev/a:/dev/a") == -1);
	CHECK(apply(&job, &g, "time_based", "yes") == 0 && job.time_based);

	/* rw modes, writes and rwmix */
	CHECK(kb_job_rwmix_read(&job) == 100 && !kb_job_has_writes(&job));
	CHECK(apply(&job, &g, "rw", "randwrite") == 0 && job.random);
	CHECK(kb_job_rwmix_read(&job) == 0 && kb_job_has_writes(&job));
	CHECK(apply(&job, &g, "rw", "randrw") == 0 && kb_job_rwmix_read(&job) == 50);
	CHECK(apply(&job, &g, "rwmixwrite", "30") == 0 && kb_job_rwmix_read(&job) == 70);
	CHECK(kb_job_isset(&job, KB_OPT_RWMIXREAD));
	CHECK(apply(&job, &g, "rwmixread", "100") == 0 && !kb_job_has_writes(&job));
	CHECK(apply(&job, &g, "rw", "readwrite") == 0 && !job.random);
	/* trims: the kernel's writes of a trim-mode; write_mode, flushes */
	CHECK(apply(&job, &g, "rw", "randtrimwrite") == 0 && job.random &&
	      job.trim_mode == KIOBENCH_TRIM_TRIMWRITE && kb_job_has_writes(&job) &&
	      kb_job_rwmix_read(&job) == 0);
	CHECK(apply(&job, &g, "rw", "trim") == 0 && !job.random &&
	      job.trim_mode == KIOBENCH_TRIM_TRIM && kb_job_has_writes(&job));
	CHECK(apply(&job, &g, "fsync", "4") == 0 && kb_job_fsync(&job) == 0);
	CHECK(apply(&job, &g, "rw", "write") == 0 && job.trim_mode == KIOBENCH_TRIM_NONE &&
	      kb_job_fsync(&job) == 4);
	CHECK(apply(&job, &g, "write_mode", "zeroes") == 0 && job.write_zeroes);
	CHECK(apply(&job, &g, "write_mode", "uncor") == -1);
	CHECK_STR(err, "--write_mode: uncor: NVMe Write Uncorrectable has no block-layer "
		  "operation; only a passthrough command sends it");
	CHECK(apply(&job, &g, "write_mode", "write") == 0 && !job.write_zeroes);
	CHECK(apply(&job, &g, "readfua", "1") == -1);
	CHECK(apply(&job, &g, "fsync", "0") == 0);
	CHECK(apply(&job, &g, "rw", "read") == 0 && kb_job_rwmix_read(&job) == 100);

	/* command-line only options go to the global settings */
	CHECK(apply(&job, &g, "allow-writes", NULL) == 0 && g.allow_writes);
	CHECK(apply(&job, &g, "output-format", "json,terse") == 0 &&
	      g.formats == (KB_FMT_JSON | KB_FMT_TERSE));
	CHECK(apply(&job, &g, "keep", "0") == 0 && !g.keep);
	kb_job_free(&job);
	kb_global_free(&g);
}

static void t_limits(void)
{
	struct kb_global g = { 0 };
	struct kb_job job;

	kb_job_init(&job);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == -1);	/* no device */
	CHECK(apply(&job, &g, "filename", "/dev/nullb0:/dev/nullb1") == 0);
	CHECK(job.nr_devices == 2);
	CHECK(kb_job_io_bytes(&job) == 0);			/* kernel default */
	CHECK(apply(&job, &g, "size", "1g") == 0);
	CHECK(kb_job_io_bytes(&job) == 1ULL << 30);		/* size limits */
	CHECK(apply(&job, &g, "time_based", NULL) == 0);
	CHECK(kb_job_io_bytes(&job) == 0);			/* ... unless time_based */
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == -1);	/* time_based needs runtime */
	CHECK(apply(&job, &g, "runtime", "10") == 0);
	CHECK(apply(&job, &g, "io_size", "4m") == 0);
	CHECK(kb_job_io_bytes(&job) == 0);			/* fio: time_based ignores it */
	job.time_based = false;
	CHECK(kb_job_io_bytes(&job) == 4ULL << 20);		/* io_size wins */
	CHECK(apply(&job, &g, "loops", "3") == 0);
	CHECK(kb_job_io_bytes(&job) == 12ULL << 20);		/* loops times */
	job.time_based = true;
	CHECK(apply(&job, &g, "bssplit", "4k/50:64k/50") == 0);
	CHECK(apply(&job, &g, "bs", "8k") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0);
	CHECK(job.nr_bss == 2 && job.bss[0].size == 4096);	/* bssplit beats bs */
	CHECK_STR(job.name, "kiobench");
	kb_job_free(&job);

	kb_job_init(&job);
	CHECK(apply(&job, &g, "filename", "/dev/x") == 0);
	CHECK(apply(&job, &g, "bs", "16k") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0);
	CHECK(job.nr_bss == 1 && job.bss[0].size == 16384 && job.bss[0].weight == 100);
	CHECK(job.bs == 16384 && job.nr_plist == 18);
	kb_job_free(&job);
	kb_global_free(&g);
}

/* Every entry of the table: a parser, a command, sane bounds, a default that parses. */
static void t_table(void)
{
	struct kb_global g;
	struct kb_job job;
	int i;

	for (i = 0; i < KB_NR_OPTS; i++) {
		const struct kb_opt *o = &kb_opts[i];

		CHECK(o->name && o->parse && o->help && (int)o->id == i);
		CHECK(o->cmds && !(o->cmds & ~(KB_CMD_ALL | KB_CMD_COMPARE | KB_CMD_MERGE)));
		CHECK(o->min <= o->max);
		CHECK(!o->list_var || o->list_help || o->scope == KB_SCOPE_CLI);
		CHECK(kb_opt_find(o->name) == o);
		if (!o->def)
			continue;
		kb_job_init(&job);
		kb_global_init(&g, o->cmds & KB_CMD_RUN ? KB_CMD_RUN : o->cmds & -o->cmds);
		if (o->parse(o, o->def, &job, &g, err, sizeof(err)))
			printf("    default of %s: %s\n", o->name, err);
		CHECK(o->parse(o, o->def, &job, &g, err, sizeof(err)) == 0);
		kb_job_free(&job);
		kb_global_free(&g);
	}
}

/* Defaults come from the table: the job's and each command's own. */
static void t_defaults(void)
{
	struct kb_global g;
	struct kb_job job;

	kb_job_init(&job);
	CHECK(job.bs == KB_DEFAULT_BS && job.rw == KB_RW_READ && !strcmp(job.rw_str, "read"));
	CHECK(job.rwmixread == 50 && job.lat_log_entries == 1u << 20);
	CHECK(job.nr_plist == 18 && job.plist[17] == 99999000 && job.plist[0] == KB_PCT_ONE);
	CHECK(!kb_job_isset(&job, KB_OPT_BS));
	kb_job_free(&job);
	kb_global_init(&g, KB_CMD_PRECOND);
	CHECK(g.formats == KB_FMT_NORMAL && g.passes == 2 && g.max_rounds == 25);
	CHECK(g.fill_bs == KB_FILL_BS && g.scale == 0);
	kb_global_free(&g);
	kb_global_init(&g, KB_CMD_SUITE);
	CHECK(g.scale == 1 && g.passes == 0 && g.fill_bs == 0);
	kb_global_free(&g);
	kb_global_init(&g, KB_CMD_RUN);
	CHECK(g.formats == KB_FMT_NORMAL && g.cmd == KB_CMD_RUN);
	kb_global_free(&g);
}

/* fio's seeding and generator options, and what goes to the kernel. */
static void t_random(void)
{
	struct kb_global g = { 0 };
	struct kb_job job;
	uint64_t first;

	/* randrepeat=1 (the default): the kernel's fixed seed, none sent */
	kb_job_init(&job);
	CHECK(job.randrepeat && !job.allrandrepeat && !job.norandommap);
	CHECK(job.random_generator == KB_RANDGEN_TAUSWORTHE);
	CHECK(apply(&job, &g, "filename", "/dev/x") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0);
	CHECK(!kb_job_isset(&job, KB_OPT_SEED));
	kb_job_free(&job);

	/* randrepeat=0: a seed of its own each run, sent */
	kb_job_init(&job);
	CHECK(apply(&job, &g, "filename", "/dev/x") == 0);
	CHECK(apply(&job, &g, "randrepeat", "0") == 0 && !job.randrepeat);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0);
	CHECK(kb_job_isset(&job, KB_OPT_SEED));
	first = job.seed;
	kb_job_free(&job);
	kb_job_init(&job);
	CHECK(apply(&job, &g, "filename", "/dev/x") == 0);
	CHECK(apply(&job, &g, "randrepeat", "0") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0);
	CHECK(job.seed != first);
	kb_job_free(&job);

	/* ... unless randseed or allrandrepeat says otherwise */
	kb_job_init(&job);
	CHECK(apply(&job, &g, "filename", "/dev/x") == 0);
	CHECK(apply(&job, &g, "randrepeat", "0") == 0);
	CHECK(apply(&job, &g, "randseed", "7") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0 && job.seed == 7);
	kb_job_free(&job);
	kb_job_init(&job);
	CHECK(apply(&job, &g, "filename", "/dev/x") == 0);
	CHECK(apply(&job, &g, "randrepeat", "0") == 0);
	CHECK(apply(&job, &g, "allrandrepeat", NULL) == 0 && job.allrandrepeat);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0);
	CHECK(!kb_job_isset(&job, KB_OPT_SEED));
	kb_job_free(&job);

	/* norandommap goes to the kernel, except with lfsr (which never repeats) */
	kb_job_init(&job);
	CHECK(!kb_job_norandommap(&job));
	CHECK(apply(&job, &g, "norandommap", NULL) == 0 && kb_job_norandommap(&job));
	CHECK(apply(&job, &g, "random_generator", "tausworthe64") == 0);
	CHECK(kb_job_norandommap(&job));
	CHECK(!kb_job_random_lfsr(&job));	/* not random */
	CHECK(apply(&job, &g, "random_generator", "lfsr") == 0);
	CHECK(!kb_job_norandommap(&job) && kb_job_isset(&job, KB_OPT_RANDGEN));
	CHECK_STR(kb_randgen_name(job.random_generator), "lfsr");
	/* lfsr's random map is the permutation, whatever the sizes */
	CHECK(!kb_job_random_lfsr(&job));
	job.random = true;
	CHECK(kb_job_random_lfsr(&job));
	job.ba = 8192;		/* ba turns the map off: norandommap, no lfsr */
	CHECK(kb_job_norandommap(&job) && !kb_job_random_lfsr(&job));
	job.ba = 0;
	CHECK(apply(&job, &g, "random_generator", "tausworthe") == 0);
	CHECK(!kb_job_random_lfsr(&job));
	CHECK(apply(&job, &g, "random_generator", "lfsr") == 0);
	CHECK(apply(&job, &g, "random_generator", "mt19937") == -1);
	CHECK_STR(err, "--random_generator: invalid random_generator 'mt19937' "
		  "(tausworthe, lfsr or tausworthe64)");
	CHECK(apply(&job, &g, "softrandommap", "1") == 0 && job.softrandommap);
	kb_job_free(&job);
}

/* fio's cpumask (32 bits) and cpus_allowed_policy. */
static void t_cpumask(void)
{
	struct kb_global g;
	struct kb_job job;

	kb_job_init(&job);
	kb_global_init(&g, KB_CMD_RUN);
	CHECK(!job.cpus_split);
	CHECK(apply(&job, &g, "cpumask", "34") == 0);
	CHECK(job.nr_cpus == 2 && job.cpus[0] == 1 && job.cpus[1] == 5);
	CHECK(kb_job_isset(&job, KB_OPT_CPUS) && !kb_job_isset(&job, KB_OPT_CPUMASK));
	CHECK(apply(&job, &g, "cpumask", "0x80000000") == 0);
	CHECK(job.nr_cpus == 1 && job.cpus[0] == 31);
	CHECK(apply(&job, &g, "cpumask", "0x100000000") == -1);
	CHECK(strstr(err, "past 31") != NULL && job.cpus[0] == 31);
	CHECK(apply(&job, &g, "cpumask", "0") == -1);
	CHECK(apply(&job, &g, "cpumask", "-1") == -1);
	CHECK(apply(&job, &g, "cpumask", "3x") == -1);
	CHECK(apply(&job, &g, "cpus_allowed_policy", "split") == 0 && job.cpus_split);
	CHECK(apply(&job, &g, "cpus_allowed_policy", "shared") == 0 && !job.cpus_split);
	CHECK(apply(&job, &g, "cpus_allowed_policy", "spread") == -1);
	kb_job_free(&job);
	kb_global_free(&g);
}

/* fio's numa_cpu_nodes: the nodes' CPUs from sysfs (a fake one here). */
static void t_numa_cpu_nodes(void)
{
	char root[] = "/tmp/kb-numa-XXXXXX", cmd[600], node[512];
	struct kb_global g;
	struct kb_job job;
	int i;

	CHECK(mkdtemp(root) != NULL);
	for (i = 0; i < 3; i++) {
		snprintf(cmd, sizeof(cmd), "mkdir -p %s/devices/system/node/node%d", root, i);
		CHECK(system(cmd) == 0);
	}
	snprintf(node, sizeof(node), "%s/devices/system/node", root);
	write_text(node, "online", "0-2\n");
	write_text(node, "node0/cpulist", "0-1\n");
	write_text(node, "node1/cpulist", "3,2\n");
	write_text(node, "node2/cpulist", "\n");	/* memory only */
	setenv("KIOBENCH_SYSFS", root, 1);
	kb_job_init(&job);
	kb_global_init(&g, KB_CMD_RUN);
	CHECK(apply(&job, &g, "numa_cpu_nodes", "1") == 0);
	CHECK(job.nr_cpus == 2 && job.cpus[0] == 3 && job.cpus[1] == 2);
	CHECK(kb_job_isset(&job, KB_OPT_CPUS));
	CHECK(apply(&job, &g, "numa_cpu_nodes", "0-1") == 0 && job.nr_cpus == 4);
	CHECK(apply(&job, &g, "numa_cpu_nodes", "all") == 0 && job.nr_cpus == 4);
	CHECK(apply(&job, &g, "numa_cpu_nodes", "2") == -1);
	CHECK(strstr(err, "no CPU") != NULL && job.nr_cpus == 4);
	CHECK(apply(&job, &g, "numa_cpu_nodes", "5") == -1);
	CHECK(strstr(err, "node 5: no such node") != NULL);
	kb_job_free(&job);
	kb_global_free(&g);
	unsetenv("KIOBENCH_SYSFS");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

/* fio's latency_target, latency_window (times: a bare number is us), latency_percentile. */
static void t_latency_target(void)
{
	struct kb_global g = { 0 };
	struct kb_job job;

	kb_job_init(&job);
	CHECK(apply(&job, &g, "filename", "/dev/x") == 0);
	CHECK(job.latency_percentile_ppm == 1000000);		/* fio's default: 100 */
	CHECK(apply(&job, &g, "latency_window", "100ms") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == -1);
	CHECK(strstr(err, "need latency_target") != NULL);
	CHECK(apply(&job, &g, "latency_target", "500") == 0);
	CHECK(job.latency_target_ns == 500000);			/* bare: us, as fio */
	CHECK(apply(&job, &g, "latency_target", "2ms") == 0 && job.latency_target_ns == 2000000);
	CHECK(apply(&job, &g, "latency_target", "0") == -1);
	CHECK(job.latency_window_ns == 100000000);
	CHECK(apply(&job, &g, "latency_window", "250") == 0 && job.latency_window_ns == 250000);
	CHECK(apply(&job, &g, "latency_percentile", "99.5") == 0);
	CHECK(job.latency_percentile_ppm == 995000);
	CHECK(apply(&job, &g, "latency_percentile", "100") == 0);
	CHECK(job.latency_percentile_ppm == 1000000);
	CHECK(apply(&job, &g, "latency_percentile", "0") == 0 && job.latency_percentile_ppm == 0);
	CHECK(apply(&job, &g, "latency_percentile", "100.5") == -1);
	CHECK(apply(&job, &g, "latency_percentile", "-1") == -1);
	CHECK(apply(&job, &g, "latency_percentile", "x") == -1);
	CHECK(apply(&job, &g, "latency_run", "1") == 0 && job.latency_run);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0);
	CHECK(apply(&job, &g, "rate_iops", "100") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == -1);
	CHECK(strstr(err, "latency_target with rate") != NULL);
	kb_job_free(&job);
	kb_global_free(&g);
}

/* fio's ignore_error lists: names or numbers, ',' between types, ':' within. */
static void t_ignore_error(void)
{
	struct kb_global g = { 0 };
	struct kb_job job;

	kb_job_init(&job);
	CHECK(job.error_dump);					/* fio's default */
	CHECK(apply(&job, &g, "ignore_error", "EAGAIN,ENOSPC:122,EILSEQ") == 0);
	CHECK(job.nr_ignore_error[0] == 1 && job.ignore_error[0][0] == 11);
	CHECK(job.nr_ignore_error[1] == 2 && job.ignore_error[1][0] == 28 &&
	      job.ignore_error[1][1] == 122);
	CHECK(job.nr_ignore_error[2] == 1 && job.ignore_error[2][0] == 84);
	CHECK(apply(&job, &g, "ignore_error", ",-5") == 0);	/* fio takes -5 as 5 */
	CHECK(job.nr_ignore_error[0] == 0 && job.nr_ignore_error[1] == 1 &&
	      job.ignore_error[1][0] == 5 && job.nr_ignore_error[2] == 0);
	CHECK(apply(&job, &g, "ignore_error", "EFOO") == -1);
	CHECK(apply(&job, &g, "ignore_error", "134") == -1);
	CHECK(apply(&job, &g, "ignore_error", "EIO,EIO,EIO,EIO") == -1);
	CHECK(strcmp(kb_errno_name(5), "EIO") == 0);
	kb_job_free(&job);
	kb_global_free(&g);
}

/*
 * fio's continue_on_error: its names and 0/1 (bare: all), not a boolean;
 * ignore_error's lists add their types' bits, a later continue_on_error
 * sets them anew (fio's ignore_error_type() and val_store()).
 */
static void t_continue_on_error(void)
{
	static const struct { const char *v; uint32_t bits; } ok[] = {
		{ "none", 0 }, { "read", 1 }, { "write", 2 }, { "io", 3 },
		{ "verify", 4 }, { "all", 0xffff }, { "0", 0 }, { "1", 0xffff },
	};
	struct kb_global g = { 0 };
	struct kb_job job;
	char val[64];
	size_t i;

	kb_job_init(&job);
	CHECK(job.continue_on_error == 0);			/* fio's none */
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		CHECK(apply(&job, &g, "continue_on_error", ok[i].v) == 0);
		CHECK(job.continue_on_error == ok[i].bits);
		kb_opt_format(&kb_opts[KB_OPT_CONT_ERR], &job, val, sizeof(val));
		/* read back as given, but 0 and 1 by their names */
		CHECK(!strcmp(val, ok[i].v) || (!strcmp(ok[i].v, "0") && !strcmp(val, "none")) ||
		      (!strcmp(ok[i].v, "1") && !strcmp(val, "all")));
	}
	CHECK(apply(&job, &g, "continue_on_error", NULL) == 0 && job.continue_on_error == 0xffff);
	CHECK(apply(&job, &g, "continue_on_error", "yes") == -1);	/* fio: no boolean */
	CHECK(strstr(err, "none, read, write, io, verify, all, 0 or 1") != NULL);
	CHECK(apply(&job, &g, "continue_on_error", "trim") == -1);
	CHECK(apply(&job, &g, "continue_on_error", "IO") == -1);	/* fio: exact names */
	/* a list turns its type on; an empty list does not */
	CHECK(apply(&job, &g, "continue_on_error", "read") == 0);
	CHECK(apply(&job, &g, "ignore_error", ",,EILSEQ") == 0 && job.continue_on_error == 5);
	CHECK(apply(&job, &g, "ignore_error", ",ENOSPC") == 0 && job.continue_on_error == 7);
	/* continue_on_error after ignore_error: its value alone (fio) */
	CHECK(apply(&job, &g, "continue_on_error", "none") == 0 && job.continue_on_error == 0);
	CHECK(job.nr_ignore_error[1] == 1);			/* kept, but inert */
	CHECK(apply(&job, &g, "continue_on_error", "write") == 0 && job.continue_on_error == 2);
	/* zonemode=zbd: a failed write leaves the write pointer unknown */
	CHECK(apply(&job, &g, "filename", "/dev/x") == 0);
	CHECK(apply(&job, &g, "zonemode", "zbd") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == -1);
	CHECK(strstr(err, "continue_on_error (or an ignore_error list) with zonemode=zbd") != NULL);
	CHECK(apply(&job, &g, "continue_on_error", "none") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0);
	kb_job_free(&job);
	kb_global_free(&g);
}

/* How bios are submitted: sync, nice, write_hint, the batches' fixup. */
static void t_submit(void)
{
	struct kb_global g = { 0 };
	struct kb_job job;

	kb_job_init(&job);
	CHECK(apply(&job, &g, "filename", "/dev/x") == 0);
	CHECK(apply(&job, &g, "sync", "dsync") == 0 && apply(&job, &g, "sync", "0") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0 && !job.writefua);
	CHECK(apply(&job, &g, "sync", "dsync") == 0);
	CHECK(apply(&job, &g, "sync", "fsync") == -1);
	CHECK(apply(&job, &g, "iodepth", "16") == 0);
	CHECK(apply(&job, &g, "iodepth_batch_submit", "0") == 0);
	CHECK(apply(&job, &g, "iodepth_batch_complete", "1") == 0);
	CHECK(apply(&job, &g, "iodepth_low", "0") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0);
	CHECK(job.iodepth_batch == 16);			/* fio: 0 is iodepth */
	CHECK(apply(&job, &g, "iodepth_batch", "33") == -1);	/* the plug flushes at 32 */
	CHECK(apply(&job, &g, "iodepth", "64") == 0);
	CHECK(apply(&job, &g, "iodepth_batch", "0") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0);
	CHECK(job.iodepth_batch == 32);			/* iodepth, as far as a plug goes */
	CHECK(job.writefua && kb_job_isset(&job, KB_OPT_WRITEFUA));	/* put to the kernel */
	CHECK(!kb_job_isset(&job, KB_OPT_IODEPTH_BATCH_COMPLETE_MIN));	/* the default */
	CHECK(!kb_job_isset(&job, KB_OPT_IODEPTH_LOW));
	CHECK(apply(&job, &g, "nice", "-20") == 0 && job.nice == -20);
	CHECK(apply(&job, &g, "nice", "19") == 0 && job.nice == 19);
	CHECK(apply(&job, &g, "nice", "20") == -1 && apply(&job, &g, "nice", "-21") == -1);
	CHECK(apply(&job, &g, "write_hint", "extreme") == 0 && job.write_hint == 5);
	CHECK(apply(&job, &g, "write_hint", "none") == 0 && job.write_hint == 1);
	CHECK(apply(&job, &g, "write_hint", "hot") == -1);
	/* kiobench's write_streams: ids 1..255, at most 16; the kernel checks the device */
	CHECK(apply(&job, &g, "write_streams", "1,3,255") == 0 && job.nr_write_streams == 3 &&
	      job.write_streams[0] == 1 && job.write_streams[1] == 3 &&
	      job.write_streams[2] == 255);
	CHECK(apply(&job, &g, "write_streams", "0") == -1);
	CHECK(apply(&job, &g, "write_streams", "256") == -1);
	CHECK(apply(&job, &g, "write_streams", "1,,2") == -1);
	CHECK(apply(&job, &g, "write_streams", "1,") == -1);
	CHECK(apply(&job, &g, "write_streams", "-1") == -1);
	CHECK(apply(&job, &g, "write_streams", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16") == 0 &&
	      job.nr_write_streams == 16);
	CHECK(apply(&job, &g, "write_streams", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17") == -1);
	CHECK(apply(&job, &g, "write_stream_select", "worker") == 0 &&
	      job.write_stream_select == KIOBENCH_WS_WORKER);
	CHECK(apply(&job, &g, "write_stream_select", "roundrobin") == 0 &&
	      job.write_stream_select == KIOBENCH_WS_ROUNDROBIN);
	CHECK(apply(&job, &g, "write_stream_select", "scheme") == -1);
	CHECK(apply(&job, &g, "ioengine", "psync") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == -1);
	CHECK(strstr(err, "sync with ioengine=psync") != NULL);
	CHECK(apply(&job, &g, "sync", "none") == 0 && apply(&job, &g, "nowait", "1") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == -1);
	CHECK(strstr(err, "nowait with ioengine=psync") != NULL);
	CHECK(apply(&job, &g, "ioengine", "pvsync2") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0);
	kb_job_free(&job);
	kb_global_free(&g);
}

/*
 * fio's rate_iops and rate on a job: per direction "R[,W[,T]]" (one value is
 * every direction's; ':' or '-' separates them too), and kb_job_check()'s
 * mapping onto the kernel's rate_iops and rate_iops_write: a mix paces each
 * direction on its own schedule, as fio 3.33 does.
 */
static int rate_job(struct kb_job *job, const char *rw, const char *mix, const char *name,
		    const char *val)
{
	struct kb_global g = { 0 };

	kb_job_init(job);
	if (apply(job, &g, "filename", "/dev/x") || apply(job, &g, "rw", rw) ||
	    (mix && apply(job, &g, "rwmixread", mix)) || apply(job, &g, name, val))
		return -2;
	return kb_job_finalize(job, err, sizeof(err));
}

static void t_rate(void)
{
	struct kb_job job;

	/* a mix at one value: that many reads and writes a second */
	CHECK(rate_job(&job, "randrw", "50", "rate_iops", "150") == 0);
	CHECK(job.rate_iops == 150 && job.rate_iops_write == 150);
	kb_job_free(&job);
	/* rwmixread orders them, it does not split the rate */
	CHECK(rate_job(&job, "randrw", "80", "rate_iops", "60,120") == 0);
	CHECK(job.rate_iops == 60 && job.rate_iops_write == 120);
	kb_job_free(&job);
	CHECK(rate_job(&job, "rw", "30", "rate_iops", "60:120") == 0);
	CHECK(job.rate_iops == 60 && job.rate_iops_write == 120);
	kb_job_free(&job);
	CHECK(rate_job(&job, "randrw", "50", "rate_iops", "60-120") == 0);
	CHECK(job.rate_iops == 60 && job.rate_iops_write == 120);
	kb_job_free(&job);
	/* rate: each direction's bytes/s over its one block size */
	CHECK(rate_job(&job, "randrw", "50", "rate", "400k,800k") == 0);
	CHECK(job.rate_iops == 100 && job.rate_iops_write == 200);
	kb_job_free(&job);
	/* rwmixread 100 or 0: fio issues one direction, at its rate */
	CHECK(rate_job(&job, "randrw", "100", "rate_iops", "60,120") == 0);
	CHECK(job.rate_iops == 60 && job.rate_iops_write == 0);
	kb_job_free(&job);
	CHECK(rate_job(&job, "randrw", "0", "rate_iops", "60,120") == 0);
	CHECK(job.rate_iops == 120 && job.rate_iops_write == 0);
	kb_job_free(&job);
	/* one direction: its own value; the trims' is the third */
	CHECK(rate_job(&job, "randread", NULL, "rate_iops", "60,120") == 0);
	CHECK(job.rate_iops == 60 && job.rate_iops_write == 0);
	kb_job_free(&job);
	CHECK(rate_job(&job, "randwrite", NULL, "rate_iops", "60,120") == 0);
	CHECK(job.rate_iops == 120);
	kb_job_free(&job);
	CHECK(rate_job(&job, "randtrim", NULL, "rate_iops", "60,120,30") == 0);
	CHECK(job.rate_iops == 30);
	kb_job_free(&job);
	CHECK(rate_job(&job, "randtrim", NULL, "rate_iops", "60,120") == 0);
	CHECK(job.rate_iops == 120);		/* fio: "R,W" gives the trims W */
	kb_job_free(&job);
	CHECK(rate_job(&job, "randread", NULL, "rate_iops", ",120") == 0);
	CHECK(job.rate_iops == 0);		/* the reads are not rated */
	kb_job_free(&job);
	/*
	 * several sizes: fio's linear arrivals pace bytes (refused), its
	 * Poisson ones draw each I/O's gap at bytes/s over the smallest size.
	 * Mutation: the refusal's rate_process test dropped: red.
	 */
	kb_job_init(&job);
	CHECK(apply_all(&job, (const char *const[]){
			"filename", "/dev/null", "rw", "randread", "bssplit", "4k/50:64k/50",
			"rate_iops", "100", NULL }) == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == -1);
	CHECK(strstr(err, "rate_iops with several block sizes") != NULL);
	CHECK(apply(&job, NULL, "rate_process", "poisson") == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == 0);
	CHECK(job.rate_iops == 100);
	kb_job_free(&job);
	kb_job_init(&job);
	CHECK(apply_all(&job, (const char *const[]){
			"filename", "/dev/null", "rw", "randread", "bssplit", "4k/50:64k/50",
			"rate", "400k", NULL }) == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == -1);
	CHECK(strstr(err, "rate with several block sizes") != NULL);
	CHECK(apply(&job, NULL, "rate_process", "poisson") == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == 0);
	CHECK(job.rate_iops == 100);		/* 400 KiB/s over 4 KiB */
	kb_job_free(&job);
	/* what fio does that the kernel cannot: refused, by name */
	CHECK(rate_job(&job, "randrw", "50", "rate_iops", ",100") == -1);
	CHECK(strstr(err, "rate_iops with only the writes rated on a mix") != NULL);
	kb_job_free(&job);
	CHECK(rate_job(&job, "randrw", "50", "rate_iops", "100,") == -1);
	CHECK(strstr(err, "rate_iops with only the reads rated on a mix") != NULL);
	kb_job_free(&job);
	CHECK(rate_job(&job, "randrw", "50", "rate", ",1m") == -1);
	CHECK(strstr(err, "rate with only the writes rated") != NULL);
	kb_job_free(&job);
	/* fio's one thread paces all the job's files; kiobench has a worker each */
	{
		struct kb_global g = { 0 };

		kb_job_init(&job);
		CHECK(apply(&job, &g, "filename", "/dev/a:/dev/b") == 0);
		CHECK(apply(&job, &g, "rate_iops", "100") == 0);
		CHECK(kb_job_finalize(&job, err, sizeof(err)) == -1);
		CHECK(strstr(err, "rate_iops with several devices") != NULL);
		kb_job_free(&job);
	}
	/* refused as they are parsed: no direction, past the kernel's bound */
	CHECK(rate_job(&job, "randrw", "50", "rate_iops", "0") == -2);
	CHECK(strstr(err, "no direction given") != NULL);
	kb_job_free(&job);
	CHECK(rate_job(&job, "randrw", "50", "rate_iops", "10000001") == -2);
	CHECK(strstr(err, "each 1 to 10000000") != NULL);
	kb_job_free(&job);
	CHECK(rate_job(&job, "randrw", "50", "rate_iops", "1,2,3,4") == -2);
	kb_job_free(&job);
}

/*
 * size= not a multiple of the block size, as fio 3.33 runs it with bs=4k
 * and size=20000 (its write_iolog): rw=read does 5 I/Os (0 to 20480),
 * rw=randread 4 (its random map: 20000 / 4096 whole blocks), randread with
 * norandommap 5 drawn from those 4 blocks.  Span (size) and bytes of the
 * pass (kb_job_io_bytes) are those.
 * Mutation: size_fio() not called: red (the kernel refused 20000).
 * Mutation: size_io of a random job with the map rounded up: red.
 */
static void t_size_rounding(void)
{
	static const struct {
		const char *rw;
		bool norandommap;
		uint64_t span, bytes;
	} c[] = {
		{ "read", false, 20480, 20480 },
		{ "write", false, 20480, 20480 },
		{ "randread", false, 16384, 16384 },
		{ "randrw", false, 16384, 16384 },
		{ "randread", true, 16384, 20480 },
	};
	struct kb_job job;
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		kb_job_init(&job);
		CHECK(apply_all(&job, (const char *const[]){
				"filename", "/dev/null", "rw", c[i].rw, "bs", "4k",
				"size", "20000", NULL }) == 0);
		if (c[i].norandommap)
			CHECK(apply(&job, NULL, "norandommap", "1") == 0);
		CHECK(kb_job_check(&job, err, sizeof(err)) == 0);
		CHECK(job.size == c[i].span);
		CHECK(kb_job_io_bytes(&job) == c[i].bytes);
		/* again: nothing moves */
		CHECK(kb_job_check(&job, err, sizeof(err)) == 0);
		CHECK(job.size == c[i].span && kb_job_io_bytes(&job) == c[i].bytes);
		kb_job_free(&job);
	}
	/* a multiple of the block size is left as it is */
	kb_job_init(&job);
	CHECK(apply(&job, NULL, "filename", "/dev/null") == 0);
	CHECK(apply(&job, NULL, "size", "20480") == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == 0);
	CHECK(job.size == 20480 && kb_job_io_bytes(&job) == 20480);
	kb_job_free(&job);
	/* fio: less than one block is refused; several block sizes: refused by name */
	kb_job_init(&job);
	CHECK(apply(&job, NULL, "filename", "/dev/null") == 0);
	CHECK(apply(&job, NULL, "size", "1000") == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == -1);
	CHECK(strstr(err, "less than one block") != NULL);
	kb_job_free(&job);
	kb_job_init(&job);
	CHECK(apply_all(&job, (const char *const[]){
			"filename", "/dev/null", "bs", "4k,8k", "rw", "rw", "size", "20000", NULL }) == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == -1);
	CHECK(strstr(err, "size=20000 is not a multiple of the block size") != NULL);
	kb_job_free(&job);
}

/*
 * A list of sizes with none in it is refused, as fio refuses it ("failed
 * parsing blockalign="), not taken as 0: ba=0 is what --parse-only then
 * printed, and what it cannot read back.  The parsers' fuzzer found it
 * (tests/fuzz/parsers/regress/jobfile/blockalign-no-size.fio).
 * Mutation: p_ba() without its check of no size: red.
 */
static void t_no_size(void)
{
	struct kb_job job;

	kb_job_init(&job);
	CHECK(apply(&job, NULL, "ba", "4k,") == 0 && job.ba == 4096);
	CHECK(apply(&job, NULL, "ba", "") == -1);
	CHECK_STR(err, "--ba: invalid ba '': no size");
	CHECK(apply(&job, NULL, "blockalign", ",") == -1);
	CHECK(job.ba == 4096);
	kb_job_free(&job);
}

/*
 * fio's min_bs with bssplit is its table's smallest size: bs (4k by
 * default) no longer counts.  It had: blockalign=4k with sizes of 8k and
 * 64k was taken for the default alignment and not sent (the kernel then
 * aligned to 8k), and size=50% was cut to whole 4k blocks, not 6k ones,
 * which the check of size refused once printed (the parsers' fuzzer:
 * tests/fuzz/parsers/regress/jobfile/bssplit-min-bs-size-pct.fio).
 * Mutation: kb_job_min_bs() starting from job->bs again: red.
 */
static void t_min_bs_of_bssplit(void)
{
	struct kb_job job;

	kb_job_init(&job);
	CHECK(apply(&job, NULL, "filename", "/dev/null") == 0);
	CHECK(apply(&job, NULL, "rw", "randread") == 0);
	CHECK(apply(&job, NULL, "bssplit", "8k/50:64k/50") == 0);
	CHECK(kb_job_min_bs(&job) == 8192);
	CHECK(apply(&job, NULL, "blockalign", "4k") == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == 0);
	CHECK(kb_job_min_bs(&job) == 8192 && kb_job_ba(&job) == 4096);
	kb_job_free(&job);

	kb_job_init(&job);
	CHECK(apply(&job, NULL, "filename", "/dev/null") == 0);
	CHECK(apply(&job, NULL, "bssplit", "6k/50:12k/50") == 0);
	CHECK(apply(&job, NULL, "size", "50%") == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == 0);
	CHECK(kb_job_span_pct(&job, 1ULL << 30, err, sizeof(err)) == 0);
	CHECK(job.size == (1ULL << 29) / 6144 * 6144);
	kb_job_free(&job);

	/* no table yet: bs, and bs=R,W,T's own sizes */
	kb_job_init(&job);
	CHECK(apply(&job, NULL, "bs", "16k,8k") == 0);
	CHECK(kb_job_min_bs(&job) == 8192);
	kb_job_free(&job);
}

/*
 * number_ios with verify over fio's rounds: fio 3.33 (bs=4k size=64k
 * rw=write verify=crc32c, libaio) counts each round's read-back toward
 * number_ios times loops: number_ios=10 loops=2 writes 16 and reads them
 * back; =24 loops=2 writes 16, reads 16, twice; =12 loops=3 writes 16,
 * reads 16, writes 4, reads 4.  The tool bounds the job by its bytes in
 * rounds of 64k and sends no number-ios; without verify, or in one round,
 * number_ios times loops as before; several sizes: refused, with
 * end_fsync alone too.  end_fsync alone: the same rounds, each ending with
 * its flush.
 * Mutation: kb_job_ios_rounds() false: red (number-ios 20, no rounds).
 */
static void t_number_ios_rounds(void)
{
	static const struct {
		const char *number_ios, *loops;
		uint64_t bytes, round, ios;
	} c[] = {
		{ "10", "2", 16 << 12, 0, 0 },
		{ "24", "2", 32 << 12, 64 << 10, 0 },
		{ "12", "3", 20 << 12, 64 << 10, 0 },
		{ "10", "1", 16 << 12, 0, 10 },		/* one round: number_ios, as before */
	};
	char err[KB_ERRLEN];
	struct kb_job job;
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		kb_job_init(&job);
		CHECK(apply_all(&job, (const char *const[]){
				"filename", "/dev/null", "rw", "write", "bs", "4k", "size", "64k",
				"verify", "crc32c", "number_ios", c[i].number_ios,
				"loops", c[i].loops, NULL }) == 0);
		CHECK(kb_job_check(&job, err, sizeof(err)) == 0);
		CHECK(kb_job_io_bytes(&job) == c[i].bytes);
		CHECK(kb_job_io_round(&job) == c[i].round);
		CHECK(kb_job_number_ios(&job) == c[i].ios);
		kb_job_free(&job);
	}
	/*
	 * end_fsync without verify: a flush at each round's end, as fio 3.33
	 * (write_iolog's syncs): loops=3 writes 16 and syncs, three times;
	 * io_size=96k 16 then 8; number_ios=10 loops=2 16 then 4.
	 */
	{
		static const struct {
			const char *opt, *val;
			uint64_t bytes;
		} e[] = {
			{ "loops", "3", 192 << 10 },
			{ "io_size", "96k", 96 << 10 },
			{ "number_ios", "10", 80 << 10 },	/* and loops=2 */
		};

		for (i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
			kb_job_init(&job);
			CHECK(apply_all(&job, (const char *const[]){
					"filename", "/dev/null", "rw", "write", "size", "64k",
					"end_fsync", "1", NULL }) == 0);
			CHECK(apply(&job, NULL, e[i].opt, e[i].val) == 0);
			if (i == 2)
				CHECK(apply(&job, NULL, "loops", "2") == 0);
			CHECK(kb_job_check(&job, err, sizeof(err)) == 0);
			CHECK(kb_job_io_bytes(&job) == e[i].bytes);
			CHECK(kb_job_io_round(&job) == 64 << 10);
			CHECK(kb_job_number_ios(&job) == 0);
			kb_job_free(&job);
		}
	}
	/* without verify or end_fsync: number_ios times loops, no rounds */
	kb_job_init(&job);
	CHECK(apply_all(&job, (const char *const[]){
			"filename", "/dev/null", "rw", "write", "size", "64k", "number_ios", "10",
			"loops", "2", NULL }) == 0);
	CHECK(kb_job_number_ios(&job) == 20 && kb_job_io_round(&job) == 0);
	/* with verify and several sizes: refused, saying why */
	CHECK(apply(&job, NULL, "verify", "crc32c") == 0);
	CHECK(apply(&job, NULL, "bsrange", "4k-16k") == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == -1);
	CHECK(strstr(err, "number_ios with verify or end_fsync over several rounds") != NULL);
	kb_job_free(&job);
	/* end_fsync alone, several sizes: refused too */
	kb_job_init(&job);
	CHECK(apply_all(&job, (const char *const[]){
			"filename", "/dev/null", "rw", "write", "size", "64k", "end_fsync", "1",
			"number_ios", "10", "loops", "2", "bsrange", "4k-16k", NULL }) == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == -1);
	CHECK(strstr(err, "number_ios with verify or end_fsync over several rounds") != NULL);
	kb_job_free(&job);
}

/*
 * verify_backlog where fio's round cap (do_io()'s total_bytes: size more
 * than the round's writes) counts the windows' reads: with norandommap
 * random writes and io_size past size the round is io_size and fio stops
 * short of it, so the job is refused, naming why; a round of size (io_size
 * within it, or the random map) is read back exactly and runs.
 * Mutation: backlog_round_check() returning 0: red.
 */
static void t_backlog_round_cap(void)
{
	static const char *const base[] = {
		"filename", "/dev/null", "rw", "randwrite", "bs", "4k", "size", "64k",
		"verify", "crc32c", "verify_backlog", "4", NULL,
	};
	static const struct {
		const char *opt, *val, *opt2, *val2;
		int ret;
	} c[] = {
		{ "norandommap", "1", "io_size", "256k", -1 },
		{ "norandommap", "1", "io_size", "64k", 0 },
		{ "norandommap", "0", "io_size", "256k", 0 },	/* the random map: rounds of size */
		{ "norandommap", "1", "loops", "4", 0 },
	};
	char err[KB_ERRLEN];
	struct kb_job job;
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		kb_job_init(&job);
		CHECK(apply_all(&job, base) == 0);
		CHECK(apply(&job, NULL, c[i].opt, c[i].val) == 0);
		CHECK(apply(&job, NULL, c[i].opt2, c[i].val2) == 0);
		err[0] = 0;
		CHECK(kb_job_check(&job, err, sizeof(err)) == c[i].ret);
		CHECK(!c[i].ret || strstr(err, "verify_backlog with norandommap random writes "
					       "and io_size past size") != NULL);
		kb_job_free(&job);
	}
}

void options_tests(void)
{
	run_case("options: verify_backlog's reads in fio's round cap", t_backlog_round_cap);
	run_case("options: number_ios with verify over fio's rounds", t_number_ios_rounds);
	run_case("options: min_bs of a bssplit table, not of bs", t_min_bs_of_bssplit);
	run_case("options: a list of sizes with none refused, as fio", t_no_size);
	run_case("options: rate and rate_iops per direction", t_rate);
	run_case("options: ignore_error's lists", t_ignore_error);
	run_case("options: continue_on_error's error types", t_continue_on_error);
	run_case("options: size not a multiple of the block size, as fio", t_size_rounding);
	run_case("options: sync, nice, write_hint, iodepth_batch*", t_submit);
	run_case("options: latency_target, latency_window, latency_percentile, latency_run",
		 t_latency_target);
	run_case("options: randrepeat, randseed, allrandrepeat, norandommap, generators",
		 t_random);
	run_case("options: the table's entries", t_table);
	run_case("options: defaults from the table", t_defaults);
	run_case("options: values, rw modes, command-line only", t_options);
	run_case("options: limits and finalize", t_limits);
	run_case("options: cpumask, cpus_allowed_policy", t_cpumask);
	run_case("options: numa_cpu_nodes from sysfs", t_numa_cpu_nodes);
}
