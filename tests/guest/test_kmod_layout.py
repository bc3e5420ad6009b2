"""The module's job registry, debugfs directories and statistics reads.

A job is created whole or not at all: when its debugfs directory cannot be
made, the request is refused with an extack that says so, and nothing is
left behind (no job, no directory, no charge; kmemleak checks the memory).
A running job's histogram, read while completions land, never counts more
than the device had completed, and once stopped counts exactly what the
device completed (the whole counters are KUnit's: kb_sum_is_whole_while_written).
Raw requests go through tests/fuzz/nlfuzz.c (`nlfuzz req`).
"""
from __future__ import annotations

import json
import re
import subprocess

import pytest

from kb import (DEBUGFS, dev_bios, fault_attr, job_ids, nlreq, parse_hist, put_bytes, stat_bios,
                stat_path)

SLOW = 600


def wait_state(guest, job: int, state: str, timeout: float = SLOW) -> None:
    """Until the job's state matches `state` (a grep pattern, "[23]")."""
    n = int(timeout / 0.2)
    r = guest.run(f"for i in $(seq {n}); do nlfuzz req get job-id={job} | grep -q 'state={state}' "
                  f"&& exit 0; sleep 0.2; done; exit 1", timeout=timeout + 60)
    assert r.ok, f"job {job} did not reach state {state} within {timeout} s"


def job_dirs(guest) -> list[str]:
    """The jobs' directories in kiobench's debugfs root (beside its own files)."""
    return [f for f in guest.check(f"ls {DEBUGFS}").split() if f.startswith("job")]


# debugfs inodes come from debugfs_inode_cache (6.13 on) or inode_cache
# (before), caches with constructors, so never merged with others: nothing
# else a JOB_NEW request allocates comes from them, and failing them alone,
# for the requesting task alone, fails exactly the job's debugfs directory.
@pytest.mark.debug
@pytest.mark.tolerate_splat(r"warn_alloc\+")
def test_job_without_its_debugfs_directory_is_refused(guest, kernel, kiobench_module,
                                                       make_nullb):
    for opt in ("FAILSLAB", "FAULT_INJECTION_DEBUG_FS"):
        if not kernel.has(opt):
            pytest.skip(f"{kernel.name} is built without CONFIG_{opt}")
    dev = make_nullb("nullb0", size_mb=16)
    job_args = [f"dev={dev}", "numjobs=2", "iodepth=4", "number-ios=1000"]
    cache = "/sys/kernel/slab/debugfs_inode_cache"
    if not guest.run(f"test -d {cache}").ok:
        cache = "/sys/kernel/slab/inode_cache"
    guest.check(f"echo 1 >{cache}/failslab")
    fault_attr(guest, "failslab", task_filter="Y", cache_filter="Y", ignore_gfp_wait="N",
               probability=100)
    try:
        ack = nlreq(guest, "--make-it-fail", "new", *job_args)
    finally:
        fault_attr(guest, "failslab", cache_filter="N")
        guest.check(f"echo 0 >{cache}/failslab")
    assert ack.errno == 12, ack.out  # ENOMEM
    assert "debugfs" in ack.msg and "directory" in ack.msg, ack.out
    assert re.search(r"job\d+", ack.msg), ack.out  # names the directory
    # nothing left behind: no job, no directory, and the module is whole
    assert job_ids(guest) == []
    assert job_dirs(guest) == []
    ack = nlreq(guest, "new", *job_args)
    assert ack.errno == 0, ack.out
    j = ack.replies[0]["job-id"]
    files = guest.check(f"ls {DEBUGFS}/job{j}").split()
    assert set(files) == {"config", "hist_read", "hist_write", "hist_trim", "hist_sync",
                          "timeline", "inflight", "locality"}, files
    assert nlreq(guest, "start", f"job-id={j}").errno == 0
    wait_state(guest, j, "2")
    assert nlreq(guest, "del", f"job-id={j}").errno == 0
    assert job_dirs(guest) == []


@pytest.mark.core
@pytest.mark.debug
def test_running_job_reads_whole(guest, kiobench_module, make_nullb):
    """A histogram read while completions land is whole: its samples never
    exceed what the device had completed by the time it was read (its stat
    file, read after), and never go back; JOB_GET answers meanwhile.  Once
    stopped, its samples are the device's completions exactly.  (Its
    `# samples` header is the sum of the buckets printed below it, so the
    two agreeing proves nothing.)  Mutation: kb_count_io() measuring only
    I/Os submitted 100 ms after the ramp's end: the final count falls
    short of the device's: red."""
    dev = make_nullb("nullb0", size_mb=64, irqmode="softirq")
    before = dev_bios(guest, dev)
    ack = nlreq(guest, "new", f"dev={dev}", "numjobs=2", "iodepth=16",
                f"runtime-ns={60 * 10**9}")
    assert ack.errno == 0, ack.out
    j = ack.replies[0]["job-id"]
    assert nlreq(guest, "start", f"job-id={j}").errno == 0
    try:
        reads = last = 0
        for _ in range(8):  # 6 s each on the debug kernel under this load
            # the histogram, then the device's count, in one command: under
            # the job's load a command takes seconds on the debug kernel
            hist, stat = guest.check(f"cat {DEBUGFS}/job{j}/hist_read && echo '#-' && "
                                     f"cat {stat_path(dev)}").split("#-\n")
            h = parse_hist(hist)
            done = stat_bios(stat) - before
            assert h.count == h.samples, h.header
            assert last <= h.samples <= done, (last, h.samples, done)
            last = h.samples
            if h.samples and int(h.header["min"]) > int(h.header["max"]):
                pytest.fail(f"min above max: {h.header}")
            reads += h.samples > 0
            get = nlreq(guest, "get", f"job-id={j}")
            assert get.errno == 0, get.out
        assert reads, "the job completed nothing while it was read"
        nlreq(guest, "stop", f"job-id={j}")
        wait_state(guest, j, "[234]")
        h = parse_hist(guest.check(f"cat {DEBUGFS}/job{j}/hist_read"))
        assert h.samples == dev_bios(guest, dev) - before, h.header
    finally:
        nlreq(guest, "stop", f"job-id={j}")  # EINVAL if it ended already
        wait_state(guest, j, "[234]")
        assert nlreq(guest, "del", f"job-id={j}").errno == 0


# Modules an optional feature of kiobench.ko might pull in (verify's
# checksums), which a bare insmod must not need.
OPTIONAL_DEPS = ("crc64", "libcrc32c", "xxhash", "libsha256", "crc32c_generic")


@pytest.mark.core
@pytest.mark.debug
def test_bare_insmod_needs_no_other_module(guest, request, make_nullb):
    """kiobench.ko loads by a bare insmod with no other module loaded (the
    modules its optional features could use unloaded first: none is a hard
    dependency), and verify=crc64 then works: a write pass and its
    read-back verify every block.  Mutation: kb_crc64() calling the
    kernel's crc64_be() again (crc64.ko a hard dependency where
    CONFIG_CRC64=m, as on Debian's 6.1): insmod fails with "Unknown symbol
    crc64_be" on 6.1: red."""
    path = guest.initramfs.module
    if path is None:
        if request.config.getoption("require_module"):
            pytest.fail("kiobench.ko is not built", pytrace=False)
        pytest.skip("kiobench.ko is not built (run make)")
    guest.run("rmmod kiobench")
    for mod in OPTIONAL_DEPS:
        guest.run(f"grep -q '^{mod} ' /proc/modules && rmmod {mod}")
    loaded = guest.check("cut -d' ' -f1 /proc/modules").split()
    assert "kiobench" not in loaded
    assert not set(OPTIONAL_DEPS) & set(loaded), loaded
    r = guest.run(f"insmod {path}")
    assert r.ok, f"insmod {path}: {r.out}"
    try:
        dev = make_nullb("nullb0", size_mb=16)
        r = guest.run(f"kiobench run --output-format=json --output=/tmp/crc64.json "
                      f"--filename={dev} --bs=4k --size=256k --rw=write --verify=crc64 "
                      "--allow-writes", timeout=300)
        assert r.rc == 0, r.out
        job = json.loads(guest.check("cat /tmp/crc64.json"))["jobs"][0]
        v = job["kiobench"]["verify"]
        assert v["verified"] == 64 == job["write"]["total_ios"], v
        assert (v["corrupt"], v["misdirected"], v["stale"]) == (0, 0, 0), v
    finally:
        guest.run("rmmod kiobench")


def renamed_copy(guest, kernel, tmp_path, name: str) -> str:
    """kiobench.ko as a module named `name` (8 characters, as kiobench):
    its struct module's and .modinfo's names patched, its exports (KUnit's,
    which a second owner could not take) removed; copied into the guest,
    its guest path."""
    ko = tmp_path / "copy.ko"
    secs = subprocess.run(["readelf", "-SW", str(kernel.kiobench_ko)], capture_output=True,
                          text=True, check=True).stdout
    drop = sorted(set(re.findall(r"\s(\.rela__k\w+|__k(?:symtab|crctab)\w*)\s", secs)))
    subprocess.run(["objcopy", "--strip-debug", *[f"--remove-section={x}" for x in drop],
                    str(kernel.kiobench_ko), str(ko)], check=True)
    data = bytearray(ko.read_bytes())
    secs = subprocess.run(["readelf", "-SW", str(ko)], capture_output=True, text=True,
                          check=True).stdout
    m = re.search(r"\s\.gnu\.linkonce\.this_module\s+\S+\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)",
                  secs)
    this = data.find(b"kiobench\0", int(m[1], 16), int(m[1], 16) + int(m[2], 16))
    info = b"name=kiobench\0"
    assert len(name) == 8 and this > 0 and data.count(info) == 1
    data[this:this + 8] = name.encode()     # struct module's name
    data = bytes(data).replace(info, f"name={name}\0".encode())
    put_bytes(guest, "/tmp/copy.ko", data)
    return "/tmp/copy.ko"


@pytest.mark.debug
def test_init_unwinds_when_its_family_cannot_register(guest, kernel, kiobench_module,
                                                      make_nullb, tmp_path):
    """kb_init()'s unwind, which no allocation failure reaches (genetlink
    allocates only when its id map or group bitmap grows): a copy of
    kiobench.ko under another module name finds the family "kiobench"
    registered, so genl_register_family() fails with EEXIST after the
    free workqueue and debugfs were set up; the insmod fails with that
    errno (EBUSY where the loader reserves EEXIST), the copy is not
    loaded, nothing splats (KASAN, lockdep, the workqueue and debugfs
    torn down once), and the loaded module still runs a job.  Mutation: kb_init() returning 0 when kb_nl_init() fails
    (`goto out_debugfs_exit` -> `return 0`): red (the copy loads)."""
    ko = renamed_copy(guest, kernel, tmp_path, "kiobenc2")
    r = guest.run(f"insmod {ko}")
    loaded = guest.check("cut -d' ' -f1 /proc/modules").split()
    if "kiobenc2" in loaded:
        guest.run("rmmod kiobenc2")
    # the module loader turns an init's EEXIST into EBUSY (6.16 on)
    assert not r.ok and re.search("File exists|Device or resource busy", r.out), r.out
    assert "kiobenc2" not in loaded and "kiobench" in loaded, loaded
    dev = make_nullb("nullb0", size_mb=16)
    ack = nlreq(guest, "new", f"dev={dev}", "number-ios=100", "name=after")
    assert ack.errno == 0, ack.out
    j = int(ack.replies[0]["job-id"])
    assert nlreq(guest, "start", f"job-id={j}").errno == 0
    wait_state(guest, j, "[234]")
    assert job_dirs(guest) == [f"job{j}"]
    assert nlreq(guest, "del", f"job-id={j}").errno == 0
