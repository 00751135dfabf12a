"""The shapes of a scripted conversation and what is expected of it: frozen dataclasses built from
the JSON files under ``benchmarks/data/`` (:mod:`.scenario_files` reads them; the format is in
``benchmarks/data/scenarios/README.md``).

Each scenario is one user talking to an assistant over a few threads, days or weeks apart, with
every message time given; the expectations are what a careful reader expects a rule-based
extractor to get from the words alone.
"""

from __future__ import annotations

from dataclasses import dataclass

SPLITS = ("tuned", "earlier-blind", "never-tuned", "fresh-blind", "fresh-blind-2", "fresh-blind-3", "fresh-blind-4",
          "fresh-blind-5")  # fmt: skip
"""The scenario splits, reported apart:

- ``tuned``: written alongside the extraction rules, which were changed to pass them;
- ``earlier-blind``: written blind, by a contributor who had not read the rules; the rules have
  since been tuned on their failures, so they measure little more than the tuned ones;
- ``never-tuned``: written blind, before any rule change, and never used to change one (its
  missing facts were read once, on 2026-11-28: it is no longer quite blind);
- ``fresh-blind``: written blind on 2026-11-28, after the rest were read; measured after most
  rule changes of one round (tuned by selection), then read in the next: no longer blind;
- ``fresh-blind-2``: written blind on 2026-11-28 (eighth round), committed before any rule change
  was measured on it; measured blind for two rounds, read from the tenth;
- ``fresh-blind-3``: written blind on 2026-11-29 (tenth round), committed before any rule change
  was measured on it; measured blind for two rounds, read from the twelfth;
- ``fresh-blind-4``: written blind on 2026-11-29 (twelfth round), committed before any rule change
  was measured on it; measured, never read;
- ``fresh-blind-5``: written blind on 2026-11-29 (thirteenth round), committed before any rule
  change was measured on it; measured, never read.
"""
MEASURED = frozenset({"never-tuned", "fresh-blind", "fresh-blind-2", "fresh-blind-3", "fresh-blind-4", "fresh-blind-5"})
"""The splits only measured: the suite holds them to no floor and to no shape beyond the format,
since their blind writers chose what each scenario tests."""
REALISTIC = "realistic"
"""The split of the realistic chats (recall on colloquial chat, :mod:`.realistic`)."""

MEMORY_TYPES = ("user_profile", "preference", "goal", "constraint", "critical_info", "entity")


@dataclass(frozen=True)
class Turn:
    role: str  # "user" or "assistant"
    at: str  # ISO-8601, UTC
    content: str


@dataclass(frozen=True)
class Session:
    """One thread, written in one sitting."""

    thread_id: str
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Fact:
    """A fact expected to be current at the end: (memory type, key, value)."""

    memory_type: str
    key: str
    value: str


@dataclass(frozen=True)
class Change:
    """A fact expected to be superseded: the old value's memory closed, linked to the new one."""

    key: str
    old: str
    new: str


@dataclass(frozen=True)
class Retraction:
    """A fact the user took back: still stored, no longer current, with a DELETE entry."""

    key: str
    value: str


@dataclass(frozen=True)
class Mention:
    """A fact said ``count`` times in all, expected as one memory with that mention count."""

    key: str
    value: str
    count: int


@dataclass(frozen=True)
class Event:
    """A dated event: the current fact with ``key`` (and ``value``), or the turn containing ``text``,
    expected to carry ``day`` (ISO date) as its event start."""

    day: str
    key: str | None = None
    value: str | None = None
    text: str | None = None

    @property
    def label(self) -> str:
        return f"{self.key}={self.value}" if self.key and self.value else self.key or f"turn ~ {self.text!r}"


@dataclass(frozen=True)
class Probe:
    """A question asked after the last session, as the user would ask it.

    Checked on the rendered context (:meth:`Memory.recall` in a new thread) and on the search
    results: some value in ``current`` appears in the context; the top search hit does not state
    a ``stale`` value unless it also states a current one or is marked outdated; no context line
    states a ``stale`` value without the outdated mark (or a current value beside it); no value in
    ``foreign`` (another user's) appears anywhere. Values are compared after case and accent
    folding, as whole words.
    """

    query: str
    current: tuple[str, ...]
    stale: tuple[str, ...] = ()
    foreign: tuple[str, ...] = ()


@dataclass(frozen=True)
class Scenario:
    name: str
    language: str  # "en", "pt" (Brazilian Portuguese), "pt-pt" (European Portuguese) or "mixed"
    summary: str
    sessions: tuple[Session, ...]
    facts: tuple[Fact, ...]
    superseded: tuple[Change, ...] = ()
    retracted: tuple[Retraction, ...] = ()
    mentions: tuple[Mention, ...] = ()
    events: tuple[Event, ...] = ()
    probes: tuple[Probe, ...] = ()
    allowed: tuple[Fact, ...] = ()
    """Facts neither required nor counted against precision when extracted (a reasonable reading
    the scenario does not insist on)."""
    other_user: tuple[Session, ...] = ()
    """Sessions of a second user of the same tenant, written first: nothing of theirs may reach
    this user's context or search results (list their values in a probe's ``foreign``)."""
    split: str = "tuned"
    """Which set it belongs to, reported apart (:data:`SPLITS`)."""
