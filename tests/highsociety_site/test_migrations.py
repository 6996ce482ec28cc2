"""Every model change comes with its migration (also ``make migrations-check``)."""

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_missing_migrations():
    # Raises SystemExit(1) when a model differs from its migrations.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
