"""Every change to a game: one door per kind of change.

Each service takes keyword-only arguments, runs in one transaction with the Game row
locked (``select_for_update``), validates everything before it writes, and raises a
``games.errors.GameError`` whose message a player can read; after an error nothing has
changed.  What happened is announced after the commit (``games.events``): bots,
e-mails and ratings listen; the services know nothing of them.

Moves: ``game_submit_action`` checks the version the caller saw (``Game.version``, the
number of stored moves), the caller's seat and turn, applies the action through the
engine, stores the new state with one ``Move`` row per action, plays forced passes at
once (``Move.Actor.FORCED``), and finishes the game when it is over.  The unique
constraint on (game, number) is the backstop behind the lock.

Bots (``games.bots``) think outside any lock, on a snapshot, and submit their action
here with the version of that snapshot, so a bot never acts on a game that moved on.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import events
from games.ai.orders import (
    MAXIMUM_PROBLEMS,
    Defaults,
    Order,
    defaults_problem,
    order_action,
    order_problem,
)
from games.chat import chat_lines_delete
from games.clock import deadline_compute, hand_over_from, idle_since, may_hand_over, turn_key
from games.engine import (
    ADVANCED_CARDS,
    IllegalAction,
    State,
    apply_action,
    deck_cards,
    forced_action,
    new_game,
    player_view,
    result,
    seats_to_act,
)
from games.engine.state import AUCTION, NOT_BIDDING, OVER, SEALED, THEFT_CHOICE
from games.errors import (
    AlreadySeated,
    AuctionOver,
    GameError,
    IllegalMove,
    InvalidOrder,
    NoSuchSeat,
    NotAllowed,
    NotYourSeat,
    OrdersChanged,
    TableOpenedAlready,
    VersionConflict,
)
from games.models import (
    AI_LEVELS,
    DEADLINE_HOURS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ChatMessage,
    ChatMute,
    Game,
    InvitationBlock,
    Move,
    Notification,
    Seat,
    StandingOrder,
)
from games.presenter import card_name, engine_text, moment_text, quoted
from games.read_model import orders_stamp
from games.selectors import (
    invited_to,
    not_seated,
    orders_refusal,
    player_named,
    player_tables,
    players_by_name,
)
from ops.logcontext import game_logged
from ops.numbers import digits

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

RESIGNED_BOT_LEVEL = "medium"
# Actors that may come through game_submit_action (forced passes are played inside it).
SUBMIT_ACTORS = (Move.Actor.PLAYER, Move.Actor.BOT, Move.Actor.DEADLINE)


# --------------------------------------------------------------------------- tables


ONCE_MAX_LENGTH = Game._meta.get_field("form_once").max_length


def game_create(
    *,
    creator: User,
    players: int,
    seats: Sequence[dict[str, Any]],
    advanced: Iterable[str] = (),
    move_deadline_hours: int | None = None,
    memory_aid: bool = False,
    deck: Sequence[str] | None = None,
    first_player: int | None = None,
    once: str = "",
    rematch_of: Game | None = None,
) -> Game:
    """Open a table; it starts at once when every seat is filled (bots, the creator).

    ``seats`` lists the other seats (the creator then takes seat 0) or all of them (the
    creator's own username marks their seat).  Each entry is ``{"user": username}`` (an
    invitation), ``{"ai": level}`` or ``{"open": True}``.  ``deck`` and ``first_player``
    fix a scenario game and are for staff only.  ``once``: the request's one-time value
    (the form's, an API client's ``Idempotency-Key``); the same value again opens no
    second table but raises ``TableOpenedAlready`` with the first.  ``rematch_of``: the
    finished game this table replays (``game_rematch``), whose people are invited again
    past the cap of invitations to one person (``_invitations_check``).
    """
    _user_require(creator, NotAllowed(_("Log in to open a table.")))
    players = _players_check(players)
    specs = _seats_parse(creator=creator, players=players, seats=seats)
    advanced_list = _advanced_check(advanced)
    move_deadline_hours = _deadline_check(move_deadline_hours)
    if not isinstance(memory_aid, bool):
        raise GameError(_("The memory aid is either on or off (true or false)."))
    if deck is not None or first_player is not None:
        if not creator.is_staff:
            raise NotAllowed(_("Only staff can fix the deck or the first player (scenario games)."))
        if deck is not None:
            deck = _deck_check(deck, advanced_list)
        if first_player is not None:
            first_player = _first_player_check(first_player, players)

    if not isinstance(once, str) or len(once) > ONCE_MAX_LENGTH:
        raise GameError(
            _("A request's one-time value is text of at most %(most)s characters.")
            % {"most": ONCE_MAX_LENGTH}
        )
    with transaction.atomic():
        if once:
            _account_lock(creator)  # the same request twice at once: one after the other
            earlier = Game.objects.filter(created_by=creator, form_once=once).first()
            if earlier is not None:
                raise TableOpenedAlready(
                    _("This request opened its table already (table %(table)s).")
                    % {"table": earlier.pk},
                    game=earlier,
                )
        _limits_check(creator, specs=specs, rematch=rematch_of is not None)
        game = Game.objects.create(
            status=Game.Status.OPEN,
            created_by=creator,
            players=players,
            advanced=advanced_list,
            memory_aid=memory_aid,
            move_deadline_hours=move_deadline_hours,
            scenario_deck=deck,
            scenario_first_player=first_player,
            form_once=once,
            rematch_of=rematch_of,
        )
        now = game.created_at  # a table that starts at once starts as it is created
        seat_rows = []
        for position, (kind, value) in enumerate(specs):
            seat = Seat(game=game, position=position)
            if kind == "creator":
                seat.user, seat.accepted, seat.joined_at = creator, True, now
            elif kind == "user":
                seat.user = value
            elif kind == "ai":
                seat.ai_level, seat.accepted, seat.joined_at = value, True, now
            seat_rows.append(seat)
        Seat.objects.bulk_create(seat_rows)
        invited = [
            seat.user.pk for seat in seat_rows if seat.user is not None and not seat.accepted
        ]
        if invited:
            events.announce_now(
                events.invited, game_id=game.pk, user_ids=invited, by_user_id=creator.pk
            )
        if all(seat.is_filled for seat in seat_rows):
            _game_start(game, seat_rows, now)
    game.refresh_from_db()  # without a broker, the bots' opening turns ran on commit
    return game


@game_logged
def game_rematch(*, game: Game, user: User) -> tuple[Game, bool]:
    """A new table like the finished ``game``: the same seats in the same order (its
    people invited again, the requester seated, its bots again), the same options, a
    new shuffle.  One rematch per game: asked again (by anyone) it is the same table,
    and asking counts as accepting one's invitation there.  A player who blocks the
    requester's invitations is not invited: their seat is kept for the host, as when an
    invitation is declined.  Returns the table and whether this call opened it (as
    ``get_or_create`` does)."""
    _user_require(user, NotYourSeat(_("Log in to ask for a rematch.")))
    with transaction.atomic():
        locked, seats = _game_lock_with_seats(game)
        seat = _seat_of_user(seats, user)
        if seat is None or not seat.accepted:
            raise NotYourSeat(_("Only the players of this game can ask for a rematch."))
        if locked.status == Game.Status.ABANDONED:
            raise NotAllowed(_("This table was closed before it started: there is no rematch."))
        if locked.status != Game.Status.FINISHED:
            raise NotAllowed(_("The game is not over yet: a rematch comes after the end."))
        existing = Game.objects.filter(rematch_of=locked).first()
        if existing is not None and existing.status == Game.Status.ABANDONED:
            # Closed before it started, before closing released it: it counts no more.
            Game.objects.filter(pk=existing.pk).update(rematch_of=None)
            existing = None
        if existing is None:
            rematch = _rematch_open(locked, seats, user)
    if existing is not None:
        invited = existing.seats.filter(user=user, accepted=False).exists()
        if invited and existing.status == Game.Status.OPEN:
            try:
                game_join(game=existing, user=user)
            except NotAllowed:
                # Asked twice at once: the other request took the seat (and may have
                # started the table).  Seated either way: the same answer.
                if not existing.seats.filter(user=user, accepted=True).exists():
                    raise
            existing.refresh_from_db()
        return existing, False
    # Read again after the commit: without a broker the bots' opening turns ran on it.
    rematch.refresh_from_db()
    return rematch, True


def _rematch_open(locked: Game, seats: list[Seat], user: User) -> Game:
    """The rematch table of ``locked`` (locked, finished, none yet), opened by ``user``."""
    blocking = set(
        InvitationBlock.objects.filter(
            blocked=user, user__in=[s.user_id for s in seats if s.user_id]
        ).values_list("user_id", flat=True)
    )
    specs = [{"open": True} if s.user_id in blocking else _rematch_seat(s) for s in seats]
    rematch = game_create(
        creator=user,
        players=locked.players,
        seats=specs,
        advanced=locked.advanced or (),
        move_deadline_hours=locked.move_deadline_hours,
        memory_aid=locked.memory_aid,
        rematch_of=locked,
    )
    for s in seats:  # their seats wait for the host's choice, never for a stranger
        if s.user_id in blocking:
            Seat.objects.filter(game=rematch, position=s.position).update(declined_by=s.user_id)
    # The finished table changed too: its open end screens show the rematch.
    locked.save(update_fields=["updated_at"])
    events.announce(events.board_changed, game_id=locked.pk, version=locked.version)
    return rematch


def _rematch_seat(seat: Seat) -> dict[str, Any]:
    """A seat of the finished game as ``game_create`` takes it: its person invited
    again, its bot again; the seat of an account deleted (or closed) since is open."""
    if seat.user_id is None:
        return {"ai": seat.ai_level}
    return {"user": seat.user.username} if seat.user.is_active else {"open": True}


# What taking, declining or leaving a seat before the start writes.
SEAT_TAKEN_FIELDS = [
    "user",
    "accepted",
    "joined_at",
    "declined_by",
    "declined_after_joining",
    "by_invitation",
]


@game_logged
def game_join(*, game: Game, user: User) -> Seat:
    """Take a seat: an invited user accepts their invitation (one who declined it, or
    left after accepting, takes that seat back while it waits for the host), anyone
    else takes the lowest open seat.  The game starts when this fills the last seat."""
    _user_require(user, NotAllowed(_("Log in to join a table.")))
    now = timezone.now()
    with transaction.atomic():
        locked, seats = _game_lock_with_seats(game)
        seat = _seat_of_user(seats, user)
        playing = locked.status in (Game.Status.OPEN, Game.Status.ACTIVE)
        if playing and seat is not None and seat.accepted and not seat.resigned:  # again
            raise AlreadySeated(_("You already have a seat at this table."))
        _open_require(locked)
        given_up = next((s for s in seats if s.held and s.declined_by_id == user.pk), None)
        if seat is None and given_up is not None and invited_to(locked, user):
            seat = given_up  # they take back the seat of their invitation
            seat.user = user
            # The host's notice of the decline goes: leaving again owes a new one.
            Notification.objects.filter(
                user_id=locked.created_by_id,
                kind=Notification.Kind.DECLINED,
                key=f"{locked.pk}:{user.pk}",
            ).delete()
        seat_invited = seat is not None
        if seat is None:
            seat = next((s for s in seats if s.is_open), None)
            if seat is None:
                if any(s.held for s in seats):
                    raise NotAllowed(
                        _(
                            "No seat is open: those not taken are kept for invited players "
                            "or for the host to fill."
                        )
                    )
                if any(s.user_id is not None and not s.accepted for s in seats):
                    raise NotAllowed(
                        _("No seat is open: those not taken are kept for invited players.")
                    )
                raise NotAllowed(_("This table is full."))
            seat.user = user
        _limits_check(user)
        if not seat_invited:
            _joined_check(user)
        seat.accepted, seat.joined_at, seat.declined_by = True, now, None
        seat.by_invitation, seat.declined_after_joining = seat_invited, False
        seat.save(update_fields=SEAT_TAKEN_FIELDS)
        _table_touch_or_start(locked, seats, now)
    _game_sync(game, locked)
    return seat


@game_logged
def game_invitation_respond(*, game: Game, user: User, accept: bool, block: bool = False) -> Game:
    """Accept (take the reserved seat) or decline (the seat waits for the host's choice:
    ``Seat.held``); ``block`` with a decline: take no more invitations from the table's
    creator, even once the invitation is withdrawn or declined (a host who invites and
    withdraws at once left nothing to block)."""
    _user_require(user, NotAllowed(_("Log in to answer an invitation.")))
    if not isinstance(accept, bool) or not isinstance(block, bool) or (accept and block):
        raise GameError(_("Answer the invitation with accept or decline."))
    now = timezone.now()
    with transaction.atomic():
        locked, seats = _game_lock_with_seats(game)
        seat = _seat_of_user(seats, user)
        if block and seat is None and invited_to(locked, user):
            InvitationBlock.objects.get_or_create(user=user, blocked_id=locked.created_by_id)
            return _game_sync(game, locked)
        _open_require(locked)
        if seat is not None and seat.accepted:  # answered already (another tab, say)
            raise AlreadySeated(
                _("You already sit at this table, in seat %(number)s.")
                % {"number": seat.position + 1}
            )
        if seat is None or not seat.invited:
            raise NotAllowed(_("You have no open invitation to this table."))
        if accept:
            _limits_check(user)
            seat.accepted, seat.joined_at, seat.by_invitation = True, now, True
        else:
            seat.user, seat.declined_by = None, user  # the host sees who declined
            seat.declined_after_joining = False
            _declined_announce(locked, user)
        seat.save(update_fields=SEAT_TAKEN_FIELDS)
        if block and locked.created_by_id != user.pk:
            InvitationBlock.objects.get_or_create(user=user, blocked_id=locked.created_by_id)
        _table_touch_or_start(locked, seats, now)
    return _game_sync(game, locked)


def invitations_decline_all(*, user: User) -> int:
    """Decline every invitation ``user`` has not answered (each table's seat waits for
    its host, one table at a time, each under its own lock).  Returns how many were
    declined."""
    _user_require(user, NotAllowed(_("Log in to answer your invitations.")))
    waiting = Game.objects.filter(
        status=Game.Status.OPEN, seats__user=user, seats__accepted=False
    ).values_list("pk", flat=True)
    declined = 0
    for game_id in list(waiting):
        try:
            game_invitation_respond(game=Game(pk=game_id), user=user, accept=False)
        except (NotAllowed, GameError):
            continue  # answered, started or abandoned meanwhile
        declined += 1
    return declined


def invitation_block_lift(*, user: User, username: Any) -> User:
    """``user`` takes invitations from the player ``username`` again (undoes "Decline
    and block").  Returns that player; nothing changes when there was no block."""
    _user_require(user, NotAllowed(_("Log in to change whom you take invitations from.")))
    other = player_named(username)
    if other is None:
        raise NotAllowed(_("There is no such player."))
    InvitationBlock.objects.filter(user=user, blocked=other).delete()
    return other


def _declined_announce(game: Game, user: User) -> None:
    """Inside the decline's transaction: the host's notice commits with it (what the
    invitation's link then reads: ``selectors.invitation_withdrawn``), sent after."""
    events.announce_now(
        events.declined, game_id=game.pk, host_id=game.created_by_id, by_user_id=user.pk
    )


@game_logged
def game_seat_set(*, game: Game, user: User, position: Any, seat: Any) -> Game:
    """The table's creator changes a seat that nobody has taken while the table waits
    for players: open it, give it to a bot, or invite a player there.  ``seat`` is
    written as in ``game_create`` (``{"open": true}``, ``{"ai": level}``,
    ``{"user": username}``); ``position`` counts from 0.  An unanswered invitation to
    that seat is withdrawn; a seat a player has taken stays theirs.  The game starts
    when this fills the last seat.  A seat already as asked (the request sent twice,
    perhaps after the first started the game) is left as it is, without an error."""
    _user_require(user, NotAllowed(_("Log in to manage your table.")))
    if isinstance(position, bool) or not isinstance(position, int):
        raise GameError(_("Choose the seat by its number."))
    kind, value = _seat_entry(seat, position + 1)
    try:
        invitee = _invitee(user, value, players_by_name([value])) if kind == "user" else None
    except GameError as error:
        raise error.about("user") from None
    now = timezone.now()
    with transaction.atomic():
        locked, seats = _game_lock_with_seats(game)
        if locked.created_by_id != user.pk:
            raise NotAllowed(_("Only the table's creator can change its seats."))
        target = seats[position] if 0 <= position < len(seats) else None
        if target is not None and target.user_id == user.pk:
            raise NotAllowed(_("This is your own seat."))
        if target is not None and locked.status != Game.Status.ABANDONED:
            if _seat_is(target, kind, value, invitee):  # sent again: what was asked holds
                return _game_sync(game, locked)
        _open_require(locked)
        if target is None:
            raise NoSuchSeat(
                _("There is no seat %(number)s at this table.") % {"number": position + 1},
                position=position,
                seats=len(seats),
            )
        if target.user_id is not None and target.accepted:
            raise NotAllowed(
                _("%(name)s has taken this seat; it stays theirs.") % {"name": target.display_name}
            )
        if invitee is not None:
            held = _seat_of_user(seats, invitee)
            if invitee.pk == user.pk:
                raise GameError(_("You already sit at this table.")).about("user")
            if held is not None:
                raise GameError(
                    _("%(name)s already has a seat at this table.") % {"name": quoted(value)}
                ).about("user")
        _account_lock(user)  # the limits below count this account's tables
        if invitee is not None:
            _invitations_check(user, [invitee], withdrawn=int(target.invited))
        others = [s for s in seats if s is not target and s.user_id != user.pk]
        if kind == "ai" and all(s.is_bot for s in others):
            _bot_only_check(user)  # it starts now, against bots only
        target.user = invitee
        target.ai_level = value if kind == "ai" else ""
        target.accepted = kind == "ai"
        target.joined_at = now if kind == "ai" else None
        target.declined_by, target.declined_after_joining = None, False
        target.save(
            update_fields=[
                "user",
                "ai_level",
                "accepted",
                "joined_at",
                "declined_by",
                "declined_after_joining",
            ]
        )
        if invitee is not None:
            events.announce_now(
                events.invited, game_id=locked.pk, user_ids=[invitee.pk], by_user_id=user.pk
            )
        _table_touch_or_start(locked, seats, now)
    logger.info("game %s: seat %s set to %s by the creator", locked.pk, position, kind)
    return _game_sync(game, locked)


def _seat_is(seat: Seat, kind: str, value: Any, invitee: Any) -> bool:
    """The seat is already as ``game_seat_set`` would make it (a request sent twice;
    the second one may come after the first filled the last seat and started the game)."""
    if kind == "ai":
        return seat.user_id is None and seat.ai_level == value
    if kind == "user":
        return invitee is not None and seat.user_id == invitee.pk and not seat.resigned
    return seat.is_open


@game_logged
def game_leave(*, game: Game, user: User, withdrawn: str = "") -> Game:
    """Leave a table before it starts (an invited user declines).  When the creator
    leaves, the table is abandoned.  ``withdrawn``: staff or a deletion takes the
    account out of its tables (``player_tables_leave``), not the player's own choice;
    it says why (``Game.ClosedReason``: the host's account suspended or deleted), and a
    table of the account's own keeps it as the reason it closed."""
    _user_require(user, NotYourSeat(_("You do not have a seat at this table.")))
    with transaction.atomic():
        locked, seats = _game_lock_with_seats(game)
        seat = _seat_of_user(seats, user)
        if seat is None:
            raise NotYourSeat(_("You do not have a seat at this table."))
        if locked.status == Game.Status.ACTIVE:
            raise NotAllowed(_("The game has started: you can resign instead of leaving."))
        _open_require(locked)
        if user.pk == locked.created_by_id:
            _table_close(locked, reason=Game.ClosedReason(withdrawn or Game.ClosedReason.HOST))
        else:
            if not seat.accepted or seat.by_invitation:
                # An invitation declined by leaving, or given up after accepting: the
                # seat waits for the host, who is told (a table of friends stays theirs).
                seat.declined_by, seat.declined_after_joining = user, seat.accepted
                if not withdrawn:
                    # Withdrawn (a deletion, a suspension), it is no answer of theirs:
                    # the host's e-mail would say "… may take it back" and name someone
                    # whose name the deletion is erasing.  The seat waits for the host
                    # as after a decline; their table and lobby say so.
                    _declined_announce(locked, user)
            seat.user, seat.accepted, seat.joined_at = None, False, None
            seat.by_invitation = False
            seat.save(update_fields=SEAT_TAKEN_FIELDS)
            locked.save(update_fields=["updated_at"])
        _board_changed(locked)
    return _game_sync(game, locked)


def waiting_table_expire(*, game_id: int, now: datetime) -> bool:
    """Close a table that has waited for players ``WAITING_TABLE_DAYS`` days with no
    seat taken, left or changed, as its host's leaving closes it: in the lobby it kept
    the people seated there waiting for a game that did not come, and counted against
    its host's waiting tables for ever.  False when it has changed or started since."""
    from django.conf import settings

    with transaction.atomic():
        locked = Game.objects.select_for_update().filter(pk=game_id).first()
        quiet_since = now - timedelta(days=settings.WAITING_TABLE_DAYS)
        if locked is None or locked.status != Game.Status.OPEN or locked.updated_at > quiet_since:
            return False
        _table_close(locked, reason=Game.ClosedReason.WAITED)
        _board_changed(locked)
    logger.info(
        "game %s: closed after waiting %s days for players", game_id, settings.WAITING_TABLE_DAYS
    )
    return True


# What the e-mails about a closed table say of each reason (the key of their rows):
# its host "left", the host's account is "gone" (suspended or deleted: the host chose
# nothing), or it "expired" (it waited too long).
CLOSED_TOLD = {
    Game.ClosedReason.HOST: "left",
    Game.ClosedReason.HOST_SUSPENDED: "gone",
    Game.ClosedReason.HOST_DELETED: "gone",
    Game.ClosedReason.WAITED: "expired",
}


def _table_close(locked: Game, *, reason: Game.ClosedReason) -> None:
    """Close a table before its game starts, for ``reason`` (kept, with the time, for
    staff).  Abandoned, no longer the rematch of its finished game, and the people
    seated or invited there told (the host too when it expired)."""
    why = CLOSED_TOLD[reason]
    expired = why == "expired"
    locked.status, locked.closed_waiting = Game.Status.ABANDONED, expired
    locked.closed_reason, locked.closed_at = reason, timezone.now()
    locked.save(
        update_fields=["status", "closed_waiting", "closed_reason", "closed_at", "updated_at"]
    )
    if locked.rematch_of_id is not None:
        _rematch_release(locked)
    told = Seat.objects.filter(game=locked, user__isnull=False).values_list("user_id", flat=True)
    user_ids = [pk for pk in told if expired or pk != locked.created_by_id]
    if user_ids:
        events.announce_now(
            events.table_closed,
            game_id=locked.pk,
            host_id=locked.created_by_id,
            user_ids=user_ids,
            why=why,
        )


def _rematch_release(closed: Game) -> None:
    """A rematch closed before it started no longer stands for its finished game: the
    players there may ask for another, and its end screens stop naming this table."""
    finished = Game.objects.select_for_update().get(pk=closed.rematch_of_id)
    Game.objects.filter(pk=closed.pk).update(rematch_of=None)
    closed.rematch_of = None
    finished.save(update_fields=["updated_at"])
    events.announce(events.board_changed, game_id=finished.pk, version=finished.version)


@game_logged
def game_start(*, game: Game) -> Game:
    """Start a table whose seats are all filled.  The join services call this by
    themselves when the last seat fills; calling it again changes nothing."""
    now = timezone.now()
    with transaction.atomic():
        locked, seats = _game_lock_with_seats(game)
        _open_require(locked)
        if not all(seat.is_filled for seat in seats):
            raise NotAllowed(_("The game starts when every seat is filled."))
        _game_start(locked, seats, now)
    return _game_sync(game, locked)


@game_logged
def game_resign(*, game: Game, user: User) -> Game:
    """Give up: a bot (medium) plays the seat to the end, so the game stays whole."""
    _user_require(user, NotYourSeat(_("You do not have a seat at this table.")))
    now = timezone.now()
    with transaction.atomic():
        locked, seats = _game_lock_with_seats(game)
        seat = _seat_in_running_game(
            locked,
            seats,
            user,
            not_started=NotAllowed(
                _("The game has not started: leave the table instead of resigning.")
            ),
            over=NotAllowed(_("The game is over.")),
        )
        if seat.resigned:
            raise NotAllowed(_("You have already resigned from this game."))
        seat.ai_level, seat.resigned = RESIGNED_BOT_LEVEL, True
        seat.resigned_after = locked.version
        seat.save(update_fields=["ai_level", "resigned", "resigned_after"])
        StandingOrder.objects.filter(seat=seat).delete()  # the bot plays the seat now
        state = locked.engine_state()
        _deadline_set(locked, seats, state, now, restart=False)
        locked.save(update_fields=["deadline_at", "updated_at"])
        _board_changed(locked)
        if seat.position in seats_to_act(state):
            _bots_announce(locked)
    return _game_sync(game, locked)


def _idle_enough(game: Game, seat: Seat, now: datetime) -> None:
    """At a table without a move deadline, a seat may be handed to a bot once its person
    has kept the table waiting ``SEAT_TO_BOT_AFTER_IDLE_DAYS`` days (counted from a
    vacation's end, if later: ``games.clock.idle_since``); else NotAllowed saying from
    when."""
    from django.conf import settings

    days = settings.SEAT_TO_BOT_AFTER_IDLE_DAYS
    if seat.position not in seats_to_act(game.engine_state()):
        raise NotAllowed(
            ngettext(
                "The game is not waiting for this seat. At a table without move deadlines, a "
                "seat can be handed to a bot once its player has kept the table waiting for "
                "%(days)s day.",
                "The game is not waiting for this seat. At a table without move deadlines, a "
                "seat can be handed to a bot once its player has kept the table waiting for "
                "%(days)s days.",
                days,
            )
            % {"days": days}
        )
    since = idle_since(game, seat.user)
    if not may_hand_over(deadlines=False, timeouts=seat.timeouts, idle=since, now=now):
        raise NotAllowed(
            ngettext(
                "At a table without move deadlines, a seat can be handed to a bot after "
                "%(days)s day without its move: this one from %(moment)s.",
                "At a table without move deadlines, a seat can be handed to a bot after "
                "%(days)s days without its move: this one from %(moment)s.",
                days,
            )
            % {
                "days": days,
                "moment": moment_text(hand_over_from(since), timezone.get_current_timezone()),
            }
        )


@game_logged
def game_seat_to_bot(*, game: Game, user: User, position: Any) -> Game:
    """The table's creator hands an absent player's seat to a bot (medium) for good,
    once the seat has missed ``SEAT_TO_BOT_AFTER_TIMEOUTS`` deadlines (async play), or,
    at a table without a move deadline, once its player has kept the table waiting
    ``SEAT_TO_BOT_AFTER_IDLE_DAYS`` days.
    The seat is then played like a resigned one; its player is still listed there."""
    from django.conf import settings

    _user_require(user, NotAllowed(_("Log in to manage your table.")))
    if isinstance(position, bool) or not isinstance(position, int):
        raise GameError(_("Choose the seat by its number."))
    now = timezone.now()
    with transaction.atomic():
        locked, seats = _game_lock_with_seats(game)
        if not 0 <= position < len(seats):  # for anyone: the table's size is public
            raise NoSuchSeat(
                _("There is no seat %(number)s at this table.") % {"number": position + 1},
                position=position,
                seats=len(seats),
            )
        if locked.created_by_id != user.pk:
            raise NotAllowed(_("Only the table's creator can hand a seat to a bot."))
        seat = seats[position]
        if seat.handed_over:  # sent again (a retry, a double click): what was asked holds
            return _game_sync(game, locked)
        if locked.status != Game.Status.ACTIVE:
            raise NotAllowed(_("Only a running game's seats can be handed to a bot."))
        if seat.is_bot:
            raise NotAllowed(_("A bot already plays this seat."))
        if seat.user_id == user.pk:
            raise NotAllowed(_("This is your own seat: resign instead."))
        if locked.move_deadline_hours:
            needed = settings.SEAT_TO_BOT_AFTER_TIMEOUTS
            if not may_hand_over(deadlines=True, timeouts=seat.timeouts, idle=None, now=now):
                raise NotAllowed(
                    ngettext(
                        "This seat has missed %(count)s deadline; it can be handed to a bot after %(needed)s.",
                        "This seat has missed %(count)s deadlines; it can be handed to a bot after %(needed)s.",
                        seat.timeouts,
                    )
                    % {"count": seat.timeouts, "needed": needed}
                )
        else:
            _idle_enough(locked, seat, now)
        seat.ai_level, seat.resigned, seat.handed_over = RESIGNED_BOT_LEVEL, True, True
        seat.resigned_after = locked.version
        seat.save(update_fields=["ai_level", "resigned", "handed_over", "resigned_after"])
        StandingOrder.objects.filter(seat=seat).delete()
        events.announce_now(events.seat_handed_over, game=locked, seat=seat)
        state = locked.engine_state()
        _deadline_set(locked, seats, state, now, restart=False)
        locked.save(update_fields=["deadline_at", "updated_at"])
        _board_changed(locked)
        if seat.position in seats_to_act(state):
            _bots_announce(locked)
    logger.info("game %s: seat %s handed to a bot by the creator", locked.pk, position)
    return _game_sync(game, locked)


# --------------------------------------------------------------------------- moves


@game_logged
def game_submit_action(
    *,
    game: Game,
    user: User | None,
    action: dict[str, Any],
    expected_version: int,
    actor: str = Move.Actor.PLAYER,
) -> Game:
    """The one door for every move (people, bots, deadline sweeps).

    Checks, in this order: the caller's seat (``NotYourSeat``), that the game is running,
    the version the caller saw (``VersionConflict``), that the seat is to act
    (``NotYourSeat``) and the rules (``IllegalMove``).  The action's ``"seat"`` may be
    left out for a player.  ``user=None`` only for bots and deadline moves, whose action
    names the seat.  Returns ``game`` updated (after the bots' replies when those ran
    in-process).
    """
    expected_version = _version_parse(expected_version)
    if actor not in SUBMIT_ACTORS:
        raise NotAllowed(_("Only players, bots and deadlines make moves."))
    if actor == Move.Actor.PLAYER:
        _user_require(user, NotYourSeat(_("Log in and take a seat to play.")))
    elif user is not None:
        raise NotAllowed(_("Bot and deadline moves are made without a user."))
    if not isinstance(action, dict):
        raise IllegalMove(
            _("An action must be an object with a type: bid, pass, discard or sealed_bid.")
        )

    with transaction.atomic():
        locked, seats = _game_lock_with_seats(game)
        seat = _acting_seat(seats, user, action, actor)
        if locked.status == Game.Status.OPEN:
            raise NotAllowed(_("The game has not started yet."))
        if locked.status == Game.Status.ABANDONED:
            raise NotAllowed(_("This table was closed."))
        state = locked.engine_state() if locked.status == Game.Status.ACTIVE else None
        if expected_version > locked.version:  # never shown: a forged or garbled form
            raise VersionConflict(
                _(
                    "The game is at move %(version)s; no page showed move %(seen)s. Look at "
                    "the board again before you act."
                )
                % {"version": locked.version, "seen": expected_version},
                version=locked.version,
            )
        if expected_version != locked.version and not _sealed_choice_stands(
            locked, state, action, expected_version
        ):
            raise VersionConflict(
                _(
                    "The game has moved on since you loaded it: it is at move %(version)s, you "
                    "saw move %(seen)s. Look at the board again before you act."
                )
                % {"version": locked.version, "seen": expected_version},
                version=locked.version,
            )
        if state is None:
            raise NotAllowed(_("The game is over."))
        if seat.position not in seats_to_act(state):
            raise NotYourSeat(_not_your_turn_text(state, seat.position))
        act = {**action, "seat": seat.position}
        try:
            new_state = apply_action(state, act)
        except IllegalAction as error:
            raise IllegalMove(engine_text(error.args[0])) from None
        moves: list[Move] = []
        _move_append(
            locked, moves, _action_normal(act), actor, user if actor == Move.Actor.PLAYER else None
        )
        moves[-1].log_end = len(new_state.events)
        transaction.on_commit(lambda: _moves_log(locked, moves))  # with the forced passes
        _game_advance(locked, seats, state, new_state, moves, timezone.now(), actor)
    return _game_sync(game, locked)


# --------------------------------------------------------------------------- deadlines


def _sealed_choice_stands(
    game: Game, state: State | None, action: dict[str, Any], seen: int
) -> bool:
    """A Yacht Club choice does not depend on the others' (they are sealed): it is
    taken although the game moved on since ``seen``, as long as the sealed phase the
    player saw is still open, i.e. every move since then was another seat's sealed
    choice.  Whether this seat may still choose is checked next, as for any move."""
    if state is None or state.phase != SEALED or action.get("type") != "sealed_bid":
        return False
    if not 0 <= seen < game.version:
        return False
    since = Move.objects.filter(game=game, number__gte=seen)
    return not since.exclude(action__type="sealed_bid").exists()


def people_to_act(game: Game, seats: list[Seat]) -> list[Seat]:
    """The seats of the people (not bots) to act now, in seat order."""
    by_position = {seat.position: seat for seat in seats}
    return [
        by_position[p]
        for p in seats_to_act(game.engine_state())
        if not by_position[p].is_bot and by_position[p].user_id is not None
    ]


@game_logged
def game_deadline_refresh(
    *, game_id: int, since: datetime | None = None, user_id: int | None = None
) -> Game | None:
    """Recompute a running game's deadline after a vacation began or ended (of
    ``user_id``: only when that player is to act).  The row is locked, and its
    ``updated_at`` moves on either way, so every board shows the change."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE:
            return None
        fields = ["updated_at"]
        if game.move_deadline_hours and game.deadline_at is not None:
            people = people_to_act(game, list(game.seats.all()))
            if people and (user_id is None or any(s.user_id == user_id for s in people)):
                game.deadline_at = deadline_compute(
                    game=game, user_ids=[seat.user_id for seat in people], since=since
                )
                fields.append("deadline_at")
        game.save(update_fields=fields)
        _board_changed(game)
        return game


# --------------------------------------------------------------------------- vacations
# A vacation pauses the player's move clock in every running game (games.clock).


def _active_game_ids(user: Any) -> list[int]:
    return list(
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            seats__user=user,
            seats__accepted=True,
            seats__resigned=False,
        ).values_list("pk", flat=True)
    )


def vacation_start(
    *, user: Any, days: Any, now: datetime | None = None, seen: str | None = None
) -> Any:
    """Pause the player's deadlines for ``days`` whole days from now (or from the end
    of the vacation they are on: it grows).  At most ``VACATION_DAYS_PER_YEAR`` days per
    calendar year, counted in the year the days are taken.  ``seen``: the vacation as
    the form's page showed it (``User.vacation_mark``); if it has changed since (the
    form sent twice: a double-click), nothing is added."""
    from accounts.models import User

    now = now or timezone.now()
    if isinstance(days, str) and digits(days.strip()):
        days = int(days.strip())
    if isinstance(days, bool) or not isinstance(days, int) or days < 1:
        raise GameError(_("Choose a number of whole days, at least one."))
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if seen is not None and seen != locked.vacation_mark(now):
            if seen != "none" and not locked.on_vacation(now):  # ran out, or ended elsewhere
                raise NotAllowed(
                    _(
                        "Nothing was added: your vacation ended after this page was shown. "
                        "Your deadlines run again; start a new vacation if you want one."
                    )
                )
            raise NotAllowed(
                _(
                    "Nothing was added: your vacation changed after this page was shown "
                    "(was the form sent twice?). The page now shows when it ends."
                )
            )
        left = locked.vacation_days_left(now)
        if days > left:
            raise NotAllowed(
                ngettext(
                    "You have %(count)s vacation day left this year; you asked for %(days)s.",
                    "You have %(count)s vacation days left this year; you asked for %(days)s.",
                    left,
                )
                % {"count": left, "days": days}
            )
        used = locked.vacation_days_taken(now.year)
        start = locked.vacation_until if locked.on_vacation(now) else now
        locked.vacation_until = start + timedelta(days=days)
        locked.vacation_year, locked.vacation_days_used = now.year, used + days
        locked.save(update_fields=["vacation_until", "vacation_year", "vacation_days_used"])
    for game_id in _active_game_ids(locked):
        game_deadline_refresh(game_id=game_id, user_id=locked.pk)
    user.vacation_until = locked.vacation_until
    user.vacation_year, user.vacation_days_used = locked.vacation_year, locked.vacation_days_used
    return user


def vacation_end(*, user: Any, now: datetime | None = None) -> Any:
    """Come back early: the whole days not begun are given back, and the deadlines of
    the player's turns are a full move time from now."""
    from accounts.models import User

    now = now or timezone.now()
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if not locked.on_vacation(now):
            raise NotAllowed(_("You are not on vacation."))
        unused = (locked.vacation_until - now) // timedelta(days=1)
        if locked.vacation_year == now.year:
            locked.vacation_days_used = max(0, locked.vacation_days_used - unused)
        # Ended now, not erased: a table without deadlines counts the wait for their move
        # from a vacation's end (games.clock.idle_since), as a deadline restarts then.
        locked.vacation_until = now
        locked.save(update_fields=["vacation_until", "vacation_days_used"])
    for game_id in _active_game_ids(locked):
        game_deadline_refresh(game_id=game_id, since=now, user_id=locked.pk)
    # The turn e-mails that waited for the vacation's end go now (games.notifications).
    Notification.objects.filter(
        user=locked,
        kind=Notification.Kind.TURN,
        status=Notification.Status.PENDING,
        due_at__gt=now,
    ).update(due_at=now)
    user.vacation_until, user.vacation_days_used = now, locked.vacation_days_used
    return user


# --------------------------------------------------------------------------- leaving for good
# A player who deletes their account (accounts.deletion) first leaves every table here,
# through the same services a player uses, each table under its own lock.


class Withdrawal(NamedTuple):
    """What ``player_withdraw`` did: tables left (invitations declined among them),
    tables of the player's own closed, running games handed to a bot."""

    left: int
    closed: int
    resigned: int


def player_commitments(*, user: Any) -> Withdrawal:
    """What ``player_withdraw`` would do now (the deletion page says it before)."""
    return Withdrawal(**{what: len(tables) for what, tables in player_tables(user=user).items()})


def player_withdraw(*, user: Any) -> Withdrawal:
    """Take ``user`` out of every table for good (``player_tables_leave``), then drop
    what they said and set: their chat lines, mutes and invitation blocks both ways,
    their unsent notices.  Finished games keep them in their seats: the records stay
    true."""
    withdrawal = player_tables_leave(user=user, why=Game.ClosedReason.HOST_DELETED)
    chat_lines_delete(lines=ChatMessage.objects.filter(user=user))
    with transaction.atomic():
        ChatMute.objects.filter(Q(user=user) | Q(muted=user)).delete()
        InvitationBlock.objects.filter(Q(user=user) | Q(blocked=user)).delete()
        Notification.objects.filter(user=user).delete()
    return withdrawal


def player_tables_leave(*, user: Any, why: str) -> Withdrawal:
    """Take ``user`` out of every table they play: leave each waiting table (declining
    its invitation; a table of their own is closed) and resign each running game (a bot
    plays the seat to the end, so the others' game stays whole).  For an account that
    is deleted or suspended by staff, ``why``: "deleted" or "suspended" (the values of
    ``Game.ClosedReason``), which a table of their own keeps as the reason it closed;
    the account must still be active while it runs."""
    reason = Game.ClosedReason(why)
    if reason not in (Game.ClosedReason.HOST_SUSPENDED, Game.ClosedReason.HOST_DELETED):
        raise ValueError(f"not a reason to take an account out of its tables: {why!r}")
    _user_require(user, NotAllowed(_("Log in to leave your tables.")))
    left = closed = resigned = 0
    for game_id, host_id in Game.objects.filter(
        status=Game.Status.OPEN, seats__user=user
    ).values_list("pk", "created_by_id"):
        try:
            game_leave(game=Game(pk=game_id), user=user, withdrawn=reason)
        except GameError:
            continue  # started, or closed, meanwhile: the next loop or nothing
        if host_id == user.pk:
            closed += 1
        else:
            left += 1
    for game_id in _active_game_ids(user):
        try:
            game_resign(game=Game(pk=game_id), user=user)
        except GameError:
            continue  # over meanwhile
        resigned += 1
    return Withdrawal(left=left, closed=closed, resigned=resigned)


def game_store_check() -> None:
    """Raise (a database error) unless a move could be stored right now: runs the move
    path's own statements (the lock of a game with its seats, the insert of a move, the
    update of a game) in a transaction that is then rolled back, so nothing is kept.
    ``/health/ready/`` calls this: a database that answers ``SELECT 1`` but cannot
    store moves (read-only, migrations missing, a statement it does not understand) is
    not ready."""
    with transaction.atomic():
        try:
            _game_lock_with_seats(Game(pk=0))  # the move's own lock statement(s)
        except NotAllowed:
            pass  # no game 0: the statement ran, which is what is checked
        # No game 0 exists; foreign keys are checked at commit, which never comes.
        Move.objects.bulk_create(
            [Move(game_id=0, number=0, seat=0, action={"type": "pass"}, actor="player")]
        )
        Game.objects.filter(pk=0).update(version=0, updated_at=timezone.now())
        transaction.set_rollback(True)


# --------------------------------------------------------------------------- limits


def _limits_check(
    user: User, *, specs: list[tuple[str, Any]] | None = None, rematch: bool = False
) -> None:
    """Refuse a new table (``specs``: its seats; ``rematch``: a game's rematch) or a seat
    taken when the account holds as much as ``settings.TABLE_LIMITS`` allows.  The
    user's row is locked first, so two requests of one account at once are counted one
    after the other."""
    from django.conf import settings

    limits = settings.TABLE_LIMITS
    _account_lock(user)
    mine = Seat.objects.filter(user=user, accepted=True, resigned=False)
    running = mine.filter(game__status=Game.Status.ACTIVE).count()
    # A seat at a waiting table becomes a running game when the table fills: counted
    # too, or seats taken at many waiting tables would pass the limit once they start.
    waiting = mine.filter(game__status=Game.Status.OPEN).count()
    if running >= limits["running"]:
        raise NotAllowed(
            _(
                "You are playing %(count)s games, the most one account may play at once: "
                "finish or resign one first."
            )
            % {"count": running}
        )
    if running + waiting >= limits["running"]:
        raise NotAllowed(
            _(
                "You are playing %(running)s games and sit at %(waiting)s tables waiting "
                "for players: together, the most games one account may play at once. "
                "Leave a waiting table, or finish or resign a game first."
            )
            % {"running": running, "waiting": waiting}
        )
    if specs is None:
        return
    bots_only = all(kind in ("creator", "ai") for kind, _value in specs)
    created = Game.objects.filter(created_by=user)
    open_tables = created.filter(status=Game.Status.OPEN).count()
    # A table of bots starts at once: it never waits, so the waiting tables' limit is
    # not its own (the running games' and the bots-only games' limits are).
    if open_tables >= limits["open"] and not bots_only:
        raise NotAllowed(
            _(
                "You have %(count)s tables waiting for players, the most one account may "
                "open: start one or close one before you open another."
            )
            % {"count": open_tables}
        )
    if bots_only:
        _bot_only_check(user)
    _invitations_check(user, [value for kind, value in specs if kind == "user"], rematch=rematch)


def _joined_check(user: User) -> None:
    """Refuse an open seat at one more waiting table of somebody else, past the limit
    (seats taken on an invitation are not counted): one account could otherwise sit at
    every table of the lobby, and their hosts would wait for games that never start."""
    from django.conf import settings

    joined = (
        Seat.objects.filter(
            user=user, accepted=True, by_invitation=False, game__status=Game.Status.OPEN
        )
        .exclude(game__created_by=user)
        .count()
    )
    if joined >= settings.TABLE_LIMITS["joined"]:
        raise NotAllowed(
            _(
                "You sit at %(count)s tables of other players that wait for players, the "
                "most one account may: leave one, or wait until one starts."
            )
            % {"count": joined}
        )


def _account_lock(user: User) -> None:
    """Lock the account's row, so two requests of one account that count its tables
    against the limits run one after the other."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()


def _bot_only_check(user: User) -> None:
    """Refuse one more running game of ``user`` against bots only, past the limit."""
    from django.conf import settings

    people = Seat.objects.filter(game=OuterRef("pk"), ai_level="").exclude(user=user)
    created = Game.objects.filter(created_by=user, status=Game.Status.ACTIVE)
    bot_only = created.exclude(Exists(people)).count()
    if bot_only >= settings.TABLE_LIMITS["bot_only"]:
        raise NotAllowed(
            _(
                "You have %(count)s running games against bots only, the most one account "
                "may have: finish one first, or play with people."
            )
            % {"count": bot_only}
        )


def _invitations_check(
    user: User, invitees: list[Any], *, withdrawn: int = 0, rematch: bool = False
) -> None:
    """Refuse invitations from ``user`` to ``invitees`` (``withdrawn`` of those now
    waiting go at the same time) past the limit of unanswered ones, and past the
    invitations (each an e-mail) sent in the last 24 hours, waiting or not: in all, and
    to any one person.  A table opened and left again still counts its invitations.
    A ``rematch`` invites the people of the game just played again past the cap per
    person, which then counts only the invitations to tables never played (waiting, or
    closed before the start): friends play game after game, while a rematch opened and
    closed again and again still meets the cap."""
    from django.conf import settings

    invited = len(invitees)
    if not invited:
        return
    sent = Notification.objects.filter(
        kind=Notification.Kind.INVITATION,
        game__created_by=user,
        created_at__gte=timezone.now() - timedelta(days=1),
    )
    per_day = settings.TABLE_LIMITS["invitations_per_day"]
    per_person = settings.TABLE_LIMITS["invitations_per_person"]
    count = sent.count()
    if count + invited > per_day:
        raise NotAllowed(
            _(
                "You have sent %(count)s invitations in the last 24 hours; one account may "
                "send %(most)s a day: open seats instead, or invite again tomorrow."
            )
            % {"count": count, "most": per_day}
        )
    counted = (
        sent.exclude(game__status__in=(Game.Status.ACTIVE, Game.Status.FINISHED))
        if rematch
        else sent
    )
    for invitee in invitees:
        if counted.filter(user=invitee).count() >= per_person:
            raise NotAllowed(
                ngettext(
                    "You have invited %(name)s %(count)s time in the last 24 hours "
                    "(withdrawn and answered invitations count too): leave the seat open and "
                    "send them the table's link, or invite them again tomorrow.",
                    "You have invited %(name)s %(count)s times in the last 24 hours "
                    "(withdrawn and answered invitations count too): leave the seat open and "
                    "send them the table's link, or invite them again tomorrow.",
                    per_person,
                )
                % {"name": invitee.public_name, "count": per_person}
            )
    most = settings.TABLE_LIMITS["invitations"]
    waiting = (
        Seat.objects.filter(game__created_by=user, game__status=Game.Status.OPEN, accepted=False)
        .exclude(user=None)
        .count()
    )
    if waiting - withdrawn + invited > most:
        raise NotAllowed(
            _(
                "You have %(count)s invitations waiting for an answer; one account may have "
                "%(most)s at once: wait for answers, or open seats instead."
            )
            % {"count": waiting, "most": most}
        )


# --------------------------------------------------------------------------- helpers


def _user_require(user, error: GameError) -> None:
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        raise error


def _game_lock_with_seats(game: Game) -> tuple[Game, list[Seat]]:
    """The game row locked, then its seats (with users) locked, for every service that
    changes a game.  **The one lock order**: first the game row, then its seat rows,
    everywhere (services, sweeps), so two changes of one game never wait for each other
    in a circle (a deadlock).  The seats are read (and locked) after the game's lock is
    held, so a call that waited for another sees that one's seats: two players taking
    the last two seats at once must each see the other's seat.  SQLite has no row
    locks: there every transaction takes the database's write lock as it begins
    (``transaction_mode`` IMMEDIATE in the settings), which serialises services just
    the same."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("the game is locked inside the caller's transaction")
    locked = Game.objects.select_for_update().filter(pk=game.pk).first()
    if locked is None:
        raise NotAllowed(_("This table does not exist (any more)."))
    seats = list(
        Seat.objects.select_related("user", "standing_order")  # orders answer moves
        .select_for_update(of=("self",))
        .filter(game_id=locked.pk)
        .order_by("position")
    )
    for seat in seats:
        seat.game = locked  # one Game instance for all seats, the one the move updates
    return locked, seats


def _game_sync(target: Game, source: Game) -> Game:
    """The caller's instance, read again after the commit, so a caller that keeps using
    its own object never renders a stale game or stale seats (``refresh_from_db`` also
    drops what was prefetched), and sees the bots' replies when they ran in this
    process (no broker)."""
    target.refresh_from_db()
    return target


def _seat_in_running_game(
    game: Game, seats: list[Seat], user, *, not_started: GameError, over: GameError
) -> Seat:
    """The user's accepted seat at a running game, or the error that says why not."""
    seat = _seat_of_user(seats, user)
    if seat is None or not seat.accepted:
        raise _not_seated(seat)
    if game.status == Game.Status.OPEN:
        raise not_started
    if game.status == Game.Status.ABANDONED:  # closed before it started: never "over"
        raise NotAllowed(_("This table was closed before its game started."))
    if game.status != Game.Status.ACTIVE:
        raise over
    return seat


def _not_seated(seat: Seat | None) -> NotYourSeat:
    return not_seated(invited=seat is not None and seat.invited)


def _seat_of_user(seats: list[Seat], user) -> Seat | None:
    return next((seat for seat in seats if seat.user_id == user.pk), None)


def _open_require(game: Game) -> None:
    if game.status == Game.Status.ACTIVE:
        raise NotAllowed(_("This game has already started."))
    if game.status == Game.Status.FINISHED:
        raise NotAllowed(_("This game is over."))
    if game.status == Game.Status.ABANDONED:
        raise NotAllowed(_("This table was closed before its game started."))


def _table_touch_or_start(game: Game, seats: list[Seat], now: datetime) -> None:
    if all(seat.is_filled for seat in seats):
        _game_start(game, seats, now)
    else:
        game.save(update_fields=["updated_at"])
        _board_changed(game)


def _game_start(game: Game, seats: list[Seat], now: datetime) -> None:
    """Shuffle (or take the scenario deck), reveal the first card, play forced passes
    and queue the bots.  The caller holds the lock (or just created the row)."""
    state = new_game(
        players=game.players,
        deck=game.scenario_deck,
        first_player=game.scenario_first_player,
        advanced=game.advanced,
    )
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.version = 0
    _log_on_commit(
        "game %s started: %s players",
        game.pk,
        game.players,
        game_id=game.pk,
        advanced=list(game.advanced),
        memory_aid=game.memory_aid,
        move_deadline_hours=game.move_deadline_hours,
    )
    _game_advance(game, seats, None, state, [], now)


ADVANCE_FIELDS = (
    "state",
    "version",
    "status",
    "result",
    "started_at",
    "finished_at",
    "turn_started_at",
    "deadline_at",
    "updated_at",
)


def _game_advance(
    game: Game,
    seats: list[Seat],
    previous: State | None,
    state: State,
    moves: list[Move],
    now: datetime,
    actor: str | None = None,
) -> None:
    """After an action (by ``actor``) or the start: forced passes, the end of the game
    or the next deadline, then store the state and the moves and announce what
    happened (``games.events``)."""
    state = _answers_play(game, seats, state, moves, orders_possible=previous is not None)
    game.state = state.to_json()
    if state.phase == OVER:
        game.status = Game.Status.FINISHED
        game.result = result(state)
        game.finished_at = now
        game.turn_started_at = None
        game.deadline_at = None
        _log_on_commit(
            "game %s finished after %s moves",
            game.pk,
            game.version,
            game_id=game.pk,
            winners=[row["seat"] for row in game.result["players"] if row["winner"]],
        )
    else:
        # The Yacht Club's choices are one turn for everyone: its clock runs on.
        _deadline_set(
            game,
            seats,
            state,
            now,
            restart=not (previous is not None and previous.phase == SEALED == state.phase),
        )
    # The unique (game, number) is the backstop behind the lock and the version check.
    if moves:
        try:
            Move.objects.bulk_create(moves)
        except IntegrityError:  # the whole transaction is rolled back: nothing stored
            raise VersionConflict(
                _("The game has moved on since you loaded it: look at the board again.")
            ) from None
    # Only what a move (or the start) changes: the row's other columns stay as stored.
    game.save(update_fields=ADVANCE_FIELDS)
    _board_changed(game)
    if state.phase == OVER:
        # Stats and ratings are written in this same transaction (games.ratings).
        events.game_finished.send(sender=None, game=game, seats=seats)
        return
    to_act = seats_to_act(state)
    if any(seats[p].is_bot for p in to_act):
        _bots_announce(game, by_bot=actor == Move.Actor.BOT)
    people = [seats[p].user_id for p in to_act if not seats[p].is_bot and seats[p].user_id]
    if people and game.turn_started_at == now:  # a new turn (not the next sealed choice)
        events.announce(events.turn_started, game_id=game.pk, turn=turn_key(now), user_ids=people)


def _answers_play(
    game: Game, seats: list[Seat], state: State, moves: list[Move], *, orders_possible: bool
) -> State:
    """Play what answers without anyone: forced passes, then the standing orders of the
    people to act (games.ai.orders), move after move, until a bot or a person without
    an order that answers is to act.  The orders come with the locked seats (no query
    of their own); each spent or outdated order is cleared in this same transaction.
    ``orders_possible``: False at the start, before anybody could leave one."""
    rows: dict[int, StandingOrder] | None = None
    spent: set[int] = set()  # seats whose order for this card has done its work
    while True:
        forced = forced_action(state)
        if forced is not None:
            state = apply_action(state, forced)
            _move_append(game, moves, forced, Move.Actor.FORCED, None)
            moves[-1].log_end = len(state.events)
            continue
        people = [p for p in seats_to_act(state) if not seats[p].is_bot]
        if not people:
            break
        if rows is None:
            rows = _orders_of(seats) if orders_possible else {}
            if not rows:
                break
        answer = _order_answer(state, people, rows, spent)
        if answer is None:
            break
        action, row = answer
        state = apply_action(state, action)  # the order's action is legal by construction
        _move_append(game, moves, action, Move.Actor.ORDER, None)
        moves[-1].log_end = len(state.events)
        if action["type"] != "bid":  # a pass ends the seat's auction; a choice is made
            spent.add(action["seat"])
    if rows:
        _orders_tidy(rows, spent, state.auction_number)
    return state


def _orders_of(seats: list[Seat]) -> dict[int, StandingOrder]:
    """The standing orders of the locked seats (read with them), by seat position."""
    rows = {}
    for seat in seats:
        try:
            rows[seat.position] = seat.standing_order
        except StandingOrder.DoesNotExist:
            continue
    return rows


def _order_answer(
    state: State, people: list[int], rows: dict[int, StandingOrder], spent: set[int]
) -> tuple[dict[str, Any], StandingOrder] | None:
    auction = state.auction_number
    for position in people:
        row = rows.get(position)
        if row is None:
            continue
        order = None if row.auction != auction else row.order()
        if order is not None and position in spent:
            # Its move in the auction is made; its discard, if the seat took Theft, is not.
            order = Order(discard=order.discard) if order.discard else None
        action = order_action(player_view(state, position), order, row.defaults())
        if action is not None:
            return action, row
    return None


def _orders_tidy(rows: dict[int, StandingOrder], spent: set[int], auction: int) -> None:
    """Clear the orders that were spent or whose auction is over; drop empty rows."""
    for position, row in rows.items():
        if position not in spent and row.auction in (None, auction):
            continue
        row.order_clear()
        if row.defaults().empty:
            row.delete()
        else:
            row.save()


_KEEP: Any = object()


def _same_orders(held: Order | Defaults | None, wanted: Order | Defaults | None) -> bool:
    """The orders asked for are those held already (nothing counts as empty): a form
    sent twice, whose second sending changes nothing and is no conflict."""
    return (held or None) == (wanted or None) or (
        (held is None or held.empty) and (wanted is None or wanted.empty)
    )


@game_logged
def _orders_seen_check(seen: str | None, held: Order | Defaults | None) -> None:
    """``OrdersChanged`` when the form was drawn (``seen``) with other orders than
    ``held``: changed meanwhile in another window or through the API."""
    if seen is not None and seen != orders_stamp(held):
        raise OrdersChanged(
            _(
                "Your standing orders were changed in another window after this page was "
                "shown, so this form changed nothing. Here they are as they stand; set them "
                "again if you still want to."
            )
        )


def game_orders_set(
    *,
    game: Game,
    user: User,
    card: str | None = None,
    order: Order | None = _KEEP,
    defaults: Defaults | Mapping[str, int | None] | None = _KEEP,
    auction_number: int | None = None,
    seen: str | None = None,
) -> StandingOrder | None:
    """Leave (or clear, with ``None``) the player's standing order for ``card``, the
    card up for auction, and/or their defaults for the coming auctions (an argument
    left out keeps what is there; ``defaults`` as a mapping changes only the parts it
    names, read under the lock).  An order that answers now plays at once, and on
    as the others move, in the same transaction as their moves.  Refuses an order for
    an auction that is over (``AuctionOver``; with ``auction_number``, the auction the
    form was drawn for, also the same card's earlier auction) and one that could never
    act (``InvalidOrder``).  ``seen``: the stamp of the orders the form was drawn with
    (``read_model.orders_stamp``); when they have changed since, nothing is changed
    (``OrdersChanged``).  Returns the stored orders (``None``: none left)."""
    _user_require(user, NotYourSeat(_("Log in and take a seat to leave orders.")))
    now = timezone.now()
    with transaction.atomic():
        locked, seats = _game_lock_with_seats(game)
        seat = _seat_of_user(seats, user)
        refusal = orders_refusal(
            status=locked.status,
            seated=seat is not None and seat.accepted,
            resigned=seat is not None and seat.resigned,
            invited=seat is not None and seat.invited,
        )
        if refusal is not None:
            raise refusal
        state = locked.engine_state()
        view = player_view(state, seat.position)
        row = _orders_of([seat]).get(seat.position) or StandingOrder(game=locked, seat=seat)
        auction = state.auction_number
        if row.auction is not None and row.auction != auction:
            row.order_clear()
        if order is not _KEEP:
            if order is not None and not order.empty:
                _order_for_card_check(state, card, order, auction_number)
            if not _same_orders(row.order(), order):  # the same again: a form sent twice
                _orders_seen_check(seen, row.order())
            if order is None or order.empty:
                row.order_clear()
            else:
                problem = order_problem(view, order)
                if problem:
                    refusal = InvalidOrder(engine_text(problem))
                    if getattr(problem, "template", None) in MAXIMUM_PROBLEMS:
                        refusal.about("maximum")  # the form marks that field
                    raise refusal
                row.order_put(order, auction)
        if defaults is not _KEEP:
            if isinstance(defaults, Mapping):
                defaults = dataclasses.replace(row.defaults(), **defaults)
            defaults = defaults or Defaults()
            if order is _KEEP and not _same_orders(row.defaults(), defaults):
                _orders_seen_check(seen, row.defaults())
            problem = defaults_problem(defaults)
            if problem:
                raise InvalidOrder(engine_text(problem))
            row.defaults_put(defaults)
        if row.order() is None and row.defaults().empty:
            if row.pk is not None:
                row.delete()
            return None
        row.save()
        if seat.position in seats_to_act(state):
            action = order_action(view, row.order(), row.defaults())
            if action is not None:  # it answers now: the move is the order's
                moves: list[Move] = []
                new_state = apply_action(state, action)
                _move_append(locked, moves, action, Move.Actor.ORDER, None)
                moves[-1].log_end = len(new_state.events)
                if action["type"] != "bid":  # its move in this auction is made
                    kept = row.order()
                    row.order_clear()
                    if kept is not None and kept.discard:  # and if it took Theft, its choice
                        row.order_put(Order(discard=kept.discard), auction)
                    row.save()
                transaction.on_commit(lambda: _moves_log(locked, moves))
                _game_advance(locked, seats, state, new_state, moves, now, Move.Actor.ORDER)
    _game_sync(game, locked)
    return StandingOrder.objects.filter(pk=row.pk).first() if row.pk else None


def _order_for_card_check(
    state: State, card: str | None, order: Order, auction_number: int | None = None
) -> None:
    """An order names the card it is for: its auction must still be on (and be the
    auction ``auction_number``, when the order says which: the same card may come up
    again, as the three Prestige cards do)."""
    if not card:
        raise InvalidOrder(_("Say which card the order is for (the card up for auction)."))
    still_on = (
        state.card == card
        and (auction_number is None or auction_number == state.auction_number)
        and (
            state.phase in (AUCTION, SEALED)
            or (state.phase == THEFT_CHOICE and order.kind == "" and order.discard)
        )
    )
    if not still_on:
        if isinstance(card, str) and _known_card(card):
            if card not in deck_cards(state.advanced):
                raise AuctionOver(
                    _("%(card)s is not in this game: an order is for the card up now.")
                    % {"card": card_name(card)}
                )
            revealed = sum(1 for event in state.events if event[0] == "reveal" and event[2] == card)
            if (
                auction_number is not None
                and auction_number != state.auction_number
                and card == state.card
                and state.phase in (AUCTION, SEALED)
                and not (auction_number < state.auction_number and revealed > 1)
            ):
                # The card is up, but the order names another auction, which was not
                # an earlier one of the same card (a second Prestige: that one is
                # over): neither "over" nor "not up yet" is true of the card.
                raise AuctionOver(
                    _(
                        "%(card)s is up now, but in another auction than the order names:"
                        " look at the board again."
                    )
                    % {"card": card_name(card)}
                )
            if auction_number is not None and auction_number != state.auction_number:
                # The order names its auction: before or after the one on now.
                later = auction_number > state.auction_number
            else:
                later = not revealed
            if later:
                raise AuctionOver(
                    _("%(card)s is not up for auction yet: an order is for the card up now.")
                    % {"card": card_name(card)}
                )
            raise AuctionOver(
                _("The auction of %(card)s is over: look at the board again.")
                % {"card": card_name(card)}
            )
        raise InvalidOrder(_("There is no such card: name the card up for auction."))


def _known_card(card: str) -> bool:
    try:
        card_name(card)
    except KeyError:
        return False
    return True


@game_logged
def game_orders_cancel(*, game: Game, user: User) -> None:
    """Cancel all of the player's standing orders at this table (for the card up and
    the defaults)."""
    _user_require(user, NotYourSeat(_("Log in and take a seat to leave orders.")))
    with transaction.atomic():
        _locked, seats = _game_lock_with_seats(game)
        seat = _seat_of_user(seats, user)
        if seat is None or not seat.accepted:
            raise _not_seated(seat)
        StandingOrder.objects.filter(seat=seat).delete()


def _board_changed(game: Game) -> None:
    """Open boards of ``game`` learn, after the commit, that it changed (``games.live``)."""
    events.announce(events.board_changed, game_id=game.pk, version=game.version)


def _bots_announce(game: Game, *, by_bot: bool = False) -> None:
    events.announce(events.bots_to_act, game_id=game.pk, version=game.version, by_bot=by_bot)


# How a move is named in the logs: its kind only, never its cards (a sealed choice is
# secret until all are in).
MOVE_KINDS = {"bid": "bid", "pass": "pass", "discard": "discard", "sealed_bid": "seal"}


def _log_on_commit(message: str, *args: Any, **fields: Any) -> None:
    """An INFO line once the change is committed (a rolled-back one logs nothing)."""
    transaction.on_commit(lambda: logger.info(message, *args, extra=fields))


def _moves_log(game: Game, moves: list[Move]) -> None:
    for move in moves:
        kind = MOVE_KINDS.get(move.action.get("type"), "other")
        logger.info(
            "move %s stored: seat %s, %s (%s)",
            move.number,
            move.seat,
            kind,
            move.actor,
            extra={
                "game_id": game.pk,
                "move_number": move.number,
                "seat": move.seat,
                "kind": kind,
                "actor": move.actor,
            },
        )


def _move_append(game: Game, moves: list[Move], action: dict, actor: str, user) -> None:
    moves.append(
        Move(
            game=game,
            number=game.version,
            seat=action["seat"],
            action=action,
            actor=actor,
            user=user,
        )
    )
    game.version += 1


def _deadline_set(
    game: Game, seats: list[Seat], state: State, now: datetime, *, restart: bool
) -> None:
    """The clock of the seats to act: a deadline only when a person is to act."""
    if restart or game.turn_started_at is None:
        game.turn_started_at = now
        game.deadline_at = None
    people_to_act = [p for p in seats_to_act(state) if not seats[p].is_bot]
    if game.move_deadline_hours and people_to_act:
        if game.deadline_at is None:
            game.deadline_at = deadline_compute(
                game=game, user_ids=[seats[p].user_id for p in people_to_act]
            )
    else:
        game.deadline_at = None


def _acting_seat(seats: list[Seat], user, action: dict, actor: str) -> Seat:
    given = action.get("seat")
    if given is not None and (isinstance(given, bool) or not isinstance(given, int)):
        raise IllegalMove(_("The seat must be a seat number (or left out)."))
    if actor == Move.Actor.PLAYER:
        seat = _seat_of_user(seats, user)
        if seat is None or not seat.accepted:
            raise _not_seated(seat)
        if seat.handed_over:
            raise NotYourSeat(_("The host handed your seat to a bot: it plays it now."))
        if seat.resigned:
            raise NotYourSeat(_("You resigned from this game: a bot plays your seat now."))
        if given is not None and given != seat.position:
            raise NotYourSeat(_("You can only act for your own seat."))
        return seat
    if given is None or not 0 <= given < len(seats):
        raise NotYourSeat(_("A bot or deadline move must name a seat of this table."))
    seat = seats[given]
    if actor == Move.Actor.BOT and not seat.is_bot:
        raise NotYourSeat(_("A bot only plays a bot's seat."))
    if actor == Move.Actor.DEADLINE and seat.is_bot:
        raise NotYourSeat(_("A deadline move is only for a person's seat."))
    return seat


def _not_your_turn_text(state: State, position: int) -> str:
    if state.phase == SEALED:
        if state.sealed[position] == NOT_BIDDING:
            return _("You have no money and take no part in this Yacht Club auction.")
        return _("You have made your Yacht Club choice: wait for the others.")
    if state.phase == OVER:
        return _("The game is over.")
    return _("It is not your turn.")


def _action_normal(action: dict[str, Any]) -> dict[str, Any]:
    """The stored form of an accepted action: only the keys of its type (docs/api.md)."""
    normal: dict[str, Any] = {"seat": action["seat"], "type": action["type"]}
    if action["type"] == "bid":
        normal["cards"] = sorted(action["cards"])
    elif action["type"] in ("discard", "sealed_bid"):
        normal["card"] = action["card"]
    return normal


def _version_parse(version: Any) -> int:
    if isinstance(version, str) and digits(version.strip()):
        version = int(version.strip())
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise GameError(
            _("The version must be the move number of the board you saw (a whole number).")
        )
    return version


def _players_check(players: Any) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise GameError(_("The number of players must be a whole number from 3 to 5."))
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise GameError(
            _("High Society is played by 3 to 5 players, not %(players)s.") % {"players": players}
        )
    return players


def _seats_parse(*, creator, players: int, seats: Any) -> list[tuple[str, Any]]:
    """One (kind, value) per position: ("creator", None), ("user", User), ("ai", level),
    ("open", None)."""
    if isinstance(seats, (str, bytes, dict)) or not isinstance(seats, Sequence):
        raise GameError(_("The seats must be a list with one entry per seat."))
    if len(seats) not in (players - 1, players):
        raise GameError(
            ngettext(
                "A table of %(players)s needs %(others)s seats besides yours "
                "(or all %(players)s seats, yours included); %(given)s was given.",
                "A table of %(players)s needs %(others)s seats besides yours "
                "(or all %(players)s seats, yours included); %(given)s were given.",
                len(seats),
            )
            % {"players": players, "others": players - 1, "given": len(seats)}
        )
    entries = []
    for index, entry in enumerate(seats):
        try:
            entries.append(_seat_entry(entry, index + 1))
        except GameError as error:
            raise error.about(f"seats[{index}]") from None

    names = [value for kind, value in entries if kind == "user"]
    twice = next((name for name, n in Counter(n.casefold() for n in names).items() if n > 1), None)
    if twice is not None:
        raise GameError(
            _("%(name)s is listed twice: each player takes one seat.") % {"name": quoted(twice)}
        )
    users = players_by_name(names)
    specs: list[tuple[str, Any]] = []
    people: set[int] = set()  # one seat each, however named (username, display name)
    for index, (kind, value) in enumerate(entries):
        if kind != "user":
            specs.append((kind, value))
            continue
        try:
            user = _invitee(creator, value, users)
        except GameError as error:
            raise error.about(f"seats[{index}].user") from None
        if user.pk in people:  # by their username and by their display name
            raise GameError(
                _("%(name)s is listed twice: each player takes one seat.") % {"name": quoted(value)}
            ).about(f"seats[{index}].user")
        people.add(user.pk)
        specs.append(("creator", None) if user.pk == creator.pk else ("user", user))
    creator_seats = sum(1 for kind, _value in specs if kind == "creator")
    if len(seats) == players - 1:
        if creator_seats:
            raise GameError(
                _(
                    "You take the first seat of your own table: leave your name out of the list "
                    "(or list all %(players)s seats)."
                )
                % {"players": players}
            )
        specs.insert(0, ("creator", None))
    elif not creator_seats:
        raise GameError(
            _("With all %(players)s seats listed, one of them must be yours (%(username)s).")
            % {"players": players, "username": creator.username}
        )
    return specs


def _seat_entry(entry: Any, number: int) -> tuple[str, Any]:
    """One seat as the API writes it: ``{"user": name}``, ``{"ai": level}`` or
    ``{"open": true}``, read into ("user", name), ("ai", level) or ("open", None).
    ``number`` (from 1) names the seat in the error."""
    if (
        not isinstance(entry, dict)
        or len(entry) != 1
        or next(iter(entry)) not in ("user", "ai", "open")
    ):
        raise GameError(
            _(
                'Seat %(number)s: say who sits there: {"user": "<username>"}, '
                '{"ai": "<level>"} or {"open": true}.'
            )
            % {"number": number}
        )
    key, value = next(iter(entry.items()))
    if key == "user":
        if not isinstance(value, str) or not value.strip():
            raise GameError(
                _("Seat %(number)s: give the username of the player to invite.")
                % {"number": number}
            )
        return "user", value.strip()
    if key == "ai":
        if not isinstance(value, str) or value not in AI_LEVELS:
            raise GameError(
                _(
                    "Seat %(number)s: unknown bot level %(level)s; choose random, easy, "
                    "medium, hard or expert."
                )
                % {"number": number, "level": quoted(value)}
            )
        return "ai", value
    if value is not True:
        raise GameError(
            _('Seat %(number)s: an open seat is written {"open": true}.') % {"number": number}
        )
    return "open", None


def unknown_invitee_text(name: str) -> str:
    """Why nobody called ``name`` can be invited, and how to bring someone new: an
    e-mail address is said to be one, whether an account has it or not."""
    if "@" in name:
        return _(
            "An invitation names a player by their username or the name the boards show, "
            "not by an e-mail address. Someone "
            "without an account yet takes an open seat through the table's link."
        )
    return _(
        "There is no player called %(name)s. Someone without an account yet takes an open "
        "seat through the table's link."
    ) % {"name": quoted(name)}


def _invitee(creator: User, name: str, users: dict[str, Any]) -> Any:
    """The active player called ``name`` (``users``: by case-folded name, from
    ``players_by_name``), who takes invitations from ``creator``."""
    user = users.get(name.casefold())
    if user is None:
        raise GameError(unknown_invitee_text(name))
    if InvitationBlock.objects.filter(user=user, blocked=creator).exists():
        raise GameError(_("%(name)s does not take invitations from you.") % {"name": quoted(name)})
    return user


def _advanced_check(advanced: Any) -> list[str]:
    if isinstance(advanced, (str, bytes, dict)) or not isinstance(advanced, Iterable):
        raise GameError(_("The advanced cards must be a list (gambling, excursions, yacht)."))
    advanced = list(advanced)
    for card in advanced:
        if not isinstance(card, str) or card not in ADVANCED_CARDS:
            raise GameError(
                _("Unknown advanced card %(card)s; choose from %(cards)s.")
                % {"card": quoted(card), "cards": ", ".join(ADVANCED_CARDS)}
            )
    if len(set(advanced)) != len(advanced):
        raise GameError(_("Each advanced card can be added once."))
    return [card for card in ADVANCED_CARDS if card in advanced]


def _deadline_check(hours: Any) -> int | None:
    if hours is None:
        return None
    if isinstance(hours, bool) or not isinstance(hours, int) or hours not in DEADLINE_HOURS:
        raise GameError(
            _("The move deadline must be none or 24, 48, 72 or 168 hours (1, 2, 3 or 7 days).")
        )
    return hours


def _deck_check(deck: Any, advanced: list[str]) -> list[str]:
    cards = deck_cards(advanced)
    if (
        isinstance(deck, (str, bytes, dict))
        or not isinstance(deck, Sequence)
        or not all(isinstance(card, str) for card in deck)
        or Counter(deck) != Counter(cards)
    ):
        raise GameError(
            _("The deck must list exactly the %(count)s cards of the chosen set, top card first.")
            % {"count": len(cards)}
        )
    return list(deck)


def _first_player_check(first_player: Any, players: int) -> int:
    if (
        isinstance(first_player, bool)
        or not isinstance(first_player, int)
        or not 0 <= first_player < players
    ):
        raise GameError(
            _("The first player must be a seat from 0 to %(last)s.") % {"last": players - 1}
        )
    return first_player
