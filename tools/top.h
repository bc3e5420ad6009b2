/* SPDX-License-Identifier: GPL-2.0 */
/* kiobench top (top.c): every job in the kernel, refreshed. */
#ifndef KIOBENCH_TOP_H
#define KIOBENCH_TOP_H

int cmd_top(int argc, char **argv);

#endif /* KIOBENCH_TOP_H */
