# SPDX-License-Identifier: GPL-2.0
"""`kiobench run --parse-only` prints the jobs as a job file, every option
resolved: each option a job file takes, set in a job file, must come out
as a value the tool reads back to the same job, and must never crash the
tool (it printed verify's, nice's and a dozen other values by reading
their fields as a string pointer: a segmentation fault).

Every option of `run --help` is covered without this file naming it: its
value comes from its metavar (SAMPLE), or from an enumerated metavar's
first choice; an option that needs another one to be accepted gets it
from NEEDS.  A new option whose metavar has no sample fails
test_every_option_has_a_sample.
"""
import re
import subprocess
from pathlib import Path

import pytest

from kbunit import built_fio, TOOL


pytestmark = pytest.mark.usefixtures("built_tool")


# A value each metavar of `run --help` takes.
SAMPLE = {
    "N": "2", "PCT": "30", "SIZE": "8k", "TIME": "2s", "NAME": "x", "LIST": "0",
    "DEV[:DEV...]": "/dev/null", "ID[,ID...]": "1,3", "DEV": "/dev/null", "BOOL": "1", "FILE": "out.log",
    "MS": "500", "MSEC": "500", "TEXT": "some text", "ENGINE": "libaio", "F": "0.5",
    "MASK": "0x1", "PATTERN": "0xdeadbeef", "METHOD": "crc32c", "TIME[-TIME]": "1s-2s",
    "SIZE|N%": "10%", "PCT[,PCT]": "30,40", "R[,W]": "1m,2m", "R[,W[,T]]": "1m,1m,1m",
    "TIME[,TIME[,TIME]]": "10ms,20ms,30ms", "P:P:...": "50:99.9",
    "SIZE/PCT:...[,...]": "4k/50:8k/50", "LO-HI[,...]": "4k-16k",
    "READ,WRITE,VERIFY": "EIO,EIO:ENOSPC,EILSEQ", "0-3": "2", "0-7": "4", "0-3[,0-3]": "2,1",
    "0-7[,0-7]": "4,3", "BS/PCT[/CLASS/LEVEL]:...[,...]": "4k/30", "MODE": "randrw",
    "all|NODES": "all", "iops|iops_slope|bw|bw_slope:LIMIT[%]": "iops:10%",
    "read,write,trim,sync": "read,sync", "FMT[,FMT]": "json", "0": "0", "1": "1",
    "complete": "complete",
    "GUARD,REFTAG,APPTAG": "GUARD,REFTAG", "LBA": "70",
}
# Options that a job file takes only with others, or only with a value
# other than their metavar's sample: (value or None for the sample, lines).
# on every job of the run or on none (dedupe_global: fio's working set is the run's)
RUN_WIDE = {"dedupe_global"}
NEEDS = {
    "time_based": (None, ["runtime=1s"]),
    "rate_process": (None, ["rate_iops=100"]),
    "log_entries": ("1024", []),
    "thinktime_spin": (None, ["thinktime=1ms"]),
    "thinktime_blocks": (None, ["thinktime=1ms"]),
    "thinktime_blocks_type": (None, ["thinktime=1ms"]),
    "thinktime_iotime": (None, ["thinktime=1ms"]),
    "write_zeroes_unmap": (None, ["rw=write", "write_mode=zeroes"]),
    "latency_window": (None, ["latency_target=1ms"]),
    "latency_percentile": (None, ["latency_target=1ms"]),
    "latency_run": (None, ["latency_target=1ms"]),
    "zonerange": (None, ["zonemode=strided", "zonesize=4k"]),
    "zonesize": (None, ["zonemode=strided"]),
    "zoneskip": (None, ["zonemode=strided", "zonesize=4k"]),
    "read_iolog": ("replay.log", []),
    "pi_act": (None, ["pi_chk=GUARD"]),
    "pi_chk": (None, ["pi_act=0"]),
    "apptag": (None, ["pi_act=0", "pi_chk=GUARD"]),
    "apptag_mask": ("0xffff", ["pi_act=0", "pi_chk=GUARD"]),
    "pi_inject": (None, ["pi_act=0", "pi_chk=GUARD"]),
    "pi_inject_lba": (None, ["pi_act=0", "pi_chk=GUARD", "pi_inject=REFTAG"]),
}
IOLOG = "fio version 2 iolog\n/dev/null add\n/dev/null open\n/dev/null read 0 4096\n" \
        "/dev/null close\n"
# bsrange prints as the bssplit table it makes, whose weights are relative
# (multiples of 512 bytes), while bssplit reads them as fio's percentages
ROUND_TRIP_FAILS = {"bsrange"}


def help_options() -> list[tuple[str, str]]:
    out = subprocess.run([str(TOOL), "run", "--help"], capture_output=True, text=True,
                         check=True).stdout
    return re.findall(r"^  --([a-z0-9_-]+)(?:=(\S+))?", out, re.M)


OPTIONS = help_options() if TOOL.exists() else []


def sample(name: str, meta: str) -> str | None:
    if name in NEEDS and NEEDS[name][0] is not None:
        return NEEDS[name][0]
    if not meta:
        return "1"
    if meta in SAMPLE:
        return SAMPLE[meta]
    if "|" in meta:     # an enumeration: its first choice
        return re.split(r"[|\[:]", meta)[0]
    return None


def parse_only(path: Path, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(TOOL), "run", "--parse-only", str(path)], capture_output=True,
                          text=True, cwd=cwd, timeout=30)


def test_every_option_has_a_sample():
    assert len(OPTIONS) > 150
    missing = [f"--{n}={m}" for n, m in OPTIONS if sample(n, m) is None]
    assert not missing, f"no sample value for {missing}: add the metavar to SAMPLE"


@pytest.mark.parametrize("name,meta", OPTIONS, ids=[n for n, _ in OPTIONS])
def test_option_round_trips_through_parse_only(name, meta, tmp_path):
    """The option set in a job file parses, prints without crashing, and
    the printed job file reads back to the same print; an option of the
    command line only is refused by name.  Mutation: kb_opt_format() as it
    was, reading any field it had no format for as a string pointer: 18
    options red (a crash, or a value read back otherwise)."""
    value = sample(name, meta)
    if value is None:
        pytest.fail(f"--{name}={meta}: no sample value")
    (tmp_path / "replay.log").write_text(IOLOG)
    lines = ["[x]", "filename=/dev/null", *([f"{name}={value}"] if name in RUN_WIDE else []),
             "[j]", "filename=/dev/null", *NEEDS.get(name, (None, []))[1], f"{name}={value}"]
    jf = tmp_path / "job.fio"
    jf.write_text("\n".join(lines) + "\n")
    first = parse_only(jf, tmp_path)
    assert first.returncode >= 0, f"{name}={value}: killed by signal {-first.returncode}"
    if "only valid on the command line" in first.stderr:
        assert first.returncode == 1 and f"option '{name}'" in first.stderr, first.stderr
        return
    assert first.returncode == 0, first.stderr
    assert not re.search(r"=\?$", first.stdout, re.M), first.stdout
    again = tmp_path / "again.fio"
    again.write_text(first.stdout)
    second = parse_only(again, tmp_path)
    assert second.returncode >= 0, f"{name}: killed by signal {-second.returncode}"
    if name in ROUND_TRIP_FAILS:
        assert second.returncode != 0 or second.stdout != first.stdout, \
            f"{name} round-trips now: take it out of ROUND_TRIP_FAILS"
        return
    assert second.returncode == 0, (first.stdout, second.stderr)
    assert second.stdout == first.stdout


def test_apptag_mask_other_than_fios_default_is_refused(tmp_path):
    """fio's apptag_mask is taken at 0xffff alone: the kernel's NVMe
    driver checks every bit of the application tag, and no other mask
    can reach the device.  Mutation: p_apptag_mask() without the check:
    red (0xff00 accepted)."""
    jf = tmp_path / "job.fio"
    jf.write_text("[j]\nfilename=/dev/null\npi_act=0\npi_chk=GUARD\napptag_mask=0xff00\n")
    r = parse_only(jf, tmp_path)
    assert r.returncode == 1 and "apptag_mask 0xff00: only 0xffff" in r.stderr, r.stderr


def fio_examples() -> list[Path]:
    """The example job files of the installed fio's source."""
    examples = sorted((built_fio().parent / "src" / "examples").glob("*.fio"))
    assert len(examples) > 30, examples
    return examples


def test_fios_examples_never_crash(tmp_path):
    """fio's own example job files, their files and directories pointed at
    /dev/null: each parses or is refused with a reason; none crashes the
    tool (jesd219.fio did: bssplit's trims' table freed, its count kept)."""
    crashed = []
    for f in fio_examples():
        text = re.sub(r"^(filename|directory)=.*$", "filename=/dev/null",
                      f.read_text(errors="replace"), flags=re.M)
        jf = tmp_path / f.name
        jf.write_text(text)
        p = parse_only(jf, tmp_path)
        if p.returncode < 0:
            crashed.append(f"{f.name}: signal {-p.returncode}")
        elif p.returncode:
            assert p.stderr.startswith("kiobench: "), (f.name, p.stderr)
    assert not crashed, crashed
