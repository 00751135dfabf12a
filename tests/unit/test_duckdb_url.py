"""Where a ``duckdb://`` URL puts its file: SQLAlchemy's rule, as for ``sqlite:///`` (three
slashes then the path: relative as written, absolute with a fourth slash), as docs/vector-indexes.md
states it."""

from __future__ import annotations

import os

import pytest

from hipocampo.domain.errors import ConfigurationError

vectors = pytest.importorskip("hipocampo.adapters.duckdb.vectors", exc_type=ImportError)


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("duckdb:///vectors.duckdb", "vectors.duckdb"),
        ("duckdb:///data/vec.duckdb", "data/vec.duckdb"),  # relative to the working directory
        ("duckdb:////data/vec.duckdb", "/data/vec.duckdb"),  # absolute: four slashes
        ("duckdb:////data/vec.duckdb?threads=2", "/data/vec.duckdb"),
        ("duckdb:///~/vec.duckdb", os.path.expanduser("~/vec.duckdb")),
    ],
)
def test_a_duckdb_url_follows_the_sqlalchemy_path_rule(url: str, path: str) -> None:
    assert vectors.duckdb_path(url) == path


def test_a_duckdb_url_without_a_file_says_how_to_write_one() -> None:
    with pytest.raises(ConfigurationError, match=r"duckdb:////abs/path"):
        vectors.duckdb_path("duckdb:///")
