"""The migration that adds per-user keyword statistics fills them from an existing index (SQLite and
Postgres): undone and applied again over a store indexed by the current code, it gives back the
very statistics the code kept while indexing."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import datetime, timezone

import psycopg

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.postgres import schema as pg_schema
from hipocampo.adapters.sqlite import schema as sqlite_schema
from hipocampo.backends import open_storage
from hipocampo.domain.model import MemoryItem, MemoryKind, Role, Scope
from hipocampo.settings import Settings

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
USERS = [Scope("acme", "alice"), Scope("acme", "bob"), Scope("globex", "alice")]
TEXTS = ["my sister lives in Lisbon", "Lisbon, Lisbon: the sister city", "o almoço de domingo foi ótimo", ""]
STATS = (
    "SELECT tenant_id, user_id, docs, total FROM keyword_corpus ORDER BY 1, 2",
    "SELECT tenant_id, user_id, term, df FROM keyword_df ORDER BY 1, 2, 3",
)


def _index(url: str) -> None:
    async def main() -> None:
        storage = await open_storage(url, clock=FakeClock(T0), settings=Settings(db=url))
        try:
            for u, scope in enumerate(USERS):
                items = [
                    MemoryItem(
                        id=f"{u}-{i}",
                        scope=scope,
                        kind=MemoryKind.TURN,
                        content=text,
                        created_at=T0,
                        thread_id="t1",
                        seq=i,
                        role=Role.USER,
                    )
                    for i, text in enumerate(TEXTS[u:])
                ]
                await storage.memories.upsert(items)
                await storage.keywords.upsert(scope, [(m.id, m.content) for m in items])
            await storage.keywords.upsert(USERS[0], [("0-0", "my brother lives in Porto")])
            await storage.memories.delete(USERS[1], ["1-1"])
        finally:
            await storage.close()

    asyncio.run(main())


def test_sqlite_backfill_matches_the_kept_statistics(tmp_path) -> None:
    path = tmp_path / "kw.db"
    _index(f"sqlite:///{path}")
    version = len(sqlite_schema.MIGRATIONS)
    with sqlite3.connect(path) as conn:
        kept = [conn.execute(q).fetchall() for q in STATS]
        conn.execute("DROP TABLE keyword_corpus")
        conn.execute("DROP TABLE keyword_df")
        conn.execute("DELETE FROM schema_migrations WHERE version = ?", (version,))
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert sqlite_schema.migrate(conn) == version
        assert [conn.execute(q).fetchall() for q in STATS] == kept
    finally:
        conn.close()
    assert kept[0] and kept[1]


def test_postgres_backfill_matches_the_kept_statistics(pg_db_url: str) -> None:
    asyncio.run(pg_schema.migrate(pg_db_url))
    _index(pg_db_url)
    with psycopg.connect(pg_db_url, autocommit=True) as conn:
        kept = [conn.execute(q).fetchall() for q in STATS]
        conn.execute("DROP TABLE keyword_corpus, keyword_df")
        for name in ("added", "removed", "updated", "truncated"):
            conn.execute(f"DROP TRIGGER keyword_stats_{name} ON keywords")
            conn.execute(f"DROP FUNCTION keyword_stats_{name}()")
        # the keyword statistics' migration and any after it (each may run again)
        version = pg_schema.MIGRATIONS.index(pg_schema.KEYWORD_STATS_MIGRATION) + 1
        conn.execute("DELETE FROM schema_migrations WHERE version >= %s", (version,))
    asyncio.run(pg_schema.migrate(pg_db_url))
    with psycopg.connect(pg_db_url) as conn:
        assert [conn.execute(q).fetchall() for q in STATS] == kept
    assert kept[0] and kept[1]
