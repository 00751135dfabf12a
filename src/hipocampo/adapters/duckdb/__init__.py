"""DuckDB with the ``vss`` extension's HNSW index as the vector index: ``duckdb:///file.duckdb``.

Only the vectors live in the DuckDB file; the log, memories and keywords stay in the database of
``HIPOCAMPO_DB``. Needs the extra: ``pip install 'hipocampo[duckdb]'`` (DuckDB and the ``vss``
extension as a pip package, so nothing is downloaded at run time).
"""

from __future__ import annotations

from .vectors import DuckDbVectorIndex, open_vector_index

__all__ = ["DuckDbVectorIndex", "open_vector_index"]
