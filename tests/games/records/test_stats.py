"""Stats against a set of five games checked by hand.

G1  Alice  Luxury 10 + 3 = 13, 20,000    Bob  Luxury 8 + Prestige = 16, 15,000 (wins)
    Carol  Luxury 5, 3,000 (cast out)
G2  Alice  Prestige = 0, 10,000          Bob  Prestige = 0, 10,000 (shared win)
    Bot (easy)  Luxury 1, 1,000 (cast out)
G3  everyone 5,000: all cast out, nobody wins.  Alice 2, Bob 7, Carol Debt = −5
G4  Alice resigned (unrated): her seat's bot wins with Luxury 10, 20,000
    Bob  Luxury 2, 8,000    Carol  Debt = −5, 2,000 (cast out)
G5  a deadline move (unrated).  Alice  Luxury 4 + Scandal = 2, 1,000 (cast out)
    Bob  Luxury 6, 6,000    Carol  Luxury 7, 8,000 (wins)
"""

from __future__ import annotations

import pytest

from accounts.models import GameRecord, HeadToHead, PlayerResult, PlayerStats
from games.models import Move
from tests.games.records.conftest import scored_game

FIVE = [4000, 1000]


@pytest.fixture
def five_games(alice, bob, carol):
    games = [
        scored_game(
            [alice, bob, carol],
            [
                {"cards": ["lux10", "lux3"], "money": [20000], "won": ["lux10", "lux3"]},
                {"cards": ["lux8", "prestige"], "money": [15000], "won": ["lux8", "prestige"]},
                {"cards": ["lux5"], "money": [3000], "won": ["lux5"]},
            ],
        ),
        scored_game(
            [alice, bob, "easy"],
            [
                {"cards": ["prestige"], "money": [10000], "won": ["prestige"]},
                {"cards": ["prestige"], "money": [10000], "won": ["prestige"]},
                {"cards": ["lux1"], "money": [1000], "won": ["lux1"]},
            ],
        ),
        scored_game(
            [alice, bob, carol],
            [
                {"cards": ["lux2"], "money": FIVE, "won": ["lux2"]},
                {"cards": ["lux7"], "money": FIVE, "won": ["lux7"]},
                {"cards": ["debt"], "money": FIVE},
            ],
        ),
        scored_game(
            [("resigned", alice), bob, carol],
            [
                {"cards": ["lux10"], "money": [20000], "won": ["lux10"]},
                {"cards": ["lux2"], "money": [8000], "won": ["lux2"]},
                {"cards": ["debt"], "money": [2000]},
            ],
        ),
        scored_game(
            [alice, bob, carol],
            [
                {"cards": ["lux4", "scandal"], "money": [1000], "won": ["lux4"]},
                {"cards": ["lux6"], "money": [6000], "won": ["lux6"]},
                {"cards": ["lux7"], "money": [8000], "won": ["lux7"]},
            ],
            actions=[{"seat": 0, "type": "pass"}],
            actors={0: Move.Actor.DEADLINE},
        ),
    ]
    return games


def test_totals_by_hand(five_games, alice, bob, carol):
    a, b, c = (PlayerStats.objects.get(user=u) for u in (alice, bob, carol))
    assert (a.games_played, a.games_won, a.times_cast_out, a.games_resigned) == (5, 1, 2, 1)
    # G4's Luxury 10 is the bot's (Alice resigned): status over her other four games.
    assert (a.status_total, a.average_status, a.win_rate) == (17, 4.25, 0.2)
    assert a.rated_games == 3
    assert (b.games_played, b.games_won, b.times_cast_out, b.games_resigned) == (5, 2, 1, 0)
    assert (b.status_total, b.average_status, b.win_rate) == (31, 6.2, 0.4)
    assert b.rated_games == 3
    assert (c.games_played, c.games_won, c.times_cast_out) == (4, 1, 3)
    assert (c.status_total, c.average_status, c.win_rate) == (2, 0.5, 0.25)
    assert c.rated_games == 2


def test_rated_and_unrated(five_games):
    rated = [GameRecord.objects.get(game=g).rated for g in five_games]
    assert rated == [True, True, True, False, False]


def test_ranks_by_hand(five_games, alice, bob, carol):
    def ranks(game):
        by_user = dict(PlayerResult.objects.filter(game=game).values_list("user_id", "rank"))
        return [by_user.get(u.pk) for u in (alice, bob, carol)]

    g1, g2, g3, g4, g5 = five_games
    assert ranks(g1) == [2, 1, 3]
    assert ranks(g2) == [1, 1, None]  # the bot is third
    assert ranks(g3) == [1, 1, 1]
    assert ranks(g4) == [1, 2, 3]  # Alice's seat won, after she resigned
    assert ranks(g5) == [3, 2, 1]
    g4_alice = PlayerResult.objects.get(game=g4, user=alice)
    assert g4_alice.resigned and not g4_alice.won


def test_most_won_cards(five_games, alice):
    stats = PlayerStats.objects.get(user=alice)
    # G4's Luxury 10 is the bot's, won after Alice resigned.
    assert stats.cards_won == {"lux10": 1, "lux3": 1, "prestige": 1, "lux2": 1, "lux4": 1}
    assert stats.most_won_cards() == [
        ("prestige", 1),
        ("lux10", 1),
        ("lux4", 1),
        ("lux3", 1),
        ("lux2", 1),
    ]


def test_head_to_head_by_hand(five_games, alice, bob, carol):
    def record(user, opponent=None, bot=""):
        h = HeadToHead.objects.get(user=user, opponent=opponent, opponent_bot=bot)
        return (h.games, h.wins, h.losses, h.draws)

    assert record(alice, bob) == (5, 0, 3, 2)
    assert record(bob, alice) == (5, 3, 0, 2)
    assert record(alice, carol) == (4, 1, 2, 1)
    assert record(bob, carol) == (4, 2, 1, 1)
    assert record(alice, bot="easy") == (1, 1, 0, 0)
    assert record(bob, bot="easy") == (1, 1, 0, 0)
    assert not HeadToHead.objects.filter(user=carol, opponent_bot="easy").exists()


def test_unrated_games_keep_the_rating(five_games, alice):
    history = list(
        PlayerResult.objects.filter(user=alice)
        .order_by("finished_at")
        .values_list("rated", "rating_after")
    )
    assert [rated for rated, _ in history] == [True, True, True, False, False]
    assert PlayerStats.objects.get(user=alice).rating == history[2][1]


def test_a_resigned_player_keeps_only_the_cards_they_won_themselves(alice, bob, carol):
    """Alice resigned half way: the cards her seat's bot won after that are not hers,
    nor its final status or its fate; the cards she won before are."""
    from games.engine import apply_action, new_game
    from games.ratings import cards_won_by_seat
    from tests.games.records.conftest import play_random, store_game

    def alice_won(state):
        return sum(cards_won_by_seat(state)[0].values())

    state, actions = next(
        (state, actions)
        for state, actions in (play_random(3, seed) for seed in range(1, 200))
        if alice_won(state) >= 2
    )
    # Resign her once she has won about half of her cards.
    replayed = new_game(
        players=3,
        deck=list(state.setup_deck),
        first_player=state.first_player,
        advanced=state.advanced,
    )
    log_ends, before = [], None
    for n, action in enumerate(actions):
        replayed = apply_action(replayed, action)
        log_ends.append(len(replayed.events))
        if before is None and alice_won(replayed) * 2 >= alice_won(state):
            before, resigned_after = cards_won_by_seat(replayed)[0], n + 1
    assert before and before != cards_won_by_seat(state)[0]
    store_game(
        [("resigned", alice, resigned_after), bob, carol],
        state,
        actions=actions,
        log_ends=log_ends,
    )
    stats = PlayerStats.objects.get(user=alice)
    assert stats.cards_won == before
    assert (stats.games_played, stats.games_resigned, stats.status_total) == (1, 1, 0)
    assert (stats.times_cast_out, stats.average_status) == (0, None)


def test_the_data_migration_takes_the_bots_end_out_of_old_totals(five_games, alice, bob):
    """Totals recorded before resigned seats were left out (G4 counted the bot's status
    10 as Alice's) are mended by accounts' migration 0011; Bob's are left alone."""
    import importlib

    from django.apps import apps

    stats = PlayerStats.objects.get(user=alice)
    stats.status_total += 10  # as recorded before: G4's final status counted
    stats.save()
    before_bob = PlayerStats.objects.get(user=bob).status_total
    migration = importlib.import_module("accounts.migrations.0011_resigned_games_stats")
    migration.resigned_ends_out(apps, None)
    stats.refresh_from_db()
    assert (stats.status_total, stats.average_status, stats.times_cast_out) == (17, 4.25, 2)
    assert PlayerStats.objects.get(user=bob).status_total == before_bob
    # Rolled back and migrated forward again: the same totals, not taken out twice.
    migration.resigned_ends_back(apps, None)
    stats.refresh_from_db()
    assert stats.status_total == 27
    migration.resigned_ends_out(apps, None)
    stats.refresh_from_db()
    assert (stats.status_total, stats.times_cast_out) == (17, 2)


def test_the_data_migration_marks_old_results_of_seats_handed_over(alice, bob, carol):
    """Results stored before ``PlayerResult.handed_over``: accounts' migration 0013
    marks those whose seat the host handed to a bot, not those who resigned."""
    import importlib

    from django.apps import apps

    from tests.games.records.conftest import play_random, store_game

    state, _ = play_random(3, 1)
    handed = store_game([("handed_over", alice), ("resigned", bob), carol], state)
    rows = PlayerResult.objects.filter(game=handed)
    assert {r.user_id: r.handed_over for r in rows} == {
        alice.pk: True,
        bob.pk: False,
        carol.pk: False,
    }
    assert GameRecord.objects.get(game=handed).unrated_reason == "A player resigned."
    rows.update(handed_over=False)  # as stored before the field
    migration = importlib.import_module("accounts.migrations.0013_playerresult_handed_over")
    migration.handed_over_backfill(apps, None)
    assert {r.user_id: r.handed_over for r in rows.all()} == {
        alice.pk: True,
        bob.pk: False,
        carol.pk: False,
    }
