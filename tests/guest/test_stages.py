"""--stages: the per-stage latency split (kmod/stages.c, tools/stages_out.c).

Per I/O, queue + device + complete is the latency exactly, so the stage
sums of the debugfs files add up to the histogram's sum to the
nanosecond, and their means to the mean latency; every I/O of a
request-based device is split when nothing merges (nomerges=2), and none
of a bio-based one (dm).  The tracepoint that stamped each I/O is counted in
/sys/kernel/debug/kiobench/stages, which proves that NVMe takes nvme_sq
and that the probes are attached only while a job with stages runs.

TCG makes absolute times meaningless, so every bound on time is a ratio
or a floor, with tolerances from facts measured in such guests:
timer-mode null_blk never completes before its completion_nsec and
overshoots it (1 ms gives ~1.02 ms minimum and ~1.1 ms mean on Debian's
6.1 and 6.12, ~2.4 ms mean on 6.12-rt, where the timer expires in a
thread, more on the KASAN debug kernel or a loaded host), so the device
stage of a 1 ms device is bounded below by 1 ms exactly, and holds most
of the latency.
"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from kb import (DEBUGFS, blktraced, destroy_job, hist, parse_hist, queue_attr, run_job,
                set_queue, stat_path, wait_for)
from vm.targets import dm_linear, dm_remove, md_raid0, md_stop, nvme_dev

# QEMU 10: the probes attach and detach (static keys flip) while other jobs'
# I/O runs the patched sites, which QEMU 7.2's TCG gets wrong (vm/guest.py)
GUEST_ARGS = {"nvme_size": 256 << 20, "qemu10": True}
PLOT = Path(__file__).resolve().parents[2] / "tools" / "kiobench-plot"
STAGES = ("queue", "device", "complete")
WHYS = ("split", "no_request", "no_driver", "disordered", "sync_call")  # of the unsplit
SLOW = 600
ROUNDS = 3  # of test_stages_jobs_come_and_go_among_others


def stage_files(guest, job: dict, d: str) -> dict:
    """{stage: Hist} of the job's debugfs stage_<stage>_<dir> files."""
    jid = job["kiobench"]["job_id"]
    return {s: parse_hist(guest.check(f"cat {DEBUGFS}/job{jid}/stage_{s}_{d}")) for s in STAGES}


def tp_stamps(guest) -> dict[str, tuple[str, int]]:
    """{tracepoint: (attached, stamps)} of /sys/kernel/debug/kiobench/stages."""
    out = guest.check(f"cat {DEBUGFS}/stages")
    return {m[0]: (m[1], int(m[2])) for m in re.findall(r"^(\w+) (\w+) (\d+)$", out, re.M)}


def delta(before: dict, after: dict) -> dict[str, int]:
    return {k: after[k][1] - before[k][1] for k in after}


def check_adds_up(guest, job: dict, d: str) -> None:
    """Every measured I/O of direction d split, and the split exact."""
    r, st = job[d], job["kiobench"]["stages"][d]
    n = r["total_ios"]
    assert n > 0
    assert st["unsplit"] == 0, st
    assert st["unsplit_why"] == dict.fromkeys(WHYS, 0), st
    files = stage_files(guest, job, d)
    total = hist(guest, job, d)
    for s in STAGES:
        assert st[s]["N"] == n, (s, st[s])
        assert files[s].samples == files[s].count == n, s
        assert int(files[s].header["unsplit"]) == 0, s
        assert all(int(files[s].header[f"unsplit_{w}"]) == 0 for w in WHYS), files[s].header
    # per I/O exact, so the sums are: not one nanosecond lost or added
    assert sum(int(files[s].header["sum"]) for s in STAGES) == int(total.header["sum"])
    means = sum(st[s]["mean"] for s in STAGES)
    assert abs(means / r["clat_ns"]["mean"] - 1) <= 0.01, (means, r["clat_ns"]["mean"])
    for s in STAGES:
        assert st[s]["min"] <= st[s]["mean"] <= st[s]["max"] <= r["clat_ns"]["max"], s
        assert set(st[s]["percentile"]) >= {"50.000000", "99.000000"}, s


@pytest.mark.core
@pytest.mark.debug
def test_stages_add_up_to_the_latency(guest, kiobench_module, make_nullb):
    """Reads and writes on a request-based null_blk (queue_mode=2) that
    never merges: each stage counts every measured I/O, and the stages of
    all I/Os add up to the latency sum exactly."""
    dev = make_nullb("nullb0", size_mb=64, queue_mode=2)
    set_queue(guest, dev, nomerges=2)
    before = tp_stamps(guest)
    job = run_job(guest, f"--filename={dev} --rw=randrw --rwmixread=60 --allow-writes "
                         f"--bs=4k --iodepth=8 --number_ios=2000 --ramp_time=0 --stages",
                  keep=True, timeout=SLOW)
    for d in ("read", "write"):
        check_adds_up(guest, job, d)
    # ramp 0: every I/O is measured, and each was stamped once per tracepoint
    d = delta(before, tp_stamps(guest))
    assert d["block_rq_issue"] == d["block_rq_complete"] == 2000, d
    assert d["nvme_sq"] == 0, d
    destroy_job(guest, job)


def test_trims_are_split_too(guest, kiobench_module, make_nullb):
    """Trims (REQ_OP_DISCARD requests) on a request-based null_blk with
    discard that never merges: each is split into the three stages, which
    add up to the trims' latency exactly, under fio's "trim".  Mutation:
    kb_stages_json() over reads and writes only: red (no trim stages)."""
    dev = make_nullb("nullb0", size_mb=64, queue_mode=2, discard=1)
    set_queue(guest, dev, nomerges=2)
    job = run_job(guest, f"--filename={dev} --rw=randtrim --allow-writes --bs=4k "
                         f"--iodepth=8 --number_ios=1000 --ramp_time=0 --stages",
                  keep=True, timeout=SLOW)
    check_adds_up(guest, job, "trim")
    assert job["read"]["total_ios"] == job["write"]["total_ios"] == 0
    destroy_job(guest, job)


# Not debug: its bounds are times, which run alone (timing), and the debug
# kernel's checkers see the same stamping and probes in
# test_stages_add_up_to_the_latency, and NVMe's hard-IRQ completions in
# test_nvme_takes_nvme_sq and test_stages_jobs_come_and_go_among_others.
@pytest.mark.timing
@pytest.mark.core
def test_timer_device_stage_holds_the_injected_latency(guest, kiobench_module, make_nullb):
    """1 ms timer-mode null_blk: the device stage is never below 1 ms (the
    timer starts after the issue) and holds the timer's overshoot, most of
    the latency; queue and complete are a small part of it."""
    dev = make_nullb("nullb0", size_mb=64, queue_mode=2, completion_nsec=1_000_000)
    set_queue(guest, dev, nomerges=2)
    job = run_job(guest, f"--filename={dev} --rw=randread --bs=4k --iodepth=4 "
                         f"--number_ios=2000 --stages", keep=True, timeout=SLOW)
    check_adds_up(guest, job, "read")
    st = job["kiobench"]["stages"]["read"]
    assert st["device"]["min"] >= 1_000_000, st["device"]
    # the timer's overshoot is the device's too: on Debian's 6.1 and 6.12
    # ~1.1 ms in all, on 6.12-rt (timers expire in a thread) ~2.4 ms
    assert st["device"]["mean"] >= 0.8 * job["read"]["clat_ns"]["mean"], st
    assert st["queue"]["mean"] + st["complete"]["mean"] < 0.25 * st["device"]["mean"], st
    destroy_job(guest, job)


def queue_mean(guest, dev: str, sched: str) -> float:
    set_queue(guest, dev, scheduler=sched)
    job = run_job(guest, f"--filename={dev} --rw=randread --bs=4k --iodepth=1 "
                         f"--number_ios=4000 --stages", timeout=SLOW)
    st = job["kiobench"]["stages"]["read"]
    assert st["unsplit"] == 0 and st["queue"]["N"] == 4000, st
    return st["queue"]["mean"]


@pytest.mark.timing
def test_mq_deadline_grows_the_queue_stage(guest, kiobench_module, make_nullb):
    """The same load with mq-deadline and with none: a scheduler adds
    insertion, sorting and dispatch to every request, in the queue stage.
    At QD1 the plug holds one bio, so nothing but that path is in it.
    Measured on 6.12, four pairs in one guest: none 5.2-7.4 us, mq-deadline
    10.9-15.8 us.  Once in CI (session 17) mq-deadline's run gave 6.6 us
    against none's 5.9: below 1.2 x, the pair is measured once more and
    the sums compared.  Mutation: the queue stage not holding the
    scheduler's work would give ~1 x in both (not tried)."""
    dev = make_nullb("nullb0", size_mb=64, queue_mode=2, hw_queue_depth=64)
    set_queue(guest, dev, nomerges=2)
    none = queue_mean(guest, dev, "none")
    deadline = queue_mean(guest, dev, "mq-deadline")
    figures = f"queue mean: none {none:.0f} ns, mq-deadline {deadline:.0f} ns"
    if deadline <= 1.2 * none:
        n2, d2 = queue_mean(guest, dev, "none"), queue_mean(guest, dev, "mq-deadline")
        figures += f"; again: none {n2:.0f} ns, mq-deadline {d2:.0f} ns"
        none, deadline = none + n2, deadline + d2
    assert deadline > 1.2 * none, figures


@pytest.mark.core
@pytest.mark.debug
def test_nvme_takes_nvme_sq(guest, kiobench_module):
    """On QEMU's NVMe every I/O's driver completion is stamped by nvme_sq
    (nvme-core: a module on Debian's kernels, found through the module
    notifier; built in on the debug kernel), none by block_rq_complete."""
    dev = nvme_dev(guest)
    set_queue(guest, dev, nomerges=2)
    before = tp_stamps(guest)
    job = run_job(guest, f"--filename={dev} --rw=randread --bs=4k --iodepth=4 "
                         f"--number_ios=3000 --ramp_time=0 --stages", keep=True, timeout=SLOW)
    check_adds_up(guest, job, "read")
    d = delta(before, tp_stamps(guest))
    assert d["nvme_sq"] == d["block_rq_issue"] == 3000, d
    assert d["block_rq_complete"] == 0, d
    destroy_job(guest, job)
    builtin = guest.run("grep -qw nvme_core /proc/modules").rc != 0
    assert tp_stamps(guest)["nvme_sq"][0] == "no"  # detached again
    nvme_kind = "builtin" if builtin else "module"
    # while a stages job runs, nvme_sq is attached, from where it lives
    start_bg(guest, f"--filename={dev} --rw=randread --runtime=60 --time_based --stages", "nv")
    wait_for(guest, f"grep -q '^nvme_sq {nvme_kind} ' {DEBUGFS}/stages", "nvme_sq attached")
    guest.check("kill -INT $(pidof kiobench)")
    assert bg_result(guest, "nv")[0] == 0


def test_polled_nvme_is_split_by_nvme_sq(guest, kiobench_module):
    """--hipri on NVMe poll queues: bio_poll() reaps the completion queue
    entry in the worker (nvme_sq there) and bi_end_io runs after, in the
    same task: every I/O is split, by nvme_sq."""
    nvme_dev(guest)
    if guest.run("grep -qw '^nvme' /proc/modules").rc:
        pytest.skip("nvme is built in: its poll queues are set at boot")
    guest.check("rmmod nvme && modprobe nvme poll_queues=2", timeout=SLOW)
    job = None
    try:
        dev = nvme_dev(guest)
        assert queue_attr(guest, dev, "io_poll") == "1"
        set_queue(guest, dev, nomerges=2)
        before = tp_stamps(guest)
        job = run_job(guest, f"--filename={dev} --rw=randread --bs=4k --iodepth=4 --hipri "
                             f"--number_ios=2000 --ramp_time=0 --stages", keep=True,
                      timeout=SLOW)
        assert job["kiobench"]["completion"] == "poll"
        check_adds_up(guest, job, "read")
        d = delta(before, tp_stamps(guest))
        assert d["nvme_sq"] == d["block_rq_issue"] == 2000 and d["block_rq_complete"] == 0, d
    finally:
        if job:
            destroy_job(guest, job)  # it holds the device: rmmod would fail
        guest.check("rmmod nvme && modprobe nvme", timeout=SLOW)


def test_nvme_core_unloaded_and_loaded_during_a_stages_job(guest, kiobench_module, make_nullb):
    """nvme-core (a module on Debian's 6.12) goes while a stages job runs
    on another device: its tracepoint is detached first (else the kernel
    warns that a going module still has probes), and attached again when
    it comes back."""
    nvme_dev(guest)
    if guest.run("grep -qw nvme_core /proc/modules").rc != 0:
        pytest.skip("nvme-core is built in")
    dev = make_nullb("nullb0", size_mb=64, completion_nsec=1_000_000)
    start_bg(guest, f"--filename={dev} --rw=randread --runtime=120 --time_based --stages", "nb")
    wait_for(guest, f"grep -q '^nvme_sq module ' {DEBUGFS}/stages", "nvme_sq attached")
    guest.check("rmmod nvme nvme_core", timeout=SLOW)
    assert tp_stamps(guest)["nvme_sq"][0] == "no"
    assert tp_stamps(guest)["block_rq_issue"][0] == "builtin"
    guest.check("modprobe nvme", timeout=SLOW)
    wait_for(guest, f"grep -q '^nvme_sq module ' {DEBUGFS}/stages", "nvme_sq attached again")
    guest.check("kill -INT $(pidof kiobench)")
    assert bg_result(guest, "nb")[0] == 0
    assert tp_stamps(guest)["nvme_sq"][0] == "no"


def request_based(guest, dev: str) -> bool:
    """Whether dev is a blk-mq device (has an mq directory in sysfs)."""
    return guest.run(f"test -d /sys/class/block/$(basename $(readlink -f {dev}))/mq").ok


@pytest.mark.core
def test_bio_based_devices_are_unsplit(guest, kiobench_module, make_nullb):
    """A dm-linear target, an md RAID-0 array keeping its I/O statistics
    (the default), and null_blk queue_mode=0 where the kernel still has it
    (6.1; 6.12 makes it blk-mq), never put kiobench's bio into a request of
    their own: dm and md send clones down (md for its accounting,
    md_account_bio()), so every I/O is unsplit and none guessed, though
    their members are request-based."""
    bio = make_nullb("nullb0", size_mb=64, queue_mode=0)
    mq = make_nullb("nullb1", size_mb=64, queue_mode=2)
    members = [make_nullb(f"nullb{i}", size_mb=32, queue_mode=2) for i in (2, 3)]
    lin = dm_linear(guest, "kblin", mq)
    md = md_raid0(guest, "md0", members)
    devs = [lin, md] + ([] if request_based(guest, bio) else [bio])
    try:
        for dev in devs:
            assert not request_based(guest, dev), dev
            job = run_job(guest, f"--filename={dev} --rw=randread --bs=4k --iodepth=4 "
                                 f"--number_ios=1000 --stages", timeout=SLOW)
            st = job["kiobench"]["stages"]["read"]
            assert st["unsplit"] == job["read"]["total_ios"] == 1000, (dev, st)
            assert st["unsplit_why"] == {**dict.fromkeys(WHYS, 0), "no_request": 1000}, st
            assert all(st[s]["N"] == 0 for s in STAGES), (dev, st)
    finally:
        md_stop(guest, md)
        dm_remove(guest, "kblin")


@pytest.mark.core
def test_md_passing_the_bio_itself_down_is_split(guest, kiobench_module, make_nullb):
    """md clones a bio for its accounting, md_account_bio(): on 6.1 only
    while the array keeps I/O statistics.  With its queue/iostats at 0,
    6.1's RAID-0 sends kiobench's bio itself to a member, whose request
    then carries that bio alone: stamped, and the split is exact (measured:
    1000 of 1000 split, 32.7 + 9.7 + 0.5 us = the 42.9 us mean).  6.12 and
    later clone every bio, and every I/O stays unsplit."""
    members = [make_nullb(f"nullb{i}", size_mb=32, queue_mode=2) for i in (0, 1)]
    for m in members:
        set_queue(guest, m, nomerges=2)
    md = md_raid0(guest, "md0", members)
    try:
        set_queue(guest, md, iostats=0)
        job = run_job(guest, f"--filename={md} --rw=randread --bs=4k --iodepth=4 "
                             f"--number_ios=1000 --ramp_time=0 --stages", keep=True, timeout=SLOW)
        if guest.kernel.version.startswith("6.1."):
            check_adds_up(guest, job, "read")
        else:
            st = job["kiobench"]["stages"]["read"]
            assert st["unsplit"] == job["read"]["total_ios"] == 1000, st
        destroy_job(guest, job)
    finally:
        md_stop(guest, md)


def read_stat(guest, dev: str) -> tuple[int, int]:
    """(reads completed, reads merged) of dev's stat file: the block
    layer's own count of the requests and of the bios merged into them."""
    f = guest.check(f"cat {stat_path(dev)}").split()
    return int(f[0]), int(f[1])


def run_out(guest, args: str) -> tuple[dict, str]:
    """`kiobench run ARGS` in both formats: (the job's JSON, the table)."""
    out = guest.check(f"kiobench run {args} --output-format=normal,json "
                      f"--output=/tmp/st.out && cat /tmp/st.out", timeout=SLOW)
    start = out.index("\n{") + 1
    return json.loads(out[start:])["jobs"][0], out[:start]


@pytest.mark.core
@pytest.mark.debug
def test_every_io_is_attributed(guest, kiobench_module, make_nullb):
    """Sequential reads under kiobench's plug merge (reads merged in the
    device's stat file > 0): every bio of a merged request gets the
    request's issue and completion, so every I/O is split, the count of
    the device's stat file (requests + merged bios) is the job's, and the
    stages add up to the latency exactly.  Then 128 KiB reads through a
    64 KiB max_sectors_kb: the block layer splits each over two requests
    (twice the job's reads in the stat file), and every I/O is unsplit,
    counted under "split" in debugfs, the JSON and the table.  Seen before:
    a 1 ms QD 8 random read job split 16319 of 16325 I/Os, the 6 others
    the 3 merges the stat file counted.  Mutations: the issue probe
    stamping rq->bio only: red (merged I/Os counted no_request); the split
    test (bi_size != len) removed: red (split I/Os stamped)."""
    dev = make_nullb("nullb0", size_mb=64, queue_mode=2)
    st0, before = read_stat(guest, dev), tp_stamps(guest)
    job = run_job(guest, f"--filename={dev} --rw=read --bs=4k --iodepth=8 --number_ios=1000 "
                         f"--ramp_time=0 --stages", keep=True, timeout=SLOW)
    reqs, merged = (a - b for a, b in zip(read_stat(guest, dev), st0))
    assert merged > 0 and reqs + merged == job["read"]["total_ios"] == 1000, (reqs, merged)
    check_adds_up(guest, job, "read")
    d = delta(before, tp_stamps(guest))
    assert d["block_rq_issue"] == d["block_rq_complete"] == 1000, d
    destroy_job(guest, job)

    set_queue(guest, dev, max_sectors_kb=64)
    st0 = read_stat(guest, dev)
    job, table = run_out(guest, f"--filename={dev} --rw=randread --bs=128k --iodepth=4 "
                                f"--number_ios=100 --ramp_time=0 --stages")
    reqs, merged = (a - b for a, b in zip(read_stat(guest, dev), st0))
    assert reqs + merged == 2 * job["read"]["total_ios"] == 200, (reqs, merged)
    st = job["kiobench"]["stages"]["read"]
    assert st["unsplit"] == 100 and all(st[s]["N"] == 0 for s in STAGES), st
    assert st["unsplit_why"] == {**dict.fromkeys(WHYS, 0), "split": 100}, st
    assert re.search(r"stages \(read\): 0 of 100 I/Os split, 100 unsplit\n"
                     r"\s+100 I/Os have no stages: 100 split by the block layer over several "
                     r"requests; their latency", table), table


@pytest.mark.core
def test_probes_only_while_a_stages_job_runs(guest, kiobench_module, make_nullb):
    """Attached at the first stages job's start, detached at the last
    one's end; a job without stages attaches nothing, and while a stages
    job runs its bios are not stamped."""
    # a's stages jobs stamp at most 2 x 20 I/Os a second (50 ms each, QD1)
    a = make_nullb("nullb0", size_mb=64, completion_nsec=50_000_000)
    b = make_nullb("nullb1", size_mb=64, queue_mode=2)
    set_queue(guest, b, nomerges=2)
    assert tp_stamps(guest)["block_rq_issue"][0] == "no"
    run_job(guest, f"--filename={b} --number_ios=500")
    assert tp_stamps(guest)["block_rq_issue"][0] == "no"
    start_bg(guest, f"--filename={a} --rw=randread --runtime=600 --time_based --stages", "s1")
    start_bg(guest, f"--filename={a} --rw=randread --runtime=600 --time_based --stages", "s2")
    wait_for(guest, f"grep -q '^# jobs 2$' {DEBUGFS}/stages", "two stages jobs")
    before = tp_stamps(guest)
    job = run_job(guest, f"--filename={b} --rw=randread --number_ios=2000")
    assert "stages" not in job["kiobench"] or not job["kiobench"]["stages"]
    after = tp_stamps(guest)
    # the stages jobs on a stamped theirs meanwhile, b's 2000 were not
    assert delta(before, after)["block_rq_issue"] < 1000, delta(before, after)
    # one tool interrupted, and waited for until it has exited: a second
    # SIGINT (interrupt_all's) while it still prints would kill it (130)
    pid = guest.check("pidof kiobench | cut -d' ' -f1").strip()
    guest.check(f"kill -INT {pid}")
    wait_for(guest, f"grep -q '^# jobs 1$' {DEBUGFS}/stages", "one stages job")
    assert tp_stamps(guest)["block_rq_issue"][0] == "builtin"
    wait_for(guest, f"! kill -0 {pid} 2>/dev/null", "the interrupted kiobench to exit")
    interrupt_all(guest)
    for name in ("s1", "s2"):
        assert bg_result(guest, name)[0] == 0
    assert tp_stamps(guest)["block_rq_issue"][0] == "no"
    assert "# jobs 0" in guest.check(f"cat {DEBUGFS}/stages")


@pytest.mark.core
@pytest.mark.debug
def test_rmmod_during_a_stages_job(guest, kiobench_module, make_nullb):
    """rmmod stops the stages job, detaches the probes and waits for them:
    the device's I/O stops with rmmod (its stat file is frozen after), and
    block I/O afterwards, which fires every block tracepoint the probes
    were on, runs no code of the unloaded module: no splat.  (A freshly
    loaded module's debugfs saying "no" probe proved nothing: a new module
    has none.)  Mutation: kb_tp_detach() not unregistering its probe
    (the tracepoint_probe_unregister() line removed): the I/O after rmmod
    calls into freed module text: red."""
    dev = make_nullb("nullb0", size_mb=64, queue_mode=2)
    name = dev.rsplit("/", 1)[1]
    guest.check(f"(kiobench run --filename={dev} --rw=randread --iodepth=16 --runtime=600 --time_based "
                f"--stages --detach >/dev/null 2>&1 &)")
    wait_for(guest, f"grep -q '^# jobs 1$' {DEBUGFS}/stages", "the stages job")
    mark = guest.dmesg_mark("rmmod during a stages job")
    ios = f"$(awk '{{print $1}}' /sys/block/{name}/stat)"
    out = guest.check(f"rmmod kiobench; echo {ios}; sleep 1; echo {ios}", timeout=SLOW)
    after, later = out.split()
    assert after == later, f"I/O went on after rmmod returned: {after} -> {later}"
    guest.check("! test -e /sys/module/kiobench")
    # block I/O through the tracepoints the probes were attached to
    guest.check(f"dd if={dev} of=/dev/null bs=4k count=256 iflag=direct 2>/dev/null")
    assert int(guest.check(f"awk '{{print $1}}' /sys/block/{name}/stat")) >= int(later) + 256
    splats = guest.scan_log(guest.dmesg_since(mark))
    assert not splats, "\n".join(str(sp) for sp in splats)
    guest.check("modprobe kiobench")  # usable again; the fixture unloads it
    assert tp_stamps(guest)["block_rq_issue"] == ("no", 0)


@pytest.mark.debug
@pytest.mark.budget(40)
def test_stages_jobs_come_and_go_among_others(guest, kiobench_module, make_nullb):
    """Jobs with and without stages started, stopped and ended at random
    moments on several devices, NVMe among them: attach and detach race
    with running probes and with each other."""
    devs = [make_nullb(f"nullb{i}", size_mb=32, queue_mode=2) for i in range(2)]
    devs.append(nvme_dev(guest))
    for i, dev in enumerate(devs):
        start_bg(guest, f"--filename={dev} --rw=randread --iodepth=4 --runtime=600 --time_based", f"bg{i}")
    running = len(devs)
    for rnd in range(ROUNDS):
        dev = devs[rnd % len(devs)]
        job = run_job(guest, f"--filename={dev} --rw=randread --iodepth={1 + rnd} "
                             f"--number_ios={200 * (1 + rnd)} --stages", timeout=SLOW)
        st = job["kiobench"]["stages"]["read"]
        assert st["queue"]["N"] + st["unsplit"] == job["read"]["total_ios"], st
        start_bg(guest, f"--filename={dev} --rw=randread --runtime=600 --time_based --stages", f"st{rnd}")
        running += 1
        if rnd % 2:
            wait_running(guest, running)
            guest.check("kill -INT $(pidof kiobench | tr ' ' '\\n' | tail -1)")
            running -= 1
    wait_running(guest, running)
    interrupt_all(guest)
    for name in [f"bg{i}" for i in range(len(devs))] + [f"st{r}" for r in range(ROUNDS)]:
        rc, out = bg_result(guest, name)
        assert rc in (0, 130), (name, out)
    assert tp_stamps(guest)["block_rq_issue"][0] == "no"


def test_normal_output_has_the_stage_table(guest, kiobench_module, make_nullb):
    lin = dm_linear(guest, "kblin", make_nullb("nullb0", size_mb=64))
    try:
        out = guest.check(f"kiobench run --filename={lin} --rw=randread --number_ios=200 "
                          f"--stages")
    finally:
        dm_remove(guest, "kblin")
    assert re.search(r"stages \(read\): 0 of 200 I/Os split, 200 unsplit", out), out
    assert "200 I/Os have no stages: 200 never issued to a driver in a request" in out, out
    assert "stage (usec)" not in out, out
    dev = make_nullb("nullb1", size_mb=64, queue_mode=2)
    set_queue(guest, dev, nomerges=2)
    out = guest.check(f"kiobench run --filename={dev} --rw=randread --number_ios=200 --stages")
    assert re.search(r"stages \(read\): 200 of 200 I/Os split, 0 unsplit", out), out
    rows = re.findall(r"^\s+(queue|device|complete)\s.*\s([\d.]+)%$", out, re.M)
    assert [r[0] for r in rows] == list(STAGES), out
    assert abs(sum(float(r[1]) for r in rows) - 100) < 0.5, rows


def test_sweep_steps_carry_stages_and_plot(guest, kiobench_module, make_nullb, tmp_path):
    """A QD sweep with --stages: each step's jobs carry their stages in the
    JSON, the table shows each step's stages under its rows, and kiobench
    plot stacks them."""
    dev = make_nullb("nullb0", size_mb=64, queue_mode=2, completion_nsec=200_000)
    set_queue(guest, dev, nomerges=2)
    args = f"--filename={dev} --rw=randread --iodepth=1,4 --number_ios=400 --stages"
    table = guest.check(f"kiobench sweep {args}", timeout=SLOW)
    assert len(re.findall(r"^  stages \(read\): 400 of 400 I/Os split, 0 unsplit$", table,
                          re.M)) == 2, table
    guest.check(f"kiobench sweep {args} --output-format=json --output=/tmp/sw.json",
                timeout=SLOW)
    doc = json.loads(guest.check("cat /tmp/sw.json"))
    steps = doc["parts"][0]["steps"]
    assert [s["x"] for s in steps] == [1, 4]
    for s in steps:
        [j] = s["jobs"]
        st = j["kiobench"]["stages"]["read"]
        assert st["unsplit"] == 0 and all(st[k]["N"] == 400 for k in STAGES), st
        assert st["device"]["min"] >= 200_000, st
    res = tmp_path / "sw.json"
    res.write_text(json.dumps(doc))
    p = subprocess.run([str(PLOT), str(res), "-o", str(tmp_path / "charts"), "--format=svg"],
                       capture_output=True, text=True, timeout=180)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "charts" / f"{doc['parts'][0]['name']}-stages.svg").exists(), p.stdout


# ---- blktrace and btt: the same split by a tool no one here wrote ----------------

def btt_means(guest, dev: str, run) -> dict[str, tuple[float, int]]:
    """btt's per-I/O Q2D and D2C (its -z and -l files) of the I/O `run()`
    does on dev: {"Q2D": (mean ns, I/Os), "D2C": (mean ns, I/Os)}."""
    with blktraced(guest, dev):
        run()
    guest.check("cd /tmp/bt && blkparse -q -i trace -d trace.bin -O >/dev/null && "
                "btt -i trace.bin -z q2d -l d2c >btt.out", timeout=SLOW)
    means = {}
    for key in ("q2d", "d2c"):
        # one line per I/O: its time and its latency, in seconds
        lat = [float(line.split()[1]) for line in
               guest.check(f"cat /tmp/bt/{key}*.dat").splitlines() if line.strip()]
        assert lat, guest.check("cat /tmp/bt/btt.out /tmp/bt/blktrace.out; ls /tmp/bt")
        means[key.upper()] = (sum(lat) / len(lat) * 1e9, len(lat))
    return means


@pytest.mark.timing
def test_blktrace_btt_agree(guest, kiobench_module, make_nullb):
    """Debian's blktrace + btt on the same run: btt's D2C (issue to
    complete) against device + complete, within 5 % on a 1 ms device, and
    Q2D (bio queued to issue) against queue, which starts a little
    earlier (before submit_bio reaches the block layer's queueing)."""
    if guest.run("command -v blktrace && command -v btt && command -v blkparse").rc:
        pytest.skip("blktrace, blkparse and btt are not in the guest image")
    dev = make_nullb("nullb0", size_mb=64, queue_mode=2, completion_nsec=1_000_000)
    set_queue(guest, dev, nomerges=2)
    res = {}

    def run():
        res["job"] = run_job(guest, f"--filename={dev} --rw=randread --bs=4k --iodepth=4 "
                                    f"--number_ios=2000 --ramp_time=0 --stages", timeout=SLOW)
    bt = btt_means(guest, dev, run)
    st = res["job"]["kiobench"]["stages"]["read"]
    # every I/O traced; ramp 0: every one measured and split
    assert bt["D2C"][1] == bt["Q2D"][1] == st["device"]["N"] == 2000, (bt, st)
    ours = st["device"]["mean"] + st["complete"]["mean"]
    assert abs(ours / bt["D2C"][0] - 1) <= 0.05, (ours, bt)
    # queue = submit_bio's entry to issue; Q2D = block_bio_queue to issue:
    # ours starts a little earlier, so it holds a little more
    q = st["queue"]["mean"]
    assert bt["Q2D"][0] * 0.9 <= q <= bt["Q2D"][0] + 20_000, (q, bt)


# ---- background runs (as tests/guest/test_robust.py) ------------------------------

def start_bg(guest, args: str, name: str) -> None:
    guest.check(f"(kiobench run {args} >/tmp/{name}.out 2>&1; echo rc=$? >>/tmp/{name}.out) "
                f"</dev/null >/dev/null 2>&1 &")


def interrupt_all(guest) -> None:
    """SIGINT to every kiobench still running.  A tool interrupted before
    may still be exiting after its job is gone (from the list and from
    debugfs): pidof names it, and it may be gone by the kill; only a
    process that is still there and could not be signalled fails."""
    guest.check("for p in $(pidof kiobench); do kill -INT $p 2>/dev/null || ! kill -0 $p 2>/dev/null "
                "|| exit 1; done")


def wait_running(guest, n: int) -> None:
    """Until n jobs are RUNNING: every tool started in the background has
    set its signal handlers (a shell's `&` leaves SIGINT ignored until
    then, and a SIGINT that early was lost: the tool ran its whole
    600 s runtime), and a stopped one's job is gone from the list."""
    wait_for(guest, f"test $(kiobench list | grep -c RUNNING) -eq {n}", f"{n} jobs running",
             SLOW)


def bg_result(guest, name: str, timeout: float = SLOW) -> tuple[int, str]:
    wait_for(guest, f"grep -q '^rc=' /tmp/{name}.out", f"kiobench run ({name})", timeout)
    out = guest.check(f"cat /tmp/{name}.out")
    return int(re.search(r"^rc=(\d+)", out, re.M).group(1)), out
