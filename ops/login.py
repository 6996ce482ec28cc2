"""Sending a visitor whose session has ended to the log-in page, and back.

A form sent after the session ended (a page left open for days, a log-out in another
tab) reaches its target logged out.  Django's ``login_required`` sends the visitor to
log in and then to that target, which only takes POST: the browser's GET there found
"this page takes no form", a dead end, and what they had sent was lost without a word.
Here they come back to the page the form is on, told to send it again; an htmx request
gets the log-in page whole (``HX-Redirect``), not swapped into part of a page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect


def login_first(request: HttpRequest, back: str) -> HttpResponse:
    """To the log-in page, then to ``back``: a GET comes back to its own address, a
    form to ``back`` (the page it is on), with a word that it was not sent."""
    if request.method in ("GET", "HEAD"):
        back = request.get_full_path()
    else:
        messages.info(
            request,
            _("You were logged out, so what you sent was not saved: log in, then send it again."),
            fail_silently=True,
        )
    login = redirect_to_login(back)
    return HttpResponseClientRedirect(login["Location"]) if request.htmx else login
