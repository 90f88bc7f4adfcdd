"""What a tournament page shows, for one viewer: the bracket as columns, the standings with
their tiebreak columns explained, the rounds, the entries and the viewer's own next table.

Templates render only from these plain objects, so the full page and the live fragment pushed
after each result are the same markup.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.live.forms import describe_rules
from tournaments import selectors
from tournaments.elimination import Section, SlotState
from tournaments.elimination import Status as SlotStatus
from tournaments.models import Entry, Pairing, Tournament
from tournaments.standings import DEFAULT_TIEBREAKS, Tiebreak

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
class SlotView:
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
    slots: list[SlotView]


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
class PairingView:
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
class RoundView:
    number: int
    final: bool
    pairings: list[PairingView] = field(default_factory=list)


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
    if before_start:
        return context
    matches = selectors.table_matches(tournament)
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
    sections: dict[Section, dict[int, list[SlotView]]] = {}
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
) -> SlotView:
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
    return SlotView(
        id=state.slot.id,
        names=(shown[0], shown[1]),
        winner_side=side,
        status=state.status.value,
        url=_pairing_url(pairing, matches),
        forfeit=state.forfeit or bool(pairing and pairing.forfeit),
    )


def _rounds(
    tournament: Tournament, names: dict[int, str], matches: dict[int, int], runner: bool
) -> list[RoundView]:
    found = []
    for round_ in selectors.rounds_with_pairings(tournament):
        view = RoundView(round_.number, round_.final)
        for pairing in round_.pairings.all():
            players = list(pairing.players.all())
            view.pairings.append(
                PairingView(
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
        found.append(view)
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
