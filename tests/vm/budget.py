"""Time budgets of tests: what went over, shared by tests/conftest.py (per
pytest run) and tests/check (over all lanes).

`times` maps a test's id to {"budget": s, "call": s, ...}: the seconds of
each phase that ran, as tests/conftest.py records them."""
from __future__ import annotations


def over_budget(times: dict[str, dict]) -> list[tuple[str, float, float]]:
    """(id, call seconds, budget) of each test whose call phase went over
    its budget, the farthest over first."""
    return sorted(((name, t["call"], t["budget"]) for name, t in times.items()
                   if t.get("call", 0) > t["budget"]), key=lambda x: x[1] / x[2], reverse=True)
