"""Arena services on the embedded database: players paired as soon as they are free (no
immediate rematch while someone else can be waited for), tables of four with a smaller table
after the wait, joining mid-way, pausing, withdrawing, berserk, timeouts, the organiser's pause
and early end, and an end at which the games in play finish and count."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from django.test import override_settings

from accounts.models import User
from games.engine import Rules
from games.models import Match, MatchPlayer, Table
from play import services as games
from tests.play.services_support import match_state, play_out, task_sends
from tests.tournaments.support import (
    arena_matches,
    end_arena_now,
    finish_one,
    open_arena,
    wait_out,
)
from tournaments import selectors, services
from tournaments.formats.arena.pairing import PATIENCE_SECONDS
from tournaments.models import Entry, Pairing, PairingPlayer, Tournament

pytestmark = pytest.mark.django_db

TABLES_OF_FOUR = Rules(players=4, deck=36).to_dict()


def players_of(match: Match) -> set[int]:
    return set(match.players.values_list("user_id", flat=True))


def playing_twice(tournament: Tournament) -> list[int]:
    """Players in more than one game being played (there must be none)."""
    rows = PairingPlayer.objects.filter(
        pairing__tournament=tournament, pairing__status=Pairing.Status.PLAYING
    )
    users = list(rows.values_list("user_id", flat=True))
    return [u for u in set(users) if users.count(u) > 1]


def test_a_duel_arena_pairs_at_once_and_avoids_an_immediate_rematch(organiser: User) -> None:
    tournament = open_arena(organiser, 4)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.ends_at is not None
    first, second = arena_matches(tournament)
    assert players_of(first).isdisjoint(players_of(second))

    finish_one(first)
    assert arena_matches(tournament) == [second], "the two free players just met: they wait"
    finish_one(second)
    matches = arena_matches(tournament)
    assert len(matches) == 2 and not playing_twice(tournament)
    for match in matches:
        assert players_of(match) not in (players_of(first), players_of(second))

    lines = selectors.arena_leaderboard(tournament)
    assert sum(line.points for line in lines) == 4  # two decided games or draws: 2 points each
    assert all(line.games == 1 for line in lines)


def test_two_players_alone_meet_again_after_the_wait(organiser: User) -> None:
    tournament = open_arena(organiser, 2)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    (match,) = arena_matches(tournament)
    finish_one(match)
    assert arena_matches(tournament) == []
    wait_out(tournament, PATIENCE_SECONDS / 2)
    assert arena_matches(tournament) == []
    wait_out(tournament, PATIENCE_SECONDS / 2)
    (again,) = arena_matches(tournament)
    assert players_of(again) == players_of(match)


def test_a_pass_left_waiting_queues_the_next_for_when_the_wait_is_over(
    organiser: User, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = open_arena(organiser, 2)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    (match,) = arena_matches(tournament)
    play_out(match)
    with (
        task_sends("tournaments.arena_pass") as arena_pass,
        mock.patch("tournaments.tasks.match_finished.apply_async"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.match_finished(match_id=match.pk)
    (call,) = arena_pass.call_args_list
    assert call.kwargs["args"] == (tournament.pk,)
    assert PATIENCE_SECONDS <= call.kwargs["countdown"] <= PATIENCE_SECONDS + 1


def test_tables_of_four_and_a_smaller_table_after_the_wait(organiser: User) -> None:
    tournament = open_arena(organiser, 7, rules=TABLES_OF_FOUR)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    (table,) = arena_matches(tournament)
    assert len(players_of(table)) == 4
    wait_out(tournament, PATIENCE_SECONDS)
    tables = arena_matches(tournament)
    assert sorted(len(players_of(m)) for m in tables) == [3, 4]
    assert Match.objects.get(pk=tables[1].pk).rules["players"] == 3
    for match in tables:
        finish_one(match)
    lines = selectors.arena_leaderboard(tournament)
    assert sum(line.points for line in lines) >= 4 * 3 + 3 * 2  # 2 points a pair at each table
    assert not playing_twice(tournament)


def test_a_player_joins_mid_way_and_is_paired_with_the_next_free_one(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    tournament = open_arena(organiser, 3)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    assert len(arena_matches(tournament)) == 1  # the third bot waits alone
    anna = make_player("anna")
    entry = services.entry_register(tournament_id=tournament.pk, user=anna)
    assert entry.seed == 4 and entry.checked_in and entry.waiting_since is not None
    matches = arena_matches(tournament)
    assert len(matches) == 2 and any(anna.pk in players_of(m) for m in matches)
    with pytest.raises(services.TournamentError, match="already"):
        services.entry_register(tournament_id=tournament.pk, user=anna)
    added = services.bots_add(tournament_id=tournament.pk, user=organiser, level="easy", count=1)
    assert added[0].seed == 5


def test_a_paused_player_is_not_paired_until_they_come_back(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    tournament = open_arena(organiser, 1)
    anna = make_player("anna")
    services.entry_register(tournament_id=tournament.pk, user=anna)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    services.arena_pause(tournament_id=tournament.pk, user=anna)  # her game goes on
    (match,) = arena_matches(tournament)
    finish_one(match)
    bob = make_player("bob")
    services.entry_register(tournament_id=tournament.pk, user=bob)
    (match,) = arena_matches(tournament)
    assert anna.pk not in players_of(match)
    finish_one(match)
    with pytest.raises(services.TournamentError, match="already paused"):
        services.arena_pause(tournament_id=tournament.pk, user=anna)
    services.arena_resume(tournament_id=tournament.pk, user=anna)
    assert any(anna.pk in players_of(m) for m in arena_matches(tournament))
    with pytest.raises(services.TournamentError, match="not paused"):
        services.arena_resume(tournament_id=tournament.pk, user=anna)


@override_settings(GAMES_RATED_MIN_MOVES=0)  # a game left at once would not count (test_arena_fair.py)
def test_withdrawing_resigns_the_game_keeps_the_points_and_allows_a_return(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    tournament = open_arena(organiser, 3)
    anna = make_player("anna")
    services.entry_register(tournament_id=tournament.pk, user=anna)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    mine = next(m for m in arena_matches(tournament) if anna.pk in players_of(m))
    services.entry_withdraw(tournament_id=tournament.pk, user=anna)
    mine.refresh_from_db()
    assert MatchPlayer.objects.get(match=mine, user=anna).resigned
    play_out(mine)
    services.match_finished(match_id=mine.pk)
    mine.refresh_from_db()
    assert (
        mine.result is not None and mine.result["fool"] == MatchPlayer.objects.get(match=mine, user=anna).seat
    )
    assert all(anna.pk not in players_of(m) for m in arena_matches(tournament))
    line = next(line for line in selectors.arena_leaderboard(tournament) if line.player == anna.pk)
    assert line.games == 1 and line.points == 0
    services.entry_register(tournament_id=tournament.pk, user=anna)
    assert Entry.objects.get(tournament=tournament, player=anna).is_active


def test_berserk_halves_the_timer_and_scores_a_bonus_when_not_lost(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    tournament = open_arena(organiser, 1, turn_seconds=30)
    anna = make_player("anna")
    services.entry_register(tournament_id=tournament.pk, user=anna)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    (match,) = arena_matches(tournament)
    services.arena_berserk(tournament_id=tournament.pk, user=anna)
    assert MatchPlayer.objects.get(match=match, user=anna).turn_seconds == 15
    assert PairingPlayer.objects.get(pairing__tournament=tournament, user=anna).berserk
    with pytest.raises(services.TournamentError, match="already"):
        services.arena_berserk(tournament_id=tournament.pk, user=anna)
    play_out(match)
    services.match_finished(match_id=match.pk)
    match.refresh_from_db()
    line = next(line for line in selectors.arena_leaderboard(tournament) if line.player == anna.pk)
    (score,) = line.sheet.scores
    assert score.berserk
    lost = (
        match.result is not None
        and match.result["fool"] == MatchPlayer.objects.get(match=match, user=anna).seat
    )
    assert score.bonus == (0 if lost or match.last_seq < 8 else 1)


def test_berserk_is_refused_where_it_does_not_belong(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    plain = open_arena(organiser, 1, berserk=False)
    anna = make_player("anna")
    services.entry_register(tournament_id=plain.pk, user=anna)
    services.tournament_start(tournament_id=plain.pk, user=organiser)
    with pytest.raises(services.TournamentError, match="does not allow berserk"):
        services.arena_berserk(tournament_id=plain.pk, user=anna)
    tournament = open_arena(organiser, 1, name="Berserk arena")
    bob = make_player("bob")
    services.entry_register(tournament_id=tournament.pk, user=bob)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    (match,) = arena_matches(tournament)
    seat = MatchPlayer.objects.get(match=match, user=bob).seat
    state = match_state(match)
    while seat not in state.awaiting():  # the bot leads first: play until it is Bob's turn
        assert games.bot_turn(match_id=match.pk, version=match.version, seat=min(state.awaiting()))
        match.refresh_from_db()
        state = match_state(match)
    games.action_apply(
        match_id=match.pk,
        user=bob,
        action_text=str(state.default_action(seat)),
        expected_version=match.version,
    )
    with pytest.raises(services.TournamentError, match="first move"):
        services.arena_berserk(tournament_id=tournament.pk, user=bob)
    assert not PairingPlayer.objects.get(pairing__tournament=tournament, user=bob).berserk


def test_a_player_who_timed_out_into_the_autopilot_is_paused(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    tournament = open_arena(organiser, 1)
    anna = make_player("anna")
    services.entry_register(tournament_id=tournament.pk, user=anna)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    (match,) = arena_matches(tournament)
    while True:  # Anna never moves: every turn of hers times out
        match.refresh_from_db()
        if not match.is_active:
            break
        state = match_state(match)
        seat = min(state.awaiting())
        if MatchPlayer.objects.get(match=match, seat=seat).user_id == anna.pk:
            games.match_timeout(match_id=match.pk, version=match.version)
        else:
            games.bot_turn(match_id=match.pk, version=match.version, seat=seat)
    services.match_finished(match_id=match.pk)
    assert Entry.objects.get(tournament=tournament, player=anna).paused
    assert arena_matches(tournament) == []


def test_a_finished_arena_table_is_closed_so_nobody_plays_again_there(organiser: User) -> None:
    tournament = open_arena(organiser, 2)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    (match,) = arena_matches(tournament)
    finish_one(match)
    table = Table.objects.get(pk=match.table_id)
    assert table.status == Table.Status.CLOSED and not table.seats.exists()
    assert not services.match_finished(match_id=match.pk), "a second delivery does nothing"
    assert tournament.pairings.count() == 1


def test_a_task_delivered_twice_pairs_once(organiser: User) -> None:
    tournament = open_arena(organiser, 4)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    first, second = arena_matches(tournament)
    play_out(first)
    play_out(second)
    assert services.match_finished(match_id=first.pk)
    assert services.match_finished(match_id=second.pk)
    assert not services.match_finished(match_id=second.pk)
    assert services.arena_pass(tournament_id=tournament.pk) == 0
    assert tournament.pairings.filter(status=Pairing.Status.PLAYING).count() == 2
    assert not playing_twice(tournament)


def test_the_organisers_pause_stops_pairing_and_resume_pairs_again(organiser: User) -> None:
    tournament = open_arena(organiser, 4)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    services.tournament_pause(tournament_id=tournament.pk, user=organiser)
    for match in arena_matches(tournament):
        finish_one(match)  # games in play finish and count
    assert arena_matches(tournament) == []
    assert sum(line.games for line in selectors.arena_leaderboard(tournament)) == 4
    services.tournament_resume(tournament_id=tournament.pk, user=organiser)
    assert len(arena_matches(tournament)) == 2


def test_at_the_end_games_in_play_finish_and_count_then_the_arena_finishes(organiser: User) -> None:
    tournament = open_arena(organiser, 4)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    first, second = arena_matches(tournament)
    end_arena_now(tournament)
    finish_one(first)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and arena_matches(tournament) == [second]
    finish_one(second)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    lines = selectors.arena_leaderboard(tournament)
    assert sum(line.games for line in lines) == 4
    places = dict(tournament.entries.values_list("player_id", "place"))
    assert places == {line.player: line.rank for line in lines}
    if lines[0].rank != lines[1].rank:
        assert tournament.winner_id == lines[0].player


def test_finish_now_ends_the_time_and_the_last_game_ends_the_arena(organiser: User) -> None:
    tournament = open_arena(organiser, 2)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    services.tournament_finish(tournament_id=tournament.pk, user=organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    with pytest.raises(services.TournamentError, match="Registration is closed"):
        services.entry_register(tournament_id=tournament.pk, user=User.objects.create_user(username="late"))
    (match,) = arena_matches(tournament)
    finish_one(match)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and arena_matches(tournament) == []


def test_the_tick_ends_an_arena_whose_game_was_aborted(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    tournament = open_arena(organiser, 1)
    anna = make_player("anna")
    services.entry_register(tournament_id=tournament.pk, user=anna)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    (match,) = arena_matches(tournament)
    games.match_abort(match_id=match.pk, user=anna)
    services.tournaments_tick()
    (dealt,) = arena_matches(tournament)
    assert dealt.table_id == match.table_id and dealt.pk != match.pk  # dealt again at its table
    games.match_abort(match_id=dealt.pk, user=anna)
    end_arena_now(tournament)
    services.tournaments_tick()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.pairings.get().status == Pairing.Status.DONE  # void: no places
    assert all(line.games == 0 for line in selectors.arena_leaderboard(tournament))


def test_an_arena_needs_a_duration_and_refuses_corrections(organiser: User) -> None:
    from tests.tournaments.support import arena_settings

    with pytest.raises(services.TournamentError, match="minutes"):
        services.tournament_create(organiser=organiser, settings=arena_settings(duration_minutes=0))
    tournament = open_arena(organiser, 2)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    pairing = tournament.pairings.get()
    with pytest.raises(services.TournamentError, match="two-player pairings"):
        services.result_correct(pairing_id=pairing.pk, user=organiser, score=1.0, reason="because")


def test_a_rated_arena_deals_rated_tables(organiser: User, make_player: Callable[[str], User]) -> None:
    tournament = open_arena(organiser, 0, rated=True, rules=Rules(players=2).to_dict())
    for name in ("anna", "boris"):  # people: a game with the club's bots is casual (test_rated_bots.py)
        services.entry_register(tournament_id=tournament.pk, user=make_player(name))
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    (match,) = arena_matches(tournament)
    assert Table.objects.get(pk=match.table_id).rated
