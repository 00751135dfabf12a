"""What the user lost or left, said without the old value: a job, a partner, a pet, a course.

Why. "I quit my job", "terminei com o Pedro", "o Thor morreu", "desisti do alemão" end a fact the
memory holds; left unread, the old value stays current and is shown as true (a wrong fact, the
worst outcome). The rules in ``domain/lang/<code>/losses.py`` read the shape; the builders here
make the retraction, and a loss that names no value ("I quit my job") takes it from the memory
(:func:`hipocampo.domain.extraction.context.resolve`): with nothing stored there, it is dropped.
"""

from __future__ import annotations

from ..model import MemoryType as T
from .base import Draft, clean, draft, slug, word_count
from .context import FROM_MEMORY
from .roles import dating, pet_gone

__all__ = ["FROM_MEMORY", "course_dropped", "job_lost", "partner_gone", "pet_lost"]

PARTNER_KEYS = "person:partner,person:boyfriend,person:girlfriend,person:fiance,person:fiancee"


def job_lost() -> list[Draft]:
    """ "I quit my job", "fui demitida": the stored employer, whatever it is, is no longer current."""
    d = draft(T.USER_PROFILE, "employer", "", "employer", prep="em")  # the stored job's preposition is unknown
    d.args[FROM_MEMORY] = "employer"
    d.negated = True
    return [d]


def partner_gone(name: str | None, lang: str) -> list[Draft] | None:
    """ "I broke up with Tom" (that partner), "terminei com o meu namorado" (the stored one)."""
    if name:
        found = dating(name, lang)
        for d in found or []:
            d.negated = True
        return found
    d = draft(T.ENTITY, "person:partner", "", "dating")
    d.args[FROM_MEMORY] = PARTNER_KEYS
    d.negated = True
    return [d]


def pet_lost(text: str, det: str, species_pattern: str, lang: str) -> list[Draft] | None:
    """ "my cat died" (the species' slot), "o Thor morreu" (the stored pet with that name)."""
    return pet_gone(text, det, species_pattern, lang)


def course_dropped(value: str) -> list[Draft] | None:
    """ "I gave up on German", "desisti do alemão": the thing being learnt is no longer learnt."""
    v = clean(value)
    if not v or word_count(v) > 4:
        return None
    d = draft(T.GOAL, f"learning:{slug(v)}", v, "learning")
    d.negated = True
    return [d]
