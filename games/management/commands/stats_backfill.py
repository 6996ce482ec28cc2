"""Count finished games that have no stats record yet (games finished before the
profiles existed, or restored from a backup), oldest first so that ratings evolve in
the order the games were played.  Safe to run again: a recorded game is skipped.

Safe on a live site too.  The games are recorded a few at a time, each batch in a
transaction of its own (under half a second), and the command pauses between two
batches: SQLite has one write lock for the whole file, and a writer waiting for it
looks again only every 100 ms, so without the pause the command took the lock again
before the site's requests got it, and they failed ("database is locked") after the
busy timeout.  On PostgreSQL the pause only costs time (``--pause 0``).  An interrupted run loses its current batch only; run it again
to go on.  It writes where it is every ``--progress`` games (``-v 0``: nothing)."""

import time

from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import GameRecord
from games.models import Game
from games.ratings import record_finished_game

BATCH = 20  # games per transaction
PAUSE = 0.15  # seconds between two transactions, longer than a waiting writer's poll
PROGRESS = 500  # games between two lines of progress


def _duration(seconds: float) -> str:
    minutes, seconds = divmod(round(seconds), 60)
    return f"{minutes} min {seconds:02d} s" if minutes else f"{seconds} s"


class Command(BaseCommand):
    help = (
        "Record stats and ratings of finished games that were never recorded, a few "
        "games per transaction, pausing between them: safe on a live site."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--batch", type=int, default=BATCH, help=f"games per transaction (default {BATCH})"
        )
        parser.add_argument(
            "--pause",
            type=float,
            default=PAUSE,
            help=f"seconds between two transactions, for the site's writes (default {PAUSE})",
        )
        parser.add_argument(
            "--progress",
            type=int,
            default=PROGRESS,
            help=f"games between two lines of progress (default {PROGRESS})",
        )

    def handle(self, *args, batch, pause, progress, verbosity, **options):
        batch, pause, progress = max(1, batch), max(0.0, pause), max(1, progress)
        recorded = GameRecord.objects.values("game_id")
        ids = list(
            Game.objects.filter(status=Game.Status.FINISHED)
            .exclude(pk__in=recorded)
            .order_by("finished_at", "pk")
            .values_list("pk", flat=True)
        )
        total = len(ids)
        say = self.stdout.write if verbosity >= 1 else (lambda text: None)
        if total:
            say(f"{total} finished game{'s' if total != 1 else ''} to record, {batch} at a time.")
        started = time.monotonic()
        done = seen = 0
        for start in range(0, total, batch):
            if start:
                time.sleep(pause)  # the site's writers get the database in between
            chunk = ids[start : start + batch]
            with transaction.atomic():
                games = (
                    Game.objects.select_for_update()
                    .filter(pk__in=chunk)
                    .order_by("finished_at", "pk")
                )
                for game in games:
                    if record_finished_game(game) is not None:
                        done += 1
            previous, seen = seen, start + len(chunk)
            if seen < total and seen // progress > previous // progress:
                spent = time.monotonic() - started
                say(
                    f"{seen} of {total} games ({100 * seen // total}%), {_duration(spent)} "
                    f"so far, about {_duration(spent * (total - seen) / seen)} to go."
                )
        say(f"Recorded {done} finished game{'s' if done != 1 else ''}.")
