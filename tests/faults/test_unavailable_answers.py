"""The 503 answers themselves, in-process (no service is stopped here): a view whose
database or cache connection fails gets the plain 503 page, an API view the API's error
format, both with Retry-After and nothing of the error; any other error stays a 500."""

import pytest
from django.db import OperationalError
from django.urls import path
from redis.exceptions import ConnectionError as RedisConnectionError
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny


def _page_db(request):
    raise OperationalError('connection to server at "10.1.2.3", port 5432 failed: secret-detail')


def _page_cache(request):
    raise RedisConnectionError("Error 111 connecting to 10.1.2.3:6379. secret-detail")


def _page_bug(request):
    raise ValueError("secret-detail")


@api_view(["GET", "POST"])
@permission_classes([AllowAny])
def _api_db(request):
    raise OperationalError("server closed the connection unexpectedly secret-detail")


urlpatterns = [
    path("db/", _page_db),
    path("cache/", _page_cache),
    path("bug/", _page_bug),
    path("api/v1/db/", _api_db),
]


@pytest.fixture
def site(settings, client):
    settings.DEBUG = False
    settings.ROOT_URLCONF = __name__
    client.raise_request_exception = False
    return client


def test_a_page_gets_the_plain_503_page(site):
    response = site.get("/db/")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    html = response.content.decode()
    assert "The database is unavailable; try again in a moment." in html
    assert "Nothing was saved" not in html
    for leak in ("secret-detail", "10.1.2.3", "Traceback", "OperationalError"):
        assert leak not in html
    assert "Content-Security-Policy" in response.headers


def test_a_form_posted_while_the_database_is_down_says_nothing_was_saved(site):
    response = site.post("/db/")
    assert response.status_code == 503
    assert "Nothing was saved" in response.content.decode()


def test_the_cache_down_gets_a_503_too(site):
    response = site.get("/cache/")
    assert response.status_code == 503
    html = response.content.decode()
    assert "A service the site needs is unavailable" in html and "secret-detail" not in html


def test_the_api_answers_503_in_its_error_format(site):
    response = site.post("/api/v1/db/", {}, content_type="application/json")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert response.json() == {
        "detail": "The database is unavailable; try again in a moment. "
        "Nothing was saved: send it again once the site is back.",
        "code": "service_unavailable",
    }


def test_any_other_error_is_still_a_500(site):
    response = site.get("/bug/")
    assert response.status_code == 500 and "Retry-After" not in response
    assert "secret-detail" not in response.content.decode()
