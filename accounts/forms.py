"""Forms of the accounts pages (allauth provides the sign-up and log-in forms)."""

from django import forms

from accounts.models import User
from accounts.validators import DISPLAY_NAME_MAX_LENGTH


class ProfileForm(forms.ModelForm):
    # Required here although the model allows blank: once set, a name is never cleared
    # to nothing by mistake.  strip=True turns "   " into "" and so into "required".
    display_name = forms.CharField(
        label="Display name",
        min_length=1,
        max_length=DISPLAY_NAME_MAX_LENGTH,
        strip=True,
        help_text=f"What other players see, 1 to {DISPLAY_NAME_MAX_LENGTH} characters.",
    )

    class Meta:
        model = User
        fields = ["display_name"]
