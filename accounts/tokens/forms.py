import secrets

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.tokens.services import DEFAULT_TOKEN_DAYS, TOKEN_DAYS_CHOICES
from accounts.validators import validate_visible


def _days_label(days: int) -> str:
    if days == 365:
        return gettext("1 year")
    return ngettext("%(count)s day", "%(count)s days", days) % {"count": days}


# The choices are made once; each label is read in the language of the page shown.
_days_label_lazy = lazy(_days_label, str)


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        max_length=60,
        validators=[validate_visible],
        label=_("Name"),
        help_text=_("What the token is for, e.g. “my bot on the home server”."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    days = forms.TypedChoiceField(
        label=_("Valid for"),
        coerce=int,
        choices=[(days, _days_label_lazy(days)) for days in TOKEN_DAYS_CHOICES],
        initial=DEFAULT_TOKEN_DAYS,
    )
    # One value per form shown: the same form sent twice (a reload of the answer page,
    # a double click) creates one token, not two (views.token_new).
    once = forms.CharField(max_length=40, required=False, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial["once"] = secrets.token_urlsafe(16)
