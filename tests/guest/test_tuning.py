"""Tuning as sweep dimensions, and putting it back: a sweep over
the block queue's rq_affinity is refused without --allow-tuning; with it
each step's settings are read back into the report and the old value is
back afterwards; after the tool is killed with SIGKILL mid-sweep, the next
kiobench command puts it back and says so.  The guest of
test_locality.py (no new boot)."""
from __future__ import annotations

import json
import re

import pytest

from kb import queue_attr, queue_path
from vm.guest import Guest, Nvme

# the tuning sweeps switch schedulers and queue settings under a running
# module: under KASAN, lockdep and kmemleak, on the debug kernel, not on 6.12
pytestmark = pytest.mark.debug

GUEST_ARGS = {"smp": 4, "nvme": [Nvme(64 << 20), Nvme(64 << 20, max_ioqpairs=1)]}

RUN_DIR = "/run/kiobench"


def test_tuning_needs_allow_tuning(guest: Guest, kiobench_module, make_nullb):
    """Without --allow-tuning a sweep over rq_affinity is refused, naming
    the setting, and nothing changes.  Mutation: sweep_tuning() ignores a
    missing --allow-tuning: red (the sweep runs)."""
    dev = make_nullb("nullb0", size_mb=16)
    before = queue_attr(guest, dev, "rq_affinity")
    r = guest.run(f"kiobench sweep --filename={dev} --rw=randread --number_ios=100 "
                  f"--rq_affinity=0,2")
    assert r.rc == 1, r.out
    assert "--rq_affinity: changes a machine-wide setting" in r.out and \
        "--allow-tuning" in r.out, r.out
    assert queue_attr(guest, dev, "rq_affinity") == before


def test_tuning_sweep_reads_back_and_puts_back(guest: Guest, kiobench_module, make_nullb):
    """--rq_affinity=0,2 with a fixed --nomerges=2: each step's settings as
    sysfs read them during it, in the JSON and under the rows; afterwards
    both are back and the record is gone.  Mutation: kb_tune_restore()
    writes nothing back: red."""
    dev = make_nullb("nullb0", size_mb=16)
    name = dev.rsplit("/", 1)[-1]
    aff, nom = queue_attr(guest, dev, "rq_affinity"), queue_attr(guest, dev, "nomerges")
    assert aff != "0" and nom != "2", (aff, nom)
    args = (f"--filename={dev} --rw=randread --number_ios=200 --allow-tuning "
            f"--rq_affinity=0,2 --nomerges=2")
    guest.check(f"kiobench sweep {args} --output-format=json --output=/tmp/tune.json",
                timeout=120)
    part = json.loads(guest.check("cat /tmp/tune.json"))["parts"][0]
    assert part["variable"] == "rq_affinity"
    assert [s["variable"] for s in part["steps"]] == ["rq_affinity"] * 2
    assert [s["value"] for s in part["steps"]] == ["0", "2"]
    seen = [(s["tuning"][dev]["rq_affinity"], s["tuning"][dev]["nomerges"])
            for s in part["steps"]]
    assert seen == [("0", "2"), ("2", "2")], seen
    assert (queue_attr(guest, dev, "rq_affinity"), queue_attr(guest, dev, "nomerges")) == (aff, nom)
    assert not guest.run(f"ls {RUN_DIR}/tuning.* 2>/dev/null").out.strip()
    table = guest.check(f"kiobench sweep {args}", timeout=120)
    assert re.search(rf"settings of {dev}: rq_affinity=2 nomerges=2 ioscheduler=\S+ "
                     rf"nr_requests=\d+", table), table
    assert queue_attr(guest, dev, "rq_affinity") == aff
    assert name


def test_tuning_scheduler_and_nr_requests(guest: Guest, kiobench_module, make_nullb):
    """--ioscheduler=mq-deadline,none swept with --nr_requests=32 fixed:
    each step's scheduler and nr_requests as sysfs read them during it (32
    both times, though a scheduler switch resets nr_requests); afterwards
    the queue's own scheduler and nr_requests (100, not a default) are back
    without a warning; and so after a SIGKILL, by the next command.
    Mutations: kb_tune_restore() puts the scheduler back last (its switch
    resets nr_requests to the default): red; recover_file() likewise: red."""
    dev = make_nullb("nullb0", size_mb=16)
    q = f"/sys/block/{dev.rsplit('/', 1)[-1]}/queue"
    guest.check(f"echo mq-deadline >{q}/scheduler && echo 100 >{q}/nr_requests")
    before = (queue_attr(guest, dev, "scheduler"), queue_attr(guest, dev, "nr_requests"))
    assert "[mq-deadline]" in before[0] and before[1] == "100", before
    r = guest.run(f"kiobench sweep --filename={dev} --rw=randread --number_ios=200 "
                  f"--allow-tuning --ioscheduler=mq-deadline,none --nr_requests=32 "
                  f"--output-format=json --output=/tmp/sched.json", timeout=120)
    assert r.ok and "cannot put back" not in r.out, r.out
    part = json.loads(guest.check("cat /tmp/sched.json"))["parts"][0]
    assert part["variable"] == "ioscheduler"
    seen = [(s["value"], s["tuning"][dev]["ioscheduler"], s["tuning"][dev]["nr_requests"])
            for s in part["steps"]]
    assert seen == [("mq-deadline", "mq-deadline", "32"), ("none", "none", "32")], seen
    assert (queue_attr(guest, dev, "scheduler"), queue_attr(guest, dev, "nr_requests")) == before
    assert not guest.run(f"ls {RUN_DIR}/tuning.* 2>/dev/null").out.strip()
    # killed (SIGKILL) in a first step under "none": the next command puts
    # both back in the same order
    guest.check(f"(kiobench sweep --filename={dev} --rw=randread --runtime=30 --time_based "
                f"--allow-tuning --ioscheduler=none,mq-deadline --nr_requests=32 "
                f">/tmp/k.out 2>&1 &) ; for i in $(seq 100); do grep -q '\\[none\\]' "
                f"{q}/scheduler && grep -qx 32 {q}/nr_requests && exit 0; sleep 0.1; done; "
                f"exit 1", timeout=60)
    guest.check("pid=$(pidof kiobench); kill -KILL $pid; "
                "while kill -0 $pid 2>/dev/null; do sleep 0.1; done")
    r = guest.run("kiobench --version")
    assert r.ok and "cannot put back" not in r.out, r.out
    assert re.search(r"put back \S+/queue/nr_requests=100, left changed", r.out), r.out
    assert (queue_attr(guest, dev, "scheduler"), queue_attr(guest, dev, "nr_requests")) == before
    guest.check("for i in $(seq 300); do ls /sys/kernel/debug/kiobench | grep -q job || "
                "exit 0; sleep 0.1; done; exit 1", timeout=60)


def test_tuning_put_back_after_sigkill(guest: Guest, kiobench_module, make_nullb):
    """The sweep is killed (SIGKILL) during its first step, rq_affinity=0:
    the value stays changed and recorded; the next kiobench command puts
    it back and says so.  Mutation: kb_tune_recover() skips a record whose
    process is gone: red."""
    dev = make_nullb("nullb0", size_mb=16)
    aff = queue_attr(guest, dev, "rq_affinity")
    guest.check(f"(kiobench sweep --filename={dev} --rw=randread --runtime=30 --time_based "
                f"--allow-tuning --rq_affinity=0,2 >/tmp/k.out 2>&1 &) ; "
                f"for i in $(seq 100); do ls {RUN_DIR}/tuning.* >/dev/null 2>&1 && "
                f"grep -q 0 {queue_path(dev, 'rq_affinity')} && exit 0; "
                f"sleep 0.1; done; exit 1", timeout=60)
    pid = guest.check("pidof kiobench").strip()
    guest.check(f"kill -KILL {pid}; while kill -0 {pid} 2>/dev/null; do sleep 0.1; done")
    assert queue_attr(guest, dev, "rq_affinity") == "0"
    assert guest.check(f"ls {RUN_DIR}").strip() == f"tuning.{pid}"
    r = guest.run("kiobench --version")
    assert r.rc == 0, r.out
    assert re.search(rf"put back /sys/dev/block/\S+/queue/rq_affinity={aff}, left changed by "
                     rf"kiobench pid {pid}", r.out), r.out
    assert queue_attr(guest, dev, "rq_affinity") == aff
    assert not guest.run(f"ls {RUN_DIR}/tuning.* 2>/dev/null").out.strip()
    # the killed job's kernel side ended with its socket
    guest.check("for i in $(seq 300); do ls /sys/kernel/debug/kiobench | grep -q job || "
                "exit 0; sleep 0.1; done; exit 1", timeout=60)


def test_tuning_put_back_after_sigterm(guest: Guest, kiobench_module, make_nullb):
    """SIGTERM mid-sweep ends it in order: the value is back and the record
    gone.  Mutation: method_finish() does not call kb_tune_restore() and
    atexit() is not registered (at_exit = true from the start): red."""
    dev = make_nullb("nullb0", size_mb=16)
    aff = queue_attr(guest, dev, "rq_affinity")
    guest.check(f"(kiobench sweep --filename={dev} --rw=randread --runtime=30 --time_based "
                f"--allow-tuning --rq_affinity=0,2 >/tmp/k.out 2>&1 &) ; "
                f"for i in $(seq 100); do grep -q 0 {queue_path(dev, 'rq_affinity')} "
                f"&& exit 0; sleep 0.1; done; exit 1", timeout=60)
    guest.check("pid=$(pidof kiobench); kill -TERM $pid; "
                "while kill -0 $pid 2>/dev/null; do sleep 0.1; done", timeout=60)
    assert queue_attr(guest, dev, "rq_affinity") == aff, guest.check("cat /tmp/k.out")
    assert not guest.run(f"ls {RUN_DIR}/tuning.* 2>/dev/null").out.strip()


def test_irq_cpus_of_a_managed_interrupt_is_refused(guest: Guest, kiobench_module):
    """NVMe's MSI-X vectors are managed: moving them is refused, saying
    why, and nothing is left changed.  Mutation: change() drops the
    managed-interrupt explanation: red."""
    from vm.targets import nvme_dev
    dev = nvme_dev(guest, 0)
    r = guest.run(f"kiobench sweep --filename={dev} --rw=randread --number_ios=100 "
                  f"--allow-tuning --irq_cpus=1 --iodepth=1,2")
    assert r.rc != 0, r.out
    assert re.search(r"irq_cpus=1: /proc/irq/\d+/smp_affinity_list refuses it: "
                     r"(Input/output error|Operation not permitted) \(a managed interrupt: "
                     r"the kernel sets its affinity\)", r.out), r.out
    assert "cannot put back" not in r.out, r.out
    assert not guest.run(f"ls {RUN_DIR}/tuning.* 2>/dev/null").out.strip()


@pytest.mark.budget(60)
def test_irq_cpus_moves_an_unmanaged_interrupt(own_guest):
    """With pci=nomsi the NVMe controller interrupts on its legacy INTx
    line, which no affinity set manages: --irq_cpus=0,1 moves it for each
    step, as its settings read back say, and the step's device interrupts
    (the locality report's, from /proc/interrupts) land on that CPU; the
    old affinity is back afterwards.  Its own guest (MSI off).  Mutation:
    kb_tune_set() skips set_irqs() (continue before it): red."""
    from vm.targets import nvme_dev
    g = own_guest(smp=2, nvme=[Nvme(64 << 20)], append="pci=nomsi")
    g.check("modprobe kiobench")
    dev = nvme_dev(g)
    pci = g.check(f"readlink -f /sys/block/{dev.rsplit('/', 1)[-1]}/device/device").strip()
    assert g.run(f"ls {pci}/msi_irqs 2>/dev/null").out.strip() == "", "MSI still on"
    irq = int(g.check(f"cat {pci}/irq"))
    aff = f"/proc/irq/{irq}/smp_affinity_list"
    old = g.check(f"cat {aff}").strip()
    r = g.run(f"kiobench sweep --filename={dev} --rw=randread --number_ios=300 --allow-tuning "
              f"--irq_cpus=0,1 --output-format=json --output=/tmp/irq.json", timeout=120)
    assert r.ok and "cannot put back" not in r.out, r.out
    part = json.loads(g.check("cat /tmp/irq.json"))["parts"][0]
    assert part["variable"] == "irq_cpus"
    for cpu, st in zip(("0", "1"), part["steps"]):
        assert st["tuning"][dev][f"irq {irq} cpus"] == cpu, st["tuning"]
        vec = [v for v in st["jobs"][0]["kiobench"]["locality"]["interrupts"]
               if v["irq"] == irq]
        assert vec and vec[0]["total"] > 0, st["jobs"][0]["kiobench"]["locality"]
        # the move takes effect at the line's next interrupt: one may come late
        assert vec[0]["cpus"][cpu] >= vec[0]["total"] - 2, (cpu, vec)
    assert g.check(f"cat {aff}").strip() == old
