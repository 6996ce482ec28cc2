"""API tokens: hashed, expiring, revocable credentials for third-party clients.

A token is shown to its owner once, when it is made; the database keeps only its SHA-256
digest (the secret has 256 random bits, so a plain hash is enough: nothing to salt or
stretch), a short prefix to recognise it by, its expiry and when it was last used.
Clients send ``Authorization: Token <token>`` (``auth.TokenAuthentication``).  People
list, create and revoke their tokens on the profile's tokens page (``views``); programs
get one from ``POST /api/v1/auth/token/`` (``games.api.users``).
"""
