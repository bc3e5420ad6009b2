// SPDX-License-Identifier: GPL-2.0
/* Unit tests of job files (tools/jobfile.c). */
#include "jobfile.h"
#include "options.h"
#include "tool_test.h"

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

void jobfile_tests(void)
{
	run_case("job file: sections, precedence", t_jobfile);
	run_case("job file: errors with file:line", t_jobfile_errors);
}
