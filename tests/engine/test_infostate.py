"""One seat's information (``games.engine.infostate``): what it reads from the public history is
sound (never a card the player does not hold) and as complete as the rules make it (takes, the
trump card's owner, the discard by face); the states sampled from it agree with everything the
seat sees, whatever the table."""

from __future__ import annotations

import random

import pytest

from games.engine import Action, Deal, Event, InfoState, InfoStateError, Rules, card_from_str, new_game
from games.engine.cards import mask_of
from games.engine.infostate import read_knowledge, rules_from_view
from tests.engine.support import places_of_cards

from .tables import TABLES, random_walk


@pytest.mark.parametrize(("name", "rules"), TABLES, ids=[t[0] for t in TABLES])
def test_samples_match_the_seat_view(name: str, rules: Rules) -> None:
    rng = random.Random(name)
    for state, history in random_walk(rules, f"det-{name}")[::2]:
        for seat in state.actors():
            view = state.view(seat)
            guess = rules_from_view(view)
            assert (guess.variant, guess.players, guess.deck, guess.jokers) == (
                rules.variant,
                rules.players,
                rules.deck,
                rules.jokers,
            )
            info = InfoState(view, rules, history)
            kn = info.knowledge
            sample = info.sample(rng)
            assert sample.view(seat).hand == view.hand
            assert sample.view(seat).hand_counts == view.hand_counts
            assert sample.view(seat).table == view.table
            assert sample.view(seat).stock_count == view.stock_count
            assert sorted(map(str, sample.legal_actions(seat))) == sorted(map(str, state.legal_actions(seat)))
            assert sample.awaiting().get(seat) == state.awaiting().get(seat)
            for other in range(rules.players):
                assert kn.known[other] & ~sample.hands[other] == 0
            every = places_of_cards(sample)
            assert sum(m.bit_count() for m in every.values()) == sum(
                m.bit_count() for m in places_of_cards(state).values()
            )


def test_wrong_rules_are_refused_clearly() -> None:
    state, history = random_walk(Rules(), "wrong")[5]
    view = state.view(0)
    with pytest.raises(InfoStateError):
        InfoState(view, Rules(deck=52), history)


@pytest.mark.parametrize(("name", "rules"), TABLES, ids=[t[0] for t in TABLES])
def test_knowledge_is_sound_and_the_careful_discard_exact(name: str, rules: Rules) -> None:
    for state, history in random_walk(rules, f"kn-{name}")[::3]:
        for seat in range(rules.players):
            kn = read_knowledge(state.view(seat), history, careful=True)
            for other in range(rules.players):
                assert kn.known[other] & ~state.hands[other] == 0
            assert kn.known[seat] == 0
            assert kn.discard == state.discard
            assert read_knowledge(state.view(seat), history, careful=False).discard == 0


def _cards(*names: str) -> int:
    return mask_of(card_from_str(c) for c in names)


def test_a_taker_is_known_to_hold_the_table_and_the_last_drawer_the_trump() -> None:
    deal = Deal(
        hands=[["6S", "7S", "8S", "9S", "10S", "JS"], ["6H", "7H", "8H", "9H", "10H", "JH"]],
        trump="6D",
        stock=[],
        dealer=1,
        first_attacker=0,
    )
    state = new_game(Rules(), seed="k", deal=deal)
    history = []
    history += state.apply(0, Action.parse("attack 6S"))
    history += state.apply(1, Action.parse("take"))
    history += state.apply(0, Action.parse("pass"))  # nothing to add: the pick-up
    kn = read_knowledge(state.view(0), history, careful=True)
    assert kn.known[1] & _cards("6S")
    # Seat 0 drew the stock's only card, the turned-up trump.
    assert state.hands[0] & _cards("6D")
    assert read_knowledge(state.view(1), history, careful=True).known[0] & _cards("6D")


def test_history_in_stored_dict_form_reads_the_same() -> None:
    state, history = random_walk(Rules.for_variant("perevodnoy", players=3), "dicts")[-1]
    view = state.view(1)
    assert read_knowledge(view, [e.to_dict() for e in history], True) == read_knowledge(view, history, True)


def test_without_history_nothing_is_known() -> None:
    state, _ = random_walk(Rules(), "none")[40]
    kn = read_knowledge(state.view(0), None, careful=True)
    assert kn.known == [0, 0] and kn.discard == 0


def test_in_a_whole_deck_deal_the_dealer_is_known_to_hold_the_trump_card() -> None:
    rules = Rules.for_variant("podkidnoy", players=4, deck=24)  # 4 x 6 = the whole deck
    history: list[Event] = []
    state = new_game(rules, seed="whole", events=history)
    view = state.view((state.dealer + 1) % 4)
    assert view.stock_count == 0 and view.trump_card is not None and view.dealer == state.dealer
    trump = _cards(view.trump_card)
    assert state.hands[state.dealer] & trump  # the engine's deal: the dealer keeps it
    assert read_knowledge(view, history, careful=False).known[state.dealer] == trump
    assert read_knowledge(view, None, careful=False).known[state.dealer] == 0  # no history, no proof
