"""``manage.py sweep``: run beat's periodic sweeps once, here and now.

For a site without Celery beat: run it every minute (from cron).  `make run` needs
none: its web process runs the same sweeps itself (games/sweeps.py).  Each sweep claims
what it does in the database, so running it beside beat, or twice at once, does no
harm.
"""

from django.core.management.base import BaseCommand

from games.sweeps import sweep_all


class Command(BaseCommand):
    help = "Run the async-play sweeps once: deadlines, reminders, stalled games, outbox, digests."

    def handle(self, *args, **options) -> None:
        done = sweep_all()
        self.stdout.write(", ".join(f"{name}: {count}" for name, count in done.items()))
