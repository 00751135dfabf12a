"""A bare "not anymore" in English, read against the question it answers (see
:mod:`hipocampo.domain.extraction.answers`)."""

from __future__ import annotations

import re

_YOURS = {"your": "my", "yours": "mine", "you": "me", "yourself": "myself"}
_EN = [
    (re.compile(r"^(?:do|does)\s+you\s+(?:still\s+)?(?P<r>.+)$", re.I), "I don't {r} anymore"),
    (re.compile(r"^have\s+you\s+(?:still\s+)?got\s+(?P<r>.+)$", re.I), "I don't have {r} anymore"),
    (re.compile(r"^are\s+you\s+(?:still\s+)?(?P<r>.+)$", re.I), "I'm not {r} anymore"),
    (re.compile(r"^you(?:'re|\s+are)\s+still\s+(?P<r>.+)$", re.I), "I'm not {r} anymore"),
    (re.compile(r"^you\s+still\s+(?P<r>.+)$", re.I), "I don't {r} anymore"),
    (re.compile(r"^still\s+(?P<r>.+)$", re.I), "I'm not {r} anymore"),
    (re.compile(r"^does\s+your\s+(?P<who>(?:\w+\s+){0,2}?\w+)\s+(?:still\s+)?(?P<r>\w+\b.*)$", re.I),
     "my {who} doesn't {r} anymore"),
]  # fmt: skip


def negative_of(question: str) -> str | None:
    """The user's own negative statement answering ``question``: "Do you still live in Porto?" ->
    "I don't live in Porto anymore"; None when the question has no English shape we know."""
    for pattern, template in _EN:
        m = pattern.match(question)
        if m:
            parts = {
                k: re.sub(r"\b(?:your|yours|you|yourself)\b", lambda w: _YOURS[w[0].lower()], v, flags=re.I)
                for k, v in m.groupdict().items()
            }
            return template.format(**parts)
    return None
