"""E-mails of async play: your turn, a deadline reminder, a bot moved for you, and the
daily digest (docs/architecture.md, "Async play").

Every e-mail is owed through a ``Notification`` row (the outbox).  Creating the row is
the claim (unique per user, kind and reason); ``notification_send`` then decides, at the
moment of sending, whether it is still wanted: the turn may have passed, the player may
have the game open right now (then it waits and is looked at again), or may have chosen
the digest or no e-mails.  A send that fails (SMTP down) leaves the row pending; the task
retries with backoff and the outbox sweep tries again later, so a move never waits for
an e-mail and no e-mail is lost.

The same row carries the Web Push notice of a player who turned push on for that kind
(``games.push``): the decision above holds for both channels, each then honours the
player's own choices, and ``pushed_at`` makes the push go once.

Texts come from the player's own read model (``selectors.table_view``) through the
presenter (``games.presenter``): never the deck order, never someone else's sealed
choice.

"Has the game open": the board (loaded, polled, its stream open, or answering the
player's own form posts) and the API's game view, move log and moves call ``seat_seen`` (a cache key per
game and user, no database write); a player seen in the last ``ONLINE_SECONDS`` is at
the table.  A turn e-mail also waits ``settings.TURN_EMAIL_GRACE_SECONDS`` after the
turn began, so a player whose page is still loading (a bot answered first) is not
mailed.  A turn that begins with every person to act at the table queues no e-mail
task at all: the missed-turn sweep (``missed_turns_sweep``)
looks at it again once it has lasted ``deadlines.STALLED_AFTER``.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from accounts.preferences import zone_named
from games import events, presenter, push
from games.clock import (
    hand_over_from,
    idle_reminder_lead,
    idle_since,
    may_hand_over,
    turn_key,
)
from games.engine import seats_to_act
from games.models import Game, Move, Notification, Seat
from games.read_model import TableView
from games.selectors import (
    chat_lines,
    game_ending,
    log_entries,
    orders_view,
    reader_token,
    table_view,
)
from ops.logcontext import game_logged
from ops.numbers import digits
from ops.outages import CACHE_ERRORS

logger = logging.getLogger(__name__)

# The board polls every 3 s, or its stream beats every 20 s (LIVE_HEARTBEAT_SECONDS).
ONLINE_SECONDS = 90
# Then look again: still their turn, still away?  Short, so that a player who leaves
# the board just after their turn began gets the e-mail within a few minutes.
DEFER_WHILE_ONLINE = timedelta(minutes=2)
QUEUED_CLAIM = timedelta(minutes=10)  # a row the outbox sweep queued: not queued again meanwhile
OUTBOX_GRACE = timedelta(minutes=2)  # the queued task goes first; the sweep after this
RETRY_AFTER_FAILURE = timedelta(minutes=30)  # the sweep's retry, after Celery's own retries
MAX_ATTEMPTS = 8
CLAIM_FOR = timedelta(minutes=5)  # a sender's hold on a row (longer than any SMTP timeout)
MISSED_TURN_WINDOW = timedelta(days=3)  # the stalled sweep looks this far back for turns
KEEP_FOR = timedelta(days=90)  # then the outbox sweep deletes finished rows
Kind = Notification.Kind
Status = Notification.Status


# --------------------------------------------------------------------------- online


def _seen_key(game_id: int, user_id: int) -> str:
    return f"games:seen:{game_id}:{user_id}"


def _shown_key(game_id: int, user_id: int) -> str:
    return f"games:shown:{game_id}:{user_id}"


def seat_seen(*, game_id: int, user: Any, now: datetime | None = None) -> None:
    """Record that ``user`` has game ``game_id`` open now, and that what they have open
    shows the table as it is (the board drawn or found current, the API's reads and
    moves call this).  One cache write, no database query; visitors are ignored."""
    if user is None or not getattr(user, "is_authenticated", False):
        return
    moment = now or timezone.now()
    _seen_store(moment.timestamp(), _seen_key(game_id, user.pk), _shown_key(game_id, user.pk))


def seat_seen_from_request(request: Any, *, game_id: int) -> None:
    """``seat_seen`` for the board's poll, cheaply: the user's id comes from the session
    (one session read for a signed-in player, none for a visitor) and the user row is
    not loaded.  The worst a stale session can do is hold back an e-mail."""
    from django.contrib.auth import SESSION_KEY

    session = getattr(request, "session", None)
    if session is None or not session.session_key:
        return
    user_id = session.get(SESSION_KEY)
    if user_id is not None:
        user_id = int(user_id)
        moment = timezone.now().timestamp()
        _seen_store(moment, _seen_key(game_id, user_id), _shown_key(game_id, user_id))


def seat_seen_id(*, game_id: int, user_id: int) -> None:
    """The player's board is open (the stream calls it on each of its heartbeats,
    ``games.live``): presence only.  A stream learns that its browser went away only
    when it next writes, so a heartbeat may mark a board that was closed a moment ago;
    it never counts as the board having shown a change (``seat_shown_since``): only a
    board drawn or polled does."""
    _seen_store(timezone.now().timestamp(), _seen_key(game_id, user_id))


def _seen_store(moment: float, *keys: str) -> None:
    """A lost "seen" mark only means an e-mail that could have waited is sent: with the
    cache (Redis) down, the board still refreshes."""
    try:
        cache.set_many(dict.fromkeys(keys, moment), timeout=ONLINE_SECONDS * 2)
    except CACHE_ERRORS:
        logger.warning("could not record that a board is open: the cache is unavailable")


def seat_online(*, game_id: int, user_id: int, now: datetime) -> bool:
    """Has the player the game open right now (its board polled lately)?"""
    return user_id in seats_online(game_id=game_id, user_ids=[user_id], now=now)


def seat_shown_since(*, game_id: int, user_id: int, moment: datetime) -> bool:
    """Has the player's board (or the API) shown them the table since ``moment``: a
    board drawn or polled, not a stream's heartbeat?  Within the cache's memory of it
    (twice ``ONLINE_SECONDS``); with the cache down, no."""
    try:
        seen = cache.get(_shown_key(game_id, user_id))
    except CACHE_ERRORS:
        return False
    return seen is not None and float(seen) > moment.timestamp()


def seats_online(*, game_id: int, user_ids: list[int], now: datetime) -> set[int]:
    """Which of ``user_ids`` have the game open right now: one cache round trip.  With
    the cache down, nobody (they are owed e-mails as usual)."""
    at = now.timestamp()
    keys = {_seen_key(game_id, user_id): user_id for user_id in user_ids}
    try:
        seen = cache.get_many(list(keys))
    except CACHE_ERRORS:
        return set()
    return {keys[key] for key, moment in seen.items() if at - float(moment) < ONLINE_SECONDS}


# --------------------------------------------------------------------------- queueing


def turn_email_wanted(*, game_id: int, user_ids: list[int], now: datetime) -> bool:
    """A new turn began for the people ``user_ids``: is a turn e-mail owed to any of
    them?  Not while everyone to act has the game open (board or API): they are playing.
    Should one of them leave, the missed-turn sweep owes them the e-mail once the turn
    has lasted a couple of minutes.  One cache read, no database query."""
    return len(seats_online(game_id=game_id, user_ids=user_ids, now=now)) < len(user_ids)


def _claim(**fields: Any) -> Notification | None:
    """Create the row, or None when it exists already (somebody claimed it)."""
    try:
        with transaction.atomic():
            return Notification.objects.create(**fields)
    except IntegrityError:
        return None


def _claims_owed(user_ids: list[int], **fields: Any) -> list[int]:
    """A row of ``fields`` for each of ``user_ids`` not owed it already, to be sent once
    the current transaction commits; returns the new rows' ids."""
    ids = [row.pk for pk in user_ids if (row := _claim(user_id=pk, **fields)) is not None]
    if ids:
        events.announce(events.notices_owed, ids=ids)  # once the change is committed
    return ids


def _send_queue(ids: list[int]) -> None:
    """The rows ``ids``, claimed and stored, are owed: tell the sender now."""
    if ids:
        events.announce_now(events.notices_owed, ids=list(ids))


def turn_notices_create(*, game_id: int, turn: int, now: datetime | None = None) -> list[int]:
    """The ``turn_emails`` task's work: one TURN row for each person to act in this
    turn, then a send task for each.  Nothing when the turn is over already."""
    now = now or timezone.now()
    game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).first()
    if game is None or game.turn_started_at is None or turn_key(game.turn_started_at) != turn:
        return []
    return _people_to_act_notices_create(game=game, kind=Kind.TURN, turn=turn, now=now)


@game_logged
def reminder_notices_create(*, game: Game, now: datetime) -> list[int]:
    """REMINDER rows for the people to act in ``game``'s current turn, once per turn and
    deadline (a vacation that moved the deadline owes a reminder for the new one)."""
    turn = turn_key(game.turn_started_at)
    return _people_to_act_notices_create(
        game=game, kind=Kind.REMINDER, turn=turn, now=now, deadline=game.deadline_at
    )


def idle_reminder_notices_create(*, game: Game, now: datetime) -> list[int]:
    """At a table without move deadlines: a REMINDER row for each person to act, other
    than the host, whose seat the host may hand to a bot within
    ``clock.idle_reminder_lead`` (``games.clock``: the idle days from the turn's
    start, or from a vacation's end); once per turn and such moment."""
    if not game.created_by.is_active:  # a host gone hands no seat over
        return []
    turn = turn_key(game.turn_started_at)
    to_act = seats_to_act(game.engine_state())
    lead = idle_reminder_lead()
    created = []
    for seat in game.seats.select_related("user"):
        if seat.is_bot or seat.user_id is None or seat.user_id == game.created_by_id:
            continue
        if seat.position not in to_act:
            continue
        moment = hand_over_from(idle_since(game, seat.user))
        if not now < moment <= now + lead:
            continue
        notice = _claim(
            user_id=seat.user_id,
            game=game,
            kind=Kind.REMINDER,
            key=f"{game.pk}:{turn}:{turn_key(moment)}",
            turn_started_at=game.turn_started_at,
            deadline_at=moment,
            due_at=now,
        )
        if notice is not None:
            created.append(notice.pk)
    _send_queue(created)
    return created


def _people_to_act_notices_create(
    *, game: Game, kind: str, turn: int, now: datetime, deadline: datetime | None = None
) -> list[int]:
    """Claim one ``kind`` row per person (not bot) to act in this turn (and, given one,
    for this ``deadline``), then queue them."""
    seats = {seat.position: seat for seat in game.seats.all()}
    created = []
    for position in seats_to_act(game.engine_state()):
        seat = seats[position]
        if seat.is_bot or seat.user_id is None:
            continue
        key = f"{game.pk}:{turn}" if deadline is None else f"{game.pk}:{turn}:{turn_key(deadline)}"
        notice = _claim(
            user_id=seat.user_id,
            game=game,
            kind=kind,
            key=key,
            turn_started_at=game.turn_started_at,
            deadline_at=deadline,
            due_at=now + OUTBOX_GRACE,
        )
        if notice is not None:
            created.append(notice.pk)
    _send_queue(created)
    return created


def deadline_notice_create(*, game: Game, seat: Seat, move_number: int, now: datetime) -> None:
    """Inside the deadline move's transaction: the row telling the player a bot moved
    for them, sent after the commit."""
    notice = Notification.objects.create(
        user_id=seat.user_id,
        game=game,
        kind=Kind.DEADLINE,
        key=f"{game.pk}:{move_number}",
        move_number=move_number,
        due_at=now + OUTBOX_GRACE,
    )
    events.announce(events.notices_owed, ids=[notice.pk])  # once the move is committed


def invitation_notices_create(*, game_id: int, user_ids: list[int], now: datetime) -> list[int]:
    """Inside the transaction that invites them: an INVITATION row for each invited
    person (once per table), sent after the commit.  The rows are what the invitation
    limits count (``services._invitations_check``, under the host's row lock), so they
    commit with the invitation."""
    return _claims_owed(
        user_ids, game_id=game_id, kind=Kind.INVITATION, key=str(game_id), due_at=now
    )


def declined_notice_create(*, game_id: int, host_id: int, by_user_id: int, now: datetime) -> None:
    """Inside the decline's transaction: a DECLINED row for the host, ``by_user_id``
    declined their invitation (once per player and table, like the invitation itself),
    sent after the commit."""
    notice = _claim(
        user_id=host_id,
        game_id=game_id,
        kind=Kind.DECLINED,
        key=f"{game_id}:{by_user_id}",
        due_at=now + OUTBOX_GRACE,
    )
    if notice is not None:
        events.announce(events.notices_owed, ids=[notice.pk])  # once the decline is committed


def handed_over_notice_create(*, game: Game, seat: Seat, now: datetime) -> None:
    """Inside the transaction that hands ``seat`` to a bot: a HANDED_OVER row for its
    player (once per table), sent after the commit."""
    notice = _claim(
        user_id=seat.user_id,
        game_id=game.pk,
        kind=Kind.HANDED_OVER,
        key=str(game.pk),
        due_at=now + OUTBOX_GRACE,
    )
    if notice is not None:
        events.announce(events.notices_owed, ids=[notice.pk])  # once the change is committed


def closed_notices_create(*, game_id: int, user_ids: list[int], why: str, now: datetime) -> None:
    """Inside the transaction that closes the table before its start: a CLOSED row for
    each person seated or invited there, its key saying ``why`` ("left": its host
    closed it; "gone": the host's account was withdrawn; "expired"), sent after the
    commit."""
    _claims_owed(
        user_ids,
        game_id=game_id,
        kind=Kind.CLOSED,
        key=f"{game_id}:{why}",
        due_at=now + OUTBOX_GRACE,
    )


class About(NamedTuple):
    """Whom a row about one game names, read once per send for its e-mail and its push:
    the inviter of an invitation; for a decline, the seat (while it is still open and
    marked as declined by that player, the key's second part; None once the host
    changed it or somebody took it) and who declined."""

    who: str = ""
    seat: Seat | None = None


def _left(about: About) -> bool:
    """A decline's row about a player who had accepted, then left the seat."""
    return about.seat is not None and about.seat.declined_after_joining


def _about(notice: Notification, game: Game) -> About:
    if notice.kind in (Kind.INVITATION, Kind.HANDED_OVER) or (
        notice.kind == Kind.CLOSED and notice.key.endswith(":left")  # its host closed it
    ):
        return About(who=game.created_by.public_name)
    if notice.kind != Kind.DECLINED:
        return About()
    _, _, user_id = notice.key.partition(":")
    seat = (
        Seat.objects.filter(game_id=notice.game_id, declined_by_id=int(user_id))
        .select_related("declined_by")
        .first()
        if digits(user_id)
        else None
    )
    return About(who=seat.declined_by.public_name if seat else "", seat=seat)


def game_over_notices_create(*, game: Game, seats: list[Seat], now: datetime) -> None:
    """Inside the transaction that ends the game: a GAME_OVER row for every person who
    played at the table (resigned players too), sent after the commit."""
    rows = Notification.objects.bulk_create(
        [
            Notification(
                user_id=seat.user_id,
                game=game,
                kind=Kind.GAME_OVER,
                key=str(game.pk),
                due_at=now + OUTBOX_GRACE,
            )
            for seat in seats
            if seat.user_id is not None and seat.accepted
        ]
    )
    ids = [row.pk for row in rows]
    if ids:
        events.announce(events.notices_owed, ids=ids)  # once the end is committed


# --------------------------------------------------------------------------- sending


def notification_send(*, notification_id: int, now: datetime | None = None) -> str:
    """Send one owed e-mail, and its push, if still wanted; returns what happened
    ("sent", "pushed" (a push and no e-mail), "skipped", "deferred" or "busy").  Raises
    the mail backend's error after recording the failure, so that the task retries it
    with backoff (the push is owed once, before the e-mail is tried)."""
    now = now or timezone.now()
    claimed = (
        Notification.objects.filter(pk=notification_id, status=Status.PENDING)
        .exclude(claimed_until__gt=now)
        .update(claimed_until=now + CLAIM_FOR)
    )
    if not claimed:
        return "busy"  # sent, skipped, or another sender holds it right now
    notice = Notification.objects.select_related("user", "game").get(pk=notification_id)
    try:
        # In the recipient's language, whoever's request or task sends it.
        with translation.override(notice.user.email_language):
            outcome, detail = _decide(notice, now)
    except Exception as error:
        notice.attempts += 1
        _failed(notice, error, now)
        raise
    if outcome == "skip":
        _finish(notice, Status.SKIPPED, detail)
        return "skipped"
    if outcome == "defer":
        why, until = detail
        notice.due_at, notice.claimed_until, notice.note = until, None, why
        notice.save(update_fields=["due_at", "claimed_until", "note"])
        return "deferred"
    _pushes_queue(notice, detail, now)
    if detail.message is None:
        notice.sent_at = now
        _finish(notice, Status.SENT, f"Pushed only. {detail.no_email}")
        return "pushed"
    notice.attempts += 1
    try:
        detail.message.send()
    except Exception as error:
        _failed(notice, error, now)
        raise
    notice.sent_at = now
    _finish(notice, Status.SENT, "")
    # Who and which kind only: never the address or the text.
    logger.info(
        "e-mail sent: %s to user %s",
        notice.kind,
        notice.user_id,
        extra={"user_id": notice.user_id, "email_kind": notice.kind, "game_id": notice.game_id},
    )
    return "sent"


def _pushes_queue(notice: Notification, out: Outgoing, now: datetime) -> None:
    """Owe the row's pushes, once: setting ``pushed_at`` is the claim (an e-mail that
    fails and is retried later pushes nothing more)."""
    if not out.pushes or out.payload is None:
        return
    if Notification.objects.filter(pk=notice.pk, pushed_at__isnull=True).update(pushed_at=now):
        notice.pushed_at = now
        logger.info(
            "push owed: %s to user %s on %s device(s)",
            notice.kind,
            notice.user_id,
            len(out.pushes),
            extra={"user_id": notice.user_id, "push_kind": notice.kind, "game_id": notice.game_id},
        )
        events.announce_now(events.pushes_owed, ids=list(out.pushes), payload=out.payload)


def _failed(notice: Notification, error: Exception, now: datetime) -> None:
    """Record a failed attempt: retried later by the outbox sweep, until MAX_ATTEMPTS."""
    notice.claimed_until = None
    notice.note = f"{type(error).__name__}: {error}"[:200]
    if notice.attempts >= MAX_ATTEMPTS:
        notice.status = Status.FAILED
        logger.error("notification %s failed %s times; giving up", notice.pk, notice.attempts)
    else:
        notice.due_at = now + RETRY_AFTER_FAILURE
    notice.save(update_fields=["attempts", "claimed_until", "note", "status", "due_at"])


def _finish(notice: Notification, status: str, note: str) -> None:
    notice.status, notice.note, notice.claimed_until = status, note[:200], None
    notice.save(update_fields=["status", "note", "claimed_until", "sent_at", "attempts"])


def _verified_address(user: Any) -> str | None:
    from allauth.account.models import EmailAddress

    return (
        EmailAddress.objects.filter(user=user, verified=True)
        .order_by("-primary", "id")
        .values_list("email", flat=True)
        .first()
    )


def _email_refusal(user: Any, kind: str) -> str | None:
    """Why ``user`` gets no e-mail of ``kind`` (their e-mail choices), or None."""
    prefs = user.TurnEmails
    if user.turn_emails == prefs.NONE:
        return "The player wants no e-mails about games."
    if kind in (user.emails_off or ()):
        return "The player switched these e-mails off."
    if kind == Kind.DIGEST and user.turn_emails != prefs.DIGEST:
        return "The player no longer wants the digest."
    if kind == Kind.TURN and user.turn_emails != prefs.EVERY:
        return "The player chose the daily digest."
    return None


def _decide(notice: Notification, now: datetime) -> tuple[str, Any]:
    """("send", Outgoing), ("skip", why) or ("defer", (why, until when)).

    Two channels, each with the player's own choices: the e-mail (``turn_emails``,
    ``emails_off``, a verified address) and Web Push (``games.push.push_targets``, once
    per row: ``pushed_at``).  Whether the notice is still wanted at all (the turn, the
    player at the table, the grace after the turn began) holds for both."""
    user = notice.user
    if not user.is_active:
        return "skip", "The account is inactive."
    no_email = _email_refusal(user, notice.kind)
    address = None
    if no_email is None:
        address = _verified_address(user)
        if address is None:
            no_email = "The player has no verified e-mail address."
    pushes = [] if notice.pushed_at is not None else push.push_targets(user=user, kind=notice.kind)
    if no_email is not None and not pushes:
        return "skip", no_email
    out = Outgoing(address=address, no_email=no_email, pushes=pushes)

    if notice.kind == Kind.DIGEST:
        if user.on_vacation(now):
            return "skip", "The player is on vacation."
        games = _games_waiting(user)
        if not games:
            return "skip", "No game is waiting for the player."
        out.message = _message_digest(user, address, games, now)
        return "send", out

    game = notice.game
    about = _about(notice, game) if game is not None else About()
    refusal = _not_wanted_now(notice, game, user, now, about)
    if refusal is not None:
        return refusal
    view = _view(game, user)  # the player's own, for the e-mail and the push alike
    if out.no_email is None:
        letter = Letter(user, address, game, view, notice, now, about)
        out.message = _MESSAGES[notice.kind](letter)
    if out.pushes:
        out.payload = push.push_payload(
            kind=notice.kind, view=view, now=now, who=about.who, left=_left(about)
        )
    return "send", out


def _not_wanted_now(
    notice: Notification, game: Game | None, user: Any, now: datetime, about: About
) -> tuple[str, Any] | None:
    """("skip", why) or ("defer", (why, until)) when a game's notice is not wanted now,
    by any channel; None when it is."""
    if notice.kind == Kind.DEADLINE:
        return None
    if notice.kind == Kind.INVITATION:
        seat = game.seats.filter(user=user).first() if game else None
        if game is None or game.status != Game.Status.OPEN or seat is None or seat.accepted:
            return "skip", "The invitation was answered, or the table has gone."
        return None
    if notice.kind == Kind.DECLINED:
        if game is None or game.status != Game.Status.OPEN:
            return "skip", "The table has started or gone."
        if about.seat is None:
            return "skip", "The seat has been taken or changed meanwhile."
        return _unless_seen_at_the_table(notice, game, user, now, "The host saw it at the table.")
    if notice.kind == Kind.GAME_OVER:
        return _unless_seen_at_the_table(
            notice, game, user, now, "The player saw the end at the board."
        )
    if notice.kind in (Kind.HANDED_OVER, Kind.CLOSED):
        if game is None:
            return "skip", "The table has gone."
        return _unless_seen_at_the_table(notice, game, user, now, "The player saw it at the board.")
    # A turn notice or a reminder: only while it is still that turn and theirs to play.
    if not _still_to_act(game, user, notice.turn_started_at):
        return "skip", "The turn is over."
    if notice.kind == Kind.REMINDER and not game.move_deadline_hours:
        refusal = _idle_reminder_refusal(notice, game, user, now)
        if refusal is not None:
            return "skip", refusal
    elif notice.kind == Kind.REMINDER and (game.deadline_at is None or game.deadline_at <= now):
        return "skip", "The deadline has passed."
    if seat_online(game_id=game.pk, user_id=user.pk, now=now):
        return "defer", ("The player has the game open.", now + DEFER_WHILE_ONLINE)
    if notice.kind == Kind.TURN and user.on_vacation(now):
        # The deadlines wait for the vacation's end, and so does the news of the turn
        # (sent then if the turn is still theirs; at once when they come back early).
        return "defer", ("The player is on vacation.", user.vacation_until)
    grace = timedelta(seconds=settings.TURN_EMAIL_GRACE_SECONDS)
    if notice.kind == Kind.TURN and now < notice.turn_started_at + grace:
        return "defer", (
            "The turn has just begun: the player may be at the board.",
            notice.turn_started_at + grace,
        )
    return None


def _idle_reminder_refusal(
    notice: Notification, game: Game, user: Any, now: datetime
) -> str | None:
    """Why a reminder at a table without move deadlines is no longer wanted: the host
    may hand the seat over already, or the moment moved (a vacation began meanwhile)."""
    moment = hand_over_from(idle_since(game, user))
    if moment <= now:
        return "The host may hand the seat to a bot already."
    if notice.deadline_at is not None and moment != notice.deadline_at:
        return "The moment moved: the player went on vacation meanwhile."
    return None


def _unless_seen_at_the_table(
    notice: Notification, game: Game, user: Any, now: datetime, seen: str
) -> tuple[str, Any] | None:
    """The board shows a decline or the end by itself: a player whose board refreshed
    after the row was made has seen it (skip, saying ``seen``).  One who had the table
    open a moment before may still be there: look again once the grace is over, and
    then send unless they have looked since."""
    if seat_shown_since(game_id=game.pk, user_id=user.pk, moment=notice.created_at):
        return "skip", seen
    until = notice.created_at + OUTBOX_GRACE
    if now < until and seat_online(game_id=game.pk, user_id=user.pk, now=now):
        return "defer", ("The player has the table open.", until)
    return None


class Outgoing:
    """What one outbox row sends: an e-mail (``message``, unless ``no_email`` says why
    not) and a push (``payload``) to the subscriptions ``pushes``."""

    def __init__(self, *, address: str | None, no_email: str | None, pushes: list[int]) -> None:
        self.address, self.no_email, self.pushes = address, no_email, pushes
        self.message: EmailMultiAlternatives | None = None
        self.payload: dict[str, str] | None = None


def _still_to_act(game: Game, user: Any, turn_started_at: datetime | None) -> bool:
    if game.status != Game.Status.ACTIVE or game.turn_started_at != turn_started_at:
        return False
    seat = game.seats.filter(user=user, accepted=True).first()
    if seat is None or seat.is_bot:
        return False
    return seat.position in seats_to_act(game.engine_state())


def _games_waiting(user: Any) -> list[Game]:
    from games.selectors import games_waiting

    return games_waiting(user=user)


# --------------------------------------------------------------------------- sweeps


def outbox_sweep(*, now: datetime, limit: int = 200) -> int:
    """Queue a send for every pending row whose time has come (a lost task, a failed
    send, a player who had the game open).  Each row is claimed for queueing by moving
    its ``due_at`` on, so a second sweep does not queue it again.  Finished rows older
    than ``KEEP_FOR`` are deleted on the way."""
    due = list(
        Notification.objects.filter(status=Status.PENDING, due_at__lte=now)
        .exclude(claimed_until__gt=now)
        .order_by("due_at")
        .values_list("pk", "due_at")[:limit]
    )
    old = Notification.objects.filter(created_at__lt=now - KEEP_FOR).exclude(status=Status.PENDING)
    Notification.objects.filter(pk__in=list(old.values_list("pk", flat=True)[:1000])).delete()
    queued = []
    for pk, due_at in due:
        if Notification.objects.filter(pk=pk, status=Status.PENDING, due_at=due_at).update(
            due_at=now + QUEUED_CLAIM
        ):
            queued.append(pk)
    _send_queue(queued)
    return len(queued)


def missed_turns_sweep(*, now: datetime, stalled_after: timedelta, limit: int = 100) -> int:
    """Turns whose ``turn_emails`` task never ran (the broker was down when the move was
    made, or everyone to act was at the table as the turn began): make their rows now.
    A turn that has rows, even skipped ones, is done."""
    has_rows = Notification.objects.filter(
        game=OuterRef("pk"), kind=Kind.TURN, turn_started_at=OuterRef("turn_started_at")
    )
    games = (
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            turn_started_at__lte=now - stalled_after,
            turn_started_at__gt=now - MISSED_TURN_WINDOW,
        )
        .exclude(Exists(has_rows))
        .order_by("turn_started_at")
        .values_list("pk", "turn_started_at")[:limit]
    )
    made = 0
    for pk, started in games:
        made += len(turn_notices_create(game_id=pk, turn=turn_key(started), now=now))
    return made


def digests_sweep(*, now: datetime, limit: int = 500) -> int:
    """Once a day for each digest reader with a seat in a running game, from
    ``DIGEST_HOUR`` o'clock in their own time zone (their profile's; UTC without one):
    one DIGEST row, claimed by their local date in its key; sent if games wait.  One
    query for the zones, then one per zone past the hour."""
    from accounts.models import User

    seated = Seat.objects.filter(
        user=OuterRef("pk"), accepted=True, resigned=False, game__status=Game.Status.ACTIVE
    )
    readers = User.objects.filter(is_active=True, turn_emails=User.TurnEmails.DIGEST).filter(
        Exists(seated)
    )
    zones = readers.order_by("time_zone").values_list("time_zone", flat=True).distinct()
    created: list[int] = []
    for time_zone in list(zones):
        local = now.astimezone(zone_named(time_zone) or UTC)
        if local.hour < settings.DIGEST_HOUR or len(created) >= limit:
            continue
        day = local.date().isoformat()
        done = Notification.objects.filter(user=OuterRef("pk"), kind=Kind.DIGEST, key=day)
        users = (
            readers.filter(time_zone=time_zone)
            .exclude(Exists(done))
            .values_list("pk", flat=True)[: limit - len(created)]
        )
        for user_id in users:
            notice = _claim(user_id=user_id, kind=Kind.DIGEST, key=day, due_at=now + OUTBOX_GRACE)
            if notice is not None:
                created.append(notice.pk)
    _send_queue(created)
    return len(created)


# --------------------------------------------------------------------------- messages


def _absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def game_url(game_id: int, reader: Any = None) -> str:
    """The table's address; in an e-mail it names its ``reader`` (``?for=``, their id
    signed for this table: ``selectors.reader_token``), so that the board opened in a
    browser logged in as someone else says whose link it is, and how to play that
    seat."""
    url = _absolute(reverse("games:detail", args=[game_id]))
    if reader is None:
        return url
    return f"{url}?{urlencode({'for': reader_token(game_id, reader.pk)})}"


def _unsubscribe_url(user: Any, kind: str | None = None) -> str:
    from accounts.preferences import unsubscribe_token

    return _absolute(reverse("unsubscribe", args=[unsubscribe_token(user, kind)]))


def _message(
    *, user: Any, address: str, subject: str, template: str, context: dict[str, Any]
) -> EmailMultiAlternatives:
    # The template names the kind (turn, reminder, …): the one-click link and the mail
    # program's unsubscribe button switch off that kind only; the footer also offers all.
    unsubscribe = _unsubscribe_url(user, template)
    context = {
        **context,
        "name": user.public_name,
        "unsubscribe_url": unsubscribe,
        "unsubscribe_all_url": _unsubscribe_url(user),
        "kind_name": user.EMAIL_KIND_PHRASES.get(template, ""),
        "kind_label": user.EMAIL_KINDS.get(template, ""),  # its tick box on the profile
        "settings_url": _absolute(reverse("profile")),
        "preference": user.get_turn_emails_display(),
        # The turn e-mails come by the turn setting; the others by their own tick box.
        "about_turns": template in ("turn", "digest"),
    }
    text = render_to_string(f"emails/{template}.txt", context)
    html = render_to_string(f"emails/{template}.html", context)
    message = EmailMultiAlternatives(
        subject=f"[High Society] {subject}",
        body=text,
        to=[address],
        headers={
            # RFC 2369 and RFC 8058: mail programs show an unsubscribe button that
            # POSTs "List-Unsubscribe=One-Click" to this address.
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def _view(game: Game, user: Any) -> TableView:
    return table_view(game=game, user=user)


CHAT_IN_EMAIL = 5  # the latest messages of the others since the player's last move


def _chat_since_last_move(game: Game, user: Any) -> dict[str, Any]:
    """The table chat's messages by the others since ``user``'s last move there (all of
    them before their first), the latest ``CHAT_IN_EMAIL``; none for a muted author.
    ``chat_since_move``: whether they have moved (else the lines may be ones they read at the
    table before the game began, not new)."""
    last = (
        Move.objects.filter(game=game, user=user)
        .order_by("-number")
        .values_list("created_at", flat=True)
        .first()
    )
    lines = chat_lines(game=game, user=user, since=last, limit=CHAT_IN_EMAIL + 1)
    return {
        "chat": [line for line in lines if not line.is_you][-CHAT_IN_EMAIL:],
        "chat_since_move": last is not None,
    }


class Letter(NamedTuple):
    """What the e-mail of a row about one game is made from: to whom and where, the
    game and the player's own view of it, the row, the time, and whom the row names."""

    user: Any
    address: str
    game: Game
    view: TableView
    notice: Notification
    now: datetime
    about: About


# The e-mail of each kind about one game, from its ``Letter``.


def _message_turn(letter: Letter) -> EmailMultiAlternatives:
    return _message(
        user=letter.user,
        address=letter.address,
        subject=presenter.email_subject("turn", game_id=letter.game.pk),
        template="turn",
        context={
            "game": game_summary(letter.game, letter.view, letter.now, letter.user),
            **_chat_since_last_move(letter.game, letter.user),
        },
    )


def _message_reminder(letter: Letter) -> EmailMultiAlternatives:
    summary = game_summary(letter.game, letter.view, letter.now, letter.user)
    idle = None
    if not letter.game.move_deadline_hours:  # the reminder of the host's hand-over moment
        zone = zone_named(letter.user.time_zone) or UTC
        # Waiting since the turn began; the host's moment counts from a vacation's end.
        counted_from = idle_since(letter.game, letter.user)
        idle = {
            "since": presenter.moment_text(letter.game.turn_started_at or counted_from, zone),
            "from": presenter.moment_text(hand_over_from(counted_from), zone),
            "host": letter.game.created_by.public_name,
        }
    return _message(
        user=letter.user,
        address=letter.address,
        subject=presenter.email_subject(
            "idle" if idle else "reminder", game_id=letter.game.pk, due_in=summary["due_in"]
        ),
        template="reminder",
        context={"game": summary, "idle": idle},
    )


def _message_deadline(letter: Letter) -> EmailMultiAlternatives:
    move = Move.objects.filter(game=letter.game, number=letter.notice.move_number).first()
    seat = letter.view.you
    missed = seat.timeouts if seat is not None else 0
    return _message(
        user=letter.user,
        address=letter.address,
        subject=presenter.email_subject("deadline", game_id=letter.game.pk),
        template="deadline",
        context={
            "game": game_summary(letter.game, letter.view, letter.now, letter.user),
            "move_text": presenter.action_text(move.action, _bid_total(letter.view, move))
            if move
            else "",
            # Missed enough deadlines that the host may hand the seat to a bot: said so
            # (not to the host, whose own seat it never is; not once it was handed over).
            "missed": missed,
            "hand_over_risk": may_hand_over(
                deadlines=True, timeouts=missed, idle=None, now=letter.now
            )
            and letter.game.created_by_id != letter.user.pk
            and not (seat is not None and seat.handed_over),
        },
    )


def _bid_total(view: TableView, move: Move) -> int | None:
    """The whole of the seat's bid once ``move`` (a bid) was made, from the public log
    (the cards it added come on top of what was out already); None if not known."""
    if move.action.get("type") != "bid" or move.log_end is None or view.state is None:
        return None
    for event in reversed(view.state.log[: move.log_end]):
        if event.get("type") == "bid" and event.get("seat") == move.seat:
            return event["total"]
    return None


def _table_ref(letter: Letter) -> dict[str, Any]:
    """The table an e-mail is about, when it needs no more than its number and link."""
    return {"id": letter.game.pk, "url": game_url(letter.game.pk, letter.user)}


def _message_invitation(letter: Letter) -> EmailMultiAlternatives:
    inviter = letter.about.who

    # Who is at the table, and who is only invited so far (they may yet decline).
    def named(seat) -> str:
        if seat.invited and not seat.accepted:
            return pgettext("seat name", "%(name)s (invited)") % {"name": seat.display_name}
        if seat.is_open:  # in a sentence: "At the table: Bruno, an open seat."
            return (
                pgettext("in a sentence", "a seat kept for the host")
                if seat.held
                else pgettext("in a sentence", "an open seat")
            )
        return seat.display_name

    others = [named(seat) for seat in letter.view.seats_info if not seat.is_you]
    return _message(
        user=letter.user,
        address=letter.address,
        subject=presenter.email_subject("invitation", game_id=letter.game.pk, who=inviter),
        template="invitation",
        context={
            "inviter": inviter,
            "game": _table_ref(letter),
            "players": letter.game.players,
            "others": others,
            "options": presenter.table_option_words(letter.view.options),
            "rematch_of": letter.game.rematch_of_id,
        },
    )


def _message_declined(letter: Letter) -> EmailMultiAlternatives:
    left = _left(letter.about)
    return _message(
        user=letter.user,
        address=letter.address,
        subject=presenter.email_subject(
            "left" if left else "declined", game_id=letter.game.pk, who=letter.about.who
        ),
        template="declined",
        context={
            "left": left,
            "who": letter.about.who,
            "number": letter.about.seat.position + 1 if letter.about.seat else None,
            "game": _table_ref(letter),
            "seats": presenter.waiting_seat_lines(letter.view),
        },
    )


def _message_game_over(letter: Letter) -> EmailMultiAlternatives:
    from accounts.models import PlayerResult

    mine = next((row for row in presenter.score_lines(letter.view) if row["is_you"]), None)
    result = PlayerResult.objects.filter(game=letter.game, user=letter.user).first()
    return _message(
        user=letter.user,
        address=letter.address,
        subject=presenter.email_subject("game_over", game_id=letter.game.pk),
        template="game_over",
        context={
            "game": game_summary(letter.game, letter.view, letter.now, letter.user),
            "place": mine["place"] if mine else None,
            "of": len(letter.view.seats_info),
            "rating": result.rating_after if result and result.rated else None,
            "rating_change": result.rating_change_shown if result and result.rated else None,
            # Why no rating changed, as the end screen says it.
            "unrated_reason": game_ending(game=letter.game, view=letter.view)["unrated_reason"],
            "resigned": bool(result and result.resigned),
            "handed_over": bool(result and result.handed_over),
            "cast_out": bool(mine and mine["cast_out"]),
            "scores": _final_scores(letter.view),
            # From the set-up: "watch" the game again from its start, move by move.
            "replay_url": _absolute(reverse("games:replay", args=[letter.game.pk]) + "?move=0"),
        },
    )


def _message_handed_over(letter: Letter) -> EmailMultiAlternatives:
    seat = next((seat for seat in letter.view.seats_info if seat.is_you), None)
    return _message(
        user=letter.user,
        address=letter.address,
        subject=presenter.email_subject(
            "handed_over", game_id=letter.game.pk, who=letter.about.who
        ),
        template="handed_over",
        context={
            "who": letter.about.who,
            "missed": seat.timeouts if seat else 0,
            # A table without move deadlines: handed over after days without a move.
            "deadlines": bool(letter.game.move_deadline_hours),
            "idle_days": settings.SEAT_TO_BOT_AFTER_IDLE_DAYS,
            # No deadline: the next move's is someone else's, and the reader no longer
            # moves here (it read as a time they had to keep).
            "game": {
                **game_summary(letter.game, letter.view, letter.now, letter.user),
                "deadline_at": None,
            },
        },
    )


def _message_closed(letter: Letter) -> EmailMultiAlternatives:
    host = letter.user.pk == letter.game.created_by_id
    if host:  # only when it expired: the host who closes it is not told
        next_step, url = _("To play, open a new table:"), _absolute(reverse("games:new"))
        button = _("Open a new table")
    else:
        # Not "open tables wait": there may be none right now.
        next_step = _("To play, join a table in the lobby or open one of your own:")
        url, button = _absolute(reverse("lobby")), _("Go to the lobby")
    return _message(
        user=letter.user,
        address=letter.address,
        subject=presenter.email_subject("closed", game_id=letter.game.pk, who=letter.about.who),
        template="closed",
        context={
            "lines": _closed_lines(letter, host),
            "next_step": next_step,
            "next_url": url,
            "next_button": button,
            "game": _table_ref(letter),
        },
    )


def _closed_lines(letter: Letter, host: bool) -> list[str]:
    """Why the table closed, and what became of the reader's seat or invitation."""
    table, days = letter.game.pk, settings.WAITING_TABLE_DAYS
    if letter.about.who:  # its host closed it
        why = _("%(who)s closed table %(table)s before its game started.") % {
            "who": letter.about.who,
            "table": table,
        }
    elif letter.notice.key.endswith(":gone"):  # not the host's choice: said as no more
        why = _("Table %(table)s closed before its game started: its host no longer plays.") % {
            "table": table
        }
    else:
        why = ngettext(
            "Table %(table)s waited %(days)s day for players with no seat taken, left or"
            " changed, so it was closed before its game started.",
            "Table %(table)s waited %(days)s days for players with no seat taken, left or"
            " changed, so it was closed before its game started.",
            days,
        ) % {"table": table, "days": days}
    if host:
        return [why]
    seat = next((seat for seat in letter.view.seats_info if seat.is_you), None)
    if seat is not None and not seat.accepted:
        return [why, _("Your invitation to it no longer stands.")]
    return [why, _("You no longer have a seat there: it does not count against your tables.")]


def _final_scores(view: TableView) -> list[str]:
    """The final scores in one line per seat, in the order of the places, as the end
    screen has them: "1. Bob: status 15, 102,000 (winner)"."""
    lines = []
    for row in presenter.score_lines(view):
        if row["bot_first"]:
            outcome = _("first, played by a bot")
        elif row.get("winner"):
            outcome = _("winner")
        elif row.get("cast_out"):
            outcome = _("cast out")
        else:
            outcome = ""
        text = _("%(place)s. %(name)s: status %(status)s, %(money)s") % {
            "place": row["place"],
            "name": row["name"],
            "status": row["status"],
            "money": presenter.money_text(row["money"]),
        }
        lines.append(f"{text} ({outcome})" if outcome else text)
    return lines


def _message_digest(
    user: Any, address: str, games: list[Game], now: datetime
) -> EmailMultiAlternatives:
    summaries = [game_summary(game, _view(game, user), now, user) for game in games]
    return _message(
        user=user,
        address=address,
        subject=presenter.email_subject("digest", count=len(summaries)),
        template="digest",
        context={"games": summaries},
    )


_MESSAGES = {
    Kind.TURN: _message_turn,
    Kind.REMINDER: _message_reminder,
    Kind.DEADLINE: _message_deadline,
    Kind.INVITATION: _message_invitation,
    Kind.DECLINED: _message_declined,
    Kind.GAME_OVER: _message_game_over,
    Kind.HANDED_OVER: _message_handed_over,
    Kind.CLOSED: _message_closed,
}


def game_summary(game: Game, view: TableView, now: datetime, reader: Any) -> dict[str, Any]:
    """One game for an e-mail, from the player's own view only: the presenter's
    headline (the board's), facts and the last moves of the log, in the board's words
    (who moved for whom: a standing order, a deadline's bot); times in the ``reader``'s
    zone, and the link names them."""
    time_zone = reader.time_zone
    deadline = view.deadline_at
    due_in = presenter.due_in(deadline, now) if deadline else ""
    entries = log_entries(game=game, view=view)
    if entries is None:  # a game stored before the log kept its moves' positions
        log = list(view.log_text[-presenter.LOG_LINES :])
    else:
        log = [entry.text for entry in entries[-presenter.LOG_LINES :]]
    return {
        "orders": _orders_lines(game, view),
        "id": view.id,
        "url": game_url(view.id, reader),
        "over": view.result is not None,
        "headline": (banner := presenter.headline(view)).text,
        "warning": banner.warning,  # their pending Theft and the luxury up
        "facts": presenter.game_facts(view),
        "away": presenter.away_lines(view, zone_named(time_zone) or UTC),
        "log": log,
        "deadline_at": deadline,
        "due_in": due_in,
        "deadline_line": _deadline_line(view, due_in, passed=deadline <= now) if deadline else "",
        "deadline_text": presenter.moment_text(deadline, zone_named(time_zone)) if deadline else "",
    }


def _orders_lines(game: Game, view: TableView) -> list[str]:
    """The reader's own standing orders at this table, in the board's sentences: an
    e-mail that says "your turn" also says what answers for them while they are away
    (nobody else's e-mail has them: the view is the reader's)."""
    orders = orders_view(game=game, view=view)
    if orders is None:
        return []
    lines = presenter.defaults_lines(orders)
    if orders.order is not None:
        lines.insert(0, presenter.order_text(orders.order, orders.card, orders.auction))
    return lines


def _deadline_line(view: TableView, due_in: str, *, passed: bool = False) -> str:
    """Whose move the deadline is for, in the reader's words: theirs, or the next one
    at the table (someone else's: after a bot moved for them, say).  A deadline already
    passed is not "due in 1 minute" (several deadlines of a Yacht Club round pass at
    once, and each is e-mailed as the sweep plays it): its time ran out, and a bot makes
    that move at once."""
    if passed:
        if view.my_turn:
            return _("The time for your move ran out")
        return _("The time for the next move ran out")
    if view.my_turn:
        return _("Your move is due %(due_in)s") % {"due_in": due_in}
    return _("The next move is due %(due_in)s") % {"due_in": due_in}
