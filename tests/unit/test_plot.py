# SPDX-License-Identifier: GPL-2.0
"""tools/kiobench-plot on result documents of the shape kiobench writes
(Documentation/kiobench.rst, "Output formats"); the guest suite plots a
real one.  Needs matplotlib (tests/install-deps.sh)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

PLOT = Path(__file__).resolve().parents[2] / "tools" / "kiobench-plot"
pytest.importorskip("matplotlib")


def summary(iops: float, bs: int, lat_us: float) -> dict:
    lat = {k: int(lat_us * 1000 * f) for k, f in
           (("min", 0.5), ("max", 9), ("p50", 1), ("p99", 2), ("p99.9", 3), ("p99.99", 4),
            ("p99.999", 5))}
    lat["mean"] = lat_us * 1000
    return {"ios": int(iops), "bytes": int(iops) * bs, "iops": iops, "mb_s": iops * bs / 1e6,
            "bw_bytes": iops * bs, "samples": int(iops), "lat_ns": lat}


def step(var: str, x: int, iops: float, bs: int = 4096, devices=("/dev/a",)) -> dict:
    jobs = [{"read": {"bw_bytes": iops * bs / len(devices)},
             "kiobench": {"devices": [d]}} for d in devices]
    return {"variable": var, "x": x, "value": str(x), "busy_ns": 1, "idle_ns": 0,
            "read": summary(iops, bs, 100 + x), "write": summary(0, bs, 0), "jobs": jobs}


def doc(scale: float) -> dict:
    qd = [step("iodepth", q, scale * min(q, 16) * 1000) for q in (1, 2, 3, 4, 8, 16, 32)]
    bs = [step("bs", b, scale * 1000, bs=b) for b in (512, 4096, 65536, 1 << 20)]
    dv = [step("devices", k, scale * k * 900, devices=[f"/dev/d{i}" for i in range(k)])
          for k in (1, 2, 3, 4)]
    bu = [step("burst", i, scale * 500) for i in (1, 2, 3, 4)]
    return {"command": "suite", "parts": [
        {"name": "randread-qd-1dev", "title": "qd", "variable": "iodepth", "steps": qd,
         "figures": {"saturation": "16"}},
        {"name": "randread-qd-2dev", "title": "qd", "variable": "iodepth", "steps": qd,
         "figures": {}},
        {"name": "bs", "title": "bs", "variable": "bs", "steps": bs, "figures": {}},
        {"name": "devs", "title": "devices", "variable": "devices", "steps": dv, "figures": {}},
        {"name": "burst", "title": "bursts", "variable": "burst", "steps": bu, "figures": {}},
        {"name": "empty", "title": "nothing ran", "variable": "iodepth", "steps": []},
    ]}


def test_charts_of_every_kind(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(doc(1)))
    b.write_text(json.dumps(doc(2)))
    p = subprocess.run([sys.executable, str(PLOT), str(a), str(b), "--log", "-o",
                        str(tmp_path / "out")], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    names = sorted(f.name for f in (tmp_path / "out").iterdir())
    want = {f"{n}.{e}" for e in ("png", "svg") for n in (
        "randread-qd-iops", "randread-qd-latency", "randread-qd-qd1-4", "bs-iops",
        "bs-latency", "bs-throughput", "devs-iops", "devs-latency", "devs-scaling",
        "burst-bursts")}
    assert set(names) == want, names
    # it prints the first format's file of each chart
    assert sorted(Path(x).name for x in p.stdout.split()) == \
        sorted(n for n in want if n.endswith(".png"))
    assert all((tmp_path / "out" / n).stat().st_size > 5000 for n in names)


def test_not_a_result(tmp_path):
    f = tmp_path / "run.json"
    f.write_text(json.dumps({"jobs": []}))
    p = subprocess.run([sys.executable, str(PLOT), str(f)], capture_output=True, text=True)
    assert p.returncode != 0
    assert "not a sweep/suite result" in p.stderr


def test_bad_format(tmp_path):
    f = tmp_path / "a.json"
    f.write_text(json.dumps(doc(1)))
    p = subprocess.run([sys.executable, str(PLOT), str(f), "--format=jpg"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "--format: invalid format 'jpg'" in p.stderr
