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

import pytest

from kb import FDP_PI_GUEST, disk_name
from vm.guest import Guest
from vm.targets import nvme_dev

GUEST_ARGS = FDP_PI_GUEST

pytestmark = pytest.mark.debug


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
