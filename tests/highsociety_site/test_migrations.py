"""Every model change comes with its migration (also ``make migrations-check``)."""

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_missing_migrations():
    # Raises SystemExit(1) when a model differs from its migrations.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_every_migration_of_ours_can_be_undone():
    """docs/operations.md, "Rolling back": an operator going back a release migrates
    back to its migrations, so none of ours may be irreversible."""
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(None, ignore_no_migrations=True)
    ours = [key for key in loader.disk_migrations if key[0] in ("accounts", "games")]
    assert ours
    for key in ours:
        for operation in loader.disk_migrations[key].operations:
            assert operation.reversible, f"{key}: {operation.describe()} cannot be undone"
