"""How ids arrive over HTTP, and the one rule that turns them into the ids the store uses.

REST takes ids from the path, the query string and JSON bodies; MCP takes them from headers
(``X-Hipocampo-User``...). Both end in :func:`~hipocampo.domain.ids.check_path_id`: Unicode NFC,
no control or invisible characters, no ``/``. Only the transport differs:

- paths and query strings are percent-encoded UTF-8 (``/v1/users/jo%C3%A3o``), which the web
  framework decodes;
- header values are bytes, read as UTF-8 (``X-Hipocampo-User: joão`` sent as UTF-8), then
  percent-decoded exactly like a path segment (``X-Hipocampo-User: jo%C3%A3o``), so a literal
  ``%`` is sent as ``%25``. Bytes that are not UTF-8 are refused, not guessed at: ASGI frameworks
  hand headers over as Latin-1 text, and reading them as such made ``joão`` another user over MCP
  than over REST.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote

from pydantic_core import PydanticCustomError

from ..domain.errors import InvalidInput
from ..domain.ids import check_path_id, id_problem, normal_id, path_id_problem


def header_text(header: str, value: str) -> str:
    """A header value as its sender wrote it: the UTF-8 reading of its bytes, percent-decoded.

    ``value`` is what ASGI frameworks give (each byte as one Latin-1 character); text that is not
    Latin-1 (a caller that already decoded the bytes) is taken as it is."""
    try:
        raw = value.encode("latin-1")
    except UnicodeEncodeError:
        raw = value.encode("utf-8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput(
            f"the {header} header is not UTF-8: send it as UTF-8, or percent-encoded (jo%C3%A3o)"
        ) from None
    try:
        return unquote(text, errors="strict")
    except UnicodeDecodeError:
        raise InvalidInput(f"the {header} header percent-encodes bytes that are not UTF-8") from None


def id_from_header(name: str, header: str, value: str | None, *, required: bool = False) -> str | None:
    """The id named ``name`` carried in ``header`` (absent or empty: ``None``, or an error when
    ``required``), decoded by :func:`header_text` and checked by :func:`check_path_id` (headers
    name tenants, users, threads and agents: ids the REST paths must reach too)."""
    if not value:
        if required:
            raise InvalidInput(f"the {header} header is required: the {name.replace('_id', '')} to act for")
        return None
    return check_path_id(name, header_text(header, value))


def valid_id(value: str | None) -> str | None:
    """Pydantic validator of tenant, user, thread and agent ids in paths, query strings and
    bodies: :func:`check_path_id`'s rule and form, reported as a validation error of the field it
    is attached to (``None`` passes)."""
    return _valid(value, path_id_problem)


def valid_label(value: str | None) -> str | None:
    """:func:`valid_id` for ids that are never path segments (a message's own id, a speaker's
    name) and for the routes that reach users stored before ``/`` was refused: ``/`` passes."""
    return _valid(value, id_problem)


def _valid(value: str | None, problem_of: Callable[[str], str | None]) -> str | None:
    if value is None:
        return None
    value = normal_id(value)
    problem = problem_of(value)
    if problem is not None:
        raise PydanticCustomError("invalid_id", "{problem}", {"problem": problem})
    return value
