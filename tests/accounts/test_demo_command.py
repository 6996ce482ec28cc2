"""``manage.py demo``: the quick start's demo account."""

from io import StringIO

import pytest
from allauth.account.models import EmailAddress
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.models import User
from games.management.commands.demo import DEMO_PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def debug_on(settings):
    settings.DEBUG = True


def _run(*args) -> str:
    out = StringIO()
    call_command("demo", *args, stdout=out)
    return out.getvalue()


def test_demo_creates_a_verified_user_and_prints_how_to_log_in(debug_on, client):
    output = _run()
    assert "demo" in output and DEMO_PASSWORD in output and "/accounts/login/" in output
    user = User.objects.get(username="demo")
    address = EmailAddress.objects.get(user=user)
    assert address.verified and address.primary
    response = client.post(reverse("account_login"), {"login": "demo", "password": DEMO_PASSWORD})
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == user.pk


def test_demo_is_idempotent_and_repairs_the_account(debug_on):
    _run()
    user = User.objects.get(username="demo")
    user.set_password("changed by someone")
    user.is_active = False
    user.save()
    EmailAddress.objects.filter(user=user).update(verified=False)

    _run()
    assert User.objects.filter(username="demo").count() == 1
    user.refresh_from_db()
    assert user.is_active and user.check_password(DEMO_PASSWORD)
    assert EmailAddress.objects.filter(user=user).count() == 1
    assert EmailAddress.objects.get(user=user).verified


def test_demo_refuses_on_a_real_site_unless_forced(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        _run()
    assert not User.objects.filter(username="demo").exists()
    _run("--force")
    assert User.objects.filter(username="demo").exists()
