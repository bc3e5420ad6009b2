"""fio's verify, done by the kernel (kmod/verify.c), on memory-backed
null_blk: a write pass with its read-back and a verify_only pass find
nothing; then blocks changed behind kiobench's back with dd are each
reported at their offset, as what they are: one changed byte as
corruption, a block copied over another as a misdirected write, a block
of an older generation put back as a lost (stale) write.

null_blk keeps what is written, so every count here is exact.
"""
from __future__ import annotations

import itertools
import json
import re

import pytest

from kb import block_events, nlreq, tracepoint_rwbs
from test_robust import set_badblocks
from vm.targets import NULLB

# verify's paths (every method, the dumps, the read-back) run under KASAN, lockdep
# and kmemleak: on the debug kernel, not twice on 6.12
pytestmark = pytest.mark.debug

BS = 4096
SIZE = 4 << 20
BLOCKS = SIZE // BS
OUT = "/tmp/verify.json"


def run(guest, dev: str, args: str, *, ok: bool = True) -> dict:
    """kiobench run of a sequential 4k job over the first SIZE bytes of
    dev; returns its JSON job object.  A job that found a mismatch fails
    (EILSEQ, as fio's does): ok says which is expected."""
    cmd = (f"kiobench run --output-format=json --output={OUT} --filename={dev} "
           f"--bs={BS} --size={SIZE} --iodepth=8 {args}")
    r = guest.run(cmd, timeout=300)
    assert (r.rc == 0) == ok, f"{cmd}: exit {r.rc}\n{r.out}"
    if not ok:
        assert "EILSEQ" in r.out, r.out
    return json.loads(guest.check(f"cat {OUT}"))["jobs"][0]


def verify(job: dict) -> dict:
    return job["kiobench"]["verify"]


def write_pass(guest, dev: str, gen: int = 0) -> dict:
    job = run(guest, dev, f"--rw=write --verify=crc32c --verify_generation={gen} "
                          "--allow-writes")
    v = verify(job)
    assert job["write"]["total_ios"] == BLOCKS
    assert v["verified"] == BLOCKS and job["read"]["total_ios"] == BLOCKS, v
    assert (v["corrupt"], v["misdirected"], v["stale"]) == (0, 0, 0), v
    return job


def verify_only(guest, dev: str, gen: int = 0, ok: bool = False, extra: str = "") -> dict:
    job = run(guest, dev, f"--rw=write --verify=crc32c --verify_only=1 "
                          f"--verify_generation={gen} {extra}", ok=ok)
    assert job["write"]["total_ios"] == 0
    return job


def read_block(guest, dev: str, blk: int, path: str) -> None:
    guest.check("echo 3 >/proc/sys/vm/drop_caches && "
                f"dd if={dev} of={path} bs={BS} skip={blk} count=1 2>/dev/null")


def write_block(guest, dev: str, blk: int, path: str) -> None:
    guest.check(f"dd if={path} of={dev} bs={BS} seek={blk} count=1 conv=notrunc,fsync "
                "2>/dev/null && echo 3 >/proc/sys/vm/drop_caches")


def only_mismatch(job: dict, kind: str, offset: int) -> dict:
    """The one mismatch of a verify_only job (at iodepth 8) that found one:
    the job stopped there, as fio's does, having checked the block and
    those in flight with it.  Mutation: kb_vmismatch() stopping the job
    only with verify_fatal (the old rule): red in each test using it."""
    v = verify(job)
    counts = {k: v[k] for k in ("corrupt", "misdirected", "stale")}
    assert counts == {k: int(k == kind) for k in counts}, v
    assert offset // BS < v["verified"] <= offset // BS + 8, v
    (m,) = v["mismatches"]
    assert (m["kind"], m["offset"]) == (kind, offset), m
    return m


def test_write_then_verify_only_finds_nothing(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=16)
    write_pass(guest, dev)
    job = verify_only(guest, dev, ok=True)
    v = verify(job)
    assert v["verified"] == BLOCKS and job["read"]["total_ios"] == BLOCKS, v
    assert (v["corrupt"], v["misdirected"], v["stale"], v["mismatches"]) == (0, 0, 0, []), v


def test_one_changed_byte_is_corruption_at_its_offset(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=16)
    write_pass(guest, dev)
    blk, byte = 100, 1000  # in the data, past the 72-byte header
    read_block(guest, dev, blk, "/tmp/b")
    old = int(guest.check(f"od -An -tu1 -j{byte} -N1 /tmp/b").strip())
    new = old ^ 0xff
    guest.check(f"printf '\\{new:03o}' | dd of=/tmp/b bs=1 seek={byte} conv=notrunc 2>/dev/null")
    write_block(guest, dev, blk, "/tmp/b")
    job = verify_only(guest, dev, extra="--verify_dump=1 --keep")
    m = only_mismatch(job, "corrupt", blk * BS)
    assert (m["first_diff"], int(m["expected_byte"], 16), int(m["found_byte"], 16)) == \
        (byte, old, new), m
    assert m["device"] == dev
    # the header is intact: the data's checksum told
    assert m["found_offset"] == m["expected_offset"] == blk * BS, m
    # verify_dump: the expected and received copies, in debugfs
    d = f"/sys/kernel/debug/kiobench/job{job['kiobench']['job_id']}/verify_dump"
    assert guest.run(f"cmp -s {d}/0.received /tmp/b").ok
    cmp = guest.run(f"cmp -l {d}/0.expected {d}/0.received").out.split()
    assert cmp == [str(byte + 1), f"{old:o}", f"{new:o}"], cmp
    guest.check(f"kiobench destroy {job['kiobench']['job_id']}")


def test_verify_fatal_stops_at_the_first(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=16)
    write_pass(guest, dev)
    for blk in (10, BLOCKS - 10):
        read_block(guest, dev, blk, "/tmp/b")
        guest.check("printf '\\0\\0\\0\\0' | dd of=/tmp/b bs=1 seek=0 conv=notrunc 2>/dev/null")
        write_block(guest, dev, blk, "/tmp/b")
    job = run(guest, dev, "--rw=write --verify=crc32c --verify_only=1 --verify_fatal=1 "
                          "--iodepth=1", ok=False)
    v = verify(job)
    assert v["corrupt"] == 1 and v["verified"] == 11, v  # blocks 0..10, then stopped
    assert v["mismatches"][0]["offset"] == 10 * BS


def test_block_over_another_is_misdirected(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=16)
    write_pass(guest, dev)
    read_block(guest, dev, 10, "/tmp/b")
    write_block(guest, dev, 20, "/tmp/b")
    m = only_mismatch(verify_only(guest, dev), "misdirected", 20 * BS)
    assert m["found_offset"] == 10 * BS and m["expected_offset"] == 20 * BS, m


def test_older_generation_is_a_lost_write(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=16)
    write_pass(guest, dev, gen=1)
    read_block(guest, dev, 30, "/tmp/b")
    write_pass(guest, dev, gen=2)
    write_block(guest, dev, 30, "/tmp/b")
    m = only_mismatch(verify_only(guest, dev, gen=2), "stale", 30 * BS)
    assert (m["found_generation"], m["expected_generation"]) == (1, 2), m


def test_time_based_write_reads_back_all_past_runtime(guest, kiobench_module, make_nullb):
    """The read-back replays every write of a time-based job, after its
    runtime: bounded by what was written, not by the clock.  The job must
    go over its span more than once for that to mean anything: 3 s, as the
    debug kernel under KASAN, beside another lane, wrote 920 of the span's
    1024 blocks in 1 s (CI, 2026-11-29)."""
    dev = make_nullb("nullb0", size_mb=16)
    job = run(guest, dev, "--rw=randwrite --verify=xxhash --allow-writes --runtime=3s "
                          "--time_based --workers=2")
    v = verify(job)
    writes = job["write"]["total_ios"]
    assert writes > BLOCKS, f"{writes} writes: the job did not go over its span more than once"
    assert v["verified"] == writes == job["read"]["total_ios"], (v, writes)
    assert (v["corrupt"], v["misdirected"], v["stale"]) == (0, 0, 0), v



def shift_down(guest, dev: str, blocks: int) -> None:
    """Every block of the first ones moved 4 KiB down (block i+1's bytes
    to block i), the last one left: dd in the guest, direct I/O."""
    guest.check(f"dd if={dev} of={dev} bs={BS} skip=1 seek=0 count={blocks - 1} "
                "iflag=direct oflag=direct 2>/dev/null && echo 3 >/proc/sys/vm/drop_caches")


def test_read_job_checks_what_it_reads_as_fio(guest, kiobench_module, make_nullb):
    """A read job with verify checks every block it reads, as fio's does
    (do_io(): verify_io_u on each read of a job that only reads, the
    header's rand_seed taken).  Written with verify=crc32c (no read-back),
    rw=read checks all it read; the blocks shifted 4 KiB down (dd), it
    finds each moved block misdirected and fails, where Debian's fio, whose
    own write and read pass on the same device beside it, fails too (bad
    header offset); the first mismatch stops the job, as it stops fio's,
    and with continue_on_error=verify every block is checked.  Mutation:
    kb_vmismatch() not stopping the job: red (256 read).  Mutation:
    kb_verify_pick()'s slot->vcheck = w->verifying
    alone (the old code): red (0 intervals checked).  Mutation: the seed
    still checked for a read job: red (another randseed reads stale)."""
    dev = make_nullb("nullb0", size_mb=16)
    n, size = 256, 256 * BS
    kb = (f"kiobench run --output-format=json --output={OUT} --filename={dev} --bs={BS} "
          f"--size={size} --iodepth=8 --verify=crc32c")

    def kb_read(ok: bool, extra: str = "", reads: int = n) -> dict:
        r = guest.run(f"{kb} --rw=read {extra}", timeout=300)
        assert (r.rc == 0) == ok, r.out
        assert ok or "EILSEQ" in r.out, r.out
        job = json.loads(guest.check(f"cat {OUT}"))["jobs"][0]
        assert job["read"]["total_ios"] <= reads and job["write"]["total_ios"] == 0, job
        return verify(job)

    guest.check(f"{kb} --rw=write --do_verify=0 --allow-writes", timeout=300)
    # a read job's seed is not the writer's: fio takes the header's
    v = kb_read(True, "--randseed=7")
    assert v["verified"] == n and (v["corrupt"], v["misdirected"], v["stale"]) == (0, 0, 0), v
    shift_down(guest, dev, n)
    # the first mismatch stops the job, as fio's (at most the 8 in flight)
    v = kb_read(False, reads=8)
    assert 1 <= v["misdirected"] <= 8, v
    # going on from verify errors, every block is checked
    v = kb_read(True, "--continue_on_error=verify")
    assert v["verified"] == n and v["misdirected"] == n - 1, v
    assert (v["corrupt"], v["stale"]) == (0, 0), v
    assert v["mismatches"] and all(m["kind"] == "misdirected" and
                                   m["found_offset"] == m["offset"] + BS
                                   for m in v["mismatches"]), v

    fio = (f"fio --name=v --filename={dev} --direct=1 --ioengine=psync --bs={BS} "
           f"--size={size} --verify=crc32c --output-format=terse")
    guest.check(f"{fio} --rw=write --do_verify=0", timeout=300)
    r = guest.run(f"{fio} --rw=read", timeout=300)
    assert r.rc == 0, r.out
    shift_down(guest, dev, n)
    r = guest.run(f"{fio} --rw=read", timeout=300)
    assert r.rc != 0 and "bad header offset" in r.out, r.out


@pytest.mark.parametrize("method", ["crc64", "xxhash", "sha256", "meta"])
def test_each_method_round_trips(guest, kiobench_module, make_nullb, method):
    dev = make_nullb("nullb0", size_mb=16)
    args = f"--rw=randwrite --verify={method} --allow-writes --verify_interval=1k --verify_offset=100"
    job = run(guest, dev, args)
    v = verify(job)
    assert v["verified"] == 4 * BLOCKS and job["read"]["total_ios"] == BLOCKS, v
    assert (v["corrupt"], v["misdirected"], v["stale"]) == (0, 0, 0), v


@pytest.mark.core
def test_md5_round_trips_and_finds_a_changed_byte(guest, kiobench_module, make_nullb):
    """verify=md5, fio's method: the crypto API's md5 (built in on Debian's
    kernels).  A write pass with its read-back finds nothing; the header's
    checksum is the MD5 of the interval but its 72 bytes, as md5sum in the
    guest computes it (the 16 bytes fio's vhdr_md5 holds); one changed data
    byte is corruption at its offset.  A kernel without the crypto API's
    hashes built in refuses the job, naming verify, and nothing is written
    (the debug kernel has them, tests/debug-kernel/debug.config, so that
    the md5 path runs under KASAN).  Mutation: kb_vcsum_len() returning 0 for md5 (no
    checksum kept): red (the changed byte is not found)."""
    dev = make_nullb("nullb0", size_mb=16)
    if not (guest.kernel.has("CRYPTO_MD5") and guest.kernel.builtin("CRYPTO_HASH2")):
        r = guest.run(f"kiobench run --filename={dev} --rw=write --verify=md5 "
                      f"--allow-writes --bs={BS} --size={SIZE}")
        assert r.rc != 0 and "verify: md5: no md5 hash to take on this kernel" in r.out, r.out
        assert guest.check("cat /sys/block/nullb0/stat").split()[4] == "0"  # no writes
        return
    job = run(guest, dev, "--rw=write --verify=md5 --allow-writes")
    v = verify(job)
    assert v["verified"] == BLOCKS and (v["corrupt"], v["misdirected"], v["stale"]) == (0, 0, 0), v
    blk, byte = 100, 1000
    read_block(guest, dev, blk, "/tmp/b")
    csum = guest.check("od -An -tx1 -j32 -N16 /tmp/b").split()
    md5 = guest.check("tail -c +73 /tmp/b | md5sum").split()[0]
    assert "".join(csum) == md5, (csum, md5)
    old = int(guest.check(f"od -An -tu1 -j{byte} -N1 /tmp/b").strip())
    guest.check(f"printf '\\{old ^ 1:03o}' | dd of=/tmp/b bs=1 seek={byte} conv=notrunc 2>/dev/null")
    write_block(guest, dev, blk, "/tmp/b")
    job = run(guest, dev, "--rw=write --verify=md5 --verify_only=1", ok=False)
    m = only_mismatch(job, "corrupt", blk * BS)
    assert m["first_diff"] == byte and m["found_offset"] == blk * BS, m


def test_pattern_is_checked_without_header(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=16)
    job = run(guest, dev, "--rw=write --verify_pattern=0xdeadbeef --allow-writes")
    assert verify(job)["verified"] == BLOCKS
    assert guest.check(f"od -An -tx1 -N4 {dev}").split() == ["de", "ad", "be", "ef"]


def test_refusals_say_why(guest, kiobench_module, make_nullb):
    """verify=sha1 is refused, saying why.  verify_interval=3k with bs=4k runs
    as fio runs it: fio's fixup_options() takes the block sizes' gcd for an
    interval that does not divide them, so each 4 KiB block is one interval
    checked.  The kernel itself refuses such an interval, naming
    verify-interval (a raw request: the tool never sends one)."""
    dev = make_nullb("nullb0", size_mb=16)
    r = guest.run(f"kiobench run --filename={dev} --rw=write --verify=sha1 --allow-writes")
    assert r.rc != 0 and "verify=sha1: not implemented: use sha256" in r.out, r.out
    job = run(guest, dev, "--rw=write --verify=crc32c --verify_interval=3k --allow-writes")
    assert verify(job)["verified"] == BLOCKS
    ack = nlreq(guest, "new", f"dev={dev}", "bss=4096", "rwmix-read=0", "allow-writes",
                "verify=1", "verify-interval=3072", "number-ios=1")
    assert (ack.name, ack.attr) == ("EINVAL", "verify-interval"), ack.out
    assert "must divide every block size" in ack.msg, ack.out


# ---- verify's windows and trims (verify_backlog, trim_percentage) ----------

ST_DISCARDS, ST_DMERGES, ST_DSECT = 11, 12, 13   # /sys/block/<dev>/stat, 0-based


def dev_stat(guest, dev: str) -> list[int]:
    return [int(x) for x in
            guest.check(f"cat /sys/class/block/{dev.rsplit('/', 1)[-1]}/stat").split()]


def zero_blocks(guest, dev: str) -> int:
    """How many of the job's BLOCKS read back as zeroes, read by dd and
    counted by od and grep, not by kiobench (od prints each block on a
    line of its own: a line of zeroes only is a zeroed block)."""
    return int(guest.check(
        f"dd if={dev} bs={BS} count={BLOCKS} iflag=direct 2>/dev/null | "
        f"od -An -v -tx1 -w{BS} | grep -vc '[1-9a-f]'"))


def test_trim_percentage_trims_and_verify_reads_zeroes(guest, kiobench_module, make_nullb):
    """fio's trim_percentage=30 with trim_backlog=64: every 64 writes the
    worker trims the writes it chose among them (REQ_OP_DISCARD, counted
    in null_blk's discard sectors); the read-back expects those blocks to
    read as zeroes and the others to hold their data.  The device agrees:
    the blocks dd reads as zeroes are as many as the trims.  Mutations:
    kb_vreplay_trimmed() returning false: red (trimmed blocks read as
    corrupt); kb_verify_pick_trim() without trim_upto++: red (same)."""
    dev = make_nullb("nullb0", size_mb=16, discard=1)
    before = dev_stat(guest, dev)
    job = run(guest, dev, "--rw=write --verify=crc32c --trim_percentage=30 "
                          "--trim_backlog=64 --allow-writes "
                          "--experimental_verify=1")
    after = dev_stat(guest, dev)
    v = verify(job)
    trims = job["trim"]["total_ios"]
    assert 0.2 * BLOCKS < trims < 0.4 * BLOCKS, trims        # 30 % of the writes
    assert after[ST_DSECT] - before[ST_DSECT] == trims * BS // 512, (before, after)
    assert job["write"]["total_ios"] == BLOCKS and job["read"]["total_ios"] == BLOCKS
    assert v["verified"] == BLOCKS and v["trimmed_zeroes"] == trims, v
    assert (v["corrupt"], v["misdirected"], v["stale"]) == (0, 0, 0), v
    assert zero_blocks(guest, dev) == trims
    s = job["kiobench"]["settings"]         # as the kernel ran it
    assert (s["trim_percentage"], s["trim_backlog"], s["trim_backlog_batch"]) == (30, 64, 64), s


def test_trim_verify_zero_off_skips_trimmed_blocks(guest, kiobench_module, make_nullb):
    """trim_verify_zero=0: the trimmed blocks are not read back, as fio
    drops them from its verify list; the rest are checked.  Mutation:
    kb_verify_check() ignoring trim_verify_zero: red (checked as zeroes)."""
    dev = make_nullb("nullb0", size_mb=16, discard=1)
    job = run(guest, dev, "--rw=write --verify=crc32c --trim_percentage=50 "
                          "--trim_backlog=32 --trim_verify_zero=0 --allow-writes "
                          "--experimental_verify=1")
    v = verify(job)
    trims = job["trim"]["total_ios"]
    assert trims > 0.3 * BLOCKS, trims
    assert v["verified"] == BLOCKS - trims and v["trimmed_zeroes"] == 0, v
    assert v["corrupt"] == 0, v


def bio_dirs(guest, dev: str, cmd: str) -> str:
    """The directions of the bios queued on dev while cmd ran, in order
    (block_bio_queue's rwbs: W, R, D), one letter each."""
    return "".join(r[0] for r in tracepoint_rwbs(guest, dev, "block_bio_queue", cmd,
                                                 timeout=300, buffer_kb=16384))


def test_verify_backlog_reads_back_every_n_writes(guest, kiobench_module, make_nullb):
    """verify_backlog=100: the device sees 100 writes, then their 100
    reads, and so on; the last 24 writes are read back at the end.  Every
    block is checked once.  With number_ios=250 the windows' reads count
    too (fio's exceeds_number_ios()).  Mutations: kb_verify_window_next()
    returning false: red (all writes, then all reads); the window's reads
    not taken off the count: red (W100 R100 W100 R100 W50 R50)."""
    dev = make_nullb("nullb0", size_mb=16)
    dirs = bio_dirs(guest, dev, f"kiobench run --output-format=json --output={OUT} "
                                f"--filename={dev} --bs={BS} --size={SIZE} --iodepth=8 "
                                "--rw=write --verify=crc32c --verify_backlog=100 "
                                "--allow-writes")
    runs = [(d, len(list(g))) for d, g in itertools.groupby(dirs)]
    n = BLOCKS // 100
    assert runs == [("W", 100), ("R", 100)] * n + [("W", BLOCKS % 100), ("R", BLOCKS % 100)], runs
    v = verify(json.loads(guest.check(f"cat {OUT}"))["jobs"][0])
    assert v["verified"] == BLOCKS and v["corrupt"] == 0, v
    # number_ios counts the windows' reads too, as fio's: 100 writes, their
    # reads, 50 writes (250 in all), then those read back
    dirs = bio_dirs(guest, dev, f"kiobench run --filename={dev} --bs={BS} --size={SIZE} "
                                "--iodepth=8 --rw=write --verify=crc32c --verify_backlog=100 "
                                "--number_ios=250 --allow-writes")
    runs = [(d, len(list(g))) for d, g in itertools.groupby(dirs)]
    assert runs == [("W", 100), ("R", 100), ("W", 50), ("R", 50)], runs


def test_loops_read_back_each_loop(guest, kiobench_module, make_nullb):
    """fio's loops=3 with verify and end_fsync, on a device with a write
    cache: each loop's writes, their flush, then their read-back, before
    the next loop's (fio's thread_main(): do_io(), then do_verify(), each
    loop); every block checked three times.  Without verify, end_fsync's
    flush still ends each loop.  Mutations: the tool not sending io-round:
    red (every write first); no end_fsync at a round's end: red; no
    read-back at a round's end: red (the fio cases verify-loops and
    verify-loops-random, the same three); kb_worker_rounds() not ending a
    round with its end_fsync: red (one flush, at the end)."""
    dev = make_nullb("nullb0", size_mb=16, cache_size=16)
    dirs = bio_dirs(guest, dev, f"kiobench run --output-format=json --output={OUT} "
                                f"--filename={dev} --bs={BS} --size={SIZE} --iodepth=8 "
                                "--rw=write --verify=crc32c --loops=3 --end_fsync=1 "
                                "--allow-writes")
    runs = [(d, len(list(g))) for d, g in itertools.groupby(dirs)]
    assert runs == [("W", BLOCKS), ("F", 1), ("R", BLOCKS)] * 3, runs
    job = json.loads(guest.check(f"cat {OUT}"))["jobs"][0]
    v = verify(job)
    assert v["verified"] == 3 * BLOCKS and v["corrupt"] == 0, v
    assert job["kiobench"]["settings"]["io_round"] == SIZE  # as the kernel ran it
    # without verify, end_fsync alone: each loop's writes, then their flush
    # (kb_worker_rounds()), on two workers each flushing its own share
    for workers in (1, 2):
        dirs = bio_dirs(guest, dev, f"kiobench run --filename={dev} --bs={BS} --size={SIZE} "
                                    f"--iodepth=8 --rw=write --loops=3 --end_fsync=1 "
                                    f"--workers={workers} --allow-writes")
        runs = [(d, len(list(g))) for d, g in itertools.groupby(dirs)]
        if workers == 1:
            assert runs == [("W", BLOCKS), ("F", 1)] * 3, runs
        else:
            assert dirs.count("W") == 3 * BLOCKS and dirs.count("F") == 6, runs
            assert runs[-1][0] == "F", runs


def test_failed_write_is_not_read_back(guest, kiobench_module, make_nullb):
    """continue_on_error=write, block 8 failing (null_blk's badblocks; one
    write at a time, so that no request merges it with others): the job
    goes on, and its read-back reads every other block, lowest first,
    each once, and not block 8, which fio drops from its log
    (unlog_io_piece()).  Mutations: kb_verify_write_failed() not called:
    red (the read of block 8 fails and stops the job); the tool not asking
    for the log of a single sequential pass: red (the replay reads it)."""
    dev = make_nullb("nullb0", size_mb=16)
    set_badblocks(guest, "nullb0", 64, 71)
    cmd = (f"kiobench run --output-format=json --output={OUT} --filename={dev} --bs={BS} "
           "--size=256k --iodepth=1 --rw=write --verify=crc32c --continue_on_error=write "
           "--allow-writes")
    ios = queued(guest, dev, cmd)
    blocks = [i * BS for i in range(64)]
    assert [off for op, off, _ in ios if op == "W"] == blocks, ios
    assert [off for op, off, _ in ios if op == "R"] == [b for b in blocks if b != 8 * BS], ios
    v = verify(json.loads(guest.check(f"cat {OUT}"))["jobs"][0])
    assert v["verified"] == 63 and v["corrupt"] == 0, v


def test_read_write_mix_reads_back_its_writes_and_trims(guest, kiobench_module, make_nullb):
    """fio's rw=randrw with verify and trim_percentage: the mix's reads are
    plain reads (fio checks only reads of its verify list); its writes are
    read back and checked, their chosen blocks trimmed every trim_backlog
    writes (reads do not count: fio counts written blocks).  The random map
    touches each block once, so on a fresh memory-backed null_blk dd finds
    zeroes in the blocks read (never written) and the trimmed ones, and the
    queued bios (block_bio_queue) show 32 writes before each run of trims.
    Mutations: the read-back replaying the mix's reads: red (unwritten
    blocks checked, corrupt); every read checked (slot->vcheck = true): red;
    a window counting reads too: red (fewer than 32 writes per window)."""
    dev = make_nullb("nullb0", size_mb=16, discard=1)
    cmd = (f"kiobench run --output-format=json --output={OUT} --filename={dev} "
           f"--bs={BS} --size={SIZE} --iodepth=8 --rw=randrw --rwmixread=50 "
           "--verify=crc32c --trim_percentage=50 --trim_backlog=32 --allow-writes")
    dirs = bio_dirs(guest, dev, cmd)
    job = json.loads(guest.check(f"cat {OUT}"))["jobs"][0]
    v = verify(job)
    writes, trims = job["write"]["total_ios"], job["trim"]["total_ios"]
    assert 0.4 * BLOCKS < writes < 0.6 * BLOCKS and 0.3 * writes < trims < 0.7 * writes
    assert job["read"]["total_ios"] == BLOCKS, job["read"]     # the mix's + the read-back
    assert v["verified"] == writes and v["trimmed_zeroes"] == trims, v
    assert (v["corrupt"], v["misdirected"], v["stale"]) == (0, 0, 0), v
    assert zero_blocks(guest, dev) == BLOCKS - writes + trims
    windows = [seg.count("W") for seg in re.split("D+", dirs)]
    assert dirs.count("D") == trims and len(windows) > 10, dirs
    # the last window ends with the budget, then the read-back writes none
    assert set(windows[:-2]) == {32} and 0 < windows[-2] <= 32 and windows[-1] == 0, windows


def test_backlog_refusals_say_why(guest, kiobench_module, make_nullb):
    """What kiobench does not take of fio's backlogs is refused with the
    reason, and nothing is written (the make_nullb device's counters)."""
    dev = make_nullb("nullb0", size_mb=16)
    base = f"kiobench run --filename={dev} --rw=write --verify=crc32c --allow-writes --size=1m "
    for args, msg in (
            ("--trim_percentage=10", "trim-percentage, trim-backlog: one without the other"),
            ("--trim_percentage=10 --trim_backlog=64 --trim_backlog_batch=8",
             "trim-backlog-batch: below trim-backlog"),
            ("--verify_backlog=64 --verify_backlog_batch=32",
             "verify-backlog-batch: only equal to verify-backlog"),
            ("--trim_percentage=10 --trim_backlog=64 --experimental_verify=1",
             "trim-backlog: discard_max_bytes is 0"),
            # a second loop comes back over the blocks: the log (one pass needs none)
            ("--trim_percentage=10 --trim_backlog=64 --loops=2",
             "verify-sorted: not with trim-backlog"),
            ("--verify_only=1 --runtime=1s --time_based",
             "verify-sorted: verify-only logs the write pass without running it")):
        r = guest.run(base + args)
        assert r.rc != 0 and msg in r.out, (args, r.out)
    r = guest.run(f"kiobench run --filename={dev} --rw=write --trim_backlog=8 --allow-writes")
    assert r.rc != 0 and "only with verify" in r.out, r.out
    # what the tool never sends: a round of the whole budget, or with a
    # budget of I/Os, or without verify and end-fsync (nothing to show)
    for extra in (("verify=1", "io-bytes=1048576", "io-round=1048576"),
                  ("verify=1", "io-bytes=1048576", "io-round=65536", "number-ios=8"),
                  ("io-bytes=1048576", "io-round=65536")):
        ack = nlreq(guest, "new", f"dev={dev}", "bss=4096", "rwmix-read=0", "allow-writes",
                    *extra)
        assert (ack.name, ack.attr) == ("EINVAL", "io-round"), ack.out
        assert "io-round: needs io-bytes above it, and do-verify on a job that writes " \
            "(not with verify-only or trim-backlog) or end-fsync; not with number-ios" \
            in ack.msg, ack.out


SORTED = ("--size=256k --io_size=3m --rw=randwrite --norandommap --bsrange=4k-16k "
          "--iodepth=1 --verify=crc32c")


def queued(guest, dev: str, cmd: str) -> list[tuple[str, int, int]]:
    """(W or R, offset, bytes) of each bio queued on dev while cmd ran, in
    submission order (block_bio_queue)."""
    return [("W" if "W" in e.rwbs else "R", e.sector * 512, e.nbytes)
            for e in block_events(guest, dev, cmd, actions="Q")]


def fio_read_backs(ios: list[tuple[str, int, int]]) -> list[tuple[list, list]]:
    """Each run of reads of ios beside what fio 3.33 reads there without
    experimental_verify and a random map: its log_io_piece() keeps the
    writes in an rb-tree by offset, a write dropping whole every older one
    it overlaps, and get_next_verify() takes them out lowest first."""
    log: list[tuple[int, int]] = []
    runs: list[tuple[list, list]] = []
    reading = False
    for op, off, n in ios:
        if op == "W":
            reading = False
            log = [(a, m) for a, m in log if a + m <= off or off + n <= a] + [(off, n)]
            continue
        if not reading:     # the read-back takes every piece out of the tree
            runs.append(([], sorted(log)))
            log, reading = [], True
        runs[-1][0].append((off, n))
    return runs


def test_sorted_read_back_is_fios_survivors(guest, kiobench_module, make_nullb):
    """fio's read-back without experimental_verify (verify-sorted) of random
    writes of 4 to 16 KiB without a random map, overlapping one another:
    every run of reads, the end's and each verify_backlog window's, is the
    surviving writes lowest offset first, each once at its own size, from
    the bios the kernel queued; verify_only's dry run reads the same; a
    changed byte in one of them is still found.  A verify_backlog window
    ends when the log holds N extents, as fio's.  Mutations: kb_xmap_insert()
    without dropping the extent a write starts in (lo = a): red (an older
    extent read back); kb_vsorted() returning false: red (the write order
    replayed, duplicates too); kb_verify_pick() logging in dry runs
    skipped: red (verify_only reads nothing); the window not lengthened by
    the extents a write dropped: red (runs shorter than 16)."""
    dev = make_nullb("nullb0", size_mb=16)
    base = (f"kiobench run --output-format=json --output={OUT} --filename={dev} {SORTED} "
            "--allow-writes")
    plain = queued(guest, dev, base)
    writes = [io for io in plain if io[0] == "W"]
    (got, want), = fio_read_backs(plain)
    assert got == want and len(writes) > 250 and 0 < len(got) < 100, (len(got), len(writes))
    v = verify(json.loads(guest.check(f"cat {OUT}"))["jobs"][0])
    assert v["verified"] == sum(n for _, n in got) // BS and v["corrupt"] == 0, v
    # windows: io_size within size (past it, fio's round cap counts the
    # windows' reads: refused); each window ends when the log holds 16
    # extents, so every run of reads but the end's has 16
    runs = fio_read_backs(queued(guest, dev, f"{base} --io_size=1m --size=1m "
                                             "--verify_backlog=16"))
    assert len(runs) > 3 and all(g == w and g for g, w in runs), runs
    assert all(len(g) == 16 for g, _ in runs[:-1]), [len(g) for g, _ in runs]
    r = guest.run(f"{base} --verify_backlog=16")
    assert r.rc != 0 and "verify_backlog with norandommap random writes and io_size past " \
        "size" in r.out, r.out
    # verify_only: fio's dry run logs the same writes; nothing written
    dry = queued(guest, dev, f"kiobench run --filename={dev} {SORTED} --verify_only=1")
    assert dry == [("R", a, n) for a, n in want], dry[:8]
    # a changed byte in the data of a surviving extent (past its header)
    a, n = want[len(want) // 2]
    read_block(guest, dev, a // BS, "/tmp/b")
    guest.check("printf '\\377' | dd of=/tmp/b bs=1 seek=1000 conv=notrunc 2>/dev/null")
    write_block(guest, dev, a // BS, "/tmp/b")
    r = guest.run(f"kiobench run --output-format=json --output={OUT} --filename={dev} "
                  f"{SORTED} --verify_only=1", timeout=300)
    assert r.rc != 0 and "EILSEQ" in r.out, r.out
    v = verify(json.loads(guest.check(f"cat {OUT}"))["jobs"][0])
    assert v["corrupt"] == 1 and v["mismatches"][0]["offset"] == a, v


def test_sorted_log_over_its_cap_is_refused(guest, kiobench_module, make_nullb):
    """verify-sorted's log, two bitmaps of a bit per unit of the writes'
    alignment in the span, is refused past max-verify-sorted-map (64 MiB a
    job): 300 GiB of 512-byte writes would take 150 MiB, of 4 KiB ones 19.
    The message names the limit and experimental_verify, with which the
    same job runs (and, null_blk without memory reading zeroes, finds a
    mismatch).  (The jobs loop twice: a single sequential pass, which never
    comes back over a block, reads back in the order written without a log,
    and the 512-byte job runs then.)  Mutations:
    kb_verify_check_map() returning 0: red (the job runs); kb_xmap_shift()
    the logical block's: red (the 4 KiB job refused); kb_job_seq_once()
    false: red (the single pass refused)."""
    dev = make_nullb("nullb0", size_mb=300 << 10, memory_backed=False)
    once = (f"kiobench run --filename={dev} --rw=write --verify=crc32c --allow-writes "
            "--number_ios=8 --bs=512")
    r = guest.run(once)
    assert "EILSEQ" in r.out and "verify-sorted" not in r.out, r.out
    cmd = (f"kiobench run --filename={dev} --rw=write --verify=crc32c --allow-writes "
           "--number_ios=8 --loops=2")
    # 4 KiB writes: a 4 KiB unit, 19 MiB; it runs (null_blk without memory
    # reads zeroes back: a mismatch)
    r = guest.run(f"{cmd} --bs=4k")
    assert "EILSEQ" in r.out and "verify-sorted" not in r.out, r.out
    cmd += " --bs=512"
    r = guest.run(cmd)
    assert r.rc != 0 and ("verify-sorted: the writes' log passes max-verify-sorted-map "
                          "(64 MiB a job") in r.out, r.out
    assert "fewer numjobs, or experimental_verify=1 (E2BIG)" in r.out, r.out
    r = guest.run(f"{cmd} --experimental_verify=1")
    assert "EILSEQ" in r.out and "verify-sorted" not in r.out, r.out


# sectors of nullb0 whose writes fail: 4 KiB blocks 8 and 25
BAD = ((64, 71), (200, 207))


def on_bad(off: int, n: int) -> bool:
    return any(off < (last + 1) * 512 and first * 512 < off + n for first, last in BAD)


def failing_writes(guest, make_nullb) -> tuple[str, bool]:
    """nullb0, 16 MiB, whose writes to BAD fail; with null_blk's
    badblocks_once (6.15 on) a bad range is good again after its first
    failed I/O, and the block keeps what it held before (zeroes here): a
    read of it succeeds, finding no header.  Without it (6.12) the read
    fails too.  Returns the device and whether it has badblocks_once."""
    features = guest.check(f"modprobe null_blk nr_devices=0 && cat {NULLB}/features")
    once = "badblocks_once" in features.strip().split(",")
    assert once or guest.kernel.name != "debug", features
    dev = make_nullb("nullb0", size_mb=16, **({"badblocks_once": 1} if once else {}))
    for first, last in BAD:
        set_badblocks(guest, "nullb0", first, last)
    return dev, once


@pytest.mark.parametrize("args, windows", [
    ("--bs=4k", 1),                         # one size: the random map's permutation
    ("--bssplit=4k/50:16k/50", 1),          # several sizes: the random map's bitmap
    ("--bs=4k --verify_backlog=16", 4),     # windows, each replayed
    ("--bs=4k --loops=2", 2),               # io-round's rounds, each replayed
], ids=["permutation", "bitmap", "backlog", "rounds"])
def test_replay_skips_failed_writes(guest, kiobench_module, make_nullb, args, windows):
    """rw=randwrite under the random map with continue_on_error=write, the
    writes of two 4 KiB blocks failing (null_blk's badblocks, one write at
    a time so that none merges with another): verify's replayed read-back,
    of the job's end, of each verify_backlog window or of each loop's
    round, reads back every write of its own that went through, in the
    order written, and none that failed, as fio 3.33 drops a failed write
    from its list (io_completed(): unlog_io_piece()).  Nothing is reported
    corrupt; the job counts the failed writes as write errors gone on from
    (EIO), and no read error.  With badblocks_once (the debug kernel) the
    failed blocks read back their old zeroes, where a replay that read
    them would report corruption the device never wrote; and the second
    loop's writes of them go through, so its round reads them back.
    Mutations: kb_verify_pick() replaying a marked pick (no skip): red,
    all four (debug: corrupt, EILSEQ; 6.12: the reads of the failed blocks
    fail, EIO); kb_vfail_clear() clearing every bit of the map: red, all
    four (the same); a skipped pick giving its budget back: red, all four
    (reads past the writes); kb_vfail_clear() not called: red on debug
    (rounds: the second round skips blocks written well)."""
    dev, once = failing_writes(guest, make_nullb)
    cmd = (f"kiobench run --output-format=json --output={OUT} --filename={dev} --size=256k "
           "--iodepth=1 --rw=randwrite --verify=crc32c --continue_on_error=write "
           f"--allow-writes {args}")
    ios = queued(guest, dev, f"{cmd} || true")
    job = json.loads(guest.check(f"cat {OUT}"))["jobs"][0]
    # each window's writes (offset, bytes, whether it failed), then reads;
    # with badblocks_once only a bad range's first write fails
    runs: list[tuple[list, list]] = []
    hit: set[tuple[int, int]] = set()
    for op, a, n in ios:
        if op == "W" and (not runs or runs[-1][1]):
            runs.append(([], []))
        if op == "R":
            runs[-1][1].append((a, n))
            continue
        bad = {r for r in BAD if a < (r[1] + 1) * 512 and r[0] * 512 < a + n} - hit
        runs[-1][0].append((a, n, bool(bad)))
        if once:
            hit |= bad
    writes = [w for ws, _ in runs for w in ws]
    failed = [w for w in writes if w[2]]
    reads = [r for _, rs in runs for r in rs]
    kb, v = job["kiobench"], verify(job)
    assert (v["corrupt"], v["misdirected"], v["stale"], v["mismatches"]) == (0, 0, 0, []), v
    assert kb["errors"]["read"] == 0, kb["errors"]
    # the random map: each block written once a pass, those of BAD among them
    loops = 2 if "--loops=2" in args else 1
    assert sum(n for _, n, _ in writes) == loops * 256 << 10, writes
    assert len(failed) >= 2 and all(on_bad(a, n) for a, n, _ in failed), failed
    assert len(runs) == windows, runs
    for ws, rs in runs:
        assert len({w[:2] for w in ws}) == len(ws), ws
        assert rs == [(a, n) for a, n, f in ws if not f], (ws, rs)
    assert v["verified"] == sum(n for _, n in reads) // BS, v   # 4 KiB intervals
    # fio counts the writes that went through
    assert (job["read"]["total_ios"], job["write"]["total_ios"]) == \
        (len(reads), len(writes) - len(failed))
    assert kb["errors"]["write"] == len(failed), kb["errors"]
    assert kb["errors_gone_on"] == [{"type": "write", "errno": 5, "name": "EIO",
                                     "count": len(failed)}], kb
    assert (job["error"], job["total_err"], job["first_error"]) == (5, len(failed), 5), job


def test_failed_map_over_its_cap_is_refused(guest, kiobench_module, make_nullb):
    """The replay's map of failed writes, a bit per unit of the writes'
    alignment in each worker's span, is allocated only for a job that goes
    on from write errors, and refused past max-verify-failed-map (256 MiB a
    job): 1.2 TiB of 512-byte writes would take 300 MiB, of 4 KiB ones 38.
    Mutations: kb_verify_check_map() not checking it: red (the job runs,
    or fails to allocate); kb_vfail_wanted() true without continue_on_error:
    red (the last job refused)."""
    dev = make_nullb("nullb0", size_mb=1200 << 10, memory_backed=False)
    cmd = (f"kiobench run --filename={dev} --rw=randwrite --verify=crc32c --allow-writes "
           "--number_ios=8")
    r = guest.run(f"{cmd} --bs=512 --continue_on_error=write")
    assert r.rc != 0 and ("verify: the failed writes' map passes max-verify-failed-map "
                          "(256 MiB a job") in r.out, r.out
    assert "or no continue_on_error (E2BIG)" in r.out, r.out
    # null_blk without memory reads zeroes back: a mismatch, once the job runs
    for args in ("--bs=4k --continue_on_error=write", "--bs=512"):
        r = guest.run(f"{cmd} {args}")
        assert "EILSEQ" in r.out and "max-verify-failed-map" not in r.out, (args, r.out)
