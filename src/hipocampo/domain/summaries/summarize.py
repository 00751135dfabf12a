"""Extractive thread summaries: keep the sentences an agent must not lose, within a token budget.

The offline default of the rolling thread summary. It copies sentences (trimmed of the
interjections that open them); it never writes new ones, except one line per fact update that
the caller hands in. That choice is deliberate:

* it needs no model, no network and no GPU, and two runs over the same turns give the same text;
* it cannot invent a fact: every line is something a speaker said, shown under the day it was
  said and with who said it, which is also what temporal questions ("when did Caroline...?") need::

      [2023-05-08]
      - Caroline: I went to a LGBTQ support group.
      - Melanie: I'm taking the kids camping next month.

* it is incremental: the lines of the previous summary compete with the sentences of the newly
  folded turns, with a small bonus, so a stable summary stays stable and its lines keep their
  own text.

A summary must be much shorter than what it folds: the caller's budget (see
:func:`fold_budget`) is a fraction of the folded turns' tokens, so only the best sentences fit.

An abstractive summary reads better; when an LLM is configured, ``services.summaries`` asks it
instead, through the same service, and falls back to this one if the call fails.

How sentences are chosen: each is scored by how central it is to the folded conversation (cosine
to the centroid of every candidate's embedding, or, without vectors, a TF-IDF term weight; a
turn's sentences share the vector the index already holds for the turn when there is one, so
folding re-embeds only what was never indexed),
plus bonuses for what an agent must not lose (names, numbers and dates, decisions and
commitments, preferences and constraints, changes, what speakers say about themselves) and
penalties for filler ("haha", "ok", "obrigado"), questions, praise addressed to the other
speaker ("You'll be an awesome mom!") and the assistant's own suggestions. Fact updates come
first. The best are taken greedily while the rendered text fits the budget, then shown in the
order they were said.

Numbers, dates, names and decisions of what the speakers said (:mod:`.details`) are a set to
cover, not only a bonus: a sentence is taken only if the details still unsaid keep room for their
fragments, the words around each (:mod:`.coverage`, "…total é de €300 … Rui, a Joana e o
Tiago…"); what even fragments cannot hold is counted on a last line, "(+3 details omitted)",
carried from fold to fold. The lines of an older summary that say a detail come before new ones.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from ..text import analyze, detect_language, fold
from .coverage import fragment_line, is_omitted_line, omitted_in, omitted_line, split_fragments, windows
from .details import Detail, decision_in, details_in, missing
from .salience import strip_leading_filler
from .signals import SENTENCE_BOUNDARY, Signals

SHORT_TURN_CHARS = 200
"""By default, texts up to this long are kept whole by :func:`split_sentences`."""
WHOLE_TURN_CHARS = 40
"""Turns up to this long stay one candidate: splitting "Yes! Saturday, at 3." loses its sense.
Longer ones are split, so a turn's pleasantries ("Hey Mel! Good to see you!") are not kept with
its news."""

MAX_SENTENCE_CHARS = 320
"""Longer sentences (pasted text, run-ons) are clipped, so one cannot eat the whole budget."""

CENTRALITY_WEIGHT = 0.4
"""Centrality ranges over [0, 1] (min-max scaled). It ranks sentences that carry none of the
signals below, but must not outweigh them: in a chat, small talk is what repeats most."""
PREVIOUS_BONUS = 0.15  # a line of the previous summary: stability across updates
QUESTION_PENALTY = 0.3  # a question says less than its answer, even one that names a preference
ASSISTANT_PENALTY = 0.2  # the assistant's suggestions matter less than what the user said
UPDATE_BONUS = 2.0  # a fact update handed in by the caller: always first in
DETAIL_BONUS = 0.05  # per number, date or name (up to four): each is something to keep
MAX_DETAIL_BONUSES = 4
PREVIOUS_DETAIL_BONUS = 1.0
"""A line of the previous summary that says a number, date or name: kept before any new line.
The budget grows with what is folded, so the old lines still fit; a rolling summary that let new
chat push them out would lose, fold after fold, the details it had kept."""
DECISION_WEIGHT = 3  # a decision fragment counts as this many details when fragments compete
CONTEXT_WORDS = 1  # content words kept each side of a detail in a fragment ("budget is $12,000")
FRAGMENT_SHARE = 1.0
"""At most this share of the budget is held back, while choosing sentences, for fragments of
the details they leave out (:mod:`.coverage`); beyond it, sentences win and the rest is counted.
The whole budget: on dense chats (a detail per turn) a half left a third of the details out."""
DUPLICATE_JACCARD = 0.8  # a candidate this close to a chosen line (in terms) adds nothing
MIN_FOLD_BUDGET = 60
""":func:`fold_budget` never goes below this: a few lines, so that a short thread keeps its one
decision even where a fraction of its tokens would be too small for any line."""


@dataclass(frozen=True)
class SummaryTurn:
    """One folded turn: who said what, and when; ``vector``: the turn's stored embedding, if any;
    ``role``: "user", "assistant"..."""

    speaker: str
    text: str
    when: datetime
    vector: np.ndarray | None = field(default=None, compare=False, repr=False)
    role: str = "user"


@dataclass(frozen=True)
class _Candidate:
    date: str | None  # YYYY-MM-DD: the day it was said (None: an undated line of an older summary)
    speaker: str
    text: str  # what is scored: the sentence, without date and speaker
    order: tuple[int, int]  # chronological position: (turn, sentence); previous lines come first
    previous: bool
    assistant: bool = False
    update: bool = False
    fragment: bool = False  # a fragment of an older summary's line of fragments (:mod:`.coverage`)

    @property
    def line(self) -> str:
        return f"- {self.speaker}: {self.text}" if self.speaker else f"- {self.text}"


def fold_budget(max_tokens: int, ratio: float, folded_tokens: int) -> int:
    """The token budget of a summary of turns that count ``folded_tokens`` in all (every fold so
    far, not just the last): ``ratio`` of them, at least :data:`MIN_FOLD_BUDGET`, at most
    ``max_tokens``."""
    return max(1, min(max_tokens, max(MIN_FOLD_BUDGET, math.ceil(ratio * folded_tokens))))


_DIGITS = re.compile(r"\d+")  # part of a sentence's identity: "meet at 3" is not "meet at 4"
_ABBREVIATION = re.compile(
    r"\b(?:[Dd]ra?|[Ss]ra?|[Ss]rta|M[rs]|Mrs|[Pp]rof|St|vs|etc|nº|[Jj]r|[Aa]v|e\.g|i\.e|[A-Z])\.$"
)
_HEADER = re.compile(r"^\[(\d{4}-\d{2}-\d{2})\]$")
_DATED_LINE = re.compile(r"^-\s*\[(\d{4}-\d{2}-\d{2})\]\s*")  # older summaries, and the LLM's lines
_UNDATED_LINE = re.compile(r"^-\s*(?:\[[^\]]*\]\s*)?")
_WHO = re.compile(r"^([^:\s]+(?: [^:\s]+){0,2}):\s+")
_SPACES = re.compile(r"\s+")


def split_sentences(text: str, *, whole_up_to: int = SHORT_TURN_CHARS) -> list[str]:
    """Sentences of a turn, in Portuguese or English; texts of up to ``whole_up_to`` characters
    are kept whole.

    Splits after ``. ! ? …`` (and a closing quote) before a capital or digit, at blank lines and
    before list items; not after common abbreviations ("Dr.", "Sra.", "e.g.") or initials
    ("J. K. Rowling"). Line breaks inside a sentence become spaces.
    """
    text = text.strip()
    if len(text) <= whole_up_to:
        flat = _flatten(text)
        return [flat] if flat else []
    sentences: list[str] = []
    for paragraph in re.split(r"\n\s*\n|\n(?=\s*[-*•])", text):
        merged: list[str] = []
        for piece in SENTENCE_BOUNDARY.split(paragraph.strip()):
            if merged and _ABBREVIATION.search(merged[-1]):
                merged[-1] = f"{merged[-1]} {piece}"
            else:
                merged.append(piece)
        sentences += [s for s in (_flatten(p) for p in merged) if s]
    return sentences


def _flatten(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _clip(text: str, limit: int = MAX_SENTENCE_CHARS) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…"


def _previous_candidates(previous: str | None) -> list[_Candidate]:
    """The lines of an older summary, with their day and speaker: ours (a day header, then
    ``- Speaker: text`` lines), older ones and the LLM's (``- [day] Speaker: text``), or prose,
    whose sentences become lines."""
    found: list[_Candidate] = []
    day: str | None = None
    for i, raw in enumerate((previous or "").splitlines()):
        line = raw.strip()
        header = _HEADER.match(line)
        if header:
            day = header.group(1)
            continue
        if not line or is_omitted_line(line):  # the count of what it left out is carried apart
            continue
        if line.startswith("-"):  # one of our lines: it keeps its own text
            dated = _DATED_LINE.match(line)
            when = dated.group(1) if dated else day
            rest = line[dated.end() :] if dated else _UNDATED_LINE.sub("", line, count=1)
            who = _WHO.match(rest)
            speaker, text = (who.group(1), rest[who.end() :]) if who else ("", rest)
            pieces = split_fragments(text)
            if pieces:  # a line of fragments: each is kept or left out on its own
                found += [
                    _Candidate(when, speaker, p, (-1, i * 1000 + j), True, fragment=True) for j, p in enumerate(pieces)
                ]
            else:
                found.append(_Candidate(when, speaker, text, (-1, i * 1000), True))
        else:  # prose (an LLM's summary): its sentences become lines
            found += [
                _Candidate(day, "", s, (-1, i * 1000 + j), True)
                for j, s in enumerate(split_sentences(line, whole_up_to=0))
            ]
    return found


def _candidates(
    previous: str | None, turns: Sequence[SummaryTurn], updates: Sequence[tuple[datetime, str]]
) -> list[_Candidate]:
    found = _previous_candidates(previous)
    for t, turn in enumerate(turns):
        speaker = _flatten(turn.speaker)
        for s, sentence in enumerate(split_sentences(turn.text, whole_up_to=WHOLE_TURN_CHARS)):
            trimmed = strip_leading_filler(sentence)
            if trimmed:
                found.append(
                    _Candidate(
                        f"{turn.when:%Y-%m-%d}", speaker, _clip(trimmed), (t, s), False, turn.role == "assistant"
                    )
                )
    last = len(turns)
    for u, (when, sentence) in enumerate(updates):
        # placed on its day, after that day's turns
        position = next((t for t, turn in enumerate(turns) if turn.when.date() > when.date()), last)
        found.append(
            _Candidate(f"{when:%Y-%m-%d}", "", _flatten(sentence), (position - 1, 10_000 + u), False, update=True)
        )
    return found


def render_lines(lines: Sequence[tuple[str | None, str]]) -> str:
    """``(day, line)`` pairs, in order, as summary text: each day's lines under a ``[day]`` header."""
    out: list[str] = []
    current: str | None = None
    for day, line in lines:
        if day is not None and day != current:
            out.append(f"[{day}]")
            current = day
        out.append(line)
    return "\n".join(out)


def _minmax(values: np.ndarray) -> np.ndarray:
    if values.size == 0:
        return values
    lo, hi = float(values.min()), float(values.max())
    if hi - lo < 1e-9:
        return np.full(values.shape, 0.5)
    return (values - lo) / (hi - lo)


def _candidate_vectors(
    candidates: Sequence[_Candidate], turns: Sequence[SummaryTurn], embed: Callable[[list[str]], np.ndarray] | None
) -> np.ndarray | None:
    """One vector per candidate: its turn's stored vector, else embedded (None: no way to get all)."""
    known = [turns[c.order[0]].vector if c.order[0] >= 0 and not (c.previous or c.update) else None for c in candidates]
    missing = [i for i, v in enumerate(known) if v is None]
    if missing and embed is None:
        return None
    fresh = np.asarray(embed([candidates[i].text for i in missing]), dtype=np.float64) if missing and embed else None
    rows = [np.asarray(v, dtype=np.float64) if v is not None else None for v in known]
    for row, i in enumerate(missing):
        rows[i] = fresh[row]  # type: ignore[index]
    return np.stack(rows)  # type: ignore[arg-type]


def _embedding_centrality(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors = vectors / np.where(norms > 0, norms, 1.0)
    centroid = vectors.mean(axis=0)
    size = float(np.linalg.norm(centroid))
    if size == 0.0:
        return np.zeros(len(vectors))
    return np.asarray(vectors @ (centroid / size))


def _term_centrality(terms: list[list[str]]) -> np.ndarray:
    """TF-IDF-like: a term weighs its frequency in the whole conversation times its rarity among
    candidates; a sentence weighs the sum of its distinct terms, damped by their number."""
    n = len(terms)
    df = Counter(t for ts in terms for t in set(ts))
    tf = Counter(t for ts in terms for t in ts)
    weight = {t: tf[t] * math.log(1 + n / df[t]) for t in df}
    return np.array([sum(weight[t] for t in set(ts)) / math.sqrt(len(set(ts))) if ts else 0.0 for ts in terms])


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def extractive_summary(
    previous: str | None,
    turns: Sequence[SummaryTurn],
    *,
    max_tokens: int,
    count: Callable[[str], int],
    embed: Callable[[list[str]], np.ndarray] | None = None,
    updates: Sequence[tuple[datetime, str]] = (),
) -> str:
    """The summary of ``previous`` (an older summary, or None) plus ``turns``, in at most
    ``max_tokens`` tokens as ``count`` measures them; the kept sentences under their day, oldest
    first. ``updates``: ``(when, sentence)`` of facts that changed in these turns ("Ana moved
    from São Paulo to Lisbon in March."), kept before anything else.

    ``embed`` maps texts to vectors (one row each); it is asked only for what has no stored
    vector (a turn's ``vector`` stands for each of its sentences). Without vectors for every
    candidate, centrality is a term score. Deterministic. Returns "" when nothing is worth
    keeping or nothing fits.
    """
    if max_tokens <= 0:
        return ""
    everything = _candidates(previous, turns, updates)
    speakers = {c.speaker for c in everything if c.speaker} | {"User", "Assistant"}
    found = [_details(c, speakers) for c in everything]
    candidates: list[_Candidate] = []
    keys: list[frozenset[str]] = []
    bonuses: list[float] = []
    for c, ds in zip(everything, found, strict=True):
        signals = Signals.of(c.text)
        if not c.fragment and (c.update or signals.worth_a_line):
            candidates.append(c)
            keys.append(frozenset(d.key for d in ds))
            question = QUESTION_PENALTY if c.text.endswith("?") else 0.0
            bonuses.append(
                signals.bonus
                - question
                + DETAIL_BONUS * min(len(ds), MAX_DETAIL_BONUSES)
                + (PREVIOUS_BONUS if c.previous else 0.0)
                + (PREVIOUS_DETAIL_BONUS if c.previous and ds else 0.0)
                - (ASSISTANT_PENALTY if c.assistant else 0.0)
                + (UPDATE_BONUS if c.update else 0.0)
            )
    if not candidates:
        return ""
    texts = [c.text for c in candidates]
    language = detect_language(" ".join(texts))
    terms = [analyze(t, language) for t in texts]
    vectors = _candidate_vectors(candidates, turns, embed)
    centrality = _embedding_centrality(vectors) if vectors is not None else _term_centrality(terms)
    scores = CENTRALITY_WEIGHT * _minmax(centrality) + np.array(bonuses)
    ranked = sorted(range(len(candidates)), key=lambda i: (-round(float(scores[i]), 9), candidates[i].order))
    # What must be said: every detail of what the speakers said (the assistant's aside). Only
    # new turns give fragments: an older summary's lines are kept whole or left out (and counted),
    # its fragments kept one by one as they are.
    sources = [(c, ds) for c, ds in zip(everything, found, strict=True) if ds and not (c.assistant or c.update)]
    must = list(dict.fromkeys(d.key for _, ds in sources for d in ds))
    carried = omitted_in(previous)
    fragment_cost: dict[str, int] = {}
    for c, ds in sources:
        for d in ds:
            if d.key in fragment_cost or (c.previous and not c.fragment):
                continue
            piece = c.text if c.fragment else " … ".join(windows(strip_leading_filler(c.text), [d]))
            fragment_cost[d.key] = count(piece) + 2
    reserve_cap = int(FRAGMENT_SHARE * max_tokens)
    omitted_cost = count(omitted_line(999, language)) + 1

    def reserve(uncovered: set[str]) -> int:
        return min(reserve_cap, sum(fragment_cost.get(k, 0) for k in uncovered)) + omitted_cost if uncovered else 0

    uncovered = set(must)
    chosen: list[int] = []
    chosen_terms: list[frozenset[str]] = []
    chosen_texts: set[str] = set()
    days: set[str | None] = {None}
    used = 0
    # Twice: a line passed over while the details of later lines were still held back for
    # fragments may fit once those lines have said them.
    for _ in range(2):
        for i in ranked:
            c = candidates[i]
            if i in chosen or (c.assistant and uncovered):  # what the user said comes first
                continue
            mine = frozenset(terms[i]) | frozenset(_DIGITS.findall(c.text))
            key = fold(c.text)
            if key in chosen_texts or any(_jaccard(mine, t) >= DUPLICATE_JACCARD for t in chosen_terms):
                continue
            cost = count(c.line) + (1 if chosen else 0)  # the newline joining it
            if c.date not in days:
                cost += count(f"[{c.date}]") + 1
            left = uncovered - keys[i]
            # An older line that says a detail is kept first, before room is held for new ones.
            if used + cost + (0 if c.previous and keys[i] else reserve(left)) > max_tokens:
                continue
            chosen.append(i)
            chosen_terms.append(mine)
            chosen_texts.add(key)
            days.add(c.date)
            used += cost
            uncovered = left
    lines = [((candidates[i].order, 0), candidates[i].date, candidates[i].line) for i in chosen]
    return _with_details(lines, sources, must, carried, language, max_tokens, count)


def _details(c: _Candidate, speakers: set[str]) -> list[Detail]:
    """What ``c`` says that a summary must keep: its numbers, dates and names, and itself when it
    settles something (a decision is kept whole or counted, like any detail)."""
    found = details_in(c.text, speakers=speakers, fragment=c.fragment)
    decision = None if c.assistant or c.update else decision_in(c.text)
    return [*found, decision] if decision is not None else found


def _with_details(
    lines: list[tuple[_Order, str | None, str]],
    sources: Sequence[tuple[_Candidate, Sequence[Detail]]],
    must: Sequence[str],
    carried: int,
    language: str,
    max_tokens: int,
    count: Callable[[str], int],
) -> str:
    """The chosen lines (best first), then fragments of the details they leave out while they
    fit, then the count of what is still out; within ``max_tokens`` as ``count`` measures the
    real text (the sum of line counts is an estimate: a tokenizer may merge across newlines), by
    dropping the last fragments, then the weakest lines."""

    def render(kept: Sequence[tuple[_Order, str | None, str]], pieces: list[_Piece]) -> str:
        grouped: dict[tuple[str | None, str], list[_Piece]] = {}
        for p in _distinct(sorted(pieces, key=lambda p: p.order), [line for _, _, line in kept]):
            grouped.setdefault((p.date, p.speaker), []).append(p)
        extra = [(g[0].order, day, fragment_line(who, [p.text for p in g])) for (day, who), g in grouped.items()]
        return render_lines([(day, line) for _, day, line in sorted([*kept, *extra], key=lambda x: x[0])])

    def counted(text: str) -> str:
        n = carried + len(missing(text, must))
        return (
            f"{text}\n{omitted_line(n, language)}" if n and text else text or (omitted_line(n, language) if n else "")
        )

    pieces: list[_Piece] = []
    usable = [s for s in sources if s[0].fragment or not s[0].previous]
    # Fragments with a word of context each side; then, for what those leave out, the bare details.
    for context in (CONTEXT_WORDS, 0):
        for piece in _pieces(usable, missing(render(lines, pieces), must), context):
            pieces.append(piece)
            if count(counted(render(lines, pieces))) > max_tokens:
                pieces.pop()
    while True:
        text = counted(render(lines, pieces))
        if count(text) <= max_tokens:
            return text
        if pieces:
            pieces.pop()
        elif lines:
            lines.pop()
        else:
            return ""


def _distinct(pieces: list[_Piece], lines: Sequence[str]) -> list[_Piece]:
    """The pieces that say something no kept line and no longer piece already says: a fragment
    carried from an older summary and a window cut anew around the same detail can overlap
    ("…trip to Japan in October … trip to Japan in October…")."""
    said = [fold(line) for line in lines]
    texts = [fold(p.text) for p in pieces]
    out = []
    for i, (p, t) in enumerate(zip(pieces, texts, strict=True)):
        whole = re.compile(rf"(?<!\w){re.escape(t)}(?!\w)")  # "Mel" is not said by "Melanie"
        inside = any(whole.search(s) for s in said) or any(
            j != i and whole.search(u) and (len(u) > len(t) or j < i) for j, u in enumerate(texts)
        )
        if not inside:
            out.append(p)
    return out


_Order = tuple[tuple[int, int], int]  # a line's place: its sentence's, then 0 (the sentence) or 1+ (fragments)


@dataclass(frozen=True)
class _Piece:
    order: _Order
    date: str | None
    speaker: str
    text: str
    size: int  # details it holds
    previous: bool = False  # from the older summary
    decision: bool = False  # says what was settled: before the pieces that hold only names or numbers


def _pieces(
    sources: Sequence[tuple[_Candidate, Sequence[Detail]]], left: Sequence[str], context: int = 1
) -> list[_Piece]:
    """Fragments around the details in ``left`` (``context``: content words kept each side), each
    from the first sentence that says it: the older summary's fragments first (as they are), then
    those that keep the most details per token (decisions weigh more), then in the order said."""
    wanted = set(left)
    out: list[_Piece] = []
    for c, ds in sorted(sources, key=lambda s: (not s[0].fragment, s[0].order)):
        mine = [d for d in ds if d.key in wanted]
        if not mine:
            continue
        wanted -= {d.key for d in mine}
        text = strip_leading_filler(c.text)
        settled = [text[d.span[0] : d.span[1]] for d in mine if d.kind == "decision" and not c.fragment]
        around = [d for d in mine if d.kind != "decision"]
        found = [c.text] if c.fragment else [*settled, *windows(text, around, before=context, after=context)]
        for i, piece in enumerate(found):
            held = [d for d in mine if d.key in fold(piece)]
            settles = any(d.kind == "decision" for d in held)
            out.append(_Piece((c.order, 1 + i), c.date, c.speaker, piece, len(held), c.fragment, settles))
    return sorted(out, key=lambda p: (not p.previous, -_density(p), p.order))


def _density(p: _Piece) -> float:
    """Details a fragment keeps per token (about four characters), a decision worth three: a
    short "Rui, a Joana e o Tiago" before a long clause with one name."""
    return (p.size + DECISION_WEIGHT * p.decision) / max(1.0, len(p.text) / 4)
