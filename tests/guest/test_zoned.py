"""zonemode=zbd on a zoned null_blk: writes only at the write
pointers, full zones reset when the workload needs room, trims that reset
the zones they cover, and the refusals.  What the device did is read back
from the device itself: util-linux's blkzone report (each zone's write
pointer and condition), and the job's own view from its debugfs "zones"
file, which also shows the device's report at the job's end.

The order of a zone's writes at depth is where the kernels differ (zone
write locking in mq-deadline on 6.1, zone write plugging from 6.10): these
run on 6.1 and 6.12 (marker core).  A kernel without CONFIG_BLK_DEV_ZONED
(the debug kernel today) has no zoned null_blk: the tests skip there, and
say so."""
from __future__ import annotations

import json
import re

import pytest

from kb import debugfs, destroy_job, job_ids, nlreq, run_job, set_queue, wait_for
from vm.guest import Guest
from vm.targets import queue_limits, write_counts, zoned

# core: what differs between kernels; debug: its paths under KASAN, lockdep
# and kmemleak too; api: zone management and zone append differ by interface only, not on 6.12-rt
pytestmark = [pytest.mark.core, pytest.mark.debug, pytest.mark.api]

MiB = 1 << 20
NULLB = "/sys/kernel/config/nullb"
ZONE_MB, NR_ZONES, CAP_MB, MAX_OPEN = 4, 16, 3, 4


def need_zoned(guest: Guest) -> None:
    guest.check(f"modprobe null_blk nr_devices=0 && test -d {NULLB}")
    if "zoned" not in guest.check(f"cat {NULLB}/features").strip().split(","):
        pytest.skip(f"{guest.kernel.name}: null_blk has no zoned devices "
                    "(the kernel is built without CONFIG_BLK_DEV_ZONED)")


@pytest.fixture
def zdev(guest: Guest, make_nullb, kiobench_module) -> str:
    need_zoned(guest)
    return make_nullb("nullb0", memory_backed=False,
                      **zoned(ZONE_MB, NR_ZONES, zone_capacity_mb=CAP_MB, max_open=MAX_OPEN))


def blkzone(guest: Guest, dev: str) -> list[tuple[int, str]]:
    """Each zone's write pointer (bytes from its start) and condition, as
    `blkzone report` prints them (wptr in sectors from the zone's start)."""
    out = guest.check(f"blkzone report {dev}")
    zones = re.findall(r"wptr 0x([0-9a-f]+).*?zcond:\s*\d+\((\w+)\)", out)
    assert len(zones) == NR_ZONES, out
    return [(int(wp, 16) * 512, cond) for wp, cond in zones]


def run_zbd(guest: Guest, zdev: str, args: str) -> tuple[dict, str]:
    """A zonemode=zbd job on zdev: its report, and its "zones" file read
    before the job is destroyed."""
    job = run_job(guest, zbd(zdev, args), keep=True)
    try:
        return job, debugfs(guest, job, "zones")
    finally:
        destroy_job(guest, job)


def zones_file(text: str, nr: int = NR_ZONES) -> tuple[dict, list[dict]]:
    """A job's "zones" file: its worker's counts, and the line of each of
    the span's nr zones."""
    ints = lambda line: {k: int(v) for k, v in re.findall(r"(\w+) (\d+)", line)}
    workers = [ints(l) for l in text.splitlines() if l.startswith("worker ")]
    assert len(workers) == 1, text
    zones = [dict(ints(l), cond=re.search(r"cond (\w+)", l).group(1))
             for l in text.splitlines() if l.startswith("zone ")]
    assert len(zones) == nr, text
    return workers[0], zones


def zbd(dev: str, args: str) -> str:
    return f"--filename={dev} --allow-writes --zonemode=zbd {args}"


def test_zbd_randwrite_at_write_pointers(guest: Guest, zdev: str) -> None:
    """A random write of 24 MiB at depth 4 on an empty device whose zones
    take 3 MiB of their 4 (and at most 4 open): no I/O error, and every
    zone's write pointer, as the device reports it, is where the job says
    it left it; together they moved by exactly the bytes written.  Mutation
    recorded: writes at their zone's start, not its pointer (zone.c)."""
    io = 24 * MiB
    job, text = run_zbd(guest, zdev, f"--rw=randwrite --bs=4k --iodepth=4 --io_size={io}")
    w, zones = zones_file(text)
    assert job["error"] == 0 and job["write"]["io_bytes"] == io, job["write"]
    dev = blkzone(guest, zdev)
    assert [wp for wp, _ in dev] == [z["wp"] for z in zones], (dev, zones)
    assert [z["dev_wp"] for z in zones] == [wp for wp, _ in dev]
    assert sum(wp for wp, _ in dev) == io == w["written"], (dev, w)
    assert w["resets"] == 0 and w["start_bytes"] == 0, w
    # the report says the same (kiobench.zones; mutation: read_zones() not
    # counting "written": red)
    z = job["kiobench"]["zones"]
    assert (z["written_bytes"], z["resets"], z["zones"]) == (io, 0, NR_ZONES), z
    assert z["zones_written"] == sum(wp > 0 for wp, _ in dev), (z, dev)
    # never more open than the device allows: it would have failed a write
    assert sum(c in ("oi", "oe", "imp_open") for _, c in dev) <= MAX_OPEN, dev


def test_zbd_randwrite_beside_fio(guest: Guest, zdev: str) -> None:
    """fio's zonemode=zbd and kiobench's, same options on the same device
    from empty, move the write pointers by the same io_size.  6 MiB over 4
    open zones of 3 MiB leaves every zone with room (a zone would need
    twice its share), so that neither resets: fio also resets a full zone
    that a random offset lands in, kiobench only when no zone has room.
    Mutation recorded: the open zone limit off by one (zone.c)."""
    io = 6 * MiB
    args = f"--rw=randwrite --bs=4k --iodepth=4 --io_size={io} --max_open_zones={MAX_OPEN}"
    job, text = run_zbd(guest, zdev, args)
    assert job["error"] == 0 and job["write"]["io_bytes"] == io, job["write"]
    ours = blkzone(guest, zdev)
    guest.check(f"blkzone reset {zdev}")
    assert sum(wp for wp, _ in blkzone(guest, zdev)) == 0
    r = guest.run(f"fio --name=z --filename={zdev} --direct=1 --zonemode=zbd "
                  f"--ioengine=libaio {args} --output-format=terse", timeout=300)
    assert r.rc == 0, r.out
    fios = blkzone(guest, zdev)
    assert sum(wp for wp, _ in ours) == sum(wp for wp, _ in fios) == io, (ours, fios)
    # both kept to max_open_zones zones
    assert sum(wp > 0 for wp, _ in ours) == MAX_OPEN, (text, ours)
    assert sum(wp > 0 for wp, _ in fios) == MAX_OPEN, fios


def test_zbd_resets_full_zones(guest: Guest, zdev: str) -> None:
    """Twice the zones' capacity at depth 4: the job resets full zones when
    none has room, and what it wrote is the device's final write pointers
    plus what its resets took back.  Mutation recorded: the reset's write
    pointer left where it was (zone.c).  With zone_mgmt each reset is
    timed: as many zone_reset ops as resets, in their own histogram (the
    trim direction), none among the writes.  Mutation recorded:
    kb_zbd_reset_full() not calling kb_account_op() (zone.c): red.
    With --stages every write is split, and every timed reset, whose bio
    is the block layer's, counted unsplit as sync_call: the trim
    direction's I/Os are all accounted for.  Mutation: kb_account_op()
    not counting it: red (0 unsplit)."""
    io = 2 * NR_ZONES * CAP_MB * MiB
    job, text = run_zbd(guest, zdev, f"--rw=randwrite --bs=64k --iodepth=4 --io_size={io} "
                                     f"--zone_mgmt --stages")
    w, zones = zones_file(text)
    assert job["error"] == 0 and job["write"]["io_bytes"] == io, job["write"]
    dev = blkzone(guest, zdev)
    assert w["resets"] > 0 and w["written"] == io, w
    assert sum(wp for wp, _ in dev) + w["reset_bytes"] == io, (dev, w)
    assert [wp for wp, _ in dev] == [z["wp"] for z in zones]
    resets = job["kiobench"]["zone_reset"]
    assert resets["total_ios"] == resets["lat_ns"]["N"] == w["resets"], (resets, w)
    assert resets["lat_ns"]["min"] > 0 and job["write"]["total_ios"] == io // (64 << 10)
    st = job["kiobench"]["stages"]
    assert st["write"]["queue"]["N"] == job["write"]["total_ios"] and \
        st["write"]["unsplit"] == 0, st["write"]
    assert st["trim"]["unsplit"] == st["trim"]["unsplit_why"]["sync_call"] == \
        job["trim"]["total_ios"] == w["resets"], (st["trim"], job["trim"]["total_ios"])


def test_zbd_trim_resets_zones(guest: Guest, zdev: str) -> None:
    """rw=trim under zbd resets the zone of each trim (REQ_OP_ZONE_RESET):
    after filling the first 8 zones, 8 trims of a zone each leave them
    empty, and the job counts 8 resets.  Mutation recorded: a trim that
    stays REQ_OP_DISCARD (worker.c)."""
    run_job(guest, zbd(zdev, f"--rw=write --bs=1M --iodepth=1 --io_size={8 * CAP_MB * MiB}"))
    before = blkzone(guest, zdev)
    assert [wp for wp, _ in before[:8]] == [CAP_MB * MiB] * 8, before
    job, text = run_zbd(guest, zdev, f"--rw=trim --bs={ZONE_MB}M --size={8 * ZONE_MB}M "
                                     f"--iodepth=2")
    w, _ = zones_file(text, 8)
    assert job["error"] == 0 and job["trim"]["total_ios"] == 8, job["trim"]
    after = blkzone(guest, zdev)
    assert [wp for wp, _ in after[:8]] == [0] * 8 and w["resets"] == 8, (after, w)


def refused(guest: Guest, dev: str, args: str) -> str:
    before = write_counts(guest, dev)
    r = guest.run(f"kiobench run --filename={dev} --allow-writes {args}")
    assert r.rc != 0, r.out
    assert write_counts(guest, dev) == before, "a refused job did I/O"
    return r.out


def test_zbd_refusals(guest: Guest, zdev: str, make_nullb) -> None:
    """Each refusal names what is wrong, before any I/O: a device that is
    not zoned, a span that cuts a zone, more open zones than the device
    allows, fewer zones than the depth, continue_on_error, zone append
    without zonemode, a conventional zone in the span of trims (it has no
    reset), fewer sequential zones than the depth.  Mutation recorded: the
    span's alignment check dropped (zone.c)."""
    plain = make_nullb("nullb1", size_mb=64)
    out = refused(guest, plain, "--zonemode=zbd --rw=randwrite --io_size=1M")
    assert "which is not zoned" in out or "not zoned" in out, out
    out = refused(guest, zdev, "--zonemode=zbd --rw=randwrite --offset=1M --io_size=1M")
    assert "zone boundaries" in out or "cuts zone 0" in out, out
    out = refused(guest, zdev, f"--zonemode=zbd --rw=randwrite --io_size=1M "
                               f"--max_open_zones={MAX_OPEN + 1}")
    assert "max-open-zones" in out, out
    out = refused(guest, zdev, "--zonemode=zbd --rw=randwrite --io_size=1M --iodepth=32")
    assert "iodepth" in out, out
    out = refused(guest, zdev, "--zonemode=zbd --rw=randwrite --io_size=1M --continue_on_error=1")
    assert "continue_on_error (or an ignore_error list) with zonemode=zbd" in out, out
    out = refused(guest, zdev, "--rw=randwrite --io_size=1M --write_mode=zone_append")
    assert "zone-append: only with zonemode" in out, out
    conv = make_nullb("nullb2", memory_backed=False, **zoned(ZONE_MB, 8, nr_conv=1))
    out = refused(guest, conv, f"--zonemode=zbd --rw=trim --bs={ZONE_MB}M")
    # before 6.4 the kernel has no formatted extack: the fixed message
    assert "zone 0 of /dev/nullb2 is conventional" in out or \
        "a span holds conventional zones" in out, out
    out = refused(guest, conv, "--zonemode=zbd --rw=randwrite --io_size=1M --iodepth=8")
    assert "8 sequential zones a worker" in out or "iodepth sequential zones" in out, out
    # the zone management ops (rw=zone_*): the same device and span rules,
    # and their own limits (mutation recorded: kb_zbd_check_op()'s open
    # limit dropped: the 16 opens run, red)
    out = refused(guest, plain, "--rw=zone_reset")
    assert "not zoned" in out, out
    out = refused(guest, zdev, "--rw=zone_finish --offset=1M --size=4M")
    assert "cuts zone 0" in out or "zone boundaries" in out, out
    out = refused(guest, zdev, "--rw=zone_open")
    assert (f"zone-op open: {NR_ZONES} zones" in out and f"max_open {MAX_OPEN}" in out) or \
        "more zones than a device keeps open" in out, out
    out = refused(guest, zdev, f"--rw=zone_reset_all --size={ZONE_MB}M")
    assert "not the whole device" in out, out
    out = refused(guest, zdev, "--rw=zone_reset_all --workers=2")
    assert "numjobs must be 1" in out, out
    before = write_counts(guest, zdev)
    r = guest.run(f"kiobench run --filename={zdev} --rw=zone_reset")
    assert r.rc != 0 and "allow-writes" in r.out, r.out
    assert write_counts(guest, zdev) == before


# Raw requests (no tool in between) that zone.c refuses: the extra
# attributes, the attribute the extack names and its message's start.
RAW_REFUSALS = [
    (["zone-op=1"], "zone-op", "zone-op: zone management destroys data"),
    (["allow-writes", "zone-op=2", "rwmix-read=0"], "zone-op", "zone-op: with trim-mode trim"),
    (["allow-writes", "zone-op=5", "trim-mode=1", "rwmix-read=0", "numjobs=2"], "zone-op",
     "zone-op: reset-all resets every zone"),
    (["zonemode=0", "zone-op=1"], "zone-op", "zone-op: only with zonemode zbd"),
    (["zonemode=1", "completion=2"], "zonemode", "zonemode: not with completion poll"),
    (["zonemode=1", "allow-writes", "rwmix-read=0", "verify=1"], "zonemode",
     "zonemode: not with verify"),
    (["zonemode=1", "allow-writes", "trim-mode=2", "rwmix-read=0"], "zonemode",
     "zonemode: not with trimwrite"),
    (["zonemode=1", "allow-writes", "rwmix-read=0", "write-zeroes"], "zonemode",
     "zonemode: not with write-zeroes"),
    (["zonemode=1", "allow-writes", "rwmix-read=0", "atomic"], "zonemode",
     "zonemode: not with atomic"),
    (["zonemode=1", "zone-reset-threshold=50"], "zone-reset-threshold",
     "zone-reset-threshold: needs zone-reset-frequency"),
    (["zonemode=1", "max-open-zones=2", "job-max-open-zones=3"], "job-max-open-zones",
     "job-max-open-zones: more than max-open-zones"),
    # the device's rules (kb_zbd_check(), kb_zbd_limits()): no attribute named
    (["zonemode=1", "allow-writes", "rwmix-read=0", "max-open-zones=2", "numjobs=4"], "-",
     "max-open-zones: "),
    (["zonemode=1", "allow-writes", "rwmix-read=0", "job-max-open-zones=3", "numjobs=2"], "-",
     "job-max-open-zones: "),
    (["zonemode=1", "numjobs=17"], "-", "numjobs: "),
]


def test_zbd_raw_refusals_name_the_attribute(guest: Guest, zdev: str) -> None:
    """What the tool never sends, refused by the kernel on its own
    (kb_zbd_parse(), kb_zbd_parse_op()): each raw request fails with
    the attribute and the rule named, and no job is left.  Mutation:
    kb_zbd_parse()'s check of job-max-open-zones against max-open-zones
    dropped: red (a later check refuses it without naming the
    attribute)."""
    wrong = []
    for extra, attr, msg in RAW_REFUSALS:
        ack = nlreq(guest, "new", f"dev={zdev}", "number-ios=16", *extra)
        if ack.errno == 0:
            raw_job_runs(guest, ack)
        if ack.errno == 0 or (ack.attr, ack.msg[:len(msg)]) != (attr, msg):
            wrong.append((extra, ack.out.strip()))
    assert not wrong, "\n".join(map(str, wrong))
    assert job_ids(guest) == []


def test_zbd_edges_of_the_zones(guest: Guest, zdev: str, make_nullb) -> None:
    """Where a zone's data ends: reads of empty zones go to their drawn
    offsets, counted (reads_beyond_wp, all 8); 2 MiB writes into zones of
    3 MiB capacity are cut at the capacity, the rest going on in the next
    zone (the 6 MiB written, each zone written full, per blkzone).  A span
    with an offline zone, and trims on zones of 8 GiB (an op counts its
    bytes in 32 bits), are refused.  Mutation: kb_zbd_write_pos() not
    cutting a write at the capacity (`if (0 && *len > room ...`): red
    (the device refuses the write past it)."""
    job, text = run_zbd(guest, zdev, "--rw=randread --number_ios=8")
    w, _ = zones_file(text)
    assert job["read"]["total_ios"] == 8 and w["reads_beyond_wp"] == 8, (w, job["read"])
    job, text = run_zbd(guest, zdev, "--rw=write --bs=2M --io_size=6M")
    assert job["error"] == 0 and job["write"]["io_bytes"] == 6 * MiB, job["write"]
    wps = [wp for wp, _ in blkzone(guest, zdev)]
    assert sum(wps) == 6 * MiB and set(wps) <= {0, CAP_MB * MiB}, wps
    off = make_nullb("nullb1", memory_backed=False, **zoned(ZONE_MB, 4))
    guest.check(f"echo {2 * ZONE_MB * MiB // 512} >{NULLB}/nullb1/zone_offline")
    out = refused(guest, off, "--zonemode=zbd --rw=randwrite --io_size=1M")
    assert "zone 2 of /dev/nullb1 is read-only or offline" in out or \
        "read-only or offline zones" in out, out
    big = make_nullb("nullb2", memory_backed=False, **zoned(8192, 1))
    out = refused(guest, big, "--zonemode=zbd --rw=trim --bs=1M")
    assert "over 4 GiB" in out or "4 GiB or more" in out, out


def test_zbd_scheduler_none(guest: Guest, zdev: str) -> None:
    """Writes at depth 4 with the scheduler none: refused before 6.10 (no
    zone write plugging, and none does not lock zones), with the reason,
    while zone appends at that depth run;
    from 6.10 zone write plugging orders them and the job completes with
    every write at the pointers.  Mutation recorded: compat.h's
    kb_zone_writes_ordered() always true (6.1 then fails writes)."""
    set_queue(guest, zdev, scheduler="none")
    args = "--zonemode=zbd --rw=randwrite --bs=4k --iodepth=4 --io_size=8M"
    plugging = guest.kernel.name != "6.1.0-56-amd64" and not guest.kernel.name.startswith("6.1.")
    if not plugging:
        out = refused(guest, zdev, args)
        assert "mq-deadline" in out, out
        # appends need no order: the device places them
        job = run_job(guest, f"--filename={zdev} --allow-writes {args} --write_mode=zone_append")
        assert job["error"] == 0 and job["write"]["io_bytes"] == 8 * MiB
        assert sum(wp for wp, _ in blkzone(guest, zdev)) == 8 * MiB
        return
    job = run_job(guest, f"--filename={zdev} --allow-writes {args}")
    assert job["error"] == 0 and job["write"]["io_bytes"] == 8 * MiB
    assert sum(wp for wp, _ in blkzone(guest, zdev)) == 8 * MiB


def test_zbd_zone_append(guest: Guest, zdev: str) -> None:
    """write_mode=zone_append: REQ_OP_ZONE_APPEND bios at depth 8 (native
    on null_blk, so on 6.1 too, where appends need no zone write locking)
    complete with no error; every sector the device returned lies inside
    the bio's zone; the device's write pointers moved by exactly the bytes
    appended, zone by zone as the job counted them.  Mutation recorded: the
    check's zone end one block short (zone.c)."""
    io = 12 * MiB
    job, text = run_zbd(guest, zdev, f"--rw=randwrite --bs=4k --iodepth=8 --io_size={io} "
                                     f"--write_mode=zone_append")
    w, zones = zones_file(text)
    assert job["error"] == 0 and job["write"]["io_bytes"] == io, job["write"]
    n = io // 4096
    assert w["append_in"] == n and w["append_out"] == 0, w
    z = job["kiobench"]["zones"]        # the report's, and under the op's own key
    assert (z["append_in_zone"], z["append_outside"]) == (n, 0), z
    assert z["append_reordered"] == w["append_reordered"], (z, w)
    assert job["kiobench"]["zone_append"]["total_ios"] == n
    dev = blkzone(guest, zdev)
    assert sum(wp for wp, _ in dev) == io and [wp for wp, _ in dev] == [z["wp"] for z in zones]


def test_zbd_without_a_limit_writes_the_offsets_zone(guest: Guest, make_nullb,
                                                     kiobench_module) -> None:
    """No open-zone limit (null_blk's default): a write goes to its
    offset's zone, reset first when full, as fio's (its zbd_open_zone()
    takes any zone then, and a full one is reset before the write).  So a
    random write of the zones' whole size without a random map (offsets
    repeat, some zones are picked more than they hold) resets some, where
    filling the others first would reset none; what was written is the
    device's final pointers plus what the resets took back.  Mutation: kb_zbd_write_zone()
    without its no-limit branch: red (no reset)."""
    need_zoned(guest)
    dev = make_nullb("nullb1", memory_backed=False, **zoned(ZONE_MB, NR_ZONES))
    io = NR_ZONES * ZONE_MB * MiB
    job, text = run_zbd(guest, dev, f"--rw=randwrite --bs=64k --iodepth=4 --io_size={io} "
                                    "--norandommap")
    w, _ = zones_file(text)
    assert job["error"] == 0 and job["write"]["io_bytes"] == io, job["write"]
    assert w["resets"] > 0 and w["written"] == io, w
    assert sum(wp for wp, _ in blkzone(guest, dev)) + w["reset_bytes"] == io, w


def test_zbd_zone_reset_frequency(guest: Guest, zdev: str) -> None:
    """fio's zone_reset_threshold and zone_reset_frequency: past a tenth of
    the zones holding data, every other write resets its zone first (when
    none of its writes is in flight).  24 MiB fit in the zones with no reset
    without them (test_zbd_randwrite_at_write_pointers); with them the job
    resets zones, without error, and the device's final pointers plus what
    the resets took back are what it wrote.  Mutation recorded:
    kb_zbd_write() not calling kb_zbd_gc() (zone.c)."""
    io = 24 * MiB
    job, text = run_zbd(guest, zdev, f"--rw=randwrite --bs=64k --iodepth=4 --io_size={io} "
                                     f"--zone_reset_threshold=0.1 --zone_reset_frequency=0.5")
    w, _ = zones_file(text)
    assert job["error"] == 0 and job["write"]["io_bytes"] == io, job["write"]
    gc = int(re.search(r"^gc 0 resets (\d+)", text, re.M).group(1))
    assert gc > 0 and w["resets"] == gc, (gc, w)
    z = job["kiobench"]["zones"]
    assert (z["resets"], z["frequency_resets"], z["reset_bytes"]) == \
        (gc, gc, w["reset_bytes"]), (z, w)
    dev = blkzone(guest, zdev)
    assert sum(wp for wp, _ in dev) + w["reset_bytes"] == io, (dev, w)
    # with resets past the threshold, what stays stays near it: well below 24 MiB
    assert sum(wp for wp, _ in dev) < io // 2, dev


def zone_op(guest: Guest, zdev: str, op: str, n: int, args: str = "") -> dict:
    """kiobench's rw=<op> (a zone management op, timed in the trim
    direction) over zdev: n ops, none failed, each in the op's histogram,
    reported under kiobench.<op> and fio's trim alike."""
    job, text = run_zbd(guest, zdev, f"--rw={op} --iodepth=4 {args}")
    w, _ = zones_file(text, int(re.search(r" zones (\d+)", text).group(1)))
    assert job["error"] == 0, job
    ours = job["kiobench"][op]
    assert ours["total_ios"] == job["trim"]["total_ios"] == n, (ours, job["trim"])
    assert ours["lat_ns"]["N"] == n and ours["lat_ns"]["min"] > 0, ours["lat_ns"]
    assert job["kiobench"]["zones"][{"zone_open": "opens", "zone_close": "closes",
                                     "zone_finish": "finishes"}.get(op, "resets")] == \
        (NR_ZONES if op == "zone_reset_all" else n), job["kiobench"]["zones"]
    return w


def test_zone_ops(guest: Guest, zdev: str) -> None:
    """kiobench's zone management ops at depth 4 over the span's 4 zones,
    one op a zone, each a zone state change the device reports: open (the
    zones explicitly open), close (closed, their 64 KiB kept), finish
    (full), reset (empty); then reset-all, one command for the whole
    device, after which every zone is empty.  Each op is counted, and timed
    in its own histogram (kiobench.<op>).  Mutation recorded: zone_open
    sent as REQ_OP_ZONE_CLOSE (zone.c kb_zbd_opf()): the zones stay empty."""
    span = f"--size={MAX_OPEN * ZONE_MB}M"
    conds = lambda: [c for _, c in blkzone(guest, zdev)]
    zone_op(guest, zdev, "zone_open", MAX_OPEN, span)
    assert conds()[:MAX_OPEN] == ["oe"] * MAX_OPEN, blkzone(guest, zdev)
    for i in range(MAX_OPEN):   # 64 KiB at each zone's start, so that a close keeps it
        guest.check(f"dd if=/dev/zero of={zdev} bs=64k count=1 seek={i * ZONE_MB * 16} "
                    f"oflag=direct 2>/dev/null")
    zone_op(guest, zdev, "zone_close", MAX_OPEN, span)
    assert blkzone(guest, zdev)[:MAX_OPEN] == [(64 << 10, "cl")] * MAX_OPEN, blkzone(guest, zdev)
    zone_op(guest, zdev, "zone_finish", MAX_OPEN, span)
    assert conds()[:MAX_OPEN] == ["fu"] * MAX_OPEN, blkzone(guest, zdev)
    guest.check("cp /tmp/kiobench.json /tmp/finish1.json")
    zone_op(guest, zdev, "zone_reset", MAX_OPEN, span)
    assert blkzone(guest, zdev)[:MAX_OPEN] == [(0, "em")] * MAX_OPEN, blkzone(guest, zdev)
    zone_op(guest, zdev, "zone_finish", 2 * MAX_OPEN, f"--size={2 * MAX_OPEN * ZONE_MB}M")
    assert conds()[:2 * MAX_OPEN] == ["fu"] * 2 * MAX_OPEN, blkzone(guest, zdev)
    # compare names the op of the trims it compares
    out = guest.run("kiobench compare /tmp/finish1.json /tmp/kiobench.json").out
    assert "job kiobench, trim (zone_finish)" in out, out
    zone_op(guest, zdev, "zone_reset_all", 1)
    assert blkzone(guest, zdev) == [(0, "em")] * NR_ZONES, blkzone(guest, zdev)
    # the normal output names the op of its trim line, and counts the zones
    out = guest.check(f"kiobench run --filename={zdev} --allow-writes --rw=zone_finish "
                      f"--size={ZONE_MB}M")
    assert re.search(r"^  trim: IOPS=", out, re.M) and \
        "zone_finish: the trims above are zone management commands" in out, out
    assert re.search(r"zones +: 1 of 1 written.*, 0 opened, 0 closed, 1 finished", out), out


def test_zbd_skips_conventional_zones(guest: Guest, make_nullb, kiobench_module) -> None:
    """Conventional zones in the span (the first 2 of 8, of 4 MiB; the
    sequential ones take 3 MiB): the writes skip them and the resets never
    touch them.  A sequential write of 36 MiB at depth 1 fills the 18 MiB
    of sequential zones twice, its offsets wrapping into the conventional
    zones when a zone must be reset: no error, every byte at a sequential
    zone's pointer (the device's pointers plus what the resets took back),
    the conventional zones untouched; a random read then goes anywhere,
    conventional zones included, with none past a pointer.  Mutation
    recorded: the reset loop without its conventional guard (zone.c
    kb_zbd_write_zone()): red (a reset of zone 0 fails the job)."""
    need_zoned(guest)
    dev = make_nullb("nullb2", memory_backed=False,
                     **zoned(ZONE_MB, 8, zone_capacity_mb=CAP_MB, nr_conv=2))
    io = 2 * 6 * CAP_MB * MiB
    job, text = run_zbd(guest, dev, f"--rw=write --bs=1M --iodepth=1 --io_size={io}")
    w, zones = zones_file(text, 8)
    assert job["error"] == 0 and job["write"]["io_bytes"] == io, job["write"]
    rep = re.findall(r"wptr 0x([0-9a-f]+).*?type:\s*\d+\((\w+)\)",
                     guest.check(f"blkzone report {dev}"))
    assert [t for _, t in rep] == ["CONVENTIONAL"] * 2 + ["SEQ_WRITE_REQUIRED"] * 6, rep
    seq = sum(int(wp, 16) * 512 for wp, _ in rep[2:])
    assert w["resets"] >= 5 and seq + w["reset_bytes"] == io == w["written"], (w, rep)
    assert [(z["conv"], z["touched"]) for z in zones[:2]] == [(1, 0)] * 2, zones
    assert w["start_bytes"] == 0, w
    job, text = run_zbd(guest, dev, "--rw=randread --bs=64k --iodepth=4 --io_size=4M")
    assert job["error"] == 0 and job["read"]["io_bytes"] == 4 * MiB, job["read"]
    assert zones_file(text, 8)[0]["reads_beyond_wp"] == 0, text


# ---- bounds of the open zones and of zone appends ---------------------------------

def raw_job_runs(guest: Guest, ack) -> None:
    """Start the job a raw JOB_NEW made (ack), wait for its end, destroy it:
    what a request the kernel should have refused goes on to do."""
    jid = ack.replies[0]["job-id"]
    assert nlreq(guest, "start", f"job-id={jid}").errno == 0
    wait_for(guest, f"nlfuzz req get job-id={jid} | grep -qE ' state=[234]( |$)'",
             f"job {jid} to end", 120)
    nlreq(guest, "del", f"job-id={jid}")


@pytest.mark.debug
def test_zbd_open_zone_limits_bounded(guest: Guest, make_nullb, kiobench_module) -> None:
    """max-open-zones and job-max-open-zones are sizes of the workers'
    open-zone arrays: on a zoned device with no open limit, values whose
    numjobs x value wraps 32 bits (3 x 0x55555556: 8 bytes for the workers'
    writes; 2 x 0x80000000: kvcalloc(0)) or that allocate over INT_MAX
    (kvmalloc's WARN, fatal under panic_on_warn) are refused by the policy:
    ERANGE at the attribute, with the spec's bound, and no job.  (Old code:
    the job was made and its workers wrote gigabytes past the array: an
    oops, a page fault, on 6.12 and under KASAN on the debug kernel.)
    Within the bound, a worker's limit above the zones it has is cut to
    them: numjobs 3 with 4096 each on 16 zones keeps 6 a worker (debugfs
    max_open) and runs without a splat.  Mutation: the spec's max of
    job-max-open-zones dropped (regenerated; the old code): red (the job
    is made, then the oops); the cut to the worker's zones dropped
    (zone.c kb_zbd_limits()): red (max_open 4096)."""
    need_zoned(guest)
    dev = make_nullb("nullb1", memory_backed=False, **zoned(ZONE_MB, NR_ZONES))
    base = [f"dev={dev}", "allow-writes", "rwmix-read=0", "zonemode=1", "number-ios=256"]
    for numjobs, attr, value in ((3, "job-max-open-zones", 0x55555556),
                                 (2, "job-max-open-zones", 0x80000000),
                                 (1, "job-max-open-zones", 0x40000000),
                                 (1, "max-open-zones", 0xFFFFFFFF)):
        extra = ["ignore-zone-limits"] if attr == "max-open-zones" else []
        ack = nlreq(guest, "new", *base, *extra, f"numjobs={numjobs}", f"{attr}={value}")
        if ack.errno == 0:
            raw_job_runs(guest, ack)
        assert (ack.name, ack.attr, ack.bound) == ("ERANGE", attr, (0, 4096)), \
            (numjobs, attr, hex(value), ack.out)
    assert job_ids(guest) == []
    job = run_job(guest, zbd(dev, "--rw=randwrite --bs=64k --workers=3 --iodepth=2 "
                                  "--job_max_open_zones=4096 --io_size=12M"), keep=True)
    try:
        text = debugfs(guest, job, "zones")
    finally:
        destroy_job(guest, job)
    assert job["error"] == 0 and job["write"]["io_bytes"] == 12 * MiB, job["write"]
    assert re.search(r"^dev 0 .* zones 16 max_open 6 ", text, re.M), text


@pytest.mark.debug
def test_zbd_zone_append_fits_the_segment_limits(guest: Guest, make_nullb,
                                                 kiobench_module) -> None:
    """A zone append is never split: one that needs more segments than the
    queue's max_segments hits the block layer's WARN_ON_ONCE (bio_split(),
    bio_split_zone_append()) and fails.  null_blk with max_sectors 4096
    takes appends of 2 MiB (zone_append_max_bytes) in at most 128 segments
    (its default max_segments): with the slot's buffer in 4 KiB pages, bs
    1M needs 256.  Such a job is refused before any I/O, the extack naming
    the limit; bs 512k (128 pages) runs, no splat, every byte appended.
    Mutation: kb_zbd_append_max() returning max_zone_append_bytes alone
    (zone.c): red (the job runs into the WARN)."""
    need_zoned(guest)
    feats = guest.check(f"cat {NULLB}/features").strip().split(",")
    if "max_sectors" not in feats:
        pytest.skip(f"{guest.kernel.name}: null_blk has no max_sectors")
    dev = make_nullb("nullb1", memory_backed=False, max_sectors=4096,
                     **zoned(ZONE_MB, NR_ZONES))
    q = queue_limits(guest, dev, "max_segments", "max_segment_size", "zone_append_max_bytes",
                     "virt_boundary_mask")
    segs, append = int(q["max_segments"]), int(q["zone_append_max_bytes"])
    assert segs * 4096 < MiB <= append, q   # the trigger: over the segments only
    args = "--rw=write --iodepth=2 --write_mode=zone_append --io_size=8M"
    before = write_counts(guest, dev)
    r = guest.run(f"kiobench run --filename={dev} --allow-writes --zonemode=zbd --bs=1M {args}")
    assert r.rc != 0, r.out
    assert write_counts(guest, dev) == before, "a refused job did I/O"
    assert re.search(rf"zone-append: bs 1048576 over {segs * 4096}, what {dev} appends whole",
                     r.out) or "zone-append: bs over what a device takes in one append" in r.out, r.out
    job = run_job(guest, zbd(dev, f"--bs={segs * 4096} {args}"))
    assert job["error"] == 0 and job["write"]["io_bytes"] == 8 * MiB, job["write"]
    assert sum(wp for wp, _ in blkzone(guest, dev)) == 8 * MiB


def test_zbd_clones_never_share_zones(guest: Guest, kiobench_module, make_nullb):
    """numjobs' clones are jobs of their own, each writing at the write
    pointers it read, where fio's share one zone state: clones whose spans
    meet are refused by the tool, naming --workers, before any I/O; clones
    on spans apart each write their own zones; --workers=2 (one job whose
    workers split the zones) writes the whole device.  Nothing fails.
    Mutation: build_jobs() without check_zbd_clones(): the clones write
    behind each other's pointers and end with EIO: red."""
    dev = make_nullb("nullb0", **zoned(16, 16))
    base = (f"kiobench run --allow-writes --filename={dev} --zonemode=zbd --rw=randwrite "
            "--bs=4k --number_ios=300")
    stat = f"cat /sys/block/{dev.rsplit('/', 1)[1]}/stat"
    writes = int(guest.check(stat).split()[4])
    r = guest.run(f"{base} --numjobs=2")
    assert r.rc == 1 and "the clones would write the same zones" in r.out, r.out
    assert "--workers=2" in r.out, r.out
    assert int(guest.check(stat).split()[4]) == writes, "a refused job wrote"
    for extra, n in (("--numjobs=2 --size=128m --offset_increment=128m", 2), ("--workers=2", 1)):
        r = guest.run(f"{base} {extra} --output-format=json --output=/tmp/clones.json")
        assert r.rc == 0, r.out
        jobs = json.loads(guest.check("cat /tmp/clones.json"))["jobs"]
        assert len(jobs) == n, jobs
        for job in jobs:
            assert job["error"] == 0 and job["kiobench"]["state"] == "DONE", job
