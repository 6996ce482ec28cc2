"""The site's allauth adapter: usernames that cannot impersonate anyone; and the name
allauth's pages and messages use for a user (``user_display``).

A username is stored in its NFKC form (a fullwidth "ａｌｉｃｅ" is "alice", and so is
taken if alice exists), and refused when it mixes scripts with letters that look
alike ("аlice" with a Cyrillic а) or when its letters, read as the Latin letters they
look like, spell an existing username ("аӏісе" all in Cyrillic).
"""

from __future__ import annotations

import logging
import re
import smtplib
import unicodedata
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from allauth.account.utils import get_next_redirect_url
from confusable_homoglyphs import confusables
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy

from accounts.devices import device_tag
from accounts.names import name_key, reads_as_a_seat
from accounts.preferences import zone_named
from accounts.retired_names import RETIRED, name_retired
from games.presenter import moment_text

EMAIL_MAX_LENGTH = 254  # RFC 5321, and the length of the columns that keep it
EMAIL_TOO_LONG = gettext_lazy(
    "An e-mail address has at most 254 characters, and at most 64 before the “@”."
)
USERNAME_MAX_LENGTH = 30  # it heads pages and seats: a longer one breaks a phone's layout
TOO_LONG = gettext_lazy("A username has at most %(limit)d characters.")
READS_AS_A_SEAT = gettext_lazy(
    "That reads like a bot, an empty seat or an erased account on the board: choose another name."
)
HAS_AT = gettext_lazy("A username cannot contain “@”: your e-mail address is asked for apart.")
LOOK_ALIKE = gettext_lazy(
    "This username mixes letters that look alike from different alphabets, or looks "
    "like another player's name: choose another."
)


def username_problem(username: str) -> str | None:
    """Why ``username`` (NFKC already) could pass for someone else, or None: it mixes
    alphabets with look-alike letters, or it reads as another account's username or
    display name (``accounts.names.name_key``) without being that username itself (which
    allauth reports as taken).  An "@" is refused too: "alice@example.com" as the
    username of one account would log in as it where another has that address."""
    if "@" in username:
        return HAS_AT
    if confusables.is_dangerous(username):
        return LOOK_ALIKE
    if reads_as_a_seat(username):  # the lobby shows it where no display name is set
        return READS_AS_A_SEAT
    key = name_key(username)
    others = get_user_model().objects.exclude(username__iexact=username)
    if others.filter(Q(username_key=key) | Q(display_name_key=key)).exists():
        return LOOK_ALIKE
    if name_retired(username):
        return str(RETIRED)
    return None


logger = logging.getLogger(__name__)


TABLE_PATH = re.compile(r"/games/([0-9]{1,18})/")


def _on_site(url: str) -> str:
    """``url``'s path (and query) on the site's own address, ``SITE_URL``."""
    parts = urlsplit(url)
    return settings.SITE_URL.rstrip("/") + urlunsplit(("", "", parts.path, parts.query, ""))


# An account e-mail the mail server did not take: the page says so, in place of
# allauth's "sent" (the tag lets the "sent" pages word themselves: mail_unsent).
MAIL_UNSENT_TAG = "mail-unsent"
MAIL_UNSENT = {
    "confirmation": gettext_lazy(
        "The e-mail with your confirmation link could not be sent just now: our mail "
        "server did not answer. Log in again in a few minutes and we send a new one."
    ),
    # The same sentence whether or not an account has the address typed in.
    "reset": gettext_lazy(
        "The e-mail with a link to reset your password could not be sent just now: our "
        "mail server did not answer. Nothing has changed; try again in a few minutes."
    ),
    "other": gettext_lazy(
        "An e-mail to you could not be sent just now: our mail server did not answer."
    ),
}
# allauth's messages that say an e-mail went out: not said when it did not.
SENT_MESSAGES = ("account/messages/email_confirmation_sent.txt",)


def _mail_reason(template_prefix: str) -> str:
    if "email_confirmation" in template_prefix:
        return "confirmation"
    if "password_reset" in template_prefix or "unknown_account" in template_prefix:
        return "reset"
    return "other"


# The e-mails that would speak as if a suspended account did not exist, or could log in.
SUSPENDED_INSTEAD = ("account/email/unknown_account", "account/email/account_already_exists")


def suspended_account(email: str):
    """The suspended account (inactive, not deleted) that has ``email``, or None."""
    return (
        get_user_model()
        .objects.filter(is_active=False, deleted_at__isnull=True)
        .filter(Q(email__iexact=email) | Q(emailaddress__email__iexact=email))
        .first()
    )


# The log-in takes a username or an e-mail address: one sentence for a wrong pair,
# in the site's words (allauth's French said "pseudo", a word the site never uses).
WRONG_PAIR = gettext_lazy("That username or e-mail address and that password do not match.")


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "username_password_mismatch": WRONG_PAIR,
        "email_password_mismatch": WRONG_PAIR,
    }

    # The links in account e-mails (a password reset, an address to confirm) lead to
    # the site's own address, SITE_URL, whatever Host the request that asked for them
    # named: a Host header is the asker's to choose (any port of an allowed host passes
    # ALLOWED_HOSTS), and a reset link pointing at another server would hand it the key.
    def get_reset_password_from_key_url(self, key):
        return _on_site(super().get_reset_password_from_key_url(key))

    def get_email_confirmation_url(self, request, emailconfirmation):
        """The link, carrying the page the person signed up (or logged in) from when it
        is one of the site's (a shared table): confirmed on another device, whose
        browser has no session of the sign-up, the link still leads back there."""
        url = _on_site(super().get_email_confirmation_url(request, emailconfirmation))
        back = get_next_redirect_url(request) if request is not None else None
        if back and back.startswith("/") and not back.startswith("//"):
            url += "?" + urlencode({"next": back})
        return url

    def send_mail(self, template_prefix, email, context):
        """The account e-mails (verification, password reset, notices) in the site's
        own name and address, not the request's host.  Sent while the page waits: when
        the mail server does not take one, the page says so (a message) and what was
        asked stays done (an account created, deleted), never a 500."""
        from django.utils import translation

        context = {
            **context,
            "site_name": "High Society",
            "site_url": settings.SITE_URL,
            "contact_email": settings.CONTACT_EMAIL,
        }
        # A suspended account's address: not "no account has it" (a reset) nor "choose a
        # new password" (a sign-up), which contradicted each other, but what it is.
        if template_prefix in SUSPENDED_INSTEAD:
            suspended = suspended_account(email)
            if suspended is not None:
                template_prefix = "account/email/account_suspended"
                context = {
                    **context,
                    "email": email,
                    "username": suspended.username,
                    "user": suspended,  # its language, not the asking page's
                }
        if template_prefix == "account/email/account_already_exists" and not context.get("user"):
            # A sign-up with a taken address: the owner reads it, in their language.
            owner = (
                get_user_model()
                .objects.filter(deleted_at__isnull=True)
                .filter(Q(email__iexact=email) | Q(emailaddress__email__iexact=email))
                .first()
            )
            context = {**context, "user": owner} if owner is not None else context
        # A confirmation link that leads back to a table (get_email_confirmation_url)
        # says so: the new player knows where the click takes them.
        back = parse_qs(urlsplit(context.get("activate_url") or "").query).get("next", [""])[0]
        if match := TABLE_PATH.fullmatch(back):
            context["table"] = int(match.group(1))
        # In the recipient's language when the account has one, else the page's.
        user = context.get("user")
        language = getattr(user, "language", "") or translation.get_language()
        with translation.override(language):
            if context.get("timestamp") is not None:  # a notice's "When:", in their zone
                zone = zone_named(getattr(user, "time_zone", "") or "")
                context["when"] = moment_text(context["timestamp"], zone)
            try:
                return super().send_mail(template_prefix, email, context)
            except (smtplib.SMTPException, OSError) as error:
                # Neither the address nor the message: it may carry a key.
                logger.error(
                    "account e-mail not sent (%s): %s",
                    template_prefix.rsplit("/", 1)[-1],
                    type(error).__name__,
                )
                self._mail_unsent(template_prefix)
        return None

    def _mail_unsent(self, template_prefix: str) -> None:
        request = self.request
        if request is None:  # a command or a task: the log line says it
            return
        request.hs_mail_unsent = True
        text = MAIL_UNSENT[_mail_reason(template_prefix)]
        messages.error(request, text, MAIL_UNSENT_TAG, fail_silently=True)

    def add_message(self, request, level, message_template=None, *args, **kwargs):
        if message_template in SENT_MESSAGES:
            if getattr(request, "hs_mail_unsent", False):
                return
            request.hs_confirmation_sent = True  # accounts.views.EmailView reads it
        super().add_message(request, level, message_template, *args, **kwargs)

    def send_confirmation_mail(self, request, emailconfirmation, signup):
        """The confirmation link, except to an address another account has confirmed:
        its owner hears that nothing changes, without the asker's name or a link (the
        link could not confirm it anyway; the page that asked says nothing different,
        so it learns nothing of whose the address is)."""
        address = emailconfirmation.email_address
        owner = (
            EmailAddress.objects.filter(email__iexact=address.email, verified=True)
            .exclude(user_id=address.user_id)
            .select_related("user")
            .first()
        )
        if owner is None:
            return super().send_confirmation_mail(request, emailconfirmation, signup)
        self.send_mail("account/email/address_in_use", address.email, {"user": owner.user})
        return None

    def send_notification_mail(self, template_prefix, user, context=None, email=None):
        """The security notices (password or address changed), except "address
        removed" for an address that was never confirmed: cancelling a change asked
        for is no change to the account (accounts.signals.note_unconfirmed_removal)."""
        removed = getattr(self.request, "hs_unconfirmed_removed", None)
        if template_prefix == "account/email/email_deleted" and removed is not None:
            if (context or {}).get("deleted_email") == removed:
                return None
        context = {**(context or {}), "user": user}
        if template_prefix == "account/email/email_changed" and not context.get("by_staff"):
            # The old address cannot reset the password any more (a reset goes to the new
            # one): it gets a link to take the address back (accounts.email_undo).
            from accounts.email_undo import undo_token

            token = undo_token(user, context["from_email"], context["to_email"])
            context["undo_url"] = settings.SITE_URL + reverse("email_undo", args=[token])
        # In the account's language (send_mail reads it from the context's user).
        return super().send_notification_mail(template_prefix, user, context, email)

    def pre_authenticate(self, request, **credentials):
        """Count failed log-ins per account, not per text typed: "alice" and her
        e-mail address (in any case) share one lockout (ACCOUNT_RATE_LIMITS
        "login_failed"), keyed by the account's primary address, which is also what a
        password reset clears.  A name that is nobody's keeps its own count."""
        typed = credentials.get("email") or credentials.get("username") or ""
        address = lockout_address(typed)
        if address is not None:
            # A browser that has logged in to this account before keeps a count of its
            # own, which nobody else's guesses fill (accounts.devices).
            owner = EmailAddress.objects.filter(email=address).values_list("user", flat=True)
            tag = device_tag(request, owner.first())
            credentials = {"email": f"{address}#device-{tag}" if tag else address}
        return super().pre_authenticate(request, **credentials)

    def clean_email(self, email):
        """An address that fits where it is kept: the standard's 254 characters, 64
        before the "@" (a longer one was cut to fit, and the account got another
        address than the one typed)."""
        local = email.rsplit("@", 1)[0]
        if len(email) > EMAIL_MAX_LENGTH or len(local) > 64:
            raise ValidationError(EMAIL_TOO_LONG, code="max_length")
        return super().clean_email(email)

    def clean_username(self, username, shallow=False):
        username = unicodedata.normalize("NFKC", username)
        if len(username) > USERNAME_MAX_LENGTH:
            raise ValidationError(
                TOO_LONG, code="max_length", params={"limit": USERNAME_MAX_LENGTH}
            )
        problem = username_problem(username)
        if problem is not None:
            raise ValidationError(problem, code="look_alike")
        return super().clean_username(username, shallow=shallow)


def lockout_address(typed: str) -> str | None:
    """The address that keys the failed-log-in count of the account a log-in names (by
    username, as stored: NFKC, any case; or by any of its e-mail addresses): its
    primary address, one that a password reset clears.  None when it names nobody."""
    if not typed:
        return None
    if "@" in typed:
        # The account a log-in by this address reaches: a confirmed one first.
        owner = (
            EmailAddress.objects.filter(email__iexact=typed)
            .order_by("-verified", "-primary", "pk")
            .values("user")
        )
    else:
        name = unicodedata.normalize("NFKC", typed)
        owner = get_user_model().objects.filter(username__iexact=name).order_by("pk").values("pk")
    return (
        EmailAddress.objects.filter(user__in=owner[:1])
        .order_by("-primary", "-verified", "pk")
        .values_list("email", flat=True)
        .first()
    )


def user_display(user) -> str:
    """``ACCOUNT_USER_DISPLAY``: the name the rest of the site shows ("Signed in as Demo
    Player"), so that allauth's notices ("Successfully signed in as …") say the same."""
    return user.public_name
