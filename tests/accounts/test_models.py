import pytest

from accounts.models import User
from tests.factories import UserFactory


def test_public_name_falls_back_to_the_username():
    assert User(username="zed").public_name == "zed"
    assert User(username="zed", display_name="Zed the Bold").public_name == "Zed the Bold"
    assert str(User(username="zed", display_name="Z")) == "Z"


@pytest.mark.django_db
def test_factory_users_have_a_verified_primary_email():
    user = UserFactory()
    address = user.emailaddress_set.get()
    assert (address.email, address.verified, address.primary) == (user.email, True, True)
    unverified = UserFactory(verified_email=False)
    assert not unverified.emailaddress_set.get().verified


@pytest.mark.django_db
def test_personas(alice, bob, carol):
    assert [u.public_name for u in (alice, bob, carol)] == ["Alice", "Bob", "Carol"]
    assert User.objects.count() == 3
