"""Numbered, forward-only migrations of the Postgres schema, recorded in ``schema_migrations``.

Unlike SQLite, a Postgres database is shared by many servers and workers, so nothing migrates it
behind the operator's back: ``hipocampo migrate`` applies what is pending (:func:`migrate`), and
opening the storage only checks the version (:func:`check_schema`) and refuses an old schema
with a message that says what to run. Migrations run in one transaction under an advisory lock,
so concurrent ``migrate`` runs (a deploy starting several replicas) apply each step exactly once,
and a failed step leaves the schema as it was (Postgres DDL is transactional; no statement may
therefore be ``CREATE INDEX CONCURRENTLY``).

A migration is a list of statements (plpgsql bodies hold ``;``, so scripts are not split).
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg

from ...domain.errors import ConfigurationError
from . import conninfo
from .schema_keywords import KEYWORD_STATS_MIGRATION
from .schema_memories import MEMORY_MIGRATION, ROWS_INDEX_MIGRATION

log = logging.getLogger(__name__)

MIGRATION_LOCK = 0x6869_706F_6361_6D70  # "hipocamp": the pg_advisory_xact_lock key of migrations
"""Held for the whole migration transaction: a second ``migrate`` waits, then finds nothing to do."""

LOG_MIGRATION: list[str] = [
    "CREATE EXTENSION IF NOT EXISTS vector",
    # The log. ``rid`` orders every message in write order (reindex walks it); ``seq`` is the
    # position in the thread, assigned under the thread row's lock. A thread's ``version``
    # changes with every change of its messages (MessageLog.thread_version, which caches of the
    # recent window compare with theirs); values come from a sequence, which never hands out a
    # value twice, so a thread deleted and written again never gets back one a cache may hold.
    "CREATE SEQUENCE thread_versions AS bigint START 1",
    """CREATE TABLE threads (
        tenant_id text NOT NULL, user_id text NOT NULL, thread_id text NOT NULL,
        agent_id text, created_at timestamptz NOT NULL, last_seq bigint NOT NULL DEFAULT -1,
        version bigint NOT NULL DEFAULT nextval('thread_versions'),
        PRIMARY KEY (tenant_id, user_id, thread_id)
    )""",
    """CREATE TABLE messages (
        rid bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        external_id text,
        tenant_id text NOT NULL, user_id text NOT NULL, agent_id text, thread_id text NOT NULL,
        seq bigint NOT NULL, role text NOT NULL, name text, content text NOT NULL,
        created_at timestamptz NOT NULL, ingested_at timestamptz NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        UNIQUE (tenant_id, user_id, thread_id, seq)
    )""",
    """CREATE UNIQUE INDEX messages_external ON messages (tenant_id, user_id, external_id)
        WHERE external_id IS NOT NULL""",
    # The outbox. Jobs leave the table when completed; the partial index holds only the live ones
    # (pending or running), per tenant in id order: the fair claim reads each tenant's head there.
    """CREATE TABLE jobs (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind text NOT NULL, tenant_id text NOT NULL, user_id text NOT NULL,
        payload jsonb NOT NULL, status text NOT NULL DEFAULT 'pending'
            CHECK (status IN ('pending', 'running', 'dead')),
        attempts integer NOT NULL DEFAULT 0, run_after timestamptz NOT NULL, locked_until timestamptz,
        last_error text, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL
    )""",
    "CREATE INDEX jobs_live ON jobs (tenant_id, id) WHERE status IN ('pending', 'running')",
    "CREATE INDEX jobs_dead ON jobs (id) WHERE status = 'dead'",
    """CREATE TABLE summaries (
        tenant_id text NOT NULL, user_id text NOT NULL, thread_id text NOT NULL,
        content text NOT NULL, messages_summarized integer NOT NULL,
        last_message_seq bigint NOT NULL, token_count integer NOT NULL, updated_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, user_id, thread_id)
    )""",
    # The service: tenants, API keys (hashed), idempotent answers (``json``, not ``jsonb``: a
    # replayed answer is the first one verbatim, keys in their order).
    """CREATE TABLE tenants (
        id text PRIMARY KEY, name text NOT NULL, plan text NOT NULL,
        requests_per_minute integer, max_memories bigint,
        disabled boolean NOT NULL DEFAULT false, created_at timestamptz NOT NULL
    )""",
    """CREATE TABLE api_keys (
        id text PRIMARY KEY, tenant_id text NOT NULL REFERENCES tenants (id),
        role text NOT NULL, secret_hash text NOT NULL, name text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL, revoked_at timestamptz, last_used_at timestamptz
    )""",
    "CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at)",
    """CREATE TABLE idempotency (
        tenant_id text NOT NULL, key text NOT NULL, request_hash text NOT NULL,
        status_code integer NOT NULL, body json, created_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, key)
    )""",
    "CREATE INDEX idempotency_created ON idempotency (created_at)",
    # Readiness probes rewrite this table's one row (PostgresDatabase.probe_write).
    "CREATE TABLE health (id integer PRIMARY KEY, probed_at timestamptz NOT NULL)",
    # The memory quota: an exact per-tenant count, kept by triggers in the writer's transaction
    # (each message in the log; the memories migration adds the directly stored facts). The
    # upsert takes the tenant row's lock, so racing writers of one tenant queue behind each
    # other and a quota check inside the write's transaction is exact.
    "CREATE TABLE tenant_usage (tenant_id text PRIMARY KEY, memories bigint NOT NULL DEFAULT 0)",
    # Statement-level, over the transition tables: deleting a user's 10,000 messages is one
    # update per tenant, not 10,000. Tenants in id order, so two statements never deadlock.
    """CREATE FUNCTION usage_messages_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO tenant_usage AS u (tenant_id, memories)
        SELECT tenant_id, count(*) FROM added GROUP BY tenant_id ORDER BY tenant_id
        ON CONFLICT (tenant_id) DO UPDATE SET memories = u.memories + excluded.memories;
        RETURN NULL;
    END $$""",
    """CREATE FUNCTION usage_messages_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO tenant_usage AS u (tenant_id, memories)
        SELECT tenant_id, -count(*) FROM removed GROUP BY tenant_id ORDER BY tenant_id
        ON CONFLICT (tenant_id) DO UPDATE SET memories = u.memories + excluded.memories;
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER usage_messages_added AFTER INSERT ON messages
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION usage_messages_added()""",
    """CREATE TRIGGER usage_messages_removed AFTER DELETE ON messages
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION usage_messages_removed()""",
]
"""Migration 1: the log, the outbox, summaries, tenants and keys, idempotency, the quota count."""

CLOSED_FACTS_MIGRATION: list[str] = [
    "CREATE INDEX memories_closed_facts ON memories (tenant_id, user_id, valid_to DESC, rid DESC)"
    " WHERE valid_to IS NOT NULL AND key IS NOT NULL",
]
"""Migration 3: a user's closed facts, most recently closed first (``MemoryStore.closed_facts``,
read on every search): a partial index holds only them, so the read stops at its limit."""

MIGRATIONS: list[list[str]] = [
    LOG_MIGRATION,
    MEMORY_MIGRATION,
    CLOSED_FACTS_MIGRATION,
    KEYWORD_STATS_MIGRATION,
    ROWS_INDEX_MIGRATION,
]
"""Migration ``n`` is ``MIGRATIONS[n - 1]``. Append only: a released migration never changes."""

LATEST = len(MIGRATIONS)


def _redact(url: str) -> str:
    from ...domain.urls import redact

    return redact(url)


async def current_version(conn: psycopg.AsyncConnection[Any]) -> int:
    """The schema version of the database ``conn`` is on: 0 when nothing was ever migrated."""
    cur = await conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL AS present")
    row = await cur.fetchone()
    if not _first(row):
        return 0
    cur = await conn.execute("SELECT coalesce(max(version), 0) AS version FROM schema_migrations")
    return int(_first(await cur.fetchone()))


async def migrate(url: str) -> tuple[int, int]:
    """Apply the pending migrations to the database at ``url``; returns ``(before, after)``
    versions. Safe to run from several processes at once, and a no-op when up to date."""
    try:
        conn = await psycopg.AsyncConnection.connect(conninfo(url))
    except psycopg.Error as exc:
        raise ConfigurationError(f"cannot connect to Postgres at {_redact(url)}: {exc}") from exc
    try:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations"
                " (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            before = await current_version(conn)
            for version in range(before + 1, LATEST + 1):
                for statement in MIGRATIONS[version - 1]:
                    await conn.execute(statement)
                await conn.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (version,))
                log.info("applied migration %d of %d to %s", version, LATEST, _redact(url))
        return before, max(before, LATEST)
    finally:
        await conn.close()


async def pending(url: str) -> list[int]:
    """The versions :func:`migrate` would apply to the database at ``url``."""
    try:
        conn = await psycopg.AsyncConnection.connect(conninfo(url), autocommit=True)
    except psycopg.Error as exc:
        raise ConfigurationError(f"cannot connect to Postgres at {_redact(url)}: {exc}") from exc
    try:
        return list(range(await current_version(conn) + 1, LATEST + 1))
    finally:
        await conn.close()


async def check_schema(conn: psycopg.AsyncConnection[Any], url: str) -> int:
    """Refuse a database whose schema is behind this code; returns its version.

    A newer schema is accepted (with a warning): migrations only add, so during a rolling
    deploy the servers still on the old code keep working after the first new one migrated.
    """
    version = await current_version(conn)
    if version < LATEST:
        raise ConfigurationError(
            f"the database at {_redact(url)} is at schema version {version} of {LATEST}: run `hipocampo migrate`"
        )
    if version > LATEST:
        log.warning(
            "the database at %s is at schema version %d, newer than this hipocampo's %d", _redact(url), version, LATEST
        )
    return version


def _first(row: Any) -> Any:
    # Rows are dicts on the stores' pool and tuples on a plain connection.
    if isinstance(row, dict):
        return next(iter(row.values()))
    return row[0]
