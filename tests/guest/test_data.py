"""What writes carry (kmod/data.c): fio's zero_buffers, buffer_pattern,
refill_buffers, scramble_buffers, buffer_compress_percentage and
buffer_compress_chunk, judged by what a memory-backed null_blk holds
afterwards, read by dd and counted by od, sort and gzip in the guest, not
by kiobench.

A sequential 4 KiB write of 256 blocks at QD 8: without refill or
scramble a worker's 8 slots are filled once, so the device holds 8
distinct blocks; fio's default scramble_buffers makes every block
distinct, and so does refill_buffers.  dedupe_percentage's duplicated
blocks are counted the same way, against Debian's fio 3.33 writing the
same job in the same guest.  The data path has no compat code: the tests
that reach its less common paths (buffer_pattern, dedupe and its modes, the
refusals) run on the debug kernel (marker debug), under KASAN; scramble,
refill and compression, which every lane's jobs fill with, on 6.12 (no
marker)."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from kb import nlreq, run_job

BS = 4096
BLOCKS = 256
QD = 8


def write(guest, dev: str, args: str, bs: int = BS) -> dict:
    job = run_job(guest, f"--filename={dev} --rw=write --bs={bs} --size={BS * BLOCKS} "
                         f"--iodepth={QD} --allow-writes {args}")
    assert job["write"]["total_ios"] == BS * BLOCKS // bs, job["write"]
    return job


def read(guest, dev: str, pipe: str) -> str:
    return guest.check(f"dd if={dev} bs={BS} count={BLOCKS} iflag=direct 2>/dev/null | {pipe}")


def distinct(guest, dev: str) -> int:
    """Distinct 4 KiB blocks among the first BLOCKS (od prints one a line)."""
    return int(read(guest, dev, f"od -An -v -tx1 -w{BS} | sort -u | wc -l"))


def zero_blocks(guest, dev: str) -> int:
    return int(read(guest, dev, f"od -An -v -tx1 -w{BS} | grep -vc '[1-9a-f]' || true"))


def gzip_ratio(guest, dev: str) -> float:
    return int(read(guest, dev, "gzip -c | wc -c")) / (BS * BLOCKS)


@pytest.fixture
def dev(make_nullb):
    return make_nullb("nullb0", size_mb=16)


def test_scramble_and_refill_make_every_write_distinct(guest, kiobench_module, dev):
    """fio's default (scramble_buffers=1): 256 distinct blocks; with
    scramble_buffers=0 the 8 slots' data repeats (8 distinct); with
    refill_buffers, 256 again, and random (gzip gains nothing).
    Mutations: kb_data_write() returning at once: red (8, not 256);
    refill drawing nothing (kb_dfill_buffer() skipped): red."""
    job = write(guest, dev, "")
    assert job["kiobench"]["settings"]["scramble_buffers"] is True
    assert distinct(guest, dev) == BLOCKS
    write(guest, dev, "--scramble_buffers=0")
    assert distinct(guest, dev) == QD
    job = write(guest, dev, "--refill_buffers --scramble_buffers=0")
    assert job["kiobench"]["settings"]["refill_buffers"] is True
    assert distinct(guest, dev) == BLOCKS and gzip_ratio(guest, dev) > 0.99


@pytest.mark.debug
def test_zero_buffers_and_pattern(guest, kiobench_module, dev):
    """zero_buffers: every block zeroes (scramble is off with it, as fio
    sets it), unless scramble_buffers is given too; buffer_pattern: the
    pattern from each block's start.  Mutations: zero_buffers sending no
    buffer-fill: red; the pattern restarted at each page: red (a 3-byte
    pattern does not divide 4096, so the second page's first bytes
    differ); with refill_buffers too, each write refilled with the
    pattern: the same blocks (mutation: kb_dfill_buffer()'s fixed fill
    made random: red)."""
    job = write(guest, dev, "--zero_buffers")
    assert job["kiobench"]["settings"]["buffer_fill"] == "zeroes"
    assert zero_blocks(guest, dev) == BLOCKS
    write(guest, dev, "--zero_buffers --scramble_buffers=1")
    assert zero_blocks(guest, dev) == 0 and distinct(guest, dev) == BLOCKS
    job = write(guest, dev, """'--buffer_pattern=0xdead"x"' --scramble_buffers=0""", 2 * BS)
    assert job["kiobench"]["settings"]["buffer_fill"] == "pattern"
    want = ("de ad 78 " * (2 * BS // 3 + 1)).split()[:2 * BS]
    got = read(guest, dev, f"head -c {2 * BS} | od -An -v -tx1").split()
    assert got == want
    assert distinct(guest, dev) == 2        # the two pages of each 8k block
    # refilled before each write, the same pattern
    write(guest, dev, """'--buffer_pattern=0xdead"x"' --refill_buffers --scramble_buffers=0""",
          2 * BS)
    assert read(guest, dev, f"head -c {2 * BS} | od -An -v -tx1").split() == want
    assert distinct(guest, dev) == 2


@pytest.mark.parametrize("pct", [25, 75])
def test_compress_percentage(guest, kiobench_module, dev, pct):
    """buffer_compress_percentage: gzip's ratio follows 100 - pct (random
    bytes do not compress, zeroes vanish; gzip's overhead on the random
    part is a few %), every write distinct (refilled, as fio implies);
    with refill_buffers=0 the 8 slots repeat.  Mutations: the random part
    taken as pct instead of 100 - pct: red; compression without refill:
    red (8 distinct)."""
    job = write(guest, dev, f"--buffer_compress_percentage={pct}")
    s = job["kiobench"]["settings"]
    assert (s["buffer_compress_percentage"], s["buffer_compress_chunk"]) == (pct, 512), s
    assert s["refill_buffers"] is True
    ratio = gzip_ratio(guest, dev)
    assert (100 - pct) / 100 <= ratio <= (100 - pct) / 100 + 0.06, ratio
    assert distinct(guest, dev) == BLOCKS
    write(guest, dev, f"--buffer_compress_percentage={pct} --refill_buffers=0")
    assert distinct(guest, dev) == QD


@pytest.mark.debug
def test_data_refusals(guest, kiobench_module, dev):
    """With verify, whose writes carry its own data, the options that
    choose data are refused with the reason, and nothing is written;
    dedupe_percentage, which fills each write, without refill_buffers;
    dedupe_global and dedupe_working_set_percentage without
    dedupe_mode=working_set; dedupe with write zeroes, which carries no
    data; a working set whose sum with
    dedupe_percentage is above 100 (fio's rule), at 51 + 50 and at 100 +
    the default 5, not at 50 + 50; a working set without size, which fio
    makes over it.  The group that dedupe_global across jobs is given
    (raw requests: the tool sends all of it): without dedupe-global, in
    part, or with the job's workers from dedupe-global-first past
    dedupe-global-workers (2 workers from 3 of 4; 2 from 2 of 4 is taken).
    Mutation: kb_parse_dedupe()'s sum taken with `>= 100`:
    red (50 + 50 refused); the working-set check dropped: red; the
    group's bound taken with `>=`: red (2 from 2 of 4 refused)."""
    before = guest.check("cat /sys/block/nullb0/stat").split()[4]
    for args in ("--zero_buffers", "--buffer_pattern=0x11", "--buffer_compress_percentage=50",
                 "--dedupe_percentage=50"):
        r = guest.run(f"kiobench run --filename={dev} --rw=write --verify=crc32c "
                      f"--allow-writes --size=1m {args}")
        assert r.rc != 0 and "verify: its writes carry verify's data" in r.out, (args, r.out)
    for args, why in (
            ("\"--buffer_pattern='file'\"", "a 'file' is not implemented"),
            ("--dedupe_percentage=50 --refill_buffers=0",
             "dedupe-percentage: only with refill-buffers"),
            ("--dedupe_percentage=50 --dedupe_global", "only with dedupe-mode working-set"),
            ("--dedupe_percentage=50 --dedupe_working_set_percentage=10",
             "only with dedupe-mode working-set"),
            ("--dedupe_percentage=50 --dedupe_mode=working_set --size=1m "
             "--dedupe_working_set_percentage=51", "its sum with dedupe-percentage above 100"),
            ("--dedupe_percentage=100 --dedupe_mode=working_set --size=1m",
             "its sum with dedupe-percentage above 100"),
            ("--dedupe_percentage=50 --dedupe_mode=working_set",
             "dedupe_mode=working_set needs size"),
            ("--dedupe_percentage=50 --write_mode=zeroes",
             "dedupe-percentage: write-zeroes carries no data")):
        r = guest.run(f"kiobench run --filename={dev} --rw=write --allow-writes {args}")
        assert r.rc != 0 and why in r.out, (args, r.out)
    ws = [f"dev={dev}", "rwmix-read=0", "allow-writes", "refill-buffers", "size=1048576",
          "dedupe-percentage=50", "dedupe-mode=1", "numjobs=2"]
    group = ["dedupe-global-seed=7", "dedupe-global-first=2", "dedupe-global-workers=4"]
    for extra, attr, msg in (
            (group, "dedupe-global-seed", "dedupe-global-seed, -first, -workers: only with "
             "dedupe-global"),
            (["dedupe-global", *group[1:]], "dedupe-global-first", "dedupe-global-seed, -first, "
             "-workers: all three or none"),
            (["dedupe-global", *group[:2], "dedupe-global-workers=3"], "dedupe-global-first",
             "dedupe-global-first: the job's workers (numjobs x devices) from it pass "
             "dedupe-global-workers"),
            (["dedupe-global", *group], None, "")):
        ack = nlreq(guest, "new", *ws, *extra)
        if ack.errno == 0:
            nlreq(guest, "del", f"job-id={ack.replies[0]['job-id']}")
        assert (ack.attr, ack.msg) == (attr, msg) if attr else ack.errno == 0, (extra, ack.out)
    assert guest.check("cat /sys/block/nullb0/stat").split()[4] == before
    write(guest, dev, "--dedupe_percentage=50 --dedupe_mode=working_set "
                      "--dedupe_working_set_percentage=50")


def dup_stats(guest, dev: str) -> tuple[float, int, bool]:
    """(share of the blocks that repeat an earlier one, contents held by
    more than one block, whether each of the first 8 blocks repeats or is
    repeated) among the first BLOCKS."""
    ids = [int(i) for i in read(guest, dev, f"od -An -v -tx8 -w{BS} | "
                                            "awk '{if (!($0 in id)) id[$0] = ++n; print id[$0]}'")
           .split()]
    assert len(ids) == BLOCKS
    n = Counter(ids)
    return (BLOCKS - len(n)) / BLOCKS, sum(1 for c in n.values() if c > 1), \
        all(n[i] > 1 for i in ids[:8])


def fio_dup_stats(guest, dev: str, args: str, seed: int) -> tuple[float, int]:
    if guest.run("command -v fio").rc:
        pytest.skip("fio is not in the guest image")
    guest.check(f"fio --name=d --filename={dev} --rw=write --bs={BS} --size={BS * BLOCKS} "
                f"--iodepth={QD} --ioengine=libaio --direct=1 --randseed={seed} "
                f"--output=/dev/null {args}", timeout=120)
    return dup_stats(guest, dev)


DEDUPE = "--dedupe_percentage=50"


@pytest.mark.debug
@pytest.mark.parametrize("mode", ["repeat", "working_set"])
def test_dedupe_like_fio(guest, kiobench_module, dev, mode):
    """dedupe_percentage=50: the share of blocks that repeat an earlier one
    is fio's, within what fio's own seeds spread (at least 3 binomial
    standard deviations of 256 draws); repeat makes about one repeated
    content for every two unique writes, working_set (5 % of 1 MiB: 12
    pages) at most 12, in both tools, and the working set is the first
    unique writes (each of the first 8 blocks repeats or is repeated).
    Mutations: kb_dedupe_seed() never replaying (every write unique): red
    (no duplicates); working_set's pages taken from the worker's stream
    past its first writes: red (the first blocks are not repeated)."""
    args = f"{DEDUPE} --dedupe_mode={mode}"
    job = write(guest, dev, args)
    s = job["kiobench"]["settings"]
    assert (s["dedupe_percentage"], s["dedupe_mode"], s["refill_buffers"]) == (50, mode, True)
    share, groups, firsts = dup_stats(guest, dev)
    fio = [fio_dup_stats(guest, dev, args, seed) for seed in (1, 2)]
    shares = [f[0] for f in fio]
    tol = max(max(shares) - min(shares), 3 * (0.25 / BLOCKS) ** 0.5)
    assert abs(share - sum(shares) / len(shares)) <= tol, (share, fio)
    if mode == "repeat":
        assert all(40 <= g <= 90 for g in [groups] + [f[1] for f in fio]), (groups, fio)
    else:
        assert all(1 <= g <= 12 for g in [groups] + [f[1] for f in fio]), (groups, fio)
        # the working set is the first unique writes: written, and repeated
        assert firsts and all(f[2] for f in fio), (firsts, fio)


@pytest.mark.debug
def test_dedupe_with_compression(guest, kiobench_module, dev):
    """With buffer_compress_percentage=50 a deduped write is filled as its
    original was: about half the blocks repeat one (256 draws, 3 standard
    deviations) and every block still compresses; at 100 every write is
    the same.  Mutation: kb_data_write() filling from the worker's
    generator, not the dedupe seed: red (no duplicates)."""
    write(guest, dev, f"{DEDUPE} --buffer_compress_percentage=50")
    assert abs(dup_stats(guest, dev)[0] - 0.5) <= 3 * (0.25 / BLOCKS) ** 0.5
    assert gzip_ratio(guest, dev) <= 0.5 + 0.06
    write(guest, dev, "--dedupe_percentage=100")
    assert distinct(guest, dev) == 1


@pytest.mark.debug
def test_dedupe_global_shares_the_working_set(guest, kiobench_module, make_nullb, dev):
    """dedupe_mode=working_set in one job of two workers, one a device
    (half of BLOCKS each), then in two jobs of a run, one a device: with
    dedupe_global the working set is made of both workers' first writes,
    so each device holds copies of blocks that only the other worker wrote
    unique; without it none (each worker's seeds are its own, and each
    job's: the tool gives the run's second job a seed of its own), and
    either way a device repeats its own blocks.  Counted from the devices'
    contents.  Mutations: kb_dws_seed() ignoring dedupe_global (`if (0)`):
    red (no block shared); the group's first worker not added to a
    worker's number (dd->self = w->index): red (the two jobs' unique
    writes are the same);
    the tool's job n not given a seed of its own: red (two jobs without
    dedupe_global share every block)."""
    half = BLOCKS // 2
    other = make_nullb("nullb1", size_mb=16)
    common = (f"--rw=write --bs={BS} --iodepth={QD} --allow-writes --dedupe_percentage=60 "
              "--dedupe_mode=working_set --dedupe_working_set_percentage=10")
    one = f"--filename={dev}:{other} --size={BS * BLOCKS}"
    two = f"--size={BS * half} --name=a --filename={dev} --name=b --filename={other}"
    shared = {}
    for jobs, glob in ((one, ""), (one, "--dedupe_global"), (two, ""), (two, "--dedupe_global")):
        r = guest.run(f"kiobench run {common} {glob} {jobs} --output-format=json "
                      "--output=/tmp/dd.json", timeout=120)
        assert r.rc == 0, r.out
        done = json.loads(guest.check("cat /tmp/dd.json"))["jobs"]
        assert sum(j["write"]["total_ios"] for j in done) == BLOCKS, r.out
        assert all(j["kiobench"]["settings"]["dedupe_global"] is bool(glob) for j in done)
        ids = [int(i) for i in guest.check(
            f"for d in {dev} {other}; do dd if=$d bs={BS} count={half} iflag=direct "
            f"2>/dev/null; done | od -An -v -tx8 -w{BS} | "
            "awk '{if (!($0 in id)) id[$0] = ++n; print id[$0]}'").split()]
        a, b = ids[:half], ids[half:]
        assert len(a) == len(b) == half and len(set(a)) < half and len(set(b)) < half, ids
        # each device's own unique writes (some 50), the other's first few aside
        assert len(set(a) - set(b)) >= 20 and len(set(b) - set(a)) >= 20, (jobs, glob, ids)
        shared[jobs == two, glob] = len(set(a) & set(b))
    assert shared[False, ""] == shared[True, ""] == 0, shared
    assert shared[False, "--dedupe_global"] >= 2 and shared[True, "--dedupe_global"] >= 2, shared
