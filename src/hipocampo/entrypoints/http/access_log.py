"""Access logs without query strings: they can hold what users said.

``GET /api/v1/memory/search?query=...`` carries a user's words in the URL, and uvicorn's access
log writes the whole URL. Rather than judging route by route which parameters are private, the
access log never carries a query string at all: the path, method and status are what operators
read it for. (``POST /api/v1/memory/search`` takes the query in the body instead.)
"""

from __future__ import annotations

import logging

ACCESS_LOGGER = "uvicorn.access"


class DropQueryStrings(logging.Filter):
    """Cut everything from ``?`` off the path of uvicorn's access log records.

    uvicorn logs ``'%s - "%s %s HTTP/%s" %d'`` with ``(client, method, path_with_query, version,
    status)``; any argument that looks like a path loses its query string."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                a.split("?", 1)[0] if isinstance(a, str) and a.startswith("/") else a for a in record.args
            )
        return True


def drop_query_strings(logger_name: str = ACCESS_LOGGER) -> None:
    """Install :class:`DropQueryStrings` on the access logger, once. Call after uvicorn configured
    logging (``uvicorn.Config(...)`` does), since configuring may replace the logger's set-up."""
    logger = logging.getLogger(logger_name)
    if not any(isinstance(f, DropQueryStrings) for f in logger.filters):
        logger.addFilter(DropQueryStrings())
