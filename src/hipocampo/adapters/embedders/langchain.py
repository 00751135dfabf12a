"""Any LangChain ``Embeddings`` object as an Embedder, plus factories for OpenAI and Google.

These are hosted models: they need the network and an API key (or a local OpenAI-compatible
server via ``base_url``). LangChain is imported only by the factories, never by this module.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from ...domain.errors import ConfigurationError
from ...ports import BaseEmbedder
from ._vectors import unit_rows, unit_vector

# Dimensions of well-known models, so building an embedder does not cost a network call.
_KNOWN_DIMS = {
    "openai/text-embedding-3-small": 1536,
    "openai/text-embedding-3-large": 3072,
    "openai/text-embedding-ada-002": 1536,
    "google/text-embedding-004": 768,
}


class LangChainEmbeddings(Protocol):
    """The two methods of ``langchain_core.embeddings.Embeddings`` this adapter uses."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


class LangChainEmbedder(BaseEmbedder):
    """Adapts a LangChain ``Embeddings`` object; vectors are re-normalised to unit length.

    ``name`` is stored with every vector, so give each model its own (e.g. ``"openai/<model>"``).
    When ``dim`` is not given it is learnt from the first call, or from embedding a short probe
    the first time ``dim`` is read (which calls the provider).
    """

    concurrent_calls = True  # HTTP clients: calls run side by side, a query never waits for a batch

    def __init__(self, embeddings: LangChainEmbeddings, name: str, dim: int | None = None) -> None:
        self._embeddings = embeddings
        self.name = name
        self._dim = dim
        self._dim_lock = threading.Lock()

    @property
    def dim(self) -> int:
        if self._dim is None:
            with self._dim_lock:
                if self._dim is None:
                    self._dim = len(self._embeddings.embed_query("dimension probe"))
        return self._dim

    def _learn_dim(self, width: int) -> int:
        if self._dim is None:
            self._dim = width
        elif width != self._dim:
            raise ConfigurationError(f"Embedder {self.name!r} returned {width}-dim vectors, expected {self._dim}.")
        return self._dim

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Shape ``(len(texts), dim)``; an empty list makes no provider call once dim is known."""
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        vectors = np.asarray(self._embeddings.embed_documents(list(texts)), dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(texts):
            raise ConfigurationError(
                f"Embedder {self.name!r} returned an array of shape {vectors.shape} for {len(texts)} texts."
            )
        return unit_rows(vectors, self._learn_dim(vectors.shape[1]))

    def embed_query(self, text: str) -> np.ndarray:
        """Shape ``(dim,)``; the provider applies any query-specific handling."""
        vector = np.asarray(self._embeddings.embed_query(text), dtype=np.float32)
        return unit_vector(vector, self._learn_dim(vector.shape[0]))


def openai_embedder(model: str = "text-embedding-3-small", base_url: str | None = None) -> LangChainEmbedder:
    """OpenAI embeddings, or any OpenAI-compatible server at ``base_url`` (extra ``[langchain]``).

    Reads ``OPENAI_API_KEY`` the way ``langchain_openai`` does.
    """
    try:
        from langchain_openai import OpenAIEmbeddings
    except ImportError as exc:
        raise ConfigurationError(
            "The openai embedder needs LangChain's OpenAI integration: pip install 'hipocampo[langchain]'"
        ) from exc
    options: dict[str, Any] = {"model": model}
    if base_url is not None:
        # Compatible servers take plain strings; the default client-side tokenisation would also
        # fetch a tiktoken file from the network.
        options.update(base_url=base_url, check_embedding_ctx_length=False)
    try:
        embeddings = OpenAIEmbeddings(**options)
    except Exception as exc:  # pydantic or OpenAI client errors, typically a missing key
        raise ConfigurationError(f"Could not configure OpenAI embeddings ({exc}).") from exc
    name = f"openai/{model}"
    return LangChainEmbedder(embeddings, name, None if base_url else _KNOWN_DIMS.get(name))


def google_embedder(model: str = "models/text-embedding-004") -> LangChainEmbedder:
    """Google Generative AI embeddings (extra ``[google]``); reads ``GOOGLE_API_KEY``."""
    try:
        from langchain_google_genai import GoogleGenerativeAIEmbeddings
    except ImportError as exc:
        raise ConfigurationError(
            "The google embedder needs LangChain's Google integration: pip install 'hipocampo[google]'"
        ) from exc
    try:
        embeddings = GoogleGenerativeAIEmbeddings(model=model)
    except Exception as exc:  # pydantic or client errors, typically a missing key
        raise ConfigurationError(f"Could not configure Google embeddings ({exc}).") from exc
    name = f"google/{model.removeprefix('models/')}"
    return LangChainEmbedder(embeddings, name, _KNOWN_DIMS.get(name))
