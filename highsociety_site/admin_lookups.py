"""The URL filters the admin's lists refuse, for every model the admin shows.

A list's address takes any lookup on the model's own fields (``?status=active``,
``?players__gte=4``), and Django checks it only when the query runs.  Two kinds failed
on the database itself, a 500 instead of a refusal:

- a lookup inside a JSON field: ``?advanced__contains=yacht`` cannot be done on SQLite
  (``NotSupportedError``), ``?advanced__has_keys=`` is a syntax error there, and what
  works on PostgreSQL differs from what works on SQLite;
- a regular expression: an unbalanced one (``?status__regex=(``) is an error on both.

No list offers either.  Both are refused, the same on SQLite and PostgreSQL, as Django
refuses a lookup its admin does not allow: 400 (``DisallowedModelAdminLookup``).

So is any lookup on a field a model's admin names secret (``secret_fields``): a
password's hash, an API token's digest, a device's push address and keys, a running
game's deck.  ``?digest__startswith=0`` would answer "1 api token" or "0 api tokens",
one character at a time, about a value the admin never shows.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.admin import helpers
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.http import HttpResponseRedirect
from django.utils.translation import gettext

REFUSED_LOOKUPS = frozenset({"regex", "iregex"})


def lookup_refused(model: type[models.Model], lookup: str) -> bool:
    """Whether ``lookup`` (``advanced__contains``, ``game__state__phase``) reaches into a
    JSON field, of ``model`` or of a model it leads to, or ends in a regular expression."""
    parts = lookup.split("__")
    opts = model._meta
    for part in parts:
        try:
            field = opts.get_field(part)
        except FieldDoesNotExist:
            break  # a transform or the lookup itself (``year``, ``contains``)
        if isinstance(field, models.JSONField):
            return True
        if field.related_model is None:
            break
        opts = field.related_model._meta
    return parts[-1] in REFUSED_LOOKUPS


class LookupGuard:
    """Mixed into every ``ModelAdmin`` of the site (``admin_site.StaffAdminSite.register``).
    Its ``secret_fields``, when the admin declares them (the guard comes first in the
    order of classes, so it declares none itself): the model's fields no list may filter
    on, whatever the value."""

    def changelist_view(self, request, extra_context=None):
        """An action's selection that holds something no row's key can be ("abc" among
        the ids, sent by hand): Django ran the action's query with it, a 500.  Refused
        here with a message, and nothing done."""
        if request.method == "POST" and "action" in request.POST:
            key = self.model._meta.pk
            try:
                for value in request.POST.getlist(helpers.ACTION_CHECKBOX_NAME):
                    key.to_python(value)
            except ValidationError:
                self.message_user(
                    request,
                    gettext("The selection was not rows of this list: nothing was done."),
                    messages.ERROR,
                )
                return HttpResponseRedirect(request.get_full_path())
        return super().changelist_view(request, extra_context)

    def lookup_allowed(self, lookup, value, request=None):
        secret = getattr(self, "secret_fields", ())
        if lookup_refused(self.model, lookup) or lookup.split("__", 1)[0] in secret:
            return False
        return super().lookup_allowed(lookup, value, request)
