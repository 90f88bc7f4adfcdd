"""What a tournament page shows, for one viewer: the bracket as columns, the standings with
their tiebreak columns explained, the rounds, the entries and the viewer's own next table; for
an arena, its clock, leaderboard, games in play and the viewer's own state (``present_arena``),
and the banner a game's page shows above the table (``present_banner``).

Templates render only from these plain objects, so the full page and the live fragment pushed
after each result are the same markup.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import MatchPlayer, Move
from play.forms import describe_rules
from tournaments import selectors
from tournaments.formats.arena.pairing import PATIENCE_SECONDS
from tournaments.formats.elimination import Section, SlotState
from tournaments.formats.elimination import Status as SlotStatus
from tournaments.formats.standings import DEFAULT_TIEBREAKS, Tiebreak
from tournaments.models import Entry, Pairing, Tournament

#: The tiebreak columns' headings and the sentences that explain them on the page.
TIEBREAK_TEXT: dict[Tiebreak, tuple[Any, Any]] = {
    Tiebreak.DIRECT_ENCOUNTER: (
        _("DE"),
        _(
            "Direct encounter: your results (1 for a win or finishing ahead, ½ for a draw or a "
            "shared place, 0 otherwise) against the players level with you on points. Higher is better."
        ),
    ),
    Tiebreak.BUCHHOLZ: (
        _("Buch"),
        _(
            "Buchholz: the sum of your opponents' points (at a multi-player table, the average of "
            "your tablemates' points), so a score made against strong opposition counts for more. "
            "Higher is better; a bye adds nothing."
        ),
    ),
    Tiebreak.SONNEBORN_BERGER: (
        _("SB"),
        _(
            "Sonneborn-Berger: for each opponent, their points times your result against them, "
            "averaged over a table's players. It rewards beating the players who did well. Higher is better."
        ),
    ),
    Tiebreak.FEWEST_FOOLS: (
        _("Fools"),
        _("Fewest fool finishes: how often you were left holding cards. Lower is better."),
    ),
}

SECTION_TITLES: dict[Section, Any] = {
    Section.WINNERS: _("Winners bracket"),
    Section.LOSERS: _("Losers bracket"),
    Section.GRAND_FINAL: _("Grand final"),
    Section.THIRD_PLACE: _("Third place"),
}


#: The statuses of a tournament that has not started (a cancelled one has ended either way).
BEFORE_START = frozenset(
    {Tournament.Status.DRAFT, Tournament.Status.REGISTRATION, Tournament.Status.CHECK_IN}
)


@dataclass
class ShownSlot:
    """One box of the bracket picture."""

    id: str
    names: tuple[str, str]
    winner_side: int | None
    status: str
    url: str
    forfeit: bool


@dataclass
class Column:
    title: str
    slots: list[ShownSlot]


@dataclass
class BracketSection:
    title: str
    key: str
    columns: list[Column]


@dataclass
class StandingLine:
    rank: int
    name: str
    points: float
    tiebreaks: list[float]
    played: int
    byes: int


@dataclass
class ShownPairing:
    board: int
    slot: str
    names: list[str]
    result: str
    status: str
    url: str
    pairing_id: int
    correctable: bool
    corrected: bool


@dataclass
class ShownRound:
    number: int
    final: bool
    pairings: list[ShownPairing] = field(default_factory=list)


def present_tournament(tournament: Tournament, user: User | Any) -> dict[str, Any]:
    """The context of the tournament page's live part for ``user``."""
    entries = selectors.entries(tournament)
    names = {e.player_id: e.player.public_name for e in entries}
    mine = next((e for e in entries if user.is_authenticated and e.player_id == user.pk), None)
    before_start = tournament.status in BEFORE_START
    context: dict[str, Any] = {
        "t": tournament,
        # What only a tournament not yet started shows: its planned start, the deadline, check-in.
        "before_start": before_start,
        "entries": entries,
        "first_place": [e.player.public_name for e in entries if e.place == 1],
        "active_count": sum(1 for e in entries if e.is_active),
        "my_entry": mine,
        "may_run": selectors.may_run(tournament, user),
        "my_tables": [n for n in selectors.next_tables(user=user) if n.tournament.pk == tournament.pk],
        "rules_lines": describe_rules(tournament.rules),
        "can_check_in": _can_check_in(tournament, mine),
        "bracket": [],
        "standings": [],
        "tiebreaks": [],
        "rounds": [],
    }
    if tournament.is_arena:
        context["arena"] = present_arena(tournament, user, entries)
    if before_start:
        return context
    matches = selectors.table_matches(tournament)
    if tournament.is_arena:
        return context
    if tournament.is_elimination:
        context["bracket"] = _bracket(tournament, names, matches)
    else:
        context["standings"] = [
            StandingLine(s.rank, names.get(s.player, "?"), s.points, list(s.tiebreaks), s.played, s.byes)
            for s in selectors.standings(tournament)
        ]
        context["tiebreaks"] = [
            (str(TIEBREAK_TEXT[t][0]), str(TIEBREAK_TEXT[t][1])) for t in DEFAULT_TIEBREAKS
        ]
    context["rounds"] = _rounds(tournament, names, matches, context["may_run"])
    return context


def _can_check_in(tournament: Tournament, entry: Entry | None) -> bool:
    return bool(
        entry is not None
        and entry.is_active
        and not entry.checked_in
        and tournament.checkin_minutes
        and tournament.status == Tournament.Status.CHECK_IN
    )


def _pairing_url(pairing: Pairing | None, matches: dict[int, int]) -> str:
    """The latest game of a pairing, else its table (empty for a bye); ``matches`` is
    ``selectors.table_matches``."""
    if pairing is None or pairing.table_id is None:
        return ""
    match_id = matches.get(pairing.table_id)
    if match_id is not None:
        return reverse("games:match", args=[match_id])
    return reverse("games:table", args=[pairing.table_id])


def _bracket(tournament: Tournament, names: dict[int, str], matches: dict[int, int]) -> list[BracketSection]:
    states = selectors.bracket_states(tournament)
    pairings = {p.slot: p for p in tournament.pairings.exclude(slot="")}
    sections: dict[Section, dict[int, list[ShownSlot]]] = {}
    for state in states.values():
        if state.slot.reset and state.status is SlotStatus.VOID:
            continue  # no reset was needed: leave the box out
        column = sections.setdefault(state.slot.section, {}).setdefault(state.slot.round, [])
        column.append(_slot_view(state, names, pairings.get(state.slot.id), matches))
    found = []
    for section in (Section.WINNERS, Section.LOSERS, Section.GRAND_FINAL, Section.THIRD_PLACE):
        rounds = sections.get(section)
        if not rounds:
            continue
        last = max(rounds)
        columns = [
            Column(_round_title(section, number, last), sorted(rounds[number], key=lambda s: s.id))
            for number in sorted(rounds)
        ]
        found.append(BracketSection(str(SECTION_TITLES[section]), section.value, columns))
    return found


def _round_title(section: Section, number: int, last: int) -> str:
    if section is Section.WINNERS and number == last:
        return str(_("Final"))
    if section is Section.WINNERS and number == last - 1 and last > 1:
        return str(_("Semi-finals"))
    if section is Section.GRAND_FINAL and number == 2:
        return str(_("Reset"))
    if section in (Section.GRAND_FINAL, Section.THIRD_PLACE):
        return ""
    return str(_("Round %(number)d") % {"number": number})


def _slot_view(
    state: SlotState, names: dict[int, str], pairing: Pairing | None, matches: dict[int, int]
) -> ShownSlot:
    shown = []
    for player in state.players:
        if player is not None:
            shown.append(names.get(player, "?"))
        elif state.status in (SlotStatus.BYE, SlotStatus.VOID):
            shown.append(str(_("bye")))
        else:
            shown.append("…")
    side = None
    if state.winner is not None and state.status is SlotStatus.DONE:
        side = state.players.index(state.winner)
    return ShownSlot(
        id=state.slot.id,
        names=(shown[0], shown[1]),
        winner_side=side,
        status=state.status.value,
        url=_pairing_url(pairing, matches),
        forfeit=state.forfeit or bool(pairing and pairing.forfeit),
    )


def _rounds(
    tournament: Tournament, names: dict[int, str], matches: dict[int, int], runner: bool
) -> list[ShownRound]:
    found = []
    for round_ in selectors.rounds_with_pairings(tournament):
        shown = ShownRound(round_.number, round_.final)
        for pairing in round_.pairings.all():
            players = list(pairing.players.all())
            shown.pairings.append(
                ShownPairing(
                    board=pairing.board,
                    slot=pairing.slot,
                    names=[names.get(p.user_id, p.user.public_name) for p in players],
                    result=_result_text(tournament, pairing, players),
                    status=pairing.status,
                    url=_pairing_url(pairing, matches),
                    pairing_id=pairing.pk,
                    correctable=runner
                    and tournament.is_live
                    and not tournament.is_multi_table
                    and len(players) == 2,
                    # annotated by selectors.rounds_with_pairings, through a Prefetch: no static type
                    corrected=pairing.corrected,  # type: ignore[attr-defined]
                )
            )
        found.append(shown)
    return found


def _result_text(tournament: Tournament, pairing: Pairing, players: list[Any]) -> str:
    if pairing.status == Pairing.Status.BYE:
        return str(_("bye"))
    if pairing.status == Pairing.Status.PLAYING:
        return str(_("playing"))
    if tournament.is_multi_table:
        ordered = sorted((p for p in players if p.place is not None), key=lambda p: p.place)
        return " · ".join(f"{p.place}. {p.user.public_name}" for p in ordered)
    score = {1.0: "1 – 0", 0.5: "½ – ½", 0.0: "0 – 1"}.get(pairing.score or 0.0, "")
    if pairing.forfeit:
        return str(_("%(score)s by forfeit") % {"score": score})
    if len(pairing.games) > 1:
        won = sum(pairing.games)
        return f"{score} ({won:g} – {len(pairing.games) - won:g})"
    return score


# --- arenas ------------------------------------------------------------------------------------

#: How many of a player's latest games the leaderboard shows.
SHEET_SHOWN = 12


@dataclass(frozen=True, slots=True)
class SheetMark:
    """One game on a leaderboard line: its points, doubled (on fire), with berserk's bonus."""

    points: int
    doubled: bool
    bonus: bool
    berserk: bool


@dataclass
class ArenaLine:
    rank: int
    name: str
    url: str
    points: int
    games: int
    on_fire: bool
    sheet: list[SheetMark]
    state: str  # playing, waiting, paused, withdrawn ("" once the arena is over)
    game_url: str
    is_bot: bool
    is_me: bool


@dataclass
class ArenaTable:
    """A game being played: its players (in seat order), the link to it (anyone may watch a
    tournament's game: ``games.models.Table.open_to_watch``) and whether the viewer plays it."""

    names: list[str]
    url: str
    mine: bool


@dataclass
class ArenaMe:
    """The viewer in the arena. ``state``: ``none`` (not in it), ``registered`` (before the
    start), ``waiting``, ``alone`` (the only one waiting), ``more`` (``needed`` more players
    for a table), ``held`` (the organiser paused the arena), ``playing``, ``paused``,
    ``withdrawn``, ``removed``, ``ending`` (time is up, the last games are being played) or
    ``over`` (with ``place``)."""

    state: str
    needed: int = 0
    match_id: int | None = None
    url: str = ""
    can_berserk: bool = False
    berserk: bool = False
    place: int | None = None
    points: int = 0
    on_fire: bool = False


@dataclass
class ShownArena:
    ends_at: Any
    remaining_ms: int | None
    time_up: bool
    table_size: int
    lines: list[ArenaLine]
    tables: list[ArenaTable]
    me: ArenaMe
    can_join: bool
    waiting: int
    patience: int

    @property
    def remaining_text(self) -> str:
        """The time left as the clock shows it (``1:05:09``, ``4:07``; ``static/js/arena.js``
        counts it down)."""
        return clock_text(self.remaining_ms or 0)


def clock_text(ms: int) -> str:
    """``h:mm:ss``, or ``m:ss`` under an hour.

    >>> clock_text(3_909_000), clock_text(247_400), clock_text(0)
    ('1:05:09', '4:08', '0:00')
    """
    seconds = -(-ms // 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def present_arena(tournament: Tournament, user: User | Any, entries: list[Entry]) -> ShownArena:
    """The arena part of the page for ``user``: nothing in it depends on cards."""
    now = timezone.now()
    size = int(tournament.rules.get("players", 2))
    players = {e.player_id: e.player for e in entries}
    started = tournament.status not in BEFORE_START
    lines = selectors.arena_leaderboard(tournament) if started else []
    playing = selectors.arena_playing(tournament) if tournament.is_live else {}
    entry_of = {e.player_id: e for e in entries}
    over = tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    me_id = user.pk if user.is_authenticated else None
    shown = []
    for line in lines:
        entry = entry_of[line.player]
        pairing_match = playing.get(line.player)
        shown.append(
            ArenaLine(
                rank=line.rank,
                name=players[line.player].public_name,
                url=players[line.player].get_absolute_url(),
                points=line.points,
                games=line.games,
                on_fire=line.sheet.on_fire,
                sheet=[
                    SheetMark(s.points, s.doubled, s.bonus > 0, s.berserk)
                    for s in line.sheet.scores[-SHEET_SHOWN:]
                ],
                state="" if over else _arena_state(entry, pairing_match is not None),
                game_url=_game_url(pairing_match),
                is_bot=players[line.player].is_bot,
                is_me=line.player == me_id,
            )
        )
    tables = []
    seen: set[int] = set()
    for pairing, match_id in playing.values():
        if pairing.pk in seen:
            continue
        seen.add(pairing.pk)
        seated = [p.user_id for p in pairing.players.all()]
        names = [players[p].public_name for p in seated if p in players]
        tables.append(ArenaTable(names, _game_url((pairing, match_id)), me_id in seated))
    waiting = [
        e.player_id for e in entries if e.is_active and not e.paused and e.seed and e.player_id not in playing
    ]
    ends = tournament.ends_at
    time_up = ends is not None and now >= ends
    remaining = None if ends is None or over else max(0, int((ends - now).total_seconds() * 1000))
    line_of = {line.player: line for line in lines}
    return ShownArena(
        ends_at=ends,
        remaining_ms=remaining,
        time_up=time_up,
        table_size=size,
        lines=shown,
        tables=tables,
        me=_arena_me(tournament, entry_of.get(me_id) if me_id else None, line_of, playing, waiting, size),
        can_join=bool(
            tournament.status == Tournament.Status.REGISTRATION or (tournament.is_live and not time_up)
        ),
        waiting=len(waiting),
        patience=int(PATIENCE_SECONDS),
    )


def _arena_state(entry: Entry, playing: bool) -> str:
    if entry.state == Entry.State.WITHDRAWN:
        return "withdrawn"
    if playing:
        return "playing"
    return "paused" if entry.paused else "waiting"


def _game_url(pairing_match: tuple[Pairing, int | None] | None) -> str:
    if pairing_match is None:
        return ""
    pairing, match_id = pairing_match
    if match_id is not None:
        return reverse("games:match", args=[match_id])
    return reverse("games:table", args=[pairing.table_id]) if pairing.table_id else ""


def _arena_me(
    tournament: Tournament,
    entry: Entry | None,
    lines: dict[int, Any],
    playing: dict[int, tuple[Pairing, int | None]],
    waiting: list[int],
    size: int,
) -> ArenaMe:
    if entry is None or entry.state == Entry.State.NO_SHOW:
        return ArenaMe("none")
    line = lines.get(entry.player_id)
    points, on_fire = (line.points, line.sheet.on_fire) if line is not None else (0, False)
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        return ArenaMe("over", place=entry.place, points=points)
    if entry.state == Entry.State.REMOVED:
        return ArenaMe("removed")
    if entry.state == Entry.State.WITHDRAWN:
        return ArenaMe("withdrawn", points=points)
    if tournament.status in BEFORE_START:
        return ArenaMe("registered")
    found = playing.get(entry.player_id)
    if found is not None:
        pairing, match_id = found
        berserk = any(p.user_id == entry.player_id and p.berserk for p in pairing.players.all())
        can = tournament.berserk and not berserk and match_id is not None and not _has_moved(match_id, entry)
        return ArenaMe(
            "playing",
            match_id=match_id,
            url=_game_url(found),
            can_berserk=can,
            berserk=berserk,
            points=points,
            on_fire=on_fire,
        )
    if tournament.ends_at is not None and timezone.now() >= tournament.ends_at:
        return ArenaMe("ending", points=points)
    if entry.paused:
        return ArenaMe("paused", points=points, on_fire=on_fire)
    if tournament.status == Tournament.Status.PAUSED:
        return ArenaMe("held", points=points, on_fire=on_fire)
    others = len([p for p in waiting if p != entry.player_id])
    if size == 2 and others == 0:
        return ArenaMe("alone", points=points, on_fire=on_fire)
    if others + 1 < size:
        return ArenaMe("more", needed=size - others - 1, points=points, on_fire=on_fire)
    return ArenaMe("waiting", points=points, on_fire=on_fire)


def _has_moved(match_id: int, entry: Entry) -> bool:
    """Whether the player has a move in the game's log (berserk is over for them then)."""
    seat = MatchPlayer.objects.filter(match_id=match_id, user_id=entry.player_id).values("seat")
    return Move.objects.filter(match_id=match_id, seat__in=seat).exists()


@dataclass
class Banner:
    """What a game's page shows above the table when the game belongs to a tournament: a link
    back and, for an arena, its clock, berserk and the viewer's next game."""

    tournament: Tournament
    match_id: int
    arena: ShownArena | None
    mine: bool
    next_url: str = ""
    next_match: int | None = None
    #: The round the game belongs to (every format but the arena, which has no rounds to show).
    round_number: int | None = None
    final: bool = False


def present_banner(match_id: int, user: User | Any) -> Banner | None:
    """The banner of the game ``match_id`` for ``user``, or ``None`` outside tournaments."""
    pairing = (
        Pairing.objects.filter(table__matches=match_id)
        .select_related("tournament__organiser", "round")
        .first()
    )
    if pairing is None or not selectors.may_see(pairing.tournament, user):
        return None
    tournament = pairing.tournament
    mine = bool(user.is_authenticated and pairing.players.filter(user=user).exists())
    if not tournament.is_arena:
        return Banner(
            tournament, match_id, None, mine, round_number=pairing.round.number, final=pairing.round.final
        )
    arena = present_arena(tournament, user, selectors.entries(tournament))
    banner = Banner(tournament, match_id, arena, mine)
    if arena.me.state == "playing" and arena.me.match_id not in (None, match_id):
        banner.next_url, banner.next_match = arena.me.url, arena.me.match_id
    return banner
