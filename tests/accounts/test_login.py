"""Log-in, its rate limit, and log-out."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def _log_in(client, login, password=PASSWORD):
    return client.post(reverse("account_login"), {"login": login, "password": password})


def _logged_in_as(client):
    return client.session.get("_auth_user_id")


def test_a_factory_user_logs_in_by_username_or_email(client, alice):
    assert _log_in(client, "alice").status_code == 302
    assert int(_logged_in_as(client)) == alice.pk
    client.logout()
    assert _log_in(client, "ALICE@example.com").status_code == 302
    assert int(_logged_in_as(client)) == alice.pk


def test_the_signed_in_notice_names_the_player_as_the_header_does(client):
    UserFactory(username="zed", display_name="Zed the Bold")
    page = client.post(
        reverse("account_login"), {"login": "zed", "password": PASSWORD}, follow=True
    ).content.decode()
    assert "Successfully signed in as Zed the Bold." in page
    assert "Signed in as <strong>Zed the Bold</strong>" in page


def test_wrong_password_is_refused_with_a_message(client, alice):
    response = _log_in(client, "alice", "not the password")
    assert response.status_code == 200
    wrong_pair = "That username or e-mail address and that password do not match."
    assert wrong_pair in response.content.decode()
    by_address = _log_in(client, "alice@example.com", "not the password")
    assert wrong_pair in by_address.content.decode()
    assert _logged_in_as(client) is None


def test_repeated_failures_lock_the_login_for_a_while(client, alice):
    for _ in range(5):
        assert _log_in(client, "alice", "guess").status_code == 200
    response = _log_in(client, "alice")  # even the right password, now
    assert _logged_in_as(client) is None
    assert "Too many failed login attempts" in response.content.decode()
    # Another account from the same address is not locked by alice's failures.
    UserFactory(username="bob")
    assert _log_in(client, "bob").status_code == 302


@pytest.mark.parametrize(
    ("guessed_as", "then_as"),
    [("alice", "ALICE@example.com"), ("Alice@Example.com", "alice"), ("ALICE", "alice")],
)
def test_the_lockout_counts_the_account_not_the_text_typed(client, alice, guessed_as, then_as):
    """Five wrong passwords lock alice, whether they named her by username or e-mail
    address, in any case: the other spelling does not get five more guesses."""
    for n in range(5):
        Client(REMOTE_ADDR=f"198.51.100.{n + 1}").post(
            reverse("account_login"), {"login": guessed_as, "password": "guess"}
        )
    other = Client(REMOTE_ADDR="198.51.100.77")
    response = other.post(reverse("account_login"), {"login": then_as, "password": PASSWORD})
    assert "Too many failed login attempts" in response.content.decode()
    assert other.session.get("_auth_user_id") is None


def test_a_second_address_shares_the_accounts_lockout(client, alice):
    EmailAddress.objects.create(user=alice, email="alice@work.example", verified=True)
    for n in range(5):
        Client(REMOTE_ADDR=f"198.51.100.{n + 1}").post(
            reverse("account_login"), {"login": "alice@work.example", "password": "guess"}
        )
    response = _log_in(client, "alice")
    assert "Too many failed login attempts" in response.content.decode()


def test_a_password_reset_lifts_the_lockout(client, alice):
    for _ in range(5):
        _log_in(client, "alice", "guess")
    assert "Too many failed login attempts" in _log_in(client, "alice").content.decode()
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    link = re.search(
        r"http://127\.0\.0\.1:8000(/accounts/password/reset/key/\S+/)", mail.outbox[-1].body
    )
    form_url = client.get(link.group(1), follow=True).redirect_chain[-1][0]
    client.post(
        form_url, {"password1": "a brand new secret 42", "password2": "a brand new secret 42"}
    )
    assert _log_in(client, "alice", "a brand new secret 42").status_code == 302


def test_failures_for_nobody_do_not_lock_a_real_account(client, alice):
    for _ in range(5):
        _log_in(client, "alice2", "guess")  # nobody's name, close to hers
    assert _log_in(client, "alice").status_code == 302


def test_an_inactive_user_cannot_log_in(client):
    UserFactory(username="gone", is_active=False)
    response = _log_in(client, "gone")
    assert _logged_in_as(client) is None
    assert response.status_code == 302
    assert response["Location"] == reverse("account_inactive")


def test_log_out_needs_a_post(client, alice):
    client.force_login(alice)
    page = client.get(reverse("account_logout"))  # a confirmation page, no log-out
    assert page.status_code == 200
    assert _logged_in_as(client) is not None
    response = client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert _logged_in_as(client) is None


def test_the_log_out_button_in_the_nav_works_with_csrf_checks(alice):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    html = client.get("/").content.decode()
    token = html.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
    assert client.post(reverse("account_logout")).status_code == 403  # no token
    response = client.post(reverse("account_logout"), {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert _logged_in_as(client) is None


def test_tab_goes_from_the_username_to_the_password(client):
    """No link between the two fields: "Forgot your password?" comes after the button."""
    html = client.get(reverse("account_login")).content.decode()
    form = html[html.index('action="/accounts/login/"') :]
    between = form[form.index('id="id_login"') : form.index('id="id_password"')]
    assert "<a " not in between and "<button" not in between
    after = form[form.index('type="submit"') :]
    assert '<a href="/accounts/password/reset/">Forgot your password?</a>' in after


def test_the_reset_limit_says_how_long_it_lasts(client, alice):
    """Three reset e-mails an hour to one address: the fourth request is told so, with
    a Retry-After of an hour, not "wait a minute" (which would be refused again)."""
    for _ in range(3):
        client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    sent = len(mail.outbox)
    response = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert response.status_code == 429 and response["Retry-After"] == "3600"
    assert "limited to three an hour" in response.content.decode()
    assert len(mail.outbox) == sent


def test_a_strangers_guesses_never_lock_the_players_own_browser(client, alice):
    """A stranger's five wrong passwords lock alice's log-in for every browser that has
    never logged in to her account, but not for hers: it keeps a count of its own
    (accounts.devices), which its own wrong guesses fill, and only for itself."""
    mine = Client(REMOTE_ADDR="203.0.113.5")
    assert _log_in(mine, "alice").status_code == 302  # this browser becomes known
    device = mine.cookies["hs_device"].value
    mine.logout()  # (the test client's log-out drops every cookie; a browser keeps this one)
    mine.cookies["hs_device"] = device
    for n in range(5):
        Client(REMOTE_ADDR=f"198.51.100.{n + 1}").post(
            reverse("account_login"), {"login": "alice", "password": "guess"}
        )
    stranger = Client(REMOTE_ADDR="198.51.100.99")
    assert "Too many failed login attempts" in _log_in(stranger, "alice").content.decode()
    assert _log_in(mine, "ALICE@example.com").status_code == 302  # hers still logs in
    mine.logout()
    mine.cookies["hs_device"] = device
    for _ in range(5):
        _log_in(mine, "alice", "guess")
    assert "Too many failed login attempts" in _log_in(mine, "alice").content.decode()
    # A cookie of another account, or a forged one, is no key to alice's own count.
    forged = Client(REMOTE_ADDR="198.51.100.100")
    forged.cookies["hs_device"] = "not-signed"
    assert "Too many failed login attempts" in _log_in(forged, "alice").content.decode()


def test_the_name_boxes_take_a_username_as_typed(client):
    """On a phone the keyboard would capitalise a username's first letter: the boxes
    that take one say they are a username (no capital, no correction), and the log-in
    box, which takes a username or an e-mail address, is filled as a username."""
    import re

    for path, name in (("/accounts/login/", "login"), ("/accounts/signup/", "username")):
        html = client.get(path).content.decode()
        (box,) = re.findall(rf'<input[^>]*name="{name}"[^>]*>', html)
        for attribute in ('autocapitalize="none"', 'autocorrect="off"', 'spellcheck="false"'):
            assert attribute in box, (path, box)
        assert 'autocomplete="username"' in box, (path, box)


def test_the_log_in_page_speaks_as_the_header_does(client):
    """The page says "Log in" as the header does (allauth's said "Sign In"), and a line
    that leads a newcomer to sign up, in French too."""
    html = client.get("/accounts/login/").content.decode()
    assert ">Log in</h1>" in html and "Sign In" not in html
    assert 'New here? <a href="/accounts/signup/">Sign up</a> first' in html
    client.cookies["hs_language"] = "fr"
    html = client.get("/accounts/login/").content.decode()
    assert "au préalable" not in html and "Première visite" in html


def test_the_login_box_placeholder_says_what_its_label_says(client):
    """German showed "Anmeldename oder E-Mail" (allauth's) under "Benutzername oder
    E-Mail"; French a straight apostrophe."""
    client.cookies["hs_language"] = "de"
    html = client.get("/accounts/login/").content.decode()
    assert 'placeholder="Benutzername oder E-Mail"' in html and "Anmeldename" not in html
    client.cookies["hs_language"] = "fr"
    html = client.get("/accounts/login/").content.decode()
    assert 'placeholder="Nom d’utilisateur ou e-mail"' in html
