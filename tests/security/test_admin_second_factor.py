"""Staff need a second factor before the admin opens (issue #13): an authenticator
app set up on the account AND a code confirmed in this session.  Players may set one
up too; then their log-in asks for a code."""

import time

import pytest
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory
from tests.second_factor import second_factor_set_up, totp_code

pytestmark = pytest.mark.django_db


@pytest.fixture
def stella(db):
    return UserFactory(username="stella", is_staff=True, is_superuser=True)


def test_staff_without_an_authenticator_app_are_sent_to_set_one_up(client, stella):
    client.post(reverse("account_login"), {"login": "stella", "password": PASSWORD})
    response = client.get("/admin/", follow=True)
    hops = [where for where, _ in response.redirect_chain]
    assert hops[:2] == ["/admin/login/?next=/admin/", reverse("mfa_activate_totp")]
    assert hops[-1].startswith(reverse("account_reauthenticate"))  # allauth: password again
    assert "Staff accounts need a second factor" in response.content.decode()  # in English
    assert client.get("/admin/games/game/").status_code == 302  # nothing of the admin


def test_staff_in_with_a_code_of_their_app(client, stella, settings):
    """Set up the app (the admin still closed: this session has confirmed no code),
    confirm a recovery code, and the admin opens.  A new log-in then asks for a code
    before the session exists, and with it the admin opens at once."""
    secret, codes = second_factor_set_up(client, stella)
    assert len(codes) >= 8
    response = client.get("/admin/login/?next=/admin/games/game/")
    assert response.status_code == 302
    assert response.url.startswith(reverse("mfa_reauthenticate"))
    assert "next=%2Fadmin%2Fgames%2Fgame%2F" in response.url
    wrong = client.post(reverse("mfa_reauthenticate"), {"code": "000000"})
    assert wrong.status_code == 200  # refused, asked again
    assert client.get("/admin/").status_code == 302
    client.post(reverse("mfa_reauthenticate"), {"code": codes[0]})
    assert client.get("/admin/").status_code == 200

    client.logout()
    response = client.post(reverse("account_login"), {"login": "stella", "password": PASSWORD})
    assert response.url == reverse("mfa_authenticate")  # the password alone is not enough
    assert client.get("/admin/").status_code == 302
    assert "_auth_user_id" not in client.session
    # The code of the app's next period (each code is taken once; a tolerance of one
    # period, as for a phone's clock a little ahead).
    settings.MFA_TOTP_TOLERANCE = 1
    client.post(reverse("mfa_authenticate"), {"code": totp_code(secret, time.time() + 30)})
    assert client.get("/admin/").status_code == 200


def test_the_admins_code_page_offers_no_password_and_speaks_the_staff_language(client, stella):
    """The page asking the code for the admin offered allauth's "Use your password",
    which cannot open the admin (it sent the staff member back to the code); its
    explanation was English on German pages."""
    second_factor_set_up(client, stella)
    stella.language = "de"
    stella.save(update_fields=["language"])
    page = client.get("/admin/login/?next=/admin/", follow=True)
    html = page.content.decode()
    assert page.redirect_chain[-1][0].startswith(reverse("mfa_reauthenticate"))
    assert "Bestätige einen Code deiner Authenticator-App" in html
    assert reverse("account_reauthenticate") not in html
    assert "Wiederherstellungscode" in html  # the way in when the phone is lost
    # Elsewhere (a player confirming before changing an e-mail address) the password
    # stays on offer.
    other = client.get(reverse("mfa_reauthenticate") + "?next=/accounts/email/").content
    assert reverse("account_reauthenticate") in other.decode()


def test_a_signed_in_member_who_is_not_staff_is_refused_the_admin(client, alice):
    client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert client.get("/admin/").url.startswith("/admin/login/")
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 403
    assert "The admin is for the site" in response.content.decode()


def test_the_admins_login_page_sends_visitors_to_the_sites_login(client):
    response = client.get("/admin/login/?next=https://elsewhere.example/")
    assert response.status_code == 302
    assert response.url == "/accounts/login/?next=/admin/"


def test_players_may_set_up_an_app_and_then_need_its_code(client, alice):
    """Optional for players: the account page links to it; once set up, the log-in
    asks for a code."""
    client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert reverse("mfa_index") in client.get(reverse("profile")).content.decode()
    secret, _ = second_factor_set_up(client, alice)
    client.logout()
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.url == reverse("mfa_authenticate")
