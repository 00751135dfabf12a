"""The size limits of a call, as data: the service, the remote agent and the integrations check
input against them before any work, and a client running elsewhere (the remote agent) reads them
without importing the engine.

``services.retrieval.MAX_QUERY_CHARS`` and ``services.ingest.MAX_MESSAGES_PER_CALL`` are the
limits the engine enforces; a unit test holds these equal to them.
"""

from __future__ import annotations

MAX_QUERY_CHARS = 4000
"""Characters of a search or recall query."""

MAX_MESSAGES_PER_CALL = 1000
"""Messages one call may add."""
