"""The tournament services on the embedded database: whole events of bots in every format,
played game by game through live play, and the organiser's and players' paths around them."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games.engine import Rules
from games.models import Match, Table
from play import services as games
from tests.play.services_support import play_out
from tests.tournaments.support import (
    open_with_bots,
    play_running_games,
    started_with_player,
    tournament_settings,
)
from tournaments import selectors, services
from tournaments.models import Entry, Pairing, ResultCorrection, Tournament

pytestmark = pytest.mark.django_db


def test_a_single_elimination_of_four_bots_is_played_to_its_champion(organiser: User) -> None:
    tournament = open_with_bots(organiser, 4, third_place=True)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    tournament = play_running_games(tournament)

    assert tournament.status == Tournament.Status.FINISHED and tournament.winner is not None
    slots = sorted(tournament.pairings.values_list("slot", flat=True))
    assert slots == ["3P", "W1-1", "W1-2", "W2-1"]
    places = list(tournament.entries.order_by("place").values_list("place", flat=True))
    assert places == [1, 2, 3, 4]
    assert tournament.entries.get(place=1).player == tournament.winner
    tables = Table.objects.filter(tournament_pairing__tournament=tournament)
    assert all(t.private and not t.rated for t in tables)


def test_a_match_recorded_twice_advances_the_bracket_once(organiser: User) -> None:
    tournament = open_with_bots(organiser, 4, rules=Rules(players=2, deck=24, draws=False).to_dict())
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    first = Pairing.objects.get(tournament=tournament, slot="W1-1")
    match = Match.objects.get(table=first.table)
    play_out(match)
    assert services.match_finished(match_id=match.pk)
    assert not services.match_finished(match_id=match.pk)
    first.refresh_from_db()
    assert first.status == Pairing.Status.DONE and first.winner is not None
    assert tournament.pairings.count() == 2  # the final waits for the other semi-final


@pytest.mark.parametrize(
    ("fmt", "bots", "extra", "pairings"),
    [
        (Tournament.Format.DOUBLE, 4, {}, None),
        (Tournament.Format.ROUND_ROBIN, 3, {"legs": 1}, 3),
        (Tournament.Format.SWISS, 5, {"rounds": 3}, 6),
        (Tournament.Format.MULTI_TABLE, 7, {"rounds": 2, "final_table": 3}, 5),
    ],
    ids=["double", "round-robin", "swiss", "multi-table"],
)
def test_every_format_plays_out_to_places_for_everyone(
    organiser: User, fmt: str, bots: int, extra: dict[str, int], pairings: int | None
) -> None:
    rules = Rules(players=4) if fmt == Tournament.Format.MULTI_TABLE else Rules(players=2, deck=24)
    tournament = open_with_bots(organiser, bots, format=fmt, rules=rules.to_dict(), **extra)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    tournament = play_running_games(tournament)

    assert tournament.status == Tournament.Status.FINISHED
    places = [e.place for e in tournament.entries.all()]
    assert all(place is not None for place in places) and 1 in places
    played = tournament.pairings.exclude(status=Pairing.Status.BYE).count()
    if pairings is not None:
        assert played == pairings
    if fmt == Tournament.Format.MULTI_TABLE:
        final = tournament.round_set.get(final=True)
        assert final.pairings.get().players.count() == 3
        assert tournament.entries.get(place=1).player == tournament.winner


def test_a_best_of_three_deals_games_at_the_same_table_until_decided(organiser: User) -> None:
    tournament = open_with_bots(organiser, 2, best_of=3)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    tournament = play_running_games(tournament)
    pairing = tournament.pairings.get()
    assert len(pairing.games) >= 2 and Match.objects.filter(table=pairing.table).count() == len(pairing.games)
    assert pairing.winner == tournament.winner


# --- registration, check-in, withdrawal, no-shows ---------------------------------------------------


def test_players_register_withdraw_and_come_back(organiser: User, make_player: Callable[[str], User]) -> None:
    tournament = open_with_bots(organiser, 0, max_players=2)
    anna, boris, clara = make_player("anna"), make_player("boris"), make_player("clara")
    services.entry_register(tournament_id=tournament.pk, user=anna)
    with pytest.raises(services.TournamentError, match="already registered"):
        services.entry_register(tournament_id=tournament.pk, user=anna)
    services.entry_register(tournament_id=tournament.pk, user=boris)
    with pytest.raises(services.TournamentError, match="full"):
        services.entry_register(tournament_id=tournament.pk, user=clara)
    services.entry_withdraw(tournament_id=tournament.pk, user=anna)
    services.entry_register(tournament_id=tournament.pk, user=clara)
    assert set(
        tournament.entries.filter(state=Entry.State.ACTIVE).values_list("player__username", flat=True)
    ) == {
        "boris",
        "clara",
    }
    assert tournament.entries.get(player=anna).state == Entry.State.WITHDRAWN


def test_no_shows_are_dropped_when_check_in_closes(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    tournament = open_with_bots(organiser, 2, checkin_minutes=30)
    anna, boris = make_player("anna"), make_player("boris")
    for user in (anna, boris):
        services.entry_register(tournament_id=tournament.pk, user=user)
    with pytest.raises(services.TournamentError, match="Check-in is not open"):
        services.entry_check_in(tournament_id=tournament.pk, user=anna)
    services.registration_close(tournament_id=tournament.pk, user=organiser)
    services.entry_check_in(tournament_id=tournament.pk, user=anna)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)

    assert tournament.entries.get(player=boris).state == Entry.State.NO_SHOW
    assert tournament.entries.filter(state=Entry.State.ACTIVE).count() == 3
    assert not tournament.pairings.filter(players__user=boris).exists()


def test_too_few_players_refuse_a_start_by_hand_and_cancel_one_at_its_time(organiser: User) -> None:
    from datetime import timedelta

    from django.utils import timezone

    tournament = open_with_bots(organiser, 1, min_players=4)
    with pytest.raises(services.TournamentError, match="Too few players"):
        services.tournament_start(tournament_id=tournament.pk, user=organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION
    services.tournaments_tick(now=timezone.now() + timedelta(hours=2))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED


def test_the_periodic_tick_starts_a_tournament_at_its_time(organiser: User) -> None:
    from datetime import timedelta

    from django.utils import timezone

    tournament = open_with_bots(organiser, 4, starts_at=timezone.now() + timedelta(minutes=5))
    assert services.tournaments_tick() == 0
    assert services.tournaments_tick(now=timezone.now() + timedelta(minutes=6)) >= 1
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.pairings.count() == 2


def test_a_removed_player_forfeits_and_the_opponent_goes_through(organiser: User) -> None:
    tournament, anna = started_with_player(organiser, 3, "anna")
    pairing = Pairing.objects.get(tournament=tournament, players__user=anna)
    opponent = pairing.players.exclude(user=anna).get().user

    services.player_remove(tournament_id=tournament.pk, user=organiser, player_id=anna.pk)
    pairing.refresh_from_db()
    assert pairing.forfeit and pairing.winner == opponent and pairing.fool is None
    match = Match.objects.get(table=pairing.table)
    assert match.status == Match.Status.FINISHED and match.result is not None
    assert match.result["reason"] == "forfeit"
    assert not services.match_finished(match_id=match.pk)  # the hook's task finds it decided
    tournament = play_running_games(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.entries.get(player=anna).state == Entry.State.REMOVED


def test_a_result_correction_is_logged_with_its_reason(organiser: User) -> None:
    tournament = open_with_bots(organiser, 3, format=Tournament.Format.ROUND_ROBIN)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    services.tournament_pause(tournament_id=tournament.pk, user=organiser)
    pairing = tournament.pairings.exclude(status=Pairing.Status.BYE).first()
    assert pairing is not None
    with pytest.raises(services.TournamentError, match="reason"):
        services.result_correct(pairing_id=pairing.pk, user=organiser, score=0.5, reason="  ")
    services.result_correct(pairing_id=pairing.pk, user=organiser, score=0.5, reason="agreed draw")
    correction = ResultCorrection.objects.get()
    assert correction.reason == "agreed draw" and correction.after["score"] == 0.5
    assert correction.before["status"] == Pairing.Status.PLAYING
    standings = {s.player: s.points for s in selectors.standings(tournament)}
    for row in pairing.players.all():
        assert standings[row.user_id] >= 0.5


def test_strangers_cannot_run_a_tournament(organiser: User, make_player: Callable[[str], User]) -> None:
    tournament = open_with_bots(organiser, 2)
    stranger = make_player("stranger")
    for call in (services.tournament_start, services.tournament_cancel, services.registration_close):
        with pytest.raises(services.NotAllowed):
            call(tournament_id=tournament.pk, user=stranger)
    director = make_player("director")
    director.groups.add(services.directors_group_ensure())
    services.tournament_start(tournament_id=tournament.pk, user=director)


def test_a_paused_best_of_three_waits_and_resumes_with_the_next_game(organiser: User) -> None:
    from tests.play.services_support import play_out

    tournament = open_with_bots(organiser, 2, best_of=3)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    pairing = tournament.pairings.get()
    services.tournament_pause(tournament_id=tournament.pk, user=organiser)
    first = Match.objects.get(table=pairing.table)
    play_out(first)
    services.match_finished(match_id=first.pk)
    pairing.refresh_from_db()
    assert (
        pairing.games and not Match.objects.filter(table=pairing.table, status=Match.Status.ACTIVE).exists()
    )
    services.tournament_resume(tournament_id=tournament.pk, user=organiser)
    assert Match.objects.filter(table=pairing.table, status=Match.Status.ACTIVE).count() == 1
    assert play_running_games(tournament).status == Tournament.Status.FINISHED


def test_the_tick_deals_again_after_a_game_was_aborted(organiser: User) -> None:
    tournament, anna = started_with_player(organiser, 1, "anna")
    pairing = tournament.pairings.get()
    match = Match.objects.get(table=pairing.table)
    # No bot has moved: its turn is a task sent after the commit, and nothing commits here.
    assert not match.moves.exists()
    games.match_abort(match_id=match.pk, user=anna)
    assert services.tournaments_tick() == 1
    assert Match.objects.filter(table=pairing.table, status=Match.Status.ACTIVE).count() == 1


def test_a_withdrawn_round_robin_player_forfeits_their_later_games(organiser: User) -> None:
    tournament, anna = started_with_player(organiser, 3, "anna", format=Tournament.Format.ROUND_ROBIN)
    services.entry_withdraw(tournament_id=tournament.pk, user=anna)
    tournament = play_running_games(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    anna_pairings = Pairing.objects.filter(tournament=tournament, players__user=anna)
    assert anna_pairings.count() == 3 and all(p.forfeit and p.winner_id != anna.pk for p in anna_pairings)
    assert tournament.entries.get(player=anna).place is None
    assert {s.player for s in selectors.standings(tournament)} == set(
        tournament.entries.filter(state=Entry.State.ACTIVE).values_list("player_id", flat=True)
    )


def test_a_double_elimination_player_removed_forfeits_through_the_losers_bracket(organiser: User) -> None:
    tournament = open_with_bots(organiser, 4, format=Tournament.Format.DOUBLE)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    removed = tournament.entries.get(seed=1).player
    services.player_remove(tournament_id=tournament.pk, user=organiser, player_id=removed.pk)
    tournament = play_running_games(tournament)
    assert tournament.status == Tournament.Status.FINISHED and tournament.winner != removed
    assert not Pairing.objects.filter(tournament=tournament, status=Pairing.Status.PLAYING).exists()


def test_a_rated_tournament_seeds_by_the_pool_rating_and_plays_rated_tables(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    from ratings.models import Rating

    tournament = open_with_bots(organiser, 0, rated=True, rules=Rules(players=2).to_dict())
    strong, weak = make_player("strong"), make_player("weak")
    Rating.objects.create(user=strong, pool="podkidnoy:2", rating=1720, best=1720)
    for user in (weak, strong):
        services.entry_register(tournament_id=tournament.pk, user=user)
    assert tournament.entries.get(player=strong).seed_rating == 1720
    assert tournament.entries.get(player=weak).seed_rating == 1500
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    assert tournament.entries.get(player=strong).seed == 1
    pairing = tournament.pairings.get()
    assert pairing.table is not None and pairing.table.rated
    assert [p.user for p in pairing.players.all()] == [strong, weak]


def test_a_rated_tournament_with_house_rules_is_refused(organiser: User) -> None:
    with pytest.raises(services.TournamentError, match="standard options"):
        services.tournament_create(
            organiser=organiser,
            settings=tournament_settings(rated=True, rules=Rules(players=2, deck=24).to_dict()),
        )
