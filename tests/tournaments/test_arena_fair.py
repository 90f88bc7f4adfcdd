"""A rated arena nobody can farm (issue 35 §2; ``docs/rules.md`` §7), tried with two accounts of
one person: the bar from rated play keeps a player out of a rated arena and out of its pairings,
and a game one of them leaves at once scores nothing, makes no streak and moves no rating."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import override_settings

from accounts.models import User
from games.engine import Rules
from games.models import RatedQuit
from people.models import Sanction
from play import services as games
from ratings.models import RatingChange, UnratedMatch
from ratings.tasks import rate_match
from tests.play.services_support import play_out
from tests.tournaments.support import arena_matches, open_arena, wait_out
from tournaments import selectors, services
from tournaments.formats.arena.pairing import PATIENCE_SECONDS
from tournaments.formats.arena.scoring import Line
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

DUEL = Rules(players=2).to_dict()


def rated_arena(organiser: User, *players: User) -> Tournament:
    tournament = open_arena(organiser, 0, rated=True, rules=DUEL)
    for player in players:
        services.entry_register(tournament_id=tournament.pk, user=player)
    return tournament


def line_of(tournament: Tournament, user: User) -> Line:
    return next(line for line in selectors.arena_leaderboard(tournament) if line.player == user.pk)


@override_settings(GAMES_RATED_MIN_MOVES=3, GAMES_RATED_QUITS=10)
def test_games_the_second_account_resigns_at_once_score_nothing_and_rate_nothing(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    """The issue's farm: a rated arena of two accounts gave 1500 -> 1611 and a streak."""
    main, second = make_player("main"), make_player("second")
    tournament = rated_arena(organiser, main, second)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    for _ in range(4):
        (match,) = arena_matches(tournament)
        games.match_resign(match_id=match.pk, user=second)
        services.match_finished(match_id=match.pk)
        rate_match(match.pk)
        wait_out(tournament, PATIENCE_SECONDS + 1)  # the two alone meet again after the wait
    line = line_of(tournament, main)
    assert line.points == 0 and line.games == 0 and not line.sheet.on_fire
    assert not RatingChange.objects.exists()
    assert UnratedMatch.objects.filter(reason="early").count() == 4
    assert RatedQuit.objects.filter(user=second).count() == 4


@override_settings(GAMES_RATED_MIN_MOVES=3)
def test_a_game_played_out_still_scores(organiser: User, make_player: Callable[[str], User]) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    tournament = rated_arena(organiser, anna, boris)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    (match,) = arena_matches(tournament)
    play_out(match)
    services.match_finished(match_id=match.pk)
    assert line_of(tournament, anna).games == 1 and line_of(tournament, boris).games == 1
    assert line_of(tournament, anna).points + line_of(tournament, boris).points == 2


@override_settings(GAMES_RATED_QUITS=1, GAMES_RATED_MIN_MOVES=3)
def test_a_player_barred_by_the_ledger_may_not_join_a_rated_arena_but_may_join_a_casual_one(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    fisher, other = make_player("fisher"), make_player("other")
    table = games.table_create(creator=fisher, rules=Rules(), rated=True)
    games.table_join(table_id=table.pk, user=other)
    games.match_abort(match_id=table.matches.get().pk, user=fisher)
    rated = open_arena(organiser, 0, rated=True, rules=DUEL)
    with pytest.raises(services.TournamentError, match="more minute"):
        services.entry_register(tournament_id=rated.pk, user=fisher)
    assert not rated.entries.exists()
    casual = open_arena(organiser, 0)
    services.entry_register(tournament_id=casual.pk, user=fisher)


@pytest.mark.parametrize("bar", ["ledger", "staff"])
@override_settings(GAMES_RATED_QUITS=1, GAMES_RATED_MIN_MOVES=3)
def test_a_player_barred_after_joining_is_not_paired_in_a_rated_arena(
    organiser: User, make_player: Callable[[str], User], bar: str
) -> None:
    anna, boris = make_player("anna"), make_player("boris")
    tournament = rated_arena(organiser, anna, boris)
    if bar == "staff":
        Sanction.objects.create(user=boris, kind=Sanction.Kind.RATED_BAR)
    else:
        table = games.table_create(creator=boris, rules=Rules(), rated=True)
        games.table_join(table_id=table.pk, user=make_player("third"))
        games.match_abort(match_id=table.matches.get().pk, user=boris)
        play_out(table.matches.get())  # the other plays the abandoned game out
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    assert arena_matches(tournament) == []
    assert not tournament.pairings.exists()
