"""A player's e-mail preference and the signed one-click unsubscribe link.

The link carries the user's id signed with the site's SECRET_KEY (django.core.signing),
so it works without logging in and cannot be forged or pointed at another account.  It
does not expire: an old e-mail's link still unsubscribes.
"""

from __future__ import annotations

from importlib import resources
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core import signing
from django.utils.translation import gettext

from accounts.models import User

UNSUBSCRIBE_SALT = "accounts.preferences.unsubscribe"
# The signed-in player's language, kept in their session (accounts.middleware).
LANGUAGE_SESSION_KEY = "hs_language"
# The time zone they chose on their profile ("" for the browser's), likewise.
TIME_ZONE_SESSION_KEY = "hs_time_zone"
# A language a visitor picked with the header's switch before logging in: the log-in
# saves it on the account (accounts.signals), once.
LANGUAGE_PICKED_SESSION_KEY = "hs_language_picked"


def unsubscribe_token(user: User, kind: str | None = None) -> str:
    """The signed link's token: for one kind of game e-mail (``User.EMAIL_KINDS``), or
    for all of them (``kind`` None)."""
    data = {"u": user.pk} if kind is None else {"u": user.pk, "k": kind}
    return signing.dumps(data, salt=UNSUBSCRIBE_SALT)


UNDO_SALT = "accounts.preferences.unsubscribe-undo"
UNDO_SECONDS = 3600  # the page after the button keeps its way back for an hour


def unsubscribe_undo_token(user: User, kind: str | None, previous: str) -> str:
    """The way back the page after unsubscribing offers, and only that page: signed with
    the choice it replaced (``previous``: the ``turn_emails`` before), for ``kind`` (None:
    all game e-mails).  The link itself never expires and travels in every e-mail's
    headers: it switches e-mails off, never on."""
    return signing.dumps({"u": user.pk, "k": kind, "p": previous}, salt=UNDO_SALT)


def unsubscribe_undo_read(token: str, user: User, kind: str | None) -> str | None:
    """The choice an undo token carries back, or None: not this page's for this user
    and kind, tampered with, or older than ``UNDO_SECONDS``."""
    try:
        data = signing.loads(token, salt=UNDO_SALT, max_age=UNDO_SECONDS)
    except signing.BadSignature:  # SignatureExpired too
        return None
    if not isinstance(data, dict) or data.get("u") != user.pk or data.get("k") != kind:
        return None
    previous = data.get("p")
    return previous if isinstance(previous, str) else None


class AccountGone(signing.BadSignature):
    """A sound unsubscribe token of an account deleted or suspended since: it gets no
    game e-mails any more, so there is nothing to stop (not "a broken link")."""


def unsubscribe_user(token: str) -> tuple[User, str | None]:
    """(the user a token was made for, its kind or None for all game e-mails);
    ``signing.BadSignature`` for a bad or tampered token, ``AccountGone`` for one whose
    account is gone."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    user_id = data.get("u") if isinstance(data, dict) else None
    kind = data.get("k") if isinstance(data, dict) else None
    if not isinstance(user_id, int) or (kind is not None and kind not in User.EMAIL_KINDS):
        raise signing.BadSignature("No user in the token.")
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise AccountGone("No such user.")
    return user, kind


def emails_off_set(*, user: User, kinds: list[str]) -> User:
    """The kinds of game e-mail ``user`` does not want (the others come as set by
    ``turn_emails``).  Unknown kinds are refused."""
    return kinds_off_set(
        user=user,
        kinds=kinds,
        field="emails_off",
        listed=User.EMAIL_KINDS,
        refusal=gettext("Choose among the kinds of e-mail listed."),
    )


def kinds_off_set(*, user: User, kinds: list[str], field: str, listed, refusal: str) -> User:
    """Store in ``field`` the kinds of notice (of ``listed``, in its order) ``user``
    switched off; unknown kinds are refused with ``refusal``."""
    if set(kinds) - set(listed):
        raise ValueError(refusal)
    chosen = [kind for kind in listed if kind in kinds]
    User.objects.filter(pk=user.pk).update(**{field: chosen})
    setattr(user, field, chosen)
    return user


def email_kind_off(*, user: User, kind: str) -> User:
    """One kind of game e-mail switched off (an e-mail's own unsubscribe link)."""
    return emails_off_set(user=user, kinds=[*user.emails_off, kind])


def email_kind_on(*, user: User, kind: str) -> User:
    """One kind of game e-mail switched on again (the unsubscribe page's way back)."""
    return emails_off_set(user=user, kinds=[k for k in user.emails_off if k != kind])


def turn_emails_set(*, user: User, value: str) -> User:
    """Every turn, a daily digest, or no e-mails about games (User.TurnEmails)."""
    if value not in User.TurnEmails.values:
        raise ValueError(gettext("Choose every turn, a daily digest or no e-mails."))
    User.objects.filter(pk=user.pk).update(turn_emails=value)
    user.turn_emails = value
    return user


def language_supported(code: str) -> bool:
    """Whether ``code`` is one of the site's languages (settings.LANGUAGES)."""
    from django.conf import settings

    return code in {language for language, _name in settings.LANGUAGES}


def language_set(*, user: User, value: str) -> User:
    """The language ``user`` reads the site and their e-mails in."""
    if not language_supported(value):
        raise ValueError(gettext("Choose a language from the list."))
    User.objects.filter(pk=user.pk).update(language=value)
    user.language = value
    return user


def time_zones() -> list[str]:
    """The time zones a player may choose, sorted: UTC and the zones of the time zone
    database's zone.tab, each under its current name (no old aliases such as
    US/Eastern, Asia/Calcutta or Etc/GMT+5, which doubled the list and confused)."""
    table = resources.files("tzdata.zoneinfo").joinpath("zone.tab")
    lines = table.read_text(encoding="utf-8").splitlines()
    zones = {line.split("\t")[2] for line in lines if line and not line.startswith("#")}
    return sorted(zones | {"UTC"})


def zone_named(name: str) -> ZoneInfo | None:
    """The zone a profile's ``time_zone`` names; None when it names none (the browser's
    own) or one this server does not know."""
    try:
        return ZoneInfo(name) if name else None
    except (ZoneInfoNotFoundError, ValueError):
        return None


def time_zone_choices(user: User) -> list[str]:
    """``time_zones`` for ``user``'s form: a zone chosen before the list lost its old
    aliases stays on it, chosen, until they choose another."""
    zones = time_zones()
    if user.time_zone and user.time_zone not in zones:
        zones = sorted([*zones, user.time_zone])
    return zones


def time_zone_set(*, user: User, value: str) -> User:
    """The time zone ``user`` reads times in; "" for the browser's own."""
    if value and value not in time_zone_choices(user):
        raise ValueError(gettext("Choose a time zone from the list."))
    User.objects.filter(pk=user.pk).update(time_zone=value)
    user.time_zone = value
    return user
