"""Count finished games that have no stats record yet (games finished before the
profiles existed, or restored from a backup), oldest first so that ratings evolve in
the order the games were played.  Safe to run again: a recorded game is skipped."""

from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import GameRecord
from games.models import Game
from games.ratings import record_finished_game


class Command(BaseCommand):
    help = "Record stats and ratings of finished games that were never recorded."

    def handle(self, *args, **options):
        recorded = GameRecord.objects.values("game_id")
        ids = list(
            Game.objects.filter(status=Game.Status.FINISHED)
            .exclude(pk__in=recorded)
            .order_by("finished_at", "pk")
            .values_list("pk", flat=True)
        )
        done = 0
        for game_id in ids:
            with transaction.atomic():
                game = Game.objects.select_for_update().get(pk=game_id)
                if record_finished_game(game) is not None:
                    done += 1
        self.stdout.write(f"Recorded {done} finished game{'s' if done != 1 else ''}.")
