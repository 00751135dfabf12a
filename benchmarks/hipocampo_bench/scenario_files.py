"""Scenario and chat files: one JSON file per conversation, read into the frozen dataclasses of
:mod:`.scenario_model`.

The data lives in files, not in Python, so that writing a scenario needs no code and no reviewer
has to read the harness to add one; the format is in ``benchmarks/data/scenarios/README.md``. The
file is checked against a strict schema (unknown keys, wrong roles and malformed times are errors
naming the file), so a typo fails loudly instead of quietly expecting nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from .scenario_model import SPLITS, Change, Event, Fact, Mention, Probe, Retraction, Scenario, Session, Turn

DATA = Path(__file__).resolve().parent.parent / "data"
"""``benchmarks/data``: the package is installed editable (``pip install -e benchmarks``), next to it."""
SCENARIOS_DIR = DATA / "scenarios"
REALISTIC_DIR = DATA / "realistic"
LANGUAGES = ("en", "pt", "pt-pt", "mixed")
ROLES = {"u": "user", "a": "assistant"}

Day = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}$")]
HourMinute = Annotated[str, StringConstraints(pattern=r"^([01]\d|2[0-3]):[0-5]\d$")]
Text = Annotated[str, StringConstraints(min_length=1)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Session(_Strict):
    thread_id: Text
    day: Day
    turns: list[tuple[HourMinute, Literal["u", "a"], Text]] = Field(min_length=1)


class _Fact(_Strict):
    type: Literal["user_profile", "preference", "goal", "constraint", "critical_info", "entity"]
    key: Text
    value: Text


class _Change(_Strict):
    key: Text
    old: Text
    new: Text


class _Retraction(_Strict):
    key: Text
    value: Text


class _Mention(_Strict):
    key: Text
    value: Text
    count: int = Field(ge=1)


class _Event(_Strict):
    day: Day
    key: Text | None = None
    value: Text | None = None
    text: Text | None = None


class _Probe(_Strict):
    query: Text
    current: list[Text] = []
    stale: list[Text] = []
    foreign: list[Text] = []


class _Scenario(_Strict):
    name: Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]+$")]
    language: Literal["en", "pt", "pt-pt", "mixed"]
    split: Text
    summary: Text
    sessions: list[_Session] = Field(min_length=1)
    facts: list[_Fact] = []
    superseded: list[_Change] = []
    retracted: list[_Retraction] = []
    mentions: list[_Mention] = []
    events: list[_Event] = []
    allowed: list[_Fact] = []
    probes: list[_Probe] = []
    other_user: list[_Session] = []


def _session(s: _Session) -> Session:
    return Session(s.thread_id, tuple(Turn(ROLES[who], f"{s.day}T{hhmm}:00Z", text) for hhmm, who, text in s.turns))


def _fact(f: _Fact) -> Fact:
    return Fact(f.type, f.key, f.value)


def _event(e: _Event) -> Event:
    if (e.key is None) == (e.text is None):
        raise ValueError(f"an event names a fact's key or a turn's text, not both or neither: {e}")
    return Event(e.day, key=e.key, value=e.value, text=e.text)


def parse_scenario(doc: object) -> Scenario:
    """One scenario from its decoded JSON; ValueError (pydantic's, naming the field) if malformed."""
    s = _Scenario.model_validate(doc)
    return Scenario(
        name=s.name,
        language=s.language,
        summary=s.summary,
        sessions=tuple(_session(x) for x in s.sessions),
        facts=tuple(_fact(f) for f in s.facts),
        superseded=tuple(Change(c.key, c.old, c.new) for c in s.superseded),
        retracted=tuple(Retraction(r.key, r.value) for r in s.retracted),
        mentions=tuple(Mention(m.key, m.value, m.count) for m in s.mentions),
        events=tuple(_event(e) for e in s.events),
        probes=tuple(Probe(p.query, tuple(p.current), tuple(p.stale), tuple(p.foreign)) for p in s.probes),
        allowed=tuple(_fact(f) for f in s.allowed),
        other_user=tuple(_session(x) for x in s.other_user),
        split=s.split,
    )


def load_file(path: Path) -> Scenario:
    try:
        return parse_scenario(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, ValidationError) as exc:  # JSONDecodeError is a ValueError
        raise ValueError(f"{path}: {exc}") from None


def load_dir(folder: Path) -> tuple[Scenario, ...]:
    """Every ``*.json`` in ``folder``, by file name; none when the folder does not exist."""
    return tuple(load_file(p) for p in sorted(folder.glob("*.json"))) if folder.is_dir() else ()


def load_scenarios(root: Path = SCENARIOS_DIR) -> tuple[Scenario, ...]:
    """The fact-lifecycle scenarios, split by split (:data:`~.scenario_model.SPLITS`), each from
    the folder named after it; a split whose folder is missing or empty is simply absent."""
    return tuple(s for split in SPLITS for s in load_dir(root / split))


def load_realistic(folder: Path = REALISTIC_DIR) -> tuple[Scenario, ...]:
    """The realistic chats (recall on colloquial, mixed-language chat)."""
    return load_dir(folder)
