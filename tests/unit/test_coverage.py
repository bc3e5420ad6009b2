# SPDX-License-Identifier: GPL-2.0
"""tests/coverage: kmod/'s line coverage from the guests' gcov counts.

A userspace stand-in for kiobench.ko: a .c and a header built with
--coverage in build/<version>/kmod as build-modules lays it out, run twice
with GCOV_PREFIX so that each run leaves its .gcda under a guest directory
of its own at the build's absolute path, as Guest.collect_gcov copies the
guest's /sys/kernel/debug/gcov."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

HEADER = """static inline int twice(int x)
{
\treturn 2 * x;
}
"""
SOURCE = """#include "mod.h"
#include <stdlib.h>

int main(int argc, char **argv)
{
\tint v = atoi(argv[1]);

\tif (v == 1)
\t\tv = twice(v);
\tif (v == 5)
\t\tv = 7;
\tif (v == 9)
\t\tv = 3;
\treturn v == 1000;
}
"""
KUNIT = "int kunit_only(int x)\n{\n\treturn x + 1;\n}\n"


def _guest_run(prog: Path, arg: str, guest: Path) -> None:
    subprocess.run([str(prog), arg], check=True,
                   env={"GCOV_PREFIX": str(guest), "GCOV_PREFIX_STRIP": "0"})


def _layout(tmp: Path) -> tuple[Path, Path]:
    build = tmp / "build"
    kmod = build / "7.2.0-kiobench-debug" / "kmod"
    kmod.mkdir(parents=True)
    (kmod / "mod.h").write_text(HEADER)
    (kmod / "main.c").write_text(SOURCE)
    (kmod / "kiobench_kunit.c").write_text(KUNIT)
    for c in ("main", "kiobench_kunit"):
        subprocess.run(["gcc", "-O0", "--coverage", "-c", f"{c}.c", "-o", f"{c}.o"],
                       cwd=kmod, check=True)
    subprocess.run(["gcc", "--coverage", "main.o", "kiobench_kunit.o", "-o", "prog"],
                   cwd=kmod, check=True)
    return build, kmod / "prog"


def _coverage(build: Path, *dirs: Path) -> str:
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "coverage"), "--build", str(build),
                        *map(str, dirs)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _row(out: str, name: str) -> tuple[int, int]:
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == name:
            return int(f[1]), int(f[2])
    raise AssertionError(f"no row {name} in:\n{out}")


def test_a_line_is_run_when_any_guest_ran_it(tmp_path):
    """Guest 1 takes the first branch (and the header's inline), guest 2 the
    second; nobody the third.  main.c's run lines are the union of the two
    runs' (every line but `v = 3`), the header's its two lines with code,
    and the KUnit file is left out.  Mutation: merging with `and` instead
    of `or` (a line run by one guest only counts as unrun): red."""
    build, prog = _layout(tmp_path)
    gdir = tmp_path / "gcov"
    _guest_run(prog, "1", gdir / "debug-1")
    _guest_run(prog, "5", gdir / "debug-2")
    out = _coverage(build, gdir)
    lines, run = _row(out, "main.c")
    # gcc -O0's lines with code: the function's entry, the atoi, three ifs,
    # three assignments and the return
    assert (lines, run) == (9, 8), out
    assert _row(out, "mod.h") == (2, 2), out
    assert "kiobench_kunit.c" not in out
    assert "): met: 90.9 % of all lines" in out, out


def test_one_guest_alone_counts_its_own_lines(tmp_path):
    """The same counts from guest 1 alone: the second branch's assignment
    is not run.  Mutation: a .gcda read from another guest's directory
    (the sets merged before the guests are told apart): red."""
    build, prog = _layout(tmp_path)
    gdir = tmp_path / "gcov"
    _guest_run(prog, "1", gdir / "debug-1")
    _guest_run(prog, "5", tmp_path / "other" / "debug-2")
    out = _coverage(build, gdir)
    assert _row(out, "main.c") == (9, 7), out


def test_no_counts_is_said(tmp_path):
    (tmp_path / "gcov").mkdir()
    out = _coverage(tmp_path / "build", tmp_path / "gcov")
    assert "no gcov counts" in out
