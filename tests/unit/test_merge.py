# SPDX-License-Identifier: GPL-2.0
"""kiobench merge (tools/merge.c) on crafted result documents: the fleet's
histogram is the sum of the hosts', its percentiles are those of the sum
(computed here independently), documents of another job or histogram
layout are refused naming what differs, a missing document is named and
the others merged (exit 2), and the leave-one-out outlier test catches a
host whose p99 is twice the others'."""
import json
import math
import random
import subprocess

import pytest

from kbunit import TOOL


pytestmark = pytest.mark.usefixtures("built_tool")


def merge(*args):
    return subprocess.run([str(TOOL), "merge", *map(str, args)], capture_output=True,
                          text=True, timeout=60)


def bucket(v, bits=6):
    """The module's bucket of v ns (kmod/hist.h, `bits` sub-bucket bits)."""
    if v < (2 << bits):
        return v, v + 1
    shift = v.bit_length() - 1 - bits
    lo = (v >> shift) << shift
    return lo, lo + (1 << shift)


def host_doc(host, lat_us, seed, n=5000, bits=6, bs="4k", tail=1.0, jobname="lab"):
    """A run's JSON as kiobench writes it on host `host`: n read latencies
    around lat_us (log-normal); the slowest 2 % multiplied by tail."""
    rnd = random.Random(seed)
    lats = sorted(int(lat_us * 1000 * math.exp(rnd.gauss(0, 0.1))) for _ in range(n))
    k = int(n * 0.98)
    lats = lats[:k] + [int(v * tail) for v in lats[k:]]
    buckets = {}
    for v in lats:
        b = bucket(v, bits)
        buckets[b] = buckets.get(b, 0) + 1
    mean = sum(lats) / n
    sd = (sum((x - mean) ** 2 for x in lats) / (n - 1)) ** 0.5
    zero = {"iops": 0.0, "bw_bytes": 0, "total_ios": 0,
            "clat_ns": {"N": 0, "mean": 0.0, "stddev": 0.0, "min": 0, "max": 0}}
    job = {
        "jobname": jobname,
        "job options": {"filename": "/dev/nvme0n1", "rw": "randread", "bs": bs},
        "read": {"iops": 1000.0, "bw_bytes": 4096000, "total_ios": n,
                 "clat_ns": {"N": n, "mean": mean, "stddev": sd, "min": lats[0],
                             "max": lats[-1]}},
        "write": zero, "trim": zero,
        "kiobench": {"version": "x", "kernel": "6.12.1", "module_version": "m1",
                     "host": {"hostname": host, "cpu_model": "cpu", "cpus": 2},
                     "device_ids": [{"path": "/dev/nvme0n1", "model": "QEMU NVMe Ctrl",
                                     "serial": f"s-{host}", "firmware": "1.0",
                                     "transport": "pcie"}],
                     "devices": ["/dev/nvme0n1"], "hist_bits": bits,
                     "hist": {"read": [[lo, hi, c] for (lo, hi), c in sorted(buckets.items())],
                              "write": [], "trim": [], "sync": []}},
    }
    return {"fio version": "kiobench-x", "jobs": [job]}


def write(tmp_path, name, doc):
    p = tmp_path / name
    p.write_text(json.dumps(doc))
    return p


def summed(docs, d="read"):
    """{(lo, hi): count} summed over docs, and their min and max."""
    out = {}
    for doc in docs:
        for lo, hi, c in doc["jobs"][0]["kiobench"]["hist"][d]:
            out[(lo, hi)] = out.get((lo, hi), 0) + c
    mins = [doc["jobs"][0][d]["clat_ns"]["min"] for doc in docs]
    maxs = [doc["jobs"][0][d]["clat_ns"]["max"] for doc in docs]
    return out, min(mins), max(maxs)


def percentile(buckets, lo_seen, hi_seen, pct):
    """kiobench's percentile of a histogram: the bucket of rank
    ceil(pct/100 n), its middle clamped to the values seen (stats.c)."""
    n = sum(buckets.values())
    rank = max(1, -(-pct * 10**6 * n // (100 * 10**6)))
    cum = 0
    for (lo, hi), c in sorted(buckets.items()):
        cum += c
        if cum >= rank:
            return min(max(lo + (hi - lo - 1) // 2, lo_seen), hi_seen)
    raise AssertionError("rank beyond the histogram")


def test_merge_sums_histograms(tmp_path):
    """The merged document's histogram is the bucket-wise sum of the hosts'
    and its p50/p99/p99.9 those of the sum, not an average of the hosts'.
    Mutation: add_buckets() keeps the first document's count of a shared
    bucket (o[n] = x[i++] without the +=): red."""
    docs = [host_doc("h0", 100, 1), host_doc("h1", 150, 2), host_doc("h2", 120, 3)]
    paths = [write(tmp_path, f"h{i}.json", d) for i, d in enumerate(docs)]
    p = merge("--output-format=json", *paths)
    assert p.returncode in (0, 4), p.stderr
    out = json.loads(p.stdout)
    assert out["merged"] == 3 and out["missing"] == []
    job = out["jobs"][0]
    got = {(lo, hi): c for lo, hi, c in job["kiobench"]["hist"]["read"]}
    want, lo_seen, hi_seen = summed(docs)
    assert got == want
    assert job["read"]["total_ios"] == 15000 and job["read"]["clat_ns"]["N"] == 15000
    for key, pct in (("50.000000", 50), ("99.000000", 99), ("99.900000", 99.9)):
        assert job["read"]["clat_ns"]["percentile"][key] == \
            percentile(want, lo_seen, hi_seen, int(pct * 10**6) / 10**6), key
    # one row per host, each named by its identity, with its device
    assert [r["host"] for r in out["hosts"]] == ["h0", "h1", "h2"]
    assert "QEMU NVMe Ctrl, s-h1" in out["hosts"][1]["devices"]
    # the merged document is a result file: compare and merge read it
    m = write(tmp_path, "fleet.json", out)
    assert merge("--output-format=json", m, m).returncode in (0, 4)
    c = subprocess.run([str(TOOL), "compare", m, m], capture_output=True, text=True)
    assert c.returncode == 0, c.stdout + c.stderr


def test_merge_percentile_is_of_the_sum(tmp_path):
    """Two hosts of very different counts: the fleet's p50 is the heavy
    host's, far from the mean of the two p50s.  Mutation: the percentile
    rank taken over the first host's samples only: red."""
    a = host_doc("a", 100, 1, n=9000)
    b = host_doc("b", 400, 2, n=1000)
    p = merge("--output-format=json", write(tmp_path, "a.json", a), write(tmp_path, "b.json", b))
    out = json.loads(p.stdout)
    want, lo, hi = summed([a, b])
    pcts = out["jobs"][0]["read"]["clat_ns"]["percentile"]
    assert pcts["50.000000"] == percentile(want, lo, hi, 50)
    assert pcts["99.000000"] == percentile(want, lo, hi, 99)
    assert pcts["50.000000"] < 150_000


@pytest.mark.parametrize("change,what", [
    ({"bs": "8k"}, "job option bs 8k against 4k"),
    ({"bits": 5}, "histogram layout: hist_bits 5 against 6"),
    ({"jobname": "other"}, 'job "other" against "lab"'),
])
def test_merge_refuses_another_job_or_layout(tmp_path, change, what):
    """A document of another job option, histogram layout or job is refused,
    the message naming the document and what differs; nothing is merged.
    Mutation: same_job() without the hist_bits check: red (bits case)."""
    a = write(tmp_path, "a.json", host_doc("a", 100, 1))
    b = write(tmp_path, "b.json", host_doc("b", 100, 2, **change))
    p = merge(a, b)
    assert p.returncode == 1, p.stdout + p.stderr
    assert p.stdout == ""
    assert f"merge: {b} does not merge with {a}: " in p.stderr
    assert what in p.stderr, p.stderr


def test_merge_refuses_mismatched_buckets(tmp_path):
    """Buckets of the same start and another end (a layout the document
    does not declare) are refused.  Mutation: add_buckets() without the hi
    check: red."""
    a = host_doc("a", 100, 1)
    b = host_doc("b", 100, 2)
    common = {e[0] for e in a["jobs"][0]["kiobench"]["hist"]["read"]}
    h = b["jobs"][0]["kiobench"]["hist"]["read"]
    i = next(i for i, e in enumerate(h) if e[0] in common and i + 1 < len(h))
    h[i][1] = h[i + 1][0] - 1  # ends earlier: another layout
    p = merge(write(tmp_path, "a.json", a), write(tmp_path, "b.json", b))
    assert p.returncode == 1 and "histogram layout: bucket" in p.stderr, p.stderr


def test_merge_names_missing_document(tmp_path):
    """A missing and an unreadable document are named; the others are
    merged and the exit status is 2.  Mutation: exit status of a merge
    with a document missing 0: red."""
    a = write(tmp_path, "a.json", host_doc("a", 100, 1))
    b = write(tmp_path, "b.json", host_doc("b", 100, 2))
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    gone = tmp_path / "gone.json"
    p = merge("--output-format=json", a, gone, b, bad)
    assert p.returncode == 2, p.stdout + p.stderr
    out = json.loads(p.stdout)
    assert out["merged"] == 2 and out["documents"] == 4
    assert [m.split(":")[0] for m in out["missing"]] == [str(gone), str(bad)]
    assert out["exit_status"] == 2
    assert [r["host"] for r in out["hosts"]] == ["a", "b"]
    n = merge(a, gone, b)
    assert n.returncode == 2
    assert f"missing: {gone}: No such file or directory" in n.stdout
    assert f"merge: missing: {gone}" in n.stderr


def test_merge_outlier_twice_slower_p99(tmp_path):
    """Of four hosts, one whose slowest 2 % take twice as long (p99 about
    2x the others', p50 the same) is the one outlier: its p99 against the
    other three's merged p99 (leave-one-out ratio), the test named; exit 4.
    Without it, no outlier and exit 0.  Mutations: only p50 tested
    (k < 1 in host_row()): red; the threshold's ratio doubled: red."""
    docs = [host_doc(f"h{i}", 100, i + 1) for i in range(3)]
    paths = [write(tmp_path, f"h{i}.json", d) for i, d in enumerate(docs)]
    p = merge("--output-format=json", *paths)
    assert p.returncode == 0, p.stdout + p.stderr
    assert json.loads(p.stdout)["outliers"] == []
    slow = write(tmp_path, "slow.json", host_doc("slow", 100, 9, tail=2.0))
    p = merge("--output-format=json", *paths, slow)
    assert p.returncode == 4, p.stdout + p.stderr
    out = json.loads(p.stdout)
    assert out["outlier_test"]["name"] == "leave-one-out ratio"
    assert [(o["host"], o["figure"], o["slower"]) for o in out["outliers"]] == \
        [("slow", "p99", True)]
    assert float(out["outliers"][0]["ratio"]) > 1.8
    t = merge(*paths, slow)
    assert t.returncode == 4
    assert "outlier: slow, job lab, read: p99" in t.stdout
    assert "leave-one-out ratio" in t.stdout
    # a threshold above the ratio: no outlier
    assert merge("--outlier-threshold=200", *paths, slow).returncode == 0


def test_merge_leave_one_out_is_the_others_exactly(tmp_path):
    """Each host's ratio is its p99 over the p99 of the other hosts'
    summed buckets, bounded by the others' own smallest and largest
    latency (computed here from the documents): with 30 I/Os a host the
    others' p99 is their slowest I/O's bucket, where the bound tells (six
    fleets, so that in some the bucket's middle lies above it).  merge reads each
    document twice and keeps only the sums, so the others' bounds come
    from the two smallest minimums and the two largest maximums it kept.
    Mutation: a host's others bounded by the fleet's largest maximum,
    its own included: red."""
    for fleet in range(6):
        docs = [host_doc(f"h{i}", 100, 10 * fleet + i + 1, n=30, tail=t)
                for i, t in enumerate((1.0, 1.0, 3.0, 1.0))]
        paths = [write(tmp_path, f"f{fleet}h{i}.json", d) for i, d in enumerate(docs)]
        p = merge("--output-format=json", "--outlier-threshold=1000", *paths)
        assert p.returncode == 0, p.stdout + p.stderr
        rows = json.loads(p.stdout)["hosts"]
        assert [r["host"] for r in rows] == ["h0", "h1", "h2", "h3"]
        for i, row in enumerate(rows):
            own, lo, hi = summed([docs[i]])
            others, olo, ohi = summed(docs[:i] + docs[i + 1:])
            want = percentile(own, lo, hi, 99) / percentile(others, olo, ohi, 99)
            assert abs(float(row["ratio_to_others"]["p99"]) - want) < 1e-3, \
                (fleet, i, row, want)


def test_merge_json_plus_has_the_summed_bins(tmp_path):
    """--output-format=json+: the merged document carries the summed
    buckets as fio's json+ bins too (from kiobench's histograms), exactly
    the two documents' sums, and compare reads it as a result.  Mutation:
    merged_dir() writing bins only for bins sources: red (no bins)."""
    docs = [host_doc(f"h{i}", 100, i + 1) for i in range(2)]
    paths = [write(tmp_path, f"h{i}.json", d) for i, d in enumerate(docs)]
    p = merge("--output-format=json+", *paths)
    assert p.returncode == 0, p.stdout + p.stderr
    out = json.loads(p.stdout)
    bins = out["jobs"][0]["read"]["clat_ns"]["bins"]
    want, _, _ = summed(docs)
    assert {int(k): v for k, v in bins.items()} == {lo: c for (lo, _), c in want.items()}
    assert "bins" not in json.loads(merge("--output-format=json", *paths).stdout)[
        "jobs"][0]["read"]["clat_ns"]
    fleet = tmp_path / "fleet.json"
    fleet.write_text(p.stdout)
    c = subprocess.run([str(TOOL), "compare", str(fleet), str(fleet)], capture_output=True,
                       text=True, timeout=60)
    assert c.returncode == 0, c.stdout + c.stderr
