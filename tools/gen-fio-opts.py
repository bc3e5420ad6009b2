#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Generate Documentation/fio-options.rst from the option table
(tools/options.c) and the catalogue of fio's options kiobench refuses and of
fio's engines (tools/fio_opts.c).

Every option fio lists is one or the other; tests/unit/test_fio_jobfiles.py
checks that against the installed fio, and tests/unit/test_fio_opts_doc.py
fails when the committed file is stale.

    tools/gen-fio-opts.py [-o Documentation/fio-options.rst]	(default: stdout)
"""
import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OPTIONS_C = "tools/options.c"
FIO_OPTS_C = "tools/fio_opts.c"
OUT = "Documentation/fio-options.rst"

LITERAL = r'"(?:[^"\\]|\\.)*"'


def strings(expr: str, defines: dict[str, str]) -> str:
    """The value of C's adjacent string literals and string macros in expr."""
    out = ""
    for tok in re.findall(rf"{LITERAL}|\w+", expr):
        if tok.startswith('"'):
            out += tok[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        else:
            out += defines[tok]
    return out


def defines_of(src: str) -> dict[str, str]:
    out = {}
    for m in re.finditer(rf"^#define\s+(\w+)\s+((?:{LITERAL}|\s|\\\n|\w+)+?)\s*$", src,
                         re.M):
        if '"' in m.group(2):
            out[m.group(1)] = strings(m.group(2).replace("\\\n", " "), out)
    return out


def c_comments_out(src: str) -> str:
    return re.sub(r"/\*.*?\*/", "", src, flags=re.S)


def honored(src: str) -> list[tuple[str, str | None, str]]:
    """(name, alias, help) of every job option of the option table."""
    body = re.search(r"const struct kb_opt kb_opts\[KB_NR_OPTS\] = \{(.*?)\n\};", src,
                     re.S).group(1)
    body = c_comments_out(body)
    out = []
    for chunk in re.split(r"\n\t(?=JOB\(|CMD\(|\[KB_OPT_)", body):
        chunk = chunk.strip()
        if chunk.startswith("CMD(") or not chunk:
            continue
        if chunk.startswith("JOB("):
            m = re.match(rf"JOB\(\w+,\s*({LITERAL}),\s*(?:NULL|{LITERAL}),\s*\w+,\s*"
                         rf"((?:{LITERAL}\s*)+)", chunk)
            name, help_ = strings(m.group(1), {}), strings(m.group(2), {})
        else:
            if "KB_SCOPE_JOB" not in chunk:
                continue
            name = re.search(r'\.name = "([^"]+)"', chunk).group(1)
            help_ = strings(re.search(rf"\.help = ((?:{LITERAL}\s*)+)", chunk).group(1), {})
        alias = re.search(r'\.alias = "([^"]+)"', chunk)
        out.append((name, alias.group(1) if alias else None, help_))
    return out


def fio_cases(src: str) -> dict[str, str | None]:
    """Each job option's .fio_case (None where it has none)."""
    body = c_comments_out(re.search(r"const struct kb_opt kb_opts\[KB_NR_OPTS\] = \{(.*?)\n\};",
                                    src, re.S).group(1))
    out = {}
    for chunk in re.split(r"\n\t(?=JOB\(|CMD\(|\[KB_OPT_)", body):
        m = (re.match(rf"JOB\(\w+,\s*({LITERAL})", chunk.strip())
             or re.search(rf"\.name = ({LITERAL})", chunk))
        if not m or chunk.strip().startswith("CMD("):
            continue
        case = re.search(rf"\.fio_case = ((?:{LITERAL}\s*)+)", chunk)
        out[strings(m.group(1), {})] = strings(case.group(1), {}) if case else None
    return out


def proof(case: str | None) -> str:
    """What the option's .fio_case says, as a sentence of its entry."""
    if case is None:
        return "Not checked against fio yet."
    if case.startswith("-"):
        return f"Not compared with fio: {case[1:]}."
    if "::" in case:
        return f"Checked against fio by ``tests/guest/{case}``."
    return f"Checked against fio by case ``{case}`` (``tests/guest/fio_cases.py``)."


def no_effect(src: str) -> list[str]:
    """The job options accepted with no effect: what they ask kiobench always
    does (their parser is p_always or p_direct: the opposite value is
    refused), or their help says "no effect"."""
    names = []
    for name, parse in re.findall(rf"JOB\(\w+,\s*({LITERAL}),\s*(?:NULL|{LITERAL}),\s*(\w+),",
                                  c_comments_out(src)):
        if parse in ("p_always", "p_direct"):
            names.append(strings(name, {}))
    names += [n for n, _, h in honored(src) if "no effect" in h and n not in names]
    return names


def table_of(src: str, array: str) -> str:
    return c_comments_out(re.search(rf"{array}\[\] = \{{(.*?)\n\}};", src, re.S).group(1))


def refused(src: str) -> list[tuple[str, str | None, str]]:
    defines = defines_of(src)
    out = []
    for m in re.finditer(rf"\{{\s*({LITERAL}),\s*(NULL|{LITERAL}),\s*(.*?)\s*\}},",
                         table_of(src, "kb_fio_refused"), re.S):
        alias = None if m.group(2) == "NULL" else strings(m.group(2), {})
        out.append((strings(m.group(1), {}), alias, strings(m.group(3), defines)))
    return out


def engines(src: str) -> list[tuple[str, bool, bool, str]]:
    defines = defines_of(src)
    out = []
    for m in re.finditer(rf"\{{\s*({LITERAL}),\s*(true|false),\s*(true|false),\s*(.*?)\s*\}},",
                         table_of(src, "kb_fio_engines"), re.S):
        out.append((strings(m.group(1), {}), m.group(2) == "true", m.group(3) == "true",
                    strings(m.group(4), defines)))
    return out


def entry(name: str, alias: str | None, text: str) -> str:
    head = f"``{name}``" + (f" (``{alias}``)" if alias else "")
    return f"{head}\n    {text}\n"


def generate() -> str:
    opts = (REPO / OPTIONS_C).read_text()
    fio = (REPO / FIO_OPTS_C).read_text()
    hon, ref, eng = honored(opts), refused(fio), engines(fio)
    cases = fio_cases(opts)
    checked = [n for n, _, _ in hon if cases[n] and not cases[n].startswith("-")]
    acc = [e for e in eng if e[1]]
    out = [".. SPDX-License-Identifier: GPL-2.0",
           f".. Generated by tools/gen-fio-opts.py from {OPTIONS_C} and {FIO_OPTS_C}:",
           "   do not edit.",
           "",
           "=====================================",
           "fio's options and engines in kiobench",
           "=====================================",
           "",
           "Every option fio 3.33 lists (``fio --cmdhelp``, with its aliases, and the",
           "options of ``fio --enghelp=io_uring`` and ``--enghelp=libaio``) is either",
           "honored by kiobench, with fio's meaning (each entry says how that is",
           "checked against fio, or that it is not yet), or refused by name with the",
           "reason below: a job file or command line that names a refused option",
           "fails (``job.fio:7: option 'uid' is refused: ...``) and runs nothing.",
           "No option is ignored without a word: these are accepted and change",
           "nothing, because kiobench always does what they ask (their opposite",
           "value is refused) or has nothing for them to act on, as their entries",
           "below say: " + ", ".join(f"``{n}``" for n in no_effect(opts)) + ".",
           "",
           f"Honored: {len(hon)} job options (some of them kiobench's own), "
           f"{len(checked)} of them checked against fio;",
           f"refused: {len(ref)} fio options;",
           f"engines: {len(acc)} accepted, {len(eng) - len(acc)} refused.",
           "",
           "Honored",
           "=======",
           "",
           "The job options of kiobench's option table (``kiobench run --help``).",
           "Each entry says how it is known to mean what it means to fio: a case of",
           "``tests/guest/fio_cases.py`` or a guest test that runs the same job file",
           "under fio and under kiobench on one device and compares what the device",
           "was sent (a case also shows that without the option kiobench's stream is",
           "no longer fio's), or why it is not compared with fio.",
           "",
           ]
    out += [entry(n, a, f"{h}.  {proof(cases[n])}" if not h.endswith(".")
                  else f"{h}  {proof(cases[n])}") for n, a, h in hon]
    out += ["Refused", "=======", "",
            "\"Not implemented yet\": the option has a meaning for block I/O that",
            "kiobench does not have today.  The others have none for an in-kernel",
            "block engine.", ""]
    out += [entry(n, a, r) for n, a, r in sorted(ref)]
    out += ["Engines", "=======", "",
            "``ioengine=`` accepts fio's engines that submit block I/O; kiobench then",
            "issues that I/O itself, in the kernel, as bios from its worker threads",
            "(the run says so once).  A synchronous engine keeps fio's meaning of one",
            "I/O in flight per worker, whatever ``iodepth`` says.", ""]
    for n, ok, sync, what in eng:
        verdict = ("accepted, synchronous: " if sync else "accepted: ") if ok else "refused: "
        out.append(entry(n, None, verdict + what))
    return "\n".join(out).rstrip("\n") + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--output", help=f"file to write (e.g. {OUT}); default stdout")
    args = ap.parse_args()
    text = generate()
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
