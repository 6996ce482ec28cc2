"""``{% async_settings %}``: the profile page's section for game e-mails, push
notifications and vacation; ``{% push_control %}``: the device's push switch alone."""

from django import template
from django.conf import settings
from django.utils import timezone

from accounts.models import PushSubscription, User
from accounts.preferences import time_zone_choices
from accounts.push import push_public_key

register = template.Library()


@register.inclusion_tag("accounts/_async_settings.html", takes_context=True)
def async_settings(context: template.Context) -> dict:
    user = context["user"]
    now = timezone.now()
    return {
        "user": user,
        "csrf_token": context.get("csrf_token"),
        "choices": User.TurnEmails.choices,
        "time_zones": time_zone_choices(user),
        "kinds": [
            (kind, label, kind not in user.emails_off) for kind, label in User.EMAIL_KINDS.items()
        ],
        "on_vacation": user.on_vacation(now),
        "vacation_mark": user.vacation_mark(now),
        "days_left": user.vacation_days_left(now),
        "days_per_year": settings.VACATION_DAYS_PER_YEAR,
        "digest_hour": f"{settings.DIGEST_HOUR:02d}:00",  # as the site writes times (H:i)
        "push_public_key": push_public_key(),
        "push_kinds": [
            (kind, label, kind not in user.push_off) for kind, label in User.PUSH_KINDS.items()
        ],
        "push_devices": PushSubscription.objects.filter(user=user).count(),
    }


@register.inclusion_tag("accounts/_push_control.html")
def push_control(compact: bool = False) -> dict:
    """``{% push_control %}``: "Push notifications on this device: On/Off" (with
    static/js/push.js); nothing when the site offers no push."""
    return {"push_public_key": push_public_key(), "compact": compact}
