# SPDX-License-Identifier: GPL-2.0
"""bench/fio-compare --sets=uring (fio's t/io_uring as the
strongest peer), the parts that run on the host: t/io_uring's options, the
set's configurations, the figures taken from its output, the floor and the
goals as printed, a stalled kiobench point printed as not measured, and
the guest script run for real on the host with t/io_uring's no-op
requests (which need no device), built by bench/build-t-io_uring."""
from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _load():
    loader = importlib.machinery.SourceFileLoader("fio_compare", str(REPO / "bench" / "fio-compare"))
    mod = importlib.util.module_from_spec(importlib.util.spec_from_loader("fio_compare", loader))
    sys.modules["fio_compare"] = mod  # dataclasses look their module up
    loader.exec_module(mod)
    return mod


fc = _load()
from vm.guest import CommandTimeout, Result  # noqa: E402  (fio-compare put tests/ on the path)


def test_uring_flags_are_issue_26s_configuration():
    assert fc.uring_flags(32, "sleep") == ("-d", "32", "-s", "8", "-c", "8", "-b", "4096",
                                          "-p", "0", "-F", "1", "-B", "1", "-n", "1")
    assert fc.uring_flags(128, "poll") == ("-d", "128", "-s", "32", "-c", "32", "-b", "4096",
                                           "-p", "1", "-F", "1", "-B", "1", "-n", "1")
    assert fc.uring_flags(1, "sleep")[:6] == ("-d", "1", "-s", "1", "-c", "1")
    assert fc.uring_flags(32, "nop") == ("-N", "1", "-d", "32", "-s", "8", "-c", "8", "-n", "1")


def test_uring_cases_cover_every_depth_and_mode_polled_kiobench_last():
    cases = fc.uring_cases([1, 32, 128])
    keys = {(c.tool, c.qd, c.mode) for c in cases}
    for qd in (1, 32, 128):
        for mode in ("sleep", "poll"):
            for tool in ("kiobench", fc.T_IO_URING, "fio"):
                assert (tool, qd, mode) in keys
        assert (fc.T_IO_URING, qd, "nop") in keys
    assert len(cases) == len(keys) == 21
    assert all(c.dev == "null0" for c in cases)
    # a stalled poll queue disturbs no point measured after it
    assert [c.mode for c in cases[-3:]] == ["poll"] * 3
    assert all(c.tool == "kiobench" for c in cases[-3:])
    fio128 = {c.mode: c.args for c in cases if c.tool == "fio" and c.qd == 128}
    assert "--iodepth_batch_submit=32" in fio128["poll"] and "--hipri" in fio128["poll"]
    assert "--hipri" not in fio128["sleep"] and "--gtod_reduce=1" in fio128["sleep"]


def uring_output(snaps, lines, extra=""):
    out = [f"SNAP {' '.join(str(v) for v in sn)}" for sn in snaps]
    out += ["EXIT 0", "submitter=0, tid=77, file=/dev/nullb1, node=-1",
            "polled=0, fixedbufs=1/0, register_files=1, buffered=0, QD=32",
            "Engine=io_uring, sq_ring=32, cq_ring=32"]
    out += [f"IOPS={v}, BW=1000MiB/s, IOS/call=8/8" for v in lines] + [extra]
    return "\n".join(out) + "\n"


def test_parse_reads_counts_the_devices_reads_over_the_measured_seconds():
    # 5 s; 1.5e6 reads completed; the process ran 450 ticks, 4.5e9 ns
    out = uring_output([(10.0, 200, 1000), (15.0, 650, 1501000)],
                       ["100", "310.00K", "290.00K", "300.00K", "300.00K", "300.00K"])
    fig = fc.parse_uring(out, nop=False)
    assert fig["iops"] == pytest.approx(300000)
    assert fig["cpu_ns"] == pytest.approx(3000)


def test_parse_nop_averages_the_lines_of_the_measured_seconds():
    # the first line (the ramp, 1.00M) is left out; 2 s at 4.0M
    out = uring_output([(1.0, 0, 0), (3.0, 160, 0)], ["1.00M", "3.90M", "4.10M"])
    fig = fc.parse_uring(out, nop=True)
    assert fig["iops"] == pytest.approx(4.0e6)
    assert fig["cpu_ns"] == pytest.approx(1.6e9 / 8e6)


def test_parse_without_io_says_what_the_tool_said():
    out = uring_output([(1.0, 0, 5), (6.0, 500, 5)], ["0"] * 6,
                       "Your filesystem/driver/kernel doesn't support polled IO")
    fig = fc.parse_uring(out, nop=False)
    assert "why" in fig
    assert "doesn't support polled IO" in fig["why"]


def pts(**figs):
    """Points of the uring set from {name: (iops, cpu_ns) or why}."""
    out = {}
    for c in fc.uring_cases([32, 128]):
        name = f"{c.tool}_{c.qd}_{c.mode}".replace("t/io_uring", "t")
        v = figs.get(name)
        out[c] = fc.Point(why="not run") if v is None else fc.Point(why=v) \
            if isinstance(v, str) else fc.Point(iops=v[0], cpu_ns=v[1], others=0.1)
    return out


FIGS = dict(kiobench_32_sleep=(300e3, 3000), kiobench_32_poll=(330e3, 2800),
            t_32_sleep=(250e3, 3900), t_32_poll=(200e3, 4600), t_32_nop=(1e6, 900),
            fio_32_sleep=(100e3, 9000), fio_32_poll=(110e3, 8500),
            kiobench_128_sleep=(300e3, 3000), t_128_sleep=(220e3, 4200),
            t_128_poll=(80e3, 5000), t_128_nop=(1.2e6, 800),
            kiobench_128_poll="stalled: no result within 72 s (30 timeouts in the kernel log)")


def test_uring_table_prints_floor_ratios_and_what_stalled(capsys):
    points = pts(**FIGS)
    polled32 = next(c for c in points if (c.tool, c.qd, c.mode) == ("kiobench", 32, "poll"))
    points[polled32].retries = 781
    fc.print_uring(points, [32, 128], 0)
    out = capsys.readouterr().out
    assert "QD32 polled kiobench --hipri: 781 submissions refused for want of a tag, retried" \
        in out
    # QD32 polled: floor = 4600 - 900 = 3700; kiobench 2800 / 3700 = 0.76
    row = next(ln for ln in out.splitlines() if ln.split()[:2] == ["32", "polled"]
               and "2800" in ln)
    assert row.split()[-3:] == ["900", "3700", "0.76"]
    iops = next(ln for ln in out.splitlines() if ln.split()[:2] == ["32", "interrupt"])
    assert iops.split()[2:] == ["300000", "250000", "1.20", "100000", "3.00", "10"]
    assert ("QD128 polled kiobench --hipri: not measured: stalled: no result within 72 s "
            "(30 timeouts in the kernel log)") in out
    assert "interrupt: floor 3000 ns/IO (at most 333333 IOPS per core); kiobench 3000 ns/IO = " \
           "1.00 x the floor" in out
    # floors 3000, 3700, 3400, 4200; kiobench's cheapest 2800 (QD32 polled)
    assert "lowest floor 3000 ns/IO (QD32 interrupt); kiobench's lowest CPU per I/O 2800 ns/IO " \
           "(QD32 polled) = 0.93 x it" in out


def goal_lines(capsys, prof):
    fc.print_goals_uring(pts(**FIGS), [32, 128], prof)
    return [ln.strip() for ln in capsys.readouterr().out.splitlines()[2:]]


def test_goals_against_t_io_urings_best_read_rate(capsys):
    case = next(c for c in pts(**FIGS) if (c.tool, c.qd, c.mode) == ("kiobench", 128, "sleep"))
    lines = goal_lines(capsys, fc.Profile(case, 1000, 0.1, 0.8, 0.1))
    # best vs best: 330k / 250k at QD32, 300k / 220k at QD128 (no-ops are no peer)
    assert lines[0].startswith("IOPS per worker, kiobench's best / t/io_uring's best, QD32: "
                               "1.32 vs goal >= 1.5  MISS")
    assert lines[1].startswith("IOPS per worker, kiobench's best / t/io_uring's best, QD128: "
                               "1.36 vs goal >= 1.5  MISS")
    # the own code's share: shown, not a goal any more
    assert lines[2].startswith("kiobench's own code / its CPU per I/O (not a goal): 0.10  (perf")
    # then what the ratios' noise under TCG is, not a goal
    assert lines[3].startswith("under TCG the same code's IOPS move with its layout")
    assert not any("vs goal" in ln for ln in lines[3:])


def test_own_goal_says_its_floor(capsys):
    """The own code's share gives what set-up and clock alone would be."""
    case = next(c for c in pts(**FIGS) if (c.tool, c.qd, c.mode) == ("kiobench", 128, "sleep"))
    lines = goal_lines(capsys, fc.Profile(case, 1000, 0.1, 0.6, 0.3, setup=0.1, clock=0.05))
    # (0.1 + 0.05) / (1 - 0.15)
    assert lines[2].startswith("kiobench's own code / its CPU per I/O (not a goal): 0.30  (perf")
    assert lines[2].endswith("; 0.18 with kb_* costing nothing)")


def test_goal_without_profile_is_not_measured(capsys):
    lines = goal_lines(capsys, None)
    assert lines[2] == ("kiobench's own code / its CPU per I/O (not a goal): NOT MEASURED "
                        "(needs --profile)")


class StalledGuest:
    """A guest whose kiobench run is killed at its timeout, after the block
    layer logged request timeouts."""

    def __init__(self):
        self.cmds = []

    def dmesg_mark(self, name):
        return "mark"

    def dmesg_since(self, marker):
        return ("null_blk: foo\nblk_print_req_error: 23 callbacks suppressed\n"
                "I/O error, dev nullb1, sector 8 op 0x0:(READ) flags 0x400000 timeout error\n")

    def check(self, cmd, timeout=60):
        self.cmds.append((cmd, timeout))
        raise CommandTimeout(cmd, Result(137, "kiobench: 0 IOPS\n"))

    def run(self, cmd, timeout=60):
        self.cmds.append((cmd, timeout))
        return Result(0, "")


def test_a_stalled_kiobench_point_is_not_measured_with_the_kernels_timeouts():
    g = StalledGuest()
    case = fc.Case("kiobench --hipri", "kiobench", "null0", 128, ("--hipri",), mode="poll")
    fig = fc.run_kiobench(g, "/dev/nullb1", case, fc.Common(5, 0))
    assert fig["why"].startswith("stalled: no result within 72 s (1 timeouts in the kernel log")
    assert g.cmds[0][1] == 72
    assert "kiobench list" in g.cmds[1][0]  # waited for its job to go


def test_the_guest_script_on_the_host_with_no_op_requests(tmp_path):
    if Path("/proc/sys/kernel/io_uring_disabled").exists() and \
            Path("/proc/sys/kernel/io_uring_disabled").read_text().strip() != "0":
        pytest.skip("io_uring is disabled on this host (kernel.io_uring_disabled)")
    built = subprocess.run([str(REPO / "bench" / "build-t-io_uring")], capture_output=True,
                           text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    binary = Path(built.stdout.strip())
    assert b"INTERP" not in subprocess.run(["readelf", "-l", str(binary)],
                                           capture_output=True).stdout  # static
    (tmp_path / "t-io_uring").symlink_to(binary)
    env = dict(os.environ, PATH=f"{tmp_path}:{os.environ['PATH']}", TMPDIR=str(tmp_path))
    case = fc.Case("t/io_uring -N 1 (no-op)", fc.T_IO_URING, "null0", 8, fc.uring_flags(8, "nop"),
                   mode="nop")
    script = fc.uring_script("/dev/none", case, fc.Common(2, 0))
    res = subprocess.run(["sh", "-c", script], env=env, capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr
    fig = fc.parse_uring(res.stdout, nop=True)
    assert "why" not in fig, fig
    assert fig["iops"] > 1000
    # its submitting thread, busy with no-ops: more than a tenth of a CPU,
    # at most one (its main thread sleeps)
    assert 0.1e9 < fig["cpu_ns"] * fig["iops"] <= 1.05e9


def test_profiled_point_is_the_cheapest_kiobench_at_the_goals_depths():
    points = pts(**FIGS)
    qd1 = fc.Case("kiobench", "kiobench", "null0", 1)
    points[qd1] = fc.Point(iops=280e3, cpu_ns=1000)  # cheaper, at no goal's depth
    assert (lambda c: (c.qd, c.mode))(fc.least_cpu_kiobench(points, {32, 128})) == (32, "poll")
    assert fc.least_cpu_kiobench(points, {64}) == qd1  # none there: the cheapest anywhere


# perf script -F ip,sym: a worker's samples, innermost frame first
PERF_SCRIPT = """\
    ffffffff81000001 null_handle_rq
    ffffffff81000002 blk_mq_flush_plug_list
    ffffffff81000003 kb_worker_fn

    ffffffff81000004 __rcu_read_lock
    ffffffff81000005 bio_associate_blkg_from_css
    ffffffff81000006 bio_associate_blkg
    ffffffff81000007 bio_reset
    ffffffff81000008 kb_issue
    ffffffff81000009 kb_worker_fn

    ffffffff8100000a ktime_get
    ffffffff8100000b kb_end_io
    ffffffff8100000c kb_worker_fn

    ffffffff8100000d memset_orig
    ffffffff8100000e bio_reset
    ffffffff8100000f kb_issue
    ffffffff81000010 kb_worker_fn

    ffffffff81000011 blk_mq_submit_bio
    ffffffff81000012 submit_bio
    ffffffff81000013 kb_issue
    ffffffff81000014 kb_worker_fn

    ffffffff81000015 kb_pick_io
    ffffffff81000016 kb_worker_fn

    ffffffff81000017 bio_reset
    ffffffff81000018 some_other_thread

    ffffffff81000019 read_tsc
    ffffffff8100001a ktime_get
    ffffffff8100001b blk_mq_start_request
    ffffffff8100001c blk_mq_flush_plug_list
    ffffffff8100001d kb_worker_fn

"""


def test_profile_tells_bio_set_up_from_kiobenchs_code(capsys):
    """Each worker sample goes to the innermost frame that tells; bio set-up
    and the clock below kb_* are classes of their own, kept within own in the
    goal; the clock below the block layer is the block layer's."""
    awk = subprocess.run(["sh", "-c", fc.CLASSIFY], input=PERF_SCRIPT, capture_output=True,
                         text=True, check=True).stdout.split()
    n = {awk[i]: int(awk[i + 1]) for i in range(0, len(awk), 2)}
    assert n == {"driver": 1, "block": 2, "own": 1, "setup": 2, "clock": 1}
    case = next(c for c in pts(**FIGS) if (c.tool, c.qd, c.mode) == ("kiobench", 128, "sleep"))
    prof = fc.Profile(case, 6, 1 / 6, 1 / 6, 4 / 6, setup=2 / 6, clock=1 / 6)
    fc.print_profile(prof, pts(**FIGS), "test")
    out = capsys.readouterr().out
    lines = [" ".join(ln.split()) for ln in out.splitlines()]
    assert "kiobench's own (kb_*, bio set-up, clock, waiting) 66.7 % 2000 ns/IO" in lines
    assert "of which bio set-up (bio_reset, blkg, pages) 33.3 % 1000 ns/IO" in lines
    assert "of which the clock (submission stamps, polls) 16.7 % 500 ns/IO" in lines
    assert "of which kb_*, waiting 16.7 % 500 ns/IO" in lines
    # without kb_*'s 1/6: (2/6 + 1/6) / (5/6)
    assert "own's floor: with kb_* costing nothing, set-up and clock alone would be 60.0 %" in lines
