"""The guest kernels under test.

A kernel is (name, vmlinuz, modules dir, version).  The list lives in
$KIOBENCH_CACHE/kernels.list (written by tests/install-deps.sh), one kernel a
line, either

    <version>
        a kernel unpacked in the standard layout
        $KIOBENCH_CACHE/kernels/<version>/root/{boot/vmlinuz-<version>,lib/modules/<version>}

or

    <name> <vmlinuz> <modules dir>
        any other kernel (e.g. a self-built debug kernel); the version is the
        basename of the modules dir (as `make modules_install` lays it out).

Blank lines and '#' comments are ignored.  $KIOBENCH_KERNELS (names or
versions, separated by commas or blanks) restricts the list.

The kernels by name, as tests/install-deps.sh and tests/debug-kernel list them:
    6.1.0-N-amd64, 6.12.N+deb12-amd64, 6.12.N+deb12-rt-amd64   Debian's
    debug   the debug kernel, Debian sid's newest stable source (7.2 today)
            built by tests/debug-kernel/build

$KIOBENCH_CACHE/compile-trees.list holds Kbuild trees that are only compiled
against, never booted, one "<name> <tree>" a line (compile_trees()):
    rc      Debian experimental's newest -rc (7.3 today), modules_prepare'd
            by tests/debug-kernel/rc-tree
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("KIOBENCH_CACHE", "/var/cache/kiobench"))
BUILD = Path(os.environ.get("KIOBENCH_BUILD", REPO / "build"))


@dataclass(frozen=True)
class Kernel:
    name: str
    vmlinuz: Path
    modules: Path  # .../lib/modules/<version>
    version: str
    config: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def build_dir(self) -> Path:
        """Kbuild tree for out-of-tree modules.

        The kernel's own: Debian's headers unpacked beside the image by
        install-deps, or a self-built kernel's tree; else the machine's.
        """
        own = self.modules / "build"
        return own if own.exists() else Path("/lib/modules") / self.version / "build"

    @property
    def kiobench_ko(self) -> Path:
        return BUILD / self.version / "kmod" / "kiobench.ko"

    def has(self, option: str) -> bool:
        """CONFIG_<option> is built in or modular."""
        return self.config.get(option) in ("y", "m")

    def builtin(self, option: str) -> bool:
        return self.config.get(option) == "y"


def _read_config(kernel_files: list[Path]) -> dict[str, str]:
    for path in kernel_files:
        if path.is_file():
            return dict(re.findall(r"^CONFIG_(\w+)=(.*)$", path.read_text(), re.M))
    return {}


def make_kernel(name: str, vmlinuz: Path, modules: Path) -> Kernel:
    version = modules.name
    for path, what in ((vmlinuz, "vmlinuz"), (modules, "modules dir")):
        if not path.exists():
            raise FileNotFoundError(f"kernel {name}: {what} {path} does not exist")
    config = _read_config([vmlinuz.parent / f"config-{version}", modules / "build" / ".config",
                           Path("/lib/modules") / version / "build" / ".config"])
    return Kernel(name, vmlinuz, modules, version, config)


def parse_list(text: str, cache: Path = CACHE) -> list[Kernel]:
    kernels = []
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        if len(words) == 1:
            ver = words[0]
            root = cache / "kernels" / ver / "root"
            kernels.append(make_kernel(ver, root / "boot" / f"vmlinuz-{ver}",
                                       root / "lib" / "modules" / ver))
        elif len(words) == 3:
            kernels.append(make_kernel(words[0], Path(words[1]), Path(words[2])))
        elif words:
            raise ValueError(f"kernels.list: cannot parse {line!r}")
    return kernels


def discover(cache: Path = CACHE, only: str | None = None) -> list[Kernel]:
    """Kernels of kernels.list, restricted to `only` (default $KIOBENCH_KERNELS)."""
    listing = cache / "kernels.list"
    if not listing.exists():
        raise FileNotFoundError(f"{listing} is missing: run tests/install-deps.sh")
    kernels = parse_list(listing.read_text(), cache)
    only = os.environ.get("KIOBENCH_KERNELS", "") if only is None else only
    wanted = set(re.split(r"[,\s]+", only.strip())) - {""}
    if wanted:
        unknown = (wanted - {k.name for k in kernels} - {k.version for k in kernels}
                   - {t.name for t in compile_trees(cache, only="")})
        if unknown:
            raise ValueError(f"KIOBENCH_KERNELS: unknown kernel(s) {sorted(unknown)}; "
                             f"known: {[k.name for k in kernels]}")
        kernels = [k for k in kernels if k.name in wanted or k.version in wanted]
    return kernels


def pick(name: str | None = None, cache: Path = CACHE) -> Kernel:
    """The kernel of kernels.list whose name or version is `name`, or by
    default Debian's 6.12 without PREEMPT_RT: the guest of make demo and of
    the benchmarks.  LookupError, naming the kernels listed, if none is."""
    ks = discover(cache, only="")
    for k in ks:
        if name in (k.name, k.version) or (name is None and k.version.startswith("6.12.")
                                          and "-rt-" not in k.version):
            return k
    raise LookupError(f"no kernel {name or '6.12.* (not -rt)'} in {[k.name for k in ks]}")


@dataclass(frozen=True)
class Tree:
    """A Kbuild tree to compile the modules against, with no kernel to boot."""
    name: str
    build_dir: Path

    @property
    def version(self) -> str:
        return (self.build_dir / "include/config/kernel.release").read_text().strip()


def compile_trees(cache: Path = CACHE, only: str | None = None) -> list[Tree]:
    """Trees of compile-trees.list, restricted to `only` (default
    $KIOBENCH_KERNELS; a name there that is no tree's leaves none)."""
    listing = cache / "compile-trees.list"
    trees = []
    for line in listing.read_text().splitlines() if listing.exists() else ():
        words = line.split("#", 1)[0].split()
        if len(words) == 2 and Path(words[1], "Makefile").exists():
            trees.append(Tree(words[0], Path(words[1])))
        elif words:
            raise ValueError(f"compile-trees.list: cannot use {line!r}")
    only = os.environ.get("KIOBENCH_KERNELS", "") if only is None else only
    wanted = set(re.split(r"[,\s]+", only.strip())) - {""}
    return [t for t in trees if not wanted or t.name in wanted]
