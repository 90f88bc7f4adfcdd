"""Moving the event on: a pairing's finished games read, then the next game dealt, the next round
or bracket slot paired, or the end.

What comes next is derived from what is stored (the bracket from the slots' winners, a round's
end from its pairings), never advanced in place: whichever of two results is recorded second
sees both and creates the next pairing once, and a task delivered twice finds its pairing already
decided, or the next game already dealt, and does nothing. The unique ``(tournament, slot)`` and
``(round, board)`` are the last line of defence.
"""

from __future__ import annotations

from django.utils import timezone

from games.engine import Rules
from games.models import Match, Table
from play import services as games
from tournaments import selectors
from tournaments.formats.elimination import Section, bracket_state, champion, series_outcome
from tournaments.formats.elimination import Status as SlotStatus
from tournaments.formats.favourites import Entrant
from tournaments.formats.multitable import final_table, seat_round
from tournaments.formats.roundrobin import round_robin
from tournaments.formats.swiss import pair_swiss
from tournaments.models import Pairing, PairingPlayer, Round, Tournament
from tournaments.services.arena import arena_advance, arena_record
from tournaments.services.finish import tournament_end
from tournaments.services.pairings import pairing_create, pairing_decide, pairing_record_game


def tournament_advance(tournament: Tournament) -> None:
    """Create whatever is ready to be played now, or finish the tournament (running only)."""
    if tournament.is_arena:
        arena_advance(tournament)
        return
    if tournament.is_elimination:
        _advance_bracket(tournament)
        return
    while True:
        last = tournament.round_set.order_by("-number").first()
        if last is not None and last.pairings.filter(status=Pairing.Status.PLAYING).exists():
            return
        if last is not None and not last.finished:
            last.finished = True
            last.save(update_fields=["finished"])
        number = last.number + 1 if last else 1
        created = _next_round(tournament, number)
        if created is None:
            tournament_end(tournament)
            return
        if created.pairings.filter(status=Pairing.Status.PLAYING).exists():
            return


def _advance_bracket(tournament: Tournament) -> None:
    plan = selectors.bracket_plan(tournament)
    assert plan is not None
    winners, out = selectors.bracket_inputs(tournament)
    if champion(plan, winners, out) is not None:
        tournament_end(tournament)
        return
    existing = set(tournament.pairings.values_list("slot", flat=True))
    seed_of = {player: number for number, player in enumerate(plan.seeds, start=1)}
    for state in bracket_state(plan, winners, out).values():
        if state.status is not SlotStatus.READY or state.slot.id in existing:
            continue
        a, b = state.players
        assert a is not None and b is not None
        if state.slot.section is not Section.GRAND_FINAL and seed_of[b] < seed_of[a]:
            a, b = b, a  # the higher seed on side 0 (it goes through on endless drawn deciders)
        round_, _created = Round.objects.get_or_create(tournament=tournament, number=state.slot.stage)
        board = round_.pairings.count() + 1
        pairing_create(tournament, round_, board, (a, b), slot=state.slot.id)


def _next_round(tournament: Tournament, number: int) -> Round | None:
    """Pair round ``number`` of a round robin, Swiss or multi-table event; ``None`` when the
    event has no more rounds."""
    entries = list(tournament.entries.filter(seed__isnull=False).order_by("seed"))
    active = [e for e in entries if e.is_active]
    out = {e.player_id for e in entries if not e.is_active}
    seeded = [e.player_id for e in entries]
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        schedule = round_robin(seeded, legs=tournament.legs)
        if number > len(schedule):
            return None
        planned = schedule[number - 1]
        round_ = Round.objects.create(tournament=tournament, number=number)
        for board, pair in enumerate(planned.pairs, start=1):
            if out & set(pair):
                _forfeited(round_, board, pair, out)
            else:
                pairing_create(tournament, round_, board, pair)
        if planned.bye is not None and planned.bye not in out:
            _bye(round_, len(planned.pairs) + 1, planned.bye)
        return round_
    if len(active) < 2:
        return None
    entrants = [Entrant(e.player_id, e.seed_rating) for e in active]
    if tournament.format == Tournament.Format.SWISS:
        if number > tournament.rounds:
            return None
        games_so_far, byes = selectors.two_player_results(tournament, for_pairing=True)
        try:
            paired = pair_swiss(entrants, games_so_far, byes, seed=tournament.draw_seed)
        except ValueError:
            return None  # everyone has had a bye: no more rounds can be paired
        round_ = Round.objects.create(tournament=tournament, number=number)
        for board, pair in enumerate(paired.pairs, start=1):
            pairing_create(tournament, round_, board, pair)
        if paired.bye is not None:
            _bye(round_, len(paired.pairs) + 1, paired.bye)
        return round_
    return _next_table_round(tournament, number, entrants)


def _next_table_round(tournament: Tournament, number: int, entrants: list[Entrant]) -> Round | None:
    max_size = Rules.from_dict(tournament.rules).players
    history = selectors.table_results(tournament)
    if number <= tournament.rounds:
        try:
            tables = seat_round(entrants, history, max_size=max_size, seed=tournament.draw_seed)
        except ValueError:  # a field that cannot sit at tables of three or more
            tables = seat_round(entrants, history, min_size=2, max_size=max_size, seed=tournament.draw_seed)
        round_ = Round.objects.create(tournament=tournament, number=number)
        for board, table in enumerate(tables, start=1):
            pairing_create(tournament, round_, board, table)
        return round_
    k = min(tournament.final_table, max_size, len(entrants))
    if k < 2 or tournament.round_set.filter(final=True).exists():
        return None
    order = [s.player for s in selectors.standings(tournament)]
    round_ = Round.objects.create(tournament=tournament, number=number, final=True)
    pairing_create(tournament, round_, 1, final_table(order, k, max_size=max_size))
    return round_


def _bye(round_: Round, board: int, player: int, *, winner_score: bool = True) -> Pairing:
    """A bye: the player scores without playing."""
    pairing = Pairing.objects.create(
        tournament=round_.tournament,
        round=round_,
        board=board,
        status=Pairing.Status.BYE,
        winner_id=player if winner_score else None,
        finished_at=timezone.now(),
    )
    PairingPlayer.objects.create(pairing=pairing, position=0, user_id=player, place=1)
    return pairing


def _forfeited(round_: Round, board: int, pair: tuple[int, int], out: set[int]) -> Pairing:
    """A scheduled pairing with a player already out: decided without playing."""
    pairing = Pairing.objects.create(tournament=round_.tournament, round=round_, board=board)
    PairingPlayer.objects.bulk_create(
        PairingPlayer(pairing=pairing, position=i, user_id=p) for i, p in enumerate(pair)
    )
    a_out, b_out = (p in out for p in pair)
    pairing_decide(pairing, pair, 0.5 if a_out and b_out else (0.0 if a_out else 1.0), forfeit=True)
    return pairing


def pairing_continue(tournament: Tournament, pairing: Pairing) -> bool:
    """Read the pairing's finished games; decide it when the series is over, otherwise deal
    its next game (only while the tournament runs). Returns whether anything changed."""
    if pairing.table_id is None:
        return False
    matches = list(
        Match.objects.filter(table_id=pairing.table_id).order_by("number").prefetch_related("players")
    )
    if any(m.status == Match.Status.ACTIVE for m in matches):
        return False
    finished = [m for m in matches if m.status == Match.Status.FINISHED]
    if tournament.is_arena:
        return arena_record(tournament, pairing, finished[-1] if finished else None)
    if tournament.is_multi_table:
        if not finished:
            return _deal(tournament, pairing)
        pairing_record_game(pairing, finished[-1])
        return True
    users = [p.user_id for p in pairing.players.all()]
    scores = [_score_of(match, users[0]) for match in finished]
    outcome = series_outcome(scores, tournament.best_of, allow_draw=not tournament.is_elimination)
    recorded = scores != pairing.games
    pairing.games = scores
    if not outcome.finished:
        if recorded:
            pairing.save(update_fields=["games"])
        return _deal(tournament, pairing) or recorded
    final = {0: 1.0, 1: 0.0}.get(outcome.winner, 0.5) if outcome.winner is not None else 0.5
    pairing_decide(pairing, users, final, forfeit=False)
    return True


def _deal(tournament: Tournament, pairing: Pairing) -> bool:
    """Deal the pairing's next game at its table (not while paused). A player who left the
    table between games forfeits the pairing."""
    if tournament.status != Tournament.Status.RUNNING or pairing.table_id is None:
        return False
    try:
        games.match_start(table_id=pairing.table_id)
    except games.GameError:
        seated = set(Table.objects.get(pk=pairing.table_id).seats.values_list("user_id", flat=True))
        users = [p.user_id for p in pairing.players.all()]
        gone = [u for u in users if u not in seated]
        if len(users) != 2 or not gone:
            raise
        pairing_decide(
            pairing, users, 0.5 if len(gone) == 2 else (0.0 if gone == [users[0]] else 1.0), forfeit=True
        )
    return True


def _score_of(match: Match, first: int) -> float:
    """The first player's score in a finished two-player match: 1 won, 0.5 drawn, 0 fool."""
    result = match.result or {}
    seat = next(p.seat for p in match.players.all() if p.user_id == first)
    if result.get("draw") or result.get("fool") is None:
        return 0.5
    return 0.0 if result["fool"] == seat else 1.0
