"""Take the bot's end out of the stats of the players who resigned: their final status
and their being cast out in those games were counted as theirs (the average status is
now over the games a player did not resign from).  The cards the bot won for them stay
in ``cards_won`` for games recorded before this change: which cards were won after the
resignation is not kept in the results.

Undone (a rollback to the release before), the same amounts are added back, as that
release counted them: migrating forward again then takes them out once, not twice."""

from django.db import migrations
from django.db.models import Count, Q, Sum


def _resigned_ends_count(apps, sign: int) -> None:
    """Take out (``sign`` -1) or add back (+1) each player's resigned games' ends."""
    PlayerResult = apps.get_model("accounts", "PlayerResult")
    PlayerStats = apps.get_model("accounts", "PlayerStats")
    totals = (
        PlayerResult.objects.filter(resigned=True)
        .values("user_id")
        .annotate(status=Sum("status"), cast_out=Count("pk", filter=Q(cast_out=True)))
    )
    for row in totals:
        stats = PlayerStats.objects.filter(user_id=row["user_id"]).first()
        if stats is None:
            continue
        stats.status_total += sign * (row["status"] or 0)
        stats.times_cast_out = max(stats.times_cast_out + sign * row["cast_out"], 0)
        stats.save(update_fields=["status_total", "times_cast_out"])


def resigned_ends_out(apps, schema_editor):
    _resigned_ends_count(apps, -1)


def resigned_ends_back(apps, schema_editor):
    _resigned_ends_count(apps, +1)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0010_name_keys"),
    ]

    operations = [
        migrations.RunPython(resigned_ends_out, resigned_ends_back),
    ]
