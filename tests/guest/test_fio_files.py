"""fio job files, run by fio and by kiobench in the same guest, compared as
I/O streams: what the block layer was asked to do, read back from its
tracepoints.

Each test writes a job file, runs it once under kiobench and three times
under Debian's fio (seeds 1, 2 and 3) on the same null_blk device, and
compares the streams the block layer saw at dispatch (block_rq_issue,
blktrace's D events, with merging off, so one event is one I/O): the read
share, the transfer sizes, and the share of I/Os in each 5 % band of the
device.  What fio varies between two of its own seeds is the yardstick:
kiobench may differ from fio by at most twice fio's largest difference
between its seeds, or by a floor that a few thousand samples allow (below
it the comparison would only measure luck).  Neither core nor debug: the tool's file handling is the same on
every kernel.
"""
from __future__ import annotations

import json
import shlex
from collections import Counter
from dataclasses import dataclass

import pytest

from kb import block_events, job_ids, nlreq, set_queue

SLOW = 300
BANDS = 20  # 5 % of the device each
NR_IOS = 4000


@dataclass
class Stream:
    """The I/Os dispatched to a device: (op, offset, bytes)."""
    ios: list[tuple[str, int, int]]

    def ops(self) -> dict[str, float]:
        c = Counter(o for o, _, _ in self.ios)
        return {k: v / len(self.ios) for k, v in c.items()}

    def sizes(self, op: str | None = None) -> dict[int, float]:
        c = Counter(n for o, _, n in self.ios if op in (None, o))
        total = sum(c.values())
        return {k: v / total for k, v in c.items()}

    def bands(self, dev_bytes: int) -> dict[int, float]:
        c = Counter(min(off * BANDS // dev_bytes, BANDS - 1) for _, off, _ in self.ios)
        return {k: v / len(self.ios) for k, v in c.items()}


def tv(a: dict, b: dict) -> float:
    """Total variation distance of two distributions (0: equal, 1: disjoint)."""
    return sum(abs(a.get(k, 0) - b.get(k, 0)) for k in set(a) | set(b)) / 2


def traced(guest, dev: str, cmd: str) -> Stream:
    """Run cmd in the guest with dev's issues traced; the I/Os dispatched."""
    return Stream([("R" if "R" in e.rwbs else "W" if "W" in e.rwbs else e.rwbs, e.sector * 512,
                    e.nbytes) for e in block_events(guest, dev, cmd, "D", SLOW)])


def streams(guest, dev: str, jobfile: str, kb_args: str = "",
            kb_out: str = "/dev/null") -> tuple[Stream, list[Stream]]:
    """The job file's stream under kiobench (its report in kb_out), and
    under fio with seeds 1-3."""
    guest.check(f"cat >/tmp/job.fio <<'EOF'\n{jobfile}\nEOF")
    set_queue(guest, dev, nomerges=2)   # one request, one I/O
    kb = traced(guest, dev, f"kiobench run {kb_args} /tmp/job.fio --output={kb_out}")
    # fio 3.33 draws the same offsets for every randseed while randrepeat
    # is on (its default), whatever the HOWTO says: off, the seed counts
    fio = [traced(guest, dev, f"fio --randrepeat=0 --randseed={s} --output=/dev/null "
                              f"/tmp/job.fio") for s in (1, 2, 3)]
    return kb, fio


def close_to_fio(what: str, ours, fio: list, floor: float) -> None:
    """ours (a distribution) within twice fio's own spread between seeds,
    or within floor, of each fio run."""
    spread = max(tv(fio[i], fio[j]) for i in range(3) for j in range(i + 1, 3))
    limit = max(2 * spread, floor)
    dist = max(tv(ours, f) for f in fio)
    assert dist <= limit, (f"{what}: kiobench is {dist:.3f} from fio (limit {limit:.3f}, fio's "
                           f"spread {spread:.3f})\nkiobench {sorted(ours.items())}\n"
                           f"fio {sorted(fio[0].items())}")


def job(dev: str, body: str) -> str:
    return (f"[global]\nfilename={dev}\ndirect=1\nioengine=libaio\nnumber_ios={NR_IOS}\n"
            f"{body}\n")


def test_a_mixed_random_file_streams_as_fio_does(guest, kiobench_module, make_nullb):
    """rw=randrw with rwmixread=70 and a three-way bssplit: the read
    share, the sizes of each direction and the offsets' bands.  With 4000
    I/Os, fio's seeds differ by about 0.01 in read share and 0.04 in
    bands; the floors are 0.03 and 0.08.  Mutations: kiobench's rwmixread
    taken as the write share (0.40 off), a bssplit weight dropped, offsets
    drawn in the span's first half only: red.  Without norandommap, fio
    shortens a transfer to the free blocks its random map has left at the
    offset drawn (12 % of its 64 KiB reads came out shorter here), which
    is the random map's business (test_randmap.py), not this test's."""
    dev = make_nullb("nullb0", size_mb=256)
    size = 256 << 20
    kb, fio = streams(guest, dev, job(dev, "[mix]\nrw=randrw\nrwmixread=70\n"
                                           "bssplit=4k/50:16k/30:64k/20\niodepth=8\n"
                                           "norandommap"),
                      kb_args="--allow-writes")
    assert len(kb.ios) == NR_IOS, len(kb.ios)
    assert all(len(f.ios) == NR_IOS for f in fio), [len(f.ios) for f in fio]
    close_to_fio("read share", kb.ops(), [f.ops() for f in fio], 0.03)
    for op in ("R", "W"):
        close_to_fio(f"sizes ({op})", kb.sizes(op), [f.sizes(op) for f in fio], 0.06)
    close_to_fio("bands", kb.bands(size), [f.bands(size) for f in fio], 0.08)


@pytest.mark.parametrize("sizes", ["bs=8k,32k", "bssplit=4k/50:16k/50,8k/90:64k/10",
                                   "bsrange=4k-16k,8k-20k"])
def test_each_direction_has_its_own_sizes_as_fio(guest, kiobench_module, make_nullb, sizes):
    """fio's bs=R,W, bssplit=R,W and bsrange=LO-HI,LO-HI: a mixed random
    file's reads and writes each take their own transfer sizes, with
    fio's weights (bsrange: each multiple of LO below HI as wide as fio's
    draw makes it, 20k taking 8k-20k's cap).  The sizes per direction are
    fio's within its own spread between seeds, or 0.06.  Mutations:
    kb_pick_bs() with the reads' table for every direction: red (the
    writes' sizes); the tool not sending bssplit-write: red."""
    dev = make_nullb("nullb0", size_mb=256)
    kb, fio = streams(guest, dev, job(dev, f"[dirs]\nrw=randrw\nrwmixread=50\n{sizes}\n"
                                           "iodepth=8\nnorandommap"),
                      kb_args="--allow-writes")
    assert len(kb.ios) == NR_IOS, len(kb.ios)
    for op in ("R", "W"):
        close_to_fio(f"sizes ({op})", kb.sizes(op), [f.sizes(op) for f in fio], 0.06)
    assert set(kb.sizes("R")) != set(kb.sizes("W")), (kb.sizes("R"), kb.sizes("W"))


@pytest.mark.debug
def test_bsrange_wider_than_the_table_is_drawn_by_the_kernel(guest, kiobench_module,
                                                             make_nullb):
    """bsrange=512-1m,4k-8k: the reads' 2048 sizes outnumber the kernel's
    table (16), so the tool sends the range (bsrange bit 0) and the kernel
    draws each size as fio's get_next_buflen(): every read a multiple of
    512 from 512 to 1 MiB, of many more sizes than a table holds, while the
    writes keep their table (4k, 8k); debugfs names the range.  Raw
    requests the tool never sends are refused with the attribute named and
    no job left: a range list of one size, a bit without its list, a bit
    past trims.  Mutation: kb_parse_bsrange() not setting range (the
    kernel drawing the two ends as a table): red (2 read sizes)."""
    dev = make_nullb("nullb0", size_mb=64, max_sectors=2048)  # 1 MiB requests whole
    set_queue(guest, dev, nomerges=2)
    # norandommap: the random map's bitmap would cut transfers to the
    # blocks a pass has left, as fio's (test_randmap.py), 512-byte ones here
    ev = block_events(guest, dev, f"kiobench run --filename={dev} --rw=randrw --allow-writes "
                      "--bsrange=512-1m,4k-8k --number_ios=1500 --io_size=4g --keep "
                      "--norandommap --output-format=json --output=/tmp/b.json")
    reads = Counter(e.nbytes for e in ev if e.action == "D" and "R" in e.rwbs)
    writes = Counter(e.nbytes for e in ev if e.action == "D" and "W" in e.rwbs)
    assert all(n % 512 == 0 and 512 <= n <= 1 << 20 for n in reads), sorted(reads)
    assert len(reads) > 100, sorted(reads)
    assert set(writes) <= {4096, 8192}, sorted(writes)
    out = guest.check("cat /sys/kernel/debug/kiobench/job*/config")
    assert "bs=512-1048576 range\n" in out and "bs_write=4096 weight=" in out, out
    job = json.loads(guest.check("cat /tmp/b.json"))["jobs"][0]
    assert job["kiobench"]["settings"]["bsrange"] is True, job["kiobench"]["settings"]
    guest.check(f"kiobench destroy {job['kiobench']['job_id']}")
    for extra, name, attr, msg in (
            (["bss=4096", "bsrange=1"], "EINVAL", "bssplit",
             "bsrange: a range's list is two sizes, low then high"),
            (["bss=512", "bss=8192", "bsrange=2"], "EINVAL", "bsrange",
             "bsrange: a bit without its bssplit list"),
            (["bss=512", "bss=8192", "bsrange=8"], "ERANGE", "bsrange", "")):
        ack = nlreq(guest, "new", f"dev={dev}", "number-ios=10", *extra)
        if ack.errno == 0:
            nlreq(guest, "del", f"job-id={ack.replies[0]['job-id']}")
        assert ack.name == name and ack.attr == attr and ack.msg.startswith(msg), \
            (extra, ack.out)
    assert job_ids(guest) == []


# 16 sizes, 15 without a percentage: 89 / 15 is 5 each, and the 14 left
# fall to 8k/11, the last in fio's order (8k at 25 %)
SIXTEEN = "8k/11:" + ":".join(str(512 * i) for i in range(1, 16))
IOMETER = "512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10"


@pytest.mark.parametrize("split,body,table,floor", [
    ("1k/50:2k:4k:8k", "rw=randread", {2048: 16, 4096: 16, 8192: 16, 1024: 52}, 0.045),
    ("4k/10:8k/20:16k/30", "rw=randread", {4096: 10, 8192: 20, 16384: 70}, 0.045),
    (SIXTEEN, "rw=randread", {**{512 * i: 5 for i in range(1, 16)}, 8192: 25}, 0.07),
    # fio's examples/iometer-file-access-server.fio, bounded by number_ios
    (IOMETER, "rw=randrw\nrwmixread=80\niodepth=64",
     {8192: 2, 16384: 4, 32768: 4, 1024: 5, 2048: 5, 512: 10, 65536: 10, 4096: 60}, 0.06),
], ids=["no-percentage", "below-100", "remainder", "iometer"])
def test_bssplit_shares_sizes_as_fio(guest, kiobench_module, make_nullb, split, body, table,
                                     floor):
    """fio's bssplit: entries without a percentage get (100 - sum) / missing
    each, and the integer remainder, like whatever a sum below 100 leaves,
    goes to the largest share, the last of equal ones (fio sorts the
    table by percentage and a draw past the sum takes its last entry).
    The kernel's table (the report's settings) is fio's shares, and the
    sizes the trace sees are fio's within twice fio's own spread between
    its seeds, or the floor: 1.5 times the largest difference (total
    variation) between any two of 20 seeds of fio at 4000 I/Os (its null
    engine, host-side: 0.030 for the four sizes, 0.028 for three, 0.047
    for sixteen, 0.040 for iometer's eight).  Mutation: the tool's old
    remainder rule (one percent each over the first entries without a
    percentage, a sum other than 100 refused): red (below-100 refused;
    no-percentage and remainder: the kernel's table; with that check left
    out, the traced sizes alone: remainder 0.153 from fio's, limit 0.073;
    no-percentage 0.047, limit 0.045).  iometer's percentages add up to
    100, which the old rule already got right: it shows the whole mix
    comes out as fio's.  Without norandommap fio shortens a transfer to the
    blocks its random map has left at the offset drawn: iometer's mean
    transfer then falls from 11 to about 5 KiB over a pass of the
    device, which is the random map's business (test_randmap.py), not
    bssplit's."""
    dev = make_nullb("nullb0", size_mb=256)
    kb, fio = streams(guest, dev, job(dev, f"[split]\n{body}\nbssplit={split}\nnorandommap"),
                      kb_args="--allow-writes --output-format=json", kb_out="/tmp/kb.json")
    assert len(kb.ios) == NR_IOS, len(kb.ios)
    got = json.loads(guest.check("cat /tmp/kb.json"))["jobs"][0]["kiobench"]["settings"]
    assert {e["bs"]: e["weight"] for e in got["bssplit"]} == table, got["bssplit"]
    close_to_fio("sizes", kb.sizes(), [f.sizes() for f in fio], floor)
    if "rwmixread" in body:
        close_to_fio("read share", kb.ops(), [f.ops() for f in fio], 0.03)


def test_offset_and_size_as_percentages_stream_as_fio_does(guest, kiobench_module,
                                                          make_nullb):
    """offset=25% and size=50%: every I/O of both lies in the device's
    second and third quarters, spread over them alike.  Mutation: the
    percentage of the device taken as a number of bytes (offset 25): red."""
    dev = make_nullb("nullb0", size_mb=256)
    size = 256 << 20
    kb, fio = streams(guest, dev, job(dev, "[quarters]\nrw=randread\nbs=4k\noffset=25%\n"
                                           "size=50%\niodepth=8"))
    for s in [kb, *fio]:
        offs = [o for _, o, _ in s.ios]
        assert size // 4 <= min(offs) and max(offs) + 4096 <= 3 * size // 4, (min(offs), max(offs))
    close_to_fio("bands", kb.bands(size), [f.bands(size) for f in fio], 0.08)
    # the spread reaches the whole range: each of its ten bands is used
    assert set(kb.bands(size)) == set(range(5, 15)), sorted(kb.bands(size))


@pytest.mark.parametrize("rw", ["read", "write"])
def test_a_sequential_file_streams_as_fio_does(guest, kiobench_module, make_nullb, rw):
    """Sequential I/O from offset=1m in 64 KiB transfers: the same offsets,
    in the same order, as fio's (fio's stream is exact here, so are the
    bounds).  Mutation: a sequential worker starting at 0, not offset: red."""
    dev = make_nullb("nullb0", size_mb=64, memory_backed=True)
    body = f"[seq]\nrw={rw}\nbs=64k\noffset=1m\niodepth=4\nnumber_ios=200"
    kb, fio = streams(guest, dev, job(dev, body), kb_args="--allow-writes" if rw == "write" else "")
    want = [o for _, o, _ in fio[0].ios]
    assert want[:3] == [1 << 20, (1 << 20) + 65536, (1 << 20) + 131072], want[:3]
    assert [o for _, o, _ in kb.ios] == want, shlex.join(map(str, [o for _, o, _ in kb.ios][:8]))
    assert {n for _, _, n in kb.ios} == {65536}


def zone_shares(ios, edges: list[int], op: str | None = None) -> list[float]:
    """The share of the I/Os (of op, if given) starting in each zone
    [edges[i], edges[i + 1])."""
    offs = [o for o2, o, _ in ios if op in (None, o2)]
    return [sum(lo <= o < hi for o in offs) / len(offs) for lo, hi in zip(edges, edges[1:])]


def test_zoned_random_reads_fall_in_their_zones_as_fio_does(guest, kiobench_module, make_nullb):
    """fio's example, random_distribution=zoned:60/10:30/20:8/30:2/40, on a
    200 MiB device: 60 % of the reads in its first 10 %, 30 % in the next
    20 %... within 0.035 of each share (4 standard deviations of 4000
    draws at 0.6 are 0.031), and the 5 % bands as close to fio's as fio's
    seeds are to each other (floor 0.08).  Mutation: the kernel ignoring
    the zones (uniform offsets: 10/20/30/40 %): red."""
    size = 200 << 20
    dev = make_nullb("nullb0", size_mb=200)
    kb, fio = streams(guest, dev, job(dev, "[zoned]\nrw=randread\nbs=4k\niodepth=8\n"
                                           "random_distribution=zoned:60/10:30/20:8/30:2/40"))
    edges = [0, size // 10, 3 * size // 10, 6 * size // 10, size]
    for name, s in [("kiobench", kb)] + [(f"fio seed {i + 1}", f) for i, f in enumerate(fio)]:
        got = zone_shares(s.ios, edges)
        assert all(abs(g - w) <= 0.035 for g, w in zip(got, (0.6, 0.3, 0.08, 0.02))), (name, got)
    close_to_fio("bands", kb.bands(size), [f.bands(size) for f in fio], 0.08)


def test_zoned_abs_zones_as_fio_does(guest, kiobench_module, make_nullb):
    """zoned_abs over the first 64 MiB of a 256 MiB device, rw=randrw:
    80 % of the reads and of the writes in [0, 16M), 20 % in [16M, 64M),
    nothing beyond, under kiobench as under fio (each share within 0.05:
    4 standard deviations of 2000 draws at 0.8 are 0.036).  Mutation:
    zoned_abs sizes read as percentages of the span: red."""
    dev = make_nullb("nullb0", size_mb=256)
    m = 1 << 20
    kb, fio = streams(guest, dev, job(dev, "[abs]\nrw=randrw\nrwmixread=50\nbs=4k\niodepth=8\n"
                                           "random_distribution=zoned_abs:80/16M:20/48M"),
                      kb_args="--allow-writes")
    edges = [0, 16 * m, 64 * m]
    for name, s in [("kiobench", kb)] + [(f"fio seed {i + 1}", f) for i, f in enumerate(fio)]:
        assert max(o for _, o, _ in s.ios) < 64 * m, name
        for op in ("R", "W"):
            got = zone_shares(s.ios, edges, op)
            assert all(abs(g - w) <= 0.05 for g, w in zip(got, (0.8, 0.2))), (name, op, got)


def test_each_direction_has_its_own_zones(guest, kiobench_module, make_nullb):
    """random_distribution=zoned:80/25:20/75,20/25:80/75: the reads' zones
    before the ',', the writes' after it, as fio's HOWTO says (Debian's
    fio 3.33 refuses any ',' in this option, so kiobench alone is traced):
    80 % of the reads and 20 % of the writes in the first quarter, each
    share within 0.05.  Mutation: the reads' zones used for the writes: red."""
    size = 256 << 20
    dev = make_nullb("nullb0", size_mb=256)
    guest.check(f"cat >/tmp/job.fio <<'EOF'\n"
                + job(dev, "[dirs]\nrw=randrw\nrwmixread=50\nbs=4k\niodepth=8\n"
                           "random_distribution=zoned:80/25:20/75,20/25:80/75") + "\nEOF")
    kb = traced(guest, dev, "kiobench run --allow-writes /tmp/job.fio --output=/dev/null")
    edges = [0, size // 4, size]
    for op, want in (("R", (0.8, 0.2)), ("W", (0.2, 0.8))):
        got = zone_shares(kb.ios, edges, op)
        assert all(abs(g - w) <= 0.05 for g, w in zip(got, want)), (op, got)


def test_zoned_abs_beyond_the_span_is_refused(guest, kiobench_module, make_nullb):
    """zoned_abs zones that add up to more than the device: the kernel
    refuses the job, names the attribute and both sizes, and nothing is
    read.  Mutation: the span check skipped: the job runs, red."""
    dev = make_nullb("nullb0", size_mb=64)
    before = guest.check(f"cat /sys/block/{dev.split('/')[-1]}/stat").split()[0]
    r = guest.run(f"kiobench run --filename={dev} --rw=randread --number_ios=100 "
                  "--random_distribution=zoned_abs:50/32M:50/48M")
    assert r.rc != 0, r.out
    assert "random-zones: zoned_abs sizes 83886080 > span 67108864 of " + dev in r.out, r.out
    assert guest.check(f"cat /sys/block/{dev.split('/')[-1]}/stat").split()[0] == before


def hot_shares(ios, blocks: int, fracs=(0.01, 0.1, 0.5)) -> dict[float, float]:
    """The share of the I/Os on the most-hit fraction f of the blocks, for
    each f: what a skewed distribution is about, wherever it puts its hot
    blocks (fio hashes its ranks, kiobench permutes them)."""
    hits = sorted(Counter(o // 4096 for _, o, _ in ios).values(), reverse=True)
    return {f: sum(hits[:max(1, round(f * blocks))]) / len(ios) for f in fracs}


@pytest.mark.parametrize("dist", ["zipf:1.2", "pareto:0.3", "normal", "normal:40"])
def test_skewed_random_reads_hit_blocks_as_fios_do(guest, kiobench_module, make_nullb, dist):
    """random_distribution=zipf:1.2, pareto:0.3 and normal over 4096 blocks
    (a power of two, where fio's hash of the ranks is a permutation, as
    kiobench's scatter is): the share of the reads on the most-hit 1, 10
    and 50 % of the blocks, as close to fio's as fio's seeds are to each
    other (floor 0.03), and for zipf and pareto the kernel's own table
    says the same of its hottest 1 % of ranks (within 0.035: 4 standard
    deviations of 4000 draws at 0.3 are 0.029; the wider fractions are
    sampled too thinly by 4000 reads over 4096 blocks to compare with the
    table).  normal's hottest blocks are nearly equally likely, so which
    of them 4000 reads hit most is noise: its table is checked against
    fio's procedure by the tool's unit test instead.
    Mutations: the kernel drawing ranks uniformly (x ignored); the tool's
    table built for theta 1.0 + 0.5; normal's standard deviation n / 10
    instead of n / 12 (normal only): red."""
    dev = make_nullb("nullb0", size_mb=16)
    body = f"[skew]\nrw=randread\nbs=4k\niodepth=8\nrandom_distribution={dist}"
    guest.check(f"cat >/tmp/job.fio <<'EOF'\n{job(dev, body)}\nEOF")
    guest.check("kiobench run /tmp/job.fio --output-format=json --output=/tmp/skew.json")
    doc = json.loads(guest.check("cat /tmp/skew.json"))
    table = doc["jobs"][0]["kiobench"]["settings"]["random_cdf"]
    assert table["blocks"] == 4096, table
    # not "random": the zones' key says nothing of a table's skew
    assert "random_distribution" not in doc["jobs"][0]["kiobench"]["settings"]
    kb, fio = streams(guest, dev, job(dev, body))
    ours, theirs = hot_shares(kb.ios, 4096), [hot_shares(f.ios, 4096) for f in fio]
    for frac in ours:
        spread = max(abs(a[frac] - b[frac]) for a in theirs for b in theirs)
        limit = max(2 * spread, 0.03)
        assert all(abs(ours[frac] - t[frac]) <= limit for t in theirs), \
            (dist, frac, ours[frac], [t[frac] for t in theirs], limit)
    if not dist.startswith("normal"):
        assert abs(ours[0.01] - table["hottest_share"]["1%"]) <= 0.035, (ours, table)


def seq_share(ios, op: str) -> float:
    """The share of op's I/Os that start where op's previous one ended."""
    mine = [(o, n) for o2, o, n in ios if o2 == op]
    return sum(o == p + n_p for (p, n_p), (o, _) in zip(mine, mine[1:])) / (len(mine) - 1)


def test_percentage_random_goes_on_where_the_last_io_ended_as_fio(guest, kiobench_module,
                                                                  make_nullb):
    """percentage_random=30 at QD1 (dispatch order is pick order): 70 % of
    the reads start where the previous read ended, under kiobench as under
    fio (within 0.03: 4 standard deviations of 4000 draws at 0.7 are
    0.029).  Then percentage_random=100,0 with rwmixread=50: no read
    follows on, every write but the first does, each direction after its
    own previous I/O (fio's last_pos per direction).  Mutations: the share
    read as the sequential one (30 % follow on); one cursor for both
    directions (the writes follow reads too): red."""
    dev = make_nullb("nullb0", size_mb=256)
    kb, fio = streams(guest, dev, job(dev, "[pr]\nrw=randread\nbs=4k\niodepth=1\n"
                                           "percentage_random=30"))
    for name, s in [("kiobench", kb)] + [(f"fio seed {i + 1}", f) for i, f in enumerate(fio)]:
        assert abs(seq_share(s.ios, "R") - 0.7) <= 0.03, (name, seq_share(s.ios, "R"))
    kb, fio = streams(guest, dev, job(dev, "[pr2]\nrw=randrw\nrwmixread=50\nbs=4k\n"
                                           "iodepth=1\npercentage_random=100,0"),
                      kb_args="--allow-writes")
    for name, s in [("kiobench", kb), ("fio seed 1", fio[0])]:
        assert seq_share(s.ios, "R") <= 0.02, (name, seq_share(s.ios, "R"))
        assert seq_share(s.ios, "W") >= 0.99, (name, seq_share(s.ios, "W"))
