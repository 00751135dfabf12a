"""Migration 2 of the Postgres schema: memories, their history, the vector and keyword indexes,
and the memories' share of the quota count.

Index entries reference their memory (``ON DELETE CASCADE``), so deleting a memory takes its
vector and keyword entries with it whichever code path deletes; history rows do not (a history
entry may be written for an id the store does not hold), and the memory store deletes them in
the same statement as the memory.

The vector column is untyped (``vector``, any dimension): the model and dimension are the
index's, fixed by the first vector and released by a reset, as on SQLite. HNSW needs a fixed
dimension, so the vector index creates one partial expression index per dimension when the
first vector of that dimension arrives (see :mod:`.vectors`); nothing here presumes a model.

Keyword entries hold our own analysed terms (Snowball stems, accents folded: ``domain.text``) as a
``tsvector`` built from those terms verbatim, never through a Postgres dictionary, so Postgres
and SQLite match the very same terms. ``length`` (terms in the document) is kept beside it for
BM25's length normalisation.
"""

from __future__ import annotations

_MEMORIES = [
    # ``rid`` orders rows written at the same instant (newest first means created_at, then rid).
    """CREATE TABLE memories (
        rid bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        tenant_id text NOT NULL, user_id text NOT NULL, agent_id text, thread_id text,
        kind text NOT NULL, memory_type text, content text NOT NULL,
        name text, role text, seq bigint,
        importance double precision NOT NULL DEFAULT 0.5,
        source_ids jsonb NOT NULL DEFAULT '[]', metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL, updated_at timestamptz, valid_to timestamptz,
        key text, confidence double precision, mention_count integer NOT NULL DEFAULT 1,
        access_count integer NOT NULL DEFAULT 0, last_accessed timestamptz,
        expires_at timestamptz, event_start timestamptz, event_end timestamptz
    )""",
    "CREATE INDEX memories_scope ON memories (tenant_id, user_id, created_at, rid)",
    "CREATE INDEX memories_thread ON memories (tenant_id, user_id, thread_id, seq)",
    "CREATE INDEX memories_key ON memories (tenant_id, user_id, key) WHERE key IS NOT NULL",
    """CREATE TABLE memory_history (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        memory_id text NOT NULL, tenant_id text NOT NULL, user_id text NOT NULL,
        event text NOT NULL, old_content text, new_content text,
        actor text NOT NULL, reason text, related_id text, created_at timestamptz NOT NULL
    )""",
    "CREATE INDEX memory_history_memory ON memory_history (tenant_id, user_id, memory_id, id)",
]

_VECTORS = [
    """CREATE TABLE vectors (
        memory_id text PRIMARY KEY REFERENCES memories (id) ON DELETE CASCADE,
        tenant_id text NOT NULL, user_id text NOT NULL, agent_id text, thread_id text,
        model text NOT NULL, dim integer NOT NULL, embedding vector NOT NULL
    )""",
    # The exact path (a user's own rows, ordered by distance) and the bounded count that picks
    # between it and HNSW both walk this index.
    "CREATE INDEX vectors_scope ON vectors (tenant_id, user_id)",
    # The model and dimension of the whole index: one row once a vector is stored, none after
    # a reset. Readers never lock it; the first writer inserts it.
    """CREATE TABLE vector_model (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        model text NOT NULL, dim integer NOT NULL CHECK (dim > 0)
    )""",
]

_KEYWORDS = [
    """CREATE TABLE keywords (
        memory_id text PRIMARY KEY REFERENCES memories (id) ON DELETE CASCADE,
        tenant_id text NOT NULL, user_id text NOT NULL,
        terms tsvector NOT NULL, length integer NOT NULL
    )""",
    "CREATE INDEX keywords_terms ON keywords USING gin (terms)",
    # A scope's document count and total length (BM25's statistics) by an index-only scan.
    "CREATE INDEX keywords_scope ON keywords (tenant_id, user_id) INCLUDE (length)",
]

_USAGE = [
    # What the quota counts among memories: facts stored directly, not derived from turns (no
    # source ids). Inserts and deletes are counted per statement over the transition tables, one
    # update per tenant in tenant order (as the messages' triggers do, so the two never deadlock);
    # an update is counted per row, and only when it changes whether the row is a direct fact,
    # so the frequent updates that cannot (touch, re-upserts) never reach the counter.
    """CREATE FUNCTION usage_memories_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO tenant_usage AS u (tenant_id, memories)
        SELECT tenant_id, count(*) FROM added WHERE kind = 'fact' AND source_ids = '[]'::jsonb
        GROUP BY tenant_id ORDER BY tenant_id
        ON CONFLICT (tenant_id) DO UPDATE SET memories = u.memories + excluded.memories;
        RETURN NULL;
    END $$""",
    """CREATE FUNCTION usage_memories_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO tenant_usage AS u (tenant_id, memories)
        SELECT tenant_id, -count(*) FROM removed WHERE kind = 'fact' AND source_ids = '[]'::jsonb
        GROUP BY tenant_id ORDER BY tenant_id
        ON CONFLICT (tenant_id) DO UPDATE SET memories = u.memories + excluded.memories;
        RETURN NULL;
    END $$""",
    """CREATE FUNCTION usage_memories_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO tenant_usage AS u (tenant_id, memories)
        VALUES (NEW.tenant_id, CASE WHEN NEW.kind = 'fact' AND NEW.source_ids = '[]'::jsonb THEN 1 ELSE -1 END)
        ON CONFLICT (tenant_id) DO UPDATE SET memories = u.memories + excluded.memories;
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER usage_memories_added AFTER INSERT ON memories
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION usage_memories_added()""",
    """CREATE TRIGGER usage_memories_removed AFTER DELETE ON memories
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION usage_memories_removed()""",
    """CREATE TRIGGER usage_memories_changed AFTER UPDATE OF kind, source_ids ON memories FOR EACH ROW
        WHEN ((OLD.kind = 'fact' AND OLD.source_ids = '[]'::jsonb)
              IS DISTINCT FROM (NEW.kind = 'fact' AND NEW.source_ids = '[]'::jsonb))
        EXECUTE FUNCTION usage_memories_changed()""",
]

MEMORY_MIGRATION: list[str] = [*_MEMORIES, *_VECTORS, *_KEYWORDS, *_USAGE]
"""Migration 2: one statement per item (plpgsql bodies hold ``;``)."""


ROWS_INDEX_MIGRATION: list[str] = [
    # The exact path's covering index (vector_sql.rows_index_ddl) for a database whose dimension
    # was claimed before it existed; a claim made after this builds it itself.
    """DO $$
    DECLARE d integer;
    BEGIN
        SELECT dim INTO d FROM vector_model;
        IF d IS NOT NULL AND d <= 600 THEN
            EXECUTE format(
                'CREATE INDEX IF NOT EXISTS vectors_rows_%s ON vectors (tenant_id, user_id)'
                ' INCLUDE (agent_id, thread_id, memory_id, embedding) WHERE dim = %s', d, d);
        END IF;
    END $$""",
]
"""Migration 5: the covering index of the exact vector path, for the dimension already held."""
