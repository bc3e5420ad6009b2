"""fio's write_iolog: kiobench writes fio 3.33's version 3 iolog of every
I/O a job issued (Documentation/kiobench.rst, "fio's I/O log:
write_iolog"), from the kernel's per-I/O log of every I/O (lat-log-all).

Its lines are checked against the kernel's own log (raw_lat_log) and
counts, and the device's own count of the bios it completed; Debian's fio
replays it and does the same I/Os, which proves the format."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from kb import dev_bios, run_job
from test_robust import EXIT_SYSTEM, set_badblocks

HEADER = "fio version 3 iolog"
IO = re.compile(r"^(\d+) (\S+) (read|write|trim|sync|datasync) (\d+) (\d+)$")
FILE_ACT = re.compile(r"^(\d+) (\S+) (add|open|close)$")


def parse_iologs(text: str) -> list[dict]:
    """The logs of a file (each job's appended after the others'): per log
    its file actions [(t, dev, act)] and I/Os [(t, dev, dir, offset, len)];
    a line of neither shape fails."""
    logs: list[dict] = []
    for line in text.splitlines():
        if line == HEADER:
            logs.append({"files": [], "ios": []})
        elif m := IO.match(line):
            logs[-1]["ios"].append((int(m[1]), m[2], m[3], int(m[4]), int(m[5])))
        elif m := FILE_ACT.match(line):
            logs[-1]["files"].append((int(m[1]), m[2], m[3]))
        else:
            raise AssertionError(f"not an iolog line: {line!r}")
    return logs


def raw_entries(text: str) -> list[dict]:
    """The kernel's per-I/O log (debugfs lat_log, with lat-log-all)."""
    assert "\n# all 1\n" in text, text[:300]
    cols = next(x for x in text.splitlines() if x.startswith("# columns")).split()[2:]
    out = []
    for line in text.splitlines():
        if line and not line.startswith("#"):
            e = dict(zip(cols, line.split()))
            out.append({k: (v if k == "dir" else int(v)) for k, v in e.items()})
    return out


def issued(kb: dict) -> int:
    """The I/Os the kernel counted, warm-up and failed ones included."""
    return sum(kb["all_ios"].values()) + sum(kb["errors"].values())


def check_shape(log: dict, devs: list[str]) -> None:
    """fio's frame: each device added, opened, then closed last, and the
    I/O times in submission order."""
    assert log["files"][:2 * len(devs)] == \
        [(0, d, "add") for d in devs] + [(0, d, "open") for d in devs], log["files"]
    closes = log["files"][2 * len(devs):]
    assert [(d, a) for _, d, a in closes] == [(d, "close") for d in devs], closes
    times = [t for t, *_ in log["ios"]]
    assert times == sorted(times), "I/Os not in submission order"
    assert all(t >= times[-1] for t, _, _ in closes), (closes, times[-1])


def test_write_iolog_logs_every_io_issued(guest, kiobench_module, make_nullb):
    """A random-read job with a warm-up: its iolog has a line per I/O the
    kernel counted (warm-up included) and the device completed, each the
    kernel's own entry (direction, offset, length, submission in us), in
    submission order, in fio's frame (Debian's fio's own iolog of such a
    job parses the same); the job's lat log keeps only the measured I/Os.  Mutations: kb_log_lat() logging only measured I/Os
    (`measured &&`): red (the tool refuses the log, 96 I/Os left out);
    save_fio_logs() not leaving the marked entries out: red (lat log
    count).  (One latency for all: completion order is submission order
    here; test_fio_replays_kiobench_iolog checks the order.)"""
    # 1 ms a read, 4 at a time: the 30 ms warm-up cannot take all 400
    dev = make_nullb("nullb0", size_mb=64, completion_nsec=1_000_000)
    guest.check("rm -rf /tmp/io.log /tmp/raw.log /tmp/kl && mkdir /tmp/kl")
    before = dev_bios(guest, dev)
    job = run_job(guest, f"--filename={dev} --rw=randread --bs=4k --iodepth=4 "
                         f"--number_ios=400 --ramp_time=30ms --write_iolog=/tmp/io.log "
                         f"--raw_lat_log=/tmp/raw.log --write_lat_log=/tmp/kl/k")
    done = dev_bios(guest, dev) - before
    kb = job["kiobench"]
    logs = parse_iologs(guest.check("cat /tmp/io.log"))
    assert len(logs) == 1
    log = logs[0]
    check_shape(log, [dev])
    n = len(log["ios"])
    # every I/O: the kernel's count, warm-up included, and the device's own
    assert n == issued(kb) == done == 400, (n, kb["all_ios"], kb["errors"], done)
    assert 0 < kb["ramp_ios"]["read"] < n and 0 < job["read"]["total_ios"] < n, kb["ramp_ios"]

    # line for line the kernel's entries, at their submission (us)
    raw = raw_entries(guest.check("cat /tmp/raw.log"))
    want = Counter(((e["end_ns"] - e["lat_ns"]) // 1000, dev, e["dir"], e["offset"],
                    e["bytes"]) for e in raw)
    assert Counter(log["ios"]) == want
    assert sum(e["flags"] == 1 for e in raw) == kb["ramp_ios"]["read"]
    assert sum(e["flags"] == 0 for e in raw) == job["read"]["total_ios"]
    offs = [o for _, _, d, o, ln in log["ios"] if d == "read" and ln == 4096]
    assert len(offs) == n and all(o % 4096 == 0 and o < 64 << 20 for o in offs)
    assert len(set(offs)) == n  # the random map: each block once a pass

    # fio's lat log keeps its meaning: the measured I/Os only
    lat = guest.check("cat /tmp/kl/k_lat.1.log").splitlines()
    assert len(lat) == job["read"]["total_ios"], (len(lat), job["read"]["total_ios"])

    # Debian's fio's own iolog of such a job has the same lines and frame
    guest.check(f"rm -f /tmp/fio.log && fio --name=f --filename={dev} --rw=randread --bs=4k "
                f"--direct=1 --ioengine=libaio --iodepth=4 --number_ios=50 "
                f"--write_iolog=/tmp/fio.log --output=/dev/null", timeout=120)
    theirs = parse_iologs(guest.check("cat /tmp/fio.log"))
    assert len(theirs) == 1 and len(theirs[0]["ios"]) == 50
    assert [a for _, _, a in theirs[0]["files"]] == [a for _, _, a in log["files"]] == \
        ["add", "open", "close"]


def test_fio_replays_kiobench_iolog(guest, kiobench_module, make_nullb):
    """numjobs=2 on two devices, reads and writes: each clone appends its
    own log (fio's append), each device added, opened and closed; Debian's
    fio replays the file (libaio, direct) and does as many reads and writes
    as its lines say, which the devices count too.  Mutations: the tool
    writing each length in sectors (`v[i].len / 512`): red (fio fails
    the replay); the tool sorting by completion, not submission
    (cmp_submit): red (order)."""
    # 2 ms and 0.1 ms a request: the I/Os complete out of submission order
    d0 = make_nullb("nullb0", size_mb=64, completion_nsec=2_000_000)
    d1 = make_nullb("nullb1", size_mb=64, completion_nsec=100_000)
    devs = [d0, d1]
    guest.check("rm -f /tmp/io2.log /tmp/k.json /tmp/r.json")
    r = guest.run(f"kiobench run --output-format=json --output=/tmp/k.json --allow-writes "
                  f"--name=w --filename={d0}:{d1} --numjobs=2 --rw=randrw --bs=4k "
                  f"--iodepth=2 --number_ios=120 --write_iolog=/tmp/io2.log", timeout=120)
    assert r.rc == 0, r.out
    jobs = json.loads(guest.check("cat /tmp/k.json"))["jobs"]
    logs = parse_iologs(guest.check("cat /tmp/io2.log"))
    assert len(jobs) == len(logs) == 2
    for job, log in zip(jobs, logs):  # the clones' logs, in their order
        check_shape(log, devs)
        assert len(log["ios"]) == issued(job["kiobench"]), (len(log["ios"]), job["kiobench"])
        assert {d for _, d, *_ in log["ios"]} == set(devs)
    lines = Counter(d for log in logs for _, _, d, _, _ in log["ios"])
    assert lines["read"] > 0 and lines["write"] > 0, lines

    before = sum(dev_bios(guest, d) for d in devs)
    p = guest.run("fio --name=replay --read_iolog=/tmp/io2.log --ioengine=libaio "
                  "--direct=1 --output-format=json --output=/tmp/r.json", timeout=300)
    assert p.rc == 0, p.out
    done = sum(dev_bios(guest, d) for d in devs) - before
    fio = json.loads(guest.check("cat /tmp/r.json"))["jobs"][0]
    assert fio["error"] == 0, fio["error"]
    got = {"read": fio["read"]["total_ios"], "write": fio["write"]["total_ios"]}
    assert got == {"read": lines["read"], "write": lines["write"]}, (got, lines)
    assert done == sum(lines.values()), (done, lines)


@pytest.mark.debug
def test_iolog_holds_failed_ios(guest, kiobench_module, make_nullb):
    """continue_on_error on a device whose first half fails: the failed
    reads were issued, and are in the iolog with the others; the kernel
    marks them (flags 2).  On the debug kernel (debugfs lat_log's reader,
    under KASAN).  Mutation: kb_log_lat() logging only successful I/Os
    (`!status &&`): red."""
    dev = make_nullb("nullb0", size_mb=16)
    set_badblocks(guest, "nullb0", 0, 16383)
    guest.check("rm -f /tmp/io3.log /tmp/raw3.log")
    job = run_job(guest, f"--filename={dev} --rw=randread --bs=4k --number_ios=200 "
                         f"--continue_on_error --write_iolog=/tmp/io3.log "
                         f"--raw_lat_log=/tmp/raw3.log")
    kb = job["kiobench"]
    log = parse_iologs(guest.check("cat /tmp/io3.log"))[0]
    raw = raw_entries(guest.check("cat /tmp/raw3.log"))
    failed = [e for e in raw if e["flags"] & 2]
    assert kb["errors"]["read"] > 0 and len(failed) == kb["errors"]["read"], kb["errors"]
    assert all(e["offset"] < 8 << 20 for e in failed)
    assert len(log["ios"]) == issued(kb) == 200


def test_iolog_never_truncated(guest, kiobench_module, make_nullb):
    """A job that issues more I/Os than lat_log_entries: no iolog, and the
    run says how many the kernel's log left out and fails.  Mutation:
    save_iolog() not refusing a log with dropped I/Os: red (a file)."""
    dev = make_nullb("nullb0", size_mb=16)
    guest.check("rm -f /tmp/io4.log")
    r = guest.run(f"kiobench run --filename={dev} --rw=randread --number_ios=200 "
                  f"--lat_log_entries=50 --write_iolog=/tmp/io4.log", timeout=120)
    assert r.rc == EXIT_SYSTEM, (r.rc, r.out)
    assert "held 50 of the 200 I/Os the job issued, 150 left out" in r.out, r.out
    assert not guest.run("test -e /tmp/io4.log").ok
