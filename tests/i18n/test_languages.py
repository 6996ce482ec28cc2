"""The site in German and French: the language chosen by the browser, the header and
the profile, remembered for the account; e-mails in the recipient's language; the API
by Accept-Language; money and cards as each language writes them."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core import mail
from django.utils import translation

from accounts.models import User
from games import presenter
from games.engine import apply_action
from games.engine.rules import IllegalAction, bid_problem
from tests.factories import PASSWORD
from tests.games.pages.conftest import act, table_make

pytestmark = pytest.mark.django_db


def test_money_is_written_as_each_language_writes_it():
    expected = {"en": "25,000", "de": "25.000", "fr": "25\xa0000"}
    for language, text in expected.items():
        with translation.override(language):
            assert presenter.money_text(25000) == text
            assert presenter.money_text(1000) == text.replace("25", "1", 1)


def test_a_sentence_of_several_payments_is_punctuated_as_each_language_does():
    """Scandal taken while two others pay: the payments were joined by a bare "; ",
    which French writes with a no-break space before it."""
    event = {
        "type": "take",
        "seat": 0,
        "card": "scandal",
        "payments": [{"seat": 1, "cards": [8000]}, {"seat": 2, "cards": [3000, 6000]}],
    }
    names = ["Éloïse", "Bot (moyen)", "Bot (facile)"]
    with translation.override("fr"):
        text = presenter.event_text(event, names)
    assert "paie 8\xa0000\xa0; Bot (facile) paie 3\xa0000 + 6\xa0000." in text
    with translation.override("en"):
        assert "pays 8,000; Bot (facile) pays" in presenter.event_text(event, names)


def test_cards_carry_the_names_of_the_german_and_french_editions():
    names = {
        "de": ["Luxus 7", "Prestige", "Skandal (½)", "Schulden (−5)", "Diebstahl"],
        "fr": ["Luxe 7", "Prestige", "Scandale (½)", "Dette (−5)", "Vol"],
        "en": ["Luxury 7", "Prestige", "Scandal (½)", "Debt (−5)", "Theft"],
    }
    for language, expected in names.items():
        with translation.override(language):
            shown = [
                presenter.card_name(c) for c in ("lux7", "prestige", "scandal", "debt", "theft")
            ]
            assert shown == expected


def test_the_engines_refusals_are_translated_with_their_numbers():
    problem = bid_problem([1000, 2000], 0, 12000, [1000, 2000])
    assert str(problem) == "Your bid must total more than 12,000; yours would be 3,000."
    with translation.override("de"):
        assert presenter.engine_text(problem) == (
            "Dein Gebot muss insgesamt mehr als 12.000 betragen; deines wäre 3.000."
        )
    with translation.override("fr"):
        assert presenter.engine_text(problem) == (
            "Votre enchère doit dépasser 12\xa0000 au total\xa0; la vôtre serait de 3\xa0000."
        )


def test_the_board_speaks_the_browsers_language(client, host, bob, carol):
    game = table_make(host, [bob, carol])
    client.force_login(host)
    html = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9").content.decode()
    assert '<html lang="de">' in html
    assert "Du bist am Zug: Biete für Luxus 3 oder passe." in html
    assert "Luxus — normale Versteigerung" in html
    html = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "À vous\xa0: enchérissez pour la carte Luxe 3 ou passez." in html
    html = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Your turn: bid for Luxury 3, or pass." in html


@pytest.mark.parametrize(
    ("language", "name"),
    [("en", "Bob (resigned)"), ("de", "Bob (aufgegeben)"), ("fr", "Bob (a abandonné)")],
)
def test_a_resigned_players_seat_is_named_in_the_readers_language(
    client, host, bob, carol, language, name
):
    from games.services import game_resign

    game = table_make(host, [bob, carol])
    game_resign(game=game, user=bob)
    client.force_login(host)
    html = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert name in html
    assert language == "en" or "(resigned)" not in html


def test_a_refused_bid_reads_in_german_with_german_numbers(client, host, bob, carol):
    game = table_make(host, [bob, carol])
    act(game, host, type="bid", cards=[10000, 2000])
    game.refresh_from_db()
    client.force_login(bob)
    page = client.post(
        f"/games/{game.pk}/act/",
        {"type": "bid", "cards": ["1000"], "version": game.version},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert "Dein Gebot muss insgesamt mehr als 12.000 betragen; deines wäre 1.000." in (
        page.content.decode()
    )


def test_the_header_switch_sets_the_language_and_remembers_it_for_the_account(client, bob):
    client.force_login(bob)
    response = client.post("/accounts/language/", {"language": "fr", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert User.objects.get(pk=bob.pk).language == "fr"
    # The account's choice wins over the browser's, on any page.
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="fr">' in html and "Vos parties" in html
    # Signed in on another device: the account's language again.
    other = client_class_new()
    other.force_login(User.objects.get(pk=bob.pk))
    assert '<html lang="fr">' in other.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()


def test_a_language_chosen_on_another_device_reaches_this_one_at_its_next_page(client, bob):
    """Both devices signed in; the player switches to German on one.  The other's next
    page drawn whole speaks German too (it used to wait for its next log-in), and its
    language cookie follows, so it stays German after a log-out there."""
    client.force_login(bob)
    client.post("/accounts/language/", {"language": "fr", "next": "/"})
    other = client_class_new()
    other.force_login(User.objects.get(pk=bob.pk))
    other.post("/accounts/language/", {"language": "de", "next": "/"})
    html = client.get("/").content.decode()
    assert '<html lang="de">' in html
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_the_switch_names_each_language_in_itself(client, language):
    """Someone who landed on a page in a language they do not read finds their own by
    its own name: "English", not "Englisch" or "Anglais"."""
    html = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    options = re.findall(r'<option value="(\w+)" lang="\w+"[^>]*>([^<]+)</option>', html)
    assert dict(options) == {"en": "English", "de": "Deutsch", "fr": "Français"}


def client_class_new():
    from django.test import Client

    return Client()


def test_an_unknown_language_changes_nothing(client, bob):
    client.force_login(bob)
    client.post("/accounts/language/", {"language": "de", "next": "/"})
    response = client.post("/accounts/language/", {"language": "xx-evil", "next": "/"})
    assert response.status_code == 302
    assert User.objects.get(pk=bob.pk).language == "de"
    response = client.post(
        "/accounts/language/", {"language": ["de", "fr"], "next": "https://evil.example/"}
    )
    assert response.status_code == 302 and "evil" not in response["Location"]
    assert client.get("/accounts/language/").status_code == 405


def test_anonymous_visitors_switch_with_the_cookie_alone(client):
    response = client.post("/accounts/language/", {"language": "de", "next": "/"})
    assert response.status_code == 302
    assert "Willkommen bei High Society" in client.get("/").content.decode()


def test_the_first_log_in_keeps_the_language_the_player_was_reading(client, bob, carol):
    assert bob.language == ""
    response = client.post(
        "/accounts/login/", {"login": "bob", "password": PASSWORD}, HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 302
    assert User.objects.get(pk=bob.pk).language == "de"
    # A player who chose before keeps their choice, whatever this browser says.
    carol.language = "fr"
    carol.save(update_fields=["language"])
    other = client_class_new()
    other.post(
        "/accounts/login/", {"login": "carol", "password": PASSWORD}, HTTP_ACCEPT_LANGUAGE="de"
    )
    assert User.objects.get(pk=carol.pk).language == "fr"
    assert '<html lang="fr">' in other.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()


def test_a_new_account_keeps_the_language_it_signed_up_in(client, alice, run_commits):
    """The address is confirmed before the first log-in: an invitation sent meanwhile
    came in English to a player who had signed up reading German."""
    from games.services import game_create

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response = client.post(
        "/accounts/signup/",
        {
            "username": "bernd",
            "email": "bernd@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    assert User.objects.get(username="bernd").language == "de"
    from allauth.account.models import EmailAddress

    EmailAddress.objects.filter(email="bernd@example.com").update(verified=True)  # the link
    mail.outbox.clear()
    with run_commits():
        game_create(creator=alice, players=3, seats=[{"user": "bernd"}, {"ai": "easy"}])
    assert [m.to for m in mail.outbox] == [["bernd@example.com"]]
    assert "lädt dich" in mail.outbox[0].subject + mail.outbox[0].body


def test_the_signed_in_notice_is_in_the_players_language_not_the_log_in_pages(carol):
    carol.language = "fr"
    carol.save(update_fields=["language"])
    browser = client_class_new()  # reading the log-in page in English
    page = browser.post(
        "/accounts/login/",
        {"login": "carol", "password": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    ).content.decode()
    assert '<html lang="fr">' in page
    assert "Connexion avec Carol réussie." in page  # the display name, as the header
    assert "Successfully signed in" not in page


def test_after_log_out_the_browser_goes_on_in_the_players_language(carol):
    """A browser whose cookie says English, signed in as a French player: the log-out
    page, its notice included, is French, and so are the pages after it (the cookie
    follows the player's choice), not an English page under a French notice."""
    carol.language = "fr"
    carol.save(update_fields=["language"])
    browser = client_class_new()
    browser.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    browser.post("/accounts/login/", {"login": "carol", "password": PASSWORD})
    assert browser.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    page = browser.post("/accounts/logout/", follow=True).content.decode()
    assert '<html lang="fr">' in page and "Vous êtes déconnecté" in page
    assert "You have signed out" not in page
    assert '<html lang="fr">' in browser.get("/").content.decode()


def test_the_profile_offers_the_languages(client, bob):
    client.force_login(bob)
    html = client.get("/accounts/profile/").content.decode()
    assert 'id="profile-language"' in html
    for code in ("en", "de", "fr"):
        assert f'<option value="{code}" lang="{code}"' in html
    # On the cream sheet its submit is drawn as a button (a bare "Go" read as plain text);
    # the header's stays a link among the navigation's links.
    assert '<button type="submit" class="button--small">Go</button>' in html
    assert '<button type="submit" class="link-button">Go</button>' in html


@pytest.mark.parametrize(
    ("language", "subject", "words"),
    [
        (
            "de",
            "Du bist am Zug an Tisch {}",
            [
                "Hallo Dora,",
                "Dein Geld: ",
                "25.000",
                "Diese E-Mails („du bist am Zug“) mit einem Klick abbestellen:",
            ],
        ),
        (
            "fr",
            "À vous de jouer à la table {}",
            ["Bonjour Dora,", "Votre argent\xa0: ", "25\xa0000", "en un clic\xa0:"],
        ),
    ],
)
def test_turn_emails_go_out_in_the_recipients_language(dora, run_commits, language, subject, words):
    """The e-mail is built in Dora's language, whatever the language of the request or
    task that sends it (here English)."""
    from tests.games.factories import GameFactory, scenario_deck

    dora.language = language
    dora.save(update_fields=["language"])
    with translation.override("en"), run_commits():
        game = GameFactory(
            creator=dora,
            seats=[{"ai": "medium"}, {"ai": "medium"}],
            deck=scenario_deck("lux5 lux3"),
            first_player=0,
        )
    (message,) = mail.outbox
    assert subject.format(game.pk) in message.subject
    html = message.alternatives[0][0]
    for word in words:
        assert word in message.body
    assert f'<html lang="{language}">' in html
    assert "Your turn" not in message.body and "Hello" not in message.body


def test_the_api_answers_in_the_language_asked_for(bob, host, carol):
    from tests.games.api.conftest import token_client

    game = table_make(host, [bob, carol])
    api = token_client(bob)
    body = {"type": "bid", "cards": [1000], "version": game.version}
    answer = api.post(
        f"/api/v1/games/{game.pk}/moves/", body, format="json", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert answer.status_code in (400, 403, 409)
    assert answer.json()["detail"] == "Du bist nicht am Zug."
    answer = api.post(
        f"/api/v1/games/{game.pk}/moves/", body, format="json", HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert answer.json()["detail"] == "Ce n’est pas à vous de jouer."
    answer = api.post(f"/api/v1/games/{game.pk}/moves/", body, format="json")
    assert answer.json()["detail"] == "It is not your turn."


def test_the_engine_itself_stays_english_and_django_free():
    from games.engine import new_game

    state = new_game(players=3, seed=1)
    with pytest.raises(IllegalAction) as refused:
        apply_action(state, {"seat": 9, "type": "pass"})
    assert str(refused.value) == "The seat must be a number from 0 to 2."
    assert re.search(r"%\(last\)s", refused.value.args[0].template)


@pytest.mark.parametrize(
    ("language", "title"),
    [
        ("de", "Die Regeln von High Society, wie diese Seite sie spielt"),
        ("fr", "Les règles de High Society, telles que ce site les joue"),
        ("en", "The rules of High Society, as this site plays them"),
    ],
)
def test_the_rules_page_reads_in_the_players_language(client, language, title):
    html = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"<h1>{title}</h1>" in html


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_translated_rules_keep_the_originals_structure(language):
    """Same sections, same tables, same numbered points as docs/rules.md: a rule added to
    the original and not to a translation fails here."""
    from django.conf import settings

    docs = settings.BASE_DIR / "docs"
    original = (docs / "rules.md").read_text(encoding="utf-8")
    translated = (docs / f"rules.{language}.md").read_text(encoding="utf-8")

    def shape(text):
        return (
            len(re.findall(r"^#{1,3} ", text, re.M)),
            len(re.findall(r"^\|---", text, re.M)),
            re.findall(r"^(\d+)\. ", text, re.M),
            re.findall(r"`[a-z_0-9./]+`", text).count("`games/engine/rules.py`"),
        )

    assert shape(translated) == shape(original)


def test_the_apis_own_refusals_come_in_the_language_asked_for(client):
    """Django REST framework's messages come from its own catalogues."""
    english = client.get("/api/v1/games/").json()["detail"]
    german = client.get("/api/v1/games/", HTTP_ACCEPT_LANGUAGE="de").json()["detail"]
    french = client.get("/api/v1/games/", HTTP_ACCEPT_LANGUAGE="fr").json()["detail"]
    assert english == "Authentication credentials were not provided."
    assert german != english and french != english


def test_numbers_in_svg_attributes_stay_plain_in_german():
    """The rating chart's coordinates are numbers for the browser, not for a reader:
    no decimal comma, whatever the language (its labels are localised)."""
    from datetime import UTC, datetime

    from django.template import Context, Template

    from accounts.charts import rating_chart

    history = [
        {
            "game_id": n,
            "finished_at": datetime(2026, 1, n, tzinfo=UTC),
            "rating_before": 1000 + 10 * n,
            "rating_after": 1012.5 + 10 * n,
        }
        for n in range(1, 4)
    ]
    with translation.override("de"):
        chart = rating_chart("Greta", history)
        html = Template(
            '{% load l10n %}{% localize off %}<circle cx="{{ p.x }}">{% endlocalize %}'
        ).render(Context({"p": chart.points[1]}))
        assert "," not in html
        assert "Wertungszahl von Greta" in chart.title
        assert "1.0" in chart.description  # 1.022, 1.032 …: German thousands
    from django.conf import settings

    profile = settings.BASE_DIR / "templates" / "accounts" / "public_profile.html"
    assert "{% localize off %}<svg" in profile.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("de", ["Hallo!", "Bitte bestätige", "Hier bestätigen:"]),
        ("fr", ["Bonjour\u00a0!", "Merci de confirmer", "Confirmez-la ici"]),
    ],
)
def test_a_german_or_french_sign_up_gets_its_e_mail_and_its_pages_in_that_language(
    client, language, words
):
    page = client.get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<html lang="{language}">' in page
    response = client.post(
        "/accounts/signup/",
        {
            "username": "greta",
            "email": "greta@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 302
    (message,) = mail.outbox
    for word in words:
        assert word in message.body
    sent = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert (
        "Bestätige deine E-Mail-Adresse" if language == "de" else "Confirmez votre adresse"
    ) in sent


@pytest.mark.parametrize("name", ["Freier Platz", "place libre", "Bot (mittel)"])
def test_no_display_name_reads_like_an_empty_seat_in_any_language(client, bob, name):
    client.force_login(bob)
    response = client.post("/accounts/profile/", {"display_name": name})
    assert response.status_code == 400
    assert User.objects.get(pk=bob.pk).display_name != name


@pytest.mark.parametrize(
    "language, profile, log",
    [
        ("en", "Sun 4 Jan 2099, 10:30 UTC", r"\d{1,2} [A-Z][a-z]{2}, \d\d:\d\d UTC"),
        ("de", "So, 4. Jan. 2099, 10:30 UTC", r"\d{1,2}\. [A-ZÄ][a-zä]+\.?, \d\d:\d\d UTC"),
        ("fr", "dimanche 4 jan. 2099, 10:30 UTC", r"\d{1,2} [a-zéû]+\.?, \d\d:\d\d UTC"),
    ],
)
def test_dates_read_as_each_language_writes_them(client, host, bob, carol, language, profile, log):
    """The vacation's end on the profile, and the times of the game log, in the reader's
    language: not "Sun 4 Jan" in a French page."""
    from datetime import UTC, datetime

    from games.services import vacation_start

    bob.language = language
    bob.save(update_fields=["language"])
    vacation_start(user=bob, days=2, now=datetime(2099, 1, 2, 10, 30, tzinfo=UTC))
    game = table_make(host, [bob, carol])
    client.force_login(bob)
    assert profile in client.get("/accounts/profile/").content.decode()
    board = client.get(f"/games/{game.pk}/").content.decode()
    times = re.findall(r'data-local="time">([^<]*)</time>', board)
    assert times and all(re.fullmatch(log, text) for text in times), times


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        (
            "de",
            "Du bist am Zug: Biete, um Skandal (½) zu vermeiden, oder passe und nimm die Karte.",
        ),
        (
            "fr",
            "À vous\u00a0: enchérissez pour éviter la carte Scandale (½) ou passez et prenez-la.",
        ),
    ],
)
def test_a_misfortune_is_taken_as_the_card_not_as_a_pronoun_of_the_wrong_gender(language, sentence):
    """German "nimm es" and French "prenez-la" named Skandal (masculine) and Schulden
    (plural) wrongly: the sentence names the card instead."""
    from django.utils import translation

    from games.presenter import card_name

    with translation.override(language):
        text = translation.gettext("Your turn: bid to avoid %(card)s, or pass and take it.")
        assert text % {"card": card_name("scandal")} == sentence


def test_a_german_deadline_reads_in_german_word_order(dora, run_commits):
    """ "Dein Zug ist fällig in 23 Stunden" kept the English order; the verb goes last."""
    from tests.games.factories import GameFactory, scenario_deck

    dora.language = "de"
    dora.save(update_fields=["language"])
    with run_commits():
        GameFactory(
            creator=dora,
            seats=[{"ai": "medium"}, {"ai": "medium"}],
            deck=scenario_deck("lux5 lux3"),
            first_player=0,
            move_deadline_hours=24,
        )
    (message,) = mail.outbox
    assert re.search(r"Dein Zug ist in \d+ Stunden fällig \(", message.body), message.body
    assert "ist fällig in" not in message.body


def test_a_language_picked_before_logging_in_is_kept(client, carol):
    """A visitor who picks French in the header, then logs in, goes on reading French,
    and the account keeps it: the account's English (saved from a browser at an
    earlier log-in) switched the site back.  What the browser merely says
    (Accept-Language) still yields to the account (the test above)."""
    carol.language = "en"
    carol.save(update_fields=["language"])
    client.post("/accounts/language/", {"language": "fr", "next": "/"})
    client.post("/accounts/login/", {"login": "carol", "password": PASSWORD})
    assert User.objects.get(pk=carol.pk).language == "fr"
    assert '<html lang="fr">' in client.get("/").content.decode()
    # Once: a later log-in in this browser follows the account again.
    client.logout()
    User.objects.filter(pk=carol.pk).update(language="de")
    client.post("/accounts/login/", {"login": "carol", "password": PASSWORD})
    assert '<html lang="de">' in client.get("/").content.decode()


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("de", "Alice deckt die Karte Yachtclub auf."),
        ("fr", "Alice révèle la carte Yacht-club."),
    ],
)
def test_a_revealed_card_reads_with_its_article(language, sentence):
    """ "Alice révèle Yacht-club" / "deckt Yachtclub auf" had no article; "the card"
    reads for every card (a luxury, Prestige, the Yacht Club) whatever its gender."""
    from django.utils import translation

    from games.presenter import card_name

    with translation.override(language):
        text = translation.gettext("%(who)s reveals %(card)s.")
        assert text % {"who": "Alice", "card": card_name("yacht")} == sentence


def test_a_cards_tooltip_and_an_error_pages_title_follow_french_typography(client):
    """ "Luxe 2: Luxe valant…" and "Erreur: Inscription": French puts a no-break space
    before the colon."""
    from games.templatetags.game_cards import status_card

    with translation.override("fr"):
        assert 'title="Luxe 2\xa0: ' in status_card("lux2")
    with translation.override("en"):
        assert 'title="Luxury 2: ' in status_card("lux2")
    page = client.get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'data-error-word="Erreur\xa0:"' in page


def test_french_pages_put_a_space_before_a_colon_and_name_nobody_masculine(client, alice):
    """The create form's summary pasted "label: error" (no space before the colon in
    French); allauth's note read "Remarque: Vous êtes déjà connecté en tant que X.";
    the entrance asked "Nouveau ici ?" of everyone."""
    client.force_login(alice)
    french = {"HTTP_ACCEPT_LANGUAGE": "fr"}
    form = {"players": "3", "your_seat": "1", "seat_2": "invite", "invite_2": "x@y.fr"}
    form["seat_3"] = "bot:easy"
    html = client.post("/games/new/", form, **french).content.decode()
    assert "</a>\xa0: Une invitation désigne" in html
    html = client.get("/accounts/password/reset/", **french).content.decode()
    assert "Compte connecté\xa0: <strong>Alice</strong>" in html
    assert "Remarque" not in html and "déjà connecté" not in html
    client.logout()
    html = client.get("/accounts/login/", **french).content.decode()
    assert "Première visite\xa0?" in html and "Nouveau ici" not in html
