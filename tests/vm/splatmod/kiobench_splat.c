// SPDX-License-Identifier: GPL-2.0
/*
 * Test module of the kiobench guest harness: loading it produces a kernel
 * splat on purpose, so the harness can prove that its splat scanner works.
 *
 *   insmod kiobench_splat.ko           one WARNING with a call trace
 *   insmod kiobench_splat.ko what=leak leaks one object (for kmemleak)
 *   insmod kiobench_splat.ko what=hang sleeps 4 s uninterruptibly (for the
 *                                      hung task detector at 1 s)
 *
 * and, on a kernel with the matching debug option, the reports of
 *
 *   what=uaf      KASAN: a read of freed slab memory
 *   what=ubsan    UBSAN_BOUNDS: an array index past the end
 *   what=atomic   DEBUG_ATOMIC_SLEEP: might_sleep() under a spinlock
 *   what=lockdep  PROVE_LOCKING: two mutexes taken in both orders
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

static char *what = "warn";
module_param(what, charp, 0444);
MODULE_PARM_DESC(what, "splat to produce: warn, leak, hang, uaf, ubsan, atomic or lockdep");

static void *leaked;
static DEFINE_MUTEX(kiobench_splat_a);
static DEFINE_MUTEX(kiobench_splat_b);
static DEFINE_SPINLOCK(kiobench_splat_lock);
static int kiobench_splat_array[4];

static noinline void kiobench_splat_uaf(void)
{
	char *p = kmalloc(64, GFP_KERNEL);

	if (!p)
		return;
	kfree(p);
	OPTIMIZER_HIDE_VAR(p);
	pr_info("kiobench_splat: freed byte %d\n", READ_ONCE(p[8]));
}

static noinline void kiobench_splat_ubsan(void)
{
	int i = ARRAY_SIZE(kiobench_splat_array);

	OPTIMIZER_HIDE_VAR(i);
	pr_info("kiobench_splat: element %d\n", kiobench_splat_array[i]);
}

static noinline void kiobench_splat_atomic(void)
{
	spin_lock(&kiobench_splat_lock);
	might_sleep();
	spin_unlock(&kiobench_splat_lock);
}

static noinline void kiobench_splat_lockdep(void)
{
	mutex_lock(&kiobench_splat_a);
	mutex_lock(&kiobench_splat_b);
	mutex_unlock(&kiobench_splat_b);
	mutex_unlock(&kiobench_splat_a);
	mutex_lock(&kiobench_splat_b);
	mutex_lock(&kiobench_splat_a);
	mutex_unlock(&kiobench_splat_a);
	mutex_unlock(&kiobench_splat_b);
}

static int __init kiobench_splat_init(void)
{
	if (!strcmp(what, "leak")) {
		leaked = kmalloc(1024, GFP_KERNEL);
		leaked = NULL;	/* drop the only reference */
		return 0;
	}
	if (!strcmp(what, "hang")) {
		msleep(4000);
		return 0;
	}
	if (!strcmp(what, "uaf")) {
		kiobench_splat_uaf();
		return 0;
	}
	if (!strcmp(what, "ubsan")) {
		kiobench_splat_ubsan();
		return 0;
	}
	if (!strcmp(what, "atomic")) {
		kiobench_splat_atomic();
		return 0;
	}
	if (!strcmp(what, "lockdep")) {
		kiobench_splat_lockdep();
		return 0;
	}
	if (strcmp(what, "warn"))
		return -EINVAL;
	WARN(1, "kiobench_splat: injected warning\n");
	return 0;
}

static void __exit kiobench_splat_exit(void)
{
}

module_init(kiobench_splat_init);
module_exit(kiobench_splat_exit);
MODULE_DESCRIPTION("kiobench harness self-test: deliberate kernel splats");
MODULE_LICENSE("GPL");
