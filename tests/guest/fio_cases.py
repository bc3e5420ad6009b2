"""The differential cases of fio's options: job files that Debian's fio and
kiobench run on the same device in one guest, and what of the device's
stream must come out alike (test_fio_diff.py runs them).

Each honored fio option names its case in the option table (tools/options.c,
``.fio_case``), or an existing guest test that runs fio beside kiobench
(``"test_x.py::test_y"``), or says why nothing at the device can show it
(``"-" reason``); tests/unit/test_fio_cases.py holds the table to this file.

A case's job file is run whole by fio (seeds 1 to ``seeds``) and by
kiobench; then, for each option the case proves, kiobench runs the job file
once more without that option's line, and that stream must NOT pass the
same checks: a case proves only the options whose absence it sees.

Checks, each on the I/Os the block layer issued (block_rq_issue, merging
off), per direction (R, W, D: trim, F: flush):
  stream    the exact list of (op, offset, bytes), as fio's (one seed);
  offsets   the same multiset of (op, offset, bytes), in any order;
  count     the number of I/Os of each op, as fio's (within ``tolerance``);
  ops       the share of each op (total variation, fio's spread or 0.03);
  sizes     the transfer sizes of each op (0.05);
  log2sizes the transfer sizes of each op in powers of 2 (0.05: a range
            of thousands of sizes, each drawn a few times);
  bands     the share of I/Os in each 5 % of the device (0.08);
  align     the share of I/Os at each offset modulo 4 KiB (0.03);
  coverage  the sectors each op covered: how many distinct ones (1 %)
            and how many times over on average (0.02);
  prio      the share of each I/O priority (class/level) of each op (0.03;
            the issue event has it from 6.5: these cases run on 6.12);
  seq       the share of I/Os starting where the op's previous one ended;
  depth     the most I/Os in flight at once (from the completions too);
  cpus      the share of I/Os issued on each CPU (0.25);
  inflight  the share of issues made with n I/Os in flight;
  opseq     the exact sequence of ops (R, W, D, F), as fio's;
  readruns  the lengths of the runs of reads between writes, all but the
            last run (the final read-back), as a set, as fio's (each
            seed's): verify_backlog's windows, whatever the offsets;
  flags     the share of each rwbs (FUA, preflush, sync) of each op;
  revisits  the share of I/Os at an offset an earlier one had;
  ascending the reads' order: the share of reads above the previous
            read's offset, and of reads at an offset an earlier read had
            (0.03): fio's sorted read-back of verify is 1 and 0;
  span      the seconds from the first issue to the last (15 %, or 0.5 s);
  delay     the seconds from the command's start to the first issue;
  content   the device's first content_bytes after the run, as fio's;
  repeat    whether a second run of the job file repeats the first's stream;
  json      the values (a dict: its keys; "#": a length) at the case's
            paths of the JSON reports (--output-format=json); a path ending
            in "~": a number within 30 %, or 2;
  gaps      the coefficient of variation of the gaps between issues;
  compress  how far gzip -1 shrinks the device's first content_bytes;
  distinct  the share of distinct 4 KiB blocks among them;
  repeated  the share of them whose content other blocks repeat (the
            sources of dedupe's copies);
  zeroblocks the share of them all zeroes (how compressible data is laid
            out);
  shared    the share of the second half's blocks whose content the first
            half has (what two jobs' writes, one in each, have in common);
  magic     the sectors of the first content_bytes that start with a
            verify header (fio's magic 0xacca, kiobench's "KBVH": the
            headers differ, where they go must not), as fio's;
  iolog     the I/Os of the iolog the run wrote (iolog), as fio's, in any
            order;
  logs      the log files the run left in its directory (but fio's _slat
            logs: kiobench has no submission stamp): their names, the
            fields of a line, the lines (within a factor of 2 of fio's),
            and the clock of the first time: Unix time (ms above 1e9), the
            monotonic clock (at or after the command's start on it), or the
            job's own (before);
  logprio   the values the last field of the lat logs' lines takes (the
            priority: 0 or 1 for realtime, or with log_prio the whole
            value, 0x2003);
  pauses    the number of gaps between issues longer than ``pause``
            seconds, as fio's (within 1);
  text      what the case's ``text`` regular expressions find in the normal
            output, each match's digits made 9s (its shape: units and
            significant figures, not values), as fio's;
  overlaps  the share of I/Os issued while one they overlap was in flight;
  dumps     the names and sizes of the verify dumps the run left in its
            directory (DEVICE.OFFSET.received, .expected, .hdr_fail), as
            fio's;
  zones     the number of the device's zones written to (zone_size MiB),
            as fio's;
  polled    the share of I/Os completed within half the device's
            completion_nsec of their issue, as fio's within 0.05: null_blk
            completes a request of its poll queue when polled, not at its
            timer (blk-mq's debugfs has no count per hardware context).
  logmax    whether the clat log's largest value is the JSON's largest
            completion latency, as fio's: so when each window logs its
            largest, not when it logs its mean.  (The values themselves
            differ: fio's latencies hold its reaping, up to 5 ms a window's
            largest on a 1 ms null_blk under TCG, kiobench's 1.3.)
  plugs     the requests of each plug the job's threads flushed
            (block_unplug: fio's io_submit() plugs more than 2) until the
            first ``fill`` requests, as fio's: the first fill's batches.
            After it fio submits each refill alone when it reaps one
            completion at a time, where kiobench plugs a round's refills
            together; the block layer dispatches both at once.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from vm.targets import zoned


# the checks that compare times: a run's span, its start's delay, the
# gaps between issues, thinktime's pauses, polled completions' latency
TIME_CHECKS = {"span", "delay", "gaps", "pauses", "polled"}


@dataclass(frozen=True)
class Case:
    id: str
    body: str                       # the job's section(s), after [global]
    checks: tuple[str, ...]
    proves: tuple[str, ...]         # options whose line is dropped in turn
    seeds: int = 3
    device: dict = field(default_factory=lambda: {"size_mb": 64})
    writes: bool = False
    tolerance: float = 0.0          # count: relative
    global_: str = "direct=1\nioengine=libaio\n"
    hog_cpu: int | None = None      # a busy loop there while the jobs run
    content_bytes: int = 256 << 10  # content: how much of the device
    fio_args: str = "--randrepeat=0 --randseed={seed}"
    files: dict = field(default_factory=dict)  # guest path -> text ({dev})
    json: tuple[str, ...] = ()      # json: paths of the JSON reports compared
    filename: bool = True           # [global] names the device
    limit: int = 120                # seconds a kiobench run may take
    iolog: str = ""                 # iolog: the file write_iolog names
    bad_sectors: tuple = ()         # (first, last): these sectors fail with EIO
    seconds: float = 0.0            # span, delay: the tolerance (default 15 %, 0.5 s)
    fails: bool = False             # the job may end in error (exit status not checked)
    pause: float = 0.1              # pauses: the shortest gap counted (s)
    text: tuple[str, ...] = ()      # text: regular expressions of the normal output
    fill: int = 0                   # plugs: the requests of the first fill
    proof_runs: int = 1             # runs without an option that may all pass before
                                    # the case is blind to it (the scheduler's choice)
    clock: bool = False             # json: what it compares counts windows of wall
                                    # time, which a starved guest loses

    @property
    def timed(self) -> bool:
        """Whether a check of it is a time (TIME_CHECKS) or counts
        windows of time (clock), which another guest on the host's two
        cores moves: such a case is marked timing (tests/conftest.py)."""
        return self.clock or bool(TIME_CHECKS & set(self.checks))

    def jobfile(self, dev: str, drop: str | None = None) -> str:
        name = f"filename={dev}\n" if self.filename else ""
        text = f"[global]\n{name}{self.global_}{self.body.strip().format(dev=dev)}\n"
        return "".join(ln for ln in text.splitlines(keepends=True)
                       if drop is None or ln.split("=", 1)[0].strip() != drop)

    def names(self) -> set[str]:
        """The options the job file sets."""
        text = f"filename=\n{self.global_}{self.body}" if self.filename else \
            self.global_ + self.body
        return {ln.split("=", 1)[0].strip() for ln in text.splitlines()
                if ln.strip() and not ln.startswith(("[", "#", ";"))}


# the units of the normal output's bandwidths and sizes
UNITS = (r"BW=[\d.]+(\w+/s) \([\d.]+(\w+/s)\)\([\d.]+(\w+)/",
         r"bw=[\d.]+(\w+/s) \([\d.]+(\w+/s)\)", r"io=[\d.]+(\w+) \([\d.]+(\w+)\)")

# I/Os that take 1 ms: a worker fills its depth long before one completes
SLOW_DEV = {"size_mb": 64, "completion_nsec": 1_000_000}

CASES = [
    # a sequential window: where it starts, how far it goes, how often
    Case("seq-window",
         "[w]\nrw=write\nbs=8k\noffset=10%\noffset_align=64k\nsize=512k\nloops=2\n",
         ("stream",), ("filename", "rw", "bs", "offset", "offset_align", "size", "loops"),
         seeds=1, writes=True),
    # io_size past size wraps the window; number_ios cuts the job
    Case("seq-io-size",
         "[r]\nrw=read\nblocksize=16k\nsize=256k\nio_size=800k\n",
         ("stream",), ("blocksize", "size", "io_size"), seeds=1),
    Case("number-ios",
         "[r]\nreadwrite=randread\nbs=4k\nnumber_ios=300\nnorandommap\n",
         ("count", "seq"), ("readwrite", "number_ios")),
    # clones each take their own window
    Case("clones",
         "[c]\nrw=read\nbs=4k\nsize=128k\nnumjobs=3\noffset_increment=1m\n",
         ("offsets",), ("numjobs", "offset_increment"), seeds=1),
    # each clone draws its own offsets: fio seeds job n from the seed times n
    Case("clone-seeds",
         "[c]\nrw=randread\nbs=4k\nnorandommap\nnumber_ios=256\nnumjobs=2\n",
         ("count", "revisits"), ("numjobs",), seeds=2),
    # a mix: the share of writes, sizes per direction, where they land
    Case("mix",
         "[m]\nrw=randrw\nrwmixwrite=30\nbssplit=4k/50:16k/30:64k/20,8k/60:32k/40\n"
         "random_distribution=zoned:60/10:40/90\nnorandommap\niodepth=8\nnumber_ios=3000\n",
         ("ops", "sizes", "bands"), ("rwmixwrite", "bssplit", "random_distribution"),
         writes=True),
    Case("mix-read-share",
         "[m]\nrw=randrw\nrwmixread=80\nbsrange=4k-32k\nnorandommap\nnumber_ios=3000\n",
         ("ops", "sizes"), ("rwmixread", "bsrange"), writes=True),
    # a synchronous engine keeps one I/O in flight whatever iodepth says
    Case("engine-depth",
         "[d]\nrw=randread\nbs=4k\nioengine=psync\niodepth=8\nnumber_ios=300\n"
         "norandommap\n",
         ("depth",), ("ioengine",), seeds=1, device=SLOW_DEV),
    Case("depth",
         "[d]\nrw=randread\nbs=4k\niodepth=6\nnumber_ios=600\nnorandommap\n",
         ("depth",), ("iodepth",), seeds=1, device=SLOW_DEV),
    # where the workers run: CPU 1 busy, and each I/O taking 1 ms, so that
    # a worker free to move wakes up on the idle CPU 0
    Case("cpus",
         "[p]\nrw=randread\nbs=4k\ncpus_allowed=1\nnumber_ios=300\nnorandommap\n",
         ("cpus",), ("cpus_allowed",), seeds=1, hog_cpu=1, device=SLOW_DEV),
    Case("cpumask",
         "[p]\nrw=randread\nbs=4k\ncpumask=0x2\nnumber_ios=300\nnorandommap\n",
         ("cpus",), ("cpumask",), seeds=1, hog_cpu=1, device=SLOW_DEV),
    # trims
    Case("trim",
         "[t]\nrw=randtrim\nbs=64k\nnumber_ios=400\nnorandommap\n",
         ("ops", "sizes", "bands"), ("rw", "bs"), writes=True,
         device={"size_mb": 64, "discard": 1}),
    # flushes after every N writes
    Case("fsync",
         "[f]\nrw=write\nbs=4k\nsize=256k\nfsync=8\n",
         ("count",), ("fsync",), seeds=1, writes=True,
         device={"size_mb": 64, "cache_size": 16}),
    Case("fdatasync",
         "[f]\nrw=write\nbs=4k\nsize=256k\nfdatasync=16\n",
         ("count",), ("fdatasync",), seeds=1, writes=True,
         device={"size_mb": 64, "cache_size": 16}),
    Case("end-fsync",
         "[f]\nrw=write\nbs=4k\nsize=256k\nend_fsync=1\n",
         ("count",), ("end_fsync",), seeds=1, writes=True,
         device={"size_mb": 64, "cache_size": 16}),
    # a flush at the end of each of fio's rounds: (W16 F) x 3
    Case("end-fsync-loops",
         "[f]\nrw=write\nbs=4k\nsize=64k\nloops=3\nend_fsync=1\n",
         ("stream",), ("loops", "end_fsync"), seeds=1, writes=True,
         device={"size_mb": 64, "cache_size": 16}),
]

CASES += [
    # fio's random map: a pass touches each block once; without it, blocks
    # repeat
    Case("randmap",
         "[m]\nrw=randread\nbs=4k\nsize=256k\nnumber_ios=64\nnorandommap\n",
         ("revisits",), ("norandommap",)),
    # the random map with several sizes: fio takes a drawn block, or the
    # next free one after it, and shortens the transfer to the free blocks
    # that follow (mark_random_map()): a pass covers each block once, and
    # the sizes shrink as the map fills (iometer's file-server mix)
    Case("randmap-bssplit",
         "[m]\nrw=randread\nsize=8m\n"
         "bssplit=512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10\n",
         ("sizes", "coverage"), ("bssplit",)),
    # randtrimwrite: the trim takes its blocks from the map, the write
    # after it the trim's offset and shortened length (not marked again);
    # every sector trimmed and written once.  (fio opens a job that trims
    # without O_DIRECT: its writes reach the device as the page cache's
    # 4 KiB ones, whose sizes are not the job's)
    Case("randmap-trimwrite",
         "[t]\nrw=randtrimwrite\nsize=1m\nbssplit=4k/50:16k/50\n",
         ("coverage",), ("rw",), writes=True,
         device={"size_mb": 64, "discard": 1}),
    # what the writes hold
    Case("zero-buffers",
         "[z]\nrw=write\nbs=4k\nsize=256k\nzero_buffers\n",
         ("content",), ("zero_buffers",), seeds=1, writes=True),
    Case("buffer-pattern",
         "[z]\nrw=write\nbs=4k\nsize=256k\nbuffer_pattern=0xdeadbeef\n",
         ("content",), ("buffer_pattern",), seeds=1, writes=True),
    # time: a time-based job runs its runtime, after its ramp, and starts late
    Case("time-based",
         "[t]\nrw=randread\nbs=4k\nsize=256k\nruntime=2\ntime_based\nramp_time=1\n"
         "startdelay=1\n",
         ("span", "delay"), ("time_based", "ramp_time", "startdelay"), seeds=1,
         device=SLOW_DEV),
    # randrepeat=0: each run draws other offsets
    Case("randrepeat",
         "[r]\nrw=randread\nbs=4k\nsize=16m\nnumber_ios=200\nrandrepeat=0\n",
         ("repeat",), ("randrepeat",), seeds=1, fio_args=""),
    # randseed with randrepeat off: the offsets from that seed, the same
    # in both runs (fio 3.33 takes randseed only then: with randrepeat
    # on, its default, any seed draws the same offsets)
    Case("randseed",
         "[r]\nrw=randread\nbs=4k\nsize=16m\nnumber_ios=200\nrandrepeat=0\nrandseed=1234\n",
         ("repeat",), ("randseed",), seeds=1, fio_args=""),
    # allrandrepeat seeds every generator, the offsets' too, whatever
    # randrepeat says
    Case("allrandrepeat",
         "[r]\nrw=randread\nbs=4k\nsize=16m\nnumber_ios=200\nrandrepeat=0\n"
         "allrandrepeat=1\n",
         ("repeat",), ("allrandrepeat",), seeds=1, fio_args=""),
]

RLOG = ("fio version 2 iolog\n/dev/kb-absent add\n/dev/kb-absent open\n"
        "/dev/kb-absent read 8192 4096\n/dev/kb-absent write 65536 8192\n"
        "/dev/kb-absent read 20480 4096\n/dev/kb-absent read 1048576 16384\n"
        "/dev/kb-absent close\n")

CASES += [
    # split: the job's one worker on the set's first CPU, even busy;
    # shared: free to leave it, which a worker that sleeps for each I/O
    # (1 ms) does at each wake-up, to the idle CPU
    Case("cpus-split",
         "[p]\nrw=randread\nbs=4k\ncpus_allowed=0-1\ncpus_allowed_policy=split\n"
         "number_ios=300\nnorandommap\n",
         ("cpus",), ("cpus_allowed_policy",), seeds=1, hog_cpu=0, device=SLOW_DEV),
    # verify: the read-back, when it happens, and the pattern written
    Case("verify-read-back",
         "[v]\nrw=write\nbs=4k\nsize=256k\nverify=crc32c\ndo_verify=0\n",
         ("count",), ("do_verify",), seeds=1, writes=True),
    Case("verify-backlog",
         "[v]\nrw=write\nbs=4k\nsize=256k\nverify=crc32c\nverify_backlog=8\n",
         ("opseq",), ("verify_backlog",), seeds=1, writes=True),
    # random writes that overlap: fio's window ends when its log holds
    # verify_backlog extents, not after that many writes, so every window
    # reads back 4 blocks, however many of its writes later ones dropped
    Case("verify-backlog-overlaps",
         "[v]\nrw=randwrite\nnorandommap\nbs=4k\nsize=64k\nverify=crc32c\n"
         "verify_backlog=4\n",
         ("readruns",), ("verify_backlog",), writes=True),
    # fio's rounds: each issues at most size, within io_size times loops in
    # all; loops of them, then more while io_size is not done
    Case("io-size-loops",
         "[w]\nrw=write\nbs=4k\nsize=64k\nio_size=192k\nloops=2\n",
         ("count",), ("io_size",), seeds=1, writes=True),
    # number_ios counts over the loops: ten each
    Case("number-ios-loops",
         "[w]\nrw=write\nbs=4k\nsize=64k\nnumber_ios=10\nloops=2\n",
         ("count",), ("loops",), seeds=1, writes=True),
    # with verify each round is read back before the next, and its reads
    # count toward io_size: two rounds of 64k where 192k was asked
    Case("verify-io-size",
         "[v]\nrw=write\nbs=4k\nsize=64k\nio_size=192k\nverify=crc32c\n",
         ("stream",), ("io_size",), seeds=1, writes=True),
    # verify_backlog's windows start again with each round
    Case("verify-io-size-backlog",
         "[v]\nrw=write\nbs=4k\nsize=64k\nio_size=192k\nverify=crc32c\nverify_backlog=12\n",
         ("stream",), ("io_size", "verify_backlog"), seeds=1, writes=True),
    # 96k over two loops: a round of 64k, then one of 32k
    Case("verify-io-size-short",
         "[v]\nrw=write\nbs=4k\nsize=64k\nio_size=48k\nloops=2\nverify=crc32c\n",
         ("stream",), ("io_size", "loops"), seeds=1, writes=True),
    # each loop's writes read back (end_fsync first) before the next loop
    Case("verify-loops",
         "[v]\nrw=write\nbs=4k\nsize=64k\nverify=crc32c\nloops=3\nend_fsync=1\n",
         ("stream",), ("loops", "end_fsync"), seeds=1, writes=True,
         device={"size_mb": 64, "cache_size": 16}),
    Case("verify-loops-random",
         "[v]\nrw=randwrite\nbs=4k\nsize=64k\nverify=crc32c\nloops=2\n",
         ("opseq", "count"), ("loops",), seeds=1, writes=True),
    # number_ios counts each round's read-back too (fio: W16 R16 W4 R4 of
    # number_ios=12 times loops=3)
    Case("number-ios-verify-loops",
         "[v]\nrw=write\nbs=4k\nsize=64k\nverify=crc32c\nnumber_ios=12\nloops=3\n",
         ("stream",), ("number_ios", "loops"), seeds=1, writes=True),
    # a write that fails (4 KiB block 8) and is gone on from is not read
    # back: fio drops it from its log
    Case("verify-failed-write",
         "[v]\nrw=write\nbs=4k\nsize=256k\nverify=crc32c\ncontinue_on_error=write\n",
         ("stream",), ("continue_on_error",), seeds=1, writes=True, bad_sectors=(64, 71),
         fails=True),
    # ... nor under the random map, whose read-back replays the writes
    # (fio: its list in the order written, the failed write unlogged): the
    # same blocks, in another order (the generators differ)
    Case("verify-failed-write-random",
         "[v]\nrw=randwrite\nbs=4k\nsize=256k\nverify=crc32c\ncontinue_on_error=write\n",
         ("offsets",), ("continue_on_error",), seeds=1, writes=True, bad_sectors=(64, 71),
         fails=True),
    # number_ios counts verify_backlog's reads too: W4 R4 W2, then the
    # last two read back; over two loops the count (20) stops the first
    # loop at W4 R4 W4 R4 W4, and the second issues nothing
    Case("verify-backlog-number-ios",
         "[v]\nrw=write\nbs=4k\nsize=64k\nverify=crc32c\nverify_backlog=4\n"
         "number_ios=10\n",
         ("opseq",), ("number_ios",), seeds=1, writes=True),
    Case("verify-backlog-number-ios-loops",
         "[v]\nrw=write\nbs=4k\nsize=64k\nverify=crc32c\nverify_backlog=4\n"
         "number_ios=10\nloops=2\n",
         ("opseq",), ("loops",), seeds=1, writes=True),
    # a failed write leaves fio's log one extent short, and its window one
    # more write to fill: block 8 fails, the third window, of five writes,
    # still reads back 4
    Case("verify-backlog-failed-write",
         "[v]\nrw=write\nbs=4k\nsize=64k\nverify=crc32c\nverify_backlog=4\n"
         "continue_on_error=write\n",
         ("stream", "readruns"), ("verify_backlog",), seeds=1, writes=True,
         bad_sectors=(64, 71), fails=True),
    Case("verify-pattern",
         "[v]\nrw=write\nbs=4k\nsize=256k\nverify=pattern\nverify_pattern=0x5a5aa5a5\n"
         "do_verify=0\n",
         ("content",), ("verify_pattern",), seeds=1, writes=True),
    # an iolog replayed on another device, its offsets scaled and aligned
    # (replay_skip is not here: fio 3.33 applies it to blktrace replays
    # only, fio 3.34 to iologs too, as kiobench does)
    Case("replay",
         "[r]\nread_iolog=/tmp/kb-replay.log\nreplay_redirect={dev}\nreplay_scale=2\n"
         "replay_align=4096\n",
         ("stream",), ("read_iolog", "replay_redirect", "replay_scale", "replay_align"),
         seeds=1, writes=True, filename=False, files={"/tmp/kb-replay.log": RLOG}),
    # the JSON report: which percentiles, of which latency, how many jobs
    Case("json-percentiles",
         "[j]\nrw=randread\nbs=4k\nnumber_ios=500\npercentile_list=50:99.5\n",
         ("json",), ("percentile_list",), seeds=1,
         json=("jobs.0.read.clat_ns.percentile",)),
    Case("json-latencies",
         "[j]\nrw=randread\nbs=4k\nnumber_ios=500\nlat_percentiles=1\nclat_percentiles=0\n"
         "percentile_list=10:90\n",
         ("json",), ("lat_percentiles", "clat_percentiles"), seeds=1,
         json=("jobs.0.read.clat_ns.percentile", "jobs.0.read.lat_ns.percentile")),
    Case("json-group",
         "[j]\nrw=randread\nbs=4k\nnumber_ios=200\nnumjobs=2\ngroup_reporting\n",
         ("json",), ("group_reporting",), seeds=1, json=("jobs.#",)),
    # logs: which files, how many lines, which fields
    Case("logs",
         "[l]\nrw=randread\nbs=4k\nnumber_ios=1000\nwrite_lat_log=lat\nwrite_bw_log=bw\n"
         "write_iops_log=iops\nlog_avg_msec=100\nlog_offset=1\nper_job_logs=0\n",
         ("logs",), ("write_lat_log", "write_bw_log", "write_iops_log", "log_avg_msec",
                     "log_offset", "per_job_logs"), seeds=1, device=SLOW_DEV),
    Case("logs-epoch",
         "[l]\nrw=randread\nbs=4k\nnumber_ios=300\nwrite_lat_log=lat\nlog_unix_epoch=1\n",
         ("logs",), ("log_unix_epoch",), seeds=1, device=SLOW_DEV),
    # fio reaps a full depth's completions in rounds (complete_min each)
    # down to iodepth_low, and a completion it has not reaped keeps its
    # io_u: the timer completes a fill at once, so the refill is the rounds'
    # reaps, 6 of 8 here both ways, and the device never again sees 7 or 8
    # in flight; one completion at a time, it refills all 8
    Case("reap-low",
         "[d]\nrw=randread\nbs=4k\niodepth=8\niodepth_low=2\nnumber_ios=2000\n",
         ("inflight",), ("iodepth_low",), device=SLOW_DEV),
    Case("reap-min",
         "[d]\nrw=randread\nbs=4k\niodepth=8\niodepth_batch_complete_min=3\nnumber_ios=2000\n",
         ("inflight",), ("iodepth_batch_complete_min",), device=SLOW_DEV),
    # iodepth_batch: the first fill goes out in plugs of 4, as fio's
    # io_submit() of 4 (without it: one of 16)
    Case("batch-submit",
         "[b]\nrw=randread\nbs=4k\niodepth=16\niodepth_batch=4\nnumber_ios=200\n",
         ("plugs",), ("iodepth_batch",), seeds=2, device=SLOW_DEV, fill=16),
    # the bandwidth and IOPS samples' windows: as many samples as windows
    # (8 and 16 of 4 s; fio 7 and 15).  One a multiple of the other: fio's
    # helper thread wakes at the shorter window's ends and takes a sample
    # whose window has passed, so bwavgtime=400 beside 250 gave fio 7
    # samples, not 10.  A starved helper thread takes fewer: beside the
    # timing tests fio once took 7 IOPS samples of 4 s, so the case is timed
    Case("avg-windows",
         "[s]\nrw=randread\nbs=4k\ntime_based\nruntime=4\nbwavgtime=500\niopsavgtime=250\n",
         ("json",), ("bwavgtime", "iopsavgtime"), seeds=1, device=SLOW_DEV,
         json=("jobs.0.read.bw_samples~", "jobs.0.read.iops_samples~"), clock=True),
    # log_max_value: a window's largest latency, not its mean
    Case("log-max",
         "[l]\nrw=randread\nbs=4k\nnumber_ios=1000\nwrite_lat_log=lat\nlog_avg_msec=100\n"
         "log_max_value=1\n",
         ("json", "logmax"), ("log_max_value",), seeds=2, device=SLOW_DEV),
    Case("hist-log",
         "[l]\nrw=randread\nbs=4k\nnumber_ios=1000\nwrite_hist_log=h\nlog_hist_msec=200\n",
         ("logs",), ("write_hist_log", "log_hist_msec"), seeds=1, device=SLOW_DEV),
]

CASES += [
    # runtime cuts a long job short; without it the run outlasts its limit
    Case("runtime",
         "[t]\nrw=randread\nbs=4k\nnumber_ios=100000\nruntime=2\n",
         ("span",), ("runtime",), seeds=1, device=SLOW_DEV, limit=20),
    # exitall: the first job to end ends the others
    Case("exitall",
         "[a]\nrw=randread\nbs=4k\nnumber_ios=100\nexitall\n"
         "[b]\nrw=randread\nbs=4k\ntime_based\nruntime=6\n",
         ("span",), ("exitall",), seeds=1, device=SLOW_DEV),
    Case("new-group",
         "[a]\nrw=randread\nbs=4k\nnumber_ios=100\n"
         "[b]\nrw=randread\nbs=4k\nnumber_ios=100\nnew_group\n",
         ("json",), ("new_group",), seeds=1, json=("jobs.0.groupid", "jobs.1.groupid")),
    # arrivals: Poisson's gaps vary as much as they are long
    Case("rate-process",
         "[r]\nrw=randread\nbs=4k\nrate_iops=300\nrate_process=poisson\nnumber_ios=600\n"
         "norandommap\n",
         ("gaps",), ("rate_process",)),
    # fio's LFSR never repeats an offset within a pass, map or no map
    Case("lfsr",
         "[m]\nrw=randread\nbs=4k\nsize=256k\nnumber_ios=64\nnorandommap\n"
         "random_generator=lfsr\n",
         ("revisits",), ("random_generator",)),
    # fio's LFSR with several sizes keeps no map: each block starts a
    # transfer once per pass, of its drawn size (drawn again until it fits
    # before the end), which nothing cuts: transfers overlap.  Without it
    # the random map's bitmap cuts them to the blocks not yet done (4, 8,
    # 12 KiB), and covers each sector once.  (The size's bytes cover 69 %
    # of the sectors, 1.44 times over, with a standard deviation of 3 %
    # and 0.05 over 1 MiB, of 0.4 % and 0.006 over 64 MiB: a random
    # order's spread fits coverage's tolerance, 1 % and 0.02, only there.)
    Case("lfsr-bssplit",
         "[m]\nrw=randread\nsize=64m\nbssplit=4k/50:16k/50\n"
         "random_generator=lfsr\n",
         ("sizes", "coverage"), ("random_generator",)),
    # the content's compressibility, scrambled zeroes, refilled buffers
    Case("compress",
         "[c]\nrw=write\nbs=64k\nsize=1m\nbuffer_compress_percentage=70\n"
         "buffer_compress_chunk=64k\n",
         ("compress",), ("buffer_compress_percentage",), seeds=1,
         writes=True, content_bytes=1 << 20),
    # the compressible part of each chunk is zeroes: a 64 KiB chunk at 50 %
    # leaves whole 4 KiB blocks of zeroes, fio's default 512 bytes none
    Case("compress-chunk",
         "[c]\nrw=write\nbs=64k\nsize=1m\nbuffer_compress_percentage=50\n"
         "buffer_compress_chunk=64k\n",
         ("zeroblocks",), ("buffer_compress_chunk",), seeds=1, writes=True,
         content_bytes=1 << 20),
    Case("scramble",
         "[s]\nrw=write\nbs=4k\nsize=1m\nzero_buffers\nscramble_buffers=1\n",
         ("compress",), ("scramble_buffers",), seeds=1, writes=True, content_bytes=1 << 20),
    Case("refill",
         "[r]\nrw=write\nbs=4k\nsize=256k\nscramble_buffers=0\nrefill_buffers=1\n",
         ("distinct",), ("refill_buffers",), seeds=1, writes=True),
    # the iolog a run writes
    Case("write-iolog",
         "[w]\nrw=randread\nbs=4k\nsize=64k\nwrite_iolog=io.log\n",
         ("iolog",), ("write_iolog",), seeds=1, iolog="io.log", fio_args=""),
]

# fio's version 3 iolog: 21 reads 50 ms apart (its times in microseconds)
TLOG = ("fio version 3 iolog\n0 /dev/kb-absent add\n0 /dev/kb-absent open\n"
        + "".join(f"{i * 50_000} /dev/kb-absent read {i * 8192} 4096\n" for i in range(21))
        + "1000000 /dev/kb-absent close\n")

CASES += [
    # errors: which ones a job goes on from (4 KiB block 8 fails)
    Case("ignore-error",
         "[e]\nrw=read\nbs=4k\nsize=256k\ncontinue_on_error=read\nignore_error=ENOSPC\n",
         ("count",), ("ignore_error",), seeds=1, bad_sectors=(64, 71), fails=True),
    # an iolog's times: scaled (50: 2 s; fio's sleeps overshoot under TCG,
    # 0.69 s for 0.5 s at 200), or not waited for
    Case("replay-times",
         "[r]\nread_iolog=/tmp/kb-times.log\nreplay_redirect={dev}\nreplay_time_scale=50\n",
         ("span",), ("replay_time_scale",), seeds=1, filename=False, seconds=0.5,
         files={"/tmp/kb-times.log": TLOG}),
    # no stall: both at once, where the log's times take 1 s (fio's own
    # start took 0.154 s once, beside the debug lanes: 0.4 s of slack)
    Case("replay-no-stall",
         "[r]\nread_iolog=/tmp/kb-times.log\nreplay_redirect={dev}\nreplay_no_stall=1\n",
         ("span",), ("replay_no_stall",), seeds=1, filename=False, seconds=0.4,
         files={"/tmp/kb-times.log": TLOG}),
]

CASES += [
    # fio's examples/jesd219.fio, the JEDEC SSD endurance workload, bounded:
    # its sizes from 512 bytes, every offset 4 KiB aligned, in its zones
    Case("jesd219",
         "[JESD219]\nrw=randrw\nnorandommap\nrwmixread=40\nrwmixwrite=60\niodepth=8\n"
         "bssplit=512/4:1024/1:1536/1:2048/1:2560/1:3072/1:3584/1:4k/67:8k/10:16k/7:32k/3:"
         "64k/3\nblockalign=4k\nrandom_distribution=zoned:50/5:30/15:20/80\n"
         "number_ios=4000\n",
         ("ops", "sizes", "bands", "align"), ("blockalign", "random_distribution"),
         writes=True),
]

CASES += [
    # rate_iops over several sizes with Poisson arrivals: fio draws each
    # I/O's gap, whatever its size, at rate_iops a second
    Case("rate-sizes",
         "[r]\nrw=randread\nbssplit=4k/50:64k/50\nrate_iops=200\nrate_process=poisson\n"
         "number_ios=400\nnorandommap\n",
         ("span", "sizes"), ("rate_iops", "bssplit"), seeds=2),
]

CASES += [
    # a share of the I/Os at another priority
    Case("cmdprio-percentage",
         "[p]\nrw=randread\nbs=4k\nnumber_ios=2000\nnorandommap\nprioclass=1\nprio=5\n"
         "cmdprio_percentage=30\ncmdprio_class=2\ncmdprio=3\n",
         ("prio",), ("cmdprio_percentage", "prioclass", "prio", "cmdprio_class", "cmdprio")),
]

CASES += [
    # where verify's headers go: one per verify_interval, at verify_offset
    Case("verify-interval",
         "[v]\nrw=write\nbs=4k\nsize=64k\nverify=crc32c\nverify_interval=1k\n"
         "verify_offset=512\ndo_verify=0\n",
         ("magic",), ("verify_interval", "verify_offset"), seeds=1, writes=True,
         content_bytes=64 << 10),
]


CASES += [
    # fio's read-back of verify: without experimental_verify, a job with
    # no random map (norandommap) logs its writes in an rb-tree by offset,
    # a write dropping whole every older one it overlaps, and reads them
    # back lowest offset first, each once (ascending: 1 and 0); without
    # norandommap, the random map keeps them in the order written
    Case("verify-sorted",
         "[v]\nrw=randwrite\nnorandommap\nbsrange=4k-16k\nsize=1m\nverify=crc32c\n",
         ("ascending",), ("norandommap",), writes=True),
]
CASES += [
    # verify_only: the read-back alone; the data is not the job's, so the
    # first block mismatches and the job stops there, as fio's
    Case("verify-only",
         "[v]\nrw=write\nbs=4k\nsize=64k\nverify=crc32c\nverify_only\n",
         ("count",), ("verify_only",), seeds=1, writes=True, fails=True),
]
CASES += [
    # verify_fatal stops at the first block whose data mismatches even
    # when verify errors go on: [c] changes the data of block 0 past its
    # header; without it the read-back reads every block.  (fio's
    # verify_io_u() returns at a wrong header before verify_fatal applies:
    # test_errors.py shows that one.)
    Case("verify-fatal",
         "[w]\nrw=write\nbs=4k\nsize=64k\nverify=crc32c\ndo_verify=0\n"
         "[c]\nstonewall\nrw=write\nbs=512\noffset=2048\nsize=512\n"
         "[v]\nstonewall\nrw=write\nbs=4k\nsize=64k\nverify=crc32c\nverify_only\n"
         "continue_on_error=verify\nverify_fatal=1\n",
         ("count",), ("verify_fatal",), seeds=1, writes=True, fails=True),
    # a wrong header is not verify_fatal's: [c] overwrites block 0's
    # header, and the read-back reads every block, going on from each
    # mismatch; without continue_on_error the first stops it
    Case("verify-fatal-header",
         "[w]\nrw=write\nbs=4k\nsize=64k\nverify=crc32c\ndo_verify=0\n"
         "[c]\nstonewall\nrw=write\nbs=512\nsize=512\n"
         "[v]\nstonewall\nrw=write\nbs=4k\nsize=64k\nverify=crc32c\nverify_only\n"
         "continue_on_error=verify\nverify_fatal=1\n",
         ("count",), ("continue_on_error",), seeds=1, writes=True, fails=True),
    # verify_dump: what was read and what was expected of each mismatch,
    # in the working directory under fio's names; a wrong header's read
    # alone (block 0's header, block 3's data overwritten)
    Case("verify-dump",
         "[w]\nrw=write\nbs=4k\nsize=64k\nverify=crc32c\ndo_verify=0\n"
         "[c]\nstonewall\nrw=write\nbs=512\nsize=512\n"
         "[d]\nstonewall\nrw=write\nbs=512\noffset=14336\nsize=512\n"
         "[v]\nstonewall\nrw=write\nbs=4k\nsize=64k\nverify=crc32c\nverify_only\n"
         "continue_on_error=verify\nverify_dump=1\n",
         ("dumps",), ("verify_dump",), seeds=1, writes=True, fails=True),
    # a job that ends in error stops the others: exit_what=all those of
    # the other groups too (4 KiB block 8 fails)
    Case("exitall-on-error",
         "[bad]\nrw=read\nbs=4k\nsize=256k\nexitall_on_error\nexit_what=all\n"
         "[long]\nrw=randread\nbs=4k\noffset=32m\nsize=16m\ntime_based\nruntime=5\n"
         "[other]\nrw=randread\nbs=4k\noffset=48m\nsize=16m\ntime_based\nruntime=5\n"
         "new_group\n",
         ("span",), ("exitall_on_error", "exit_what"), seeds=1, bad_sectors=(64, 71),
         fails=True),
    # rate_min: fio checks it after a 2 s settle, then every rate_cycle,
    # latency_run: a target every depth meets (1 s on a 1 ms device) ends
    # the search at iodepth after windows at 1, 2, 4, 8 and a last one at 8
    # (1 s of 200 ms windows), the job with it; with latency_run the search
    # goes on, and the job runs its whole runtime
    Case("latency-run",
         "[l]\nrw=randread\nbs=4k\niodepth=8\ntime_based\nruntime=4\n"
         "latency_target=1000000\nlatency_window=200000\nlatency_run=1\nnorandommap\n",
         ("span",), ("latency_run",), seeds=1, device=SLOW_DEV, seconds=1.0),
    # and fails the job (QD 1 on a 1 ms device: some 4 MB/s at most); a
    # run without rate_cycle ends after its default 1 s cycle, 2 s sooner,
    # unless a loaded host stalls its end (once in CI): two runs to prove it
    Case("rate-min",
         "[r]\nrw=randread\nbs=4k\ntime_based\nruntime=8\nrate_min=20m\n"
         "rate_cycle=3000\nnorandommap\n",
         ("span",), ("rate_min", "rate_cycle"), seeds=1, device=SLOW_DEV, fails=True,
         seconds=1.0, proof_runs=2),
    # steady state: reached at once on a steady device, after the ramp and
    # one window; with no window there is no check, the whole runtime
    Case("steadystate",
         "[s]\nrw=randread\nbs=4k\niodepth=4\ntime_based\nruntime=10\n"
         "steadystate=iops:50%\nsteadystate_duration=2\nsteadystate_ramp_time=3\n"
         "norandommap\n",
         ("span",), ("steadystate_duration", "steadystate_ramp_time"), seeds=1,
         device={"size_mb": 64, "completion_nsec": 100_000}, seconds=1.5),
    # thinktime after every 0.4 s of I/O, not after every I/O
    Case("thinktime-iotime",
         "[t]\nrw=randread\nbs=4k\ntime_based\nruntime=4\nthinktime=300ms\n"
         "thinktime_iotime=400ms\nnorandommap\n",
         ("pauses",), ("thinktime_iotime",), seeds=1, pause=0.15, device=SLOW_DEV),
    # the logs' times on the monotonic clock, and which values the
    # priority field takes
    Case("logs-alt-epoch",
         "[l]\nrw=randread\nbs=4k\nnumber_ios=300\nwrite_lat_log=lat\n"
         "log_alternate_epoch=1\nlog_alternate_epoch_clock_id=1\n",
         ("logs",), ("log_alternate_epoch", "log_alternate_epoch_clock_id"), seeds=1,
         device=SLOW_DEV),
    # hipri: polled I/O, on the device's poll queue, done when polled
    Case("hipri",
         "[h]\nioengine=io_uring\nrw=randread\nbs=4k\nnumber_ios=300\nhipri\n"
         "norandommap\n",
         ("polled",), ("hipri",), seeds=1,
         device={"size_mb": 64, "completion_nsec": 1_000_000, "submit_queues": 2,
                 "poll_queues": 1}),
    # fewer bins a histogram line; the logs stored compressed
    Case("hist-coarse",
         "[l]\nrw=randread\nbs=4k\nnumber_ios=1000\nwrite_hist_log=h\nlog_hist_msec=200\n"
         "log_hist_coarseness=3\n",
         ("logs",), ("log_hist_coarseness",), seeds=1, device=SLOW_DEV),
    Case("logs-compressed",
         "[l]\nrw=randread\nbs=4k\nnumber_ios=300\nwrite_lat_log=lat\nlog_compression=64k\n"
         "log_store_compressed=1\n",
         ("logs",), ("log_store_compressed",), seeds=1),
    # dedupe's copies from a working set of the span, not the last write
    # dedupe_global: two jobs' working sets are made of both jobs' first
    # unique writes, so each job's copies land in the other's half too
    Case("dedupe-global",
         "[a]\n[b]\noffset=1m\n",
         ("shared", "distinct"), ("dedupe_global",), seeds=2, writes=True,
         global_="direct=1\nioengine=libaio\nrw=write\nbs=4k\nsize=1m\ndedupe_percentage=50\n"
         "dedupe_mode=working_set\ndedupe_working_set_percentage=30\ndedupe_global=1\n",
         content_bytes=2 << 20),
    Case("dedupe-working-set",
         "[d]\nrw=write\nbs=4k\nsize=1m\ndedupe_percentage=40\ndedupe_mode=working_set\n"
         "dedupe_working_set_percentage=30\n",
         ("distinct", "repeated"), ("dedupe_mode", "dedupe_working_set_percentage"), seeds=2,
         writes=True, content_bytes=1 << 20),
    # the normal output's units and figures, at a rate both tools keep
    # (300 IOPS of 4 KiB, whatever TCG's pace)
    Case("kb-base",
         "[u]\nrw=randread\nbs=4096\nrate_iops=300\nnumber_ios=300\nkb_base=1000\n",
         ("text",), ("kb_base",), seeds=1, text=UNITS),
    Case("unit-base",
         "[u]\nrw=randread\nbs=4k\nrate_iops=300\nnumber_ios=300\nunit_base=1\n",
         ("text",), ("unit_base",), seeds=1, text=UNITS),
    Case("significant-figures",
         "[u]\nrw=randread\nbs=4k\nrate_iops=300\nnumber_ios=300\nsignificant_figures=6\n",
         ("text",), ("significant_figures",), seeds=1,
         text=(r"BW=[\d.]+\w+/s \([\d.]+\w+/s\)", r"bw=[\d.]+\w+/s \([\d.]+\w+/s\)")),
    # an I/O overlapping one in flight waits for it: 8 in flight over 16
    # blocks overlap all the time without it
    Case("serialize-overlap",
         "[s]\nrw=randwrite\nbs=4k\nsize=64k\niodepth=8\nnumber_ios=400\nnorandommap\n"
         "serialize_overlap=1\n",
         ("overlaps",), ("serialize_overlap",), seeds=1, writes=True, device=SLOW_DEV),
    # flow control holds the jobs of one flow_id to their weights (3:1);
    # in two flow_ids each runs free (1:1), which the bands of their two
    # regions show
    Case("flow-id",
         "[heavy]\nrw=randread\nbs=4k\niodepth=4\noffset=0\nsize=16m\nruntime=2\n"
         "time_based\nflow=3\n"
         "[light]\nrw=randread\nbs=4k\niodepth=4\noffset=32m\nsize=16m\nruntime=2\n"
         "time_based\nflow=1\nflow_id=1\n",
         ("bands",), ("flow_id",), seeds=2,
         device={"size_mb": 64, "completion_nsec": 100_000}),
    # bsrange over 256 sizes, more than the kernel's table: the range,
    # drawn as fio's (io_size past the span: number_ios ends the job)
    Case("bsrange-wide",
         "[b]\nrw=randread\nbsrange=512-128k\nnumber_ios=2000\nio_size=1g\n"
         "norandommap\n",
         ("log2sizes", "align"), ("bsrange",), seeds=3),
    # zonemode=zbd on a zoned null_blk (8 zones of 8 MiB, 4 open at most,
    # never filled by the runs that share it): random writes at the write
    # pointers of 2 open zones, not of the device's 4
    Case("job-max-open-zones",
         "[z]\nzonemode=zbd\nrw=randwrite\nbs=4k\nnumber_ios=400\njob_max_open_zones=2\n",
         ("zones",), ("job_max_open_zones",), seeds=1, writes=True,
         device={"memory_backed": False, **zoned(8, 8, max_open=4)}),
    # max_open_zones past the device's 2, allowed by ignore_zone_limits:
    # 4 zones written (without it the job is refused)
    Case("ignore-zone-limits",
         "[z]\nzonemode=zbd\nrw=randwrite\nbs=4k\nnumber_ios=400\nmax_open_zones=4\n"
         "ignore_zone_limits=1\n",
         ("zones",), ("ignore_zone_limits",), seeds=1, writes=True,
         device={"memory_backed": False, **zoned(8, 8, max_open=2)}),
    # 64 zones of 1 MiB: reads only below the write pointers (zone 0, which
    # [w] fills, and what earlier runs wrote), or anywhere with
    # read_beyond_wp
    Case("read-beyond-wp",
         "[w]\nzonemode=zbd\nrw=write\nbs=64k\nsize=1m\n"
         "[r]\nstonewall\nzonemode=zbd\nrw=randread\nbs=4k\nnumber_ios=400\n"
         "read_beyond_wp=1\n",
         ("bands",), ("read_beyond_wp",), seeds=2, writes=True,
         device={"memory_backed": False, **zoned(1, 64)}),
    # past zone_reset_threshold of the span holding data, one write in
    # 1/zone_reset_frequency resets its zone first: the resets (F: no
    # bytes) counted as fio's (41 to 50 in 1024 writes; without the
    # threshold 102, without the frequency only full zones', 16: fio with
    # no open-zone limit writes a random offset's zone, reset when full)
    Case("zone-reset",
         "[z]\nzonemode=zbd\nrw=randwrite\nbs=64k\nnumber_ios=1500\n"
         "zone_reset_threshold=0.3\nzone_reset_frequency=0.1\n",
         ("count",), ("zone_reset_threshold", "zone_reset_frequency"), seeds=3, writes=True,
         tolerance=0.1, device={"memory_backed": False, **zoned(4, 16)}),
    Case("log-prio",
         "[l]\nrw=randread\nbs=4k\nnumber_ios=300\nprioclass=1\nprio=3\n"
         "write_lat_log=lat\nlog_prio=1\n",
         ("logprio",), ("log_prio",), seeds=1),
]

BY_ID = {c.id: c for c in CASES}
