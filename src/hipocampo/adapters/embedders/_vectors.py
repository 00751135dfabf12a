"""Shared vector helpers for embedder adapters."""

from __future__ import annotations

from typing import Any

import numpy as np


def unit_rows(vectors: Any, dim: int) -> np.ndarray:
    """Return ``vectors`` as a C-contiguous float32 ``(n, dim)`` matrix with L2-normalised rows.

    All-zero rows stay zero rather than becoming NaN.
    """
    matrix = np.asarray(vectors, dtype=np.float32).reshape(-1, dim)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(matrix / norms, dtype=np.float32)


def unit_vector(vector: Any, dim: int) -> np.ndarray:
    """Return ``vector`` as a float32 ``(dim,)`` unit vector (zeros stay zero)."""
    return unit_rows(vector, dim).reshape(dim)
