"""Trims, write zeroes, flushes and FUA writes: what the device
saw.  QEMU's NVMe (discard=unmap, write zeroes, a volatile write cache and
FUA) through the nvme_setup_cmd tracepoint, which names each command the
driver set up; null_blk through its stat file's discard and flush
counters, with and without a cache, with and without FUA.  The refusals
show their message and leave every counter of the device as it was.

One guest for the module: its NVMe namespace and the null_blk devices of
each test.  They run on every Debian kernel (core): 6.1 differs in its
extack (no device in the message), its null_blk (no FUA attribute) and
its block layer (no atomic writes)."""
from __future__ import annotations

import json
import re

import pytest

from kb import TRACING, disk_name, mount_tracefs, nlreq, nvme_cmds, run_job, tracepoint_rwbs
from vm.guest import Guest, Nvme
from vm.targets import dm_linear, dm_remove, nvme_dev, queue_limits

# core: what differs between kernels; debug: its paths under KASAN, lockdep
# and kmemleak too
pytestmark = [pytest.mark.core, pytest.mark.debug]

MiB = 1 << 20
GUEST_ARGS = {"nvme": [Nvme(64 * MiB, discard=True)]}
NVME_RW_FUA = 1 << 14
NVME_WZ_DEAC = 1 << 9
# /sys/block/<dev>/stat (Documentation/block/stat.rst), 0-based
ST_READS, ST_WRITES, ST_WSECT, ST_DISCARDS, ST_DMERGES, ST_DSECT, ST_FLUSHES = 0, 4, 6, 11, 12, 13, 15
EXIT_USAGE = 2


def ops(cmds: list[dict]) -> list[str]:
    return [c["op"].removeprefix("nvme_cmd_") for c in cmds]


def stat(guest: Guest, dev: str) -> list[int]:
    name = disk_name(dev)
    return [int(x) for x in guest.check(f"cat /sys/class/block/{name}/stat").split()]


def kiobench_json(dev: str, args: str) -> str:
    return (f"kiobench run --output-format=json --output=/tmp/ops.json --allow-writes "
            f"--filename={dev} {args}")


def job_of(guest: Guest) -> dict:
    return json.loads(guest.check("cat /tmp/ops.json"))["jobs"][0]


@pytest.fixture
def nvme(guest: Guest, kiobench_module) -> str:
    dev = nvme_dev(guest, 0)
    lim = queue_limits(guest, dev, "discard_max_bytes", "write_zeroes_max_bytes",
                       "fua", "write_cache")
    assert int(lim["discard_max_bytes"]) and int(lim["write_zeroes_max_bytes"]), lim
    assert (lim["fua"], lim["write_cache"]) == ("1", "write back"), lim
    return dev


def test_trim_nvme(guest: Guest, nvme: str):
    """rw=randtrim: 400 trims at QD 32 reach the device as DSM commands
    whose ranges add up to 400, one per trim (blk-mq merges discards into
    multi-range DSMs), and nothing else; the report has them under fio's
    "trim", with latency percentiles, and no writes.  Mutation: kb_opf()'s
    trim as REQ_OP_WRITE_ZEROES: red (write zeroes, no DSM)."""
    cmds = nvme_cmds(guest, kiobench_json(nvme, "--rw=randtrim --bs=4k --iodepth=32 "
                                                "--number_ios=400"))
    assert set(ops(cmds)) == {"dsm"}, ops(cmds)
    assert sum(c["nr"] + 1 for c in cmds) == 400, cmds
    job = job_of(guest)
    trim = job["trim"]
    assert (trim["total_ios"], trim["io_bytes"]) == (400, 400 * 4096), trim
    assert trim["clat_ns"]["N"] == 400 and trim["clat_ns"]["percentile"], trim
    assert job["write"]["total_ios"] == job["read"]["total_ios"] == 0


def test_trimwrite_nvme(guest: Guest, nvme: str):
    """rw=trimwrite: each block is trimmed, then written, in turn (at QD 1
    the device sees them in that order, on the same LBAs); fio's HOWTO: the
    trims take the job's size and the writes follow them.  Mutation:
    kb_pick_io() never setting tw_write: red (only trims)."""
    cmds = nvme_cmds(guest, kiobench_json(nvme, "--rw=trimwrite --bs=4k --iodepth=1 "
                                                "--size=200k"))
    assert ops(cmds) == ["dsm", "write"] * 50, ops(cmds)
    writes = [c["slba"] for c in cmds if c["op"] == "nvme_cmd_write"]
    assert writes == sorted(writes) and len(set(writes)) == 50, writes
    job = job_of(guest)
    assert job["trim"]["total_ios"] == job["write"]["total_ios"] == 50


def test_write_zeroes_nvme(guest: Guest, nvme: str):
    """write_mode=zeroes: 100 write-zeroes commands and no data write,
    without the DEAC bit (REQ_NOUNMAP; QEMU 7.2's namespace does not
    advertise DEAC, so write_zeroes_unmap is not seen here either).
    Reported as writes (fio's key) and under kiobench's "write_zeroes",
    the same figures, and the normal output says what they were.
    Mutation: kb_opf() ignoring write_zeroes: red (data writes);
    kb_kcfg_write_op() returning NULL: red (no key, no line)."""
    cmds = nvme_cmds(guest, kiobench_json(nvme, "--rw=randwrite --write_mode=zeroes "
                                                "--bs=4k --iodepth=16 --number_ios=100"))
    assert ops(cmds) == ["write_zeroes"] * 100, ops(cmds)
    assert not any(c["ctrl"] & NVME_WZ_DEAC for c in cmds), cmds
    job = job_of(guest)
    assert job["write"]["total_ios"] == 100 and job["write"]["io_bytes"] == 100 * 4096
    assert job["kiobench"]["settings"]["write_mode"] == "zeroes"
    wz = job["kiobench"]["write_zeroes"]
    assert wz["total_ios"] == 100 and wz["clat_ns"] == job["write"]["clat_ns"], wz
    assert "atomic_write" not in job["kiobench"]
    out = guest.check(f"kiobench run --allow-writes --filename={nvme} --rw=randwrite "
                      f"--write_mode=zeroes --bs=4k --number_ios=10")
    assert "write_zeroes: the writes above are write zeroes (REQ_OP_WRITE_ZEROES with " \
           "REQ_NOUNMAP)" in out, out


def test_fsync_nvme(guest: Guest, nvme: str):
    """fsync=4: a flush after every 4 writes, as fio (64 writes: 15
    flushes, the job ending after its last write); at QD 1 the device sees
    exactly that sequence.  The flushes' latency is fio's "sync".  At QD 8
    the flushes are queued among the writes (the report counts them all;
    the block layer may join flushes that overlap).  end_fsync: one flush
    after a worker's last write.  Mutations: kb_count_write()'s >= as >:
    red (a flush every 5); kb_end_fsync() returning at once: red."""
    cmds = nvme_cmds(guest, kiobench_json(nvme, "--rw=write --bs=4k --iodepth=1 "
                                                "--number_ios=64 --fsync=4"))
    assert ops(cmds) == (["write"] * 4 + ["flush"]) * 15 + ["write"] * 4, ops(cmds)
    sync = job_of(guest)["sync"]
    assert sync["total_ios"] == 15 and sync["lat_ns"]["N"] == 15, sync
    assert sync["lat_ns"]["percentile"] and sync["lat_ns"]["min"] > 0, sync
    cmds = nvme_cmds(guest, kiobench_json(nvme, "--rw=randwrite --bs=4k --iodepth=8 "
                                                "--number_ios=64 --fdatasync=8"))
    assert 1 <= ops(cmds).count("flush") <= 7 and ops(cmds).count("write") >= 1, ops(cmds)
    assert job_of(guest)["sync"]["total_ios"] == 7
    cmds = nvme_cmds(guest, kiobench_json(nvme, "--rw=write --bs=4k --iodepth=4 "
                                                "--number_ios=16 --end_fsync=1"))
    assert ops(cmds)[-1] == "flush" and ops(cmds).count("flush") == 1, ops(cmds)
    assert job_of(guest)["sync"]["total_ios"] == 1


def test_writefua_nvme(guest: Guest, nvme: str):
    """writefua=1: every write the device sees has the FUA bit; QEMU's
    NVMe has FUA, so the report says neither emulated nor no-op.
    Mutation: kb_opf() without REQ_FUA: red."""
    cmds = nvme_cmds(guest, kiobench_json(nvme, "--rw=randwrite --bs=4k --iodepth=8 "
                                                "--number_ios=50 --writefua=1"))
    writes = [c for c in cmds if c["op"] == "nvme_cmd_write"]
    assert len(writes) == 50 and all(c["ctrl"] & NVME_RW_FUA for c in writes), cmds
    s = job_of(guest)["kiobench"]["settings"]
    assert s["writefua"] and not s["fua_emulated"] and not s["flush_noop"], s


def test_trim_nullb(guest: Guest, kiobench_module, make_nullb):
    """The same 400 trims on a memory-backed null_blk with discard=1: its
    stat file counts 400 discards (completed and merged) of 8 sectors, and
    no write or read; the CPU time per I/O counts them.  Mutations: as
    test_trim_nvme's: red; kb_cpu_ns_per_io() over reads and writes only:
    red (0)."""
    dev = make_nullb("nullb0", size_mb=64, discard=1)
    before = stat(guest, dev)
    job = run_job(guest, f"--allow-writes --filename={dev} --rw=randtrim --bs=4k "
                         f"--iodepth=32 --number_ios=400")
    d = [a - b for a, b in zip(stat(guest, dev), before)]
    assert d[ST_DISCARDS] + d[ST_DMERGES] == 400 and d[ST_DSECT] == 400 * 8, d
    assert d[ST_WRITES] == d[ST_READS] == 0, d
    assert job["trim"]["total_ios"] == 400
    # the per-I/O figures count trims as I/Os too
    assert job["kiobench"]["cpu_ns_per_io"] > 0, job["kiobench"]


def flush_fua_job(guest: Guest, dev: str) -> tuple[str, int]:
    """fsync=4 and writefua over 64 writes at QD 1: the normal and JSON
    reports, and the flushes the device's stat file counted meanwhile."""
    before = stat(guest, dev)[ST_FLUSHES]
    r = guest.run(f"kiobench run --allow-writes --filename={dev} --rw=write --bs=4k "
                  f"--iodepth=1 --number_ios=64 --fsync=4 --writefua=1 "
                  f"--output-format=normal,json --output=/tmp/ops.out", timeout=120)
    assert r.rc == 0, r.out
    out = guest.check("cat /tmp/ops.out")
    assert re.search(r"sync \(\w+\): min=.*samples=15\b", out), out
    return out, stat(guest, dev)[ST_FLUSHES] - before


def test_fua_emulated_nullb(guest: Guest, kiobench_module, make_nullb):
    """null_blk with a cache and no FUA (cache_size, fua=0) gets each FUA
    write as a write then a flush: the device's flush counter moves by more
    than the job's 15 flushes, and the report says "writefua: emulated".
    Mutation: kb_check_ops() (job.c) setting fua_emulated on
    bdev_fua(): red."""
    if guest.run("modprobe null_blk nr_devices=0 && grep -qw fua "
                 "/sys/kernel/config/nullb/features").rc:
        pytest.skip(f"null_blk of {guest.kernel.name} has no fua attribute")
    dev = make_nullb("nullb0", size_mb=64, cache_size=16, fua=0)
    assert queue_limits(guest, dev, "fua", "write_cache") == \
        {"fua": "0", "write_cache": "write back"}
    out, flushes = flush_fua_job(guest, dev)
    assert "writefua: emulated" in out and "flush: no-op" not in out, out
    assert flushes > 15, flushes


def test_flush_noop_nullb(guest: Guest, kiobench_module, make_nullb):
    """null_blk without a cache gets no flush at all, though the job timed
    its 15 (the block layer completes them at once): the report says
    "flush: no-op".  Mutation: kb_check_ops() (job.c) testing
    bdev_write_cache() the wrong way round: red."""
    dev = make_nullb("nullb0", size_mb=64)
    assert queue_limits(guest, dev, "write_cache") == {"write_cache": "write through"}
    out, flushes = flush_fua_job(guest, dev)
    assert "flush: no-op" in out and "writefua: emulated" not in out, out
    assert flushes == 0, flushes


def test_ops_through_dm_linear(guest: Guest, kiobench_module, make_nullb):
    """dm-linear over null_blk (discard, a volatile cache with FUA): what
    kiobench sends to the dm device reaches null_blk as such.  400 trims
    are 3200 discarded sectors of null_blk's and no write; fsync=4 over 64
    FUA writes at QD 1 are 15 flushes at null_blk, and every write it is
    issued carries FUA (rwbs WFS).  Mutations: kb_opf()'s trim as
    REQ_OP_WRITE_ZEROES: red (the I/O fails: neither takes write zeroes);
    kb_opf() without REQ_FUA: red (WS writes)."""
    if guest.run("modprobe null_blk nr_devices=0 && grep -qw fua "
                 "/sys/kernel/config/nullb/features").rc:
        pytest.skip(f"null_blk of {guest.kernel.name} has no fua attribute")
    nb = make_nullb("nullb0", size_mb=64, discard=1, cache_size=16, fua=1)
    dm = dm_linear(guest, "kbops", nb)
    try:
        before = stat(guest, nb)
        job = run_job(guest, f"--allow-writes --filename={dm} --rw=randtrim --bs=4k "
                             f"--iodepth=32 --number_ios=400")
        d = [a - b for a, b in zip(stat(guest, nb), before)]
        assert d[ST_DSECT] == 400 * 8 and d[ST_WRITES] == d[ST_READS] == 0, d
        assert job["trim"]["total_ios"] == 400
        before = stat(guest, nb)[ST_FLUSHES]
        rwbs = tracepoint_rwbs(guest, nb, "block_rq_issue", f"kiobench run --allow-writes --filename={dm} --rw=write "
                                    f"--bs=4k --iodepth=1 --number_ios=64 --fsync=4 "
                                    f"--writefua=1")
        assert stat(guest, nb)[ST_FLUSHES] - before == 15
        writes = [r for r in rwbs if r.startswith("W")]
        assert len(writes) == 64 and set(writes) == {"WFS"}, rwbs
    finally:
        dm_remove(guest, "kbops")


def refused(guest: Guest, dev: str, args: str, allow: bool = True) -> str:
    """Runs a job that must be refused; its message, the device untouched."""
    before = stat(guest, dev)
    r = guest.run(f"kiobench run {'--allow-writes ' if allow else ''}--filename={dev} "
                  f"--number_ios=100 {args}")
    assert r.rc != 0, r.out
    assert stat(guest, dev) == before, (args, r.out)
    return r.out


def test_refusals(guest: Guest, kiobench_module, make_nullb):
    """Before any I/O: a trim where discard_max_bytes is 0, write zeroes
    where write_zeroes_max_bytes is 0, an atomic write on a device without
    them (the kernel's extack names the attribute, the limit and the
    device); any of them, and flushes,
    without --allow-writes (the tool's guard, and the kernel's own by
    attribute); readfua with the reason.  Every device counter stays.
    Mutations: kb_check_ops() (job.c) without the discard test: red (the
    trims fail at the device instead); kb_check_ops() (netlink.c) without
    its allow-writes loop: red."""
    dev = make_nullb("nullb0", size_mb=64)      # no discard, no write zeroes
    lim = queue_limits(guest, dev, "discard_max_bytes", "write_zeroes_max_bytes")
    assert lim == {"discard_max_bytes": "0", "write_zeroes_max_bytes": "0"}, lim
    # 6.1 has no formatted extack: its message has no device path
    out = refused(guest, dev, "--rw=randtrim")
    assert re.search(rf"trim-mode(, trim-backlog)?: .*discard_max_bytes( is)? 0( on {dev})?", out), out
    out = refused(guest, dev, "--rw=randwrite --write_mode=zeroes")
    assert re.search(rf"write-zeroes: .*write_zeroes_max_bytes( is)? 0( on {dev})?", out), out
    for args in ("--rw=trim", "--rw=trimwrite", "--rw=write --write_mode=zeroes",
                 "--rw=write --fsync=1"):
        out = refused(guest, dev, args, allow=False)
        assert "refusing without --allow-writes" in out, (args, out)
    # null_blk has no atomic writes (6.12), nor has 6.1 any: 0..0
    out = refused(guest, dev, "--rw=randwrite --atomic=1")
    assert re.search(rf"atomic: bs( outside| 4096 not in 0\.\.0 of {dev})", out), out
    out = refused(guest, dev, "--rw=read --readfua=1")
    assert "a read with REQ_FUA is refused by the block layer" in out, out
    for attr in ("write-zeroes", "end-fsync", "fsync=4", "atomic"):
        ack = nlreq(guest, "new", f"dev={dev}", attr, "number-ios=100")
        assert (ack.name, ack.attr) == ("EINVAL", attr.split("=")[0]), ack.out
        assert "allow-writes" in ack.msg, ack.out


def scsi_debug(guest: Guest, **params: int) -> str:
    """scsi_debug with `params`, its disk's /dev path (sd_mod names it)."""
    if {"scsi_debug", "sd_mod"} & set(guest.initramfs.missing_modules):
        pytest.skip(f"{guest.kernel.name} has no scsi_debug or sd_mod")
    args = " ".join(f"{k}={v}" for k, v in params.items())
    guest.check(f"modprobe sd_mod && modprobe scsi_debug {args}")
    script = """for i in $(seq 100); do
    for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
        [ -b /dev/${d##*/} ] && echo /dev/${d##*/} && exit 0
    done
    sleep 0.1
done
echo "no scsi_debug disk" >&2; exit 1"""
    return guest.check(script).strip()


@pytest.fixture
def atomic_disk(guest: Guest, kiobench_module) -> tuple[str, int, int]:
    """A scsi_debug disk with atomic writes (atomic_wr=1, 6.11+): its path
    and atomic_write_unit_min/max_bytes; removed after the test."""
    if {"scsi_debug", "sd_mod"} & set(guest.initramfs.missing_modules):
        pytest.skip(f"{guest.kernel.name} has no scsi_debug or sd_mod")
    if guest.run("test -e /sys/module/scsi_debug/parameters/atomic_wr || "
                 "modinfo -F parm scsi_debug | grep -q '^atomic_wr:'").rc:
        pytest.skip(f"scsi_debug of {guest.kernel.name} has no atomic_wr (6.11+)")
    dev = scsi_debug(guest, atomic_wr=1, dev_size_mb=32)
    lim = queue_limits(guest, dev, "atomic_write_unit_min_bytes", "atomic_write_unit_max_bytes")
    yield dev, int(lim["atomic_write_unit_min_bytes"]), int(lim["atomic_write_unit_max_bytes"])
    guest.run("rmmod scsi_debug")


def test_atomic_scsi_debug(guest: Guest, atomic_disk):
    """atomic=1 on scsi_debug with atomic_wr=1: every write the SCSI layer
    dispatches is a WRITE ATOMIC(16) (scsi_dispatch_cmd_start), 50 of
    them; a block size outside the device's atomic_write_unit_min/max
    is refused with the limits named, before any I/O.  Mutation: kb_opf()
    without REQ_ATOMIC: red (WRITE(10/16) commands)."""
    dev, lo, hi = atomic_disk
    assert 0 < lo <= hi, (lo, hi)
    ev = f"{TRACING}/events/scsi/scsi_dispatch_cmd_start"
    mount_tracefs(guest)
    guest.check(f"echo >{TRACING}/trace && echo 1 >{ev}/enable")
    before = stat(guest, dev)
    try:
        job = run_job(guest, f"--allow-writes --filename={dev} --rw=randwrite --bs={hi} "
                             f"--iodepth=8 --number_ios=50 --atomic=1")
    finally:
        guest.check(f"echo 0 >{ev}/enable")
    d = [a - b for a, b in zip(stat(guest, dev), before)]
    cmds = re.findall(r"cmnd=\((\w+)", guest.check(f"cat {TRACING}/trace"))
    writes = [c for c in cmds if c.startswith("WRITE")]
    # the block layer may merge two adjacent atomic writes within the limits
    assert writes and set(writes) == {"WRITE_ATOMIC_16"}, cmds
    assert d[ST_WRITES] + d[ST_WRITES + 1] == 50 and d[ST_WSECT] == 50 * hi // 512, d
    assert job["write"]["total_ios"] == 50 and job["kiobench"]["settings"]["atomic"]
    aw = job["kiobench"]["atomic_write"]
    assert aw["total_ios"] == 50 and aw["clat_ns"] == job["write"]["clat_ns"], aw
    out = refused(guest, dev, f"--rw=randwrite --bs={hi * 2} --atomic=1")
    assert re.search(rf"atomic: bs {hi * 2} not in {lo}\.\.{hi} of {dev}", out), out


def test_write_zeroes_unmap_scsi_debug(guest: Guest, kiobench_module):
    """Where the device can tell (scsi_debug with lbpws=1: sd sends write
    zeroes as WRITE SAME, whose UNMAP bit the scsi_dispatch_cmd_start
    event shows): write_mode=zeroes keeps REQ_NOUNMAP (unmap=0 in every
    command), write_zeroes_unmap leaves it out (unmap=1).  Mutation:
    kb_opf() always setting REQ_NOUNMAP: red."""
    if {"scsi_debug", "sd_mod"} & set(guest.initramfs.missing_modules):
        pytest.skip(f"{guest.kernel.name} has no scsi_debug or sd_mod")
    dev = scsi_debug(guest, lbpws=1, dev_size_mb=32)
    try:
        ev = f"{TRACING}/events/scsi/scsi_dispatch_cmd_start"
        mount_tracefs(guest)
        for unmap in (0, 1):
            guest.check(f"echo >{TRACING}/trace && echo 1 >{ev}/enable")
            try:
                job = run_job(guest, f"--allow-writes --filename={dev} --rw=randwrite "
                                     f"--write_mode=zeroes --bs=64k --iodepth=4 "
                                     f"--number_ios=20{' --write_zeroes_unmap' * unmap}")
            finally:
                guest.check(f"echo 0 >{ev}/enable")
            cmds = re.findall(r"cmnd=\((WRITE_\w+) .*?unmap=(\d)",
                              guest.check(f"cat {TRACING}/trace"))
            assert len(cmds) == 20 and all(op.startswith("WRITE_SAME") for op, _ in cmds), cmds
            assert {int(u) for _, u in cmds} == {unmap}, cmds
            assert job["write"]["total_ios"] == 20
    finally:
        guest.run("rmmod scsi_debug")
