"""The learned ranker: a logistic model over the signals ranking already has.

Ranking used to multiply hand-set boosts (1.5 for a speaker named in the query, 1.1 for a fact,
0.5 for filler...) onto a fused dense and keyword score. Each constant was set by hand on one
benchmark, and none knew what a turn does: on chat full of requests to the assistant, requests
outranked the disclosures that answer questions about the user. Here the same signals, and the
turn's speech act (:mod:`.speech_acts`), are weighed by a logistic regression fitted offline
(``benchmarks/fit_ranker.py``, on the LoCoMo dev split and hand-written realistic chats) and
shipped as data (``ranker.json``): a few dozen numbers, applied with one dot product per
candidate.

Every signal is a named feature, so every hit says what moved it: its contribution to the logit
(``weight * value``), shown in :attr:`~.recall.Explanation.contributions`. What the model does not
learn stays a plain multiplier chosen by the caller or by the truth of the memory: recency (a
setting), importance (set by whoever saved the memory) and validity (an outdated memory ranks
below the one that replaced it).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

FEATURES: tuple[str, ...] = (
    "dense",  # the query's cosine, min-max normalised over this query's candidates
    "keyword",  # BM25, min-max normalised over this query's candidates
    "neighbour",  # the best fused score of the turns just before and after (0 to 0.5)
    "fusion",  # log of the fused score plus neighbour support (the hybrid score ranking once had alone)
    "closeness",  # the cosine against the query's unrelated background, in spreads (absolute)
    "coverage",  # share of the query's content words the memory holds (slang and translations count)
    "speaker",  # a name in the query is the speaker, or the fact is about that person
    "mention",  # a name in the query is mentioned
    "subject",  # the memory speaks of the subject the question asks about (thesaurus)
    "temporal",  # a "when" question and a memory with a resolved date
    "fact",
    "consolidated",
    "summary",
    "request",  # a turn asking something of the assistant
    "filler",  # a social turn ("valeu!!", "lol nice"), or one that says nothing worth keeping
    "disclosure",  # a turn stating something (not a request, not filler), whoever said it
    "assistant",  # the assistant said it (its replies echo the user's words, and answer no question about them)
    "about_user",  # the question asks about the user's own life ...
    "about_own",  # ... and this is the user's own disclosure
    "about_request",  # ... and this is a request
    "about_filler",  # ... and this is filler
    "about_assistant",  # ... and the assistant said this
    "about_fact",  # ... and this is a fact about the user
    "about_subject",  # ... and this is the user's own line or a fact, on the subject asked about
    "about_self",  # ... and this is the user's turn with themselves as a subject ("im a", "sou", "moro")
    "about_others",  # ... not about another person, and this turn speaks of one ("my brother is a ...")
    "others_line",  # ... and this turn is about another person, not the speaker (speech_acts.speaks_of_others)
    "outdated",  # a later fact replaced what it says (domain/truth/validity.py)
    "name_answer",  # the question asks for a name (who, where...) or a place, job or drug, and the memory holds one
    "number_answer",  # the question asks for a number or a code and the memory holds one
    "length",  # log of the word count, scaled to about [0, 1]
    "learned_match",  # how well the memory answers the question, learned on the embedder's vectors (match.py)
    "slot",  # a current fact of the kind the question asks about, or the turn it was drawn from (services/rerank.py)
    # Relative to the other candidates (set after a first pass, see services/retrieval.py):
    "own_newest",  # about the user: the newest of the user's best-ranked own lines (a later one may update the rest)
    "own_older",  # about the user: one of those best own lines, with a newer one beside it
)
RELATIVE: tuple[str, ...] = ("own_newest", "own_older")
"""Features read from the other candidates' first-pass scores (the logit without these)."""


@dataclass(frozen=True)
class Ranker:
    """``logit = bias + sum(weights[f] * features[f])``."""

    bias: float
    weights: Mapping[str, float]

    def logit(self, features: Mapping[str, float]) -> float:
        return self.bias + sum(w * features[f] for f, w in self.weights.items() if f in features)

    def contributions(self, features: Mapping[str, float]) -> dict[str, float]:
        """Each non-zero feature's part of the logit: what moved this memory up or down."""
        weights = self.weights
        return {f: weights[f] * v for f, v in features.items() if v and f in weights and weights[f]}

    @staticmethod
    def probability(logit: float) -> float:
        if logit >= 0:
            return 1.0 / (1.0 + math.exp(-logit))
        e = math.exp(logit)
        return e / (1.0 + e)


MODEL_FILE = "ranker.json"


@cache
def default_ranker() -> Ranker:
    """The shipped model (``ranker.json`` beside this module)."""
    data = json.loads(resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8"))
    return from_dict(data)


def from_dict(data: Mapping[str, object]) -> Ranker:
    """A model from its JSON form; features it does not name weigh nothing, unknown ones are refused."""
    weights = data.get("weights")
    if not isinstance(weights, Mapping):
        raise ValueError("a ranker needs a 'weights' mapping")
    unknown = set(weights) - set(FEATURES)
    if unknown:
        raise ValueError(f"unknown ranking features: {sorted(unknown)}")
    bias = data.get("bias", 0.0)
    if not isinstance(bias, (int, float)):
        raise ValueError("a ranker's bias must be a number")
    return Ranker(float(bias), {f: float(weights[f]) for f in FEATURES if f in weights})
