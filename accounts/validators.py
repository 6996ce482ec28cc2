"""Validation shared by the model, the forms and (later) the API."""

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

DISPLAY_NAME_MAX_LENGTH = 40


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
