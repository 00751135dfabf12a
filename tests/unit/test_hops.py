"""domain.hops: the moved query of the second dense hop (Rocchio feedback from stored vectors)."""

from __future__ import annotations

import numpy as np
import pytest

from hipocampo.domain.retrieval.hops import FEEDBACK_WEIGHT, rocchio


def unit(*xs: float) -> np.ndarray:
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_without_feedback_the_query_comes_back_normalised() -> None:
    moved = rocchio(np.array([3.0, 4.0, 0.0]), [])
    assert moved == pytest.approx([0.6, 0.8, 0.0])


def test_the_moved_query_is_unit_length_and_float32() -> None:
    moved = rocchio(unit(1, 0, 0), [unit(0, 1, 0), unit(0, 1, 1)])
    assert moved.dtype == np.float32
    assert float(np.linalg.norm(moved)) == pytest.approx(1.0)


def test_it_leans_towards_the_feedback_but_the_query_still_leads() -> None:
    q, subject = unit(1, 0, 0), unit(0, 1, 0)
    moved = rocchio(q, [subject, subject])
    assert float(moved @ subject) > float(q @ subject)  # closer to what the first hits talk about
    assert float(moved @ q) > float(moved @ subject)  # but nearer the question than the feedback
    assert float(moved @ subject) / float(moved @ q) == pytest.approx(FEEDBACK_WEIGHT)


def test_unnormalised_feedback_counts_by_direction_not_length() -> None:
    q = unit(1, 0, 0)
    assert rocchio(q, [np.array([0.0, 10.0, 0.0])]) == pytest.approx(rocchio(q, [np.array([0.0, 0.1, 0.0])]))


def test_a_zero_query_does_not_divide_by_zero() -> None:
    moved = rocchio(np.zeros(3), [unit(0, 1, 0)])
    assert np.all(np.isfinite(moved))
    assert moved == pytest.approx([0.0, 1.0, 0.0])
