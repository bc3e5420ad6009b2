"""Every command README.md, the man page's EXAMPLES and Documentation/*.rst
show, run as shown.

The commands are read from the files when the test runs, never copied
here: a command added to any, or changed, is what this test runs next.
README.md gives them in its ``` blocks (a `$ ` prompt, `sudo` and `# `
comments dropped, `\\` continuations joined, `&&` lists split) and in
inline code that runs the tool with arguments (`kiobench suite --list`);
tools/kiobench.1 in the .nf blocks of its EXAMPLES section, where a block
after ".I NAME:" is the file NAME (mix.fio), written to the guest as shown;
the .rst files in their literal blocks, the lines that run the tool.

Each command runs in the guest, in a directory laid out as a checkout
after `make` (kmod/kiobench.ko, tools/kiobench: the guest's module and
tool), with the module loaded, except `insmod`, which finds it unloaded,
as after a fresh boot.  `kiobench plot` runs on the host (the guest has no
python3), on the JSON the guest wrote.  Drives become null_blk devices and
long runs short, by the table SUBST below, each entry saying why; nothing
else is changed.  A command must exit 0 and, where the text around it says
what it does or writes, do that (check() below).  The commands no guest can run
are in NOT_RUN with the reason, and each must still be in the documents.

Unmarked (6.12 only): what the documents show is the tool's behaviour,
the same on every kernel; one guest of the plain shape, null_blk devices.
Mutations: README's first run with `--iodepth=16` typed `--io_depth=16`:
red (exit 1, unknown option); tools/methods.c's sweep_variable() taking
a one-value --bs as the swept variable beside bursts (as before the fix):
red (the man page's burst sweep exits 1); README's sweep with
`--output-format=normal,json --output=qd.json` (as before the fix): red
(qd.json is a table and then a document, no JSON).
"""
from __future__ import annotations

import json
import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
MAN = REPO / "tools" / "kiobench.1"
RSTS = REPO / "Documentation"
TOOL = REPO / "tools" / "kiobench"
CWD = "/tmp/doc"                       # the guest's "checkout"

# The documents' drive, and the null_blk devices that stand for it (the man
# page's job file names /dev/nullb0 and /dev/nullb1 itself).  Not
# memory-backed: the suites' spans cost no guest memory; reads of blocks
# never written are flagged as such, which is the tool telling the truth.
DRIVE = "/dev/nvme0n1"
DRIVE_NULLB = "nullb2"
NULLBS = ("nullb0", "nullb1", DRIVE_NULLB)


@dataclass
class Cmd:
    where: str                          # "README.md:123" or "kiobench.1:3353"
    text: str                           # as documented, normalised
    note: str = ""                      # README: the `# ` comment after it


# ---- what the test changes, and why ----------------------------------------------

# (command regex, regex of what is replaced, replacement, why).  Applied in
# order to every guest command (and to the job files: "file:" entries).
SUBST: list[tuple[str, str, str, str]] = [
    (r"", re.escape(DRIVE), f"/dev/{DRIVE_NULLB}",
     "the guest has no NVMe drive in this shape: a 256 MiB null_blk stands for it"),
    (r"^kiobench run ", r"--runtime=\S+", "--runtime=1",
     "a run of 30 or 60 s shows nothing one second does not"),
    (r"^kiobench run ", r"--ramp_time=\S+", "--ramp_time=200ms",
     "the warm-up of 5 or 10 s: 200 ms is still a warm-up excluded from the results"),
    (r"^kiobench sweep ", r"--runtime=\S+", "--runtime=50ms",
     "a queue-depth sweep of 29 steps of 3 minutes: 50 ms a step"),
    (r"^kiobench sweep ", r"--ramp_time=\S+", "--ramp_time=10ms",
     "a minute of warm-up a step: 10 ms"),
    (r"^kiobench sweep ", r"--burst-size=128m", "--burst-size=1m",
     "bursts of 128 MiB: of 1 MiB, as many (--burst-total shrunk alike)"),
    (r"^kiobench sweep ", r"--burst-total=1g", "--burst-total=8m",
     "1 GiB of bursts: 8 MiB, the same 8 bursts"),
    (r"^(?!.*--quick)kiobench suite [^-\s]", r"$", " --scale=0.001",
     "a suite at full scale runs for hours: at 0.001 of its times and sizes"),
    (r"^kiobench suite ", r"--quick\b", "--scale=0.001",
     "--quick is --scale=0.004: 0.001 keeps a step's 200 ms minimum, costs a quarter"),
    ("file:mix.fio", r"runtime=10s", "runtime=1s",
     "the job file's 10 s: one second"),
]

# Commands no guest runs, exactly as normalised here, with the reason.
# Each must still be in the documents: the list cannot outlive them.
NOT_RUN: dict[str, str] = {
    "make demo": "boots a guest of its own on the host (tests/vm/demo)",
    "make check": "runs this whole test suite on the host",
    "make deb": "builds packages on the host: tests/unit/test_packages.py",
    "make rpm": "builds packages on the host: tests/unit/test_packages.py",
    "apt install ./build/pkg/kiobench*.deb": "installs on the host: tests/unit/test_packages.py",
    "dnf install build/pkg/kiobench*.rpm": "Fedora: no Fedora machine in CI",
    "make": "builds on the host: the guests take the modules tests/build-modules built",
    "apt-get install build-essential pkg-config linux-headers-$(uname -r) libnl-3-dev "
    "libnl-genl-3-dev libjson-c-dev libncurses-dev zlib1g-dev":
        "installs packages on the host: tests/install-deps.sh",
    "dnf install gcc make pkgconf-pkg-config kernel-devel-$(uname -r) elfutils-libelf-devel "
    "libnl3-devel json-c-devel ncurses-devel zlib-devel": "Fedora: no Fedora machine in CI",
    "make install": "installs on the host: tests/unit/test_install.py",
    "make modules_install": "installs on the host: tests/unit/test_install.py",
    "apt-get install dkms": "installs packages on the host: tests/install-deps.sh",
    "make dkms-install": "installs on the host: tests/unit/test_dkms.py",
    "dkms install kiobench/<version>": "DKMS on the host: tests/unit/test_dkms.py",
    'KIOBENCH_TEST_DEVS="/dev/nvme0n1 /dev/sdb" make check-device':
        "a real machine's devices: the device lane runs its tests in a guest",
    "tests/vm/demo --suite=001 --results=001.json":
        "boots a guest of its own on the host; its plot is run below on this test's 001.json",
    "kiobench sweep --allow-writes --filename=/dev/nvme0n1 --rw=randwrite --bs=4k "
    "--iodepth=32 --split-qd=4 --io_size=1920g --streams=0,4 --write_stream_select=worker":
        "an FDP namespace's (null_blk has no write streams): test_write_streams.py's "
        "test_streams_sweep_compares_write_amplification runs it on QEMU 10's, 768 KiB a step",
    "kiobench sweep --rate_iops=LIST":
        "a fragment (LIST, no device): test_completion.py's "
        "test_rate_sweep_draws_latency_against_load sweeps --rate_iops",
}


# ---- reading the documents ---------------------------------------------------------

def _norm(line: str) -> str:
    line = re.sub(r"^\$\s+", "", line.strip())
    line = re.sub(r"\s+#\s.*$", "", line)          # a trailing comment
    line = re.sub(r"^sudo\s+", "", line)
    return " ".join(line.split())


def _parts(line: str) -> list[str]:
    """The commands of one line: an `&&` list split, sudo dropped from each."""
    return [_norm(p) for p in line.split("&&") if _norm(p)]


def readme_commands() -> list[Cmd]:
    lines = README.read_text().splitlines()
    cmds: list[Cmd] = []
    inside, acc, start = False, "", 0
    for n, ln in enumerate(lines, 1):
        if ln.startswith("```"):
            inside = not inside
            continue
        if inside:
            if not acc:
                start = n
            if ln.rstrip().endswith("\\"):
                acc += ln.rstrip()[:-1] + " "
                continue
            full, acc = acc + ln, ""
            if not full.strip() or full.strip().startswith("#"):
                continue
            cmds += [Cmd(f"README.md:{start}", p) for p in _parts(full)]
            note = re.search(r"\s#\s(.*)$", full)
            if note:
                cmds[-1].note = note[1]
        else:
            # inline code that runs the tool with arguments (not a bare
            # `kiobench sweep` naming a command)
            for span in re.findall(r"`([^`]+)`", ln):
                parts = _parts(span)
                if any(re.match(r"(tools/)?kiobench \S+ \S", p) for p in parts):
                    cmds += [Cmd(f"README.md:{n}", p) for p in parts]
    return cmds


def _unroff(s: str) -> str:
    return s.replace("\\-", "-").replace("\\e", "\\").replace("\\(aq", "'")


def man_commands(files: dict[str, str] | None = None) -> list[Cmd]:
    """The EXAMPLES' commands; the files they show go into `files`."""
    lines = MAN.read_text().splitlines()
    i = lines.index(".SH EXAMPLES") + 1
    cmds: list[Cmd] = []
    files = {} if files is None else files
    name = None
    while i < len(lines) and not lines[i].startswith(".SH"):
        m = re.match(r"\.I (\S+):$", lines[i])
        if m:
            name = m.group(1)
        if lines[i] == ".nf":
            j = lines.index(".fi", i)
            body = [_unroff(x) for x in lines[i + 1:j]]
            if name:                                   # a file, shown
                files[name] = "\n".join(body) + "\n"
                name = None
            else:
                acc, start = "", 0
                for k, ln in enumerate(body, i + 2):
                    if not acc:
                        start = k
                    if ln.rstrip().endswith("\\"):
                        acc += ln.rstrip()[:-1] + " "
                        continue
                    full, acc = acc + ln, ""
                    if not full.strip():
                        continue
                    for p in _parts(full):
                        cmds.append(Cmd(f"kiobench.1:{start}", p))
            i = j
        i += 1
    return cmds


def rst_commands() -> list[Cmd]:
    """Documentation/*.rst: the tool's commands in literal blocks (after
    "::"), the blocks' other lines (output, formats) left alone."""
    cmds: list[Cmd] = []
    for rst in sorted(RSTS.glob("*.rst")):
        lines = rst.read_text().splitlines()
        inside, acc, start = False, "", 0
        for n, ln in enumerate(lines, 1):
            if ln.rstrip().endswith("::"):
                inside = True
                continue
            if inside and ln.strip() and not ln[0].isspace():
                inside = False
            if not inside:
                continue
            if not acc and not re.match(r"\s+(\$ |sudo )*(tools/)?kiobench ", ln):
                continue
            if not acc:
                start = n
            if ln.rstrip().endswith("\\"):
                acc += ln.rstrip()[:-1] + " "
                continue
            full, acc = acc + ln, ""
            cmds += [Cmd(f"{rst.name}:{start}", p) for p in _parts(full)]
    return cmds


def documented(files: dict[str, str] | None = None) -> list[Cmd]:
    return readme_commands() + man_commands(files) + rst_commands()


def test_documents_parse():
    """Host-side: the documents give commands, each either run or listed
    in NOT_RUN, and every NOT_RUN entry is still documented."""
    cmds = documented()
    texts = {c.text for c in cmds}
    assert sum(c.text.startswith("kiobench ") for c in cmds) >= 8, texts
    gone = sorted(set(NOT_RUN) - texts)
    assert not gone, f"NOT_RUN lists commands the documents no longer show: {gone}"
    unknown = [f"{c.where}: {c.text}" for c in cmds
               if c.text not in NOT_RUN and kind(c) is None]
    assert not unknown, ("documented commands this test neither runs nor lists in NOT_RUN "
                         f"(with the reason): {unknown}")


def kind(c: Cmd) -> str | None:
    """guest, host, prose (the man page's "(change something)"), or None."""
    t = c.text
    if re.fullmatch(r"\(.*\)", t):
        return "prose"
    if re.match(r"(tools/)?kiobench plot\b", t):
        return "host"
    if re.match(r"(tools/)?kiobench |(insmod|rmmod|modprobe) ", t):
        return "guest"
    return None


def substitute(t: str, key: str | None = None) -> tuple[str, list[str]]:
    """t with SUBST applied (key: "file:NAME" for a job file); and why."""
    why = []
    for pat, old, new, reason in SUBST:
        if (key is not None) != pat.startswith("file:"):
            continue
        if (key == pat) if key else re.search(pat, t):
            t2 = re.sub(old, new, t)
            if t2 != t:
                why.append(reason)
                t = t2
    return t, why


# ---- what the text around each command says ---------------------------------------

def _json(guest, path: str) -> dict:
    return json.loads(guest.check(f"cat {CWD}/{path}"))


def _opt(t: str, name: str) -> str | None:
    m = re.search(rf"--{name}=(\S+)", t)
    return m.group(1) if m else None


def swept(t: str, name: str) -> bool:
    """--name has a list of several values (the sweep's variable)."""
    return bool(re.search(r"[,-]", _opt(t, name) or ""))


def _depths(spec: str) -> list[int]:
    """kiobench's list syntax: 1-16,18,24-64:4."""
    out: list[int] = []
    for item in spec.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+)(?::(\d+))?)?", item)
        assert m, item
        lo, hi, step = int(m[1]), int(m[2] or m[1]), int(m[3] or 1)
        out += range(lo, hi + 1, step)
    return out


def check(guest, t: str, out: str) -> None:
    """What the documents say the command does (t as run, out its output)."""
    fmt = (_opt(t, "output-format") or "normal").split(",")
    dest = _opt(t, "output")
    if t == "kiobench suite --list":
        # README: "the methodologies of five drive reviews (`kiobench suite --list`)"
        suites = re.findall(r"^(\d{3}-\S+)", out, re.M)
        assert len(suites) == 5, out
    if t.startswith("kiobench run ") and fmt == ["json"] and not dest:
        doc = json.loads(out)              # the document on standard output
        if "--group_reporting" in t:       # the workers of a job reported as one
            assert len(doc["jobs"]) == 1, [j["jobname"] for j in doc["jobs"]]
    if t.startswith("kiobench run ") and fmt == ["normal"] and not dest:
        name = _opt(t, "name")
        if name:                       # fio's normal output: "rr: (groupid=..."
            assert re.search(rf"^{re.escape(name)}: \(groupid=", out, re.M), out
    if dest and dest.endswith(".json"):
        # a JSON document, which the text and `kiobench plot` read (a file
        # named .json of a table and then a document is neither)
        doc = _json(guest, dest)
        if t.startswith("kiobench sweep ") and swept(t, "iodepth"):
            st = doc["parts"][0]["steps"]
            assert doc["parts"][0]["variable"] == "iodepth"
            assert [s["x"] for s in st] == _depths(_opt(t, "iodepth")), [s["x"] for s in st]
            n = _opt(t, "split-qd")
            if n:           # the total depth split over up to N workers
                for s in st:
                    c = s["config"]
                    assert c["numjobs"] <= int(n) and c["numjobs"] * c["iodepth"] == s["x"], c
        m = re.match(r"kiobench suite (\S+)", t)
        if m:
            assert doc["suite"].startswith(m[1]), doc["suite"]
        if t.endswith(" mix.fio"):
            # the job file: [global] filename=/dev/nullb0:/dev/nullb1, then
            # [small] rw=randrw rwmixread=70 bssplit=4k/80:64k/20, [large]
            # rw=read bs=1m
            jobs = {j["jobname"]: j for j in doc["jobs"]}
            assert list(jobs) == ["small", "large"], list(jobs)
            for j in jobs.values():
                assert j["kiobench"]["devices"] == ["/dev/nullb0", "/dev/nullb1"], j["kiobench"]
            rd, wr = jobs["small"]["read"], jobs["small"]["write"]
            ios = rd["total_ios"] + wr["total_ios"]
            assert rd["total_ios"] / ios == pytest.approx(0.7, abs=0.05), (rd, wr)
            # the random map cuts a transfer to the blocks no I/O of the
            # pass has taken, as fio's: a pass of a 256 MiB device averages
            # 7.7 KiB (fio's rule simulated), the drawn sizes 16 KiB; 10 s
            # are a few passes (8.2 KiB traced on 6.12)
            mean_bs = (rd["io_bytes"] + wr["io_bytes"]) / ios
            drawn = 0.8 * 4096 + 0.2 * 65536
            assert 0.4 * drawn < mean_bs < 0.9 * drawn, mean_bs
            rd, wr = jobs["large"]["read"], jobs["large"]["write"]
            assert wr["total_ios"] == 0 < rd["total_ios"]
            assert rd["io_bytes"] == rd["total_ios"] << 20, rd
    if t.startswith("kiobench sweep ") and _opt(t, "burst-size") and fmt == ["normal"]:
        # a step a burst: --burst-total / --burst-size of them, each of the
        # sweep's one --bs (MB/s / IOPS: the bytes of an I/O)
        rows = re.findall(r"^(\d+)\s+read\s+(\d+)\s+([\d.]+)\s", out, re.M)
        n = size(_opt(t, "burst-total")) // size(_opt(t, "burst-size"))
        assert [int(r[0]) for r in rows] == list(range(1, n + 1)), out
        bs = size(_opt(t, "bs") or "4k")
        for _, iops, mbs in rows:
            assert float(mbs) * 1e6 / int(iops) == pytest.approx(bs, rel=0.01), (bs, iops, mbs)
    if t.startswith("kiobench sweep ") and swept(t, "iodepth") and fmt == ["normal"]:
        # a row a step, the steps the list's depths
        rows = re.findall(r"^(\d+)\s+read\s", out, re.M)
        assert [int(r) for r in rows] == _depths(_opt(t, "iodepth")), out
    if t.startswith("kiobench precondition ") and fmt == ["normal"]:
        # kiobench.rst: fill writes the span once, then --passes rounds of
        # random writes of the span's size each
        m = re.search(r"preconditioning wrote (\d+) bytes \(span (\d+) on each of 1 device", out)
        assert m, out
        passes = int(_opt(t, "passes") or 1)
        assert int(m[1]) == (1 + passes) * int(m[2]), m[0]
        assert re.search(r"^== fill\b", out, re.M) and re.search(r"^== random\b", out, re.M), out
    if t.startswith("kiobench compare ") and t.endswith("|| echo worse"):
        # exit 4 when a figure is worse (then the shell says "worse"), 0 when none
        worse = re.search(r"^compare: \d+ figure\(s\) significantly worse", out, re.M)
        nothing = re.search(r"^compare: nothing significantly worse", out, re.M)
        assert bool(worse) != bool(nothing), out
        assert (out.rstrip().splitlines()[-1] == "worse") == bool(worse), out


def size(s: str) -> int:
    """128k, 1m, 1g as the tool reads them (powers of 1024)."""
    m = re.fullmatch(r"(\d+)([kmg]?)", s.lower())
    assert m, s
    return int(m[1]) << {"": 0, "k": 10, "m": 20, "g": 30}[m[2]]


def check_plot(t: str, cwd: Path) -> None:
    outdir = cwd / (_opt(t.replace(" -o ", " --o="), "o") or ".")
    pngs = sorted(p.name for p in outdir.glob("*.png"))
    assert pngs, f"{t}: no chart in {outdir}"
    if "001.json" in t:
        # README shows suite-001-randread-qd.png, "4 kB random read against
        # queue depth", as what this draws
        assert any(p.startswith("randread-qd") for p in pngs), pngs


# ---- the guest test ------------------------------------------------------------------

@pytest.mark.budget(90)
def test_documented_commands_run(guest, kiobench_module, make_nullb, tmp_path):
    files: dict[str, str] = {}
    cmds = documented(files)
    for n in NULLBS:
        make_nullb(n, size_mb=256, memory_backed=False)
    tool = guest.check("command -v kiobench").strip()
    guest.check(f"rm -rf {CWD} && mkdir -p {CWD}/kmod {CWD}/tools && "
                f"ln -s {kiobench_module} {CWD}/kmod/kiobench.ko && "
                f"ln -s {tool} {CWD}/tools/kiobench")
    for name, body in files.items():    # the man page's mix.fio
        body, _ = substitute(body, f"file:{name}")
        guest.check(f"cat >{CWD}/{name} <<'EOF'\n{body}EOF")
    failures: list[str] = []
    prev_run: str | None = None
    done: set[tuple[str, str]] = set()
    for c in cmds:
        k = kind(c)
        if c.text in NOT_RUN or k in (None, "prose"):
            continue
        t = c.text
        if " ... " in t:
            # kiobench.1: "kiobench run ... --output=new.json": the options
            # of the run before, --output and the devices as there
            assert prev_run, f"{c.where}: '...' with no run before it"
            base = re.sub(r" --output=\S+", "", prev_run[len("kiobench run "):])
            t = t.replace(" ... ", f" {base} ", 1)
        t, why = substitute(t)
        changed = f" (changed: {'; '.join(why)})" if why else ""
        if (c.where, t) in done:
            continue
        done.add((c.where, t))
        if t.startswith("kiobench run "):
            prev_run = t
        if k == "host":
            cwd = tmp_path / f"host{len(done)}"      # its own: the charts it drew
            cwd.mkdir()
            for f in re.findall(r"(\S+\.json)", t):
                (cwd / f).write_text(guest.check(f"cat {CWD}/{f}"))
            argv = shlex.split(t)
            argv[0] = str(TOOL)
            p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=300)
            if p.returncode:
                failures.append(f"{c.where}: {t} (on the host): exit {p.returncode}{changed}\n"
                                f"{p.stdout}{p.stderr}")
                continue
            try:
                check_plot(t, cwd)
            except AssertionError as e:
                failures.append(f"{c.where}: {t}: {e}")
            continue
        loaded = guest.run("test -d /sys/module/kiobench").ok
        if t.startswith("insmod ") and loaded:
            guest.check("rmmod kiobench")
        elif not t.startswith(("insmod ", "modprobe ", "rmmod ")) and not loaded:
            guest.check("modprobe kiobench")
        if t.startswith("rmmod ") and "any job still running" in c.note:
            # "sudo rmmod kiobench  # stops and frees any job still running":
            # one running, detached from its tool
            guest.check(f"(kiobench run --filename=/dev/{DRIVE_NULLB} --time_based --runtime=60 "
                        "--detach >/dev/null 2>&1 &); for i in $(seq 100); do "
                        "kiobench list | grep -q RUNNING && exit 0; sleep 0.1; done; exit 1")
        # standard output alone is what the checks read (a document there
        # must parse with the notes on standard error beside it)
        r = guest.run(f"cd {CWD} && ( {t} ) 2>/tmp/doc.err", timeout=300)
        err = guest.check("cat /tmp/doc.err")
        if r.rc:
            failures.append(f"{c.where}: {t}: exit {r.rc}{changed}\n{r.out}{err}")
            continue
        if t.startswith("rmmod ") and "any job still running" in c.note:
            # its workers gone with it; the tool that made the job, left
            # without its family, is no part of the claim
            guest.run("kill $(pidof kiobench) 2>/dev/null")
            if guest.run("cat /proc/[0-9]*/comm 2>/dev/null | grep -q '^kiobench[0-9]'").ok:
                failures.append(f"{c.where}: {t}: a job's workers outlived the module")
        try:
            check(guest, t, r.out)
        except (AssertionError, ValueError, KeyError) as e:
            failures.append(f"{c.where}: {t}: {e}{changed}\n{r.out[-3000:]}{err[-1000:]}")
    if not guest.run("test -d /sys/module/kiobench").ok:
        guest.check("modprobe kiobench")
    assert not failures, "\n\n".join(failures)
