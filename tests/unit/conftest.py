# SPDX-License-Identifier: GPL-2.0
"""Fixtures of the host-side unit tests."""
from __future__ import annotations

import fcntl
import tempfile
from pathlib import Path

import pytest

from kbunit import build_tool

HOST_MODULES_LOCK = Path(tempfile.gettempdir()) / "kiobench-unit-host-modules.lock"


@pytest.fixture(scope="session")
def built_tool():
    """tools/kiobench, built once (a no-op when make check's tool step built it)."""
    build_tool()


@pytest.fixture
def host_modules():
    """One test at a time among those that run dkms or depmod on the
    machine's own /usr/src, /var/lib/dkms and /lib/modules
    (test_packages.py installs the packages) or check that nothing changed
    them (test_dkms.py, test_install.py): `make unit` runs the tests two at
    a time (pytest -n)."""
    with open(HOST_MODULES_LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
