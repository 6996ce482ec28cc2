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
    # each in a box that scrolls sideways on a phone, not the whole page, and takes the
    # focus so that the keyboard scrolls it too
    wrap = '<div class="table-wrap" tabindex="0" role="region" aria-label="Table (scrolls sideways on a small screen)"><table>'
    assert html.count("<table>") == html.count(wrap) >= 3
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
