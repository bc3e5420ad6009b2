# SPDX-License-Identifier: GPL-2.0
"""The YAML netlink spec, the uapi header and the kernel's code agree.

The spec (Documentation/netlink/specs/kiobench.yaml) is the normative
description of the family; tools/gen-kmod-nl.py generates the header and
netlink.c's policies from it, and the rest of netlink.c is written by hand,
so this test keeps them from drifting:
  - every enum of the header matches the spec's names and values in order,
    and the type each attribute's comment names is the spec's;
  - per operation, the attributes the spec lists for the request are the
    ones the op's policy in netlink.c takes (nests followed down), and the
    ones it lists for the reply (or the event) are the ones the reply
    (event) builder of netlink.c puts, nests included;
  - the per-command attribute lists of the header's opening comment are
    the spec's;
  - every bound and length the spec states is the one netlink.c enforces,
    and the other way round: every policy range and every bound its
    handlers check by hand (the extack messages that name an attribute)
    is stated in the spec.
tests/unit/test_ynl_gen.py compares further with the kernel's own YNL
generator.  The C is parsed with regular expressions: a construct they do
not know fails the test (fix the parser), it is never skipped.
"""
import re
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
HEADER = (REPO / "kmod/uapi/linux/kiobench.h").read_text()
# netlink.c with the policies and the settings table it includes (generated
# by tools/gen-kmod-nl.py: tests/unit/test_kmod_nl_gen.py)
NETLINK_GEN = (REPO / "kmod/netlink-gen.h").read_text()
# and errors.c, whose kb_put_errors() puts the error lists and counts
NETLINK_C = (REPO / "kmod/netlink.c").read_text() + "\n" + NETLINK_GEN + "\n" + \
    (REPO / "kmod/errors.c").read_text()
KIOBENCH_H = (REPO / "kmod/kiobench.h").read_text()
SPEC = yaml.safe_load((REPO / "Documentation/netlink/specs/kiobench.yaml").read_text())


def header_enum(name: str) -> list[str]:
    body = re.search(r"enum %s \{(.*?)\};" % name, HEADER, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    names = [n.strip() for n in body.split(",")]
    return [n for n in names if n and not n.startswith("__") and "=" not in n]


def c_name(prefix: str, name: str) -> str:
    return (prefix + name).upper().replace("-", "_")


def definition(name: str) -> dict:
    return next(d for d in SPEC["definitions"] if d["name"] == name)


def attr_set(name: str) -> dict:
    return next(s for s in SPEC["attribute-sets"] if s["name"] == name)


def full_set(name: str) -> dict:
    """The set that defines the attributes of `name` (itself or its subset-of)."""
    s = attr_set(name)
    return attr_set(s["subset-of"]) if "subset-of" in s else s


def set_attrs(name: str) -> dict[str, dict]:
    """{C enum name: full attribute definition} of a set, subsets resolved."""
    s, full = attr_set(name), full_set(name)
    defs = {a["name"]: a for a in full["attributes"]}
    return {c_name(full["name-prefix"], a["name"]): defs[a["name"]] for a in s["attributes"]
            if defs[a["name"]]["type"] not in ("unused", "pad")}


def op(name: str) -> dict:
    return next(o for o in SPEC["operations"]["list"] if o["name"] == name)


def op_c_name(o: dict) -> str:
    return c_name(SPEC["operations"]["name-prefix"], o["name"])


def spec_attrs(o: dict, kind: str, part: str) -> set[str]:
    """C names of the attributes operation `o` lists in o[kind][part]."""
    names = o.get(kind, {}).get(part, {}).get("attributes", [])
    s = full_set(o["attribute-set"])
    return {c_name(s["name-prefix"], n) for n in names}


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
    assert all(a.get("value", i) == i for i, a in enumerate(s["attributes"])), set_name


def test_every_set_is_in_the_header():
    """A new full attribute set needs its enum in the header (and above)."""
    full = {s["enum-name"] for s in SPEC["attribute-sets"] if "subset-of" not in s}
    assert full == {"kiobench-attr", "kiobench-dev-attr", "kiobench-bss-attr",
                    "kiobench-zone-attr", "kiobench-stat-attr"}


def test_header_comments_name_the_spec_types():
    """`KIOBENCH_A_X, /* u32: ... */`: the type in the comment is the spec's."""
    seen = 0
    for s in SPEC["attribute-sets"]:
        if "subset-of" in s:
            continue
        for a in s["attributes"]:
            name = c_name(s["name-prefix"], a["name"])
            m = re.search(r"^\s*%s,\s*/\*\s*(\w+)" % name, HEADER, re.M)
            if a["type"] in ("unused", "pad"):
                continue
            assert m, f"{name}: no type comment in the header"
            assert m.group(1) == a["type"], name
            seen += 1
    assert seen > 50


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


# ---- C parsing -----------------------------------------------------------------

def strip_comments(src: str) -> str:
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", " ", src, flags=re.S))


def balanced(src: str, start: int, open_: str = "(", close: str = ")") -> int:
    """Index just after the bracket matching the one at src[start]."""
    depth = 0
    for i in range(start, len(src)):
        depth += {open_: 1, close: -1}.get(src[i], 0)
        if depth == 0:
            return i + 1
    raise ValueError("unbalanced " + open_)


def functions(src: str) -> dict[str, str]:
    """{name: body} of the functions defined in src."""
    src = strip_comments(src)
    out = {}
    for m in re.finditer(r"^[a-zA-Z][\w \*]*?\b(\w+)\(([^;{]*?)\)\s*\n\{", src, re.M | re.S):
        out[m.group(1)] = src[m.end() - 1:balanced(src, m.end() - 1, "{", "}")]
    return out


def calls(body: str) -> list[tuple[str, list[str]]]:
    """(function, [arguments]) of every call in body, outer calls first."""
    out = []
    for m in re.finditer(r"\b(\w+)\s*\(", body):
        if m.group(1) in ("if", "for", "while", "switch", "return", "sizeof"):
            continue
        end = balanced(body, m.end() - 1)
        args, depth, cur = [], 0, ""
        for ch in body[m.end():end - 1]:
            if ch == "," and depth == 0:
                args.append(cur.strip())
                cur = ""
                continue
            depth += {"(": 1, ")": -1}.get(ch, 0)
            cur += ch
        args.append(cur.strip())
        out.append((m.group(1), args))
    return out


FUNCS = functions(NETLINK_C)


def initializers(src: str, kind: str) -> dict[str, str]:
    """{name: initializer body} of the `struct kind NAME[...] = {...};` of src."""
    src = strip_comments(src)
    out = {}
    for m in re.finditer(r"struct %s (\w+)(\[[^\]]*\])?\s*=\s*\{" % kind, src):
        out[m.group(1)] = src[m.end():balanced(src, m.end() - 1, "{", "}") - 1]
    return out


def policy_entries(body: str) -> dict[str, str]:
    """{attribute: its policy expression} of a policy table body."""
    out = {}
    for m in re.finditer(r"\[(\w+)\]\s*=\s*", body):
        i = m.end()
        if body[i] == "{":
            end = balanced(body, i, "{", "}")
        else:
            end = balanced(body, body.index("(", i))
        out[m.group(1)] = re.sub(r"\s+", " ", body[i:end])
    return out


def ops_table(src: str, name: str) -> list[dict[str, str]]:
    """The entries of a genl_ops / genl_split_ops array: [{field: value}]."""
    body = initializers(src, "genl_ops")
    body.update(initializers(src, "genl_split_ops"))
    out = []
    for m in re.finditer(r"\{(.*?)\}", body[name], re.S):
        out.append({k: v.strip() for k, v in re.findall(r"\.(\w+)\s*=\s*([^,\n]+)", m.group(1))})
    return out


KB_OPS = {o["cmd"]: o for o in ops_table(NETLINK_C, "kb_ops")}
POLICIES = {n: policy_entries(b) for n, b in initializers(NETLINK_C, "nla_policy").items()}


def nested_policy(expr: str) -> str | None:
    m = re.match(r"NLA_POLICY_NESTED(?:_ARRAY)?\((\w+)\)", expr)
    return m.group(1) if m else None


# ---- requests: the spec's attributes are the policy's ----------------------------

def check_policy_is_set(policy: str, set_name: str, path: str) -> None:
    """The policy takes exactly the attributes of the set, nests followed."""
    entries = POLICIES[policy]
    spec = set_attrs(set_name)
    assert set(entries) == set(spec), f"{path}: policy {policy} vs spec set {set_name}"
    for attr, expr in entries.items():
        a = spec[attr]
        if a["type"] == "nest":
            assert nested_policy(expr), f"{path}/{attr}: a nest in the spec, {expr} in the policy"
            check_policy_is_set(nested_policy(expr), a["nested-attributes"], f"{path}/{attr}")
        else:
            assert not nested_policy(expr), f"{path}/{attr}: nested in the policy only"


def test_every_op_is_in_the_ops_table():
    spec = {op_c_name(o) for o in SPEC["operations"]["list"]
            if "do" in o or "dump" in o}
    assert set(KB_OPS) == spec


@pytest.mark.parametrize("name", [o["name"] for o in SPEC["operations"]["list"]
                                  if "do" in o or "dump" in o])
def test_request_attributes_are_the_policy(name):
    o = op(name)
    kb = KB_OPS[op_c_name(o)]
    assert ("doit" in kb) == ("do" in o) and ("dumpit" in kb) == ("dump" in o), name
    if "do" in o:
        want = spec_attrs(o, "do", "request")
        if "policy" not in kb:
            assert not want, f"{name}: the spec lists a request, the op has no policy"
            return
        assert set(POLICIES[kb["policy"]]) == want, name
        # nests: down to the leaves
        for attr, expr in POLICIES[kb["policy"]].items():
            a = set_attrs(o["attribute-set"])[attr]
            if a["type"] == "nest":
                check_policy_is_set(nested_policy(expr), a["nested-attributes"], attr)
    # A legacy genl_ops entry also validates its dump with the do policy;
    # kb_nl_job_dump reads no attribute, as the spec's dump takes none.
    if "dump" in o:
        assert not spec_attrs(o, "dump", "request"), name
        assert not re.search(r"\battrs\[|nla_parse", FUNCS[kb["dumpit"]]), name


# ---- replies and events: the spec's attributes are the ones put -------------------

def drop_other_cmds(body: str, cmd: str | None) -> str:
    """body without the `if (cmd != X) {...}` / `if (cmd == X) ...` branches
    that are not taken when the builder is called for cmd."""
    out, pos = "", 0
    for m in re.finditer(r"if \(cmd (!=|==) (KIOBENCH_CMD_\w+)\)\s*", body):
        if m.start() < pos:
            continue
        end = (balanced(body, m.end(), "{", "}") if body[m.end()] == "{"
               else body.index(";", m.end()) + 1)
        taken = (cmd == m.group(2)) == (m.group(1) == "==")
        out += body[pos:m.start()] + (body[m.end():end] if taken else "")
        pos = end
    return out + body[pos:]


# The plain settings of kb_scalars, which a loop puts: {attribute}.
SCALARS = set(re.findall(r"^\tKB_SCALAR\((\w+),", NETLINK_GEN, re.M))


def puts(fn: str, cmd: str | None = None, depth: int = 0) -> set[str]:
    """Attributes (all sets) that fn and the netlink.c builders it calls put
    in the message; a loop over kb_scalars that puts, all of the table's.
    A function that multicasts sends an event, not part of the caller's
    reply, and is not followed."""
    assert depth < 8, fn
    body = drop_other_cmds(FUNCS[fn], cmd)
    out = set()
    if re.search(r"\bkb_scalars\b", body) and re.search(r"\bnla_put", body):
        out |= SCALARS
    for callee, args in calls(body):
        if re.match(r"nla_put|nla_nest_start", callee):
            out.add(args[1])
        elif callee in FUNCS and callee != fn and "genlmsg_multicast" not in FUNCS[callee]:
            sub_cmd = next((a for a in args if a.startswith("KIOBENCH_CMD_")), cmd)
            out |= puts(callee, sub_cmd, depth + 1)
    return out


def top_level(attrs: set[str], set_name: str) -> set[str]:
    prefix = c_name(full_set(set_name)["name-prefix"], "")
    return {a for a in attrs if a.startswith(prefix)}


def reply_spec(o: dict, kind: str) -> set[str]:
    return spec_attrs(o, kind, "reply")


@pytest.mark.parametrize("name,kind", [(o["name"], k) for o in SPEC["operations"]["list"]
                                       for k in ("do", "dump") if k in o])
def test_reply_attributes_are_put(name, kind):
    o = op(name)
    fn = KB_OPS[op_c_name(o)]["doit" if kind == "do" else "dumpit"]
    put = puts(fn, op_c_name(o))
    assert top_level(put, o["attribute-set"]) == reply_spec(o, kind), f"{name} {kind}"


def test_event_attributes_are_put():
    """Every event: what the multicasting builder puts for its command."""
    events = [o for o in SPEC["operations"]["list"] if "event" in o]
    assert events
    senders = [f for f, b in FUNCS.items() if "genlmsg_multicast" in b]
    for o in events:
        cmd = op_c_name(o)
        put = set()
        for f in senders:
            for callee, args in calls(FUNCS[f]):
                if cmd in args:
                    put |= puts(callee, cmd)
        want = {c_name(full_set(o["attribute-set"])["name-prefix"], n)
                for n in o["event"]["attributes"]}
        assert top_level(put, o["attribute-set"]) == want, o["name"]


def test_nests_put_are_the_spec_sets():
    """Inside each nest a reply puts: the attributes of its nested set."""
    put = set()
    for o in SPEC["operations"]["list"]:
        for kind in ("do", "dump"):
            if kind in o:
                put |= puts(KB_OPS[op_c_name(o)]["doit" if kind == "do" else "dumpit"],
                            op_c_name(o))
    nests = [a for a in set_attrs("kiobench").items() if a[0] in put and a[1]["type"] == "nest"]
    assert nests
    for attr, a in nests:
        assert top_level(put, a["nested-attributes"]) == nested_closure(a["nested-attributes"]), attr


def nested_closure(set_name: str) -> set[str]:
    """The attributes of a nested set and of the sets its nests hold, down to
    the leaves (bssplit: entry, and size and weight inside each entry)."""
    out = set()
    for attr, a in set_attrs(set_name).items():
        out.add(attr)
        if a["type"] == "nest":
            out |= nested_closure(a["nested-attributes"])
    return out


# ---- the header's per-command lists --------------------------------------------------

def header_op_lists() -> dict[str, dict[str, set[str]]]:
    """{command: {"Request"|"Dump request"|"Reply"|"Event": {attributes}}}
    from the opening comment of the header."""
    comment = HEADER[HEADER.index("/*", 3):HEADER.index("*/", HEADER.index("/*", 3))]
    out = {}
    for m in re.finditer(r"^ \* (KIOBENCH_CMD_\w+) \(.*?\)\n(.*?)(?=^ \* KIOBENCH_CMD_|\Z)",
                         comment, re.M | re.S):
        text = re.sub(r"\n \*\s*", " ", m.group(2))
        parts = re.split(r"\b(Request|Dump request|Reply|Event): ", text)
        out[m.group(1)] = {k: set(re.findall(r"KIOBENCH_A_\w+", v))
                           for k, v in zip(parts[1::2], parts[2::2])}
    return out


def test_header_lists_every_op():
    assert set(header_op_lists()) == {op_c_name(o) for o in SPEC["operations"]["list"]
                                      if o["name"] != "unspec"}


@pytest.mark.parametrize("name", [o["name"] for o in SPEC["operations"]["list"]
                                  if o["name"] != "unspec"])
def test_header_op_lists_are_the_spec(name):
    o = op(name)
    got = header_op_lists()[op_c_name(o)]
    if "event" in o:
        assert got == {"Event": spec_attrs({**o, "x": {"e": o["event"]}}, "x", "e")}
        return
    want = {"Request": spec_attrs(o, "do", "request"), "Reply": reply_spec(o, "do")}
    if "dump" in o:
        want["Dump request"] = spec_attrs(o, "dump", "request")
        assert reply_spec(o, "dump") == reply_spec(o, "do"), "one Reply line for both"
    assert got == want


# ---- bounds ----------------------------------------------------------------------

def c_enum_values(text: str) -> dict[str, int]:
    """Members of the C enums in text, with their values (implicit or given)."""
    out = {}
    for body in re.findall(r"enum \w+ \{(.*?)\};", text, re.S):
        n = 0
        for name, given in re.findall(r"^\s*([A-Z][A-Z0-9_]*)\s*(?:=\s*([^,/]+))?,", body, re.M):
            n = int(given, 0) if given and given.strip().isdigit() else n
            out[name] = n
            n += 1
    return out


def c_constants() -> dict[str, int]:
    """Integer values of the limits netlink.c's policies use."""
    consts = {"PATH_MAX": 4096}  # <linux/limits.h>
    consts.update(c_enum_values(HEADER))
    for m in re.finditer(r"#define ((?:KB|KIOBENCH)_\w+)\s+(.+)", HEADER + KIOBENCH_H + NETLINK_C):
        expr = re.sub(r"/\*.*?\*/", "", m.group(2)).strip()
        expr = expr.replace("NSEC_PER_SEC", "1000000000").replace("NSEC_PER_MSEC", "1000000")
        expr = re.sub(r"(\d+)U(LL)?\b", r"\1", expr)
        expr = re.sub(r"\b(KB|KIOBENCH)_\w+\b", lambda k: str(consts.get(k.group(0), k.group(0))),
                      expr)
        try:
            v = eval(expr, {})  # constants of our own headers
        except (NameError, SyntaxError):
            continue
        if isinstance(v, int):
            consts[m.group(1)] = v
    return consts


def c_int(expr: str) -> int:
    """Value of a constant expression of netlink.c (limits, sizeof(u32))."""
    consts = c_constants()
    expr = re.sub(r"sizeof\(([us])(\d+)\)", lambda m: str(int(m.group(2)) // 8), expr)
    expr = re.sub(r"(\d+)U(LL)?\b", r"\1", expr)
    expr = re.sub(r"\b[A-Z][A-Z0-9_]+\b", lambda k: str(consts[k.group(0)]), expr)
    return int(eval(expr, {}))


def value(v: str | None, consts: dict[str, int]) -> int | None:
    """A bound as an integer; None for no bound (absent or the type's max)."""
    if v is None or re.fullmatch(r"U(8|16|32|64)_MAX", v):
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
    for m in re.finditer(r"\[(\w+)\] =\s+(NLA_POLICY_\w+)\(([^;]*?)\),?\s*(?:\n|$)", body):
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
        checks = dict(a.get("checks", {}))
        if "enum" in a:  # YNL bounds an enum attribute by its last entry
            checks.setdefault("max", len(definition(a["enum"])["entries"]) - 1)
        assert checks.get("min", 0) == (lo or 0), attr
        assert checks.get("max") == hi, attr


def test_spec_lengths_are_the_policy():
    """Every .len of a string or binary policy is the spec's max-len, and a
    spec max-len is never left unenforced."""
    seen = set()
    for s in SPEC["attribute-sets"]:
        if "subset-of" in s:
            continue
        for a in s["attributes"]:
            name = c_name(s["name-prefix"], a["name"])
            for pol in POLICIES.values():
                if name not in pol or a["type"] not in ("string", "binary"):
                    continue
                m = re.search(r"\.len = ([^,}]+)", pol[name])
                got = c_int(m.group(1)) if m else None
                assert a.get("checks", {}).get("max-len") == got, name
                seen.add(name)
            if "max-len" in a.get("checks", {}):
                assert name in seen, f"{name}: max-len in the spec, in no policy"
    assert {"KIOBENCH_A_JOB_NAME", "KIOBENCH_A_CPUS", "KIOBENCH_DEV_A_PATH"} <= seen


# ---- the other way: what the kernel enforces is in the spec ---------------------------

def test_every_spec_bound_is_enforced_by_the_policy():
    """A min or max the spec states for an attribute a policy takes is one
    the policy enforces (test_spec_checks_are_the_policy compares the
    bounds the policies have; this finds a spec bound with none behind it).
    Mutation: kb_new_policy's iodepth as a plain { .type = NLA_U32 }: red."""
    for policy, set_name in (("kb_new_policy", "kiobench"), ("kb_bss_entry_policy", "bssplit"),
                             ("kb_id_policy", "kiobench")):
        bounds = policy_bounds(policy)
        s = full_set(set_name)
        for a in s["attributes"]:
            name = c_name(s["name-prefix"], a["name"])
            checks = {k: v for k, v in a.get("checks", {}).items() if k in ("min", "max")}
            if name in POLICIES[policy] and checks:
                assert name in bounds, f"{policy}: {name} has {checks} in the spec, no range"


def c_string(args: str) -> str:
    """The text of a C string argument: literals concatenated, __stringify()
    of our constants resolved."""
    consts = c_constants()
    out = ""
    for lit, const in re.findall(r'"((?:[^"\\]|\\.)*)"|__stringify\((\w+)\)', args):
        out += str(consts[const]) if const else lit
    return out


def hand_checks() -> list[tuple[str, str]]:
    """(function, message) of every extack message netlink.c's handlers set
    by hand: NL_SET_ERR_MSG[_ATTR]() and KB_ERR_FMT()'s fixed text."""
    out = []
    for fn, body in FUNCS.items():
        for callee, args in calls(body):
            if callee in ("NL_SET_ERR_MSG", "NL_SET_ERR_MSG_MOD"):
                out.append((fn, c_string(args[1])))
            elif callee == "NL_SET_ERR_MSG_ATTR":
                out.append((fn, c_string(",".join(args[2:]))))
            elif callee == "KB_ERR_FMT":
                out.append((fn, c_string(args[2])))
    return out


def spec_attr_by_name() -> dict[str, dict]:
    """{spec name: attribute} of the top-level set."""
    return {a["name"]: a for a in full_set("kiobench")["attributes"]}


def checked_attrs(prefix: str) -> list[dict]:
    """The spec attributes a message's "<prefix>: " names: "offset/size" two,
    "bssplit size" the size inside bssplit; none for "jobs", "debugfs"..."""
    top = spec_attr_by_name()
    words = re.split(r"[ /]", prefix)
    if len(words) == 2 and words[0] in top and top[words[0]]["type"] == "nest":
        inner = {a["name"]: a for a in full_set(top[words[0]]["nested-attributes"])["attributes"]}
        return [inner[words[1]]] if words[1] in inner else []
    return [top[w] for w in words if w in top]


def test_hand_checks_are_in_the_spec():
    """Every bound netlink.c checks by hand, with an extack message naming
    the attribute ("numjobs: numjobs x devices must be at most 256"), is
    stated in the spec for that attribute: each number in the message is in
    its doc or its checks, each attribute or module parameter the message
    names is in its doc.  Mutation: KB_MAX_BSSPLIT 32 (kmod/kiobench.h),
    which the spec's "at most 16 entries" does not say: red."""
    top = spec_attr_by_name()
    found = 0
    for fn, msg in hand_checks():
        prefix, sep, rest = msg.partition(": ")
        attrs = checked_attrs(prefix) if sep else []
        if not attrs:
            continue
        found += 1
        numbers = set(re.findall(r"(?<![\w.])\d+(?![\w.])", rest))
        names = {w for w in re.findall(r"[a-z][a-z0-9_-]*", rest)
                 if "_" in w or (w in top and w not in prefix.split("/"))}
        for a in attrs:
            doc = " ".join(str(a.get(k, "")) for k in ("doc",))
            stated = {str(v) for v in a.get("checks", {}).values()}
            for n in numbers:
                assert n in stated or re.search(rf"(?<![\w.]){n}(?![\w.])", doc), \
                    f"{fn}: {msg!r}: {n} is not in the spec of {a['name']}: {doc!r}"
            for w in names:
                assert re.search(rf"\b{re.escape(w)}\b", doc), \
                    f"{fn}: {msg!r}: {w} is not in the spec of {a['name']}: {doc!r}"
    assert found >= 8, hand_checks()


# ---- the kernel's limits are the spec's bounds ----------------------------------------

# The policies take their bounds from the spec (tools/gen-kmod-nl.py); the
# limits the kernel states (get-features) and checks by hand are constants
# of kmod/kiobench.h and the uapi header.  Each is the spec's bound of the
# attributes it limits: {constant: [(set, attribute, check, offset)]},
# the check's value being the constant + offset.
LIMITS = {
    "KB_MAX_IODEPTH": [("kiobench", "iodepth", "max", 0)],
    "KB_MAX_WORKERS": [("kiobench", "numjobs", "max", 0)],
    "KB_MAX_BS": [("bssplit", "size", "max", 0)],
    "KB_MIN_BS": [("bssplit", "size", "min", 0)],
    "KB_MAX_CPUS": [("kiobench", "cpus", "max-len", None)],
    "KB_MAX_TIME_NS": [("kiobench", "runtime-ns", "max", 0), ("kiobench", "ramp-ns", "max", 0)],
    "KB_MIN_INTERVAL_NS": [("kiobench", "interval-ns", "min", 0)],
    "KB_MAX_INTERVAL_NS": [("kiobench", "interval-ns", "max", 0)],
    "KB_MAX_LAT_LOG": [("kiobench", "lat-log", "max", 0)],
    "KB_MAX_THINK_NS": [("kiobench", n, "max", 0) for n in
                        ("thinktime-ns", "thinktime-spin-ns", "thinktime-iotime-ns")],
    "KIOBENCH_MAX_RATE_IOPS": [("kiobench", "rate-iops", "max", 0)],
    "KIOBENCH_NAME_LEN": [("kiobench", "job-name", "max-len", -1)],
}


@pytest.mark.parametrize("const", sorted(LIMITS))
def test_kernel_limits_are_the_spec_bounds(const):
    """Mutation: KB_MAX_IODEPTH 4095 (kmod/kiobench.h): get-features would
    state a limit the policy does not enforce: red."""
    value = c_constants()[const]
    for set_name, attr, check, offset in LIMITS[const]:
        a = next(a for a in full_set(set_name)["attributes"] if a["name"] == attr)
        want = value * 4 if offset is None else value + offset  # cpus: u32 each
        assert a["checks"][check] == want, f"{const} = {value}: {attr} {check}"
