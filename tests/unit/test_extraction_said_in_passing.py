"""A new job, a budget and a called-off trip, as chat says them: without the verbs the rules were
written with, and without repeating the old value."""

from __future__ import annotations

import pytest

from hipocampo.domain.extraction import extract_facts


def facts(text: str, known: list[tuple[str, str]] | None = None) -> dict[str, tuple[str, bool]]:
    return {f.key: (f.value, f.negated) for f in extract_facts(text, known=known or [])}


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        (
            "ok big news 🎉 handed in my notice, starting at Brightwater Clinic on monday. day shifts only!!",
            "Brightwater Clinic",
        ),
        ("new job!! agora tô na Maplewire, started monday. any tips pra primeira semana?", "Maplewire"),
        ("saí de lá kkkk finalmente. agora tô na Vetra Saúde, mesma função. me ajuda?", "Vetra Saúde"),
        ("pronto, despedi-me! a partir de segunda estou na Clínica Sol Nascente 🙌", "Clínica Sol Nascente"),
    ],
)
def test_where_one_now_is_in_a_turn_about_a_new_job_is_the_employer(text: str, employer: str) -> None:
    assert facts(text)["employer"] == (employer, False)


@pytest.mark.parametrize(
    "text",
    [
        "new job lol, i'm at Starbucks rn waiting for the bus",  # a while, not a workplace
        "my friend started at Google, new job for her",  # someone else
        "tô na Livraria Cultura procurando um livro",  # no job change in the turn
        "se eu sair de lá, tô na Globo amanhã?",  # a question
    ],
)
def test_being_somewhere_is_no_employer_without_a_job_change(text: str) -> None:
    assert "employer" not in facts(text)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("wedding is oct 3, my fiancé is Omar 💍 our budget is 18k total, help me split it?", "budget", "18000"),
        ("budget for the trip is 12k reais, dá?", "budget:trip", "12000 BRL"),
        ("também ando a juntar para um carro, orçamento de 15 mil euros. sou contabilista", "budget", "15000 EUR"),
        ("e baixei o orçamento do carro para 12 mil, a vida está cara", "budget:carro", "12000"),
        ("the wedding budget is 20k", "budget:wedding", "20000"),
    ],
)
def test_a_budget_said_in_passing(text: str, key: str, value: str) -> None:
    assert facts(text)[key] == (value, False)


@pytest.mark.parametrize(
    "text", ["her budget is 5k", "my sister's budget is 5k", "qual orçamento de 5 mil dá pra um notebook?"]
)
def test_someone_elses_budget_or_a_question_is_none_of_the_users(text: str) -> None:
    assert not any(k.startswith("budget") for k in facts(text))


def test_a_bare_amount_takes_the_currency_of_the_budget_held() -> None:
    held = [("budget:trip", "12000 BRL")]
    assert facts("update: parents chipped in so budget is 15k now", held)["budget:trip"] == ("15000 BRL", False)
    assert facts("our budget is 18k total")["budget"] == ("18000", False)  # never guessed from the language


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("btw sou alérgico a amendoim, super sério, anything with peanuts is a no-go", {"allergy:peanuts"}),
        ("tenho intolerância a glúten, not celiac tho, just makes me feel awful", {"intolerance:gluten"}),
        ("oh and fyi i'm allergic to sulfa drugs, the pharmacy keeps forgetting 🙄", {"allergy:sulfa_drugs"}),
        ("i'm allergic to peanuts, shrimp, eggs", {"allergy:peanuts", "allergy:shrimp", "allergy:eggs"}),
    ],
)
def test_a_comment_after_a_comma_is_no_item_of_the_list(text: str, kept: set[str]) -> None:
    assert set(facts(text)) == kept


def test_an_ordinal_is_no_employer() -> None:
    assert "employer" not in facts("trabalho como fisioterapeuta então só consigo folga na 2ª quinzena")
    assert facts("trabalho na 3M")["employer"] == ("3M", False)


TRIP = [
    ("id:reservation", "QZ4HMT"),
    ("id:flight", "JL9"),
    ("budget:japan_trip", "4000 USD"),
    ("goal:trip_to_japan", "japan trip"),
    ("budget:car", "5000 USD"),
    ("employer", "Acme"),
]


@pytest.mark.parametrize(
    "text",
    [
        "the japan trip is off. cancelled the flight and everything, too much going on at work",
        "cancelei tudo 😩 a clínica não liberou minhas férias. o hotel já reembolsou",
        "afinal já não vou ao japão, cancelei tudo",
    ],
)
def test_a_trip_called_off_ends_what_the_memory_holds_for_it(text: str) -> None:
    ended = {k for k, (_, negated) in facts(text, TRIP).items() if negated}
    assert ended == {"id:reservation", "id:flight", "budget:japan_trip", "goal:trip_to_japan"}


def test_a_trip_called_off_by_its_place_leaves_another_trips_plans() -> None:
    held = [("budget:viagem_a_praga", "500 EUR"), ("budget:japan_trip", "4000 USD")]
    ended = {k for k, (_, negated) in facts("esquece a viagem a praga, foi cancelada", held).items() if negated}
    assert ended == {"budget:viagem_a_praga"}


@pytest.mark.parametrize(
    "text",
    ["if the trip is cancelled i'll cry", "cancelei tudo, a festa não vai rolar", "is the trip cancelled?"],
)
def test_no_trip_ends_on_a_doubt_a_question_or_another_plan(text: str) -> None:
    assert not any(negated for _, negated in facts(text, TRIP).values())


@pytest.mark.parametrize(
    ("text", "key", "code"),
    [
        (
            "planning japan in april!! flight is JL 9 from chicago on april 12, booking ref QZ4HMT",
            "id:reservation",
            "QZ4HMT",
        ),
        ("olá, vou à madeira em agosto, voo TP1691 a 8 de agosto", "id:flight", "TP1691"),
        (
            "vou a praga em dezembro com a malta da faculdade, reserva do hostel é PRG-55810",
            "id:reservation",
            "PRG-55810",
        ),
    ],
)
def test_a_code_said_in_passing_after_what_it_is(text: str, key: str, code: str) -> None:
    assert facts(text)[key] == (code, False)


@pytest.mark.parametrize(
    "text", ["i need a reservation for 8 people at Nobu", "booking Airbnb tonight", "a reserva do Copacabana Palace"]
)
def test_a_word_after_booking_is_no_code(text: str) -> None:
    assert not any(k.startswith("id:") for k in facts(text))


CODES = [("id:flight", "TP2144"), ("id:reservation", "HB-88213")]


@pytest.mark.parametrize(
    ("text", "key", "code"),
    [
        ("ugh a TAP cancelou o TP2144. rebooked on TP2150, dia 15 now", "id:flight", "TP2150"),
        ("remarquei pro TP2999 hj", "id:flight", "TP2999"),
        ("sim, cancelled the old one, new booking is HB-90477 for 15-19", "id:reservation", "HB-90477"),
    ],
)
def test_a_new_code_after_a_change_replaces_the_held_code_of_its_shape(text: str, key: str, code: str) -> None:
    assert facts(text, CODES)[key] == (code, False)


@pytest.mark.parametrize(
    "text",
    [
        "rebooked, the code is 7781-XYZ",  # no held code of that shape (XY12 would be a flight number)
        "should i rebook on TP2150?",  # a question
        "my friend's flight is AB1234",  # no change cue
    ],
)
def test_no_code_replaced_without_a_change_cue_or_a_held_code_of_its_shape(text: str) -> None:
    assert not any(k.startswith("id:") and not negated for k, (_, negated) in facts(text, CODES).items())


DIET = [("diet", "vegetarian"), ("avoids:meat", "meat")]


@pytest.mark.parametrize(
    ("text", "ended"),
    [
        ("i'm eating meat again lol", {"diet", "avoids:meat"}),
        ("voltei a comer carne, a médica mandou", {"diet", "avoids:meat"}),
        ("went back to eating fish this year", {"diet"}),  # vegetarians leave fish out; no fish avoided
        ("i eat fish again, so now i call myself pescatarian", set()),  # the new diet replaces the old
    ],
)
def test_a_food_eaten_again_ends_the_diet_that_leaves_it_out(text: str, ended: set[str]) -> None:
    assert {k for k, (_, negated) in facts(text, DIET).items() if negated} == ended


def test_calling_oneself_a_diet_is_the_diet() -> None:
    assert facts("i eat fish again, so now i call myself pescatarian", DIET)["diet"] == ("pescatarian", False)
    assert facts("voltei a comer peixe, agora me considero pescetariana")["diet"][0] == "pescetariano"


@pytest.mark.parametrize("text", ["should i eat meat again?", "queria voltar a comer pão", "i'm eating tofu again"])
def test_no_diet_ends_on_a_question_a_wish_or_a_food_it_allows(text: str) -> None:
    assert not any(negated for _, negated in facts(text, DIET).values())


@pytest.mark.parametrize(
    ("text", "held", "home"),
    [
        ("olá! I'm Ana, portuguesa, living in London for 3 years now. preciso de ajuda", [], "London"),
        (
            "mudei-me! finally left London, now in Manchester, a renda é tão mais barata",
            [("home_city", "London")],
            "Manchester",
        ),
        ("mudamos!! agora tô em Floripa 🏖️ o Pipoca tá amando", [("home_city", "Curitiba")], "Florianópolis"),
    ],
)
def test_a_home_said_without_i(text: str, held: list[tuple[str, str]], home: str) -> None:
    assert facts(text, held)["home_city"] == (home, False)


def test_someone_else_living_somewhere_is_not_the_users_home() -> None:
    assert "home_city" not in facts("my sister, living in Porto, says hi")


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("saí da stripe!! now at intercom, started monday", "intercom"),
        ("novidade: já não trabalho na stone, agora tô na nubank", "nubank"),
    ],
)
def test_a_new_employer_in_lowercase_after_leaving_the_old_one(text: str, employer: str) -> None:
    assert facts(text, [("employer", "stripe")])["employer"] == (employer, False)


def test_where_one_no_longer_is_is_no_employer() -> None:
    assert ("farfetch", False) not in facts("já não estou na farfetch, mudei-me para a sonae").values()


def test_the_role_said_with_a_new_employer_is_the_occupation() -> None:
    said = facts("mano saí do Itaú!! agora tô no Mercado Livre como analista de dados", [("occupation", "caixa")])
    assert said["occupation"] == ("analista de dados", False)


def test_a_flight_changed_for_the_user() -> None:
    assert facts("mudaram-me o voo, agora é o ZQ5133 😴", [("id:flight", "ZQ5107")])["id:flight"] == ("ZQ5133", False)


@pytest.mark.parametrize(
    "first",
    ["hipocampo.domain.lang", "hipocampo.domain.lang.en.grammar", "hipocampo.domain.extraction.said_in_passing"],
)
def test_a_grammar_can_be_read_whatever_is_imported_first(first: str) -> None:
    """The grammars import the extraction package, which reads the bundles' cues as it loads: it
    must not ask for a grammar then (a fresh interpreter, since this one has them all loaded)."""
    import subprocess
    import sys

    code = f"import {first}\nfrom hipocampo.domain.lang import LANGUAGES\nfor lang in LANGUAGES.values(): lang.reader\n"
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, timeout=120)


def test_living_somewhere_as_the_subject_of_a_judgement_is_no_home() -> None:
    assert "home_city" not in facts("living in Lisbon sounds amazing")
    assert facts("living in Rio de Janeiro since 2019")["home_city"] == ("Rio de Janeiro", False)


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("i'm a pharmacist in Recife so weekends são complicados pra viajar", "Recife"),
        ("sou professor de música em Setúbal, por isso só posso sair depois", "Setúbal"),
        ("we're in chicago and it's icy af, should i skip walks?", "Chicago"),
    ],
)
def test_the_city_one_works_or_is_in_fills_an_empty_home(text: str, city: str) -> None:
    assert facts(text)["home_city"] == (city, False)


def test_a_work_city_never_replaces_the_home_held_nor_someone_elses() -> None:
    assert "home_city" not in facts("sou professor de música em Setúbal", [("home_city", "Lisboa")])
    assert "home_city" not in facts("my sister is a nurse in Boston")


@pytest.mark.parametrize("text", ["sou analista de dados", "sou motorista de app", "sou jornalista", "sou gerente"])
def test_a_word_said_alike_by_anyone_tells_no_gender(text: str) -> None:
    from hipocampo.domain.extraction import speaker_gender

    assert speaker_gender(text) is None


def test_a_word_with_two_forms_tells_the_gender() -> None:
    from hipocampo.domain.extraction import speaker_gender

    assert speaker_gender("sou cozinheira") is True
    assert speaker_gender("sou cozinheiro") is False


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("saí do Itaú, agora tô no Mercado Livre", "Mercado Livre"),
        ("I left Acme last week, new job!! now at Globex", "Globex"),
    ],
)
def test_the_old_employer_left_by_name_and_the_new_one_in_one_turn(text: str, employer: str) -> None:
    assert facts(text, [("employer", "Itaú")])["employer"] == (employer, False)


@pytest.mark.parametrize("text", ["saí do Itaú às 19h, tô no Shopping Center Norte", "saí da Natura cedo hoje"])
def test_leaving_the_office_for_the_day_keeps_the_job(text: str) -> None:
    assert "employer" not in facts(text, [("employer", "Itaú")])


# --- who signs, what one does for a living, what one takes ----------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("hey, Ben here. dad of two boys", "Ben"),
        ("hiii priya here. my dog Biscuit has been limping", "Priya"),
        ("leo here 👋 valentines dinner w my girlfriend Jordan tonight", "Leo"),
        ("Fernanda aqui. comprei passagem pra Salvador", "Fernanda"),
        ("aqui é a Thaís! vou pra Salvador em julho", "Thaís"),
        ("hiya I'm Chloe, I live in Leeds", "Chloe"),
    ],
)
def test_a_chat_signed_with_a_name_gives_it(text: str, name: str) -> None:
    assert facts(text)["name"] == (name, False)


@pytest.mark.parametrize("text", ["same here.", "still here!", "i'm here", "tô aqui", "eu aqui.", "ok here"])
def test_being_here_signs_no_name(text: str) -> None:
    assert "name" not in facts(text)


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("i'm a dispatcher at Norvane Logistics, day shift", "dispatcher"),
        ("I'm a paralegal at Hartley & Moss", "paralegal"),
        ("sou confeiteira e vendo bolos", "confeiteira"),
        ("sou engenheiro civil em Porto Alegre, so lunch is at the obra", "engenheiro civil"),
        ("sou professor de Educação Física em Setúbal.", "professor de Educação Física"),
    ],
)
def test_more_jobs_are_known(text: str, job: str) -> None:
    assert facts(text)["occupation"] == (job, False)


def test_a_subject_named_after_a_place_is_where_one_is_from() -> None:
    assert facts("sou professor de Lisboa")["occupation"] == ("professor", False)


@pytest.mark.parametrize(
    ("text", "drug"),
    [
        ("doc put me on lisinopril for my blood pressure last month", "medication:lisinopril"),
        ("o médico me passou losartana", "medication:losartan"),
        ("comecei a tomar metformina", "medication:metformin"),
    ],
)
def test_a_drug_prescribed_is_taken(text: str, drug: str) -> None:
    assert facts(text)[drug][1] is False


@pytest.mark.parametrize(
    ("text", "drug"),
    [("i stopped taking sertraline", "medication:sertraline"), ("deixei a melatonina também", "medication:melatonin")],
)
def test_a_drug_left_is_no_longer_taken(text: str, drug: str) -> None:
    assert facts(text)[drug][1] is True


@pytest.mark.parametrize(
    ("known", "text", "ended"),
    [
        ([("medication:sertraline", "sertraline")], "gp switched me to escitalopram 10mg", "medication:sertraline"),
        ([("medication:losartan", "losartana")], "o médico trocou pra anlodipino", "medication:losartan"),
        (  # named in the turn, whatever else is held
            [("medication:lisinopril", "lisinopril"), ("medication:metformin", "metformin")],
            "that dry cough was the lisinopril apparently. doc switched me to amlodipine 5mg",
            "medication:lisinopril",
        ),
    ],
)
def test_a_drug_switched_to_ends_the_one_it_replaces(known: list[tuple[str, str]], text: str, ended: str) -> None:
    got = facts(text, known)
    assert got[ended][1] is True
    assert [k for k, (_, neg) in got.items() if neg] == [ended]


def test_a_drug_switched_to_never_ends_one_taken_for_something_else() -> None:
    got = facts("doc switched me to amlodipine 5mg", [("medication:sertraline", "sertraline")])
    assert got == {"medication:amlodipine": ("amlodipine", False)}


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("im going fully vegan from today, no more dairy or eggs", "diet", "vegan"),
        ("i went fully vegan", "diet", "vegan"),
        ("well im officially retired 🎉 no more alarm clocks", "occupation", "retired"),
        ("GOT IT!!! im officially sous chef at harbor nine", "occupation", "sous chef"),
        ("also im taking a spanish course at the library on tuesdays", "learning:spanish", "spanish"),
        ("started a watercolor class at the community center!!", "learning:watercolor", "watercolor"),
        ("comecei um curso de alemão no goethe", "learning:alemao", "alemão"),
        ("inscrevi-me num curso de cerâmica às quintas", "learning:ceramica", "cerâmica"),
        ("i'm learning french pra uma viagem a Paris em maio", "learning:french", "french"),
        ("update lol im seeing someone new, her name is noor 🥰", "person:partner", "Noor"),
    ],
)
def test_chat_says_what_one_is_and_does_without_the_textbook_verb(text: str, key: str, value: str) -> None:
    assert facts(text)[key] == (value, False)


@pytest.mark.parametrize(
    ("known", "text", "key"),
    [
        ([("learning:japanese", "japanese")], "dropped the japanese class, just no time", "learning:japanese"),
        (
            [("learning:spanish", "spanish")],
            "and i quit the spanish thing, the teacher was too fast",
            "learning:spanish",
        ),
        ([("learning:alemao", "alemão")], "desisti do curso de alemão", "learning:alemao"),
        ([("person:boyfriend", "Tyler")], "cant sleep. tyler and i are done. that's over.", "person:boyfriend"),
        (
            [("medication:lisinopril", "lisinopril")],
            "doc stopped the lisinopril, told me to eat less salt",
            "medication:lisinopril",
        ),
    ],
)
def test_chat_says_what_ended_without_the_textbook_verb(known: list[tuple[str, str]], text: str, key: str) -> None:
    assert facts(text, known)[key][1] is True


def test_a_drug_named_after_a_switch_without_a_verb_is_the_new_one() -> None:
    got = facts("neuro took me off topiramato. agora é propranolol 40mg", [("medication:topiramate", "topiramato")])
    assert got == {"medication:topiramate": ("topiramato", True), "medication:propranolol": ("propranolol", False)}


@pytest.mark.parametrize(
    "text", ["desisti do Pedro", "we're done with dinner", "ok we're done, thanks", "i dropped the ball"]
)
def test_what_ends_nothing_held(text: str) -> None:
    assert facts(text, [("person:boyfriend", "Tyler"), ("learning:alemao", "alemão")]) == {}


@pytest.mark.parametrize(
    ("known", "text", "home"),
    [
        ([("home_city", "Niterói")], "mudamos! ap de 2 quartos em São Gonçalo, aluguel mais barato", "São Gonçalo"),
        ([], "we moved!! tiny flat in leeds but it's ours", "Leeds"),
        ([("home_city", "Hartwell")], "ok update i moved to Glenmoor last weekend", "Glenmoor"),
    ],
)
def test_a_move_with_its_place_in_the_next_breath_is_the_new_home(
    known: list[tuple[str, str]], text: str, home: str
) -> None:
    assert facts(text, known)["home_city"] == (home, False)


@pytest.mark.parametrize(
    "text",
    [
        "my friend Rory just moved to denver lol",
        "we moved the sofa in Ikea style",
        "mudei de ideia, vou ficar em Lisboa",
        "Suppose I moved to Tokyo, would I need a visa?",
    ],
)
def test_no_move_of_ones_own_home_gives_none(text: str) -> None:
    assert "home_city" not in facts(text)


def test_a_drug_switched_for_another_by_name_ends_it() -> None:
    got = facts("minha psiquiatra trocou a sertralina por escitalopram 10mg", [("medication:sertraline", "sertralina")])
    assert got == {"medication:escitalopram": ("escitalopram", False), "medication:sertraline": ("sertralina", True)}


@pytest.mark.parametrize(
    ("known", "text"),
    [
        ([("diet", "keto")], "i quit keto last month"),
        ([("diet", "keto")], "im done with the keto thing lol"),
        ([("diet", "low carb")], "desisti do low carb, não aguentava mais kkk"),
        ([("diet", "vegetariano")], "desisti do vegetarianismo"),
    ],
)
def test_a_diet_given_up_is_over(known: list[tuple[str, str]], text: str) -> None:
    assert facts(text, known)["diet"][1] is True


def test_starting_as_a_job_gives_the_job_and_the_employer() -> None:
    got = facts("graduated!! starting as a junior site engineer at Holloway Build next month")
    assert got["occupation"] == ("junior site engineer", False)
    assert got["employer"] == ("Holloway Build", False)


@pytest.mark.parametrize(
    ("text", "home"),
    [
        ("1 mês morando em floripa e já tô bronzeada kkkk", "Florianópolis"),
        ("primeira semana em Lisboa, tudo caro lol", "Lisboa"),
        ("2 months living in Tacoma and i love it", "Tacoma"),
    ],
)
def test_time_spent_living_somewhere_is_a_move_there(text: str, home: str) -> None:
    assert facts(text, [("home_city", "Curitiba")])["home_city"] == (home, False)


def test_a_first_week_on_a_trip_is_no_move() -> None:
    assert "home_city" not in facts("first week in Paris on vacation, love it")


@pytest.mark.parametrize(
    ("text", "key", "name"),
    [
        ("meu namorado rafa come tudo", "person:boyfriend", "Rafa"),
        ("minha irmã mariana é celíaca", "person:sister", "Mariana"),
        ("my coworker tasha is great", "person:colleague", "Tasha"),
    ],
)
def test_a_lowercase_name_after_a_relation_word(text: str, key: str, name: str) -> None:
    assert facts(text)[key] == (name, False)


@pytest.mark.parametrize("text", ["Eu e minha namorada adotamos um cachorro", "minha namorada adotou um gato"])
def test_a_verb_after_a_relation_word_is_no_name(text: str) -> None:
    assert not any(k.startswith("person:") for k in facts(text))


def test_a_rebooked_flight_and_booking_replace_the_held_ones_whatever_their_letters() -> None:
    """A flight number is a carrier's two characters and its digits ("LA8121" after "AC092"); a
    booking reference six letters and digits in any order ("QM5R2T" after "HQ3ZP8")."""
    held = [("id:reservation", "HQ3ZP8"), ("id:flight", "AC092")]
    got = facts("cancelaram meu voo 🤬 rebooked on LA8121 via santiago, new code is QM5R2T", held)
    assert got == {"id:flight": ("LA8121", False), "id:reservation": ("QM5R2T", False)}


def test_a_diet_quit_is_no_employer_left() -> None:
    """ "i quit X" with a lowercase X reads an employer left; a diet, a food or a drug is none."""
    got = facts("i quit low-carb", [("employer", "Acme"), ("diet", "low carb")])
    assert got == {"diet": ("low carb", True)}


@pytest.mark.parametrize(
    "text",
    ["e decidimos: a gente muda pro porto next month", "vamos mudar pra porto em maio", "a gente vai mudar pro porto"],
)
def test_a_move_planned_in_the_first_person_plural_is_where_one_is_moving(text: str) -> None:
    assert facts(text)["moving_to"] == ("Porto", False)


def test_being_where_one_said_one_was_moving_is_the_move_done() -> None:
    """ "já estamos no porto!!" replaces the held home only when the memory holds the move to Porto:
    being somewhere else is a trip or a visit, and fills no slot the memory holds."""
    text = "já estamos no porto!! the view from our apt is insane"
    assert facts(text, [("home_city", "Lisboa"), ("moving_to", "Porto")])["home_city"] == ("Porto", False)
    assert "home_city" not in facts(text, [("home_city", "Lisboa")])
