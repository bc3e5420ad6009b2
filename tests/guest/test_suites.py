"""Sweeps, bursts, preconditioning, multi-device steps and suites.

Every figure checked here comes from the tool's own output, compared with
what the kernel counted or what physics allows on null_blk with an injected
completion time (TCG makes absolute times meaningless; ratios hold).
"""
import csv
import io
import json
import subprocess
from pathlib import Path

import pytest

from kb import resubmit_gap_ns
from vm.targets import md_raid0, md_stop

REPO = Path(__file__).resolve().parents[2]
PLOT = REPO / "tools" / "kiobench-plot"
DIRS = ("read", "write")
OUT = "/tmp/sweep.json"



def table(out: str) -> list[dict]:
    """The rows of the step tables in normal output, keyed by the header's
    columns ("value" for the first, the swept variable's)."""
    rows, head = [], None
    for ln in out.splitlines():
        f = ln.split()
        if len(f) > 2 and f[1] == "dir" and "IOPS" in f:
            head = ["value"] + f[1:]
        elif head and len(f) == len(head) and f[1] in ("read", "write"):
            rows.append(dict(zip(head, f)))
    return rows

def sweep(guest, args: str, *, cmd: str = "sweep", timeout: float = 180) -> dict:
    """`kiobench CMD ARGS --output-format=json`; the one JSON document."""
    line = f"kiobench {cmd} {args} --output-format=json --output={OUT}"
    r = guest.run(line, timeout=timeout)
    assert r.rc == 0, f"{line}: exit {r.rc}\n{r.out}"
    return json.loads(guest.check(f"cat {OUT}"))


def steps(doc: dict, part: int = 0) -> list[dict]:
    return doc["parts"][part]["steps"]


def job_bytes(step: dict, d: str = "read") -> int:
    return sum(j["kiobench"]["all_bytes"][d] for j in step["jobs"])


@pytest.mark.timing
def test_qd_sweep_json_and_table(guest, kiobench_module, make_nullb):
    # IOPS = QD / latency as long as the gap between completion and
    # resubmission stays small next to the latency: the latency is 40 x QD4 x
    # the measured QD1 gap, at least 5 ms (the gap is ~0.1 ms on Debian's
    # kernels, ~1 ms on the debug kernel); each step 20 latencies long
    injected = max(5_000_000, int(160 * resubmit_gap_ns(guest, make_nullb)))
    runtime_ms = max(1000, 20 * injected // 1_000_000)
    dev = make_nullb("nullb0", completion_nsec=injected, size_mb=64)
    doc = sweep(guest, f"--filename={dev} --rw=randread --iodepth=1,2,4 --runtime={runtime_ms}ms "
                       f"--ramp_time=300ms")
    st = steps(doc)
    assert doc["parts"][0]["variable"] == "iodepth"
    assert [s["x"] for s in st] == [1, 2, 4]
    for s in st:
        r, job = s["read"], s["jobs"][0]
        assert s["config"]["iodepth"] == s["x"] and s["config"]["total_qd"] == s["x"]
        assert s["direction"] == "read"
        # the summary is the job's: samples behind the percentiles = measured I/Os
        assert r["ios"] == r["samples"] == job["read"]["total_ios"] > 0
        assert job["kiobench"]["ramp_ios"]["read"] > 0     # warm-up excluded
        assert r["all_ios"] == r["ios"] + job["kiobench"]["ramp_ios"]["read"]
        assert sum(t["read"]["ios"] for t in job["kiobench"]["timeline"]) == r["all_ios"]
        lat = r["lat_ns"]
        assert injected <= lat["p50"] <= lat["p99"] <= lat["p99.9"] <= lat["max"] * 1.008
        assert r["iops"] == pytest.approx(job["read"]["iops"], rel=1e-3)
        # Little's law: what the step kept in flight is the depth asked
        depth = r["iops"] * lat["mean"] / 1e9
        assert abs(depth / s["x"] - 1) <= 0.1, f"QD{s['x']}: IOPS x mean = {depth:.2f}"
    ratio = st[2]["read"]["iops"] / st[0]["read"]["iops"]
    assert 3.4 <= ratio <= 4.6, f"QD4/QD1 IOPS = {ratio:.2f}"
    # the normal table: one row per step
    out = guest.check(f"kiobench sweep --filename={dev} --iodepth=1-2 --number_ios=50")
    rows = table(out)
    assert [(r["value"], r["dir"], r["samples"]) for r in rows] == \
        [("1", "read", "50"), ("2", "read", "50")]
    assert all(float(r["cpu_ns/io"]) > 0 for r in rows), rows  # the workers' CPU per I/O
    # null_blk has no hwmon sensors: the sensor columns say so
    assert all(r["temp_C"] == r["power_W"] == "-" for r in rows), rows


def test_split_qd_and_byte_limit_and_idle(guest, kiobench_module, make_nullb):
    """--split-qd divides each step's depth among workers: the workers and
    depth each step's job ran with are the kernel's (its settings), not
    the step's config, which only says what the tool meant to ask.
    Mutation: tools/nl.c sending job->iodepth + 1 as iodepth: the step
    configs still say 1, 2 and 7: red."""
    dev = make_nullb("nullb0", size_mb=64)
    doc = sweep(guest, f"--filename={dev} --rw=randread --iodepth=4,6,7 --split-qd=4 "
                       f"--io_size=1M --runtime=30 --idle=400ms")
    st = steps(doc)
    # total in flight = target: the largest worker count <= 4 dividing it
    assert [(s["config"]["numjobs"], s["config"]["iodepth"]) for s in st] == \
        [(4, 1), (3, 2), (1, 7)]
    for s in st:
        kb = s["jobs"][0]["kiobench"]
        assert kb["nr_workers"] == s["config"]["numjobs"]
        assert (kb["settings"]["numjobs"], kb["settings"]["iodepth"]) == \
            (s["config"]["numjobs"], s["config"]["iodepth"]), kb["settings"]
        assert job_bytes(s) == 1 << 20           # the byte limit came first
    # without --split-qd the depth is per worker and --numjobs holds
    doc = sweep(guest, f"--filename={dev} --iodepth=1,3 --numjobs=2 --number_ios=100")
    assert [(s["config"]["numjobs"], s["config"]["iodepth"], s["config"]["total_qd"])
            for s in steps(doc)] == [(2, 1, 2), (2, 3, 6)]
    assert [s["jobs"][0]["kiobench"]["nr_workers"] for s in steps(doc)] == [2, 2]
    # the idle time between steps, measured by the tool
    assert all(s["idle_ns"] >= 400e6 for s in st[:-1]), [s["idle_ns"] for s in st]
    assert st[-1]["idle_ns"] == 0


def test_bs_sweep_csv(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=64)
    out = guest.check(f"kiobench sweep --filename={dev} --rw=read --bs=4k,16k,64k "
                      f"--io_size=2M --output-format=csv 2>/tmp/stderr")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["value"], r["dir"], int(r["bs"])) for r in rows] == \
        [("4k", "read", 4096), ("16k", "read", 16384), ("64k", "read", 65536)]
    for r in rows:
        assert int(r["bytes"]) == 2 << 20
        assert int(r["ios"]) == int(r["samples"]) == (2 << 20) // int(r["bs"])
    # the device was never written: the warning goes to stderr, not into the CSV
    assert "all-zero block" in guest.check("cat /tmp/stderr")


@pytest.mark.device
def test_read_sweep(guest, kiobench_module, test_dev):
    """A QD sweep of reads on any device: one step per depth, each step's
    summary is its job's, counts are exact and nothing is written."""
    doc = sweep(guest, f"--filename={test_dev} --rw=randread --iodepth=1,2,4 --number_ios=300")
    assert doc["parts"][0]["variable"] == "iodepth"
    st = steps(doc)
    assert [s["x"] for s in st] == [1, 2, 4]
    for s in st:
        r, job = s["read"], s["jobs"][0]
        assert s["config"]["iodepth"] == s["x"] and s["config"]["devices"] == [test_dev]
        assert r["ios"] == r["samples"] == job["read"]["total_ios"] == 300
        assert s["write"]["ios"] == 0 and set(job["kiobench"]["errors"].values()) == {0}
        assert sum(t["read"]["ios"] for t in job["kiobench"]["timeline"]) == r["all_ios"]


def test_mixed_sweep_reports_both_directions(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=64)
    out = guest.check(f"kiobench sweep --filename={dev} --rw=randrw --numjobs=1,2 "
                      f"--number_ios=400 --allow-writes --output-format=csv 2>/tmp/stderr")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["value"], r["dir"]) for r in rows] == \
        [("1", "read"), ("1", "write"), ("2", "read"), ("2", "write")]
    for v in ("1", "2"):
        assert sum(int(r["ios"]) for r in rows if r["value"] == v) == 400


@pytest.mark.timing
def test_bursts_duty_cycle(guest, kiobench_module, make_nullb):
    # 1 ms per 4k I/O at QD1: a 1 MiB burst is ~0.3 s of busy time
    dev = make_nullb("nullb0", completion_nsec=1_000_000, size_mb=64)
    doc = sweep(guest, f"--filename={dev} --rw=randread --burst-size=1M --burst-total=4M "
                       f"--duty-cycle=25")
    part = doc["parts"][0]
    st = part["steps"]
    assert len(st) == 4
    assert all(job_bytes(s) == 1 << 20 for s in st)
    assert part["aggregate"]["read"]["all_bytes"] == 4 << 20
    duty = part["figures"]["duty_cycle"]
    busy, idle = part["figures"]["busy_ns"], part["figures"]["idle_ns"]
    assert duty == pytest.approx(100 * busy / (busy + idle), abs=0.01)
    assert abs(duty / 25 - 1) <= 0.05, f"achieved duty cycle {duty:.2f} %, asked 25 %"
    # fixed idle instead
    doc = sweep(guest, f"--filename={dev} --rw=randread --burst-size=256k --burst-total=512k "
                       f"--burst-idle=300ms")
    assert all(s["idle_ns"] >= 300e6 for s in steps(doc))


def test_bursts_take_a_one_value_list_as_every_bursts(guest, kiobench_module, make_nullb):
    """Bursts are the steps: --bs=64k, a list of one value, is every
    burst's block size (the man page's burst example has --bs=128k), while
    a list of several values is refused.  Mutation: sweep_variable()
    taking the one-value --bs as the swept variable beside bursts (as
    before the fix): red (exit 1, "--bs has a list")."""
    dev = make_nullb("nullb0", size_mb=64)
    doc = sweep(guest, f"--filename={dev} --rw=read --bs=64k --burst-size=256k "
                       f"--burst-total=768k --burst-idle=10ms")
    part = doc["parts"][0]
    assert part["variable"] == "burst" and len(part["steps"]) == 3
    for s in part["steps"]:
        assert job_bytes(s) == 256 << 10 and s["read"]["ios"] == 4, s["read"]
    r = guest.run(f"kiobench sweep --filename={dev} --bs=4k,8k --burst-size=256k "
                  f"--burst-total=768k")
    assert r.rc == 1 and "--bs has a list" in r.out, r.out


def test_writes_are_refused(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=16)
    for cmd in (f"sweep --filename={dev} --rw=randwrite --iodepth=1,2",
                f"precondition --filename={dev}",
                f"suite 001 --filename={dev} --quick",
                f"suite 004-raid0-scaling --filename={dev} --quick"):
        r = guest.run(f"kiobench {cmd}")
        assert r.rc == 1 and "--allow-writes" in r.out, (cmd, r.out)
    assert "RUNNING" not in guest.check("kiobench list")


def test_precondition_writes_exactly(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=64)
    doc = sweep(guest, f"--filename={dev} --allow-writes --size=8M --passes=2 --iodepth=8",
                cmd="precondition")
    pre = doc["precondition"]
    assert pre["span"] == 8 << 20
    assert pre["fill_bytes"] == 8 << 20
    assert pre["round_bytes"] == 2 * (8 << 20)
    assert pre["written_bytes"] == 3 * (8 << 20)
    fill, rnd = doc["parts"]
    assert fill["steps"][0]["config"]["rw"] == "write"
    # what the figures and plots are about: the direction that did I/O
    assert all(s["direction"] == "write" for s in fill["steps"] + rnd["steps"])
    assert [job_bytes(s, "write") for s in rnd["steps"]] == [8 << 20, 8 << 20]
    assert all(job_bytes(s, "read") == 0 for s in rnd["steps"])
    # steady state: at least the window, at most --max-rounds
    doc = sweep(guest, f"--filename={dev} --allow-writes --size=4M --no-fill --passes=0 "
                       f"--steady-state --max-rounds=7 --round-size=1M", cmd="precondition")
    ss = doc["precondition"]["steady_state"]
    assert 5 <= ss["rounds"] <= 7
    assert ss["reached"] == (ss["rounds"] < 7 or (ss["max_deviation_pct"] <= 20
                                                  and ss["excursion_pct"] <= 10))
    assert doc["precondition"]["written_bytes"] == ss["rounds"] << 20


@pytest.mark.timing
def test_devices_sweep(guest, kiobench_module, make_nullb):
    devs = [make_nullb(f"nullb{i}", completion_nsec=5_000_000, size_mb=16) for i in range(3)]
    doc = sweep(guest, f"--filename={':'.join(devs)} --rw=randread --iodepth=2 "
                       f"--devices=1-3 --runtime=1")
    st = steps(doc)
    assert [len(s["jobs"]) for s in st] == [1, 2, 3]
    assert [s["config"]["devices"] for s in st] == [devs[:1], devs[:2], devs]
    for s in st:
        assert s["read"]["ios"] == sum(j["read"]["total_ios"] for j in s["jobs"])
        assert s["read"]["iops"] == pytest.approx(sum(j["read"]["iops"] for j in s["jobs"]),
                                                  rel=1e-3)
    for k, s in enumerate(st, 1):
        # the k jobs ran at the same time: one after the other would take k s
        assert s["busy_ns"] < 1.6e9, (k, s["busy_ns"])
        assert all(j["kiobench"]["measured_ns"] >= 1e9 for j in s["jobs"])
    # and the throughput grows with them (loosely: 3 devices x 2 timers on a
    # TCG guest whose host may be busy lose some depth to wake-up delays)
    one = st[0]["read"]["iops"]
    for k, s in enumerate(st, 1):
        assert s["read"]["iops"] / one >= 0.6 * k, (k, s["read"]["iops"], one)
    # the table: the aggregate, then each device of the step
    out = guest.check(f"kiobench sweep --filename={':'.join(devs[:2])} --devices=1-2 "
                      f"--number_ios=100")
    rows = table(out)
    assert [(r["value"], r["samples"]) for r in rows] == \
        [("1", "100"), ("2", "200"), ("nullb0", "100"), ("nullb1", "100")]
    # and the CSV: the step's aggregate (no device), then one row per device
    out = guest.check(f"kiobench sweep --filename={':'.join(devs[:2])} --devices=1-2 "
                      f"--number_ios=100 --output-format=csv 2>/tmp/stderr")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["value"], r["device"], r["ios"]) for r in rows] == \
        [("1", "", "100"), ("2", "", "200"), ("2", devs[0], "100"), ("2", devs[1], "100")]


def test_suite_datacenter_quick_and_plot(guest, kiobench_module, make_nullb, tmp_path):
    # not memory-backed: 2 GiB costs no guest memory; --quick scales it to 8 MiB
    dev = make_nullb("nullb0", completion_nsec=200_000, size_mb=2048, memory_backed=False)
    doc = sweep(guest, f"001 --filename={dev} --quick --allow-writes", cmd="suite",
                timeout=240)
    assert doc["suite"] == "001-datacenter"
    names = [p["name"] for p in doc["parts"]]
    assert names == ["fill", "random", "randread-qd", "randwrite-qd"]
    pre = doc["precondition"]
    assert pre["span"] == 8 << 20
    assert pre["fill_bytes"] == pre["round_bytes"] == 8 << 20
    assert pre["written_bytes"] == 16 << 20
    assert all(s["config"]["size"] == 8 << 20 for p in doc["parts"][2:] for s in p["steps"])
    rd = doc["parts"][2]
    assert [s["x"] for s in rd["steps"]] == [1, 2, 4, 8, 16, 32, 64, 128]
    f = rd["figures"]
    qd32 = next(s for s in rd["steps"] if s["x"] == 32)
    assert f["mean_latency_ns_qd32"] == pytest.approx(qd32["read"]["lat_ns"]["mean"], rel=1e-3)
    maxima = [m["max_ns"] for m in f["max_latency"]]
    assert f["average_of_max_latency_ns"] == pytest.approx(sum(maxima) / 8, rel=1e-3)
    assert "saturation" in f
    # the charts, on the host
    pngs = [x.name for x in plot(doc, tmp_path, "--log")]
    assert "randread-qd-iops.png" in pngs and "randread-qd-latency.png" in pngs, pngs


@pytest.mark.timing
def test_suite_bursts_quick(guest, kiobench_module, make_nullb):
    # client-random: bursts at 20 % duty, then sustained QD sweeps with idle between
    dev = make_nullb("nullb0", completion_nsec=100_000, size_mb=1024, memory_backed=False)
    doc = sweep(guest, f"003 --filename={dev} --quick --allow-writes", cmd="suite",
                timeout=240)
    parts = {p["name"]: p for p in doc["parts"]}
    assert list(parts) == ["fill", "burst-randread", "sustained-randread",
                           "burst-randwrite", "sustained-randwrite"]
    for name in ("burst-randread", "burst-randwrite"):
        p = parts[name]
        assert p["variable"] == "burst" and len(p["steps"]) >= 4
        size = job_bytes(p["steps"][0], "read" if "read" in name else "write")
        assert size >= 1 << 20
        duty = p["figures"]["duty_cycle"]
        assert abs(duty / 20 - 1) <= 0.05, f"{name}: achieved {duty:.2f} %, asked 20 %"
    for name in ("sustained-randread", "sustained-randwrite"):
        p = parts[name]
        assert [s["x"] for s in p["steps"]] == [1, 2, 4, 8, 16, 32]
        score = p["figures"]["score_qd1_2_4"]["iops"]
        d = "read" if "read" in name else "write"
        assert score == pytest.approx(sum(s[d]["iops"] for s in p["steps"][:3]) / 3, rel=1e-3)
        # 1 minute of idle between QDs, scaled by 0.004
        assert all(s["idle_ns"] >= 0.24e9 for s in p["steps"][:-1])


# timing: the signal's time is the guest's, 0.6 s from a step's edge; a
# guest starved beside the timing tests had not begun its second step at 5.5 s
@pytest.mark.timing
@pytest.mark.parametrize("when", ["step", "idle"])
def test_sigint_ends_sweep_with_partial_results(guest, kiobench_module, make_nullb, when):
    dev = make_nullb("nullb0", size_mb=64)
    # steps of 2 s with 2 s idle: INT at 3 s falls in the idle time after the
    # first step, at 5.5 s in the second step (0.6 s or more from either edge)
    at = 3 if when == "idle" else 5.5
    r = guest.run(f"timeout -s INT {at} kiobench sweep --filename={dev} --iodepth=1-8 "
                  f"--runtime=2 --idle=2 --output-format=json --output={OUT}; echo rc=$?",
                  timeout=60)
    assert "rc=0" in r.out, r.out
    doc = json.loads(guest.check(f"cat {OUT}"))
    assert doc["interrupted"] is True
    st = steps(doc)
    assert len(st) == (1 if when == "idle" else 2), [s["x"] for s in st]
    if when == "step":
        assert st[-1]["jobs"][0]["kiobench"]["state"] == "STOPPED"
    # no job is left in the kernel: the list has its header only
    assert len(guest.check("kiobench list").strip().splitlines()) == 1


def plot(doc: dict, tmp_path: Path, *args: str) -> list[Path]:
    """kiobench-plot on the host; the PNGs it drew (each with its SVG)."""
    res = tmp_path / "res.json"
    res.write_text(json.dumps(doc))
    out = tmp_path / "charts"
    p = subprocess.run([str(PLOT), str(res), "-o", str(out), *args],
                       capture_output=True, text=True, timeout=180)
    assert p.returncode == 0, p.stderr
    pngs = sorted(out.glob("*.png"))
    assert pngs and all(x.stat().st_size > 5000 for x in pngs), pngs
    assert len(list(out.glob("*.svg"))) == len(pngs)
    return pngs


@pytest.mark.budget(60)
def test_suite_enterprise_quick(guest, kiobench_module, make_nullb, tmp_path):
    # transfer-size and QD sweeps (QD 1..64 split over up to four workers),
    # after two random-write passes over the (scaled) span
    dev = make_nullb("nullb0", completion_nsec=100_000, size_mb=2048, memory_backed=False)
    # a quarter of --quick: the minimum step time (200 ms) still holds
    # samples enough, and what is checked is the shape of the suite
    doc = sweep(guest, f"000 --filename={dev} --scale=0.001 --allow-writes", cmd="suite",
                timeout=900)
    assert doc["suite"] == "000-enterprise"
    parts = {p["name"]: p for p in doc["parts"]}
    assert doc["precondition"]["written_bytes"] == 2 * doc["precondition"]["span"]
    bs = [512 << i for i in range(12)]  # 512 .. 1m, doubling
    qds = list(range(1, 17)) + [18, 20] + list(range(24, 65, 4))
    for d in ("read", "write"):
        assert [s["x"] for s in parts[f"qd1-rand{d}-bs"]["steps"]] == bs
        st = parts[f"rand{d}-qd"]["steps"]
        assert [s["x"] for s in st] == qds
        for s in st:  # the total depth split evenly over up to four workers
            cfg = s["config"]
            assert cfg["numjobs"] <= 4 and cfg["total_qd"] == s["x"], (s["x"], cfg)
            assert cfg["numjobs"] * cfg["iodepth"] == s["x"], (s["x"], cfg)
            assert s["jobs"][0]["kiobench"]["nr_workers"] == cfg["numjobs"]
            # each step did its direction's I/O: counted from the step's
            # start (all_ios), as a guest starved beside the timing tests
            # once completed none in a step's 200 ms measured window
            assert s[d]["all_ios"] > 0, (d, s["x"], s[d], s["jobs"][0]["kiobench"])
        assert [s["config"]["numjobs"] for s in st[:8]] == [1, 2, 3, 4, 1, 3, 1, 4]
        assert "saturation" in parts[f"rand{d}-qd"]["figures"]
    names = {p.name for p in plot(doc, tmp_path)}
    assert {"randread-qd-iops.png", "qd1-randread-bs-throughput.png"} <= names, names


@pytest.mark.timing
def test_suite_client_seq_quick(guest, kiobench_module, make_nullb, tmp_path):
    dev = make_nullb("nullb0", completion_nsec=100_000, size_mb=2048, memory_backed=False)
    doc = sweep(guest, f"002 --filename={dev} --quick --allow-writes", cmd="suite",
                timeout=600)
    parts = {p["name"]: p for p in doc["parts"]}
    assert list(parts) == ["fill", "burst-read", "sustained-read", "burst-write",
                           "sustained-write"]
    for name in ("burst-read", "burst-write"):
        duty = parts[name]["figures"]["duty_cycle"]
        assert abs(duty / 20 - 1) <= 0.05, f"{name}: achieved {duty:.2f} %, asked 20 %"
    for name in ("sustained-read", "sustained-write"):
        p = parts[name]
        assert [s["x"] for s in p["steps"]] == [1, 2, 4, 8, 16, 32]
        assert p["figures"]["score_qd1_2_4"]["iops"] > 0
    plot(doc, tmp_path)


@pytest.mark.budget(45)
def test_suite_raid0_scaling_side_by_side_quick(guest, kiobench_module, make_nullb, tmp_path):
    # memory-backed: the fill writes what the reads then read (4 MiB each,
    # scaled), so no read sees never-written blocks
    devs = [make_nullb(f"nullb{i}", completion_nsec=100_000, size_mb=1024) for i in range(4)]
    # reads of never-written blocks are flagged (the steps' sum, once a part)
    r = guest.run(f"kiobench sweep --filename={devs[0]} --iodepth=1,2 --number_ios=50")
    assert r.rc == 0 and r.out.count("all-zero block") == 1, r.out
    assert "iodepth=1: 50 of 50 reads returned an all-zero block" in r.out, r.out
    r = guest.run(f"kiobench suite 004 --filename={':'.join(devs)} --scale=0.001 "
                  f"--allow-writes --output-format=json --output={OUT}", timeout=900)
    assert r.rc == 0, r.out
    assert "all-zero" not in r.out, r.out
    doc = json.loads(guest.check(f"cat {OUT}"))
    parts = {p["name"]: p for p in doc["parts"]}
    for k in range(1, 5):
        for kind in ("randread", "seqread"):
            st = parts[f"{kind}-qd-{k}dev"]["steps"]
            assert [s["x"] for s in st] == [1, 2, 3, 4, 8, 16, 32]
            assert all(len(s["jobs"]) == k for s in st)
            assert all(s["jobs"][0]["kiobench"]["zero_reads"] == 0 for s in st)
    sc = parts["seqread-qd32-devices"]
    assert [len(s["jobs"]) for s in sc["steps"]] == [1, 2, 3, 4]
    one = sc["figures"]["mb_s_devices_1"]
    for k in (2, 3, 4):
        pct = sc["figures"][f"linear_scaling_pct_devices_{k}"]
        assert pct == pytest.approx(100 * sc["figures"][f"mb_s_devices_{k}"] / (k * one),
                                    rel=1e-3)
    names = {p.name for p in plot(doc, tmp_path)}
    assert any("devices" in n for n in names), names


def test_suite_raid0_scaling_on_md_raid0_quick(guest, kiobench_module, make_nullb, tmp_path):
    # raid0-scaling as its review ran it: on an md RAID-0 (here of two null_blk)
    members = [make_nullb(f"nullb{i}", completion_nsec=100_000, size_mb=512)
               for i in range(2)]
    md = md_raid0(guest, "md0", members)
    try:
        r = guest.run(f"kiobench suite 004 --filename={md} --quick --allow-writes "
                      f"--output-format=json --output={OUT}", timeout=600)
        assert r.rc == 0, r.out
        for part in ("randread-qd-2dev", "seqread-qd32-devices"):
            assert f"part {part} needs more devices" in r.out, r.out
        doc = json.loads(guest.check(f"cat {OUT}"))
        parts = {p["name"]: p for p in doc["parts"]}
        assert list(parts) == ["fill", "randread-qd-1dev", "seqread-qd-1dev"]
        assert parts["fill"]["steps"][0]["write"]["bytes"] == doc["precondition"]["span"]
        for p in list(parts.values())[1:]:
            assert [s["x"] for s in p["steps"]] == [1, 2, 3, 4, 8, 16, 32]
            for s in p["steps"]:
                assert s["config"]["devices"] == [md]
                # from the step's start, not its measured window (as above)
                assert s["read"]["all_ios"] > 0 and s["jobs"][0]["kiobench"]["zero_reads"] == 0
        plot(doc, tmp_path)
    finally:
        md_stop(guest, md)
