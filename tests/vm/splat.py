"""Find kernel splats (warnings, oopses, lockdep, KASAN, leaks...) in a log.

A splat starts at a line matching one of SPLAT_PATTERNS (after the printk
timestamp/caller prefix and an optional "subsystem: " word), or at the
"------------[ cut here ]" line just before it (WARN()'s message sits
between the two), and extends over the following lines until
"---[ end trace", the next splat header (unless within CONTINUATION lines),
a benign header, or MAX_LINES.  A "Call Trace:" that follows no splat
header and no BENIGN_HEADERS line (sysrq dumps, NMI backtraces) is a splat
of its own.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

SPLAT_PATTERNS = [
    r"Kernel panic - not syncing",
    r"BUG:",
    r"kernel BUG at",
    r"WARNING:",
    r"Oops",
    r"general protection fault",
    r"KASAN:",
    r"UBSAN:",
    r"KFENCE:",
    r"possible recursive locking",
    r"possible circular locking",
    r"inconsistent lock state",
    r"suspicious RCU usage",
    r"INFO: task .* blocked for more than",
    r"INFO: .*detected stalls?",
    r"unreferenced object",
]
BENIGN_HEADERS = [
    r"sysrq: ",
    r"NMI backtrace for cpu",
]
MAX_LINES = 200

# "[  12.345678] ", "[T123] ", "<4>" and kmemleak's indentation may prefix a line.
_PREFIX = r"^(?:<\d+>)?(?:\[[^\]]*\]\s*)*(?:[\w.-]+: )?\s*"
_SPLAT = re.compile(_PREFIX + "(?:" + "|".join(SPLAT_PATTERNS) + ")")
_BENIGN = re.compile(_PREFIX + "(?:" + "|".join(BENIGN_HEADERS) + ")")
_TRACE = re.compile(_PREFIX + r"Call Trace:")
_END = re.compile(r"---\[ end trace")
_CUT = re.compile(r"------------\[ cut here \]------------")
CUT_LOOKBACK = 5  # lines between "cut here" and the splat's header
# A header this few lines into a splat continues it ("BUG: ... NULL pointer
# dereference" is followed by "Oops: ..." a few lines on).
CONTINUATION = 8


@dataclass(frozen=True)
class Splat:
    title: str  # the first line, prefix stripped
    text: str   # the whole splat

    def __str__(self) -> str:
        return self.text


def _strip(line: str) -> str:
    return re.sub(r"^(?:<\d+>)?(?:\[[^\]]*\]\s*)*", "", line).strip()


def scan_log(text: str) -> list[Splat]:
    """The splats in `text`, in order."""
    splats: list[Splat] = []
    title, start = "", 0  # the current splat's title and header's index
    current: list[str] | None = None  # lines of the splat being collected
    recent: list[str] = []  # the last lines outside any splat
    in_benign = False

    def close() -> None:
        nonlocal current
        if current:
            splats.append(Splat(title, "\n".join(current)))
        current = None

    for line in text.splitlines():
        if _SPLAT.match(line) and current is not None and len(current) - start < CONTINUATION:
            current.append(line)
        elif _SPLAT.match(line):
            close()
            cut = [i for i, r in enumerate(recent) if _CUT.search(r)]
            title, current = _strip(line), (recent[cut[-1]:] if cut else []) + [line]
            start = len(current) - 1
            recent, in_benign = [], False
        elif _BENIGN.match(line):
            close()
            in_benign = True
        elif _TRACE.match(line) and current is None and not in_benign:
            title, current, start = "Call Trace without a known header", [line], 0
        elif current is not None:
            current.append(line)
            if _END.search(line) or len(current) >= MAX_LINES:
                close()
        else:
            recent = (recent + [line])[-CUT_LOOKBACK:]
    close()
    return splats
