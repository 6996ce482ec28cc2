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
