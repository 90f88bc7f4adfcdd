"""The turn core's two writes of every move, in plain SQL: the ``Move`` row it logs and the
``Match`` row's changed fields.

Why not ``Move.objects.create`` and ``match.save(update_fields=...)``: composing those two
statements through the ORM cost a move about twice the CPU of sending them (0.7-0.8 ms each
against about 0.35 ms, ``manage.py bench_moves``), and every move makes both. The statements are
made once per model and set of fields; every value goes through its field's ``pre_save`` and
``get_db_prep_save``, as the ORM's own save does, so what lands in the row is the same. No model
signal is sent (nothing in the site listens to these models' saves).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db.models import Field

from durak_site.db import default_connection, prepared_cursor
from games.models import Match, Move


def move_insert(move: Move) -> Move:
    """Insert the unsaved ``move`` and give it its primary key (as ``Move.objects.create``)."""
    connection = default_connection()
    sql, fields = _insert(connection.vendor, connection.features.can_return_columns_from_insert)
    values = [field.get_db_prep_save(field.pre_save(move, True), connection) for field in fields]
    with prepared_cursor() as cursor:
        cursor.execute(sql, values)
        if connection.features.can_return_columns_from_insert:
            pk = cursor.fetchone()[0]
        else:
            pk = connection.ops.last_insert_id(cursor, Move._meta.db_table, _column(Move._meta.pk))
    move.pk = pk
    move._state.adding = False
    move._state.db = connection.alias
    return move


def match_update(match: Match, names: list[str]) -> None:
    """Save the fields ``names`` of ``match`` (as ``match.save(update_fields=names)``)."""
    connection = default_connection()
    sql, fields = _update(connection.vendor, tuple(names))
    values = [field.get_db_prep_save(field.pre_save(match, False), connection) for field in fields]
    with prepared_cursor() as cursor:
        cursor.execute(sql, [*values, match.pk])


# Made once per vendor (the quoting and ``RETURNING`` depend on it) and set of fields.
@cache
def _insert(vendor: str, returning: bool) -> tuple[str, list[Field[Any, Any]]]:
    quote = default_connection().ops.quote_name
    fields = [f for f in Move._meta.concrete_fields if not f.primary_key]
    sql = (
        f"INSERT INTO {quote(Move._meta.db_table)} ({', '.join(quote(_column(f)) for f in fields)})"
        f" VALUES ({', '.join(['%s'] * len(fields))})"
    )
    if returning:
        sql += f" RETURNING {quote(_column(Move._meta.pk))}"
    return sql, fields


@cache
def _update(vendor: str, names: tuple[str, ...]) -> tuple[str, list[Field[Any, Any]]]:
    quote = default_connection().ops.quote_name
    fields = [_concrete(Match._meta.get_field(name)) for name in names]
    assignments = ", ".join(f"{quote(_column(f))} = %s" for f in fields)
    pk = quote(_column(Match._meta.pk))
    return f"UPDATE {quote(Match._meta.db_table)} SET {assignments} WHERE {pk} = %s", fields


def _concrete(field: object) -> Field[Any, Any]:
    if not isinstance(field, Field) or not field.concrete:
        raise TypeError(f"{field!r} is not a column of the match")
    return field


def _column(field: Field[Any, Any] | None) -> str:
    """A concrete field's column (the ORM types it as optional: a relation's reverse has none)."""
    assert field is not None and field.column is not None
    return field.column
