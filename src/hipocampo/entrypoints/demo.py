"""``hipocampo demo``: one bilingual user over two conversations, then three recalls.

Marina moved from Brazil to Lisbon; she talks to her assistant in Portuguese about food (she is
allergic to shrimp) and, a month later, in English about a trip to Japan. The recalls ask in
Portuguese, in English, and in English about something said only in Portuguese.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

from rich.console import Console

from ..client import AsyncMemory
from .cli.render import show_recall

USER = "marina"
# The conversation the recalls are made from: a new one, so everything comes from memory.
NOW_THREAD = "today"

# Turns alternate, Marina first: (start time, [Marina, assistant, Marina, ...]).
THREADS: dict[str, tuple[datetime, list[str]]] = {
    "mudanca-lisboa": (
        datetime(2025, 3, 2, 19, 5, tzinfo=timezone.utc),
        [
            "Oi! Sou a Marina. Me mudei de Belo Horizonte para Lisboa em janeiro.",
            "Que bom, Marina! Lisboa é linda. Como está sendo a adaptação?",
            (
                "Bem, mas ainda estou aprendendo a cozinhar com o que tem no mercado daqui. Ah, "
                "importante: sou alérgica a camarão, então nada de receitas com frutos do mar."
            ),
            "Anotado: nada de camarão nem frutos do mar. Quer sugestões de pratos sem eles?",
            "Quero! O meu namorado, o Tiago, adora bacalhau, mas eu prefiro algo com frango.",
            "Então um frango piri-piri caseiro, e o Tiago fica com o bacalhau à Brás.",
        ],
    ),
    "japan-trip": (
        datetime(2025, 4, 10, 20, 30, tzinfo=timezone.utc),
        [
            "Hi again! Tiago and I are finally going to Japan: we fly to Tokyo on October 14th.",
            "How exciting! How long will you stay?",
            "Two weeks, Tokyo first and then Kyoto. My sister Helena might join us in Kyoto.",
            "Lovely. Shall I put together a list of restaurants for you?",
            (
                "Yes please, but remember I can't eat shrimp. Oh, and our cat Bolinho stays with "
                "our neighbour Dona Fátima while we're away."
            ),
            "Noted: no shrimp, and Bolinho is in good hands. I'll look for allergen menus.",
        ],
    ),
}

QUERIES = [
    ("Portuguese", "Do que eu sou alérgica?"),
    ("English", "When is the flight to Tokyo?"),
    ("cross-lingual: asked in English, said in Portuguese", "Where does Marina live?"),
]


def _messages(thread_id: str) -> list[dict[str, object]]:
    start, turns = THREADS[thread_id]
    return [
        {
            "role": "user" if i % 2 == 0 else "assistant",
            "name": "Marina" if i % 2 == 0 else None,
            "content": text,
            "timestamp": (start + timedelta(minutes=2 * i)).isoformat(),
            # Fixed ids: running the demo twice on one --db stores it once.
            "id": f"demo-{thread_id}-{i:02d}",
        }
        for i, text in enumerate(turns)
    ]


async def run_demo(mem: AsyncMemory, console: Console, *, tenant: str = "default", open_s: float = 0.0) -> None:
    """Write the conversations, wait for indexing, and show the recalls with their timings."""
    console.rule("hipocampo demo")
    console.print(
        f"store {mem.settings.db}, embedder {mem.settings.embedder} (opened in {open_s:.2f} s)",
        soft_wrap=True,
    )

    acks = []
    for thread_id in THREADS:
        start = time.perf_counter()
        await mem.add(USER, thread_id, _messages(thread_id), tenant_id=tenant)
        acks.append((time.perf_counter() - start) * 1000)
    start = time.perf_counter()
    await mem.flush()
    indexing_s = time.perf_counter() - start
    total = sum(len(turns) for _, turns in THREADS.values())
    console.print(
        f"wrote {total} messages of {USER!r} in {len(THREADS)} threads: "
        f"write ack {', '.join(f'{ms:.1f}' for ms in acks)} ms per thread; "
        f"indexing {indexing_s:.2f} s"
    )

    for i, (label, query) in enumerate(QUERIES, 1):
        console.rule(f"{i}. {label}")
        result = await mem.recall(USER, NOW_THREAD, query, tenant_id=tenant, token_budget=400)
        show_recall(console, result, explain=True)  # its timings line ends with the recall's ms
