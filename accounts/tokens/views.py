"""The tokens page of the profile: list, create (the secret is shown once), revoke."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from accounts.decorators import login_required
from accounts.tokens.forms import TokenCreateForm
from accounts.tokens.services import (
    FormAlreadySent,
    TokenLimitReached,
    token_create,
    token_revoke,
    tokens_for_user,
)

TEMPLATE = "accounts/tokens.html"


def _page(request, form, *, new_secret=None, new_token=None, status=200) -> HttpResponse:
    context = {
        "form": form,
        "tokens": tokens_for_user(user=request.user),
        "now": timezone.now(),
        "new_secret": new_secret,
        "new_token": new_token,
    }
    return render(request, TEMPLATE, context, status=status)


@never_cache
@login_required()
@require_safe
def tokens(request: HttpRequest) -> HttpResponse:
    return _page(request, TokenCreateForm())


@never_cache  # the answer holds the new secret: no cache may keep it
@login_required("api_tokens")
@require_POST
def token_new(request: HttpRequest) -> HttpResponse:
    form = TokenCreateForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    try:
        token, secret = token_create(
            user=request.user,
            name=form.cleaned_data["name"],
            days=form.cleaned_data["days"],
            once=form.cleaned_data["once"],
        )
    except FormAlreadySent:
        messages.info(
            request,
            _(
                "That form was sent already: its token was made then, and its secret shown "
                "once. If you did not keep it, revoke that token below and make a new one."
            ),
        )
        return redirect("api_tokens")
    except TokenLimitReached as error:
        form.add_error(None, str(error))
        return _page(request, form, status=400)
    return _page(request, TokenCreateForm(), new_secret=secret, new_token=token)


@login_required("api_tokens")
@require_POST
def token_delete(request: HttpRequest, token_id: int) -> HttpResponse:
    if token_revoke(user=request.user, token_id=token_id):
        messages.success(request, _("The token is revoked: programs using it are locked out."))
    else:
        messages.error(request, _("You have no such token (it may have been revoked already)."))
    return redirect("api_tokens")
