"""What we ask a language model for, and the shapes its answers must take. Pure: no I/O.

The output models are plain pydantic v2 classes that LangChain's ``with_structured_output`` and
JSON-mode servers (llama.cpp, Ollama, vLLM) can both use. Their JSON schemas avoid what strict
providers refuse: no ``default`` and no numeric bounds (we check those in validators), so OpenAI's
strict structured outputs and Gemini accept them as they are, while defaults still fill in what a
small model leaves out.

The prompt builders return a :class:`Prompt` (system + user text). Each system text spells out the
JSON shape too, because JSON mode constrains syntax but does not tell the model what to write.
Answers are asked for in the language of the input, so Portuguese turns give Portuguese memories.
"""

from __future__ import annotations

import json
import logging
import os
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from functools import lru_cache
from typing import Any, Literal, NamedTuple, TypeVar, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    ValidatorFunctionWrapHandler,
    create_model,
    field_validator,
    model_validator,
)

# --- errors (to move to domain/errors.py) -------------------------------------------------------
from ..errors import HipocampoError, LLMBudgetExceeded, LLMError  # noqa: E402, F401  (re-exported)

log = logging.getLogger(__name__)

# --- output schemas ---------------------------------------------------------------------------

MemoryTypeName = Literal["user_profile", "preference", "goal", "constraint", "critical_info", "entity"]
ReconcileAction = Literal["ADD", "UPDATE", "DELETE", "NONE"]


def _drop_defaults(schema: dict[str, Any]) -> None:
    """Remove ``default`` from the published schema (strict providers reject it)."""
    for prop in schema.get("properties", {}).values():
        prop.pop("default", None)


class _Out(BaseModel):
    model_config = ConfigDict(extra="ignore", json_schema_extra=_drop_defaults)


class FactOut(_Out):
    """One atomic fact about the user (or someone in their life) stated in a turn."""

    memory_type: MemoryTypeName = Field(description="Category of the fact.")
    key: str = Field(
        description="snake_case slot in English: 'home_city' for a single-valued attribute, "
        "'category:item' for one item of a set ('likes:jazz', 'allergy:peanuts')."
    )
    value: str = Field(description="The value, in the language of the turn ('Porto', 'jazz').")
    content: str = Field(description="One self-contained sentence in the third person ('The user lives in Porto.').")
    confidence: float = Field(description="0 to 1: 1 when stated outright, lower when implied.")
    negated: bool = Field(False, description="True when the turn says this is no longer or not true.")
    previous_value: str | None = Field(None, description="The former value when the turn states a change.")
    event_date: str | None = Field(None, description="ISO date (YYYY-MM-DD) the fact refers to, if any.")
    people: list[str] = Field(default_factory=list, description="Names of the people the fact mentions.")

    @field_validator("confidence", mode="before")
    @classmethod
    def _confidence(cls, v: Any) -> Any:
        # Small models often answer in percent; anything else out of range is a wrong answer.
        if isinstance(v, (int, float)) and not isinstance(v, bool) and 1 < v <= 100:
            return v / 100
        return v

    @field_validator("confidence")
    @classmethod
    def _confidence_range(cls, v: float) -> float:
        if not 0 <= v <= 1:
            raise ValueError("confidence must be between 0 and 1")
        return v

    @field_validator("previous_value", "event_date", mode="before")
    @classmethod
    def _blank_is_none(cls, v: Any) -> Any:
        if isinstance(v, str) and v.strip().lower() in {"", "null", "none", "unknown", "n/a"}:
            return None
        return v

    @field_validator("event_date")
    @classmethod
    def _iso_date(cls, v: str | None) -> str | None:
        """Keep a parsable ISO date (or datetime); drop anything else rather than fail the fact."""
        if v is None:
            return None
        try:
            return (datetime.fromisoformat(v) if "T" in v else date.fromisoformat(v)).isoformat()
        except ValueError:
            return None

    @model_validator(mode="after")
    def _yes_no_values(self) -> FactOut:
        """Small models write a retraction as an update to "false" or "none" (``goal:half_marathon``
        = "false") and a set item as "true": the first is a retraction of the slot (negated, no
        value: :func:`~hipocampo.domain.truth.reconcile.decide` then closes what the slot holds),
        the second names the item its key already names ("likes:jazz" = "jazz")."""
        word = _bare(self.value)
        if word in NULL_VALUES:
            self.value, self.negated = "", True
        elif word in TRUE_VALUES and ":" in self.key:
            self.value = self.key.split(":", 1)[1].replace("_", " ").strip()
        return self


class FactsOut(_Out):
    facts: list[FactOut] = Field(description="Durable facts; empty when the turn states none.")

    @field_validator("facts", mode="wrap")
    @classmethod
    def _good_items(cls, v: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        """One bad item (a type nobody configured, "high" as a confidence) beside good ones costs
        that fact, not the answer: the other facts of the turn are kept, and the bad one is
        logged. An answer with no good item stays a wrong answer (the adapter asks again).
        Inherited by :func:`facts_schema`'s subclasses, checked against their own types."""
        try:
            return handler(v)
        except ValidationError as whole:
            if not isinstance(v, list):
                raise
            error = whole
        kept: list[Any] = []
        for item in v:
            try:
                kept += handler([item])
            except ValidationError as exc:
                log.info("LLM fact dropped, it does not fit the schema: %s", " ".join(str(exc).split())[:300])
        if not kept:
            raise error
        return kept


BUILTIN_TYPE_NAMES: tuple[str, ...] = get_args(MemoryTypeName)


def facts_schema(memory_types: Iterable[str]) -> type[FactsOut]:
    """The extraction answer's schema for these memory types: :class:`FactsOut` for the built-in
    six, else a subclass whose ``memory_type`` is an enum of exactly the names given (custom ones
    included), so providers with structured outputs cannot answer a type nobody configured and a
    deployment's own types (campaign, metric...) pass validation. One class per set of names, so
    adapters that cache a runnable per schema build it once."""
    names = tuple(dict.fromkeys(memory_types))
    if not names or set(names) == set(BUILTIN_TYPE_NAMES):
        return FactsOut
    return _facts_schema(names)


@lru_cache(maxsize=256)
def _facts_schema(names: tuple[str, ...]) -> type[FactsOut]:
    fact = create_model(
        "FactOut",
        __base__=FactOut,
        __doc__=FactOut.__doc__,
        # A Literal over names known only at run time: type checkers cannot follow it.
        memory_type=(Literal[names], Field(description="Category of the fact: one of the memory types listed.")),  # type: ignore[arg-type]
    )
    facts: Any = list[fact]  # a class built at run time
    return create_model(
        "FactsOut",
        __base__=FactsOut,
        facts=(facts, Field(description="Durable facts; empty when the turn states none.")),
    )


class ReconcileOut(_Out):
    """What to do with a new fact given the memories that may overlap with it."""

    action: ReconcileAction
    target_id: str | None = Field(None, description="Id of the existing memory to update or delete.")
    content: str | None = Field(None, description="For UPDATE: the merged, up-to-date sentence.")
    reason: str = Field("", description="A few words on why.")

    @field_validator("action", mode="before")
    @classmethod
    def _upper(cls, v: Any) -> Any:
        return v.strip().upper() if isinstance(v, str) else v

    @field_validator("target_id", mode="before")
    @classmethod
    def _bare_id(cls, v: Any) -> Any:
        return _listed_id(v)

    @model_validator(mode="after")
    def _needs_target(self) -> ReconcileOut:
        if self.action in ("UPDATE", "DELETE") and not self.target_id:
            raise ValueError(f"{self.action} needs a target_id")
        if self.action == "UPDATE" and not self.content:
            raise ValueError("UPDATE needs the merged content")
        return self


def _listed_id(v: Any) -> Any:
    """An id as listed, without the brackets the prompt shows it in: Qwen2.5-Coder answered
    ``"[fact_3375...]"`` for ``fact_3375...``."""
    return v.strip().strip("[]").strip() if isinstance(v, str) else v


class RevisionOut(_Out):
    """One change to a fact already stored, as the model proposes it. Every field may be missing
    or wrong here: the facts service checks each revision on its own (a known op, the id of one
    of the user's current facts, a value for a correction) and skips a bad one with a log line,
    rather than lose the whole answer and the facts that came with it."""

    op: str = Field("", description="CORRECT (the fact has another value) or RETRACT (it is not true).")
    id: str = Field("", description="Id of the listed fact to correct or retract.")
    value: str | None = Field(None, description="For CORRECT: the right value, in the language of the turn.")
    content: str | None = Field(None, description="For CORRECT: the corrected fact as one third-person sentence.")
    reason: str = Field("", description="A few words on what in the conversation shows the fact is wrong.")

    @field_validator("op", mode="before")
    @classmethod
    def _op(cls, v: Any) -> Any:
        return v.strip().upper() if isinstance(v, str) else v

    @field_validator("id", "reason", mode="before")
    @classmethod
    def _text(cls, v: Any) -> Any:
        return "" if v is None else str(v).strip() if isinstance(v, (str, int)) else v

    @field_validator("id", mode="after")
    @classmethod
    def _bare_id(cls, v: str) -> str:
        return _listed_id(v) or ""

    @field_validator("value", "content", mode="before")
    @classmethod
    def _blank_is_none(cls, v: Any) -> Any:
        return None if isinstance(v, str) and not v.strip() else v

    @model_validator(mode="after")
    def _correct_to_nothing(self) -> RevisionOut:
        """A correction to "false" or "none" is how small models write a retraction."""
        if self.op == "CORRECT" and self.value is not None and _bare(self.value) in NULL_VALUES:
            self.op, self.value, self.content = "RETRACT", None, None
        return self


class RevisionsOut(_Out):
    revisions: list[RevisionOut] = Field(
        default_factory=list, description="Changes to listed facts; empty when every fact still holds."
    )


class SummaryOut(_Out):
    summary: str


class HydeOut(_Out):
    passage: str


# --- parsing model output ---------------------------------------------------------------------

T = TypeVar("T")
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


def extract_json(text: str) -> Any:
    """The first JSON value in ``text``: inside a ```json fence, or after any leading prose.

    Raises ``ValueError`` when there is none.
    """
    fenced = _FENCE.search(text)
    body = fenced.group(1) if fenced else text
    if not fenced and "```" in text:  # an opening fence the answer never closed (cut off)
        body = text.split("```", 1)[1].removeprefix("json").removeprefix("JSON")
    decoder = json.JSONDecoder()
    for match in re.finditer(r"[{\[]", body):
        try:
            return decoder.raw_decode(body, match.start())[0]
        except json.JSONDecodeError:
            # Before the next bracket, which may be inside this value: an answer cut off here
            # keeps its complete part, not just its first inner object.
            salvaged = _salvage(body[match.start() :])
            if salvaged is not None:
                return salvaged
    raise ValueError(f"no JSON found in the model's answer: {text[:200]!r}")


_CLOSERS = {"{": "}", "[": "]"}
SALVAGE_TRIES = 64
"""How many cut points :func:`_salvage` tries, from the end; each is one ``json.loads``."""


def _salvage(body: str) -> Any:
    """The complete part of a JSON answer cut off mid-way (a model out of tokens, a timeout while
    streaming): the text up to the last complete value, with the brackets still open closed.
    ``{"facts": [{...}, {"key": "job", "va`` gives ``{"facts": [{...}]}``. None when nothing
    complete was written (the answer then fails, and is asked again). Only a cut answer is mended: its first bracket must still be open at
    the end, so a full answer that is merely invalid is not rewritten into something else."""
    start = next((i for i, c in enumerate(body) if c in _CLOSERS), None)
    if start is None:
        return None
    stack: list[str] = []
    cuts: list[tuple[int, str]] = []  # (end of a complete value, the closers it then needs)
    in_string = escaped = False
    for i in range(start, len(body)):
        c = body[i]
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
            continue
        if c == '"':
            in_string = True
        elif c in _CLOSERS:
            stack.append(_CLOSERS[c])
        elif c in "}]":
            if not stack or stack.pop() != c:
                return None
            if not stack:
                return None  # it closed: not a cut answer, just an invalid one
            cuts.append((i + 1, "".join(reversed(stack))))
    if not stack:
        return None
    for end, closers in reversed(cuts[-SALVAGE_TRIES:]):
        try:
            return json.loads(body[start:end].rstrip().rstrip(",") + closers)
        except json.JSONDecodeError:
            continue
    return None


# --- checking values against the words they came from -------------------------------------------

NULL_VALUES = frozenset(
    {"false", "none", "null", "nil", "no", "n/a", "na", "nothing", "unknown", "undefined", "empty", "-"}
    | {"nenhum", "nenhuma", "nada", "não", "nao", "falso", "sem", "ninguém", "ninguem"}
)
"""Values that say "not any more" rather than name a value (lower-cased, stripped of punctuation)."""
TRUE_VALUES = frozenset({"true", "yes", "sim", "verdadeiro"})

_STOP = frozenset(
    "the a an of at in on to for and or with my his her their our from by as is "
    "o os as um uma uns umas de do da dos das em no na nos nas ao aos à às e ou com meu minha por para pra".split()
)
_TOKEN = re.compile(r"\w+")


def _bare(value: str | None) -> str:
    return (value or "").strip().strip(".!?\"'").strip().lower()


def _fold(text: str) -> str:
    """Lower case without accents, so "São Paulo" and "sao paulo" meet."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _words(text: str) -> list[str]:
    return _TOKEN.findall(_fold(text))


_ENDINGS = frozenset(
    {"", "a", "o", "e", "s", "as", "os", "es", "is", "ns", "ao", "oes", "aes", "ing", "ed", "er", "ers"}
)
"""What two forms of one word may differ by at the end (accents folded): gender and number in
Portuguese ("vegetariano"/"vegetariana", "gato"/"gatos"), the common English suffixes."""


def _same_word(word: str, other: str) -> bool:
    """The same word up to an inflection ("gato"/"gatos", "vegetarian"/"vegetariana"), never a
    translation ("Lisbon"/"Lisboa": "n" and "a" are not both endings of one stem)."""
    if word == other:
        return True
    common = len(os.path.commonprefix([word, other]))
    return common >= 3 and word[common:] in _ENDINGS and other[common:] in _ENDINGS


def grounded(value: str | None, *texts: str | None) -> bool:
    """Whether every content word of ``value`` is a word of one of ``texts`` (up to accents, case
    and inflection). A model's value that is not is a translation ("Lisbon" for a turn that says
    "Lisboa"), a paraphrase or an invention: shown as the user's own words it would be wrong, so
    the facts service drops it (or its old value) rather than store it. A value of stop words
    only ("a", "de") is never grounded."""
    wanted = [w for w in _words(value or "") if w not in _STOP]
    if not wanted:
        return False
    have = [w for text in texts if text for w in _words(text)]
    return all(any(_same_word(w, h) for h in have) for w in wanted)


def parse_structured(raw: Any, schema: type[T]) -> T:
    """Validate a model's answer (an instance, a dict or JSON text) into ``schema``.

    ``schema`` is a pydantic model or anything pydantic's ``TypeAdapter`` takes. A bare JSON value
    where a one-field model is wanted (a list where ``FactsOut`` is asked for) is wrapped into that
    field: small models often drop the envelope. Raises ``ValueError`` (pydantic's
    ``ValidationError`` is one) when the answer does not fit.
    """
    model = _model_class(schema)
    if model is not None and isinstance(raw, model):
        return raw  # type: ignore[return-value]
    if isinstance(raw, BaseModel):
        raw = raw.model_dump()
    if isinstance(raw, str):
        raw = extract_json(raw)
    if model is not None:
        fields = list(model.model_fields)
        if len(fields) == 1 and not (isinstance(raw, dict) and fields[0] in raw):
            raw = {fields[0]: raw}
    return TypeAdapter(schema).validate_python(raw)


def _model_class(schema: Any) -> type[BaseModel] | None:
    try:
        return schema if issubclass(schema, BaseModel) else None
    except TypeError:  # a generic alias such as list[FactOut]
        return None


# --- prompts ----------------------------------------------------------------------------------


class Prompt(NamedTuple):
    system: str
    user: str


_LANGUAGE = "Write every free-text field in the language of the input (Portuguese stays Portuguese)."

_FACTS_SHAPE = (
    '{"facts": [{"memory_type": "<one of the types>", "key": "<snake_case slot>", "value": "<value>", '
    '"content": "<one sentence>", "confidence": <0..1>, "negated": <true|false>, '
    '"previous_value": "<former value>" or null, "event_date": "<YYYY-MM-DD>" or null, '
    '"people": ["<name>", ...]}]}'
)


def _when(value: datetime | date | str) -> str:
    if isinstance(value, str):
        return value
    day = value.date() if isinstance(value, datetime) else value
    return f"{value.isoformat()} ({day.strftime('%A')})"


def _quoted(text: str) -> str:
    # Fenced so that instructions inside a user's message read as data, not as our instructions.
    return f"<<<\n{text.strip()}\n>>>"


def extraction_prompt(
    turn: str,
    speaker: str,
    reference_time: datetime | date | str,
    memory_types: Mapping[str, str],
    language_hint: str | None = None,
) -> Prompt:
    """Ask for the durable facts one turn states, as :class:`FactsOut` (or, for a deployment's
    own types, :func:`facts_schema` of ``memory_types``). Each type is listed with its
    description: for a custom type (a campaign, a metric) the description is all the model knows."""
    types = "\n".join(f"- {name}: {description}" for name, description in memory_types.items())
    language = f"The conversation is in {language_hint}. {_LANGUAGE}" if language_hint else _LANGUAGE
    system = f"""You extract durable facts about the user from one conversation turn, for a long-term memory.

Memory types:
{types}

Rules:
- Keep only what the speaker asserts and is worth remembering in later conversations. Ignore \
questions, greetings, small talk, hypotheticals and the assistant's own suggestions.
- "memory_type" is one of the type names listed above, the one whose description fits; leave out \
what fits none of them.
- One fact per item, atomic: "content" is one self-contained sentence in the third person \
("The user is allergic to peanuts.").
- "key" is an English snake_case slot: a single-valued attribute has no colon (home_city, employer); \
one item of a set is "category:item" (likes:jazz, allergy:peanuts). "value" is the bare value.
- "negated": true when the turn says the fact stopped or is not true ("I no longer eat meat"); \
"previous_value" is the former value when the turn states a change.
- Resolve relative dates ("yesterday", "next Friday") against the reference time into \
"event_date" (YYYY-MM-DD); null when the fact has no date.
- "confidence": 1 when stated outright, lower when implied.
- {language}

Answer with JSON only, no prose, of this shape:
{_FACTS_SHAPE}
Answer {{"facts": []}} when the turn states nothing durable."""
    user = f"Reference time: {_when(reference_time)}\nSpeaker: {speaker}\nTurn:\n{_quoted(turn)}"
    return Prompt(system, user)


def reconcile_prompt(new_fact: str, existing: Sequence[tuple[str, str, datetime | date | str | None]]) -> Prompt:
    """Ask how a new fact relates to existing memories ``(id, content, valid_from)``, as :class:`ReconcileOut`."""
    system = f"""You keep a user's long-term memory consistent. Compare a new fact with the existing \
memories and choose one action:
- ADD: the fact is new information.
- UPDATE: it changes or refines one existing memory; give that memory's id as "target_id" and the \
merged, up-to-date sentence as "content". When they conflict, the new fact wins.
- DELETE: it says an existing memory is no longer true and nothing replaces it; give its id.
- NONE: the memory already says this, or it is not worth keeping.
"target_id" must be one of the ids listed. {_LANGUAGE}

Answer with JSON only, of this shape:
{{"action": "ADD|UPDATE|DELETE|NONE", "target_id": "<id>" or null, "content": "<sentence>" or null, \
"reason": "<a few words>"}}"""
    lines = [
        f"- [{memory_id}]" + (f" (since {_when(since)})" if since else "") + f" {content}"
        for memory_id, content, since in existing
    ]
    memories = "\n".join(lines) if lines else "(none)"
    user = f"New fact:\n{_quoted(new_fact)}\nExisting memories:\n{memories}"
    return Prompt(system, user)


_REVISIONS_SHAPE = (
    '{"revisions": [{"op": "CORRECT", "id": "<listed id>", "value": "<right value>", '
    '"content": "<one sentence>", "reason": "<a few words>"}, '
    '{"op": "RETRACT", "id": "<listed id>", "value": null, "content": null, "reason": "<a few words>"}]}'
)


def revision_prompt(
    conversation: Sequence[tuple[str, str]],
    facts: Sequence[tuple[str, str, datetime | date | str | None]],
    reference_time: datetime | date | str,
) -> Prompt:
    """Ask which of a user's stored facts ``(id, content, valid_from)`` the new turns of a
    conversation ``(speaker, text)`` show to be wrong, as :class:`RevisionsOut`.

    Many stored facts were read by simple rules, which misread jokes, questions, other people's
    lives and odd phrasing; the model sees them beside the words they came from and may correct or
    retract them, never add new ones (extraction does that) nor touch a fact the turns leave alone.
    """
    system = f"""You review a user's long-term memory against the newest turns of a conversation. \
Some stored facts were extracted by simple rules and can be wrong: a misread value, something \
said about another person, a question, a joke or a hypothetical taken as a fact; others are \
earlier facts the new turns show are no longer true.

For each listed fact that the turns show to be wrong or outdated, give one revision:
- CORRECT: the fact's subject is right but its value is not (or changed): give the right "value" \
and the corrected fact as "content", one self-contained third-person sentence.
- RETRACT: the fact is not true and nothing replaces it.
Leave out every fact the turns do not contradict: when in doubt, leave it. Do not add new facts. \
"id" must be one of the ids listed. {_LANGUAGE}

Answer with JSON only, of this shape:
{_REVISIONS_SHAPE}
Answer {{"revisions": []}} when every fact still holds."""
    lines = [
        f"- [{fact_id}]" + (f" (since {_when(since)})" if since else "") + f" {content}"
        for fact_id, content, since in facts
    ]
    turns = "\n".join(f"{speaker}: {text}" for speaker, text in conversation)
    user = (
        f"Reference time: {_when(reference_time)}\nStored facts:\n"
        + ("\n".join(lines) if lines else "(none)")
        + f"\nNew turns:\n{_quoted(turns)}"
    )
    return Prompt(system, user)


def summary_prompt(previous_summary: str | None, turns: Sequence[tuple[str, str] | str], max_tokens: int) -> Prompt:
    """Ask for a rolling thread summary as :class:`SummaryOut`; ``turns`` are ``(speaker, text)``
    pairs or lines already formatted."""
    words = max(20, max_tokens * 3 // 4)
    system = f"""You maintain the running summary of a conversation. Fold the new turns into the \
previous summary: keep names, decisions, dates, numbers, preferences and open questions; drop \
greetings and filler. Write in the third person, at most about {max_tokens} tokens (~{words} words). \
{_LANGUAGE}

Answer with JSON only: {{"summary": "<the updated summary>"}}"""
    lines = [t if isinstance(t, str) else f"{t[0]}: {t[1]}" for t in turns]
    user = (
        f"Previous summary:\n{_quoted(previous_summary) if previous_summary else '(none)'}\n"
        f"New turns:\n{_quoted(chr(10).join(lines))}"
    )
    return Prompt(system, user)


def hyde_prompt(query: str) -> Prompt:
    """Ask for a hypothetical memory that would answer ``query`` (HyDE), as :class:`HydeOut`."""
    system = f"""Write a short passage (one to three sentences) as it could appear in a user's past \
conversations or memories and that would answer the question. Make up plausible specifics rather \
than saying you do not know; it is only used to search. {_LANGUAGE}

Answer with JSON only: {{"passage": "<the passage>"}}"""
    return Prompt(system, f"Question:\n{_quoted(query)}")
