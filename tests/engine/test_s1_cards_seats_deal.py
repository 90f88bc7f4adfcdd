"""docs/rules.md §1 — cards, seats, the deal, redeal and teams, each rule in a scripted position."""

from __future__ import annotations

import itertools
from dataclasses import asdict
from typing import Any

import pytest

from games.engine import (
    BLACK_JOKER,
    RED_JOKER,
    Action,
    IllegalAction,
    Rules,
    RulesError,
    beats,
    card_from_str,
    card_label,
    card_str,
    deck_cards,
    new_game,
)
from games.engine.result import Result
from tests.engine.scripted import all_hands, game, play, refusal

S, C, D, H = 0, 1, 2, 3


# ---------------------------------------------------------------- cards


@pytest.mark.parametrize("text", ["2S", "6S", "10H", "JD", "QC", "KH", "AD", "RJ", "BJ"])
def test_card_notation_round_trips(text: str) -> None:
    """ "A card is its rank and suit letter: 6S, 10H, JD, QC, KH, AD. The jokers are RJ and BJ"
    [000, 001, 002, 004] (notation: choice)."""
    assert card_str(card_from_str(text)) == text


def test_jokers_are_never_read_as_jacks() -> None:
    """ "The jokers are RJ (red) and BJ (black), so they can never be mistaken for jacks" [004]."""
    assert card_from_str("RJ") == RED_JOKER and card_from_str("BJ") == BLACK_JOKER
    assert {card_from_str(f"J{s}") for s in "SCDH"}.isdisjoint({RED_JOKER, BLACK_JOKER})
    assert card_label(RED_JOKER) == "red joker" and card_label(card_from_str("JH")) == "J♥"


def test_ranks_run_low_to_high_two_to_ace() -> None:
    """ "Ranks from low to high 2 3 4 5 6 7 8 9 10 J Q K A" [000, 002, 004]."""
    order = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"]
    for low, high in itertools.pairwise(order):
        assert beats(card_from_str(high), card_from_str(low), trump=H)
        assert not beats(card_from_str(low), card_from_str(high), trump=H)


@pytest.mark.parametrize(("size", "low"), [(24, "9"), (36, "6"), (52, "2")])
def test_deck_sizes_run_from_their_lowest_rank_to_ace(size: int, low: str) -> None:
    """ "36 cards (six to ace) ... 24 cards (nine to ace) and 52 cards (two to ace)" [000, 001,
    002; 24 and 52 are table options]."""
    cards = deck_cards(size)
    assert len(cards) == size
    assert min(cards) == card_from_str(low + "S")
    assert max(cards) == card_from_str("AH")


def test_circle_adds_two_jokers_one_red_one_black() -> None:
    """ "`circle` plays 52 cards ... with 0 or 2 jokers" [004]."""
    cards = deck_cards(52, jokers=2)
    assert len(cards) == 54 and {RED_JOKER, BLACK_JOKER} <= set(cards)


# ---------------------------------------------------------------- table options


def test_defaults_of_podkidnoy() -> None:
    """Every option with its default (docs/rules.md, "Table options"; defaults: choice)."""
    r = Rules.for_variant("podkidnoy")
    assert (r.players, r.deck, r.teams, r.throw_in) == (2, 36, False, "all")
    assert (r.first_bout_limit_5, r.draws, r.redeal, r.transfer_by_trump_show) == (True, True, False, False)
    assert (r.jokers, r.joker_beats, r.throw_in_after_joker, r.joker_last) == (0, "any", True, "defence_only")


def test_circle_plays_52_cards_without_the_first_bito_five() -> None:
    """ "`circle` plays 52 cards" and "the first-discard-5 rule does not apply" [004]."""
    r = Rules.for_variant("circle", players=4)
    assert r.deck == 52
    assert not r.first_five


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"players": 7}, "2 to 6 players"),
        ({"players": 3, "teams": True}, "exactly 4 players"),
        ({"players": 6, "deck": 24}, "cannot deal six"),
        ({"jokers": 2}, "only in circle"),
        ({"variant": "circle", "deck": 36}, "52-card"),
        ({"transfer_by_trump_show": True}, "transfer variant"),
        ({"variant": "circle", "deck": 52, "redeal": True}, "no redeal"),
    ],
)
def test_impossible_tables_are_refused_with_a_reason(options: dict[str, object], words: str) -> None:
    """ "A table that cannot be played is refused when it is created, with a message that says
    why": 7 players, teams without 4, 6 players on 24 cards, jokers outside circle (choice of
    wording; docs/rules.md §1)."""
    with pytest.raises(RulesError, match=words):
        Rules(**options)  # type: ignore[arg-type]


def test_a_table_never_seats_more_players_than_the_deck_deals_six_to() -> None:
    """ "A table cannot have more players than the deck can deal six cards to" [000, 001:
    six cards each, two to six players]:
    4 players on 24 cards and 6 on 36 are fine."""
    Rules(players=4, deck=24)
    Rules(players=6, deck=36)
    with pytest.raises(RulesError):
        Rules(players=5, deck=24)


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy", "circle"])
def test_each_variant_offers_its_options_with_their_defaults(variant: str) -> None:
    """ "Every option of a table, with its default" (docs/rules.md, "Table options"): each
    option a variant offers takes each of its choices at a table of that variant."""
    defaults = Rules.for_variant(variant, players=4)
    for option in Rules.options_for(variant):
        assert option.default == getattr(Rules.for_variant(variant), option.name)
        assert option.default in option.choices
        for choice in option.choices:
            needs = dict([option.needs]) if option.needs else {}
            table: dict[str, Any] = {"players": 4, **needs, option.name: choice}
            rules = Rules.for_variant(variant, **table)
            assert getattr(rules, option.name) == choice and rules.variant == defaults.variant
            # What a snapshot stores of the table: every option, as ``dataclasses`` would write it.
            assert rules.to_dict() == asdict(rules) and Rules.from_dict(rules.to_dict()) == rules


def test_only_circle_has_jokers_and_only_the_transfer_variants_show_a_trump() -> None:
    """ "`jokers`: `circle` only"; "`transfer_by_trump_show`: `perevodnoy` (and `circle` stage
    2)"; `circle` always plays 52 cards, deals no hands of six to redeal and ignores
    `first_bout_limit_5`."""
    names = {v: {o.name for o in Rules.options_for(v)} for v in ("podkidnoy", "perevodnoy", "circle")}
    assert "jokers" in names["circle"] and "jokers" not in names["podkidnoy"] | names["perevodnoy"]
    assert "transfer_by_trump_show" in names["perevodnoy"] & names["circle"] - names["podkidnoy"]
    assert not {"deck", "redeal", "first_bout_limit_5"} & names["circle"]
    assert {o.name: o.needs for o in Rules.options_for("circle")}["joker_last"] == ("jokers", 2)


# ---------------------------------------------------------------- the deal


def test_each_player_gets_six_and_the_next_card_is_trump_under_the_stock() -> None:
    """ "Each player gets 6 cards. The next card is turned face up: its suit is trump; it lies
    under the stock, visible to everybody, and is the last card drawn" [000, 001, 002]."""
    state = new_game(Rules(players=3), seed="deal-3")
    full = state.full_view()
    assert full.hand_counts == [6, 6, 6]
    assert full.stock_count == 36 - 18
    assert full.stock is not None and full.stock[-1] == full.trump_card
    assert full.trump_suit == full.trump_card[-1]
    for seat in range(3):
        assert state.view(seat).trump_card == full.trump_card


def test_the_same_seed_deals_the_same_cards() -> None:
    """ "The shuffle comes from a seed kept with the game ... so every game can be replayed
    exactly" (choice: the seeded shuffle of shuffle.py)."""
    one = new_game(Rules(players=4), seed="same").full_view()
    two = new_game(Rules(players=4), seed="same").full_view()
    other = new_game(Rules(players=4), seed="other").full_view()
    assert (one.hands, one.stock, one.trump_card) == (two.hands, two.stock, two.trump_card)
    assert (one.hands, one.stock) != (other.hands, other.stock)


def test_the_turned_trump_is_the_last_card_drawn() -> None:
    """ "It lies under the stock ... and is the last card drawn" [000, 001, 002]."""
    state = game(
        [["6S", "9C", "10C", "JC", "QC", "KC"], ["7S", "8H", "9H", "10H", "JH", "QH"]],
        trump="9D",
        stock=("7C",),
        first_attacker=0,
    )
    events = play(state, "0: attack 6S", "1: cover 7S>6S")
    assert [e.kind for e in events][-3:] == ["bito", "draw", "draw"]
    full = state.full_view()
    assert "7C" in all_hands(state)[0] and "9D" in all_hands(state)[1]
    assert full.stock_count == 0


@pytest.mark.parametrize(("players", "deck"), [(4, 24), (6, 36)])
def test_a_whole_deck_deal_makes_the_last_card_dealt_trump_and_keeps_it_in_hand(
    players: int, deck: int
) -> None:
    """ "If the deal uses the whole deck (6 players × 6 = 36, or 4 players on 24 cards), the
    trump is the suit of the last card dealt, shown to all and kept in that player's hand"
    [001] (choice of how "random" is done). The deal goes round from the dealer's left, so the
    last card is the dealer's."""
    state = new_game(Rules(players=players, deck=deck), seed="whole", dealer=1)
    full = state.full_view()
    assert full.stock_count == 0
    assert full.trump_card is not None and full.trump_card in all_hands(state)[1]
    assert full.trump_suit == full.trump_card[-1]
    assert all(state.view(s).trump_card == full.trump_card for s in range(players))
    assert state.spectator_view().trump_card == full.trump_card


def test_the_dealer_comes_from_the_seed_when_not_given() -> None:
    """ "Dealer: chosen from the seed for a table's first game" (docs/rules.md §1, choice)."""
    dealers = {new_game(Rules(players=4), seed=f"d{i}").dealer for i in range(40)}
    assert dealers <= {0, 1, 2, 3} and len(dealers) > 1
    assert new_game(Rules(players=4), seed="d7").dealer == new_game(Rules(players=4), seed="d7").dealer


# ---------------------------------------------------------------- redeal

FIVE_HEARTS = [["6H", "7H", "9H", "JH", "AH", "6C"], ["6S", "7S", "8S", "9C", "10C", "7D"]]


def test_five_of_a_suit_may_demand_a_redeal_and_shows_them() -> None:
    """ "A player dealt 5 or 6 cards of one suit may show them and demand a redeal before the
    first attack of the game is made. The shown cards are public. The whole deck is dealt
    again from the next seed ... the dealer stays" [001]."""
    state = game(FIVE_HEARTS, trump="8D", stock=("KS",), redeal=True, dealer=1)
    assert 0 in state.actors() and Action.parse("redeal") in state.legal_actions(0)
    events = play(state, "0: redeal")
    assert events[0].kind == "redeal" and events[0].seat == 0
    assert sorted(card_str(c) for c in events[0].cards) == sorted(["6H", "7H", "9H", "JH", "AH"])
    assert state.dealer == 1
    full = state.full_view()
    assert full.hand_counts == [6, 6] and full.stock_count == 24
    assert list(state.awaiting().values()) == ["lead"]


def test_a_redeal_is_reproducible_from_the_seed() -> None:
    """ "Dealt again from the next seed of the game's seed sequence (so the replay stays
    exact)" [001] (choice of how)."""
    one = game(FIVE_HEARTS, trump="8D", stock=("KS",), redeal=True)
    two = game(FIVE_HEARTS, trump="8D", stock=("KS",), redeal=True)
    play(one, "0: redeal")
    play(two, "0: redeal")
    assert one.to_json() == two.to_json()


def test_no_redeal_for_the_attacker_without_five_cards_of_one_suit() -> None:
    """ "A player dealt 5 or 6 cards of one suit may ... demand a redeal" [001]: the attacker,
    holding three spades, may not."""
    state = game(FIVE_HEARTS, trump="8D", stock=("KS",), redeal=True, first_attacker=1)
    assert Action.parse("redeal") not in state.legal_actions(1)
    assert "five or six cards of one suit" in refusal(state, "1: redeal")


def test_no_redeal_for_another_player_without_five_cards_of_one_suit() -> None:
    """ "A player dealt 5 or 6 cards of one suit may ... demand a redeal" [001]: the refusal
    says so, whoever asks."""
    state = game(FIVE_HEARTS, trump="8D", stock=("KS",), redeal=True, first_attacker=0)
    assert Action.parse("redeal") not in state.legal_actions(1)
    assert "five or six cards of one suit" in refusal(state, "1: redeal")


def test_no_redeal_once_the_first_attack_is_made() -> None:
    """ "... before the first attack of the game is made" [001: "during the first move"]."""
    state = game(FIVE_HEARTS, trump="8D", stock=("KS",), redeal=True, first_attacker=1)
    play(state, "1: attack 6S")
    assert "redeal" not in [a.kind for a in state.legal_actions(0)]
    with pytest.raises(IllegalAction):
        state.apply(0, Action.parse("redeal"))


def test_no_redeal_when_the_option_is_off() -> None:
    """ "Redeal (option, default off)" [001]."""
    state = game(FIVE_HEARTS, trump="8D", stock=("KS",), first_attacker=1)
    assert state.legal_actions(0) == []
    with pytest.raises(IllegalAction):
        state.apply(0, Action.parse("redeal"))


# ---------------------------------------------------------------- teams


def test_partners_never_throw_in_under_each_other() -> None:
    """ "2 vs 2, partners sit opposite ... Partners never attack each other and never throw in
    under each other" [000]. Seats 0 & 2 play seats 1 & 3."""
    state = game(
        [["6S", "JC"], ["7S", "8S"], ["6H", "QC"], ["6C", "KC"]], trump_suit="D", teams=True, first_attacker=0
    )
    play(state, "0: attack 6S")
    assert state.legal_actions(3) == []
    assert "partner" in refusal(state, "3: attack 6C")
    assert Action.parse("attack 6H") in state.legal_actions(2)


def test_the_defender_is_the_next_opponent_with_cards_never_a_partner() -> None:
    """ "The defender is always the next opponent clockwise who still has cards; a partner is
    skipped" [000]. Seat 1 goes out; seat 0 then attacks seat 3, not its partner 2."""
    state = game(
        [["6S", "JC"], ["7S"], ["8H", "10H"], ["QC", "KC"]], trump_suit="D", teams=True, first_attacker=0
    )
    play(state, "0: attack 6S", "1: cover 7S>6S")  # bito: seat 1 is out
    assert state.result() is None and state.view(0).out == [1]
    assert state.awaiting() == {2: "lead"} and state.defender == 3
    play(state, "2: attack 8H", "3: take")  # after a take: the seat after 3 leads
    assert state.awaiting() == {0: "lead"}
    assert state.defender == 3


def test_a_team_loses_when_both_opponents_are_out() -> None:
    """ "The game ends when both players of one team are out; the other team loses" (choice: "a
    team loses when one of its players is the fool") [000]."""
    state = game([["6S", "JC"], ["7S"], ["8H", "10C"], ["9H"]], trump_suit="D", teams=True, first_attacker=0)
    play(state, "0: attack 6S", "1: cover 7S>6S", "2: attack 8H", "3: cover 9H>8H")
    result = state.result()
    assert state.is_over and result is not None
    assert result.losing_team == (0, 2) and result.fool is None and not result.draw
    assert result.places == [[1], [3]]


def test_a_team_players_left_holding_cards_alone_is_the_fool() -> None:
    """docs/rules.md §3, Teams: "when one of its players is left holding cards (the partner went
    out), that player is the fool". Seat 0 goes out with seat 1; seat 3 then follows seat 1, and
    seat 2 is left alone with a card: team 0 & 2 loses and seat 2 is its fool."""
    state = game([["6S"], ["7S"], ["8H", "10C"], ["9H"]], trump_suit="D", teams=True, first_attacker=0)
    play(state, "0: attack 6S", "1: cover 7S>6S", "2: attack 8H", "3: cover 9H>8H")
    result = state.result()
    assert state.is_over and result is not None
    assert result.losing_team == (0, 2) and result.fool == 2 and not result.draw
    assert result.places == [[0, 1], [3]]
    assert Result.from_dict(result.to_dict()) == result
