""" "Download your data" (accounts.export): one JSON file with everything the site keeps
about the player, after the password is given again, and nothing of a running game
beyond its public facts."""

from __future__ import annotations

import json
import random

import pytest
from django.conf import settings
from django.urls import reverse

from accounts.models import PushSubscription
from accounts.tokens.services import token_create
from games.chat import chat_mute, chat_post, chat_report, chat_reports_resolve
from games.models import ChatReport, Game, InvitationBlock, Seat
from games.services import game_create, game_invitation_respond, game_seat_to_bot
from tests.accounts.test_account_deletion import signed_in
from tests.games.factories import people_game, play_out

pytestmark = pytest.mark.django_db

DATA = "/accounts/profile/data.json"
GAME_KEYS = {
    "game",
    "status",
    "players",
    "seat",
    "host",
    "invitation_accepted",
    "resigned",
    "handed_over",
    "created_at",
    "started_at",
    "finished_at",
    "result",
}


def test_the_profile_leads_to_a_page_that_offers_it(client, alice):
    assert reverse("download_data") == DATA
    client.force_login(alice)
    html = client.get(reverse("profile")).content.decode()
    assert 'href="/accounts/profile/data/"' in html and "Download your data…" in html
    # The password is asked on the way to the page, so the download starts from a page
    # that stays (not from the password form).
    assert client.get("/accounts/profile/data/")["Location"].startswith(
        reverse("account_reauthenticate")
    )
    signed_in(client, alice)
    page = client.get("/accounts/profile/data/").content.decode()
    assert f'href="{DATA}"' in page and "Download the file" in page


def test_a_session_alone_gets_the_password_prompt(client, alice):
    client.force_login(alice)
    response = client.get(DATA)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_reauthenticate"))
    client.logout()
    assert client.get(DATA)["Location"].startswith(reverse("account_login"))


def test_the_file_holds_the_account_its_games_and_words(client, alice, bob, carol, run_commits):
    with run_commits():
        finished = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"ai": "easy"}])
        finished = game_invitation_respond(game=finished, user=bob, accept=True)
    finished = play_out(finished, random.Random(3), run_commits)
    running = people_game(carol, alice, bob)
    # Away from Bob's table with deadlines: he handed her seat to a bot.
    away = people_game(bob, alice, carol, move_deadline_hours=24)
    Seat.objects.filter(game=away, user=alice).update(timeouts=settings.SEAT_TO_BOT_AFTER_TIMEOUTS)
    game_seat_to_bot(game=away, user=bob, position=1)
    chat_post(game=running, user=alice, text="Schöne Grüße")
    theirs = chat_post(game=running, user=bob, text="Not Alice's words")
    chat_report(game=running, user=alice, message=theirs.pk)
    hidden = chat_post(game=running, user=alice, text="Sorry, staff hid this")
    chat_report(game=running, user=bob, message=hidden.pk)
    chat_reports_resolve(reports=ChatReport.objects.filter(message=hidden), hide=True, by=None)
    chat_mute(user=alice, username="bob")
    InvitationBlock.objects.create(user=alice, blocked=carol)
    _token, secret = token_create(user=alice, name="my bot")
    PushSubscription.objects.create(
        user=alice, endpoint="https://push.example.net/send/abc123", p256dh="k", auth="a"
    )

    signed_in(client, alice)
    response = client.get(DATA)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith(
        f'attachment; filename="high-society-{alice.pk}-'
    )
    assert response["Cache-Control"] == "no-store"
    text = response.content.decode()
    data = json.loads(text)

    assert data["format"] == "high-society-account-data/1"
    assert data["account"]["username"] == "alice"
    assert data["account"]["display_name"] == "Alice"
    assert data["email_addresses"] == [
        {"email": "alice@example.com", "verified": True, "primary": True}
    ]
    [token] = data["api_tokens"]
    assert token["name"] == "my bot" and secret.startswith(token["starts_with"])
    assert secret not in text  # never the secret, nor its digest
    assert [d["push_service"] for d in data["push_devices"]] == ["push.example.net"]
    assert "abc123" not in text
    assert data["stats"]["games_played"] == 1

    games = {g["game"]: g for g in data["games"]}
    assert set(games) == {finished.pk, running.pk, away.pk}
    assert all(set(g) == GAME_KEYS for g in games.values())
    assert games[finished.pk]["host"] and games[finished.pk]["status"] == Game.Status.FINISHED
    assert games[finished.pk]["result"]["rank"] >= 1
    assert games[running.pk]["result"] is None and not games[running.pk]["host"]
    assert games[running.pk]["seat"] == 1
    assert not games[running.pk]["handed_over"] and not games[finished.pk]["handed_over"]
    assert games[away.pk]["handed_over"] and games[away.pk]["resigned"]

    assert [(m["game"], m["text"], m["hidden"]) for m in data["chat_messages"]] == [
        (running.pk, "Schöne Grüße", False),
        (running.pk, "Sorry, staff hid this", True),  # hers, though shown to nobody now
    ]
    assert "Schöne Grüße" in text  # readable, not escaped
    # The reports she made, not the words she reported (Bob's), nor who reported hers.
    assert [(r["game"], r["answer"]) for r in data["chat_reports"]] == [(running.pk, None)]
    assert "Not Alice" not in text
    assert data["muted"] == ["bob"]
    assert data["invitations_blocked_from"] == ["carol"]


def test_nothing_hidden_of_a_running_game(client, alice, bob, carol):
    """Two tables that differ only in their hidden deck order give the same entries."""
    first = people_game(alice, bob, carol)
    second = people_game(alice, bob, carol)
    assert first.state != second.state  # two secure shuffles
    signed_in(client, alice)
    data = json.loads(client.get(DATA).content)
    entries = [
        {k: v for k, v in g.items() if k not in ("game", "created_at", "started_at")}
        for g in data["games"]
    ]
    assert entries[0] == entries[1]
    text = json.dumps(data)
    seen = text.replace('"handed_over"', "")  # the key is no hand
    for word in ("deck", "sealed", "hand", "state"):
        assert word not in seen, word


def test_its_queries_do_not_grow_with_the_games(
    client, alice, bob, carol, django_assert_max_num_queries
):
    for _ in range(3):
        people_game(alice, bob, carol)
    signed_in(client, alice)
    with django_assert_max_num_queries(20):
        assert client.get(DATA).status_code == 200
    for _ in range(5):
        people_game(alice, bob, carol)
    with django_assert_max_num_queries(20):
        assert client.get(DATA).status_code == 200


def test_the_export_lists_the_second_factors_never_their_secrets(client, alice):
    """The download promises everything the site keeps about you, yet said nothing of an
    authenticator app and its recovery codes."""
    from tests.factories import PASSWORD
    from tests.second_factor import second_factor_set_up

    secret, codes = second_factor_set_up(client, alice)
    client.post(reverse("account_reauthenticate"), {"password": PASSWORD})
    response = client.get(reverse("download_data"))
    assert response.status_code == 200, response
    text = response.content.decode()
    data = json.loads(text)
    assert [f["type"] for f in data["second_factors"]] == ["recovery_codes", "totp"]
    assert all(f["created_at"] for f in data["second_factors"])
    assert secret not in text and not any(code in text for code in codes)
