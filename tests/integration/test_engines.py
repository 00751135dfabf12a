"""Smoke test of the real servers the suite gets from scripts/engines.sh (see tests/engines.py)."""

from __future__ import annotations

import psycopg
import redis
from engines import fresh_pg_database, fresh_redis_db, redis_namespace, restart_pg, wait_for_pg


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def test_postgres_has_pgvector_with_hnsw_and_iterative_scans(pg_db_url):
    with psycopg.connect(pg_db_url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        (version,) = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
        assert _version_tuple(version) >= (0, 8), version

        conn.execute("CREATE TABLE items (id int PRIMARY KEY, embedding vector(3))")
        conn.execute("CREATE INDEX ON items USING hnsw (embedding vector_cosine_ops)")
        conn.execute("INSERT INTO items VALUES (1, '[1,0,0]'), (2, '[0,1,0]'), (3, '[0,0,1]'), (4, '[0.9,0.1,0]')")
        conn.execute("SET hnsw.iterative_scan = relaxed_order")
        assert conn.execute("SHOW hnsw.iterative_scan").fetchone() == ("relaxed_order",)
        conn.execute("SET enable_seqscan = off")  # make the planner use the HNSW index
        plan = "\n".join(
            row[0] for row in conn.execute("EXPLAIN SELECT id FROM items ORDER BY embedding <=> '[1,0,0]' LIMIT 2")
        )
        assert "items_embedding_idx" in plan, plan
        rows = conn.execute("SELECT id FROM items ORDER BY embedding <=> '[1,0,0]' LIMIT 2").fetchall()
        assert [row[0] for row in rows] == [1, 4]


def test_fresh_databases_are_isolated_and_dropped(pg_url):
    with fresh_pg_database(pg_url) as first, fresh_pg_database(pg_url) as second:
        assert first != second
        with psycopg.connect(first, autocommit=True) as conn:
            conn.execute("CREATE TABLE only_here (x int)")
        with psycopg.connect(second, autocommit=True) as conn:
            assert conn.execute("SELECT to_regclass('only_here')").fetchone() == (None,)
    name = first.rsplit("/", 1)[1]
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM pg_database WHERE datname = %s", (name,)).fetchone() == (0,)


def test_redis_set_get_in_a_leased_database(redis_url):
    with fresh_redis_db(redis_url) as url:
        assert not url.endswith("/0")
        client = redis.Redis.from_url(url)
        try:
            with redis_namespace(url) as ns:
                client.set(ns + "k", "v")
                assert client.get(ns + "k") == b"v"
            assert client.get(ns + "k") is None
            client.set("left-over", "1")
        finally:
            client.close()
    client = redis.Redis.from_url(url)
    try:
        assert client.dbsize() == 0  # flushed when the lease ended
    finally:
        client.close()


def test_postgres_restart_then_reconnect(pg_db_url):
    with psycopg.connect(pg_db_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE durable (x int)")
        conn.execute("INSERT INTO durable VALUES (42)")
    with psycopg.connect(pg_db_url, autocommit=True) as conn:
        restart_pg()
        try:
            conn.execute("SELECT 1")
            raise AssertionError("a connection from before the restart still works")
        except psycopg.OperationalError:
            pass
    wait_for_pg(pg_db_url)
    with psycopg.connect(pg_db_url, autocommit=True) as conn:
        assert conn.execute("SELECT x FROM durable").fetchall() == [(42,)]
