"""domain.text: folding, language detection, analysis for keyword search, name spotting."""

from __future__ import annotations

import pytest

from hipocampo.domain.text import (
    analyze,
    content_words,
    detect_language,
    fold,
    names_in,
    query_terms,
)


class TestFold:
    @pytest.mark.parametrize(
        ("text", "folded"),
        [
            ("Ação", "acao"),
            ("CORAÇÃO", "coracao"),
            ("avó, avô, pão", "avo, avo, pao"),
            ("Über naïve Zoë", "uber naive zoe"),
            ("plain", "plain"),
            ("", ""),
        ],
    )
    def test_lowercases_and_strips_accents(self, text: str, folded: str) -> None:
        assert fold(text) == folded

    def test_is_idempotent(self) -> None:
        text = "Informação Útil à Beça"
        assert fold(fold(text)) == fold(text)


class TestDetectLanguage:
    @pytest.mark.parametrize(
        "text",
        [
            "Eu sou alérgica a amendoim e não como isso",
            "Você vai para a praia amanhã?",
            "ação",  # no stopwords, but the accents say Portuguese
            "Minha irmã mora em Lisboa com o marido",
        ],
    )
    def test_portuguese(self, text: str) -> None:
        assert detect_language(text) == "pt"

    @pytest.mark.parametrize(
        "text",
        [
            "I am allergic to peanuts and I do not eat them",
            "What did you do on the weekend?",
            "My sister lives in Lisbon with her husband",
        ],
    )
    def test_english(self, text: str) -> None:
        assert detect_language(text) == "en"

    @pytest.mark.parametrize("text", ["", "Lisboa Porto 2024", "ok"])
    def test_ties_are_english(self, text: str) -> None:
        assert detect_language(text) == "en"


class TestAnalyze:
    def test_english_drops_stopwords_and_stems(self) -> None:
        assert analyze("The children were running to the stores") == ["children", "run", "store"]

    def test_portuguese_drops_stopwords_and_stems(self) -> None:
        terms = analyze("As crianças estavam correndo para as lojas")
        assert terms == ["crianc", "estav", "corr", "loj"]
        assert not {"as", "para"} & set(terms)

    def test_terms_are_folded(self) -> None:
        assert analyze("Eu sou alérgica a camarão e a amendoim") == analyze("eu sou ALÉRGICA a camarão e a amendoim")
        assert all(t == fold(t) for t in analyze("Informação útil sobre a ação da organização"))

    def test_inflections_share_a_stem(self) -> None:
        assert analyze("running", "en") == analyze("runs", "en") == analyze("run", "en") == ["run"]
        assert analyze("alérgica", "pt") == analyze("alérgico", "pt") == analyze("alergia", "pt")

    def test_language_can_be_forced(self) -> None:
        assert analyze("correndo", "pt") == ["corr"]
        assert analyze("correndo", "en") == ["correndo"]

    def test_one_letter_words_and_punctuation_are_dropped(self) -> None:
        assert analyze("x, y -- z!!! ... ?") == []
        assert analyze("") == []

    def test_possessives_keep_the_word(self) -> None:
        assert analyze("Alice's garden") == analyze("Alice’s garden") == ["alic", "garden"]

    def test_numbers_are_terms(self) -> None:
        assert "2024" in analyze("the trip in 2024")


class TestQueryTerms:
    def test_stems_in_both_languages(self) -> None:
        terms = query_terms("correndo")
        assert "corr" in terms  # Portuguese stem
        assert "correndo" in terms  # the English stemmer leaves it alone
        assert "run" in query_terms("running")

    def test_match_documents_in_either_language(self) -> None:
        assert set(query_terms("alérgico")) & set(analyze("Eu sou alérgica a amendoim"))
        assert set(query_terms("allergy")) & set(analyze("I have an allergy to peanuts"))
        assert set(query_terms("acao")) & set(analyze("A ação da empresa subiu"))

    def test_deduplicated_in_order(self) -> None:
        assert query_terms("run running runs") == ["run", "running", "runs"]
        terms = query_terms("lojas loja running")
        assert len(terms) == len(set(terms))
        assert terms.index("loj") < terms.index("run")

    @pytest.mark.parametrize("query", ["", "   ", "the and of", "e o que é isso", "a", "?!", "x y z"])
    def test_stopwords_only_gives_nothing(self, query: str) -> None:
        assert query_terms(query) == []

    def test_terms_are_plain_words(self) -> None:
        nasty = '"quoted" run* -not (paren) a:b NEAR/3 AND OR ^caret {col}'
        for term in query_terms(nasty):
            assert term and all(c.isalnum() for c in term), term

    @pytest.mark.parametrize(
        ("typed", "document"),
        [
            ("camarao", "alérgica a camarão"),
            ("informacao", "a informação do voo"),
            ("pao", "comprei pão"),
        ],
    )
    def test_queries_without_accents_match_accented_documents(self, typed: str, document: str) -> None:
        assert set(query_terms(typed)) & set(analyze(document))


class TestContentWords:
    def test_drops_stopwords_and_single_letters(self) -> None:
        assert content_words("Eu e a Maria, x y, 42 e 7") == ["maria", "42"]
        assert content_words("The cat and I") == ["cat"]

    def test_stopwords_match_without_accents(self) -> None:
        assert content_words("voce esta nao") == []


class TestNamesIn:
    def test_finds_capitalised_words(self) -> None:
        assert {"Maria", "José", "Pedro-Henrique"} <= names_in("Ontem a Maria e o José viram o Pedro-Henrique.")
        assert {"Élodie", "Zoë"} <= names_in("and Élodie met Zoë")

    def test_skips_stopwords_and_lowercase(self) -> None:
        assert names_in("The cat and the dog") == set()
        assert names_in("Você viu isso? Não.") == set()
        assert names_in("maria and joão") == set()
        assert names_in("") == set()
