"""fio's verify, done by the kernel (kmod/verify.c), on memory-backed
null_blk: a write pass with its read-back and a verify_only pass find
nothing; then blocks changed behind kiobench's back with dd are each
reported at their offset, as what they are: one changed byte as
corruption, a block copied over another as a misdirected write, a block
of an older generation put back as a lost (stale) write.

null_blk keeps what is written, so every count here is exact.
"""
from __future__ import annotations

import json

import pytest

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
    v = verify(job)
    counts = {k: v[k] for k in ("corrupt", "misdirected", "stale")}
    assert counts == {k: int(k == kind) for k in counts}, v
    assert v["verified"] == BLOCKS, v
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
    runtime: bounded by what was written, not by the clock."""
    dev = make_nullb("nullb0", size_mb=16)
    job = run(guest, dev, "--rw=randwrite --verify=xxhash --allow-writes --runtime=1s "
                          "--time_based --workers=2")
    v = verify(job)
    writes = job["write"]["total_ios"]
    assert writes > BLOCKS, "the job went over its span more than once"
    assert v["verified"] == writes == job["read"]["total_ios"], (v, writes)
    assert (v["corrupt"], v["misdirected"], v["stale"]) == (0, 0, 0), v


@pytest.mark.parametrize("method", ["crc64", "xxhash", "sha256", "meta"])
def test_each_method_round_trips(guest, kiobench_module, make_nullb, method):
    dev = make_nullb("nullb0", size_mb=16)
    args = f"--rw=randwrite --verify={method} --allow-writes --verify_interval=1k --verify_offset=100"
    if method == "crc64":
        r = guest.run(f"kiobench run --filename={dev} --size=64k {args}")
        if r.rc and "this kernel has no CRC-64 library (CONFIG_CRC64)" in r.out:
            pytest.skip(f"{guest.kernel.name} has no CRC-64 library (CONFIG_CRC64)")
    job = run(guest, dev, args)
    v = verify(job)
    assert v["verified"] == 4 * BLOCKS and job["read"]["total_ios"] == BLOCKS, v
    assert (v["corrupt"], v["misdirected"], v["stale"]) == (0, 0, 0), v


def test_pattern_is_checked_without_header(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=16)
    job = run(guest, dev, "--rw=write --verify_pattern=0xdeadbeef --allow-writes")
    assert verify(job)["verified"] == BLOCKS
    assert guest.check(f"od -An -tx1 -N4 {dev}").split() == ["de", "ad", "be", "ef"]


def test_refusals_say_why(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=16)
    r = guest.run(f"kiobench run --filename={dev} --rw=write --verify=md5 --allow-writes")
    assert r.rc != 0 and "verify=md5: the kernel has no MD5 library" in r.out, r.out
    r = guest.run(f"kiobench run --filename={dev} --rw=randrw --verify=crc32c --allow-writes "
                  "--size=1m")
    assert r.rc != 0 and "verify: not with a read/write mix" in r.out, r.out
    r = guest.run(f"kiobench run --filename={dev} --rw=write --verify=crc32c --bs=4k "
                  "--verify_interval=3k --allow-writes --size=1m")
    assert r.rc != 0 and "verify-interval: must divide every block size" in r.out, r.out
