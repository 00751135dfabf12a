"""English word lists for the fact extractor. Entries are folded (lowercase, no accents) and map to
the language-neutral slot names every language shares ("peanuts", "sister", "retired"); values keep
the user's own words. Look words up with ``fold``."""

from __future__ import annotations

from .. import words_map, words_set

STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself just me
    more most my myself no nor not now of off on once only or other our ours ourselves out over own
    same she should so some such than that the their theirs them themselves then there these they
    this those through to too under until up very was we were what when where which while who whom
    why will with would you your yours yourself yourselves i'm it's don't did didn't does doesn't
    also yeah yes oh hey hi really got get like just so well thanks thank lot""".split()
)
"""Words too common to index or to tell a topic by; also how a text is told English."""
LETTERS = ""
"""Letters only this language writes: each counts half a stopword when telling languages apart."""
DICTIONARY = "en"
"""The word-frequency list of this language in pyspellchecker (``spellchecker/resources/<name>``):
what tells a common word from a name written in lowercase ("i work at spotify", "trabalho na
edp"; :func:`~hipocampo.domain.extraction.lexicon.common_word`)."""

ORG_WORDS = words_set(
    """systems, system, labs, lab, studio, studios, software, health, healthcare, analytics, foods, digital,
    pay, insights, tech, technologies, group, bank, hospital, clinic, cafe, coffee, agency, consulting,
    logistics, energy, solutions, media, capital, partners, ventures, industries, insurance,
    communications, engineering, construction, transport, motors, pharma, robotics, games, cloud,
    networks, services, store, shop, market, academy, institute, works, inc, llc, ltd, co, corp, company,
    bakery, restaurant, bistro, hotel, gym, fitness, dental, school, college, university, realty,
    builders, design, films, records, press, publishing, airlines, airways, telecom, security, brewing,
    bookshop, bookstore, salon, barbershop, garage, pharmacy, daycare, roasters, roastery, diner, pub, deli,
    brewery, freight, pizzeria, florist, printing, tavern, grill"""
)
"""Words a company's name is made with ("corvid analytics", "loop coffee", "brightline studio"): one
beside another word, where a slot expects an employer, reads a lowercase name of several words
(:func:`~hipocampo.domain.extraction.base.lower_org_at`)."""
NAME_ENDS = words_set(
    """here, there, now, today, yesterday, tonight, tomorrow, since, for, where, when, which, who, tho,
    though, lol, rn, btw, last, next, this, week, month, year, already, too, also, lmao, haha"""
)
"""Words that end a name read in lowercase ("at corvid analytics where i work", "loop coffee last week")."""
GENERIC_ADJECTIVES = words_set(
    """local, big, small, new, old, main, central, nearby, downtown, public, private, little, huge, tiny,
    same, other, another, family, fancy, cheap, good, bad, nice, busy, quiet, best, worst, whole"""
)
"""Words that describe a place of work, not name it ("the local hospital", "a small studio")."""

NOT_NAMES = words_set(
    """everyone, everybody, someone, somebody, nobody, anyone, people, everything, nothing, something,
    monday, tuesday, wednesday, thursday, friday, saturday, sunday, january, february, march, april, may,
    june, july, august, september, october, november, december, english, portuguese, spanish, french,
    german, sorry, fine, good, great, okay, ok, here, back, ready, done, sure, glad, happy, new, hi, hello,
    hey, thanks, thank, please, yes, no, bye, today, tomorrow, yesterday, god, christmas, easter,
    catholic, christian, jewish, muslim, buddhist, atheist, agnostic, single, married, alive, home,
    google, amazon, apple, microsoft, netflix, spotify, facebook, instagram, whatsapp, chatgpt"""
)
RELATIONS = words_map(
    """wife, husband, sister, brother, mother, mom=mother, mum=mother, father, dad=father, son, daughter,
    friend, best friend=friend, boss, partner, girlfriend, boyfriend, cousin, uncle, aunt, grandmother,
    grandma=grandmother, grandfather, grandpa=grandfather, kid=child, child, fiance, fiancee, colleague,
    coworker=colleague, roommate, neighbor, neighbour=neighbor, niece, nephew, stepson, stepdaughter,
    mother-in-law, father-in-law"""
)
FEMININE_RELATIONS: frozenset[str] = frozenset()  # English nouns carry no grammatical gender
PETS = words_map(
    """cat, cats=cat, kitten=cat, dog, dogs=dog, puppy=dog, parrot, bird, fish, hamster, rabbit,
    turtle, horse, kittens=cat, puppies=dog, guinea pig, retriever=dog, golden retriever=dog,
    labrador retriever=dog, labrador=dog, poodle=dog, beagle=dog, bulldog=dog, terrier=dog, husky=dog,
    huskies=dog, pug=dog, chihuahua=dog, dachshund=dog, corgi=dog, german shepherd=dog"""
)
FEMININE_PETS: frozenset[str] = frozenset()
# "I'm diabetic" -> the condition noun.
CONDITION_ADJECTIVES = {
    "diabetic": "diabetes", "asthmatic": "asthma", "epileptic": "epilepsy", "celiac": "celiac disease",
    "coeliac": "celiac disease", "hypertensive": "hypertension", "anemic": "anemia", "autistic": "autism",
    "bipolar": "bipolar disorder",
}  # fmt: skip
DRUG_SUFFIXES = ("pril", "olol", "statin", "sartan", "formin", "prazole", "cillin", "xetine", "azepam", "zolam",
                 "tidine", "dipine")  # fmt: skip
DRUG_FORMS = words_set("""inhaler, inhalers, pill, pills, tablet, tablets, capsule, capsules,
    shot, shots, drops, spray, syrup, cream, patch, patches""")
"""Forms a drug comes in, said before its name ("drops of atropine"): the drug is the name."""
OCCUPATIONS = words_set(
    """engineer, developer, dev, programmer, designer, teacher, professor, doctor, physician, surgeon, nurse,
    lawyer, attorney, accountant, architect, dentist, pharmacist, chef, cook, waiter, waitress, driver,
    pilot, firefighter, officer, cop, soldier, scientist, researcher, analyst, manager, consultant,
    writer, author, journalist, editor, photographer, artist, musician, singer, actor, actress, dancer,
    painter, therapist, psychologist, psychiatrist, veterinarian, vet, electrician, plumber, carpenter,
    mechanic, farmer, baker, butcher, barber, hairdresser, cashier, clerk, secretary, assistant,
    receptionist, librarian, translator, interpreter, entrepreneur, founder, ceo, cto, cfo, owner,
    freelancer, contractor, banker, broker, economist, biologist, chemist, physicist, mathematician,
    historian, paramedic, caregiver, nanny, tutor, coach, trainer, athlete, streamer, youtuber,
    marketer, recruiter, salesperson, salesman, saleswoman, intern, lecturer, principal, judge,
    technician, programmer, administrator, director, lead, officer, student,
    dispatcher, paralegal, barista, bartender, server, housekeeper, cleaner, janitor, courier, trucker,
    mover, welder, machinist, operator, foreman, supervisor, coordinator, specialist, planner, surveyor,
    inspector, auditor, bookkeeper, underwriter, actuary, adjuster, teller, stocker, merchandiser, buyer,
    detective, sheriff, deputy, guard, ranger, lifeguard, medic, emt, midwife, doula, optometrist,
    orthodontist, pediatrician, physio, physiotherapist, counselor, counsellor, carer, dietitian,
    dietician, nutritionist, chiropractor, radiographer, phlebotomist, optician, instructor, dean,
    headteacher, headmaster, babysitter, coder, sysadmin, statistician, illustrator, animator, producer,
    filmmaker, copywriter, blogger, podcaster, influencer, creator, reporter, presenter, advisor, adviser,
    agent, realtor, trader, executive, president, solicitor, barrister, clerk, diplomat, politician,
    councillor, councilor, mayor, postman, mailman, archivist, curator, postdoc, rep, retailer,
    shopkeeper, vendor, sculptor, composer, dj, drummer, guitarist, pianist, comedian, pastor, priest,
    rabbi, imam, nun, referee, homemaker, housewife, apprentice, trainee, volunteer, roofer, mason,
    bricklayer, builder, handyman, gardener, landscaper, fisherman, rancher, miner, sommelier, caterer,
    concierge, conductor, attendant, stewardess, sailor, captain, valet, tester, gp, marine,
    sergeant, lieutenant, hygienist, orderly"""
)
NOT_OCCUPATIONS = words_set(
    "optimist, pessimist, perfectionist, realist, feminist, minimalist, atheist, buddhist, idealist, "
    "fan, lover, beginner, member, person, guy, girl, woman, man, mom, dad, parent, citizen, vegetarian"
)
OCCUPATION_SUFFIXES = ("ist", "ician", "ologist", "eer", "grapher")
NATIONALITIES = words_map(
    """brazilian, portuguese, american, english, british, spanish, french, german, italian, japanese,
    chinese, mexican, argentinian, argentine, canadian, irish, angolan, mozambican, indian, dutch,
    swiss, russian, colombian, chilean, peruvian, uruguayan, venezuelan, korean, australian, greek,
    polish, ukrainian, scottish, cape verdean"""
)
FAMILY = words_map(
    """kids=children, kid=children, children, child=children, sons, son=sons, daughters,
    daughter=daughters, brothers, brother=brothers, sisters, sister=sisters, siblings,
    sibling=siblings, grandchildren, grandkids=grandchildren, twins=children"""
)
NUMBERS = words_map(
    """a=1, an=1, one=1, two=2, three=3, four=4, five=5, six=6, seven=7, eight=8, nine=9, ten=10,
    eleven=11, twelve=12"""
)
FOODS = words_map(
    """peanut=peanuts, peanuts, tree nuts, nut=nuts, nuts, shellfish, shrimp, prawns=shrimp,
    seafood, fish, milk, dairy, lactose, gluten, wheat, egg=eggs, eggs, soy, sesame, strawberry=
    strawberries, strawberries, penicillin, aspirin, ibuprofen, latex, pollen, dust, dust mites, bee
    stings, bees, cats, dogs, meat, red meat, pork, beef, chicken, alcohol, coffee, sugar"""
)
CONDITIONS = words_map(
    """diabetes, type 1 diabetes=diabetes, type 2 diabetes=diabetes, asthma, epilepsy, celiac disease,
    coeliac disease=celiac disease, hypertension, high blood pressure=hypertension, depression,
    anxiety, migraines=migraine, migraine, cancer, arthritis, hiv, hypothyroidism, high cholesterol,
    adhd, autism, insomnia, a heart condition=heart condition, heart disease, bronchitis, lupus,
    anemia, crohn's disease=crohns disease, crohn's=crohns disease, ibs, fibromyalgia, sleep apnea,
    psoriasis, eczema, glaucoma, covid, long covid, kidney disease, multiple sclerosis, parkinson's
    =parkinsons, bipolar disorder, ptsd, ocd"""
)
MEDICATIONS = words_map(
    """lisdexamfetamine=vyvanse,
    insulin, metformin, aspirin, ibuprofen, paracetamol, acetaminophen, levothyroxine, warfarin,
    lisinopril, atorvastatin, simvastatin, omeprazole, amoxicillin, sertraline, fluoxetine,
    antidepressants, blood thinners, birth control, the pill=birth control, melatonin, prednisone,
    albuterol, ritalin, lithium, pill=birth control, losartan, amlodipine, metoprolol, an inhaler=inhaler, inhaler,
    escitalopram, citalopram, paroxetine, venlafaxine, duloxetine, bupropion, wellbutrin=bupropion,
    mirtazapine, trazodone, quetiapine, aripiprazole, lamotrigine, topiramate, gabapentin, pregabalin,
    clonazepam, diazepam, alprazolam, lorazepam, xanax=alprazolam, zolpidem, methylphenidate, adderall,
    vyvanse, hydrochlorothiazide, furosemide, spironolactone, bisoprolol, atenolol, propranolol, ramipril,
    enalapril, valsartan, candesartan, rosuvastatin, clopidogrel, apixaban, rivaroxaban, eliquis=apixaban,
    prednisolone, hydrocortisone, montelukast, salbutamol, budesonide, fluticasone, cetirizine,
    loratadine, fexofenadine, semaglutide, ozempic=semaglutide, wegovy=semaglutide, tirzepatide,
    mounjaro=tirzepatide, sitagliptin, gliclazide, glipizide, pantoprazole, lansoprazole, famotidine,
    ondansetron, tramadol, codeine, naproxen, diclofenac, isotretinoin, accutane=isotretinoin,
    doxycycline, azithromycin, ciprofloxacin, metronidazole, cephalexin, estradiol, progesterone,
    testosterone, finasteride, minoxidil, tamoxifen, methotrexate, hydroxychloroquine, allopurinol,
    epipen, an epipen=epipen"""
)
DIETS = words_map(
    """vegetarian, vegan, pescatarian, pescetarian=pescatarian, plant-based, flexitarian, keto, paleo,
    kosher, halal, gluten-free, lactose-free, dairy-free"""
)
CATEGORIES = words_map(
    """colour=color, color, food, dish, movie, film=movie, band, book, song, music, singer, series,
    show, sport, team, drink, fruit, dessert, city, country, place, restaurant, author, writer, game,
    animal, flower, season, artist, actor, actress, beer, wine, genre"""
)
TIMES = words_map(
    """monday, mondays=monday, tuesday, tuesdays=tuesday, wednesday, wednesdays=wednesday, thursday,
    thursdays=thursday, friday, fridays=friday, saturday, saturdays=saturday, sunday, sundays=sunday,
    weekend, weekends=weekend, weekday, weekdays=weekday, morning, mornings=morning, afternoon,
    afternoons=afternoon, evening, evenings=evening, night, nights=night, lunch, lunchtime=lunch"""
)
REQUEST_VERBS = words_set(
    """know, ask, see, check, understand, confirm, clarify, say, tell, talk, thank, mention, add,
    remind, share, explain, hear, find out, try this, start over, go back, continue, correct, update,
    change my, you"""
)
DEICTIC = words_set(
    """it, that, this, these, those, you, your, them, him, her, what, how, when, the idea, the way, my"""
)
STATUSES = words_map("""retired, unemployed, self-employed, a student=student, student""")
MARITAL = words_map("""married, single, divorced, widowed, engaged, separated""")
