# SPDX-License-Identifier: GPL-2.0
"""dkms.conf and `make dkms-install`, with Debian 12's dkms, on the host.

`make dkms-install DESTDIR=tmp` must lay out tmp/usr/src/kiobench-<version>
(kmod/'s sources, dkms.conf and the Makefile stamped with the version the
Makefile gives the module: the tree has no .git).  Then dkms itself, with
private --sourcetree, --dkmstree and --installtree (and its signing key) in
the temporary directory and --no-depmod, so that the machine's /usr/src,
/var/lib/dkms and /lib/modules are not touched:

  - `dkms add`, then `dkms build` + `dkms install` for Debian's 6.12 and
    `dkms autoinstall` (what dkms's kernel hooks run when a kernel is
    installed: AUTOINSTALL) for Debian's 6.1, each with
    --kernelsourcedir=<its Kbuild tree>;
  - the installed modules carry the version and the kernel's vermagic, and
    dkms signed them with its key;
  - a kernel outside BUILD_EXCLUSIVE_KERNEL (before 6.1) is skipped with
    dkms's exit code 77, not built;
  - BUILD_EXCLUSIVE_KERNEL, as dkms evaluates it (bash's =~), accepts
    exactly the versions Documentation/kiobench.rst supports.

About 25 seconds (two module builds).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
sys.path.insert(0, str(TESTS))
from vm.kernels import discover  # noqa: E402

DEBIAN = {"6.12": r"6\.12\.\d+\+deb12-amd64", "6.1": r"6\.1\.0-\d+-amd64"}


def version_of_make() -> str:
    r = subprocess.run(["make", "-s", "--no-print-directory", "-C", str(REPO), "--eval",
                        "kb-print-version: ; @echo $(KIOBENCH_VERSION)", "kb-print-version"],
                       capture_output=True, text=True, check=True)
    return r.stdout.strip()


def kernel(series: str):
    ks = [k for k in discover(only="") if re.fullmatch(DEBIAN[series], k.name)]
    if not ks:
        pytest.fail(f"no Debian {series} kernel in kernels.list: run tests/install-deps.sh")
    return ks[-1]


class Dkms:
    def __init__(self, tmp: Path, version: str):
        self.tmp, self.version = tmp, version
        self.src, self.tree, self.lib = tmp / "usr/src", tmp / "dkms", tmp / "lib/modules"
        self.tree.mkdir()
        self.lib.mkdir(parents=True)
        # dkms signs with mok_signing_key/mok_certificate, generating them
        # if missing (by default in /var/lib/dkms): keep them here.
        self.env = dict(os.environ, mok_signing_key=str(tmp / "mok.key"),
                        mok_certificate=str(tmp / "mok.pub"))

    def __call__(self, action: str, *args: str, kdir: Path | None = None):
        cmd = ["dkms", action, "-m", "kiobench", "-v", self.version,
               f"--sourcetree={self.src}", f"--dkmstree={self.tree}",
               f"--installtree={self.lib}", *args]
        env = self.env
        if kdir:
            cmd.append(f"--kernelsourcedir={kdir}")
            # Where the headers are installed dkms finds the kernel's
            # sign-file in /usr/lib/linux-kbuild-*; here they are unpacked
            # into the cache (tests/install-deps.sh): the same program.
            env = dict(env, sign_file=str(kdir / "scripts" / "sign-file"))
        if action in ("install", "autoinstall"):
            cmd.append("--no-depmod")
        if action == "autoinstall":
            cmd[2:6] = []  # every added module with AUTOINSTALL, not one
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)


def system_state() -> dict:
    """What a stray dkms would change on the machine."""
    state = {d: sorted(os.listdir(d)) for d in ("/usr/src", "/var/lib/dkms")
             if os.path.isdir(d)}
    for f in Path("/lib/modules").glob("*/modules.dep"):
        state[str(f)] = f.stat().st_mtime_ns
    return state


@pytest.fixture(scope="module")
def src_tree(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("dkms")
    r = subprocess.run(["make", "--no-print-directory", "-C", str(REPO), "dkms-install",
                        f"DESTDIR={tmp}"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    dirs = list((tmp / "usr/src").iterdir())
    assert len(dirs) == 1 and dirs[0].name.startswith("kiobench-"), dirs
    return tmp, dirs[0], dirs[0].name[len("kiobench-"):]


def conf_value(conf: str, name: str) -> str:
    """A dkms.conf variable as dkms sees it (the file is sourced by bash)."""
    r = subprocess.run(["bash", "-c", f'source "$1"; printf %s "${name}"', "-", conf],
                       capture_output=True, text=True, check=True)
    return r.stdout


def test_dkms_install_stamps_the_version(src_tree):
    tmp, tree, version = src_tree
    assert version == version_of_make()
    git = subprocess.run(["git", "-C", str(REPO), "describe", "--always", "--dirty"],
                         capture_output=True, text=True).stdout.strip()
    if git:
        assert version.removesuffix("-dirty") == git.removesuffix("-dirty")
    assert conf_value(str(tree / "dkms.conf"), "PACKAGE_VERSION") == version
    assert conf_value(str(tree / "dkms.conf"), "PACKAGE_NAME") == "kiobench"
    # Every source kmod/ has in git, and dkms.conf: no objects, no .git.
    tracked = subprocess.run(["git", "-C", str(REPO), "ls-files", "kmod"], capture_output=True,
                             text=True, check=True).stdout.split()
    got = sorted(str(p.relative_to(tree)) for p in tree.rglob("*") if p.is_file())
    assert got == sorted([f.removeprefix("kmod/") for f in tracked] + ["dkms.conf"])
    # A plain `make` in the tree (no git) gets the version too.
    r = subprocess.run(["make", "-s", "-C", str(tree), "--eval",
                        "kb-print-version: ; @echo $(KIOBENCH_VERSION)", "kb-print-version"],
                       capture_output=True, text=True, check=True)
    assert r.stdout.strip() == version


SUPPORTED = ["6.1.0-56-amd64", "6.1", "6.1.0", "6.2.16", "6.4.0-rc1", "6.5.0-44-generic",
             "6.5", "6.6.30", "6.7.1", "6.8.0-45-generic", "6.9.0", "6.10.14-200.fc40.x86_64",
             "6.12.117+deb12-amd64", "6.19.3", "7.2.13+deb14-amd64", "7.3.0-rc7", "8.0.1",
             "10.1.2", "16.1", "6.11~rc1"]
REFUSED = ["6.0.19", "6.0", "6.0-rc1", "5.15.0-105-generic", "5.10.0-28-amd64", "4.19.0",
           "3.10.0-1160.el7.x86_64", "2.6.32", "1.6.1", "0.6.1"]


@pytest.mark.parametrize("ver", SUPPORTED + REFUSED)
def test_build_exclusive_kernel_is_the_supported_versions(src_tree, ver):
    regex = conf_value(str(src_tree[1] / "dkms.conf"), "BUILD_EXCLUSIVE_KERNEL")
    r = subprocess.run(["bash", "-c", '[[ $1 =~ $2 ]]', "-", ver, regex])
    assert (r.returncode == 0) == (ver in SUPPORTED), f"{ver} against {regex}"


def test_build_exclusive_config_holds_for_debian_kernels(src_tree):
    conf = conf_value(str(src_tree[1] / "dkms.conf"), "BUILD_EXCLUSIVE_CONFIG").split()
    assert "CONFIG_ARCH_SUPPORTS_INT128" in conf  # kmod/compat.h's #error
    for series in DEBIAN:
        config = (kernel(series).build_dir / ".config").read_text()
        for c in conf:
            assert re.search(rf"^{c}=[ym]$", config, re.M), (series, c)


def test_dkms_builds_installs_and_autoinstalls_for_debian_kernels(src_tree, host_modules):
    if os.geteuid() != 0:
        pytest.skip("dkms install and autoinstall refuse to run without root "
                    "(make check runs as root)")
    tmp, _, version = src_tree
    before = system_state()
    dkms = Dkms(tmp, version)
    k612, k61 = kernel("6.12"), kernel("6.1")
    for k in (k612, k61):
        (dkms.lib / k.version).mkdir()  # dkms install wants the kernel's directory
    r = dkms("add")
    assert r.returncode == 0, r.stdout + r.stderr

    # Outside BUILD_EXCLUSIVE_KERNEL: skipped (77) before any build.
    for refused in ("5.15.0-105-generic", "6.0.19"):
        r = dkms("build", "-k", refused, kdir=k612.build_dir)
        assert r.returncode == 77, r.stdout + r.stderr
        assert "BUILD_EXCLUSIVE" in r.stderr

    r = dkms("build", "-k", k612.version, kdir=k612.build_dir)
    assert r.returncode == 0, r.stdout + r.stderr
    r = dkms("install", "-k", k612.version, kdir=k612.build_dir)
    assert r.returncode == 0, r.stdout + r.stderr
    # A newly installed kernel: dkms's hook runs autoinstall for it.
    r = dkms("autoinstall", "-k", k61.version, kdir=k61.build_dir)
    assert r.returncode == 0, r.stdout + r.stderr

    status = subprocess.run(["dkms", "status", "-m", "kiobench", f"--dkmstree={dkms.tree}",
                             f"--sourcetree={dkms.src}", f"--installtree={dkms.lib}"],
                            capture_output=True, text=True, env=dkms.env).stdout
    for k in (k612, k61):
        assert re.search(rf"^kiobench/{re.escape(version)}, {re.escape(k.version)}, "
                         r"\S+: installed$", status, re.M), status
        mods = list((dkms.lib / k.version).rglob("kiobench.ko*"))
        assert len(mods) == 1 and mods[0].parent.name == "dkms", mods
        info = {f: subprocess.run(["modinfo", "-F", f, str(mods[0])], capture_output=True,
                                  text=True).stdout.strip()
                for f in ("version", "vermagic", "signer")}
        assert info["version"] == version, info
        assert info["vermagic"].split()[0] == k.version, info
        assert info["signer"] == "DKMS module signing key", info
    assert system_state() == before, "dkms touched the machine's trees"
