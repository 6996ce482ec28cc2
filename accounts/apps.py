from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    # Not "Accounts": allauth's e-mail addresses come under that heading in the admin,
    # and two sections of one name read as one listed twice.
    verbose_name = _("Players")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from accounts.signals import remember_language

        user_logged_in.connect(remember_language, dispatch_uid="accounts.remember_language")

        from allauth.account.signals import email_removed, user_signed_up
        from allauth.account.signals import user_logged_in as allauth_logged_in

        # At sign-up too: the address is confirmed before the first log-in, and an
        # invitation sent meanwhile came in English to a player who signed up in German.
        user_signed_up.connect(remember_language, dispatch_uid="accounts.signup_language")

        from accounts.signals import note_unconfirmed_removal

        email_removed.connect(note_unconfirmed_removal, dispatch_uid="accounts.unconfirmed_removal")

        from accounts.devices import device_remember

        # allauth's signal carries the response: a browser that logs in becomes known.
        allauth_logged_in.connect(device_remember, dispatch_uid="accounts.device_remember")
