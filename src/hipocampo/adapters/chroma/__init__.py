"""ChromaDB as the vector index: ``chroma:///dir`` (embedded, persistent) or ``chroma+http://host:port``.

Only the vectors live in Chroma; the log, memories and keywords stay in the database of
``HIPOCAMPO_DB``. Needs the extra: ``pip install 'hipocampo[chroma]'``.
"""

from __future__ import annotations

from .vectors import ChromaVectorIndex, open_vector_index

__all__ = ["ChromaVectorIndex", "open_vector_index"]
