"""The search reads its opponents' choices (issue #38 §3, ``games.bots.inference``): clues from the
public events weight the determinizations, never rule a deal out, and never name a card the bot
can see. The games are played by the heuristic, the model the clues are written from."""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.bots.heuristic import heuristic_move
from games.bots.inference import LEAD_FACTOR, TAKE_FACTOR, Clue, ReadInfoState, read_clues
from games.engine import Action, Deal, Event, GameState, Rules, deck_cards, new_game
from games.engine.cards import card_from_str, card_str
from games.engine.infostate import InfoState


def _moments(variant: str, games: int, every: int = 5) -> Iterator[tuple[GameState, int, list[Event]]]:
    """Moments of heuristic-played games: the full state, a seat that may act, the history so far."""
    rules = Rules.for_variant(variant, players=2)
    for g in range(games):
        history: list[Event] = []
        state = new_game(rules, seed=f"clues{g}", events=history)
        rng = random.Random(g)
        step = 0
        while not state.is_over:
            seat = rng.choice(state.actors())
            if step % every == 0:
                yield state, seat, history
            history.extend(
                state.apply(seat, Action.from_fast(heuristic_move(state, seat, state.legal_fast(seat))))
            )
            step += 1


def test_a_clue_names_only_cards_its_reader_cannot_see_and_every_sample_fits_the_view() -> None:
    read = 0
    for variant in ("podkidnoy", "perevodnoy"):
        for state, seat, history in _moments(variant, 12):
            view = state.view(seat)
            info = ReadInfoState(view, state.rules, history)
            seen = state.hands[seat]
            for clue in info.clues:
                assert clue.seat != seat
                assert clue.cards & seen == 0
                assert clue.cards & ~sum(1 << c for c in info.rest) == 0
            read += len(info.clues)
            assert info.sample(random.Random(read)).view(seat).to_dict() == view.to_dict()
    assert read > 100


def test_the_clues_read_the_stored_history_as_the_live_one() -> None:
    """The site hands the bot the move log's ``to_dict`` events: the same clues."""
    for state, seat, history in _moments("perevodnoy", 4):
        stored = [e.to_dict() for e in history]
        assert read_clues(state.view(seat), state.rules, stored) == read_clues(
            state.view(seat), state.rules, history
        )


def test_the_clues_move_the_samples_toward_the_hands_the_choices_came_from() -> None:
    """Over heuristic games, the share of clues whose cards the player really held is far below
    what uniform deals give; the read samples come nearer to it."""
    real = uniform = inferred = total = 0.0
    rng = random.Random(7)
    for state, seat, history in _moments("podkidnoy", 40, every=5):
        info = ReadInfoState(state.view(seat), state.rules, history)
        for clue in info.clues:
            if clue.factor not in (LEAD_FACTOR, TAKE_FACTOR):
                continue  # the fresh lead and take clues
            total += 1
            real += bool(state.hands[clue.seat] & clue.cards)
            uniform += (
                sum(bool(InfoState.sample(info, rng).hands[clue.seat] & clue.cards) for _ in range(10)) / 10
            )
            inferred += sum(bool(info.sample(rng).hands[clue.seat] & clue.cards) for _ in range(10)) / 10
    assert total > 50
    assert real / total < 0.25 < 0.45 < uniform / total
    assert inferred < uniform - 0.1 * total


def _after(
    actions: list[tuple[int, str]], mine: list[str], theirs: list[str]
) -> tuple[GameState, list[Event]]:
    trump = "6D"
    held = {*mine, *theirs, trump}
    stock = [card_str(c) for c in deck_cards(36) if card_str(c) not in held]
    history: list[Event] = []
    deal = Deal(hands=[mine, theirs], trump=trump, stock=stock, dealer=1, first_attacker=1)
    state = new_game(Rules(), seed="clue", deal=deal, events=history)
    for seat, text in actions:
        history.extend(state.apply(seat, Action.parse(text)))
    return state, history


def test_a_take_of_one_plain_card_says_the_taker_had_no_higher_card_of_its_suit() -> None:
    state, history = _after(
        [(1, "attack 9S"), (0, "take")],
        ["7H", "8C", "10C", "QH", "JC", "KC"],
        ["9S", "7C", "9H", "QC", "JH", "9C"],
    )
    # Seat 1 led and now reads seat 0's take: seat 0 had no spade above the nine.
    clues = read_clues(state.view(1), state.rules, history)
    spades_above_nine = sum(1 << card_from_str(c) for c in ("10S", "JS", "QS", "KS", "AS"))
    assert Clue(0, spades_above_nine, TAKE_FACTOR) in clues


def test_a_lead_says_the_leader_held_no_lower_plain_card() -> None:
    state, history = _after(
        [(1, "attack 9S")],
        ["7H", "8C", "10C", "QH", "JC", "KC"],
        ["9S", "7C", "9H", "QC", "JH", "9C"],
    )
    (clue,) = read_clues(state.view(0), state.rules, history)
    below_nine = sum(
        1 << c for c in deck_cards(36) if card_str(c)[:-1] in ("6", "7", "8") and card_str(c)[-1] != "D"
    )
    deck = sum(1 << c for c in deck_cards(36))
    assert (clue.seat, clue.cards & deck, clue.factor) == (1, below_nine, LEAD_FACTOR)


def test_nothing_is_read_in_circle_or_from_a_history_that_does_not_add_up() -> None:
    rules = Rules.for_variant("circle", players=2)
    history: list[Event] = []
    state = new_game(rules, seed="circle", events=history)
    for _ in range(12):
        seat = state.actors()[0]
        history.extend(state.apply(seat, state.legal_actions(seat)[0]))
    assert read_clues(state.view(0), rules, history) == []
    state, history = _after(
        [(1, "attack 9S"), (0, "take")],
        ["7H", "8C", "10C", "QH", "JC", "KC"],
        ["9S", "7C", "9H", "QC", "JH", "9C"],
    )
    partial = [Event("took", 0, count=30), *history]
    assert read_clues(state.view(1), state.rules, partial) == []
