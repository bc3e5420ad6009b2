"""fio's latency_target: the kernel's workers find the highest depth at
which latency_percentile of the I/Os complete within latency_target.

The device: a timer-mode null_blk of one hardware queue with 4 tags
(submit_queues=1, hw_queue_depth=4) completing each I/O after 30 ms.  Up
to 4 I/Os in flight, each is served at once: in an idle TCG guest a 1 ms
timer fires after ~1.02 ms at least and ~1.1 ms on average, so a 30 ms
one after ~30.1 to 31 ms, under a 35 ms target (5 ms of slack).  Past 4,
the worker's next bio waits in submit_bio() for a tag (the worker submits
nothing else meanwhile, as fio's io_submit() does not), so the device
serves 4 at a time whatever the depth: each tag is busy again as soon as
it is freed, the 4 completions of each 30 ms period are 4 gaps summing to
at least 30 ms, and the bio that waits through a gap is late by it.  The
largest gap is at least 7.5 ms, so at least one I/O in four takes 37.5 ms
or more, over the target by 2.5 ms less the worker's wake-up: at depth 5
and more at most ~75 % are within, and latency_percentile=85 fails every
such window however the completions line up (with a 10 ms device and
a 15 ms target, evenly spread completions were all within, and one depth-5
window held with 85 %: CI, stop 32; with a 20 ms device and a 23 ms
target, a loaded RT guest's timers were over 3 ms late for 22 % of a
depth-2 window's I/Os: CI, session 14).  A host stall that fails one window at
depth 4 anyway (15 % of its ~66 I/Os 5 ms late) lands it at 3, where
fio's search ends too after such a window: 3 or 4 is accepted, never 5 or
more.

What is asserted comes from the kernel: the depth each worker ended at and
the windows it judged (debugfs latency_target), and the job's own end
(elapsed time, error), never the options echoed back.
"""
from __future__ import annotations

import json

import pytest

from kb import run_job

TAGS = 4
TARGET_US = 35000
WINDOW = "--latency_window=500ms"


def tagged_nullb(make_nullb) -> str:
    return make_nullb("nullb0", size_mb=64, completion_nsec=30_000_000, submit_queues=1,
                      hw_queue_depth=TAGS)


def curve(job: dict) -> tuple[dict, list[dict]]:
    lt = job["kiobench"]["latency_target"]
    assert len(lt["workers"]) == 1, lt
    return lt, lt["workers"][0]["curve"]


def brief(wins: list[dict]) -> list[tuple]:
    """(depth, I/Os, % within, pass) of each window: the assertions' message."""
    return [(x["depth"], x["ios"], round(100 * share(x)), x["pass"]) for x in wins]


def share(w: dict) -> float:
    return w["within"] / w["ios"]


@pytest.mark.timing
@pytest.mark.core
@pytest.mark.budget(30)
def test_latency_target_finds_the_tags(guest, kiobench_module, make_nullb):
    """iodepth=16, latency_target=35 ms, 85 %, 500 ms windows: the
    worker doubles from 1 while windows hold (1, 2, 4, 8), backs off from
    the first that fails, bisects down to the device's 4 tags, runs one
    last window there and ends, long before its 20 s runtime (fio's
    meaning without latency_run).  Every window judged deeper than the tags
    failed, with at most 85 % of its I/Os within the target; fio's JSON
    fields carry the depth found.  Mutations: kb_latt_complete() counting
    no I/O over the target (the search climbs to 16); kb_latt_park()
    never parking (16 in flight whatever the depth): red.

    Within the tags every I/O is served at once, so a window there fails
    only when the host stalls the guest: one such window is accepted (the
    search then ends at 3).  More than one is a longer stall, and the job
    is run again, up to twice: in CI (session 17, RT, an idle host) windows
    at depths 1, 4, 3 and 2 held 77-83 % of their I/Os within 35 ms, whose
    device takes 30, and the search ended at 1; in CI on 6.1 (session 40)
    two runs in a row stalled so.  The mutations fail windows within the
    tags too, and end far from them however often the job is run."""
    dev = tagged_nullb(make_nullb)
    args = (f"--filename={dev} --rw=randread --iodepth=16 --runtime=20s "
            f"--time_based --latency_target={TARGET_US} {WINDOW} --latency_percentile=85")
    job = run_job(guest, args)
    lt, wins = curve(job)
    for _ in range(2):
        if sum(x["depth"] <= TAGS and not x["pass"] for x in wins) <= 1:
            break
        print(f"a host stall failed windows within the tags: {brief(wins)}; once more")
        job = run_job(guest, args)
        lt, wins = curve(job)
    w = lt["workers"][0]
    where = (w, job["kiobench"]["elapsed_ns"])
    assert w["state"] == "done", where
    assert w["depth"] in (TAGS - 1, TAGS), str(brief(wins))
    assert job["latency_depth"] == w["depth"], (job["latency_depth"], where)
    assert (job["latency_target"], job["latency_window"], job["latency_percentile"]) == \
        (TARGET_US * 1000, 500_000, 85.0)
    # the walk: doubling from 1 up to the first failure
    assert [x["depth"] for x in wins[:3]] == [1, 2, 4], wins
    assert any(x["depth"] > TAGS and not x["pass"] for x in wins), wins
    for x in wins:
        assert x["pass"] == (share(x) >= 0.85), str(brief(wins))
        if x["depth"] > TAGS:
            assert not x["pass"] and share(x) < 0.85, str(brief(wins))
    # the last window ran at the depth found, and held
    assert wins[-1]["depth"] == w["depth"] and wins[-1]["pass"], wins
    # ended by the search: ~8 windows of 500 ms, not the 20 s runtime
    assert job["kiobench"]["elapsed_ns"] < 12e9, where


@pytest.mark.timing
@pytest.mark.budget(30)
def test_latency_target_as_fio(guest, kiobench_module, make_nullb):
    """One job file, with fio's units (bare times in us, a percentile with
    decimals), under Debian's fio 3.33 and kiobench on the same device in
    the same guest: kiobench settles on the tags (3 or 4, as above) and
    ends long before the runtime, and its JSON job has fio's four fields,
    with fio's values for the settings (the target in ns, the window in
    us).  fio's depth is not compared: fio times a completion when its
    thread reaps it, so in this guest its latencies carry the wake-up of a
    userspace thread on a loaded TCG host (its minimum was 10.2 ms, its
    maximum 30 ms at depth 2), and it settled on 2, then 1, on two runs:
    what kiobench's timing in bi_end_io is for.  Mutation: json_out.c's
    latency_window not turned into us: red."""
    dev = tagged_nullb(make_nullb)
    guest.check(f"cat >/tmp/latt.fio <<'EOF'\n[global]\nfilename={dev}\ndirect=1\n"
                "ioengine=libaio\nrw=randread\nbs=4k\niodepth=16\nruntime=20\n"
                f"time_based\n[latt]\nlatency_target={TARGET_US}\nlatency_window=500000\n"
                "latency_percentile=85.0\nEOF")
    kb = run_job(guest, "/tmp/latt.fio")
    r = guest.run("fio --output-format=json --output=/tmp/fio.json /tmp/latt.fio", timeout=60)
    assert r.rc == 0, r.out
    fio = json.loads(guest.check("cat /tmp/fio.json"))["jobs"][0]
    keys = ("latency_target", "latency_window", "latency_percentile")
    assert [kb[k] for k in keys] == [fio[k] for k in keys], (kb, fio)
    assert kb["latency_depth"] in (TAGS - 1, TAGS), str(brief(curve(kb)[1]))
    assert kb["kiobench"]["elapsed_ns"] < 12e9, kb["kiobench"]["elapsed_ns"]


@pytest.mark.timing
@pytest.mark.core
@pytest.mark.budget(30)
def test_latency_run_keeps_searching(guest, kiobench_module, make_nullb):
    """latency_run=1 on the same device, 4 s time_based: the worker never
    ends its search but with the job, which runs its 4 s whole, judging a
    window every ~500 ms to the end (at least 6, the last ending in the
    last second); and once a window past the tags has failed, it never
    goes past 6 again (the bisection's step between 4 that held and 8 that
    failed; fio's creep adds one to the highest after three windows held
    just below it, and every window past the tags fails).  Mutation:
    kb_latt_up() ending the search with latency_run too: red."""
    dev = tagged_nullb(make_nullb)
    job = run_job(guest, f"--filename={dev} --rw=randread --iodepth=16 --runtime=4s "
                  f"--time_based --latency_target={TARGET_US} {WINDOW} "
                  "--latency_percentile=85 --latency_run=1")
    lt, wins = curve(job)
    w = lt["workers"][0]
    assert lt["run"] and w["state"] == "search", w
    assert job["kiobench"]["elapsed_ns"] >= 4e9, job["kiobench"]["elapsed_ns"]
    assert w["windows"] >= 6 and wins[-1]["end_ns"] >= 3e9, str(brief(wins))
    first = next((k for k, x in enumerate(wins) if x["depth"] > TAGS and not x["pass"]),
                 len(wins))
    assert all(x["depth"] <= 6 for x in wins[first + 1:]), str(brief(wins))


@pytest.mark.core
@pytest.mark.debug
@pytest.mark.budget(30)
def test_latency_target_fails_at_depth_one(guest, kiobench_module, make_nullb):
    """latency_target=500us with the default percentile (100) on the 30 ms
    device: the first completion, at depth 1, is over the target, which
    fails the job with ETIMEDOUT at once, as fio's lat_fatal() does.
    Mutation: the depth-1 case of kb_latt_step() stepping down like any
    other (the job then runs its 10 s): red."""
    dev = tagged_nullb(make_nullb)
    r = guest.run(f"kiobench run --filename={dev} --rw=randread --iodepth=8 --runtime=10s "
                  "--time_based --latency_target=500 --output-format=json "
                  "--output=/tmp/latt.json", timeout=60)
    assert r.rc != 0, r.out
    out = guest.check("cat /tmp/latt.json")
    job = json.loads(out)["jobs"][0]
    assert job["error"] == 110, (job["error"], r.out)  # ETIMEDOUT
    assert job["kiobench"]["elapsed_ns"] < 2e9, job["kiobench"]["elapsed_ns"]
    wins = job["kiobench"]["latency_target"]["workers"][0]["curve"]
    assert wins and wins[0]["depth"] == 1 and not wins[0]["pass"], wins


@pytest.mark.debug
@pytest.mark.timing  # a window's count: 200 ms a starved guest may lose most of
@pytest.mark.budget(30)
def test_latency_target_fills_each_depth_it_climbs_to(guest, kiobench_module, make_nullb):
    """The debug lane's climb: a 1 s target that a 10 ms device (64 tags)
    always meets, 200 ms windows, iodepth=8: windows at depths 1, 2, 4, 8
    and the last one at 8, all held, and the search ends long before the
    runtime.  What each window did is the kernel's count of its I/Os, not
    the depth it names: at depth 8 at least 3 times the I/Os of depth 1 (8
    times at best; slowness only makes depth 1's fewer).  Mutation:
    kb_latt_fill() submitting nothing (`while (0 && w->idle ...)`: the
    parked slots stay parked, one I/O in flight at every depth): red."""
    dev = make_nullb("nullb0", size_mb=64, completion_nsec=10_000_000)
    job = run_job(guest, f"--filename={dev} --rw=randread --iodepth=8 --runtime=20s "
                         "--time_based --latency_target=1000000 --latency_window=200ms")
    lt, wins = curve(job)
    w = lt["workers"][0]
    assert w["state"] == "done" and w["depth"] == 8, (w, brief(wins))
    assert [x["depth"] for x in wins] == [1, 2, 4, 8, 8], brief(wins)
    assert all(x["pass"] for x in wins), brief(wins)
    assert wins[3]["ios"] >= 3 * wins[0]["ios"], brief(wins)
    assert wins[4]["ios"] >= 3 * wins[0]["ios"], brief(wins)
    assert job["kiobench"]["elapsed_ns"] < 10e9, job["kiobench"]["elapsed_ns"]
