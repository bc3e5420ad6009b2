// SPDX-License-Identifier: GPL-2.0
/* replay.c: fio's iologs read into the kernel's entries, as fio replays them. */
#include "tool_test.h"
#include "options.h"
#include "replay.h"

static char dir[] = "/tmp/kb-replay-XXXXXX";

/* The job of options name=val... replaying text (as dir/a.log); its load's result. */
static int load(struct kb_job *job, const char *text, const char *const *opts, uint32_t clone)
{
	char path[64];

	kb_job_init(job);
	write_text(dir, "a.log", text);
	snprintf(path, sizeof(path), "%s/a.log", dir);
	CHECK(apply(job, NULL, "read_iolog", path) == 0);
	for (; opts && *opts; opts += 2)
		CHECK(apply(job, NULL, opts[0], opts[1]) == 0);
	return kb_replay_load(job, clone, err, sizeof(err));
}

static const char v3[] = "fio version 3 iolog\n"
	"1000 /dev/x add\n"
	"2000 /dev/x open\n"
	"2000 /dev/x read 40960 4096\n"
	"22000 /dev/x write 12288 8192\n"
	"21000 /dev/x trim 1052672 4096\n"	/* a timestamp going back: 0 */
	"41000 /dev/x sync 0 0\n"
	"51000 /dev/x datasync 0 0\n"
	"61000 /dev/x close\n";

/* Mutation: delay_us() not scaling by replay_time_scale: red. */
static void t_v3(void)
{
	static const char *const fast[] = { "replay_time_scale", "200", NULL };
	static const char *const nostall[] = { "replay_no_stall", "1", NULL };
	struct kb_job job;

	CHECK(load(&job, v3, NULL, 0) == 0);
	CHECK(job.nr_replay == 5 && job.nr_devices == 1 && !strcmp(job.devices[0], "/dev/x"));
	CHECK(job.replay[0].dir == KIOBENCH_DIR_READ && job.replay[0].offset == 40960 &&
	      job.replay[0].len == 4096 && job.replay[0].time_ns == 1000000);
	CHECK(job.replay[1].dir == KIOBENCH_DIR_WRITE && job.replay[1].time_ns == 21000000);
	CHECK(job.replay[2].dir == KIOBENCH_DIR_TRIM && job.replay[2].time_ns == 21000000);
	CHECK(job.replay[3].dir == KIOBENCH_DIR_SYNC && job.replay[3].time_ns == 41000000);
	CHECK(job.replay[4].dir == KIOBENCH_DIR_SYNC && job.replay[4].time_ns == 51000000);
	CHECK(job.replay_write_line == 5 && job.bs == 8192 && job.rw == KB_RW_MIXED);
	CHECK(job.replay_lines[2] == 6);
	kb_job_free(&job);
	CHECK(load(&job, v3, fast, 0) == 0);
	CHECK(job.replay[1].time_ns == 10500000 && job.replay[4].time_ns == 25500000);
	kb_job_free(&job);
	CHECK(load(&job, v3, nostall, 0) == 0);
	CHECK(job.replay[1].time_ns == 0 && job.replay[4].time_ns == 0);
	kb_job_free(&job);
}

static const char v2[] = "fio version 2 iolog\n"
	"/dev/x add\n"
	"/dev/x open\n"
	"/dev/x read 40960 4096\n"
	"/dev/x wait 30 0\n"
	"/dev/x write 12290 8192\n"
	"/dev/x read 1052672 4096\n";

/* Mutation: add_io() without replay_scale, replay_align or replay_skip: red. */
static void t_v2_options(void)
{
	static const char *const scaled[] = { "replay_scale", "2", "replay_align", "4096",
					      "replay_redirect", "/dev/y", NULL };
	static const char *const skip[] = { "replay_skip", "write,trim", NULL };
	struct kb_job job;

	CHECK(load(&job, v2, NULL, 0) == 0);
	CHECK(job.nr_replay == 3 && job.replay[0].time_ns == 0 &&
	      job.replay[1].time_ns == 30000000 && job.replay[1].offset == 12290);
	kb_job_free(&job);
	CHECK(load(&job, v2, scaled, 0) == 0);
	CHECK(job.replay[0].offset == 20480 && job.replay[1].offset == 4096 &&
	      job.replay[2].offset == 524288 && !strcmp(job.devices[0], "/dev/y"));
	kb_job_free(&job);
	CHECK(load(&job, v2, skip, 0) == 0);
	CHECK(job.nr_replay == 2 && job.replay[1].offset == 1052672 && !job.replay_write_line &&
	      job.rw == KB_RW_READ);
	kb_job_free(&job);
}

/* Mutation: parse_log() skipping an unknown action, as fio: red. */
static void t_refused(void)
{
	struct kb_job job;
	char *p;

	CHECK(load(&job, "fio version 2 iolog\n/dev/x add\n/dev/x frob 0 4096\n", NULL, 0) == -1);
	CHECK(strstr(err, "a.log:3: unknown action 'frob'") != NULL);
	kb_job_free(&job);
	CHECK(load(&job, "fio version 2 iolog\n/dev/x read 0 4096\n/dev/z read 0 4096\n", NULL,
		   0) == -1);
	CHECK(strstr(err, "a.log:3: a second file /dev/z (after /dev/x)") != NULL);
	kb_job_free(&job);
	CHECK(load(&job, "fio version 1 iolog\n", NULL, 0) == -1);
	CHECK(strstr(err, "not a fio iolog") != NULL);
	kb_job_free(&job);
	CHECK(load(&job, "\x07\x74\x61\x65garbage", NULL, 0) == -1);
	CHECK(strstr(err, "blktrace binary traces: kiobench replays fio's text iologs (v2, v3) "
			  "only") != NULL);
	kb_job_free(&job);
	CHECK(load(&job, "fio version 2 iolog\n/dev/x add\n", NULL, 0) == -1);
	CHECK(strstr(err, "no I/O to replay") != NULL);
	kb_job_free(&job);
	/* fio's get_name_by_idx(): clone k the k-th name, modulo their number */
	kb_job_init(&job);
	CHECK(apply(&job, NULL, "read_iolog", "/nonexistent/a:/nonexistent/b") == 0);
	CHECK(kb_replay_load(&job, 3, err, sizeof(err)) == -1);
	p = strstr(err, "/nonexistent/b:");
	CHECK(p != NULL);
	kb_job_free(&job);
}

/*
 * The log decides the directions: rw and rwmixread given beside read_iolog
 * are not the job's, and --parse-only had printed rw=read_iolog (the
 * replay's name for its rw), which it cannot read back (the parsers'
 * fuzzer: tests/fuzz/parsers/regress/jobfile/read-iolog-with-rw.fio).
 * Mutation: use_device() leaving rw's mark: red.
 */
static void t_rw_from_log(void)
{
	static const char *const rw[] = { "rw", "randrw", "rwmixread", "70", NULL };
	struct kb_job job;

	CHECK(load(&job, v3, rw, 0) == 0);
	CHECK(job.rw == KB_RW_MIXED && !job.random);
	CHECK(!kb_job_isset(&job, KB_OPT_RW) && !kb_job_isset(&job, KB_OPT_RWMIXREAD));
	kb_job_free(&job);
}

void replay_tests(void)
{
	CHECK(mkdtemp(dir) != NULL);
	run_case("replay: v3 times, replay_time_scale, replay_no_stall", t_v3);
	run_case("replay: v2 wait, replay_scale, replay_align, replay_redirect, replay_skip",
		 t_v2_options);
	run_case("replay: refused logs, with their line; a clone's log", t_refused);
	run_case("replay: rw and rwmixread are the log's", t_rw_from_log);
}
