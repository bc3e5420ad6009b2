"""kiobench compare on real runs, and json+ read by fio's own tool.

The runs are on timer-mode null_blk devices of known latency.  TCG timing
is noisy (a sleeping worker loses some depth to wake-ups, timers
overshoot by about 2 %): two runs of one setup differ by a few percent,
and by more when the host's load changes between them (another guest on
the two cores), which is a real difference compare rightly calls
significant: the same-setup test uses a 15 % threshold, while 200 us
against 300 us (+50 %) must be worse at the default 5 %.  Neither core nor debug: the tool's logic is the
same on every kernel.
"""
from __future__ import annotations

import csv
import json
import shutil
import subprocess

import pytest

# 2 s measured after 0.5 s of warm-up, 10 intervals for the IOPS test
RUN = ("kiobench run --rw=randread --iodepth={qd} --time_based --runtime=2 "
       "--ramp_time=500ms --interval=200ms --output-format={fmt} --output={out} "
       "--filename={dev}")
CLAT2CSV = shutil.which("fio_jsonplus_clat2csv") or "/usr/bin/fio_jsonplus_clat2csv"


def run(guest, dev: str, out: str, fmt: str = "json", qd: int = 4) -> None:
    cmd = RUN.format(fmt=fmt, out=out, dev=dev, qd=qd)
    r = guest.run(cmd, timeout=60)
    assert r.rc == 0, f"{cmd}: exit {r.rc}\n{r.out}"


def compare(guest, a: str, b: str, *args: str):
    return guest.run(f"kiobench compare {' '.join(args)} {a} {b}", timeout=60)


@pytest.mark.timing
def test_compare_same_setup_exits_0(guest, kiobench_module, make_nullb):
    """Two independent runs of one setup (never a file against itself or a
    copy, which any statistics pass: every difference is 0) are not
    significantly different at 15 % in their bulk (IOPS, bandwidth, mean,
    p50); a tail may be."""
    # 1 ms at depth 8: TCG's wake-ups and timer slack (tens of us) move the
    # median by less than at 200 us, where two runs' p50 differ by up to 5 %
    dev = make_nullb("nullb0", completion_nsec=1_000_000, size_mb=64)
    # a freshly booted guest runs its first job slower (by up to 40 % in
    # IOPS): a short run first, so that base and new see the same guest
    guest.check(f"kiobench run --filename={dev} --rw=randread --iodepth=8 "
                f"--runtime=1 --time_based --output=/dev/null", timeout=60)
    run(guest, dev, "/tmp/base.json", qd=8)
    run(guest, dev, "/tmp/new.json", qd=8)
    guest.check("! cmp -s /tmp/base.json /tmp/new.json")  # two runs, two results
    # CI measured -5.2 % IOPS and +5.9 % p50 between two such runs while
    # another guest started on the host: 15 % leaves that margin
    # Only a tail may read worse: under TCG p99 and p99.9 are the host's
    # stalls as much as the device's (a CI run with the unit tests beside
    # it saw p99.9 +53 % while IOPS and p50 moved 1 %), never the bulk
    r = compare(guest, "/tmp/base.json", "/tmp/new.json", "--threshold=15")
    worse = [ln for ln in r.out.splitlines() if ln.startswith("worse by more than 15%: ")]
    named = worse[0].split(": ", 2)[2].split() if worse else []
    assert r.rc == (4 if named else 0) and set(named) <= {"p99", "p99.9"}, r.out
    if not named:
        assert "compare: nothing significantly worse by more than 15%" in r.out
    assert "configuration differences" not in r.out
    # the JSON says the same
    r = compare(guest, "/tmp/base.json", "/tmp/new.json", "--threshold=15",
                "--output-format=json")
    doc = json.loads(r.out)
    assert r.rc == doc["exit_status"] == (4 if named else 0), r.out
    assert [w.split(": ", 1)[1].split() for w in doc["worse"]] == ([named] if named else [])
    c, = doc["comparisons"]
    assert c["figures"]["iops"]["test"] == "welch"
    assert c["figures"]["p50_ns"]["test"] == "mann-whitney"


@pytest.mark.timing
def test_compare_300us_against_200us_exits_4(guest, kiobench_module, make_nullb):
    fast = make_nullb("nullb0", completion_nsec=200_000, size_mb=64)
    slow = make_nullb("nullb1", completion_nsec=300_000, size_mb=64)
    # a freshly booted guest runs its first job slower (a CI run had the
    # 200 us device's IOPS 19 % below the 300 us one's, its p50 right): a
    # short run first, so that both runs see the same guest
    guest.check(f"kiobench run --filename={fast} --rw=randread --iodepth=4 "
                f"--runtime=1 --time_based --output=/dev/null", timeout=60)
    run(guest, fast, "/tmp/base.json")
    run(guest, slow, "/tmp/new.json")
    r = compare(guest, "/tmp/base.json", "/tmp/new.json")
    assert r.rc == 4, r.out
    lines = r.out.splitlines()
    # the devices differ: said first, compared all the same
    at = lines.index("configuration differences (compared all the same):")
    assert f"  devices: {fast} -> {slow}" in lines[at + 1:]
    assert at < lines.index("job kiobench, read:")
    worse, = [ln for ln in lines if ln.startswith("worse by more than 5%: ")]
    named = worse.split(": ", 2)[2].split()
    # the bulk of the distribution moved by half: p50 says so.  The mean,
    # the tail and the IOPS of a TCG guest are the host's stalls as much as
    # the device's latency, and 10 intervals may not tell them apart: named
    # when they do.
    assert "p50" in named, r.out
    assert set(named) <= {"IOPS", "MB/s", "mean", "p50", "p99", "p99.9"}, r.out
    assert f"compare: {len(named)} figure(s) significantly worse by more than 5%" in r.out
    # the other way round the bulk is better, not worse: only a tail, which
    # under TCG is the host's stalls as much as the device's latency, may
    # read worse (a CI run saw p99.9 so, with a kernel build beside it)
    r = compare(guest, "/tmp/new.json", "/tmp/base.json")
    worse = [ln for ln in r.out.splitlines() if ln.startswith("worse by more than 5%: ")]
    named = worse[0].split(": ", 2)[2].split() if worse else []
    assert r.rc == (4 if named else 0) and set(named) <= {"p99", "p99.9"}, r.out


def percentile_rows(path) -> list[tuple[int, float]]:
    """(nsec, read clat percentile as a fraction) of fio_jsonplus_clat2csv's CSV."""
    with open(path) as f:
        rows = list(csv.reader(f, skipinitialspace=True))
    col = [c.strip() for c in rows[0]].index("read_clat_ns_percentile")
    return [(int(r[0]), float(r[col])) for r in rows[1:] if len(r) > col and r[col].strip()]


@pytest.mark.skipif(not shutil.os.path.exists(CLAT2CSV), reason="fio_jsonplus_clat2csv "
                    "is not installed (Debian's fio)")
def test_jsonplus_read_by_fio_jsonplus_clat2csv(guest, kiobench_module, make_nullb,
                                                tmp_path):
    dev = make_nullb("nullb0", completion_nsec=200_000, size_mb=64)
    run(guest, dev, "/tmp/plus.json", fmt="json+")
    src = tmp_path / "plus.json"
    src.write_text(guest.check("cat /tmp/plus.json"))
    job = json.loads(src.read_text())["jobs"][0]
    bins = job["read"]["clat_ns"]["bins"]
    assert sum(bins.values()) == job["read"]["clat_ns"]["N"] > 1000
    assert "bins" not in job["write"]["clat_ns"]
    for args in ([], ["--validate"]):
        p = subprocess.run([CLAT2CSV, str(src), str(tmp_path / "lat.csv"), *args],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stdout + p.stderr
    rows = percentile_rows(tmp_path / "lat_job0.csv")
    assert len(rows) == len(bins)
    for key, ours in job["read"]["clat_ns"]["percentile"].items():
        p = float(key) / 100
        theirs = next(ns for ns, frac in rows if frac >= p - 1e-12)
        # the same bucket: its middle against our estimate, within the
        # histogram's bucket error (1/128 of the value, either side)
        assert abs(theirs - ours) <= ours / 64 + 1, (key, theirs, ours)
