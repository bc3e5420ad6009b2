"""KUnit suite "kiobench" (kmod/kiobench_kunit.c), run in the guest.

The suite runs when kiobench_kunit.ko is loaded; its KTAP is read from
/sys/kernel/debug/kunit/kiobench/results and parsed by the kernel's own
kunit.py (tools/testing/kunit, from the same source tree as the debug
kernel).  One pytest test per KUnit case, so make check reports each.
Kernels without CONFIG_KUNIT (Debian's) cannot load the suite: skipped there.
"""
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("KIOBENCH_CACHE", "/var/cache/kiobench"))
KUNIT_PY = CACHE / "src/linux-source-6.12/tools/testing/kunit/kunit.py"
CASES = re.findall(r"KUNIT_CASE(?:_PARAM)?\((\w+)", (REPO / "kmod/kiobench_kunit.c").read_text())


pytestmark = pytest.mark.debug  # only the debug kernel has CONFIG_KUNIT

_RESULTS: dict[str, dict] = {}  # kernel name -> results of its one run


def run_suite(g, tmp: Path) -> dict:
    g.check("modprobe kiobench && modprobe kiobench_kunit", timeout=600)
    ktap = g.check("cat /sys/kernel/debug/kunit/kiobench/results")
    g.check("rmmod kiobench_kunit && rmmod kiobench")
    (tmp / "results.ktap").write_text(ktap)
    r = subprocess.run(["/usr/bin/python3", str(KUNIT_PY), "parse", f"--json={tmp / 'r.json'}",
                        str(tmp / "results.ktap")], capture_output=True, text=True)
    assert (tmp / "r.json").exists(), f"kunit.py parse failed:\n{r.stdout}\n{r.stderr}"
    doc = json.loads((tmp / "r.json").read_text())
    suite = next(g for g in doc["sub_groups"] if g["name"] == "kiobench")
    cases = {t["name"]: t["status"] for t in suite["test_cases"]}
    for group in suite["sub_groups"]:  # parametrized cases: one entry per parameter
        params = {t["name"]: t["status"] for t in group["test_cases"]}
        bad = {k: v for k, v in params.items() if v != "PASS"}
        cases[group["name"]] = "PASS" if params and not bad else f"FAIL {bad or 'no parameters'}"
    return {"cases": cases, "ktap": ktap, "summary": r.stdout}


@pytest.fixture
def kunit_results(guest, kernel, tmp_path) -> dict:
    """{"cases": {case: status}, "ktap": ..., "summary": ...} of the suite's run on this
    kernel; the first test of the kernel loads the suite (and is the one
    that fails if the kernel splats meanwhile)."""
    if not kernel.has("KUNIT"):
        pytest.skip(f"{kernel.name} has no CONFIG_KUNIT: the suite cannot load")
    if kernel.name not in _RESULTS:
        _RESULTS[kernel.name] = run_suite(guest, tmp_path)
    return _RESULTS[kernel.name]


@pytest.fixture
def suite_results(kernel, request) -> dict:
    """kunit_results once the suite has run on this kernel, without the
    guest: a case's test only reads its status, so it needs none of the
    guest's per-test log marks and scans (a second each under KASAN, for
    every case); the suite's run, its splats and the guest's kmemleak scan
    are checked by the test that ran it (test_all_cases_reported, or the
    first case chosen with -k)."""
    if kernel.name not in _RESULTS:
        return request.getfixturevalue("kunit_results")
    return _RESULTS[kernel.name]


def test_all_cases_reported(kunit_results):
    assert sorted(kunit_results["cases"]) == sorted(CASES), kunit_results["summary"]


@pytest.mark.parametrize("case", CASES)
def test_kunit_case(suite_results, case):
    status = suite_results["cases"].get(case)
    assert status == "PASS", f"{case}: {status}\n{suite_results['ktap']}"
