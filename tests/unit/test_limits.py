"""The call limits clients read without the engine (``domain.limits``) are the ones the engine
enforces."""

from hipocampo.domain import limits
from hipocampo.services import ingest, retrieval


def test_the_limits_a_remote_client_reads_are_the_engines() -> None:
    assert limits.MAX_QUERY_CHARS == retrieval.MAX_QUERY_CHARS
    assert limits.MAX_MESSAGES_PER_CALL == ingest.MAX_MESSAGES_PER_CALL
