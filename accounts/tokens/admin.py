"""API tokens, for support: find a player's tokens and revoke one (deleting the row is
what a revoke is).  The secret is never stored; its digest is not shown either."""

from django.contrib import admin

from accounts.models import STAFF_ACCOUNTS, User
from accounts.tokens.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "name", "prefix", "created_at", "expires_at", "last_used_at")
    search_fields = ("user__username", "name", "=prefix")
    list_select_related = ("user",)
    fields = ("user", "name", "prefix", "created_at", "expires_at", "last_used_at")
    readonly_fields = fields
    secret_fields = frozenset({"digest"})  # no list filter answers questions about it

    def has_add_permission(self, request, obj=None):
        return False  # a token is made by its owner, who alone sees its secret once

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        """A member of staff's token is revoked by a superuser (or its owner) only: a
        moderator could otherwise stop another's scripts, as with their accounts."""
        if (
            obj is not None
            and not request.user.is_superuser
            and obj.user_id != request.user.pk
            and obj.user.is_staff_member
        ):
            return False
        return super().has_delete_permission(request, obj)

    def delete_queryset(self, request, queryset):
        if not request.user.is_superuser:  # the list's bulk delete: the same rule
            queryset = queryset.exclude(user__in=User.objects.filter(STAFF_ACCOUNTS))
        super().delete_queryset(request, queryset)
