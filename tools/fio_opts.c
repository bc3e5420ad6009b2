// SPDX-License-Identifier: GPL-2.0
/*
 * The catalogue of fio's options that kiobench does not take, each with the
 * reason, and of fio's I/O engines.  kiobench issues bios to block devices
 * from kernel threads and times them in bi_end_io: options about files,
 * the page cache, fio's own processes or its user-space submission have no
 * meaning there and are refused for good; options with a block meaning that
 * kiobench lacks today say "not implemented yet".  A job file or command
 * line naming one fails with the reason; nothing is ever ignored.
 * Documentation/fio-options.rst is generated from this table and the option
 * table (tools/gen-fio-opts.py).
 */
#include <string.h>

#include "fio_opts.h"

/* Refused for good: no meaning for an in-kernel block engine. */
#define BUFFERED	"buffered I/O: kiobench always bypasses the page cache"
#define FILES		"files and directories: kiobench drives block devices"
#define FS_SYNC		"file syncs: kiobench drives block devices without a file system; " \
			"its flushes are fsync, fdatasync and end_fsync"
#define PROCESS		"fio's own processes: kiobench's workers are kernel threads"
#define USERMEM		"I/O buffer memory: kiobench's buffers are kernel pages it allocates " \
			"once per I/O slot"
#define CLOCK		"fio's clock: kiobench times every I/O in the kernel (ktime)"
#define ALWAYS_MEASURED	"kiobench measures every I/O's latency in the kernel; " \
			"it cannot be turned off"
#define CGROUP		"cgroups: kiobench's I/O is issued by kernel threads, not by a " \
			"process fio could place"
#define URING_SQ	"io_uring's submission queue: kiobench submits bios from its " \
			"kernel workers, there is no ring"
#define LIBAIO_REAP	"libaio's completion ring: kiobench completes I/O in the kernel " \
			"(bi_end_io), nothing is reaped in user space"
/* Refused until kiobench has it: a block meaning it lacks today. */
#define VSTATE		"not implemented yet: a verify_only run replays the whole write " \
			"workload, as fio does without a saved state"
#define BLKTRACE	"blktrace binary traces: kiobench replays fio's text iologs " \
			"(v2, v3) only"

const struct kb_fio_refused kb_fio_refused[] = {
	/* a device setting: kiobench's sweep changes it, and puts it back */
	{ "ioscheduler", NULL, "fio switches the scheduler of the job's device and leaves it "
	  "so; kiobench changes a device's settings only in a sweep, which puts them back: "
	  "kiobench sweep --ioscheduler=NAME --allow-tuning" },
	/* files, file systems, buffered I/O */
	{ "directory", NULL, FILES },
	{ "filename_format", NULL, FILES },
	{ "unique_filename", NULL, FILES },
	{ "opendir", NULL, FILES },
	{ "lockfile", NULL, FILES },
	{ "nrfiles", "nr_files", FILES },
	{ "openfiles", NULL, FILES },
	{ "file_service_type", NULL, FILES },
	{ "filesize", NULL, FILES },
	{ "file_append", NULL, FILES },
	{ "allow_file_create", NULL, FILES },
	{ "create_fsync", NULL, FILES },
	{ "create_on_open", NULL, FILES },
	{ "create_only", NULL, FILES },
	{ "create_serialize", NULL, FILES },
	{ "unlink", NULL, FILES },
	{ "unlink_each_loop", NULL, FILES },
	{ "fallocate", NULL, FILES },
	{ "overwrite", NULL, FILES },
	{ "fill_device", "fill_fs", "fills a file system until it is full: kiobench drives "
	  "block devices (a job without size spans the whole device)" },
	{ "allow_mounted_write", NULL, "kiobench's guard against writing is --allow-writes "
	  "on the command line" },
	{ "invalidate", NULL, BUFFERED },
	{ "fadvise_hint", NULL, BUFFERED },
	{ "pre_read", NULL, BUFFERED },
	{ "sync_file_range", NULL, BUFFERED },
	{ "uncached", NULL, BUFFERED },
	{ "fsync_on_close", NULL, FS_SYNC },
	{ "readfua", NULL, "a read with REQ_FUA is refused by the block layer on every kernel "
	  "kiobench supports (submit_bio_noacct() fails any op but a write that carries "
	  "REQ_FUA or REQ_PREFLUSH, 6.1 to 7.2); only SCSI passthrough (sg) sends it" },
	/* fio's processes, memory, clocks */
	{ "uid", NULL, PROCESS },
	{ "gid", NULL, PROCESS },
	{ "cgroup", NULL, CGROUP },
	{ "cgroup_weight", NULL, CGROUP },
	{ "cgroup_nodelete", NULL, CGROUP },
	{ "exec_prerun", NULL, "runs a command before the job: kiobench runs no commands" },
	{ "exec_postrun", NULL, "runs a command after the job: kiobench runs no commands" },
	{ "profile", NULL, "fio's built-in profiles: kiobench has its own suites "
	  "('kiobench suite --list')" },
	{ "mem", "iomem", USERMEM },
	{ "hugepage-size", NULL, USERMEM },
	{ "lockmem", NULL, "pins memory to leave less for the page cache: kiobench never "
	  "uses the page cache" },
	{ "bs_unaligned", "blocksize_unaligned", "block devices take sector-aligned I/O: "
	  "kiobench's sizes are multiples of 512" },
	{ "bs_is_seq_rand", NULL, "not implemented yet: bs, bssplit and bsrange's second value "
	  "for random I/O and the first for sequential; kiobench's values are per direction" },
	{ "clocksource", NULL, CLOCK },
	{ "gtod_reduce", NULL, CLOCK },
	{ "gtod_cpu", NULL, CLOCK },
	/* execution model */
	/* offsets */
	{ "zonecapacity", NULL, "the capacity of zonemode=zbd's zones emulated on a regular "
	  "device: kiobench's zbd takes each zone's capacity from the zoned device, and "
	  "strided has none (fio ignores it there)" },
	/* rates, waits, latency target, steady state */
	/* priority, CPUs */
	{ "numa_mem_policy", NULL, "the memory policy of fio's buffers: kiobench's are the "
	  "kernel's, allocated at job creation (pin the workers with numa_cpu_nodes)" },
	{ "verify_async", NULL, "kiobench checks in the kernel's workers as they reap; there "
	  "are no offload threads" },
	{ "verify_state_load", NULL, VSTATE },
	{ "verify_state_save", NULL, VSTATE },
	/* submission and completion */
	{ "iodepth_batch_complete_max", NULL, "caps the events one io_getevents() returns: "
	  "kiobench's rounds of reaping take exactly iodepth_batch_complete_min, fio's "
	  "default for it" },
	/* I/O logs */
	{ "merge_blktrace_file", NULL, BLKTRACE },
	{ "merge_blktrace_iters", NULL, BLKTRACE },
	{ "merge_blktrace_scalars", NULL, BLKTRACE },
	/* logs and reports */
	{ "disable_lat", NULL, ALWAYS_MEASURED },
	{ "disable_clat", NULL, ALWAYS_MEASURED },
	{ "disable_slat", NULL, ALWAYS_MEASURED },
	{ "disable_bw_measurement", "disable_bw", ALWAYS_MEASURED },
	{ "stats", NULL, ALWAYS_MEASURED },
	{ "block_error_percentiles", NULL, "fio's trim wear histogram: per trim-sized block "
	  "of one file, how many trims it took until a trim or a write on it failed; "
	  "kiobench's kernel workers keep no per-block trim count or failure state "
	  "(continue_on_error counts the errors gone on from, trim verify the trimmed "
	  "blocks that read back as zeroes)" },
	/* io_uring and libaio engine options */
	{ "sqthread_poll", NULL, URING_SQ },
	{ "sqthread_poll_cpu", NULL, URING_SQ },
	{ "force_async", NULL, URING_SQ },
	{ "nonvectored", NULL, "chooses io_uring's read/write opcode: kiobench issues bios, "
	  "which have no such choice" },
	{ "cmd_type", NULL, "io_uring passthrough commands (uring_cmd): kiobench issues bios "
	  "through the block layer" },
	{ "userspace_reap", NULL, LIBAIO_REAP },
};

const size_t kb_nr_fio_refused = sizeof(kb_fio_refused) / sizeof(kb_fio_refused[0]);

/* fio's command-line options (not job options) that kiobench does not take. */
const struct kb_fio_refused kb_fio_cli_refused[] = {
	{ "bandwidth-log", NULL, "not implemented yet: fio's aggregate bandwidth logs "
	  "(agg-read_bw.log, agg-write_bw.log, agg-trim_bw.log), the sum over every job "
	  "sampled by fio's status thread as the run goes; kiobench writes its logs "
	  "after the run from each job's per-I/O log (write_bw_log gives each job's)" },
};

const size_t kb_nr_fio_cli_refused = sizeof(kb_fio_cli_refused) /
				     sizeof(kb_fio_cli_refused[0]);

/* As kb_opt_name_eq (options.c, which calls this file): '-' and '_' alike. */
static bool name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if ((*a == '-' ? '_' : *a) != (*b == '-' ? '_' : *b))
			return false;
	return *a == *b;
}

const char *kb_fio_cli_refusal(const char *name)
{
	size_t i;

	for (i = 0; i < kb_nr_fio_cli_refused; i++)
		if (name_eq(kb_fio_cli_refused[i].name, name))
			return kb_fio_cli_refused[i].reason;
	return kb_fio_refusal(name);
}

const char *kb_fio_refusal(const char *name)
{
	size_t i;

	for (i = 0; i < kb_nr_fio_refused; i++)
		if (name_eq(kb_fio_refused[i].name, name) ||
		    (kb_fio_refused[i].alias && name_eq(kb_fio_refused[i].alias, name)))
			return kb_fio_refused[i].reason;
	return NULL;
}

#define NOT_BLOCK	"does not submit block I/O to a device"

const struct kb_fio_engine kb_fio_engines[] = {
	{ "libaio", true, false, "Linux native asynchronous I/O" },
	{ "io_uring", true, false, "Linux io_uring" },
	{ "posixaio", true, false, "POSIX asynchronous I/O (aio_read, aio_write)" },
	{ "sync", true, true, "read(2)/write(2), one I/O at a time" },
	{ "psync", true, true, "pread(2)/pwrite(2), one I/O at a time" },
	{ "pvsync", true, true, "preadv(2)/pwritev(2), one I/O at a time" },
	{ "pvsync2", true, true, "preadv2(2)/pwritev2(2), one I/O at a time" },
	{ "vsync", false, true, "not implemented yet: vsync merges adjacent I/Os into one "
	  "submission; kiobench submits each I/O as drawn" },
	{ "io_uring_cmd", false, false, "passthrough commands to the device (uring_cmd): "
	  "kiobench issues bios through the block layer" },
	{ "sg", false, false, "SCSI generic commands: kiobench issues bios through the block "
	  "layer" },
	{ "mmap", false, false, "memory-mapped file I/O: " BUFFERED },
	{ "splice", false, false, "splice(2) through a pipe: " BUFFERED },
	{ "null", false, false, "fio's null engine " NOT_BLOCK " (use a null_blk device)" },
	{ "cpuio", false, false, "burns CPU, " NOT_BLOCK },
	{ "net", false, false, "network I/O " NOT_BLOCK },
	{ "netsplice", false, false, "network I/O " NOT_BLOCK },
	{ "rdma", false, false, "RDMA " NOT_BLOCK },
	{ "nbd", false, false, "an NBD server in fio " NOT_BLOCK },
	{ "rados", false, false, "Ceph RADOS objects: " NOT_BLOCK },
	{ "rbd", false, false, "Ceph RBD through librbd " NOT_BLOCK " of this host (map it "
	  "with the kernel rbd driver)" },
	{ "gfapi", false, false, "GlusterFS files: " FILES },
	{ "gfapi_async", false, false, "GlusterFS files: " FILES },
	{ "nfs", false, false, "NFS files through libnfs: " FILES },
	{ "http", false, false, "HTTP/S3/Swift objects " NOT_BLOCK },
	{ "ftruncate", false, false, "file operations: " FILES },
	{ "filecreate", false, false, "file operations: " FILES },
	{ "filestat", false, false, "file operations: " FILES },
	{ "filedelete", false, false, "file operations: " FILES },
	{ "dircreate", false, false, "file operations: " FILES },
	{ "dirstat", false, false, "file operations: " FILES },
	{ "dirdelete", false, false, "file operations: " FILES },
	{ "falloc", false, false, "file operations: " FILES },
	{ "e4defrag", false, false, "ext4 defragmentation: " FILES },
	{ "exec", false, false, "runs a program " NOT_BLOCK },
	{ "mtd", false, false, "raw flash (MTD) devices, not block devices" },
	{ "pmemblk", false, false, "persistent memory through libpmemblk " NOT_BLOCK },
	{ "dev-dax", false, false, "DAX character devices, not block devices" },
	{ "libpmem", false, false, "persistent memory through libpmem " NOT_BLOCK },
	{ "libzbc", false, false, "zoned devices through libzbc passthrough: "
	  "kiobench's zonemode=zbd drives them through the block layer" },
	{ "xnvme", false, false, "NVMe through xNVMe in user space: kiobench issues bios "
	  "through the block layer" },
	{ "spdk", false, false, "NVMe through SPDK in user space: kiobench issues bios "
	  "through the block layer" },
	{ "libcufile", false, false, "GPUDirect storage files: " FILES },
	{ "dfs", false, false, "DAOS files: " FILES },
	{ "windowsaio", false, false, "Windows asynchronous I/O: kiobench runs on Linux" },
	{ "solarisaio", false, false, "Solaris asynchronous I/O: kiobench runs on Linux" },
	{ "guasi", false, false, "GUASI user-space asynchronous I/O " NOT_BLOCK },
	{ "external", false, false, "an engine fio loads from a library: kiobench issues the "
	  "I/O itself" },
};

const size_t kb_nr_fio_engines = sizeof(kb_fio_engines) / sizeof(kb_fio_engines[0]);

const struct kb_fio_engine *kb_fio_engine(const char *name)
{
	size_t i;

	if (!strncmp(name, "external:", 9))
		name = "external";
	for (i = 0; i < kb_nr_fio_engines; i++)
		if (!strcmp(kb_fio_engines[i].name, name))
			return &kb_fio_engines[i];
	return NULL;
}
