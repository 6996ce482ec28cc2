"""The board's log for a game over days (issue #14): one entry per move, numbered as
the replay and the error messages count moves, with the time each was made; a bot that
plays a resigned player's seat is named as the bot."""

from __future__ import annotations

import re

import pytest

from games.models import Game, Move
from games.selectors import log_entries, table_view
from games.services import game_resign
from tests.games.pages.conftest import act, table_make

pytestmark = pytest.mark.django_db


def test_entries_are_numbered_like_the_replay_and_dated(host, bob, carol):
    game = table_make(host, [bob, carol])
    act(game, host, type="bid", cards=[1000])
    act(game, bob, type="pass")
    act(game, carol, type="pass")  # host wins Luxury 3, the next card is revealed
    game = Game.objects.get(pk=game.pk)
    entries = log_entries(game=game, view=table_view(game=game, user=bob))
    assert [e.number for e in entries] == list(range(game.version + 1))
    assert entries[0].text.startswith("Alice reveals") or "reveals" in entries[0].text
    assert entries[1].text == "Alice bids 1,000 (total 1,000)."
    assert entries[3].text.startswith("Carol passes.") and "wins" in entries[3].text
    moves = {m.number: m.created_at for m in Move.objects.filter(game=game)}
    assert all(entries[n + 1].at == at for n, at in moves.items())


def test_the_board_shows_numbers_and_times(client, host, bob, carol):
    game = table_make(host, [bob, carol])
    act(game, host, type="bid", cards=[1000])
    client.force_login(bob)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert re.search(
        r'<li value="1"><time class="log__time" datetime="[^"]+" data-local="time">[^<]+ UTC</time> '
        r"Alice bids 1,000",
        html,
    )
    # The set-up is numbered 0 for the list, but draws no "0." (it is no move).
    assert '<li value="0" class="log__setup">' in html and "Set-up:" in html


def test_a_bot_in_a_resigned_seat_is_named_as_the_bot(host, bob, carol, run_commits):
    game = table_make(host, [bob, carol])
    with run_commits():
        game_resign(game=game, user=host)  # seat 0 was to act: its bot plays at once
    game = Game.objects.get(pk=game.pk)
    entries = log_entries(game=game, view=table_view(game=game, user=bob))
    # The set-up came before she resigned: it names her as she was then.
    assert "Alice" in entries[0].text and "(resigned)" not in entries[0].text
    # After the set-up, the line saying the bot took over; then the bot's first move.
    assert (entries[1].actor, entries[1].text) == (
        "takeover",
        "From here on, a bot (medium) plays for Alice.",
    )
    bot_entry = entries[2]
    assert bot_entry.actor == "bot"
    assert bot_entry.text.startswith("Bot (medium) for Alice (resigned) ")


def test_a_players_own_moves_before_resigning_keep_their_name(
    client, host, bob, carol, run_commits
):
    """The moves Alice made herself, and what they caused, read "Alice", not "Alice
    (resigned)": the seat's name changes from the moment she resigned."""
    game = table_make(host, [bob, carol])
    act(game, host, type="bid", cards=[1000])
    act(game, bob, type="pass")
    act(game, carol, type="pass")  # Alice wins the first card
    with run_commits():
        game_resign(game=game, user=host)  # seat 0 opens the next auction: its bot plays
    game = Game.objects.get(pk=game.pk)
    assert game.seats.get(user=host).resigned_after == 3
    entries = log_entries(game=game, view=table_view(game=game, user=bob))
    assert entries[1].text == "Alice bids 1,000 (total 1,000)."
    assert "Alice wins" in entries[3].text and "(resigned)" not in entries[3].text
    assert entries[4].actor == "takeover" and entries[5].actor == "bot"
    assert entries[5].text.startswith("Bot (medium) for Alice (resigned) ")
    client.force_login(bob)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Alice bids 1,000 (total 1,000)." in html
    assert "Bot (medium) for Alice (resigned)" in html


def test_moves_stored_before_positions_were_kept_show_the_plain_log(client, host, bob, carol):
    game = table_make(host, [bob, carol])
    act(game, host, type="bid", cards=[1000])
    Move.objects.filter(game=game).update(log_end=None)
    game = Game.objects.get(pk=game.pk)
    assert log_entries(game=game, view=table_view(game=game, user=bob)) is None
    client.force_login(bob)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Alice bids 1,000 (total 1,000)." in html and '<li value="1">' not in html


def test_a_deadlines_move_is_named_as_a_sentence_may_start():
    """A bot that moved for an absent player at the deadline opens the log's sentence
    with a capital, as every other name does: "Deadline bot for Bob passes."."""
    from types import SimpleNamespace

    from games.presenter import mover_names

    seat = SimpleNamespace(user_id=7, ai_level="")
    move = {"seat": 1, "actor": "deadline"}
    assert mover_names(("Alice", "Bob", "Carol"), move, seat)[1] == "Deadline bot for Bob"


def test_the_yacht_club_reveal_names_every_chooser_alike():
    """Bob's and Carol's deadlines passed and a bot chose for each: Bob's choice had its
    own line, Carol's (the last, which reveals them all) read "…, Bob 1,000, Deadline
    bot for Carol 2,000", as if Bob had chosen himself.  Now the reveal names all of
    them plainly, after a line for the last choice's maker."""
    from types import SimpleNamespace

    from games.presenter import move_caption, mover_names

    plain = ("Alice", "Bob", "Carol")
    reveal = {
        "type": "sealed",
        "choices": [
            {"seat": 0, "card": 20000},
            {"seat": 1, "card": 1000},
            {"seat": 2, "card": 2000},
        ],
        "winner": 0,
    }
    move = {"seat": 2, "actor": "deadline", "action": {"type": "sealed_bid", "seat": 2}}
    names = mover_names(plain, move, SimpleNamespace(user_id=9, ai_level=""))
    text = move_caption([reveal], names, move, plain)
    assert text == (
        "Deadline bot for Carol makes a sealed choice for the Yacht Club. Yacht Club "
        "choices: Alice 20,000, Bob 1,000, Carol 2,000. Alice wins the Yacht Club."
    )
    own = {"seat": 2, "actor": "player", "action": {"type": "sealed_bid", "seat": 2}}
    assert move_caption([reveal], plain, own, plain).startswith("Yacht Club choices: Alice")
