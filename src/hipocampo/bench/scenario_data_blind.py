"""Never-tuned fact-lifecycle scenarios, English and mixed: moves, jobs, family and diets here;
those about codes, bookings and numbers in :mod:`.scenario_data_blind_codes`, the Portuguese ones
in :mod:`.scenario_data_blind_pt`, the mixed one in :mod:`.scenario_data_blind_mixed`. This module
assembles the split.

These scenarios were written blind for the ``never-tuned`` split: by a contributor who had not read
the extraction rules (nor the extractor's tests) and who never ran the system on them. The
expectations are what a careful reader expects from the words alone, following only the key and
value conventions visible in :mod:`.scenario_data`. They measure how the product generalises to
phrasing nobody tuned it for, and must never be used to change a rule: a rule changed to pass one
of them would turn them into tuned scenarios and void the split.

Relative dates resolve against the message time as in :mod:`.scenario_data` ("last week": the
Monday of the previous ISO week; "last month": the 1st of the previous month). For future
references the same reading is used forwards: "next month" and a bare future month ("in October")
the 1st of that month, "in two weeks" fourteen days later (said on Mondays, where the ISO-week and
the day-count readings agree), "next Friday" said on a Sunday.
"""

from __future__ import annotations

from .scenario_data import (
    CONSTRAINT,
    CRITICAL,
    ENTITY,
    GOAL,
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
from .scenario_data_blind_codes import AISHA, RAJ, TOM
from .scenario_data_blind_mixed import RENATA
from .scenario_data_blind_pt import BLIND_PT

# --- English: moves, jobs, family and diets -------------------------------------------------------

NORA = Scenario(
    name="blind_nora_austin_to_seattle",
    language="en",
    summary="A UX designer moves from Austin to Seattle for a new employer; two sisters; peanut allergy.",
    sessions=(
        session(
            "nora-dinner",
            "2024-02-05",
            ("18:40", "u", "hi there! I'm Nora, 34, I live in Austin and I'm a UX designer at Indeed."),
            ("18:40", "a", "Hi Nora! What can I do for you today?"),
            ("18:41", "u", "I'm organizing a dinner for my sister Megan, she's turning 30 and I want it to be special"),
            ("18:42", "a", "Lovely! What kind of food does she like, and how many people are coming?"),
            ("18:43", "u", "around 8 people. she's obsessed with sushi haha"),
            ("18:43", "u", "I'm allergic to peanuts, by the way, so no places that cook with peanut oil"),
            ("18:44", "a", "Noted. Most sushi places don't use peanut oil, but it's worth asking when you book."),
            ("18:46", "u", "good point, thanks. can you draft a short invite text?"),
            ("18:47", "a", "Sure: 'Megan is turning 30! Join us for sushi on Saturday at 7. RSVP to Nora.'"),
        ),
        session(
            "nora-offer",
            "2024-03-18",
            ("12:05", "u", "ok so, update: I accepted an offer in Seattle!!"),
            ("12:05", "a", "Congratulations! Tell me more."),
            ("12:06", "u", "I start at Expedia next month, same role, UX designer, but a much bigger team"),
            ("12:07", "u", "my other sister Claire already lives there so I'll crash at her place at first"),
            ("12:08", "u", "which neighborhoods are good if you don't have a car?"),
            ("12:09", "a", "Capitol Hill, Fremont and Ballard are walkable and well served by buses."),
            ("12:10", "u", "nice. Claire is in Ballard actually"),
        ),
        session(
            "nora-settled",
            "2024-04-22",
            ("20:15", "u", "I moved to Seattle last week, there are boxes everywhere 😅"),
            ("20:15", "a", "Welcome to Seattle! How is it going so far?"),
            ("20:16", "u", "my first day at Expedia was April 1st, no joke, and the team is lovely"),
            ("20:17", "u", "Claire has been amazing, she helped me carry a couch up three floors"),
            ("20:18", "u", "still allergic to peanuts obviously, any safe bakeries near Capitol Hill?"),
            ("20:19", "a", "Look for dedicated nut-free bakeries and always ask about cross-contact."),
        ),
        session(
            "nora-visit",
            "2024-05-13",
            ("19:00", "u", "Megan is coming to visit me in June!"),
            ("19:00", "a", "Fun! What would you like to do together?"),
            ("19:01", "u", "I love hiking, she's more of a beach person. any day trip that works for both?"),
            ("19:02", "a", "Deception Pass has forest trails and beaches in the same park."),
            ("19:03", "u", "perfect, thanks!"),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Nora"),
        Fact(PROFILE, "age", "34"),
        Fact(PROFILE, "home_city", "Seattle"),
        Fact(PROFILE, "occupation", "UX designer"),
        Fact(PROFILE, "employer", "Expedia"),
        Fact(CRITICAL, "allergy:peanuts", "peanuts"),
        Fact(ENTITY, "person:sister", "Megan"),
        Fact(ENTITY, "person:sister", "Claire"),
        Fact(PREFERENCE, "likes:hiking", "hiking"),
    ),
    superseded=(Change("home_city", "Austin", "Seattle"), Change("employer", "Indeed", "Expedia")),
    mentions=(Mention("allergy:peanuts", "peanuts", 2), Mention("occupation", "UX designer", 2)),
    events=(
        Event("2024-04-15", key="home_city"),
        Event("2024-04-01", key="employer"),
        Event("2024-06-01", text="visit me in June"),
    ),
    probes=(
        Probe("Where do I live these days?", ("Seattle",), stale=("Austin",)),
        Probe("Which company do I work for?", ("Expedia",), stale=("Indeed",)),
        Probe("What am I allergic to?", ("peanuts",)),
        Probe("What are my sisters called?", ("Megan", "Claire")),
    ),
    allowed=(
        Fact(PREFERENCE, "person:sister:likes:sushi", "sushi"),
        Fact(ENTITY, "person:sister:age", "30"),
    ),
    split=NEVER,
)


GRACE = Scenario(
    name="blind_grace_phoenix_retiree",
    language="en",
    summary="A retiree with a husband, a parrot and a granddaughter; hates cilantro; gives up water "
    "aerobics and goes vegetarian.",
    sessions=(
        session(
            "grace-salsa",
            "2024-05-06",
            ("10:02", "u", "Hello dear. My name is Grace, I'm 71 and I live in Phoenix with my husband George."),
            ("10:02", "a", "Hello Grace! What can I help you with?"),
            ("10:03", "u", "I have a little parrot called Kiwi who talks more than George does, haha."),
            (
                "10:04",
                "u",
                "I can't stand cilantro, it tastes like soap to me. Could you give me a salsa recipe without it?",
            ),
            ("10:05", "a", "Of course! A roasted tomato salsa with parsley and lime is lovely and has no cilantro."),
            ("10:06", "u", "I love doing the crossword every morning, so recipes with short steps please."),
            ("10:07", "u", "Thank you sweetheart."),
        ),
        session(
            "grace-party",
            "2024-05-27",
            ("09:15", "u", "I love water aerobics, I go on Tuesdays and Thursdays, it's wonderful for my knees."),
            ("09:15", "a", "That sounds like a great routine."),
            ("09:16", "u", "My birthday is on June 20th and George wants to throw a garden party."),
            ("09:17", "u", "My granddaughter Lily had her dance recital yesterday, she was wonderful."),
            ("09:17", "a", "How lovely! Shall we plan the party menu?"),
            ("09:18", "u", "Yes please. And remember, I can't stand cilantro."),
            ("09:19", "a", "No cilantro, promise. Grilled vegetables, a pasta salad and a lemon cake?"),
        ),
        session(
            "grace-knee",
            "2024-07-08",
            ("11:30", "u", "I had knee surgery last month, so I'm moving slowly these days."),
            ("11:30", "a", "I'm sorry to hear that. How is the recovery going?"),
            (
                "11:31",
                "u",
                "Fine. But I don't enjoy water aerobics anymore, the pool feels too cold since the operation.",
            ),
            ("11:32", "u", "Also I've become a vegetarian, George thinks I've lost my mind."),
            ("11:33", "u", "Can you suggest protein-rich meals for an old lady who just went vegetarian?"),
            ("11:34", "a", "Lentil soup, eggs, Greek yogurt, beans and tofu are all easy and full of protein."),
        ),
        session(
            "grace-trip",
            "2024-07-29",
            ("15:00", "u", "The party was lovely. Kiwi said 'happy birthday' all afternoon!"),
            ("15:00", "a", "Ha, what a clever bird!"),
            ("15:01", "u", "George and I are flying to San Diego next month to see Lily."),
            ("15:02", "u", "Any easy crossword apps for the plane?"),
            ("15:03", "a", "Most newspapers have crossword apps with large print; try one with offline puzzles."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Grace"),
        Fact(PROFILE, "age", "71"),
        Fact(PROFILE, "home_city", "Phoenix"),
        Fact(PROFILE, "birthday", "June 20"),
        Fact(ENTITY, "person:husband", "George"),
        Fact(ENTITY, "person:granddaughter", "Lily"),
        Fact(ENTITY, "pet:parrot", "Kiwi"),
        Fact(PREFERENCE, "dislikes:cilantro", "cilantro"),
        Fact(PREFERENCE, "likes:doing_the_crossword", "doing the crossword"),
        Fact(CONSTRAINT, "diet", "vegetarian"),
    ),
    retracted=(Retraction("likes:water_aerobics", "water aerobics"),),
    mentions=(Mention("dislikes:cilantro", "cilantro", 2),),
    events=(
        Event("2024-05-26", text="dance recital"),
        Event("2024-06-01", text="knee surgery"),
        Event("2024-08-01", text="San Diego"),
    ),
    probes=(
        Probe("Which herb do I hate?", ("cilantro",)),
        Probe("What is my parrot's name?", ("Kiwi",)),
        Probe("When is my birthday?", ("June",)),
        Probe("What's my husband's name?", ("George",)),
    ),
    allowed=(
        Fact(CRITICAL, "condition:knee_surgery", "knee surgery"),
        Fact(PREFERENCE, "likes:crossword", "crossword"),
    ),
    split=NEVER,
)

MARCUS = Scenario(
    name="blind_marcus_barista_to_paralegal",
    language="en",
    summary="A barista becomes a paralegal, drops his laptop budget, loves jazz; another user of the "
    "tenant has her own city, employer and allergy.",
    other_user=(
        session(
            "dana-bike",
            "2024-10-01",
            ("17:00", "u", "Hi! I'm Dana. I live in Tucson and I'm an engineer at Raytheon."),
            ("17:00", "a", "Hi Dana, what can I do for you?"),
            ("17:01", "u", "I'm allergic to penicillin, good to keep in mind if I ask health stuff."),
            ("17:01", "a", "Noted."),
            ("17:02", "u", "Can you help me pick a road bike under $1,500?"),
            ("17:03", "a", "Sure: aluminium frame, 105 groupset, and get a proper fitting."),
        ),
    ),
    sessions=(
        session(
            "marcus-laptop",
            "2024-10-03",
            (
                "22:10",
                "u",
                "yo. I'm Marcus, I live in Cleveland and work as a barista at Starbucks while I study for the LSAT",
            ),
            ("22:10", "a", "Hey Marcus! How can I help?"),
            ("22:11", "u", "need a laptop for law school prep. my budget is $900"),
            ("22:12", "a", "For $900 you can get a solid ultrabook with 16 GB of RAM."),
            ("22:13", "u", "I mostly just type and watch lectures lol"),
            ("22:14", "u", "also I love jazz, so decent speakers would be a plus haha"),
            ("22:15", "a", "Then look at models with front-facing speakers, or budget for headphones."),
        ),
        session(
            "marcus-lsat",
            "2024-10-24",
            ("19:40", "u", "took the LSAT last Saturday!! finally"),
            ("19:40", "a", "Congrats on getting through it! How do you feel?"),
            ("19:41", "u", "ok I think. forget what I said about the budget, my aunt is giving me her old MacBook"),
            ("19:42", "a", "Even better, no spending needed."),
            ("19:43", "u", "I want to get into law school at Case Western"),
            ("19:44", "u", "what should a personal statement focus on?"),
            ("19:45", "a", "One concrete story that shows why law, and what you have done about it."),
        ),
        session(
            "marcus-job",
            "2024-11-18",
            ("08:05", "u", "big change: I quit Starbucks. I'm a paralegal now, at Hartley & Moss"),
            ("08:05", "a", "That's a great step toward law school!"),
            ("08:06", "u", "the office is downtown so my commute is 20 min on the bus"),
            ("08:07", "u", "what should I read to get up to speed on civil litigation?"),
            ("08:08", "a", "A civil procedure primer and your state's court rules are the best start."),
            ("08:09", "u", "I can't stand true crime podcasts btw, so don't recommend any of those"),
        ),
        session(
            "marcus-music",
            "2024-12-09",
            ("20:00", "u", "still love jazz, any good Christmas jazz albums?"),
            ("20:00", "a", "Vince Guaraldi's 'A Charlie Brown Christmas' is the classic."),
            ("20:01", "u", "my girlfriend Tasha is more into soul though"),
            ("20:02", "a", "Then try a soul Christmas compilation for the two of you."),
            ("20:03", "u", "cool thx"),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Marcus"),
        Fact(PROFILE, "home_city", "Cleveland"),
        Fact(PROFILE, "occupation", "paralegal"),
        Fact(PROFILE, "employer", "Hartley & Moss"),
        Fact(PREFERENCE, "likes:jazz", "jazz"),
        Fact(PREFERENCE, "dislikes:true_crime_podcasts", "true crime podcasts"),
        Fact(GOAL, "goal:get_into_law_school_at_case_western", "get into law school at Case Western"),
        Fact(ENTITY, "person:girlfriend", "Tasha"),
    ),
    superseded=(
        Change("occupation", "barista", "paralegal"),
        Change("employer", "Starbucks", "Hartley & Moss"),
    ),
    retracted=(Retraction("budget", "900 USD"),),
    mentions=(Mention("likes:jazz", "jazz", 2),),
    events=(Event("2024-10-19", text="took the LSAT"),),
    probes=(
        Probe("What's my job now?", ("paralegal",), stale=("barista",), foreign=("Raytheon", "Tucson")),
        Probe("Where do I work?", ("Hartley",), stale=("Starbucks",), foreign=("Raytheon", "Tucson")),
        Probe("What music am I into?", ("jazz",), foreign=("penicillin",)),
    ),
    split=NEVER,
)


BEN = Scenario(
    name="blind_ben_two_sons",
    language="en",
    summary="A dad of two sons with a partner and a dog; the hamster dies; a treehouse project.",
    sessions=(
        session(
            "ben-cake",
            "2024-03-03",
            ("15:20", "u", "hey, Ben here. dad of two boys: Oliver is 9 and my other son Felix just turned 6"),
            ("15:20", "a", "Hi Ben! What can I help with?"),
            ("15:21", "u", "we live in Milwaukee, my partner Sam and I both work full time so weekends are chaos"),
            ("15:22", "u", "Oliver is allergic to eggs, which makes birthday cakes a nightmare"),
            ("15:23", "a", "Aquafaba or a flax 'egg' works well in most cake recipes."),
            ("15:24", "u", "oh nice. we also have a dog named Waffles and a hamster named Nugget lol, it's a zoo"),
            ("15:25", "a", "Sounds like a lively house!"),
        ),
        session(
            "ben-soccer",
            "2024-03-25",
            ("18:00", "u", "Felix has his first soccer tournament this Saturday, he's so pumped"),
            ("18:00", "a", "How fun! Anything you need for it?"),
            ("18:01", "u", "what snacks should I bring for a team of 6 year olds?"),
            ("18:02", "a", "Orange slices, pretzels and water; check with the coach about allergies."),
            ("18:03", "u", "I can't do Wednesday evenings btw, that's swim lessons for both boys"),
            ("18:04", "a", "Got it, I won't suggest anything on Wednesday evenings."),
        ),
        session(
            "ben-nugget",
            "2024-04-15",
            ("20:30", "u", "sad news, we don't have Nugget anymore 😢 the boys buried him in the yard yesterday"),
            ("20:30", "a", "I'm so sorry. That's hard for kids."),
            ("20:31", "u", "how do I talk to a 6 year old about a pet dying?"),
            (
                "20:32",
                "a",
                "Use simple, honest words, let him ask questions, and maybe draw a picture of Nugget together.",
            ),
            ("20:33", "u", "I'm a high school chemistry teacher, I explain stuff all day, but this one is hard"),
        ),
        session(
            "ben-treehouse",
            "2024-05-20",
            ("17:45", "u", "new project: I want to build a treehouse this summer"),
            ("17:45", "a", "Great project! Do you have a good tree?"),
            ("17:46", "u", "a big oak in the backyard. Waffles will probably try to climb it haha"),
            ("17:47", "u", "budget is around $600 for lumber and hardware"),
            ("17:48", "a", "That covers a simple platform with railings if you do the labour yourself."),
            ("17:49", "u", "Sam says hi, by the way"),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Ben"),
        Fact(PROFILE, "home_city", "Milwaukee"),
        Fact(PROFILE, "occupation", "high school chemistry teacher"),
        Fact(ENTITY, "person:son", "Oliver"),
        Fact(ENTITY, "person:son", "Felix"),
        Fact(ENTITY, "person:partner", "Sam"),
        Fact(ENTITY, "pet:dog", "Waffles"),
        Fact(CONSTRAINT, "unavailable:wednesday_evening", "Wednesday evenings"),
        Fact(GOAL, "goal:build_a_treehouse", "build a treehouse"),
        Fact(CONSTRAINT, "budget", "600 USD"),
    ),
    retracted=(Retraction("pet:hamster", "Nugget"),),
    events=(Event("2024-03-30", text="soccer tournament"), Event("2024-04-14", text="buried him")),
    probes=(
        Probe("What are my kids' names?", ("Oliver", "Felix")),
        Probe("What pets do we have?", ("Waffles",), stale=("Nugget",)),
        Probe("Which evening am I busy?", ("Wednesday",)),
    ),
    allowed=(
        Fact(ENTITY, "family:sons", "2"),
        Fact(ENTITY, "family:children", "2"),
        Fact(ENTITY, "person:son:allergy:eggs", "eggs"),
        Fact(ENTITY, "person:son:age", "9"),
        Fact(ENTITY, "person:son:age", "6"),
        Fact(CONSTRAINT, "budget:treehouse", "600 USD"),
    ),
    split=NEVER,
)

CHLOE = Scenario(
    name="blind_chloe_leeds_to_glasgow",
    language="en",
    summary="A student graduates, becomes a data analyst and moves from Leeds to Glasgow; gives up "
    "Korean; hates horror films; the flatmate's cat is not hers.",
    sessions=(
        session(
            "chloe-stats",
            "2024-04-08",
            ("14:00", "u", "hiya I'm Chloe, I live in Leeds and I'm a student, final year maths"),
            ("14:00", "a", "Hi Chloe! What are you working on?"),
            ("14:01", "u", "stats revision 😭 the exam is in two weeks"),
            ("14:02", "a", "Let's make a plan: one topic a day, past papers at the weekend."),
            ("14:03", "u", "ok. also I want to learn Korean over the summer, I'm obsessed with k-dramas lol"),
            ("14:04", "u", "anyway, hypothesis testing, where do I even start"),
            ("14:05", "a", "Start with the null and alternative hypotheses, then p-values."),
        ),
        session(
            "chloe-bday",
            "2024-05-13",
            (
                "21:30",
                "u",
                "planning way ahead: my birthday is the 14th of November and my flatmates want a horror movie night",
            ),
            ("21:30", "a", "Ha, sounds fun?"),
            ("21:31", "u", "not for me, I can't stand horror films"),
            ("21:32", "a", "Maybe a comedy marathon or karaoke instead?"),
            ("21:33", "u", "karaoke!! good compromise"),
        ),
        session(
            "chloe-job",
            "2024-07-22",
            ("10:10", "u", "I graduated!! and I got a job as a data analyst at Arup"),
            ("10:10", "a", "Congratulations, Chloe! That's brilliant."),
            ("10:11", "u", "the job's in Glasgow, so I'm moving there next month"),
            ("10:12", "u", "honestly I don't want to learn Korean anymore, no time with the move"),
            ("10:13", "a", "Fair enough. Want a moving checklist?"),
            ("10:14", "u", "yes pls"),
        ),
        session(
            "chloe-glasgow",
            "2024-08-19",
            (
                "19:20",
                "u",
                "ok I live in Glasgow now. it rains even more than in Leeds, which I didn't think was possible",
            ),
            ("19:20", "a", "Welcome to Scotland! How's the flat?"),
            ("19:21", "u", "nice, West End. my flatmate Isla has a cat called Haggis, he sleeps on my bed"),
            ("19:22", "u", "what's a good routine for the first week at a new job?"),
            ("19:23", "a", "Meet your team one by one, take notes, and ask where the data lives."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Chloe"),
        Fact(PROFILE, "home_city", "Glasgow"),
        Fact(PROFILE, "occupation", "data analyst"),
        Fact(PROFILE, "employer", "Arup"),
        Fact(PROFILE, "birthday", "14 November"),
        Fact(PREFERENCE, "dislikes:horror_films", "horror films"),
    ),
    superseded=(Change("home_city", "Leeds", "Glasgow"), Change("occupation", "student", "data analyst")),
    retracted=(Retraction("goal:learn_korean", "learn Korean"),),
    events=(
        Event("2024-04-22", text="exam is in two weeks"),
        Event("2024-08-01", text="moving there next month"),
    ),
    probes=(
        Probe("Where do I live?", ("Glasgow",), stale=("Leeds",)),
        Probe("What's my job and who do I work for?", ("analyst", "Arup")),
        Probe("When's my birthday?", ("November",)),
        Probe("What kind of movies do I hate?", ("horror",)),
    ),
    allowed=(
        Fact(PREFERENCE, "likes:k-dramas", "k-dramas"),
        Fact(ENTITY, "person:flatmate", "Isla"),
    ),
    split=NEVER,
)


BLIND_EN = (NORA, TOM, GRACE, MARCUS, AISHA, BEN, CHLOE, RAJ, RENATA)
BLIND = (*BLIND_EN, *BLIND_PT)
