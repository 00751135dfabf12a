"""Portuguese word lists for the fact extractor (Brazil and Portugal). Entries are folded (lowercase,
no accents) and map to the language-neutral slot names every language shares ("amendoim" ->
"peanuts", "irma" -> "sister"); values keep the user's own words. Look words up with ``fold``.
Gendered words are listed in the masculine; the feminine is derived (``grammar``)."""

from __future__ import annotations

from .. import words_map, words_set

STOP_WORDS = frozenset(
    """a à ao aos aquela aquelas aquele aqueles aquilo as às até com como da das de dela delas dele
    deles depois do dos e é ela elas ele eles em entre era eram essa essas esse esses esta estas este
    estes eu foi fomos for foram há isso isto já lhe lhes mais mas me mesmo meu meus minha minhas muito
    na nas nem no nos nós nossa nossas nosso nossos num numa o os ou para pela pelas pelo pelos por
    qual quando que quem se sem ser seu seus só sua suas também te tem têm tenho teu tua você vocês vos
    um uma umas uns está estou estava são sou ter tinha vai vou então sim não oi olá obrigado obrigada
    aí lá cá""".split()
)
"""Words too common to index or to tell a topic by; also how a text is told Portuguese."""
LETTERS = "ãõçáéíóúâêô"
"""Letters only this language writes: each counts half a stopword when telling languages apart."""
DICTIONARY = "pt"
"""The word-frequency list of this language in pyspellchecker (``spellchecker/resources/<name>``):
what tells a common word from a name written in lowercase ("i work at spotify", "trabalho na
edp"; :func:`~hipocampo.domain.extraction.lexicon.common_word`)."""
NOUN_ENDINGS = (
    "aria", "eria", "oria", "ete", "eta", "ista", "eiro", "eira", "ario", "orio", "ura", "agem", "cao", "coes",
    "dade", "ncia", "cia", "mento", "inho", "inha", "zinho", "zinha", "ico", "ica", "ugue",
)  # fmt: skip
"""Endings of Portuguese common nouns, folded ("padaria", "lanchonete", "prefeitura", "lojinha"): a
word so ending is a word of the language, never a name written in lowercase, whatever the word list
holds of it (its subtitles miss much Brazilian everyday speech: "lanchonete" is not in it;
:func:`~hipocampo.domain.extraction.lexicon.common_word`)."""


ORG_WORDS = words_set(
    """sistemas, laboratorio, laboratorios, estudio, software, saude, analytics, alimentos, digital, pay,
    tecnologia, tech, grupo, banco, hospital, clinica, cafe, cafeteria, agencia, consultoria, logistica,
    energia, solucoes, midia, capital, parceiros, industria, industrias, seguros, comunicacao,
    engenharia, construtora, transportes, farma, farmacia, padaria, confeitaria, restaurante, hotel,
    academia, escola, colegio, faculdade, universidade, instituto, loja, lojas, mercado, supermercado,
    ltda, cia, editora, imobiliaria, escritorio, atelier, distribuidora, servicos, telecom, seguranca,
    advocacia, advogados, contabilidade, odontologia, imoveis, studio"""
)
"""Palavras com que se faz o nome de uma empresa ("cajá logística", "café andorinha", "hospital santa
clarice"): uma ao lado de outra palavra, onde se espera um empregador, lê um nome em minúsculas de
várias palavras (:func:`~hipocampo.domain.extraction.base.lower_org_at`)."""
NAME_ENDS = words_set(
    """agora, aqui, ali, la, hoje, ontem, amanha, semana, mes, ano, passada, passado, desde, onde, quando,
    que, ha, faz, tb, tbm, tambem, ja, kkk, kkkk, kkkkk, rs, cá, ca, pa, msm, mesmo, ainda, entao"""
)
"""Palavras que terminam um nome lido em minúsculas ("na clínica ipê semana passada", "na orla systems agora")."""
GENERIC_ADJECTIVES = words_set(
    """local, grande, pequeno, pequena, novo, nova, velho, velha, municipal, estadual, federal, publico,
    publica, privado, privada, particular, central, perto, mesma, mesmo, outra, outro, bom, boa, chique,
    barato, barata, familiar"""
)
"""Palavras que descrevem um local de trabalho, sem o nomear ("no hospital central", "na escola municipal")."""

NOT_NAMES = words_set(
    """todos, todas, alguem, ninguem, gente, tudo, nada, algo, segunda, terca, quarta, quinta, sexta,
    sabado, domingo, janeiro, fevereiro, marco, abril, maio, junho, julho, agosto, setembro, outubro,
    novembro, dezembro, ingles, portugues, espanhol, frances, alemao, oi, ola, obrigado, obrigada, sim,
    bom, boa, tchau, hoje, amanha, ontem, deus, natal, pascoa"""
)
RELATIONS = words_map(
    """esposa=wife, mulher=wife, marido=husband, irma=sister, irmao=brother, mae=mother, pai=father,
    filho=son, filha=daughter, amigo=friend, amiga=friend, melhor amigo=friend, melhor amiga=friend,
    chefe=boss, namorado=boyfriend, namorada=girlfriend, noivo=fiance, noiva=fiancee, primo=cousin,
    prima=cousin, tio=uncle, tia=aunt, avo=grandparent, sogra=mother-in-law, sogro=father-in-law,
    colega=colleague, vizinho=neighbor, vizinha=neighbor, companheiro=partner, companheira=partner,
    parceiro=partner, parceira=partner, cunhado=brother-in-law, cunhada=sister-in-law,
    sobrinho=nephew, sobrinha=niece, neto=grandson, neta=granddaughter"""
)
FEMININE_RELATIONS = words_set(
    "esposa, mulher, irma, mae, filha, amiga, melhor amiga, namorada, noiva, prima, tia, sogra, "
    "vizinha, companheira, parceira, cunhada, sobrinha, neta"
)
PETS = words_map(
    """gato=cat, gata=cat, gatos=cat, gatinho=cat, gatinha=cat, cachorro=dog, cachorra=dog, cachorros=dog,
    cao=dog, cadela=dog, cachorrinho=dog, papagaio=parrot, passaro=bird, passarinho=bird, calopsita=bird,
    peixe=fish, peixes=fish, coelho=rabbit, tartaruga=turtle, cavalo=horse,
    porquinho-da-india=guinea pig"""
)
FEMININE_PETS = words_set("gata, gatinha, cachorra, cadela, calopsita, tartaruga")
# "sou diabético" -> the condition noun.
CONDITION_ADJECTIVES = {
    "diabetico": "diabetes", "asmatico": "asma", "epileptico": "epilepsia", "celiaco": "doença celíaca",
    "hipertenso": "hipertensão", "anemico": "anemia", "autista": "autismo",
}  # fmt: skip
DRUG_SUFFIXES = ("statina", "sartana", "formina", "prazol", "cilina", "xetina", "tidina", "dipino")
DRUG_FORMS = words_set("""bombinha, bombinhas, comprimido, comprimidos, capsula, capsulas,
    xarope, pomada, gotas, spray, injecao, injecoes, adesivo, adesivos""")
"""Forms a drug comes in, said before its name ("bombinha de salbutamol"): the drug is the name."""
OCCUPATIONS = words_set(
    """engenheiro, professor, medico, enfermeiro, advogado, programador, desenvolvedor, designer,
    arquiteto, dentista, jornalista, contador, psicologo, estudante, vendedor, cozinheiro, chef,
    garcom, garconete, motorista, policial, bombeiro, analista, gerente, cientista, fotografo, musico,
    pintor, escritor, veterinario, farmaceutico, fisioterapeuta, nutricionista, economista,
    administrador, empresario, consultor, ator, atriz, pesquisador, tradutor, eletricista, mecanico,
    pedreiro, carpinteiro, cabeleireiro, secretario, bancario, diretor, coordenador, tecnico,
    assistente, recepcionista, piloto, biologo, quimico, fisico, matematico, historiador, publicitario,
    corretor, agricultor, padeiro, artista, cantor, dancarino, bailarino, atleta, treinador,
    freelancer, servidor publico, funcionario publico, militar, juiz, promotor, estagiario, ceo,
    fundador, empreendedor, psiquiatra, cirurgiao, terapeuta, professor universitario, dev, personal trainer,
    personal, despachante, barista, bartender, faxineiro, diarista, porteiro, zelador, vigilante,
    entregador, motoboy, caminhoneiro, taxista, cobrador, frentista, soldador, encanador, canalizador,
    marceneiro, jardineiro, pescador, confeiteiro, doceiro, acougueiro, talhante, atendente, repositor,
    representante, contabilista, auditor, delegado, escrivao, soldado, sargento, fonoaudiologo,
    biomedico, radiologista, cuidador, baba, doula, parteira, educador, pedagogo, reitor, investigador,
    bolsista, doutorando, mestrando, aprendiz, trainee, ilustrador, animador, editor, redator, revisor,
    interprete, reporter, apresentador, locutor, radialista, cineasta, produtor, poeta, youtuber,
    influenciador, streamer, marqueteiro, gestor, supervisor, comerciante, lojista, assessor, auxiliar,
    operador, agente, comissario de bordo, aeromoca, hospedeira, marinheiro, instrutor, arbitro, pastor,
    padre, freira, carteiro, bibliotecario, arquivista, geografo, geologo, sociologo, filosofo,
    antropologo, estatistico, agronomo, zootecnista, enologo, sommelier, barbeiro, manicure, esteticista,
    maquiador, costureiro, estilista, dona de casa, enfermeiro-chefe, tecnico de enfermagem, professor
    primario, optometrista, podologo, quiropraxista, ortodontista, pediatra, cardiologista,
    dermatologista, ginecologista, anestesista, oftalmologista, neurologista, urologista, oncologista"""
)
NOT_OCCUPATIONS: frozenset[str] = frozenset()
OCCUPATION_SUFFIXES: tuple[str, ...] = ()
NATIONALITIES = words_map(
    """brasileiro, portugues, americano, ingles, britanico, espanhol, frances, alemao, italiano,
    japones, chines, mexicano, argentino, canadense, irlandes, angolano, mocambicano, indiano,
    holandes, suico, russo, colombiano, chileno, peruano, uruguaio, venezuelano, coreano, australiano,
    grego, polones, ucraniano, escoces, cabo-verdiano"""
)
FAMILY = words_map(
    """filhos=children, filho=sons, filhas=daughters, filha=daughters, irmaos=siblings,
    irmao=brothers, irmas=sisters, irma=sisters, netos=grandchildren, neto=grandchildren,
    netas=grandchildren, neta=grandchildren, gemeos=children, criancas=children"""
)
NUMBERS = words_map(
    """um=1, uma=1, dois=2, duas=2, tres=3, quatro=4, cinco=5, seis=6, sete=7,
    oito=8, nove=9, dez=10, onze=11, doze=12"""
)
FOODS = words_map(
    """amendoim=peanuts, amendoins=peanuts, camarao=shrimp, camaroes=shrimp, frutos do mar=seafood,
    mariscos=shellfish, marisco=shellfish, peixe=fish, leite=milk, laticinios=dairy, glutem=gluten,
    trigo=wheat, ovo=eggs, ovos=eggs, nozes=nuts, castanhas=nuts, castanha=nuts, soja=soy,
    gergelim=sesame, morango=strawberries, morangos=strawberries, penicilina=penicillin,
    aspirina=aspirin, ibuprofeno=ibuprofen, dipirona=dipyrone, latex, polen=pollen, poeira=dust,
    acaros=dust mites, picada de abelha=bee stings, abelha=bees, abelhas=bees, gatos=cats,
    pelo de gato=cats, cachorros=dogs, carne=meat, carne vermelha=red meat, carne de porco=pork,
    porco=pork, carne bovina=beef, frango=chicken, alcool=alcohol, bebida alcoolica=alcohol,
    cafe=coffee, acucar=sugar"""
)
CONDITIONS = words_map(
    """diabetes tipo 1=diabetes, diabetes tipo 2=diabetes, asma=asthma, epilepsia=epilepsy,
    doenca celiaca=celiac disease, hipertensao=hypertension, pressao alta=hypertension,
    depressao=depression, ansiedade=anxiety, enxaqueca=migraine, cancer, artrite=arthritis,
    hipotireoidismo=hypothyroidism, colesterol alto=high cholesterol, tdah=adhd, autismo=autism,
    insonia=insomnia, um problema cardiaco=heart condition, problema de coracao=heart condition,
    bronquite=bronchitis, rinite=rhinitis, gastrite=gastritis, lupus, anemia, fibromialgia=fibromyalgia,
    apneia do sono=sleep apnea, psoriase=psoriasis, glaucoma, esclerose multipla=multiple sclerosis,
    transtorno bipolar=bipolar disorder, toc=ocd"""
)
MEDICATIONS = words_map(
    """lisdexanfetamina=vyvanse, topiramato=topiramate,
    insulina=insulin, metformina=metformin, aspirina=aspirin, ibuprofeno=ibuprofen, dipirona=dipyrone,
    levotiroxina=levothyroxine, varfarina=warfarin, losartana=losartan, sinvastatina=simvastatin,
    atorvastatina=atorvastatin, omeprazol=omeprazole, amoxicilina=amoxicillin, sertralina=sertraline,
    fluoxetina=fluoxetine, antidepressivo=antidepressants, antidepressivos=antidepressants,
    anticoncepcional=birth control, pilula=birth control, melatonina=melatonin, prednisona=prednisone,
    ritalina=ritalin, litio=lithium, bombinha=inhaler, escitalopram, citalopram, paroxetina=paroxetine,
    venlafaxina=venlafaxine, duloxetina=duloxetine, bupropiona=bupropion, mirtazapina=mirtazapine,
    trazodona=trazodone, quetiapina=quetiapine, rivotril=clonazepam, clonazepam, diazepam, zolpidem,
    venvanse=vyvanse, hidroclorotiazida=hydrochlorothiazide, furosemida=furosemide,
    espironolactona=spironolactone, bisoprolol, atenolol, propranolol, enalapril, captopril,
    valsartana=valsartan, rosuvastatina=rosuvastatin, clopidogrel, puran=levothyroxine,
    anlodipino=amlodipine, amlodipina=amlodipine, salbutamol, aerolin=salbutamol, novalgina=dipyrone,
    paracetamol, nimesulida=nimesulide, pantoprazol=pantoprazole, azitromicina=azithromycin,
    glifage=metformin, ozempic=semaglutide, prednisolona=prednisolone, levotiroxina sodica=levothyroxine,
    losartana potassica=losartan, insulina glargina=insulin"""
)
DIETS = words_map(
    """vegetariano=vegetarian, vegano=vegan, pescetariano=pescatarian, pescatariano=pescatarian,
    ovolactovegetariano=vegetarian, flexitariano=flexitarian"""
)
CATEGORIES = words_map(
    """cor=color, comida=food, prato=dish, filme=movie, banda=band, livro=book, musica=song,
    cantor=singer, cantora=singer, serie=series, esporte=sport, time=team, bebida=drink, fruta=fruit,
    sobremesa=dessert, cidade=city, pais=country, lugar=place, restaurante=restaurant, autor=author,
    autora=author, escritor=writer, escritora=writer, jogo=game, flor=flower, estacao=season,
    artista=artist, ator=actor, atriz=actress, cerveja=beer, vinho=wine, genero=genre,
    genero musical=genre, estilo musical=genre"""
)
TIMES = words_map(
    """segunda=monday, segundas=monday, terca=tuesday, tercas=tuesday, quarta=wednesday,
    quartas=wednesday, quinta=thursday, quintas=thursday, sexta=friday, sextas=friday,
    sabado=saturday, sabados=saturday, domingo=sunday, domingos=sunday, fim de semana=weekend,
    fins de semana=weekend, final de semana=weekend, finais de semana=weekend, dias uteis=weekday,
    dia de semana=weekday, dias de semana=weekday, manha=morning, manhas=morning, tarde=afternoon,
    tardes=afternoon, noite=night, noites=night, madrugada=night, almoco=lunch"""
)
REQUEST_VERBS = words_set(
    """saber, perguntar, entender, ver, confirmar, dizer, falar, agradecer, conferir,
    checar, tirar, comentar, lembrar, compartilhar, pedir, corrigir, adicionar, acrescentar,
    continuar, voltar, explicar, ouvir, mostrar, testar, que"""
)
DEICTIC = words_set(
    """isso, isto, disso, disto, voce, vc, sua, seu, te, ele, ela, dele, dela, o que, como, quando, meu,
    minha, aquilo, daquilo, essa, esse, esta, este, ideia"""
)
STATUSES = words_map(
    """aposentado=retired,
    desempregado=unemployed, autonomo=self-employed, reformado=retired"""
)
MARITAL = words_map(
    """casado=married, solteiro=single,
    divorciado=divorced, viuvo=widowed, noivo=engaged, separado=separated"""
)
