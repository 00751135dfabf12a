"""Clocks: the real one, and a fake one that tests move by hand."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone


class SystemClock:
    """Wall-clock time as a timezone-aware UTC datetime."""

    def now(self) -> datetime:
        return datetime.now(timezone.utc)


class FakeClock:
    """A clock that stands still until :meth:`advance` moves it. Starts at 2024-01-01 UTC."""

    def __init__(self, start: datetime | None = None) -> None:
        start = start or datetime(2024, 1, 1, tzinfo=timezone.utc)
        if start.tzinfo is None:
            raise ValueError("FakeClock needs a timezone-aware start")
        self._now = start.astimezone(timezone.utc)

    def now(self) -> datetime:
        return self._now

    def advance(self, seconds: float) -> datetime:
        """Move forward (or back, with a negative value) and return the new time."""
        self._now += timedelta(seconds=seconds)
        return self._now
