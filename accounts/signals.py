"""At sign-up and at log-in: the player's language and chosen time zone into their
session, so that every page speaks the one and writes times in the other
(accounts.middleware); a player who never chose a language keeps the one they are
reading the site in, so their e-mails come in it too."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation

from accounts.preferences import (
    LANGUAGE_PICKED_SESSION_KEY,
    LANGUAGE_SESSION_KEY,
    TIME_ZONE_SESSION_KEY,
    language_set,
    language_supported,
)


def remember_language(sender, request, user, **kwargs) -> None:
    if request is None or not hasattr(user, "language"):
        return
    if hasattr(request, "session"):  # the zone the pages write times in (the middleware)
        request.session[TIME_ZONE_SESSION_KEY] = getattr(user, "time_zone", "") or ""
    # Picked with the header's switch just before logging in: a choice, which wins over
    # the account's (perhaps only ever taken from a browser) and replaces it.
    picked = (
        request.session.pop(LANGUAGE_PICKED_SESSION_KEY, "") if hasattr(request, "session") else ""
    )
    if language_supported(picked):
        language_set(user=user, value=picked)
    if not user.language:
        # Only what the browser or the header's switch said, never the site's fallback.
        said = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) or request.META.get(
            "HTTP_ACCEPT_LANGUAGE"
        )
        current = translation.get_language_from_request(request) if said else ""
        if not language_supported(current or ""):
            return
        language_set(user=user, value=current)
    if hasattr(request, "session"):
        request.session[LANGUAGE_SESSION_KEY] = user.language
    # The rest of this request speaks it too: allauth's "Successfully signed in" is
    # written after this signal, and would otherwise be in the language of the log-in
    # page, above a page in the player's own.
    translation.activate(user.language)


def note_unconfirmed_removal(sender, request, user, email_address, **kwargs) -> None:
    """allauth's ``email_removed``: a pending change of address was cancelled (the
    address never confirmed), which the adapter does not report as a removal."""
    if request is not None and not email_address.verified:
        request.hs_unconfirmed_removed = email_address.email
