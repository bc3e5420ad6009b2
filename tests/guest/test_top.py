"""kiobench top --batch (issue 23): every job in the kernel, whoever started
it, from the module's status and debugfs.  Two jobs of two processes run;
top shows both with IOPS and latency of the interval, their depth and
locality; a third job started later appears at a later refresh.  The
guest of test_locality.py (no new boot)."""
from __future__ import annotations

import re

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


def start(guest: Guest, dev: str, name: str, qd: int) -> None:
    guest.check(f"(kiobench run --name={name} --filename={dev} --rw=randread --iodepth={qd} "
                f"--runtime=30 --time_based >/tmp/{name}.out 2>&1 &)")


def test_top_batch_shows_every_job(guest: Guest, kiobench_module, make_nullb):
    """Mutation: make_row() takes no IOPS (r->iops stays 0): red."""
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
    guest.check("kill -INT $(pidof kiobench); for i in $(seq 300); do pidof kiobench "
                ">/dev/null || exit 0; sleep 0.1; done; exit 1", timeout=60)
    assert re.search(r"top t=", out)
