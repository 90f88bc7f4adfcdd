"""The live-play services: tables and seats, the move service, abort and play again."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from games.engine import Rules, new_game
from games.models import Match, Move, Seat, Table
from games.pools import rated_pool
from play import selectors, services
from tests.play.services_support import match_replayed_snapshot, playing_tables

from .services_support import make_user, player, start_match, state_of, task_sends

pytestmark = pytest.mark.django_db


@pytest.fixture
def seed(monkeypatch: pytest.MonkeyPatch) -> str:
    """Deal every match in these tests from one known seed."""
    monkeypatch.setattr("play.services.tables.new_seed", lambda: "services-seed")
    return "services-seed"


# --- rated tables -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "pool"),
    [
        (Rules(), "podkidnoy:2"),
        (Rules.for_variant("perevodnoy", players=5), "perevodnoy:3-6"),
        (Rules.for_variant("circle", players=4, teams=True), "circle:2v2"),
        (Rules.for_variant("podkidnoy", players=2, deck=24), None),
        (Rules.for_variant("circle", players=3, jokers=2), None),
        (Rules.for_variant("podkidnoy", players=4, throw_in="neighbours"), None),
    ],
)
def test_rated_pools_are_the_default_options_per_variant_and_kind(rules: Rules, pool: str | None) -> None:
    assert rated_pool(rules) == pool


def test_a_rated_table_with_house_options_is_refused() -> None:
    host = make_user("host")
    with pytest.raises(services.RatedRulesError):
        services.table_create(creator=host, rules=Rules(redeal=True), rated=True)
    assert not Table.objects.exists()
    table = services.table_create(creator=host, rules=Rules(players=3), rated=True)
    assert table.rated and table.seats.get().user == host


# --- tables and seats ---------------------------------------------------------------------------


def test_the_table_starts_when_the_last_seat_is_taken(seed: str) -> None:
    host, guest, third = make_user("host"), make_user("guest"), make_user("third")
    table = services.table_create(creator=host, rules=Rules(players=3))
    assert list(selectors.open_tables()) == [table]
    services.table_join(table_id=table.pk, user=guest)
    assert selectors.table_current_match(table_id=table.pk) is None
    services.table_join(table_id=table.pk, user=third)

    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert list(selectors.open_tables()) == []
    match = selectors.table_current_match(table_id=table.pk)
    assert match is not None and match.version == 0 and match.number == 1
    assert [(p.seat, p.user) for p in match.players.order_by("seat")] == [
        (0, host),
        (1, guest),
        (2, third),
    ]
    expected = new_game(Rules(players=3), seed=seed)
    assert match.snapshot == expected.to_json() and match.dealer == expected.dealer
    assert match.deadline_at is not None


def test_one_seat_per_user_and_no_seat_at_a_full_table() -> None:
    host, guest, late = make_user("host"), make_user("guest"), make_user("late")
    table = services.table_create(creator=host, rules=Rules())
    with pytest.raises(services.TableError):
        services.table_join(table_id=table.pk, user=host)
    services.table_join(table_id=table.pk, user=guest)
    with pytest.raises(services.TableError):
        services.table_join(table_id=table.pk, user=late)
    other = services.table_create(creator=make_user("other"), rules=Rules())
    services.table_join(table_id=other.pk, user=guest)  # a user may sit at several tables
    assert Seat.objects.filter(user=guest).count() == 2


def test_a_chosen_seat_must_be_free() -> None:
    host, guest = make_user("host"), make_user("guest")
    table = services.table_create(creator=host, rules=Rules(players=4))
    with pytest.raises(services.TableError):
        services.table_join(table_id=table.pk, user=guest, position=0)
    seat = services.table_join(table_id=table.pk, user=guest, position=2)
    assert seat.position == 2


def test_a_private_table_needs_its_invite_token() -> None:
    host, guest = make_user("host"), make_user("guest")
    table = services.table_create(creator=host, rules=Rules(players=3), private=True)
    assert list(selectors.open_tables()) == []
    with pytest.raises(services.TableError):
        services.table_join(table_id=table.pk, user=guest, invite_token="wrong")
    services.table_join(table_id=table.pk, user=guest, invite_token=table.invite_token)
    assert selectors.table_by_invite(token=table.invite_token) == table


def test_leaving_a_seat_before_the_game_and_closing_an_empty_table() -> None:
    host, guest = make_user("host"), make_user("guest")
    table = services.table_create(creator=host, rules=Rules(players=3))
    services.table_join(table_id=table.pk, user=guest)
    services.seat_leave(table_id=table.pk, user=guest)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN and table.seats.count() == 1
    services.seat_leave(table_id=table.pk, user=host)
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED


def test_no_leaving_during_a_game() -> None:
    host, guest = make_user("host"), make_user("guest")
    match = start_match(humans=[host, guest])
    with pytest.raises(services.TableError):
        services.seat_leave(table_id=match.table_id, user=guest)


def test_bots_fill_the_free_seats_with_distinct_accounts() -> None:
    host = make_user("host")
    table = services.table_create(creator=host, rules=Rules(players=4), sit=False)
    with pytest.raises(services.TableError):
        services.seats_fill_with_bots(table_id=table.pk, user=make_user("stranger"), level="easy")
    seats = services.seats_fill_with_bots(table_id=table.pk, user=host, level="easy")
    users = [s.user for s in seats]
    assert len({u.pk for u in users}) == 4
    assert all(u.is_bot and u.bot_level == "easy" for u in users)
    assert selectors.table_current_match(table_id=table.pk) is not None
    again = services.table_create(creator=host, rules=Rules(players=2), sit=False)
    services.seats_fill_with_bots(table_id=again.pk, user=host, level="easy")
    assert {s.user for s in again.seats.all()} <= set(users)  # bot accounts are reused


# --- the move service ---------------------------------------------------------------------------


def _awaited_human(match: Match) -> tuple[int, Any]:
    state = state_of(match)
    seat = min(state.awaiting())
    return seat, player(match, seat).user


def test_a_legal_move_appends_to_the_log_and_bumps_the_version(seed: str) -> None:
    match = start_match(humans=[make_user("a"), make_user("b")])
    seat, user = _awaited_human(match)
    action = str(state_of(match).default_action(seat))
    result = services.action_apply(match_id=match.pk, user=user, action_text=action, expected_version=0)
    assert result.version == 1 and result.events and not result.finished
    move = Move.objects.get(match=match)
    assert (move.seq, move.seat, move.action, move.by) == (1, seat, action, Move.By.PLAYER)
    assert move.events == result.events
    match.refresh_from_db()
    assert (match.version, match.last_seq) == (1, 1)
    assert match.snapshot == match_replayed_snapshot(match)
    assert result.match.pk == match.pk and result.move == move and result.move.seq == match.last_seq


def test_the_row_keeps_the_number_of_the_last_logged_move(seed: str) -> None:
    match = start_match(humans=[make_user("a"), make_user("b")], turn_seconds=5)
    for _ in range(3):
        seat, user = _awaited_human(match)
        action = str(state_of(match).default_action(seat))
        services.action_apply(
            match_id=match.pk, user=user, action_text=action, expected_version=match.version
        )
        match.refresh_from_db()
    services.match_timeout(match_id=match.pk, version=match.version)  # may log several moves at once
    match.refresh_from_db()
    assert match.last_seq == match.moves.count() == max(match.moves.values_list("seq", flat=True))


@pytest.mark.parametrize(
    ("who", "text", "version", "error"),
    [
        ("awaited", "pass", 1, services.StaleVersion),
        ("awaited", "cover nonsense", 0, services.IllegalMove),
        ("awaited", "fly 6S", 0, services.IllegalMove),
        ("other", "attack 6S", 0, services.IllegalMove),
        ("stranger", "take", 0, services.NotYourSeat),
    ],
)
def test_a_refused_action_changes_nothing(
    seed: str, who: str, text: str, version: int, error: type[services.GameError]
) -> None:
    a, b = make_user("a"), make_user("b")
    match = start_match(humans=[a, b])
    _seat, awaited = _awaited_human(match)
    user = {"awaited": awaited, "other": b if awaited == a else a, "stranger": make_user("stranger")}[who]
    before = match.snapshot
    with pytest.raises(error) as caught:
        services.action_apply(match_id=match.pk, user=user, action_text=text, expected_version=version)
    assert caught.value.message  # a sentence for the sender
    match.refresh_from_db()
    assert match.version == 0 and match.snapshot == before and not match.moves.exists()


def test_the_illegal_move_message_carries_the_engines_reason(seed: str) -> None:
    match = start_match(humans=[make_user("a"), make_user("b")])
    seat, user = _awaited_human(match)
    state = state_of(match)
    hand = state.view(seat).hand
    other_cards = [c for c in ("6S", "7S", "8S", "9S", "10S", "AH") if c not in hand]
    with pytest.raises(services.IllegalMove) as caught:
        services.action_apply(
            match_id=match.pk,
            user=user,
            action_text=f"attack {other_cards[0]}",
            expected_version=0,
        )
    assert caught.value.code != "notation"
    assert "not allowed" in caught.value.message


def test_after_commit_a_thin_broadcast_and_the_next_tasks(
    seed: str, django_capture_on_commit_callbacks: Any
) -> None:
    human = make_user("human")
    with django_capture_on_commit_callbacks():
        match = start_match(humans=[human], bot_level="easy", turn_seconds=15, throw_in_seconds=15)
    state = state_of(match)
    human_seat = player(match, 0).seat
    if human_seat not in state.awaiting():  # let the bot lead first
        services.bot_turn(match_id=match.pk, version=0, seat=min(state.awaiting()))
        match.refresh_from_db()
        state = state_of(match)
    layer = mock.Mock()
    layer.group_send = mock.AsyncMock()
    with (
        mock.patch("durak_site.broadcast.get_channel_layer", return_value=layer),
        task_sends("games.bot_turn") as bot_task,
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.action_apply(
            match_id=match.pk,
            user=human,
            action_text=str(state.default_action(human_seat)),
            expected_version=match.version,
        )
    match.refresh_from_db()
    sent = {call.args[0]: call.args[1] for call in layer.group_send.await_args_list}
    changed = sent[f"match-{match.pk}"]
    committed_at = changed.pop("at")  # when it committed, for the push-time metric (ops)
    assert isinstance(committed_at, float)
    assert changed == {"type": "match.changed", "match": match.pk, "version": match.version}
    awaited_bot = [s for s in state_of(match).awaiting() if s != human_seat]
    assert bot_task.call_count == len(awaited_bot)
    for call in bot_task.call_args_list:
        assert call.kwargs["args"][:2] == (match.pk, match.version)
        assert 0.6 <= call.kwargs["countdown"] <= 1.2


# --- abort and play again -----------------------------------------------------------------------


def test_abort_only_before_the_first_action(seed: str) -> None:
    a, b = make_user("a"), make_user("b")
    match = start_match(humans=[a, b])
    with pytest.raises(services.NotYourSeat):
        services.match_abort(match_id=match.pk, user=make_user("stranger"))
    services.match_abort(match_id=match.pk, user=b)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.version == 1

    second = services.play_again(match_id=match.pk, user=a)
    assert second is None
    second = services.play_again(match_id=match.pk, user=b)
    assert second is not None and second.number == 2
    seat, user = _awaited_human(second)
    services.action_apply(
        match_id=second.pk,
        user=user,
        action_text=str(state_of(second).default_action(seat)),
        expected_version=0,
    )
    with pytest.raises(services.GameError):
        services.match_abort(match_id=second.pk, user=a)


def test_play_again_when_all_humans_agree_and_the_fool_deals(seed: str) -> None:
    from .services_support import play_out

    a, b = make_user("a"), make_user("b")
    match = play_out(start_match(humans=[a, b], bot_level="random", rules=Rules(players=3)))
    assert match.status == Match.Status.FINISHED
    with pytest.raises(services.NotYourSeat):
        services.play_again(match_id=match.pk, user=make_user("stranger"))
    assert services.play_again(match_id=match.pk, user=a) is None
    again = services.play_again(match_id=match.pk, user=b)
    assert again is not None and again.number == 2 and again.is_active
    assert match.result is not None
    fool = match.result["fool"]
    if fool is not None:
        assert again.dealer == fool
    with pytest.raises(services.GameError):
        services.play_again(match_id=match.pk, user=b)


def test_a_finished_match_refuses_moves(seed: str) -> None:
    from .services_support import play_out

    a, b = make_user("a"), make_user("b")
    match = play_out(start_match(humans=[a, b]))
    with pytest.raises(services.MatchOver):
        services.action_apply(match_id=match.pk, user=a, action_text="take", expected_version=match.version)
    places = {p.seat: (p.place, p.fool) for p in match.players.all()}
    result = match.result
    assert result is not None
    assert sorted(s for group in result["places"] for s in group) == [0, 1]
    if result["fool"] is not None:
        assert places[result["fool"]][1] is True


def test_the_creator_of_a_bots_only_table_deals_the_next_match(seed: str) -> None:
    from .services_support import play_out

    host = make_user("host")
    table = services.table_create(creator=host, rules=Rules(players=2), sit=False)
    services.seats_fill_with_bots(table_id=table.pk, user=host, level="random")
    match = selectors.table_current_match(table_id=table.pk)
    assert match is not None
    match = play_out(match)
    with pytest.raises(services.NotYourSeat):
        services.play_again(match_id=match.pk, user=make_user("stranger"))
    again = services.play_again(match_id=match.pk, user=host)
    assert again is not None and again.number == 2


def test_the_module_examples_hold() -> None:
    """The doctests of the pools and words the services use, and of the bots (Django is set up by
    pytest-django)."""
    import doctest

    import games.bots
    import games.bots.easy
    import games.bots.random_bot
    from games import pools, words

    for module in (pools, words, games.bots, games.bots.easy, games.bots.random_bot):
        failures, tried = doctest.testmod(module)
        assert tried and not failures, module.__name__


def test_between_matches_a_leaver_is_replaced_and_the_new_table_starts(seed: str) -> None:
    from .services_support import play_out

    a, b, c = make_user("a"), make_user("b"), make_user("c")
    match = play_out(start_match(humans=[a, b]))
    table = Table.objects.get(pk=match.table_id)
    assert table.status == Table.Status.PLAYING
    services.seat_leave(table_id=table.pk, user=b)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN and list(selectors.open_tables()) == [table]
    services.table_join(table_id=table.pk, user=c)
    second = selectors.table_current_match(table_id=table.pk)
    assert second is not None and second.number == 2 and second.is_active
    assert {p.user for p in second.players.all()} == {a, c}


def test_seat_changes_tell_the_table_page_and_the_lobby(django_capture_on_commit_callbacks: Any) -> None:
    host, guest = make_user("host"), make_user("guest")
    table = services.table_create(creator=host, rules=Rules(players=3))
    layer = mock.Mock()
    layer.group_send = mock.AsyncMock()
    with (
        mock.patch("durak_site.broadcast.get_channel_layer", return_value=layer),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.table_join(table_id=table.pk, user=guest)
    sent = [call.args for call in layer.group_send.await_args_list]
    assert (f"table-{table.pk}", {"type": "table.changed", "table": table.pk}) in sent
    assert ("lobby", {"type": "lobby.changed"}) in sent


def test_a_match_starts_only_at_a_full_table_without_a_game() -> None:
    host = make_user("host")
    table = services.table_create(creator=host, rules=Rules())
    with pytest.raises(services.TableError):
        services.match_start(table_id=table.pk)
    services.table_join(table_id=table.pk, user=make_user("guest"))
    with pytest.raises(services.TableError):
        services.match_start(table_id=table.pk)  # one is being played already


def test_tables_in_play_are_listed_for_spectators() -> None:
    host = make_user("host")
    table = services.table_create(creator=host, rules=Rules(), sit=False)
    assert list(playing_tables()) == []
    services.seats_fill_with_bots(table_id=table.pk, user=host, level="random")
    assert list(playing_tables()) == [table]
    hidden = services.table_create(creator=host, rules=Rules(), sit=False, private=True)
    services.seats_fill_with_bots(table_id=hidden.pk, user=host, level="random")
    assert list(playing_tables()) == [table]
