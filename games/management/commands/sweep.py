"""``manage.py sweep``: run beat's periodic sweeps once, here and now.

For a site without Celery beat (the embedded quick start, or cron): run it every
minute.  Each sweep claims what it does in the database, so running it beside beat, or
twice at once, does no harm.
"""

from django.core.management.base import BaseCommand
from django.utils import timezone

from games import deadlines, notifications


class Command(BaseCommand):
    help = "Run the async-play sweeps once: deadlines, reminders, stalled games, outbox, digests."

    def handle(self, *args, **options) -> None:
        now = timezone.now()
        done = {
            "deadline moves": deadlines.deadlines_sweep(now=now),
            "reminders": deadlines.reminders_sweep(now=now),
            "stalled games and missed turns": deadlines.stalled_sweep(now=now),
            "e-mails retried": notifications.outbox_sweep(now=now),
            "digests": notifications.digests_sweep(now=now),
        }
        self.stdout.write(", ".join(f"{name}: {count}" for name, count in done.items()))
