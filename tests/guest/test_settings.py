"""The kernel states a job's settings, and the tool prints what it said.

A job made over raw generic netlink (tests/fuzz/nlfuzz.c, not the tool)
with a value other than the default for every setting that shapes the
measurement must show each one in `kiobench list`, in every output format:
the tool knows nothing of that job but the kernel's status reply.  A job
the tool runs reports the same settings, from the same reply, in its
normal and JSON output.

Mutations these tests catch (tests/README.md): kmod/netlink.c's
kb_put_config() putting a field from anything but the job's kb_config
(e.g. `cfg->completion` replaced by KIOBENCH_COMPLETION_SLEEP, or
`rate_process` by KIOBENCH_RATE_LINEAR); tools/measures.c printing the
tool's own job options instead of kb_status.cfg.
"""
from __future__ import annotations

import json
import re

import pytest

from kb import listened_events, nlreq, start_listener

# Non-default everything: (nlfuzz argument, what `kiobench list` prints).
RAW = ["name=rawjob", "random", "completion=1", "rate-iops=700", "rate-process=1",
       "iodepth=4", "numjobs=2", "cpus=1,0", "bss=4096/1", "bss=8192/3",
       "offset=1048576", "size=8388608", "runtime-ns=20000000000", "ramp-ns=1000000",
       "seed=7", "interval-ns=500000000", "lat-log=64", "continue-on-error"]
LINE = ["rw=randread", "bssplit=4096/1:8192/3", "iodepth=4 numjobs=2 cpus_allowed=1,0",
        "offset=1048576 size=8388608 span=8388608", "runtime=20000000000ns",
        "ramp_time=1000000ns", "completion=spin", "rate_iops=700 rate_process=poisson",
        "lat_log_entries=64", "continue_on_error", "detach"]


def expect_settings(s: dict, dev: str) -> None:
    assert s["devices"] == dev and s["span_len"] == [8388608]
    assert (s["rw"], s["random"], s["rwmixread"]) == ("randread", True, 100)
    assert s["bssplit"] == [{"bs": 4096, "weight": 1}, {"bs": 8192, "weight": 3}]
    assert (s["iodepth"], s["numjobs"], s["cpus"]) == (4, 2, [1, 0])
    assert (s["offset"], s["size"]) == (1048576, 8388608)
    assert (s["runtime_ns"], s["ramp_ns"], s["randseed"], s["interval_ns"]) == \
        (20_000_000_000, 1_000_000, 7, 500_000_000)
    assert (s["completion"], s["rate_iops"], s["rate_process"]) == ("spin", 700, "poisson")
    assert (s["lat_log_entries"], s["continue_on_error"], s["detach"]) == (64, True, True)
    assert (s["allow_writes"], s["stages"], s["io_size"], s["number_ios"]) == \
        (False, False, 0, 0)


@pytest.mark.core
@pytest.mark.budget(40)
def test_raw_netlink_job_settings_in_list(guest, kiobench_module, make_nullb):
    """Every non-default setting of a job made over raw netlink is in
    `kiobench list` (normal and JSON), while it runs and after it stopped.
    Mutation: kb_put_config() puts KIOBENCH_COMPLETION_SLEEP (or LINEAR, or
    iodepth 1) instead of the job's value: red."""
    dev = make_nullb("nullb0", size_mb=64)
    ack = nlreq(guest, "new", f"dev={dev}", *RAW)
    assert ack.errno == 0, ack.out
    job = int(ack.replies[0]["job-id"])
    try:
        assert nlreq(guest, "start", f"job-id={job}").errno == 0
        for state in ("RUNNING", "STOPPED"):
            text = guest.check("kiobench list")
            m = re.search(rf"^{job} +rawjob +(\S+) .*\n +settings: (.*)$", text, re.M)
            assert m, text
            assert m.group(1) == state, text
            for want in LINE:
                assert want in m.group(2).split(" ") or f" {want}" in f" {m.group(2)} ", \
                    (want, m.group(2))
            doc = json.loads(guest.check("kiobench list --output-format=json"))
            mine = [j for j in doc["jobs"] if j["job_id"] == job]
            assert len(mine) == 1 and mine[0]["state"] == state, doc
            assert mine[0]["devices"] == dev
            expect_settings(mine[0]["settings"], dev)
            if state == "RUNNING":
                guest.check(f"kiobench stop {job}")
                guest.check(f"for i in $(seq 100); do kiobench list | grep -q '^{job} .*STOPPED'"
                            " && break; sleep 0.1; done")
    finally:
        guest.run(f"kiobench stop {job}; sleep 0.5; kiobench destroy {job}")


@pytest.mark.core
@pytest.mark.budget(40)
def test_report_settings_come_from_the_kernel(guest, kiobench_module, make_nullb):
    """The run's normal and JSON reports state the kernel's settings
    ("kernel ran" line, kiobench.settings, completion, rate_process).
    Mutation: tools/measures.c's kb_kcfg_completion() returning "sleep"
    for SPIN, or kb_json_measures() reading rate_process from r->job
    with a kernel that ignores it: red."""
    dev = make_nullb("nullb0", size_mb=64)
    args = (f"--filename={dev} --rw=randread --bssplit=4k/25:8k/75 --iodepth=4 --workers=2 "
            "--cpus_allowed=0-1 --offset=1m --size=8m --spin --rate_iops=700 "
            "--rate_process=poisson --runtime=1s --time_based --randseed=7")
    guest.check(f"kiobench run {args} --output-format=json --output=/tmp/r.json", timeout=120)
    doc = json.loads(guest.check("cat /tmp/r.json"))
    kb = doc["jobs"][0]["kiobench"]
    s = kb["settings"]
    assert (kb["completion"], kb["rate_iops"], kb["rate_process"]) == ("spin", 700, "poisson")
    assert (s["completion"], s["rate_iops"], s["rate_process"]) == ("spin", 700, "poisson")
    assert (s["iodepth"], s["numjobs"], s["cpus"]) == (4, 2, [0, 1])
    assert s["bssplit"] == [{"bs": 4096, "weight": 25}, {"bs": 8192, "weight": 75}]
    assert (s["offset"], s["size"], s["span_len"]) == (1 << 20, 8 << 20, [8 << 20])
    guest.check(f"kiobench run {args} --output=/tmp/r.txt", timeout=120)
    normal = guest.check("cat /tmp/r.txt")
    line = re.search(r"^  kernel ran   : (.*)$", normal, re.M)
    assert line, normal
    for want in ("rw=randread", "bssplit=4096/25:8192/75", "iodepth=4 numjobs=2 cpus_allowed=0,1",
                 "offset=1048576 size=8388608 span=8388608", "completion=spin",
                 "rate_iops=700 rate_process=poisson"):
        assert want in line.group(1), (want, line.group(1))
    assert re.search(r"^  completion   : spin;", normal, re.M), normal
    assert re.search(r"^  open loop    : rate_iops=700 per worker \(poisson\)", normal, re.M)


@pytest.mark.core
@pytest.mark.budget(40)
def test_job_ntf_carries_the_settings(guest, kiobench_module, make_nullb):
    """JOB_NTF, at the start and at the end of a job made over raw netlink,
    carries the same settings as JOB_GET (read by `nlfuzz listen`, which
    names each attribute as the spec does).  Mutation: kb_put_job() putting
    the settings for replies only (`if (cmd != KIOBENCH_CMD_JOB_NTF &&
    kb_put_config(msg, job))`): red."""
    dev = make_nullb("nullb0", size_mb=64)
    start_listener(guest, 2)
    args = [a for a in RAW if not a.startswith("runtime-ns=")] + ["runtime-ns=1000000000"]
    ack = nlreq(guest, "new", f"dev={dev}", *args)
    assert ack.errno == 0, ack.out
    job = int(ack.replies[0]["job-id"])
    try:
        assert nlreq(guest, "start", f"job-id={job}").errno == 0
        events = listened_events(guest, 2)
        for ev, state in zip(events, ("1", "2")):
            assert f"job-id={job}" in ev and f"job-state={state}" in ev, ev
            for want in ("completion=1", "rate-iops=700", "rate-process=1", "iodepth=4",
                         "numjobs=2", "cpus=1,0", "offset=1048576", "size=8388608",
                         "job-span-len=8388608", "runtime-ns=1000000000", "ramp-ns=1000000",
                         "seed=7", "interval-ns=500000000", "lat-log=64", "rwmix-read=100",
                         "random", "continue-on-error", "detach", "job-name=rawjob",
                         "devices=nest", "bssplit=nest"):
                assert want in ev, (want, ev)
            assert "allow-writes" not in ev and "stages" not in ev, ev
    finally:
        guest.run(f"kiobench destroy {job}")


@pytest.mark.core
def test_a_large_status_is_listed_whole(guest, kiobench_module, make_nullb):
    """A job's status grows with its settings: 1024 CPUs and 9 device
    paths of 4000 bytes make it some 40 KiB, larger than the 32 KiB a dump
    part gets from the reader's buffer size.  JOB_GET (do) and the dump
    behind `kiobench list` still carry it whole.  Mutation: the dump's
    start callback (kb_nl_job_dump_start) not setting min_dump_alloc: the
    dump's first part has no room for the job, and list fails: red."""
    devs = [make_nullb(f"nullb{i}", size_mb=4) for i in range(9)]
    long_dir = "/tmp/" + "/".join(["d" * 99] * 40)
    paths = [f"{long_dir}/l{i}" for i in range(9)]
    guest.check(f"mkdir -p {long_dir} && " +
                " && ".join(f"ln -sf {d} {p}" for d, p in zip(devs, paths)))
    cpus = ",".join(["1", "0"] * 512)
    ack = nlreq(guest, "new", *(f"dev={p}" for p in paths), "name=bigjob", f"cpus={cpus}")
    assert ack.errno == 0, ack.out
    job = int(ack.replies[0]["job-id"])
    try:
        assert nlreq(guest, "get", f"job-id={job}").errno == 0
        dump = nlreq(guest, "get", dump=True)
        assert dump.errno == 0 and [r["job-id"] for r in dump.replies] == [str(job)], dump.out
        doc = json.loads(guest.check("kiobench list --output-format=json"))
        (s,) = [j["settings"] for j in doc["jobs"] if j["job_id"] == job]
        assert s["cpus"] == [1, 0] * 512 and s["span_len"] == [4 << 20] * 9
        # the tool keeps 1 KiB of paths, and says where it cut them
        assert s["devices"].endswith("...") and paths[0].startswith(s["devices"][:-3])
        text = guest.check("kiobench list")
        assert f"cpus_allowed={cpus} " in text, text[:300]
    finally:
        guest.run(f"kiobench destroy {job}")


ZONES = ["dev={dev}", "random", "norandommap", "number-ios=10"]


@pytest.mark.parametrize("args,errno,msg", [
    (["zone=0/60/10", "zone=0/30/20"], "EINVAL", "access-pct must add up to 100"),
    (["zone=0/60/10", "zone=0/40/95"], "EINVAL", "size-pct to at most 100"),
    (["zone=0/60/10", "zone=0/40/4096b"], "EINVAL", "all size-pct or all size"),
    (["zone=0/100/10", "zone=1/100/4096b"], "EINVAL", "all size-pct or all size"),
    (["zone=0/100/10", "zone=1/70/30", "zone=1/30/70"], None, None),
    (["zone=0/100"], "EINVAL", "needs size-pct or size"),
    (["zone=/100/10"], "EINVAL", None),
    (["zone=0/100/1000b"], "EINVAL", "multiple of 512"),
    (["zone=2/100/10"], "ERANGE", None),
    (["zone=0/101/10"], "ERANGE", None),
], ids=["access-90", "size-105", "mixed-kinds", "mixed-dirs", "both-dirs", "no-size", "no-dir",
        "size-1000", "dir-2", "access-101"])
def test_random_zones_are_checked_by_the_kernel(guest, kiobench_module, make_nullb,
                                                args, errno, msg):
    """random-zones over raw netlink: the kernel's own checks (the tool
    checks first, so only a raw request reaches them), each refusal naming
    what is wrong; the valid request's job is listed with the zones the
    kernel holds.  Mutation: kb_zones_build() not checking the sum of the
    accesses: access-90 red."""
    dev = make_nullb("nullb0", size_mb=64)
    ack = nlreq(guest, "new", *(a.format(dev=dev) for a in ZONES), *args)
    if errno:
        assert ack.name == errno, ack.out
        assert msg is None or msg in ack.msg, ack.out
        assert nlreq(guest, "get", dump=True).replies == []
        return
    assert ack.errno == 0, ack.out
    job = int(ack.replies[0]["job-id"])
    try:
        text = guest.check("kiobench list")
        assert re.search(r" random_distribution=zoned:100/10,70/30:30/70(\s|$)", text, re.M), text
    finally:
        guest.run(f"kiobench destroy {job}")


def test_random_zones_need_norandommap(guest, kiobench_module, make_nullb):
    """fio turns its random map off for zones: a request with zones and
    the map on, or sequential, is refused.  Mutation: the check dropped: red."""
    dev = make_nullb("nullb0", size_mb=64)
    for extra in (["random"], ["norandommap"]):
        ack = nlreq(guest, "new", f"dev={dev}", "number-ios=10", *extra, "zone=0/100/10")
        assert ack.name == "EINVAL" and "needs random and norandommap" in ack.msg, ack.out


def cdf_hex(*ents: tuple[int, int]) -> str:
    """A random-cdf of (cum, rank) entries as nlfuzz's hex."""
    return "".join(c.to_bytes(8, "little").hex() + r.to_bytes(8, "little").hex()
                   for c, r in ents)


@pytest.mark.parametrize("ents,msg", [
    (((0, 0), (1 << 31, 1), (1 << 32, 16384)), None),
    (((0, 0), (1 << 31, 1), (1 << 32, 1)), "rank must rise"),
    (((0, 0), (1 << 31, 1), ((1 << 32) - 1, 16384)), "cum to 2^32"),
    (((0, 0), (1 << 32, 100)), "built for 100 blocks; the span of"),
], ids=["valid", "rank-flat", "cum-short", "other-span"])
def test_random_cdf_is_checked_by_the_kernel(guest, kiobench_module, make_nullb, ents, msg):
    """random-cdf over raw netlink on a 64 MiB device (16384 blocks of
    4 KiB): a table must rise from 0 to 2^32 and to the span's blocks.
    Mutation: the blocks check dropped: other-span red."""
    dev = make_nullb("nullb0", size_mb=64)
    ack = nlreq(guest, "new", f"dev={dev}", "random", "norandommap", "number-ios=10",
                "bss=4096", f"random-cdf:hex={cdf_hex(*ents)}")
    if msg:
        assert ack.name == "EINVAL" and msg in ack.msg, ack.out
        return
    assert ack.errno == 0, ack.out
    job = int(ack.replies[0]["job-id"])
    try:
        assert nlreq(guest, "start", f"job-id={job}").errno == 0
        text = guest.check(f"for i in $(seq 100); do kiobench list | grep -q '^{job} .*DONE'"
                           " && break; sleep 0.1; done; kiobench list")
        assert " random_cdf=3/16384 hottest_1%=0.5" in text, text
    finally:
        guest.run(f"kiobench destroy {job}")
