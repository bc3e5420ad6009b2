"""I/O priority: prioclass, prio and cmdprio_percentage on each bio.

The proof is the block layer's own record: the block_rq_complete trace
event of 6.12 prints each request's priority (class, hint, level), taken
from the bio's bi_ioprio when the request was made.  One job sets a
best-effort level 5 for every I/O and a realtime level 3 for a 30 % share
(cmdprio_percentage); the trace must show exactly those two priorities,
the share must be within 5 binomial standard deviations of 30 %, and the
kernel's latency histogram of each priority (JSON "prios", fio's shape)
must hold as many I/Os as the trace saw with that priority.  Not core: the
kernel side is the same on every kernel, and 6.1's event has no priority.
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter

import pytest

from kb import TRACING, mount_tracefs, run_job, set_queue

INST = f"{TRACING}/instances/kbprio"
NR_IOS = 4000
PCT = 30


def traced_prios(guest, dev: str, args: str) -> tuple[dict, Counter, Counter]:
    """Run a kiobench job on dev under the block_rq_complete event; its JSON
    and the 4 KiB blocks completed on dev per (class, level), and per
    (op, class, level) with op "R" or "W": blocks, not requests, since two
    adjacent I/Os of one priority may merge (the block layer merges no bios
    of different priorities)."""
    mount_tracefs(guest)
    fmt = guest.check(f"cat {TRACING}/events/block/block_rq_complete/format")
    if "ioprio" not in fmt:
        pytest.skip("this kernel's block_rq_complete event has no ioprio field")
    major, minor = (int(x, 16) for x in guest.check(f"stat -L -c '%t %T' {dev}").split())
    guest.check(f"rmdir {INST} 2>/dev/null; mkdir {INST} && echo 16384 >{INST}/buffer_size_kb "
                f"&& echo 'dev == {(major << 20) | minor}' "
                f">{INST}/events/block/block_rq_complete/filter "
                f"&& echo 1 >{INST}/events/block/block_rq_complete/enable")
    try:
        job = run_job(guest, f"--filename={dev} {args}", timeout=300)
        guest.check(f"echo 0 >{INST}/events/block/block_rq_complete/enable")
        out = guest.check(f"cat {INST}/trace", timeout=120)
    finally:
        guest.run(f"echo 0 >{INST}/events/block/block_rq_complete/enable; rmdir {INST}")
    assert "LOST" not in out, "trace buffer overran"
    prios, ops = Counter(), Counter()
    # "... block_rq_complete: 251,0 R () 1234 + 8 be,0,5 [0]"
    for m in re.finditer(rf"block_rq_complete: {major},{minor} (\S+) \(\S*\) \d+ \+ (\d+) "
                         r"(\w+),\d+,(\d+) \[", out):
        if int(m.group(2)):
            prios[(m.group(3), int(m.group(4)))] += int(m.group(2)) // 8
            op = "W" if "W" in m.group(1) else "R"
            ops[(op, m.group(3), int(m.group(4)))] += int(m.group(2)) // 8
    assert sum(prios.values()), out[-2000:]
    return job, prios, ops


def test_cmdprio_share_reaches_the_block_layer(guest, kiobench_module, make_nullb):
    """prioclass=2 prio=5 on every I/O, cmdprio_class=1 cmdprio=3 on 30 %:
    the trace sees be/5 and rt/3 only, a 4 KiB block per I/O, rt/3 on
    1200 +- 145 of 4000 (5 sd, sd = sqrt(4000 x 0.3 x 0.7) = 29); the
    per-priority histograms hold the trace's counts exactly and sum to the
    job's total; log_prio's column holds the same counts per value, and
    without it the 1s (realtime) are the cmdprio share's.  Mutations: the worker ignoring the share (`bio->bi_ioprio
    = cfg->ioprio;`): no rt/3 in the trace, red; the share drawn as
    `>= cfg->cmdprio_pct` (70 %): red; every completion counted in the
    default histogram (`KB_M_CLAT_PRIO_DEF` for both): red; the lat log
    entry's priority always the job's (`e->ioprio = job->cfg.ioprio`): red."""
    dev = make_nullb("nullb0", size_mb=64, blocksize=4096)
    job, prios, _ = traced_prios(guest, dev,
                              f"--rw=randread --bs=4k --iodepth=8 --number_ios={NR_IOS} "
                              f"--prioclass=2 --prio=5 --cmdprio_percentage={PCT} "
                              f"--cmdprio_class=1 --cmdprio=3 --write_lat_log=/tmp/pl "
                              f"--log_prio=1")
    assert job["read"]["total_ios"] == NR_IOS
    assert set(prios) == {("be", 5), ("rt", 3)}, prios
    assert sum(prios.values()) == NR_IOS, prios
    sd = math.sqrt(NR_IOS * PCT / 100 * (1 - PCT / 100))
    assert abs(prios[("rt", 3)] - NR_IOS * PCT / 100) < 5 * sd, prios

    s = job["kiobench"]["settings"]
    assert (s["prioclass"], s["prio"], s["cmdprio_percentage"], s["cmdprio_class"],
            s["cmdprio"]) == (2, 5, {"read": PCT, "write": PCT}, {"read": 1, "write": 1},
                              {"read": 3, "write": 3}), s
    got = {(p["prioclass"], p["prio"]): p["clat_ns"]["N"] for p in job["read"]["prios"]}
    assert got == {(2, 5): prios[("be", 5)], (1, 3): prios[("rt", 3)]}, (got, prios)
    assert sum(got.values()) == job["read"]["total_ios"]

    # log_prio: fio's clat log gives each I/O's priority value, as the trace
    col = Counter(line.rsplit(",", 1)[1].strip()
                  for line in guest.check("cat /tmp/pl_clat.1.log").splitlines())
    assert col == {"0x4005": prios[("be", 5)], "0x2003": prios[("rt", 3)]}, (col, prios)

    # the normal output has fio's per-priority lines, with the share
    out = guest.check(f"kiobench run --filename={dev} --rw=randread --number_ios=1000 "
                      f"--prioclass=2 --prio=5 --cmdprio_percentage={PCT} --cmdprio=3 "
                      f"--write_lat_log=/tmp/pm")
    # without log_prio the column is fio's: 1 for a realtime I/O, else 0
    col = Counter(line.rsplit(",", 1)[1].strip()
                  for line in guest.check("cat /tmp/pm_clat.1.log").splitlines())
    share = {int(c): float(p) for c, p in
             re.findall(r"clat prio (\d)/\d \(([\d.]+)% of IOs\) percentiles", out)}
    assert set(share) == {1, 2} and abs(sum(share.values()) - 100) < 0.02, out
    assert re.search(r"clat prio 1/3 \(usec\): min=.*samples=\d+", out), out
    rt = int(re.search(r"clat prio 1/3 \(usec\): .*samples=(\d+)", out).group(1))
    assert col == {"1": rt, "0": 1000 - rt}, (col, rt)


def test_prioclass_alone(guest, kiobench_module, make_nullb):
    """prioclass=3 alone: every request idle, and no per-priority split
    (no cmdprio_percentage: no "prios", as fio).  Mutation: the worker leaving
    bi_ioprio at 0 (`bio->bi_ioprio = 0;`): the trace shows the worker's
    own best-effort priority: red."""
    dev = make_nullb("nullb0", size_mb=64, blocksize=4096)
    job, prios, _ = traced_prios(guest, dev, "--rw=randread --bs=4k --number_ios=500 "
                                          "--prioclass=3")
    assert set(prios) == {("idle", 0)}, prios
    assert sum(prios.values()) == 500
    assert "prios" not in job["read"]


def test_cmdprio_read_write_pairs(guest, kiobench_module, make_nullb):
    """fio's read,write pairs: cmdprio_percentage=20,70 cmdprio_class=1,3
    cmdprio=3,0 on a 50/50 random mix: the trace sees reads be/5 and rt/3,
    writes be/5 and idle/0, each direction's share within 5 binomial sd of
    its own percentage, and each direction's "prios" hold the trace's
    counts.  Mutations: the worker drawing the reads' share for both
    (`cfg->cmdprio_pct[KIOBENCH_DIR_READ]` in kb_pick_io): red; the writes'
    priority from the reads' (`cfg->cmdprio_ioprio[KIOBENCH_DIR_READ]` in
    kb_issue): red."""
    dev = make_nullb("nullb0", size_mb=64, blocksize=4096)
    job, _, ops = traced_prios(guest, dev,
                               f"--rw=randrw --rwmixread=50 --bs=4k --iodepth=8 "
                               f"--number_ios={NR_IOS} --allow-writes --prioclass=2 --prio=5 "
                               f"--cmdprio_percentage=20,70 --cmdprio_class=1,3 "
                               f"--cmdprio=3,0")
    assert set(ops) == {("R", "be", 5), ("R", "rt", 3), ("W", "be", 5), ("W", "idle", 0)}, ops
    for op, d, cmd, pct in (("R", "read", ("rt", 3), 20), ("W", "write", ("idle", 0), 70)):
        n = ops[(op, "be", 5)] + ops[(op, *cmd)]
        assert n == job[d]["total_ios"], (d, ops, job[d]["total_ios"])
        sd = math.sqrt(n * pct / 100 * (1 - pct / 100))
        assert abs(ops[(op, *cmd)] - n * pct / 100) < 5 * sd, (d, ops)
        got = {(p["prioclass"], p["prio"]): p["clat_ns"]["N"] for p in job[d]["prios"]}
        klass = {"rt": 1, "be": 2, "idle": 3}[cmd[0]]
        assert got == {(2, 5): ops[(op, "be", 5)], (klass, cmd[1]): ops[(op, *cmd)]}, (d, got)
    s = job["kiobench"]["settings"]
    assert s["cmdprio_percentage"] == {"read": 20, "write": 70}, s


def test_group_reporting_keeps_the_split(guest, kiobench_module, make_nullb):
    """numjobs=2 with group_reporting: one entry whose prios (the members'
    histograms merged, same priorities) add up to the group's I/Os, and the
    cmdprio share is near 30 % of them.  Mutation: drop_per_job() dropping
    the per-priority measures too: no "prios", red."""
    dev = make_nullb("nullb0", size_mb=64, blocksize=4096)
    job = run_job(guest, f"--filename={dev} --rw=randread --bs=4k --number_ios=2000 "
                         f"--numjobs=2 --group_reporting --prioclass=2 --prio=5 "
                         f"--cmdprio_percentage={PCT} --cmdprio=3")
    n = job["read"]["total_ios"]
    assert n == 4000, n   # number_ios per clone, as fio's
    got = {(p["prioclass"], p["prio"]): p["clat_ns"]["N"] for p in job["read"]["prios"]}
    assert set(got) == {(2, 5), (1, 3)} and sum(got.values()) == n, got
    sd = math.sqrt(n * PCT / 100 * (1 - PCT / 100))
    assert abs(got[(1, 3)] - n * PCT / 100) < 5 * sd, got


def traced_sizes(guest, dev: str, cmd: str) -> Counter:
    """Run cmd under block_rq_complete on dev (merges off, so that one
    request is one I/O): the requests per (bytes, class, level)."""
    mount_tracefs(guest)
    if "ioprio" not in guest.check(f"cat {TRACING}/events/block/block_rq_complete/format"):
        pytest.skip("this kernel's block_rq_complete event has no ioprio field")
    major, minor = (int(x, 16) for x in guest.check(f"stat -L -c '%t %T' {dev}").split())
    set_queue(guest, dev, nomerges=2)
    guest.check(f"rmdir {INST} 2>/dev/null; mkdir {INST} && echo 16384 >{INST}/buffer_size_kb "
                f"&& echo 'dev == {(major << 20) | minor}' "
                f">{INST}/events/block/block_rq_complete/filter "
                f"&& echo 1 >{INST}/events/block/block_rq_complete/enable")
    try:
        r = guest.run(cmd, timeout=300)
        assert r.rc == 0, f"{cmd}: exit {r.rc}\n{r.out}"
        guest.check(f"echo 0 >{INST}/events/block/block_rq_complete/enable")
        out = guest.check(f"cat {INST}/trace", timeout=120)
    finally:
        guest.run(f"echo 0 >{INST}/events/block/block_rq_complete/enable; rmdir {INST}")
    assert "LOST" not in out, "trace buffer overran"
    return Counter((int(n) * 512, c, int(lv)) for n, c, lv in re.findall(
        rf"block_rq_complete: {major},{minor} \S+ \(\S*\) \d+ \+ (\d+) (\w+),\d+,(\d+) \[", out)
        if int(n))


def test_cmdprio_bssplit_per_size_as_fio(guest, kiobench_module, make_nullb):
    """fio's cmdprio_bssplit=4k/30:64k/70 (cmdprio_class=1 cmdprio=3) on
    bssplit=4k/50:64k/50 with prioclass=2 prio=5, one job file run by fio
    (libaio) and by kiobench: the trace sees be/5 and rt/3 only, and for
    each size the rt/3 share is within 5 binomial standard deviations of
    its own percentage, under both.  kiobench's JSON gives the kernel's
    table and its rt/3 latency histogram holds as many I/Os as the trace.
    Mutation: kb_cmdprio_draw() taking the table's first share for every
    size (`pct = cfg->cmdprio_bs[dir][0].pct;`): 64 KiB at 30 %: red."""
    dev = make_nullb("nullb0", size_mb=256, blocksize=4096)
    guest.check(f"cat >/tmp/cb.fio <<'EOF'\n[global]\nfilename={dev}\ndirect=1\n"
                f"ioengine=libaio\niodepth=4\nnumber_ios={NR_IOS}\nrw=randread\n"
                f"norandommap\nbssplit=4k/50:64k/50\nprioclass=2\nprio=5\ncmdprio_class=1\n"
                f"cmdprio=3\ncmdprio_bssplit=4k/30:64k/70\n[cb]\nEOF")
    ours = traced_sizes(guest, dev, "kiobench run --output-format=json --output=/tmp/cb.json "
                                    "/tmp/cb.fio")
    fio = traced_sizes(guest, dev, "fio --output=/dev/null /tmp/cb.fio")
    for name, got in (("kiobench", ours), ("fio", fio)):
        assert {(c, lv) for _, c, lv in got} == {("be", 5), ("rt", 3)}, (name, got)
        assert sum(got.values()) == NR_IOS, (name, got)
        for size, pct in ((4096, 30), (65536, 70)):
            n = got[(size, "be", 5)] + got[(size, "rt", 3)]
            sd = math.sqrt(n * pct / 100 * (1 - pct / 100))
            assert abs(got[(size, "rt", 3)] - n * pct / 100) < 5 * sd, (name, size, got)
    job = json.loads(guest.check("cat /tmp/cb.json"))["jobs"][0]
    table = [{"bs": 4096, "percentage": 30, "prioclass": 1, "prio": 3},
             {"bs": 65536, "percentage": 70, "prioclass": 1, "prio": 3}]
    assert job["kiobench"]["settings"]["cmdprio_bssplit"] == {"read": table, "write": table}
    got = {(p["prioclass"], p["prio"]): p["clat_ns"]["N"] for p in job["read"]["prios"]}
    assert got == {(2, 5): sum(n for (_, c, _), n in ours.items() if c == "be"),
                   (1, 3): sum(n for (_, c, _), n in ours.items() if c == "rt")}, (got, ours)
