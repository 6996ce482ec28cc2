"""The site's allauth adapter: usernames that cannot impersonate anyone; and the name
allauth's pages and messages use for a user (``user_display``).

A username is stored in its NFKC form (a fullwidth "ａｌｉｃｅ" is "alice", and so is
taken if alice exists), and refused when it mixes scripts with letters that look
alike ("аlice" with a Cyrillic а) or when its letters, read as the Latin letters they
look like, spell an existing username ("аӏісе" all in Cyrillic).
"""

from __future__ import annotations

import unicodedata

from allauth.account.adapter import DefaultAccountAdapter
from confusable_homoglyphs import confusables
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

LOOK_ALIKE = gettext_lazy(
    "This username mixes letters that look alike from different alphabets, or looks "
    "like another player's name: choose another."
)


def latin_reading(name: str) -> str:
    """``name`` with every letter that looks like a Latin one replaced by it."""
    found = confusables.is_confusable(name, greedy=True, preferred_aliases=["latin"]) or []
    swap = {item["character"]: item["homoglyphs"][0]["c"] for item in found if item["homoglyphs"]}
    return "".join(swap.get(char, char) for char in name)


def username_problem(username: str) -> str | None:
    """Why ``username`` (NFKC already) could pass for someone else, or None."""
    if confusables.is_dangerous(username):
        return LOOK_ALIKE
    reading = latin_reading(username)
    if reading != username and get_user_model().objects.filter(username__iexact=reading).exists():
        return LOOK_ALIKE
    return None


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix, email, context):
        """The account e-mails (verification, password reset, notices) in the site's
        own name and address, not the request's host."""
        from django.conf import settings
        from django.utils import translation

        context = {**context, "site_name": "High Society", "site_url": settings.SITE_URL}
        # In the recipient's language when the account has one, else the page's.
        user = context.get("user")
        language = getattr(user, "language", "") or translation.get_language()
        with translation.override(language):
            return super().send_mail(template_prefix, email, context)

    def clean_username(self, username, shallow=False):
        username = unicodedata.normalize("NFKC", username)
        problem = username_problem(username)
        if problem is not None:
            raise ValidationError(problem, code="look_alike")
        return super().clean_username(username, shallow=shallow)


def user_display(user) -> str:
    """``ACCOUNT_USER_DISPLAY``: the name the rest of the site shows ("Signed in as Demo
    Player"), so that allauth's notices ("Successfully signed in as …") say the same."""
    return user.public_name
