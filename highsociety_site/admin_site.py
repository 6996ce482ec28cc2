"""The admin site: staff only, and only in a session confirmed with a second factor
(``accounts.second_factor``).  Its log-in page is the site's (``views.admin_login``)."""

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _


class StaffAdminSite(admin.AdminSite):
    site_header = _("High Society administration")
    site_title = _("High Society admin")

    def register(self, model_or_iterable, admin_class=None, **options):
        """Every model's admin, the apps' and the packages' alike, refuses the list
        filters a database cannot answer (``admin_lookups``): 400, never a 500."""
        from highsociety_site.admin_lookups import LookupGuard

        admin_class = admin_class or admin.ModelAdmin
        if not issubclass(admin_class, LookupGuard):
            admin_class = type(
                admin_class.__name__,
                (LookupGuard, admin_class),
                {"__module__": admin_class.__module__, "__doc__": admin_class.__doc__},
            )
        super().register(model_or_iterable, admin_class, **options)

    def has_permission(self, request) -> bool:
        # Imported here: this module is read while the apps load, before the models.
        from accounts.second_factor import staff_admin_refusal

        return super().has_permission(request) and staff_admin_refusal(request) is None

    def password_change(self, request, extra_context=None):
        """The site's own page, not the admin's: it asks for the old password, revokes
        the API tokens and sends the notice, as for any player."""
        return redirect("account_change_password")


class StaffAdminConfig(AdminConfig):
    default_site = "highsociety_site.admin_site.StaffAdminSite"
