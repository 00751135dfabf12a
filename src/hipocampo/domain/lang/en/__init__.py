"""English: the bundle's identity; its data and rules are the modules beside this one."""

from __future__ import annotations

from .. import Language

LANGUAGE = Language(code="en", name="English", variants=("en-US", "en-GB"), stemmer="english")
