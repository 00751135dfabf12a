"""The fact scenarios on a real local model: llama.cpp's OpenAI-compatible server, with the rules' numbers beside it.

    bash benchmarks/llm_setup.sh          # once: the server's venv and the GGUF (10-30 min)
    nice -n 19 python benchmarks/llm_facts.py --split never-tuned --limit 3 > /tmp/llm_facts.log 2>&1 &
    python benchmarks/llm_facts.py --only rita_continuas --only fresh_en_chloe_quit_deliveroo

Not part of CI and not a test: a 1.5B coder model on a shared 2-core machine takes 20-100 s a
message. It starts ``llama_cpp.server`` from the setup's venv with ONE thread (``--n_threads 1``:
the machine is shared) at the lowest priority, points hipocampo's LLM setting at it
(``llm="openai:<alias>"``, ``llm_base_url``), and plays each chosen scenario twice on fresh stores:
the rules alone (as benchmarks/scenarios.py does), then the rules with the model (extraction,
reconciliation and the review of stored facts, as the worker runs them). Both are scored by the
scenario harness (:mod:`hipocampo_bench.scenarios`) in its first mode (no consolidation, real
clock); summaries are off in both, so the model's time is spent on facts.

Printed: one table per path (fact precision, precision by value, recall, updates, retractions,
malformed facts, seconds per user message), each scenario's misses, and every model answer that
the facts service refused (a value not in the turn, an invented old value, a bad item, a call
that failed), with the model's raw answers written to ``--answers`` (JSON lines) to read.

A fact is **malformed** here when its value is empty, runs past 8 words, or is not in the user's
own words (:func:`hipocampo.domain.extraction.llm_schemas.grounded` over the user's turns).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hipocampo import Memory  # noqa: E402
from hipocampo.adapters.embedders.fake import FakeEmbedder  # noqa: E402
from hipocampo.domain.extraction.llm_schemas import grounded  # noqa: E402
from hipocampo.domain.truth.reconcile import FACT_VALUE  # noqa: E402
from hipocampo_bench.scenario_model import Scenario  # noqa: E402
from hipocampo_bench.scenarios import OTHER_USER, OVERRIDES, SCENARIOS, SPLITS, USER, score  # noqa: E402

VENV = Path(os.environ.get("HIPOCAMPO_LLM_VENV", "/work/llm-venv"))
MODEL = VENV / "models" / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
ALIAS = "qwen2.5-coder-1.5b"
STARTUP_S = 300
MAX_VALUE_WORDS = 8


# --- the server --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(venv: Path, model: Path, threads: int, log_path: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``llama_cpp.server`` on a free loopback port, niced, one thread; returns it and its /v1 URL."""
    if not (venv / "bin" / "python").exists():
        sys.exit(f"no venv at {venv}: run bash benchmarks/llm_setup.sh first (or set HIPOCAMPO_LLM_VENV)")
    if not model.is_file():
        sys.exit(f"no model at {model}: run bash benchmarks/llm_setup.sh first (or pass --model)")
    port = free_port()
    command = [
        "nice", "-n", "19", str(venv / "bin" / "python"), "-m", "llama_cpp.server",
        "--model", str(model), "--model_alias", ALIAS, "--host", "127.0.0.1", "--port", str(port),
        "--n_threads", str(threads), "--n_threads_batch", str(threads), "--n_ctx", "4096",
        # Keeps the KV state of earlier prompts, so the next call with the same system prompt
        # reads only what differs: reading is most of a call's time at ~11 tokens/s.
        "--cache", "true",
    ]  # fmt: skip
    # OpenMP's idle threads spin by default and would starve everything else on a small machine.
    env = {**os.environ, "OMP_WAIT_POLICY": "passive", "OMP_NUM_THREADS": str(threads)}
    with open(log_path, "wb") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"llama.cpp server exited ({server.returncode}):\n{log_path.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/models", timeout=2) as answer:
                if answer.status == 200:
                    return server, url
        except OSError:
            pass
        time.sleep(1)
    server.terminate()
    sys.exit(f"llama.cpp server not ready after {STARTUP_S} s:\n{log_path.read_text()[-3000:]}")


def stop(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


# --- recording what the model said -------------------------------------------------------------


class Recorder:
    """Wraps the LangChain chat model hipocampo built from its settings and writes every answer
    (with the end of the prompt it answered and the seconds it took) to a JSON-lines file, so
    the real outputs can be read afterwards. Duck-typed like the adapter's model."""

    def __init__(self, inner: Any, out: Any, method: str = "text") -> None:
        self.inner, self.out, self.method = inner, out, method

    async def ainvoke(self, messages: Any) -> Any:
        started = time.perf_counter()
        error = None
        answer: Any = None
        try:
            answer = await self.inner.ainvoke(messages)
            return answer
        except BaseException as exc:
            error = f"{type(exc).__name__}: {exc}"[:300]
            raise
        finally:
            content = getattr(answer, "content", answer)
            row = {
                "method": self.method,
                "seconds": round(time.perf_counter() - started, 1),
                "prompt_tail": str(messages[-1][1])[-400:] if messages else "",
                "answer": content if isinstance(content, str) else repr(content),
                "error": error,
            }
            self.out.write(json.dumps(row, ensure_ascii=False) + "\n")
            self.out.flush()

    def bind(self, **kwargs: Any) -> Recorder:
        return Recorder(self.inner.bind(**kwargs), self.out, "json_mode")

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Recorder:
        return Recorder(self.inner.with_structured_output(schema, **kwargs), self.out, "json_schema")


class Refusals(logging.Handler):
    """The facts service's log lines about model answers it refused or calls that failed."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if text.startswith("LLM"):
            self.lines.append(text[:300])


# --- playing and scoring -----------------------------------------------------------------------


def play(mem: Memory, scenario: Scenario) -> None:
    """The harness's ``play``, waiting as long as the model takes (its flush gives up at 120 s)."""
    sessions = [(OTHER_USER, s) for s in scenario.other_user] + [(USER, s) for s in scenario.sessions]
    for who, s in sessions:
        mem.add(who, s.thread_id, [{"role": t.role, "content": t.content, "created_at": t.at} for t in s.turns])
        mem.flush(timeout=None)


def user_words(scenario: Scenario) -> list[str]:
    return [t.content for s in scenario.sessions for t in s.turns if t.role == "user"]


def malformed(mem: Memory, scenario: Scenario) -> list[str]:
    """Current facts whose value is empty, too long, or not in the user's own words."""
    said = user_words(scenario)
    bad = []
    for f in mem.list(USER, kind="fact", limit=1000):
        if f.valid_to is not None:
            continue
        value = str(f.metadata.get(FACT_VALUE) or "").strip()
        if not value or len(value.split()) > MAX_VALUE_WORDS or not grounded(value, *said):
            bad.append(f"{f.key}={value!r}")
    return bad


def run_one(
    scenario: Scenario, folder: Path, llm: dict[str, Any] | None, answers: Any
) -> tuple[dict[str, Any], float, int]:
    """Play one scenario on a fresh store; its score, the seconds it took and its user turns."""
    overrides = {**OVERRIDES, "summaries": False, **(llm or {})}
    mem = Memory.open(
        str(folder / f"{scenario.name}-{'llm' if llm else 'rules'}.db"), embedder=FakeEmbedder(), **overrides
    )
    try:
        if llm:
            chat = mem._inner._deps.chat  # the LangChainChatModel the settings built
            assert chat is not None, "the LLM setting built no chat model"
            chat.model = Recorder(chat.model, answers)
        started = time.perf_counter()
        play(mem, scenario)
        seconds = time.perf_counter() - started
        row = score(mem, scenario)
        row["malformed"] = malformed(mem, scenario)
    finally:
        mem.close()
    turns = len(user_words(scenario)) + sum(1 for s in scenario.other_user for t in s.turns if t.role == "user")
    return row, seconds, turns


def aggregate(rows: list[dict[str, Any]], seconds: float, turns: int) -> dict[str, Any]:
    def total(path: str, field: str) -> int:
        return sum(r[path][field] for r in rows)

    extracted = total("facts", "extracted")
    return {
        "scenarios": len(rows),
        "passed": sum(_passed(r) for r in rows),
        "precision": _rate(total("facts", "correct"), extracted),
        "value_precision": _rate(total("facts", "value_correct"), extracted),
        "recall": _rate(total("facts", "correct"), total("facts", "expected")),
        "updates": f"{total('updates', 'correct')}/{total('updates', 'expected')}",
        "retractions": f"{total('retractions', 'correct')}/{total('retractions', 'expected')}",
        "malformed": sum(len(r["malformed"]) for r in rows),
        "facts": f"{total('facts', 'correct')}/{extracted} of {total('facts', 'expected')}",
        "seconds_per_message": round(seconds / turns, 2) if turns else None,
    }


def _passed(r: dict[str, Any]) -> bool:
    return not (
        r["facts"]["missing"] or r["facts"]["unexpected"] or r["updates"]["failures"] or r["retractions"]["failures"]
    )


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def render(result: dict[str, Any]) -> str:
    cols = ["path", "n", "facts ok", "fact P", "value P", "recall", "updates", "retractions", "malformed", "s/msg"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for name in ("rules", "llm"):
        a = result[name]
        cells = [name, a["scenarios"], a["facts"], _pct(a["precision"]), _pct(a["value_precision"]), _pct(a["recall"]),
                 a["updates"], a["retractions"], a["malformed"], a["seconds_per_message"]]  # fmt: skip
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    out = ["\n".join(lines), ""]
    for name in ("rules", "llm"):
        for r in result["rows"][name]:
            misses = [*(f"missing {m}" for m in r["facts"]["missing"]),
                      *(f"unexpected {m}" for m in r["facts"]["unexpected"]),
                      *r["updates"]["failures"], *r["retractions"]["failures"],
                      *(f"malformed {m}" for m in r["malformed"])]  # fmt: skip
            out.append(
                f"[{name}] {r['name']} ({r['split']}, {r['language']}): " + ("ok" if not misses else "; ".join(misses))
            )
    if result["refusals"]:
        out += ["", "Model answers the facts service refused or calls that failed:"]
        out += [f"  - {line}" for line in result["refusals"]]
    return "\n".join(out)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", choices=SPLITS, action="append", help="splits to draw from (repeatable)")
    ap.add_argument("--only", action="append", help="scenario names (repeatable; exact)")
    ap.add_argument("--limit", type=int, default=None, help="the first N scenarios of each split, fewest turns first")
    ap.add_argument("--model", type=Path, default=MODEL)
    ap.add_argument("--venv", type=Path, default=VENV)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument(
        "--timeout",
        type=float,
        default=600.0,
        help="llm_timeout_seconds: one call's limit (a call past it keeps the server busy: the next ones queue)",
    )
    ap.add_argument("--retries", type=int, default=0, help="llm_max_retries (a retry repeats a slow call)")
    ap.add_argument("--answers", type=Path, default=Path("/tmp/llm_facts_answers.jsonl"))
    ap.add_argument("--out", type=Path, default=None, help="also write the JSON result here")
    args = ap.parse_args(argv)

    chosen = [
        s for s in SCENARIOS if (not args.only or s.name in args.only) and (not args.split or s.split in args.split)
    ]
    if args.only:  # in the order given: the first ones are the ones a short run finishes
        chosen.sort(key=lambda s: args.only.index(s.name))
    if args.limit is not None:
        chosen = [
            s
            for split in SPLITS
            for s in sorted((c for c in chosen if c.split == split), key=lambda c: (len(user_words(c)), c.name))[
                : args.limit
            ]
        ]
    if not chosen:
        sys.exit("no scenario chosen")
    handler = Refusals()
    logging.getLogger("hipocampo.services.facts").addHandler(handler)
    logging.getLogger("hipocampo.services.facts").setLevel(logging.INFO)
    logging.getLogger("hipocampo.domain.extraction.llm_schemas").addHandler(handler)
    logging.getLogger("hipocampo.domain.extraction.llm_schemas").setLevel(logging.INFO)

    with tempfile.TemporaryDirectory(prefix="hipocampo-llm-facts-") as tmp:
        folder = Path(tmp)
        server, url = start_server(args.venv, args.model, args.threads, folder / "server.log")
        print(f"llama.cpp server at {url} ({args.model.name}, {args.threads} thread)", flush=True)
        llm = {
            "llm": f"openai:{ALIAS}",
            "llm_base_url": url,
            "llm_api_key": "x",
            "llm_timeout_seconds": args.timeout,
            "llm_max_retries": args.retries,
        }
        rows: dict[str, list[dict[str, Any]]] = {"rules": [], "llm": []}
        time_turns = {"rules": [0.0, 0], "llm": [0.0, 0]}
        try:
            with args.answers.open("w", encoding="utf-8") as answers:
                for scenario in chosen:
                    done = {}
                    for name, setting in (("rules", None), ("llm", llm)):
                        done[name] = run_one(scenario, folder, setting, answers)
                        row, seconds, turns = done[name]
                        print(f"{name:5} {scenario.name}: {seconds:.1f} s, {turns} user turns, "
                              f"facts {row['facts']['correct']}/{row['facts']['extracted']}", flush=True)  # fmt: skip
                    for name, (row, seconds, turns) in done.items():  # both paths, or neither
                        rows[name].append(row)
                        time_turns[name][0] += seconds
                        time_turns[name][1] += int(turns)
        except KeyboardInterrupt:  # kill -INT: the table of the scenarios finished so far
            print("interrupted: the scenarios finished so far", flush=True)
        finally:
            stop(server)
    result = {
        "model": args.model.name,
        "threads": args.threads,
        "scenarios": [r["name"] for r in rows["llm"]],
        "rules": aggregate(rows["rules"], *time_turns["rules"]),  # type: ignore[arg-type]
        "llm": aggregate(rows["llm"], *time_turns["llm"]),  # type: ignore[arg-type]
        "rows": rows,
        "refusals": handler.lines,
    }
    if args.out:
        args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(render(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
