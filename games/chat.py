"""Table chat: short messages between the players of one table, and muting a player.

``chat_post`` is the one way a message is stored: only a player seated at the table
(accepted; resigned players too) may write, while the table is open, running or over
(not abandoned); the text is one line of at most ``CHAT_MAX_LENGTH`` characters, and
one player may send ``CHAT_BURST`` messages per ``CHAT_WINDOW`` at one table.  The
same text from the same player again within ``CHAT_REPEAT_WINDOW`` (a double click, a
retried request, even two in flight at once) is the same message, stored once.  It
stamps the table's ``chat_at`` under the game row's lock (the one lock order: the game
row first) and announces the change (``events.board_changed``), so every open board
sees the message at once through its stream, or with its next poll.

``chat_lines_delete`` takes lines away (staff moderating, an account being deleted),
and every open board of their tables sees it at once too.  ``chat_mute`` hides one
player's messages from another, at every table, on the pages, in the API and in the
e-mails.  ``chat_report`` lets a player at the table report another's message to the
staff, who are mailed once per line (``chat_report_mail``, settings.MANAGERS), hide it
(kept for them, shown to nobody) or dismiss the report with ``chat_reports_resolve``,
may show a hidden one again (``chat_lines_show_again``) and bar its author from writing
in the chats for a while (``chat_authors_bar``: ``chat_post`` refuses them until then).
Each of these answers records who gave it on the reports it answers (``resolved_by``)
and returns exactly what it changed, for the admin to write in each object's history.
Reading the chat is ``selectors.chat_lines``.
"""

from __future__ import annotations

import logging
import math
import unicodedata
from datetime import UTC, timedelta
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import mail_managers
from django.db import transaction
from django.db.models import Q, QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import STAFF_ACCOUNTS
from games import events
from games.errors import GameError, NotAllowed, NotYourSeat, TooSoon
from games.models import CHAT_MAX_LENGTH, ChatMessage, ChatMute, ChatReport, Game, Seat
from games.presenter import moment_text
from games.selectors import chat_open_to, player_named

User = get_user_model()

logger = logging.getLogger(__name__)

CHAT_BAR_DAYS = 7  # staff bar a reported line's author from writing in the chats this long
CHAT_BURST = 5  # messages …
CHAT_WINDOW = timedelta(seconds=30)  # … per this long, per player and table
CHAT_REPEAT_WINDOW = timedelta(seconds=10)  # the same line again this soon: the same message
# Invisible format characters that writing needs: the zero-width non-joiner (Persian,
# German ligatures), the zero-width joiner (emoji sequences such as families and the
# rainbow flag) and the tag characters of subdivision flags (England, Scotland, Wales).
# Every other format character goes, the direction overrides first of all.
KEPT_FORMAT = frozenset({"\u200c", "\u200d"}) | frozenset(map(chr, range(0xE0020, 0xE0080)))


def chat_text_clean(text: Any) -> str:
    """The message as stored: NFC, one line (line breaks and tabs become spaces, other
    control characters go), trimmed.  Raises ``NotAllowed`` with the reason when it is
    empty or too long."""
    if not isinstance(text, str):
        raise NotAllowed(_("A message must be text."))
    text = unicodedata.normalize("NFC", text)
    text = "".join(
        " " if ch in "\r\n\t" else ch
        for ch in text
        if ch in "\r\n\t"
        or ch in KEPT_FORMAT
        or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn")
    )
    text = " ".join(text.split())
    if all(ch in KEPT_FORMAT or ch.isspace() for ch in text):  # nothing to see
        raise NotAllowed(_("Write a message first."))
    if len(text) > CHAT_MAX_LENGTH:
        raise NotAllowed(
            _("A message may be at most %(most)s characters; yours has %(length)s.")
            % {"most": CHAT_MAX_LENGTH, "length": len(text)}
        )
    return text


def chat_barred_until(user: Any, now: Any = None) -> Any:
    """Until when staff barred ``user`` from writing in the chats, while it lasts;
    else None."""
    barred = getattr(user, "chat_barred_until", None)
    return barred if barred is not None and barred > (now or timezone.now()) else None


def chat_post(*, game: Game, user: Any, text: Any) -> ChatMessage:
    """Store ``user``'s message at ``game``'s table (see the module's docstring)."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotYourSeat(_("Log in and take a seat to chat."))
    now = timezone.now()
    barred = chat_barred_until(user, now)
    if barred is not None:
        raise NotAllowed(
            _("A moderator has barred you from writing in the table chats until %(moment)s.")
            % {"moment": moment_text(barred, timezone.get_current_timezone())}
        )
    clean = chat_text_clean(text)
    with transaction.atomic():
        locked = Game.objects.select_for_update().filter(pk=game.pk).first()
        if locked is None:
            raise NotAllowed(_("This table does not exist (any more)."))
        if locked.status == Game.Status.ABANDONED:
            raise NotAllowed(_("This table was closed."))
        if not Seat.objects.filter(game=locked, user=user, accepted=True).exists():
            raise NotYourSeat(_("Only the players at this table can write in its chat."))
        last = ChatMessage.objects.filter(game=locked, user=user).order_by("-id").first()
        if last is not None and last.text == clean and last.created_at >= now - CHAT_REPEAT_WINDOW:
            return last  # sent twice: the line is there once
        recent = list(
            ChatMessage.objects.filter(
                game=locked, user=user, created_at__gte=now - CHAT_WINDOW
            ).values_list("created_at", flat=True)
        )
        if len(recent) >= CHAT_BURST:
            # The next is taken once the oldest of the last CHAT_BURST leaves the window.
            oldest = sorted(recent)[-CHAT_BURST]
            wait = (oldest + CHAT_WINDOW - now).total_seconds()
            raise TooSoon(
                _(
                    "You have sent %(count)s messages in the last %(seconds)s seconds: "
                    "wait a moment before the next."
                )
                % {"count": len(recent), "seconds": CHAT_WINDOW.seconds},
                retry_after=math.ceil(wait),
            )
        message = ChatMessage.objects.create(game=locked, user=user, text=clean)
        Game.objects.filter(pk=locked.pk).update(chat_at=message.created_at)
        events.announce(events.board_changed, game_id=locked.pk, version=locked.version)
    return message


def chat_lines_delete(*, lines: QuerySet[ChatMessage]) -> int:
    """Delete the chat lines ``lines``; each table they leave is stamped and announced,
    under its game row's lock, as for a new line, so its open boards drop them at once.
    Returns how many went."""
    with transaction.atomic():
        return _chat_changed(lines, lambda here: here.delete()[0])


def _chat_changed(lines: QuerySet[ChatMessage], change: Any) -> int:
    """``change`` (a function of a table's share of ``lines``, returning how many it
    changed) for each table ``lines`` belong to, inside the caller's transaction: the
    table is locked (its game row, the one lock order), then stamped and announced as
    for a new line, so its open boards redraw their chat.  Returns the total changed."""
    changed = 0
    for game_id in sorted(set(lines.values_list("game_id", flat=True))):
        locked = Game.objects.select_for_update().filter(pk=game_id).first()
        if locked is None:
            continue
        changed += change(lines.filter(game_id=game_id))
        Game.objects.filter(pk=game_id).update(chat_at=timezone.now())
        events.announce(events.board_changed, game_id=game_id, version=locked.version)
    return changed


def chat_mute(*, user: Any, username: Any, mute: bool = True) -> Any:
    """Hide (``mute``) or show again the messages of the player ``username`` to
    ``user``, at every table.  Returns the muted player."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotYourSeat(_("Log in to mute a player."))
    other = player_named(username)
    if other is None:
        raise NotAllowed(_("There is no such player."))
    if other.pk == user.pk:
        raise NotAllowed(_("You cannot mute yourself."))
    if mute:
        ChatMute.objects.get_or_create(user=user, muted=other)
    else:
        ChatMute.objects.filter(user=user, muted=other).delete()
    return other


def chat_report(*, game: Game, user: Any, message: Any) -> ChatReport:
    """``user``, a player at ``game``'s table, reports the message with id ``message``
    (another player's, at this table, still shown) to the staff.  Reported twice (a
    double click, a retry), it is one report.  Returns the report."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotYourSeat(_("Log in and take a seat to report a message."))
    if isinstance(message, bool) or not isinstance(message, int):
        raise GameError(_("Choose the message by its number."))
    if not chat_open_to(game, user):
        raise NotYourSeat(_("Only the players at this table can report its messages."))
    with transaction.atomic():
        # The line's row locked: two first reports at once mail the moderators once.
        line = (
            ChatMessage.objects.select_for_update()
            .filter(pk=message, game=game, hidden_at__isnull=True)
            .first()
        )
        if line is None:
            raise NotAllowed(_("There is no such message at this table (any more)."))
        if line.user_id == user.pk:
            raise NotAllowed(_("This is your own message."))
        report, created = ChatReport.objects.get_or_create(message=line, reporter=user)
        if created and not (
            ChatReport.objects.filter(message=line, resolved_at__isnull=True)
            .exclude(pk=report.pk)
            .exists()
        ):  # the moderators hear of a line once, until they answered its reports
            events.announce(events.chat_reported, report_id=report.pk)
    return report


def chat_report_mail(*, report_id: int) -> int:
    """Tell the moderators (settings.MANAGERS) of the report ``report_id`` by e-mail:
    who reported whose line at which table, the line, and where to answer it (the
    queue, the report's own page, and the table's chat in the admin).  Nothing
    when nobody is to be told or the report was answered meanwhile.  Returns how many
    addresses it went to.  The mail backend's errors are raised (the task retries)."""
    if not settings.MANAGERS:
        return 0
    report = (
        ChatReport.objects.filter(pk=report_id, resolved_at__isnull=True)
        .select_related("message__user", "message__game", "reporter")
        .first()
    )
    if report is None:
        return 0
    line = report.message
    site = settings.SITE_URL
    # In the site's language and in UTC, whoever's request or task sends it.
    # Each person by the name the boards show and by the username (what the queue and the
    # accounts' list find them by, and what no other account shares).  Nothing of the
    # game itself: no card, no sealed choice, no standing order.
    with translation.override(settings.LANGUAGE_CODE), timezone.override(UTC):
        context = {
            "reporter": _person(report.reporter),
            "author": _person(line.user),
            "table": line.game_id,
            "text": line.text,
            "written_at": line.created_at,
            "reports": ChatReport.objects.filter(message=line, resolved_at__isnull=True).count(),
            "queue_url": site + reverse("admin:games_chatreport_changelist") + "?state=open",
            "report_url": site + reverse("admin:games_chatreport_change", args=[report.pk]),
            "chat_url": site
            + reverse("admin:games_chatmessage_changelist")
            + f"?game__id__exact={line.game_id}",
            "table_url": site + reverse("games:detail", args=[line.game_id]),
        }
        subject = _("Chat report at table %(table)s") % {"table": line.game_id}
        body = render_to_string("emails/chat_reported.txt", context)
    mail_managers(subject, body, fail_silently=False)
    logger.info(
        "chat report %s mailed to the moderators",
        report.pk,
        extra={"game_id": line.game_id, "report_id": report.pk},
    )
    return len(settings.MANAGERS)


class ReportsAnswered(NamedTuple):
    """What an answer of staff to chat reports changed, for the admin's history: the
    lines it hid (or showed again) and the reports it answered (every open report of
    those lines, not only the ones chosen)."""

    lines: list[int]
    reports: list[int]


def _person(user: Any) -> str:
    """A player for the moderators: the name the boards show, and the username."""
    return f"{user.public_name} ({user.username})"


def chat_reports_resolve(*, reports: QuerySet[ChatReport], hide: bool, by: Any) -> ReportsAnswered:
    """Staff's answer to ``reports``: hide their messages (``hide``: no page, API answer
    or e-mail shows them any more; every open board of their tables drops them at once,
    as for a deleted line) or leave them (dismiss); either closes every open report of
    those messages, not only the ones chosen, as answered by ``by`` (the member of
    staff; None: nobody known).  Returns the lines hidden and the reports answered."""
    now = timezone.now()
    outcome = ChatReport.Outcome.HIDDEN if hide else ChatReport.Outcome.DISMISSED
    message_ids = set(reports.values_list("message_id", flat=True))
    with transaction.atomic():
        hidden = _lines_hidden_set(message_ids, now) if hide else []
        answered = _reports_answered(
            ChatReport.objects.filter(message_id__in=message_ids, resolved_at__isnull=True),
            outcome=outcome,
            by=by,
            now=now,
        )
    return ReportsAnswered(lines=hidden, reports=answered)


def chat_lines_show_again(*, reports: QuerySet[ChatReport], by: Any) -> ReportsAnswered:
    """Staff (``by``) undo a hide: the messages of ``reports`` are shown again,
    everywhere (every open board of their tables gets them back at once), and their
    reports read dismissed, answered by ``by``.  Returns the lines shown again and the
    reports that changed."""
    hidden = set(
        ChatMessage.objects.filter(
            pk__in=reports.values("message_id"), hidden_at__isnull=False
        ).values_list("pk", flat=True)
    )  # a report of a line that is shown stays as it is
    with transaction.atomic():
        shown = _lines_hidden_set(hidden, None)
        answered = _reports_answered(
            ChatReport.objects.filter(message_id__in=shown),
            outcome=ChatReport.Outcome.DISMISSED,
            by=by,
            now=timezone.now(),
        )
    return ReportsAnswered(lines=shown, reports=answered)


def _reports_answered(
    reports: QuerySet[ChatReport], *, outcome: str, by: Any, now: Any
) -> list[int]:
    """Inside the caller's transaction: ``reports`` answered now with ``outcome`` by
    ``by``, their rows locked first, so that two members of staff answering at once
    each answer (and log) only the reports they changed.  Returns their ids."""
    ids = list(reports.select_for_update().order_by("pk").values_list("pk", flat=True))
    ChatReport.objects.filter(pk__in=ids).update(resolved_at=now, outcome=outcome, resolved_by=by)
    return ids


def _reported_authors(reports: QuerySet[ChatReport]) -> QuerySet[User]:
    return User.objects.filter(
        pk__in=ChatMessage.objects.filter(pk__in=reports.values("message_id")).values("user_id")
    )


def chat_authors_bar(
    *, reports: QuerySet[ChatReport], days: int | None = CHAT_BAR_DAYS, by: Any = None
) -> list[int]:
    """Staff (``by``) bar the authors of the lines of ``reports`` from writing in any
    table chat for ``days`` days from now (None: let them write again); they still read,
    mute and report.  A bar already running longer is kept.  Returns the ids of the
    accounts that changed."""
    return chat_users_bar(users=_reported_authors(reports), days=days, by=by)


def chat_authors_passed_over_text(*, reports: QuerySet[ChatReport], by: Any) -> str:
    """The authors of the lines of ``reports`` a bar by ``by`` passes over (out of the
    chat bar's reach), named for staff as the accounts' list names them; "" if none.
    A deleted account has no name to give and writes nothing any more."""
    authors = _reported_authors(reports)
    names = list(
        authors.exclude(pk__in=chat_bar_reach(authors, by=by).values("pk"))
        .filter(deleted_at__isnull=True)
        .order_by("username")
        .values_list("username", flat=True)
    )
    if not names:
        return ""
    return _(
        "Passed over (your own account and the staff’s accounts unless you are a "
        "superuser): %(names)s."
    ) % {"names": ", ".join(names)}


def chat_bar_history_text(days: int | None) -> str:
    """A bar (``days``) or its lifting (None) in the account's admin history, in English
    (one history reads in one language), without its full stop: the reports' queue adds
    the lines it answers."""
    if days:
        return f"Barred from the table chats for {days} days"
    return "May write in the table chats again"


def chat_bar_done_text(count: int, *, barred: bool) -> str:
    """What a bar (or its lifting) did, for staff: the reports' queue and the accounts'
    list say it alike."""
    if barred:
        said = ngettext(
            "%(count)d player may not write in the chats for 7 days.",
            "%(count)d players may not write in the chats for 7 days.",
            count,
        )
    else:
        said = ngettext(
            "%(count)d player may write in the chats again.",
            "%(count)d players may write in the chats again.",
            count,
        )
    return said % {"count": count}


def chat_bar_reach(users: QuerySet[User], *, by: Any = None) -> QuerySet[User]:
    """The accounts of ``users`` a chat bar by ``by`` may reach: not deleted ones, not
    ``by``'s own, and no staff account unless ``by`` is a superuser.  The one rule of
    the reports' queue and the accounts' list (which names the others as passed over)."""
    accounts = User.objects.filter(pk__in=users.values("pk"), deleted_at__isnull=True)
    if by is not None:
        accounts = accounts.exclude(pk=by.pk)
        if not by.is_superuser:
            accounts = accounts.exclude(STAFF_ACCOUNTS)
    return accounts


def chat_users_bar(
    *, users: QuerySet[User], days: int | None = CHAT_BAR_DAYS, by: Any = None
) -> list[int]:
    """Staff (``by``) bar ``users`` from writing in any table chat for ``days`` days from
    now (None: let them write again), from the reports' queue or the accounts' list.  A
    bar already running longer is kept.  Passed over, whichever list it came from: ``by``
    themselves, deleted accounts, and the staff's accounts unless ``by`` is a superuser
    (a moderator could bar another, or lift their own bar).  The rows are locked first
    (in one order), so the ids returned are exactly the accounts that changed, each for
    the admin's history."""
    accounts = chat_bar_reach(users, by=by)
    if days is None:
        until = None
        changing = accounts.filter(chat_barred_until__isnull=False)
    else:
        until = timezone.now() + timedelta(days=days)
        changing = accounts.filter(
            Q(chat_barred_until__isnull=True) | Q(chat_barred_until__lt=until)
        )
    with transaction.atomic():
        ids = list(changing.select_for_update().order_by("pk").values_list("pk", flat=True))
        User.objects.filter(pk__in=ids).update(chat_barred_until=until)
    return ids


def _lines_hidden_set(message_ids: set[int], hidden_at: Any) -> list[int]:
    """Hide (``hidden_at``: when) or show again (None) the chat lines ``message_ids``,
    table by table (``_chat_changed``: under its game row's lock, which every change of
    a table's lines takes).  Returns the ids of the lines that changed."""
    lines = ChatMessage.objects.filter(pk__in=message_ids, hidden_at__isnull=hidden_at is not None)
    changed: list[int] = []

    def change(here: QuerySet[ChatMessage]) -> int:
        ids = list(here.values_list("pk", flat=True))
        changed.extend(ids)
        return ChatMessage.objects.filter(pk__in=ids).update(hidden_at=hidden_at)

    _chat_changed(lines, change)
    return sorted(changed)
