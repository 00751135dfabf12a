"""``hipocampo chat`` without a chat model, its input piped: memory still works, and it says how
to configure a model."""

from __future__ import annotations


def test_chat_without_a_model_explains_and_remembers_across_sessions(cli):
    first = cli("chat", "--user", "ana", "--thread", "t1", input="I am allergic to peanuts\n/memories\n/quit\n")
    assert "HIPOCAMPO_LLM=openai:gpt-4o-mini" in first.stdout and "HIPOCAMPO_LLM_BASE_URL" in first.stdout
    assert "memory that would be injected" in first.stdout
    memories = " ".join(first.stdout.split("(nothing recalled yet)", 1)[1].split())  # what /memories printed
    assert "1 memories" in memories and "critical_info" in memories and "peanuts" in memories  # the extracted fact

    # A new session (another thread) ends at the end of input, without /quit.
    second = cli("chat", "--user", "ana", input="Can I eat satay?\n")
    context = second.stdout.split("memory that would be injected", 1)[1]
    assert "allergic to peanuts" in context and "conversation t1" in context

    stored = cli.json("memories", "ana", "--kind", "turn")
    assert sorted(m["content"] for m in stored) == ["Can I eat satay?", "I am allergic to peanuts"]


def test_chat_forget_deletes_a_memory_and_unknown_commands_show_help(cli):
    added = cli.json("add", "ana", "t1", "I live in Porto")
    turn_id = "turn_" + added["messages"][0]["id"]
    result = cli("chat", "--user", "ana", "--thread", "t2", input=f"/forget {turn_id}\n/forget mem_nope\n/help\n")
    assert f"forgot {turn_id}" in result.stdout
    assert "error:" in result.stdout and "Commands: /memories" in result.stdout
    assert cli.json("memories", "ana", "--kind", "turn") == []
