"""The profile page: show and change the display name."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

PROFILE = "/accounts/profile/"


def test_profile_url():
    assert reverse("profile") == PROFILE


def test_profile_needs_log_in(client):
    response = client.get(PROFILE)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next={PROFILE}"


def test_profile_shows_the_player(client, alice):
    client.force_login(alice)
    response = client.get(PROFILE)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<dd>Alice</dd>" in html
    assert "<dd>alice</dd>" in html
    assert "alice@example.com" in html
    assert 'name="display_name"' in html and 'maxlength="40"' in html


def test_the_name_box_holds_the_name_the_others_see(client, alice, db):
    """The box to change one's display name shows the current one; a player who never
    chose one goes by their username, and finds it there rather than an empty box."""
    from tests.factories import UserFactory

    client.force_login(alice)
    assert 'name="display_name" value="Alice"' in client.get(PROFILE).content.decode()
    hansi = UserFactory(username="hansi", display_name="")
    client.force_login(hansi)
    html = client.get(PROFILE).content.decode()
    assert 'name="display_name" value="hansi"' in html and "<dd>hansi</dd>" in html


def test_changing_the_display_name(client, alice):
    client.force_login(alice)
    response = client.post(PROFILE, {"display_name": "  Lady Alice  "}, follow=True)
    assert response.redirect_chain == [(PROFILE, 302)]
    alice.refresh_from_db()
    assert alice.display_name == "Lady Alice"  # stripped
    html = response.content.decode()
    assert "Your display name is saved." in html
    assert "Signed in as <strong>Lady Alice</strong>" in html


@pytest.mark.parametrize(
    ("value", "error"),
    [
        ("", "This field is required."),
        ("    ", "This field is required."),
        ("x" * 41, "at most 40 characters"),
        ("Eve\u202eecila", "visible characters only"),  # right-to-left override
        ("Zero\u200bWidth", "visible characters only"),
        ("Tab\tName", "visible characters only"),
        # The lobby's word for an open seat, alone, in each language, and the seat a
        # declined invitation leaves: a name that read as one beside the real one.
        ("open", "reads like a bot, an empty seat"),
        ("FREI", "reads like a bot, an empty seat"),
        ("libre !", "reads like a bot, an empty seat"),
        ("Kept for the host", "reads like a bot, an empty seat"),
        ("Für den Gastgeber freigehalten", "reads like a bot, an empty seat"),
        ("Réservée à l’hôte", "reads like a bot, an empty seat"),
        ("Réservée à l'hôte", "reads like a bot, an empty seat"),  # a typed apostrophe
        ("Kept  for the host", "reads like a bot, an empty seat"),  # shown with one space
        ("FREl", "reads like a bot, an empty seat"),  # a small l for the capital I
        # What the board shows for the seat of an erased account, in each language.
        ("Deleted player", "reads like a bot, an empty seat"),
        ("deleted  PLAYER", "reads like a bot, an empty seat"),
        ("Gelöschter Spieler", "reads like a bot, an empty seat"),
        ("Joueur supprime", "reads like a bot, an empty seat"),  # accents dropped
    ],
)
def test_bad_display_names_show_errors_and_change_nothing(client, alice, value, error):
    client.force_login(alice)
    response = client.post(PROFILE, {"display_name": value})
    assert response.status_code == 400
    html = response.content.decode()
    assert error in html
    assert 'aria-invalid="true"' in html
    alice.refresh_from_db()
    assert alice.display_name == "Alice"
    assert "Signed in as <strong>Alice</strong>" in html  # the header shows the stored name


@pytest.mark.parametrize("value", ["Opener", "Libre Joe", "Frieda", "Botond"])
def test_names_that_only_begin_like_a_seat_are_fine(client, alice, value):
    client.force_login(alice)
    assert client.post(PROFILE, {"display_name": value}).status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == value


def test_missing_field_changes_nothing(client, alice):
    client.force_login(alice)
    assert client.post(PROFILE, {}).status_code == 400
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_forty_characters_and_unicode_are_fine(client, alice):
    client.force_login(alice)
    name = "Ünïcødé 名前 " + "z" * 29
    assert len(name) == 40
    assert client.post(PROFILE, {"display_name": name}).status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == name


@pytest.mark.parametrize(
    ("hostile", "escaped"),
    [
        ('<script>alert("x")</script>', "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"),
        ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
        ("\"><b>'&amp;", "&quot;&gt;&lt;b&gt;&#x27;&amp;amp;"),
    ],
)
def test_display_name_is_html_escaped_everywhere_it_shows(client, alice, hostile, escaped):
    client.force_login(alice)
    assert client.post(PROFILE, {"display_name": hostile}).status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == hostile  # stored as typed...
    for url in [PROFILE, "/", reverse("account_email")]:
        html = client.get(url).content.decode()
        assert f"Signed in as <strong>{escaped}</strong>" in html
        assert hostile not in html  # ...and never markup on a page


def test_profile_edit_needs_csrf(alice):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post(PROFILE, {"display_name": "Hacked"}).status_code == 403
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_profile_refuses_other_methods(client, alice):
    client.force_login(alice)
    assert client.delete(PROFILE).status_code == 405


@pytest.mark.parametrize(
    "name",
    ["Bot (hard)", "bot (easy)", "BOT", "Bob", "ｂｏｂ", "bob", "Open seat"],
    ids=[
        "bot-level",
        "bot-lower",
        "bot-word",
        "others-display",
        "fullwidth",
        "others-username",
        "open-seat",
    ],
)
def test_a_display_name_cannot_imitate_a_bot_or_another_player(client, alice, bob, name):
    client.force_login(alice)
    response = client.post(PROFILE, {"display_name": name})
    assert response.status_code == 400  # the form again, with the reason
    assert "another player" in response.content.decode() or "bot" in response.content.decode()
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_a_display_name_cannot_copy_a_name_written_with_look_alike_letters(
    client, alice, bob, carol
):
    """Compared as both read (accounts.names.name_key), whichever was written oddly:
    Bob takes "Dаve" with a Cyrillic а; neither Carol's "Dave" nor a second "Dаve" may
    follow, nor "Dаve" spelled with a capital I for an l elsewhere ("CarI")."""
    client.force_login(bob)
    assert client.post(PROFILE, {"display_name": "D\u0430ve"}).status_code == 302
    client.force_login(carol)
    for copy in ("Dave", "D\u0430ve", "DAVE", "Davé"):
        response = client.post(PROFILE, {"display_name": copy})
        assert response.status_code == 400, copy
        assert "Another player already goes by that name" in response.content.decode()
    client.force_login(alice)
    assert client.post(PROFILE, {"display_name": "CaroI"}).status_code == 400
    carol.refresh_from_db()
    assert carol.display_name != "Dave"


@pytest.mark.parametrize("copy", ["ALICE", "AIice", "alIce", "MILA"])
def test_a_capital_i_reads_as_an_i_and_as_an_l(client, alice, bob, copy):
    """A capital I reads as an l ("AIice") and, case aside, as an i: "ALICE" passed as
    Alice's name (its key read "allce"), and her friends' lobbies showed invitations
    from "ALICE"."""
    from tests.factories import UserFactory

    UserFactory(username="mila_k", display_name="Mila")
    client.force_login(bob)
    response = client.post(PROFILE, {"display_name": copy})
    assert response.status_code == 400, copy
    assert "Another player already goes by that name" in response.content.decode()
    bob.refresh_from_db()
    assert bob.display_name == "Bob"


def test_a_display_name_may_keep_ones_own_name_in_another_case(client, alice, bob):
    client.force_login(alice)
    assert client.post(PROFILE, {"display_name": "ALICE"}).status_code == 302
    assert client.post(PROFILE, {"display_name": "Robotnik"}).status_code == 302  # "bot" inside


def test_sign_out_everywhere_ends_every_other_session_and_token(client, alice):
    from django.test import Client

    from accounts.tokens.services import token_create

    _, secret = token_create(user=alice, name="my bot")
    phone = Client()
    phone.force_login(alice)
    assert phone.get(PROFILE).status_code == 200
    client.force_login(alice)
    page = client.get(PROFILE).content.decode()
    assert "Sign out everywhere else" in page
    answer = client.post("/accounts/profile/sign-out-everywhere/", follow=True)
    assert answer.redirect_chain == [(PROFILE, 302)]
    assert "signed out everywhere else" in answer.content.decode()
    assert phone.get(PROFILE).status_code == 302  # that session is over
    assert client.get(PROFILE).status_code == 200  # this one goes on
    assert not alice.api_tokens.exists()
    assert Client().get("/api/v1/games/", HTTP_AUTHORIZATION=f"Token {secret}").status_code == 401


def test_sign_out_everywhere_is_a_post_of_a_signed_in_player(client, alice):
    assert client.post("/accounts/profile/sign-out-everywhere/").status_code == 302  # log-in
    client.force_login(alice)
    assert client.get("/accounts/profile/sign-out-everywhere/").status_code == 405


def test_the_two_factor_line_speaks_to_the_reader(client, alice):
    """A player reads what a second factor is; only staff read that it is required of
    them (a player took "required for staff" for a rule of theirs)."""
    client.force_login(alice)
    html = client.get(PROFILE).content.decode()
    assert "a code from your phone at each log-in" in html and "required for staff" not in html
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    assert "required for staff" in client.get(PROFILE).content.decode()


def test_the_migration_gives_stored_names_the_new_key(alice):
    """Accounts stored before an i read as an l get the key the check now compares."""
    import importlib

    from django.apps import apps

    from accounts.models import User

    User.objects.filter(pk=alice.pk).update(display_name_key="alice", username_key="alice")
    importlib.import_module("accounts.migrations.0016_name_keys_fold_i").keys_fill(apps, None)
    alice.refresh_from_db()
    assert alice.display_name_key == "allce" and alice.username_key == "allce"


def test_the_profiles_save_buttons_say_what_each_saves(client, alice):
    """A screen reader's list of buttons read "Save" three times: each now names what it
    saves, its visible word first in the name (what a voice-control user says)."""
    import re

    client.force_login(alice)
    html = client.get(PROFILE).content.decode()
    names = re.findall(
        r'<button type="submit" class="button" aria-label="([^"]+)">Save</button>', html
    )
    assert len(names) >= 3 and len(set(names)) == len(names), names
    assert all(name.startswith("Save ") for name in names), names


def test_names_that_read_alike_since_the_i_fold_stay_apart(client, alice, bob):
    """Since an i reads as an l, "Neil" and "Nell" (both made before) share a key: an
    invitation to "Neil" went to the older "Nell".  The exact name wins; a key shared by
    two names names neither; each keeps saving their own name."""
    from accounts.models import User
    from accounts.selectors import user_by_name
    from games.selectors import players_by_name
    from tests.factories import UserFactory

    nell = UserFactory(username="nell_k", display_name="Nell")
    neil = UserFactory(username="neil_k", display_name="Neil")
    assert nell.display_name_key == neil.display_name_key  # as the migration left them
    assert user_by_name("Neil") == neil and user_by_name("nell") == nell
    assert players_by_name(["Neil", "NELL"]) == {"neil": neil, "nell": nell}
    assert user_by_name("Ne1l") is None  # reads as both: names neither
    assert players_by_name(["Ne1l"]) == {}
    client.force_login(neil)
    assert client.post(PROFILE, {"display_name": "Neil"}).status_code == 302
    assert User.objects.get(pk=neil.pk).display_name == "Neil"
