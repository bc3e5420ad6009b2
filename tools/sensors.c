// SPDX-License-Identifier: GPL-2.0
/*
 * hwmon sensors of a job's block devices: where they are in sysfs, reading
 * them while the job runs, and what they add up to.
 *
 * A hwmon device hangs on the device it monitors: NVMe registers it on the
 * controller (drivers/nvme/host/hwmon.c: /sys/class/nvme/nvme0/hwmonN, which
 * /sys/block/nvme0n1/device leads to), drivetemp on the SCSI device, PCI
 * drivers on the PCI function (in a "hwmon" directory).  The nearest one
 * from the disk's device up to /sys/devices is the device's.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kiobench.h"
#include "result.h"
#include "sensors.h"
#include "values.h"

static const char *const kind_prefix[KB_HW_NR] = { "temp", "power" };
/* the attributes tried for a sensor, in order */
static const char *const kind_attr[KB_HW_NR][2] = {
	{ "input", NULL },
	{ "input", "average" },
};

/* The lowest hwmonN in dir or in dir/hwmon (under a non-class parent). */
static bool hwmon_in(const char *dir, char *out, size_t len)
{
	static const char *const sub[] = { "", "/hwmon" };
	unsigned int best = UINT_MAX, k, n;
	const char *where = NULL;
	char path[PATH_MAX];

	for (k = 0; k < 2; k++) {
		struct dirent *e;
		DIR *d;

		snprintf(path, sizeof(path), "%s%s", dir, sub[k]);
		d = opendir(path);
		if (!d)
			continue;
		while ((e = readdir(d))) {
			char end;

			if (sscanf(e->d_name, "hwmon%u%c", &n, &end) == 1 && n < best) {
				best = n;
				where = sub[k];
			}
		}
		closedir(d);
	}
	if (!where)
		return false;
	snprintf(out, len, "%s%s/hwmon%u", dir, where, best);
	return true;
}

/* From the device link resolves to, up to (not including) stop. */
static bool find_up(const char *link, const char *stop, char *out, size_t len)
{
	char *p = realpath(link, NULL), *slash;
	size_t n = strlen(stop);
	bool found = false;

	while (p && !found && strlen(p) > n && !strncmp(p, stop, n) && p[n] == '/') {
		found = hwmon_in(p, out, len);
		slash = strrchr(p, '/');
		*slash = 0;
	}
	free(p);
	return found;
}

int kb_hwmon_find(const char *sysfs, unsigned int major, unsigned int minor,
		  char *dir, size_t len)
{
	char path[PATH_MAX], *disk, *stop;
	struct dirent *e;
	bool found;
	DIR *d;

	snprintf(path, sizeof(path), "%s/dev/block/%u:%u", sysfs, major, minor);
	disk = realpath(path, NULL);
	snprintf(path, sizeof(path), "%s/devices", sysfs);
	stop = realpath(path, NULL);
	if (!disk || !stop) {
		free(disk);
		free(stop);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/partition", disk);
	if (!access(path, F_OK))
		*strrchr(disk, '/') = 0;
	snprintf(path, sizeof(path), "%s/device", disk);
	found = find_up(path, stop, dir, len);
	/* an NVMe multipath disk hangs on the subsystem: try its paths */
	snprintf(path, sizeof(path), "%s/multipath", disk);
	d = found ? NULL : opendir(path);
	while (d && !found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/multipath/%s/device", disk, e->d_name);
		found = find_up(path, stop, dir, len);
	}
	if (d)
		closedir(d);
	free(disk);
	free(stop);
	return found ? 0 : 1;
}

/* The first line of dir/file, without trailing blanks, into buf ("" if none). */
static void read_line(const char *dir, const char *file, char *buf, size_t len)
{
	char path[PATH_MAX], *text;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	text = kb_read_file(path);
	n = text ? strcspn(text, "\n") : 0;
	while (n && (text[n - 1] == ' ' || text[n - 1] == '\t'))
		n--;
	snprintf(buf, len, "%.*s", (int)n, text ? text : "");
	free(text);
}

int kb_devid_read(const char *sysfs, unsigned int major, unsigned int minor,
		  struct kb_devid *id)
{
	char path[PATH_MAX], dev[PATH_MAX - 64], vendor[24], model[64], *disk;
	struct dirent *e;
	DIR *d;

	memset(id, 0, sizeof(*id));
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u", sysfs, major, minor);
	disk = realpath(path, NULL);
	if (!disk)
		return -1;
	snprintf(path, sizeof(path), "%s/partition", disk);
	if (!access(path, F_OK))
		*strrchr(disk, '/') = 0;
	snprintf(dev, sizeof(dev), "%.*s/device", (int)sizeof(dev) - 8, disk);
	read_line(dev, "model", model, sizeof(model));
	read_line(dev, "vendor", vendor, sizeof(vendor));
	snprintf(id->model, sizeof(id->model), "%s%s%s", vendor, *vendor ? " " : "", model);
	read_line(dev, "serial", id->serial, sizeof(id->serial));
	if (!*id->serial)
		read_line(disk, "serial", id->serial, sizeof(id->serial));
	read_line(dev, "firmware_rev", id->firmware, sizeof(id->firmware));
	if (!*id->firmware)
		read_line(dev, "rev", id->firmware, sizeof(id->firmware));
	read_line(dev, "transport", id->transport, sizeof(id->transport));
	snprintf(path, sizeof(path), "%s/multipath", disk);
	d = *id->transport ? NULL : opendir(path);
	while (d && (e = readdir(d)) && !*id->transport) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/multipath/%s/device", disk, e->d_name);
		read_line(path, "transport", id->transport, sizeof(id->transport));
	}
	if (d)
		closedir(d);
	snprintf(path, sizeof(path), "%s/scsi_disk", dev);
	if (!*id->transport && !access(path, F_OK))
		snprintf(id->transport, sizeof(id->transport), "scsi");
	free(disk);
	return 0;
}

int kb_hwmon_open(struct kb_hwmon *h, const char *dir, const char *device)
{
	char path[PATH_MAX], *slash;
	unsigned int k, i, idx;

	memset(h, 0, sizeof(*h));
	memset(h->fd, -1, sizeof(h->fd));
	h->device = device;
	snprintf(h->path, sizeof(h->path), "%s", dir);
	read_line(dir, "name", h->name, sizeof(h->name));
	/* the owner: the parent, or its parent past a "hwmon" directory */
	snprintf(path, sizeof(path), "%s", dir);
	*strrchr(path, '/') = 0;
	slash = strrchr(path, '/');
	if (slash && !strcmp(slash, "/hwmon")) {
		*slash = 0;
		slash = strrchr(path, '/');
	}
	snprintf(h->owner, sizeof(h->owner), "%.*s", (int)sizeof(h->owner) - 1,
		 slash ? slash + 1 : path);
	for (k = 0; k < KB_HW_NR; k++) {
		/* sensors are numbered from 1, not necessarily without gaps */
		for (idx = 1; idx <= 32 && h->nr[k] < KB_HWMON_MAX; idx++) {
			int fd = -1;

			for (i = 0; fd < 0 && i < 2 && kind_attr[k][i]; i++) {
				snprintf(path, sizeof(path), "%s/%s%u_%s", dir, kind_prefix[k], idx,
					 kind_attr[k][i]);
				fd = open(path, O_RDONLY | O_CLOEXEC);
				if (fd < 0 && errno != ENOENT) {
					kb_hwmon_close(h);
					return -1;
				}
			}
			if (fd < 0)
				continue;
			h->fd[k][h->nr[k]] = fd;
			snprintf(path, sizeof(path), "%s%u_label", kind_prefix[k], idx);
			read_line(dir, path, h->label[k][h->nr[k]], sizeof(h->label[k][0]));
			if (!h->label[k][h->nr[k]][0])
				snprintf(h->label[k][h->nr[k]], sizeof(h->label[k][0]), "%s%u",
					 kind_prefix[k], idx);
			h->nr[k]++;
		}
	}
	if (!h->nr[KB_HW_TEMP] && !h->nr[KB_HW_POWER])
		return 1;
	return 0;
}

static int64_t read_value(int fd)
{
	char buf[32], *end;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	long long v;

	if (n <= 0)
		return KB_HWMON_NONE;
	buf[n] = 0;
	errno = 0;
	v = strtoll(buf, &end, 10);
	return end == buf || errno ? KB_HWMON_NONE : v;
}

bool kb_hwmon_sample(struct kb_hwmon *h, uint64_t t_ns)
{
	struct kb_hw_sample *s;
	unsigned int k, i;

	if (h->nr_s >= KB_HWMON_MAX_SAMPLES) {
		h->dropped++;
		return false;
	}
	if (h->nr_s == h->cap_s) {
		size_t cap = h->cap_s ? 2 * h->cap_s : 64;

		s = reallocarray(h->s, cap, sizeof(*s));
		if (!s)
			return false;
		h->s = s;
		h->cap_s = cap;
	}
	s = &h->s[h->nr_s++];
	s->t_ns = t_ns;
	for (k = 0; k < KB_HW_NR; k++)
		for (i = 0; i < KB_HWMON_MAX; i++)
			s->v[k][i] = i < h->nr[k] ? read_value(h->fd[k][i]) : KB_HWMON_NONE;
	return true;
}

void kb_hwmon_close(struct kb_hwmon *h)
{
	unsigned int k, i;

	for (k = 0; k < KB_HW_NR; k++)
		for (i = 0; i < KB_HWMON_MAX; i++) {
			if (h->fd[k][i] >= 0)
				close(h->fd[k][i]);
			h->fd[k][i] = -1;
		}
}

void kb_hwmon_free(struct kb_hwmon *h, unsigned int n)
{
	unsigned int i;

	for (i = 0; h && i < n; i++) {
		kb_hwmon_close(&h[i]);
		free(h[i].s);
	}
	free(h);
}

static uint64_t dist(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

const struct kb_hw_sample *kb_hwmon_nearest(const struct kb_hwmon *h, uint64_t t_ns,
					    uint64_t tol, size_t *hint)
{
	size_t i = *hint;

	if (i >= h->nr_s)
		return NULL;
	/* the last sample at or before t_ns (or the first one) */
	while (i + 1 < h->nr_s && h->s[i + 1].t_ns <= t_ns)
		i++;
	*hint = i;
	if (i + 1 < h->nr_s && dist(h->s[i + 1].t_ns, t_ns) < dist(h->s[i].t_ns, t_ns))
		i++;
	return dist(h->s[i].t_ns, t_ns) <= tol ? &h->s[i] : NULL;
}

/* Mean total power of h over the samples from from_ns on (all if none); < 0: none. */
static double mean_power(const struct kb_hwmon *h, uint64_t from_ns)
{
	bool any_late = h->nr_s && h->s[h->nr_s - 1].t_ns >= from_ns;
	double sum = 0;
	size_t i, n = 0;
	unsigned int k;

	for (i = 0; h->nr[KB_HW_POWER] && i < h->nr_s; i++) {
		const int64_t *v = h->s[i].v[KB_HW_POWER];
		double total = 0;

		if (any_late && h->s[i].t_ns < from_ns)
			continue;
		for (k = 0; k < h->nr[KB_HW_POWER] && v[k] != KB_HWMON_NONE; k++)
			total += v[k];
		if (k < h->nr[KB_HW_POWER])
			continue;	/* a sensor could not be read */
		sum += total;
		n++;
	}
	return n ? sum / n : -1;
}

void kb_hwmon_summarize(const struct kb_result *r, size_t n, struct kb_hw_sum *s)
{
	size_t a, b;
	unsigned int i, j;

	memset(s, 0, sizeof(*s));
	for (a = 0; a < n; a++) {
		for (i = 0; i < r[a].nr_hw; i++) {
			const struct kb_hwmon *h = &r[a].hw[i];
			bool seen = false;
			double p;
			size_t k;

			for (b = 0; b <= a && !seen; b++)
				for (j = 0; j < (b < a ? r[b].nr_hw : i) && !seen; j++)
					seen = !strcmp(r[b].hw[j].path, h->path);
			if (seen)
				continue;
			s->devices++;
			for (k = 0; h->nr[KB_HW_TEMP] && k < h->nr_s; k++) {
				int64_t t = h->s[k].v[KB_HW_TEMP][0];

				if (t == KB_HWMON_NONE)
					continue;
				if (!s->has_temp || t < s->temp_min_mc)
					s->temp_min_mc = t;
				if (!s->has_temp || t > s->temp_max_mc)
					s->temp_max_mc = t;
				s->has_temp = true;
			}
			p = mean_power(h, r[a].job->ramp_ns);
			if (p >= 0) {
				s->power_uw += p;
				s->has_power = true;
			}
		}
	}
}

/* ---- the disks' own counts ------------------------------------------------ */

size_t kb_disks_of(const char *sysfs, char *const *devs, size_t n, struct kb_disk **disks)
{
	struct kb_disk *v = NULL;
	size_t nr = 0, i, k;

	for (i = 0; i < n; i++) {
		char link[PATH_MAX], real[PATH_MAX], *base;
		struct kb_disk *nv;
		struct stat sb;
		bool dup = false;

		if (stat(devs[i], &sb) || !S_ISBLK(sb.st_mode))
			continue;
		for (k = 0; k < nr; k++)
			dup |= v[k].major == major(sb.st_rdev) && v[k].minor == minor(sb.st_rdev);
		if (dup)
			continue;
		nv = realloc(v, (nr + 1) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		memset(&v[nr], 0, sizeof(v[nr]));
		v[nr].major = major(sb.st_rdev);
		v[nr].minor = minor(sb.st_rdev);
		snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sysfs, v[nr].major,
			 v[nr].minor);
		base = realpath(link, real) ? strrchr(real, '/') : NULL;
		snprintf(v[nr].name, sizeof(v[nr].name), "%s", base ? base + 1 :
			 strrchr(devs[i], '/') ? strrchr(devs[i], '/') + 1 : devs[i]);
		nr++;
	}
	*disks = v;
	return nr;
}

bool kb_disk_read(const char *sysfs, struct kb_disk *d, bool after, uint64_t t_ns)
{
	uint64_t *v = after ? d->after : d->before;
	unsigned long long x[KB_DS_NR];
	char path[PATH_MAX], *text;
	int k, got;

	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/stat", sysfs, d->major, d->minor);
	text = kb_read_file(path);
	if (!text) {
		d->ok = false;
		return false;
	}
	got = sscanf(text, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		     &x[0], &x[1], &x[2], &x[3], &x[4], &x[5], &x[6], &x[7], &x[8], &x[9],
		     &x[10]);
	free(text);
	if (got != KB_DS_NR) {
		d->ok = false;
		return false;
	}
	for (k = 0; k < KB_DS_NR; k++)
		v[k] = x[k];
	if (after) {
		d->t_after_ns = t_ns;
		d->ok = d->t_before_ns != 0;
	} else {
		d->t_before_ns = t_ns;
	}
	return true;
}

uint64_t kb_disk_delta(const struct kb_disk *d, int k)
{
	return d->after[k] >= d->before[k] ? d->after[k] - d->before[k] : 0;
}
