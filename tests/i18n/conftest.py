"""The page tests' tables (a staff host, fixed decks) for the language tests."""

from tests.games.pages.conftest import host  # noqa: F401 (a fixture)
