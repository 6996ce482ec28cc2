"""allauth's sentences that our catalogues word again (accounts/allauth_wording.py): the
German says "du" on every account page and e-mail, as the rest of the site does."""

from __future__ import annotations

import re
from pathlib import Path

import allauth
import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse

from accounts.allauth_wording import SENTENCES
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

FORMAL = re.compile(r"\b(Sie|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres|Ihnen)\b")
NEW_PASSWORD = "ein ganz neues Geheimnis 42"


def allauth_msgids(language: str) -> set[str]:
    po = Path(allauth.__file__).parent / "locale" / language / "LC_MESSAGES" / "django.po"
    ids = set()
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        match = re.search(r'^msgid ((?:".*"\n?)+)', block, re.M)
        if match and not block.startswith("#~"):
            raw = "".join(re.findall(r'"(.*)"', match.group(1)))
            ids.add(raw.replace("\\n", "\n").replace('\\"', '"'))
    return ids


def test_every_sentence_is_one_allauth_still_uses():
    # A sentence allauth has re-worded upstream would no longer be overridden: the
    # formal German would come back unnoticed.
    assert set(SENTENCES) - allauth_msgids("de") == set()


def test_our_catalogues_come_first():
    assert Path(settings.LOCALE_PATHS[0]).resolve() == (Path(settings.BASE_DIR) / "locale")


def test_asking_for_the_password_again_says_du(client, alice):
    alice.language = "de"
    alice.save(update_fields=["language"])
    client.force_login(alice)
    html = client.get(reverse("account_reauthenticate")).content.decode()
    main = html.split("<main", 1)[1]
    assert "Gib dein Passwort ein:" in main
    assert "Bitte bestätige noch einmal, dass du es bist" in main
    assert not FORMAL.search(re.sub(r"<[^>]+>", " ", main))


@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "Confirm it is you"), ("de", "Bestätige, dass du es bist"), ("fr", "Confirmez que")],
)
def test_asking_for_the_password_again_is_worded_as_the_site(client, alice, language, title):
    """allauth's "Confirm Access" and "Please reauthenticate …": title case and a word
    nobody says, on a page every address change and data download goes through."""
    alice.language = language
    alice.save(update_fields=["language"])
    client.force_login(alice)
    html = client.get(reverse("account_reauthenticate")).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.split("<main", 1)[1]))
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S).group(1).strip()
    assert heading.startswith(title), heading
    for allauth_words in ("Confirm Access", "reauthenticate", "Zugriff", "réauthentifier"):
        assert allauth_words not in text


@pytest.mark.parametrize(
    ("language", "opening", "closing"),
    [
        ("de", "Das Passwort deines High-Society-Kontos wurde geändert.", "- Wann: "),
        ("fr", "Le mot de passe de votre compte High Society a été changé.", "- Quand\xa0: "),
        ("en", "The password of your High Society account was changed.", "- When: "),
    ],
)
def test_the_password_changed_e_mail_reads_in_the_players_register(
    client, alice, language, opening, closing
):
    alice.language = language
    alice.save(update_fields=["language"])
    client.force_login(alice)
    mail.outbox.clear()
    client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    [message] = mail.outbox
    assert opening in message.body
    date_line = next(line for line in message.body.splitlines() if line.startswith(closing))
    assert not date_line.rstrip().endswith('"')  # allauth's German had a stray quote here
    if language == "de":
        assert not FORMAL.search(message.body), message.body


@pytest.mark.parametrize(
    ("language", "label"),
    [
        ("en", "Username or e-mail"),
        ("de", "Benutzername oder E-Mail"),
        ("fr", "Nom d’utilisateur ou e-mail"),
    ],
)
def test_the_log_in_field_says_what_it_takes(client, alice, language, label):
    # allauth's own label is a bare "Login" ("Anmeldung" in German).
    html = client.get(reverse("account_login"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert re.search(
        r'<label for="id_login"[^>]*>\s*' + re.escape(label.replace("'", "&#x27;")), html
    ), html
    # and it still signs in with either
    for login in ("alice", "alice@example.com"):
        client.logout()
        response = client.post(reverse("account_login"), {"login": login, "password": PASSWORD})
        assert response.status_code == 302, login


@pytest.mark.parametrize(
    ("language", "log_in", "sign_up", "log_out"),
    [
        ("en", "Log in", "Sign up", "Log out"),
        ("de", "Anmelden", "Registrieren", "Abmelden"),
        ("fr", "Connexion", "S’inscrire", "Déconnexion"),
    ],
)
def test_the_entrance_pages_say_what_the_menu_says(
    client, alice, language, log_in, sign_up, log_out
):
    """allauth's "Sign In", "Sign Up", "Sign Out" (German "Anmeldung") read as the
    site's menu words them, in the title, the heading and the button."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    login = client.get(reverse("account_login")).content.decode()
    signup = client.get(reverse("account_signup")).content.decode()
    for html, word in ((login, log_in), (signup, sign_up)):
        main = html.split("<main", 1)[1].split("</main>", 1)[0]
        heading = re.search(r"<h1>\s*(.*?)\s*</h1>", main).group(1)
        button = re.findall(r"<button[^>]*>\s*(.*?)\s*</button>", main, re.S)[-1]
        assert (heading, button) == (word, word)
        assert re.search(f'href="{reverse("account_login")}"[^>]*>{log_in}</a>', html)  # the menu
    assert not re.search(r"Sign In|Sign Up|Signup|Anmeldung", login + signup)
    client.force_login(alice)
    logout = client.get(reverse("account_logout")).content.decode().split("<main", 1)[1]
    assert re.search(r"<h1>\s*(.*?)\s*</h1>", logout).group(1) == log_out


@pytest.mark.parametrize(
    ("language", "field"),
    [("en", "E-mail"), ("de", "E-Mail"), ("fr", "E-mail")],
)
def test_the_reset_pages_write_e_mail_and_promise_no_contact(client, alice, language, field):
    """The site gives no contact address, so its pages do not say "contact us"; they
    write "e-mail" as every other page does (allauth: "Email", French "Courriel")."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(reverse("account_reset_password")).content.decode()
    assert f'<label for="id_email">{field}' in page
    assert "Courriel" not in page
    done = client.get(reverse("account_reset_password_done")).content.decode()
    for html in (page, done):
        text = re.sub(r"<[^>]+>", " ", html.split("<main", 1)[1])
        assert not re.search(r"contact us|kontaktier|contactez", text, re.I), language


def test_the_e_mail_page_and_the_log_in_speak_the_sites_words(client, alice):
    page = client.get(reverse("account_login")).content.decode()
    assert "Stay logged in on this browser" in page and "Remember Me" not in page
    client.force_login(alice)
    page = client.get(reverse("account_email")).content.decode()
    assert "<h1>E-mail address</h1>" in page or ">E-mail address<" in page
    assert "Change e-mail address" in page and "Email Address" not in page


@pytest.mark.parametrize(
    ("language", "change", "reset", "broken"),
    [
        ("en", "Current password", "Send me the link", "This link does not work"),
        ("de", "Aktuelles Passwort", "Schick mir den Link", "Dieser Link funktioniert nicht"),
        ("fr", "Mot de passe actuel", "Envoyez-moi le lien", "Ce lien ne fonctionne pas"),
    ],
)
def test_the_password_pages_speak_as_the_site_does(client, alice, language, change, reset, broken):
    """allauth's Title Case ("Change Password") and its "Bad Token" heading, worded as
    the rest of the site is."""
    header = {"HTTP_ACCEPT_LANGUAGE": language}
    page = client.get(reverse("account_reset_password"), **header).content.decode()
    assert reset in page and "Reset My Password" not in page
    stale = client.get("/accounts/password/reset/key/1-bad/", follow=True, **header)
    main = stale.content.decode().split("<main", 1)[1]
    assert broken in main and "Token" not in main and "jeton" not in main
    alice.language = language
    alice.save(update_fields=["language"])
    client.force_login(alice)
    page = client.get(reverse("account_change_password")).content.decode()
    assert change in page and "Change Password" not in page


def test_the_history_filter_speaks_of_games_in_the_plural_in_french(client, alice):
    alice.language = "fr"
    alice.save(update_fields=["language"])
    client.force_login(alice)
    page = client.get("/games/history/").content.decode()
    assert ">Terminées<" in page and ">Gagnées<" in page and ">Perdues<" in page


def test_a_password_change_says_what_else_it_did(client, alice):
    """Changing the password signs out every other device and revokes the API tokens, as
    a reset does; the page said only "Password successfully changed." and the e-mail
    nothing, so a player's bot stopped with no word why."""
    from accounts.tokens.services import token_create

    token_create(user=alice, name="my bot")
    client.force_login(alice)
    mail.outbox.clear()
    page = client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
        follow=True,
    ).content.decode()
    said = "Every other device that was signed in is signed out, and your API tokens are revoked."
    assert said in page
    [message] = mail.outbox
    assert said in message.body
    assert said in message.alternatives[0][0]  # in the HTML layout every other e-mail has
    assert not alice.api_tokens.exists()
