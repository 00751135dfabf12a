"""The SQL core both built-in SQL backends share (``sqlite/`` and ``postgres/``).

- :mod:`.dialect`: :class:`~.dialect.Dialect`, what differs between the engines (placeholders,
  lists of ids, JSON access, how times and JSON are written and read), one value per engine;
- :mod:`.where`: the conditions every store filters by (scope, validity), written once;
- :mod:`.rows`: one row mapper per domain type;
- the stores' shared halves (:mod:`.memories`, :mod:`.messages`, :mod:`.jobs`, :mod:`.summaries`,
  :mod:`.tenants`, :mod:`.idempotency`), which each engine's store subclasses with what it does its
  own way (connections, transactions, FTS5 or tsvector, sqlite-vec or pgvector, batch writes).

Nothing here opens a connection; it imports neither engine's driver.
"""
