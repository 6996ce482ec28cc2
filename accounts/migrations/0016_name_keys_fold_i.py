from django.db import migrations


def keys_fill(apps, schema_editor):
    """The stored keys again, now that ``name_key`` reads an i as an l ("ALICE" read as
    "allce" and "Alice" as "alice": the two could be taken for each other yet had
    different keys)."""
    from accounts.names import name_key

    User = apps.get_model("accounts", "User")
    for user in User.objects.only("pk", "username", "display_name").iterator(chunk_size=500):
        User.objects.filter(pk=user.pk).update(
            username_key=name_key(user.username), display_name_key=name_key(user.display_name)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0015_chat_barred_until"),
    ]

    operations = [migrations.RunPython(keys_fill, migrations.RunPython.noop)]
