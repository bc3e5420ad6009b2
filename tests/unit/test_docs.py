# SPDX-License-Identifier: GPL-2.0
"""The documentation lists what the tool does, and the tool does what it lists.

The option table, kb_opts[] in tools/options.c, is read from the source
(every entry of enum kb_opt_id, or the test fails).  Then:
  - each command's --help lists exactly the table's options of that command;
  - every option a --help lists acts: a value it cannot take is refused
    (exit 1) by a message that names the option, before any device or the
    kernel is touched (an option parsed into a field nobody reads would go
    through: `suite 004 --devices=banana` did);
  - the man page documents every option of the table under the commands
    that take it (RUN OPTIONS for the job options and those of every
    command), every alias, every value list of sweep, and names no option
    the table does not have;
  - the tests Documentation/threat-model.rst cites are in the files it says.
"""
import re
import subprocess

import pytest

from kbunit import REPO, TOOL

OPTIONS_C = (REPO / "tools/options.c").read_text()
OPTIONS_H = (REPO / "tools/options.h").read_text()
MAN = (REPO / "tools/kiobench.1").read_text()

COMMANDS = ("run", "sweep", "precondition", "suite", "compare", "merge")
CMD_BITS = {"KB_CMD_RUN": {"run"}, "KB_CMD_SWEEP": {"sweep"},
            "KB_CMD_PRECOND": {"precondition"}, "KB_CMD_SUITE": {"suite"},
            "KB_CMD_METHODS": {"sweep", "precondition", "suite"},
            "KB_CMD_ALL": {"run", "sweep", "precondition", "suite"},
            "KB_CMD_COMPARE": {"compare"}, "KB_CMD_MERGE": {"merge"}}


pytestmark = pytest.mark.usefixtures("built_tool")


def table() -> dict[str, dict]:
    """{name: {cmds, alias, flag, metavar, list, job}} of kb_opts[]."""
    body = re.search(r"const struct kb_opt kb_opts\[KB_NR_OPTS\] = \{(.*?)\n\};",
                     OPTIONS_C, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    out = {}
    for chunk in re.split(r"\n\t(?=JOB\(|CMD\(|\[KB_OPT_)", body):
        chunk = chunk.strip()
        if not chunk:
            continue
        if chunk.startswith(("JOB(", "CMD(")):
            args = [a.strip() for a in re.split(r",\s*", chunk[4:], maxsplit=5)]
            job = chunk.startswith("JOB(")
            name = args[1].strip('"')
            cmds = "KB_CMD_ALL" if job else args[2]
            metavar = args[2] if job else args[3]
        else:
            name = re.search(r'\.name = "([^"]+)"', chunk).group(1)
            cmds = re.search(r"\.cmds = ([^,]+),", chunk).group(1)
            metavar = re.search(r"\.metavar = ([^,]+),", chunk).group(1)
            job = "KB_SCOPE_JOB" in chunk
        alias = re.search(r'\.alias = "([^"]+)"', chunk)
        out[name] = {
            "cmds": set().union(*(CMD_BITS[c.strip()] for c in cmds.split("|"))),
            "alias": alias.group(1) if alias else None,
            "flag": bool(re.search(r"\bFLAG\b|\.flag = true", chunk)),
            "metavar": None if metavar == "NULL" else metavar.strip('"'),
            "list": ".list_var" in chunk,
            "job": job,
        }
    return out


TABLE = table()


def test_the_table_is_read_whole():
    ids = re.search(r"enum kb_opt_id \{(.*?)KB_NR_OPTS", OPTIONS_H, re.S).group(1)
    assert len(re.findall(r"\bKB_OPT_\w+,", ids)) == len(TABLE) > 40
    assert TABLE["bs"]["alias"] == "blocksize" and TABLE["time_based"]["flag"]
    assert TABLE["devices"]["cmds"] == {"sweep"} and TABLE["iodepth"]["list"]


def helped(cmd: str) -> dict[str, str | None]:
    """{option: metavar} of `kiobench CMD --help`."""
    p = subprocess.run([str(TOOL), cmd, "--help"], capture_output=True, text=True, timeout=30)
    assert p.returncode == 0 and not p.stderr, p.stderr
    opts = dict(re.findall(r"^  --([\w-]+)(?:=(\S+))?", p.stdout, re.M))
    assert "help" not in opts and re.search(r"^  -h, --help ", p.stdout, re.M), p.stdout
    return {k: v or None for k, v in opts.items()}


def canonical(name: str) -> str | None:
    """The table's name of an option spelled `name` (alias, '-' for '_')."""
    key = name.replace("-", "_")
    for n, o in TABLE.items():
        if key in (n.replace("-", "_"), (o["alias"] or "").replace("-", "_")):
            return n
    return None


@pytest.mark.parametrize("cmd", COMMANDS)
def test_help_lists_the_tables_options(cmd):
    """run lists every option it takes; sweep the command-line options and
    the value lists it sweeps (its other job options are run's, as it says);
    precondition, suite, compare and merge their command-line options."""
    want = {n for n, o in TABLE.items() if cmd in o["cmds"] and
            (cmd == "run" or not o["job"] or (cmd == "sweep" and o["list"]))}
    got = helped(cmd)
    assert set(got) == want
    if cmd == "sweep":
        assert {n for n, m in got.items() if m == "LIST"} == \
            {n for n, o in TABLE.items() if o["list"]} | {"devices"}


# What each command needs besides the option under test to get as far as
# parsing it: no device is opened, no netlink socket either.
BASE = {"run": ["--filename=/dev/null"], "sweep": ["--filename=/dev/null"],
        "precondition": ["--filename=/dev/null", "--allow-writes"],
        "suite": ["004", "--filename=/dev/null", "--allow-writes"],
        "compare": ["/nonexistent/a.json", "/nonexistent/b.json"],
        "merge": ["/nonexistent/a.json", "/nonexistent/b.json"]}


def bad_value(opt: str, metavar: str | None) -> str:
    if metavar is None:
        return "banana"  # a flag: not a boolean
    if metavar in ("FILE", "TEXT") or metavar.startswith("DEV"):
        return ""        # any name but the empty one
    if metavar == "NAME":
        return "two words"
    return "banana"


# fio's log names: any text, and none (or empty) is the job's name: no bad value
ANY_VALUE = {"write_lat_log", "write_bw_log", "write_iops_log", "write_hist_log"}


@pytest.mark.parametrize("cmd,opt", [(c, o) for c in COMMANDS for o in helped(c)])
def test_every_listed_option_acts(cmd, opt):
    metavar = helped(cmd)[opt]
    if opt in ANY_VALUE:
        for v in (f"--{opt}", f"--{opt}=", f"--{opt}=x"):
            p = subprocess.run([str(TOOL), cmd, *BASE[cmd], "--parse-only", v],
                               capture_output=True, text=True, timeout=30)
            assert p.returncode == 0 and f"{opt}=" in p.stdout, p.stderr
        return
    p = subprocess.run([str(TOOL), cmd, *BASE[cmd], f"--{opt}={bad_value(opt, metavar)}"],
                       capture_output=True, text=True, timeout=30)
    first = p.stderr.splitlines()[0] if p.stderr else ""
    assert p.returncode == 1 and re.match(rf"kiobench: --{opt}: ", first), (p.returncode,
                                                                          p.stderr)


# ---- the man page ----------------------------------------------------------------

def man_sections() -> dict[str, str]:
    """The text of the man page's sections and subsections, by title."""
    out, title = {}, ""
    for line in MAN.splitlines():
        m = re.match(r"\.S[HS] (.*)", line)
        if m:
            title = m.group(1).strip('"')
            continue
        out[title] = out.get(title, "") + line + "\n"
    return out


SECTIONS = man_sections()
# the man page's sections of each command's own options
MAN_SECTION = {"run": "RUN OPTIONS", "sweep": "sweep", "precondition": "precondition",
               "suite": "suite", "compare": "COMPARE", "merge": "MERGE"}


# RUN OPTIONS' examples of an abbreviation and of an ambiguous one
ABBREVIATIONS = {"runt", "r"}


def man_options(text: str) -> set[str]:
    """The options that text names."""
    return {o.replace("\\-", "-") for o in re.findall(r"\\-\\-((?:[a-z_]|\\-)+)", text)} \
        - ABBREVIATIONS


def all_man_options() -> set[str]:
    return man_options(MAN)


def test_man_page_names_only_options_that_exist():
    other = {"help", "version", "log", "format", "batch", "iterations"}  # kiobench's own, plot's, top's
    unknown = {o for o in all_man_options() if o not in other and canonical(o) is None}
    assert not unknown


@pytest.mark.parametrize("cmd", COMMANDS)
def test_man_page_documents_each_commands_options(cmd):
    """A command's options are described in its section, which names no
    option the command does not take; a job option, and the command-line
    options every command takes, may be described in RUN OPTIONS instead."""
    own = {canonical(o) for o in man_options(SECTIONS[MAN_SECTION[cmd]])}
    assert None not in own, man_options(SECTIONS[MAN_SECTION[cmd]])
    if cmd in CMD_BITS["KB_CMD_METHODS"]:  # their shared "Output" subsection
        own |= {canonical(o) for o in man_options(SECTIONS["Output"])}
    run = {canonical(o) for o in man_options(SECTIONS["RUN OPTIONS"])}
    want = {n for n, o in TABLE.items() if cmd in o["cmds"]}
    shared = {n for n, o in TABLE.items() if o["job"] or o["cmds"] >= CMD_BITS["KB_CMD_ALL"]}
    missing = {n for n in want if n not in own and not (n in shared and n in run)}
    assert not missing
    wrong = {n for n in own if cmd not in TABLE[n]["cmds"]}
    assert not wrong


def test_man_page_lists_every_swept_variable():
    """sweep's value lists, each as --NAME=LIST in its section."""
    text = SECTIONS["sweep"].replace("\\-", "-").replace("\\fR, \\fP", " ")
    lists = {n for n, m in helped("sweep").items() if m == "LIST"}
    documented = set(re.findall(r"--([a-z_]+)=\"? ?LIST", text))
    documented |= set(re.findall(r"--([a-z_]+)= LIST", text))
    assert lists <= documented, lists - documented


def test_man_page_documents_aliases_and_spellings():
    text = MAN.replace("\\-", "-")
    for n, o in TABLE.items():
        if o["alias"]:
            assert f"--{o['alias']}" in text, o["alias"]
    for word in ("true", "yes", "on", "false", "off", "KIOBENCH_DEBUGFS", "abbreviat"):
        assert word in text, word


# ---- Documentation/threat-model.rst -----------------------------------------------

def test_threat_model_cites_tests_where_they_are():
    """Brackets cite tests: a bare name is in tests/guest/test_robust.py,
    FILE::NAME in tests/guest/FILE."""
    text = (REPO / "Documentation/threat-model.rst").read_text()
    cited = re.findall(r"``(?:(test_\w+\.py)::)?(test_\w+)``", text)
    assert len(cited) > 20
    wrong = [f"{f}::{t}" for f, t in cited
             if not re.search(rf"^def {t}\(", (REPO / "tests/guest" / (f or "test_robust.py"))
                              .read_text(), re.M)]
    assert not wrong
