"""Starting a game: the class of its variant (:meth:`GameState.class_for`), and the seeded
deal or an explicit :class:`~games.engine.deal.Deal`."""

from __future__ import annotations

from .circle.stage1 import begin_stage1
from .deal import Deal, deal_explicit, deal_seeded, start_play
from .events import Event
from .rules import Rules
from .shuffle import dealer_from_seed
from .state import GameState


def new_game(
    rules: Rules,
    seed: str = "",
    dealer: int | None = None,
    deal: Deal | None = None,
    first_attacker: int | None = None,
    events: list[Event] | None = None,
) -> GameState:
    """Deal a game: seeded, or exactly as ``deal`` says.

    ``events``, when given, receives what happened before the first choice (the
    forced draws of circle stage 1).  A position later in a game is rebuilt with
    :meth:`GameState.from_position` instead.

    >>> s = new_game(Rules(players=3), seed="abc")
    >>> sum(h.bit_count() for h in s.hands) + len(s.stock)
    36
    >>> s.awaiting() == {s.attacker: "lead"}
    True
    """
    if deal is not None and deal.dealer is not None:
        dealer = deal.dealer
    if dealer is None:
        dealer = dealer_from_seed(seed, rules.players)
    if not 0 <= dealer < rules.players:
        raise ValueError(f"there is no seat {dealer} to deal")
    s = GameState.class_for(rules, 1)(rules, seed, dealer)
    forced = first_attacker
    if deal is not None and deal.first_attacker is not None:
        forced = deal.first_attacker
    if rules.variant == "circle":
        begin_stage1(s, deal, forced, events)
        return s
    if deal is None:
        deal_seeded(s, seed)
    else:
        deal_explicit(s, deal)
    start_play(s, forced)
    return s
