"""The guest shapes the next lanes need, as the guest's kernel sees them
(tests/README.md, "Lanes to come"): NVMe namespaces with discard, write
zeroes, FUA and a volatile write cache (every command a driver sends),
and zoned devices, QEMU's ZNS and null_blk's.  The tests that use them
add only their own checks; these prove that the harness' options
(vm.guest.Nvme, Zoned, vm.targets.zoned) reach the kernel, each against
a device without the option where QEMU would otherwise offer it anyway."""
from __future__ import annotations

import re

import pytest

from vm.guest import Guest, Nvme, Zoned
from vm.targets import nvme_dev, queue_limits, zoned

MiB = 1 << 20
ZNS = Zoned(zone_size=16 * MiB, zone_capacity=12 * MiB, max_open=4, max_active=6)
GUEST_ARGS = {"nvme": [Nvme(64 * MiB, discard=True),    # kiobench0
                       Nvme(64 * MiB),                  # kiobench1
                       Nvme(128 * MiB, zoned=ZNS)]}     # kiobench2
LIMITS = ("discard_max_bytes", "write_zeroes_max_bytes", "fua", "write_cache", "zoned",
          "nr_zones", "chunk_sectors", "max_open_zones", "max_active_zones")
# A MiB of 0xff bytes, written where a test then discards or zeroes.
FILL = "tr '\\000' '\\377' </dev/zero | dd of={dev} bs=1M count=1 seek={mb} iflag=fullblock oflag=direct 2>/dev/null"
# The bytes of that MiB that are not zero, read around the page cache.
NONZERO = "dd if={dev} bs=1M count=1 skip={mb} iflag=direct 2>/dev/null | tr -d '\\000' | wc -c"
TRACING = "/sys/kernel/debug/tracing"
NVME_CMD = f"{TRACING}/events/nvme/nvme_setup_cmd"
NVME_RW_FUA = 1 << 14


def nonzero_after(guest: Guest, dev: str, mb: int, cmd: str) -> int:
    """Fill MiB `mb` of `dev`, run `cmd`; the bytes of it left non-zero."""
    guest.check(FILL.format(dev=dev, mb=mb))
    assert int(guest.check(NONZERO.format(dev=dev, mb=mb))) == MiB
    guest.check(cmd)
    return int(guest.check(NONZERO.format(dev=dev, mb=mb)))


def nvme_commands(guest: Guest, cmd: str) -> list[tuple[str, int]]:
    """The NVMe commands the driver set up while `cmd` ran (the
    nvme_setup_cmd tracepoint): (opcode name, ctrl field of reads and
    writes, else 0) each."""
    guest.check(f"echo >{TRACING}/trace && echo 1 >{NVME_CMD}/enable")
    try:
        guest.check(cmd)
    finally:
        guest.check(f"echo 0 >{NVME_CMD}/enable")
    return [(op, int(ctrl or "0", 16)) for op, ctrl in
            re.findall(r"cmd=\((nvme_cmd_\w+)(?:.*?ctrl=0x([0-9a-f]+))?",
                       guest.check(f"cat {TRACING}/trace"))]


def test_nvme_discard(guest: Guest):
    """A DSM on the namespace with discard deallocates (the MiB reads
    back as zeroes); on the one without, QEMU keeps the data.  Both offer
    discard to the kernel.  Mutation: Nvme.qemu_args without
    discard=unmap: red (the data stays)."""
    dev, plain = nvme_dev(guest, 0), nvme_dev(guest, 1)
    for d in dev, plain:
        assert int(queue_limits(guest, d, "discard_max_bytes")["discard_max_bytes"]) > 0
    assert nonzero_after(guest, dev, 1, f"blkdiscard -o {MiB} -l {MiB} {dev}") == 0
    assert nonzero_after(guest, plain, 1, f"blkdiscard -o {MiB} -l {MiB} {plain}") == MiB


def test_nvme_write_zeroes(guest: Guest):
    """The kernel offers write zeroes on QEMU's NVMe, and blkdiscard -z
    (BLKZEROOUT) reaches the device as write-zeroes commands, no data
    writes, leaving zeroes.  Mutation: use-intel-id=on on the controller
    (Linux's quirk for that ID drops write zeroes): red."""
    dev = nvme_dev(guest, 0)
    lim = queue_limits(guest, dev, "write_zeroes_max_bytes")
    assert int(lim["write_zeroes_max_bytes"]) > 0, lim
    guest.check(FILL.format(dev=dev, mb=2))
    # util-linux's blkdiscard by path: busybox sh runs its own applet
    # (which has no -z) for the bare name
    ops = [op for op, _ in nvme_commands(
        guest, f"/usr/bin/blkdiscard -z -o {2 * MiB} -l {MiB} {dev}")]
    assert "nvme_cmd_write_zeroes" in ops and "nvme_cmd_write" not in ops, ops
    assert int(guest.check(NONZERO.format(dev=dev, mb=2))) == 0


def test_nvme_cache_fua(guest: Guest):
    """QEMU's NVMe has a volatile write cache: the kernel caches
    write-back and offers FUA; an fsync reaches the device as a flush,
    and an O_DIRECT|O_SYNC write (fio's sync=1) as a write with the FUA
    bit.
    Mutation: the queue's write_cache set to "write through" first (the
    kernel then treats the device as one without a cache): red."""
    dev = nvme_dev(guest, 0)
    lim = queue_limits(guest, dev, "fua", "write_cache")
    assert (lim["fua"], lim["write_cache"]) == ("1", "write back"), lim
    flush = nvme_commands(guest, f"dd if=/dev/zero of={dev} bs=4k count=1 conv=fsync 2>/dev/null")
    assert ("nvme_cmd_flush", 0) in flush, flush
    fua = nvme_commands(guest, f"fio --name=fua --filename={dev} --rw=write --bs=4k "
                               f"--size=16k --direct=1 --sync=1 --ioengine=psync >/dev/null")
    writes = [ctrl for op, ctrl in fua if op == "nvme_cmd_write"]
    assert writes and all(c & NVME_RW_FUA for c in writes), fua


def test_zns(guest: Guest):
    """QEMU's ZNS namespace is host-managed with the zones asked for: 8
    zones of 16 MiB, 12 MiB of capacity each (blkzone's report, from the
    device), at most 4 open and 6 active.  Mutation: Nvme.qemu_args
    without zoned=true: red (a conventional namespace)."""
    dev = nvme_dev(guest, 2)
    lim = queue_limits(guest, dev, *LIMITS)
    assert lim["zoned"] == "host-managed", lim
    assert (lim["nr_zones"], lim["chunk_sectors"]) == ("8", str(ZNS.zone_size // 512)), lim
    assert (lim["max_open_zones"], lim["max_active_zones"]) == ("4", "6"), lim
    caps = re.findall(r"len 0x([0-9a-f]+), cap 0x([0-9a-f]+)", guest.check(f"blkzone report {dev}"))
    assert [(int(n, 16) * 512, int(c, 16) * 512) for n, c in caps] == \
        [(ZNS.zone_size, ZNS.zone_capacity)] * 8, caps


@pytest.mark.core
def test_zoned_nullb(guest: Guest, kernel, make_nullb):
    """null_blk zoned through configfs (vm.targets.zoned): host-managed,
    16 zones of 8 MiB with 6 MiB of capacity, the first conventional,
    at most 4 open.  Mutation: targets.zoned() without zoned=1: red."""
    if not kernel.has("BLK_DEV_ZONED"):
        pytest.skip(f"{kernel.name} is built without CONFIG_BLK_DEV_ZONED")
    dev = make_nullb("nullb0", **zoned(8, 16, zone_capacity_mb=6, max_open=4, nr_conv=1))
    lim = queue_limits(guest, dev, *LIMITS)
    assert (lim["zoned"], lim["nr_zones"]) == ("host-managed", "16"), lim
    assert (lim["chunk_sectors"], lim["max_open_zones"]) == (str(8 * MiB // 512), "4"), lim
    zones = re.findall(r"cap 0x([0-9a-f]+).*type: (\d)", guest.check(f"blkzone report {dev}"))
    assert [(int(c, 16) * 512, t) for c, t in zones] == \
        [(8 * MiB, "1")] + [(6 * MiB, "2")] * 15, zones


def test_no_network_without_ssh(guest: Guest):
    """A guest booted without ssh=True (every lane's but the fleet's) has
    no network device (PCI class 02), no interface but lo, and no sshd:
    the default guests stay as they were.  Mutation: Guest.boot always
    adding the NIC: red."""
    assert guest.check("cat /sys/bus/pci/devices/*/class").split().count("0x020000") == 0
    assert guest.check("ls /sys/class/net").split() == ["lo"]
    assert guest.run("pidof dropbear").rc != 0


def test_identity_in_the_json(guest: Guest, kiobench_module):
    """Each job's JSON says where it ran and on what (its host
    identity): the guest's host name and online CPUs, and for each device
    its identity from sysfs: the model QEMU's NVMe reports ("QEMU NVMe
    Ctrl"), the serial the harness gave the controller (kiobench1: the VM's
    configuration, not sysfs, is the reference), its firmware revision and
    the transport (pcie).  Mutation: kb_devid_read() reading the disk's
    directory instead of its device's: red (model and serial empty)."""
    import json
    dev = nvme_dev(guest, 1)
    out = guest.check(f"kiobench run --filename={dev} --rw=randread --number_ios=100 "
                      "--output-format=json")
    k = json.loads(out)["jobs"][0]["kiobench"]
    assert k["host"]["hostname"] == guest.check("uname -n").strip(), k["host"]
    assert k["host"]["cpus"] == int(guest.check("nproc")), k["host"]
    ids = k["device_ids"]
    assert len(ids) == 1 and ids[0]["path"] == dev, ids
    assert ids[0]["model"] == "QEMU NVMe Ctrl" and ids[0]["serial"] == "kiobench1", ids
    assert ids[0]["transport"] == "pcie" and ids[0]["firmware"], ids
