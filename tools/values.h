/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Value syntax (values.c): sizes, times, numbers, lists, formats; reading
 * a whole file; error messages.
 */
#ifndef KIOBENCH_VALUES_H
#define KIOBENCH_VALUES_H

#include "kiobench.h"

/* values.c: 0 on success, else -1 and a message in err. */
/* kb_parse_size: fio's default kb_base=1024; kb_parse_size_base: 1000 or 1024. */
int kb_parse_size(const char *s, uint64_t *out, char *err, size_t errlen);
int kb_parse_size_base(const char *s, unsigned int kb_base, uint64_t *out,
		       char *err, size_t errlen);
int kb_parse_time_ns(const char *s, uint64_t *out, char *err, size_t errlen);
int kb_parse_u64(const char *s, uint64_t *out, char *err, size_t errlen);
int kb_parse_bool(const char *s, bool *out, char *err, size_t errlen);
int kb_parse_bssplit(const char *s, struct kb_bss **out, unsigned int *nr,
		     char *err, size_t errlen);
/* given_max (or NULL): the largest size as given, before fio's alignment */
int kb_parse_bssplit_base(const char *s, unsigned int kb_base, struct kb_bss **out,
			  unsigned int *nr, uint32_t *given_max, char *err, size_t errlen);
/* sysfs's root: $KIOBENCH_SYSFS, else /sys. */
const char *kb_sysfs_root(void);
const char *kb_proc_interrupts(void);
int kb_parse_cpus(const char *s, uint32_t **out, unsigned int *nr,
		  char *err, size_t errlen);
int kb_parse_plist(const char *s, uint32_t *out, unsigned int *nr,
		   char *err, size_t errlen);
int kb_parse_formats(const char *s, unsigned int allowed, unsigned int *out,
		     char *err, size_t errlen);
int kb_check_bs(const char *s, uint64_t v, char *err, size_t errlen);
/* "normal, json or terse": the names of the formats in mask (KB_FMT_*). */
void kb_fmt_names(unsigned int mask, char *buf, size_t len);
/* Read a whole (debugfs, sysfs, job) file; NULL and errno on error. */
char *kb_read_file(const char *path);

/*
 * fio's expansion of a value: ${NAME}, $ncpus, $pagesize, $mb_memory and
 * arithmetic with them.  malloc'ed; NULL and a message in err.
 */
char *kb_expand_value(const char *val, char *err, size_t errlen);
/* A block device's size in bytes (BLKGETSIZE64); -1 and errno if not one. */
int kb_dev_bytes(const char *path, uint64_t *bytes);

/* values.c: formats an error message into err; returns -1 */
int kb_errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* KIOBENCH_VALUES_H */
