"""Every form post of the site's pages is limited per user and per address: past the
limit the answer is the site's 429 page with Retry-After, and nothing changes."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Seat
from games.services import game_create
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("limits_clock")]


def _tables(count: int):
    return [
        game_create(creator=UserFactory(), players=3, seats=[{"open": True}, {"open": True}])
        for _ in range(count)
    ]


def test_a_players_form_posts_stop_at_the_limit_and_change_nothing(settings, alice):
    settings.FORM_POST_RATES = {"user": "3/min", "ip": "100/min"}
    tables = _tables(4)
    client = Client()
    client.force_login(alice)
    for table in tables[:3]:
        assert client.post(f"/games/{table.pk}/join/").status_code == 302
    refused = client.post(f"/games/{tables[3].pk}/join/")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "too often" in refused.content.decode()
    assert not Seat.objects.filter(game=tables[3], user=alice).exists()
    assert client.get("/").status_code == 200  # reading goes on


def test_form_posts_from_one_address_are_limited_across_accounts(settings):
    settings.FORM_POST_RATES = {"user": "100/min", "ip": "2/min"}
    for n in range(2):
        Client(REMOTE_ADDR="203.0.113.5").post(
            "/accounts/login/", {"login": f"x{n}", "password": "y"}
        )
    answer = Client(REMOTE_ADDR="203.0.113.5").post(
        "/accounts/login/", {"login": "z", "password": "y"}
    )
    assert answer.status_code == 429
    other = Client(REMOTE_ADDR="198.51.100.8").post(
        "/accounts/login/", {"login": "z", "password": "y"}
    )
    assert other.status_code == 200  # another address: the form again, with its error


def test_the_api_is_not_counted_as_form_posts(settings, alice):
    settings.FORM_POST_RATES = {"user": "1/min", "ip": "1/min"}
    from tests.games.api.conftest import token_client

    api = token_client(alice)
    for _ in range(3):
        body = {"players": 3, "seats": [{"open": True}, {"open": True}]}
        assert api.post("/api/v1/games/", body, format="json").status_code == 201
