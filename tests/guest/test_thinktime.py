"""fio's thinktime, done by the kernel's workers, seen by the block layer.

A worker with thinktime pauses after thinktime_blocks completions, with
nothing in flight (the I/O in flight drains first, as fio's io_u_quiesce()
does), for thinktime (spinning thinktime_spin of it); thinktime_iotime adds a
pause after that much I/O time.  The proof is the timestamps of the
block layer's tracepoints for the I/Os a null_blk device was given (D:
dispatched to the driver, C: completed), not the tool's echo; Debian's
fio 3.33 runs the same job file in the same guest under the same trace.

Tolerances: a pause is an hrtimer sleep, which never ends early, so a
pause's gap between two dispatches is at least thinktime (9.5 ms is asked
of a 10 ms pause, for the trace's microsecond print); in TCG a wake-up adds
0.05-0.1 ms and a loaded host a few ms, so the pauses' median must stay
under 15 ms, and an I/O's own gap (tens of microseconds on null_blk) may
reach 9.5 ms in at most 2 % of the other gaps (a host preemption).  Core:
the sleeping, spinning and draining are the kernel's, whose timers and
scheduling differ between 6.1, 6.12, 6.12-rt and the debug kernel.
"""
from __future__ import annotations

import json
import statistics

import pytest

from kb import block_events, dev_bios, run_job

PAUSE_NS = 10_000_000
GAP_NS = 9_500_000  # a pause's gap is at least this (see above)
SLOW = 300


def trace(guest, dev: str, cmd: str) -> list[tuple[str, int]]:
    """(event, ns) of the D and C events of dev while cmd runs, in time order."""
    return sorted(((e.action, e.ns) for e in block_events(guest, dev, cmd, "DC", SLOW)),
                  key=lambda e: e[1])


def pauses(ev: list[tuple[str, int]], gap_ns: int = GAP_NS) \
        -> tuple[list[int], list[int], list[int]]:
    """Of the gaps between consecutive dispatches: the indexes k of the
    pauses (the gaps of at least gap_ns, after the k-th I/O, from 1), their
    lengths, and the other gaps' lengths."""
    d = [t for e, t in ev if e == "D"]
    at, lens, others = [], [], []
    for k in range(1, len(d)):
        g = d[k] - d[k - 1]
        if g >= gap_ns:
            at.append(k)
            lens.append(g)
        else:
            others.append(g)
    return at, lens, others


def idle_before(ev: list[tuple[str, int]]) -> dict[int, int]:
    """{k: how long nothing had been in flight when the (k+1)-th I/O was
    dispatched}, for each gap of at least GAP_NS after the k-th dispatch
    (0: something was in flight)."""
    out, inflight, last_d, zero_at, k = {}, 0, None, 0, 0
    for e, t in ev:
        if e == "D":
            if last_d is not None and t - last_d >= GAP_NS:
                out[k] = t - zero_at if inflight == 0 else 0
            inflight += 1
            k += 1
            last_d = t
        else:
            inflight -= 1
            if inflight == 0:
                zero_at = t
    return out


def jobfile(guest, dev: str, body: str) -> str:
    guest.check(f"cat >/tmp/think.fio <<'EOF'\n[global]\nfilename={dev}\ndirect=1\n"
                f"ioengine=libaio\nrw=randread\nbs=4k\n[think]\n{body}\nEOF")
    return "/tmp/think.fio"


def check_pauses(what: str, at: list[int], lens: list[int], want: list[int],
                 nr_ios: int, pause_ns: int = PAUSE_NS) -> None:
    """Every pause wanted is there, and lasts under 1.5 times thinktime in
    the median; any other gap as long is a host stall, in at most 2 % of
    the other gaps."""
    got = dict(zip(at, lens))
    assert set(want) <= set(got), (what, sorted(set(want) - set(got)), at)
    assert statistics.median(got[k] for k in want) < 1.5 * pause_ns, (what, lens)
    stray = len(set(got) - set(want))
    assert stray <= 0.02 * (nr_ios - len(want)), (what, sorted(set(got) - set(want)))


@pytest.mark.timing
@pytest.mark.core
@pytest.mark.budget(120)
def test_thinktime_pauses_after_every_blocks_ios(guest, kiobench_module, make_nullb):
    """thinktime=10ms thinktime_blocks=4 at iodepth=1, 200 I/Os: a gap of at
    least 10 ms after the 4th, 8th, ... I/O and after no other, 49 pauses
    (none follows the last I/O; fio's follows it, unseen by the trace):
    the same as Debian's fio on the same file.  The kernel's status holds
    the settings.  Mutations: kb_think_count() ignoring thinktime_blocks
    (a pause after every I/O); the count not restarted at the trigger (a
    pause after the 4th I/O only); kb_think() not sleeping: red."""
    dev = make_nullb("nullb0", size_mb=64)
    f = jobfile(guest, dev, "iodepth=1\nnumber_ios=200\nthinktime=10ms\nthinktime_blocks=4")
    want = list(range(4, 200, 4))
    job = run_job(guest, f)
    s = job["kiobench"]["settings"]
    assert (s["thinktime_ns"], s["thinktime_spin_ns"], s["thinktime_blocks"],
            s["thinktime_iotime_ns"]) == (PAUSE_NS, 0, 4, 0), s
    for name, cmd in (("kiobench", f"kiobench run {f} --output=/dev/null"),
                      ("fio", f"fio --output=/dev/null {f}")):
        at, lens, _ = pauses(trace(guest, dev, cmd))
        check_pauses(name, at, lens, want, 200)


@pytest.mark.timing
@pytest.mark.core
@pytest.mark.budget(120)
def test_thinktime_drains_the_depth_first(guest, kiobench_module, make_nullb):
    """iodepth=4 thinktime_blocks=8, on a 2 ms timer-mode null_blk (so
    that four I/Os really are in flight): each pause starts when the last
    I/O in flight has completed, i.e. the device has nothing in flight for
    at least thinktime before the next dispatch, for kiobench as for fio.
    kiobench's pauses come after the 11th I/O (4 + 7 resubmitted before
    the 8th completion; 3 drain) and then every 8 (the drained completions
    count toward the next pause); fio's windows hold 8 I/Os on average
    too.  Mutation: kb_think_and_resume() called with I/O still in flight
    (the !w->inflight test dropped; the three in flight then complete 2 ms
    into the pause, leaving the device idle 8 ms): red."""
    dev = make_nullb("nullb0", size_mb=64, completion_nsec=2_000_000)
    f = jobfile(guest, dev, "iodepth=4\nnumber_ios=200\nthinktime=10ms\nthinktime_blocks=8")
    for name, cmd in (("kiobench", f"kiobench run {f} --output=/dev/null"),
                      ("fio", f"fio --output=/dev/null {f}")):
        ev = trace(guest, dev, cmd)
        idle = idle_before(ev)
        drained = sorted(k for k, ns in idle.items() if ns >= GAP_NS)
        if name == "kiobench":
            want = list(range(11, 200, 8))
            assert set(want) <= set(drained), (name, idle)
            assert statistics.median(idle[k] for k in want) < 15_000_000, (name, idle)
        # a gap without such an idle time is a host stall, rare
        assert len(idle) - len(drained) <= 4, (name, idle)
        # fio 3.33 on 6.1 paused after its 4th I/O too (its first
        # window differs): 26 pauses
        assert 22 <= len(drained) <= 27, (name, idle)
        windows = [b - a for a, b in zip(drained, drained[1:])]
        assert 7 <= statistics.mean(windows) <= 9, (name, drained)


@pytest.mark.timing
@pytest.mark.core
@pytest.mark.budget(120)
def test_thinktime_spin_spins_the_pause(guest, kiobench_module, make_nullb):
    """thinktime_spin=20ms of thinktime=20ms: the worker is on its CPU
    through the pauses (the kernel's cpu_ns, the kthread's run time, at
    least 80 % of the 24 pauses' 480 ms), while without it the same job
    sleeps them (cpu_ns under a third of that).  The gaps are the pauses
    either way.  Mutation: kb_think()'s spin loop ending at once: red."""
    dev = make_nullb("nullb0", size_mb=64)
    base = f"--filename={dev} --rw=randread --iodepth=1 --number_ios=100 --thinktime=20ms " \
           "--thinktime_blocks=4"
    spun = run_job(guest, f"{base} --thinktime_spin=20ms")["kiobench"]
    slept = run_job(guest, base)["kiobench"]
    assert spun["settings"]["thinktime_spin_ns"] == 20_000_000, spun["settings"]
    total = 24 * 20_000_000
    assert spun["cpu_ns"] >= 0.8 * total, spun
    assert slept["cpu_ns"] < total / 3, slept
    assert spun["elapsed_ns"] >= total and slept["elapsed_ns"] >= total


@pytest.mark.timing
@pytest.mark.core
@pytest.mark.budget(120)
def test_thinktime_iotime_pauses_by_time(guest, kiobench_module, make_nullb):
    """thinktime=100ms thinktime_iotime=100ms (no thinktime_blocks), on a
    0.1 ms timer-mode null_blk: a pause after each 100 ms of I/O, whatever
    the count, over a 2 s run.  The worker's clock restarts as the pause
    ends, just before its next dispatch, and the pause starts when it reaps
    the first completion past 100 ms: so from the first dispatch after one
    pause to the first after the next, at least 200 ms (less 30 ms: a
    dispatch after the clock's restart, delayed by a stall of the loaded
    TCG host, the longest stall seen below; 6.1 once showed a cycle shorter
    than 199 ms, and 6.12-rt one of 175.7 ms with two lanes' guests beside
    it under SCHED_IDLE, the rest 200-206 ms); and from that dispatch to the completion that triggered
    the next pause, 90 ms (a completion reaped up to 10 ms late: 3.8 ms
    was seen on 6.12-rt) to 130 ms.  Pauses this long stand out of the
    host's stalls (up to 30 ms were seen in a 10 ms version of this test).
    Mutation: the iotime test of kb_think_count() dropped (no pause at
    all): red."""
    dev = make_nullb("nullb0", size_mb=64, completion_nsec=100_000)
    cmd = (f"kiobench run --filename={dev} --rw=randread --iodepth=1 --runtime=2s "
           "--time_based --thinktime=100ms --thinktime_iotime=100ms --output=/dev/null")
    ev = trace(guest, dev, cmd)
    d = [t for e, t in ev if e == "D"]
    c = [t for e, t in ev if e == "C"]
    at, lens, _ = pauses(ev, 95_000_000)
    spans = [max(x for x in c if x < d[b]) - d[a] for a, b in zip(at, at[1:])]
    cycles = [d[b] - d[a] for a, b in zip(at, at[1:])]
    assert len(at) >= 8, (at, lens, spans, len(d), (d[-1] - d[0]) / 1e9)
    assert all(s >= 170_000_000 for s in cycles), (min(cycles), cycles, at)
    assert all(90_000_000 <= s <= 130_000_000 for s in spans), (spans, at, lens)
    assert statistics.median(lens) < 150_000_000, lens


@pytest.mark.timing
@pytest.mark.core
@pytest.mark.budget(60)
def test_thinktime_with_rate_catches_up_unless_ignored(guest, kiobench_module, make_nullb):
    """rate_iops=500 with a 100 ms pause after every 50 completions, 2 s
    time-based, one job file under fio and kiobench: without
    rate_ignore_thinktime the pause's arrivals go out when it ends (fio's
    catch-up) and the job keeps its rate, about 1000 I/Os (fio here:
    971); with it the rate resumes after each pause, about half as many
    (fio: 521).  Both within 15 % of fio's count on the same file, and
    the ignoring run below 0.7 times the catching-up one under both.
    The kernel's status says rate_ignore_thinktime.  Mutation:
    kb_think_and_resume() moving the schedule on whatever the flag
    (`if (1 || w->job->cfg.rate_ignore_thinktime)`): red."""
    dev = make_nullb("nullb0", size_mb=64)
    counts = {}
    for ig in (0, 1):
        f = jobfile(guest, dev, "iodepth=16\nrate_iops=500\nthinktime=100ms\n"
                                f"thinktime_blocks=50\nruntime=2\ntime_based\n"
                                f"rate_ignore_thinktime={ig}")
        job = run_job(guest, f)
        assert job["kiobench"]["settings"]["rate_ignore_thinktime"] == bool(ig)
        guest.check(f"fio --output-format=json --output=/tmp/think.json {f}")
        theirs = json.loads(guest.check("cat /tmp/think.json"))["jobs"][0]["read"]
        counts[ig] = (job["read"]["total_ios"], theirs["total_ios"])
        ours, fio = counts[ig]
        assert abs(ours - fio) <= 0.15 * fio, (ig, counts)
    for i, name in enumerate(("kiobench", "fio")):
        assert counts[1][i] < 0.7 * counts[0][i], (name, counts)


@pytest.mark.debug
@pytest.mark.budget(60)
def test_thinktime_pauses_bound_the_run_from_below(guest, kiobench_module, make_nullb):
    """The debug lane's thinktime (KASAN over the count, the spin, the
    sleep and the resumes), count-bounded so that a slow kernel only
    lengthens the run.  Closed loop: iodepth=4, 64 I/Os, a 200 ms pause
    (20 ms of it spun) after every 16 completions: 3 pauses (none after the
    last I/O), so the job takes at least 600 ms and does exactly 64 I/Os
    (the device's own count).  Open loop: rate_iops=100, 40 I/Os, a 100 ms
    pause after every 10, rate_ignore_thinktime: the schedule moves on by
    each pause, so the last arrival is at least 39 x 10 + 3 x 100 ms after
    the first (catching up instead, the job ends after ~400 ms).
    Mutations: kb_think() not sleeping (kb_sleep_until() dropped: 60 ms of
    spin); kb_think_count() not restarting the count (one pause); the
    schedule not moved on (`w->sched.next_ns += 0`): red."""
    dev = make_nullb("nullb0", size_mb=64)
    base = f"--filename={dev} --rw=randread"
    before = dev_bios(guest, dev)
    closed = run_job(guest, f"{base} --iodepth=4 --number_ios=64 --thinktime=200ms "
                            "--thinktime_spin=20ms --thinktime_blocks=16")
    assert closed["read"]["total_ios"] == 64 == dev_bios(guest, dev) - before, closed["read"]
    kb = closed["kiobench"]
    assert kb["state"] == "DONE" and kb["elapsed_ns"] >= 3 * 200_000_000, \
        (kb["state"], kb["elapsed_ns"])
    before = dev_bios(guest, dev)
    opened = run_job(guest, f"{base} --iodepth=4 --number_ios=40 --rate_iops=100 "
                            "--thinktime=100ms --thinktime_blocks=10 --rate_ignore_thinktime")
    assert opened["read"]["total_ios"] == 40 == dev_bios(guest, dev) - before, opened["read"]
    kb = opened["kiobench"]
    assert kb["settings"]["rate_ignore_thinktime"], kb["settings"]
    assert kb["state"] == "DONE" and kb["elapsed_ns"] >= 390_000_000 + 3 * 100_000_000, \
        (kb["state"], kb["elapsed_ns"])
