# SPDX-License-Identifier: GPL-2.0
"""What the kernel's YNL generator makes of the spec is what we wrote by hand.

tools/net/ynl/ynl-gen-c.py of the kernel source tests/install-deps.sh
unpacks renders the spec as a uapi header (--mode uapi) and as the kernel's
policies and ops table (--mode kernel).  kiobench generates its own with
tools/gen-kmod-nl.py (kmod/uapi/linux/kiobench.h, and kmod/netlink-gen.h
that kmod/netlink.c includes, which must build against 6.1 too) and writes
the ops table by hand; this test compares them semantically with YNL's:
  - uapi: every enum, by name, with its members' names and values, and
    every #define (family name and version, constants, multicast group);
  - kernel: per command, the do and dump handlers, GENL_ADMIN_PERM and the
    request policy: per attribute the NLA type, the min/max bounds and the
    length, nested policies compared the same way, recursively.

The generator looks for the kernel tree's MAINTAINERS upwards from the spec
and validates the spec against Documentation/netlink/<protocol>.yaml, so
it runs on a copy of the spec in a kernel-tree layout in a temp dir.

Known limits of 6.12's generator, worked around here and checked elsewhere:
  - a binary attribute with a max-len check makes it fail ("binary type
    checks not implemented"): only then, such checks are dropped from the
    copy; test_spec.py compares them with netlink.c's .len;
  - a multi-attr string gets NLA_STRING, the policy of a string that may
    lack its NUL, where a spec string without unterminated-ok means
    NLA_NUL_STRING: for those attributes NLA_STRING is read as the latter;
  - --mode user cannot render a multi-attr string (devices' path) at all:
    not run.
"""
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))  # whatever pytest's import mode
from test_spec import c_int, initializers, ops_table, policy_entries, strip_comments  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SPEC_PATH = REPO / "Documentation/netlink/specs/kiobench.yaml"
KSRC = Path(os.environ.get("KIOBENCH_CACHE", "/var/cache/kiobench")) / "src/linux-source-6.12"
GEN = KSRC / "tools/net/ynl/ynl-gen-c.py"
PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable

pytestmark = [
    pytest.mark.skipif(not GEN.exists(),
                       reason=f"no {GEN}: kernel source not unpacked (tests/install-deps.sh)"),
    pytest.mark.skipif(importlib.util.find_spec("jsonschema") is None,
                       reason="python3-jsonschema not installed (tests/install-deps.sh); "
                              "ynl-gen-c.py validates the spec with it"),
]

# What the uapi header has that the spec cannot render, by hand in
# kmod/uapi/linux/kiobench-hand.h (which the header includes):
# {define: (value, why)}.
HAND_ONLY = {"KIOBENCH_NR_DIRS": ("__KIOBENCH_DIR_MAX", "the number of directions")}

TYPE_MAX = {"NLA_U8": 2**8 - 1, "NLA_U16": 2**16 - 1, "NLA_U32": 2**32 - 1,
            "NLA_U64": 2**64 - 1, "NLA_S8": 2**7 - 1, "NLA_S16": 2**15 - 1,
            "NLA_S32": 2**31 - 1, "NLA_S64": 2**63 - 1}


def run_gen(root: Path, spec: Path, mode: str, kind: str, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([PYTHON, str(GEN), "--mode", mode, f"--{kind}", "--spec", str(spec),
                           "-o", str(out)], cwd=root, capture_output=True, text=True, timeout=120)


def generate(spec_text: str, tmp: Path) -> dict[str, str]:
    """{"uapi": header, "kernel": policies and ops} generated from spec_text;
    "binary-len-dropped": whether binary max-len checks had to be dropped."""
    root = tmp / "linux"
    (root / "Documentation/netlink/specs").mkdir(parents=True)
    (root / "MAINTAINERS").touch()
    for schema in (KSRC / "Documentation/netlink").glob("*.yaml"):
        shutil.copy(schema, root / "Documentation/netlink")
    spec = root / "Documentation/netlink/specs/kiobench.yaml"
    spec.write_text(spec_text)
    out = {"binary-len-dropped": False}
    for mode, kind, name in (("uapi", "header", "kiobench.h"), ("kernel", "source", "kiobench-nl.c")):
        res = run_gen(root, spec, mode, kind, tmp / name)
        if res.returncode and "binary type checks not implemented" in res.stderr:
            spec.write_text(without_binary_max_len(spec_text))
            out["binary-len-dropped"] = True
            res = run_gen(root, spec, mode, kind, tmp / name)
        assert res.returncode == 0, f"ynl-gen-c.py --mode {mode}:\n{res.stderr}"
        out[mode] = (tmp / name).read_text()
    return out


def without_binary_max_len(spec_text: str) -> str:
    spec = yaml.safe_load(spec_text)
    for s in spec["attribute-sets"]:
        for a in s["attributes"]:
            if a.get("type") == "binary" and "max-len" in a.get("checks", {}):
                del a["checks"]["max-len"]
                if not a["checks"]:
                    del a["checks"]
    head = spec_text.splitlines()[0]  # the SPDX line the generator requires
    return head + "\n" + yaml.safe_dump(spec, sort_keys=False)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return generate(SPEC_PATH.read_text(), tmp_path_factory.mktemp("ynl"))


# ---- uapi: enums and defines ----------------------------------------------------

def c_enums(src: str) -> dict[str, list[tuple[str, int]]]:
    """{enum name: [(member, value)]} of the named enums of a header, the
    __*_MAX / *_MAX = ... bookends included."""
    src = strip_comments(src)
    out = {}
    for m in re.finditer(r"enum (\w+) \{(.*?)\};", src, re.S):
        members, val, known = [], 0, {}
        for item in (i.strip() for i in m.group(2).split(",")):
            if not item:
                continue
            name, _, expr = (x.strip() for x in item.partition("="))
            if expr:
                val = eval(re.sub(r"\b[A-Z_][A-Z0-9_]*\b", lambda k: str(known[k.group(0)]), expr))
            known[name] = val
            members.append((name, val))
            val += 1
        out[m.group(1)] = members
    return out


def c_defines(src: str) -> dict[str, str]:
    return {m.group(1): m.group(2).strip()
            for m in re.finditer(r"^#define (KIOBENCH_\w+)[ \t]+(.+)$", strip_comments(src), re.M)}


def check_uapi(gen: str, hand: str) -> list[str]:
    """What differs between the generated and the hand-written uapi header."""
    errs = []
    ge, he = c_enums(gen), c_enums(hand)
    if anon := re.findall(r"enum \{", gen):
        errs.append(f"{len(anon)} unnamed enums generated: give their sets an enum-name")
    for name in sorted(set(ge) | set(he)):
        if name not in he or name not in ge:
            errs.append(f"enum {name}: only in the {'generated' if name in ge else 'hand'} header")
            continue
        if he[name] != ge[name]:
            errs.append(f"enum {name}: hand {he[name]} != generated {ge[name]}")
    if c_defines(gen) != c_defines(hand):
        errs.append(f"defines: hand {c_defines(hand)} != generated {c_defines(gen)}")
    return errs


def test_uapi_header_is_the_generated_one(generated):
    hand = (REPO / "kmod/uapi/linux/kiobench.h").read_text()
    assert check_uapi(generated["uapi"], hand) == []


def test_hand_only_names_keep_their_values(generated):
    """KIOBENCH_NR_DIRS, which the spec cannot name, is the number of
    directions YNL renders (render-max), and the header includes it."""
    hand = (REPO / "kmod/uapi/linux/kiobench-hand.h").read_text()
    assert '#include "kiobench-hand.h"' in (REPO / "kmod/uapi/linux/kiobench.h").read_text()
    assert c_defines(hand) == {k: v for k, (v, _) in HAND_ONLY.items()}
    values = dict(c_enums(generated["uapi"])["kiobench_dir"])
    dirs = yaml.safe_load(SPEC_PATH.read_text())
    dirs = next(d for d in dirs["definitions"] if d["name"] == "dir")["entries"]
    assert values["__KIOBENCH_DIR_MAX"] == len(dirs) == 4


# ---- kernel: ops and policies ---------------------------------------------------------

def ranges(src: str) -> dict[str, tuple[int | None, int | None]]:
    out = {}
    for name, body in initializers(src, "netlink_range_validation").items():
        lo = re.search(r"\.min\s*=\s*([^,\n]+)", body)
        hi = re.search(r"\.max\s*=\s*([^,\n]+)", body)
        out[name] = (value(lo.group(1)) if lo else None, value(hi.group(1)) if hi else None)
    return out


def value(expr: str) -> int:
    expr = expr.strip()
    if expr in ("U64_MAX", "U32_MAX", "U16_MAX", "U8_MAX"):
        return 2 ** int(expr[1:-4]) - 1
    return c_int(re.sub(r"(\d+)U?L?L?\b", r"\1", expr))


def normal(expr: str, src: str, policies: dict, rng: dict, fix) -> dict:
    """One policy entry as {type, min, max, len, nested}; no bound: None."""
    out = {"type": None, "min": None, "max": None, "len": None, "nested": None}
    if expr.startswith("{"):
        for k, v in re.findall(r"\.(\w+)\s*=\s*([^,}]+)", expr):
            out[k] = v.strip() if k == "type" else value(v)
    else:
        kind, args = re.match(r"(NLA_POLICY_\w+)\((.*)\)$", expr).groups()
        args = [a.strip() for a in args.split(",")]
        if kind in ("NLA_POLICY_NESTED", "NLA_POLICY_NESTED_ARRAY"):
            out["type"] = "NLA_NESTED" if kind == "NLA_POLICY_NESTED" else "NLA_NESTED_ARRAY"
            out["nested"] = policy(args[0], src, policies, rng, fix)
        else:
            out["type"] = args[0]
            if kind == "NLA_POLICY_RANGE":
                out["min"], out["max"] = value(args[1]), value(args[2])
            elif kind == "NLA_POLICY_MIN":
                out["min"] = value(args[1])
            elif kind == "NLA_POLICY_MAX":
                out["max"] = value(args[1])
            elif kind == "NLA_POLICY_FULL_RANGE":
                out["min"], out["max"] = rng[args[1].lstrip("&")]
            else:
                raise AssertionError(f"policy form not known to the test: {expr}")
    if out["min"] == 0:
        out["min"] = None
    if out["max"] is not None and out["max"] == TYPE_MAX.get(out["type"]):
        out["max"] = None
    return out


def policy(name: str, src: str, policies: dict, rng: dict, fix) -> dict:
    return {attr: fix(attr, normal(e, src, policies, rng, fix))
            for attr, e in policies[name].items()}


def spec_attrs() -> dict[str, dict]:
    """{C enum name: attribute} of every full set of the spec."""
    spec = yaml.safe_load(SPEC_PATH.read_text())
    return {(s["name-prefix"] + a["name"]).upper().replace("-", "_"): a
            for s in spec["attribute-sets"] if "subset-of" not in s for a in s["attributes"]}


def as_hand(attr: str, entry: dict, binary_len_dropped: bool) -> dict:
    """A generated entry, 6.12's limits (see above) undone from the spec."""
    a = spec_attrs()[attr]
    if (a["type"] == "string" and a.get("multi-attr") and entry["type"] == "NLA_STRING"
            and not a.get("checks", {}).get("unterminated-ok")):
        entry = {**entry, "type": "NLA_NUL_STRING"}
    if binary_len_dropped and a["type"] == "binary" and entry["len"] is None:
        entry = {**entry, "len": a.get("checks", {}).get("max-len")}
    return entry


def ops(src: str, table: str, fix) -> dict[tuple[str, str], dict]:
    """{(command, "do"|"dump"): {admin, policy}} of an ops table of src."""
    src = strip_comments(src)
    pols = {n: policy_entries(b) for n, b in initializers(src, "nla_policy").items()}
    rng = ranges(src)
    out = {}
    for o in ops_table(src, table):
        for field, kind in (("doit", "do"), ("dumpit", "dump")):
            if field not in o:
                continue
            assert (o["cmd"], kind) not in out, f"{o['cmd']} {kind} twice"
            out[(o["cmd"], kind)] = {
                "admin": "GENL_ADMIN_PERM" in o.get("flags", ""),
                "policy": policy(o["policy"], src, pols, rng, fix) if "policy" in o else None,
                "shared": "doit" in o and "dumpit" in o,  # a legacy genl_ops entry
            }
    return out


def check_kernel(gen: str, hand: str, binary_len_dropped: bool) -> list[str]:
    g = ops(gen, "kiobench_nl_ops", lambda a, e: as_hand(a, e, binary_len_dropped))
    h = ops(hand, "kb_ops", lambda a, e: e)
    errs = []
    if set(g) != set(h):
        errs.append(f"handlers: generated {sorted(g)} != netlink.c {sorted(h)}")
    for key in sorted(set(g) & set(h)):
        gp, hp = g[key]["policy"], h[key]["policy"]
        if g[key]["admin"] != h[key]["admin"]:
            errs.append(f"{key}: GENL_ADMIN_PERM differs")
        # A legacy entry with doit and dumpit validates the dump with the do
        # policy; the spec's dump takes no attribute and kb_nl_job_dump reads
        # none (test_spec.py): compare the policy of the do only.
        if key[1] == "dump" and h[key]["shared"] and gp is None:
            continue
        errs += [f"{key[0]} {key[1]}: {d}" for d in policy_diff(gp, hp, "")]
    return errs


def policy_diff(gen: dict | None, hand: dict | None, path: str) -> list[str]:
    """Differences, attribute by attribute, nests followed."""
    if gen is None or hand is None:
        return [] if gen is hand else [f"{path or 'policy'}: generated {gen}, netlink.c {hand}"]
    out = []
    for attr in sorted(set(gen) | set(hand)):
        g, h = gen.get(attr), hand.get(attr)
        if g is None or h is None:
            out.append(f"{path}{attr}: only in {'the generated policy' if h is None else 'netlink.c'}")
            continue
        for k in ("type", "min", "max", "len"):
            if g[k] != h[k]:
                out.append(f"{path}{attr}: {k} generated {g[k]}, netlink.c {h[k]}")
        out += policy_diff(g["nested"], h["nested"], f"{path}{attr}/")
    return out


def netlink_c() -> str:
    """netlink.c and the policies it includes (tools/gen-kmod-nl.py)."""
    return (REPO / "kmod/netlink.c").read_text() + (REPO / "kmod/netlink-gen.h").read_text()


def test_kernel_policies_are_the_generated_ones(generated):
    hand = netlink_c()
    assert check_kernel(generated["kernel"], hand, generated["binary-len-dropped"]) == []


def test_multicast_groups(generated):
    gen = re.findall(r'\[\w+\] = \{ "(\w+)", \}', generated["kernel"])
    hand = c_defines((REPO / "kmod/uapi/linux/kiobench.h").read_text())
    assert gen == ["events"] and hand["KIOBENCH_MCGRP_EVENTS"] == '"events"'
    assert "KIOBENCH_MCGRP_EVENTS" in (REPO / "kmod/netlink.c").read_text()


# ---- the comparison can fail ---------------------------------------------------------------

def test_a_changed_spec_is_caught(tmp_path):
    """A spec with one bound, one enum value and one request attribute
    changed: each shows up as a difference."""
    text = SPEC_PATH.read_text()
    text = text.replace("          min: 1\n          max: 4096", "          min: 1\n          max: 4095", 1)
    text = text.replace("        name: new\n        doc:", "        name: new\n        value: 1\n        doc:", 1)
    text = text.replace("attributes: [job-name, devices, random,", "attributes: [job-name, devices,", 1)
    assert text != SPEC_PATH.read_text()
    gen = generate(text, tmp_path)
    uapi = check_uapi(gen["uapi"], (REPO / "kmod/uapi/linux/kiobench.h").read_text())
    kernel = check_kernel(gen["kernel"], netlink_c(),
                          gen["binary-len-dropped"])
    assert any("kiobench_job_state" in e for e in uapi), uapi
    assert "KIOBENCH_CMD_JOB_NEW do: KIOBENCH_A_IODEPTH: max generated 4095, netlink.c 4096" \
        in kernel, kernel
    assert "KIOBENCH_CMD_JOB_NEW do: KIOBENCH_A_RANDOM: only in netlink.c" in kernel, kernel
    assert len(kernel) == 2, kernel
