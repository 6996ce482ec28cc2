"""Cards drawn in HTML: ``{% status_card code %}``, ``{% money_card value %}``, and filters.

The board draws dozens of cards per page: a tag that formats one card's HTML costs far
less than an ``{% include %}`` per card (docs/architecture.md).  Every card carries its name
as text; the big glyph is decoration (``aria-hidden``).
"""

from __future__ import annotations

import re
from datetime import UTC
from numbers import Number
from typing import Any

from django import template
from django.middleware.csrf import get_token
from django.template.defaultfilters import floatformat
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format, get_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.deletion import DELETED_PREFIX
from games.clock import idle_since, may_hand_over
from games.engine import LUXURY_VALUE
from games.presenter import (
    card_name,
    join_names,
    minus_sign,
    money_text,
    status_text,
    turn_due_text,
    utc_offset_text,
)
from games.selectors import game_seat_is_to_act, seat_declined_by, seat_names

register = template.Library()

# code -> (glyph, short name, css kind, effect in words)
# (The names and effects are lazy: each is read in the language of the page drawn.)
_LUXURY = pgettext_lazy("card", "Luxury")
_FACES: dict[str, tuple[str, str, str, str]] = {
    **{f"lux{i}": (str(i), _LUXURY, "luxury", "") for i in range(1, 11)},
    "prestige": (
        "×2",
        pgettext_lazy("card", "Prestige"),
        "prestige",
        _("Doubles its owner's status."),
    ),
    "scandal": (
        "½",
        pgettext_lazy("card", "Scandal"),
        "scandal",
        _("Halves its owner's status at the end, rounded down."),
    ),
    "debt": (
        "−5",
        pgettext_lazy("card", "Debt"),
        "misfortune",
        _("Takes 5 from its owner's status."),
    ),
    "theft": (
        "✂",
        pgettext_lazy("card", "Theft"),
        "misfortune",
        _("Its owner discards one luxury."),
    ),
    "gambling": (
        "⚄",  # a die: "×2" is Prestige's (which doubles status, not money)
        pgettext_lazy("card", "Gambling"),
        "special",
        _("Its owner's money counts double at the end."),
    ),
    "excursions": (
        "12",
        pgettext_lazy("card", "Excursions"),
        "special",
        _("Luxury worth 12; when claimed, every other player takes their best spent card back."),
    ),
    "yacht": (
        "5",
        pgettext_lazy("card", "Yacht Club"),
        "special",
        _("Luxury worth 5, auctioned by sealed choice."),
    ),
}

# The words for the kind of auction each card gets (the board's headline).
KIND_WORDS = {
    "luxury": pgettext_lazy("kind of card", "Luxury"),
    "prestige": pgettext_lazy("kind of card", "Prestige"),
    "misfortune": pgettext_lazy("kind of card", "Misfortune"),
    "special": pgettext_lazy("kind of card", "Special"),
}


def card_face(code: str) -> tuple[str, str, str, str]:
    """(glyph, short name, css kind, effect) of a status card code; unknown codes are shown as such."""
    if code in LUXURY_VALUE and code.startswith("lux"):
        value = LUXURY_VALUE[code]
        return (
            str(value),
            str(_LUXURY),
            "luxury",
            gettext("Luxury worth %(value)s status.") % {"value": value},
        )
    glyph, short, kind, effect = _FACES.get(
        code, ("?", str(code), "special", _("An unknown card."))
    )
    return glyph, str(short), kind, str(effect)


def card_kind_word(code: str) -> str:
    """Luxury, Prestige, Misfortune or Special: how the card is auctioned, in words."""
    if code == "yacht":
        return card_name("yacht")
    kind = card_face(code)[2]
    if kind == "scandal":
        kind = "misfortune"
    if code == "excursions":
        kind = "luxury"
    return str(KIND_WORDS.get(kind, KIND_WORDS["special"]))


def _status_card_html(code: str, size: str) -> SafeString:
    """One card's HTML, in the active language."""
    glyph, short, kind, effect = card_face(code)
    game_end = " hs-card--game-end" if code in ("prestige", "scandal") else ""
    if len(short) > 8:  # Excursions, Yacht Club: a smaller name so that it fits the card
        game_end += " hs-card--long"
    longest = max(len(word) for word in re.split(r"[\s-]+", short))
    if longest >= 7:
        # "Skandal", "Schulden", "d'argent": on the small cards a word this long needs a
        # smaller letter (a small card breaks a name between its words: "Jeux / d'argent").
        game_end += " hs-card--long-word"
    if longest >= 9:  # "Excursions", "Glücksspiel", "Yachtclub": smaller still
        game_end += " hs-card--longer-word"
    sub = (
        gettext("Luxury %(value)s") % {"value": LUXURY_VALUE[code]}
        if code in ("excursions", "yacht")
        else ""
    )
    # A screen reader hears the card's whole name ("Luxury 7", "Yacht Club, Luxury 10"):
    # the short name, the value in the corner and the glyph are for the eye only.
    name = card_name(code) if code in _FACES else str(code)
    spoken = f"{name}, {sub}" if sub else name
    return format_html(
        '<span class="hs-card hs-card--{} hs-card--{}{}" title="{}">'
        '<span class="visually-hidden">{}</span>'
        '<span class="hs-card__corner" aria-hidden="true">{}</span>'
        '<span class="hs-card__glyph" aria-hidden="true">{}</span>'
        '<span class="hs-card__name" aria-hidden="true">{}</span>{}'
        "</span>",
        kind,
        size,
        game_end,
        # French puts a no-break space before the colon.
        pgettext("a card's tooltip", "%(card)s: %(effect)s") % {"card": name, "effect": effect},
        spoken,
        glyph,
        glyph,
        short,
        format_html('<span class="hs-card__sub" aria-hidden="true">{}</span>', sub) if sub else "",
    )


@register.filter
def status_number(value: Any) -> str:
    """``{{ r.status|status_number }}``: −10 with a minus sign (presenter.status_text);
    text already formatted (``floatformat``) gets its sign changed alone."""
    return status_text(value) if isinstance(value, Number) else minus_sign(str(value))


@register.simple_tag
def player_link(username: str | None, name: str, css: str = "") -> SafeString:
    """``{% player_link username name "class" %}``: a person's name, linking to their
    profile; a bot's name (no username) and a deleted account's (its profile is gone)
    plain, since a link would lead nowhere."""
    attrs = format_html(' class="{}"', css) if css else ""
    if not username or username.startswith(DELETED_PREFIX):
        return format_html("<span{}>{}</span>", attrs, name) if css else conditional_escape(name)
    return format_html(
        '<a{} href="{}">{}</a>', attrs, reverse("player_profile", args=[username]), name
    )


@register.simple_tag
def status_card(code: str, size: str = "md") -> SafeString:
    """A status card (luxury, prestige, misfortune, special) in size sm, md or lg."""
    return _status_card_html(str(code), size if size in ("xs", "sm", "md", "lg") else "md")


def _money_card_html(value: int, size: str, separator: str) -> SafeString:
    thousands, rest = divmod(value, 1000)
    big, small = (str(thousands), f"{separator}{rest:03d}") if thousands else (str(value), "")
    # A screen reader hears "12,000" whole (the big and small figures are laid out as
    # separate boxes, which it would read apart: "12 ,000"); the figures are for the eye.
    return format_html(
        '<span class="hs-money hs-money--{}"><span class="visually-hidden">{}{}</span>'
        '<span class="hs-money__corner" aria-hidden="true">{}</span>'
        '<span class="hs-money__big" aria-hidden="true">{}</span>'
        '<span class="hs-money__small" aria-hidden="true">{}</span></span>',
        size,
        big,
        small,
        big,
        big,
        small,
    )


@register.simple_tag
def money_card(value: int, size: str = "md") -> SafeString:
    """A money card showing its value (12,000 as a large 12 and a small ,000)."""
    try:
        value = int(value)
    except (TypeError, ValueError):
        return SafeString("")
    separator = get_format("THOUSAND_SEPARATOR")  # the active language's: , . or a space
    return _money_card_html(value, size if size in ("xs", "sm", "md", "lg") else "md", separator)


@register.filter
def money_total(cards) -> int:
    """The sum of money cards: a hand's whole worth."""
    return sum(cards or ())


@register.filter
def money(value: int) -> str:
    """12000 -> 12,000."""
    try:
        return money_text(int(value))
    except (TypeError, ValueError):
        return ""


@register.simple_tag
def percent(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a whole percentage, written as the language writes it
    ("17%", German and French "17 %", with a space that does not break)."""
    try:
        value = round(100 * int(part) / int(whole))
    except (TypeError, ValueError, ZeroDivisionError):
        return "—"
    return gettext("%(value)s%%") % {"value": value}


@register.filter
def rating_change(value: float) -> str:
    """A rating change as the pages show it, signed and whole, as the ratings themselves
    are shown: 80.6 -> +81, -24.3 -> −24 (a minus sign, as the cards and the e-mails
    write it)."""
    text = floatformat(value, 0)
    return f"+{text}" if not text.startswith("-") else "\u2212" + text.lstrip("-")


@register.filter(name="card_name")
def card_name_filter(code: str) -> str:
    """lux7 -> Luxury 7, debt -> Debt (−5)."""
    try:
        return card_name(code)
    except KeyError:
        return str(code)


@register.filter
def card_effect(code: str) -> str:
    """What a card does, in words, beside it while it is up for auction (the card's own
    tooltip says the same, but a phone shows no tooltip); a plain luxury's name says
    all, so it gets none."""
    if code in LUXURY_VALUE and code.startswith("lux"):
        return ""
    return card_face(code)[3]


@register.filter
def deadline_words(hours: int | None) -> str:
    """48 -> 2 days; None -> no deadline."""
    if not hours:
        return gettext("no deadline")
    if hours % 24 == 0:
        days = hours // 24
        return ngettext("%(count)s day", "%(count)s days", days) % {"count": days}
    return ngettext("%(count)s hour", "%(count)s hours", hours) % {"count": hours}


BOT_LEVELS = {
    "random": pgettext_lazy("bot level", "random"),
    "easy": pgettext_lazy("bot level", "easy"),
    "medium": pgettext_lazy("bot level", "medium"),
    "hard": pgettext_lazy("bot level", "hard"),
    "expert": pgettext_lazy("bot level", "expert"),
}


@register.filter
def bot_level(level: str) -> str:
    """A bot's level in words: random, easy, medium, hard, expert."""
    return str(BOT_LEVELS.get(level, level))


@register.filter
def zone_label(moment: Any) -> str:
    """The offset of the zone a time is written in, as the pages and e-mails mark it:
    "UTC", "UTC+1", "UTC−3" (the player's chosen zone, or UTC)."""
    if not moment:
        return ""
    return utc_offset_text(timezone.localtime(moment))


@register.simple_tag
def local_moment(moment: Any) -> SafeString:
    """A moment a sentence names (the end of a chat bar) as a ``<time>``: written in the
    player's chosen zone (UTC without a choice) and marked with its offset, then shown
    by the board's script in the browser's zone, as the deadline is."""
    if not moment:
        return SafeString("")
    return format_html(
        '<time datetime="{}" data-local="moment">{} {}</time>',
        moment.isoformat(),
        date_format(timezone.localtime(moment), "DATETIME_FORMAT"),
        zone_label(moment),
    )


@register.simple_tag
def log_entry(entry: Any) -> SafeString:
    """One entry of the board's log (``selectors.LogEntry``) as its ``<li>``: the board
    draws one per move, so it is built here in one go instead of by template lookups
    and two ``date`` filters per move.  The time is in the zone the player chose (UTC
    without a choice), marked with its offset; the board's script shows it in the
    browser's zone from ``datetime``."""
    if entry.actor == "takeover":  # a bot took a seat: no move, so no number
        return format_html('<li class="log__takeover">{}</li>', entry.text)
    css = ' class="log__bot"' if entry.actor in ("bot", "deadline") else ""
    if entry.number == 0:  # the set-up is no move: no "0." before it
        css = ' class="log__setup"'
    when = ""
    if entry.at:
        at = timezone.localtime(entry.at)  # the player's chosen zone (middleware), or UTC
        when = format_html(
            '<time class="log__time" datetime="{}" data-local="time">{} {}</time> ',
            at.astimezone(UTC).isoformat(),
            date_format(at, "SHORT_DATETIME_FORMAT"),  # as the reader's language writes it
            utc_offset_text(at),
        )
    return format_html(
        '<li value="{}"{}>{}{}{}</li>',
        entry.number,
        SafeString(css),
        when,
        gettext("Set-up:") + " " if entry.number == 0 else "",
        entry.text,
    )


@register.simple_tag(takes_context=True)
def my_game_row(context: Any, game: Any) -> SafeString:
    """One row of the lobby's "Your games" (a game of ``selectors.games_for_user``),
    built in one go: the lobby lists up to about 80 of them (50 running, 10 open of
    their own, the 10 newest invitations, the 10 last finished).  An invitation has
    its "Accept" and "Decline" beside it (declining with a block on its sender is on
    the table's page)."""
    seats = list(game.seats.all())
    names = seat_names(seats)  # as the board names them ("Alex (resigned)")
    if game.your_turn:
        badge = format_html('<span class="badge badge--turn">{}</span>', gettext("Your turn"))
        due = turn_due_text(game.deadline_at, timezone.now())
        if due:
            badge += format_html(' <span class="badge badge--due">{}</span>', due)
        elif game.turn_started_at is not None:  # no deadline: how long it has waited
            badge += _row_date(gettext("since %(date)s"), game.turn_started_at)
    elif game.status == "open" and game.your_seat.invited:
        badge = format_html(
            '<span class="badge badge--turn badge--names">{}</span>',
            gettext("Invitation from %(name)s") % {"name": game.created_by.public_name},
        )
    elif game.status == "open":
        badge = format_html(
            '<span class="badge badge--open">{}</span>', gettext("Waiting for players")
        )
        host = game.created_by_id == game.your_seat.user_id  # who declined: theirs to know
        for seat in seats:
            declined = seat_declined_by(seat, host=host)
            if declined is not None:
                if seat.declined_after_joining:
                    said = gettext("%(name)s left")
                else:
                    said = gettext("%(name)s declined")
                badge += format_html(
                    ' <span class="badge badge--done badge--names">{}</span>',
                    said % {"name": declined.public_name},
                )
    elif game.status == "active" and game.your_seat.handed_over:
        badge = format_html(
            '<span class="badge badge--done">{}</span>', gettext("A bot plays your seat")
        )
    elif game.status == "active" and game.your_seat.resigned:
        badge = format_html('<span class="badge badge--done">{}</span>', gettext("You resigned"))
    elif game.status == "active":
        badge = format_html('<span class="badge">{}</span>', gettext("In play"))
        # Whom the table waits for (a host with several tables over days sees who holds
        # one up), as the board says it.  Not until when: only the reader's own turns
        # say that (the lobby's refresh follows their words as time passes).
        waiting = [
            name
            for seat, name in zip(seats, names, strict=True)
            if game_seat_is_to_act(game, seat.position)
        ]
        if waiting:
            badge += format_html(
                ' <span class="game-row__waiting">{}</span>',
                gettext("waiting for %(names)s") % {"names": join_names(waiting)},
            )
            if not game.move_deadline_hours and game.turn_started_at is not None:
                # No deadline moves it on: how long it has waited (a week lets the host
                # hand the seat to a bot).
                badge += _row_date(gettext("since %(date)s"), game.turn_started_at)
        away = _may_hand_over(game, seats, names)
        if away:  # the host's to act on, from the board: said here, not found by chance
            badge += format_html(
                ' <span class="badge badge--due">{}</span>',
                gettext("you may hand a bot the seat of %(names)s") % {"names": join_names(away)},
            )
    elif game.status == "finished":
        badge = format_html('<span class="badge badge--done">{}</span>', gettext("Finished"))
        if getattr(game, "your_result", None) is not None:  # the player's place, in a word
            badge += format_html(
                ' <span class="game-row__result">{}</span>',
                render_to_string("games/_result_word.html", {"r": game.your_result}),
            )
    else:
        badge = format_html('<span class="badge badge--done">{}</span>', game.get_status_display())
    # When, for a player back after days away: since when a table waits for players (or
    # their answer), when a game ended.
    if game.status == "open":
        badge += _row_date(gettext("waiting since %(date)s"), game.created_at)
    elif game.status == "finished" and game.finished_at is not None:
        badge += _row_date(gettext("ended %(date)s"), game.finished_at)
    # A table not started yet says what it will be, as the open tables do (one answers
    # an invitation knowing the pace it asks for).
    meta = table_meta(game) if game.status == "open" else ""
    invited = game.status == "open" and game.your_seat.invited
    table = gettext("table %(table)s") % {"table": game.pk}
    action = (
        format_html(
            '<form method="post" action="{}" class="game-row__action">'
            '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
            '<input type="hidden" name="back" value="lobby">'
            '<button type="submit" name="accept" value="yes" class="button button--small" '
            'id="accept-{}">{}<span class="visually-hidden"> {}</span></button> '
            '<button type="submit" name="accept" value="no" '
            'class="button button--small button--outline" id="decline-{}">'
            '{}<span class="visually-hidden"> {}</span></button></form>',
            reverse("games:invitation", args=[game.pk]),
            get_token(context["request"]),
            game.pk,
            gettext("Accept"),
            table,
            game.pk,
            gettext("Decline"),
            table,
        )
        if invited
        else ""
    )
    return format_html(
        # Ids that outlive the lobby's redraw: htmx gives the focus back to the same one.
        '<li class="game-row{}"><a class="game-row__link" id="mine-{}" href="{}">'
        '<span class="game-row__title">{}</span> {} {}'
        '<span class="game-row__seats">{}</span></a>{}</li>',
        " game-row--turn game-row--answer"
        if invited
        else " game-row--turn"
        if game.your_turn
        else "",
        game.pk,
        reverse("games:detail", args=[game.pk]),
        gettext("Table %(table)s") % {"table": game.pk},
        badge,
        meta,
        ", ".join(_row_names(seats, names)),
        action,
    )


def _may_hand_over(game: Any, seats: list, names: list[str]) -> list[str]:
    """For the host of a running game: the names of the seats whose players they may
    now hand to a bot (``games.clock.may_hand_over``, the board's rule), else []."""
    if game.created_by_id != game.your_seat.user_id:
        return []
    now = timezone.now()
    return [
        name
        for seat, name in zip(seats, names, strict=True)
        if seat.user_id is not None
        and not seat.is_bot
        and seat.user_id != game.created_by_id
        and may_hand_over(
            deadlines=bool(game.move_deadline_hours),
            timeouts=seat.timeouts,
            idle=idle_since(game, seat.user) if game_seat_is_to_act(game, seat.position) else None,
            now=now,
        )
    ]


def _row_date(words: str, moment: Any) -> SafeString:
    """A lobby row's date ("waiting since 9 Nov 2026"), in the reader's time zone."""
    date = date_format(timezone.localtime(moment), "DATE_FORMAT")
    return format_html(' <span class="game-row__age">{}</span>', words % {"date": date})


def _row_names(seats: list, names: list[str]) -> list[str]:
    """The seats of a lobby row by their board names (``seat_names``: "Alex
    (resigned)"), an invitation not answered yet marked in brackets ("Bob (invited)":
    after a comma, in a list of names joined by commas, "invited" read as one more
    player)."""
    return [
        gettext("%(name)s (invited)") % {"name": name} if seat.invited else name
        for seat, name in zip(seats, names, strict=True)
    ]


@register.simple_tag
def table_meta(game: Any) -> SafeString:
    """``{% table_meta game %}``: what a table will be, for the lobby's rows: "4 players ·
    Yacht Club · 1 day per move · memory aid"."""
    parts = [gettext("%(count)s players") % {"count": game.players}]
    parts += [card_name(code) for code in game.advanced]
    if game.move_deadline_hours:
        deadline = deadline_words(game.move_deadline_hours)
        parts.append(gettext("%(deadline)s per move") % {"deadline": deadline})
    if game.memory_aid:
        parts.append(gettext("memory aid"))
    return format_html('<span class="game-row__meta">{}</span> ', " · ".join(parts))
