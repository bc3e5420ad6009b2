"""fio's read_iolog and replay options: kiobench replays a log's I/Os, and
the block layer sees exactly them, in order, on the device.

Every job runs at iodepth=1, so that dispatch order is the log's order.
Neither core nor debug: the entries are read by the same code on every
kernel; the timing test measures the open loop's schedule (hrtimers).
"""
from __future__ import annotations

import struct

import pytest

from kb import block_events, dev_bios, job_ids, nlreq, run_job, stat_path, wait_for
from test_fio_files import SLOW, traced

# replay's upload and its table run under KASAN, lockdep and kmemleak: on the
# debug kernel, not twice on 6.12
pytestmark = pytest.mark.debug


def put(guest, path: str, text: str) -> None:
    guest.check(f"cat >{path} <<'EOF'\n{text}EOF")


def log_ios(text: str) -> list[tuple[str, int, int]]:
    """The (R/W, offset, bytes) of a log's read and write lines, in order."""
    out = []
    lines = text.splitlines()
    v3 = lines[0] == "fio version 3 iolog"
    for line in lines[1:]:
        f = line.split()[1:] if v3 else line.split()
        if len(f) == 4 and f[1] in ("read", "write"):
            out.append(("R" if f[1] == "read" else "W", int(f[2]), int(f[3])))
    return out


def test_replays_fios_own_log_in_order(guest, kiobench_module, make_nullb):
    """Debian's fio writes an iolog of a small random mixed job on one
    null_blk; kiobench replays it (replay_redirect) on another: the block
    layer sees the log's reads and writes, offsets and sizes, in the log's
    order, and the kernel counts as many of each.  Mutation: kb_replay_pick()
    not advancing its cursor (every I/O the first entry's): red."""
    src = make_nullb("nullb0", size_mb=16)
    dst = make_nullb("nullb1", size_mb=16)
    guest.check(f"fio --name=w --filename={src} --direct=1 --ioengine=psync --rw=randrw "
                f"--bsrange=4k-16k --size=4M --number_ios=60 --randrepeat=0 "
                f"--write_iolog=/tmp/w.log --output=/dev/null")
    text = guest.check("cat /tmp/w.log")
    want = log_ios(text)
    assert text.startswith("fio version 3 iolog") and len(want) >= 50, text
    assert {o for o, _, _ in want} == {"R", "W"}, want
    got = traced(guest, dst, f"kiobench run --name=r --read_iolog=/tmp/w.log "
                             f"--replay_redirect={dst} --replay_no_stall --iodepth=1 "
                             f"--allow-writes --output=/dev/null")
    assert got.ios == want
    job = run_job(guest, f"--name=r --read_iolog=/tmp/w.log --replay_redirect={dst} "
                         f"--replay_no_stall --allow-writes")
    assert job["read"]["total_ios"] == sum(o == "R" for o, _, _ in want)
    assert job["write"]["total_ios"] == sum(o == "W" for o, _, _ in want)


def issue_times(guest, dev: str, cmd: str) -> list[float]:
    """The times (s) the block layer saw each read queued (submit_bio(), in
    the worker's task: the driver's issue, D, may come ms later from
    another CPU under TCG), while cmd ran."""
    return [e.ns / 1e9 for e in block_events(guest, dev, cmd, "Q", SLOW) if "R" in e.rwbs]


GAP_MS = 20
N_TIMED = 11


@pytest.mark.timing  # +40 ms: a guest starved beside others loses more
@pytest.mark.parametrize("extra,span_ms", [("", GAP_MS * (N_TIMED - 1)),
                                           ("--replay_time_scale=200",
                                            GAP_MS * (N_TIMED - 1) / 2)])
def test_v3_times_are_honoured(guest, kiobench_module, make_nullb, extra, span_ms):
    """A v3 log of reads 20 ms apart (after its add and open lines, whose
    timestamps count too, as fio's) replays in their span: first to last issue
    200 ms (100 ms at replay_time_scale=200), to within -1 ms (the first
    issue anchors the others' times, and a timer is never early: the
    slack is the jitter of building the bio) and +40 ms (TCG's timers
    overshoot by ~0.1-1 ms each, the first wake-up by ~4 ms; a guest
    starved by another one on the host adds over 100 ms); with
    replay_no_stall all go out at once, in under a fifth of it.
    Mutation: kb_open_loop() without replay_timed (closed loop): red."""
    dev = make_nullb("nullb0", size_mb=16)
    lines = ["fio version 3 iolog", f"1000 {dev} add", f"2000 {dev} open"]
    lines += [f"{2000 + i * GAP_MS * 1000} {dev} read {i * 8192} 4096" for i in range(N_TIMED)]
    put(guest, "/tmp/t.log", "\n".join(lines) + "\n")
    base = f"kiobench run --name=t --read_iolog=/tmp/t.log --iodepth=4 --output=/dev/null"
    t = issue_times(guest, dev, f"{base} {extra}")
    assert len(t) == N_TIMED
    span = (t[-1] - t[0]) * 1000
    assert span_ms - 1 <= span <= span_ms + 40, (span, t)
    t = issue_times(guest, dev, f"{base} {extra} --replay_no_stall")
    assert len(t) == N_TIMED
    assert (t[-1] - t[0]) * 1000 < span_ms / 5, t


V2 = """fio version 2 iolog
{dev} add
{dev} open
{dev} read 40960 4096
{dev} write 12288 8192
{dev} read 1052672 4096
{dev} sync 0 0
{dev} write 73728 4096
{dev} read 10240 4096
{dev} close
"""


@pytest.mark.parametrize("opts,expect", [
    ("", lambda o, n: (o, n)),
    # fio's ipo: offset / replay_scale
    ("--replay_scale=4", lambda o, n: (o // 4, n)),
    # then aligned down to replay_align
    ("--replay_scale=2 --replay_align=8192", lambda o, n: ((o // 2) & ~8191, n)),
])
def test_replay_scale_and_align_move_offsets_as_fio(guest, kiobench_module, make_nullb,
                                                     opts, expect):
    """A v2 log replayed with replay_scale and replay_align: each I/O's
    offset is fio's (offset / scale, aligned down), its size and direction
    the log's.  Mutation: add_io() not dividing by replay_scale: red
    (replay_scale=4); not aligning: red (replay_align)."""
    dev = make_nullb("nullb0", size_mb=16)
    text = V2.format(dev=dev)
    put(guest, "/tmp/v2.log", text)
    want = [(op, *expect(o, n)) for op, o, n in log_ios(text)]
    got = traced(guest, dev, f"kiobench run --name=s --read_iolog=/tmp/v2.log --iodepth=1 "
                             f"--allow-writes {opts} --output=/dev/null")
    assert got.ios == want


@pytest.mark.parametrize("skip,keep", [("write", "R"), ("read", "W"), ("read,write,sync", None)])
def test_replay_skip_leaves_kinds_out(guest, kiobench_module, make_nullb, skip, keep):
    """replay_skip=write replays the log's reads only, read its writes
    (skipping reads, writes and syncs leaves nothing, which is refused as
    fio refuses an empty log);
    the kernel counts only those.  Mutation: add_io() ignoring
    replay_skip: red."""
    dev = make_nullb("nullb0", size_mb=16)
    text = V2.format(dev=dev)
    put(guest, "/tmp/v2.log", text)
    cmd = (f"kiobench run --name=k --read_iolog=/tmp/v2.log --iodepth=1 --allow-writes "
           f"--replay_skip={skip} --output=/dev/null")
    if keep is None:
        r = guest.run(cmd)
        assert r.rc == 1 and "no I/O to replay (replay_skip left none)" in r.out, r.out
        return
    got = traced(guest, dev, cmd)
    assert got.ios == [i for i in log_ios(text) if i[0] == keep]


@pytest.mark.parametrize("line,allow,msg", [
    ("{dev} read 512 4096", True, "/tmp/b.log:4: offset 512 length 4096: not multiples "
                                  "of {dev}'s logical block size 4096"),
    ("{dev} read 16773120 8192", True, "/tmp/b.log:4: offset 16773120 length 8192 ends "
                                       "beyond {dev} (16777216 bytes)"),
    ("{dev} frob 0 4096", True, "/tmp/b.log:4: unknown action 'frob'"),
    ("{dev} write 0 4096", False, "read_iolog /tmp/b.log:4 writes to {dev}: refusing "
                                  "without --allow-writes"),
    # a flush writes the device's cache out
    ("{dev} sync 0 0", False, "read_iolog /tmp/b.log:4 writes to {dev}: refusing "
                              "without --allow-writes"),
])
def test_bad_logs_are_refused_before_any_io(guest, kiobench_module, make_nullb, line,
                                            allow, msg):
    """An unaligned offset, one beyond the device, an unknown action and a
    write without --allow-writes are refused, naming the log's line, and the
    device sees no I/O.  Mutation: check_entries() skipped: red (the first
    two reach the kernel, which refuses them naming the entry, not the
    line... and the refusal of writes: replay_write_line never set: red;
    not set for a sync: red, the kernel refusing it by its entry)."""
    dev = make_nullb("nullb0", size_mb=16, blocksize=4096)
    put(guest, "/tmp/b.log", f"fio version 2 iolog\n{dev} add\n{dev} read 0 4096\n"
                             f"{line.format(dev=dev)}\n{dev} read 4096 4096\n")
    before = dev_bios(guest, dev)
    r = guest.run(f"kiobench run --name=b --read_iolog=/tmp/b.log "
                  f"{'--allow-writes ' if allow else ''}--output=/dev/null")
    assert r.rc == 1 and msg.format(dev=dev) in r.out, r.out
    assert dev_bios(guest, dev) == before


def ents(*e: tuple[int, int, int, int]) -> str:
    """struct kiobench_replay_ent entries (offset, time_ns, len, dir) as hex."""
    return "".join(struct.pack("<QQII", *x).hex() for x in e)


def test_kernel_checks_each_uploaded_entry(guest, kiobench_module, make_nullb):
    """Raw netlink, past the tool's own checks: JOB_START refuses a job
    whose log is incomplete; JOB_REPLAY refuses, naming the entry, an
    offset off the logical block size, an I/O beyond the device, a write
    without allow-writes and more entries than replay-nr announced; a
    refused chunk leaves the count as it was, and the job, once complete,
    starts; an unknown dir, a zero len, a partial entry, a sync with an
    offset, a trim on a device without discard, and replay-nr with
    rate-iops are refused too, and no job is left.  Mutation:
    kb_replay_check() without its alignment check: red; kb_replay_ready()
    always 0: red; without its dir check: red (dir 5 taken)."""
    dev = make_nullb("nullb0", size_mb=16, blocksize=4096)
    ack = nlreq(guest, "new", f"dev={dev}", "replay-nr=2")
    assert ack.errno == 0, ack.out
    jid = ack.replies[0]["job-id"]
    ack = nlreq(guest, "start", f"job-id={jid}")
    assert ack.name == "EINVAL" and "replay-nr: 0 of 2 entries uploaded" in ack.msg, ack.out
    cases = [((512, 0, 4096, 0), "EINVAL", "entry 0: offset not a multiple of the LBS 4096"),
             ((16 << 20, 0, 4096, 0), "ERANGE", "entry 0: ends beyond the device"),
             ((0, 0, 4096, 1), "EINVAL", "entry 0: a write without allow-writes"),
             ((0, 0, 4096, 5), "EINVAL", "entry 0: dir 5 unknown"),
             ((0, 0, 0, 0), "EINVAL", "entry 0: len 0: 0, above bs or not LBS-aligned")]
    for e, name, msg in cases:
        ack = nlreq(guest, "replay", f"job-id={jid}", f"replay-ents:hex={ents(e)}")
        assert (ack.name, ack.attr) == (name, "replay-ents") and msg in ack.msg, ack.out
    ok = (4096, 0, 4096, 0)
    ack = nlreq(guest, "replay", f"job-id={jid}", f"replay-ents:hex={ents(ok)[:-2]}")
    assert ack.name == "EINVAL" and "not a whole number of 24-byte entries" in ack.msg, ack.out
    ack = nlreq(guest, "replay", f"job-id={jid}", f"replay-ents:hex={ents(ok, ok, ok)}")
    assert ack.name == "E2BIG" and "3 more entries after 0 of replay-nr 2" in ack.msg, ack.out
    ack = nlreq(guest, "replay", f"job-id={jid}", f"replay-ents:hex={ents(ok)}")
    assert ack.errno == 0, ack.out
    ack = nlreq(guest, "start", f"job-id={jid}")
    assert "1 of 2 entries uploaded" in ack.msg, ack.out
    ack = nlreq(guest, "replay", f"job-id={jid}", f"replay-ents:hex={ents(ok)}")
    assert ack.errno == 0, ack.out
    ack = nlreq(guest, "start", f"job-id={jid}")
    assert ack.errno == 0, ack.out
    guest.check(f"kiobench stop {jid} >/dev/null 2>&1; sleep 0.5; kiobench destroy {jid}")
    # with allow-writes: a sync has no offset, a trim needs discard (none here)
    ack = nlreq(guest, "new", f"dev={dev}", "replay-nr=2", "allow-writes")
    assert ack.errno == 0, ack.out
    jid = ack.replies[0]["job-id"]
    for e, name, msg in (((4096, 0, 0, 3), "EINVAL", "entry 0: a sync with an offset or len"),
                         ((0, 0, 4096, 2), "EOPNOTSUPP",
                          "entry 0: a trim; discard_max_bytes is 0")):
        ack = nlreq(guest, "replay", f"job-id={jid}", f"replay-ents:hex={ents(e)}")
        assert (ack.name, ack.attr) == (name, "replay-ents") and msg in ack.msg, ack.out
    assert "0 of 2 entries uploaded" in nlreq(guest, "start", f"job-id={jid}").msg
    assert nlreq(guest, "del", f"job-id={jid}").errno == 0
    ack = nlreq(guest, "new", f"dev={dev}", "replay-nr=2", "rate-iops=100")
    assert (ack.name, ack.attr) == ("EINVAL", "replay-nr") and \
        "not with rate-iops, thinktime-ns, verify" in ack.msg, ack.out
    assert job_ids(guest) == []


def flushes(guest, dev: str) -> int:
    """Flush requests the device has completed: its stat file's field 16
    (Documentation/block/stat.rst), counted by the block layer as the
    flush reaches the driver."""
    return int(guest.check(f"cat {stat_path(dev)}").split()[15])


def test_sync_entry_needs_allow_writes(guest, kiobench_module, make_nullb):
    """Without allow-writes the device is opened shared, and may be
    mounted: a replay's sync entry (a flush, as fsync's) is refused by
    JOB_REPLAY, naming the entry, the job cannot start, and no flush
    reaches the device (its flush count).  The same table with
    allow-writes flushes it: the count can move.  Mutation: kb_replay_check()
    accepting a sync before its allow-writes check (the code before): red."""
    # a volatile write cache: a flush reaches the driver, and is counted
    dev = make_nullb("nullb0", size_mb=16, blocksize=4096, cache_size=4)
    sync = ents((0, 0, 0, 3), (4096, 0, 4096, 0))  # KIOBENCH_DIR_SYNC, then a read
    before = flushes(guest, dev)
    ack = nlreq(guest, "new", f"dev={dev}", "replay-nr=2")
    assert ack.errno == 0, ack.out
    jid = ack.replies[0]["job-id"]
    ack = nlreq(guest, "replay", f"job-id={jid}", f"replay-ents:hex={sync}")
    assert (ack.name, ack.attr) == ("EINVAL", "replay-ents") and \
        "entry 0: a sync without allow-writes" in ack.msg, ack.out
    ack = nlreq(guest, "start", f"job-id={jid}")
    assert "0 of 2 entries uploaded" in ack.msg, ack.out
    assert nlreq(guest, "del", f"job-id={jid}").errno == 0
    assert flushes(guest, dev) == before
    ack = nlreq(guest, "new", f"dev={dev}", "replay-nr=2", "allow-writes")
    assert ack.errno == 0, ack.out
    jid = ack.replies[0]["job-id"]
    assert nlreq(guest, "replay", f"job-id={jid}", f"replay-ents:hex={sync}").errno == 0
    assert nlreq(guest, "start", f"job-id={jid}").errno == 0
    wait_for(guest, f"kiobench list | grep -q '^{jid}[[:space:]].*DONE'", "the replay to end")
    assert flushes(guest, dev) > before
    assert nlreq(guest, "del", f"job-id={jid}").errno == 0
