"""Validation shared by the model, the forms and (later) the API."""

import unicodedata

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext, gettext_lazy

DISPLAY_NAME_MAX_LENGTH = 40


@deconstructible
class UsernameCharacters(UnicodeUsernameValidator):
    """Django's characters of a username, said without the "@" it lets through: the
    site refuses that one apart (``accounts.adapter.HAS_AT``), and Django's words
    ("letters, numbers, and @/./+/-/_") offered it beside that refusal."""

    message = gettext_lazy(
        "A username may use letters of any alphabet, digits and . + - _ only (no spaces)."
    )


def validate_display_name(value: str) -> None:
    """A display name: ``validate_visible``."""
    validate_visible(value)


def validate_visible(value: str) -> None:
    """Refuse invisible characters: control codes, and format characters such as
    zero-width spaces or right-to-left overrides that can disguise one name as another
    or turn the text around it backwards."""
    if any(unicodedata.category(char).startswith("C") for char in value):
        raise ValidationError(
            gettext("Use visible characters only (no control or invisible formatting characters)."),
            code="invisible_characters",
        )
