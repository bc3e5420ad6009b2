// SPDX-License-Identifier: GPL-2.0
/*
 * kiobench-agent: the test guest's command server.  /init sets the system
 * up, opens the virtio-serial port as fd 3, says READY on it and execs this
 * program, which is PID 1 from then on.  The protocol is /init's (see
 * tests/vm/init), one command at a time:
 *
 *	host -> guest:	<seq> <timeout seconds> <base64 of a /bin/sh script>
 *	guest -> host:	BEGIN <seq>
 *			<base64 of the combined stdout and stderr>
 *			END <seq> <exit status> <1 if killed on timeout, else 0>
 *
 * The script is written to /run/agent/cmd and run by sh in a session of
 * its own, stdin /dev/null, stdout and stderr to /run/agent/out; at the
 * timeout its whole process group gets SIGKILL.  A signal's death is
 * reported as 128 + the signal, as the shell's wait does.
 *
 * Why not the shell loop /init ran before: it forked and exec'd eight
 * programs per command (base64 twice, rm, setsid twice, sh twice, sleep),
 * 0.25 s a command under TCG on the debug kernel, as long as most commands
 * themselves.  This one forks once, the sh that runs the script.
 *
 * As PID 1 it reaps every orphan that is reparented to it, between
 * commands too (a signalfd for SIGCHLD).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PORT_FD 3
#define CMD_PATH "/run/agent/cmd"
#define OUT_PATH "/run/agent/out"

static int sig_fd;

static void die(const char *what)
{
	dprintf(2, "kiobench-agent: %s: %s\n", what, strerror(errno));
	exit(1);	/* PID 1 exits: the kernel panics, the host sees it die */
}

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return;	/* the host went away: nothing to tell it */
		}
		buf += n;
		len -= n;
	}
}

static int b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Decode base64 text in place; returns the decoded length. */
static size_t b64_decode(char *s)
{
	unsigned int acc = 0;
	int bits = 0;
	size_t out = 0;

	for (const char *p = s; *p && *p != '='; p++) {
		int v = b64_value((unsigned char)*p);

		if (v < 0)
			continue;
		acc = (acc << 6) | (unsigned int)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			s[out++] = (char)((acc >> bits) & 0xff);
		}
	}
	return out;
}

/* Send file `path` base64-encoded, 76 characters a line. */
static void send_b64(int fd, const char *path)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned char in[57 * 64];
	char out[77 * 64];
	size_t have = 0;
	int src = open(path, O_RDONLY | O_CLOEXEC);

	if (src < 0)
		return;
	for (;;) {
		ssize_t n = read(src, in + have, sizeof(in) - have);
		size_t o = 0, i;

		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0) {
			have += n;
			if (have < sizeof(in))
				continue;
		}
		/* a full buffer, or the end: encode what there is */
		for (i = 0; i < have; i += 57) {
			size_t line = have - i < 57 ? have - i : 57, j;

			for (j = 0; j < line; j += 3) {
				unsigned int v = in[i + j] << 16;
				size_t k = line - j;

				if (k > 1)
					v |= in[i + j + 1] << 8;
				if (k > 2)
					v |= in[i + j + 2];
				out[o++] = tab[(v >> 18) & 63];
				out[o++] = tab[(v >> 12) & 63];
				out[o++] = k > 1 ? tab[(v >> 6) & 63] : '=';
				out[o++] = k > 2 ? tab[v & 63] : '=';
			}
			out[o++] = '\n';
		}
		write_all(fd, out, o);
		have = 0;
		if (n <= 0)
			break;
	}
	close(src);
}

/* Reap what has died; the status of `pid` goes to *status (returns 1). */
static int reap(pid_t pid, int *status)
{
	struct signalfd_siginfo si;
	int found = 0, st;
	pid_t p;

	while (read(sig_fd, &si, sizeof(si)) == sizeof(si))
		;
	while ((p = waitpid(-1, &st, WNOHANG)) > 0) {
		if (p == pid) {
			*status = st;
			found = 1;
		}
	}
	return found;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void run(const char *seq, double timeout, char *script)
{
	size_t len = b64_decode(script);
	int fd, status = 0, timed_out = 0, rc;
	double deadline = now() + timeout;
	sigset_t none;
	char end[128];
	pid_t pid;

	fd = open(CMD_PATH, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die(CMD_PATH);
	write_all(fd, script, len);
	close(fd);
	fd = open(OUT_PATH, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die(OUT_PATH);

	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		setsid();
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execl("/bin/sh", "sh", CMD_PATH, (char *)NULL);
		_exit(127);
	}
	close(fd);

	while (!reap(pid, &status)) {
		struct pollfd p = { .fd = sig_fd, .events = POLLIN };
		int ms = -1;

		if (!timed_out) {
			double left = deadline - now();

			ms = left <= 0 ? 0 : left > 86400 ? 86400000 : (int)(left * 1000) + 1;
		}
		if (poll(&p, 1, ms) == 0 && !timed_out) {
			timed_out = 1;
			kill(-pid, SIGKILL);	/* its process group ... */
			kill(pid, SIGKILL);	/* ... and sh, had it left it */
		}
	}
	rc = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);

	snprintf(end, sizeof(end), "BEGIN %s\n", seq);
	write_all(PORT_FD, end, strlen(end));
	send_b64(PORT_FD, OUT_PATH);
	snprintf(end, sizeof(end), "END %s %d %d\n", seq, rc, timed_out);
	write_all(PORT_FD, end, strlen(end));
}

/* One line of the host: "<seq> <timeout> <base64>"; others are ignored. */
static void serve_line(char *line)
{
	char *seq = strtok(line, " \t"), *tmo = strtok(NULL, " \t");
	char *script = strtok(NULL, " \t\r");

	if (!seq || !tmo || !script || strlen(seq) > 40)
		return;
	run(seq, strtod(tmo, NULL), script);
}

int main(void)
{
	size_t cap = 1 << 16, used = 0;
	char *buf = malloc(cap);
	sigset_t chld;

	if (!buf)
		die("malloc");
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &chld, NULL))
		die("sigprocmask");
	sig_fd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sig_fd < 0)
		die("signalfd");
	if (fcntl(PORT_FD, F_SETFD, FD_CLOEXEC))
		die("the port (fd 3)");

	for (;;) {
		struct pollfd p[2] = {
			{ .fd = PORT_FD, .events = POLLIN },
			{ .fd = sig_fd, .events = POLLIN },
		};
		char *nl;
		ssize_t n;
		int dummy;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll");
		}
		if (p[1].revents)
			reap(0, &dummy);
		if (!p[0].revents)
			continue;
		if (used == cap) {
			char *more = realloc(buf, cap * 2);

			if (!more)
				die("realloc");
			buf = more;
			cap *= 2;
		}
		n = read(PORT_FD, buf + used, cap - used);
		if (n <= 0) {
			usleep(200000);	/* the host end is not connected (yet) */
			continue;
		}
		used += n;
		while ((nl = memchr(buf, '\n', used))) {
			size_t line = nl - buf + 1;

			*nl = '\0';
			serve_line(buf);
			memmove(buf, buf + line, used - line);
			used -= line;
		}
	}
}
