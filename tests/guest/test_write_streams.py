"""Write streams (kiobench's write_streams, the kernel's bi_write_stream,
Linux 6.16) on an NVMe namespace with Flexible Data Placement: the NVMe
driver sends write stream N as the Data Placement directive (DTYPE 2 in
the write's control field, cdw12, and the namespace's placement handle
N-1 in DSPEC, the upper half of dsmgmt, cdw13), which the nvme_setup_cmd
tracepoint shows.  QEMU 7.2 has no FDP: this module's guest boots QEMU 10
(vm.guest.Fdp).  Only kernels with write streams have anything to show:
the debug kernel (7.2); the refusal where there are none is
test_submit_opts.py's.  The write amplification the tool reports is
checked against the FDP statistics log, read here with the harness' own
nvmelog."""
from __future__ import annotations

import json

import pytest

from kb import FDP_PI_GUEST, nvme_cmds, queue_attr
from vm.guest import Guest
from vm.targets import nvme_ctrl, nvme_dev

MiB = 1 << 20
# Four reclaim unit handles, all the namespace's: write streams 1 to 4
# (controller 0; controller 1 is test_pi.py's).
GUEST_ARGS = FDP_PI_GUEST
DTYPE_DPLCMT = 2 << 4   # NVME_RW_DTYPE_DPLCMT in the control field

pytestmark = pytest.mark.debug


def write_placements(guest: Guest, args: str) -> list[int | None]:
    """The placement handle (DSPEC) of each write the driver set up while
    `kiobench run ARGS` ran, in order; None for a write without the
    directive.  Reads must carry none."""
    dev = nvme_dev(guest)
    cmds = nvme_cmds(guest, f"kiobench run --allow-writes --filename={dev} {args}")
    reads = [c for c in cmds if c["op"] == "nvme_cmd_read"]
    assert all(not c["ctrl"] & 0xf0 and not c["dsmgmt"] >> 16 for c in reads), reads
    writes = [c for c in cmds if c["op"] == "nvme_cmd_write"]
    assert writes, cmds
    return [c["dsmgmt"] >> 16 if c["ctrl"] & 0xf0 == DTYPE_DPLCMT else None for c in writes]


def test_qemu10_cpu_keeps_cmpxchg16b(guest: Guest):
    """This guest runs QEMU 10, whose CMPXCHG16B leaves RFLAGS as the
    architecture says: its CPU keeps the instruction, and the probe that
    finds QEMU 7.2's wrong (vm/cx16probe.c) finds it right."""
    out = guest.check("cx16probe")
    assert out.startswith("rflags "), out


def test_fdp_namespace_offers_streams(guest: Guest):
    """The harness' FDP namespace reaches the kernel: four write streams
    (one per reclaim unit handle of fdp.ruhs), 1 MiB reclaim units.
    Mutation: Nvme.qemu_args without fdp.ruhs (QEMU then gives the
    namespace one handle): red (1 stream)."""
    dev = nvme_dev(guest)
    assert queue_attr(guest, dev, "max_write_streams") == "4"
    assert queue_attr(guest, dev, "write_stream_granularity") == str(MiB)


def test_writes_carry_their_stream(guest: Guest, kiobench_module):
    """write_streams=1,3 (roundrobin, the default): one worker's writes
    take placement handles 0, 2, 0, 2 ... in order (iodepth 1: the
    submission order is the driver's), its reads none.  random: every
    write has one of the list's, and both appear; job: every write the
    one stream (its sequential writes merged: a request of one stream).  Mutation: kb_issue() not setting bi_write_stream: red
    (no directive)."""
    rr = write_placements(guest, "--rw=randrw --bs=4k --iodepth=1 --number_ios=32 "
                                 "--write_streams=1,3")
    assert len(rr) >= 4 and rr == [(0, 2)[i % 2] for i in range(len(rr))], rr
    rnd = write_placements(guest, "--rw=randwrite --bs=4k --iodepth=4 --number_ios=32 "
                                  "--write_streams=2,4 --write_stream_select=random")
    assert len(rnd) == 32 and set(rnd) == {1, 3}, rnd
    # sequential: the block layer merges writes of one stream (4 commands)
    job = write_placements(guest, "--rw=write --bs=8k --iodepth=2 --number_ios=8 "
                                  "--write_streams=4 --write_stream_select=job")
    assert job and set(job) == {3}, job


def test_write_streams_per_worker(guest: Guest, kiobench_module):
    """write_stream_select=worker: worker i's writes all carry stream
    i mod n.  The kernel's workers of one job (kiobench's workers=2,
    sequential: worker 1 starts halfway, LBA 65536 of the 64 MiB
    namespace) take handles 0 and 1 by their LBAs; fio's clones
    (numjobs=2, each a kernel job of its own, each bound to its CPU by
    cpus_allowed split) take them by their NVMe queue, the tool rotating
    clone k's list.  Mutations: kb_write_stream()'s worker case taking
    the list's first for every worker: red (the workers); the tool not
    rotating a clone's list: red (the clones)."""
    dev = nvme_dev(guest)
    base = (f"kiobench run --allow-writes --filename={dev} --bs=4k --iodepth=1 "
            f"--number_ios=8 --write_streams=1,2 --write_stream_select=worker")
    half = (64 * MiB // 2) // 512
    by_half: dict[bool, set[int]] = {}
    for c in nvme_cmds(guest, f"{base} --rw=write --workers=2"):
        if c["op"] == "nvme_cmd_write":
            assert c["ctrl"] & 0xf0 == DTYPE_DPLCMT, c
            by_half.setdefault(c["slba"] >= half, set()).add(c["dsmgmt"] >> 16)
    assert by_half == {False: {0}, True: {1}}, by_half
    by_qid: dict[int, set[int]] = {}
    for c in nvme_cmds(guest, f"{base} --rw=randwrite --numjobs=2 --cpus_allowed=0-1 "
                              f"--cpus_allowed_policy=split"):
        if c["op"] == "nvme_cmd_write":
            assert c["ctrl"] & 0xf0 == DTYPE_DPLCMT, c
            by_qid.setdefault(c["qid"], set()).add(c["dsmgmt"] >> 16)
    assert sorted(map(sorted, by_qid.values())) == [[0], [1]], by_qid


def test_write_streams_beyond_the_device(guest: Guest, kiobench_module):
    """A stream beyond the namespace's four is refused, naming the
    attribute, the stream, the device's max_write_streams and the device;
    so is job selection over two streams.  Nothing is written.  Mutation:
    kb_check_submit() without the limit: red (the job runs, and the NVMe
    driver WARNs on the stream)."""
    dev = nvme_dev(guest)
    base = f"kiobench run --allow-writes --filename={dev} --rw=write --bs=4k --number_ios=4"
    r = guest.run(f"{base} --write_streams=1,5")
    assert r.rc != 0 and f"write-streams: stream 5 beyond max_write_streams 4 of {dev}" \
        in r.out, r.out
    r = guest.run(f"{base} --write_streams=1,2 --write_stream_select=job")
    assert r.rc != 0 and "write-stream-select: job takes one stream in write-streams" \
        in r.out, r.out


def fdp_stats(guest: Guest) -> tuple[int, int]:
    """Host and media bytes with metadata written of the namespace's
    endurance group (1, QEMU's): the FDP statistics log (LID 0x22), read
    by the harness' own nvmelog, 16-byte little-endian counters."""
    raw = bytes.fromhex(guest.check(f"nvmelog {nvme_ctrl(guest)} 0x22 1 64").replace(" ", ""))
    return int.from_bytes(raw[0:16], "little"), int.from_bytes(raw[16:32], "little")


def test_write_amplification_from_the_fdp_log(guest: Guest, kiobench_module):
    """kiobench reads the FDP statistics log before and after a job with
    write_streams and reports the run's host and media bytes written and
    their ratio, the write amplification: the same deltas as the log the
    test reads itself (QEMU counts every byte written to the endurance
    group in both: 64 KiB each, 1.000), in JSON and in the text report,
    and the reclaim unit handles the writes went through (streams 1 and
    2: placement ids 0 and 1, of 4).  Mutation: the tool reading the FDP
    events log (LID 0x23) for the statistics: red."""
    dev, ctrl = nvme_dev(guest), nvme_ctrl(guest)
    args = (f"--allow-writes --filename={dev} --rw=randwrite --bs=4k --iodepth=2 "
            f"--number_ios=16 --write_streams=1,2")
    host0, media0 = fdp_stats(guest)
    guest.check(f"kiobench run {args} --output-format=json --output=/tmp/fdp.json")
    host1, media1 = fdp_stats(guest)
    fdp = json.loads(guest.check("cat /tmp/fdp.json"))["fdp"]
    assert len(fdp) == 1, fdp
    f = fdp[0]
    assert (f["device"], f["controller"], f["endurance_group"]) == \
        (dev[5:], ctrl, 1), f
    assert (f["host_bytes_written"], f["media_bytes_written"]) == \
        (host1 - host0, media1 - media0) == (64 << 10, 64 << 10), (f, host0, host1)
    assert f["write_amplification"] == 1.0, f
    used = {r["placement_id"] for r in f["reclaim_unit_handles"] if r["used"]}
    assert used == {0, 1} and len(f["reclaim_unit_handles"]) == 4, f
    host0, media0 = host1, media1
    out = guest.check(f"kiobench run {args}")
    host1, media1 = fdp_stats(guest)
    assert (f"{dev[5:]}: endurance group 1 ({ctrl}): host bytes written="
            f"{host1 - host0}, media bytes written={media1 - media0}, write "
            f"amplification=1.000; reclaim unit handles used (placement id/handle): "
            f"0/0, 1/1 of 4") in out, out


def test_streams_sweep_compares_write_amplification(guest: Guest, kiobench_module):
    """kiobench sweep --streams=0,4: the first step's writes carry no
    stream, the second's streams 1 to 4 (write_stream_select=worker: one
    per worker), and each step reports the FDP statistics around itself,
    which add up to the log's deltas that the test reads around both: without
    streams the writes went through the default handle alone (placement
    id 0), with them through all four.  The step 0 table row is followed
    by its FDP line.  QEMU's media bytes may exceed the host's (a reclaim
    unit left for a new one): the figures are checked against the log,
    not against 1.000.  Mutations: the step's streams not set (step_streams
    returning 0 at once): red (no directive); the statistics read only
    for steps with streams (kb_find_fdp(&r, false) in run_step): red
    (step 0 has none)."""
    dev = nvme_dev(guest)
    # 768 KiB a step, 192 KiB a handle with streams: no whole number of
    # the 1 MiB reclaim units, whose available media writes would then
    # read as before (a handle used would look unused)
    kib = 768
    sweep = (f"kiobench sweep --allow-writes --filename={dev} --rw=randwrite --bs=4k "
             f"--iodepth=4 --split-qd=4 --io_size={kib}k --streams=0,4 "
             "--write_stream_select=worker")
    host0, media0 = fdp_stats(guest)
    cmds = nvme_cmds(guest, f"{sweep} --output-format=json --output=/tmp/ws.json")
    host1, media1 = fdp_stats(guest)
    writes = [c for c in cmds if c["op"] == "nvme_cmd_write"]
    tagged = [c["dsmgmt"] >> 16 if c["ctrl"] & 0xf0 == DTYPE_DPLCMT else None for c in writes]
    # each step's writes of 4 KiB: the first step's untagged, the second's on handles 0..3
    n = kib // 4
    assert len(tagged) == 2 * n, len(tagged)
    assert set(tagged[:n]) == {None} and set(tagged[n:]) == {0, 1, 2, 3}, \
        (tagged[:8], tagged[-8:])
    doc = json.loads(guest.check("cat /tmp/ws.json"))
    steps = doc["parts"][0]["steps"]
    assert [s["value"] for s in steps] == ["0", "4"], steps
    used, host, media = [], 0, 0
    for s in steps:
        assert len(s["fdp"]) == 1, s["fdp"]
        f = s["fdp"][0]
        h, m = f["host_bytes_written"], f["media_bytes_written"]
        assert h == kib << 10 and f["write_amplification"] == pytest.approx(m / h), f
        used.append({r["placement_id"] for r in f["reclaim_unit_handles"] if r["used"]})
        host, media = host + h, media + m
    assert used == [{0}, {0, 1, 2, 3}], used
    # the two steps' deltas are the log's over the sweep (QEMU adds media
    # bytes when a handle moves to a new reclaim unit: not always 1.000)
    assert (host, media) == (host1 - host0, media1 - media0), (host, media, host0, host1)
    out = guest.check(sweep)
    assert out.count(f"{dev[5:]}: endurance group 1 (") == 2 and \
        "reclaim unit handles used (placement id/handle): 0/0 of 4" in out and \
        "0/0, 1/1, 2/2, 3/3 of 4" in out, out


def test_precondition_rounds_report_write_amplification(guest: Guest, kiobench_module):
    """kiobench precondition --write_streams=1,2: the fill and each
    random-write round read the FDP statistics around themselves (as a
    run with streams does), each with its own bytes and handles, the
    steps' deltas adding up to the log's.  Mutation: run_step not asking
    for the FDP statistics at all (no kb_find_fdp()): red (no fdp)."""
    dev = nvme_dev(guest)
    host0, media0 = fdp_stats(guest)
    guest.check(f"kiobench precondition --allow-writes --filename={dev} --size=768k "
                "--fill-bs=4k --passes=2 --write_streams=1,2 --output-format=json "
                "--output=/tmp/pre.json", timeout=120)
    host1, media1 = fdp_stats(guest)
    doc = json.loads(guest.check("cat /tmp/pre.json"))
    steps = [s for p in doc["parts"] for s in p["steps"]]
    assert len(steps) == 3, [p["name"] for p in doc["parts"]]     # the fill, two rounds
    host = media = 0
    for s in steps:
        f = s["fdp"][0]
        assert f["host_bytes_written"] == 768 << 10, f
        assert {r["placement_id"] for r in f["reclaim_unit_handles"] if r["used"]} == {0, 1}, f
        host, media = host + f["host_bytes_written"], media + f["media_bytes_written"]
    assert (host, media) == (host1 - host0, media1 - media0)
