"""Portuguese, Brazilian and European: one bundle reads both variants. Where they differ in form
("estou a trabalhar" / "estou trabalhando", "reformei-me" / "me aposentei", "tu tens" / "você tem")
the rules accept either, so a user is read the same whichever they write, and the facts use the
same slots; the sentences are worded in the Brazilian norm."""

from __future__ import annotations

from .. import Language

LANGUAGE = Language(code="pt", name="Portuguese", variants=("pt-BR", "pt-PT"), stemmer="portuguese")
