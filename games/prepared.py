"""Statements compiled once per process, run many times with new values.

The hot path of a move (lock the game with its seats, store the moves and the game) and
the API's hot reads are fixed statements that differ only in their values; compiling
them through the ORM on every request cost more than running them (bench/http_bench.py).

- ``PreparedQuery`` keeps the SQL and the ORM compiler's own description of the
  columns, and builds model instances exactly as Django's ``ModelIterable`` does
  (converters, ``from_db``, ``select_related`` populators).
- ``insert_then_update`` stores new rows and the changed columns of one row in a
  single statement (one round trip instead of two), with the values prepared by the
  model fields themselves, as ``bulk_create`` and ``save(update_fields=...)`` would.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from django.db import connections
from django.db.models import Field, Model, QuerySet
from django.db.models.query import get_related_populators

_SENTINEL = -7_301_553_117  # an id no row has, to find the parameter's place


class PreparedQuery:
    def __init__(self, build: Callable[[int], QuerySet], *, using: str = "default"):
        self.build, self.using = build, using
        self.compiled = None

    def _compile(self):
        queryset = self.build(_SENTINEL)
        compiler = queryset.query.get_compiler(using=self.using)
        sql, params = compiler.as_sql()  # also fills compiler.select and klass_info
        params = list(params)
        if params.count(_SENTINEL) != 1:
            raise ValueError("a prepared query takes exactly one parameter")
        klass_info = compiler.klass_info
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        init_list = [column[0].target.attname for column in compiler.select[start:end]]
        populators = get_related_populators(klass_info, compiler.select, self.using)
        self.compiled = (
            compiler,
            sql,
            params,
            params.index(_SENTINEL),
            start,
            end,
            init_list,
            populators,
        )

    def __call__(self, value: int) -> list:
        if self.compiled is None:
            self._compile()
        compiler, sql, params, index, start, end, init_list, populators = self.compiled
        params = list(params)
        params[index] = value
        with connections[self.using].cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        model = compiler.klass_info["model"]
        objects = []
        for row in compiler.results_iter(results=[rows]):
            obj = model.from_db(self.using, init_list, row[start:end])
            for populator in populators:
                populator.populate(row, obj)
            objects.append(obj)
        return objects


@cache
def _insert_then_update_sql(
    inserted: type[Model], count: int, updated: type[Model], names: tuple[str, ...]
) -> tuple[str, tuple[Field, ...], tuple[Field, ...]]:
    quote = connections["default"].ops.quote_name
    insert_fields = tuple(
        field for field in inserted._meta.concrete_fields if not field.primary_key
    )
    update_fields = tuple(updated._meta.get_field(name) for name in names)
    row = "(" + ", ".join(["%s"] * len(insert_fields)) + ")"
    sql = (
        f"WITH inserted AS (INSERT INTO {quote(inserted._meta.db_table)} "
        f"({', '.join(quote(field.column) for field in insert_fields)}) "
        f"VALUES {', '.join([row] * count)}) "
        f"UPDATE {quote(updated._meta.db_table)} SET "
        + ", ".join(f"{quote(field.column)} = %s" for field in update_fields)
        + f" WHERE {quote(updated._meta.pk.column)} = %s"
    )
    return sql, insert_fields, update_fields


def insert_then_update(rows: Sequence[Model], instance: Model, names: tuple[str, ...]) -> None:
    """``bulk_create(rows)`` and ``instance.save(update_fields=names)`` in one statement
    (a data-modifying CTE), in the caller's transaction.  The new rows get no primary
    key back (nothing reads it); a unique violation raises ``IntegrityError`` as
    ``bulk_create`` would.  ``rows`` must not be empty, and the instance's row must
    exist (the caller holds its lock)."""
    connection = connections["default"]
    sql, insert_fields, update_fields = _insert_then_update_sql(
        type(rows[0]), len(rows), type(instance), names
    )
    params = [
        field.get_db_prep_save(field.pre_save(row, True), connection)
        for row in rows
        for field in insert_fields
    ]
    params += [
        field.get_db_prep_save(field.pre_save(instance, False), connection)
        for field in update_fields
    ]
    params.append(instance.pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise RuntimeError(f"{instance!r} was not updated: its row is gone")
