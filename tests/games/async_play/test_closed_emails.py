"""The people seated or invited at a table that closes before its game starts hear of
it: an e-mail (and a push, where they turned push on) saying who closed it or that it
waited too long, and what became of their seat; the host who closes it is not told,
the host of a table that expired is.  On the table's page the host is asked twice."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from accounts.preferences import emails_off_set
from games.deadlines import stalled_sweep
from games.models import Game, Notification
from games.notifications import notification_send, seat_seen
from games.services import game_create, game_join, game_leave
from tests.games.async_play.push_service import subscribe

pytestmark = pytest.mark.django_db


def _to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


@pytest.fixture
def waiting(alice, bob, carol, run_commits):
    """Alice's 4-seat table: Bob invited (not answered yet), Carol joined an open seat,
    one seat still open; the invitation e-mail is out of the way."""
    with run_commits():
        game = game_create(
            creator=alice, players=4, seats=[{"user": "bob"}, {"open": True}, {"open": True}]
        )
        game_join(game=game, user=carol)
    mail.outbox.clear()
    return game


def test_the_host_closing_tells_the_seated_and_the_invited(alice, bob, carol, waiting, run_commits):
    with run_commits():
        game_leave(game=waiting, user=alice)
    table = waiting.pk
    (to_carol,) = _to(carol)
    assert to_carol.subject == (
        f"[High Society] Alice closed table {table} before its game started"
    )
    assert f"Alice closed table {table} before its game started." in to_carol.body
    assert "You no longer have a seat there: it does not count against your tables." in (
        to_carol.body
    )
    assert "To play, join a table in the lobby or open one of your own:\nhttp" in to_carol.body
    assert "tables you were at closed before their game started" in to_carol.body  # unsubscribe
    (to_bob,) = _to(bob)
    assert "Your invitation to it no longer stands." in to_bob.body
    assert "You no longer have a seat" not in to_bob.body
    assert _to(alice) == []  # she did it
    assert set(
        Notification.objects.filter(kind=Notification.Kind.CLOSED).values_list("user", flat=True)
    ) == {bob.pk, carol.pk}


def test_a_table_that_expired_tells_its_host_too(alice, bob, carol, waiting, run_commits):
    Game.objects.filter(pk=waiting.pk).update(updated_at=timezone.now() - timedelta(days=31))
    with run_commits():
        assert stalled_sweep(now=timezone.now()) == 1
    table = waiting.pk
    (to_alice,) = _to(alice)
    assert to_alice.subject == f"[High Society] Table {table} closed before its game started"
    assert (
        f"Table {table} waited 30 days for players with no seat taken, left or changed, so it"
        " was closed before its game started." in to_alice.body
    )
    assert "To play, open a new table:\nhttp" in to_alice.body
    assert "no longer" not in to_alice.body
    (to_carol,) = _to(carol)
    assert f"Table {table} waited 30 days" in to_carol.body
    assert "Alice" not in to_carol.subject
    assert len(_to(bob)) == 1


def test_the_page_of_a_table_that_expired_says_why(client, alice, carol, dave, waiting):
    """It said "Its host closed it" of a table nobody closed."""
    Game.objects.filter(pk=waiting.pk).update(updated_at=timezone.now() - timedelta(days=31))
    stalled_sweep(now=timezone.now())
    for user in (alice, carol):
        client.force_login(user)
        html = client.get(f"/games/{waiting.pk}/").content.decode()
        assert "It waited 30 days for players with no seat taken, left or changed" in html
        assert "Its host closed it" not in html
    client.force_login(dave)  # no seat there: the table's 410 page, the same for both
    gone = client.get(f"/games/{waiting.pk}/")
    assert gone.status_code == 410
    assert "It was closed before the game began" in gone.content.decode()


def test_a_host_name_is_not_markup_and_the_mail_is_in_the_readers_language(
    alice, carol, waiting, run_commits
):
    alice.display_name = "<b>Alice</b>"
    alice.save(update_fields=["display_name"])
    carol.language = "de"
    carol.save(update_fields=["language"])
    with run_commits():
        game_leave(game=waiting, user=alice)
    (message,) = _to(carol)
    assert f"hat Tisch {waiting.pk} vor Beginn der Partie geschlossen" in message.subject
    html = message.alternatives[0][0]
    assert "&lt;b&gt;Alice&lt;/b&gt;" in html and "<b>Alice</b>" not in html
    assert "Du hast dort keinen Platz mehr" in message.body
    assert "Zum Spielen setz dich in der Lobby an einen Tisch oder eröffne deinen eigenen:" in message.body


def test_not_when_the_player_saw_it_at_the_table_nor_when_switched_off(
    alice, bob, carol, waiting, run_commits
):
    emails_off_set(user=bob, kinds=["closed"])
    seat_seen(game_id=waiting.pk, user=carol)  # her page is open
    with run_commits():
        game_leave(game=waiting, user=alice)
    assert mail.outbox == []
    row = Notification.objects.get(user=carol, kind=Notification.Kind.CLOSED)
    assert row.status == Notification.Status.PENDING  # she may see it there: wait
    seat_seen(game_id=waiting.pk, user=carol)  # her page refreshed: "This table was closed."
    assert notification_send(notification_id=row.pk, now=row.due_at) == "skipped"
    bobs = Notification.objects.get(user=bob, kind=Notification.Kind.CLOSED)
    assert bobs.status == Notification.Status.SKIPPED


def test_a_push_says_it_too(alice, carol, waiting, run_commits, service):
    browser = subscribe(carol, service, "carol")
    emails_off_set(user=carol, kinds=["closed"])
    with run_commits():
        game_leave(game=waiting, user=alice)
    assert _to(carol) == []
    assert browser.decrypt(service.received[-1].body) == {
        "title": f"Alice closed table {waiting.pk} before its game started",
        "body": "This table was closed before its game started.",
        "url": f"/games/{waiting.pk}/",
        "tag": f"game-{waiting.pk}",
        "kind": "closed",
    }


def test_a_player_leaving_tells_nobody_but_the_board(alice, carol, waiting, run_commits):
    with run_commits():
        game_leave(game=waiting, user=carol)
    assert not Notification.objects.filter(kind=Notification.Kind.CLOSED).exists()


def test_the_host_is_asked_twice_on_the_page(client, alice, carol, waiting):
    client.force_login(alice)
    html = client.get(f"/games/{waiting.pk}/").content.decode()
    assert '<details class="close-table">' in html
    assert "everyone seated or invited here is told by e-mail. This cannot be undone." in html
    assert "Close the table</button>" in html
    client.force_login(carol)
    html = client.get(f"/games/{waiting.pk}/").content.decode()
    assert "close-table" not in html and "Leave this table</button>" in html


def test_a_host_taken_out_by_staff_is_not_said_to_have_closed_it(
    alice, bob, carol, waiting, run_commits
):
    """A suspension (or a deletion) closes the host's tables through the host's leaving:
    the e-mail said "Alice closed table N", a choice she never made."""
    from games.services import player_tables_leave

    with run_commits():
        player_tables_leave(user=alice, why="suspended")
    (message,) = _to(carol)
    table = waiting.pk
    assert message.subject == f"[High Society] Table {table} closed before its game started"
    assert f"Table {table} closed before its game started: its host no longer plays." in (
        message.body
    )
    assert "Alice" not in message.body.split("--")[0].replace("Hello Carol", "")
    assert "waited" not in message.body
    assert _to(alice) == []
