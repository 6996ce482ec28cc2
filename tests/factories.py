"""factory-boy factories for Django tests.  Users come with a verified e-mail address,
as after a finished sign-up, so they can log in with ``PASSWORD``."""

import factory
from allauth.account.models import EmailAddress

from accounts.models import User

PASSWORD = "correct horse battery staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    display_name = factory.LazyAttribute(lambda user: user.username.capitalize())
    password = factory.django.Password(PASSWORD)

    @factory.post_generation
    def verified_email(user, create, extracted, **kwargs):
        """``UserFactory(verified_email=False)`` leaves the address unverified."""
        if create:
            verified = True if extracted is None else bool(extracted)
            EmailAddress.objects.update_or_create(
                user=user,
                email=user.email,
                defaults={"verified": verified, "primary": True},
            )
