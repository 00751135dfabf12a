"""What a consolidated memory says: title, period, current facts, recurring patterns, evolution.

Offline, the text is assembled from the members' own words by fixed rules; with a chat model,
the model writes it in the same shape from the same material, and the rules' text stands in if
the call fails. Either way:

* filler ("Entendi.", "Que bom, Marcos!") is never a fact nor a title word;
* "Facts" lists what holds now, from the fact store only: the cluster's current facts and the
  current facts its turns stated; a turn is never a fact, and one whose fact was superseded or
  retracted ("Moro em São Paulo") is not even a moment;
* "Moments" lists a few dated things the user said, apart from the facts;
* superseded values go under "Evolution", old → new, each with the day it was stated, and a
  goal or plan taken back ends its line with "→ retracted (day)" instead of being a fact;
* the title is the cluster's most shared salient words, never a speaker's name.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from pydantic import BaseModel, Field

from ..domain.lang import LANGUAGES
from ..domain.model import MemoryItem, MemoryKind, Role, Scope, content_hash
from ..domain.summaries.salience import is_filler, salient_words
from ..domain.text import analyze, detect_language, fold, names_in
from ..domain.truth.reconcile import FACT_VALUE
from ..ports import ChatModel

log = logging.getLogger(__name__)

IMPORTANCE = 0.8
MAX_FACTS = 5
MAX_MOMENTS = 3
MAX_FACT_CHARS = 200
MAX_PATTERNS = 8
TITLE_TERMS = 3
LLM_MEMBERS = 30  # member texts shown to the model
LLM_MEMBER_CHARS = 300

GENERIC: frozenset[str] = frozenset().union(*(lang.phrases.GENERIC for lang in LANGUAGES.values()))
"""Words too general to say two memories share a topic. "usuário"/"user" is the subject of every
fact sentence ("O usuário mora em Lisboa."): shared by all facts, it would link work and fitness.
Each language lists its own (``domain/lang/<code>/phrases.py``)."""

TOPICS: dict[str, tuple[str, ...]] = {
    topic: tuple(w for lang in LANGUAGES.values() for w in lang.phrases.TOPICS.get(topic, ()))
    for topic in dict.fromkeys(t for lang in LANGUAGES.values() for t in lang.phrases.TOPICS)
}
"""Word beginnings of a few everyday topics (as memory products commonly list them): two memories with words of
the same topic share it even without sharing a word ("chefe", "reunião"); every language's, merged."""

LLM_SYSTEM = (
    "You consolidate an assistant's long-term memories about one user on one topic. From the memories "
    "given, write: a short title (2-4 topic words, no greetings, no names of speakers); the facts that hold "
    "now (only the current facts given, never a superseded value, never a turn quoted, never small talk); "
    "recurring patterns (habits, feelings, themes that "
    "come back); the evolution (what changed: old -> new, with dates). Never invent anything. Write in "
    "the language of the memories."
)


class ConsolidatedOut(BaseModel):
    """The model's consolidated memory; the period is added from the members' dates."""

    title: str = Field(description="2-4 topic words")
    facts: list[str] = Field(default_factory=list, description="facts that hold now, one per item")
    patterns: list[str] = Field(default_factory=list, description="recurring patterns, one per item")
    evolution: list[str] = Field(default_factory=list, description="changes, 'old -> new (date)', one per item")


@dataclass
class Context:
    """What the drafts need beyond their members."""

    speakers: frozenset[str] = frozenset()  # folded speaker names: never topic words
    superseded_sources: frozenset[str] = frozenset()  # messages that stated a superseded fact
    fact_sources: frozenset[str] = frozenset()  # messages that stated a current fact
    evolution: dict[str, list[str]] = field(default_factory=dict)  # member id -> evolution lines
    stale_words: frozenset[str] = frozenset()  # folded words of superseded values: never a title or pattern
    stated: dict[str, list[MemoryItem]] = field(default_factory=dict)  # message id -> current facts it stated


def speakers_of(items: Sequence[MemoryItem]) -> frozenset[str]:
    """The people talking, folded: the turns' speakers, and the user's own name where a fact
    states it ("O nome do usuário é Marcos."), which would otherwise title every cluster."""
    named = {m.name for m in items if m.name}
    named |= {str(m.metadata.get(FACT_VALUE)) for m in items if m.kind is MemoryKind.FACT and m.key == "name"}
    return frozenset(fold(w) for n in named for w in n.split())


def eligible_text(m: MemoryItem) -> bool:
    """Worth clustering: not filler, and not a system or tool turn."""
    return not (m.kind is MemoryKind.TURN and (m.role in (Role.SYSTEM, Role.TOOL) or is_filler(m.content)))


def topic_terms(items: Sequence[MemoryItem], speakers: frozenset[str]) -> list[frozenset[str]]:
    """Per memory, the stems of its salient words and its topic tags (``#work``), without the words
    that more than half of a varied set use (a user's own name, "trabalho" for a workaholic)."""
    language = detect_language(" ".join(m.content for m in items[:200]))
    raw: list[set[str]] = []
    for m in items:
        names = frozenset(fold(n) for n in names_in(m.content)) & speakers
        found = [w for w in salient_words(m.content, ignore=speakers | names) if w not in GENERIC]
        stems = set(analyze(" ".join(found), language)) if found else set()
        stems |= {f"#{topic}" for topic, starts in TOPICS.items() if any(w.startswith(starts) for w in found)}
        raw.append(stems)
    if len(items) >= 6:
        df = Counter(t for ts in raw for t in ts if not t.startswith("#"))
        common = {t for t, n in df.items() if n > len(items) / 2}
        raw = [ts - common for ts in raw]
    return [frozenset(ts) for ts in raw]


def consolidated_id(scope: Scope, member_ids: Sequence[str]) -> str:
    """Derived from the user and the sorted member ids: the same cluster gets the same id."""
    key = "\x1f".join([scope.tenant_id, scope.user_id, *sorted(member_ids)])
    return "consolidated_" + content_hash(key)[:32]


def draft(scope: Scope, members: list[MemoryItem], ctx: Context, now: datetime) -> MemoryItem:
    """The rules' consolidated memory of ``members`` (oldest first)."""
    start = min(m.created_at for m in members)
    newest = max(members, key=lambda m: m.created_at)
    # A superseded value ("Acme" after the move to Globex) is history: it belongs under Evolution,
    # never in the title or the recurring patterns, which read as what holds.
    terms = _terms(members, ctx.speakers | ctx.stale_words)
    title = " · ".join(t for t, _ in terms[:TITLE_TERMS]) or _fallback_title(members)
    half = (len(members) + 1) // 2
    patterns = [t for t, df in terms if df >= half and df > 1][:MAX_PATTERNS]
    changes = list(dict.fromkeys(line for m in members for line in ctx.evolution.get(m.id, ())))
    listed = facts(members, ctx)
    text = render(
        title,
        _period(start, newest.created_at, len(members)),
        listed,
        ["Recurring: " + ", ".join(patterns)] if patterns else [],
        changes,
        patterns_inline=True,
        moment_lines=moments(members, ctx, listed),
    )
    ids = sorted(m.id for m in members)
    return MemoryItem(
        id=consolidated_id(scope, ids),
        scope=scope,
        kind=MemoryKind.CONSOLIDATED,
        content=text,
        created_at=newest.created_at,
        importance=IMPORTANCE,
        source_message_ids=list(dict.fromkeys(s for m in members for s in m.source_message_ids)),
        metadata={
            "title": title,
            "member_ids": ids,
            "period_start": start.isoformat(),
            "period_end": newest.created_at.isoformat(),
            "cluster_size": len(members),
            "writer": "rules",
            "basis": content_hash(text)[:16],
        },
        updated_at=now,
    )


def render(
    title: str,
    period: str,
    fact_lines: Sequence[str],
    patterns: Sequence[str],
    evolution: Sequence[str],
    *,
    patterns_inline: bool = False,
    moment_lines: Sequence[str] = (),
) -> str:
    """Title, period, then its sections: "Facts:" (what holds now), "Moments:" (what was said, and
    when), the recurring patterns, "Evolution:" (what changed); an empty section is left out."""
    lines = [title, period]
    if fact_lines:
        lines += ["Facts:", *(f"- {f}" for f in fact_lines)]
    if moment_lines:
        lines += ["Moments:", *(f"- {m}" for m in moment_lines)]
    if patterns_inline:
        lines += patterns
    elif patterns:
        lines += ["Recurring:", *(f"- {p}" for p in patterns)]
    if evolution:
        lines += ["Evolution:", *(f"- {e}" for e in evolution)]
    return "\n".join(lines)


def _period(start: datetime, end: datetime, n: int) -> str:
    return f"from {start:%Y-%m-%d} to {end:%Y-%m-%d} ({n} memories)"


def _fallback_title(members: list[MemoryItem]) -> str:
    tags = Counter(t for m in members for t in TOPICS if any(w.startswith(TOPICS[t]) for w in salient_words(m.content)))
    return tags.most_common(1)[0][0] if tags else "memories"


def _terms(members: list[MemoryItem], speakers: frozenset[str]) -> list[tuple[str, int]]:
    """Salient words and names by how many members use them (then how often, then first use);
    never filler, never a speaker's name. A word shows capitalised when it is only ever written
    so (a name), else in lower case."""
    df: Counter[str] = Counter()
    tf: Counter[str] = Counter()
    first: dict[str, int] = {}
    capitalised: dict[str, str] = {}
    lowered: set[str] = set()
    for m in members:
        words = [w for w in salient_words(m.content, ignore=speakers) if w not in GENERIC]
        for w in words:
            first.setdefault(w, len(first))
        tf.update(words)
        df.update(set(words))
        for name in names_in(m.content):
            capitalised.setdefault(fold(name), name)
        lowered |= {fold(t) for t in m.content.split() if t.isalpha() and t.islower()}
    order = sorted(df, key=lambda t: (-df[t], -tf[t], first[t]))
    return [(capitalised[t] if t in capitalised and t not in lowered else t, df[t]) for t in order]


def facts(members: list[MemoryItem], ctx: Context) -> list[str]:
    """Up to ``MAX_FACTS`` current facts of the cluster, read from the fact store: its members that
    are facts, and the facts its turns stated that still hold (a superseded or retracted one never);
    by importance, mentions, then age. Never a turn: "I've been thinking about a half marathon" is
    what was said, not what holds, and the fact store knows whether it still does."""
    found: dict[str, MemoryItem] = {}
    for m in members:
        if m.kind is MemoryKind.FACT and m.valid_to is None:
            found.setdefault(m.id, m)
        elif m.kind is MemoryKind.TURN:
            for s in m.source_message_ids:
                for f in ctx.stated.get(s, ()):
                    found.setdefault(f.id, f)
    out: list[str] = []
    seen: set[str] = set()
    # Ties break on what the fact says before its id: ids are random, so two builds of the same
    # history would otherwise list the facts of one batch in different orders.
    order = sorted(
        found.values(), key=lambda f: (-f.importance, -f.mention_count, f.created_at, f.key or "", f.content, f.id)
    )
    for f in order:
        text = _clip(" ".join(f.content.split()))
        if fold(text) not in seen:
            seen.add(fold(text))
            out.append(text)
        if len(out) == MAX_FACTS:
            break
    return out


def moments(members: list[MemoryItem], ctx: Context, listed: Sequence[str] = ()) -> list[str]:
    """The newest ``MAX_MOMENTS`` things the user said in the cluster, dated, oldest first: what
    happened, shown as said and when ("[2023-05-03] Bia: Eu e a Ana pintamos o apartamento"),
    apart from the facts. Never filler, nor the assistant, nor a statement superseded or taken
    back since, nor one whose fact is listed already."""
    out: list[tuple[datetime, str]] = []
    seen = {fold(t) for t in listed}
    for m in sorted(members, key=lambda m: (m.created_at, m.seq or 0), reverse=True):
        if m.kind is not MemoryKind.TURN or m.role is Role.ASSISTANT or is_filler(m.content):
            continue
        sources = set(m.source_message_ids)
        if sources & ctx.superseded_sources or any(ctx.stated.get(s) for s in sources):
            continue
        text = _clip(" ".join(m.content.split()))
        if fold(text) in seen:
            continue
        seen.add(fold(text))
        who = f"{m.name}: " if m.name else ""
        out.append((m.created_at, f"[{m.created_at:%Y-%m-%d}] {who}{text}"))
        if len(out) == MAX_MOMENTS:
            break
    return [line for _, line in sorted(out, key=lambda x: x[0])]


def _clip(text: str) -> str:
    return text if len(text) <= MAX_FACT_CHARS else text[: MAX_FACT_CHARS - 1].rstrip() + "…"


async def write_with_llm(llm: ChatModel, rules: MemoryItem, members: list[MemoryItem], ctx: Context) -> MemoryItem:
    """The model's consolidated memory in the same shape (title, period, facts, recurring patterns,
    evolution); ``rules`` (the offline draft) if the model fails or says nothing."""
    start, end = rules.metadata["period_start"][:10], rules.metadata["period_end"][:10]
    shown = [m for m in members if not (m.kind is MemoryKind.TURN and is_filler(m.content))][:LLM_MEMBERS]
    listing = "\n".join(
        f"[{m.created_at:%Y-%m-%d}] ({_label(m, ctx)}) {' '.join(m.content.split())[:LLM_MEMBER_CHARS]}" for m in shown
    )
    changes = [line for m in members for line in ctx.evolution.get(m.id, ())]
    current = facts(members, ctx)
    prompt = (
        f"Period: {start} to {end}\n\nMemories:\n{listing}\n\n"
        + ("Current facts (from the fact store):\n" + "\n".join(f"- {f}" for f in current) + "\n\n" if current else "")
        + (
            "Known changes (old -> new):\n" + "\n".join(f"- {c}" for c in dict.fromkeys(changes)) + "\n\n"
            if changes
            else ""
        )
        + "Consolidate them."
    )
    try:
        out = await llm.complete(LLM_SYSTEM, prompt, schema=ConsolidatedOut)
        if not isinstance(out, ConsolidatedOut) or not out.title.strip() or not (out.facts or out.patterns):
            raise ValueError("the model returned no consolidated memory")
    except Exception as exc:  # any provider error: the rules' text stands in
        log.warning("LLM consolidation failed, using the rules' text: %s: %s", type(exc).__name__, exc)
        return rules
    title = " ".join(out.title.split())
    text = render(
        title,
        _period(
            datetime.fromisoformat(rules.metadata["period_start"]),
            datetime.fromisoformat(rules.metadata["period_end"]),
            len(members),
        ),
        [" ".join(f.split()) for f in out.facts if f.strip()],
        [" ".join(p.split()) for p in out.patterns if p.strip()],
        [" ".join(e.split()) for e in out.evolution if e.strip()] or list(dict.fromkeys(changes)),
    )
    return replace(rules, content=text, metadata={**rules.metadata, "title": title, "writer": "llm"})


def _label(m: MemoryItem, ctx: Context) -> str:
    if m.kind is MemoryKind.FACT:
        return "current fact"
    if set(m.source_message_ids) & ctx.superseded_sources:
        return "said before a change"
    return f"{m.name or (m.role.value if m.role else m.kind.value)} said"
