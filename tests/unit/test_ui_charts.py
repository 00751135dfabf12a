"""The inspector's chart arithmetic and latency sampling, without a server."""

from __future__ import annotations

import math

from hipocampo.entrypoints.http.metrics import Metrics
from hipocampo.entrypoints.http.ui.charts import latency_chart, stacked_bars
from hipocampo.entrypoints.http.ui.operations import LatencySampler, _quantile


def test_stacked_bars_stack_kinds_on_a_round_axis() -> None:
    chart = stacked_bars([("2024-05", {"turn": 12, "fact": 3}), ("2024-06", {}), ("2024-07", {"summary": 1})])
    assert [g[1] for g in chart.gridlines] == ["0", "5", "10", "15", "20"]  # 15 rounds up to 20
    turn, fact, summary = chart.rects
    assert (turn.cls, fact.cls, summary.cls) == ("k-turn", "k-fact", "k-summary")
    assert math.isclose(fact.y + fact.h, turn.y)  # the fact sits on the turns
    assert chart.legend == ["turn", "fact", "summary"]
    assert stacked_bars([]).empty


def test_quantile_interpolates_within_buckets() -> None:
    buckets = [(0.01, 0.0), (0.05, 10.0), (0.1, 20.0), (math.inf, 20.0)]
    assert math.isclose(_quantile(0.95, buckets, 0.0), 0.095)
    assert math.isclose(_quantile(0.5, buckets, 0.0), 0.05)
    assert _quantile(0.5, [(1.0, 0.0), (math.inf, 4.0)], 0.0) == 1.0  # past the last bound: that bound
    assert _quantile(0.5, [], 0.3) == 0.3


def test_sampler_turns_the_cumulative_histogram_into_intervals() -> None:
    metrics = Metrics()
    sampler = LatencySampler(metrics)
    sampler.sample()  # nothing observed yet: the labels have no series
    assert sampler.points() == []
    for seconds in (0.02, 0.04, 0.3):
        metrics.recall.labels("recall").observe(seconds)
    metrics.recall.labels("search").observe(0.01)
    (point,) = sampler.points()
    assert point["count"] == 4 and math.isclose(point["mean_ms"], 92.5)
    assert 250 < point["p95_ms"] <= 500
    sampler.sample()  # the interval is now between two readings; nothing happened since
    assert [p["count"] for p in sampler.points()] == [4]
    chart = latency_chart([point])
    assert len(chart.rects) == 1 and chart.dots
