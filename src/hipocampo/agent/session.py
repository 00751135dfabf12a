"""What an agent session knows about its memory: whose it is and how the tools behave."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..client import MEMORY_TYPE_DESCRIPTIONS
from ..domain.ids import check_path_id
from ..domain.model import MemoryKind, MemoryType

_CUSTOM_TYPE = re.compile(r"[a-z][a-z0-9_]{0,39}")

DEFAULT_SYSTEM_PROMPT = (
    "You are a helpful assistant with long-term memory. Use what you remember about the user when it "
    "helps; save new durable facts with save_memory, fix wrong ones with update_memory and remove "
    "ones the user asks you to forget with delete_memory. Never invent memories."
)


class SessionConfig(BaseModel):
    """One agent session: the user and thread it serves, and how its memory tools behave.

    ``memory_types`` maps each type the agent may save to a description; the descriptions are
    injected into the system prompt so the model knows what each type is for. Beyond the built-in
    types (user_profile, preference, goal, constraint, critical_info, entity), an agent may name
    its own (a marketing agent's campaign, metric, threshold, insight: lowercase identifiers), each
    with a description, since the model has nothing else to go on.

    ``chat_model`` names the model the agent answers with (``"gpt-4o"``, ``"gemini-2.0-flash"``);
    hipocampo records it, the agent's own code builds the model.
    """

    model_config = ConfigDict(extra="forbid")

    user_id: str
    thread_id: str
    tenant_id: str = "default"
    agent_id: str | None = None
    chat_model: str | None = Field(None, description="Name of the chat model the agent runs on.")
    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    memory_limit: int = Field(20, ge=1, le=200, description="Most memories get_memory returns.")
    memory_min_relevance: float = Field(
        0.6,
        ge=0.0,
        le=1.0,
        description="Semantic hits below this calibrated relevance are dropped (0.6: pairs this close were "
        "related 3 times in 5; see domain/retrieval/relevance.py).",
    )
    use_pre_memory_load: bool = Field(True, description="Inject recalled memory before the model's first turn.")
    memory_types: dict[str, str] = Field(default_factory=lambda: dict(MEMORY_TYPE_DESCRIPTIONS))

    @field_validator("user_id", "thread_id", "tenant_id")
    @classmethod
    def _ids(cls, value: str, info) -> str:  # noqa: ANN001 - pydantic's ValidationInfo
        return check_path_id(info.field_name, value)  # type: ignore[return-value]  # NFC, no "/", never None

    @field_validator("memory_types")
    @classmethod
    def _types(cls, value: dict[str, str]) -> dict[str, str]:
        known = {t.value for t in MemoryType} | {k.value for k in MemoryKind}
        for name, desc in value.items():
            if name in known:
                continue
            if not _CUSTOM_TYPE.fullmatch(name):
                raise ValueError(f"memory type {name!r} must be a lowercase identifier (campaign, metric, ...)")
            if not (desc or "").strip():
                raise ValueError(f"custom memory type {name!r} needs a description")
        if not value:
            raise ValueError("memory_types must name at least one type")
        kinds = sorted(set(value) & {k.value for k in MemoryKind})
        if kinds:
            raise ValueError(f"{', '.join(kinds)} name kinds of memory, not types an agent saves")
        return {name: desc or MEMORY_TYPE_DESCRIPTIONS[name] for name, desc in value.items()}

    @property
    def custom_memory_types(self) -> tuple[str, ...]:
        """The session's types beyond the built-in ones."""
        builtin = {t.value for t in MemoryType}
        return tuple(name for name in self.memory_types if name not in builtin)

    def render_system_prompt(self, memory_context: str | None = None) -> str:
        """The system prompt with the memory types described and, if given, recalled memory appended."""
        types = "\n".join(f"- {name}: {desc}" for name, desc in self.memory_types.items())
        parts = [self.system_prompt.strip(), f"Memory types you can save:\n{types}"]
        if memory_context:
            parts.append(f"What you remember (from hipocampo):\n{memory_context.strip()}")
        return "\n\n".join(parts)
