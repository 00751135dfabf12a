"""The scenario probes: questions asked after a scenario's last session, checked on what the
product presents (the rendered context and the top search hit), in several modes.

The top search hit is held to more than the context: it must not state a stale value at all
(unless it states a current one too), marked or not, since it is what an agent answers from.

A probe (:class:`~.scenario_data.Probe`) names the values that must be presented as current, the
values that were superseded or retracted, and another user's values. The checks are about what a
reader of the context would believe, so they work on text: values are compared after case and
accent folding, as whole words. A line that states a stale value is fine when it also states a
current one ("I moved from Acme to Globex") or carries the outdated mark the context puts on
memories that a later fact replaced.

Modes: with and without a consolidation run after the last session, and on two clocks: the real
one (the scenarios are dated in the past, so everything is months or years old) and the day after
the scenario's last turn (everything recent).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from typing import TYPE_CHECKING

from ..adapters.clock import FakeClock
from ..domain.model import parse_time
from ..domain.text import fold
from ..ports import Clock
from .scenario_data import Probe, Scenario

if TYPE_CHECKING:
    from ..client import Memory

__all__ = ["MODES", "OUTDATED_MARK", "Mode", "clock_for", "probe_checks", "states"]

PROBE_THREAD = "scenario-probe"
"""A new thread: the probes are asked in a fresh conversation, as a user coming back would."""

try:  # the mark the context puts on a memory a later fact replaced
    from ..domain.validity import OUTDATED_MARK
except ImportError:  # pragma: no cover - before validity marks existed
    OUTDATED_MARK = "earlier; since"


@dataclass(frozen=True)
class Mode:
    name: str
    consolidate: bool
    next_day: bool  # the clock stands on the day after the last turn; else the real clock


MODES: tuple[Mode, ...] = (
    Mode("real-clock", consolidate=False, next_day=False),
    Mode("next-day", consolidate=False, next_day=True),
    Mode("real-clock+consolidation", consolidate=True, next_day=False),
    Mode("next-day+consolidation", consolidate=True, next_day=True),
)


def clock_for(mode: Mode, scenario: Scenario) -> Clock | None:
    """None (the real clock) or a clock standing on the day after the scenario's last turn."""
    if not mode.next_day:
        return None
    last = max(parse_time(t.at) for s in scenario.sessions for t in s.turns)
    return FakeClock(last + timedelta(days=1))


@lru_cache(maxsize=4096)
def _pattern(value: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(fold(value))}(?!\w)")


def states(text: str, values: tuple[str, ...]) -> list[str]:
    """The values ``text`` states, as whole words after folding."""
    folded = fold(text)
    return [v for v in values if _pattern(v).search(folded)]


def _presents_stale(line: str, probe: Probe) -> list[str]:
    stale = states(line, probe.stale)
    if not stale or OUTDATED_MARK in line or states(line, probe.current):
        return []
    return stale


def probe_checks(mem: Memory, scenario: Scenario, user_id: str) -> list[tuple[int, str]]:
    """(probe index, what failed) for every failed check of every probe of ``scenario``."""
    failures: list[tuple[int, str]] = []
    for n, probe in enumerate(scenario.probes):
        label = f"{probe.query!r}"
        context = mem.recall(user_id, PROBE_THREAD, probe.query).context
        if probe.current and not states(context, probe.current):
            failures.append((n, f"{label}: the context has none of {list(probe.current)}"))
        for line in context.splitlines():
            stale = _presents_stale(line, probe)
            if stale:
                failures.append((n, f"{label}: context presents {stale} as current: {line.strip()[:160]!r}"))
        foreign = states(context, probe.foreign)
        if foreign:
            failures.append((n, f"{label}: the context shows another user's {foreign}"))
        hits = mem.search(user_id, probe.query).hits
        if hits:  # strict: even marked as outdated, a stale value is not the answer to lead with
            top = hits[0].memory.content
            stale = [] if states(top, probe.current) else states(top, probe.stale)
            if stale:
                failures.append((n, f"{label}: the top hit states {stale}: {top[:160]!r}"))
        foreign = sorted({v for h in hits for v in states(h.memory.content, probe.foreign)})
        if foreign:
            failures.append((n, f"{label}: search returns another user's {foreign}"))
    return failures
