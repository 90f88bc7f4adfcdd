"""docs/rules.md §5 — `circle` stage 1: collecting hands from a circle of face-up cards [004]."""

from __future__ import annotations

import pytest

from games.engine import (
    RED_JOKER,
    Action,
    Deal,
    Event,
    IllegalAction,
    Rules,
    card_str,
    deck_cards,
    new_game,
    shuffled,
)
from games.engine.state import GameState
from tests.engine.scripted import all_hands, play


def circle_game(
    players: int,
    circle: list[str],
    center: str,
    stock: list[str],
    dealer: int = 0,
    events: list[Event] | None = None,
    **options: object,
) -> GameState:
    """A scripted stage 1: the eight circle cards, the trump card in the middle, the stock
    (top first)."""
    rules = Rules.for_variant("circle", players=players, **options)
    return new_game(
        rules,
        seed="scripted",
        events=events,
        deal=Deal(circle=circle, center=center, stock=stock, dealer=dealer),
    )


def kinds(events: list[Event]) -> list[tuple[str, int | None, str]]:
    return [(e.kind, e.seat, " ".join(card_str(c) for c in e.cards)) for e in events]


HEARTS_SPADES_CLUBS = ["7H", "8H", "2S", "3S", "4C", "5C", "6S", "9C"]


def test_the_player_left_of_the_dealer_draws_first() -> None:
    """ "From the player to the left of the dealer, clockwise, each turn a player draws the top
    card of the stock" [004]."""
    state = circle_game(3, HEARTS_SPADES_CLUBS, "2D", ["9H", "4S"], dealer=2)
    assert state.awaiting() == {0: "beat"}
    assert state.view(1).drawn == "9H"


def test_a_drawn_card_that_can_beat_must_beat_and_the_player_chooses_which() -> None:
    """ "If it beats a card of the circle, the player must beat one of them — their choice —
    and takes both cards into hand; I don't want to take is not allowed" [004]."""
    state = circle_game(3, HEARTS_SPADES_CLUBS, "2D", ["9H", "4S", "6C"])
    assert state.awaiting() == {1: "beat"}
    assert sorted(str(a) for a in state.legal_actions(1)) == ["beat 9H>7H", "beat 9H>8H"]
    with pytest.raises(IllegalAction, match="must beat a circle card"):
        state.apply(1, Action.parse("pass"))
    with pytest.raises(IllegalAction, match="9♥ does not beat 9♣"):
        state.apply(1, Action.parse("beat 9H>9C"))
    play(state, "1: beat 9H>8H")
    assert sorted(state.view(1).hand) == ["8H", "9H"]
    assert "8H" not in state.view(0).circle and "7H" in state.view(0).circle


def test_a_drawn_card_that_beats_nothing_joins_the_circle() -> None:
    """ "If it beats nothing, it joins the circle" [004] (played at once: no decision)."""
    state = circle_game(3, HEARTS_SPADES_CLUBS, "2D", ["9H", "3H", "6C"])
    events = play(state, "1: beat 9H>8H")
    assert ("to_circle", 2, "3H") in kinds(events)
    assert "3H" in state.view(0).circle and state.view(2).hand == []
    assert state.awaiting() == {0: "beat"} and state.view(0).drawn == "6C"


def test_when_the_stock_is_gone_the_next_player_takes_the_trump_card_and_beats_with_it() -> None:
    """ "When the stock is gone, the player whose turn it is takes the trump card and beats a
    circle card with it if they can" [004]; "the cards left in the circle ... are shuffled
    and dealt one by one clockwise, starting with that same player" [004]."""
    state = circle_game(3, HEARTS_SPADES_CLUBS, "2D", ["9H", "4S", "6C"])
    play(state, "1: beat 9H>8H", "2: beat 4S>3S", "0: beat 6C>5C")
    assert state.awaiting() == {1: "beat"} and state.view(0).drawn == "2D"
    events = play(state, "1: beat 2D>9C")
    assert [(e.kind, e.seat, e.count) for e in events if e.kind == "leftovers"] == [
        ("leftovers", 0, 1),
        ("leftovers", 1, 2),
        ("leftovers", 2, 1),
    ]
    full = state.full_view()
    assert full.hand_counts == [3, 6, 3] and full.circle == [] and state.stage == 2
    assert {"9H", "8H", "2D", "9C"} <= set(all_hands(state)[1])


def test_a_trump_card_that_beats_nothing_is_shuffled_into_the_leftovers() -> None:
    """ "The cards left in the circle (with the trump card, if it beat nothing) are shuffled and
    dealt one by one clockwise, starting with that same player" [004]. Seat 2's turn comes
    when the stock is gone: it gets the first and the fourth leftover."""
    circle = ["3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D"]
    state = circle_game(3, circle, "2D", ["JD", "QD", "KD", "AD"])
    events = play(state, "1: beat JD>10D", "2: beat QD>9D", "0: beat KD>8D", "1: beat AD>7D")
    assert ("trump_taken", 2, "2D") in kinds(events) and ("to_circle", 2, "2D") in kinds(events)
    assert {e.seat: e.count for e in events if e.kind == "leftovers"} == {2: 2, 0: 2, 1: 1}
    full = state.full_view()
    assert "2D" in {c for h in all_hands(state) for c in h}
    assert full.hand_counts == [4, 5, 4]


def test_the_leftovers_shuffle_comes_from_the_seed() -> None:
    """The leftovers "are shuffled" [004], from the game's seed (choice): the same scripted
    stage 1 gives the same leftovers."""
    circle = ["3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D"]
    one = circle_game(3, circle, "2D", ["JD", "QD", "KD", "AD"])
    two = circle_game(3, circle, "2D", ["JD", "QD", "KD", "AD"])
    for state in (one, two):
        play(state, "1: beat JD>10D", "2: beat QD>9D", "0: beat KD>8D", "1: beat AD>7D")
    assert one.to_json() == two.to_json()


def test_a_player_without_cards_gets_all_the_leftovers() -> None:
    """ "If a player has no cards at that moment, all the leftovers go to that player" [004]."""
    state = circle_game(3, HEARTS_SPADES_CLUBS, "2D", ["9H", "3H"])
    play(state, "1: beat 9H>8H")  # 3H joins the circle; seat 0's turn
    assert state.awaiting() == {0: "beat"} and state.view(0).drawn == "2D"
    events = play(state, "0: beat 2D>9C")
    assert [(e.seat, e.count) for e in events if e.kind == "leftovers"] == [(2, 7)]
    assert state.full_view().hand_counts == [2, 2, 7]


def test_of_several_empty_handed_players_the_first_clockwise_from_the_current_one_gets_all() -> None:
    """ "If several players have none, the first of them clockwise starting with the current
    player gets them" (choice: it matches the deal's own order). The stock ends on seat 2's
    turn; seats 1 and 3 hold nothing: seat 3 gets the leftovers. A player still without cards
    when stage 2 begins is out at once (choice)."""
    circle = ["7H", "8H", "3S", "4S", "5S", "6S", "JS", "QS"]
    state = circle_game(4, circle, "2D", ["2C", "9H", "2H", "KS", "2S"])
    play(state, "2: beat 9H>8H", "0: beat KS>QS")
    assert state.awaiting() == {2: "beat"} and state.view(0).drawn == "2D"
    events = play(state, "2: beat 2D>2C")
    assert [(e.seat, e.count) for e in events if e.kind == "leftovers"] == [(3, 8)]
    assert state.view(0).out == [1]


def test_a_joker_turned_up_in_the_middle_joins_the_circle_and_the_next_card_is_trump() -> None:
    """ "A joker turned up as the 9th card goes into the circle and the next card is turned up
    instead" [004] (a joker has no suit to make trump). The seed "j9" is chosen because its
    documented shuffle puts a joker ninth."""
    order = shuffled(deck_cards(52, jokers=2), "j9")
    assert order[8] >= RED_JOKER and order[9] < RED_JOKER
    events: list[Event] = []
    state = new_game(Rules.for_variant("circle", players=3, jokers=2), seed="j9", dealer=0, events=events)
    assert state.view(0).trump_card == card_str(order[9])
    assert card_str(order[8]) in state.view(0).circle  # nothing beats it: still there


def test_nothing_beats_a_joker_lying_in_the_circle() -> None:
    """ "Nothing beats a joker lying in the circle: it stays there until the leftovers are
    dealt" [004]."""
    state = circle_game(3, ["RJ", "7H", "8H", "2S", "3S", "4C", "5C", "6S"], "2D", ["AD", "KD"], jokers=2)
    assert Action.parse("beat AD>RJ") not in state.legal_actions(1)
    with pytest.raises(IllegalAction, match="does not beat red joker"):
        state.apply(1, Action.parse("beat AD>RJ"))
    play(state, "1: beat AD>7H", "2: beat KD>8H")
    assert "RJ" in state.view(0).circle and state.view(0).drawn == "2D"
    assert Action.parse("beat 2D>RJ") not in state.legal_actions(0)
    play(state, "0: beat 2D>2S")
    assert state.stage == 2
    assert "RJ" in {c for h in all_hands(state) for c in h}


def test_a_drawn_joker_beats_any_circle_card_by_default() -> None:
    """ "A drawn joker beats like any card under joker_beats (so with any, it must beat a circle
    card if there is one)" [004, joker_beats: choice of the table]."""
    state = circle_game(3, HEARTS_SPADES_CLUBS, "2D", ["BJ", "AD"], jokers=2)
    assert state.awaiting() == {1: "beat"}
    assert len(state.legal_actions(1)) == 8


def test_a_drawn_joker_of_one_colour_beats_only_cards_of_its_colour() -> None:
    """ "joker_beats: colour — only cards of its colour (red joker: ♦ ♥; black joker: ♠ ♣)"
    [004, choice of the table]: a black joker drawn over a red circle joins it."""
    circle = ["7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]
    state = circle_game(3, circle, "2D", ["BJ", "AD"], jokers=2, joker_beats="colour")
    assert state.view(0).circle[-1] == "BJ"
    assert state.awaiting() == {2: "beat"} and state.view(0).drawn == "AD"
