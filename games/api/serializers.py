"""Input and output serializers of the games API.

Input serializers validate shapes and types (``StrictSerializer``: unknown fields are an
error); the rules themselves stay in the services and the engine, whose sentences reach
the client as they are.

Output serializers describe the answers field by field for the OpenAPI document, and
every answer is rendered through one of them (``Serializer(data).data``): only the
declared fields come out, at every level, so nothing undeclared (let alone hidden) can
slip out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from games.ai.orders import LUXURY_BELOW_RANGE, Order
from games.api.errors import ERROR_CODES
from games.engine import ADVANCED_CARDS
from games.models import AI_LEVELS, DEADLINE_HOURS, MAX_PLAYERS, MIN_PLAYERS, Game, Move
from games.presenter import money_text
from ops.numbers import digits

ACTION_TYPES = ("bid", "pass", "discard", "sealed_bid")
ORDER_TYPES = ("pass", "bid", "sealed_bid")
EVENT_TYPES = ("reveal", "bid", "pass", "win", "take", "return", "theft", "sealed", "end")
MAX_INT = 2**31 - 1
# The standing defaults' refusal of a value out of range, as the service words it.
LUXURY_BELOW_REFUSED = lazy(
    lambda: (
        gettext("Pass on luxuries below a value from %(low)s to %(high)s.")
        % {"low": LUXURY_BELOW_RANGE[0], "high": LUXURY_BELOW_RANGE[1]}
    ),
    str,
)()
CARD_CODE_HELP = (
    "A status card code: lux1 … lux10, prestige, scandal, debt, theft, gambling, excursions, yacht."
)


# --------------------------------------------------------------------------- helpers


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know, so a typo is an error, not silently ignored."""

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            unknown = sorted(str(name) for name in set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {name[:50]: [gettext("Unknown field.")] for name in unknown[:10]}
                )
        return super().to_internal_value(data)


class JsonStringField(serializers.CharField):
    """A JSON string and nothing else (DRF's CharField would take 0.0 as "0.0", and a
    password 123 as "123")."""

    default_error_messages = {"invalid": _("Text is required (a JSON string).")}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class JsonIntegerField(serializers.IntegerField):
    """A JSON integer and nothing else: no 1000.0, no "1000", no other digits."""

    default_error_messages = {"invalid": _("A whole number is required (a JSON integer).")}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class QueryIntegerField(serializers.IntegerField):
    """A whole number in a query string, in digits and nothing else: ``2``, not ``2.0``,
    ``+2`` or ``2e0`` (which DRF's own field takes for 2)."""

    default_error_messages = {"invalid": _("A whole number in digits is required (such as 2).")}

    def to_internal_value(self, data):
        if not digits(data):
            self.fail("invalid")
        return super().to_internal_value(data)


class JsonBooleanField(serializers.BooleanField):
    """A JSON true or false and nothing else: no "true", 1 or "yes"."""

    default_error_messages = {"invalid": _("true or false is required (a JSON boolean).")}

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class JsonChoiceField(serializers.ChoiceField):
    """One of the choices, of the choices' own JSON type: 48, not "48".  The refusal
    quotes what was sent as JSON and names the choices ("5 is not one of 24, 48, 72,
    168.", where DRF's own said '"5" is not a valid choice.')."""

    default_error_messages = {"invalid_choice": _("{input} is not one of {choices}.")}

    def to_internal_value(self, data):
        if not any(type(data) is type(choice) and data == choice for choice in self.choices):
            self.fail(
                "invalid_choice",
                input=json.dumps(data, ensure_ascii=False, default=str)[:40],
                choices=", ".join(json.dumps(choice) for choice in self.choices),
            )
        return super().to_internal_value(data)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "maxLength": 20, "description": CARD_CODE_HELP},
            {"type": "integer", "minimum": 0, "maximum": MAX_INT, "description": "A money card."},
        ]
    }
)
class CardField(serializers.Field):
    """A status card code (a string) or a money card (a number)."""

    default_error_messages = {
        "invalid": _("A card is a card code (text) or a money value (number).")
    }

    def to_internal_value(self, data):
        if isinstance(data, bool):
            self.fail("invalid")
        if isinstance(data, int):
            if not 0 <= data <= MAX_INT:
                self.fail("invalid")
            return data
        if isinstance(data, str) and 0 < len(data) <= 20:
            return data
        self.fail("invalid")

    def to_representation(self, value):
        return value


def _out(field_class, help_text: str, **kwargs):
    """An output field: required (always present) unless told otherwise."""
    return field_class(help_text=help_text, **kwargs)


# --------------------------------------------------------------------------- errors


class ErrorSerializer(serializers.Serializer):
    """Every error answer."""

    detail = _out(serializers.CharField, "What went wrong, in a sentence for a person.")
    code = _out(
        serializers.ChoiceField,
        'A stable, machine-readable code (docs/api.md, "Errors", says when each is '
        "sent); the list is complete: a client may switch on it.",
        choices=ERROR_CODES,
    )
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text=(
            "For invalid input (code `invalid`): the messages per field, nested fields "
            "written as paths (`seats[1].ai`); `non_field_errors` for the input as a whole."
        ),
    )
    version = serializers.IntegerField(
        required=False,
        min_value=0,
        help_text=(
            "For `version_conflict`: the game's current version, to load the board at "
            "(or to send a move with once you have looked again)."
        ),
    )


# --------------------------------------------------------------------------- input


class TokenObtainInputSerializer(StrictSerializer):
    username = JsonStringField(max_length=254, help_text="Your username (or e-mail address).")
    password = JsonStringField(
        max_length=4096,
        trim_whitespace=False,
        style={"input_type": "password"},
        help_text="Your password.",
    )
    name = JsonStringField(
        max_length=60,
        required=False,
        help_text="A name for the token, to recognise it on your tokens page (default “API log-in”).",
    )
    code = JsonStringField(
        max_length=64,
        required=False,
        help_text=(
            "For an account with two-factor authentication: the code your authenticator "
            "app shows now, or one of your recovery codes."
        ),
    )


class SeatSpecSerializer(StrictSerializer):
    """Exactly one of ``user``, ``ai`` or ``open``."""

    user = JsonStringField(
        max_length=150,
        required=False,
        help_text="Invite this player: their username, or the display name the boards show.",
    )
    ai = serializers.ChoiceField(
        choices=AI_LEVELS, required=False, help_text="A bot of this level plays the seat."
    )
    open = JsonBooleanField(
        required=False, help_text="`true`: the seat is open to anyone who joins."
    )

    def validate(self, attrs):
        if len(attrs) != 1:
            raise serializers.ValidationError(
                gettext(
                    'Give exactly one of {"user": "<username>"}, {"ai": "<level>"} or {"open": true}.'
                )
            )
        if attrs.get("open") is False:
            raise serializers.ValidationError(gettext('An open seat is written {"open": true}.'))
        return attrs


class GameCreateInputSerializer(StrictSerializer):
    players = JsonIntegerField(
        min_value=MIN_PLAYERS, max_value=MAX_PLAYERS, help_text="Seats at the table (3 to 5)."
    )
    seats = SeatSpecSerializer(
        many=True,
        max_length=MAX_PLAYERS,
        help_text=(
            "The other seats (`players - 1` entries: you take seat 0), or all of them "
            '(`players` entries, one of them `{"user": "<your username>"}`).'
        ),
    )
    advanced = serializers.ListField(
        child=serializers.ChoiceField(choices=ADVANCED_CARDS),
        max_length=len(ADVANCED_CARDS),
        default=list,
        help_text="Advanced cards to add (2025 edition): gambling, excursions, yacht.",
    )
    move_deadline_hours = JsonChoiceField(
        choices=DEADLINE_HOURS,
        allow_null=True,
        default=None,
        help_text="Time per move in hours (24, 48, 72 or 168), or null for no deadline.",
    )
    memory_aid = JsonBooleanField(
        default=False, help_text="Show every player's remaining money to everyone."
    )
    deck = serializers.ListField(
        child=JsonStringField(max_length=20),
        max_length=40,
        required=False,
        help_text=(
            "Staff only (scenario games): the whole deck, top card first, exactly the "
            "cards of the chosen set."
        ),
    )
    first_player = JsonIntegerField(
        min_value=0,
        max_value=MAX_PLAYERS - 1,
        required=False,
        help_text="Staff only (scenario games): the seat that starts.",
    )


class QuerySerializer(serializers.Serializer):
    """Query parameters: unknown ones are ignored (caches add their own), but a known
    one given empty (``?status=``) is an error, not silently "no filter"."""

    def to_internal_value(self, data):
        blank = [name for name in self.fields if name in data and data.get(name) == ""]
        if blank:
            raise serializers.ValidationError(
                {name: [gettext("This parameter may not be empty.")] for name in blank}
            )
        return super().to_internal_value(data)


class PageQuerySerializer(QuerySerializer):
    """A list's page (``PagePagination``): checked before the paginator reads it."""

    page = QueryIntegerField(min_value=1, max_value=MAX_INT, required=False)
    page_size = QueryIntegerField(min_value=1, max_value=100, required=False)


class GameListQuerySerializer(PageQuerySerializer):
    status = serializers.ChoiceField(
        choices=["open", "active", "finished"],
        required=False,
        help_text="Only tables waiting for players (open), running games or finished ones.",
    )
    mine = serializers.BooleanField(
        required=False, default=False, help_text="`true`: only games where you have a seat."
    )


class MoveInputSerializer(StrictSerializer):
    type = serializers.ChoiceField(
        choices=ACTION_TYPES,
        help_text=(
            "bid (add cards to your face-up bid), pass, discard (choose the luxury that "
            "Theft removes), sealed_bid (your secret Yacht Club choice)."
        ),
    )
    seat = JsonIntegerField(
        min_value=0,
        max_value=MAX_PLAYERS - 1,
        required=False,
        allow_null=True,
        help_text="Your seat; may be left out. Another player's seat is refused with 403.",
    )
    cards = serializers.ListField(
        child=JsonIntegerField(min_value=0, max_value=MAX_INT),
        max_length=11,
        required=False,
        help_text="bid only: the money cards from your hand added to your bid this turn.",
    )
    card = CardField(
        required=False,
        help_text=(
            "discard: the luxury to give up (a code such as `lux3`); sealed_bid: the money "
            "card you choose (a number such as 12000)."
        ),
    )
    version = JsonIntegerField(
        min_value=0,
        max_value=MAX_INT,
        help_text=(
            "The game version you saw (`version` of the game view). A move for any "
            "other version is refused with 409: repeating a request never moves twice. "
            "The same move sent again, your first own move since that version, is "
            "answered 200 as made."
        ),
    )

    def validate(self, attrs):
        kind = attrs["type"]
        if kind == "bid" and not attrs.get("cards"):
            raise serializers.ValidationError(
                {"cards": [gettext("A bid adds one or more money cards.")]}
            )
        if kind != "bid" and "cards" in attrs:
            raise serializers.ValidationError(
                {"cards": [gettext("A %(kind)s takes no cards.") % {"kind": kind}]}
            )
        _cards_once(attrs.get("cards"))
        if kind in ("discard", "sealed_bid") and "card" not in attrs:
            raise serializers.ValidationError(
                {"card": [gettext("A %(kind)s names one card.") % {"kind": kind}]}
            )
        if kind in ("bid", "pass") and "card" in attrs:
            raise serializers.ValidationError(
                {"card": [gettext("A %(kind)s takes no card.") % {"kind": kind}]}
            )
        return attrs

    def action(self) -> dict[str, Any]:
        """The action dict of docs/api.md (without the version)."""
        data = self.validated_data
        action = {"type": data["type"]}
        if data.get("seat") is not None:
            action["seat"] = data["seat"]
        for key in ("cards", "card"):
            if key in data:
                action[key] = data[key]
        return action


class MovesQuerySerializer(QuerySerializer):
    since = QueryIntegerField(
        min_value=0,
        max_value=MAX_INT,
        default=0,
        help_text="The first move number to return (0 for the whole log).",
    )
    limit = QueryIntegerField(
        min_value=1, max_value=500, default=500, help_text="At most this many moves (1 to 500)."
    )


class ChatQuerySerializer(QuerySerializer):
    after = QueryIntegerField(
        min_value=0,
        max_value=MAX_INT,
        required=False,
        help_text=(
            "Only the messages after this one (a message's `id`): give the last `id` you "
            "have to get what is new. Left out: the latest messages."
        ),
    )


# --------------------------------------------------------------------------- output


class TokenSerializer(serializers.Serializer):
    token = _out(
        serializers.CharField,
        "The secret to send as `Authorization: Token <token>`. Shown only this once.",
    )
    expiry = _out(serializers.DateTimeField, "When the token stops working.")
    token_id = _out(serializers.IntegerField, "The token's id (as on your tokens page).")
    username = _out(serializers.CharField, "Whose token it is.")


class OptionsSerializer(serializers.Serializer):
    players = _out(serializers.IntegerField, "Seats at the table (3 to 5).")
    advanced = _out(serializers.ListField, "Advanced cards in play.", child=serializers.CharField())
    memory_aid = _out(serializers.BooleanField, "Everyone's remaining money is shown.")
    move_deadline_hours = _out(
        serializers.IntegerField, "Hours per move, or null (no deadline).", allow_null=True
    )


class TableSeatSerializer(serializers.Serializer):
    position = _out(serializers.IntegerField, "Seat number, from 0.")
    display_name = _out(serializers.CharField, "The name shown for this seat.")
    username = _out(
        serializers.CharField,
        "The seated (or invited) player's username; null for bots, open seats and deleted accounts.",
        allow_null=True,
    )
    is_bot = _out(serializers.BooleanField, "A bot plays this seat (also after a player resigned).")
    ai_level = _out(
        serializers.ChoiceField,
        "The bot's level (random, easy, medium, hard, expert), else empty.",
        choices=AI_LEVELS,
        allow_blank=True,
    )
    is_open = _out(serializers.BooleanField, "Nobody sits here yet: anyone may join.")
    invited = _out(serializers.BooleanField, "A player is invited here and has not accepted yet.")
    held = _out(
        serializers.BooleanField,
        "An invitation here was declined: the seat waits for the table's creator to give "
        "it to a bot, invite someone else or open it; nobody can join it meanwhile.",
    )
    accepted = _out(serializers.BooleanField, "The seat is taken (a player accepted, or a bot).")
    resigned = _out(serializers.BooleanField, "The player resigned; a bot plays on.")
    handed_over = _out(
        serializers.BooleanField,
        "The table's creator handed this seat to a bot while its player was away (missed "
        "deadlines, or a week without their move at a table without deadlines; "
        "`resigned` is true too: a bot plays on; the player did not resign).",
    )
    is_you = _out(serializers.BooleanField, "This is your seat.")
    declined_by = _out(
        serializers.CharField,
        "The username of who declined an invitation to this seat (held): shown only to "
        "the table's creator while the table waits for players; else null.",
        allow_null=True,
    )


class GameSeatSerializer(TableSeatSerializer):
    """A seat in the game's view: also what tells a slow player from an absent one."""

    vacation_until = _out(
        serializers.DateTimeField,
        "For the people with a seat at this table (an invitation counts), while it waits "
        "or plays: this seat's player is on vacation until then (their deadlines wait); "
        "else null.",
        allow_null=True,
    )
    timeouts = _out(
        serializers.IntegerField,
        "Deadlines this seat has missed in this game (a bot moved for it each time).",
    )
    idle_since = _out(
        serializers.DateTimeField,
        "At a running table without move deadlines, for the players at the table: since "
        "when this seat's player, to act, has kept the table waiting (from the end of a "
        "vacation, if later); else null.",
        allow_null=True,
    )


class GameSummarySerializer(serializers.Serializer):
    """A game in a list (no game state: GET the game for that)."""

    id = _out(serializers.IntegerField, "The game's id.")
    status = _out(
        serializers.ChoiceField, "open, active, finished or abandoned.", choices=Game.Status.choices
    )
    version = _out(serializers.IntegerField, "Moves made so far.")
    options = OptionsSerializer(help_text="The table's options.")
    created_by = _out(
        serializers.CharField,
        "Username of the player who opened the table; null once their account is deleted.",
        allow_null=True,
    )
    created_at = _out(serializers.DateTimeField, "When the table was opened.")
    started_at = _out(serializers.DateTimeField, "When the game started, or null.", allow_null=True)
    finished_at = _out(serializers.DateTimeField, "When the game ended, or null.", allow_null=True)
    deadline_at = _out(
        serializers.DateTimeField, "When the current move is due, or null.", allow_null=True
    )
    open_seats = _out(serializers.IntegerField, "Seats still open to anyone.")
    your_seat = _out(
        serializers.IntegerField,
        "Your seat, or null. Also set for an invitation not yet answered: "
        "`seats_info[your_seat].accepted` says whether you sit there. Null after you "
        "resigned, until the game ends (as in the game's view).",
        allow_null=True,
    )
    your_turn = _out(serializers.BooleanField, "You are to act in this game now.")
    seats_info = TableSeatSerializer(many=True, help_text="Who sits where.")


class SeatStateSerializer(serializers.Serializer):
    """One seat's public state (plus the private parts that this viewer may see)."""

    seat = _out(serializers.IntegerField, "Seat number.")
    cards = _out(
        serializers.ListField, "Status cards this seat owns (codes).", child=serializers.CharField()
    )
    theft_pending = _out(
        serializers.BooleanField, "A Theft waits to remove this seat's next luxury."
    )
    bid = _out(
        serializers.ListField,
        "Face-up money cards bid this round.",
        child=serializers.IntegerField(),
    )
    bid_total = _out(serializers.IntegerField, "Total of the face-up bid.")
    passed = _out(serializers.BooleanField, "Passed in the running auction.")
    hand_count = _out(serializers.IntegerField, "Money cards in hand.")
    sealed = _out(
        serializers.ChoiceField,
        "Yacht Club auction: waiting or chosen (never the card); null otherwise.",
        choices=["waiting", "chosen"],
        allow_null=True,
    )
    hand = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="The money cards in hand: only your own seat, or every seat with the memory aid.",
    )
    money = serializers.IntegerField(required=False, help_text="Sum of `hand` (when shown).")
    discards = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Money cards spent (discard pile): as `hand`.",
    )


class PaymentSerializer(serializers.Serializer):
    seat = _out(serializers.IntegerField, "Who paid.")
    cards = _out(serializers.ListField, "The money cards paid.", child=serializers.IntegerField())


class SealedChoiceSerializer(serializers.Serializer):
    seat = _out(serializers.IntegerField, "Who chose.")
    card = _out(serializers.IntegerField, "The money card chosen (revealed).")


class EventSerializer(serializers.Serializer):
    """One entry of the public log; which fields appear depends on ``type``."""

    type = _out(
        serializers.ChoiceField,
        "reveal (a card is turned up), bid, pass, win (a normal auction is won), take "
        "(a misfortune is taken), return (Excursions gives a card back), theft (a luxury "
        "is removed), sealed (the Yacht Club choices, revealed), end (the game ends).",
        choices=EVENT_TYPES,
    )
    seat = serializers.IntegerField(required=False, help_text="The seat concerned.")
    card = CardField(
        required=False,
        help_text="The status card (a code), or for `return` the money card returned.",
    )
    cards = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="bid: the cards added."
    )
    total = serializers.IntegerField(required=False, help_text="bid: the bid's new total.")
    paid = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="win: the cards paid."
    )
    payments = PaymentSerializer(
        many=True, required=False, help_text="take: what each other bidder paid."
    )
    automatic = serializers.BooleanField(
        required=False, help_text="theft: removed at once by a pending Theft (no choice)."
    )
    choices = SealedChoiceSerializer(
        many=True, required=False, help_text="sealed: every choice, revealed together."
    )
    winner = serializers.IntegerField(
        required=False, allow_null=True, help_text="sealed: the winning seat, or null."
    )

    def to_representation(self, instance):
        data = super().to_representation(instance)
        # ``winner`` (a nullable field) would read null on every other event: only a
        # ``sealed`` event carries it.
        if "winner" not in instance:
            data.pop("winner", None)
        return data


class LegalActionsSerializer(serializers.Serializer):
    """What you may do now, summarised (an opening bid alone has 2,047 card sets)."""

    types = _out(
        serializers.ListField,
        "The action types you may send now.",
        child=serializers.ChoiceField(choices=ACTION_TYPES),
    )
    seat = _out(serializers.IntegerField, "Your seat.")
    can_pass = _out(serializers.BooleanField, "You may pass.")
    can_bid = _out(serializers.BooleanField, "Some set of your cards makes a legal bid.")
    to_beat = _out(
        serializers.IntegerField,
        "Your whole face-up bid must total MORE than this after you add cards.",
    )
    current_bid = _out(
        serializers.IntegerField,
        "Your face-up bid so far this round: add cards worth more than `to_beat - current_bid`.",
    )
    hand = _out(serializers.ListField, "Your money cards.", child=serializers.IntegerField())
    discard_choices = _out(
        serializers.ListField,
        "Theft: the luxuries you may give up (send one as `card` of a discard).",
        child=serializers.CharField(),
    )
    sealed_choices = _out(
        serializers.ListField,
        "Yacht Club: the money cards you may choose (send one as `card` of a sealed_bid).",
        child=serializers.IntegerField(),
    )


class ResultPlayerSerializer(serializers.Serializer):
    seat = _out(serializers.IntegerField, "Seat number.")
    money = _out(serializers.IntegerField, "Money at the end (doubled with Gambling).")
    status = _out(serializers.IntegerField, "Final status (may be negative).")
    cast_out = _out(serializers.BooleanField, "Cast out for having the least money.")
    winner = _out(serializers.BooleanField, "Won (shared wins are possible).")


class ResultSerializer(serializers.Serializer):
    players = ResultPlayerSerializer(many=True, help_text="One entry per seat, in seat order.")


class EndingSerializer(serializers.Serializer):
    places = _out(
        serializers.ListField,
        "Each seat's place, in seat order: winners 1, then the others not cast out by "
        "status, then money, then the top luxury (as the win is decided), the cast-out "
        "players last; ties share a place and the next place skips.",
        child=serializers.IntegerField(min_value=1),
    )
    rating_changes = _out(
        serializers.ListField,
        "Each seat's rating change from this game, in seat order; null for a bot, or "
        "for every seat of an unrated game.",
        child=serializers.FloatField(allow_null=True),
    )
    unrated_reason = _out(
        serializers.CharField,
        "Why the game changed no rating, in your language (to the player who resigned, "
        '"You resigned."); null for a rated game.',
        allow_null=True,
    )


class ScoreDetailSerializer(serializers.Serializer):
    seat = _out(serializers.IntegerField, "Seat number.")
    luxuries = _out(serializers.ListField, "Luxury cards kept.", child=serializers.CharField())
    luxury_total = _out(serializers.IntegerField, "Sum of their values.")
    debt = _out(serializers.BooleanField, "Owns Debt (−5).")
    prestige = _out(serializers.IntegerField, "Prestige cards owned (×2 each).")
    scandal = _out(serializers.BooleanField, "Owns Scandal (status halved).")
    gambling = _out(serializers.BooleanField, "Owns Gambling (money counts double).")
    hand_money = _out(serializers.IntegerField, "Money cards left in hand.")
    money = _out(serializers.IntegerField, "Money as scored.")
    status = _out(serializers.IntegerField, "Final status.")
    top_luxury = _out(serializers.IntegerField, "Value of the best luxury (a tie-break).")
    cast_out = _out(serializers.BooleanField, "Cast out.")
    winner = _out(serializers.BooleanField, "Won.")
    decided_by = _out(
        serializers.CharField,
        "For a winner: what decided between the best (status, money, top luxury, shared).",
        allow_null=True,
    )


@extend_schema_serializer(component_name="GameView")
class GameViewSerializer(serializers.Serializer):
    """Your view of a game: what your seat may see (a spectator's view if you have no
    seat), the table, and what you may do now."""

    id = _out(serializers.IntegerField, "The game's id.")
    version = _out(
        serializers.IntegerField,
        "Moves made so far. Send it back as `version` with your move.",
    )
    status = _out(
        serializers.ChoiceField, "open, active, finished or abandoned.", choices=Game.Status.choices
    )
    options = OptionsSerializer(help_text="The table's options.")
    seats_info = GameSeatSerializer(many=True, help_text="Who sits where.")
    your_seat = _out(
        serializers.IntegerField,
        "Your seat, or null (a spectator). Also set for an invitation not yet answered "
        "(the seat held for you): `seats_info[your_seat].accepted` says whether you sit "
        "there; moves, chat and orders need an accepted seat. Null after you resigned, "
        "until the game ends: the bot that plays your seat makes its own secret choices, "
        "so you see the game as a spectator does.",
        allow_null=True,
    )
    rematch_of = _out(
        serializers.IntegerField,
        "The finished game this table is the rematch of, or null.",
        allow_null=True,
    )
    rematch = _out(
        serializers.IntegerField,
        "Once the game is over: the table opened as its rematch (`rematch/`), or null.",
        allow_null=True,
    )
    deadline_at = _out(
        serializers.DateTimeField, "When the current move is due, or null.", allow_null=True
    )
    legal_actions = LegalActionsSerializer(
        allow_null=True, help_text="What you may do now; null when you have nothing to do."
    )
    # The engine's player_view (docs/api.md, the engine); empty or null before the start.
    players = _out(serializers.IntegerField, "Number of players.")
    seat = _out(serializers.IntegerField, "The seat this view is for, or null.", allow_null=True)
    memory_aid = _out(serializers.BooleanField, "Remaining money of every seat is shown.")
    advanced = _out(serializers.ListField, "Advanced cards in play.", child=serializers.CharField())
    phase = _out(
        serializers.ChoiceField,
        "auction, theft (the Theft choice is due), sealed (the Yacht Club choices), over; null before the start.",
        choices=["auction", "theft", "sealed", "over"],
        allow_null=True,
    )
    card = _out(
        serializers.CharField, "The card up for auction (a code), or null.", allow_null=True
    )
    auction = _out(
        serializers.ChoiceField,
        "The running auction: normal, misfortune (bid to avoid the card) or sealed; null otherwise.",
        choices=["normal", "misfortune", "sealed"],
        allow_null=True,
    )
    leader = _out(serializers.IntegerField, "The seat that started this round.", allow_null=True)
    first_player = _out(
        serializers.IntegerField, "The seat that started the game.", allow_null=True
    )
    turn = _out(
        serializers.IntegerField,
        "Whose turn it is (auction or Theft choice), else null.",
        allow_null=True,
    )
    to_act = _out(
        serializers.ListField, "Every seat that may act now.", child=serializers.IntegerField()
    )
    high_bid = _out(serializers.IntegerField, "The highest face-up bid total.")
    deck_remaining = _out(serializers.IntegerField, "Cards left in the deck (never which).")
    game_end_revealed = _out(serializers.IntegerField, "Game-end cards turned up so far.")
    game_end_total = _out(
        serializers.IntegerField, "The game ends when this many have been turned up."
    )
    revealed = _out(
        serializers.ListField, "Cards turned up so far, in order.", child=serializers.CharField()
    )
    game_end_cards = _out(
        serializers.ListField, "The codes of the game-end cards.", child=serializers.CharField()
    )
    removed = _out(
        serializers.ListField,
        "Cards removed from the game (Theft, Yacht Club).",
        child=serializers.CharField(),
    )
    seats = SeatStateSerializer(many=True, help_text="Each seat's cards, bid and hand size.")
    hand = _out(
        serializers.ListField,
        "Your money cards; null for a spectator.",
        child=serializers.IntegerField(),
        allow_null=True,
    )
    discards = _out(
        serializers.ListField,
        "Your spent money cards; null for a spectator.",
        child=serializers.IntegerField(),
        allow_null=True,
    )
    sealed_choice = _out(
        serializers.IntegerField,
        "Your secret Yacht Club choice until revealed, else null.",
        allow_null=True,
    )
    moves = _out(serializers.IntegerField, "Actions applied so far (equals `version`).")
    log = EventSerializer(many=True, help_text="The public log, oldest first.")
    log_text = _out(
        serializers.ListField,
        "The public log in words, one line per event. Who or what made each move (a "
        "forced pass, a standing order, a bot) is the move log's `actor`.",
        child=serializers.CharField(),
    )
    result = ResultSerializer(
        allow_null=True, help_text="Once the game is over: the result; else null."
    )
    score_details = ScoreDetailSerializer(
        many=True,
        allow_null=True,
        help_text="Once the game is over: the scoring of each seat; else null.",
    )
    ending = EndingSerializer(
        allow_null=True,
        help_text="Once the game is over: each seat's place and rating change; else null.",
    )


class MoveSerializer(serializers.Serializer):
    number = _out(
        serializers.IntegerField, "The move's number: the game's version when it was made (from 0)."
    )
    seat = _out(serializers.IntegerField, "The seat that acted.")
    action = _out(
        serializers.DictField,
        "The action, as sent (docs/api.md): {seat, type, cards} / {seat, type, card}. A Yacht "
        "Club choice shows no `card` until all choices are revealed.",
    )
    actor = _out(
        serializers.ChoiceField,
        "Who made it: player, bot, forced (the server passed for a seat that could only pass), deadline (a bot moved for an absent player) or order (the player's standing order).",
        choices=Move.Actor.choices,
    )
    created_at = _out(serializers.DateTimeField, "When.")


class MoveLogSerializer(serializers.Serializer):
    game = _out(serializers.IntegerField, "The game's id.")
    version = _out(serializers.IntegerField, "The game's version now (moves so far).")
    since = _out(serializers.IntegerField, "The first move number asked for.")
    moves = MoveSerializer(many=True, help_text="The moves from `since` on, oldest first.")
    next_since = _out(
        serializers.IntegerField,
        "More moves follow: ask again with this `since`; null when this is all.",
        allow_null=True,
    )


class CardCountSerializer(serializers.Serializer):
    card = _out(serializers.CharField, CARD_CODE_HELP)
    count = _out(serializers.IntegerField, "How many times it was won.")


class RatingPointSerializer(serializers.Serializer):
    game = _out(serializers.IntegerField, "The game's id.")
    finished_at = _out(serializers.DateTimeField, "When the game ended.")
    rating = _out(serializers.FloatField, "The rating after this game.")
    change = _out(serializers.FloatField, "The change this game made.")


class RecentGameSerializer(serializers.Serializer):
    game = _out(serializers.IntegerField, "The game's id.")
    finished_at = _out(serializers.DateTimeField, "When the game ended.")
    seat = _out(serializers.IntegerField, "The player's seat (0-based).")
    place = _out(
        serializers.IntegerField,
        "Final place: winners 1, then by status, money and top luxury, cast-out players "
        "last; ties share a place. For a seat a bot finished (`resigned`), the place the "
        "seat reached (`won` is false then; the head-to-head counts the player behind "
        "everybody).",
    )
    won = _out(serializers.BooleanField, "Won (a shared win counts; never after resigning).")
    cast_out = _out(serializers.BooleanField, "Cast out (the least money).")
    resigned = _out(serializers.BooleanField, "Resigned; a bot finished the seat.")
    handed_over = _out(
        serializers.BooleanField,
        "The table's creator handed the seat to a bot while its player was away (`resigned` "
        "is true too: the bot finished the seat; the player did not resign).",
    )
    status = _out(serializers.IntegerField, "Final status (the seat's, a bot's play included).")
    rated = _out(serializers.BooleanField, "Whether the game changed ratings.")
    rating_change = _out(
        serializers.FloatField, "The rating change, or null for an unrated game.", allow_null=True
    )


class HeadToHeadSerializer(serializers.Serializer):
    opponent = _out(
        serializers.CharField,
        "The opponent's username, or null for a bot level or a deleted account.",
        allow_null=True,
    )
    opponent_name = _out(serializers.CharField, "The opponent's name as shown.")
    bot_level = _out(
        serializers.ChoiceField,
        "The bot level, or null for a person.",
        choices=AI_LEVELS,
        allow_null=True,
    )
    games = _out(serializers.IntegerField, "Finished games together.")
    wins = _out(
        serializers.IntegerField,
        "Games the player finished ahead (a player who resigned finished behind everybody).",
    )
    losses = _out(serializers.IntegerField, "Games the opponent finished ahead.")
    draws = _out(serializers.IntegerField, "Games with the same place (both resigned, or tied).")


class UserProfileSerializer(serializers.Serializer):
    username = _out(serializers.CharField, "The player's username.")
    display_name = _out(serializers.CharField, "The name other players see.")
    games_played = _out(serializers.IntegerField, "Finished games played.")
    games_won = _out(serializers.IntegerField, "Finished games won (shared wins count).")
    win_rate = _out(
        serializers.FloatField,
        "games_won / games_played, or null before the first game.",
        allow_null=True,
    )
    average_status = _out(
        serializers.FloatField,
        "Average final status over the finished games the player did not resign from "
        "(a resigned seat ends as its bot played it), or null.",
        allow_null=True,
    )
    times_cast_out = _out(
        serializers.IntegerField,
        "Finished games in which the player was cast out (not counting the games they "
        "resigned from).",
    )
    rating = _out(
        serializers.FloatField,
        "The player's rating, 1000 + 40 × (mu − 3 sigma) (OpenSkill Plackett-Luce); "
        "null before the first rated game.",
        allow_null=True,
    )
    rated_games = _out(
        serializers.IntegerField,
        "Rated games finished (unrated: a resignation, a deadline move, a scenario deck).",
    )
    games_resigned = _out(
        serializers.IntegerField,
        "Finished games the player resigned from, or whose seat their host handed to a bot while "
        "they were away.",
    )
    rating_mu = _out(
        serializers.FloatField, "OpenSkill mu (skill estimate), or null.", allow_null=True
    )
    rating_sigma = _out(
        serializers.FloatField, "OpenSkill sigma (its uncertainty), or null.", allow_null=True
    )
    most_won_cards = CardCountSerializer(
        many=True, help_text="Status cards most often won at auction, most first (up to 5)."
    )
    rating_history = RatingPointSerializer(
        many=True, help_text="The rating after each of the last 20 rated games, oldest first."
    )
    recent_games = RecentGameSerializer(
        many=True, help_text="The last 10 finished games, newest first."
    )
    head_to_head = HeadToHeadSerializer(
        many=True,
        help_text="Records against the most frequent opponents (people and bot levels), up to 8.",
    )


class GamePageSerializer(serializers.Serializer):
    count = _out(serializers.IntegerField, "Games matching the filters, on all pages.")
    next = _out(serializers.URLField, "The next page's address, or null.", allow_null=True)
    previous = _out(serializers.URLField, "The previous page's address, or null.", allow_null=True)
    results = GameSummarySerializer(many=True, help_text="The games of this page, newest first.")


# --------------------------------------------------------------------------- chat


class ChatInputSerializer(StrictSerializer):
    text = JsonStringField(
        max_length=2000,
        trim_whitespace=False,
        help_text=(
            "The message: one line, at most 300 characters once line breaks are made "
            "spaces and the ends trimmed."
        ),
    )

    def validate_text(self, value: str) -> str:
        from games.chat import chat_text_clean
        from games.errors import NotAllowed

        try:
            return chat_text_clean(value)
        except NotAllowed as error:
            raise serializers.ValidationError(str(error)) from None


class ChatLineSerializer(serializers.Serializer):
    id = _out(serializers.IntegerField, "The message's id (increasing).")
    author = _out(serializers.CharField, "The author's public name.")
    username = _out(serializers.CharField, "The author's username.")
    text = _out(serializers.CharField, "The message.")
    at = _out(serializers.DateTimeField, "When it was sent.")
    reported = _out(
        serializers.BooleanField,
        "You reported this message to the staff (`POST …/chat/{message_id}/report/`).",
    )


class ChatSerializer(serializers.Serializer):
    game = _out(serializers.IntegerField, "The game's id.")
    messages = ChatLineSerializer(
        many=True,
        help_text=(
            "The latest 50 messages, oldest first, without those of players you have "
            "muted; with `after`, the first 50 after that message."
        ),
    )
    next_after = _out(
        serializers.IntegerField,
        "With `after`: the `after` to ask with for the messages that follow these (more "
        "came than one answer holds); null when these are the latest.",
        allow_null=True,
    )


# --------------------------------------------------------------------------- standing orders


def _cards_once(cards: list[int] | None) -> None:
    """A list of money cards names each once: the schema says ``uniqueItems``, so a
    card named twice is a malformed body (400 ``invalid``), not a rule of the game."""
    cards = cards or []
    twice = next((card for i, card in enumerate(cards) if card in cards[:i]), None)
    if twice is not None:
        raise serializers.ValidationError(
            {
                "cards": [
                    gettext("You listed the %(money)s card twice.") % {"money": money_text(twice)}
                ]
            }
        )


class OrderInputSerializer(StrictSerializer):
    type = serializers.ChoiceField(
        choices=ORDER_TYPES,
        required=False,
        allow_null=True,
        help_text=(
            "pass: pass when your turn comes (in a misfortune auction: take the card); "
            "bid: raise with your cheapest cards while your whole bid stays at most `max` "
            "(in a misfortune auction: pay up to `max` to avoid it), else pass; "
            "sealed_bid: give `card` to the Yacht Club. Null or left out: only `discard`."
        ),
    )
    max = JsonIntegerField(
        min_value=1,
        max_value=MAX_INT,
        required=False,
        help_text="bid only: the most your whole face-up bid may total.",
    )
    cards = serializers.ListField(
        child=JsonIntegerField(min_value=0, max_value=MAX_INT),
        max_length=11,
        required=False,
        allow_null=True,
        help_text="bid only: raise only with these money cards of your hand (null: any).",
    )
    card = JsonIntegerField(
        min_value=0,
        max_value=MAX_INT,
        required=False,
        help_text="sealed_bid only: the money card to give to the Yacht Club.",
    )
    discard = JsonStringField(
        max_length=12,
        required=False,
        allow_null=True,
        help_text=(
            "While Theft is up: the luxury it takes if you get it, `lowest` or a luxury "
            "code such as `lux3`."
        ),
    )

    def validate(self, attrs):
        kind = attrs.get("type")
        if not kind and not attrs.get("discard"):
            raise serializers.ValidationError(
                {"type": [gettext("An order passes, bids, seals a card or names Theft's discard.")]}
            )
        if kind == "bid" and "max" not in attrs:
            raise serializers.ValidationError({"max": [gettext("A bid order gives its maximum.")]})
        if kind != "bid" and ("max" in attrs or attrs.get("cards") is not None):
            raise serializers.ValidationError(
                {
                    "max": [
                        gettext("A %(kind)s order takes no max or cards.")
                        % {"kind": kind or "discard"}
                    ]
                }
            )
        _cards_once(attrs.get("cards"))
        if kind == "sealed_bid" and "card" not in attrs:
            raise serializers.ValidationError(
                {"card": [gettext("A sealed_bid order names one card.")]}
            )
        if kind != "sealed_bid" and "card" in attrs:
            raise serializers.ValidationError(
                {"card": [gettext("A %(kind)s order takes no card.") % {"kind": kind or "discard"}]}
            )
        return attrs

    @staticmethod
    def to_order(data: Mapping[str, Any]) -> Order:
        """The order of validated data (the engine's kinds: ``sealed_bid`` is ``seal``)."""
        kind = {"sealed_bid": "seal"}.get(data.get("type") or "", data.get("type") or "")
        cards = data.get("cards")
        return Order(
            kind=kind,
            maximum=data.get("max"),
            cards=tuple(cards) if cards is not None else None,
            seal=data.get("card"),
            discard=data.get("discard") or "",
        )


class DefaultsSerializer(StrictSerializer):
    luxury_below = JsonIntegerField(
        min_value=LUXURY_BELOW_RANGE[0],
        max_value=LUXURY_BELOW_RANGE[1],
        required=False,
        allow_null=True,
        error_messages=dict.fromkeys(("min_value", "max_value"), LUXURY_BELOW_REFUSED),
        help_text="Pass on every luxury card whose value is below this (2 to 12; null: the player decides).",
    )
    misfortune_max = JsonIntegerField(
        min_value=0,
        max_value=MAX_INT,
        required=False,
        allow_null=True,
        help_text=(
            "In every misfortune auction, pay up to this to avoid the card, else take it "
            "(0: always take it; null: the player decides)."
        ),
    )


class OrdersInputSerializer(StrictSerializer):
    for_card = JsonStringField(
        max_length=20,
        required=False,
        help_text=(
            "The card up for auction that `order` is for (`card` of the game view). "
            "409 when its auction has ended."
        ),
    )
    auction_number = serializers.IntegerField(
        min_value=0,
        max_value=MAX_INT,
        required=False,
        help_text=(
            "Optional: the `auction_number` your order is for (as `GET` answered it). "
            "409 when that auction has ended, also when the same card is up again "
            "(there are three Prestige cards)."
        ),
    )
    order = OrderInputSerializer(
        required=False,
        allow_null=True,
        help_text="The order for that card; null cancels it; left out: unchanged.",
    )
    defaults = DefaultsSerializer(
        required=False,
        allow_null=True,
        help_text=(
            "Orders for every coming auction: each part sent changes (null clears it), a "
            "part left out stays as it is; null clears both."
        ),
    )

    def validate(self, attrs):
        if "order" not in attrs and "defaults" not in attrs:
            raise serializers.ValidationError(
                {"order": [gettext("Send an order, defaults, or both.")]}
            )
        if attrs.get("order") is not None and not attrs.get("for_card"):
            raise serializers.ValidationError(
                {"for_card": [gettext("Name the card up for auction that the order is for.")]}
            )
        return attrs

    def changes(self) -> dict[str, Any]:
        """The service's keyword arguments: only what was sent changes."""
        data, changes = self.validated_data, {}
        if "order" in data:
            given = data["order"]
            changes["card"] = data.get("for_card")
            changes["auction_number"] = data.get("auction_number")
            changes["order"] = None if given is None else OrderInputSerializer.to_order(given)
        if "defaults" in data:
            given = data["defaults"]
            # Only the parts sent change (null clears one); the rest stays as stored.
            changes["defaults"] = None if given is None else dict(given)
        return changes


class OrderSerializer(serializers.Serializer):
    type = _out(
        serializers.ChoiceField,
        "pass, bid or sealed_bid (null: the order only names Theft's discard).",
        choices=ORDER_TYPES,
        allow_null=True,
    )
    max = _out(serializers.IntegerField, "bid: the most the whole bid may total.", allow_null=True)
    cards = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="bid: the only money cards it may add (null: any).",
    )
    card = _out(serializers.IntegerField, "sealed_bid: the money card it gives.", allow_null=True)
    discard = _out(
        serializers.CharField, "Theft's discard: lowest or a luxury code.", allow_null=True
    )


class DefaultsOutSerializer(serializers.Serializer):
    luxury_below = _out(
        serializers.IntegerField, "Passes on luxuries below this value.", allow_null=True
    )
    misfortune_max = _out(
        serializers.IntegerField, "Pays up to this to avoid a misfortune.", allow_null=True
    )


class OrdersSerializer(serializers.Serializer):
    card = _out(
        serializers.CharField,
        "The card up for auction, the one an order is for (null: none).",
        allow_null=True,
    )
    auction = _out(
        serializers.ChoiceField,
        "normal, misfortune or sealed (null: no auction running).",
        choices=["normal", "misfortune", "sealed"],
        allow_null=True,
    )
    auction_number = _out(
        serializers.IntegerField,
        "Which auction this is (the cards revealed so far): send it back with an order "
        "so that it cannot be taken for a later auction of the same card.",
    )
    may_bid = _out(serializers.BooleanField, "A pass or bid order may be left now.")
    may_discard = _out(serializers.BooleanField, "Theft is up: its discard may be ordered.")
    may_seal = _out(serializers.BooleanField, "Your Yacht Club choice may be ordered.")
    order = OrderSerializer(
        allow_null=True, help_text="Your order for `card` (null: none). Only you see it."
    )
    defaults = DefaultsOutSerializer(help_text="Your orders for every coming auction.")


class LeaderboardRowSerializer(serializers.Serializer):
    rank = _out(serializers.IntegerField, "The place on the leaderboard, from 1.")
    username = _out(serializers.CharField, "The player's username (GET /api/v1/users/{it}/).")
    name = _out(serializers.CharField, "The player's name as shown.")
    rating = _out(
        serializers.FloatField,
        "The rating, 1000 + 40 × (mu − 3 sigma) (OpenSkill Plackett-Luce).",
    )
    rated_games = _out(serializers.IntegerField, "Rated games played.")
    games_won = _out(serializers.IntegerField, "Games won, rated or not.")
    games_played = _out(serializers.IntegerField, "Finished games played, rated or not.")


class BotRatingSerializer(serializers.Serializer):
    level = _out(
        serializers.ChoiceField, "The bot level: one rating for all its seats.", choices=AI_LEVELS
    )
    rating = _out(serializers.FloatField, "The level's rating, as the players'.")
    rated_games = _out(serializers.IntegerField, "Rated games its seats played.")


class LeaderboardSerializer(serializers.Serializer):
    count = _out(serializers.IntegerField, "Players on the leaderboard, on all pages.")
    next = _out(serializers.URLField, "The next page's address, or null.", allow_null=True)
    previous = _out(serializers.URLField, "The previous page's address, or null.", allow_null=True)
    results = LeaderboardRowSerializer(many=True, help_text="This page's players, best first.")
    min_games = _out(
        serializers.IntegerField, "Rated games a player needs to appear on the leaderboard."
    )
    bots = BotRatingSerializer(many=True, help_text="Each bot level's rating, best first.")
