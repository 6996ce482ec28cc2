from django.db import migrations, models
from django.db.models import Exists, OuterRef


def handed_over_backfill(apps, schema_editor):
    """Results stored before the field: a resigned seat that the host handed over."""
    PlayerResult = apps.get_model("accounts", "PlayerResult")
    Seat = apps.get_model("games", "Seat")
    handed = Seat.objects.filter(
        game_id=OuterRef("game_id"), position=OuterRef("seat"), handed_over=True
    )
    PlayerResult.objects.filter(resigned=True).filter(Exists(handed)).update(handed_over=True)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0012_second_factor_secrets_encrypted"),
        ("games", "0014_seat_handed_over"),
    ]

    operations = [
        migrations.AddField(
            model_name="playerresult",
            name="handed_over",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(handed_over_backfill, migrations.RunPython.noop),
    ]
