// SPDX-License-Identifier: GPL-2.0
/*
 * The option table of every command: names (fio's where fio has the
 * option), the commands that take each option, where its value goes, its
 * bounds and default.  getopt_long (cli.c), job files (jobfile.c) and the
 * usage texts are built from it; the value syntax is in values.c.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "distrib.h"
#include "fio_opts.h"
#include "kiobench.h"
#include "options.h"
#include "values.h"

/* ---- option handlers ---------------------------------------------------- */

/* Where option o's value goes: a field of the job or of the command. */
static void *field(const struct kb_opt *o, struct kb_job *job, struct kb_global *g)
{
	return (char *)(o->scope == KB_SCOPE_JOB ? (void *)job : (void *)g) + o->off;
}

static void free_devices(struct kb_job *job)
{
	unsigned int i;

	for (i = 0; i < job->nr_devices; i++)
		free(job->devices[i]);
	free(job->devices);
	job->devices = NULL;
	job->nr_devices = 0;
}


static int p_name(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	size_t i, len = strlen(val);

	(void)o; (void)g;
	if (!len || len >= KIOBENCH_NAME_LEN)
		return kb_errf(err, errlen, "invalid name '%s' (1 to %d characters)",
			    val, KIOBENCH_NAME_LEN - 1);
	for (i = 0; i < len; i++)
		if (!isgraph((unsigned char)val[i]))
			return kb_errf(err, errlen,
				    "invalid name '%s' (no spaces or control characters)", val);
	memcpy(job->name, val, len + 1);
	return 0;
}

static int p_filename(const struct kb_opt *o, const char *val, struct kb_job *job,
		      struct kb_global *g, char *err, size_t errlen)
{
	char **devs = NULL;
	unsigned int n = 0, i;
	const char *p = val;

	(void)o; (void)g;
	for (;;) {
		size_t len = strcspn(p, ":");
		char **nd;

		if (!len) {
			kb_errf(err, errlen, "invalid filename '%s' (empty device name)", val);
			goto bad;
		}
		for (i = 0; i < n; i++) {
			if (strlen(devs[i]) == len && !strncmp(devs[i], p, len)) {
				kb_errf(err, errlen, "invalid filename '%s' (%s listed twice)",
				     val, devs[i]);
				goto bad;
			}
		}
		if (n >= KB_MAX_LIST) {
			kb_errf(err, errlen, "invalid filename '%s' (too many devices)", val);
			goto bad;
		}
		nd = realloc(devs, (n + 1) * sizeof(*devs));
		if (!nd || !(nd[n] = strndup(p, len))) {
			devs = nd ? nd : devs;
			kb_errf(err, errlen, "out of memory");
			goto bad;
		}
		devs = nd;
		n++;
		if (!p[len])
			break;
		p += len + 1;
	}
	free_devices(job);
	job->devices = devs;
	job->nr_devices = n;
	return 0;
bad:
	for (i = 0; i < n; i++)
		free(devs[i]);
	free(devs);
	return -1;
}

static int p_rate_process(const struct kb_opt *o, const char *val, struct kb_job *job,
			  struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)g;
	if (!strcmp(val, "linear"))
		job->rate_process = KIOBENCH_RATE_LINEAR;
	else if (!strcmp(val, "poisson"))
		job->rate_process = KIOBENCH_RATE_POISSON;
	else
		return kb_errf(err, errlen, "invalid rate_process '%s' (linear or poisson)", val);
	return 0;
}

/*
 * fio's zonemode: none, strided or zbd; block is not implemented.  strided
 * is an offset pattern (zonesize, zonerange, zoneskip), not the kernel's
 * zonemode: that stays none.
 */
static int p_zonemode(const struct kb_opt *o, const char *val, struct kb_job *job,
		      struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)g;
	job->strided = !strcmp(val, "strided");
	if (!strcmp(val, "none") || job->strided)
		job->zonemode = KIOBENCH_ZONEMODE_NONE;
	else if (!strcmp(val, "zbd"))
		job->zonemode = KIOBENCH_ZONEMODE_ZBD;
	else if (!strcmp(val, "block"))
		return kb_errf(err, errlen, "zonemode=%s: not implemented yet (none, strided "
			       "or zbd)", val);
	else
		return kb_errf(err, errlen, "invalid zonemode '%s' (none, strided or zbd)", val);
	return 0;
}

static int p_dedupe_mode(const struct kb_opt *o, const char *val, struct kb_job *job,
			 struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)g;
	if (!strcmp(val, "repeat"))
		job->dedupe_mode = KIOBENCH_DEDUPE_REPEAT;
	else if (!strcmp(val, "working_set"))
		job->dedupe_mode = KIOBENCH_DEDUPE_WORKING_SET;
	else
		return kb_errf(err, errlen, "invalid dedupe_mode '%s' (repeat or working_set)",
			       val);
	return 0;
}

/* EIO for 5, as strerrorname_np names it; "?" for a number without a name. */
const char *kb_errno_name(int e)
{
	const char *n = e > 0 ? strerrorname_np(e) : NULL;

	return n ? n : "?";
}

/* An errno by its name (EIO, as strerrorname_np names it) or number, 1 to 133. */
static int parse_errno(const char *s, uint32_t *e)
{
	char *end;
	unsigned long v;
	int i;

	if (s[0] == 'E') {
		for (i = 1; i < 134; i++) {
			const char *n = strerrorname_np(i);

			if (n && !strcmp(n, s)) {
				*e = i;
				return 0;
			}
		}
		return -1;
	}
	v = strtoul(s[0] == '-' ? s + 1 : s, &end, 10);	/* fio takes -5 as 5 */
	if (end == s || *end || !v || v > 133)
		return -1;
	*e = v;
	return 0;
}

/*
 * fio's continue_on_error (options.c, td_error.c): the error types the job
 * may go on from, fio's names and its 0 and 1; bare, as 1 (kiobench's
 * command line had it a flag).  A type goes on from the errnos of its
 * ignore_error list, without one from fio's __NON_FATAL_ERR, EIO and
 * EILSEQ; any other error, and any error of a type not named, stops the
 * job.
 */
static const struct {
	const char *name;
	uint32_t bits;
} kb_coe_values[] = {
	{ "none", 0 }, { "read", KB_COE_READ }, { "write", KB_COE_WRITE },
	{ "io", KB_COE_READ | KB_COE_WRITE }, { "verify", KB_COE_VERIFY },
	{ "all", KB_COE_ALL }, { "0", 0 }, { "1", KB_COE_ALL },
};

static int p_continue_on_error(const struct kb_opt *o, const char *val, struct kb_job *job,
			       struct kb_global *g, char *err, size_t errlen)
{
	unsigned int i;

	(void)o; (void)g;
	if (!val)
		val = "1";
	for (i = 0; i < sizeof(kb_coe_values) / sizeof(kb_coe_values[0]); i++)
		if (!strcmp(val, kb_coe_values[i].name)) {
			/* as fio's val_store(): the lists' bits too */
			job->continue_on_error = kb_coe_values[i].bits;
			job->coe_given = kb_coe_values[i].bits;
			return 0;
		}
	return kb_errf(err, errlen, "invalid continue_on_error '%s' (none, read, write, io, "
		       "verify, all, 0 or 1)", val);
}

/* continue_on_error's name for its value given. */
static const char *coe_name(uint32_t bits)
{
	unsigned int i;

	for (i = 0; i < sizeof(kb_coe_values) / sizeof(kb_coe_values[0]); i++)
		if (kb_coe_values[i].bits == bits)
			return kb_coe_values[i].name;
	return "?";
}

/*
 * fio's ignore_error=READ_LIST,WRITE_LIST,VERIFY_LIST, each list's errnos
 * joined by ':' (EIO, ENOSPC or numbers).  As fio's ignore_error_type(), a
 * list given turns its type's continue_on_error bit on (a continue_on_error
 * after it sets them anew); an empty list leaves its type to
 * continue_on_error's EIO and EILSEQ.
 */
static int p_ignore_error(const struct kb_opt *o, const char *val, struct kb_job *job,
			  struct kb_global *g, char *err, size_t errlen)
{
	char buf[512], *p = buf, *list, *e;
	unsigned int t = 0;

	(void)o; (void)g;
	if (snprintf(buf, sizeof(buf), "%s", val) >= (int)sizeof(buf))
		return kb_errf(err, errlen, "ignore_error: too long");
	memset(job->nr_ignore_error, 0, sizeof(job->nr_ignore_error));
	while ((list = strsep(&p, ","))) {
		if (t == 3)
			return kb_errf(err, errlen, "ignore_error: three lists at most "
				       "(read,write,verify)");
		while ((e = strsep(&list, ":")) && *e) {
			if (job->nr_ignore_error[t] == 16)
				return kb_errf(err, errlen, "ignore_error: 16 errors a list at most");
			if (parse_errno(e, &job->ignore_error[t][job->nr_ignore_error[t]++]))
				return kb_errf(err, errlen, "ignore_error: unknown error '%s' "
					       "(a name such as EIO, or a number 1 to 133)", e);
		}
		if (job->nr_ignore_error[t])
			job->continue_on_error |= 1u << t;
		t++;
	}
	return 0;
}

static int p_rw_sequencer(const struct kb_opt *o, const char *val, struct kb_job *job,
			  struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)g;
	if (!strcmp(val, "sequential"))
		job->rw_sequencer = KIOBENCH_RW_SEQ_SEQUENTIAL;
	else if (!strcmp(val, "identical"))
		job->rw_sequencer = KIOBENCH_RW_SEQ_IDENTICAL;
	else
		return kb_errf(err, errlen, "invalid rw_sequencer '%s' (sequential or "
			       "identical)", val);
	return 0;
}

/*
 * fio's generators are not kiobench's: its kernel draws from a keyed
 * permutation (the random map) or, with norandommap, from xoshiro256**.
 * Each value is taken for the guarantee fio gives with it, which kiobench
 * keeps (see kb_job_finalize() and the report's "offsets" line).
 */
static const char *const kb_randgen_names[] = {
	[KB_RANDGEN_TAUSWORTHE] = "tausworthe",
	[KB_RANDGEN_LFSR] = "lfsr",
	[KB_RANDGEN_TAUSWORTHE64] = "tausworthe64",
};

const char *kb_randgen_name(enum kb_randgen g)
{
	return kb_randgen_names[g];
}

static int p_randgen(const struct kb_opt *o, const char *val, struct kb_job *job,
		     struct kb_global *g, char *err, size_t errlen)
{
	size_t i;

	(void)o; (void)g;
	for (i = 0; i < sizeof(kb_randgen_names) / sizeof(kb_randgen_names[0]); i++) {
		if (!strcmp(val, kb_randgen_names[i])) {
			job->random_generator = i;
			return 0;
		}
	}
	return kb_errf(err, errlen, "invalid random_generator '%s' "
		       "(tausworthe, lfsr or tausworthe64)", val);
}

static int p_random_dist(const struct kb_opt *o, const char *val, struct kb_job *job,
			 struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)g;
	return kb_parse_random_dist(val, job->kb_base, job, err, errlen);
}

static unsigned int kb_base_of(const struct kb_job *job);

/*
 * fio's offset modifier, rw's ":N": for a random rw, a new offset every N
 * I/Os (rw_sequencer says what the others do); for a sequential one, N
 * bytes (fio's size suffixes) skipped after each I/O.  As fio, each rw
 * sets both anew.
 */
static int rw_suffix(const char *val, const char *nr, struct kb_job *job, char *err,
		     size_t errlen)
{
	uint64_t v;
	char *end;

	job->rw_seq_nr = 1;
	job->rw_seq_add = 0;
	if (!nr)
		return 0;
	if (*nr == '-')
		return kb_errf(err, errlen, "rw=%s: not implemented yet: a negative offset "
			       "modifier (backward sequential I/O)", val);
	if (!job->random) {
		if (kb_parse_size_base(nr, kb_base_of(job), &v, err, errlen))
			return -1;
		if (v % 512)
			return kb_errf(err, errlen, "rw=%s: the bytes skipped must be a multiple "
				       "of 512, which kiobench's direct I/O needs", val);
		job->rw_seq_add = v;
		return 0;
	}
	errno = 0;
	v = strtoull(nr, &end, 10);
	if (!isdigit((unsigned char)*nr) || *end || errno || !v || v > UINT32_MAX)
		return kb_errf(err, errlen, "rw=%s: a random rw takes a count of I/Os "
			       "per drawn offset, 1..%u", val, UINT32_MAX);
	job->rw_seq_nr = v;
	return 0;
}

static int p_rw(const struct kb_opt *o, const char *val, struct kb_job *job,
		struct kb_global *g, char *err, size_t errlen)
{
	static const struct {
		const char *name; enum kb_rw rw; bool random; uint8_t trim; uint8_t zone_op;
	} t[] = {
		{ "read", KB_RW_READ, false, KIOBENCH_TRIM_NONE, 0 },
		{ "write", KB_RW_WRITE, false, KIOBENCH_TRIM_NONE, 0 },
		{ "randread", KB_RW_READ, true, KIOBENCH_TRIM_NONE, 0 },
		{ "randwrite", KB_RW_WRITE, true, KIOBENCH_TRIM_NONE, 0 },
		{ "rw", KB_RW_MIXED, false, KIOBENCH_TRIM_NONE, 0 },
		{ "readwrite", KB_RW_MIXED, false, KIOBENCH_TRIM_NONE, 0 },
		{ "randrw", KB_RW_MIXED, true, KIOBENCH_TRIM_NONE, 0 },
		/* trims are the kernel's writes of its trim-mode */
		{ "trim", KB_RW_WRITE, false, KIOBENCH_TRIM_TRIM, 0 },
		{ "randtrim", KB_RW_WRITE, true, KIOBENCH_TRIM_TRIM, 0 },
		{ "trimwrite", KB_RW_WRITE, false, KIOBENCH_TRIM_TRIMWRITE, 0 },
		{ "randtrimwrite", KB_RW_WRITE, true, KIOBENCH_TRIM_TRIMWRITE, 0 },
		/* kiobench's own: zone management ops, the trims of zonemode=zbd */
		{ "zone_reset", KB_RW_WRITE, false, KIOBENCH_TRIM_TRIM, KIOBENCH_ZONE_OP_RESET },
		{ "zone_open", KB_RW_WRITE, false, KIOBENCH_TRIM_TRIM, KIOBENCH_ZONE_OP_OPEN },
		{ "zone_close", KB_RW_WRITE, false, KIOBENCH_TRIM_TRIM, KIOBENCH_ZONE_OP_CLOSE },
		{ "zone_finish", KB_RW_WRITE, false, KIOBENCH_TRIM_TRIM, KIOBENCH_ZONE_OP_FINISH },
		{ "zone_reset_all", KB_RW_WRITE, false, KIOBENCH_TRIM_TRIM,
		  KIOBENCH_ZONE_OP_RESET_ALL },
	};
	size_t i, n = strcspn(val, ":");

	(void)o; (void)g;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (strlen(t[i].name) == n && !strncmp(val, t[i].name, n)) {
			job->rw = t[i].rw;
			job->random = t[i].random;
			job->trim_mode = t[i].trim;
			job->zone_op = t[i].zone_op;	/* the kernel: zonemode=zbd */
			job->rw_str = t[i].name;
			return rw_suffix(val, val[n] ? val + n + 1 : NULL, job, err, errlen);
		}
	}
	return kb_errf(err, errlen, "invalid rw '%s' (read, write, randread, randwrite, "
		    "rw, readwrite, randrw, trim, randtrim, trimwrite, randtrimwrite, zone_reset, "
		    "zone_open, zone_close, zone_finish or zone_reset_all)", val);
}

/*
 * write_mode, the name fio's io_uring_cmd engine gives it (fio 3.33 has no
 * such option): write (the default), zeroes (REQ_OP_WRITE_ZEROES) or
 * zone_append (REQ_OP_ZONE_APPEND, with zonemode=zbd).
 */
static int p_write_mode(const struct kb_opt *o, const char *val, struct kb_job *job,
			struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)g;
	if (!strcmp(val, "write") || !strcmp(val, "zeroes") || !strcmp(val, "zone_append")) {
		job->write_zeroes = !strcmp(val, "zeroes");
		job->zone_append = !strcmp(val, "zone_append");
		return 0;
	}
	if (!strcmp(val, "uncor"))
		return kb_errf(err, errlen, "uncor: NVMe Write Uncorrectable has no "
			       "block-layer operation; only a passthrough command sends it");
	if (!strcmp(val, "verify"))
		return kb_errf(err, errlen, "verify: NVMe Verify has no block-layer "
			       "operation; only a passthrough command sends it");
	return kb_errf(err, errlen, "invalid write_mode '%s' (write, zeroes or zone_append)",
		       val);
}

/* A number within o's bounds; "1..100" when both ends mean something. */
static int get_range(const struct kb_opt *o, const char *val, uint64_t *v,
		     char *err, size_t errlen)
{
	bool open_end = o->max == UINT32_MAX || o->max == UINT64_MAX;

	if (kb_parse_u64(val, v, err, errlen))
		return -1;
	if (!open_end && (*v < o->min || *v > o->max))
		return kb_errf(err, errlen, "invalid value '%s' (must be %llu..%llu)", val,
			       (unsigned long long)o->min, (unsigned long long)o->max);
	if (*v < o->min)
		return kb_errf(err, errlen, "invalid value '%s' (must be at least %llu)",
			       val, (unsigned long long)o->min);
	if (*v > o->max)
		return kb_errf(err, errlen, "invalid value '%s' (must be at most %llu)",
			       val, (unsigned long long)o->max);
	return 0;
}

/* rwmixread, rwmixwrite: the job keeps the read share. */
static int p_rwmix(const struct kb_opt *o, const char *val, struct kb_job *job,
		   struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v;

	(void)g;
	if (get_range(o, val, &v, err, errlen))
		return -1;
	job->rwmixread = o->id == KB_OPT_RWMIXWRITE ? 100 - v : v;
	return 0;
}

/*
 * fio's per-direction values (bs, bssplit, bsrange): "R,W,T", each of
 * them maybe empty (fio's default); a value not followed by a comma holds
 * for the directions after it too.  @part gets direction d's text.
 */
static int dir_parts(const char *val, char part[KB_BSS_DIRS][256], char *err, size_t errlen)
{
	const char *p = val;
	unsigned int n = 0, d;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (n == KB_BSS_DIRS || len >= sizeof(part[0]))
			return kb_errf(err, errlen, "'%s': at most three values (reads, writes, "
				       "trims)", val);
		memcpy(part[n], p, len);
		part[n++][len] = '\0';
		if (!p[len])
			break;
		p += len + 1;
	}
	for (d = n; d < KB_BSS_DIRS; d++)
		strcpy(part[d], part[n - 1]);
	return 0;
}

static int bs_value(const char *val, unsigned int kb_base, uint64_t *v, char *err,
		    size_t errlen)
{
	if (!*val) {
		*v = KB_DEFAULT_BS;
		return 0;
	}
	if (kb_parse_size_base(val, kb_base, v, err, errlen)) {
		if (isdigit((unsigned char)val[0]) && strpbrk(val, "-:"))
			return kb_errf(err, errlen, "'%s': a range is bsrange's, a mix "
				       "bssplit's", val);
		return -1;
	}
	return kb_check_bs(val, *v, err, errlen);
}

/* The writes' and trims' tables, NULL where a direction takes the previous one's. */
static void set_bss_wt(struct kb_job *job, struct kb_bss *t[2], const unsigned int n[2])
{
	unsigned int d;

	for (d = 0; d < 2; d++) {
		free(job->bss_wt[d]);
		job->bss_wt[d] = t ? t[d] : NULL;
		job->nr_bss_wt[d] = t ? n[d] : 0;
	}
}

/* fio's bs=R[,W[,T]]: the reads' size is bs, the others bs_wt (0: the previous one's). */
static int p_bs(const struct kb_opt *o, const char *val, struct kb_job *job,
		struct kb_global *g, char *err, size_t errlen)
{
	char part[KB_BSS_DIRS][256];
	uint64_t v[KB_BSS_DIRS];
	unsigned int d;

	(void)o; (void)g;
	if (dir_parts(val, part, err, errlen))
		return -1;
	for (d = 0; d < KB_BSS_DIRS; d++)
		if (bs_value(part[d], job->kb_base, &v[d], err, errlen))
			return -1;
	job->bs = v[0];
	for (d = 1; d < KB_BSS_DIRS; d++)
		job->bs_wt[d - 1] = v[d] == v[d - 1] ? 0 : v[d];
	return 0;
}

/*
 * fio's bsrange LO-HI as a table: fio draws LO + HI x u (u in [0, 1)),
 * aligns it down to a multiple of LO and caps it at HI, so each multiple m
 * of LO in [LO, LO + HI) weighs min(m + LO, LO + HI) - m, and those above
 * HI count as HI (get_next_buflen() in fio's io_u.c).  More sizes than the
 * module's table holds: the range itself, LO then HI (*range), which the
 * kernel draws from as fio does (bsrange).
 */
static int bsrange_table(const char *val, unsigned int kb_base, struct kb_bss **out,
			 unsigned int *nr, bool *range, char *err, size_t errlen)
{
	char lo_s[128];
	uint64_t lo, hi, m;
	size_t len = strcspn(val, "-:");
	struct kb_bss *t;
	unsigned int n = 0;

	if (!*val) {
		lo = hi = KB_DEFAULT_BS;
	} else {
		if (!val[len] || len >= sizeof(lo_s))
			return kb_errf(err, errlen, "bsrange: '%s': give LO-HI", val);
		memcpy(lo_s, val, len);
		lo_s[len] = '\0';
		if (bs_value(lo_s, kb_base, &lo, err, errlen) ||
		    bs_value(val + len + 1, kb_base, &hi, err, errlen))
			return -1;
	}
	if (hi < lo)
		return kb_errf(err, errlen, "bsrange: '%s': the high end is below the low", val);
	t = calloc(KB_MAX_BSSPLIT_DIR, sizeof(*t));
	if (!t)
		return kb_errf(err, errlen, "out of memory");
	/* the multiples of LO below HI, and HI */
	*range = (hi + lo - 1) / lo > KB_MAX_BSSPLIT_DIR;
	if (*range) {
		t[0] = (struct kb_bss){ .size = lo, .weight = 1 };
		t[1] = (struct kb_bss){ .size = hi, .weight = 1 };
		*out = t;
		*nr = 2;
		return 0;
	}
	for (m = lo; m < lo + hi; m += lo) {
		uint32_t w = ((m + lo < lo + hi ? m + lo : lo + hi) - m) / 512;

		if (m >= hi && n && t[n - 1].size == hi)
			t[n - 1].weight += w;
		else
			t[n++] = (struct kb_bss){ .size = m < hi ? m : hi, .weight = w };
	}
	*out = t;
	*nr = n;
	return 0;
}

static bool same_bss(const struct kb_bss *a, unsigned int na, const struct kb_bss *b,
		     unsigned int nb)
{
	return na == nb && !memcmp(a, b, na * sizeof(*a));
}

/*
 * fio's bssplit=R[,W[,T]] and bsrange=LO-HI[,...]: the reads' table in
 * bss, the writes' and trims' in bss_wt where they differ.
 */
static int p_bssplit(const struct kb_opt *o, const char *val, struct kb_job *job,
		     struct kb_global *g, char *err, size_t errlen)
{
	char part[KB_BSS_DIRS][256];
	struct kb_bss *t[KB_BSS_DIRS] = { NULL };
	uint32_t given_max[KB_BSS_DIRS] = { 0 };
	bool range[KB_BSS_DIRS] = { false };
	unsigned int n[KB_BSS_DIRS], d;

	(void)g;
	if (dir_parts(val, part, err, errlen))
		return -1;
	for (d = 0; d < KB_BSS_DIRS; d++) {
		int ret;

		/* an empty value is fio's default bs, as a range of one size */
		if (o->id == KB_OPT_BSRANGE || !*part[d])
			ret = bsrange_table(part[d], job->kb_base, &t[d], &n[d], &range[d], err,
					    errlen);
		else
			ret = kb_parse_bssplit_base(part[d], job->kb_base, &t[d], &n[d],
						    &given_max[d], err, errlen);
		if (ret) {
			while (d--)
				free(t[d]);
			return -1;
		}
	}
	free(job->bss);
	job->bss = t[0];
	job->nr_bss = n[0];
	memcpy(job->bss_given_max, given_max, sizeof(given_max));
	for (d = KB_BSS_DIRS - 1; d > 0; d--)
		if (same_bss(t[d], n[d], t[d - 1], n[d - 1]) && range[d] == range[d - 1]) {
			free(t[d]);
			t[d] = NULL;
			n[d] = 0;	/* none of its own: the previous one's */
		}
	job->bsrange = 0;
	for (d = 0; d < KB_BSS_DIRS; d++)
		if (t[d] && range[d])
			job->bsrange |= 1u << d;
	set_bss_wt(job, t + 1, n + 1);
	return 0;
}

static int p_cpus(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	uint32_t *v;
	unsigned int n;

	(void)o; (void)g;
	if (kb_parse_cpus(val, &v, &n, err, errlen))
		return -1;
	free(job->cpus);
	job->cpus = v;
	job->nr_cpus = n;
	return 0;
}


/*
 * fio's cpumask: a bit mask of CPUs (decimal, or 0x hex); fio reads 32
 * bits of it, so a CPU past 31 is refused (cpus_allowed names any).
 */
static int p_cpumask(const struct kb_opt *o, const char *val, struct kb_job *job,
		     struct kb_global *g, char *err, size_t errlen)
{
	unsigned long long m;
	unsigned int n = 0, i;
	uint32_t *v;
	char *end;

	(void)o; (void)g;
	errno = 0;
	m = strtoull(val, &end, 0);
	if (!*val || *end || errno || *val == '-')
		return kb_errf(err, errlen, "invalid cpumask '%s' (a bit mask, e.g. 0x3)", val);
	if (!m)
		return kb_errf(err, errlen, "cpumask '%s' names no CPU", val);
	if (m >> 32)
		return kb_errf(err, errlen, "cpumask '%s' names CPUs past 31, which fio ignores: "
			       "use cpus_allowed", val);
	v = calloc(32, sizeof(*v));
	if (!v)
		return kb_errf(err, errlen, "out of memory");
	for (i = 0; i < 32; i++)
		if (m & (1ULL << i))
			v[n++] = i;
	free(job->cpus);
	job->cpus = v;
	job->nr_cpus = n;
	return 0;
}

/* The CPUs of NUMA node `node` (sysfs) added to v[0..*n) once each; -1 and err. */
static int node_cpus(uint32_t node, uint32_t *v, unsigned int *n, char *err, size_t errlen)
{
	char path[512], *text;
	unsigned int nc, i, k;
	uint32_t *c;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/devices/system/node/node%u/cpulist", kb_sysfs_root(),
		 node);
	text = kb_read_file(path);
	if (!text)
		return kb_errf(err, errlen, "numa_cpu_nodes: node %u: no such node (%s)", node,
			       path);
	text[strcspn(text, "\n")] = '\0';
	if (*text && kb_parse_cpus(text, &c, &nc, err, errlen))
		ret = -1;
	for (i = 0; *text && !ret && i < nc; i++) {
		for (k = 0; k < *n && v[k] != c[i]; k++)
			;
		if (k == *n)
			v[(*n)++] = c[i];
	}
	if (*text && !ret)
		free(c);
	free(text);
	return ret;
}

/*
 * fio's numa_cpu_nodes: the workers on the CPUs of these NUMA nodes ("all",
 * or a list as cpus_allowed's), read from sysfs.  fio sets them after the
 * CPU mask (numa_run_on_node_mask()), so they replace cpus_allowed.
 */
static int p_numa_nodes(const struct kb_opt *o, const char *val, struct kb_job *job,
			struct kb_global *g, char *err, size_t errlen)
{
	char path[512], *online = NULL;
	uint32_t *nodes, *v;
	unsigned int nn, n = 0, i;

	(void)o; (void)g;
	if (!strcmp(val, "all")) {
		snprintf(path, sizeof(path), "%s/devices/system/node/online", kb_sysfs_root());
		online = kb_read_file(path);
		if (!online)
			return kb_errf(err, errlen, "numa_cpu_nodes=all: cannot read %s", path);
		online[strcspn(online, "\n")] = '\0';
	}
	if (kb_parse_cpus(online ? online : val, &nodes, &nn, err, errlen)) {
		free(online);
		return -1;
	}
	free(online);
	v = calloc(KB_MAX_CPU, sizeof(*v));
	if (!v) {
		free(nodes);
		return kb_errf(err, errlen, "out of memory");
	}
	for (i = 0; i < nn; i++)
		if (node_cpus(nodes[i], v, &n, err, errlen))
			break;
	free(nodes);
	if (i < nn || !n) {
		free(v);
		return i < nn ? -1 : kb_errf(err, errlen, "numa_cpu_nodes '%s': no CPU on "
					     "those nodes", val);
	}
	free(job->cpus);
	job->cpus = v;
	job->nr_cpus = n;
	return 0;
}

static int p_cpus_policy(const struct kb_opt *o, const char *val, struct kb_job *job,
			 struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)g;
	if (strcmp(val, "shared") && strcmp(val, "split"))
		return kb_errf(err, errlen, "invalid cpus_allowed_policy '%s' (shared or split)",
			       val);
	job->cpus_split = !strcmp(val, "split");
	return 0;
}

static int p_u32(const struct kb_opt *o, const char *val, struct kb_job *job,
		 struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v;

	if (get_range(o, val, &v, err, errlen))
		return -1;
	*(uint32_t *)field(o, job, g) = v;
	return 0;
}

/*
 * fio's apptag_mask (io_uring_cmd, 3.35): the bits of the application tag
 * the device checks.  The block layer has no field for it: the kernel's
 * NVMe driver sends 0xffff with BIP_CHECK_APPTAG (6.14 on), so any other
 * mask is refused, naming why.
 */
static int p_apptag_mask(const struct kb_opt *o, const char *val, struct kb_job *job,
			 struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v;

	(void)job; (void)g;
	if (get_range(o, val, &v, err, errlen))
		return -1;
	if (v != 0xffff)
		return kb_errf(err, errlen, "apptag_mask %s: only 0xffff, fio's default: the "
			       "kernel's NVMe driver sends every application tag bit to be "
			       "checked (the block layer has no mask to pass)", val);
	return 0;
}

static int p_u64(const struct kb_opt *o, const char *val, struct kb_job *job,
		 struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v;

	if (get_range(o, val, &v, err, errlen))
		return -1;
	*(uint64_t *)field(o, job, g) = v;
	return 0;
}

/* The kb_base sizes are read with: the job's, else fio's default. */
static unsigned int kb_base_of(const struct kb_job *job)
{
	return job && job->kb_base ? job->kb_base : 1024;
}

/* size=N% or offset=N%: of the device, resolved when its size is known. */
static int size_pct(const struct kb_opt *o, const char *val, struct kb_job *job,
		    char *err, size_t errlen)
{
	uint64_t v;
	char num[8];
	size_t len = strlen(val) - 1;

	if (!len || len >= sizeof(num))
		return kb_errf(err, errlen, "invalid percentage '%s'", val);
	memcpy(num, val, len);
	num[len] = '\0';
	if (kb_parse_u64(num, &v, err, errlen) || v < o->min || v > 100)
		return kb_errf(err, errlen, "invalid percentage '%s' (must be %llu%%..100%%)",
			       val, (unsigned long long)o->min);
	if (o->id == KB_OPT_SIZE)
		job->size_pct = v;
	else if (o->id == KB_OPT_OFFSET)
		job->offset_pct = v;
	else
		job->offset_increment_pct = v;
	job->size = o->id == KB_OPT_SIZE ? 0 : job->size;
	job->offset = o->id == KB_OPT_OFFSET ? 0 : job->offset;
	job->offset_increment = o->id == KB_OPT_OFFSET_INCREMENT ? 0 : job->offset_increment;
	return 0;
}

/* bs=R,W,T as the tables bssplit=R,W,T would give: one size each. */
static int bs_tables(struct kb_job *job)
{
	struct kb_bss *t[KB_BSS_DIRS] = { NULL };
	unsigned int n[KB_BSS_DIRS] = { 1, 1, 1 }, d;

	for (d = 0; d < KB_BSS_DIRS; d++) {
		if (d && !job->bs_wt[d - 1]) {
			n[d] = 0;
			continue;
		}
		t[d] = calloc(1, sizeof(*t[d]));
		if (!t[d]) {
			while (d--)
				free(t[d]);
			return -1;
		}
		*t[d] = (struct kb_bss){ .size = d ? job->bs_wt[d - 1] : job->bs, .weight = 100 };
	}
	free(job->bss);
	job->bss = t[0];
	job->nr_bss = 1;
	job->bsrange = 0;
	set_bss_wt(job, t + 1, n + 1);
	return 0;
}

/* Sizes: zero only where the minimum is 0; size and offset take N% too. */
static int p_size(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	bool span = o->scope == KB_SCOPE_JOB &&
		    (o->id == KB_OPT_SIZE || o->id == KB_OPT_OFFSET ||
		     o->id == KB_OPT_OFFSET_INCREMENT);
	uint64_t v;

	if (span && *val && val[strlen(val) - 1] == '%')
		return size_pct(o, val, job, err, errlen);
	if (kb_parse_size_base(val, kb_base_of(job), &v, err, errlen))
		return -1;
	if (v < o->min)
		return kb_errf(err, errlen, "invalid size '%s' (must not be zero)", val);
	*(uint64_t *)field(o, job, g) = v;
	if (span && o->id == KB_OPT_SIZE) {
		job->size_pct = 0;
		job->size_io = job->size_given = 0;
	} else if (span && o->id == KB_OPT_OFFSET)
		job->offset_pct = 0;
	else if (span)
		job->offset_increment_pct = 0;
	return 0;
}

/* Times in ns: zero only where the minimum is 0. */
static int p_time(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v;

	if (kb_parse_time_ns(val, &v, err, errlen))
		return -1;
	if (v < o->min)
		return kb_errf(err, errlen, "invalid time '%s' (must not be zero)", val);
	if (o->max && v > o->max)
		return kb_errf(err, errlen, "invalid time '%s' (at most %llus)", val,
			       (unsigned long long)(o->max / 1000000000ULL));
	*(uint64_t *)field(o, job, g) = v;
	return 0;
}

/* The kernel's bound on thinktime and its parts (KB_MAX_THINK_NS): 3600 s. */
#define KB_MAX_THINK_NS	(3600ULL * 1000000000ULL)

/* fio's thinktime and thinktime_spin: a bare number is in microseconds. */
static int p_time_us(const struct kb_opt *o, const char *val, struct kb_job *job,
		     struct kb_global *g, char *err, size_t errlen)
{
	size_t n = strspn(val, "0123456789");
	char buf[64];

	if (n && !val[n] && n < sizeof(buf) - 2) {
		snprintf(buf, sizeof(buf), "%sus", val);
		return p_time(o, buf, job, g, err, errlen);
	}
	return p_time(o, val, job, g, err, errlen);
}

/* thinktime_blocks_type: complete (fio's default) is what the kernel counts. */
static int p_think_type(const struct kb_opt *o, const char *val, struct kb_job *job,
			struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)job; (void)g;
	if (!strcmp(val, "complete"))
		return 0;
	if (!strcmp(val, "issue"))
		return kb_errf(err, errlen, "thinktime_blocks_type=issue: not implemented yet "
			       "(the workers count completions, fio's complete)");
	return kb_errf(err, errlen, "invalid thinktime_blocks_type '%s' (complete or issue)",
		       val);
}

/*
 * fio's per-direction values "R[,W[,T]]" into v: one value is every
 * direction's, an empty one none.  Sizes with the job's kb_base, or with
 * us times, times with bare numbers in microseconds.
 */
static int rw_values(const struct kb_opt *o, const char *val, const struct kb_job *job,
		     bool us, uint64_t v[3], char *err, size_t errlen)
{
	const char *p = val;
	unsigned int n = 0;
	char buf[64];

	for (;;) {
		size_t len = strcspn(p, ","), digits = strspn(p, "0123456789");

		if (n == 3 || len + 3 >= sizeof(buf))
			return kb_errf(err, errlen, "invalid %s '%s' (R[,W[,T]])", o->name, val);
		snprintf(buf, sizeof(buf), "%.*s%s", (int)len, p, us && digits == len ? "us" : "");
		if (len && (us ? kb_parse_time_ns(buf, &v[n], err, errlen) :
			    kb_parse_size_base(buf, kb_base_of(job), &v[n], err, errlen)))
			return -1;
		n++;
		if (!p[len])
			break;
		p += len + 1;
	}
	/* fio: one value is every direction's, R,W the trims' W too */
	if (n == 1)
		v[1] = v[0];
	if (n < 3)
		v[2] = v[1];
	if (!v[0] && !v[1] && !v[2])
		return kb_errf(err, errlen, "invalid %s '%s' (no direction given)", o->name, val);
	return 0;
}

/*
 * fio's rate (bytes/s) and rate_iops, "R[,W[,T]]" per direction (fio's
 * parse.c): one value is each direction's, "R,W" gives the trims W, an
 * empty value leaves its direction unrated ("R," rates the reads only).  rate_iops is also set to the
 * first rated direction's, so that the job is known to be open loop;
 * kb_job_check() maps the directions onto the kernel's arrivals.
 */
static int p_rate(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v[3] = { 0, 0, 0 };
	char buf[128], *p;
	unsigned int d;

	(void)g;
	/* fio: without a ',', a ':' or '-' separates the directions too */
	snprintf(buf, sizeof(buf), "%s", val);
	for (p = buf; !strchr(val, ',') && *p; p++)
		if (*p == ':' || *p == '-')
			*p = ',';
	if (rw_values(o, buf, job, false, v, err, errlen))
		return -1;
	if (o->id == KB_OPT_RATE) {
		memcpy(job->rate_bps, v, sizeof(v));
		return 0;
	}
	for (d = 0; d < 3; d++)
		if (v[d] > KIOBENCH_MAX_RATE_IOPS)
			return kb_errf(err, errlen, "invalid rate_iops '%s' (each 1 to %u)", val,
				       KIOBENCH_MAX_RATE_IOPS);
	memcpy(job->rate_iops_rw, v, sizeof(v));
	job->rate_iops = v[0] ? v[0] : v[1] ? v[1] : v[2];
	job->rate_iops_write = 0;
	return 0;
}

/* fio's max_latency: "R[,W[,T]]" times, bare numbers in microseconds. */
static int p_max_latency(const struct kb_opt *o, const char *val, struct kb_job *job,
			 struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v[3] = { 0, 0, 0 };

	(void)g;
	if (rw_values(o, val, job, true, v, err, errlen))
		return -1;
	memcpy(job->limits.max_lat_ns, v, sizeof(v));
	return 0;
}

/* fio's rate_min (bytes/s) and rate_iops_min, "R[,W[,T]]" as rate. */
static int p_min_rate(const struct kb_opt *o, const char *val, struct kb_job *job,
		      struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v[3] = { 0, 0, 0 };
	uint64_t *f = o->id == KB_OPT_RATE_MIN ? job->limits.bps : job->limits.iops;

	(void)g;
	if (rw_values(o, val, job, false, v, err, errlen))
		return -1;
	memcpy(f, v, sizeof(v));
	return 0;
}

/*
 * fio's rate or rate_iops as the kernel's open loop.  fio paces each
 * direction on its own schedule (backend.c usec_for_io(): rate_iops is
 * rate in bytes/s of the direction's smallest block), and issues the one
 * whose arrival is due, whatever rwmixread drew (io_u.c rate_ddir()): a
 * mix at rate_iops=N is N reads and N writes a second, rwmixread only
 * orders them.  The kernel does that with rate_iops (the reads') and
 * rate_iops_write.  A job of one direction takes that direction's rate
 * (rwmixread=100 or 0: fio never switches to the other).  What fio does
 * otherwise is refused, never run with another meaning.
 */
static int rate_to_iops(struct kb_job *job, char *err, size_t errlen)
{
	bool bytes = kb_job_isset(job, KB_OPT_RATE);
	uint64_t r[3] = { 0, 0, 0 };
	const struct kb_bss *bss;
	unsigned int d, i, n;
	uint32_t min_bs;
	int only = -1;		/* the one direction issued, or -1: both */
	double iops;

	if (!bytes && !kb_job_isset(job, KB_OPT_RATE_IOPS))
		return 0;
	if (bytes && kb_job_isset(job, KB_OPT_RATE_IOPS))
		return kb_errf(err, errlen, "rate and rate_iops: give one");
	if (job->rw == KB_RW_READ || (job->rw == KB_RW_MIXED && job->rwmixread == 100))
		only = 0;
	else if (job->rw == KB_RW_WRITE || job->rwmixread == 0)
		only = job->trim_mode == KIOBENCH_TRIM_TRIM ? 2 : 1;
	for (d = 0; d < 3; d++) {
		if (only >= 0 && (unsigned int)only != d)
			continue;
		if (bytes ? !job->rate_bps[d] : !job->rate_iops_rw[d])
			continue;
		bss = kb_job_bss(job, d && job->trim_mode ? 2 : d, &n);
		for (i = 1, min_bs = bss[0].size; i < n; i++)
			min_bs = bss[i].size < min_bs ? bss[i].size : min_bs;
		/*
		 * fio's rate is bytes/s, rate_iops that many of the smallest
		 * size: linear arrivals pace the bytes issued, so a larger
		 * transfer delays the next I/O, while Poisson's gaps are drawn
		 * per I/O at bytes/s over the smallest size (usec_for_io())
		 */
		if (n != 1 && job->rate_process != KIOBENCH_RATE_POISSON)
			return kb_errf(err, errlen, "%s with several block sizes: not implemented "
				       "yet (fio paces the bytes at %s, so a larger transfer "
				       "delays the next I/O; the kernel paces I/Os: give "
				       "rate_process=poisson, whose gaps fio draws per I/O)",
				       bytes ? "rate" : "rate_iops",
				       bytes ? "that rate" : "rate_iops times the smallest size");
		if (!bytes) {
			r[d] = job->rate_iops_rw[d];
			continue;
		}
		iops = job->rate_bps[d] / (double)min_bs;
		if (iops < 1 || iops > KIOBENCH_MAX_RATE_IOPS)
			return kb_errf(err, errlen, "rate: %.1f I/Os a second of %u bytes (1 to %u)",
				       iops, min_bs, KIOBENCH_MAX_RATE_IOPS);
		r[d] = (uint64_t)(iops + 0.5);
	}
	if (bytes && job->nr_devices * job->workers > 1)
		return kb_errf(err, errlen, "rate with more than one worker (devices x "
			       "workers): not implemented yet");
	if (job->nr_devices > 1)
		return kb_errf(err, errlen, "rate_iops with several devices: not implemented "
			       "yet (fio paces the job's one thread over all its files, "
			       "kiobench runs a worker per device)");
	job->rate_iops_write = 0;
	if (only >= 0) {
		job->rate_iops = r[only];	/* 0: the job's direction is not rated */
		return 0;
	}
	job->rate_iops = r[0];
	if (!r[0] && !r[1])
		return 0;
	if (!r[0] || !r[1])
		return kb_errf(err, errlen, "%s with only the %s rated on a mix of reads and "
			       "writes: not implemented yet (fio issues the unrated direction "
			       "as fast as the depth allows between the rated one's arrivals)",
			       bytes ? "rate" : "rate_iops", r[0] ? "reads" : "writes");
	if (job->fsync)
		return kb_errf(err, errlen, "%s on a mix of reads and writes with fsync: not "
			       "implemented yet (fio's flushes take no arrival of either "
			       "direction)", bytes ? "rate" : "rate_iops");
	if (job->rate_ignore_thinktime && kb_job_isset(job, KB_OPT_THINKTIME))
		return kb_errf(err, errlen, "rate_ignore_thinktime on a mix of reads and writes: "
			       "not implemented yet (fio moves on the schedule of the direction "
			       "of the pause's last I/O only)");
	job->rate_iops_write = r[1];
	return 0;
}

/* fio's steadystate: "CRIT:LIMIT[%]" (steady.c). */
static int p_ss(const struct kb_opt *o, const char *val, struct kb_job *job,
		struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)g;
	return kb_ss_parse(val, kb_base_of(job), &job->ss, err, errlen);
}

/*
 * ss_dur and ss_ramp: times, in seconds when bare.  fio counts the window
 * in whole seconds, a part of one dropped; a window of 0 is no check, so a
 * nonzero one under a second, which fio would take as none, is refused.
 */
static int p_ss_time(const struct kb_opt *o, const char *val, struct kb_job *job,
		     struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v;

	(void)g;
	if (kb_parse_time_ns(val, &v, err, errlen))
		return -1;
	if (o->id == KB_OPT_SS_RAMP) {
		job->ss.ramp_ns = v;
		return 0;
	}
	if (v && v < 1000000000ULL)
		return kb_errf(err, errlen, "ss_dur '%s' is under a second: fio counts the "
			       "window in whole seconds and would check nothing", val);
	if (v / 1000000000ULL > UINT32_MAX)
		return kb_errf(err, errlen, "ss_dur '%s' too long", val);
	job->ss.dur_s = (uint32_t)(v / 1000000000ULL);
	return 0;
}

/* startdelay: a time, or a range LO-HI from which each clone draws its own. */
static int p_startdelay(const struct kb_opt *o, const char *val, struct kb_job *job,
			struct kb_global *g, char *err, size_t errlen)
{
	const char *dash = strchr(val, '-');
	uint64_t lo, hi;
	char buf[64];

	(void)o; (void)g;
	if (!dash) {
		if (kb_parse_time_ns(val, &lo, err, errlen))
			return -1;
		job->startdelay_ns = job->startdelay_hi_ns = lo;
		return 0;
	}
	if ((size_t)(dash - val) >= sizeof(buf))
		return kb_errf(err, errlen, "invalid startdelay '%s'", val);
	memcpy(buf, val, dash - val);
	buf[dash - val] = '\0';
	if (kb_parse_time_ns(buf, &lo, err, errlen) ||
	    kb_parse_time_ns(dash + 1, &hi, err, errlen))
		return -1;
	if (hi < lo)
		return kb_errf(err, errlen, "invalid startdelay '%s' (the range's end is "
			       "below its start)", val);
	job->startdelay_ns = lo;
	job->startdelay_hi_ns = hi;
	return 0;
}

/* The index of the @len bytes at @val in @words (@n of them), or -1. */
static int kb_word_index_len(const char *const *words, size_t n, const char *val, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(words[i]) == len && !strncmp(val, words[i], len))
			return (int)i;
	return -1;
}

/* The index of @val in @words (@n of them), or -1. */
static int kb_word_index(const char *const *words, size_t n, const char *val)
{
	return kb_word_index_len(words, n, val, strlen(val));
}

static const char *const kb_exit_whats[] = {
	[KB_EXIT_WHAT_GROUP] = "group",
	[KB_EXIT_WHAT_STONEWALL] = "stonewall",
	[KB_EXIT_WHAT_ALL] = "all",
};

static int p_exit_what(const struct kb_opt *o, const char *val, struct kb_job *job,
		       struct kb_global *g, char *err, size_t errlen)
{
	int i = kb_word_index(kb_exit_whats, sizeof(kb_exit_whats) / sizeof(kb_exit_whats[0]),
			      val);

	(void)o; (void)g;
	if (i >= 0) {
		job->exit_what = i;
		return 0;
	}
	return kb_errf(err, errlen, "invalid exit_what '%s' (group, stonewall or all)", val);
}

/* wait_for: a job name, checked as name is. */
static int p_wait_for(const struct kb_opt *o, const char *val, struct kb_job *job,
		      struct kb_global *g, char *err, size_t errlen)
{
	struct kb_job tmp;
	char *s;

	(void)o;
	memset(&tmp, 0, sizeof(tmp));
	if (p_name(o, val, &tmp, g, err, errlen))
		return -1;
	s = strdup(val);
	if (!s)
		return kb_errf(err, errlen, "out of memory");
	free(job->wait_for);
	job->wait_for = s;
	return 0;
}

/* A block size of the command (preconditioning's fill). */
static int p_cmd_bs(const struct kb_opt *o, const char *val, struct kb_job *job,
		    struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v;

	if (kb_parse_size_base(val, kb_base_of(job), &v, err, errlen) ||
	    kb_check_bs(val, v, err, errlen))
		return -1;
	*(uint32_t *)field(o, job, g) = v;
	return 0;
}

/* A size that fits 32 bits. */
static int p_size32(const struct kb_opt *o, const char *val, struct kb_job *job,
		    struct kb_global *g, char *err, size_t errlen)
{
	uint64_t v;

	if (kb_parse_size_base(val, kb_base_of(job), &v, err, errlen))
		return -1;
	if (v < o->min || v > o->max)
		return kb_errf(err, errlen, "invalid size '%s' (%" PRIu64 " to %" PRIu64 ")",
			       val, o->min, o->max);
	*(uint32_t *)field(o, job, g) = v;
	return 0;
}

/* fio's verify methods: those the kernel does, and why the others are not. */
static const struct {
	const char *name;
	int verify;		/* enum kiobench_verify; -1: refused */
	const char *why;
} kb_verify_methods[] = {
	{ "crc32c", KIOBENCH_VERIFY_CRC32C, NULL },
	{ "crc32c-intel", KIOBENCH_VERIFY_CRC32C, NULL },	/* fio: a synonym */
	{ "crc64", KIOBENCH_VERIFY_CRC64, NULL },
	{ "xxhash", KIOBENCH_VERIFY_XXHASH, NULL },
	{ "sha256", KIOBENCH_VERIFY_SHA256, NULL },
	{ "meta", KIOBENCH_VERIFY_META, NULL },
	{ "md5", KIOBENCH_VERIFY_MD5, NULL },	/* the kernel refuses it without md5 */
	{ "pattern", KIOBENCH_VERIFY_PATTERN, NULL },
	{ "0", KIOBENCH_VERIFY_NONE, NULL },
	{ "none", KIOBENCH_VERIFY_NONE, NULL },
	{ "null", -1, "fio's pretend verify has no meaning in the kernel" },
	{ "crc32", -1, "use crc32c (the kernel's checksum is CRC-32C)" },
	{ "crc16", -1, "too weak for a header's checksum; use crc32c" },
	{ "crc7", -1, "too weak for a header's checksum; use crc32c" },
	{ "sha1", -1, "not implemented: use sha256" },
	{ "sha512", -1, "not implemented: use sha256" },
	{ "sha3-224", -1, "not implemented: use sha256" },
	{ "sha3-256", -1, "not implemented: use sha256" },
	{ "sha3-384", -1, "not implemented: use sha256" },
	{ "sha3-512", -1, "not implemented: use sha256" },
};

static int p_verify(const struct kb_opt *o, const char *val, struct kb_job *job,
		    struct kb_global *g, char *err, size_t errlen)
{
	size_t i;

	(void)o; (void)g;
	for (i = 0; i < sizeof(kb_verify_methods) / sizeof(kb_verify_methods[0]); i++) {
		if (strcmp(val, kb_verify_methods[i].name))
			continue;
		if (kb_verify_methods[i].verify < 0)
			return kb_errf(err, errlen, "verify=%s: %s", val, kb_verify_methods[i].why);
		job->verify = kb_verify_methods[i].verify;
		return 0;
	}
	return kb_errf(err, errlen, "invalid verify '%s' (crc32c, crc64, xxhash, sha256, md5, "
		       "meta, pattern)", val);
}

/*
 * One number of a pattern at @p, as fio's parse_number() (lib/pattern.c)
 * reads it, into @out (room for @cap bytes): 0xHEX (an odd count of digits
 * has its first alone; a last 0 followed by x starts the next, as in
 * 0xff0x14), else a decimal number in int's range up to the next "0x"
 * (-120xdead is -12 then 0xdead), stored in as many bytes as it needs
 * (negative ones: 4), low byte first (fio on x86), 0 as one byte.  Its
 * length, or 0 when fio's parser fails there; *@end past it.
 */
static size_t pattern_number(const char *p, uint8_t *out, size_t cap, const char **end)
{
	size_t len = 0, n = 0, i;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		len = strspn(p + 2, "0123456789abcdefABCDEF");
	if (len) {
		if (p[2 + len] && len > 1 && p[2 + len - 1] == '0' &&
		    (p[2 + len] == 'x' || p[2 + len] == 'X'))
			len--;
		if (len / 2 + len % 2 > cap)
			return 0;
		for (i = len % 2 ? 0 : 1; i <= len; i += 2) {
			char byte[3] = { i ? p[2 + i - 1] : '0', p[2 + i], 0 };

			out[n++] = strtoul(byte, NULL, 16);
		}
		*end = p + 2 + len;
		return n;
	} else {
		const char *hex = strcasestr(p, "0x");
		char num[32], *e;
		size_t upto = hex && hex > p ? (size_t)(hex - p) : strlen(p);
		unsigned int v;
		long lval;

		snprintf(num, sizeof(num), "%.*s", (int)(upto < sizeof(num) - 1 ? upto :
							     sizeof(num) - 1), p);
		errno = 0;
		lval = strtol(num, &e, 10);
		if (e == num || errno || lval > INT32_MAX || lval < INT32_MIN || !cap)
			return 0;
		*end = p + (e - num);
		if (!lval) {
			out[0] = 0;
			return 1;
		}
		for (v = (unsigned int)lval; v && n < cap; v >>= 8)
			out[n++] = v & 0xff;
		return v ? 0 : n;
	}
}

/*
 * fio's verify_pattern and buffer_pattern (@name), as parse_and_fill_pattern()
 * reads them: numbers (pattern_number()) and "text", one after another,
 * into @out (@cap bytes); their length in *@len.  fio's %o (the offset) and
 * 'file' are refused.
 */
static int parse_pattern(const char *name, const char *val, uint8_t *out, size_t cap,
			 uint32_t *len, char *err, size_t errlen)
{
	size_t n = 0, got;
	const char *p = val;

	while (*p) {
		if (p[0] == '%' && p[1] == 'o')
			return kb_errf(err, errlen, "%s: %%o (the offset) is not implemented; "
				       "the verify header holds the offset", name);
		if (*p == '\'')
			return kb_errf(err, errlen, "%s: a 'file' is not implemented: give its "
				       "bytes as 0xHEX or \"text\"", name);
		if (*p == '"') {
			const char *end = strchr(p + 1, '"');

			if (!end || end == p + 1 || (size_t)(end - p - 1) > cap - n)
				return kb_errf(err, errlen, "invalid %s '%s'", name, val);
			memcpy(out + n, p + 1, end - p - 1);
			n += end - p - 1;
			p = end + 1;
			continue;
		}
		got = pattern_number(p, out + n, cap - n, &p);
		if (!got)
			return kb_errf(err, errlen, "invalid %s '%s' (0xHEX, a number in "
				       "[-2147483648, 2147483647] or \"text\")", name, val);
		n += got;
	}
	if (!n)
		return kb_errf(err, errlen, "invalid %s '%s' (empty)", name, val);
	*len = n;
	return 0;
}

static int p_vpattern(const struct kb_opt *o, const char *val, struct kb_job *job,
		      struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)g;
	return parse_pattern("verify_pattern", val, job->verify_pattern,
			     sizeof(job->verify_pattern), &job->verify_pattern_len, err, errlen);
}

static int p_bpattern(const struct kb_opt *o, const char *val, struct kb_job *job,
		      struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)g;
	return parse_pattern("buffer_pattern", val, job->buffer_pattern,
			     sizeof(job->buffer_pattern), &job->buffer_pattern_len, err, errlen);
}

static int p_flag(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	return kb_parse_bool(val, (bool *)field(o, job, g), err, errlen);
}

/* File names and other strings: not empty. */
/* fio's replay_skip: a comma-separated list of read, write, trim, sync. */
static const char *const kb_replay_kinds[] = {
	[KIOBENCH_DIR_READ] = "read", [KIOBENCH_DIR_WRITE] = "write",
	[KIOBENCH_DIR_TRIM] = "trim", [KIOBENCH_DIR_SYNC] = "sync",
};

static int p_replay_skip(const struct kb_opt *o, const char *val, struct kb_job *job,
			 struct kb_global *g, char *err, size_t errlen)
{
	uint32_t mask = 0;
	const char *p = val;
	unsigned int d;

	(void)o; (void)g;
	for (;;) {
		size_t len = strcspn(p, ",");

		for (d = 0; d < sizeof(kb_replay_kinds) / sizeof(kb_replay_kinds[0]); d++)
			if (strlen(kb_replay_kinds[d]) == len && !strncmp(kb_replay_kinds[d], p, len))
				break;
		if (d == sizeof(kb_replay_kinds) / sizeof(kb_replay_kinds[0]))
			return kb_errf(err, errlen, "invalid replay_skip '%s' (a list of read, "
				       "write, trim, sync)", val);
		mask |= 1u << d;
		if (!p[len])
			break;
		p += len + 1;
	}
	job->replay_skip = mask;
	return 0;
}

static int p_str(const struct kb_opt *o, const char *val, struct kb_job *job,
		 struct kb_global *g, char *err, size_t errlen)
{
	char **dst = field(o, job, g), *s;

	if (!*val)
		return kb_errf(err, errlen, "empty file name");
	s = strdup(val);
	if (!s)
		return kb_errf(err, errlen, "out of memory");
	free(*dst);
	*dst = s;
	return 0;
}

/*
 * fio's write_lat_log, write_bw_log, write_iops_log, write_hist_log: the
 * logs' file name prefix; none (or empty) is "" here, the job's name when
 * the logs are written (fio's make_log_name()).
 */
static int p_log(const struct kb_opt *o, const char *val, struct kb_job *job,
		 struct kb_global *g, char *err, size_t errlen)
{
	char **dst = field(o, job, g), *s = strdup(val ? val : "");

	if (!s)
		return kb_errf(err, errlen, "out of memory");
	free(*dst);
	*dst = s;
	return 0;
}

/* Whether v is a list of single 0s and 1s: "1", "1,0" ... */
static bool bits_list(const char *v)
{
	size_t i;

	for (i = 0; v[i]; i++)
		if (i % 2 ? v[i] != ',' : v[i] != '0' && v[i] != '1')
			return false;
	return i % 2 == 1;
}

/*
 * A tuning's values, comma-separated: numbers (rq_affinity, nomerges,
 * nr_requests), scheduler names, CPU lists (irq_cpus), or 0 and 1
 * (write_generate, read_verify).
 */
static int p_tune(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	bool flag = o->id == KB_OPT_WRITE_GENERATE || o->id == KB_OPT_READ_VERIFY;
	const char *ok = o->id == KB_OPT_IOSCHEDULER ? "abcdefghijklmnopqrstuvwxyz0123456789-_," :
			 o->id == KB_OPT_IRQ_CPUS ? "0123456789-," : flag ? "01," : "0123456789,";
	size_t n = strlen(val);

	if (!n || strspn(val, ok) != n || val[0] == ',' || val[n - 1] == ',' || strstr(val, ",,") ||
	    (flag && !bits_list(val)))
		return kb_errf(err, errlen, "'%s' is not a list of %s", val,
			       o->id == KB_OPT_IOSCHEDULER ? "scheduler names" :
			       o->id == KB_OPT_IRQ_CPUS ? "CPU lists (0,2-3)" :
			       flag ? "0 and 1" : "numbers");
	return p_str(o, val, job, g, err, errlen);
}

/* fio's prioclass and prio: one value (fio takes no read,write pair there). */
static int p_prio(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	if (val && strchr(val, ','))
		return kb_errf(err, errlen, "refused: '%s': %s is one value for reads and "
			       "writes alike, as in fio", val, o->name);
	return p_u32(o, val, job, g, err, errlen);
}

/*
 * fio's cmdprio_percentage, cmdprio_class and cmdprio: N for both
 * directions, or fio's "R,W" pair, the reads' then the writes'.
 */
static int p_cmdprio(const struct kb_opt *o, const char *val, struct kb_job *job,
		     struct kb_global *g, char *err, size_t errlen)
{
	uint32_t *f = field(o, job, g);
	const char *comma = val ? strchr(val, ',') : NULL;
	char rd[32];
	uint64_t v[KIOBENCH_NR_DIRS];

	if (!comma) {
		if (get_range(o, val, &v[0], err, errlen))
			return -1;
		f[KIOBENCH_DIR_READ] = f[KIOBENCH_DIR_WRITE] = v[0];
		return 0;
	}
	if ((size_t)(comma - val) >= sizeof(rd) || strchr(comma + 1, ','))
		return kb_errf(err, errlen, "invalid value '%s' (N, or fio's read,write "
			       "pair R,W)", val);
	memcpy(rd, val, comma - val);
	rd[comma - val] = '\0';
	if (get_range(o, rd, &v[0], err, errlen) || get_range(o, comma + 1, &v[1], err, errlen))
		return -1;
	f[KIOBENCH_DIR_READ] = v[0];
	f[KIOBENCH_DIR_WRITE] = v[1];
	return 0;
}

/*
 * One direction of fio's cmdprio_bssplit: BS/PCT or BS/PCT/CLASS/LEVEL
 * entries, ':'-separated.  As fio: PCT above 100 is 100, CLASS above 3 is
 * 3, LEVEL above 7 is 7, an entry without PCT or of 0 % is dropped, and a
 * size's entries may not add up past 100.  The entries of a size with one
 * priority are merged.
 */
static int cmdprio_bs_dir(const char *val, size_t n, struct kb_job *job, unsigned int d,
			  char *err, size_t errlen)
{
	char buf[256], *save = NULL, *e;
	unsigned int i;

	if (n >= sizeof(buf))
		return kb_errf(err, errlen, "'%s' is too long", val);
	memcpy(buf, val, n);
	buf[n] = '\0';
	job->nr_cmdprio_bs[d] = 0;
	for (e = strtok_r(buf, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		char bs[64];
		unsigned int pct = 0, class = 0, level = 0;
		int m = sscanf(e, "%63[^/]/%u/%u/%u", bs, &pct, &class, &level);
		struct kb_cmdprio_bs x;
		uint64_t v;

		if (m < 1 || m == 3 || strspn(e, "0123456789kKmMgGiIbB/ ") != strlen(e))
			return kb_errf(err, errlen, "invalid cmdprio_bssplit entry '%s' (BS/PCT or "
				       "BS/PCT/CLASS/LEVEL)", e);
		if (kb_parse_size_base(bs, kb_base_of(job), &v, err, errlen))
			return -1;
		if (!pct)
			continue;	/* fio drops them */
		x = (struct kb_cmdprio_bs){ (uint32_t)v, pct > 100 ? 100 : pct,
					    m == 4 ? (int8_t)(class > 3 ? 3 : class) : -1,
					    m == 4 ? (int8_t)(level > 7 ? 7 : level) : -1 };
		for (i = 0; i < job->nr_cmdprio_bs[d]; i++) {
			struct kb_cmdprio_bs *y = &job->cmdprio_bs[d][i];

			if (y->size != x.size)
				continue;
			if (y->class != x.class || y->level != x.level)
				return kb_errf(err, errlen, "not implemented yet: "
					       "two priorities in a direction (latency is split "
					       "between the job's priority and one cmdprio)");
			if (y->pct + x.pct > 100)
				return kb_errf(err, errlen, "the percentages of "
					       "%s add up past 100", bs);
			y->pct += x.pct;
			break;
		}
		if (i < job->nr_cmdprio_bs[d])
			continue;
		if (i == KB_CMDPRIO_BS_MAX)
			return kb_errf(err, errlen, "at most %d sizes a "
				       "direction", KB_CMDPRIO_BS_MAX);
		job->cmdprio_bs[d][job->nr_cmdprio_bs[d]++] = x;
	}
	return 0;
}

/*
 * fio's cmdprio_bssplit: the reads' then the writes' entries (the trims',
 * a third value, are ignored, as fio does); one value is both's.
 */
static int p_cmdprio_bssplit(const struct kb_opt *o, const char *val, struct kb_job *job,
			     struct kb_global *g, char *err, size_t errlen)
{
	const char *comma = strchr(val, ',');

	(void)o; (void)g;
	if (!comma)
		return cmdprio_bs_dir(val, strlen(val), job, 0, err, errlen) ||
		       cmdprio_bs_dir(val, strlen(val), job, 1, err, errlen) ? -1 : 0;
	return cmdprio_bs_dir(val, comma - val, job, 0, err, errlen) ||
	       cmdprio_bs_dir(comma + 1, strcspn(comma + 1, ","), job, 1, err, errlen) ? -1 : 0;
}

/*
 * fio's ba: one size, or fio's R,W[,T] values all alike (kiobench draws
 * the directions' random offsets with one alignment).
 */
static int p_ba(const struct kb_opt *o, const char *val, struct kb_job *job,
		struct kb_global *g, char *err, size_t errlen)
{
	char buf[64], *save = NULL, *v;
	uint64_t x, first = 0;

	(void)o; (void)g;
	if (strlen(val) >= sizeof(buf))
		return kb_errf(err, errlen, "invalid ba '%s'", val);
	strcpy(buf, val);
	for (v = strtok_r(buf, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		if (kb_parse_size_base(v, kb_base_of(job), &x, err, errlen))
			return -1;
		if (!x || x % 512 || x > UINT32_MAX)
			return kb_errf(err, errlen, "ba=%s: a multiple of 512, which kiobench's "
				       "direct I/O needs", val);
		if (first && x != first)
			return kb_errf(err, errlen, "ba=%s: not implemented yet: an alignment "
				       "per direction (kiobench aligns all random offsets alike)", val);
		first = x;
	}
	/* fio: "failed parsing blockalign=", and ",": no size, not 0 */
	if (!first)
		return kb_errf(err, errlen, "invalid ba '%s': no size", val);
	job->ba = first;
	return 0;
}

/*
 * fio's sync: none or 0, sync or 1 (O_SYNC), dsync (O_DSYNC).  A direct
 * write to a block device opened either way is a REQ_FUA write
 * (block/fops.c, iocb_is_dsync()): writefua.
 */
static int p_sync(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)g;
	if (!strcmp(val, "none") || !strcmp(val, "0")) {
		job->sync_writes = false;
		return 0;
	}
	if (strcmp(val, "sync") && strcmp(val, "1") && strcmp(val, "dsync"))
		return kb_errf(err, errlen, "invalid sync '%s' (none, 0, sync, 1 or dsync)",
			       val);
	job->sync_writes = true;	/* writefua at kb_job_check() */
	return 0;
}

/* fio's nice: -20..19; the kernel sets it on the workers (submit.c). */
static int p_nice(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	char *end;
	long v;

	(void)o; (void)g;
	errno = 0;
	v = strtol(val, &end, 10);
	if (errno || end == val || *end || v < -20 || v > 19)
		return kb_errf(err, errlen, "invalid nice '%s' (-20..19)", val);
	job->nice = (int)v;
	return 0;
}

/* fio's write_hint: the RWH_WRITE_LIFE_* lifetimes, none (1) to extreme (5). */
static const char *const kb_write_hints[] = { "none", "short", "medium", "long", "extreme" };

static int p_write_hint(const struct kb_opt *o, const char *val, struct kb_job *job,
			struct kb_global *g, char *err, size_t errlen)
{
	int i = kb_word_index(kb_write_hints, sizeof(kb_write_hints) / sizeof(kb_write_hints[0]),
			      val);

	(void)o; (void)g;
	if (i >= 0) {
		job->write_hint = i + 1;
		return 0;
	}
	return kb_errf(err, errlen, "invalid write_hint '%s' (none, short, medium, long or "
		       "extreme)", val);
}

/*
 * kiobench's write_streams=ID[,ID...]: the write streams (1 to 255, at
 * most 16) the job's writes carry; checked against the devices by the
 * kernel (max_write_streams).
 */
static int p_write_streams(const struct kb_opt *o, const char *val, struct kb_job *job,
			   struct kb_global *g, char *err, size_t errlen)
{
	const char *p = val;
	unsigned int n = 0;

	(void)o; (void)g;
	for (;;) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(p, &end, 10);
		if (errno || end == p || v < 1 || v > 255 || *p == '-' || *p == '+')
			return kb_errf(err, errlen, "invalid write_streams '%s' (stream ids "
				       "1..255, comma-separated)", val);
		if (n == sizeof(job->write_streams))
			return kb_errf(err, errlen, "write_streams '%s': at most %zu streams",
				       val, sizeof(job->write_streams));
		job->write_streams[n++] = (uint8_t)v;
		if (!*end)
			break;
		if (*end != ',')
			return kb_errf(err, errlen, "invalid write_streams '%s' (stream ids "
				       "1..255, comma-separated)", val);
		p = end + 1;
	}
	job->nr_write_streams = (uint8_t)n;
	return 0;
}

/* kiobench's write_stream_select: enum kiobench_write_stream_select's order. */
static const char *const kb_ws_selects[] = { "roundrobin", "random", "job", "worker" };

static int p_write_stream_select(const struct kb_opt *o, const char *val, struct kb_job *job,
				 struct kb_global *g, char *err, size_t errlen)
{
	int i = kb_word_index(kb_ws_selects, sizeof(kb_ws_selects) / sizeof(kb_ws_selects[0]),
			      val);

	(void)o; (void)g;
	if (i >= 0) {
		job->write_stream_select = (uint8_t)i;
		return 0;
	}
	return kb_errf(err, errlen, "invalid write_stream_select '%s' (roundrobin, random, "
		       "job or worker)", val);
}

/*
 * fio's pi_chk: GUARD, REFTAG, APPTAG, comma-separated (its io_uring.c);
 * pi_inject's fields alike.
 */
static const char *const kb_pi_fields[] = {
	[KIOBENCH_PI_CHECK_GUARD] = "GUARD",
	[KIOBENCH_PI_CHECK_REFTAG] = "REFTAG",
	[KIOBENCH_PI_CHECK_APPTAG] = "APPTAG",
};

static int p_pi_chk(const struct kb_opt *o, const char *val, struct kb_job *job,
		    struct kb_global *g, char *err, size_t errlen)
{
	uint32_t *bits = field(o, job, g);
	const char *p = val;

	*bits = 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		int i = kb_word_index_len(kb_pi_fields, sizeof(kb_pi_fields) /
					  sizeof(kb_pi_fields[0]), p, n);

		if (i < 0)
			return kb_errf(err, errlen, "invalid %s '%s' (GUARD, REFTAG, "
				       "APPTAG, comma-separated)", o->name, val);
		*bits |= 1U << i;
		p += n + (p[n] == ',');
	}
	if (!*bits)
		return kb_errf(err, errlen, "%s: one of GUARD, REFTAG, APPTAG at least", o->name);
	return 0;
}

static int p_plist(const struct kb_opt *o, const char *val, struct kb_job *job,
		   struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)g;
	return kb_parse_plist(val, job->plist, &job->nr_plist, err, errlen);
}

/*
 * direct=1 and buffered=0: what kiobench always does (its bios bypass the
 * page cache); direct=0 and buffered=1 ask for the page cache: refused.
 */
static int p_direct(const struct kb_opt *o, const char *val, struct kb_job *job,
		    struct kb_global *g, char *err, size_t errlen)
{
	bool on;

	(void)job; (void)g;
	if (kb_parse_bool(val, &on, err, errlen))
		return -1;
	if (on == (o->id == KB_OPT_BUFFERED))
		return kb_errf(err, errlen, "%s=%s is refused: buffered I/O: kiobench always "
			       "bypasses the page cache (direct=1)", o->name, val);
	return 0;
}

/*
 * slat_percentiles: kiobench has no submission latency (its one latency
 * runs from before submit_bio() to bi_end_io(), fio's lat); =0 is what it
 * does, =1 is refused.
 */
static int p_slat_pct(const struct kb_opt *o, const char *val, struct kb_job *job,
		      struct kb_global *g, char *err, size_t errlen)
{
	bool on;

	(void)job; (void)g;
	if (kb_parse_bool(val, &on, err, errlen))
		return -1;
	if (on)
		return kb_errf(err, errlen, "%s=%s is refused: %s", o->name, val,
			       KB_NO_SLAT);
	return 0;
}

/* fio's unified_rw_reporting: none, mixed, both, or its 0, 1, 2. */
static int p_unified(const struct kb_opt *o, const char *val, struct kb_job *job,
		     struct kb_global *g, char *err, size_t errlen)
{
	static const char *const names[][2] = {
		[KB_UNIFIED_NONE] = { "none", "0" },
		[KB_UNIFIED_MIXED] = { "mixed", "1" },
		[KB_UNIFIED_BOTH] = { "both", "2" },
	};
	unsigned int i;

	(void)o; (void)g;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(val, names[i][0]) || !strcmp(val, names[i][1])) {
			job->unified_rw = i;
			return 0;
		}
	}
	return kb_errf(err, errlen, "invalid unified_rw_reporting '%s' (none, mixed, both; "
		       "0, 1, 2)", val);
}

/* fio's unit_base: 0 auto (bytes for block I/O), 8 bytes, 1 bits. */
static int p_unit_base(const struct kb_opt *o, const char *val, struct kb_job *job,
		       struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)g;
	if (!strcmp(val, "0") || !strcmp(val, "8") || !strcmp(val, "1")) {
		job->unit_base = val[0] - '0';
		return 0;
	}
	return kb_errf(err, errlen, "invalid unit_base '%s' (0 auto, 8 bytes, 1 bits)", val);
}

/* log_alternate_epoch_clock_id: a clock clock_gettime() reads on this host. */
static int p_clock_id(const struct kb_opt *o, const char *val, struct kb_job *job,
		      struct kb_global *g, char *err, size_t errlen)
{
	struct timespec ts;
	uint64_t v;

	if (get_range(o, val, &v, err, errlen))
		return -1;
	if (clock_gettime((clockid_t)v, &ts))
		return kb_errf(err, errlen, "invalid clock id '%s' (clock_gettime: %s)", val,
			       strerror(errno));
	*(uint32_t *)field(o, job, g) = v;
	return 0;
}

static int p_log_cpus(const struct kb_opt *o, const char *val, struct kb_job *job,
		      struct kb_global *g, char *err, size_t errlen)
{
	uint32_t *v;
	unsigned int n;

	(void)o; (void)g;
	if (kb_parse_cpus(val, &v, &n, err, errlen))
		return -1;
	free(job->log_compression_cpus);
	job->log_compression_cpus = v;
	job->nr_log_compression_cpus = n;
	return 0;
}

/* fio's check_int(): a whole decimal or 0x number, as int. */
static bool fio_int(const char *val)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(val, &end, 0);
	return *val && !*end && !errno && v >= INT32_MIN && v <= INT32_MAX;
}

/*
 * fio's options about how fio itself runs (thread, threads, io_submit_mode,
 * verify_async_cpus): the value checked as fio checks it, nothing kept (the
 * run says once that they change nothing that reaches the device).
 */
static int p_host(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	uint32_t *cpus;
	unsigned int n;

	(void)job; (void)g;
	switch (o->id) {
	case KB_OPT_THREAD:	/* fio: FIO_OPT_STR_SET, any int (0: processes) */
	case KB_OPT_THREADS:	/* fio: FIO_OPT_INT */
	case KB_OPT_WRITE_BARRIER:	/* fio: FIO_OPT_INT */
		if (val && !fio_int(val))
			return kb_errf(err, errlen, "invalid number '%s'", val);
		return 0;
	case KB_OPT_IO_SUBMIT_MODE:
		if (strcmp(val, "inline") && strcmp(val, "offload"))
			return kb_errf(err, errlen, "invalid io_submit_mode '%s' (inline, offload)",
				       val);
		return 0;
	default:		/* verify_async_cpus: a CPU list */
		if (kb_parse_cpus(val, &cpus, &n, err, errlen))
			return -1;
		free(cpus);
		return 0;
	}
}

/*
 * fixedbufs, registerfiles: fio asks its engine for what
 * kiobench always does (the table's help says why); =0 is refused.
 */
static int p_always(const struct kb_opt *o, const char *val, struct kb_job *job,
		    struct kb_global *g, char *err, size_t errlen)
{
	bool on;

	(void)job; (void)g;
	if (kb_parse_bool(val, &on, err, errlen))
		return -1;
	if (!on)
		return kb_errf(err, errlen, "%s=%s is refused: kiobench always does it: %s",
			       o->name, val, o->help);
	return 0;
}

/* A way of submitting block I/O: kiobench's workers issue it in the kernel. */
static int p_ioengine(const struct kb_opt *o, const char *val, struct kb_job *job,
		      struct kb_global *g, char *err, size_t errlen)
{
	const struct kb_fio_engine *e = kb_fio_engine(val);

	(void)o; (void)g;
	if (!e)
		return kb_errf(err, errlen, "unknown ioengine '%s'", val);
	if (!e->accepted)
		return kb_errf(err, errlen, "ioengine '%s' is refused: %s", val, e->what);
	job->ioengine = e->name;
	job->sync_engine = e->sync;
	return 0;
}

static int p_kb_base(const struct kb_opt *o, const char *val, struct kb_job *job,
		     struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)g;
	if (strcmp(val, "1024") && strcmp(val, "1000"))
		return kb_errf(err, errlen, "invalid kb_base '%s' (1024 or 1000)", val);
	job->kb_base = atoi(val);
	return 0;
}

static int p_description(const struct kb_opt *o, const char *val, struct kb_job *job,
			 struct kb_global *g, char *err, size_t errlen)
{
	char *s;

	(void)o; (void)g;
	if (!*val)
		return kb_errf(err, errlen, "empty description");
	s = strdup(val);
	if (!s)
		return kb_errf(err, errlen, "out of memory");
	free(job->description);
	job->description = s;
	return 0;
}

/* run writes fio's formats; sweeps, preconditioning and suites their table's. */
unsigned int kb_cmd_formats(unsigned int cmd)
{
	return cmd == KB_CMD_RUN ? KB_FMT_RUN : cmd == KB_CMD_COMPARE ? KB_FMT_COMPARE :
	       cmd == KB_CMD_MERGE ? KB_FMT_COMPARE | KB_FMT_JSONPLUS : KB_FMT_STEPS;
}

/* json+ is json with more in it: not with terse, which fio's readers parse alone. */
static int p_outfmt(const struct kb_opt *o, const char *val, struct kb_job *job,
		    struct kb_global *g, char *err, size_t errlen)
{
	(void)o; (void)job;
	if (kb_parse_formats(val, kb_cmd_formats(g->cmd), &g->formats, err, errlen))
		return -1;
	if ((g->formats & KB_FMT_JSONPLUS) && (g->formats & KB_FMT_TERSE))
		return kb_errf(err, errlen, "json+ cannot be combined with terse: "
			       "write them in two runs");
	if (g->formats & KB_FMT_JSONPLUS)
		g->formats &= ~KB_FMT_JSON;	/* one document, with the bins */
	return 0;
}

/* --section=NAME, repeatable: the job sections that run. */
static int p_section(const struct kb_opt *o, const char *val, struct kb_job *job,
		     struct kb_global *g, char *err, size_t errlen)
{
	char **ns;

	(void)o; (void)job;
	if (!*val)
		return kb_errf(err, errlen, "empty section name");
	ns = realloc(g->sections, (g->nr_sections + 1) * sizeof(*ns));
	if (!ns)
		return kb_errf(err, errlen, "out of memory");
	g->sections = ns;
	ns[g->nr_sections] = strdup(val);
	if (!ns[g->nr_sections])
		return kb_errf(err, errlen, "out of memory");
	g->nr_sections++;
	return 0;
}

/* fio's zone_reset_threshold and _frequency: a fraction 0..1, in millionths */
static int p_fraction(const struct kb_opt *o, const char *val, struct kb_job *job,
		      struct kb_global *g, char *err, size_t errlen)
{
	char *end;
	double f;

	errno = 0;
	f = strtod(val, &end);
	if (errno || end == val || *end || !(f >= 0) || f > 1)
		return kb_errf(err, errlen, "invalid %s '%s' (a number from 0 to 1)", o->name, val);
	*(uint32_t *)field(o, job, g) = (uint32_t)(f * 1e6 + 0.5);
	return 0;
}

/* The kernel's bound on latency_target and latency_window: 1000000 s. */
#define KB_MAX_LATT_NS	(1000000ULL * 1000000000ULL)

/* fio's latency_percentile: a percentage, decimals allowed, to millionths. */
static int p_lat_pct(const struct kb_opt *o, const char *val, struct kb_job *job,
		     struct kb_global *g, char *err, size_t errlen)
{
	char *end;
	double f;

	errno = 0;
	f = strtod(val, &end);
	if (errno || end == val || *end || !(f >= 0) || f > 100)
		return kb_errf(err, errlen, "invalid latency_percentile '%s' (0 to 100)", val);
	*(uint32_t *)field(o, job, g) = (uint32_t)(f * 1e4 + 0.5);
	return 0;
}

/* compare: a percentage, decimals allowed. */
static int p_pct(const struct kb_opt *o, const char *val, struct kb_job *job,
		 struct kb_global *g, char *err, size_t errlen)
{
	char *end;
	double f;

	(void)job;
	errno = 0;
	f = strtod(val, &end);
	if (errno || end == val || *end || !(f >= o->min) || f > o->max)
		return kb_errf(err, errlen, "invalid percentage '%s' (must be %llu..%llu)", val,
			       (unsigned long long)o->min, (unsigned long long)o->max);
	*(double *)field(o, job, g) = f;
	return 0;
}

int kb_set_list(struct kb_global *g, enum kb_var var, const char *val)
{
	char *s = strdup(val);

	if (!s)
		return -1;
	free(g->list[var]);
	g->list[var] = s;
	return 0;
}

/* A value list of a swept variable (plan.c parses it). */
static int p_list(const struct kb_opt *o, const char *val, struct kb_job *job,
		  struct kb_global *g, char *err, size_t errlen)
{
	(void)job;
	if (kb_set_list(g, o->list_var, val))
		return kb_errf(err, errlen, "out of memory");
	return 0;
}

static int p_scale(const struct kb_opt *o, const char *val, struct kb_job *job,
		   struct kb_global *g, char *err, size_t errlen)
{
	char *end;
	double f;

	(void)o; (void)job;
	errno = 0;
	f = strtod(val, &end);
	if (errno || *end || !(f > 0) || f > 1)
		return kb_errf(err, errlen, "invalid factor '%s' (must be > 0 and <= 1)", val);
	g->scale = f;
	return 0;
}

static int p_quick(const struct kb_opt *o, const char *val, struct kb_job *job,
		   struct kb_global *g, char *err, size_t errlen)
{
	bool on;

	(void)o; (void)job;
	if (kb_parse_bool(val, &on, err, errlen))
		return -1;
	if (on)
		g->scale = KB_QUICK_SCALE;
	return 0;
}

/* ---- the table ----------------------------------------------------------- */

#define KB_STR_(x)	#x
#define KB_STR(x)	KB_STR_(x)
#define JOBF(f)		offsetof(struct kb_job, f)
#define CMDF(f)		offsetof(struct kb_global, f)

/* A job option: every command, command line and job files. */
#define JOB(_id, _name, _metavar, _parse, _help, ...)				\
	[_id] = { .name = _name, .id = _id, .mark = _id, .scope = KB_SCOPE_JOB,	\
		  .cmds = KB_CMD_ALL, .metavar = _metavar, .parse = _parse,	\
		  .help = _help, __VA_ARGS__ }
/* An option of the command line of the commands in _cmds. */
#define CMD(_id, _name, _cmds, _metavar, _parse, _help, ...)			\
	[_id] = { .name = _name, .id = _id, .mark = _id, .scope = KB_SCOPE_CLI,	\
		  .cmds = _cmds, .metavar = _metavar, .parse = _parse,		\
		  .help = _help, __VA_ARGS__ }
#define BOUNDS(lo, hi)	.min = (lo), .max = (hi)
/* The job's field f goes to the kernel as netlink attribute a when set. */
#define ATTR(a, f)	.attr = (a), .off = JOBF(f), .size = sizeof(((struct kb_job *)0)->f)
#define FLAG		.flag = true

const struct kb_opt kb_opts[KB_NR_OPTS] = {
	JOB(KB_OPT_NAME, "name", "NAME", p_name,
	    "job name (default: section name or \"kiobench\")",
	    .fio_case = "-it names the job in the report; nothing reaches the device"),
	JOB(KB_OPT_FILENAME, "filename", "DEV[:DEV...]", p_filename, "block devices",
	    .fio_case = "seq-window"),
	JOB(KB_OPT_RW, "rw", "MODE", p_rw, "read|write|randread|randwrite|rw|readwrite|randrw|"
	    "trim|randtrim|trimwrite|randtrimwrite|zone_reset|zone_open|zone_close|"
	    "zone_finish|zone_reset_all",
	    .alias = "readwrite", .def = "read",
	    .fio_case = "seq-window"),
	JOB(KB_OPT_RWMIXREAD, "rwmixread", "PCT", p_rwmix, "percent reads of a mixed workload",
	    BOUNDS(0, 100), .def = "50",
	    .fio_case = "mix-read-share"),
	/* the same setting as rwmixread: "set" marks rwmixread */
	[KB_OPT_RWMIXWRITE] = { .name = "rwmixwrite", .id = KB_OPT_RWMIXWRITE,
		.mark = KB_OPT_RWMIXREAD, .scope = KB_SCOPE_JOB, .cmds = KB_CMD_ALL,
		.metavar = "PCT", .parse = p_rwmix, .help = "percent writes of a mixed workload",
		BOUNDS(0, 100),
		.fio_case = "mix" },
	JOB(KB_OPT_BS, "bs", "SIZE", p_bs, "block size", .alias = "blocksize",
	    .def = KB_STR(KB_DEFAULT_BS), .list_var = KB_VAR_BS,
	    .list_help = "transfer sizes, e.g. 512-1m:x2 or 4k,8k,128k",
	    .fio_case = "seq-window"),
	JOB(KB_OPT_BSSPLIT, "bssplit", "SIZE/PCT:...[,...]", p_bssplit,
	    "block size mix with fio's shares (a remainder or a sum below 100 to the "
	    "largest; overrides bs); reads[,writes[,trims]]",
	    .fio_case = "mix"),
	/* the same setting as bssplit: "set" marks bssplit */
	[KB_OPT_BSRANGE] = { .name = "bsrange", .alias = "blocksize_range", .id = KB_OPT_BSRANGE,
		.mark = KB_OPT_BSSPLIT, .scope = KB_SCOPE_JOB, .cmds = KB_CMD_ALL,
		.metavar = "LO-HI[,...]", .parse = p_bssplit,
		.help = "block sizes drawn between LO and HI, multiples of LO, as fio's; "
			"reads[,writes[,trims]]",
		.fio_case = "mix-read-share" },
	JOB(KB_OPT_IODEPTH, "iodepth", "N", p_u32, "I/Os in flight per worker (1)",
	    ATTR(KIOBENCH_A_IODEPTH, iodepth), BOUNDS(1, UINT32_MAX), .list_var = KB_VAR_IODEPTH,
	    .list_help = "depths per worker (total with --split-qd), e.g. 1-16,18,20,24-64:4",
	    .fio_case = "depth"),
	JOB(KB_OPT_NUMJOBS, "numjobs", "N", p_u32,
	    "run: clones of the job (fio's); sweeps: workers per device (1)",
	    ATTR(KIOBENCH_A_NUMJOBS, numjobs), BOUNDS(1, UINT32_MAX), .list_var = KB_VAR_NUMJOBS,
	    .list_help = "workers per device",
	    .fio_case = "clones"),
	JOB(KB_OPT_CPUS, "cpus_allowed", "LIST", p_cpus, "CPUs for the workers, e.g. 0-3,6",
	    .fio_case = "cpus"),
	/* the same setting as cpus_allowed: "set" marks cpus_allowed */
	[KB_OPT_CPUMASK] = { .name = "cpumask", .id = KB_OPT_CPUMASK, .mark = KB_OPT_CPUS,
		.scope = KB_SCOPE_JOB, .cmds = KB_CMD_ALL, .metavar = "MASK",
		.parse = p_cpumask,
		.help = "CPUs for the workers as fio's bit mask (0x3: CPUs 0 and 1)",
		.fio_case = "cpumask" },
	/* the same setting again: "set" marks cpus_allowed */
	[KB_OPT_NUMA_CPU_NODES] = { .name = "numa_cpu_nodes", .id = KB_OPT_NUMA_CPU_NODES,
		.mark = KB_OPT_CPUS, .scope = KB_SCOPE_JOB, .cmds = KB_CMD_ALL,
		.metavar = "all|NODES", .parse = p_numa_nodes,
		.help = "CPUs for the workers: those of these NUMA nodes (sysfs)",
		.fio_case = "test_fio_numa.py::test_numa_cpu_nodes_as_fio" },
	JOB(KB_OPT_CPUS_POLICY, "cpus_allowed_policy", "shared|split", p_cpus_policy,
	    "shared: every worker may run on any CPU of the set; split: each job (each "
	    "numjobs clone) on one CPU of the set, round robin",
	    .def = "shared",
	    .fio_case = "cpus-split"),
	JOB(KB_OPT_SIZE, "size", "SIZE", p_size, "span length (to the end of the device)",
	    ATTR(KIOBENCH_A_SIZE, size), BOUNDS(1, UINT64_MAX),
	    .fio_case = "seq-window"),
	JOB(KB_OPT_OFFSET, "offset", "SIZE", p_size, "span start (0)",
	    .alias = "fileoffset", ATTR(KIOBENCH_A_OFFSET, offset), BOUNDS(0, UINT64_MAX),
	    .fio_case = "seq-window"),
	JOB(KB_OPT_IO_SIZE, "io_size", "SIZE", p_size, "bytes to transfer, all workers",
	    .alias = "io_limit", .off = JOBF(io_size), BOUNDS(1, UINT64_MAX),
	    .fio_case = "seq-io-size"),
	/* sent by code: times loops (kb_job_number_ios()) */
	JOB(KB_OPT_NUMBER_IOS, "number_ios", "N", p_u64, "I/Os to issue, all workers, each loop",
	    .off = JOBF(number_ios), .size = sizeof(uint64_t), BOUNDS(1, UINT64_MAX),
	    .fio_case = "number-ios"),
	JOB(KB_OPT_RUNTIME, "runtime", "TIME", p_time, "measured run time (after ramp_time)",
	    .alias = "timeout", ATTR(KIOBENCH_A_RUNTIME_NS, runtime_ns), BOUNDS(1, UINT64_MAX),
	    .fio_case = "runtime"),
	JOB(KB_OPT_TIME_BASED, "time_based", NULL, p_flag, "run for runtime, ignoring size",
	    .off = JOBF(time_based), FLAG,
	    .fio_case = "time-based"),
	JOB(KB_OPT_RAMP, "ramp_time", "TIME", p_time, "warm-up excluded from the statistics",
	    ATTR(KIOBENCH_A_RAMP_NS, ramp_ns), BOUNDS(0, UINT64_MAX),
	    .fio_case = "time-based"),
	/* sent by code: the run's job n's own (kb_job_seed()) */
	JOB(KB_OPT_SEED, "randseed", "N", p_u64, "random seed",
	    .off = JOBF(seed), .size = sizeof(uint64_t), BOUNDS(0, UINT64_MAX),
	    .fio_case = "randseed"),
	JOB(KB_OPT_PLIST, "percentile_list", "P:P:...", p_plist, "latency percentiles to report",
	    .def = "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99:99.999",
	    .fio_case = "json-percentiles"),
	JOB(KB_OPT_CLAT_PERCENTILES, "clat_percentiles", "BOOL", p_flag,
	    "the latency's percentiles: JSON's clat_ns, normal and terse output (1)",
	    .off = JOBF(clat_percentiles), FLAG, .def = "1",
	    .fio_case = "json-latencies"),
	JOB(KB_OPT_LAT_PERCENTILES, "lat_percentiles", "BOOL", p_flag,
	    "the latency's percentiles: JSON's lat_ns, normal and terse output (0)",
	    .off = JOBF(lat_percentiles), FLAG,
	    .fio_case = "json-latencies"),
	JOB(KB_OPT_SLAT_PERCENTILES, "slat_percentiles", "0", p_slat_pct,
	    "submission latency percentiles: kiobench has no submission latency "
	    "(slat_percentiles=1 is refused)",
	    .fio_case = "-slat_percentiles=1 is refused: kiobench stamps no submission latency; 0, fio's default, is what kiobench does"),
	JOB(KB_OPT_UNIFIED_RW, "unified_rw_reporting", "none|mixed|both", p_unified,
	    "none, mixed or both (fio's 0, 1, 2): reads, writes and trims reported apart, "
	    "summed as one \"mixed\" direction, or both", .def = "none",
	    .fio_case = "test_execmodel.py::test_unified_mixed_without_disk_util_as_fio"),
	JOB(KB_OPT_SIG_FIGS, "significant_figures", "N", p_u32,
	    "normal output: digits of IOPS, bandwidth and sizes (4)", .off = JOBF(sig_figs),
	    BOUNDS(1, 10), .def = "4",
	    .fio_case = "significant-figures"),
	JOB(KB_OPT_UNIT_BASE, "unit_base", "0|8|1", p_unit_base,
	    "0, 8 or 1 (auto, bytes, bits): the normal output's bandwidth in bytes or bits",
	    .off = JOBF(unit_base), .def = "0",
	    .fio_case = "unit-base"),
	JOB(KB_OPT_BWAVGTIME, "bwavgtime", "MS", p_u32,
	    "the window of the bandwidth samples (bw min, max, avg, stdev), a multiple of "
	    "interval (which it sets when not given); default: the timeline's interval (1s), "
	    "not fio's 500",
	    .off = JOBF(bw_avg_ms), BOUNDS(1, UINT32_MAX), .fio_case = "avg-windows"),
	JOB(KB_OPT_IOPSAVGTIME, "iopsavgtime", "MS", p_u32,
	    "the window of the IOPS samples, as bwavgtime's (default: the timeline's "
	    "interval, 1s)", .off = JOBF(iops_avg_ms), BOUNDS(1, UINT32_MAX),
	    .fio_case = "avg-windows"),
	JOB(KB_OPT_DISK_UTIL, "disk_util", "BOOL", p_flag,
	    "report the job's disks' statistics (1)", .off = JOBF(disk_util), FLAG,
	    .def = "1",
	    .fio_case = "test_execmodel.py::test_unified_mixed_without_disk_util_as_fio"),
	JOB(KB_OPT_INTERVAL, "interval", "TIME", p_time,
	    "timeline interval (1s; bwavgtime, iopsavgtime set it when not given)",
	    ATTR(KIOBENCH_A_INTERVAL_NS, interval_ns), BOUNDS(1, UINT64_MAX),
	    .fio_case = "-kiobench's own: fio has no such option"),
	/* fio's error types; put as ignore_error's lists by kb_nl_job_new()'s code */
	JOB(KB_OPT_CONT_ERR, "continue_on_error", "none|read|write|io|verify|all",
	    p_continue_on_error, "fio's error types whose EIO and EILSEQ, or ignore_error "
	    "list's errors, are counted and gone on from; any other error stops the job "
	    "(none; bare: all)", .off = JOBF(coe_given), FLAG,
	    .fio_case = "test_errors.py::test_continue_on_error_as_fio"),
	JOB(KB_OPT_LAT_LOG, "write_lat_log", "FILE", p_log,
	    "fio's latency logs FILE_lat.N.log and FILE_clat.N.log (FILE: the job's name "
	    "when not given)", .off = JOBF(lat_log), FLAG,
	    .fio_case = "logs"),
	JOB(KB_OPT_LAT_LOG_ENTRIES, "lat_log_entries", "N", p_u32,
	    "most I/Os in the per-I/O log (every log's source)", .off = JOBF(lat_log_entries),
	    BOUNDS(1, UINT32_MAX), .def = "1048576",
	    .fio_case = "-kiobench's own: fio has no such option"),
	JOB(KB_OPT_RATE_IOPS, "rate_iops", "R[,W[,T]]", p_rate,
	    "open loop: I/Os per second per worker and direction, on a schedule (a mix "
	    "at N: N reads and N writes a second)",
	    BOUNDS(1, KIOBENCH_MAX_RATE_IOPS), .list_var = KB_VAR_RATE,
	    .list_help = "rates per worker, e.g. 1000-8000:x2 (latency against load)",
	    .fio_case = "test_rate.py::test_rate_iops_paces_each_direction_of_a_mix"),
	JOB(KB_OPT_RATE_PROCESS, "rate_process", "linear|poisson", p_rate_process,
	    "arrivals of rate_iops (linear)", ATTR(KIOBENCH_A_RATE_PROCESS, rate_process),
	    .fio_case = "rate-process"),
	JOB(KB_OPT_STAGES, "stages", NULL, p_flag,
	    "split latency into queue, device and complete stages",
	    ATTR(KIOBENCH_A_STAGES, stages), FLAG,
	    .fio_case = "-kiobench's own: fio has no such option"),
	JOB(KB_OPT_HIPRI, "hipri", NULL, p_flag,
	    "polled completion (REQ_POLLED, bio_poll); needs poll queues", .off = JOBF(hipri), FLAG,
	    .fio_case = "hipri"),
	JOB(KB_OPT_SPIN, "spin", NULL, p_flag,
	    "workers busy-wait for completions instead of sleeping", .off = JOBF(spin), FLAG,
	    .fio_case = "-kiobench's own: fio has no such option"),
	JOB(KB_OPT_NORANDOMMAP, "norandommap", NULL, p_flag,
	    "random offsets with replacement (default: each block once per pass)",
	    .off = JOBF(norandommap), FLAG,
	    .fio_case = "randmap"),
	JOB(KB_OPT_RANDREPEAT, "randrepeat", "BOOL", p_flag,
	    "the same random sequence every run (1); 0: a new seed each run",
	    .off = JOBF(randrepeat), FLAG, .def = "1",
	    .fio_case = "randrepeat"),
	JOB(KB_OPT_ALLRANDREPEAT, "allrandrepeat", "BOOL", p_flag,
	    "every random number repeatable (one seed drives them all here)",
	    .off = JOBF(allrandrepeat), FLAG,
	    .fio_case = "allrandrepeat"),
	JOB(KB_OPT_RANDGEN, "random_generator", "tausworthe|lfsr|tausworthe64", p_randgen,
	    "fio's offset generator: kiobench's kernel runs its own with the same guarantee "
	    "(lfsr: several sizes not cut, as fio's lfsr keeps no map)",
	    .def = "tausworthe",
	    .fio_case = "lfsr-bssplit"),
	JOB(KB_OPT_SOFTRANDOMMAP, "softrandommap", "BOOL", p_flag,
	    "fio's fallback to norandommap when its map cannot be allocated: no effect "
	    "(kiobench's map is made with the job, or the job refused)",
	    .off = JOBF(softrandommap), FLAG,
	    .fio_case = "-the random map is made with the job or the job refused: fio's "
			"fallback never applies"),
	JOB(KB_OPT_RANDOM_DIST, "random_distribution",
	    "random|zipf[:T]|pareto[:H]|normal[:DEV]|zoned:A/S:...|zoned_abs:A/SIZE:...",
	    p_random_dist, "skewed random offsets: zipf, pareto, normal, or zones with their "
	    "share of the accesses (fio's)", .def = "random",
	    .fio_case = "mix"),
	JOB(KB_OPT_DIRECT, "direct", "1", p_direct,
	    "bypass the page cache: kiobench always does (direct=0 is refused)",
	    .fio_case = "-kiobench's I/O is always direct (direct=0 is refused)"),
	JOB(KB_OPT_BUFFERED, "buffered", "0", p_direct,
	    "the page cache: kiobench never uses it (buffered=1 is refused)",
	    .fio_case = "-kiobench's I/O is always direct (buffered=1 is refused)"),
	JOB(KB_OPT_IOENGINE, "ioengine", "ENGINE", p_ioengine,
	    "fio's engines that submit block I/O (libaio, io_uring, posixaio, sync, psync, "
	    "pvsync, pvsync2): kiobench issues the I/O in the kernel; the synchronous ones "
	    "keep one I/O in flight per worker",
	    .fio_case = "engine-depth"),
	JOB(KB_OPT_KB_BASE, "kb_base", "1024|1000", p_kb_base,
	    "what k and ki mean in sizes: 1024: k=1024, ki=1000 (fio's old-script "
	    "compatibility); 1000: k=1000, ki=1024", .def = "1024",
	    .fio_case = "kb-base"),
	JOB(KB_OPT_DESCRIPTION, "description", "TEXT", p_description,
	    "text printed with the job's report",
	    .fio_case = "-a comment for the report; nothing reaches the device"),
	JOB(KB_OPT_FIXEDBUFS, "fixedbufs", NULL, p_always,
	    "I/O buffers mapped once, not per I/O: kiobench's are kernel pages allocated "
	    "once per I/O slot", FLAG,
	    .fio_case = "-io_uring's registered buffers: kiobench has no user buffers to register"),
	JOB(KB_OPT_REGISTERFILES, "registerfiles", NULL, p_always,
	    "files opened once, not looked up per I/O: kiobench holds each device open for "
	    "the whole job", FLAG,
	    .fio_case = "-io_uring's registered files: kiobench opens no files to register"),
	JOB(KB_OPT_RAW_LAT_LOG, "raw_lat_log", "FILE", p_str,
	    "the kernel's per-I/O log to FILE, in kiobench's format (ns times)",
	    .off = JOBF(raw_lat_log),
	    .fio_case = "-kiobench's own: fio has no such option"),
	JOB(KB_OPT_BW_LOG, "write_bw_log", "FILE", p_log,
	    "fio's bandwidth log FILE_bw.N.log (FILE: the job's name when not given)",
	    .off = JOBF(bw_log), FLAG,
	    .fio_case = "logs"),
	JOB(KB_OPT_IOPS_LOG, "write_iops_log", "FILE", p_log,
	    "fio's IOPS log FILE_iops.N.log (FILE: the job's name when not given)",
	    .off = JOBF(iops_log), FLAG,
	    .fio_case = "logs"),
	JOB(KB_OPT_HIST_LOG, "write_hist_log", "FILE", p_log,
	    "fio's latency histogram log FILE_clat_hist.N.log (with log_hist_msec; FILE: the "
	    "job's name when not given)", .off = JOBF(hist_log), FLAG,
	    .fio_case = "hist-log"),
	JOB(KB_OPT_LOG_AVG_MSEC, "log_avg_msec", "N", p_u32,
	    "bw, iops and latency logs: a line per N ms window, not per I/O (0)",
	    .off = JOBF(log_avg_msec), BOUNDS(0, UINT32_MAX),
	    .fio_case = "logs"),
	JOB(KB_OPT_LOG_OFFSET, "log_offset", NULL, p_flag, "logs give each I/O's offset",
	    .off = JOBF(log_offset), FLAG,
	    .fio_case = "logs"),
	JOB(KB_OPT_LOG_PRIO, "log_prio", NULL, p_flag,
	    "logs give each I/O's priority value (0x4005), not 1 for realtime",
	    .off = JOBF(log_prio), FLAG,
	    .fio_case = "log-prio"),
	JOB(KB_OPT_LOG_HIST_MSEC, "log_hist_msec", "N", p_u32,
	    "write_hist_log: a histogram per N ms window", .off = JOBF(log_hist_msec),
	    BOUNDS(1, UINT32_MAX),
	    .fio_case = "hist-log"),
	JOB(KB_OPT_LOG_HIST_COARSENESS, "log_hist_coarseness", "N", p_u32,
	    "write_hist_log: 2^N of fio's 1856 bins summed into one (0)",
	    .off = JOBF(log_hist_coarseness), BOUNDS(0, 6),
	    .fio_case = "hist-coarse"),
	JOB(KB_OPT_PER_JOB_LOGS, "per_job_logs", NULL, p_flag,
	    "log names carry the job's number", .off = JOBF(per_job_logs), FLAG, .def = "1",
	    .fio_case = "logs"),
	JOB(KB_OPT_LOG_MAX_VALUE, "log_max_value", "BOOL", p_flag,
	    "log_avg_msec: the lat and clat logs give each window's largest latency, not "
	    "its mean", .off = JOBF(log_max_value), FLAG, .fio_case = "log-max"),
	JOB(KB_OPT_LOG_UNIX_EPOCH, "log_unix_epoch", "BOOL", p_flag,
	    "log times in ms on log_alternate_epoch_clock_id's clock (Unix time), not from "
	    "the job's start", .off = JOBF(log_unix_epoch), FLAG,
	    .fio_case = "logs-epoch"),
	JOB(KB_OPT_LOG_ALT_EPOCH, "log_alternate_epoch", "BOOL", p_flag,
	    "log times in ms on log_alternate_epoch_clock_id's clock, not from the job's "
	    "start", .off = JOBF(log_alternate_epoch), FLAG,
	    .fio_case = "logs-alt-epoch"),
	JOB(KB_OPT_LOG_ALT_EPOCH_CLOCK, "log_alternate_epoch_clock_id", "N", p_clock_id,
	    "the clock_gettime() clock of log_unix_epoch and log_alternate_epoch "
	    "(0: CLOCK_REALTIME)", .off = JOBF(log_epoch_clock), BOUNDS(0, INT32_MAX),
	    .def = "0",
	    .fio_case = "logs-alt-epoch"),
	JOB(KB_OPT_LOG_ENTRIES, "log_entries", "N", p_u32,
	    "fio's initial log allocation: no effect (the kernel's per-I/O log holds "
	    "lat_log_entries; the logs are written from it after the run)",
	    .off = JOBF(log_entries), BOUNDS(1024, 1048576), .def = "1024",
	    .fio_case = "-the initial size of fio's in-memory log: no effect on the log written"),
	JOB(KB_OPT_LOG_COMPRESSION, "log_compression", "SIZE", p_size32,
	    "fio's log chunks: with log_store_compressed, a zlib stream per SIZE bytes of "
	    "samples; alone no effect (nothing to save: the logs are written after the run)",
	    .off = JOBF(log_compression), BOUNDS(1024, 512 * 1024 * 1024),
	    .fio_case = "-fio's in-memory log compression: no effect on the log written"),
	JOB(KB_OPT_LOG_COMPRESSION_CPUS, "log_compression_cpus", "LIST", p_log_cpus,
	    "CPUs the tool compresses the logs on (log_store_compressed)",
	    .fio_case = "-the CPUs the tool compresses its logs on, after the run: nothing of it reaches the device or the logs' content"),
	JOB(KB_OPT_LOG_STORE_COMPRESSED, "log_store_compressed", "BOOL", p_flag,
	    "fio's logs zlib-compressed as FILE_TYPE.N.log.fz (fio --inflate-log reads "
	    "them)", .off = JOBF(log_store_compressed), FLAG,
	    .fio_case = "logs-compressed"),
	JOB(KB_OPT_WRITE_IOLOG, "write_iolog", "FILE", p_str,
	    "fio's I/O log (version 3) of every I/O the job issued, appended to FILE, "
	    "which fio's read_iolog replays", .off = JOBF(write_iolog),
	    .fio_case = "write-iolog"),
	/* fio's execution model: the tool sequences the jobs (run.c) */
	JOB(KB_OPT_STONEWALL, "stonewall", NULL, p_flag,
	    "start after every job above has ended; starts a new group",
	    .alias = "wait_for_previous", .off = JOBF(stonewall), FLAG,
	    .fio_case = "test_execmodel.py::test_order_from_the_trace"),
	JOB(KB_OPT_NEW_GROUP, "new_group", NULL, p_flag,
	    "start a new reporting group (the jobs still start together)",
	    .off = JOBF(new_group), FLAG,
	    .fio_case = "new-group"),
	JOB(KB_OPT_WAIT_FOR, "wait_for", "NAME", p_wait_for,
	    "start after every clone of job NAME (above this one) has ended",
	    .fio_case = "test_execmodel.py::test_order_from_the_trace"),
	JOB(KB_OPT_GROUP_REPORTING, "group_reporting", NULL, p_flag,
	    "report the group's jobs that set it as one", .off = JOBF(group_reporting),
	    FLAG,
	    .fio_case = "json-group"),
	JOB(KB_OPT_STARTDELAY, "startdelay", "TIME[-TIME]", p_startdelay,
	    "start TIME after the run starts (a range: each clone draws its own)",
	    .fio_case = "time-based"),
	JOB(KB_OPT_LOOPS, "loops", "N", p_u32, "repeat the job's I/O N times (1)",
	    .off = JOBF(loops), BOUNDS(1, UINT32_MAX), .def = "1",
	    .fio_case = "seq-window"),
	JOB(KB_OPT_EXITALL, "exitall", NULL, p_flag,
	    "when this job ends, stop the jobs exit_what names", .off = JOBF(exitall), FLAG,
	    .fio_case = "exitall"),
	JOB(KB_OPT_EXIT_WHAT, "exit_what", "group|stonewall|all", p_exit_what,
	    "what exitall stops (group)",
	    .fio_case = "exitall-on-error"),
	JOB(KB_OPT_EXITALL_ON_ERROR, "exitall_on_error", NULL, p_flag,
	    "when this job ends in error, stop the jobs exit_what names",
	    .off = JOBF(exitall_on_error), FLAG,
	    .fio_case = "exitall-on-error"),
	JOB(KB_OPT_OFFSET_ALIGN, "offset_align", "SIZE", p_size,
	    "align offset=N% up to SIZE (0: the smallest block size), a multiple of 512",
	    .off = JOBF(offset_align), BOUNDS(0, UINT64_MAX),
	    .fio_case = "seq-window"),
	JOB(KB_OPT_OFFSET_INCREMENT, "offset_increment", "SIZE|N%", p_size,
	    "clone k starts at offset + k x SIZE (N%: of the device, the sum aligned up as "
	    "offset=N%)", .off = JOBF(offset_increment),
	    BOUNDS(0, UINT64_MAX),
	    .fio_case = "clones"),
	/* kiobench's own: run's numjobs are fio's clones, each a job of its own */
	[KB_OPT_WORKERS] = { .name = "workers", .id = KB_OPT_WORKERS, .mark = KB_OPT_WORKERS,
		.scope = KB_SCOPE_JOB, .cmds = KB_CMD_RUN, .metavar = "N", .parse = p_u32,
		.help = "kiobench's own: workers per device in each job, reported as one (1)",
		.off = JOBF(workers), BOUNDS(1, UINT32_MAX),
		.fio_case = "-kiobench's own: fio has no such option" },
	/* fio's I/O priorities: the kernel sets them on each bio's bi_ioprio */
	JOB(KB_OPT_PRIOCLASS, "prioclass", "0-3", p_prio,
	    "I/O priority class of every I/O: 1 realtime, 2 best-effort, 3 idle, "
	    "0 none (the worker's own)", .off = JOBF(prioclass), BOUNDS(0, 3),
	    .fio_case = "test_prio.py::test_cmdprio_bssplit_per_size_as_fio"),
	JOB(KB_OPT_PRIO, "prio", "0-7", p_prio,
	    "I/O priority level within prioclass (0: highest)", .off = JOBF(prio),
	    BOUNDS(0, 7),
	    .fio_case = "test_prio.py::test_cmdprio_bssplit_per_size_as_fio"),
	JOB(KB_OPT_CMDPRIO_PCT, "cmdprio_percentage", "PCT[,PCT]", p_cmdprio,
	    "share of the I/Os (reads,writes) issued with cmdprio_class/cmdprio instead; "
	    "latency is then reported per priority (clat prio)", .off = JOBF(cmdprio_pct),
	    BOUNDS(0, 100),
	    .fio_case = "cmdprio-percentage"),
	JOB(KB_OPT_CMDPRIO_CLASS, "cmdprio_class", "0-3[,0-3]", p_cmdprio,
	    "priority class of the cmdprio_percentage share (1: realtime)",
	    .off = JOBF(cmdprio_class), BOUNDS(0, 3), .def = "1",
	    .fio_case = "test_prio.py::test_cmdprio_bssplit_per_size_as_fio"),
	JOB(KB_OPT_CMDPRIO, "cmdprio", "0-7[,0-7]", p_cmdprio,
	    "priority level of the cmdprio_percentage share (0)", .off = JOBF(cmdprio),
	    BOUNDS(0, 7),
	    .fio_case = "test_prio.py::test_cmdprio_bssplit_per_size_as_fio"),
	JOB(KB_OPT_PERCENTAGE_RANDOM, "percentage_random", "PCT[,PCT]", p_cmdprio,
	    "share of a random job's I/Os (reads,writes) at random offsets; the others go "
	    "on from where the previous one ended", .off = JOBF(percentage_random),
	    BOUNDS(0, 100), .def = "100",
	    .fio_case = "test_fio_files.py::test_percentage_random_goes_on_where_the_last_io_ended_as_fio"),
	/* fio's verify: the kernel's workers fill and check (kmod/verify.c) */
	JOB(KB_OPT_VERIFY, "verify", "METHOD", p_verify,
	    "crc32c|crc64|xxhash|sha256|md5|meta|pattern: headers and checksums on the writes, "
	    "checked on the reads (a write job's read-back; every read of a job that only "
	    "reads)", .off = JOBF(verify),
	    .fio_case = "test_verify.py::test_read_job_checks_what_it_reads_as_fio"),
	JOB(KB_OPT_VERIFY_PATTERN, "verify_pattern", "PATTERN", p_vpattern,
	    "bytes the verified blocks are filled with: 0xHEX, a number, \"text\", joined",
	    .fio_case = "verify-pattern"),
	JOB(KB_OPT_VERIFY_INTERVAL, "verify_interval", "SIZE", p_size32,
	    "bytes of each verify header and checksum (the smallest block size); capped as "
	    "fio caps it: at the writes' smallest size, a divisor of theirs",
	    ATTR(KIOBENCH_A_VERIFY_INTERVAL, verify_interval), BOUNDS(512, UINT32_MAX),
	    .fio_case = "verify-interval"),
	JOB(KB_OPT_VERIFY_OFFSET, "verify_offset", "SIZE", p_size32,
	    "where the verify header sits in each interval (0)",
	    ATTR(KIOBENCH_A_VERIFY_OFFSET, verify_offset), BOUNDS(0, UINT32_MAX),
	    .fio_case = "verify-interval"),
	JOB(KB_OPT_DO_VERIFY, "do_verify", "BOOL", p_flag,
	    "a write job with verify reads back what it wrote (1)",
	    ATTR(KIOBENCH_A_DO_VERIFY, do_verify), FLAG, .def = "1",
	    .fio_case = "verify-read-back"),
	JOB(KB_OPT_VERIFY_ONLY, "verify_only", "BOOL", p_flag,
	    "a write job with verify only reads and checks what it wrote before",
	    ATTR(KIOBENCH_A_VERIFY_ONLY, verify_only), FLAG,
	    .fio_case = "verify-only"),
	JOB(KB_OPT_VERIFY_FATAL, "verify_fatal", "BOOL", p_flag,
	    "the first data mismatch stops the job, even when verify errors go on (a wrong "
	    "header does not)",
	    ATTR(KIOBENCH_A_VERIFY_FATAL, verify_fatal), FLAG,
	    .fio_case = "verify-fatal"),
	JOB(KB_OPT_VERIFY_DUMP, "verify_dump", "BOOL", p_flag,
	    "save the expected and received copies of the first mismatches, as fio names "
	    "them, in the working directory: DEVICE.OFFSET.received and .expected (a "
	    "wrong header: .hdr_fail, the read alone)",
	    ATTR(KIOBENCH_A_VERIFY_DUMP, verify_dump), FLAG, .fio_case = "verify-dump"),
	JOB(KB_OPT_VERIFY_GENERATION, "verify_generation", "N", p_u32,
	    "kiobench's: the generation verify headers carry; another one read back is a "
	    "lost write (0)", ATTR(KIOBENCH_A_VERIFY_GENERATION, verify_generation),
	    BOUNDS(0, UINT32_MAX),
	    .fio_case = "-kiobench's own: fio has no such option"),
	JOB(KB_OPT_EXPERIMENTAL_VERIFY, "experimental_verify", "BOOL", p_flag,
	    "the read-back replays the writes in the order they were issued, duplicates too; "
	    "off, a job without a random map (sequential, norandommap, lfsr) reads back each "
	    "surviving write once, lowest offset first, as fio (0)",
	    .off = JOBF(experimental_verify), FLAG,
	    .fio_case = "-fio 3.33's code reads nothing back with it (libaio sends the replay as "
	    "writes, psync replays other offsets, time_based reads nothing): its HOWTO's meaning "
	    "is taken, the write pass replayed as reads; its default (0) is case verify-sorted"),
	/* fio's thinktime: the kernel's workers pause (kmod/worker.c) */
	JOB(KB_OPT_THINKTIME, "thinktime", "TIME", p_time_us,
	    "pause TIME (bare number: us) after thinktime_blocks completions, the I/O in "
	    "flight drained first", ATTR(KIOBENCH_A_THINKTIME_NS, thinktime_ns),
	    BOUNDS(1, KB_MAX_THINK_NS),
	    .fio_case = "test_thinktime.py::test_thinktime_pauses_after_every_blocks_ios"),
	JOB(KB_OPT_THINKTIME_SPIN, "thinktime_spin", "TIME", p_time_us,
	    "spin TIME (bare number: us) of each pause, sleep the rest",
	    .off = JOBF(thinktime_spin_ns), BOUNDS(0, KB_MAX_THINK_NS),
	    .fio_case = "-the pause's first part is spent spinning rather than sleeping: the device sees the same pause, only the CPU's time differs"),
	JOB(KB_OPT_THINKTIME_BLOCKS, "thinktime_blocks", "N", p_u32,
	    "completions between pauses (1)", ATTR(KIOBENCH_A_THINKTIME_BLOCKS, thinktime_blocks),
	    BOUNDS(1, UINT32_MAX),
	    .fio_case = "test_thinktime.py::test_thinktime_pauses_after_every_blocks_ios"),
	JOB(KB_OPT_THINKTIME_BLOCKS_TYPE, "thinktime_blocks_type", "complete", p_think_type,
	    "what thinktime_blocks counts: completions (issue is refused)",
	    .fio_case = "-only complete, fio's default, is taken (issue is refused): no other meaning to compare"),
	JOB(KB_OPT_THINKTIME_IOTIME, "thinktime_iotime", "TIME", p_time,
	    "also pause after TIME (bare number: s) of I/O since the last pause",
	    ATTR(KIOBENCH_A_THINKTIME_IOTIME_NS, thinktime_iotime_ns), BOUNDS(1, KB_MAX_THINK_NS),
	    .fio_case = "thinktime-iotime"),
	JOB(KB_OPT_RATE, "rate", "R[,W[,T]]", p_rate,
	    "cap bytes/s per direction (one block size a direction, one worker): "
	    "run as rate_iops",
	    .fio_case = "test_rate.py::test_rate_holds_the_byte_rate"),
	JOB(KB_OPT_RATE_MIN, "rate_min", "R[,W[,T]]", p_min_rate,
	    "fail the job when a direction's bytes/s over rate_cycle fall under this",
	    .alias = "ratemin",
	    .fio_case = "rate-min"),
	JOB(KB_OPT_RATE_IOPS_MIN, "rate_iops_min", "R[,W[,T]]", p_min_rate,
	    "fail the job when a direction's IOPS over rate_cycle fall under this",
	    .fio_case = "test_execmodel.py::test_a_limit_fails_the_job_as_fio"),
	JOB(KB_OPT_MAX_LATENCY, "max_latency", "TIME[,TIME[,TIME]]", p_max_latency,
	    "fail the job when an I/O of a direction takes longer (a bare number: usec)",
	    .fio_case = "test_execmodel.py::test_a_limit_fails_the_job_as_fio"),
	JOB(KB_OPT_RATE_CYCLE, "rate_cycle", "MSEC", p_u32,
	    "the period of rate_min's and rate_iops_min's check (1000)", .alias = "ratecycle",
	    .off = JOBF(limits.cycle_ms), BOUNDS(1, 3600000), .def = "1000",
	    .fio_case = "rate-min"),
	JOB(KB_OPT_SS, "steadystate", "iops|iops_slope|bw|bw_slope:LIMIT[%]", p_ss,
	    "stop the job at steady state: each of the last ss_dur 1 s samples within "
	    "LIMIT of their mean, or their slope under LIMIT (fio's)", .alias = "ss",
	    .def = "iops_slope:0.01%",
	    .fio_case = "test_execmodel.py::test_steadystate_stops_the_job_as_fio"),
	JOB(KB_OPT_SS_DUR, "steadystate_duration", "TIME", p_ss_time,
	    "the steady-state window, whole seconds (0: no check)", .alias = "ss_dur",
	    .def = "0",
	    .fio_case = "steadystate"),
	JOB(KB_OPT_SS_RAMP, "steadystate_ramp_time", "TIME", p_ss_time,
	    "run this long before the steady-state samples start", .alias = "ss_ramp",
	    .def = "0",
	    .fio_case = "steadystate"),
	/* the operations (kmod/worker.c's kb_opf()) */
	JOB(KB_OPT_WRITE_MODE, "write_mode", "write|zeroes|zone_append", p_write_mode,
	    "zeroes: writes are write zeroes (REQ_OP_WRITE_ZEROES, REQ_NOUNMAP), no data; "
	    "zone_append: zone appends (REQ_OP_ZONE_APPEND, with zonemode=zbd)",
	    ATTR(KIOBENCH_A_WRITE_ZEROES, write_zeroes), FLAG, .def = "write",
	    .fio_case = "-kiobench's own: fio has no such option"),
	JOB(KB_OPT_ZEROES_UNMAP, "write_zeroes_unmap", NULL, p_flag,
	    "write_mode=zeroes without REQ_NOUNMAP: the device may deallocate the blocks",
	    ATTR(KIOBENCH_A_ZEROES_UNMAP, zeroes_unmap), FLAG,
	    .fio_case = "-kiobench's own: fio has no such option"),
	JOB(KB_OPT_FSYNC, "fsync", "N", p_u32,
	    "a flush (REQ_PREFLUSH) after every N writes, at the job's depth (0: none)",
	    .off = JOBF(fsync), BOUNDS(0, UINT32_MAX),
	    .fio_case = "fsync"),
	JOB(KB_OPT_FDATASYNC, "fdatasync", "N", p_u32,
	    "the same as fsync: a block device has no metadata of its own to skip",
	    .off = JOBF(fdatasync), BOUNDS(0, UINT32_MAX),
	    .fio_case = "fdatasync"),
	JOB(KB_OPT_END_FSYNC, "end_fsync", NULL, p_flag,
	    "a flush at the end of each worker's writes, in each of fio's rounds (loops)",
	    .off = JOBF(end_fsync), FLAG, .fio_case = "end-fsync"),
	JOB(KB_OPT_WRITEFUA, "writefua", NULL, p_flag,
	    "writes with REQ_FUA (emulated with a flush by a device without FUA)",
	    ATTR(KIOBENCH_A_WRITEFUA, writefua), FLAG,
	    .fio_case = "-kiobench's own: fio has no such option"),
	JOB(KB_OPT_ATOMIC, "atomic", NULL, p_flag,
	    "writes are atomic (REQ_ATOMIC, 6.11+): one bs, a power of two within the "
	    "device's atomic write limits", ATTR(KIOBENCH_A_ATOMIC, atomic), FLAG,
	    .fio_case = "-fio 3.33 refuses atomic=1 on Linux (no O_ATOMIC: \"OS does not support atomic IO\"); fio 3.38 sends RWF_ATOMIC writes, REQ_ATOMIC, as kiobench (test_ops.py checks the device's atomic writes)"),
	JOB(KB_OPT_LOCALITY, "locality", NULL, p_flag,
	    "split latency into completions on the submitting CPU and on another one",
	    ATTR(KIOBENCH_A_LOCALITY, locality), FLAG,
	    .fio_case = "-kiobench's own: fio has no such option"),
	JOB(KB_OPT_ZONEMODE, "zonemode", "none|strided|zbd", p_zonemode,
	    "strided: I/O in zones of zonerange bytes, zonesize bytes each, zoneskip "
	    "apart; zbd: writes at the write pointers of a zoned device's zones, reads "
	    "below them, trims reset zones", ATTR(KIOBENCH_A_ZONEMODE, zonemode),
	    .fio_case = "test_fio_patterns.py::test_strided_sequential_zones_as_fio"),
	JOB(KB_OPT_MAX_OPEN_ZONES, "max_open_zones", "N", p_u32,
	    "zonemode=zbd: zones of each device open at once (the device's limit)",
	    ATTR(KIOBENCH_A_MAX_OPEN_ZONES, max_open_zones), BOUNDS(1, KB_MAX_OPEN_ZONES),
	    .fio_case = "test_zoned.py::test_zbd_randwrite_beside_fio"),
	JOB(KB_OPT_JOB_MAX_OPEN_ZONES, "job_max_open_zones", "N", p_u32,
	    "zonemode=zbd: zones each worker keeps open (its share of max_open_zones)",
	    ATTR(KIOBENCH_A_JOB_MAX_OPEN_ZONES, job_max_open_zones), BOUNDS(1, KB_MAX_OPEN_ZONES),
	    .fio_case = "job-max-open-zones"),
	JOB(KB_OPT_IGNORE_ZONE_LIMITS, "ignore_zone_limits", NULL, p_flag,
	    "zonemode=zbd: the device's max_open_zones and max_active_zones are not applied",
	    ATTR(KIOBENCH_A_IGNORE_ZONE_LIMITS, ignore_zone_limits), FLAG,
	    .fio_case = "ignore-zone-limits"),
	JOB(KB_OPT_READ_BEYOND_WP, "read_beyond_wp", NULL, p_flag,
	    "zonemode=zbd: reads go to their offsets, past the write pointers too",
	    ATTR(KIOBENCH_A_READ_BEYOND_WP, read_beyond_wp), FLAG,
	    .fio_case = "read-beyond-wp"),
	JOB(KB_OPT_ZONE_RESET_THRESHOLD, "zone_reset_threshold", "F", p_fraction,
	    "zonemode=zbd: the share (0..1) of a worker's zones holding data past which "
	    "zone_reset_frequency resets zones", ATTR(KIOBENCH_A_ZONE_RESET_THRESHOLD,
						      zone_reset_threshold),
	    .fio_case = "zone-reset"),
	JOB(KB_OPT_ZONE_RESET_FREQUENCY, "zone_reset_frequency", "F", p_fraction,
	    "zonemode=zbd: past zone_reset_threshold, one write in 1/F resets its zone first",
	    ATTR(KIOBENCH_A_ZONE_RESET_FREQUENCY, zone_reset_frequency), .fio_case = "zone-reset"),
	JOB(KB_OPT_ZONE_MGMT, "zone_mgmt", NULL, p_flag,
	    "zonemode=zbd writes: the zone resets the job issues are timed, as zone_reset ops",
	    .off = JOBF(zone_mgmt), FLAG,
	    .fio_case = "-kiobench's own: fio has no such option"),
	/* fio's latency target: each kernel worker's depth search (kmod/latt.c) */
	JOB(KB_OPT_LATENCY_TARGET, "latency_target", "TIME", p_time_us,
	    "find the highest depth up to iodepth at which latency_percentile of the I/Os "
	    "complete within TIME (bare number: us)",
	    ATTR(KIOBENCH_A_LATENCY_TARGET_NS, latency_target_ns), BOUNDS(1, KB_MAX_LATT_NS),
	    .fio_case = "test_latency_target.py::test_latency_target_as_fio"),
	JOB(KB_OPT_LATENCY_WINDOW, "latency_window", "TIME", p_time_us,
	    "the time each depth is tried (bare number: us; 0: each round of completions)",
	    ATTR(KIOBENCH_A_LATENCY_WINDOW_NS, latency_window_ns), BOUNDS(0, KB_MAX_LATT_NS),
	    .fio_case = "test_latency_target.py::test_latency_target_as_fio"),
	JOB(KB_OPT_LATENCY_PERCENTILE, "latency_percentile", "PCT", p_lat_pct,
	    "the share of a window's I/Os within latency_target for it to hold (100)",
	    ATTR(KIOBENCH_A_LATENCY_PERCENTILE_PPM, latency_percentile_ppm), .def = "100",
	    .fio_case = "test_latency_target.py::test_latency_target_as_fio"),
	JOB(KB_OPT_LATENCY_RUN, "latency_run", "BOOL", p_flag,
	    "keep searching until the job's end instead of ending at the depth found",
	    ATTR(KIOBENCH_A_LATENCY_RUN, latency_run), FLAG,
	    .fio_case = "latency-run"),
	/* verify's windows, and its trims (kmod/verify.c) */
	JOB(KB_OPT_VERIFY_BACKLOG, "verify_backlog", "N", p_u32,
	    "with verify, read back and check every N writes (N surviving ones where writes "
	    "overlap), then write on",
	    ATTR(KIOBENCH_A_VERIFY_BACKLOG, verify_backlog), BOUNDS(1, UINT32_MAX),
	    .fio_case = "verify-backlog"),
	JOB(KB_OPT_VERIFY_BACKLOG_BATCH, "verify_backlog_batch", "N", p_u32,
	    "blocks read back each verify_backlog; only equal to it (its default)",
	    ATTR(KIOBENCH_A_VERIFY_BACKLOG_BATCH, verify_backlog_batch), BOUNDS(1, UINT32_MAX),
	    .fio_case = "-only verify_backlog's value, fio's default, is taken (others are refused "
	    "by the kernel): no other meaning to compare"),
	JOB(KB_OPT_TRIM_PERCENTAGE, "trim_percentage", "PCT",
	    p_u32, "with verify, the share of writes trimmed every trim_backlog writes; "
	    "read back as zeroes", ATTR(KIOBENCH_A_TRIM_PERCENTAGE, trim_percentage),
	    BOUNDS(0, 100),
	    .fio_case = "-fio 3.33's trim verify cannot be the reference: with trim_backlog its job stops after that many writes (\"file hash not empty on exit\"), without it nothing is trimmed; test_verify.py checks kiobench's trims and the zeroes read back"),
	JOB(KB_OPT_TRIM_BACKLOG, "trim_backlog", "N", p_u32,
	    "trim the chosen writes (trim_percentage) every N writes",
	    ATTR(KIOBENCH_A_TRIM_BACKLOG, trim_backlog), BOUNDS(1, 65536),
	    .fio_case = "-fio 3.33's trim verify cannot be the reference: with trim_backlog its job stops after that many writes (\"file hash not empty on exit\"), without it nothing is trimmed; test_verify.py checks kiobench's trims and the zeroes read back"),
	JOB(KB_OPT_TRIM_BACKLOG_BATCH, "trim_backlog_batch", "N", p_u32,
	    "trims each trim_backlog, at least trim_backlog (its default)",
	    ATTR(KIOBENCH_A_TRIM_BACKLOG_BATCH, trim_backlog_batch), BOUNDS(1, UINT32_MAX),
	    .fio_case = "-fio 3.33's trim verify cannot be the reference: with trim_backlog its job stops after that many writes (\"file hash not empty on exit\"), without it nothing is trimmed; test_verify.py checks kiobench's trims and the zeroes read back"),
	JOB(KB_OPT_TRIM_VERIFY_ZERO, "trim_verify_zero", "BOOL", p_flag,
	    "verify expects trimmed blocks to read back as zeroes (1)",
	    ATTR(KIOBENCH_A_TRIM_VERIFY_ZERO, trim_verify_zero), FLAG, .def = "1",
	    .fio_case = "-fio 3.33's trim verify cannot be the reference: with trim_backlog its job stops after that many writes (\"file hash not empty on exit\"), without it nothing is trimmed; test_verify.py checks kiobench's trims and the zeroes read back"),
	/* fio's buffer contents (kmod/data.c); put by kb_nl_job_new()'s code */
	JOB(KB_OPT_ZERO_BUFFERS, "zero_buffers", NULL, p_flag,
	    "writes carry zeroes (else pseudo-random bytes)", .off = JOBF(zero_buffers), FLAG,
	    .fio_case = "zero-buffers"),
	JOB(KB_OPT_REFILL_BUFFERS, "refill_buffers", NULL, p_flag,
	    "fill each write's buffer anew before its submission",
	    .off = JOBF(refill_buffers), FLAG,
	    .fio_case = "refill"),
	JOB(KB_OPT_SCRAMBLE_BUFFERS, "scramble_buffers", "BOOL", p_flag,
	    "write each sector's offset and a write count into every write (defeats dedupe)",
	    .off = JOBF(scramble_buffers), FLAG, .def = "1",
	    .fio_case = "scramble"),
	JOB(KB_OPT_BUFFER_PATTERN, "buffer_pattern", "PATTERN", p_bpattern,
	    "bytes the write buffers are filled with: 0xHEX, a number, \"text\", joined",
	    .fio_case = "buffer-pattern"),
	JOB(KB_OPT_BUFFER_COMPRESS_PERCENTAGE, "buffer_compress_percentage", "PCT", p_u32,
	    "writes that compress by PCT %: random bytes then zeroes (or buffer_pattern) in "
	    "each chunk", .off = JOBF(buffer_compress_percentage), BOUNDS(0, 100),
	    .fio_case = "compress"),
	JOB(KB_OPT_BUFFER_COMPRESS_CHUNK, "buffer_compress_chunk", "SIZE", p_size32,
	    "the chunk buffer_compress_percentage lays out (0: the block size)",
	    .off = JOBF(buffer_compress_chunk), BOUNDS(0, UINT32_MAX), .def = "512",
	    .fio_case = "compress-chunk"),
	JOB(KB_OPT_DEDUPE_PERCENTAGE, "dedupe_percentage", "PCT", p_u32,
	    "this share of the writes carry an earlier write's content (sets refill_buffers)",
	    ATTR(KIOBENCH_A_DEDUPE_PERCENTAGE, dedupe_percentage), BOUNDS(0, 100),
	    .fio_case = "test_data.py::test_dedupe_like_fio"),
	JOB(KB_OPT_DEDUPE_MODE, "dedupe_mode", "repeat|working_set", p_dedupe_mode,
	    "whose content dedupe_percentage's writes carry: the previous unique write's "
	    "(repeat) or a working set page's", ATTR(KIOBENCH_A_DEDUPE_MODE, dedupe_mode),
	    BOUNDS(0, KIOBENCH_DEDUPE_WORKING_SET), .def = "repeat",
	    .fio_case = "dedupe-working-set"),
	JOB(KB_OPT_DEDUPE_WORKING_SET_PERCENTAGE, "dedupe_working_set_percentage", "PCT",
	    p_u32, "dedupe_mode=working_set: the working set, in percent of the span",
	    ATTR(KIOBENCH_A_DEDUPE_WORKING_SET_PERCENTAGE, dedupe_working_set_percentage),
	    BOUNDS(0, 100), .def = "5",
	    .fio_case = "dedupe-working-set"),
	JOB(KB_OPT_DEDUPE_GLOBAL, "dedupe_global", "BOOL", p_flag,
	    "dedupe_mode=working_set: every job of the run shares one working set (on "
	    "every job or on none)",
	    ATTR(KIOBENCH_A_DEDUPE_GLOBAL, dedupe_global), FLAG,
	    .fio_case = "dedupe-global"),
	/* fio's error lists (kmod/errors.c); put by kb_nl_job_new()'s code */
	JOB(KB_OPT_IGNORE_ERROR, "ignore_error", "READ,WRITE,VERIFY", p_ignore_error,
	    "errors (EIO:ENOSPC or numbers) each type goes on from, a list turning its "
	    "continue_on_error type on; any other stops the job",
	    .fio_case = "ignore-error"),
	JOB(KB_OPT_ERROR_DUMP, "error_dump", "BOOL", p_flag,
	    "log every failed I/O, those gone on from too (kernel log)",
	    .off = JOBF(error_dump), FLAG, .def = "1",
	    .fio_case = "-where a failed I/O is reported (fio: standard error; kiobench: the kernel log); nothing reaches the device"),
	/* fio's offset patterns (kmod/worker.c) */
	JOB(KB_OPT_RW_SEQUENCER, "rw_sequencer", "sequential|identical", p_rw_sequencer,
	    "with rw=randread:N (any random rw), the N - 1 I/Os after each drawn offset "
	    "go on from where the previous one ended (sequential) or repeat its offset "
	    "(identical)", .off = JOBF(rw_sequencer), .def = "sequential",
	    .fio_case = "test_fio_patterns.py::test_rw_sequencer_identical_repeats_each_offset_as_fio"),
	JOB(KB_OPT_ZONERANGE, "zonerange", "SIZE", p_size,
	    "zonemode=strided: the bytes of each zone (zonesize)",
	    ATTR(KIOBENCH_A_ZONERANGE, zonerange), BOUNDS(1, UINT64_MAX),
	    .fio_case = "test_fio_patterns.py::test_strided_sequential_zones_as_fio"),
	JOB(KB_OPT_ZONESIZE, "zonesize", "SIZE", p_size,
	    "zonemode=strided: bytes of I/O in a zone's first zonerange bytes before the "
	    "next zone", ATTR(KIOBENCH_A_ZONESIZE, zonesize), BOUNDS(1, UINT64_MAX),
	    .fio_case = "test_fio_patterns.py::test_strided_sequential_zones_as_fio"),
	JOB(KB_OPT_ZONESKIP, "zoneskip", "SIZE", p_size,
	    "zonemode=strided: bytes skipped between a zone's end and the next one",
	    ATTR(KIOBENCH_A_ZONESKIP, zoneskip), BOUNDS(0, UINT64_MAX),
	    .fio_case = "test_fio_patterns.py::test_strided_sequential_zones_as_fio"),
	JOB(KB_OPT_CMDPRIO_BSSPLIT, "cmdprio_bssplit", "BS/PCT[/CLASS/LEVEL]:...[,...]",
	    p_cmdprio_bssplit, "the share of each block size's I/Os (reads,writes) issued "
	    "with a priority: CLASS/LEVEL, or cmdprio_class/cmdprio; one priority a "
	    "direction; not with cmdprio_percentage",
	    .fio_case = "test_prio.py::test_cmdprio_bssplit_per_size_as_fio"),
	JOB(KB_OPT_BA, "ba", "SIZE", p_ba, "random offsets aligned to SIZE, not the "
	    "smallest block size: turns the random map off (norandommap), as fio",
	    .alias = "blockalign", .off = JOBF(ba),
	    .fio_case = "test_fio_patterns.py::test_blockalign_aligns_random_offsets_as_fio"),
	JOB(KB_OPT_RATE_IGNORE_THINKTIME, "rate_ignore_thinktime", "BOOL", p_flag,
	    "with rate and thinktime: after a pause go on at the rate, not catching up "
	    "the pause's I/O", .off = JOBF(rate_ignore_thinktime), FLAG,
	    .fio_case = "test_thinktime.py::test_thinktime_with_rate_catches_up_unless_ignored"),
	/* fio's flow control between jobs: the kernel's workers (kmod/flow.c) */
	JOB(KB_OPT_FLOW, "flow", "N", p_u32, "weight in the flow control of the jobs "
	    "with this job's flow_id: their I/O kept in the ratio of their weights (0: none)",
	    ATTR(KIOBENCH_A_FLOW, flow), BOUNDS(0, 1000),
	    .fio_case = "test_flow.py::test_flow_keeps_two_jobs_at_their_weights_as_fio"),
	JOB(KB_OPT_FLOW_ID, "flow_id", "N", p_u32, "the flow control group of flow (0)",
	    ATTR(KIOBENCH_A_FLOW_ID, flow_id), BOUNDS(0, INT32_MAX),
	    .fio_case = "flow-id"),
	JOB(KB_OPT_FLOW_SLEEP, "flow_sleep", "TIME", p_time_us, "flow: once held back, "
	    "let the I/O in flight complete and sleep TIME (bare number: us) before looking "
	    "again (0: look again at once)", ATTR(KIOBENCH_A_FLOW_SLEEP_NS, flow_sleep_ns),
	    BOUNDS(0, 3600000000000ULL),
	    .fio_case = "test_flow.py::test_flow_keeps_two_jobs_at_their_weights_as_fio"),
	/* how bios are submitted (kmod/submit.c) */
	JOB(KB_OPT_SYNC, "sync", "none|0|sync|1|dsync", p_sync,
	    "sync, 1, dsync: writes as to a device opened O_SYNC or O_DSYNC, REQ_FUA "
	    "writes (writefua); not with a synchronous ioengine",
	    .fio_case = "test_shape_nvme.py::test_nvme_cache_fua"),
	JOB(KB_OPT_NICE, "nice", "N", p_nice,
	    "the nice value of the job's kernel threads, -20..19", .off = JOBF(nice),
	    .fio_case = "-the workers' scheduling priority: it shows at the device only under CPU contention, which a guest cannot make the same for both tools"),
	JOB(KB_OPT_WRITE_BARRIER, "write_barrier", "N", p_host,
	    "fio marks every N-th write a barrier, and none of its engines sends anything "
	    "for the mark: its writes stay plain (kiobench's preflush_fua=N sends one)",
	    .host = true,
	    .fio_case = "test_submit_opts.py::test_preflush_fua_and_write_barrier_as_fio"),
	JOB(KB_OPT_PREFLUSH_FUA, "preflush_fua", "N", p_u32,
	    "after every N writes the next is REQ_PREFLUSH | REQ_FUA (a barrier write, as "
	    "2.6.37 made them)", ATTR(KIOBENCH_A_WRITE_BARRIER, write_barrier),
	    BOUNDS(1, UINT32_MAX), .fio_case = "-kiobench's own: fio has no such option"),
	JOB(KB_OPT_NOWAIT, "nowait", "BOOL", p_flag,
	    "reads and writes with REQ_NOWAIT: one the block layer cannot take at once "
	    "fails with EAGAIN, an I/O error", ATTR(KIOBENCH_A_NOWAIT, nowait), FLAG,
	    .fio_case = "test_submit_opts.py::test_nowait_fails_what_would_wait"),
	JOB(KB_OPT_SERIALIZE_OVERLAP, "serialize_overlap", "BOOL", p_flag,
	    "an I/O overlapping one of its worker's in flight waits for it",
	    ATTR(KIOBENCH_A_SERIALIZE_OVERLAP, serialize_overlap), FLAG,
	    .fio_case = "serialize-overlap"),
	JOB(KB_OPT_WRITE_HINT, "write_hint", "none|short|medium|long|extreme", p_write_hint,
	    "the lifetime hint (bi_write_hint) of every bio; not on 6.1 (its bios have none)",
	    ATTR(KIOBENCH_A_WRITE_HINT, write_hint),
	    .fio_case = "-fio 3.33 sets a direct job's hint with F_SET_FILE_RW_HINT, gone since Linux 5.18, and fails (EINVAL; test_submit_opts.py pins it and checks kiobench's hint in sd's group numbers); fio falls back to the inode's F_SET_RW_HINT from bd553af6 on"),
	/* kiobench's own: fio (3.34 on) places writes only through its passthrough */
	JOB(KB_OPT_WRITE_STREAMS, "write_streams", "ID[,ID...]", p_write_streams,
	    "kiobench's own: the write streams (bi_write_stream, 1..max_write_streams: an "
	    "NVMe FDP namespace's placement handles) the writes carry; Linux 6.16 on",
	    .fio_case = "-kiobench's own: fio has no such option"),
	JOB(KB_OPT_WRITE_STREAM_SELECT, "write_stream_select", "roundrobin|random|job|worker",
	    p_write_stream_select,
	    "kiobench's own: which of write_streams a write carries: in turn per worker, "
	    "at random, the job's one, or worker i's streams[i % n]",
	    .fio_case = "-kiobench's own: fio has no such option"),
	JOB(KB_OPT_IODEPTH_BATCH, "iodepth_batch", "N", p_u32,
	    "a worker's plug holds at most N requests, then the block layer dispatches "
	    "them (0: iodepth; at most 32, where the block layer flushes a plug itself)",
	    .alias = "iodepth_batch_submit",
	    ATTR(KIOBENCH_A_IODEPTH_BATCH, iodepth_batch), BOUNDS(0, 32),
	    .fio_case = "batch-submit"),
	JOB(KB_OPT_IODEPTH_LOW, "iodepth_low", "N", p_u32,
	    "once iodepth I/Os are in flight, reap in rounds down to N in the depth (a "
	    "completion not reaped keeps its slot), then refill what was reaped",
	    ATTR(KIOBENCH_A_IODEPTH_LOW, iodepth_low), BOUNDS(0, UINT32_MAX),
	    .fio_case = "reap-low"),
	JOB(KB_OPT_IODEPTH_BATCH_COMPLETE_MIN, "iodepth_batch_complete_min", "N", p_u32,
	    "once iodepth I/Os are in flight, reap in rounds of exactly N completions, "
	    "then refill what was reaped", .alias = "iodepth_batch_complete",
	    ATTR(KIOBENCH_A_IODEPTH_BATCH_COMPLETE_MIN, iodepth_batch_complete_min),
	    BOUNDS(0, UINT32_MAX), .fio_case = "reap-min"),
	/* fio's io_uring_cmd protection information (pi.c in the kernel) */
	JOB(KB_OPT_PI_ACT, "pi_act", "0|1", p_u32,
	    "1 (fio's default): protection information is the block layer's or the "
	    "device's (write_generate, read_verify, PRACT); 0: kiobench attaches its own "
	    "to each read and write, checked as pi_chk says",
	    .off = JOBF(pi_act), BOUNDS(0, 1), .def = "1",
	    .fio_case = "-fio's io_uring_cmd option (fio 3.35), not in the guests' fio 3.33"),
	JOB(KB_OPT_PI_CHK, "pi_chk", "GUARD,REFTAG,APPTAG", p_pi_chk,
	    "with pi_act=0: the fields of kiobench's protection information the device "
	    "checks; kiobench checks every read's itself and counts the wrong ones",
	    ATTR(KIOBENCH_A_PI_CHK, pi_chk),
	    .fio_case = "-fio's io_uring_cmd option (fio 3.35), not in the guests' fio 3.33"),
	JOB(KB_OPT_APPTAG, "apptag", "N", p_u32,
	    "with pi_act=0: the application tag written and expected (fio's default 0x1234)",
	    ATTR(KIOBENCH_A_PI_APPTAG, apptag), BOUNDS(0, 0xfffe), .def = "4660",
	    .fio_case = "-fio's io_uring_cmd option (fio 3.35), not in the guests' fio 3.33"),
	JOB(KB_OPT_APPTAG_MASK, "apptag_mask", "N", p_apptag_mask,
	    "with pi_act=0: the application tag's bits the device checks; 0xffff only "
	    "(fio's default): the kernel's NVMe driver sends no other mask",
	    BOUNDS(0, 0xffff), .def = "0xffff",
	    .fio_case = "-fio's io_uring_cmd option (fio 3.35), not in the guests' fio 3.33"),
	JOB(KB_OPT_PI_INJECT, "pi_inject", "GUARD,REFTAG,APPTAG", p_pi_chk,
	    "with pi_act=0: the fields each write of the interval pi_inject_lba carries "
	    "wrong (error injection)",
	    ATTR(KIOBENCH_A_PI_INJECT, pi_inject),
	    .fio_case = "-kiobench's own: fio has no such option"),
	JOB(KB_OPT_PI_INJECT_LBA, "pi_inject_lba", "LBA", p_u64,
	    "with pi_inject: the interval (LBA in protection intervals) written wrong",
	    ATTR(KIOBENCH_A_PI_INJECT_LBA, pi_inject_lba), BOUNDS(0, UINT64_MAX),
	    .fio_case = "-kiobench's own: fio has no such option"),
	/* fio's read_iolog (replay.c): the kernel replays the log's I/Os */
	[KB_OPT_READ_IOLOG] = { .name = "read_iolog", .id = KB_OPT_READ_IOLOG,
		.mark = KB_OPT_READ_IOLOG, .scope = KB_SCOPE_JOB, .cmds = KB_CMD_RUN,
		.metavar = "FILE", .parse = p_str, .off = JOBF(read_iolog),
		.help = "replay fio's iolog FILE (versions 2 and 3): its I/Os, in order; "
			"FILE:FILE...: clone k replays the k-th",
		.fio_case = "replay" },
	[KB_OPT_READ_IOLOG_CHUNKED] = { .name = "read_iolog_chunked",
		.id = KB_OPT_READ_IOLOG_CHUNKED, .mark = KB_OPT_READ_IOLOG_CHUNKED,
		.scope = KB_SCOPE_JOB, .cmds = KB_CMD_RUN, .metavar = NULL, .parse = p_flag,
		FLAG, .off = JOBF(read_iolog_chunked),
		.help = "fio reads the log in parts; the same replay (the kernel holds it whole)",
		.fio_case = "-fio reads the iolog in parts to save memory; the I/Os replayed are the same (the replay case's stream)" },
	[KB_OPT_REPLAY_NO_STALL] = { .name = "replay_no_stall", .id = KB_OPT_REPLAY_NO_STALL,
		.mark = KB_OPT_REPLAY_NO_STALL, .scope = KB_SCOPE_JOB, .cmds = KB_CMD_RUN,
		.metavar = NULL, .parse = p_flag, FLAG, .off = JOBF(replay_no_stall),
		.help = "replay as fast as iodepth allows, not at the log's times",
		.fio_case = "replay-no-stall" },
	[KB_OPT_REPLAY_REDIRECT] = { .name = "replay_redirect", .id = KB_OPT_REPLAY_REDIRECT,
		.mark = KB_OPT_REPLAY_REDIRECT, .scope = KB_SCOPE_JOB, .cmds = KB_CMD_RUN,
		.metavar = "DEV", .parse = p_str, .off = JOBF(replay_redirect),
		.help = "replay every I/O of the log on DEV, whatever file the log names",
		.fio_case = "replay" },
	[KB_OPT_REPLAY_SCALE] = { .name = "replay_scale", .id = KB_OPT_REPLAY_SCALE,
		.mark = KB_OPT_REPLAY_SCALE, .scope = KB_SCOPE_JOB, .cmds = KB_CMD_RUN,
		.metavar = "N", .parse = p_u32, .off = JOBF(replay_scale),
		BOUNDS(1, UINT32_MAX), .def = "1",
		.help = "divide the log's offsets by N",
		.fio_case = "replay" },
	[KB_OPT_REPLAY_ALIGN] = { .name = "replay_align", .id = KB_OPT_REPLAY_ALIGN,
		.mark = KB_OPT_REPLAY_ALIGN, .scope = KB_SCOPE_JOB, .cmds = KB_CMD_RUN,
		.metavar = "N", .parse = p_u32, .off = JOBF(replay_align),
		BOUNDS(0, UINT32_MAX),
		.help = "align the log's offsets down to N bytes (a power of 2; after replay_scale)",
		.fio_case = "replay" },
	[KB_OPT_REPLAY_SKIP] = { .name = "replay_skip", .id = KB_OPT_REPLAY_SKIP,
		.mark = KB_OPT_REPLAY_SKIP, .scope = KB_SCOPE_JOB, .cmds = KB_CMD_RUN,
		.metavar = "read,write,trim,sync", .parse = p_replay_skip,
		.off = JOBF(replay_skip),
		.help = "leave these kinds of the log's I/Os out",
		.fio_case = "-fio 3.33 skips only in blktrace replays, fio 3.34 (ff6131af) in iologs too, as kiobench: Debian's fio cannot be the reference" },
	[KB_OPT_REPLAY_TIME_SCALE] = { .name = "replay_time_scale",
		.id = KB_OPT_REPLAY_TIME_SCALE, .mark = KB_OPT_REPLAY_TIME_SCALE,
		.scope = KB_SCOPE_JOB, .cmds = KB_CMD_RUN, .metavar = "PCT", .parse = p_u32,
		.off = JOBF(replay_time_scale), BOUNDS(1, UINT32_MAX), .def = "100",
		.help = "the log's times at PCT % of its rate (200: twice as fast)",
		.fio_case = "replay-times" },

	/* fio's about how fio itself runs: nothing of them reaches the device */
	JOB(KB_OPT_THREAD, "thread", NULL, p_host,
	    "fio's jobs as threads, not processes: how fio runs, not what it issues "
	    "(kiobench's workers are kernel threads)", FLAG, .host = true,
	    .fio_case = "-how fio runs its jobs (threads or processes): nothing reaches the device"),
	JOB(KB_OPT_THREADS, "threads", "N", p_host,
	    "the tiobench profile's number of jobs (fio keeps it for profile=tiobench, "
	    "which kiobench refuses; a job itself never reads it)", .host = true,
	    .fio_case = "-how fio runs its jobs (threads or processes): nothing reaches the device"),
	JOB(KB_OPT_IO_SUBMIT_MODE, "io_submit_mode", "inline|offload", p_host,
	    "who submits fio's I/O: the job's thread (inline) or a pool of fio's threads "
	    "(offload); kiobench's kernel workers submit their own bios", .host = true,
	    .fio_case = "-who in fio submits: kiobench's worker always submits itself"),
	JOB(KB_OPT_VERIFY_ASYNC_CPUS, "verify_async_cpus", "LIST", p_host,
	    "the CPUs of fio's verify_async threads, which kiobench does not have "
	    "(verify_async is refused; without it fio starts none)", .host = true,
	    .fio_case = "-the CPUs of fio's verify threads: kiobench has none"),
	CMD(KB_OPT_ALLOW_WRITES, "allow-writes", KB_CMD_ALL, NULL, p_flag,
	    "allow writing to the devices (DESTROYS DATA)", .off = CMDF(allow_writes), FLAG),
	CMD(KB_OPT_OUTFMT, "output-format", KB_CMD_ALL | KB_CMD_COMPARE | KB_CMD_MERGE, "FMT[,FMT]",
	    p_outfmt,
	    "the formats of the report (cli.c lists those of each command)",
	    .def = "normal"),
	CMD(KB_OPT_OUTPUT, "output", KB_CMD_ALL | KB_CMD_COMPARE | KB_CMD_MERGE, "FILE", p_str,
	    "write the results to FILE",
	    .off = CMDF(output)),
	CMD(KB_OPT_KEEP, "keep", KB_CMD_RUN, NULL, p_flag,
	    "do not destroy the jobs at the end; implies detach", .off = CMDF(keep), FLAG),
	CMD(KB_OPT_DETACH, "detach", KB_CMD_RUN, NULL, p_flag,
	    "jobs outlive a killed kiobench (else they end with it)",
	    .off = CMDF(detach), FLAG),
	CMD(KB_OPT_SECTION, "section", KB_CMD_RUN, "NAME", p_section,
	    "run only job section NAME of the job files (repeatable), as fio's --section"),
	CMD(KB_OPT_PARSE_ONLY, "parse-only", KB_CMD_RUN, NULL, p_flag,
	    "print the jobs as read, every option resolved, as a job file; run nothing "
	    "(the kernel is not needed)", .off = CMDF(parse_only), FLAG),
	CMD(KB_OPT_CSV, "csv", KB_CMD_METHODS, "FILE", p_str, "also write the CSV rows to FILE",
	    .off = CMDF(csv)),
	/* not the suites': 004 sweeps its own device count */
	CMD(KB_OPT_DEVICES, "devices", KB_CMD_SWEEP, "LIST", p_list,
	    "the first k devices of --filename, one job each", .list_var = KB_VAR_DEVICES),
	CMD(KB_OPT_STREAMS, "streams", KB_CMD_SWEEP, "LIST", p_list,
	    "write streams 1..k of each step's writes (0: none; at most 16), and the "
	    "FDP statistics around each step: write amplification with and without "
	    "placement", .list_var = KB_VAR_STREAMS),

	CMD(KB_OPT_SPLIT_QD, "split-qd", KB_CMD_SWEEP, "N", p_u32,
	    "--iodepth is the total depth, over up to N workers (the largest count <= N "
	    "that divides it)", .off = CMDF(split_qd), BOUNDS(1, KB_MAX_SPLIT_QD)),
	CMD(KB_OPT_IDLE, "idle", KB_CMD_SWEEP, "TIME", p_time, "idle time between steps",
	    .off = CMDF(idle_ns), BOUNDS(0, UINT64_MAX)),
	CMD(KB_OPT_BURST_SIZE, "burst-size", KB_CMD_SWEEP, "SIZE", p_size,
	    "bursts: each burst is a job of SIZE bytes...", .off = CMDF(burst_size),
	    BOUNDS(1, UINT64_MAX)),
	CMD(KB_OPT_BURST_TOTAL, "burst-total", KB_CMD_SWEEP, "SIZE", p_size,
	    "...until SIZE bytes in all", .off = CMDF(burst_total), BOUNDS(1, UINT64_MAX)),
	CMD(KB_OPT_DUTY, "duty-cycle", KB_CMD_SWEEP, "PCT", p_u32,
	    "idle after each burst = busy x (100 - PCT) / PCT", .off = CMDF(duty),
	    BOUNDS(1, 100)),
	CMD(KB_OPT_BURST_IDLE, "burst-idle", KB_CMD_SWEEP, "TIME", p_time,
	    "or a fixed idle time after each burst", .off = CMDF(burst_idle_ns),
	    BOUNDS(0, UINT64_MAX)),

	CMD(KB_OPT_FILL_BS, "fill-bs", KB_CMD_PRECOND, "SIZE", p_cmd_bs,
	    "transfer size of the fill", .off = CMDF(fill_bs), .def = KB_STR(KB_FILL_BS)),
	CMD(KB_OPT_NO_FILL, "no-fill", KB_CMD_PRECOND, NULL, p_flag, "skip the sequential fill",
	    .off = CMDF(no_fill), FLAG),
	CMD(KB_OPT_PASSES, "passes", KB_CMD_PRECOND, "N", p_u32, "random-write passes",
	    .off = CMDF(passes), BOUNDS(0, KB_MAX_ROUNDS), .def = "2"),
	CMD(KB_OPT_STEADY, "steady-state", KB_CMD_PRECOND, NULL, p_flag,
	    "rounds until steady state (at least --passes rounds)", .off = CMDF(steady), FLAG),
	CMD(KB_OPT_MAX_ROUNDS, "max-rounds", KB_CMD_PRECOND, "N", p_u32,
	    "most rounds of --steady-state", .off = CMDF(max_rounds),
	    BOUNDS(KB_SS_WINDOW, KB_MAX_ROUNDS), .def = "25"),
	CMD(KB_OPT_ROUND_SIZE, "round-size", KB_CMD_PRECOND, "SIZE", p_size,
	    "bytes per round (the span)", .off = CMDF(round_size), BOUNDS(1, UINT64_MAX)),

	CMD(KB_OPT_SCALE, "scale", KB_CMD_SUITE, "F", p_scale,
	    "multiply step times, byte limits, spans and burst sizes by F (0 < F <= 1)",
	    .def = "1"),
	CMD(KB_OPT_QUICK, "quick", KB_CMD_SUITE, NULL, p_quick,
	    "--scale=" KB_STR(KB_QUICK_SCALE), FLAG),
	CMD(KB_OPT_LIST, "list", KB_CMD_SUITE, NULL, p_flag, "list the suites",
	    .off = CMDF(list_suites), FLAG),
	CMD(KB_OPT_NO_PRECOND, "no-precondition", KB_CMD_SUITE, NULL, p_flag,
	    "skip the suite's preconditioning", .off = CMDF(no_precond), FLAG),
	CMD(KB_OPT_ALLOW_TUNING, "allow-tuning", KB_CMD_SWEEP, NULL, p_flag,
	    "allow the tuning options to change the devices' settings (put back at the end)",
	    .off = CMDF(allow_tuning), FLAG),
	CMD(KB_OPT_RQ_AFFINITY, "rq_affinity", KB_CMD_SWEEP, "N[,N]", p_tune,
	    "tuning: the queues' rq_affinity, e.g. 0,1,2 (needs --allow-tuning)",
	    .off = CMDF(tune[KB_TUNE_RQ_AFFINITY])),
	CMD(KB_OPT_NOMERGES, "nomerges", KB_CMD_SWEEP, "N[,N]", p_tune,
	    "tuning: the queues' nomerges, e.g. 0,2 (needs --allow-tuning)",
	    .off = CMDF(tune[KB_TUNE_NOMERGES])),
	CMD(KB_OPT_IOSCHEDULER, "ioscheduler", KB_CMD_SWEEP, "NAME[,NAME]", p_tune,
	    "tuning: the queues' I/O scheduler, e.g. none,mq-deadline (needs --allow-tuning)",
	    .off = CMDF(tune[KB_TUNE_SCHEDULER])),
	CMD(KB_OPT_NR_REQUESTS, "nr_requests", KB_CMD_SWEEP, "N[,N]", p_tune,
	    "tuning: the queues' nr_requests, e.g. 32,256 (needs --allow-tuning)",
	    .off = CMDF(tune[KB_TUNE_NR_REQUESTS])),
	CMD(KB_OPT_IRQ_CPUS, "irq_cpus", KB_CMD_SWEEP, "CPUS[,CPUS]", p_tune,
	    "tuning: the CPU of the devices' interrupt vectors, e.g. 0,3 (needs "
	    "--allow-tuning; managed interrupts refuse)", .off = CMDF(tune[KB_TUNE_IRQ_CPUS])),
	CMD(KB_OPT_WRITE_GENERATE, "write_generate", KB_CMD_SWEEP, "0|1[,0|1]", p_tune,
	    "tuning: whether the block layer generates the writes' protection information "
	    "(integrity/write_generate), e.g. 1,0 (needs --allow-tuning)",
	    .off = CMDF(tune[KB_TUNE_WRITE_GENERATE])),
	CMD(KB_OPT_READ_VERIFY, "read_verify", KB_CMD_SWEEP, "0|1[,0|1]", p_tune,
	    "tuning: whether the block layer verifies the reads' protection information "
	    "(integrity/read_verify), e.g. 1,0 (needs --allow-tuning)",
	    .off = CMDF(tune[KB_TUNE_READ_VERIFY])),

	CMD(KB_OPT_THRESHOLD, "threshold", KB_CMD_COMPARE, "PCT", p_pct,
	    "how much worse a significant change must be to count (percent)",
	    .off = CMDF(threshold), BOUNDS(0, 1000), .def = "5"),
	CMD(KB_OPT_OUTLIER, "outlier-threshold", KB_CMD_MERGE, "PCT", p_pct,
	    "a host is an outlier when its p50 or p99 is off the others' by more "
	    "than PCT percent", .off = CMDF(outlier_pct), BOUNDS(0, 10000), .def = "50"),
};

/* Option names match with '-' and '_' taken as the same character. */
bool kb_opt_name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;

		if (x != y)
			return false;
	}
	return *a == *b;
}

const struct kb_opt *kb_opt_find(const char *name)
{
	int i;

	for (i = 0; i < KB_NR_OPTS; i++)
		if (kb_opt_name_eq(kb_opts[i].name, name) ||
		    (kb_opts[i].alias && kb_opt_name_eq(kb_opts[i].alias, name)))
			return &kb_opts[i];
	return NULL;
}

/* The option whose value list sweeps @v: by the table, not by a name. */
const struct kb_opt *kb_opt_of_var(enum kb_var v)
{
	int i;

	for (i = 0; i < KB_NR_OPTS; i++)
		if (kb_opts[i].list_var == v)
			return &kb_opts[i];
	return NULL;
}

const struct kb_opt *kb_opt_of_attr(unsigned int attr)
{
	int i;

	for (i = 0; attr && i < KB_NR_OPTS; i++)
		if (kb_opts[i].attr == attr)
			return &kb_opts[i];
	return NULL;
}

uint64_t kb_opt_value(const struct kb_opt *o, const struct kb_job *job)
{
	const void *f = (const char *)job + o->off;

	switch (o->size) {
	case 1: return *(const uint8_t *)f;
	case 2: return *(const uint16_t *)f;
	case 4: return *(const uint32_t *)f;
	default: return *(const uint64_t *)f;
	}
}

/* ---- jobs and assignments ------------------------------------------------ */

/*
 * The defaults of the table's entries of one scope (job options, or the
 * options of command g->cmd).  They are constants that the unit tests
 * parse, so they cannot fail here.
 */
static void apply_defaults(enum kb_opt_scope scope, struct kb_job *job, struct kb_global *g)
{
	char err[KB_ERRLEN];
	int i;

	for (i = 0; i < KB_NR_OPTS; i++) {
		const struct kb_opt *o = &kb_opts[i];

		if (o->def && o->scope == scope && (scope == KB_SCOPE_JOB || (o->cmds & g->cmd)))
			o->parse(o, o->def, job, g, err, sizeof(err));
	}
}

void kb_job_init(struct kb_job *job)
{
	memset(job, 0, sizeof(*job));
	apply_defaults(KB_SCOPE_JOB, job, NULL);
}

void kb_job_free(struct kb_job *job)
{
	free_devices(job);
	free(job->bss);
	set_bss_wt(job, NULL, NULL);
	free(job->cpus);
	kb_zones_free(job);
	free(job->lat_log);
	free(job->description);
	free(job->raw_lat_log);
	free(job->write_iolog);
	free(job->bw_log);
	free(job->iops_log);
	free(job->hist_log);
	free(job->log_compression_cpus);
	free(job->wait_for);
	free(job->read_iolog);
	free(job->replay_redirect);
	free(job->replay);
	free(job->replay_path);
	free(job->replay_lines);
	kb_assign_list_free(&job->applied);
	memset(job, 0, sizeof(*job));
}

void kb_global_init(struct kb_global *g, unsigned int cmd)
{
	memset(g, 0, sizeof(*g));
	g->cmd = cmd;
	apply_defaults(KB_SCOPE_CLI, NULL, g);
}

void kb_global_free(struct kb_global *g)
{
	int v;

	free(g->output);
	free(g->csv);
	for (v = 0; v < (int)g->nr_sections; v++)
		free(g->sections[v]);
	free(g->sections);
	for (v = 0; v < KB_VAR_NR; v++)
		free(g->list[v]);
	for (v = 0; v < KB_NR_TUNE; v++)
		free(g->tune[v]);
	memset(g, 0, sizeof(*g));
}

int kb_assign_add(struct kb_assign_list *l, const struct kb_opt *o,
		  const char *val, const char *file, unsigned int line)
{
	struct kb_assign *a;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		struct kb_assign *nv = realloc(l->v, cap * sizeof(*nv));

		if (!nv)
			return -1;
		l->v = nv;
		l->cap = cap;
	}
	a = &l->v[l->n];
	a->opt = o;
	a->val = NULL;
	if (val && !(a->val = strdup(val)))
		return -1;
	a->file = file;
	a->line = line;
	l->n++;
	return 0;
}

void kb_assign_list_free(struct kb_assign_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].val);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void kb_assign_where(const struct kb_assign *a, char *buf, size_t len)
{
	if (a->file)
		snprintf(buf, len, "%s:%u: %s", a->file, a->line, a->opt->name);
	else
		snprintf(buf, len, "--%s", a->opt->name);
}

int kb_apply(struct kb_job *job, struct kb_global *g, const struct kb_assign *a,
	     char *err, size_t errlen)
{
	const struct kb_opt *o = a->opt;
	char where[KB_ERRLEN], msg[KB_ERRLEN];

	kb_assign_where(a, where, sizeof(where));
	if (o->scope == KB_SCOPE_CLI && a->file)
		return kb_errf(err, errlen, "%s:%u: option '%s' is only valid on the command line",
			    a->file, a->line, o->name);
	if (!a->val && !o->flag)
		return kb_errf(err, errlen, "%s: missing value", where);
	if (o->parse(o, a->val, job, g, msg, sizeof(msg)))
		return kb_errf(err, errlen, "%s: %s", where, msg);
	if (o->scope == KB_SCOPE_JOB) {
		kb_job_mark(job, o->mark, true);
		if (kb_assign_add(&job->applied, o, a->val, a->file, a->line))
			return kb_errf(err, errlen, "out of memory");
	}
	return 0;
}

_Static_assert(KB_NR_OPTS <= 64 * KB_OPT_SET_WORDS, "struct kb_job's set bits: raise KB_OPT_SET_WORDS");

void kb_job_mark(struct kb_job *job, enum kb_opt_id id, bool given)
{
	if (given)
		job->set[id / 64] |= 1ULL << (id % 64);
	else
		job->set[id / 64] &= ~(1ULL << (id % 64));
}

bool kb_job_isset(const struct kb_job *job, enum kb_opt_id id)
{
	return job->set[id / 64] & (1ULL << (id % 64));
}

uint32_t kb_job_rwmix_read(const struct kb_job *job)
{
	switch (job->rw) {
	case KB_RW_READ: return 100;
	case KB_RW_WRITE: return 0;
	default: return job->rwmixread;
	}
}

/* rw=zone_*'s op; else, with zone_mgmt, the resets of zbd's writes. */
uint8_t kb_job_zone_op(const struct kb_job *job)
{
	if (job->zone_op)
		return job->zone_op;
	return job->zone_mgmt ? KIOBENCH_ZONE_OP_RESET : KIOBENCH_ZONE_OP_NONE;
}

bool kb_job_has_writes(const struct kb_job *job)
{
	return kb_job_rwmix_read(job) < 100 && !(kb_job_verify(job) && job->verify_only);
}

uint8_t kb_job_verify(const struct kb_job *job)
{
	if (!job->verify && job->verify_pattern_len)
		return KIOBENCH_VERIFY_PATTERN;
	return job->verify;
}

/* fsync, fdatasync: the flush interval the kernel gets, for a job that writes. */
uint32_t kb_job_fsync(const struct kb_job *job)
{
	if (!kb_job_has_writes(job) || job->trim_mode == KIOBENCH_TRIM_TRIM)
		return 0;
	return job->fsync ? job->fsync : job->fdatasync;
}

/* The largest block size of any direction (fio's td_max_bs()). */
static uint32_t kb_job_max_bs(const struct kb_job *job)
{
	uint32_t m = 0, own;
	const struct kb_bss *b;
	unsigned int i, d, n;

	for (d = 0; d < KB_BSS_DIRS; d++) {
		b = kb_job_bss(job, d, &n);
		for (i = 0; i < n; i++)
			if (b[i].size > m)
				m = b[i].size;
		own = d && job->bs_wt[d - 1] ? job->bs_wt[d - 1] : job->bs;
		if (!n && own > m)
			m = own;
	}
	return m;
}

static uint64_t kb_mul_sat(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/*
 * Whether a verify read-back follows the job's writes (its do_verify() of
 * fio's, each round).
 */
static bool kb_job_reads_back(const struct kb_job *job)
{
	return kb_job_verify(job) && kb_job_rwmix_read(job) < 100 && job->do_verify &&
	       !job->verify_only;
}

/*
 * fio's rounds (thread_main() and do_io()): a round issues at most size
 * bytes (io_size when larger, for a random write job with norandommap),
 * within io_size (else size) times loops issued in all, then reads back
 * with verify.  The first `loops` rounds run; after them another runs
 * while the bytes done, a verify's read-back included, fall short of
 * io_size (else size) by the largest block or more (keep_running()).
 * The job's bytes (0: none, time_based); *round: a round's.
 */
/* fio's size: the option's (as the I/O size rounds it), else the span's; 0: none. */
static uint64_t kb_job_size(const struct kb_job *job)
{
	if (kb_job_isset(job, KB_OPT_SIZE))
		return job->size_io ? job->size_io : job->size;
	return job->span_bytes;
}

static uint64_t kb_job_rounds(const struct kb_job *job, uint64_t *round)
{
	uint64_t loops = job->loops ? job->loops : 1, s = kb_job_size(job), io, cap, done, rc;
	uint64_t looped;
	unsigned __int128 f, left, more;

	*round = 0;
	if (job->time_based)
		return 0;
	io = kb_job_isset(job, KB_OPT_IO_SIZE) ? job->io_size : s;
	if (!s)
		return kb_mul_sat(io, loops);
	cap = kb_mul_sat(io, loops);
	rc = job->random && job->norandommap && kb_job_rwmix_read(job) < 100 && io > s ? io : s;
	looped = kb_mul_sat(rc, loops);
	done = looped < cap ? looped : cap;
	/* the bytes done per byte issued, in hundredths: the read-back's too */
	f = 100 + (kb_job_reads_back(job) ? 100 - kb_job_rwmix_read(job) : 0);
	if (done < cap && f * done + 100 * (unsigned __int128)kb_job_max_bs(job) <=
	    100 * (unsigned __int128)io) {
		left = 100 * (unsigned __int128)(io - kb_job_max_bs(job)) - f * done;
		more = (left / (f * rc) + 1) * rc;
		done = more >= cap - done ? cap : done + (uint64_t)more;
	}
	*round = rc;
	return done;
}

/*
 * Whether the job's rounds (kb_job_rounds()) show at the device: a verify
 * read-back after each, or end_fsync's flush.
 */
static bool kb_job_round_ends(const struct kb_job *job)
{
	return kb_job_reads_back(job) || (job->end_fsync && kb_job_has_writes(job));
}

/*
 * Whether number_ios may span several of fio's rounds (loops, or io_size
 * past size) that show (kb_job_round_ends()): fio's count then holds a
 * verify's read-back too, and a round stops where the count is reached
 * (below), bounded in bytes, so for one block size (kb_job_check()).  With
 * verify_backlog the kernel counts the windows' reads itself, in one run.
 */
static bool kb_job_ios_over_rounds(const struct kb_job *job)
{
	return job->number_ios && kb_job_round_ends(job) && !job->time_based &&
	       !job->verify_backlog && (job->loops > 1 ||
	       (kb_job_isset(job, KB_OPT_IO_SIZE) && kb_job_isset(job, KB_OPT_SIZE) &&
		job->io_size > kb_job_size(job)));
}

static bool kb_job_ios_rounds(const struct kb_job *job)
{
	return kb_job_ios_over_rounds(job) && kb_job_min_bs(job) == kb_job_max_bs(job);
}

/*
 * fio's number_ios over its rounds with a verify read-back: every I/O
 * completed counts, the read-back's too (exceeds_number_ios(): against
 * number_ios times loops), and a round stops issuing there, then reads
 * back what it wrote.  So rounds of R blocks stay whole while the count
 * before them is at most N - R, one round takes the rest, and none
 * follows.  A job of one block size (kb_job_check()), its bytes issued;
 * *round: a round's.  fio 3.33, bs=4k size=64k verify: number_ios=10
 * loops=2 writes 16 and reads them back (20 counted after 16 writes and
 * 16 reads); number_ios=12 loops=3 writes 16, reads 16, writes 4, reads 4.
 */
static uint64_t kb_job_ios_bytes(const struct kb_job *job, uint64_t *round)
{
	uint64_t all = kb_job_rounds(job, round), bs = kb_job_max_bs(job), r, n, k, most;
	unsigned __int128 step, target, done;

	r = bs ? *round / bs : 0;
	n = kb_mul_sat(job->number_ios, job->loops ? job->loops : 1);
	if (!r)
		return all;
	/* counted per block issued, in hundredths: the read-back's average share */
	step = (unsigned __int128)r * (100 + (kb_job_reads_back(job) ?
					      100 - kb_job_rwmix_read(job) : 0));
	target = 100 * (unsigned __int128)n;
	most = all / bs;
	/* whole rounds: the j-th when (j - 1) * step + 100 * r <= target */
	k = target < 100 * (unsigned __int128)r ? 0 :
	    (uint64_t)((target - 100 * (unsigned __int128)r) / step + 1);
	if ((unsigned __int128)k * r >= most)
		return all;
	/* then the rest of the count, if any: the last round */
	done = (unsigned __int128)k * step / 100;
	n = done < n ? n - (uint64_t)done : 0;
	k = k * r + (n < r ? n : r);
	return (k < most ? k : most) * bs;
}

/*
 * fio's number_ios counts over the loops (exceeds_number_ios(): number_ios
 * times loops); 0: none, or a job bounded by its bytes instead (a verify's
 * rounds: kb_job_ios_bytes()).
 */
uint64_t kb_job_number_ios(const struct kb_job *job)
{
	if (kb_job_ios_rounds(job))
		return 0;
	return kb_mul_sat(job->number_ios, job->loops ? job->loops : 1);
}

/* The job's bytes, all rounds (kb_job_rounds()); 0: none, time_based. */
uint64_t kb_job_io_bytes(const struct kb_job *job)
{
	uint64_t round;

	if (kb_job_ios_rounds(job))
		return kb_job_ios_bytes(job, &round);
	return kb_job_rounds(job, &round);
}

/*
 * fio's zonemode=strided: zonesize needed; zonesize, zonerange and
 * zoneskip only with it.  fio 3.33 refuses zonesize with zonemode=none (its
 * default) and ignores zonerange and zoneskip there, and the three with
 * zbd, which takes its zones from the device: refused here.
 */
static int check_strided(struct kb_job *job, char *err, size_t errlen)
{
	bool given = kb_job_isset(job, KB_OPT_ZONESIZE) || kb_job_isset(job, KB_OPT_ZONERANGE) ||
		     kb_job_isset(job, KB_OPT_ZONESKIP);

	if (given && job->zonemode == KIOBENCH_ZONEMODE_ZBD)
		return kb_errf(err, errlen, "zonesize, zonerange and zoneskip with zonemode=zbd: "
			       "the zones are the device's (zonemode=strided takes them)");
	if (given && !job->strided)
		return kb_errf(err, errlen, "zonemode=none (fio's default) and zonesize, zonerange "
			       "or zoneskip are not compatible; zonemode=strided takes them");
	if (job->strided && !kb_job_isset(job, KB_OPT_ZONESIZE))
		return kb_errf(err, errlen, "zonemode=strided needs zonesize");
	return 0;
}

/*
 * cmdprio_bssplit's entries without a priority take cmdprio_class's and
 * cmdprio's of their direction (fio's implicit cmdprio), known once the
 * whole job is read; kiobench splits latency between the job's priority
 * and one cmdprio a direction.  Not with cmdprio_percentage, as in fio.
 */
static int check_cmdprio_bs(struct kb_job *job, char *err, size_t errlen)
{
	unsigned int d, i;

	if (!kb_job_isset(job, KB_OPT_CMDPRIO_BSSPLIT))
		return 0;
	if (kb_job_isset(job, KB_OPT_CMDPRIO_PCT))
		return kb_errf(err, errlen, "cmdprio_bssplit and cmdprio_percentage exclude "
			       "each other (fio's rule)");
	for (d = 0; d < 2; d++)
		for (i = 0; i < job->nr_cmdprio_bs[d]; i++) {
			struct kb_cmdprio_bs *e = &job->cmdprio_bs[d][i];

			if (e->class < 0) {
				e->class = job->cmdprio_class[d];
				e->level = job->cmdprio[d];
			}
			if (e->class != job->cmdprio_bs[d][0].class ||
			    e->level != job->cmdprio_bs[d][0].level)
				return kb_errf(err, errlen, "cmdprio_bssplit: not implemented yet: "
					       "two priorities in a direction (latency is split "
					       "between the job's priority and one cmdprio)");
		}
	return 0;
}

uint64_t kb_job_rate_window_ns(const struct kb_job *job, bool iops)
{
	bool given = kb_job_isset(job, iops ? KB_OPT_IOPSAVGTIME : KB_OPT_BWAVGTIME);
	uint32_t ms = iops ? job->iops_avg_ms : job->bw_avg_ms;

	/* fio: a bw (iops) log averaged over log_avg_msec sets the window too */
	if ((iops ? job->iops_log : job->bw_log) && job->log_avg_msec)
		ms = given && ms < job->log_avg_msec ? ms : job->log_avg_msec;
	else if (!given)
		return 0;
	return ms * 1000000ULL;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * bwavgtime, iopsavgtime: their samples are windows of the kernel's
 * timeline, so each must be a whole number of its intervals; without
 * interval, the timeline's is their greatest common divisor.
 */
static int rate_windows(struct kb_job *job, char *err, size_t errlen)
{
	uint64_t w[2] = { kb_job_rate_window_ns(job, false), kb_job_rate_window_ns(job, true) };
	uint64_t g = gcd64(w[0], w[1]);
	int i;

	if (!g)
		return 0;
	if (!kb_job_isset(job, KB_OPT_INTERVAL) && g < 10000000)
		return kb_errf(err, errlen, "bwavgtime and iopsavgtime: windows of %llums need a "
			       "timeline interval of %llums; the kernel's shortest is 10ms",
			       (unsigned long long)((w[0] ? w[0] : w[1]) / 1000000),
			       (unsigned long long)(g / 1000000));
	if (!kb_job_isset(job, KB_OPT_INTERVAL)) {
		job->interval_ns = g;
		kb_job_mark(job, KB_OPT_INTERVAL, true);
		return 0;
	}
	for (i = 0; i < 2; i++)
		if (w[i] && w[i] % job->interval_ns)
			return kb_errf(err, errlen, "%s=%llums is not a multiple of interval "
				       "(%lluns): its samples are whole intervals of the kernel's "
				       "timeline", i ? "iopsavgtime" : "bwavgtime",
				       (unsigned long long)(w[i] / 1000000),
				       (unsigned long long)job->interval_ns);
	return 0;
}

/*
 * How bios are submitted: fio's fixup of the batch options (init.c: 0 is
 * iodepth; a low mark of 0, a complete_min of 0 or 1 are the defaults),
 * sync's writefua (the last sync given decides), nowait with an engine that
 * has it, and sync where the engine's write(2) would add a flush.
 */
static int check_submit(struct kb_job *job, char *err, size_t errlen)
{
	if (job->sync_writes && job->write_zeroes)
		return kb_errf(err, errlen, "sync with write_mode=zeroes: a write zeroes carries "
			       "no REQ_FUA (the block layer takes it on REQ_OP_WRITE only)");
	if (job->sync_writes) {
		job->writefua = true;
		kb_job_mark(job, KB_OPT_WRITEFUA, true);
	}
	if (kb_job_isset(job, KB_OPT_IODEPTH_BATCH) && !job->iodepth_batch)
		job->iodepth_batch = job->iodepth < 32 ? job->iodepth : 32;	/* the plug's */
	if (!job->iodepth_low)
		kb_job_mark(job, KB_OPT_IODEPTH_LOW, false);
	if (job->iodepth_batch_complete_min <= 1)
		kb_job_mark(job, KB_OPT_IODEPTH_BATCH_COMPLETE_MIN, false);
	/* fio's nowait is an option of these engines only */
	if (job->nowait && job->ioengine && strcmp(job->ioengine, "pvsync2") &&
	    strcmp(job->ioengine, "libaio") && strcmp(job->ioengine, "io_uring"))
		return kb_errf(err, errlen, "nowait with ioengine=%s: fio's nowait is an "
			       "option of pvsync2, libaio and io_uring only", job->ioengine);
	/* posixaio: glibc's threads call pwrite(2) */
	if (job->sync_writes && (job->sync_engine ||
				 (job->ioengine && !strcmp(job->ioengine, "posixaio"))))
		return kb_errf(err, errlen, "sync with ioengine=%s: its pwrite(2) on a block "
			       "device opened O_SYNC is a FUA write then a flush in the same call "
			       "(generic_write_sync()), timed as one; kiobench times bios: use "
			       "libaio or io_uring (FUA writes only), or fsync=1 to time the flush "
			       "apart", job->ioengine);
	return 0;
}

/* continue_on_error, as the kernel refused its flag: not with zonemode=zbd. */
static int check_coe(const struct kb_job *job, char *err, size_t errlen)
{
	if (job->zonemode == KIOBENCH_ZONEMODE_ZBD &&
	    (job->continue_on_error & (KB_COE_READ | KB_COE_WRITE | KB_COE_VERIFY)))
		return kb_errf(err, errlen, "continue_on_error (or an ignore_error list) with "
			       "zonemode=zbd is refused: a failed write leaves its zone's write "
			       "pointer unknown");
	return 0;
}

/*
 * Direction d's smallest and largest block size (its table, or the previous
 * one's), the largest as bssplit gave it: fio's min_bs and max_bs.
 */
static void dir_bs(const struct kb_job *job, unsigned int d, uint32_t *lo, uint32_t *hi)
{
	uint32_t given = job->bss_given_max[d];
	const struct kb_bss *b = kb_job_bss(job, d, &d);
	unsigned int i;

	*lo = b && d ? UINT32_MAX : job->bs;
	*hi = b && d ? 0 : job->bs;
	for (i = 0; b && i < d; i++) {
		*lo = b[i].size < *lo ? b[i].size : *lo;
		*hi = b[i].size > *hi ? b[i].size : *hi;
	}
	if (given > *hi)
		*hi = given;
}

/*
 * fio's fixup_options() on a verify job's verify_interval: capped at the
 * writes' smallest block size (else, for a job that reads, at the reads'),
 * and the two sizes' gcd when it does not divide the writes' smallest and
 * largest.
 */
static void verify_interval_fio(struct kb_job *job)
{
	uint32_t rlo, rhi, wlo, whi, vi = job->verify_interval;

	dir_bs(job, KIOBENCH_DIR_READ, &rlo, &rhi);
	dir_bs(job, KIOBENCH_DIR_WRITE, &wlo, &whi);
	if (vi > wlo)
		vi = wlo;
	else if (job->rw != KB_RW_WRITE && vi > rlo)
		vi = rlo;
	if (!vi || wlo % vi || whi % vi)
		vi = (uint32_t)gcd64(wlo, whi);
	job->verify_interval = vi;
}

/*
 * size= that is not a multiple of the block size, as fio runs it: fio keeps
 * the size, but draws random offsets from its whole blocks only (its
 * random map, and norandommap, take size / bs blocks) and issues I/O until
 * it has done size bytes or, with the random map, used every block; a
 * sequential pass goes on while fewer than size bytes are done, its last
 * block past size.  So the span is size rounded down to the block size
 * (random) or up (sequential), the bytes of a pass rounded up, but down
 * for random offsets with the random map.  Exact with one block size
 * only; with several, fio's last block is drawn: refused.
 */
static int size_fio(struct kb_job *job, char *err, size_t errlen)
{
	uint32_t lo = UINT32_MAX, hi = 0, l, h;
	uint64_t down, up;
	unsigned int d;

	if (!kb_job_isset(job, KB_OPT_SIZE) || job->size_pct || !job->size)
		return 0;
	for (d = 0; d < KB_BSS_DIRS; d++) {
		dir_bs(job, d, &l, &h);
		lo = l < lo ? l : lo;
		hi = h > hi ? h : hi;
	}
	if (!lo || job->size % lo == 0)
		return 0;
	if (lo != hi || job->strided || job->zonemode || job->rw_seq_nr > 1 ||
	    job->rw_seq_add || (job->random && (job->percentage_random[0] < 100 ||
					       job->percentage_random[1] < 100)))
		return kb_errf(err, errlen, "size=%llu is not a multiple of the block size: "
			       "fio issues whole blocks until size bytes are done, so its last "
			       "block depends on the sizes and offsets it draws; kiobench takes "
			       "that only with one block size and plain sequential or random "
			       "offsets (give a multiple of %u)",
			       (unsigned long long)job->size, lo);
	down = job->size / lo * lo;
	up = down + lo;
	if (!down)
		return kb_errf(err, errlen, "size=%llu is less than one block (%u): fio "
			       "refuses it", (unsigned long long)job->size, lo);
	job->size_given = job->size;
	job->size_io = job->random && !kb_job_norandommap(job) ? down : up;
	job->size = job->random ? down : up;
	return 0;
}

/* The block size tables, and the sizes fio derives from them. */
static int sizes_fio(struct kb_job *job, char *err, size_t errlen)
{
	if (!kb_job_isset(job, KB_OPT_BSSPLIT) && bs_tables(job))
		return kb_errf(err, errlen, "out of memory");
	if (kb_job_verify(job) && kb_job_isset(job, KB_OPT_VERIFY_INTERVAL))
		verify_interval_fio(job);
	return size_fio(job, err, errlen);
}

/* The flushes and write_mode's zeroes, with what they exclude. */
static int check_write_ops(const struct kb_job *job, char *err, size_t errlen)
{
	if (job->fsync && job->fdatasync && job->fsync != job->fdatasync)
		return kb_errf(err, errlen, "fsync=%u and fdatasync=%u: a block device has one "
			       "flush for both; give one", job->fsync, job->fdatasync);
	if (job->write_zeroes && job->trim_mode)
		return kb_errf(err, errlen, "write_mode=zeroes with rw=%s: a trim job writes no "
			       "zeroes", job->rw_str);
	if (job->write_zeroes && job->writefua)
		return kb_errf(err, errlen, "write_mode=zeroes with writefua: the block layer "
			       "takes REQ_FUA on data writes only");
	if (job->zeroes_unmap && !job->write_zeroes)
		return kb_errf(err, errlen, "write_zeroes_unmap needs write_mode=zeroes");
	return 0;
}

/* fio's pi_act and pi_chk go together; with them fio's default apptag. */
static int pi_check(struct kb_job *job, char *err, size_t errlen)
{
	if (job->pi_act && kb_job_isset(job, KB_OPT_PI_CHK))
		return kb_errf(err, errlen, "pi_chk: only with pi_act=0 (kiobench's own protection "
			       "information); with pi_act=1 the block layer (write_generate, "
			       "read_verify) or the device (PRACT) decides what is checked");
	if (!job->pi_act && !kb_job_isset(job, KB_OPT_PI_CHK))
		return kb_errf(err, errlen, "pi_act=0 needs pi_chk: kiobench sends its own "
			       "protection information with at least one check");
	if (!job->pi_act)
		kb_job_mark(job, KB_OPT_APPTAG, true);
	return 0;
}

/* number_ios over rounds: in bytes, so one block size (kb_job_ios_bytes()). */
static int ios_rounds_check(const struct kb_job *job, char *err, size_t errlen)
{
	if (kb_job_ios_over_rounds(job) && kb_job_min_bs(job) != kb_job_max_bs(job))
		return kb_errf(err, errlen, "number_ios with verify or end_fsync over several "
			       "rounds (loops, or io_size past size) needs one block size: fio "
			       "stops a round where the count is reached (its read-back counted "
			       "too), then reads back or flushes, which kiobench bounds in bytes");
	return 0;
}

/*
 * fio's round cap (do_io()'s total_bytes) counts everything a round issues,
 * verify_backlog's reads too, and allows size more than the round's
 * writes.  With a round of size that is exactly its read-back; with a
 * round of io_size past size (random writes with norandommap), fio stops
 * the writes short of io_size by what the windows read back beyond size,
 * which depends on how many writes later ones overwrote: not modelled.
 */
static int backlog_round_check(const struct kb_job *job, char *err, size_t errlen)
{
	uint64_t round;

	if (!job->verify_backlog || !kb_job_reads_back(job))
		return 0;
	kb_job_rounds(job, &round);
	if (round > kb_job_size(job))
		return kb_errf(err, errlen, "verify_backlog with norandommap random writes and "
			       "io_size past size: fio's round stops writing short of io_size by "
			       "the windows' reads beyond size (do_io()'s total_bytes), which "
			       "kiobench does not model; set io_size to at most size, or loops");
	return 0;
}

int kb_job_check(struct kb_job *job, char *err, size_t errlen)
{
	if (!job->nr_devices)
		return kb_errf(err, errlen, "no device given (--filename=DEV)");
	if (job->time_based && !kb_job_isset(job, KB_OPT_RUNTIME))
		return kb_errf(err, errlen, "time_based needs runtime");
	if (job->hipri && job->spin)
		return kb_errf(err, errlen, "hipri and spin exclude each other (hipri polls, spin waits)");
	if (pi_check(job, err, errlen) || rate_windows(job, err, errlen) ||
	    ios_rounds_check(job, err, errlen) || backlog_round_check(job, err, errlen))
		return -1;
	if (job->log_store_compressed && job->hist_log)
		return kb_errf(err, errlen, "log_store_compressed with write_hist_log is refused: "
			       "fio stores a histogram sample as a pointer into its own memory, "
			       "so no reader (fio --inflate-log) can make its .fz back into lines");
	if (job->write_iolog && kb_job_zone_op(job))
		return kb_errf(err, errlen, "write_iolog with zone operations (rw=zone_*, "
			       "zone_mgmt) is refused: fio's iolog has no zone operations, and "
			       "zone_mgmt's resets are not bios the kernel logs");
	if (job->offset_align % 512)
		return kb_errf(err, errlen, "offset_align=%llu: not a multiple of 512, which "
			       "kiobench's direct I/O needs", (unsigned long long)job->offset_align);
	if (kb_job_isset(job, KB_OPT_RATE_PROCESS) && !kb_job_isset(job, KB_OPT_RATE_IOPS) &&
	    !kb_job_isset(job, KB_OPT_RATE))
		return kb_errf(err, errlen, "rate_process needs rate_iops or rate");
	if (!kb_job_isset(job, KB_OPT_THINKTIME) &&
	    (kb_job_isset(job, KB_OPT_THINKTIME_SPIN) ||
	     kb_job_isset(job, KB_OPT_THINKTIME_BLOCKS) ||
	     kb_job_isset(job, KB_OPT_THINKTIME_BLOCKS_TYPE) ||
	     kb_job_isset(job, KB_OPT_THINKTIME_IOTIME)))
		return kb_errf(err, errlen, "thinktime_spin, thinktime_blocks, "
			       "thinktime_blocks_type and thinktime_iotime need thinktime");
	if (!kb_job_isset(job, KB_OPT_BSSPLIT) && bs_tables(job))
		return kb_errf(err, errlen, "out of memory");
	if (kb_job_verify(job) && kb_job_isset(job, KB_OPT_VERIFY_INTERVAL))
		verify_interval_fio(job);
	if (sizes_fio(job, err, errlen))
		return -1;
	if (rate_to_iops(job, err, errlen))
		return -1;
	if (check_write_ops(job, err, errlen))
		return -1;
	if (!kb_job_isset(job, KB_OPT_LATENCY_TARGET) &&
	    (kb_job_isset(job, KB_OPT_LATENCY_WINDOW) ||
	     kb_job_isset(job, KB_OPT_LATENCY_PERCENTILE) ||
	     kb_job_isset(job, KB_OPT_LATENCY_RUN)))
		return kb_errf(err, errlen, "latency_window, latency_percentile and latency_run "
			       "need latency_target");
	if (kb_job_isset(job, KB_OPT_LATENCY_TARGET) &&
	    (job->rate_iops || kb_job_isset(job, KB_OPT_THINKTIME) || job->verify))
		return kb_errf(err, errlen, "latency_target with rate, rate_iops, thinktime or "
			       "verify: not implemented yet (the search runs in the closed loop)");
	if (check_strided(job, err, errlen))
		return -1;
	if (check_cmdprio_bs(job, err, errlen))
		return -1;
	if (kb_job_ba(job) && job->skew)
		return kb_errf(err, errlen, "ba with random_distribution zipf, pareto or normal: "
			       "not implemented yet");
	if (check_submit(job, err, errlen) || check_coe(job, err, errlen))
		return -1;
	/* fio's init.c: its working set is made over size before the job */
	if (job->dedupe_percentage && job->dedupe_mode == KIOBENCH_DEDUPE_WORKING_SET &&
	    !kb_job_isset(job, KB_OPT_SIZE))
		return kb_errf(err, errlen, "dedupe_mode=working_set needs size, as fio's: it "
			       "makes the working set over the size given");
	/* fio: a synchronous engine has one I/O in flight, whatever iodepth says */
	if (job->sync_engine)
		job->iodepth = 1;
	if (!job->name[0])
		strcpy(job->name, "kiobench");
	/* fio: a seed of its own each run unless randrepeat, allrandrepeat or randseed */
	if (!job->randrepeat && !job->allrandrepeat && !kb_job_isset(job, KB_OPT_SEED)) {
		if (getrandom(&job->seed, sizeof(job->seed), 0) != sizeof(job->seed))
			return kb_errf(err, errlen, "randrepeat=0: getrandom: %s",
				       strerror(errno));
		kb_job_mark(job, KB_OPT_SEED, true);
	}
	return 0;
}

/*
 * The seed the kernel is given: the run's job n's own.  fio seeds job n's
 * generators from the seed times n (setup_random_seeds()), so that no two
 * of a run's jobs, numjobs's clones among them, repeat each other's
 * offsets or data.
 */
uint64_t kb_job_seed(const struct kb_job *job)
{
	uint64_t seed = kb_job_isset(job, KB_OPT_SEED) ? job->seed : KIOBENCH_DEFAULT_SEED;

	return seed + job->thread * 0x9e3779b97f4a7c15ULL;
}

bool kb_job_cmdprio(const struct kb_job *job)
{
	return job->cmdprio_pct[KIOBENCH_DIR_READ] || job->cmdprio_pct[KIOBENCH_DIR_WRITE] ||
	       job->nr_cmdprio_bs[0] || job->nr_cmdprio_bs[1];
}

/*
 * fio's rw=write:N with io_size given: where the pass would not fit its next
 * I/O in the span, fio's file is done and, short of io_size, keep_running()
 * starts a new round from the span's start; with size alone the job ends
 * there.
 */
bool kb_job_seq_wrap(const struct kb_job *job)
{
	return !job->random && job->rw_seq_add && kb_job_isset(job, KB_OPT_IO_SIZE);
}

/*
 * A sequential pass that never comes back over its blocks (not time_based,
 * one loop, io_size within size, no strided zones): fio's sorted log reads
 * it back in the order written, each block once, which is the kernel's
 * replay: no log is asked for, so a whole drive's verify needs no memory
 * for one.  Unless a failed write may be gone on from (continue_on_error's
 * or ignore_error's write errors): fio drops it from the log, and only
 * the kernel's log can drop it from the read-back.
 */
static bool kb_job_seq_once(const struct kb_job *job)
{
	return !job->random && !job->time_based && job->loops <= 1 && !job->strided &&
	       !(job->continue_on_error & KB_COE_WRITE) && !kb_job_seq_wrap(job) &&
	       (!kb_job_isset(job, KB_OPT_IO_SIZE) ||
		(kb_job_isset(job, KB_OPT_SIZE) && job->io_size <= job->size));
}

/*
 * Whether fio reads a write job's blocks back sorted by offset: without
 * experimental_verify, its log_io_piece() sorts them when the file has no
 * random map (file_randommap(): a random job without norandommap, lfsr, ba
 * or a random_distribution other than random, zoned and zoned_abs, which
 * init_random_map() keeps for a map).  The kernel then logs the writes.
 */
bool kb_job_verify_sorted(const struct kb_job *job)
{
	bool randommap = job->random && !job->norandommap &&
			 job->random_generator != KB_RANDGEN_LFSR && !job->skew &&
			 !kb_job_ba(job);

	return kb_job_verify(job) && kb_job_rwmix_read(job) < 100 && job->do_verify &&
	       !job->experimental_verify && !randommap && !kb_job_seq_once(job);
}

/*
 * fio's rounds (kb_job_rounds()): with verify each round's writes are read
 * back before the next, and end_fsync flushes at each round's end.  The
 * kernel is told a round's bytes when they show (kb_job_round_ends()), the
 * budget is bytes, and it takes more than one.  0: one round.
 */
uint64_t kb_job_io_round(const struct kb_job *job)
{
	uint64_t round, all;

	if (kb_job_ios_rounds(job))
		all = kb_job_ios_bytes(job, &round);
	else if (kb_job_round_ends(job) && !job->number_ios)
		all = kb_job_rounds(job, &round);
	else
		return 0;
	return all > round ? round : 0;
}

/*
 * What the kernel is asked for: the random map unless norandommap; fio's
 * lfsr never repeats a block in a pass, even with norandommap, and the map
 * is what keeps that guarantee here.
 */
bool kb_job_norandommap(const struct kb_job *job)
{
	return (job->norandommap && job->random_generator != KB_RANDGEN_LFSR) ||
	       job->nr_zones[KIOBENCH_DIR_READ] || job->nr_zones[KIOBENCH_DIR_WRITE] ||
	       job->skew || kb_job_ba(job);
}

/*
 * fio's lfsr under the random map (random-lfsr): the kernel's permutation
 * whatever the sizes, as fio's lfsr keeps no bitmap: several sizes are
 * drawn again to fit before the span's end, never cut, and overlap.
 */
bool kb_job_random_lfsr(const struct kb_job *job)
{
	return job->random && job->random_generator == KB_RANDGEN_LFSR &&
	       !kb_job_norandommap(job);
}

/* fio's ba when it changes anything: a random job's, not the smallest bs. */
uint32_t kb_job_ba(const struct kb_job *job)
{
	return job->random && job->ba && job->ba != kb_job_min_bs(job) ? job->ba : 0;
}

/* Direction @d's sizes (0 reads, 1 writes, 2 trims): its own or the previous one's. */
const struct kb_bss *kb_job_bss(const struct kb_job *job, unsigned int d, unsigned int *n)
{
	for (; d && !job->bss_wt[d - 1]; d--)
		;
	*n = d ? job->nr_bss_wt[d - 1] : job->nr_bss;
	return d ? job->bss_wt[d - 1] : job->bss;
}

uint32_t kb_job_min_bs(const struct kb_job *job)
{
	uint32_t m = UINT32_MAX, own;
	const struct kb_bss *b;
	unsigned int i, d, n;

	for (d = 0; d < KB_BSS_DIRS; d++) {
		/* a direction's table (bssplit's, or bs's once checked) overrides bs */
		b = kb_job_bss(job, d, &n);
		for (i = 0; i < n; i++)
			if (b[i].size < m)
				m = b[i].size;
		own = d && job->bs_wt[d - 1] ? job->bs_wt[d - 1] : job->bs;
		if (!n && own < m)
			m = own;
	}
	return m;
}

/*
 * fio's percentages of a device of dev bytes: offset=N% aligned up to
 * offset_align (by default the smallest block size), size=N% of the
 * device (to whole blocks), both within the device.  With offset=N% or
 * offset_increment=N%, clone k's offset is the raw offset plus k
 * increments, aligned up as a whole (fio's get_start_offset()).
 */
int kb_job_span_pct(struct kb_job *job, uint64_t dev, char *err, size_t errlen)
{
	uint64_t align = kb_job_min_bs(job), off = job->offset;
	uint64_t oalign = job->offset_align ? job->offset_align : align;

	if (job->offset_increment_pct) {
		job->offset_increment = dev / 100 * job->offset_increment_pct +
					dev % 100 * job->offset_increment_pct / 100;
		job->offset_increment_pct = 0;
		job->offset_raw = off;
		job->clone_align = oalign;
		off = (off + oalign - 1) / oalign * oalign;
		job->offset = off;
	}
	if (job->offset_pct) {
		off = dev / 100 * job->offset_pct + dev % 100 * job->offset_pct / 100;
		job->offset_raw = off;
		job->clone_align = oalign;
		off = (off + oalign - 1) / oalign * oalign;
		if (off >= dev)
			return kb_errf(err, errlen, "offset=%u%%: beyond the end of the device "
				       "(%llu bytes)", job->offset_pct, (unsigned long long)dev);
		job->offset = off;
		job->offset_pct = 0;
	}
	if (job->size_pct) {
		uint64_t sz = dev / 100 * job->size_pct + dev % 100 * job->size_pct / 100;

		if (off >= dev)
			return kb_errf(err, errlen, "offset %llu: beyond the end of the device "
				       "(%llu bytes)", (unsigned long long)off,
				       (unsigned long long)dev);
		if (sz > dev - off)
			sz = dev - off;
		sz = sz / align * align;
		if (!sz)
			return kb_errf(err, errlen, "size=%u%%: less than one block of the device",
				       job->size_pct);
		job->size = sz;
		job->size_pct = 0;
	}
	return 0;
}

/* Percentages of the devices' size: all of them must give the same bytes. */
int kb_job_resolve_pct(struct kb_job *job, bool *unreadable, char *err, size_t errlen)
{
	uint64_t dev, first = 0;
	unsigned int i;

	*unreadable = false;
	if (!job->size_pct && !job->offset_pct && !job->offset_increment_pct)
		return 0;
	for (i = 0; i < job->nr_devices; i++) {
		*unreadable = kb_dev_bytes(job->devices[i], &dev);
		if (*unreadable)
			return kb_errf(err, errlen, "%s=%u%%: %s: cannot read its size (%s)",
				       job->size_pct ? "size" : job->offset_pct ? "offset" :
				       "offset_increment", job->size_pct ? job->size_pct :
				       job->offset_pct ? job->offset_pct :
				       job->offset_increment_pct,
				       job->devices[i], strerror(errno));
		if (i && dev != first)
			return kb_errf(err, errlen, "percentages of devices of different sizes "
				       "(%s, %s): give size and offset in bytes",
				       job->devices[0], job->devices[i]);
		first = dev;
	}
	return kb_job_span_pct(job, first, err, errlen);
}

int kb_job_finalize(struct kb_job *job, char *err, size_t errlen)
{
	bool unreadable;

	if (kb_job_check(job, err, errlen))
		return -1;
	return kb_job_resolve_pct(job, &unreadable, err, errlen);
}

/* ---- a job as a job file (--parse-only) -------------------------------------- */

static void format_rw3(const uint64_t v[3], char *buf, size_t len)
{
	snprintf(buf, len, "%llu,%llu,%llu", (unsigned long long)v[0], (unsigned long long)v[1],
		 (unsigned long long)v[2]);
}

static void format_list(const struct kb_opt *o, const struct kb_job *job, char *buf,
			size_t len)
{
	size_t at = 0;
	unsigned int i, d;

	buf[0] = '\0';
	if (o->id == KB_OPT_FILENAME)
		for (i = 0; i < job->nr_devices && at < len; i++)
			at += snprintf(buf + at, len - at, "%s%s", i ? ":" : "", job->devices[i]);
	else if (o->id == KB_OPT_BSSPLIT)	/* reads[,writes,trims] */
		for (d = 0; d < (job->bss_wt[0] || job->bss_wt[1] ? KB_BSS_DIRS : 1U); d++) {
			unsigned int n;
			const struct kb_bss *b = kb_job_bss(job, d, &n);

			if (job->bsrange) {	/* bsrange's LO-HI (its tables' ends) */
				if (at < len)
					at += snprintf(buf + at, len - at, "%s%u-%u", d ? "," : "",
						       b[0].size, b[n - 1].size);
				continue;
			}
			for (i = 0; i < n && at < len; i++)
				at += snprintf(buf + at, len - at, "%s%u/%u",
					       i ? ":" : d ? "," : "", b[i].size, b[i].weight);
		}
	else if (o->id == KB_OPT_CPUS)
		for (i = 0; i < job->nr_cpus && at < len; i++)
			at += snprintf(buf + at, len - at, "%s%u", i ? "," : "", job->cpus[i]);
	else
		for (i = 0; i < job->nr_plist && at < len; i++) {
			char pct[32];

			kb_pct_str(job->plist[i], pct, sizeof(pct));
			at += snprintf(buf + at, len - at, "%s%s", i ? ":" : "", pct);
		}
}

/* bs, or fio's bs=R,W,T when writes or trims have sizes of their own. */
static void format_bs(const struct kb_job *job, char *buf, size_t len)
{
	uint32_t w = job->bs_wt[0] ? job->bs_wt[0] : job->bs;

	if (job->bs_wt[0] || job->bs_wt[1])
		snprintf(buf, len, "%u,%u,%u", job->bs, w, job->bs_wt[1] ? job->bs_wt[1] : w);
	else
		snprintf(buf, len, "%u", job->bs);
}

/* cmdprio_bssplit as fio reads it: the reads', a comma, the writes'. */
static void format_cmdprio_bs(const struct kb_job *job, char *buf, size_t len)
{
	size_t at = 0;
	unsigned int d, i;

	buf[0] = '\0';
	for (d = 0; d < 2; d++)
		for (i = 0; i < job->nr_cmdprio_bs[d] && at < len; i++) {
			const struct kb_cmdprio_bs *e = &job->cmdprio_bs[d][i];

			at += snprintf(buf + at, len - at, "%s%u/%u", i ? ":" : d ? "," : "",
				       e->size, e->pct);
			if (e->class >= 0 && at < len)
				at += snprintf(buf + at, len - at, "/%d/%d", e->class, e->level);
		}
	if (!job->nr_cmdprio_bs[1] && at < len)
		snprintf(buf + at, len - at, ",");
}

/*
 * rw with its :N, zonemode, ba, cmdprio_bssplit and rw_sequencer as fio
 * reads them; false for another option.
 */
static void format_cpus(const uint32_t *v, unsigned int n, char *buf, size_t len)
{
	size_t at = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && at < len; i++)
		at += snprintf(buf + at, len - at, "%s%u", i ? "," : "", v[i]);
}

static bool format_fio(const struct kb_opt *o, const struct kb_job *job, char *buf,
		       size_t len)
{
	bool found;

	if (o->id == KB_OPT_RW && job->random && job->rw_seq_nr > 1)
		snprintf(buf, len, "%s:%u", job->rw_str, job->rw_seq_nr);
	else if (o->id == KB_OPT_RW && !job->random && job->rw_seq_add)
		snprintf(buf, len, "%s:%llu", job->rw_str, (unsigned long long)job->rw_seq_add);
	else if (o->id == KB_OPT_RW)
		snprintf(buf, len, "%s", job->rw_str);
	else if (o->id == KB_OPT_ZONEMODE)
		snprintf(buf, len, "%s", job->strided ? "strided" :
			 job->zonemode == KIOBENCH_ZONEMODE_ZBD ? "zbd" : "none");
	else if (o->id == KB_OPT_BA)
		snprintf(buf, len, "%u", job->ba);
	else if (o->id == KB_OPT_CMDPRIO_BSSPLIT)
		format_cmdprio_bs(job, buf, len);
	else if (o->id == KB_OPT_RW_SEQUENCER)
		snprintf(buf, len, "%s", job->rw_sequencer == KIOBENCH_RW_SEQ_IDENTICAL ?
			 "identical" : "sequential");
	else if (o->id == KB_OPT_UNIFIED_RW)
		snprintf(buf, len, "%s", job->unified_rw == KB_UNIFIED_MIXED ? "mixed" :
			 job->unified_rw == KB_UNIFIED_BOTH ? "both" : "none");
	else if (o->id == KB_OPT_UNIT_BASE || o->id == KB_OPT_LOG_ALT_EPOCH_CLOCK ||
		 o->id == KB_OPT_LOG_COMPRESSION)
		snprintf(buf, len, "%u", *(const uint32_t *)((const char *)job + o->off));
	else if (o->id == KB_OPT_SLAT_PERCENTILES)
		snprintf(buf, len, "0");
	else if (o->id == KB_OPT_APPTAG_MASK)	/* the one value taken */
		snprintf(buf, len, "0xffff");
	else if (o->id == KB_OPT_LOG_COMPRESSION_CPUS)
		format_cpus(job->log_compression_cpus, job->nr_log_compression_cpus, buf, len);
	else if (o->host)	/* as given; a bare flag is fio's 1 */
		snprintf(buf, len, "%s", kb_job_applied(job, o->id, &found) ?: "1");
	else if (o->id == KB_OPT_SIZE && job->size_given)	/* fio's, not the span */
		snprintf(buf, len, "%llu", (unsigned long long)job->size_given);
	else
		return false;
	return true;
}

/* A pattern as parse_pattern() reads it back: its bytes in hex. */
static void format_pattern(const uint8_t *p, uint32_t n, char *buf, size_t len)
{
	size_t at = 0;
	uint32_t i;

	buf[0] = '\0';
	if (n && len > 2)
		at = snprintf(buf, len, "0x");
	for (i = 0; i < n && at + 2 < len; i++)
		at += snprintf(buf + at, len - at, "%02x", p[i]);
}

/* ignore_error's lists as p_ignore_error() reads them: numbers. */
static void format_ignore_error(const struct kb_job *job, char *buf, size_t len)
{
	unsigned int t, i, last = 0;
	size_t at = 0;

	buf[0] = '\0';
	for (t = 0; t < 3; t++)
		if (job->nr_ignore_error[t])
			last = t + 1;
	for (t = 0; t < last && at < len; t++) {
		if (t)
			at += snprintf(buf + at, len - at, ",");
		for (i = 0; i < job->nr_ignore_error[t] && at < len; i++)
			at += snprintf(buf + at, len - at, "%s%u", i ? ":" : "",
				       job->ignore_error[t][i]);
	}
}

/* pi_chk's and pi_inject's fields, as p_pi_chk() reads them. */
static void format_pi_fields(uint32_t bits, char *buf, size_t len)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(kb_pi_fields) / sizeof(kb_pi_fields[0]) && at < len; i++)
		if (bits & 1u << i)
			at += snprintf(buf + at, len - at, "%s%s", at ? "," : "", kb_pi_fields[i]);
}

/*
 * The options whose values are neither numbers of their parser's kind nor
 * strings: each as its parser reads it back.
 */
static bool format_coded(const struct kb_opt *o, const struct kb_job *job, char *buf,
			 size_t len)
{
	const void *f = (const char *)job + o->off;
	size_t i;

	if (o->id == KB_OPT_PI_CHK || o->id == KB_OPT_PI_INJECT) {
		format_pi_fields(*(const uint32_t *)f, buf, len);
		return true;
	}
	if (o->id == KB_OPT_VERIFY) {
		for (i = 0; i < sizeof(kb_verify_methods) / sizeof(kb_verify_methods[0]); i++)
			if (kb_verify_methods[i].verify == job->verify)
				break;
		snprintf(buf, len, "%s", i < sizeof(kb_verify_methods) /
			 sizeof(kb_verify_methods[0]) ? kb_verify_methods[i].name : "?");
	} else if (o->id == KB_OPT_VERIFY_PATTERN) {
		format_pattern(job->verify_pattern, job->verify_pattern_len, buf, len);
	} else if (o->id == KB_OPT_BUFFER_PATTERN) {
		format_pattern(job->buffer_pattern, job->buffer_pattern_len, buf, len);
	} else if (o->id == KB_OPT_IGNORE_ERROR) {
		format_ignore_error(job, buf, len);
	} else if (o->id == KB_OPT_CONT_ERR) {
		snprintf(buf, len, "%s", coe_name(job->coe_given));
	} else if (o->id == KB_OPT_STARTDELAY && job->startdelay_hi_ns > job->startdelay_ns) {
		snprintf(buf, len, "%lluns-%lluns", (unsigned long long)job->startdelay_ns,
			 (unsigned long long)job->startdelay_hi_ns);
	} else if (o->id == KB_OPT_STARTDELAY) {
		snprintf(buf, len, "%lluns", (unsigned long long)job->startdelay_ns);
	} else if (o->id == KB_OPT_EXIT_WHAT) {
		snprintf(buf, len, "%s", job->exit_what < sizeof(kb_exit_whats) /
			 sizeof(kb_exit_whats[0]) ? kb_exit_whats[job->exit_what] : "?");
	} else if (o->id == KB_OPT_DEDUPE_MODE) {
		snprintf(buf, len, "%s", job->dedupe_mode == KIOBENCH_DEDUPE_WORKING_SET ?
			 "working_set" : "repeat");
	} else if (o->id == KB_OPT_SYNC) {
		snprintf(buf, len, "%s", job->sync_writes ? "sync" : "none");
	} else if (o->id == KB_OPT_WRITE_HINT) {
		/* 1 none .. 5 extreme; 0, unset, is none too */
		snprintf(buf, len, "%s", job->write_hint <= sizeof(kb_write_hints) /
			 sizeof(kb_write_hints[0]) ?
			 kb_write_hints[job->write_hint ? job->write_hint - 1 : 0] : "?");
	} else if (o->id == KB_OPT_WRITE_STREAMS) {
		size_t at = 0;

		buf[0] = '\0';
		for (i = 0; i < job->nr_write_streams && at < len; i++)
			at += (size_t)snprintf(buf + at, len - at, "%s%u", i ? "," : "",
					       job->write_streams[i]);
	} else if (o->id == KB_OPT_WRITE_STREAM_SELECT) {
		snprintf(buf, len, "%s", job->write_stream_select < sizeof(kb_ws_selects) /
			 sizeof(kb_ws_selects[0]) ? kb_ws_selects[job->write_stream_select] : "?");
	} else if (o->id == KB_OPT_REPLAY_SKIP) {
		size_t at = 0;

		buf[0] = '\0';
		for (i = 0; i < sizeof(kb_replay_kinds) / sizeof(kb_replay_kinds[0]) && at < len; i++)
			if (job->replay_skip & 1u << i)
				at += snprintf(buf + at, len - at, "%s%s", at ? "," : "",
					       kb_replay_kinds[i]);
	} else if (o->id == KB_OPT_WAIT_FOR) {
		snprintf(buf, len, "%s", job->wait_for ? job->wait_for : "");
	} else if (o->id == KB_OPT_THINKTIME_BLOCKS_TYPE) {
		snprintf(buf, len, "complete");
	} else if (o->id == KB_OPT_CPUS_POLICY) {
		snprintf(buf, len, "%s", job->cpus_split ? "split" : "shared");
	} else if (o->id == KB_OPT_NICE) {
		snprintf(buf, len, "%d", job->nice);
	} else if (o->parse == p_size32) {
		snprintf(buf, len, "%u", *(const uint32_t *)f);
	} else if (o->parse == p_fraction) {	/* millionths */
		snprintf(buf, len, "%g", *(const uint32_t *)f / 1e6);
	} else if (o->parse == p_lat_pct) {	/* millionths of the whole, as percent */
		snprintf(buf, len, "%g", *(const uint32_t *)f / 1e4);
	} else {
		return false;
	}
	return true;
}

const char *kb_job_applied(const struct kb_job *job, enum kb_opt_id id, bool *found)
{
	size_t i;

	*found = false;
	for (i = job->applied.n; i--;)
		if (job->applied.v[i].opt->id == id) {
			*found = true;
			return job->applied.v[i].val;
		}
	return NULL;
}

/*
 * The name @o prints under: bssplit's tables that a bsrange wider than
 * them made (job->bsrange) print as that bsrange.
 */
const char *kb_opt_print_name(const struct kb_opt *o, const struct kb_job *job)
{
	return o->id == KB_OPT_BSSPLIT && job->bsrange ? "bsrange" : o->name;
}

void kb_opt_format(const struct kb_opt *o, const struct kb_job *job, char *buf, size_t len)
{
	const void *f = (const char *)job + o->off;
	uint8_t pct = o->id == KB_OPT_SIZE ? job->size_pct :
		      o->id == KB_OPT_OFFSET ? job->offset_pct :
		      o->id == KB_OPT_OFFSET_INCREMENT ? job->offset_increment_pct : 0;

	if (format_fio(o, job, buf, len) || format_coded(o, job, buf, len))
		return;
	if (o->id == KB_OPT_FILENAME || o->id == KB_OPT_BSSPLIT || o->id == KB_OPT_CPUS ||
	    o->id == KB_OPT_PLIST)
		format_list(o, job, buf, len);
	else if (o->id == KB_OPT_NAME)
		snprintf(buf, len, "%s", job->name);
	else if (o->id == KB_OPT_RWMIXREAD || o->id == KB_OPT_RWMIXWRITE)
		snprintf(buf, len, "%u", o->id == KB_OPT_RWMIXREAD ? job->rwmixread :
			 100 - job->rwmixread);
	else if (o->id == KB_OPT_BS)
		format_bs(job, buf, len);
	else if (o->id == KB_OPT_WRITE_MODE)
		snprintf(buf, len, "%s", job->write_zeroes ? "zeroes" :
			 job->zone_append ? "zone_append" : "write");
	else if (o->id == KB_OPT_RATE_PROCESS)
		snprintf(buf, len, "%s", job->rate_process == KIOBENCH_RATE_POISSON ?
			 "poisson" : "linear");
	else if (o->id == KB_OPT_IOENGINE || o->id == KB_OPT_DESCRIPTION)
		snprintf(buf, len, "%s", o->id == KB_OPT_IOENGINE ? job->ioengine : job->description);
	else if (o->id == KB_OPT_KB_BASE)
		snprintf(buf, len, "%u", job->kb_base);
	else if (o->id == KB_OPT_BUFFERED)
		snprintf(buf, len, "0");
	else if (o->id == KB_OPT_RANDGEN)
		snprintf(buf, len, "%s", kb_randgen_name(job->random_generator));
	else if (o->id == KB_OPT_RANDOM_DIST && job->skew)
		snprintf(buf, len, "%s:%g", job->skew == KB_SKEW_ZIPF ? "zipf" :
			 job->skew == KB_SKEW_PARETO ? "pareto" : "normal", job->skew_val);
	else if (o->id == KB_OPT_RANDOM_DIST)
		kb_random_dist_str((const struct kb_zone *const *)job->zones, job->nr_zones,
				   job->zones_abs, buf, len);
	else if (o->parse == p_direct || o->parse == p_always)
		snprintf(buf, len, "1");
	else if (pct)
		snprintf(buf, len, "%u%%", pct);
	else if (o->parse == p_u32 || o->parse == p_prio)
		snprintf(buf, len, "%u", *(const uint32_t *)f);
	else if (o->parse == p_cmdprio && ((const uint32_t *)f)[0] == ((const uint32_t *)f)[1])
		snprintf(buf, len, "%u", ((const uint32_t *)f)[0]);
	else if (o->parse == p_cmdprio)
		snprintf(buf, len, "%u,%u", ((const uint32_t *)f)[0], ((const uint32_t *)f)[1]);
	else if (o->parse == p_u64 || o->parse == p_size)
		snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)f);
	else if (o->parse == p_time || o->parse == p_time_us)
		snprintf(buf, len, "%lluns", (unsigned long long)*(const uint64_t *)f);
	else if (o->id == KB_OPT_RATE || o->id == KB_OPT_RATE_IOPS)
		format_rw3(o->id == KB_OPT_RATE ? job->rate_bps : job->rate_iops_rw, buf, len);
	else if (o->id == KB_OPT_RATE_MIN || o->id == KB_OPT_RATE_IOPS_MIN)
		format_rw3(o->id == KB_OPT_RATE_MIN ? job->limits.bps : job->limits.iops, buf,
			   len);
	else if (o->id == KB_OPT_MAX_LATENCY)
		snprintf(buf, len, "%lluns,%lluns,%lluns",
			 (unsigned long long)job->limits.max_lat_ns[0],
			 (unsigned long long)job->limits.max_lat_ns[1],
			 (unsigned long long)job->limits.max_lat_ns[2]);
	else if (o->id == KB_OPT_SS)
		kb_ss_opt_str(&job->ss, buf, len);
	else if (o->id == KB_OPT_SS_DUR)
		snprintf(buf, len, "%us", job->ss.dur_s);
	else if (o->id == KB_OPT_SS_RAMP)
		snprintf(buf, len, "%lluns", (unsigned long long)job->ss.ramp_ns);
	else if (o->parse == p_flag)
		snprintf(buf, len, "%d", *(const bool *)f);
	else if (o->parse == p_str || o->parse == p_log)
		snprintf(buf, len, "%s", *(char *const *)f ? *(char *const *)f : "");
	else	/* a parser without a format here: never its field read as a string */
		snprintf(buf, len, "?");
}
