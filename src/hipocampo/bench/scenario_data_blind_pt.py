"""Never-tuned fact-lifecycle scenarios in Portuguese: Brazilian (``pt``) here, those about codes,
protocols and numbers in :mod:`.scenario_data_blind_pt_codes`, European (``pt-pt``) in
:mod:`.scenario_data_blind_pt_pt`.

Written blind for the ``never-tuned`` split, like :mod:`.scenario_data_blind`: by a contributor who
had not read the extraction rules and never ran the system on these conversations. The expectations
are what a careful reader expects from the words, in the key and value conventions visible in
:mod:`.scenario_data` and :mod:`.scenario_data_pt` (adjectives in the masculine form, money as
"3500 BRL"/"4500 EUR", a named pet as its name). They must never be used to change a rule.

Future relative dates: "mês que vem" and a bare future month ("em abril") resolve to the 1st of
that month, "daqui a duas semanas" to fourteen days later (always said on a Monday, where that and
the ISO-week reading agree), "sábado que vem" said on a Sunday to the coming Saturday.
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
from .scenario_data_blind_pt_codes import ANTONIO, FERNANDA, PATRICIA
from .scenario_data_blind_pt_pt import BLIND_PT_PT

# --- Brazilian Portuguese: moves, jobs, family and diets ------------------------------------------

THIAGO = Scenario(
    name="blind_thiago_recife_floripa",
    language="pt",
    summary="Analista de dados de Recife vira cientista de dados em Florianópolis; dois irmãos; alergia a dipirona.",
    sessions=(
        session(
            "thiago-discurso",
            "2024-06-03",
            (
                "21:00",
                "u",
                "fala! sou o Thiago, tenho 27 anos, moro em Recife e trabalho como analista de dados na Accenture",
            ),
            ("21:00", "a", "Fala, Thiago! Em que posso ajudar?"),
            ("21:01", "u", "sou alérgico a dipirona, aliás. se eu pedir remédio pra dor de cabeça lembra disso kkkk"),
            ("21:02", "a", "Anotado, nada de dipirona. O que você precisa hoje?"),
            ("21:03", "u", "meu irmão Caio vai casar em outubro e eu sou padrinho"),
            ("21:04", "u", "me ajuda a escrever um discurso engraçado mas que não faça a noiva chorar?"),
            ("21:05", "a", "Bora! Começa com uma história de infância de vocês dois e termina com um brinde curto."),
        ),
        session(
            "thiago-vaga",
            "2024-07-15",
            ("12:30", "u", "cara, passei numa vaga em Florianópolis!! vou me mudar semana que vem"),
            ("12:30", "a", "Parabéns! Que empresa?"),
            ("12:31", "u", "Softplan, como cientista de dados. sobe um degrau"),
            ("12:32", "u", "meu outro irmão, o Davi, mora lá há anos, vou ficar na casa dele no começo"),
            ("12:33", "a", "Ótimo ter apoio na chegada. Quer dicas de bairros?"),
            ("12:34", "u", "depois eu vejo isso. valeu!"),
        ),
        session(
            "thiago-dente",
            "2024-08-12",
            (
                "22:15",
                "u",
                "já tô morando em Floripa! comecei na Softplan semana passada, agora sou cientista de "
                "dados oficialmente",
            ),
            ("22:15", "a", "Que bom! E a adaptação?"),
            ("22:16", "u", "de boa. mas tô com uma dor de dente horrível, e lembra que sou alérgico a dipirona"),
            ("22:17", "a", "Lembro sim. Procure um dentista logo; até lá, pergunte ao farmacêutico por alternativas."),
            ("22:18", "u", "odeio dentista kkkk mas vou"),
            ("22:19", "u", "ok obrigado"),
        ),
        session(
            "thiago-praia",
            "2024-09-23",
            ("18:00", "u", "faltam poucas semanas pro casamento do Caio, o discurso tá pronto"),
            ("18:00", "a", "Boa! Quer revisar junto?"),
            ("18:01", "u", "quero sim, depois te mando. o Davi também vai ser padrinho"),
            ("18:02", "u", "e quero aprender kitesurf agora que moro do lado da praia"),
            ("18:03", "a", "Floripa é ótima pra isso: a Lagoa da Conceição tem várias escolas."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Thiago"),
        Fact(PROFILE, "age", "27"),
        Fact(PROFILE, "home_city", "Florianópolis"),
        Fact(PROFILE, "occupation", "cientista de dados"),
        Fact(PROFILE, "employer", "Softplan"),
        Fact(CRITICAL, "allergy:dipyrone", "dipirona"),
        Fact(ENTITY, "person:brother", "Caio"),
        Fact(ENTITY, "person:brother", "Davi"),
        Fact(PREFERENCE, "dislikes:dentista", "dentista"),
        Fact(GOAL, "goal:aprender_kitesurf", "aprender kitesurf"),
    ),
    superseded=(
        Change("home_city", "Recife", "Florianópolis"),
        Change("employer", "Accenture", "Softplan"),
        Change("occupation", "analista de dados", "cientista de dados"),
    ),
    mentions=(Mention("allergy:dipyrone", "dipirona", 2),),
    events=(
        Event("2024-10-01", text="vai casar em outubro"),
        Event("2024-07-22", text="vou me mudar semana que vem"),
        Event("2024-08-05", key="employer"),
    ),
    probes=(
        Probe("onde eu moro hoje?", ("Florianópolis", "Floripa"), stale=("Recife",)),
        Probe("em que empresa eu trabalho?", ("Softplan",), stale=("Accenture",)),
        Probe("qual remédio eu não posso tomar?", ("dipirona",)),
        Probe("como se chamam meus irmãos?", ("Caio", "Davi")),
    ),
    allowed=(Fact(ENTITY, "person:brother:wedding", "outubro"),),
    split=NEVER,
)


LARISSA = Scenario(
    name="blind_larissa_rio_vegana",
    language="pt",
    summary="Estagiária no Rio é efetivada, passa de vegetariana a vegana, odeia coentro, fica noiva.",
    sessions=(
        session(
            "larissa-marmita",
            "2024-02-12",
            (
                "12:10",
                "u",
                "oi! me chamo Larissa, tenho 23 anos, moro no Rio de Janeiro e sou estagiária de marketing na Ambev",
            ),
            ("12:10", "a", "Oi, Larissa! Em que posso ajudar?"),
            ("12:11", "u", "virei vegetariana faz uns meses e tô sem ideia de marmita"),
            ("12:12", "a", "Que tal grão-de-bico assado, arroz integral e legumes? Rende a semana toda."),
            ("12:13", "u", "ah, odeio coentro, por favor nada de coentro nas receitas"),
            ("12:14", "u", "tenho uma gata, a Paçoca, que rouba comida do prato kkkkk"),
            ("12:15", "a", "Kkkk, cuidado com a Paçoca então. Sem coentro, prometo."),
        ),
        session(
            "larissa-niver",
            "2024-03-04",
            ("22:00", "u", "sou ansiosa e já tô planejando meu aniversário: é dia 9 de agosto"),
            ("22:00", "a", "Antecedência é tudo! Que tipo de festa?"),
            ("22:01", "u", "meu namorado Gustavo quer fazer surpresa mas eu já descobri haha"),
            ("22:02", "u", "amo k-drama, queria uma festa temática"),
            ("22:03", "a", "Festa com comidinhas coreanas e karaokê de OST seria um sucesso."),
            ("22:04", "u", "tem receita de bolo sem ovo?"),
            ("22:05", "a", "Tem: bolo de chocolate com vinagre e bicarbonato, fica bem fofo."),
        ),
        session(
            "larissa-efetivada",
            "2024-04-22",
            ("18:30", "u", "mudei: agora sou vegana! nada de leite nem ovo"),
            ("18:30", "a", "Que legal! Quer adaptar as marmitas?"),
            ("18:31", "u", "quero. e fui efetivada!! agora sou analista de marketing"),
            ("18:32", "a", "Parabéns pela efetivação!"),
            ("18:33", "u", "lembrando que odeio coentro, tá? kkkk"),
            ("18:34", "a", "Nunca esqueço. Tofu mexido com cúrcuma e cebolinha no lugar."),
        ),
        session(
            "larissa-noivado",
            "2024-06-10",
            ("20:20", "u", "o Gustavo me pediu em casamento no sábado 💍😭"),
            ("20:20", "a", "Que notícia linda, parabéns!"),
            ("20:21", "u", "então agora ele é meu noivo kkkk ainda não acostumei"),
            ("20:22", "u", "sugestão de restaurante vegano no Rio pra comemorar?"),
            ("20:23", "a", "Botafogo tem ótimas opções veganas para um jantar especial."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Larissa"),
        Fact(PROFILE, "age", "23"),
        Fact(PROFILE, "home_city", "Rio de Janeiro"),
        Fact(PROFILE, "employer", "Ambev"),
        Fact(PROFILE, "occupation", "analista de marketing"),
        Fact(PROFILE, "birthday", "9 de agosto"),
        Fact(CONSTRAINT, "diet", "vegano"),
        Fact(PREFERENCE, "dislikes:coentro", "coentro"),
        Fact(PREFERENCE, "likes:k-drama", "k-drama"),
        Fact(ENTITY, "pet:cat", "Paçoca"),
        Fact(ENTITY, "person:fiance", "Gustavo"),
    ),
    superseded=(
        Change("diet", "vegetariano", "vegano"),
        Change("occupation", "estagiária de marketing", "analista de marketing"),
    ),
    mentions=(Mention("dislikes:coentro", "coentro", 2),),
    events=(Event("2024-06-08", text="pediu em casamento"),),
    probes=(
        Probe("qual é a minha dieta?", ("vegana", "vegano"), stale=("vegetariana", "vegetariano")),
        Probe("o que eu odeio na comida?", ("coentro",)),
        Probe("quando é meu aniversário?", ("agosto",)),
        Probe("como se chama meu noivo?", ("Gustavo",)),
    ),
    allowed=(Fact(ENTITY, "person:boyfriend", "Gustavo"),),
    split=NEVER,
)


BRUNO = Scenario(
    name="blind_bruno_personal_niteroi",
    language="pt",
    summary="Personal trainer troca de academia, muda de ideia sobre o horário de treino, larga o "
    "futevôlei; outra usuária do tenant tem cidade, empresa, alergia e cachorro.",
    other_user=(
        session(
            "camila-oi",
            "2024-11-04",
            ("08:00", "u", "Oi, eu sou a Camila, moro em Porto Alegre e trabalho na Gerdau."),
            ("08:00", "a", "Oi, Camila! Como posso ajudar?"),
            ("08:01", "u", "Sou alérgica a látex, sempre aviso em consulta."),
            ("08:02", "u", "Meu cachorro se chama Thor e precisa de um adestrador."),
            ("08:03", "a", "Procure um adestrador que use reforço positivo."),
        ),
    ),
    sessions=(
        session(
            "bruno-planilha",
            "2024-11-06",
            ("06:30", "u", "Salve! Bruno aqui, sou personal trainer na Smart Fit, em Niterói"),
            ("06:30", "a", "Salve, Bruno! Em que posso ajudar?"),
            ("06:31", "u", "meu objetivo é correr a maratona do Rio ano que vem"),
            ("06:32", "u", "prefiro treinar à noite, de manhã eu não funciono kkkk"),
            ("06:33", "u", "e amo futevôlei no fim de semana, então sábado é dia de areia"),
            ("06:34", "u", "monta uma planilha de corrida pra mim? 4x por semana"),
            ("06:35", "a", "Fechado: dois rodagens leves, um intervalado e um longão no domingo."),
        ),
        session(
            "bruno-bodytech",
            "2024-12-02",
            ("07:10", "u", "saí da Smart Fit, agora dou aula na Bodytech"),
            ("07:10", "a", "Boa! Mudou muito a rotina?"),
            (
                "07:11",
                "u",
                "mudou. e mudei de ideia: agora prefiro treinar de manhã cedo, o horário novo me obrigou e eu curti",
            ),
            ("07:12", "u", "minha namorada, a Letícia, vai correr a meia maratona comigo"),
            ("07:13", "a", "Que parceria! Dá pra ajustar a planilha pra vocês dois treinarem juntos."),
            ("07:14", "u", "show"),
        ),
        session(
            "bruno-tornozelo",
            "2025-01-13",
            ("19:00", "u", "torci o tornozelo no sábado passado jogando futevôlei 🤕"),
            ("19:00", "a", "Poxa! Já foi ao ortopedista?"),
            ("19:01", "u", "fui, entorse leve. não curto mais futevôlei depois dessa haha"),
            ("19:02", "u", "a Letícia tá cuidando de mim"),
            ("19:03", "u", "quanto tempo até eu voltar a correr?"),
            ("19:04", "a", "Numa entorse leve, em geral 2 a 4 semanas, com liberação do ortopedista."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Bruno"),
        Fact(PROFILE, "occupation", "personal trainer"),
        Fact(PROFILE, "employer", "Bodytech"),
        Fact(PROFILE, "home_city", "Niterói"),
        Fact(GOAL, "goal:correr_a_maratona_do_rio", "correr a maratona do Rio"),
        Fact(PREFERENCE, "prefers:training_time", "de manhã cedo"),
        Fact(ENTITY, "person:girlfriend", "Letícia"),
    ),
    superseded=(
        Change("employer", "Smart Fit", "Bodytech"),
        Change("prefers:training_time", "à noite", "de manhã cedo"),
    ),
    retracted=(Retraction("likes:futevolei", "futevôlei"),),
    events=(Event("2025-01-11", text="torci o tornozelo"),),
    probes=(
        Probe(
            "em que academia eu dou aula?",
            ("Bodytech",),
            stale=("Smart Fit",),
            foreign=("Gerdau", "Porto Alegre", "Thor"),
        ),
        Probe("que horas eu prefiro treinar?", ("manhã",), foreign=("látex",)),
        Probe("qual é meu objetivo na corrida?", ("maratona",), foreign=("Gerdau", "Thor")),
    ),
    allowed=(
        Fact(PREFERENCE, "prefers:treinar_de_manha_cedo", "treinar de manhã cedo"),
        Fact(ENTITY, "person:girlfriend:goal", "meia maratona"),
    ),
    split=NEVER,
)

MARIANA = Scenario(
    name="blind_mariana_belem_confeitaria",
    language="pt",
    summary="Professora em Belém vira confeiteira, deixa de ter reunião às terças; dois gatos; "
    "número de pedido; a alergia da gata não é dela.",
    sessions=(
        session(
            "mariana-bolo",
            "2024-09-02",
            ("19:45", "u", "Oi, sou a Mariana! Moro em Belém e sou professora de história numa escola estadual"),
            ("19:45", "a", "Oi, Mariana! Em que posso ajudar?"),
            ("19:46", "u", "mas meu sonho é viver de confeitaria, faço bolo de pote nas horas vagas"),
            ("19:47", "u", "tenho dois gatos, o Tom e a Nina, que ficam de olho em tudo kkkk"),
            ("19:48", "a", "Kkkk, fiscais da cozinha! Como posso ajudar com os bolos?"),
            ("19:49", "u", "Entendi. e quanto eu cobro por um bolo de pote?"),
            ("19:50", "a", "Some ingredientes, embalagem e seu tempo, e multiplique por uns 2,5."),
        ),
        session(
            "mariana-feira",
            "2024-09-22",
            ("16:00", "u", "vou ter uma barraca na feira de doces sábado que vem!"),
            ("16:00", "a", "Que legal! Quer ajuda com a quantidade?"),
            ("16:01", "u", "quero. ah, e não posso às terças, tenho reunião pedagógica"),
            ("16:02", "u", "o pedido das embalagens chegou errado, o número do pedido é 50419327"),
            ("16:03", "a", "Vale abrir uma reclamação com esse número e pedir a troca antes de sábado."),
            ("16:04", "u", "ok obrigada"),
        ),
        session(
            "mariana-demissao",
            "2024-11-04",
            ("10:30", "u", "pedi demissão da escola! agora sou confeiteira em tempo integral 🎂"),
            ("10:30", "a", "Que coragem! Parabéns, Mariana."),
            ("10:31", "u", "e como já não tenho reunião pedagógica, agora posso às terças sim"),
            ("10:32", "u", "odeio fondant, só trabalho com chantininho"),
            ("10:33", "a", "Chantininho fica lindo em bolo de festa. Quer ideias de decoração?"),
        ),
        session(
            "mariana-natal",
            "2024-12-09",
            ("21:00", "u", "a Nina tá com alergia a frango, a veterinária mudou a ração dela"),
            ("21:00", "a", "Coitadinha! Ração hipoalergênica costuma resolver."),
            ("21:01", "u", "e eu mesma sou alérgica a morango, ironia pra uma confeiteira kkkk"),
            ("21:02", "u", "me passa uma receita de torta pro Natal sem morango?"),
            ("21:03", "a", "Torta de limão com merengue ou de cupuaçu, bem paraense."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Mariana"),
        Fact(PROFILE, "home_city", "Belém"),
        Fact(PROFILE, "occupation", "confeiteira"),
        Fact(ENTITY, "pet:cat", "Tom"),
        Fact(ENTITY, "pet:cat", "Nina"),
        Fact(CRITICAL, "order_number", "50419327"),
        Fact(CRITICAL, "allergy:strawberry", "morango"),
        Fact(PREFERENCE, "dislikes:fondant", "fondant"),
    ),
    superseded=(Change("occupation", "professora de história", "confeiteira"),),
    retracted=(Retraction("unavailable:tuesday", "às terças"),),
    events=(Event("2024-09-28", text="feira de doces"),),
    probes=(
        Probe("qual é a minha profissão?", ("confeiteira",), stale=("professora",)),
        Probe("qual o número do pedido das embalagens?", ("50419327",)),
        Probe("tenho alergia a alguma coisa?", ("morango",)),
        Probe("como se chamam meus gatos?", ("Tom", "Nina")),
    ),
    allowed=(
        Fact(GOAL, "goal:viver_de_confeitaria", "viver de confeitaria"),
        Fact(ENTITY, "pet:cat:allergy:chicken", "frango"),
        Fact(ENTITY, "family:cats", "2"),
        Fact(PREFERENCE, "likes:chantininho", "chantininho"),
    ),
    split=NEVER,
)

GABRIEL = Scenario(
    name="blind_gabriel_goiania_brasilia",
    language="pt",
    summary="Dev muda de Goiânia pra Brasília com a namorada, orçamento do aluguel sobe, larga o Valorant.",
    sessions=(
        session(
            "gabriel-setup",
            "2025-02-03",
            ("23:00", "u", "eae, Gabriel aqui. moro em Goiânia, sou dev backend na Zup"),
            ("23:00", "a", "E aí, Gabriel! No que posso ajudar?"),
            ("23:01", "u", "curto muito Valorant, jogo toda noite com a galera"),
            ("23:02", "u", "minha namorada Júlia acha que eu jogo demais kkkk"),
            ("23:03", "u", "quero montar um setup melhor, monitor de 144hz vale a pena?"),
            ("23:04", "a", "Pra jogo competitivo vale muito. Um de 24 polegadas já resolve."),
            ("23:05", "u", "meu time é o Goiás, então já sofro o suficiente sem lag kkkk"),
        ),
        session(
            "gabriel-concurso",
            "2025-03-10",
            ("20:10", "u", "semana passada a Júlia passou num concurso em Brasília!!"),
            ("20:10", "a", "Parabéns pra ela!"),
            ("20:11", "u", "então a gente vai se mudar pra lá mês que vem"),
            ("20:12", "u", "meu orçamento pro aluguel é 3 mil"),
            ("20:13", "u", "quais regiões são boas?"),
            ("20:14", "a", "Asa Norte, Asa Sul e Sudoeste são bem servidas; Águas Claras costuma ser mais barata."),
        ),
        session(
            "gabriel-asa-norte",
            "2025-04-14",
            ("19:30", "u", "pronto, agora moro em Brasília, na Asa Norte"),
            ("19:30", "a", "Bem-vindo ao quadradinho!"),
            ("19:31", "u", "continuo na Zup, trabalho remoto então foi tranquilo"),
            ("19:32", "u", "sobre o aluguel: o orçamento agora é 3.500, achamos um ap melhor"),
            ("19:33", "u", "ah, e não curto mais Valorant, tô jogando só xadrez online"),
            ("19:34", "a", "Mudança de ares completa! Quer sugestões de aberturas de xadrez?"),
        ),
        session(
            "gabriel-presente",
            "2025-05-05",
            ("18:00", "u", "o aniversário da Júlia é dia 20 de maio, me ajuda com presente?"),
            ("18:00", "a", "Claro! Do que ela gosta?"),
            ("18:01", "u", "ela ama plantas"),
            ("18:02", "a", "Uma costela-de-adão num vaso bonito ou um curso de jardinagem."),
            ("18:03", "u", "valeu, vou nessa"),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Gabriel"),
        Fact(PROFILE, "home_city", "Brasília"),
        Fact(PROFILE, "occupation", "dev backend"),
        Fact(PROFILE, "employer", "Zup"),
        Fact(ENTITY, "person:girlfriend", "Júlia"),
        Fact(PREFERENCE, "favorite:team", "Goiás"),
        Fact(CONSTRAINT, "budget", "3500 BRL"),
    ),
    superseded=(Change("home_city", "Goiânia", "Brasília"), Change("budget", "3000 BRL", "3500 BRL")),
    retracted=(Retraction("likes:valorant", "Valorant"),),
    mentions=(Mention("employer", "Zup", 2),),
    events=(Event("2025-03-03", text="passou num concurso"), Event("2025-04-01", text="mudar pra lá mês que vem")),
    probes=(
        Probe("onde eu moro?", ("Brasília",), stale=("Goiânia",)),
        Probe("qual é meu orçamento de aluguel?", ("3500", "3.500"), stale=("3000",)),
        Probe("como se chama minha namorada?", ("Júlia",)),
    ),
    allowed=(
        Fact(PROFILE, "work_mode", "remoto"),
        Fact(PREFERENCE, "likes:xadrez_online", "xadrez online"),
        Fact(ENTITY, "person:girlfriend:birthday", "20 de maio"),
        Fact(CONSTRAINT, "budget:aluguel", "3500 BRL"),
    ),
    split=NEVER,
)


BLIND_PT_BR = (THIAGO, FERNANDA, LARISSA, ANTONIO, BRUNO, MARIANA, GABRIEL, PATRICIA)
BLIND_PT = (*BLIND_PT_BR, *BLIND_PT_PT)
