"""``python manage.py moderator <username> [--remove]``: make an account a moderator
(staff, in the "Moderators" group), or no longer one.

The group is made (or brought up to date) on each run with what moderating takes and
nothing more: read accounts and suspend or reinstate them and bar them from the chats
(view and change users: rights stay a superuser's, accounts.admin), answer the chat
reports, read and delete chat lines, read games, seats, moves and the e-mail outbox,
read the e-mail addresses, second factors and push devices, and revoke API tokens.
Erasing an account is not in it (a superuser may give "delete user" to someone
trusted with it).  The moderator's first visit to the admin asks them to set up an
authenticator app (docs/operations.md).
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.db.models import Q

from accounts.models import User

GROUP = "Moderators"
# (app label, model, actions) of the group's permissions.
RIGHTS = (
    ("accounts", "user", ("view", "change")),
    ("accounts", "pushsubscription", ("view",)),
    ("account", "emailaddress", ("view",)),
    ("mfa", "authenticator", ("view",)),
    ("tokens", "apitoken", ("view", "delete")),
    ("games", "chatreport", ("view", "change")),
    ("games", "chatmessage", ("view", "delete")),
    ("games", "game", ("view",)),
    ("games", "seat", ("view",)),
    ("games", "move", ("view",)),
    ("games", "notification", ("view",)),
)


def moderators_group() -> Group:
    """The "Moderators" group with exactly ``RIGHTS``' permissions."""
    wanted = Q(pk__in=[])
    for app, model, actions in RIGHTS:
        wanted |= Q(
            content_type__app_label=app,
            content_type__model=model,
            codename__in=[f"{action}_{model}" for action in actions],
        )
    permissions = list(Permission.objects.filter(wanted))
    expected = sum(len(actions) for _app, _model, actions in RIGHTS)
    if len(permissions) != expected:
        raise CommandError("Some permissions are missing: run python manage.py migrate first.")
    group, _made = Group.objects.get_or_create(name=GROUP)
    group.permissions.set(permissions)
    return group


class Command(BaseCommand):
    help = "Make an account a moderator (staff in the Moderators group), or --remove it."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--remove", action="store_true", help="No longer a moderator.")

    def handle(self, *args, username: str, remove: bool, **options):
        with transaction.atomic():
            user = User.objects.select_for_update().filter(username=username).first()
            if user is None or user.deleted_at is not None:
                raise CommandError(f"No account is called {username!r}.")
            group = moderators_group()
            if remove:
                was = user.groups.filter(pk=group.pk).exists()
                user.groups.remove(group)
                # Staff only through this group: no longer staff.  Staff for other
                # reasons (a group, permissions of their own, a superuser) stay staff.
                if (
                    was
                    and not user.is_superuser
                    and not user.groups.exists()
                    and not user.user_permissions.exists()
                ):
                    user.is_staff = False
                    user.save(update_fields=["is_staff"])
                self.stdout.write(f"{username} is no longer a moderator.")
                return
            user.is_staff = True
            user.save(update_fields=["is_staff"])
            user.groups.add(group)
        self.stdout.write(
            f"{username} is a moderator: staff, in the {GROUP} group. Their first visit to "
            "/admin/ asks them to set up an authenticator app."
        )
