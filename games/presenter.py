"""Every sentence a player reads about a game, in one place: the board's headline and
auction title, the log lines, the score breakdown, e-mail subjects and summaries, the
replay's captions.  Nothing else builds these sentences.

Every sentence is translated into the active language (Django's i18n: the request's,
or the recipient's for an e-mail, ``translation.override``); money is written as that
language writes it (``money_text``: 25,000 / 25.000 / 25 000) and cards by their names in
that language (``card_name``).  The engine's own sentences (refusals of a move) arrive as
``games.engine.messages.Message`` and are translated here too (``engine_text``).

Everything here reads the typed read model (``selectors.TableView``, the engine's
``PlayerView`` and events) and returns text; nothing here queries the database or knows
more than the viewer may see.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, npgettext, pgettext, pgettext_lazy

from games.ai.orders import LOWEST, LUXURY_BELOW_RANGE, Order, order_problem, proxy_bid
from games.engine import (
    LUXURY_VALUE,
    LegalSummary,
    StatusStep,
    bid_problem,
    card_kind,
)
from games.engine.messages import Card, Message, Money
from games.read_model import OrdersView, TableOptions, TableView

LOG_LINES = 6  # an e-mail quotes the last six moves of the log

KIND_WORDS = {
    "luxury": pgettext_lazy("kind of card", "Luxury"),
    "prestige": pgettext_lazy("kind of card", "Prestige"),
    "misfortune": pgettext_lazy("kind of card", "Misfortune"),
    "special": pgettext_lazy("kind of card", "Special"),
}
AUCTION_HELP = {
    "normal": gettext_lazy(
        "The highest bid takes it once everyone else has passed. Passing takes your bid back into hand."
    ),
    "misfortune": gettext_lazy(
        "Bid to avoid it. The first player to pass takes it and keeps their money; everyone else loses what they bid."
    ),
    "sealed": gettext_lazy(
        "Everyone with money chooses one card in secret. The highest value chosen by exactly one player wins; every chosen card is spent."
    ),
}
AUCTION_KIND_WORDS = {
    "normal": gettext_lazy("normal auction"),
    "misfortune": gettext_lazy("misfortune: the first to pass takes it"),
    "sealed": gettext_lazy("sealed choices"),
}
DECIDED_BY = {
    "status": gettext_lazy("highest status"),
    "money": gettext_lazy("tied on status, more money"),
    "top luxury": gettext_lazy("tied on status and money, most valuable luxury"),
    "shared": gettext_lazy("tied on status, money and top luxury: a shared win"),
}
# The cards' names as the game's editions print them (the luxuries are "Luxury 1" to
# "Luxury 10"; games.engine.cards.NAMES holds the English ones).
CARD_NAMES = {
    "prestige": pgettext_lazy("card", "Prestige"),
    "scandal": pgettext_lazy("card", "Scandal (½)"),
    "debt": pgettext_lazy("card", "Debt (−5)"),
    "theft": pgettext_lazy("card", "Theft"),
    "gambling": pgettext_lazy("card", "Gambling"),
    "excursions": pgettext_lazy("card", "Excursions"),
    "yacht": pgettext_lazy("card", "Yacht Club"),
}


# --------------------------------------------------------------------------- words


def utc_offset_text(local: datetime) -> str:
    """The offset, as "UTC+1", "UTC+5:30" or "UTC−3": the same in every language (a
    zone's name such as "Europe/Berlin" is not, nor its abbreviation, CET or MEZ)."""
    minutes = int(local.utcoffset().total_seconds() // 60) if local.utcoffset() else 0
    if not minutes:
        return "UTC"
    hours, rest = divmod(abs(minutes), 60)
    sign = "+" if minutes > 0 else "\u2212"
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def moment_text(moment: datetime, zone: tzinfo | None) -> str:
    """A moment as e-mails write it, in ``zone`` (a profile's; None: UTC), marked by its
    offset: "Mon 30 Nov 2026, 05:41 UTC+1"; the day and month names in the active
    language (Django's formatting)."""
    local = moment.astimezone(zone or UTC)
    return f"{date_format(local, 'DATETIME_FORMAT')} {utc_offset_text(local)}"


def printable(text: str) -> str:
    """User input as a message may show it: a control character (a NUL from ``%00``)
    becomes U+FFFD, never a raw byte in the page."""
    return "".join(ch if ch.isprintable() else "\ufffd" for ch in text)


def quoted(value: Any, *, limit: int = 40) -> str:
    """User input quoted in a message, cut short, in the reader's language's quotation
    marks (Python's repr gave 'bob' in every language)."""
    text = printable(value) if isinstance(value, str) else repr(value)
    text = text[:limit] + ("…" if len(text) > limit else "")
    return pgettext("user input quoted in a message", "“%(text)s”") % {"text": text}


def money_text(value: int) -> str:
    """12000 as the active language writes money: '12,000', '12.000', '12 000'."""
    return number_format(value, force_grouping=True)


def status_text(value: float) -> str:
    """A status as the active language writes it, with a real minus sign: -10 ->
    '−10', 7.5 -> '7.5' or '7,5' (the cards, the rating changes and the e-mails write
    '−'; a hyphen beside them looked like another sign)."""
    return minus_sign(number_format(value))


def minus_sign(text: str) -> str:
    """A number written with a hyphen for its sign, with the minus sign instead."""
    return "\u2212" + text[1:] if text.startswith("-") else text


def card_name(card: str) -> str:
    """A card's name in the active language ('Luxury 7', 'Luxus 7', 'Luxe 7')."""
    if card in LUXURY_VALUE and card.startswith("lux"):
        return _("Luxury %(value)s") % {"value": LUXURY_VALUE[card]}
    return str(CARD_NAMES[card])


def engine_text(message: str) -> str:
    """An engine's sentence (a refused move, an order that could never act) in the
    active language: its template translated, its money and cards written in it.  A
    plain ``str`` passes unchanged."""
    if not isinstance(message, Message):
        return str(message)
    params = {
        name: money_text(value)
        if isinstance(value, Money)
        else card_name(value)
        if isinstance(value, Card)
        else value
        for name, value in message.params.items()
    }
    translated = _(message.template)
    return translated % params if params else translated


def join_names(names: list[str] | tuple[str, ...]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy'."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def clauses(parts: Iterable[str]) -> str:
    """Clauses of one sentence, joined by a semicolon as each language writes it
    (French puts a non-breaking space before it)."""
    return pgettext("between the clauses of a sentence", "; ").join(parts)


def cards_text(codes: list[str] | tuple[str, ...]) -> str:
    return ", ".join(card_name(code) for code in codes) or _("none yet")


def cash_text(cards: list[int] | tuple[int, ...]) -> str:
    return " + ".join(money_text(c) for c in cards)


def auction_word(code: str) -> str:
    """Luxury, Prestige, Misfortune, Special or Yacht Club: how the card is auctioned."""
    if code == "yacht":
        return card_name("yacht")
    try:
        return str(KIND_WORDS[card_kind(code)])
    except ValueError:
        return str(KIND_WORDS["special"])


# --------------------------------------------------------------------------- the log


def event_text(event: dict[str, Any], names: list[str] | tuple[str, ...] | None = None) -> str:
    """A public log entry in words, e.g. 'Ann bids 3,000 + 1,000 (total 4,000).'"""

    def who(seat: int) -> str:
        return names[seat] if names else _("Seat %(number)s") % {"number": seat + 1}

    kind = event["type"]
    if kind == "reveal":
        return _("%(who)s reveals %(card)s.") % {
            "who": who(event["seat"]),
            "card": card_name(event["card"]),
        }
    if kind == "bid":
        return _("%(who)s bids %(cards)s (total %(total)s).") % {
            "who": who(event["seat"]),
            "cards": cash_text(event["cards"]),
            "total": money_text(event["total"]),
        }
    if kind == "pass":
        return _("%(who)s passes.") % {"who": who(event["seat"])}
    if kind == "win":
        values = {"who": who(event["seat"]), "card": card_name(event["card"])}
        if event["paid"]:
            return _("%(who)s wins %(card)s for %(cash)s.") % {
                **values,
                "cash": cash_text(event["paid"]),
            }
        return _("%(who)s wins %(card)s for free.") % values
    if kind == "take":
        paid = clauses(
            _("%(who)s pays %(cash)s") % {"who": who(p["seat"]), "cash": cash_text(p["cards"])}
            for p in event["payments"]
        )
        text = _("%(who)s takes %(card)s and keeps their money.") % {
            "who": who(event["seat"]),
            "card": card_name(event["card"]),
        }
        return f"{text} {paid}." if paid else text
    if kind == "return":
        return _("Excursions: %(who)s takes %(money)s back into hand.") % {
            "who": who(event["seat"]),
            "money": money_text(event["card"]),
        }
    if kind == "theft":
        values = {"who": who(event["seat"]), "card": card_name(event["card"])}
        if event["automatic"]:
            return _("Pending Theft: %(who)s loses %(card)s at once.") % values
        # Not "%(who)s's": the mover's name may end in "(standing order)".
        return _("Theft: %(who)s discards %(card)s (their choice).") % values
    if kind == "sealed":
        shown = ", ".join(f"{who(c['seat'])} {money_text(c['card'])}" for c in event["choices"])
        if event["winner"] is None:
            return _(
                "Yacht Club choices: %(shown)s. No value is unique; the Yacht Club leaves the game."
            ) % {"shown": shown or _("nobody could bid")}
        return _("Yacht Club choices: %(shown)s. %(who)s wins the Yacht Club.") % {
            "shown": shown,
            "who": who(event["winner"]),
        }
    if kind == "end":
        return _("%(card)s is the fourth game-end card: the game ends.") % {
            "card": card_name(event["card"])
        }
    raise ValueError(f"Unknown event {kind!r}.")


def move_caption(
    events: list[dict[str, Any]],
    names: tuple[str, ...],
    move: dict | None,
    plain: tuple[str, ...] | None = None,
) -> str:
    """A replay's caption of one move: the public events it caused, or, for a Yacht Club
    choice that was not the last one (it caused none), who chose without the card.
    ``names`` name the mover for who made the move ("Bob (forced)"): its first event, the
    move itself, reads so; what followed from it (winning a card, revealing the next)
    reads under ``plain`` names, when given ("Bob (forced) passes. Bob takes Theft")."""
    sealed = move is not None and move["action"].get("type") == "sealed_bid"
    if sealed and events and events[0]["type"] == "sealed" and plain is not None:
        # The last choice reveals them all.  The reveal names every chooser plainly (a
        # deadline's bot that chose earlier was named on that choice's own line); this
        # choice, when someone else made it, gets a line of its own first, as the
        # others did: the reveal named only it for its maker.
        seat = move["seat"]
        reveal = " ".join(event_text(event, plain) for event in events)
        if names[seat] == plain[seat]:
            return reveal
        chose = _("%(who)s makes a sealed choice for the Yacht Club.") % {"who": names[seat]}
        return f"{chose} {reveal}"
    text = " ".join(
        event_text(event, names if i == 0 or plain is None else plain)
        for i, event in enumerate(events)
    )
    if not text and sealed:
        text = _("%(who)s makes a sealed choice for the Yacht Club.") % {"who": names[move["seat"]]}
    return text or "—"


def action_text(action: dict[str, Any], total: int | None = None) -> str:
    """The player's own move in words (it is theirs: a sealed choice may be named).
    ``total``: a bid's whole total once made (the cards added to what was out already);
    without it, the cards' sum."""
    kind = action.get("type")
    if kind == "bid":
        cards = action.get("cards") or []
        return _("bid %(cards)s (total %(total)s)") % {
            "cards": cash_text(cards),
            "total": money_text(sum(cards) if total is None else total),
        }
    if kind == "pass":
        return _("passed")
    if kind == "discard":
        return _("discarded %(card)s to Theft") % {"card": card_name(action["card"])}
    if kind == "sealed_bid":
        return _("chose %(money)s for the Yacht Club") % {"money": money_text(action["card"])}
    return _("moved")


# --------------------------------------------------------------------------- standing orders


def bot_for(actor: str, level: str, name: str) -> str:
    """Who made a move for a person: a deadline's bot, or the bot of a resigned seat."""
    if actor == "deadline":  # a name that may open a sentence of the log
        return _("Deadline bot for %(name)s") % {"name": name}
    return _("Bot (%(level)s) for %(name)s") % {
        "level": pgettext("bot level", level or "medium"),
        "name": name,
    }


def takeover_text(level: str, name: str) -> str:
    """The log's words when a bot takes a person's seat for good (they resigned, or the
    host handed the seat on)."""
    return _("From here on, a bot (%(level)s) plays for %(name)s.") % {
        "level": pgettext("bot level", level or "medium"),
        "name": name,
    }


def mover_names(names: tuple[str, ...], move: dict[str, Any], seat: Any) -> tuple[str, ...]:
    """The seats' names for one move's words, the mover named for who made it: a bot
    (or a deadline's bot) playing for a person, a standing order, a forced pass.  The
    board's log, the turn e-mails and the replay all name moves this way.  ``seat``:
    the mover's seat (its ``user_id`` and ``ai_level``), or None."""
    who, at, actor = list(names), move["seat"], move["actor"]
    if actor == "bot" and seat is not None and seat.handed_over:
        pass  # "Alex (replaced by a bot)" says who moved; "Bot for …" would say bot twice
    elif actor in ("bot", "deadline") and seat is not None and seat.user_id is not None:
        who[at] = bot_for(actor, seat.ai_level, names[at])
    elif actor == "order":
        who[at] = order_actor(names[at])
    elif actor == "forced":
        who[at] = forced_actor(names[at])
    return tuple(who)


def forced_actor(name: str) -> str:
    """Who made a pass the rules forced (no bid of theirs could beat the high bid), in
    the log: the server played it at once."""
    return _("%(name)s (forced)") % {"name": name}


def order_actor(name: str) -> str:
    """Who made a move that a standing order made, in the log and the replay."""
    return _("%(name)s (standing order)") % {"name": name}


def order_text(order: Order, card: str | None, auction: str | None) -> str:
    """The owner's order for the card up, in words ("Bid up to 14,000 for Luxury 7")."""
    parts = []
    what = card_name(card) if card else _("this card")
    if order.kind == "pass":
        parts.append(
            _("Pass and take %(card)s") % {"card": what}
            if auction == "misfortune"
            else _("Pass on %(card)s") % {"card": what}
        )
    elif order.kind == "bid":
        values = {"maximum": money_text(order.maximum or 0), "card": what}
        if order.cards:
            values["cash"] = cash_text(order.cards)
            if auction == "misfortune":
                parts.append(
                    _("Pay up to %(maximum)s to avoid %(card)s, only with %(cash)s") % values
                )
            else:
                parts.append(_("Bid up to %(maximum)s for %(card)s, only with %(cash)s") % values)
        elif auction == "misfortune":
            parts.append(_("Pay up to %(maximum)s to avoid %(card)s") % values)
        else:
            parts.append(_("Bid up to %(maximum)s for %(card)s") % values)
    elif order.kind == "seal" and order.seal is not None:
        parts.append(_("Give %(money)s to the Yacht Club") % {"money": money_text(order.seal)})
    if order.discard:
        if order.discard == LOWEST:
            parts.append(_("if you take Theft, discard your lowest luxury"))
        else:
            parts.append(
                _("if you take Theft, discard %(card)s") % {"card": card_name(order.discard)}
            )
    text = clauses(parts)
    return text[:1].upper() + text[1:] + "."


def defaults_lines(orders: OrdersView) -> list[str]:
    """The owner's standing defaults for coming auctions, one sentence each."""
    lines = []
    below = orders.defaults.luxury_below
    if below is not None:
        lines.append(_("Pass on every luxury below %(value)s.") % {"value": below})
    most = orders.defaults.misfortune_max
    if most is not None:
        lines.append(
            _("Pay up to %(money)s to avoid a misfortune, else take it.")
            % {"money": money_text(most)}
            if most
            else _("Never pay to avoid a misfortune: take it.")
        )
    return lines


def orders_words(orders: OrdersView) -> dict[str, Any]:
    """The board's sentences about the viewer's own orders."""
    card = card_name(orders.card) if orders.card else ""
    return {
        "order_line": order_text(orders.order, orders.card, orders.auction)
        if orders.order is not None
        else None,
        "defaults_lines": defaults_lines(orders),
        "order_bid_label": (
            _("pay up to this to avoid %(card)s") % {"card": card}
            if orders.auction == "misfortune"
            else _("bid up to")
        ),
        "order_pass_label": (
            _("pass and take %(card)s") % {"card": card}
            if orders.auction == "misfortune"
            else _("pass on %(card)s") % {"card": card}
        ),
        "discard_choices": [(code, card_name(code)) for code in orders.luxuries],
        "luxury_below_choices": list(range(LUXURY_BELOW_RANGE[0], LUXURY_BELOW_RANGE[1] + 1)),
    }


def order_preview(
    view: TableView, maximum: int | None, cards: list[int] | None
) -> tuple[bool, str]:
    """What a proxy bid up to ``maximum`` would do now, as its owner types it: refused
    with the very sentence setting it would give (``order_problem``), on one's turn or
    not, else what it would do."""
    state = view.state
    if state is None or view.your_seat is None or state.phase != "auction":
        return False, _("There is no auction to bid in now.")
    if maximum is None or maximum <= 0:
        return False, _("Give the most your bid may total.")
    order = Order(kind="bid", maximum=maximum, cards=None if cards is None else tuple(cards))
    problem = order_problem(state, order)
    if problem:
        return False, engine_text(problem)
    me = state.seats[view.your_seat]
    # A misfortune's pass takes the card: the preview says so, by its name.
    misfortune = card_name(state.card) if state.auction == "misfortune" else None
    if view.my_turn:
        added = proxy_bid(state, maximum, cards)
        values = {
            "cash": cash_text(added),
            "total": money_text(me.bid_total + sum(added)),
            "maximum": money_text(maximum),
            "card": misfortune,
        }
        if misfortune:
            return True, _(
                "Now it would add %(cash)s (total %(total)s), and raise again up to "
                "%(maximum)s when you are outbid; above that it passes and you take %(card)s."
            ) % values
        return True, _(
            "Now it would add %(cash)s (total %(total)s), and raise again up to %(maximum)s "
            "when you are outbid."
        ) % values
    if misfortune:
        return True, _(
            "When your turn comes it pays with your cheapest cards, up to a total of "
            "%(maximum)s, to avoid %(card)s; above that it passes and you take %(card)s."
        ) % {"maximum": money_text(maximum), "card": misfortune}
    return True, _(
        "When your turn comes it raises with your cheapest cards, up to a total of "
        "%(maximum)s; above that it passes."
    ) % {"maximum": money_text(maximum)}


# --------------------------------------------------------------------------- the board


@dataclass(frozen=True, slots=True)
class Headline:
    """The board's banner: whose turn in words, and how the current auction works."""

    text: str
    tone: str  # "you" (your turn), "wait", "over"
    tray: str | None  # the action bar to show: bid, theft, sealed, sealed_done, watch
    auction_title: str
    auction_help: str
    high_bid_text: str
    # A danger to the reader beside the card: their pending Theft takes the luxury up.
    warning: str = ""


def headline(view: TableView) -> Headline:
    """The headline of a started table, for the board and the e-mails alike."""
    state = view.state
    names = view.names
    phase, card, kind = state.phase, state.card, state.auction
    to_act = list(state.to_act)
    waiting = join_names([names[s] for s in to_act if s < len(names)])
    title, help_text = "", ""
    if card:
        if kind == "sealed":
            title = _("Yacht Club — sealed choice")
        elif kind == "misfortune":
            title = _("Misfortune — the first to pass takes it")
        else:
            title = _("%(kind)s — normal auction") % {"kind": auction_word(card)}
        help_text = str(AUCTION_HELP.get(kind or "", ""))
    high = state.high_bid
    leaders = [row.seat for row in state.seats if high and row.bid_total == high]
    high_text = (
        _("Highest bid %(money)s · %(who)s") % {"money": money_text(high), "who": names[leaders[0]]}
        if leaders
        else _("No bids yet")
    )

    def done(text: str, tone: str, tray: str | None = None) -> Headline:
        if text.endswith(".."):  # a name that ends the sentence ends with its own stop
            text = text[:-1]
        return Headline(text, tone, tray, title, help_text, high_text, warning)

    warning = ""
    you = view.your_seat
    if (
        you is not None
        and phase in ("auction", "sealed")
        and card in LUXURY_VALUE
        and state.seats[you].theft_pending
    ):
        warning = _(
            "Your Theft is pending: win %(card)s and it leaves the game at once, with Theft."
        ) % {"card": card_name(card)}

    if phase == "over":
        resigned = {seat.position for seat in view.seats_info if seat.resigned}
        first = [row.seat for row in view.score or () if row.details["winner"]]
        winners = [names[seat] for seat in first if seat not in resigned]
        handed = {seat.position for seat in view.seats_info if seat.handed_over}
        bots = [  # "Alex (replaced by a bot)" says it already: no "the bot playing for"
            names[seat]
            if seat in handed
            else _("the bot playing for %(name)s") % {"name": names[seat]}
            for seat in first
            if seat in resigned
        ]
        if not first:
            return done(
                _("The game is over: everyone tied for the least money, so nobody wins."), "over"
            )
        if not winners:  # a bot in a resigned player's seat: no player wins
            return done(
                _("The game is over: %(bots)s finishes first.") % {"bots": join_names(bots)},
                "over",
            )
        if len(winners) == 1:
            if first == [view.your_seat]:  # the reader: on the board, in their e-mails
                return done(_("The game is over: you win."), "over")
            return done(_("The game is over: %(name)s wins.") % {"name": winners[0]}, "over")
        return done(
            _("The game is over: %(names)s share the win.") % {"names": join_names(winners)},
            "over",
        )
    if phase == "theft":
        owner = names[to_act[0]] if to_act else _("Theft's owner")
        if to_act and to_act[0] == view.your_seat:
            title = _("Theft — you discard a luxury")
        else:
            title = _("Theft — %(owner)s discards a luxury") % {"owner": owner}
        help_text = _(
            "Theft's new owner chooses one of their luxury cards; it leaves the game with Theft."
        )
    if view.my_turn:
        if phase == "theft":
            return done(
                _("Your turn: choose one of your luxuries for Theft to discard."), "you", "theft"
            )
        if phase == "sealed":
            return done(_("Yacht Club: choose one money card in secret."), "you", "sealed")
        if kind == "misfortune" and view.legal.to_beat:
            return done(
                _("Your turn: bid more than %(to_beat)s to avoid %(card)s, or pass and take it.")
                % {"to_beat": money_text(view.legal.to_beat), "card": card_name(card)},
                "you",
                "bid",
            )
        if kind == "misfortune":
            return done(
                _("Your turn: bid to avoid %(card)s, or pass and take it.")
                % {"card": card_name(card)},
                "you",
                "bid",
            )
        if view.legal.to_beat:
            return done(
                _("Your turn: bid more than %(to_beat)s for %(card)s, or pass.")
                % {"to_beat": money_text(view.legal.to_beat), "card": card_name(card)},
                "you",
                "bid",
            )
        return done(
            _("Your turn: bid for %(card)s, or pass.") % {"card": card_name(card)}, "you", "bid"
        )
    seated = view.your_seat is not None
    if phase == "sealed":
        if seated and state.sealed_choice:
            return done(
                _("You chose %(money)s. Waiting for %(names)s to choose.")
                % {"money": money_text(state.sealed_choice), "names": waiting},
                "wait",
                "sealed_done",
            )
        return done(
            _("Waiting for %(names)s to choose a card for the Yacht Club.") % {"names": waiting},
            "wait",
            "watch" if seated else None,
        )
    return done(
        _("Waiting for %(names)s.") % {"names": waiting} if waiting else _("Waiting."),
        "wait",
        "watch" if seated else None,
    )


def bid_preview(legal: LegalSummary | None, cards: list[int]) -> tuple[bool, str]:
    """What a bid of ``cards`` would do, before the player confirms it: the engine's own
    checks and sentences (``bid_problem``), or the total it would reach."""
    if legal is None or not legal.can_bid and not legal.can_pass:
        return False, _("It is not your turn to bid.")
    problem = bid_problem(legal.hand, legal.current_bid, legal.to_beat, cards)
    if problem is not None:
        return False, engine_text(problem)
    total = legal.current_bid + sum(cards)
    if legal.to_beat:
        return True, _("Your bid would total %(total)s — beats %(to_beat)s.") % {
            "total": money_text(total),
            "to_beat": money_text(legal.to_beat),
        }
    return True, _("Your bid would total %(total)s — the opening bid.") % {
        "total": money_text(total)
    }


def steps_text(steps: tuple[StatusStep, ...]) -> list[str]:
    """How a status was reached, step by step, in the scoring order (nothing for a
    player without status cards: "none" says it, "Luxuries 0" beside it did not)."""
    if all(step.kind == "luxuries" and not step.operand for step in steps):
        return []
    lines = []
    before = 0  # the status the step started from
    for step in steps:
        if step.kind == "luxuries":
            values = step.operand
            if len(values) > 1:
                line = _("Luxuries %(values)s = %(status)s") % {
                    "values": " + ".join(map(str, values)),
                    "status": status_text(step.status),
                }
            elif values:  # one card: "Luxury 9", not "Luxuries 9"
                line = pgettext("status step", "Luxury %(status)s") % {
                    "status": status_text(step.status)
                }
            else:
                line = _("Luxuries %(status)s") % {"status": status_text(step.status)}
            lines.append(line)
        elif step.kind == "debt":
            lines.append(
                _("Debt −%(operand)s → %(status)s")
                % {"operand": step.operand, "status": status_text(step.status)}
            )
        elif step.kind == "prestige":
            lines.append(
                _("Prestige ×%(operand)s → %(status)s")
                % {"operand": step.operand, "status": status_text(step.status)}
            )
        elif step.kind == "scandal":
            if before % 2:  # an odd status: the rules round the half down
                said = _("Scandal ½ → %(status)s (rounded down)")
            else:
                said = _("Scandal ½ → %(status)s")
            lines.append(said % {"status": status_text(step.status)})
        before = step.status
    return lines


def score_lines(view: TableView) -> list[dict[str, Any]]:
    """The final scores as the board shows them: winners first, then by status."""
    names = view.names
    resigned = {seat.position for seat in view.seats_info if seat.resigned}
    bots = {seat.position for seat in view.seats_info if seat.is_bot}
    rows = []
    for row in view.score or ():
        details = row.details
        rows.append(
            {
                **details,
                "seat": row.seat,
                "name": names[row.seat]
                if row.seat < len(names)
                else _("Seat %(number)s") % {"number": row.seat + 1},
                "steps": steps_text(row.steps),
                "cards": [
                    *(details.get("luxuries") or []),
                    *(["debt"] if details.get("debt") else []),
                    *(["prestige"] * int(details.get("prestige") or 0)),
                    *(["scandal"] if details.get("scandal") else []),
                    *(["gambling"] if details.get("gambling") else []),
                ],
                "decided": str(DECIDED_BY.get(details.get("decided_by") or "", "")),
                "is_you": row.seat == view.your_seat,
                "is_bot": row.seat in bots,
                # A resigned player's seat that finished first: the bot's result, not theirs.
                "bot_first": bool(details.get("winner")) and row.seat in resigned,
            }
        )

    # Places as the records count them (ties share a place; the next place skips).
    for row, place in zip(rows, view.places, strict=True):
        row["place"] = place
    rows.sort(key=lambda r: (r["place"], -r["status"], -r["money"]))
    return rows


def your_result(view: TableView) -> str:
    """Under the end's headline (which names the winner), how the reader did when they
    played their seat to the end without winning: their place, or that they were cast
    out.  Nothing for a winner (the headline says it), a visitor, or a seat a bot
    finished for its player (resigned, handed over: the board says so already)."""
    seat = view.your_seat
    row = next((row for row in view.score or () if row.seat == seat), None)
    if seat is None or row is None or row.details.get("winner"):
        return ""
    if any(s.position == seat and (s.resigned or s.handed_over) for s in view.seats_info):
        return ""
    if row.details.get("cast_out"):
        return _("You were cast out: you ended with the least money.")
    return _("Your place: %(place)s of %(of)s.") % {
        "place": view.places[seat],
        "of": len(view.seats_info),
    }


# --------------------------------------------------------------------------- e-mails


def table_option_words(options: TableOptions) -> list[str]:
    """A table's options in words, for an invitation."""
    hours = options.move_deadline_hours
    days = hours // 24 if hours else 0
    words = [
        _("%(count)s players") % {"count": options.players},
        ngettext("%(count)s day per move", "%(count)s days per move", days) % {"count": days}
        if hours
        else _("no move deadline"),
    ]
    if options.advanced:
        words.append(
            _("advanced cards: %(cards)s")
            % {"cards": ", ".join(card_name(c) for c in options.advanced)}
        )
    if options.memory_aid:
        words.append(_("memory aid on"))
    return words


def waiting_seat_lines(view: TableView) -> list[str]:
    """The seats of a waiting table, one line each ("Seat 3: Carol, invited"), named
    as in the lobby, for an e-mail."""
    lines = []
    for number, seat in enumerate(view.seats_info, start=1):
        if seat.is_you:
            who = _("You")
        elif seat.is_open:
            who = pgettext("seat", "open")
        elif seat.held and seat.declined_by_name:  # the host's view: who, as the page says
            said = _("%(name)s left") if seat.left else _("%(name)s declined")
            who = said % {"name": seat.declined_by_name}
        elif seat.held and seat.left:
            who = pgettext("seat", "left by its player")
        elif seat.held:
            who = pgettext("seat", "invitation declined")
        elif seat.invited:
            who = _("%(name)s, invited") % {"name": seat.display_name}
        else:
            who = seat.display_name
        lines.append(_("Seat %(number)s: %(who)s") % {"number": number, "who": who})
    return lines


def email_subject(
    kind: str, *, game_id: int | None = None, due_in: str = "", count: int = 0, who: str = ""
) -> str:
    if kind == "invitation":
        return _("%(who)s invites you to table %(table)s") % {"who": who, "table": game_id}
    if kind == "declined":
        return _("%(who)s declined your invitation to table %(table)s") % {
            "who": who,
            "table": game_id,
        }
    if kind == "left":  # a declined row whose player had accepted, then left
        return _("%(who)s left table %(table)s") % {"who": who, "table": game_id}
    if kind == "game_over":
        return _("The game at table %(table)s is over") % {"table": game_id}
    if kind == "handed_over":
        return _("%(who)s handed your seat at table %(table)s to a bot") % {
            "who": who,
            "table": game_id,
        }
    if kind == "closed" and who:
        return _("%(who)s closed table %(table)s before its game started") % {
            "who": who,
            "table": game_id,
        }
    if kind == "closed":
        return _("Table %(table)s closed before its game started") % {"table": game_id}
    if kind == "turn":
        return _("Your turn at table %(table)s") % {"table": game_id}
    if kind == "reminder":
        return _("Reminder: your move at table %(table)s is due %(due_in)s") % {
            "table": game_id,
            "due_in": due_in,
        }
    if kind == "idle":  # a reminder at a table without move deadlines
        return _("Reminder: table %(table)s is waiting for your move") % {"table": game_id}
    if kind == "deadline":
        return _("A bot made your move at table %(table)s") % {"table": game_id}
    if kind == "digest":
        return ngettext(
            "%(count)s game waiting for your move", "%(count)s games waiting for your move", count
        ) % {"count": count}
    raise ValueError(f"Unknown e-mail {kind!r}.")


def push_text(kind: str, view: TableView, *, due_in: str = "", who: str = "") -> tuple[str, str]:
    """(title, body) of a Web Push notification about one game, from the player's own
    view only: the e-mail's subject and the board's headline (an invitation: the
    table's options)."""
    if kind == "reminder" and not view.options.move_deadline_hours:
        kind = "idle"  # no deadline: the reminder of the host's hand-over moment
    title = email_subject(kind, game_id=view.id, due_in=due_in, who=who)
    if kind == "invitation":
        options = ", ".join(table_option_words(view.options))
        body = _("A table of %(options)s.") % {"options": options}
    elif kind in ("declined", "left"):
        body = _("The seat waits for you: give it to a bot, invite someone else, or open it.")
    elif kind == "handed_over":
        body = (
            _("You missed your deadlines: a bot plays your seat to the end of the game.")
            if view.options.move_deadline_hours
            else _("The table waited days for your move: a bot plays your seat to the end.")
        )
    elif kind == "idle":
        body = _("Move soon, or its host may hand your seat to a bot.")
    elif kind == "closed":
        body = _("This table was closed before its game started.")
    else:
        body = headline(view).text
    return title, body


MINUTES_BELOW = 3  # hours left under which the time left says its minutes too


def due_in(deadline: datetime, now: datetime) -> str:
    """How long until ``deadline``, as the board counts it: days and hours from a day
    on ("in 2 days and 23 hours", not a rounded-down "in 2 days"), else hours, with
    the minutes too below ``MINUTES_BELOW`` ("in 1 hour and 59 minutes", not "in 1
    hour"), else minutes.  Never more than is left."""
    left = max(deadline - now, timedelta(0))
    hours = int(left.total_seconds() // 3600)
    if hours >= 24:
        days, rest = divmod(hours, 24)
        words = {
            "days": npgettext("time left", "%(count)s day", "%(count)s days", days)
            % {"count": days},
            "hours": npgettext("time left", "%(count)s hour", "%(count)s hours", rest)
            % {"count": rest},
        }
        return _("in %(days)s") % words if rest == 0 else _("in %(days)s and %(hours)s") % words
    minutes = int(left.total_seconds() // 60) % 60
    if hours >= 1 and (hours >= MINUTES_BELOW or minutes == 0):
        return ngettext("in %(count)s hour", "in %(count)s hours", hours) % {"count": hours}
    if hours >= 1:
        words = {
            "hours": npgettext("time left", "%(count)s hour", "%(count)s hours", hours)
            % {"count": hours},
            "minutes": npgettext("time left", "%(count)s minute", "%(count)s minutes", minutes)
            % {"count": minutes},
        }
        return _("in %(hours)s and %(minutes)s") % words
    if minutes == 0:
        return _("in less than a minute")
    return ngettext("in %(count)s minute", "in %(count)s minutes", minutes) % {"count": minutes}


def turn_due_text(deadline: datetime | None, now: datetime) -> str:
    """When a move waiting for the player is due, for the lobby's list of their games
    ("Move due in 23 hours"), so the most urgent of several stands out; "" without a
    deadline."""
    if deadline is None:
        return ""
    if deadline <= now:
        return _("Time is up for this move: a bot plays it shortly.")
    return _("Move due %(when)s") % {"when": due_in(deadline, now)}


def game_facts(view: TableView) -> list[str]:
    """One game in sentences for an e-mail, from the player's own view only."""
    state = view.state
    names = view.names
    you = view.your_seat
    phase, card, kind = state.phase, state.card, state.auction
    facts: list[str] = []
    if card and phase in ("auction", "sealed"):
        what = AUCTION_KIND_WORDS.get(kind or "", pgettext("kind of sale", "auction"))
        facts.append(
            _("Up for auction: %(card)s (%(what)s).") % {"card": card_name(card), "what": what}
        )
    high = state.high_bid
    if phase == "auction":
        leaders = [row.seat for row in state.seats if high and row.bid_total == high]
        facts.append(
            _("Highest bid: %(money)s by %(who)s.")
            % {"money": money_text(high), "who": names[leaders[0]]}
            if leaders
            else _("No bids yet.")
        )
    if you is not None:
        hand = state.hand or ()
        facts.append(
            _("Your money: %(cards)s (total %(total)s).")
            % {
                "cards": ", ".join(money_text(v) for v in hand) or _("none"),
                "total": money_text(sum(hand)),
            }
        )
        mine = state.seats[you]
        if phase == "auction" and mine.bid_total:
            facts.append(_("Your bid so far: %(money)s.") % {"money": money_text(mine.bid_total)})
        facts.append(_("Your status cards: %(cards)s.") % {"cards": cards_text(mine.cards)})
        if phase == "theft" and view.legal is not None and view.legal.discard_choices:
            facts.append(
                _("Your luxuries: %(cards)s.")
                % {
                    "cards": ", ".join(
                        card_name(c) for c in view.legal.discard_choices if c in LUXURY_VALUE
                    )
                }
            )
    for row in state.seats:
        if row.seat == you:
            continue
        facts.append(
            ngettext(
                "%(name)s: %(cards)s; %(count)s money card in hand.",
                "%(name)s: %(cards)s; %(count)s money cards in hand.",
                row.hand_count,
            )
            % {"name": names[row.seat], "cards": cards_text(row.cards), "count": row.hand_count}
        )
    facts.append(
        _("Game-end cards seen: %(seen)s of %(total)s; %(left)s cards left in the deck.")
        % {
            "seen": state.game_end_revealed,
            "total": state.game_end_total,
            "left": state.deck_remaining,
        }
    )
    return facts


def away_lines(view: TableView, zone: tzinfo = UTC) -> list[str]:
    """Who at the table is on vacation, and until when, with the date as the rest of
    the e-mail writes dates, in the reader's ``zone`` (a vacation ending at 20:30 UTC
    ends the next day in Auckland); the reader's own vacation in the second person."""
    lines = []
    for seat in view.seats_info:
        if seat.vacation_until is None:
            continue
        date = date_format(seat.vacation_until.astimezone(zone), "DATE_FORMAT")
        if seat.position == view.your_seat:
            lines.append(_("You are on vacation until %(date)s.") % {"date": date})
        else:
            lines.append(
                _("%(name)s is on vacation until %(date)s.")
                % {"name": seat.display_name, "date": date}
            )
    return lines
