"""Suspending an account from the admin (accounts.suspension): the action, or unticking
**Active** on the account's page, takes the player out of every table, so no game
waits for a move that cannot come, and erases nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.tokens.services import token_create
from games.chat import chat_post
from games.models import ChatMessage, Game, Seat
from games.services import game_create
from tests.games.api.conftest import token_client
from tests.games.factories import people_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def abuser_tables(alice, bob, carol):
    """Carol plays a running game with Alice and Bob (and is rude in its chat), and
    hosts a table waiting for players."""
    running = people_game(alice, bob, carol)
    chat_post(game=running, user=carol, text="you are all idiots")
    hosted = game_create(creator=carol, players=3, seats=[{"open": True}, {"ai": "easy"}])
    return running, hosted


def _suspended(carol, running, hosted):
    carol.refresh_from_db()
    assert not carol.is_active and carol.username == "carol"  # nothing erased
    seat = Seat.objects.get(game=running, user=carol)
    assert seat.resigned and seat.ai_level  # a bot plays her seat: the game goes on
    assert Game.objects.get(pk=running.pk).status == Game.Status.ACTIVE
    assert Game.objects.get(pk=hosted.pk).status == Game.Status.ABANDONED
    assert ChatMessage.objects.filter(user=carol).count() == 1  # the evidence stays


def test_the_suspend_action_takes_the_player_out_of_every_table(
    admin_client, admin_user, abuser_tables, carol
):
    running, hosted = abuser_tables
    token = token_client(carol)
    answer = admin_client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "suspend_accounts", "_selected_action": [carol.pk, admin_user.pk]},
        follow=True,
    )
    html = answer.content.decode()
    assert "Suspended carol: left 0 table(s), closed 1, resigned 1 running game(s)" in html
    assert "Not suspended (your own account" in html
    _suspended(carol, running, hosted)
    admin_user.refresh_from_db()
    assert admin_user.is_active
    assert token.get("/api/v1/games/").status_code == 401


def test_unticking_active_on_the_account_page_suspends_it(admin_client, abuser_tables, carol):
    running, hosted = abuser_tables
    page = reverse("admin:accounts_user_change", args=[carol.pk])
    form = admin_client.get(page).context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if name in ("date_joined", "last_login"):
            if value:
                data[f"{name}_0"], data[f"{name}_1"] = value.date(), value.time()
            continue
        if name in ("groups", "user_permissions"):
            data[name] = [item.pk for item in value or ()]
            continue
        if value is None or name in ("password", "deleted_at"):
            continue
        if isinstance(value, bool) and not value:
            continue
        data[name] = value
    data.pop("is_active")
    data["display_name"] = "Carol S."
    answer = admin_client.post(page, data, follow=True)
    assert answer.status_code == 200
    assert "Suspended carol: left" in answer.content.decode(), answer.content.decode()[:3000]
    _suspended(carol, running, hosted)
    assert carol.display_name == "Carol S."  # the form's other changes are saved too


def test_a_suspended_player_cannot_be_invited(abuser_tables, carol, alice):
    from accounts.suspension import account_suspend
    from games.errors import GameError

    account_suspend(user=carol)
    with pytest.raises(GameError, match="no player called “carol”"):
        game_create(creator=alice, players=3, seats=[{"user": "carol"}, {"ai": "easy"}])
    token_create(user=carol, name="after")  # the account is kept; it just cannot sign in
