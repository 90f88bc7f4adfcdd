"""Helpers of the tournament site tests: valid settings, bot fields, and a driver that plays every
running game of a tournament through the live-play services (no Celery: the driver calls the
task's service itself, as the worker would after each commit).

A module of its own, imported as ``tests.tournaments.support``, rather than names taken from
``conftest``: a bare ``import conftest`` depends on which conftest sits first on ``sys.path``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from accounts.models import User
from games.engine import Rules
from games.models import Match
from tests.play.services_support import make_user, play_out
from tournaments import services
from tournaments.models import Pairing, Tournament

#: Short games: two players with the 24-card deck.
FAST_RULES = Rules(players=2, deck=24)


def tournament_settings(**overrides: Any) -> dict[str, Any]:
    """Valid settings for ``services.tournament_create`` (a casual 2-player event starting soon)."""
    settings: dict[str, Any] = {
        "name": "Friday cup",
        "description": "",
        "format": Tournament.Format.SINGLE,
        "third_place": False,
        "legs": 1,
        "rounds": 0,
        "final_table": 0,
        "rules": FAST_RULES.to_dict(),
        "best_of": 1,
        "turn_seconds": 30,
        "min_players": 2,
        "max_players": 16,
        "starts_at": timezone.now() + timedelta(hours=1),
        "registration_deadline": None,
        "checkin_minutes": 0,
        "rated": False,
        "bots_allowed": True,
    }
    settings.update(overrides)
    return settings


def open_with_bots(organiser: User, bots: int, **overrides: Any) -> Tournament:
    """A tournament in registration with ``bots`` easy bots entered."""
    tournament = services.tournament_create(organiser=organiser, settings=tournament_settings(**overrides))
    services.registration_open(tournament_id=tournament.pk, user=organiser)
    if bots:
        services.bots_add(tournament_id=tournament.pk, user=organiser, level="easy", count=bots)
    return tournament


def started_with_player(organiser: User, bots: int, name: str, **overrides: Any) -> tuple[Tournament, User]:
    """A started tournament of ``bots`` easy bots and one human, ``name``, registered after them."""
    tournament = open_with_bots(organiser, bots, **overrides)
    player = make_user(name)
    services.entry_register(tournament_id=tournament.pk, user=player)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    return tournament, player


def play_running_games(tournament: Tournament, *, limit: int = 200) -> Tournament:
    """Play every game the tournament deals until it stops running; returns it refreshed."""
    for _ in range(limit):
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            return tournament
        match = Match.objects.filter(
            table__tournament_pairing__tournament=tournament,
            table__tournament_pairing__status=Pairing.Status.PLAYING,
            status=Match.Status.ACTIVE,
        ).first()
        assert match is not None, "a running tournament with no game being played"
        play_out(match)
        services.match_finished(match_id=match.pk)
    raise AssertionError("the tournament did not end")


def arena_settings(**overrides: Any) -> dict[str, Any]:
    """Valid settings of a casual duel arena of 30 minutes that allows bots and berserk."""
    values: dict[str, Any] = {
        "name": "Evening arena",
        "format": Tournament.Format.ARENA,
        "duration_minutes": 30,
        "berserk": True,
        "max_players": 64,
    }
    values.update(overrides)
    return tournament_settings(**values)


def open_arena(organiser: User, bots: int, **overrides: Any) -> Tournament:
    """An arena in registration with ``bots`` easy bots entered."""
    tournament = services.tournament_create(organiser=organiser, settings=arena_settings(**overrides))
    services.registration_open(tournament_id=tournament.pk, user=organiser)
    if bots:
        services.bots_add(tournament_id=tournament.pk, user=organiser, level="easy", count=bots)
    return tournament


def arena_matches(tournament: Tournament) -> list[Match]:
    """The arena's games being played, oldest first."""
    return list(
        Match.objects.filter(
            table__tournament_pairing__tournament=tournament,
            table__tournament_pairing__status=Pairing.Status.PLAYING,
            status=Match.Status.ACTIVE,
        ).order_by("pk")
    )


def finish_one(match: Match) -> None:
    """Play ``match`` out and run what its task would."""
    play_out(match)
    services.match_finished(match_id=match.pk)


def wait_out(tournament: Tournament, seconds: float) -> None:
    """Make every free player of the arena have waited ``seconds`` longer, then run a pass."""
    for entry in tournament.entries.exclude(waiting_since=None):
        assert entry.waiting_since is not None
        entry.waiting_since -= timedelta(seconds=seconds)
        entry.save(update_fields=["waiting_since"])
    services.arena_pass(tournament_id=tournament.pk)


def end_arena_now(tournament: Tournament) -> None:
    """Bring the arena's end to now (as if its time had run out)."""
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
