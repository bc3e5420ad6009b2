// SPDX-License-Identifier: GPL-2.0
/*
 * pi-chk: kiobench's own protection information.  Each read and write
 * carries protection information of kiobench's (fio's io_uring_cmd with
 * pi_act=0), in a buffer of the slot's made with the job: for a write, per
 * protection interval, the T10 PI tuple computed here (guard: CRC-16
 * T10-DIF of the interval's data; application tag: pi-apptag; reference
 * tag: the lower 32 bits of the interval's LBA, type 1); for a read, a
 * buffer whose tuples are checked as the worker reaps it.  The block layer
 * leaves a bio that has a payload alone (bio_integrity_action() is 0;
 * before 7.0 bio_integrity_prep() passes it through), so write_generate
 * and read_verify change nothing; the NVMe driver sends the payload as the
 * command's metadata, without PRACT, with the PRCHK bits of
 * pi-chk (BIP_CHECK_*; before 6.14 those of the device's PI type, which
 * pi-chk must then be), and the device checks them.  Whose the payload
 * is, and how it is attached and given back, is compat.h's (kb_bip,
 * kb_bio_attach_pi()).
 *
 * The guard is computed here, not by the kernel's crc_t10dif(): lib/crc-t10dif
 * is a module on some kernels, and calling it would make a bare insmod fail
 * as crc64.c explains.  The table is CRC-16 T10-DIF's (polynomial 0x8bb7,
 * MSB first, no reflection, no final xor; check value 0xd0db).
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "kiobench.h"

static const u16 kb_t10dif_table[256] = {
	0x0000, 0x8bb7, 0x9cd9, 0x176e, 0xb205, 0x39b2, 0x2edc, 0xa56b,
	0xefbd, 0x640a, 0x7364, 0xf8d3, 0x5db8, 0xd60f, 0xc161, 0x4ad6,
	0x54cd, 0xdf7a, 0xc814, 0x43a3, 0xe6c8, 0x6d7f, 0x7a11, 0xf1a6,
	0xbb70, 0x30c7, 0x27a9, 0xac1e, 0x0975, 0x82c2, 0x95ac, 0x1e1b,
	0xa99a, 0x222d, 0x3543, 0xbef4, 0x1b9f, 0x9028, 0x8746, 0x0cf1,
	0x4627, 0xcd90, 0xdafe, 0x5149, 0xf422, 0x7f95, 0x68fb, 0xe34c,
	0xfd57, 0x76e0, 0x618e, 0xea39, 0x4f52, 0xc4e5, 0xd38b, 0x583c,
	0x12ea, 0x995d, 0x8e33, 0x0584, 0xa0ef, 0x2b58, 0x3c36, 0xb781,
	0xd883, 0x5334, 0x445a, 0xcfed, 0x6a86, 0xe131, 0xf65f, 0x7de8,
	0x373e, 0xbc89, 0xabe7, 0x2050, 0x853b, 0x0e8c, 0x19e2, 0x9255,
	0x8c4e, 0x07f9, 0x1097, 0x9b20, 0x3e4b, 0xb5fc, 0xa292, 0x2925,
	0x63f3, 0xe844, 0xff2a, 0x749d, 0xd1f6, 0x5a41, 0x4d2f, 0xc698,
	0x7119, 0xfaae, 0xedc0, 0x6677, 0xc31c, 0x48ab, 0x5fc5, 0xd472,
	0x9ea4, 0x1513, 0x027d, 0x89ca, 0x2ca1, 0xa716, 0xb078, 0x3bcf,
	0x25d4, 0xae63, 0xb90d, 0x32ba, 0x97d1, 0x1c66, 0x0b08, 0x80bf,
	0xca69, 0x41de, 0x56b0, 0xdd07, 0x786c, 0xf3db, 0xe4b5, 0x6f02,
	0x3ab1, 0xb106, 0xa668, 0x2ddf, 0x88b4, 0x0303, 0x146d, 0x9fda,
	0xd50c, 0x5ebb, 0x49d5, 0xc262, 0x6709, 0xecbe, 0xfbd0, 0x7067,
	0x6e7c, 0xe5cb, 0xf2a5, 0x7912, 0xdc79, 0x57ce, 0x40a0, 0xcb17,
	0x81c1, 0x0a76, 0x1d18, 0x96af, 0x33c4, 0xb873, 0xaf1d, 0x24aa,
	0x932b, 0x189c, 0x0ff2, 0x8445, 0x212e, 0xaa99, 0xbdf7, 0x3640,
	0x7c96, 0xf721, 0xe04f, 0x6bf8, 0xce93, 0x4524, 0x524a, 0xd9fd,
	0xc7e6, 0x4c51, 0x5b3f, 0xd088, 0x75e3, 0xfe54, 0xe93a, 0x628d,
	0x285b, 0xa3ec, 0xb482, 0x3f35, 0x9a5e, 0x11e9, 0x0687, 0x8d30,
	0xe232, 0x6985, 0x7eeb, 0xf55c, 0x5037, 0xdb80, 0xccee, 0x4759,
	0x0d8f, 0x8638, 0x9156, 0x1ae1, 0xbf8a, 0x343d, 0x2353, 0xa8e4,
	0xb6ff, 0x3d48, 0x2a26, 0xa191, 0x04fa, 0x8f4d, 0x9823, 0x1394,
	0x5942, 0xd2f5, 0xc59b, 0x4e2c, 0xeb47, 0x60f0, 0x779e, 0xfc29,
	0x4ba8, 0xc01f, 0xd771, 0x5cc6, 0xf9ad, 0x721a, 0x6574, 0xeec3,
	0xa415, 0x2fa2, 0x38cc, 0xb37b, 0x1610, 0x9da7, 0x8ac9, 0x017e,
	0x1f65, 0x94d2, 0x83bc, 0x080b, 0xad60, 0x26d7, 0x31b9, 0xba0e,
	0xf0d8, 0x7b6f, 0x6c01, 0xe7b6, 0x42dd, 0xc96a, 0xde04, 0x55b3,
};

VISIBLE_IF_KUNIT u16 kb_crc_t10dif(u16 crc, const void *p, size_t len)
{
	const u8 *b = p;

	while (len--)
		crc = (crc << 8) ^ kb_t10dif_table[((crc >> 8) ^ *b++) & 0xff];
	return crc;
}
EXPORT_SYMBOL_IF_KUNIT(kb_crc_t10dif);

#define KB_PI_LOG_MAX	16	/* wrong intervals recorded and shown */
#define KB_PI_ESCAPE	0xffff	/* an application tag the device skips */

/* A wrong interval; @ready publishes the rest. */
struct kb_pi_rec {
	bool ready;
	u8 dev;			/* index in the job's devices */
	u8 kinds;		/* BIT(KIOBENCH_PI_CHECK_*): what is wrong */
	u64 lba;		/* in protection intervals */
	struct t10_pi_tuple exp, found;
};

struct kb_pi {
	atomic64_t errors[KIOBENCH_PI_CHECK_APPTAG + 1];
	atomic_t nr_rec;	/* records claimed; may pass KB_PI_LOG_MAX */
	struct kb_pi_rec rec[KB_PI_LOG_MAX];
};

/* A slot's tuples, and the payload that points at them where it is its own. */
struct kb_pi_slot {
	struct kb_bip own;		/* compat.h: empty before 7.0 */
	struct t10_pi_tuple *tuples;	/* max_bs' intervals */
};

static const char *const kb_pi_kind_names[] = {
	[KIOBENCH_PI_CHECK_GUARD] = "guard",
	[KIOBENCH_PI_CHECK_REFTAG] = "reftag",
	[KIOBENCH_PI_CHECK_APPTAG] = "apptag",
};

int kb_pi_parse(struct genl_info *info, struct kb_config *cfg)
{
	struct nlattr **tb = info->attrs;

	struct nlattr *inject = tb[KIOBENCH_A_PI_INJECT] ?:
				tb[KIOBENCH_A_PI_INJECT_LBA];

	if (!cfg->pi_chk) {
		if (inject) {
			NL_SET_ERR_MSG_ATTR(info->extack, inject,
					    "pi-inject, pi-inject-lba: only with pi-chk");
			return -EINVAL;
		}
		return 0;
	}
	if (tb[KIOBENCH_A_PI_INJECT_LBA] && !cfg->pi_inject) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KIOBENCH_A_PI_INJECT_LBA],
				    "pi-inject-lba: only with pi-inject");
		return -EINVAL;
	}
	if (!KB_PI) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[KIOBENCH_A_PI_CHK],
				    "pi-chk: this kernel has no block integrity (CONFIG_BLK_DEV_INTEGRITY), or no payload kiobench could attach without allocating per I/O (bio_integrity_init(), bioset_integrity_create())");
		return -EOPNOTSUPP;
	}
	if (KB_PI_CHK_FIXED && cfg->pi_chk != KB_PI_CHK_FIXED) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[KIOBENCH_A_PI_CHK],
				    "pi-chk: this kernel's drivers check what the PI type says, a type 1 device's guard and reftag, no other (no BIP_CHECK_*, 6.14): pi-chk must be GUARD,REFTAG");
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * Whether @dev can take kiobench's PI: a T10-DIF type 1 CRC profile (its
 * 8 bytes of metadata all PI), whose interval is the logical block size,
 * the same on every device of the job.
 */
int kb_pi_check_dev(struct kb_job *job, struct kb_dev *dev, const char *path,
		    struct netlink_ext_ack *extack)
{
	unsigned int exp;

	if (!job->cfg.pi_chk)
		return 0;
	if (!kb_pi_t10_type1(dev->bdev.bdev, &exp)) {
		KB_ERR_FMT(extack, NULL,
			   "pi-chk: a device's integrity is not T10-DIF-TYPE1-CRC with 8 bytes of metadata (the only one kiobench computes)",
			   "pi-chk: %s: not T10-DIF-TYPE1-CRC, 8-byte metadata",
			   path);
		return -EOPNOTSUPP;
	}
	if ((1U << exp) != dev->lbs) {
		KB_ERR_FMT(extack, NULL,
			   "pi-chk: a device's protection interval is not its logical block size",
			   "pi-chk: %s: interval %u, not its logical block size %u",
			   path, 1U << exp, dev->lbs);
		return -EINVAL;
	}
	if (job->pi_exp && job->pi_exp != exp) {
		KB_ERR_FMT(extack, NULL,
			   "pi-chk: a device's protection interval is not the job's other devices' (one interval a job)",
			   "pi-chk: %s: interval %u where the others' is %u",
			   path, 1U << exp, 1U << job->pi_exp);
		return -EINVAL;
	}
	job->pi_exp = exp;
	return 0;
}

int kb_pi_create(struct kb_job *job)
{
	if (!job->cfg.pi_chk)
		return 0;
	job->pi = kzalloc(sizeof(*job->pi), GFP_KERNEL);
	return job->pi ? 0 : -ENOMEM;
}

void kb_pi_destroy(struct kb_job *job)
{
	kfree(job->pi);
	job->pi = NULL;
}

/*
 * The worker's pool of payloads, where the block layer allocates them
 * (compat.h): one a slot, freed after its slots.
 */
int kb_pi_alloc_worker(struct kb_worker *w)
{
	if (!w->job->cfg.pi_chk)
		return 0;
	return kb_pi_pool_init(&w->pi_bs, w->job->cfg.iodepth);
}

void kb_pi_free_worker(struct kb_worker *w)
{
	kb_pi_pool_exit(w->pi_bs);
	w->pi_bs = NULL;
}

/* The tuples of an I/O of the job's largest size, made with the slot. */
int kb_pi_alloc_slot(struct kb_job *job, struct kb_slot *slot)
{
	struct kb_pi_slot *ps;
	size_t n;

	if (!job->cfg.pi_chk)
		return 0;
	ps = kzalloc(sizeof(*ps), GFP_KERNEL);
	if (!ps)
		return -ENOMEM;
	n = job->cfg.max_bs >> job->pi_exp;
	ps->tuples = kcalloc(n, sizeof(*ps->tuples), GFP_KERNEL);
	if (!ps->tuples) {
		kfree(ps);
		return -ENOMEM;
	}
	slot->pi = ps;
	return 0;
}

void kb_pi_free_slot(struct kb_slot *slot)
{
	if (!slot->pi)
		return;
	kb_bio_release_pi(&slot->bio);	/* before the worker's pool */
	kfree(slot->pi->tuples);
	kfree(slot->pi);
}

/* The guard of interval @i of the slot's buffer (never across a page). */
static __be16 kb_pi_guard(const struct kb_slot *slot, u32 i, unsigned int exp)
{
	u32 off = i << exp;

	return cpu_to_be16(kb_crc_t10dif(0, page_address(slot->pages[off >> PAGE_SHIFT]) +
					 offset_in_page(off), 1U << exp));
}

/*
 * pi-inject: the fields of @t written wrong, each in a way the device can
 * tell: the guard's lowest bit flipped, the reference tag plus one, the
 * application tag plus one, 0xfffe wrapping to 0 (0xffff, the escape,
 * would have the device check nothing).
 */
static void kb_pi_inject(const struct kb_config *cfg, struct t10_pi_tuple *t)
{
	if (cfg->pi_inject & BIT(KIOBENCH_PI_CHECK_GUARD))
		t->guard_tag ^= cpu_to_be16(1);
	if (cfg->pi_inject & BIT(KIOBENCH_PI_CHECK_REFTAG))
		be32_add_cpu(&t->ref_tag, 1);
	if (cfg->pi_inject & BIT(KIOBENCH_PI_CHECK_APPTAG))
		t->app_tag = cpu_to_be16((cfg->pi_apptag + 1) % KB_PI_ESCAPE);
}

/*
 * Attaches the slot's tuples to its bio (a read or a write), after the
 * bio's data and sector are set: a write's tuples are computed here, over
 * the data as it goes out.  The seed is the first interval's LBA, so that
 * the block layer's type 1 remapping (blk_integrity_prepare()) finds the
 * reference tags already what the device expects and changes none.  An
 * error (a payload the worker's pool could not give, which its size
 * rules out) fails the I/O.
 */
int kb_pi_attach(struct kb_worker *w, struct kb_slot *slot, struct bio *bio)
{
	const struct kb_config *cfg = &w->job->cfg;
	struct kb_pi_slot *ps = slot->pi;
	unsigned int exp = w->job->pi_exp;
	u32 i, n = slot->len >> exp;
	u64 lba = slot->off >> exp;

	if (bio_op(bio) == REQ_OP_WRITE) {
		for (i = 0; i < n; i++) {
			struct t10_pi_tuple *t = &ps->tuples[i];

			t->guard_tag = kb_pi_guard(slot, i, exp);
			t->app_tag = cpu_to_be16(cfg->pi_apptag);
			t->ref_tag = cpu_to_be32(lower_32_bits(lba + i));
		}
		if (unlikely(cfg->pi_inject) && cfg->pi_inject_lba >= lba &&
		    cfg->pi_inject_lba - lba < n)
			kb_pi_inject(cfg, &ps->tuples[cfg->pi_inject_lba - lba]);
	} else if (bio_op(bio) != REQ_OP_READ) {
		return 0;
	}
	return kb_bio_attach_pi(bio, &ps->own, w->pi_bs, ps->tuples,
				n * sizeof(*ps->tuples), cfg->pi_chk,
				cfg->pi_apptag, lba);
}

/* Before the bio is reset: bio_uninit() would free a payload of the slot's. */
void kb_pi_detach(struct bio *bio)
{
	kb_bio_detach_pi(bio);
}

static void kb_pi_wrong(struct kb_worker *w, u64 lba, u8 kinds,
			const struct t10_pi_tuple *exp,
			const struct t10_pi_tuple *found)
{
	struct kb_job *job = w->job;
	struct kb_pi *pi = job->pi;
	struct kb_pi_rec *r;
	unsigned int k;
	int n;

	for (k = 0; k < ARRAY_SIZE(pi->errors); k++)
		if (kinds & BIT(k))
			atomic64_inc(&pi->errors[k]);
	n = atomic_inc_return(&pi->nr_rec) - 1;
	if (n >= KB_PI_LOG_MAX)
		return;
	r = &pi->rec[n];
	r->dev = w->dev - job->devs;
	r->kinds = kinds;
	r->lba = lba;
	r->exp = *exp;
	r->found = *found;
	/* pairs with kb_pi_show()'s and kb_pi_first()'s acquire */
	smp_store_release(&r->ready, true);
}

/*
 * A read's tuples, as the worker reaps it: each interval's against what
 * kiobench would have written there.  An interval whose application tag
 * is the escape is skipped, as the device skips it.
 */
void kb_pi_check(struct kb_worker *w, struct kb_slot *slot)
{
	const struct kb_config *cfg = &w->job->cfg;
	const struct t10_pi_tuple *t = slot->pi->tuples;
	unsigned int exp = w->job->pi_exp;
	u32 i, n = slot->len >> exp;
	u64 lba = slot->off >> exp;

	for (i = 0; i < n; i++, t++) {
		struct t10_pi_tuple e;
		u8 kinds = 0;

		if (be16_to_cpu(t->app_tag) == KB_PI_ESCAPE)
			continue;
		e.guard_tag = kb_pi_guard(slot, i, exp);
		e.app_tag = cpu_to_be16(cfg->pi_apptag);
		e.ref_tag = cpu_to_be32(lower_32_bits(lba + i));
		if (t->guard_tag != e.guard_tag)
			kinds |= BIT(KIOBENCH_PI_CHECK_GUARD);
		if (t->ref_tag != e.ref_tag)
			kinds |= BIT(KIOBENCH_PI_CHECK_REFTAG);
		if (t->app_tag != e.app_tag)
			kinds |= BIT(KIOBENCH_PI_CHECK_APPTAG);
		if (unlikely(kinds))
			kb_pi_wrong(w, lba + i, kinds, &e, t);
	}
}

/* The intervals found wrong in @kind (enum kiobench_pi_check). */
u64 kb_pi_errors(struct kb_job *job, unsigned int kind)
{
	return atomic64_read(&job->pi->errors[kind]);
}

/* The first wrong interval's LBA: false while none is recorded. */
bool kb_pi_first_lba(struct kb_job *job, u64 *lba)
{
	struct kb_pi *pi = job->pi;

	/* pairs with kb_pi_wrong()'s release */
	if (!atomic_read(&pi->nr_rec) || !smp_load_acquire(&pi->rec[0].ready))
		return false;
	*lba = pi->rec[0].lba;
	return true;
}

static void kb_pi_tuple_show(struct seq_file *m, const char *what,
			     const struct t10_pi_tuple *t)
{
	seq_printf(m, " %s_guard=0x%04x %s_apptag=0x%04x %s_reftag=0x%08x", what,
		   be16_to_cpu(t->guard_tag), what, be16_to_cpu(t->app_tag),
		   what, be32_to_cpu(t->ref_tag));
}

static int kb_pi_show(struct seq_file *m, void *unused)
{
	struct kb_job *job = m->private;
	struct kb_pi *pi = job->pi;
	int i, k, n = min(atomic_read(&pi->nr_rec), KB_PI_LOG_MAX);
	const char *sep;

	seq_printf(m, "interval=%u guard=%lld reftag=%lld apptag=%lld\n",
		   1U << job->pi_exp,
		   atomic64_read(&pi->errors[KIOBENCH_PI_CHECK_GUARD]),
		   atomic64_read(&pi->errors[KIOBENCH_PI_CHECK_REFTAG]),
		   atomic64_read(&pi->errors[KIOBENCH_PI_CHECK_APPTAG]));
	for (i = 0; i < n; i++) {
		struct kb_pi_rec *r = &pi->rec[i];

		/* pairs with kb_pi_wrong()'s release: the fields are set */
		if (!smp_load_acquire(&r->ready))
			continue;
		seq_printf(m, "wrong=%d device=%s lba=%llu kinds=", i,
			   job->cfg.paths[r->dev], r->lba);
		for (k = 0, sep = ""; k < ARRAY_SIZE(kb_pi_kind_names); k++) {
			if (!(r->kinds & BIT(k)))
				continue;
			seq_printf(m, "%s%s", sep, kb_pi_kind_names[k]);
			sep = ",";
		}
		kb_pi_tuple_show(m, "expected", &r->exp);
		kb_pi_tuple_show(m, "found", &r->found);
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kb_pi);

/* <job>/pi: the counts and the first wrong intervals, with pi-chk */
int kb_pi_debugfs(struct kb_job *job, struct dentry *dir)
{
	struct dentry *f;

	if (!job->pi)
		return 0;
	f = debugfs_create_file("pi", 0400, dir, job, &kb_pi_fops);
	return PTR_ERR_OR_ZERO(f);
}

/*
 * What the slots' tuples take, at the smallest interval (512 bytes), and
 * the workers' pools of payloads.
 */
u64 kb_pi_mem(const struct kb_job *job)
{
	const struct kb_config *cfg = &job->cfg;

	if (!cfg->pi_chk)
		return 0;
	return size_add(size_mul(array_size(job->nr_workers, cfg->iodepth),
				 size_add(sizeof(struct kb_pi_slot),
					  size_mul(cfg->max_bs >> SECTOR_SHIFT,
						   sizeof(struct t10_pi_tuple)))),
			size_mul(job->nr_workers,
				 kb_pi_pool_mem(cfg->iodepth)));
}
