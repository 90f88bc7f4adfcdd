"""A rating history as an SVG line chart, computed on the server (no chart library, no script).

``rating_chart`` turns the ratings after each game into coordinates in a fixed viewBox; the
template draws a polyline, a dot per game (with its value as a tooltip) and the axis labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ratings.elo import START_RATING

WIDTH = 600
HEIGHT = 180
PAD_LEFT = 44
PAD_RIGHT = 10
PAD_Y = 14


@dataclass(frozen=True, slots=True)
class ChartDot:
    x: float
    y: float
    rating: int
    game: int
    match_id: int


@dataclass(frozen=True, slots=True)
class Chart:
    """Geometry of one chart: ``points`` for the polyline, ``dots`` per game, ``ticks`` (y, label)."""

    width: int
    height: int
    points: str
    dots: tuple[ChartDot, ...]
    ticks: tuple[tuple[float, int], ...]
    start_y: float


def rating_chart(ratings: Sequence[float], match_ids: Sequence[int], start: float = START_RATING) -> Chart:
    """The chart of ``ratings`` (one per game, oldest first), starting from ``start`` (the rating
    before the first game: ``START_RATING`` for people, a bot's level start for a bot).

    >>> chart = rating_chart([1520.0, 1500.0], [7, 8])
    >>> [dot.rating for dot in chart.dots], chart.dots[0].x < chart.dots[1].x
    ([1520, 1500], True)
    """
    values = [start, *ratings]
    low, high = min(values), max(values)
    if high - low < 40:
        middle = (high + low) / 2
        low, high = middle - 20, middle + 20
    span_x = WIDTH - PAD_LEFT - PAD_RIGHT
    span_y = HEIGHT - 2 * PAD_Y

    def x_of(index: int) -> float:
        return round(PAD_LEFT + span_x * index / max(1, len(values) - 1), 1)

    def y_of(value: float) -> float:
        return round(PAD_Y + span_y * (high - value) / (high - low), 1)

    coords = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
    dots = tuple(
        ChartDot(x, y, round(value), game, match_id)
        for game, ((x, y), value, match_id) in enumerate(
            zip(coords[1:], ratings, match_ids, strict=True), start=1
        )
    )
    ticks = tuple((y_of(v), round(v)) for v in (high, (high + low) / 2, low))
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        points=" ".join(f"{x},{y}" for x, y in coords),
        dots=dots,
        ticks=ticks,
        start_y=y_of(start),
    )
