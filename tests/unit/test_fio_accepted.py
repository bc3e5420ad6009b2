# SPDX-License-Identifier: GPL-2.0
"""Options and values fio 3.33 accepts that kiobench once refused, each now
taken with fio's meaning, or refused by name with the reason where kiobench
cannot do what fio does.  Each case shows fio's own acceptance (the host's
fio --parse-only) next to kiobench's --parse-only.

No kernel module is needed: --parse-only stops before netlink.
"""
import re
import struct
import subprocess

import pytest

from kbunit import FIO, kb, needs_fio, parsed


pytestmark = pytest.mark.usefixtures("built_tool")


def fio_parses(tmp_path, text):
    """fio --parse-only of a job file: its exit status."""
    (tmp_path / "f.fio").write_text(text)
    return subprocess.run([FIO, "--parse-only", "f.fio"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60).returncode


def kb_file(tmp_path, text):
    (tmp_path / "k.fio").write_text(text)
    return kb("run", "--parse-only", "k.fio", cwd=tmp_path)


# ---- how fio itself runs: taken, said once to change nothing at the device ------

HOST = [("thread", "thread"), ("thread", "thread=0"), ("threads", "threads=1"),
        ("io_submit_mode", "io_submit_mode=offload"),
        ("io_submit_mode", "io_submit_mode=inline"),
        ("verify_async_cpus", "verify_async_cpus=0-1")]


@pytest.mark.parametrize("name,line", HOST, ids=[line for _, line in HOST])
def test_how_fio_runs_is_taken_and_said_once(name, line, tmp_path):
    """Mutation: "thread" or "io_submit_mode" back in kb_fio_refused[]
    (fio_opts.c), or threads/verify_async_cpus out of the option table: red.
    Mutation: host_note() not called: red (the note is missing)."""
    text = f"[global]\nfilename=/dev/null\n{line}\n[a]\n[b]\n"
    if FIO:
        assert fio_parses(tmp_path, text) == 0
    p = kb_file(tmp_path, text)
    assert p.returncode == 0, p.stderr
    jobs = parsed(p.stdout)
    assert set(jobs) == {"a", "b"}
    # once per run, not per job
    note = f"kiobench: {name}: taken, it changes nothing that reaches the device: "
    assert p.stderr.count(note) == 1, p.stderr
    # and on the command line
    c = kb("run", "--parse-only", "--filename=/dev/null", f"--{line}")
    assert c.returncode == 0 and c.stderr.count(note) == 1, c.stderr


def test_no_note_without_them(tmp_path):
    p = kb_file(tmp_path, "[a]\nfilename=/dev/null\n")
    assert p.returncode == 0 and "changes nothing" not in p.stderr


def test_zone_reset_threshold_alone_is_taken_and_said(tmp_path):
    """fio takes zone_reset_threshold without zone_reset_frequency and
    resets nothing for it; kiobench says so once and resolves the job
    without it (the kernel would refuse a threshold alone), and with a
    frequency keeps it.  Mutation: inert_zone_threshold() not called: red
    (no note; the threshold printed back)."""
    text = ("[global]\nfilename=/dev/null\nzonemode=zbd\nrw=randwrite\n"
            "zone_reset_threshold=0.3\n[a]\n[b]\n")
    if FIO:
        assert fio_parses(tmp_path, text) == 0
    p = kb_file(tmp_path, text)
    assert p.returncode == 0, p.stderr
    note = ("kiobench: zone_reset_threshold: taken, it changes nothing without "
            "zone_reset_frequency, as in fio")
    assert p.stderr.count(note) == 1, p.stderr
    assert "zone_reset_threshold" not in p.stdout, p.stdout
    p = kb_file(tmp_path, text.replace("[a]", "zone_reset_frequency=0.1\n[a]"))
    assert p.returncode == 0 and "changes nothing" not in p.stderr, p.stderr
    assert p.stdout.count("zone_reset_threshold=0.3") == 2, p.stdout


@pytest.mark.parametrize("line", ["io_submit_mode=foo", "io_submit_mode=off", "thread=abc",
                                  "threads=abc"])
def test_values_fio_refuses_are_refused(line, tmp_path):
    """fio refuses these values; so does kiobench, naming the option.
    Mutation: p_host() accepting any io_submit_mode: red."""
    text = f"[a]\nfilename=/dev/null\n{line}\n"
    if FIO:
        assert fio_parses(tmp_path, text) != 0
    p = kb_file(tmp_path, text)
    name = line.split("=")[0]
    assert p.returncode == 1 and f"k.fio:3: {name}: invalid" in p.stderr, p.stderr


@needs_fio
def test_threads_is_tiobench_profiles_and_no_job_reads_it(tmp_path):
    """fio's "threads" is the tiobench profile's option (profiles/tiobench.c,
    numjobs of that profile): fio takes it in any job and the job runs as
    without it (--showcmd keeps it, the job's numjobs stays 1)."""
    text = "[a]\nfilename=/dev/null\nthreads=4\n"
    assert fio_parses(tmp_path, text) == 0
    # fio parses it as an int, but no job option of that name exists
    dbg = subprocess.run([FIO, "--parse-only", "--debug=parse", "f.fio"], cwd=tmp_path,
                         capture_output=True, text=True).stdout
    assert "__handle_option=threads, type=OPT_INT" in dbg, dbg
    assert "No such command: threads" in subprocess.run([FIO, "--cmdhelp=threads"],
                                               capture_output=True, text=True).stderr
    p = kb_file(tmp_path, text)
    assert p.returncode == 0
    assert parsed(p.stdout)["a"]["threads"] == "4" and "numjobs" not in parsed(p.stdout)["a"]


def test_refused_name_is_not_taken_for_a_longer_one():
    """getopt_long takes a prefix for the option it starts: fio's
    verify_async (refused) must not become verify_async_cpus.
    Mutation: refused_exactly() returning false: red (rc 0)."""
    for args in (["--verify_async=1"], ["--verify_async", "1"]):
        c = kb("run", "--parse-only", "--filename=/dev/null", *args)
        assert c.returncode == 1 and c.stderr.startswith(
            "kiobench: --verify_async: option 'verify_async' is refused: "), c.stderr
    # an abbreviation of an honored option still works
    c = kb("run", "--parse-only", "--filename=/dev/null", "--runt=1")
    assert c.returncode == 0 and "runtime=1000000000ns" in c.stdout, c.stderr


# ---- fio's --bandwidth-log: refused by name -------------------------------------

def test_bandwidth_log_refused_by_name():
    """fio's command-line --bandwidth-log writes agg-{read,write,trim}_bw.log
    sampled by fio's status thread over every job; kiobench has no such
    sampling.  Mutation: kb_fio_cli_refused[] empty: red (unknown option)."""
    c = kb("run", "--parse-only", "--bandwidth-log", "--filename=/dev/null")
    assert c.returncode == 1
    assert c.stderr.startswith("kiobench: --bandwidth-log: option 'bandwidth-log' is "
                               "refused: not implemented yet: fio's aggregate bandwidth "
                               "logs"), c.stderr
    # a job file does not know it (fio's is a command-line option only)
    if FIO:
        h = subprocess.run([FIO, "--help"], capture_output=True, text=True).stdout
        assert "--bandwidth-log" in h


# ---- write_*_log without a value: the job's name ---------------------------------

@pytest.mark.parametrize("name", ["write_bw_log", "write_lat_log", "write_iops_log",
                                  "write_hist_log"])
def test_log_without_a_name(name, tmp_path):
    """fio names the log after the job (make_log_name()).  The files' names
    are checked by tests/unit/tool/test_fiolog.c (t_log_no_name).
    Mutation: p_log() back to p_str(), no FLAG: red."""
    for line in (name, f"{name}="):
        text = f"[myjob]\nfilename=/dev/null\n{line}\n"
        if FIO:
            assert fio_parses(tmp_path, text) == 0
        p = kb_file(tmp_path, text)
        assert p.returncode == 0, p.stderr
        assert parsed(p.stdout)["myjob"][name] == ""
    c = kb("run", "--parse-only", "--name=j", "--filename=/dev/null", f"--{name}")
    assert c.returncode == 0 and f"{name}=\n" in c.stdout, c.stderr


# ---- random_distribution=zoned: a zone with an empty size ------------------------

def test_zoned_empty_size_shares_the_rest(tmp_path):
    """fio's split_parse_ddir(): atoi("") is 0, a zone without a size, which
    gets what the others leave of 100 (here 80).  The table itself is
    checked by tests/unit/tool/test_distrib.c.
    Mutation: distrib.c's zone_entry() refusing an empty size: red."""
    text = "[a]\nfilename=/dev/null\nrw=randread\nrandom_distribution=zoned:50/5:30/15:20/\n"
    if FIO:
        assert fio_parses(tmp_path, text) == 0
    p = kb_file(tmp_path, text)
    assert p.returncode == 0, p.stderr
    assert parsed(p.stdout)["a"]["random_distribution"] == \
        "zoned:50/5:30/15:20/80,50/5:30/15:20/80"


# ---- buffer_pattern, verify_pattern: fio's parse_and_fill_pattern() ---------------

PATTERNS = ['"abcd"-120xdeadface', '-100xab"1"', "10xab", "0xff0x14", "2147483647", "-1",
            "0xabc", "0", '"x"0x01-2']


@pytest.mark.parametrize("pattern", PATTERNS)
def test_pattern_bytes_are_fios(pattern, tmp_path):
    """The bytes kiobench fills with are those fio writes: fio's
    parse_number() reads a decimal up to the next "0x" (-120xdeadface is
    -12 then 0xdeadface), negative numbers in 4 bytes, and a hex run's last
    0 before an x starts the next number.
    Mutation: pattern_number() without the look-ahead for "0x": red.
    Mutation: pattern_number() refusing a sign (isdigit() first): red."""
    p = kb("run", "--parse-only", "--filename=/dev/null", f"--buffer_pattern={pattern}")
    assert p.returncode == 0, p.stderr
    got = parsed(p.stdout)["kiobench"]["buffer_pattern"]
    assert got.startswith("0x")
    want = bytes.fromhex(got[2:])
    v = kb("run", "--parse-only", "--filename=/dev/null", f"--verify_pattern={pattern}")
    assert v.returncode == 0 and f"verify_pattern={got}" in v.stdout, v.stderr
    if FIO:
        out = tmp_path / "b.bin"
        subprocess.run([FIO, "--name=j", f"--filename={out}", "--size=4k", "--bs=4k",
                        "--rw=write", "--ioengine=psync", f"--buffer_pattern={pattern}",
                        "--output=/dev/null"], check=True, timeout=60)
        assert out.read_bytes()[:len(want)] == want


@pytest.mark.parametrize("pattern", ["4294967295", "0x", "abc", "-"])
def test_patterns_fio_refuses_are_refused(pattern, tmp_path):
    """fio's parse_number() takes int's range only, and needs a digit."""
    text = f"[a]\nfilename=/dev/null\nbuffer_pattern={pattern}\n"
    if FIO:
        assert fio_parses(tmp_path, text) != 0
    p = kb_file(tmp_path, text)
    assert p.returncode == 1 and "invalid buffer_pattern" in p.stderr, p.stderr


# ---- verify_interval: fio's caps ---------------------------------------------------

def fio_header_lengths(tmp_path, args):
    """The interval fio wrote in its verify headers (struct verify_header's
    len, after the magic 0xacca and the type) over a 64 KiB file."""
    out = tmp_path / "v.bin"
    subprocess.run([FIO, "--name=j", f"--filename={out}", "--size=64k", "--ioengine=psync",
                    "--verify=crc32c", "--do_verify=0", "--output=/dev/null", *args],
                   check=True, timeout=60)
    d = out.read_bytes()
    return {struct.unpack("<I", d[i + 4:i + 8])[0] for i in range(0, len(d), 512)
            if d[i:i + 2] == b"\xca\xac"}


VI = [("--rw=write --bs=4k --verify_interval=16k", 4096),      # above the writes' size
      ("--rw=randrw --bs=4k,8k --verify_interval=8k", 4096),   # above the reads'
      ("--rw=write --bssplit=4k/50:6k/50 --verify_interval=64k", 2048),  # gcd(4k, 6k)
      ("--rw=write --bs=8k --verify_interval=3k", 8192)]       # no divisor: gcd(8k, 8k)


@pytest.mark.parametrize("args,want", VI, ids=[a for a, _ in VI])
def test_verify_interval_capped_as_fio(args, want, tmp_path):
    """fio's fixup_options(): verify_interval above the writes' smallest
    block size is that size (for a job that reads, above the reads' is
    theirs), and one that does not divide the writes' smallest and largest
    is their gcd; kiobench refused the first (the kernel: "must divide
    every block size").  fio's own headers show the interval it used.
    Mutation: verify_interval_fio() not called: red."""
    if FIO:
        assert fio_header_lengths(tmp_path, args.split()) == {want}
    p = kb("run", "--parse-only", "--filename=/dev/null", "--verify=crc32c", *args.split())
    assert p.returncode == 0, p.stderr
    assert parsed(p.stdout)["kiobench"]["verify_interval"] == str(want)


def test_verify_interval_left_without_verify():
    """fio caps it only for a job that verifies."""
    p = kb("run", "--parse-only", "--filename=/dev/null", "--rw=write", "--bs=4k",
           "--verify_interval=16k")
    assert p.returncode == 0 and parsed(p.stdout)["kiobench"]["verify_interval"] == "16384"


# ---- size= not a multiple of the block size ----------------------------------------

SIZES = [("read", [], 5, "20480"), ("randread", [], 4, "16384"),
         ("randread", ["--norandommap"], 5, "16384")]


@pytest.mark.parametrize("rw,extra,ios,span", SIZES, ids=["read", "randread", "norandommap"])
def test_size_not_a_block_multiple(rw, extra, ios, span, tmp_path):
    """fio with bs=4k size=20000: a sequential pass goes on until 20000
    bytes are done (5 I/Os, the last past 20000), random offsets come from
    the 4 whole blocks (and with the random map end when those are used).
    kiobench's span and bytes per pass are those (checked by
    tests/unit/tool/test_options.c, t_size_rounding, against the numbers
    here); --parse-only prints the size as given, as fio keeps it.  The
    kernel refused 20000, which --parse-only never sends: the test that
    goes red without size_fio() is t_size_rounding; this one shows fio's
    own I/O behind its numbers."""
    if FIO:
        dev = tmp_path / "dev"
        dev.write_bytes(b"\0" * (1 << 20))
        log = tmp_path / "io.log"
        subprocess.run([FIO, "--name=j", f"--filename={dev}", "--size=20000", "--bs=4k",
                        f"--rw={rw}", *extra, "--ioengine=psync", f"--write_iolog={log}",
                        "--output=/dev/null"], check=True, timeout=60)
        offs = [int(line.split()[3]) for line in log.read_text().splitlines()
                if re.search(r" read \d+ 4096$", line)]
        assert len(offs) == ios and max(offs) + 4096 <= int(span)
    p = kb("run", "--parse-only", "--filename=/dev/null", "--size=20000", "--bs=4k",
           f"--rw={rw}", *extra)
    assert p.returncode == 0, p.stderr
    assert parsed(p.stdout)["kiobench"]["size"] == "20000"


def test_size_with_several_block_sizes_refused():
    p = kb("run", "--parse-only", "--filename=/dev/null", "--size=20000", "--bs=4k,8k",
           "--rw=rw")
    assert p.returncode == 1 and "size=20000 is not a multiple of the block size" in p.stderr


# ---- bsrange with more sizes than the module's table ------------------------------

def test_bsrange_beyond_the_table_is_a_range(tmp_path):
    """fio's bsrange=512:1M draws from the 2048 multiples of 512 up to 1M
    (get_next_buflen()); the module's table holds 16 sizes a direction
    (limit-bssplit), so the job carries the range itself, which prints back
    as bsrange (the kernel draws from it: test_fio_diff.py's bsrange-wide
    case).  Mutation: bsrange_table() refusing it as before: red."""
    text = "[a]\nfilename=/dev/null\nbsrange=512:1M\n"
    if FIO:
        assert fio_parses(tmp_path, text) == 0
    p = kb_file(tmp_path, text)
    assert p.returncode == 0, p.stderr
    assert "\nbsrange=512-1048576\n" in p.stdout, p.stdout
    # within the table: taken
    p = kb_file(tmp_path, "[a]\nfilename=/dev/null\nbsrange=4k-64k\n")
    assert p.returncode == 0, p.stderr
