"""Tuned scenarios: the defects a new user found in the rule-based extractor, replayed as chats.

Each scenario reproduces one or more of them in a realistic multi-session conversation: a job
change ("where do I work now?"), a preference changed with "mudei de ideia"/"changed my mind",
a trip budget taken back, a diet changed after "sou vegetariana", fillers that must not become
values ("by the way", "aliás", "kkkk"), dislikes read as likes, two people with the same relation,
booking codes, birthdays, partners' names, European Portuguese ("estou a trabalhar", "reformada",
"já não"), restated facts and relative dates. A third is English, a third Brazilian Portuguese and a
third European Portuguese; two have a second user whose values must never reach this one.

The rules were changed to pass these (split "tuned"); the expectations follow the conventions of
:mod:`.scenario_data` (values in the user's words, Portuguese adjectives in the masculine). The
Portuguese ones are in :mod:`.scenario_data_tuned_pt`; this module assembles the split.
"""

from __future__ import annotations

from .scenario_data import (
    CONSTRAINT,
    CRITICAL,
    ENTITY,
    GOAL,
    PREFERENCE,
    PROFILE,
    Change,
    Event,
    Fact,
    Mention,
    Probe,
    Retraction,
    Scenario,
    session,
)
from .scenario_data_tuned_pt import BRUNO, CATARINA, DUARTE, FERNANDA, INES, MARIANA, RODRIGO, TIAGO

# --- English --------------------------------------------------------------------------------------

TOM = Scenario(
    name="tom_acme_to_globex",
    language="en",
    summary="A data analyst changes employer, gives his birthday and his wife's name.",
    sessions=(
        session(
            "tom-intro",
            "2024-02-05",
            ("09:10", "u", "Hi, I'm Tom. I work at Acme as a data analyst."),
            ("09:10", "a", "Hi Tom! How can I help?"),
            ("09:11", "u", "My birthday is on March 14, and my wife is called Rachel."),
            ("09:12", "u", "Can you help me write a cover letter?"),
            ("09:13", "a", "Sure. Which role is it for?"),
        ),
        session(
            "tom-news",
            "2024-03-20",
            ("18:00", "u", "Big news: I left Acme. I started at Globex on Monday."),
            ("18:01", "a", "Congratulations! How is it going?"),
            ("18:02", "u", "Actually, forget the cover letter, haha. I'm still a data analyst, just somewhere else."),
            ("18:03", "u", "ok thanks lol"),
        ),
        session(
            "tom-question",
            "2024-04-02",
            ("08:30", "u", "Where do I work now? I keep writing the wrong company on forms, by the way."),
            ("08:31", "a", "You work at Globex."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Tom"),
        Fact(PROFILE, "employer", "Globex"),
        Fact(PROFILE, "occupation", "data analyst"),
        Fact(PROFILE, "birthday", "March 14"),
        Fact(ENTITY, "person:wife", "Rachel"),
    ),
    superseded=(Change("employer", "Acme", "Globex"),),
    mentions=(Mention("occupation", "data analyst", 2),),
    events=(Event("2024-03-18", key="employer"),),
    probes=(
        Probe("Where do I work now?", ("Globex",), ("Acme",)),
        Probe("When is my birthday?", ("March 14",)),
        Probe("What is my wife's name?", ("Rachel",)),
    ),
)

NINA = Scenario(
    name="nina_two_sisters_meetings",
    language="en",
    summary="Two sisters in two cities, a meeting-time preference changed, an allergy among fillers.",
    sessions=(
        session(
            "nina-intro",
            "2024-01-15",
            ("10:00", "u", "Hey, I'm Nina. My sister Carla lives in Lisbon."),
            ("10:01", "u", "I prefer meetings in the morning, by the way."),
            ("10:01", "a", "Noted. Anything else I should know for scheduling?"),
            ("10:02", "u", "I'm allergic to peanuts, so no snacks with nuts at the offsite."),
            ("10:03", "u", "lol ok"),
        ),
        session(
            "nina-family",
            "2024-02-10",
            ("16:20", "u", "My sister Emma lives in Boston, she just moved there."),
            ("16:21", "a", "How nice! Are you visiting her?"),
            ("16:22", "u", "Changed my mind: I prefer meetings in the afternoon now."),
            ("16:23", "u", "ugh I'm allergic to... by the way, lol"),
            ("16:24", "u", "I can't stand long calls."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Nina"),
        Fact(ENTITY, "person:sister", "Carla"),
        Fact(ENTITY, "person:sister", "Emma"),
        Fact(ENTITY, "person:sister:carla:home_city", "Lisbon"),
        Fact(ENTITY, "person:sister:emma:home_city", "Boston"),
        Fact(CRITICAL, "allergy:peanuts", "peanuts"),
        Fact(PREFERENCE, "prefers:meetings", "meetings in the afternoon"),
        Fact(PREFERENCE, "dislikes:long_calls", "long calls"),
    ),
    superseded=(Change("prefers:meetings", "meetings in the morning", "meetings in the afternoon"),),
    mentions=(Mention("person:sister", "Carla", 1), Mention("person:sister", "Emma", 1)),
    probes=(
        Probe("When do I like to have meetings?", ("afternoon",), ("morning",)),
        Probe("Where does my sister Emma live?", ("Boston",)),
        Probe("Do I have allergies?", ("peanuts",)),
    ),
)

SAM = Scenario(
    name="sam_trip_budget_vegan",
    language="en",
    summary="A trip budget taken back, vegetarian to vegan, a dentist visit next week; another user nearby.",
    other_user=(
        session(
            "priscilla",
            "2024-05-01",
            ("12:00", "u", "I'm Priscilla. I live in Toronto and my budget is 9000 dollars."),
        ),
    ),
    sessions=(
        session(
            "sam-trip",
            "2024-05-06",
            ("11:00", "u", "Hi, I'm Sam. I'm thinking about a trip to Peru."),
            ("11:01", "u", "My budget for the Peru trip is 4000 dollars."),
            ("11:02", "u", "I'm vegetarian, so food tips are welcome."),
            ("11:03", "a", "Lima has great vegetarian places."),
        ),
        session(
            "sam-change",
            "2024-06-10",
            ("19:00", "u", "Forget the Peru trip budget, we cancelled the trip."),
            ("19:01", "a", "Sorry to hear! Anything else?"),
            ("19:02", "u", "I went vegan last month, it's going well."),
        ),
        session(
            "sam-week",
            "2024-06-20",
            ("09:00", "u", "I'm vegan, remember, so no cheese in the recipes."),
            ("09:01", "u", "I have a dentist appointment next Tuesday."),
            ("09:02", "a", "Good luck at the dentist!"),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Sam"),
        Fact(CONSTRAINT, "diet", "vegan"),
    ),
    superseded=(Change("diet", "vegetarian", "vegan"),),
    retracted=(Retraction("budget:peru_trip", "4000 USD"),),
    mentions=(Mention("diet", "vegan", 2),),
    events=(Event("2024-06-25", text="dentist appointment"),),
    probes=(
        Probe("What do I eat?", ("vegan",), ("vegetarian",)),
        Probe("What is my name and where do I live?", ("Sam",), (), ("Priscilla", "Toronto")),
    ),
)

LEO = Scenario(
    name="leo_codes_and_dislikes",
    language="en",
    summary="Booking and flight codes, a rebooking, dislikes said with 'hate' and 'can't stand', laughter.",
    sessions=(
        session(
            "leo-trip",
            "2024-09-02",
            ("07:00", "u", "My name is Leo. My booking reference is QX7P2L."),
            ("07:01", "u", "My flight number is BA2490, it leaves at 6am."),
            ("07:01", "a", "Early one! Do you want a reminder?"),
            ("07:02", "u", "haha yes, I hate waking up early."),
        ),
        session(
            "leo-rebooked",
            "2024-09-05",
            ("13:00", "u", "They rebooked me. My booking reference is now ZK44R9."),
            ("13:01", "a", "Updated. Anything else?"),
            ("13:02", "u", "I can't stand jazz, so no jazz bars please."),
            ("13:03", "u", "ok cool"),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Leo"),
        Fact(CRITICAL, "id:reservation", "ZK44R9"),
        Fact(CRITICAL, "id:flight", "BA2490"),
        Fact(PREFERENCE, "dislikes:waking_up_early", "waking up early"),
        Fact(PREFERENCE, "dislikes:jazz", "jazz"),
    ),
    superseded=(Change("id:reservation", "QX7P2L", "ZK44R9"),),
    probes=(
        Probe("What is my booking reference?", ("ZK44R9",), ("QX7P2L",)),
        Probe("What's my flight number?", ("BA2490",)),
    ),
)

# --- Portuguese, Brazilian and European: in :mod:`.scenario_data_tuned_pt` ------------------------

# --- read with the memory and the question asked --------------------------------------------------

OLIVIA = Scenario(
    name="olivia_not_anymore",
    language="en",
    summary="A bare 'not anymore', a job change said as 'I moved to', a pet retracted by name, a partner.",
    sessions=(
        session(
            "olivia-intro",
            "2024-03-04",
            ("09:00", "u", "Hi, I'm Olivia. I work at Acme as a designer and I live in Chicago."),
            ("09:01", "a", "Nice to meet you, Olivia!"),
            ("09:02", "u", "I have a dog named Biscuit and I love sushi."),
            ("09:03", "u", "I'm dating Tom."),
        ),
        session(
            "olivia-update",
            "2024-04-10",
            ("18:00", "u", "Hey, quick update on my life."),
            ("18:00", "a", "Sure! Do you still live in Chicago?"),
            ("18:01", "u", "Not anymore."),
            ("18:02", "u", "I live in Denver now."),
            ("18:03", "u", "I moved to Globex last month, same role."),
            ("18:04", "u", "I changed my mind about sushi."),
        ),
        session(
            "olivia-week",
            "2024-05-02",
            ("08:10", "u", "I don't have Biscuit anymore, he lives with my parents now."),
            ("08:11", "u", "I can't do Tuesday mornings."),
            ("08:12", "u", "I want to go back to painting."),
            ("08:13", "a", "Noted!"),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Olivia"),
        Fact(PROFILE, "employer", "Globex"),
        Fact(PROFILE, "occupation", "designer"),
        Fact(PROFILE, "home_city", "Denver"),
        Fact(ENTITY, "person:partner", "Tom"),
        Fact(CONSTRAINT, "unavailable:tuesday_morning", "Tuesday mornings"),
        Fact(GOAL, "goal:go_back_to_painting", "go back to painting"),
    ),
    superseded=(Change("employer", "Acme", "Globex"),),
    retracted=(
        Retraction("home_city", "Chicago"),
        Retraction("likes:sushi", "sushi"),
        Retraction("pet:dog", "Biscuit"),
    ),
    probes=(
        Probe("Where do I work now?", ("Globex",), ("Acme",)),
        Probe("Where do I live?", ("Denver",), ("Chicago",)),
    ),
)

BEATRIZ = Scenario(
    name="beatriz_ja_nao",
    language="pt",
    summary="Muda para a Globex, a gata fica com a irmã (respondido com 'já não'), muda de ideia sobre sushi.",
    sessions=(
        session(
            "beatriz-oi",
            "2024-02-05",
            ("10:00", "u", "Oi, eu sou a Beatriz. Trabalho na Acme e moro em Curitiba."),
            ("10:01", "u", "Namoro com o Rafael."),
            ("10:02", "u", "Tenho uma gata chamada Mel e adoro sushi."),
            ("10:02", "a", "Que legal! Como posso ajudar?"),
        ),
        session(
            "beatriz-novidades",
            "2024-03-12",
            ("19:00", "u", "Mudei para a Globex, estou adorando a equipe."),
            ("19:01", "a", "Parabéns! E você ainda tem a Mel?"),
            ("19:02", "u", "Já não, ela ficou com a minha irmã."),
            ("19:03", "u", "Não posso às terças de manhã."),
        ),
        session(
            "beatriz-planos",
            "2024-04-20",
            ("08:00", "u", "Mudei de ideia sobre o sushi."),
            ("08:01", "u", "Quero voltar a correr."),
            ("08:02", "a", "Boa! Quer um plano de treino?"),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Beatriz"),
        Fact(PROFILE, "employer", "Globex"),
        Fact(PROFILE, "home_city", "Curitiba"),
        Fact(ENTITY, "person:partner", "Rafael"),
        Fact(CONSTRAINT, "unavailable:tuesday_morning", "às terças de manhã"),
        Fact(GOAL, "goal:voltar_a_correr", "voltar a correr"),
    ),
    superseded=(Change("employer", "Acme", "Globex"),),
    retracted=(Retraction("pet:cat", "Mel"), Retraction("likes:sushi", "sushi")),
    probes=(Probe("Onde eu trabalho?", ("Globex",), ("Acme",)),),
)

RITA = Scenario(
    name="rita_continuas",
    language="pt-pt",
    summary="Deixa de ser vegetariana e muda de emprego, ambos respondidos com 'já não'; começa a namorar.",
    sessions=(
        session(
            "rita-ola",
            "2024-06-03",
            ("10:00", "u", "Olá, sou a Rita. Vivo em Lisboa e trabalho na Sonae."),
            ("10:01", "u", "Sou vegetariana."),
            ("10:02", "a", "Ótimo, Rita!"),
        ),
        session(
            "rita-novidades",
            "2024-07-08",
            ("09:00", "a", "Olá Rita! Ainda és vegetariana?"),
            ("09:01", "u", "Já não, voltei a comer peixe."),
            ("09:02", "u", "Estou a namorar com o Miguel."),
            ("09:03", "a", "Que bom! E continuas a trabalhar na Sonae?"),
            ("09:04", "u", "Já não, entrei na Jerónimo Martins."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Rita"),
        Fact(PROFILE, "home_city", "Lisboa"),
        Fact(PROFILE, "employer", "Jerónimo Martins"),
        Fact(ENTITY, "person:partner", "Miguel"),
    ),
    superseded=(Change("employer", "Sonae", "Jerónimo Martins"),),
    retracted=(Retraction("diet", "vegetariano"),),
    probes=(Probe("Onde trabalho?", ("Jerónimo Martins",), ("Sonae",)),),
)

TUNED = (TOM, NINA, SAM, LEO, MARIANA, BRUNO, FERNANDA, RODRIGO, INES, DUARTE, CATARINA, TIAGO, OLIVIA, BEATRIZ, RITA)
