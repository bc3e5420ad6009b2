"""Block devices for the tests: null_blk (configfs) and emulated NVMe."""
from __future__ import annotations

import shlex

from .guest import Guest

NULLB = "/sys/kernel/config/nullb"
IRQMODES = {"none": 0, "softirq": 1, "timer": 2}


def nullb(guest: Guest, name: str, *, memory_backed: bool = True,
          completion_nsec: int | None = None, irqmode: str | None = None,
          size_mb: int = 256, blocksize: int = 512, **attrs: int | str) -> str:
    """Create null_blk device `name` via configfs; returns its /dev path:
    /dev/<name> (6.1 and later name the disk after the configfs item, so
    name it "nullb0" to get /dev/nullb0), /dev/nullb<index> on older kernels.

    irqmode is "none", "softirq" or "timer" (completion_nsec only matters for
    "timer", which it implies when given).  `attrs` sets further configfs
    attributes (queue_mode, hw_queue_depth, submit_queues, ...); each must
    be in the running kernel's nullb/features."""
    if completion_nsec is not None and irqmode is None:
        irqmode = "timer"
    settings: dict[str, int | str] = {"size": size_mb, "blocksize": blocksize,
                                      "memory_backed": int(memory_backed)}
    if irqmode is not None:
        settings["irqmode"] = IRQMODES[irqmode]
    if completion_nsec is not None:
        settings["completion_nsec"] = completion_nsec
    settings.update(attrs)

    # one round trip: null_blk loaded, its features, whether the name is taken
    out = guest.check(f"modprobe null_blk nr_devices=0 && test -d {NULLB} && "
                      f"cat {NULLB}/features && if test -e /dev/{shlex.quote(name)}; "
                      "then echo taken; else echo free; fi").split()
    features = set(out[0].split(","))
    unknown = set(settings) - features
    if unknown:
        raise ValueError(f"null_blk of {guest.kernel.name} lacks {sorted(unknown)}")
    d = f"{NULLB}/{shlex.quote(name)}"
    if out[-1] == "taken":
        raise ValueError(f"null_blk name {name!r} collides with /dev/{name}")
    script = [f"mkdir {d}"] + [f"echo {v} >{d}/{k}" for k, v in settings.items()]
    # then its node, waited for up to 5 s (wait_block), in the same round trip
    script += [f"echo 1 >{d}/power",
               f"if [ -e /sys/block/{shlex.quote(name)} ]; then n={shlex.quote(name)}; "
               f"else n=nullb$(cat {d}/index); fi",
               "for i in $(seq 50); do test -b /dev/$n && break; sleep 0.1; done",
               "test -b /dev/$n", "echo $n"]
    return "/dev/" + guest.check(" && ".join(script)).strip()


# Removes null_blk NAME when it is there (power off, then rmdir), else makes
# it again (64 MiB, not memory-backed): `nlfuzz fuzz --hook`'s command.
TOGGLE_NULLB = """#!/bin/sh
d={nullb}/{name}
if [ -d $d ]; then
    echo 0 >$d/power && rmdir $d
else
    mkdir $d && echo 64 >$d/size && echo 0 >$d/memory_backed && echo 1 >$d/power
fi
"""


def nullb_toggler(guest: Guest, name: str) -> str:
    """The guest path of a script that removes null_blk `name` (made by
    nullb(guest, name, size_mb=64, memory_backed=False)) when it is there,
    and makes it again when it is not (TOGGLE_NULLB)."""
    path = f"/tmp/toggle-{name}"
    guest.check(f"cat >{path} <<'EOF'\n{TOGGLE_NULLB.format(nullb=NULLB, name=name)}EOF\n"
                f"chmod +x {path}")
    return path


def zoned(zone_size_mb: int, nr_zones: int, *, zone_capacity_mb: int | None = None,
          max_open: int = 0, max_active: int = 0, nr_conv: int = 0) -> dict[str, int]:
    """null_blk attributes of a host-managed zoned device, for nullb() or
    make_nullb(): make_nullb("nullb0", **zoned(8, 16, max_open=4)).
    nr_zones zones of zone_size_mb MiB (the first nr_conv conventional),
    capacity zone_capacity_mb (default: the zone size); 0: no limit of
    open or active zones."""
    attrs = {"size_mb": zone_size_mb * nr_zones, "zoned": 1, "zone_size": zone_size_mb,
             "zone_nr_conv": nr_conv, "zone_max_open": max_open,
             "zone_max_active": max_active}
    if zone_capacity_mb is not None:
        attrs["zone_capacity"] = zone_capacity_mb
    return attrs


def queue_limits(guest: Guest, dev: str, *names: str) -> dict[str, str]:
    """The named files of /sys/block/<dev>/queue (missing ones absent)."""
    q = f"/sys/class/block/$(basename $(readlink -f {shlex.quote(dev)}))/queue"
    out = guest.check(f"cd {q} && for f in {' '.join(map(shlex.quote, names))}; do "
                      f"[ -e $f ] && echo \"$f=$(cat $f)\"; done; true")
    return dict(line.split("=", 1) for line in out.splitlines())


def wait_block(guest: Guest, dev: str) -> None:
    """Wait up to 5 s for block device node `dev` to appear."""
    guest.check(f"for i in $(seq 50); do test -b {dev} && exit; sleep 0.1; done; test -b {dev}")


def write_counts(guest: Guest, dev: str) -> list[int]:
    """Writes and discards completed on `dev` so far (fields 5 and 12 of
    /sys/class/block/<dev>/stat; discards since 4.18): what test_dev
    compares around a read-only test."""
    stat = guest.check(f"cat /sys/class/block/$(basename $(readlink -f {shlex.quote(dev)}))/stat")
    fields = stat.split()
    return [int(fields[4])] + ([int(fields[11])] if len(fields) > 11 else [])


def remove_nullb(guest: Guest, name: str) -> None:
    """Power off and remove null_blk device `name`."""
    d = f"{NULLB}/{shlex.quote(name)}"
    guest.check(f"echo 0 >{d}/power && rmdir {d}")


def nvme_ctrl(guest: Guest, index: int = 0) -> str:
    """/dev path of emulated NVMe controller `index` (serial kiobench<index>):
    the kernel numbers controllers in the order their probes finish, which
    with two of them is not always the order of their serials."""
    nvme_dev(guest, index)
    return guest.check(f"for c in /sys/class/nvme/nvme*; do [ \"$(tr -d ' ' <$c/serial)\" = "
                       f"kiobench{index} ] && echo /dev/${{c##*/}}; done; true").strip()


def nvme_dev(guest: Guest, index: int = 0) -> str:
    """/dev path of the namespace of emulated NVMe controller `index`
    (serial kiobench<index>, see Guest.boot); loads the nvme driver.  A
    controller in a subsystem (Nvme(fdp=...)) has its namespace's disk
    named after the subsystem (multipath's head), not the controller."""
    serial = f"kiobench{index}"
    script = f"""modprobe nvme
for i in $(seq 100); do
    for c in /sys/class/nvme/nvme*; do
        [ "$(cat $c/serial 2>/dev/null | tr -d ' ')" = {serial} ] || continue
        for ns in $c/nvme*n1; do
            n=${{ns##*/}}
            # nvme<S>c<C>n1, a path of a subsystem's namespace: the disk is nvme<S>n1
            case $n in nvme*c*n1) s=${{n#nvme}}; n=nvme${{s%%c*}}n1;; esac
            [ -b /dev/$n ] && echo /dev/$n && exit 0
        done
    done
    sleep 0.1
done
echo "no NVMe namespace with serial {serial}" >&2; exit 1"""
    return guest.check(script).strip()


def md_raid0(guest: Guest, name: str, devs: list[str], chunk_kb: int = 64) -> str:
    """Assemble an md RAID-0 array /dev/<name> (name: "md0".."md127") of
    `devs` with mdadm, writing its superblock to each; returns its path.
    Stop it with md_stop() before removing the members."""
    guest.check("modprobe -a md-mod raid0")
    dev = f"/dev/{shlex.quote(name)}"
    guest.check(f"mdadm --create {dev} --run --quiet --level=0 --chunk={chunk_kb} "
                f"--metadata=1.2 --raid-devices={len(devs)} {' '.join(map(shlex.quote, devs))}",
                timeout=120)
    wait_block(guest, dev)
    return dev


def md_stop(guest: Guest, dev: str) -> None:
    guest.check(f"mdadm --stop --quiet {shlex.quote(dev)}", timeout=120)


def dm_linear(guest: Guest, name: str, dev: str) -> str:
    """A device-mapper linear target /dev/mapper/<name> over all of `dev`
    (dmsetup without udev: libdevmapper makes the node itself)."""
    guest.check("modprobe dm-mod")
    q = shlex.quote(dev)
    guest.check(f"DM_DISABLE_UDEV=1 dmsetup create {shlex.quote(name)} "
                f"--table \"0 $(blockdev --getsz {q}) linear {q} 0\"")
    return f"/dev/mapper/{name}"


def dm_remove(guest: Guest, name: str) -> None:
    guest.check(f"DM_DISABLE_UDEV=1 dmsetup remove {shlex.quote(name)}")
