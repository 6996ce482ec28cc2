"""With DEBUG off, errors show our plain pages: no traceback, no settings."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import path


class SecretFailure(Exception):
    pass


def _fail(request):
    raise SecretFailure("leaked-detail-from-the-view")


urlpatterns = [path("boom/", _fail)]

LEAKS = [
    "Traceback",
    "leaked-detail-from-the-view",
    "SecretFailure",
    "SECRET_KEY",
    "DATABASES",
    "INSTALLED_APPS",
    "site-packages",
    "technical_500",
]


@pytest.fixture
def failing_site(settings):
    settings.DEBUG = False
    settings.ROOT_URLCONF = __name__


def test_an_exception_gives_the_plain_500_page(client, failing_site, db):
    client.raise_request_exception = False
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/boom/")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong" in html
    for leak in LEAKS:
        assert leak not in html
    assert len(queries) == 0  # the 500 page needs no database
    assert "Content-Security-Policy" in response.headers


def test_the_500_page_renders_without_context():
    from django.template.loader import render_to_string

    html = render_to_string("500.html")
    assert "Something went wrong" in html and "<style" not in html and "<script" not in html
    # In the site's frame (its name leading home, the footer), not a card on empty felt.
    assert '<a class="brand" href="/">' in html and 'class="site-footer"' in html


@pytest.mark.django_db
def test_an_unknown_address_gives_the_plain_404_page(client, settings):
    settings.DEBUG = False
    response = client.get("/no-such-page-here/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page not found" in html
    for leak in [*LEAKS, "urlpatterns", "Using the URLconf", "highsociety_site.urls"]:
        assert leak not in html
