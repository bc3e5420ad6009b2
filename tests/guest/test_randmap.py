"""The random map: a random pass covers every block exactly once.

fio's random write pass over a span writes each block once (its random
map); kiobench's does too, from a keyed permutation of the span's blocks
(kmod/gen.c), or with several transfer sizes from fio's bitmap, and draws
with replacement only with norandommap.  The proof
is the device's own content: a memory-backed null_blk starts all zeroes,
and after one random-write pass of exactly the span a full sequential read
finds no all-zero block (the kernel's zero_reads count: the first logical
block of each read, here the whole 4 KiB read, is checked in bi_end_io's
reaping, from what the device returned).
"""
import json

import pytest

from kb import queue_attr, run_job
from vm.targets import NULLB

BS = 4096
# not a power of two: 15360 blocks in a permutation domain of 16384, so
# that the cycle-walking runs (a power of two never walks)
SPAN_MB = 60
BLOCKS = (SPAN_MB << 20) // BS


def write_pass(guest, dev: str, extra: str = "") -> dict:
    """One random-write pass: no limit, so the span's bytes once."""
    job = run_job(guest, f"--filename={dev} --rw=randwrite --bs=4k --iodepth=8 "
                         f"--allow-writes {extra}", timeout=300)
    assert job["kiobench"]["state"] == "DONE", job["kiobench"]
    return job


def zero_blocks(guest, dev: str, blocks: int) -> int:
    """All-zero 4 KiB blocks of the device, from a full sequential read."""
    job = run_job(guest, f"--filename={dev} --rw=read --bs=4k --iodepth=8", timeout=300)
    assert job["read"]["total_ios"] == blocks
    return job["kiobench"]["zero_reads"]


@pytest.mark.core
def test_random_pass_covers_every_block(guest, kiobench_module, make_nullb):
    """Default: every block written once, no block left as zeroes, one
    worker or seven sharing the map; norandommap: about 1/e of the blocks
    never written (15360 draws with replacement leave 5651 +- 60 unwritten),
    so the test tells the two apart.  The kernel says which ran.
    Mutations: cycle-walking one short (`while (i > p->n)` in
    kb_perm_at(): a draw of block n and one block missed), or a worker's
    share off by one (`m->hi = m->lo + per` in kb_rmap_init()): red."""
    dev = make_nullb("nullb0", size_mb=SPAN_MB, blocksize=BS)
    job = write_pass(guest, dev)
    assert job["write"]["total_ios"] == BLOCKS
    settings = job["kiobench"]["settings"]
    assert settings["norandommap"] is False
    assert settings["offset_generator"] == "feistel-permutation"
    assert zero_blocks(guest, dev, BLOCKS) == 0

    # seven workers share the map: 15360 = 2 x 2195 + 5 x 2194 blocks
    dev = make_nullb("nullb1", size_mb=SPAN_MB, blocksize=BS)
    job = write_pass(guest, dev, "--workers=7")
    assert job["write"]["total_ios"] == BLOCKS
    assert zero_blocks(guest, dev, BLOCKS) == 0

    dev = make_nullb("nullb2", size_mb=SPAN_MB, blocksize=BS)
    job = write_pass(guest, dev, "--norandommap")
    assert job["write"]["total_ios"] == BLOCKS
    settings = job["kiobench"]["settings"]
    assert settings["norandommap"] is True
    assert settings["offset_generator"] == "xoshiro256**"
    zeroes = zero_blocks(guest, dev, BLOCKS)
    assert 5350 < zeroes < 5950, zeroes   # 1/e of 15360 = 5651, 5 sigma either side


@pytest.mark.core
def test_random_generator_is_named_and_seed_repeats(guest, kiobench_module, make_nullb):
    """random_generator=lfsr is accepted and the report names the
    generator that ran instead; lfsr never repeats a block, so even with
    norandommap the kernel is sent no norandommap (its status says so).
    randrepeat=0 draws a new seed each run; the default repeats it.
    Mutation: kb_job_norandommap() ignoring lfsr (`return
    job->norandommap;`): the kernel reports norandommap: red."""
    dev = make_nullb("nullb0", size_mb=16, blocksize=BS)
    out = guest.check(f"kiobench run --filename={dev} --rw=randread --number_ios=100 "
                      f"--norandommap --random_generator=lfsr")
    assert "random map: feistel-permutation" in out, out
    assert "random_generator=lfsr asked" in out, out
    job = run_job(guest, f"--filename={dev} --rw=randread --number_ios=100 "
                         f"--norandommap --random_generator=lfsr")
    assert job["kiobench"]["settings"]["norandommap"] is False
    seeds = {run_job(guest, f"--filename={dev} --rw=randread --number_ios=10 "
                            f"--randrepeat=0")["kiobench"]["settings"]["randseed"]
             for _ in range(2)}
    assert len(seeds) == 2, seeds
    seeds = {run_job(guest, f"--filename={dev} --rw=randread --number_ios=10")
             ["kiobench"]["settings"]["randseed"] for _ in range(2)}
    assert len(seeds) == 1, seeds


@pytest.mark.core
def test_several_sizes_take_each_block_once(guest, kiobench_module, make_nullb):
    """With several transfer sizes the random map is fio's bitmap: a
    transfer is cut to the blocks no I/O of the pass has taken (fio's
    mark_random_map()), so one pass of the span's bytes writes every
    block exactly once, in I/Os fewer than the span's blocks and more than
    the drawn sizes would take (4k/50:16k/30:64k/20 averages 19.6 KiB
    drawn, 3135 I/Os over 60 MiB uncut); one worker or three with a
    bitmap each of a third of the span.  The report names
    the bitmap and says the sizes are cut; with one size or norandommap
    it does not.  Mutations: the transfer not cut (`if (0 && nr * bs <
    *len)` in kb_bmap_take(): blocks written twice, the pass ends short
    of some, zero blocks left) or the bytes cut off not given back to the
    budget (the pass ends early): red."""
    mix = "--bssplit=4k/50:16k/30:64k/20"
    for workers in (1, 3):
        dev = make_nullb(f"nullb{workers}", size_mb=SPAN_MB, blocksize=BS)
        job = write_pass(guest, dev, f"{mix} --workers={workers}")
        assert job["kiobench"]["settings"]["offset_generator"] == "bitmap"
        assert job["write"]["io_bytes"] == SPAN_MB << 20, job["write"]["io_bytes"]
        assert 3500 < job["write"]["total_ios"] < BLOCKS, job["write"]["total_ios"]
        assert zero_blocks(guest, dev, BLOCKS) == 0
    note = "a transfer is cut to the blocks not yet done"
    run = f"kiobench run --filename={dev} --rw=randread --number_ios=100"
    out = guest.check(f"{run} --bssplit=4k/50:64k/50")
    assert note in out and "random map: bitmap" in out, out
    assert note not in guest.check(f"{run} --bssplit=4k/50:64k/50 --norandommap")
    assert note not in guest.check(f"{run} --bs=64k")


def test_lfsr_several_sizes_are_not_cut(guest, kiobench_module, make_nullb):
    """fio's lfsr keeps no map of the blocks done: with several sizes the
    tool sends random-lfsr, and the kernel takes each block once a pass
    from its permutation, with the drawn size, drawn again only to fit
    before the span's end, never cut.  So a pass of the span's bytes is
    the drawn sizes' count of I/Os (19.6 KiB on average: 3136 over 60 MiB,
    standard deviation 66, simulated), which overlap and leave blocks
    unwritten (5367, deviation 86), where the bitmap writes each block once
    in more I/Os.  The status, JSON and report say so.  verify reads each
    write back without a mismatch: fio's sorted log (lfsr has no random
    map in fio's sense), the replay of the picks, whose sizes drawn again
    it must draw alike, and verify_backlog's windows, which the bitmap
    refuses.  Mutation: the tool not sending random-lfsr
    (kb_job_random_lfsr() false): the bitmap runs, red."""
    mix = "--bssplit=4k/50:16k/30:64k/20 --random_generator=lfsr"
    dev = make_nullb("nullb0", size_mb=SPAN_MB, blocksize=BS)
    job = write_pass(guest, dev, mix)
    settings = job["kiobench"]["settings"]
    assert settings["random_lfsr"] is True, settings
    assert settings["offset_generator"] == "feistel-permutation", settings
    assert job["write"]["io_bytes"] == SPAN_MB << 20, job["write"]["io_bytes"]
    assert 2800 < job["write"]["total_ios"] < 3470, job["write"]["total_ios"]
    zeroes = zero_blocks(guest, dev, BLOCKS)
    assert 4930 < zeroes < 5800, zeroes     # 5 deviations either side
    out = guest.check(f"kiobench run --filename={dev} --rw=randread --number_ios=100 {mix}")
    assert "random map: feistel-permutation" in out and "as fio's lfsr" in out, out
    assert "a transfer is cut" not in out and "random_generator=lfsr" in out, out
    base = (f"kiobench run --output-format=json --output=/tmp/v.json --rw=randwrite "
            f"{mix} --iodepth=8 --allow-writes --verify=crc32c --size=16m")
    for extra in ("", "--experimental_verify=1", "--verify_backlog=16",
                  "--verify_backlog=16 --experimental_verify=1"):
        guest.check(f"{base} --filename={dev} {extra}", timeout=300)
        job = json.loads(guest.check("cat /tmp/v.json"))["jobs"][0]
        v = job["kiobench"]["verify"]
        assert job["kiobench"]["settings"]["random_lfsr"] is True, extra
        assert (v["corrupt"], v["misdirected"], v["stale"]) == (0, 0, 0), (extra, v)
        assert v["verified"] > 0, (extra, v)
        assert job["write"]["io_bytes"] == 16 << 20, (extra, job["write"])


@pytest.mark.debug  # verify's replay and rounds with the bitmap, under KASAN
def test_several_sizes_verify_replays_the_bitmap(guest, kiobench_module, make_nullb):
    """verify's read-back replays the write pass's draws: with several
    sizes it starts from the bitmap the pass started from, empty, so that
    it reads each write at its offset and cut length.  A pass of the span
    (the read-back of the log and, with experimental_verify, the replay),
    half a pass (io_size: a replay from the map as the writes left it
    would read the blocks they did not write, zeroes), a time-based job of
    two workers over more than a pass, and trim_backlog's windows, whose
    trims leave the map as they found it; and fio's rounds (io-round),
    each read back before the next: two whole passes (loops=2), and a pass
    then half of one (io_size=12m loops=2), whose read-back starts from a
    map the pass left full; rounds that are not whole passes of each
    worker's map are refused.  Mutations: kb_vsave_put() not resetting the
    bitmap: red (half a pass: the replay reads unwritten blocks); its
    warning on a save not empty taken for a full one too: red (loops=2)."""
    base = ("kiobench run --output-format=json --output=/tmp/v.json "
            "--rw=randwrite --bssplit=4k/50:16k/30:64k/20 --iodepth=8 --allow-writes "
            "--verify=crc32c")
    for i, extra in enumerate(("", "--experimental_verify=1",
                               "--io_size=8m --experimental_verify=1",
                               # a 4 MiB span: 2 s make passes enough (14 MiB at
                               # the debug kernel's slowest seen)
                               "--size=4m --runtime=2s --time_based --workers=2 "
                               "--experimental_verify=1",
                               "--trim_percentage=30 --trim_backlog=64 "
                               "--experimental_verify=1",
                               "--loops=2", "--io_size=12m --loops=2")):
        dev = make_nullb(f"nullb{i}", size_mb=16, blocksize=BS, discard=1)
        guest.check(f"{base} --filename={dev} {extra}", timeout=300)
        job = json.loads(guest.check("cat /tmp/v.json"))["jobs"][0]
        v = job["kiobench"]["verify"]
        assert job["kiobench"]["settings"]["offset_generator"] == "bitmap"
        assert (v["corrupt"], v["misdirected"], v["stale"]) == (0, 0, 0), (extra, v)
        assert v["verified"] > 0, (extra, v)
        if "loops" in extra:
            want = (24 if "io_size" in extra else 32) << 20
            assert job["write"]["io_bytes"] == want, (extra, job["write"])
            assert job["kiobench"]["settings"]["io_round"] == 16 << 20, extra
            assert job["read"]["io_bytes"] == want, (extra, job["read"])
        elif "time_based" in extra:
            assert job["write"]["io_bytes"] > 4 << 20, (extra, job["write"])
        elif "io_size" in extra:
            assert job["write"]["io_bytes"] == 8 << 20, (extra, job["write"])
        elif "trim" not in extra:
            assert job["write"]["io_bytes"] == 16 << 20, (extra, job["write"])
    # three workers on 512-byte blocks: a round's share (in 512-byte
    # blocks) is not whole passes of a worker's map (in 4 KiB blocks)
    dev = make_nullb("nullb9", size_mb=16, blocksize=512)
    r = guest.run(f"{base} --filename={dev} --loops=2 --workers=3", timeout=300)
    assert r.rc != 0 and "io-round: with several sizes under the random map, a round " \
        "must be whole passes" in r.out, r.out


@pytest.mark.core
def test_several_sizes_map_is_bounded(guest, kiobench_module, make_nullb):
    """The bitmap is charged with the job and bounded by max-random-map
    (256 MiB a job): 2 TiB in 512-byte and 4 KiB transfers would take 512
    MiB, and is refused naming norandommap, which runs it; so is
    verify_backlog with the bitmap.  Mutation: the bound not checked
    (kb_bmap_check() returning 0): the job is refused by max_job_mem
    instead, whose message does not name norandommap: red."""
    dev = make_nullb("nullb0", size_mb=2 << 20, blocksize=512, memory_backed=False)
    run = f"kiobench run --filename={dev} --rw=randread --number_ios=10"
    r = guest.run(f"{run} --bssplit=512/50:4k/50")
    assert r.rc != 0 and "norandommap:" in r.out and "max-random-map" in r.out, r.out
    guest.check(f"{run} --bssplit=512/50:4k/50 --norandommap")
    small = make_nullb("nullb1", size_mb=16, blocksize=BS)
    r = guest.run(f"kiobench run --filename={small} --rw=randwrite --allow-writes "
                  f"--bssplit=4k/50:16k/50 --verify=crc32c --verify_backlog=16")
    assert r.rc != 0 and "verify-backlog:" in r.out, r.out


LARGE_LBS = 16384
LARGE_BLOCKS = 64


def large_lbs_or_skip(guest) -> None:
    """Skip unless null_blk takes a logical block of LARGE_LBS (four pages):
    the block layer refuses a logical block above a page
    (blk_validate_block_size(): BLK_MAX_BLOCK_SIZE) before 6.15, and from
    6.15 without CONFIG_TRANSPARENT_HUGEPAGE (the debug kernel's config
    today), and null_blk fails to power on.  The KUnit case
    kb_zero_block_scans_each_page covers kb_zero_block() there."""
    d = f"{NULLB}/nbprobe"
    r = guest.run(f"modprobe null_blk nr_devices=0 && mkdir {d} && "
                  f"echo {LARGE_LBS} >{d}/blocksize && echo 1 >{d}/power; rc=$?; "
                  f"[ -d {d} ] && {{ echo 0 >{d}/power; rmdir {d}; }}; exit $rc")
    if not r.ok:
        pytest.skip(f"{guest.kernel.name}: null_blk refuses blocksize={LARGE_LBS} "
                    f"(no logical block above a page: before 6.15, or no "
                    f"CONFIG_TRANSPARENT_HUGEPAGE)")


@pytest.mark.debug
def test_zero_reads_see_every_page_of_a_large_block(guest, kiobench_module, make_nullb):
    """A logical block of 16 KiB spans four of a slot's separate order-0
    pages.  Of 64 blocks, the even ones all zeroes, the odd ones all
    zeroes but their last byte (in the fourth page): a full read counts 32
    zero blocks.  The pages freed just before the job (every other page of
    tmpfs, the rest holding 0xaa, on the tool's CPU) make a slot's pages
    scattered, so that a scan running past the first page reads memory
    that is not the block.  Mutations: kb_zero_block() scanning only the
    first page (64: red); scanning lbs bytes from pages[0] (the code
    before: reads 0xaa past the page, fewer than 32: red)."""
    large_lbs_or_skip(guest)
    dev = make_nullb("nullb0", size_mb=16, blocksize=LARGE_LBS)
    assert queue_attr(guest, dev, "logical_block_size") == str(LARGE_LBS)
    guest.check(f"head -c {LARGE_LBS} /dev/zero >/tmp/zz && "
                f"head -c {LARGE_LBS - 1} /dev/zero >/tmp/zb && printf '\\001' >>/tmp/zb && "
                f"for i in $(seq {LARGE_BLOCKS // 2}); do cat /tmp/zz /tmp/zb; done >/tmp/pat && "
                f"dd if=/tmp/pat of={dev} bs={LARGE_LBS} oflag=direct 2>/dev/null && "
                f"dd if={dev} bs={LARGE_LBS} count={LARGE_BLOCKS} iflag=direct 2>/dev/null | "
                f"cmp - /tmp/pat")
    # two files written a page each in turn, then one removed: the free
    # pages are every other one, each between two pages of 0xaa
    guest.check("mkdir -p /tmp/frag && taskset -c 0 fio --name=frag --directory=/tmp/frag "
                "--nrfiles=2 --filesize=2m --bs=4k --rw=write --ioengine=psync "
                "--file_service_type=roundrobin --buffer_pattern=0xaa --output=/dev/null && "
                "taskset -c 0 rm /tmp/frag/frag.0.1", timeout=300)
    try:
        out = guest.check(f"taskset -c 0 kiobench run --filename={dev} --rw=read "
                          f"--bs={LARGE_LBS} --size={LARGE_LBS * LARGE_BLOCKS} --iodepth=4 "
                          f"--output-format=json", timeout=300)
    finally:
        guest.check("rm -rf /tmp/frag")
    job = json.loads(out)["jobs"][0]
    assert job["read"]["total_ios"] == LARGE_BLOCKS
    assert job["kiobench"]["zero_reads"] == LARGE_BLOCKS // 2
