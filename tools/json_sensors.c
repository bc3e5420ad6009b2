// SPDX-License-Identifier: GPL-2.0
/*
 * The hwmon sensors in the JSON reports (json_out.c): each device's
 * samples, the job's summary and the readings beside each timeline point.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <string.h>

#include <json-c/json.h>

#include "json.h"
#include "output.h"
#include "report.h"
#include "result.h"
#include "sensors.h"

/* Readings v[0..n) (NULL: n missing ones) appended to array a; null where none. */
static void add_readings(struct json_object *a, const int64_t *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, v && v[i] != KB_HWMON_NONE ?
				      json_object_new_int64(v[i]) : NULL);
}

static struct json_object *labels_obj(const struct kb_hwmon *h, int k)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < h->nr[k]; i++)
		json_object_array_add(a, kb_jstr(h->label[k][i]));
	return a;
}

static struct json_object *readings_obj(const int64_t *v, unsigned int n)
{
	struct json_object *a = json_object_new_array();

	add_readings(a, v, n);
	return a;
}

static struct json_object *hwmon_obj(const struct kb_hwmon *h)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	size_t i;

	kb_jadd(o, "device", kb_jstr(h->device));
	kb_jadd(o, "hwmon", kb_jstr(h->name));
	kb_jadd(o, "hwmon_device", kb_jstr(h->owner));
	kb_jadd(o, "hwmon_path", kb_jstr(h->path));
	kb_jadd(o, "temp_labels", labels_obj(h, KB_HW_TEMP));
	kb_jadd(o, "power_labels", labels_obj(h, KB_HW_POWER));
	kb_jadd(o, "samples_dropped", kb_ju64(h->dropped));
	for (i = 0; i < h->nr_s; i++) {
		struct json_object *p = json_object_new_object();

		kb_jadd(p, "t_ms", kb_ju64(h->s[i].t_ns / 1000000));
		kb_jadd(p, "temp_mc", readings_obj(h->s[i].v[KB_HW_TEMP], h->nr[KB_HW_TEMP]));
		kb_jadd(p, "power_uw", readings_obj(h->s[i].v[KB_HW_POWER], h->nr[KB_HW_POWER]));
		json_object_array_add(a, p);
	}
	kb_jadd(o, "samples", a);
	return o;
}

struct json_object *kb_json_sensors(const struct kb_result *r, size_t n, double iops,
				    double bw)
{
	struct json_object *o;
	struct kb_hw_sum s;
	double iops_w, mbs_w;
	bool eff;

	kb_hwmon_summarize(r, n, &s);
	if (!s.devices)
		return NULL;
	o = json_object_new_object();
	eff = kb_efficiency(&s, iops, bw, &iops_w, &mbs_w);
	kb_jadd(o, "temp_min_mc", s.has_temp ? json_object_new_int64(s.temp_min_mc) : NULL);
	kb_jadd(o, "temp_max_mc", s.has_temp ? json_object_new_int64(s.temp_max_mc) : NULL);
	kb_jadd(o, "power_mean_uw", s.has_power ? kb_jdbl(s.power_uw) : NULL);
	kb_jadd(o, "iops_per_w", eff ? kb_jdbl(iops_w) : NULL);
	kb_jadd(o, "mb_s_per_w", eff ? kb_jdbl(mbs_w) : NULL);
	if (!s.has_power)
		kb_jadd(o, "note", kb_jstr(KB_NO_POWER_NOTE));
	return o;
}

/* The job's sensors: "sensors" (one object per device that has any, or null), a note. */
void kb_json_job_sensors(struct json_object *o, const struct kb_result *r)
{
	struct json_object *a = NULL;
	char note[KB_ERRLEN] = "";
	unsigned int i, k;
	size_t len = 0;
	double iops, bw;

	for (i = 0; i < r->job->nr_devices; i++) {
		bool has = false;

		for (k = 0; k < r->nr_hw; k++)
			has |= !strcmp(r->hw[k].device, r->job->devices[i]);
		if (!has && len < sizeof(note))
			len += snprintf(note + len, sizeof(note) - len, "%s%s",
					len ? ", " : "no hwmon sensor: ", r->job->devices[i]);
	}
	for (k = 0; k < r->nr_hw; k++) {
		if (!a)
			a = json_object_new_array();
		json_object_array_add(a, hwmon_obj(&r->hw[k]));
	}
	kb_jadd(o, "sensors", a);
	if (note[0])
		kb_jadd(o, "sensors_note", kb_jstr(note));
	kb_job_rates(r, &iops, &bw);
	kb_jadd(o, "sensors_summary", kb_json_sensors(r, 1, iops, bw));
}

/*
 * The sensor readings nearest timeline entry t_ns (within half an
 * interval) into pt: "temp_mc" and "power_uw", the devices' readings one
 * after the other (in "sensors" order); nothing when no device has one.
 */
void kb_json_point_sensors(struct json_object *pt, const struct kb_result *r, uint64_t t_ns,
			   size_t *hint)
{
	struct json_object *a[KB_HW_NR] = { NULL };
	bool found = false;
	unsigned int i;
	int k;

	for (k = 0; k < KB_HW_NR; k++)
		a[k] = json_object_new_array();
	for (i = 0; i < r->nr_hw; i++) {
		const struct kb_hw_sample *s = kb_hwmon_nearest(&r->hw[i], t_ns,
								r->tl.interval_ns / 2, &hint[i]);

		found |= s != NULL;
		for (k = 0; k < KB_HW_NR; k++)
			add_readings(a[k], s ? s->v[k] : NULL, r->hw[i].nr[k]);
	}
	for (k = 0; k < KB_HW_NR; k++) {
		if (found && json_object_array_length(a[k]))
			kb_jadd(pt, k == KB_HW_TEMP ? "temp_mc" : "power_uw", a[k]);
		else
			json_object_put(a[k]);
	}
}
