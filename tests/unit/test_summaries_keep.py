"""Summaries keep what matters: every number, date, name and decision of the folded user turns is
in the summary, or the summary says how many it left out; the count carries over later folds."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hipocampo.adapters.tokenizers import TiktokenTokenizer
from hipocampo.domain.summaries.coverage import omitted_in, split_fragments, windows
from hipocampo.domain.summaries.details import decision_in, details_in, missing
from hipocampo.domain.summaries.summarize import SummaryTurn, extractive_summary, fold_budget, split_sentences

COUNT = TiktokenTokenizer().count
T0 = datetime(2024, 3, 1, 19, tzinfo=timezone.utc)
# The reported case, retold: 21 folded turns planning a party lost the €300 budget (from the
# very turn that was kept), the decision "vai ser em casa" and the guests' names.
PARTY = (
    ("user", "Oi! Tudo bem? Quero organizar o aniversário do Pedro."),
    ("assistant", "Claro! Me conta o que você já pensou."),
    ("user", "Ele faz 40 anos no dia 23 de março, um sábado."),
    ("assistant", "Que data boa! Vai ser surpresa?"),
    ("user", "Vai sim, surpresa total. Ele não pode desconfiar de nada."),
    ("assistant", "Entendido, vamos manter segredo."),
    ("user", "Pensei em alugar um salão, mas é caro demais. O orçamento total é de €300, no máximo."),
    ("assistant", "Com €300 dá para fazer algo bonito em casa ou num parque."),
    ("user", "Hmm, deixa eu pensar."),
    ("assistant", "Sem pressa."),
    ("user", "Decidi: vai ser em casa, no quintal."),
    ("assistant", "Ótima escolha, fica mais íntimo."),
    ("user", "Os convidados são a Marta, o Rui, a Joana e o Tiago, e os pais dele."),
    ("assistant", "Uma festa pequena então, umas oito pessoas."),
    ("user", "Isso. A Marta vai levar o bolo de chocolate."),
    ("assistant", "Perfeito, um item a menos."),
    ("user", "Haha sim"),
    ("assistant", "Quer ajuda com a lista de compras?"),
    ("user", "Quero, mas depois. Obrigada!"),
    ("assistant", "Combinado!"),
    ("user", "Ah, e a festa começa às 19h."),
)


def _turns(said: tuple[tuple[str, str], ...], start: datetime = T0) -> list[SummaryTurn]:
    return [
        SummaryTurn("Ana" if role == "user" else "Assistant", text, start + timedelta(minutes=i), role=role)
        for i, (role, text) in enumerate(said)
    ]


def _wanted(turns: list[SummaryTurn]) -> list[str]:
    keys: dict[str, None] = {}
    for t in turns:
        if t.role == "user":
            for sentence in split_sentences(t.text, whole_up_to=0):
                keys.update(dict.fromkeys(d.key for d in details_in(sentence, speakers=["Ana"])))
    return list(keys)


def test_details_are_numbers_dates_names_and_decisions() -> None:
    found = details_in("O orçamento é de €300, vai ser em casa no sábado com a Ana, o Rui e a Marta.")
    assert [(d.kind, d.key) for d in found] == [
        ("number", "300"),
        ("date", "sabado"),
        ("name", "ana"),
        ("name", "rui"),
        ("name", "marta"),
    ]
    assert [d.key for d in details_in("Thanks, Mel! See you in May at 3pm, Melanie.", speakers=["Melanie"])] == [
        "may",
        "3pm",
    ]  # a speaker and her short name are not details; lowercase "may" would be a verb
    assert details_in("haha ok, valeu Rui!") == []
    decision = decision_in("Decidi: vai ser em casa, no quintal.")
    assert decision is not None and decision.key == "decidi: vai ser em casa, no quintal"
    assert decision_in("Vamos ao cinema?") is None
    assert decision_in("Vai sim, surpresa total.") is None  # a bare future, not what was settled
    pet = decision_in("I have a cat named Sushi, so we'll need a pet sitter for those two weeks.")
    assert pet is not None and pet.key == "so we'll need a pet sitter for those two weeks"  # its clause


def test_fragments_keep_a_word_of_context_and_merge_lists() -> None:
    text = "Pensei em alugar um salão. O orçamento total é de €300, no máximo."
    assert windows(text, details_in(text)) == ["total é de €300"]
    names = "Os convidados são a Marta, o Rui, a Joana e o Tiago."
    assert windows(names, details_in(names), before=0, after=0) == ["Marta, o Rui, a Joana e o Tiago"]
    assert split_fragments("…orçamento é de €300 … Rui e Marta…") == ["orçamento é de €300", "Rui e Marta"]
    assert split_fragments("A whole sentence.") == []


def test_the_reported_case_keeps_the_budget_the_decision_and_the_guests() -> None:
    turns = _turns(PARTY)
    folded = sum(COUNT(f"{t.speaker}: {t.text}") for t in turns)
    summary = extractive_summary(None, turns, max_tokens=fold_budget(500, 0.3, folded), count=COUNT)
    for said in ("€300", "vai ser em casa", "Marta", "Rui", "Joana", "Tiago", "Pedro", "19h", "23 de março"):
        assert said in summary, said
    assert missing(summary, _wanted(turns)) == [] and omitted_in(summary) == 0
    assert COUNT(summary) <= 0.35 * folded


def test_what_does_not_fit_is_counted_and_the_count_carries_over() -> None:
    turns = _turns(PARTY)
    tight = extractive_summary(None, turns, max_tokens=60, count=COUNT)
    lost = missing(tight, _wanted(turns))
    assert lost and omitted_in(tight) >= len(lost)
    assert tight.splitlines()[-1] == f"(+{omitted_in(tight)} detalhes omitidos)"  # in the thread's language
    later = _turns((("user", "Comprei as bebidas hoje."), ("user", "Tudo pronto.")), start=T0 + timedelta(days=1))
    again = extractive_summary(tight, later, max_tokens=60, count=COUNT)
    assert omitted_in(again) >= omitted_in(tight)  # what an older fold left out stays counted
    assert COUNT(again) <= 60


def test_an_older_summarys_fragments_are_kept_or_counted_one_by_one() -> None:
    previous = "[2024-03-01]\n- Ana: …orçamento total é de €300 … Marta, o Rui … começa às 19h…"
    later = _turns(
        (("user", "Hoje a Marta confirmou o bolo de chocolate para a festa de sábado, vai ser ótimo."),),
        start=T0 + timedelta(days=1),
    )
    summary = extractive_summary(previous, later, max_tokens=40, count=COUNT)
    kept = [p for line in summary.splitlines() for p in split_fragments(line.partition(": ")[2])]
    # The older summary's pieces come first, as they were: the new turn's details do not push them out.
    assert len(kept) >= 2 and set(kept) <= {"orçamento total é de €300", "Marta, o Rui", "começa às 19h"}
    said = ["300", "marta", "rui", "19h", "hoje", "sabado"]
    assert len(missing(summary, said)) <= omitted_in(summary)
