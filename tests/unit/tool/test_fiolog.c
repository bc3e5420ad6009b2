// SPDX-License-Identifier: GPL-2.0
/* Unit tests of fio's log files (tools/fiolog.c). */
#include <zlib.h>

#include "fiolog.h"
#include "options.h"
#include "tool_test.h"
#include "values.h"

/* fio's layout: bins 0-127 one ns each, then 64 per power of two. */
static uint64_t bin_low(unsigned int i)
{
	unsigned int g = i >> KB_FIO_PLAT_BITS;

	if (g < 2)
		return i;
	return (uint64_t)(KB_FIO_PLAT_VAL + (i & (KB_FIO_PLAT_VAL - 1))) << (g - 1);
}

static void t_plat_idx(void)
{
	unsigned int i, bad = 0;

	for (i = 0; i < KB_FIO_PLAT_NR; i++)
		bad += kb_fio_plat_idx(bin_low(i)) != i ||
		       (i && kb_fio_plat_idx(bin_low(i) - 1) != i - 1);
	CHECK(bad == 0);
	CHECK(KB_FIO_PLAT_NR == 1856);
	CHECK(kb_fio_plat_idx(129) == 128 && kb_fio_plat_idx(130) == 129);
	/* beyond the last bin's start (~17 s): the last bin */
	CHECK(kb_fio_plat_idx(UINT64_MAX) == KB_FIO_PLAT_NR - 1);
}

/* Four I/Os, out of completion order as CPUs may claim them. */
static const char raw[] =
	"# kiobench-lat-log 1\n# entries 4\n# dropped 7\n"
	"# columns end_ns lat_ns dir offset bytes\n"
	"2500000 500000 read 8192 4096\n"
	"1200000 200000 read 0 4096\n"
	"1900000 1000 write 4096 8192\n"
	"12000000 1000000 read 12288 4096\n";

static char *slurp(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return kb_read_file(path);
}

static void rm_dir(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

static void t_parse(void)
{
	struct kb_io_entry *e;
	uint64_t dropped;
	size_t n;

	CHECK(kb_io_log_parse(raw, &e, &n, &dropped, err, sizeof(err)) == 0);
	CHECK(n == 4 && dropped == 7);
	CHECK(e[0].end_ns == 1200000 && e[1].dir == KIOBENCH_DIR_WRITE &&
	      e[1].len == 8192 && e[3].end_ns == 12000000 && e[3].offset == 12288);
	free(e);
	CHECK(kb_io_log_parse("1 2 sideways 3 4\n", &e, &n, &dropped, err, sizeof(err)) == -1);
	CHECK(strstr(err, "line 1") != NULL);
}

static void write_logs(struct kb_job *job, const char *dir, unsigned int index)
{
	struct kb_io_entry *e;
	uint64_t dropped;
	size_t n;
	char prefix[256];

	snprintf(prefix, sizeof(prefix), "%s/k", dir);
	free(job->lat_log);
	free(job->bw_log);
	free(job->iops_log);
	free(job->hist_log);
	job->lat_log = strdup(prefix);
	job->bw_log = strdup(prefix);
	job->iops_log = strdup(prefix);
	job->hist_log = strdup(prefix);
	CHECK(kb_io_log_parse(raw, &e, &n, &dropped, err, sizeof(err)) == 0);
	CHECK(kb_fio_logs_write(job, index, 0, e, n, err, sizeof(err)) == 0);
	free(e);
}

static void t_per_io(void)
{
	char dir[] = "/tmp/kb-fiolog-XXXXXX", *s, *p;
	struct kb_job job;
	unsigned int lines;

	CHECK(mkdtemp(dir) != NULL);
	kb_job_init(&job);
	write_logs(&job, dir, 3);
	/* in completion order; time in ms; fio's direction numbers */
	s = slurp(dir, "k_lat.3.log");
	CHECK_STR(s, "1, 200000, 0, 4096, 0\n1, 1000, 1, 8192, 0\n"
		     "2, 500000, 0, 4096, 0\n12, 1000000, 0, 4096, 0\n");
	free(s);
	s = slurp(dir, "k_clat.3.log");
	CHECK(s && !strncmp(s, "1, 200000, 0, 4096, 0\n", 22));
	free(s);
	/* fio's per-I/O bandwidth: bytes x 10^6 / latency (ns) */
	s = slurp(dir, "k_bw.3.log");
	CHECK(s && !strncmp(s, "1, 20480, 0, 4096, 0\n1, 8192000, 1, 8192, 0\n", 44));
	free(s);
	s = slurp(dir, "k_iops.3.log");
	CHECK(s && !strncmp(s, "1, 1, 0, 4096, 0\n", 17));
	free(s);
	/* fio: empty without log_hist_msec */
	s = slurp(dir, "k_clat_hist.3.log");
	CHECK_STR(s ? s : "(none)", "");
	free(s);
	/* log_offset: the offset before the priority; per_job_logs=0: no number */
	CHECK(apply(&job, NULL, "log_offset", "1") == 0);
	CHECK(apply(&job, NULL, "per_job_logs", "0") == 0);
	write_logs(&job, dir, 3);
	s = slurp(dir, "k_lat.log");
	CHECK(s && !strncmp(s, "1, 200000, 0, 4096, 0, 0\n1, 1000, 1, 8192, 4096, 0\n", 50));
	free(s);
	/* ... and a second job of that name appends, as fio's */
	write_logs(&job, dir, 4);
	s = slurp(dir, "k_iops.log");
	for (p = s, lines = 0; p && *p; p++)
		lines += *p == '\n';
	CHECK(lines == 2 * 4);
	free(s);
	kb_job_free(&job);
	rm_dir(dir);
}

/*
 * fio's write_bw_log (and the other three) without a value, or with an
 * empty one: the logs take the job's name (make_log_name()), as
 * "fio --name=jl --write_bw_log" writes jl_bw.1.log.
 * Mutation: p_log() back to p_str() (a value needed): red.
 * Mutation: fiolog.c without the job name fallback: red.
 */
static void t_log_no_name(void)
{
	char dir[] = "/tmp/kb-fiolog-XXXXXX", cwd[4096], *s;
	struct kb_io_entry *e;
	struct kb_job job;
	uint64_t dropped;
	size_t n;

	CHECK(mkdtemp(dir) != NULL);
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK(chdir(dir) == 0);
	kb_job_init(&job);
	CHECK(apply(&job, NULL, "name", "jl") == 0);
	CHECK(apply(&job, NULL, "write_bw_log", NULL) == 0);
	CHECK(apply(&job, NULL, "write_iops_log", "") == 0);
	CHECK(apply(&job, NULL, "write_lat_log", NULL) == 0);
	CHECK(apply(&job, NULL, "write_hist_log", NULL) == 0);
	CHECK(kb_io_log_parse(raw, &e, &n, &dropped, err, sizeof(err)) == 0);
	CHECK(kb_fio_logs_write(&job, 1, 0, e, n, err, sizeof(err)) == 0);
	free(e);
	s = slurp(dir, "jl_bw.1.log");
	CHECK(s && !strncmp(s, "1, 20480, 0, 4096, 0\n", 21));
	free(s);
	s = slurp(dir, "jl_iops.1.log");
	CHECK(s && !strncmp(s, "1, 1, 0, 4096, 0\n", 17));
	free(s);
	s = slurp(dir, "jl_clat.1.log");
	CHECK(s != NULL);
	free(s);
	s = slurp(dir, "jl_clat_hist.1.log");
	CHECK(s != NULL);
	free(s);
	CHECK(chdir(cwd) == 0);
	kb_job_free(&job);
	rm_dir(dir);
}

/*
 * The priority column as fio 3.33 writes it: 1 for a realtime-class I/O
 * (0x2003: class 1, level 3), else 0; with log_prio the value in hex.  A
 * module before 0.6 (five columns) gives 0.
 */
static void t_prio(void)
{
	static const char raw6[] =
		"# columns end_ns lat_ns dir offset bytes ioprio\n"
		"1000000 1000 read 0 4096 16389\n"
		"2000000 2000 read 4096 4096 8195\n"
		"3000000 3000 read 8192 4096\n";
	char dir[] = "/tmp/kb-fiolog-XXXXXX", prefix[256], *s;
	struct kb_io_entry *e;
	struct kb_job job;
	uint64_t dropped;
	size_t n;

	CHECK(mkdtemp(dir) != NULL);
	kb_job_init(&job);
	snprintf(prefix, sizeof(prefix), "%s/p", dir);
	job.lat_log = strdup(prefix);
	CHECK(kb_io_log_parse(raw6, &e, &n, &dropped, err, sizeof(err)) == 0);
	CHECK(n == 3 && e[0].ioprio == 0x4005 && e[1].ioprio == 0x2003 && e[2].ioprio == 0);
	CHECK(kb_fio_logs_write(&job, 1, 0, e, n, err, sizeof(err)) == 0);
	s = slurp(dir, "p_clat.1.log");
	CHECK_STR(s ? s : "(none)", "1, 1000, 0, 4096, 0\n2, 2000, 0, 4096, 1\n3, 3000, 0, 4096, 0\n");
	free(s);
	CHECK(apply(&job, NULL, "log_prio", "1") == 0);
	CHECK(apply(&job, NULL, "per_job_logs", "0") == 0);
	CHECK(kb_fio_logs_write(&job, 1, 0, e, n, err, sizeof(err)) == 0);
	s = slurp(dir, "p_clat.log");
	CHECK_STR(s ? s : "(none)", "1, 1000, 0, 4096, 0x4005\n2, 2000, 0, 4096, 0x2003\n"
		  "3, 3000, 0, 4096, 0x0000\n");
	free(s);
	free(e);
	kb_job_free(&job);
	rm_dir(dir);
}

static void t_windows(void)
{
	char dir[] = "/tmp/kb-fiolog-XXXXXX", *s, *p;
	struct kb_job job;
	unsigned int commas = 0;

	CHECK(mkdtemp(dir) != NULL);
	kb_job_init(&job);
	CHECK(apply(&job, NULL, "log_avg_msec", "10") == 0);
	CHECK(apply(&job, NULL, "log_hist_msec", "10") == 0);
	CHECK(apply(&job, NULL, "log_hist_coarseness", "2") == 0);
	write_logs(&job, dir, 1);
	/* window 0-10 ms: reads 200 and 500 us, a write of 1 us; 10-12 ms: one read */
	s = slurp(dir, "k_lat.1.log");
	CHECK_STR(s, "10, 350000, 0, 0, 0\n10, 1000, 1, 0, 0\n12, 1000000, 0, 0, 0\n");
	free(s);
	/* KiB/s and IOPS over each window; the last ends at its last completion */
	s = slurp(dir, "k_bw.1.log");
	CHECK_STR(s, "10, 800, 0, 0, 0\n10, 800, 1, 0, 0\n12, 2000, 0, 0, 0\n"
		     "12, 0, 1, 0, 0\n");
	free(s);
	s = slurp(dir, "k_iops.1.log");
	CHECK_STR(s, "10, 200, 0, 0, 0\n10, 100, 1, 0, 0\n12, 500, 0, 0, 0\n"
		     "12, 0, 1, 0, 0\n");
	free(s);
	/* 1856 >> 2 bins a line, after time, direction and size */
	s = slurp(dir, "k_clat_hist.1.log");
	CHECK(s && !strncmp(s, "10, 0, 4096, ", 13));
	for (p = s; p && *p && *p != '\n'; p++)
		commas += *p == ',';
	CHECK(commas == 2 + 464 - 1 + 1);
	free(s);
	kb_job_free(&job);
	rm_dir(dir);
}


/*
 * log_max_value: a window's largest latency in the lat and clat logs
 * (reads of 200 and 500 us in 0-10 ms: 500000, not the mean 350000);
 * bandwidth unchanged.  Mutation: `l->max ? w[d].lat_max :` ->
 * `l->max ? w[d].lat_sum / w[d].n :`: red.
 */
static void t_max_value(void)
{
	char dir[] = "/tmp/kb-fiolog-XXXXXX", *s;
	struct kb_job job;

	CHECK(mkdtemp(dir) != NULL);
	kb_job_init(&job);
	CHECK(apply(&job, NULL, "log_avg_msec", "10") == 0);
	CHECK(apply(&job, NULL, "log_max_value", "1") == 0);
	write_logs(&job, dir, 1);
	s = slurp(dir, "k_clat.1.log");
	CHECK_STR(s ? s : "(none)", "10, 500000, 0, 0, 0\n10, 1000, 1, 0, 0\n"
		  "12, 1000000, 0, 0, 0\n");
	free(s);
	s = slurp(dir, "k_bw.1.log");
	CHECK(s && !strncmp(s, "10, 800, 0, 0, 0\n", 17));
	free(s);
	kb_job_free(&job);
	rm_dir(dir);
}

/*
 * log_unix_epoch: every time plus the epoch's ms (results.c gives the
 * clock at the job's start plus ramp_time).  Mutation: line() without
 * `ms += l->epoch_ms`: red.
 */
static void t_epoch(void)
{
	char dir[] = "/tmp/kb-fiolog-XXXXXX", prefix[256], *s;
	struct kb_io_entry *e;
	struct kb_job job;
	uint64_t dropped;
	size_t n;

	CHECK(mkdtemp(dir) != NULL);
	kb_job_init(&job);
	CHECK(apply(&job, NULL, "log_unix_epoch", "1") == 0);
	snprintf(prefix, sizeof(prefix), "%s/u", dir);
	job.lat_log = strdup(prefix);
	CHECK(kb_io_log_parse(raw, &e, &n, &dropped, err, sizeof(err)) == 0);
	CHECK(kb_fio_logs_write(&job, 1, 1700000000000ULL, e, n, err, sizeof(err)) == 0);
	s = slurp(dir, "u_lat.1.log");
	CHECK(s && !strncmp(s, "1700000000001, 200000, 0, 4096, 0\n", 34));
	free(s);
	free(e);
	/* fio's clock ids: one this host reads, else refused */
	CHECK(apply(&job, NULL, "log_alternate_epoch_clock_id", "1") == 0 &&
	      job.log_epoch_clock == 1);
	CHECK(apply(&job, NULL, "log_alternate_epoch_clock_id", "4096") == -1);
	kb_job_free(&job);
	rm_dir(dir);
}

/* The .fz file inflated: each zlib stream in turn, as fio --inflate-log. */
static unsigned char *inflate_all(const char *path, size_t *out_len, unsigned int *streams)
{
	unsigned char *in, *out = NULL;
	size_t in_len, at = 0, cap = 0;
	FILE *f = fopen(path, "rb");
	struct stat st;

	*out_len = 0;
	*streams = 0;
	if (!f || fstat(fileno(f), &st)) {
		if (f)
			fclose(f);
		return NULL;
	}
	in_len = st.st_size;
	in = malloc(in_len + 1);
	if (!in || fread(in, 1, in_len, f) != in_len) {
		fclose(f);
		free(in);
		return NULL;
	}
	fclose(f);
	while (at < in_len) {
		z_stream zs = { 0 };
		int ret;

		if (inflateInit(&zs) != Z_OK)
			break;
		zs.next_in = in + at;
		zs.avail_in = in_len - at;
		do {
			if (cap - *out_len < 65536) {
				cap = cap * 2 + 65536;
				out = realloc(out, cap);
			}
			zs.next_out = out + *out_len;
			zs.avail_out = cap - *out_len;
			ret = inflate(&zs, Z_NO_FLUSH);
			*out_len = zs.next_out - out;
		} while (ret == Z_OK);
		at = zs.next_in - in;
		inflateEnd(&zs);
		if (ret != Z_STREAM_END)
			break;
		(*streams)++;
	}
	free(in);
	return out;
}

/*
 * log_store_compressed: k_lat.1.log.fz holds fio 3.33's samples (32 bytes,
 * 40 with log_offset and its ddir bit), deflated, a stream per
 * log_compression bytes; Debian's fio --inflate-log prints them as the
 * text log's lines.  Mutation: line()'s sample without
 * `(l->offset ? FIO_SAMPLE_OFFSET : 0)`: red (fio reads 32-byte samples).
 */
static void t_compressed(void)
{
	char dir[] = "/tmp/kb-fiolog-XXXXXX", path[512], cmd[700], *text, *s;
	unsigned int streams;
	unsigned char *b;
	struct kb_job job;
	uint64_t v;
	size_t len;
	FILE *p;

	CHECK(mkdtemp(dir) != NULL);
	kb_job_init(&job);
	CHECK(apply(&job, NULL, "log_offset", "1") == 0);
	write_logs(&job, dir, 1);
	text = slurp(dir, "k_lat.1.log");
	CHECK(apply(&job, NULL, "log_store_compressed", "1") == 0);
	CHECK(apply(&job, NULL, "log_compression", "1k") == 0);
	free(job.hist_log);
	job.hist_log = NULL;
	write_logs(&job, dir, 1);
	snprintf(path, sizeof(path), "%s/k_lat.1.log.fz", dir);
	b = inflate_all(path, &len, &streams);
	CHECK(b && len == 4 * 40 && streams == 1);
	if (b && len == 160) {
		memcpy(&v, b + 8, 8);
		CHECK(v == 200000);		/* the first sample's latency */
		memcpy(&v, b + 40 + 32, 8);
		CHECK(v == 4096);		/* the second's offset */
		CHECK(b[16 + 3] == 0x80);	/* fio's LOG_OFFSET_SAMPLE_BIT */
	}
	free(b);
	snprintf(path, sizeof(path), "%s/k_bw.1.log.fz", dir);
	CHECK(access(path, F_OK) == 0);
	if (!system("fio --version >/dev/null 2>&1")) {
		snprintf(cmd, sizeof(cmd), "fio --inflate-log=%s/k_lat.1.log.fz", dir);
		p = popen(cmd, "r");
		s = calloc(1, 4096);
		if (p && s)
			CHECK(fread(s, 1, 4095, p) > 0);
		if (p)
			pclose(p);
		CHECK_STR(s ? s : "(none)", text ? text : "(no text log)");
		free(s);
	} else {
		printf("    skipped fio --inflate-log: no fio on this host\n");
	}
	/* 2000 samples of 32 bytes in 1 KiB chunks: a stream per 32 samples */
	{
		struct kb_io_entry e[2000];
		unsigned int i;

		for (i = 0; i < 2000; i++)
			e[i] = (struct kb_io_entry){ .end_ns = i * 1000ULL, .lat_ns = 1000,
						     .len = 4096 };
		CHECK(apply(&job, NULL, "log_offset", "0") == 0);
		CHECK(kb_fio_logs_write(&job, 2, 0, e, 2000, err, sizeof(err)) == 0);
		snprintf(path, sizeof(path), "%s/k_iops.2.log.fz", dir);
		b = inflate_all(path, &len, &streams);
		CHECK(len == 2000 * 32 && streams == (2000 + 31) / 32);
		free(b);
	}
	/* fio's hist samples are pointers: no .fz of them */
	CHECK(apply(&job, NULL, "write_hist_log", "h") == 0);
	CHECK(apply(&job, NULL, "filename", "/dev/nullb0") == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == -1 && strstr(err, "write_hist_log"));
	free(text);
	kb_job_free(&job);
	rm_dir(dir);
}

static void t_options(void)
{
	struct kb_job job;

	kb_job_init(&job);
	CHECK(job.per_job_logs && !kb_job_wants_io_log(&job));
	CHECK(apply(&job, NULL, "write_iops_log", "x") == 0 && kb_job_wants_io_log(&job));
	CHECK(apply(&job, NULL, "log_prio", "0") == 0 && !job.log_prio);
	CHECK(apply(&job, NULL, "log_prio", "1") == 0 && job.log_prio);
	CHECK(apply(&job, NULL, "log_hist_coarseness", "7") == -1);
	kb_job_free(&job);
}

/*
 * A log of every I/O (lat-log-all): two devices, a warm-up I/O, a failed
 * one and a flush, in completion order, the way CPUs claim entries.
 */
static const char raw_all[] =
	"# kiobench-lat-log 1\n# entries 5\n# dropped 0\n# all 1\n"
	"# flags 1 warm-up, 2 failed\n"
	"# columns end_ns lat_ns dir offset bytes ioprio dev flags\n"
	"9000 7000 read 8192 4096 0 1 0\n"	/* submitted at 2000 */
	"3000 2500 read 0 4096 0 0 1\n"		/* 500, warm-up */
	"12500 1500 write 4096 8192 0 0 2\n"	/* 11000, failed */
	"20999 999 sync 0 0 0 0 0\n"		/* 20000 */
	"15000 12000 read 12288 4096 0 1 0\n";	/* 3000 */

static void t_iolog(void)
{
	char dir[] = "/tmp/kb-iolog-XXXXXX", path[512], *s;
	struct kb_io_entry *e;
	struct kb_job job;
	uint64_t dropped;
	size_t n;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/io.log", dir);
	kb_job_init(&job);
	CHECK(apply(&job, NULL, "filename", "/dev/nullb0:/dev/nullb1") == 0);
	CHECK(apply(&job, NULL, "write_iolog", path) == 0 && kb_job_wants_io_log(&job));
	CHECK(kb_io_log_parse(raw_all, &e, &n, &dropped, err, sizeof(err)) == 0);
	CHECK(n == 5 && dropped == 0);
	CHECK(e[0].flags == KB_IO_WARMUP && e[1].dev == 1 && e[2].flags == KB_IO_FAILED);
	/* every I/O, in submission order, at its submission (us); the devices' paths */
	CHECK(kb_fio_iolog_write(&job, e, n, err, sizeof(err)) == 0);
	s = kb_read_file(path);
	CHECK_STR(s, "fio version 3 iolog\n"
		     "0 /dev/nullb0 add\n0 /dev/nullb1 add\n"
		     "0 /dev/nullb0 open\n0 /dev/nullb1 open\n"
		     "0 /dev/nullb0 read 0 4096\n"
		     "2 /dev/nullb1 read 8192 4096\n"
		     "3 /dev/nullb1 read 12288 4096\n"
		     "11 /dev/nullb0 write 4096 8192\n"
		     "20 /dev/nullb0 sync 0 0\n"
		     "20 /dev/nullb0 close\n20 /dev/nullb1 close\n");
	free(s);
	/* fio appends, each job (and clone) its own log after the others' */
	CHECK(apply(&job, NULL, "fdatasync", "1") == 0);
	CHECK(kb_fio_iolog_write(&job, e + 4, 1, err, sizeof(err)) == 0);
	s = kb_read_file(path);
	CHECK(s && strstr(s, "close\nfio version 3 iolog\n0 /dev/nullb0 add\n") &&
	      strstr(s, "\n20 /dev/nullb0 datasync 0 0\n20 /dev/nullb0 close\n"));
	free(s);
	/* an entry of a device the job has not: refused, nothing appended */
	e[0].dev = 2;
	CHECK(kb_fio_iolog_write(&job, e, n, err, sizeof(err)) == -1 && strstr(err, "entry 1"));
	free(e);
	kb_job_free(&job);
	/* zone operations have no iolog line */
	kb_job_init(&job);
	CHECK(apply(&job, NULL, "filename", "/dev/nullb0") == 0);
	CHECK(apply(&job, NULL, "write_iolog", path) == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == 0);
	CHECK(apply(&job, NULL, "rw", "zone_reset") == 0);
	CHECK(kb_job_check(&job, err, sizeof(err)) == -1 && strstr(err, "write_iolog"));
	kb_job_free(&job);
	rm_dir(dir);
}

void fiolog_tests(void)
{
	run_case("fiolog: fio's histogram bins", t_plat_idx);
	run_case("fiolog: per-I/O log parsed, sorted", t_parse);
	run_case("fiolog: a line per I/O", t_per_io);
	run_case("fiolog: the priority column, log_prio", t_prio);
	run_case("fiolog: write_*_log without a name: the job's", t_log_no_name);
	run_case("fiolog: windows of log_avg_msec, log_hist_msec", t_windows);
	run_case("fiolog: options", t_options);
	run_case("fiolog: log_max_value", t_max_value);
	run_case("fiolog: log_unix_epoch, log_alternate_epoch_clock_id", t_epoch);
	run_case("fiolog: log_store_compressed, log_compression (fio --inflate-log)",
		 t_compressed);
	run_case("fiolog: write_iolog, fio's version 3 iolog", t_iolog);
}
