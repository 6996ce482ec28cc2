"""How the OpenAPI document describes token authentication."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.tokens.auth.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": (
                "Send `Authorization: Token <token>`. Get a token from "
                "`POST /api/v1/auth/token/` or on your profile's tokens page. Tokens "
                "expire (30 days unless chosen otherwise) and can be revoked."
            ),
        }


class SessionAuthenticationScheme(OpenApiAuthenticationExtension):
    """The browser's session, as drf-spectacular declares it, but saying that there is
    nothing to enter: a page cannot set a cookie for its requests, so the docs page's
    "Authorize" box for it would show "Authorized" while sending nothing."""

    target_class = "rest_framework.authentication.SessionAuthentication"
    name = "cookieAuth"
    priority = 1  # over drf-spectacular's own extension for this class

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": "sessionid",
            "description": (
                "The site's session cookie, which your browser sends by itself once you "
                "are logged in to the site (unsafe methods also need the CSRF token in "
                "`X-CSRFToken`; this page adds it). Nothing to enter here: log in to the "
                "site in this browser, or use `tokenAuth`."
            ),
        }
