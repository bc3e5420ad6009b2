# SPDX-License-Identifier: GPL-2.0
"""Command-line error handling of tools/kiobench (no kernel module needed).

Bad options and job files must exit 1 with a one-line reason on stderr that
names the option or file:line; writes without --allow-writes must be refused
before any netlink socket is opened.
"""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "kiobench"
MODULE_LOADED = Path("/sys/module/kiobench").exists()


@pytest.fixture(scope="session", autouse=True)
def build_tool():
    subprocess.run(["make", "-s", "-C", str(REPO / "tools"), "kiobench"],
                   check=True)


def run(*args, cwd=None, tool=TOOL, prefix=()):
    return subprocess.run([*prefix, str(tool), *args], capture_output=True,
                          text=True, cwd=cwd, timeout=60)


def assert_usage_error(p, expect):
    assert p.returncode == 1, (p.returncode, p.stderr)
    first = p.stderr.splitlines()[0] if p.stderr else ""
    assert first.startswith("kiobench: "), p.stderr
    assert expect in first, p.stderr
    assert p.stdout == ""


DEV = "--filename=/dev/null"

BAD_OPTIONS = [
    (["--bs=x4k", DEV], "kiobench: --bs: invalid size 'x4k'"),
    (["--bs=4k,8k", DEV], "--bs: per-direction"),
    (["--bs=1000", DEV], "--bs: invalid block size '1000' (must be a multiple of 512)"),
    (["--bs=0", DEV], "--bs: invalid block size '0'"),
    (["--bs", DEV], "--bs: invalid size '--filename=/dev/null'"),
    (["--bs"], "--bs: missing value"),
    (["--size=12q", DEV], "--size: invalid size '12q'"),
    (["--size=0", DEV], "--size: invalid size '0' (must not be zero)"),
    (["--size=99999999999999999999", DEV], "--size: invalid size"),
    (["--size=16777216t", DEV], "too large"),
    (["--offset=-1", DEV], "--offset: invalid size '-1'"),
    (["--io_size=1.5g", DEV], "--io_size: invalid size '1.5g'"),
    (["--runtime=10x", DEV], "--runtime: invalid time '10x'"),
    (["--runtime=0", DEV], "--runtime: invalid time '0' (must not be zero)"),
    (["--ramp_time=abc", DEV], "--ramp_time: invalid time 'abc'"),
    (["--interval=0", DEV], "--interval: invalid time '0'"),
    (["--iodepth=0", DEV], "--iodepth: invalid value '0' (must be at least 1)"),
    (["--iodepth=4k", DEV], "--iodepth: invalid number '4k'"),
    (["--numjobs=-2", DEV], "--numjobs: invalid number '-2'"),
    (["--number_ios=0", DEV], "--number_ios: invalid value '0'"),
    (["--randseed=x", DEV], "--randseed: invalid number 'x'"),
    (["--rw=trim", DEV], "--rw: invalid rw 'trim'"),
    (["--rwmixread=101", DEV], "--rwmixread: invalid value '101' (must be 0..100)"),
    (["--rwmixwrite=x", DEV], "--rwmixwrite: invalid number 'x'"),
    (["--bssplit=4k/50:8k/40", DEV], "--bssplit: percentages add up to 90, not 100"),
    (["--bssplit=4k/70:8k/70", DEV], "--bssplit: percentages add up to 140"),
    (["--bssplit=4k/x", DEV], "--bssplit: invalid percentage 'x'"),
    (["--bssplit=x4k/100", DEV], "--bssplit: invalid size 'x4k'"),
    (["--cpus_allowed=3-1", DEV], "--cpus_allowed: invalid CPU list '3-1'"),
    (["--cpus_allowed=0,0", DEV], "--cpus_allowed: invalid CPU list '0,0' (CPU 0 listed twice)"),
    (["--percentile_list=0:50", DEV], "--percentile_list: invalid percentile '0'"),
    (["--percentile_list=50:101", DEV], "--percentile_list: invalid percentile '101'"),
    (["--percentile_list=50,99", DEV], "--percentile_list: invalid percentile list"),
    (["--output-format=xml", DEV], "--output-format: invalid output format 'xml'"),
    (["--output-format=json,", DEV], "--output-format: invalid output format ''"),
    (["--name=" + "x" * 40, DEV], "--name: invalid name"),
    (["--filename=/dev/a::/dev/b"], "--filename: invalid filename '/dev/a::/dev/b'"),
    (["--time_based=maybe", DEV], "--time_based: invalid boolean 'maybe'"),
    (["--keep=2", DEV], "--keep: invalid boolean '2'"),
    (["--foo=1", DEV], "run: unknown option '--foo'"),
    (["-x", DEV], "run: unknown option '-x'"),
    (["--time_based", DEV], "time_based needs runtime"),
    ([], "no device given (--filename=DEV)"),
    ([DEV, "a.fio", "b.fio"], "run: unexpected argument 'b.fio'"),
]


@pytest.mark.parametrize("args,expect", BAD_OPTIONS,
                         ids=[" ".join(a) or "none" for a, _ in BAD_OPTIONS])
def test_bad_run_option(args, expect):
    assert_usage_error(run("run", *args), expect)


@pytest.mark.parametrize("args,expect", [
    ([], "missing command"),
    (["frobnicate"], "unknown command 'frobnicate'"),
    (["--bs=4k"], "unknown option '--bs=4k' before the command"),
    (["stop"], "stop: missing job ID"),
    (["stop", "x"], "stop: invalid job ID 'x'"),
    (["stop", "4294967296"], "stop: invalid job ID '4294967296'"),
    (["stop", "1", "2"], "stop: too many arguments"),
    (["destroy"], "destroy: missing job ID"),
    (["destroy", "-1"], "destroy: unknown option '-1'"),
    (["features", "extra"], "features: unexpected argument 'extra'"),
    (["list", "--all"], "list: unknown option '--all'"),
])
def test_bad_command_line(args, expect):
    p = run(*args)
    assert p.returncode == 1, p.stderr
    assert p.stderr.splitlines()[0].startswith("kiobench: " + expect), p.stderr


@pytest.mark.parametrize("args", [
    ["--help"], ["-h"], ["run", "--help"], ["features", "--help"],
    ["list", "--help"], ["stop", "--help"], ["destroy", "--help"],
])
def test_help(args):
    p = run(*args)
    assert p.returncode == 0
    assert p.stdout.startswith("Usage: kiobench")
    assert p.stderr == ""


def test_run_help_lists_every_option():
    out = run("run", "--help").stdout
    for name in ["name", "filename", "rw", "rwmixread", "rwmixwrite", "bs",
                 "bssplit", "iodepth", "numjobs", "cpus_allowed", "size",
                 "offset", "io_size", "number_ios", "runtime", "time_based",
                 "ramp_time", "randseed", "percentile_list", "output-format",
                 "output", "allow-writes", "continue_on_error", "interval",
                 "keep"]:
        assert "--" + name in out, name


def test_version():
    p = run("--version")
    assert p.returncode == 0
    assert p.stdout.startswith("kiobench ")


# ---- job files -------------------------------------------------------------------

BAD_JOBFILES = [
    ("[global]\nfilename=/dev/null\n\n; comment\n[a]\nrw=read\nfoo=1\n",
     "kiobench: job.fio:7: unknown option 'foo'"),
    ("[global]\nbs=x4k\n[a]\n", "kiobench: job.fio:2: bs: invalid size 'x4k'"),
    ("[a]\nfilename=/dev/null\n# c\niodepth=0\n",
     "kiobench: job.fio:4: iodepth: invalid value '0' (must be at least 1)"),
    ("[a]\nfilename=/dev/null\nbssplit=4k/50:8k/20\n",
     "kiobench: job.fio:3: bssplit: percentages add up to 70, not 100"),
    ("[a]\nruntime=1y\n", "kiobench: job.fio:2: runtime: invalid time '1y'"),
    ("bs=4k\n[a]\n", "kiobench: job.fio:1: option 'bs' outside of a section"),
    ("[a\n", "kiobench: job.fio:1: malformed section header"),
    ("[global]\nfilename=/dev/null\n", "kiobench: job.fio: no job section"),
    ("[a]\nallow-writes\n",
     "kiobench: job.fio:2: option 'allow-writes' is only valid on the command line"),
    ("[a]\noutput=x.json\n",
     "kiobench: job.fio:2: option 'output' is only valid on the command line"),
    ("[a]\nbs\n", "kiobench: job.fio:2: bs: missing value"),
    ("[a]\nfilename=/dev/null\n[b]\nrw=read\n",
     "kiobench: job.fio: job 'b': no device given"),
    ("[a]\nfilename=/dev/null\ntime_based\n",
     "kiobench: job.fio: job 'a': time_based needs runtime"),
    ("[ok]\n[" + "n" * 40 + "]\n", "kiobench: job.fio:2: name: invalid name"),
]


@pytest.mark.parametrize("text,expect", BAD_JOBFILES,
                         ids=[e.split(": ", 1)[1] for _, e in BAD_JOBFILES])
def test_bad_jobfile(tmp_path, text, expect):
    (tmp_path / "job.fio").write_text(text)
    assert_usage_error(run("run", "job.fio", cwd=tmp_path), expect)


def test_missing_jobfile(tmp_path):
    assert_usage_error(run("run", "nonexistent.fio", cwd=tmp_path),
                       "kiobench: nonexistent.fio: No such file or directory")


def test_command_line_value_checked_before_jobfile(tmp_path):
    (tmp_path / "job.fio").write_text("[a]\nfoo=1\n")
    assert_usage_error(run("run", "--bs=x4k", "job.fio", cwd=tmp_path),
                       "kiobench: --bs: invalid size 'x4k'")


# ---- writes need --allow-writes, refused before any netlink use -------------------

WRITES = [
    ["--rw=write"], ["--rw=randwrite"], ["--rw=rw"], ["--rw=readwrite"],
    ["--rw=randrw"], ["--rw=randrw", "--rwmixread=99"],
    ["--rw=randrw", "--rwmixwrite=1"],
]


def strace_works():
    if not shutil.which("strace"):
        return False
    p = subprocess.run(["strace", "-f", "-o", os.devnull, "true"],
                       capture_output=True)
    return p.returncode == 0


@pytest.mark.parametrize("args", WRITES, ids=[" ".join(a) for a in WRITES])
def test_write_refused_without_allow_writes(args):
    p = run("run", DEV, *args)
    assert_usage_error(p, "--allow-writes")
    assert "module not loaded" not in p.stderr


def test_write_refused_in_jobfile(tmp_path):
    (tmp_path / "job.fio").write_text(
        "[global]\nfilename=/dev/null\n[reader]\nrw=randread\n"
        "[writer]\nrw=randwrite\n")
    assert_usage_error(run("run", "job.fio", cwd=tmp_path),
                       "kiobench: job.fio: job 'writer': rw=randwrite writes to "
                       "/dev/null: refusing without --allow-writes")


@pytest.mark.skipif(not strace_works(), reason="strace not usable here")
def test_write_refused_before_netlink(tmp_path):
    trace = tmp_path / "trace"
    p = run("run", DEV, "--rw=randwrite", prefix=(
        "strace", "-f", "-e", "trace=socket", "-o", str(trace)))
    assert_usage_error(p, "--allow-writes")
    assert "AF_NETLINK" not in trace.read_text()
    # and the same tracing sees the socket when a read job goes on
    p = run("run", DEV, "--rw=randread", prefix=(
        "strace", "-f", "-e", "trace=socket", "-o", str(trace)))
    assert "AF_NETLINK" in trace.read_text()


@pytest.mark.skipif(MODULE_LOADED, reason="kiobench module is loaded")
@pytest.mark.parametrize("args", [
    ["run", DEV], ["run", DEV, "--rw=randrw", "--rwmixread=100"],
    ["run", DEV, "--rw=write", "--allow-writes"],
    ["run", DEV, "--rw=write", "--allow_writes"],
    ["features"], ["list"], ["stop", "1"], ["destroy", "1"],
])
def test_module_not_loaded(args):
    p = run(*args)
    assert p.returncode == 2, p.stderr
    assert p.stderr == ("kiobench: module not loaded "
                        "(modprobe kiobench / insmod kiobench.ko)\n")
    assert p.stdout == ""


@pytest.mark.skipif(MODULE_LOADED, reason="kiobench module is loaded")
def test_valid_jobfile_reaches_netlink(tmp_path):
    (tmp_path / "job.fio").write_text(
        "; two jobs\n[global]\nfilename=/dev/null\nbs=4k\nruntime=2s\n"
        "time_based\n[a]\nrw=randread\niodepth=8\n[b]\nrw=read\n"
        "percentile_list=50:99:99.9\n")
    p = run("run", "--output-format=json,terse", "job.fio", cwd=tmp_path)
    assert p.returncode == 2
    assert "module not loaded" in p.stderr


# ---- sweep, precondition, suite: each command takes the options of its table entries --

BAD_SWEEPS = [
    (["sweep", DEV, "--iodepth=0-4"], "--iodepth: invalid list '0-4' (values must be 1..16777216)"),
    (["sweep", DEV, "--iodepth=8-4"], "--iodepth: invalid list '8-4' (range 8-4 goes down)"),
    (["sweep", DEV, "--iodepth=1-8:0"], "--iodepth: invalid list '1-8:0' (bad step '0')"),
    (["sweep", DEV, "--bs=4k,3"], "bs: invalid block size '3' (must be a multiple of 512)"),
    (["sweep", DEV, "--iodepth=1-4", "--bs=4k,8k"], "--iodepth and --bs: sweep one variable"),
    (["sweep", DEV], "sweep: nothing to sweep"),
    (["sweep", DEV, "--iodepth=1,2", "--split-qd=0"], "--split-qd: invalid value '0' (must be 1..1024)"),
    (["sweep", DEV, "--iodepth=1,2", "--split-qd=2", "--numjobs=2"], "--split-qd: chooses the workers"),
    (["sweep", DEV, "--iodepth=1,2", "--idle=x"], "--idle: invalid time 'x'"),
    (["sweep", DEV, "--burst-size=1m"], "--burst-size and --burst-total go together"),
    (["sweep", DEV, "--burst-size=1m", "--burst-total=4m", "--duty-cycle=101"],
     "--duty-cycle: invalid value '101' (must be 1..100)"),
    (["sweep", DEV, "--burst-size=1m", "--burst-total=4m", "--duty-cycle=20",
      "--burst-idle=1"], "--duty-cycle and --burst-idle: one or the other"),
    (["sweep", DEV, "--burst-size=1m", "--burst-total=4m", "--io_size=1m"],
     "--burst-size: sets each burst's io_size"),
    (["sweep", DEV, "--iodepth=1,2", "--output-format=xml"],
     "--output-format: invalid output format 'xml' (normal, json or csv)"),
    (["sweep", DEV, "--iodepth=1,2", "--bogus"], "sweep: unknown option '--bogus'"),
    # terse is fio's report of one run, csv the steps' table: each where it belongs
    (["sweep", DEV, "--iodepth=1,2", "--output-format=terse"],
     "--output-format: invalid output format 'terse' (normal, json or csv)"),
    (["run", DEV, "--output-format=csv"],
     "--output-format: invalid output format 'csv' (normal, json or terse)"),
    # --keep keeps run's jobs; a sweep destroys each step's jobs, so it has none
    (["sweep", DEV, "--iodepth=1,2", "--keep"], "sweep: unknown option '--keep'"),
    (["run", DEV, "--split-qd=2"], "run: unknown option '--split-qd'"),
    (["precondition", DEV, "--allow-writes", "--devices=2"],
     "precondition: unknown option '--devices'"),
    (["precondition", DEV, "--allow-writes", "--bs=100"],
     "--bs: invalid list '100'"),
    (["sweep", DEV, "--iodepth=1,2", "--rw=randwrite"], "refusing without --allow-writes"),
    (["precondition", DEV], "refusing without --allow-writes"),
    (["precondition", DEV, "--allow-writes", "--max-rounds=2"],
     "--max-rounds: invalid value '2' (must be 5..1000)"),
    (["suite", DEV], "suite: missing suite name"),
    (["suite", "nope", DEV], "suite: unknown suite 'nope'"),
    (["suite", "000", DEV], "suite 000-enterprise writes to /dev/null: refusing without --allow-writes"),
    (["suite", "004", DEV], "(its preconditioning; --no-precondition skips it)"),
    (["suite", "001", DEV, "--allow-writes", "--scale=2"], "--scale: invalid factor '2'"),
    (["suite", "001", DEV, "--allow-writes", "--iodepth=4"], "--iodepth: set by the suite"),
]


@pytest.mark.parametrize("args,expect", BAD_SWEEPS, ids=[" ".join(a) for a, _ in BAD_SWEEPS])
def test_bad_sweep(args, expect):
    assert_usage_error(run(*args), expect)


def test_suite_list():
    p = run("suite", "--list")
    assert p.returncode == 0, p.stderr
    names = [ln.split()[0] for ln in p.stdout.splitlines() if not ln.startswith(" ")]
    assert names == ["000-enterprise", "001-datacenter", "002-client-seq",
                     "003-client-random", "004-raid0-scaling"]
