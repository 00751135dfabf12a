"""The scenario probes: questions asked after a scenario's last session, checked on what the
product presents (the rendered context and the top search hit), in several modes.

The top search hit is held to more than the context: it must not state a stale value at all
(unless it states a current one too), marked or not, since it is what an agent answers from.
A line or hit said on or after the day the product closed the stale value's fact is not held to
this: it states the change itself, or speaks of the past.

A probe (:class:`~.scenario_model.Probe`) names the values that must be presented as current, the
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
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING

from hipocampo.adapters.clock import FakeClock
from hipocampo.domain.model import parse_time
from hipocampo.domain.text import fold
from hipocampo.domain.truth.reconcile import FACT_VALUE
from hipocampo.domain.truth.validity import OUTDATED_MARK, UPDATED_SINCE
from hipocampo.ports import Clock

from .scenario_model import Probe, Scenario

if TYPE_CHECKING:
    from hipocampo import Memory

__all__ = ["MODES", "OUTDATED_MARK", "Mode", "ProbeOutcome", "check_probe", "clock_for", "probe_checks", "states"]

PROBE_THREAD = "scenario-probe"
"""A new thread: the probes are asked in a fresh conversation, as a user coming back would."""


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
    if not stale or OUTDATED_MARK in line or UPDATED_SINCE in line or states(line, probe.current):
        return []
    return stale


_HEADER_DAY = re.compile(r"^###.*?(\d{1,2} \w+ \d{4})\s*$")
_RECENT_DAY = re.compile(r"^- \[(\d{4}-\d{2}-\d{2})")


def _line_days(context: str) -> list[tuple[str, date | None]]:
    """Each line of the context with the day it was said, when the context says it (the group
    header above a memory, or the stamp of a recent message)."""
    out: list[tuple[str, date | None]] = []
    day: date | None = None
    for line in context.splitlines():
        if line.startswith("#"):
            m = _HEADER_DAY.match(line)
            day = datetime.strptime(m.group(1), "%d %B %Y").date() if m else None
            continue  # headers name threads and days, never a value
        m = _RECENT_DAY.match(line)
        out.append((line, date.fromisoformat(m.group(1)) if m else day))
    return out


def _closures(mem: Memory, user_id: str, values: tuple[str, ...]) -> dict[str, date]:
    """For each stale value, the day the product closed the fact that held it (superseded or
    retracted). Lines said on or after that day state the change itself ("we don't have Nugget
    anymore") or speak of the past, and are not presenting the value as current."""
    out: dict[str, date] = {}
    for f in mem.list(user_id, kind="fact", limit=1000):
        if f.valid_to is None:
            continue
        for v in states(f"{f.content} {f.metadata.get(FACT_VALUE) or ''}", values):
            day = f.valid_to.date()
            out[v] = min(out.get(v, day), day)
    return out


def _after_closure(stale: list[str], said: date | None, closures: dict[str, date]) -> bool:
    return said is not None and all(v in closures and said >= closures[v] for v in stale)


@dataclass(frozen=True)
class ProbeOutcome:
    """What the product presented for one probe, and every way it fell short (see the module
    docstring); :func:`probe_checks` turns it into failure lines, the realistic benchmark into
    per-check counts."""

    query: str
    current: tuple[str, ...]
    context: str
    context_tokens: int
    memories: int  # hits the context shows (zero: an empty memory section)
    top_hit: str | None
    answer_in_context: bool  # some ``current`` value, or the probe expects none
    top_hit_answers: bool  # the top search hit states a ``current`` value (or none is expected)
    stale_lines: tuple[tuple[tuple[str, ...], str], ...]  # (stale values, line) presented as current
    top_hit_stale: tuple[str, ...]  # stale values the top hit states without a current one
    foreign_in_context: tuple[str, ...]
    foreign_in_search: tuple[str, ...]

    def failures(self) -> list[str]:
        """The failed checks, one line each, in the order they are checked."""
        label = f"{self.query!r}"
        out: list[str] = []
        if not self.answer_in_context:
            out.append(f"{label}: the context has none of {list(self.current)}")
        out += [f"{label}: context presents {list(stale)} as current: {line!r}" for stale, line in self.stale_lines]
        if self.foreign_in_context:
            out.append(f"{label}: the context shows another user's {list(self.foreign_in_context)}")
        if self.top_hit_stale:
            out.append(f"{label}: the top hit states {list(self.top_hit_stale)}: {(self.top_hit or '')[:160]!r}")
        if self.foreign_in_search:
            out.append(f"{label}: search returns another user's {list(self.foreign_in_search)}")
        return out


def check_probe(mem: Memory, user_id: str, probe: Probe) -> ProbeOutcome:
    """Ask ``probe`` in a new thread (recall) and of search, and check what came back."""
    closures = _closures(mem, user_id, probe.stale) if probe.stale else {}
    recalled = mem.recall(user_id, PROBE_THREAD, probe.query)
    context = recalled.context
    stale_lines = []
    for line, said in _line_days(context):
        stale = _presents_stale(line, probe)
        if stale and not _after_closure(stale, said, closures):
            stale_lines.append((tuple(stale), line.strip()[:160]))
    hits = mem.search(user_id, probe.query).hits
    top = hits[0].memory if hits else None
    top_stale: list[str] = []
    if top is not None:  # strict: even marked as outdated, a stale value is not the answer to lead with
        top_stale = [] if states(top.content, probe.current) else states(top.content, probe.stale)
        if top_stale and _after_closure(top_stale, top.created_at.date(), closures):
            top_stale = []
    return ProbeOutcome(
        query=probe.query,
        current=probe.current,
        context=context,
        context_tokens=recalled.context_tokens,
        memories=len(recalled.memories),
        top_hit=None if top is None else top.content,
        answer_in_context=not probe.current or bool(states(context, probe.current)),
        top_hit_answers=not probe.current or (top is not None and bool(states(top.content, probe.current))),
        stale_lines=tuple(stale_lines),
        top_hit_stale=tuple(top_stale),
        foreign_in_context=tuple(states(context, probe.foreign)),
        foreign_in_search=tuple(sorted({v for h in hits for v in states(h.memory.content, probe.foreign)})),
    )


def probe_checks(mem: Memory, scenario: Scenario, user_id: str) -> list[tuple[int, str]]:
    """(probe index, what failed) for every failed check of every probe of ``scenario``."""
    return [(n, why) for n, probe in enumerate(scenario.probes) for why in check_probe(mem, user_id, probe).failures()]
