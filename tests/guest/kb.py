"""Running kiobench in a guest and reading its results back."""
from __future__ import annotations

import base64
import gzip
import json
import re
import shlex
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

from vm.guest import CommandTimeout, Fdp, Guest, Nvme

DEBUGFS = "/sys/kernel/debug/kiobench"

# The QEMU 10 guest of test_write_streams.py and test_pi.py, one boot for
# both: controller 0 an FDP namespace of 64 MiB with four reclaim unit
# handles, all its own (write streams 1 to 4); controller 1 a 16 MiB
# namespace with type 1 protection information.  QEMU 10 puts every
# controller in a subsystem, and with NVMe multipath the kernel then makes
# each namespace a bio-based head (nvme1n1) over a hidden path disk
# (nvme1c1n1), whose integrity/write_generate and read_verify are the ones
# the block layer follows: nvme_core.multipath=N gives the namespaces'
# own disks, whose settings a test can change.  Controller 2: PI over
# 4 KiB blocks, a protection interval of 4096.
FDP_PI_GUEST = {"append": "nvme_core.multipath=N",
                "nvme": [Nvme(64 << 20, fdp=Fdp(nruh=4, ruhs="0;1;2;3", runs=1 << 20)),
                         Nvme(16 << 20, pi=1), Nvme(16 << 20, pi=1, lbs=4096)]}


@dataclass
class Hist:
    header: dict[str, str]
    buckets: list[tuple[int, int, int]]  # (lo, hi, count)

    @property
    def samples(self) -> int:
        return int(self.header["samples"])

    @property
    def count(self) -> int:
        return sum(c for _, _, c in self.buckets)


def parse_hist(text: str) -> Hist:
    header, buckets = {}, []
    for line in text.splitlines():
        if line.startswith("#"):
            key, _, value = line[1:].strip().partition(" ")
            header[key] = value
        elif line.strip():
            lo, hi, count = map(int, line.split())
            buckets.append((lo, hi, count))
    return Hist(header, buckets)


def run_job(guest: Guest, args: str, *, timeout: float = 120, keep: bool = False) -> dict:
    """`kiobench run ARGS --output-format=json`; returns the job's JSON object.

    With keep=True the job stays in the kernel (read its debugfs files, then
    destroy_job())."""
    out = "/tmp/kiobench.json"
    cmd = f"kiobench run --output-format=json --output={out} {'--keep ' if keep else ''}{args}"
    r = guest.run(cmd, timeout=timeout)
    assert r.rc == 0, f"{cmd}: exit {r.rc}\n{r.out}"
    doc = json.loads(guest.check(f"cat {out}"))
    assert len(doc["jobs"]) == 1
    return doc["jobs"][0]


def debugfs(guest: Guest, job: dict, name: str) -> str:
    return guest.check(f"cat {DEBUGFS}/job{job['kiobench']['job_id']}/{shlex.quote(name)}")


def hist(guest: Guest, job: dict, direction: str) -> Hist:
    return parse_hist(debugfs(guest, job, f"hist_{direction}"))


def resubmit_gap_ns(guest: Guest, make_nullb, name: str = "nullb9") -> float:
    """Mean time a QD1 slot spends out of flight per I/O: from bi_end_io to
    the resubmission (waking the worker, building and submitting the bio).
    Measured on a 1 ms timer-mode null_blk over 200 I/Os: the job's measured
    time is n latencies plus n-1 gaps (and the worker's start, which only
    makes this estimate larger).  Tests that need the engine unsaturated
    pick their injected latency from it: ~0.1 ms on Debian's kernels in an
    idle TCG guest, ~1 ms on the debug kernel, more on a loaded host."""
    dev = make_nullb(name, completion_nsec=1_000_000, size_mb=16)
    job = run_job(guest, f"--filename={dev} --rw=randread --iodepth=1 --number_ios=200")
    r, n = job["read"], job["read"]["total_ios"]
    assert n == 200
    return max(0.0, (job["kiobench"]["measured_ns"] - n * r["clat_ns"]["mean"]) / (n - 1))


def dev_bios(guest: Guest, dev: str) -> int:
    """Bios the block layer has completed on dev, both directions, from its
    stat file (Documentation/block/stat.rst): I/Os completed plus those
    merged into them (fields 1, 2, 5 and 6).  A count of the device's own,
    independent of anything kiobench computes."""
    return stat_bios(guest.check(f"cat {stat_path(dev)}"))


def disk_name(dev: str) -> str:
    """The kernel's name of block device dev (/dev/NAME): sysfs's."""
    return dev.rsplit("/", 1)[-1]


def stat_path(dev: str) -> str:
    return f"/sys/class/block/{disk_name(dev)}/stat"


def queue_path(dev: str, attr: str) -> str:
    """sysfs file of queue attribute attr of whole disk dev (/dev/NAME)."""
    return f"/sys/block/{disk_name(dev)}/queue/{attr}"


def queue_attr(guest: Guest, dev: str, attr: str) -> str:
    """Queue attribute attr of whole disk dev, as sysfs shows it."""
    return guest.check(f"cat {queue_path(dev, attr)}").strip()


def set_queue(guest: Guest, dev: str, **attrs: int | str) -> None:
    """Writes queue attributes of whole disk dev, in the order given (a
    refused write fails the test: its echo fails)."""
    for attr, value in attrs.items():
        guest.check(f"echo {value} >{queue_path(dev, attr)}")


def stat_bios(stat: str) -> int:
    """dev_bios() of a stat file's text."""
    f = stat.split()
    return int(f[0]) + int(f[1]) + int(f[4]) + int(f[5])


def destroy_job(guest: Guest, job: dict) -> None:
    guest.check(f"kiobench destroy {job['kiobench']['job_id']}")


# ---- raw netlink (tests/fuzz/nlfuzz.c) ---------------------------------------

@dataclass
class NlAck:
    """The answer to one raw request of `nlfuzz req`."""
    errno: int             # 0, or the positive errno of the ack
    name: str              # errno name (EINVAL, ...) or "0"
    attr: str              # attribute named by the extack's offset, or "-"
    msg: str               # the extack message
    missing: str           # attribute named by NLMSGERR_ATTR_MISS_TYPE, or "-"
    missing_type: int      # its number (in the nest it is missing from), or -1
    bound: tuple[int, int] | None  # (min, max) of the policy the kernel reports
    max_len: int | None
    replies: list[dict[str, str]]  # key=value fields of each reply message
    out: str


def _fields(line: str) -> dict[str, str]:
    return dict(re.findall(r'(\S+?)=("[^"]*"|\S*)', line))


def nlreq(guest: Guest, *args: str, prefix: str = "", dump: bool = False) -> NlAck:
    """`nlfuzz req [--dump] ARGS`: one raw request to the kiobench family
    (see tests/fuzz/nlfuzz.c for ARGS); `prefix` runs it through another
    program (e.g. "nlfuzz as-user 65534")."""
    cmd = f"{prefix} nlfuzz req {'--dump ' if dump else ''}{shlex.join(args)}".strip()
    r = guest.run(cmd)
    lines = r.out.splitlines()
    acks = [l for l in lines if l.startswith("ack ")]
    assert len(acks) == 1 and r.rc in (0, 1), f"{cmd}: exit {r.rc}\n{r.out}"
    f = _fields(acks[0])
    bound = (int(f["min"]), int(f["max"])) if "min" in f else None
    return NlAck(int(f["errno"]), f["name"], f["attr-name"], f["msg"].strip('"'),
                 f.get("missing", "-"), int(f.get("missing-type", -1)), bound, int(f["max-len"]) if "max-len" in f else None,
                 [_fields(l) for l in lines if l.startswith("reply ")], r.out)


def worker_stat(guest: Guest, field: int, job: int | str = "*") -> list[str]:
    """Field `field` of /proc/PID/stat (3 the state, 19 the nice) of each
    worker thread of job `job` (all jobs' by default), by its comm
    kiobench<job>/<worker>, which has no blank."""
    return guest.check("for p in /proc/[0-9]*; do case $(cat $p/comm 2>/dev/null) in "
                       f"kiobench{job}/*) cut -d' ' -f{field} $p/stat;; esac; done").split()


def job_ids(guest: Guest) -> list[int]:
    """Ids of the jobs that exist, from a raw JOB_GET dump."""
    ack = nlreq(guest, "get", dump=True)
    assert ack.errno == 0, ack.out
    return [int(r["job-id"]) for r in ack.replies]


def fault_attr(guest: Guest, name: str, probability: int = 0, **settings) -> None:
    """Configure the fault injector /sys/kernel/debug/NAME (see the kernel's
    Documentation/fault-injection/).  Its probability is written as 0 first
    and, when set, last: between the writes it would fail every task's
    allocations, the filters not being in place yet.  verbose=0 keeps stack
    dumps, which would read as splats, out of the log."""
    d = f"/sys/kernel/debug/{name}"
    settings = {"interval": 1, "times": -1, "space": 0, "verbose": 0, **settings}
    writes = [("probability", 0), *settings.items()]
    if probability:
        writes.append(("probability", probability))
    guest.check(" && ".join(f"echo {v} >{d}/{k.replace('_', '-')}" for k, v in writes))


def put_bytes(guest: Guest, path: str, data: bytes) -> None:
    """data as the guest's file path: gzip'ed, in base64 through the
    console 32 KiB a command (a module built on the host, say)."""
    b64 = base64.b64encode(gzip.compress(data)).decode()
    guest.check(f"rm -f {path}.b64")
    for i in range(0, len(b64), 32768):
        guest.check(f"echo {b64[i:i + 32768]} >>{path}.b64")
    guest.check(f"base64 -d {path}.b64 | gunzip >{path}")


def start_listener(guest: Guest, count: int, as_user: str = "") -> None:
    """`nlfuzz listen COUNT` (as `as_user`, if given) in the background, its
    output in /tmp/ev.out; returns once it has joined the events group."""
    user = f"nlfuzz as-user {as_user} " if as_user else ""
    guest.check(f"({user}nlfuzz listen {count} >/tmp/ev.out 2>&1; echo rc=$? >>/tmp/ev.out) "
                "</dev/null >/dev/null 2>&1 &")
    guest.check("for i in $(seq 50); do grep -q listening /tmp/ev.out && exit; sleep 0.1; "
                "done; exit 1")


def listened_events(guest: Guest, count: int, timeout: float = 10) -> list[list[str]]:
    """The `count` events start_listener()'s listener got (each a list of
    name=value), once it has ended, which it must have done well."""
    guest.check(f"for i in $(seq {int(timeout * 10)}); do grep -q '^rc=' /tmp/ev.out && exit; "
                "sleep 0.1; done; exit 1", timeout=timeout + 30)
    out = guest.check("cat /tmp/ev.out")
    events = [line.split()[1:] for line in out.splitlines() if line.startswith("event ")]
    assert "rc=0" in out and len(events) == count, out
    return events


def wait_for(guest: Guest, cond: str, what: str = "", timeout: float = 600) -> None:
    """Poll the shell condition `cond` in the guest every 0.2 s."""
    n = int(timeout / 0.2)
    r = guest.run(f"for i in $(seq {n}); do {cond} && exit 0; sleep 0.2; done; exit 1",
                  timeout=timeout + 60)
    assert r.ok, f"timed out after {timeout} s waiting for {what or cond}"


@contextmanager
def blktraced(guest: Guest, dev: str, args: str = "") -> Iterator[str]:
    """blktrace (with `args`, e.g. "-a issue") traces dev while inside; its
    files are in the directory yielded (/tmp/bt, emptied first)."""
    name = dev.split("/")[-1]
    guest.check("rm -rf /tmp/bt && mkdir /tmp/bt")
    guest.check(f"(cd /tmp/bt && blktrace -d {dev} {args} -o trace >/tmp/bt/blktrace.out 2>&1 &)")
    wait_for(guest, f"test -e /sys/kernel/debug/block/{name}/trace0", "blktrace")
    # its relay files come before it starts tracing: without a pause, btt
    # missed the first few hundred I/Os
    guest.check("sleep 1")
    try:
        yield "/tmp/bt"
    finally:
        guest.check("sleep 0.5; kill -INT $(pidof blktrace); "
                    "for i in $(seq 100); do pidof blktrace >/dev/null || exit 0; sleep 0.1; done")


TRACING = "/sys/kernel/tracing"      # debugfs' tracing link is gone in 7.x


def mount_tracefs(guest: Guest) -> None:
    """tracefs at TRACING, unless it is there already."""
    guest.check(f"test -e {TRACING}/events || mount -t tracefs nodev {TRACING}")


@contextmanager
def function_trace(guest: Guest, *funcs: str) -> Iterator[str]:
    """The function tracer on `funcs` only, its trace file's path; off and
    unfiltered after.  A line `<func> <-<caller>` per call.  Debian's
    kernels have it; the debug kernel does not (no CONFIG_FUNCTION_TRACER)."""
    t = TRACING
    mount_tracefs(guest)
    guest.check(f"echo nop >{t}/current_tracer && echo {' '.join(funcs)} >{t}/set_ftrace_filter"
                f" && echo >{t}/trace && echo function >{t}/current_tracer"
                f" && echo 1 >{t}/tracing_on")
    try:
        yield f"{t}/trace"
    finally:
        guest.check(f"echo nop >{t}/current_tracer && echo >{t}/set_ftrace_filter")


def trace_calls(guest: Guest, trace: str, func: str) -> int:
    """How many calls of `func` the function tracer's `trace` holds."""
    return int(guest.check(f"grep -c ' {func} <-' {trace} || true"))


def trace_devno(guest: Guest, dev: str) -> tuple[str, int]:
    """dev's "major,minor" as trace events print it, and its dev_t as
    their filters take it (the kernel's MKDEV: major << 20 | minor)."""
    major, minor = guest.check(f"cat /sys/class/block/{disk_name(dev)}/dev"
                               ).strip().split(":")
    return f"{major},{minor}", (int(major) << 20) | int(minor)

# the block layer's tracepoints, by blktrace's letter for the same event
BLOCK_EVENTS = {"Q": "block_bio_queue", "D": "block_rq_issue", "C": "block_rq_complete"}
# "<ts>: <event>: <maj>,<min> <rwbs> [<bytes>] [(<cmd>)] <sector> + <nr> ... [<comm>]":
# the events' formats differ across 6.1..7.x only in what is optional here
# (a completion's last brackets hold its error, not a command)
_BLOCK_LINE = re.compile(r"\[(\d+)\] +(?:[^\s\d]\S* +)?(\d+)\.(\d+): (block_\w+): (\d+,\d+) (\S+) "
                         r"(?:\d+ )?(?:\(.*?\) )?(\d+) \+ (\d+)(?: ([a-z-]+),\d+,(\d+))?"
                         r"(?:.* \[(.*)\])?$", re.M)


@dataclass(frozen=True)
class BlockEvent:
    """One block-layer event of a device, as blktrace would print it."""
    action: str     # "Q" (bio queued), "D" (request issued to the driver), "C" (completed)
    rwbs: str       # R, W, D, F ... as blktrace's
    ns: int         # the trace clock "mono" (ktime_get), printed to the microsecond
    sector: int
    nbytes: int
    dev: str = ""   # the device's name (nullb0)
    comm: str = ""  # Q and D: the task that queued or issued it
    cpu: int = -1   # the CPU the event happened on
    prio: str = ""  # "be/5": its I/O priority, where the kernel's event has it (6.5+)


def block_events(guest: Guest, devs: str | list[str], run, actions: str = "D",
                 timeout: int = 300, flushes: bool = False) -> list[BlockEvent]:
    """With the block tracepoints of `actions` (letters of BLOCK_EVENTS)
    on for devs alone, run `run` (a command for the guest, which must
    succeed, or a function); the events that moved data (a flush has no
    sectors: with flushes, those too), in time order.  The trace clock is the same on every CPU
    ("mono"), so an order across CPUs and devices is the true one; an
    event the ring buffer lost fails the call.  Unlike blktrace, which
    starts its relay threads in the background, nothing is missed at the
    start and nothing needs waiting for."""
    names = [disk_name(d) for d in ([devs] if isinstance(devs, str) else devs)]
    numbers = {}
    for n in names:
        printed, devt = trace_devno(guest, n)
        numbers[printed] = (n, devt)
    filt = " || ".join(f"dev == {no}" for _, no in numbers.values())
    evs = [f"{TRACING}/events/block/{BLOCK_EVENTS[a]}" for a in actions]
    setup = (f"{{ test -e {TRACING}/events || mount -t tracefs nodev {TRACING}; }} && "
             f"echo 0 >{TRACING}/tracing_on && echo mono >{TRACING}/trace_clock && "
             f"echo 8192 >{TRACING}/buffer_size_kb && echo >{TRACING}/trace && "
             + " && ".join(f"echo '{filt}' >{e}/filter && echo 1 >{e}/enable" for e in evs)
             + f" && echo 1 >{TRACING}/tracing_on")
    off = " && ".join(f"echo 0 >{e}/enable && echo 0 >{e}/filter" for e in evs)
    stats = f"{TRACING}/per_cpu/cpu*/stats"
    if isinstance(run, str):
        # one round trip for the lot (a run costs a dozen of them else):
        # the events on, run in a subshell (its cd and exit stay there),
        # the events off, the ring buffer's stats and the trace
        mark = "@@kiobench-trace@@"
        try:
            r = guest.run(f"{setup} || exit 97\n(\n{run}\n)\nrc=$?\n{off}\n"
                          f"echo {mark}; cat {stats}; echo {mark}; cat {TRACING}/trace\n"
                          "exit $rc", timeout=timeout + 120)
        except CommandTimeout:
            guest.check(off)
            raise
        parts = r.out.split(f"{mark}\n")
        assert r.rc == 0 and len(parts) == 3, f"{run}: exit {r.rc}\n{parts[0]}"
        _, lost, trace = parts
    else:
        guest.check(setup)
        try:
            run()
        finally:
            guest.check(off)
        lost = guest.check(f"cat {stats}")
        trace = guest.check(f"cat {TRACING}/trace", timeout=timeout)
    assert all(int(n) == 0 for n in re.findall(r"^(?:overrun|dropped events): (\d+)", lost,
                                               re.M)), f"the trace lost events:\n{lost}"
    letter = {v: k for k, v in BLOCK_EVENTS.items()}
    out = [BlockEvent(letter[ev], rwbs, int(s) * 1_000_000_000 + int(us) * 1000, int(sec),
                      int(nr) * 512, numbers[devno][0], comm if ev != "block_rq_complete" else "",
                      int(cpu), f"{cls}/{lvl}" if cls else "")
           for cpu, s, us, ev, devno, rwbs, sec, nr, cls, lvl, comm in _BLOCK_LINE.findall(trace)
           if ev in letter and devno in numbers and (int(nr) > 0 or flushes)]
    assert out, f"no block event of {', '.join(names)} while {run} ran"
    return out


def traced(guest: Guest, ev: str, cmd: str, *, filt: str = "0", timeout: float = 120,
           buffer_kb: int = 0) -> str:
    """Runs cmd (it must succeed) with the trace event ev (its directory
    under events/) on, filtered by filt ("0": every one), on an empty
    trace buffer (of buffer_kb KiB if given); the trace, read after."""
    mount_tracefs(guest)
    if buffer_kb:
        guest.check(f"echo {buffer_kb} >{TRACING}/buffer_size_kb")
    guest.check(f"echo >{TRACING}/trace && echo '{filt}' >{ev}/filter && "
                f"echo 1 >{ev}/enable && echo 1 >{TRACING}/tracing_on")
    try:
        r = guest.run(cmd, timeout=timeout)
        assert r.rc == 0, f"{cmd}: exit {r.rc}\n{r.out}"
    finally:
        guest.check(f"echo 0 >{ev}/enable && echo 0 >{ev}/filter")
    return guest.check(f"cat {TRACING}/trace", timeout=60)


def tracepoint_rwbs(guest: Guest, dev: str, event: str, cmd: str, *,
                    timeout: float = 120, buffer_kb: int = 0) -> list[str]:
    """The rwbs field of every block:`event` (block_rq_issue,
    block_bio_queue ...) of dev while cmd ran, in order: W, R, D for the
    op, F before it a preflush, F after it FUA."""
    _, devt = trace_devno(guest, dev)
    out = traced(guest, f"{TRACING}/events/block/{event}", cmd, filt=f"dev == {devt}",
                 timeout=timeout, buffer_kb=buffer_kb)
    return re.findall(rf"{event}: \d+,\d+ (\w+)", out)


def unplugs(guest: Guest, cmd: str, *, timeout: float = 120) -> list[tuple[str, int]]:
    """Runs cmd (it must succeed) under block_unplug: (comm, requests) of
    each plug flushed meanwhile, in order.  The event has no device, so
    every task's: its comm tells whose (fio, kiobench<job>/<worker>)."""
    out = traced(guest, f"{TRACING}/events/block/block_unplug", cmd, timeout=timeout,
                 buffer_kb=8192)
    assert "LOST" not in out
    return [(comm, int(n)) for comm, n in re.findall(r"block_unplug: \[([^\]]+)\] (\d+)", out)]


NVME_CMD = f"{TRACING}/events/nvme/nvme_setup_cmd"


def nvme_cmds(guest: Guest, cmd: str) -> list[dict]:
    """The NVMe commands the driver set up while `cmd` ran, in order: op
    (nvme_cmd_write, nvme_cmd_dsm ...), its queue (qid) and the fields of
    its arguments (slba, len, ctrl, dsmgmt of reads, writes and write
    zeroes; nr of a DSM, its ranges less one)."""
    trace = traced(guest, NVME_CMD, cmd, timeout=300)
    out = []
    for qid, op, args in re.findall(r"qid=(\d+),[^\n]*?cmd=\((nvme_cmd_\w+)\s*([^)]*)\)",
                                    trace):
        # decimal, or 0x hex; admin commands print some fields with zeroes
        # before them ("cns=01"), which int(v, 0) refuses
        f = {k: int(v, 16 if v.startswith("0x") else 10)
             for k, v in re.findall(r"(\w+)=(0x[0-9a-f]+|\d+)", args)}
        out.append({"op": op, "qid": int(qid), **f})
    return out
