"""Sentences that say a fact changed: "Ana moved from São Paulo to Lisbon in January." Pure.

A summary that folds "I live in São Paulo" and, later, "I moved to Lisbon" must not leave the
reader to work out which holds: it says so, in the thread's language. Summaries and consolidated
memories both use these sentences, from the superseded fact's slot (its key), its old and new
values and the day of the change.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

MONTHS = {
    "en": (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ),
    "pt": (
        "janeiro",
        "fevereiro",
        "março",
        "abril",
        "maio",
        "junho",
        "julho",
        "agosto",
        "setembro",
        "outubro",
        "novembro",
        "dezembro",
    ),
}

_HOME = ("home", "home_city", "home_country", "city", "country")
_TEMPLATES: dict[str, dict[str, str]] = {
    "en": {
        **dict.fromkeys(_HOME, "{S} moved from {old} to {new} {when}."),
        "employer": "{S} changed jobs from {old} to {new} {when}.",
        "occupation": "{S} went from {old} to {new} {when}.",
        "work_city": "{S} went from working in {old} to working in {new} {when}.",
        "school": "{S} changed schools from {old} to {new} {when}.",
        "diet": "{S} went from {old} to {new} {when}.",
        "marital": "{S} went from {old} to {new} {when}.",
        "status": "{S} went from {old} to {new} {when}.",
        "*": "{P} {label} changed from {old} to {new} {when}.",
    },
    "pt": {
        **dict.fromkeys(_HOME, "{S} mudou de {old} para {new} {when}."),
        "employer": "{S} trocou de emprego, de {old} para {new}, {when}.",
        "occupation": "{S} passou de {old} a {new} {when}.",
        "work_city": "{S} passou a trabalhar em {new} (antes em {old}) {when}.",
        "school": "{S} mudou de escola, de {old} para {new}, {when}.",
        "*": "{label} de {S} mudou de {old} para {new} {when}.",
    },
}
_SUBJECT = {"en": "The user", "pt": "O usuário"}


@dataclass(frozen=True)
class FactChange:
    """A single-valued fact superseded: ``key`` went from ``old`` to ``new`` on ``when``; ``who``
    said so (a speaker's name, or "" for the user)."""

    key: str
    old: str
    new: str
    when: datetime
    who: str = ""
    feminine: bool = False  # the user spoke of herself in the feminine: "A usuária", as her facts say


def month_phrase(when: datetime, language: str, *, same_year_as: datetime | None = None) -> str:
    """ "in January" / "em janeiro", with the year when it differs from ``same_year_as``'s."""
    month = MONTHS["pt" if language == "pt" else "en"][when.month - 1]
    if same_year_as is None or same_year_as.year != when.year:
        month = f"{month} {when.year}" if language != "pt" else f"{month} de {when.year}"
    return f"em {month}" if language == "pt" else f"in {month}"


def describe_change(change: FactChange, language: str, *, reference: datetime | None = None) -> str:
    """One sentence, in ``language`` ("pt" or "en"), saying what changed and when."""
    lang = "pt" if language == "pt" else "en"
    templates = _TEMPLATES[lang]
    subject = change.who or ("A usuária" if lang == "pt" and change.feminine else _SUBJECT[lang])
    template = templates.get(change.key, templates["*"])
    label = change.key.replace("_", " ")
    possessive = f"{subject}'s" if lang == "en" and change.who else "The user's"
    text = template.format(
        S=subject,
        P=possessive,
        label=label,
        old=change.old,
        new=change.new,
        when=month_phrase(change.when, lang, same_year_as=reference),
    )
    return text[:1].upper() + text[1:]
