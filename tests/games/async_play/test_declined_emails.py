"""The host hears when an invitation to their table is declined: an e-mail (and a
push, where they turned push on) naming who declined and the seat that opened, with
the way to fill it; once per player and table, and not when the host has seen it at
the table or dealt with the seat already."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.core import mail
from django.utils import translation

from accounts.preferences import emails_off_set
from games.models import Game, Notification
from games.notifications import OUTBOX_GRACE, notification_send, seat_seen
from games.selectors import reader_token
from games.services import (
    game_create,
    game_invitation_respond,
    game_join,
    game_leave,
    game_seat_set,
    invitations_decline_all,
)
from tests.games.async_play.push_service import subscribe

pytestmark = pytest.mark.django_db


def _to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


def _declined_rows(user):
    return Notification.objects.filter(user=user, kind=Notification.Kind.DECLINED)


@pytest.fixture
def waiting(alice, bob, carol, run_commits):
    """Alice's 4-seat table: Bob invited to seat 2, Carol to seat 3, a hard bot in
    seat 4; the invitation e-mails are out of the way."""
    with run_commits():
        game = game_create(
            creator=alice,
            players=4,
            seats=[{"user": "bob"}, {"user": "carol"}, {"ai": "hard"}],
        )
    mail.outbox.clear()
    return game


def test_the_host_hears_who_declined_and_how_to_fill_the_seat(alice, bob, waiting, run_commits):
    with run_commits():
        game_invitation_respond(game=waiting, user=bob, accept=False)
    (message,) = _to(alice)
    assert message.subject == f"[High Society] Bob declined your invitation to table {waiting.pk}"
    body = message.body
    assert f"Bob declined your invitation to table {waiting.pk}." in body
    assert (
        "Seat 2 waits for your choice: meanwhile nobody else can take it, and Bob may take it back."
        in body
    )
    seats = "The seats now:\n  Seat 1: You\n  Seat 2: Bob declined\n  Seat 3: Carol, invited\n"
    assert seats in body
    assert "  Seat 4: Bot (hard)\n" in body
    assert 'choose "Change seat 2" on the table\'s page:' in body
    url = f"{settings.SITE_URL}/games/{waiting.pk}/?" + urlencode(
        {"for": reader_token(waiting.pk, alice.pk)}
    )  # names its reader
    assert url in body
    html = message.alternatives[0][0]
    assert f'href="{url}"' in html and "<strong>Bob</strong> declined" in html
    # Its own kind: the one-click link stops these e-mails only.
    assert "Stop these e-mails (invitations to your tables declined)" in body
    assert "List-Unsubscribe" in message.extra_headers
    assert _to(bob) == []
    assert _declined_rows(alice).get().status == Notification.Status.SENT


def test_leaving_an_unanswered_invitation_is_a_decline_too(alice, bob, carol, waiting, run_commits):
    with run_commits():
        game_leave(game=waiting, user=bob)
    assert [m.subject for m in _to(alice)] == [
        f"[High Society] Bob declined your invitation to table {waiting.pk}"
    ]
    # A player who had accepted and leaves before the start gives the invitation up:
    # the host hears of it the same way (the seat became a stranger's open seat, untold),
    # in words that say what happened (it said "Carol declined", of an acceptance).
    with run_commits():
        game_invitation_respond(game=waiting, user=carol, accept=True)
        game_leave(game=waiting, user=carol)
    (message,) = _to(alice)[1:]
    assert message.subject == f"[High Society] Carol left table {waiting.pk}"
    assert (
        f"Carol accepted your invitation to table {waiting.pk}, then left the seat. Seat 3"
        " waits for your choice: meanwhile nobody else can take it, and Carol may take it"
        " back." in message.body
    )
    assert "Seat 2: Bob declined\n  Seat 3: Carol left\n" in message.body
    assert _declined_rows(alice).filter(key=f"{waiting.pk}:{carol.pk}").exists()


def test_the_table_and_the_lobby_say_who_left_and_who_declined(
    client, alice, bob, carol, waiting, run_commits
):
    game_invitation_respond(game=waiting, user=bob, accept=False)
    game_invitation_respond(game=waiting, user=carol, accept=True)
    game_leave(game=waiting, user=carol)
    client.force_login(alice)
    page = client.get(f"/games/{waiting.pk}/").content.decode()
    assert ">Bob declined</span>" in page and ">Carol left</span>" in page
    lobby = client.get("/").content.decode()
    assert ">Bob declined</span>" in lobby and ">Carol left</span>" in lobby
    client.force_login(carol)  # everyone saw her seated: the seat says she left
    page = client.get(f"/games/{waiting.pk}/").content.decode()
    assert ">Seat left</span>" in page and ">Invitation declined</span>" in page
    game_join(game=waiting, user=carol)  # she takes it back: nothing left to say
    client.force_login(alice)
    page = client.get(f"/games/{waiting.pk}/").content.decode()
    assert "Carol left" not in page and ">Bob declined</span>" in page


def test_declining_everything_tells_each_host(alice, bob, carol, waiting, run_commits):
    with run_commits():
        other = game_create(creator=carol, players=3, seats=[{"user": "bob"}, {"open": True}])
    mail.outbox.clear()
    with run_commits():
        assert invitations_decline_all(user=bob) == 2
    assert [m.subject for m in _to(alice)] == [
        f"[High Society] Bob declined your invitation to table {waiting.pk}"
    ]
    assert [m.subject for m in _to(carol)] == [
        f"[High Society] Bob declined your invitation to table {other.pk}"
    ]


def test_once_per_player_and_table(alice, bob, waiting, run_commits):
    with run_commits():
        game_invitation_respond(game=waiting, user=bob, accept=False)
        game_seat_set(game=waiting, user=alice, position=1, seat={"user": "bob"})
        game_invitation_respond(game=waiting, user=bob, accept=False)
    assert len(_to(alice)) == 1 and _declined_rows(alice).count() == 1


def test_not_when_the_host_saw_it_at_the_table(alice, bob, waiting, run_commits):
    seat_seen(game_id=waiting.pk, user=alice)  # her board is open
    with run_commits():
        game_invitation_respond(game=waiting, user=bob, accept=False)
    row = _declined_rows(alice).get()
    assert row.status == Notification.Status.PENDING  # she may see it there: wait
    assert row.due_at == row.created_at + OUTBOX_GRACE
    seat_seen(game_id=waiting.pk, user=alice)  # her board refreshed: "Bob declined"
    assert notification_send(notification_id=row.pk, now=row.due_at) == "skipped"
    row.refresh_from_db()
    assert row.note == "The host saw it at the table."
    assert _to(alice) == []


def test_a_host_who_left_the_table_a_moment_before_is_told(alice, bob, waiting, run_commits):
    seat_seen(game_id=waiting.pk, user=alice)  # she was at the table until a moment ago
    with run_commits():
        game_invitation_respond(game=waiting, user=bob, accept=False)
    row = _declined_rows(alice).get()
    assert row.status == Notification.Status.PENDING and _to(alice) == []
    # The outbox sweep's retry after the grace: she has not looked since.
    assert notification_send(notification_id=row.pk, now=row.due_at) == "sent"
    assert [m.subject for m in _to(alice)] == [
        f"[High Society] Bob declined your invitation to table {waiting.pk}"
    ]


@pytest.mark.parametrize("then", ["bot", "invited", "started"])
def test_not_when_the_seat_was_dealt_with_before_it_went(
    alice, bob, carol, dave, waiting, then, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as later:
        game_invitation_respond(game=waiting, user=bob, accept=False)
    if then == "bot":
        game_seat_set(game=waiting, user=alice, position=1, seat={"ai": "easy"})
    elif then == "invited":
        game_seat_set(game=waiting, user=alice, position=1, seat={"user": "dave"})
    else:  # opened to anyone, a stranger takes it from the lobby: the game starts
        game_invitation_respond(game=waiting, user=carol, accept=True)
        game_seat_set(game=waiting, user=alice, position=1, seat={"open": True})
        game_join(game=waiting, user=dave)
        assert Game.objects.get(pk=waiting.pk).status == Game.Status.ACTIVE
    for callback in later:
        callback()  # the listener runs only now
    assert [m for m in _to(alice) if "declined" in m.subject] == []
    assert _declined_rows(alice).get().status == Notification.Status.SKIPPED


def test_a_host_who_switched_these_off_gets_none(alice, bob, waiting, run_commits):
    emails_off_set(user=alice, kinds=["declined"])
    with run_commits():
        game_invitation_respond(game=waiting, user=bob, accept=False)
    assert _to(alice) == []


def test_in_the_hosts_language(alice, bob, waiting, run_commits):
    alice.language = "de"
    alice.save(update_fields=["language"])
    with run_commits():
        game_invitation_respond(game=waiting, user=bob, accept=False)
    (message,) = _to(alice)
    assert message.subject == (
        f"[High Society] Bob hat deine Einladung an Tisch {waiting.pk} abgelehnt"
    )
    assert "Platz 2 wartet auf deine Wahl" in message.body
    assert "  Platz 3: Carol, eingeladen\n" in message.body


def test_the_push_names_who_declined_and_nothing_else(alice, bob, waiting, run_commits, service):
    browser = subscribe(alice, service, "alice")
    with run_commits():
        game_invitation_respond(game=waiting, user=bob, accept=False)
    payload = browser.decrypt(service.received[-1].body)
    assert payload == {
        "title": f"Bob declined your invitation to table {waiting.pk}",
        "body": "The seat waits for you: give it to a bot, invite someone else, or open it.",
        "url": f"/games/{waiting.pk}/",
        "tag": f"game-{waiting.pk}",
        "kind": "declined",
    }


def test_the_invitation_push_is_in_the_players_language(alice, bob, run_commits, service):
    bob.language = "fr"
    bob.save(update_fields=["language"])
    browser = subscribe(bob, service, "bob")
    with run_commits():
        game = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"open": True}])
    payload = browser.decrypt(service.received[-1].body)
    with translation.override("fr"):
        assert payload["title"] == f"Alice vous invite à la table {game.pk}"
    assert payload["body"].startswith("Une table de 3 joueurs")
