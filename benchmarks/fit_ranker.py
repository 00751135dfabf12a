"""Fit the learned ranker (``src/hipocampo/domain/retrieval/ranker.json``) on the candidates that
``ranker_data.py`` dumped, and report how it ranks against the shipped model.

A logistic regression, L2-regularised, fitted by Newton's method (numpy only: ~20 weights).
Every query weighs the same, and within a query its positives and its negatives weigh half each,
so a long LoCoMo question with 120 candidates does not outweigh a short probe, and ranking, not
base rates, is what is learned. Reported per source: the share of queries whose best candidate
holds the answer (top-1), and evidence recall at 5 and 10, for the shipped and the fitted
weights, plus a leave-one-source-out run (fit on the others, score the one left out).

    .venv/bin/python benchmarks/fit_ranker.py /tmp/ranker.json [--write] [--l2 1.0]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import zlib
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hipocampo.domain.retrieval import learned

MODEL = Path(learned.__file__).with_name(learned.MODEL_FILE)
STEPS = int(os.environ.get("FIT_STEPS", "400"))
"""Adam steps of the listwise fit (``FIT_STEPS``)."""


def matrices(
    data: list[dict[str, Any]], features: Sequence[str] = learned.FEATURES
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Features, labels, sample weights and the query index of every candidate."""
    xs, ys, ws, qs = [], [], [], []
    for qi, q in enumerate(data):
        cands = q["candidates"]
        pos = sum(c["label"] for c in cands)
        neg = len(cands) - pos
        if not pos or not neg:
            continue
        for c in cands:
            xs.append([c["features"].get(f, 0.0) for f in features])
            ys.append(c["label"])
            ws.append(0.5 / pos if c["label"] else 0.5 / neg)
            qs.append(qi)
    return np.array(xs), np.array(ys, float), np.array(ws), np.array(qs)


def fit(x: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float, iterations: int = 50) -> tuple[float, np.ndarray]:
    xb = np.hstack([x, np.ones((len(x), 1))])
    beta = np.zeros(xb.shape[1])
    penalty = np.full(xb.shape[1], l2)
    penalty[-1] = 0.0  # the bias is not shrunk
    n = w.sum()
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(xb @ beta)))
        gradient = xb.T @ (w * (y - p)) / n - penalty * beta
        hessian = (xb * (w * p * (1 - p))[:, None]).T @ xb / n + np.diag(penalty) + 1e-9 * np.eye(len(beta))
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.abs(step).max() < 1e-8:
            break
    return float(beta[-1]), beta[:-1]


def fit_listwise(
    x: np.ndarray,
    y: np.ndarray,
    qs: np.ndarray,
    qweight: np.ndarray,
    l2: float,
    steps: int = STEPS,
    frozen: np.ndarray | None = None,
) -> np.ndarray:
    """Weights maximising, per query, the softmax share of its positives among its candidates
    (ListNet-style, Cao et al. 2007): the order within a query is what is learned. Adam, numpy."""
    order = np.argsort(qs, kind="stable")
    x, y, qs = x[order], y[order], qs[order]
    starts = np.flatnonzero(np.r_[True, qs[1:] != qs[:-1]])
    ids = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(qs)]))
    qw = np.array([qweight[qs[s]] for s in starts])
    qw = qw / qw.sum()
    w = np.zeros(x.shape[1]) if frozen is None else np.nan_to_num(frozen)
    fixed = np.zeros(x.shape[1], bool) if frozen is None else ~np.isnan(frozen)
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t in range(1, steps + 1):
        s = x @ w
        s = s - np.maximum.reduceat(s, starts)[ids]
        e = np.exp(s)
        p = e / np.add.reduceat(e, starts)[ids]
        ep = e * y
        q = ep / np.maximum(np.add.reduceat(ep, starts)[ids], 1e-300)
        grad = ((p - q) * qw[ids]) @ x + l2 * w
        grad[fixed] = 0.0
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        w -= 0.05 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w


def evaluate(
    data: list[dict[str, Any]], bias: float, weights: np.ndarray, features: Sequence[str] = learned.FEATURES
) -> dict[str, dict[str, float]]:
    by: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    for q in data:
        cands = q["candidates"]
        if not any(c["label"] for c in cands):
            continue
        x = np.array([[c["features"].get(f, 0.0) for f in features] for c in cands])
        order = np.argsort(-(x @ weights + bias), kind="stable")
        labels = np.array([c["label"] for c in cands])[order]
        total = labels.sum()
        source = q["source"].split(":")[0] + (
            f":{q['source'].split(':')[1]}" if q["source"].startswith("locomo") else ""
        )
        by[source].append((float(labels[0]), labels[:5].sum() / total, labels[:10].sum() / total))
    return {
        s: {
            "queries": len(v),
            "top1": float(np.mean([a for a, _, _ in v])),
            "r5": float(np.mean([b for _, b, _ in v])),
            "r10": float(np.mean([c for _, _, c in v])),
        }
        for s, v in sorted(by.items())
    }


FOLDS = 4


def _group(source: str) -> str:
    """A query's cross-validation group: its LoCoMo conversation, or one of :data:`FOLDS` folds of
    the chats (by a stable hash of the chat's name, so a chat's probes stay together)."""
    if source.startswith("locomo"):
        return source
    return f"chats fold {zlib.crc32(source.encode()) % FOLDS}"


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--l2", type=float, default=0.01)
    ap.add_argument("--write", action="store_true", help=f"write the fitted model to {MODEL}")
    ap.add_argument("--listwise", action="store_true", help="fit the order within queries (softmax loss)")
    ap.add_argument("--realistic-weight", type=float, default=1.0, help="weight of non-LoCoMo queries")
    ap.add_argument("--drop", nargs="*", default=[], help="features to leave out (fixed at 0), for ablations")
    ap.add_argument(
        "--freeze", default=None, help="a model JSON whose non-zero weights stay as they are (fit only the rest)"
    )
    args = ap.parse_args(argv)
    data = [q for path in args.data for q in json.loads(Path(path).read_text(encoding="utf-8"))]
    shipped = learned.default_ranker()
    old = np.array([shipped.weights.get(f, 0.0) for f in learned.FEATURES])
    x, y, w, qs = matrices(data)
    unknown = set(args.drop) - set(learned.FEATURES)
    if unknown:
        ap.error(f"unknown features: {sorted(unknown)}")
    x[:, [learned.FEATURES.index(f) for f in args.drop]] = 0.0
    sources = np.array([data[i]["source"].startswith("locomo") for i in qs])
    w = np.where(sources, w, w * args.realistic_weight)
    bias, weights = fit(x, y, w, args.l2)
    frozen = None
    if args.freeze:
        kept = learned.from_dict(json.loads(Path(args.freeze).read_text(encoding="utf-8")))
        frozen = np.array([kept.weights.get(f) or np.nan for f in learned.FEATURES])
    if args.listwise:
        qweight = np.where(np.array([d["source"].startswith("locomo") for d in data]), 1.0, args.realistic_weight)
        weights = fit_listwise(x, y, qs, qweight, args.l2, frozen=frozen)
    # Weights the shipped model says were set by hand (its "hand_set", with why) are kept as they are:
    # the fitting sources do not hold what would weigh them.
    hand_set = json.loads(MODEL.read_text(encoding="utf-8")).get("hand_set", {})
    for f in hand_set:
        weights[learned.FEATURES.index(f)] = shipped.weights.get(f, 0.0)
    print("shipped:", json.dumps(evaluate(data, shipped.bias, old), indent=1))
    print("fitted: ", json.dumps(evaluate(data, bias, weights), indent=1))
    # Leave one group out: each LoCoMo conversation, and the scenarios in FOLDS folds by chat.
    group_of = [_group(d["source"]) for d in data]
    for g in sorted(set(group_of)):
        held = [i for i, name in enumerate(group_of) if name == g]
        keep = ~np.isin(qs, held)
        if keep.all() or not keep.any():
            continue
        b, wt = fit(x[keep], y[keep], w[keep], args.l2)
        if args.listwise:
            wt = fit_listwise(x[keep], y[keep], qs[keep], qweight, args.l2, frozen=frozen)
        print(f"held out {g}:", evaluate([data[i] for i in held], b, wt))
    for f, v in zip(learned.FEATURES, weights, strict=True):
        print(f"  {f:16s} {v:+.3f}")
    print(f"  {'bias':16s} {bias:+.3f}")
    if args.write:
        model = {
            "about": "Learned ranker weights (benchmarks/fit_ranker.py): logit = bias + sum(weight * feature).",
            "match": "learned_match is match.npz's score (benchmarks/fit_match.py), fitted before these weights",
            "fitted_on": {
                "locomo-dev questions": sum(d["source"].startswith("locomo") for d in data),
                **{
                    f"{source} probes": sum(d["source"].split(":")[0] == source for d in data)
                    for source in sorted({d["source"].split(":")[0] for d in data} - {"locomo"})
                },
            },
            "l2": args.l2,
            "objective": "listwise softmax" if args.listwise else "pointwise logistic, each query balanced",
            "bias": round(bias, 4),
            "weights": {f: round(float(v), 4) for f, v in zip(learned.FEATURES, weights, strict=True)},
            **({"hand_set": hand_set} if hand_set else {}),
        }
        MODEL.write_text(json.dumps(model, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {MODEL}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
