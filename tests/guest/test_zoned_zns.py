"""zonemode=zbd through the real nvme driver, on QEMU's emulated ZNS
namespace: what test_zoned.py proves on null_blk, here with
the commands the driver sends read from its nvme_setup_cmd tracepoint
(kb.nvme_cmds): a write is nvme_cmd_write, a zone append
nvme_cmd_zone_append (opcode 0x7d), a zone reset, open, close or finish
nvme_cmd_zone_mgmt_send (0x79) with its zone send action (zsa), a
reset-all the same with its all bit.

One kernel is enough (not marked core): the driver and QEMU are the
same under each, and the kernels' differences (zone write locking
against plugging) are test_zoned.py's, on every kernel."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from kb import nvme_cmds, queue_attr
from vm.guest import Guest, Nvme, Zoned
from vm.targets import nvme_dev

# zone management on QEMU's ZNS runs under KASAN, lockdep and kmemleak: on
# the debug kernel, not twice on 6.12
pytestmark = pytest.mark.debug

MiB = 1 << 20
ZONE, CAP, NR = 16 * MiB, 12 * MiB, 8
ZNS = Zoned(zone_size=ZONE, zone_capacity=CAP, max_open=4, max_active=6)
# test_shape_nvme's shape, whose guest this module shares (no boot of its
# own): the ZNS namespace is controller 2's
GUEST_ARGS = {"nvme": [Nvme(64 * MiB, discard=True), Nvme(64 * MiB),
                       Nvme(NR * ZONE, zoned=ZNS)]}
ZNS_CTRL = 2
# NVMe zone send actions (include/linux/nvme.h)
ZSA_FINISH, ZSA_RESET = 2, 4


@pytest.fixture
def zns(guest: Guest, kiobench_module) -> str:
    dev = nvme_dev(guest, ZNS_CTRL)
    guest.check(f"blkzone reset {dev}")
    return dev


def pointers(guest: Guest, dev: str) -> list[int]:
    """Each zone's write pointer, bytes from its start (blkzone report)."""
    wps = [int(wp, 16) * 512 for wp in
           re.findall(r"wptr 0x([0-9a-f]+)", guest.check(f"blkzone report {dev}"))]
    assert len(wps) == NR, wps
    return wps


def traced_job(guest: Guest, dev: str, args: str) -> tuple[dict, Counter]:
    """A zbd job on dev, and what it sent: the count of each NVMe command
    (a zone management send by its action and all bit), and under
    ("bytes", op) the bytes of the reads, writes and appends (the block
    layer may merge a zone's writes into fewer commands)."""
    out = "/tmp/zns.json"
    cmds = nvme_cmds(guest, f"kiobench run --output-format=json --output={out} "
                            f"--filename={dev} --allow-writes --zonemode=zbd {args}")
    job = json.loads(guest.check(f"cat {out}"))["jobs"][0]
    assert job["error"] == 0, job
    lbs = int(queue_attr(guest, dev, "logical_block_size"))
    n = Counter()
    for c in cmds:
        op = c["op"].removeprefix("nvme_cmd_")
        n[(op, c.get("zsa"), c.get("all")) if op == "zone_mgmt_send" else op] += 1
        if op in ("read", "write", "zone_append"):
            n[("bytes", op)] += (c["len"] + 1) * lbs     # len: blocks less one
    return job, n


def test_zns_writes_appends_and_zone_ops(guest: Guest, zns: str) -> None:
    """On an empty ZNS namespace (8 zones of 16 MiB, 12 MiB capacity, at
    most 4 open and 6 active): a zbd random write of 8 MiB at depth 4 is
    8 MiB of write commands and no append; zone appends of 8 MiB at depth 8
    are 8 MiB of zone append commands (0x7d) and no write, each landing
    inside its zone; both with no error, the device's write pointers moving by 16
    MiB in all.  Then zone_finish of the 8 zones is 8 zone management
    sends (0x79) with the finish action, zone_reset 8 with reset, and
    zone_reset_all a single one with the all bit, after which every
    pointer is 0; each op timed under kiobench.<op>.  Mutations recorded
    (6.12): zone appends sent as writes at the zone's start (worker.c
    kb_opf()): red (the job fails, EIO); reset-all sent as
    REQ_OP_ZONE_RESET (zone.c kb_zbd_opf()): red (a send without the all
    bit)."""
    io = 8 * MiB
    job, cmds = traced_job(guest, zns, f"--rw=randwrite --bs=64k --iodepth=4 --io_size={io}")
    assert job["write"]["io_bytes"] == io and cmds[("bytes", "write")] == io, cmds
    assert cmds["zone_append"] == 0, cmds
    assert sum(pointers(guest, zns)) == io
    job, cmds = traced_job(guest, zns, f"--rw=randwrite --bs=64k --iodepth=8 --io_size={io} "
                                       f"--write_mode=zone_append")
    z = job["kiobench"]["zones"]
    assert cmds[("bytes", "zone_append")] == io and cmds["write"] == 0, cmds
    assert (z["append_in_zone"], z["append_outside"]) == (io // (64 << 10), 0), z
    assert sum(pointers(guest, zns)) == 2 * io
    for op, zsa, n in ("zone_finish", ZSA_FINISH, NR), ("zone_reset", ZSA_RESET, NR):
        job, cmds = traced_job(guest, zns, f"--rw={op} --iodepth=4")
        assert cmds[("zone_mgmt_send", zsa, 0)] == n, cmds
        assert sum(v for k, v in cmds.items() if k[0] == "zone_mgmt_send") == n, cmds
        assert job["kiobench"][op]["total_ios"] == job["kiobench"][op]["lat_ns"]["N"] == n
        # the kernel reports a full zone's pointer at the zone's end (nvme zns.c)
        assert pointers(guest, zns) == ([ZONE] * NR if op == "zone_finish" else [0] * NR)
    # a zone with data again, then one command for all
    guest.check(f"dd if=/dev/zero of={zns} bs=64k count=1 oflag=direct 2>/dev/null")
    job, cmds = traced_job(guest, zns, "--rw=zone_reset_all")
    assert [k for k in cmds if k[0] == "zone_mgmt_send"] == [("zone_mgmt_send", ZSA_RESET, 1)]
    assert cmds[("zone_mgmt_send", ZSA_RESET, 1)] == 1, cmds
    assert job["kiobench"]["zone_reset_all"]["total_ios"] == 1
    assert pointers(guest, zns) == [0] * NR
