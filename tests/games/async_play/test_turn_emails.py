"""Turn e-mails: who gets one, when, what it says, and what it never says."""

from __future__ import annotations

import re
from datetime import timedelta
from smtplib import SMTPException
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core import mail
from django.core.mail import EmailMultiAlternatives

from accounts.models import User
from games import notifications
from games.deadlines import STALLED_AFTER, stalled_sweep
from games.models import Game, Notification
from games.notifications import notification_send, outbox_sweep, seat_seen, turn_key
from games.selectors import reader_token
from games.services import game_submit_action
from tests.games.factories import GameFactory, people_game, scenario_deck

pytestmark = pytest.mark.django_db


def _turn_notices(game):
    return Notification.objects.filter(game=game, kind=Notification.Kind.TURN)


def test_the_first_turn_is_emailed_with_text_html_link_and_unsubscribe(dora, run_commits):
    with run_commits():
        game = GameFactory(
            creator=dora,
            seats=[{"ai": "medium"}, {"ai": "medium"}],
            deck=scenario_deck("lux5 lux3"),
            first_player=0,
        )
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["dora@example.com"]
    assert message.subject == f"[High Society] Your turn at table {game.pk}"
    url = f"{settings.SITE_URL}/games/{game.pk}/?" + urlencode(
        {"for": reader_token(game.pk, dora.pk)}
    )  # names its reader
    assert "Your turn: bid for Luxury 5, or pass." in message.body
    assert f"Table {game.pk} is waiting for you." in message.body
    assert message.body.count("Your turn") == 1  # the headline says it; once is enough
    assert url in message.body
    assert "Your money: 1,000, 2,000, 3,000" in message.body
    html, kind = message.alternatives[0]
    assert kind == "text/html" and f'href="{url}"' in html and "Your turn: bid for Luxury 5" in html
    assert html.count("Your turn") == 1
    unsubscribe = re.search(r"<(.+)>", message.extra_headers["List-Unsubscribe"]).group(1)
    assert unsubscribe.startswith(f"{settings.SITE_URL}/accounts/unsubscribe/")
    assert unsubscribe in message.body and unsubscribe in html
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    notice = _turn_notices(game).get()
    assert notice.status == Notification.Status.SENT and notice.user == dora


def test_the_turn_comes_back_after_the_bots(table, dora, run_commits):
    game = table()
    with run_commits():
        game = game_submit_action(
            game=game, user=dora, action={"type": "bid", "cards": [3000]}, expected_version=0
        )
    game.refresh_from_db()
    assert game.version > 1  # the bots replied
    sent = _turn_notices(game).filter(status=Notification.Status.SENT)
    assert sent.count() == 2  # the first turn, and this one
    assert len(mail.outbox) == 1
    assert "Dora bids 3,000 (total 3,000)." in mail.outbox[0].body


def test_no_email_while_the_player_has_the_game_open(table, dora, run_commits, now):
    game = table()
    seat_seen(game_id=game.pk, user=dora)
    with run_commits():
        game_submit_action(game=game, user=dora, action={"type": "pass"}, expected_version=0)
    game.refresh_from_db()
    assert game.version > 1  # the bots replied: her turn again, and she is at the table
    this_turn = _turn_notices(game).filter(turn_started_at=game.turn_started_at)
    assert mail.outbox == [] and not this_turn.exists()  # no task, no row
    # The turn has lasted a while and she still has the board open: the missed-turn sweep
    # owes her the e-mail, which waits while she is there.
    moment = game.turn_started_at + STALLED_AFTER
    seat_seen(game_id=game.pk, user=dora, now=moment)
    with run_commits():
        assert stalled_sweep(now=moment) == 1
    waiting = this_turn.filter(status=Notification.Status.PENDING)
    assert mail.outbox == [] and waiting.count() == 1
    notice = waiting.get()
    assert notice.note == "The player has the game open."
    # It looks again two minutes on: one who leaves the board then is told soon.
    assert notice.due_at - moment < timedelta(minutes=3)
    # The board still open two minutes later: it waits again; then she closes it.
    later = notice.due_at
    seat_seen(game_id=game.pk, user=dora, now=later)
    assert notification_send(notification_id=notice.pk, now=later) == "deferred"
    assert notification_send(notification_id=notice.pk, now=later + timedelta(minutes=3)) == "sent"
    assert len(mail.outbox) == 1
    notice.refresh_from_db()
    assert notice.status == Notification.Status.SENT


@pytest.mark.parametrize(
    ("preference", "verified", "note"),
    [
        (User.TurnEmails.DIGEST, True, "The player chose the daily digest."),
        (User.TurnEmails.NONE, True, "The player wants no e-mails about games."),
        (User.TurnEmails.EVERY, False, "The player has no verified e-mail address."),
    ],
)
def test_who_gets_no_turn_email(dora, run_commits, preference, verified, note):
    User.objects.filter(pk=dora.pk).update(turn_emails=preference)
    EmailAddress.objects.filter(user=dora).update(verified=verified)
    with run_commits():
        game = GameFactory(
            creator=dora, seats=[{"ai": "easy"}] * 2, deck=scenario_deck("lux5"), first_player=0
        )
    assert mail.outbox == []
    notice = _turn_notices(game).get()
    assert (notice.status, notice.note) == (Notification.Status.SKIPPED, note)


def test_a_turn_already_played_is_not_emailed(table, dora, django_capture_on_commit_callbacks):
    game = table()
    # The turn e-mail task of the next turn is late: she has moved again meanwhile.
    with django_capture_on_commit_callbacks(execute=False):
        game = game_submit_action(
            game=game, user=dora, action={"type": "bid", "cards": [1000]}, expected_version=0
        )
    turn = turn_key(game.turn_started_at)
    created = notifications.turn_notices_create(game_id=game.pk, turn=turn)
    assert created == []  # bots are to act, no person: nothing owed
    stale = notifications.turn_notices_create(game_id=game.pk, turn=turn - 1)
    assert stale == []


def test_sending_twice_sends_once(table, dora, django_capture_on_commit_callbacks):
    game = table(first=1)  # a bot starts; its turn is queued but not run
    notice = Notification.objects.create(
        user=dora,
        game=game,
        kind=Notification.Kind.DEADLINE,
        key="x",
        move_number=0,
        due_at=game.created_at,
    )
    assert notification_send(notification_id=notice.pk) == "sent"
    assert notification_send(notification_id=notice.pk) == "busy"
    assert len(mail.outbox) == 1


def test_an_smtp_failure_is_kept_and_retried_later(table, dora, monkeypatch, now):
    game = table(first=1)
    notice = Notification.objects.create(
        user=dora, game=game, kind=Notification.Kind.DEADLINE, key="y", move_number=0, due_at=now
    )
    real_send = EmailMultiAlternatives.send

    def down(self, *args, **kwargs):
        raise SMTPException("451 try again later")

    monkeypatch.setattr(EmailMultiAlternatives, "send", down)
    with pytest.raises(SMTPException):
        notification_send(notification_id=notice.pk, now=now)
    notice.refresh_from_db()
    assert notice.status == Notification.Status.PENDING and notice.attempts == 1
    assert notice.note == "SMTPException: 451 try again later"
    assert notice.due_at == now + notifications.RETRY_AFTER_FAILURE
    assert outbox_sweep(now=now + timedelta(minutes=5)) == 0  # Celery's own retries first
    monkeypatch.setattr(EmailMultiAlternatives, "send", real_send)
    assert outbox_sweep(now=now + timedelta(minutes=31)) == 1
    notice.refresh_from_db()
    assert notice.status == Notification.Status.SENT and notice.attempts == 2
    assert len(mail.outbox) == 1


def test_a_row_that_keeps_failing_is_given_up(table, dora, monkeypatch, now):
    game = table(first=1)
    notice = Notification.objects.create(
        user=dora,
        game=game,
        kind=Notification.Kind.DEADLINE,
        key="z",
        move_number=0,
        due_at=now,
        attempts=notifications.MAX_ATTEMPTS - 1,
    )
    monkeypatch.setattr(
        EmailMultiAlternatives, "send", lambda self, *a, **k: (_ for _ in ()).throw(OSError("down"))
    )
    with pytest.raises(OSError):
        notification_send(notification_id=notice.pk, now=now)
    notice.refresh_from_db()
    assert notice.status == Notification.Status.FAILED


def test_emails_show_nothing_hidden(dora, run_commits):
    """Two games that differ only in the deck below the first card: Dora's e-mails are
    the same, word for word (ids aside)."""
    bodies = []
    for top in ("lux5 lux1 lux2 lux3 lux4", "lux5 scandal debt prestige lux10"):
        mail.outbox.clear()
        with run_commits():
            game = GameFactory(
                creator=dora,
                seats=[{"ai": "medium"}, {"ai": "medium"}],
                deck=scenario_deck(top),
                first_player=0,
            )
        message = mail.outbox[0]
        text = message.body + message.alternatives[0][0]
        # The unsubscribe link is signed with the time: the second may tick between games.
        text = re.sub(r"/accounts/unsubscribe/[^/\s\"]+/", "/accounts/unsubscribe/T/", text)
        # The table's link names its reader, signed for that table (another id).
        text = text.replace(urlencode({"for": reader_token(game.pk, dora.pk)}), "for=R")
        bodies.append(
            text.replace(f"table {game.pk}", "table N")
            .replace(f"Table {game.pk}", "Table N")
            .replace(f"/games/{game.pk}/", "/games/N/")
        )
    assert bodies[0] == bodies[1]
    for card in ("Luxury 1", "Scandal", "Debt", "Prestige", "Luxury 10"):
        assert card not in bodies[0]


def test_the_yacht_club_turn_is_one_email_each(dora, bob, run_commits):
    with run_commits():
        game = GameFactory(
            creator=dora,
            players=3,
            seats=[{"user": "bob"}, {"ai": "medium"}],
            deck=scenario_deck("yacht lux5", ("yacht",)),
            advanced=("yacht",),
            first_player=0,
        )
        from games.services import game_invitation_respond

        game = game_invitation_respond(game=game, user=bob, accept=True)
    game.refresh_from_db()  # the bot has made its choice after the commit
    assert game.engine_state().phase == "sealed"
    assert sorted(m.to[0] for m in mail.outbox) == ["bob@example.com", "dora@example.com"]
    mail.outbox.clear()
    with run_commits():  # Dora chooses; Bob's turn goes on: no second e-mail for him
        game_submit_action(
            game=game,
            user=dora,
            action={"type": "sealed_bid", "card": 1000},
            expected_version=game.version,
        )
    assert mail.outbox == []
    assert Game.objects.get(pk=game.pk).engine_state().phase == "sealed"


def test_old_finished_rows_are_deleted_by_the_outbox_sweep(table, dora, now):
    game = table()
    notice = Notification.objects.get(game=game)
    assert notice.status == Notification.Status.SENT
    assert outbox_sweep(now=now + timedelta(days=89)) == 0
    assert Notification.objects.filter(pk=notice.pk).exists()
    outbox_sweep(now=now + timedelta(days=91))
    assert not Notification.objects.filter(pk=notice.pk).exists()


def test_api_players_at_the_table_get_no_turn_email_task(dora, bob, carol, run_commits):
    """Using the API's game view or posting a move counts as being at the table, like the
    board's poll: a turn that begins with its player there queues no e-mail task (the
    missed-turn sweep looks again after a couple of minutes); one who is away gets it."""
    from tests.games.api.conftest import token_client

    game = people_game(dora, bob, carol, deck=scenario_deck("lux5 lux3"), first_player=0)
    api = {user.username: token_client(user) for user in (dora, bob, carol)}
    assert bob.turn_emails == User.TurnEmails.EVERY

    def move(name, version, **action):
        with run_commits():
            response = api[name].post(
                f"/api/v1/games/{game.pk}/moves/", {**action, "version": version}, format="json"
            )
        assert response.status_code == 201, response.json()

    def bob_turn_rows():
        game.refresh_from_db()
        return _turn_notices(game).filter(user=bob, turn_started_at=game.turn_started_at)

    # Bob is away: Dora's bid starts his turn, and his e-mail is owed at once.
    move("dora", 0, type="bid", cards=[1000])
    assert bob_turn_rows().count() == 1
    # Bob looks at the game and bids through the API: he is at the table now.
    assert api["bob"].get(f"/api/v1/games/{game.pk}/").status_code == 200
    move("bob", 1, type="bid", cards=[2000])
    move("carol", 2, type="pass")
    move("dora", 3, type="bid", cards=[3000])  # Bob's turn again: nothing owed meanwhile
    assert not bob_turn_rows().exists()


def test_a_seen_mark_lives_in_the_shared_cache_and_ages_out(dora, bob, monkeypatch, now):
    """Every poll and API call writes the player's mark to the cache (shared by every
    process: nothing is remembered per process); who is at the table is one cache read,
    and a mark older than ONLINE_SECONDS no longer counts."""
    seat_seen(game_id=7, user=dora, now=now)
    notifications.cache.set(notifications._seen_key(7, bob.pk), now.timestamp())  # another process
    asked = []
    real = notifications.cache.get_many
    monkeypatch.setattr(
        notifications.cache, "get_many", lambda keys: asked.append(keys) or real(keys)
    )
    ids = [dora.pk, bob.pk]
    assert notifications.seats_online(game_id=7, user_ids=ids, now=now) == set(ids)
    assert len(asked) == 1
    later = now + timedelta(seconds=notifications.ONLINE_SECONDS)
    assert notifications.seats_online(game_id=7, user_ids=ids, now=later) == set()
    seat_seen(game_id=7, user=dora, now=later)  # she polls again
    assert notifications.seats_online(game_id=7, user_ids=ids, now=later) == {dora.pk}


def test_the_email_says_who_moved_for_whom_as_the_board_does(dora, alice, bob, run_commits):
    """The e-mail's "Latest in the game" is the board's log: a move a standing order
    made is named as the order's ("Alice (standing order) bids 2,000"), not as Alice's
    own hand, one line per move."""
    from games.ai.orders import Order
    from games.services import game_orders_set

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6 lux7"), first_player=0)
    game_orders_set(game=game, user=alice, card="lux5", order=Order(kind="bid", maximum=5000))
    mail.outbox.clear()
    with run_commits():
        game_submit_action(
            game=game, user=dora, action={"type": "bid", "cards": [1000]}, expected_version=0
        )
    [message] = [m for m in mail.outbox if m.to == ["bob@example.com"]]
    latest = message.body.split("Latest in the game:")[1].split("\n\n")[0].strip().splitlines()
    assert [line.strip() for line in latest] == [
        "Dora reveals Luxury 5.",
        "Dora bids 1,000 (total 1,000).",
        "Alice (standing order) bids 2,000 (total 2,000).",
    ]
    html = message.alternatives[0][0]
    assert "Alice (standing order) bids 2,000 (total 2,000)." in html


def test_a_turn_email_lists_the_readers_own_standing_orders_and_nobody_elses(
    dora, alice, bob, run_commits
):
    """Bob's turn e-mail says what answers for him while he is away (his defaults for
    the coming auctions); Alice's orders reach only her, never Bob's e-mail."""
    from games.ai.orders import Defaults, Order
    from games.services import game_orders_set

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6 lux7"), first_player=0)
    game_orders_set(game=game, user=bob, defaults=Defaults(luxury_below=4, misfortune_max=2000))
    game_orders_set(game=game, user=alice, card="lux5", order=Order(kind="pass"))
    game_orders_set(game=game, user=alice, defaults=Defaults(luxury_below=9))
    mail.outbox.clear()
    with run_commits():
        game_submit_action(
            game=game, user=dora, action={"type": "bid", "cards": [1000]}, expected_version=0
        )
    [message] = [m for m in mail.outbox if m.to == ["bob@example.com"]]
    mine = message.body.split("Your standing orders here (only you see them):")[1]
    mine = [line.strip() for line in mine.split("\n\n")[0].strip().splitlines()]
    assert mine == [
        "Pass on every luxury below 4.",
        "Pay up to 2,000 to avoid a misfortune, else take it.",
    ]
    assert "below 9" not in message.body and "below 9" not in message.alternatives[0][0]
    assert "Pass on every luxury below 4." in message.alternatives[0][0]


@pytest.mark.parametrize(
    ("left", "language", "words"),
    [
        (timedelta(days=2, hours=23, minutes=59), "en", "in 2 days and 23 hours"),
        (timedelta(days=2), "en", "in 2 days"),
        (timedelta(hours=24, minutes=30), "en", "in 1 day"),
        (timedelta(hours=23, minutes=59), "en", "in 23 hours"),
        (timedelta(days=2, hours=23), "de", "in 2 Tagen und 23 Stunden"),
        (timedelta(days=1, hours=1), "fr", "dans 1 jour et 1 heure"),
        # Under three hours, the minutes too: "in 1 hour" was said with nearly two left.
        (timedelta(hours=1, minutes=59, seconds=30), "en", "in 1 hour and 59 minutes"),
        (timedelta(hours=2, minutes=1), "en", "in 2 hours and 1 minute"),
        (timedelta(hours=2), "en", "in 2 hours"),
        (timedelta(hours=3, minutes=59), "en", "in 3 hours"),
        (timedelta(minutes=59, seconds=59), "en", "in 59 minutes"),
        (timedelta(seconds=59), "en", "in less than a minute"),
        (timedelta(0), "en", "in less than a minute"),
        (timedelta(hours=1, minutes=30), "de", "in 1 Stunde und 30 Minuten"),
        (timedelta(hours=1, minutes=30), "fr", "dans 1 heure et 30 minutes"),
    ],
)
def test_the_time_left_is_not_rounded_down_to_whole_days(left, language, words):
    """An e-mail said "due in 2 days" with nearly three left, where the board said "2
    days, 23 hours": from a day on, days and hours."""
    from datetime import datetime

    from django.utils import timezone, translation

    from games import presenter

    now = timezone.make_aware(datetime(2026, 11, 27, 12, 0))
    with translation.override(language):
        assert presenter.due_in(now + left, now) == words


def test_the_readers_own_vacation_is_in_the_second_person(dora, alice, bob):
    """The turn e-mail of a player on vacation says "You are on vacation until …", with
    the date written as the e-mail's other dates, not "Dora is on vacation until
    2026-…"; another player's vacation names them."""
    from datetime import datetime

    from django.utils import timezone

    from games import presenter
    from games.selectors import table_view

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6 lux7"), first_player=0)
    until = timezone.make_aware(datetime(2026, 12, 3, 12, 0))
    User.objects.filter(pk=dora.pk).update(vacation_until=until)
    view = table_view(game=Game.objects.get(pk=game.pk), user=dora)
    assert presenter.away_lines(view) == ["You are on vacation until 3 Dec 2026."]
    others = table_view(game=Game.objects.get(pk=game.pk), user=bob)
    assert presenter.away_lines(others) == ["Dora is on vacation until 3 Dec 2026."]
    # In the reader's zone, as the e-mail's other times: at 20:30 UTC it is the next
    # day in Auckland, and the e-mail said the UTC date beside Auckland's deadline.
    late = timezone.make_aware(datetime(2026, 12, 3, 20, 30))
    User.objects.filter(pk=dora.pk).update(vacation_until=late)
    others = table_view(game=Game.objects.get(pk=game.pk), user=bob)
    auckland = presenter.away_lines(others, ZoneInfo("Pacific/Auckland"))
    assert auckland == ["Dora is on vacation until 4 Dec 2026."]
    from games.notifications import game_summary

    bob.time_zone = "Pacific/Auckland"
    summary = game_summary(game, others, timezone.now(), bob)
    assert summary["away"] == ["Dora is on vacation until 4 Dec 2026."]


def test_a_turn_email_warns_of_the_players_pending_theft(dora, run_commits):
    """Dora took Theft with no luxury; the e-mail for her next turn, a luxury up, says
    what the board says beside the card: winning it loses it at once."""
    with run_commits():
        game = GameFactory(
            creator=dora,
            seats=[{"ai": "easy"}, {"ai": "easy"}],
            deck=scenario_deck("theft lux9"),
            first_player=0,
        )
    mail.outbox.clear()
    with run_commits():
        game_submit_action(game=game, user=dora, action={"type": "pass"}, expected_version=0)
    game.refresh_from_db()
    state = game.engine_state()
    assert state.card == "lux9" and "theft" in state.owned[0]
    assert state.turn == 0  # who took the misfortune leads the next round
    notice = _turn_notices(game).filter(user=dora).latest("pk")
    if notice.status != Notification.Status.SENT:  # the turn's grace: sent once it is over
        notification_send(notification_id=notice.pk, now=notice.due_at + timedelta(minutes=5))
    (message,) = [m for m in mail.outbox if "Your turn" in m.subject]
    warning = "Your Theft is pending: win Luxury 9 and it leaves the game at once, with Theft."
    assert warning in message.body and warning in message.alternatives[0][0]
