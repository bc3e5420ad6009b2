# SPDX-License-Identifier: GPL-2.0
"""make deb and make rpm: the packages kiobench and kiobench-dkms.

`make -j2 deb rpm PKGDIR=tmp` builds, once for the session's workers,
the two .debs (dpkg-buildpackage: debhelper, dh-dkms) and the two .rpms
(rpmbuild -bb, Debian's rpm, kiobench.spec).  Then:

  - both formats ship the same files, links and modes (directories
    aside): kiobench exactly `make install`'s set with PREFIX=/usr (the
    man page gzipped), kiobench-dkms exactly `make dkms-install`'s tree;
    the .debs also have Debian's copyright and changelog, the .rpm the
    build-id link of the tool, nothing else;
  - every version is the Makefile's: the packages' (PKG_VERSION), the
    tool's --version and the DKMS tree's name and dkms.conf
    (KIOBENCH_VERSION), and the maintainer scripts of both formats call
    dkms add and dkms remove for that tree;
  - lintian reports no error on the .changes, .buildinfo and .debs, and
    no warning but the two explained at EXPLAINED_LINTIAN;
  - as root, `apt-get install ./kiobench*.deb` on this machine: DKMS
    builds, signs and installs kiobench.ko for Debian's 6.12 (whose
    headers tests/install-deps.sh keeps in its cache: this test links
    /lib/modules/<version>/build to them while it runs), `kiobench
    --version` and `man -w kiobench` work; `apt-get purge` leaves none of
    the packages' files, no /usr/src/kiobench-*, no /var/lib/dkms/kiobench,
    no kiobench.ko under /lib/modules.  What the test created (the link,
    depmod's files for a kernel it made the directory of, DKMS's signing
    key if there was none) is removed again, whatever happens.

About 60 seconds on two shared cores: the two builds side by side (the
tool twice) and a module build by DKMS.
"""
from __future__ import annotations

import fcntl
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
sys.path.insert(0, str(TESTS))
from kbunit import debian_612  # noqa: E402
from test_install import EXPECTED  # noqa: E402  make install's files, PREFIX-relative

# The lintian warnings README.md explains: the sources carry no copyright
# notice (SPDX lines only), and kiobench-plot has no page of its own
# (`kiobench plot` is in kiobench.1; make install installs no other).
EXPLAINED_LINTIAN = {"copyright-without-copyright-notice", "no-manual-page"}
DKMS_VAR = Path("/var/lib/dkms")


def make_var(name: str) -> str:
    r = subprocess.run(["make", "-s", "--no-print-directory", "-C", str(REPO), "--eval",
                        f"kb-print: ; @echo $({name})", "kb-print"],
                       capture_output=True, text=True, check=True)
    return r.stdout.strip()


class Packages:
    def __init__(self, out: Path):
        self.out = out
        self.version, self.pkg_version = make_var("KIOBENCH_VERSION"), make_var("PKG_VERSION")

    def one(self, pattern: str) -> Path:
        found = sorted(self.out.glob(pattern))
        assert len(found) == 1, (pattern, [p.name for p in self.out.iterdir()])
        return found[0]

    @property
    def debs(self) -> dict[str, Path]:
        return {"kiobench": self.one("kiobench_*.deb"),
                "kiobench-dkms": self.one("kiobench-dkms_*.deb")}

    @property
    def rpms(self) -> dict[str, Path]:
        return {"kiobench": self.one("kiobench-[0-9]*.rpm"),
                "kiobench-dkms": self.one("kiobench-dkms-[0-9]*.rpm")}


@pytest.fixture(scope="session")
def packages(tmp_path_factory) -> Packages:
    """The packages, built by the first worker that asks; the others wait
    for them (pytest -n: a session fixture runs in each worker)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    out, log = root / "kiobench-packages", root / "kiobench-packages.json"
    with open(root / "kiobench-packages.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not log.exists():
            r = subprocess.run(["make", "--no-print-directory", "-C", str(REPO), "-j2",
                                "deb", "rpm", f"PKGDIR={out}"],
                               capture_output=True, text=True, timeout=600)
            log.write_text(json.dumps({"rc": r.returncode, "out": r.stdout + r.stderr}))
        built = json.loads(log.read_text())
    assert built["rc"] == 0, built["out"][-6000:]
    return Packages(out)


def deb_files(deb: Path) -> dict[str, object]:
    """Path -> mode, or '-> target' for a link, of a .deb's files."""
    data = subprocess.run(["dpkg-deb", "--fsys-tarfile", str(deb)], capture_output=True,
                          check=True).stdout
    out = {}
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for m in tar.getmembers():
            path = "/" + os.path.normpath(m.name)
            if m.issym():
                out[path] = "-> " + m.linkname
            elif m.isfile():
                out[path] = m.mode & 0o7777
    return out


def rpm_files(rpm: Path) -> dict[str, object]:
    r = subprocess.run(["rpm", "-qp", "--qf", "[%{FILEMODES:octal} %{FILENAMES} %{FILELINKTOS}\n]",
                        str(rpm)], capture_output=True, text=True, check=True)
    out = {}
    for line in r.stdout.splitlines():
        mode, path, *link = line.split(" ")
        mode = int(mode, 8)
        if (mode & 0o170000) == 0o120000:
            out[path] = "-> " + link[0]
        elif (mode & 0o170000) == 0o100000:
            out[path] = mode & 0o7777
    return out


def dkms_install_tree(tmp: Path) -> dict[str, object]:
    r = subprocess.run(["make", "--no-print-directory", "-C", str(REPO), "dkms-install",
                        f"DESTDIR={tmp}"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return {"/" + str(p.relative_to(tmp)): p.stat().st_mode & 0o7777
            for p in tmp.rglob("*") if p.is_file()}


def test_debs_and_rpms_ship_the_same_files(packages, tmp_path):
    """Mutation: `%exclude %{_usrsrc}/kiobench-%{kb_version}/dkms.conf` in
    the spec's %files dkms: red (the .rpm lacks it).  Mutation: the man
    page's line gone from debian/kiobench.install: red (dh_missing fails
    the build: make install installed a file no package has)."""
    debs, rpms = packages.debs, packages.rpms
    doc = {f"/usr/share/doc/{name}/{f}" for name in debs for f in ("copyright", "changelog.gz")}
    tool = {"/usr/" + (p + ".gz" if p.startswith("share/man/") else p): mode
            for p, mode in EXPECTED.items()}
    dkms = dkms_install_tree(tmp_path)
    assert any(p.endswith("/dkms.conf") for p in dkms) and len(dkms) > 10, dkms
    want = {"kiobench": tool, "kiobench-dkms": dkms}
    for name in debs:
        deb, rpm = deb_files(debs[name]), rpm_files(rpms[name])
        assert {p for p in deb if p.startswith("/usr/share/doc/")} == \
            {p for p in doc if p.startswith(f"/usr/share/doc/{name}/")}, name
        build_ids = {p for p in rpm if p.startswith("/usr/lib/.build-id/")}
        if name == "kiobench":  # the stripped tool's, as on Fedora
            assert [rpm[p] for p in build_ids] == ["-> ../../../../usr/bin/kiobench"], rpm
        else:
            assert not build_ids, rpm
        deb = {p: m for p, m in deb.items() if p not in doc}
        rpm = {p: m for p, m in rpm.items() if p not in build_ids}
        assert deb == want[name], name
        assert rpm == deb, name


def test_versions_are_the_makefiles(packages, tmp_path):
    """The packages' version is PKG_VERSION, the tool's and the DKMS
    tree's KIOBENCH_VERSION, in both formats; the maintainer scripts add
    and remove that DKMS version.  Mutation: the spec's scriptlets with
    -v %{version} (the package's) instead of %{kb_version}: red."""
    v, pv = packages.version, packages.pkg_version
    assert v and pv and re.fullmatch(r"[0-9][0-9A-Za-z.+~]*", pv), (v, pv)
    for name, deb in packages.debs.items():
        info = subprocess.run(["dpkg-deb", "-f", str(deb), "Package", "Version"],
                              capture_output=True, text=True, check=True).stdout
        assert info.split() == ["Package:", name, "Version:", pv], info
    for name, rpm in packages.rpms.items():
        got = subprocess.run(["rpm", "-qp", "--qf", "%{NAME} %{VERSION}", str(rpm)],
                             capture_output=True, text=True, check=True).stdout
        assert got == f"{name} {pv}", got
    # The tool of each format, unpacked, reports the version.
    debroot, rpmroot = tmp_path / "deb", tmp_path / "rpm"
    subprocess.run(["dpkg-deb", "-x", str(packages.debs["kiobench"]), str(debroot)], check=True)
    rpmroot.mkdir()
    subprocess.run(f"rpm2cpio '{packages.rpms['kiobench']}' | cpio -idm --quiet", shell=True,
                   cwd=rpmroot, check=True)
    for root in (debroot, rpmroot):
        r = subprocess.run([str(root / "usr/bin/kiobench"), "--version"], capture_output=True,
                           text=True)
        assert r.returncode == 0 and r.stdout.split()[:2] == ["kiobench", v], r.stdout + r.stderr
    # The DKMS tree is kiobench-<KIOBENCH_VERSION>, its dkms.conf says so.
    tree = f"/usr/src/kiobench-{v}/dkms.conf"
    assert tree in deb_files(packages.debs["kiobench-dkms"])
    assert tree in rpm_files(packages.rpms["kiobench-dkms"])
    conf = subprocess.run(f"rpm2cpio '{packages.rpms['kiobench-dkms']}' | cpio -i --to-stdout "
                          f"--quiet '.{tree}'", shell=True, capture_output=True, text=True,
                          check=True).stdout
    assert re.search(rf'^PACKAGE_VERSION="{re.escape(v)}"$', conf, re.M), conf
    # Maintainer scripts: Debian's (dh_dkms: common.postinst adds, builds,
    # installs; prerm removes), the spec's (%post, %preun).
    ctl = tmp_path / "ctl"
    subprocess.run(["dpkg-deb", "-e", str(packages.debs["kiobench-dkms"]), str(ctl)], check=True)
    assert re.search(rf"^DKMS_NAME=kiobench$", (ctl / "postinst").read_text(), re.M)
    for script in ("postinst", "prerm"):
        assert re.search(rf"^DKMS_VERSION={re.escape(v)}$", (ctl / script).read_text(), re.M)
    assert "dkms remove -m $DKMS_NAME -v $DKMS_VERSION --all" in (ctl / "prerm").read_text()
    scripts = subprocess.run(["rpm", "-qp", "--scripts", str(packages.rpms["kiobench-dkms"])],
                             capture_output=True, text=True, check=True).stdout
    post, preun = scripts.split("preuninstall scriptlet")
    for action in ("add", "build", "install"):
        assert f"dkms {action} -m kiobench -v {v} " in post, scripts
    assert f"dkms remove -m kiobench -v {v} " in preun and "--all" in preun, scripts
    # The tool's packages have none.
    assert not subprocess.run(["rpm", "-qp", "--scripts", str(packages.rpms["kiobench"])],
                              capture_output=True, text=True).stdout
    tool_ctl = tmp_path / "tool-ctl"
    subprocess.run(["dpkg-deb", "-e", str(packages.debs["kiobench"]), str(tool_ctl)], check=True)
    assert sorted(os.listdir(tool_ctl)) == ["control", "md5sums"]


def test_lintian_reports_no_error(packages):
    """Mutation: python3 dropped from kiobench's Depends in debian/control:
    red (E: python3-script-but-no-python3-dep, kiobench-plot)."""
    changes = packages.one("kiobench_*.changes")
    r = subprocess.run(["lintian", "--fail-on", "error", str(changes)], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    tags = re.findall(r"^([EWIP]): \S+: (\S+)", r.stdout, re.M)
    assert all(kind != "E" for kind, _ in tags), r.stdout
    assert {tag for kind, tag in tags if kind == "W"} <= EXPLAINED_LINTIAN, r.stdout


# ---- installed on this machine ------------------------------------------------

def dpkg_knows(name: str) -> bool:
    r = subprocess.run(["dpkg-query", "-W", "-f=${db:Status-Abbrev}", name],
                       capture_output=True, text=True)
    return r.returncode == 0 and not r.stdout.startswith("un")


def run(*cmd: str, timeout: int = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                          stdin=subprocess.DEVNULL)


def leftovers(files: set[str]) -> list[str]:
    """What of the packages and of DKMS's work on them is on the machine."""
    left = [f for f in files if os.path.lexists(f)]
    left += [str(p) for p in Path("/usr/src").glob("kiobench-*")]
    left += [str(p) for p in Path("/usr/share/doc").glob("kiobench*")]
    left += [str(p) for p in Path("/var/lib/dpkg/info").glob("kiobench*")]
    if (DKMS_VAR / "kiobench").exists():
        left.append(str(DKMS_VAR / "kiobench"))
    if Path("/lib/modules").is_dir():
        left += [str(p) for p in Path("/lib/modules").rglob("kiobench.ko*")]
    left += [name for name in ("kiobench", "kiobench-dkms") if dpkg_knows(name)]
    return left


@pytest.mark.budget(60)
def test_debs_install_build_the_module_and_purge_clean(packages, host_modules):
    """Mutation: override_dh_dkms empty in debian/rules (no maintainer
    scripts): red (dkms status shows nothing).  Mutation: dh_dkms's prerm
    dropped (`rm debian/kiobench-dkms.prerm.debhelper` after dh_dkms):
    red (purge leaves /var/lib/dkms/kiobench and kiobench.ko)."""
    if os.geteuid() != 0:
        pytest.skip("installing packages needs root (make check runs as root)")
    for name in ("kiobench", "kiobench-dkms"):
        if dpkg_knows(name):
            pytest.skip(f"{name} is installed on this machine: not replaced by a test")
    mine = [str(p) for p in Path("/usr/src").glob("kiobench-*")] + \
        [str(p) for p in [DKMS_VAR / "kiobench"] if p.exists()]
    if mine:
        pytest.skip(f"this machine has kiobench's DKMS trees ({mine}): not touched by a test")
    k, v = debian_612(), packages.version
    debs = packages.debs
    files = set()
    for deb in debs.values():
        files |= set(deb_files(deb))

    # Restored in finally: what this test creates, and only that.
    modroot = Path("/lib/modules")
    kdir = modroot / k.version
    had_modroot, had_kdir = modroot.exists(), kdir.exists()
    before = set(os.listdir(kdir)) if had_kdir else set()
    keys = [DKMS_VAR / "mok.key", DKMS_VAR / "mok.pub"]
    had_keys = [f.exists() for f in keys]
    build = kdir / "build"
    made_link = not os.path.lexists(build)
    try:
        if made_link:  # the kernel's headers where dkms looks for them
            kdir.mkdir(parents=True, exist_ok=True)
            build.symlink_to(os.path.realpath(k.build_dir))
        r = run("apt-get", "install", "-y", "--no-install-recommends",
                *[str(d) for d in debs.values()])
        assert r.returncode == 0, r.stdout + r.stderr
        # The postinst (dkms's common.postinst) builds for the running and
        # the newest kernel, or, the running kernel having no
        # /lib/modules (a chroot, a VM's custom kernel: CI), for every
        # kernel there.  Elsewhere 6.12 gets what a kernel installed
        # later gets, dkms's kernel hook.
        if Path("/lib/modules", os.uname().release).exists():
            r2 = run("/etc/kernel/postinst.d/dkms", k.version)
            assert r2.returncode == 0, r2.stdout + r2.stderr
        status = run("dkms", "status", "-m", "kiobench").stdout
        assert re.search(rf"^kiobench/{re.escape(v)}, {re.escape(k.version)}, \S+: installed$",
                         status, re.M), status + r.stdout + r.stderr
        mods = list((kdir / "updates" / "dkms").glob("kiobench.ko*"))
        assert len(mods) == 1, mods
        info = {f: run("modinfo", "-F", f, str(mods[0])).stdout.strip()
                for f in ("version", "vermagic", "signer")}
        assert info["version"] == v and info["vermagic"].split()[0] == k.version, info
        assert info["signer"] == "DKMS module signing key", info  # Secure Boot: its MOK key

        tool = run("/usr/bin/kiobench", "--version")
        assert tool.returncode == 0 and tool.stdout.split()[:2] == ["kiobench", v], tool
        man = run("man", "-aw", "kiobench")
        assert "/usr/share/man/man1/kiobench.1.gz" in man.stdout.split(), man

        r = run("apt-get", "purge", "-y", "kiobench", "kiobench-dkms")
        assert r.returncode == 0, r.stdout + r.stderr
        assert leftovers(files) == []
    finally:
        if any(dpkg_knows(n) for n in ("kiobench", "kiobench-dkms")):
            run("dpkg", "--purge", "kiobench", "kiobench-dkms")
        if (DKMS_VAR / "kiobench").exists():
            run("dkms", "remove", f"kiobench/{v}", "--all")
        shutil.rmtree(DKMS_VAR / "kiobench", ignore_errors=True)
        for tree in Path("/usr/src").glob(f"kiobench-{v}"):
            shutil.rmtree(tree, ignore_errors=True)
        for f, had in zip(keys, had_keys):
            if not had:
                f.unlink(missing_ok=True)
        if made_link:
            build.unlink(missing_ok=True)
        if not had_kdir:
            shutil.rmtree(kdir, ignore_errors=True)
        elif kdir.exists():  # depmod's files, an emptied updates/dkms/
            for name in set(os.listdir(kdir)) - before:
                p = kdir / name
                shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()
        if not had_modroot:
            shutil.rmtree(modroot, ignore_errors=True)
