"""vm.splat.scan_log on kernel logs.  warn-*, panic-*, hung-task-*,
benign-* and *-debug-* were captured from the harness' guests (Debian 6.1
and 6.12, and the debug kernel, under QEMU, via tests/vm/splatmod and
sysrq); the others follow the formats the kernel prints for RCU stalls,
soft lockups and oopses."""
from pathlib import Path

import pytest

from vm.splat import scan_log

SAMPLES = Path(__file__).parent / "splats"

# sample -> the titles of its splats, by prefix
EXPECTED = {
    "warn-6.1.txt": ["WARNING: CPU: 0 PID: 116 at "],
    "warn-6.12.txt": ["WARNING: CPU: "],
    "panic-sysrq-6.12.txt": ["Kernel panic - not syncing: sysrq triggered crash"],
    "hung-task-6.12.txt": ["INFO: task insmod:162 blocked for more than 1 seconds.",
                           "INFO: task insmod:162 blocked for more than 2 seconds."],
    "benign-sysrq-l-6.1.txt": [],
    "lockdep-circular-debug-6.12.txt": ["WARNING: possible circular locking dependency detected"],
    "kasan-use-after-free-debug-6.12.txt": [
        "BUG: KASAN: slab-use-after-free in kiobench_splat_uaf+0x7f/0xa0 [kiobench_splat]"],
    "ubsan-bounds-debug-6.12.txt": ["UBSAN: array-index-out-of-bounds in "],
    "atomic-sleep-debug-6.12.txt": ["BUG: sleeping function called from invalid context at "],
    "kmemleak-debug-6.12.txt": ["unreferenced object 0xffff8880096c0800 (size 1024):"],
    "rcu-stall-and-soft-lockup.txt": ["rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
                                      "watchdog: BUG: soft lockup - CPU#1 stuck for 26s!"],
    "null-deref-oops-6.12.txt": ["BUG: kernel NULL pointer dereference"],
    "orphan-call-trace.txt": ["Call Trace without a known header"],
}


def test_every_sample_has_expectations():
    assert sorted(EXPECTED) == sorted(p.name for p in SAMPLES.glob("*.txt"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample(name):
    splats = scan_log((SAMPLES / name).read_text())
    titles = [s.title for s in splats]
    assert len(titles) == len(EXPECTED[name]), titles
    for title, want in zip(titles, EXPECTED[name]):
        assert title.startswith(want), (title, want)


def test_warning_keeps_its_message_and_whole_trace():
    (splat,) = scan_log((SAMPLES / "warn-6.12.txt").read_text())
    lines = splat.text.splitlines()
    assert "[ cut here ]" in lines[0]
    assert "kiobench_splat: injected warning" in lines[1]
    assert "---[ end trace" in lines[-1]


def test_oops_lines_continue_the_bug():
    (splat,) = scan_log((SAMPLES / "null-deref-oops-6.12.txt").read_text())
    assert "Oops: Oops: 0000 [#1]" in splat.text


def test_quiet_log_and_markers():
    # Headers count only at the start of a message: the harness' markers
    # (whatever test name they carry) and ordinary messages are no splats.
    log = ("[    1.0] null_blk: module loaded\n"
           "[    2.0] kiobench-mark 3 begin tests/x.py::test_WARNING: BUG: Oops\n"
           "[    2.1] ACPI Warning: harmless firmware table message\n"
           "[    2.2] nvme nvme0: 2/0/0 default/read/poll queues\n")
    assert scan_log(log) == []


def test_trace_after_a_splat_belongs_to_it():
    log = "\n".join(["[ 1.0] WARNING: CPU: 0 PID: 1 at x.c:1 f+0x1/0x2",
                     "[ 1.1] Call Trace:", "[ 1.2]  <TASK>", "[ 1.3]  </TASK>",
                     "[ 1.4] ---[ end trace 0000000000000000 ]---",
                     "[ 2.0] Call Trace:", "[ 2.1]  <TASK>"])
    assert [s.title.split(":")[0] for s in scan_log(log)] == ["WARNING", "Call Trace without a known header"]
