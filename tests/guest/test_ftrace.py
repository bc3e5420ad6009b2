"""What only the function tracer shows: the block layer's calls that no
tracepoint marks (tag allocation, a request_queue's free).

These run in a one-vCPU guest.  Starting the function tracer patches
kernel text live (text_poke_bp(): an int3, then the new bytes), the
sched_switch tracepoint's static branch in __schedule() among them (the
tracer records task names).  Under TCG another vCPU can still run a
translated block holding the int3 after the patch is done, which the
kernel cannot match to any patch: "Oops: int3" in __schedule(), seen
once in CI on 6.12-rt as this module's tests started the tracer in a
two-vCPU guest.  With one vCPU nothing runs beside the patching.

Debian's kernels have the function tracer; the debug kernel does not
(CONFIG_FUNCTION_TRACER off), so these are `core`, not `debug`.
"""
from __future__ import annotations

import pytest

from kb import TRACING, function_trace, nlreq, queue_attr, run_job, trace_calls
from vm.targets import NULLB, nullb

GUEST_ARGS = {"smp": 1}


@pytest.mark.core
def test_one_cpu(guest):
    """The guest these tests need.  Mutation: GUEST_ARGS without smp=1:
    red (2)."""
    assert guest.check("nproc").strip() == "1"


@pytest.mark.core   # not debug: that kernel has no function tracer
def test_requests_come_in_batches_of_tags(guest, kiobench_module, make_nullb):
    """A worker's resubmissions take their requests' tags in batches, as
    io_uring's do: null_blk's 64 tags make sbitmap words of 16, so a round
    of 32 completions is two batches (blk_mq_get_tags()).  The block layer
    sets the plug's nr_ios back to 1 after one batch; unless the worker
    arms it again, the second 16 take a tag each (blk_mq_get_tag()).  Seen
    by the function tracer over 2000 reads at QD 32: 16 single tags (the
    first round's second half), against 991 without the re-arming
    (mutation: kb_retry() not setting plug->nr_ios: red)."""
    dev = make_nullb("nullb0", size_mb=64)
    assert queue_attr(guest, dev, "nr_requests") == "64"
    assert "[none]" in queue_attr(guest, dev, "scheduler")
    with function_trace(guest, "blk_mq_get_tag", "blk_mq_get_tags") as trace:
        job = run_job(guest, f"--filename={dev} --rw=randread --iodepth=32 --number_ios=2000")
        single = trace_calls(guest, trace, "blk_mq_get_tag")
        batches = trace_calls(guest, trace, "blk_mq_get_tags")
    ios = job["read"]["total_ios"]
    assert ios == 2000
    # the tracer saw them: a round (at most 32) takes at least one batch
    assert batches >= ios // 32, (single, batches)
    assert single <= ios // 20, f"{single} of {ios} requests took a tag each ({batches} batches)"


@pytest.mark.core   # not debug: that kernel has no function tracer
def test_unused_slots_hold_nothing_of_a_removed_device(guest, kiobench_module):
    """Slots that never carried an I/O hold nothing of their device: after
    a job deeper than its I/Os (6 of its 8 slots unused) and a job
    destroyed unstarted, the removed device's request_queue is freed
    (blk_free_queue_rcu(), seen by the function tracer).  kmemleak cannot
    see this leak: the blkg that holds the queue stays reachable from its
    per-CPU statistics.  Mutation: kb_alloc_slot()'s bio_init() given the
    device, which takes a blkg reference that only an I/O's completion
    puts back: red, the queue is never freed."""
    with function_trace(guest, "blk_free_queue_rcu") as trace:
        dev = nullb(guest, "nbslots", size_mb=16)
        assert run_job(guest, f"--filename={dev} --iodepth=8 --number_ios=2")["read"][
            "total_ios"] == 2
        ack = nlreq(guest, "new", f"dev={dev}", "iodepth=8")
        assert ack.errno == 0, ack.out
        assert nlreq(guest, "del", f"job-id={ack.replies[0]['job-id']}").errno == 0
        # emptied now, not before the jobs: a device an earlier test removed
        # has long had its queue freed, and cannot stand in for this one's
        guest.check(f"echo >{trace} && echo 0 >{NULLB}/nbslots/power && rmdir {NULLB}/nbslots")
        # an RCU callback after the blkg's release work: both asynchronous
        freed = guest.run(f"for i in $(seq 150); do grep -q 'blk_free_queue_rcu <-' {trace} "
                          "&& exit 0; sleep 0.2; done; exit 1", timeout=60)
        assert freed.ok, "the removed device's request_queue was never freed"


def test_verify_checks_offer_the_cpu(guest, kiobench_module, make_nullb):
    """kb_reap() checks a whole batch of completed reads, each interval a
    checksum: the check offers the CPU (cond_resched()) after each
    interval, so a batch of large blocks never holds a kernel without
    preemption for long.  The function tracer sees __cond_resched() called
    from kb_verify_check() at least once per verified interval.  (Debian's
    6.12 runs voluntary preemption; a fully preemptible or RT kernel makes
    cond_resched() a no-op, hence 6.12 only.)  Mutation: kb_verify_check()
    without its cond_resched(): none: red."""
    dev = make_nullb("nullb0", size_mb=16)
    with function_trace(guest, "__cond_resched") as trace:
        job = run_job(guest, f"--filename={dev} --rw=write --bs=16k --size=256k --iodepth=16 "
                             "--verify=sha256 --verify_interval=4k --allow-writes")
        # stopped first: every process reading the trace calls it too
        calls = int(guest.check(f"echo 0 >{TRACING}/tracing_on && "
                                f"grep -c ' __cond_resched <-kb_verify_check' {trace} || true",
                                timeout=300))
    verified = job["kiobench"]["verify"]["verified"]
    assert verified == 64, job["kiobench"]["verify"]
    assert calls >= verified, (calls, verified)
