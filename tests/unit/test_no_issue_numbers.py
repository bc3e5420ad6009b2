# SPDX-License-Identifier: GPL-2.0
"""Code, tests and docs name no tracker issue numbers.

A reader of the repository has no tracker: a sentence that points at an
issue by its number tells that reader nothing, so each says what the thing
is (the feature, the goal, the comparison) instead.  Every text file git
tracks is read; a line that names an issue by number (the word issue or
issues, then a number, "#" allowed before it) or a parenthesised "#"
number fails, named by file and line.

Not references: a count of I/Os after the verb ("issues" then a number of
reads, writes, I/Os, bios, ...) and a ratio ("issue 3:1", in
kmod/kiobench_kunit.c).  Mutation: a line naming an issue by number added
to Documentation/kiobench.rst: red, naming its file and line.
"""
import re
import subprocess

import pytest

from kbunit import REPO

IO_NOUNS = r"(?:reads?|writes?|I/Os?|ios|bios?|requests?|commands?|trims?|flushes|ops?)"
TRACKER = re.compile(r"\b[Ii]ssues?\s+#?\d+\b(?!:\d|\s+" + IO_NOUNS + r"\b)|\(#\d+\)")


def tracked_text_files() -> list[str]:
    r = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z"], capture_output=True)
    if r.returncode != 0:
        pytest.skip(f"{REPO} is not a git checkout (git ls-files: {r.stderr.decode().strip()}):"
                    " no list of tracked files to read")
    return [f for f in r.stdout.decode().split("\0") if f]


def test_pattern_tells_references_from_counts_and_ratios():
    """The pattern itself: what it must catch and what it must let be."""
    # the numbers in braces: this file names no issue itself
    for ref in (f"(issue {26}: fio's t/io_uring)", f"issue {22}'s zone write locking",
                f"the tests of issues {22}-24", f"Issue #{7}", f"fixed (#{12})"):
        assert TRACKER.search(ref), ref
    for not_ref in ("issue 3:1 (the group's count", "issues 150 reads and 150 writes",
                    "Oops: 0000 [#1] PREEMPT", "6.12.117-kiobench-debug #1", "issue_ns",
                    "the driver's issue, 0: not seen"):
        assert not TRACKER.search(not_ref), not_ref


def test_no_tracker_issue_numbers():
    """No tracked text file names a tracker issue by its number."""
    found = []
    for name in tracked_text_files():
        path = REPO / name
        if path.is_symlink() or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue  # binary (images)
        text = data.decode("utf-8", errors="replace")
        for n, line in enumerate(text.splitlines(), 1):
            if TRACKER.search(line):
                found.append(f"{name}:{n}: {line.strip()}")
    assert not found, "issue numbers mean nothing without the tracker; say what the " \
                      "thing is:\n" + "\n".join(found)
