"""The profile's forms when the session has ended (ops.login)."""

from __future__ import annotations

from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from ops.login import login_first


def login_required(page: str = "profile") -> Any:
    """Like Django's, for a view whose forms are on ``page`` (a URL name): logged out,
    the visitor logs in and comes back there, not to the form's target."""

    def decorator(view: Any) -> Any:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.user.is_authenticated:
                return view(request, *args, **kwargs)
            return login_first(request, reverse(page))

        return wrapper

    return decorator
