"""fio's execution model, from the block layer's view.

A job file's jobs start together unless stonewall, wait_for or startdelay
say otherwise; numjobs makes clones, offset_increment apart; group_reporting
sums a group; loops, size and runtime end a job where fio's would.  Each
test reads what the block layer's tracepoints saw on null_blk (every bio
queued, with the kiobench<job>/<n> thread that queued it, and every
completion) or the device's own stat counts, never the tool's echo of its
options.  The meanings were checked against Debian's fio 3.33 (see
Documentation/kiobench.rst, "Job files: fio's execution model").
"""
import json
import re
from collections import defaultdict

import pytest

from kb import block_events, dev_bios, disk_name, set_queue

SLOW = 300


def wait_for(guest, cond: str, what: str, timeout: float = 60) -> None:
    n = int(timeout / 0.2)
    r = guest.run(f"for i in $(seq {n}); do {cond} && exit 0; sleep 0.2; done; exit 1",
                  timeout=timeout + 30)
    assert r.rc == 0, f"timed out waiting for {what}"


def traced(guest, devs: list[str], run) -> dict[str, list[tuple[str, float, int, int, str]]]:
    """The block layer's events of devs during run(): {dev name: [(action,
    t_s, sector, sectors, command), ...]} for the Q (queued) and C
    (completed) events; one clock for every device and CPU."""
    ev = {disk_name(d): [] for d in devs}
    for e in block_events(guest, devs, run, "QC", SLOW):
        ev[e.dev].append((e.action, e.ns / 1e9, e.sector, e.nbytes // 512, e.comm))
    return ev


def run_file(guest, text: str, fmt: str = "json", extra: str = "") -> str:
    guest.check(f"cat >/tmp/x.fio <<'EOF'\n{text}EOF")
    r = guest.run(f"kiobench run --output-format={fmt} --output=/tmp/x.out {extra} /tmp/x.fio",
                  timeout=SLOW)
    assert r.rc == 0, r.out
    return guest.check("cat /tmp/x.out")


def first_q(ev) -> float:
    return min(t for a, t, *_ in ev if a == "Q")


def last_c(ev) -> float:
    return max(t for a, t, *_ in ev if a == "C")


def nodev(guest, *devs: str) -> None:
    for d in devs:
        set_queue(guest, d, nomerges=2)


def run_fio(guest, text: str) -> dict:
    """Debian's fio on the same job file (direct I/O, its default engine)."""
    if guest.run("command -v fio").rc:
        pytest.skip("fio is not in the guest image")
    guest.check(f"cat >/tmp/x.fio <<'EOF'\n{text}EOF")
    guest.check("fio --direct=1 --output-format=json --output=/tmp/fio.json /tmp/x.fio",
                timeout=SLOW)
    return json.loads(guest.check("cat /tmp/fio.json"))


@pytest.mark.parametrize("tool", ["kiobench", "fio"])
@pytest.mark.parametrize("how", ["stonewall", "wait_for", "together"])
def test_order_from_the_trace(guest, kiobench_module, make_nullb, how, tool):
    """[a] on nullb0, [b] on nullb1.  stonewall and wait_for=a: nullb1's
    first bio is queued after nullb0's last completion; without either,
    the two start together (nullb1's first bio before nullb0's last
    completion).  Debian's fio on the same file shows the same order and
    groups.  Mutations: may_start() not waiting for the jobs above a
    stonewall (`k < j->after` -> `k < (size_t)got_signal`): stonewall red;
    nor for wait_for's (`k < j->wait_hi` -> `k < j->wait_lo`): wait_for
    red; build_jobs() making every job a barrier (`if (!k &&
    j->job.stonewall)` -> `if (!k)`): together red."""
    a = make_nullb("nullb0", size_mb=16, completion_nsec=200_000)
    b = make_nullb("nullb1", size_mb=16, completion_nsec=200_000)
    nodev(guest, a, b)
    line = {"stonewall": "stonewall\n", "wait_for": "wait_for=a\n", "together": ""}[how]
    text = (f"[global]\nrw=randread\nbs=4k\niodepth=4\nnumber_ios=400\n"
            f"[a]\nfilename={a}\n[b]\nfilename={b}\n{line}")
    res = {}
    if tool == "fio":
        ev = traced(guest, [a, b], lambda: res.update(doc=run_fio(guest, text)))
    else:
        ev = traced(guest, [a, b], lambda: res.update(doc=json.loads(run_file(guest, text))))
    jobs = res["doc"]["jobs"]
    assert [j["read"]["total_ios"] for j in jobs] == [400, 400]
    assert sum(1 for e in ev["nullb0"] if e[0] == "C") == 400
    assert sum(1 for e in ev["nullb1"] if e[0] == "Q") == 400
    gap = first_q(ev["nullb1"]) - last_c(ev["nullb0"])
    if how == "together":
        assert gap < 0, gap
        assert [j["groupid"] for j in jobs] == [0, 0]
    else:
        assert gap > 0, gap
        assert [j["groupid"] for j in jobs] == ([0, 1] if how == "stonewall" else [0, 0])


@pytest.mark.timing
def test_startdelay_from_the_trace(guest, kiobench_module, make_nullb):
    """[b] startdelay=1: its first bio is queued about 1 s after [a]'s
    first (they are otherwise started together).  Mutation: may_start()
    ignoring the delay (`t >= r->t0 + j->delay_ns` -> `t >= r->t0`): red."""
    a = make_nullb("nullb0", size_mb=16, completion_nsec=100_000)
    b = make_nullb("nullb1", size_mb=16, completion_nsec=100_000)
    text = (f"[global]\nrw=randread\nnumber_ios=100\n"
            f"[a]\nfilename={a}\n[b]\nfilename={b}\nstartdelay=1\n")
    ev = traced(guest, [a, b], lambda: run_file(guest, text))
    # the delay runs from the run's start, a little before [a]'s first bio
    d = first_q(ev["nullb1"]) - first_q(ev["nullb0"])
    assert 0.9 <= d < 2.5, d


def clone_ranges(jobs: list[dict], ev) -> dict[int, list[tuple[int, int]]]:
    """{clone number: [(start, end) bytes of each bio its thread queued]},
    from the jobs' reports (three clones, 0-2) and blktrace's events."""
    clone_of = {j["kiobench"]["job_id"]: j["kiobench"]["clone"] for j in jobs}
    assert sorted(clone_of.values()) == [0, 1, 2]
    by = defaultdict(list)
    for a, _t, sector, n, comm in ev:
        m = re.match(r"kiobench(\d+)/", comm)
        if a == "Q" and m:
            by[clone_of[int(m.group(1))]].append((sector * 512, (sector + n) * 512))
    return by


def test_clones_offset_increment_from_the_trace(guest, kiobench_module, make_nullb):
    """numjobs=3 offset_increment=8m size=4m rw=read: three kernel jobs
    (three reports), and the bios each one's thread queued lie in its own
    range [k x 8 MiB, k x 8 MiB + 4 MiB), one pass of 1024 x 4 KiB each.
    Mutation: make_clone() without the clone number
    (`k * job->offset_increment` -> `job->offset_increment`): red."""
    dev = make_nullb("nullb0", size_mb=64, completion_nsec=20_000)
    nodev(guest, dev)
    text = (f"[c]\nfilename={dev}\nrw=read\nbs=4k\nsize=4m\nnumjobs=3\n"
            f"offset_increment=8m\n")
    res = {}
    ev = traced(guest, [dev], lambda: res.update(doc=json.loads(run_file(guest, text))))
    jobs = res["doc"]["jobs"]
    assert len(jobs) == 3, [j["jobname"] for j in jobs]
    by = clone_ranges(jobs, ev["nullb0"])
    for k in range(3):
        lo, hi = k * (8 << 20), k * (8 << 20) + (4 << 20)
        assert len(by[k]) == 1024, (k, len(by[k]))
        assert all(lo <= s and e <= hi for s, e in by[k]), (k, min(by[k]), max(by[k]))


def test_clones_offset_increment_percent(guest, kiobench_module, make_nullb):
    """offset_increment=10% of a 64 MiB device (6710886 bytes), offset=1000,
    bs=4k, size=1m: clone k's bios lie in [a_k, a_k + 1 MiB), where a_k is
    1000 + k x 6710886 aligned up to 4 KiB, as fio's get_start_offset().
    Mutation: make_clone() ignoring clone_align (4096 + k x 6710886, the
    aligned offset plus the raw increments): red."""
    dev = make_nullb("nullb0", size_mb=64, completion_nsec=20_000)
    nodev(guest, dev)
    text = (f"[c]\nfilename={dev}\nrw=read\nbs=4k\nsize=1m\nnumjobs=3\noffset=1000\n"
            f"offset_increment=10%\n")
    res = {}
    ev = traced(guest, [dev], lambda: res.update(doc=json.loads(run_file(guest, text))))
    jobs = res["doc"]["jobs"]
    by = clone_ranges(jobs, ev["nullb0"])
    for k in range(3):
        lo = -(-(1000 + k * ((64 << 20) // 10)) // 4096) * 4096
        assert len(by[k]) == 256, (k, len(by[k]))
        assert min(by[k])[0] == lo and max(e for _s, e in by[k]) == lo + (1 << 20), \
            (k, lo, min(by[k]), max(by[k]))


def test_group_reporting_sums(guest, kiobench_module, make_nullb):
    """numjobs=3 group_reporting: one entry of jobs=3 whose I/O count is the
    sum of the clones' and the device's own count, in JSON and in the
    normal output (which ends with fio's run status and disk stats).
    Mutation: merge_result() not adding the clones' I/Os
    (`s->ios += t->ios` removed): red."""
    dev = make_nullb("nullb0", size_mb=64, completion_nsec=20_000)
    text = (f"[g]\nfilename={dev}\nrw=randread\nnumber_ios=200\nnumjobs=3\n"
            f"offset_increment=16m\ngroup_reporting\n")
    before = dev_bios(guest, dev)
    doc = json.loads(run_file(guest, text))
    done = dev_bios(guest, dev) - before
    [g] = doc["jobs"]
    assert g["kiobench"]["jobs"] == 3
    assert g["read"]["total_ios"] == 600 == done, (g["read"]["total_ios"], done)
    assert g["read"]["io_bytes"] == 600 * 4096
    assert g["read"]["clat_ns"]["N"] == 600
    [disk] = doc["disk_util"]
    assert disk["name"] == "nullb0" and disk["read_ios"] == 600, disk
    # Debian's fio on the same file: one group entry of the same count
    [f] = run_fio(guest, text)["jobs"]
    assert f["read"]["total_ios"] == 600
    out = run_file(guest, text, fmt="normal")
    assert "g: (groupid=0, jobs=3)" in out, out
    assert re.search(r"^  read: IOPS=.*\(2400KiB/", out, re.M), out
    assert re.search(r"^Run status group 0 \(all jobs\):\n   READ: bw=.*io=2400KiB", out,
                     re.M), out
    assert re.search(r"^Disk stats \(read/write\):\n  nullb0: ios=600/0,", out, re.M), out
    [line] = run_file(guest, text, fmt="terse").splitlines()
    assert re.search(r";nullb0;600;0;\d+;\d+;\d+;\d+;\d+;[\d.]+%$", line), line


def test_unified_mixed_without_disk_util_as_fio(guest, kiobench_module, make_nullb):
    """unified_rw_reporting=mixed and disk_util=0, by kiobench and by
    Debian's fio on the same file: the job's JSON has one "mixed" object
    of all its I/Os and no read, write, trim or sync (fio 3.33's shape),
    the report no disk_util; the normal output a "mixed:" paragraph, a
    "MIXED:" run status line and no disk stats; fio's bw_* and iops_*
    sample fields are all there.  Mutations: execute() collecting the disks
    whatever disk_util (its `continue` removed): red; dir_obj_ext() without
    rate_samples_obj(): red."""
    dev = make_nullb("nullb0", size_mb=64, completion_nsec=20_000)
    text = (f"[m]\nfilename={dev}\nrw=randrw\nnumber_ios=200\n"
            f"unified_rw_reporting=mixed\ndisk_util=0\n")
    doc = json.loads(run_file(guest, text, extra="--allow-writes"))
    fio = run_fio(guest, text)
    for who, d in (("kiobench", doc), ("fio", fio)):
        [j] = d["jobs"]
        assert "disk_util" not in d, (who, d.get("disk_util"))
        assert not {"read", "write", "trim", "sync"} & set(j), (who, sorted(j))
        assert j["mixed"]["total_ios"] == 200, (who, j["mixed"]["total_ios"])
    assert doc["jobs"][0]["mixed"]["clat_ns"]["N"] == 200
    # fio's bw and iops sample fields (bwavgtime, iopsavgtime), all of them
    rates = {k for k in fio["jobs"][0]["mixed"] if k.startswith(("bw_", "iops_"))}
    assert len(rates) == 12 and rates <= set(doc["jobs"][0]["mixed"]), rates  # bw_bytes too
    out = run_file(guest, text, fmt="normal", extra="--allow-writes")
    assert re.search(r"^  mixed: IOPS=.*\(800KiB/", out, re.M), out
    assert re.search(r"^  MIXED: bw=.*io=800KiB", out, re.M), out
    assert "Disk stats" not in out and "  read:" not in out, out


def test_loops_and_one_pass(guest, kiobench_module, make_nullb):
    """loops=3 over size=1m reads every block 3 times (the device's count:
    768); without size, runtime=60 still ends after one pass over the
    device (fio without time_based), long before the runtime.  Mutations:
    kb_job_io_bytes() without loops (`b * loops` -> `b`): red (256);
    make_clone() not learning the span (`job->span_bytes = 0`): red (runs
    60 s)."""
    dev = make_nullb("nullb0", size_mb=4, completion_nsec=10_000)
    nodev(guest, dev)
    loops = f"[l]\nfilename={dev}\nrw=read\nsize=1m\nloops=3\n"
    one_pass = f"[p]\nfilename={dev}\nrw=read\nruntime=60\n"
    before = dev_bios(guest, dev)
    doc = json.loads(run_file(guest, loops))
    assert dev_bios(guest, dev) - before == 768
    assert doc["jobs"][0]["read"]["total_ios"] == 768
    before = dev_bios(guest, dev)
    doc = json.loads(run_file(guest, one_pass))
    assert dev_bios(guest, dev) - before == 1024
    assert doc["jobs"][0]["kiobench"]["elapsed_ns"] < 30e9
    # Debian's fio on the same files: the same counts on the device
    for text, want in ((loops, 768), (one_pass, 1024)):
        before = dev_bios(guest, dev)
        run_fio(guest, text)
        assert dev_bios(guest, dev) - before == want, text


def test_exitall_stops_the_group(guest, kiobench_module, make_nullb):
    """[short] exitall ends after 100 I/Os; [long] (time_based, 60 s) is
    then stopped: the device's count of nullb1 stops growing long before
    60 s and its job ends STOPPED.  Mutation: sequence() not acting on
    exitall (`if (j->job.exitall)` -> `if (0)`): red (runs 60 s)."""
    a = make_nullb("nullb0", size_mb=16, completion_nsec=100_000)
    b = make_nullb("nullb1", size_mb=16, completion_nsec=100_000)
    text = (f"[short]\nfilename={a}\nrw=randread\nnumber_ios=100\nexitall\n"
            f"[long]\nfilename={b}\nrw=randread\ntime_based\nruntime=60\n")
    doc = json.loads(run_file(guest, text))
    short, long_ = doc["jobs"]
    assert short["kiobench"]["state"] == "DONE"
    assert long_["kiobench"]["state"] == "STOPPED"
    assert long_["kiobench"]["elapsed_ns"] < 30e9


def test_exit_what_all_cancels_what_has_not_started(guest, kiobench_module, make_nullb):
    """exitall with exit_what=all: [long] is stopped and [later], behind a
    stonewall, never starts: its device sees no I/O and its report says
    the kernel's NEW, with none; with exit_what=stonewall [later] still
    runs after the stop.  Mutation: exit_all() not cancelling the jobs not
    yet started (`j->cancelled = true` removed): red."""
    a = make_nullb("nullb0", size_mb=16, completion_nsec=100_000)
    b = make_nullb("nullb1", size_mb=16, completion_nsec=100_000)
    c = make_nullb("nullb2", size_mb=16, completion_nsec=100_000)
    for what, later_ios in (("all", 0), ("stonewall", 100)):
        text = (f"[short]\nfilename={a}\nrw=randread\nnumber_ios=100\nexitall\n"
                f"exit_what={what}\n"
                f"[long]\nfilename={b}\nrw=randread\ntime_based\nruntime=60\n"
                f"[later]\nstonewall\nfilename={c}\nrw=randread\nnumber_ios=100\n")
        before = dev_bios(guest, c)
        doc = json.loads(run_file(guest, text))
        short, long_, later = doc["jobs"]
        assert long_["kiobench"]["state"] == "STOPPED", what
        assert long_["kiobench"]["elapsed_ns"] < 30e9, what
        assert dev_bios(guest, c) - before == later_ios, what
        assert later["read"]["total_ios"] == later_ios, what
        assert later["kiobench"]["state"] == ("NEW" if what == "all" else "DONE"), what


@pytest.mark.timing
def test_steadystate_stops_the_job_as_fio(guest, kiobench_module, make_nullb):
    """fio's ss=iops:50% with ss_dur=3 and ss_ramp=1 on a 60 s time_based
    job (null_blk with a 100 us timer: a steady rate, whatever TCG's
    pace): the tool samples the kernel's counts once a second and stops
    the job when its last 3 samples are within 50 % of their mean.  The
    job ends STOPPED long before 60 s, attained, and the 3 samples the
    JSON gives pass the criterion recomputed here, their mean within 30 %
    of the kernel's own IOPS over the job (a second's sample against the
    whole).  fio on the same file attains it too, stops early, and its
    steadystate object has the same keys.  With iops:0% (0 is never under
    0, fio's rule) the job runs its whole runtime, not attained, and the
    normal output says so.  Mutations: check_steady() not called from
    wait_jobs(): red (60 s); the stop not sent: red."""
    dev = make_nullb("nullb0", size_mb=64, completion_nsec=100_000)
    body = (f"[ss]\nfilename={dev}\nrw=randread\niodepth=8\ntime_based\nruntime=60\n"
            "ss=iops:50%\nss_dur=3\nss_ramp=1\n")
    job = json.loads(run_file(guest, body))["jobs"][0]
    ss = job["steadystate"]
    assert job["kiobench"]["state"] == "STOPPED", job["kiobench"]
    assert job["kiobench"]["elapsed_ns"] < 20e9, job["kiobench"]["elapsed_ns"]
    assert ss["attained"] == 1 and ss["ss"] == "iops:50.000000%" and ss["duration"] == 3, ss
    iops = ss["data"]["iops"]
    mean = sum(iops) / len(iops)
    assert len(iops) == 3 and mean > 0, ss
    assert max(abs(x - mean) for x in iops) < 0.5 * mean, ss
    whole = job["read"]["iops"]
    assert abs(mean - whole) <= 0.3 * whole, (mean, whole)
    fio = run_fio(guest, body)["jobs"][0]
    assert fio["steadystate"]["attained"] == 1, fio["steadystate"]
    assert fio["job_runtime"] < 20000, fio["job_runtime"]
    assert set(fio["steadystate"]) == set(ss)
    assert set(fio["steadystate"]["data"]) == set(ss["data"])
    never = body.replace("runtime=60", "runtime=6").replace("iops:50%", "iops:0%")
    out = run_file(guest, never, fmt="normal")
    assert re.search(r"^  steadystate  : attained=no, bw=\S+ \(\S+\), iops=\S+, "
                     r"iops mean dev=[0-9.]+%$", out, re.M), out
    job = json.loads(run_file(guest, never))["jobs"][0]
    assert job["steadystate"]["attained"] == 0
    assert job["kiobench"]["state"] == "DONE" and job["kiobench"]["elapsed_ns"] >= 6e9


def kthread_cpus(guest) -> dict[int, set[str]]:
    """{kernel job id: the Cpus_allowed_list of its worker kthreads}, from
    /proc: kb_create_threads() names them kiobench<job>/<worker>."""
    out = guest.check("awk '/^Name:/ {n = $2} /^Cpus_allowed_list:/ && "
                      "n ~ /^kiobench[0-9]+\\/[0-9]+$/ {print n, $2}' /proc/[0-9]*/status "
                      "2>/dev/null; true")
    cpus: dict[int, set[str]] = defaultdict(set)
    for line in out.splitlines():
        name, allowed = line.split()
        cpus[int(name[len("kiobench"):].split("/")[0])].add(allowed)
    return dict(cpus)


def running_cpus(guest, text: str, jobs: int) -> dict[int, set[str]]:
    """kthread_cpus() while job file text runs its `jobs` jobs (the run is
    then stopped), of the jobs created by it only.  The last run's jobs may
    still be stopping when its tool has exited, listed RUNNING: they are
    waited out first, or they would stand in for this run's."""
    wait_for(guest, "! kiobench list | grep -q RUNNING", "the last run's jobs to stop")
    before = set(kthread_cpus(guest))
    guest.check(f"cat >/tmp/x.fio <<'EOF'\n{text}EOF")
    guest.check("(kiobench run /tmp/x.fio >/tmp/x.out 2>&1 &)")
    wait_for(guest, f"test $(kiobench list | grep -c RUNNING) -eq {jobs}",
             f"{jobs} running jobs")
    cpus = kthread_cpus(guest)
    guest.check("killall -INT kiobench")    # busybox's: the guest has no pkill
    wait_for(guest, "! pidof kiobench >/dev/null", "the run's end")
    return {k: v for k, v in cpus.items() if k not in before}


# four runs, each started, seen running on its CPUs, and stopped: 3 s (62 s
# while the stop was a pkill the guest does not have: each run's jobs ran
# their 20 s)
def test_cpus_allowed_policy_split_and_cpumask(guest, kiobench_module, make_nullb):
    """cpus_allowed=0-1 with cpus_allowed_policy=split, [a] with numjobs=3
    and [b]: as fio, the run's job i (clones counted) gets the set's
    (i mod 2)-th CPU, read from the kernel: each job's worker kthreads are
    allowed exactly CPU 0, 1, 0, 1 in creation order.  Then cpumask=0x2
    (fio's bit mask): CPU 1 only.  Then fio's default policy, shared:
    numjobs=2 with cpus_allowed=0-1, and numa_cpu_nodes=0 (node 0's CPUs,
    the guest's all) with two workers: every worker of every clone is
    allowed 0-1, as each of fio's threads is.  Mutations:
    split_cpus() not called: red (CPU 0 everywhere); the index taken as the
    clone's number within its section (`r->n - 1` -> `k`): red ([b] on
    CPU 0); cpus-shared not sent: red (the clones' workers bound to 0)."""
    if int(guest.check("nproc")) < 2:
        pytest.skip("the guest has one CPU")
    dev = make_nullb("nullb0", size_mb=16, completion_nsec=100_000)
    text = (f"[global]\nfilename={dev}\nrw=randread\ntime_based\nruntime=20\n"
            "cpus_allowed=0-1\ncpus_allowed_policy=split\n[a]\nnumjobs=3\n[b]\n")
    cpus = running_cpus(guest, text, 4)
    assert [cpus[i] for i in sorted(cpus)] == [{"0"}, {"1"}, {"0"}, {"1"}], cpus
    text = f"[m]\nfilename={dev}\nrw=randread\ntime_based\nruntime=20\ncpumask=0x2\n"
    assert list(running_cpus(guest, text, 1).values()) == [{"1"}]
    # numa_cpu_nodes=0: node 0's CPUs (all of the guest's), a worker on each
    node0 = guest.check("cat /sys/devices/system/node/node0/cpulist").strip()
    assert node0 == f"0-{int(guest.check('nproc')) - 1}", node0
    shared = text.replace("cpumask=0x2", "cpus_allowed=0-1\nnumjobs=2")
    assert list(running_cpus(guest, shared, 2).values()) == [{"0-1"}, {"0-1"}]
    text = text.replace("cpumask=0x2", "numa_cpu_nodes=0\nworkers=2")
    assert list(running_cpus(guest, text, 1).values()) == [{"0-1"}]


LIMITS = {
    "rate_iops_min": ("5000", "100", 5,
                      r"job 'slow': read: rate_iops_min=5000 not met, got \d+ IOPS"),
    "max_latency": ("500", "1s", 110,
                    r"job 'slow': read: latency of \d+ usec exceeds specified max \(500 usec\)"),
}


@pytest.mark.parametrize("limit", sorted(LIMITS))
def test_a_limit_fails_the_job_as_fio(guest, kiobench_module, make_nullb, limit):
    """On null_blk with a 1 ms timer at QD 1 (at most 1000 IOPS, every
    I/O over 1 ms): rate_iops_min=5000, or max_latency=500 (microseconds,
    fio's bare unit), fails the 30 s job at the tool's check of the
    kernel's counts (rate_iops_min: after the 2 s settle and a rate_cycle;
    max_latency: the longest latency so far): stopped long before its
    runtime, fio's error (5, EIO; 110, ETIMEDOUT) and message, exit 3;
    the kernel's state is STOPPED.  fio on the same file fails it with
    the same error.  With a bound that holds (100 IOPS, 1 s) the job runs
    its 5 s.  Mutations: check_limits() not called from wait_jobs(): red
    (30 s, exit 0); a bound compared the wrong way (`got < m->iops[d]`,
    `lat_max > max`, reversed): red (both cases)."""
    bad, good, errno, message = LIMITS[limit]
    dev = make_nullb("nullb0", size_mb=16, completion_nsec=1_000_000)
    body = (f"[slow]\nfilename={dev}\nrw=randread\niodepth=1\ntime_based\nruntime=30\n"
            f"{limit}={bad}\n")
    guest.check(f"cat >/tmp/x.fio <<'EOF'\n{body}EOF")
    r = guest.run("kiobench run --output-format=json --output=/tmp/x.out /tmp/x.fio",
                  timeout=SLOW)
    assert r.rc == 3, r.out
    assert re.search(message, r.out), r.out
    job = json.loads(guest.check("cat /tmp/x.out"))["jobs"][0]
    assert job["error"] == errno and job["kiobench"]["state"] == "STOPPED", job["kiobench"]
    assert job["kiobench"]["elapsed_ns"] < 10e9
    if guest.run("command -v fio").rc == 0:
        r = guest.run("fio --direct=1 --output-format=json --output=/tmp/fio.json /tmp/x.fio",
                      timeout=SLOW)
        fio = json.loads(guest.check("cat /tmp/fio.json"))["jobs"][0]
        assert r.rc != 0 and fio["error"] == errno and fio["job_runtime"] < 10000, fio["error"]
    ok = body.replace("runtime=30", "runtime=5").replace(f"={bad}", f"={good}")
    job = json.loads(run_file(guest, ok))["jobs"][0]
    assert job["error"] == 0 and job["kiobench"]["state"] == "DONE"


def test_exitall_on_error_stops_the_group(guest, kiobench_module, make_nullb):
    """[bad] fails (rate_iops_min=5000 on a 1 ms-timer null_blk at QD 1)
    and sets exitall_on_error: [long] (30 s) is stopped soon after, as
    fio's fio_terminate_threads() at a job's end in error.  Mutation: the
    error not looked at (`(j->st.error || j->limit_err)` -> `0`): red
    ([long] runs its 30 s)."""
    a = make_nullb("nullb0", size_mb=16, completion_nsec=1_000_000)
    b = make_nullb("nullb1", size_mb=16, completion_nsec=100_000)
    text = (f"[bad]\nfilename={a}\nrw=randread\ntime_based\nruntime=30\n"
            "rate_iops_min=5000\nexitall_on_error\n"
            f"[long]\nfilename={b}\nrw=randread\ntime_based\nruntime=30\n")
    guest.check(f"cat >/tmp/x.fio <<'EOF'\n{text}EOF")
    r = guest.run("kiobench run --output-format=json --output=/tmp/x.out /tmp/x.fio",
                  timeout=SLOW)
    assert r.rc == 3, r.out
    bad, long_ = json.loads(guest.check("cat /tmp/x.out"))["jobs"]
    assert bad["error"] == 5 and long_["error"] == 0, (bad["error"], long_["error"])
    assert long_["kiobench"]["state"] == "STOPPED", long_["kiobench"]
    assert long_["kiobench"]["elapsed_ns"] < 15e9, long_["kiobench"]["elapsed_ns"]
