"""Extractive thread summaries: keep the sentences an agent must not lose, within a token budget.

The offline default of the rolling thread summary (seed 000, phase 1). It copies sentences; it
never writes new ones. That choice is deliberate:

* it needs no model, no network and no GPU, and two runs over the same turns give the same text;
* it cannot invent a fact: every line is something a speaker said, shown with who said it and
  the day (``- [2023-05-08] Caroline: I went to a LGBTQ support group.``), which is also what
  temporal questions ("when did Caroline...?") need;
* it is incremental: the lines of the previous summary compete with the sentences of the newly
  folded turns, with a small bonus, so a stable summary stays stable and its lines keep their
  own text.

An abstractive summary reads better; when an LLM is configured, ``services.summaries`` asks it
instead, through the same service, and falls back to this one if the call fails.

How sentences are chosen: each is scored by how central it is to the folded conversation (cosine
to the centroid of every candidate's embedding, or, without vectors, a TF-IDF term weight; a
turn's sentences share the vector the index already holds for the turn when there is one, so
folding re-embeds only what was never indexed),
plus bonuses for what an agent must not lose (names, numbers and dates, decisions and
commitments, preferences and constraints) and penalties for filler ("haha", "ok", "obrigado").
The best are taken greedily while the rendered lines fit ``max_tokens``, then shown in the order
they were said.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from .text import analyze, content_words, detect_language, fold, names_in

SHORT_TURN_CHARS = 200
"""Turns up to this long are kept whole: splitting "Yes! Saturday, at 3." loses its sense."""

MAX_SENTENCE_CHARS = 320
"""Longer sentences (pasted text, run-ons) are clipped, so one cannot eat the whole budget."""

CENTRALITY_WEIGHT = 0.4
"""Centrality ranges over [0, 1] (min-max scaled). It ranks sentences that carry none of the
signals below, but must not outweigh them: in a chat, small talk is what repeats most."""
PREVIOUS_BONUS = 0.15  # a line of the previous summary: stability across updates
NAME_BONUS = 0.15  # per name, up to two
NUMBER_BONUS = 0.25  # numbers, money, dates
DECISION_BONUS = 0.3  # decisions, plans, commitments
PREFERENCE_BONUS = 0.4  # preferences and constraints (an allergy must never be dropped)
FILLER_PENALTY = 0.15  # filler words around some content
QUESTION_PENALTY = 0.3  # a question says less than its answer, even one that names a preference
DUPLICATE_JACCARD = 0.8  # a candidate this close to a chosen line (in terms) adds nothing


@dataclass(frozen=True)
class SummaryTurn:
    """One folded turn: who said what, and when; ``vector``: the turn's stored embedding, if any."""

    speaker: str
    text: str
    when: datetime
    vector: np.ndarray | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class _Candidate:
    line: str  # as rendered in the summary
    text: str  # what is scored: the sentence, without date and speaker
    order: tuple[int, int]  # chronological position: (turn, sentence); previous lines come first
    previous: bool


def _phrases(*words: str) -> re.Pattern[str]:
    """Whole words or phrases, matched in folded (lowercase, accentless) text."""
    return re.compile(r"\b(?:" + "|".join(words) + r")\b")


_DECISION = _phrases(
    r"decid\w*", "decision", "will", "won't", r"\w+'ll", "agreed?", r"plan(?:s|ned|ning)?",
    "going to", "gonna", r"promis\w*", "let's", r"schedul\w*", "booked", "signed up", r"commit\w*",
    "vamos", "vou", "vai", "combinamos", r"combinad[oa]", "combinei", "plano", r"planej\w*",
    "pretendo", r"prometo", "prometi", "marcamos", "marquei", "agendei", "agendamos",
)
_PREFERENCE = _phrases(
    r"allerg\w*", r"prefer\w*", "can't", "cannot", "can not", "don't like", "doesn't like",
    "do not like", "hate", r"loves?", r"favou?rites?", r"vegetarian\w*", r"vegan\w*", "intolerant",
    "must not", "never", "avoid", r"alergi\w*", "prefiro", "prefere", "preferimos", r"preferenc\w*",
    "nao posso", "nao pode", "nao gosto", "nao como", "nao bebo", "nao consigo", "odeio", "adoro",
    r"favorit\w*", "intolerante", "evito", "nunca",
)
_NUMBER = re.compile(r"\d|[$€£¥]")
_DIGITS = re.compile(r"\d+")  # part of a sentence's identity: "meet at 3" is not "meet at 4"
_DATE_WORDS = _phrases(
    "january", "february", "march", "april", "june", "july", "august", "september", "october",
    "november", "december", "janeiro", "fevereiro", "marco", "abril", "maio", "junho", "julho",
    "agosto", "setembro", "outubro", "novembro", "dezembro", "monday", "tuesday", "wednesday",
    "thursday", "friday", "saturday", "sunday", "segunda-feira", "terca-feira", "quarta-feira",
    "quinta-feira", "sexta-feira", "sabado", "domingo", "today", "tonight", "tomorrow", "yesterday",
    "weekend", r"(?:next|last) (?:week|month|year)", "hoje", "amanha", "ontem", "fim de semana",
    r"(?:semana|mes|ano) que vem", r"(?:proxima|semana) passada", "proxima semana", "dollars?",
    "bucks", "euros?", "reais",
)
_FILLER = _phrases(
    r"(?:ha){2,}h?", r"(?:he){2,}", r"(?:hu){2,}", "lol", "lmao", r"k{3,}", r"(?:rs){1,}", "ok",
    "okay", "okey", "thanks", "thank you", "thx", "valeu", "vlw", r"obrigad[oa]", "hi", "hello",
    "hey", "oi", "ola", "bom dia", "boa tarde", "boa noite", "good morning", "good night", "bye",
    "tchau", "cool", "nice", "awesome", "great", "legal", "beleza", "blz", "tudo bem", "me too",
    "yeah", "yep", "sure", "claro", "de nada", "you're welcome", "wow", "uau", "hmm+", "ah", "oh",
)
_BOUNDARY = re.compile(r"(?:(?<=[.!?…])|(?<=[.!?…][\"'”’)]))\s+(?=[\"'“‘(¿¡]?[A-ZÀ-Ý0-9])")
_ABBREVIATION = re.compile(
    r"\b(?:[Dd]ra?|[Ss]ra?|[Ss]rta|M[rs]|Mrs|[Pp]rof|St|vs|etc|nº|[Jj]r|[Aa]v|e\.g|i\.e|[A-Z])\.$"
)
_SUMMARY_LINE = re.compile(r"^-\s*(?:\[[^\]]*\]\s*)?(?:[^:\s]+(?: [^:\s]+){0,2}:\s+)?")
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
        for piece in _BOUNDARY.split(paragraph.strip()):
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


def _names(text: str) -> set[str]:
    """Capitalised words that do not start a sentence (a sentence's first word is capitalised
    anyway), nor name a day or month (those count as dates)."""
    found: set[str] = set()
    for sentence in _BOUNDARY.split(text):
        rest = sentence.split(maxsplit=1)
        if len(rest) == 2:
            found |= names_in(rest[1])
    return {n for n in found if not _DATE_WORDS.fullmatch(fold(n))}


@dataclass(frozen=True)
class _Signals:
    names: int
    number: bool
    decision: bool
    preference: bool
    filler: bool
    content: int  # content words, filler and names left out

    @classmethod
    def of(cls, text: str) -> _Signals:
        folded = fold(text.replace("’", "'"))
        names = _names(text)
        rest = _FILLER.sub(" ", folded)
        folded_names = {fold(n) for n in names}
        return cls(
            names=len(names),
            number=bool(_NUMBER.search(text) or _DATE_WORDS.search(folded)),
            decision=bool(_DECISION.search(folded)),
            preference=bool(_PREFERENCE.search(folded)),
            filler=rest != folded,
            content=sum(fold(w) not in folded_names for w in content_words(rest)),
        )

    @property
    def worth_a_line(self) -> bool:
        """Two content words, or a number, decision or preference: "Hey Mel! How are you?" and
        "Hi! Good, thanks." are not; "I'm vegan." and "Saturday at 3." are."""
        return self.content >= 2 or self.number or self.decision or self.preference

    @property
    def bonus(self) -> float:
        return (
            NAME_BONUS * min(self.names, 2)
            + NUMBER_BONUS * self.number
            + DECISION_BONUS * self.decision
            + PREFERENCE_BONUS * self.preference
            - FILLER_PENALTY * self.filler
        )


def _render(turn: SummaryTurn, sentence: str) -> str:
    speaker = _flatten(turn.speaker)
    who = f"{speaker}: " if speaker else ""
    return f"- [{turn.when:%Y-%m-%d}] {who}{sentence}"


def _candidates(previous: str | None, turns: Sequence[SummaryTurn]) -> list[_Candidate]:
    found: list[_Candidate] = []
    for i, raw in enumerate((previous or "").splitlines()):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("-"):  # one of our lines: it keeps its own text
            found.append(_Candidate(line, _SUMMARY_LINE.sub("", line), (-1, i * 1000), True))
        else:  # prose (an LLM's summary): its sentences become lines
            found += [
                _Candidate(f"- {s}", s, (-1, i * 1000 + j), True)
                for j, s in enumerate(split_sentences(line, whole_up_to=0))
            ]
    for t, turn in enumerate(turns):
        for s, sentence in enumerate(split_sentences(turn.text)):
            clipped = _clip(sentence)
            found.append(_Candidate(_render(turn, clipped), clipped, (t, s), False))
    return found


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
    known = [turns[c.order[0]].vector if c.order[0] >= 0 else None for c in candidates]
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
    return np.array(
        [sum(weight[t] for t in set(ts)) / math.sqrt(len(set(ts))) if ts else 0.0 for ts in terms]
    )


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def extractive_summary(
    previous: str | None,
    turns: Sequence[SummaryTurn],
    *,
    max_tokens: int,
    count: Callable[[str], int],
    embed: Callable[[list[str]], np.ndarray] | None = None,
) -> str:
    """The summary of ``previous`` (an older summary, or None) plus ``turns``, in at most
    ``max_tokens`` tokens as ``count`` measures them; one line per kept sentence, oldest first.

    ``embed`` maps texts to vectors (one row each); it is asked only for what has no stored
    vector (a turn's ``vector`` stands for each of its sentences). Without vectors for every
    candidate, centrality is a term score. Deterministic. Returns "" when nothing is worth
    keeping or nothing fits.
    """
    if max_tokens <= 0:
        return ""
    candidates: list[_Candidate] = []
    bonuses: list[float] = []
    for c in _candidates(previous, turns):
        signals = _Signals.of(c.text)
        if signals.worth_a_line:
            candidates.append(c)
            question = QUESTION_PENALTY if c.text.endswith("?") else 0.0
            bonuses.append(signals.bonus - question + (PREVIOUS_BONUS if c.previous else 0.0))
    if not candidates:
        return ""
    texts = [c.text for c in candidates]
    language = detect_language(" ".join(texts))
    terms = [analyze(t, language) for t in texts]
    vectors = _candidate_vectors(candidates, turns, embed)
    centrality = _embedding_centrality(vectors) if vectors is not None else _term_centrality(terms)
    scores = CENTRALITY_WEIGHT * _minmax(centrality) + np.array(bonuses)
    ranked = sorted(range(len(candidates)), key=lambda i: (-round(float(scores[i]), 9), candidates[i].order))
    chosen: list[int] = []
    chosen_terms: list[frozenset[str]] = []
    chosen_texts: set[str] = set()
    used = 0
    for i in ranked:
        mine = frozenset(terms[i]) | frozenset(_DIGITS.findall(candidates[i].text))
        key = fold(candidates[i].text)
        if key in chosen_texts or any(_jaccard(mine, t) >= DUPLICATE_JACCARD for t in chosen_terms):
            continue
        cost = count(candidates[i].line) + (1 if chosen else 0)  # the newline joining it
        if used + cost > max_tokens:
            continue
        chosen.append(i)
        chosen_terms.append(mine)
        chosen_texts.add(key)
        used += cost
    # The sum of line counts is an estimate (a tokenizer may merge across the newline): check
    # the real text, and drop the weakest lines until it fits.
    while chosen:
        text = "\n".join(candidates[i].line for i in sorted(chosen, key=lambda i: candidates[i].order))
        if count(text) <= max_tokens:
            return text
        chosen.pop()
    return ""
