"""Tuned scenarios in Portuguese, Brazilian and European: the defects a new user found in the
rule-based extractor, replayed as chats (see :mod:`.scenario_data_tuned`, which assembles the split).
"""

from __future__ import annotations

from .scenario_data import (
    CONSTRAINT,
    CRITICAL,
    ENTITY,
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

# --- Brazilian Portuguese -------------------------------------------------------------------------

MARIANA = Scenario(
    name="mariana_reunioes",
    language="pt",
    summary="Uma advogada muda de ideia sobre o horário das reuniões; alergia entre muletas de fala.",
    sessions=(
        session(
            "mariana-oi",
            "2024-03-04",
            ("08:00", "u", "Oi! Sou a Mariana, sou advogada e moro em Recife."),
            ("08:01", "u", "Prefiro reuniões de manhã cedo."),
            ("08:01", "a", "Anotado! Posso ajudar com a agenda da semana?"),
            ("08:02", "u", "Pode sim. Tô cansada hoje, kkkk"),
            ("08:03", "u", "Tenho alergia a camarão, tá?"),
        ),
        session(
            "mariana-agenda",
            "2024-03-18",
            ("14:00", "u", "Mudei de ideia: agora prefiro reuniões à tarde."),
            ("14:01", "a", "Certo, vou sugerir horários depois do almoço."),
            ("14:02", "u", "Ah, e tenho alergia a... aliás, deixa pra lá."),
            ("14:03", "u", "Odeio acordar cedo, né."),
            ("14:04", "u", "Entendi, ok."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Mariana"),
        Fact(PROFILE, "occupation", "advogada"),
        Fact(PROFILE, "home_city", "Recife"),
        Fact(PREFERENCE, "prefers:reunioes", "reuniões à tarde"),
        Fact(CRITICAL, "allergy:shrimp", "camarão"),
        Fact(PREFERENCE, "dislikes:acordar_cedo", "acordar cedo"),
    ),
    superseded=(Change("prefers:reunioes", "reuniões de manhã cedo", "reuniões à tarde"),),
    probes=(
        Probe("Quando eu prefiro fazer reuniões?", ("tarde",), ("manhã",)),
        Probe("Tenho alguma alergia?", ("camarão",)),
    ),
)


BRUNO = Scenario(
    name="bruno_acme_globex",
    language="pt",
    summary="Troca de emprego, aniversário, namorada e código de reserva; outro usuário no mesmo tenant.",
    other_user=(
        session(
            "caio",
            "2024-04-01",
            ("10:00", "u", "Oi, sou o Caio, trabalho na Initech e moro em Manaus."),
        ),
    ),
    sessions=(
        session(
            "bruno-oi",
            "2024-04-08",
            ("09:00", "u", "Oi, eu sou o Bruno. Trabalho na Acme como engenheiro."),
            ("09:01", "u", "Meu aniversário é dia 14 de março."),
            ("09:01", "a", "Anotado!"),
            ("09:02", "u", "Minha namorada se chama Júlia."),
        ),
        session(
            "bruno-novidades",
            "2024-05-15",
            ("20:00", "u", "Saí da Acme e entrei na Globex semana passada."),
            ("20:01", "a", "Parabéns pelo emprego novo!"),
            ("20:02", "u", "O número da minha reserva é ABC123."),
            ("20:03", "u", "kkkk valeu"),
        ),
        session(
            "bruno-pergunta",
            "2024-06-01",
            ("11:00", "u", "Onde eu trabalho agora?"),
            ("11:00", "a", "Na Globex."),
            ("11:01", "u", "A Júlia mandou um abraço, rs"),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Bruno"),
        Fact(PROFILE, "employer", "Globex"),
        Fact(PROFILE, "occupation", "engenheiro"),
        Fact(PROFILE, "birthday", "14 de março"),
        Fact(ENTITY, "person:girlfriend", "Júlia"),
        Fact(CRITICAL, "id:reservation", "ABC123"),
    ),
    superseded=(Change("employer", "Acme", "Globex"),),
    events=(Event("2024-05-06", key="employer"),),
    probes=(
        Probe("Onde eu trabalho agora?", ("Globex",), ("Acme",), ("Initech", "Manaus")),
        Probe("Qual é o número da minha reserva?", ("ABC123",)),
        Probe("Quando é meu aniversário?", ("14 de março",)),
    ),
)


FERNANDA = Scenario(
    name="fernanda_vegana",
    language="pt",
    summary="De vegetariana a vegana, um orçamento de viagem cancelado, um dentista amanhã.",
    sessions=(
        session(
            "fernanda-oi",
            "2024-02-01",
            ("12:00", "u", "Sou a Fernanda. Sou vegetariana há 5 anos."),
            ("12:01", "u", "Meu orçamento para a viagem ao Chile é de R$ 8.000."),
            ("12:02", "a", "Dá para fazer uma ótima viagem! Quer um roteiro?"),
        ),
        session(
            "fernanda-mudancas",
            "2024-03-10",
            ("18:00", "u", "Virei vegana no mês passado."),
            ("18:01", "a", "Que legal! Quer receitas novas?"),
            ("18:02", "u", "Esquece o orçamento da viagem ao Chile, cancelamos."),
        ),
        session(
            "fernanda-semana",
            "2024-03-20",
            ("07:30", "u", "Sou vegana, tá? Nada de queijo nas receitas."),
            ("07:31", "u", "Tenho dentista amanhã de manhã."),
            ("07:32", "a", "Boa sorte!"),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Fernanda"),
        Fact(CONSTRAINT, "diet", "vegano"),
    ),
    superseded=(Change("diet", "vegetariano", "vegano"),),
    retracted=(Retraction("budget:chile_viagem", "8000 BRL"),),
    mentions=(Mention("diet", "vegano", 2),),
    events=(Event("2024-03-21", text="dentista amanhã"),),
    probes=(Probe("Qual é a minha dieta?", ("vegana",), ("vegetariana",)),),
)


RODRIGO = Scenario(
    name="rodrigo_dois_irmaos",
    language="pt",
    summary="Dois irmãos em cidades diferentes, o chefe, e frases de enchimento que não são fatos.",
    sessions=(
        session(
            "rodrigo-oi",
            "2024-07-01",
            ("21:00", "u", "Sou o Rodrigo, moro em Curitiba."),
            ("21:01", "u", "Meu irmão Pedro mora em Santos."),
            ("21:02", "u", "Tô cansado, né."),
            ("21:03", "u", "Prefiro sem gráficos."),
            ("21:03", "a", "Combinado, só texto."),
        ),
        session(
            "rodrigo-familia",
            "2024-07-09",
            ("20:00", "u", "Meu irmão Lucas mora em Natal."),
            ("20:01", "u", "Entendi, ok."),
            ("20:02", "u", "Meu chefe se chama Marcelo."),
            ("20:03", "u", "Gosto de tipo, sei lá."),
            ("20:04", "u", "Ah, e me mudei para Florianópolis mês passado."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Rodrigo"),
        Fact(PROFILE, "home_city", "Florianópolis"),
        Fact(ENTITY, "person:brother", "Pedro"),
        Fact(ENTITY, "person:brother", "Lucas"),
        Fact(ENTITY, "person:brother:pedro:home_city", "Santos"),
        Fact(ENTITY, "person:brother:lucas:home_city", "Natal"),
        Fact(ENTITY, "person:boss", "Marcelo"),
    ),
    superseded=(Change("home_city", "Curitiba", "Florianópolis"),),
    mentions=(Mention("person:brother", "Pedro", 1), Mention("person:brother", "Lucas", 1)),
    probes=(
        Probe("Onde mora meu irmão Lucas?", ("Natal",)),
        Probe("Como se chama meu chefe?", ("Marcelo",)),
    ),
)


# --- European Portuguese --------------------------------------------------------------------------

INES = Scenario(
    name="ines_reformada_braga",
    language="pt-pt",
    summary="Uma professora reforma-se e muda-se do Porto para Braga.",
    sessions=(
        session(
            "ines-ola",
            "2024-01-10",
            ("10:00", "u", "Olá, chamo-me Inês e vivo no Porto."),
            ("10:01", "u", "Sou professora de matemática."),
            ("10:02", "u", "Tenho dois netos."),
            ("10:02", "a", "Que bom! Em que posso ajudar?"),
        ),
        session(
            "ines-reforma",
            "2024-03-02",
            ("15:00", "u", "Estou reformada desde fevereiro, pois."),
            ("15:01", "a", "Parabéns pela reforma!"),
        ),
        session(
            "ines-casa",
            "2024-05-20",
            ("11:00", "u", "Já não vivo no Porto, mudei-me para Braga."),
            ("11:01", "a", "Que tal Braga?"),
            ("11:02", "u", "Onde é que eu vivo agora, já agora?"),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Inês"),
        Fact(PROFILE, "occupation", "reformado"),
        Fact(PROFILE, "home_city", "Braga"),
        Fact(ENTITY, "family:grandchildren", "2"),
    ),
    superseded=(
        Change("occupation", "professora de matemática", "reformado"),
        Change("home_city", "Porto", "Braga"),
    ),
    probes=(
        Probe("Onde é que eu vivo?", ("Braga",), ("Porto",)),
        Probe("Ainda dou aulas?", ("reformada",)),
    ),
)


DUARTE = Scenario(
    name="duarte_estou_a_trabalhar",
    language="pt-pt",
    summary="Um programador muda de empresa ('estou a trabalhar'), faz anos em maio, tem um voo marcado.",
    sessions=(
        session(
            "duarte-ola",
            "2024-02-12",
            ("09:00", "u", "Sou o Duarte, estou a trabalhar na Acme como programador."),
            ("09:01", "u", "A minha namorada chama-se Rita."),
            ("09:02", "u", "Faço anos a 3 de maio."),
            ("09:02", "a", "Fica registado!"),
        ),
        session(
            "duarte-emprego",
            "2024-04-15",
            ("19:00", "u", "Mudei de emprego: agora estou a trabalhar na Globex."),
            ("19:01", "a", "Boa! Como está a correr?"),
            ("19:02", "u", "O número do meu voo é TP1352."),
            ("19:03", "u", "Pois, ok."),
        ),
        session(
            "duarte-pergunta",
            "2024-05-02",
            ("08:00", "u", "Onde é que trabalho agora?"),
            ("08:00", "a", "Na Globex."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Duarte"),
        Fact(PROFILE, "employer", "Globex"),
        Fact(PROFILE, "occupation", "programador"),
        Fact(ENTITY, "person:girlfriend", "Rita"),
        Fact(PROFILE, "birthday", "3 de maio"),
        Fact(CRITICAL, "id:flight", "TP1352"),
    ),
    superseded=(Change("employer", "Acme", "Globex"),),
    probes=(
        Probe("Onde é que trabalho agora?", ("Globex",), ("Acme",)),
        Probe("Qual é o número do meu voo?", ("TP1352",)),
    ),
)


CATARINA = Scenario(
    name="catarina_deixei_de_ser",
    language="pt-pt",
    summary="Deixa de ser vegetariana, detesta coentros, está grávida; outro utilizador no mesmo tenant.",
    other_user=(
        session(
            "joaquim",
            "2024-06-01",
            ("10:00", "u", "Chamo-me Joaquim, vivo em Faro e sou alérgico a marisco."),
        ),
    ),
    sessions=(
        session(
            "catarina-ola",
            "2024-06-03",
            ("13:00", "u", "Chamo-me Catarina e sou vegetariana."),
            ("13:01", "u", "Sou alérgica a amendoins."),
            ("13:02", "u", "Detesto coentros."),
            ("13:02", "a", "Anotado, nada de coentros."),
        ),
        session(
            "catarina-mudancas",
            "2024-07-15",
            ("20:00", "u", "Deixei de ser vegetariana, voltei a comer carne."),
            ("20:01", "u", "Aliás, não suporto acordar cedo."),
            ("20:02", "a", "Percebido."),
        ),
        session(
            "catarina-novidade",
            "2024-08-01",
            ("09:00", "u", "Estou grávida!"),
            ("09:00", "a", "Parabéns!"),
            ("09:01", "u", "Obrigada, pois."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Catarina"),
        Fact(CRITICAL, "allergy:peanuts", "amendoins"),
        Fact(PREFERENCE, "dislikes:coentros", "coentros"),
        Fact(PREFERENCE, "dislikes:acordar_cedo", "acordar cedo"),
        Fact(CRITICAL, "condition:pregnancy", "grávida"),
    ),
    retracted=(Retraction("diet", "vegetariano"),),
    probes=(
        Probe("A que é que sou alérgica?", ("amendoins",), (), ("marisco", "Joaquim")),
        Probe("O que é que detesto?", ("coentros",)),
    ),
)


TIAGO = Scenario(
    name="tiago_viagem_roma",
    language="pt-pt",
    summary="Muda de ideia sobre os voos, desiste do orçamento da viagem a Roma, vai ao médico amanhã.",
    sessions=(
        session(
            "tiago-ola",
            "2024-09-02",
            ("10:00", "u", "Sou o Tiago. O meu orçamento para a viagem a Roma é de 1500 euros."),
            ("10:01", "u", "Prefiro voos de manhã."),
            ("10:02", "a", "Há um voo às 7h10."),
        ),
        session(
            "tiago-mudancas",
            "2024-09-10",
            ("18:00", "u", "Mudei de ideia: prefiro voos à noite."),
            ("18:01", "u", "Esquece o orçamento da viagem a Roma, já não vamos."),
            ("18:02", "a", "Está bem."),
        ),
        session(
            "tiago-semana",
            "2024-09-16",
            ("08:00", "u", "Amanhã vou ao médico."),
            ("08:01", "u", "Prefiro voos à noite, já agora."),
            ("08:02", "a", "Fica registado."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Tiago"),
        Fact(PREFERENCE, "prefers:voos", "voos à noite"),
    ),
    superseded=(Change("prefers:voos", "voos de manhã", "voos à noite"),),
    retracted=(Retraction("budget:roma_viagem", "1500 EUR"),),
    mentions=(Mention("prefers:voos", "voos à noite", 2),),
    events=(Event("2024-09-17", text="vou ao médico"),),
    probes=(Probe("Que voos prefiro?", ("noite",), ("manhã",)),),
)
