"""What text and metadata may hold: the one rule every entry point applies before anything is stored.

Python's JSON parser accepts ``NaN``, ``Infinity`` and lone surrogates (``"\\ud800"``), and
SQLite stores them, but nothing can serialise them back: answers are JSON without ``NaN`` and
UTF-8 without surrogates, Postgres refuses them (and NUL characters) outright. Stored, such a
value used to take every read of its user down. So the rule is checked once, here, by the
services every entry point calls (HTTP, MCP, agent tools, CLI import, the Python API), with the
same answer on every backend:

- text (message and memory content, names, queries) is valid Unicode without NUL: no lone
  surrogates, no ``U+0000``;
- metadata is a JSON object of JSON values: string keys, finite numbers, text as above, at most
  :data:`MAX_METADATA_DEPTH` levels deep.

Data stored before the rule (a SQLite file written by an older version) is repaired as it is read
(:func:`repaired`), so a read never fails on it: non-finite numbers become ``null``, lone
surrogates and NUL become U+FFFD.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .errors import InvalidInput

MAX_METADATA_DEPTH = 32
"""Nesting deeper than this is refused: nobody needs it, and walking it costs a stack frame a level."""
MAX_INT_BITS = 13_000
"""Integers longer than this (about 3,900 digits) cannot be written as JSON text by Python."""
REPLACEMENT = "\ufffd"


def text_problem(value: str) -> str | None:
    """Why ``value`` cannot be stored as text, or ``None``."""
    if "\x00" in value:
        return "must not contain NUL characters (U+0000)"
    if not value.isascii():  # the common case skips the encoder
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            return f"is not valid Unicode text: it holds a lone surrogate (U+{ord(value[exc.start]):04X})"
    return None


def check_text(field: str, value: str | None) -> str | None:
    """``value`` unchanged, or :class:`InvalidInput` naming ``field`` (see :func:`text_problem`)."""
    if isinstance(value, str):
        problem = text_problem(value)
        if problem is not None:
            raise InvalidInput(f"{field} {problem}")
    return value


def _key(key: str) -> str:
    # ASCII-escaped, so that a key holding a lone surrogate can be named in an error message.
    return json.dumps(key)


def metadata_problem(value: Any) -> str | None:
    """Why ``value`` cannot be stored as metadata, or ``None``: the path of the first bad value
    (``["a"][0]``, empty for the object itself) and what is wrong with it."""
    if not isinstance(value, dict):
        return f"must be an object, got {type(value).__name__}"
    return _problem(value, "", 0)


def _problem(value: Any, path: str, depth: int) -> str | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        problem = text_problem(value)
        return None if problem is None else f"{path} {problem}".lstrip()
    if isinstance(value, int):
        return None if value.bit_length() <= MAX_INT_BITS else f"{path} is a number too large for JSON".lstrip()
    if isinstance(value, float):
        if math.isfinite(value):
            return None
        return f"{path} must be a finite number: {value!r} is not JSON".lstrip()
    if depth >= MAX_METADATA_DEPTH and isinstance(value, (dict, list, tuple)):
        return f"{path} is nested more than {MAX_METADATA_DEPTH} levels deep".lstrip()
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path} has a key that is not a string ({type(key).__name__})".lstrip()
            problem = text_problem(key)
            if problem is not None:
                return f"{path} has a key {_key(key)} that {problem}".lstrip()
            found = _problem(item, f"{path}[{_key(key)}]", depth + 1)
            if found is not None:
                return found
        return None
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            found = _problem(item, f"{path}[{i}]", depth + 1)
            if found is not None:
                return found
        return None
    return f"{path} is not a JSON value ({type(value).__name__})".lstrip()


def check_metadata(field: str, value: Any) -> dict[str, Any]:
    """``value`` (``None``: an empty object) if it may be stored as metadata, else
    :class:`InvalidInput` naming ``field`` and the path inside it."""
    if value is None:
        return {}
    problem = metadata_problem(value)
    if problem is not None:
        sep = "" if problem.startswith("[") else " "
        raise InvalidInput(f"{field}{sep}{problem}")
    return value  # metadata_problem checked it is a dict


def repaired(value: Any) -> tuple[Any, bool]:
    """``value`` with what :func:`metadata_problem` refuses replaced (non-finite numbers by
    ``None``, lone surrogates and NUL by U+FFFD, non-string keys by their text), and whether
    anything was. For data stored before the rule: a read must not fail on it."""
    if value is None or isinstance(value, (bool, int)):
        return value, False
    if isinstance(value, float):
        return (value, False) if math.isfinite(value) else (None, True)
    if isinstance(value, str):
        return (value, False) if text_problem(value) is None else (repaired_text(value), True)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        changed = False
        for key, item in value.items():
            new_key = repaired_text(str(key))
            new_item, item_changed = repaired(item)
            changed = changed or item_changed or new_key != key
            out[new_key] = new_item
        return (out, True) if changed else (value, False)
    if isinstance(value, (list, tuple)):
        items = [repaired(item) for item in value]
        if any(changed for _, changed in items):
            return [item for item, _ in items], True
        return value, False
    return str(value), True


def repaired_text(value: str) -> str:
    """``value`` with NUL and lone surrogates replaced by U+FFFD."""
    if text_problem(value) is None:
        return value
    clean = value.replace("\x00", REPLACEMENT)
    return "".join(REPLACEMENT if 0xD800 <= ord(c) <= 0xDFFF else c for c in clean)
