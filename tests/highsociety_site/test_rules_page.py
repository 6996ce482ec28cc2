"""The rules page: docs/rules.md rendered for players, linked from every page's header,
the lobby, the create form and the board."""

import pytest

pytestmark = pytest.mark.django_db


def test_the_rules_page_renders_the_rules_doc(client):
    response = client.get("/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>The rules of High Society, as this site plays them</h1>" in html
    assert "<table>" in html and "<code>lux1</code>" in html  # the card tables
    # each cell labelled with its column's heading: on a phone the rows stack
    assert html.count("<table>") >= 3 and "table-wrap" not in html
    assert '<td data-label="code"><code>lux1</code>' in html
    assert '<td data-label="effect">doubles' in html
    assert "Yacht Club auction" in html
    assert client.post("/rules/").status_code == 405


def test_raw_html_in_the_doc_is_not_passed_through(monkeypatch, tmp_path, client):
    from highsociety_site import views

    doc = tmp_path / "rules.md"
    doc.write_text("# Rules\n\n<script>alert(1)</script>\n", encoding="utf-8")
    monkeypatch.setattr(views, "RULES_FILE", doc)
    html = client.get("/rules/").content.decode()
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html


def test_the_rules_are_linked_where_players_need_them(client, alice):
    from tests.games.factories import GameFactory

    assert 'href="/rules/"' in client.get("/").content.decode()
    client.force_login(alice)
    game = GameFactory(creator=alice)
    for url in ("/", "/games/new/", f"/games/{game.pk}/"):
        assert 'href="/rules/"' in client.get(url).content.decode(), url


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_translated_rules_read_as_the_site_does(client, language):
    """No internal values where players read words (the bot level is the one the site
    names, "mittel" or "moyen"; what decided a win in words), no code path in the
    introduction; in French, a no-break space before : ; ! ? and inside « », so that no
    line starts with one, and in the thousands of 1 000."""
    import re

    client.cookies["hs_language"] = language
    html = client.get("/rules/").content.decode()
    text = re.sub(r"<code>[^<]*</code>|<[^>]+>", "", html.split('class="rules prose">')[1])
    intro = html.split('class="rules prose">')[1].split("<h2")[0]
    assert "<code>medium</code>" not in html and "games/engine" not in intro
    assert {"de": "„mittel“", "fr": "«\u00a0moyen\u00a0»"}[language] in text
    if language == "fr":
        assert not re.findall(r"\S [:;!?»](?=\s)|« ", text)
        assert not re.findall(r"\d \d{3}\b", text)


@pytest.mark.parametrize(
    "language, foreign",
    [
        ("de", ['<span lang="en">Promotion to Peerage</span>', '<span lang="fr">Faux Pas</span>']),
        ("fr", ['<span lang="en">Gambling Debt</span>', '<span lang="de">Diebstahl</span>']),
    ],
)
def test_names_in_another_language_are_marked_for_screen_readers(client, language, foreign):
    """The printed editions' names in the translated rules are said in their own language
    (WCAG 3.1.2): written ``[Title]{lang=en}`` in the file, a ``<span lang>`` on the page;
    nothing of the markup shows."""
    client.cookies["hs_language"] = language
    html = client.get("/rules/").content.decode()
    for span in foreign:
        assert span in html
    assert "{lang=" not in html


def test_a_marked_span_carries_its_language_and_nothing_else(monkeypatch, tmp_path, client):
    from highsociety_site import views

    doc = tmp_path / "rules.md"
    doc.write_text("# Rules\n\n[Title]{lang=en onclick=x .big #top}\n", encoding="utf-8")
    monkeypatch.setattr(views, "RULES_FILE", doc)
    html = client.get("/rules/").content.decode()
    assert '<span lang="en">Title</span>' in html
    assert "onclick" not in html and "big" not in html and 'id="top"' not in html


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_the_rules_a_player_reads_name_no_source_file_or_python(client, language):
    """A newcomer met `secrets.SystemRandom`, `games/engine/rules.py`, "the API counts
    from 0" and the move log's actors in the rules: those are the developers' (the API
    and architecture docs say them)."""
    html = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in ("secrets.", "games/engine", ".py", "actor", "Akteur", "acteur", "from 0"):
        assert word not in html, word
