"""Reads of tournaments for pages, sockets and the services (services write, selectors read).

The bracket, the standings and the results history are rebuilt here from the stored rows by the
pure modules (``elimination``, ``standings``, ``multitable``), so the page and the service that
advances the event always see the same thing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet

from accounts.models import User
from games import early
from games.engine import Rules
from games.models import Match, MatchPlayer
from games.pools import rated_pool
from ratings.models import Rating
from ratings.starts import start_rating
from tournaments.formats.arena.scoring import BERSERK_MIN_MOVES, ArenaGame, Line, leaderboard
from tournaments.formats.elimination import (
    BracketPlan,
    Format,
    SlotId,
    SlotState,
    bracket_state,
    plan_bracket,
)
from tournaments.formats.favourites import PlayerId
from tournaments.formats.multitable import TableResult
from tournaments.formats.standings import GameResult, Standing, multitable_standings, two_player_standings
from tournaments.models import Entry, Pairing, PairingPlayer, ResultCorrection, Round, Tournament


def seed_rating(user: User, rules: Rules) -> float:
    """The rating a player is seeded by: theirs in the pool of the tournament's game (the
    variant's standard pool for that table size when the options are not standard); without one,
    the rating they would start with (a bot's level start)."""
    pool = rated_pool(Rules.for_variant(rules.variant, players=rules.players))
    row = Rating.objects.filter(user=user, pool=pool).values_list("rating", flat=True).first()
    return float(row) if row is not None else start_rating(user)


# --- lists --------------------------------------------------------------------------------------


def visible_tournaments(user: User | Any) -> QuerySet[Tournament]:
    """Tournaments ``user`` may see: all but drafts, plus their own drafts (those who may run any
    tournament: every one)."""
    queryset = Tournament.objects.select_related("organiser", "winner").annotate(
        players=Count("entries", filter=Q(entries__state=Entry.State.ACTIVE))
    )
    if user.is_authenticated and user.has_perm(RUN_ANY):
        return queryset
    drafts = Q(status=Tournament.Status.DRAFT)
    if user.is_authenticated:
        return queryset.filter(~drafts | Q(organiser=user))
    return queryset.exclude(drafts)


def tournament_lists(user: User | Any) -> dict[str, list[Tournament]]:
    """The list page's three sections: upcoming (soonest first), running, finished (latest first)."""
    visible = visible_tournaments(user)
    upcoming = (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION, Tournament.Status.CHECK_IN)
    live = (Tournament.Status.RUNNING, Tournament.Status.PAUSED)
    over = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    return {
        "upcoming": list(visible.filter(status__in=upcoming).order_by("starts_at")),
        "running": list(visible.filter(status__in=live).order_by("-started_at")),
        "finished": list(visible.filter(status__in=over).order_by("-finished_at")[:30]),
    }


def tournament_get(*, tournament_id: int) -> Tournament:
    """A tournament with its organiser (raises ``Tournament.DoesNotExist``)."""
    return Tournament.objects.select_related("organiser", "winner").get(pk=tournament_id)


#: The permission to run anyone's tournament (a superuser has every permission).
RUN_ANY = "tournaments.run_any_tournament"


def may_run(tournament: Tournament, user: User | Any) -> bool:
    """Whether ``user`` may run ``tournament`` (open, start, cancel, finish, remove a player,
    correct a result, see and change a draft): its organiser, or whoever holds ``RUN_ANY``
    (given by the "Tournament directors" group). Being staff alone gives nothing."""
    if not user.is_authenticated:
        return False
    return bool(tournament.organiser_id == user.pk or user.has_perm(RUN_ANY))


def may_see(tournament: Tournament, user: User | Any) -> bool:
    """A draft is seen by those who may run it only."""
    return tournament.status != Tournament.Status.DRAFT or may_run(tournament, user)


def entries(tournament: Tournament) -> list[Entry]:
    """Every entry with its player: by final place once there are places, else seeded ones in
    seed order, then by registration."""
    rows = list(tournament.entries.select_related("player").order_by("seed", "registered_at"))
    return sorted(rows, key=lambda e: (e.place is None, e.place or 0))


def player_history(*, user: User) -> QuerySet[Entry]:
    """``user``'s tournaments for their profile, latest first (drafts left out)."""
    return (
        Entry.objects.filter(player=user)
        .exclude(tournament__status=Tournament.Status.DRAFT)
        .select_related("tournament")
        .order_by("-tournament__starts_at")
    )


def player_current(*, user: User) -> QuerySet[Entry]:
    """``user``'s entries in tournaments not over yet (registration to running), soonest first:
    the home page's "your tournaments"."""
    live = (
        Tournament.Status.REGISTRATION,
        Tournament.Status.CHECK_IN,
        Tournament.Status.RUNNING,
        Tournament.Status.PAUSED,
    )
    return (
        Entry.objects.filter(player=user, state=Entry.State.ACTIVE, tournament__status__in=live)
        .select_related("tournament")
        .order_by("tournament__starts_at", "tournament_id")
    )


@dataclass(frozen=True, slots=True)
class NextTable:
    """Where a player should be now: their running pairing's table or match."""

    tournament: Tournament
    table_id: int
    match_id: int | None


def next_tables(*, user: User | Any) -> list[NextTable]:
    """The viewer's pairings being played in running tournaments (for the "your table" notice)."""
    if not user.is_authenticated:
        return []
    rows = (
        Pairing.objects.filter(
            status=Pairing.Status.PLAYING,
            tournament__status=Tournament.Status.RUNNING,
            players__user=user,
            table__isnull=False,
        )
        .select_related("tournament")
        .order_by("pk")
    )
    pairings = list(rows)
    active = _latest_matches(
        Match.objects.filter(table_id__in=[p.table_id for p in pairings], status=Match.Status.ACTIVE)
    )
    found = []
    for pairing in pairings:
        assert pairing.table_id is not None
        found.append(NextTable(pairing.tournament, pairing.table_id, active.get(pairing.table_id)))
    return found


def table_matches(tournament: Tournament) -> dict[int, int]:
    """Table -> the id of its latest match, for every table of ``tournament`` (one query, so a
    page links each pairing to its game without a query per pairing)."""
    return _latest_matches(Match.objects.filter(table__tournament_pairing__tournament=tournament))


def _latest_matches(matches: QuerySet[Match]) -> dict[int, int]:
    """Table -> the id of the highest-numbered of ``matches`` at it."""
    return dict(matches.order_by("table_id", "number").values_list("table_id", "pk"))


# --- results as the pure code wants them ---------------------------------------------------------


def bracket_plan(tournament: Tournament) -> BracketPlan | None:
    """The elimination bracket, rebuilt from the stored seeds (``None`` before the start or for
    another format)."""
    if not tournament.is_elimination:
        return None
    seeds = list(
        tournament.entries.filter(seed__isnull=False).order_by("seed").values_list("player_id", flat=True)
    )
    if len(seeds) < 2:
        return None
    fmt = Format.SINGLE if tournament.format == Tournament.Format.SINGLE else Format.DOUBLE
    return plan_bracket(fmt, seeds, third_place=tournament.third_place)


def bracket_inputs(tournament: Tournament) -> tuple[dict[SlotId, PlayerId], set[PlayerId]]:
    """The slots' recorded winners and the players who are out (withdrawn, removed)."""
    winners = dict(
        tournament.pairings.filter(status=Pairing.Status.DONE, winner__isnull=False)
        .exclude(slot="")
        .values_list("slot", "winner_id")
    )
    out = set(
        tournament.entries.filter(seed__isnull=False)
        .exclude(state=Entry.State.ACTIVE)
        .values_list("player_id", flat=True)
    )
    return winners, out


def two_player_results(
    tournament: Tournament, *, for_pairing: bool = False
) -> tuple[list[GameResult], list[PlayerId]]:
    """Decided pairings as ``GameResult`` and one entry per bye.

    For standings a forfeit win counts as a bye (the opponent never played); for Swiss pairing
    (``for_pairing``) only real byes count, so a forfeit win does not use up a player's bye."""
    results: list[GameResult] = []
    byes: list[PlayerId] = []
    rows = tournament.pairings.exclude(status=Pairing.Status.PLAYING).prefetch_related("players")
    for pairing in rows:
        players = [p.user_id for p in pairing.players.all()]
        if pairing.status == Pairing.Status.BYE:
            byes.append(players[0])
        elif pairing.forfeit:
            if pairing.winner_id is not None and not for_pairing:
                byes.append(pairing.winner_id)
        elif pairing.score is not None and len(players) == 2:
            results.append(GameResult(players[0], players[1], pairing.score, pairing.fool_id))
    return results, byes


def table_results(tournament: Tournament, *, rounds: Iterable[Round] | None = None) -> list[TableResult]:
    """Finished multi-table pairings (of ``rounds``, or of the ordinary rounds) as results."""
    pairings = tournament.pairings.filter(status=Pairing.Status.DONE)
    if rounds is None:
        pairings = pairings.filter(round__final=False)
    else:
        pairings = pairings.filter(round__in=list(rounds))
    found = []
    for pairing in pairings.prefetch_related("players"):
        places = {p.user_id: p.place for p in pairing.players.all() if p.place is not None}
        if len(places) < 2:
            continue
        fool = pairing.fool_id if pairing.fool_id in places else None
        if fool is not None and sum(1 for place in places.values() if place == places[fool]) > 1:
            fool = None
        found.append(TableResult.from_places(places, fool))
    return found


def standings(tournament: Tournament) -> list[Standing]:
    """The standings of a round robin, Swiss or multi-table event (players still in)."""
    active = list(
        tournament.entries.filter(state=Entry.State.ACTIVE, seed__isnull=False)
        .order_by("seed")
        .values_list("player_id", flat=True)
    )
    if tournament.is_multi_table:
        return multitable_standings(active, table_results(tournament))
    results, byes = two_player_results(tournament)
    return two_player_standings(active, results, byes=byes)


# --- the page -----------------------------------------------------------------------------------


def rounds_with_pairings(tournament: Tournament) -> list[Round]:
    """Rounds, each with its pairings and their players (for the round-by-round tables); each
    pairing carries ``corrected``, whether the organiser changed its result."""
    players = Prefetch("players", queryset=PairingPlayer.objects.select_related("user"))
    corrected = Exists(ResultCorrection.objects.filter(pairing=OuterRef("pk")))
    pairings = Prefetch(
        "pairings",
        queryset=Pairing.objects.annotate(corrected=corrected)
        .prefetch_related(players)
        .order_by("slot", "board"),
    )
    return list(tournament.round_set.prefetch_related(pairings).order_by("number"))


def bracket_states(tournament: Tournament) -> dict[SlotId, SlotState]:
    """Every slot's state now (empty before the start)."""
    plan = bracket_plan(tournament)
    if plan is None:
        return {}
    winners, out = bracket_inputs(tournament)
    return bracket_state(plan, winners, out)


# --- arenas -------------------------------------------------------------------------------------


def arena_field(tournament: Tournament) -> list[PlayerId]:
    """Everyone on an arena's leaderboard, by rating (its last tiebreak): each player who took
    part and was not removed; a player who withdrew keeps the points they made."""
    return list(
        tournament.entries.filter(seed__isnull=False, state__in=(Entry.State.ACTIVE, Entry.State.WITHDRAWN))
        .order_by("-seed_rating", "seed")
        .values_list("player_id", flat=True)
    )


def arena_games(tournament: Tournament) -> list[ArenaGame]:
    """The arena's finished games in the order they ended, as the scoring wants them. A game
    left too early (``games.early``: a forfeit before every player made a few moves of their
    own) is left out: it scores nobody anything and neither makes nor breaks a streak."""
    pairings = (
        tournament.pairings.filter(status=Pairing.Status.DONE)
        .order_by("finished_at", "pk")
        .prefetch_related("players")
    )
    finished = Match.objects.filter(
        table__tournament_pairing__tournament=tournament, status=Match.Status.FINISHED
    )
    rows_of = {
        table_id: (pk, seq, result)
        for table_id, pk, seq, result in finished.values_list("table_id", "pk", "last_seq", "result")
    }
    moves = {table_id: seq for table_id, (_pk, seq, _result) in rows_of.items()}
    short = _ended_too_early([(pk, result or {}) for pk, _seq, result in rows_of.values()])
    found = []
    for number, pairing in enumerate(pairings, start=1):
        rows = list(pairing.players.all())
        places = {r.user_id: r.place for r in rows if r.place is not None}
        if len(places) < 2:
            continue  # void: the game never finished (aborted when the arena ended)
        if pairing.table_id in rows_of and rows_of[pairing.table_id][0] in short:
            continue  # left too early: no points, no streak
        fool = pairing.fool_id if pairing.fool_id in places else None
        if fool is not None and (
            places[fool] != max(places.values()) or sum(1 for p in places.values() if p == places[fool]) > 1
        ):
            fool = None
        found.append(
            ArenaGame(
                number,
                TableResult.from_places(places, fool),
                frozenset(r.user_id for r in rows if r.berserk),
                pairing.table_id is not None and moves.get(pairing.table_id, 0) >= BERSERK_MIN_MOVES,
            )
        )
    return found


def _ended_too_early(matches: list[tuple[int, dict[str, Any]]]) -> set[int]:
    """Which of the finished ``(match id, result)`` ended too early (``games.early``)."""
    forfeits = [(pk, result) for pk, result in matches if result.get("reason") == "forfeit"]
    own = early.own_moves(pk for pk, _result in forfeits)
    minimum = int(settings.GAMES_RATED_MIN_MOVES)
    return {
        pk
        for pk, result in forfeits
        if early.ended_too_early(result, own.get(pk, {}), _seats(result), minimum)
    }


def _seats(result: dict[str, Any]) -> list[int]:
    return [int(seat) for group in result.get("places", ()) for seat in group]


def arena_leaderboard(tournament: Tournament) -> list[Line]:
    """The arena's leaderboard now (``tournaments.formats.arena.scoring.leaderboard``)."""
    return leaderboard(arena_field(tournament), arena_games(tournament))


def arena_last_opponents(tournament: Tournament) -> dict[PlayerId, set[PlayerId]]:
    """Each player's opponents at their last finished game of the arena."""
    rows = (
        PairingPlayer.objects.filter(pairing__tournament=tournament, pairing__status=Pairing.Status.DONE)
        .order_by("pairing__finished_at", "pairing_id")
        .values_list("pairing_id", "user_id")
    )
    players: dict[int, set[PlayerId]] = {}
    latest: dict[PlayerId, int] = {}
    for pairing_id, user_id in rows:
        players.setdefault(pairing_id, set()).add(user_id)
        latest[user_id] = pairing_id
    return {user: players[pairing] - {user} for user, pairing in latest.items()}


def arena_playing(tournament: Tournament) -> dict[PlayerId, tuple[Pairing, int | None]]:
    """Each player of a game being played in the arena: its pairing and match (``None`` until
    it is dealt)."""
    pairings = list(
        tournament.pairings.filter(status=Pairing.Status.PLAYING)
        .prefetch_related("players")
        .order_by("board")
    )
    active = _latest_matches(
        Match.objects.filter(table_id__in=[p.table_id for p in pairings], status=Match.Status.ACTIVE)
    )
    found: dict[PlayerId, tuple[Pairing, int | None]] = {}
    for pairing in pairings:
        match_id = None if pairing.table_id is None else active.get(pairing.table_id)
        for row in pairing.players.all():
            found[row.user_id] = (pairing, match_id)
    return found


def busy_players(users: Iterable[PlayerId]) -> set[PlayerId]:
    """Those of ``users`` who are people still playing a game anywhere on the site (and have
    not resigned it): an arena pairs nobody into a second game. Bots play any number at once."""
    return set(
        MatchPlayer.objects.filter(
            user_id__in=list(users), user__is_bot=False, match__status=Match.Status.ACTIVE, resigned=False
        )
        .values_list("user_id", flat=True)
        .distinct()
    )
