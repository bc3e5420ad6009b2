# SPDX-License-Identifier: GPL-2.0
"""kmod/compat.h's block device open on 6.5 to 6.8, compiled, not run.

No 6.5-6.8 kernel tree or image can be had from the package registries
here, so each of the two APIs is compiled against Debian's 6.12 headers with
include/linux/blkdev.h rewritten to it:

  6.5-6.6  blkdev_get_by_path(path, blk_mode_t, holder, hops) and
           blkdev_put(bdev, holder) (v6.5-rc1: 05bdb9965305, 0718afd47f70,
           ae220766d87c)
  6.7      struct bdev_handle, bdev_open_by_path(), bdev_release()
           (v6.7-rc1: e719b4d15674), while blkdev_get_by_path() and
           blkdev_put() are still there: compat.h must take the handle.
           6.8 removed blkdev_get_by_*(): a subset, the same path.

Both lose bdev_file_open_by_*(), file_bdev() and bdev_fput() (6.9).  Each
rewrite must find what it replaces exactly once, so a change of Debian's
header fails here rather than leaving a tree that tests nothing.  The tree is
a copy of symlinks to the headers (srctree's Makefile and the rewritten
header copied, Module.symvers copied with the exports of those kernels added
so that modpost checks the module's imports), under
build/compat-trees/<api>/, kept between runs: Kbuild then rebuilds only
what changed, and anything, a probe's result included (it is in the
compiler's command line), that changed.

kiobench.ko is built W=1 -Werror (as tests/build-modules does) and must
import the open and close of its API and of no other: a probe that picks
the wrong API either fails the build (the other API is not declared) or,
on 6.7, imports blkdev_get_by_path.  What differs from 6.12 beyond
blkdev.h is not rewritten: compat.h's other choices (QUEUE_FLAG_POLL up to
6.10, the namespace token up to 6.12, formatted extack from 6.3,
GENL_MCAST_CAP_SYS_ADMIN where genetlink.h has it, BLK_POLL_NOSLEEP up to
6.3) take on 6.5-6.8 the branch that 6.1 or 6.12 already builds.

About 15 seconds the first time (two module builds), 2 after.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
sys.path.insert(0, str(TESTS))
from vm.kernels import BUILD, pick  # noqa: E402

FILE_API = """\
struct file *bdev_file_open_by_dev(dev_t dev, blk_mode_t mode, void *holder,
\t\tconst struct blk_holder_ops *hops);
struct file *bdev_file_open_by_path(const char *path, blk_mode_t mode,
\t\tvoid *holder, const struct blk_holder_ops *hops);
"""

GET_BY = """\
struct block_device *blkdev_get_by_dev(dev_t dev, blk_mode_t mode, void *holder,
\t\tconst struct blk_holder_ops *hops);
struct block_device *blkdev_get_by_path(const char *path, blk_mode_t mode,
\t\tvoid *holder, const struct blk_holder_ops *hops);
"""

HANDLE = """\
struct bdev_handle {
\tstruct block_device *bdev;
\tvoid *holder;
};

struct bdev_handle *bdev_open_by_dev(dev_t dev, blk_mode_t mode, void *holder,
\t\tconst struct blk_holder_ops *hops);
struct bdev_handle *bdev_open_by_path(const char *path, blk_mode_t mode,
\t\tvoid *holder, const struct blk_holder_ops *hops);
"""

# What the 6.9+ API has outside FILE_API, each replaced by the old API's close.
FILE_BDEV = "struct block_device *file_bdev(struct file *bdev_file);\n"
BDEV_FPUT = "void bdev_fput(struct file *bdev_file);\n"
PUT = "void blkdev_put(struct block_device *bdev, void *holder);\n"
RELEASE = "void bdev_release(struct bdev_handle *handle);\n"

# api: (blkdev.h rewrites, exports added to Module.symvers, what the module
# must import of OPEN_SYMBOLS)
APIS = {
    "6.5-6.6": ([(FILE_API, GET_BY), (FILE_BDEV, ""), (BDEV_FPUT, PUT)],
                ["blkdev_get_by_dev", "blkdev_get_by_path", "blkdev_put"],
                {"blkdev_get_by_path", "blkdev_put"}),
    "6.7-6.8": ([(FILE_API, GET_BY + HANDLE), (FILE_BDEV, ""), (BDEV_FPUT, PUT + RELEASE)],
                ["blkdev_get_by_dev", "blkdev_get_by_path", "blkdev_put", "bdev_open_by_dev",
                 "bdev_open_by_path", "bdev_release"],
                {"bdev_open_by_path", "bdev_release"}),
}
OPEN_SYMBOLS = {"bdev_file_open_by_path", "file_bdev", "bdev_fput", "fput", "blkdev_get_by_path",
                "blkdev_put", "bdev_open_by_path", "bdev_release"}


def base_trees() -> tuple[Path, Path]:
    """Debian's 6.12 headers: (objtree, srctree), the objtree's Makefile
    being Debian's one line that includes the srctree's."""
    try:
        objtree = pick().build_dir.resolve()
    except (LookupError, FileNotFoundError) as e:
        pytest.fail(f"Debian's 6.12 headers are needed: run tests/install-deps.sh ({e})")
    m = re.fullmatch(r"include (/\S+)/Makefile\n?", (objtree / "Makefile").read_text())
    assert m, f"{objtree}/Makefile is not Debian's headers' one-line include"
    return objtree, Path(m.group(1))


def link_farm(src: Path, dst: Path, keep: set[str]) -> None:
    """dst/<name> -> src/<name> for each entry of src not in keep."""
    dst.mkdir(parents=True)
    for e in src.iterdir():
        if e.name not in keep:
            (dst / e.name).symlink_to(e.resolve())


def rewrite(header: str, rewrites: list[tuple[str, str]]) -> str:
    for old, new in rewrites:
        assert header.count(old) == 1, f"blkdev.h of the base headers: {old!r} is not there once"
        header = header.replace(old, new)
    return header


def prepare(api: str) -> Path:
    """The objtree of the headers rewritten to `api`, made once."""
    rewrites, exports, _ = APIS[api]
    objtree, srctree = base_trees()
    header = rewrite((srctree / "include/linux/blkdev.h").read_text(), rewrites)
    top = BUILD / "compat-trees" / api
    stamp = hashlib.sha256(f"{objtree}\n{srctree}\n{header}\n{exports}".encode()).hexdigest()
    if (top / "stamp").exists() and (top / "stamp").read_text() == stamp:
        return top / "obj"
    shutil.rmtree(top, ignore_errors=True)
    src, obj = top / "src", top / "obj"
    # srctree: Kbuild takes it from its Makefile's realpath, so a copy.
    link_farm(srctree, src, {"Makefile", "include"})
    shutil.copy2(srctree / "Makefile", src / "Makefile")
    link_farm(srctree / "include", src / "include", {"linux"})
    link_farm(srctree / "include/linux", src / "include/linux", {"blkdev.h"})
    (src / "include/linux/blkdev.h").write_text(header)
    link_farm(objtree, obj, {"Makefile", "Module.symvers"})
    (obj / "Makefile").write_text(f"include {src}/Makefile\n")
    symvers = (objtree / "Module.symvers").read_text()
    symvers += "".join(f"0x00000000\t{s}\tvmlinux\tEXPORT_SYMBOL\t\n" for s in exports)
    (obj / "Module.symvers").write_text(symvers)
    (top / "stamp").write_text(stamp)
    return obj


def sync(src: Path, dst: Path) -> None:
    """kmod/'s sources to dst, only those that changed (as tests/build-modules)."""
    dst.mkdir(parents=True, exist_ok=True)
    for f in src.rglob("*"):
        if f.is_dir() or f.suffix not in (".c", ".h") and f.name not in ("Kbuild", "Makefile"):
            continue
        out = dst / f.relative_to(src)
        if not out.exists() or out.read_bytes() != f.read_bytes():
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, out)


@pytest.mark.parametrize("api", APIS)
def test_compat_opens_block_devices_with_the_api_of(api):
    obj = prepare(api)
    kmod = BUILD / "compat-trees" / api / "kmod"
    sync(REPO / "kmod", kmod)
    cmd = ["make", "-C", str(obj), f"M={kmod}", "W=1", "KCFLAGS=-Werror",
           f"-j{min(os.cpu_count() or 1, 2)}", "KIOBENCH_VERSION=compat-test", "modules"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    noise = [line for line in r.stderr.splitlines() if line and "Skipping BTF" not in line]
    assert r.returncode == 0 and not noise, (r.stdout + r.stderr)[-6000:]
    nm = subprocess.run(["nm", "--undefined-only", str(kmod / "kiobench.ko")],
                        capture_output=True, text=True, check=True).stdout
    imported = {line.split()[-1] for line in nm.splitlines()} & OPEN_SYMBOLS
    assert imported == APIS[api][2], f"{api}: kiobench.ko imports {sorted(imported)}"
