"""Word lists the fact extractor reads across languages: the gazetteer of places, the relations a
user has several of, and every language's tables merged.

Each language's own words live in its bundle (``domain/lang/<code>/lexicon.py``); a turn may mix
languages, so the shared rules read the merged tables below. Keys are stable across languages
("amendoim" and "peanuts" both fill ``allergy:peanuts``). Place names are world data, listed once
with their exonyms in the languages we read ("lisbon, lisboa"). Entries are folded (lowercase, no
accents); look them up with ``fold``.
"""

from __future__ import annotations

import gzip
import json
import re
from functools import cache

from ..lang import LANGUAGES, language, merged_map, merged_set, words_map, words_set
from ..text import fold

_set = words_set


COUNTRIES = _set(
    """brazil, brasil, portugal, spain, espanha, france, franca, germany, alemanha, italy, italia,
    england, inglaterra, uk, united kingdom, reino unido, usa, us, united states, estados unidos, eua,
    canada, mexico, argentina, chile, colombia, peru, uruguay, uruguai, paraguay, paraguai, bolivia,
    venezuela, ecuador, equador, japan, japao, china, india, australia, ireland, irlanda, netherlands,
    holanda, belgium, belgica, switzerland, suica, austria, sweden, suecia, norway, noruega, denmark,
    dinamarca, finland, finlandia, poland, polonia, greece, grecia, turkey, turquia, russia, ukraine,
    ucrania, angola, mozambique, mocambique, cape verde, cabo verde, south africa, africa do sul, egypt,
    egito, morocco, marrocos, nigeria, israel, korea, coreia, south korea, coreia do sul, new zealand,
    nova zelandia, scotland, escocia, wales, thailand, tailandia, vietnam, indonesia, philippines,
    filipinas, singapore, singapura, cuba, luxembourg, luxemburgo, hungary, hungria, romania, romenia,
    croatia, croacia, iceland, islandia, czechia, timor-leste, guinea-bissau, guine-bissau"""
)
CITIES = _set(
    """lisbon, lisboa, porto, oporto, coimbra, braga, faro, funchal, aveiro, sintra, cascais, setubal,
    sao paulo, sampa, rio, rio de janeiro, belo horizonte, bh, floripa, poa, brasilia, salvador, recife, fortaleza, curitiba,
    porto alegre, florianopolis, manaus, belem, goiania, campinas, santos, natal, vitoria, niteroi,
    london, londres, paris, madrid, barcelona, berlin, berlim, munich, munique, rome, roma, milan, milao,
    amsterdam, amsterda, dublin, brussels, bruxelas, vienna, viena, zurich, geneva, genebra, new york,
    nova york, nova iorque, boston, chicago, los angeles, san francisco, seattle, miami, austin, toronto,
    vancouver, montreal, buenos aires, santiago, lima, bogota, tokyo, toquio, kyoto, osaka, beijing,
    pequim, shanghai, xangai, sydney, melbourne, cape town, luanda, maputo, prague, praga, budapest,
    budapeste, warsaw, varsovia, athens, atenas, istanbul, istambul, edinburgh, manchester, oslo,
    stockholm, estocolmo, copenhagen, copenhague, helsinki, seville, sevilha, valencia, florence,
    florenca, venice, veneza, naples, napoles,
    denver, houston, phoenix, philadelphia, san diego, san antonio, san jose, washington, atlanta,
    detroit, minneapolis, portland, las vegas, nashville, new orleans, tampa, pittsburgh, baltimore,
    cleveland, cincinnati, columbus, indianapolis, kansas city, st louis, salt lake city, sacramento,
    oakland, raleigh, richmond, honolulu, anchorage, albuquerque, tucson, milwaukee, boulder, manhattan,
    ottawa, calgary, edmonton, quebec, winnipeg, halifax, guadalajara, monterrey, cancun, havana, panama,
    san juan, medellin, quito, caracas, montevideo, asuncion, la paz, cordoba, mendoza, valparaiso, cusco,
    sao luis, teresina, joao pessoa, maceio, aracaju, cuiaba, campo grande, porto velho, rio branco,
    macapa, boa vista, londrina, maringa, joinville, blumenau, ribeirao preto, sorocaba,
    sao jose dos campos, santo andre, guarulhos, osasco, uberlandia, juiz de fora, petropolis, pelotas,
    caxias do sul, feira de santana, campina grande, ilheus, paraty, buzios,
    guarda, viseu, leiria, evora, beja, braganca, castelo branco, portalegre, santarem, viana do castelo,
    vila real, ponta delgada, angra do heroismo, guimaraes, almada, amadora, oeiras, loures,
    matosinhos, vila nova de gaia, odivelas, seixal, barreiro, figueira da foz, covilha, portimao,
    albufeira, tavira, estoril, ericeira, peniche, obidos,
    glasgow, liverpool, birmingham, leeds, bristol, oxford, cambridge, brighton, cardiff, belfast,
    galway, lyon, marseille, marselha, toulouse, bordeaux, lille, nantes, strasbourg, hamburg,
    hamburgo, frankfurt, cologne, colonia, stuttgart, dusseldorf, leipzig, dresden, rotterdam, the hague,
    haia, utrecht, antwerp, antuerpia, ghent, bruges, basel, lausanne, bern, berna, salzburg, innsbruck,
    turin, turim, bologna, bolonha, genoa, genova, palermo, verona, pisa, malaga, bilbao,
    zaragoza, ibiza, san sebastian, santiago de compostela, vigo, porto santo, krakow, cracovia,
    gdansk, wroclaw, bratislava, ljubljana, zagreb, belgrade, belgrado, bucharest, bucareste,
    kyiv, kiev, moscow, moscou, st petersburg, sao petersburgo, riga, tallinn, vilnius, reykjavik,
    gothenburg, malmo, bergen, aarhus, tampere, valletta, nicosia, tel aviv, jerusalem, dubai,
    abu dhabi, doha, cairo, marrakech, casablanca, tunis, nairobi, johannesburg,
    joanesburgo, durban, accra, dakar, mindelo, bissau, sao tome, dili, macau, hong kong, taipei,
    seoul, seul, busan, bangkok, banguecoque, hanoi, ho chi minh city, kuala lumpur,
    jakarta, manila, mumbai, bombaim, delhi, new delhi, nova deli, bangalore, chennai, kolkata, karachi,
    lahore, dhaka, kathmandu, colombo, auckland, wellington, brisbane, perth, canberra,
    nagoya, sapporo, fukuoka, hiroshima, yokohama, shenzhen, guangzhou, chengdu, hangzhou"""
)
# States and regions people say they live in ("mudei-me para o Algarve", "moved to Texas").
REGIONS = _set(
    """algarve, alentejo, minho, acores, azores, douro, tras-os-montes, ribatejo,
    bahia, minas gerais, parana, santa catarina, rio grande do sul, goias, amazonas,
    pernambuco, ceara, espirito santo, mato grosso, mato grosso do sul, paraiba, alagoas, sergipe,
    maranhao, piaui, tocantins, rondonia, amapa, roraima, distrito federal, rio grande do norte,
    california, texas, florida, new york state, new jersey, massachusetts, colorado, oregon,
    washington state, illinois, ohio, arizona, nevada, utah, michigan, pennsylvania, north carolina,
    tennessee, hawaii, alaska, ontario, british columbia, alberta,
    catalonia, catalunha, andalusia, andaluzia, galicia, galiza, bavaria, baviera, tuscany, toscana,
    provence, brittany, bretanha, normandy, normandia, sicily, sicilia, sardinia, sardenha"""
)
CITY_NICKNAMES = words_map(
    """bh=Belo Horizonte, rio=Rio de Janeiro, floripa=Florianópolis, sampa=São Paulo, poa=Porto Alegre,
    bsb=Brasília, nyc=New York, philly=Philadelphia, vegas=Las Vegas, nola=New Orleans"""
)
"""What chat calls a city by, with the city's own name: "moro em bh" is a home in Belo Horizonte.
The fact holds the name, so "bh" and "Belo Horizonte" said months apart are one value, not a move,
and the fact reads as a sentence ("mora em Belo Horizonte", not "mora em Bh")."""
PLACES = COUNTRIES | CITIES | REGIONS | frozenset(CITY_NICKNAMES)

# Relations a user may have more than one of: each named one is its own person (two sisters).
MULTIPLE_RELATIONS = _set(
    """sister, brother, son, daughter, child, friend, cousin, uncle, aunt, grandparent, grandmother,
    grandfather, grandson, granddaughter, grandchild, colleague, roommate, neighbor, niece, nephew,
    stepson, stepdaughter, brother-in-law, sister-in-law"""
)

DIET_EXCLUDES = {
    "vegetarian": frozenset("meat fish chicken pork beef seafood shellfish shrimp bacon ham lamb tuna salmon".split()),
    "vegan": frozenset(
        "meat fish chicken pork beef seafood shellfish shrimp bacon ham lamb tuna salmon eggs dairy milk honey".split()
    ),
    "pescatarian": frozenset("meat chicken pork beef bacon ham lamb".split()),
    "plant-based": frozenset("meat fish chicken pork beef seafood bacon ham lamb eggs dairy milk".split()),
}
"""What each diet leaves out, by the foods' keys (:data:`FOODS`): eating one of them again ends the
diet (:func:`~hipocampo.domain.extraction.said_in_passing.eating_again`). World knowledge, not a language's."""

_CLASSES = {
    "antidepressant": "sertraline fluoxetine escitalopram citalopram paroxetine venlafaxine duloxetine bupropion "
    "mirtazapine trazodone antidepressants",
    "blood pressure": "lisinopril losartan amlodipine metoprolol hydrochlorothiazide furosemide spironolactone "
    "bisoprolol atenolol propranolol ramipril enalapril captopril valsartan candesartan",
    "cholesterol": "atorvastatin simvastatin rosuvastatin",
    "diabetes": "metformin insulin semaglutide tirzepatide sitagliptin gliclazide glipizide",
    "stomach acid": "omeprazole pantoprazole lansoprazole famotidine",
    "sleep": "melatonin zolpidem trazodone",
    "anxiety": "clonazepam diazepam alprazolam lorazepam pregabalin",
    "blood thinner": "warfarin apixaban rivaroxaban clopidogrel aspirin blood_thinners",
    "asthma": "albuterol salbutamol inhaler budesonide fluticasone montelukast",
    "adhd": "ritalin methylphenidate adderall vyvanse",
}
DRUG_CLASSES = {drug: cls for cls, drugs in _CLASSES.items() for drug in drugs.split()}
"""What each common drug is taken for, by the medications' keys (:data:`MEDICATIONS`): a drug
switched to ends the only held drug of its class even when the turn does not name it
(:func:`~hipocampo.domain.extraction.said_in_passing.drug_switched`). World knowledge, not a language's."""

NOT_NAMES = merged_set("NOT_NAMES")
ORG_WORDS = merged_set("ORG_WORDS")  # what a company's name is made with: "corvid analytics", "café andorinha"
NAME_ENDS = merged_set("NAME_ENDS")  # words that end a lowercase name: "agora", "here", "semana"
GENERIC_ADJECTIVES = merged_set("GENERIC_ADJECTIVES")  # "the local hospital", "na escola municipal"
NATIONALITIES = merged_map("NATIONALITIES")
RELATIONS = merged_map("RELATIONS")
PETS = merged_map("PETS")
FAMILY = merged_map("FAMILY")
NUMBERS = merged_map("NUMBERS")
FOODS = merged_map("FOODS")  # allergens and foods: keys use the English name
CONDITIONS = merged_map("CONDITIONS")
CONDITION_ADJECTIVES = merged_map("CONDITION_ADJECTIVES")
MEDICATIONS = merged_map("MEDICATIONS")
DRUG_SUFFIXES = tuple(sorted(merged_set("DRUG_SUFFIXES")))
DRUG_FORMS = merged_set("DRUG_FORMS")  # "bombinha de salbutamol": the drug after its form
DIETS = merged_map("DIETS")
CATEGORIES = merged_map("CATEGORIES")
TIMES = merged_map("TIMES")
REQUEST_VERBS = merged_set("REQUEST_VERBS")  # openings of "I want to ..." that ask the assistant now
DEICTIC = merged_set("DEICTIC")  # objects that point at the conversation: "I love it", "adoro isso"
STATUSES = merged_map("STATUSES")
MARITAL = merged_map("MARITAL")


COMMON_MIN = 2000
"""How often (in pyspellchecker's subtitle counts) a word must occur in one of our languages to be
a common word: "warehouse" (15,433), "bakery" (3,832) and "empresa" are; names written in lowercase
are not, or barely, since subtitles say them too ("klarna" 0, "intercom" 1,383, "oracle" 1,646).
Set where the two lists part on the employers and workplaces users write; a name below it that is
also a rare word ("startup", 676) is read as a name only in an employer's slot."""


_ENTRY = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:\s*(\d+)')
_RARE = 100
"""Entries below this count are skipped while reading: accent variants of one word ("agência",
"agencia") are summed after folding, and no common word is made of variants this rare."""


@cache
def _word_counts() -> dict[str, int]:
    """Every language's words seen at least :data:`_RARE` times, folded, with their counts.
    pyspellchecker ships the lists (a gzipped JSON of word counts per language); read once, on the
    first lowercase name to judge. Read entry by entry rather than with ``json.load``: the whole
    table (577,000 words) would cost ~110 MB of memory for a moment, when what is kept is ~80,000."""
    from importlib.resources import files

    counts: dict[str, int] = {}
    for code in LANGUAGES:
        name = getattr(language(code).lexicon, "DICTIONARY", None)
        if not name:
            continue
        with gzip.open(str(files("spellchecker") / "resources" / f"{name}.json.gz"), "rt", encoding="utf-8") as f:
            text = f.read()
        for m in _ENTRY.finditer(text):
            n = int(m.group(2))
            if n >= _RARE:
                key = fold(json.loads(f'"{m.group(1)}"'))
                counts[key] = counts.get(key, 0) + n
    return counts


@cache
def _common_words() -> frozenset[str]:
    """Every language's common words (:data:`COMMON_MIN`), folded."""
    return frozenset(w for w, n in _word_counts().items() if n >= COMMON_MIN)


@cache
def _chat_words() -> frozenset[str]:
    """Stopwords and chat slang of every language ("kkk", "tbh", "trampo"): common, never a name."""
    slang = (getattr(language(code).slang, "SLANG", {}) for code in LANGUAGES if language(code).slang is not None)
    return merged_set("STOP_WORDS") | frozenset().union(*(frozenset(map(fold, s)) for s in slang))


def chat_word(word: str) -> bool:
    """Whether a folded word is a stopword or chat slang of a language we read ("tho", "rn", "kkk")."""
    return word in _chat_words()


_NOUN_ENDINGS = tuple(e for code in LANGUAGES for e in getattr(language(code).lexicon, "NOUN_ENDINGS", ()))


_OCCUPATIONS = (merged_set("OCCUPATIONS") | frozenset(STATUSES)) - merged_set("NOT_OCCUPATIONS")


def occupation_word(word: str) -> bool:
    """Whether a folded word names an occupation or a work status in a language we read, in any
    gender ("enfermeira", "nurse", "reformada")."""
    return any(language(code).roles.masculine(word, _OCCUPATIONS) for code in LANGUAGES)


def medication_word(word: str) -> bool:
    """Whether a folded word names a medication in a language we read: listed, or ending as the
    drugs of a class do ("ramipril", "olmesartana")."""
    return word in MEDICATIONS or (len(word) > 6 and word.endswith(DRUG_SUFFIXES))


def known_word(word: str) -> bool:
    """Whether ``word`` is a word of a language we read at all, however rare (:data:`_RARE`), or a
    stopword or chat slang: a stricter test of a name than :func:`common_word`, for names from a
    list too long to read ("horta", "socorro" and "helena" are towns too)."""
    w = fold(word)
    return w in _word_counts() or w in _chat_words()


def common_word(word: str) -> bool:
    """Whether ``word`` is a common word of a language we read, not a name: frequent in its
    language's word list, a stopword, a chat abbreviation or slang, or shaped like a common noun of
    a language ("lanchonete", "lojinha": each bundle's ``NOUN_ENDINGS``)."""
    w = fold(word)
    return w in _common_words() or w in _chat_words() or (len(w) > 4 and w.endswith(_NOUN_ENDINGS))
