"""The profile's rating chart (accounts.charts): its geometry, ticks and words."""

from __future__ import annotations

from datetime import UTC, datetime

from accounts.charts import rating_chart


def _history(*ratings: float) -> list[dict]:
    """Rated games, oldest first: the rating went from each value to the next."""
    when = datetime(2026, 11, 26, tzinfo=UTC)
    return [
        {"game_id": i + 1, "rating_before": a, "rating_after": b, "finished_at": when}
        for i, (a, b) in enumerate(zip(ratings, ratings[1:], strict=False))
    ]


def test_no_chart_before_the_first_rated_game():
    assert rating_chart("Bob", []) is None


def test_the_points_run_left_to_right_and_higher_ratings_are_higher_up():
    chart = rating_chart("Bob", _history(1000, 1049, 1020))
    assert [p.rating for p in chart.points] == [1000, 1049, 1020]
    xs = [p.x for p in chart.points]
    assert xs == sorted(xs) and chart.left <= xs[0] and xs[-1] <= chart.right
    ys = {p.rating: p.y for p in chart.points}
    assert ys[1049] < ys[1020] < ys[1000]  # SVG's y grows downwards
    assert all(chart.top <= y <= chart.bottom for y in ys.values())
    labels = [label for _, label in chart.y_ticks]
    assert labels[0] == "1,000" and labels[-1] == "1,060"
    assert "from 1,000 to 1,020 (highest 1,049, lowest 1,000)" in chart.description


def test_the_newcomers_line_is_drawn_only_where_it_can_be_seen():
    """The dashed 1,000 line (and the caption's word for it) only where it is inside
    the range and not on the horizontal axis, which would hide it."""
    up = rating_chart("Bob", _history(1000, 1049))  # 1,000 is the axis itself
    assert up.start_y == 0.0
    down = rating_chart("Dave", _history(1000, 910))  # 1,000 is the top of the range
    assert down.start_y == down.top
    both = rating_chart("Erin", _history(1000, 940, 1080))
    assert both.top < both.start_y < both.bottom
    assert rating_chart("Fay", _history(1200, 1260)).start_y == 0.0  # out of range
