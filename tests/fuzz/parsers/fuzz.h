/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parsers' fuzz targets (jobfile.c, cmdline.c, iolog.c) and their
 * sandbox (sandbox.c): a directory of the process's own, which the tool's
 * file and device calls are confined to while a target runs.
 */
#ifndef KB_FUZZ_H
#define KB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* The sandbox's directory (absolute, no trailing '/'), made on first use. */
const char *kbfuzz_dir(void);
/* Writes data[0..n) as the sandbox's file name; its absolute path. */
const char *kbfuzz_write(const char *name, const uint8_t *data, size_t n);
/*
 * `kiobench run --parse-only ARGS...` (argv[0] is "run"): cmd_run() with
 * getopt restarted, the tool's files confined to the sandbox and every
 * file it opened checked closed.  Its exit code.
 */
int kbfuzz_run(int argc, char **argv);

/*
 * A failure the sanitizers do not see: msg in the sanitizers' report
 * (which libFuzzer's -close_fd_mask keeps), then abort().
 */
void kbfuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* The same with stdout into the sandbox's file out. */
int kbfuzz_run_to(const char *out, int argc, char **argv);

/*
 * The jobs' print, the sandbox's file print, parsed and printed again
 * must print the same (sandbox.c says what may differ); else an abort.
 */
void kbfuzz_check_print(const char *print);

#endif /* KB_FUZZ_H */
