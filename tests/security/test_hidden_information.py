"""Hidden information, every layer at once (docs/rules.md, "What each player may see";
docs/architecture.md, "Hidden information").

Nobody may learn, before it is revealed, the order of the deck or another player's
sealed Yacht Club choice: no page, htmx fragment, poll answer, API answer, e-mail, log
line or error message may carry it.  The per-layer tests (tests/games/api/, tests/games/pages/,
tests/games/async_play/, tests/games/records/, tests/games/ai/) check each layer on hand-made games; this
module plays seeded games of 3, 4 and 5 players with every option (each advanced card,
the memory aid on and off, move deadlines on; people and bots) through the real services,
pages, API, tasks and sweeps, and collects everything each person can see.

The check is the twin-game technique: the same table is played twice, in two
"universes" that are equal in everything the viewers may see and differ only in what
they may not:

- **deck twins**: the decks agree on their first ``k`` cards and differ after; every
  output must be byte-identical for every viewer until card ``k`` is turned up.  Some
  tables end (the fourth game-end card) before card ``k``: then every output, the
  replay, the record and the profiles too, stays identical to the very end;
- **sealed twins**: the decks are equal and Bob makes a different Yacht Club choice;
  everybody else's outputs, and every log line, must be identical until all choices
  are in;
- **order twins**: the decks are equal and Bob leaves different standing orders (how
  much to pay to avoid a misfortune, from the board and through the API); everybody
  else's outputs, and every log line, must be identical until those orders could act
  (the first misfortune turns up).

Each universe is played inside a savepoint that is rolled back afterwards, with the
database sequences set to the same values first, so both universes get the same ids;
only what differs between any two requests is normalised (times, CSRF tokens, request
and task ids).  Moves are chosen by seeded players from what they see; the bots are the
deterministic levels (easy, medium), so the two universes stay in step.

Log lines are read from the real handler that settings.LOGGING installs (its JSON
output), with the root logger at DEBUG, and from pytest's ``caplog`` (every record).
"""

from __future__ import annotations

import difflib
import io
import json
import logging
import random
import re
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from accounts.tokens.services import token_create
from games import deadlines, notifications
from games.engine import deck_cards
from games.engine.cards import GAME_END_CARDS, MISFORTUNES
from games.models import Game
from ops.logcontext import ContextFilter
from tests.conftest import _cache_clear_own_keys
from tests.factories import UserFactory
from tests.games.api.conftest import HIGH_RATES
from tests.games.factories import game_age
from tests.moves import view_choose as choose

pytestmark = [pytest.mark.django_db, pytest.mark.slow]  # twin games played through every layer

HX = {"HTTP_HX_REQUEST": "true"}
PEOPLE = ("dora", "bob", "carol")  # dora (staff) hosts at seat 0; bob at seat 1
SPECTATOR = "oscar"
SEQUENCE_START = 7_000_001
SECRET_WORDS = ("setup_deck", "deck_pos", "scenario_deck", "sealed_choices_all", '"sealed":[')


# --------------------------------------------------------------------------- tables


@dataclass
class Table:
    """One scenario: who sits where, the options, the decks of the two universes."""

    name: str
    seed: int
    seats: list[dict[str, Any]]  # after Dora's seat 0: {"user": ...} or {"ai": ...}
    advanced: list[str]
    memory_aid: bool
    deck_a: list[str]
    deck_b: list[str]
    first_player: int
    differ_at: int | None  # first deck position where the decks differ (None: equal)
    sealed_twins: bool = False
    order_twins: bool = False

    @property
    def people(self) -> list[str]:
        return ["dora", *(s["user"] for s in self.seats if "user" in s)]


def _deck_twins(rng: random.Random, advanced: list[str], *, end_first: bool) -> tuple:
    """Two decks equal up to position k and different from it on.  ``end_first``: the
    fourth game-end card comes before k, so the game ends and the decks' difference is
    never revealed."""
    deck = list(deck_cards(tuple(advanced)))
    while True:
        rng.shuffle(deck)
        ends = [i for i, card in enumerate(deck) if card in GAME_END_CARDS]
        fourth = ends[3]
        if end_first and fourth > 7:  # a short game: the fourth game-end card comes early
            continue
        if end_first:
            k = fourth + 1 + rng.randrange(0, max(1, len(deck) - fourth - 2))
        else:
            k = rng.randrange(2, min(fourth, 7) + 1) if fourth >= 2 else None
        if k is None or k >= len(deck) - 1:
            continue
        tail = deck[k:]
        other = tail[:]
        for _ in range(50):
            rng.shuffle(other)
            if other[0] != tail[0]:
                return deck, deck[:k] + other, k


def _tables() -> list[Table]:
    tables = []
    specs = [
        # name, seed, seats after Dora, advanced, memory aid, deck difference never seen
        ("3p-base-easy", 11, [{"user": "bob"}, {"ai": "easy"}], [], False, False),
        (
            "4p-all-advanced-aid",
            12,
            [{"user": "bob"}, {"user": "carol"}, {"ai": "medium"}],
            ["gambling", "excursions", "yacht"],
            True,
            False,
        ),
        (
            "5p-yacht-bots",
            13,
            [{"ai": "medium"}, {"user": "bob"}, {"ai": "easy"}, {"ai": "medium"}],
            ["yacht"],
            False,
            False,
        ),
        ("3p-to-the-end", 14, [{"user": "bob"}, {"ai": "easy"}], ["excursions"], True, True),
        (
            "4p-to-the-end-bots",
            15,
            [{"user": "bob"}, {"ai": "easy"}, {"ai": "easy"}],
            ["gambling", "yacht"],
            False,
            True,
        ),
    ]
    for name, seed, seats, advanced, aid, end_first in specs:
        rng = random.Random(seed)
        deck_a, deck_b, k = _deck_twins(rng, advanced, end_first=end_first)
        tables.append(
            Table(
                name, seed, seats, advanced, aid, deck_a, deck_b, rng.randrange(len(seats) + 1), k
            )
        )
    for name, seed, seats, aid in [
        ("3p-sealed", 21, [{"user": "bob"}, {"ai": "medium"}], True),
        (
            "5p-sealed",
            22,
            [{"user": "bob"}, {"user": "carol"}, {"ai": "easy"}, {"ai": "medium"}],
            False,
        ),
    ]:
        rng = random.Random(seed)
        deck = list(deck_cards(("yacht", "gambling")))
        deck.remove("yacht")
        rng.shuffle(deck)
        deck.insert(rng.randrange(0, 3), "yacht")
        tables.append(
            Table(name, seed, seats, ["gambling", "yacht"], aid, deck, deck, 0, None, True)
        )
    for name, seed, seats in [
        ("3p-orders", 31, [{"user": "bob"}, {"ai": "medium"}]),
        ("4p-orders", 32, [{"user": "bob"}, {"user": "carol"}, {"ai": "easy"}]),
    ]:
        rng = random.Random(seed)
        deck = list(deck_cards(()))
        rng.shuffle(deck)
        # The misfortunes come late: Bob's orders (about them) cannot act before.
        late = [card for card in deck if card in MISFORTUNES]
        deck = [card for card in deck if card not in MISFORTUNES]
        deck[4:4] = late
        tables.append(Table(name, seed, seats, [], False, deck, deck, 0, None, order_twins=True))
    return tables


TABLES = _tables()


# --------------------------------------------------------------------------- normalising


_NORMAL = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"'), "CSRF"),
    (re.compile(r'"X-CSRFToken": ?"[^"]+"'), "CSRF"),
    (re.compile(r"csrftoken=[^;\s]+"), "CSRF"),
    # A form's one-time value (the lobby's "Play now"): random per page drawn.
    (re.compile(r'name="once" value="[^"]+"'), 'name="once" value="ONCE"'),
    (re.compile(r"/accounts/unsubscribe/[^/\s\"'<>]+/"), "/accounts/unsubscribe/TOKEN/"),
    (re.compile(r"\d{4}-\d\d-\d\d[T ][0-9:.,]+(Z|[+-]\d\d:?\d\d)?"), "<time>"),
    (re.compile(r"\bt=\d+"), "t=T"),  # the board's change stamp (microseconds)
    # The lobby's stamp: a hash of its games' ids, versions, states and change times
    # (games.views._lobby_stamp), public all; the twins changed moments apart.
    (re.compile(r"\bstamp=[0-9a-f]{16}\b"), "stamp=S"),
    # The clock time a log entry or chat message shows (the twins moved moments apart).
    (re.compile(r'(data-local="time">)[^<]*(</time>)'), "\\1TIME\\2"),
    (re.compile(r'"request_id": "[^"]+"'), '"request_id": "R"'),
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "<uuid>"),
    (re.compile(r"succeeded in [0-9.e-]+s"), "succeeded in Ns"),
    (re.compile(r'"runtime": [0-9.e-]+'), '"runtime": N'),
    (re.compile(r"\b1\d{15}\b"), "<turn>"),  # a turn's key: its start in microseconds
    (re.compile(r'"(created_at|expiry|deadline_at|started_at|finished_at)": ?"[^"]*"'), '"\\1": T'),
    (
        re.compile(
            r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? \d{1,2}, \d{4}"
            r"(, \d{1,2}(:\d\d)? ?(a\.m\.|p\.m\.|noon|midnight)?)?"
        ),
        "<date>",
    ),
    (
        re.compile(
            r"\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}(, \d\d:\d\d)?"
        ),
        "<date>",
    ),
    (re.compile(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) <date>"), "<date>"),
    (
        re.compile(
            r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct"
            r"|Nov|Dec)( \d{4})?, \d\d:\d\d( UTC)?"
        ),
        "<date>",
    ),
    (re.compile(r"\b\d+ (days?|hours?|minutes?)\b"), "N units"),  # "due in 23 hours, 59 ..."
]


def normalise(text: str) -> str:
    for pattern, replacement in _NORMAL:
        text = pattern.sub(replacement, text)
    return text


# --------------------------------------------------------------------------- a universe


@dataclass
class Universe:
    """One of the twins, played in its own savepoint."""

    table: Table
    deck: list[str]
    sealed_card: str  # "max" or "min": Bob's Yacht Club choice
    game_id: int = 0
    users: dict[str, User] = field(default_factory=dict)
    api: dict[str, APIClient] = field(default_factory=dict)
    web: dict[str, Client] = field(default_factory=dict)
    checkpoints: list[dict[str, str]] = field(default_factory=list)
    log_buffer: io.StringIO = field(default_factory=io.StringIO)
    caplog_seen: int = 0
    stopped: str = ""
    sensitive_seen: bool = False
    snapshots: int = 0


def _sequences_restart() -> None:
    """Every id sequence starts again from the same number: both universes get the same
    ids for the same rows.  (SQLite rolls its counters back with the savepoint.)"""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT schemaname, sequencename FROM pg_sequences WHERE schemaname = current_schema()"
        )
        for schema, name in cursor.fetchall():
            cursor.execute("SELECT setval(%s, %s, false)", [f'"{schema}"."{name}"', SEQUENCE_START])


def _personas(u: Universe) -> None:
    for name in (*PEOPLE, SPECTATOR):
        user = UserFactory(username=name, display_name=name.capitalize(), is_staff=name == "dora")
        if name == "carol":  # carol reads the daily digest instead of turn e-mails
            user.turn_emails = User.TurnEmails.DIGEST
            user.save(update_fields=["turn_emails"])
        u.users[name] = user
        _, secret = token_create(user=user, name="test")
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
        u.api[name] = api
        web = Client()
        web.force_login(user)
        u.web[name] = web
    u.web["anonymous"] = Client()


def _record(u: Universe, outputs: dict[str, str], key: str, response: Any) -> Any:
    body = response.content.decode() if hasattr(response, "content") else ""
    outputs[key] = f"{response.status_code} {normalise(body)}"
    return response


def _game(u: Universe) -> Game:
    return Game.objects.get(pk=u.game_id)


def _viewers(u: Universe) -> list[str]:
    return [*u.table.people, SPECTATOR, "anonymous"]


def _snapshot(u: Universe, label: str, *, full: bool, caplog: Any) -> dict[str, str]:
    """Everything each viewer can fetch about the table now, the e-mails sent and the
    log lines written since the last snapshot."""
    g = u.game_id
    out: dict[str, str] = {}
    version = _game(u).version
    viewers = _viewers(u)
    u.snapshots += 1
    for name in viewers:
        web = u.web[name]
        # Between the full snapshots, each viewer's poll in turn (pages cost the most).
        if full or name == viewers[u.snapshots % len(viewers)]:
            _record(
                u, out, f"{name} poll", web.get(f"/games/{g}/board/?version={version - 1}", **HX)
            )
        if name != "anonymous":
            api = u.api[name]
            _record(u, out, f"{name} api view", api.get(f"/api/v1/games/{g}/"))
            _record(u, out, f"{name} api moves", api.get(f"/api/v1/games/{g}/moves/?since=0"))
            _record(u, out, f"{name} api orders", api.get(f"/api/v1/games/{g}/orders/"))
        if not full:
            continue
        _record(u, out, f"{name} board", web.get(f"/games/{g}/"))
        _record(u, out, f"{name} board hx", web.get(f"/games/{g}/", **HX))
        _record(
            u, out, f"{name} poll unchanged", web.get(f"/games/{g}/board/?version={version}", **HX)
        )
        _record(
            u,
            out,
            f"{name} preview",
            web.get(f"/games/{g}/bid-preview/?cards=1000&cards=25000", **HX),
        )
        _record(
            u,
            out,
            f"{name} order preview",
            web.get(f"/games/{g}/order-preview/?maximum=9000", **HX),
        )
        _record(u, out, f"{name} lobby", web.get("/"))
        _record(u, out, f"{name} replay", web.get(f"/games/{g}/replay/"))
        _record(u, out, f"{name} replay 1", web.get(f"/games/{g}/replay/?move=1"))
        _record(u, out, f"{name} record", web.get(f"/games/{g}/record.json"))
        _record(u, out, f"{name} leaderboard", web.get("/leaderboard/"))
        if name == "anonymous":
            continue
        _record(u, out, f"{name} history", web.get("/games/history/?show=all"))
        _record(u, out, f"{name} profile", web.get(f"/players/{name}/"))
        _record(u, out, f"{name} own profile", web.get("/accounts/profile/"))
        api = u.api[name]
        _record(u, out, f"{name} api list", api.get("/api/v1/games/?mine=true"))
        _record(u, out, f"{name} api list all", api.get("/api/v1/games/"))
        _record(
            u,
            out,
            f"{name} api moves since",
            api.get(f"/api/v1/games/{g}/moves/?since={max(0, version - 3)}"),
        )
        _record(u, out, f"{name} api user", api.get(f"/api/v1/users/{name}/"))
    for i, message in enumerate(mail.outbox):
        html = "".join(content for content, _ in getattr(message, "alternatives", []))
        text = "\n".join(
            [
                f"to={message.to} from={message.from_email}",
                f"subject={message.subject}",
                f"headers={json.dumps(message.extra_headers, sort_keys=True)}",
                message.body,
                html,
            ]
        )
        out[f"mail {i} to {','.join(message.to)}"] = normalise(text)
    mail.outbox.clear()
    lines = [
        line for line in u.log_buffer.getvalue().splitlines() if not _log_noise(json.loads(line))
    ]
    u.log_buffer.seek(0)
    u.log_buffer.truncate()
    out["log json"] = normalise("\n".join(lines))
    records = [r for r in caplog.records[u.caplog_seen :] if not _log_noise({"logger": r.name})]
    u.caplog_seen = len(caplog.records)
    out["log records"] = normalise(
        "\n".join(f"{r.levelname} {r.name} {r.getMessage()} {r.exc_text or ''}" for r in records)
    )
    for key, text in out.items():
        for word in SECRET_WORDS:
            assert word not in text, (u.table.name, label, key, word)
    _assert_no_deck_run(u, label, out)
    _checkpoint(u, label, out)
    return out


# Libraries' one-time start-up chatter and the test's own factories: lines that come
# once per process, not once per game.
LOG_NOISE = ("celery.utils.functional", "redis.connection", "factory.", "asyncio", "urllib3")


def _log_noise(line: dict[str, Any]) -> bool:
    return str(line.get("logger", "")).startswith(LOG_NOISE)


def _checkpoint(u: Universe, label: str, out: dict[str, str]) -> None:
    u.checkpoints.append({f"{label} | {k}": v for k, v in out.items()})


def _assert_no_deck_run(u: Universe, label: str, out: dict[str, str]) -> None:
    """The next unrevealed cards, in order, appear nowhere (codes or names)."""
    state = _game(u).engine_state()  # the test reads the state; no output does
    rest = list(state.setup_deck[state.deck_pos :])
    if len(rest) < 3 or len(set(rest[:3])) < 3:
        return
    from games.engine import card_name

    joiner = r"[\s\"',\]\[]*"
    patterns = [
        re.compile(joiner.join(re.escape(c) for c in rest[:3])),
        re.compile(joiner.join(re.escape(card_name(c)) for c in rest[:3])),
    ]
    for key, text in out.items():
        for pattern in patterns:
            assert not pattern.search(text), (u.table.name, label, key, pattern.pattern)


# --------------------------------------------------------------------------- playing


def _age(u: Universe, hours: float) -> None:
    """The current turn started ``hours`` earlier (the test's clock for deadlines)."""
    game_age(_game(u), hours)


def _committing(django_capture_on_commit_callbacks: Any):
    return django_capture_on_commit_callbacks(execute=True)


def _differs_now(u: Universe) -> bool:
    """Has the universe reached what the twins may show differently?"""
    state = _game(u).engine_state()
    t = u.table
    if t.sealed_twins:  # the choices are revealed when the sealed phase ends
        yacht_up = any(e[0] == "reveal" and e[2] == "yacht" for e in state.events)
        return yacht_up and state.phase != "sealed"
    if t.order_twins:  # Bob's orders may act from the first misfortune on
        return any(e[0] == "reveal" and e[2] in MISFORTUNES for e in state.events)
    return t.differ_at is not None and state.deck_pos > t.differ_at


def _move_of(u: Universe, name: str, rng: random.Random) -> dict[str, Any]:
    view = u.api[name].get(f"/api/v1/games/{u.game_id}/").json()
    legal = view["legal_actions"]
    if u.table.sealed_twins and name == "bob" and "sealed_bid" in legal["types"]:
        cards = legal["sealed_choices"]
        return {"type": "sealed_bid", "card": max(cards) if u.sealed_card == "max" else min(cards)}
    return {**choose(view, rng, pass_chance=0.5), "version": view["version"]}


def _play(u: Universe, capture: Any, caplog: Any, *, steps: int, full_every: int) -> None:
    t = u.table
    rng = random.Random(t.seed)
    _personas(u)
    with capture():
        made = u.api["dora"].post(
            "/api/v1/games/",
            {
                "players": len(t.seats) + 1,
                "seats": t.seats,
                "advanced": t.advanced,
                "move_deadline_hours": 24,
                "memory_aid": t.memory_aid,
                "deck": u.deck,
                "first_player": t.first_player,
            },
            format="json",
        )
    assert made.status_code == 201, made.content
    u.game_id = made.json()["id"]
    created = {}
    _record(u, created, "dora create", made)
    for name in t.people[1:]:
        with capture():
            if name == "bob":  # the page's form for Bob, the API for the others
                response = u.web[name].post(f"/games/{u.game_id}/invitation/", {"accept": "yes"})
            else:
                response = u.api[name].post(f"/api/v1/games/{u.game_id}/join/")
        _record(u, created, f"{name} join", response)
    assert _game(u).status == Game.Status.ACTIVE
    if t.order_twins:  # Bob's standing orders, from the board and from the API
        most = 3000 if u.sealed_card == "max" else 0
        with capture():
            response = u.web["bob"].post(
                f"/games/{u.game_id}/orders/",
                {"what": "defaults", "misfortune_max": str(most)},
                **HX,
            )
            assert response.status_code == 200, response.content
            _record(u, created, "bob orders page", response)
            response = u.api["bob"].put(
                f"/api/v1/games/{u.game_id}/orders/",
                {"defaults": {"misfortune_max": most, "luxury_below": None}},
                format="json",
            )
            assert response.status_code == 200, response.content
            _record(u, created, "bob orders api", response)
    _checkpoint(u, "create", created)
    _snapshot(u, "start", full=True, caplog=caplog)

    for step in range(steps):
        game = _game(u)
        if game.status != Game.Status.ACTIVE:
            break
        _cache_clear_own_keys()  # nobody has the board open: turn e-mails go out
        out: dict[str, str] = {}
        spectator = u.api[SPECTATOR].get(f"/api/v1/games/{u.game_id}/").json()
        movers = [n for n in t.people if _seat_of(t, n) in (spectator.get("to_act") or [])]
        if spectator.get("phase") == "sealed":  # Bob chooses first: then the others wait
            movers.sort(key=lambda n: n != "bob")
        with capture():
            if step == 2 and game.deadline_at is not None:
                _age(u, 20)  # 80% of the move time: the reminder
                deadlines.reminders_sweep(now=timezone.now())
                notifications.digests_sweep(now=timezone.now().replace(hour=23))
            elif step == 4 and game.deadline_at is not None:
                _age(u, 25)  # past the deadline: a bot moves for the absent player
                deadlines.deadlines_sweep(now=timezone.now())
                notifications.outbox_sweep(now=timezone.now() + timedelta(hours=1))
            elif movers:
                name = movers[0]
                action = _move_of(u, name, rng)
                if "version" not in action:
                    action["version"] = game.version
                # A stale and a bad request first: refused, nothing changes.
                _record(
                    u,
                    out,
                    f"{name} stale",
                    u.api[name].post(
                        f"/api/v1/games/{u.game_id}/moves/",
                        {**action, "version": game.version + 5},
                        format="json",
                    ),
                )
                _record(
                    u,
                    out,
                    f"{name} bad bid page",
                    u.web[name].post(
                        f"/games/{u.game_id}/act/",
                        {"type": "bid", "cards": ["25000", "1000"], "version": game.version - 1},
                        **HX,
                    ),
                )
                if step % 2:
                    form = {"type": action["type"], "version": action["version"]}
                    if "cards" in action:
                        form["cards"] = [str(c) for c in action["cards"]]
                    if "card" in action:
                        form["card"] = str(action["card"])
                    response = u.web[name].post(f"/games/{u.game_id}/act/", form, **HX)
                else:
                    response = u.api[name].post(
                        f"/api/v1/games/{u.game_id}/moves/", action, format="json"
                    )
                assert response.status_code in (200, 201), response.content
                if not (t.sealed_twins and name == "bob"):
                    _record(u, out, f"{name} move", response)
            else:
                break  # only bots to act, and they did not: nothing to drive
        if _differs_now(u):
            u.stopped = f"differs after step {step}"
            return
        _checkpoint(u, f"step {step} moves", out)
        _snapshot(u, f"step {step}", full=step % full_every == 0 or _sensitive(u), caplog=caplog)
    final = _game(u)
    if final.status == Game.Status.FINISHED:
        _snapshot(u, "finished", full=True, caplog=caplog)
        u.stopped = "finished"


def _sensitive(u: Universe) -> bool:
    """The moment a leak would matter most, once per universe: the next card to turn
    up is the first that differs, or the Yacht Club choices are being made."""
    state = _game(u).engine_state()
    t = u.table
    next_card = state.setup_deck[state.deck_pos] if state.deck_pos < len(state.setup_deck) else ""
    now = (
        (t.differ_at is not None and state.deck_pos == t.differ_at)
        or (t.sealed_twins and state.phase == "sealed" and state.sealed[1] > 0)  # Bob chose
        or (t.order_twins and next_card in MISFORTUNES)  # Bob's orders act on the next card
    )
    if now and not u.sensitive_seen:
        u.sensitive_seen = True
        return True
    return False


def _seat_of(t: Table, name: str) -> int:
    if name == "dora":
        return 0
    return 1 + next(i for i, s in enumerate(t.seats) if s.get("user") == name)


# --------------------------------------------------------------------------- the test


@pytest.fixture
def real_log_stream():
    """Point the real LOGGING handler at a buffer of the universe's choosing, with the
    root logger at DEBUG (every line of every logger)."""
    [handler] = [
        h
        for h in logging.getLogger().handlers
        if any(isinstance(f, ContextFilter) for f in h.filters)
    ]
    root = logging.getLogger()
    level = root.level
    old = handler.stream
    root.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        handler.setStream(old)
        root.setLevel(level)


def _universe(table: Table, twin: str, handler, caplog, capture) -> Universe:
    u = Universe(
        table=table,
        deck=table.deck_a if twin == "a" else table.deck_b,
        sealed_card="max" if twin == "a" else "min",
    )
    handler.setStream(u.log_buffer)
    u.caplog_seen = len(caplog.records)
    mail.outbox.clear()
    sid = transaction.savepoint()
    try:
        _sequences_restart()
        _cache_clear_own_keys()
        _play(u, capture, caplog, steps=24, full_every=12)
    finally:
        transaction.savepoint_rollback(sid)
        _cache_clear_own_keys()
    return u


def _viewer_of(key: str) -> str:
    return key.split(" | ", 1)[1].split(" ", 1)[0]


def _bobs_own(key: str) -> bool:
    """An output only Bob gets: his pages and answers, the e-mails sent to him (keyed
    ``mail N to bob@example.com``)."""
    return _viewer_of(key) == "bob" or " to bob@" in key


@pytest.mark.parametrize("table", TABLES, ids=[t.name for t in TABLES])
def test_twins_look_the_same_to_everybody_until_the_difference_is_revealed(
    table, settings, caplog, real_log_stream, django_capture_on_commit_callbacks
):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": dict(HIGH_RATES),
    }
    caplog.set_level(logging.DEBUG)

    def capture():
        return django_capture_on_commit_callbacks(execute=True)

    a = _universe(table, "a", real_log_stream, caplog, capture)
    b = _universe(table, "b", real_log_stream, caplog, capture)
    assert a.stopped == b.stopped, (a.stopped, b.stopped)
    assert len(a.checkpoints) == len(b.checkpoints)
    compared = 0
    for one, other in zip(a.checkpoints, b.checkpoints, strict=True):
        if table.sealed_twins or table.order_twins:
            # Bob sees his own choice or orders (his pages, his e-mails, which list his
            # orders): everybody else, and the logs, not.
            one = {k: v for k, v in one.items() if not _bobs_own(k)}
            other = {k: v for k, v in other.items() if not _bobs_own(k)}
        assert one.keys() == other.keys()
        for key in one:
            if one[key] != other[key]:
                diff = difflib.unified_diff(
                    one[key].splitlines(), other[key].splitlines(), "a", "b", lineterm="", n=1
                )
                pytest.fail(f"{table.name}: {key} differs:\n" + "\n".join(list(diff)[:40]))
            compared += 1
    # The test saw something: a real stretch of play, e-mails and log lines.
    assert len(a.checkpoints) >= 4, a.stopped
    # Each kind of twin got as far as it should: to the end, or to the difference.
    ended_first = table.differ_at is not None and a.stopped == "finished"
    assert a.stopped.startswith("differs") or ended_first, a.stopped
    assert a.sensitive_seen or ended_first
    assert compared > 100
