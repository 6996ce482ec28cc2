"""Tables, seats and moves of High Society games, stored in the database.

A ``Game`` holds the engine's whole state as JSON (``State.to_json()``) and ``version``,
the number of ``Move`` rows stored so far.  Moves are an append-only log: replaying them
from the set-up kept in the state rebuilds the state (``replay.replayed_state``).
Every change goes through ``games.services``; nothing here changes a game by itself.

The state holds secrets (the deck order, sealed choices): never render it.  Pages, the
API and e-mails use ``selectors.game_view_for_user``, built on the engine's redacted
``player_view``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy, pgettext

from games.ai.orders import Defaults, Order
from games.engine import State

AI_LEVELS = ("random", "easy", "medium", "hard", "expert")
DEADLINE_HOURS = (24, 48, 72, 168)
MIN_PLAYERS = 3
MAX_PLAYERS = 5


# Staff scenario games: a fixed deck, or a fixed first player (games_open, the API's
# list, the lobby's lists: never shown to strangers; unrated, games.ratings).
SCENARIO = Q(scenario_deck__isnull=False) | Q(scenario_first_player__isnull=False)


class Game(models.Model):
    """One table: its options, its seats (``seats``) and, once started, its state."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        ACTIVE = "active", "Active"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    # The id is a plain sequence, assigned when the table is created: the deck is only
    # shuffled when the game starts, so an id never says anything about the deck.
    id = models.BigAutoField(primary_key=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)

    class ClosedReason(models.TextChoices):
        """Why a table closed before its game started (``services._table_close``), for
        staff: the admin shows it.  Blank: not closed, or closed before it was kept."""

        HOST = "host", gettext_lazy("Its host closed it")
        HOST_SUSPENDED = "suspended", gettext_lazy("Its host's account was suspended")
        HOST_DELETED = "deleted", gettext_lazy("Its host's account was deleted")
        WAITED = "waited", gettext_lazy("It waited too long for players, with nothing changed")

    # Abandoned because it waited WAITING_TABLE_DAYS unchanged (the stalled sweep), not
    # because its host closed it: what its page and the e-mails then say.
    closed_waiting = models.BooleanField(default=False)
    # Why and when it closed before its start (set with ``status`` "abandoned").
    closed_reason = models.CharField(
        max_length=16, choices=ClosedReason.choices, blank=True, default=""
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="games_created",
    )
    players = models.PositiveSmallIntegerField()
    advanced = models.JSONField(default=list, blank=True)
    memory_aid = models.BooleanField(default=False)
    move_deadline_hours = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        choices=[(h, f"{h // 24} day{'s' if h > 24 else ''}") for h in DEADLINE_HOURS],
    )
    # Staff-made scenario games only: the deck (top card first) and first player to use
    # instead of a secure shuffle.  Secret like the state: never shown to players.
    scenario_deck = models.JSONField(null=True, blank=True)
    scenario_first_player = models.PositiveSmallIntegerField(null=True, blank=True)
    state = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    deadline_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The table's last chat message: open boards poll it with the rest (it leaves
    # ``updated_at``, which the sweeps read, alone).
    chat_at = models.DateTimeField(null=True, blank=True)
    # The finished game this table is the rematch of (at most one rematch per game).
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    # The one-time value of the request that opened the table (the form's, or the API's
    # Idempotency-Key); empty if none: the same request again opens no second table.
    form_once = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "-created_at"], name="games_game_status_created"),
            models.Index(fields=["status", "deadline_at"], name="games_game_status_deadline"),
            # The lobby's games to watch (selectors.games_to_watch, games_just_finished).
            models.Index(fields=["status", "-updated_at"], name="games_game_status_updated"),
            models.Index(fields=["status", "-finished_at"], name="games_game_status_finished"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(players__gte=MIN_PLAYERS, players__lte=MAX_PLAYERS),
                name="games_game_players_3_to_5",
            ),
            models.CheckConstraint(
                condition=Q(move_deadline_hours__isnull=True)
                | Q(move_deadline_hours__in=DEADLINE_HOURS),
                name="games_game_deadline_hours_allowed",
            ),
            models.UniqueConstraint(
                fields=["created_by", "form_once"],
                condition=~Q(form_once=""),
                name="games_game_form_once",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.status})"

    def engine_state(self) -> State | None:
        """The engine ``State`` (secrets included), or ``None`` before the start."""
        if self.state is None:
            return None
        return State.from_json(self.state)

    @property
    def is_scenario(self) -> bool:
        """A staff scenario game (``SCENARIO``, row by row): its deck or first player fixed."""
        return self.scenario_deck is not None or self.scenario_first_player is not None

    @property
    def is_started(self) -> bool:
        return self.state is not None


class Seat(models.Model):
    """A place at a table: a person (invited, then accepted), a bot, or open.

    A resigned person keeps their ``user`` (the record says who sat there) and gets an
    ``ai_level``: from then on a bot plays the seat.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="game_seats",
    )
    ai_level = models.CharField(
        max_length=8,
        blank=True,
        default="",
        choices=[("", "None")] + [(level, level.capitalize()) for level in AI_LEVELS],
    )
    accepted = models.BooleanField(default=False)
    resigned = models.BooleanField(default=False)
    # How many moves the game had when its player resigned (or the seat was handed to a
    # bot): the moves before are the player's own, and the log names them so.
    resigned_after = models.PositiveIntegerField(null=True, blank=True)
    # The table's host handed the seat to a bot while its player was away: missed
    # deadlines, or days without a move at a table without them (``resigned`` is
    # set too: the bot plays on as for a resignation); the player did not resign, and
    # the pages say so.
    handed_over = models.BooleanField(default=False)
    # The person here took the seat by accepting an invitation to it (not an open seat):
    # if they leave before the start, the seat waits for the host, as when declined.
    by_invitation = models.BooleanField(default=False)
    joined_at = models.DateTimeField(null=True, blank=True)
    # Moves a bot made for this seat because its deadline passed (games.deadlines).
    timeouts = models.PositiveSmallIntegerField(default=0)
    # Who last declined an invitation to this seat while it waits (shown to the host);
    # cleared when the seat is taken or changed.
    declined_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # ``declined_by`` had accepted and then left the seat, rather than declining: what
    # the host and the table are told ("Bob left", not "Bob declined").
    declined_after_joining = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="games_seat_unique_position"),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=Q(user__isnull=False),
                name="games_seat_unique_user",
            ),
            models.CheckConstraint(
                condition=Q(resigned=False) | ~Q(ai_level=""),
                name="games_seat_resigned_has_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.position + 1} of game {self.game_id}: {self.display_name}"

    @property
    def empty(self) -> bool:
        """Nobody sits here: neither a person (invited or seated) nor a bot."""
        return self.user_id is None and not self.ai_level

    @property
    def is_open(self) -> bool:
        """Nobody sits here and anyone may take the seat."""
        return self.empty and self.declined_by_id is None

    @property
    def held(self) -> bool:
        """An invitation to this seat was declined: it waits for the host's choice (a
        bot, another invitation, or open to anyone), never taken by a stranger meanwhile."""
        return self.empty and self.declined_by_id is not None

    @property
    def is_bot(self) -> bool:
        """A bot plays this seat (a bot seat, or a person's seat after resigning)."""
        return bool(self.ai_level)

    @property
    def invited(self) -> bool:
        """A person is invited and has not accepted yet."""
        return self.user_id is not None and not self.accepted

    @property
    def is_filled(self) -> bool:
        return self.is_bot or (self.user_id is not None and self.accepted)

    @property
    def display_name(self) -> str:
        if self.user_id is not None:
            return self.user.public_name
        if self.ai_level:
            return gettext("Bot (%(level)s)") % {"level": pgettext("bot level", self.ai_level)}
        return gettext("Kept for the host") if self.held else gettext("Open seat")


class InvitationBlock(models.Model):
    """``user`` takes no invitations from ``blocked`` (set when declining one)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitation_blocks"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "blocked"], name="games_block_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} blocks invitations from {self.blocked_id}"


class Move(models.Model):
    """One action of the game log, append-only.  ``number`` is the game's version when
    the move was made (0-based), so a game's moves are numbered 0 … version-1."""

    class Actor(models.TextChoices):
        PLAYER = "player", "Player"
        BOT = "bot", "Bot"
        FORCED = "forced", "Forced"
        DEADLINE = "deadline", "Deadline"
        ORDER = "order", "Standing order"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    actor = models.CharField(max_length=10, choices=Actor.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="game_moves",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # How many public log events the game had after this move: move n's lines are the
    # events from the previous move's ``log_end`` to its own.  Null for moves stored
    # before it was kept (their board shows the log without numbers).
    log_end = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            # The backstop behind the row lock and the version check (docs/architecture.md).
            models.UniqueConstraint(fields=["game", "number"], name="games_move_unique_number"),
        ]

    def __str__(self) -> str:
        # Not the action: a Yacht Club choice stays secret until all are in.
        return f"Move {self.number} of game {self.game_id} (seat {self.seat}, {self.actor})"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError("Moves are append-only: a stored move is never changed.")
        super().save(*args, **kwargs)


class StandingOrder(models.Model):
    """A player's standing orders at one seat (games.ai.orders): hidden information.

    Only its owner ever sees it; the other players see the moves it makes, nothing
    more.  ``kind`` (with ``maximum``, ``cards``, ``seal``) and ``discard`` are for the
    card up for auction when it was given, the ``auction``-th card revealed: they end
    with that auction.  ``luxury_below`` and ``misfortune_max`` stand for every coming
    auction.  Changed only by the game services, under the game's lock.
    """

    class Kind(models.TextChoices):
        NONE = "", "None"
        PASS = "pass", "Pass"
        BID = "bid", "Bid up to"
        SEAL = "seal", "Yacht Club choice"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="standing_orders")
    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="standing_order")
    auction = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=4, choices=Kind.choices, blank=True, default="")
    maximum = models.PositiveIntegerField(null=True, blank=True)
    cards = models.JSONField(null=True, blank=True)  # bid only from these (null: any)
    seal = models.PositiveIntegerField(null=True, blank=True)
    discard = models.CharField(max_length=12, blank=True, default="")
    luxury_below = models.PositiveSmallIntegerField(null=True, blank=True)
    misfortune_max = models.PositiveIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "seat"]

    def __str__(self) -> str:
        # Never the order itself: it is secret until it acts.
        return f"Standing orders of seat {self.seat_id} in game {self.game_id}"

    def order(self) -> Order | None:
        """The order for the card of ``auction`` (None: none)."""
        if not self.kind and not self.discard:
            return None
        return Order(
            kind=self.kind,
            maximum=self.maximum,
            cards=tuple(self.cards) if self.cards is not None else None,
            seal=self.seal,
            discard=self.discard,
        )

    def defaults(self) -> Defaults:
        return Defaults(luxury_below=self.luxury_below, misfortune_max=self.misfortune_max)

    def order_put(self, order: Order, auction: int) -> None:
        self.auction = auction
        self.kind = order.kind
        self.maximum = order.maximum if order.kind == "bid" else None
        self.cards = sorted(order.cards) if order.kind == "bid" and order.cards else None
        self.seal = order.seal if order.kind == "seal" else None
        self.discard = order.discard

    def order_clear(self) -> None:
        self.auction, self.kind, self.maximum, self.cards, self.seal = None, "", None, None, None
        self.discard = ""

    def defaults_put(self, defaults: Defaults) -> None:
        self.luxury_below = defaults.luxury_below
        self.misfortune_max = defaults.misfortune_max


class Notification(models.Model):
    """One e-mail the site owes a player: the outbox of async play (games.notifications).

    A row is created once per reason, and the unique (user, kind, key) makes that
    creation the claim: a sweep run twice, or a task delivered twice, finds the row
    there and sends nothing more.  ``key`` names the reason: ``<game>:<turn>`` for a
    turn or a reminder (the turn's start, in microseconds), ``<game>:<move number>`` for
    a deadline move, the date for a daily digest, ``<game>`` for an invitation or a
    game's result, ``<game>:<user id>`` for an invitation that user declined (the row
    is the host's).  A row waits (``pending``) until it is sent, skipped (no longer
    relevant, or the player does not want it) or has failed too often; the outbox sweep
    retries pending rows whose ``due_at`` has come.
    """

    class Kind(models.TextChoices):
        TURN = "turn", "Your turn"
        REMINDER = "reminder", "Deadline reminder"
        DEADLINE = "deadline", "A bot moved for you"
        DIGEST = "digest", "Daily digest"
        INVITATION = "invitation", "Invitation to a table"
        DECLINED = "declined", "Invitation declined"
        GAME_OVER = "game_over", "Game over"
        HANDED_OVER = "handed_over", "Seat handed to a bot"
        CLOSED = "closed", "Table closed"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENT = "sent", "Sent"
        SKIPPED = "skipped", "Skipped"
        FAILED = "failed", "Failed"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    key = models.CharField(max_length=64)
    # The turn a turn e-mail or reminder is about (Game.turn_started_at when created);
    # the move number of a deadline move.
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # The deadline a reminder is about: a vacation that moves the turn's deadline owes
    # a reminder for the new one (null: a reminder made before this was kept, for any).
    deadline_at = models.DateTimeField(null=True, blank=True)
    move_number = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    due_at = models.DateTimeField()  # when a sweep may (re)try a pending row
    claimed_until = models.DateTimeField(null=True, blank=True)  # a sender is at work
    attempts = models.PositiveSmallIntegerField(default=0)
    note = models.CharField(max_length=200, blank=True)  # why skipped, or the last error
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # When its Web Push notifications were queued (once: setting it is the claim, so a
    # retried e-mail never pushes twice).
    pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "key"], name="games_notification_once"),
        ]
        indexes = [
            models.Index(fields=["status", "due_at"], name="games_notif_status_due"),
            models.Index(fields=["game", "kind", "turn_started_at"], name="games_notif_game_turn"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for user {self.user_id} ({self.status})"


CHAT_MAX_LENGTH = 300


class ChatMessage(models.Model):
    """A short message of a player to the others at their table."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    text = models.CharField(max_length=CHAT_MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)
    # Staff hid the line after a report: no page, API answer or e-mail shows it any
    # more, and it stays here, with its reports, for staff to judge by.
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "id"]
        indexes = [models.Index(fields=["game", "-id"], name="games_chat_game_recent")]

    def __str__(self) -> str:
        return f"Message {self.pk} at table {self.game_id}"


class ChatReport(models.Model):
    """A player at the table reported ``message`` to the staff (once per player and
    message).  Open until staff hid the message or dismissed the report."""

    class Outcome(models.TextChoices):
        HIDDEN = "hidden", gettext_lazy("Message hidden")
        DISMISSED = "dismissed", gettext_lazy("Dismissed")

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, blank=True)
    # The member of staff who answered it last (hid, dismissed, or showed the line
    # again); each answer is also in the report's admin history.
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="games_chat_report_once"),
        ]
        indexes = [models.Index(fields=["resolved_at"], name="games_chat_report_open")]

    def __str__(self) -> str:
        return f"Report of message {self.message_id}"


class ChatMute(models.Model):
    """``user`` does not see ``muted``'s chat messages, at any table."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes"
    )
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "muted"], name="games_chat_mute_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"
