from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # The listeners of games.events: tasks for bots and e-mails, ratings at the end,
        # the open boards' streams.
        from games import live, ratings, tasks  # noqa: F401
