"""One folder per language: every bundle has the same modules, the registry finds a language by
code or variant, and the shared pipeline never branches on a language code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hipocampo.domain.extraction import extract_facts
from hipocampo.domain.lang import LANGUAGES, language

LANG_DIR = Path(language("en").lexicon.__file__).parent.parent
SRC = LANG_DIR.parent.parent


def test_every_bundle_has_the_same_modules() -> None:
    names = {code: sorted(p.name for p in (LANG_DIR / code).glob("*.py")) for code in LANGUAGES}
    first = next(iter(names.values()))
    assert all(found == first for found in names.values()), names
    for lang in LANGUAGES.values():
        for part in ("lexicon", "grammar", "roles", "answers", "dates", "phrases", "forms", "changes", "clauses"):
            assert lang.module(part) is not None, (lang.code, part)
        for optional in (lang.speech_acts, lang.slang):  # written for ranking; None until a bundle has one
            assert optional is None or optional.__name__.startswith(f"hipocampo.domain.lang.{lang.code}.")


@pytest.mark.parametrize(
    ("tag", "code"), [("en", "en"), ("pt", "pt"), ("pt-BR", "pt"), ("pt_PT", "pt"), ("EN-gb", "en")]
)
def test_a_variant_finds_its_language(tag: str, code: str) -> None:
    assert tag in LANGUAGES
    assert language(tag).code == code


def test_an_unknown_language_is_a_key_error() -> None:
    assert "es" not in LANGUAGES
    with pytest.raises(KeyError):
        language("es")


def test_european_and_brazilian_portuguese_read_alike() -> None:
    brazil = extract_facts("Estou trabalhando na Sonae.", language="pt-BR")
    portugal = extract_facts("Estou a trabalhar na Sonae.", language="pt-PT")
    assert [(f.key, f.value) for f in brazil] == [(f.key, f.value) for f in portugal] == [("employer", "Sonae")]


_BRANCH = re.compile(r"""[=!]=\s*["'](?:pt|en)["']|["'](?:pt|en)["']\s+if\s""")


def test_no_shared_module_branches_on_a_language_code() -> None:
    """The extraction, dates and truth modules ask the language object, never `lang == "pt"`."""
    shared = [*(SRC / "domain" / "extraction").glob("*.py"), *(SRC / "domain" / "dates").glob("*.py")]
    shared += [*(SRC / "domain" / "truth").glob("*.py"), SRC / "domain" / "text.py"]
    offending = [f"{p.name}:{n}" for p in shared for n, line in enumerate(p.read_text().splitlines(), 1)
                 if _BRANCH.search(line)]  # fmt: skip
    assert not offending
