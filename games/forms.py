"""Forms of the game pages: the create-table form, one move, and the bid preview.

Forms only parse and check the shape of the input; the rules and the table's state are
the services' business (their GameError sentences are shown as form errors).
"""

from __future__ import annotations

from typing import Any

from django import forms

from games.engine import ADVANCED_CARDS, MONEY, money_text

BOT_LEVELS = ("random", "easy", "medium", "hard")
MAX_SEATS = 5
DEADLINE_CHOICES = [
    ("", "No deadline"),
    ("24", "1 day"),
    ("48", "2 days"),
    ("72", "3 days"),
    ("168", "7 days"),
]
SEAT_CHOICES = [
    ("open", "Open seat (anyone may join)"),
    *[(f"bot:{level}", f"Bot — {level}") for level in BOT_LEVELS],
    ("invite", "Invite a player by username"),
]
ADVANCED_CHOICES = [
    ("gambling", "Gambling — its owner's money counts double"),
    ("excursions", "Excursions — luxury 12; others take back their best spent card"),
    ("yacht", "Yacht Club — luxury 5, auctioned by sealed choice"),
]
assert [code for code, _ in ADVANCED_CHOICES] == list(ADVANCED_CARDS)


class GameCreateForm(forms.Form):
    """A new table: players, who sits where, the options of docs/rules.md.

    Seat rows are numbered from 1 as people count; ``your_seat`` is where the creator
    sits (seat 1 unless changed).  Rows beyond the number of players are ignored.
    """

    players = forms.TypedChoiceField(
        label="Players",
        choices=[(n, f"{n} players") for n in (3, 4, 5)],
        coerce=int,
        initial=4,
        widget=forms.RadioSelect,
    )
    your_seat = forms.TypedChoiceField(
        label="Your seat",
        choices=[(n, f"Seat {n}") for n in range(1, MAX_SEATS + 1)],
        coerce=int,
        initial=1,
        help_text="Seat 1 bids first only if the draw says so: the first player is random.",
    )
    advanced = forms.MultipleChoiceField(
        label="Advanced cards (2025 edition)",
        choices=ADVANCED_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    move_deadline_hours = forms.TypedChoiceField(
        label="Move deadline",
        choices=DEADLINE_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        help_text="When time runs out, a bot makes that one move for the absent player.",
    )
    memory_aid = forms.BooleanField(
        label="Memory aid: show every player's remaining money",
        required=False,
        help_text="Anyone could work it out from the log; this saves the counting.",
    )

    def __init__(self, *args: Any, creator: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.creator = creator
        for n in range(1, MAX_SEATS + 1):
            self.fields[f"seat_{n}"] = forms.ChoiceField(
                label=f"Seat {n}", choices=SEAT_CHOICES, initial="open", required=False
            )
            self.fields[f"invite_{n}"] = forms.CharField(
                label=f"Username to invite to seat {n}", max_length=150, required=False
            )

    def seat_rows(self) -> list[dict[str, Any]]:
        """The per-seat fields in order, for the template."""
        return [
            {"number": n, "kind": self[f"seat_{n}"], "invite": self[f"invite_{n}"]}
            for n in range(1, MAX_SEATS + 1)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        players, mine = data.get("players"), data.get("your_seat")
        if players is None or mine is None:
            return data
        if mine > players:
            self.add_error("your_seat", f"Choose a seat from 1 to {players}.")
            return data
        seats: list[dict[str, Any]] = []
        invited: set[str] = set()
        for n in range(1, players + 1):
            if n == mine:
                seats.append({"user": self.creator.username if self.creator else ""})
                continue
            kind = data.get(f"seat_{n}") or "open"
            name = (data.get(f"invite_{n}") or "").strip()
            if kind == "invite":
                if not name:
                    self.add_error(f"invite_{n}", "Write the username of the player to invite.")
                elif self.creator and name.lower() == self.creator.username.lower():
                    self.add_error(f"invite_{n}", f"You already sit in seat {mine}.")
                elif name.lower() in invited:
                    self.add_error(f"invite_{n}", f"{name} is already invited to another seat.")
                invited.add(name.lower())
                seats.append({"user": name})
            elif kind.startswith("bot:"):
                seats.append({"ai": kind.removeprefix("bot:")})
            else:
                seats.append({"open": True})
        data["seats"] = seats
        return data

    def add_service_error(self, message: str) -> None:
        """Show a ``game_create`` objection beside the invitation it is about (the
        service quotes the username), else at the top of the form."""
        for n in range(1, MAX_SEATS + 1):
            name = (self.cleaned_data.get(f"invite_{n}") or "").strip()
            if (
                name
                and self.cleaned_data.get(f"seat_{n}") == "invite"
                and repr(name[:40]) in message
            ):
                self.add_error(f"invite_{n}", message)
                return
        self.add_error(None, message)

    def service_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``games.services.game_create`` (besides ``creator``)."""
        data = self.cleaned_data
        return {
            "players": data["players"],
            "seats": data["seats"],
            "advanced": tuple(data.get("advanced") or ()),
            "move_deadline_hours": data.get("move_deadline_hours"),
            "memory_aid": bool(data.get("memory_aid")),
        }


ACTION_TYPES = ("bid", "pass", "discard", "sealed_bid")
MONEY_CHOICES = [(str(v), money_text(v)) for v in MONEY]


class ActionForm(forms.Form):
    """One move from the board: the action's type, its cards, and the version it was made at."""

    version = forms.IntegerField(
        min_value=0,
        max_value=10**6,
        error_messages={
            "required": "This page is out of date; reload it and try again.",
            "invalid": "This page is out of date; reload it and try again.",
            "min_value": "This page is out of date; reload it and try again.",
            "max_value": "This page is out of date; reload it and try again.",
        },
    )
    type = forms.ChoiceField(
        choices=[(t, t) for t in ACTION_TYPES],
        error_messages={
            "required": "Choose what to do: bid, pass, or the card to give up.",
            "invalid_choice": "Choose what to do: bid, pass, or the card to give up.",
        },
    )
    cards = forms.TypedMultipleChoiceField(
        choices=MONEY_CHOICES,
        coerce=int,
        required=False,
        error_messages={
            "invalid_choice": "Choose money cards from your hand.",
            "invalid_list": "Choose money cards from your hand.",
        },
    )
    card = forms.CharField(max_length=20, required=False, strip=True)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind, card = data.get("type"), data.get("card") or ""
        if kind == "sealed_bid":
            if card not in {str(v) for v in MONEY}:
                self.add_error("card", "Choose one money card from your hand for the Yacht Club.")
            else:
                data["card"] = int(card)
        elif kind == "discard" and not card:
            self.add_error("card", "Choose one of your luxury cards for Theft to remove.")
        return data

    def action(self) -> dict[str, Any]:
        """The engine/API action dict (the service fills in the seat)."""
        data = self.cleaned_data
        kind = data["type"]
        if kind == "bid":
            return {"type": "bid", "cards": list(data.get("cards") or [])}
        if kind == "pass":
            return {"type": "pass"}
        return {"type": kind, "card": data["card"]}

    def error_text(self) -> str:
        """The first error as one sentence (the board shows one message)."""
        for errors in self.errors.values():
            if errors:
                return str(errors[0])
        return "That move could not be read; try again."

    def selected_cards(self) -> set[int]:
        """The money cards the player had ticked, to keep them ticked after an error."""
        chosen: set[int] = set()
        for raw in self.data.getlist("cards") if hasattr(self.data, "getlist") else []:
            if raw in {str(v) for v in MONEY}:
                chosen.add(int(raw))
        return chosen


def parse_cards(values: list[str]) -> tuple[list[int], str | None]:
    """Money values from query/form strings, or a sentence saying what is wrong."""
    cards: list[int] = []
    for raw in values[:20]:
        try:
            value = int(raw)
        except (TypeError, ValueError):
            return [], f"{str(raw)[:20]!r} is not a money card."
        if value not in MONEY:
            return [], f"{money_text(value)} is not a money card."
        if value in cards:
            return [], f"You listed the {money_text(value)} card twice."
        cards.append(value)
    return cards, None
