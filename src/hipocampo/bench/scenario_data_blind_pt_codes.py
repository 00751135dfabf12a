"""Never-tuned Brazilian Portuguese scenarios about records: a booking locator and a changed
flight, a social-security protocol and a changed medicine, an insurance policy. Written blind,
like :mod:`.scenario_data_blind_pt` (which assembles the Portuguese part of the split): they must
never be used to change a rule.
"""

from __future__ import annotations

from .scenario_data import (
    CONSTRAINT,
    CRITICAL,
    ENTITY,
    GOAL,
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

NEVER = "never-tuned"

# --- Brazilian Portuguese: codes, protocols and numbers -------------------------------------------

FERNANDA = Scenario(
    name="blind_fernanda_salvador_trip",
    language="pt",
    summary="Viagem a Salvador com passagem comprada pra abril: localizador, voo trocado pela "
    "companhia, orçamento esquecido; outra usuária do mesmo tenant tem cidade, empresa e localizador.",
    other_user=(
        session(
            "juliana-voo",
            "2025-01-20",
            ("10:00", "u", "Oi, sou a Juliana, moro em Manaus e trabalho na Samsung."),
            ("10:00", "a", "Oi, Juliana! Como posso ajudar?"),
            ("10:01", "u", "Sou alérgica a frutos do mar, anota aí."),
            ("10:01", "a", "Anotado."),
            ("10:02", "u", "O localizador do meu voo pra Fortaleza é MWZ8RB."),
            ("10:03", "a", "Certo. Precisa de mais alguma coisa para a viagem?"),
        ),
    ),
    sessions=(
        session(
            "fernanda-passagem",
            "2025-01-27",
            ("20:40", "u", "oii! Fernanda aqui. comprei passagem pra Salvador em abril, primeira viagem sozinha!!"),
            ("20:40", "a", "Que demais, Fernanda! Como posso ajudar?"),
            ("20:41", "u", "guarda isso: o localizador é QTR5VE e o voo é o G3 1452"),
            ("20:42", "a", "Guardado: localizador QTR5VE, voo G3 1452."),
            ("20:43", "u", "moro em Campinas, então vou sair de Viracopos"),
            ("20:44", "u", "meu orçamento pra hospedagem é 1.800 reais"),
            ("20:45", "a", "Dá pra achar pousadas boas no Rio Vermelho nessa faixa."),
        ),
        session(
            "fernanda-roteiro",
            "2025-02-17",
            ("19:00", "u", "esquece o que eu falei do orçamento, minha tia mora lá e vou ficar na casa dela"),
            ("19:00", "a", "Melhor ainda! Vamos montar o roteiro?"),
            ("19:01", "u", "bora. só que odeio acordar cedo, então nada de passeio antes das 9 kkkk"),
            ("19:02", "u", "e sou alérgica a castanha de caju, cuidado com doce baiano"),
            ("19:03", "a", "Anotado. Pelourinho à tarde, praia depois das 10, e nada de castanha."),
            ("19:04", "u", "perfeito kkkkk"),
        ),
        session(
            "fernanda-troca",
            "2025-03-10",
            ("08:50", "u", "a Gol mudou meu voo! agora é o G3 1460, mesmo dia, só que mais tarde"),
            ("08:50", "a", "Pelo menos é no mesmo dia. Quer ajuda pra ajustar a chegada?"),
            ("08:51", "u", "não precisa. o localizador continua QTR5VE, confirmei no app"),
            ("08:52", "a", "Ótimo, então é só fazer o check-in com ele."),
            ("08:53", "u", "Entendi. obrigada!"),
        ),
        session(
            "fernanda-volta",
            "2025-04-14",
            ("21:20", "u", "voltei de Salvador! foi maravilhoso demais"),
            ("21:20", "a", "Que bom! O que você mais gostou?"),
            ("21:21", "u", "o pôr do sol no Farol da Barra. agora quero conhecer os Lençóis Maranhenses no fim do ano"),
            ("21:22", "u", "lembrando: odeio acordar cedo haha, então roteiro com calma"),
            ("21:23", "a", "Combinado. Nos Lençóis os passeios de fim de tarde são os mais bonitos."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Fernanda"),
        Fact(PROFILE, "home_city", "Campinas"),
        Fact(CRITICAL, "reservation_code", "QTR5VE"),
        Fact(CRITICAL, "flight_number", "G3 1460"),
        Fact(CRITICAL, "allergy:cashew", "castanha de caju"),
        Fact(PREFERENCE, "dislikes:acordar_cedo", "acordar cedo"),
        Fact(GOAL, "goal:conhecer_os_lencois_maranhenses", "conhecer os Lençóis Maranhenses"),
    ),
    superseded=(Change("flight_number", "G3 1452", "G3 1460"),),
    retracted=(Retraction("budget", "1800 BRL"),),
    mentions=(Mention("reservation_code", "QTR5VE", 2), Mention("dislikes:acordar_cedo", "acordar cedo", 2)),
    events=(Event("2025-04-01", text="Salvador em abril"),),
    probes=(
        Probe("qual é o localizador da minha reserva?", ("QTR5VE",), foreign=("MWZ8RB", "Manaus")),
        Probe("qual o número do meu voo?", ("1460",), stale=("1452",), foreign=("MWZ8RB",)),
        Probe("tenho alergia a quê?", ("caju",), foreign=("Samsung", "Manaus")),
        Probe("onde eu moro?", ("Campinas",), foreign=("Manaus", "Samsung")),
    ),
    allowed=(Fact(CONSTRAINT, "budget:hospedagem", "1800 BRL"),),
    split=NEVER,
)


ANTONIO = Scenario(
    name="blind_antonio_ribeirao_preto",
    language="pt",
    summary="Aposentado com duas filhas e um papagaio; protocolo do INSS; troca de remédio; "
    "'minha filha' dito ao assistente não é uma filha.",
    sessions=(
        session(
            "antonio-oi",
            "2024-08-05",
            ("15:00", "u", "Boa tarde. Meu nome é Antônio, tenho 68 anos, sou aposentado e moro em Ribeirão Preto."),
            ("15:00", "a", "Boa tarde, seu Antônio! Em que posso ajudar?"),
            ("15:01", "u", "Tomo losartana pra pressão, todo dia de manhã."),
            ("15:02", "u", "Foi minha filha Cláudia que me ensinou a usar esse aplicativo."),
            ("15:02", "a", "Que bom! Pode perguntar o que quiser."),
            ("15:03", "u", "Tenho um papagaio chamado Louro que canta o hino do Palmeiras."),
            ("15:04", "u", "Queria saber se papagaio pode comer manga."),
            ("15:05", "a", "Pode, em pedaços pequenos e sem o caroço."),
        ),
        session(
            "antonio-inss",
            "2024-08-26",
            ("09:30", "u", "Sexta passada fui no INSS dar entrada na revisão da aposentadoria."),
            ("09:30", "a", "Certo. Deu tudo certo lá?"),
            ("09:31", "u", "Deu. O número do protocolo é 284551903, guarda pra mim por favor."),
            ("09:32", "a", "Guardado: protocolo 284551903."),
            ("09:33", "u", "Minha outra filha, a Regina, é advogada e vai acompanhar o processo."),
            ("09:34", "u", "Obrigado, minha filha."),
        ),
        session(
            "antonio-remedio",
            "2024-09-16",
            ("10:15", "u", "O médico trocou meu remédio: não tomo mais losartana, agora é anlodipino."),
            ("10:15", "a", "Entendido. Siga certinho o horário que ele indicou."),
            ("10:16", "u", "A consulta de retorno é daqui a duas semanas."),
            ("10:17", "u", "Posso comer feijoada tomando esse remédio? kkk"),
            ("10:18", "a", "Com moderação, por causa do sal. Vale confirmar com o médico no retorno."),
        ),
        session(
            "antonio-pesca",
            "2024-10-07",
            ("16:40", "u", "Adoro pescar. Vou no rio Pardo com a Regina no feriado."),
            ("16:40", "a", "Que programa bom! Quer dicas de isca?"),
            ("16:41", "u", "Quero. E o protocolo é aquele mesmo, 284551903, até agora nada de resposta."),
            ("16:42", "a", "Dá pra acompanhar pelo Meu INSS com esse número."),
            ("16:43", "u", "Tá bom. Obrigado."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Antônio"),
        Fact(PROFILE, "age", "68"),
        Fact(PROFILE, "occupation", "aposentado"),
        Fact(PROFILE, "home_city", "Ribeirão Preto"),
        Fact(CRITICAL, "medication:amlodipine", "anlodipino"),
        Fact(CRITICAL, "protocol_number", "284551903"),
        Fact(ENTITY, "person:daughter", "Cláudia"),
        Fact(ENTITY, "person:daughter", "Regina"),
        Fact(ENTITY, "pet:parrot", "Louro"),
        Fact(PREFERENCE, "likes:pescar", "pescar"),
    ),
    retracted=(Retraction("medication:losartan", "losartana"),),
    mentions=(Mention("protocol_number", "284551903", 2),),
    events=(Event("2024-08-23", text="revisão da aposentadoria"), Event("2024-09-30", text="consulta de retorno")),
    probes=(
        Probe("que remédio eu tomo pra pressão?", ("anlodipino",), stale=("losartana",)),
        Probe("qual é o número do protocolo do INSS?", ("284551903",)),
        Probe("como se chamam minhas filhas?", ("Cláudia", "Regina")),
        Probe("como se chama meu papagaio?", ("Louro",)),
    ),
    allowed=(
        Fact(CRITICAL, "condition:hypertension", "pressão"),
        Fact(ENTITY, "person:daughter:occupation", "advogada"),
    ),
    split=NEVER,
)


PATRICIA = Scenario(
    name="blind_patricia_fortaleza",
    language="pt",
    summary="Dentista casada em Fortaleza: intolerância à lactose repetida, deixa de ser vegetariana, "
    "apólice do seguro, festa do filho.",
    sessions=(
        session(
            "patricia-cafe",
            "2024-05-13",
            ("06:50", "u", "Olá! Patrícia, 41 anos, dentista em Fortaleza. Sou casada com o Rodrigo."),
            ("06:50", "a", "Olá, Patrícia! Em que posso ajudar?"),
            ("06:51", "u", "tenho intolerância à lactose e sou vegetariana, então café da manhã é um desafio"),
            ("06:52", "a", "Tapioca com ovo e tomate, cuscuz com legumes ou iogurte de coco com frutas."),
            ("06:53", "u", "tapioca sempre salva kkkk"),
            ("06:54", "u", "algo que dê pra levar pro consultório?"),
            ("06:55", "a", "Muffin salgado de legumes sem queijo aguenta bem fora da geladeira."),
        ),
        session(
            "patricia-carro",
            "2024-06-03",
            ("13:20", "u", "bateram no meu carro ontem no estacionamento do shopping 😤"),
            ("13:20", "a", "Que chato! Alguém se machucou?"),
            ("13:21", "u", "não, só o para-choque. o número da apólice do seguro é 93177004512"),
            ("13:22", "u", "chamo a seguradora primeiro ou faço o BO?"),
            ("13:23", "a", "Registre o BO online e depois acione a seguradora com ele e a apólice."),
            ("13:24", "u", "ok obrigada"),
        ),
        session(
            "patricia-festa",
            "2024-07-15",
            ("20:00", "u", "deixei de ser vegetariana, o médico pediu pra eu voltar a comer peixe e frango"),
            ("20:00", "a", "Entendido. Quer ideias de refeições com peixe?"),
            ("20:01", "u", "depois. mas a intolerância à lactose continua, isso não muda"),
            ("20:02", "u", "meu filho Pedro faz 10 anos mês que vem e a festa vai ser em casa"),
            ("20:03", "u", "odeio festa infantil em buffet, prefiro mil vezes em casa"),
            ("20:04", "a", "Festa em casa com oficina de pizza é sucesso nessa idade, e dá pra fazer sem lactose."),
        ),
    ),
    facts=(
        Fact(PROFILE, "name", "Patrícia"),
        Fact(PROFILE, "age", "41"),
        Fact(PROFILE, "occupation", "dentista"),
        Fact(PROFILE, "home_city", "Fortaleza"),
        Fact(PROFILE, "marital_status", "casado"),
        Fact(ENTITY, "person:husband", "Rodrigo"),
        Fact(ENTITY, "person:son", "Pedro"),
        Fact(CRITICAL, "intolerance:lactose", "lactose"),
        Fact(CRITICAL, "policy_number", "93177004512"),
        Fact(PREFERENCE, "dislikes:festa_infantil_em_buffet", "festa infantil em buffet"),
    ),
    retracted=(Retraction("diet", "vegetariano"),),
    mentions=(Mention("intolerance:lactose", "lactose", 2),),
    events=(Event("2024-06-02", text="bateram no meu carro"), Event("2024-08-01", text="faz 10 anos")),
    probes=(
        Probe("qual o número da apólice do meu seguro?", ("93177004512",)),
        Probe("o que eu não posso consumir?", ("lactose",)),
        Probe("qual o nome do meu marido?", ("Rodrigo",)),
    ),
    allowed=(Fact(ENTITY, "person:son:age", "10"),),
    split=NEVER,
)
