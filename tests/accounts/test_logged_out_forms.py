"""A form of the profile sent after the session ended (a page left open for days, a
log-out in another tab): the log-in came back to the form's target, which takes only
POST, so the player landed on "this page takes no form", and what they had sent was
lost without a word."""

from __future__ import annotations

import pytest

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

FORMS = [
    ("/accounts/profile/notifications/", "/accounts/profile/"),
    ("/accounts/profile/time-zone/", "/accounts/profile/"),
    ("/accounts/profile/vacation/", "/accounts/profile/"),
    ("/accounts/profile/people/", "/accounts/profile/"),
    ("/accounts/profile/sign-out-everywhere/", "/accounts/profile/"),
    ("/accounts/profile/push/settings/", "/accounts/profile/"),
    ("/accounts/profile/tokens/new/", "/accounts/profile/tokens/"),
    ("/accounts/profile/tokens/1/revoke/", "/accounts/profile/tokens/"),
    ("/accounts/profile/delete/", "/accounts/profile/delete/"),
]


@pytest.mark.parametrize(("target", "page"), FORMS)
def test_a_form_sent_logged_out_comes_back_to_its_page(client, target, page):
    answer = client.post(target, {"x": "1"})
    assert answer.status_code == 302
    assert answer["Location"] == f"/accounts/login/?next={page}"
    hx = client.post(target, {"x": "1"}, HTTP_HX_REQUEST="true")
    assert hx["HX-Redirect"] == f"/accounts/login/?next={page}"


def test_the_log_in_page_says_the_form_was_not_saved_and_leads_back(client, alice):
    login = client.post("/accounts/profile/time-zone/", {"time_zone": "Europe/Paris"}, follow=True)
    html = login.content.decode()
    assert "You were logged out, so what you sent was not saved" in html
    alice.refresh_from_db()
    assert alice.time_zone != "Europe/Paris"
    answer = client.post(
        "/accounts/login/?next=/accounts/profile/",
        {"login": "alice", "password": PASSWORD, "next": "/accounts/profile/"},
    )
    assert answer.status_code == 302 and answer["Location"] == "/accounts/profile/"
    page = client.get("/accounts/profile/")
    assert page.status_code == 200
    assert "was not saved" not in page.content.decode()  # said once, on the log-in page


def test_a_page_asked_for_logged_out_comes_back_to_itself(client):
    answer = client.get("/accounts/profile/tokens/?x=1")
    assert answer["Location"] == "/accounts/login/?next=/accounts/profile/tokens/%3Fx%3D1"


def test_the_create_table_form_sent_logged_out_comes_back_to_itself(client):
    answer = client.post("/games/new/", {"players": "3"})
    assert answer["Location"] == "/accounts/login/?next=/games/new/"
    assert client.post("/games/quick/", {"players": "3"})["Location"] == "/accounts/login/?next=/"
