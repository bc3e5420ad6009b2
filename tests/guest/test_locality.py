"""Where each I/O ran: the locality report of the module
(debugfs job<ID>/locality) in the tool's JSON, checked against an
independent source, the block_rq_complete tracepoint's CPU field.

The four-CPU guest of test_shape_smp4.py: its second NVMe controller has
one I/O queue, so one interrupt vector, whose effective CPU the kernel
says in /proc/irq/<N>/effective_affinity_list.  The worker is pinned to
another CPU (and not CPU 0)."""
from __future__ import annotations

import json
import re

import pytest

from kb import TRACING, disk_name, mount_tracefs, queue_attr, set_queue, trace_devno
from vm.guest import Guest, Nvme
from vm.targets import nvme_dev

# the block layer's completion paths differ between kernels; the debug
# kernel runs them under KASAN
pytestmark = [pytest.mark.core, pytest.mark.debug]

GUEST_ARGS = {"smp": 4, "nvme": [Nvme(64 << 20), Nvme(64 << 20, max_ioqpairs=1)]}

RQ_COMPLETE = f"{TRACING}/events/block/block_rq_complete"
NR = 2000


def io_irq(guest: Guest, dev: str) -> tuple[int, int]:
    """(IRQ, its effective CPU) of the one I/O queue of NVMe namespace dev."""
    ctrl = guest.check(f"basename $(readlink -f /sys/block/{disk_name(dev)}/device)").strip()
    m = re.search(rf"^\s*(\d+):.*\b{ctrl}q1$", guest.check("cat /proc/interrupts"), re.M)
    assert m, f"no interrupt {ctrl}q1 in /proc/interrupts"
    irq = int(m.group(1))
    eff = guest.check(f"cat /proc/irq/{irq}/effective_affinity_list").strip()
    assert re.fullmatch(r"\d+", eff), f"irq {irq}: effective affinity {eff}, not one CPU"
    return irq, int(eff)


def traced_cpus(guest: Guest, dev: str, cmd: str) -> dict[int, int]:
    """Run cmd with block_rq_complete traced; {CPU: completions of dev}."""
    majmin, _ = trace_devno(guest, dev)
    mount_tracefs(guest)  # 7.x has no debugfs tracing link
    guest.check(f"echo 8192 >{TRACING}/buffer_size_kb; echo >{TRACING}/trace; "
                f"echo 1 >{RQ_COMPLETE}/enable")
    try:
        r = guest.run(cmd, timeout=300)
        assert r.rc == 0, f"{cmd}: exit {r.rc}\n{r.out}"
    finally:
        guest.check(f"echo 0 >{RQ_COMPLETE}/enable")
    cpus: dict[int, int] = {}
    for cpu in re.findall(rf"\[(\d+)\][^\n]*block_rq_complete: {majmin} R ",
                          guest.check(f"cat {TRACING}/trace")):
        cpus[int(cpu)] = cpus.get(int(cpu), 0) + 1
    return cpus


def locality_run(guest: Guest, dev: str, cpu: int, extra: str = "") -> tuple[dict, dict]:
    """A pinned randread job on dev: (its kiobench.locality, traced CPUs)."""
    args = (f"--filename={dev} --rw=randread --bs=4k --iodepth=4 --number_ios={NR} "
            f"--cpus_allowed={cpu} {extra}")
    cpus = traced_cpus(guest, dev, f"kiobench run --output-format=json "
                       f"--output=/tmp/loc.json {args}")
    job = json.loads(guest.check("cat /tmp/loc.json"))["jobs"][0]
    return job["kiobench"]["locality"], cpus


def completed_on(loc: dict) -> dict[int, int]:
    return {c["cpu"]: c["completed"] for c in loc["cpus"] if c["completed"]}


def pick_worker_cpu(irq_cpu: int) -> int:
    return next(c for c in (1, 2, 3) if c != irq_cpu)


def set_rq_affinity(guest: Guest, dev: str, value: int) -> None:
    set_queue(guest, dev, rq_affinity=value)
    assert queue_attr(guest, dev, "rq_affinity") == str(value)


def test_rq_affinity_2_completes_on_the_submitting_cpu(guest: Guest, kiobench_module):
    """rq_affinity=2: every completion on the worker's CPU, none on the
    interrupt's; the tracepoint saw the same.  On PREEMPT_RT the block
    layer sends no IPI to complete elsewhere (blk_mq_complete_need_ipi():
    with force-threaded interrupts it would only wake ksoftirqd), so there
    every completion stays on the interrupt's CPU, which the report must
    say as the tracepoint does.  Mutation: kb_loc_submit() stamps CPU 0
    (slot->loc_cpu = 0): red (local 0)."""
    dev = nvme_dev(guest, 1)
    _, irq_cpu = io_irq(guest, dev)
    w = pick_worker_cpu(irq_cpu)
    set_rq_affinity(guest, dev, 2)
    try:
        loc, traced = locality_run(guest, dev, w)
    finally:
        set_rq_affinity(guest, dev, 1)
    assert loc["completions"] >= NR
    if guest.kernel.has("PREEMPT_RT"):
        assert loc["local"] == 0, loc
        assert completed_on(loc) == {irq_cpu: loc["completions"]}, loc["cpus"]
        assert set(traced) == {irq_cpu}, f"block_rq_complete on CPUs {traced}, irq on {irq_cpu}"
        return
    assert loc["local"] == loc["completions"], loc
    assert loc["llc"] == loc["remote"] == 0, loc
    assert completed_on(loc) == {w: loc["completions"]}, loc["cpus"]
    assert {c["cpu"]: c["submitted"] for c in loc["cpus"] if c["submitted"]} == \
        {w: loc["completions"]}, loc["cpus"]
    assert set(traced) == {w}, f"block_rq_complete on CPUs {traced}, worker on {w}"
    assert traced[w] >= NR * 0.99, traced  # the ring may drop an event or two
    assert [q["queue"] for q in loc["queues"]] == [0], loc["queues"]


def test_rq_affinity_0_completes_on_the_interrupts_cpu(guest: Guest, kiobench_module):
    """rq_affinity=0: no completion on the worker's CPU, every one on the
    interrupt's; the tracepoint and /proc/interrupts (the report's own
    interrupts section: the vector counted on that CPU) agree.  Mutation:
    kb_loc_complete() counts in the submitting CPU's counters
    (per_cpu_ptr(loc->pcpu, slot->loc_cpu)): red (completed on the worker)."""
    dev = nvme_dev(guest, 1)
    irq, irq_cpu = io_irq(guest, dev)
    w = pick_worker_cpu(irq_cpu)
    set_rq_affinity(guest, dev, 0)
    try:
        loc, traced = locality_run(guest, dev, w)
    finally:
        set_rq_affinity(guest, dev, 1)
    n = loc["completions"]
    assert n >= NR
    assert loc["local"] == 0, loc
    assert completed_on(loc) == {irq_cpu: n}, loc["cpus"]
    assert set(traced) == {irq_cpu}, f"block_rq_complete on CPUs {traced}, irq on {irq_cpu}"
    assert loc["context"]["task"] == 0, loc["context"]
    vec = [i for i in loc["interrupts"] if i["irq"] == irq]
    assert vec, f"irq {irq} not in the report's interrupts: {loc['interrupts']}"
    assert vec[0]["cpus"][str(irq_cpu)] >= 1, vec
    assert vec[0]["cpus"][str(irq_cpu)] == vec[0]["total"], vec


def test_hipri_completes_in_the_submitting_task(guest: Guest, kiobench_module, make_nullb):
    """--hipri on null_blk's poll queue: every completion in task context
    on the worker's CPU (the poller is the worker), as the tracepoint saw;
    with --locality the latency is split and all of it is local.
    Mutation: kb_loc_complete() counts a task completion as softirq: red."""
    dev = make_nullb("nullb0", size_mb=64, memory_backed=False, poll_queues=1)
    w = 2
    loc, traced = locality_run(guest, dev, w, "--hipri --locality")
    n = loc["completions"]
    assert n >= NR
    assert loc["context"] == {"hardirq": 0, "softirq": 0, "task": n}, loc["context"]
    assert loc["local"] == n and completed_on(loc) == {w: n}, loc
    assert set(traced) == {w}, f"block_rq_complete on CPUs {traced}, worker on {w}"
    split = loc["latency"]["read"]
    assert split["local"]["N"] == NR and split["remote"]["N"] == 0, split


def test_locality_in_the_normal_output(guest: Guest, kiobench_module, make_nullb):
    """The normal report's locality lines: the shares, contexts, the CPU's
    row, the queue, and --locality's side-by-side latency.  Mutation:
    kb_print_locality() returns at once: red."""
    dev = make_nullb("nullb0", size_mb=64, memory_backed=False, poll_queues=1)
    out = guest.check(f"kiobench run --filename={dev} --rw=randread --bs=4k --iodepth=2 "
                      f"--number_ios=500 --cpus_allowed=1 --hipri --locality")
    assert re.search(r"locality: 500 I/Os completed: 100\.00% on the submitting CPU, "
                     r"0\.00% on another sharing its last-level cache.*, 0\.00% elsewhere",
                     out), out
    assert "context: hardirq 0.00%, softirq 0.00%, task 100.00%" in out, out
    assert re.search(r"^\s+1\s+500\s+500\s+500\s+0\s+0\s+500$", out, re.M), out
    assert re.search(r"hardware queues: hq\d+ 500", out), out
    assert re.search(r"^\s+local\s+500 ", out, re.M) and re.search(r"^\s+remote\s+0 ", out, re.M), out
