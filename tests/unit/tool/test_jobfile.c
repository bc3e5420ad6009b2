// SPDX-License-Identifier: GPL-2.0
/* Unit tests of job files (tools/jobfile.c). */
#include "fio_opts.h"
#include "jobfile.h"
#include "options.h"
#include "tool_test.h"
#include "values.h"

static const char jobfile_text[] =
	"; a comment\n"
	"# another\n"
	"[global]\n"
	"filename=/dev/nullb0\n"
	"  bs = 8k  \n"
	"time_based\n"
	"runtime=10s\n"
	"\n"
	"[first]\n"
	"rw=randread\n"
	"iodepth=32\n"
	"\n"
	"[global]\n"
	"iodepth=4\n"
	"[second]\n"
	"rw=randrw\r\n"
	"rwmixread=70\n"
	"name=renamed\n";

static void t_jobfile(void)
{
	struct kb_assign_list cli = { 0 };
	struct kb_jobfile jf;
	struct kb_job a, b;

	CHECK(kb_jobfile_parse_text("job.fio", jobfile_text, &jf, err, sizeof(err)) == 0);
	if (case_failed) {
		printf("    %s\n", err);
		return;
	}
	CHECK(jf.nr_sec == 2 && jf.global.n == 5);
	kb_assign_add(&cli, kb_opt_find("bs"), "16k", NULL, 0);
	kb_assign_add(&cli, kb_opt_find("iodepth"), "2", NULL, 0);

	CHECK(kb_jobfile_build(&jf, 0, &cli, &a, err, sizeof(err)) == 0);
	CHECK(kb_job_finalize(&a, err, sizeof(err)) == 0);
	CHECK_STR(a.name, "first");
	CHECK(a.nr_devices == 1 && !strcmp(a.devices[0], "/dev/nullb0"));
	CHECK(a.bs == 8192);			/* fio: [global] beats the command line */
	CHECK(a.iodepth == 32);			/* section beats the command line */
	CHECK(a.time_based && a.runtime_ns == 10000000000ULL && a.random);
	CHECK(kb_job_rwmix_read(&a) == 100);

	CHECK(kb_jobfile_build(&jf, 1, &cli, &b, err, sizeof(err)) == 0);
	CHECK(kb_job_finalize(&b, err, sizeof(err)) == 0);
	CHECK_STR(b.name, "renamed");
	CHECK(b.iodepth == 4);			/* CLI 2, then the later [global] iodepth=4 */
	CHECK(kb_job_rwmix_read(&b) == 70 && b.random && kb_job_has_writes(&b));
	CHECK(b.applied.n > 0);
	kb_job_free(&a);
	kb_job_free(&b);

	/* without command-line options the later [global] applies to [second] only */
	CHECK(kb_jobfile_build(&jf, 1, NULL, &b, err, sizeof(err)) == 0);
	CHECK(b.iodepth == 4 && b.bs == 8192);
	kb_job_free(&b);
	CHECK(kb_jobfile_build(&jf, 0, NULL, &a, err, sizeof(err)) == 0);
	CHECK(a.iodepth == 32);
	kb_job_free(&a);
	kb_assign_list_free(&cli);
	kb_jobfile_free(&jf);
}

static bool jobfile_bad(const char *text, const char *expect)
{
	struct kb_jobfile jf;

	if (kb_jobfile_parse_text("job.fio", text, &jf, err, sizeof(err)) == 0) {
		kb_jobfile_free(&jf);
		printf("    parsed: %s", text);
		return false;
	}
	if (strcmp(err, expect)) {
		printf("    message \"%s\", expected \"%s\"\n", err, expect);
		return false;
	}
	return true;
}

static void t_jobfile_errors(void)
{
	CHECK(jobfile_bad("[a]\nfilename=/dev/x\n\n; c\n# c\n\nfoo=1\n",
			  "job.fio:7: unknown option 'foo'"));
	CHECK(jobfile_bad("[global]\nbs=4k\n[a]\niodepth=2\nbs=x4k\n",
			  "job.fio:5: bs: invalid size 'x4k'"));
	CHECK(jobfile_bad("bs=4k\n[a]\n", "job.fio:1: option 'bs' outside of a section"));
	CHECK(jobfile_bad("[a\nbs=4k\n", "job.fio:1: malformed section header"));
	CHECK(jobfile_bad("[ ]\n", "job.fio:1: empty section name"));
	CHECK(jobfile_bad("[global]\nbs=4k\n", "job.fio: no job section (only [global])"));
	CHECK(jobfile_bad("", "job.fio: no job section (only [global])"));
	CHECK(jobfile_bad("[a]\nallow-writes\n",
			  "job.fio:2: option 'allow-writes' is only valid on the command line"));
	CHECK(jobfile_bad("[a]\noutput-format=json\n",
			  "job.fio:2: option 'output-format' is only valid on the command line"));
	CHECK(jobfile_bad("[a]\nbs\n", "job.fio:2: bs: missing value"));
	CHECK(jobfile_bad("[a]\ntime_based=yes please\n",
			  "job.fio:2: time_based: invalid boolean 'yes please' "
			  "(0 or 1, false or true, no or yes, off or on)"));
	CHECK(jobfile_bad("[a]\n\n[this-name-is-much-too-long-for-the-kernel]\n",
			  "job.fio:3: name: invalid name "
			  "'this-name-is-much-too-long-for-the-kernel' (1 to 31 characters)"));
	CHECK(jobfile_bad("[a]\nrw=randwrite\nrwmixread=\n",
			  "job.fio:3: rwmixread: invalid number ''"));
}

/* fio: comments from the first ';' or '#'; kb_base before a section's other options. */
static void t_jobfile_fio_format(void)
{
	static const char text[] =
		"[global]\n"
		"filename=/dev/x ; the device\n"
		"bs=8k;no space\n"
		"size=1g # hash\n"
		"[a]\n"
		"bs=4KiB\n"		/* before kb_base=1000, read with it (fio) */
		"kb_base=1000\n"
		"description=two words # and a comment\n"
		"[b]\n"
		"bs=512KiB\n";	/* kb_base=1024: KiB is 1000 */
	struct kb_jobfile jf;
	struct kb_job a, b;

	CHECK(kb_jobfile_parse_text("job.fio", text, &jf, err, sizeof(err)) == 0);
	if (case_failed) {
		printf("    %s\n", err);
		return;
	}
	CHECK(kb_jobfile_build(&jf, 0, NULL, &a, err, sizeof(err)) == 0);
	CHECK(a.bs == 4096 && a.kb_base == 1000 && a.size == 1ULL << 30);
	CHECK(a.description && !strcmp(a.description, "two words"));
	CHECK(a.nr_devices == 1 && !strcmp(a.devices[0], "/dev/x"));
	CHECK(kb_jobfile_build(&jf, 1, NULL, &b, err, sizeof(err)) == 0);
	CHECK(b.bs == 512000 && b.kb_base == 1024);
	kb_job_free(&a);
	kb_job_free(&b);
	kb_jobfile_free(&jf);
}

/* Refused options and engines by name, with their reason; unknown ones near a name. */
static void t_jobfile_refused(void)
{
	CHECK(jobfile_bad("[a]\nfilename=/dev/x\nuid=0\n",
			  "job.fio:3: option 'uid' is refused: fio's own processes: "
			  "kiobench's workers are kernel threads"));
	CHECK(jobfile_bad("[a]\nmerge_blktrace_file=m.bin\n",
			  "job.fio:2: option 'merge_blktrace_file' is refused: blktrace binary "
			  "traces: kiobench replays fio's text iologs (v2, v3) only"));
	CHECK(jobfile_bad("[a]\nioengine=mmap\n",
			  "job.fio:2: ioengine: ioengine 'mmap' is refused: memory-mapped file "
			  "I/O: buffered I/O: kiobench always bypasses the page cache"));
	CHECK(jobfile_bad("[a]\ndirect=0\n",
			  "job.fio:2: direct: direct=0 is refused: buffered I/O: kiobench always "
			  "bypasses the page cache (direct=1)"));
	CHECK(jobfile_bad("[a]\niodeph=2\n",
			  "job.fio:2: unknown option 'iodeph' (did you mean 'iodepth'?)"));
	CHECK(jobfile_bad("[a]\nwhatever=2\n", "job.fio:2: unknown option 'whatever'"));
	CHECK(jobfile_bad("[a]\niodepth=$((2*2))\n",
			  "job.fio:2: iodepth: invalid value '$((2*2))' (fio takes no $(...) "
			  "arithmetic; arithmetic goes with $ncpus, $pagesize or $mb_memory, "
			  "e.g. 2*$ncpus)"));
}

/*
 * Honored and refused are two disjoint sets of names, but for a command's
 * own option on the command line (the sweep's ioscheduler), whose fio name
 * is refused in a job file and where the command does not take it.
 */
static void t_catalogue_disjoint(void)
{
	const struct kb_opt *o;
	size_t i;

	for (i = 0; i < KB_NR_OPTS; i++) {
		if (kb_opts[i].scope == KB_SCOPE_CLI)
			continue;
		CHECK(!kb_fio_refusal(kb_opts[i].name));
		if (kb_opts[i].alias)
			CHECK(!kb_fio_refusal(kb_opts[i].alias));
	}
	for (i = 0; i < kb_nr_fio_refused; i++) {
		o = kb_opt_find(kb_fio_refused[i].name);
		CHECK(!o || (o->scope == KB_SCOPE_CLI && !(o->cmds & KB_CMD_RUN)));
		CHECK(!kb_fio_refused[i].alias || !kb_opt_find(kb_fio_refused[i].alias));
		CHECK(kb_fio_refusal(kb_fio_refused[i].name) == kb_fio_refused[i].reason);
	}
	CHECK(kb_fio_engine("psync")->sync && !kb_fio_engine("libaio")->sync);
	CHECK(!kb_fio_engine("null")->accepted && kb_fio_engine("io_uring")->accepted);
	CHECK(kb_fio_engine("external:/x.so") && !kb_fio_engine("nonsense"));
}

/* ${VAR}, fio's keywords and their arithmetic. */
static void t_expand(void)
{
	char *v, want[64];

	setenv("KB_T_QD", "16", 1);
	unsetenv("KB_T_UNSET");
	v = kb_expand_value("${KB_T_QD}k", err, sizeof(err));
	CHECK(v && !strcmp(v, "16k"));
	free(v);
	v = kb_expand_value("a${KB_T_UNSET}b", err, sizeof(err));
	CHECK(v && !strcmp(v, "ab"));
	free(v);
	v = kb_expand_value("($ncpus+1)*3", err, sizeof(err));
	snprintf(want, sizeof(want), "%ld", (sysconf(_SC_NPROCESSORS_ONLN) + 1) * 3);
	CHECK(v && !strcmp(v, want));
	free(v);
	v = kb_expand_value("$pagesize", err, sizeof(err));
	snprintf(want, sizeof(want), "%ld", sysconf(_SC_PAGESIZE));
	CHECK(v && !strcmp(v, want));
	free(v);
	v = kb_expand_value("10-$pagesize/$pagesize*2", err, sizeof(err));
	CHECK(v && !strcmp(v, "8"));
	free(v);
	/* no keyword: no arithmetic (fio), the value is judged as it is */
	v = kb_expand_value("1k-4k", err, sizeof(err));
	CHECK(v && !strcmp(v, "1k-4k"));
	free(v);
	CHECK(!kb_expand_value("$ncpus/0", err, sizeof(err)));
	CHECK(!kb_expand_value("$((1+1))", err, sizeof(err)));
}

/* size=N% and offset=N% of a device as fio resolves them. */
static void t_span_pct(void)
{
	struct kb_job job;

	kb_job_init(&job);
	CHECK(apply(&job, NULL, "bs", "4k") == 0);
	CHECK(apply(&job, NULL, "size", "50%") == 0 && job.size_pct == 50);
	CHECK(apply(&job, NULL, "offset", "25%") == 0 && job.offset_pct == 25);
	CHECK(kb_job_span_pct(&job, 1000000 * 4096ULL + 1000, err, sizeof(err)) == 0);
	CHECK(job.offset == 250000 * 4096ULL + 4096);	/* 25 % + 250, aligned up */
	CHECK(job.size == 500000 * 4096ULL);		/* 50 %, down to a block */
	CHECK(!job.size_pct && !job.offset_pct);
	CHECK(apply(&job, NULL, "size", "100%") == 0);
	CHECK(kb_job_span_pct(&job, 1 << 20, err, sizeof(err)) == -1);	/* offset beyond */
	CHECK(apply(&job, NULL, "offset", "4k") == 0 && !job.offset_pct);
	CHECK(kb_job_span_pct(&job, 1 << 20, err, sizeof(err)) == 0);
	CHECK(job.size == (1 << 20) - 4096);		/* capped at the device's end */
	CHECK(apply(&job, NULL, "size", "0%") == -1);
	CHECK(apply(&job, NULL, "offset", "101%") == -1);
	/* offset_align: offset=N% aligned up to it instead of the block size */
	CHECK(apply(&job, NULL, "offset", "25%") == 0);
	CHECK(apply(&job, NULL, "offset_align", "1m") == 0 && job.offset_align == 1 << 20);
	CHECK(kb_job_span_pct(&job, 1000000 * 4096ULL + 1000, err, sizeof(err)) == 0);
	CHECK(job.offset == 977 * (1ULL << 20));	/* 1024000250 up to 1 MiB */
	CHECK(apply(&job, NULL, "offset_align", "1000") == 0);
	CHECK(apply(&job, NULL, "filename", "/dev/null") == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == -1);
	CHECK(strstr(err, "offset_align=1000") != NULL);
	kb_job_free(&job);
	/*
	 * offset_increment=N%: fio's increment of N % of the device; with it
	 * the raw offset plus k increments is aligned up as a whole
	 */
	kb_job_init(&job);
	CHECK(apply(&job, NULL, "bs", "4k") == 0);
	CHECK(apply(&job, NULL, "offset", "1000") == 0);
	CHECK(apply(&job, NULL, "offset_increment", "10%") == 0 &&
	      job.offset_increment_pct == 10 && !job.offset_increment);
	CHECK(kb_job_span_pct(&job, 1000000 * 4096ULL + 1000, err, sizeof(err)) == 0);
	CHECK(job.offset_increment == 100000 * 4096ULL + 100 && !job.offset_increment_pct);
	CHECK(job.offset_raw == 1000 && job.clone_align == 4096 && job.offset == 4096);
	CHECK(apply(&job, NULL, "offset_increment", "1m") == 0 &&
	      !job.offset_increment_pct && job.offset_increment == 1 << 20);
	kb_job_free(&job);
}

/* A readable block device of this host with a size, and its bytes; false if none. */
static bool some_block_device(char *dev, size_t len, uint64_t *bytes)
{
	static const char *const names[] = { "vda", "sda", "nvme0n1", "zram0", "loop0" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(dev, len, "/dev/%s", names[i]);
		if (!kb_dev_bytes(dev, bytes) && *bytes >= (1 << 20))
			return true;
	}
	return false;
}

/* kb_job_finalize turns N% into bytes of the device's own size. */
static void t_span_pct_device(void)
{
	struct kb_job job;
	uint64_t bytes;
	char dev[64];

	if (!some_block_device(dev, sizeof(dev), &bytes)) {
		printf("    skipped: no readable block device on this host\n");
		return;
	}
	kb_job_init(&job);
	CHECK(apply(&job, NULL, "filename", dev) == 0);
	CHECK(apply(&job, NULL, "size", "50%") == 0);
	CHECK(apply(&job, NULL, "offset", "10%") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == 0);
	CHECK(job.offset >= bytes / 10 && job.offset < bytes / 10 + 4096 && job.offset % 4096 == 0);
	CHECK(job.size <= bytes / 2 && job.size > bytes / 2 - 4096 && job.size % 4096 == 0);
	CHECK(!job.size_pct && !job.offset_pct);
	kb_job_free(&job);
	/* not a block device: said, not guessed */
	kb_job_init(&job);
	CHECK(apply(&job, NULL, "filename", "/dev/null") == 0);
	CHECK(apply(&job, NULL, "size", "50%") == 0);
	CHECK(kb_job_finalize(&job, err, sizeof(err)) == -1);
	CHECK(strstr(err, "size=50%: /dev/null: cannot read its size"));
	kb_job_free(&job);
}

/* fio's bs=R,W,T, bssplit=R,W,T and bsrange=LO-HI: each direction's sizes. */
static void t_bs_per_direction(void)
{
	struct kb_job job;
	const struct kb_bss *b;
	unsigned int n;
	char buf[256];

	kb_job_init(&job);
	CHECK(apply(&job, NULL, "filename", "/dev/null") == 0);
	/* "8k,32k": 8k reads, 32k writes and trims */
	CHECK(apply(&job, NULL, "bs", "8k,32k") == 0 && kb_job_check(&job, err, sizeof(err)) == 0);
	b = kb_job_bss(&job, 0, &n);
	CHECK(n == 1 && b[0].size == 8192);
	b = kb_job_bss(&job, 1, &n);
	CHECK(n == 1 && b[0].size == 32768);
	b = kb_job_bss(&job, 2, &n);
	CHECK(n == 1 && b[0].size == 32768 && !job.bss_wt[1]);	/* the writes' own */
	kb_opt_format(&kb_opts[KB_OPT_BS], &job, buf, sizeof(buf));
	CHECK(!strcmp(buf, "8192,32768,32768"));
	/* "8k,32k,": the trims take fio's default; ",8k": the reads do */
	CHECK(apply(&job, NULL, "bs", "8k,32k,") == 0 && kb_job_check(&job, err, sizeof(err)) == 0);
	b = kb_job_bss(&job, 2, &n);
	CHECK(n == 1 && b[0].size == 4096);
	CHECK(apply(&job, NULL, "bs", ",8k") == 0 && kb_job_check(&job, err, sizeof(err)) == 0);
	CHECK(job.bs == 4096 && kb_job_bss(&job, 2, &n)[0].size == 8192);
	CHECK(apply(&job, NULL, "bs", "4k,8k,16k,32k") == -1);	/* three at most */
	/* bssplit per direction */
	CHECK(apply(&job, NULL, "bssplit", "2k/50:4k/50,4k/90:8k/10") == 0);
	b = kb_job_bss(&job, 1, &n);
	/* in fio's order: by percentage */
	CHECK(n == 2 && b[0].size == 8192 && b[0].weight == 10 && b[1].size == 4096);
	CHECK(kb_job_bss(&job, 2, &n) == b);			/* trims: the writes' */
	kb_opt_format(&kb_opts[KB_OPT_BSSPLIT], &job, buf, sizeof(buf));
	CHECK(!strcmp(buf, "2048/50:4096/50,8192/10:4096/90,8192/10:4096/90"));
	CHECK(apply(&job, NULL, "bssplit", "4k/100") == 0 && !job.bss_wt[0] && !job.bss_wt[1]);
	/* bsrange: fio's LO + HI x u, down to a multiple of LO, capped at HI */
	CHECK(apply(&job, NULL, "bsrange", "4k-16k") == 0);
	b = kb_job_bss(&job, 0, &n);
	CHECK(n == 4 && b[0].size == 4096 && b[3].size == 16384);
	CHECK(b[0].weight == b[1].weight && b[1].weight == b[3].weight);
	CHECK(apply(&job, NULL, "bsrange", "4k-10k") == 0);	/* 4k-14k: 4k, 8k, 12k->10k */
	b = kb_job_bss(&job, 0, &n);
	CHECK(n == 3 && b[1].size == 8192 && b[1].weight == b[0].weight &&
	      b[2].size == 10240 && b[2].weight * 2 == b[0].weight);
	CHECK(apply(&job, NULL, "bsrange", "8k-20k") == 0);	/* 8k-28k: 8k, 16k, 24k->20k */
	b = kb_job_bss(&job, 0, &n);
	CHECK(n == 3 && b[0].weight == b[1].weight && b[2].size == 20480 &&
	      b[2].weight * 2 == b[0].weight);
	/* 2048 sizes, more than the table: the range itself, reads only */
	CHECK(apply(&job, NULL, "bsrange", "512-1m") == 0);
	b = kb_job_bss(&job, 0, &n);
	CHECK(n == 2 && b[0].size == 512 && b[1].size == 1048576 && job.bsrange == 1);
	CHECK(apply(&job, NULL, "bsrange", "4k-8k,512-1m") == 0);	/* writes, trims */
	CHECK(job.bsrange == 2 && job.bss_wt[0] && !job.bss_wt[1]);
	CHECK(apply(&job, NULL, "bssplit", "4k/50:8k/50") == 0 && job.bsrange == 0);
	CHECK(apply(&job, NULL, "bsrange", "8k-4k") == -1);
	kb_job_free(&job);
}

void jobfile_tests(void)
{
	run_case("fio's bs, bssplit and bsrange per direction", t_bs_per_direction);
	run_case("size=N%, offset=N% of a host block device", t_span_pct_device);
	run_case("job file: fio's comments, kb_base first", t_jobfile_fio_format);
	run_case("job file: refused with the reason, unknown with a near name",
		 t_jobfile_refused);
	run_case("fio options: honored and refused are disjoint", t_catalogue_disjoint);
	run_case("values: ${VAR}, $ncpus, $pagesize and arithmetic", t_expand);
	run_case("size=N%, offset=N% of a device", t_span_pct);
	run_case("job file: sections, precedence", t_jobfile);
	run_case("job file: errors with file:line", t_jobfile_errors);
}
