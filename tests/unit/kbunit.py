# SPDX-License-Identifier: GPL-2.0
"""What the tool's unit tests share: the tool, how it is built and run, fio beside it.

The tests import it by name (pytest puts tests/unit on sys.path); the
session fixture that builds the tool once is in tests/unit/conftest.py.
"""
import fcntl
import functools
import re
import shutil
import sys
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))
from vm.kernels import discover  # noqa: E402
TOOL = REPO / "tools" / "kiobench"
FIO = shutil.which("fio")
needs_fio = pytest.mark.skipif(FIO is None, reason="fio is not installed: nothing to compare with")


@functools.cache
def built_fio() -> Path:
    """fio built static from Debian's source of the installed fio
    (tests/build-fio: once, then cached; a build under way, as a guest's
    first boot starts one beside the unit tests, is waited for).  Its
    source, fio's example job files among it, is in the parent's src/."""
    r = subprocess.run([str(REPO / "tests" / "build-fio")], stdout=subprocess.PIPE, text=True)
    assert r.returncode == 0, "tests/build-fio failed (its output is above)"
    return Path(r.stdout.strip())


def build_tool() -> None:
    """make the tool, one pytest worker at a time.

    Two workers' makes relinking it at once (after the version changed)
    left one exec'ing the file the other's linker had open: ETXTBSY.
    """
    with open(REPO / "tools" / ".unit-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run(["make", "-s", "-C", str(REPO / "tools"), "kiobench"], check=True)


def kb(*args, cwd=None, env=None, timeout=60):
    return subprocess.run([str(TOOL), *args], capture_output=True, text=True, cwd=cwd,
                          timeout=timeout, env=env)


def fio(*args, cwd=None, env=None, timeout=120):
    return subprocess.run([FIO, *args], capture_output=True, text=True, cwd=cwd,
                          timeout=timeout, env=env)


def parsed(stdout: str) -> dict[str, dict[str, str]]:
    """{section: {option: value}} of kiobench --parse-only's output."""
    jobs: dict[str, dict[str, str]] = {}
    cur: dict[str, str] = {}
    for line in stdout.splitlines():
        if line.startswith("["):
            cur = jobs.setdefault(line.strip("[]"), {})
        elif "=" in line:
            k, v = line.split("=", 1)
            cur[k] = v
    return jobs


def debian_612():
    """The newest Debian 6.12 guest kernel of kernels.list."""
    ks = [k for k in discover(only="") if re.fullmatch(r"6\.12\.\d+\+deb12-amd64", k.name)]
    if not ks:
        pytest.fail("no Debian 6.12 kernel in kernels.list: run tests/install-deps.sh")
    return ks[-1]
