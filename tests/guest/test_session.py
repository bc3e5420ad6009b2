"""A run outlives neither its session nor its results: SIGHUP (a lost
terminal or SSH connection) stops, reports and destroys like SIGINT but
exits 129, and a closed stdout or stderr (SIGPIPE) does not keep the run
from stopping its jobs and writing --output.  A job belongs to the netlink
socket that created it: a tool killed with SIGKILL takes its jobs with it,
unless they were created with --detach."""
import json
import re
from pathlib import Path

import pytest
from kb import nlreq, worker_stat

RUN = "kiobench run --filename={dev} --rw=randread --runtime=60 --time_based --output-format=json"


def stopped_job(guest, path: str) -> dict:
    doc = json.loads(guest.check(f"cat {path}"))
    assert len(doc["jobs"]) == 1, doc
    job = doc["jobs"][0]
    kb = job["kiobench"]
    assert kb["state"] == "STOPPED" and job["error"] == 0, kb
    # stopped at the signal, not at the 60 s runtime, and reported whole
    assert 0 < kb["measured_ns"] < 30e9, kb["measured_ns"]
    assert job["read"]["clat_ns"]["N"] == job["read"]["total_ios"] > 0
    return job


def no_jobs_left(guest) -> None:
    assert len(guest.check("kiobench list").strip().splitlines()) == 1


@pytest.mark.core
@pytest.mark.debug
@pytest.mark.budget(30)
def test_sighup_stops_reports_and_exits_129(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=32)
    r = guest.run(f"timeout -s HUP 2 {RUN.format(dev=dev)} --output=/tmp/hup.json; "
                  f"echo rc=$?", timeout=60)
    assert re.findall(r"^rc=(\d+)$", r.out, re.M) == ["129"], r.out
    stopped_job(guest, "/tmp/hup.json")
    no_jobs_left(guest)


@pytest.mark.budget(30)
def test_closed_stderr_does_not_lose_the_results(guest, kiobench_module, make_nullb):
    """The reader of the tool's stdout and stderr is gone before the tool
    writes there: its "stopped by user" line meets a closed pipe (EPIPE,
    not death by SIGPIPE), and the job is still stopped, reported to
    --output and destroyed."""
    dev = make_nullb("nullb0", size_mb=32)
    script = f"""
{RUN.format(dev=dev)} --output=/tmp/pipe.json 2>&1 | true &
sleep 1
pid=$(pidof kiobench)
[ -n "$pid" ] || {{ echo "kiobench is not running"; exit 1; }}
kill -TERM $pid
for i in $(seq 100); do kill -0 $pid 2>/dev/null || exit 0; sleep 0.1; done
echo "kiobench still running"; exit 1
"""
    guest.check(script, timeout=60)
    stopped_job(guest, "/tmp/pipe.json")
    no_jobs_left(guest)


def wait_running(guest, count: int) -> str:
    guest.check(f"for i in $(seq 100); do [ $(kiobench list | grep -c RUNNING) = {count} ] "
                "&& exit; sleep 0.1; done; exit 1")
    return guest.check("kiobench list")


# the I/Os of one block device, read and written, from its stat file
DEV_IOS = "awk '{{print $1 + $5}}' /sys/block/{name}/stat"


@pytest.mark.core
@pytest.mark.debug
@pytest.mark.budget(60)
def test_killed_tool_takes_its_jobs_along(guest, kiobench_module, make_nullb):
    """SIGKILL during a 10-minute read job: within 2 s the device's I/O
    counters stop moving and no job is left; what the job had charged is
    free again (a job of all of max_total_mem fits afterwards)."""
    # iodepth x bs of the jobs below, and a page for the locality counters
    # (a few hundred bytes on the guest's CPUs)
    mem = 16 * 4096 + 4096
    guest.check(f"rmmod kiobench && modprobe kiobench max_job_mem={mem} max_total_mem={mem}")
    dev = make_nullb("nullb0", size_mb=32)
    name = dev.split("/")[-1]
    guest.check(f"(kiobench run --filename={dev} --rw=randread --iodepth=16 --runtime=600 --time_based "
                f">/dev/null 2>&1 &)")
    listing = wait_running(guest, 1)
    # owned: the list shows the owner's port id, not "detached"
    assert re.search(r"^\d+\s+\S+\s+RUNNING\s+\d+\s", listing, re.M), listing
    script = f"""
kill -9 $(pidof kiobench)
for i in $(seq 20); do
    [ $(kiobench list | wc -l) = 1 ] && break
    sleep 0.1
done
[ $(kiobench list | wc -l) = 1 ] || {{ echo "jobs left after 2 s"; kiobench list; exit 1; }}
a=$({DEV_IOS.format(name=name)}); sleep 1; b=$({DEV_IOS.format(name=name)})
[ "$a" = "$b" ] || {{ echo "I/O still moving: $a -> $b"; exit 1; }}
"""
    guest.check(script, timeout=30)
    guest.check(f"kiobench run --filename={dev} --rw=randread --iodepth=16 --number_ios=100 "
                f">/dev/null", timeout=30)
    no_jobs_left(guest)


@pytest.mark.core
@pytest.mark.debug
@pytest.mark.budget(60)
def test_detached_job_survives_the_tool(guest, kiobench_module, make_nullb):
    """A --detach job outlives its tool's SIGKILL, is listed "detached", and
    `kiobench stop` and `destroy` end it."""
    dev = make_nullb("nullb0", size_mb=32)
    guest.check(f"(kiobench run --filename={dev} --rw=randread --runtime=600 --time_based --detach "
                f">/dev/null 2>&1 &)")
    wait_running(guest, 1)
    guest.check("kill -9 $(pidof kiobench); sleep 1")
    listing = guest.check("kiobench list")
    m = re.search(r"^(\d+)\s+\S+\s+RUNNING\s+detached\s", listing, re.M)
    assert m, listing
    job = m.group(1)
    guest.check(f"kiobench stop {job}")
    guest.check(f"for i in $(seq 50); do kiobench list | grep -q '^{job} .*STOPPED' && exit; "
                "sleep 0.1; done; exit 1")
    guest.check(f"kiobench destroy {job}")
    no_jobs_left(guest)


@pytest.mark.core
@pytest.mark.debug
@pytest.mark.budget(30)
def test_unstarted_job_waits_idle(guest, kernel, kiobench_module, make_nullb):
    """A job created and not yet started holds its worker threads, and a user
    may start it minutes later: they wait for the start idle (state I,
    TASK_IDLE), never in the uninterruptible sleep kthread_create() leaves a
    thread in, which the hung-task detector reports after
    hung_task_timeout_secs (120 s by default; the debug lane's netlink
    fuzzer tripped it).  Here the timeout is 1 s and the job waits 5 s:
    every worker is in state I and the log has no "blocked for more than"
    (the harness's scan would fail the test on it too).  The job then
    starts and ends as any other.  Mutation: no wake_up_process() at
    creation in kb_create_threads(): red (state D, and the report)."""
    dev = make_nullb("nullb0", size_mb=16)
    hung = "/proc/sys/kernel/hung_task_timeout_secs"
    detector = kernel.has("DETECT_HUNG_TASK")
    saved = guest.check(f"cat {hung}").strip() if detector else None
    mark = guest.dmesg_mark("unstarted job")
    ack = nlreq(guest, "new", f"dev={dev}", "numjobs=2", "number-ios=1000")
    assert ack.errno == 0, ack.out
    job = int(ack.replies[0]["job-id"])
    try:
        if detector:
            guest.check(f"echo 1 >{hung}")
        guest.check("sleep 5")
        states = worker_stat(guest, 3, job)
    finally:
        if detector:
            guest.check(f"echo {saved} >{hung}")
    log = guest.dmesg_since(mark)
    assert states == ["I", "I"], states
    assert "blocked for more than" not in log, log
    assert nlreq(guest, "start", f"job-id={job}").errno == 0
    guest.check(f"for i in $(seq 100); do kiobench list | grep -q '^{job} .*DONE' && exit; "
                "sleep 0.1; done; exit 1")
    assert nlreq(guest, "del", f"job-id={job}").errno == 0
    no_jobs_left(guest)


SIGNALLED = """
kiobench run --filename={dev} --rw=randread --iodepth=4 --runtime=600 --time_based {extra} \
    >/tmp/sig.out 2>&1 &
pid=$!
for i in $(seq 100); do kiobench list | grep -q RUNNING && break; sleep 0.1; done
kill -INT $pid
sleep 1
kill -0 $pid || {{ echo "kiobench ended at the first signal"; exit 1; }}
kill -INT $pid
wait $pid
echo rc=$?
"""


@pytest.mark.core
@pytest.mark.budget(60)
def test_second_signal_takes_the_jobs_along(guest, kiobench_module, make_nullb):
    """The man page's SIGNALS: the first SIGINT stops the jobs and waits for
    them to drain (here 3 s, each I/O's completion time); a second one
    kills kiobench at once (by SIGINT: 130), and its jobs go with its
    socket: none is left once their I/O drained.  A --detach job stays,
    stopped, for `kiobench destroy`."""
    dev = make_nullb("nullb0", size_mb=32, completion_nsec=3_000_000_000)
    out = guest.check(SIGNALLED.format(dev=dev, extra=""), timeout=60)
    assert re.findall(r"^rc=(\d+)$", out, re.M) == ["130"], out
    guest.check("for i in $(seq 100); do [ $(kiobench list | wc -l) = 1 ] && exit 0; "
                "sleep 0.1; done; kiobench list; exit 1", timeout=30)
    out = guest.check(SIGNALLED.format(dev=dev, extra="--detach"), timeout=60)
    assert re.findall(r"^rc=(\d+)$", out, re.M) == ["130"], out
    guest.check("sleep 5")  # longer than the I/O takes to drain
    listing = guest.check("kiobench list")
    m = re.search(r"^(\d+)\s+\S+\s+STOPPED\s+detached\s", listing, re.M)
    assert m, listing
    guest.check(f"kiobench destroy {m.group(1)}")
    no_jobs_left(guest)


@pytest.mark.budget(60)
def test_detached_runtime_is_bounded(guest, kiobench_module, make_nullb):
    """A detached job runs at most max_detached_runtime: a longer runtime is
    refused, naming the parameter, and a job without a runtime ends DONE
    at the cap (here 2 s, where its one pass over the device takes 80 s)."""
    dev = make_nullb("nullb0", size_mb=32, completion_nsec=10_000_000)
    guest.check("rmmod kiobench && modprobe kiobench max_detached_runtime=2")
    r = guest.run(f"kiobench run --filename={dev} --rw=randread --runtime=3 --time_based --detach 2>&1")
    assert r.rc != 0 and "max_detached_runtime" in r.out, r.out
    ack = nlreq(guest, "new", f"dev={dev}")  # nlfuzz req detaches its jobs
    assert ack.errno == 0, ack.out
    job = ack.replies[0]["job-id"]
    assert nlreq(guest, "start", f"job-id={job}").errno == 0
    guest.check(f"for i in $(seq 80); do nlfuzz req get job-id={job} | grep -q 'state=2' "
                "&& exit; sleep 0.1; done; exit 1", timeout=30)
    assert nlreq(guest, "del", f"job-id={job}").errno == 0
    no_jobs_left(guest)


@pytest.mark.debug
@pytest.mark.budget(90)
def test_unstarted_detached_job_is_bounded_too(guest, kernel, kiobench_module, make_nullb):
    """A detached job nobody starts holds its devices, buffers and threads:
    max_detached_runtime after its creation (here 2 s; 10 s on the slow
    debug kernel) it is destroyed, and its threads are gone.  One started
    in time is not: it runs to its cap and ends DONE, and stays to be read.
    Mutation: no schedule_delayed_work() of the expiry in
    kb_nl_job_publish(): red (the unstarted job stays)."""
    cap = 10 if kernel.name == "debug" else 2
    dev = make_nullb("nullb0", size_mb=32, completion_nsec=10_000_000)
    guest.check(f"rmmod kiobench && modprobe kiobench max_detached_runtime={cap}")
    # nlfuzz req detaches its jobs
    guest.check(f"nlfuzz req new dev={dev} numjobs=2 && nlfuzz req new dev={dev} && "
                "nlfuzz req start job-id=2")
    threads = "cat /proc/[0-9]*/comm 2>/dev/null | grep -c '^kiobench1/' || true"
    assert guest.check(threads).strip() == "2"
    guest.check(f"for i in $(seq {100 * cap}); do nlfuzz req get job-id=1 | grep -q name=ENOENT "
                f"&& [ $({threads}) = 0 ] && exit; sleep 0.1; done; exit 1", timeout=60 * cap)
    guest.check(f"for i in $(seq {100 * cap}); do nlfuzz req get job-id=2 | grep -q 'state=2' "
                "&& exit; sleep 0.1; done; exit 1", timeout=60 * cap)
    assert nlreq(guest, "del", "job-id=2").errno == 0
    no_jobs_left(guest)


@pytest.mark.debug
@pytest.mark.budget(60)
def test_socket_job_limit(guest, kiobench_module, make_nullb):
    """One socket owns at most max_socket_jobs jobs: the next is refused,
    naming the parameter; detached jobs do not count.  Mutation:
    kb_nl_check_owned() letting one more through (`<=`): red."""
    dev = make_nullb("nullb0", size_mb=32)
    guest.check("rmmod kiobench && modprobe kiobench max_socket_jobs=2")
    jobs = "".join(f"[j{i}]\nfilename={dev}\nrw=randread\nnumber_ios=10\n" for i in range(3))
    guest.check(f"printf '{jobs}' >/tmp/three.fio")
    r = guest.run("kiobench run /tmp/three.fio 2>&1")
    assert r.rc != 0 and "max_socket_jobs" in r.out, r.out
    no_jobs_left(guest)
    guest.check("kiobench run --detach /tmp/three.fio >/dev/null")
    no_jobs_left(guest)


STRESS_SECONDS = 30
STRESS_TOOLS = 16


@pytest.mark.debug
@pytest.mark.budget(120)
def test_many_tools_at_once_some_killed(guest, kiobench_module, make_nullb):
    """A shared lab machine: 16 tool processes at once, each in a loop of
    create, start, read, stop (by its limit) and destroy on two shared
    null_blk devices; as often as the load allows one of them is killed
    with SIGKILL (at least 5 in all: past 30 s, those still missing at
    once); one
    more process keeps listing jobs and reading the debugfs files of jobs
    that are destroyed under it.  After the storm no job is left, every
    run that was not killed reported exactly its I/Os, the module's
    memory is all free again (a job of all of max_total_mem fits), and the
    kernel log has no KASAN, lockdep, hung-task or kmemleak report (the
    harness scans it)."""
    # room for every tool's job twice over (iodepth x bs x tools x 2): a
    # killed tool's job is destroyed by a work item, a moment later
    mem = 2 * (4 * 4096 + 4096) * STRESS_TOOLS  # and the locality counters
    guest.check(f"rmmod kiobench && modprobe kiobench max_job_mem={mem} max_total_mem={mem}")
    devs = [make_nullb(f"nullb{i}", size_mb=16) for i in range(2)]
    # The storm lasts STRESS_SECONDS, and on until 5 tools were killed (at
    # most 60 s more): under 17 busy processes TCG lets the killer run
    # rarely (4 kills in 30 s on a quiet host in CI).
    script = f"""
rm -rf /tmp/storm && mkdir -p /tmp/storm && cd /tmp/storm
end=$(( $(date +%s) + {STRESS_SECONDS} ))
for t in $(seq {STRESS_TOOLS}); do
    dev={devs[0]}; [ $((t % 2)) = 0 ] && dev={devs[1]}
    ( n=0; while [ ! -e stop ]; do
        n=$((n + 1))
        kiobench run --filename=$dev --rw=randread --iodepth=4 --number_ios=300 \\
            --name=t$t-$n --output-format=json --output=run.$t.$n.json 2>/dev/null
        echo $? >rc.$t.$n
      done ) &
done
( while [ ! -e stop ]; do
    kiobench list >/dev/null 2>&1
    for f in /sys/kernel/debug/kiobench/*/*; do cat $f >/dev/null 2>&1; done
    sleep 0.05
  done ) &
killed=0
while now=$(date +%s); [ $now -lt $end ] || [ $killed -lt 5 -a $now -lt $((end + 60)) ]; do
    sleep 0.3
    # the newest tool (pidof lists the most recent first); past the end,
    # as many as are still missing at once
    n=1; [ $now -ge $end ] && n=$((5 - killed))
    for p in $(pidof kiobench | tr ' ' '\n' | head -n $n); do
        kill -9 $p 2>/dev/null && killed=$((killed + 1))
    done
done
touch stop
wait
echo killed=$killed
"""
    out = guest.check(script, timeout=STRESS_SECONDS + 180)
    killed = int(re.search(r"^killed=(\d+)$", out, re.M).group(1))
    assert killed >= 5, out  # the storm waits for them, for at most 60 s
    # no job outlived its tool: killed tools' sockets took theirs along
    guest.check("for i in $(seq 50); do [ $(kiobench list | wc -l) = 1 ] && exit 0; "
                "sleep 0.1; done; kiobench list; exit 1", timeout=30)
    # every run that exited 0 wrote its job whole; killed ones (137) wrote nothing usable
    rcs = guest.check("cd /tmp/storm && for f in rc.*; do echo \"$f $(cat $f)\"; done")
    done_runs = [ln.split()[0][3:] for ln in rcs.splitlines() if ln.split()[1:] == ["0"]]
    other = [ln for ln in rcs.splitlines() if ln.split()[1:] not in (["0"], ["137"])]
    assert not other, other
    assert len(done_runs) >= 2 * STRESS_TOOLS, rcs  # the storm did run jobs to the end
    runs = done_runs[:40]
    out = guest.check("cd /tmp/storm && for r in " + " ".join(runs) + "; do "
                      "cat run.$r.json; echo; echo '#end'; done")
    docs = [d for d in re.split(r"^#end$", out, flags=re.M) if d.strip()]
    assert len(docs) == len(runs), (runs, docs)
    for doc in map(json.loads, docs):
        job = doc["jobs"][0]
        assert job["kiobench"]["state"] == "DONE", job["kiobench"]
        assert job["read"]["total_ios"] == job["read"]["clat_ns"]["N"] == 300, job["read"]
    # everything the jobs had charged is free: one job of all of max_total_mem fits
    guest.check(f"kiobench run --filename={devs[0]} --rw=randread --iodepth={8 * STRESS_TOOLS} "
                f"--number_ios=100 >/dev/null", timeout=60)
    no_jobs_left(guest)


def documented_parameters() -> dict[str, str]:
    """{parameter: default} of "Module parameters" in Documentation/kiobench.rst."""
    rst = (Path(__file__).resolve().parents[2] / "Documentation/kiobench.rst").read_text()
    section = rst.split("\nModule parameters\n", 1)[1].split("\n=====", 1)[0]
    return dict(re.findall(r"^``(\w+)=\[\w+\]``: Default: (\d+)", section, re.M))


@pytest.mark.core
def test_module_parameters_are_the_documented_ones(guest, kiobench_module):
    """The module's parameters and their defaults, as loaded, are those that
    kiobench.rst lists, every one of them."""
    doc = documented_parameters()
    assert len(doc) >= 4, doc
    got = dict(line.rsplit(":", 1) for line in guest.check(
        "cd /sys/module/kiobench/parameters && grep -H . *").split())
    assert got == doc


@pytest.mark.core
@pytest.mark.debug
@pytest.mark.budget(120)
def test_stuck_device_holds_up_no_other_request(guest, kernel, kiobench_module, make_nullb):
    """A job's device completes nothing (dm-delay holding reads for an hour)
    and its tool is killed: the reaper removes the job, whose workers wait
    for their I/O.  Meanwhile `kiobench list` (no job left in it), a request
    to another generic netlink family (nlctrl's CTRL_CMD_GETFAMILY, `nlfuzz
    family`) and a whole run on another device answer at once, while the
    job's threads still wait.  Then dm-delay lets its bios go (a suspend
    flushes them): the job is freed, its threads gone and its device
    closed, all within seconds.
    Mutation: no `.parallel_ops = true` on the family: red (the list waits
    for the registry's lock holding genl_mutex, nlctrl waits behind it).
    Mutation: the reaper drains the job itself (kb_job_put() for
    kb_job_put_async()), under the registry's lock: red (the list waits)."""
    slow = "kbslow"
    dmsetup = "DM_DISABLE_UDEV=1 dmsetup"
    # the debug kernel under TCG is about ten times slower
    limit = 5 if kernel.name == "debug" else 1
    base = make_nullb("nullb0", size_mb=32)
    other = make_nullb("nullb1", size_mb=32)
    table = f"0 $(blockdev --getsz {base}) delay {base} 0"
    guest.check("modprobe dm-delay")
    guest.check(f"{dmsetup} create {slow} --table \"{table} 3600000\"")
    # dm-delay's status: the bios it holds, read and written
    held = f"{dmsetup} status {slow} | awk '{{print $4}}'"
    # a new table without delay: the suspend flushes what the old one held
    release = (f"{dmsetup} load {slow} --table \"{table} 0\" && {dmsetup} suspend {slow} && "
               f"{dmsetup} resume {slow}")
    threads = "cat /proc/[0-9]*/comm 2>/dev/null | grep -c '^kiobench[0-9]' || true"
    released = False
    try:
        # two jobs (the tool's numjobs clones), one worker each, 4 reads each held
        guest.check(f"(kiobench run --filename=/dev/mapper/{slow} --rw=randread --iodepth=4 "
                    f"--numjobs=2 --runtime=600 --time_based >/dev/null 2>&1 &)")
        wait_running(guest, 2)
        guest.check(f"for i in $(seq 100); do [ $({held}) -ge 8 ] && exit; sleep 0.1; done; "
                    f"{dmsetup} status {slow}; exit 1")
        guest.check("kill -9 $(pidof kiobench); sleep 1")
        script = f"""
# in the background: a request waiting for a mutex cannot be killed
(kiobench list >/tmp/list.out 2>&1; echo rc=$? >>/tmp/list.out) &
for i in $(seq {limit * 10}); do grep -q '^rc=' /tmp/list.out && break; sleep 0.1; done
# the list answered, or waits (holding genl_mutex, were the family not parallel)
(nlfuzz family nlctrl >/tmp/ctrl.out 2>&1; echo rc=$? >>/tmp/ctrl.out) &
for i in $(seq {limit * 10}); do grep -q '^rc=' /tmp/ctrl.out && break; sleep 0.1; done
grep -q '^rc=0' /tmp/ctrl.out || bad="nlctrl did not answer"
grep -q '^rc=0' /tmp/list.out || bad="$bad; kiobench list did not answer"
[ -z "$bad" ] || {{ echo "$bad"; exit 1; }}
[ $(grep -c . /tmp/list.out) = 2 ] || {{ echo "jobs listed"; cat /tmp/list.out; exit 1; }}
timeout {10 * limit} kiobench run --filename={other} --rw=randread --number_ios=100 >/dev/null \\
    || {{ echo "no run on another device"; exit 1; }}
n=$({threads}); h=$({held})
[ "$n" = 2 ] && [ "$h" -ge 8 ] || {{ echo "not draining: $n threads, $h bios held"; exit 1; }}
"""
        guest.check(script, timeout=120)
        guest.check(release, timeout=60)
        released = True
        guest.check(f"for i in $(seq 300); do [ $({threads}) = 0 ] && "
                    f"[ $({dmsetup} info -c -o open --noheadings {slow}) = 0 ] "
                    "&& exit; sleep 0.1; done; exit 1", timeout=60)
        no_jobs_left(guest)
    finally:
        if not released:  # a red run: let the jobs go, so that the guest lives on
            guest.run(f"kill -9 $(pidof kiobench); sleep 1; {release}; sleep 2", timeout=120)
        guest.run(f"for i in $(seq 100); do {dmsetup} remove {slow} && exit; sleep 0.1; done",
                  timeout=60)
