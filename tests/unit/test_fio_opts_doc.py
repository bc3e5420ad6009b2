# SPDX-License-Identifier: GPL-2.0
"""Documentation/fio-options.rst is what tools/gen-fio-opts.py makes of the
option table (tools/options.c) and the catalogue (tools/fio_opts.c) now.

The file is committed; a change of either without a regeneration fails here
(run tools/gen-fio-opts.py -o Documentation/fio-options.rst).  The
generator reads every entry of both tables, and the man page says where the
list is.
"""
import importlib.util
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GEN = REPO / "tools/gen-fio-opts.py"
DOC = REPO / "Documentation/fio-options.rst"


def load_generator():
    spec = importlib.util.spec_from_file_location("gen_fio_opts", GEN)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_committed_list_is_current():
    res = subprocess.run(["/usr/bin/python3", str(GEN)], capture_output=True, text=True,
                         check=True)
    assert res.stdout == DOC.read_text(), \
        "Documentation/fio-options.rst is stale: run tools/gen-fio-opts.py -o " \
        "Documentation/fio-options.rst"


def test_generator_reads_every_entry():
    gen = load_generator()
    src = (REPO / "tools/fio_opts.c").read_text()
    table = gen.table_of(src, "kb_fio_refused")
    # more than a few: the table was read (it shrinks as options are taken)
    assert len(gen.refused(src)) == len(re.findall(r'^\t\{ "', table, re.M)) > 50
    eng = gen.engines(src)
    assert len(eng) == len(re.findall(r'^\t\{ "', gen.table_of(src, "kb_fio_engines"),
                                      re.M))
    assert sorted(n for n, ok, _, _ in eng if ok) == sorted(
        ["libaio", "io_uring", "posixaio", "sync", "psync", "pvsync", "pvsync2"])
    assert all(len(r) > 20 for _, _, r in gen.refused(src))
    names = {n for n, _, _ in gen.honored((REPO / "tools/options.c").read_text())}
    assert {"direct", "ioengine", "bs", "rwmixwrite", "kb_base"} <= names
    assert not names & {n for n, _, _ in gen.refused(src)}


def test_a_reason_change_changes_the_list(tmp_path, monkeypatch):
    """The comparison above can fail: a changed reason shows up."""
    gen = load_generator()
    for rel in (gen.OPTIONS_C, gen.FIO_OPTS_C):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text((REPO / rel).read_text())
    monkeypatch.setattr(gen, "REPO", tmp_path)
    assert gen.generate() == DOC.read_text()
    src = tmp_path / gen.FIO_OPTS_C
    src.write_text(src.read_text().replace('{ "uid", NULL, PROCESS }',
                                           '{ "uid", NULL, FILES }'))
    assert gen.generate() != DOC.read_text()


def test_man_page_says_where_the_list_is():
    man = (REPO / "tools/kiobench.1").read_text()
    assert "Documentation/fio\\-options.rst" in man or "Documentation/fio-options.rst" in man
