from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "ops"
    verbose_name = "Operations"

    def ready(self) -> None:
        from ops import deploy_checks  # noqa: F401  (registers the checks)
        from ops.access_log import install

        install()  # access log lines without the keys of confirmation and reset links
