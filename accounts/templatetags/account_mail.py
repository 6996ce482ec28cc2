"""``mail_unsent``: whether this page's messages say an account e-mail could not be
sent (accounts.adapter), so a page that would say "we have sent you an e-mail" says
what to do instead."""

from __future__ import annotations

from django import template

from accounts.adapter import MAIL_UNSENT_TAG

register = template.Library()


@register.filter
def mail_unsent(messages) -> bool:
    return any(MAIL_UNSENT_TAG in message.tags.split() for message in messages or ())
