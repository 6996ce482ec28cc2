"""The admin of accounts: staff suspend, reinstate or delete an account through actions
that say first what they will do; only superusers grant rights; a password set here ends
the account's sessions and API tokens and tells its owner, as a reset would."""

from allauth.account.adapter import get_adapter
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.utils import unquote
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.db import transaction
from django.template.response import TemplateResponse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.deletion import account_delete_and_tell
from accounts.forms import display_name_problem
from accounts.models import PushSubscription, User
from accounts.suspension import account_reinstate, account_suspend
from accounts.tokens.services import tokens_revoke_all
from games.chat import (
    CHAT_BAR_DAYS,
    chat_bar_done_text,
    chat_bar_history_text,
    chat_bar_reach,
    chat_users_bar,
)
from games.selectors import player_tables

# The fields that grant rights: a superuser's to change, nobody else's (a moderator who
# may change accounts must not make themselves, or anyone, more powerful).
RIGHTS_FIELDS = ("is_staff", "is_superuser", "groups", "user_permissions")
# Suspending and deleting pass over these (their confirmation page says so too).
PASSED_OVER = _(
    "Passed over (your own account, deleted or suspended accounts, and the staff’s "
    "accounts unless you are a superuser): %(names)s."
)
USERNAME_HELP = _("At most 30 characters, no “@”; nothing that reads as another account’s name.")


def _username_checked(form: forms.ModelForm) -> str:
    """The site's rules for a username (those of sign-up: length, no "@", no look-alike
    of another account's name), and no other account's name in any case."""
    username = get_adapter().clean_username(form.cleaned_data["username"], shallow=True)
    if User.objects.exclude(pk=form.instance.pk).filter(username__iexact=username).exists():
        raise forms.ValidationError(gettext("Another account has this username (in some case)."))
    return username


class UserAdminChangeForm(UserChangeForm):
    class Meta(UserChangeForm.Meta):
        # Shown on read-only pages too (a moderator's view of a superuser's account).
        help_texts = {
            "username": USERNAME_HELP,
            "is_active": _(
                "Changed by the list’s actions only: suspend (which resigns the "
                "account’s games, after a question) or reinstate."
            ),
            "email": _(
                "Changed by its owner only, on their profile, where the new address is "
                "confirmed before the site's e-mails go to it."
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "username" in self.fields:
            self.fields["username"].help_text = USERNAME_HELP
        if "password" in self.fields:
            # Whether a password is set, not its hash's algorithm and first characters.
            self.fields["password"].widget.template_name = "accounts/widgets/password_summary.html"

    # A name is checked when it changes: one made under older rules (before "open"
    # read as a seat, say) does not keep the staff from saving the account's other fields.
    def clean_username(self) -> str:
        if "username" not in self.changed_data:
            return self.cleaned_data["username"]
        return _username_checked(self)

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"]
        if "display_name" not in self.changed_data:
            return name
        problem = display_name_problem(name, user_pk=self.instance.pk) if name else None
        if problem is not None:
            raise forms.ValidationError(problem)
        return name


class UserAdminCreationForm(AdminUserCreationForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = USERNAME_HELP

    def clean_username(self) -> str:
        return _username_checked(self)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    form = UserAdminChangeForm
    add_form = UserAdminCreationForm
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        (_("Profile"), {"fields": ("display_name", "chat_barred_until", "deleted_at")}),
    )
    list_display = (
        "username",
        "display_name",
        "email",
        "is_active",
        "is_staff",
        "date_joined",
        "deleted_at",
    )
    list_filter = (*BaseUserAdmin.list_filter, "deleted_at")
    search_fields = ("username", "display_name", "email")
    secret_fields = frozenset({"password"})  # no list filter on the hash, a character at a time
    actions = [
        "suspend_accounts",
        "reinstate_accounts",
        "bar_from_chats",
        "unbar_from_chats",
        "delete_accounts",
    ]

    def get_readonly_fields(self, request, obj=None):
        """**Active** is changed by the actions only (suspending resigns games, and says
        so first); the rights only by a superuser; the e-mail address by its owner, on
        their profile (confirmed there): the site's e-mails go to the confirmed address
        the account keeps beside it, which a change here would not follow."""
        # A chat bar is set and lifted by the actions (here, and in the chat reports'
        # queue: games.admin).
        fields = ["deleted_at", "chat_barred_until", "last_login", "date_joined"]
        if obj is not None:
            fields += ["is_active", "email"]
        if not request.user.is_superuser:
            fields += RIGHTS_FIELDS
        return fields

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        if obj is not None:
            form.base_fields.pop("is_active", None)
        return form

    def has_change_permission(self, request, obj=None):
        """A staff member's account (their own too) is changed by superusers only: a
        moderator set another's password here, which is taking the account; their own
        they change on the site's pages.  A deleted account is changed by nobody (a name
        or address given to it would put a person back on its seats and records, which
        say "Deleted player")."""
        if obj is not None and obj.deleted_at is not None:
            return False
        if obj is not None and obj.is_staff_member and not request.user.is_superuser:
            return False
        return super().has_change_permission(request, obj)

    def get_fieldsets(self, request, obj=None):
        """Only a superuser sees the rights (staff, superuser, groups, permissions);
        **Active** stays in sight for everyone."""
        fieldsets = super().get_fieldsets(request, obj)
        if request.user.is_superuser or obj is None:
            return fieldsets
        return tuple(
            (name, {**options, "fields": [f for f in options["fields"] if f not in RIGHTS_FIELDS]})
            for name, options in fieldsets
        )

    def user_change_password(self, request, id, form_url=""):
        """Django's set-password page, and then what a password reset does: every API
        token of the account revoked (its sessions end as the password changes), and
        its owner told by e-mail, without the staff member's address: that the password
        changed, or that the account has none now ("password-based authentication:
        disabled").  Only a change is told: Django's page also answers a refused form
        with a redirect."""
        account = self.get_object(request, unquote(id))  # None for an unknown or bad id
        response = super().user_change_password(request, id, form_url)
        if request.method != "POST" or account is None:
            return response
        user = User.objects.get(pk=account.pk)
        if user.password != account.password:
            tokens_revoke_all(user=user)
            if user.email:
                get_adapter(request).send_notification_mail(
                    "account/email/password_changed",
                    user,
                    {"by_staff": True, "password_removed": not user.has_usable_password()},
                )
        return response

    def _chosen(self, request, queryset, *, active: bool):
        """The accounts of ``queryset`` this staff member may act on, and the names of
        the others with why: their own, deleted, a superuser's (for a non-superuser),
        or already suspended (or active, to reinstate)."""
        chosen, skipped = [], []
        for user in queryset.order_by("username"):
            if (
                user.pk == request.user.pk
                or user.deleted_at is not None
                or user.is_active != active
                or (user.is_staff_member and not request.user.is_superuser)
            ):
                skipped.append(user.username)
            else:
                chosen.append(user)
        return chosen, skipped

    def _confirmed(self, request, users, skipped, *, action: str, title: str, consequence: str):
        """None once the staff member confirmed, else the page that asks, listing each
        account with the tables it is in, and those it will pass over."""
        if request.POST.get("post") == "yes":
            return None
        rows = []
        for user in users:  # by column: running games resigned, tables left, own closed
            tables = player_tables(user=user)
            rows.append((user, [tables["resigned"], tables["left"], tables["closed"]]))
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "rows": rows,
            "passed_over": gettext(PASSED_OVER) % {"names": ", ".join(skipped)} if skipped else "",
            "selected": request.POST.getlist(ACTION_CHECKBOX_NAME),
            "consequence": consequence,
            "action": action,
            "opts": self.model._meta,
            # Django's own confirmation's look (its two buttons alike).
            "body_class": "app-accounts model-user delete-confirmation",
        }
        return TemplateResponse(request, "admin/accounts/user/action_confirm.html", context)

    def _skipped(self, request, skipped, *, reinstating: bool = False) -> None:
        if not skipped:
            return
        if reinstating:
            text = gettext(
                "Passed over (your own account, deleted accounts, accounts that are not "
                "suspended, and the staff’s accounts unless you are a superuser): %(names)s."
            )
        else:
            text = gettext(PASSED_OVER)
        self.message_user(request, text % {"names": ", ".join(skipped)}, messages.WARNING)

    @admin.action(
        description=_("Suspend the selected accounts (resign their games, keep everything)"),
        permissions=["change"],
    )
    def suspend_accounts(self, request, queryset):
        """Stop an abusive or compromised account (accounts.suspension): its running games
        go on with a bot in its seat, its waiting tables lose it, its sessions end and
        its API tokens are revoked; nothing is erased."""
        users, skipped = self._chosen(request, queryset, active=True)
        if users:
            asking = self._confirmed(
                request,
                users,
                skipped,
                action="suspend_accounts",
                title=gettext("Suspend these accounts?"),
                consequence=gettext(
                    "Each leaves its waiting tables (its own close) and resigns its running "
                    "games, where a bot plays on: this cannot be undone. Its sessions end "
                    "and its API tokens are revoked. Nothing is erased; reinstating lets "
                    "it log in again."
                ),
            )
            if asking is not None:
                return asking
        for user in users:
            done = account_suspend(user=user)
            # The account's history keeps one language (English); the message speaks
            # the staff member's.
            self.log_change(
                request,
                user,
                f"Suspended {user.username}: left {done.left} table(s), closed "
                f"{done.closed}, resigned {done.resigned} running game(s)"
                + (" (a bot plays each on)." if done.resigned else "."),
            )
            numbers = {"name": user.username, "left": done.left, "closed": done.closed}
            left = ngettext(
                "Suspended %(name)s: left %(left)d table, ",
                "Suspended %(name)s: left %(left)d tables, ",
                done.left,
            )
            closed = ngettext(
                "closed %(closed)d of its own, ", "closed %(closed)d of its own, ", done.closed
            )
            resigned = ngettext(
                "resigned %(resigned)d running game (a bot plays it on).",
                "resigned %(resigned)d running games (a bot plays each on).",
                done.resigned,
            )
            self.message_user(
                request,
                (left % numbers) + (closed % numbers) + (resigned % {"resigned": done.resigned}),
                messages.SUCCESS,
            )
        self._skipped(request, skipped)

    @admin.action(
        description=_("Reinstate the selected suspended accounts"), permissions=["change"]
    )
    def reinstate_accounts(self, request, queryset):
        """Let suspended accounts log in again, with their history, out of the games they
        resigned; their old API tokens stay revoked."""
        users, skipped = self._chosen(request, queryset, active=False)
        for user in users:
            if account_reinstate(user=user):
                self.log_change(request, user, "Reinstated (may log in again).")
                self.message_user(
                    request,
                    gettext("Reinstated %(name)s.") % {"name": user.username},
                    messages.SUCCESS,
                )
        self._skipped(request, skipped, reinstating=True)

    @admin.action(
        description=_("Bar the selected accounts from writing in the table chats for 7 days"),
        permissions=["change"],
    )
    def bar_from_chats(self, request, queryset):
        """A complaint that came another way than a report (an e-mail, say): as the
        reports' queue does for a line's author (games.chat)."""
        self._chat_bar(request, queryset, days=CHAT_BAR_DAYS)

    @admin.action(
        description=_("Let the selected accounts write in the table chats again"),
        permissions=["change"],
    )
    def unbar_from_chats(self, request, queryset):
        self._chat_bar(request, queryset, days=None)

    def _chat_bar(self, request, queryset, *, days: int | None) -> None:
        """Bar (``days``) or let write again (None), each change in the account's history."""
        # As suspending: active accounts, within the chat bar's reach (games.chat).
        users = chat_bar_reach(queryset.filter(is_active=True), by=request.user)
        skipped = list(
            queryset.exclude(pk__in=users.values("pk"))
            .order_by("username")
            .values_list("username", flat=True)
        )
        # The change and its lines in the history, together or not at all.
        with transaction.atomic():
            changed = chat_users_bar(users=users, days=days, by=request.user)
            for user in User.objects.filter(pk__in=changed).order_by("username"):
                self.log_change(request, user, chat_bar_history_text(days) + ".")
        self.message_user(
            request, chat_bar_done_text(len(changed), barred=bool(days)), messages.SUCCESS
        )
        self._skipped(request, skipped)

    def has_delete_permission(self, request, obj=None):
        """No plain delete: a user's seats and tables keep the row (it would fail with
        "protected"), and the games need it; the action below empties it instead."""
        return False

    def has_erase_permission(self, request) -> bool:
        """Deleting an account (the action below) is for staff allowed to delete
        accounts, not for every moderator who may suspend one."""
        opts = self.opts
        return request.user.has_perm(f"{opts.app_label}.delete_{opts.model_name}")

    @admin.action(
        description=_("Delete the selected accounts as their owners would"),
        permissions=["erase"],
    )
    def delete_accounts(self, request, queryset):
        """What a player's own **Delete your account** does (accounts.deletion), for a
        request that came by e-mail: every table left, everything personal erased, and
        the last e-mail to the address it had."""
        users, skipped = self._chosen(request, queryset, active=True)
        if users:
            asking = self._confirmed(
                request,
                users,
                skipped,
                action="delete_accounts",
                title=gettext("Delete these accounts for good?"),
                consequence=gettext(
                    "Each leaves every table (bots finish its running games); its names, "
                    "e-mail addresses, password, second factors, API tokens and chat "
                    "messages are erased, and its owner gets a last e-mail saying staff "
                    "deleted it as asked. This cannot be undone. (A suspended account "
                    "must be reinstated first, so that it can leave its tables.)"
                ),
            )
            if asking is not None:
                return asking
        names = []
        for user in users:
            names.append(user.username)
            account_delete_and_tell(user=user, request=request, by_staff=True)
            self.log_change(request, user, f"Deleted as its owner would (was {names[-1]}).")
        if users:
            self.message_user(
                request,
                ngettext(
                    "%(count)d account deleted: %(names)s.",
                    "%(count)d accounts deleted: %(names)s.",
                    len(users),
                )
                % {"count": len(users), "names": ", ".join(names)},
                messages.SUCCESS,
            )
        self._skipped(request, skipped)


class NoEditAdmin(admin.ModelAdmin):
    """Listed and deletable (by staff with the delete permission), never added or edited
    here: each row is made by its owner on their own pages."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


# allauth's admin of e-mail addresses lets staff change an account's address, add one
# (verified, primary) to any account, a deleted one too, and mark one verified: whoever
# holds that address could then reset the password and take the account.  An address
# is its owner's, confirmed from it (their profile's e-mail page): here staff see
# which addresses an account has, and whether each is confirmed, nothing more.
admin.site.unregister(EmailAddress)


@admin.register(EmailAddress)
class EmailAddressAdmin(NoEditAdmin):
    list_display = ("email", "user", "primary", "verified")
    list_filter = ("primary", "verified")
    search_fields = ("email", "user__username", "user__display_name")
    list_select_related = ("user",)
    fields = ("user", "email", "primary", "verified")
    readonly_fields = fields

    def has_delete_permission(self, request, obj=None):
        return False  # its owner removes it, on their e-mail page


# allauth's own admin of second factors shows and edits each one's secret (the
# authenticator app's key, the recovery codes' seed) and lets staff add one to any
# account.  Here staff see which factors an account has and when each was last used,
# and may delete one for a player who lost their phone and their recovery codes.
admin.site.unregister(Authenticator)


@admin.register(Authenticator)
class AuthenticatorAdmin(NoEditAdmin):
    list_display = ("user", "type", "created_at", "last_used_at")
    list_filter = ("type",)
    search_fields = ("user__username",)
    list_select_related = ("user",)
    fields = ("user", "type", "created_at", "last_used_at")
    readonly_fields = fields
    secret_fields = frozenset({"data"})


@admin.register(PushSubscription)
class PushSubscriptionAdmin(NoEditAdmin):
    """The devices with Web Push on: how their last sends went.  The push address and
    keys are the device's own: not shown."""

    list_display = ("user", "created_at", "last_success_at", "failures", "last_error")
    search_fields = ("user__username",)
    list_select_related = ("user",)
    fields = ("user", "created_at", "last_success_at", "failures", "last_error")
    readonly_fields = fields
    secret_fields = frozenset({"endpoint", "p256dh", "auth"})
