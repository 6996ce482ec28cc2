"""``manage.py moderator``: one command makes a moderator who can do the documented
tasks and nothing more (a reviewer had to assemble the group by hand, and the docs
named none)."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def test_a_moderator_gets_the_groups_rights_and_loses_them_again(alice):
    call_command("moderator", "alice")
    alice.refresh_from_db()
    assert alice.is_staff and not alice.is_superuser
    assert alice.has_perm("games.change_chatreport") and alice.has_perm("games.delete_chatmessage")
    assert alice.has_perm("accounts.change_user") and alice.has_perm("tokens.delete_apitoken")
    assert not alice.has_perm("accounts.delete_user") and not alice.has_perm("games.change_game")
    call_command("moderator", "alice")  # again: the same, nothing doubled
    assert alice.groups.count() == 1
    call_command("moderator", "alice", "--remove")
    alice = type(alice).objects.get(pk=alice.pk)
    assert not alice.is_staff and not alice.has_perm("games.change_chatreport")


def test_an_unknown_name_changes_nothing():
    with pytest.raises(CommandError, match="No account is called 'nobody'"):
        call_command("moderator", "nobody")


def test_a_moderator_does_the_documented_tasks_in_the_admin(client, alice, bob, carol):
    """The reports queue, a chat line deleted, an account suspended: all open to them."""
    from django.urls import reverse

    from games.chat import chat_post, chat_report
    from tests.games.factories import people_game
    from tests.second_factor import staff_admin_session

    call_command("moderator", "alice")
    game = people_game(alice, bob, carol)
    line = chat_post(game=game, user=bob, text="rude words")
    chat_report(game=game, user=carol, message=line.pk)
    staff_admin_session(client, alice)
    assert "rude words" in client.get(reverse("admin:games_chatreport_changelist")).content.decode()
    assert client.get(reverse("admin:games_chatmessage_delete", args=[line.pk])).status_code == 200
    assert client.get(reverse("admin:accounts_user_change", args=[bob.pk])).status_code == 200
    assert client.get(reverse("admin:games_game_change", args=[game.pk])).status_code == 200


def test_a_moderator_cannot_revoke_another_staff_members_tokens(client, alice, bob, carol):
    """The group may revoke API tokens (a thief's), but not a superuser's or another
    moderator's: that locks them out as taking their account would."""
    from django.urls import reverse

    from accounts.tokens.models import ApiToken
    from accounts.tokens.services import token_create
    from tests.second_factor import staff_admin_session

    call_command("moderator", "alice")
    call_command("moderator", "bob")
    theirs, _ = token_create(user=bob, name="bob's bot")
    players, _ = token_create(user=carol, name="carol's bot")
    staff_admin_session(client, alice)
    page = reverse("admin:tokens_apitoken_delete", args=[theirs.pk])
    assert client.post(page, {"post": "yes"}).status_code == 403
    listing = reverse("admin:tokens_apitoken_changelist")
    client.post(
        listing,
        {"action": "delete_selected", "_selected_action": [theirs.pk, players.pk], "post": "yes"},
    )
    assert ApiToken.objects.filter(pk=theirs.pk).exists()  # refused as a whole
    client.post(
        listing, {"action": "delete_selected", "_selected_action": [players.pk], "post": "yes"}
    )
    assert ApiToken.objects.filter(pk=theirs.pk).exists()
    assert not ApiToken.objects.filter(pk=players.pk).exists()


def test_removing_a_moderator_leaves_other_staff_as_they_are(bob):
    """--remove took staff status from anyone without a group, a member of staff with
    permissions of their own who had never been a moderator among them."""
    from django.contrib.auth.models import Permission

    type(bob).objects.filter(pk=bob.pk).update(is_staff=True)
    bob.user_permissions.add(Permission.objects.get(codename="view_game"))
    call_command("moderator", "bob", "--remove")
    bob.refresh_from_db()
    assert bob.is_staff
