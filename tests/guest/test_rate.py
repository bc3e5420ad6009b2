"""fio's rate (bytes/s per direction), measured by the device.

kiobench runs rate as the kernel's open loop (rate_iops) at the I/O rate
the cap allows for the job's one block size; the bytes the device served,
from its own stat counters (/sys/class/block/DEV/stat, sectors read and
written), over the run's time, are the rate, for kiobench and for Debian's
fio 3.33 on the same job file in the same guest.  Neither core nor debug:
the conversion is the tool's, and the open loop's kernel side has its own
core tests (test_completion.py).
"""
from __future__ import annotations

import json

import pytest

from kb import run_job, stat_path

MIB = 1 << 20


def sectors(guest, dev: str) -> tuple[int, int]:
    f = guest.check(f"cat {stat_path(dev)}").split()
    return int(f[2]), int(f[6])


def device_rates(guest, dev: str, run) -> tuple[float, float]:
    """(read, write) bytes/s the device served while run() ran; run()
    returns the run's time in seconds."""
    r0, w0 = sectors(guest, dev)
    secs = run()
    r1, w1 = sectors(guest, dev)
    return (r1 - r0) * 512 / secs, (w1 - w0) * 512 / secs


def both(guest, dev: str, body: str) -> dict[str, tuple[float, float]]:
    """The device's (read, write) rates under kiobench and under fio, on
    the job file made of body; kiobench's time is the kernel's elapsed
    time, fio's its job_runtime."""
    guest.check(f"cat >/tmp/rate.fio <<'EOF'\n[global]\nfilename={dev}\ndirect=1\n"
                f"ioengine=libaio\nbs=4k\niodepth=4\nruntime=3s\ntime_based\n[rate]\n{body}\nEOF")
    out = {}

    def kb():
        job = run_job(guest, "--allow-writes /tmp/rate.fio", timeout=60)
        out["kb_settings"] = job["kiobench"]["settings"]
        return job["kiobench"]["elapsed_ns"] / 1e9

    def fio():
        doc = json.loads(guest.check("fio --output-format=json /tmp/rate.fio", timeout=60))
        return doc["jobs"][0]["job_runtime"] / 1e3

    res = {"kiobench": device_rates(guest, dev, kb), "fio": device_rates(guest, dev, fio)}
    res["settings"] = out["kb_settings"]
    return res


@pytest.mark.timing
@pytest.mark.budget(90)
@pytest.mark.parametrize("rw", ["randread", "write"])
def test_rate_holds_the_byte_rate(guest, kiobench_module, make_nullb, rw):
    """rate=1m (reads) or rate=,512k (writes) on 4 KiB I/Os: the kernel
    runs 256 or 128 arrivals a second (its status), and the device serves
    that many bytes a second within 4 % (a 3 s run in TCG: kiobench was
    seen 3.3 % under once), as under fio (within 8 %: its writes came
    5.8 % under, over its job_runtime).  Mutation: rate not converted
    (rate_to_iops() never called: the closed loop, tens of MiB/s): red."""
    dev = make_nullb("nullb0", size_mb=64)
    want = (MIB, 0) if rw == "randread" else (0, MIB // 2)
    res = both(guest, dev, f"rw={rw}\nrate={'1m' if want[0] else ',512k'}")
    assert res["settings"]["rate_iops"] == max(want) // 4096, res["settings"]
    for name, rel in (("kiobench", 0.04), ("fio", 0.08)):
        for got, w in zip(res[name], want):
            assert got == pytest.approx(w, rel=rel, abs=1), (name, res)
