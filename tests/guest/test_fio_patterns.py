"""fio's offset patterns, run by fio and by kiobench on the same job file in
the same guest and compared as the I/O streams the block layer dispatched:
rw's offset modifier (rw=randread:N, rw=write:N), rw_sequencer and
zonemode=strided.

Every job runs at iodepth=1, so that dispatch order is the order in which
the offsets were picked.  Where fio's stream is exact (sequential offsets,
strided zones) kiobench's must be the same list; where it is random, the
pattern's structure must be the same: which I/Os follow on from the
previous one or repeat its offset, which zone each I/O falls in.  Not
core: the offsets are drawn by the same code on every kernel.  The last
test runs kiobench alone on the debug kernel, for KASAN's and UBSAN's
check of the drawing code: every pattern in one job file, under one
trace, as the debug lane's time is short.
"""
from __future__ import annotations

import json
from collections import Counter

import pytest

from kb import run_job
from test_fio_files import hot_shares, seq_share, traced

NR_IOS = 400


def job(dev: str, body: str) -> str:
    return (f"[global]\nfilename={dev}\ndirect=1\nioengine=libaio\niodepth=1\nbs=4k\n"
            f"number_ios={NR_IOS}\n{body}\n")


def both(guest, dev: str, jobfile: str, kb_args: str = "") -> tuple[list[int], list[int]]:
    """The offsets kiobench and fio dispatched for jobfile, in order."""
    guest.check(f"cat >/tmp/job.fio <<'EOF'\n{jobfile}\nEOF")
    kb = traced(guest, dev, f"kiobench run {kb_args} /tmp/job.fio --output=/dev/null")
    fio = traced(guest, dev, "fio --randrepeat=0 --output=/dev/null /tmp/job.fio")
    assert len(kb.ios) == len(fio.ios) == NR_IOS, (len(kb.ios), len(fio.ios))
    return [o for _, o, _ in kb.ios], [o for _, o, _ in fio.ios]


def phases(offs: list[int], n: int, same) -> list[float]:
    """For each position p in 0..n-1 of the pattern's period, the share of
    the I/Os at that position (I/O i at position i mod n) for which
    same(previous offset, offset) holds."""
    hits, seen = [0] * n, [0] * n
    for i in range(1, len(offs)):
        seen[i % n] += 1
        hits[i % n] += bool(same(offs[i - 1], offs[i]))
    return [h / s for h, s in zip(hits, seen)]


def test_random_offset_modifier_draws_one_offset_in_n_as_fio(guest, kiobench_module,
                                                             make_nullb):
    """rw=randread:8: the first I/O of every 8 at a drawn offset, the 7
    after it each starting where the previous one ended, under kiobench
    as under fio (fio's counter starts with a draw).  Per position in the
    period of 8: positions 1-7 follow on (all of fio's and kiobench's, but
    where a run meets the device's end, at most 1 in 100), position 0
    does not (a draw lands right after the previous I/O about once in
    65536).  Mutation: kb_seq_nr_draw() restarting the count at N instead
    of N - 1 (a draw every 9 I/Os): red."""
    dev = make_nullb("nullb0", size_mb=256)
    kb, fio = both(guest, dev, job(dev, "[n]\nrw=randread:8"))
    follows = lambda a, b: b == a + 4096  # noqa: E731
    for name, offs in (("kiobench", kb), ("fio", fio)):
        p = phases(offs, 8, follows)
        assert p[0] <= 0.02 and min(p[1:]) >= 0.98, (name, [round(x, 3) for x in p])


def test_rw_sequencer_identical_repeats_each_offset_as_fio(guest, kiobench_module,
                                                          make_nullb):
    """rw=randread:4 with rw_sequencer=identical: each drawn offset read 4
    times in a row, under kiobench as under fio; with norandommap, as
    fio's random map would shorten the repeats.  Mutation: kb_follow()
    taking identical as sequential (`cfg->rw_sequencer ==
    KIOBENCH_RW_SEQ_SEQUENTIAL`): red."""
    dev = make_nullb("nullb0", size_mb=256)
    kb, fio = both(guest, dev, job(dev, "[id]\nrw=randread:4\nrw_sequencer=identical\n"
                                        "norandommap"))
    for name, offs in (("kiobench", kb), ("fio", fio)):
        p = phases(offs, 4, lambda a, b: a == b)
        assert p[0] <= 0.02 and min(p[1:]) == 1, (name, p)


def test_sequential_offset_modifier_skips_as_fio(guest, kiobench_module, make_nullb):
    """rw=write:12k with bs=4k: each write starts 12 KiB past where the
    previous one ended, from the device's start: kiobench's offsets are
    fio's, the same list.  Mutation: the skip not added
    (`w->seq_next += 0`): red."""
    dev = make_nullb("nullb0", size_mb=64, memory_backed=True)
    kb, fio = both(guest, dev, job(dev, "[hole]\nrw=write:12k"), kb_args="--allow-writes")
    assert fio[:3] == [0, 16384, 32768], fio[:3]
    assert kb == fio, (kb[:6], fio[:6])


@pytest.mark.parametrize("body,n", [("size=4m\nbs=4k\nrw=read:512k", 8),
                                    ("bs=64k\nrw=read:1m", 64),
                                    ("size=4m\nio_size=64k\nbs=4k\nrw=read:512k", 16)])
def test_sequential_offset_modifier_ends_as_fio(guest, kiobench_module, make_nullb, body, n):
    """rw=read:N with size under the device's (4 MiB of 64): fio's next
    offset passes the span's end after 8 reads, its file is done and the
    job ends there, short of size; on the whole device (4 MiB, bs=64k,
    read:1m) the offset passes the device's end and starts over at the
    span's start, until size is read; with io_size given (64k: 16 reads),
    fio's keep_running() starts a new round at the span's start where the
    file is done, until io_size is read.  kiobench's offsets are fio's,
    the same list, in all three.  Mutations: kb_seq_end() never ending the
    pass (`if (1 || w->seq_next >= dev->dev_bytes ...`): red (the first
    job wraps to 0 until 4 MiB are read); seq-wrap not sent: red (the
    third ends after 8 reads)."""
    dev = make_nullb("nullb0", size_mb=64 if "size=" in body else 4)
    jobfile = f"[global]\nfilename={dev}\ndirect=1\nioengine=libaio\niodepth=1\n[s]\n{body}\n"
    guest.check(f"cat >/tmp/job.fio <<'EOF'\n{jobfile}EOF")
    kb = traced(guest, dev, "kiobench run /tmp/job.fio --output=/dev/null")
    fio = traced(guest, dev, "fio --output=/dev/null /tmp/job.fio")
    kb, fio = [o for _, o, _ in kb.ios], [o for _, o, _ in fio.ios]
    assert len(fio) == n and kb == fio, (kb[:20], fio)


def test_strided_sequential_zones_as_fio(guest, kiobench_module, make_nullb):
    """zonemode=strided, zonerange=64k, zonesize=32k, zoneskip=192k,
    rw=read: 8 reads from the start of each zone, the next zone 256 KiB
    on: kiobench's offsets are fio's, the same list.  Mutation: zoneskip
    not added to the next zone's start (`p->zbase += cfg->zonerange`):
    red."""
    dev = make_nullb("nullb0", size_mb=256)
    kb, fio = both(guest, dev, job(dev, "[st]\nrw=read\nzonemode=strided\nzonerange=64k\n"
                                        "zonesize=32k\nzoneskip=192k"))
    assert fio[:10] == [i * 4096 for i in range(8)] + [262144, 266240], fio[:10]
    assert kb == fio, (kb[:10], fio[:10])


def test_strided_zone_read_over_as_fio(guest, kiobench_module, make_nullb):
    """zonesize=96k above zonerange=32k: each zone read three times over
    from its start before the next one, right after it (no zoneskip):
    kiobench's offsets are fio's, the same list.  Mutation: the zone's
    cursor not wrapping at zonerange (`if (p->zpos + len > range +
    4096)`): red."""
    dev = make_nullb("nullb0", size_mb=256)
    kb, fio = both(guest, dev, job(dev, "[st2]\nrw=read\nzonemode=strided\nzonesize=96k\n"
                                        "zonerange=32k"))
    assert fio[8:10] == [0, 4096] and fio[24] == 32768, fio[:26]
    assert kb == fio, (kb[:26], fio[:26])


def test_strided_zonesize_below_a_transfer_as_fio(guest, kiobench_module, make_nullb):
    """zonesize=2k below bs=4k, zonerange=16k: each read is a zone's
    zonesize and more, so every read goes to the next zone, 16 KiB on,
    under fio 3.33 (setup_strided_zone_mode() moves on once zone_bytes
    reaches zone_size, after any one I/O here; nothing refuses it) as
    under kiobench, which checks zonerange, not zonesize, against the
    largest transfer, as the spec says: the same list.  A zonesize alone
    below a transfer (the zonerange then) is refused, as documented, where
    fio reads past each zone's end.  Mutation: the kernel refusing a
    zonesize below the largest transfer in kb_parse_pattern() (`if
    (cfg->zonesize < cfg->max_bs)`): red (the job refused)."""
    dev = make_nullb("nullb0", size_mb=256)
    kb, fio = both(guest, dev, job(dev, "[zs]\nrw=read\nzonemode=strided\nzonesize=2k\n"
                                        "zonerange=16k"))
    assert fio[:4] == [0, 16384, 32768, 49152], fio[:4]
    assert kb == fio, (kb[:10], fio[:10])
    # without a zonerange it is zonesize's, below the transfer: refused,
    # naming the limit, where fio reads 4 KiB every 2 KiB, each read past
    # its zone's end (the documented difference)
    body = job(dev, "[z2]\nrw=read\nzonemode=strided\nzonesize=2k")
    guest.check(f"cat >/tmp/job.fio <<'EOF'\n{body}EOF")
    r = guest.run("kiobench run /tmp/job.fio --output=/dev/null")
    assert r.rc == 2 and "zonerange: 2048 is below the largest transfer size 4096" in r.out, r.out
    fio = traced(guest, dev, "fio --output=/dev/null /tmp/job.fio")
    assert [o for _, o, _ in fio.ios][:3] == [0, 2048, 4096], fio.ios[:3]


def test_strided_random_zones_as_fio(guest, kiobench_module, make_nullb):
    """zonemode=strided with rw=randread, zonerange=256k, zonesize=64k,
    zoneskip=768k: 16 reads in each zone, each in the zone's first 256
    KiB, the zones one MiB apart in turn, the same zone sequence as fio's;
    and inside each zone no block read twice (the random map, drawn anew
    in each zone; fio resets its own there).  Mutation: the random map
    made of the span's blocks, not the zone's (`div_u64(w->dev->span_len,
    cfg->min_bs)` in kb_alloc_workers()): red."""
    dev = make_nullb("nullb0", size_mb=256)
    kb, fio = both(guest, dev, job(dev, "[sr]\nrw=randread\nzonemode=strided\n"
                                        "zonerange=256k\nzonesize=64k\nzoneskip=768k"))
    zones = [i // 16 for i in range(NR_IOS)]
    for name, offs in (("kiobench", kb), ("fio", fio)):
        assert [o >> 20 for o in offs] == zones, (name, [o >> 20 for o in offs][:40])
        assert all(o % (1 << 20) < 256 << 10 for o in offs), name
        for z in range(NR_IOS // 16):
            assert len(set(offs[16 * z:16 * z + 16])) == 16, (name, z, offs[16 * z:16 * z + 16])


def test_blockalign_aligns_random_offsets_as_fio(guest, kiobench_module, make_nullb):
    """ba=16k with bs=4k: every random offset a multiple of 16 KiB under
    kiobench as under fio, and about half of them multiples of 32 KiB
    (within 0.15 of 0.5: 400 draws), so the alignment is 16 KiB, not
    more; the kernel's status says blockalign and norandommap (fio turns
    its random map off for ba).  Mutation: the worker aligning to the
    smallest size (`cfg->min_bs` for blockalign in kb_draw_offset()):
    red."""
    dev = make_nullb("nullb0", size_mb=256)
    kb, fio = both(guest, dev, job(dev, "[ba]\nrw=randread\nba=16k"))
    for name, offs in (("kiobench", kb), ("fio", fio)):
        assert all(o % 16384 == 0 for o in offs), (name, [o for o in offs if o % 16384][:5])
        half = sum(o % 32768 == 0 for o in offs) / len(offs)
        assert abs(half - 0.5) <= 0.15, (name, half)
    out = guest.check("kiobench run /tmp/job.fio")
    assert "blockalign=16384" in out and "norandommap" in out, out


@pytest.mark.parametrize("pattern", ["--rw=write:4k --io_size=2m",
                                     "--rw=write --zonemode=strided --zonesize=16k "
                                     "--zonerange=64k --zoneskip=64k --io_size=256k"])
def test_verify_reads_back_the_pattern(guest, kiobench_module, make_nullb, pattern):
    """verify=crc32c after a write pass with holes (rw=write:4k) and with
    strided zones (half of the span's 32 zones), each block written once:
    the read-back replays the
    pattern's offsets (the worker's pattern state is saved with the rest
    of the generator's) and finds every block it wrote, none corrupt.
    Mutation: kb_vsave_put() not restoring the pattern state (`w->opat =
    s->opat;` dropped): the strided read-back goes on to the zones after
    the written ones: red."""
    dev = make_nullb("nullb0", size_mb=16, memory_backed=True)
    job = run_job(guest, f"--filename={dev} --bs=4k --size=4m --iodepth=8 --verify=crc32c "
                         f"--allow-writes {pattern}")
    v = job["kiobench"]["verify"]
    n = job["write"]["total_ios"]
    assert n == (512 if "write:4k" in pattern else 64), n
    assert v["verified"] == n and job["read"]["total_ios"] == n, v
    assert (v["corrupt"], v["misdirected"], v["stale"]) == (0, 0, 0), v


# The debug lane's patterns: one job file, each job after the previous one
# (stonewall), at QD 1 on a 16 MiB device (4096 blocks); (name, I/Os, body).
DEBUG_JOBS = [
    ("nr8", 96, "rw=randread:8"),
    ("ident", 96, "rw=randread:4\nrw_sequencer=identical\nnorandommap"),
    ("zseq", 32, "rw=read\nzonemode=strided\nzonerange=64k\nzonesize=32k\nzoneskip=192k"),
    ("zmap", 96, "rw=randread\nzonemode=strided\nzonerange=256k\nzonesize=64k\nzoneskip=768k"),
    ("znomap", 96, "rw=randread\nzonemode=strided\nzonerange=256k\nzonesize=64k\n"
                   "zoneskip=768k\nnorandommap"),
    ("pct", 400, "rw=randread\npercentage_random=30"),
    ("zipf", 400, "rw=randread\nrandom_distribution=zipf:1.2"),
    ("bsprio", 100, "rw=randread\nnorandommap\nbssplit=4k/50:64k/50\ncmdprio_class=1\n"
                    "cmdprio=3\ncmdprio_bssplit=64k/100"),
    # number_ios=8 of its own: the span's end comes after 4 reads
    ("skipend", 4, "rw=read:2m\nsize=8m\nnumber_ios=8"),
    # io_size given: the pass starts over there (seq-wrap), 8 reads
    ("wrap", 8, "rw=read:2m\nsize=8m\nio_size=32k"),
    # lfsr with several sizes: the permutation, sizes drawn, never cut
    ("lfsr", 100, "rw=randread\nrandom_generator=lfsr\nbssplit=4k/50:16k/50"),
    # fio's jesd219.fio's sizes, alignment and zones
    ("jesd", 200, "rw=randread\nnorandommap\nbssplit=512/50:4k/30:64k/20\nblockalign=4k\n"
                  "random_distribution=zoned:80/10:20/90"),
]


@pytest.mark.debug
@pytest.mark.budget(60)
def test_offset_patterns_on_the_debug_kernel(guest, kiobench_module, make_nullb):
    """The patterns above and test_fio_files.py's skewed and
    percentage_random draws under KASAN and UBSAN, kiobench alone (fio's
    side stays on 6.12), one job after another under one trace, the
    stream cut by each job's count: rw=randread:8 (positions 1-7 of each
    8 follow on, but where a run meets the device's end, at most one of
    a position's 12; position 0 not); identical (positions 1-3
    repeat); strided sequential zones (8 reads from each zone's start,
    the next 256 KiB on: the list above); strided zones with and without
    the random map (16 reads in each zone in turn, in its first 256 KiB;
    with the map no block twice in a zone); percentage_random=30 (0.7 of the reads go on, within 0.1:
    4 standard deviations of 400 draws are 0.09); zipf:1.2 (the most-hit
    1 % of the blocks take the kernel's table's hottest 1 % within 0.1;
    400 uniform draws put at most ~0.2 there); cmdprio_bssplit=64k/100
    beside bssplit=4k/50:64k/50 (rt/3 on exactly the 64 KiB reads of the
    trace, by the kernel's histogram of that priority, none on 4 KiB,
    which the table does not name); rw=read:2m with size=8m and
    number_ios=8 (4 reads, the job ended at the span's end); the same with
    io_size=32k (8 reads: the pass starts over, seq-wrap); lfsr with
    bssplit=4k/50:16k/50 (4 and 16 KiB reads only: sizes not cut, the
    permutation's path under KASAN); jesd219.fio's
    blockalign=4k with a zoned distribution and sizes from 512 bytes
    (every offset 4 KiB aligned, 80 % in the first tenth).  Mutations:
    kb_follow() taking identical as sequential and the reverse
    (`cfg->rw_sequencer == KIOBENCH_RW_SEQ_SEQUENTIAL`); the strided
    sequential cursor skipping a block (`cfg->rw_seq_add + 4096` in
    kb_strided_offset()); kb_strided_offset() drawing without the map over
    the span (`kb_rand_offset(&w->rng,
    w->dev->span_len, ...)`); kb_draw_offset() drawing the cdf's rank
    uniformly (`kb_rng_below(&w->rng, 4096)`); the share read as the
    sequential one (`>= 100 - pct`); kb_cmdprio_draw() taking the
    table's share whatever the size (`if (1 || cfg->cmdprio_bs[dir][i].size
    == len)`); kb_seq_end() never ending the pass (`if (1 ||`); the
    zoned draw aligned to the smallest size despite blockalign
    (`cfg->min_bs` in kb_draw_offset()): red."""
    dev = make_nullb("nullb0", size_mb=16)
    text = f"[global]\nfilename={dev}\ndirect=1\nioengine=libaio\niodepth=1\nbs=4k\n"
    for name, n, body in DEBUG_JOBS:
        nios = "" if "number_ios" in body else f"number_ios={n}\n"
        text += f"[{name}]\nstonewall\n{nios}{body}\n"
    guest.check(f"cat >/tmp/job.fio <<'EOF'\n{text}EOF")
    ios = traced(guest, dev, "kiobench run /tmp/job.fio --output-format=json "
                             "--output=/tmp/pat.json").ios
    assert len(ios) == sum(n for _, n, _ in DEBUG_JOBS), len(ios)
    got, at = {}, 0
    for name, n, _ in DEBUG_JOBS:
        got[name], at = ios[at:at + n], at + n
    offs = {name: [o for _, o, _ in s] for name, s in got.items()}
    p = phases(offs["nr8"], 8, lambda a, b: b == a + 4096)
    assert p[0] <= 0.1 and min(p[1:]) >= 0.9, [round(x, 3) for x in p]
    p = phases(offs["ident"], 4, lambda a, b: a == b)
    assert p[0] <= 0.1 and min(p[1:]) == 1, p
    assert offs["zseq"] == [(i // 8 << 18) + i % 8 * 4096 for i in range(32)], offs["zseq"]
    for name in ("zmap", "znomap"):
        assert [o >> 20 for o in offs[name]] == [i // 16 for i in range(96)], \
            (name, [o >> 20 for o in offs[name]])
        assert all(o % (1 << 20) < 256 << 10 for o in offs[name]), (name, offs[name])
    for z in range(6):
        assert len(set(offs["zmap"][16 * z:16 * z + 16])) == 16, (z, offs["zmap"])
    assert abs(seq_share(got["pct"], "R") - 0.7) <= 0.1, seq_share(got["pct"], "R")
    jobs = {j["jobname"]: j for j in json.loads(guest.check("cat /tmp/pat.json"))["jobs"]}
    table = jobs["zipf"]["kiobench"]["settings"]["random_cdf"]
    hot = hot_shares(got["zipf"], 4096)[0.01]
    assert table["blocks"] == 4096 and abs(hot - table["hottest_share"]["1%"]) <= 0.1, \
        (hot, table)
    big = sum(n == 65536 for _, _, n in got["bsprio"])
    prios = {(p["prioclass"], p["prio"]): p["clat_ns"]["N"]
             for p in jobs["bsprio"]["read"]["prios"]}
    assert 20 <= big <= 80 and prios.get((1, 3)) == big, (big, prios)
    # rw=read:2m in 8 MiB of 16: 4 reads, then the span's end ends the job
    assert offs["skipend"] == [i * (2052 << 10) for i in range(4)], offs["skipend"]
    assert offs["wrap"] == [i % 4 * (2052 << 10) for i in range(8)], offs["wrap"]
    sizes = Counter(n for _, _, n in got["lfsr"])
    assert set(sizes) == {4096, 16384} and all(o % 4096 == 0 for o in offs["lfsr"]), sizes
    # every offset 4 KiB aligned; 80 % in the first tenth (4 sd of 200: 0.11)
    assert all(o % 4096 == 0 for o in offs["jesd"]), offs["jesd"]
    low = sum(o < (16 << 20) // 10 for o in offs["jesd"]) / 200
    assert abs(low - 0.8) <= 0.12, low
