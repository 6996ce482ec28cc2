from django.apps import AppConfig


class TokensConfig(AppConfig):
    name = "accounts.tokens"
    label = "tokens"
    verbose_name = "API tokens"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The OpenAPI description of the token scheme (drf-spectacular finds it on import).
        from accounts.tokens import schema  # noqa: F401
