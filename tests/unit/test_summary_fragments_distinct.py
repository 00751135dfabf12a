"""A summary's fragment line never says the same words twice, and never repeats a kept line."""

from __future__ import annotations

from hipocampo.domain.summaries.summarize import _distinct, _Piece


def piece(order: int, text: str) -> _Piece:
    return _Piece(((order, 0), 1), "2024-06-01", "User", text, 1)


def test_a_fragment_inside_a_longer_one_or_a_kept_line_is_dropped() -> None:
    pieces = [
        piece(1, "I'm planning a trip to Japan in October"),
        piece(2, "trip to Japan in October"),
        piece(3, "girlfriend Jess"),
        piece(4, "named Sushi"),
    ]
    kept = ["- User: I have a cat named Sushi, so we'll need a pet sitter."]
    assert [p.text for p in _distinct(pieces, kept)] == ["I'm planning a trip to Japan in October", "girlfriend Jess"]


def test_containment_is_by_whole_words() -> None:
    pieces = [piece(1, "Mel"), piece(2, "Melanie said")]
    assert [p.text for p in _distinct(pieces, [])] == ["Mel", "Melanie said"]


def test_equal_fragments_keep_the_first() -> None:
    assert [p.order for p in _distinct([piece(1, "€300"), piece(2, "€300")], [])] == [((1, 0), 1)]
