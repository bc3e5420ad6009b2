"""fio's ignore_error and error_dump (kmod/errors.c): a null_blk whose
first half fails (badblocks), read or written at random.  A listed error
is counted and the job goes on; an unlisted one stops it, even with
continue_on_error, as in fio; the report counts what was gone on from by
type and errno (fio's total_err, first_error), and error_dump logs each.
And verify's list: mismatches gone on from.  And continue_on_error with
ignore_error against fio itself: one job file, run by both, the same
completions at the device.  No compat code: on the debug kernel (marker
debug), under KASAN."""
from __future__ import annotations

import json

import pytest

from kb import block_events, run_job
from test_robust import EXIT_JOB_FAILED, NULLB, SLOW, set_badblocks
from test_verify import BLOCKS, read_block, run, write_block, write_pass

N = 400


def job_args(dev: str, rw: str, args: str) -> str:
    return f"--filename={dev} --rw={rw} --allow-writes --iodepth=4 --number_ios={N} {args}"


@pytest.mark.debug
def test_ignore_error_goes_on_from_listed_errors_only(guest, kiobench_module, make_nullb):
    """ignore_error=EIO (the reads' list): the job ends DONE, its read
    errors counted as gone on from (EIO, first_error 5) and each logged
    (error_dump, fio's default); error_dump=0 logs none.  The writes' list
    (,EIO) takes write errors.  A list without EIO (ENOSPC) stops the job
    at its first EIO, continue_on_error notwithstanding; so does a read
    list for a write job.  Mutations: kb_err_go_on() ignoring the lists
    (continue_on_error alone): red (ENOSPC run completes); kb_err_listed()
    matching any errno: red (same); the counts not kept: red."""
    dev = make_nullb("nullb0", size_mb=16)
    set_badblocks(guest, "nullb0", 0, 16383)  # the first half
    guest.check("dmesg -c >/dev/null")
    job = run_job(guest, job_args(dev, "randread", "--ignore_error=EIO"))
    kb = job["kiobench"]
    # fio's error of a job that went on: the first error gone on from
    assert kb["state"] == "DONE" and job["error"] == 5, kb
    assert kb["settings"]["ignore_error"] == "EIO" and kb["settings"]["error_dump"] is True
    assert kb["errors"]["read"] > 0 and kb["all_ios"]["read"] > 0, kb
    assert kb["errors_gone_on"] == [{"type": "read", "errno": 5, "name": "EIO",
                                     "count": kb["errors"]["read"]}], kb
    assert (kb["total_err"], kb["first_error"]) == (kb["errors"]["read"], 5)
    assert (job["total_err"], job["first_error"]) == (kb["total_err"], 5)  # fio's keys
    assert "gone on from" in guest.check("dmesg")
    guest.check("dmesg -c >/dev/null")
    run_job(guest, job_args(dev, "randread", "--ignore_error=EIO --error_dump=0"))
    assert "gone on from" not in guest.check("dmesg")

    job = run_job(guest, job_args(dev, "randwrite", "--ignore_error=,EIO"))
    assert job["kiobench"]["errors_gone_on"][0]["type"] == "write", job["kiobench"]

    for rw, args in (("randread", "--ignore_error=ENOSPC --continue_on_error"),
                     ("randwrite", "--ignore_error=EIO")):
        r = guest.run(f"kiobench run --output-format=json --output=/tmp/e.json "
                      f"{job_args(dev, rw, args)}")
        assert r.rc == EXIT_JOB_FAILED, (args, r.out)
        j = json.loads(guest.check("cat /tmp/e.json"))["jobs"][0]
        assert j["error"] == 5 and j["kiobench"]["total_err"] == 0, (args, j["kiobench"])


@pytest.mark.debug
def test_ignore_error_verify_list_goes_on_from_mismatches(guest, kiobench_module, make_nullb):
    """ignore_error=,,EILSEQ: two blocks with a wrong header are counted
    as verify errors gone on from; the job reads every block back and
    ends DONE, with verify_fatal too (fio's verify_io_u() returns at a
    wrong header before verify_fatal applies).  Two blocks with wrong data
    and verify_fatal: the first stops the job, still counted as gone on
    from (the job DONE).  Mutation: kb_vmismatch() not asking
    kb_err_listed() (failing the job as before): red; verify_fatal not
    stopping a listed data mismatch: red; verify_fatal stopping at a
    header too (`&& !hdr` dropped): red."""
    dev = make_nullb("nullb0", size_mb=16)
    write_pass(guest, dev)

    def spoil(seek: int) -> None:
        for blk in (10, BLOCKS - 10):
            read_block(guest, dev, blk, "/tmp/b")
            guest.check(f"printf '\\0\\0\\0\\0' | dd of=/tmp/b bs=1 seek={seek} conv=notrunc "
                        "2>/dev/null")
            write_block(guest, dev, blk, "/tmp/b")
    spoil(0)    # the header's magic
    for fatal in ("", "--verify_fatal=1 "):
        job = run(guest, dev, f"--rw=write --verify=crc32c --verify_only=1 {fatal}"
                              "--ignore_error=,,EILSEQ")
        kb = job["kiobench"]
        assert kb["verify"]["corrupt"] == 2 and kb["verify"]["verified"] == BLOCKS, \
            (fatal, kb["verify"])
        assert kb["errors_gone_on"] == [{"type": "verify", "errno": 84, "name": "EILSEQ",
                                         "count": 2}], kb
        assert kb["settings"]["ignore_error"] == ",,EILSEQ"
    write_pass(guest, dev)
    spoil(1000)  # the data, past the 72-byte header
    job = run(guest, dev, "--rw=write --verify=crc32c --verify_only=1 --verify_fatal=1 "
                          "--ignore_error=,,EILSEQ --iodepth=1")
    kb = job["kiobench"]
    assert (kb["verify"]["corrupt"], kb["verify"]["verified"]) == (1, 11), kb["verify"]
    # DONE, fio's error being the first gone on from
    assert job["error"] == 84 and kb["state"] == "DONE", kb


# fio's continue_on_error against fio: one job file of one job a case, each
# in its own region of the device (COE_REGION blocks apart), reading or
# writing its 40 4 KiB blocks in order, one I/O at a time; blocks 10..19 of
# each region fail with EIO (badblocks).  (rw, options in job-file order,
# goes on.)
COE_BLOCKS, COE_BAD, COE_REGION = 40, (10, 20), 64
COE_CASES = [
    ("read", "continue_on_error=none", False),
    ("read", "continue_on_error=read", True),
    ("read", "continue_on_error=write", False),
    ("read", "continue_on_error=io", True),
    ("read", "continue_on_error=verify", False),
    ("read", "continue_on_error=all", True),
    ("read", "continue_on_error=read\nignore_error=ENOSPC", False),
    ("read", "ignore_error=EIO", True),
    ("read", "ignore_error=EIO\ncontinue_on_error=none", False),
    ("write", "continue_on_error=read", False),
    ("write", "continue_on_error=io", True),
    ("write", "continue_on_error=write\nignore_error=,ENOSPC", False),
    ("write", "continue_on_error=1\nignore_error=ENOSPC", True),
]


def coe_jobfile(dev: str) -> str:
    out = (f"[global]\nfilename={dev}\nioengine=libaio\ndirect=1\niodepth=1\nbs=4k\n"
           f"size={COE_BLOCKS * 4}k\n")
    for i, (rw, opts, _) in enumerate(COE_CASES):
        out += f"[c{i}]\nrw={rw}\noffset={i * COE_REGION * 4}k\n{opts}\n"
    return out


def coe_run(guest, dev: str, cmd: str) -> tuple[list[int], list[dict]]:
    """cmd's I/Os the device completed (block_rq_complete, failed ones too),
    by case; its jobs' JSON."""
    guest.check("rm -f /tmp/coe.json")
    evs = block_events(guest, dev, lambda: guest.run(cmd, timeout=SLOW), "C", SLOW)
    n = [0] * len(COE_CASES)
    for e in evs:
        n[e.sector // 8 // COE_REGION] += 1
    return n, json.loads(guest.check("cat /tmp/coe.json"))["jobs"]


@pytest.mark.debug
def test_continue_on_error_as_fio(guest, kiobench_module, make_nullb):
    """continue_on_error and ignore_error mean what they mean to fio 3.33
    (td_non_fatal_error()): a type goes on only with continue_on_error's
    bit (read, write, io, verify, all, 1), from its ignore_error list, else
    from EIO and EILSEQ; a list sets its type's bit, a continue_on_error
    after it sets the bits anew.  The same job file, run by fio and by
    kiobench on the same null_blk: each case's I/Os the device completed
    (block_rq_complete, not the tools' reports) are the same, and the
    expected ones (the job stops at its first bad block, or goes through
    all 40), and so is whether the job failed; the errors gone on from are
    fio's total_err and first_error.  Mutation: put_errors() back to the
    old boolean (the kernel's go-on-from-everything continue-on-error for
    any value given, the lists only when given): red
    (continue_on_error=write goes through a read job)."""
    dev = make_nullb("nullb0", size_mb=16)
    name = dev.rsplit("/", 1)[1]
    ranges = [((i * COE_REGION + COE_BAD[0]) * 8, (i * COE_REGION + COE_BAD[1]) * 8 - 1)
              for i in range(len(COE_CASES))]
    set_badblocks(guest, name, *ranges[0])
    guest.check(" && ".join(f"echo +{a}-{b} >{NULLB}/{name}/badblocks" for a, b in ranges[1:]))
    guest.check(f"cat >/tmp/coe.fio <<'EOF'\n{coe_jobfile(dev)}EOF")
    fn, fj = coe_run(guest, dev, "fio --output-format=json --output=/tmp/coe.json /tmp/coe.fio")
    kn, kj = coe_run(guest, dev, "kiobench run --allow-writes --output-format=json "
                                 "--output=/tmp/coe.json /tmp/coe.fio")
    bad = COE_BAD[1] - COE_BAD[0]
    for i, (rw, opts, goes_on) in enumerate(COE_CASES):
        f, k = fj[i], kj[i]
        case = (f"rw={rw} {opts!r}: fio {fn[i]} I/Os error {f['error']} "
                f"total_err {f.get('total_err')}, kiobench {kn[i]} I/Os error {k['error']} "
                f"total_err {k.get('total_err')}")
        assert f["jobname"] == k["jobname"] == f"c{i}", case
        # fio's error: the one that stopped the job, else the first gone on from
        assert (fn[i], f["error"]) == (COE_BLOCKS if goes_on else COE_BAD[0] + 1, 5), case
        assert (kn[i], k["error"]) == (fn[i], f["error"]), case
        assert (k["kiobench"]["state"] == "FAILED") == (not goes_on), case
        # fio's keys, there when a type is on: the errors gone on from
        assert k.get("total_err") == f.get("total_err"), case
        if goes_on:
            assert (f["total_err"], f["first_error"]) == (bad, 5), (case, f)
            assert (k["total_err"], k["first_error"]) == (bad, 5), (case, k)
