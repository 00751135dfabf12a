"""The learned match: how well a memory answers a question, read from the embedder's vectors.

The default embedder is small, and its cosines are compressed: every chat line sits within a few
hundredths of every question, so "qual é meu cargo?" lands as close to "me passa uma receita"
as to "comecei na X semana passada, entrei como analista de Y". A cosine says two texts are
about the same thing; a question and the statement that answers it are often not.

Here a low-rank bilinear score, fitted offline on questions and the turns that answer them
(``benchmarks/fit_match.py``), learns which directions of a question's vector call for which
directions of an answer's::

    s(q, d) = (U (q - query_centre)) . (V (d - centre))        learned_match = tanh(s / scale)

Memories are centred on their mean. Questions may be (``query_centre``); in the shipped model
they are not (it is zero): the score then has a part that depends on the memory alone, a learned
sense of what reads like an answer about someone's life, and that part carried most of the gain
measured on held-out data (``benchmarks/fit_match.py``: with questions centred, LoCoMo top-1 no
longer rose). It is shipped as data (``match.npz``, beside this module) and costs, per
query, one ``D``-vector (``w = Vᵀ U (q - query_centre)``) and, per candidate, one dot product.
It is one feature of the learned ranker (:mod:`.learned`), weighed with the others and shown in
every hit's explanation. The model is fitted on one embedder's vectors; with another embedder it
has no meaning, and is not applied.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

MODEL_FILE = "match.npz"
DEFAULT_SCALE = 4.0
"""``s`` divided by this before ``tanh``: the fitted scores mostly lie within it, so the feature is
near linear in them and bounded whatever the vectors."""


@dataclass(frozen=True)
class Match:
    query: np.ndarray  # U: (rank, dim)
    memory: np.ndarray  # V: (rank, dim)
    centre: np.ndarray  # (dim,): the mean memory vector the model was fitted on
    query_centre: np.ndarray  # (dim,): the mean question vector
    scale: float
    embedder: str  # the name of the embedder whose vectors it was fitted on

    @property
    def dim(self) -> int:
        return int(self.query.shape[1])

    def applies_to(self, embedder_name: str, dim: int) -> bool:
        return embedder_name == self.embedder and dim == self.dim

    def query_side(self, qvec: np.ndarray) -> np.ndarray:
        """``w = Vᵀ U (q - query_centre)``: what the question looks for, as one vector in the
        memories' space."""
        q = np.asarray(qvec, dtype=np.float32) - self.query_centre
        return (self.memory.T @ (self.query @ q)).astype(np.float32)

    def offset(self, w: np.ndarray) -> float:
        return float(w @ self.centre)

    def value(self, w: np.ndarray, vector: np.ndarray, offset: float | None = None) -> float:
        """``learned_match`` of one memory vector, in (-1, 1); 0 for a vector of another size."""
        if vector.shape != w.shape:
            return 0.0
        s = float(w @ vector) - (self.offset(w) if offset is None else offset)
        return float(np.tanh(s / self.scale))


def values(model: Match, qvec: np.ndarray, vectors: Mapping[str, np.ndarray]) -> dict[str, float]:
    """``learned_match`` of every memory in ``vectors`` (by id) for the query vector ``qvec``:
    one matrix product; a vector of another size is left out (its feature stays 0)."""
    ids = [i for i, v in vectors.items() if v.shape == (model.dim,)]
    if not ids or np.shape(qvec) != (model.dim,):
        return {}
    w = model.query_side(qvec)
    s = np.stack([vectors[i] for i in ids]).astype(np.float32) @ w - model.offset(w)
    return dict(zip(ids, np.tanh(s / model.scale).tolist(), strict=True))


def load(data: bytes) -> Match:
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        return Match(
            query=z["query"].astype(np.float32),
            memory=z["memory"].astype(np.float32),
            centre=z["centre"].astype(np.float32),
            query_centre=z["query_centre"].astype(np.float32),
            scale=float(z["scale"]),
            embedder=str(z["embedder"]),
        )


@cache
def default_match() -> Match | None:
    """The shipped model, or None when the package holds none."""
    path = resources.files(__package__).joinpath(MODEL_FILE)
    if not path.is_file():
        return None
    return load(path.read_bytes())


def save(model: Match, path: Path | None = None) -> Path:
    """Write ``model`` (float16: a few tens of KB) beside this module, or to ``path``."""
    target = path or Path(__file__).with_name(MODEL_FILE)
    with target.open("wb") as f:
        np.savez_compressed(
            f,
            query=model.query.astype(np.float16),
            memory=model.memory.astype(np.float16),
            centre=model.centre.astype(np.float16),
            query_centre=model.query_centre.astype(np.float16),
            scale=np.float32(model.scale),
            embedder=np.str_(model.embedder),
        )
    return target
