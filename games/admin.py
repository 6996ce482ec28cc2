"""Read-only admin of games, seats and moves, and the moderation of the table chat and
the e-mail outbox (staff only, as Django's admin is).

Games are changed through ``games.services`` only, so nothing can be added, edited or
deleted here: a move is never deleted (the replay and the record replay every move: one
missing breaks them), nor a game (its players' records, ratings and head-to-head
figures rest on it).  A running game's state holds secrets
(the deck order, sealed choices) that a staff member who also plays must not see: it
is shown only once the game is over.
"""

import json

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.db.models import Count, F
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from games.chat import (
    CHAT_BAR_DAYS,
    chat_authors_bar,
    chat_authors_passed_over_text,
    chat_bar_done_text,
    chat_bar_history_text,
    chat_lines_delete,
    chat_lines_show_again,
    chat_reports_resolve,
)
from games.models import ChatMessage, ChatReport, Game, Move, Notification, Seat

HIDDEN_WHILE_RUNNING = _("(hidden until the game is over: it holds the deck order)")
SEALED_WHILE_RUNNING = _("(hidden until the game is over: it holds a sealed choice)")
# A table closed before its reason was kept (games/migrations/0023_game_closed_reason).
CLOSED_UNKNOWN = _("Unknown (closed before the reason was kept)")

# A game's JSON fields (its state above all, which grows with every move): no list shows
# them, so no list loads them, neither the games' own nor, through ``game``, the lists of
# moves, chat lines and e-mails.  A game's page reads them when it shows them.
GAME_JSON_FIELDS = tuple(
    field.name for field in Game._meta.concrete_fields if isinstance(field, models.JSONField)
)
RELATED_GAME_JSON_FIELDS = tuple(f"game__{name}" for name in GAME_JSON_FIELDS)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser


class GameRowAdmin(ReadOnlyAdmin):
    """A list whose rows belong to a game and a player (moves, chat lines, e-mails):
    each names its game as ``Game 12 (active)``, read with the row in the page's one
    query, without the game's JSON."""

    list_select_related = ("game", "user")

    def get_queryset(self, request):
        # Selected here, the list's own ``list_select_related`` is not applied again.
        return (
            super()
            .get_queryset(request)
            .select_related(*self.list_select_related)
            .defer(*RELATED_GAME_JSON_FIELDS)
        )

    @admin.display(description=_("game"), ordering="game_id")
    def game_shown(self, row):
        return "-" if row.game_id is None else str(row.game)


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("position", "user", "ai_level", "accepted", "resigned", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class ClosedReasonFilter(admin.SimpleListFilter):
    """The tables closed before their start, by why: their host, their host's suspension
    or deletion, the wait, or unknown (closed before the reason was kept)."""

    title = _("reason for closing")
    parameter_name = "closed"

    def lookups(self, request, model_admin):
        return [*Game.ClosedReason.choices, ("unknown", CLOSED_UNKNOWN)]

    def queryset(self, request, queryset):
        if self.value() == "unknown":
            return queryset.filter(status=Game.Status.ABANDONED, closed_reason="")
        if self.value() in Game.ClosedReason.values:
            return queryset.filter(closed_reason=self.value())
        return queryset


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    # Secret while a game runs (the deck order, hands, sealed choices): the list's URL
    # filters (``?state__setup_deck__16=lux10``) would answer "1 game" or "0 games"
    # about them, one question at a time, so the site's ``admin_lookups.LookupGuard``
    # refuses any lookup on them (400), whatever the value and the game.
    secret_fields = frozenset({"state", "scenario_deck", "scenario_first_player", "result"})
    list_display = ("id", "status", "players", "created_by", "version", "created_at", "finished_at")
    list_filter = ("status", ClosedReasonFilter, "players", "memory_aid")
    search_fields = (
        "=id",
        "created_by__username",
        "seats__user__username",
        "seats__user__display_name",
    )
    list_select_related = ("created_by",)
    # Newest first, by the primary key (numbers are given as tables are made): the
    # model's own order (``-created_at, -id``) has no index and sorts every game.
    ordering = ("-id",)
    date_hierarchy = "created_at"
    inlines = [SeatInline]
    fields = (
        "status",
        "closed_shown",
        "closed_at",
        "created_by",
        "players",
        "advanced",
        "memory_aid",
        "move_deadline_hours",
        "version",
        "turn_started_at",
        "deadline_at",
        "created_at",
        "started_at",
        "finished_at",
        "updated_at",
        "result",
        "state_shown",
        "scenario_shown",
    )
    readonly_fields = fields
    CLOSED_FIELDS = ("closed_shown", "closed_at")

    def get_queryset(self, request):
        return super().get_queryset(request).defer(*GAME_JSON_FIELDS)

    def get_fields(self, request, obj=None):
        """Why and when it closed, on the page of a table closed before its start only."""
        fields = super().get_fields(request, obj)
        if obj is not None and obj.status == Game.Status.ABANDONED:
            return fields
        return [name for name in fields if name not in self.CLOSED_FIELDS]

    @admin.display(description=_("reason for closing"))
    def closed_shown(self, game):
        """Its host closed it, their account was suspended or deleted, or it waited
        too long (``services._table_close``); unknown for a table closed before."""
        if game.status != Game.Status.ABANDONED:
            return "-"
        return game.get_closed_reason_display() if game.closed_reason else CLOSED_UNKNOWN

    @admin.display(description=_("state"))
    def state_shown(self, game):
        if game.state is None:
            return "-"
        if game.status != Game.Status.FINISHED:
            return HIDDEN_WHILE_RUNNING
        return format_html("<pre>{}</pre>", json.dumps(game.state, indent=1))

    @admin.display(description=_("scenario deck / first player"))
    def scenario_shown(self, game):
        if not game.is_scenario:
            return "-"
        if game.status != Game.Status.FINISHED:
            return HIDDEN_WHILE_RUNNING
        return f"{game.scenario_deck} / {game.scenario_first_player}"

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Move)
class MoveAdmin(GameRowAdmin):
    secret_fields = frozenset({"action"})  # a sealed choice: as GameAdmin's
    list_display = ("game_shown", "number", "seat", "actor", "action_shown", "user", "created_at")
    list_filter = ("actor",)
    search_fields = ("=game__id", "user__username")
    # By the move's own columns, newest game first, read backwards from the index of
    # the unique (game, number).  The model's order (``game, number``) sorts by the
    # game's own order: every move joined with its game and sorted, at each page.
    ordering = ("-game_id", "-number")
    fields = ("game", "number", "seat", "actor", "action_shown", "user", "created_at")
    readonly_fields = fields

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("action"))
    def action_shown(self, move):
        if move.action.get("type") == "sealed_bid" and move.game.status != Game.Status.FINISHED:
            return SEALED_WHILE_RUNNING
        return json.dumps(move.action)


@admin.register(ChatMessage)
class ChatMessageAdmin(GameRowAdmin):
    """The table chat, to moderate: find a player's messages, delete an abusive one
    (staff with the delete permission; the players' pages no longer show it)."""

    list_display = ("created_at", "game_shown", "author", "text", "hidden_at")
    list_filter = (("hidden_at", admin.EmptyFieldListFilter),)
    search_fields = ("=game__id", "user__username", "user__display_name", "text")
    # Newest table first, its lines in order: the index (game, -id) read backwards,
    # not the model's ``game, id``, which sorts by the game's own order (a join).
    ordering = ("-game_id", "id")
    date_hierarchy = "created_at"
    fields = ("game", "user", "text", "created_at", "hidden_at")
    readonly_fields = fields

    @admin.display(description=_("author"), ordering="user__username")
    def author(self, message):
        """The name the players see, the username beside it, and a link to the account."""
        return _account_link(message.user)

    def has_delete_permission(self, request, obj=None):
        return request.user.has_perm("games.delete_chatmessage")

    def get_deleted_objects(self, objs, request):
        # A reported line's reports go with it: the reports admin deletes nothing (its
        # answers are hide and dismiss), so Django counted them as a permission the
        # deleting member of staff lacked, and no reported line, the very ones to
        # delete, could be deleted, not even by a superuser.
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        perms_needed.discard(ChatReport._meta.verbose_name)
        return deleted, counts, perms_needed, protected

    # Deleting goes through the chat's own service, so every open board of the table
    # drops the line at once, as it shows a new one.
    def delete_model(self, request, obj):
        chat_lines_delete(lines=ChatMessage.objects.filter(pk=obj.pk))

    def delete_queryset(self, request, queryset):
        chat_lines_delete(lines=queryset)


def _account_link(user):
    """A player as staff read them: the name the boards show, linked to the account, and
    the username beside it."""
    return format_html(
        '<a href="{}">{}</a> ({})',
        reverse("admin:accounts_user_change", args=[user.pk]),
        user.public_name,
        user.username,
    )


class ReportStateFilter(admin.SimpleListFilter):
    """Open reports (the staff's queue) or those answered already."""

    title = pgettext_lazy("chat report", "state")
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return (
            ("open", pgettext_lazy("chat report", "Open")),
            ("resolved", pgettext_lazy("chat report", "Answered")),
        )

    def queryset(self, request, queryset):
        if self.value() == "open":
            return queryset.filter(resolved_at__isnull=True)
        if self.value() == "resolved":
            return queryset.filter(resolved_at__isnull=False)
        return queryset


@admin.register(ChatReport)
class ChatReportAdmin(ReadOnlyAdmin):
    """Chat messages players reported: the staff's queue (open reports first).  Staff
    with the permission to change reports hide a message (shown to nobody any more,
    kept here with its reports) or dismiss its reports; either answers every open report
    of that message.  A hide made by mistake is undone with "Show … again".  Each report
    says who answered it last ("resolved by"), and its history every answer."""

    list_display = (
        "message_text",
        "author",
        "table",
        "reporter_shown",
        "reports",
        "state",
        "resolved_by",
        "created_at",
    )
    list_filter = (ReportStateFilter, "outcome")
    # The moderators' e-mail names both players by the name the boards show and by the
    # username: either finds the report here.
    search_fields = (
        "=message__game__id",
        "message__user__username",
        "message__user__display_name",
        "reporter__username",
        "reporter__display_name",
        "message__text",
    )
    ordering = (F("resolved_at").desc(nulls_first=True), "-created_at")
    list_select_related = ("message__user", "reporter", "resolved_by")
    fields = (
        "message_text",
        "author",
        "author_messages",
        "table",
        "reporter_shown",
        "created_at",
        "resolved_at",
        "outcome",
        "resolved_by",
    )
    readonly_fields = fields
    actions = ("hide_messages", "dismiss_reports", "show_again", "bar_authors", "unbar_authors")

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related(*self.list_select_related)
            .annotate(report_count=Count("message__reports"))
        )

    @admin.display(description=_("message"))
    def message_text(self, report):
        return report.message.text

    @admin.display(description=_("author"), ordering="message__user__username")
    def author(self, report):
        """The author's public name and username, linked to their account."""
        return _account_link(report.message.user)

    @admin.display(description=_("reporter"), ordering="reporter__username")
    def reporter_shown(self, report):
        """The reporter's public name and username, linked to their account."""
        return _account_link(report.reporter)

    @admin.display(description=_("all their messages"))
    def author_messages(self, report):
        """Everything the author wrote, at every table: one line, or a habit?"""
        user = report.message.user
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:games_chatmessage_changelist") + f"?user__id__exact={user.pk}",
            _("all their messages"),
        )

    @admin.display(description=_("table"), ordering="message__game_id")
    def table(self, report):
        """The table, and its chat around the message, in context."""
        game_id = report.message.game_id
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:games_chatmessage_changelist") + f"?game__id__exact={game_id}",
            _("Table %(number)s: its chat") % {"number": game_id},
        )

    @admin.display(description=_("reports"), ordering="report_count")
    def reports(self, report):
        return report.report_count

    @admin.display(description=pgettext_lazy("chat report", "state"), ordering="resolved_at")
    def state(self, report):
        if report.resolved_at is None:
            return pgettext_lazy("chat report", "Open")
        return report.get_outcome_display()

    def has_change_permission(self, request, obj=None):
        return request.user.has_perm("games.change_chatreport")

    def has_delete_permission(self, request, obj=None):
        return False

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        # A report's page is for reading: its answers are the list's actions.
        extra_context = {
            **(extra_context or {}),
            "show_save": False,
            "show_save_and_continue": False,
        }
        return super().changeform_view(request, object_id, form_url, extra_context)

    # Each answer is one transaction with the lines it leaves in the admin's history (in
    # English, as the accounts' list writes them: one history reads in one language), on
    # every report it answered and on every account it barred or let write again.

    @admin.action(
        description=_("Hide the reported messages (shown to nobody, kept here)"),
        permissions=["change"],
    )
    def hide_messages(self, request, queryset):
        with transaction.atomic():
            done = chat_reports_resolve(reports=queryset, hide=True, by=request.user)
            self._reports_logged(request, done.reports, "Hid the message (report answered).")
        n = len(done.lines)
        said = ngettext("%(count)d message hidden.", "%(count)d messages hidden.", n)
        self._done(request, said, n)

    @admin.action(
        description=_("Show the hidden messages again (undo a hide)"),
        permissions=["change"],
    )
    def show_again(self, request, queryset):
        with transaction.atomic():
            done = chat_lines_show_again(reports=queryset, by=request.user)
            self._reports_logged(
                request, done.reports, "Showed the message again (the report reads dismissed)."
            )
        n = len(done.lines)
        said = ngettext("%(count)d message shown again.", "%(count)d messages shown again.", n)
        self._done(request, said, n)

    @admin.action(
        description=_("Dismiss the selected reports (the messages stay)"),
        permissions=["change"],
    )
    def dismiss_reports(self, request, queryset):
        with transaction.atomic():
            done = chat_reports_resolve(reports=queryset, hide=False, by=request.user)
            self._reports_logged(request, done.reports, "Dismissed the report (the message stays).")
        n = len(done.reports)
        said = ngettext("%(count)d report dismissed.", "%(count)d reports dismissed.", n)
        self._done(request, said, n)

    @admin.action(
        description=_("Bar the authors of the reported messages from the chats for 7 days"),
        permissions=["change"],
    )
    def bar_authors(self, request, queryset):
        self._authors_bar(request, queryset, days=CHAT_BAR_DAYS)

    @admin.action(
        description=_("Let the authors of the reported messages write in the chats again"),
        permissions=["change"],
    )
    def unbar_authors(self, request, queryset):
        self._authors_bar(request, queryset, days=None)

    def _authors_bar(self, request, queryset, *, days: int | None) -> None:
        """Bar (``days``) or let write again (None) the authors of the chosen reports'
        lines, each change in the account's history with the lines it answers."""
        with transaction.atomic():
            changed = chat_authors_bar(reports=queryset, days=days, by=request.user)
            lines: dict[int, list[str]] = {}
            for author, message, table in (
                ChatMessage.objects.filter(
                    pk__in=queryset.values("message_id"), user_id__in=changed
                )
                .order_by("pk")
                .values_list("user_id", "pk", "game_id")
            ):
                lines.setdefault(author, []).append(f"message {message} at table {table}")
            for user in get_user_model().objects.filter(pk__in=changed).order_by("username"):
                reported = ", ".join(lines.get(user.pk, []))
                self.log_change(
                    request,
                    user,
                    f"{chat_bar_history_text(days)} (chat reports queue: {reported}).",
                )
        self.message_user(
            request, chat_bar_done_text(len(changed), barred=bool(days)), messages.SUCCESS
        )
        passed_over = chat_authors_passed_over_text(reports=queryset, by=request.user)
        if passed_over:
            self.message_user(request, passed_over, messages.WARNING)

    def _reports_logged(self, request, report_ids: list[int], said: str) -> None:
        """``said`` in the history of each report of ``report_ids``."""
        for report in ChatReport.objects.filter(pk__in=report_ids).order_by("pk"):
            self.log_change(request, report, said)

    def _done(self, request, said: str, count: int) -> None:
        """What an action did, in a sentence with its count."""
        self.message_user(request, said % {"count": count}, messages.SUCCESS)


@admin.register(Notification)
class NotificationAdmin(GameRowAdmin):
    """The e-mail outbox: what is owed, sent, skipped or failed, and why (``note``)."""

    list_display = (
        "created_at",
        "kind",
        "user",
        "game_shown",
        "status",
        "attempts",
        "due_at",
        "note",
    )
    list_filter = ("status", "kind")
    search_fields = ("user__username", "=game__id")
    # Newest first by the primary key (rows are numbered as they are made): the model's
    # ``-created_at, -id`` has no index and sorts the whole outbox.
    ordering = ("-id",)
    date_hierarchy = "created_at"
    fields = (
        "user",
        "game",
        "kind",
        "key",
        "status",
        "attempts",
        "note",
        "due_at",
        "created_at",
        "sent_at",
        "pushed_at",
    )
    readonly_fields = fields

    def has_delete_permission(self, request, obj=None):
        return False
