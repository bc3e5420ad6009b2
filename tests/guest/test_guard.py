"""Harness logic that does not depend on the kernel, on one kernel (the
last of the list): the per-test guard of conftest.py end to end, and the
detection of a hung guest."""
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from vm import kernels
from vm.guest import Guest, GuestHung

HERE = Path(__file__).resolve().parent


@pytest.mark.budget(45)
def test_guard_fails_splats_and_deaths(tmp_path):
    """Runs guard_cases.py in a pytest of its own; checks which of its tests
    failed, why, and that the guest was rebooted after a splat and a panic."""
    kernel = kernels.discover()[-1]
    if not (kernel.build_dir / "Makefile").exists():
        pytest.skip(f"no kbuild tree for {kernel.name} at {kernel.build_dir}")
    report = tmp_path / "report.xml"
    env = dict(os.environ, KIOBENCH_KERNELS=kernel.version, KIOBENCH_REQUIRE_MODULE="0")
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          f"--junitxml={report}", f"--basetemp={tmp_path / 'inner'}",
                          str(HERE / "guard_cases.py")],
                         cwd=HERE.parent, env=env, capture_output=True, text=True, timeout=900)
    outcomes = {}
    for case in ET.parse(report).iter("testcase"):
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        name = case.get("name").split("[")[0]
        outcomes[name] = "passed" if failure is None else failure.get("message", "") + (failure.text or "")
    log = res.stdout + res.stderr
    assert outcomes["test_gets_fresh_guest_after_splat"] == "passed", log
    assert outcomes["test_gets_fresh_guest_after_panic"] == "passed", log
    assert "kiobench_splat: injected warning" in outcomes["test_unexpected_warning"], log
    assert "expected a kernel splat matching 'no such splat'" in \
        outcomes["test_expected_splat_missing"], log
    assert "Kernel panic" in outcomes["test_panic"], log
    assert res.returncode == 1, log


def test_hang_fails_fast(tmp_path):
    with Guest.boot(kernels.discover()[-1], workdir=tmp_path) as g:
        g.grace = 2
        g.freeze()  # as if the kernel locked up
        start = time.monotonic()
        with pytest.raises(GuestHung):
            g.run("true", timeout=1)
        assert time.monotonic() - start < 10
        assert not g.alive
