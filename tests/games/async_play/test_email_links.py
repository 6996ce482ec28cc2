"""A table's link in an e-mail names its reader (``?for=``): opened in a browser
logged in as someone else (a shared computer, a second account), the board says whose
link it is and offers to log out to log in as them."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.core import mail

from games.models import Game
from games.selectors import reader_token

pytestmark = pytest.mark.django_db

NOTICE = "This link was sent to Bob, but you are logged in as {}."


def _link(message) -> str:
    """The table's address in an e-mail, as the reader's browser opens it."""
    match = re.search(rf"{re.escape(settings.SITE_URL)}(/games/\d+/\S*)", message.body)
    return match.group(1)


def _bobs_turn_link(bobs_table) -> str:
    (message,) = [m for m in mail.outbox if m.to == ["bob@example.com"] and "turn" in m.subject]
    return _link(message)


def test_the_turn_emails_link_names_its_reader(bobs_table, bob):
    link = _bobs_turn_link(bobs_table)
    assert (
        link == f"/games/{bobs_table.pk}/?{urlencode({'for': reader_token(bobs_table.pk, bob.pk)})}"
    )
    (message,) = [m for m in mail.outbox if m.to == ["bob@example.com"] and "turn" in m.subject]
    html, _ = message.alternatives[0]
    assert f'href="{settings.SITE_URL}{link}"' in html


def test_opened_by_another_account_the_board_says_whose_link_it_is(client, bobs_table, dora):
    link = _bobs_turn_link(bobs_table)
    client.force_login(dora)
    page = client.get(link)
    assert page.status_code == 200
    text = page.content.decode()
    assert NOTICE.format("Dora") in text
    # Log out, then log in, back to this table.
    login = f"/accounts/login/?next=/games/{bobs_table.pk}/"
    assert f'name="next" value="{login}"' in text
    assert "Log out, to log in as Bob" in text
    answer = client.post("/accounts/logout/", {"next": login})
    assert answer.status_code == 302 and answer["Location"] == login
    assert "_auth_user_id" not in client.session


def test_a_stranger_who_opens_it_is_told_too(client, bobs_table, carol):
    client.force_login(carol)
    assert NOTICE.format("Carol") in client.get(_bobs_turn_link(bobs_table)).content.decode()


def test_its_reader_and_a_visitor_see_no_such_notice(client, bobs_table, bob):
    link = _bobs_turn_link(bobs_table)
    visitor = client.get(link).content.decode()
    assert "This link was sent" not in visitor
    assert "Log in</a> to play your seat" in visitor
    client.force_login(bob)
    assert "This link was sent" not in client.get(link).content.decode()


@pytest.mark.parametrize(
    "value", ["", "abc", "-1", "1e3", "99999999999999999999999", " 1", "²", "1:" + "x" * 200]
)
def test_any_other_value_changes_nothing(client, bobs_table, dora, value):
    client.force_login(dora)
    page = client.get(f"/games/{bobs_table.pk}/", {"for": value})
    assert page.status_code == 200
    assert "This link was sent" not in page.content.decode()


def test_only_a_link_the_site_sent_names_anyone(
    client, bobs_table, dora, bob, carol, alice, run_commits
):
    """The account number alone, or a link signed for another table, names nobody:
    trying numbers would tell a stranger who was invited where (a declined or withdrawn
    invitation among them), and whose account each number is."""
    from games.services import game_invitation_respond
    from tests.games.factories import GameFactory

    client.force_login(carol)
    for value in (str(bob.pk), str(dora.pk), reader_token(bobs_table.pk + 1, bob.pk)):
        page = client.get(f"/games/{bobs_table.pk}/", {"for": value})
        assert page.status_code == 200 and "This link was sent" not in page.content.decode()
    # Invited, then declined: a real link of hers no longer names her either.
    with run_commits():
        waiting = GameFactory(creator=dora, players=3, seats=[{"user": "alice"}, {"open": True}])
    game_invitation_respond(game=waiting, user=alice, accept=False)
    page = client.get(f"/games/{waiting.pk}/", {"for": reader_token(waiting.pk, alice.pk)})
    assert "This link was sent" not in page.content.decode()


def test_a_deleted_reader_is_not_named(client, bobs_table, dora, bob):
    from accounts.deletion import account_delete

    link = _bobs_turn_link(bobs_table)
    account_delete(user=bob)
    client.force_login(dora)
    assert "This link was sent" not in client.get(link).content.decode()


def test_the_invitation_emails_link_names_its_reader_before_the_start(
    client, dora, bob, carol, run_commits
):
    from tests.games.factories import GameFactory

    with run_commits():
        game = GameFactory(creator=dora, players=3, seats=[{"user": "bob"}, {"open": True}])
    (message,) = [m for m in mail.outbox if m.to == ["bob@example.com"]]
    link = _link(message)
    assert link == f"/games/{game.pk}/?{urlencode({'for': reader_token(game.pk, bob.pk)})}"
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
    client.force_login(carol)
    assert NOTICE.format("Carol") in client.get(link).content.decode()
