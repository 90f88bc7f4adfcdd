"""The two cheap ways a push is drawn give the page the ORM would: ``selectors.match_load``
(plain SQL, two statements) reads what the ORM reads (the match with its table and the players
with their users, ``match_moves``), and the mover's page drawn from the move's result
(``fragments.match_fragments`` of the ``LoadedMatch`` that ``action_apply`` returns) is byte for
byte the one read back."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import connection, transaction
from django.db.models import Model, Prefetch
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from accounts.models import User
from games.engine import Rules
from games.models import Match, MatchPlayer, Move, Table
from play import selectors
from play.fragments import match_fragments
from play.loaded import LoadedMatch
from play.services import turn

from .services_support import make_user, play_default, start_match


def _fields(row: Model) -> dict[str, object]:
    return {field.attname: getattr(row, field.attname) for field in row._meta.concrete_fields}


def _play_some(match: Match, moves: int) -> list[LoadedMatch]:
    """The awaited seat plays the default ``moves`` times; ``match`` is kept current."""
    return [play_default(match) for _ in range(moves)]


def _orm_read(match_id: int) -> Match:
    """The match with its table and its players with their users, as the ORM reads them."""
    return (
        Match.objects.select_related("table")
        .prefetch_related(Prefetch("players", queryset=MatchPlayer.objects.select_related("user")))
        .get(pk=match_id)
    )


def _page_read(match_id: int, log_after: int) -> LoadedMatch:
    """The match as a push reads it, with the log lines after ``log_after``."""
    loaded = selectors.match_load(match_id=match_id, moves_after=log_after)
    assert loaded is not None
    return loaded


def test_match_load_reads_what_the_orm_reads(db: None) -> None:
    match = start_match(humans=[make_user(name) for name in "abc"], rules=Rules(players=3))
    _play_some(match, 4)
    rows = selectors.match_load(match_id=match.pk, moves_after=2)
    assert rows is not None
    orm = _orm_read(match.pk)
    assert _fields(rows.match) == _fields(orm)
    assert _fields(rows.match.table) == {
        f.attname: getattr(orm.table, f.attname) for f in orm.table._meta.concrete_fields
    }
    assert [_fields(p) for p in rows.players] == [_fields(p) for p in orm.players.all()]
    assert [p.user.public_name for p in rows.players] == [p.user.public_name for p in orm.players.all()]
    assert [_fields(m) for m in rows.moves] == [
        _fields(m) for m in selectors.match_moves(match_id=match.pk, after_seq=2)
    ]
    assert [m.seq for m in rows.moves] == [3, 4]
    assert selectors.match_load(match_id=match.pk + 1000) is None
    MatchPlayer.objects.filter(match=match).delete()  # the outer join's missing side
    without = selectors.match_load(match_id=match.pk, moves_after=None)
    assert without is not None and without.players == [] and _fields(without.match) == _fields(orm)


def test_a_push_reads_in_one_statement_and_the_whole_log_in_two(db: None) -> None:
    """The match with its table, players and new lines; the whole log in a statement of its own:
    each statement is a round trip on the way of a move to the other seats, so one more is a
    regression."""
    match = start_match(humans=[make_user("a"), make_user("b")])
    _play_some(match, 2)
    with CaptureQueriesContext(connection) as queries:
        rows = selectors.match_load(match_id=match.pk, moves_after=1)
    assert rows is not None and len(rows.players) == 2 and [m.seq for m in rows.moves] == [2]
    assert len(queries.captured_queries) == 1
    with CaptureQueriesContext(connection) as queries:
        rows = selectors.match_load(match_id=match.pk, moves_after=0)
    assert rows is not None and len(rows.players) == 2 and [m.seq for m in rows.moves] == [1, 2]
    assert len(queries.captured_queries) == 2
    with CaptureQueriesContext(connection) as queries:
        selectors.match_load(match_id=match.pk, moves_after=None)
    assert len(queries.captured_queries) == 1


def test_a_push_far_behind_reads_every_line_and_every_player_once(db: None) -> None:
    """The lines ride on the first player's rows: each player is still read once, in seat order,
    and the lines in order, as the ORM reads them; with no players left, on the match's one row."""
    match = start_match(humans=[make_user(name) for name in "abc"], rules=Rules(players=3))
    _play_some(match, 6)
    orm = _orm_read(match.pk)
    for after in (1, 3, 5, 6):
        rows = selectors.match_load(match_id=match.pk, moves_after=after)
        assert rows is not None
        assert [_fields(p) for p in rows.players] == [_fields(p) for p in orm.players.all()]
        assert [p.user.pk for p in rows.players] == [p.user_id for p in orm.players.all()]
        expected = selectors.match_moves(match_id=match.pk, after_seq=after)
        assert [_fields(m) for m in rows.moves] == [_fields(m) for m in expected]
        assert len({id(m) for m in rows.moves}) == len(rows.moves) == 6 - after
    MatchPlayer.objects.filter(match=match).delete()
    rows = selectors.match_load(match_id=match.pk, moves_after=4)
    assert rows is not None and rows.players == [] and [m.seq for m in rows.moves] == [5, 6]


def test_the_movers_page_from_the_moves_rows_is_the_page_read_back(db: None) -> None:
    match = start_match(humans=[make_user("a"), make_user("b")])
    for language in ("en", "ru", "en"):
        with translation.override(language):
            (result,) = _play_some(match, 1)
            mover = next(p.user for p in result.players if p.seat == result.move.seat)
            shown = result.move.seq - 1
            read = _page_read(match.pk, shown)
            with mock.patch("play.presenters.timezone.now", return_value=timezone.now()):  # one timer
                with CaptureQueriesContext(connection) as queries:
                    drawn = match_fragments(result, mover, log_after=shown)
                assert not queries.captured_queries  # nothing read back
                assert drawn == match_fragments(read, mover, log_after=shown)
                assert match_fragments(result, mover, log_after=None) == match_fragments(read, mover)


def test_a_mover_whose_page_missed_a_line_reads_the_log(db: None) -> None:
    match = start_match(humans=[make_user("a"), make_user("b")])
    *_, result = _play_some(match, 3)
    mover = next(p.user for p in result.players if p.seat == result.move.seat)
    html, version, last_seq = match_fragments(result, mover, log_after=0)
    assert (version, last_seq) == (3, 3)
    assert all(f'data-seq="{seq}"' in html for seq in (1, 2, 3))


def test_the_locking_read_needs_a_transaction_and_reads_no_moves_if_asked(transactional_db: None) -> None:
    match = start_match(humans=[make_user("a"), make_user("b")])
    _play_some(match, 2)
    with pytest.raises(TransactionManagementError):
        turn.match_lock(match.pk)
    with transaction.atomic():
        rows = turn.match_lock(match.pk)
    assert rows is not None and rows.moves == [] and rows.match.last_seq == 2


def test_the_turn_cores_plain_sql_writes_store_what_the_orm_would(db: None) -> None:
    """``services.rows``: the logged move and the match's changed fields, as the ORM reads them
    back, are what the turn core holds in memory (the JSON of the snapshot and the events, the
    deadline's time zone, the move's own time)."""
    match = start_match(humans=[make_user("a"), make_user("b")])
    before = timezone.now()
    results = _play_some(match, 3)
    for loaded in results:
        move = loaded.move
        stored = type(move).objects.get(pk=move.pk)
        assert _fields(stored) == _fields(move)
        assert before <= stored.at <= timezone.now()
    last = results[-1].match
    stored_match = Match.objects.get(pk=match.pk)
    assert _fields(stored_match) == _fields(last)
    assert stored_match.snapshot == results[-1].state.to_json()


@pytest.mark.parametrize("model", [Match, Table, MatchPlayer, User, Move])
def test_the_reads_instances_are_what_from_db_makes(db: None, model: type[Model]) -> None:
    """``selectors._instance`` skips ``Model.__init__``: it makes what ``from_db`` makes only while
    the models read so have no ``__init__`` or ``from_db`` of their own, no receiver of the init
    signals and no field whose attribute sets anything (a foreign key's only clears a cache)."""
    assert "__init__" not in vars(model) and "from_db" not in vars(model)
    assert not pre_init.receivers and not post_init.receivers
    for field in model._meta.concrete_fields:
        attribute = vars(model).get(field.attname)
        assert type(attribute) in (DeferredAttribute, ForeignKeyDeferredAttribute), field
    match = start_match(humans=[make_user("a"), make_user("b")])
    play_default(match)
    row = model._default_manager.order_by("pk").first()
    assert row is not None
    names = [field.attname for field in model._meta.concrete_fields]
    values = [getattr(row, name) for name in names]
    made, expected = (
        selectors._instance(model, names, values, "default"),
        model.from_db("default", names, values),
    )
    assert type(made) is model
    assert {k: v for k, v in vars(made).items() if k != "_state"} == {
        k: v for k, v in vars(expected).items() if k != "_state"
    }
    assert (
        (made._state.adding, made._state.db)
        == (expected._state.adding, expected._state.db)
        == (False, "default")
    )
    assert made == expected
