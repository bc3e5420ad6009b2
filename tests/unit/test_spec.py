# SPDX-License-Identifier: GPL-2.0
"""The YAML netlink spec, the uapi header and the kernel's policies agree.

The spec (Documentation/netlink/specs/kiobench.yaml) is the normative
description of the family; the header and netlink.c are written by hand, so
this test keeps them from drifting: every enum of the header matches the
spec's names and values in order, and every bound the spec states is the
bound netlink.c enforces.
"""
import re
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
HEADER = (REPO / "kmod/uapi/linux/kiobench.h").read_text()
NETLINK_C = (REPO / "kmod/netlink.c").read_text()
KIOBENCH_H = (REPO / "kmod/kiobench.h").read_text()
SPEC = yaml.safe_load((REPO / "Documentation/netlink/specs/kiobench.yaml").read_text())


def header_enum(name: str) -> list[str]:
    body = re.search(r"enum %s \{(.*?)\};" % name, HEADER, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    names = [n.strip() for n in body.split(",")]
    return [n for n in names if n and not n.startswith("__") and "=" not in n]


def c_name(prefix: str, name: str) -> str:
    return (prefix + name).upper().replace("-", "_")


def attr_set(name: str) -> dict:
    return next(s for s in SPEC["attribute-sets"] if s["name"] == name)


@pytest.mark.parametrize("set_name,enum", [
    ("kiobench", "kiobench_attr"),
    ("device", "kiobench_dev_attr"),
    ("bssplit", "kiobench_bss_attr"),
    ("stats", "kiobench_stat_attr"),
])
def test_attribute_sets_match_header(set_name, enum):
    s = attr_set(set_name)
    spec = [c_name(s["name-prefix"], a["name"]) for a in s["attributes"]]
    assert header_enum(enum) == spec


def test_operations_match_header():
    ops = SPEC["operations"]
    spec = [c_name(ops["name-prefix"], o["name"]) for o in ops["list"]]
    assert header_enum("kiobench_cmd") == spec


@pytest.mark.parametrize("enum_name,c_enum", [
    ("job-state", "kiobench_job_state"),
    ("dir", "kiobench_dir"),
])
def test_definitions_match_header(enum_name, c_enum):
    d = next(d for d in SPEC["definitions"] if d["name"] == enum_name)
    entries = [e["name"] if isinstance(e, dict) else e for e in d["entries"]]
    spec = [c_name(d["name-prefix"], e) for e in entries]
    assert header_enum(c_enum)[: len(spec)] == spec


def c_constants() -> dict[str, int]:
    """Integer values of the limits netlink.c's policies use."""
    consts = {}
    for m in re.finditer(r"#define (KB_\w+)\s+(.+)", KIOBENCH_H + NETLINK_C):
        expr = re.sub(r"/\*.*?\*/", "", m.group(2)).strip()
        expr = expr.replace("NSEC_PER_SEC", "1000000000").replace("NSEC_PER_MSEC", "1000000")
        expr = re.sub(r"(\d+)U(LL)?\b", r"\1", expr)
        expr = re.sub(r"\bKB_\w+\b", lambda k: str(consts.get(k.group(0), k.group(0))), expr)
        try:
            consts[m.group(1)] = int(eval(expr, {}))  # constants of our own header
        except (NameError, SyntaxError):
            pass
    return consts


def value(v: str | None, consts: dict[str, int]) -> int | None:
    """A bound as an integer; None for no bound (absent or the type's max)."""
    if v is None or v == "U64_MAX":
        return None
    return consts[v] if v in consts else int(v)


def policy_bounds(policy: str) -> dict[str, tuple]:
    """{attr enum: (min, max)} from a policy table of netlink.c."""
    consts = c_constants()
    ranges = {}
    for m in re.finditer(r"static struct netlink_range_validation (\w+) = \{(.*?)\};", NETLINK_C, re.S):
        lo = re.search(r"\.min = ([^,\n]+)", m.group(2))
        hi = re.search(r"\.max = ([^,\n]+)", m.group(2))
        ranges[m.group(1)] = (lo.group(1) if lo else "0", hi.group(1) if hi else None)
    body = re.search(r"%s\[.*?\] = \{(.*?)\n\};" % policy, NETLINK_C, re.S).group(1)
    out = {}
    for m in re.finditer(r"\[(\w+)\] = (NLA_POLICY_\w+)\(([^;]*?)\),?\s*(?:\n|$)", body):
        attr, kind, args = m.group(1), m.group(2), [a.strip() for a in m.group(3).split(",")]
        if kind == "NLA_POLICY_RANGE":
            lo, hi = args[1], args[2]
        elif kind == "NLA_POLICY_MAX":
            lo, hi = "0", args[1]
        elif kind == "NLA_POLICY_MIN":
            lo, hi = args[1], None
        elif kind == "NLA_POLICY_FULL_RANGE":
            lo, hi = ranges[args[1].lstrip("&")]
        else:
            continue
        out[attr] = (value(lo, consts), value(hi, consts))
    return out


@pytest.mark.parametrize("set_name,policy", [
    ("kiobench", "kb_new_policy"),
    ("bssplit", "kb_bss_entry_policy"),
    ("kiobench", "kb_id_policy"),
])
def test_spec_checks_are_the_policy(set_name, policy):
    s = attr_set(set_name)
    bounds = policy_bounds(policy)
    assert bounds, "no bounded attribute found in " + policy
    for attr, (lo, hi) in bounds.items():
        a = next(a for a in s["attributes"] if c_name(s["name-prefix"], a["name"]) == attr)
        checks = a.get("checks", {})
        assert checks.get("min", 0) == (lo or 0), attr
        assert checks.get("max") == hi, attr
