/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's verify, in the kernel (verify.c): what a worker and a job keep, and
 * the calls of the worker's loop, job creation, netlink and debugfs.
 */
#ifndef KB_VERIFY_H
#define KB_VERIFY_H

#include <linux/types.h>

struct kb_job;
struct kb_worker;
struct kb_slot;
struct kb_config;
struct dentry;
struct genl_info;
struct sk_buff;
struct netlink_ext_ack;

/*
 * The header at verify_offset of every verified interval, little-endian.
 * hdr_crc is the CRC-32C of the bytes before it; csum the interval's
 * checksum, but the header's own bytes, zero-padded.
 */
#define KB_VHDR_MAGIC	0x4856424bU	/* "KBVH" */
struct kb_vhdr {
	__le32 magic;
	u8 type;		/* enum kiobench_verify */
	u8 csum_len;
	__le16 hdr_len;
	__le32 interval;
	__le32 gen;		/* verify_generation */
	__le64 offset;		/* of the interval, bytes on the device */
	__le64 seed;		/* the job's */
	u8 csum[32];
	__le32 pad;
	__le32 hdr_crc;
};

/* What a check found. */
enum kb_vkind {
	KB_V_OK,
	KB_V_CORRUPT,		/* header or data checksum, or pattern, wrong */
	KB_V_MISDIRECTED,	/* a valid header naming another offset */
	KB_V_STALE,		/* a valid header of another generation or seed */
	KB_V_NR_KINDS
};

/* The worker's generators as they were at its start: the write pass's. */
struct kb_vsave {
	struct kb_rng rng;
	struct kb_rmap rmap;
	u64 bmap_n, bmap_left;	/* the bitmap's use (several sizes) */
	u64 seq_next, ios_left, bytes_left;
	u64 last_end[KIOBENCH_NR_DIRS];
	struct kb_opat opat;
};

/* A write chosen for a trim (trim_percentage), waiting for trim_backlog. */
struct kb_vtrim {
	u64 off;		/* on the device */
	u32 len;
};

/* Where a worker with windows (verify_backlog, trim_backlog) is. */
enum kb_vphase {
	KB_VP_WRITE,		/* writing a window */
	KB_VP_TRIM,		/* trimming the window's chosen writes */
	KB_VP_READBACK,		/* reading the window back */
};

/*
 * verify-sorted's log of a worker's writes, fio's io_hist rb-tree without a
 * random map: units of its span (kb_xmap_shift()); @start: an extent
 * starts at the unit, @cover: an extent covers it.  Extents never overlap:
 * each runs from its start bit to the next one or the first unit not
 * covered.  Only the worker touches it.
 */
struct kb_xmap {
	unsigned long *start, *cover;
	u64 units;		/* of the span */
	u64 maxn;		/* units of the largest write */
	u64 next;		/* read-back: the unit to look on from */
	u8 shift;		/* log2 of a unit's bytes */
};

/* A worker's verification state; allocated with the job. */
struct kb_vw {
	u8 *scratch;		/* an interval: the expected copy */
	struct kb_vsave save;	/* the read-back's start */
	u64 picks;		/* writes picked since then */
	u64 n[KB_V_NR_KINDS];	/* intervals checked, by kind; read unlocked */
	u64 trimmed;		/* of them, trimmed and zeroed; ditto */
	/* windows: a pass of verify_backlog or trim_backlog writes at a time */
	u8 phase;		/* enum kb_vphase */
	struct kb_vsave after;	/* the write window's end */
	u64 ios_rest;		/* the I/O budget past the window */
	u64 rb_ios;		/* the window's read-back: its I/Os */
	u32 wleft;		/* writes left in the window */
	u64 round_bytes;	/* io_round: the worker's share; 0: none */
	u64 rounds_rest;	/* the budget past this round */
	/* trims: writes chosen, in order; the oldest trim_upto trimmed */
	u64 writes, chosen, trim_upto;
	u64 rwrites, rchosen;	/* the same counts, replayed by the read-back */
	struct kb_vtrim *ring;	/* chosen, not trimmed yet: trim_backlog */
	u32 ring_head, ring_len;
	struct kb_xmap xmap;	/* verify-sorted: the writes, by offset */
	/*
	 * The replay's failed writes, for a job that goes on from them: a bit
	 * per unit of xmap's (@shift, @units; its bitmaps unused) whose last
	 * write failed.  Only the worker touches it.
	 */
	unsigned long *failed;
	bool dry;		/* verify-only, sorted: logging a write pass not run */
};

/* worker.c's calls */
void kb_verify_begin(struct kb_worker *w);
bool kb_verify_next_pass(struct kb_worker *w);
bool kb_verify_window_next(struct kb_worker *w);
bool kb_verify_round_ends(const struct kb_worker *w);
void kb_verify_pick_trim(struct kb_worker *w, struct kb_slot *slot);
void kb_verify_pick_sorted(struct kb_worker *w, struct kb_slot *slot);
bool kb_verify_pick(struct kb_worker *w, struct kb_slot *slot);
void kb_verify_check(struct kb_worker *w, struct kb_slot *slot);
void kb_verify_write_failed(struct kb_worker *w, const struct kb_slot *slot);

/* job.c, netlink.c, debugfs.c */
u64 kb_verify_mem(const struct kb_job *job);
int kb_verify_check_map(const struct kb_job *job, struct netlink_ext_ack *extack);
int kb_verify_create(struct kb_job *job);
void kb_verify_destroy(struct kb_job *job);
int kb_parse_verify(struct genl_info *info, struct kb_config *cfg);
u64 kb_verify_count(struct kb_job *job, enum kb_vkind kind);
u64 kb_verify_trimmed(struct kb_job *job);
int kb_verify_debugfs(struct kb_job *job, struct dentry *dir);
u64 kb_crc64(u64 crc, const void *p, size_t len);

#if IS_ENABLED(CONFIG_KUNIT)
/* pure helpers, visible to kiobench_kunit.c only */
void kb_vhdr_make(struct kb_vhdr *h, const struct kb_config *cfg, u64 off);
void kb_vhdr_seal(struct kb_vhdr *h);
bool kb_vhdr_valid(const struct kb_vhdr *h);
enum kb_vkind kb_vhdr_classify(const struct kb_vhdr *h,
			       const struct kb_config *cfg, u64 off);
u64 kb_xmap_insert(struct kb_xmap *x, u64 a, u64 n);
bool kb_xmap_remove(struct kb_xmap *x, u64 a, u64 n);
bool kb_xmap_pop(struct kb_xmap *x, u64 *a, u64 *n);
u64 kb_xmap_count(const struct kb_xmap *x);
#endif

#endif /* KB_VERIFY_H */
