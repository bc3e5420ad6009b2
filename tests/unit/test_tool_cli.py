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

from kbunit import TOOL

MODULE_LOADED = Path("/sys/module/kiobench").exists()


pytestmark = pytest.mark.usefixtures("built_tool")


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
    (["--bs=4k,8k,16k,32k", DEV], "--bs: '4k,8k,16k,32k': at most three values"),
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
    (["--max_open_zones=4097", DEV], "--max_open_zones: invalid value '4097' (must be 1..4096)"),
    (["--job_max_open_zones=4097", DEV],
     "--job_max_open_zones: invalid value '4097' (must be 1..4096)"),
    # numjobs' clones are jobs of their own: in zbd mode they must not share zones
    (["--zonemode=zbd", "--rw=randwrite", "--numjobs=2", "--allow-writes", DEV],
     "job 'kiobench': numjobs=2 with zonemode=zbd: the clones would write the same zones"),
    (["--zonemode=zbd", "--rw=write", "--numjobs=3", "--size=32m", "--offset_increment=16m",
      "--allow-writes", DEV], "numjobs=3 with zonemode=zbd: the clones would write the same"),
    # fio's dedupe_global shares among every job of the run, those without it too
    (["--rw=write", "--size=1m", "--dedupe_percentage=50", "--dedupe_mode=working_set",
      "--allow-writes", DEV, "--name=a", "--dedupe_global=1", "--name=b"],
     "dedupe_global: on 1 of the run's 2 jobs: fio's shared working set also takes pages"),
    (["--iodepth=4k", DEV], "--iodepth: invalid number '4k'"),
    (["--numjobs=-2", DEV], "--numjobs: invalid number '-2'"),
    (["--number_ios=0", DEV], "--number_ios: invalid value '0'"),
    (["--randseed=x", DEV], "--randseed: invalid number 'x'"),
    (["--rw=trimread", DEV], "--rw: invalid rw 'trimread'"),
    (["--rw=trim", DEV], "rw=trim writes to /dev/null: refusing without --allow-writes"),
    (["--readfua=1", DEV], "a read with REQ_FUA is refused by the block layer"),
    (["--rwmixread=101", DEV], "--rwmixread: invalid value '101' (must be 0..100)"),
    (["--rwmixwrite=x", DEV], "--rwmixwrite: invalid number 'x'"),
    # fio refuses the same; a sum below or above 100 alone it runs (test_bssplit.py)
    (["--bssplit=4k/70:8k/70:16k:32k", DEV], "--bssplit: percentages add up to 140, more than 100, "
     "with 2 entries left to share the rest (fio refuses this too)"),
    (["--bssplit=8k/100:4k", DEV], "--bssplit: '8k/100:4k': 4096 bytes get no share of the"),
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
    ([DEV, "a.fio", "b.fio"], "kiobench: a.fio: No such file or directory"),
]


# fio's execution model: its options' values, and wait_for's target, which
# fio wants above the waiting job and unique.  Mutations: find_waitee()
# searching the waiting job's own clones too (`i < first` -> `i < r->n`):
# "self" red; not refusing a second job of the name (`found++` ->
# `found++ && 0`): "twice" red.
EXEC_MODEL_REFUSED = {
    "delay-range": (["--startdelay=2-1", DEV],
                    "--startdelay: invalid startdelay '2-1' (the range's end is below"),
    "delay-unit": (["--startdelay=1x", DEV], "--startdelay: invalid time '1x'"),
    "exit-what": (["--exit_what=some", DEV],
                  "--exit_what: invalid exit_what 'some' (group, stonewall or all)"),
    "loops-0": (["--loops=0", DEV], "--loops: invalid value '0' (must be at least 1)"),
    "offset-inc": (["--offset_increment=1q", DEV], "--offset_increment: invalid size '1q'"),
    "wait-for-name": (["--wait_for=a b", DEV], "--wait_for: invalid name 'a b'"),
    "self": ("[a]\nfilename=/dev/null\nwait_for=a\n",
             "job 'a': wait_for=a: no job of that name above this one"),
    "forward": ("[a]\nfilename=/dev/null\nwait_for=b\n[b]\nfilename=/dev/null\n",
                "job 'a': wait_for=b: no job of that name above this one"),
    "twice": ("[global]\nfilename=/dev/null\n[x]\n[x]\n[y]\nwait_for=x\n",
              "job 'y': wait_for=x: several jobs above are named so"),
}


@pytest.mark.parametrize("case", EXEC_MODEL_REFUSED)
def test_exec_model_refusals(case, tmp_path):
    args, expect = EXEC_MODEL_REFUSED[case]
    if isinstance(args, str):
        (tmp_path / "job.fio").write_text(args)
        args = ["job.fio"]
    assert_usage_error(run("run", *args, cwd=tmp_path), expect)


def test_exec_model_options_in_help():
    out = run("run", "--help").stdout
    for name in ["stonewall", "new_group", "wait_for",
                 "group_reporting", "startdelay", "loops", "exitall", "exit_what",
                 "offset_increment"]:
        assert "--" + name in out, name


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
    ("[a]\nfilename=/dev/null\nbssplit=4k/50:8k/70:16k:32k\n",
     "kiobench: job.fio:3: bssplit: percentages add up to 120, more than 100"),
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
    # zbd clones apart (or only reading) pass the tool
    ["run", DEV, "--zonemode=zbd", "--rw=randwrite", "--numjobs=2", "--size=16m",
     "--offset_increment=16m", "--allow-writes"],
    ["run", DEV, "--zonemode=zbd", "--rw=randread", "--numjobs=2"],
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
     "--output-format: invalid output format 'csv' (normal, json, json+ or terse)"),
    # fio's readers of terse take the whole output: json+ beside it would break them
    (["run", DEV, "--output-format=json+,terse"],
     "--output-format: json+ cannot be combined with terse"),
    (["sweep", DEV, "--iodepth=1,2", "--output-format=json+"],
     "--output-format: invalid output format 'json+' (normal, json or csv)"),
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
    # 004 sweeps its own device count: --devices is sweep's only, refused before any device
    (["suite", "004", DEV, "--allow-writes", "--devices=banana"],
     "suite: unknown option '--devices'"),
    (["suite", "004", DEV, "--allow-writes", "--devices=2"], "suite: unknown option '--devices'"),
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
    # each names the review it reproduces (drive, site, year as the text has
    # them), and the drive's name is another name of the suite
    reviews = [ln.split(": ", 1)[1] for ln in p.stdout.splitlines()
               if ln.startswith("  reproduces: ")]
    assert len(reviews) == 5
    for review, drive in zip(reviews, ["P4800X", "P3700", "800p", "900P", "960 PRO"]):
        assert drive in review
    assert "AnandTech" in reviews[3] and "2014" in reviews[1]
    aliases = [ln.split(": ", 1)[1] for ln in p.stdout.splitlines()
               if ln.startswith("  also named: ")]
    assert aliases == ["optane-p4800x", "p3700", "optane-800p", "optane-900p",
                       "optane-memory-vroc"]


def test_suite_by_drive_name():
    assert_usage_error(run("suite", "optane-900p", DEV),
                       "suite 003-client-random writes to /dev/null")


# ---- compare ------------------------------------------------------------------

def hist_idx(v):
    """The module's bucket of v ns (kmod/hist.h, 6 sub-bucket bits)."""
    if v < 128:
        return v, v + 1
    shift = v.bit_length() - 1 - 6
    lo = (v >> shift) << shift
    return lo, lo + (1 << shift)


def run_doc(lat_us, iops, seed, n=4000, device="/dev/nullb0", kernel="6.12.1",
            intervals=10, jitter=0.02):
    """A run's JSON as kiobench writes it, with n latencies around lat_us
    (log-normal) and intervals timeline entries around iops, after a 1 s
    warm-up interval."""
    import math
    import random
    rnd = random.Random(seed)
    lats = sorted(int(lat_us * 1000 * math.exp(rnd.gauss(0, 0.15))) for _ in range(n))
    mean = sum(lats) / n
    buckets = {}
    for v in lats:
        b = hist_idx(v)
        buckets[b] = buckets.get(b, 0) + 1
    mean = sum(lats) / n
    sd = (sum((x - mean) ** 2 for x in lats) / (n - 1)) ** 0.5
    tl = [{"t_ns": 10**9, "read": {"ios": 1, "bytes": 4096, "lat_ns": 1}}]
    for i in range(intervals):
        k = int(iops * (1 + jitter * (2 * rnd.random() - 1)))
        lat = int(k * mean * (1 + 0.0005 * (2 * rnd.random() - 1)))
        tl.append({"t_ns": (i + 2) * 10**9, "read": {"ios": k, "bytes": 4096 * k,
                                                   "lat_ns": lat},
                   "write": {"ios": 0, "bytes": 0, "lat_ns": 0}})
    zero = {"iops": 0.0, "bw_bytes": 0, "total_ios": 0,
            "clat_ns": {"N": 0, "mean": 0.0, "stddev": 0.0, "min": 0, "max": 0}}
    job = {
        "jobname": "kiobench", "job options": {"filename": device, "rw": "randread"},
        "read": {"iops": float(iops), "bw_bytes": iops * 4096, "total_ios": n,
                 "clat_ns": {"N": n, "mean": mean, "stddev": sd, "min": lats[0],
                             "max": lats[-1]}},
        "write": zero, "trim": zero,
        "kiobench": {"version": "x", "kernel": kernel, "module_version": "m1",
                     "devices": [device], "ramp_ns": 10**9,
                     "timeline_interval_ns": 10**9, "timeline": tl,
                     "hist": {"read": [[lo, hi, c] for (lo, hi), c in sorted(buckets.items())],
                              "write": []}},
    }
    return {"fio version": "kiobench-x", "jobs": [job]}


def write_json(path, doc):
    import json
    path.write_text(json.dumps(doc))
    return str(path)


@pytest.fixture
def docs(tmp_path):
    def make(name, *args, **kw):
        return write_json(tmp_path / name, run_doc(*args, **kw))
    return make


def test_compare_same_setup_exits_0(docs):
    a, b = docs("a.json", 200, 5000, 1), docs("b.json", 200, 5000, 2)
    p = run("compare", a, b)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "compare: nothing significantly worse by more than 5%" in p.stdout
    assert "configuration differences" not in p.stdout
    assert "job kiobench, read:" in p.stdout


def test_compare_slower_exits_4_and_names_the_figures(docs):
    a, b = docs("a.json", 200, 5000, 1), docs("b.json", 300, 3333, 2)
    p = run("compare", a, b)
    assert p.returncode == 4, p.stdout + p.stderr
    worse = [ln for ln in p.stdout.splitlines() if ln.startswith("worse by more than 5%")]
    assert worse == ["worse by more than 5%: job kiobench, read: IOPS MB/s mean p50 p99 "
                     "p99.9"], p.stdout
    assert "compare: 6 figure(s) significantly worse by more than 5%" in p.stdout
    # better is not worse; a threshold above the change is not either
    assert run("compare", b, a).returncode == 0
    assert run("compare", "--threshold=60", a, b).returncode == 0
    assert run("compare", "--threshold", "2.5", a, b).returncode == 4


def test_compare_json(docs):
    import json
    a, b = docs("a.json", 200, 5000, 1), docs("b.json", 300, 5000, 2)
    p = run("compare", "--output-format=json", a, b)
    assert p.returncode == 4, p.stderr
    doc = json.loads(p.stdout)
    assert doc["command"] == "compare" and doc["exit_status"] == 4
    assert doc["threshold_pct"] == 5
    c, = doc["comparisons"]
    assert (c["step"], c["job"], c["direction"]) == (None, "kiobench", "read")
    f = c["figures"]
    assert f["mean_ns"]["verdict"] == "worse" and f["mean_ns"]["test"] == "welch"
    assert f["p99_ns"]["test"] == "quantile-ci" and f["p99_ns"]["significant"] is True
    assert f["iops"]["verdict"] == "same" and f["iops"]["test"] == "welch"
    assert f["max_ns"]["significant"] is None and f["max_ns"]["test"] == "none"
    assert 45 < f["mean_ns"]["change_pct"] < 55
    assert c["distribution"]["p_new_greater"] > 0.9
    assert doc["worse"] == ["job kiobench, read: mean p50 p99 p99.9"]


def test_compare_names_configuration_differences_first(docs):
    a = docs("a.json", 200, 5000, 1)
    b = docs("b.json", 200, 5000, 2, device="/dev/nullb1", kernel="6.1.0")
    p = run("compare", a, b)
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    at = lines.index("configuration differences (compared all the same):")
    assert lines[at + 1:at + 3] == ["  devices: /dev/nullb0 -> /dev/nullb1",
                                    "  kernel: 6.12.1 -> 6.1.0"]
    assert at < lines.index("job kiobench, read:")


def as_dir(doc, d):
    """The read figures of run_doc() moved to direction d: trim under its
    own clat_ns, sync (fio's flushes) under lat_ns, as kiobench writes them."""
    job = doc["jobs"][0]
    r, kb = job["read"], job["kiobench"]
    job["read"] = job["write"]
    if d == "sync":
        r = {"total_ios": r["total_ios"], "lat_ns": r["clat_ns"]}
    job[d] = r
    kb["hist"] = {d: kb["hist"]["read"], "read": []}
    for pt in kb["timeline"]:
        pt[d] = pt.pop("read")
    return doc


@pytest.mark.parametrize("d", ["trim", "sync"])
def test_compare_trims_and_flushes(d, tmp_path):
    """compare takes trims and flushes as it takes reads: a 1.5x slower
    trim (or flush) latency is worse, named under its direction.
    Mutation: compare_load.c's load_dir() reading clat_ns for sync: red
    (no flush figure)."""
    a = write_json(tmp_path / "a.json", as_dir(run_doc(200, 5000, 1), d))
    b = write_json(tmp_path / "b.json", as_dir(run_doc(300, 5000, 2), d))
    p = run("compare", a, b)
    assert p.returncode == 4, p.stdout + p.stderr
    worse = [ln for ln in p.stdout.splitlines() if ln.startswith("worse by more than 5%")]
    assert worse and worse[0].startswith(f"worse by more than 5%: job kiobench, {d}: "), p.stdout
    assert "mean" in worse[0] and "p99" in worse[0], worse
    assert run("compare", a, write_json(tmp_path / "c.json",
                                        as_dir(run_doc(200, 5000, 3), d))).returncode == 0


def test_compare_sweeps_step_by_step(tmp_path):
    def sweep(depths, lat):
        steps = []
        for i, d in enumerate(depths):
            job = run_doc(lat, 5000, i)["jobs"][0]
            steps.append({"index": i, "variable": "iodepth", "value": str(d),
                          "config": {"iodepth": d}, "jobs": [job]})
        return {"kiobench": "x", "command": "sweep",
                "parts": [{"name": "randread-qd", "steps": steps}]}

    a = write_json(tmp_path / "a.json", sweep([1, 2, 4], 200))
    b = write_json(tmp_path / "b.json", sweep([1, 2, 8], 300))
    p = run("compare", a, b)
    assert p.returncode == 4, p.stdout + p.stderr
    assert "only in base: step randread-qd iodepth=4" in p.stdout
    assert "only in new: step randread-qd iodepth=8" in p.stdout
    assert "step randread-qd iodepth=2, job kiobench, read:" in p.stdout
    assert ("worse by more than 5%: step randread-qd iodepth=1, job kiobench, read: "
            "mean p50 p99 p99.9") in p.stdout


def test_compare_fio_json(tmp_path):
    """Two fio results of one setup (two runs: every figure a little
    different, never one file against itself, where any misreading reads
    the same on both sides): read as fio's, each figure from its own file
    and key, nothing worse.  Mutation: compare_load.c's percentile keys
    with "99.000000" first (p50 read from p99): red."""
    import json

    def fio(iops, mean, p50, p99, p999, mx):
        return {"fio version": "fio-3.33", "jobs": [{"jobname": "j", "read": {
            "iops": iops, "bw_bytes": int(iops * 4096), "total_ios": 1000,
            "clat_ns": {"N": 1000, "mean": mean, "stddev": 10.0, "max": mx,
                        "percentile": {"50.000000": p50, "99.000000": p99,
                                       "99.900000": p999}}}}]}
    a = write_json(tmp_path / "a.json", fio(100.0, 1000.0, 1000, 1050, 1090, 1100))
    b = write_json(tmp_path / "b.json", fio(99.5, 1003.0, 1002, 1052, 1093, 1104))
    p = run("compare", a, b)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "base: " + a + " (fio)" in p.stdout and "new:  " + b + " (fio)" in p.stdout
    p = run("compare", "--output-format=json", a, b)
    assert p.returncode == 0, p.stdout + p.stderr
    f = json.loads(p.stdout)["comparisons"][0]["figures"]
    got = {k: (f[k]["base"], f[k]["new"]) for k in ("iops", "mean_ns", "p50_ns", "p99_ns",
                                                    "p99.9_ns", "max_ns")}
    assert got == {"iops": (100.0, 99.5), "mean_ns": (1000.0, 1003.0), "p50_ns": (1000, 1002),
                   "p99_ns": (1050, 1052), "p99.9_ns": (1090, 1093), "max_ns": (1100, 1104)}, f
    assert all(x["verdict"] == "same" for x in f.values()), f


BAD_COMPARES = [
    (["compare"], "compare: two result files needed (BASE.json NEW.json)"),
    (["compare", "a.json"], "compare: two result files needed"),
    (["compare", "a.json", "a.json", "a.json"], "compare: too many arguments"),
    (["compare", "a.json", "missing.json"], "compare: missing.json: No such file or directory"),
    (["compare", "a.json", "text.txt"], "compare: text.txt: not JSON"),
    (["compare", "a.json", "list.json"], "compare: list.json: not a kiobench or fio result"),
    (["compare", "a.json", "empty.json"], "compare: empty.json: empty file"),
    (["compare", "--threshold=abc", "a.json", "a.json"],
     "--threshold: invalid percentage 'abc' (must be 0..1000)"),
    (["compare", "--threshold=-1", "a.json", "a.json"], "--threshold: invalid percentage '-1'"),
    (["compare", "--output-format=terse", "a.json", "a.json"],
     "--output-format: invalid output format 'terse' (normal or json)"),
    (["compare", "--bs=4k", "a.json", "a.json"], "compare: unknown option '--bs'"),
]


@pytest.mark.parametrize("args,expect", BAD_COMPARES, ids=[" ".join(a) for a, _ in BAD_COMPARES])
def test_bad_compare(args, expect, tmp_path):
    write_json(tmp_path / "a.json", run_doc(200, 5000, 1, n=100))
    (tmp_path / "text.txt").write_text("kiobench: normal output\n")
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "empty.json").write_text("")
    assert_usage_error(run(*args, cwd=tmp_path), expect)


def test_compare_exit_status_of_unreadable_files(tmp_path):
    """1: the wrong name (no such file, a directory); 2: a file that is
    there but cannot be read (permission denied, an I/O error)."""
    good = write_json(tmp_path / "a.json", run_doc(200, 5000, 1, n=100))
    locked = write_json(tmp_path / "locked.json", run_doc(200, 5000, 1, n=100))
    Path(locked).chmod(0)
    # root reads anything: drop the capabilities that let it (setpriv: util-linux)
    as_user = ("setpriv", "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search") \
        if os.geteuid() == 0 else ()
    for args, status, expect in (
            ((good, str(tmp_path / "missing.json")), 1, "No such file or directory"),
            ((good, str(tmp_path)), 1, "Is a directory"),
            ((good, locked), 2, "Permission denied"),
            # reading /proc/self/mem at offset 0 (unmapped) fails with EIO
            ((good, "/proc/self/mem"), 2, "Input/output error")):
        p = run("compare", *args, prefix=as_user)
        assert (p.returncode, p.stdout) == (status, ""), (args, p.returncode, p.stderr)
        assert p.stderr.startswith("kiobench: compare: ") and expect in p.stderr, p.stderr


def test_compare_help_names_exit_status():
    p = run("compare", "--help")
    assert p.returncode == 0
    assert "--threshold=PCT" in p.stdout and "(5)" in p.stdout
    assert "4 something is" in p.stdout
    assert "compare BASE NEW" in run("--help").stdout


def test_sweep_takes_its_ioscheduler_run_refuses_fios():
    """ioscheduler is the sweep's own option, and in a run fio's refused
    name: the sweep gets past its options to the device (/dev/null has no
    queue), a run is refused by name.  Red when the check that a name typed
    exactly is a refused fio option also catches a command's own option."""
    p = run("sweep", "--filename=/dev/null", "--rw=randread", "--allow-tuning",
            "--ioscheduler=none,mq-deadline")
    assert "is refused" not in p.stderr and "not a block device" in p.stderr, p.stderr
    p = run("run", "--filename=/dev/null", "--ioscheduler=none")
    assert p.returncode == 1
    assert p.stderr.startswith("kiobench: --ioscheduler: option 'ioscheduler' is refused: "), \
        p.stderr


def test_sweep_write_generate_takes_zeroes_and_ones():
    """--write_generate and --read_verify take 0 and 1 only, a list of
    them swept: "2", "10" and "1,,0" are refused by name; "1,0" gets past
    the options to the device (/dev/null has no queue).  Red when p_tune()
    takes any number for them."""
    for opt in ("write_generate", "read_verify"):
        for bad in ("2", "10", "1,,0", "0,"):
            p = run("sweep", "--filename=/dev/null", "--rw=read", "--allow-tuning",
                    f"--{opt}={bad}")
            assert_usage_error(p, f"--{opt}: '{bad}' is not a list of 0 and 1")
        p = run("sweep", "--filename=/dev/null", "--rw=read", "--allow-tuning",
                f"--{opt}=1,0")
        assert "not a list" not in p.stderr and "not a block device" in p.stderr, p.stderr
