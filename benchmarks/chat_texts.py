"""Short bilingual chat texts shared by the load benchmarks (``http_load.py``, ``pg_ingest.py``,
``workers.py``): a subject dropped into a sentence template, so every run writes varied turns
that still share words, as real conversations do."""

from __future__ import annotations

SUBJECTS = [
    "Lisboa",
    "Porto",
    "the marathon",
    "my sister Carla",
    "o trabalho novo",
    "peanuts",
    "the dentist",
    "a viagem ao Japão",
    "my cat Mimi",
    "guitar lessons",
    "o aluguel",
    "the Python course",
]
TEMPLATES = [
    "I keep thinking about {s} lately.",
    "Amanhã vou falar sobre {s} com a equipe.",
    "Do you remember what I said about {s}?",
    "Não gosto muito de {s}, para ser sincera.",
    "Last week {s} took most of my time.",
    "Preciso planejar {s} para o mês que vem.",
]
QUESTIONS = ["what do you know about {s}?", "o que eu disse sobre {s}?", "when did I mention {s}?"]
