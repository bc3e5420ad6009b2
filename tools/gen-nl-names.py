#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Generate tools/nl-names.h from Documentation/netlink/specs/kiobench.yaml.

The names and types of the family's commands and attributes, as the spec
spells them, for the programs that print them (tools/nl.c, tests/fuzz/nlfuzz.c)
and tools/nl.c's parse policies, so that no list of names or types is kept
by hand beside the spec.  The header is committed
(as the kernel commits its generated netlink files);
tests/unit/test_ynl_names.py fails when it is stale.  Which tool option
sets a request attribute is said where the option is, in kb_opts[]
(tools/options.c: .attr), or for an attribute that code sets, in
kb_nl_by_code[] (tools/nl.c); tool_test fails on one that neither names.

    tools/gen-nl-names.py [-o tools/nl-names.h]	(default: stdout)
"""
import argparse
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
SPEC = "Documentation/netlink/specs/kiobench.yaml"
OUT = "tools/nl-names.h"

TYPES = ["unused", "pad", "flag", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
         "string", "binary", "nest"]


def c_name(*parts: str) -> str:
    return "".join(parts).upper().replace("-", "_")


def request_attrs(spec: dict, set_name: str) -> set[str]:
    """Attributes of set_name that some command's request takes."""
    out = set()
    for op in spec["operations"]["list"]:
        if op.get("attribute-set") != set_name:
            continue
        for kind in ("do", "dump"):
            out |= set(op.get(kind, {}).get("request", {}).get("attributes", []))
    return out


def set_var(name: str) -> str:
    return "kb_nl_attrs" if name == "kiobench" else f"kb_nl_{name.replace('-', '_')}_attrs"


def base_set(spec: dict, name: str) -> dict:
    """The attribute set that holds `name`'s attributes (a subset's parent)."""
    for s in spec["attribute-sets"]:
        if s["name"] == name:
            return base_set(spec, s["subset-of"]) if "subset-of" in s else s
    sys.exit(f"gen-nl-names: no attribute set {name}")


def bounds(spec: dict, a: dict) -> tuple[int, int, int]:
    """(min, max, max-len) of the spec's checks (an enum's max: its last
    value), 0 where the spec says none."""
    checks = a.get("checks", {})
    lo, hi, max_len = checks.get("min", 0), checks.get("max", 0), checks.get("max-len", 0)
    if "enum" in a and not hi:
        enum = next(d for d in spec.get("definitions", []) if d["name"] == a["enum"])
        hi = len(enum["entries"]) - 1 + enum.get("value-start", 0)
    for v in (lo, hi, max_len):
        if not isinstance(v, int):
            sys.exit(f"gen-nl-names: {a['name']}: check {v!r} is no number")
    return lo, hi, max_len


def attr_table(spec: dict, s: dict, var: str) -> list[str]:
    prefix = s["name-prefix"]
    request = request_attrs(spec, s["name"])
    lines = [f"static const struct kb_nl_attr {var}[{c_name(prefix, 'max')} + 1] = {{"]
    for a in s["attributes"]:
        if a["type"] not in TYPES:
            sys.exit(f"gen-nl-names: {a['name']}: type {a['type']} unknown here")
        fields = [f'"{a["name"]}"', c_name("kb-nlt-", a["type"]),
                  "true" if a["name"] in request else "false"]
        lo, hi, max_len = bounds(spec, a)
        if lo or hi or max_len or "nested-attributes" in a:
            fields += [f"{lo}ULL", f"{hi}ULL", str(max_len)]
        if "nested-attributes" in a:
            nest = base_set(spec, a["nested-attributes"])
            fields += [set_var(nest["name"]), c_name(nest["name-prefix"], "max")]
        lines.append(f"\t[{c_name(prefix, a['name'])}] = {{ {', '.join(fields)} }},")
    return lines + ["};", ""]


def req_tables(spec: dict) -> list[str]:
    """Each command's request attributes (do, then dump), 0-terminated:
    what tests/fuzz/nlfuzz.c draws a command's attributes from."""
    ops = spec["operations"]
    sets = {s["name"]: s for s in spec["attribute-sets"]}
    out, index = [], []
    for o in ops["list"]:
        names: list[str] = []
        for kind in ("do", "dump"):
            names += [n for n in o.get(kind, {}).get("request", {}).get("attributes", [])
                      if n not in names]
        if not names:
            continue
        prefix = base_set(spec, o["attribute-set"])["name-prefix"]
        if o["attribute-set"] not in sets:
            sys.exit(f"gen-nl-names: {o['name']}: no attribute set {o['attribute-set']}")
        var = f"kb_nl_req_{o['name'].replace('-', '_')}"
        out.append(f"static const unsigned short {var}[] = {{")
        out += [f"\t{c_name(prefix, n)}," for n in names] + ["\t0", "};", ""]
        index.append(f"\t[{c_name(ops['name-prefix'], o['name'])}] = {var},")
    return out + [f"static const unsigned short *const kb_nl_cmd_req[{c_name(ops['name-prefix'], 'max')} + 1] = {{"] + \
        index + ["};", ""]


def generate(spec_text: str) -> str:
    spec = yaml.safe_load(spec_text)
    out = [
        "/* SPDX-License-Identifier: GPL-2.0 */",
        "/* Do not edit: generated by tools/gen-nl-names.py from */",
        f"/*\t{SPEC} */",
        "/*",
        " * The kiobench family's commands and attributes as the spec names and",
        " * types them, indexed by value (a value the spec does not define: all",
        " * zero).  tools/nl.c fills its parse policies from these tables; the",
        " * option that sets a request attribute is its kb_opts[] entry's .attr",
        " * (tools/options.c) or, if code sets it, kb_nl_by_code[] (tools/nl.c):",
        " * tool_test fails on a request attribute that neither names.",
        " */",
        "#ifndef KIOBENCH_NL_NAMES_H",
        "#define KIOBENCH_NL_NAMES_H",
        "",
        "#include <stdbool.h>",
        "#include <stddef.h>",
        "#include <linux/kiobench.h>",
        "",
        "enum kb_nl_type {",
    ]
    out += [f"\t{c_name('kb-nlt-', t)}," for t in TYPES]
    out += ["};", "",
            "struct kb_nl_attr {",
            "\tconst char *name;\t/* the spec's */",
            "\tenum kb_nl_type type;",
            "\tbool request;\t\t/* some command's request takes it */",
            "\t/* the spec's checks (an enum's: its values), 0 where it has none */",
            "\tunsigned long long min, max;",
            "\tunsigned int max_len;",
            "\t/* a nest's attributes (a subset's: its parent set's), and their max */",
            "\tconst struct kb_nl_attr *nest;",
            "\tunsigned int nest_max;",
            "};", ""]
    ops = spec["operations"]
    out.append(f"static const char *const kb_nl_cmds[{c_name(ops['name-prefix'], 'max')} + 1] = {{")
    out += [f"\t[{c_name(ops['name-prefix'], o['name'])}] = \"{o['name']}\"," for o in ops["list"]]
    out += ["};", ""]
    sets = [s for s in spec["attribute-sets"] if "subset-of" not in s]
    # declared first: a nest's table may come after the table that names it
    out += [f"static const struct kb_nl_attr {set_var(s['name'])}"
            f"[{c_name(s['name-prefix'], 'max')} + 1];" for s in sets] + [""]
    for s in sets:
        out += attr_table(spec, s, set_var(s["name"]))
    out += req_tables(spec)
    out += ["#endif /* KIOBENCH_NL_NAMES_H */", ""]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default=str(REPO / SPEC))
    ap.add_argument("-o", dest="out", help=f"output file (e.g. {OUT}); default stdout")
    a = ap.parse_args()
    text = generate(Path(a.spec).read_text())
    if a.out:
        Path(a.out).write_text(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
