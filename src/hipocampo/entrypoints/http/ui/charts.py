"""Chart geometry for the inspector's SVG, computed here so the templates only place shapes.

Hand-written because the charts are three simple ones (stacked bars, horizontal score bars, a
latency series): a chart library would mean JavaScript in the page, or a plotting package on the
server, for what is a few lines of arithmetic. Colours come from CSS classes (``k-turn``...), so
the SVG needs no inline style.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ....domain.retrieval.recall import ScoredMemory

KINDS = ("turn", "fact", "summary", "episode", "consolidated")


@dataclass
class Rect:
    x: float
    y: float
    w: float
    h: float
    cls: str
    title: str


@dataclass
class Chart:
    width: int
    height: int
    left: int = 40  # where the plot starts, after the value labels
    rects: list[Rect] = field(default_factory=list)
    labels: list[tuple[float, float, str]] = field(default_factory=list)  # (x, y, text)
    gridlines: list[tuple[float, str]] = field(default_factory=list)  # (y, value)
    legend: list[str] = field(default_factory=list)
    line: str = ""  # an SVG polyline's points
    dots: list[tuple[float, float]] = field(default_factory=list)  # the line's points, visible alone too
    empty: bool = False


def _nice_max(value: float) -> float:
    """A round axis maximum at or above ``value`` (1, 2, 5 times a power of ten)."""
    if value <= 0:
        return 1.0
    step = 1.0
    while step * 10 <= value:
        step *= 10
    while step > value:
        step /= 10
    for m in (1, 2, 5, 10):
        if m * step >= value:
            return m * step
    return 10 * step


def stacked_bars(periods: list[tuple[str, dict[str, int]]], width: int = 720, height: int = 220) -> Chart:
    """Memories per period, stacked by kind; about eight period labels at most."""
    left, bottom, top = 40, 24, 10
    chart = Chart(width, height, left, empty=not periods)
    if not periods:
        return chart
    peak = _nice_max(max(sum(c.values()) for _, c in periods))
    plot_h, plot_w = height - bottom - top, width - left - 8
    slot = plot_w / len(periods)
    bar = max(min(slot * 0.8, 40), 1)
    for i in range(5):
        value = peak * i / 4
        chart.gridlines.append((top + plot_h - plot_h * i / 4, f"{value:g}"))
    every = max(1, round(len(periods) / 8))
    for i, (label, counts) in enumerate(periods):
        x = left + i * slot + (slot - bar) / 2
        y: float = top + plot_h
        for kind in KINDS:
            n = counts.get(kind, 0)
            if n:
                h = plot_h * n / peak
                y -= h
                chart.rects.append(Rect(x, y, bar, h, f"k-{kind}", f"{label}: {n} {kind}"))
        if i % every == 0:
            chart.labels.append((x + bar / 2, height - 6, label))
    chart.legend = [k for k in KINDS if any(c.get(k) for _, c in periods)]
    return chart


@dataclass
class ScoreBar:
    label: str
    value: str
    fraction: float  # 0..1 of the bar's width
    cls: str


def score_bars(hit: ScoredMemory, max_keyword: float, max_score: float) -> list[ScoreBar]:
    """One hit's score, part by part: dense and keyword similarity, the fused and calibrated
    scores, each boost that moved it (a multiplier, drawn against 2: half the bar is neutral), and
    the final score."""
    e = hit.explanation
    bars = []
    if e.dense_score is not None:
        bars.append(ScoreBar("dense", f"{e.dense_score:.3f} (#{e.dense_rank})", _clip(e.dense_score), "b-dense"))
    else:
        bars.append(ScoreBar("dense", "not a dense candidate", 0.0, "b-dense"))
    if e.keyword_score is not None:
        frac = e.keyword_score / max_keyword if max_keyword > 0 else 0.0
        bars.append(ScoreBar("keyword", f"{e.keyword_score:.3f} (#{e.keyword_rank})", _clip(frac), "b-keyword"))
    else:
        bars.append(ScoreBar("keyword", "no keyword match", 0.0, "b-keyword"))
    if e.neighbour_score:
        bars.append(ScoreBar("neighbours", f"{e.neighbour_score:.3f}", _clip(e.neighbour_score), "b-base"))
    bars.append(ScoreBar("base", f"{e.base_score:.3f}", _clip(e.base_score), "b-base"))
    bars.append(ScoreBar("relevance", f"{e.relevance:.3f}", _clip(e.relevance), "b-base"))
    for name, factor in sorted(e.boosts.items()):
        if abs(factor - 1.0) >= 0.0005:  # neutral boosts are listed apart (:func:`neutral_boosts`)
            cls = "b-up" if factor > 1 else "b-down"
            bars.append(ScoreBar(f"× {name}", f"{factor:.3f}", _clip(factor / 2), cls))
    bars.append(ScoreBar("final", f"{hit.score:.4f}", _clip(hit.score / max_score if max_score else 0), "b-final"))
    return bars


def neutral_boosts(hit: ScoredMemory) -> list[str]:
    """The boosts that left this hit's score as it was (× 1)."""
    return sorted(name for name, factor in hit.explanation.boosts.items() if abs(factor - 1.0) < 0.0005)


def _clip(value: float) -> float:
    return max(0.0, min(1.0, float(value)))


def latency_chart(points: list[dict[str, Any]], width: int = 720, height: int = 200) -> Chart:
    """Recall latency per sampling interval: bars for the p95 estimate, a line for the mean."""
    left, bottom, top = 60, 24, 10
    chart = Chart(width, height, left, empty=not points)
    if not points:
        return chart
    peak = _nice_max(max(max(p["p95_ms"], p["mean_ms"]) for p in points))
    plot_h, plot_w = height - bottom - top, width - left - 8
    slot = plot_w / len(points)
    bar = max(min(slot * 0.7, 24), 1)
    for i in range(5):
        chart.gridlines.append((top + plot_h - plot_h * i / 4, f"{peak * i / 4:g} ms"))
    every = max(1, round(len(points) / 6))
    line = []
    for i, p in enumerate(points):
        x = left + i * slot + (slot - bar) / 2
        h = plot_h * p["p95_ms"] / peak
        chart.rects.append(
            Rect(
                x,
                top + plot_h - h,
                bar,
                h,
                "b-p95",
                f"{p['at']}: p95 ≤ {p['p95_ms']:g} ms, mean {p['mean_ms']:.1f} ms, {p['count']} calls",
            )
        )
        mean_y = top + plot_h - plot_h * p["mean_ms"] / peak
        line.append(f"{x + bar / 2:.1f},{mean_y:.1f}")
        chart.dots.append((x + bar / 2, mean_y))
        if i % every == 0:
            chart.labels.append((x + bar / 2, height - 6, p["at"]))
    chart.line = " ".join(line)
    chart.legend = ["p95", "mean"]
    return chart
