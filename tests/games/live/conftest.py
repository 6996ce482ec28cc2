"""The page tests' tables (fixed decks, no bots: nothing moves unless a test moves it)."""

from tests.games.pages.conftest import host, table  # noqa: F401
