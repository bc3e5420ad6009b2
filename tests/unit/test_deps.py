# SPDX-License-Identifier: GPL-2.0
"""What tests/install-deps.sh installs on the machine, and what README says it installs.

install-deps must install no kernel: bookworm-backports' linux-headers-*
depend on their linux-image-*, so installing the guest kernels' headers
put two kernels into /boot, and the boot loader booted one of them next.
The headers are unpacked into the cache instead.

  - `install-deps.sh --list` is the list it installs.  apt simulates
    installing that list on a machine that has nothing (an empty dpkg
    status), so what is already installed here hides nothing: no
    linux-image-* or linux-modules-* may be among what it would install.
    Mutation: the 6.12 guest kernel's headers package added back to the
    list: red (apt pulls linux-image-6.12.*).
  - README's paragraph on Debian packages names, in backquotes, exactly
    the packages of that list.
    Mutation: a package added to install-deps' list and not to README: red.
"""
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEPS = REPO / "tests" / "install-deps.sh"
KERNEL_PKG = re.compile(r"^Inst (linux-(?:image|modules)-\S+)", re.M)


def deps_list() -> list[str]:
    r = subprocess.run([str(DEPS), "--list"], capture_output=True, text=True, check=True)
    pkgs = r.stdout.split()
    assert len(pkgs) > 20, r.stdout
    return pkgs


def test_install_deps_installs_no_kernel(tmp_path):
    status = tmp_path / "status"
    status.write_text("")
    pkgs = deps_list()
    r = subprocess.run(["apt-get", "install", "-s", "--no-install-recommends",
                        "-o", f"Dir::State::status={status}", *pkgs],
                       capture_output=True, text=True)
    if r.returncode != 0 and "Unable to locate package" in r.stderr:
        pytest.skip(f"apt's lists lack install-deps' packages (run tests/install-deps.sh): "
                    f"{r.stderr.strip()[:200]}")
    assert r.returncode == 0, r.stderr
    installed = set(re.findall(r"^Inst (\S+)", r.stdout, re.M))
    # the simulation really installs the list from nothing
    assert set(pkgs) <= installed, sorted(set(pkgs) - installed)
    assert KERNEL_PKG.findall(r.stdout) == []


def test_readme_names_exactly_install_deps_packages():
    readme = (REPO / "README.md").read_text()
    m = re.search(r"^- \*\*Debian packages\*\*(.*?)^- \*\*", readme, re.M | re.S)
    assert m, "README.md has no '- **Debian packages**' item"
    named = set(re.findall(r"`([a-z0-9][a-z0-9+.-]+)`", m.group(1)))
    # words in backquotes that are not packages: commands and files
    named = {w for w in named if not re.search(r"[./]|^kiobench|^apt-get|^make", w)
             or w == "linux-source-6.12"}
    pkgs = set(deps_list())
    assert not pkgs - named, f"install-deps installs, README does not name: {sorted(pkgs - named)}"
    assert not named - pkgs, f"README names, install-deps does not install: {sorted(named - pkgs)}"
