"""Word lists the fact extractor reads: places, names of things, and canonical slot names.

Keys are stable across languages ("amendoim" and "peanuts" both fill ``allergy:peanuts``), so the
tables map folded Portuguese and English words to one English slot name. Values keep the user's
own words. Entries are folded (lowercase, no accents); look them up with ``fold``.
"""

from __future__ import annotations


def _set(text: str) -> frozenset[str]:
    return frozenset(" ".join(w.split()) for w in text.split(",") if w.strip())


def _map(text: str) -> dict[str, str]:
    """'a b=x, c=y' -> {'a b': 'x', 'c': 'y'}; a bare word maps to itself."""
    out: dict[str, str] = {}
    for item in text.split(","):
        if item.strip():
            word, _, target = (" ".join(part.split()) for part in item.partition("="))
            out[word] = target or word
    return out


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
    sao paulo, rio, rio de janeiro, belo horizonte, brasilia, salvador, recife, fortaleza, curitiba,
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
PLACES = COUNTRIES | CITIES | REGIONS

NOT_NAMES = _set(
    """everyone, everybody, someone, somebody, nobody, anyone, people, everything, nothing, something,
    todos, todas, alguem, ninguem, gente, tudo, nada, algo, monday, tuesday, wednesday, thursday,
    friday, saturday, sunday, january, february, march, april, may, june, july, august, september,
    october, november, december, segunda, terca, quarta, quinta, sexta, sabado, domingo, janeiro,
    fevereiro, marco, abril, maio, junho, julho, agosto, setembro, outubro, novembro, dezembro,
    english, portuguese, spanish, french, german, ingles, portugues, espanhol, frances, alemao,
    sorry, fine, good, great, okay, ok, here, back, ready, done, sure, glad, happy, new, hi, hello,
    hey, thanks, thank, please, yes, no, oi, ola, obrigado, obrigada, sim, bom, boa, tchau, bye,
    today, tomorrow, yesterday, hoje, amanha, ontem, god, deus, christmas, natal, easter, pascoa,
    catholic, christian, jewish, muslim, buddhist, atheist, agnostic, single, married, alive, home,
    google, amazon, apple, microsoft, netflix, spotify, facebook, instagram, whatsapp, chatgpt"""
)

NATIONALITIES = _map(
    """brazilian, portuguese, american, english, british, spanish, french, german, italian, japanese,
    chinese, mexican, argentinian, argentine, canadian, irish, angolan, mozambican, indian, dutch,
    swiss, russian, colombian, chilean, peruvian, uruguayan, venezuelan, korean, australian, greek,
    polish, ukrainian, scottish, cape verdean,
    brasileiro, portugues, americano, ingles, britanico, espanhol, frances, alemao, italiano,
    japones, chines, mexicano, argentino, canadense, irlandes, angolano, mocambicano, indiano,
    holandes, suico, russo, colombiano, chileno, peruano, uruguaio, venezuelano, coreano, australiano,
    grego, polones, ucraniano, escoces, cabo-verdiano"""
)

RELATIONS_EN = _map(
    """wife, husband, sister, brother, mother, mom=mother, mum=mother, father, dad=father, son, daughter,
    friend, best friend=friend, boss, partner, girlfriend, boyfriend, cousin, uncle, aunt, grandmother,
    grandma=grandmother, grandfather, grandpa=grandfather, kid=child, child, fiance, fiancee, colleague,
    coworker=colleague, roommate, neighbor, neighbour=neighbor, niece, nephew, stepson, stepdaughter,
    mother-in-law, father-in-law"""
)
RELATIONS_PT = _map(
    """esposa=wife, mulher=wife, marido=husband, irma=sister, irmao=brother, mae=mother, pai=father,
    filho=son, filha=daughter, amigo=friend, amiga=friend, melhor amigo=friend, melhor amiga=friend,
    chefe=boss, namorado=boyfriend, namorada=girlfriend, noivo=fiance, noiva=fiancee, primo=cousin,
    prima=cousin, tio=uncle, tia=aunt, avo=grandparent, sogra=mother-in-law, sogro=father-in-law,
    colega=colleague, vizinho=neighbor, vizinha=neighbor, companheiro=partner, companheira=partner,
    parceiro=partner, parceira=partner, cunhado=brother-in-law, cunhada=sister-in-law,
    sobrinho=nephew, sobrinha=niece, neto=grandson, neta=granddaughter"""
)
RELATIONS = {**RELATIONS_EN, **RELATIONS_PT}
# Relations a user may have more than one of: each named one is its own person (two sisters).
MULTIPLE_RELATIONS = _set(
    """sister, brother, son, daughter, child, friend, cousin, uncle, aunt, grandparent, grandmother,
    grandfather, grandson, granddaughter, grandchild, colleague, roommate, neighbor, niece, nephew,
    stepson, stepdaughter, brother-in-law, sister-in-law"""
)
PT_FEMININE_RELATIONS = _set(
    "esposa, mulher, irma, mae, filha, amiga, melhor amiga, namorada, noiva, prima, tia, sogra, "
    "vizinha, companheira, parceira, cunhada, sobrinha, neta"
)

PETS = _map(
    """cat, cats=cat, kitten=cat, dog, dogs=dog, puppy=dog, parrot, bird, fish, hamster, rabbit,
    turtle, horse, kittens=cat, puppies=dog, gato=cat, gata=cat, gatos=cat, gatinho=cat, gatinha=cat, cachorro=dog,
    cachorra=dog, cachorros=dog, cao=dog, cadela=dog, cachorrinho=dog, papagaio=parrot,
    passaro=bird, passarinho=bird, calopsita=bird, peixe=fish, peixes=fish, coelho=rabbit,
    tartaruga=turtle, cavalo=horse, porquinho-da-india=guinea pig, guinea pig, retriever=dog,
    golden retriever=dog, labrador retriever=dog, labrador=dog, poodle=dog, beagle=dog, bulldog=dog,
    terrier=dog, husky=dog, huskies=dog, pug=dog, chihuahua=dog, dachshund=dog, corgi=dog,
    german shepherd=dog"""
)
PT_FEMININE_PETS = _set("gata, gatinha, cachorra, cadela, calopsita, tartaruga")

FAMILY = _map(
    """kids=children, kid=children, children, child=children, sons, son=sons, daughters,
    daughter=daughters, brothers, brother=brothers, sisters, sister=sisters, siblings,
    sibling=siblings, grandchildren, grandkids=grandchildren, twins=children,
    filhos=children, filho=sons, filhas=daughters, filha=daughters, irmaos=siblings,
    irmao=brothers, irmas=sisters, irma=sisters, netos=grandchildren, neto=grandchildren,
    netas=grandchildren, neta=grandchildren, gemeos=children, criancas=children"""
)

NUMBERS = _map(
    """a=1, an=1, one=1, two=2, three=3, four=4, five=5, six=6, seven=7, eight=8, nine=9, ten=10,
    eleven=11, twelve=12, um=1, uma=1, dois=2, duas=2, tres=3, quatro=4, cinco=5, seis=6, sete=7,
    oito=8, nove=9, dez=10, onze=11, doze=12"""
)

# Allergens and foods: keys use the English name.
FOODS = _map(
    """peanut=peanuts, peanuts, tree nuts, nut=nuts, nuts, shellfish, shrimp, prawns=shrimp,
    seafood, fish, milk, dairy, lactose, gluten, wheat, egg=eggs, eggs, soy, sesame, strawberry=
    strawberries, strawberries, penicillin, aspirin, ibuprofen, latex, pollen, dust, dust mites, bee
    stings, bees, cats, dogs, meat, red meat, pork, beef, chicken, alcohol, coffee, sugar,
    amendoim=peanuts, amendoins=peanuts, camarao=shrimp, camaroes=shrimp, frutos do mar=seafood,
    mariscos=shellfish, marisco=shellfish, peixe=fish, leite=milk, laticinios=dairy, glutem=gluten,
    trigo=wheat, ovo=eggs, ovos=eggs, nozes=nuts, castanhas=nuts, castanha=nuts, soja=soy,
    gergelim=sesame, morango=strawberries, morangos=strawberries, penicilina=penicillin,
    aspirina=aspirin, ibuprofeno=ibuprofen, dipirona=dipyrone, latex, polen=pollen, poeira=dust,
    acaros=dust mites, picada de abelha=bee stings, abelha=bees, abelhas=bees, gatos=cats,
    pelo de gato=cats, cachorros=dogs, carne=meat, carne vermelha=red meat, carne de porco=pork,
    porco=pork, carne bovina=beef, frango=chicken, alcool=alcohol, bebida alcoolica=alcohol,
    cafe=coffee, acucar=sugar"""
)

CONDITIONS = _map(
    """diabetes, type 1 diabetes=diabetes, type 2 diabetes=diabetes, asthma, epilepsy, celiac disease,
    coeliac disease=celiac disease, hypertension, high blood pressure=hypertension, depression,
    anxiety, migraines=migraine, migraine, cancer, arthritis, hiv, hypothyroidism, high cholesterol,
    adhd, autism, insomnia, a heart condition=heart condition, heart disease, bronchitis, lupus,
    anemia, crohn's disease=crohns disease, crohn's=crohns disease, ibs, fibromyalgia, sleep apnea,
    psoriasis, eczema, glaucoma, covid, long covid, kidney disease, multiple sclerosis, parkinson's
    =parkinsons, bipolar disorder, ptsd, ocd,
    diabetes tipo 1=diabetes, diabetes tipo 2=diabetes, asma=asthma, epilepsia=epilepsy,
    doenca celiaca=celiac disease, hipertensao=hypertension, pressao alta=hypertension,
    depressao=depression, ansiedade=anxiety, enxaqueca=migraine, cancer, artrite=arthritis,
    hipotireoidismo=hypothyroidism, colesterol alto=high cholesterol, tdah=adhd, autismo=autism,
    insonia=insomnia, um problema cardiaco=heart condition, problema de coracao=heart condition,
    bronquite=bronchitis, rinite=rhinitis, gastrite=gastritis, lupus, anemia, fibromialgia=fibromyalgia,
    apneia do sono=sleep apnea, psoriase=psoriasis, glaucoma, esclerose multipla=multiple sclerosis,
    transtorno bipolar=bipolar disorder, toc=ocd"""
)
# "I'm diabetic" -> the condition noun, per language.
CONDITION_ADJECTIVES = {
    "diabetic": "diabetes",
    "asthmatic": "asthma",
    "epileptic": "epilepsy",
    "celiac": "celiac disease",
    "coeliac": "celiac disease",
    "hypertensive": "hypertension",
    "anemic": "anemia",
    "autistic": "autism",
    "bipolar": "bipolar disorder",
    "diabetico": "diabetes",
    "asmatico": "asma",
    "epileptico": "epilepsia",
    "celiaco": "doença celíaca",
    "hipertenso": "hipertensão",
    "anemico": "anemia",
    "autista": "autismo",
}

MEDICATIONS = _map(
    """insulin, metformin, aspirin, ibuprofen, paracetamol, acetaminophen, levothyroxine, warfarin,
    lisinopril, atorvastatin, simvastatin, omeprazole, amoxicillin, sertraline, fluoxetine,
    antidepressants, blood thinners, birth control, the pill=birth control, melatonin, prednisone,
    albuterol, ritalin, lithium, pill=birth control, losartan, amlodipine, metoprolol, an inhaler=inhaler, inhaler,
    insulina=insulin, metformina=metformin, aspirina=aspirin, ibuprofeno=ibuprofen, dipirona=dipyrone,
    levotiroxina=levothyroxine, varfarina=warfarin, losartana=losartan, sinvastatina=simvastatin,
    atorvastatina=atorvastatin, omeprazol=omeprazole, amoxicilina=amoxicillin, sertralina=sertraline,
    fluoxetina=fluoxetine, antidepressivo=antidepressants, antidepressivos=antidepressants,
    anticoncepcional=birth control, pilula=birth control, melatonina=melatonin, prednisona=prednisone,
    ritalina=ritalin, litio=lithium, bombinha=inhaler"""
)
DRUG_SUFFIXES = (
    "pril",
    "olol",
    "statin",
    "statina",
    "sartan",
    "sartana",
    "formin",
    "formina",
    "prazole",
    "prazol",
    "cillin",
    "cilina",
    "xetine",
    "xetina",
    "azepam",
    "zolam",
    "tidine",
    "tidina",
    "dipine",
    "dipino",
)

DIETS = _map(
    """vegetarian, vegan, pescatarian, pescetarian=pescatarian, plant-based, flexitarian, keto, paleo,
    kosher, halal, gluten-free, lactose-free, dairy-free,
    vegetariano=vegetarian, vegano=vegan, pescetariano=pescatarian, pescatariano=pescatarian,
    ovolactovegetariano=vegetarian, flexitariano=flexitarian"""
)

CATEGORIES = _map(
    """colour=color, color, food, dish, movie, film=movie, band, book, song, music, singer, series,
    show, sport, team, drink, fruit, dessert, city, country, place, restaurant, author, writer, game,
    animal, flower, season, artist, actor, actress, beer, wine, genre,
    cor=color, comida=food, prato=dish, filme=movie, banda=band, livro=book, musica=song,
    cantor=singer, cantora=singer, serie=series, esporte=sport, time=team, bebida=drink, fruta=fruit,
    sobremesa=dessert, cidade=city, pais=country, lugar=place, restaurante=restaurant, autor=author,
    autora=author, escritor=writer, escritora=writer, jogo=game, flor=flower, estacao=season,
    artista=artist, ator=actor, atriz=actress, cerveja=beer, vinho=wine, genero=genre,
    genero musical=genre, estilo musical=genre"""
)

TIMES = _map(
    """monday, mondays=monday, tuesday, tuesdays=tuesday, wednesday, wednesdays=wednesday, thursday,
    thursdays=thursday, friday, fridays=friday, saturday, saturdays=saturday, sunday, sundays=sunday,
    weekend, weekends=weekend, weekday, weekdays=weekday, morning, mornings=morning, afternoon,
    afternoons=afternoon, evening, evenings=evening, night, nights=night, lunch, lunchtime=lunch,
    segunda=monday, segundas=monday, terca=tuesday, tercas=tuesday, quarta=wednesday,
    quartas=wednesday, quinta=thursday, quintas=thursday, sexta=friday, sextas=friday,
    sabado=saturday, sabados=saturday, domingo=sunday, domingos=sunday, fim de semana=weekend,
    fins de semana=weekend, final de semana=weekend, finais de semana=weekend, dias uteis=weekday,
    dia de semana=weekday, dias de semana=weekday, manha=morning, manhas=morning, tarde=afternoon,
    tardes=afternoon, noite=night, noites=night, madrugada=night, almoco=lunch"""
)

# Openings of "I want to ..." that ask the assistant for something now: requests, not goals.
REQUEST_VERBS = _set(
    """know, ask, see, check, understand, confirm, clarify, say, tell, talk, thank, mention, add,
    remind, share, explain, hear, find out, try this, start over, go back, continue, correct, update,
    change my, you, saber, perguntar, entender, ver, confirmar, dizer, falar, agradecer, conferir,
    checar, tirar, comentar, lembrar, compartilhar, pedir, corrigir, adicionar, acrescentar,
    continuar, voltar, explicar, ouvir, mostrar, testar, que"""
)
# Objects that point at the conversation, not at a taste: "I love it", "adoro isso".
DEICTIC = _set(
    """it, that, this, these, those, you, your, them, him, her, what, how, when, the idea, the way, my,
    isso, isto, disso, disto, voce, vc, sua, seu, te, ele, ela, dele, dela, o que, como, quando, meu,
    minha, aquilo, daquilo, essa, esse, esta, este, ideia"""
)

OCCUPATIONS_EN = _set(
    """engineer, developer, programmer, designer, teacher, professor, doctor, physician, surgeon, nurse,
    lawyer, attorney, accountant, architect, dentist, pharmacist, chef, cook, waiter, waitress, driver,
    pilot, firefighter, officer, cop, soldier, scientist, researcher, analyst, manager, consultant,
    writer, author, journalist, editor, photographer, artist, musician, singer, actor, actress, dancer,
    painter, therapist, psychologist, psychiatrist, veterinarian, vet, electrician, plumber, carpenter,
    mechanic, farmer, baker, butcher, barber, hairdresser, cashier, clerk, secretary, assistant,
    receptionist, librarian, translator, interpreter, entrepreneur, founder, ceo, cto, cfo, owner,
    freelancer, contractor, banker, broker, economist, biologist, chemist, physicist, mathematician,
    historian, paramedic, caregiver, nanny, tutor, coach, trainer, athlete, streamer, youtuber,
    marketer, recruiter, salesperson, salesman, saleswoman, intern, lecturer, principal, judge,
    technician, programmer, administrator, director, lead, officer, student"""
)
NOT_OCCUPATIONS = _set(
    "optimist, pessimist, perfectionist, realist, feminist, minimalist, atheist, buddhist, idealist, "
    "fan, lover, beginner, member, person, guy, girl, woman, man, mom, dad, parent, citizen, vegetarian"
)
OCCUPATION_SUFFIXES_EN = ("ist", "ician", "ologist", "eer", "grapher")
# Portuguese occupations, masculine lemmas; feminine forms are derived (see extraction_pt).
OCCUPATIONS_PT = _set(
    """engenheiro, professor, medico, enfermeiro, advogado, programador, desenvolvedor, designer,
    arquiteto, dentista, jornalista, contador, psicologo, estudante, vendedor, cozinheiro, chef,
    garcom, garconete, motorista, policial, bombeiro, analista, gerente, cientista, fotografo, musico,
    pintor, escritor, veterinario, farmaceutico, fisioterapeuta, nutricionista, economista,
    administrador, empresario, consultor, ator, atriz, pesquisador, tradutor, eletricista, mecanico,
    pedreiro, carpinteiro, cabeleireiro, secretario, bancario, diretor, coordenador, tecnico,
    assistente, recepcionista, piloto, biologo, quimico, fisico, matematico, historiador, publicitario,
    corretor, agricultor, padeiro, artista, cantor, dancarino, bailarino, atleta, treinador,
    freelancer, servidor publico, funcionario publico, militar, juiz, promotor, estagiario, ceo,
    fundador, empreendedor, psiquiatra, cirurgiao, terapeuta, professor universitario, dev"""
)
STATUSES = _map(
    """retired, unemployed, self-employed, a student=student, student, aposentado=retired,
    desempregado=unemployed, autonomo=self-employed, reformado=retired"""
)
MARITAL = _map(
    """married, single, divorced, widowed, engaged, separated, casado=married, solteiro=single,
    divorciado=divorced, viuvo=widowed, noivo=engaged, separado=separated"""
)
