"""The engine in a real kernel: workloads, limits, self-consistency.

Every read/write pattern runs on null_blk and on the emulated NVMe device
and ends by each limit (time, bytes, count), and what the job reports
agrees with itself: total_ios equals the histogram's count and the
timeline's sum.  The tests marked `device` only read their device
(test_dev): they also run on real devices (make check-device).  Little's law and the injected-latency floor are in
test_truth.py.
"""
import json
import os
import re

import pytest

from kb import destroy_job, dev_bios, hist, run_job
from vm.targets import nvme_dev

GUEST_ARGS = {"nvme_size": 256 << 20}

RWS = ["read", "write", "randread", "randwrite", "randrw"]
LIMITS = {
    "time": "--runtime=1 --time_based",
    "bytes": "--io_size=2M",
    "count": "--number_ios=500",
}
DIRS = ("read", "write")
LOCAL = os.environ.get("KIOBENCH_LOCAL") == "1"
# Every Debian kernel runs each pattern's direction and each limit once,
# the debug kernel both directions at once; the full cross product runs
# on one kernel.
CORE = {("randread", "time"), ("randwrite", "bytes"), ("randrw", "count"), ("read", "count")}
DEBUG = {("randrw", "count")}


def writes(rw: str) -> str:
    return "--allow-writes" if rw in ("write", "randwrite", "randrw") else ""


def workload(rw: str, limit: str):
    marks = [m for m, on in ((pytest.mark.core, (rw, limit) in CORE),
                             (pytest.mark.debug, (rw, limit) in DEBUG)) if on]
    return pytest.param(rw, limit, marks=marks, id=f"{rw}-{limit}")


WORKLOADS = [workload(rw, limit) for rw in RWS for limit in LIMITS]
# The read-only ones run on test_dev (a real device too), the others on null_blk.
READS = [w for w in WORKLOADS if not writes(w.values[0])]
WRITES = [w for w in WORKLOADS if writes(w.values[0])]


@pytest.fixture
def nvme(guest) -> str:
    return nvme_dev(guest)


def check_job(guest, job: dict, rw: str, limit: str, bios: int) -> None:
    """bios: what the device's stat file says it completed during the run.

    The histograms' sample counts are checked against it (and against the
    known count of number_ios): the `# samples` header is the sum of the
    very buckets below it, and total_ios comes from the same per-CPU sums,
    so they could only ever agree with each other.  Mutation:
    kb_count_io() measuring only I/Os submitted 100 ms after the ramp's end
    (`job->ramp_end_ns + 100 * NSEC_PER_MSEC`): the header, the buckets and
    total_ios still agree, the device's count does not: red."""
    kb = job["kiobench"]
    assert kb["state"] == "DONE", kb
    assert job["error"] == 0
    total_ios = sum(kb["all_ios"][d] for d in DIRS)
    total_bytes = sum(kb["all_bytes"][d] for d in DIRS)
    assert total_ios > 0
    if limit == "bytes":
        assert total_bytes == 2 << 20
    elif limit == "count":
        assert total_ios == 500
    else:
        # no I/O is submitted after the runtime; the drain adds one latency
        assert 1000 <= kb["measured_ns"] / 1e6 < 1500, kb["measured_ns"]
    for d in DIRS:
        wanted = (d == "read" and "write" not in rw) or (d == "write" and "read" not in rw) \
            or rw == "randrw"
        assert (job[d]["total_ios"] > 0) == wanted, (d, job[d]["total_ios"])
        h = hist(guest, job, d)
        # total_ios, the histogram's samples and the sum of its buckets agree
        assert h.samples == h.count == job[d]["total_ios"] == job[d]["clat_ns"]["N"]
        assert kb["errors"][d] == 0
    samples = sum(hist(guest, job, d).samples for d in DIRS)
    if limit == "count":
        assert samples == 500, "number_ios=500, no warm-up: 500 samples"
    # every bio the job submitted, and nothing else, reached the device
    # (a real device, KIOBENCH_LOCAL=1, may serve others' reads too)
    assert samples == bios or (LOCAL and samples < bios), (samples, bios)
    # the timeline adds up to the totals (warm-up included)
    for d in DIRS:
        assert sum(t[d]["ios"] for t in kb["timeline"]) == kb["all_ios"][d]
        assert sum(t[d]["bytes"] for t in kb["timeline"]) == kb["all_bytes"][d]


@pytest.mark.device
@pytest.mark.parametrize("rw,limit", READS)
def test_read_workloads(guest, kiobench_module, test_dev, rw, limit):
    before = dev_bios(guest, test_dev)
    job = run_job(guest, f"--filename={test_dev} --rw={rw} --bs=4k --iodepth=4 {LIMITS[limit]}",
                  keep=True)
    check_job(guest, job, rw, limit, dev_bios(guest, test_dev) - before)
    destroy_job(guest, job)


@pytest.mark.parametrize("rw,limit", WRITES)
def test_null_blk_write_workloads(guest, kiobench_module, make_nullb, rw, limit):
    dev = make_nullb("nullb0", size_mb=64)
    before = dev_bios(guest, dev)
    job = run_job(guest, f"--filename={dev} --rw={rw} --bs=4k --iodepth=4 {LIMITS[limit]} "
                         f"{writes(rw)}", keep=True)
    check_job(guest, job, rw, limit, dev_bios(guest, dev) - before)
    destroy_job(guest, job)


@pytest.mark.parametrize("rw,limit", WORKLOADS)
def test_nvme_workloads(guest, kiobench_module, nvme, rw, limit):
    before = dev_bios(guest, nvme)
    job = run_job(guest, f"--filename={nvme} --rw={rw} --bs=4k --iodepth=8 {LIMITS[limit]} "
                         f"{writes(rw)}", keep=True)
    check_job(guest, job, rw, limit, dev_bios(guest, nvme) - before)
    destroy_job(guest, job)


@pytest.mark.device
def test_warmup_is_excluded(guest, kiobench_module, test_dev):
    """The warm-up's I/Os are done but not measured: the device served the
    measured ones and the warm-up's (its stat file), the histogram holds
    the measured ones only.  Mutation: kb_count_io() measuring from the
    start (`slot->submit_ns >= job->start_ns`): red."""
    before = dev_bios(guest, test_dev)
    job = run_job(guest, f"--filename={test_dev} --rw=randread --iodepth=2 --ramp_time=1 --runtime=1 --time_based",
                  keep=True)
    served = dev_bios(guest, test_dev) - before
    kb, r = job["kiobench"], job["read"]
    ramp = kb["ramp_ios"]["read"]
    assert ramp > 0
    assert r["total_ios"] + ramp == kb["all_ios"]["read"]
    assert served == kb["all_ios"]["read"] or (LOCAL and served > kb["all_ios"]["read"])
    assert hist(guest, job, "read").samples == r["total_ios"] < served
    destroy_job(guest, job)


def test_two_devices_two_workers_each(guest, kiobench_module, make_nullb):
    """Two devices, two workers each: the kernel reports both devices and
    four workers, and each device served its half of the 1000 I/Os (its
    stat file: 2 workers x 250).  (The report's devices were the tool's
    own --filename, which says nothing of where the I/O went.)  Mutation:
    kb_create_workers() giving every worker the first device
    (`&job->devs[0]`): red."""
    a, b = make_nullb("nullb0", size_mb=32), make_nullb("nullb1", size_mb=32)
    before = [dev_bios(guest, d) for d in (a, b)]
    job = run_job(guest, f"--filename={a}:{b} --rw=randread --workers=2 --iodepth=2 "
                         f"--number_ios=1000")
    served = [dev_bios(guest, d) - n for d, n in zip((a, b), before)]
    kb = job["kiobench"]
    assert kb["nr_workers"] == 4
    assert kb["devices"] == [a, b] and kb["settings"]["devices"] == f"{a}:{b}"
    assert kb["settings"]["span_len"] == [32 << 20, 32 << 20]
    assert job["read"]["total_ios"] == 1000
    assert served == [500, 500], served


@pytest.mark.device
def test_sigint_stops_and_reports(guest, kiobench_module, test_dev):
    """The first SIGINT stops the job long before its runtime: the job
    drains and ends STOPPED, and the tool still writes what it measured and
    exits 0, so an interrupted run is a result, not a failure."""
    r = guest.run(f"timeout -s INT 2 kiobench run --filename={test_dev} --rw=randread --runtime=60 --time_based "
                  f"--output-format=json --output=/tmp/stop.json; echo rc=$?", timeout=60)
    rc = re.findall(r"^rc=(\d+)$", r.out, re.M)
    assert rc == ["0"], r.out
    doc = json.loads(guest.check("cat /tmp/stop.json"))
    assert len(doc["jobs"]) == 1, doc
    job = doc["jobs"][0]
    kb = job["kiobench"]
    assert kb["state"] == "STOPPED" and job["error"] == 0, kb
    # it ran, was measured, and stopped at the signal, not at the 60 s runtime
    assert job["read"]["total_ios"] > 0 and job["write"]["total_ios"] == 0, job["read"]
    assert 0 < kb["measured_ns"] < 30e9, kb["measured_ns"]
    # what was measured up to the stop is reported whole
    assert job["read"]["clat_ns"]["N"] == job["read"]["total_ios"]
    assert sum(t["read"]["ios"] for t in kb["timeline"]) == kb["all_ios"]["read"]
    # and the stopped job is gone from the kernel: the list has its header only
    assert len(guest.check("kiobench list").strip().splitlines()) == 1


@pytest.mark.core
@pytest.mark.debug
def test_rmmod_stops_running_jobs(guest, kiobench_module, make_nullb):
    """rmmod during two running jobs (one owned by its tool, one detached)
    stops their I/O before it returns: both devices' I/O counters (their
    stat files) moved while the jobs ran and are frozen once rmmod has
    returned, nothing is in flight, and the kernel log has no splat.
    (Finding no RUNNING job in a freshly loaded module proved nothing: a
    new module has no job.)  1 ms timer-mode devices, so that the 16 I/Os
    in flight at the rmmod are still there a while.  Mutation:
    kb_nl_exit() not destroying the remaining jobs (`while (0 && ...)`):
    red."""
    a = make_nullb("nullb0", size_mb=32, completion_nsec=1_000_000)
    b = make_nullb("nullb1", size_mb=32, completion_nsec=1_000_000)
    names = [d.rsplit("/", 1)[1] for d in (a, b)]
    # one job owned by its (running) tool, one detached
    for dev, opt in ((a, ""), (b, " --detach")):
        guest.check(f"(kiobench run --filename={dev} --rw=randread --iodepth=16 --runtime=600 --time_based"
                    f"{opt} >/dev/null 2>&1 &)")
    guest.check("for i in $(seq 50); do [ $(kiobench list | grep -c RUNNING) = 2 ] && exit; "
                "sleep 0.2; done; exit 1")
    assert guest.check("kiobench list | grep -c 'RUNNING  *detached'").strip() == "1"
    mark = guest.dmesg_mark("rmmod with two running jobs")
    ios = " ".join(f"$(awk '{{print $1 + $5}}' /sys/block/{n}/stat)" for n in names)
    inflight = " ".join(f"$(cat /sys/block/{n}/inflight)" for n in names)
    out = guest.check(f"echo {ios}; sleep 0.5; echo {ios}; rmmod kiobench; echo {ios}; "
                      f"echo {inflight}; sleep 1; echo {ios}", timeout=60)
    running1, running2, after, idle, later = (line.split() for line in out.splitlines())
    assert all(int(y) > int(x) for x, y in zip(running1, running2)), (running1, running2)
    assert later == after, f"I/O went on after rmmod returned: {after} -> {later}"
    assert idle == ["0"] * 4, f"in flight after rmmod: {idle}"
    guest.check("! test -e /sys/module/kiobench")
    splats = guest.scan_log(guest.dmesg_since(mark))
    assert not splats, "\n".join(str(s) for s in splats)
    guest.check("modprobe kiobench")  # usable again; the fixture unloads it


@pytest.mark.core
@pytest.mark.debug
@pytest.mark.device
def test_bssplit_large_bs_and_cpu_pinning(guest, kiobench_module, test_dev):
    """Transfer sizes follow the bssplit weights (norandommap: the random
    map would cut the 2 MiB ones to the blocks not yet done, as fio's;
    test_randmap.py's business); --cpus_allowed=1 pins
    both workers to CPU 1, checked where they ran, from the kernel: each
    worker kthread's allowed CPUs (/proc/PID/status) and the CPU it was on
    (/proc/PID/stat field 39), sampled while the job runs.  (Reading cpu=1
    back from the job's debugfs config only echoed the request.)
    Mutation: kb_create_threads() not binding (`if (w->cpu < -1)` before
    kthread_bind()): the config still says cpu=1, the kthreads may run
    anywhere: red."""
    dev = test_dev
    # 2 MiB transfers are split by the block layer; sizes follow the weights
    job = run_job(guest, f"--filename={dev} --rw=randread --bssplit=4k/50:2m/50 --iodepth=4 "
                         f"--workers=2 --cpus_allowed=1 --number_ios=400 --io_size=1g "
                         f"--norandommap",
                   keep=True)
    r = job["read"]
    assert r["total_ios"] == 400
    big = (r["io_bytes"] - 400 * 4096) // (2048 * 1024 - 4096)
    assert 150 <= big <= 250, f"{big} of 400 transfers were 2 MiB (expected 200 +- 50)"
    destroy_job(guest, job)
    guest.check(f"(kiobench run --filename={dev} --rw=randread --iodepth=4 --workers=2 "
                "--cpus_allowed=1 --runtime=120 --time_based >/dev/null 2>&1 &)")
    guest.check("for i in $(seq 50); do kiobench list | grep -q RUNNING && exit; sleep 0.2; "
                "done; exit 1")
    # each worker kthread (kb_create_threads(): "kiobench<job>/<worker>"):
    # its name and allowed CPUs, then the CPU it is on, 10 times over 1 s.
    # The job runs until the SIGINT below: at 8 s it had ended before the
    # sampling did, on the debug kernel (a grep per process under KASAN),
    # with no other guest beside it on a load of 2-3 as with one beside
    # it (no worker left to sample: "too many values to unpack")
    out = guest.check(r"""
pids=
for c in /proc/[0-9]*/comm; do
    grep -q '^kiobench[0-9]*/[0-9]*$' $c 2>/dev/null && pids="$pids ${c%/comm}"
done
for p in $pids; do echo "$(cat $p/comm) $(awk '/^Cpus_allowed_list/ {print $2}' $p/status)"; done
for i in $(seq 10); do
    for p in $pids; do read -r l <$p/stat; set -- $l; echo "$(cat $p/comm) ${39}"; done
    sleep 0.1
done""", timeout=60)
    allowed, ran_on = {}, {}
    for line in out.splitlines():
        name, cpus = line.split()
        if name in allowed:
            ran_on.setdefault(name, []).append(cpus)
        else:
            allowed[name] = cpus
    assert len(allowed) == 2 and all(len(v) == 10 for v in ran_on.values()), out
    for name, cpus in allowed.items():
        assert cpus == "1", f"{name} may run on CPUs {cpus}"
        assert set(ran_on[name]) == {"1"}, f"{name} ran on CPUs {ran_on[name]}"
    guest.check("kill -INT $(pidof kiobench); for i in $(seq 100); do "
                "kiobench list | grep -q RUNNING || exit 0; sleep 0.1; done; exit 1", timeout=30)
