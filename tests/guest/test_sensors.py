"""Drive sensors: hwmon temperature and power in the timeline.

QEMU's emulated NVMe controller answers the SMART log with a composite
temperature (323 K: 49.85 C, constant), so Debian's kernels (CONFIG_NVME_HWMON)
register an "nvme" hwmon device with temp1 "Composite" and no power sensor.
null_blk has no hwmon device.  A power sensor is tested on a fake sysfs
tree (KIOBENCH_SYSFS) that gives null_blk a hwmon device with power
readings of known values.
"""
import json

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


def test_nvme_temperature_timeline(guest, kiobench_module, nvme):
    name = nvme.rsplit("/", 1)[1]
    hwmon = guest.check(f"ls -d /sys/block/{name}/device/hwmon*").split()
    assert len(hwmon) == 1, hwmon
    sysfs_mc = int(guest.check(f"cat {hwmon[0]}/temp1_input"))
    job = run_job(guest, f"--filename={nvme} --rw=randread --bs=4k --iodepth=4 --runtime=4 "
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
    kb = run_job(guest, f"--filename={test_dev} --rw=randread --iodepth=2 --runtime=3 "
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
    kb = run_job(guest, f"--filename={dev} --rw=randread --runtime=1")["kiobench"]
    assert kb["sensors"] is None and kb["sensors_summary"] is None
    assert kb["sensors_note"] == f"no hwmon sensor: {dev}"
    assert all("temp_mc" not in e for e in kb["timeline"])
    out = normal(guest, f"--filename={dev} --rw=read --number_ios=100")
    assert f"sensors      : none (no hwmon sensor for {dev})" in out
    assert f"power        : n/a ({NO_POWER})" in out


def fake_sysfs(guest, dev: str, watts: list[float]) -> str:
    """A sysfs tree in which dev's disk hangs on a controller with a hwmon
    device: temp1 41 C, power1_input and power2_average of `watts`."""
    root = "/tmp/fakesys"
    majmin = guest.check(f"cat /sys/class/block/{dev.rsplit('/', 1)[1]}/dev").strip()
    ctrl = f"{root}/devices/pci0000:00/0000:00:05.0/fake/fake0"
    hw = f"{ctrl}/hwmon7"
    script = [f"rm -rf {root}", f"mkdir -p {hw} {ctrl}/disk0 {root}/dev/block",
              f"ln -s .. {ctrl}/disk0/device",
              f"ln -s ../../devices/pci0000:00/0000:00:05.0/fake/fake0/disk0 "
              f"{root}/dev/block/{majmin}",
              f"echo fakehw >{hw}/name", f"echo 41000 >{hw}/temp1_input",
              f"echo {int(watts[0] * 1e6)} >{hw}/power1_input",
              f"echo {int(watts[1] * 1e6)} >{hw}/power2_average",
              f"echo Total >{hw}/power1_label"]
    guest.check(" && ".join(script))
    return root


def test_power_efficiency(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=16)
    root = fake_sysfs(guest, dev, [3.0, 2.0])
    env = f"KIOBENCH_SYSFS={root}"
    out = "/tmp/power.json"
    guest.check(f"{env} kiobench run --output-format=json --output={out} --filename={dev} "
                f"--rw=randread --runtime=2 --ramp_time=500ms --time_based")
    job = json.loads(guest.check(f"cat {out}"))["jobs"][0]
    kb = job["kiobench"]
    (s,) = kb["sensors"]
    assert s["hwmon"] == "fakehw" and s["hwmon_device"] == "fake0"
    assert s["temp_labels"] == ["temp1"] and s["power_labels"] == ["Total", "power2"]
    assert all(p["power_uw"] == [3_000_000, 2_000_000] for p in s["samples"])
    sm = kb["sensors_summary"]
    assert sm["power_mean_uw"] == pytest.approx(5e6) and "note" not in sm
    assert sm["temp_min_mc"] == sm["temp_max_mc"] == 41000
    iops = job["read"]["iops"]
    assert iops > 0 and sm["iops_per_w"] == pytest.approx(iops / 5, rel=1e-3)
    assert sm["mb_s_per_w"] == pytest.approx(job["read"]["bw_bytes"] / 1e6 / 5, rel=1e-3)
    assert all(e["power_uw"] == [3_000_000, 2_000_000] for e in kb["timeline"])
    text = normal(guest, f"--filename={dev} --rw=read --number_ios=1000", env)
    assert "sensors      : fake0 temp min/max 41.0/41.0 C (hwmon fakehw" in text
    assert "power        : mean 5.00 W, " in text and " IOPS/W, " in text
    # sweep steps carry the same summary
    guest.check(f"{env} kiobench sweep --filename={dev} --rw=read --iodepth=1,2 "
                f"--number_ios=500 --output-format=json --output={out}")
    for st in json.loads(guest.check(f"cat {out}"))["parts"][0]["steps"]:
        assert st["sensors"]["power_mean_uw"] == pytest.approx(5e6)
        assert st["sensors"]["temp_max_mc"] == 41000
        assert st["sensors"]["iops_per_w"] == pytest.approx(st["read"]["iops"] / 5, rel=1e-2)
