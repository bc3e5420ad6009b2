/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a job's writes carry (data.c): fio's zero_buffers, buffer_pattern,
 * refill_buffers, scramble_buffers, buffer_compress_percentage and
 * buffer_compress_chunk.
 */
#ifndef KB_DATA_H
#define KB_DATA_H

#include <linux/types.h>

struct genl_info;
struct kb_config;
struct kb_slot;
struct kb_worker;

void kb_data_fill_slot(struct kb_worker *w, struct kb_slot *slot);
void kb_data_write(struct kb_worker *w, struct kb_slot *slot, u64 off, u32 len);
int kb_parse_data(struct genl_info *info, struct kb_config *cfg);

/* Whether a write's buffer changes before its submission. */
static inline bool kb_data_per_write(const struct kb_config *cfg)
{
	return cfg->refill_buffers || cfg->scramble_buffers;
}

#endif /* KB_DATA_H */
