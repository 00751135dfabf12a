"""Scripted conversations for the fact-lifecycle scenarios (:mod:`.scenarios`): the shapes, and the
English and mixed-language users (the Portuguese ones are in :mod:`.scenario_data_pt`).

Written for hipocampo, not taken from any dataset. Each scenario is one user talking to an assistant
over a few threads, days or weeks apart, with every message time given. The user states facts,
later corrects some, retracts some, says some again, and mentions dated events in relative terms;
chit-chat, questions and assistant turns sit in between, as in real use.

The expectations are what a careful reader would expect a *rule-based* extractor to get from these
words: explicit first-person statements, not inferences ("I started eating fish again" does not say
the user is not vegetarian; "I'm not vegetarian anymore" does). Values are written as the extractor
documents them: the user's own words for tastes and allergens, the masculine form of Portuguese
adjectives, money as "2500 USD", counts as digits, a named pet as its name.
"""

from __future__ import annotations

from dataclasses import dataclass

NEVER = "never-tuned"
"""The split of the scenarios written blind (see :attr:`Scenario.split`)."""

PROFILE, PREFERENCE, GOAL = "user_profile", "preference", "goal"
CONSTRAINT, CRITICAL, ENTITY = "constraint", "critical_info", "entity"


@dataclass(frozen=True)
class Turn:
    role: str  # "user" or "assistant"
    at: str  # ISO-8601, UTC
    content: str


@dataclass(frozen=True)
class Session:
    """One thread, written in one sitting."""

    thread_id: str
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Fact:
    """A fact expected to be current at the end: (memory type, key, value)."""

    memory_type: str
    key: str
    value: str


@dataclass(frozen=True)
class Change:
    """A fact expected to be superseded: the old value's memory closed, linked to the new one."""

    key: str
    old: str
    new: str


@dataclass(frozen=True)
class Retraction:
    """A fact the user took back: still stored, no longer current, with a DELETE entry."""

    key: str
    value: str


@dataclass(frozen=True)
class Mention:
    """A fact said ``count`` times in all, expected as one memory with that mention count."""

    key: str
    value: str
    count: int


@dataclass(frozen=True)
class Event:
    """A dated event: the current fact with ``key`` (and ``value``), or the turn containing ``text``,
    expected to carry ``day`` (ISO date) as its event start."""

    day: str
    key: str | None = None
    value: str | None = None
    text: str | None = None

    @property
    def label(self) -> str:
        return f"{self.key}={self.value}" if self.key and self.value else self.key or f"turn ~ {self.text!r}"


@dataclass(frozen=True)
class Probe:
    """A question asked after the last session, as the user would ask it.

    Checked on the rendered context (:meth:`Memory.recall` in a new thread) and on the search
    results: some value in ``current`` appears in the context; the top search hit does not state
    a ``stale`` value unless it also states a current one or is marked outdated; no context line
    states a ``stale`` value without the outdated mark (or a current value beside it); no value in
    ``foreign`` (another user's) appears anywhere. Values are compared after case and accent
    folding, as whole words.
    """

    query: str
    current: tuple[str, ...]
    stale: tuple[str, ...] = ()
    foreign: tuple[str, ...] = ()


@dataclass(frozen=True)
class Scenario:
    name: str
    language: str  # "en", "pt" (Brazilian Portuguese), "pt-pt" (European Portuguese) or "mixed"
    summary: str
    sessions: tuple[Session, ...]
    facts: tuple[Fact, ...]
    superseded: tuple[Change, ...] = ()
    retracted: tuple[Retraction, ...] = ()
    mentions: tuple[Mention, ...] = ()
    events: tuple[Event, ...] = ()
    probes: tuple[Probe, ...] = ()
    allowed: tuple[Fact, ...] = ()
    """Facts neither required nor counted against precision when extracted (a reasonable reading
    the scenario does not insist on)."""
    other_user: tuple[Session, ...] = ()
    """Sessions of a second user of the same tenant, written first: nothing of theirs may reach
    this user's context or search results (list their values in a probe's ``foreign``)."""
    split: str = "tuned"
    """"tuned": written alongside the extraction rules, which were changed to pass them.
    "never-tuned": written blind, by a contributor who had not read the rules, before any rule was
    changed, and never used to change one since. Reported separately."""


def session(thread_id: str, day: str, *turns: tuple[str, str, str]) -> Session:
    """``turns`` as ``(HH:MM, "u" or "a", text)``, all on ``day`` (YYYY-MM-DD, UTC)."""
    roles = {"u": "user", "a": "assistant"}
    return Session(thread_id, tuple(Turn(roles[who], f"{day}T{hhmm}:00Z", text) for hhmm, who, text in turns))


# --- English ------------------------------------------------------------------------------------

SARAH = Scenario(
    name="sarah_boston_to_denver",
    probes=(
        Probe("Where do I work now?", ("Denver Health",), ("Mass General",)),
        Probe("Do I have any allergies?", ("shellfish",)),
        Probe("Do I have a pet?", ("Biscuit",)),
    ),
    language="en",
    summary="A nurse moves city and hospital, rehomes her cat, adopts a dog.",
    sessions=(
        session(
            "sarah-dinners",
            "2024-03-04",
            ("19:02", "u", "Hi! I'm Sarah. I live in Boston and I work as a nurse at Mass General."),
            ("19:02", "a", "Nice to meet you, Sarah! What can I help you with today?"),
            ("19:03", "u", "Easy dinner ideas, mostly. Just so you know, I'm allergic to shellfish."),
            ("19:03", "a", "Noted: no shellfish. A lemon chicken traybake needs ten minutes of prep."),
            ("19:05", "u", "Perfect. I have a cat named Miso. Fish scraps are always welcome haha"),
            ("19:06", "u", "I work nights, so I can't do mornings."),
            ("19:06", "a", "Then batch cooking in the afternoon it is."),
        ),
        session(
            "sarah-running",
            "2024-03-20",
            ("07:40", "u", "Morning! My goal is to run the Boston Marathon."),
            ("07:41", "a", "Great goal! How much are you running these days?"),
            ("07:43", "u", "About 20 miles a week. I love trail running and yoga."),
            ("07:44", "u", "Can you suggest a 16-week plan?"),
            ("07:45", "a", "Sure: three easy runs, one long run and one yoga session a week, building slowly."),
        ),
        session(
            "sarah-move",
            "2024-04-17",
            ("20:10", "u", "Big news: I moved to Denver last week!"),
            ("20:10", "a", "Congratulations! How is the new place?"),
            ("20:12", "u", "Chaotic but fine. I started working at Denver Health on Monday."),
            ("20:13", "u", "I don't have a cat anymore, Miso stayed with my mom in Boston."),
            ("20:15", "u", "I'm still allergic to shellfish, so keep that in mind for restaurants here."),
            ("20:15", "a", "Of course. Any cuisine you are curious about?"),
        ),
        session(
            "sarah-dog",
            "2024-05-02",
            ("18:30", "u", "I adopted a dog named Biscuit yesterday!"),
            ("18:30", "a", "Welcome, Biscuit! What breed is he?"),
            ("18:31", "u", "A beagle mix, two years old. Any tips for crate training?"),
            ("18:35", "u", "Also, I still work as a nurse, just at a different hospital now."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Sarah"),
        Fact(PROFILE, "home_city", "Denver"),
        Fact(PROFILE, "occupation", "nurse"),
        Fact(PROFILE, "employer", "Denver Health"),
        Fact(CRITICAL, "allergy:shellfish", "shellfish"),
        Fact(CONSTRAINT, "unavailable:morning", "mornings"),
        Fact(GOAL, "goal:run_the_boston_marathon", "run the Boston Marathon"),
        Fact(PREFERENCE, "likes:trail_running", "trail running"),
        Fact(PREFERENCE, "likes:yoga", "yoga"),
        Fact(ENTITY, "pet:dog", "Biscuit"),
    ),
    superseded=(Change("home_city", "Boston", "Denver"), Change("employer", "Mass General", "Denver Health")),
    retracted=(Retraction("pet:cat", "Miso"),),
    mentions=(Mention("allergy:shellfish", "shellfish", 2), Mention("occupation", "nurse", 2)),
    events=(
        Event("2024-05-01", key="pet:dog"),
        Event("2024-04-08", key="home_city"),  # "last week", said on Wednesday 17 April: the ISO week of the 8th
        Event("2024-04-15", key="employer"),
    ),
)

MIKE = Scenario(
    name="mike_japan_trip",
    probes=(
        Probe("What is my travel budget?", ("3000",), ("2500",)),
        Probe("What is my favorite food?", ("ramen",)),
        Probe("Who is Jess?", ("Jess",)),
    ),
    language="en",
    summary="Trip planning: the budget goes up, he stops being vegetarian, gets engaged.",
    sessions=(
        session(
            "mike-japan",
            "2024-06-01",
            ("10:00", "u", "hey, I'm Mike. I'm planning a trip to Japan in October."),
            ("10:00", "a", "Fun! Who's going with you?"),
            ("10:01", "u", "Me and my girlfriend Jess. It's our first time in Asia."),
            ("10:02", "u", "My budget is $2,500 in total."),
            ("10:03", "u", "I'm vegetarian, so food might be tricky. My girlfriend Jess doesn't eat pork either."),
            ("10:04", "a", "Shojin ryori, Buddhist temple food, is fully vegetarian. Kyoto has great spots."),
            ("10:06", "u", "I have a cat named Sushi, so we'll need a pet sitter for those two weeks."),
        ),
        session(
            "mike-budget",
            "2024-07-10",
            ("21:00", "u", "Quick update: my budget is now 3k because my bonus came in."),
            ("21:01", "a", "Nice! That opens up a night in a ryokan."),
            ("21:02", "u", "Jess and I got engaged last Saturday!!"),
            ("21:02", "a", "Congratulations to you both!"),
            ("21:03", "u", "What are the best areas to stay in Kyoto?"),
        ),
        session(
            "mike-food",
            "2024-08-22",
            ("12:15", "u", "Heads up: I'm not vegetarian anymore, I started eating fish again."),
            ("12:16", "a", "Good to know, that makes sushi an option!"),
            ("12:17", "u", "Honestly my favorite food is ramen."),
            ("12:18", "u", "I'm learning Japanese too."),
            ("12:19", "u", "My girlfriend Jess says hi, by the way."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Mike"),
        Fact(ENTITY, "person:girlfriend", "Jess"),
        Fact(ENTITY, "person:girlfriend:avoids:pork", "pork"),
        Fact(PROFILE, "marital_status", "engaged"),
        Fact(CONSTRAINT, "budget", "3000"),
        Fact(PREFERENCE, "favorite:food", "ramen"),
        Fact(GOAL, "learning:japanese", "Japanese"),
        Fact(ENTITY, "pet:cat", "Sushi"),
    ),
    superseded=(Change("budget", "2500 USD", "3000"),),
    retracted=(Retraction("diet", "vegetarian"),),
    mentions=(Mention("person:girlfriend", "Jess", 3),),
    events=(Event("2024-07-06", text="got engaged"),),
)

PRIYA = Scenario(
    name="priya_london_health",
    probes=(
        Probe("Where do I work?", ("Wise",), ("Monzo",)),
        Probe("When am I free to train?", ("Tuesdays",)),
        Probe("What health issues should you keep in mind?", ("asthma", "lactose")),
    ),
    language="en",
    summary="Health constraints, a weekly schedule, a new employer, a goal given up.",
    sessions=(
        session(
            "priya-intro",
            "2024-01-08",
            ("09:00", "u", "Hello! My name is Priya and I'm 29."),
            ("09:00", "u", "I'm a software engineer at Monzo and I live in London."),
            ("09:01", "a", "Hi Priya! How can I help?"),
            ("09:02", "u", "Can you help me plan healthier lunches?"),
            ("09:03", "u", "I'm lactose intolerant and I have asthma, so I use an inhaler before workouts."),
            ("09:04", "a", "Sure. Let's start with lactose-free, high-protein options."),
            ("09:05", "u", "I want to learn to climb."),
        ),
        session(
            "priya-schedule",
            "2024-02-12",
            ("18:00", "u", "For our weekly check-ins: I'm only free on Tuesdays and Thursdays after 6pm."),
            ("18:01", "a", "Got it, Tuesdays and Thursdays in the evening."),
            ("18:02", "u", "I can't do Fridays."),
            ("18:03", "u", "By the way I'm still lactose intolerant, oat milk is my friend."),
        ),
        session(
            "priya-new-job",
            "2024-03-20",
            ("08:30", "u", "I started at Wise yesterday, so it's been a hectic week."),
            ("08:31", "a", "Congrats on the new job!"),
            ("08:32", "u", "Honestly I don't want to learn to climb anymore, my shoulder hates it."),
            ("08:33", "u", "I'm training for a 10k instead."),
            ("08:34", "u", "Last weekend I adopted a cat named Pixel."),
            ("08:35", "u", "I had an asthma attack last Friday, so I'm taking it easy."),
            ("08:35", "a", "Take care. Short, easy runs only until you feel better."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Priya"),
        Fact(PROFILE, "age", "29"),
        Fact(PROFILE, "occupation", "software engineer"),
        Fact(PROFILE, "employer", "Wise"),
        Fact(PROFILE, "home_city", "London"),
        Fact(CRITICAL, "intolerance:lactose", "lactose"),
        Fact(CRITICAL, "condition:asthma", "asthma"),
        Fact(CRITICAL, "medication:inhaler", "inhaler"),
        Fact(CONSTRAINT, "available:tuesday_thursday", "on Tuesdays and Thursdays after 6pm"),
        Fact(CONSTRAINT, "unavailable:friday", "Fridays"),
        Fact(ENTITY, "pet:cat", "Pixel"),
    ),
    superseded=(Change("employer", "Monzo", "Wise"),),
    retracted=(Retraction("goal:learn_to_climb", "learn to climb"),),
    mentions=(Mention("intolerance:lactose", "lactose", 2),),
    events=(
        Event("2024-03-19", key="employer"),
        Event("2024-03-16", key="pet:cat"),  # "last weekend", said on Wednesday 20 March
        Event("2024-03-15", text="asthma attack"),
    ),
)

DAN = Scenario(
    name="dan_manchester_family",
    probes=(
        Probe("Am I still teaching?", ("retired",)),
        Probe("What diet am I on?", ("keto",)),
        Probe("What is my wife's name?", ("Laura",)),
    ),
    language="en",
    summary="A teacher with a family and a dog retires and changes diet.",
    sessions=(
        session(
            "dan-garden",
            "2024-09-02",
            ("17:20", "u", "Hi, I'm Dan. My wife Laura and I live in Manchester."),
            ("17:20", "a", "Hello Dan! What's on your mind?"),
            ("17:21", "u", "I'm a high school teacher, 58 years old, and counting the days to retirement."),
            ("17:22", "u", "We have two kids, both at uni now."),
            ("17:23", "u", "I have a golden retriever named Max who digs up my tomatoes."),
            ("17:23", "u", "How do I stop a dog from digging?"),
            ("17:24", "a", "Give him a digging box of his own and reward him for using it."),
        ),
        session(
            "dan-health",
            "2024-10-14",
            ("08:05", "u", "I'm on a low-carb diet now, doctor's orders."),
            ("08:06", "a", "Understood. Want some low-carb lunch ideas?"),
            ("08:07", "u", "Yes please. I'm not available on Sundays, that's family day."),
            ("08:09", "u", "My son Jack broke his arm last Sunday playing rugby."),
            ("08:09", "a", "Ouch, I hope he heals quickly."),
        ),
        session(
            "dan-retired",
            "2024-12-03",
            ("11:00", "u", "Well, I'm retired now! Last day at school was Friday."),
            ("11:00", "a", "Congratulations on your retirement!"),
            ("11:02", "u", "I'm keto now, low-carb wasn't strict enough."),
            ("11:03", "u", "As you know, we live in Manchester, so the winter walks are grim."),
            ("11:05", "u", "My goal is to walk the Camino de Santiago."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Dan"),
        Fact(PROFILE, "home_city", "Manchester"),
        Fact(PROFILE, "occupation", "retired"),
        Fact(ENTITY, "person:wife", "Laura"),
        Fact(ENTITY, "family:children", "2"),
        Fact(ENTITY, "pet:dog", "Max"),
        Fact(ENTITY, "person:son", "Jack"),
        Fact(CONSTRAINT, "diet", "keto"),
        Fact(CONSTRAINT, "unavailable:sunday", "on Sundays"),
        Fact(GOAL, "goal:walk_the_camino_de_santiago", "walk the Camino de Santiago"),
    ),
    superseded=(Change("occupation", "high school teacher", "retired"), Change("diet", "low-carb", "keto")),
    mentions=(Mention("home_city", "Manchester", 2),),
    events=(Event("2024-10-13", text="broke his arm"),),
)

# --- both languages -----------------------------------------------------------------------------

LUCAS = Scenario(
    name="lucas_code_switching",
    probes=(
        Probe("Where do I live?", ("Vancouver",), ("Toronto",)),
        Probe("Tenho alguma alergia?", ("amendoim", "peanuts")),
    ),
    language="mixed",
    summary="A Brazilian in Canada switches between Portuguese and English, even within a turn.",
    sessions=(
        session(
            "lucas-oi",
            "2024-05-20",
            ("22:10", "u", "Oi! Sou o Lucas, sou brasileiro mas moro em Toronto."),
            ("22:10", "a", "Oi, Lucas! Como posso ajudar?"),
            ("22:11", "u", "Trabalho como desenvolvedor na Shopify."),
            ("22:12", "u", "Sou alérgico a amendoim, então cuidado com receitas tailandesas."),
            ("22:12", "a", "Anotado: nada de amendoim. Que tal um curry verde sem amendoim?"),
        ),
        session(
            "lucas-english",
            "2024-06-10",
            ("19:00", "u", "Switching to English since my roommate is reading this lol."),
            ("19:01", "u", "Reminder: I'm allergic to peanuts."),
            ("19:01", "a", "I remember, no peanuts."),
            ("19:03", "u", "Actually I moved to Vancouver last month, new job at Shopify's office there."),
            ("19:04", "u", "I love hiking and craft beer."),
            ("19:05", "a", "Vancouver is perfect for both: try the Grouse Grind and Main Street breweries."),
        ),
        session(
            "lucas-misto",
            "2024-07-15",
            ("20:30", "u", "Voltei pro português haha. Meu orçamento pra academia é de 80 dólares por mês."),
            ("20:31", "u", "I can't do Mondays because of the team standup."),
            ("20:32", "u", "I don't like craft beer anymore, tô tentando beber menos."),
            ("20:32", "a", "Entendido! Kombucha pode ser uma boa troca."),
            ("20:34", "u", "Ontem fui no jogo dos Canucks!"),
            ("20:35", "u", "Moro em Vancouver agora, perto de Kitsilano."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Lucas"),
        Fact(PROFILE, "nationality", "brasileiro"),
        Fact(PROFILE, "home_city", "Vancouver"),
        Fact(PROFILE, "occupation", "desenvolvedor"),
        Fact(PROFILE, "employer", "Shopify"),
        Fact(CRITICAL, "allergy:peanuts", "amendoim"),  # the same allergy, restated in English below
        Fact(PREFERENCE, "likes:hiking", "hiking"),
        Fact(CONSTRAINT, "budget:academia", "80 USD"),
        Fact(CONSTRAINT, "unavailable:monday", "Mondays"),
        Fact(GOAL, "goal:beber_menos", "beber menos"),
    ),
    superseded=(Change("home_city", "Toronto", "Vancouver"),),
    retracted=(Retraction("likes:craft_beer", "craft beer"),),
    mentions=(Mention("allergy:peanuts", "amendoim", 2), Mention("home_city", "Vancouver", 2)),
    events=(Event("2024-05-01", key="home_city"), Event("2024-07-14", text="Canucks")),
)

ENGLISH = (SARAH, MIKE, PRIYA, DAN)
MIXED = (LUCAS,)
