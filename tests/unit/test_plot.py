# SPDX-License-Identifier: GPL-2.0
"""tools/kiobench-plot on result documents of the shape kiobench writes
(Documentation/kiobench.rst, "Output formats"); the guest suite plots a
real one.  Needs matplotlib (tests/install-deps.sh).

What is checked is what is drawn, read back from the SVG charts: every
series (one line per result file and device count), its legend label, the
number of its points and where each point sits: each axes' points must be
one linear (or, on a log axis, logarithmic) image of the values in the
JSON, so a point drawn from the wrong step, direction, statistic or file
is off the line the others define.  Axis labels, panel titles and tick
labels are read as text: the test's matplotlibrc (svg.fonttype: none)
keeps text as <text> instead of glyph outlines, and changes nothing else.
"""
from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import pytest

PLOT = Path(__file__).resolve().parents[2] / "tools" / "kiobench-plot"
pytest.importorskip("matplotlib")

SVG = "{http://www.w3.org/2000/svg}"
HREF = "{http://www.w3.org/1999/xlink}href"
LAT = [("mean", "mean"), ("p50", "median"), ("p99", "99th percentile"),
       ("p99.999", "99.999th percentile")]


# ---- result documents ----------------------------------------------------------

def summary(iops: float, bs: int, lat_us: float) -> dict:
    lat = {k: int(lat_us * 1000 * f) for k, f in
           (("min", 0.5), ("max", 9), ("p50", 1), ("p99", 2), ("p99.9", 3), ("p99.99", 4),
            ("p99.999", 5))}
    lat["mean"] = lat_us * 1000 * 1.1
    return {"ios": int(iops), "bytes": int(iops) * bs, "iops": iops, "mb_s": iops * bs / 1e6,
            "bw_bytes": iops * bs, "samples": int(iops), "lat_ns": lat}


def step(var: str, x: int, iops: float, bs: int = 4096, devices=("/dev/a",),
         lat_us: float | None = None, shares=None) -> dict:
    shares = shares or [1 / len(devices)] * len(devices)
    jobs = [{"read": {"bw_bytes": iops * bs * f}, "kiobench": {"devices": [d]}}
            for d, f in zip(devices, shares)]
    return {"variable": var, "x": x, "value": str(x), "busy_ns": 1, "idle_ns": 0,
            "direction": "read", "read": summary(iops, bs, 100 + x if lat_us is None else lat_us),
            "write": summary(0, bs, 0), "jobs": jobs}


def doc(scale: float) -> dict:
    """Values differ between files, parts, steps and statistics, and are
    not monotonic, so that a point taken from the wrong one is misplaced."""
    def qd(k):
        return [step("iodepth", q, scale * k * min(q, 16) * 1000 * (1.3 if q == 3 else 1),
                     lat_us=scale * k * (50 + 7 * q + 40 * (q == 4)))
                for q in (1, 2, 3, 4, 8, 16, 32)]
    bs = [step("bs", b, scale * 1000 * (1 + i % 3), bs=b) for i, b in
          enumerate((512, 4096, 65536, 1 << 20))]
    dv = [step("devices", k, scale * k ** 0.8 * 900, devices=[f"/dev/d{i}" for i in range(k)],
               shares=[(i + 1) / (k * (k + 1) / 2) for i in range(k)]) for k in (1, 2, 3, 4)]
    bu = [step("burst", i, scale * 500 * (1 + (i % 2)), bs=8192 * i) for i in (1, 2, 3, 4)]
    return {"command": "suite", "parts": [
        {"name": "randread-qd-1dev", "title": "qd, 1 device(s)", "variable": "iodepth",
         "steps": qd(1), "figures": {"saturation": "16"}},
        {"name": "randread-qd-2dev", "title": "qd, 2 device(s)", "variable": "iodepth",
         "steps": qd(1.5), "figures": {}},
        {"name": "bs", "title": "bs", "variable": "bs", "steps": bs, "figures": {}},
        {"name": "devs", "title": "devices", "variable": "devices", "steps": dv, "figures": {}},
        {"name": "burst", "title": "bursts", "variable": "burst", "steps": bu, "figures": {}},
        {"name": "empty", "title": "nothing ran", "variable": "iodepth", "steps": []},
    ]}


# ---- reading an SVG chart back -------------------------------------------------

Point = tuple[float, float]


@dataclass
class Axes:
    box: tuple[float, float, float, float]  # left, top, right, bottom (SVG: y grows down)
    xlabel: str = ""
    ylabel: str = ""
    xticks: list[tuple[str, float]] = field(default_factory=list)  # (label, pixel)
    yticks: list[tuple[str, float]] = field(default_factory=list)
    lines: list[list[Point]] = field(default_factory=list)  # the data lines' points
    bars: list[tuple[float, float, float]] = field(default_factory=list)  # centre x, top, bottom
    legend: list[str] = field(default_factory=list)
    texts: list[tuple[str, float]] = field(default_factory=list)  # title, notes: (text, x)


@dataclass
class Chart:
    title: str
    axes: list[Axes]


def _gid(e: ET.Element, prefix: str) -> bool:
    return e.tag == f"{SVG}g" and e.get("id", "").startswith(prefix)


def _vertices(d: str) -> list[Point]:
    return [(float(x), float(y)) for x, y in re.findall(r"[ML]\s*(-?[\d.]+)\s+(-?[\d.]+)", d)]


def _texts(e: ET.Element) -> list[str]:
    return ["".join(t.itertext()).strip() for t in e.iter(f"{SVG}text")]


def _line(g: ET.Element) -> list[Point]:
    """A Line2D's points: its markers, or (no markers) its path's vertices."""
    marks = [(float(u.get("x")), float(u.get("y"))) for u in g.iter(f"{SVG}use")]
    if marks:
        return marks
    path = g.find(f"{SVG}path")
    return _vertices(path.get("d")) if path is not None else []


def _axis(g: ET.Element, tick: str, xy: str) -> tuple[str, list[tuple[str, float]]]:
    """The axis' label, and its labelled ticks: (label, the tick mark's pixel)."""
    ticks = []
    for c in g:
        if _gid(c, tick):
            labels = [t for t in _texts(c) if t]
            marks = [float(u.get(xy)) for u in c.iter(f"{SVG}use")]
            if labels and marks:
                ticks.append((labels[0], marks[0]))
    texts = [t for c in g if _gid(c, "text_") for t in _texts(c)]
    # a ScalarFormatter's offset or multiplier ("1e6") would be a second text
    assert len(texts) <= 1, f"axis texts {texts}: tick labels with an offset are not read"
    return (texts[0] if texts else ""), ticks


def _axes(g: ET.Element) -> Axes:
    children = list(g)
    bg = _vertices(children[0].find(f"{SVG}path").get("d"))  # the axes' background patch
    xs, ys = [p[0] for p in bg], [p[1] for p in bg]
    ax = Axes((min(xs), min(ys), max(xs), max(ys)))
    for c in children[1:]:
        if _gid(c, "matplotlib.axis_"):  # numbered across the figure: x, then y
            if any(_gid(t, "xtick_") for t in c):
                ax.xlabel, ax.xticks = _axis(c, "xtick_", "x")
            else:
                ax.ylabel, ax.yticks = _axis(c, "ytick_", "y")
        elif _gid(c, "line2d_"):
            ax.lines.append(_line(c))
        elif _gid(c, "legend_"):
            ax.legend = _texts(c)
        elif _gid(c, "text_"):
            t = c.find(f"{SVG}text")
            ax.texts.append(("".join(t.itertext()).strip(), float(t.get("x"))))
        elif _gid(c, "patch_"):
            path = c.find(f"{SVG}path")
            if path.get("clip-path") and path.get("d").rstrip().endswith("z"):  # a bar
                v = _vertices(path.get("d"))
                bx, by = [p[0] for p in v], [p[1] for p in v]
                ax.bars.append(((min(bx) + max(bx)) / 2, min(by), max(by)))
    return ax


def read_chart(path: Path) -> Chart:
    fig = ET.parse(path).getroot().find(f"{SVG}g[@id='figure_1']")
    assert fig is not None, f"{path}: no figure"
    titles = [t for c in fig if _gid(c, "text_") for t in _texts(c)]
    return Chart(titles[0] if titles else "", [_axes(c) for c in fig if _gid(c, "axes_")])


# ---- checking points against values --------------------------------------------

SUFFIX = {"k": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def tick_value(label: str) -> float | None:
    """The number a tick label shows: 500, 1e+06, 4k (KiB), QD4, 10^3 (as
    "10" and a superscript "3"); None if none."""
    power = re.fullmatch(r"10\s+(-?\d+)", label.replace("\u2212", "-"))
    if power:
        return 10.0 ** int(power.group(1))
    m = re.fullmatch(r"(?:QD)?([-\d.e+]+)([kMG]?)", label.replace("\u2212", "-"))
    return float(m.group(1)) * SUFFIX.get(m.group(2), 1) if m else None


def scale(ticks: list[tuple[str, float]], what: str, log: bool = False):
    """The axis' value -> pixel function, from its labelled ticks (each tick
    mark is where its label's value is drawn)."""
    pts = [(v, px) for label, px in ticks if (v := tick_value(label)) is not None]
    assert len(pts) >= 2, f"{what}: fewer than two numeric tick labels in {ticks}"
    (v0, p0), (v1, p1) = pts[0], pts[-1]
    f = math.log10 if log else float
    a = (p1 - p0) / (f(v1) - f(v0))
    for v, px in pts:  # the ticks themselves agree with that scale
        assert abs(p0 + a * (f(v) - f(v0)) - px) < 0.05, f"{what}: ticks {ticks} not {'log' if log else 'linear'}"
    return lambda v: p0 + a * (f(v) - f(v0))


def assert_at(pixels: list[float], values: list[float], to_px, what: str) -> None:
    """Each value is drawn where the axis' ticks put it."""
    assert len(pixels) == len(values), (what, pixels, values)
    want = [to_px(v) for v in values]
    worst = max(abs(w - p) for w, p in zip(want, pixels))
    assert worst < 0.05, f"{what}: points off their values by up to {worst:.2f} px:\n" \
                         f"values {values}\npixels {pixels}\nwanted {want}"


@dataclass
class Series:
    label: str
    xs: list[float]
    ys: list[float]


def assert_axes(ax: Axes, series: list[Series], what: str, *, xlog: bool = False,
                ylog: bool = False, y_from_zero: bool = True, yticks=None) -> None:
    """The axes draw exactly `series`, in order, with their legend labels,
    each point where its value is on the axes' tick scales (yticks: those of
    the axes whose y axis they share); on a linear axis from 0
    (y_from_zero), 0 is its bottom edge."""
    assert len(ax.lines) == len(series), \
        f"{what}: {len(ax.lines)} lines drawn, {len(series)} series in the JSON"
    assert ax.legend == [s.label for s in series], (what, ax.legend)
    xpx, ypx = scale(ax.xticks, f"{what}: x", xlog), scale(yticks or ax.yticks, f"{what}: y", ylog)
    for pts, s in zip(ax.lines, series):
        assert len(pts) == len(s.xs), \
            f"{what}: series {s.label!r} has {len(pts)} points drawn, {len(s.xs)} in the JSON"
        assert_at([p[0] for p in pts], s.xs, xpx, f"{what}: {s.label}: x")
        assert_at([p[1] for p in pts], s.ys, ypx, f"{what}: {s.label}: y")
    if y_from_zero and not ylog:
        assert ypx(0) == pytest.approx(ax.box[3], abs=0.05), f"{what}: y axis does not start at 0"


# ---- the tests -----------------------------------------------------------------

@pytest.fixture(scope="module")
def charts(tmp_path_factory) -> tuple[Path, dict[str, dict], subprocess.CompletedProcess]:
    """Two result files plotted together, with --log: (outdir, docs, process)."""
    tmp = tmp_path_factory.mktemp("plot")
    docs = {"a": doc(1), "b": doc(2)}
    for stem, d in docs.items():
        (tmp / f"{stem}.json").write_text(json.dumps(d))
    rc = tmp / "matplotlibrc"
    rc.write_text("svg.fonttype: none\n")
    p = subprocess.run([sys.executable, str(PLOT), str(tmp / "a.json"), str(tmp / "b.json"),
                        "--log", "-o", str(tmp / "out")], capture_output=True, text=True,
                       timeout=180, env=dict(os.environ, MATPLOTLIBRC=str(rc)))
    assert p.returncode == 0, p.stderr
    return tmp / "out", docs, p


def parts(docs: dict[str, dict], key: str) -> list[tuple[str, dict]]:
    """(legend label, part) of every part of `key` (its name less -Ndev),
    in file order.  The label names the file (by its stem, when there are
    several) and the device count, or else the part."""
    out = []
    for stem, d in docs.items():
        for p in d["parts"]:
            m = re.fullmatch(rf"{re.escape(key)}(?:-(\d+)dev)?", p["name"])
            if m and p["steps"]:
                label = " ".join(x for x in (stem if len(docs) > 1 else "",
                                             f"{m.group(1)} dev" if m.group(1) else "") if x)
                out.append((label or p["name"], p))
    return out


def series(docs, key: str, y) -> list[Series]:
    return [Series(label, [s["x"] for s in p["steps"]], [y(s) for s in p["steps"]])
            for label, p in parts(docs, key)]


def test_chart_files(charts):
    out, _, p = charts
    names = sorted(f.name for f in out.iterdir())
    want = {f"{n}.{e}" for e in ("png", "svg") for n in (
        "randread-qd-iops", "randread-qd-latency", "randread-qd-qd1-4", "bs-iops",
        "bs-latency", "bs-throughput", "devs-iops", "devs-latency", "devs-scaling",
        "burst-bursts")}
    assert set(names) == want, names
    # it prints the first format's file of each chart
    assert sorted(Path(x).name for x in p.stdout.split()) == \
        sorted(n for n in want if n.endswith(".png"))
    for n in names:
        if n.endswith(".png"):
            assert (out / n).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", n
        else:
            read_chart(out / n)  # well-formed, with a figure


def test_iops_chart(charts):
    out, docs, _ = charts
    c = read_chart(out / "randread-qd-iops.svg")
    assert c.title == "qd"  # the device count is in the legend, not the title
    assert len(c.axes) == 2
    for ax, (ylabel, key) in zip(c.axes, (("IOPS", "iops"), ("MB/s", "mb_s"))):
        assert (ax.xlabel, ax.ylabel) == ("queue depth", ylabel)
        want = series(docs, "randread-qd", lambda s, k=key: s["read"][k])
        assert [s.label for s in want] == ["a 1 dev", "a 2 dev", "b 1 dev", "b 2 dev"]
        assert_axes(ax, want, f"randread-qd-iops {ylabel}")
    # the saturation point of each part that has one, at its step's x
    ax = c.axes[0]
    notes = [x for t, x in ax.texts if t == "saturation"]
    sat = [(i, p) for i, (_, p) in enumerate(parts(docs, "randread-qd"))
           if p["figures"].get("saturation")]
    assert len(notes) == len(sat) == 2, ax.texts
    for x, (i, p) in zip(notes, sat):
        j = [s["value"] for s in p["steps"]].index(p["figures"]["saturation"])
        assert x == pytest.approx(ax.lines[i][j][0], abs=0.05)


def test_latency_chart(charts):
    out, docs, _ = charts
    c = read_chart(out / "randread-qd-latency.svg")
    assert len(c.axes) == len(LAT)
    for ax, (k, name) in zip(c.axes, LAT):
        assert name in [t for t, _ in ax.texts]
        assert (ax.xlabel, ax.ylabel) == ("queue depth", "latency (us)")
        # --log: one logarithmic latency axis for all panels (labelled on
        # the first), in microseconds
        assert ax.box[1::2] == c.axes[0].box[1::2]
        assert_axes(ax, series(docs, "randread-qd", lambda s: s["read"]["lat_ns"][k] / 1000),
                    f"latency {name}", ylog=True, yticks=c.axes[0].yticks)


def test_qd1_4_bars(charts):
    out, docs, _ = charts
    c = read_chart(out / "randread-qd-qd1-4.svg")
    [ax] = c.axes
    assert [label for label, _ in ax.xticks] == ["QD1", "QD2", "QD3", "QD4"]
    assert ax.ylabel == "IOPS"
    ps = parts(docs, "randread-qd")
    assert ax.legend == [label for label, _ in ps]
    assert len(ax.bars) == 4 * len(ps), ax.bars
    xpx, ypx = scale(ax.xticks, "bars: x"), scale(ax.yticks, "bars: y")
    width = 0.8 / len(ps)
    for i, (label, p) in enumerate(ps):  # one series of bars per part, side by side
        by = {s["x"]: s["read"]["iops"] for s in p["steps"]}
        bars = ax.bars[4 * i:4 * i + 4]
        qds = (1, 2, 3, 4)
        assert_at([x for x, _, _ in bars], [q + (i - (len(ps) - 1) / 2) * width for q in qds],
                  xpx, f"bars {label}: x")
        assert_at([top for _, top, _ in bars], [by[q] for q in qds], ypx, f"bars {label}: top")
        assert_at([bottom for _, _, bottom in bars], [0] * 4, ypx, f"bars {label}: bottom")


def test_throughput_chart(charts):
    out, docs, _ = charts
    c = read_chart(out / "bs-throughput.svg")
    assert [ax.ylabel for ax in c.axes] == ["MB/s (linear)", "MB/s (log)"]
    want = series(docs, "bs", lambda s: s["read"]["mb_s"])
    assert [s.label for s in want] == ["a", "b"]
    for ax in c.axes:
        assert ax.xlabel == "transfer size"
        assert [label for label, _ in ax.xticks] == ["512", "4k", "64k", "1M"]
    # transfer sizes on a log2 axis; the linear panel need not start at 0
    assert_axes(c.axes[0], want, "throughput linear", xlog=True, y_from_zero=False)
    assert_axes(c.axes[1], want, "throughput log", xlog=True, ylog=True)
    bs = read_chart(out / "bs-iops.svg")
    assert_axes(bs.axes[0], series(docs, "bs", lambda s: s["read"]["iops"]), "bs-iops",
                xlog=True)


def test_scaling_chart(charts):
    out, docs, _ = charts
    c = read_chart(out / "devs-scaling.svg")
    [ax] = c.axes
    assert (ax.xlabel, ax.ylabel) == ("devices", "MB/s")
    want, labels, lines = [], [], []
    for label, p in parts(docs, "devs"):
        st = p["steps"]
        xs = [s["x"] for s in st]
        agg = [s["read"]["mb_s"] for s in st]
        ideal = [agg[0] * x for x in xs]
        devs: dict[str, list[tuple[int, float]]] = {}
        for s in st:
            for j in s["jobs"]:
                devs.setdefault(j["kiobench"]["devices"][0], []).append(
                    (s["x"], j["read"]["bw_bytes"] / 1e6))
        want += [Series(f"{label} (all devices)", xs, agg), Series("linear scaling", xs, ideal)]
        want += [Series(d, [x for x, _ in pts], [y for _, y in pts]) for d, pts in devs.items()]
    assert [s.label for s in want][:6] == ["a (all devices)", "linear scaling", "/dev/d0",
                                           "/dev/d1", "/dev/d2", "/dev/d3"]
    # a device of one step is a single point: its line has no extent to
    # fit, so those points are checked with the rest of the axes only
    assert_axes(ax, want, "devs-scaling")


def test_bursts_chart(charts):
    out, docs, _ = charts
    c = read_chart(out / "burst-bursts.svg")
    assert c.title == "bursts" and len(c.axes) == 2
    for ax, (ylabel, key) in zip(c.axes, (("MB/s", "mb_s"), ("IOPS", "iops"))):
        assert (ax.xlabel, ax.ylabel) == ("burst", ylabel)
        assert_axes(ax, series(docs, "burst", lambda s, k=key: s["read"][k]), f"bursts {ylabel}")


def test_one_file_labels_parts_and_svg_only(tmp_path):
    """One result file: lines are labelled by part (device count) alone,
    and --format=svg writes SVG only."""
    plot_svg(tmp_path, doc(1))
    out = tmp_path / "out"
    assert {x.suffix for x in out.iterdir()} == {".svg"}
    docs = {"only": doc(1)}
    c = read_chart(out / "randread-qd-iops.svg")
    want = series(docs, "randread-qd", lambda s: s["read"]["iops"])
    assert [s.label for s in want] == ["1 dev", "2 dev"]
    assert_axes(c.axes[0], want, "one file")
    assert read_chart(out / "bs-iops.svg").axes[0].legend == ["bs"]
    # without --log the latency axes are linear from 0
    lat = read_chart(out / "randread-qd-latency.svg")
    assert_axes(lat.axes[0], series(docs, "randread-qd", lambda s: s["read"]["lat_ns"]["mean"]
                                    / 1000), "linear latency")


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


def stage_step(x: int, jobs: list[tuple[int, float, float, float]]) -> dict:
    """A step whose jobs carry --stages: (N, queue, device, complete) means
    in ns for each job's read direction."""
    s = step("iodepth", x, 1000 * x)
    s["jobs"] = [{"read": {"bw_bytes": 1}, "kiobench": {"devices": ["/dev/a"], "stages": {
        "read": {**{k: {"N": n, "mean": m} for k, m in zip(("queue", "device", "complete"),
                                                            (q, d, c))}, "unsplit": 0}}}}
        for n, q, d, c in jobs]
    return s


def plot_svg(tmp_path: Path, d: dict) -> None:
    """Plot result document d as SVG into tmp_path/out, text kept as text."""
    f = tmp_path / "doc.json"
    f.write_text(json.dumps(d))
    rc = tmp_path / "matplotlibrc"
    rc.write_text("svg.fonttype: none\n")
    p = subprocess.run([sys.executable, str(PLOT), str(f), "--format=svg", "-o",
                        str(tmp_path / "out")], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, MATPLOTLIBRC=str(rc)))
    assert p.returncode == 0, p.stderr


def test_stages_chart(tmp_path):
    """PART-stages: per step, the queue, device and complete means of its
    jobs (weighted by the I/Os each split) stacked, in microseconds; a step
    without stages has no bar, and a part without any has no chart."""
    steps = [stage_step(1, [(100, 2000, 50000, 3000)]),
             stage_step(2, [(100, 4000, 60000, 1000), (300, 8000, 20000, 5000)]),
             step("iodepth", 3, 3000),  # no stages
             stage_step(4, [(50, 16000, 90000, 2000)])]
    d = {"command": "sweep", "parts": [
        {"name": "qd", "title": "qd", "variable": "iodepth", "steps": steps, "figures": {}},
        {"name": "plain", "title": "plain", "variable": "iodepth",
         "steps": [step("iodepth", 1, 10)], "figures": {}}]}
    plot_svg(tmp_path, d)
    assert not (tmp_path / "out" / "plain-stages.svg").exists()
    c = read_chart(tmp_path / "out" / "qd-stages.svg")
    [ax] = c.axes
    assert c.title == "qd: stages"
    assert ax.legend == ["queue", "device", "complete"]
    assert (ax.xlabel, ax.ylabel) == ("queue depth", "mean latency (us)")
    assert [label for label, _ in ax.xticks] == ["1", "2", "4"]
    means = [(2000, 50000, 3000),
             ((100 * 4000 + 300 * 8000) / 400, (100 * 60000 + 300 * 20000) / 400,
              (100 * 1000 + 300 * 5000) / 400),
             (16000, 90000, 2000)]
    ypx = scale(ax.yticks, "stages: y")
    assert len(ax.bars) == 3 * len(means), ax.bars
    for k in range(3):  # one series of bars per stage, on top of the ones below
        bars = ax.bars[3 * k:3 * k + 3]
        assert [x for x, _, _ in bars] == sorted(x for x, _, _ in bars)
        assert_at([top for _, top, _ in bars], [sum(m[:k + 1]) / 1000 for m in means], ypx,
                  f"stage {k}: top")
        assert_at([bot for _, _, bot in bars], [sum(m[:k]) / 1000 for m in means], ypx,
                  f"stage {k}: bottom")


def test_rate_sweep_draws_latency_from_the_schedule(tmp_path):
    """A sweep over --rate_iops: each latency panel has, beside the clat line,
    a line of the latency from the scheduled arrival of the step's one job
    (kiobench.lat_from_schedule_ns), at its own values; a step of several
    jobs has none (they would need merging)."""
    def rate_step(x, clat_us, sched_us, jobs=1):
        s = step("rate_iops", x, x * 0.99, lat_us=clat_us)
        sched = {"mean": sched_us * 1000 * 1.1, "N": 100,
                 "percentile": {"50.000000": sched_us * 1000, "99.000000": sched_us * 2000,
                                "99.999000": sched_us * 5000}}
        s["jobs"] = [{"read": {"bw_bytes": 1}, "kiobench": {"devices": ["/dev/a"],
                                                            "lat_from_schedule_ns": sched}}
                     for _ in range(jobs)]
        return s
    steps = [rate_step(250, 100, 120), rate_step(500, 110, 300), rate_step(1000, 130, 9000),
             rate_step(2000, 140, 50000, jobs=2)]
    d = {"command": "sweep", "parts": [{"name": "rate", "title": "rate", "variable": "rate_iops",
                                        "steps": steps, "figures": {}}]}
    plot_svg(tmp_path, d)
    c = read_chart(tmp_path / "out" / "rate-latency.svg")
    sched_key = {"mean": "mean", "p50": "50.000000", "p99": "99.000000",
                 "p99.999": "99.999000"}
    for ax, (k, name) in zip(c.axes, LAT):
        assert ax.xlabel == "asked IOPS per worker (open loop)"
        one = [s for s in steps if len(s["jobs"]) == 1]
        sched = [(s["jobs"][0]["kiobench"]["lat_from_schedule_ns"][k] if k == "mean" else
                  s["jobs"][0]["kiobench"]["lat_from_schedule_ns"]["percentile"][sched_key[k]])
                 / 1000 for s in one]
        assert_axes(ax, [Series("rate", [s["x"] for s in steps],
                                [s["read"]["lat_ns"][k] / 1000 for s in steps]),
                         Series("rate, from schedule", [s["x"] for s in one], sched)],
                    f"rate latency {name}")
