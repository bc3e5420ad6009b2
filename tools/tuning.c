// SPDX-License-Identifier: GPL-2.0
/*
 * Machine-wide settings a sweep changes (tuning.h), and putting them back.
 *
 * Before a value is written, the path and its old value are appended to
 * the record of this process, <run dir>/tuning.<pid>, and synced: after
 * SIGKILL or a crash the next kiobench finds the record of a process that
 * is gone and writes the old values back (kb_tune_recover()).  Within the
 * process the values go back at the end of the sweep and, whatever the
 * exit path, from atexit(); SIGINT, SIGTERM and SIGHUP end a sweep in
 * order (run.c), so they pass there too.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli.h"
#include "locality.h"
#include "tuning.h"
#include "values.h"

const char *const kb_tune_names[KB_NR_TUNE] = {
	[KB_TUNE_RQ_AFFINITY] = "rq_affinity",
	[KB_TUNE_NOMERGES] = "nomerges",
	[KB_TUNE_SCHEDULER] = "ioscheduler",
	[KB_TUNE_NR_REQUESTS] = "nr_requests",
	[KB_TUNE_IRQ_CPUS] = "irq_cpus",
	[KB_TUNE_WRITE_GENERATE] = "write_generate",
	[KB_TUNE_READ_VERIFY] = "read_verify",
};

/* The sysfs attribute of each block setting, in the disk's queue/ or integrity/. */
static const char *const queue_attr[KB_NR_TUNE] = {
	[KB_TUNE_RQ_AFFINITY] = "rq_affinity",
	[KB_TUNE_NOMERGES] = "nomerges",
	[KB_TUNE_SCHEDULER] = "scheduler",
	[KB_TUNE_NR_REQUESTS] = "nr_requests",
	[KB_TUNE_WRITE_GENERATE] = "integrity/write_generate",
	[KB_TUNE_READ_VERIFY] = "integrity/read_verify",
};

static bool in_integrity(enum kb_tune t)
{
	return t == KB_TUNE_WRITE_GENERATE || t == KB_TUNE_READ_VERIFY;
}

struct change {
	char path[PATH_MAX];
	char old[256];
};

static struct change *changes;
static unsigned int nr_changes;
static bool at_exit;

static const char *run_dir(void)
{
	const char *d = getenv("KIOBENCH_RUN_DIR");

	return d && *d ? d : "/run/kiobench";
}

static void record_path(char *buf, size_t len, long pid)
{
	snprintf(buf, len, "%s/tuning.%ld", run_dir(), pid);
}

bool kb_tune_value(const char *list, unsigned int i, char *buf, size_t len)
{
	const char *p = list;

	while (i--) {
		p = strchr(p, ',');
		if (!p)
			return false;
		p++;
	}
	snprintf(buf, len, "%.*s", (int)strcspn(p, ","), p);
	return true;
}

unsigned int kb_tune_count(const char *list)
{
	unsigned int n = 1;

	for (; *list; list++)
		n += *list == ',';
	return n;
}

/* A sysfs value as it reads, the scheduler's as the one in brackets. */
static bool read_value(const char *path, char *buf, size_t len)
{
	char *t = kb_read_file(path), *b;

	if (!t)
		return false;
	t[strcspn(t, "\n")] = '\0';
	b = strchr(t, '[');
	if (b && strchr(b, ']'))
		snprintf(buf, len, "%.*s", (int)(strchr(b, ']') - b - 1), b + 1);
	else
		snprintf(buf, len, "%s", t);
	free(t);
	return true;
}

static int write_value(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Appends path's old value to this process's record, synced. */
static int record(const char *path, const char *old)
{
	char file[PATH_MAX], line[PATH_MAX + 300];
	int fd, ret = 0;

	mkdir(run_dir(), 0700);
	record_path(file, sizeof(file), (long)getpid());
	fd = open(file, O_WRONLY | O_CREAT | O_APPEND, 0600);
	if (fd < 0) {
		msg("%s: %s: cannot record the old value of %s", file, strerror(errno), path);
		return -1;
	}
	snprintf(line, sizeof(line), "%s\t%s\n", path, old);
	if (write(fd, line, strlen(line)) < 0 || fsync(fd))
		ret = -1;
	close(fd);
	return ret;
}

static void restore_at_exit(void)
{
	kb_tune_restore();
}

/*
 * path's old value kept (the first time only) and recorded, to be put
 * back.  1: kept now; 0: known already; -1: cannot (said).
 */
static int keep(const char *path)
{
	struct change c;
	unsigned int i;
	void *a;

	for (i = 0; i < nr_changes; i++)
		if (!strcmp(changes[i].path, path))
			return 0;
	a = realloc(changes, (nr_changes + 1) * sizeof(*changes));
	snprintf(c.path, sizeof(c.path), "%s", path);
	if (!a || !read_value(path, c.old, sizeof(c.old)) || record(path, c.old)) {
		msg("%s: cannot read and record it (%s)", path, strerror(errno));
		if (a)
			changes = a;
		return -1;
	}
	changes = a;
	changes[nr_changes++] = c;
	if (!at_exit)
		at_exit = !atexit(restore_at_exit);
	return 1;
}

/* Writes val to path, its old value kept first (keep()). */
static int change(const char *path, const char *val, const char *what)
{
	int kept = keep(path), err;
	bool known = kept == 0;

	if (kept < 0)
		return -1;
	err = write_value(path, val);
	if (err) {
		msg("%s=%s: %s refuses it: %s%s", what, val, path, strerror(-err),
		    (err == -EIO || err == -EPERM) && strstr(path, "/irq/") ?
		    " (a managed interrupt: the kernel sets its affinity)" : "");
		if (!known)
			nr_changes--;	/* unchanged: nothing to put back */
		return -1;
	}
	return 0;
}

/* The queue directory of block device dev (a partition: its disk's). */
static int queue_dir(const char *dev, char *buf, size_t len)
{
	char part[PATH_MAX];
	struct stat sb;

	if (stat(dev, &sb) || !S_ISBLK(sb.st_mode)) {
		msg("%s: not a block device: it has no queue settings", dev);
		return -1;
	}
	snprintf(part, sizeof(part), "%s/dev/block/%u:%u/partition", kb_sysfs_root(),
		 major(sb.st_rdev), minor(sb.st_rdev));
	snprintf(buf, len, "%s/dev/block/%u:%u/%squeue", kb_sysfs_root(), major(sb.st_rdev),
		 minor(sb.st_rdev), access(part, F_OK) ? "" : "../");
	return 0;
}

/*
 * The sysfs path of block setting t of dev: its queue directory's
 * attribute, or its disk's integrity/ one (beside queue/).
 */
static int attr_path(const char *dev, enum kb_tune t, char *buf, size_t len)
{
	char dir[PATH_MAX];

	if (queue_dir(dev, dir, sizeof(dir)))
		return -1;
	if (in_integrity(t))
		dir[strlen(dir) - strlen("queue")] = '\0';
	snprintf(buf, len, "%s%s%s", dir, in_integrity(t) ? "" : "/", queue_attr[t]);
	return 0;
}

/*
 * Whether dev's disk has an integrity profile: every disk has integrity/
 * in sysfs, whose format is "none" without one (and whose write_generate
 * and read_verify then take a value that changes nothing).
 */
static bool has_integrity(const char *dev)
{
	char path[PATH_MAX + 32], val[64];

	if (attr_path(dev, KB_TUNE_WRITE_GENERATE, path, sizeof(path)))
		return false;
	strcpy(strrchr(path, '/') + 1, "format");
	return read_value(path, val, sizeof(val)) && strcmp(val, "none");
}

/*
 * Whether dev's disk is bio-based (dm, md, an NVMe multipath head): it has
 * no mq/ directory.  Its write_generate and read_verify change nothing:
 * the block layer attaches PI where its bios reach a blk-mq device below.
 */
static bool bio_based(const char *dev)
{
	char path[PATH_MAX + 32];

	if (attr_path(dev, KB_TUNE_WRITE_GENERATE, path, sizeof(path)))
		return false;
	strcpy(strstr(path, "/integrity/write_generate"), "/mq");
	return access(path, F_OK) != 0;
}

static int set_irqs(const char *dev, const char *val)
{
	unsigned int *irqs = NULL, n = 0, i;
	char path[PATH_MAX];
	int ret = 0;

	kb_dev_irqs(kb_sysfs_root(), dev, &irqs, &n);
	if (!n) {
		msg("irq_cpus=%s: %s has no interrupt in sysfs to move", val, dev);
		return -1;
	}
	for (i = 0; i < n && !ret; i++) {
		snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", irqs[i]);
		ret = change(path, val, "irq_cpus");
	}
	free(irqs);
	return ret;
}

int kb_tune_set(enum kb_tune t, char *const *devs, unsigned int n, const char *val)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (t == KB_TUNE_IRQ_CPUS) {
			if (set_irqs(devs[i], val))
				return -1;
			continue;
		}
		if (queue_dir(devs[i], dir, sizeof(dir)))
			return -1;
		/* a scheduler switch resets nr_requests: keep its value first */
		snprintf(path, sizeof(path), "%s/%s", dir, queue_attr[KB_TUNE_NR_REQUESTS]);
		if (t == KB_TUNE_SCHEDULER && keep(path) < 0)
			return -1;
		if (attr_path(devs[i], t, path, sizeof(path)))
			return -1;
		if (in_integrity(t) && !has_integrity(devs[i])) {
			msg("%s=%s: %s has no integrity profile (integrity/format none)",
			    kb_tune_names[t], val, devs[i]);
			return -1;
		}
		if (in_integrity(t) && bio_based(devs[i])) {
			msg("%s=%s: %s is bio-based: its %s changes nothing, the block layer "
			    "follows the devices below it (tune those)", kb_tune_names[t], val,
			    devs[i], kb_tune_names[t]);
			return -1;
		}
		if (change(path, val, kb_tune_names[t]))
			return -1;
	}
	return 0;
}

/*
 * Whether putting path back resets other settings, so that it goes back
 * first: switching a queue's scheduler sets its nr_requests to the new
 * scheduler's default (and under "none" a larger old nr_requests than the
 * tags is refused); kb_tune_set() keeps nr_requests before the switch.
 */
static bool goes_first(const char *path)
{
	size_t n = strlen(path);

	return n >= 10 && !strcmp(path + n - 10, "/scheduler");
}

void kb_tune_restore(void)
{
	char file[PATH_MAX];
	unsigned int i, pass;
	int err;

	for (pass = 0; pass < 2; pass++)
		for (i = nr_changes; i--;) {
			struct change *c = &changes[i];

			if (goes_first(c->path) != !pass)
				continue;
			err = write_value(c->path, c->old);
			if (err)
				msg("warning: cannot put back %s=%s: %s", c->path, c->old,
				    strerror(-err));
		}
	nr_changes = 0;
	free(changes);
	changes = NULL;
	record_path(file, sizeof(file), (long)getpid());
	unlink(file);
}

/* Puts back the values of one record, last changed first. */
static void recover_file(const char *file, long pid)
{
	char *text = kb_read_file(file), *line, *save = NULL, *lines[256];
	unsigned int n = 0, i;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line && n < 256;
	     line = strtok_r(NULL, "\n", &save))
		lines[n++] = line;
	/* kb_tune_restore()'s order: the schedulers, then the rest, last first */
	for (i = 0; i < 2 * n; i++) {
		char *l = lines[n - 1 - i % n], *tab = strchr(l, '\t');
		int err;

		if (!tab)
			continue;	/* not a record, or put back already */
		*tab = '\0';
		if (goes_first(l) != (i < n)) {
			*tab = '\t';
			continue;
		}
		err = write_value(l, tab + 1);
		if (err)
			msg("warning: cannot put back %s=%s (left by kiobench pid %ld): %s",
			    l, tab + 1, pid, strerror(-err));
		else
			msg("put back %s=%s, left changed by kiobench pid %ld, which did not end",
			    l, tab + 1, pid);
		*tab = '\n';	/* done: no tab left */
	}
	free(text);
	unlink(file);
}

void kb_tune_recover(void)
{
	DIR *d = opendir(run_dir());
	char file[PATH_MAX];
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		long pid;

		if (sscanf(e->d_name, "tuning.%ld", &pid) != 1 || pid == (long)getpid() ||
		    !kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		snprintf(file, sizeof(file), "%s/%s", run_dir(), e->d_name);
		recover_file(file, pid);
	}
	closedir(d);
}

/* The settings of one device, read back: (name, value) into o. */
static void dev_settings(const char *dev, struct json_object *o)
{
	char dir[PATH_MAX], path[PATH_MAX + 32], val[256];
	unsigned int *irqs = NULL, n = 0, i;
	int t;

	if (queue_dir(dev, dir, sizeof(dir)))
		return;
	for (t = 0; t < KB_NR_TUNE; t++) {
		/* integrity/: a disk with an integrity profile only */
		if (t == KB_TUNE_IRQ_CPUS || (in_integrity(t) && !has_integrity(dev)) ||
		    attr_path(dev, t, path, sizeof(path)))
			continue;
		if (read_value(path, val, sizeof(val)))
			json_object_object_add(o, kb_tune_names[t], json_object_new_string(val));
	}
	kb_dev_irqs(kb_sysfs_root(), dev, &irqs, &n);
	for (i = 0; i < n; i++) {
		char key[32];

		snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", irqs[i]);
		snprintf(key, sizeof(key), "irq %u cpus", irqs[i]);
		if (read_value(path, val, sizeof(val)))
			json_object_object_add(o, key, json_object_new_string(val));
	}
	free(irqs);
}

struct json_object *kb_tune_json(char *const *devs, unsigned int n)
{
	struct json_object *o = json_object_new_object();
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct json_object *d = json_object_new_object();

		dev_settings(devs[i], d);
		json_object_object_add(o, devs[i], d);
	}
	return o;
}

void kb_tune_print(FILE *f, char *const *devs, unsigned int n)
{
	struct json_object *o = kb_tune_json(devs, n);

	json_object_object_foreach(o, dev, d) {
		fprintf(f, "  settings of %s:", dev);
		json_object_object_foreach(d, k, v)
			fprintf(f, " %s=%s", k, json_object_get_string(v));
		fprintf(f, "\n");
	}
	json_object_put(o);
}
