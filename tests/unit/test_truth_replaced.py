"""Earlier statements a later one replaced with no change cue (:mod:`hipocampo.domain.truth.replaced`):
another value of a subject held one at a time replaces the earlier statement, in English and in
Portuguese; a later statement that adds, wonders, asks, denies or speaks of someone else does not."""

from __future__ import annotations

import pytest

from hipocampo.domain.truth.replaced import replaced_statements, subject_statements
from hipocampo.domain.truth.restated import restated_statements


def replaced(later: str, *earlier: str) -> list[tuple[str, str, str]]:
    """(earlier turn id, subject, earlier value) that ``later`` replaces; turns newest first."""
    turns = [(f"m{n}", text) for n, text in enumerate(earlier)]
    return [(r.message_id, r.subject, r.words) for r in replaced_statements(later, turns)]


@pytest.mark.parametrize(
    ("earlier", "later", "subject", "value"),
    [
        (
            "moro em Santos, perto da praia",
            "mano, primeiro mês em Belo Horizonte e já viciei em pão de queijo",
            "home",
            "santos",
        ),
        ("i live in Denver btw", "we just moved to Portland, boxes everywhere", "home", "denver"),
        (
            "trampo na Natura como analista de marketing",
            "comecei na Stone como coordenadora de growth",
            "work",
            "natura",
        ),
        (
            "i work at Spotify as a data analyst",
            "first week at Canva done, the onboarding is intense",
            "work",
            "spotify",
        ),
        ("i work at Deloitte as an auditor", "i quit and joined a startup called Ramp", "work", "deloitte"),
        ("trabalho numa fábrica de têxteis", "e entrei na Farfetch como gestor de operações", "work", "fabrica de"),
        (
            "meu namorado Caio faz aniversário semana que vem, ideia de presente?",
            "tô saindo com o Henrique faz dois meses",
            "partner",
            "caio",
        ),
        ("my rent is 1800 a month", "signed a new lease, rent is 2100 now ugh", "rent", "1800"),
        ("im vegetarian, so veggie recipes pls", "im pescatarian these days", "diet", "vegetarian"),
        ("sou vegetariana desde 2019", "virei vegana", "diet", "vegetariana"),
        ("tomo losartana 50mg de manhã", "o médico subiu a losartana pra 100mg", "dose:losartana", "50mg"),
        ("i take sertraline 50mg", "doc upped the sertraline to 100 mg", "dose:sertraline", "50mg"),
        ("i live in Columbus", "we moved back to Ohio last spring", "home", "columbus"),
        ("i live in Seattle", "we bought a house in Tacoma!", "home", "seattle"),
        ("i work at Acme", "took a job at Deloitte, starting monday", "work", "acme"),
        ("moro em Lisboa", "compramos uma casa em Sintra", "home", "lisboa"),
        # a change said without the new value: the newest earlier statement of the subject
        ("i work at Spotify as a data analyst", "I changed jobs last month, loving it", "work", "spotify"),
        ("trampo na Natura como analista", "mudei de emprego, agora tô na stone como tech lead", "work", "natura"),
        ("i live in Leeds", "we moved house last weekend", "home", "leeds"),
        ("moro em Santos", "mudamos de casa, ufa", "home", "santos"),
        # "no" is "in the" in Portuguese, no denial
        ("moro em Santos", "no fim de semana mudei pra Curitiba", "home", "santos"),
        ("trampo na Natura", "no mês passado comecei na Stone", "work", "natura"),
    ],
)
def test_another_value_of_the_subject_replaces_the_earlier_statement(
    earlier: str, later: str, subject: str, value: str
) -> None:
    found = {s: (i, v) for i, s, v in replaced(later, earlier)}  # a role may change with the workplace
    assert found[subject][0] == "m0" and found[subject][1].startswith(value.split()[0])


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        ("i work at Target as a cashier", "i also work at a bar called The Anchor on weekends"),  # a second job
        ("trabalho na Natura", "também trabalho num bar de sexta"),
        ("i live in Leeds", "if i ever move to Bristol id want a flat near the harbour"),  # a hypothetical
        ("moro em Floripa faz 3 anos", "talvez eu me mude pra São Paulo ano que vem"),
        ("moro em Floripa", "o Rafa, meu melhor amigo, se mudou pra Curitiba"),  # someone else's move
        ("vivo em Braga", "a minha irmã vai viver para o Porto em março"),
        ("i live in Leeds", "my sister moved to Berlin"),
        ("i work at Target", "she works at Google now"),
        ("o meu namorado é o Diogo", "o Diogo vai trabalhar para o hospital de Faro"),
        ("i live in Austin", "should i move to Dallas?"),  # a question
        ("i live in Austin", "i don't live in Dallas, i said Austin"),  # a negation
        ("moro em Santos", "moro em Santos mesmo, no Gonzaga"),  # the same value again
        ("i work at Canva as a designer", "first week at Canva done"),
        ("i have a cat called Miso", "we adopted a second cat, Tofu"),  # pets add, never replace
        ("i live in Leeds", "moved to a bigger flat last week"),  # a description, no city
        ("i live in Boston", "i bought a car in Providence"),
        ("I live in Denver now.", "I moved to Globex last month, same role."),  # a workplace
        ("vivo em Braga", "mudei-me para a Sonae, nova equipa"),
        ("give me vegan recipes", "im vegetarian"),  # a request states nothing of the user
        ("i take ibuprofen 400mg", "my daughter takes ibuprofen 200mg"),
        ("tomo losartana 50mg", "tomo vitamina D 2000ui"),  # another drug, another dose
        ("i take sertraline 50mg", "still on sertraline 50mg"),
        ("I work at Sage as a data analyst.", "I'd love to work at Google one day."),  # a wish
        ("trabalho na Natura", "queria muito trabalhar no Nubank"),
        ("moro em Santos", "acho que vou morar em Campinas"),  # a hedge
        ("i live in Leeds", "i might move to Bristol"),  # a doubt
        ("i work at Spotify", "my sister changed jobs"),  # someone else's change
        ("i work at Spotify", "i want a new job so bad"),  # a wish
        ("i work at Spotify", "helping my bf find a new job"),
        ("trampo na Natura", "tô procurando emprego novo"),  # looking is no change
        ("trampo na Natura", "minha irmã mudou de emprego"),
        ("i live in Austin", "no way i am moving to Dallas"),
    ],
)
def test_a_later_statement_that_does_not_replace_marks_nothing(earlier: str, later: str) -> None:
    assert replaced(later, earlier) == []


def test_the_scan_stops_at_the_newest_statement_of_the_same_value() -> None:
    """Coimbra was said before: what is older was judged when that was said, not now; a turn of
    another subject in between is skipped."""
    assert replaced("moro em Coimbra agora", "trabalho na Sonae", "primeira semana em Coimbra", "moro em Lisboa") == []
    found = replaced("primeira semana em Coimbra", "trabalho na Sonae", "moro em Lisboa", "moro no Porto")
    assert found == [("m1", "home", "lisboa"), ("m2", "home", "porto")]


def test_each_statement_says_its_subject_and_whether_it_adds() -> None:
    (work, role) = subject_statements("i work at Spotify as a data analyst, mostly dashboards")
    assert (work.subject, work.words, role.subject, role.words) == ("work", "spotify", "role", "data analyst")
    (second,) = subject_statements("i also work at Wetherspoons on weekends")
    assert second.adds
    (linked,) = subject_statements("love it. also moved to Brooklyn, way closer to the office")
    assert (linked.subject, linked.words, linked.adds) == ("home", "brooklyn", False)


def restated(later: str, earlier: str) -> list[tuple[str, str]]:
    return [(r.words, r.new_words) for r in restated_statements(later, [("m0", earlier)])]


@pytest.mark.parametrize(
    ("earlier", "later", "old", "new"),
    [
        (
            "my favorite cuisine is Thai, maybe a fusion menu?",
            "Ethiopian is my favorite cuisine now, so good",
            "thai",
            "ethiopian",
        ),
        (
            "A minha série preferida é The Crown.",
            "mudei de ideia quanto à série: a minha preferida agora é Succession.",
            "crown",
            "succession",
        ),
        (
            "O orçamento para a lua de mel é de 3000 euros.",
            "o orçamento da lua de mel subiu: agora é de 4500 euros",
            "3000",
            "4500",
        ),
        ("meu orçamento pro aluguel é 3 mil", "sobre o aluguel: o orçamento agora é 3.500", "3000", "3500"),
        (
            "My flight is TP1351 from Heathrow",
            "they cancelled my flight and put me on TP1357 instead",
            "tp1351",
            "tp1357",
        ),
        ("o voo é o G3 1452", "a Gol mudou meu voo! agora é o G3 1460", "1452", "1460"),
    ],
)
def test_a_value_restated_with_a_change_cue_replaces_the_earlier_one(
    earlier: str, later: str, old: str, new: str
) -> None:
    assert restated(later, earlier) == [(old, new)]


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        ("meu orçamento pra hospedagem é 1.800 reais", "meu orçamento pro aluguel agora é 3.500"),  # another budget
        ("moro em Lisboa há 5 anos", "agora são 15h aqui em Lisboa"),
        ("Olá, chamo-me Inês e vivo no Porto.", "Já não vivo no Porto, mudei-me para Braga."),  # her own name holds
        ("Bruno aqui, sou personal na Smart Fit, em Niterói", "saí da Smart Fit, agora dou aula na Bodytech"),
        ("my daughter Mia is 2", "my daughter Mia is 3 now"),  # someone else's
        ("my flight is TP1351", "my flight is TP1351, now boarding at gate 12"),  # the same value again
        ("o localizador é QTR5VE", "o localizador continua QTR5VE, agora no app"),
    ],
)
def test_a_restatement_that_changes_nothing_of_the_earlier_value_marks_nothing(earlier: str, later: str) -> None:
    assert restated(later, earlier) == []


@pytest.mark.parametrize(
    ("earlier", "later", "old", "new"),
    [
        ("booked Ember & Oak, conf code EMB-4471", "had to move it, new code is EMB-5820", "emb-4471", "emb-5820"),
        ("marquei paris, reserva K7PQ2L", "tive de mudar o voo, a reserva nova é K9XT4M", "k7pq2l", "k9xt4m"),
        ("apólice do seguro é 55-7710-PT", "mudei de seguradora, apólice nova 61-2204-PT", "55-7710-pt", "61-2204-pt"),
        ("comprei um liquidificador, pedido 88213-B", "mandaram outro, pedido novo 88570-C", "88213-b", "88570-c"),
    ],
)
def test_a_new_code_of_the_same_kind_restates_the_earlier_one(earlier: str, later: str, old: str, new: str) -> None:
    """A booking reference is letters and digits in one system's pattern, hyphens included: the new
    one replaces the old though their letters differ ("K7PQ2L", "K9XT4M")."""
    assert restated(later, earlier) == [(old, new)]


def test_a_new_thing_with_its_own_code_restates_nothing_it_does_not_share() -> None:
    assert restated("new laptop arrived, order AB-1234", "my flight is TP1357 on friday") == []


def test_new_beside_no_code_or_amount_restates_no_name() -> None:
    """ "new" is a change cue only for a code or an amount: a capitalised first word is no name."""
    assert restated("Thanks Sam! Trying out new recipes is a great way to stay busy.", "That's great, Sam!") == []
    assert restated("comi de novo 2 coxinhas", "pedido 88213-B") == []


@pytest.mark.parametrize(
    ("earlier", "later", "old", "new"),
    [
        ("im on levothyroxine 50 mcg.", "bloodwork came back, doc upped me to 75 mcg", "50", "75"),
        ("ganho 1400 euros líquidos, sou técnica de contabilidade", "e tive aumento, agora ganho 1650", "1400", "1650"),
        ("gasto uns 600 reais por mes com isso 😵", "e cortei os gastos, agr é 300 por mes no maximo", "600", "300"),
    ],
)
def test_an_amount_in_the_same_frame_restates_the_earlier_one(earlier: str, later: str, old: str, new: str) -> None:
    """The unit after an amount or the word before it says the two measure one thing ("50 mcg" /
    "75 mcg", "ganho 1400" / "ganho 1650") when the turns share one word or none."""
    assert restated(later, earlier) == [(old, new)]


def test_a_currency_frames_no_one_thing() -> None:
    """A rate, a rent and a budget are all euros: a studio's rent restates no hourly rate."""
    earlier = "update: subi a tarifa pra 35 euros à hora, estava a trabalhar bué por pouco"
    assert restated("and i rented a shared studio in Bonfim now, 180 euros por mês", earlier) == []


@pytest.mark.parametrize(
    ("earlier", "later", "old", "new"),
    [
        ("just started buspirone 5mg twice a day", "doc bumped me up, it's 10mg twice a day now", "5", "10"),
        (
            "i make 16/hr at a coffee shop and we have 450 a month for food",
            "also got a raise, 18.50/hr now",
            "16",
            "18",
        ),
        ("arranjei um part-time num centro de explicações, 12€ à hora", "subiram-me pra 14€ à hora 🎉", "12", "14"),
        ("tô em low carb, peso 86kg e a meta é 78", "agora peso 81kg 💪", "86", "81"),
    ],
)
def test_an_amount_with_its_unit_written_on_restates_the_earlier_one(
    earlier: str, later: str, old: str, new: str
) -> None:
    """Chat glues units on ("10mg", "16/hr", "86kg", "14€"): the amount is a value all the same, and a
    rate per hour is framed as one, so it is told apart from a monthly budget said beside it."""
    assert restated(later, earlier) == [(old, new)]


@pytest.mark.parametrize(
    ("earlier", "later", "old", "new"),
    [
        (
            "i work nights at the hospital, 7p-7a three nights a week",
            "they switched me to days at the hospital, 7a-7p now",
            "7p-7a",
            "7a-7p",
        ),
        (
            "trampo no call center das 14h às 20h",
            "mudaram meu turno no call center, agora é das 22h às 4h",
            "14h-20h",
            "22h-4h",
        ),
    ],
)
def test_a_span_of_hours_restates_the_earlier_one(earlier: str, later: str, old: str, new: str) -> None:
    """A shift is one value however it is written ("7p-7a", "das 14h às 20h"), never a code."""
    assert restated(later, earlier) == [(old, new)]


def test_amounts_framed_alike_in_sentences_of_one_subject_restate_across_languages() -> None:
    """ "a room ... 1020 a month" and "vivo num quarto, pago 1350 por mês" share no word, but both
    speak of a home and frame the amount per month."""
    earlier = "vivo em clapham num quarto, pago 1350 por mês 😩"
    assert restated("found a room in walthamstow, 1020 a month incl bills, moving in on july 5", earlier) == [
        ("1350", "1020")
    ]


def test_a_time_of_day_is_no_amount_and_a_lowercase_name_opens_someone_elses_news() -> None:
    assert restated("savings goal is 200 a month now", "my brain is mush by 7pm, trying to save 400 a month") == [
        ("400", "200")
    ]
    earlier = "we moved!! my gf noor and i got a 2br in pilsen, 1725 total"
    assert restated("noor got a job in milwaukee and moved out last week", earlier) == []


@pytest.mark.parametrize(
    ("earlier", "later", "old", "new"),
    [
        (
            "btw moro em neukölln, any spot w decent food?",
            "mano achei um ap em friedrichshain!! we move next month",
            "neukolln",
            "friedrichshain",
        ),
        (
            "oi! moro na bela vista, aluguel 1.650",
            "mudamos semana passada!!! agora é santana, 1.900 dividido",
            "bela vista",
            "santana",
        ),
    ],
)
def test_a_move_said_with_a_place_and_no_home_frame_replaces_the_earlier_home(
    earlier: str, later: str, old: str, new: str
) -> None:
    """A turn of a home ("ap", "mudamos") with a change cue, naming one place, lowercase or not."""
    found = replaced_statements(later, [("m1", earlier)])
    assert [(r.subject, r.words, r.new_words) for r in found] == [("home", old, new)]


@pytest.mark.parametrize(
    "later",
    [
        "a minha flatmate is moving to Dublin next month, vou ter de encontrar outra 😩",  # hers
        "visiting dublin next week, any tips for a cheap room?",  # no change cue
        "i moved my desk to the window lol",  # no place
    ],
)
def test_a_move_that_is_not_the_users_replaces_no_home(later: str) -> None:
    assert replaced_statements(later, [("m1", "olá! living in London for 3 years now")]) == []


def test_a_promotion_replaces_the_title_said_with_the_workplace() -> None:
    """ "im a junior data analyst at brindlewood" says a role as well as an employer; "they promoted
    me to senior analyst" replaces the role only."""
    earlier = "im a junior data analyst at brindlewood logistics and my boss wants it by eod lol"
    found = replaced_statements("plot twist: they promoted me to senior analyst 🎉", [("m1", earlier)])
    assert [(r.subject, r.words, r.new_words) for r in found] == [("role", "junior data analyst", "senior analyst")]


def test_a_doubt_after_an_emoji_leaves_the_sure_sentence_before_it() -> None:
    earlier = "i'm a shift lead at bramblecourt freight, the warehouse out in dublin"
    later = "they promoted me to ops supervisor 😎 maybe i shouldve gotten the nicer car lmao"
    found = replaced_statements(later, [("m1", earlier)])
    assert [(r.subject, r.words, r.new_words) for r in found] == [("role", "shift lead", "ops supervisor")]


def test_a_span_of_hours_said_again_as_a_change_needs_no_shared_word() -> None:
    earlier = "oi! sou enfermeira no hospital são lucas, faço 19h-7h três noites por semana"
    assert restated("e mudaram meu plantão, agora é 7h-19h 🙌", earlier) == [("19h-7h", "7h-19h")]
    assert restated("i do 10pm to 6am at the warehouse", "got moved to days, 7am to 3pm now") == []  # no cue


def test_a_question_after_an_emoji_leaves_the_statement_before_it() -> None:
    """ "faço 19h-7h três noites por semana 😩 dicas pra dormir de dia?": the question is the last piece."""
    earlier = "oi! sou enfermeira no hospital são lucas, faço 19h-7h três noites por semana 😩 dicas pra dormir de dia?"
    assert restated("e mudaram meu plantão, agora é 7h-19h 🙌", earlier) == [("19h-7h", "7h-19h")]
