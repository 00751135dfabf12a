"""What every built-in vector index checks of a batch before it writes, whatever it runs on.

Pure numpy, no SQL: the in-memory index (``adapters/memory``) uses it too, so the three built-in
indexes refuse a batch, and normalise a vector, in the same words and the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...domain.errors import DimensionMismatch


def batch_dimension(items: Sequence[tuple[str, np.ndarray]]) -> int:
    """The one dimension of the batch's vectors, or :class:`DimensionMismatch` when it mixes
    several (an index holds one model's vectors; a mixed batch is a caller's bug)."""
    dims = {int(np.asarray(v).shape[-1]) for _, v in items}
    if len(dims) != 1:
        raise DimensionMismatch(f"one batch mixes vector dimensions {sorted(dims)}")
    (dim,) = dims
    return dim


def unit(vector: np.ndarray) -> np.ndarray:
    """Cosine needs unit vectors; embedders should give them, but we do not rely on it. Always a
    new array: callers may reuse theirs."""
    v = np.asarray(vector, dtype=np.float32).reshape(-1)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v.copy()
