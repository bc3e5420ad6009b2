// SPDX-License-Identifier: GPL-2.0
/*
 * NVMe Flexible Data Placement's counters around a run (fdp.h).
 *
 * The FDP statistics log (NVMe 2.1, TP4146: Get Log Page, LID 22h, scoped
 * by the endurance group in the Log Specific Identifier) holds 16-byte
 * little-endian counters: host bytes with metadata written (bytes 0-15),
 * media bytes with metadata written (16-31), media bytes erased (32-47).
 * Their deltas over the run give its write amplification, media / host.
 * The log is read with NVME_IOCTL_ADMIN_CMD on the controller's character
 * device (/dev/nvmeN), the endurance group from Identify Namespace (ENDGID,
 * bytes 102-103).  The reclaim unit handle status (I/O Management Receive,
 * MO 1) is the namespace's: a 16-byte header whose bytes 14-15 count the
 * 32-byte descriptors (placement id, handle id, estimated time, available
 * media writes); a handle written through has fewer media writes left, or
 * a new reclaim unit.  Root only: the kernel lets CAP_SYS_ADMIN send any
 * command.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fdp.h"
#include "values.h"

#define NVME_ADMIN_GET_LOG_PAGE	0x02
#define NVME_ADMIN_IDENTIFY	0x06
#define NVME_IO_MGMT_RECV	0x12
#define NVME_IO_MGMT_RECV_RUHS	1
#define FDP_STATS_LEN		64
#define RUHS_HDR_LEN		16
#define RUHS_DESC_LEN		32
/*
 * One page, page-aligned: the controller writes only what the status
 * holds, which QEMU 10 maps from the first PRP on if it fits there, and
 * fails (Data SGL Length Invalid) where the kernel gave a PRP list for a
 * buffer across three pages.
 */
#define RUHS_LEN		4096

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

uint64_t kb_fdp_u128(const uint8_t *p)
{
	return le64(p + 8) ? UINT64_MAX : le64(p);
}

/* The basename of @dir's symlink @name resolved, into @out; false: none. */
static bool link_base(const char *dir, const char *name, char *out, size_t len)
{
	char path[PATH_MAX + 16], real[PATH_MAX], *base;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!realpath(path, real) || !(base = strrchr(real, '/')))
		return false;
	snprintf(out, len, "%s", base + 1);
	return true;
}

/*
 * The controller of disk directory @dir: its device's, a namespace of a
 * controller of its own; under native multipath (the disk is the
 * subsystem's head) the first path's (multipath/nvmeScCnN).
 */
static bool find_ctrl(const char *sysfs, const char *dir, char *out, size_t len)
{
	char path[PATH_MAX + 16];
	unsigned int n;
	struct dirent *e;
	DIR *d;
	char c;

	if (link_base(dir, "device", out, len) && sscanf(out, "nvme%u%c", &n, &c) == 1)
		return true;
	snprintf(path, sizeof(path), "%s/multipath", dir);
	d = opendir(path);
	if (!d)
		return false;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/block/%s", sysfs, e->d_name);
		if (link_base(path, "device", out, len) &&
		    sscanf(out, "nvme%u%c", &n, &c) == 1) {
			closedir(d);
			return true;
		}
	}
	closedir(d);
	return false;
}

/* An admin command to @ctrl with @len bytes of data in @buf; 0 or why. */
static int admin(const char *ctrl, struct nvme_admin_cmd *cmd, void *buf, uint32_t len,
		 char *err, size_t errlen)
{
	int fd = open(ctrl, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", ctrl, strerror(errno));
		return -1;
	}
	cmd->addr = (uintptr_t)buf;
	cmd->data_len = len;
	ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, cmd);
	if (ret)
		snprintf(err, errlen, "%s: admin command 0x%02x: %s", ctrl, cmd->opcode,
			 ret < 0 ? strerror(errno) : "NVMe status");
	if (ret > 0)
		snprintf(err + strlen(err), errlen - strlen(err), " 0x%x", ret);
	close(fd);
	return ret ? -1 : 0;
}

int kb_fdp_find(const char *sysfs, const char *path, struct kb_fdp *f, char *err,
		size_t errlen)
{
	char link[PATH_MAX + 16], dir[PATH_MAX], ctrl[48], *text;
	struct nvme_admin_cmd cmd;
	uint8_t id[4096];
	struct stat sb;

	memset(f, 0, sizeof(*f));
	if (stat(path, &sb) || !S_ISBLK(sb.st_mode)) {
		snprintf(err, errlen, "%s: not a block device", path);
		return -1;
	}
	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sysfs, major(sb.st_rdev),
		 minor(sb.st_rdev));
	if (!realpath(link, dir) || !link_base(link, ".", f->dev, sizeof(f->dev))) {
		snprintf(err, errlen, "%s: no disk in %s", path, link);
		return -1;
	}
	snprintf(link, sizeof(link), "%s/nsid", dir);
	text = kb_read_file(link);
	if (!text || sscanf(text, "%u", &f->nsid) != 1 || !f->nsid) {
		free(text);
		snprintf(err, errlen, "%s: not an NVMe namespace", path);
		return -1;
	}
	free(text);
	if (!find_ctrl(sysfs, dir, ctrl, sizeof(ctrl))) {
		snprintf(err, errlen, "%s: no NVMe controller found in %s", path, dir);
		return -1;
	}
	snprintf(f->ctrl, sizeof(f->ctrl), "/dev/%s", ctrl);
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = NVME_ADMIN_IDENTIFY;
	cmd.nsid = f->nsid;
	cmd.cdw10 = 0;		/* CNS 0: the namespace */
	if (admin(f->ctrl, &cmd, id, sizeof(id), err, errlen))
		return -1;
	f->endgid = le16(id + 102);
	if (!f->endgid) {
		snprintf(err, errlen, "%s: namespace %u is in no endurance group (ENDGID 0)",
			 path, f->nsid);
		return -1;
	}
	return 0;
}

/* The handles of status @buf into @f's (@k: 0 before, 1 after). */
static bool parse_ruhs(struct kb_fdp *f, int k, const uint8_t *buf)
{
	unsigned int n = le16(buf + 14), i;

	if (n > KB_FDP_MAX_RUHS)
		n = KB_FDP_MAX_RUHS;
	if (k && n != f->nr_ruh) {
		snprintf(f->ruh_err, sizeof(f->ruh_err), "the handles changed over the run");
		return false;
	}
	for (i = 0; i < n; i++) {
		const uint8_t *d = buf + RUHS_HDR_LEN + i * RUHS_DESC_LEN;

		if (k && (f->ruh[i].pid != le16(d) || f->ruh[i].ruhid != le16(d + 2))) {
			snprintf(f->ruh_err, sizeof(f->ruh_err), "the handles changed over the run");
			return false;
		}
		f->ruh[i].pid = le16(d);
		f->ruh[i].ruhid = le16(d + 2);
		f->ruh[i].ruamw[k] = le64(d + 8);
	}
	f->nr_ruh = n;
	return true;
}

/* The namespace's reclaim unit handle status into @f's handles (@k: 0, 1). */
static bool read_ruhs(struct kb_fdp *f, int k)
{
	struct nvme_passthru_cmd cmd;
	uint8_t *buf = NULL;
	char path[80];
	int fd, ret;
	bool ok;

	snprintf(path, sizeof(path), "/dev/%s", f->dev);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || posix_memalign((void **)&buf, RUHS_LEN, RUHS_LEN)) {
		snprintf(f->ruh_err, sizeof(f->ruh_err), "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	memset(&cmd, 0, sizeof(cmd));
	memset(buf, 0, RUHS_LEN);
	cmd.opcode = NVME_IO_MGMT_RECV;
	cmd.nsid = f->nsid;
	cmd.cdw10 = NVME_IO_MGMT_RECV_RUHS;
	cmd.cdw11 = RUHS_LEN / 4 - 1;	/* NUMD, 0's based */
	cmd.addr = (uintptr_t)buf;
	cmd.data_len = RUHS_LEN;
	ret = ioctl(fd, NVME_IOCTL_IO_CMD, &cmd);
	close(fd);
	ok = !ret && parse_ruhs(f, k, buf);
	if (ret)
		snprintf(f->ruh_err, sizeof(f->ruh_err), "I/O Management Receive: %s%.0x",
			 ret < 0 ? strerror(errno) : "NVMe status 0x", ret < 0 ? 0 : ret);
	free(buf);
	return ok;
}

bool kb_fdp_read(struct kb_fdp *f, bool after, char *err, size_t errlen)
{
	struct nvme_admin_cmd cmd;
	uint8_t log[FDP_STATS_LEN];
	int k = after;

	memset(&cmd, 0, sizeof(cmd));
	memset(log, 0, sizeof(log));
	cmd.opcode = NVME_ADMIN_GET_LOG_PAGE;
	cmd.nsid = 0;		/* endurance-group scoped: the group is the LSI */
	cmd.cdw10 = KB_FDP_LOG_STATS | (uint32_t)(sizeof(log) / 4 - 1) << 16;
	cmd.cdw11 = (uint32_t)f->endgid << 16;
	f->ok[k] = !admin(f->ctrl, &cmd, log, sizeof(log), err, errlen);
	if (f->ok[k]) {
		f->hbmw[k] = kb_fdp_u128(log);
		f->mbmw[k] = kb_fdp_u128(log + 16);
	}
	f->ruh_ok[k] = (!after || f->ruh_ok[0]) && read_ruhs(f, k);
	return f->ok[k];
}

bool kb_fdp_delta(const struct kb_fdp *f, uint64_t *host, uint64_t *media)
{
	if (!f->ok[0] || !f->ok[1])
		return false;
	*host = f->hbmw[1] - f->hbmw[0];
	*media = f->mbmw[1] - f->mbmw[0];
	return true;
}

bool kb_fdp_ruh_used(const struct kb_fdp *f, unsigned int i)
{
	return f->ruh_ok[0] && f->ruh_ok[1] && i < f->nr_ruh &&
	       f->ruh[i].ruamw[0] != f->ruh[i].ruamw[1];
}

struct json_object *kb_json_fdp(const struct kb_fdp *f, size_t n)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_new_object(), *r;
		uint64_t host, media;
		bool ok = kb_fdp_delta(&f[i], &host, &media);
		unsigned int h;

		kb_jadd(o, "device", kb_jstr(f[i].dev));
		kb_jadd(o, "controller", kb_jstr(f[i].ctrl));
		kb_jadd(o, "nsid", kb_ju64(f[i].nsid));
		kb_jadd(o, "endurance_group", kb_ju64(f[i].endgid));
		kb_jadd(o, "host_bytes_written", ok ? kb_ju64(host) : NULL);
		kb_jadd(o, "media_bytes_written", ok ? kb_ju64(media) : NULL);
		kb_jadd(o, "write_amplification", ok && host ?
			json_object_new_double((double)media / (double)host) : NULL);
		r = json_object_new_array();
		for (h = 0; f[i].ruh_ok[0] && f[i].ruh_ok[1] && h < f[i].nr_ruh; h++) {
			struct json_object *e = json_object_new_object();

			kb_jadd(e, "placement_id", kb_ju64(f[i].ruh[h].pid));
			kb_jadd(e, "ruhid", kb_ju64(f[i].ruh[h].ruhid));
			kb_jadd(e, "ruamw_before", kb_ju64(f[i].ruh[h].ruamw[0]));
			kb_jadd(e, "ruamw_after", kb_ju64(f[i].ruh[h].ruamw[1]));
			kb_jadd(e, "used", json_object_new_boolean(kb_fdp_ruh_used(&f[i], h)));
			json_object_array_add(r, e);
		}
		kb_jadd(o, "reclaim_unit_handles", f[i].ruh_ok[0] && f[i].ruh_ok[1] ? r : NULL);
		if (!(f[i].ruh_ok[0] && f[i].ruh_ok[1]))
			json_object_put(r);
		json_object_array_add(a, o);
	}
	return a;
}

void kb_print_fdp(FILE *out, const struct kb_fdp *f, size_t n)
{
	size_t i;

	if (!n)
		return;
	fprintf(out, "\nFDP statistics (over the run, the endurance group's: every writer's):\n");
	for (i = 0; i < n; i++) {
		uint64_t host, media;
		unsigned int h, used = 0;

		fprintf(out, "  %s: endurance group %u (%s)", f[i].dev, f[i].endgid, f[i].ctrl);
		if (!kb_fdp_delta(&f[i], &host, &media)) {
			fprintf(out, ": statistics log unread\n");
			continue;
		}
		fprintf(out, ": host bytes written=%" PRIu64 ", media bytes written=%" PRIu64,
			host, media);
		if (host)
			fprintf(out, ", write amplification=%.3f", (double)media / (double)host);
		if (f[i].ruh_ok[0] && f[i].ruh_ok[1]) {
			fprintf(out, "; reclaim unit handles used (placement id/handle):");
			for (h = 0; h < f[i].nr_ruh; h++)
				if (kb_fdp_ruh_used(&f[i], h))
					fprintf(out, "%s%u/%u", used++ ? ", " : " ", f[i].ruh[h].pid,
						f[i].ruh[h].ruhid);
			fprintf(out, "%s of %u", used ? "" : " none", f[i].nr_ruh);
		} else {
			fprintf(out, "; reclaim unit handles unread (%s)", f[i].ruh_err);
		}
		fputc('\n', out);
	}
}
