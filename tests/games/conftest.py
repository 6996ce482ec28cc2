"""Fixtures for the games app's Django tests (the engine and bot tests need none)."""

import pytest

from tests.factories import UserFactory
from tests.games.factories import StaffUserFactory


@pytest.fixture
def dora(db):
    """A staff member who sets up scenario games (a fixed deck and first player)."""
    return StaffUserFactory(username="dora", display_name="Dora")


@pytest.fixture
def erin(db):
    return UserFactory(username="erin", display_name="Erin")


@pytest.fixture
def outsider(db):
    """A logged-in user who sits at none of the tables."""
    return UserFactory(username="oscar", display_name="Oscar")


@pytest.fixture
def run_commits(django_capture_on_commit_callbacks):
    """``with run_commits(): ...`` runs what the block queues on commit (bot turns), as
    a real commit would; the test's own transaction never commits."""

    def runner():
        return django_capture_on_commit_callbacks(execute=True)

    return runner
