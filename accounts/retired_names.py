"""The names of deleted accounts, held back for a while (``accounts.models.RetiredName``).

Deleting an account frees its username and display name at once, and a stranger could
sign up the next day as "marta", where Marta's friends and their bookmarks still look
for her.  For ``RETIRED_NAME_DAYS`` days after a deletion neither name can be taken
(nor any name that reads as it).  Only a keyed digest of how each name reads is kept:
the table holds no name, and a digest made with another ``SECRET_KEY`` matches nothing
(rotating the key releases the names early).
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy

from accounts.models import RetiredName
from accounts.names import name_key

RETIRED_NAME_DAYS = 90
RETIRED = gettext_lazy(
    "That name belonged to an account deleted in the last 90 days: choose another one."
)
_SALT = "accounts.retired_names"


def _digest(key: str) -> str:
    return salted_hmac(_SALT, key, algorithm="sha256").hexdigest()


def names_retire(*names: str) -> None:
    """Hold ``names`` back for ``RETIRED_NAME_DAYS`` days (inside the deletion's
    transaction); expired ones go."""
    now = timezone.now()
    RetiredName.objects.filter(until__lte=now).delete()
    until = now + timedelta(days=RETIRED_NAME_DAYS)
    for key in {name_key(name) for name in names if name}:
        if key:
            RetiredName.objects.update_or_create(digest=_digest(key), defaults={"until": until})


def name_retired(name: str) -> bool:
    """Whether ``name`` reads as a name a recently deleted account went by."""
    key = name_key(name)
    return (
        bool(key)
        and RetiredName.objects.filter(digest=_digest(key), until__gt=timezone.now()).exists()
    )
