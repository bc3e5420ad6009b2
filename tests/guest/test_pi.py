"""End-to-end protection information (PI) on an NVMe namespace formatted
with it (QEMU 10's nvme-ns ms=8,pi=1: 8 bytes of metadata a 512-byte
block in a buffer of their own, a 16-bit CRC guard, the reference tag
checked).  The NVMe driver registers the namespace's integrity profile,
T10-DIF-TYPE1-CRC, and the block layer then generates PI on writes and
verifies it on reads (the disk's integrity/write_generate and
read_verify); with either off, the driver sends those commands with
PRACT, and the controller generates or strips PI itself.  The guest is
test_write_streams.py's (kb.FDP_PI_GUEST: one QEMU 10 boot), this
namespace its controller 1."""
from __future__ import annotations

import json
import re
import time

import pytest

from kb import FDP_PI_GUEST, NVME_CMD, TRACING, debugfs, destroy_job, disk_name, mount_tracefs, \
    nvme_cmds, run_job
from vm.guest import Guest
from vm.targets import dm_linear, dm_remove, nvme_dev

GUEST_ARGS = FDP_PI_GUEST

pytestmark = pytest.mark.debug

# The control field (upper half of cdw12) of an NVMe read or write
PRCHK_REF = 1 << 10
PRCHK_GUARD = 1 << 12
PRACT = 1 << 13
PRINFO = PRACT | PRCHK_GUARD | 1 << 11 | PRCHK_REF
T10 = "T10-DIF-TYPE1-CRC"


def pi_dev(guest: Guest) -> str:
    """/dev path of the PI namespace (controller 1)."""
    return nvme_dev(guest, 1)


def integrity_attr(guest: Guest, dev: str, attr: str) -> str:
    """Attribute attr of whole disk dev's integrity directory in sysfs."""
    return guest.check(f"cat /sys/block/{disk_name(dev)}/integrity/{attr}").strip()


def test_pi_namespace_has_integrity(guest: Guest):
    """The harness' PI namespace reaches the block layer as an integrity
    profile: T10-DIF-TYPE1-CRC over 512-byte intervals, a 2-byte
    application tag, the device checking it (device_is_integrity_capable),
    the block layer generating on writes and verifying on reads by
    default.  Mutation: Nvme.qemu_args without pi= (metadata without PI:
    the profile is "nop"): red."""
    dev = pi_dev(guest)
    attrs = {a: integrity_attr(guest, dev, a) for a in (
        "format", "tag_size", "protection_interval_bytes", "write_generate", "read_verify")}
    assert attrs == {"format": "T10-DIF-TYPE1-CRC", "tag_size": "2",
                     "protection_interval_bytes": "512", "write_generate": "1",
                     "read_verify": "1"}, attrs


def set_integrity(guest: Guest, dev: str, **attrs: int) -> None:
    """Writes integrity attributes (write_generate, read_verify) of dev."""
    for attr, value in attrs.items():
        guest.check(f"echo {value} >/sys/block/{disk_name(dev)}/integrity/{attr}")


def round_trip(guest: Guest, dev: str) -> tuple[dict, set[int], set[int]]:
    """64 KiB written then read back, 4 KiB at a time by one worker at
    depth 1: the read job's JSON (its settings the kernel's), and the
    PRINFO bits of the writes' and of the reads' NVMe commands.  Neither
    run may fail an I/O."""
    base = f"kiobench run --allow-writes --filename={dev} --bs=4k --size=64k --iodepth=1"
    prinfo: dict[str, set[int]] = {}
    for rw in ("write", "read"):
        cmds = nvme_cmds(guest, f"{base} --rw={rw} --output-format=json --output=/tmp/pi.json")
        ops = [c for c in cmds if c["op"] == f"nvme_cmd_{rw}"]
        assert ops, cmds
        prinfo[rw] = {c["ctrl"] & PRINFO for c in ops}
        job = json.loads(guest.check("cat /tmp/pi.json"))["jobs"][0]
        assert job["error"] == 0, job
    return job, prinfo["write"], prinfo["read"]


@pytest.mark.core   # kb_integrity(): 6.1's profile structure, the limits' from 6.11
def test_pi_what_the_block_layer_did(guest: Guest, kiobench_module):
    """A job on the PI namespace records, as it starts, the integrity
    profile and whether the block layer generated PI on writes and
    verified it on reads, and says so in debugfs, JSON and the table.
    With both on, the NVMe driver sends every write and read with the
    guard and reference tag checks (PRCHK); with write_generate 0 the
    writes go with PRACT (the controller generates), with read_verify 0
    the reads (it checks and strips); the round trip fails no I/O
    either way.  Mutations: kb_note_integrity() leaving the flags out:
    red (the report says not generated, the commands PRCHK); the tool's
    read_verify taken from the generate bit: red."""
    dev = pi_dev(guest)
    try:
        for gen, ver in ((1, 1), (0, 1), (1, 0)):
            set_integrity(guest, dev, write_generate=gen, read_verify=ver)
            job, writes, reads = round_trip(guest, dev)
            assert job["kiobench"]["settings"]["protection"] == [
                {"format": T10, "write_generate": bool(gen), "read_verify": bool(ver),
                 "stacked": False}], job
            # PRACT: the controller's PI; 6.12's driver sets PRCHK with it
            for on, prinfo in ((gen, writes), (ver, reads)):
                if on:
                    ok = all(not p & PRACT and p & PRCHK_GUARD and p & PRCHK_REF for p in prinfo)
                else:
                    ok = all(p & PRACT for p in prinfo)
                assert ok, (gen, ver, writes, reads)
        # the table's line and debugfs, read_verify still off
        args = f"--filename={dev} --rw=read --bs=4k --size=64k"
        r = guest.run(f"kiobench run {args}")
        assert r.rc == 0, r.out
        assert (f"protection: {T10}, block layer generated on writes, not verified by "
                f"the block layer (read_verify 0) on reads") in r.out, r.out
        job = run_job(guest, args, keep=True)
        config = debugfs(guest, job, "config")
        destroy_job(guest, job)
        assert f"integrity={dev} {T10} write_generate=1 read_verify=0" in config, config
    finally:
        set_integrity(guest, dev, write_generate=1, read_verify=1)


def test_pi_stacked_device(guest: Guest, kiobench_module):
    """A dm-linear device over the PI namespace has the namespace's profile
    and write_generate of its own, but is bio-based: the block layer
    attaches PI where the bios reach the namespace, by the namespace's
    settings.  With dm's write_generate 0 and the namespace's 1, the
    writes still go with PRCHK, and the report says the device is stacked
    (JSON stacked, no generate or verify claimed; the table's line; debugfs),
    and a sweep of its read_verify is refused, naming it.  Mutations:
    kb_note_integrity() without its queue_is_mq() test: red (the report
    says not generated while the namespace's block layer did); the tool's
    kb_tune_set() without its bio_based() test: red (the sweep runs)."""
    dev = pi_dev(guest)
    dm = dm_linear(guest, "pidm", dev)
    name = guest.check("for d in /sys/block/dm-*; do "
                       "[ \"$(cat $d/dm/name)\" = pidm ] && echo ${d##*/}; done").strip()
    try:
        assert guest.check(f"cat /sys/block/{name}/integrity/format").strip() == T10
        guest.check(f"echo 0 >/sys/block/{name}/integrity/write_generate")
        cmds = nvme_cmds(guest, f"kiobench run --allow-writes --filename={dm} --rw=write "
                                f"--bs=4k --size=64k --iodepth=1 --output-format=json "
                                f"--output=/tmp/pi.json")
        writes = {c["ctrl"] & PRINFO for c in cmds if c["op"] == "nvme_cmd_write"}
        assert writes == {PRCHK_GUARD | PRCHK_REF}, writes
        job = json.loads(guest.check("cat /tmp/pi.json"))["jobs"][0]
        assert job["error"] == 0 and job["kiobench"]["settings"]["protection"] == [
            {"format": T10, "write_generate": False, "read_verify": False,
             "stacked": True}], job
        r = guest.run(f"kiobench run --filename={dm} --rw=read --bs=4k --size=64k")
        assert r.rc == 0 and (f"protection: {T10}, a bio-based device: the write_generate "
                              f"and read_verify of the devices below it decide") in r.out, r.out
        job = run_job(guest, f"--filename={dm} --rw=read --bs=4k --size=64k", keep=True)
        config = debugfs(guest, job, "config")
        destroy_job(guest, job)
        assert f"integrity={dm} {T10} write_generate=0 read_verify=0 stacked=1" in config, config
        # nor does a sweep change a setting that changes nothing
        r = guest.run(f"kiobench sweep --filename={dm} --rw=read --bs=4k --size=64k "
                      f"--allow-tuning --read_verify=0,1", timeout=120)
        assert r.rc != 0 and (f"read_verify=0: {dm} is bio-based: its read_verify changes "
                              f"nothing") in r.out, r.out
        assert guest.check(f"cat /sys/block/{name}/integrity/read_verify").strip() == "1"
    finally:
        dm_remove(guest, "pidm")


def test_pi_tuning_sweep(guest: Guest, kiobench_module):
    """--write_generate=1,0 swept with --read_verify=0 fixed: each step's
    settings as sysfs read them during it, in the JSON and under the
    rows, and its writes' commands (the step's report) follow them;
    afterwards both are back at 1 and the record is gone.  A sweep over
    the PI namespace and the FDP one, which has no integrity profile,
    fails at its first step, naming the device; the PI namespace's value,
    changed first, is back.  Mutation: kb_tune_restore() writes nothing
    back: red."""
    dev, other = pi_dev(guest), nvme_dev(guest, 0)
    args = (f"--filename={dev} --rw=write --bs=4k --size=64k --allow-writes "
            f"--allow-tuning --write_generate=1,0 --read_verify=0")
    guest.check(f"kiobench sweep {args} --output-format=json --output=/tmp/tune.json",
                timeout=120)
    part = json.loads(guest.check("cat /tmp/tune.json"))["parts"][0]
    assert part["variable"] == "write_generate"
    seen = [(s["value"], s["tuning"][dev]["write_generate"], s["tuning"][dev]["read_verify"])
            for s in part["steps"]]
    assert seen == [("1", "1", "0"), ("0", "0", "0")], seen
    after = (integrity_attr(guest, dev, "write_generate"), integrity_attr(guest, dev, "read_verify"))
    assert after == ("1", "1"), after
    assert not guest.run("ls /run/kiobench/tuning.* 2>/dev/null").out.strip()
    table = guest.check(f"kiobench sweep {args}", timeout=120)
    assert f"settings of {dev}: " in table and " write_generate=0 read_verify=0" in table, table
    assert integrity_attr(guest, dev, "write_generate") == "1"
    r = guest.run(f"kiobench sweep --filename={dev}:{other} --rw=read --bs=4k --size=64k "
                  f"--allow-tuning --read_verify=0,1", timeout=120)
    assert r.rc != 0 and f"read_verify=0: {other} has no integrity profile" in r.out, r.out
    assert integrity_attr(guest, dev, "read_verify") == "1"


def fixed_checks(guest: Guest) -> bool:
    """Whether the kernel's drivers check a type 1 device's guard and
    reference tag whatever kiobench asks (no BIP_CHECK_*, before 6.14:
    Debian's 6.1 and 6.12), so that pi_chk must be GUARD,REFTAG."""
    return guest.kernel.name.startswith("6.")


def own_pi(guest: Guest, args: str) -> tuple[dict, str]:
    """A job with kiobench's own PI (pi_act=0) kept for its debugfs pi
    file: its JSON and that file."""
    job = run_job(guest, f"--pi_act=0 {args}", keep=True)
    pi = debugfs(guest, job, "pi")
    destroy_job(guest, job)
    return job, pi


@pytest.mark.core   # the payload: the caller's from 7.0, the block layer's before
def test_pi_own_round_trip(guest: Guest, kiobench_module):
    """pi_act=0: kiobench attaches its own PI to each write and read.  The
    writes and reads go without PRACT, with the PRCHK bits of pi_chk, and
    the device (which checks the guard and the reference tag against its
    command) takes them all; the block layer, reading them back with
    read_verify, finds every tuple right; kiobench's own read finds none
    wrong.  A read expecting another application tag (the device told to
    check only guard and reftag) finds each interval's apptag wrong, and
    an apptag written over 4 KiB at 32 KiB is reported at its first LBA,
    64, in debugfs pi (with the tuples expected and found) and the JSON.
    On 6.1 and 6.12 the payload is the block layer's, from the worker's
    pool (compat.h), and pi_chk only GUARD,REFTAG.  Mutations: the guard
    computed over the interval less one byte: red (the device fails the
    writes); the reference tag off by one: red (likewise); on 6.1 and
    6.12, kb_bio_attach_pi() attaching nothing: red (the block layer's
    PI is written, apptag 0, and kiobench's read finds its buffer
    unread); kb_pi_check() not comparing the apptag: red."""
    dev = pi_dev(guest)
    base = f"--filename={dev} --bs=4k --size=64k --iodepth=1"
    chk = "GUARD,REFTAG" if fixed_checks(guest) else "GUARD,REFTAG,APPTAG"
    cmds = nvme_cmds(guest, f"kiobench run {base} --rw=write --allow-writes --pi_act=0 "
                            f"--pi_chk=GUARD,REFTAG --apptag=4660")
    writes = {c["ctrl"] & PRINFO for c in cmds if c["op"] == "nvme_cmd_write"}
    assert writes == {PRCHK_GUARD | PRCHK_REF}, writes
    # the block layer verifies what kiobench wrote: guard and reftag right
    job = run_job(guest, f"{base} --rw=read")
    assert job["error"] == 0 and job["read"]["io_bytes"] == 65536, job
    cmds = nvme_cmds(guest, f"kiobench run {base} --rw=read --pi_act=0 --pi_chk=GUARD,REFTAG "
                            f"--apptag=4660")
    reads = {c["ctrl"] & PRINFO for c in cmds if c["op"] == "nvme_cmd_read"}
    assert reads == {PRCHK_GUARD | PRCHK_REF}, reads
    job, pi = own_pi(guest, f"{base} --rw=read --pi_chk={chk} --apptag=4660")
    assert job["error"] == 0, job
    assert pi.splitlines()[0] == "interval=512 guard=0 reftag=0 apptag=0", pi
    assert job["kiobench"]["protection_errors"] == {
        "guard_errors": 0, "reftag_errors": 0, "apptag_errors": 0}, job
    # another apptag over 4 KiB at 32 KiB, then read expecting the first
    run_job(guest, f"--filename={dev} --bs=4k --offset=32k --size=4k --rw=write "
                   f"--allow-writes --pi_act=0 --pi_chk=GUARD,REFTAG --apptag=291")
    job, pi = own_pi(guest, f"{base} --rw=read --pi_chk=GUARD,REFTAG --apptag=4660")
    lines = pi.splitlines()
    assert job["error"] == 0 and lines[0] == "interval=512 guard=0 reftag=0 apptag=8", pi
    assert job["kiobench"]["protection_errors"] == {
        "guard_errors": 0, "reftag_errors": 0, "apptag_errors": 8, "first_lba": 64}, job
    assert lines[1] == (f"wrong=0 device={dev} lba=64 kinds=apptag expected_guard="
                        f"{lines[1].split('expected_guard=')[1].split()[0]} expected_apptag=0x1234 "
                        f"expected_reftag=0x00000040 found_guard="
                        f"{lines[1].split('found_guard=')[1].split()[0]} found_apptag=0x0123 "
                        f"found_reftag=0x00000040"), pi
    assert lines[1].split("expected_guard=")[1].split()[0] == \
        lines[1].split("found_guard=")[1].split()[0], pi


def bip_objects(guest: Guest) -> int | None:
    """Objects in use in the slab cache of integrity payloads, its per-CPU
    slabs flushed first (shrink): SLUB's objects file.  The cache may be
    merged with others of its size, idle in the guest.  None: no such
    cache (7.x allocates payloads with kmalloc())."""
    slab = "/sys/kernel/slab/bio_integrity_payload"
    if guest.run(f"test -e {slab}").rc:
        return None
    return int(guest.check(f"echo 1 >{slab}/shrink && cat {slab}/objects").split()[0])


@pytest.mark.core   # who frees the payload: 6.1 at completion, 6.12 at reset
def test_pi_own_payloads_freed(guest: Guest, kiobench_module):
    """Each payload kiobench's PI takes from the block layer (6.1, 6.12:
    one a slot, from its worker's pool) goes back to it: ten jobs of two
    workers 16 deep, reads and writes with pi_act=0, leave the slab of
    payloads as they found it (a few objects of the cache's other users
    aside), once the last job's workers are freed (after an RCU grace
    period); the kernel log stays clean.  On the debug kernel the payload
    is the slot's own, none is taken, there is no such slab, and
    kmemleak and KASAN watch the jobs.  The two workers have halves of
    their own (offset_increment): QEMU writes a block's data and its PI
    in two steps, so two writes of one block at once can leave one's data
    under the other's guard, which a later read fails (EILSEQ).
    Mutation: kb_bio_release_pi() freeing nothing on 6.12: red (the last
    payload of each slot stays out, 320 objects more)."""
    dev = pi_dev(guest)
    args = (f"--filename={dev} --bs=4k --size=512k --offset_increment=512k --iodepth=16 "
            f"--numjobs=2 --group_reporting "
            f"--rw=randrw --allow-writes --pi_act=0 --pi_chk=GUARD,REFTAG")
    run_job(guest, args)
    time.sleep(0.5)
    before = bip_objects(guest)
    assert before is not None or not fixed_checks(guest)
    for _ in range(10):
        job = run_job(guest, args)
        assert job["error"] == 0 and job["kiobench"]["protection_errors"]["guard_errors"] == 0, job
    if before is None:
        return
    for _ in range(20):
        after = bip_objects(guest)
        if after - before < 8:
            break
        time.sleep(0.1)
    assert after - before < 8, (before, after)


@pytest.mark.core   # 6.1 and 6.12 refuse the checks they cannot choose
def test_pi_own_refused(guest: Guest, kiobench_module):
    """pi_act=0 on a device without a T10 type 1 profile (the FDP
    namespace) is refused by the kernel, naming the device.  On 6.1 and
    6.12, whose NVMe driver checks a type 1 namespace's guard and
    reference tag whatever the payload says (no BIP_CHECK_*), any pi_chk
    but GUARD,REFTAG is refused, naming why.  pi_chk without pi_act=0,
    and pi_act=0 without pi_chk, are refused by the tool.  Mutations:
    kb_pi_check_dev() returning 0 at once: red (the job runs on the FDP
    namespace); KB_PI_CHK_FIXED 0 on 6.1 and 6.12: red (pi_chk=GUARD
    runs)."""
    other, dev = nvme_dev(guest, 0), pi_dev(guest)
    r = guest.run(f"kiobench run --filename={other} --rw=read --bs=4k --size=64k "
                  f"--pi_act=0 --pi_chk=GUARD,REFTAG")
    # 6.1 has no formatted extack (KB_ERR_FMT): its fixed text names no device
    assert r.rc != 0 and (f"pi-chk: {other}: not T10-DIF-TYPE1-CRC, 8-byte metadata"
                          in r.out or "pi-chk: a device's integrity is not T10-DIF-TYPE1-CRC "
                          "with 8 bytes of metadata" in r.out and
                          guest.kernel.name.startswith("6.1.")), r.out
    if fixed_checks(guest):
        for chk in ("GUARD", "GUARD,REFTAG,APPTAG"):
            r = guest.run(f"kiobench run --filename={dev} --rw=read --bs=4k --size=64k "
                          f"--pi_act=0 --pi_chk={chk}")
            assert r.rc != 0 and ("this kernel's drivers check what the PI type says" in r.out
                                  and "pi-chk must be GUARD,REFTAG" in r.out), r.out
    r = guest.run(f"kiobench run --filename={dev} --rw=read --bs=4k --size=64k --pi_chk=GUARD")
    assert r.rc != 0 and "pi_chk: only with pi_act=0" in r.out, r.out
    r = guest.run(f"kiobench run --filename={dev} --rw=read --bs=4k --size=64k --pi_act=0")
    assert r.rc != 0 and "pi_act=0 needs pi_chk" in r.out, r.out


# NVMe's status (SCT 2, media and data integrity errors) for each field
NVME_STATUS = {"GUARD": 0x282, "APPTAG": 0x283, "REFTAG": 0x284}
NVME_DONE = f"{TRACING}/events/nvme/nvme_complete_rq"


def failed_write_status(guest: Guest, cmd: str, slba: int) -> tuple[int, str]:
    """Runs cmd, which must fail, with the nvme_setup_cmd and
    nvme_complete_rq tracepoints on: the status (SCT and SC, the DNR and
    More bits masked) with which the driver completed the last write set
    up at slba, and cmd's output."""
    mount_tracefs(guest)
    evs = (NVME_CMD, NVME_DONE)
    guest.check(f"echo >{TRACING}/trace && " +
                " && ".join(f"echo 1 >{e}/enable" for e in evs) + f" && echo 1 >{TRACING}/tracing_on")
    try:
        r = guest.run(cmd, timeout=120)
    finally:
        guest.check(" && ".join(f"echo 0 >{e}/enable" for e in evs))
    assert r.rc != 0, r.out
    trace = guest.check(f"cat {TRACING}/trace")
    key = None
    for line in trace.splitlines():
        m = re.search(r"nvme_setup_cmd: .*?qid=(\d+), cmdid=(\d+),.*?cmd=\(nvme_cmd_write "
                      r"slba=(\d+)", line)
        if m and int(m[3]) == slba:
            key, status = (m[1], m[2]), None
            continue
        m = re.search(r"nvme_complete_rq: .*?qid=(\d+), cmdid=(\d+),.*?status=(0x[0-9a-f]+)",
                      line)
        if m and key == (m[1], m[2]) and status is None:
            status = int(m[3], 16) & 0x7ff
    assert key is not None and status is not None, trace[-2000:]
    return status, r.out


@pytest.mark.core   # the checks: the payload's from 6.14, the driver's before
def test_pi_own_inject(guest: Guest, kiobench_module):
    """pi_inject: each write of the interval pi_inject_lba carries the
    named field wrong.  A wrong guard or reference tag, which the device
    checks (pi_chk GUARD,REFTAG), fails the write: the nvme_complete_rq
    tracepoint shows the driver completing that write (slba 64, the 4 KiB
    holding interval 70) with the field's NVMe status (0x282 guard, 0x284
    reference tag), and the job fails with EILSEQ, its report (normal
    output, JSON's error_at) naming that write: its device, offset and
    length.  A wrong application tag, which no PRCHK asks it to check, is
    stored, and kiobench's read counts it at that LBA alone.  Where the
    payload chooses the checks (not 6.1 or 6.12), a wrong reference tag
    the device is not told to check (pi_chk GUARD: the driver sends no
    PRCHK_REF, BIP_CHECK_REFTAG unset) is stored too, and read back as
    one reftag error, and a wrong application tag the device is told to
    check (pi_chk APPTAG) fails the write.  The namespace is written right
    again afterwards.
    Mutations: kb_err_stopped_at() not called: red (no error_at, no place
    in the state line); kb_pi_inject() leaving the reftag alone: red (the write
    succeeds; no reftag error read); kb_pi_inject() leaving the apptag
    alone: red (no apptag error read; nor in the normal output's
    protection line); the payload's BIP_CHECK_* always
    GUARD|REFTAG: red (the device fails the write)."""
    dev = pi_dev(guest)
    base = f"--filename={dev} --bs=4k --size=64k --iodepth=1"
    good = f"{base} --rw=write --allow-writes --pi_act=0 --pi_chk=GUARD,REFTAG"
    try:
        for field in ("GUARD", "REFTAG"):
            # the write of 4 KiB at sector 64 (intervals 64-71) fails: the
            # driver's status the field's check, the job's report that I/O
            inject = f"kiobench run {good} --pi_inject={field} --pi_inject_lba=70"
            status, out = failed_write_status(guest, inject, 64)
            assert status == NVME_STATUS[field], (field, hex(status))
            assert f"a write of 4096 bytes at offset 32768 (sector 64) of {dev}, EILSEQ" \
                in out, (field, out)
            r = guest.run(f"{inject} --output-format=json --output=/tmp/inj.json")
            job = json.loads(guest.check("cat /tmp/inj.json"))["jobs"][0]
            assert r.rc != 0 and job["kiobench"]["error_at"] == {
                "device": dev, "op": "write", "offset": 32768, "length": 4096,
                "errno": "EILSEQ"}, (field, job["kiobench"].get("error_at"))
        run_job(guest, f"{good} --pi_inject=APPTAG --pi_inject_lba=70")
        job, pi = own_pi(guest, f"{base} --rw=read --pi_chk=GUARD,REFTAG")
        assert job["kiobench"]["protection_errors"] == {
            "guard_errors": 0, "reftag_errors": 0, "apptag_errors": 1, "first_lba": 70}, pi
        assert " lba=70 kinds=apptag " in pi and "expected_apptag=0x1234" in pi and \
            "found_apptag=0x1235" in pi, pi
        out = guest.check(f"kiobench run {base} --rw=read --pi_act=0 --pi_chk=GUARD,REFTAG")
        assert "protection   : kiobench's own (pi_act=0): 0 guard, 0 reference tag, 1 " \
            "application tag errors read, the first at LBA 70" in out, out
        if fixed_checks(guest):
            return
        # told to check the application tag too (PRCHK's apptag bit, from
        # BIP_CHECK_APPTAG), the device fails that write as well
        status, out = failed_write_status(
            guest, f"kiobench run {good},APPTAG --pi_inject=APPTAG --pi_inject_lba=70", 64)
        assert status == NVME_STATUS["APPTAG"] and "(sector 64)" in out and "EILSEQ" in out, \
            (hex(status), out)
        run_job(guest, good)
        run_job(guest, f"{base} --rw=write --allow-writes --pi_act=0 --pi_chk=GUARD "
                       f"--pi_inject=REFTAG --pi_inject_lba=70")
        job, pi = own_pi(guest, f"{base} --rw=read --pi_chk=GUARD")
        assert job["kiobench"]["protection_errors"] == {
            "guard_errors": 0, "reftag_errors": 1, "apptag_errors": 0, "first_lba": 70}, pi
        assert " lba=70 kinds=reftag " in pi and "expected_reftag=0x00000046" in pi and \
            "found_reftag=0x00000047" in pi, pi
    finally:
        run_job(guest, good)


@pytest.mark.core   # the interval's size: 6.1's profile, 6.11's limits, 7.x's payload
def test_pi_over_4k_intervals(guest: Guest, kiobench_module):
    """A namespace of 4 KiB blocks with PI (controller 2): one protection
    interval a 4 KiB block, its reference tag the block's LBA (in 4 KiB
    units, as the device checks it).  The block layer's round trip and kiobench's own (pi_act=0:
    its tuples over 4096 bytes, the device checking guard and reftag on
    the writes) take no error; kiobench's own read finds every tuple
    right, and a wrong application tag written on interval 3 (pi_inject)
    is found there alone.  One job over this namespace and the 512-byte
    one is refused, naming both intervals.  Mutation: kb_pi_guard() over
    512 bytes rather than the interval: red (the device fails the writes;
    the 512-byte namespace's tests pass).  (The reference tags' unit is
    not one a mutation shows: the block layer's type 1 remapping turns a
    seed and tags in any unit into the device's LBAs, and back.)"""
    dev = nvme_dev(guest, 2)
    assert integrity_attr(guest, dev, "protection_interval_bytes") == "4096"
    assert integrity_attr(guest, dev, "format") == T10
    job, writes, reads = round_trip(guest, dev)
    assert writes == reads == {PRCHK_GUARD | PRCHK_REF}, (writes, reads)
    base = f"--filename={dev} --bs=16k --size=256k --iodepth=2"
    good = f"{base} --rw=write --allow-writes --pi_act=0 --pi_chk=GUARD,REFTAG"
    cmds = nvme_cmds(guest, f"kiobench run {good}")
    assert {c["ctrl"] & PRINFO for c in cmds if c["op"] == "nvme_cmd_write"} == \
        {PRCHK_GUARD | PRCHK_REF}, cmds[:4]
    job = run_job(guest, f"{base} --rw=read")     # the block layer verifies kiobench's
    assert job["error"] == 0 and job["read"]["io_bytes"] == 256 << 10, job
    job, pi = own_pi(guest, f"{base} --rw=read --pi_chk=GUARD,REFTAG")
    assert pi.splitlines()[0] == "interval=4096 guard=0 reftag=0 apptag=0", pi
    try:
        run_job(guest, f"{good} --pi_inject=APPTAG --pi_inject_lba=3")
        job, pi = own_pi(guest, f"{base} --rw=read --pi_chk=GUARD,REFTAG")
        assert job["kiobench"]["protection_errors"] == {
            "guard_errors": 0, "reftag_errors": 0, "apptag_errors": 1, "first_lba": 3}, pi
        assert " lba=3 kinds=apptag " in pi and "expected_reftag=0x00000003" in pi, pi
    finally:
        run_job(guest, good)
    # one job over both PI namespaces, 512-byte and 4 KiB intervals: one
    # interval a job (a slot's tuples are sized for it), so refused, naming
    # the device and both intervals; nothing written
    both = f"--filename={pi_dev(guest)}:{dev} --bs=16k --size=256k --iodepth=2"
    r = guest.run(f"kiobench run {both} --rw=randwrite --allow-writes --pi_act=0 "
                  "--pi_chk=GUARD,REFTAG")
    # 6.1 has no formatted extack (KB_ERR_FMT): its fixed text names no device
    assert r.rc != 0 and (f"pi-chk: {dev}: interval 4096 where the others' is 512" in r.out
                          or "pi-chk: a device's protection interval is not the job's other "
                          "devices' (one interval a job)" in r.out and
                          guest.kernel.name.startswith("6.1.")), r.out


@pytest.mark.core   # the payload's split: the block layer's, 6.1 to 7.x
def test_pi_own_bios_split(guest: Guest, kiobench_module):
    """kiobench's own PI on 1 MiB bios, which the block layer splits at
    the controller's largest transfer (QEMU's MDTS: 512 KiB), on both PI
    namespaces: the split's second half carries the payload's tuples from
    its own interval on (bio_integrity_trim(), the seed advanced), so the
    device, checking the reference tag, takes every write, and kiobench's
    read finds every tuple right.  The split is the block layer's: this
    guards the payload kiobench attaches (one vector over the slot's
    tuples, its seed the first interval's LBA) against a layout a split
    cannot advance by intervals.  Mutation: kb_bio_attach_pi() of the
    pool (6.1, 6.12) not setting the iterator's size, as it did: red on
    6.1 (bio_integrity_add_page() leaves it 0 there: the split's advance
    WARNs, and the device fails the second half's guards)."""
    for dev in (pi_dev(guest), nvme_dev(guest, 2)):
        base = f"--filename={dev} --bs=1m --size=4m --iodepth=2"
        cmds = nvme_cmds(guest, f"kiobench run {base} --rw=write --allow-writes --pi_act=0 "
                                "--pi_chk=GUARD,REFTAG")
        lbs = int(integrity_attr(guest, dev, "protection_interval_bytes"))
        sizes = {(c["len"] + 1) * lbs for c in cmds if c["op"] == "nvme_cmd_write"}
        assert max(sizes) < 1 << 20, sizes      # split
        job, pi = own_pi(guest, f"{base} --rw=read --pi_chk=GUARD,REFTAG")
        assert job["error"] == 0 and job["read"]["io_bytes"] == 4 << 20, job
        assert job["kiobench"]["protection_errors"] == {
            "guard_errors": 0, "reftag_errors": 0, "apptag_errors": 0}, (dev, pi)
