# SPDX-License-Identifier: GPL-2.0
import pytest

from kbunit import build_tool


@pytest.fixture(scope="session")
def built_tool():
    """tools/kiobench, built once (a no-op when make check's tool step built it)."""
    build_tool()
