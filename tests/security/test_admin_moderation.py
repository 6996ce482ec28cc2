"""What staff may do in the admin, and what it never shows: a move is never deleted
(the replay would break), a second factor's secret is never shown or edited, the
table chat can be moderated, tokens revoked, the e-mail outbox read; every page
answers (no 500)."""

from __future__ import annotations

import pytest
from allauth.mfa.models import Authenticator
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from accounts.models import PushSubscription
from accounts.second_factor import secret_decrypt
from accounts.tokens.models import ApiToken
from accounts.tokens.services import token_create
from games.chat import chat_post
from games.models import ChatMessage, ChatReport, Game, Move, Notification
from tests.games.factories import people_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob, carol):
    from games.services import game_submit_action

    game = people_game(alice, bob, carol)
    turn = game.engine_state().turn
    player = (alice, bob, carol)[turn]
    game_submit_action(game=game, user=player, action={"type": "pass"}, expected_version=0)
    return game


def test_a_superuser_cannot_delete_a_move(admin_client, game):
    move = Move.objects.get(game=game)
    assert admin_client.get(reverse("admin:games_move_delete", args=[move.pk])).status_code == 403
    listing = admin_client.get(reverse("admin:games_move_changelist")).content.decode()
    assert "delete_selected" not in listing
    answer = admin_client.post(
        reverse("admin:games_move_changelist"),
        {"action": "delete_selected", "_selected_action": [move.pk], "post": "yes"},
    )
    assert answer.status_code in (200, 302) and Move.objects.filter(pk=move.pk).exists()


def test_a_second_factor_is_listed_without_its_secret(admin_client, admin_user):
    factor = Authenticator.objects.get(user=admin_user, type=Authenticator.Type.TOTP)
    secret = secret_decrypt(factor.data["secret"])
    page = admin_client.get(reverse("admin:mfa_authenticator_change", args=[factor.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert secret not in text and "secret" not in text and 'name="_save"' not in text
    listing = admin_client.get(reverse("admin:mfa_authenticator_changelist")).content.decode()
    assert secret not in listing
    assert admin_client.get(reverse("admin:mfa_authenticator_add")).status_code == 403


def test_staff_delete_an_abusive_chat_message(admin_client, game, alice, bob):
    rude = chat_post(game=game, user=alice, text="You all play like beginners")
    chat_post(game=game, user=bob, text="Good luck")
    listing = admin_client.get(reverse("admin:games_chatmessage_changelist") + "?q=beginners")
    assert "You all play like beginners" in listing.content.decode()
    assert "Good luck" not in listing.content.decode()
    answer = admin_client.post(
        reverse("admin:games_chatmessage_delete", args=[rude.pk]), {"post": "yes"}
    )
    assert answer.status_code == 302
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["Good luck"]
    board = admin_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "beginners" not in board


def test_staff_revoke_a_token_without_seeing_its_secret(admin_client, alice):
    token, secret = token_create(user=alice, name="my bot")
    listing = admin_client.get(reverse("admin:tokens_apitoken_changelist")).content.decode()
    assert "my bot" in listing and token.prefix in listing
    page = admin_client.get(reverse("admin:tokens_apitoken_change", args=[token.pk]))
    assert secret not in page.content.decode() and token.digest not in page.content.decode()
    assert admin_client.get(reverse("admin:tokens_apitoken_add")).status_code == 403
    answer = admin_client.post(
        reverse("admin:tokens_apitoken_delete", args=[token.pk]), {"post": "yes"}
    )
    assert answer.status_code == 302 and not ApiToken.objects.filter(pk=token.pk).exists()


def test_the_outbox_and_push_devices_are_read_only(admin_client, game, alice):
    from django.utils import timezone

    row = Notification.objects.create(
        user=alice, game=game, kind="turn", key="x", due_at=timezone.now(), note="SMTP refused"
    )
    device = PushSubscription.objects.create(
        user=alice, endpoint="https://push.example/alice-device", p256dh="k", auth="a"
    )
    listing = admin_client.get(reverse("admin:games_notification_changelist")).content.decode()
    assert "SMTP refused" in listing
    for name, pk in (("games_notification", row.pk), ("accounts_pushsubscription", device.pk)):
        page = admin_client.get(reverse(f"admin:{name}_change", args=[pk]))
        assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
        assert admin_client.get(reverse(f"admin:{name}_add")).status_code == 403
    assert (
        admin_client.get(reverse("admin:games_notification_delete", args=[row.pk])).status_code
        == 403
    )
    devices = admin_client.get(reverse("admin:accounts_pushsubscription_changelist"))
    assert "push.example" not in devices.content.decode()


def test_every_admin_list_and_page_answers(admin_client, game, alice):
    """Each registered model's list, its search, and each row's page: none a 500."""
    chat_post(game=game, user=alice, text="Hello")
    token_create(user=alice, name="t")
    for model in (m for m in apps.get_models() if admin.site.is_registered(m)):
        meta = model._meta
        base = f"admin:{meta.app_label}_{meta.model_name}"
        listing = admin_client.get(reverse(f"{base}_changelist") + "?q=a")
        assert listing.status_code == 200, (base, listing.status_code)
        row = model.objects.first()
        if row is not None:
            page = admin_client.get(reverse(f"{base}_change", args=[row.pk]))
            assert page.status_code == 200, (base, page.status_code)


def test_deleting_a_chat_line_in_the_admin_refreshes_the_open_boards(admin_client, game, alice):
    """A board refreshes its chat when the table's ``chat_at`` moves (and the stream
    says the board changed): the admin's delete, one line or a selection, moves it."""
    first = chat_post(game=game, user=alice, text="rude one")
    second = chat_post(game=game, user=alice, text="rude two")
    stamped = Game.objects.get(pk=game.pk).chat_at
    admin_client.post(reverse("admin:games_chatmessage_delete", args=[first.pk]), {"post": "yes"})
    after_one = Game.objects.get(pk=game.pk).chat_at
    assert after_one > stamped and not ChatMessage.objects.filter(pk=first.pk).exists()
    admin_client.post(
        reverse("admin:games_chatmessage_changelist"),
        {"action": "delete_selected", "_selected_action": [second.pk], "post": "yes"},
    )
    assert not ChatMessage.objects.exists()
    assert Game.objects.get(pk=game.pk).chat_at > after_one


def test_chat_lines_are_found_by_the_name_the_players_see(admin_client, game, alice):
    alice.display_name = "Robert Spammer"
    alice.save()
    chat_post(game=game, user=alice, text="buy my stuff")
    listing = admin_client.get(reverse("admin:games_chatmessage_changelist") + "?q=Robert")
    html = listing.content.decode()
    assert "buy my stuff" in html and "Robert Spammer" in html and "(alice)" in html
    assert reverse("admin:accounts_user_change", args=[alice.pk]) in html
    games = admin_client.get(reverse("admin:games_game_changelist") + "?q=Spammer")
    assert f">{game.pk}<" in games.content.decode()


def test_no_game_is_deleted_in_the_admin(admin_client, game):
    """A game's players' records and ratings rest on it, and its moves are never
    deleted: the admin offers no delete, rather than a page that cannot do it."""
    assert admin_client.get(reverse("admin:games_game_delete", args=[game.pk])).status_code == 403
    listing = admin_client.get(reverse("admin:games_game_changelist")).content.decode()
    assert "delete_selected" not in listing
    assert Game.objects.filter(pk=game.pk).exists()


@pytest.mark.parametrize("who", ["superuser", "moderator"])
def test_a_reported_chat_line_can_be_deleted(client, admin_client, game, alice, bob, who):
    """Deleting a line that had been reported took its reports with it, and the reports'
    admin deletes nothing: Django refused the deletion for a lacking permission, to a
    superuser too, so exactly the lines players reported could not be deleted."""
    from django.contrib.auth.models import Permission

    from games.chat import chat_report
    from tests.second_factor import staff_admin_session

    rude = chat_post(game=game, user=alice, text="You all play like beginners")
    chat_report(user=bob, game=game, message=rude.pk)
    if who == "superuser":
        acting = admin_client
    else:
        from tests.factories import UserFactory

        moderator = UserFactory(username="mod", is_staff=True)
        moderator.user_permissions.add(
            *Permission.objects.filter(codename__in=["view_chatmessage", "delete_chatmessage"])
        )
        staff_admin_session(client, moderator)
        acting = client
    url = reverse("admin:games_chatmessage_delete", args=[rude.pk])
    page = acting.get(url).content.decode()
    assert "permission" not in page and "Yes, I’m sure" in page, page
    assert acting.post(url, {"post": "yes"}).status_code == 302
    assert not ChatMessage.objects.filter(pk=rude.pk).exists()
    assert not ChatReport.objects.exists()


@pytest.mark.parametrize(
    ("list_name", "action"),
    [
        ("admin:accounts_user_changelist", "suspend_accounts"),
        ("admin:games_chatreport_changelist", "hide_messages"),
        ("admin:games_chatmessage_changelist", "delete_selected"),
    ],
)
@pytest.mark.parametrize("value", ["abc", "1e5", ""])
def test_an_action_on_a_selection_that_is_not_rows_changes_nothing(
    admin_client, game, list_name, action, value
):
    """A hand-made POST with "abc" among the ids was a 500 (the action's query)."""
    answer = admin_client.post(
        reverse(list_name),
        {"action": action, "_selected_action": [value], "post": "yes"},
        follow=True,
    )
    assert answer.status_code == 200
    assert "nothing was done" in answer.content.decode()
