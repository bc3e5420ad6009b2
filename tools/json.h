/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json-c shorthands of the reports (output.c) and of the step documents
 * (steps_out.c, part.c, figures.c, methods.c).
 */
#ifndef KIOBENCH_JSON_H
#define KIOBENCH_JSON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#define KB_JSON_FLAGS	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
			 JSON_C_TO_STRING_NOSLASHESCAPE)

static inline void kb_jadd(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static inline struct json_object *kb_ju64(uint64_t v)
{
	return json_object_new_uint64(v);
}

static inline struct json_object *kb_jstr(const char *s)
{
	return json_object_new_string(s);
}

/* A double printed with fmt, never NaN or inf (JSON has neither). */
static inline struct json_object *kb_jdbl_fmt(double v, const char *fmt)
{
	char buf[64];

	if (!isfinite(v))
		v = 0.0;
	snprintf(buf, sizeof(buf), fmt, v);
	return json_object_new_double_s(v, buf);
}

/* fio's reports print "%f". */
static inline struct json_object *kb_jdbl(double v)
{
	return kb_jdbl_fmt(v, "%f");
}

/* The step documents print milliseconds' precision of whatever they hold. */
static inline struct json_object *kb_jdbl3(double v)
{
	return kb_jdbl_fmt(v, "%.3f");
}

#endif /* KIOBENCH_JSON_H */
