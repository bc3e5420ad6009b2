// SPDX-License-Identifier: GPL-2.0
/* Fixtures of the output, sensors and step tests: a job's collected results. */
#include "options.h"
#include "result.h"
#include "sensors.h"
#include "tool_test.h"

int apply(struct kb_job *job, struct kb_global *g, const char *name, const char *val)
{
	struct kb_assign a = { .opt = kb_opt_find(name), .val = (char *)val };

	if (!a.opt) {
		snprintf(err, sizeof(err), "no option %s", name);
		return -1;
	}
	return kb_apply(job, g, &a, err, sizeof(err));
}

int apply_all(struct kb_job *job, const char *const *kv)
{
	for (; kv[0]; kv += 2)
		if (apply(job, NULL, kv[0], kv[1]))
			return -1;
	return 0;
}

void write_text(const char *dir, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

void mkhist(struct kb_hist *h, const struct kb_bucket *b, size_t nr,
		   uint64_t min, uint64_t max)
{
	size_t i;

	memset(h, 0, sizeof(*h));
	h->b = malloc(nr * sizeof(*b) + 1);
	memcpy(h->b, b, nr * sizeof(*b));
	h->nr = nr;
	h->min = min;
	h->max = max;
	for (i = 0; i < nr; i++)
		h->samples += b[i].count;
}


void make_result(struct kb_result *r, struct kb_job *job, uint64_t n)
{
	struct kb_global g = { 0 };
	static const struct kb_bucket b[] = { { 1016, 1024, 3 }, { 1024, 1032, 0 } };
	size_t i;

	kb_job_init(job);
	apply(job, &g, "filename", "/dev/nullb0");
	apply(job, &g, "rw", "randread");
	apply(job, &g, "ramp_time", "2");
	kb_job_finalize(job, err, sizeof(err));
	memset(r, 0, sizeof(*r));
	r->job = job;
	r->st.state = KIOBENCH_STATE_DONE;
	r->st.measured_ns = 10000000000ULL;
	r->st.nr_workers = 1;
	r->st.dir[0].ios = n;
	r->st.dir[0].bytes = n * 4096;
	r->st.dir[0].lat_min = 1020;
	r->st.dir[0].lat_max = 1030;
	r->st.dir[0].lat_sum = 1025 * n;
	r->st.dir[0].sumsq_lo = 1025 * 1025 * n;
	r->st.dir[0].all_ios = n + 10;
	r->st.dir[0].all_bytes = (n + 10) * 4096;
	mkhist(&r->hist[0], b, 2, 1020, 1030);
	r->hist[0].b[0].count = n / 2;
	r->hist[0].b[1].count = n - n / 2;
	r->hist[0].samples = n;
	r->hist[0].bits = 6;
	r->has_hist[0] = true;
	r->hist[1].dir = 1;
	r->has_hist[1] = true;
	r->has_tl = true;
	r->tl.interval_ns = 1000000000ULL;
	r->tl.nr = 2;
	r->tl.p = calloc(2, sizeof(*r->tl.p));
	for (i = 0; i < 2; i++) {
		r->tl.p[i].t_ns = (i + 1) * 1000000000ULL;
		r->tl.p[i].ios[0] = n / 2;
	}
}

void free_result(struct kb_result *r, struct kb_job *job)
{
	kb_hist_free(&r->hist[0]);
	kb_timeline_free(&r->tl);
	kb_job_free(job);
}

char *capture(void (*fn)(FILE *, const struct kb_result *, size_t),
		     const struct kb_result *r)
{
	static char *buf;
	static size_t len;
	FILE *f;

	buf = NULL;
	f = open_memstream(&buf, &len);
	fn(f, r, 1);
	fclose(f);
	return buf;
}


void free_hw_results(struct kb_result *r, struct kb_job *job)
{
	int i;

	for (i = 0; i < 2; i++) {
		kb_hwmon_free(r[i].hw, r[i].nr_hw);
		free_result(&r[i], &job[i]);
	}
}

/* ---- sensors (a fake sysfs tree) ------------------------------------------------ */