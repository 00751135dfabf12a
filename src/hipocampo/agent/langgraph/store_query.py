"""Matching rules of LangGraph's stores, as pure functions: namespace prefixes, match conditions
with ``*`` wildcards, and value filters with ``$eq``/``$ne``/``$gt``/``$gte``/``$lt``/``$lte``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def has_prefix(namespace: Sequence[str], prefix: Sequence[str]) -> bool:
    return tuple(namespace[: len(prefix)]) == tuple(prefix)


def condition_matches(condition: Any, namespace: tuple[str, ...]) -> bool:
    """A ``MatchCondition`` (``match_type`` "prefix" or "suffix", ``path`` with ``*`` wildcards)."""
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        pairs = zip(namespace[: len(path)], path, strict=True)
    elif condition.match_type == "suffix":
        pairs = zip(namespace[::-1][: len(path)], path[::-1], strict=True)
    else:
        raise ValueError(f"Unsupported match type: {condition.match_type}")
    return all(p == "*" or n == p for n, p in pairs)


def matches(value: dict[str, Any], filter: dict[str, Any] | None) -> bool:
    """Whether a stored value passes a search filter (every key must match)."""
    return not filter or all(_compare(value.get(k), v) for k, v in filter.items())


def _compare(actual: Any, wanted: Any) -> bool:
    if isinstance(wanted, dict):
        if any(k.startswith("$") for k in wanted):
            return all(_operator(actual, op, operand) for op, operand in wanted.items())
        return isinstance(actual, dict) and all(_compare(actual.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, (list, tuple)):
        return (
            isinstance(actual, (list, tuple))
            and len(actual) == len(wanted)
            and all(_compare(a, w) for a, w in zip(actual, wanted, strict=True))
        )
    return actual == wanted


def _operator(actual: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return actual == operand
    if op == "$ne":
        return actual != operand
    if op in ("$gt", "$gte", "$lt", "$lte"):
        try:
            a, b = float(actual), float(operand)
        except (TypeError, ValueError):
            return False  # a missing or non-numeric field does not pass a comparison
        return {"$gt": a > b, "$gte": a >= b, "$lt": a < b, "$lte": a <= b}[op]
    raise ValueError(f"Unsupported operator: {op}")
