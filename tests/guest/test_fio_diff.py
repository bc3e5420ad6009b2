"""fio's options, each shown to mean under kiobench what it means under fio:
the cases of fio_cases.py, run by Debian's fio and by kiobench on the same
null_blk device in one guest, compared as what the block layer issued.

For each case: fio runs the job file with seeds 1..N (randrepeat off, or
every seed draws the same offsets), kiobench runs it once, and each of the
case's checks (fio_cases.py's docstring) compares kiobench's stream with
fio's.  A distribution may differ from each of fio's runs by at most twice
fio's largest difference between two of its own seeds, or by the check's
floor (what a few thousand samples allow); an exact check (stream,
offsets, opseq, depth, content, magic, iolog, json, count without a
tolerance) must be equal.  The device's merging is off, so that a request
issued is an I/O submitted.

Then each option the case proves is dropped from the job file in turn, and
kiobench's stream without it must fail the same checks (or the job file be
refused): the case can see the option, so a kiobench that ignored it would
fail.  Not core: the tool's job files and the module's drawing are the
same on every kernel.
"""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from fio_cases import CASES, Case
from kb import BlockEvent, block_events, set_queue, unplugs
from test_fio_files import tv
from test_robust import set_badblocks

SLOW = 300
BANDS = 20
FLOORS = {"ops": 0.03, "sizes": 0.05, "log2sizes": 0.05, "bands": 0.08, "seq": 0.03, "revisits": 0.08,
          "cpus": 0.25, "inflight": 0.15, "gaps": 0.3, "compress": 0.01, "distinct": 0.05,
          "repeated": 0.03, "overlaps": 0.02, "zeroblocks": 0.03, "shared": 0.08,
          "ascending": 0.03}


def op_of(e: BlockEvent) -> str:
    if e.nbytes == 0:
        return "F"
    return next((c for c in "DRW" if c in e.rwbs), e.rwbs)


class Stream:
    """What the block layer issued (and completed) for one run."""

    def __init__(self, events: list[BlockEvent], dev_bytes: int, start_ns: int = 0,
                 content: str = ""):
        self.issued = [e for e in events if e.action == "D"]
        self.events = events
        self.dev_bytes = dev_bytes
        self.ios = [(op_of(e), e.sector * 512, e.nbytes) for e in self.issued]
        self.start_ns = start_ns    # the command's start, on the trace's clock
        self.content = content      # the digest of the device's first bytes after
        self.again: Stream | None = None  # a second run of the same job file
        self.json: dict = {}        # the run's JSON report
        self.logs: dict = {}        # the log files it wrote (logs_of())
        self.data: dict = {}        # compress, distinct: of the device's first bytes
        self.iolog: list = []       # the I/Os of the iolog it wrote
        self.logprio: set = set()   # the values of the lat logs' last fields
        self.text: dict = {}        # the case's text expressions: their matches' shapes
        self.dumps: set = set()     # verify dumps left: (name, bytes)
        self.plugs: list = []       # the requests of each plug the job flushed

    def readruns(self) -> set[int]:
        """The lengths of the runs of reads between writes, but the last."""
        runs = "".join(o for o, _, _ in self.ios if o in "RW").split("W")
        return {len(r) for r in [r for r in runs if r][:-1]}

    def inflight(self) -> dict[int, float]:
        """The share of issues made with n I/Os in flight (itself included)."""
        inflight, c = 0, Counter()
        for e in sorted(self.events, key=lambda e: e.ns):
            if e.nbytes and e.action == "D":
                inflight += 1
                c[inflight] += 1
            elif e.nbytes and e.action == "C":
                inflight = max(inflight - 1, 0)
        n = sum(c.values())
        return {k: v / n for k, v in c.items()}

    def gaps_cv(self) -> float:
        """The coefficient of variation of the gaps between issues: about 1
        for a Poisson process, 0 for a steady one."""
        g = [b.ns - a.ns for a, b in zip(self.issued, self.issued[1:])]
        mean = sum(g) / len(g)
        return (sum((x - mean) ** 2 for x in g) / len(g)) ** 0.5 / mean

    def revisits(self) -> float:
        """The share of I/Os at an offset an earlier I/O had."""
        seen: set[int] = set()
        n = 0
        for _, off, _ in self.ios:
            n += off in seen
            seen.add(off)
        return n / len(self.ios)

    def ascending(self) -> dict[str, float]:
        """The reads' order: the share of reads whose offset is above the
        previous read's ("up"), and of reads at an offset an earlier read
        had ("again").  fio's sorted read-back: 1 and 0."""
        reads = [off for op, off, _ in self.ios if op == "R"]
        up = sum(b > a for a, b in zip(reads, reads[1:]))
        again = len(reads) - len(set(reads))
        return {"up": up / max(len(reads) - 1, 1), "again": again / max(len(reads), 1)}

    def span(self) -> float:
        """Seconds from the first issue to the last."""
        return (self.issued[-1].ns - self.issued[0].ns) / 1e9

    def delay(self) -> float:
        """Seconds from the command's start to its first issue."""
        return (self.issued[0].ns - self.start_ns) / 1e9

    def share(self, key, op: str | None = None) -> dict:
        c = Counter(key(e, io) for e, io in zip(self.issued, self.ios)
                    if op in (None, io[0]))
        n = sum(c.values())
        return {k: v / n for k, v in c.items()} if n else {}

    def ops_(self) -> set[str]:
        return {o for o, _, _ in self.ios}

    def seq(self) -> dict[str, float]:
        last: dict[str, int] = {}
        hits: Counter = Counter()
        seen: Counter = Counter()
        for op, off, n in self.ios:
            if op in last:
                seen[op] += 1
                hits[op] += last[op] == off
            last[op] = off + n
        return {op: hits[op] / seen[op] for op in seen}

    def quick(self, ns: int) -> float:
        """The share of I/Os completed within ns of their issue (each
        completion paired with the oldest issue at its sector)."""
        pending: dict[int, list[int]] = {}
        n = fast = 0
        for e in sorted(self.events, key=lambda e: e.ns):
            if e.nbytes and e.action == "D":
                pending.setdefault(e.sector, []).append(e.ns)
            elif e.nbytes and e.action == "C" and pending.get(e.sector):
                n += 1
                fast += e.ns - pending[e.sector].pop(0) < ns
        return fast / n if n else 0.0

    def overlaps(self) -> float:
        """The share of I/Os issued while one they overlap was in flight."""
        flight: list[tuple[int, int]] = []
        n = hit = 0
        for e in sorted(self.events, key=lambda e: e.ns):
            if not e.nbytes:
                continue
            span = (e.sector * 512, e.sector * 512 + e.nbytes)
            if e.action == "D":
                n += 1
                hit += any(a < span[1] and span[0] < b for a, b in flight)
                flight.append(span)
            elif e.action == "C" and span in flight:
                flight.remove(span)
        return hit / n if n else 0.0

    def pauses(self, seconds: float) -> int:
        """The gaps between issues longer than seconds."""
        return sum(b.ns - a.ns > seconds * 1e9 for a, b in zip(self.issued, self.issued[1:]))

    def coverage(self) -> dict[str, tuple[int, float]]:
        """Each op's sectors: how many distinct ones its I/Os covered, and
        how many times over on average (fio's random map: each block of
        the span once a pass, 1.0)."""
        seen: dict[str, Counter] = {}
        for op, off, n in self.ios:
            seen.setdefault(op, Counter()).update(range(off // 512, (off + n) // 512))
        return {op: (len(c), sum(c.values()) / len(c)) for op, c in seen.items()}

    def depth(self) -> int:
        """The most I/Os in flight at once: the largest count inflight()
        saw at an issue."""
        return max(self.inflight(), default=0)


def clock_of(first_ms: float, s: Stream) -> str:
    """The clock a log's first time (ms) is on: Unix time, the monotonic
    clock (the trace's: at or after the command's start on it, less a
    second's rounding), or the job's own (far before: a guest has been up
    for seconds when a case runs)."""
    if first_ms > 1e9:
        return "unix"
    return "monotonic" if first_ms >= s.start_ns / 1e6 - 1000 else "job"


def json_at(doc, path: str):
    """The value at a dotted path of a JSON document (numbers index
    lists); a dict's keys only, as a sorted list; None where it is not."""
    for part in path.split("."):
        if part == "#":
            return len(doc) if isinstance(doc, (list, dict)) else None
        if isinstance(doc, list) and part.isdigit() and int(part) < len(doc):
            doc = doc[int(part)]
        elif isinstance(doc, dict) and part in doc:
            doc = doc[part]
        else:
            return None
    return sorted(doc) if isinstance(doc, dict) else doc


def spread_check(what: str, ours, fio: list, floor: float, dist=tv) -> str | None:
    """None when ours is within twice fio's spread between its seeds, or
    floor, of each fio run; else why not."""
    spread = max((dist(fio[i], fio[j]) for i in range(len(fio))
                  for j in range(i + 1, len(fio))), default=0.0)
    limit = max(2 * spread, floor)
    d = max(dist(ours, f) for f in fio)
    if d <= limit:
        return None
    return (f"{what}: kiobench is {d:.3f} from fio (limit {limit:.3f}, fio's spread "
            f"{spread:.3f})\n  kiobench {_short(ours)}\n  fio      {_short(fio[0])}")


def _short(x) -> str:
    if isinstance(x, dict):
        return str(sorted((k, round(v, 3) if isinstance(v, float) else v)
                          for k, v in x.items())[:12])
    return str(x)[:300]


def check(case: Case, kb: Stream, fio: list[Stream]) -> list[str]:
    """Why kiobench's stream is not fio's, by the case's checks: [] if it is."""
    bad: list[str | None] = []
    ops = sorted(set().union(kb.ops_(), *(f.ops_() for f in fio)))
    for c in case.checks:
        if c == "stream":
            for i, (a, b) in enumerate(zip(kb.ios, fio[0].ios)):
                if a != b:
                    bad.append(f"stream: I/O {i} is {a}, fio's {b}")
                    break
            if len(kb.ios) != len(fio[0].ios):
                bad.append(f"stream: {len(kb.ios)} I/Os, fio's {len(fio[0].ios)}")
        elif c == "offsets":
            a, b = Counter(kb.ios), Counter(fio[0].ios)
            if a != b:
                bad.append(f"offsets: {sum((a - b).values())} of kiobench's {len(kb.ios)} I/Os "
                           f"not fio's, e.g. {sorted(a - b)[:3]}; fio's not kiobench's "
                           f"e.g. {sorted(b - a)[:3]}")
        elif c == "count":
            got = Counter(o for o, _, _ in kb.ios)
            for op in ops:
                lo = min(Counter(o for o, _, _ in f.ios)[op] for f in fio)
                hi = max(Counter(o for o, _, _ in f.ios)[op] for f in fio)
                tol = case.tolerance
                if not lo * (1 - tol) <= got[op] <= hi * (1 + tol):
                    bad.append(f"count: {got[op]} {op}, fio's {lo}..{hi}")
        elif c == "ops":
            bad.append(spread_check("ops", kb.share(lambda e, io: io[0]),
                                    [f.share(lambda e, io: io[0]) for f in fio], FLOORS[c]))
        elif c in ("sizes", "log2sizes", "bands", "flags", "align", "prio"):
            key = {"sizes": lambda e, io: io[2], "align": lambda e, io: io[1] % 4096,
                   "log2sizes": lambda e, io: io[2].bit_length(),
                   "prio": lambda e, io: e.prio,
                   "bands": lambda e, io: min(io[1] * BANDS // kb.dev_bytes, BANDS - 1),
                   "flags": lambda e, io: e.rwbs}[c]
            for op in ops:
                bad.append(spread_check(f"{c} ({op})", kb.share(key, op),
                                        [f.share(key, op) for f in fio], FLOORS.get(c, 0.03)))
        elif c == "seq":
            bad.append(spread_check("seq", kb.seq(), [f.seq() for f in fio], FLOORS[c],
                                    dist=lambda a, b: max((abs(a.get(k, 0) - b.get(k, 0))
                                                           for k in set(a) | set(b)),
                                                          default=0.0)))
        elif c == "coverage":
            a, b = kb.coverage(), [f.coverage() for f in fio]
            for op in ops:
                n, times = a.get(op, (0, 0.0))
                lo = min(f.get(op, (0, 0.0))[0] for f in b)
                hi = max(f.get(op, (0, 0.0))[0] for f in b)
                tlo = min(f.get(op, (0, 0.0))[1] for f in b)
                thi = max(f.get(op, (0, 0.0))[1] for f in b)
                if not lo * 0.99 <= n <= hi * 1.01 or not tlo - 0.02 <= times <= thi + 0.02:
                    bad.append(f"coverage ({op}): {n} sectors, {times:.2f} times over; "
                               f"fio's {lo}..{hi}, {tlo:.2f}..{thi:.2f}")
        elif c == "logmax":
            if any(kb.data["logmax"] != f.data["logmax"] for f in fio):
                bad.append(f"logmax: the clat log's largest value is the JSON's clat max: "
                           f"{kb.data['logmax']}, fio's {[f.data['logmax'] for f in fio]}")
        elif c == "plugs":
            def fill(p: list[int]) -> list[int]:
                return [x for i, x in enumerate(p) if sum(p[:i]) < case.fill]
            if any(fill(kb.plugs) != fill(f.plugs) for f in fio):
                bad.append(f"plugs: the first fill in {fill(kb.plugs)}, fio's "
                           f"{[fill(f.plugs) for f in fio]}")
        elif c == "depth":
            if {kb.depth()} != {f.depth() for f in fio}:
                bad.append(f"depth: at most {kb.depth()} in flight, fio's "
                           f"{sorted({f.depth() for f in fio})}")
        elif c == "ascending":
            bad.append(spread_check("ascending (R)", kb.ascending(), [f.ascending() for f in fio],
                                    FLOORS[c], dist=lambda a, b: max(abs(a[k] - b[k]) for k in a)))
        elif c == "revisits":
            bad.append(spread_check("revisits", kb.revisits(), [f.revisits() for f in fio],
                                    FLOORS[c], dist=lambda a, b: abs(a - b)))
        elif c in ("span", "delay"):
            key = getattr(Stream, c)
            bad.append(spread_check(f"{c} (s)", key(kb), [key(f) for f in fio],
                                    case.seconds or max(0.5, 0.15 * key(fio[0])),
                                    dist=lambda a, b: abs(a - b)))
        elif c == "content":
            if {kb.content} != {f.content for f in fio}:
                bad.append(f"content: the device holds {kb.content}, after fio "
                           f"{sorted({f.content for f in fio})}")
        elif c == "repeat":
            same = kb.ios == kb.again.ios
            if {same} != {f.ios == f.again.ios for f in fio}:
                bad.append(f"repeat: kiobench's two runs are {'' if same else 'not '}the same "
                           "stream; fio's are " + ("not " if same else "") + "(randrepeat)")
        elif c == "gaps":
            bad.append(spread_check("gaps (cv)", kb.gaps_cv(), [f.gaps_cv() for f in fio],
                                    FLOORS[c], dist=lambda a, b: abs(a - b)))
        elif c in ("compress", "distinct", "repeated", "zeroblocks", "shared"):
            a, b = kb.data[c], [f.data[c] for f in fio]
            bad.append(spread_check(c, a, b, max(FLOORS[c], 0.25 * b[0]),
                                    dist=lambda x, y: abs(x - y)))
        elif c == "magic":
            a, b = kb.data[c], fio[0].data[c]
            if a != b:
                bad.append(f"magic: verify headers at {len(a)} sectors, e.g. {a[:4]}; fio's "
                           f"at {len(b)}, e.g. {b[:4]}")
        elif c == "iolog":
            if kb.iolog != fio[0].iolog:
                bad.append(f"iolog: {len(kb.iolog)} I/Os logged, e.g. {kb.iolog[:3]}; fio's "
                           f"{len(fio[0].iolog)}, e.g. {fio[0].iolog[:3]}")
        elif c == "cpus":
            key = lambda e, io: e.cpu  # noqa: E731
            bad.append(spread_check("cpus", kb.share(key), [f.share(key) for f in fio],
                                    FLOORS[c]))
        elif c == "opseq":
            a, b = "".join(o for o, _, _ in kb.ios), "".join(o for o, _, _ in fio[0].ios)
            if a != b:
                i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                bad.append(f"opseq: ops differ from I/O {i}: {a[max(i - 8, 0):i + 24]} "
                           f"against fio's {b[max(i - 8, 0):i + 24]}")
        elif c == "readruns":
            a, b = kb.readruns(), [f.readruns() for f in fio]
            if any(a != x for x in b):
                bad.append(f"readruns: runs of reads of {sorted(a)} I/Os before the last; "
                           f"fio's {[sorted(x) for x in b]}")
        elif c == "inflight":
            bad.append(spread_check("inflight", kb.inflight(), [f.inflight() for f in fio],
                                    FLOORS[c]))
        elif c == "json":
            for path in case.json:
                near = path.endswith("~")   # a number within 30 %, or 2
                path = path.rstrip("~")
                a, b = json_at(kb.json, path), [json_at(f.json, path) for f in fio]
                if near and all(isinstance(x, (int, float)) for x in [a, *b]) and \
                        all(abs(a - x) <= max(2, 0.3 * x) for x in b):
                    continue
                if near or any(a != x for x in b):
                    bad.append(f"json {path}: {_short(a)}, fio's {_short(b[0])}")
        elif c == "logs":
            a = kb.logs
            b = {n: v for n, v in fio[0].logs.items() if "_slat." not in n}
            if sorted(a) != sorted(b):
                bad.append(f"logs: files {sorted(a)}, fio's {sorted(b)}")
            # a log of windows (log_avg_msec, log_hist_msec) has a line a
            # window of wall time, and a guest starved beside the timing
            # tests runs either tool longer: fio's lines are taken over
            # kiobench's span (fio 42 lines in 4.2 s against 19 in 1.9 s)
            pace = kb.span() / max(fio[0].span(), 1e-3) \
                if {"log_avg_msec", "log_hist_msec"} & case.names() else 1.0
            for name in sorted(set(a) & set(b)):
                (n, cols, first), (fn, fcols, ffirst) = a[name], b[name]
                if cols != fcols:
                    bad.append(f"logs: {name} has {cols} fields a line, fio's {fcols}")
                if not (fn * pace / 2 <= n <= fn * pace * 2 + 2):
                    bad.append(f"logs: {name} has {n} lines, fio's {fn}"
                               + (f" ({fn * pace:.0f} in kiobench's span)" if pace != 1 else ""))
                if clock_of(first, kb) != clock_of(ffirst, fio[0]):
                    bad.append(f"logs: {name}'s first time is {first} ({clock_of(first, kb)}), "
                               f"fio's {ffirst} ({clock_of(ffirst, fio[0])})")
        elif c == "logprio":
            a, b = kb.logprio, fio[0].logprio
            if a != b:
                bad.append(f"logprio: the lat logs' last fields take {sorted(a)}, fio's {sorted(b)}")
        elif c == "text":
            for rx in case.text:
                a, b = kb.text.get(rx), fio[0].text.get(rx)
                if a != b:
                    bad.append(f"text {rx}: {a}, fio's {b}")
        elif c == "overlaps":
            bad.append(spread_check("overlaps", kb.overlaps(), [f.overlaps() for f in fio],
                                    FLOORS[c], dist=lambda a, b: abs(a - b)))
        elif c == "dumps":
            if kb.dumps != fio[0].dumps:
                bad.append(f"dumps: {sorted(kb.dumps)}, fio's {sorted(fio[0].dumps)}")
        elif c == "zones":
            zone = case.device["zone_size"] << 20
            a, b = (len({off // zone for op, off, _ in s.ios if op == "W"}) for s in (kb, fio[0]))
            if a != b:
                bad.append(f"zones: writes in {a} zones, fio's in {b}")
        elif c == "polled":
            ns = case.device["completion_nsec"] // 2
            a, b = kb.quick(ns), fio[0].quick(ns)
            if abs(a - b) > 0.05:
                bad.append(f"polled: {a:.2f} of the I/Os completed within {ns} ns, fio's {b:.2f}")
        elif c == "pauses":
            n, fn = kb.pauses(case.pause), [f.pauses(case.pause) for f in fio]
            if not min(fn) - 1 <= n <= max(fn) + 1:
                bad.append(f"pauses: {n} gaps over {case.pause} s, fio's {fn}")
        else:
            raise ValueError(f"unknown check {c!r} of case {case.id}")
    return [b for b in bad if b]


LOGS = "/tmp/fio-diff"


def run(guest, dev: str, case: Case, cmd: str, jobfile: str) -> Stream:
    """Run cmd (fio or kiobench with its arguments, then the job file) in
    an empty directory, traced; its stream, and what the case's checks
    need of its output."""
    guest.check(f"rm -rf {LOGS} && mkdir -p {LOGS} && "
                f"cat >{LOGS}/job.fio <<'EOF'\n{jobfile}EOF")
    for path, text in case.files.items():
        guest.check(f"cat >{path} <<'EOF'\n{text.format(dev=dev)}EOF")
    actions = "DC" if {"depth", "inflight", "polled", "overlaps"} & set(case.checks) else "D"
    dev_bytes = int(guest.check(f"blockdev --getsize64 {dev}"))
    out = "--output-format=json --output=out.json" if "json" in case.checks else \
          "--output=out.txt" if "text" in case.checks else "--output=/dev/null"
    # the trace's clock is ktime_get(): /proc/timer_list's "now"
    full = (f"cd {LOGS} && grep -m1 -o '^now at [0-9]*' /proc/timer_list >t0 && "
            f"{cmd} {out} job.fio" + (" || true" if case.fails else ""))
    s = Stream(block_events(guest, dev, full, actions, SLOW, flushes=True), dev_bytes,
               int(guest.check(f"cat {LOGS}/t0").split()[-1]),
               guest.check(f"head -c {case.content_bytes} {dev} | md5sum").split()[0]
               if "content" in case.checks else "")
    if "json" in case.checks:
        s.json = json.loads(guest.check(f"cat {LOGS}/out.json"))
    head = f"head -c {case.content_bytes} {dev}"
    if "compress" in case.checks:
        s.data["compress"] = int(guest.check(f"{head} | gzip -1 | wc -c")) / case.content_bytes
    if {"distinct", "repeated", "zeroblocks", "shared"} & set(case.checks):
        # each 4 KiB block a line of od, named by its first sighting (z: zeroes)
        blocks = case.content_bytes // 4096
        each = guest.check(f"{head} | od -An -v -tx8 -w4096 | awk '/^[ 0]*$/ {{print \"z\"; "
                           "next} !($0 in id) {id[$0] = ++n} {print id[$0]}'").split()
        assert len(each) == blocks, (len(each), blocks)
        sums = Counter(each)
        s.data["distinct"] = len(sums) / blocks
        s.data["repeated"] = sum(n > 1 for n in sums.values()) / blocks
        s.data["zeroblocks"] = sums.get("z", 0) / blocks
        first = set(each[:blocks // 2])
        s.data["shared"] = sum(b in first for b in each[blocks // 2:]) / (blocks - blocks // 2)
    if "magic" in case.checks:
        # the sectors that start with a verify header: fio's (magic 0xacca)
        # or kiobench's own ("KBVH", kmod/verify.h)
        s.data["magic"] = guest.check(
            f"{head} | od -A d -t x2 -w512 -v | awk '$2 == \"acca\" || "
            "($2 == \"424b\" && $3 == \"4856\") {print $1}'").split()
    if "iolog" in case.checks:
        # v2: "dev op offset length", v3: the time first; in any order
        s.iolog = sorted(tuple(f[-3:]) for f in map(str.split, guest.check(
            f"cat {LOGS}/{case.iolog} 2>/dev/null || true").splitlines())
            if len(f) in (4, 5) and f[-3] in ("read", "write", "trim"))
    if "logs" in case.checks:
        s.logs = logs_of(guest)
    if "dumps" in case.checks:
        s.dumps = {tuple(ln.split()) for ln in guest.check(
            f"cd {LOGS} && for f in *.received *.expected *.hdr_fail; do [ -e \"$f\" ] && "
            "echo \"$f\" $(wc -c <\"$f\"); done; true").splitlines()}
    if "text" in case.checks:
        normal = guest.check(f"cat {LOGS}/out.txt")
        s.text = {rx: [re.sub(r"\d", "9", str(m)) for m in re.findall(rx, normal)]
                  for rx in case.text}
    if "logprio" in case.checks:
        s.logprio = set(guest.check(f"cd {LOGS} && cat *_lat*.log | awk -F', *' '{{print $NF}}' "
                                    "| sort -u | head -20").split())
    if "repeat" in case.checks:
        s.again = Stream(block_events(guest, dev, full, actions, SLOW, flushes=True), dev_bytes)
    if "plugs" in case.checks:
        # cmd run again: the plugs of fio's threads or kiobench's workers
        s.plugs = [n for comm, n in unplugs(guest, full, timeout=SLOW)
                   if comm == "fio" or comm.startswith("kiobench")]
    if "logmax" in case.checks:
        vals = [int(v) for v in guest.check(
            f"cd {LOGS} && cat *_clat.*.log | awk -F', *' '{{print $2}}'").split()]
        assert vals, "no clat log"
        s.data["logmax"] = max(vals) == s.json["jobs"][0]["read"]["clat_ns"]["max"]
    return s


def logs_of(guest) -> dict[str, tuple[int, int, float]]:
    """The log files a run left: name -> (lines, fields per line, the
    first field of the first line); a compressed one (.log.fz): its name."""
    out = {}
    for name in guest.check(f"cd {LOGS} && ls *.log.fz 2>/dev/null; true").split():
        out[name] = (0, 0, 0.0)
    for line in guest.check(f"cd {LOGS} && for f in *.log; do [ -e \"$f\" ] || continue; "
                            "printf '%s %s %s\\n' \"$f\" $(wc -l <\"$f\") "
                            "\"$(head -1 \"$f\" | tr -d ' ')\"; done").splitlines():
        name, n, first = line.split(" ", 2)
        fields = first.split(",") if first else []
        out[name] = (int(n), len(fields), float(fields[0]) if fields else 0.0)
    return out


def kiobench(guest, dev: str, case: Case, jobfile: str) -> Stream | str:
    """kiobench's stream for jobfile, or its refusal or failure."""
    guest.check(f"mkdir -p {LOGS} && cat >{LOGS}/job.fio <<'EOF'\n{jobfile}EOF")
    args = "--allow-writes " if case.writes else ""
    p = guest.run(f"cd {LOGS} && kiobench run {args}--parse-only job.fio")
    if p.rc:
        return p.out.strip()
    try:
        return run(guest, dev, case, f"timeout -s INT {case.limit} kiobench run {args}",
                   jobfile)
    except AssertionError as e:  # the job failed (block_events: exit code)
        return str(e)


@pytest.mark.budget(60)  # the time cases run for seconds, each option dropped in turn
@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.timing) if c.timed else c
                                  for c in CASES], ids=lambda c: c.id)
def test_option_means_what_it_means_to_fio(guest, kiobench_module, make_nullb, case):
    """The case's job file streams alike under fio and kiobench, and
    without each option it proves kiobench's stream is no longer fio's.
    Mutations: see fio_cases.py's cases (each option dropped, which is
    what a kiobench ignoring it would do), and e.g. the tool taking
    rwmixwrite as the read share, or offset_increment ignored: red."""
    on_device(guest, make_nullb, case)


def on_device(guest, make_nullb, case: Case) -> None:
    """The case's differential on its null_blk device, with its bad
    sectors and its busy CPU."""
    dev = make_nullb("nullb0", **case.device)
    set_queue(guest, dev, nomerges=2)   # one request, one I/O
    if case.bad_sectors:
        set_badblocks(guest, "nullb0", *case.bad_sectors)
    if case.hog_cpu is not None:
        guest.check(f"(taskset -c {case.hog_cpu} sh -c 'while :; do :; done' >/dev/null 2>&1 "
                    "& echo $! >/tmp/hog)")
    try:
        differential(guest, dev, case)
    finally:
        if case.hog_cpu is not None:
            guest.check("kill $(cat /tmp/hog)")


def differential(guest, dev: str, case: Case) -> None:
    job = case.jobfile(dev)
    fio = [run(guest, dev, case, f"fio {case.fio_args.format(seed=s)}", job)
           for s in range(1, case.seeds + 1)]
    assert all(f.ios for f in fio), "fio issued nothing"
    kb = kiobench(guest, dev, case, job)
    assert not isinstance(kb, str), f"kiobench refused the job file: {kb}"
    why = check(case, kb, fio)
    assert not why, f"{case.id}: kiobench's stream is not fio's:\n" + "\n".join(why)
    blind = []
    for opt in case.proves:
        assert opt in case.names(), f"{case.id} proves {opt} but does not set it"
        for _ in range(case.proof_runs):
            without = kiobench(guest, dev, case, case.jobfile(dev, drop=opt))
            if isinstance(without, str) or check(case, without, fio):
                break
        else:
            blind.append(opt)
    assert not blind, (f"{case.id}: kiobench's stream without {', '.join(blind)} still "
                       "passes: the case cannot see it")
