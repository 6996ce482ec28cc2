"""The rating chart, drawn on the server as SVG geometry (no JavaScript needed).

``rating_chart`` turns the rating history into coordinates, tick marks and the words
of the chart's title and description; ``templates/accounts/public_profile.html`` draws
them.  The template also shows the same numbers as a table for screen readers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.template.defaultfilters import floatformat
from django.utils.translation import gettext, ngettext

from accounts.models import rating_change_whole

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 66, 20, 20, 46


@dataclass(frozen=True)
class ChartPoint:
    index: int  # 0 = before the first game shown
    rating: float
    x: float
    y: float
    game_id: int | None
    when: datetime | None
    delta: float | None


@dataclass(frozen=True)
class Chart:
    title: str
    description: str
    points: list[ChartPoint]
    polyline: str
    y_ticks: list[tuple[float, str]] = field(default_factory=list)  # (y, label)
    x_ticks: list[tuple[float, str]] = field(default_factory=list)
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM
    start_y: float = 0.0  # the newcomer's 1000 line, when it is inside the range and
    # not on the horizontal axis (which would hide it)

    @property
    def mid_x(self) -> float:
        return (self.left + self.right) / 2

    @property
    def mid_y(self) -> float:
        return (self.top + self.bottom) / 2


def _nice_step(span: float, count: int = 4) -> float:
    raw = max(span, 1.0) / count
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power


def _whole(value: float) -> str:
    """A rating as the active language writes a whole number: 1,000 / 1.000 / 1 000,
    rounded as the pages' ``floatformat:"0g"`` rounds it (half up: 1084.5 is 1,085, which
    Python's round, half to even, made 1,084 beside the badge's 1,085)."""
    return floatformat(value, "0g")


def rating_chart(name: str, history: Sequence[dict], *, start: float = 1000.0) -> Chart | None:
    """The chart of ``history`` (oldest first: dicts with game_id, rating_before,
    rating_after, finished_at), or ``None`` before the first rated game."""
    if not history:
        return None
    values = [history[0]["rating_before"]] + [row["rating_after"] for row in history]
    low, high = min(values), max(values)
    step = _nice_step(high - low)
    y_min = math.floor(low / step) * step
    y_max = math.ceil(high / step) * step
    if y_max == y_min:
        y_max = y_min + step
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    n = len(values) - 1

    def x_of(i: int) -> float:
        return round(LEFT + plot_w * (i / n if n else 0.5), 1)

    def y_of(v: float) -> float:
        return round(TOP + plot_h * (1 - (v - y_min) / (y_max - y_min)), 1)

    points = [
        ChartPoint(
            index=0,
            rating=values[0],
            x=x_of(0),
            y=y_of(values[0]),
            game_id=None,
            when=None,
            delta=None,
        )
    ]
    for i, row in enumerate(history, 1):
        points.append(
            ChartPoint(
                index=i,
                rating=row["rating_after"],
                x=x_of(i),
                y=y_of(row["rating_after"]),
                game_id=row["game_id"],
                when=row["finished_at"],
                delta=rating_change_whole(row["rating_before"], row["rating_after"]),
            )
        )
    y_ticks = []
    tick = y_min
    while tick <= y_max + 1e-9:
        y_ticks.append((y_of(tick), _whole(tick)))
        tick += step
    x_step = max(1, math.ceil(n / 8))
    x_ticks = [(x_of(i), str(i)) for i in range(0, n + 1, x_step)]
    if n and x_ticks[-1][1] != str(n):
        x_ticks.append((x_of(n), str(n)))
    last = values[-1]
    title = ngettext(
        "Rating of %(name)s over the last %(count)s rated game",
        "Rating of %(name)s over the last %(count)s rated games",
        n,
    ) % {"name": name, "count": n}
    description = gettext(
        "A line chart. The rating went from %(first)s to %(last)s (highest %(high)s, "
        "lowest %(low)s). The horizontal axis counts rated games, oldest on the left; "
        "the vertical axis is the rating."
    ) % {"first": _whole(values[0]), "last": _whole(last), "high": _whole(high), "low": _whole(low)}
    return Chart(
        title=title,
        description=description,
        points=points,
        polyline=" ".join(f"{p.x},{p.y}" for p in points),
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        start_y=y_of(start) if y_min < start <= y_max else 0.0,
    )
