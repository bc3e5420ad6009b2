// SPDX-License-Identifier: GPL-2.0
/* tools/fdp.c: the FDP counters' arithmetic and their reports. */
#include "tool_test.h"
#include "fdp.h"

/* Two handles, the first written through; 64 KiB host, 96 KiB media. */
static void make_fdp(struct kb_fdp *f)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->dev, sizeof(f->dev), "nvme0n1");
	snprintf(f->ctrl, sizeof(f->ctrl), "/dev/nvme0");
	f->nsid = 1;
	f->endgid = 1;
	f->ok[0] = f->ok[1] = true;
	f->hbmw[0] = 1000;
	f->hbmw[1] = 1000 + 65536;
	f->mbmw[0] = 2000;
	f->mbmw[1] = 2000 + 98304;
	f->ruh_ok[0] = f->ruh_ok[1] = true;
	f->nr_ruh = 2;
	f->ruh[0] = (struct kb_fdp_ruh){ .pid = 0, .ruhid = 3, .ruamw = { 2048, 1920 } };
	f->ruh[1] = (struct kb_fdp_ruh){ .pid = 1, .ruhid = 5, .ruamw = { 2048, 2048 } };
}

/*
 * The log's 16-byte little-endian counters, saturated to 64 bits; deltas
 * only with both readings; a handle used when its available media writes
 * moved.  Mutation: kb_fdp_u128() reading the upper half: red.
 */
static void t_fdp_counters(void)
{
	uint8_t c[16] = { 0x01, 0x02, 0, 0, 0, 0, 0, 0x80 };
	uint64_t host, media;
	struct kb_fdp f;

	CHECK(kb_fdp_u128(c) == 0x8000000000000201ULL);
	c[8] = 1;
	CHECK(kb_fdp_u128(c) == UINT64_MAX);
	make_fdp(&f);
	CHECK(kb_fdp_delta(&f, &host, &media) && host == 65536 && media == 98304);
	CHECK(kb_fdp_ruh_used(&f, 0) && !kb_fdp_ruh_used(&f, 1) && !kb_fdp_ruh_used(&f, 2));
	f.ok[1] = false;
	CHECK(!kb_fdp_delta(&f, &host, &media));
	f.ruh_ok[0] = false;
	CHECK(!kb_fdp_ruh_used(&f, 0));
}

static char *print_fdp(const struct kb_fdp *f, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	kb_print_fdp(out, f, n);
	fclose(out);
	return buf;
}

/*
 * The text and JSON reports: bytes, write amplification (media / host;
 * none without host bytes), the handles used; why the handles went
 * unread.  Mutation: write amplification as host / media: red.
 */
static void t_fdp_reports(void)
{
	struct json_object *a, *o, *v;
	struct kb_fdp f;
	char *s;

	make_fdp(&f);
	s = print_fdp(&f, 1);
	CHECK(strstr(s, "  nvme0n1: endurance group 1 (/dev/nvme0): host bytes written=65536, "
		      "media bytes written=98304, write amplification=1.500; reclaim unit "
		      "handles used (placement id/handle): 0/3 of 2\n"));
	free(s);
	a = kb_json_fdp(&f, 1);
	o = json_object_array_get_idx(a, 0);
	CHECK(json_object_object_get_ex(o, "write_amplification", &v) &&
	      json_object_get_double(v) == 1.5);
	CHECK(json_object_object_get_ex(o, "host_bytes_written", &v) &&
	      json_object_get_uint64(v) == 65536);
	CHECK(json_object_object_get_ex(o, "reclaim_unit_handles", &v) &&
	      json_object_array_length(v) == 2 &&
	      json_object_get_boolean(json_object_object_get(
		      json_object_array_get_idx(v, 0), "used")) &&
	      !json_object_get_boolean(json_object_object_get(
		      json_object_array_get_idx(v, 1), "used")));
	json_object_put(a);
	f.hbmw[1] = f.hbmw[0];
	f.ruh_ok[1] = false;
	snprintf(f.ruh_err, sizeof(f.ruh_err), "I/O Management Receive: NVMe status 0x4002");
	s = print_fdp(&f, 1);
	CHECK(strstr(s, "host bytes written=0, media bytes written=98304; reclaim unit handles "
		      "unread (I/O Management Receive: NVMe status 0x4002)\n"));
	free(s);
	a = kb_json_fdp(&f, 1);
	o = json_object_array_get_idx(a, 0);
	CHECK(json_object_object_get_ex(o, "write_amplification", &v) && !v);
	CHECK(json_object_object_get_ex(o, "reclaim_unit_handles", &v) && !v);
	json_object_put(a);
	f.ok[0] = false;
	s = print_fdp(&f, 1);
	CHECK(strstr(s, "  nvme0n1: endurance group 1 (/dev/nvme0): statistics log unread\n"));
	free(s);
	s = print_fdp(&f, 0);
	CHECK(!s || !*s);
	free(s);
}

void fdp_tests(void)
{
	run_case("fdp: 128-bit counters, deltas, handles used", t_fdp_counters);
	run_case("fdp: text and JSON reports, write amplification", t_fdp_reports);
}
