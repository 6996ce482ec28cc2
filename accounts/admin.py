from allauth.mfa.models import Authenticator
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.deletion import account_delete
from accounts.models import PushSubscription, User
from accounts.suspension import account_suspend


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        ("Profile", {"fields": ("display_name", "deleted_at")}),
    )
    readonly_fields = ("deleted_at",)
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
    actions = ["suspend_accounts", "delete_accounts"]

    def save_model(self, request, obj, form, change):
        """Unticking **Active** suspends the account as the action below does: saved
        inactive without leaving its tables, it would leave every game it plays
        waiting for a move that cannot come."""
        if change and "is_active" in form.changed_data and not obj.is_active:
            obj.is_active = True  # the other changes first, while it may still leave
            super().save_model(request, obj, form, change)
            self._suspend(request, obj)
            obj.refresh_from_db()
            return
        super().save_model(request, obj, form, change)

    def _suspend(self, request, user) -> None:
        done = account_suspend(user=user)
        self.message_user(
            request,
            f"Suspended {user.username}: left {done.left} table(s), closed "
            f"{done.closed}, resigned {done.resigned} running game(s) (a bot plays on).",
            messages.SUCCESS,
        )

    @admin.action(
        description="Suspend the selected accounts (resign their games, keep everything)",
        permissions=["change"],
    )
    def suspend_accounts(self, request, queryset):
        """Stop an abusive or compromised account (accounts.suspension): its running games
        go on with a bot in its seat, its waiting tables lose it, nothing is erased."""
        skipped = []
        for user in queryset.filter(deleted_at__isnull=True):
            if user.pk == request.user.pk or not user.is_active:
                skipped.append(user.username)
                continue
            self._suspend(request, user)
        if skipped:
            self.message_user(
                request,
                f"Not suspended (your own account, or inactive already): {', '.join(skipped)}.",
                messages.WARNING,
            )

    def has_delete_permission(self, request, obj=None):
        """No plain delete: a user's seats and tables keep the row (it would fail with
        "protected"), and the games need it; the action below empties it instead."""
        return False

    @admin.action(
        description="Delete the selected accounts as their owners would", permissions=["change"]
    )
    def delete_accounts(self, request, queryset):
        """What a player's own **Delete your account** does (accounts.deletion), for a
        request that came by e-mail: every table left, everything personal erased."""
        done, skipped = 0, []
        for user in queryset.filter(deleted_at__isnull=True):
            if user.pk == request.user.pk or not user.is_active:
                skipped.append(user.username)
                continue
            account_delete(user=user)
            done += 1
        self.message_user(request, f"{done} account(s) deleted.", messages.SUCCESS)
        if skipped:
            self.message_user(
                request,
                "Not deleted (your own account, or deactivated: activate it first so that "
                f"it can leave its tables): {', '.join(skipped)}.",
                messages.WARNING,
            )


class NoEditAdmin(admin.ModelAdmin):
    """Listed and deletable (by staff with the delete permission), never added or edited
    here: each row is made by its owner on their own pages."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


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


@admin.register(PushSubscription)
class PushSubscriptionAdmin(NoEditAdmin):
    """The devices with Web Push on: how their last sends went.  The push address and
    keys are the device's own: not shown."""

    list_display = ("user", "created_at", "last_success_at", "failures", "last_error")
    search_fields = ("user__username",)
    list_select_related = ("user",)
    fields = ("user", "created_at", "last_success_at", "failures", "last_error")
    readonly_fields = fields
