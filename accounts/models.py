"""The user model."""

from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.validators import DISPLAY_NAME_MAX_LENGTH, UsernameCharacters, validate_display_name

# The accounts of ``User.is_staff_member``, in a query.
STAFF_ACCOUNTS = Q(is_staff=True) | Q(is_superuser=True)


class User(AbstractUser):
    """A person with an account.  ``username`` is the unique handle used in URLs and
    the API; ``display_name`` is what other players see (the username until it is set)."""

    # AbstractUser's, with words for its characters that leave out the "@" it allows
    # and the site refuses (``UsernameCharacters``).
    username = models.CharField(
        _("username"),
        max_length=150,
        unique=True,
        help_text=_("Letters, digits and . + - _ only."),
        validators=[UsernameCharacters()],
        error_messages={"unique": _("A user with that username already exists.")},
    )
    display_name = models.CharField(
        max_length=DISPLAY_NAME_MAX_LENGTH,
        blank=True,
        validators=[validate_display_name],
        help_text="The name other players see. Empty means the username.",
    )
    # How the username and the display name read (accounts.names.name_key), kept by
    # save(): a new name is compared with every stored one through them.
    username_key = models.CharField(max_length=150, blank=True, db_index=True, editable=False)
    display_name_key = models.CharField(
        max_length=DISPLAY_NAME_MAX_LENGTH * 2, blank=True, db_index=True, editable=False
    )

    # The kinds of game e-mail a player may switch off one by one.
    EMAIL_KINDS = {
        "turn": _("Your turn"),
        "reminder": _("Reminders before a deadline or a hand-over"),
        "deadline": _("A bot moved for you"),
        "digest": _("The daily digest"),
        "invitation": _("Invitations to a table"),
        "declined": _("An invitation to your table declined"),
        "game_over": _("The result of a game you were away for"),
        "handed_over": _("Your seat handed to a bot while you were away"),
        "closed": _("A table you were at closed before its game started"),
    }
    # The same kinds inside a sentence ("Stop these e-mails (your turn)").
    EMAIL_KIND_PHRASES = {
        "turn": pgettext_lazy("e-mail kind in a sentence", "your turn"),
        "reminder": pgettext_lazy(
            "e-mail kind in a sentence", "reminders before a deadline or a hand-over"
        ),
        "deadline": pgettext_lazy("e-mail kind in a sentence", "a bot moved for you"),
        "digest": pgettext_lazy("e-mail kind in a sentence", "the daily digest"),
        "invitation": pgettext_lazy("e-mail kind in a sentence", "invitations to a table"),
        "declined": pgettext_lazy(
            "e-mail kind in a sentence", "invitations to your tables declined"
        ),
        "game_over": pgettext_lazy(
            "e-mail kind in a sentence", "the result of a game you were away for"
        ),
        "handed_over": pgettext_lazy(
            "e-mail kind in a sentence", "your seat handed to a bot while you were away"
        ),
        "closed": pgettext_lazy(
            "e-mail kind in a sentence", "tables you were at closed before their game started"
        ),
    }

    # The kinds of game notice that may also come as a Web Push notification, on the
    # devices where the player turned push on (PushSubscription); each can be off.
    PUSH_KINDS = {
        "turn": _("Your turn"),
        "reminder": _("Reminders before a deadline or a hand-over"),
        "deadline": _("A bot moved for you"),
        "invitation": _("Invitations to a table"),
        "declined": _("An invitation to your table declined"),
        "game_over": _("The result of a game you were away for"),
        "handed_over": _("Your seat handed to a bot while you were away"),
        "closed": _("A table you were at closed before its game started"),
    }

    class TurnEmails(models.TextChoices):
        EVERY = "every", _("An e-mail whenever it is my turn")
        DIGEST = "digest", _("One e-mail a day listing the games waiting for me")
        NONE = "none", _("No e-mails about games")

    # Async play (docs/architecture.md, "Async play"): how the player hears about their turns, and
    # their vacation, which pauses their move deadlines (games.deadlines).
    turn_emails = models.CharField(
        max_length=6,
        choices=TurnEmails.choices,
        default=TurnEmails.EVERY,
        help_text="E-mails about games: every turn, a daily digest, or none.",
    )
    # Kinds of game e-mail the player switched off one by one (EMAIL_KINDS), on top of
    # ``turn_emails``: the unsubscribe link of each e-mail switches off its own kind.
    emails_off = models.JSONField(default=list, blank=True)
    # Kinds of push notification the player switched off (PUSH_KINDS); push itself is on
    # for the devices that subscribed, whatever ``turn_emails`` says.
    push_off = models.JSONField(default=list, blank=True)
    # The IANA time zone the player reads times in ("Europe/Berlin"); empty: the
    # browser's own (the pages), UTC (the e-mails).
    time_zone = models.CharField(max_length=64, blank=True, default="")
    # The language the player reads the site and their e-mails in (settings.LANGUAGES);
    # empty until they sign in or choose: then the browser's (pages), English (e-mails).
    language = models.CharField(max_length=8, blank=True, default="")
    vacation_until = models.DateTimeField(null=True, blank=True)
    # Staff barred the player from writing in the table chats until then (games.chat:
    # the reports queue's action); reading, muting and reporting stay open to them.
    chat_barred_until = models.DateTimeField(null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(default=0)
    vacation_days_used = models.PositiveSmallIntegerField(default=0)
    # When the player deleted their account (accounts.deletion): the row stays, emptied
    # of everything personal, so that the records of the games they played stay whole.
    deleted_at = models.DateTimeField(null=True, blank=True)

    @property
    def email_language(self) -> str:
        """The language of this player's e-mails: their own, else the site's default."""
        from django.conf import settings

        return self.language or settings.LANGUAGE_CODE

    def save(self, *args, **kwargs) -> None:
        from accounts.names import name_key

        self.username_key = name_key(self.username)
        self.display_name_key = name_key(self.display_name)
        fields = kwargs.get("update_fields")
        if fields is not None and {"username", "display_name"} & set(fields):
            kwargs["update_fields"] = {*fields, "username_key", "display_name_key"}
        super().save(*args, **kwargs)

    @property
    def public_username(self) -> str | None:
        """The username others may read and link to; None once the account is deleted:
        its stand-in ``~deleted-<id>``, the same in every game, would tie together the
        games of someone the others know from one of them."""
        return None if self.deleted_at is not None else self.username

    @property
    def public_name(self) -> str:
        if self.deleted_at is not None:
            return gettext("Deleted player")
        return self.display_name or self.username

    def on_vacation(self, now: datetime) -> bool:
        return self.vacation_until is not None and self.vacation_until > now

    def vacation_mark(self, now: datetime) -> str:
        """The vacation as a page shows it, for its form to send back: when it ends, or
        "none".  A form whose mark no longer matches was sent twice, or from an old page."""
        return self.vacation_until.isoformat() if self.on_vacation(now) else "none"

    def vacation_days_taken(self, year: int) -> int:
        """Vacation days counted against ``year`` (the count starts again each year)."""
        return self.vacation_days_used if self.vacation_year == year else 0

    def vacation_days_left(self, now: datetime) -> int:
        """Days of vacation still to take this calendar year."""
        return max(0, settings.VACATION_DAYS_PER_YEAR - self.vacation_days_taken(now.year))

    # "Sign out everywhere": raising it ends every session signed in before (the session
    # hash below changes), like a new password does.
    session_generation = models.PositiveIntegerField(default=0)
    # When the change of address last taken back (accounts.email_undo) was made: a link
    # to take back a later change (an intruder's second one) no longer works.
    email_undone_back_to = models.DateTimeField(null=True, blank=True, editable=False)

    def get_session_auth_hash(self) -> str:
        return self._session_hash()

    def get_session_auth_fallback_hash(self):
        for secret in settings.SECRET_KEY_FALLBACKS:
            yield self._session_hash(secret=secret)

    def _session_hash(self, secret: str | None = None) -> str:
        """Django's hash of the password, and the session generation once raised (so
        the sessions of users who never signed out everywhere are left as they were)."""
        value = self.password
        if self.session_generation:
            value = f"{value}:{self.session_generation}"
        return salted_hmac(
            "django.contrib.auth.models.AbstractBaseUser.get_session_auth_hash",
            value,
            secret=secret,
            algorithm="sha256",
        ).hexdigest()

    def __str__(self) -> str:
        return self.public_name

    @property
    def is_staff_member(self) -> bool:
        """Staff or a superuser: an account only a superuser may change, suspend, bar
        from the chats or strip of its tokens (``STAFF_ACCOUNTS`` in a query)."""
        return bool(self.is_staff or self.is_superuser)


class RetiredName(models.Model):
    """A name a deleted account went by (its username or display name, as
    ``accounts.names.name_key`` reads it), kept for ``RETIRED_NAME_DAYS`` days so that
    nobody signs up as that person the day after: their friends' bookmarks and
    memories still lead to the name.  Kept as a keyed digest, not the name itself."""

    digest = models.CharField(max_length=64, primary_key=True)
    until = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"retired until {self.until:%Y-%m-%d}"


# --------------------------------------------------------------------------- push


class PushSubscription(models.Model):
    """One browser (device) where the player turned Web Push on: the push service's
    address for it and the keys the notifications are encrypted with (the browser's
    ``PushSubscription``).  ``accounts.push`` adds and removes them; ``games.push`` sends
    to them, and deletes one the push service says is gone (404, 410)."""

    ENDPOINT_MAX_LENGTH = 1000

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="push_subscriptions")
    # One browser is one subscription: signing in as someone else on the same browser
    # moves it to them.
    endpoint = models.CharField(max_length=ENDPOINT_MAX_LENGTH, unique=True)
    p256dh = models.CharField(max_length=128)  # the browser's P-256 public key, base64url
    auth = models.CharField(max_length=64)  # the browser's 16-byte secret, base64url
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveSmallIntegerField(default=0)  # since the last success
    last_error = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Push subscription {self.pk} of user {self.user_id}"

    def info(self) -> dict:
        """The subscription as pywebpush takes it (the browser's ``toJSON()``)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


# --------------------------------------------------------------------------- records
# Written once per finished game by ``games.ratings.record_finished_game``, in the
# transaction that finishes the game, so that profiles and the leaderboard are reads of
# a few rows whatever the number of games (docs/api.md).

# A rating as shown: a conservative estimate (mu − 3 sigma, OpenSkill's "ordinal"),
# scaled so that a newcomer starts at 1000.
RATING_BASE = 1000.0
RATING_SCALE = 40.0


def rating_display(mu: float, sigma: float) -> float:
    """The shown rating of an OpenSkill (mu, sigma): 1000 + 40 (mu − 3 sigma)."""
    return round(RATING_BASE + RATING_SCALE * (mu - 3 * sigma), 1)


def rating_whole(rating: float) -> int:
    """A rating as the pages write it: whole, a half rounded away from zero (as the
    templates' ``floatformat:0`` does: 921.5 -> 922)."""
    return int(Decimal(repr(rating)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def rating_change_whole(before: float, after: float) -> int:
    """A rating change as the pages write it: the difference of the two whole ratings
    shown, so that before + change = after on the page (1,000 -> 922 is −78, where the
    change rounded by itself, −78.5, would read −79)."""
    return rating_whole(after) - rating_whole(before)


class GameRecord(models.Model):
    """The mark that a finished game was counted in stats and ratings: one row per game
    (its primary key is the game), so a game is never counted twice."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, primary_key=True, related_name="record"
    )
    rated = models.BooleanField()
    unrated_reason = models.CharField(max_length=200, blank=True)
    recorded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Record of game {self.game_id} ({'rated' if self.rated else 'unrated'})"


class PlayerResult(models.Model):
    """One person's result in one finished game, with their rating after it (rated
    games).  Drives the history filters, recent games and the rating chart."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="results")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="player_results")
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField(help_text="1 = first; tied places share a rank.")
    won = models.BooleanField()
    cast_out = models.BooleanField()
    resigned = models.BooleanField(default=False)
    # The table's creator handed the seat to a bot while its player was away (``resigned``
    # is true too: the end is the bot's); the pages say so rather than "resigned".
    handed_over = models.BooleanField(default=False)
    status = models.IntegerField()
    money = models.IntegerField()
    rated = models.BooleanField()
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["-finished_at", "-game_id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="accounts_result_user_game"),
        ]
        indexes = [
            models.Index(fields=["user", "-finished_at"], name="accounts_result_user_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in game {self.game_id}: rank {self.rank}"

    @property
    def rating_delta(self) -> float | None:
        if self.rating_before is None or self.rating_after is None:
            return None
        return round(self.rating_after - self.rating_before, 1)

    @property
    def rating_change_shown(self) -> int | None:
        """``rating_delta`` as the pages and e-mails write it (``rating_change_whole``)."""
        if self.rating_before is None or self.rating_after is None:
            return None
        return rating_change_whole(self.rating_before, self.rating_after)


# Ties among the most-won cards: the most valuable first.
_CARD_ORDER = {
    code: i
    for i, code in enumerate(
        ["prestige", "excursions", *(f"lux{v}" for v in range(10, 0, -1)), "yacht", "gambling"]
    )
}


class PlayerStats(models.Model):
    """A person's running totals and current rating (kept up to date at each game end)."""

    user = models.OneToOneField(
        User, on_delete=models.CASCADE, primary_key=True, related_name="stats"
    )
    games_played = models.PositiveIntegerField(default=0)
    games_won = models.PositiveIntegerField(default=0)
    times_cast_out = models.PositiveIntegerField(default=0)
    games_resigned = models.PositiveIntegerField(default=0)
    status_total = models.BigIntegerField(default=0)
    rated_games = models.PositiveIntegerField(default=0)
    rating_mu = models.FloatField(null=True, blank=True)
    rating_sigma = models.FloatField(null=True, blank=True)
    rating = models.FloatField(null=True, blank=True, help_text="rating_display(mu, sigma)")
    # Status cards won at auction (normal auctions and the Yacht Club): {code: count}.
    cards_won = models.JSONField(default=dict, blank=True)
    last_game_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "player stats"
        indexes = [
            models.Index(fields=["-rating", "rated_games"], name="accounts_stats_leaderboard"),
        ]

    def __str__(self) -> str:
        return f"Stats of {self.user_id}"

    @property
    def win_rate(self) -> float | None:
        return round(self.games_won / self.games_played, 4) if self.games_played else None

    @property
    def average_status(self) -> float | None:
        """Over the games the player did not resign from (a resigned seat's final status
        is the bot's): ``status_total`` counts only those."""
        own = self.games_played - self.games_resigned
        return round(self.status_total / own, 2) if own > 0 else None

    def most_won_cards(self, limit: int = 5) -> list[tuple[str, int]]:
        """The status cards most often won, most first (ties: the most valuable first)."""
        items = sorted(
            ((code, int(n)) for code, n in (self.cards_won or {}).items() if n),
            key=lambda item: (-item[1], _CARD_ORDER.get(item[0], 99)),
        )
        return items[:limit]


class HeadToHead(models.Model):
    """``user``'s record against one opponent: a person or a bot level.

    A win: ``user`` finished ranked above the opponent in the same game; a draw: the
    same rank."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="head_to_head")
    opponent = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    opponent_bot = models.CharField(max_length=8, blank=True, default="")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "opponent"],
                condition=models.Q(opponent__isnull=False),
                name="accounts_h2h_user_opponent",
            ),
            models.UniqueConstraint(
                fields=["user", "opponent_bot"],
                condition=models.Q(opponent__isnull=True),
                name="accounts_h2h_user_bot",
            ),
            models.CheckConstraint(
                condition=(models.Q(opponent__isnull=True) & ~models.Q(opponent_bot=""))
                | (models.Q(opponent__isnull=False) & models.Q(opponent_bot="")),
                name="accounts_h2h_person_or_bot",
            ),
        ]
        indexes = [models.Index(fields=["user", "-games"], name="accounts_h2h_frequent")]

    def __str__(self) -> str:
        return f"{self.user_id} vs {self.opponent_id or self.opponent_bot}"


class BotRating(models.Model):
    """The rating of one bot level (all seats of that level share it)."""

    level = models.CharField(max_length=8, primary_key=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField()
    rated_games = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-rating"]

    def __str__(self) -> str:
        return f"Bot ({self.level}): {self.rating}"
