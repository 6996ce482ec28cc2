"""A player's e-mail preference and the signed one-click unsubscribe link.

The link carries the user's id signed with the site's SECRET_KEY (django.core.signing),
so it works without logging in and cannot be forged or pointed at another account.  It
does not expire: an old e-mail's link still unsubscribes.
"""

from __future__ import annotations

from django.core import signing

from accounts.models import User

UNSUBSCRIBE_SALT = "accounts.preferences.unsubscribe"


def unsubscribe_token(user: User) -> str:
    return signing.dumps({"u": user.pk}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_user(token: str) -> User:
    """The user a token was made for; ``signing.BadSignature`` for a bad or tampered
    token, or one whose account is gone."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    user_id = data.get("u") if isinstance(data, dict) else None
    if not isinstance(user_id, int):
        raise signing.BadSignature("No user in the token.")
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise signing.BadSignature("No such user.")
    return user


def turn_emails_set(*, user: User, value: str) -> User:
    """Every turn, a daily digest, or no e-mails about games (User.TurnEmails)."""
    if value not in User.TurnEmails.values:
        raise ValueError("Choose every turn, a daily digest or no e-mails.")
    User.objects.filter(pk=user.pk).update(turn_emails=value)
    user.turn_emails = value
    return user
