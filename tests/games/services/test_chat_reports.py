"""Chat reports: a player at the table reports another's message to the staff (once),
the staff find the open reports (a count in the site's header, a queue in the admin)
and hide the message, for everyone and everywhere (kept for them), or dismiss the
reports."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games.chat import chat_lines_show_again, chat_post, chat_report, chat_reports_resolve
from games.errors import GameError, NotAllowed, NotYourSeat
from games.models import ChatMessage, ChatReport, Seat
from games.selectors import chat_lines
from games.services import game_submit_action
from tests.games.factories import StaffUserFactory, people_game, scenario_deck
from tests.second_factor import staff_admin_session

pytestmark = pytest.mark.django_db

QUEUE = reverse("admin:games_chatreport_changelist")


@pytest.fixture
def game(dora, alice, bob):
    """Dora (staff: the deck is fixed), Alice and Bob at a running table."""
    return people_game(dora, alice, bob, deck=scenario_deck("lux5 lux3"), first_player=0)


@pytest.fixture
def abuse(game, bob):
    return chat_post(game=game, user=bob, text="you all play like idiots")


def _texts(game, user):
    return [line.text for line in chat_lines(game=game, user=user)]


def test_a_report_is_one_per_player_and_said_to_the_reporter_only(game, abuse, alice, dora, bob):
    first = chat_report(game=game, user=alice, message=abuse.pk)
    again = chat_report(game=game, user=alice, message=abuse.pk)  # a double click
    assert first.pk == again.pk and ChatReport.objects.count() == 1
    chat_report(game=game, user=dora, message=abuse.pk)
    assert ChatReport.objects.filter(message=abuse, resolved_at__isnull=True).count() == 2
    assert [line.reported for line in chat_lines(game=game, user=alice)] == [True]
    assert [line.reported for line in chat_lines(game=game, user=bob)] == [False]
    # Reported, the line is still there for everyone until the staff answer.
    assert _texts(game, alice) == _texts(game, bob) == ["you all play like idiots"]


@pytest.mark.parametrize(
    ("who", "which", "error", "said"),
    [
        ("bob", "abuse", NotAllowed, "This is your own message."),
        ("dave", "abuse", NotYourSeat, "Only the players at this table can report"),
        ("alice", "elsewhere", NotAllowed, "There is no such message at this table"),
        ("alice", "hidden", NotAllowed, "There is no such message at this table"),
        ("alice", "12abc", GameError, "Choose the message by its number."),
        (None, "abuse", NotYourSeat, "Log in"),
    ],
)
def test_refused_reports_say_why_and_store_nothing(
    game, abuse, alice, bob, carol, dave, who, which, error, said
):
    other = people_game(alice, bob, carol)
    messages = {
        "abuse": abuse.pk,
        "elsewhere": chat_post(game=other, user=carol, text="hello").pk,
        "hidden": chat_post(game=game, user=bob, text="gone").pk,
        "12abc": "12abc",
    }
    ChatMessage.objects.filter(pk=messages["hidden"]).update(hidden_at=abuse.created_at)
    user = {"alice": alice, "bob": bob, "dave": dave, None: None}[who]
    with pytest.raises(error, match=said):
        chat_report(game=game, user=user, message=messages[which])
    assert not ChatReport.objects.exists()


def test_hiding_takes_the_line_from_everyone_everywhere_and_keeps_it(
    game, abuse, alice, bob, dora, run_commits
):
    chat_post(game=game, user=dora, text="please stop")
    chat_report(game=game, user=alice, message=abuse.pk)
    chat_report(game=game, user=dora, message=abuse.pk)
    reports = ChatReport.objects.filter(reporter=alice)  # one report answers them all
    done = chat_reports_resolve(reports=reports, hide=True, by=dora)
    assert done.lines == [abuse.pk] and len(done.reports) == 2
    for user in (alice, bob, dora):
        assert _texts(game, user) == ["please stop"]
    api = APIClient()
    api.force_authenticate(bob)
    listed = api.get(f"/api/v1/games/{game.pk}/chat/").json()["messages"]
    assert [m["text"] for m in listed] == ["please stop"]
    kept = ChatMessage.objects.get(pk=abuse.pk)
    assert kept.hidden_at is not None and kept.text == "you all play like idiots"
    assert set(ChatReport.objects.values_list("outcome", "resolved_by")) == {("hidden", dora.pk)}
    assert not ChatReport.objects.filter(resolved_at__isnull=True).exists()
    # Nor does an e-mail quote it: Alice's turn e-mail lists the chat.
    mail.outbox.clear()
    with run_commits():
        game_submit_action(game=game, user=dora, action={"type": "pass"}, expected_version=0)
    (to_alice,) = [m for m in mail.outbox if m.to == [alice.email]]
    assert "please stop" in to_alice.body and "idiots" not in to_alice.body


def test_dismissing_leaves_the_message(game, abuse, alice, dora):
    chat_report(game=game, user=alice, message=abuse.pk)
    done = chat_reports_resolve(reports=ChatReport.objects.all(), hide=False, by=dora)
    assert done.lines == [] and done.reports == [ChatReport.objects.get().pk]
    assert _texts(game, alice) == ["you all play like idiots"]
    assert ChatReport.objects.get().outcome == "dismissed"
    # Reported again after a dismissal, it is still her one report (already answered).
    chat_report(game=game, user=alice, message=abuse.pk)
    assert ChatReport.objects.count() == 1


def test_the_board_offers_report_on_others_lines_and_says_it_was_reported(
    client, game, abuse, alice, bob
):
    mine = chat_post(game=game, user=alice, text="gl")
    client.force_login(alice)
    board = client.get(f"/games/{game.pk}/").content.decode()
    assert board.count('name="message"') == 1 and f'value="{abuse.pk}"' in board
    assert "Report to the staff" in board and "this message of Bob" in board
    done = client.post(f"/games/{game.pk}/chat/report/", {"message": abuse.pk}, follow=True)
    page = done.content.decode()
    assert "Reported to the staff: they will read it." in page
    assert "Reported to the staff</span>" in page and 'name="message"' not in page
    # Refused: said at the top of the board (htmx swaps it in; a plain form gets 400).
    htmx = client.post(
        f"/games/{game.pk}/chat/report/", {"message": str(mine.pk)}, HTTP_HX_REQUEST="true"
    )
    assert "This is your own message." in htmx.content.decode()
    plain = client.post(f"/games/{game.pk}/chat/report/", {"message": "x"})
    assert plain.status_code == 400
    assert "Choose the message by its number." in plain.content.decode()
    assert ChatReport.objects.count() == 1


def test_the_api_reports_a_message(game, abuse, alice, bob, dave):
    api = APIClient()
    api.force_authenticate(alice)
    path = f"/api/v1/games/{game.pk}/chat/{abuse.pk}/report/"
    done = api.post(path)
    assert done.status_code == 200, done.json()
    assert [(m["text"], m["reported"]) for m in done.json()["messages"]] == [
        ("you all play like idiots", True)
    ]
    assert api.post(path).status_code == 200 and ChatReport.objects.count() == 1
    missing = api.post(f"/api/v1/games/{game.pk}/chat/999999/report/")
    assert (missing.status_code, missing.json()["code"]) == (409, "not_allowed")
    api.force_authenticate(bob)
    own = api.post(path)
    assert (own.status_code, own.json()["detail"]) == (409, "This is your own message.")
    api.force_authenticate(dave)
    assert api.post(path).status_code == 403
    assert ChatReport.objects.count() == 1


def test_staff_see_the_count_and_answer_from_the_queue(
    client, admin_client, admin_user, game, abuse, alice, bob
):
    chat_report(game=game, user=alice, message=abuse.pk)
    header = admin_client.get("/").content.decode()
    assert "1 chat report to read" in header and f"{QUEUE}?state=open" in header
    client.force_login(alice)
    assert "chat report" not in client.get("/").content.decode()
    queue = admin_client.get(f"{QUEUE}?state=open").content.decode()
    assert "you all play like idiots" in queue and f"Table {game.pk}: its chat" in queue
    done = admin_client.post(
        QUEUE,
        {"action": "hide_messages", "_selected_action": [ChatReport.objects.get().pk]},
        follow=True,
    )
    assert "1 message hidden." in done.content.decode()
    assert ChatMessage.objects.get(pk=abuse.pk).hidden_at is not None
    assert "chat report" not in admin_client.get("/").content.decode()


def test_dismissing_one_report_answers_every_report_of_that_message(
    admin_client, game, abuse, alice, dora
):
    """Two players reported the line; staff dismiss the row they look at: the message
    leaves the queue (and the header's count), not half of it."""
    chat_report(game=game, user=alice, message=abuse.pk)
    chat_report(game=game, user=dora, message=abuse.pk)
    first = ChatReport.objects.get(reporter=alice)
    done = admin_client.post(
        QUEUE, {"action": "dismiss_reports", "_selected_action": [first.pk]}, follow=True
    )
    assert "2 reports dismissed." in done.content.decode()
    assert not ChatReport.objects.filter(resolved_at__isnull=True).exists()
    assert "chat report" not in admin_client.get("/").content.decode()
    assert _texts(game, alice) == ["you all play like idiots"]


def test_a_hide_made_by_mistake_is_undone(admin_client, game, abuse, alice, bob):
    chat_report(game=game, user=alice, message=abuse.pk)
    chat_reports_resolve(reports=ChatReport.objects.all(), hide=True, by=None)
    assert _texts(game, bob) == []
    report = ChatReport.objects.get()
    done = admin_client.post(
        QUEUE, {"action": "show_again", "_selected_action": [report.pk]}, follow=True
    )
    assert "1 message shown again." in done.content.decode()
    assert _texts(game, bob) == ["you all play like idiots"]
    assert ChatReport.objects.get().outcome == "dismissed"
    again = chat_lines_show_again(reports=ChatReport.objects.all(), by=None)
    assert again == ([], [])  # nothing hidden now
    # "Show again" on the open report of a line never hidden leaves that report open.
    other = chat_post(game=game, user=bob, text="gg")
    chat_report(game=game, user=alice, message=other.pk)
    assert chat_lines_show_again(reports=ChatReport.objects.filter(message=other), by=None) == (
        [],
        [],
    )
    assert ChatReport.objects.get(message=other).resolved_at is None


def _history(obj):
    """The admin history of ``obj``: (who, what) of each line, oldest first."""
    from django.contrib.admin.models import LogEntry
    from django.contrib.contenttypes.models import ContentType

    return [
        (entry.user.username, entry.change_message)
        for entry in LogEntry.objects.filter(
            content_type=ContentType.objects.get_for_model(obj), object_id=str(obj.pk)
        ).order_by("id")
    ]


def test_every_answer_from_the_queue_is_in_the_history_with_who_gave_it(
    admin_client, admin_user, game, abuse, alice, bob, dora
):
    """The queue's answers left no trace of who gave them: the report's and the
    account's "History" said there was none, the report kept only when and how.  Each
    answer now writes a line in the history of every report it answered (those of the
    same message not chosen too) and of every account it barred or let write again,
    and the report names who answered it, on its page and in the list."""
    chat_report(game=game, user=alice, message=abuse.pk)
    chat_report(game=game, user=dora, message=abuse.pk)
    other = chat_post(game=game, user=bob, text="gg ez")
    chat_report(game=game, user=alice, message=other.pk)
    first, second = ChatReport.objects.filter(message=abuse).order_by("reporter__username")
    third = ChatReport.objects.get(message=other)

    def act(action, *reports):
        answer = admin_client.post(
            QUEUE, {"action": action, "_selected_action": [r.pk for r in reports]}, follow=True
        )
        assert answer.status_code == 200
        return answer.content.decode()

    assert "1 message hidden." in act("hide_messages", first)
    hid = ("admin", "Hid the message (report answered).")
    assert _history(first) == _history(second) == [hid]
    assert "1 report dismissed." in act("dismiss_reports", third)
    assert _history(third) == [("admin", "Dismissed the report (the message stays).")]
    assert {r.resolved_by for r in ChatReport.objects.all()} == {admin_user}

    assert "1 message shown again." in act("show_again", second)
    shown = ("admin", "Showed the message again (the report reads dismissed).")
    assert _history(first) == _history(second) == [hid, shown]
    assert _history(third) == [("admin", "Dismissed the report (the message stays).")]

    where = f"message {abuse.pk} at table {game.pk}, message {other.pk} at table {game.pk}"
    assert "1 player may not write" in act("bar_authors", first, third)
    barred = ("admin", f"Barred from the table chats for 7 days (chat reports queue: {where}).")
    assert _history(bob) == [barred]
    longer = timezone.now() + timedelta(days=30)
    type(bob).objects.filter(pk=bob.pk).update(chat_barred_until=longer)
    assert "0 players may not write" in act("bar_authors", first)  # a longer bar stands
    assert _history(bob) == [barred]
    assert "1 player may write in the chats again." in act("unbar_authors", third)
    again = f"May write in the table chats again (chat reports queue: message {other.pk} at "
    assert _history(bob) == [barred, ("admin", again + f"table {game.pk}).")]
    assert _history(alice) == _history(dora) == []  # the reporters are untouched

    # Django's own history pages read them (they said "no change history").
    account = admin_client.get(reverse("admin:accounts_user_history", args=[bob.pk]))
    assert "Barred from the table chats for 7 days" in account.content.decode()
    page = admin_client.get(reverse("admin:games_chatreport_history", args=[first.pk]))
    assert "Hid the message (report answered)." in page.content.decode()
    # Who answered: on the report's page (a link to the account) and in the list.
    link = reverse("admin:accounts_user_change", args=[admin_user.pk])
    report_page = admin_client.get(reverse("admin:games_chatreport_change", args=[first.pk]))
    assert "Resolved by" in report_page.content.decode() and link in report_page.content.decode()
    assert 'name="_save"' not in report_page.content.decode()
    listing = admin_client.get(QUEUE).content.decode()
    assert (
        "Resolved by" in listing and listing.count('class="field-resolved_by nowrap">admin<') == 3
    )


def test_a_bar_from_the_accounts_list_is_in_the_history_only_when_it_changed(
    admin_client, admin_user, alice, bob
):
    accounts = reverse("admin:accounts_user_changelist")
    admin_client.post(accounts, {"action": "bar_from_chats", "_selected_action": [bob.pk]})
    longer = timezone.now() + timedelta(days=30)
    type(bob).objects.filter(pk=bob.pk).update(chat_barred_until=longer)
    admin_client.post(accounts, {"action": "bar_from_chats", "_selected_action": [bob.pk]})
    admin_client.post(
        accounts, {"action": "unbar_from_chats", "_selected_action": [alice.pk, bob.pk]}
    )
    assert _history(bob) == [
        ("admin", "Barred from the table chats for 7 days."),
        ("admin", "May write in the table chats again."),
    ]
    assert _history(alice) == []


def test_a_moderator_without_the_permission_neither_sees_the_count_nor_answers(game, abuse, alice):
    chat_report(game=game, user=alice, message=abuse.pk)
    mod = StaffUserFactory(username="mod", display_name="Mod")
    mod.user_permissions.add(Permission.objects.get(codename="view_chatreport"))
    client = Client()
    staff_admin_session(client, mod)
    assert "chat report" not in client.get("/").content.decode()
    listing = client.get(QUEUE).content.decode()
    assert "you all play like idiots" in listing and "hide_messages" not in listing
    client.post(
        QUEUE, {"action": "hide_messages", "_selected_action": [ChatReport.objects.get().pk]}
    )
    assert ChatMessage.objects.get(pk=abuse.pk).hidden_at is None
    mod.user_permissions.add(Permission.objects.get(codename="change_chatreport"))
    assert "1 chat report to read" in client.get("/").content.decode()


def test_a_reported_players_seat_is_untouched(game, abuse, alice, bob):
    """A report is a message to the staff, nothing more: Bob keeps his seat and chat."""
    chat_report(game=game, user=alice, message=abuse.pk)
    assert Seat.objects.get(game=game, user=bob).accepted
    chat_post(game=game, user=bob, text="sorry")
    assert _texts(game, alice)[-1] == "sorry"


@pytest.fixture
def moderators(settings):
    settings.MANAGERS = [("Moderators", "mods@example.org"), ("Moderators", "m2@example.org")]
    settings.SITE_URL = "https://hs.example.org"


def _to_moderators():
    return [m for m in mail.outbox if "mods@example.org" in m.to]


def test_the_moderators_are_mailed_once_per_line_until_they_answer(
    game, abuse, alice, dora, moderators, run_commits
):
    mail.outbox.clear()
    with run_commits():
        chat_report(game=game, user=alice, message=abuse.pk)
    [sent] = _to_moderators()
    assert sent.to == ["mods@example.org", "m2@example.org"]
    assert sent.subject == f"[High Society] Chat report at table {game.pk}"
    assert "Alice (alice) reported a chat line at table" in sent.body
    assert "Bob (bob) wrote (" in sent.body
    assert "UTC):\n    you all play like idiots" in sent.body
    assert "This line has 1 open report." in sent.body
    assert f"https://hs.example.org{QUEUE}?state=open" in sent.body
    assert f"https://hs.example.org/games/{game.pk}/" in sent.body
    # A second reporter, and the same one again: the line is in the queue already.
    with run_commits():
        chat_report(game=game, user=dora, message=abuse.pk)
        chat_report(game=game, user=alice, message=abuse.pk)
    assert len(_to_moderators()) == 1
    # Answered (dismissed), a new report of the same line is news again.
    chat_reports_resolve(reports=ChatReport.objects.all(), hide=False, by=None)
    ChatReport.objects.filter(reporter=dora).delete()
    with run_commits():
        chat_report(game=game, user=dora, message=abuse.pk)
    assert len(_to_moderators()) == 2
    assert "This line has 1 open report." in _to_moderators()[1].body  # one was answered


def test_the_moderators_find_the_report_the_mail_names(
    admin_client, game, abuse, alice, bob, dora, moderators, run_commits
):
    """The e-mail named the players by the names the boards show, which the queue did
    not search (usernames only), and its table link opened a board without the chat.
    It now names each by both, links to the report's own page and to the table's chat
    in the admin; the queue finds the report by either name of either player and
    lists who reported it.  Nothing of the game itself is in the e-mail."""
    from games.ai.orders import Order
    from games.services import game_orders_set

    type(bob).objects.filter(pk=bob.pk).update(display_name="Robert Rude")
    type(alice).objects.filter(pk=alice.pk).update(display_name="Al Watchful")
    game_orders_set(game=game, user=bob, card="lux5", order=Order(kind="bid", maximum=7000))
    mail.outbox.clear()
    with run_commits():
        report = chat_report(game=game, user=alice, message=abuse.pk)
    [sent] = _to_moderators()
    body = sent.body
    assert "Al Watchful (alice) reported a chat line" in body
    assert "Robert Rude (bob) wrote (" in body
    change = reverse("admin:games_chatreport_change", args=[report.pk])
    chat = reverse("admin:games_chatmessage_changelist") + f"?game__id__exact={game.pk}"
    assert f"This report: https://hs.example.org{change}\n" in body
    assert f"The table's chat: https://hs.example.org{chat}\n" in body
    assert f"https://hs.example.org{QUEUE}?state=open" in body
    # No card (the deck, the card up), no standing order, no money (the links' numbers,
    # ids that grow over a long run, may hold "7000").
    words = re.sub(r"https?://\S+", "", body)
    for secret in ("lux", "Luxury", "7000", "7,000", "order", "bid"):
        assert secret not in words, secret
    # The report's page (the link) opens, and names both.
    page = admin_client.get(change).content.decode()
    assert "Robert Rude</a> (bob)" in page and "Al Watchful</a> (alice)" in page

    # Every name of the e-mail finds the report; the list shows the reporter.
    chat_report(game=game, user=dora, message=chat_post(game=game, user=alice, text="hi").pk)
    for words in ("Robert", "Rude", "bob", "Watchful", "alice"):
        listing = admin_client.get(QUEUE, {"q": words})
        found = [r.pk for r in listing.context["cl"].result_list]
        assert report.pk in found, words
    listing = admin_client.get(QUEUE, {"q": "Robert"})
    assert [r.pk for r in listing.context["cl"].result_list] == [report.pk]
    html = listing.content.decode()
    assert "Reporter" in html and "Al Watchful</a> (alice)" in html
    assert reverse("admin:accounts_user_change", args=[alice.pk]) in html


def test_no_moderator_mail_without_an_address_or_once_answered(
    game, abuse, alice, settings, run_commits
):
    from games.chat import chat_report_mail

    settings.MANAGERS = []
    mail.outbox.clear()
    with run_commits():
        report = chat_report(game=game, user=alice, message=abuse.pk)
    assert mail.outbox == []
    settings.MANAGERS = [("Moderators", "mods@example.org")]
    chat_reports_resolve(reports=ChatReport.objects.all(), hide=True, by=None)
    assert chat_report_mail(report_id=report.pk) == 0  # answered before the task ran
    assert chat_report_mail(report_id=987654) == 0  # gone (the line deleted)
    assert mail.outbox == []


def test_a_refused_report_mails_nobody(game, abuse, bob, moderators, run_commits):
    mail.outbox.clear()
    with run_commits(), pytest.raises(NotAllowed):
        chat_report(game=game, user=bob, message=abuse.pk)
    assert mail.outbox == []


def test_staff_bar_a_reported_author_from_the_chats_for_a_week(
    admin_client, client, game, abuse, alice, bob
):
    """From the queue: Bob may not write in any table chat for 7 days (he is told why,
    on the board, in the API and when he sends); he still reads, mutes and reports.
    Lifted, he writes again; a second bar does not shorten a longer one."""
    from datetime import timedelta

    from django.utils import timezone

    chat_report(game=game, user=alice, message=abuse.pk)
    report = ChatReport.objects.get()
    done = admin_client.post(
        QUEUE, {"action": "bar_authors", "_selected_action": [report.pk]}, follow=True
    )
    assert "1 player may not write in the chats for 7 days." in done.content.decode()
    bob.refresh_from_db()
    left = bob.chat_barred_until - timezone.now()
    assert timedelta(days=6, hours=23) < left <= timedelta(days=7)
    with pytest.raises(NotAllowed, match="A moderator has barred you from writing in the table"):
        chat_post(game=game, user=bob, text="sorry")
    chat_post(game=game, user=alice, text="thanks")  # the reporter writes on
    client.force_login(bob)
    board = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="chat-barred"' in board and "You may still read them" in board
    api = APIClient()
    api.force_authenticate(bob)
    answer = api.post(f"/api/v1/games/{game.pk}/chat/", {"text": "hi"}, format="json")
    assert answer.status_code == 409 and "barred you" in answer.json()["detail"]
    assert chat_report(game=game, user=bob, message=ChatMessage.objects.last().pk)
    # A longer bar stands; lifting it lets him write again.
    longer = timezone.now() + timedelta(days=30)
    type(bob).objects.filter(pk=bob.pk).update(chat_barred_until=longer)
    admin_client.post(QUEUE, {"action": "bar_authors", "_selected_action": [report.pk]})
    bob.refresh_from_db()
    assert bob.chat_barred_until == longer
    done = admin_client.post(
        QUEUE, {"action": "unbar_authors", "_selected_action": [report.pk]}, follow=True
    )
    assert "1 player may write in the chats again." in done.content.decode()
    bob.refresh_from_db()
    assert bob.chat_barred_until is None
    assert chat_post(game=game, user=bob, text="sorry").text == "sorry"
    assert 'id="chat-barred"' not in client.get(f"/games/{game.pk}/").content.decode()


def test_staff_bar_an_account_from_the_chats_from_the_accounts_list(admin_client, game, alice, bob):
    """A complaint that came by e-mail, with no line reported: the bar was only in the
    reports' queue.  From the accounts' list the chosen accounts are barred for 7 days
    (a longer bar stands), the account's history says so, and the bar is lifted there."""
    from datetime import timedelta

    from django.contrib.admin.models import LogEntry
    from django.utils import timezone

    accounts = reverse("admin:accounts_user_changelist")
    done = admin_client.post(
        accounts, {"action": "bar_from_chats", "_selected_action": [bob.pk]}, follow=True
    )
    assert "1 player may not write in the chats for 7 days." in done.content.decode()
    bob.refresh_from_db()
    assert timedelta(days=6, hours=23) < bob.chat_barred_until - timezone.now()
    with pytest.raises(NotAllowed, match="A moderator has barred you"):
        chat_post(game=game, user=bob, text="sorry")
    assert LogEntry.objects.filter(object_id=str(bob.pk), change_message__contains="7 days")
    longer = timezone.now() + timedelta(days=30)
    type(bob).objects.filter(pk=bob.pk).update(chat_barred_until=longer)
    admin_client.post(accounts, {"action": "bar_from_chats", "_selected_action": [bob.pk]})
    bob.refresh_from_db()
    assert bob.chat_barred_until == longer
    done = admin_client.post(
        accounts,
        {"action": "unbar_from_chats", "_selected_action": [bob.pk, alice.pk]},
        follow=True,
    )
    assert "1 player may write in the chats again." in done.content.decode()
    bob.refresh_from_db()
    assert bob.chat_barred_until is None
    assert chat_post(game=game, user=bob, text="sorry").text == "sorry"


def test_a_moderator_bars_neither_themselves_nor_a_superuser(client, alice, bob):
    """As suspending does: the chat bar of the accounts' list passes over one's own
    account and, for a moderator who is not a superuser, a superuser's, and says so."""
    from django.contrib.auth.models import Permission

    from tests.second_factor import staff_admin_session

    moderator = StaffUserFactory()
    moderator.user_permissions.add(Permission.objects.get(codename="change_user"))
    type(bob).objects.filter(pk=bob.pk).update(is_superuser=True, is_staff=True)
    staff_admin_session(client, moderator)
    accounts = reverse("admin:accounts_user_changelist")
    done = client.post(
        accounts,
        {"action": "bar_from_chats", "_selected_action": [alice.pk, bob.pk, moderator.pk]},
        follow=True,
    ).content.decode()
    assert "1 player may not write in the chats for 7 days." in done
    assert "Passed over" in done and "bob" in done
    alice.refresh_from_db(), bob.refresh_from_db(), moderator.refresh_from_db()
    assert alice.chat_barred_until is not None
    assert bob.chat_barred_until is None and moderator.chat_barred_until is None


def test_a_moderator_cannot_bar_staff_from_the_reports_queue(game, dora, alice):
    """The accounts' list passed over the staff's accounts for a moderator, but the
    reports' queue barred a superuser (Dora, who wrote the line) for a week, and a
    moderator could lift their own bar there."""
    mod = StaffUserFactory(username="mod", display_name="Mod")
    mod.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_chatreport", "change_chatreport"])
    )
    type(dora).objects.filter(pk=dora.pk).update(is_superuser=True)
    line = chat_post(game=game, user=dora, text="a superuser's line")
    chat_report(game=game, user=alice, message=line.pk)
    client = Client()
    staff_admin_session(client, mod)
    report = ChatReport.objects.get(message=line)
    done = client.post(
        QUEUE, {"action": "bar_authors", "_selected_action": [report.pk]}, follow=True
    ).content.decode()
    dora.refresh_from_db()
    assert dora.chat_barred_until is None
    # Said, as the accounts' list says it, not only "0 players may not write …".
    assert f"unless you are a superuser): {dora.username}." in done
