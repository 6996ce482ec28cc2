from django import forms

from accounts.tokens.services import DEFAULT_TOKEN_DAYS, TOKEN_DAYS_CHOICES


def _days_label(days: int) -> str:
    return "1 day" if days == 1 else "1 year" if days == 365 else f"{days} days"


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        max_length=60,
        help_text="What the token is for, e.g. “my bot on the home server”.",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    days = forms.TypedChoiceField(
        label="Valid for",
        coerce=int,
        choices=[(days, _days_label(days)) for days in TOKEN_DAYS_CHOICES],
        initial=DEFAULT_TOKEN_DAYS,
    )
