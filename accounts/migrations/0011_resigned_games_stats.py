"""Take the bot's end out of the stats of the players who resigned: their final status
and their being cast out in those games were counted as theirs (the average status is
now over the games a player did not resign from).  The cards the bot won for them stay
in ``cards_won`` for games recorded before this change: which cards were won after the
resignation is not kept in the results."""

from django.db import migrations
from django.db.models import Count, Q, Sum


def resigned_ends_out(apps, schema_editor):
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
        stats.status_total -= row["status"] or 0
        stats.times_cast_out = max(stats.times_cast_out - row["cast_out"], 0)
        stats.save(update_fields=["status_total", "times_cast_out"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0010_name_keys"),
    ]

    operations = [
        migrations.RunPython(resigned_ends_out, migrations.RunPython.noop),
    ]
