"""Forms of the game pages: the create-table form, one move, and the bid preview.

Forms only parse and check the shape of the input; the rules and the table's state are
the services' business (their GameError sentences are shown as form errors).
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.ai.orders import Defaults, Order
from games.engine import ADVANCED_CARDS, MONEY
from games.models import Game
from games.presenter import money_text, quoted
from games.selectors import players_by_name
from games.services import unknown_invitee_text
from ops.numbers import digits

BOT_LEVELS = ("random", "easy", "medium", "hard", "expert")
MAX_SEATS = 5
DEADLINE_CHOICES = [
    ("", _("No deadline")),
    ("24", _("1 day")),
    ("48", _("2 days")),
    ("72", _("3 days")),
    ("168", _("7 days")),
]
SEAT_CHOICES = [
    ("open", _("Open seat (anyone may join)")),
    ("bot:random", _("Bot — random")),
    ("bot:easy", _("Bot — easy")),
    ("bot:medium", _("Bot — medium")),
    ("bot:hard", _("Bot — hard")),
    ("bot:expert", _("Bot — expert")),
    ("invite", _("Invite a player by name")),
]
assert [code for code, _label in SEAT_CHOICES[1:-1]] == [f"bot:{level}" for level in BOT_LEVELS]
ADVANCED_CHOICES = [
    ("gambling", _("Gambling — its owner's money counts double")),
    ("excursions", _("Excursions — luxury 12; others take back their best spent card")),
    ("yacht", _("Yacht Club — luxury 5, auctioned by sealed choice")),
]
assert [code for code, _label in ADVANCED_CHOICES] == list(ADVANCED_CARDS)


def seat_entry(kind: str, name: str) -> dict[str, Any]:
    """A seat choice of the forms (``SEAT_CHOICES``, and the username typed beside
    "invite") as the services write a seat: ``{"user": name}``, ``{"ai": level}`` or
    ``{"open": True}``."""
    if kind == "invite":
        return {"user": name}
    if kind.startswith("bot:"):
        return {"ai": kind.removeprefix("bot:")}
    return {"open": True}


def number_errors(message: Any) -> dict[str, Any]:
    """One message for every way a whole-number field can be wrong."""
    return dict.fromkeys(("required", "invalid", "min_value", "max_value"), message)


# An amount of money as people write it: digits, or digits grouped by thousands with the
# separator of their language ("12,000", "12.000", "12 000", "12'000"), never a decimal.
_GROUPED = re.compile(r"\d{1,3}(?:[,.\u00a0\u202f' ]\d{3})+")


def money_amount(raw: str) -> int | None:
    """The whole amount ``raw`` writes, or None when it writes none.  A number input
    could not take "12.000": the browser read a German 12,000 as twelve."""
    text = raw.strip()
    if _GROUPED.fullmatch(text):
        text = re.sub(r"\D", "", text)
    if not digits(text) or len(text) > 30:
        return None
    return int(text)


class MoneyAmountField(forms.IntegerField):
    """An amount of money typed in a text box: digits, grouped or not (``money_amount``)."""

    widget = forms.TextInput

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        amount = money_amount(str(value))
        if amount is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return amount


class OneValueForm(forms.Form):
    """A form that refuses a single-value field sent more than once.  Django reads the
    last of repeated values, so a forged ``card=1000&card=2000`` chose 2,000 without a
    word; the page's forms never send a field twice, and the API refuses a list there
    too."""

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        getlist = getattr(self.data, "getlist", None)
        if getlist is None:
            return data
        for name, field in self.fields.items():
            if isinstance(field, forms.MultipleChoiceField):
                continue
            if len(getlist(self.add_prefix(name))) > 1:
                self.add_error(
                    name,
                    gettext(
                        "The form sent several values for one field; reload the page and try again."
                    ),
                )
        return data


PLAYERS_CHOICES = [(n, format_lazy(_("{} players"), n)) for n in (3, 4, 5)]


class TableForm(OneValueForm):
    """A form that opens a table: one value per form shown, so the same form sent twice
    (a double click, a reload) opens one table, not two (services.game_create's
    ``once``)."""

    once = forms.CharField(
        max_length=Game._meta.get_field("form_once").max_length,
        required=False,
        widget=forms.HiddenInput,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial["once"] = secrets.token_urlsafe(16)


class QuickGameForm(TableForm):
    """The lobby's "Play now": a table of the player and bots of one level, which
    starts at once, with the memory aid if ticked (the lobby ticks it for a player who
    has not finished a game yet); the rest as a new table's defaults (no advanced
    cards, no deadline)."""

    players = forms.TypedChoiceField(
        label=_("Players"), choices=PLAYERS_CHOICES, coerce=int, initial=3
    )
    level = forms.ChoiceField(  # the seat choices' bots, but for the random one
        label=_("Bots"),
        choices=[
            (code.removeprefix("bot:"), label)
            for code, label in SEAT_CHOICES
            if code.startswith("bot:") and code != "bot:random"
        ],
        initial="medium",
    )
    memory_aid = forms.BooleanField(label=_("Show everyone's money"), required=False)

    def service_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``games.services.game_create`` (besides ``creator``)."""
        data = self.cleaned_data
        return {
            "players": data["players"],
            "seats": [{"ai": data["level"]}] * (data["players"] - 1),
            "memory_aid": bool(data.get("memory_aid")),
            "once": data.get("once") or "",
        }


class GameCreateForm(TableForm):
    """A new table: players, who sits where, the options of docs/rules.md.

    Seat rows are numbered from 1 as people count; ``your_seat`` is where the creator
    sits (seat 1 unless changed).  Rows beyond the number of players are ignored.
    """

    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=PLAYERS_CHOICES,
        coerce=int,
        initial=4,
        widget=forms.RadioSelect,
    )
    your_seat = forms.TypedChoiceField(
        label=_("Your seat"),
        choices=[(n, format_lazy(_("Seat {}"), n)) for n in range(1, MAX_SEATS + 1)],
        coerce=int,
        initial=1,
        help_text=_("Seat 1 bids first only if the draw says so: the first player is random."),
    )
    advanced = forms.MultipleChoiceField(
        label=_("Advanced cards (2025 edition)"),
        choices=ADVANCED_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    move_deadline_hours = forms.TypedChoiceField(
        label=_("Move deadline"),
        choices=DEADLINE_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_("When time runs out, a bot makes that one move for the absent player."),
    )
    memory_aid = forms.BooleanField(
        label=_("Memory aid: show every player's remaining money"),
        required=False,
        help_text=_("Anyone could work it out from the log; this saves the counting."),
    )

    def __init__(self, *args: Any, creator: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.creator = creator
        for n in range(1, MAX_SEATS + 1):
            self.fields[f"seat_{n}"] = forms.ChoiceField(
                label=format_lazy(_("Seat {}"), n),
                choices=SEAT_CHOICES,
                initial="open",
                required=False,
            )
            self.fields[f"invite_{n}"] = forms.CharField(
                label=format_lazy(_("Name to invite to seat {}"), n),
                max_length=150,
                required=False,
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
            self.add_error(
                "your_seat", gettext("Choose a seat from 1 to %(players)s.") % {"players": players}
            )
            return data
        seats: list[dict[str, Any]] = []
        invited: set[str] = set()
        named: dict[int, str] = {}  # the invitations the form found nothing wrong with
        for n in range(1, players + 1):
            if n == mine:
                seats.append({"user": self.creator.username if self.creator else ""})
                continue
            kind = data.get(f"seat_{n}") or "open"
            name = (data.get(f"invite_{n}") or "").strip()
            if kind == "invite":
                if not name:
                    self.add_error(
                        f"invite_{n}",
                        gettext(
                            "Write the name of the player to invite: their username or the name the boards show."
                        ),
                    )
                elif self.creator and name.lower() == self.creator.username.lower():
                    self.add_error(
                        f"invite_{n}", gettext("You already sit in seat %(seat)s.") % {"seat": mine}
                    )
                elif name.lower() in invited:
                    self.add_error(
                        f"invite_{n}",
                        gettext("%(name)s is already invited to another seat.") % {"name": name},
                    )
                else:
                    named[n] = name
                invited.add(name.lower())
            seats.append(seat_entry(kind, name))
        # Every unknown name at once, each beside its seat (the table's service, which
        # decides, stops at the first one: they came one per try).
        known = players_by_name(list(named.values()))
        people: set[int] = {self.creator.pk} if self.creator else set()
        for n, name in named.items():
            person = known.get(name.casefold())
            if person is None:
                self.add_error(f"invite_{n}", unknown_invitee_text(name))
            elif self.creator and person.pk == self.creator.pk:  # by their display name
                self.add_error(
                    f"invite_{n}", gettext("You already sit in seat %(seat)s.") % {"seat": mine}
                )
            elif person.pk in people:  # one person by username and by display name
                self.add_error(
                    f"invite_{n}",
                    gettext("%(name)s is already invited to another seat.") % {"name": name},
                )
            if person is not None:
                people.add(person.pk)
        data["seats"] = seats
        return data

    def add_service_error(self, message: str) -> None:
        """Show a ``game_create`` objection beside the invitation it is about (the
        service quotes the username), else at the top of the form."""
        for n in range(1, MAX_SEATS + 1):
            name = (self.cleaned_data.get(f"invite_{n}") or "").strip()
            if name and self.cleaned_data.get(f"seat_{n}") == "invite" and quoted(name) in message:
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
            "once": data.get("once") or "",
        }


ACTION_TYPES = ("bid", "pass", "discard", "sealed_bid")
MONEY_CHOICES = [(str(v), lazy(money_text, str)(v)) for v in MONEY]  # in the page's language


def money_cards_field() -> forms.TypedMultipleChoiceField:
    """Money cards ticked in the hand (a bid's, or the only ones a standing order may use)."""
    return forms.TypedMultipleChoiceField(
        choices=MONEY_CHOICES,
        coerce=int,
        required=False,
        error_messages={
            "invalid_choice": _("Choose money cards from your hand."),
            "invalid_list": _("Choose money cards from your hand."),
        },
    )


class ActionForm(OneValueForm):
    """One move from the board: the action's type, its cards, and the version it was made at."""

    version = forms.IntegerField(
        min_value=0,
        max_value=10**6,
        error_messages=number_errors(_("This page is out of date; reload it and try again.")),
    )
    # Which auction the bid form was drawn for: a bid refused as out of date keeps its
    # ticked cards only while that auction is still on.  (Not "auction": the form holds
    # the standing order's fields too, whose "auction" says the same for the order.)
    for_auction = forms.IntegerField(required=False, min_value=0, max_value=99)
    type = forms.ChoiceField(
        choices=[(t, t) for t in ACTION_TYPES],
        error_messages={
            "required": _("Choose what to do: bid, pass, or the card to give up."),
            "invalid_choice": _("Choose what to do: bid, pass, or the card to give up."),
        },
    )
    cards = money_cards_field()
    card = forms.CharField(max_length=20, required=False, strip=True)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind, card = data.get("type"), data.get("card") or ""
        if kind == "sealed_bid":
            if card not in {str(v) for v in MONEY}:
                self.add_error(
                    "card", gettext("Choose one money card from your hand for the Yacht Club.")
                )
            else:
                data["card"] = int(card)
        elif kind == "discard" and not card:
            self.add_error("card", gettext("Choose one of your luxury cards for Theft to remove."))
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
        return gettext("That move could not be read; try again.")

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
            return [], gettext("%(value)s is not a money card.") % {
                "value": quoted(str(raw), limit=20)
            }
        if value not in MONEY:
            return [], gettext("%(value)s is not a money card.") % {"value": money_text(value)}
        if value in cards:
            return [], gettext("You listed the %(money)s card twice.") % {
                "money": money_text(value)
            }
        cards.append(value)
    return cards, None


MAX_MONEY_INPUT = 10**6  # more than all the money of a game; refused as a number beyond


class SeatChangeForm(OneValueForm):
    """The host's change to one seat of a waiting table: open it, a bot, or an
    invitation (the create form's choices).  ``position`` counts from 0."""

    position = forms.IntegerField(
        min_value=0,
        max_value=MAX_SEATS - 1,
        error_messages=number_errors(_("Choose the seat by its number.")),
    )
    kind = forms.ChoiceField(
        label=_("Who sits here"),
        choices=SEAT_CHOICES,
        error_messages={
            "required": _("Choose who sits in this seat."),
            "invalid_choice": _("Choose who sits in this seat."),
        },
    )
    invite = forms.CharField(label=_("Name to invite"), max_length=150, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind, name = data.get("kind"), (data.get("invite") or "").strip()
        if kind == "invite" and not name:
            self.add_error(
                "invite",
                gettext(
                    "Write the name of the player to invite: their username or the name the boards show."
                ),
            )
        if kind:
            data["seat"] = seat_entry(kind, name)
        return data

    error_text = ActionForm.error_text


class OrderForm(OneValueForm):
    """A standing order from the board: what to do for the card up for auction
    (``card``) while the player is away, the luxury Theft should take, or the defaults
    for the coming auctions (``what``)."""

    what = forms.ChoiceField(
        choices=[(w, w) for w in ("order", "cancel", "defaults", "defaults_clear")],
        error_messages={
            "required": _("Choose what to order."),
            "invalid_choice": _("Choose what to order."),
        },
    )
    card = forms.CharField(max_length=20, required=False, strip=True)
    # Which auction the form was drawn for (its card may come up again: Prestige).
    auction = forms.IntegerField(required=False, min_value=0, max_value=99)
    # The orders the form was drawn with (read_model.orders_stamp): changed since in
    # another window, the form is refused instead of overwriting them unseen.
    seen = forms.CharField(required=False, max_length=64, strip=True)
    kind = forms.ChoiceField(
        choices=[("", ""), ("pass", "pass"), ("bid", "bid")],
        required=False,
        error_messages={"invalid_choice": _("Choose to pass or to bid up to an amount.")},
    )
    maximum = MoneyAmountField(
        min_value=1,
        max_value=MAX_MONEY_INPUT,
        required=False,
        error_messages={
            "invalid": _("Give the most your bid may total as a number, like 12,000."),
            "min_value": _("Give the most your bid may total, in money."),
            "max_value": _("That is more money than the whole game holds."),
        },
    )
    only_ticked = forms.BooleanField(required=False)
    cards = money_cards_field()
    discard = forms.CharField(max_length=12, required=False, strip=True)
    luxury_below = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=99,
        error_messages={
            "invalid": _("Give a luxury's value as a whole number."),
            "min_value": _("Give a luxury's value as a whole number."),
            "max_value": _("Pass on luxuries below a value from 2 to 12."),
        },
    )
    misfortune_max = MoneyAmountField(
        required=False,
        min_value=0,
        max_value=MAX_MONEY_INPUT,
        error_messages={
            "invalid": _("Give the most to pay against a misfortune as a number, like 3,000."),
            "min_value": _("Give the most to pay against a misfortune as a number, like 3,000."),
            "max_value": _("That is more money than the whole game holds."),
        },
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("what") == "order":
            if not data.get("kind") and data.get("maximum") is not None:
                data["kind"] = "bid"  # an amount typed, neither choice ticked: a bid up to it
            if not data.get("kind") and not data.get("discard"):
                self.add_error("kind", gettext("Choose to pass or to bid up to an amount."))
            elif data.get("kind") == "bid" and data.get("maximum") is None:
                self.add_error("maximum", gettext("Give the most your bid may total, in money."))
        return data

    def order(self) -> Order:
        data = self.cleaned_data
        kind = data.get("kind") or ""
        cards = tuple(data.get("cards") or ()) if data.get("only_ticked") else None
        return Order(
            kind=kind,
            maximum=data.get("maximum") if kind == "bid" else None,
            cards=cards if kind == "bid" else None,
            discard=data.get("discard") or "",
        )

    def defaults(self) -> Defaults:
        data = self.cleaned_data
        return Defaults(
            luxury_below=data.get("luxury_below"), misfortune_max=data.get("misfortune_max")
        )

    error_text = ActionForm.error_text
