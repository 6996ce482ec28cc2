"""Sign-up with mandatory e-mail verification, through allauth's pages."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def _sign_up(client, username="dora", email="dora@example.com", password=PASSWORD):
    return client.post(
        reverse("account_signup"),
        {"username": username, "email": email, "password1": password, "password2": password},
    )


def _sign_up_from(client, page: str):
    """Sign up as Dora from the sign-up page that ``page`` linked to (``next``)."""
    return client.post(
        f"/accounts/signup/?next={page}",
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": page,
        },
    )


def _link_in(message) -> str:
    match = re.search(r"http://127\.0\.0\.1:8000(/\S+)", message.body)
    assert match, message.body
    return match.group(1)


def test_sign_up_sends_a_verification_email_and_does_not_log_in(client):
    response = _sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    user = User.objects.get(username="dora")
    assert not EmailAddress.objects.get(user=user).verified
    assert "_auth_user_id" not in client.session

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["dora@example.com"]
    assert message.subject.startswith("[High Society] ")
    assert "/accounts/confirm-email/" in _link_in(message)


def test_following_the_emailed_link_verifies_and_then_log_in_works(client):
    _sign_up(client)
    link = _link_in(mail.outbox[0])

    page = client.get(link)
    assert page.status_code == 200
    assert "dora@example.com" in page.content.decode()
    confirmed = client.post(link)
    assert confirmed.status_code == 302
    assert EmailAddress.objects.get(email="dora@example.com").verified

    client.logout()
    for login in ["dora", "dora@example.com"]:  # by username or by e-mail
        response = client.post(reverse("account_login"), {"login": login, "password": PASSWORD})
        assert response.status_code == 302, response.content.decode()
        assert response["Location"] == "/"
        assert int(client.session["_auth_user_id"]) == User.objects.get(username="dora").pk
        client.logout()


def test_a_forged_confirmation_key_verifies_nothing(client):
    _sign_up(client)
    link = _link_in(mail.outbox[0])
    forged = re.sub(r"/confirm-email/[^/]+/", "/confirm-email/forged-key/", link)
    client.post(forged)
    assert not EmailAddress.objects.get(email="dora@example.com").verified


def test_unverified_user_cannot_log_in(client):
    _sign_up(client)
    client.logout()
    mail.outbox.clear()
    response = client.post(reverse("account_login"), {"login": "dora", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("profile")).status_code == 302  # still anonymous


def test_sign_up_with_a_taken_email_creates_nothing_and_reveals_nothing(client, alice):
    # Enumeration prevention: the page looks like a success; the owner gets an e-mail.
    response = _sign_up(client, username="alice2", email="alice@example.com")
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert not User.objects.filter(username="alice2").exists()
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]


def test_sign_up_refuses_a_taken_username(client, alice):
    response = _sign_up(client, username="alice", email="new@example.com")
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert User.objects.count() == 1


def test_sign_up_refuses_a_username_longer_than_thirty_characters(client):
    """A username heads pages and seats; 150 characters (the model's limit) broke a
    phone's layout, so a new one has at most 30."""
    response = _sign_up(client, username="d" * 31)
    assert response.status_code == 200
    assert "A username has at most 30 characters." in response.content.decode()
    assert not User.objects.exists()
    assert _sign_up(client, username="d" * 30).status_code == 302
    assert User.objects.get().username == "d" * 30


@pytest.mark.parametrize(
    "email", ["d" * 65 + "@example.com", "d@" + ".".join(["e" * 60] * 5) + ".com"]
)
def test_sign_up_refuses_an_address_too_long_to_keep(client, email):
    """It was cut to 254 characters to fit: the account got an address nobody typed."""
    response = _sign_up(client, email=email)
    assert response.status_code == 200
    assert "An e-mail address has at most 254 characters" in response.content.decode()
    assert not User.objects.exists() and not mail.outbox


def test_an_address_change_refuses_an_address_too_long_to_keep(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("account_email"), {"action_add": "", "email": "a" * 300 + "@example.com"}
    )
    assert "An e-mail address has at most 254 characters" in response.content.decode()
    assert not mail.outbox
    assert [a.email for a in EmailAddress.objects.filter(user=alice)] == [alice.email]


def test_sign_up_refuses_a_weak_password(client):
    response = _sign_up(client, password="password")
    assert response.status_code == 200
    assert "too common" in response.content.decode()
    assert not User.objects.filter(username="dora").exists()


def test_sign_up_is_rate_limited_per_ip(client):
    for n in range(20):
        _sign_up(client, username=f"user{n}", email=f"user{n}@example.com")
        client.logout()
    response = _sign_up(client, username="one-too-many", email="late@example.com")
    assert response.status_code == 429 and response["Retry-After"] == "60"  # a minute
    assert not User.objects.filter(username="one-too-many").exists()


@pytest.mark.parametrize(
    ("username", "why"),
    [
        ("ａｌｉｃｅ", "already"),  # fullwidth: NFKC makes it "alice"
        ("аlice", "look alike"),  # a Cyrillic а among Latin letters
        ("аlісе", "look alike"),  # Cyrillic а, і, с, е around a Latin l
        ("aIice", "look alike"),  # a capital I for the l
        ("a1ice", "look alike"),  # a digit one for the l
        ("alicé", "look alike"),  # an accent added
        ("alice@example.com", "cannot contain"),  # would log in as alice's address
        ("open", "empty seat"),  # the lobby shows a username without a display name
        ("Libre", "empty seat"),
        ("bot-easy", "empty seat"),
        ("Bot_easy", "empty seat"),  # "_" between the words, as a username writes them
        ("Deleted_player", "empty seat"),  # an erased account's seat
        ("open_seat", "empty seat"),
        ("~xyz", "digits and . + - _ only"),  # Django's words offered the "@" refused above
    ],
    ids=[
        "fullwidth",
        "cyrillic-a",
        "mostly-cyrillic",
        "capital-i",
        "digit-one",
        "accent",
        "at",
        "open",
        "libre",
        "bot",
        "bot-underscore",
        "deleted",
        "open-seat",
        "tilde",
    ],
)
def test_sign_up_refuses_look_alike_usernames(client, alice, username, why):
    """A username that reads like an existing one is refused: NFKC-normalised first (a
    fullwidth copy is the same name), and names that mix scripts with look-alike
    letters, or whose letters all look like another user's name, are refused."""
    response = _sign_up(client, username=username, email="mallory@example.com")
    assert response.status_code == 200
    assert why in response.content.decode().lower()
    assert User.objects.count() == 1


def test_sign_up_stores_the_nfkc_form_of_a_new_name(client):
    assert _sign_up(client, username="ｚｏｅ", email="zoe@example.com").status_code == 302
    assert User.objects.filter(username="zoe").exists()


def test_sign_up_refuses_a_name_in_another_script_that_reads_like_a_player(client):
    from tests.factories import UserFactory

    UserFactory(username="cop")
    response = _sign_up(client, username="сор", email="mallory@example.com")  # all Cyrillic
    assert response.status_code == 200 and "look alike" in response.content.decode().lower()
    assert _sign_up(client, username="кот", email="cat@example.com").status_code == 302  # a word


def test_the_username_rules_are_said_before_the_first_try(client):
    """The limits and the characters allowed showed only in the refusal of a first try."""
    html = client.get(reverse("account_signup")).content.decode()
    hint = "From 3 to 30 characters: letters of any alphabet, digits and . + - _ (no spaces)."
    assert hint in html
    box = re.search(r'<input[^>]*name="username"[^>]*>', html).group(0)
    described = re.search(r'aria-describedby="([^"]+)"', box).group(1)
    assert f'id="{described.split()[0]}"' in html


def test_a_password_made_of_the_username_is_refused(client):
    """ "newbie1newbie1" was accepted for the user "newbie1" (Django's default leaves a
    password two thirds alike to the name)."""
    response = _sign_up(
        client, username="newbie1", email="n1@example.com", password="newbie1newbie1"
    )
    assert response.status_code == 200
    assert "too similar to the username" in response.content.decode()
    assert not User.objects.filter(username="newbie1").exists()


def test_sign_up_from_a_shared_table_link_comes_back_to_the_table(client, alice):
    """A visitor sent a table's link logs in or signs up from it: every way to sign up
    on the way (the table's own button, the log-in page's line, the header) carries the
    table along, and confirming the address lands on the table, not on the lobby."""
    from tests.games.factories import GameFactory

    game = GameFactory(creator=alice, seats=[{"open": True}, {"ai": "easy"}])
    table = f"/games/{game.pk}/"
    board = client.get(table).content.decode()
    assert f'href="/accounts/signup/?next=/games/{game.pk}/"' in board  # header, button
    assert board.count(f"/accounts/signup/?next=/games/{game.pk}/") >= 2
    login = client.get(f"/accounts/login/?next={table}").content.decode()
    # The log-in page's "New here? Sign up" and the header's "Sign up" both keep it (the
    # header's link used to overwrite the page's with a bare one).
    assert f'href="/accounts/signup/?next=/games/{game.pk}/"' in login  # the header's
    assert f'href="/accounts/signup/?next=%2Fgames%2F{game.pk}%2F"' in login  # the page's
    assert 'href="/accounts/signup/"' not in login
    signup = client.get(f"/accounts/signup/?next={table}").content.decode()
    assert f'href="/accounts/login/?next=/games/{game.pk}/"' in signup
    _sign_up_from(client, table)
    confirmed = client.post(_link_in(mail.outbox[-1]))
    assert confirmed.status_code == 302 and confirmed["Location"] == table


def test_confirming_in_another_browser_still_lands_on_the_table(client, alice):
    """The address is often confirmed on another device (the phone that reads the
    mail): the link itself carries the table, so the page it opens leads there too,
    where the new player logs in to take the seat."""
    from django.test import Client

    from tests.games.factories import GameFactory

    game = GameFactory(creator=alice, seats=[{"open": True}, {"ai": "easy"}])
    table = f"/games/{game.pk}/"
    _sign_up_from(client, table)
    link = _link_in(mail.outbox[-1])
    assert link.endswith(f"?next=%2Fgames%2F{game.pk}%2F")
    # The e-mail says where the click leads, in both its parts.
    back = f"Once it is confirmed, the link takes you back to table {game.pk}."
    assert back in mail.outbox[-1].body and back in mail.outbox[-1].alternatives[0][0]
    phone = Client()  # no session of the sign-up's
    page = phone.get(link).content.decode()
    assert f'name="next" value="{table}"' in page
    confirmed = phone.post(link.split("?")[0], {"next": table})
    assert confirmed.status_code == 302 and confirmed["Location"] == table
    assert EmailAddress.objects.get(email="dora@example.com").verified
    # There the visitor's way in keeps the table: log in and come back to it.
    board = phone.get(table).content.decode()
    assert f"/accounts/login/?next=/games/{game.pk}/" in board


def test_a_confirmation_link_opened_as_someone_else_signs_out_only_on_confirming(client, alice):
    """Opened in a browser logged in as another player (a shared computer, a forwarded
    mail), the link signed that player out as it opened, unexplained: the page now says
    who is logged in and what confirming does, and only the button signs them out."""
    _sign_up(client)
    link = _link_in(mail.outbox[-1])
    client.force_login(alice)
    page = client.get(link).content.decode()
    assert client.session["_auth_user_id"] == str(alice.pk)
    assert (
        "You are logged in as <strong>alice</strong>, and this link is for another account:"
        " confirming the address logs you out." in page
    )
    assert not EmailAddress.objects.get(email="dora@example.com").verified
    client.post(link.split("?")[0])
    assert client.session.get("_auth_user_id") != str(alice.pk)
    assert EmailAddress.objects.get(email="dora@example.com").verified


def test_a_confirmation_link_carries_no_stranger_address(client):
    _sign_up_from(client, "https://evil.example/")
    assert "next=" not in _link_in(mail.outbox[-1])
    assert "evil" not in mail.outbox[-1].body
    assert "takes you back to table" not in mail.outbox[-1].body


def test_the_header_brings_no_stranger_address_back(client):
    """A ``next`` handed to the log-in page is passed on only when it stays on the site."""
    page = client.get("/accounts/login/?next=https://evil.example/").content.decode()
    assert "/accounts/signup/?next=https" not in page
    assert 'href="/accounts/signup/"' in page


@pytest.mark.parametrize("same_email", [True, False])
def test_the_same_form_sent_twice_at_once_is_no_500(client, monkeypatch, same_email):
    """A double click on Sign up sends the form twice at once: both pass the checks, and
    the second insert met the account the first had just made (IntegrityError, 500).
    Here the other request's account is there already and the checks do not see it, as
    when it was committed between them and the insert."""
    from accounts.adapter import AccountAdapter
    from accounts.forms import SignupForm
    from tests.factories import UserFactory

    UserFactory(username="dora", email="dora@example.com" if same_email else "x@example.com")
    monkeypatch.setattr(AccountAdapter, "clean_username", lambda self, name, shallow=False: name)
    monkeypatch.setattr(SignupForm, "validate_unique_email", lambda self, value: value)
    response = _sign_up(client)
    if same_email:  # the double click: the first request's page
        assert response.status_code == 302
        assert response["Location"] == reverse("account_email_verification_sent")
    else:  # two people, one name, one moment
        assert response.status_code == 200
        assert "was made a moment ago" in response.content.decode()
    assert User.objects.filter(username="dora").count() == 1


def test_two_different_passwords_are_refused_in_good_german(client):
    """allauth's German wrote "das selbe Passwort"."""
    page = client.post(
        reverse("account_signup"),
        {"username": "dora", "email": "dora@example.com", "password1": PASSWORD, "password2": "x"},
        HTTP_ACCEPT_LANGUAGE="de",
    ).content.decode()
    assert "Du musst zweimal dasselbe Passwort eingeben." in page
