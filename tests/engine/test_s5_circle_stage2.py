"""docs/rules.md §5 — `circle` stage 2: 1/3/5-card leads, the transfer, throw-in rounds, the limit
[004]."""

from __future__ import annotations

import pytest

from games.engine import Action, Deal, Rules, new_game
from tests.engine.scripted import play, play_exactly, refusal, stage2

LEADER = ["3S", "3C", "6S", "6C", "6H", "JH", "7S", "5H"]
BIG = ["4S", "4C", "8S", "8C", "9S", "9C", "10S", "AH", "KD"]
#: LEADER leads five cards and BIG covers every one of them.
FIVE_LED_AND_COVERED = (
    "0: attack 3S 3C 6S 6C 5H",
    "1: cover 4S>3S",
    "1: cover 4C>3C",
    "1: cover 8S>6S",
    "1: cover 8C>6C",
    "1: cover AH>5H",
)


def test_there_is_no_stock_and_the_lowest_trump_leads() -> None:
    """ "There is no stock: nobody draws. The lowest trump leads" [004]."""
    state = stage2([["6S", "9D"], ["7S", "3D"], ["8S", "QD"]], first=None)
    assert state.awaiting() == {1: "lead"}
    assert state.view(0).stock_count == 0 and state.view(0).opening_trump == "3D"


def test_without_trumps_in_hand_the_player_left_of_the_dealer_leads() -> None:
    """ "If nobody holds a trump, the player to the left of the dealer leads" (choice, as in
    §2)."""
    rules = Rules.for_variant("circle", players=3)
    state = new_game(
        rules, seed="s", deal=Deal(hands=[["6S"], ["7S"], ["8S"]], trump_suit="D", stage=2, dealer=1)
    )
    assert state.awaiting() == {2: "lead"}


@pytest.mark.parametrize("lead", ["attack 7S", "attack 6S 6C JH", "attack 3S 3C 6S 6C 5H"])
def test_a_lead_is_one_card_a_pair_and_a_single_or_two_pairs_and_a_single(lead: str) -> None:
    """ "A lead is 1, 3 or 5 cards: one card; or a pair and a single of another rank (two sixes
    and a jack); or two pairs and a single, of three different ranks (two threes, two sevens
    and a five)" [004]."""
    state = stage2([LEADER, BIG])
    assert Action.parse(lead) in state.legal_actions(0)
    play(state, "0: " + lead)
    assert len(state.view(1).table) == len(lead.split()) - 1


@pytest.mark.parametrize(
    "lead",
    [
        "attack 6S 6C",  # two cards
        "attack 6S 6C 6H",  # three of a kind
        "attack 6S 7S JH",  # three singles
        "attack 3S 3C 6S 6C",  # four cards
        "attack 6S 6C 6H JH 7S",  # three of a kind and two singles
        "attack 3S 3C 6S 6C 6H",  # a pair and three of a kind
    ],
)
def test_other_leads_are_refused(lead: str) -> None:
    """ "Two or four cards, or three of a kind, are not a lead" [004]."""
    state = stage2([LEADER, BIG])
    assert Action.parse(lead) not in state.legal_actions(0)
    assert refusal(state, "0: " + lead) == (
        "lead one card, a pair and a single, or two pairs and a single of different ranks"
    )


def test_a_lead_beyond_the_defenders_hand_is_refused_with_the_limit() -> None:
    """ "The attack cards of a bout, the lead included, never exceed 6 nor the cards the
    defender held at the start of the bout" [004]: a 5-card lead against 4 cards."""
    state = stage2([LEADER, ["4S", "4C", "8S", "8C"]])
    assert Action.parse("attack 3S 3C 6S 6C 5H") not in state.legal_actions(0)
    assert refusal(state, "0: attack 3S 3C 6S 6C 5H") == ("the defender holds 4 cards: no fifth attack card")


def test_a_lead_never_exceeds_the_defenders_hand() -> None:
    """ "The attack cards of a bout, the lead included, never exceed ... the cards the defender
    held at the start of the bout" [004]."""
    state = stage2([LEADER, ["4S", "4C", "8S", "8C"]])
    legal = {str(a) for a in state.legal_actions(0)}
    assert "attack 6S 6C JH" in legal
    assert not [a for a in legal if len(a.split()) == 6]


def test_the_first_bito_five_rule_does_not_apply() -> None:
    """ "The first-discard-5 rule does not apply" [004]: the game's first bout takes six."""
    state = stage2([LEADER, BIG])
    play(state, *FIVE_LED_AND_COVERED)
    assert state.awaiting() == {0: "throw_in"}
    play(state, "0: attack 6H")
    assert len(state.view(1).table) == 6
    assert state.awaiting() == {1: "cover"}


def test_a_bout_never_exceeds_six_attack_cards() -> None:
    """ "The attack cards of a bout, the lead included, never exceed 6" [004]."""
    state = stage2([[*LEADER, "4H"], BIG])
    play(state, *FIVE_LED_AND_COVERED)
    assert refusal(state, "0: attack 6H 4H") == "a bout has at most 6 attack cards"


# ---------------------------------------------------------------- transfer


def test_after_a_single_card_lead_the_defender_may_transfer_with_any_number_of_cards() -> None:
    """ "Transfer only when the bout began with a single card, with any number of cards of that
    rank" [004]."""
    state = stage2([["6S", "JH", "KS"], ["6C", "6H", "8S", "9S"], ["7S", "8H", "9H", "10H"]])
    play(state, "0: attack 6S")
    assert Action.parse("transfer 6C 6H") in state.legal_actions(1)
    play(state, "1: transfer 6C 6H")
    assert (state.attacker, state.defender) == (1, 2)
    assert len(state.view(2).table) == 3


def test_after_a_three_card_lead_there_is_no_transfer() -> None:
    """ "After a 3- or 5-card lead there is no transfer" [004]."""
    state = stage2([["6S", "6C", "JH"], ["6H", "6D", "8S", "9S"], ["7S", "8H", "9H", "10H"]])
    play(state, "0: attack 6S 6C JH")
    assert "transfer" not in [a.kind for a in state.legal_actions(1)]
    assert refusal(state, "1: transfer 6H") == "a transfer needs a bout that began with one card"


def test_a_transfer_respects_the_new_defenders_hand() -> None:
    """ "The limit after a transfer holds as in §4" [004, 002]."""
    state = stage2([["6S", "JH", "KS"], ["6C", "6H", "8S", "9S"], ["7S", "8H"]])
    play(state, "0: attack 6S")
    assert Action.parse("transfer 6C 6H") not in state.legal_actions(1)
    assert Action.parse("transfer 6C") in state.legal_actions(1)


def test_the_trump_show_works_after_a_single_card_lead() -> None:
    """ "transfer_by_trump_show may be used here as in §4, after a single-card lead" (choice: house
    rule, in no text)."""
    state = stage2([["6S", "JH", "KS"], ["6D", "8S", "9S"], ["7S", "8H", "9H"]], transfer_by_trump_show=True)
    play(state, "0: attack 6S", "1: show 6D")
    assert (state.attacker, state.defender) == (1, 2) and "6D" in state.view(1).hand


# ---------------------------------------------------------------- throw-in rounds

#: Four players; seat 0 leads 6♠ against seat 1; the round goes 2, 3, 0.
ROUND = [
    ["6S", "6C", "JH"],
    ["7S", "7C", "8S", "9S", "AD", "KD"],
    ["6H", "7H", "QC"],
    ["6D", "2S", "3S"],
]


def test_nobody_throws_in_before_the_defender_has_covered_everything() -> None:
    """ "After the defender has covered everything, each other player ... gets one turn to throw
    in" [004]: before that, nobody may."""
    state = stage2(ROUND)
    play(state, "0: attack 6S")
    assert state.actors() == (1,)
    assert state.legal_actions(2) == [] and state.legal_actions(0) == []


def test_throw_ins_go_round_in_turn_from_the_defenders_left() -> None:
    """ "Each other player in clockwise order from the defender's left gets one turn to throw in
    (any number of legal cards) or pass, until the turn is back at the defender" [004]."""
    state = stage2(ROUND)
    play(state, "0: attack 6S", "1: cover 7S>6S")
    assert state.awaiting() == {2: "throw_in"} and state.actors() == (2,)
    assert state.legal_actions(3) == [] and state.legal_actions(0) == []
    play(state, "2: attack 6H")
    assert state.awaiting() == {2: "throw_in"}  # any number: still seat 2's turn
    play(state, "2: attack 7H")
    assert state.awaiting() == {3: "throw_in"}  # nothing more to throw: turn moves on
    play(state, "3: pass")
    assert state.awaiting() == {0: "throw_in"}
    play(state, "0: pass")
    assert state.awaiting() == {1: "cover"}


def test_in_teams_the_round_skips_the_defenders_partner() -> None:
    """ "The rounds visit every player allowed to throw in, so throw_in and teams apply here
    too" (choice); partners never throw in under each other [000]."""
    state = stage2(ROUND, teams=True)
    play(state, "0: attack 6S", "1: cover 7S>6S", "2: pass")
    assert state.awaiting() == {0: "throw_in"}  # seat 3, partner of 1, is skipped
    assert state.legal_actions(3) == []


def test_the_defender_may_not_cover_or_take_while_a_round_is_under_way() -> None:
    """ "The defender may not cover or take while a round is under way" [004]."""
    state = stage2(ROUND)
    play(state, "0: attack 6S", "1: cover 7S>6S", "2: attack 6H")
    assert state.legal_actions(1) == []
    assert refusal(state, "1: cover AD>6H") == "wait: the throw-in round is not over yet"
    assert refusal(state, "1: take") == "wait: the throw-in round is not over yet"


def test_the_round_repeats_while_room_remains_and_ends_in_bito_when_it_adds_nothing() -> None:
    """ "If room remains under the limit, the round repeats ... The bout ends in bito when a
    whole round adds nothing" [004]."""
    state = stage2(ROUND)
    play(
        state,
        "0: attack 6S",
        "1: cover 7S>6S",
        "2: attack 6H",
        "2: pass",
        "3: pass",
        "0: pass",
        "1: cover AD>6H",
    )
    assert state.awaiting() == {2: "throw_in"}  # a second round: 7♥ still fits
    events = play(state, "2: pass", "3: pass", "0: pass")
    assert ("bito", 1) in [(e.kind, e.seat) for e in events]


def test_after_a_take_one_more_round_then_the_defender_picks_up() -> None:
    """ "After a take, one more round of throw-ins follows in the same order, then the defender
    picks up" [004]."""
    state = stage2(ROUND)
    play(state, "0: attack 6S", "1: take")
    assert state.awaiting() == {2: "take_more"}
    play(state, "2: attack 6H", "3: attack 6D")
    assert state.awaiting() == {0: "take_more"}
    events = play(state, "0: attack 6C")
    assert ("took", 1, 4) in [(e.kind, e.seat, e.count) for e in events]


def test_after_a_five_card_lead_is_taken_no_sixth_card_is_thrown_in() -> None:
    """ "If the bout began with a 5-card lead and the defender takes, nothing is thrown in"
    [004]."""
    state = stage2([LEADER, BIG, ["6D", "3H", "5D"]])
    play(state, "0: attack 3S 3C 6S 6C 5H")
    events = play(state, "1: take")
    assert ("took", 1, 5) in [(e.kind, e.seat, e.count) for e in events]
    assert state.view(0).table == []


def test_a_covered_five_card_lead_may_still_get_a_sixth_card() -> None:
    """ "No sixth card" holds only for a 5-card lead that is taken [004]: covered, the round
    may add a sixth."""
    state = stage2([LEADER, BIG, ["6D", "3H", "5D"]])
    play(state, *FIVE_LED_AND_COVERED)
    assert state.awaiting() == {2: "throw_in"}


def test_nobody_draws_after_a_bout() -> None:
    """ "There is no stock: nobody draws" [004]."""
    state = stage2(ROUND)
    events = play(state, "0: attack JH", "1: cover AD>JH")
    assert [e for e in events if e.kind == "draw"] == []
    assert state.view(0).hand_counts == [2, 5, 3, 3]


def test_a_round_turn_is_given_to_a_thrower_with_nothing_that_fits_who_may_only_pass() -> None:
    """ "A player is skipped only when they hold no cards or no room is left, never for holding
    nothing that fits" (choice: the round's turns must not tell who holds what)."""
    state = stage2([["6S", "9D", "QC"], ["7S", "3D", "AH"], ["8H", "QD", "KC"]])
    play_exactly(state, "0: attack 6S", "1: cover 7S>6S")
    # seat 2 holds no six nor seven: its turn comes all the same
    assert state.awaiting() == {2: "throw_in"} and state.view(2).legal == ["pass"]
    play_exactly(state, "2: pass")
    assert state.awaiting() == {0: "throw_in"} and state.view(0).legal == ["pass"]
    assert [e.kind for e in play_exactly(state, "0: pass")][:2] == ["pass", "bito"]
