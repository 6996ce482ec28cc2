"""Changing the e-mail address: the new one replaces the old once verified."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse

from tests.accounts.test_account_deletion import signed_in

pytestmark = pytest.mark.django_db


def test_a_session_alone_cannot_move_the_address(client, alice):
    """A session left open is not enough: adding an address (and with it where the
    password resets go) asks for the password again first, and sends nothing before."""
    client.force_login(alice)
    assert client.get(reverse("account_email")).status_code == 200  # the page reads
    response = client.post(
        reverse("account_email"), {"action_add": "", "email": "thief@evil.example"}
    )
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_reauthenticate"))
    assert mail.outbox == []
    assert not EmailAddress.objects.filter(email="thief@evil.example").exists()


def test_change_email_takes_effect_after_verification(client, alice):
    signed_in(client, alice)
    response = client.post(
        reverse("account_email"), {"action_add": "", "email": "alice@new.example"}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"  # not yet

    message = next(m for m in mail.outbox if m.to == ["alice@new.example"])
    # A change, not a sign-up: no welcome, no "if you did not sign up".
    assert message.subject == "[High Society] Confirm your e-mail address"
    assert "please confirm that this e-mail address belongs to your High Society" in message.body
    assert "Welcome" not in message.body and "sign up" not in message.body
    assert "Welcome" not in message.alternatives[0][0]
    link = re.search(r"http://127\.0\.0\.1:8000(/accounts/confirm-email/\S+/)", message.body).group(
        1
    )
    assert client.post(link).status_code == 302

    alice.refresh_from_db()
    assert alice.email == "alice@new.example"
    addresses = EmailAddress.objects.filter(user=alice)
    assert [(a.email, a.verified, a.primary) for a in addresses] == [
        ("alice@new.example", True, True)
    ]


def test_email_page_uses_the_site_layout(client, alice):
    signed_in(client, alice)
    html = client.get(reverse("account_email")).content.decode()
    assert 'class="site-nav"' in html
    assert 'aria-label="Account settings"' in html
    assert "alice@example.com" in html
    # Every security setting is one click away from the others.
    nav = html.split('aria-label="Account settings"', 1)[1].split("</nav>", 1)[0]
    for url in ("/accounts/profile/", "/accounts/password/change/", "/accounts/2fa/"):
        assert f'href="{url}"' in nav
    assert 'href="/accounts/profile/tokens/"' in nav


def _messages(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_cancelling_a_change_sends_no_alarm_and_says_what_happened(client, alice):
    """The pending address was never on the account: no "address removed" notice."""
    signed_in(client, alice)
    client.post(
        reverse("account_email"), {"action_add": "", "email": "alice@new.example"}, follow=True
    )
    mail.outbox.clear()
    response = client.post(
        reverse("account_email"),
        {"action_remove": "", "email": "alice@new.example"},
        follow=True,
    )
    assert mail.outbox == []
    assert _messages(response) == [
        "The change to alice@new.example is cancelled: your address stays as it was."
    ]
    assert [a.email for a in EmailAddress.objects.filter(user=alice)] == ["alice@example.com"]


def test_a_confirmation_asked_for_again_too_soon_says_none_went_out(client, alice, bob):
    """One e-mail per address every few minutes: the page says so rather than nothing,
    whether "Send the confirmation again" or a new address that just got one."""
    signed_in(client, alice)
    first = client.post(
        reverse("account_email"), {"action_add": "", "email": "alice@new.example"}, follow=True
    )
    assert _messages(first) == ["Confirmation e-mail sent to alice@new.example."]
    again = client.post(
        reverse("account_email"), {"action_send": "", "email": "alice@new.example"}, follow=True
    )
    assert len([m for m in mail.outbox if m.to == ["alice@new.example"]]) == 1
    (said,) = _messages(again)
    assert said.startswith("No e-mail went out just now: this address got one from us")

    # Bob asks for the same address a moment later: no e-mail, and the page says so.
    signed_in(client, bob)
    mail.outbox.clear()
    taken = client.post(
        reverse("account_email"), {"action_add": "", "email": "alice@new.example"}, follow=True
    )
    assert mail.outbox == []
    assert _messages(taken)[-1].startswith("No e-mail went out just now")


def test_a_confirmation_link_followed_again_says_the_address_is_confirmed(client, alice):
    signed_in(client, alice)
    client.post(reverse("account_email"), {"action_add": "", "email": "alice@new.example"})
    message = next(m for m in mail.outbox if m.to == ["alice@new.example"])
    link = re.search(r"http://127\.0\.0\.1:8000(/accounts/confirm-email/\S+/)", message.body).group(
        1
    )
    # A change, not a sign-up: the page says what the address replaces.
    html = client.get(link).content.decode()
    assert "Make <strong>alice@new.example</strong> the address of your account" in html
    assert "in place of alice@example.com" in html and "start playing" not in html
    assert client.post(link).status_code == 302
    html = client.get(link).content.decode()
    assert "Your address <strong>alice@new.example</strong> is confirmed" in html
    client.logout()
    html = client.get(link).content.decode()
    assert "This link has expired, has been used already, or is not valid." in html


def test_an_address_confirmed_by_another_account_gets_no_link_and_no_name(client, alice, bob):
    """Alice gives Bob's address as hers: Bob hears that nothing changes, in his own
    language, with neither Alice's name nor a link; Alice's page says what it says for
    any address (it learns nothing of whose the address is)."""
    alice.display_name = "Visit evil.example"
    alice.save()
    bob.language = "de"
    bob.save(update_fields=["language"])
    signed_in(client, alice)
    response = client.post(
        reverse("account_email"), {"action_add": "", "email": bob.email}, follow=True
    )
    assert _messages(response) == [f"Confirmation e-mail sent to {bob.email}."]
    (message,) = mail.outbox
    assert message.to == [bob.email]
    assert message.subject == "[High Society] Deine Adresse wurde für ein anderes Konto angegeben"
    assert "evil" not in message.body and "confirm-email" not in message.body
    assert "evil" not in message.alternatives[0][0]


def _changed_by_someone(
    client, alice, new: str = "thief@evil.example", old: str = "alice@example.com"
):
    """Somebody in Alice's account moves it from ``old`` to ``new``, their address; the
    old address's notice is returned."""
    signed_in(client, alice)
    client.post(reverse("account_email"), {"action_add": "", "email": new})
    confirm = next(m for m in mail.outbox if m.to == [new])
    link = re.search(r"http://127\.0\.0\.1:8000(/accounts/confirm-email/\S+/)", confirm.body)
    mail.outbox.clear()
    client.post(link.group(1))
    [notice] = [m for m in mail.outbox if m.to == [old]]
    return notice


def test_the_old_address_takes_the_account_back(client, alice):
    """The old address's notice said "If this was not you, choose a new password", but a
    reset goes to the account's address, the intruder's now: "No account with this
    e-mail address".  Its link puts the old address back, signs every device out,
    revokes the tokens, and the reset then reaches the owner."""
    from django.test import Client

    from accounts.tokens.services import token_create

    notice = _changed_by_someone(client, alice)
    token_create(user=alice, name="intruder's bot")
    url = re.search(r"http://127\.0\.0\.1:8000(/accounts/email/undo/\S+/)", notice.body).group(1)
    assert "/accounts/email/undo/" in notice.alternatives[0][0]
    owner = Client()
    page = owner.get(url)  # a link checker's GET changes nothing
    assert page.status_code == 200 and "Take back alice@example.com" in page.content.decode()
    assert EmailAddress.objects.get(user=alice).email == "thief@evil.example"

    done = owner.post(url)
    assert done.status_code == 200 and "Your address is back" in done.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    assert [(a.email, a.verified, a.primary) for a in EmailAddress.objects.filter(user=alice)] == [
        ("alice@example.com", True, True)
    ]
    assert not alice.api_tokens.exists()
    assert client.get(reverse("profile")).status_code == 302  # the intruder is signed out
    mail.outbox.clear()
    owner.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]
    assert "/accounts/password/reset/key/" in mail.outbox[0].body

    again = owner.post(url)  # once only
    assert again.status_code == 409 and "Nothing to take back" in again.content.decode()


@pytest.mark.parametrize("token", ["nonsense", "x" * 400, "eyJ1IjoxfQ:1:bad"])
def test_a_broken_undo_link_changes_nothing(client, alice, token):
    answer = client.post(f"/accounts/email/undo/{token}/")
    assert answer.status_code == 400 and "This link does not work" in answer.content.decode()
    assert [a.email for a in EmailAddress.objects.filter(user=alice)] == ["alice@example.com"]
    alice.refresh_from_db()
    assert alice.has_usable_password() and alice.email_undone_back_to is None


def test_an_undo_link_expires_and_never_hands_an_address_taken_since(client, alice, bob):
    from datetime import timedelta

    from django.utils import timezone

    notice = _changed_by_someone(client, alice)
    url = re.search(r"http://127\.0\.0\.1:8000(/accounts/email/undo/\S+/)", notice.body).group(1)
    EmailAddress.objects.filter(user=bob).update(email="alice@example.com")
    taken = client.post(url)
    assert taken.status_code == 409 and "Another account uses" in taken.content.decode()
    EmailAddress.objects.filter(user=bob).update(email="bob@example.com")
    later = timezone.now() + timedelta(days=8)
    from unittest import mock

    with mock.patch("django.core.signing.time.time", return_value=later.timestamp()):
        expired = client.post(url)
    assert expired.status_code == 400 and "This link has expired" in expired.content.decode()
    assert EmailAddress.objects.get(user=alice).email == "thief@evil.example"


def test_an_intruders_second_change_does_not_void_the_owners_link(client, alice):
    """Old -> a -> b: the owner's link (from the first notice) answered "Nothing to take
    back" because the address was no longer a; and the intruder's own link (a's notice)
    must not take a back after the owner took the account back.  The password the
    intruder knew goes, as does a second factor they added."""
    from allauth.mfa.models import Authenticator
    from django.test import Client

    owners = _changed_by_someone(client, alice)
    owner_url = re.search(r"http://127\.0\.0\.1:8000(/accounts/email/undo/\S+/)", owners.body)
    intruders = _changed_by_someone(client, alice, "second@evil.example", "thief@evil.example")
    Authenticator.objects.create(user=alice, type="totp", data={"secret": "x"})
    intruder_url = re.search(r"http://127\.0\.0\.1:8000(/accounts/email/undo/\S+/)", intruders.body)

    owner = Client()
    assert owner.post(owner_url.group(1)).status_code == 200
    alice.refresh_from_db()
    assert alice.email == "alice@example.com" and not alice.has_usable_password()
    assert not Authenticator.objects.filter(user=alice).exists()
    again = Client().post(intruder_url.group(1))
    assert again.status_code == 409
    assert [a.email for a in EmailAddress.objects.filter(user=alice)] == ["alice@example.com"]
