"""A run outlives neither its session nor its results: SIGHUP (a lost
terminal or SSH connection) stops, reports and destroys like SIGINT but
exits 129, and a closed stdout or stderr (SIGPIPE) does not keep the run
from stopping its jobs and writing --output."""
import json
import re

import pytest

RUN = "kiobench run --filename={dev} --rw=randread --runtime=60 --output-format=json"


def stopped_job(guest, path: str) -> dict:
    doc = json.loads(guest.check(f"cat {path}"))
    assert len(doc["jobs"]) == 1, doc
    job = doc["jobs"][0]
    kb = job["kiobench"]
    assert kb["state"] == "STOPPED" and job["error"] == 0, kb
    # stopped at the signal, not at the 60 s runtime, and reported whole
    assert 0 < kb["measured_ns"] < 30e9, kb["measured_ns"]
    assert job["read"]["clat_ns"]["N"] == job["read"]["total_ios"] > 0
    return job


def no_jobs_left(guest) -> None:
    assert len(guest.check("kiobench list").strip().splitlines()) == 1


@pytest.mark.budget(30)
def test_sighup_stops_reports_and_exits_129(guest, kiobench_module, make_nullb):
    dev = make_nullb("nullb0", size_mb=32)
    r = guest.run(f"timeout -s HUP 2 {RUN.format(dev=dev)} --output=/tmp/hup.json; "
                  f"echo rc=$?", timeout=60)
    assert re.findall(r"^rc=(\d+)$", r.out, re.M) == ["129"], r.out
    stopped_job(guest, "/tmp/hup.json")
    no_jobs_left(guest)


@pytest.mark.budget(30)
def test_closed_stderr_does_not_lose_the_results(guest, kiobench_module, make_nullb):
    """The reader of the tool's stdout and stderr is gone before the tool
    writes there: its "stopped by user" line meets a closed pipe (EPIPE,
    not death by SIGPIPE), and the job is still stopped, reported to
    --output and destroyed."""
    dev = make_nullb("nullb0", size_mb=32)
    script = f"""
{RUN.format(dev=dev)} --output=/tmp/pipe.json 2>&1 | true &
sleep 1
pid=$(pidof kiobench)
[ -n "$pid" ] || {{ echo "kiobench is not running"; exit 1; }}
kill -TERM $pid
for i in $(seq 100); do kill -0 $pid 2>/dev/null || exit 0; sleep 0.1; done
echo "kiobench still running"; exit 1
"""
    guest.check(script, timeout=60)
    stopped_job(guest, "/tmp/pipe.json")
    no_jobs_left(guest)
