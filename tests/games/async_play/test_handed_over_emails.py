"""A player whose seat the host hands to a bot (after missed deadlines) hears of it:
an e-mail (and a push, where they turned push on) naming the host and what follows,
once per table, in their language, and not when their board showed it already."""

from __future__ import annotations

import random

import pytest
from django.core import mail

from accounts.models import GameRecord, PlayerResult, PlayerStats
from accounts.preferences import emails_off_set
from games.models import Game, Notification
from games.notifications import notification_send, seat_seen
from games.services import game_seat_to_bot
from tests.games.async_play.push_service import subscribe
from tests.games.factories import people_play

pytestmark = pytest.mark.django_db


def _to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


@pytest.fixture
def bob_away(dora, bobs_table, misses_deadline):
    """``bobs_table`` once Bob has missed two deadlines, so Dora may hand his seat to a
    bot; the outbox is empty."""
    game = misses_deadline(misses_deadline(bobs_table, dora, 1), dora, 1)
    mail.outbox.clear()
    return game


def _hand_over(game, dora, run_commits):
    with run_commits():
        game_seat_to_bot(game=game, user=dora, position=1)


def test_the_player_hears_who_handed_the_seat_over_and_what_follows(
    dora, bob, bob_away, run_commits
):
    _hand_over(bob_away, dora, run_commits)
    (message,) = _to(bob)
    table = bob_away.pk
    assert message.subject == f"[High Society] Dora handed your seat at table {table} to a bot"
    assert (
        f"Your seat at table {table} missed 2 deadlines, so Dora, the table's host, handed it"
        " to a bot: the bot plays your seat to the end of the game." in message.body
    )
    assert "This cannot be undone. The game changes no rating" in message.body
    assert f"/games/{table}/" in message.body
    # No deadline: the next move's is another player's (it ended the e-mail as if
    # Bob had a time to keep).
    assert bob_away.deadline_at is not None
    assert "is due" not in message.body and "ran out" not in message.body
    html = message.alternatives[0][0]
    assert "missed 2 deadlines, so Dora, the table" in html
    # The unsubscribe link of this e-mail switches off this kind only.
    assert message.extra_headers["List-Unsubscribe"].startswith("<http")
    assert "your seat handed to a bot while you were away" in message.body
    assert _to(dora) == []  # the host did it: nothing to tell her
    notice = Notification.objects.get(user=bob, kind=Notification.Kind.HANDED_OVER)
    assert notice.status == Notification.Status.SENT and notice.game_id == table


def test_a_host_name_is_not_markup_in_the_html_part(dora, bob, bob_away, run_commits):
    dora.display_name = "<b>Dora</b>"
    dora.save(update_fields=["display_name"])
    _hand_over(bob_away, dora, run_commits)
    (message,) = _to(bob)
    html = message.alternatives[0][0]
    assert "&lt;b&gt;Dora&lt;/b&gt;, the table" in html and "<b>Dora</b>" not in html


def test_not_when_the_player_saw_it_at_the_board(dora, bob, bob_away, run_commits):
    seat_seen(game_id=bob_away.pk, user=bob)  # his board is open
    _hand_over(bob_away, dora, run_commits)
    row = Notification.objects.get(user=bob, kind=Notification.Kind.HANDED_OVER)
    assert row.status == Notification.Status.PENDING  # he may see it there: wait
    seat_seen(game_id=bob_away.pk, user=bob)  # his board refreshed: "replaced by a bot"
    assert notification_send(notification_id=row.pk, now=row.due_at) == "skipped"
    row.refresh_from_db()
    assert row.note == "The player saw it at the board."
    assert _to(bob) == []


def test_a_player_who_switched_these_off_gets_none(dora, bob, bob_away, run_commits):
    emails_off_set(user=bob, kinds=["handed_over"])
    _hand_over(bob_away, dora, run_commits)
    assert _to(bob) == []


def test_in_the_players_language(dora, bob, bob_away, run_commits):
    bob.language = "fr"
    bob.save(update_fields=["language"])
    _hand_over(bob_away, dora, run_commits)
    (message,) = _to(bob)
    assert message.subject == (
        f"[High Society] Dora a confié votre place à la table {bob_away.pk} à un bot"
    )
    assert "a manqué 2\u00a0échéances" in message.body


def test_the_push_says_so_and_nothing_else(dora, bob, bob_away, run_commits, service):
    browser = subscribe(bob, service, "bob")
    _hand_over(bob_away, dora, run_commits)
    payload = browser.decrypt(service.received[-1].body)
    assert payload == {
        "title": f"Dora handed your seat at table {bob_away.pk} to a bot",
        "body": "You missed your deadlines: a bot plays your seat to the end of the game.",
        "url": f"/games/{bob_away.pk}/",
        "tag": f"game-{bob_away.pk}",
        "kind": "handed_over",
    }


def test_at_the_end_the_result_says_the_seat_was_handed_over(
    client, dora, bob, bob_away, run_commits
):
    """The game-over e-mail, the history, the replay, the API and the unrated reason
    say the host handed the seat over; the record still counts it as resigned."""
    _hand_over(bob_away, dora, run_commits)
    game, rng = bob_away, random.Random(3)
    # An ordinary game from here (the fixed deck alone would leave it unrated).
    Game.objects.filter(pk=game.pk).update(scenario_deck=None, scenario_first_player=None)
    while game.status == Game.Status.ACTIVE:
        with run_commits():
            game = people_play(game, rng)
        game.refresh_from_db()
    (over,) = [m for m in _to(bob) if "is over" in m.subject]
    assert "The host had handed your seat to a bot while you were away: it played" in over.body
    assert "You had resigned" not in over.body and "Bob (replaced by a bot)" in over.body
    # Why no rating changed is that first line again: not said twice.
    assert "This game changes no rating." in over.body
    assert "The host handed an absent player's seat to a bot." not in over.body
    result = PlayerResult.objects.get(user=bob, game=game)
    assert result.handed_over and result.resigned and not result.rated
    assert GameRecord.objects.get(game=game).unrated_reason == (
        "The host handed an absent player's seat to a bot."
    )
    assert PlayerStats.objects.get(user=bob).games_resigned == 1

    client.force_login(bob)
    history = client.get("/games/history/").content.decode()
    assert "Replaced by a bot" in history and "Resigned" not in history
    replay = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert "(missed deadlines; the host handed the seat to a bot" in replay
    assert "(resigned; a bot finished the game)" not in replay
    # Said once: not "Missed deadlines — played by a bot" and "Missed 2 deadlines" too.
    assert "Missed deadlines — played by a bot" in replay and "Missed 2 deadlines" not in replay
    board = client.get(f"/games/{game.pk}/").content.decode()
    assert "The host handed an absent player&#x27;s seat to a bot." in board
    (recent,) = client.get("/api/v1/users/bob/").json()["recent_games"]
    assert (recent["handed_over"], recent["resigned"]) == (True, True)
    record = client.get(f"/games/{game.pk}/record.json").json()
    assert [(p["resigned"], p["handed_over"]) for p in record["players"]] == [
        (False, False),
        (True, True),
        (False, False),
    ]


@pytest.mark.parametrize("template", ["emails/game_over.txt", "emails/game_over.html"])
@pytest.mark.parametrize("why", ["handed_over", "resigned"])
def test_a_bot_cast_out_in_the_seat_is_given_no_place(template, why):
    """Everyone cast out (the same money): the seats share place 1, and the e-mail said
    the bot "played your seat to the end (place 1 of 3)" beside "nobody wins"."""
    from django.template.loader import render_to_string

    context = {"name": "Bob", "place": 1, "of": 3, "resigned": True, "scores": []}
    context[why] = True
    text = render_to_string(template, {**context, "cast_out": True})
    assert "played your seat to the end." in text and "place 1 of 3" not in text
    assert "place 1 of 3" in render_to_string(template, {**context, "cast_out": False})
