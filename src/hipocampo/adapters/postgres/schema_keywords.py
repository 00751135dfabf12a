"""Migration 4: each user's keyword statistics, kept by triggers on ``keywords``.

BM25 with a user's own statistics needs the user's document count, total length and, per query
term, how many of the user's documents hold it. Counted at query time they cost a scan of the
user's index entries and a bounded count per term (most of a search at 100,000 memories);
``keyword_corpus`` and ``keyword_df`` hold them instead, read by key.

Triggers rather than the adapter keep them, because rows of ``keywords`` also go when their
memory is deleted (``ON DELETE CASCADE``) and when the index is reset (``TRUNCATE``). They are
statement-level, over the transition tables: indexing a batch is one update per user and term,
not one per document. Rows are changed in key order, so two statements never deadlock; two
workers indexing the same user queue on that user's rows, which a busy user's indexing does
anyway on its counters.
"""

from __future__ import annotations

_CHANGE = """
    INSERT INTO keyword_corpus AS c (tenant_id, user_id, docs, total)
    SELECT tenant_id, user_id, sum(sign), sum(sign * length) FROM ({changes}) x
    GROUP BY tenant_id, user_id ORDER BY tenant_id, user_id
    ON CONFLICT (tenant_id, user_id) DO UPDATE SET docs = c.docs + excluded.docs, total = c.total + excluded.total;
    INSERT INTO keyword_df AS d (tenant_id, user_id, term, df)
    SELECT tenant_id, user_id, term, sum(sign) FROM ({changes}) x, unnest(tsvector_to_array(x.terms)) AS term
    GROUP BY tenant_id, user_id, term HAVING sum(sign) <> 0 ORDER BY tenant_id, user_id, term
    ON CONFLICT (tenant_id, user_id, term) DO UPDATE SET df = d.df + excluded.df;
    DELETE FROM keyword_df d USING (
        SELECT DISTINCT tenant_id, user_id, term FROM ({changes}) x, unnest(tsvector_to_array(x.terms)) AS term
        WHERE x.sign < 0
    ) gone
    WHERE d.tenant_id = gone.tenant_id AND d.user_id = gone.user_id AND d.term = gone.term AND d.df <= 0;
"""
_ADDED = "SELECT tenant_id, user_id, 1 AS sign, terms, length FROM added"
_REMOVED = "SELECT tenant_id, user_id, -1 AS sign, terms, length FROM removed"


def _function(name: str, changes: str) -> str:
    body = _CHANGE.format(changes=changes)
    return f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN{body}    RETURN NULL;\nEND $$"


KEYWORD_STATS_MIGRATION: list[str] = [
    """CREATE TABLE keyword_corpus (
        tenant_id text NOT NULL, user_id text NOT NULL, docs bigint NOT NULL, total bigint NOT NULL,
        PRIMARY KEY (tenant_id, user_id)
    )""",
    """CREATE TABLE keyword_df (
        tenant_id text NOT NULL, user_id text NOT NULL, term text NOT NULL, df bigint NOT NULL,
        PRIMARY KEY (tenant_id, user_id, term)
    )""",
    "INSERT INTO keyword_corpus (tenant_id, user_id, docs, total)"
    " SELECT tenant_id, user_id, count(*), sum(length) FROM keywords GROUP BY tenant_id, user_id",
    "INSERT INTO keyword_df (tenant_id, user_id, term, df)"
    " SELECT tenant_id, user_id, term, count(*) FROM keywords, unnest(tsvector_to_array(terms)) AS term"
    " GROUP BY tenant_id, user_id, term",
    _function("keyword_stats_added", _ADDED),
    _function("keyword_stats_removed", _REMOVED),
    _function("keyword_stats_updated", f"{_ADDED} UNION ALL {_REMOVED}"),
    """CREATE FUNCTION keyword_stats_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        TRUNCATE keyword_corpus, keyword_df;
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER keyword_stats_added AFTER INSERT ON keywords
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION keyword_stats_added()""",
    """CREATE TRIGGER keyword_stats_removed AFTER DELETE ON keywords
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION keyword_stats_removed()""",
    """CREATE TRIGGER keyword_stats_updated AFTER UPDATE ON keywords
        REFERENCING OLD TABLE AS removed NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION keyword_stats_updated()""",
    """CREATE TRIGGER keyword_stats_truncated AFTER TRUNCATE ON keywords
        FOR EACH STATEMENT EXECUTE FUNCTION keyword_stats_truncated()""",
]
