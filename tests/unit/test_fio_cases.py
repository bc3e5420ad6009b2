# SPDX-License-Identifier: GPL-2.0
"""Every honored fio option is checked against fio, or says why it cannot be.

The option table (tools/options.c) gives each job option a ``.fio_case``:
a case of tests/guest/fio_cases.py, a guest test that runs fio beside
kiobench, or "-" and the reason it is not compared with fio.  This
holds the table to what it names:

  - an option fio lists has a .fio_case, unless it is one of NOT_YET, the
    options still to be checked, which Documentation/fio-options.rst lists
    as such (the list must shrink: an option given a case must leave it);
  - an option fio does not list says what it is (kiobench's own, or fio's
    but not in this fio's build's list);
  - a case exists, sets the option, and drops it in turn (``proves``), so
    that test_fio_diff.py shows kiobench's stream without it is not fio's;
  - a guest test exists, runs fio (itself or through a function of its
    module), and its module names the option.
"""
import ast
import importlib.util
import re
import sys

import pytest

from kbunit import REPO
from test_fio_jobfiles import fio_names  # noqa: F401  (a fixture)

sys.path.insert(0, str(REPO / "tests" / "guest"))
from fio_cases import BY_ID  # noqa: E402

OWN = "-kiobench's own"

# fio options honored without a differential check yet (none today).
NOT_YET: set[str] = set()


def _gen():
    spec = importlib.util.spec_from_file_location("gen_fio_opts",
                                                  REPO / "tools" / "gen-fio-opts.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


GEN = _gen()
SRC = (REPO / "tools" / "options.c").read_text()
HONORED = {n: a for n, a, _ in GEN.honored(SRC)}
CASES = GEN.fio_cases(SRC)


def is_fios(name, fio_names):  # noqa: F811
    return name in fio_names or (HONORED[name] or "") in fio_names


def test_every_fio_option_is_checked_or_says_why(fio_names):  # noqa: F811
    """Mutation: a case id dropped from an option: red (it is not NOT_YET);
    an option added to NOT_YET that has a case: red."""
    missing = sorted(n for n in HONORED if is_fios(n, fio_names) and not CASES[n]
                     and n not in NOT_YET)
    assert not missing, f"fio options honored with no .fio_case: {missing}"
    stale = sorted(n for n in NOT_YET if n not in HONORED or CASES[n])
    assert not stale, f"NOT_YET names options that have a case (or are gone): {stale}"
    own = sorted(n for n in HONORED if not is_fios(n, fio_names) and not CASES[n])
    assert not own, f"kiobench's own options not marked {OWN!r}: {own}"
    wrong = sorted(n for n in HONORED if is_fios(n, fio_names)
                   and (CASES[n] or "").startswith(OWN))
    assert not wrong, f"fio options marked kiobench's own: {wrong}"


def test_every_case_named_proves_the_option():
    """Mutation: rwmixwrite's case named as "seq-window" (which does not
    set it): red."""
    bad = []
    for name, case in CASES.items():
        if not case or case.startswith("-") or "::" in case:
            continue
        c = BY_ID.get(case)
        if c is None:
            bad.append(f"{name}: no case {case!r} in fio_cases.py")
        elif name not in c.proves:
            bad.append(f"{name}: case {case!r} does not drop it (proves {c.proves})")
    assert not bad, "\n".join(bad)


def _runs_fio(tree: ast.Module, src: str, fn: ast.FunctionDef, depth: int = 2) -> bool:
    """fn, or a function it calls, of its module or imported from another
    guest test module (test_fio_numa.py's from test_fio_diff.py), down to
    `depth` calls, starts fio."""
    starts = re.compile(r"""["' ]fio --|f?["']fio """)
    doc = ast.get_docstring(fn)
    text = ast.get_source_segment(src, fn)
    text = text.replace(doc, "") if doc else text
    if starts.search(text):
        return True
    if not depth:
        return False
    called = set(re.findall(r"\b(\w+)\(", text))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in called and \
                _runs_fio(tree, src, node, depth - 1):
            return True
        path = REPO / "tests" / "guest" / f"{getattr(node, 'module', None)}.py"
        if not isinstance(node, ast.ImportFrom) or not path.exists():
            continue
        other = path.read_text()
        otree = ast.parse(other)
        for f in otree.body:
            if isinstance(f, ast.FunctionDef) and f.name in called and \
                    f.name in {a.name for a in node.names} and \
                    _runs_fio(otree, other, f, depth - 1):
                return True
    return False


def test_every_guest_test_named_runs_fio_and_the_option():
    """Mutation: a test that runs kiobench alone named (e.g.
    test_prio.py::test_cmdprio_share_reaches_the_block_layer): red."""
    bad = []
    for name, case in CASES.items():
        if not case or "::" not in case:
            continue
        file, func = case.split("::")
        path = REPO / "tests" / "guest" / file
        if not path.exists():
            bad.append(f"{name}: no {file}")
            continue
        src = path.read_text()
        tree = ast.parse(src)
        fn = next((f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == func),
                  None)
        if fn is None:
            bad.append(f"{name}: no {case}")
        elif not _runs_fio(tree, src, fn):
            bad.append(f"{name}: {case} does not run fio")
        elif not any(re.search(rf"(?<![\w-]){re.escape(n)}\b(?:=|\\n|\s|$)", src)
                     for n in (name, HONORED[name]) if n):
            bad.append(f"{name}: {file} never names it")
    assert not bad, "\n".join(bad)


def test_reasons_are_given():
    bad = [n for n, c in CASES.items() if c is not None and c.startswith("-")
           and len(c) < 20]
    assert not bad, f"options whose reason says nothing: {bad}"


@pytest.mark.parametrize("case", sorted(BY_ID))
def test_each_case_proves_what_it_sets(case):
    c = BY_ID[case]
    assert c.proves and set(c.proves) <= c.names(), (c.proves, c.names())
