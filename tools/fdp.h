/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NVMe Flexible Data Placement's counters around a run (fdp.c): the FDP
 * statistics log (Get Log Page, LID 22h, endurance-group scoped: host and
 * media bytes with metadata written) of each NVMe device of the jobs that
 * place their writes (write_streams), read through the kernel's NVMe
 * admin path on the controller's character device before the jobs start
 * and after they end, and the reclaim unit handle status (I/O Management
 * Receive) of the namespace, whose handles' available media writes tell
 * which handles the run wrote through.
 */
#ifndef KB_FDP_H
#define KB_FDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json.h"

#define KB_FDP_LOG_STATS	0x22	/* Get Log Page: FDP Statistics */
/* reclaim unit handle status entries kept: a page's (16 + 127 * 32 bytes) */
#define KB_FDP_MAX_RUHS		127

struct kb_fdp_ruh {
	uint16_t pid;		/* placement identifier */
	uint16_t ruhid;		/* reclaim unit handle */
	uint64_t ruamw[2];	/* available media writes before, after (blocks) */
};

struct kb_fdp {
	char dev[64];		/* the namespace's disk: "nvme0n1" */
	char ctrl[64];		/* its controller's character device: "/dev/nvme0" */
	uint32_t nsid;
	uint16_t endgid;	/* endurance group (Identify Namespace ENDGID) */
	bool ok[2];		/* the statistics log read before, after */
	uint64_t hbmw[2];	/* host bytes with metadata written, before, after */
	uint64_t mbmw[2];	/* media bytes with metadata written */
	bool ruh_ok[2];		/* the handles' status read before, after */
	unsigned int nr_ruh;
	struct kb_fdp_ruh ruh[KB_FDP_MAX_RUHS];
	char ruh_err[96];	/* why the handles' status is unread */
};

/*
 * The NVMe namespace of block device @path (its disk under @sysfs, its
 * controller, nsid and endurance group) into @f: 0, or -1 with why in
 * @err (not NVMe, no controller, Identify failed).
 */
int kb_fdp_find(const char *sysfs, const char *path, struct kb_fdp *f, char *err,
		size_t errlen);
/* Read @f's statistics log and handles' status: before (first) or after. */
bool kb_fdp_read(struct kb_fdp *f, bool after, char *err, size_t errlen);
/* After minus before of host and media bytes; false unless both were read. */
bool kb_fdp_delta(const struct kb_fdp *f, uint64_t *host, uint64_t *media);
/* Whether handle i was written through over the run (its ruamw moved). */
bool kb_fdp_ruh_used(const struct kb_fdp *f, unsigned int i);
/* The 16-byte little-endian counter at @p, saturated to 64 bits. */
uint64_t kb_fdp_u128(const uint8_t *p);

struct json_object *kb_json_fdp(const struct kb_fdp *f, size_t n);
void kb_print_fdp(FILE *out, const struct kb_fdp *f, size_t n);

#endif /* KB_FDP_H */
