"""The admin is for staff only (Django's default, kept): everyone else is sent to the
admin's log-in page, which refuses accounts that are not staff."""

import pytest

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

ADMIN_PAGES = ["/admin/", "/admin/accounts/user/", "/admin/games/game/"]


def _to_admin_login(response, url):
    return response.status_code == 302 and response.url.startswith(f"/admin/login/?next={url}")


@pytest.mark.parametrize("url", ADMIN_PAGES)
def test_anonymous_is_sent_to_the_admin_login(client, url):
    response = client.get(url)
    assert _to_admin_login(response, url), (response.status_code, response.get("Location"))


@pytest.mark.parametrize("url", ADMIN_PAGES)
def test_a_member_who_is_not_staff_is_sent_to_the_admin_login(client, alice, url):
    client.force_login(alice)
    response = client.get(url)
    assert _to_admin_login(response, url), (response.status_code, response.get("Location"))


def test_the_admin_login_refuses_a_member_who_is_not_staff(client, alice):
    response = client.post(
        "/admin/login/?next=/admin/", {"username": "alice", "password": PASSWORD}
    )
    assert response.status_code == 200  # the form again, with an error
    assert "staff account" in response.content.decode()
    assert client.get("/admin/").status_code == 302


def test_staff_get_in(client, alice):
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    client.force_login(alice)
    assert client.get("/admin/").status_code == 200
