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


def test_each_change_is_the_difference_of_the_whole_ratings_shown():
    """1,000 -> 921.5 -> 818.3 is shown 1,000 -> 922 -> 818: the changes read −78 and
    −104, so that each row adds up (rounded by themselves, −78.5 and −103.2 read −79
    and −103)."""
    from django.template import Context, Template

    chart = rating_chart("Bob", _history(1000, 921.5, 818.3))
    assert [p.delta for p in chart.points] == [None, -78, -104]
    shown = Template(
        '{% load game_cards %}{% for p in points %}{{ p.rating|floatformat:"0g" }} '
        "{{ p.delta|rating_change }};{% endfor %}"
    ).render(Context({"points": chart.points[1:]}))
    assert shown == "922 \u221278;818 \u2212104;"


def test_a_results_change_is_shown_as_the_ratings_are():
    from accounts.models import PlayerResult, rating_whole

    result = PlayerResult(rating_before=1000.0, rating_after=921.5)
    assert rating_whole(921.5) == 922 and rating_whole(-0.5) == -1 and rating_whole(922.4) == 922
    assert result.rating_change_shown == -78
    assert result.rating_delta == -78.5  # the API's figure stays exact


def test_the_words_round_a_half_up_as_the_badge_does():
    """A rating of 1084.5 read 1,085 on the profile's badge (``floatformat``) and 1,084
    in the chart's words (Python's round: half to even)."""
    from django.template.defaultfilters import floatformat

    chart = rating_chart("Bob", _history(1000, 1084.5))
    assert floatformat(1084.5, "0g") == "1,085"
    assert "from 1,000 to 1,085 (highest 1,085, lowest 1,000)" in chart.description
