"""Ratings: the final ranking, OpenSkill updates and their edge cases, the rule for
unrated games, bots' ratings per level, once per game, in the game's own transaction."""

from __future__ import annotations

import random

import pytest

from accounts.models import BotRating, GameRecord, PlayerResult, PlayerStats, rating_display
from games.models import Game, Move
from games.ratings import DEFAULT_MU, DEFAULT_SIGMA, final_ranking, rate, record_finished_game
from tests.games.factories import people_game, people_play
from tests.games.records.conftest import played_game, scored_game

NEWCOMER = rating_display(DEFAULT_MU, DEFAULT_SIGMA)


def row(seat, status, *, winner=False, cast_out=False, money=0, top_luxury=0):
    return {
        "seat": seat,
        "status": status,
        "winner": winner,
        "cast_out": cast_out,
        "money": money,
        "top_luxury": top_luxury,
    }


# --------------------------------------------------------------------------- ranking


def test_winner_first_then_by_status_cast_out_last():
    details = [
        row(0, 30, cast_out=True),  # the best status, but cast out: last
        row(1, 12),
        row(2, 20, winner=True),
        row(3, 15),
    ]
    assert final_ranking(details) == [4, 3, 1, 2]


def test_shared_win_and_equal_status_tie():
    details = [
        row(0, 14, winner=True),
        row(1, 14, winner=True),
        row(2, 6, money=20_000, top_luxury=5),
        row(3, 6, money=20_000, top_luxury=5),
        row(4, 2, cast_out=True),
    ]
    assert final_ranking(details) == [1, 1, 3, 3, 5]


def test_every_place_is_decided_as_the_win_is():
    """Below the winner, equal status is decided by money, then by the top luxury, as
    the win is: two players on 0 with 105,000 and 96,000 shared third place, while the
    same tie at the top had made a first and a second."""
    details = [
        row(0, 6, winner=True, money=30_000),
        row(1, 6, money=20_000),
        row(2, 0, money=105_000),
        row(3, 0, money=96_000),
        row(4, 0, money=96_000, top_luxury=3),
        row(5, 0, cast_out=True),
    ]
    assert final_ranking(details) == [1, 2, 3, 5, 4, 6]


def test_loser_on_money_tie_break_ranks_after_the_winner():
    # Same status as the winner, who won on money: second, not tied.
    details = [row(0, 10, winner=True), row(1, 10), row(2, 3, cast_out=True)]
    assert final_ranking(details) == [1, 2, 3]


def test_several_cast_out_share_the_last_place():
    details = [row(0, 9, winner=True), row(1, 20, cast_out=True), row(2, 1, cast_out=True)]
    assert final_ranking(details) == [1, 2, 2]


def test_everybody_cast_out_nobody_wins_all_tie():
    details = [row(s, 5 * s, cast_out=True) for s in range(4)]
    assert final_ranking(details) == [1, 1, 1, 1]


def test_rate_moves_the_winner_up_and_the_last_down():
    priors = [(DEFAULT_MU, DEFAULT_SIGMA)] * 3
    (mu1, s1), (mu2, _), (mu3, _) = rate(priors, [1, 2, 3])
    assert mu1 > DEFAULT_MU > mu3
    assert mu3 < mu2 < mu1
    assert s1 < DEFAULT_SIGMA


def test_rate_a_full_tie_leaves_equal_players_equal():
    priors = [(DEFAULT_MU, DEFAULT_SIGMA)] * 3
    after = rate(priors, [1, 1, 1])
    assert len({round(mu, 9) for mu, _ in after}) == 1
    assert all(abs(mu - DEFAULT_MU) < 1e-9 and sigma < DEFAULT_SIGMA for mu, sigma in after)


# --------------------------------------------------------------------------- records


def _stats(user):
    return PlayerStats.objects.get(user=user)


def test_a_rated_game_updates_everyone_once(alice, bob, carol):
    game = scored_game(
        [alice, bob, carol],
        [
            {"cards": ["lux10"], "money": [20000]},
            {"cards": ["lux4"], "money": [15000]},
            {"cards": ["lux9"], "money": [1000]},  # cast out
        ],
    )
    record = GameRecord.objects.get(game=game)
    assert record.rated and record.unrated_reason == ""
    a, b, c = _stats(alice), _stats(bob), _stats(carol)
    assert a.rating > b.rating > c.rating
    assert a.rated_games == b.rated_games == c.rated_games == 1
    results = {r.user_id: r for r in PlayerResult.objects.filter(game=game)}
    assert [results[u.pk].rank for u in (alice, bob, carol)] == [1, 2, 3]
    assert results[alice.pk].rating_before == NEWCOMER
    assert results[alice.pk].rating_after == a.rating
    assert results[carol.pk].rating_delta < 0 < results[alice.pk].rating_delta

    # A second call changes nothing: a game is counted once.
    assert record_finished_game(game) is None
    assert _stats(alice).games_played == 1 and _stats(alice).rating == a.rating
    assert PlayerResult.objects.filter(game=game).count() == 3


def test_shared_win_gives_equal_ratings(alice, bob, carol):
    scored_game(
        [alice, bob, carol],
        [
            {"cards": ["prestige"], "money": [10000]},
            {"cards": ["prestige"], "money": [10000]},
            {"cards": ["lux1"], "money": [1000]},
        ],
    )
    a, b = _stats(alice), _stats(bob)
    assert a.games_won == b.games_won == 1
    assert a.rating == b.rating and a.rating_mu == b.rating_mu
    assert _stats(carol).rating < a.rating


def test_all_cast_out_is_a_draw_for_everyone(alice, bob, carol):
    game = scored_game(
        [alice, bob, carol],
        [{"cards": [c], "money": [4000, 1000]} for c in ("lux1", "lux9", "prestige")],
    )
    stats = [_stats(u) for u in (alice, bob, carol)]
    assert all(s.games_won == 0 and s.times_cast_out == 1 for s in stats)
    assert len({s.rating for s in stats}) == 1
    assert all(abs(s.rating_mu - DEFAULT_MU) < 1e-9 for s in stats)
    assert set(PlayerResult.objects.filter(game=game).values_list("rank", flat=True)) == {1}


def test_bots_have_one_rating_per_level(alice):
    scored_game(
        [alice, "easy", "easy", "hard"],
        [
            {"cards": ["lux3"], "money": [8000]},
            {"cards": ["lux5"], "money": [6000]},
            {"cards": ["lux7"], "money": [2000]},
            {"cards": ["lux10"], "money": [4000]},
        ],
    )
    bots = {b.level: b for b in BotRating.objects.all()}
    assert set(bots) == {"easy", "hard"}
    assert bots["hard"].rated_games == bots["easy"].rated_games == 1
    assert bots["hard"].mu > DEFAULT_MU
    # Two easy seats: second (lux5) and last (cast out, lux7): the level moved down.
    assert bots["easy"].mu < DEFAULT_MU


def test_a_resigned_player_makes_the_game_unrated(alice, bob, carol):
    game = scored_game(
        [("resigned", alice), bob, carol],
        [
            {"cards": ["lux10"], "money": [20000]},  # the bot in alice's seat wins
            {"cards": ["lux2"], "money": [8000]},
            {"cards": ["debt"], "money": [2000]},
        ],
    )
    record = GameRecord.objects.get(game=game)
    assert not record.rated and "resigned" in record.unrated_reason
    a = _stats(alice)
    assert a.rated_games == 0 and a.rating is None
    # Still counted in the stats, but the bot's win is not hers.
    assert a.games_played == 1 and a.games_won == 0 and a.games_resigned == 1
    assert _stats(bob).rating is None
    assert not BotRating.objects.exists()


def test_a_deadline_move_makes_the_game_unrated(alice, bob, carol):
    game = played_game([alice, bob, "medium"], seed=3, actors={2: Move.Actor.DEADLINE})
    record = GameRecord.objects.get(game=game)
    assert not record.rated and "deadline" in record.unrated_reason
    assert _stats(alice).games_played == 1 and _stats(alice).rated_games == 0
    assert not BotRating.objects.exists()
    assert not PlayerResult.objects.filter(game=game, rated=True).exists()


def test_a_scenario_game_is_unrated(alice, bob, carol):
    game = played_game([alice, bob, carol], seed=4, scenario=True)
    assert not GameRecord.objects.get(game=game).rated


def test_ratings_move_with_results_over_many_games(alice, bob, carol):
    # Alice always wins, Carol is always cast out.
    for _ in range(6):
        scored_game(
            [alice, bob, carol],
            [
                {"cards": ["lux10"], "money": [20000]},
                {"cards": ["lux4"], "money": [15000]},
                {"cards": ["lux9"], "money": [1000]},
            ],
        )
    a, b, c = _stats(alice), _stats(bob), _stats(carol)
    assert a.rated_games == 6 and a.games_won == 6
    assert a.rating > b.rating > c.rating
    assert a.rating_sigma < DEFAULT_SIGMA
    history = list(
        PlayerResult.objects.filter(user=alice)
        .order_by("finished_at")
        .values_list("rating_before", "rating_after")
    )
    assert all(before < after for before, after in history)
    assert all(history[i][1] == history[i + 1][0] for i in range(len(history) - 1))


def test_record_refuses_an_unfinished_game(alice):
    game = Game.objects.create(created_by=alice, players=3)
    with pytest.raises(ValueError):
        record_finished_game(game)


# --------------------------------------------------------------------------- services


def test_the_move_that_ends_a_game_records_it(alice, bob, carol):
    game = people_game(alice, bob, carol)
    game = people_play(game, random.Random(2))
    assert game.status == Game.Status.FINISHED
    record = GameRecord.objects.get(game=game)
    assert record.rated
    for user in (alice, bob, carol):
        stats = _stats(user)
        assert stats.games_played == 1 and stats.rated_games == 1
    winners = {p["seat"] for p in game.result["players"] if p["winner"]}
    won = set(PlayerResult.objects.filter(game=game, won=True).values_list("seat", flat=True))
    assert won == winners


def test_a_failing_record_rolls_the_final_move_back(alice, bob, carol, monkeypatch):
    """The stats are written in the transaction that finishes the game: if recording
    fails, the final move is not stored either (and the game is still running)."""
    from games import ratings  # listens to the game's end (games.events.game_finished)

    game = people_game(alice, bob, carol)
    game = people_play(game, random.Random(2), until_version=1)
    assert game.status == Game.Status.ACTIVE

    def boom(game, *, seats=None):
        raise RuntimeError("recording failed")

    monkeypatch.setattr(ratings, "record_finished_game", boom)
    with pytest.raises(RuntimeError):
        people_play(game, random.Random(9))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.result is None
    assert Move.objects.filter(game=game).count() == game.version
    assert not GameRecord.objects.filter(game=game).exists()
    assert not PlayerStats.objects.exists()


def test_backfill_records_unrecorded_games_once(alice, bob, carol):
    from io import StringIO

    from django.core.management import call_command

    old = [played_game([alice, bob, carol], seed=s, record=False) for s in (40, 41)]
    recorded = played_game([alice, bob, carol], seed=42)
    out = StringIO()
    call_command("stats_backfill", stdout=out)
    assert "Recorded 2 finished games." in out.getvalue()
    assert GameRecord.objects.filter(game__in=[*old, recorded]).count() == 3
    assert _stats(alice).games_played == 3
    call_command("stats_backfill", stdout=StringIO())
    assert _stats(alice).games_played == 3


def test_backfill_says_where_it_is_and_keeps_quiet_with_v0(alice, bob, carol):
    """20,000 games took five minutes with not a word until the end."""
    from io import StringIO

    from django.core.management import call_command

    for seed in (50, 51, 52, 53, 54):
        played_game([alice, bob, carol], seed=seed, record=False)
    out = StringIO()
    call_command("stats_backfill", "--batch=2", "--pause=0", "--progress=2", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "5 finished games to record, 2 at a time."
    assert [line.split(" (")[0] for line in lines[1:-1]] == ["2 of 5 games", "4 of 5 games"]
    assert "so far, about" in lines[1] and lines[-1] == "Recorded 5 finished games."
    quiet = StringIO()
    call_command("stats_backfill", verbosity=0, stdout=quiet)
    assert quiet.getvalue() == ""


def test_backfill_commits_batch_by_batch_and_lets_other_writers_in(alice, bob, carol, monkeypatch):
    """One transaction after another, with no gap between them, kept SQLite's write
    lock from the site's requests ("database is locked"): each batch commits on its
    own and the command pauses before the next; an interrupted run keeps what it
    recorded, and the next run records the rest, each game once."""
    from io import StringIO

    from django.core.management import call_command

    from games.management.commands import stats_backfill

    games = [played_game([alice, bob, carol], seed=s, record=False) for s in range(60, 65)]
    pauses = []
    monkeypatch.setattr(stats_backfill.time, "sleep", pauses.append)
    calls = []

    def record_or_fail(game, **kwargs):
        calls.append(game.pk)
        if len(calls) == 4:
            raise RuntimeError("interrupted")
        return record_finished_game(game, **kwargs)

    monkeypatch.setattr(stats_backfill, "record_finished_game", record_or_fail)
    with pytest.raises(RuntimeError):
        call_command("stats_backfill", "--batch=2", stdout=StringIO())
    # The first batch stayed recorded; the second, interrupted, recorded nothing.
    assert set(GameRecord.objects.values_list("game_id", flat=True)) == {g.pk for g in games[:2]}
    assert pauses == [stats_backfill.PAUSE] and stats_backfill.PAUSE >= 0.1

    monkeypatch.setattr(stats_backfill, "record_finished_game", record_finished_game)
    out = StringIO()
    call_command("stats_backfill", "--batch=2", stdout=out)
    assert "Recorded 3 finished games." in out.getvalue()
    assert pauses == [stats_backfill.PAUSE] * 2  # one more, between its two batches
    assert GameRecord.objects.filter(game__in=games).count() == 5
    assert _stats(alice).games_played == 5


def test_a_resigned_player_is_never_shown_as_the_winner(client, alice, bob, carol):
    """The bot that took a resigned player's seat finishes first: the board says so,
    with no crown and no "Alice wins", and names the seat "Alice (resigned)"."""
    from games.presenter import headline, score_lines
    from games.selectors import table_view

    game = scored_game(
        [("resigned", alice), bob, carol],
        [
            {"cards": ["lux10"], "money": [20000]},  # the bot in alice's seat is first
            {"cards": ["lux2"], "money": [8000]},
            {"cards": ["debt"], "money": [2000]},
        ],
    )
    for viewer in (alice, bob, None):
        view = table_view(game=game, user=viewer)
        text = headline(view).text
        assert text == "The game is over: the bot playing for Alice (resigned) finishes first."
        first = next(row for row in score_lines(view) if row["winner"])
        assert first["bot_first"] and first["name"] == "Alice (resigned)"
    # Her seat handed to a bot by the host: the seat's name says so, once ("the bot
    # playing for Alice (replaced by a bot)" said bot twice).
    from games.models import Game, Seat

    Seat.objects.filter(game=game, user=alice).update(handed_over=True)
    text = headline(table_view(game=Game.objects.get(pk=game.pk), user=bob)).text
    assert text == "The game is over: Alice (replaced by a bot) finishes first."
    Seat.objects.filter(game=game, user=alice).update(handed_over=False)
    client.force_login(bob)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Alice wins" not in html and "is-winner" not in html
    assert "First — played by a bot" in html
    assert "Resigned — played by a bot" in html
