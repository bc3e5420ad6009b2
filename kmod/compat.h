/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where kernel API differences live.  Kbuild probes the
 * kernel's headers for each feature (see KB_PROBE in Kbuild) and defines
 * KB_HAVE_*; code elsewhere uses only the kb_* wrappers below.  Force-
 * included after the kernel's own headers by kiobench.h's users through
 * ccflags, so it may use any kernel header.
 */
#ifndef KB_COMPAT_H
#define KB_COMPAT_H

#include <linux/blk-integrity.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/cgroup.h>
#include <linux/fs.h>
#include <linux/kiobench.h>
#include <linux/t10-pi.h>
#include <net/genetlink.h>

#ifndef CONFIG_ARCH_SUPPORTS_INT128
#error "kiobench needs 128-bit integer support (64-bit architectures)"
#endif

/*
 * Opening a block device by path.  Writers open exclusively (non-NULL
 * holder), so a device that is mounted or claimed by md/dm/another writer is
 * refused with -EBUSY.  From 6.5 a non-NULL holder alone makes the open
 * exclusive (no BLK_OPEN_EXCL); up to 6.4 it takes FMODE_EXCL too.  No
 * holder ops: the kernel's default on removal (sync, invalidate) is enough,
 * and their callbacks' signatures differ between versions.  Four APIs,
 * newest first; Kbuild's probes say which one a kernel has.
 * tests/unit/test_compat_bdev.py compiles the two of 6.5 to 6.8 against
 * headers rewritten to them.
 */
#if defined(KB_HAVE_BDEV_FILE)		/* 6.9+: block devices are files */
struct kb_bdev {
	struct file *file;
	struct block_device *bdev;
};

static inline int kb_bdev_open(struct kb_bdev *kbd, const char *path,
			       bool write, void *holder)
{
	blk_mode_t mode = BLK_OPEN_READ | (write ? BLK_OPEN_WRITE : 0);
	struct file *file;

	file = bdev_file_open_by_path(path, mode, write ? holder : NULL, NULL);
	if (IS_ERR(file))
		return PTR_ERR(file);
	kbd->file = file;
	kbd->bdev = file_bdev(file);
	return 0;
}

static inline void kb_bdev_close(struct kb_bdev *kbd)
{
#ifdef KB_HAVE_BDEV_FPUT
	bdev_fput(kbd->file);	/* drops the claim now, not from delayed fput */
#else
	fput(kbd->file);
#endif
}
#elif defined(KB_HAVE_BDEV_HANDLE)	/* 6.7, 6.8: a handle */
struct kb_bdev {
	struct bdev_handle *handle;
	struct block_device *bdev;
};

static inline int kb_bdev_open(struct kb_bdev *kbd, const char *path,
			       bool write, void *holder)
{
	blk_mode_t mode = BLK_OPEN_READ | (write ? BLK_OPEN_WRITE : 0);
	struct bdev_handle *handle;

	handle = bdev_open_by_path(path, mode, write ? holder : NULL, NULL);
	if (IS_ERR(handle))
		return PTR_ERR(handle);
	kbd->handle = handle;
	kbd->bdev = handle->bdev;
	return 0;
}

static inline void kb_bdev_close(struct kb_bdev *kbd)
{
	bdev_release(kbd->handle);
}
#elif defined(KB_HAVE_BLK_OPEN_READ)	/* 6.5, 6.6: blk_mode_t + holder */
struct kb_bdev {
	struct block_device *bdev;
	void *holder;		/* blkdev_put() ends the claim of this one */
};

static inline int kb_bdev_open(struct kb_bdev *kbd, const char *path,
			       bool write, void *holder)
{
	blk_mode_t mode = BLK_OPEN_READ | (write ? BLK_OPEN_WRITE : 0);
	struct block_device *bdev;

	holder = write ? holder : NULL;
	bdev = blkdev_get_by_path(path, mode, holder, NULL);
	if (IS_ERR(bdev))
		return PTR_ERR(bdev);
	kbd->bdev = bdev;
	kbd->holder = holder;
	return 0;
}

static inline void kb_bdev_close(struct kb_bdev *kbd)
{
	blkdev_put(kbd->bdev, kbd->holder);
}
#else					/* up to 6.4: fmode_t + holder */
struct kb_bdev {
	struct block_device *bdev;
	fmode_t mode;
};

static inline int kb_bdev_open(struct kb_bdev *kbd, const char *path,
			       bool write, void *holder)
{
	fmode_t mode = FMODE_READ | (write ? FMODE_WRITE | FMODE_EXCL : 0);
	struct block_device *bdev;

	bdev = blkdev_get_by_path(path, mode, write ? holder : NULL);
	if (IS_ERR(bdev))
		return PTR_ERR(bdev);
	kbd->bdev = bdev;
	kbd->mode = mode;
	return 0;
}

static inline void kb_bdev_close(struct kb_bdev *kbd)
{
	blkdev_put(kbd->bdev, kbd->mode);
}
#endif

/* Formatted extack messages (6.3+); older kernels get the fixed text. */
#ifdef KB_HAVE_GENL_ERR_FMT
#define KB_ERR_FMT(extack, attr, fixed, fmt, ...)			\
	do {								\
		struct netlink_ext_ack *__kb_extack = (extack);		\
									\
		(void)(fixed);						\
		NL_SET_BAD_ATTR(__kb_extack, attr);			\
		NL_SET_ERR_MSG_FMT(__kb_extack, fmt, ##__VA_ARGS__);	\
	} while (0)
#else
/* @fixed must be static text; NL_SET_ERR_MSG() here takes only literals. */
static inline void kb_set_err(struct netlink_ext_ack *extack,
			      const struct nlattr *attr, const char *fixed)
{
	if (!extack)
		return;
	extack->_msg = fixed;
	extack->bad_attr = attr;
}

#define KB_ERR_FMT(extack, attr, fixed, fmt, ...)			\
	do {								\
		kb_set_err(extack, attr, fixed);			\
		no_printk(fmt, ##__VA_ARGS__);	/* format check only */	\
	} while (0)
#endif

/*
 * The namespace of KUnit's exports, for MODULE_IMPORT_NS(): a string
 * literal from 6.13, a bare token (stringified by the macro) before.
 */
#ifdef KB_HAVE_NS_STRING
#define KB_NS_KUNIT	"EXPORTED_FOR_KUNIT_TESTING"
#else
#define KB_NS_KUNIT	EXPORTED_FOR_KUNIT_TESTING
#endif

/*
 * Whether REQ_POLLED bios of @bdev can be polled.  A request-based queue
 * needs poll queues in its tag set: the block layer's own test, the same on
 * every kernel (6.1 set QUEUE_FLAG_POLL from it, 6.11 BLK_FEAT_POLL).
 * Without them 6.1 would silently complete the bio by interrupt and 6.11+
 * fail it with BLK_STS_NOTSUPP.  A bio-based driver says so itself.
 */
static inline bool kb_bdev_can_poll(struct block_device *bdev)
{
	struct request_queue *q = bdev_get_queue(bdev);

	if (queue_is_mq(q))
		return q->tag_set->nr_maps > HCTX_TYPE_POLL &&
		       q->tag_set->map[HCTX_TYPE_POLL].nr_queues;
#ifdef KB_HAVE_BLK_FEAT_POLL
	return q->limits.features & BLK_FEAT_POLL;
#else
	return test_bit(QUEUE_FLAG_POLL, &q->queue_flags);
#endif
}

/*
 * One look at the hardware queue of @bio, without sleeping (6.1's hybrid
 * polling could sleep without BLK_POLL_NOSLEEP).  The driver defers the
 * completions it finds (nvme: out of its cq_poll_lock) to @iob, whose
 * iob->complete, if set, the caller runs.
 */
#ifdef BLK_POLL_NOSLEEP
#define KB_POLL_FLAGS	(BLK_POLL_ONESHOT | BLK_POLL_NOSLEEP)
#else
#define KB_POLL_FLAGS	BLK_POLL_ONESHOT
#endif

static inline void kb_bio_poll(struct bio *bio, struct io_comp_batch *iob)
{
	bio_poll(bio, iob, KB_POLL_FLAGS);
}

/*
 * The blk-cgroup a worker's bios are charged to, taken once when it starts
 * (kb_blkcg_get(), in its own task): the css bio_associate_blkg() looks up
 * for every bio, a kthread's own (blkcg_css(): it was given none by
 * kthread_associate_blkcg()).  kb_bio_reset() is bio_reset() to @bdev
 * with the device's blkg for that css taken directly, as writeback's
 * wbc_init_bio() does, without the lookup and its RCU section.  Without
 * CONFIG_BLK_CGROUP bios carry no blkg.
 */
#ifdef CONFIG_BLK_CGROUP
static inline struct cgroup_subsys_state *kb_blkcg_get(void)
{
	return task_get_css(current, io_cgrp_id);
}

static inline void kb_blkcg_put(struct cgroup_subsys_state *css)
{
	css_put(css);
}

static inline void kb_bio_reset(struct bio *bio, struct block_device *bdev,
				blk_opf_t opf, struct cgroup_subsys_state *css)
{
	bio_reset(bio, NULL, opf);
	bio->bi_bdev = bdev;
	bio_associate_blkg_from_css(bio, css);
}
#else
static inline struct cgroup_subsys_state *kb_blkcg_get(void)
{
	return NULL;
}

static inline void kb_blkcg_put(struct cgroup_subsys_state *css)
{
}

static inline void kb_bio_reset(struct bio *bio, struct block_device *bdev,
				blk_opf_t opf, struct cgroup_subsys_state *css)
{
	bio_reset(bio, bdev, opf);
}
#endif

/*
 * Atomic writes (6.11): REQ_ATOMIC, and the sizes @bdev takes atomically,
 * [*min, *max] bytes; 0 and 0 where it takes none (a device without them,
 * a misaligned partition, a kernel before 6.11).
 */
#ifdef KB_HAVE_REQ_ATOMIC
#define KB_REQ_ATOMIC	REQ_ATOMIC

static inline void kb_atomic_limits(struct block_device *bdev,
				    unsigned int *min, unsigned int *max)
{
	struct request_queue *q = bdev_get_queue(bdev);

	*min = 0;
	*max = 0;
	if (!bdev_can_atomic_write(bdev))
		return;
	*min = queue_atomic_write_unit_min_bytes(q);
	*max = queue_atomic_write_unit_max_bytes(q);
}
#else
#define KB_REQ_ATOMIC	((__force blk_opf_t)0)

static inline void kb_atomic_limits(struct block_device *bdev,
				    unsigned int *min, unsigned int *max)
{
	*min = 0;
	*max = 0;
}
#endif

/*
 * Write lifetime hints on bios (fio's write_hint): bi_write_hint was
 * removed in 5.18 (so 6.1 has none) and came back in 6.9; the block layer
 * then keeps requests of different hints apart (blk-merge.c) and SCSI
 * sends it as the group number.  Without it a job is refused.
 */
#ifdef KB_HAVE_BIO_WRITE_HINT
#define KB_WRITE_HINTS	true

static inline void kb_bio_set_write_hint(struct bio *bio, u8 hint)
{
	bio->bi_write_hint = hint;
}
#else
#define KB_WRITE_HINTS	false

static inline void kb_bio_set_write_hint(struct bio *bio, u8 hint)
{
}
#endif

/*
 * Write streams (write-streams, submit.c): bi_write_stream and the queue
 * limit max_write_streams came in 6.16 (NVMe FDP's placement handles
 * behind them).  Without them a job asking for streams is refused, and a
 * device offers none.
 */
#ifdef KB_HAVE_BIO_WRITE_STREAM
#define KB_WRITE_STREAMS	true

static inline void kb_bio_set_write_stream(struct bio *bio, u8 stream)
{
	bio->bi_write_stream = stream;
}

static inline unsigned int kb_max_write_streams(struct block_device *bdev)
{
	return bdev_max_write_streams(bdev);
}
#else
#define KB_WRITE_STREAMS	false

static inline void kb_bio_set_write_stream(struct bio *bio, u8 stream)
{
}

static inline unsigned int kb_max_write_streams(struct block_device *bdev)
{
	return 0;
}
#endif

/*
 * A device's integrity profile as integrity/format in sysfs names it, and
 * whether the block layer generates protection information for its writes
 * (write_generate) and verifies it on its reads (read_verify); NULL: none
 * (or no CONFIG_BLK_DEV_INTEGRITY: bdev_get_integrity() is then NULL).
 * 6.11 moved the profile into the queue limits: a checksum type that
 * blk_integrity_profile_name() names, and flags that say what the block
 * layer does not do (BLK_INTEGRITY_NOGENERATE, NOVERIFY).  Before, a
 * profile structure with its name and its functions, and flags that say
 * what it does, with a function to do it.
 */
#ifdef KB_HAVE_BLK_INTEGRITY_NAME
static inline const char *kb_integrity(struct block_device *bdev,
				       bool *generate, bool *verify)
{
	struct blk_integrity *bi = bdev_get_integrity(bdev);

	if (!bi)
		return NULL;
	*generate = !(bi->flags & BLK_INTEGRITY_NOGENERATE);
	*verify = !(bi->flags & BLK_INTEGRITY_NOVERIFY);
	return blk_integrity_profile_name(bi);
}
#else
static inline const char *kb_integrity(struct block_device *bdev,
				       bool *generate, bool *verify)
{
	struct blk_integrity *bi = bdev_get_integrity(bdev);

	if (!bi)
		return NULL;
	*generate = bi->profile->generate_fn &&
		    (bi->flags & BLK_INTEGRITY_GENERATE);
	*verify = bi->profile->verify_fn && (bi->flags & BLK_INTEGRITY_VERIFY);
	return bi->profile->name;
}
#endif

/*
 * pi-chk (pi.c): the checks the device is asked to make.  From 6.14 the
 * payload says which (BIP_CHECK_*, the NVMe command's PRCHK bits) and
 * carries the application tag the device is sent.  Before, the driver
 * checks what the device's PI type says, for a type 1 device (the only
 * one pi-chk takes) its guard and reference tag, never the application
 * tag (KB_PI_CHK_FIXED: pi-chk must be those two).
 */
#ifdef KB_HAVE_BIP_CHECK
#define KB_PI_CHK_FIXED	0U
static inline void kb_bip_set_checks(struct bio_integrity_payload *bip,
				     u32 chk, u16 app_tag)
{
	bip->bip_flags |=
		(chk & BIT(KIOBENCH_PI_CHECK_GUARD) ? BIP_CHECK_GUARD : 0) |
		(chk & BIT(KIOBENCH_PI_CHECK_REFTAG) ? BIP_CHECK_REFTAG : 0) |
		(chk & BIT(KIOBENCH_PI_CHECK_APPTAG) ? BIP_CHECK_APPTAG : 0);
	bip->app_tag = app_tag;
}
#else
#define KB_PI_CHK_FIXED	(BIT(KIOBENCH_PI_CHECK_GUARD) | \
			 BIT(KIOBENCH_PI_CHECK_REFTAG))
static inline void kb_bip_set_checks(struct bio_integrity_payload *bip,
				     u32 chk, u16 app_tag)
{
}
#endif

/*
 * pi-chk (pi.c): a bio carries kiobench's own protection information, its
 * tuples in a buffer of the slot's, made with the job.  Who owns the
 * payload that points at them differs:
 *
 * - 7.0 (bio_integrity_init(), not exported): the caller may own it, and
 *   the block layer frees only its own at completion.  It is the slot's,
 *   set up as bio_integrity_init() does, and detached before the bio is
 *   reset, which would kfree() it (bio_uninit()).  Nothing is allocated.
 * - Before, while a bio_set may have a pool of payloads
 *   (bioset_integrity_create()), only a payload from bio_integrity_alloc()
 *   is safe: 6.1's
 *   __bio_integrity_endio() frees whatever payload a bio carries as its
 *   completion begins, 6.12's leaves one without BIP_BLOCK_INTEGRITY to
 *   bio_uninit() (the slot's next bio_reset()).  It comes from the
 *   worker's pool (kb_pi_pool_init(): a bio_set's integrity mempool of an
 *   element a slot, made with the job, as the slot's bio is the pool's),
 *   and the block layer gives it back whenever it frees it; the last one
 *   a slot holds is freed with the slot (kb_bio_release_pi()).  At most
 *   one a slot is out at a time, so the pool's reserve never runs dry and
 *   an I/O never waits for one; it takes from the reserve alone
 *   (kb_pi_pool_reserve_only()), so nothing is allocated either.  The
 *   tuples are never the block layer's (no BIP_BLOCK_INTEGRITY): it
 *   neither frees, generates nor verifies them.
 * - A kernel with neither would kmalloc() a payload an I/O: refused.
 */
#if defined(KB_HAVE_BIO_INTEGRITY_INIT) && defined(CONFIG_BLK_DEV_INTEGRITY)
#define KB_PI	1
struct kb_bip {
	struct bio_integrity_payload bip;
	struct bio_vec bvec;
};

static inline int kb_bio_attach_pi(struct bio *bio, struct kb_bip *kbip,
				   struct bio_set *bs, void *buf, u32 len,
				   u32 chk, u16 app_tag, sector_t seed)
{
	struct bio_integrity_payload *bip = &kbip->bip;

	bvec_set_virt(&kbip->bvec, buf, len);
	memset(bip, 0, sizeof(*bip));
	bip->bip_vec = &kbip->bvec;
	bip->bip_max_vcnt = 1;
	bip->bip_vcnt = 1;
	bip->bip_iter.bi_size = len;
	bip_set_seed(bip, seed);
	kb_bip_set_checks(bip, chk, app_tag);
	bio->bi_integrity = bip;
	bio->bi_opf |= REQ_INTEGRITY;
	return 0;
}

/* Before the bio is reset: bio_uninit() would free the slot's payload. */
static inline void kb_bio_detach_pi(struct bio *bio)
{
	bio->bi_integrity = NULL;
	bio->bi_opf &= ~REQ_INTEGRITY;
}

/* As the slot is freed. */
static inline void kb_bio_release_pi(struct bio *bio)
{
	kb_bio_detach_pi(bio);
}
#elif defined(KB_HAVE_BIOSET_INTEGRITY_CREATE) && \
	defined(CONFIG_BLK_DEV_INTEGRITY)
#define KB_PI	1
#define KB_PI_POOL	1
struct kb_bip {
};

/*
 * The payloads' pool gives its reserve alone: mempool_alloc() calls
 * pool->alloc first (the slab, on the I/O path) and takes from the
 * reserve only when that fails.  With this one failing, every payload is
 * one of the @nr made with the pool, so an I/O allocates nothing.  A slot
 * holds at most one, so the reserve never runs dry; mempool_free() puts
 * each back there (the reserve is short of it), and mempool_exit() frees
 * the reserve with the pool's own free, the slab's.
 */
static inline void *kb_pi_pool_reserve_only(gfp_t gfp, void *pool_data)
{
	return NULL;
}

static inline int kb_pi_pool_init(struct bio_set **pbs, unsigned int nr)
{
	struct bio_set *bs;

	bs = kzalloc(sizeof(*bs), GFP_KERNEL);
	if (!bs)
		return -ENOMEM;
	if (bioset_init(bs, nr, 0, 0))
		goto out_free_bs;
	if (bioset_integrity_create(bs, nr))
		goto out_exit_bs;
	bs->bio_integrity_pool.alloc = kb_pi_pool_reserve_only;
	*pbs = bs;
	return 0;

out_exit_bs:
	bioset_exit(bs);
out_free_bs:
	kfree(bs);
	return -ENOMEM;
}

static inline void kb_pi_pool_exit(struct bio_set *bs)
{
	if (!bs)
		return;
	bioset_exit(bs);
	kfree(bs);
}

/*
 * What a worker's pool of @nr takes: a bio each (bioset_init()), a
 * payload with its inline vectors (block/blk.h's BIO_INLINE_VECS, 4), and
 * a table of BIO_MAX_VECS vectors (bioset_integrity_create()'s bvec pool,
 * which a payload of one vector never takes from).
 */
#define KB_BIP_INLINE_VECS	4
static inline size_t kb_pi_pool_mem(unsigned int nr)
{
	return size_mul(nr, sizeof(struct bio) +
			    sizeof(struct bio_integrity_payload) +
			    (KB_BIP_INLINE_VECS + BIO_MAX_VECS) *
			    sizeof(struct bio_vec));
}

static inline int kb_bio_attach_pi(struct bio *bio, struct kb_bip *kbip,
				   struct bio_set *bs, void *buf, u32 len,
				   u32 chk, u16 app_tag, sector_t seed)
{
	struct bio_integrity_payload *bip;

	bio->bi_pool = bs;	/* kept by bio_reset(); never bio_put() */
	bip = bio_integrity_alloc(bio, GFP_NOIO, 1);
	if (IS_ERR(bip))
		return PTR_ERR(bip);
	if (bio_integrity_add_page(bio, virt_to_page(buf), len,
				   offset_in_page(buf)) != len)
		return -ENOMEM;	/* freed with the bio's completion or reset */
	/*
	 * 6.1's bio_integrity_add_page() leaves the iterator's size to its
	 * caller (bio_integrity_prep() sets it); later ones add len to it.
	 * Without it a split bio's advance runs past the tuples (a WARN),
	 * and its second half goes out with the first half's.
	 */
	bip->bip_iter.bi_size = len;
	bip_set_seed(bip, seed);
	kb_bip_set_checks(bip, chk, app_tag);
	return 0;
}

/* The block layer frees its payload: at completion (6.1) or reset (6.12). */
static inline void kb_bio_detach_pi(struct bio *bio)
{
}

/* As the slot is freed, before its worker's pool: the last payload. */
static inline void kb_bio_release_pi(struct bio *bio)
{
	if (bio_integrity(bio))
		bio_uninit(bio);
}
#else
#define KB_PI	0
struct kb_bip {
};

static inline int kb_bio_attach_pi(struct bio *bio, struct kb_bip *kbip,
				   struct bio_set *bs, void *buf, u32 len,
				   u32 chk, u16 app_tag, sector_t seed)
{
	return -EOPNOTSUPP;
}

static inline void kb_bio_detach_pi(struct bio *bio)
{
}

static inline void kb_bio_release_pi(struct bio *bio)
{
}
#endif

#ifndef KB_PI_POOL
/* No pool of payloads: 7.0's are the slots' own, and without PI none. */
static inline int kb_pi_pool_init(struct bio_set **bs, unsigned int nr)
{
	*bs = NULL;
	return 0;
}

static inline void kb_pi_pool_exit(struct bio_set *bs)
{
}

/* What a worker's pool of @nr takes: nothing here. */
static inline size_t kb_pi_pool_mem(unsigned int nr)
{
	return 0;
}
#endif

#ifdef CONFIG_BLK_DEV_INTEGRITY
/*
 * The device's PI: T10-DIF type 1 CRC, 8 bytes of metadata, all of it PI.
 * 7.0 tells the PI tuple's size from the metadata's (pi_tuple_size,
 * metadata_size); 6.11 has the metadata's as tuple_size, the PI at
 * pi_offset; before, a profile that names itself (t10_pi_type1_crc may
 * be in a module: its name, not its address).
 */
#if defined(KB_HAVE_BLK_INTEGRITY_PI_TUPLE_SIZE)
static inline bool kb_pi_t10_type1(struct block_device *bdev,
				   unsigned int *interval_exp)
{
	struct blk_integrity *bi = bdev_get_integrity(bdev);

	if (!bi || bi->csum_type != BLK_INTEGRITY_CSUM_CRC ||
	    !(bi->flags & BLK_INTEGRITY_REF_TAG) ||
	    bi->metadata_size != sizeof(struct t10_pi_tuple) ||
	    bi->pi_tuple_size != sizeof(struct t10_pi_tuple))
		return false;
	*interval_exp = bi->interval_exp;
	return true;
}
#elif defined(KB_HAVE_BLK_INTEGRITY_NAME)
static inline bool kb_pi_t10_type1(struct block_device *bdev,
				   unsigned int *interval_exp)
{
	struct blk_integrity *bi = bdev_get_integrity(bdev);

	if (!bi || bi->csum_type != BLK_INTEGRITY_CSUM_CRC ||
	    !(bi->flags & BLK_INTEGRITY_REF_TAG) ||
	    bi->tuple_size != sizeof(struct t10_pi_tuple) || bi->pi_offset)
		return false;
	*interval_exp = bi->interval_exp;
	return true;
}
#else
static inline bool kb_pi_t10_type1(struct block_device *bdev,
				   unsigned int *interval_exp)
{
	struct blk_integrity *bi = bdev_get_integrity(bdev);

	if (!bi || !bi->profile->name ||
	    strcmp(bi->profile->name, "T10-DIF-TYPE1-CRC") ||
	    bi->tuple_size != sizeof(struct t10_pi_tuple))
		return false;
	*interval_exp = bi->interval_exp;
	return true;
}
#endif
#else
static inline bool kb_pi_t10_type1(struct block_device *bdev,
				   unsigned int *interval_exp)
{
	return false;
}
#endif

/*
 * Zoned devices (zone.c).  Before 6.10 the writes to a sequential zone
 * stay in their order at depth > 1 only through the scheduler's zone write
 * locking: mq-deadline, the one scheduler a zoned queue's
 * required_elevator_features (ELEVATOR_F_ZBD_SEQ_WRITE) lets it have;
 * with none they may reach the device out of order.  From 6.10 zone write
 * plugging orders them in the block layer whatever the scheduler.
 * blkdev_zone_mgmt() lost its gfp_mask in the same rework (6.9).
 */
#ifdef KB_HAVE_ZONE_WPLUG
static inline bool kb_zone_writes_ordered(struct block_device *bdev)
{
	return true;
}
#else
static inline bool kb_zone_writes_ordered(struct block_device *bdev)
{
	struct request_queue *q = bdev_get_queue(bdev);

	return q->elevator &&
	       (q->required_elevator_features & ELEVATOR_F_ZBD_SEQ_WRITE);
}
#endif

/*
 * REQ_OP_ZONE_RESET_ALL: before 6.10 submit_bio_noacct() fails it unless
 * the driver set QUEUE_FLAG_ZONE_RESETALL; from 6.10 every zoned driver
 * takes it (the flag is gone).
 */
#ifdef QUEUE_FLAG_ZONE_RESETALL
static inline bool kb_zone_resetall(struct block_device *bdev)
{
	return blk_queue_zone_resetall(bdev_get_queue(bdev));
}
#else
static inline bool kb_zone_resetall(struct block_device *bdev)
{
	return true;
}
#endif

#ifdef KB_HAVE_ZONE_MGMT_NOGFP
#define kb_zone_mgmt(bdev, op, sector, nr)	blkdev_zone_mgmt(bdev, op, sector, nr)
#else
#define kb_zone_mgmt(bdev, op, sector, nr)	\
	blkdev_zone_mgmt(bdev, op, sector, nr, GFP_KERNEL)
#endif

/*
 * The "events" group: from 6.7 (and 6.1.68, 6.6.7) genetlink lets only
 * CAP_SYS_ADMIN join a group flagged GENL_MCAST_CAP_SYS_ADMIN, and the
 * notifications carry the job's whole status.  Without the flag any local
 * user may join, so they carry only what Documentation/threat-model.rst
 * promises such a user: id, name, state, error, owner and counters, none of
 * the job's settings (its paths, seed, patterns).
 */
#ifdef KB_HAVE_MCAST_CAP_SYS_ADMIN
#define KB_MCGRP_FLAGS		GENL_MCAST_CAP_SYS_ADMIN
#define KB_NTF_SETTINGS		true
#else
#define KB_MCGRP_FLAGS		0
#define KB_NTF_SETTINGS		false
#endif

/*
 * verify's checksums, from the kernel's libraries.  CRC-32C: up to 6.14
 * crc32c() is libcrc32c's, a module that needs the crypto API's "crc32c"
 * driver (another module, which only an alias names) and fails to load
 * without it: there the core's own __crc32c_le() (software, slice-by-8)
 * serves; from 6.15 crc32c() is the core's, accelerated.  CRC-64 is
 * kiobench's own (crc64.c): the kernel's is a module on some kernels and
 * absent on others.  SHA-256's context type changed in
 * 6.16 (struct sha256_ctx), its three calls kept their names.
 */
#include <linux/crc32.h>
#ifdef KB_HAVE_LIBCRC32C
#include <crypto/hash.h>
#define kb_crc32c(crc, p, len)	__crc32c_le(crc, p, len)

/*
 * Where crc32c() is libcrc32c's, the crypto API's "crc32c" is the fast
 * one (crc32c-intel, loaded on demand where the CPU has SSE 4.2): taken
 * per job, if it can be, and used as libcrc32c uses it, its state being
 * the running CRC.  NULL: the software kb_crc32c().
 */
static inline struct crypto_shash *kb_crc32c_fast_get(void)
{
	struct crypto_shash *tfm = crypto_alloc_shash("crc32c", 0, 0);

	if (IS_ERR(tfm))
		return NULL;
	if (!strcmp(crypto_shash_driver_name(tfm), "crc32c-generic")) {
		crypto_free_shash(tfm);	/* kb_crc32c(), without the indirection */
		return NULL;
	}
	return tfm;
}

static inline void kb_crc32c_fast_put(struct crypto_shash *tfm)
{
	if (tfm)
		crypto_free_shash(tfm);
}

static inline u32 kb_crc32c_fast(struct crypto_shash *tfm, u32 crc,
				 const void *p, unsigned int len)
{
	SHASH_DESC_ON_STACK(desc, tfm);
	u32 *ctx = (u32 *)shash_desc_ctx(desc);

	desc->tfm = tfm;
	*ctx = crc;
	crypto_shash_update(desc, p, len);	/* crc32c's cannot fail */
	return *ctx;
}
#else
#define kb_crc32c(crc, p, len)	crc32c(crc, p, len)
struct crypto_shash;

/* crc32c() is the core's, accelerated: nothing faster to take */
static inline struct crypto_shash *kb_crc32c_fast_get(void)
{
	return NULL;
}

static inline void kb_crc32c_fast_put(struct crypto_shash *tfm)
{
}

static inline u32 kb_crc32c_fast(struct crypto_shash *tfm, u32 crc,
				 const void *p, unsigned int len)
{
	return crc32c(crc, p, len);
}
#endif
/*
 * verify=md5: the crypto API's "md5" (crypto/md5.c, loaded on demand),
 * where the kernel has the crypto API's hashes built in; a kernel built
 * without them has no md5 to take, and the job is refused: its symbols
 * are never a load-time dependency of the module.
 * kb_md5_get(): NULL where there is none.  The state of a digest lives in
 * struct kb_md5, on the caller's stack (md5's descriptor: 88 bytes).
 */
#if IS_BUILTIN(CONFIG_CRYPTO_HASH2)
#include <crypto/hash.h>
#include <crypto/md5.h>

#define KB_MD5_CTX	128	/* bytes of descriptor context kept */

/* a descriptor and its context, as SHASH_DESC_ON_STACK() lays them out */
struct kb_md5 {
	u8 room[sizeof(struct shash_desc) + KB_MD5_CTX]
		__aligned(__alignof__(struct shash_desc));
};

static inline struct shash_desc *kb_md5_desc(struct kb_md5 *m)
{
	return (struct shash_desc *)m->room;
}

static inline struct crypto_shash *kb_md5_get(void)
{
	struct crypto_shash *tfm = crypto_alloc_shash("md5", 0, 0);

	if (IS_ERR(tfm))
		return NULL;
	if (crypto_shash_descsize(tfm) > KB_MD5_CTX) {
		crypto_free_shash(tfm);
		return NULL;
	}
	return tfm;
}

static inline void kb_md5_put(struct crypto_shash *tfm)
{
	if (tfm)
		crypto_free_shash(tfm);
}

/* md5's init, update and final cannot fail */
static inline void kb_md5_init(struct kb_md5 *m, struct crypto_shash *tfm)
{
	kb_md5_desc(m)->tfm = tfm;
	crypto_shash_init(kb_md5_desc(m));
}

static inline void kb_md5_update(struct kb_md5 *m, const u8 *p, unsigned int len)
{
	crypto_shash_update(kb_md5_desc(m), p, len);
}

static inline void kb_md5_final(struct kb_md5 *m, u8 out[MD5_DIGEST_SIZE])
{
	crypto_shash_final(kb_md5_desc(m), out);
}
#else
#define MD5_DIGEST_SIZE	16
struct crypto_shash;

struct kb_md5 {
	u8 unused;
};

static inline struct crypto_shash *kb_md5_get(void)
{
	return NULL;
}

static inline void kb_md5_put(struct crypto_shash *tfm)
{
}

static inline void kb_md5_init(struct kb_md5 *m, struct crypto_shash *tfm)
{
}

static inline void kb_md5_update(struct kb_md5 *m, const u8 *p, unsigned int len)
{
}

static inline void kb_md5_final(struct kb_md5 *m, u8 out[MD5_DIGEST_SIZE])
{
}
#endif
#include <crypto/sha2.h>
#ifdef KB_HAVE_SHA256_CTX
#define kb_sha256_ctx	sha256_ctx
#else
#define kb_sha256_ctx	sha256_state
#endif

/*
 * A kthread allowed a set of CPUs, set before its first wake-up.  From 6.14
 * kthread() moves a kthread that is not bound to its node's CPUs as it
 * first runs, unless kthread_affine_preferred() named its CPUs (which it
 * also puts back after a CPU of the set went offline and came back);
 * before, a mask set at creation stays.
 */
#ifdef KB_HAVE_KTHREAD_AFFINE_PREFERRED
#define kb_kthread_affine(task, mask)	kthread_affine_preferred(task, mask)
#else
#define kb_kthread_affine(task, mask)	set_cpus_allowed_ptr(task, mask)
#endif

#endif /* KB_COMPAT_H */
