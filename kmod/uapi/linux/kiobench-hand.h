/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * kiobench: what the netlink spec (Documentation/netlink/specs/kiobench.yaml)
 * cannot say, by hand.  Included at the end of the generated
 * <linux/kiobench.h>; include that one.
 */
#ifndef _UAPI_LINUX_KIOBENCH_HAND_H
#define _UAPI_LINUX_KIOBENCH_HAND_H

/*
 * The number of directions, for arrays indexed by enum kiobench_dir: the
 * spec renders it as __KIOBENCH_DIR_MAX (render-max), a private name.
 */
#define KIOBENCH_NR_DIRS	__KIOBENCH_DIR_MAX

#endif /* _UAPI_LINUX_KIOBENCH_HAND_H */
