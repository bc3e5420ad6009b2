/* SPDX-License-Identifier: GPL-2.0 */
/* The commands (commands.c, methods.c, compare.c, merge.c), for main.c's table. */
#ifndef KIOBENCH_COMMANDS_H
#define KIOBENCH_COMMANDS_H

/* Each takes its name as argv[0]; returns an exit code (KB_EXIT_*). */
int cmd_run(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_precondition(int argc, char **argv);
int cmd_suite(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_compare(int argc, char **argv);	/* compare.c */
int cmd_merge(int argc, char **argv);	/* merge.c */
int cmd_features(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_destroy(int argc, char **argv);

#endif /* KIOBENCH_COMMANDS_H */
