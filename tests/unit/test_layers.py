# SPDX-License-Identifier: GPL-2.0
"""The shape of the code: tools/ in layers that call downward only, and no
function over 80 lines in tools/ or kmod/ (tables are not functions)."""
import re
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

from kbunit import build_tool

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"
MAX_LINES = 80


def objects():
    build_tool()
    return sorted(TOOLS.glob("*.o"))


def calls():
    """{file: {files whose functions or data it uses}} from the objects' symbols."""
    defined, used = {}, defaultdict(set)
    for o in objects():
        out = subprocess.run(["nm", str(o)], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in "TDRBC":
                defined[f[2]] = o.stem
            elif len(f) == 2 and f[0] == "U":
                used[o.stem].add(f[1])
    return {f: {defined[s] for s in syms if s in defined and defined[s] != f}
            for f, syms in used.items()}


def cycle(graph):
    """A cycle of graph as a list of files, or None."""
    state = {}

    def visit(n, path):
        state[n] = "open"
        for m in sorted(graph.get(n, ())):
            if state.get(m) == "open":
                return path[path.index(m):] + [m] if m in path else [n, m]
            if m not in state:
                c = visit(m, path + [m])
                if c:
                    return c
        state[n] = "done"
        return None

    for n in sorted(graph):
        if n not in state:
            c = visit(n, [n])
            if c:
                return c
    return None


def test_tools_call_downward_only():
    graph = calls()
    assert "main" in graph and graph["main"], "no symbols read: the check would be empty"
    c = cycle(graph)
    assert c is None, "files that call each other: " + " -> ".join(c)


def test_cycle_finder_finds_one():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) is not None
    assert cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def functions(path):
    """(name, lines) of each function of a kernel-style C file: its header
    starts in column 0 and its body is a '{' line ... '}' line."""
    lines = path.read_text().split("\n")
    start = None
    for i, line in enumerate(lines):
        if line == "{":
            start = i - 1
            while start > 0 and lines[start][:1] in ("\t", " ", ")"):
                start -= 1
        elif line == "}" and start is not None:
            name = re.search(r"(\w+)\s*\(", lines[start])
            yield (name.group(1) if name else lines[start]), i - start + 1
            start = None


SOURCES = sorted(TOOLS.glob("*.c")) + sorted((ROOT / "kmod").glob("*.c"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_long_functions(path):
    long = [f"{n} ({k} lines)" for n, k in functions(path) if k > MAX_LINES]
    assert not long, f"{path.name}: over {MAX_LINES} lines: " + ", ".join(long)


def test_function_counter_counts(tmp_path):
    src = "static int f(int a,\n\t      int b)\n{\n" + "\tx;\n" * 5 + "}\n"
    (tmp_path / "f.c").write_text(src)
    assert list(functions(tmp_path / "f.c")) == [("f", 9)]
    # every file but the suites' table has functions, and all of them are seen
    assert sum(len(list(functions(p))) for p in SOURCES) > 300


KMOD = ROOT / "kmod"


def kmod_refs(sources):
    """{file: {files whose functions it names}} of kernel-style C files: a
    call or a function pointer alike, comments and strings left out.  The
    module cannot be linked here (nm needs objects built for a kernel), so
    the graph comes from the source: each file's functions (functions()),
    then every other file's words."""
    owner = {}
    for p in sources:
        for name, _ in functions(p):
            owner.setdefault(name, p.stem)
    graph = {}
    for p in sources:
        text = re.sub(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\])*\"", " ", p.read_text(),
                      flags=re.S)
        graph[p.stem] = {owner[w] for w in set(re.findall(r"\b(kb_\w+)\b", text))
                         if owner.get(w, p.stem) != p.stem}
    return graph


def test_kmod_calls_downward_only():
    """The module's files in layers too: netlink over job, debugfs and
    stages; job over stages and gen.  The KUnit file tests job.c's insides
    and is nobody's callee: it is left out."""
    sources = [p for p in sorted(KMOD.glob("*.c")) if p.name != "kiobench_kunit.c"]
    graph = kmod_refs(sources)
    assert graph["netlink"] >= {"job", "debugfs"}, graph
    c = cycle(graph)
    assert c is None, "files that call each other: " + " -> ".join(c)


def test_kmod_graph_sees_a_circle(tmp_path):
    (tmp_path / "a.c").write_text("int kb_a(void)\n{\n\treturn kb_b(); /* kb_c() */\n}\n")
    (tmp_path / "b.c").write_text("int kb_b(void)\n{\n\treturn kb_a != 0;\n}\n")
    (tmp_path / "c.c").write_text("int kb_c(void)\n{\n\treturn 0;\n}\n")
    g = kmod_refs(sorted(tmp_path.glob("*.c")))
    assert g == {"a": {"b"}, "b": {"a"}, "c": set()}
    assert cycle(g) is not None


def doc_layers():
    """{file: row} of Documentation/kiobench.rst's table of tools/, top
    row first; a row's other files (named in its text) share its row."""
    doc = (ROOT / "Documentation/kiobench.rst").read_text()
    table = doc[doc.index("``main.c``            the table"):]
    table = table[:table.index("\n====")]
    rows, row = {}, -1
    for line in table.splitlines():
        if line.startswith("``"):
            row += 1
        for name in re.findall(r"``(\w+)\.c``", line):
            rows.setdefault(name, row)
    return rows


def test_tools_call_only_files_below_them_in_the_docs():
    rows = doc_layers()
    graph = calls()
    missing = sorted(set(graph) - set(rows))
    assert not missing, f"tools/ files not in Documentation's Source layout: {missing}"
    up = [f"{f} -> {m}" for f, used in sorted(graph.items()) for m in sorted(used)
          if rows[m] < rows[f]]
    assert not up, "calls upward in Documentation's Source layout: " + ", ".join(up)
