"""docs/rules.md §6 "What every player sees", §3 "Waiting for the throwers": two games that
differ only in cards a viewer cannot see look the same to that viewer after the same public
actions (issue #16 §1).

The soak deals a random game, plays random legal actions, then deals its twin: the same deal
with two cards swapped that the viewer never sees (in other hands or the stock, never played,
never in the viewer's hand, not the turned trump, nor moving the lowest trump shown at the
start). Against the engine before the rule, every table here fails. The twin must accept every action of the
first game and show the viewer, at every step, the same view (``to_dict``: the table, counts,
actors, awaiting, its own legal moves), the same events (from which the log's lines are
written) and the same ``awaiting``; the spectator likewise, with every hand hidden.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import Deal, GameState, Rules, new_game
from games.engine.actions import FastAction
from games.engine.cards import CARD_NAMES
from tests.engine.support import places_of_cards

#: Every variant and the options that change who may act (no ``redeal``: a claimed redeal
#: deals anew, so twins part ways by design after it).
TABLES: list[Rules] = [
    Rules.for_variant("podkidnoy", players=2),
    Rules.for_variant("podkidnoy", players=3),
    Rules.for_variant("podkidnoy", players=3, throw_in="neighbours", deck=24),
    Rules.for_variant("podkidnoy", players=4, teams=True),
    Rules.for_variant("podkidnoy", players=5),
    Rules.for_variant("perevodnoy", players=2),
    Rules.for_variant("perevodnoy", players=4),
    Rules.for_variant("perevodnoy", players=3, transfer_by_trump_show=True),
    Rules.for_variant("circle", players=3),
    Rules.for_variant("circle", players=4, jokers=2, joker_last="pass_on", throw_in_after_joker=False),
]
GAMES_PER_TABLE = 20
SWAPS_PER_GAME = 3


def _deal_of(rules: Rules, rng: random.Random) -> Deal:
    """A random explicit deal (``circle``: straight into stage 2, where its throw-ins are)."""
    state = new_game(rules, seed=f"twin-{rng.getrandbits(32)}")
    full = state.full_view()
    assert full.hands is not None and full.stock is not None
    if rules.variant == "circle":
        deck = [c for h in full.hands for c in h] + list(full.stock) + list(full.circle)
        deck += [full.drawn] if full.drawn else []
        rng.shuffle(deck)
        n = rules.players
        per = min(9, len(deck) // n)
        hands = [deck[i * per : (i + 1) * per] for i in range(n)]
        return Deal(hands=hands, trump_suit=full.trump_suit[0], stage=2, first_attacker=0)
    stock = list(full.stock)
    return Deal(
        hands=full.hands,
        trump=stock[-1],
        stock=stock[:-1],
        dealer=state.dealer,
        first_attacker=state.attacker,
    )


def _play(rules: Rules, deal: Deal, rng: random.Random) -> tuple[list[tuple[int, FastAction]], GameState]:
    state = new_game(rules, seed="twin", deal=deal)
    start = state.clone()
    actions: list[tuple[int, FastAction]] = []
    length = rng.randint(5, 60)  # a prefix of a game: some cards stay unseen for the swap
    while not state.is_over and len(actions) < length:
        seat = rng.choice(state.actors())
        fa = rng.choice(state.legal_fast(seat))
        actions.append((seat, fa))
        state.apply_fast(seat, fa)
    return actions, start


def _hidden_from(viewer: int | None, start: GameState, actions: list[tuple[int, FastAction]]) -> list[int]:
    """Cards the viewer never sees in the game: never played, never in its hand, not the trump."""
    used = 0
    seen = start.hands[viewer] if viewer is not None else 0
    state = start.clone()
    for seat, fa in actions:
        used |= fa[1]
        state.apply_fast(seat, fa)
        if viewer is not None:
            seen |= state.hands[viewer]
    places = places_of_cards(start)
    dealt = places["stock"] | sum(start.hands)
    return [
        c
        for c in range(len(CARD_NAMES))
        if dealt >> c & 1 and not (used | seen) >> c & 1 and c != start.trump_card
    ]


def _swapped(deal: Deal, a: int, b: int) -> Deal:
    names = {CARD_NAMES[a]: CARD_NAMES[b], CARD_NAMES[b]: CARD_NAMES[a]}

    def sw(cards: Any) -> list[str]:
        return [names.get(str(c), str(c)) for c in cards]

    assert deal.hands is not None
    return Deal(
        hands=[sw(h) for h in deal.hands],
        trump=deal.trump,
        stock=sw(deal.stock),
        dealer=deal.dealer,
        trump_suit=deal.trump_suit,
        stage=deal.stage,
        first_attacker=deal.first_attacker,
    )


def _seen(state: GameState, viewer: int | None, events: list[Any]) -> tuple[Any, ...]:
    view = state.view(viewer) if viewer is not None else state.spectator_view()
    return view.to_dict(), [e.to_dict() for e in events], state.awaiting()


def _assert_twins_look_alike(
    rules: Rules, deal: Deal, twin: Deal, viewer: int | None, actions: list[tuple[int, FastAction]]
) -> int:
    a = new_game(rules, seed="twin", deal=deal)
    b = new_game(rules, seed="twin", deal=twin)
    assert _seen(a, viewer, []) == _seen(b, viewer, [])
    for step, (seat, fa) in enumerate(actions):
        assert fa in b.legal_fast(seat) or b.allows(seat, fa), f"step {step}: {fa} is not legal in the twin"
        ev_a: list[Any] = []
        ev_b: list[Any] = []
        a.apply_fast(seat, fa, ev_a)
        b.apply_fast(seat, fa, ev_b)
        assert _seen(a, viewer, ev_a) == _seen(b, viewer, ev_b), f"step {step} differs for {viewer}"
    return len(actions)


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.variant}-{r.players}")
def test_games_that_differ_only_in_hidden_cards_look_the_same_to_every_viewer(rules: Rules) -> None:
    rng = random.Random(f"indistinguishable-{rules}")
    positions = 0
    for _ in range(GAMES_PER_TABLE):
        deal = _deal_of(rules, rng)
        actions, start = _play(rules, deal, rng)
        for viewer in [None, *range(rules.players)]:
            hidden = _hidden_from(viewer, start, actions)
            for _ in range(SWAPS_PER_GAME if len(hidden) >= 2 else 0):
                a, b = rng.sample(hidden, 2)
                twin = _swapped(deal, a, b)
                if _place(start, a) == _place(start, b) or _opening_trump(rules, twin) != start.opening_trump:
                    continue  # the same deal, or the lowest trump shown at the start moved
                positions += _assert_twins_look_alike(rules, deal, twin, viewer, actions)
    assert positions > 500  # per table; thousands over all of them


def _opening_trump(rules: Rules, deal: Deal) -> int:
    return new_game(rules, seed="twin", deal=deal).opening_trump


def _place(state: GameState, card: int) -> str:
    return next(k for k, m in places_of_cards(state).items() if m >> card & 1)
