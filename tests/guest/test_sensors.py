"""Drive sensors: hwmon temperature and power in the timeline.

QEMU's emulated NVMe controller answers the SMART log with a composite
temperature (323 K: 49.85 C, constant), so Debian's kernels (CONFIG_NVME_HWMON)
register an "nvme" hwmon device with temp1 "Composite" and no power sensor.
null_blk has no hwmon device.  A power sensor is tested on a fake sysfs
tree (KIOBENCH_SYSFS) that gives null_blk a hwmon device with power
readings that change with every sample (fake_sysfs).
"""
import json
import re

import pytest

from kb import run_job
from vm.targets import nvme_dev

GUEST_ARGS = {"nvme_size": 256 << 20}
NO_POWER = "no power sensor: efficiency not reported"


@pytest.fixture
def nvme(guest) -> str:
    return nvme_dev(guest)


def normal(guest, args: str, env: str = "") -> str:
    r = guest.run(f"{env} kiobench run --output-format=normal {args}")
    assert r.rc == 0, r.out
    return r.out


@pytest.mark.timing
def test_nvme_temperature_timeline(guest, kiobench_module, nvme):
    name = nvme.rsplit("/", 1)[1]
    hwmon = guest.check(f"ls -d /sys/block/{name}/device/hwmon*").split()
    assert len(hwmon) == 1, hwmon
    sysfs_mc = int(guest.check(f"cat {hwmon[0]}/temp1_input"))
    job = run_job(guest, f"--filename={nvme} --rw=randread --bs=4k --iodepth=4 --runtime=4 --time_based "
                         f"--time_based", timeout=60)
    kb = job["kiobench"]
    assert "sensors_note" not in kb, kb.get("sensors_note")
    (s,) = kb["sensors"]
    assert s["device"] == nvme and s["hwmon"] == "nvme"
    assert s["hwmon_device"] == guest.check(f"basename $(readlink -f /sys/block/{name}/device)").strip()
    assert s["hwmon_path"] == guest.check(f"readlink -f {hwmon[0]}").strip()
    assert s["temp_labels"][0] == "Composite" and s["power_labels"] == []
    samples = s["samples"]
    t = [p["t_ms"] for p in samples]
    elapsed_ms = kb["elapsed_ns"] / 1e6
    # one at the start, one a second while the job runs, one at its end
    assert t[0] < 200 and t == sorted(t)
    assert elapsed_ms // 1000 + 1 <= len(t) <= elapsed_ms // 1000 + 3, (t, elapsed_ms)
    assert all(800 <= b - a <= 1300 for a, b in zip(t[:-2], t[1:-1])), t
    for p in samples:
        assert p["power_uw"] == [] and len(p["temp_mc"]) == len(s["temp_labels"])
        # what the guest's sysfs says, and a drive's plausible range
        assert p["temp_mc"][0] == sysfs_mc and 0 < p["temp_mc"][0] < 100_000
    summary = kb["sensors_summary"]
    assert summary["temp_min_mc"] == summary["temp_max_mc"] == sysfs_mc
    assert summary["power_mean_uw"] is None and summary["iops_per_w"] is None
    assert summary["note"] == NO_POWER
    # every timeline entry has the sample taken at its end
    for e in kb["timeline"]:
        assert e["temp_mc"] == [sysfs_mc] and "power_uw" not in e, e
    out = normal(guest, f"--filename={nvme} --rw=read --number_ios=100")
    c = sysfs_mc / 1000
    assert f"sensors      : {s['hwmon_device']} temp min/max {c:.1f}/{c:.1f} C (hwmon nvme" in out
    assert f"power        : n/a ({NO_POWER})" in out


@pytest.mark.timing
@pytest.mark.device
def test_device_sensors(guest, kiobench_module, test_dev):
    """On any device: the job samples the nearest hwmon device up the
    disk's sysfs path (an NVMe controller's, a SATA disk's drivetemp), a
    plausible temperature once a second; a device with none gets no
    sensors and a note saying so."""
    name = guest.check(f"basename $(readlink -f {test_dev})").strip()
    # from the (whole) disk's device, or an NVMe multipath disk's paths'
    # devices, up to /sys/devices: the hwmon devices of the first that has any
    nearest = guest.check(f"""disk=$(readlink -f /sys/class/block/{name})
[ -e $disk/partition ] && disk=${{disk%/*}}
for start in $disk/device $disk/multipath/*/device; do
    [ -e "$start" ] || continue
    d=$(readlink -f $start)
    while [ "${{d#/sys/devices/}}" != "$d" ]; do
        found=
        for h in $d/hwmon[0-9]* $d/hwmon/hwmon[0-9]*; do
            [ -d "$h" ] && readlink -f "$h" && found=1
        done
        [ -n "$found" ] && exit 0
        d=${{d%/*}}
    done
done; true""").split()
    kb = run_job(guest, f"--filename={test_dev} --rw=randread --iodepth=2 --runtime=3 --time_based "
                        f"--time_based", timeout=60)["kiobench"]
    if not nearest:
        assert kb["sensors"] is None and kb["sensors_note"] == f"no hwmon sensor: {test_dev}"
        return
    (s,) = kb["sensors"]
    assert s["device"] == test_dev and s["hwmon_path"] in nearest, (s, nearest)
    assert s["hwmon"] == guest.check(f"cat {s['hwmon_path']}/name").strip()
    t = [p["t_ms"] for p in s["samples"]]
    elapsed_ms = kb["elapsed_ns"] / 1e6
    assert t == sorted(t) and elapsed_ms // 1000 + 1 <= len(t) <= elapsed_ms // 1000 + 3, t
    for p in s["samples"]:
        assert len(p["temp_mc"]) == len(s["temp_labels"]) >= 1, (s["temp_labels"], p)
        assert -40_000 < p["temp_mc"][0] < 125_000, p  # a drive's range, in millidegrees


def test_null_blk_has_no_sensors(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=16)
    kb = run_job(guest, f"--filename={dev} --rw=randread --runtime=1 --time_based")["kiobench"]
    assert kb["sensors"] is None and kb["sensors_summary"] is None
    assert kb["sensors_note"] == f"no hwmon sensor: {dev}"
    assert all("temp_mc" not in e for e in kb["timeline"])
    out = normal(guest, f"--filename={dev} --rw=read --number_ios=100")
    assert f"sensors      : none (no hwmon sensor for {dev})" in out
    assert f"power        : n/a ({NO_POWER})" in out


def fake_sysfs(guest, dev: str) -> str:
    """A sysfs tree in which dev's disk hangs on a controller with a hwmon
    device (temp1, power1_input "Total", power2_average) whose readings
    change all the time: a background writer puts the guest's uptime in
    centiseconds (cs) into each, every 20 ms: temp1 20000 + cs m-degrees,
    power1 1 + (cs % 7) / 2 W, power2 2 W + cs uW.  So no two samples
    read the same, the temperature says when it was read, and a mean, a
    min, a max or a sample of another time each give another figure.
    Written in place (1<>, fixed width): the tool keeps the files open."""
    root = "/tmp/fakesys"
    majmin = guest.check(f"cat /sys/class/block/{dev.rsplit('/', 1)[1]}/dev").strip()
    ctrl = f"{root}/devices/pci0000:00/0000:00:05.0/fake/fake0"
    hw = f"{ctrl}/hwmon7"
    script = [f"rm -rf {root}", f"mkdir -p {hw} {ctrl}/disk0 {root}/dev/block",
              f"ln -s .. {ctrl}/disk0/device",
              f"ln -s ../../devices/pci0000:00/0000:00:05.0/fake/fake0/disk0 "
              f"{root}/dev/block/{majmin}",
              f"echo fakehw >{hw}/name", f"echo Total >{hw}/power1_label"]
    writer = (f"while [ -d {hw} ]; do read up rest </proc/uptime; cs=${{up%.*}}${{up#*.}}; "
              f"printf '%010d\\n' $((20000 + cs)) 1<>{hw}/temp1_input; "
              f"printf '%010d\\n' $((1000000 + cs % 7 * 500000)) 1<>{hw}/power1_input; "
              f"printf '%010d\\n' $((2000000 + cs)) 1<>{hw}/power2_average; "
              f"sleep 0.02; done")
    guest.check(" && ".join(script))
    guest.check(f"({writer}) </dev/null >/dev/null 2>&1 &")
    guest.check(f"for i in $(seq 50); do [ -s {hw}/power2_average ] && exit; sleep 0.1; done; "
                "exit 1")
    return root


def check_sensor_figures(kb: dict, ramp_ms: int) -> dict:
    """The summary and the timeline from the samples, independently.
    Mutations: tools/sensors.c's mean_power() taking the last sample, or
    the warm-up's; the min or max from the first or last sample;
    output.c's timeline picking the sample of another interval: red."""
    (s,) = kb["sensors"]
    samples = s["samples"]
    temps = [p["temp_mc"][0] for p in samples]
    assert len(samples) >= 6 and None not in temps, samples
    # each sample was read when it says: its temperature is its uptime (cs);
    # samples 100 ms apart or more read different values (the last one,
    # at the job's end, may follow the one before closely)
    for a, b in zip(samples, samples[1:]):
        gap = (b["temp_mc"][0] - a["temp_mc"][0]) * 10 - (b["t_ms"] - a["t_ms"])
        assert abs(gap) <= 150, (a, b)
        assert b["t_ms"] - a["t_ms"] < 100 or b["temp_mc"][0] > a["temp_mc"][0], (a, b)
    late = [sum(p["power_uw"]) for p in samples if p["t_ms"] >= ramp_ms]
    sm = kb["sensors_summary"]
    assert sm["power_mean_uw"] == pytest.approx(sum(late) / len(late), rel=1e-9), (sm, late)
    assert (sm["temp_min_mc"], sm["temp_max_mc"]) == (min(temps), max(temps))
    by_ms = {p["t_ms"]: p for p in samples}
    for e in kb["timeline"][1:]:
        near = by_ms[min(by_ms, key=lambda t: abs(t - e["t_ns"] / 1e6))]
        assert (e["temp_mc"], e["power_uw"]) == (near["temp_mc"], near["power_uw"]), (e, near)
    return sm


@pytest.mark.timing
def test_power_efficiency(guest, kiobench_module, make_nullb):
    """Power and temperature readings that change with every sample (see
    fake_sysfs): the summary's mean power, temperature range and
    efficiency, and each timeline entry's readings, are the ones the
    samples give."""
    dev = make_nullb("nullb0", size_mb=16)
    root = fake_sysfs(guest, dev)
    env = f"KIOBENCH_SYSFS={root}"
    out = "/tmp/power.json"
    try:
        guest.check(f"{env} kiobench run --output-format=json --output={out} --filename={dev} "
                    f"--rw=randread --runtime=2 --ramp_time=500ms --time_based "
                    f"--interval=250ms", timeout=120)
        job = json.loads(guest.check(f"cat {out}"))["jobs"][0]
        kb = job["kiobench"]
        (s,) = kb["sensors"]
        assert s["hwmon"] == "fakehw" and s["hwmon_device"] == "fake0"
        assert s["temp_labels"] == ["temp1"] and s["power_labels"] == ["Total", "power2"]
        sm = check_sensor_figures(kb, 500)
        assert "note" not in sm
        watts = sm["power_mean_uw"] / 1e6
        iops = job["read"]["iops"]
        assert iops > 0 and sm["iops_per_w"] == pytest.approx(iops / watts, rel=1e-3)
        assert sm["mb_s_per_w"] == pytest.approx(job["read"]["bw_bytes"] / 1e6 / watts, rel=1e-3)
        text = normal(guest, f"--filename={dev} --rw=read --number_ios=1000", env)
        m = re.search(r"sensors      : fake0 temp min/max ([\d.]+)/([\d.]+) C \(hwmon fakehw",
                      text)
        assert m and float(m.group(1)) <= float(m.group(2)), text
        assert re.search(r"power        : mean [\d.]+ W, [\d.]+ IOPS/W, ", text), text
        # sweep steps carry the same summary
        guest.check(f"{env} kiobench sweep --filename={dev} --rw=read --iodepth=1,2 "
                    f"--number_ios=500 --output-format=json --output={out}", timeout=120)
        for st in json.loads(guest.check(f"cat {out}"))["parts"][0]["steps"]:
            w = st["sensors"]["power_mean_uw"] / 1e6
            assert 3 <= w <= 6.5, st["sensors"]
            assert st["sensors"]["iops_per_w"] == pytest.approx(st["read"]["iops"] / w, rel=1e-2)
    finally:
        guest.run(f"rm -rf {root}")
