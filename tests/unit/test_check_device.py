# SPDX-License-Identifier: GPL-2.0
"""make check-device's pieces that can run on the host: what tests/check-device
refuses before touching anything, which tests device mode collects on a
real machine (KIOBENCH_LOCAL=1), and vm.local.Local's commands.  The
tests on a device themselves run in the guest lane `device` of
tests/check (KIOBENCH_TEST_DEVS naming the guest's NVMe namespace)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
sys.path.insert(0, str(TESTS))
from vm.guest import CommandTimeout  # noqa: E402
from vm.local import Local  # noqa: E402

ENV = {k: v for k, v in os.environ.items() if k not in ("KIOBENCH_TEST_DEVS", "KIOBENCH_LOCAL")}


def check_device(devs: str | None) -> subprocess.CompletedProcess:
    env = dict(ENV, **({"KIOBENCH_TEST_DEVS": devs} if devs is not None else {}))
    return subprocess.run([sys.executable, str(TESTS / "check-device")], env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("devs", [None, "", " , "])
def test_no_device_runs_nothing_and_says_why(devs):
    p = check_device(devs)
    assert p.returncode == 0, p.stderr
    assert "KIOBENCH_TEST_DEVS is empty: no device to test, nothing run" in p.stdout
    assert "==>" not in p.stdout  # nothing built, loaded or run


@pytest.mark.skipif(os.geteuid() != 0, reason="refusals after the root check need root")
@pytest.mark.parametrize("devs,why", [
    ("/dev/null", "/dev/null is not a block device"),
    ("/dev/kiobench-no-such-device", "/dev/kiobench-no-such-device: No such file"),
])
def test_bad_device_is_refused(devs, why):
    p = check_device(devs)
    assert p.returncode == 1 and why in p.stderr, p.stderr
    assert "==>" not in p.stdout


def collect(*args: str, devs: str = "/dev/fake0 /dev/fake1") -> list[str]:
    p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p",
                        "no:cacheprovider", "tests/guest", *args], cwd=REPO,
                       env=dict(ENV, KIOBENCH_LOCAL="1", KIOBENCH_TEST_DEVS=devs),
                       capture_output=True, text=True, timeout=120)
    assert p.returncode in (0, 5), p.stdout + p.stderr
    return [line for line in p.stdout.splitlines() if "::" in line]


def device_tests() -> set[str]:
    """The test functions marked device, from the sources."""
    names = set()
    for f in (TESTS / "guest").glob("test_*.py"):
        text = f.read_text()
        for m in re.finditer(r"@pytest\.mark\.device\n(?:@.*\n)*def (test_\w+)", text):
            names.add(f"{f.name}::{m.group(1)}")
    return names


def test_local_mode_collects_device_tests_only_once_per_device():
    ids = collect()
    want = device_tests()
    assert want, "no test is marked device"
    assert {re.sub(r"^tests/guest/|\[.*$", "", i) for i in ids} == want
    for dev in ("fake0", "fake1"):  # every test, once per named device
        assert len([i for i in ids if f"-{dev}" in i]) == len(ids) // 2
    # whatever -m asks for: no other test runs on someone's machine
    assert collect("-m", "not device") == []
    assert collect("-k", "test_nullb_fio_engines or test_panic_fails_fast") == []


def test_local_mode_without_devices_is_a_usage_error():
    p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "tests/guest"],
                       cwd=REPO, env=dict(ENV, KIOBENCH_LOCAL="1"), capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 4 and "KIOBENCH_LOCAL=1 needs KIOBENCH_TEST_DEVS" in p.stderr, \
        p.stdout + p.stderr


def test_local_runs_commands_here():
    m = Local()
    r = m.run("echo out; echo err >&2; exit 3")
    assert (r.rc, r.out) == (3, "out\nerr\n")
    assert m.check("uname -r").strip() == m.kernel.version
    # tools/ first in PATH: `kiobench` is the tool of this tree
    assert m.check("echo $PATH").split(":")[0] == str(REPO / "tools")
    start = time.monotonic()
    with pytest.raises(CommandTimeout):
        m.run("sleep 3917 & sleep 3918", timeout=1)
    assert time.monotonic() - start < 10
    # the whole process group went
    assert "sleep 391" not in m.check("ps -eo args")
