"""Every sentence a player reads about a game, in one place: the board's headline and
auction title, the log lines, the score breakdown, e-mail subjects and summaries, the
replay's captions.  Nothing else builds these sentences.

Everything here reads the typed read model (``selectors.TableView``, the engine's
``PlayerView`` and events) and returns text; nothing here queries the database or knows
more than the viewer may see.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from games.engine import (
    LUXURY_VALUE,
    LegalSummary,
    StatusStep,
    bid_problem,
    card_kind,
    card_name,
    final_ranking,
    money_text,
)
from games.read_model import TableOptions, TableView

LOG_LINES = 6  # an e-mail quotes the last six lines of the log

KIND_WORDS = {
    "luxury": "Luxury",
    "prestige": "Prestige",
    "misfortune": "Misfortune",
    "special": "Special",
}
AUCTION_HELP = {
    "normal": "The highest bid takes it once everyone else has passed. Passing takes your bid back into hand.",
    "misfortune": "Bid to avoid it. The first player to pass takes it and keeps their money; everyone else loses what they bid.",
    "sealed": "Everyone with money chooses one card in secret. The highest value chosen by exactly one player wins; every chosen card is spent.",
}
AUCTION_KIND_WORDS = {
    "normal": "normal auction",
    "misfortune": "misfortune: the first to pass takes it",
    "sealed": "sealed choices",
}
DECIDED_BY = {
    "status": "highest status",
    "money": "tied on status, more money",
    "top luxury": "tied on status and money, most valuable luxury",
    "shared": "tied on status, money and top luxury: a shared win",
}


# --------------------------------------------------------------------------- words


def join_names(names: list[str] | tuple[str, ...]) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy'."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def cards_text(codes: list[str] | tuple[str, ...]) -> str:
    return ", ".join(card_name(code) for code in codes) or "none yet"


def cash_text(cards: list[int] | tuple[int, ...]) -> str:
    return " + ".join(money_text(c) for c in cards)


def auction_word(code: str) -> str:
    """Luxury, Prestige, Misfortune, Special or Yacht Club: how the card is auctioned."""
    if code == "yacht":
        return "Yacht Club"
    try:
        return KIND_WORDS[card_kind(code)]
    except ValueError:
        return "Special"


# --------------------------------------------------------------------------- the log


def event_text(event: dict[str, Any], names: list[str] | tuple[str, ...] | None = None) -> str:
    """A public log entry in words, e.g. 'Ann bids 3,000 + 1,000 (total 4,000).'"""

    def who(seat: int) -> str:
        return names[seat] if names else f"Seat {seat + 1}"

    kind = event["type"]
    if kind == "reveal":
        return f"{who(event['seat'])} reveals {card_name(event['card'])}."
    if kind == "bid":
        return f"{who(event['seat'])} bids {cash_text(event['cards'])} (total {money_text(event['total'])})."
    if kind == "pass":
        return f"{who(event['seat'])} passes."
    if kind == "win":
        paid = f"for {cash_text(event['paid'])}" if event["paid"] else "for free"
        return f"{who(event['seat'])} wins {card_name(event['card'])} {paid}."
    if kind == "take":
        paid = "; ".join(
            f"{who(p['seat'])} pays {cash_text(p['cards'])}" for p in event["payments"]
        )
        text = f"{who(event['seat'])} takes {card_name(event['card'])} and keeps their money."
        return f"{text} {paid}." if paid else text
    if kind == "return":
        return f"Excursions: {who(event['seat'])} takes {money_text(event['card'])} back into hand."
    if kind == "theft":
        how = "at once (pending Theft)" if event["automatic"] else "by choice"
        return f"Theft removes {who(event['seat'])}'s {card_name(event['card'])} {how}."
    if kind == "sealed":
        shown = ", ".join(f"{who(c['seat'])} {money_text(c['card'])}" for c in event["choices"])
        if event["winner"] is None:
            return f"Yacht Club choices: {shown or 'nobody could bid'}. No value is unique; the Yacht Club leaves the game."
        return f"Yacht Club choices: {shown}. {who(event['winner'])} wins the Yacht Club."
    if kind == "end":
        return f"{card_name(event['card'])} is the fourth game-end card: the game ends."
    raise ValueError(f"Unknown event {kind!r}.")


def move_caption(events: list[dict[str, Any]], names: tuple[str, ...], move: dict | None) -> str:
    """A replay's caption of one move: the public events it caused, or, for a Yacht Club
    choice that was not the last one (it caused none), who chose without the card."""
    text = " ".join(event_text(event, names) for event in events)
    if not text and move is not None and move["action"].get("type") == "sealed_bid":
        text = f"{names[move['seat']]} makes a sealed choice for the Yacht Club."
    return text or "—"


def action_text(action: dict[str, Any]) -> str:
    """The player's own move in words (it is theirs: a sealed choice may be named)."""
    kind = action.get("type")
    if kind == "bid":
        cards = action.get("cards") or []
        return f"bid {cash_text(cards)} (total {money_text(sum(cards))})"
    if kind == "pass":
        return "passed"
    if kind == "discard":
        return f"discarded {card_name(action['card'])} to Theft"
    if kind == "sealed_bid":
        return f"chose {money_text(action['card'])} for the Yacht Club"
    return "moved"


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
            title = "Yacht Club — sealed choice"
        elif kind == "misfortune":
            title = "Misfortune — the first to pass takes it"
        else:
            title = f"{auction_word(card)} — normal auction"
        help_text = AUCTION_HELP.get(kind or "", "")
    high = state.high_bid
    leaders = [row.seat for row in state.seats if high and row.bid_total == high]
    high_text = (
        f"Highest bid {money_text(high)} · {names[leaders[0]]}" if leaders else "No bids yet"
    )

    def done(text: str, tone: str, tray: str | None = None) -> Headline:
        return Headline(text, tone, tray, title, help_text, high_text)

    if phase == "over":
        resigned = {seat.position for seat in view.seats_info if seat.resigned}
        first = [row.seat for row in view.score or () if row.details["winner"]]
        winners = [names[seat] for seat in first if seat not in resigned]
        bots = [f"the bot playing for {names[seat]}" for seat in first if seat in resigned]
        if not first:
            return done(
                "The game is over: everyone tied for the least money, so nobody wins.", "over"
            )
        if not winners:  # a bot in a resigned player's seat: no player wins
            return done(f"The game is over: {join_names(bots)} finishes first.", "over")
        if len(winners) == 1:
            return done(f"The game is over: {winners[0]} wins.", "over")
        return done(f"The game is over: {join_names(winners)} share the win.", "over")
    if phase == "theft":
        owner = names[to_act[0]] if to_act else "Theft's owner"
        title = f"Theft — {owner} discards a luxury"
        help_text = (
            "Theft's new owner chooses one of their luxury cards; it leaves the game with Theft."
        )
    if view.my_turn:
        if phase == "theft":
            return done("Theft: choose one of your luxuries to discard.", "you", "theft")
        if phase == "sealed":
            return done("Yacht Club: choose one money card in secret.", "you", "sealed")
        if kind == "misfortune":
            return done(
                f"Your turn: bid to avoid {card_name(card)}, or pass and take it.", "you", "bid"
            )
        beat = f" more than {money_text(view.legal.to_beat)}" if view.legal.to_beat else ""
        return done(f"Your turn: bid{beat} for {card_name(card)}, or pass.", "you", "bid")
    seated = view.your_seat is not None
    if phase == "sealed":
        if seated and state.sealed_choice:
            return done(
                f"You chose {money_text(state.sealed_choice)}. Waiting for {waiting} to choose.",
                "wait",
                "sealed_done",
            )
        return done(
            f"Waiting for {waiting} to choose a card for the Yacht Club.",
            "wait",
            "watch" if seated else None,
        )
    return done(
        f"Waiting for {waiting}." if waiting else "Waiting.", "wait", "watch" if seated else None
    )


def bid_preview(legal: LegalSummary | None, cards: list[int]) -> tuple[bool, str]:
    """What a bid of ``cards`` would do, before the player confirms it: the engine's own
    checks and sentences (``bid_problem``), or the total it would reach."""
    if legal is None or not legal.can_bid and not legal.can_pass:
        return False, "It is not your turn to bid."
    problem = bid_problem(legal.hand, legal.current_bid, legal.to_beat, cards)
    if problem is not None:
        return False, problem
    total = legal.current_bid + sum(cards)
    beats = f"beats {money_text(legal.to_beat)}" if legal.to_beat else "the opening bid"
    return True, f"Your bid would total {money_text(total)} — {beats}."


def steps_text(steps: tuple[StatusStep, ...]) -> list[str]:
    """How a status was reached, step by step, in the scoring order."""
    lines = []
    for step in steps:
        if step.kind == "luxuries":
            values = step.operand
            lines.append(
                f"Luxuries {' + '.join(map(str, values))} = {step.status}"
                if len(values) > 1
                else f"Luxuries {step.status}"
            )
        elif step.kind == "debt":
            lines.append(f"Debt −{step.operand} → {step.status}")
        elif step.kind == "prestige":
            lines.append(f"Prestige ×{step.operand} → {step.status}")
        elif step.kind == "scandal":
            lines.append(f"Scandal ½ → {step.status}")
    return lines


def score_lines(view: TableView) -> list[dict[str, Any]]:
    """The final scores as the board shows them: winners first, then by status."""
    names = view.names
    resigned = {seat.position for seat in view.seats_info if seat.resigned}
    rows = []
    for row in view.score or ():
        details = row.details
        rows.append(
            {
                **details,
                "seat": row.seat,
                "name": names[row.seat] if row.seat < len(names) else f"Seat {row.seat + 1}",
                "steps": steps_text(row.steps),
                "cards": [
                    *(details.get("luxuries") or []),
                    *(["debt"] if details.get("debt") else []),
                    *(["prestige"] * int(details.get("prestige") or 0)),
                    *(["scandal"] if details.get("scandal") else []),
                    *(["gambling"] if details.get("gambling") else []),
                ],
                "decided": DECIDED_BY.get(details.get("decided_by") or "", ""),
                "is_you": row.seat == view.your_seat,
                # A resigned player's seat that finished first: the bot's result, not theirs.
                "bot_first": bool(details.get("winner")) and row.seat in resigned,
            }
        )

    # Places as the records count them (ties share a place; the next place skips).
    places = final_ranking([dict(row.details) for row in view.score or ()])
    for row, place in zip(rows, places, strict=True):
        row["place"] = place
    rows.sort(key=lambda r: (r["place"], -r["status"], -r["money"]))
    return rows


# --------------------------------------------------------------------------- e-mails


def table_option_words(options: TableOptions) -> list[str]:
    """A table's options in words, for an invitation."""
    hours = options.move_deadline_hours
    days = hours // 24 if hours else 0
    words = [
        f"{options.players} players",
        f"{days} day{'s' if days != 1 else ''} per move" if hours else "no move deadline",
    ]
    if options.advanced:
        words.append("advanced cards: " + ", ".join(card_name(c) for c in options.advanced))
    if options.memory_aid:
        words.append("memory aid on")
    return words


def email_subject(
    kind: str, *, game_id: int | None = None, due_in: str = "", count: int = 0, who: str = ""
) -> str:
    if kind == "invitation":
        return f"{who} invites you to table {game_id}"
    if kind == "game_over":
        return f"The game at table {game_id} is over"
    if kind == "turn":
        return f"Your turn at table {game_id}"
    if kind == "reminder":
        return f"Reminder: your move at table {game_id} is due {due_in}"
    if kind == "deadline":
        return f"A bot made your move at table {game_id}"
    if kind == "digest":
        return f"{count} game{'s' if count != 1 else ''} waiting for your move"
    raise ValueError(f"Unknown e-mail {kind!r}.")


def due_in(deadline: datetime, now: datetime) -> str:
    left = max(deadline - now, timedelta(0))
    hours = int(left.total_seconds() // 3600)
    if hours >= 48:
        return f"in {hours // 24} days"
    if hours >= 1:
        return f"in {hours} hour{'s' if hours != 1 else ''}"
    minutes = max(1, int(left.total_seconds() // 60))
    return f"in {minutes} minute{'s' if minutes != 1 else ''}"


def game_facts(view: TableView) -> list[str]:
    """One game in sentences for an e-mail, from the player's own view only."""
    state = view.state
    names = view.names
    you = view.your_seat
    phase, card, kind = state.phase, state.card, state.auction
    facts: list[str] = []
    if card and phase in ("auction", "sealed"):
        what = AUCTION_KIND_WORDS.get(kind or "", "auction")
        facts.append(f"Up for auction: {card_name(card)} ({what}).")
    high = state.high_bid
    if phase == "auction":
        leaders = [row.seat for row in state.seats if high and row.bid_total == high]
        facts.append(
            f"Highest bid: {money_text(high)} by {names[leaders[0]]}."
            if leaders
            else "No bids yet."
        )
    if you is not None:
        hand = state.hand or ()
        facts.append(
            f"Your money: {', '.join(money_text(v) for v in hand) or 'none'}"
            f" (total {money_text(sum(hand))})."
        )
        mine = state.seats[you]
        if phase == "auction" and mine.bid_total:
            facts.append(f"Your bid so far: {money_text(mine.bid_total)}.")
        facts.append(f"Your status cards: {cards_text(mine.cards)}.")
        if phase == "theft" and view.legal is not None and view.legal.discard_choices:
            facts.append(
                "Your luxuries: "
                + ", ".join(card_name(c) for c in view.legal.discard_choices if c in LUXURY_VALUE)
                + "."
            )
    for row in state.seats:
        if row.seat == you:
            continue
        facts.append(
            f"{names[row.seat]}: {cards_text(row.cards)}; "
            f"{row.hand_count} money card{'s' if row.hand_count != 1 else ''} in hand."
        )
    facts.append(
        f"Game-end cards seen: {state.game_end_revealed} of {state.game_end_total}; "
        f"{state.deck_remaining} cards left in the deck."
    )
    return facts


def away_lines(view: TableView) -> list[str]:
    return [
        f"{seat.display_name} is on vacation until {seat.vacation_until.date().isoformat()}."
        for seat in view.seats_info
        if seat.vacation_until is not None
    ]
