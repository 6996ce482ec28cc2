"""Querysets compiled once per process, run many times with a new parameter.

The API's hot reads (a game and its seats, on every view and after every move) are
fixed queries that differ only in an id; compiling them through the ORM on every request
cost more than running them.  ``PreparedQuery`` keeps the SQL and the ORM compiler's own
description of the columns, and builds model instances exactly as Django's
``ModelIterable`` does (converters, ``from_db``, ``select_related`` populators).
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import connections
from django.db.models import QuerySet
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
