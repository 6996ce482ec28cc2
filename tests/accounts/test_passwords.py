"""Password reset by e-mail and password change, through allauth's pages."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a brand new secret 42"


def test_password_reset_through_the_emailed_link(client, alice):
    response = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    match = re.search(
        r"http://127\.0\.0\.1:8000(/accounts/password/reset/key/\S+/)", mail.outbox[0].body
    )
    assert match, mail.outbox[0].body

    # The link stores its key in the session and redirects to a key-less URL.
    page = client.get(match.group(1), follow=True)
    assert page.status_code == 200
    # "Change Password" is the one filled button; "Cancel" (which signs out of the
    # reset) is drawn as an outline, not as a second primary action beside it.
    buttons = re.findall(r"<button[^>]*>", page.content.decode())
    assert any('class="button"' in b and 'name="action"' in b for b in buttons), buttons
    assert any('"button button--outline"' in b and "logout-from-stage" in b for b in buttons)
    form_url = page.redirect_chain[-1][0]
    response = client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_reset_password_from_key_done")
    # The page after the change leads on to the log-in, not into a dead end.
    done = client.get(response["Location"])
    assert f'href="{reverse("account_login")}"' in done.content.decode()
    assert "Log in with your new password" in done.content.decode()

    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert not alice.check_password(PASSWORD)
    login = client.post(reverse("account_login"), {"login": "alice", "password": NEW_PASSWORD})
    assert login.status_code == 302


def test_a_reset_link_works_once(client, alice):
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    link = re.search(
        r"http://127\.0\.0\.1:8000(/accounts/password/reset/key/\S+/)", mail.outbox[0].body
    ).group(1)
    form_url = client.get(link, follow=True).redirect_chain[-1][0]
    client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    other = client.__class__()
    page = other.get(link, follow=True)
    assert "password1" not in page.content.decode()  # "bad token" page, no form
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_password_reset_for_an_unknown_address_reveals_nothing(client, alice):
    response = client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_reset_password_done")
    # The address gets a note that it has no account; no reset link goes anywhere.
    assert all("/password/reset/key/" not in m.body for m in mail.outbox)


def test_password_change(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert any("password" in m.subject.lower() for m in mail.outbox)  # security notice


def test_password_change_needs_the_old_password(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": "wrong", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def _api_token_works(secret: str) -> bool:
    from django.test import Client

    answer = Client().get("/api/v1/games/?mine=true", HTTP_AUTHORIZATION=f"Token {secret}")
    return answer.status_code == 200


def test_a_password_change_revokes_the_api_tokens_and_other_sessions(client, alice):
    from django.test import Client

    from accounts.tokens.services import token_create

    _, secret = token_create(user=alice, name="my bot")
    assert _api_token_works(secret)
    elsewhere = Client()
    elsewhere.force_login(alice)
    assert elsewhere.get(reverse("profile")).status_code == 200
    client.force_login(alice)
    client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert not alice.api_tokens.exists() and not _api_token_works(secret)
    assert elsewhere.get(reverse("profile")).status_code == 302  # signed out there
    assert client.get(reverse("profile")).status_code == 200  # but not here


def test_a_password_reset_revokes_the_api_tokens(client, alice):
    from accounts.tokens.services import token_create

    _, secret = token_create(user=alice, name="my bot")
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    link = re.search(
        r"http://127\.0\.0\.1:8000(/accounts/password/reset/key/\S+/)", mail.outbox[0].body
    )
    form_url = client.get(link.group(1), follow=True).redirect_chain[-1][0]
    client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert not alice.api_tokens.exists() and not _api_token_works(secret)


@pytest.mark.parametrize("key", ["zzz", "%25ZZ-", "2s", "a/b"])
def test_a_mangled_reset_link_gets_the_bad_link_page(client, key):
    """A link cut short (no "-" between its parts) missed allauth's route: a bare 404.
    It gets the page a used or wrong link gets, with the way to ask for a new one."""
    response = client.get(f"/accounts/password/reset/key/{key}/")
    assert response.status_code == 404
    html = response.content.decode()
    assert 'name="password1"' not in html
    assert reverse("account_reset_password") in html and "<header" in html


def _reset_link(client, address: str) -> str:
    mail.outbox.clear()
    client.post(reverse("account_reset_password"), {"email": address})
    return re.search(
        r"http://127\.0\.0\.1:8000(/accounts/password/reset/key/\S+/)", mail.outbox[0].body
    ).group(1)


def test_the_reset_form_names_the_account_it_changes(client, alice, bob):
    """Opened in a browser logged in as somebody else, the link signed that account out
    as it opened (allauth) and showed a bare "Change password": whose password was left
    unsaid.  Now the page says both, and only changing the password signs Bob out."""
    link = _reset_link(client, "alice@example.com")
    client.force_login(bob)
    page = client.get(link, follow=True).content.decode()
    assert "A new password for the account <strong>alice</strong>." in page
    assert 'name="password1"' in page
    assert client.session["_auth_user_id"] == str(bob.pk)
    assert "You are logged in as <strong>bob</strong>: changing this password logs you out." in page
    assert f'href="{reverse("lobby")}"' in page  # Cancel keeps Bob logged in
    form = client.get(link, follow=True)
    action = form.redirect_chain[-1][0] if form.redirect_chain else link
    # A mistyped confirmation changes nothing and keeps Bob logged in (it logged him out).
    mistyped = client.post(action, {"password1": NEW_PASSWORD, "password2": "other"})
    assert mistyped.status_code == 200
    assert client.session["_auth_user_id"] == str(bob.pk)
    assert "changing this password logs you out" in mistyped.content.decode()
    changed = client.post(action, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert changed.status_code == 302
    assert client.session.get("_auth_user_id") != str(bob.pk)
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_a_link_that_does_not_work_says_it_may_be_too_old(client, alice, settings):
    link = _reset_link(client, "alice@example.com")
    alice.set_password(NEW_PASSWORD)  # the link is void once the password changed
    alice.save()
    page = client.get(link, follow=True).content.decode()
    assert "This link does not work" in page and 'name="password1"' not in page
    assert "it is more than 3 days old" in page
    settings.PASSWORD_RESET_TIMEOUT = 86400
    page = client.get("/accounts/password/reset/key/zzz/").content.decode()
    assert "it is more than 1 day old" in page
