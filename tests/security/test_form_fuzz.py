"""Bad input everywhere (issue #7): every HTML form, every query parameter a page reads,
every id in a URL, and hostile request bodies for the API.

Each form is fuzzed with hypothesis: broken, huge (100k characters), wrong-typed and
hostile values (NUL bytes, invalid UTF-8 and lone surrogates, right-to-left and
zero-width characters, emoji, HTML/JS, SQL fragments, overflowing numbers), fields left
out, unknown fields and repeated keys, sent as a raw ``application/x-www-form-urlencoded``
body (so nothing in the test client cleans them up first).  For every answer:

- never a 5xx, and the hostile markup submitted never comes back unescaped;
- refused: a clear error on the page (a form error, the board's or the message list's
  error) and nothing stored changed (users, e-mail addresses, tables, seats, moves,
  notifications, tokens, stats, sent e-mails);
- accepted: what is stored is what was sent, and shown escaped.

Each example runs in a savepoint rolled back at its end, so examples never see each
other's changes.  The schema-driven fuzzing of the API is in tests/games/api/test_schema.py;
here are the bodies a schema fuzzer does not send (huge, deeply nested, not UTF-8, NaN,
wrong content types).
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote_plus

import pytest
from allauth.account.models import EmailAddress
from django import forms
from django.core import mail
from django.db import transaction
from django.http import QueryDict
from django.test import Client
from django.utils.html import escape
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from accounts.models import PlayerResult, PlayerStats, User
from accounts.tokens.models import ApiToken
from accounts.tokens.services import TOKEN_DAYS_CHOICES, token_create
from games import services
from games.engine import ADVANCED_CARDS, MONEY
from games.forms import ACTION_TYPES, BOT_LEVELS
from games.models import Game, Move, Notification, Seat
from tests.factories import PASSWORD, UserFactory
from tests.games.pages.conftest import table_make
from tests.games.records.conftest import played_game

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=30,
    deadline=None,
    database=None,  # no .hypothesis/ shared between the engineers of one checkout
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,  # state is per example: a rolled-back savepoint
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
FEW = settings(FUZZ, max_examples=12)

FORM = "application/x-www-form-urlencoded"
STRONG = "Plum-Orchard-Seven-41"  # passes every password validator

# --------------------------------------------------------------------------- values

MARKUP = ('<script>alert("x")</script>', '"><img src=x onerror=alert(1)>')
# What must never come back raw in any page: the submitted markup, unescaped.
RAW_MARKUP = ("<script>alert(", "<img src=x")
HOSTILE = [
    *MARKUP,
    "",
    " ",
    "\x00",
    "alice\x00",
    "' OR 1=1 --",
    "1; DROP TABLE games_game; --",
    "\u202egnp.exe",  # right-to-left override
    "zero\u200bwidth",
    "\ufeff",
    "👩‍👩‍👧‍👦🎩",
    "Ωmega ǅ ß ﬃ",
    "-1",
    "0",
    "1",
    "99999999999999999999",
    "-99999999999999999999",
    "1e400",
    "3.5",
    "NaN",
    "inf",
    "²",  # str.isdigit() says yes, int() says no
    "١٢",  # Arabic-Indic digits
    "１",  # full-width digit
    "true",
    "null",
    "[]",
    '{"a": 1}',
    "{{ 7|add:1 }}",
    "\r\nX-Injected: 1",
    "%00",
    "../../etc/passwd",
    "X" * 100_000,
    "é" * 50_000,
]
BAD_BYTES = [b"\xff\xfe", b"\xed\xa0\x80", b"\xc0\xaf", b"ab\x00\xff", b"\x80" * 10]

value = st.one_of(
    st.sampled_from(HOSTILE),
    st.sampled_from(BAD_BYTES),
    st.text(max_size=30),
    st.characters(categories=["Cs"]),  # a lone surrogate: invalid UTF-8 on the wire
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats().map(str),
)
EXTRA_KEYS = ["id", "pk", "user", "is_staff", "status", "version[]", "\x00", "<b>x</b>", "seat"]


def field(valid: list[str]) -> st.SearchStrategy[list[Any]]:
    """A field's values in the body: left out, one value, or the key repeated.  Valid
    values are mixed in so the fuzzer also reaches the checks after the first."""
    one = st.one_of(st.sampled_from(valid), value) if valid else value
    return st.one_of(st.just([]), one.map(lambda v: [v]), st.lists(one, min_size=2, max_size=3))


@st.composite
def body(draw, fields: dict[str, list[str]]) -> list[tuple[Any, Any]]:
    pairs = [(name, v) for name, valid in fields.items() for v in draw(field(valid))]
    extra_key = st.one_of(st.sampled_from(EXTRA_KEYS), st.text(min_size=1, max_size=8))
    pairs += draw(st.lists(st.tuples(extra_key, value), max_size=2))
    return draw(st.permutations(pairs)) if draw(st.booleans()) else pairs


def _bytes(v: Any) -> bytes:
    return v if isinstance(v, bytes) else str(v).encode("utf-8", "surrogatepass")


def encode(pairs: list[tuple[Any, Any]]) -> str:
    return "&".join(f"{quote_plus(_bytes(k))}={quote_plus(_bytes(v))}" for k, v in pairs)


def seen(pairs: list[tuple[Any, Any]]) -> QueryDict:
    """The body as Django reads it (repeated keys: ``get`` is the last value)."""
    return QueryDict(encode(pairs))


# --------------------------------------------------------------------------- oracle


def world() -> dict[str, Any]:
    """Everything a form could change, to prove a refused one changed nothing."""

    def rows(model, exclude=()):
        return [
            {k: v for k, v in row.items() if k not in exclude}
            for row in model.objects.order_by("pk").values()
        ]

    return {
        "users": rows(User),
        "emails": rows(EmailAddress),
        "games": rows(Game),
        "seats": rows(Seat),
        "moves": rows(Move),
        "notifications": rows(Notification),
        "tokens": rows(ApiToken, exclude=("last_used_at",)),  # the API stamps each use
        "stats": rows(PlayerStats),
        "results": rows(PlayerResult),
        "outbox": [(m.subject, m.to) for m in mail.outbox],
    }


@contextmanager
def rolled_back():
    """One example in a savepoint that is rolled back whatever happens."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


ERROR_MARKERS = (
    'class="errorlist',
    "flash--error",
    "message--error",
    "notice--error",
    "field__errors",
)


def shows_error(html: str) -> bool:
    return any(marker in html for marker in ERROR_MARKERS)


def send(client: Client, method: str, url: str, pairs, *, follow: bool = False):
    """Send ``pairs`` as a raw urlencoded query or body; check the answer is no 5xx and
    echoes no markup unescaped.  Returns the response and its text."""
    data = encode(pairs)
    if method == "GET":
        response = client.get(url, QUERY_STRING=data, follow=follow)
    else:
        assert method == "POST"
        response = client.post(url, data, content_type=FORM, follow=follow)
    assert response.status_code < 500, (url, response.status_code)
    text = response.content.decode("utf-8", "replace")
    for raw in RAW_MARKUP:
        assert raw not in text, f"unescaped markup in the answer of {url}"
    return response, text


def accepted(response, text: str) -> bool:
    """Accepted: a redirect, or a page without errors.  Refused: a page showing one."""
    if 300 <= response.status_code < 400:
        return True
    if shows_error(text):
        assert response.status_code in (200, 400), response.status_code
        return False
    assert response.status_code == 200, (response.status_code, text[:300])
    return True


def refused_changes_nothing(before, after, response, text):
    """The common oracle: returns True when the form accepted the input (the caller
    checks what was stored); a refusal must have shown an error and changed nothing."""
    if accepted(response, text):
        event("accepted")  # --hypothesis-show-statistics: both outcomes are reached
        return True
    event("refused")
    assert after == before, "a refused input changed what is stored"
    return False


def client_for(user: User | None) -> Client:
    client = Client()  # fresh per example: no message or session left from the last one
    if user is not None:
        client.force_login(user)
    return client


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(autouse=True)
def _no_rate_limits(settings):
    """The fuzzer sends hundreds of requests a minute: lift the limits (they are tested
    in test_rate_limits.py)."""
    settings.ACCOUNT_RATE_LIMITS = False
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "100000/min", "ip": "100000/min", "auth": "100000/min"},
    }


@pytest.fixture
def host(alice):
    alice.is_staff = True  # to fix the deck of her tables
    alice.save(update_fields=["is_staff"])
    return alice


@pytest.fixture
def table(host, bob, carol):
    """Alice (seat 0) is to bid on Luxury 3 against Bob and Carol."""
    return table_make(host, [bob, carol])


# --------------------------------------------------------------------------- accounts


@FUZZ
@given(pairs=body({"display_name": ["Alice", "  Padded  ", MARKUP[0] + "&\"'", "A" * 41]}))
@example(pairs=[("display_name", MARKUP[0] + "&\"'")])  # accepted, shown escaped
def test_profile_form(alice, pairs):
    with rolled_back():
        client, before = client_for(alice), world()
        response, text = send(client, "POST", "/accounts/profile/", pairs)
        if refused_changes_nothing(before, world(), response, text):
            name = seen(pairs).get("display_name").strip()
            assert User.objects.get(pk=alice.pk).display_name == name
            page = client.get("/accounts/profile/").content.decode()
            assert escape(name) in page


@FEW
@given(pairs=body({"turn_emails": [c for c, _ in User.TurnEmails.choices]}))
@example(pairs=[("turn_emails", "digest")])
def test_notification_settings_form(alice, pairs):
    with rolled_back():
        client, before = client_for(alice), world()
        response, text = send(
            client, "POST", "/accounts/profile/notifications/", pairs, follow=True
        )
        assert "message--error" in text or "message--success" in text
        if refused_changes_nothing(before, world(), response, text):
            stored = User.objects.get(pk=alice.pk).turn_emails
            assert stored == seen(pairs).get("turn_emails")


@FEW
@given(pairs=body({"push_on": list(User.PUSH_KINDS), "action": ["off-everywhere", "save"]}))
@example(pairs=[("push_on", "turn"), ("push_on", "digest")])  # the digest is never pushed
def test_push_settings_form(alice, pairs):
    with rolled_back():
        client = client_for(alice)
        response, text = send(
            client, "POST", "/accounts/profile/push/settings/", pairs, follow=True
        )
        assert "message--error" in text or "message--success" in text
        assert set(User.objects.get(pk=alice.pk).push_off) <= set(User.PUSH_KINDS)


@FUZZ
@given(pairs=body({"action": ["start", "end"], "days": ["1", "3", "30", " 2 "]}))
@example(pairs=[("action", "start"), ("days", "²")])  # "²".isdigit(), but int("²") fails
@example(pairs=[("action", "start"), ("days", "١٢")])  # Arabic-Indic 12: a number
@example(pairs=[("action", "start"), ("days", "3")])
def test_vacation_form(alice, pairs):
    with rolled_back():
        client, before = client_for(alice), world()
        response, text = send(client, "POST", "/accounts/profile/vacation/", pairs, follow=True)
        assert "message--error" in text or "message--success" in text
        if refused_changes_nothing(before, world(), response, text):
            data = seen(pairs)
            assert data.get("action") != "end"  # Alice is not on vacation
            user = User.objects.get(pk=alice.pk)
            assert user.vacation_days_used == int(data.get("days").strip())
            assert user.vacation_until is not None


@FUZZ
@given(pairs=body({"name": ["my bot", MARKUP[1]], "days": [str(d) for d in TOKEN_DAYS_CHOICES]}))
@example(pairs=[("name", MARKUP[1]), ("days", "30")])
def test_token_create_form(alice, pairs):
    with rolled_back():
        client, before = client_for(alice), world()
        response, text = send(client, "POST", "/accounts/profile/tokens/new/", pairs)
        if refused_changes_nothing(before, world(), response, text):
            data = seen(pairs)
            token = ApiToken.objects.get(user=alice)
            assert token.name == data.get("name").strip()
            lifetime = (token.expires_at - token.created_at).total_seconds()
            assert round(lifetime / 86400) == int(data.get("days"))
            assert escape(token.name) in text


@FEW
@given(token_id=st.one_of(st.sampled_from(["mine", "bobs"]), st.integers(0, 10**20).map(str)))
def test_token_revoke_any_id(alice, bob, token_id):
    with rolled_back():
        mine, _ = token_create(user=alice, name="mine")
        bobs, _ = token_create(user=bob, name="bobs")
        target = {"mine": mine.pk, "bobs": bobs.pk}.get(token_id, token_id)
        client, before = client_for(alice), world()
        response, text = send(
            client, "POST", f"/accounts/profile/tokens/{target}/revoke/", [], follow=True
        )
        if str(target) == str(mine.pk):  # a number drawn may be her token's own
            assert "message--success" in text and not ApiToken.objects.filter(pk=mine.pk).exists()
        else:
            assert "message--error" in text and world() == before


@FUZZ
@given(
    pairs=body(
        {
            "login": ["alice", "ALICE@example.com", "bob"],
            "password": [PASSWORD, "wrong"],
            "remember": ["on"],
        }
    )
)
@example(pairs=[("login", "alice"), ("password", PASSWORD)])
def test_log_in_form(alice, pairs):
    with rolled_back():
        client, before = client_for(None), world()
        response, text = send(client, "POST", "/accounts/login/", pairs)
        logged_in = client.session.get("_auth_user_id")
        if refused_changes_nothing(before, world(), response, text):
            data = seen(pairs)
            assert data.get("password") == PASSWORD
            assert data.get("login").strip().lower() in ("alice", "alice@example.com")
            assert int(logged_in) == alice.pk
        else:
            assert logged_in is None


@FUZZ
@given(
    pairs=body(
        {
            "email": ["dora@example.com", "alice@example.com"],
            "username": ["dora", "alice", "dora.b-2"],
            "password1": [STRONG, "short"],
            "password2": [STRONG],
        }
    )
)
@example(
    pairs=[
        ("email", "dora@example.com"),
        ("username", "dora"),
        ("password1", STRONG),
        ("password2", STRONG),
    ]
)
@example(
    pairs=[
        ("email", "Alice@Example.com "),
        ("username", "dora"),
        ("password1", STRONG),
        ("password2", STRONG),
    ]
)
def test_sign_up_form(alice, pairs):
    with rolled_back():
        client, before = client_for(None), world()
        sent = len(mail.outbox)  # e-mails of earlier examples stay in the outbox
        response, text = send(client, "POST", "/accounts/signup/", pairs)
        if refused_changes_nothing(before, world(), response, text):
            data = seen(pairs)
            email = data.get("email").strip().lower()
            if email == alice.email:
                # An address that has an account: the same answer as for a new one (no
                # account enumeration), no account made, and its owner is told by e-mail.
                assert world()["users"] == before["users"]
                (notice,) = mail.outbox[sent:]
                assert notice.to == [alice.email] and "already" in notice.subject.lower()
                return
            user = User.objects.exclude(pk=alice.pk).get()
            assert user.username == data.get("username").strip()
            assert user.email == email
            assert user.check_password(data.get("password1"))
            assert [m.to for m in mail.outbox[sent:]] == [[user.email]]  # the verification


@FUZZ
@given(pairs=body({"email": ["alice@example.com", "nobody@example.com"]}))
@example(pairs=[("email", "alice@example.com")])
def test_password_reset_form(alice, pairs):
    with rolled_back():
        client, before = client_for(None), world()
        sent = len(mail.outbox)
        response, text = send(client, "POST", "/accounts/password/reset/", pairs)
        if refused_changes_nothing(before, world(), response, text):
            # The same answer for any address (no account enumeration): one mail to the
            # address given (a reset link, or "there is no account" for a stranger).
            assert response["Location"] == "/accounts/password/reset/done/"
            email = seen(pairs).get("email").strip().lower()
            assert [[a.lower() for a in m.to] for m in mail.outbox[sent:]] == [[email]]


@FUZZ
@given(
    pairs=body(
        {"oldpassword": [PASSWORD, "wrong"], "password1": [STRONG, "123"], "password2": [STRONG]}
    )
)
@example(pairs=[("oldpassword", PASSWORD), ("password1", STRONG), ("password2", STRONG)])
def test_password_change_form(alice, pairs):
    with rolled_back():
        client, before = client_for(alice), world()
        response, text = send(client, "POST", "/accounts/password/change/", pairs)
        if refused_changes_nothing(before, world(), response, text):
            data = seen(pairs)
            assert data.get("oldpassword") == PASSWORD
            assert User.objects.get(pk=alice.pk).check_password(data.get("password1"))


@FUZZ
@given(pairs=body({"email": ["alice@new.example", "bob@example.com"], "action_add": [""]}))
@example(pairs=[("email", "alice@new.example"), ("action_add", "")])
def test_email_change_form(alice, bob, pairs):
    with rolled_back():
        client, before = client_for(alice), world()
        response, text = send(client, "POST", "/accounts/email/", pairs)
        if refused_changes_nothing(before, world(), response, text):
            data = seen(pairs)
            if world() != before:
                email = data.get("email").strip().lower()
                added = EmailAddress.objects.get(user=alice, email__iexact=email)
                assert not added.verified
                assert User.objects.get(pk=alice.pk).email == "alice@example.com"  # not yet


@FEW
@given(token=st.one_of(st.sampled_from(HOSTILE[:30]), st.text(min_size=1, max_size=60)))
def test_unsubscribe_with_any_token(alice, token):
    with rolled_back():
        client, before = client_for(None), world()
        url = f"/accounts/unsubscribe/{quote_plus(_bytes(token))}/"
        for method in ("GET", "POST"):
            response, text = send(client, method, url, [])
            assert response.status_code in (400, 404)
            if response.status_code == 400:
                assert "This unsubscribe link does not work" in text
        assert world() == before


# --------------------------------------------------------------------------- games

SEAT_KINDS = ["open", "invite", *(f"bot:{level}" for level in BOT_LEVELS)]


def _create_fields() -> dict[str, list[str]]:
    fields = {
        "players": ["3", "4", "5"],
        "your_seat": ["1", "2", "5"],
        "advanced": list(ADVANCED_CARDS),
        "move_deadline_hours": ["", "24", "168"],
        "memory_aid": ["on"],
    }
    for n in (1, 2, 3):
        fields[f"seat_{n}"] = SEAT_KINDS
        fields[f"invite_{n}"] = ["bob", "carol", "alice", "nobody", MARKUP[0]]
    return fields


@FUZZ
@given(pairs=body(_create_fields()))
@example(
    pairs=[
        ("players", "3"),
        ("your_seat", "2"),
        ("seat_1", "invite"),
        ("invite_1", "bob"),
        ("seat_3", "bot:easy"),
        ("advanced", "yacht"),
        ("memory_aid", "on"),
    ]
)
def test_create_table_form(alice, bob, carol, pairs):
    with rolled_back():
        client, before = client_for(alice), world()
        response, text = send(client, "POST", "/games/new/", pairs)
        if refused_changes_nothing(before, world(), response, text):
            data = seen(pairs)
            game = Game.objects.get()
            assert response["Location"] == f"/games/{game.pk}/"
            assert game.created_by_id == alice.pk and game.players == int(data.get("players"))
            assert set(game.advanced) == set(data.getlist("advanced"))
            assert game.memory_aid == ("memory_aid" in data)
            mine = Seat.objects.get(game=game, user=alice)
            assert mine.position == int(data.get("your_seat")) - 1


@FUZZ
@given(
    pairs=body(
        {
            "version": ["0", "1"],
            "type": list(ACTION_TYPES),
            "cards": [str(v) for v in MONEY[:4]],
            "card": ["lux3", "1000", "theft"],
        }
    )
)
@example(pairs=[("version", "0"), ("type", "bid"), ("cards", "1000"), ("cards", "2000")])
@example(pairs=[("version", "0"), ("type", "pass")])
def test_move_form_on_the_board(table, alice, pairs):
    with rolled_back():
        client, before = client_for(alice), world()
        response, text = send(client, "POST", f"/games/{table.pk}/act/", pairs)
        if refused_changes_nothing(before, world(), response, text):
            data = seen(pairs)
            move = Move.objects.get(game=table)
            assert forms.IntegerField().clean(data.get("version")) == 0 and move.number == 0
            assert move.action["type"] == data.get("type") and move.seat == 0
            if data.get("type") == "bid":
                assert move.action["cards"] == [int(c) for c in data.getlist("cards")]


@FEW
@given(pairs=body({"accept": ["yes", "no"]}))
def test_invitation_form(alice, bob, pairs):
    with rolled_back():
        game = services.game_create(
            creator=bob, players=3, seats=[{"user": "alice"}, {"open": True}]
        )
        client, before = client_for(alice), world()
        response, text = send(client, "POST", f"/games/{game.pk}/invitation/", pairs)
        if refused_changes_nothing(before, world(), response, text):
            answer = seen(pairs).get("accept")
            assert answer in ("yes", "no")
            seat = Seat.objects.filter(game=game, user=alice).first()
            assert (seat is not None and seat.accepted) if answer == "yes" else not seat


@FEW
@given(pairs=body({"position": ["0", "1", "2"]}))
@example(pairs=[("position", "²")])
def test_seat_to_bot_form(table, alice, pairs):
    with rolled_back():
        client, before = client_for(alice), world()
        response, text = send(client, "POST", f"/games/{table.pk}/seat-to-bot/", pairs, follow=True)
        assert "message--error" in text or "message--success" in text
        if refused_changes_nothing(before, world(), response, text):
            seat = Seat.objects.get(game=table, position=int(seen(pairs).get("position")))
            assert seat.is_bot


@FEW
@given(pairs=body({}), action=st.sampled_from(["join", "leave", "resign"]))
def test_table_buttons_ignore_any_body(table, alice, bob, dave_open, pairs, action):
    """Join, leave and resign read no field: junk in the body changes nothing about
    what they do (the service answers as for an empty body)."""
    with rolled_back():
        client = client_for(alice)
        target = dave_open if action in ("join", "leave") else table
        response, text = send(client, "POST", f"/games/{target.pk}/{action}/", pairs)
        assert response.status_code in (302, 400)
        if response.status_code == 400:
            assert shows_error(text)


@pytest.fixture
def dave_open(db):
    dave = UserFactory(username="dave", display_name="Dave")
    return services.game_create(creator=dave, players=3, seats=[{"open": True}, {"open": True}])


# --------------------------------------------------------------------------- GET pages


@FUZZ
@given(
    pairs=body(
        {
            "show": ["all", "finished", "won", "lost"],
            "opponent": ["bob", "nobody"],
            "page": ["1", "2"],
        }
    )
)
def test_history_filters(alice, bob, finished, pairs):
    with rolled_back():
        client, before = client_for(alice), world()
        response, text = send(client, "GET", "/games/history/", pairs)
        assert response.status_code in (200, 400)
        assert (response.status_code == 400) == shows_error(text)
        assert world() == before


@FUZZ
@given(pairs=body({"move": ["0", "1", "5", "-3", "100000"]}))
@example(pairs=[("move", "²")])
@example(pairs=[("move", "-²")])
@example(pairs=[("move", "--5")])
def test_replay_move_links(finished, pairs):
    with rolled_back():
        client, before = client_for(None), world()
        response, text = send(client, "GET", f"/games/{finished.pk}/replay/", pairs)
        assert response.status_code in (200, 400)
        assert (response.status_code == 400) == shows_error(text)
        assert world() == before


@FEW
@given(pairs=body({"cards": [str(v) for v in MONEY]}))
def test_bid_preview_cards(table, alice, pairs):
    with rolled_back():
        client, before = client_for(alice), world()
        response, text = send(client, "GET", f"/games/{table.pk}/bid-preview/", pairs)
        assert response.status_code == 200 and 'id="bid-preview"' in text
        assert world() == before


@FEW
@given(pairs=body({"version": ["0"], "t": ["0", "1"]}))
def test_board_poll_parameters(table, alice, pairs):
    with rolled_back():
        client, before = client_for(alice), world()
        response, _ = send(client, "GET", f"/games/{table.pk}/board/", pairs)
        assert response.status_code in (200, 204)
        assert world() == before


@FEW
@given(
    pairs=body({"page": ["1", "2", "0"], "status": ["open"], "mine": ["true"]}),
    url=st.sampled_from(["/", "/leaderboard/", "/accounts/profile/", "/accounts/profile/tokens/"]),
)
def test_pages_ignore_or_handle_any_query(alice, pairs, url):
    """Any query shows the page; the leaderboard answers a page number that is not one
    (``page``'s last value) 400 with a sentence, as the history does."""
    with rolled_back():
        client, before = client_for(alice), world()
        response, text = send(client, "GET", url, pairs)
        pages = [value for name, value in pairs if name == "page"]
        if response.status_code == 400:  # the leaderboard's refusal of a page number
            assert url == "/leaderboard/" and pages and pages[-1] not in ("1", "2"), pairs
            assert "The page must be a whole number." in text or "Pages are numbered" in text
        else:
            assert response.status_code == 200, (url, pairs)
        assert world() == before


@pytest.fixture
def finished(alice, bob):
    return played_game([alice, bob, "easy"], seed=11)


# --------------------------------------------------------------------------- URL paths

BAD_IDS = ["0", "-1", "99999999999999999999", "abc", "%00", "1.5", "%EF%BC%91", "1e3", "0x1", "%20"]
GAME_PATHS = [
    "/games/{}/",
    "/games/{}/board/",
    "/games/{}/bid-preview/",
    "/games/{}/replay/",
    "/games/{}/record.json",
    "/api/v1/games/{}/",
    "/api/v1/games/{}/moves/",
]
GAME_POSTS = [
    "/games/{}/act/",
    "/games/{}/join/",
    "/games/{}/leave/",
    "/games/{}/resign/",
    "/games/{}/invitation/",
    "/games/{}/seat-to-bot/",
    "/accounts/profile/tokens/{}/revoke/",
    "/api/v1/games/{}/join/",
    "/api/v1/games/{}/moves/",
]


def test_bad_ids_in_every_game_url_are_404(table, alice):
    """Ids that are not a table's (zero, negative, overflowing, not numbers, NUL) on
    every page and API URL: 404, never 500, nothing changed."""
    client, before = client_for(alice), world()
    for bad in BAD_IDS:
        for path in GAME_PATHS:
            response = client.get(path.format(bad))
            assert response.status_code == 404, (path, bad, response.status_code)
        for path in GAME_POSTS:
            if path.startswith("/api/"):
                body = {"version": 0, "type": "pass"}
                response = client.post(path.format(bad), body, content_type="application/json")
            else:
                response = client.post(path.format(bad), {"version": "0", "type": "pass"})
            if path.endswith("/revoke/") and bad.isdigit():  # any number: "no such token"
                assert response.status_code == 302, (path, bad)
            else:
                assert response.status_code == 404, (path, bad, response.status_code)
            if path.startswith("/api/"):
                assert set(response.json()) >= {"detail", "code"}
    assert world() == before


def test_bad_usernames_and_keys_in_urls(alice):
    client, before = client_for(alice), world()
    names = ["nobody", "<script>", "%00", "a" * 200, "..", "%E2%80%AE", "%F0%9F%8E%A9", "%FF"]
    for name in names:
        for path in ("/players/{}/", "/api/v1/users/{}/"):
            response = client.get(path.format(name))
            assert response.status_code == 404, (path, name, response.status_code)
            if not path.startswith("/api/"):  # JSON carries names raw; pages escape them
                assert "<script>" not in response.content.decode("utf-8", "replace")
    for key in ("0-0", "zz-set-password", "%00-x", "1-" + "a" * 300):
        response = client_for(None).get(f"/accounts/password/reset/key/{key}/", follow=True)
        assert response.status_code in (200, 404), (key, response.status_code)
        if response.status_code == 200:
            assert "This link does not work" in response.content.decode()
    assert world() == before


def test_wrong_methods_are_405(table, alice):
    client, before = client_for(alice), world()
    for path in (
        "/",
        "/games/new/",
        f"/games/{table.pk}/",
        f"/games/{table.pk}/act/",
        "/accounts/profile/",
        "/games/history/",
        "/leaderboard/",
    ):
        for method in ("PUT", "PATCH", "DELETE"):
            response = client.generic(method, path, "x=1", content_type=FORM)
            assert response.status_code == 405, (method, path, response.status_code)
    assert world() == before


def test_too_many_fields_and_too_big_bodies_are_refused(alice):
    client, before = client_for(alice), world()
    many = "&".join(f"f{n}=1" for n in range(1500)) + "&display_name=Many"
    assert client.post("/accounts/profile/", many, content_type=FORM).status_code == 400
    huge = "display_name=" + "x" * 3_000_000
    assert client.post("/accounts/profile/", huge, content_type=FORM).status_code in (400, 413)
    assert world() == before


# --------------------------------------------------------------------------- API bodies

DEEP = "[" * 100_000 + "]" * 100_000
HOSTILE_JSON: list[tuple[str, bytes]] = [
    ("huge", json.dumps({"players": 3, "pad": "x" * 3_000_000}).encode()),
    ("deep list", DEEP.encode()),
    ("deep object", ('{"a":' * 50_000 + "1" + "}" * 50_000).encode()),
    ("deep seats", ('{"players": 3, "seats": ' + DEEP + "}").encode()),
    ("not UTF-8", b'{"players": "\xff\xfe", "type": "\xc0\xaf"}'),
    ("lone surrogate", b'{"players": 3, "seats": [{"user": "\\ud800"}]}'),
    ("NaN", b'{"players": NaN, "type": "bid", "cards": [NaN], "version": NaN}'),
    ("Infinity", b'{"players": Infinity, "version": -Infinity}'),
    ("1e400", b'{"players": 1e400, "version": 1e400, "type": "bid", "cards": [1e400]}'),
    ("big int", b'{"players": 99999999999999999999, "version": 99999999999999999999}'),
    ("truncated", b'{"players": 3, "seats": [{"ai": "easy"'),
    ("empty", b""),
    ("null", b"null"),
    ("list", b"[1, 2, 3]"),
    ("string", b'"players"'),
    ("NUL", b'{"players": 3, "seats": [{"user": "bob\\u0000"}], "type": "\\u0000"}'),
    (
        "markup",
        json.dumps({"players": 3, "seats": [{"user": MARKUP[0]}], "type": MARKUP[1]}).encode(),
    ),
    ("SQL", json.dumps({"username": "' OR 1=1 --", "password": "' OR 1=1 --"}).encode()),
]
WRONG_TYPES = [
    "text/plain",
    FORM,
    "multipart/form-data; boundary=xyz",
    "application/xml",
    "application/json-patch+json",
    "",
]


@pytest.fixture
def api_targets(table, alice):
    _, secret = token_create(user=alice, name="fuzz")
    return secret, [
        "/api/v1/games/",
        f"/api/v1/games/{table.pk}/moves/",
        f"/api/v1/games/{table.pk}/join/",
        "/api/v1/auth/token/",
    ]


def _api_error(response) -> dict:
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    data = response.json()
    assert isinstance(data.get("detail"), str) and data["detail"] and data.get("code")
    for raw in RAW_MARKUP:
        assert raw not in data["detail"]
    return data


@pytest.mark.parametrize("name,payload", HOSTILE_JSON, ids=[n for n, _ in HOSTILE_JSON])
def test_hostile_json_bodies_get_400_in_the_api_format(api_targets, name, payload):
    secret, urls = api_targets
    client, before = Client(HTTP_AUTHORIZATION=f"Token {secret}"), world()
    for url in urls:
        response = client.post(url, payload, content_type="application/json")
        if url.endswith("/join/"):
            # join reads no body (it is not even parsed): Alice already sits there, so
            # it is answered as a join sent again, with her view
            assert response.status_code == 200, (url, response.status_code)
            assert response.json()["your_seat"] == 0
            continue
        if name == "huge":
            assert response.status_code in (400, 413), (url, response.status_code)
        else:
            assert response.status_code == 400, (url, name, response.status_code)
        _api_error(response)
    assert world() == before


@pytest.mark.parametrize("content_type", WRONG_TYPES)
def test_wrong_content_types_get_415(api_targets, content_type):
    secret, urls = api_targets
    client, before = Client(HTTP_AUTHORIZATION=f"Token {secret}"), world()
    for url in urls:
        if url.endswith("/join/"):
            continue
        response = client.generic("POST", url, b"players=3&type=pass", content_type=content_type)
        assert response.status_code == 415, (url, content_type, response.status_code)
        assert _api_error(response)["code"] == "unsupported_media_type"
    assert world() == before


# --------------------------------------------------------------------------- escaping

EVIL = '<script>alert("x")</script>&"\''  # 30 visible characters: a valid display name


def _shown_escaped(html: str, where: str) -> None:
    assert escape(EVIL) in html, f"{where}: the name is not shown"
    assert EVIL not in html and "<script>alert(" not in html, f"{where}: the name is raw"


def test_a_hostile_display_name_is_escaped_on_every_page_and_email(
    settings, alice, bob, django_capture_on_commit_callbacks
):
    settings.LEADERBOARD_MIN_GAMES = 1
    evil = UserFactory(username="evil", display_name=EVIL, is_staff=True)
    evil.full_clean()  # the validator accepts it: it is visible text
    services.game_create(creator=evil, players=3, seats=[{"open": True}, {"open": True}])
    active = table_make(evil, [alice, bob])  # Evil (seat 0) bids first
    with django_capture_on_commit_callbacks(execute=True):
        services.game_submit_action(
            game=active, user=evil, action={"type": "bid", "cards": [1000]}, expected_version=0
        )
    finished = played_game([evil, alice, "easy"], seed=5)

    viewer = client_for(alice)
    pages = {
        "lobby": "/",
        "board": f"/games/{active.pk}/",
        "board partial": f"/games/{active.pk}/board/",
        "history": "/games/history/",
        "replay": f"/games/{finished.pk}/replay/",
        "public profile": "/players/evil/",
        "opponent's profile": "/players/alice/",
        "leaderboard": "/leaderboard/",
    }
    for where, url in pages.items():
        response = viewer.get(url)
        assert response.status_code == 200, (where, response.status_code)
        _shown_escaped(response.content.decode(), where)
    _shown_escaped(client_for(evil).get("/accounts/profile/").content.decode(), "own profile")

    turn_mail = next(m for m in mail.outbox if m.to == ["alice@example.com"])
    html, kind = turn_mail.alternatives[0]
    assert kind == "text/html"
    _shown_escaped(html, "turn e-mail")
    assert EVIL in turn_mail.body  # the plain-text part: text, shown as written

    # The API's JSON carries the name as data (escaping is the client's business).
    api = client_for(alice).get(f"/api/v1/games/{active.pk}/")
    assert api["Content-Type"] == "application/json"
    assert EVIL in [row["display_name"] for row in api.json()["seats_info"]]


@pytest.mark.parametrize(
    "name", ["evil\u202e", "zero\u200bwidth", "nul\x00", "tab\there", "\u2066isolate", "é" * 41]
)
def test_display_names_that_are_refused_say_why(alice, name):
    client, before = client_for(alice), world()
    response = client.post("/accounts/profile/", {"display_name": name})
    assert response.status_code == 400
    text = response.content.decode()
    assert 'class="errorlist' in text
    assert any(
        sentence in text
        for sentence in ("Use visible characters only", "Null characters", "at most 40")
    )
    assert world() == before
