"""Pages of async play in the accounts app: e-mail preference, vacation, unsubscribe.

The first two are small forms on the profile page (``{% async_settings %}``); the
unsubscribe page is where every game e-mail's signed link leads.
"""

from django.conf import settings
from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language

from accounts.decorators import login_required
from accounts.models import User
from accounts.preferences import (
    LANGUAGE_PICKED_SESSION_KEY,
    LANGUAGE_SESSION_KEY,
    TIME_ZONE_SESSION_KEY,
    AccountGone,
    email_kind_off,
    email_kind_on,
    emails_off_set,
    language_set,
    language_supported,
    time_zone_set,
    turn_emails_set,
    unsubscribe_undo_read,
    unsubscribe_undo_token,
    unsubscribe_user,
)
from games.errors import GameError
from games.presenter import moment_text
from games.services import vacation_end, vacation_start


@login_required()
@require_POST
def notifications_update(request: HttpRequest) -> HttpResponse:
    """Every turn, a daily digest, or no game e-mails; and the kinds switched off."""
    try:
        turn_emails_set(user=request.user, value=request.POST.get("turn_emails", ""))
        on = set(request.POST.getlist("emails_on"))
        emails_off_set(user=request.user, kinds=[k for k in User.EMAIL_KINDS if k not in on])
    except ValueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Your e-mail setting is saved."))
    return redirect("profile")


@require_POST
def language_update(request: HttpRequest) -> HttpResponse:
    """The header's and the profile's language switcher: Django's ``set_language`` (the
    cookie, then back to ``next``), and for a signed-in player the choice saved on the
    account too.  A code that is not one of the site's languages changes nothing."""
    value = request.POST.get("language", "")
    if request.user.is_authenticated and language_supported(value):
        language_set(user=request.user, value=value)
        request.session[LANGUAGE_SESSION_KEY] = value
    elif language_supported(value):  # a visitor's pick: their next log-in keeps it
        request.session[LANGUAGE_PICKED_SESSION_KEY] = value
    return set_language(request)


@login_required()
@require_POST
def time_zone_update(request: HttpRequest) -> HttpResponse:
    """The time zone the player reads times in (empty: the browser's)."""
    try:
        user = time_zone_set(user=request.user, value=request.POST.get("time_zone", ""))
    except ValueError as error:
        messages.error(request, str(error))
    else:
        request.session[TIME_ZONE_SESSION_KEY] = user.time_zone
        messages.success(request, _("Your time zone is saved."))
    return redirect("profile")


@login_required()
@require_POST
def vacation_update(request: HttpRequest) -> HttpResponse:
    """Start (or lengthen) a vacation of some days, or end it now."""
    try:
        if request.POST.get("action") == "end":
            vacation_end(user=request.user)
            messages.success(request, _("Welcome back: your deadlines run again."))
        else:
            user = vacation_start(
                user=request.user,
                days=request.POST.get("days", ""),
                seen=request.POST.get("seen"),
            )
            # "UTC+1", as the board and the e-mails mark times (not "CET").
            until = moment_text(user.vacation_until, timezone.get_current_timezone())
            messages.success(
                request,
                _("Enjoy your vacation: your deadlines wait until %(until)s.") % {"until": until},
            )
    except GameError as error:
        messages.error(request, str(error))
    return redirect("profile")


# The signed token is the credential, and RFC 8058's one-click POST comes from a mail
# program with no session and no CSRF token: hence csrf_exempt.  This POST can switch
# game e-mails off for the token's own account, and on again only with the signed undo
# token of the page after the button (accounts.preferences.unsubscribe_undo_token).
@csrf_exempt
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks to confirm (or says it is done already); POST (our button, or a mail
    program's one-click ``List-Unsubscribe=One-Click``) switches game e-mails off, and
    POST ``action=resubscribe`` (the page's way back) switches them on again."""
    try:
        user, kind = unsubscribe_user(token)
    except AccountGone:  # deleted or suspended since: it gets no game e-mails
        return render(request, "accounts/unsubscribe.html", {"state": "gone"})
    except signing.BadSignature:
        return render(request, "accounts/unsubscribe.html", {"state": "invalid"}, status=400)
    # In the language the e-mail was written in (the recipient's): a mail program's
    # browser has no session, and the page is about their e-mails.  Not over a language
    # picked in this browser (the header's switch sets its cookie).
    picked = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if language_supported(user.language) and not request.user.is_authenticated and not picked:
        translation.activate(user.language)
        request.LANGUAGE_CODE = user.language
    context = {
        "shown_name": user.public_name,
        # Logged in as somebody else: the link changes the e-mails of the one it was
        # sent to, whose profile page is not theirs.
        "other_account": request.user.is_authenticated and request.user.pk != user.pk,
        "token": token,
        "kind_name": User.EMAIL_KINDS.get(kind, "") if kind else "",
    }
    # In digest mode the digest is the one e-mail that tells of turns waiting.
    context["digest_tells_turns"] = kind == "digest" and user.turn_emails == User.TurnEmails.DIGEST
    page = "accounts/unsubscribe.html"
    if request.method == "POST" and request.POST.get("action") == "resubscribe":
        # Only the way back of the page after the button (signed, an hour): the link
        # alone switches nothing on, whoever holds it.
        previous = unsubscribe_undo_read(request.POST.get("undo", ""), user, kind)
        if previous is None:
            return render(
                request, page, {**context, "state": "already", "undo_expired": True}, status=400
            )
        if kind is None and user.turn_emails == User.TurnEmails.NONE:
            ways_back = (User.TurnEmails.EVERY, User.TurnEmails.DIGEST)
            turn_emails_set(
                user=user, value=previous if previous in ways_back else User.TurnEmails.EVERY
            )
        elif kind is not None:
            email_kind_on(user=user, kind=kind)
        context["all_off"] = user.turn_emails == User.TurnEmails.NONE
        return render(request, page, {**context, "state": "resubscribed"})
    if request.method == "POST":
        context["undo"] = unsubscribe_undo_token(user, kind, user.turn_emails)
        if kind is None:
            turn_emails_set(user=user, value=User.TurnEmails.NONE)
        else:
            email_kind_off(user=user, kind=kind)
        return render(request, page, {**context, "state": "done"})
    unsubscribed = (
        user.turn_emails == User.TurnEmails.NONE if kind is None else kind in user.emails_off
    )
    return render(request, page, {**context, "state": "already" if unsubscribed else "confirm"})
