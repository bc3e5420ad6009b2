#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the kernel side of the netlink family from its spec.

From Documentation/netlink/specs/kiobench.yaml, two files, both committed
(as the kernel commits its generated netlink files) and checked for
staleness by tests/unit/test_kmod_nl_gen.py:

  kmod/uapi/linux/kiobench.h	the uapi header: every enum with its values,
				the defines, and the spec's doc as comments;
  kmod/netlink-gen.h		included by kmod/netlink.c: the request
				policies (6.1-compatible NLA_POLICY_* forms,
				bounds from the spec's checks) and kb_scalars,
				the table of the job's plain settings.

kb_scalars has one KB_SCALAR(attribute, kb_config field, NLA type, zero is
absent) line for every job-new request attribute that the job status also
carries and that is one u8, u32, u64 or flag field of struct kb_config,
named as the attribute ('-' -> '_').  kb_parse_config() and
kb_put_config() read and put them all with one loop each.  The attributes
with logic of their own are in HAND below, each with its reason; a job-new
request attribute that is neither a plain setting nor in HAND is refused.

What the spec cannot say stays by hand beside the uapi header, in
kmod/uapi/linux/kiobench-hand.h, which it includes.

    tools/gen-kmod-nl.py [--spec SPEC] [-d DIR]	(default: the repository)
"""
import argparse
import sys
import textwrap
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
SPEC = "Documentation/netlink/specs/kiobench.yaml"
UAPI = "kmod/uapi/linux/kiobench.h"
KGEN = "kmod/netlink-gen.h"
HAND_HEADER = "kiobench-hand.h"

# job-new request attributes that kmod/netlink.c reads and puts by hand.
HAND = {
    "job-name": "a string, copied into a fixed array",
    "devices": "a nest of paths, one per device, at least one",
    "bssplit": "nested entries; their weights are kept cumulative",
    "bssplit-write": "the writes' bssplit; bssplit's when absent",
    "bssplit-trim": "the trims' bssplit; bssplit-write's when absent",
    "cpus": "an array of CPU numbers, each checked against the possible CPUs",
    "detach": "sets the job's time cap from max_detached_runtime",
    "rate-process": "only with rate-iops, and put only with it",
    "cmdprio-percentage": "per direction: the -write attributes default to it",
    "cmdprio-class": "per direction; realtime when absent",
    "cmdprio": "per direction",
    "cmdprio-percentage-write": "the writes' cmdprio-percentage",
    "cmdprio-class-write": "the writes' cmdprio-class",
    "cmdprio-write": "the writes' cmdprio",
    "thinktime-ns": "not with rate-iops; puts the thinktime group",
    "thinktime-spin-ns": "only with thinktime-ns",
    "thinktime-blocks": "only with thinktime-ns; its default depends on thinktime-iotime-ns",
    "thinktime-iotime-ns": "only with thinktime-ns",
    "random-zones": "nested zones of each direction, built into a table of percents",
    "random-cdf": "an array of entries, checked in order; not with random-zones",
    "verify-pattern": "bytes, kept with their length; only with verify",
    "buffer-pattern": "bytes, kept with their length; with buffer-fill pattern or buffer-compress-percentage",
    "ignore-error-read": "an array of errnos, kept as a list (errors.c)",
    "ignore-error-write": "an array of errnos, kept as a list (errors.c)",
    "ignore-error-verify": "an array of errnos, kept as a list (errors.c)",
    "latency-target-ns": "closed loop only; puts the latency-target group",
    "latency-window-ns": "only with latency-target-ns",
    "latency-percentile-ppm": "only with latency-target-ns; 100 % when absent",
    "latency-run": "only with latency-target-ns",
    "cmdprio-bssplit": "a table of entries per direction, one priority a direction; "
                       "not with cmdprio-percentage",
    "nice": "signed (s32), which kb_scalars does not hold; put only when not 0",
    "write-streams": "bytes, each a stream id from 1, kept in a fixed array with their number",
    "write-stream-select": "only with write-streams, and put only with it",
}

# Names netlink.c uses: the policy of each request (commands that take the
# same attributes share one) and of each nested set.
OP_POLICY = {"job-new": "kb_new_policy", "job-start": "kb_id_policy",
             "job-stop": "kb_id_policy", "job-get": "kb_id_policy",
             "job-del": "kb_id_policy", "job-replay": "kb_replay_policy"}
NEST_POLICY = {"device": "kb_dev_policy", "bssplit-list": "kb_bss_policy",
               "bssplit-entry": "kb_bss_entry_policy", "zone-list": "kb_zone_policy",
               "zone-entry": "kb_zone_entry_policy"}
# Policies KUnit reads (kmod/kiobench_kunit.c): visible to it, static otherwise.
KUNIT_VISIBLE = {"kb_new_policy"}

SCALAR_TYPES = {"flag": "NLA_FLAG", "u8": "NLA_U8", "u32": "NLA_U32", "u64": "NLA_U64"}
C_TYPES = {"NLA_FLAG": "bool", "NLA_U8": "u8", "NLA_U32": "u32", "NLA_U64": "u64"}
NLA_TYPES = {"flag": "NLA_FLAG", "u8": "NLA_U8", "u16": "NLA_U16", "u32": "NLA_U32",
             "u64": "NLA_U64", "s8": "NLA_S8", "s16": "NLA_S16", "s32": "NLA_S32",
             "s64": "NLA_S64", "binary": "NLA_BINARY"}
TYPE_MAX = {"u8": "U8_MAX", "u16": "U16_MAX", "u32": "U32_MAX", "u64": "U64_MAX"}
S16_MAX = 2**15 - 1	# 6.1's nla_policy holds NLA_POLICY_RANGE bounds in s16


def c_name(*parts: str) -> str:
    return "".join(parts).upper().replace("-", "_")


def wrap(text: str, first: str, rest: str, width: int = 80) -> list[str]:
    """text as comment lines, paragraphs kept apart by an empty line."""
    out = []
    for para in text.strip().split("\n\n"):
        if out:
            out.append(rest.rstrip())
        out += textwrap.wrap(" ".join(para.split()), width=width, initial_indent=first,
                             subsequent_indent=rest, break_on_hyphens=False,
                             expand_tabs=False, tabsize=8)
        first = rest
    return out


def tabbed(left: str, comment: str, col: int = 40) -> str:
    """left, then tabs to column col (at least one), then comment."""
    width = len(left.expandtabs(8))
    tabs = max(1, (col - width + 7) // 8)
    return left + "\t" * tabs + comment


class Spec:
    def __init__(self, text: str):
        self.y = yaml.safe_load(text)
        self.sets = {s["name"]: s for s in self.y["attribute-sets"]}
        self.defs = {d["name"]: d for d in self.y["definitions"]}
        self.ops = self.y["operations"]

    def full(self, set_name: str) -> dict:
        s = self.sets[set_name]
        return self.sets[s["subset-of"]] if "subset-of" in s else s

    def attrs(self, set_name: str) -> list[dict]:
        """The full definitions of a set's attributes, subsets resolved."""
        full = {a["name"]: a for a in self.full(set_name)["attributes"]}
        return [full[a["name"]] for a in self.sets[set_name]["attributes"]]

    def attr_c(self, set_name: str, name: str) -> str:
        return c_name(self.full(set_name)["name-prefix"], name)

    def enum_c(self, s: dict) -> str:
        return s["enum-name"].replace("-", "_")

    def def_prefix(self, d: dict) -> str:
        return d.get("name-prefix", f"{self.y['name']}-{d['name']}-")

    def entries(self, d: dict) -> list[dict]:
        return [e if isinstance(e, dict) else {"name": e} for e in d["entries"]]

    def op(self, name: str) -> dict:
        return next(o for o in self.ops["list"] if o["name"] == name)

    def op_c(self, o: dict) -> str:
        return c_name(self.ops["name-prefix"], o["name"])

    def c_list(self, o: dict, names: list[str]) -> str:
        return ", ".join(self.attr_c(o["attribute-set"], n) for n in names)


# ---- the uapi header -------------------------------------------------------------

def op_comment(sp: Spec, o: dict) -> list[str]:
    kinds = [k for k in ("do", "dump") if k in o]
    head = f"({', '.join(kinds)})" if kinds else f'(multicast "{o["mcgrp"]}")'
    out = [f" * {sp.op_c(o)} {head}"]
    out += wrap(o.get("doc", ""), " *\t", " *\t", 72)

    def part(label: str, names: list[str]) -> None:
        text = f"{label}: {sp.c_list(o, names)}." if names else f"{label}: nothing."
        out.extend(wrap(text, " *\t", " *\t", 72))

    if "event" in o:
        part("Event", o["event"]["attributes"])
        return out
    if "do" in o:
        part("Request", o["do"].get("request", {}).get("attributes", []))
    if "dump" in o:
        part("Dump request", o["dump"].get("request", {}).get("attributes", []))
        if o["dump"].get("reply") != o["do"].get("reply"):
            sys.exit(f"gen-kmod-nl: {o['name']}: a dump reply unlike the do reply")
    part("Reply", o["do"].get("reply", {}).get("attributes", []))
    return out


def kdoc(title: str, doc: str | None, members: list[tuple[str, str]]) -> list[str]:
    if not doc and not any(d for _, d in members):
        return []
    out = ["/**"] + wrap(f"{title} - {doc}" if doc else title, " * ", " *   ")
    for name, d in members:
        if d:
            out += wrap(f"@{name}: {d}", " * ", " *   ")
    return out + [" */"]


def type_comment(sp: Spec, a: dict) -> str:
    t = a["type"]
    if "enum" in a:
        t += f": enum {sp.y['name']}_{a['enum'].replace('-', '_')}"
    elif t == "nest":
        t += f": enum {sp.enum_c(sp.full(a['nested-attributes']))}"
    if a.get("multi-attr"):
        t += ", repeated"
    return f"/* {t} */"


def uapi(sp: Spec) -> str:
    y = sp.y
    fam = y["name"]
    out = [
        "/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */",
        "/*",
        " * Do not edit: generated by tools/gen-kmod-nl.py from",
        f" * {SPEC}.",
        " *",
    ]
    out += wrap(f"{fam}: {y['doc']}", " * ", " * ")
    out += [" *"]
    groups = ", ".join(f'"{g["name"]}"' for g in y.get("mcast-groups", {}).get("list", []))
    out += wrap(f'Family "{fam}", version {c_name(y["c-version-name"])}, multicast '
                f"group {groups}.  Below, for each command, every attribute of its "
                'request, reply or event; "nothing": none.', " * ", " * ")
    out += [" *"]
    for o in sp.ops["list"]:
        if o["name"] != "unspec":
            out += op_comment(sp, o)
    guard = f"_UAPI_LINUX_{c_name(fam)}_H"
    out += [" */", f"#ifndef {guard}", f"#define {guard}", ""]
    if any(d["type"] == "struct" for d in y["definitions"]):
        out += ["#include <linux/types.h>", ""]
    out += [
            f"#define {c_name(y['c-family-name'])}\t\"{fam}\"",
            f"#define {c_name(y['c-version-name'])}\t{y.get('version', 1)}", ""]
    consts = []
    for d in y["definitions"]:
        if d["type"] == "const":
            consts.append(d)
            continue
        if d["type"] not in ("enum", "struct"):
            sys.exit(f"gen-kmod-nl: definition {d['name']}: type {d['type']} unknown here")
        if consts:
            out += const_defines(sp, consts)
            consts = []
        if d["type"] == "struct":
            out += struct_def(fam, d)
            continue
        pfx = sp.def_prefix(d)
        ename = f"{fam}_{d['name'].replace('-', '_')}"
        ents = sp.entries(d)
        out += kdoc(f"enum {ename}", d.get("doc"),
                    [(c_name(pfx, e["name"]), e.get("doc")) for e in ents])
        out.append(f"enum {ename} {{")
        val = 0
        for e in ents:
            v = e.get("value", val)
            out.append(f"\t{c_name(pfx, e['name'])}{f' = {v}' if v != val else ''},")
            val = v + 1
        if d.get("render-max"):
            out += ["", "\t/* private: */", f"\t__{c_name(pfx, 'max')},",
                    f"\t{c_name(pfx, 'max')} = (__{c_name(pfx, 'max')} - 1)"]
        out += ["};", ""]
    out += const_defines(sp, consts)
    for s in y["attribute-sets"]:
        if "subset-of" in s:
            continue
        enum = sp.enum_c(s)
        out += kdoc(f"enum {enum}", s.get("doc"),
                    [(c_name(s["name-prefix"], a["name"]), a.get("doc"))
                     for a in s["attributes"]])
        out.append(f"enum {enum} {{")
        val = 0
        for a in s["attributes"]:
            name = c_name(s["name-prefix"], a["name"])
            v = a.get("value", val)
            left = f"\t{name}{f' = {v}' if v != val else ''},"
            val = v + 1
            out.append(left if a["type"] in ("unused", "pad") else tabbed(left, type_comment(sp, a)))
        mx = c_name(s["name-prefix"], "max")
        out += ["", f"\t__{mx},", f"\t{mx} = (__{mx} - 1)", "};", ""]
    ops = sp.ops
    out += kdoc(f"enum {ops['enum-name'].replace('-', '_')}", None,
                [(sp.op_c(o), " ".join(o.get("doc", "").split())) for o in ops["list"]])
    out.append(f"enum {ops['enum-name'].replace('-', '_')} {{")
    val = 0
    for o in ops["list"]:
        v = o.get("value", val)
        out.append(f"\t{sp.op_c(o)}{f' = {v}' if v != val else ''},")
        val = v + 1
    mx = c_name(ops["name-prefix"], "max")
    out += ["", f"\t__{mx},", f"\t{mx} = (__{mx} - 1)", "};", ""]
    for g in y.get("mcast-groups", {}).get("list", []):
        out.append(f"#define {c_name(fam, '-mcgrp-', g['name'])}\t\"{g['name']}\"")
    out += ["", f"/* What the spec cannot say: {HAND_HEADER}, by hand. */",
            f'#include "{HAND_HEADER}"', "", f"#endif /* {guard} */", ""]
    return "\n".join(out)


def struct_def(fam: str, d: dict) -> list[str]:
    """A struct definition of the spec: its members, u8..u64 as __u8..__u64."""
    name = f"{fam}_{d['name'].replace('-', '_')}"
    out = kdoc(f"struct {name}", d.get("doc"),
               [(m["name"].replace("-", "_"), m.get("doc")) for m in d["members"]])
    out.append(f"struct {name} {{")
    for m in d["members"]:
        if m["type"] not in ("u8", "u16", "u32", "u64"):
            sys.exit(f"gen-kmod-nl: struct {d['name']}: member type {m['type']} unknown here")
        out.append(f"\t__{m['type']} {m['name'].replace('-', '_')};")
    return out + ["};", ""]


def const_defines(sp: Spec, consts: list[dict]) -> list[str]:
    out = []
    for d in consts:
        doc = " ".join(d.get("doc", "").split())
        if doc and len(f"/* {doc} */") <= 80:
            out.append(f"/* {doc} */")
        elif doc:
            out += ["/*"] + wrap(doc, " * ", " * ") + [" */"]
        out.append(f"#define {c_name(sp.y['name'], '-', d['name'])}\t{d['value']}")
    return out + [""] if out else []


# ---- the kernel's policies and settings table -------------------------------------------

def bounds(sp: Spec, a: dict) -> tuple[int | None, int | None]:
    """(min, max) the spec states for a; the last entry of its enum bounds
    an enum attribute (as YNL does)."""
    checks = a.get("checks", {})
    lo, hi = checks.get("min"), checks.get("max")
    if "enum" in a and hi is None:
        hi = len(sp.entries(sp.defs[a["enum"]])) - 1
    return lo, hi


def policy_expr(sp: Spec, pol: str, a: dict, ranges: list[str]) -> str:
    t = a["type"]
    checks = a.get("checks", {})
    if t == "nest":
        return f"NLA_POLICY_NESTED({NEST_POLICY[a['nested-attributes']]})"
    if t == "string":
        ln = f", .len = {checks['max-len']}" if "max-len" in checks else ""
        return f"{{ .type = NLA_NUL_STRING{ln}, }}"
    if t == "binary":
        ln = f", .len = {checks['max-len']}" if "max-len" in checks else ""
        return f"{{ .type = NLA_BINARY{ln}, }}"
    if t not in NLA_TYPES or set(checks) - {"min", "max"}:
        sys.exit(f"gen-kmod-nl: {a['name']}: type {t} with {checks} unknown here")
    nla = NLA_TYPES[t]
    lo, hi = bounds(sp, a)
    if lo is None and hi is None:
        return f"{{ .type = {nla}, }}"
    if "enum" in a and "max" not in checks:
        d = sp.defs[a["enum"]]
        hi_c = c_name(sp.def_prefix(d), sp.entries(d)[-1]["name"])
        if lo is None:
            return f"NLA_POLICY_MAX({nla}, {hi_c})"
        sys.exit(f"gen-kmod-nl: {a['name']}: an enum with a min")
    if all(v is None or 0 <= v <= S16_MAX for v in (lo, hi)):
        if lo is None:
            return f"NLA_POLICY_MAX({nla}, {hi})"
        if hi is None:
            return f"NLA_POLICY_MIN({nla}, {lo})"
        return f"NLA_POLICY_RANGE({nla}, {lo}, {hi})"
    # 6.1: bounds beyond s16 need a netlink_range_validation (not const:
    # 6.1's nla_policy points to a mutable one)
    top = sp.y["name"]
    owner = next(s["name"] for s in sp.y["attribute-sets"]
                 if "subset-of" not in s and a in s["attributes"])
    name = f"kb_{'' if owner == top else owner + '_'}{a['name']}_range".replace("-", "_")
    if name not in ranges:
        ranges += [f"static struct netlink_range_validation {name} = {{",
                   f"\t.min = {lo or 0},", f"\t.max = {TYPE_MAX[t] if hi is None else hi},",
                   "};", ""]
    return f"NLA_POLICY_FULL_RANGE({nla}, &{name})"


def policy_table(sp: Spec, pol: str, set_name: str, names: list[str],
                 ranges: list[str]) -> list[str]:
    full = sp.full(set_name)
    defs = {a["name"]: a for a in full["attributes"]}
    vis = "VISIBLE_IF_KUNIT " if pol in KUNIT_VISIBLE else "static "
    out = [f"{vis}const struct nla_policy {pol}[{c_name(full['name-prefix'], 'max')} + 1] = {{"]
    for n in names:
        a = defs[n]
        if a["type"] in ("unused", "pad"):
            continue
        left = f"\t[{c_name(full['name-prefix'], n)}] ="
        expr = policy_expr(sp, pol, a, ranges)
        if len(f"{left} {expr},".expandtabs(8)) <= 80:
            out.append(f"{left} {expr},")
        else:
            out += [left, f"\t\t{expr},"]
    out.append("};")
    if pol in KUNIT_VISIBLE:
        out.append(f"EXPORT_SYMBOL_IF_KUNIT({pol});")
    return out + [""]


def scalars(sp: Spec) -> list[tuple[str, str, str, bool]]:
    """(attribute, field, NLA type, zero is absent) of each plain setting."""
    new = sp.op("job-new")
    status = set(new["do"]["reply"]["attributes"])
    defs = {a["name"]: a for a in sp.full(new["attribute-set"])["attributes"]}
    out, bad = [], []
    for n in new["do"]["request"]["attributes"]:
        a = defs[n]
        if n in HAND:
            continue
        if a["type"] not in SCALAR_TYPES or n not in status or a.get("multi-attr"):
            bad.append(n)
            continue
        zero_absent = a["type"] == "flag" or (a.get("checks", {}).get("min") or 0) >= 1
        out.append((sp.attr_c(new["attribute-set"], n), n.replace("-", "_"),
                    SCALAR_TYPES[a["type"]], zero_absent))
    if bad:
        sys.exit(f"gen-kmod-nl: job-new request attributes neither plain settings "
                 f"nor in HAND: {bad}")
    if stale := set(HAND) - set(new["do"]["request"]["attributes"]):
        sys.exit(f"gen-kmod-nl: HAND names attributes job-new does not take: {sorted(stale)}")
    return out


def kernel(sp: Spec) -> str:
    out = [
        "/* SPDX-License-Identifier: GPL-2.0 */",
        "/*",
        " * Do not edit: generated by tools/gen-kmod-nl.py from",
        f" * {SPEC}.",
        " *",
        " * Included by netlink.c only: the request policies, bounds from the",
        " * spec's checks, and kb_scalars, the job's plain settings: each a",
        " * job-new request attribute that the job status carries too, one",
        " * kb_config field named as the attribute.  KB_SCALAR(attribute,",
        " * field, NLA type, zero is absent): a flag that is off, or a value",
        " * whose spec minimum is 1 or more that is 0, is absent from the status.",
        " */",
        "#ifndef KB_NETLINK_GEN_H",
        "#define KB_NETLINK_GEN_H",
        "",
    ]
    ranges, tables, done = [], [], set()
    nests = []

    def want_nests(set_name: str, names: list[str]) -> None:
        defs = {a["name"]: a for a in sp.attrs(set_name)}
        full = {a["name"]: a for a in sp.full(set_name)["attributes"]}
        for n in names:
            a = full.get(n) or defs[n]
            if a["type"] == "nest":
                inner = a["nested-attributes"]
                if inner not in NEST_POLICY:
                    sys.exit(f"gen-kmod-nl: nested set {inner}: no policy name")
                want_nests(inner, [x["name"] for x in sp.sets[inner]["attributes"]])
                if inner not in nests:
                    nests.append(inner)

    requests = []
    for o in sp.ops["list"]:
        names = o.get("do", {}).get("request", {}).get("attributes", [])
        if not names:
            continue
        if o["name"] not in OP_POLICY:
            sys.exit(f"gen-kmod-nl: operation {o['name']}: no policy name")
        pol = OP_POLICY[o["name"]]
        if pol in done:
            prev = next(r for r in requests if r[0] == pol)
            if prev[2] != names:
                sys.exit(f"gen-kmod-nl: {pol}: operations with different requests")
            continue
        done.add(pol)
        requests.append((pol, o["attribute-set"], names))
        want_nests(o["attribute-set"], names)
    for inner in nests:
        tables += policy_table(sp, NEST_POLICY[inner], inner,
                               [a["name"] for a in sp.sets[inner]["attributes"]], ranges)
    for pol, set_name, names in requests:
        tables += policy_table(sp, pol, set_name, names, ranges)
    if ranges:
        out += ["/* Not const: 6.1's struct nla_policy points to a mutable range. */", ""]
    out += ranges + tables
    table = scalars(sp)
    out.append("static const struct kb_scalar kb_scalars[] = {")
    for attr, field, nla, zero_absent in table:
        line = f"\tKB_SCALAR({attr}, {field}, {nla}, {'true' if zero_absent else 'false'}),"
        if len(line.expandtabs(8)) > 100:     # checkpatch's limit
            line = (f"\tKB_SCALAR({attr}, {field},\n\t\t  {nla}, "
                    f"{'true' if zero_absent else 'false'}),")
        out.append(line)
    out += ["};", "", "/* Each field is of its attribute's C type. */"]
    for attr, field, nla, zero_absent in table:
        out.append(f"static_assert(__same_type(((struct kb_config *)0)->{field}, "
                   f"{C_TYPES[nla]}));")
    out += ["", "#endif /* KB_NETLINK_GEN_H */", ""]
    return "\n".join(out)


def generate(spec_text: str) -> dict[str, str]:
    sp = Spec(spec_text)
    return {UAPI: uapi(sp), KGEN: kernel(sp)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default=str(REPO / SPEC))
    ap.add_argument("-d", dest="dir", default=str(REPO),
                    help="write the files under this directory (default: the repository)")
    a = ap.parse_args()
    for rel, text in generate(Path(a.spec).read_text()).items():
        path = Path(a.dir) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


if __name__ == "__main__":
    main()
