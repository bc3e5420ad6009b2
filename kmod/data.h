/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a job's writes carry (data.c): fio's zero_buffers, buffer_pattern,
 * refill_buffers, scramble_buffers, buffer_compress_percentage and
 * buffer_compress_chunk, dedupe_percentage and its options.
 */
#ifndef KB_DATA_H
#define KB_DATA_H

#include <linux/types.h>

struct genl_info;
struct kb_config;
struct kb_slot;
struct kb_worker;

/*
 * dedupe_percentage: a worker's writes are each filled from a seed of
 * their own: the seed of unique write k of worker s is a function of the
 * job's seed, s and k, so a working set needs no table.  With
 * dedupe_global across jobs, the seed is the group's and s the worker's
 * number in the group.
 */
struct kb_dedupe {
	u64 key;		/* of the job's workers, or of the group's */
	u64 unique;		/* unique writes filled */
	u64 prev;		/* repeat: the previous unique write's seed */
	u64 ws_pages;		/* working_set: its pages */
	u64 ws_share;		/* dedupe_global: pages of each worker's */
	u32 self;		/* the worker's number among the sharers */
	u32 sharers;		/* dedupe_global: the workers sharing */
};

void kb_data_fill_slot(struct kb_worker *w, struct kb_slot *slot);
void kb_data_write(struct kb_worker *w, struct kb_slot *slot, u64 off, u32 len);
int kb_parse_data(struct genl_info *info, struct kb_config *cfg);
int kb_parse_dedupe(struct genl_info *info, struct kb_config *cfg);

/* Whether a write's buffer changes before its submission. */
static inline bool kb_data_per_write(const struct kb_config *cfg)
{
	return cfg->refill_buffers || cfg->scramble_buffers;
}

#endif /* KB_DATA_H */
