"""Fixtures for the API tests: token clients for the personas, high request limits
(the throttle tests lower them), and helpers to play through the API."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.tokens.services import token_create

HIGH_RATES = {"user": "100000/min", "ip": "100000/min", "auth": "100000/min"}


@pytest.fixture(autouse=True)
def _api_rates_high(settings):
    """Tests make many requests quickly: lift the limits unless a test lowers them."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": dict(HIGH_RATES),
    }


def token_client(user) -> APIClient:
    """An API client that authenticates with a fresh token of ``user``."""
    _, secret = token_create(user=user, name="test")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    client.token = secret
    return client


@pytest.fixture
def anon():
    return APIClient()


@pytest.fixture
def clients(alice, bob, carol, dora, outsider):
    """username -> token client."""
    return {user.username: token_client(user) for user in (alice, bob, carol, dora, outsider)}


def create(client, **body) -> dict[str, Any]:
    response = client.post("/api/v1/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def people_table(clients, creator: str, others: list[str], **options) -> dict[str, Any]:
    """A started table of people only: ``creator`` at seat 0, ``others`` invited and
    joining in order.  Returns the creator's view."""
    create(
        clients[creator],
        players=1 + len(others),
        seats=[{"user": name} for name in others],
        **options,
    )
    game_id = clients[creator].get("/api/v1/games/?mine=true").json()["results"][0]["id"]
    for name in others:
        response = clients[name].post(f"/api/v1/games/{game_id}/join/")
        assert response.status_code == 200, response.json()
    return clients[creator].get(f"/api/v1/games/{game_id}/").json()
