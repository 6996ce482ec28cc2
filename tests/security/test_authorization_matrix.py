"""Who may do what, for every route the site serves (issue #7).

A table of cases: route x persona x method -> the status expected and the change it
must make (none, for a refusal).  Each case runs one request and compares every stored
row (games, seats, moves, users, tokens, e-mail addresses, ratings, admin log; see
``conftest.db_snapshot``) before and after: a refused request must change nothing, a
granted one only what it is for.  ``test_every_route_is_classified`` walks the URLconf
(ours, allauth's, the API's and the admin's) and fails when a route has no entry, so a
new view cannot ship without deciding who may use it.

Personas (one user each, all with verified e-mail addresses):

- anonymous: not logged in (no token for the API);
- outsider: logged in, at none of the tables;
- seated: a player at the table; at the running game, the one whose turn it is;
- other: a second player at the table, not the one to act (at the open table: invited,
  not yet accepted); also "another user" for tokens and settings;
- staff: ``is_staff``, at none of the tables;
- creator: who opened the tables (seat 0).

The policy the code and docs/api.md state, checked here:

- Open, running and finished games are public: anyone (a visitor too) sees the board as
  a spectator (``player_view(state, None)``).  Abandoned tables exist only for the
  people who sat there: 404 for everybody else, on the pages and in the API.
- Pages that change something need a log-in (anonymous: 302 to the log-in page) and
  a CSRF token; the service then decides (a refusal is 400 with the board and its
  sentence, or a redirect with a message for the creator's seat-to-bot control).
- API (docs/api.md, the REST API): anonymous 401; a seat that is not the caller's 403 (their own
  seat out of turn: 400 ``not_your_turn``); a game unknown to the caller 404; a table
  full, not started or over 409; staff-only fields 403 for others.
- The admin is staff-only, and for staff only in a session confirmed with a second
  factor: everybody else is sent to its log-in page, which sends visitors to the
  site's log-in and refuses (403) signed-in people who are not staff.

The tables are made once per module inside a transaction rolled back at the end; every
test runs in a savepoint of it (pytest-django's ``db``), so whatever a test changes is
gone before the next one.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.middleware.csrf import _get_new_csrf_string
from django.test import Client, override_settings
from django.urls import resolve
from rest_framework.test import APIClient

from accounts.email_undo import undo_token
from accounts.models import User
from accounts.preferences import unsubscribe_token
from accounts.tokens.models import ApiToken
from accounts.tokens.services import token_create
from games.chat import chat_post
from games.engine import AUCTION, seats_to_act
from games.engine.cards import LUXURY_VALUE, PRESTIGE
from games.models import Game, Move, Notification, Seat
from games.services import game_create, game_join, game_leave, game_submit_action
from tests.factories import PASSWORD, UserFactory
from tests.games.factories import (
    StaffUserFactory,
    people_game,
    people_play,
    scenario_deck,
)
from tests.moves import action_pick
from tests.second_factor import staff_admin_session
from tests.security.conftest import Route, db_changes, db_fingerprint, db_snapshot, routes_all

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "outsider", "seated", "other", "staff", "creator")
USERNAMES = {
    "outsider": "olive",
    "seated": "sam",
    "other": "otto",
    "staff": "stella",
    "creator": "cora",
}
TABLES = ("open", "active", "finished", "abandoned", "missing")
MISSING_GAME = 2**40  # a valid id that no game has

LOGIN = "login"  # 302 to /accounts/login/?next=…
ADMIN_LOGIN = "admin-login"  # 302 to /admin/login/?next=…
# The admin lets staff in (its model permissions then decide: 403 without them).
STAFF_OK = "staff-ok"


# --------------------------------------------------------------------------- the world


@dataclass
class World:
    users: dict[str, User]
    ids: dict[str, Any]
    tokens: dict[str, str]  # persona -> API token secret
    sessions: dict[str, str]  # persona -> session key (logged in once, not per test)

    def user(self, persona: str) -> User:
        return self.users[persona]


def _turn_of(game: Game, user: User, rng: random.Random) -> Game:
    """Play the others' moves until ``user`` is to act in an auction (where passing is
    always legal) of a luxury worth 3 or more or a Prestige card, so the move cases below
    know whose turn it is, and the standing-order cases' "pass on luxuries below 3" has
    nothing to answer (the order would act at once and move the game)."""
    people = {s.position: s.user for s in Seat.objects.filter(game=game).select_related("user")}
    mine = next(pos for pos, person in people.items() if person == user)
    for _ in range(300):
        state = game.engine_state()
        to_act = seats_to_act(state)
        if (
            state.phase == AUCTION
            and mine in to_act
            and (LUXURY_VALUE.get(state.card, 0) >= 3 or state.card == PRESTIGE)
        ):
            return game
        seat = to_act[0]
        game = game_submit_action(
            game=game,
            user=people[seat],
            action=action_pick(state, seat, rng),
            expected_version=game.version,
        )
    raise AssertionError("the seated player never got the turn")


def _world_build() -> World:
    rng = random.Random(7)
    users = {
        persona: (StaffUserFactory if persona == "staff" else UserFactory)(
            username=name, display_name=name.capitalize()
        )
        for persona, name in USERNAMES.items()
    }
    creator, seated, other = users["creator"], users["seated"], users["other"]

    # Waiting for players: Cora, Sam (took an open seat), Otto (invited), one open seat.
    open_table = game_create(
        creator=creator,
        players=4,
        seats=[{"open": True}, {"user": other.username}, {"open": True}],
    )
    game_join(game=open_table, user=seated)
    # Running, a day per move: Cora, Sam and Otto; Sam is to act; Otto missed enough
    # deadlines for the creator to hand his seat to a bot.
    active = _turn_of(people_game(creator, seated, other), seated, rng)
    Game.objects.filter(pk=active.pk).update(move_deadline_hours=24)
    Seat.objects.filter(game=active, user=other).update(
        timeouts=settings.SEAT_TO_BOT_AFTER_TIMEOUTS
    )
    # Otto's line in the running table's chat, for the others to report.
    otto_line = chat_post(game=active, user=other, text="Hello, table")
    finished = people_play(people_game(creator, seated, other), rng)
    assert finished.status == Game.Status.FINISHED
    # Abandoned: Cora opened it, Sam joined, Otto was invited, then Cora left.
    abandoned = game_create(
        creator=creator, players=3, seats=[{"open": True}, {"user": other.username}]
    )
    game_join(game=abandoned, user=seated)
    game_leave(game=abandoned, user=creator)

    made = {
        persona: token_create(user=user, name="matrix", days=30) for persona, user in users.items()
    }
    tokens = {persona: secret for persona, (_, secret) in made.items()}
    spare, _ = token_create(user=seated, name="spare", days=30)
    good = unsubscribe_token(other)
    games = {"open": open_table, "active": active, "finished": finished, "abandoned": abandoned}
    ids: dict[str, Any] = {name: game.pk for name, game in games.items()}
    ids["missing"] = MISSING_GAME
    for name, game in games.items():
        ids[f"v_{name}"] = Game.objects.get(pk=game.pk).version
    ids["v_missing"] = 0
    positions = dict(Seat.objects.filter(game=active).values_list("user__username", "position"))
    ids.update({f"token_{persona}": token.pk for persona, (token, _) in made.items()})
    ids.update(
        otto_seat=positions["otto"],
        otto_line=otto_line.pk,
        sam_seat=positions["sam"],
        sam_token=spare.pk,
        unsub=good,
        unsub_bad=good[:-3] + ("xyz" if not good.endswith("xyz") else "abc"),
        # A change of Other's address back to the one it has: nothing to take back.
        undo=undo_token(other, other.email, "other-after@example.com"),
        user_id=seated.pk,
        game_ct=ContentType.objects.get_for_model(Game).pk,
        emailaddress_id=seated.emailaddress_set.get().pk,
        move_id=Move.objects.filter(game=finished).order_by("number").first().pk,
    )
    sessions = {}
    for persona, user in users.items():
        client = Client()
        if persona == "staff":
            staff_admin_session(client, user)  # both factors: the admin opens
        else:
            client.force_login(user)
        sessions[persona] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return World(users=users, ids=ids, tokens=tokens, sessions=sessions)


@pytest.fixture(scope="module", autouse=True)
def _confirmations_stay_recent():
    """The staff persona confirmed its password and a code while the world was made;
    for this module that stays "recent" (allauth's five minutes could run out half-way
    through a slow run and change the answers of its second-factor pages)."""
    with override_settings(ACCOUNT_REAUTHENTICATION_TIMEOUT=24 * 3600):
        yield


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The tables and personas, made once; rolled back when the module is done."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield _world_build()
        transaction.set_rollback(True)


# --------------------------------------------------------------------------- effects


@dataclass(frozen=True)
class Effect:
    """What a granted request must change: only rows of ``tables``, and ``check``
    holds afterwards (given the world and the changed primary keys by table)."""

    tables: frozenset[str]
    check: Callable[[World, dict[str, set[Any]]], None]
    name: str = ""


def _game(world: World, table: str) -> Game:
    return Game.objects.get(pk=world.ids[table])


def _seat(world: World, table: str, persona: str) -> Seat | None:
    return Seat.objects.filter(game_id=world.ids[table], user=world.user(persona)).first()


def moved(persona: str, table: str = "active") -> Effect:
    def check(world, changes):
        game = _game(world, table)
        assert game.version == world.ids[f"v_{table}"] + 1
        last = Move.objects.filter(game=game).order_by("-number").first()
        assert last.user == world.user(persona) and last.actor == Move.Actor.PLAYER

    return Effect(frozenset({"games.game", "games.move"}), check, "moved")


def joined(persona: str, table: str = "open") -> Effect:
    def check(world, changes):
        seat = _seat(world, table, persona)
        assert seat is not None and seat.accepted
        assert changes["games.seat"] == {seat.pk}

    return Effect(frozenset({"games.game", "games.seat"}), check, "joined")


def left(persona: str, table: str = "open") -> Effect:
    def check(world, changes):
        assert _seat(world, table, persona) is None
        assert len(changes["games.seat"]) == 1
        # An invitation left unanswered is declined: the host's notice, stored with it.
        notices = Notification.objects.filter(pk__in=changes.get("games.notification", ()))
        game = Game.objects.get(pk=world.ids[table])
        assert {(n.user_id, n.kind, n.game_id) for n in notices} <= {
            (game.created_by_id, "declined", game.pk)
        }

    return Effect(frozenset({"games.game", "games.seat", "games.notification"}), check, "left")


def abandoned_by_creator(table: str = "open") -> Effect:
    def check(world, changes):
        game = _game(world, table)
        assert game.status == Game.Status.ABANDONED
        assert "games.seat" not in changes
        # The people seated or invited there are owed the news, stored with it.
        notices = Notification.objects.filter(pk__in=changes.get("games.notification", ()))
        others = set(
            game.seats.exclude(user=None)
            .exclude(user_id=game.created_by_id)
            .values_list("user_id", flat=True)
        )
        assert {(n.user_id, n.kind) for n in notices} == {(pk, "closed") for pk in others}

    return Effect(frozenset({"games.game", "games.notification"}), check, "abandoned")


def resigned(persona: str, table: str = "active") -> Effect:
    def check(world, changes):
        seat = _seat(world, table, persona)
        assert seat.resigned and seat.ai_level
        assert changes["games.seat"] == {seat.pk}

    return Effect(frozenset({"games.game", "games.seat"}), check, "resigned")


def seat_handed_to_bot(table: str = "active") -> Effect:
    def check(world, changes):
        seat = _seat(world, table, "other")
        assert seat.resigned and seat.ai_level
        assert changes["games.seat"] == {seat.pk}
        # One notice: to the seat's player, whose seat was handed over.
        notices = Notification.objects.filter(pk__in=changes["games.notification"])
        assert [(n.user_id, n.kind) for n in notices] == [(seat.user_id, "handed_over")]

    return Effect(
        frozenset({"games.game", "games.seat", "games.notification"}), check, "seat-to-bot"
    )


def seat_set_to_bot(position: int = 3, table: str = "open") -> Effect:
    def check(world, changes):
        seat = Seat.objects.get(game_id=world.ids[table], position=position)
        assert seat.ai_level == "easy" and seat.user_id is None and seat.accepted
        assert changes["games.seat"] == {seat.pk}

    return Effect(frozenset({"games.game", "games.seat"}), check, "seat-set")


def rematch_opened(persona: str) -> Effect:
    def check(world, changes):
        # The new table, and the finished one (touched: its end screens show the link).
        new = Game.objects.get(pk__in=changes["games.game"], rematch_of__isnull=False)
        assert changes["games.game"] == {new.pk, world.ids["finished"]}
        assert new.rematch_of_id == world.ids["finished"]
        assert new.created_by == world.user(persona) and new.status == Game.Status.OPEN
        # The invitations to the other players, stored with the table.
        invited = set(new.seats.exclude(user=None).filter(accepted=False).values_list("user_id"))
        notices = Notification.objects.filter(pk__in=changes.get("games.notification", ()))
        assert {(n.user_id,) for n in notices} == invited
        assert {n.kind for n in notices} <= {"invitation"} and {n.game_id for n in notices} <= {
            new.pk
        }

    return Effect(
        frozenset({"games.game", "games.seat", "games.notification"}), check, "rematch-opened"
    )


def chat_posted(persona: str) -> Effect:
    def check(world, changes):
        from games.models import ChatMessage

        new = ChatMessage.objects.filter(pk__in=changes["games.chatmessage"])
        assert new.count() == 1 and new.get().user == world.user(persona)

    return Effect(frozenset({"games.chatmessage", "games.game"}), check, "chat-posted")


def orders_left(persona: str) -> Effect:
    def check(world, changes):
        from games.models import StandingOrder

        row = StandingOrder.objects.get(pk__in=changes["games.standingorder"])
        assert row.seat.user == world.user(persona) and row.luxury_below == 3

    return Effect(frozenset({"games.standingorder"}), check, "orders-left")


def chat_reported(persona: str) -> Effect:
    def check(world, changes):
        from games.models import ChatReport

        report = ChatReport.objects.get(pk__in=changes["games.chatreport"])
        assert report.reporter == world.user(persona) and report.message.user == world.user("other")

    return Effect(frozenset({"games.chatreport"}), check, "chat-reported")


def chat_muted(persona: str) -> Effect:
    def check(world, changes):
        from games.models import ChatMute

        mute = ChatMute.objects.get(pk__in=changes["games.chatmute"])
        assert mute.user == world.user(persona) and mute.muted == world.user("seated")

    return Effect(frozenset({"games.chatmute"}), check, "chat-muted")


def game_created(persona: str) -> Effect:
    def check(world, changes):
        new = Game.objects.filter(pk__in=changes["games.game"])
        assert new.count() == 1 and new.get().created_by == world.user(persona)

    return Effect(frozenset({"games.game", "games.seat", "games.move"}), check, "created")


def token_created(persona: str) -> Effect:
    def check(world, changes):
        (pk,) = changes["tokens.apitoken"]
        assert ApiToken.objects.get(pk=pk).user == world.user(persona)

    return Effect(frozenset({"tokens.apitoken"}), check, "token-created")


def token_gone(which: Callable[[World], int]) -> Effect:
    def check(world, changes):
        pk = which(world)
        assert changes["tokens.apitoken"] == {pk}
        assert not ApiToken.objects.filter(pk=pk).exists()

    return Effect(frozenset({"tokens.apitoken"}), check, "token-revoked")


def own_token(persona: str) -> Callable[[World], int]:
    return lambda world: world.ids[f"token_{persona}"]


def user_changed(
    persona: str, column: str, value: Any = None, also: frozenset[str] = frozenset()
) -> Effect:
    """Only the persona's own user row changed (another user's settings never);
    ``also``: other tables the change may reach (a vacation moves deadlines)."""

    def check(world, changes):
        user = User.objects.get(pk=world.user(persona).pk)
        assert changes["accounts.user"] == {user.pk}
        before = world.user(persona)
        assert (user.username, user.is_staff) == (before.username, before.is_staff)
        if value is None:
            assert getattr(user, column) is not None
        else:
            assert getattr(user, column) == value

    return Effect(frozenset({"accounts.user"}) | also, check, f"{column}-changed")


def account_deleted(persona: str) -> Effect:
    """The persona's own account was deleted (accounts.deletion): only their own rows."""

    def check(world, changes):
        user = User.objects.get(pk=world.user(persona).pk)
        assert changes["accounts.user"] == {user.pk}
        assert user.deleted_at is not None and user.username == f"~deleted-{user.pk}"

    # Its names, held back for a while as digests (accounts.retired_names).
    tables = {
        "accounts.user",
        "account.emailaddress",
        "tokens.apitoken",
        "mfa.authenticator",
        "accounts.retiredname",
    }
    return Effect(frozenset(tables), check, "account-deleted")


# --------------------------------------------------------------------------- the cases


@dataclass(frozen=True)
class Case:
    route: str  # the resolver's name (namespaced), or the pattern of an unnamed route
    label: str  # the route's short name in the test id, with the table if any
    persona: str
    method: str
    expect: int | str
    path: str  # with {placeholders} from World.ids
    data: Any = None
    effect: Effect | None = None
    api: bool = False

    @property
    def id(self) -> str:
        return f"{self.label}/{self.persona}/{self.method}"


CASES: list[Case] = []


def by(default: int | str, **persona: int | str) -> dict[str, int | str]:
    """An expectation per persona: ``default`` unless named."""
    unknown = set(persona) - set(PERSONAS)
    assert not unknown, unknown
    return {p: persona.get(p, default) for p in PERSONAS}


def add(
    route: str,
    label: str,
    path: str,
    method: str,
    expect: dict[str, int | str] | int | str,
    *,
    data: Any = None,
    effects: dict[str, Effect] | None = None,
    api: bool = False,
    personas: tuple[str, ...] = PERSONAS,
) -> None:
    for persona in personas:
        wanted = expect[persona] if isinstance(expect, dict) else expect
        effect = (effects or {}).get(persona)
        CASES.append(Case(route, label, persona, method, wanted, path, data, effect, api))


def seen(
    table: str, ok: int = 200, anonymous: int | str | None = None, closed: int = 410
) -> dict[str, int | str]:
    """Who may see a table: everybody, except an abandoned table (only the people who
    sat there; anyone else is told it was closed: 410) and a game that does not exist
    (nobody)."""
    if table == "missing":
        expect = by(404)
    elif table == "abandoned":
        expect = by(closed, seated=ok, other=ok, creator=ok)
    else:
        expect = by(ok)
    if anonymous is not None:
        expect["anonymous"] = anonymous
    return expect


def refused(
    table: str, default: int, anonymous: int | str, closed: int = 410, **persona: int
) -> dict:
    """A change refused by the service; at an abandoned table the outsiders get 410 (it
    was closed, and they learn nothing else of it; the API: 404), at a missing game
    everybody 404."""
    if table == "missing":
        return by(404, anonymous=anonymous)
    if table == "abandoned":
        return by(default, anonymous=anonymous, outsider=closed, staff=closed)
    return by(default, anonymous=anonymous, **persona)


# ---- game pages

for t in TABLES:
    g = f"/games/{{{t}}}"
    v = f"{{v_{t}}}"
    add("games:detail", f"game-detail:{t}", f"{g}/", "GET", seen(t))
    add("games:board", f"game-board:{t}", f"{g}/board/", "GET", seen(t))
    # The stream, as a WSGI client sees it: 204 (no stream here: poll) where the board is
    # seen, for signed-in people only (tests/games/live test it under ASGI).
    add(
        "games:stream",
        f"game-stream:{t}",
        f"{g}/stream/",
        "GET",
        seen(t, 204, anonymous=403, closed=404),
    )
    add(
        "games:bid_preview", f"game-bid-preview:{t}", f"{g}/bid-preview/?cards=1000", "GET", seen(t)
    )
    finished_only = by(200) if t == "finished" else by(404)
    replay = by(410, seated=404, other=404, creator=404) if t == "abandoned" else finished_only
    add("games:replay", f"game-replay:{t}", f"{g}/replay/", "GET", replay)
    add("games:record", f"game-record:{t}", f"{g}/record.json", "GET", replay)

    act = {"type": "pass", "version": v}
    if t == "active":
        add(
            "games:act",
            f"game-act:{t}",
            f"{g}/act/",
            "POST",
            by(400, anonymous=LOGIN, seated=302),
            data=act,
            effects={"seated": moved("seated")},
        )
    else:
        add("games:act", f"game-act:{t}", f"{g}/act/", "POST", refused(t, 400, LOGIN), data=act)

    if t == "open":
        add(
            "games:join",
            f"game-join:{t}",
            f"{g}/join/",
            "POST",
            by(302, anonymous=LOGIN, seated=400, creator=400),
            effects={p: joined(p) for p in ("outsider", "other", "staff")},
        )
        add(
            "games:leave",
            f"game-leave:{t}",
            f"{g}/leave/",
            "POST",
            by(400, anonymous=LOGIN, seated=302, other=302, creator=302),
            effects={
                "seated": left("seated"),
                "other": left("other"),
                "creator": abandoned_by_creator(),
            },
        )
        for answer, effect in (("yes", joined("other")), ("no", left("other"))):
            add(
                "games:invitation",
                f"game-invitation-{answer}:{t}",
                f"{g}/invitation/",
                "POST",
                by(400, anonymous=LOGIN, other=302),
                data={"accept": answer},
                effects={"other": effect},
            )
        add(
            "games:invitation",
            f"game-invitation-bad:{t}",
            f"{g}/invitation/",
            "POST",
            by(400, anonymous=LOGIN),
            data={"accept": "perhaps"},
        )
    else:
        add("games:join", f"game-join:{t}", f"{g}/join/", "POST", refused(t, 400, LOGIN))
        add("games:leave", f"game-leave:{t}", f"{g}/leave/", "POST", refused(t, 400, LOGIN))
        add(
            "games:invitation",
            f"game-invitation-yes:{t}",
            f"{g}/invitation/",
            "POST",
            refused(t, 400, LOGIN),
            data={"accept": "yes"},
        )

    if t == "active":
        add(
            "games:resign",
            f"game-resign:{t}",
            f"{g}/resign/",
            "POST",
            by(302, anonymous=LOGIN, outsider=400, staff=400),
            effects={p: resigned(p) for p in ("seated", "other", "creator")},
        )
        # Refusals redirect to the board with the reason as a message; nothing changes.
        add(
            "games:seat_to_bot",
            f"game-seat-to-bot:{t}",
            f"{g}/seat-to-bot/",
            "POST",
            by(302, anonymous=LOGIN),
            data={"position": "{otto_seat}"},
            effects={"creator": seat_handed_to_bot()},
        )
    else:
        add("games:resign", f"game-resign:{t}", f"{g}/resign/", "POST", refused(t, 400, LOGIN))
        add(
            "games:seat_to_bot",
            f"game-seat-to-bot:{t}",
            f"{g}/seat-to-bot/",
            "POST",
            refused(t, 302, LOGIN),
            data={"position": "1"},
        )
    # The host's "Change seat N" at a waiting table: seat 4 (position 3) is open.
    add(
        "games:seat",
        f"game-seat:{t}",
        f"{g}/seat/",
        "POST",
        refused(t, 400, LOGIN, creator=302) if t == "open" else refused(t, 400, LOGIN),
        data={"position": "3", "kind": "bot:easy"},
        effects={"creator": seat_set_to_bot()} if t == "open" else None,
    )

# The table chat: the players with an accepted seat write (at the open table Otto is
# only invited); nobody else, and nobody at an abandoned table.
CHAT_PLAYERS = {
    "open": ("seated", "creator"),
    "active": ("seated", "other", "creator"),
    "finished": ("seated", "other", "creator"),
}
for t in TABLES:
    players = CHAT_PLAYERS.get(t, ())
    add(
        "games:chat",
        f"game-chat:{t}",
        f"/games/{{{t}}}/chat/",
        "POST",
        refused(t, 400, LOGIN, **{p: 302 for p in players}),
        data={"text": "Good luck, all"},
        effects={p: chat_posted(p) for p in players},
    )
# A rematch: for the players of a finished game (once over; anyone else is refused).
for t in TABLES:
    finished_players = ("seated", "other", "creator") if t == "finished" else ()
    add(
        "games:rematch",
        f"game-rematch:{t}",
        f"/games/{{{t}}}/rematch/",
        "POST",
        refused(t, 400, LOGIN, **{p: 302 for p in finished_players}),
        effects={p: rematch_opened(p) for p in finished_players},
    )
# Standing orders from the board: the players of a running game leave their own; the
# order's preview is a reading page like the bid's.
ORDER_PLAYERS = ("seated", "other", "creator")
for t in TABLES:
    players = ORDER_PLAYERS if t == "active" else ()
    add(
        "games:orders",
        f"game-orders:{t}",
        f"/games/{{{t}}}/orders/",
        "POST",
        refused(t, 400, LOGIN, **{p: 302 for p in players}),
        data={"what": "defaults", "luxury_below": "3"},
        effects={p: orders_left(p) for p in players},
    )
    add(
        "games:order_preview",
        f"game-order-preview:{t}",
        f"/games/{{{t}}}/order-preview/?maximum=5000",
        "GET",
        seen(t),
    )
# Muting: anyone signed in may mute a player (here Sam), except Sam himself.
add(
    "games:chat_mute",
    "game-chat-mute:active",
    "/games/{active}/chat/mute/",
    "POST",
    by(302, anonymous=LOGIN, seated=400),
    data={"username": "sam"},
    effects={p: chat_muted(p) for p in ("outsider", "other", "staff", "creator")},
)

# Reporting Otto's chat line: the other players at the table, not Otto, nobody else.
add(
    "games:chat_report",
    "game-chat-report:active",
    "/games/{active}/chat/report/",
    "POST",
    by(400, anonymous=LOGIN, seated=302, creator=302),
    data={"message": "{otto_line}"},
    effects={p: chat_reported(p) for p in ("seated", "creator")},
)

# Reading pages answer only GET/HEAD; the forms' targets only POST.
for route, label, path in (
    ("games:detail", "game-detail:active", "/games/{active}/"),
    ("games:board", "game-board:active", "/games/{active}/board/"),
    ("games:bid_preview", "game-bid-preview:active", "/games/{active}/bid-preview/"),
    ("games:order_preview", "game-order-preview:active", "/games/{active}/order-preview/"),
    ("games:replay", "game-replay:finished", "/games/{finished}/replay/"),
    ("games:record", "game-record:finished", "/games/{finished}/record.json"),
    ("lobby", "lobby", "/"),
    ("games:index", "games-index", "/games/"),
    ("player_profile", "player-profile", "/players/sam/"),
    ("leaderboard", "leaderboard", "/leaderboard/"),
    ("health", "health", "/health/"),
    ("health_ready", "health-ready", "/health/ready/"),
):
    add(route, label, path, "POST", 405)
for route, label, path in (
    ("games:act", "game-act:active", "/games/{active}/act/"),
    ("games:join", "game-join:open", "/games/{open}/join/"),
    ("games:leave", "game-leave:open", "/games/{open}/leave/"),
    ("games:resign", "game-resign:active", "/games/{active}/resign/"),
    ("games:invitation", "game-invitation:open", "/games/{open}/invitation/"),
    ("games:chat", "game-chat:active", "/games/{active}/chat/"),
    ("games:rematch", "game-rematch:finished", "/games/{finished}/rematch/"),
    ("games:chat_mute", "game-chat-mute:active", "/games/{active}/chat/mute/"),
    ("games:chat_report", "game-chat-report:active", "/games/{active}/chat/report/"),
    ("games:orders", "game-orders:active", "/games/{active}/orders/"),
    ("games:seat", "game-seat:open", "/games/{open}/seat/"),
):
    add(route, label, path, "GET", 405)
add(
    "games:seat_to_bot",
    "game-seat-to-bot:active",
    "/games/{active}/seat-to-bot/",
    "GET",
    by(405, anonymous=LOGIN),
)

add("lobby", "lobby", "/", "GET", 200)
add("games:index", "games-index", "/games/", "GET", 302)  # to the lobby, for everyone
add("games:new", "game-new", "/games/new/", "GET", by(200, anonymous=LOGIN))
NEW_TABLE = {"players": "3", "your_seat": "1", "seat_2": "open", "seat_3": "open"}
add(
    "games:new",
    "game-new",
    "/games/new/",
    "POST",
    by(302, anonymous=LOGIN),
    data=NEW_TABLE,
    effects={p: game_created(p) for p in PERSONAS[1:]},
)
add(
    "games:new",
    "game-new-invalid",
    "/games/new/",
    "POST",
    by(400, anonymous=LOGIN),
    data={**NEW_TABLE, "players": "9"},
)
# The lobby's "Play now": a game against bots, started at once; bad input goes back to
# the lobby with a message and creates nothing.
add("games:quick", "game-quick-get", "/games/quick/", "GET", 405)
add(
    "games:quick",
    "game-quick",
    "/games/quick/",
    "POST",
    by(302, anonymous=LOGIN),
    data={"players": "3", "level": "easy"},
    effects={p: game_created(p) for p in PERSONAS[1:]},
)
add(
    "games:quick",
    "game-quick-invalid",
    "/games/quick/",
    "POST",
    by(302, anonymous=LOGIN),
    data={"players": "9", "level": "easy"},
)
# Declines the caller's own unanswered invitations only ("other" is invited to the
# open table); everyone else's answer changes nothing.
add(
    "games:invitations_decline_all",
    "invitations-decline-all",
    "/games/invitations/decline-all/",
    "POST",
    by(302, anonymous=LOGIN),
    effects={"other": left("other")},
)
add(
    "games:invitations_decline_all",
    "invitations-decline-all",
    "/games/invitations/decline-all/",
    "GET",
    by(405),
)
# The header's "Your turn" count, asked again by open pages: nothing for a visitor.
add("games:turns", "turns-badge", "/games/turns/", "GET", by(200, anonymous=204))
add("games:turns", "turns-badge", "/games/turns/", "POST", 405)
add("games:history", "game-history", "/games/history/", "GET", by(200, anonymous=LOGIN))
add("games:history", "game-history", "/games/history/", "POST", by(405, anonymous=LOGIN))
add("player_profile", "player-profile", "/players/sam/", "GET", 200)
add("player_profile", "player-profile-unknown", "/players/nobody-here/", "GET", 404)
add("leaderboard", "leaderboard", "/leaderboard/", "GET", 200)
add("health", "health", "/health/", "GET", 200)
add("health_ready", "health-ready", "/health/ready/", "GET", 200)

# ---- account pages (ours)

add("profile", "profile", "/accounts/profile/", "GET", by(200, anonymous=LOGIN))
add(
    "profile",
    "profile",
    "/accounts/profile/",
    "POST",
    by(302, anonymous=LOGIN),
    data={"display_name": "Renamed", "username": "otto", "is_staff": "on"},
    effects={p: user_changed(p, "display_name", "Renamed") for p in PERSONAS[1:]},
)
add(
    "notifications_update",
    "notifications-update",
    "/accounts/profile/notifications/",
    "POST",
    by(302, anonymous=LOGIN),
    data={"turn_emails": "none"},
    effects={p: user_changed(p, "turn_emails", "none") for p in PERSONAS[1:]},
)
add(
    "notifications_update",
    "notifications-update",
    "/accounts/profile/notifications/",
    "GET",
    by(405, anonymous=LOGIN),
)
add(
    "time_zone_update",
    "time-zone-update",
    "/accounts/profile/time-zone/",
    "POST",
    by(302, anonymous=LOGIN),
    data={"time_zone": "Europe/Berlin"},
    effects={p: user_changed(p, "time_zone", "Europe/Berlin") for p in PERSONAS[1:]},
)
add(
    "time_zone_update",
    "time-zone-update",
    "/accounts/profile/time-zone/",
    "GET",
    by(405, anonymous=LOGIN),
)
# The language switcher: anyone, signed in or not (the cookie); a signed-in player's
# choice is saved on their own account only.
add(
    "set_language",
    "set-language",
    "/accounts/language/",
    "POST",
    302,
    data={"language": "de", "next": "/"},
    effects={p: user_changed(p, "language", "de") for p in PERSONAS[1:]},
)
add("set_language", "set-language", "/accounts/language/", "GET", 405)
add(
    "vacation_update",
    "vacation-update",
    "/accounts/profile/vacation/",
    "POST",
    by(302, anonymous=LOGIN),
    data={"days": "3"},
    effects={
        p: user_changed(p, "vacation_until", also=frozenset({"games.game"})) for p in PERSONAS[1:]
    },
)
add(
    "vacation_update",
    "vacation-update",
    "/accounts/profile/vacation/",
    "GET",
    by(405, anonymous=LOGIN),
)
# Web Push: a browser's subscription, JSON only (a form post is a 400 for the signed-in,
# and no push is offered without VAPID keys anyway); visitors get 403, never a change.
add("push_on", "push-on", "/accounts/profile/push/", "POST", by(400, anonymous=403))
add("push_on", "push-on", "/accounts/profile/push/", "GET", 405)
add("push_off", "push-off", "/accounts/profile/push/off/", "POST", by(400, anonymous=403))
add("push_off", "push-off", "/accounts/profile/push/off/", "GET", 405)
add(
    "push_settings_update",
    "push-settings-update",
    "/accounts/profile/push/settings/",
    "POST",
    by(302, anonymous=LOGIN),
    data={"push_on": "turn"},
    effects={
        p: user_changed(
            p,
            "push_off",
            [
                "reminder",
                "deadline",
                "invitation",
                "declined",
                "game_over",
                "handed_over",
                "closed",
            ],
        )
        for p in PERSONAS[1:]
    },
)
add(
    "push_settings_update",
    "push-settings-update",
    "/accounts/profile/push/settings/",
    "GET",
    by(405, anonymous=LOGIN),
)
add("service_worker", "service-worker", "/sw.js", "GET", 200)
add("service_worker", "service-worker", "/sw.js", "POST", 405)
add("favicon", "favicon", "/favicon.ico", "GET", 302)
add("favicon", "favicon", "/favicon.ico", "POST", 405)
add(
    "sign_out_everywhere",
    "sign-out-everywhere",
    "/accounts/profile/sign-out-everywhere/",
    "POST",
    by(302, anonymous=LOGIN),
    effects={
        p: user_changed(p, "session_generation", 1, also=frozenset({"tokens.apitoken"}))
        for p in PERSONAS[1:]
    },
)
add(
    "sign_out_everywhere",
    "sign-out-everywhere",
    "/accounts/profile/sign-out-everywhere/",
    "GET",
    by(405, anonymous=LOGIN),
)
# The profile's list of muted and blocked players: undoing nothing changes nothing.
add(
    "people_update",
    "people-update",
    "/accounts/profile/people/",
    "POST",
    by(302, anonymous=LOGIN),
    data={"what": "unblock", "username": "sam"},
)
add("people_update", "people-update", "/accounts/profile/people/", "GET", by(405, anonymous=LOGIN))
# Deleting an account: the page for the signed-in; the deletion itself asks for the
# password again first (allauth's reauthentication), so a session alone changes nothing.
add(
    "delete_account", "delete-account", "/accounts/profile/delete/", "GET", by(200, anonymous=LOGIN)
)
add(
    "delete_account",
    "delete-account",
    "/accounts/profile/delete/",
    "POST",
    by(302, anonymous=LOGIN),
    data={"confirm": "on"},
    # Staff sessions gave a second factor at sign-in (allauth counts it as a recent
    # reauthentication): theirs is deleted at once; everyone else is asked first.
    effects={"staff": account_deleted("staff")},
)
# "Download your data": the password again first (staff gave a second factor at sign-in).
add(
    "download_data",
    "download-data",
    "/accounts/profile/data.json",
    "GET",
    by(302, anonymous=LOGIN, staff=200),
)
add(
    "download_data",
    "download-data",
    "/accounts/profile/data.json",
    "POST",
    by(405, anonymous=LOGIN),
)
add("your_data", "your-data", "/accounts/profile/data/", "GET", by(302, anonymous=LOGIN, staff=200))
add("your_data", "your-data", "/accounts/profile/data/", "POST", by(405, anonymous=LOGIN))
# The signed link is the credential (no log-in, no CSRF: RFC 8058 one-click), and it
# only ever switches off the e-mails of the account it was made for.
add("unsubscribe", "unsubscribe", "/accounts/unsubscribe/{unsub}/", "GET", 200)
add(
    "unsubscribe",
    "unsubscribe",
    "/accounts/unsubscribe/{unsub}/",
    "POST",
    200,
    effects={p: user_changed("other", "turn_emails", "none") for p in PERSONAS},
)
add("unsubscribe", "unsubscribe-tampered", "/accounts/unsubscribe/{unsub_bad}/", "GET", 400)
add("unsubscribe", "unsubscribe-tampered", "/accounts/unsubscribe/{unsub_bad}/", "POST", 400)
# The old address's link after an address change: the signed link is the credential
# (the old mailbox's owner may be signed out, or in as the intruder), GET only asks.
add("email_undo", "email-undo", "/accounts/email/undo/{undo}/", "GET", 200)
add("email_undo", "email-undo", "/accounts/email/undo/{undo}/", "POST", 409)
add("email_undo", "email-undo-tampered", "/accounts/email/undo/{unsub_bad}/", "POST", 400)
add("api_tokens", "api-tokens", "/accounts/profile/tokens/", "GET", by(200, anonymous=LOGIN))
add("api_tokens", "api-tokens", "/accounts/profile/tokens/", "POST", by(405, anonymous=LOGIN))
add(
    "api_token_new",
    "api-token-new",
    "/accounts/profile/tokens/new/",
    "POST",
    by(200, anonymous=LOGIN),
    data={"name": "my bot", "days": "30"},
    effects={p: token_created(p) for p in PERSONAS[1:]},
)
add(
    "api_token_new",
    "api-token-new",
    "/accounts/profile/tokens/new/",
    "GET",
    by(405, anonymous=LOGIN),
)
# Sam's spare token: only Sam can revoke it; anyone else is told there is no such token.
add(
    "api_token_revoke",
    "api-token-revoke",
    "/accounts/profile/tokens/{sam_token}/revoke/",
    "POST",
    by(302, anonymous=LOGIN),
    effects={"seated": token_gone(lambda world: world.ids["sam_token"])},
)
add(
    "api_token_revoke",
    "api-token-revoke",
    "/accounts/profile/tokens/{sam_token}/revoke/",
    "GET",
    by(405, anonymous=LOGIN),
)

# ---- allauth's pages

SIGNED_IN = {p: 302 for p in PERSONAS[1:]}  # allauth sends signed-in people away
add("account_login", "account-login", "/accounts/login/", "GET", by(200, **SIGNED_IN))
add(
    "account_login",
    "account-login-wrong-password",
    "/accounts/login/",
    "POST",
    by(200, **SIGNED_IN),
    data={"login": "sam", "password": "not the password"},
)
add("account_logout", "account-logout", "/accounts/logout/", "GET", by(200, anonymous=302))
add("account_logout", "account-logout", "/accounts/logout/", "POST", 302)
add("account_inactive", "account-inactive", "/accounts/inactive/", "GET", 200)
add("account_signup", "account-signup", "/accounts/signup/", "GET", by(200, **SIGNED_IN))
add(
    "account_signup",
    "account-signup-invalid",
    "/accounts/signup/",
    "POST",
    by(200, **SIGNED_IN),
    data={"username": "x", "email": "not-an-address", "password1": "a", "password2": "b"},
)
add(
    "account_reauthenticate",
    "account-reauthenticate",
    "/accounts/reauthenticate/",
    "GET",
    by(200, anonymous=LOGIN),
)
add(
    "account_reauthenticate",
    "account-reauthenticate-wrong-password",
    "/accounts/reauthenticate/",
    "POST",
    by(200, anonymous=LOGIN),
    data={"password": "not the password"},
)
# Reauthenticating with a code sent by e-mail is off (settings.ACCOUNT_REAUTHENTICATION_
# METHODS): allauth serves its routes, and refuses everyone signed in.
for method in ("GET", "POST"):
    add(
        "account_request_reauthentication_code",
        "account-request-reauthentication-code",
        "/accounts/reauthenticate/code/",
        method,
        by(403, anonymous=LOGIN),
    )
    add(
        "account_confirm_reauthentication_code",
        "account-confirm-reauthentication-code",
        "/accounts/reauthenticate/code/confirm/",
        method,
        by(403, anonymous=LOGIN),
        data={"code": "ABC123"} if method == "POST" else None,
    )
add("account_email", "account-email", "/accounts/email/", "GET", by(200, anonymous=LOGIN))
add(
    "account_email",
    "account-email-invalid",
    "/accounts/email/",
    "POST",
    by(200, anonymous=LOGIN),
    data={"action_add": "", "email": "not-an-address"},
)
add(
    "account_email_verification_sent",
    "account-email-verification-sent",
    "/accounts/confirm-email/",
    "GET",
    200,
)
add(
    "account_change_password",
    "account-change-password",
    "/accounts/password/change/",
    "GET",
    by(200, anonymous=LOGIN),
)
add(
    "account_change_password",
    "account-change-password-wrong",
    "/accounts/password/change/",
    "POST",
    by(200, anonymous=LOGIN),
    data={"oldpassword": "wrong", "password1": "x", "password2": "y"},
)
# Everybody here has a password: "set" sends them to "change".
add(
    "account_set_password",
    "account-set-password",
    "/accounts/password/set/",
    "GET",
    by(302, anonymous=LOGIN),
)
add(
    "account_reset_password",
    "account-reset-password",
    "/accounts/password/reset/",
    "GET",
    200,
)
add(
    "account_reset_password",
    "account-reset-password-invalid",
    "/accounts/password/reset/",
    "POST",
    200,
    data={"email": "not-an-address"},
)
# A step of a log-in in progress (a code sent by e-mail): with none pending, everybody
# is sent back to the log-in page.
for method in ("GET", "POST"):
    add(
        "account_confirm_login_code",
        "account-confirm-login-code",
        "/accounts/login/code/confirm/",
        method,
        302,
        data={"code": "123456"} if method == "POST" else None,
    )
add(
    "account_confirm_email",
    "account-confirm-email-bad-key",
    "/accounts/confirm-email/not-a-key/",
    "GET",
    200,
)
add(
    "account_confirm_email",
    "account-confirm-email-bad-key",
    "/accounts/confirm-email/not-a-key/",
    "POST",
    404,
)
add(
    "account_reset_password_from_key",
    "account-reset-password-bad-key",
    "/accounts/password/reset/key/1-not-a-key/",
    "GET",
    200,
)
add(
    "account_reset_password_from_key",
    "account-reset-password-bad-key",
    "/accounts/password/reset/key/1-not-a-key/",
    "POST",
    200,
    data={"password1": "a new pass phrase 1", "password2": "a new pass phrase 1"},
)
# A link cut short (no "-" in its key): the bad-link page, for everybody.
add(
    "account_reset_password_link_broken",
    "account-reset-password-link-broken",
    "/accounts/password/reset/key/cut/",
    "GET",
    404,
)
add(
    "account_reset_password_link_broken",
    "account-reset-password-link-broken",
    "/accounts/password/reset/key/cut/",
    "POST",
    405,
)
add(
    "account_reset_password_from_key_done",
    "account-reset-password-from-key-done",
    "/accounts/password/reset/key/done/",
    "GET",
    200,
)
add(
    "account_reset_password_done",
    "account-reset-password-done",
    "/accounts/password/reset/done/",
    "GET",
    200,
)

# ---- allauth's second factor (an authenticator app): the staff persona has one, set
# up through these pages, and a session confirmed with a code; the others have none.
# allauth asks for the password again (302 to /accounts/reauthenticate/) before a factor
# is set up or removed, unless the session confirmed it recently (the staff's did).

REAUTH = 302  # to /accounts/reauthenticate/ (or, for staff, on to the next step)
M = "/accounts/2fa"
add("mfa_index", "mfa-index", f"{M}/", "GET", by(200, anonymous=LOGIN))
add("mfa_index", "mfa-index", f"{M}/", "POST", by(405, anonymous=LOGIN))
# A step of a log-in in progress: with none pending, everybody is sent back.
for method in ("GET", "POST"):
    add(
        "mfa_authenticate",
        "mfa-authenticate",
        f"{M}/authenticate/",
        method,
        302,
        data={"code": "123456"} if method == "POST" else None,
    )
add(
    "mfa_reauthenticate",
    "mfa-reauthenticate",
    f"{M}/reauthenticate/",
    "GET",
    by(REAUTH, anonymous=LOGIN, staff=200),
)
add(
    "mfa_reauthenticate",
    "mfa-reauthenticate-wrong-code",
    f"{M}/reauthenticate/",
    "POST",
    by(REAUTH, anonymous=LOGIN, staff=200),
    data={"code": "000000"},
)
add(
    "mfa_activate_totp",
    "mfa-activate-totp",
    f"{M}/totp/activate/",
    "GET",
    by(REAUTH, anonymous=LOGIN),
)
add(
    "mfa_activate_totp",
    "mfa-activate-totp-wrong-code",
    f"{M}/totp/activate/",
    "POST",
    by(REAUTH, anonymous=LOGIN),
    data={"code": "000000"},
)
# Without an app there is nothing to remove and no recovery codes: 404.
NO_APP = 404
add(
    "mfa_deactivate_totp",
    "mfa-deactivate-totp",
    f"{M}/totp/deactivate/",
    "GET",
    by(NO_APP, anonymous=LOGIN, staff=200),
)
for name, path, others in (
    ("mfa_view_recovery_codes", f"{M}/recovery-codes/", NO_APP),
    ("mfa_generate_recovery_codes", f"{M}/recovery-codes/generate/", REAUTH),
    ("mfa_download_recovery_codes", f"{M}/recovery-codes/download/", NO_APP),
):
    add(name, name.replace("_", "-"), path, "GET", by(others, anonymous=LOGIN, staff=200))

# ---- the API (token authentication; personas without a token are anonymous)

A = "/api/v1"
add(
    "api:auth-token",
    "api-auth-token",
    f"{A}/auth/token/",
    "POST",
    # Staff have a second factor: the password alone gets no token (400 code_required).
    by(200, anonymous=400, staff=400),
    data="credentials",  # each persona's own; the anonymous one sends a wrong password
    effects={p: token_created(p) for p in PERSONAS[1:] if p != "staff"},
    api=True,
)
add(
    "api:auth-token",
    "api-auth-token",
    f"{A}/auth/token/",
    "DELETE",
    by(204, anonymous=401),
    effects={p: token_gone(own_token(p)) for p in PERSONAS[1:]},
    api=True,
)
add("api:auth-token", "api-auth-token", f"{A}/auth/token/", "GET", by(405, anonymous=401), api=True)

NEW_GAME = {"players": 3, "seats": [{"open": True}, {"open": True}]}
add("api:games", "api-games", f"{A}/games/", "GET", by(200, anonymous=401), api=True)
add(
    "api:games",
    "api-games",
    f"{A}/games/",
    "POST",
    by(201, anonymous=401),
    data=NEW_GAME,
    effects={p: game_created(p) for p in PERSONAS[1:]},
    api=True,
)
# Scenario games (a fixed deck and first player) are for staff only.
add(
    "api:games",
    "api-games-scenario",
    f"{A}/games/",
    "POST",
    by(403, anonymous=401, staff=201),
    data={**NEW_GAME, "deck": scenario_deck("lux3 lux7"), "first_player": 1},
    effects={"staff": game_created("staff")},
    api=True,
)
for method in ("PUT", "PATCH", "DELETE"):
    add("api:games", "api-games", f"{A}/games/", method, by(405, anonymous=401), api=True)

for t in TABLES:
    g = f"{A}/games/{{{t}}}"
    for name, tail in (("detail", ""), ("moves", "moves/")):
        expect = seen(t, anonymous=401, closed=404)  # the API keeps 404 for a closed table
        add(f"api:game-{name}", f"api-game-{name}:{t}", f"{g}/{tail}", "GET", expect, api=True)
    if t == "open":
        join = by(200, anonymous=401, seated=200, creator=200)  # seated: a retry, done
        join_effects = {p: joined(p) for p in ("outsider", "other", "staff")}
        # Not started: no seat in play for anyone (Otto's invitation is not accepted).
        move = by(403, anonymous=401, seated=409, creator=409)
        move_effects = {}
    elif t == "active":
        join = by(409, anonymous=401, seated=200, other=200, creator=200)
        join_effects = {}
        move = by(403, anonymous=401, seated=201, other=400, creator=400)
        move_effects = {"seated": moved("seated")}
    elif t == "finished":
        join = by(409, anonymous=401)
        join_effects = {}
        move = by(403, anonymous=401, seated=409, other=409, creator=409)
        move_effects = {}
    else:
        join = refused(t, 409, 401, closed=404)
        join_effects = {}
        move = refused(t, 409, 401, closed=404)
        if t == "abandoned":
            move["other"] = 403  # invited, never accepted: no seat in play
        move_effects = {}
    add(
        "api:game-join",
        f"api-game-join:{t}",
        f"{g}/join/",
        "POST",
        join,
        effects=join_effects,
        api=True,
    )
    add(
        "api:game-moves",
        f"api-game-moves:{t}",
        f"{g}/moves/",
        "POST",
        move,
        data={"type": "pass", "version": f"{{v_{t}}}"},
        effects=move_effects,
        api=True,
    )
# Before the start: leave (decline an invitation), and the host changes a seat nobody
# has taken (seat 4, position 3, is open).
for t in TABLES:
    g = f"{A}/games/{{{t}}}"
    if t == "open":
        leave = by(403, anonymous=401, seated=200, other=200, creator=200)
        leave_effects = {
            "seated": left("seated"),
            "other": left("other"),
            "creator": abandoned_by_creator(),
        }
        seat = by(409, anonymous=401, creator=200)
        seat_effects = {"creator": seat_set_to_bot()}
    else:
        leave = refused(t, 409, 401, closed=404, outsider=403, staff=403)
        leave_effects = seat_effects = {}
        seat = refused(t, 409, 401, closed=404)
    add(
        "api:game-leave",
        f"api-game-leave:{t}",
        f"{g}/leave/",
        "POST",
        leave,
        effects=leave_effects,
        api=True,
    )
    add(
        "api:game-seat",
        f"api-game-seat:{t}",
        f"{g}/seats/3/",
        "PUT",
        seat,
        data={"ai": "easy"},
        effects=seat_effects,
        api=True,
    )
    # The host hands an away player's seat to a bot (Otto's has missed its deadlines).
    add(
        "api:game-seat-hand-over",
        f"api-game-seat-hand-over:{t}",
        f"{g}/seats/{{otto_seat}}/hand-over/" if t == "active" else f"{g}/seats/1/hand-over/",
        "POST",
        by(409, anonymous=401, creator=200) if t == "active" else refused(t, 409, 401, closed=404),
        effects={"creator": seat_handed_to_bot()} if t == "active" else None,
        api=True,
    )
add(
    "api:game-seat",
    "api-game-seat:open",
    f"{A}/games/{{open}}/seats/3/",
    "GET",
    by(405, anonymous=401),
    api=True,
)
add(
    "api:game-seat-hand-over",
    "api-game-seat-hand-over:active",
    f"{A}/games/{{active}}/seats/1/hand-over/",
    "GET",
    by(405, anonymous=401),
    api=True,
)
add(
    "api:game-leave",
    "api-game-leave:open",
    f"{A}/games/{{open}}/leave/",
    "GET",
    by(405, anonymous=401),
    api=True,
)


def api_player_call(name: str, at: str, ok: dict, effect) -> None:
    """``POST /games/{id}/<name>/`` for the players of the ``at`` table (``ok``); at
    every other table 409 for the players, 403 for anyone without a seat in play."""
    for t in TABLES:
        if t == at:
            expect, effects = ok, {p: effect(p) for p in ("seated", "other", "creator")}
        else:
            expect, effects = refused(t, 409, 401, closed=404, outsider=403, staff=403), {}
            if t in ("open", "abandoned"):
                expect["other"] = 403  # invited, not (yet) accepted: no seat in play
        path = f"{A}/games/{{{t}}}/{name}/"
        add(
            f"api:game-{name}",
            f"api-game-{name}:{t}",
            path,
            "POST",
            expect,
            effects=effects,
            api=True,
        )
    path = f"{A}/games/{{{at}}}/{name}/"
    add(f"api:game-{name}", f"api-game-{name}:{at}", path, "GET", by(405, anonymous=401), api=True)


# Resigning through the API, as the board's button does: the seated of a running game.
api_player_call("resign", "active", by(200, anonymous=401, outsider=403, staff=403), resigned)
# A rematch through the API, as the end screen's button does: the players once it is over.
api_player_call(
    "rematch",
    "finished",
    by(403, anonymous=401, seated=201, other=201, creator=201),
    rematch_opened,
)

# The chat in the API: the players of the table (accepted seats) only.
for t in TABLES:
    players = CHAT_PLAYERS.get(t, ())
    g = f"{A}/games/{{{t}}}"
    if t == "missing":
        read = write = by(404, anonymous=401)
    elif t == "abandoned":  # exists only for those who sat there; its chat is closed
        read = write = by(409, anonymous=401, outsider=404, staff=404)
    else:
        read = by(403, anonymous=401, **{p: 200 for p in players})
        write = by(403, anonymous=401, **{p: 201 for p in players})
    add("api:game-chat", f"api-game-chat:{t}", f"{g}/chat/", "GET", read, api=True)
    add(
        "api:game-chat",
        f"api-game-chat:{t}",
        f"{g}/chat/",
        "POST",
        write,
        data={"text": "Good luck, all"},
        effects={p: chat_posted(p) for p in players},
        api=True,
    )

# Reporting Otto's line through the API: Sam and Cora may; Otto (his own) 409; others 403.
add(
    "api:game-chat-report",
    "api-game-chat-report:active",
    f"{A}/games/{{active}}/chat/{{otto_line}}/report/",
    "POST",
    by(403, anonymous=401, seated=200, creator=200, other=409),
    effects={p: chat_reported(p) for p in ("seated", "creator")},
    api=True,
)
add(
    "api:game-chat-report",
    "api-game-chat-report:active",
    f"{A}/games/{{active}}/chat/{{otto_line}}/report/",
    "GET",
    by(405, anonymous=401),
    api=True,
)

# Standing orders in the API: each player of a running game reads and leaves their own;
# before the start and after the end there are none: reading and leaving one are a 409.
for t in TABLES:
    g = f"{A}/games/{{{t}}}"
    seated_at = ("seated", "creator") if t in ("open", "abandoned") else ORDER_PLAYERS
    if t == "missing":
        read = write = gone = by(404, anonymous=401)
    elif t == "abandoned":
        read = write = by(
            403, anonymous=401, outsider=404, staff=404, **{p: 409 for p in seated_at}
        )
        gone = by(403, anonymous=401, outsider=404, staff=404, **{p: 204 for p in seated_at})
    elif t == "active":
        read = by(403, anonymous=401, **{p: 200 for p in ORDER_PLAYERS})
        write = by(403, anonymous=401, **{p: 200 for p in ORDER_PLAYERS})
        gone = by(403, anonymous=401, **{p: 204 for p in ORDER_PLAYERS})
    else:
        read = write = by(403, anonymous=401, **{p: 409 for p in seated_at})
        gone = by(403, anonymous=401, **{p: 204 for p in seated_at})
    add("api:game-orders", f"api-game-orders:{t}", f"{g}/orders/", "GET", read, api=True)
    add(
        "api:game-orders",
        f"api-game-orders:{t}",
        f"{g}/orders/",
        "PUT",
        write,
        data={"defaults": {"luxury_below": 3}},
        effects={p: orders_left(p) for p in ORDER_PLAYERS} if t == "active" else None,
        api=True,
    )
    add("api:game-orders", f"api-game-orders:{t}", f"{g}/orders/", "DELETE", gone, api=True)

# Naming a seat: only your own (Sam's is to act; Otto's is not).
add(
    "api:game-moves",
    "api-game-moves-sams-seat:active",
    f"{A}/games/{{active}}/moves/",
    "POST",
    by(403, anonymous=401, seated=201),
    data={"type": "pass", "seat": "{sam_seat}", "version": "{v_active}"},
    effects={"seated": moved("seated")},
    api=True,
)
add(
    "api:game-moves",
    "api-game-moves-ottos-seat:active",
    f"{A}/games/{{active}}/moves/",
    "POST",
    by(403, anonymous=401, other=400),
    data={"type": "pass", "seat": "{otto_seat}", "version": "{v_active}"},
    api=True,
)
for method in ("POST", "PUT", "PATCH", "DELETE"):
    add(
        "api:game-detail",
        "api-game-detail:active",
        f"{A}/games/{{active}}/",
        method,
        by(405, anonymous=401),
        api=True,
    )
for method in ("PUT", "DELETE"):
    add(
        "api:game-moves",
        "api-game-moves:active",
        f"{A}/games/{{active}}/moves/",
        method,
        by(405, anonymous=401),
        api=True,
    )
add(
    "api:game-join",
    "api-game-join:open",
    f"{A}/games/{{open}}/join/",
    "GET",
    by(405, anonymous=401),
    api=True,
)
add(
    "api:user-detail", "api-user-detail", f"{A}/users/sam/", "GET", by(200, anonymous=401), api=True
)
add(
    "api:user-detail",
    "api-user-detail-unknown",
    f"{A}/users/nobody-here/",
    "GET",
    by(404, anonymous=401),
    api=True,
)
add(
    "api:user-detail",
    "api-user-detail",
    f"{A}/users/sam/",
    "DELETE",
    by(405, anonymous=401),
    api=True,
)
add(
    "api:leaderboard",
    "api-leaderboard",
    f"{A}/leaderboard/",
    "GET",
    by(200, anonymous=401),
    api=True,
)
add(
    "api:leaderboard",
    "api-leaderboard",
    f"{A}/leaderboard/",
    "POST",
    by(405, anonymous=401),
    api=True,
)
API_CATCH_ALL = "api/v1/[\\s\\S]*$"
add(API_CATCH_ALL, "api-unknown-path", f"{A}/no/such/thing/", "GET", 404, api=True)
add(API_CATCH_ALL, "api-unknown-path", f"{A}/no/such/thing/", "POST", 404, api=True)
add("api-schema", "api-schema", "/api/schema/", "GET", 200, api=True)
add("api-schema", "api-schema", "/api/schema/", "POST", 405, api=True)
add("rules", "rules", "/rules/", "GET", 200)
add("rules", "rules", "/rules/", "POST", 405)
add("api-docs", "api-docs", "/api/docs/", "GET", 200, api=True)
add("api-docs", "api-docs", "/api/docs/", "POST", 405, api=True)


# ---- the admin: every route it serves, found in the URLconf

ADMIN_PREFIX = "admin/"


def admin_routes() -> list[Route]:
    return [route for route in routes_all() if route.pattern.startswith(ADMIN_PREFIX)]


def _admin_expect(route: Route, persona: str) -> int | str:
    if persona == "staff":
        return STAFF_OK
    if route.name in ("admin:login", "admin_login"):
        # The site's log-in (its limits and lockout); the admin has none.  Signed in
        # already and not staff: refused there and then.
        return LOGIN if persona == "anonymous" else 403
    if route.name == "admin:logout":
        return 302  # to the admin's index, which sends them to its log-in page
    return ADMIN_LOGIN


ADMIN_CASES = [
    Case(
        route.key,
        route.name or route.pattern,
        persona,
        method,
        _admin_expect(route, persona),
        route.pattern,
    )
    for route in admin_routes()
    for persona, method in (
        ("anonymous", "GET"),
        ("outsider", "GET"),
        ("staff", "GET"),
        ("anonymous", "POST"),
        ("outsider", "POST"),
    )
]


def _admin_path(pattern: str, world: World) -> str:
    """A concrete address for an admin route: real ids of real rows."""
    if "(?P<app_label>" in pattern:
        return "/admin/games/"
    if "(?P<url>" in pattern:
        return "/admin/no-such-page/"
    parts = pattern.split("/")
    row_ids = {
        ("games", "game"): world.ids["active"],
        ("games", "move"): world.ids["move_id"],
        ("accounts", "user"): world.ids["user_id"],
        ("account", "emailaddress"): world.ids["emailaddress_id"],
    }
    object_id = row_ids.get((parts[1], parts[2]), 1) if len(parts) > 3 else 1
    path = (
        pattern.replace("<path:content_type_id>", str(world.ids["game_ct"]))
        .replace("<path:object_id>", str(object_id))
        .replace("<id>", str(object_id))
    )
    assert "<" not in path and "(" not in path, path
    return "/" + path


# --------------------------------------------------------------------------- running a case


def _fill(value: Any, ids: dict[str, Any]) -> Any:
    """Placeholders in a body: ``"{v_active}"`` becomes the number, as JSON wants it."""
    if isinstance(value, dict):
        return {k: _fill(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, ids) for v in value]
    if isinstance(value, str) and re.fullmatch(r"\{\w+\}", value):
        return ids[value[1:-1]]
    return value


def _csrf_cookie(client) -> str:
    """A CSRF cookie for the client; the value is the token a form must send back."""
    secret = _get_new_csrf_string()
    client.cookies[settings.CSRF_COOKIE_NAME] = secret
    return secret


def _client(case: Case, world: World, *, enforce_csrf: bool = True):
    if case.api:
        client = APIClient(enforce_csrf_checks=enforce_csrf)
        if case.persona != "anonymous":
            client.credentials(HTTP_AUTHORIZATION=f"Token {world.tokens[case.persona]}")
        return client
    client = Client(enforce_csrf_checks=enforce_csrf)
    if case.persona != "anonymous":
        client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions[case.persona]
    return client


def _body(case: Case, world: World) -> Any:
    if case.data == "credentials":
        if case.persona == "anonymous":
            return {"username": "sam", "password": "not the password"}
        return {"username": USERNAMES[case.persona], "password": PASSWORD}
    return _fill(case.data, world.ids)


def _send(client, case: Case, path: str, body: Any, **extra):
    method = case.method.lower()
    if case.api:
        if body is None:
            return getattr(client, method)(path, **extra)
        return getattr(client, method)(path, body, format="json", **extra)
    if case.method == "GET":
        return client.get(path, **extra)
    if case.method == "POST":
        return client.post(path, body or {}, **extra)
    return getattr(client, method)(path, **extra)


def _status_check(case: Case, response, path: str) -> None:
    got = response.status_code
    where = response.get("Location", "")
    shown = f"{case.id} {path}: got {got} {where}".strip()
    assert got < 500, shown
    if case.expect == LOGIN:
        assert got == 302 and where.startswith("/accounts/login/?next="), shown
    elif case.expect == ADMIN_LOGIN:
        assert got == 302 and where.startswith("/admin/login/?next="), shown
    elif case.expect == STAFF_OK:
        assert not where.startswith("/admin/login/"), shown
    else:
        assert got == case.expect, shown


def _changes_check(case: Case, world: World, before: dict, after: dict) -> None:
    """Refusals (most cases) compare table digests; granted changes compare rows."""
    if case.effect is None:
        changed = sorted(table for table in after if after[table] != before.get(table))
        assert not changed, f"{case.id} changed {changed}"
        return
    changes = db_changes(before, after)
    assert changes, f"{case.id} should have {case.effect.name}, but nothing changed"
    extra = set(changes) - case.effect.tables
    assert not extra, f"{case.id} changed {extra} besides {case.effect.name}"
    case.effect.check(world, changes)


def _run(case: Case, world: World, path: str) -> None:
    """The request as a browser (or program) would send it: with the CSRF token that
    the page's form carries (pages), or the token header (API)."""
    client = _client(case, world)
    body = _body(case, world)
    if not case.api and case.method == "POST":
        body = {**(body or {}), "csrfmiddlewaretoken": _csrf_cookie(client)}
    snapshot = db_snapshot if case.effect is not None else db_fingerprint
    before = snapshot()
    response = _send(client, case, path, body)
    _status_check(case, response, path)
    _changes_check(case, world, before, snapshot())


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_route(case: Case, world: World):
    path = case.path.format(**world.ids)
    match = resolve(path.split("?")[0])
    assert (match.view_name if match.url_name else match.route) == case.route, match
    _run(case, world, path)


@pytest.mark.parametrize("case", ADMIN_CASES, ids=[case.id for case in ADMIN_CASES])
def test_admin_route(case: Case, world: World):
    path = _admin_path(case.path, world)
    if case.method == "POST":
        # Credentials of the persona (or none), as if someone tried the admin's forms.
        data = {"username": USERNAMES.get(case.persona, "sam"), "password": PASSWORD}
        case = Case(**{**case.__dict__, "data": data})
    _run(case, world, path)


# --------------------------------------------------------------------------- completeness


# Routes that exist only when a setting turns them on, never in production.
OPTIONAL_ROUTES = {"api:bench-floor": "bench/http_bench.py's baseline, BENCH_FLOOR_VIEW=1 only"}


def test_every_route_is_classified():
    """A route without an entry here fails the build: decide who may use it first."""
    served = {route.key for route in routes_all()}
    classified = {case.route for case in CASES} | {case.route for case in ADMIN_CASES}
    missing = served - classified - set(OPTIONAL_ROUTES)
    assert not missing, f"routes with no authorization entry: {sorted(missing)}"
    stale = classified - served
    assert not stale, f"entries for routes the site no longer serves: {sorted(stale)}"


def test_every_persona_is_tried_on_every_route_outside_the_admin():
    personas: dict[str, set[str]] = {}
    for case in CASES:
        personas.setdefault(case.route, set()).add(case.persona)
    thin = {
        route: sorted(set(PERSONAS) - got)
        for route, got in personas.items()
        if got != set(PERSONAS)
    }
    assert not thin, thin


# --------------------------------------------------------------------------- CSRF

# Forms that take no CSRF token, on purpose.
CSRF_EXEMPT = {
    "unsubscribe": "RFC 8058 one-click POST from a mail program; the signed link is the "
    "credential and can only switch off its own account's game e-mails",
}


def _csrf_form_cases() -> list[Case]:
    """One POST per form of the site (per label: each table, each variant), preferring a
    request that would change something, then one a visitor may send."""
    picked: dict[str, Case] = {}
    for case in CASES:
        if case.api or case.method != "POST" or case.expect in (405, LOGIN):
            continue
        best = picked.get(case.label)
        rank = (case.effect is not None, case.persona == "anonymous")
        if best is None or rank > (best.effect is not None, best.persona == "anonymous"):
            picked[case.label] = case
    admin_login = Case(
        "admin:login",
        "admin-login",
        "anonymous",
        "POST",
        302,  # sent to the site's log-in: the admin checks no password itself
        "/admin/login/",
        data={"username": "stella", "password": PASSWORD},
    )
    return [*picked.values(), admin_login]


CSRF_FORM_CASES = _csrf_form_cases()


@pytest.mark.parametrize("case", CSRF_FORM_CASES, ids=[case.id for case in CSRF_FORM_CASES])
def test_form_without_csrf_token_is_refused(case: Case, world: World):
    """A cross-site form carries the victim's cookies but not the token: 403, nothing
    changes.  The same request with the token then gets the matrix's answer, so the
    403 came from the missing token alone."""
    path = case.path.format(**world.ids)
    client = _client(case, world)
    _csrf_cookie(client)
    before = db_fingerprint()
    response = _send(client, case, path, _body(case, world) or {})
    if case.route in CSRF_EXEMPT:
        assert response.status_code == case.expect, case.id
        return
    assert response.status_code == 403, f"{case.id}: {response.status_code}"
    assert db_fingerprint() == before, f"{case.id} changed something without a CSRF token"
    _run(case, world, path)


API_CSRF_CASES = [
    case
    for case in CASES
    if case.api
    and case.persona in ("seated", "other", "outsider", "staff")
    and case.effect is not None
    and case.route != "api:auth-token"  # a token's own log-in and log-out: below
]
API_CSRF_CASES = list({case.label + case.method: case for case in API_CSRF_CASES}.values())


@pytest.mark.parametrize("case", API_CSRF_CASES, ids=[f"{c.id}/session" for c in API_CSRF_CASES])
def test_api_with_a_session_needs_the_csrf_token(case: Case, world: World):
    """Browser sessions may use the API, with the CSRF token (X-CSRFToken); without it:
    403 and nothing changes.  Token clients never need one (the matrix sends none)."""
    path = case.path.format(**world.ids)
    client = Client(enforce_csrf_checks=True)
    client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions[case.persona]
    secret = _csrf_cookie(client)
    body = json.dumps(_body(case, world) or {})
    before = db_fingerprint()
    response = client.generic(case.method, path, body, content_type="application/json")
    assert response.status_code == 403, f"{case.id}: {response.status_code}"
    assert "CSRF" in response.json()["detail"]
    assert db_fingerprint() == before
    before = db_snapshot()
    response = client.generic(
        case.method, path, body, content_type="application/json", HTTP_X_CSRFTOKEN=secret
    )
    _status_check(case, response, path)
    _changes_check(case, world, before, db_snapshot())


def test_api_token_revocation_by_session_needs_the_csrf_token(world: World):
    """DELETE /api/v1/auth/token/ with a session: CSRF first (403), then "only a token
    can revoke itself" (400); no token is touched either way."""
    client = Client(enforce_csrf_checks=True)
    client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions["seated"]
    secret = _csrf_cookie(client)
    before = db_fingerprint()
    assert client.delete("/api/v1/auth/token/").status_code == 403
    response = client.delete("/api/v1/auth/token/", HTTP_X_CSRFTOKEN=secret)
    assert response.status_code == 400 and response.json()["code"] == "not_a_token"
    assert db_fingerprint() == before


def test_the_tokens_page_lists_only_your_own_tokens(world: World):
    """Another user's tokens (their names and shown prefixes) never appear."""
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions["outsider"]
    page = client.get("/accounts/profile/tokens/").content.decode()
    mine = ApiToken.objects.filter(user=world.user("outsider"))
    theirs = ApiToken.objects.exclude(user=world.user("outsider"))
    assert mine and all(token.prefix in page for token in mine)
    assert theirs and not any(token.prefix in page for token in theirs)
    assert "spare" not in page  # the name of Sam's second token
