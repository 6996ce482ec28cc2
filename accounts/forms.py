"""Forms of the accounts pages (allauth provides the sign-up and log-in forms)."""

from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.conf import settings
from django.db.models import Q
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.adapter import READS_AS_A_SEAT, USERNAME_MAX_LENGTH
from accounts.models import User
from accounts.names import name_key, reads_as_a_seat
from accounts.retired_names import RETIRED, name_retired
from accounts.validators import DISPLAY_NAME_MAX_LENGTH


def display_name_problem(name: str, *, user_pk: int | None) -> str | None:
    """Why ``name`` cannot be the display name of the account ``user_pk``, or None: no
    bot and no other player could be taken for it, so not "Bot …" or "Open seat", and
    not another player's name or username (compared in NFKC form, case folded,
    look-alike letters read as the Latin ones)."""
    folded = name_key(name)
    if reads_as_a_seat(name):
        return str(READS_AS_A_SEAT)
    others = User.objects.exclude(pk=user_pk).filter(
        Q(username_key=folded) | Q(display_name_key=folded)
    )
    if others.exists():
        return gettext(
            "Another player already goes by that name: choose one they cannot be taken for."
        )
    if name_retired(name):
        return str(RETIRED)
    return None


class LoginForm(AllauthLoginForm):
    """allauth's log-in form (ACCOUNT_FORMS), its first field labelled for what it takes
    rather than allauth's bare "Login" ("Anmeldung" in German)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["login"].label = _("Username or e-mail")
        # Its placeholder too (allauth's said "Anmeldename" under "Benutzername").
        self.fields["login"].widget.attrs["placeholder"] = self.fields["login"].label
        if "remember" in self.fields:
            self.fields["remember"].label = _("Stay logged in on this browser")
        # allauth makes "Forgot your password?" the password's help text, which
        # Django draws before the field: Tab from the username then reached the link,
        # not the password.  The link comes after the form's button instead
        # (templates/allauth/elements/form.html).
        self.fields["password"].help_text = ""
        _name_box(self.fields["login"])


class SignupForm(AllauthSignupForm):
    """allauth's sign-up form (ACCOUNT_FORMS), its username box typed as a name."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _name_box(self.fields["username"])
        # Said before the first try, not only in the refusal of one.
        self.fields["username"].help_text = format_lazy(
            _(
                "From {minimum} to {maximum} characters: letters of any alphabet, digits and"
                " . + - _ (no spaces). The other players see it until you choose a display"
                " name on your profile."
            ),
            minimum=settings.ACCOUNT_USERNAME_MIN_LENGTH,
            maximum=USERNAME_MAX_LENGTH,
        )


def _name_box(field: forms.Field) -> None:
    """A box that takes a username: a phone's keyboard neither capitalises its first
    letter nor corrects it, and a password manager fills it with the username."""
    field.widget.attrs.update(
        {
            "autocapitalize": "none",
            "autocorrect": "off",
            "spellcheck": "false",
            "autocomplete": "username",
        }
    )


class ProfileForm(forms.ModelForm):
    # Required here although the model allows blank: once set, a name is never cleared
    # to nothing by mistake.  strip=True turns "   " into "" and so into "required".
    display_name = forms.CharField(
        label=_("Display name"),
        min_length=1,
        max_length=DISPLAY_NAME_MAX_LENGTH,
        strip=True,
        help_text=format_lazy(
            _("What other players see, 1 to {} characters."), DISPLAY_NAME_MAX_LENGTH
        ),
    )

    class Meta:
        model = User
        fields = ["display_name"]

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"]
        if name == self.instance.display_name:
            # Kept as it is: a name made under older rules (two may read alike since a
            # capital I reads as an l and as an i) is not refused to its owner.
            return name
        problem = display_name_problem(name, user_pk=self.instance.pk)
        if problem is not None:
            raise forms.ValidationError(problem)
        return name


class AccountDeleteForm(forms.Form):
    """The last step before an account is deleted: the player says they understand."""

    confirm = forms.BooleanField(
        label=_("I understand: my account, my name and my chat messages go for good."),
        error_messages={
            "required": _("Tick the box to confirm that you want to delete your account.")
        },
    )
