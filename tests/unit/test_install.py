# SPDX-License-Identifier: GPL-2.0
"""make install, make uninstall, make modules_install and the bash completion.

`make install DESTDIR=... PREFIX=...` must install exactly the tool,
kiobench-plot next to it, the man page and the bash completion, and write
nothing outside DESTDIR: it runs under strace, and every file system write
it made (resolved through each process's working directory and the
directory descriptors) must be under DESTDIR, or be the build's (tools/,
git describe's .git/index.lock).  The installed tool must work
from there (`kiobench plot` finds kiobench-plot next to itself), and `make
uninstall` must remove every file again.

The completion is sourced into bash, COMP_WORDS/COMP_LINE are set as
readline sets them (with '=' and ':' word breaks) and _kiobench is called;
COMPREPLY must offer the commands, a command's options, and option values,
all as `kiobench --help`, `kiobench CMD --help` and `kiobench suite --list`
give them (parsed here independently).

`make modules_install INSTALL_MOD_PATH=... KDIR=<Debian 6.12>` runs on a
copy of the top-level Makefile and kmod/ (so that kmod/ in the checkout is
not rebuilt for another kernel) and must put kiobench.ko, with the given
version, under INSTALL_MOD_PATH/lib/modules/<version>/ and nowhere else.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
sys.path.insert(0, str(TESTS))
from kbunit import debian_612  # noqa: E402

TOOL = REPO / "tools" / "kiobench"
COMPLETION = REPO / "tools" / "kiobench.bash-completion"
PREFIX = "/opt/kiobench-install-test"  # must not exist outside DESTDIR
EXPECTED = {
    "bin/kiobench": 0o755,
    "bin/kiobench-plot": 0o755,
    "share/man/man1/kiobench.1": 0o644,
    "share/bash-completion/completions/kiobench": 0o644,
    "share/bash-completion/completions/kiobench-plot": "-> kiobench",
}
# System calls that create, remove or change a file by path.
WRITES = {"mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "symlink", "symlinkat",
          "link", "linkat", "rename", "renameat", "renameat2", "chmod", "fchmodat",
          "chown", "lchown", "fchownat", "truncate", "utimensat", "mknod", "mknodat",
          "creat"}
OPENS = {"open", "openat", "creat"}


def make(*args, **kw):
    return subprocess.run(["make", "--no-print-directory", *args], capture_output=True,
                          text=True, timeout=300, **kw)


@pytest.fixture(scope="module", autouse=True)
def built_tool():
    r = make("-C", str(REPO), "tool")
    assert r.returncode == 0, r.stdout + r.stderr


def tree(root: Path) -> dict[str, object]:
    """Files and links under root: relative path -> mode or '-> target'."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_symlink():
            out[str(p.relative_to(root))] = "-> " + os.readlink(p)
        elif p.is_file():
            out[str(p.relative_to(root))] = p.stat().st_mode & 0o7777
    return out


# ---- strace: where did make install write? ----------------------------------

SYSCALL = re.compile(r"^(\w+)\((.*)\)\s+=\s+(-?\d+|\?)")
FD_PATH = re.compile(r"^(-?\d+)<(.*)>$")


def split_args(args: str) -> list[str]:
    """strace's argument list, split at top-level commas."""
    out, depth, cur, quoted, esc = [], 0, "", False, False
    for ch in args:
        if quoted:
            cur += ch
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                quoted = False
            continue
        if ch == '"':
            quoted = True
        elif ch in "[{<(":
            depth += 1
        elif ch in "]}>)":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def unquote(s: str) -> str | None:
    if not (s.startswith('"') and s.endswith('"')):
        return None
    return s[1:-1].encode().decode("unicode_escape")


def writes(log_prefix: Path, root_pid: int, cwd: str) -> list[tuple[str, str]]:
    """(syscall, absolute path) of every successful write of root_pid and its
    children, from `strace -ff -y -o log_prefix` (one file per process)."""
    found: list[tuple[str, str]] = []

    def walk(pid: int, cwd: str) -> None:
        f = Path(f"{log_prefix}.{pid}")
        if not f.exists():
            return
        for line in f.read_text(errors="replace").splitlines():
            m = SYSCALL.match(line)
            if not m:
                continue
            name, args, ret = m.group(1), split_args(m.group(2)), m.group(3)
            if ret == "?" or int(ret) < 0:
                continue
            if name in ("clone", "clone3", "fork", "vfork"):
                walk(int(ret), cwd)
                continue
            if name == "chdir":
                cwd = os.path.normpath(os.path.join(cwd, unquote(args[0])))
                continue
            if name == "fchdir":
                cwd = FD_PATH.match(args[0]).group(2)
                continue
            if name in OPENS:
                flags = args[2] if name == "openat" else args[1]
                if name != "creat" and not re.search(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC", flags):
                    continue
            elif name not in WRITES:
                continue
            base = cwd
            paths = []
            for a in args:
                fd = FD_PATH.match(a)
                if fd:
                    base = fd.group(2)
                elif a == "AT_FDCWD":
                    base = cwd
                elif unquote(a) is not None:
                    paths.append(os.path.normpath(os.path.join(base, unquote(a))))
                    base = cwd
            if name in ("symlink", "symlinkat"):
                paths = paths[1:]  # the first is the link's contents
            found.extend((name, p) for p in paths)

    walk(root_pid, cwd)
    return found


def traced_install(destdir: Path, tmp: Path, *args: str) -> tuple[list, str]:
    log = tmp / "strace"
    cmd = ["make", "--no-print-directory", "-C", str(REPO), "install", f"DESTDIR={destdir}",
           *args]
    p = subprocess.Popen(["strace", "-ff", "-qq", "-y", "-o", str(log),
                          "-e", "trace=%file,fchdir,clone,clone3,fork,vfork", *cmd],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         cwd=tmp)
    out, _ = p.communicate(timeout=300)
    assert p.returncode == 0, out
    root = min(int(f.name.rsplit(".", 1)[1]) for f in tmp.glob("strace.*"))
    return writes(log, root, str(tmp)), out


def git_dir() -> str:
    """The checkout's git directory: REPO/.git, or in a git worktree the
    main repository's .git/worktrees/<name>, where git describe's index
    refresh writes."""
    r = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--absolute-git-dir"],
                       capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else str(REPO / ".git")


def outside(ws: list, destdir: Path) -> list:
    """Writes outside DESTDIR, but for those of the build: install needs
    the tool built, and rebuilds it if its sources or the version (git
    describe, which refreshes .git/index) changed since."""
    allowed = (str(destdir) + "/", "/dev/null", str(REPO / ".git") + "/",
               git_dir() + "/", str(REPO / "tools") + "/")
    return [w for w in ws if not w[1].startswith(allowed) and w[1] != str(destdir)]


@pytest.mark.parametrize("prefix", [PREFIX, None], ids=["PREFIX", "default-prefix"])
def test_install_writes_exactly_the_files_and_only_under_destdir(tmp_path, prefix):
    dest = tmp_path / "dest"
    ws, out = traced_install(dest, tmp_path, *([f"PREFIX={prefix}"] if prefix else []))
    assert not Path(PREFIX).exists()
    prefix = prefix or "/usr/local"
    assert not outside(ws, dest), f"make install wrote outside DESTDIR: {outside(ws, dest)}"
    assert ws, "strace saw no writes at all: the tracing is broken"
    root = dest / prefix.lstrip("/")
    assert tree(dest) == {str(Path(prefix.lstrip("/")) / k): v for k, v in EXPECTED.items()}
    # (tools/kiobench may be rebuilt by someone else meanwhile: not compared)
    for rel, src in (("bin/kiobench-plot", REPO / "tools/kiobench-plot"),
                     ("share/man/man1/kiobench.1", REPO / "tools/kiobench.1"),
                     ("share/bash-completion/completions/kiobench", COMPLETION)):
        assert (root / rel).read_bytes() == src.read_bytes(), rel


def test_installed_tool_runs_and_finds_kiobench_plot(tmp_path):
    r = make("-C", str(REPO), "install", f"DESTDIR={tmp_path}", f"PREFIX={PREFIX}")
    assert r.returncode == 0, r.stdout + r.stderr
    bindir = tmp_path / PREFIX.lstrip("/") / "bin"
    env = {k: v for k, v in os.environ.items() if k != "KIOBENCH_PLOT"}
    env["PATH"] = "/usr/bin:/bin"  # not tools/, not bindir
    v = subprocess.run([str(bindir / "kiobench"), "--version"], capture_output=True,
                       text=True, env=env, timeout=30)
    assert v.returncode == 0 and v.stdout.strip(), v.stderr
    plot = subprocess.run([str(bindir / "kiobench"), "plot", "--help"], capture_output=True,
                          text=True, env=env, timeout=60)
    assert plot.returncode == 0 and "kiobench-plot" in plot.stdout, plot.stderr
    man = subprocess.run(["man", "-M", str(tmp_path / PREFIX.lstrip("/") / "share/man"),
                          "-w", "kiobench"], capture_output=True, text=True, timeout=30)
    assert man.returncode == 0 and man.stdout.strip().endswith("man1/kiobench.1"), man.stderr


def test_uninstall_removes_every_file(tmp_path):
    for target in ("install", "uninstall"):
        r = make("-C", str(REPO), target, f"DESTDIR={tmp_path}", f"PREFIX={PREFIX}")
        assert r.returncode == 0, r.stdout + r.stderr
    assert tree(tmp_path) == {}


# ---- bash completion ----------------------------------------------------------

def comp_words(line: str) -> list[str]:
    """COMP_WORDS as bash builds them for `line` (cursor at its end) with
    the default COMP_WORDBREAKS: blanks separate words, and each run of '='
    or ':' is a word of its own."""
    words = []
    for chunk in line.split(" "):
        words.extend(w for w in re.split(r"([=:]+)", chunk) if w)
    if line.endswith(" "):
        words.append("")
    return words


def complete(lines: list[str], prog_dir: Path) -> dict[str, list[str]]:
    """COMPREPLY of _kiobench for each line, in one bash."""
    script = [f"source {shlex.quote(str(COMPLETION))}"]
    for i, line in enumerate(lines):
        words = comp_words(line)
        script += [
            f"COMP_LINE={shlex.quote(line)}; COMP_POINT=${{#COMP_LINE}}",
            "COMP_WORDS=(" + " ".join(shlex.quote(w) for w in words) + ")",
            f"COMP_CWORD={len(words) - 1}; COMPREPLY=()",
            '_kiobench "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" '
            '"${COMP_WORDS[COMP_CWORD-1]}"',
            f'printf "@@{i}\\n"; printf "%s\\n" "${{COMPREPLY[@]}}"',
        ]
    env = dict(os.environ, PATH=f"{prog_dir}:/usr/bin:/bin")
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", "\n".join(script)],
                       capture_output=True, text=True, env=env, timeout=60, cwd=REPO)
    assert r.returncode == 0 and not r.stderr, r.stderr
    out: dict[str, list[str]] = {}
    cur = None
    for ln in r.stdout.splitlines():
        if ln.startswith("@@"):
            cur = lines[int(ln[2:])]
            out[cur] = []
        elif ln:
            out[cur].append(ln)
    return out


def help_commands() -> set[str]:
    text = subprocess.run([str(TOOL), "--help"], capture_output=True, text=True).stdout
    section = text.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    return {ln.split()[0] for ln in section.splitlines()}


def help_options(*cmd: str) -> set[str]:
    """--options of the option column of `kiobench CMD --help`, '=' kept."""
    text = subprocess.run([str(TOOL), *cmd, "--help"], capture_output=True, text=True).stdout
    opts = set()
    for ln in text.splitlines():
        if re.match(r" {1,6}-", ln):
            for w in re.findall(r"--[\w-]+=?", ln.strip().split("  ")[0]):
                opts.add(w)
    return opts


@pytest.fixture(scope="module")
def replies(tmp_path_factory):
    """The installed completion and tool, as a user gets them."""
    dest = tmp_path_factory.mktemp("dest")
    r = make("-C", str(REPO), "install", f"DESTDIR={dest}", f"PREFIX={PREFIX}")
    assert r.returncode == 0, r.stdout + r.stderr
    bindir = dest / PREFIX.lstrip("/") / "bin"
    lines = ["kiobench ", "kiobench s", "kiobench -", "kiobench run --", "kiobench run --i",
             "kiobench sweep --", "kiobench run --rw=rand", "kiobench run --rw=",
             "kiobench sweep --output-format=normal,j", "kiobench suite ",
             "kiobench suite 00", "kiobench features --", "kiobench plot --",
             "kiobench-plot --o", "kiobench run --filename=", "kiobench run --filename=/dev/x:",
             "kiobench bogus --", "kiobench compare tes", "kiobench plot tes",
             "kiobench run tes", "kiobench stop ", "kiobench suite 001-datacenter tes",
             "kiobench run --unified_rw_reporting=", "kiobench run --unit_base="]
    return complete(lines, bindir)


def test_completion_offers_the_commands(replies):
    cmds = help_commands()
    assert {"run", "sweep", "precondition", "suite", "plot", "features", "stop"} <= cmds
    assert set(replies["kiobench "]) == cmds
    assert set(replies["kiobench s"]) == {c for c in cmds if c.startswith("s")}
    assert set(replies["kiobench -"]) == {"-h", "--help", "-V", "--version"}


def test_completion_offers_a_commands_options(replies):
    run = help_options("run")
    assert {"--filename=", "--rw=", "--iodepth=", "--time_based", "--allow-writes"} <= run
    assert set(replies["kiobench run --"]) == run
    assert set(replies["kiobench run --i"]) == {o for o in run if o.startswith("--i")}
    assert set(replies["kiobench features --"]) == {"--help"}
    assert set(replies["kiobench bogus --"]) == {"--help"}


def test_completion_offers_the_report_options_values(replies):
    """fio's value lists of unified_rw_reporting and unit_base (their help's
    first words).  Mutation: unified_rw_reporting's help without its
    "none, mixed or both" head: red."""
    assert replies["kiobench run --unified_rw_reporting="] == ["none", "mixed", "both"]
    assert replies["kiobench run --unit_base="] == ["0", "8", "1"]


def test_completion_adds_runs_job_options_to_sweep(replies):
    """sweep takes run's job options (its help says so), not run's
    command-line-only ones: --keep is refused by sweep."""
    got = set(replies["kiobench sweep --"])
    assert help_options("sweep") <= got
    assert {"--filename=", "--rw=", "--randseed=", "--write_lat_log="} <= got
    assert "--keep" not in got
    refused = subprocess.run([str(TOOL), "sweep", "--keep"], capture_output=True, text=True)
    assert refused.returncode == 1 and "--keep" in refused.stderr


def test_completion_offers_option_values(replies):
    modes = re.search(r"--rw=MODE\s+(\S+)", subprocess.run(
        [str(TOOL), "run", "--help"], capture_output=True, text=True).stdout).group(1)
    assert set(replies["kiobench run --rw="]) == set(modes.split("|"))
    assert set(replies["kiobench run --rw=rand"]) == {m for m in modes.split("|")
                                                     if m.startswith("rand")}
    # readline replaces only the part after '=': the reply keeps "normal,".
    assert replies["kiobench sweep --output-format=normal,j"] == ["normal,json"]
    devs = {f"/dev/{d.name}" for d in Path("/sys/class/block").iterdir()}
    assert set(replies["kiobench run --filename="]) == devs
    assert replies["kiobench run --filename=/dev/x:"] == replies["kiobench run --filename="]


def test_completion_offers_suites_and_plot_options(replies):
    listing = subprocess.run([str(TOOL), "suite", "--list"], capture_output=True,
                             text=True).stdout
    suites = {ln.split()[0] for ln in listing.splitlines() if ln and not ln[0].isspace()}
    assert len(suites) >= 5
    assert set(replies["kiobench suite "]) == suites
    assert set(replies["kiobench suite 00"]) == {s for s in suites if s.startswith("00")}
    assert {"--outdir", "--log", "--format", "--help"} <= set(replies["kiobench plot --"])
    assert replies["kiobench-plot --o"] == ["--outdir"]


def test_completion_offers_files_for_file_arguments(replies):
    """Commands: "run [OPTIONS] [JOBFILE]", "compare BASE NEW",
    "plot RESULTS.json...": files (bash runs from the checkout: tests/);
    "stop ID", "suite NAME [OPTIONS]" after the name: nothing."""
    for line in ("kiobench compare tes", "kiobench plot tes", "kiobench run tes"):
        assert replies[line] == ["tests"], line
    assert replies["kiobench stop "] == []
    assert replies["kiobench suite 001-datacenter tes"] == []


# ---- make modules_install -----------------------------------------------------

def copy_tree(dst: Path) -> None:
    """The top-level Makefile and kmod/'s sources (not its objects)."""
    shutil.copy2(REPO / "Makefile", dst / "Makefile")
    for f in subprocess.run(["git", "-C", str(REPO), "ls-files", "kmod"], capture_output=True,
                            text=True, check=True).stdout.split():
        (dst / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / f, dst / f)


def test_modules_install_puts_the_module_under_install_mod_path(tmp_path, host_modules):
    k = debian_612()
    src, root = tmp_path / "src", tmp_path / "root"
    src.mkdir()
    copy_tree(src)
    system_dep = Path("/lib/modules") / k.version / "modules.dep"
    before = system_dep.stat().st_mtime_ns if system_dep.exists() else None
    r = make("-C", str(src), "modules_install", f"KDIR={k.build_dir}",
             f"INSTALL_MOD_PATH={root}", "KIOBENCH_VERSION=install-test-1")
    assert r.returncode == 0, r.stdout + r.stderr
    # A distribution's headers have no signing key: no sign-file errors.
    assert "sign-file" not in r.stdout + r.stderr and "SSL error" not in r.stdout + r.stderr
    files = tree(root)
    assert len(files) == 1, files
    (rel,) = files
    assert re.fullmatch(rf"lib/modules/{re.escape(k.version)}/\w+/kiobench\.ko(\.xz|\.zst|\.gz)?",
                        rel), rel
    info = subprocess.run(["modinfo", "-F", "version", str(root / rel)], capture_output=True,
                          text=True)
    assert info.stdout.strip() == "install-test-1", info.stderr
    magic = subprocess.run(["modinfo", "-F", "vermagic", str(root / rel)],
                           capture_output=True, text=True).stdout
    assert magic.split()[0] == k.version
    after = system_dep.stat().st_mtime_ns if system_dep.exists() else None
    assert before == after, "depmod ran on the system's modules with INSTALL_MOD_PATH set"
