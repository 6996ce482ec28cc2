"""Helpers for the authorization matrix (tests/security/test_authorization_matrix.py):
the site's routes as the URL resolver knows them, and a snapshot of every stored row
that a request could change, to prove that a refused request changed nothing.

Nothing here is autouse: the other security tests are not affected."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.db import connection
from django.urls import URLPattern, URLResolver, get_resolver

# Apps whose rows a request may change.  Sessions are left out on purpose: logging in
# a test client writes one, and a session is not the project's data.
SNAPSHOT_APPS = ("games", "accounts", "tokens", "account", "admin", "auth")
# Columns that change merely because somebody used the site (a log-in, a token read).
VOLATILE_COLUMNS = {"last_login", "last_used_at"}


@dataclass(frozen=True)
class Route:
    """One entry of the URLconf: its name (namespaced, ``games:board``) or, for an
    unnamed pattern, ``None``; ``pattern`` is the full path pattern as written."""

    name: str | None
    pattern: str
    view: str

    @property
    def key(self) -> str:
        return self.name or self.pattern


def routes_all() -> list[Route]:
    """Every route of the site, walked from the root URLconf (allauth's, the API's and
    the admin's included)."""
    return list(_walk(get_resolver().url_patterns, "", None))


def _walk(patterns, prefix: str, namespace: str | None) -> Iterator[Route]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = namespace
            if entry.namespace:
                inner = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            yield from _walk(entry.url_patterns, _join(prefix, str(entry.pattern)), inner)
        elif isinstance(entry, URLPattern):
            name = entry.name
            if name and namespace:
                name = f"{namespace}:{name}"
            callback = entry.callback
            view = f"{callback.__module__}.{getattr(callback, '__qualname__', callback)}"
            yield Route(name=name, pattern=_join(prefix, str(entry.pattern)), view=view)


def _join(prefix: str, pattern: str) -> str:
    """As Django joins routes in ``ResolverMatch.route`` (a regex's "^" dropped)."""
    return prefix + pattern.removeprefix("^") if prefix else pattern


def _snapshot_models() -> list[Any]:
    return [m for m in apps.get_models() if m._meta.app_label in SNAPSHOT_APPS]


def db_snapshot() -> dict[str, dict[Any, dict[str, Any]]]:
    """Every row of every model a request could touch, by table and primary key."""
    snapshot: dict[str, dict[Any, dict[str, Any]]] = {}
    for model in _snapshot_models():
        rows = {}
        for row in model._default_manager.order_by().values():
            for column in VOLATILE_COLUMNS & row.keys():
                row[column] = None
            rows[row[model._meta.pk.attname]] = row
        snapshot[model._meta.label_lower] = rows
    return snapshot


def db_fingerprint() -> dict[str, str]:
    """A digest of every table of ``db_snapshot`` (volatile columns left out), in one
    query: comparing two tells whether anything changed, and in which tables."""
    if connection.vendor != "postgresql":
        return {table: repr(rows) for table, rows in db_snapshot().items()}
    volatile = ", ".join(f"'{column}'" for column in sorted(VOLATILE_COLUMNS))
    parts = []
    for model in _snapshot_models():
        meta = model._meta
        parts.append(
            f"SELECT '{meta.label_lower}', md5(coalesce(string_agg("
            f"(to_jsonb(t) - ARRAY[{volatile}])::text, ',' ORDER BY t.{meta.pk.column}), '')) "
            f"FROM {connection.ops.quote_name(meta.db_table)} t"
        )
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts))
        return dict(cursor.fetchall())


def db_changes(before: dict, after: dict) -> dict[str, set[Any]]:
    """Table -> primary keys of the rows added, removed or changed between two snapshots."""
    changes: dict[str, set[Any]] = {}
    for table, rows in after.items():
        old = before.get(table, {})
        keys = {pk for pk in rows.keys() | old.keys() if rows.get(pk) != old.get(pk)}
        if keys:
            changes[table] = keys
    return changes
