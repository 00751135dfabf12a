"""The pure rules of the chat-client wrappers: whose call it is, which turns are new, where the
memory goes in the prompt."""

from __future__ import annotations

import pytest

from hipocampo.domain.errors import ConfigurationError
from hipocampo.integrations._core import (
    MEMORY_HEADER,
    ChatMemory,
    Turn,
    Who,
    conversation_thread,
    latest_user_text,
    new_turns,
    resolve_who,
)
from hipocampo.integrations.openai_client import reply_text, to_turn, with_system

CONVERSATION = [Turn("system", "Be brief."), Turn("user", "Hi"), Turn("assistant", "Hello!"), Turn("user", "Bye")]


def who(**kw: object) -> Who | None:
    args: dict = {
        "call_user": None,
        "call_thread": None,
        "metadata": None,
        "bound_user": None,
        "bound_thread": None,
        "user_field": None,
        "turns": CONVERSATION,
    }
    return resolve_who(**{**args, **kw})


def test_the_most_specific_user_and_thread_win() -> None:
    meta = {"user_id": "meta", "thread_id": "mt"}
    assert who(call_user="call", metadata=meta, bound_user="bound", user_field="field") == Who("call", "mt")
    assert who(metadata=meta, bound_user="bound", bound_thread="bt") == Who("meta", "mt")
    assert who(bound_user="bound", user_field="field", bound_thread="bt") == Who("bound", "bt")
    assert who(user_field="field").user_id == "field"
    assert who() is None and who(metadata="not a dict") is None
    # No thread: named after the first exchange, the same for every call of the conversation.
    named = who(bound_user="a")
    assert named == Who("a", conversation_thread(CONVERSATION, None), named=False)
    assert named.thread_id == conversation_thread(CONVERSATION[:2], "Hello!")  # its first call, once answered
    assert named.thread_id != who(bound_user="a", turns=[Turn("user", "Hi"), Turn("assistant", "Hey")]).thread_id
    # A conversation's first call does not know its answer yet: it recalls where nothing is stored.
    opening = who(bound_user="a", turns=CONVERSATION[:2])
    assert opening.thread_id not in (conversation_thread(CONVERSATION[:2], r) for r in ("", "Hello!"))


def test_only_new_turns_are_stored_with_ids_stable_across_retries() -> None:
    w = Who("ana", "t")
    _, turns = new_turns(w, CONVERSATION, "See you", "openai", {"model": "m"}, call_id="c1")
    assert [(t["role"], t["content"]) for t in turns] == [("user", "Bye"), ("assistant", "See you")]
    assert turns[1]["metadata"] == {"source": "openai", "model": "m"}
    # A call that resends its conversation: ids are digests of it, the same for every call that resends it.
    assert new_turns(w, CONVERSATION, "Another reply", "openai", call_id="c2")[1][1]["id"] == turns[1]["id"]
    changed_prompt = [Turn("system", "Be brief. Today is Monday."), *CONVERSATION[1:]]
    assert [t["id"] for t in new_turns(w, changed_prompt, "See you", "openai", call_id="c3")[1]] == [
        t["id"] for t in turns
    ]
    assert new_turns(Who("ana", "other"), CONVERSATION, None, "openai", call_id="c1")[1][0]["id"] != turns[0]["id"]
    # The same words later in the conversation are a new turn.
    later = [*CONVERSATION, Turn("assistant", "See you"), Turn("user", "Bye")]
    assert new_turns(w, later, None, "openai", call_id="c1")[1][0]["id"] != turns[0]["id"]
    # A call that sends only its new messages: ids of the call, so every call is new, its retries not.
    two = [Turn("user", "One"), Turn("user", "Two")]
    first = new_turns(w, two, None, "openai", call_id="c1")[1]
    assert [t["content"] for t in first] == ["One", "Two"]  # both new; a tool-call reply has no text
    assert [t["id"] for t in new_turns(w, two, None, "openai", call_id="c1")[1]] == [t["id"] for t in first]
    assert not {t["id"] for t in new_turns(w, two, None, "openai", call_id="c2")[1]} & {t["id"] for t in first}
    assert latest_user_text(two) == "Two" and latest_user_text([Turn("user", " ")]) is None


def test_a_thread_less_conversation_is_stored_under_its_first_exchange() -> None:
    opening = [Turn("system", "Be brief."), Turn("user", "Hi")]
    w = who(bound_user="a", turns=opening)
    assert w is not None and not w.named
    stored_in, _ = new_turns(w, opening, "Hello!", "openai", call_id="c")
    assert stored_in == Who("a", conversation_thread(CONVERSATION, None), named=False)
    assert stored_in == who(bound_user="a")  # where the conversation's next call goes
    assert new_turns(Who("a", "t"), opening, "Hello!", "openai", call_id="c")[0] == Who("a", "t")  # a named one stays


def test_memory_joins_the_system_prompt_after_the_apps_text() -> None:
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]
    out = with_system(messages, f"{MEMORY_HEADER}\n\nAna is vegan")
    assert out[0]["content"] == f"Be brief.\n\n{MEMORY_HEADER}\n\nAna is vegan" and out[1:] == messages[1:]
    assert messages[0]["content"] == "Be brief."  # the caller's list is left alone
    assert with_system(messages[1:], "M") == [{"role": "system", "content": "M"}, messages[1]]
    parts = [{"role": "developer", "content": [{"type": "text", "text": "Rules"}]}]
    assert with_system(parts, "M")[0]["content"][-1] == {"type": "text", "text": "\n\nM"}
    assert to_turn({"role": "user", "content": [{"type": "image_url"}, {"type": "text", "text": "Look"}]}) == Turn(
        "user", "Look"
    )
    assert reply_text({"choices": [{"message": {"content": None, "tool_calls": []}}]}) is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"token_budget": 10}, "token_budget must be a whole number of at least 50"),
        ({"token_budget": "big"}, "token_budget must be"),
        ({"timeout": 0}, "memory_timeout must be a positive number"),
        ({"memory_api_key": "hk_x"}, "memory_api_key goes with a hipocampo service URL"),
        ({"memory": 42}, "memory must be a path or URL"),
    ],
)
def test_bad_settings_fail_at_once_with_one_clear_line(kwargs: dict, message: str) -> None:
    # Checked before any store is opened: none is needed here.
    with pytest.raises(ConfigurationError, match=message):
        ChatMemory(**kwargs)


def test_the_public_names_resolve_without_langchain_imported_up_front() -> None:
    import hipocampo.integrations as integrations

    assert all(getattr(integrations, name) is not None for name in integrations.__all__)
