"""Sentences of the engine (and of the bots' pure code) that players read, kept
translatable without importing Django.

A ``Message`` is a ``str``: the English sentence, so ``str(error)``, logs and the
engine's own tests read as before.  It also keeps its ``template`` (the English source
with ``%(name)s`` placeholders, marked by ``gettext_noop`` so that Django's
``makemessages`` extracts it into the catalogues) and its ``params``, typed: a ``Money``
is a money value, a ``Card`` a card's code.  The presenter (``games.presenter.engine_text``)
translates the template into the reader's language and fills in the money and card names
as that language writes them.  Nothing here knows which languages exist.
"""

from __future__ import annotations

from typing import Any


def gettext_noop(template: str) -> str:
    """Marks an English template for translation; returns it unchanged (the name is the
    one Django's makemessages looks for)."""
    return template


class Money(int):
    """A money value in a message's parameters (12000 is written 12,000 / 12.000 …)."""


class Card(str):
    """A card's code in a message's parameters (written as the card's name)."""


class Message(str):
    """An English sentence that remembers its template and parameters."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, **params: Any) -> Message:
        from .cards import card_name, money_text

        english = {
            name: money_text(value)
            if isinstance(value, Money)
            else card_name(value)
            if isinstance(value, Card)
            else value
            for name, value in params.items()
        }
        text = super().__new__(cls, template % english if params else template)
        text.template = template
        text.params = params
        return text
