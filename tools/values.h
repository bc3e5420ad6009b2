/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Value syntax (values.c): sizes, times, numbers, lists, formats; reading
 * a whole file; error messages.
 */
#ifndef KIOBENCH_VALUES_H
#define KIOBENCH_VALUES_H

#include "kiobench.h"

/* values.c: 0 on success, else -1 and a message in err. */
int kb_parse_size(const char *s, uint64_t *out, char *err, size_t errlen);
int kb_parse_time_ns(const char *s, uint64_t *out, char *err, size_t errlen);
int kb_parse_u64(const char *s, uint64_t *out, char *err, size_t errlen);
int kb_parse_bool(const char *s, bool *out, char *err, size_t errlen);
int kb_parse_bssplit(const char *s, struct kb_bss **out, unsigned int *nr,
		     char *err, size_t errlen);
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

/* values.c: formats an error message into err; returns -1 */
int kb_errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* KIOBENCH_VALUES_H */
