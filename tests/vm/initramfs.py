"""Build the guest initramfs of one kernel (an uncompressed newc cpio).

Contents: busybox (applet symlinks), kmod (real modprobe/insmod/rmmod), fio
(static, tests/build-fio), e2fsprogs' mke2fs, mdadm, dmsetup, blktrace,
blkparse, btt, util-linux's blkdiscard and blkzone, dropbear and
dropbearkey (sshd of the guests booted with ssh=True), tmux with the
terminfo entries of its panes and of the console (TERMINFO) and the
C.UTF-8 locale it needs (LOCALES), and
tools/kiobench with every shared library they load,
the harness' static helpers (tests/fuzz/nlfuzz: raw netlink client and
fuzzer, privilege dropper), the block and
virtio modules the tests use (dependencies resolved, decompressed, depmod'ed
for the initramfs tree), kiobench.ko and the harness' own test module
(kiobench_splat.ko) when they exist, and /init (tests/vm/init).

The layout is merged-/usr: /bin, /sbin, /lib, /lib64 are links into /usr.
Kernel modules sit in /lib/modules/<version>/, ours in .../extra/.
The result is cached in build/initramfs/<version>.cpio and rebuilt only
when the fingerprint of its inputs (paths, sizes, mtimes) changes.
"""
from __future__ import annotations

import fcntl
import gzip
import hashlib
import json
import lzma
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .kernels import BUILD, REPO, Kernel

HERE = Path(__file__).resolve().parent
INIT = HERE / "init"
SPLATMOD_SRC = HERE / "splatmod"
TOOL = REPO / "tools" / "kiobench"

# Wanted in every guest; built-in ones (modules.builtin) need no file.
GUEST_MODULES = ("virtio_pci", "virtio_console", "configfs", "null_blk", "nvme",
                 "nvme-core", "dm-mod", "dm-delay", "md-mod", "raid0", "loop", "ext4",
                 "crc32c_generic", "virtio_net", "scsi_debug", "sd_mod")
# Without these the guest cannot talk to the host or build null_blk devices.
ESSENTIAL_MODULES = ("virtio_pci", "virtio_console", "configfs", "null_blk")
# Userspace: always fio (guest_fio()), kmod, mke2fs, mdadm and dmsetup
# (stacked targets), blktrace, blkparse and btt (test_stages.py checks
# --stages against them);
# util-linux's blkdiscard (-z: write zeroes, which busybox's lacks) and
# blkzone (zone reports); dropbear and dropbearkey (Debian's dropbear-bin:
# /init starts sshd only in a guest booted with ssh=True); tmux (test_top.py
# drives `kiobench top`'s curses screen in a tmux pane); tools/kiobench
# when built.
HOST_PROGRAMS = ("/usr/bin/kmod", "/usr/sbin/mke2fs", "/usr/sbin/mdadm",
                 "/usr/sbin/dmsetup", "/usr/sbin/blktrace", "/usr/bin/blkparse",
                 "/usr/bin/btt", "/usr/sbin/blkdiscard", "/usr/sbin/blkzone",
                 "/usr/sbin/dropbear", "/usr/bin/dropbearkey", "/usr/bin/tmux")
# Compiled terminfo entries (Debian's ncurses-base, /lib/terminfo), copied to
# the same path: tmux's panes (Debian's default-terminal is tmux-256color),
# what a user's TERM may name, and the console's.  Without them curses
# programs (kiobench top) and tmux cannot start.
TERMINFO = tuple(f"/lib/terminfo/{n[0]}/{n}" for n in (
    "dumb", "linux", "screen", "screen-256color", "tmux", "tmux-256color", "vt100", "xterm",
    "xterm-256color"))
# glibc's C.UTF-8 locale (Debian's libc-bin): tmux refuses to start without
# a UTF-8 LC_CTYPE ("need UTF-8 locale"), and tries C.UTF-8 by itself.
LOCALES = ("/usr/lib/locale/C.utf8",)
# Further names of those programs.  busybox sh runs its own applets before
# PATH, and its mke2fs makes no ext4: use mkfs.ext4.
PROGRAM_LINKS = {"mkfs.ext4": "mke2fs"}
# Static helpers built from tests/ for every guest: source -> program name.
HELPERS = {REPO / "tests" / "fuzz" / "nlfuzz.c": "nlfuzz",
           HERE / "agent.c": "kiobench-agent",
           HERE / "nvmelog.c": "nvmelog",
           HERE / "cx16probe.c": "cx16probe"}
KMOD_LINKS = ("modprobe", "insmod", "rmmod", "lsmod", "modinfo", "depmod")
MERGED = {"bin": "usr/bin", "sbin": "usr/sbin", "lib": "usr/lib", "lib64": "usr/lib64"}


@dataclass(frozen=True)
class Initramfs:
    path: Path
    kernel: Kernel
    module: str | None    # guest path of kiobench.ko, if included
    tool: str | None      # guest path of the kiobench tool, if included
    splatmod: str | None  # guest path of kiobench_splat.ko, if built
    missing_modules: tuple[str, ...]  # wanted modules the kernel lacks entirely


def _guest_path(host: str) -> str:
    """Host path -> path inside the merged-/usr initramfs (no leading '/')."""
    rel = host.lstrip("/")
    top, _, rest = rel.partition("/")
    return f"{MERGED[top]}/{rest}" if top in MERGED else rel


def shared_libs(program: Path) -> list[str]:
    """Absolute host paths of the libraries and loader `program` needs."""
    res = subprocess.run(["ldd", str(program)], capture_output=True, text=True)
    if "not a dynamic executable" in res.stdout + res.stderr:
        return []
    if res.returncode != 0 or "not found" in res.stdout:
        raise RuntimeError(f"ldd {program} failed:\n{res.stdout}{res.stderr}")
    libs = []
    for line in res.stdout.splitlines():
        m = re.match(r"\s*(?:\S+ => )?(/\S+) \(0x", line)
        if m:
            libs.append(m.group(1))
    return libs


def _ko_name(path: Path) -> str:
    return path.name.split(".ko")[0].replace("-", "_")


class ModuleTree:
    """The modules of one kernel: files by name, built-ins, dependencies."""

    def __init__(self, moddir: Path):
        self.dir = moddir
        self.files = {_ko_name(p): p for p in moddir.glob("kernel/**/*.ko*")}
        builtin = moddir / "modules.builtin"
        names = builtin.read_text().split() if builtin.exists() else []
        self.builtin = {_ko_name(Path(n)) for n in names}

    @staticmethod
    def deps(path: Path) -> tuple[list[str], list[str]]:
        """Hard dependencies and soft (pre/post) dependencies of a .ko file."""
        def field(name: str) -> str:
            return subprocess.run(["modinfo", "-F", name, str(path)], check=True,
                                  capture_output=True, text=True).stdout
        hard = [n for n in field("depends").strip().split(",") if n]
        soft = [w for w in field("softdep").split() if not w.endswith(":")]
        return [n.replace("-", "_") for n in hard], [n.replace("-", "_") for n in soft]

    def closure(self, wanted: list[str], extra: list[Path]) -> tuple[list[Path], list[str]]:
        """Files of `wanted` (names) and `extra` (paths) plus all their
        dependencies; also the wanted or required names that are neither
        files nor built in.  Soft dependencies are taken when they exist."""
        todo = [(n.replace("-", "_"), True) for n in wanted]
        files: dict[str, Path] = {}
        missing = []

        def add(name: str, path: Path) -> None:
            files[name] = path
            hard, soft = self.deps(path)
            todo.extend([(n, True) for n in hard] + [(n, False) for n in soft])

        for path in extra:
            add(_ko_name(path), path)
        while todo:
            name, required = todo.pop()
            if name in files or name in self.builtin:
                continue
            if name in self.files:
                add(name, self.files[name])
            elif required:
                missing.append(name)
        return sorted(files.values()), sorted(set(missing))


def read_module(path: Path) -> bytes:
    """Contents of a (possibly .xz/.zst/.gz compressed) kernel module."""
    if path.suffix == ".xz":
        return lzma.decompress(path.read_bytes())
    if path.suffix == ".gz":
        return gzip.decompress(path.read_bytes())
    if path.suffix == ".zst":
        return subprocess.run(["zstd", "-dcq", str(path)], check=True,
                              capture_output=True).stdout
    return path.read_bytes()


def build_splat_module(kernel: Kernel) -> Path | None:
    """Build tests/vm/splatmod for `kernel`; None when it has no Kbuild tree."""
    if not (kernel.build_dir / "Makefile").exists():
        return None
    out = BUILD / "vm" / kernel.version / "splatmod"
    ko = out / "kiobench_splat.ko"
    sources = list(SPLATMOD_SRC.iterdir())
    # and the kernel it is for: a rebuilt kernel (a new config) refuses a
    # module built against the old one ("invalid module format")
    inputs = sources + [p for p in (kernel.build_dir / ".config",
                                    kernel.build_dir / "Module.symvers") if p.exists()]
    if ko.exists() and all(ko.stat().st_mtime > s.stat().st_mtime for s in inputs):
        return ko
    out.mkdir(parents=True, exist_ok=True)
    for src in sources:
        shutil.copy(src, out / src.name)
    res = subprocess.run(["make", "-C", str(kernel.build_dir), f"M={out}", "modules"],
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"building {ko} failed:\n{res.stdout}{res.stderr}")
    return ko


BUILD_FIO = REPO / "tests" / "build-fio"


def guest_fio() -> Path:
    """The guests' fio: the installed fio's version, built static from
    Debian's source by tests/build-fio (once; then cached).  Debian's own
    binary loads 63 libraries, 84 MB of the initramfs and half a second of
    every fio run under TCG."""
    res = subprocess.run([str(BUILD_FIO)], stdout=subprocess.PIPE, text=True)
    if res.returncode:
        raise RuntimeError(f"{BUILD_FIO} failed (its output is above): the guests need fio")
    return Path(res.stdout.strip())


def build_helpers() -> list[Path]:
    """Build the static helper programs (HELPERS) once for all kernels."""
    out_dir = BUILD / "vm" / "helpers"
    out_dir.mkdir(parents=True, exist_ok=True)
    built = []
    for src, name in HELPERS.items():
        exe = out_dir / name
        # the sources it includes: the uapi header, and the attribute names
        # generated from the spec (tools/nl-names.h)
        deps = [src, REPO / "kmod" / "uapi" / "linux" / "kiobench.h",
                REPO / "tools" / "nl-names.h"]
        if not exe.exists() or exe.stat().st_mtime < max(d.stat().st_mtime for d in deps):
            tmp = f"{exe}.{os.getpid()}.new"  # concurrent builders: the last one wins
            res = subprocess.run(["cc", "-static", "-O2", "-g", "-Wall", "-Wextra", "-Werror",
                                  "-std=gnu11", f"-I{REPO / 'kmod' / 'uapi'}", "-o", tmp,
                                  str(src)], capture_output=True, text=True)
            if res.returncode != 0:
                raise RuntimeError(f"building {exe} failed:\n{res.stdout}{res.stderr}")
            os.replace(tmp, exe)
        built.append(exe)
    return built


class Cpio:
    """Writer of a newc archive (owner root, fixed mtime: reproducible)."""

    def __init__(self, out):
        self.out = out
        self.ino = 0
        self.dirs: set[str] = set()

    def _entry(self, name: str, mode: int, data: bytes = b"", rdev: tuple[int, int] = (0, 0)):
        self.ino += 1
        nameb = name.encode() + b"\0"
        fields = (self.ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(nameb), 0)
        hdr = b"070701" + b"".join(b"%08X" % f for f in fields) + nameb
        self.out.write(hdr + b"\0" * (-len(hdr) % 4))
        self.out.write(data + b"\0" * (-len(data) % 4))

    def dir(self, name: str) -> None:
        if name in self.dirs or name in ("", "."):
            return
        self.dir(os.path.dirname(name))
        self.dirs.add(name)
        self._entry(name, stat.S_IFDIR | 0o755)

    def file(self, name: str, data: bytes, mode: int = 0o644) -> None:
        self.dir(os.path.dirname(name))
        self._entry(name, stat.S_IFREG | mode, data)

    def symlink(self, name: str, target: str) -> None:
        self.dir(os.path.dirname(name))
        self._entry(name, stat.S_IFLNK | 0o777, target.encode())

    def chardev(self, name: str, major: int, minor: int) -> None:
        self.dir(os.path.dirname(name))
        self._entry(name, stat.S_IFCHR | 0o600, rdev=(major, minor))

    def tree(self, root: Path, prefix: str) -> None:
        for path in sorted(root.rglob("*")):
            name = f"{prefix}/{path.relative_to(root)}"
            if path.is_dir():
                self.dir(name)
            else:
                self.file(name, path.read_bytes())

    def close(self) -> None:
        self._entry("TRAILER!!!", 0)


def _fingerprint(paths: list[Path], extra: object) -> str:
    h = hashlib.sha256(json.dumps(extra, sort_keys=True).encode())
    for p in [Path(__file__), INIT, *paths]:
        st = p.stat()
        h.update(f"{p}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def build(kernel: Kernel, out_dir: Path = BUILD / "initramfs", force: bool = False,
          extra_programs: tuple[str, ...] = (), extra_trees: tuple[str, ...] = ()) -> Initramfs:
    """Build (or reuse) the initramfs of `kernel`.  extra_programs: further
    host programs (with their libraries) beyond HOST_PROGRAMS, such as perf
    for bench/fio-compare --profile; extra_trees: host directories copied
    to the same path (the libraries of their shared objects too; not
    TREE_SKIP), such as Python's standard library (FLEET_IMAGE); give
    such an image an out_dir of its own, so that it and the tests' image
    are not rebuilt in turn."""
    out_dir.mkdir(parents=True, exist_ok=True)
    # Concurrent builders (two pytest runs, the demo) take turns.
    with open(out_dir / f"{kernel.version}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build(kernel, out_dir, force, extra_programs, extra_trees)


# The fleet lane's guests: Python for Ansible's modules (Debian's python3
# and its standard library), in an image of their own: 121 MiB against
# the tests' 97 (6.12).
FLEET_IMAGE = {"out_dir": BUILD / "initramfs-fleet", "extra_programs": ("/usr/bin/python3",),
               "extra_trees": (f"/usr/lib/python3.{sys.version_info.minor}",)}
# Directories and files (by name before the first dot) extra_trees leaves
# out: test suites, compiled caches, GUI, installed packages (numpy's
# OpenBLAS alone is 36 MB); and directories config-* (libpython's static
# archives, 25 MB, for building only).
TREE_SKIP = {"test", "__pycache__", "idlelib", "tkinter", "turtledemo", "ensurepip",
             "dist-packages", "site-packages", "_tkinter"}


def tree_files(root: str) -> list[Path]:
    """The files of host directory `root` that extra_trees copies."""
    out = []
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in TREE_SKIP and not d.startswith("config-"))
        out += [Path(dirpath) / f for f in sorted(files) if f.split(".")[0] not in TREE_SKIP]
    return out


def build_with_module(kernel: Kernel, out_dir: Path = BUILD / "initramfs",
                      extra_programs: tuple[str, ...] = ()) -> Initramfs:
    """kiobench.ko for `kernel` first (tests/build-modules: Kbuild rebuilds
    only what changed), then its initramfs, for a guest that must run the
    module of the tree as it is (make demo, the benchmarks).  RuntimeError
    if the module does not build, or it or tools/kiobench is missing."""
    env = dict(os.environ, KIOBENCH_KERNELS=kernel.name)
    if subprocess.run([sys.executable, str(REPO / "tests" / "build-modules")],
                      env=env).returncode:
        raise RuntimeError(f"building kiobench.ko for {kernel.name} failed")
    image = build(kernel, out_dir, extra_programs=extra_programs)
    missing = [str(p) for p, there in ((kernel.kiobench_ko, image.module),
                                       (TOOL, image.tool)) if not there]
    if missing:
        raise RuntimeError(f"{' and '.join(missing)} not built: run 'make' first")
    return image


def _build(kernel: Kernel, out_dir: Path, force: bool,
           extra_programs: tuple[str, ...], extra_trees: tuple[str, ...] = ()) -> Initramfs:
    ver = kernel.version
    modtree = ModuleTree(kernel.modules)
    ours: dict[str, Path] = {}  # our modules, by file name under extra/
    for ko in (kernel.kiobench_ko, kernel.kiobench_ko.with_name("kiobench_kunit.ko")):
        if ko.exists():
            ours[ko.name] = ko
    splat = build_splat_module(kernel)
    if splat:
        ours["kiobench_splat.ko"] = splat
    kmods, missing = modtree.closure(list(GUEST_MODULES), list(ours.values()))
    lacking = [m for m in ESSENTIAL_MODULES if m.replace("-", "_") in missing]
    if lacking:
        raise RuntimeError(f"kernel {kernel.name}: no module or built-in for {lacking}")

    programs = [guest_fio(), *(Path(p) for p in (*HOST_PROGRAMS, *extra_programs))] \
        + ([TOOL] if TOOL.exists() else []) \
        + build_helpers()
    busybox = Path(shutil.which("busybox") or "/bin/busybox")
    trees = [f for root in extra_trees for f in tree_files(root)]
    libs = sorted({lib for prog in [*programs, *(f for f in trees if ".so" in f.name)]
                   for lib in shared_libs(prog)})
    meta = [str(p) for p in (modtree.dir / "modules.builtin", modtree.dir / "modules.builtin.modinfo",
                              modtree.dir / "modules.order") if p.exists()]
    data = [Path(t) for t in TERMINFO if Path(t).exists()] \
        + [f for root in LOCALES for f in tree_files(root)]
    inputs = [*kmods, *programs, busybox, *map(Path, libs), *map(Path, meta),
              *(f for f in trees if f.exists()), *data]

    image = out_dir / f"{ver}.cpio"
    stamp = out_dir / f"{ver}.stamp"
    guest_mod = f"lib/modules/{ver}/extra"
    result = Initramfs(
        path=image, kernel=kernel,
        module=f"/{guest_mod}/kiobench.ko" if "kiobench.ko" in ours else None,
        tool="/usr/bin/kiobench" if TOOL.exists() else None,
        splatmod=f"/{guest_mod}/kiobench_splat.ko" if splat else None,
        missing_modules=tuple(missing))
    fp = _fingerprint(inputs, {"kernel": str(kernel), "ours": sorted(ours), "libs": libs})
    if force or not image.exists() or not stamp.exists() or stamp.read_text() != fp:
        _write(image, modtree, kmods, ours, meta, programs, busybox, libs, ver,
               [*trees, *data])
        stamp.write_text(fp)
    return result


def _write(image: Path, modtree: ModuleTree, kmods: list[Path], ours: dict[str, Path],
           meta: list[str], programs: list[Path], busybox: Path, libs: list[str],
           ver: str, trees: list[Path] = ()) -> None:
    with tempfile.TemporaryDirectory(prefix="kiobench-initramfs-") as tmp:
        stage = Path(tmp) / "lib" / "modules" / ver
        for ko in kmods:
            rel = f"extra/{ko.name}" if ko in ours.values() else \
                str(ko.relative_to(modtree.dir)).split(".ko")[0] + ".ko"
            (stage / rel).parent.mkdir(parents=True, exist_ok=True)
            (stage / rel).write_bytes(read_module(ko))
        for m in meta:
            shutil.copy(m, stage)
        subprocess.run(["depmod", "-b", tmp, ver], check=True)

        # Uncompressed: gunzip under TCG is slow (the debug kernel took
        # 24 s for the 90 MB it was with Debian's fio and its libraries;
        # about 40 MB since), copying it takes a second.
        part = Path(tmp) / "initramfs.cpio"
        with open(part, "wb") as raw:
            cpio = Cpio(raw)
            for d in ("usr/bin", "usr/sbin", "usr/lib", "usr/lib64", "proc", "sys", "dev",
                      "tmp", "run", "root", "mnt", "etc"):
                cpio.dir(d)
            for link, target in MERGED.items():
                cpio.symlink(link, target)
            cpio.chardev("dev/console", 5, 1)
            cpio.symlink("etc/mtab", "/proc/mounts")
            cpio.file("init", INIT.read_bytes(), 0o755)
            cpio.file("usr/bin/busybox", busybox.read_bytes(), 0o755)
            applets = subprocess.run([str(busybox), "--list"], check=True, capture_output=True,
                                     text=True).stdout.split()
            own = {p.name for p in programs}
            for applet in applets:
                if applet not in KMOD_LINKS and applet != "busybox" and applet not in own:
                    cpio.symlink(f"usr/bin/{applet}", "busybox")
            for prog in programs:
                cpio.file(f"usr/bin/{prog.name}", prog.read_bytes(), 0o755)
            for link in KMOD_LINKS:
                cpio.symlink(f"usr/bin/{link}", "kmod")
            for link, target in PROGRAM_LINKS.items():
                cpio.symlink(f"usr/bin/{link}", target)
            for lib in libs:
                cpio.file(_guest_path(lib), Path(lib).read_bytes(), 0o755)
            for f in trees:
                if f.is_symlink():
                    cpio.symlink(_guest_path(str(f)), os.readlink(f))
                elif f.is_file():
                    cpio.file(_guest_path(str(f)), f.read_bytes(),
                              0o755 if os.access(f, os.X_OK) else 0o644)
            cpio.tree(stage, f"usr/lib/modules/{ver}")
            cpio.close()
        shutil.move(part, image.with_suffix(".new"))
        os.replace(image.with_suffix(".new"), image)
