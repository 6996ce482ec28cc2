"""Player names on the board lead to their public profiles (bots have none)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.games.pages.conftest import table_make

pytestmark = pytest.mark.django_db


def test_board_names_link_to_public_profiles(client, alice, bob, carol):
    game = table_make(alice, [bob, carol], deck=None, first_player=None)
    client.force_login(alice)
    html = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    for user in (alice, bob, carol):
        assert f'href="{reverse("player_profile", args=[user.username])}"' in html
