"""Numbered, forward-only migrations, recorded in ``schema_migrations``.

Times are stored as float epoch seconds (UTC): sortable, compact and unambiguous.
"""

from __future__ import annotations

import sqlite3

FTS_TABLE = "CREATE VIRTUAL TABLE memory_fts USING fts5 (terms, tokenize = 'unicode61 remove_diacritics 2')"
"""Also used by reindex to rebuild the keyword index. Changing it needs a new migration."""

MIGRATIONS: list[str | list[str]] = [
    # A migration is a script of plain statements, or a list of statements when one holds a ";"
    # (a trigger body).
    # 1: log, memories, indexes, outbox
    """
    CREATE TABLE threads (
        tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, thread_id TEXT NOT NULL,
        agent_id TEXT, created_at REAL NOT NULL, last_seq INTEGER NOT NULL DEFAULT -1,
        PRIMARY KEY (tenant_id, user_id, thread_id)
    );
    CREATE TABLE messages (
        rid INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        external_id TEXT,
        tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, agent_id TEXT, thread_id TEXT NOT NULL,
        seq INTEGER NOT NULL, role TEXT NOT NULL, name TEXT, content TEXT NOT NULL,
        created_at REAL NOT NULL, ingested_at REAL NOT NULL, metadata TEXT NOT NULL DEFAULT '{}',
        UNIQUE (tenant_id, user_id, thread_id, seq)
    );
    CREATE UNIQUE INDEX messages_external ON messages (tenant_id, user_id, external_id)
        WHERE external_id IS NOT NULL;
    CREATE TABLE memories (
        rid INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, agent_id TEXT, thread_id TEXT,
        kind TEXT NOT NULL, memory_type TEXT, content TEXT NOT NULL,
        name TEXT, role TEXT, seq INTEGER,
        importance REAL NOT NULL DEFAULT 0.5,
        source_ids TEXT NOT NULL DEFAULT '[]', metadata TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL, updated_at REAL, valid_to REAL
    );
    CREATE INDEX memories_scope ON memories (tenant_id, user_id, created_at);
    CREATE INDEX memories_thread ON memories (tenant_id, user_id, thread_id, seq);
    $FTS_TABLE;
    CREATE TABLE vectors (
        rid INTEGER PRIMARY KEY AUTOINCREMENT,
        memory_id TEXT NOT NULL UNIQUE,
        tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, agent_id TEXT, thread_id TEXT,
        model TEXT NOT NULL, dim INTEGER NOT NULL, vec BLOB NOT NULL
    );
    CREATE INDEX vectors_scope ON vectors (tenant_id, user_id, rid);
    CREATE TABLE vector_epochs (
        tenant_id TEXT NOT NULL, user_id TEXT NOT NULL,
        epoch INTEGER NOT NULL DEFAULT 0, rewrites INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tenant_id, user_id)
    );
    CREATE TABLE index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL, tenant_id TEXT NOT NULL, user_id TEXT NOT NULL,
        payload TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0, run_after REAL NOT NULL, locked_until REAL,
        last_error TEXT, created_at REAL NOT NULL, updated_at REAL NOT NULL
    );
    CREATE INDEX jobs_ready ON jobs (status, run_after);
    CREATE TABLE summaries (
        tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, thread_id TEXT NOT NULL,
        content TEXT NOT NULL, messages_summarized INTEGER NOT NULL,
        last_message_seq INTEGER NOT NULL, token_count INTEGER NOT NULL, updated_at REAL NOT NULL,
        PRIMARY KEY (tenant_id, user_id, thread_id)
    );
    """.replace("$FTS_TABLE", FTS_TABLE),
    # 2: facts that stay true over time: slots, mentions, access, expiry, dated events, history
    """
    ALTER TABLE memories ADD COLUMN key TEXT;
    ALTER TABLE memories ADD COLUMN confidence REAL;
    ALTER TABLE memories ADD COLUMN mention_count INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE memories ADD COLUMN access_count INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE memories ADD COLUMN last_accessed REAL;
    ALTER TABLE memories ADD COLUMN expires_at REAL;
    ALTER TABLE memories ADD COLUMN event_start REAL;
    ALTER TABLE memories ADD COLUMN event_end REAL;
    CREATE INDEX memories_key ON memories (tenant_id, user_id, key) WHERE key IS NOT NULL;
    CREATE TABLE memory_history (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        memory_id TEXT NOT NULL, tenant_id TEXT NOT NULL, user_id TEXT NOT NULL,
        event TEXT NOT NULL, old_content TEXT, new_content TEXT,
        actor TEXT NOT NULL, reason TEXT, related_id TEXT, created_at REAL NOT NULL
    );
    CREATE INDEX memory_history_memory ON memory_history (tenant_id, user_id, memory_id, id);
    """,
    # 3: the service: tenants, their API keys (hashed) and idempotent writes
    """
    CREATE TABLE tenants (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, plan TEXT NOT NULL,
        requests_per_minute INTEGER, max_memories INTEGER,
        disabled INTEGER NOT NULL DEFAULT 0, created_at REAL NOT NULL
    );
    CREATE TABLE api_keys (
        id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL REFERENCES tenants (id),
        role TEXT NOT NULL, secret_hash TEXT NOT NULL, name TEXT NOT NULL DEFAULT '',
        created_at REAL NOT NULL, revoked_at REAL, last_used_at REAL
    );
    CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at);
    CREATE TABLE idempotency (
        tenant_id TEXT NOT NULL, key TEXT NOT NULL, request_hash TEXT NOT NULL,
        status_code INTEGER NOT NULL, body TEXT, created_at REAL NOT NULL,
        PRIMARY KEY (tenant_id, key)
    );
    CREATE INDEX idempotency_created ON idempotency (created_at);
    """,
    # 4: an exact per-tenant count of stored memories (the memory quota), kept by triggers in the
    # same transaction as every write, whichever code path writes. What counts: each message in
    # the log (one turn) and each fact stored directly, not derived from turns (source_ids '[]').
    # Derived memories (turn index entries, extracted facts, summaries) are the product's work.
    [
        "CREATE TABLE tenant_usage (tenant_id TEXT PRIMARY KEY, memories INTEGER NOT NULL DEFAULT 0)",
        """INSERT INTO tenant_usage (tenant_id, memories)
           SELECT tenant_id, sum(n) FROM (
               SELECT tenant_id, count(*) AS n FROM messages GROUP BY tenant_id
               UNION ALL
               SELECT tenant_id, count(*) FROM memories WHERE kind = 'fact' AND source_ids = '[]' GROUP BY tenant_id
           ) GROUP BY tenant_id""",
        """CREATE TRIGGER usage_message_added AFTER INSERT ON messages BEGIN
               INSERT INTO tenant_usage (tenant_id, memories) VALUES (NEW.tenant_id, 1)
               ON CONFLICT (tenant_id) DO UPDATE SET memories = memories + 1;
           END""",
        """CREATE TRIGGER usage_message_removed AFTER DELETE ON messages BEGIN
               UPDATE tenant_usage SET memories = memories - 1 WHERE tenant_id = OLD.tenant_id;
           END""",
        """CREATE TRIGGER usage_fact_added AFTER INSERT ON memories
           WHEN NEW.kind = 'fact' AND NEW.source_ids = '[]' BEGIN
               INSERT INTO tenant_usage (tenant_id, memories) VALUES (NEW.tenant_id, 1)
               ON CONFLICT (tenant_id) DO UPDATE SET memories = memories + 1;
           END""",
        """CREATE TRIGGER usage_fact_changed AFTER UPDATE OF kind, source_ids ON memories
           WHEN (OLD.kind = 'fact' AND OLD.source_ids = '[]') != (NEW.kind = 'fact' AND NEW.source_ids = '[]')
           BEGIN
               INSERT INTO tenant_usage (tenant_id, memories)
               VALUES (NEW.tenant_id, CASE WHEN NEW.kind = 'fact' AND NEW.source_ids = '[]' THEN 1 ELSE -1 END)
               ON CONFLICT (tenant_id) DO UPDATE SET memories = memories + excluded.memories;
           END""",
        """CREATE TRIGGER usage_fact_removed AFTER DELETE ON memories
           WHEN OLD.kind = 'fact' AND OLD.source_ids = '[]' BEGIN
               UPDATE tenant_usage SET memories = memories - 1 WHERE tenant_id = OLD.tenant_id;
           END""",
    ],
    # 5: claims fair across tenants read each tenant's pending jobs in id order (and find the
    # tenants waiting by skipping through this index), never sorting the whole backlog.
    [
        "CREATE INDEX jobs_tenant_queue ON jobs (status, tenant_id, id)",
    ],
    # 6: thread versions, which caches of a thread's messages (the recent window) compare with
    # theirs (MessageLog.thread_version). Values come from one counter that only grows, so a
    # thread deleted and written again never gets back a version some cache may still hold.
    # Existing threads start at 1; 0 stays for "no such thread".
    [
        "ALTER TABLE threads ADD COLUMN version INTEGER NOT NULL DEFAULT 1",
        "CREATE TABLE thread_version_clock (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL)",
        "INSERT INTO thread_version_clock (id, value) VALUES (1, 1)",
    ],
    # 7: a user's closed facts, most recently closed first (MemoryStore.closed_facts, read on every
    # search): a partial index holds only them, so the read is bounded by its limit, not by the
    # user's memories.
    [
        "CREATE INDEX memories_closed_facts ON memories (tenant_id, user_id, valid_to)"
        " WHERE valid_to IS NOT NULL AND key IS NOT NULL",
    ],
    # 8: each user's keyword statistics (BM25's document count, total length and document
    # frequencies), kept by the keyword index as it writes, so a search reads them by key instead
    # of counting the user's documents. Filled here from the index as it stands: lengths count a
    # document's terms (space-separated), frequencies its distinct terms (FTS5's own vocabulary).
    [
        "CREATE TABLE keyword_corpus (tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, docs INTEGER NOT NULL,"
        " total INTEGER NOT NULL, PRIMARY KEY (tenant_id, user_id)) WITHOUT ROWID",
        "CREATE TABLE keyword_df (tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, term TEXT NOT NULL,"
        " df INTEGER NOT NULL, PRIMARY KEY (tenant_id, user_id, term)) WITHOUT ROWID",
        "INSERT INTO keyword_corpus (tenant_id, user_id, docs, total)"
        " SELECT m.tenant_id, m.user_id, count(*), sum((c.c0 != '') + length(c.c0) - length(replace(c.c0, ' ', '')))"
        " FROM memory_fts_content c JOIN memories m ON m.rid = c.id GROUP BY m.tenant_id, m.user_id",
        "CREATE VIRTUAL TABLE temp.keyword_terms_backfill USING fts5vocab(main, memory_fts, instance)",
        "INSERT INTO keyword_df (tenant_id, user_id, term, df)"
        " SELECT m.tenant_id, m.user_id, v.term, count(DISTINCT v.doc)"
        " FROM temp.keyword_terms_backfill v JOIN memories m ON m.rid = v.doc GROUP BY m.tenant_id, m.user_id, v.term",
        "DROP TABLE temp.keyword_terms_backfill",
    ],
]


def migrate(conn: sqlite3.Connection) -> int:
    """Apply pending migrations; returns the schema version. Safe to run from several processes."""
    conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)")
    conn.execute("BEGIN IMMEDIATE")
    try:
        (current,) = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
        for version, sql in enumerate(MIGRATIONS[current:], start=current + 1):
            for statement in _statements(sql):
                conn.execute(statement)
            conn.execute("INSERT INTO schema_migrations (version) VALUES (?)", (version,))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return len(MIGRATIONS)


def _statements(sql: str | list[str]) -> list[str]:
    # executescript() would commit our transaction; scripts have no ';' inside statements.
    if isinstance(sql, list):
        return sql
    return [s.strip() for s in sql.split(";") if s.strip()]
