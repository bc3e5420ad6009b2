"""fio's ignore_error and error_dump (kmod/errors.c): a null_blk whose
first half fails (badblocks), read or written at random.  A listed error
is counted and the job goes on; an unlisted one stops it, even with
continue_on_error, as in fio; the report counts what was gone on from by
type and errno (fio's total_err, first_error), and error_dump logs each.
And verify's list: mismatches gone on from.  No compat code: on the
debug kernel (marker debug), under KASAN."""
from __future__ import annotations

import json

import pytest

from kb import run_job
from test_robust import EXIT_JOB_FAILED, set_badblocks
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
    assert kb["state"] == "DONE" and job["error"] == 0, kb
    assert kb["settings"]["ignore_error"] == "EIO" and kb["settings"]["error_dump"] is True
    assert kb["errors"]["read"] > 0 and kb["all_ios"]["read"] > 0, kb
    assert kb["errors_gone_on"] == [{"type": "read", "errno": 5, "name": "EIO",
                                     "count": kb["errors"]["read"]}], kb
    assert (kb["total_err"], kb["first_error"]) == (kb["errors"]["read"], 5)
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
    """ignore_error=,,EILSEQ: two corrupt blocks are counted as verify
    errors gone on from; the job reads every block back and ends DONE,
    verify_fatal notwithstanding.  Mutation: kb_vmismatch() not asking
    kb_err_listed() (failing the job as before): red."""
    dev = make_nullb("nullb0", size_mb=16)
    write_pass(guest, dev)
    for blk in (10, BLOCKS - 10):
        read_block(guest, dev, blk, "/tmp/b")
        guest.check("printf '\\0\\0\\0\\0' | dd of=/tmp/b bs=1 seek=0 conv=notrunc 2>/dev/null")
        write_block(guest, dev, blk, "/tmp/b")
    job = run(guest, dev, "--rw=write --verify=crc32c --verify_only=1 --verify_fatal=1 "
                          "--ignore_error=,,EILSEQ")
    kb = job["kiobench"]
    assert kb["verify"]["corrupt"] == 2 and kb["verify"]["verified"] == BLOCKS, kb["verify"]
    assert kb["errors_gone_on"] == [{"type": "verify", "errno": 84, "name": "EILSEQ",
                                     "count": 2}], kb
    assert kb["settings"]["ignore_error"] == ",,EILSEQ"
