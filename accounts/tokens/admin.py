"""API tokens, for support: find a player's tokens and revoke one (deleting the row is
what a revoke is).  The secret is never stored; its digest is not shown either."""

from django.contrib import admin

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
