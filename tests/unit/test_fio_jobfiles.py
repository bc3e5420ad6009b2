# SPDX-License-Identifier: GPL-2.0
"""fio job files run unchanged, with fio's meaning (tools/jobfile.c,
tools/fio_opts.c), checked against the installed fio (Debian's 3.33):

  - every option `fio --cmdhelp` lists, with its aliases, and every option
    of `fio --enghelp=io_uring` and `--enghelp=libaio`, is honored (in the
    option table) or refused by name with a reason, in a job file and on
    the command line; none is unknown;
  - the values kiobench --parse-only resolves from a job file are those fio
    parses from the same file (fio --parse-only --debug=parse), for
    inheritance from [global], kb_base, suffixes, times, ${VAR}, $ncpus,
    $pagesize, $mb_memory and their arithmetic, trailing comments, include;
  - command-line options and several job files combine as in fio (a run
    of fio's null engine tells its block size by its I/O count);
  - the format's errors: include cycles and depth, sections in includes,
    $(...) arithmetic, unknown options with the closest name.

No kernel module is needed: --parse-only stops before netlink.
"""
import json
import os
import re
import subprocess

import pytest

from kbunit import FIO, fio, kb, needs_fio, parsed


pytestmark = pytest.mark.usefixtures("built_tool")


# ---- the option list -----------------------------------------------------------------


def fio_option_names():
    """Every name and alias fio lists: --cmdhelp, and the io_uring and libaio
    engine options."""
    names = set()
    out = fio("--cmdhelp").stdout
    for line in out.splitlines():
        m = re.match(r"\s*(\S+)\s*:", line)
        if m:
            names.add(m.group(1))
    assert len(names) > 150, out[:500]
    for n in sorted(names):
        m = re.search(r"^\s*alias: (\S+)", fio(f"--cmdhelp={n}").stdout, re.M)
        if m:
            names.add(m.group(1))
    for eng in ("io_uring", "libaio"):
        out = fio(f"--enghelp={eng}").stdout
        eng_names = re.findall(r"^(\S+)\s*:", out, re.M)
        assert eng_names, out
        names.update(eng_names)
    return names


@pytest.fixture(scope="module")
def fio_names():
    if FIO is None:
        pytest.skip("fio is not installed: its option list cannot be walked")
    return fio_option_names()


REFUSED = re.compile(r"option '([^']+)' is refused: (\S.{10,})")


def verdict(name, tmp_path):
    """'refused', 'honored' or the message of an unknown option: a job file
    with the option, then the same on the command line."""
    (tmp_path / "o.fio").write_text(f"[a]\nfilename=/dev/null\n{name}=1\n")
    p = kb("run", "--parse-only", "o.fio", cwd=tmp_path)
    first = p.stderr.splitlines()[0] if p.stderr else ""
    if "unknown option" in p.stderr:
        return "unknown: " + first
    if "only valid on the command line" in p.stderr:  # a job file's fio name, neither
        return "unknown: " + first
    m = REFUSED.search(p.stderr)
    if m:
        assert m.group(1) == name and p.returncode == 1 and p.stdout == "", p
        assert first == f"kiobench: o.fio:3: option '{name}' is refused: {m.group(2)}"
        c = kb("run", "--parse-only", "--filename=/dev/null", f"--{name}=1")
        assert c.returncode == 1 and c.stderr.startswith(
            f"kiobench: --{name}: option '{name}' is refused: "), c.stderr
        return "refused"
    # honored: it parsed, or its value or the job was judged (1 may not be
    # a value it takes), never refused by name
    assert "is refused" not in p.stderr or f"{name}=1 is refused" in p.stderr, p.stderr
    return "honored"


@needs_fio
def test_every_fio_option_is_honored_or_refused(fio_names, tmp_path):
    verdicts = {n: verdict(n, tmp_path) for n in sorted(fio_names)}
    # unknown, or (fio's name for a kiobench command-line option) neither
    # honored nor refused in a job file
    unknown = {n: v for n, v in verdicts.items() if v.startswith("unknown")}
    assert not unknown, unknown
    honored = sorted(n for n, v in verdicts.items() if v == "honored")
    refused = sorted(n for n, v in verdicts.items() if v == "refused")
    print(f"\nfio options: {len(verdicts)}, honored {len(honored)}, refused {len(refused)}")
    assert len(honored) > 25 and len(refused) > 50  # it shrinks as options are taken


def test_unknown_option_says_so_with_the_closest_name(tmp_path):
    (tmp_path / "o.fio").write_text("[a]\nfilename=/dev/null\nrandrepat=1\nbogus_x=2\n")
    p = kb("run", "--parse-only", "o.fio", cwd=tmp_path)
    assert p.returncode == 1
    assert p.stderr == ("kiobench: o.fio:3: unknown option 'randrepat' "
                        "(did you mean 'randrepeat'?)\n")
    (tmp_path / "o.fio").write_text("[a]\nfilename=/dev/null\nbogus_x=2\n")
    p = kb("run", "--parse-only", "o.fio", cwd=tmp_path)
    assert p.stderr == "kiobench: o.fio:3: unknown option 'bogus_x'\n"


ENGINES = [("libaio", None), ("io_uring", None), ("posixaio", None),
           ("sync", 1), ("psync", 1), ("pvsync", 1), ("pvsync2", 1)]


@pytest.mark.parametrize("engine,depth", ENGINES, ids=[e for e, _ in ENGINES])
def test_block_engines_accepted(engine, depth, tmp_path):
    (tmp_path / "e.fio").write_text(f"[global]\nfilename=/dev/null\nioengine={engine}\n"
                                    "iodepth=8\ndirect=1\n[a]\n[b]\n")
    p = kb("run", "--parse-only", "e.fio", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    for job in parsed(p.stdout).values():
        assert job["ioengine"] == engine and job["direct"] == "1"
        # a synchronous engine: one I/O in flight, whatever iodepth says (fio)
        assert job["iodepth"] == str(depth or 8)
    # said once for the run, not per job
    assert f"ioengine={engine}: kiobench issues the I/O in the kernel" in p.stderr
    assert p.stderr.count("issues the I/O in the kernel") == 1
    assert ("capped at 1" in p.stderr) == bool(depth)


@pytest.mark.parametrize("engine", ["null", "net", "rbd", "mmap", "sg", "io_uring_cmd",
                                    "vsync", "nfs", "external:/x.so"])
def test_other_engines_refused_by_name(engine, tmp_path):
    (tmp_path / "e.fio").write_text(f"[a]\nfilename=/dev/null\nioengine={engine}\n")
    p = kb("run", "--parse-only", "e.fio", cwd=tmp_path)
    assert p.returncode == 1
    assert re.match(rf"kiobench: e\.fio:3: ioengine: ioengine '{re.escape(engine)}' is "
                    r"refused: \S.{10,}", p.stderr), p.stderr


@pytest.mark.parametrize("line,expect", [
    ("direct=0", "direct=0 is refused: buffered I/O"),
    ("buffered=1", "buffered=1 is refused: buffered I/O"),
    ("fixedbufs=0", "fixedbufs=0 is refused: kiobench always does it"),
])
def test_page_cache_and_mapping_refused(line, expect, tmp_path):
    (tmp_path / "e.fio").write_text(f"[a]\nfilename=/dev/null\n{line}\n")
    p = kb("run", "--parse-only", "e.fio", cwd=tmp_path)
    assert p.returncode == 1 and expect in p.stderr, p.stderr


# ---- values as fio parses them ---------------------------------------------------------

# fio's debug "out=" of these options is in bytes, a count, or (times) us
COMPARED = {"bs": 1, "size": 1, "offset": 1, "io_size": 1, "iodepth": 1, "numjobs": 1,
            "number_ios": 1, "rwmixread": 1, "runtime": 1000, "ramp_time": 1000}


def fio_values(path, section, env):
    """{option: value} fio resolves for section of path (last one wins)."""
    p = fio("--parse-only", "--debug=parse", f"--section={section}", path.name,
            cwd=path.parent, env=env)
    assert p.returncode == 0, p.stderr
    vals, cur, done = {}, None, False
    for line in p.stdout.splitlines() + p.stderr.splitlines():
        # fio parses the [global]s after the section too, for sections it skips
        m = re.search(r"Parsing section \[(\w+)\]", line)
        if m and done:
            break
        done |= bool(m) and m.group(1) == section
        m = re.search(r" handle_option=(\w+), ptr=(.*)$", line)
        if m:
            cur = m.group(1)
            vals[cur] = m.group(2)
        m = re.search(r"ret=0, out=(\d+)$", line)
        if m and cur:
            vals[cur] = int(m.group(1))
    return vals


FILES = {
    "inherit.fio": (
        "; inheritance, kb_base, suffixes\n[global]\nfilename=/dev/null\n"
        "ioengine=libaio\nbs=8k\nsize=1g\nruntime=10m\niodepth=4\n"
        "[j1]\nbs=16k\nramp_time=5\nrw=randread\n"
        "[global]\niodepth=32\n"
        "[j2]\nkb_base=1000\nbs=4KiB\nsize=2MB\nio_size=3MiB\nrw=randrw\nrwmixread=70\n"
        "[j3]\nbs=512KiB\nsize=1TiB\noffset=1m\nruntime=1h\nramp_time=1500ms\n"
        "number_ios=0x100\n"),
    "kbglobal.fio": (
        "; each [global] is parsed on its own: kb_base of the second comes too late\n"
        "; for the first's bs\n[global]\nfilename=/dev/null\nioengine=libaio\n"
        "bs=512KiB\n[global]\nkb_base=1000\nsize=1MiB\niodepth=2\n[j1]\n[j2]\nbs=4KiB\n"),
    "env.fio": (
        "[global]\nfilename=/dev/null\nioengine=io_uring\niodepth=${KB_TEST_QD}\n"
        "numjobs=$ncpus*2\n"
        "[j1]\nsize=8*$mb_memory\nbs=$pagesize\n"
        "[j2]\nbs=${KB_TEST_BS}k\nruntime=${KB_TEST_RT}\nramp_time=250us\n"
        "numjobs=($ncpus+1)*3\n"),
    "comments.fio": (
        "# trailing comments go, as fio strips them\n[global]\n"
        "filename=/dev/null ; the device\nbs=8k;no space\nsize=1g # hash\n"
        "include inc/one.fio\n"
        "[j1]\nrw=randread # hash\niodepth=2;x\n"
        "[j2]\ninclude inc/two.fio\n"),
}
INCLUDES = {"inc/one.fio": "include deeper.fio\nruntime=20 ; from an include\n",
            "inc/deeper.fio": "ramp_time=3s\n",
            "inc/two.fio": "bs=64k\nsize=2g\n"}
ENV = {"KB_TEST_QD": "16", "KB_TEST_BS": "32", "KB_TEST_RT": "90s"}


@pytest.fixture
def jobdir(tmp_path):
    for name, text in {**FILES, **INCLUDES}.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


CASES = [(f, s) for f, t in FILES.items() for s in re.findall(r"^\[(\w+)\]", t, re.M)
         if s != "global"]


@needs_fio
@pytest.mark.parametrize("name,section", CASES, ids=[f"{f}:{s}" for f, s in CASES])
def test_values_agree_with_fio(jobdir, name, section):
    env = {**os.environ, **ENV}
    want = fio_values(jobdir / name, section, env)
    p = kb("run", "--parse-only", f"--section={section}", name, cwd=jobdir, env=env)
    assert p.returncode == 0, p.stderr
    got = parsed(p.stdout)[section]
    compared = 0
    for opt, scale in COMPARED.items():
        if opt not in want:
            assert opt not in got, (opt, got)
            continue
        v = got[opt].removesuffix("ns")
        assert int(v) == want[opt] * scale, (opt, got[opt], want[opt])
        compared += 1
    if "rw" in want:
        assert got["rw"] == want["rw"]
    assert compared >= 3, (want, got)


def test_percentages_carried_to_the_device(tmp_path):
    (tmp_path / "p.fio").write_text("[a]\nfilename=/dev/null\nsize=50%\noffset=25%\n")
    p = kb("run", "--parse-only", "p.fio", cwd=tmp_path)
    assert parsed(p.stdout)["a"] == {"filename": "/dev/null", "size": "50%",
                                     "offset": "25%"}
    # a run resolves them with the device's size: /dev/null is no block device
    p = kb("run", "p.fio", cwd=tmp_path)
    assert p.returncode == 1
    assert "size=50%: /dev/null: cannot read its size" in p.stderr
    for bad in ("size=0%", "size=101%", "offset=x%"):
        (tmp_path / "p.fio").write_text(f"[a]\nfilename=/dev/null\n{bad}\n")
        p = kb("run", "--parse-only", "p.fio", cwd=tmp_path)
        assert p.returncode == 1 and "invalid percentage" in p.stderr, (bad, p.stderr)


def test_parse_only_output_is_a_job_file_of_the_same_jobs(jobdir):
    env = {**os.environ, **ENV}
    for name in FILES:
        first = kb("run", "--parse-only", name, cwd=jobdir, env=env)
        assert first.returncode == 0, first.stderr
        (jobdir / "again.fio").write_text(first.stdout)
        again = kb("run", "--parse-only", "again.fio", cwd=jobdir)
        assert again.stdout == first.stdout


# ---- command line and several files, as fio ------------------------------------------

def fio_bs(args, cwd):
    """{job: block size} of a fio run on its null engine: 1 MiB / I/O count."""
    p = fio(*args, "--output-format=json", cwd=cwd)
    assert p.returncode == 0, p.stderr
    return {j["jobname"]: (1 << 20) // j["read"]["total_ios"]
            for j in json.loads(p.stdout[p.stdout.index("{"):])["jobs"]}


@needs_fio
def test_command_line_and_several_files_as_fio(tmp_path):
    c = "[global]\nsize=1m\nbs=8k\n[j1]\nrw=read\n[j2]\nbs=64k\n"
    d = "[global]\nsize=1m\n[k1]\n"
    for eng, sub in (("null", "fio"), ("psync", "kb")):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "c.fio").write_text(c.replace("[global]\n", "[global]\nioengine="
                                                        f"{eng}\nfilename=/dev/null\n", 1))
        (tmp_path / sub / "d.fio").write_text(d.replace("[global]\n", "[global]\nioengine="
                                                        f"{eng}\nfilename=/dev/null\n", 1))
    job = ["--size=1m", "--ioengine=ENGINE", "--filename=/dev/null"]
    for args in (["--bs=16k", "c.fio"], ["--bs=16k", "d.fio"],
                 ["--bs=16k", "c.fio", "d.fio"], ["--bs=16k", "d.fio", "c.fio"],
                 ["--bs=16k", "--section=j2", "--section=k1", "c.fio", "d.fio"],
                 # --name starts a command-line job: what precedes it is global
                 ["--bs=32k", "--name=x", "--bs=16k", *job, "d.fio"],
                 ["--bs=32k", *job, "--name=x", "--name=y", "--bs=64k"]):
        want = fio_bs([a.replace("ENGINE", "null") for a in args], tmp_path / "fio")
        p = kb("run", "--parse-only", *(a.replace("ENGINE", "psync") for a in args),
               cwd=tmp_path / "kb")
        assert p.returncode == 0, p.stderr
        got = {j: int(v.get("bs", 4096)) for j, v in parsed(p.stdout).items()}
        assert got == want, args


def test_section_that_names_no_job(tmp_path):
    (tmp_path / "a.fio").write_text("[a]\nfilename=/dev/null\n")
    p = kb("run", "--parse-only", "--section=b", "a.fio", cwd=tmp_path)
    assert p.returncode == 1
    assert p.stderr == "kiobench: --section=b: no such job section in the job file\n"


# ---- the format's errors ----------------------------------------------------------------

@pytest.mark.parametrize("files,expect", [
    ({"a.fio": "[a]\ninclude b.fio\n", "b.fio": "include a.fio\n"},
     "kiobench: ./a.fio: included by itself (an include cycle)"),
    ({"a.fio": "[a]\ninclude a.fio\n"}, "kiobench: ./a.fio: included by itself"),
    ({"a.fio": "[a]\ninclude b.fio\n", "b.fio": "[b]\nbs=4k\n"},
     "kiobench: ./b.fio:1: a section in an included file (fio takes none)"),
    ({"a.fio": "[a]\ninclude nope.fio\n"},
     "kiobench: a.fio:2: include ./nope.fio: No such file or directory"),
    ({"a.fio": "[a]\nfilename=/dev/null\niodepth=$((4*2))\n"},
     "kiobench: a.fio:3: iodepth: invalid value '$((4*2))' (fio takes no $(...) "
     "arithmetic"),
    ({"a.fio": "[a]\nfilename=/dev/null\niodepth=$ncpus*\n"},
     "kiobench: a.fio:3: iodepth: invalid expression '$ncpus*'"),
    ({"a.fio": "[a]\nfilename=/dev/null\nsize=${KB_TEST_UNSET_VAR}\n"},
     "kiobench: a.fio:3: size: invalid size ''"),
    ({"a.fio": "[a]\nfilename=/dev/null\nbs=4KiB\n"},
     "with fio's kb_base=1024, its default, KiB means 1000"),
])
def test_format_errors(files, expect, tmp_path):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    p = kb("run", "--parse-only", "a.fio", cwd=tmp_path)
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr.splitlines()[0].startswith(expect) or expect in p.stderr, p.stderr


def test_include_depth_limited(tmp_path):
    (tmp_path / "a.fio").write_text("[a]\nfilename=/dev/null\ninclude i0.fio\n")
    for i in range(20):
        (tmp_path / f"i{i}.fio").write_text(f"include i{i + 1}.fio\n")
    (tmp_path / "i20.fio").write_text("bs=8k\n")
    p = kb("run", "--parse-only", "a.fio", cwd=tmp_path)
    assert p.returncode == 1 and "includes nested more than 16 deep" in p.stderr, p.stderr
    (tmp_path / "i10.fio").write_text("bs=8k\n")
    p = kb("run", "--parse-only", "a.fio", cwd=tmp_path)
    assert p.returncode == 0 and parsed(p.stdout)["a"]["bs"] == "8192", p.stderr


@pytest.mark.parametrize("cmd", [["sweep", "--iodepth=1-4"],
                                 ["precondition", "--allow-writes"],
                                 ["suite", "004", "--allow-writes"]])
def test_methods_refuse_a_synchronous_engine(cmd):
    """Their steps set their own depths, which one I/O in flight would undo."""
    p = kb(*cmd, "--filename=/dev/null", "--ioengine=psync")
    assert p.returncode == 1
    assert p.stderr.startswith("kiobench: --ioengine=psync: a synchronous engine keeps "
                               "one I/O in flight"), p.stderr


@pytest.fixture
def loop_device(tmp_path):
    """A loop device of 64 MiB + 25 sectors over a sparse file, detached after."""
    img = tmp_path / "dev.img"
    with open(img, "wb") as f:
        f.truncate((64 << 20) + 25 * 512)
    p = subprocess.run(["losetup", "-f", "--show", str(img)], capture_output=True,
                       text=True)
    if p.returncode:
        pytest.skip(f"no loop device can be attached here: {p.stderr.strip()}")
    dev = p.stdout.strip()
    yield dev, img.stat().st_size
    subprocess.run(["losetup", "-d", dev], check=True)


@needs_fio
@pytest.mark.parametrize("pct", [["--size=50%"], ["--offset=25%"],
                                 ["--offset=25%", "--size=50%"],
                                 ["--offset=25%", "--size=90%"]], ids=" ".join)
def test_percentages_of_a_device_as_fio(loop_device, pct):
    """fio's bytes read over size=N% / offset=N% of a block device are the
    span kiobench resolves from the same device's size."""
    dev, size = loop_device
    args = [f"--filename={dev}", "--bs=4k", *pct]
    p = fio("--name=a", "--rw=read", "--ioengine=psync", "--direct=1", *args,
            "--output-format=json")
    assert p.returncode == 0, p.stderr
    fio_bytes = json.loads(p.stdout)["jobs"][0]["read"]["io_bytes"]
    p = kb("run", "--parse-only", *args)
    assert p.returncode == 0, p.stderr
    job = parsed(p.stdout)["kiobench"]
    offset = int(job.get("offset", 0))
    span = int(job["size"]) if "size" in job else (size - offset) // 4096 * 4096
    assert "%" not in p.stdout and span == fio_bytes, (job, fio_bytes)
    assert offset % 4096 == 0 and offset + span <= size


@needs_fio
def test_kb_base_on_the_command_line_goes_in_order(tmp_path):
    """fio parses its command line in order: kb_base applies to what follows."""
    (tmp_path / "a.fio").write_text("[a]\nfilename=/dev/null\n")
    for args, bs in ((["--kb_base=1000", "--bs=512KiB"], 524288),
                     (["--bs=512KiB", "--kb_base=1000"], 512000)):
        p = fio("--parse-only", "--debug=parse", *args, "--name=x", "--ioengine=null",
                "--size=1m")
        assert f"handle_option=bs, ptr=512KiB" in p.stdout and f"out={bs}" in p.stdout
        p = kb("run", "--parse-only", *args, "a.fio", cwd=tmp_path)
        assert p.returncode == 0, p.stderr
        assert parsed(p.stdout)["a"]["bs"] == str(bs)


# ---- I/O priority ------------------------------------------------------------------------

def test_priority_options_parse_with_fios_pairs(tmp_path):
    """prioclass, prio and the cmdprio options are read from a job file
    (cmdprio_class defaults to 1, fio's highest class); the cmdprio options
    take fio's read,write pair, prio and prioclass do not (nor does fio),
    and cmdprio_bssplit takes one priority a direction, not with
    cmdprio_percentage (fio's rule).  Mutation:
    p_cmdprio() giving the writes the reads' value (`f[KIOBENCH_DIR_WRITE]
    = v[0];`): the pair prints as one value: red."""
    (tmp_path / "p.fio").write_text("[a]\nfilename=/dev/null\nprioclass=2\nprio=5\n"
                                    "cmdprio_percentage=30,60\ncmdprio=3\n"
                                    "cmdprio_class=1,2\n")
    p = kb("run", "--parse-only", "p.fio", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    a = parsed(p.stdout)["a"]
    assert (a["prioclass"], a["prio"], a["cmdprio_percentage"], a["cmdprio"],
            a["cmdprio_class"]) == ("2", "5", "30,60", "3", "1,2"), a
    # cmdprio_bssplit: fio's entries, the reads' and the writes' (a third value
    # ignored, as fio), an entry without a priority taking cmdprio_class/cmdprio's
    (tmp_path / "b.fio").write_text("[a]\nfilename=/dev/null\ncmdprio=3\n"
                                    "cmdprio_bssplit=4k/30:64k/120:8k/0,16k/10/3/0,1m/5\n")
    p = kb("run", "--parse-only", "b.fio", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert parsed(p.stdout)["a"]["cmdprio_bssplit"] == "4096/30/1/3:65536/100/1/3,16384/10/3/0"
    for line, expect in (("prio=1,3", "prio is one value"),
                         ("prioclass=1,2", "prioclass is one value"),
                         ("cmdprio_percentage=30,101", "must be 0..100"),
                         ("cmdprio=1,3,4", "read,write pair"),
                         ("cmdprio_bssplit=4k/50/1/1:8k/50/2/2",
                          "two priorities in a direction"),
                         ("cmdprio_bssplit=4k/50\ncmdprio_percentage=3",
                          "exclude each other")):
        (tmp_path / "e.fio").write_text(f"[a]\nfilename=/dev/null\n{line}\n")
        p = kb("run", "--parse-only", "e.fio", cwd=tmp_path)
        assert p.returncode == 1 and line.split("=")[0] in p.stderr and expect in p.stderr, \
            p.stderr


# ---- offset patterns: rw's :N, rw_sequencer, zonemode=strided ---------------------------

PATTERNS = [
    ("rw=randread:8", {"rw": "randread:8"}),
    ("rw=randrw:3\nrw_sequencer=identical", {"rw": "randrw:3", "rw_sequencer": "identical"}),
    ("rw=write:4k", {"rw": "write:4096"}),
    ("rw=read:1m\nrw=read", {"rw": "read"}),
    ("rw=randread\nblockalign=16k,16k", {"ba": "16384"}),
    ("zonemode=strided\nzonesize=64k\nzonerange=1m\nzoneskip=3m",
     {"zonemode": "strided", "zonesize": "65536", "zonerange": "1048576",
      "zoneskip": "3145728"}),
]


@needs_fio
@pytest.mark.parametrize("lines,want", PATTERNS, ids=[p[0].split("\n")[0] for p in PATTERNS])
def test_offset_patterns_parse_as_fio(lines, want, tmp_path):
    """rw's offset modifier (a count for a random rw, a size with fio's
    suffixes for a sequential one, each rw setting it anew), rw_sequencer
    and zonemode=strided's sizes: kiobench --parse-only gives them back as
    a job file that parses the same, and fio takes the same file.
    Mutation: rw_suffix() keeping a random rw's count as bytes skipped
    (`job->rw_seq_add = v;` in place of rw_seq_nr): red (rw=randread)."""
    (tmp_path / "p.fio").write_text(f"[a]\nfilename=/dev/null\n{lines}\n")
    p = kb("run", "--parse-only", "p.fio", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    a = parsed(p.stdout)["a"]
    assert {k: a.get(k) for k in want} == want, a
    (tmp_path / "again.fio").write_text(p.stdout)
    assert kb("run", "--parse-only", "again.fio", cwd=tmp_path).stdout == p.stdout
    f = fio("--parse-only", "p.fio", cwd=tmp_path)
    assert f.returncode == 0, f.stderr


REFUSED_PATTERNS = [
    ("zonesize=64k", "zonemode=none (fio's default) and zonesize", True),
    ("zonemode=strided", "zonemode=strided needs zonesize", True),
    ("zonemode=zbd\nzonerange=1m", "with zonemode=zbd", False),
    ("zonemode=block", "zonemode=block: not implemented yet", False),
    ("rw=write:-4k", "not implemented yet: a negative offset modifier", False),
    ("rw=randread:0", "a count of I/Os per drawn offset", False),
    ("rw=read:100", "multiple of 512", False),
    ("rw_sequencer=backward", "invalid rw_sequencer", True),
    ("ba=8k,16k", "not implemented yet: an alignment per direction", False),
    ("ba=100", "a multiple of 512", False),
    ("rw=randread\nbs=4k\nba=8k\nrandom_distribution=zipf:1.2",
     "ba with random_distribution zipf, pareto or normal", False),
]


@pytest.mark.parametrize("line,expect,fio_refuses", REFUSED_PATTERNS,
                         ids=[r[0].split("\n")[-1] for r in REFUSED_PATTERNS])
def test_offset_patterns_refused_with_the_reason(line, expect, fio_refuses, tmp_path):
    """What kiobench cannot do with fio's meaning is refused, with the
    reason and the option named; where fio 3.33 refuses the file too (its
    zonesize without zonemode=strided, a strided job without zonesize), it
    is checked to.  Mutation: check_strided() without its zonemode=none
    rule (zonesize alone runs, as a strided job): red."""
    (tmp_path / "e.fio").write_text(f"[a]\nfilename=/dev/null\nsize=4k\n{line}\n")
    p = kb("run", "--parse-only", "e.fio", cwd=tmp_path)
    assert p.returncode == 1 and expect in p.stderr, p.stderr
    if fio_refuses and FIO:
        # fio checks these when it sets the job up, after --parse-only
        f = fio("--output=/dev/null", "e.fio", cwd=tmp_path)
        assert f.returncode != 0, f.stderr
