"""Encrypt the second-factor secrets stored before they were encrypted: each
authenticator app's key and each set of recovery codes' seed (and codes migrated from
another system, if any).  Reversible: the reverse writes them in the clear again."""

from django.db import migrations

FIELDS = {"totp": ("secret",), "recovery_codes": ("seed",)}


def _rewrite(apps, change) -> None:
    Authenticator = apps.get_model("mfa", "Authenticator")
    for row in Authenticator.objects.filter(type__in=FIELDS):
        data = dict(row.data)
        for field in FIELDS[row.type]:
            if isinstance(data.get(field), str):
                data[field] = change(data[field])
        if isinstance(data.get("migrated_codes"), list):
            data["migrated_codes"] = [change(code) for code in data["migrated_codes"]]
        if data != row.data:
            row.data = data
            row.save(update_fields=["data"])


def encrypt(apps, schema_editor) -> None:
    from accounts.second_factor import secret_encrypt

    _rewrite(apps, secret_encrypt)


def decrypt(apps, schema_editor) -> None:
    from accounts.second_factor import secret_decrypt

    _rewrite(apps, secret_decrypt)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0011_resigned_games_stats"),
        ("mfa", "0003_authenticator_type_uniq"),
    ]

    operations = [migrations.RunPython(encrypt, decrypt)]
