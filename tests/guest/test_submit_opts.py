"""fio's options of how I/O is submitted, as the kernel did them: sync and
preflush_fua in each bio's flags (the block_bio_queue event's rwbs: F
before W a preflush, F after it FUA), and write_barrier in none, as
fio's; nice in the workers' nice value (/proc); nowait in the I/Os the block layer failed with EAGAIN
for want of a tag (null_blk with 4 tags at depth 32); serialize_overlap in
the requests the device had in flight at once (block_rq_issue and
block_rq_complete: never two overlapping ones); iodepth_low and
iodepth_batch_complete_min in the device's depth over time, the same
events; iodepth_batch in the plugs the worker flushed (block_unplug); write_hint in the group
number of the WRITE(10) commands sd sent (scsi_debug's permanent streams,
6.12), or in the refusal of a kernel whose bios carry no hint (6.1)."""
from __future__ import annotations

import json
import re

import pytest

from kb import (TRACING, block_events, dev_bios, disk_name, job_ids, mount_tracefs, nlreq,
                run_job, set_queue, tracepoint_rwbs, unplugs, worker_stat)
from vm.guest import Guest

# The submit options' paths (nowait and its retries among them) run under
# KASAN, lockdep and kmemleak: on the debug kernel (marked debug), the core
# ones on Debian's too.  The write hint on scsi_debug too (the debug kernel
# has SCSI); iodepth_low's timed case needs TCG's timing of a quick host
# and stays on 6.12, its hold runs under KASAN with 0-500 ms commands.

EAGAIN = 11


def scsi_debug(guest: Guest, **params: int) -> str:
    """scsi_debug with `params`, its disk's /dev path; rmmod it after."""
    if {"scsi_debug", "sd_mod"} & set(guest.initramfs.missing_modules):
        pytest.skip(f"{guest.kernel.name} has no scsi_debug or sd_mod")
    args = " ".join(f"{k}={v}" for k, v in params.items())
    guest.check(f"modprobe sd_mod && modprobe scsi_debug {args}")
    return guest.check("for i in $(seq 100); do for d in /sys/bus/pseudo/drivers/scsi_debug"
                       "/adapter*/host*/target*/*/block/*; do [ -b /dev/${d##*/} ] && "
                       "echo /dev/${d##*/} && exit 0; done; sleep 0.1; done; exit 1").strip()

@pytest.mark.debug
def test_sync_flags(guest: Guest, kiobench_module, make_nullb):
    """null_blk with a volatile cache (and FUA): sync=dsync makes all 16
    writes FUA (WFS), as a direct write to a block device opened O_DSYNC.
    Mutation: p_sync() not setting writefua: red (WS)."""
    dev = make_nullb("nullb0", size_mb=16, cache_size=16)
    base = f"kiobench run --allow-writes --filename={dev} --rw=write --bs=4k --iodepth=1 "
    rwbs = tracepoint_rwbs(guest, dev, "block_bio_queue", base + "--number_ios=16 --sync=dsync")
    assert rwbs == ["WFS"] * 16, rwbs


@pytest.mark.debug
def test_preflush_fua_and_write_barrier_as_fio(guest: Guest, kiobench_module, make_nullb):
    """preflush_fua=4 over 20 writes makes writes 4, 8, 12 and 16 (from 0)
    PREFLUSH | FUA (FWFS) and the others plain (WS).  write_barrier=4, as
    under fio on the same device (it marks the writes, and no engine of
    its sends anything for the mark), leaves all 20 plain.  Mutations:
    kb_submit_opf() without REQ_PREFLUSH: red (WFS barriers);
    write_barrier setting the kernel's write-barrier again (its old entry):
    red."""
    dev = make_nullb("nullb0", size_mb=16, cache_size=16)
    base = f"kiobench run --allow-writes --filename={dev} --rw=write --bs=4k --iodepth=1 "
    rwbs = tracepoint_rwbs(guest, dev, "block_bio_queue",
                           base + "--number_ios=20 --preflush_fua=4")
    want = ["FWFS" if i and i % 4 == 0 else "WS" for i in range(20)]
    assert rwbs == want, rwbs
    fio = tracepoint_rwbs(guest, dev, "block_bio_queue",
                          f"fio --name=b --filename={dev} --rw=write --bs=4k --direct=1 "
                          "--ioengine=libaio --number_ios=20 --size=1m --write_barrier=4")
    assert fio == ["WS"] * 20, fio
    out = guest.check(base + "--number_ios=20 --write_barrier=4 2>&1")
    assert "write_barrier: taken, it changes nothing that reaches the device" in out, out
    rwbs = tracepoint_rwbs(guest, dev, "block_bio_queue", base + "--number_ios=20 --write_barrier=4")
    assert rwbs == fio, rwbs


@pytest.mark.debug
def test_nice_of_the_workers(guest: Guest, kiobench_module, make_nullb):
    """nice=7 with numjobs=2: both kernel threads of the job run at nice 7
    (/proc/PID/stat) while it runs.  The job runs 15 s, so that a guest
    slowed by a busy host still sees it before it ends (2 s did not, in a
    loaded CI).  Mutation: kb_submit_nice() without set_user_nice(): red
    (0)."""
    dev = make_nullb("nullb0", size_mb=16)
    guest.check(f"(kiobench run --filename={dev} --rw=randread --bs=4k --numjobs=2 "
                f"--time_based --runtime=15 --nice=7 >/tmp/nice.out 2>&1 &)")
    out: list[str] = []
    for _ in range(30):
        out = worker_stat(guest, 19)
        if out == ["7", "7"]:
            break
        guest.check("sleep 0.2")
    guest.check("while pidof kiobench >/dev/null; do sleep 0.2; done", timeout=90)
    nices = [int(x) for x in out]
    assert nices == [7, 7], out


@pytest.mark.debug
@pytest.mark.core
@pytest.mark.api
def test_nowait_fails_what_would_wait(guest: Guest, kiobench_module, make_nullb):
    """null_blk with 4 tags (hw_queue_depth=4, no scheduler) at iodepth=32,
    I/Os held 1 ms: with nowait the block layer fails the bios it has no
    tag for (BLK_STS_AGAIN) and they are errors, as EAGAIN is for fio: the
    job fails with EAGAIN, or with continue_on_error and ignore_error=EAGAIN
    (fio goes on from EIO and EILSEQ alone without it) ends DONE with errors
    counted and none retried.  Without nowait the same job has no error.
    fio's libaio does the same: continue_on_error=1 alone stops at EAGAIN,
    with ignore_error=EAGAIN goes on; kiobench's error and total_err are
    fio's (mutation: the tool's put_errors() sending the kernel's
    continue-on-error again: red, kiobench goes on).
    Mutations: kb_submit_opf() without REQ_NOWAIT: red (no error);
    kb_end_io() taking nowait's refusals for the polled path's: red (no
    error, the refusals retried)."""
    dev = make_nullb("nullb0", size_mb=16, hw_queue_depth=4, completion_nsec=1000000)
    set_queue(guest, dev, scheduler="none")
    args = f"--filename={dev} --rw=randread --bs=4k --iodepth=32 --number_ios=400"
    job = run_job(guest, args)
    assert job["kiobench"]["state"] == "DONE" and job["read"]["total_ios"] == 400
    assert job["kiobench"]["errors"]["read"] == 0, job["kiobench"]
    job = run_job(guest, args + " --nowait=1 --continue_on_error=1 --ignore_error=EAGAIN")
    kb = job["kiobench"]
    assert kb["state"] == "DONE" and kb["settings"]["nowait"], kb
    assert 0 < kb["errors"]["read"] < 400 and kb["retries"] == 0, kb
    assert job["read"]["total_ios"] + kb["errors"]["read"] == 400, (job["read"], kb)
    r = guest.run(f"kiobench run --output-format=json --output=/tmp/nw.json {args} --nowait=1")
    assert r.rc != 0, r.out
    assert re.search(r'"error" *: *%d\b' % EAGAIN, guest.check("cat /tmp/nw.json")), r.out
    # as fio 3.33 (libaio, RWF_NOWAIT), a job that is not EIO's: continue_on_error
    # alone goes on from EIO and EILSEQ, so EAGAIN stops it; with ignore_error=EAGAIN
    # it goes on, its error the first gone on from
    fio = (f"fio --name=nw --filename={dev} --rw=randread --bs=4k --iodepth=32 "
           f"--number_ios=400 --ioengine=libaio --direct=1 --nowait=1 --output-format=json "
           f"--output=/tmp/nw.json")
    for extra, goes_on in (("--continue_on_error=1", False),
                           ("--continue_on_error=1 --ignore_error=EAGAIN", True)):
        got = []
        for cmd in (fio, f"kiobench run --output-format=json --output=/tmp/nw.json {args} "
                         f"--nowait=1"):
            guest.run(f"{cmd} {extra}")
            j = json.loads(guest.check("cat /tmp/nw.json"))["jobs"][0]
            got.append((j["error"], j["total_err"] > 0))
        assert got == [(EAGAIN, goes_on)] * 2, (extra, got)


def device_inflight(guest: Guest, dev: str, cmd: str) -> list[tuple[bool, int, int]]:
    """(issued, first sector, sectors) of each request of dev that moved data
    while cmd ran, from block_rq_issue and block_rq_complete, in order."""
    return [(e.action == "D", e.sector, e.nbytes // 512)
            for e in block_events(guest, dev, cmd, "DC", 120)]


def inflight_overlaps(guest: Guest, dev: str, cmd: str) -> tuple[int, int, int]:
    """The requests issued while one overlapping them was in flight, the
    most in flight at once, and the requests issued."""
    inflight: dict[int, int] = {}
    overlaps = most = issues = 0
    for issued, start, n in device_inflight(guest, dev, cmd):
        if issued:
            issues += 1
            overlaps += any(s < start + n and start < s + k for s, k in inflight.items())
            inflight[start] = n
            most = max(most, len(inflight))
        else:
            inflight.pop(start, None)
    return overlaps, most, issues


@pytest.mark.debug
def test_serialize_overlap(guest: Guest, kiobench_module, make_nullb):
    """600 random 4 KiB writes with replacement over 8 blocks at
    iodepth=8, each held 200 us by null_blk, merging off: without
    serialize_overlap the device has overlapping writes in flight at once
    (about 200 of the 600 here); with it, never one, though several writes
    are still in flight together.  The job's size is the 8 blocks and its
    io_size the 600 writes (number_ios=600 of a 32 KiB size ends after 8
    writes, as fio's does: this test once ran those 8 only, which the plug
    merged into 4 requests).  Mutations: kb_retry() without
    kb_overlap_held(), through which every write after the first 8 goes:
    red (210 overlaps); kb_queue() without it: red (2)."""
    dev = make_nullb("nullb0", size_mb=16, completion_nsec=200000)
    q = f"/sys/block/{disk_name(dev)}/queue"
    guest.check(f"echo none >{q}/scheduler && echo 2 >{q}/nomerges")
    cmd = (f"kiobench run --allow-writes --filename={dev} --rw=randwrite --bs=4k --size=32k "
           f"--io_size=2400k --norandommap --iodepth=8")
    overlaps, most, issues = inflight_overlaps(guest, dev, cmd)
    assert issues == 600 and overlaps > 0, (overlaps, most, issues)
    overlaps, most, issues = inflight_overlaps(guest, dev, cmd + " --serialize_overlap=1")
    assert issues == 600 and overlaps == 0 and most >= 2, (overlaps, most, issues)


@pytest.mark.core
@pytest.mark.debug
def write_groups(guest: Guest, cmd: str) -> list[int]:
    """The group numbers of the writes sd sent while cmd ran
    (scsi_dispatch_cmd_start's raw CDB, byte 6 of a WRITE(10)); None if
    cmd failed (its output in the exception's place: returned as str)."""
    ev = f"{TRACING}/events/scsi/scsi_dispatch_cmd_start"
    mount_tracefs(guest)
    guest.check(f"echo >{TRACING}/trace && echo 1 >{ev}/enable")
    try:
        r = guest.run(cmd, timeout=120)
    finally:
        guest.check(f"echo 0 >{ev}/enable")
    if r.rc:
        return r.out
    cdbs = re.findall(r"cmnd=\((\w+) [^)]*raw=([0-9a-f ]+)\)",
                      guest.check(f"cat {TRACING}/trace"))
    writes = [(op, raw.split()) for op, raw in cdbs if op.startswith("WRITE")]
    assert writes and all(op == "WRITE_10" for op, _ in writes), cdbs
    return sorted({int(raw[6], 16) & 0x3f for _, raw in writes})


def test_write_hint(guest: Guest, kiobench_module):
    """write_hint=medium on a scsi_debug disk, whose permanent streams sd
    reads (6.10+): every write sd sends has group number 3, the hint;
    without it, group 0.  A kernel whose bios carry no hint (6.1) refuses
    the job, naming bi_write_hint.  Debian's fio 3.33 fails the same job
    (EINVAL from F_SET_FILE_RW_HINT), which the test pins: a fio that runs
    it is one to compare with.  Mutation: kb_issue() not setting the hint:
    red (group 0)."""
    dev = scsi_debug(guest, dev_size_mb=16)
    try:
        args = f"--filename={dev} --rw=randwrite --bs=4k --iodepth=4 --number_ios=40"
        groups = write_groups(guest, f"kiobench run --allow-writes {args} --write_hint=medium")
        if isinstance(groups, str):
            assert "write-hint: this kernel's bios carry no write hint" in groups, groups
            assert guest.kernel.name.startswith("6.1."), groups
            return
        assert groups == [3], groups
        assert write_groups(guest, f"kiobench run --allow-writes {args}") == [0]
        # why fio is not the reference here: 3.33 sets a direct job's hint
        # with F_SET_FILE_RW_HINT, gone since Linux 5.18 (fio falls back to
        # the inode's F_SET_RW_HINT from bd553af6 on)
        fio = write_groups(guest, f"fio --name=h --direct=1 --ioengine=libaio {args} "
                                  "--write_hint=medium")
        assert isinstance(fio, str) and "func=fcntl write hint, error=Invalid argument" in fio, \
            fio
    finally:
        guest.run("rmmod scsi_debug")


def refills_above(guest: Guest, dev: str, cmd: str, depth: int, low: int) -> tuple[int, int]:
    """The requests issued after the device had `depth` in flight and before
    it was back to `low`, and the times it reached `depth`."""
    inflight = set()
    full = early = fulls = 0
    for issued, start, _ in device_inflight(guest, dev, cmd):
        if issued:
            early += full
            inflight.add(start)
            if len(inflight) == depth:
                full, fulls = 1, fulls + 1
        else:
            inflight.discard(start)
            if len(inflight) <= low:
                full = 0
    return early, fulls


def null_fifo(make_nullb, guest: Guest, sched: str = "none") -> str:
    """null_blk holding each I/O 200 us, with `sched` and no merges."""
    dev = make_nullb("nullb0", size_mb=64, completion_nsec=200000)
    q = f"/sys/block/{disk_name(dev)}/queue"
    guest.check(f"echo {sched} >{q}/scheduler && echo 2 >{q}/nomerges")
    return dev


def test_iodepth_low_and_complete_min(guest: Guest, kiobench_module):
    """iodepth=16 on scsi_debug, each command taking 0 to 1 ms at random:
    with iodepth_low=4 the device, once it has 16 reads in flight, gets
    none until it is back to 4 (several times over 800 reads); with
    iodepth_batch_complete_min=8, none until back to 8; without either, the
    worker refills before.  How often the device reaches 16 depends on
    TCG: only when 16 submissions beat the first completions (in one 6.12
    guest, 0 to 48 times in 800 reads, the refills before 8 from 0 to 31),
    so a run that did not show the case is made again, up to three runs
    summed; a refill early in any run of the held cases fails.  Mutation:
    kb_refill_held() always false: red."""
    dev = scsi_debug(guest, dev_size_mb=64, ndelay=1000000, random=1)
    q = f"/sys/block/{disk_name(dev)}/queue"
    guest.check(f"echo none >{q}/scheduler && echo 2 >{q}/nomerges")
    cmd = f"kiobench run --filename={dev} --rw=randread --bs=4k --iodepth=16 --number_ios=800 "

    def runs(extra: str, low: int, shown) -> tuple[int, int]:
        early = fulls = 0
        for _ in range(3):
            e, f = refills_above(guest, dev, cmd + extra, 16, low)
            early, fulls = early + e, fulls + f
            if shown(early, fulls):
                break
        return early, fulls

    try:
        early, fulls = runs("", 8, lambda e, f: e > 0 and f > 1)
        assert early > 0 and fulls > 1, (early, fulls)
        early, fulls = runs("--iodepth_low=4", 4, lambda e, f: e > 0 or f > 2)
        assert early == 0 and fulls > 2, (early, fulls)
        early, fulls = runs("--iodepth_batch_complete_min=8", 8, lambda e, f: e > 0 or f > 2)
        assert early == 0 and fulls > 2, (early, fulls)
    finally:
        guest.run("rmmod scsi_debug")


@pytest.mark.debug
def test_iodepth_low_holds_the_refill_under_debug(guest: Guest, kiobench_module):
    """iodepth_low's hold (kb_refill_held()) under KASAN: scsi_debug taking
    0 to 500 ms per command at random, so that 16 submissions beat the
    first completion (on the debug kernel too) and the completions come
    apart; with iodepth=16 and iodepth_low=4 the device, each time it has
    16 in flight, gets none until it is back to 4 (twice or more over 64
    reads).  null_blk's timer completes a fill's reads in one burst, which
    shows nothing.  Mutation: kb_refill_held() always false: red (a read
    per completion)."""
    dev = scsi_debug(guest, dev_size_mb=16, ndelay=500_000_000, random=1)
    q = f"/sys/block/{disk_name(dev)}/queue"
    try:
        guest.check(f"echo none >{q}/scheduler && echo 2 >{q}/nomerges")
        cmd = (f"kiobench run --filename={dev} --rw=randread --bs=4k --iodepth=16 "
               "--iodepth_low=4 --number_ios=64 ")
        early, fulls = refills_above(guest, dev, cmd, 16, 4)
        assert early == 0 and fulls >= 2, (early, fulls)
    finally:
        guest.run("rmmod scsi_debug")


@pytest.mark.debug
def test_reap_rounds_on_every_path_under_debug(guest: Guest, kiobench_module, make_nullb):
    """fio's rounds of reaping (kb_fio_reap()) under KASAN on the paths
    other than a plain refill, each job to its last I/O as the device
    counts it, and the worker's count of what it has reaped or not back
    to none at each pass's end (its WARN_ON_ONCE, which fails the log
    scan): polled reads refused a tag (4 tags at depth 8) waiting at the
    head of the queue; thinktime pauses, whose drain reaps the rest with
    nothing in flight; verify's windows and read-back, passes of their
    own; a runtime's end, completions dropped while a round waits.  The
    rounds' arithmetic is KUnit's (kb_fio_reap_in_rounds), fio's stream the
    reap-low and reap-min cases'.  Mutation: a slot taken off the queue
    not counted (kb_took_deferred() empty): red (the warning)."""
    poll = make_nullb("nullb0", size_mb=64, memory_backed=False, poll_queues=1,
                      hw_queue_depth=4)
    dev = make_nullb("nullb1", size_mb=16, completion_nsec=100_000)
    rounds = "--iodepth=8 --iodepth_low=2 --iodepth_batch_complete_min=3 --bs=4k"
    before = dev_bios(guest, poll)
    job = run_job(guest, f"--filename={poll} --rw=randread {rounds} --hipri --number_ios=2000")
    assert job["kiobench"]["retries"] > 0, "no polled bio was refused a tag"
    assert job["read"]["total_ios"] == 2000 == dev_bios(guest, poll) - before, job["read"]
    for args, reads, writes in (
            ("--rw=randread --thinktime=1000 --thinktime_blocks=5 --number_ios=500", 500, 0),
            ("--rw=randwrite --allow-writes --verify=crc32c --verify_backlog=16 --size=4m",
             1024, 1024),
            ("--rw=randread --runtime=1 --time_based", None, 0)):
        before = dev_bios(guest, dev)
        job = run_job(guest, f"--filename={dev} {rounds} {args}")
        r, w = job["read"]["total_ios"], job["write"]["total_ios"]
        assert (reads is None or r == reads) and w == writes, (args, r, w)
        assert r + w == dev_bios(guest, dev) - before, (args, r, w)


@pytest.mark.debug
def test_iodepth_batch_submit(guest: Guest, kiobench_module, make_nullb):
    """iodepth=16 under mq-deadline: with iodepth_batch=4 every plug the
    worker flushes holds at most 4 requests (block_unplug's count), the
    first fill 4 of 4; without it the first fill is one plug of more.
    Mutation: kb_submit_issued() not flushing the plug: red."""
    dev = null_fifo(make_nullb, guest, "mq-deadline")
    cmd = f"kiobench run --filename={dev} --rw=randread --bs=4k --iodepth=16 --number_ios=200 "

    def worker_unplugs(args: str) -> list[int]:
        return [n for comm, n in unplugs(guest, cmd + args)
                if re.fullmatch(r"kiobench\d+/\d+", comm)]
    u = worker_unplugs("")
    assert u and max(u) > 4, u
    u = worker_unplugs("--iodepth_batch=4")
    assert u[:4] == [4, 4, 4, 4] and max(u) == 4, u


@pytest.mark.debug
def test_iodepth_batch_above_a_plug_is_refused(guest: Guest, kiobench_module, make_nullb):
    """The block layer flushes a plug of 32 requests itself
    (BLK_MAX_REQUEST_COUNT): an iodepth_batch above 32 would silently be
    32, so the policy refuses it (ERANGE, the bound 1..32 on iodepth-batch)
    and the tool refuses it by name; 32 is taken.  Mutation: the spec's
    iodepth-batch without its max (netlink-gen.h regenerated): the raw
    request makes a job: red."""
    dev = make_nullb("nullb0", size_mb=16)
    ack = nlreq(guest, "new", f"dev={dev}", "iodepth=64", "iodepth-batch=48", "number-ios=10")
    assert ack.name == "ERANGE" and ack.attr == "iodepth-batch", ack.out
    assert ack.bound == (1, 32), ack.out
    assert job_ids(guest) == []
    r = guest.run(f"kiobench run --filename={dev} --iodepth=64 --iodepth_batch=48 "
                  "--number_ios=10")
    assert r.rc != 0 and "iodepth_batch" in r.out, r.out
    ack = nlreq(guest, "new", f"dev={dev}", "iodepth=64", "iodepth-batch=32", "number-ios=10")
    assert ack.errno == 0, ack.out
    assert nlreq(guest, "del", f"job-id={ack.replies[0]['job-id']}").errno == 0


@pytest.mark.debug
def test_submit_rules_across_attributes_are_the_kernels(guest: Guest, kiobench_module,
                                                        make_nullb):
    """Raw requests the tool never sends, refused by kb_parse_submit() on
    its own with the attribute named, and no job left: iodepth-low (a
    refill point) with rate-iops, whose open loop has no refill, and
    complete-min with flow, whose held slots are not fio's depth;
    write-barrier with write-zeroes (REQ_PREFLUSH | REQ_FUA on plain writes
    only).  Mutation: kb_parse_batch()'s rate-iops check dropped
    (`if (0 && cfg->reap_rounds ...`): red (the job is made)."""
    dev = make_nullb("nullb0", size_mb=16)
    for extra, attr, msg in (
            (["iodepth=8", "iodepth-low=2", "rate-iops=100"], "iodepth-low",
             "iodepth-low, iodepth-batch-complete-min: not with rate-iops"),
            (["iodepth=8", "iodepth-batch-complete-min=3", "flow=2"],
             "iodepth-batch-complete-min",
             "iodepth-low, iodepth-batch-complete-min: not with rate-iops, "
             "latency-target-ns or flow"),
            (["allow-writes", "rwmix-read=0", "write-zeroes", "write-barrier=4"],
             "write-barrier",
             "write-barrier: not with write-zeroes")):
        ack = nlreq(guest, "new", f"dev={dev}", "number-ios=10", *extra)
        if ack.errno == 0:
            nlreq(guest, "del", f"job-id={ack.replies[0]['job-id']}")
        assert ack.name == "EINVAL" and ack.attr == attr and ack.msg.startswith(msg), \
            (extra, ack.out)
    assert job_ids(guest) == []


@pytest.mark.core
@pytest.mark.debug
def test_write_streams_refused(guest: Guest, kiobench_module, make_nullb):
    """write_streams on null_blk, which offers no write stream: refused,
    naming the attribute, the stream and the device's max_write_streams
    (0) on a kernel with write streams (the debug kernel, 7.2); a kernel
    whose bios carry none (6.1, 6.12) refuses the attribute itself,
    naming bi_write_stream and 6.16.  Nothing is written.  The streams'
    effect is test_write_streams.py's, on an FDP namespace.  Mutation:
    kb_check_submit() without the limit: red (the job runs)."""
    dev = make_nullb("nullb0", size_mb=16)
    r = guest.run(f"kiobench run --allow-writes --filename={dev} --rw=write --bs=4k "
                  f"--number_ios=4 --write_streams=1")
    assert r.rc != 0, r.out
    if guest.kernel.name.startswith("6."):
        assert "write-streams: this kernel's bios carry no write stream " \
               "(bi_write_stream: 6.16)" in r.out, r.out
    else:
        assert f"write-streams: stream 1 beyond max_write_streams 0 of {dev}" in r.out, r.out
    assert stat_bios_written(guest, dev) == 0


def stat_bios_written(guest: Guest, dev: str) -> int:
    """Writes completed on `dev` (its stat's fifth field)."""
    return int(guest.check(f"cat /sys/block/{disk_name(dev)}/stat").split()[4])
