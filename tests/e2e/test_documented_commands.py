"""Every ``hipocampo ...`` command that README.md and docs/*.md show, checked against the real
command line: its subcommands exist, every option it passes is one that (sub)command takes, and
``--help`` of each documented subcommand runs. A flag renamed in the code but not in the docs
(docs/inspector.md once said ``keys create --role admin``; the flag is ``--admin``) fails here.

Commands are read from fenced code blocks and from inline code that starts with ``hipocampo``;
a line may chain several (``&&``, ``;``, ``|``) and set variables first (``HIPOCAMPO_X=1 hipocampo ...``).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from hipocampo.entrypoints.cli import app

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^[ \t]*```[^\n]*\n(.*?)^[ \t]*```", re.M | re.S)
INLINE = re.compile(r"(?<!`)`(hipocampo [^`\n]+)`(?!`)")
ENV = re.compile(r"^[A-Z_][A-Z0-9_]*=")
SEPARATORS = {"&&", "||", ";", "|"}


@dataclass(frozen=True)
class Documented:
    where: str  # file:line
    words: tuple[str, ...]  # after "hipocampo"

    def __str__(self) -> str:
        return f"{self.where}: hipocampo {' '.join(self.words)}"


def _commands_in(text: str, where: str) -> list[Documented]:
    try:
        tokens = shlex.split(text.replace("\\\n", " "), comments=True)
    except ValueError:  # an unbalanced quote in prose: not a command line
        return []
    found, segment = [], []
    for token in [*tokens, ";"]:
        if token in SEPARATORS or token.endswith(";"):
            segment.append(token.rstrip(";")) if token.endswith(";") and token != ";" else None
            while segment and ENV.match(segment[0]):
                segment.pop(0)
            if segment[:1] == ["hipocampo"]:
                found.append(Documented(where, tuple(segment[1:])))
            segment = []
        else:
            segment.append(token.removeprefix("$ ") if not segment else token)
    return found


def documented() -> list[Documented]:
    commands: list[Documented] = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        name = doc.relative_to(ROOT)
        for block in FENCE.finditer(text):
            first = text.count("\n", 0, block.start(1)) + 1
            for offset, line in enumerate(block.group(1).replace("\\\n", " \n").splitlines()):
                commands += _commands_in(line.removeprefix("$ "), f"{name}:{first + offset}")
        for inline in INLINE.finditer(text):
            commands += _commands_in(inline.group(1), f"{name}:{text.count(chr(10), 0, inline.start()) + 1}")
    return commands


COMMANDS = documented()
ROOT_COMMAND = typer.main.get_command(app)


def resolve(cmd: Documented) -> tuple[list[str], list[str]]:
    """The subcommand path a documented command names, and the problems found on the way."""
    command: Any = ROOT_COMMAND  # typer's own click: duck-typed (a group has get_command)
    ctx = ROOT_COMMAND.make_context("hipocampo", [], resilient_parsing=True)
    path: list[str] = []
    problems: list[str] = []
    words = list(cmd.words)
    while words:
        word = words.pop(0)
        if word in ("--help", "-h"):
            continue
        if word.startswith("-") and word != "-":
            name = word.split("=", 1)[0]
            option = next((p for p in command.params if name in (*p.opts, *p.secondary_opts)), None)
            if option is None:
                problems.append(f"`{' '.join(['hipocampo', *path])}` has no option {name}")
            elif hasattr(option, "is_flag") and not option.is_flag and not getattr(option, "count", False):
                words = words if "=" in word else words[1:]  # its value
            continue
        if hasattr(command, "get_command"):
            sub = command.get_command(ctx, word)
            if sub is None:
                problems.append(f"`{' '.join(['hipocampo', *path])}` has no subcommand {word!r}")
                break
            command, path = sub, [*path, word]
    return path, problems


def test_the_docs_show_commands_to_check() -> None:
    assert len(COMMANDS) > 40, [str(c) for c in COMMANDS]  # the extraction found them
    (old,) = _commands_in("hipocampo tenants create acme && hipocampo --db x.db keys create --role admin", "x")[1:]
    assert resolve(old)[1] == ["`hipocampo keys create` has no option --role"]  # what docs/inspector.md said


@pytest.mark.parametrize("cmd", COMMANDS, ids=str)
def test_a_documented_command_names_real_subcommands_and_options(cmd: Documented) -> None:
    _, problems = resolve(cmd)
    assert not problems, f"{cmd}: {'; '.join(problems)}"


def test_help_of_every_documented_subcommand_runs() -> None:
    runner = CliRunner()
    paths = sorted({tuple(resolve(cmd)[0]) for cmd in COMMANDS})
    for path in paths:
        result = runner.invoke(app, [*path, "--help"])
        assert result.exit_code == 0, f"hipocampo {' '.join(path)} --help: exit {result.exit_code}\n{result.output}"
