"""kiobench top: every job in the kernel, whoever started it,
from the module's status and debugfs.  Two jobs of two processes run; top
shows both with IOPS and latency of the interval, their depth and
locality; a third job started later appears at a later refresh.  Once as
--batch lines, once as the curses screen in a tmux pane (capture-pane),
which also quits on q and follows a resize.  The guest of
test_locality.py (no new boot)."""
from __future__ import annotations

import re
import time

import pytest

from vm.guest import Guest, Nvme

GUEST_ARGS = {"smp": 4, "nvme": [Nvme(64 << 20), Nvme(64 << 20, max_ioqpairs=1)]}


def refreshes(out: str) -> list[dict[int, dict[str, str]]]:
    """top --batch's output: per refresh, {job id: {key: value}}."""
    res: list[dict[int, dict[str, str]]] = []
    for line in out.splitlines():
        if line.startswith("top "):
            res.append({})
        elif line.startswith("job "):
            kv = dict(f.split("=", 1) for f in line.split()[1:])
            res[-1][int(kv["id"])] = kv
    return res


def start(guest: Guest, dev: str, name: str, qd: int, runtime: int = 30) -> None:
    guest.check(f"(kiobench run --name={name} --filename={dev} --rw=randread --iodepth={qd} "
                f"--runtime={runtime} --time_based >/tmp/{name}.out 2>&1 &)")


def stop_all(guest: Guest) -> None:
    """SIGINT to every kiobench; back when they are gone (the module's jobs
    with them)."""
    guest.check("kill -INT $(pidof kiobench) 2>/dev/null; for i in $(seq 300); do "
                "pidof kiobench >/dev/null || exit 0; sleep 0.1; done; exit 1", timeout=60)


def test_top_batch_shows_every_job(guest: Guest, kiobench_module, make_nullb):
    """Both jobs with IOPS, percentiles, depth and locality; the third,
    depth 1, shares the first's device: each job's in-flight count is its
    own (never above its depth), not the device's.  Mutations: make_row()
    takes no IOPS (r->iops stays 0): red; top reads the device's sysfs
    inflight (the count before debugfs inflight): red (third: 5/1);
    kb_worker_inflight() returns 0: red (never in flight)."""
    a = make_nullb("nullb0", size_mb=64, memory_backed=False, completion_nsec=50_000)
    b = make_nullb("nullb1", size_mb=64, memory_backed=False, completion_nsec=50_000)
    start(guest, a, "first", 4)
    start(guest, b, "second", 2)
    guest.check("for i in $(seq 100); do [ $(ls /sys/kernel/debug/kiobench | grep -c job) = 2 ] "
                "&& exit 0; sleep 0.1; done; exit 1", timeout=30)
    out = guest.check("kiobench top --batch --interval=500ms --iterations=4", timeout=60)
    last = refreshes(out)[-1]
    names = sorted(j["name"] for j in last.values())
    assert names == ["first", "second"], out
    for j in last.values():
        assert float(j["iops"]) > 0, out
        assert float(j["p99_us"]) >= float(j["p50_us"]) > 0, out
        assert j["depth"] == ("4" if j["name"] == "first" else "2"), out
        assert int(j["inflight"]) <= int(j["depth"]), out
        assert 0 <= float(j["local_pct"]) <= 100, out
    start(guest, a, "third", 1)
    out = guest.check("kiobench top --batch --interval=500ms --iterations=6", timeout=60)
    last = refreshes(out)[-1]
    assert sorted(j["name"] for j in last.values()) == ["first", "second", "third"], out
    assert all(float(j["iops"]) > 0 for j in last.values()), out
    jobs = [j for r in refreshes(out) for j in r.values()]
    assert all(int(j["inflight"]) <= int(j["depth"]) for j in jobs), out
    assert any(int(j["inflight"]) > 0 for j in jobs if j["name"] == "first"), out
    stop_all(guest)
    assert re.search(r"top t=", out)


# A row of the curses screen: id, name (16 columns), state, IOPS, then the
# rest as far as the pane's width shows it.
ROW = re.compile(r"^\s*(\d+) (.{16}) (\S+)\s+(\d+)(.*)$")


def screen(guest: Guest) -> tuple[list[str], dict[str, tuple[float, str]]]:
    """The pane's lines, and its rows: {name: (IOPS, the rest of the line)}."""
    lines = guest.check("tmux capture-pane -p -t top").splitlines()
    rows = {m.group(2).strip(): (float(m.group(4)), m.group(5))
            for m in map(ROW.match, lines) if m}
    return lines, rows


def wait_screen(guest: Guest, what: str, ok, timeout: float = 40) -> list[str]:
    """The pane's lines once ok(lines, rows) holds; fails with the last
    screen after `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        lines, rows = screen(guest)
        if ok(lines, rows):
            return lines
        if time.monotonic() > end:
            pytest.fail(f"top's screen never showed {what}:\n" + "\n".join(lines))
        time.sleep(0.3)


@pytest.mark.budget(60)
def test_top_curses_in_tmux(guest: Guest, kiobench_module, make_nullb):
    """kiobench top in an 80x12 tmux pane: both jobs with IOPS > 0, then a
    third started later; widened to 140 columns, the rows gain the columns
    beyond 80 (depth, locality); q quits with 0.  Mutations: loop()
    updates only once (ret = n ? 0 : update(t, nl)): red (no third job);
    draw() keeps the first width (w = 80): red (no locality column);
    loop() quits on Q only: red (q does not quit)."""
    a = make_nullb("nullb0", size_mb=64, memory_backed=False, completion_nsec=50_000)
    b = make_nullb("nullb1", size_mb=64, memory_backed=False, completion_nsec=50_000)
    try:
        start(guest, a, "first", 4, runtime=90)   # stopped at the end
        start(guest, b, "second", 2, runtime=90)
        guest.check("rm -f /tmp/top.rc; tmux -f /dev/null new-session -d -s top -x 80 -y 12 "
                    "'kiobench top --interval=500ms; echo $? >/tmp/top.rc'")
        wait_screen(guest, "first and second with IOPS",
                    lambda _, r: sorted(r) == ["first", "second"]
                    and all(v[0] > 0 for v in r.values()))
        start(guest, a, "third", 1, runtime=90)
        wait_screen(guest, "the third job with IOPS",
                    lambda _, r: "third" in r and r["third"][0] > 0)
        guest.check("tmux resize-window -t top -x 140 -y 12")
        lines = wait_screen(guest, "the columns beyond 80 after the resize",
                            lambda ls, r: any(ln.rstrip().endswith("local") for ln in ls)
                            and len(r) == 3
                            and all(re.search(r"\d+/\d+\s+(\d+\.\d%|-)$", v[1].rstrip())
                                    for v in r.values()))
        assert "kiobench top: 3 job(s); q quits" in lines[0], lines
        guest.check("tmux send-keys -t top q; for i in $(seq 100); do "
                    "[ -s /tmp/top.rc ] && exit 0; sleep 0.1; done; exit 1", timeout=30)
        assert guest.check("cat /tmp/top.rc").strip() == "0"
        assert not guest.run("tmux has-session -t top").ok
    finally:
        guest.run("tmux kill-server 2>/dev/null")
        stop_all(guest)
