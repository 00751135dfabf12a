"""The never-tuned scenario that switches between Portuguese and English (``mixed``).

Written blind for the ``never-tuned`` split, with :mod:`.scenario_data_blind` (split from it,
unchanged): by a contributor who had not read the extraction rules and never ran the system on it.
It must never be used to change a rule.
"""

from __future__ import annotations

from .scenario_data import (
    CRITICAL,
    ENTITY,
    NEVER,
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

# --- both languages -------------------------------------------------------------------------------

RENATA = Scenario(
    name="blind_renata_dublin_mixed",
    language="mixed",
    summary="A Brazilian in Ireland switches between Portuguese and English: two friends, a PPS "
    "number, stops being vegan, moves from Dublin to Cork.",
    sessions=(
        session(
            "renata-oi",
            "2024-10-07",
            ("20:00", "u", "Oi! Sou a Renata, moro em Dublin faz dois anos e trabalho na Stripe como product manager."),
            ("20:00", "a", "Oi, Renata! Como posso ajudar?"),
            ("20:01", "u", "Sou vegana, me ajuda a achar um lugar pra jantar sexta?"),
            ("20:02", "a", "Claro! Quantas pessoas?"),
            ("20:03", "u", "three of us: my friend Aoife and minha amiga Duda, que chegou do Brasil semana passada"),
            ("20:04", "a", "Um restaurante com menu vegano completo perto do centro seria ideal."),
            ("20:05", "u", "perfeito, valeu!"),
        ),
        session(
            "renata-docs",
            "2024-10-28",
            ("09:10", "u", "Switching to English, this keyboard has no accents lol"),
            ("09:10", "a", "No problem! What's up?"),
            ("09:11", "u", "I need to renew my residence card, the appointment is in ten days"),
            ("09:12", "u", "my PPS number is 7654321TA, they always ask for it"),
            ("09:13", "a", "Bring your passport, the current card, and proof of address as well."),
            ("09:14", "u", "also, I'm not vegan anymore. I eat eggs and cheese again"),
            ("09:15", "u", "Aoife is thrilled, she's been trying to get me to eat her mom's quiche for years haha"),
        ),
        session(
            "renata-cork",
            "2024-12-02",
            ("18:30", "u", "Mudei pra Cork mês passado! Still at Stripe, I work remotely now."),
            ("18:30", "a", "Que mudança! Está gostando de Cork?"),
            ("18:31", "u", "muito! only thing: I can't stand driving in traffic, and here I have to drive more"),
            ("18:32", "u", "a Duda vai passar o Natal comigo 🎄"),
            ("18:33", "u", "ideias de ceia? Duda is vegetarian"),
            ("18:34", "a", "Um assado de lentilha com castanhas e legumes assados agrada todo mundo."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Renata"),
        Fact(PROFILE, "home_city", "Cork"),
        Fact(PROFILE, "employer", "Stripe"),
        Fact(PROFILE, "occupation", "product manager"),
        Fact(ENTITY, "person:friend", "Aoife"),
        Fact(ENTITY, "person:friend", "Duda"),
        Fact(CRITICAL, "pps_number", "7654321TA"),
        Fact(PREFERENCE, "dislikes:driving_in_traffic", "driving in traffic"),
    ),
    superseded=(Change("home_city", "Dublin", "Cork"),),
    retracted=(Retraction("diet", "vegano"),),
    mentions=(Mention("employer", "Stripe", 2),),
    events=(
        Event("2024-09-30", text="chegou do Brasil"),
        Event("2024-11-07", text="appointment is in ten days"),
        Event("2024-11-01", key="home_city"),
    ),
    probes=(
        Probe("Onde eu moro agora?", ("Cork",), stale=("Dublin",)),
        Probe("What's my PPS number?", ("7654321TA",)),
        Probe("Quem são minhas amigas?", ("Aoife", "Duda")),
    ),
    allowed=(
        Fact(PROFILE, "work_mode", "remote"),
        Fact(PROFILE, "nationality", "brasileiro"),
        Fact(ENTITY, "person:friend:diet", "vegetarian"),
    ),
    split=NEVER,
)
