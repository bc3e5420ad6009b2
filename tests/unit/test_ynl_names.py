# SPDX-License-Identifier: GPL-2.0
"""tools/nl-names.h is what tools/gen-nl-names.py makes of the spec now, and
the programs that print names take them from it.

The header is committed; a spec change without a regeneration fails here
(run tools/gen-nl-names.py -o tools/nl-names.h).  tools/nl.c and
tests/fuzz/nlfuzz.c keep no list of attribute or command names of their own.
"""
import importlib.util
import re
import subprocess
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
GEN = REPO / "tools/gen-nl-names.py"
HEADER = REPO / "tools/nl-names.h"
SPEC = REPO / "Documentation/netlink/specs/kiobench.yaml"
USERS = [REPO / "tools/nl.c", REPO / "tests/fuzz/nlfuzz.c"]


def load_generator():
    spec = importlib.util.spec_from_file_location("gen_nl_names", GEN)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_committed_header_is_current():
    res = subprocess.run(["/usr/bin/python3", str(GEN)], capture_output=True, text=True,
                         check=True)
    assert res.stdout == HEADER.read_text(), \
        "tools/nl-names.h is stale: run tools/gen-nl-names.py -o tools/nl-names.h"


def test_a_spec_change_changes_the_header():
    """The comparison above can fail: a renamed attribute shows up."""
    gen = load_generator()
    text = SPEC.read_text().replace("name: iodepth\n", "name: queue-depth\n", 1)
    text = text.replace("bssplit, iodepth, numjobs", "bssplit, queue-depth, numjobs", 1)
    out = gen.generate(text)
    assert out != HEADER.read_text()
    assert "[KIOBENCH_A_QUEUE_DEPTH] = { \"queue-depth\", KB_NLT_U32, true, 1ULL, 4096ULL, 0 }," in out
    assert "\tKIOBENCH_A_QUEUE_DEPTH,\n" in out   # job-new's request, for nlfuzz


# Which option sets each request attribute is tools/options.c's (kb_opts[].attr)
# or tools/nl.c's (kb_nl_by_code[]): tests/unit/tool/test_nl.c checks that
# every request attribute of the header is set by one of them.


def test_header_matches_the_spec():
    """Every attribute of every full set and every command, by value."""
    spec = yaml.safe_load(SPEC.read_text())
    text = HEADER.read_text()
    for s in spec["attribute-sets"]:
        if "subset-of" in s:
            continue
        for a in s["attributes"]:
            enum = (s["name-prefix"] + a["name"]).upper().replace("-", "_")
            assert re.search(r'\[%s\] = \{ "%s", KB_NLT_%s,' % (enum, a["name"], a["type"].upper()),
                             text), enum
    for o in spec["operations"]["list"]:
        enum = (spec["operations"]["name-prefix"] + o["name"]).upper().replace("-", "_")
        assert f'[{enum}] = "{o["name"]}",' in text


@pytest.mark.parametrize("path", USERS, ids=lambda p: p.name)
def test_users_include_the_header_and_keep_no_names(path):
    src = path.read_text()
    assert re.search(r'#include "(\.\./\.\./tools/)?nl-names\.h"', src)
    # a table of names indexed or tagged by an attribute or command enum
    hand = re.findall(r'\[KIOBENCH_(?:\w+_)?(?:A|CMD)_\w+\]\s*=\s*"'
                      r'|\{\s*"[\w -]+",\s*KIOBENCH_(?:\w+_)?A_\w+', src)
    assert hand == [], f"{path.name} keeps names by hand: {hand}"


def test_the_tools_parse_policies_come_from_the_header():
    """tools/nl.c types no attribute by hand: its libnl policies are filled
    from the generated table, so a spec type change reaches them."""
    src = (REPO / "tools/nl.c").read_text()
    hand = re.findall(r"\[KIOBENCH_\w+\]\s*=\s*\{\s*\.type", src)
    assert hand == [], f"tools/nl.c types attributes by hand: {hand}"
    for table, max_ in (("kb_nl_attrs", "KIOBENCH_A_MAX"), ("kb_nl_stats_attrs",
                                                             "KIOBENCH_STAT_A_MAX")):
        assert re.search(r"fill_policy\(\w+, %s, %s\)" % (table, max_), src), table
