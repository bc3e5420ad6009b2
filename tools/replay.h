/* SPDX-License-Identifier: GPL-2.0 */
/* fio's read_iolog: the log read into the kernel's entries (replay.c). */
#ifndef KB_TOOL_REPLAY_H
#define KB_TOOL_REPLAY_H

#include <stddef.h>
#include <stdint.h>

struct kb_job;

/* The kernel's most entries (kmod/replay.h, the spec's replay-nr max). */
#define KB_REPLAY_MAX	1048576U
/* Entries a JOB_REPLAY message carries: the spec's replay-ents max-len. */
#define KB_REPLAY_CHUNK	(65520U / 24U)

/*
 * Reads job's read_iolog (the clone-th of NAME:NAME...) into job->replay,
 * sets its device (replay_redirect's or the log's file), bs (the longest
 * I/O) and rw (a write or trim in the log makes it a mix); checks the
 * entries against the device when it can be opened.  0 without read_iolog.
 */
int kb_replay_load(struct kb_job *job, uint32_t clone, char *err, size_t errlen);

#endif
