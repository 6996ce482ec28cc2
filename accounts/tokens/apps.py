from django.apps import AppConfig


class TokensConfig(AppConfig):
    name = "accounts.tokens"
    label = "tokens"
    verbose_name = "API tokens"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The OpenAPI description of the token scheme (drf-spectacular finds it on import).
        # A changed, reset or newly set password revokes every API token of the user.
        # (Other browser sessions end by themselves: their stored password hash no
        # longer matches; the session that changed it is kept.)
        from allauth.account.signals import password_changed, password_reset, password_set

        from accounts.tokens import schema  # noqa: F401
        from accounts.tokens.services import tokens_revoke_on_new_password

        for signal in (password_changed, password_reset, password_set):
            signal.connect(tokens_revoke_on_new_password)
