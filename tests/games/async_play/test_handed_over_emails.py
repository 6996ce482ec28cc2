"""A player whose seat the host hands to a bot (after missed deadlines) hears of it:
an e-mail (and a push, where they turned push on) naming the host and what follows,
once per table, in their language, and not when their board showed it already."""

from __future__ import annotations

import pytest
from django.core import mail

from accounts.preferences import emails_off_set
from games.models import Notification
from games.notifications import notification_send, seat_seen
from games.services import game_invitation_respond, game_seat_to_bot
from tests.games.async_play.push_service import subscribe
from tests.games.factories import GameFactory, scenario_deck

pytestmark = pytest.mark.django_db


def _to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


@pytest.fixture
def bob_away(dora, bob, run_commits, misses_deadline):
    """Dora's table with Bob and an easy bot, a day per move; Bob has missed two
    deadlines, so Dora may hand his seat to a bot; the outbox is empty."""
    with run_commits():
        game = GameFactory(
            creator=dora,
            seats=[{"user": "bob"}, {"ai": "easy"}],
            deck=scenario_deck("lux5 lux4 lux3 lux2 lux1"),
            first_player=1,
            move_deadline_hours=24,
        )
        game_invitation_respond(game=game, user=bob, accept=True)
    game = misses_deadline(misses_deadline(game, dora, 1), dora, 1)
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
    html = message.alternatives[0][0]
    assert "missed 2 deadlines, so Dora, the table" in html
    # The unsubscribe link of this e-mail switches off this kind only.
    assert message.extra_headers["List-Unsubscribe"].startswith("<http")
    assert "your seat handed to a bot after missed deadlines" in message.body
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
