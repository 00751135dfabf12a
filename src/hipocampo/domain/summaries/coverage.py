"""What the chosen sentences of a summary leave out: kept as short fragments, or counted. Pure.

The summariser picks whole sentences (:mod:`.summarize`); at 30% of the folded tokens that
drops, among the chat, numbers, dates and names that were said in a sentence that lost the
competition: the €300 budget from the very turn whose other sentence was kept, the guests'
names. A word window around each such detail costs a few tokens where its sentence costs twenty,
so the details left over are kept as fragments of what was said, on one line per speaker and
day::

    [2024-03-02]
    - Ana: Vai ser em casa, sábado às 20h.
    - Ana: …o orçamento é de €300 … convidados: Rui, Marta e Leo…

and the ones that still do not fit are counted on a last line, "(+3 details omitted)", so the
reader knows that something was left out and how much. A later fold carries that count forward.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..lang import LANGUAGES
from ..text import content_words
from .details import Detail

OMITTED = {code: LANGUAGES[code].phrases.DETAILS_OMITTED for code in LANGUAGES}
"""The last line of a summary that could not keep every detail, per language
(``domain/lang/<code>/phrases.py``)."""
OMITTED_LINE = re.compile(r"^\(\+(\d+)\b[^()]*\)$")
"""Any language's omitted line, as :func:`omitted_in` reads it back."""
BEFORE = 1  # content words kept before a detail, with the stopwords between ("orçamento é de" €300)
AFTER = 1  # and after it
_WORD = re.compile(r"\S+")
_CLAUSE_END = re.compile(r"[.!?;:,…)\]]$")
_TRIM = " ,;:-–—(\"'“”‘’"


def omitted_line(n: int, language: str) -> str:
    """ "(+3 details omitted)", in ``language`` (English when there is no wording for it)."""
    return OMITTED.get(language, OMITTED["en"]).format(n=n)


def omitted_in(summary: str | None) -> int:
    """How many details an older summary said it left out (0 when it says nothing)."""
    for line in reversed((summary or "").splitlines()):
        found = OMITTED_LINE.match(line.strip())
        if found:
            return int(found.group(1))
    return 0


def is_omitted_line(line: str) -> bool:
    return OMITTED_LINE.match(line.strip()) is not None


def windows(text: str, details: Sequence[Detail], *, before: int = BEFORE, after: int = AFTER) -> list[str]:
    """The words around each of ``details`` (spans in ``text``), within their clause, windows
    that touch merged: "Vamos ser 5: Ana, Rui e Marta." and its three names -> ["5: Ana, Rui e Marta"]."""
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    picks: list[tuple[int, int]] = []
    for d in details:
        inside = [i for i, (a, b) in enumerate(words) if a < d.span[1] and b > d.span[0]]
        if not inside:
            continue
        lo, hi = inside[0], inside[-1]
        lo = _reach(text, words, lo, -1, before)
        hi = _reach(text, words, hi, +1, after)
        picks.append((lo, hi))
    merged: list[list[int]] = []
    for lo, hi in sorted(picks):
        between = text[words[merged[-1][1]][1] : words[lo][0]] if merged and lo > merged[-1][1] else ""
        if merged and (lo <= merged[-1][1] + 1 or not content_words(between)):  # "Rui, a Joana e o Tiago"
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    out = []
    for lo, hi in merged:
        piece = text[words[lo][0] : words[hi][1]].strip(_TRIM)
        piece = piece.rstrip(".!?…").rstrip(_TRIM) if not piece.endswith("%") else piece
        if piece:
            out.append(piece)
    return out


def _reach(text: str, words: Sequence[tuple[int, int]], at: int, step: int, content: int) -> int:
    """From word ``at``, the farthest word reached in direction ``step`` taking ``content`` content
    words (stopwords ride along: "budget is" $12,000), within the clause; never ending on a stopword."""
    end = at
    i = at
    while content > 0:
        nxt = i + step
        if not 0 <= nxt < len(words):
            break
        edge = words[i] if step > 0 else words[nxt]  # the word whose end would cross a clause break
        if _CLAUSE_END.search(text[edge[0] : edge[1]]):
            break
        i = nxt
        if content_words(text[words[i][0] : words[i][1]]):
            content -= 1
            end = i
    return end


def split_fragments(text: str) -> list[str]:
    """The fragments of a line written by :func:`fragment_line` (its text after the speaker); none
    when it is not one."""
    if len(text) < 3 or not (text.startswith("…") and text.endswith("…")):
        return []
    return [p.strip() for p in text[1:-1].split(" … ") if p.strip()]


def fragment_line(speaker: str, fragments: Sequence[str]) -> str:
    """One line of fragments: ``- Ana: …o orçamento é de €300 … Rui, Marta e Leo…``."""
    body = "…" + " … ".join(fragments) + "…"
    return f"- {speaker}: {body}" if speaker else f"- {body}"
