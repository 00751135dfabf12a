"""Never-tuned English scenarios about records: flight, booking, order, claim and policy numbers
that change or must be repeated exactly, next to the plans they belong to. Written blind, like
:mod:`.scenario_data_blind` (which assembles the split): they must never be used to change a rule.
"""

from __future__ import annotations

from .scenario_data import (
    CONSTRAINT,
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

# --- English: codes, bookings and numbers ---------------------------------------------------------

TOM = Scenario(
    name="blind_tom_lisbon_flight",
    language="en",
    summary="A flight number changed by the airline, a hotel booking code, vegan to vegetarian; "
    "another user of the tenant has her own city, employer, allergy and booking code.",
    other_user=(
        session(
            "rachel-trip",
            "2024-08-30",
            ("09:10", "u", "Hey, Rachel here. I live in Edinburgh and work at Ocado."),
            ("09:10", "a", "Hi Rachel! How can I help?"),
            ("09:11", "u", "I'm allergic to sesame, keep that in mind for any recipes."),
            ("09:12", "a", "Will do, no sesame."),
            ("09:13", "u", "My booking reference for the Inverness sleeper train is ZK49QH."),
            ("09:13", "a", "Got it. Anything else for the trip?"),
        ),
    ),
    sessions=(
        session(
            "tom-conf",
            "2024-09-01",
            ("16:20", "u", "Hi, I'm Tom, I live in Cambridge. Flying to Lisbon next Friday for a conference!"),
            ("16:20", "a", "Exciting! First time in Portugal?"),
            ("16:21", "u", "Yep. My flight is TP1351 from Heathrow, it leaves at 7:40am 😩"),
            ("16:22", "u", "and I'm vegan, is Lisbon ok for that?"),
            ("16:23", "a", "Very much so, there are plenty of vegan places around Príncipe Real and Cais do Sodré."),
            ("16:24", "u", "great. the hotel booking code is HX3K9M, can you keep it for me?"),
            ("16:24", "a", "Sure, hotel code HX3K9M."),
        ),
        session(
            "tom-cancel",
            "2024-09-04",
            ("21:02", "u", "ugh, TAP cancelled my flight. they put me on TP1357 instead, same day, later"),
            ("21:03", "a", "Annoying, but at least it's the same day. Do you need to tell the hotel?"),
            ("21:04", "u", "nah check-in is flexible. fastest way from the airport to Baixa?"),
            ("21:05", "a", "The metro: red line to Alameda, then green line to Baixa-Chiado, about 30 minutes."),
            ("21:07", "u", "I work at Darktrace, so this conference is a big deal for me, I'm giving a talk"),
            ("21:07", "a", "Good luck with the talk!"),
        ),
        session(
            "tom-back",
            "2024-09-16",
            ("08:30", "u", "back home. Lisbon was amazing"),
            ("08:30", "a", "Glad to hear it! How did the talk go?"),
            (
                "08:31",
                "u",
                "really well. confession though: I'm not vegan anymore, just vegetarian now. the pastéis "
                "de nata broke me haha",
            ),
            ("08:32", "a", "Understandable! Want some vegetarian recipes inspired by the trip?"),
            ("08:33", "u", "yes, could you suggest a Portuguese cookbook with vegetarian stuff?"),
            ("08:34", "a", "Try one focused on petiscos; many are easy to make without meat or fish."),
            ("08:35", "u", "ok cheers"),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Tom"),
        Fact(PROFILE, "home_city", "Cambridge"),
        Fact(PROFILE, "employer", "Darktrace"),
        Fact(CONSTRAINT, "diet", "vegetarian"),
        Fact(CRITICAL, "flight_number", "TP1357"),
        Fact(CRITICAL, "reservation_code", "HX3K9M"),
    ),
    superseded=(Change("flight_number", "TP1351", "TP1357"), Change("diet", "vegan", "vegetarian")),
    events=(Event("2024-09-06", text="Flying to Lisbon"),),
    probes=(
        Probe("What's my flight number?", ("TP1357",), stale=("TP1351",), foreign=("ZK49QH",)),
        Probe("What was the hotel booking code?", ("HX3K9M",), foreign=("ZK49QH", "Inverness")),
        Probe("Where do I live and where do I work?", ("Cambridge", "Darktrace"), foreign=("Edinburgh", "Ocado")),
        Probe("Any food restrictions I have?", ("vegetarian",), stale=("vegan",), foreign=("sesame",)),
    ),
    split=NEVER,
)


AISHA = Scenario(
    name="blind_aisha_houston_wedding",
    language="en",
    summary="A nurse plans her wedding: favourite cuisine changes, stops being vegan, an order number, "
    "a new hospital, the fiancé becomes her husband.",
    sessions=(
        session(
            "aisha-catering",
            "2025-01-13",
            (
                "19:30",
                "u",
                "Hi! I'm Aisha, I'm a nurse at Memorial Hermann in Houston and I'm marrying my fiancé Omar "
                "this spring 💍",
            ),
            ("19:30", "a", "Congratulations, Aisha! How can I help with the planning?"),
            ("19:31", "u", "catering first. I'm vegan, and so is most of my side of the family"),
            ("19:32", "a", "Then a fully plant-based menu keeps everyone happy."),
            ("19:33", "u", "my favorite cuisine is Thai, maybe a Thai-fusion menu?"),
            ("19:34", "u", "the catering budget is $12,000"),
            ("19:35", "a", "That's workable for a plant-based Thai menu for around 120 guests."),
        ),
        session(
            "aisha-dresses",
            "2025-02-03",
            (
                "13:00",
                "u",
                "I ordered the bridesmaid dresses online and they still haven't arrived. order number is "
                "114-7730921-5582",
            ),
            ("13:01", "a", "Frustrating. Do you want a message to the seller?"),
            ("13:01", "u", "yes please, polite but firm"),
            (
                "13:02",
                "a",
                "Here's a draft: 'Hello, my order has not arrived and the wedding is soon. Could you "
                "confirm a delivery date?'",
            ),
            ("13:03", "u", "haha perfect, thanks"),
            ("13:04", "u", "oh and Omar's birthday is March 2nd, I need to plan something small"),
        ),
        session(
            "aisha-menu",
            "2025-02-24",
            (
                "21:10",
                "u",
                "ok I changed my mind about the menu. Ethiopian is my favorite cuisine now, we had it last "
                "weekend and wow",
            ),
            ("21:11", "a", "Ethiopian food is wonderful for a shared wedding table!"),
            ("21:12", "u", "also, I'm not vegan anymore, I missed eggs too much"),
            ("21:13", "u", "we're getting married in two weeks!! I can't believe it"),
            ("21:14", "a", "So close! Anything left on the list?"),
            ("21:15", "u", "just seating. my aunts can't sit together lol"),
        ),
        session(
            "aisha-shifts",
            "2025-03-24",
            ("07:45", "u", "back from the honeymoon! Omar is officially my husband now 🥹"),
            ("07:45", "a", "Congratulations to you both!"),
            (
                "07:46",
                "u",
                "and I switched hospitals, I work at Texas Children's now. still a nurse, just a calmer unit",
            ),
            ("07:47", "u", "can you help me meal prep for 12-hour shifts?"),
            ("07:48", "a", "Sure: overnight oats, grain bowls and soups that reheat well."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Aisha"),
        Fact(PROFILE, "occupation", "nurse"),
        Fact(PROFILE, "employer", "Texas Children's"),
        Fact(ENTITY, "person:husband", "Omar"),
        Fact(PREFERENCE, "favorite:cuisine", "Ethiopian"),
        Fact(CONSTRAINT, "budget:catering", "12000 USD"),
        Fact(CRITICAL, "order_number", "114-7730921-5582"),
    ),
    superseded=(
        Change("employer", "Memorial Hermann", "Texas Children's"),
        Change("favorite:cuisine", "Thai", "Ethiopian"),
    ),
    retracted=(Retraction("diet", "vegan"),),
    mentions=(Mention("occupation", "nurse", 2),),
    events=(Event("2025-02-22", text="Ethiopian is my favorite"), Event("2025-03-10", text="married in two weeks")),
    probes=(
        Probe("What's my favorite cuisine?", ("Ethiopian",), stale=("Thai",)),
        Probe("What was the order number for the dresses?", ("7730921",)),
        Probe("Which hospital do I work at now?", ("Texas",), stale=("Hermann",)),
        Probe("What's my husband's name?", ("Omar",)),
    ),
    allowed=(
        Fact(ENTITY, "person:fiance", "Omar"),
        Fact(PROFILE, "home_city", "Houston"),
        Fact(PROFILE, "marital_status", "married"),
        Fact(ENTITY, "person:husband:birthday", "March 2"),
        Fact(ENTITY, "person:fiance:birthday", "March 2"),
    ),
    split=NEVER,
)


RAJ = Scenario(
    name="blind_raj_toronto_insurance",
    language="en",
    summary="An accountant changes firm, has a car accident with claim and policy numbers, breaks up; "
    "another user of the tenant has her own city, employer, allergy and policy number.",
    other_user=(
        session(
            "wei-car",
            "2025-03-01",
            ("11:00", "u", "Hi, I'm Wei. I live in Calgary and I work at Suncor as a geologist."),
            ("11:00", "a", "Hi Wei! What can I do for you?"),
            ("11:01", "u", "I'm allergic to mango, which is tragic."),
            ("11:01", "a", "Noted, no mango."),
            ("11:02", "u", "My car insurance policy number is AX-88213, in case I need it."),
            ("11:03", "a", "Got it."),
        ),
    ),
    sessions=(
        session(
            "raj-busy",
            "2025-03-03",
            ("21:45", "u", "Hello, I'm Raj, an accountant at Deloitte in Toronto. busy season is starting 😵"),
            ("21:45", "a", "Hi Raj! Good luck with busy season. How can I help?"),
            ("21:46", "u", "I'm vegetarian, so please no chicken when I ask for quick dinners"),
            ("21:47", "u", "my girlfriend Priti says I live on instant noodles in March haha"),
            ("21:48", "u", "dinners that take under 15 minutes?"),
            ("21:49", "a", "Chickpea curry with naan, egg fried rice, or a black bean quesadilla."),
        ),
        session(
            "raj-claim",
            "2025-03-24",
            ("12:30", "u", "my car got rear-ended two days ago, nobody hurt thankfully"),
            ("12:30", "a", "Glad you're okay. Have you opened a claim?"),
            ("12:31", "u", "yes, the claim number is CLM-5530917 and my policy number is TD-440192"),
            ("12:32", "u", "what should I ask the adjuster?"),
            ("12:33", "a", "Ask about the repair shop choice, a rental car, and how fault was decided."),
        ),
        session(
            "raj-kpmg",
            "2025-05-12",
            ("19:00", "u", "big news: I left Deloitte. I'm at KPMG now, started last week"),
            ("19:00", "a", "Congrats on the move!"),
            ("19:01", "u", "also Priti and I broke up. I'm single now"),
            ("19:02", "a", "Sorry to hear that. How are you holding up?"),
            ("19:03", "u", "ok honestly. still vegetarian btw, the new office cafeteria is hopeless"),
            ("19:04", "u", "I love cricket, any bars in Toronto that show IPL games?"),
            ("19:05", "a", "Several sports bars downtown stream IPL matches; check their schedules."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Raj"),
        Fact(PROFILE, "occupation", "accountant"),
        Fact(PROFILE, "employer", "KPMG"),
        Fact(CONSTRAINT, "diet", "vegetarian"),
        Fact(PREFERENCE, "likes:cricket", "cricket"),
        Fact(CRITICAL, "policy_number", "TD-440192"),
        Fact(CRITICAL, "claim_number", "CLM-5530917"),
    ),
    superseded=(Change("employer", "Deloitte", "KPMG"),),
    retracted=(Retraction("person:girlfriend", "Priti"),),
    mentions=(Mention("diet", "vegetarian", 2),),
    events=(Event("2025-03-22", text="rear-ended"), Event("2025-05-05", key="employer")),
    probes=(
        Probe("What's my car insurance policy number?", ("440192",), foreign=("88213", "Calgary")),
        Probe("Where do I work now?", ("KPMG",), stale=("Deloitte",), foreign=("Suncor", "Calgary")),
        Probe("What's my diet?", ("vegetarian",), foreign=("mango",)),
    ),
    allowed=(Fact(PROFILE, "marital_status", "single"), Fact(PROFILE, "home_city", "Toronto")),
    split=NEVER,
)
