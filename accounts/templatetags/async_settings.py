"""``{% async_settings %}``: the profile page's section for game e-mails and vacation."""

from django import template
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from accounts.preferences import time_zones

register = template.Library()


@register.inclusion_tag("accounts/_async_settings.html", takes_context=True)
def async_settings(context: template.Context) -> dict:
    user = context["user"]
    now = timezone.now()
    return {
        "user": user,
        "csrf_token": context.get("csrf_token"),
        "choices": User.TurnEmails.choices,
        "time_zones": time_zones(),
        "kinds": [
            (kind, label, kind not in user.emails_off) for kind, label in User.EMAIL_KINDS.items()
        ],
        "on_vacation": user.on_vacation(now),
        "days_left": user.vacation_days_left(now),
        "days_per_year": settings.VACATION_DAYS_PER_YEAR,
    }
