// SPDX-License-Identifier: GPL-2.0
/*
 * The sandbox of the parsers' fuzz targets.  While kbfuzz_run() runs the
 * tool's code, its calls that reach files, devices and sockets (linked
 * with -Wl,--wrap, Makefile's WRAP) go here:
 *
 *  - A path under the sandbox's directory, or a relative one (taken as
 *    relative to the sandbox), opens for reading; a path with a ".."
 *    component, or any other path, is ENOENT: an input that names
 *    /dev/zero, /proc/kmsg or a FIFO reads nothing real.
 *  - A path under /dev/ is a fake block device: an empty file whose
 *    BLKGETSIZE64 and BLKSSZGET ioctls answer FAKE_BYTES and FAKE_LBS, so
 *    that the checks against a device's size run; no device is opened.
 *  - An open for writing, a socket, the netlink client (kb_nl_open), a
 *    directory made, a file removed, a write(2) to a descriptor past
 *    stderr, a program run, a signal sent or the CPUs changed abort with
 *    a message: `run --parse-only` writes nothing and needs no kernel,
 *    so the fuzzer reports it as a crash.
 *  - The sandbox holds inc.fio and replay.log, which an input's include
 *    and read_iolog may name.
 *  - Every file opened must be closed when cmd_run() returns (else an
 *    abort: a descriptor leaked on some path).
 *
 * Outside kbfuzz_run() (libFuzzer's own files) the calls go straight on.
 * The environment is emptied once (a ${VAR} in an input expands to
 * nothing, whatever the machine's), and KIOBENCH_SYSFS points at the
 * sandbox's fake sysfs: a node 0 with CPUs 0-1 (numa_cpu_nodes).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "fuzz.h"

#define FAKE_BYTES	(1ULL << 30)
#define FAKE_LBS	512
#define MAX_FD		4096

int __real_open(const char *path, int flags, ...);
int __real_open64(const char *path, int flags, ...);
FILE *__real_fopen(const char *path, const char *mode);
FILE *__real_fopen64(const char *path, const char *mode);
int __real_fclose(FILE *f);
int __real_close(int fd);
int __real_ioctl(int fd, unsigned long req, ...);
DIR *__real_opendir(const char *path);
int __real_socket(int domain, int type, int proto);
struct kb_nl;
struct kb_nlerr;
int __real_mkdir(const char *path, mode_t mode);
int __real_unlink(const char *path);
ssize_t __real_write(int fd, const void *buf, size_t n);
int __real_execvp(const char *file, char *const argv[]);
int __real_kill(pid_t pid, int sig);
int __real_sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set);
int __real_kb_nl_open(struct kb_nl *nl, bool events, struct kb_nlerr *e);

static char dir[64];
static bool armed;
static FILE *out_file;
static bool verbose;		/* $KBFUZZ_VERBOSE: the tool's messages shown */		/* kbfuzz_run_to()'s */
/* the descriptors the tool opened while armed: 1 a file, 2 a fake device */
static unsigned char opened[MAX_FD];

static void mkfile(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = __real_fopen(path, "w");
	if (!f || fputs(text, f) < 0 || __real_fclose(f)) {
		perror(path);
		abort();
	}
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The sandbox's directory, removed when the process exits. */
static void remove_dir(void)
{
	nftw(dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

const char *kbfuzz_dir(void)
{
	static const char *const sysfs[] = {
		"sys", "sys/devices", "sys/devices/system", "sys/devices/system/node",
		"sys/devices/system/node/node0",
	};
	const char *tmp = getenv("TMPDIR");
	char path[256];
	size_t i;

	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "%s/kbfuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror(dir);
		abort();
	}
	verbose = getenv("KBFUZZ_VERBOSE");
	clearenv();
	mkfile("device", "");
	for (i = 0; i < sizeof(sysfs) / sizeof(sysfs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, sysfs[i]);
		if (mkdir(path, 0700)) {
			perror(path);
			abort();
		}
	}
	/* for an input's include and read_iolog to find */
	mkfile("inc.fio", "bs=8k\nrw=randrw\nbssplit=4k/50:16k/50\nblockalign=4k\n");
	mkfile("replay.log", "fio version 2 iolog\n/dev/x add\n/dev/x open\n"
	       "/dev/x read 0 4096\n/dev/x write 8192 8192\n/dev/x close\n");
	mkfile("sys/devices/system/node/online", "0\n");
	mkfile("sys/devices/system/node/node0/cpulist", "0-1\n");
	snprintf(path, sizeof(path), "%s/sys", dir);
	setenv("KIOBENCH_SYSFS", path, 1);
	atexit(remove_dir);
	return dir;
}

const char *kbfuzz_write(const char *name, const uint8_t *data, size_t n)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", kbfuzz_dir(), name);
	f = __real_fopen(path, "w");
	if (!f || fwrite(data, 1, n, f) != n || __real_fclose(f)) {
		perror(path);
		abort();
	}
	return path;
}

void kbfuzz_fail(const char *fmt, ...)
{
	char msg[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n(KBFUZZ_VERBOSE=1 shows the tool's messages)\n", msg);
	abort();
}

static void refuse(const char *what, const char *path)
{
	kbfuzz_fail("kbfuzz: run --parse-only %s %s", what, path ? path : "");
}

static bool has_dotdot(const char *p)
{
	for (; *p; p += strcspn(p, "/"), p += *p == '/')
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return true;
	return false;
}

/* A read-only descriptor for path as the sandbox sees it; -1 with errno. */
static int sandboxed(const char *path, int flags)
{
	char real[512];
	size_t len = strlen(dir);
	int fd, kind = 1;

	if (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND))
		refuse("opened for writing", path);
	if (!*path || has_dotdot(path)) {
		errno = ENOENT;
		return -1;
	}
	if (!strncmp(path, "/dev/", 5)) {
		snprintf(real, sizeof(real), "%s/device", dir);
		kind = 2;
	} else if (path[0] != '/') {
		snprintf(real, sizeof(real), "%s/%s", dir, path);
	} else if (!strncmp(path, dir, len) && path[len] == '/') {
		snprintf(real, sizeof(real), "%s", path);
	} else {
		errno = ENOENT;
		return -1;
	}
	/* O_NONBLOCK: a FIFO made some other way would not block the target */
	fd = __real_open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= MAX_FD)
		kbfuzz_fail("kbfuzz: descriptor %d: more than %d open", fd, MAX_FD);
	if (fd >= 0)
		opened[fd] = kind;
	return fd;
}

int __wrap_open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = va_arg(ap, int);
		va_end(ap);
	}
	return armed ? sandboxed(path, flags) : __real_open(path, flags, mode);
}

int __wrap_open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = va_arg(ap, int);
		va_end(ap);
	}
	return armed ? sandboxed(path, flags) : __real_open64(path, flags, mode);
}

static FILE *sandboxed_fopen(const char *path, const char *mode)
{
	FILE *f;
	int fd;

	if (strpbrk(mode, "wa+"))
		refuse("opened for writing", path);
	fd = sandboxed(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "r");
	if (!f) {
		opened[fd] = 0;
		__real_close(fd);
	}
	return f;
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
	return armed ? sandboxed_fopen(path, mode) : __real_fopen(path, mode);
}

FILE *__wrap_fopen64(const char *path, const char *mode)
{
	return armed ? sandboxed_fopen(path, mode) : __real_fopen64(path, mode);
}

int __wrap_fclose(FILE *f)
{
	int fd = fileno(f);

	if (fd >= 0 && fd < MAX_FD)
		opened[fd] = 0;
	return __real_fclose(f);
}

int __wrap_close(int fd)
{
	if (fd >= 0 && fd < MAX_FD)
		opened[fd] = 0;
	return __real_close(fd);
}

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	void *arg;
	va_list ap;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!armed)
		return __real_ioctl(fd, req, arg);
	if (fd >= 0 && fd < MAX_FD && opened[fd] == 2) {
		if (req == BLKGETSIZE64) {
			*(uint64_t *)arg = FAKE_BYTES;
			return 0;
		}
		if (req == BLKSSZGET) {
			*(int *)arg = FAKE_LBS;
			return 0;
		}
	}
	errno = ENOTTY;
	return -1;
}

DIR *__wrap_opendir(const char *path)
{
	if (!armed)
		return __real_opendir(path);
	errno = ENOENT;
	return NULL;
}

int __wrap_socket(int domain, int type, int proto)
{
	if (armed)
		refuse("opened a socket", NULL);
	return __real_socket(domain, type, proto);
}

int __wrap_kb_nl_open(struct kb_nl *nl, bool events, struct kb_nlerr *e)
{
	if (armed)
		refuse("opened the netlink client", NULL);
	return __real_kb_nl_open(nl, events, e);
}

int __wrap_mkdir(const char *path, mode_t mode)
{
	if (armed)
		refuse("made a directory", path);
	return __real_mkdir(path, mode);
}

int __wrap_unlink(const char *path)
{
	if (armed)
		refuse("removed a file", path);
	return __real_unlink(path);
}

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
	if (armed && fd > 2)
		refuse("wrote to a descriptor other than stdout and stderr", NULL);
	return __real_write(fd, buf, n);
}

int __wrap_execvp(const char *file, char *const argv[])
{
	if (armed)
		refuse("ran a program", file);
	return __real_execvp(file, argv);
}

int __wrap_kill(pid_t pid, int sig)
{
	if (armed)
		refuse("sent a signal", NULL);
	return __real_kill(pid, sig);
}

int __wrap_sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	if (armed)
		refuse("moved itself to other CPUs", NULL);
	return __real_sched_setaffinity(pid, size, set);
}

/* The sandbox's file name, whole, as a string to free. */
static char *slurp(const char *name)
{
	char path[256];
	char *buf = NULL;
	size_t len = 0;
	FILE *f, *m;
	int c;

	snprintf(path, sizeof(path), "%s/%s", kbfuzz_dir(), name);
	f = __real_fopen(path, "r");
	m = open_memstream(&buf, &len);
	if (!f || !m)
		abort();
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	__real_fclose(f);
	__real_fclose(m);
	return buf;
}

/* A bssplit line of a table whose weights do not sum to 100 (bsrange's). */
static bool relative_bssplit(const char *line, size_t len)
{
	unsigned long sum = 0;
	const char *p, *end = line + len;

	if (strncmp(line, "bssplit=", 8))
		return false;
	for (p = line + 8; p < end; p++) {
		if (*p == '/')
			sum += strtoul(p + 1, NULL, 10);
		if (*p == ',' || p + 1 == end) {
			if (sum != 100)
				return true;
			sum = 0;
		}
	}
	return false;
}

/*
 * Every line of the print one that a job file can hold: no ';' or '#'
 * (a comment from there on, as fio reads it), no '$' (an expansion), no
 * blank at a value's ends (trimmed); a command line's value may have them.
 */
static bool holdable(const char *p)
{
	while (*p) {
		size_t len = strcspn(p, "\n"), eq = strcspn(p, "=");

		if (strcspn(p, ";#$") < len ||
		    (eq + 1 < len && (isspace((unsigned char)p[eq + 1]) ||
				      isspace((unsigned char)p[len - 1]))))
			return false;
		p += len + !!p[len];
	}
	return true;
}

/* Both prints the same, line by line, but for bsrange's bssplit. */
static bool same_print(const char *a, const char *b)
{
	while (*a || *b) {
		size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");

		if ((la != lb || memcmp(a, b, la)) &&
		    !(relative_bssplit(a, la) && !strncmp(b, "bssplit=", 8)))
			return false;
		a += la + !!a[la];
		b += lb + !!b[lb];
	}
	return true;
}

/*
 * What --parse-only prints must read back (tests/unit/test_parse_only.py,
 * for each option alone): the print parsed and printed again must be the
 * same print; else an abort with both.  One known exception, as in
 * test_parse_only.py: bsrange prints as the bssplit table it makes, whose
 * weights are relative (multiples of 512 bytes, not summing to 100),
 * which bssplit reads as percentages; such a bssplit line may differ.
 * And a print a job file cannot hold (holdable()) is not checked.
 */
void kbfuzz_check_print(const char *print)
{
	char path[256], *argv[] = { "run", "--parse-only", path, NULL }, *p1, *p2;

	snprintf(path, sizeof(path), "%s/%s", kbfuzz_dir(), print);
	p1 = slurp(print);
	if (p1[0] != '[' || !holdable(p1)) {	/* --help's usage, not jobs */
		free(p1);
		return;
	}
	if (kbfuzz_run_to("print2.fio", 3, argv))
		kbfuzz_fail("kbfuzz: the jobs' print does not parse:\n%s", p1);
	p2 = slurp("print2.fio");
	if (!same_print(p1, p2))
		kbfuzz_fail("kbfuzz: the jobs' print reads back to another print:\n"
			    "--- first\n%s--- second\n%s", p1, p2);
	free(p1);
	free(p2);
	/* gone before the next input, which might name them */
	__real_unlink(path);
	snprintf(path, sizeof(path), "%s/print2.fio", dir);
	__real_unlink(path);
}

int kbfuzz_run_to(const char *out, int argc, char **argv)
{
	char path[256];
	FILE *f, *was = stdout;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", kbfuzz_dir(), out);
	f = __real_fopen(path, "w");
	if (!f) {
		perror(path);
		abort();
	}
	stdout = out_file = f;
	ret = kbfuzz_run(argc, argv);
	stdout = was;
	out_file = NULL;
	if (__real_fclose(f)) {
		perror(path);
		abort();
	}
	return ret;
}

int kbfuzz_run(int argc, char **argv)
{
	static FILE *devnull;
	FILE *out = stdout, *err = stderr;
	char *none[] = { "x", NULL };
	int ret, fd;

	kbfuzz_dir();
	if (!devnull)
		devnull = __real_fopen("/dev/null", "w");
	/* glibc's getopt keeps its place in the last argv: start afresh */
	optind = 0;
	getopt(1, none, "");
	/*
	 * The tool's messages and prints unseen, unless $KBFUZZ_VERBOSE: its
	 * stdio streams swapped, not descriptors 1 and 2, which the
	 * sanitizers' and libFuzzer's reports go to
	 */
	if (!verbose && devnull) {
		stderr = devnull;
		if (!out_file)
			stdout = devnull;
	}
	armed = true;
	ret = cmd_run(argc, argv);
	armed = false;
	fflush(stdout);
	stdout = out;
	stderr = err;
	for (fd = 0; fd < MAX_FD; fd++)
		if (opened[fd])
			kbfuzz_fail("kbfuzz: descriptor %d left open (%s)", fd,
				    opened[fd] == 2 ? "a device" : "a file");
	return ret;
}
