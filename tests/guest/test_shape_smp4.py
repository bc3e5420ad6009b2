"""The four-CPU guest that completion locality needs (tests/README.md,
"Lanes to come"): four vCPUs (MTTCG spreads them over the host's cores),
an NVMe controller with a queue per CPU, and one limited to a single I/O
queue, so that one interrupt vector serves every CPU."""
from __future__ import annotations

from kb import disk_name
from vm.guest import Guest, Nvme
from vm.targets import nvme_dev

GUEST_ARGS = {"smp": 4, "nvme": [Nvme(64 << 20), Nvme(64 << 20, max_ioqpairs=1)]}


def hw_queues(guest: Guest, dev: str) -> list[str]:
    """The CPU list of each of `dev`'s blk-mq hardware queues."""
    name = disk_name(dev)
    return guest.check(f"cat /sys/block/{name}/mq/*/cpu_list").split("\n")[:-1]


def test_four_cpus(guest: Guest):
    """The kernel runs four CPUs; the first controller's namespace gets a
    hardware queue per CPU, each serving its own CPU; the second's one
    queue serves all four.  Mutations: GUEST_ARGS smp=2: red (nproc 2,
    two queues); Nvme.qemu_args without max_ioqpairs: red (four)."""
    assert guest.check("nproc").strip() == "4"
    assert guest.check("cat /sys/devices/system/cpu/online").strip() == "0-3"
    assert sorted(hw_queues(guest, nvme_dev(guest, 0))) == ["0", "1", "2", "3"]
    assert hw_queues(guest, nvme_dev(guest, 1)) == ["0, 1, 2, 3"]
