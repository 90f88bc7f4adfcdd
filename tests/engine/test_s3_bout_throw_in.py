"""docs/rules.md §3 — a bout: the lead, throwing in, passes and who may throw in."""

from __future__ import annotations

from typing import Any

from games.engine import Action, Rules
from games.engine.state import GameState
from tests.engine.scripted import game, play, play_exactly, refusal

#: Three players, trump ♦; seat 0 attacks seat 1, seat 2 sits after the defender.
THREE = [
    ["6S", "6C", "9S", "10C", "QH", "KH"],
    ["7S", "8S", "9C", "JC", "AS", "AH"],
    ["6H", "7C", "9H", "JD", "QS", "KC"],
]
STOCK = ("10S", "10H", "JS", "JH", "QC")


def three(**options: Any) -> GameState:
    return game(THREE, trump="8D", stock=STOCK, first_attacker=0, **options)


#: Four players, trump ♦; seat 0 attacks seat 1; seat 2 is after the defender, seat 3 is not.
FOUR = [
    ["6S", "9S", "10S"],
    ["7S", "8S", "9C"],
    ["6H", "JH", "QH"],
    ["6C", "JC", "QC"],
]


def four(**options: Any) -> GameState:
    return game(FOUR, trump="8D", stock=("KS", "KH", "KC", "AS"), first_attacker=0, **options)


# ---------------------------------------------------------------- the lead


def test_a_lead_is_one_card() -> None:
    """ "The attacker leads one card, or several cards of one rank" [000, 002]."""
    state = three()
    events = play(state, "0: attack 9S")
    assert [(e.kind, e.seat, e.count) for e in events] == [("attack", 0, 1)]
    assert state.view(1).table == [("9S", None)]


def test_a_lead_may_be_several_cards_of_one_rank() -> None:
    """ "... or several cards of one rank (three sixes, two kings)" [000, 002]."""
    state = three()
    play(state, "0: attack 6S 6C")
    assert state.view(1).table == [("6S", None), ("6C", None)]


def test_a_lead_of_two_ranks_is_refused() -> None:
    """ "Several cards of one rank" [000, 002]: a six and a nine are not a lead."""
    assert refusal(three(), "0: attack 6S 9S") == "a lead is one card or several of one rank"


def test_one_may_lead_one_card_and_throw_in_the_others_later() -> None:
    """ "They may lay them all at once or lead one and throw in the others later" [000]."""
    state = three()
    play(state, "0: attack 6S", "1: cover 7S>6S", "0: attack 6C")
    assert [a for a, _ in state.view(1).table] == ["6S", "6C"]


# ---------------------------------------------------------------- throwing in


def test_a_throw_in_may_match_an_attack_card_or_a_defence_card() -> None:
    """ "Any card whose rank is already on the table in this bout may be thrown in, whether that
    rank came from an attack card or a defence card" [000]."""
    state = three()
    play(state, "0: attack 6S", "1: cover 7S>6S")
    assert Action.parse("attack 6C") in state.legal_actions(0)  # rank of an attack card
    assert Action.parse("attack 7C") in state.legal_actions(2)  # rank of a defence card
    play(state, "2: attack 7C")
    assert [a for a, _ in state.view(0).table] == ["6S", "7C"]


def test_a_throw_in_of_a_rank_not_on_the_table_is_refused() -> None:
    """ "Any card whose rank is already on the table" [000]: a nine is not."""
    state = three()
    play(state, "0: attack 6S", "1: cover 7S>6S")
    assert refusal(state, "0: attack 9S") == "no card of the rank of 9♠ is on the table"


def test_throw_ins_may_come_before_the_defender_covers() -> None:
    """ "Throw-ins may come at any time, before or after covers, and nobody has priority"
    [000: "or lead one and throw in the others later"] (choice: first come, first served)."""
    state = three()
    play(state, "0: attack 6S")
    assert state.actors() == (0, 1, 2)
    play(state, "2: attack 6H", "0: attack 6C")
    assert [a for a, _ in state.view(1).table] == ["6S", "6H", "6C"]


def test_with_throw_in_all_every_player_may_throw_in() -> None:
    """ "Option throw_in: all players may throw in [000] (default)"."""
    state = four()
    play(state, "0: attack 6S")
    assert Action.parse("attack 6C") in state.legal_actions(3)
    play(state, "3: attack 6C")
    assert len(state.view(1).table) == 2


def test_with_throw_in_neighbours_only_the_attacker_and_the_player_after_the_defender() -> None:
    """ "... or only the neighbours: the attacker and the player after the defender" [001]."""
    state = four(throw_in="neighbours")
    play(state, "0: attack 6S")
    assert state.legal_actions(3) == []
    assert refusal(state, "3: attack 6C") == (
        "only the attacker and the player after the defender may throw in"
    )
    play(state, "2: attack 6H")
    assert len(state.view(1).table) == 2


def test_with_throw_in_neighbours_a_player_out_is_skipped_after_the_defender() -> None:
    """ "The attacker and the player after the defender" [001]: the player after the defender
    is the next one who still has cards (choice: players who are out are skipped). Seat 2
    is out; when seat 0 attacks seat 1, seat 3 is the neighbour who may throw in."""
    state = GameState.from_position(
        "podkidnoy throw_in=neighbours trump=H hands=7D,10C/JS,QS/-/10D,KS discard=6S,7S,8C,9C "
        "attacker=0 bito=yes places=2"
    )
    assert state.view(0).out == [2] and state.awaiting() == {0: "lead"}
    play(state, "0: attack 10C")
    assert Action.parse("attack 10D") in state.legal_actions(3)


def test_the_defender_does_not_throw_in() -> None:
    """ "A player allowed to throw in" excludes the defender [000]."""
    state = three()
    play(state, "0: attack 9S")
    assert refusal(state, "1: attack 9C") == "the defender does not throw in"
    assert refusal(state, "1: pass") == "cover the cards or take them"


# ---------------------------------------------------------------- passes and bito


def test_bito_waits_until_every_player_who_could_throw_in_has_passed() -> None:
    """ "When every attack card is covered and every player allowed to throw in has passed
    since the last change ... the table goes to the discard pile" [000, 001]."""
    state = three()
    play(state, "0: attack 6S", "1: cover 7S>6S")
    assert state.awaiting() == {0: "throw_in", 2: "throw_in"}
    play(state, "0: pass")
    assert state.awaiting() == {2: "throw_in"}
    events = play(state, "2: pass")
    assert [e.kind for e in events][:2] == ["pass", "bito"]
    assert state.view(0).discard_count == 2


# ---------------------------------------------------------------- waiting for the throwers


def test_a_thrower_with_nothing_to_throw_is_awaited_and_may_only_pass() -> None:
    """ "Every player allowed to throw in who holds cards is awaited, whether or not they hold a
    card that fits ... a player with nothing to throw sees so and may pass at once" (choice: who
    is awaited must not tell who holds what)."""
    state = four()
    play_exactly(state, "0: attack 9S", "1: take")
    # nobody else holds a nine, and all three are awaited all the same
    assert state.awaiting() == {0: "take_more", 2: "take_more", 3: "take_more"}
    assert [state.view(t).legal for t in (0, 2, 3)] == [["pass"]] * 3
    play_exactly(state, "0: pass", "2: pass")
    assert state.view(1).hand_counts[1] == 3  # not picked up while seat 3 may still throw
    play_exactly(state, "3: pass")
    assert state.view(1).hand_counts[1] == 4 and state.awaiting() == {2: "lead"}


def test_a_bito_never_comes_by_itself_while_a_thrower_could_still_throw() -> None:
    """ "A bout does not end by itself because nobody holds a card of a table rank: that would
    tell everybody so" — not even in a two-player game, where it would tell the defender."""
    state = game([["6S", "10C", "QH"], ["7S", "8S", "AH"]], trump="8D", stock=("KS", "KH"), first_attacker=0)
    play_exactly(state, "0: attack 6S", "1: cover 7S>6S")
    assert state.awaiting() == {0: "throw_in"} and state.view(0).legal == ["pass"]
    events = play_exactly(state, "0: pass")
    assert [e.kind for e in events][:2] == ["pass", "bito"]


def test_the_wait_looks_the_same_whether_or_not_the_thrower_holds_a_card_that_fits() -> None:
    """Two deals that differ only in seat 2's hidden cards: after the same moves the defender
    and a spectator see the same (choice: nothing anyone sees depends on cards they may not
    see)."""
    holds = [["6S", "9S", "10S"], ["7S", "8S", "9C"], ["6H", "JH", "QH"], ["6C", "JC", "QC"]]
    lacks = [["6S", "9S", "10S"], ["7S", "8S", "9C"], ["KH", "JH", "QH"], ["6C", "JC", "QC"]]
    seen = []
    for hands, stock in ((holds, ("KS", "KH", "KC", "AS")), (lacks, ("KS", "6H", "KC", "AS"))):
        state = game(hands, trump="8D", stock=stock, first_attacker=0)
        play_exactly(state, "0: attack 6S", "1: cover 7S>6S", "0: pass", "3: pass")
        seen.append((state.view(1).to_dict(), state.spectator_view().to_dict()))
    assert seen[0] == seen[1]
    assert seen[0][1]["awaiting"] == {"2": "throw_in"}


def test_no_wait_once_the_limit_is_reached_and_the_defender_is_out_of_cards() -> None:
    """ "Nobody is awaited when the limit leaves no room or the defender has nothing left to
    cover with" — facts everybody sees, so the bito comes at once."""
    state = game([["6S", "6C", "KH"], ["7S", "7C"], ["6H", "JH", "QH"]], trump_suit="D", first_attacker=0)
    play_exactly(state, "0: attack 6S 6C", "1: cover 7S>6S")
    assert state.attack_limit == 2 and state.awaiting() == {1: "cover"}
    events = play_exactly(state, "1: cover 7C>6C")
    assert "bito" in [e.kind for e in events]


def test_no_wait_for_throwers_whose_hands_are_empty() -> None:
    """ "A player with no cards is never awaited": the attacker led their last card, so the bito
    comes once it is covered."""
    state = game(
        [["6S"], ["7S", "8S", "9S"], ["10H", "JH"]], trump_suit="D", first_attacker=0, throw_in="neighbours"
    )
    play_exactly(state, "0: attack 6S", "1: cover 7S>6S")
    assert state.awaiting() == {2: "throw_in"}  # the neighbour holds cards: awaited
    assert [e.kind for e in play_exactly(state, "2: pass")][:2] == ["pass", "bito"]


def test_a_pass_is_reopened_by_a_throw_in() -> None:
    """ "Any change on the table after it — a card laid (throw-in, cover or transfer) or the
    defender's take — reopens every pass" (choice: a new card may give a player something to
    throw)."""
    state = three()
    play(state, "0: attack 6S", "1: cover 7S>6S", "0: pass")
    assert 0 not in state.actors()
    play(state, "2: attack 7C")
    assert 0 in state.actors() and Action.parse("attack 6C") in state.legal_actions(0)


def test_a_pass_is_reopened_by_a_cover() -> None:
    """ "Any change on the table after it — a card laid (... cover ...) — reopens every pass"
    (choice)."""
    state = three()
    play(state, "0: attack 6S", "0: pass")
    assert 0 not in state.actors()
    play(state, "1: cover 7S>6S")
    assert state.awaiting() == {0: "throw_in", 2: "throw_in"}


def test_a_pass_is_reopened_by_the_take() -> None:
    """ "... or the defender's take — reopens every pass" (choice)."""
    state = three()
    play(state, "0: attack 6S", "0: pass", "2: pass")
    assert state.actors() == (1,)
    play(state, "1: take")
    assert state.awaiting() == {0: "take_more", 2: "take_more"}


def test_a_player_may_pass_before_the_cards_are_covered() -> None:
    """ "A player allowed to throw in may pass at any time: nothing more from me for now"
    (choice; [001] only names the final "bito")."""
    state = three()
    play(state, "0: attack 6S")
    assert Action.parse("pass") in state.legal_actions(2)
    assert [e.kind for e in play(state, "2: pass")] == ["pass"]


def test_a_game_recorded_before_the_public_wait_replays_under_its_own_rule() -> None:
    """Rules stored without ``throw_in_waits`` (every record, snapshot and export made before
    "Waiting for the throwers") read as ``"holders"``: a thrower with nothing that fits is not
    awaited and the bito comes by itself, as when those games were played, so they replay
    exactly; a table made now waits for every thrower."""
    stored = {k: v for k, v in Rules().to_dict().items() if k != "throw_in_waits"}
    assert Rules.from_dict(stored).throw_in_waits == "holders"
    assert Rules().throw_in_waits == "public" == Rules.from_dict(Rules().to_dict()).throw_in_waits
    hands = [["6S", "10C", "QH"], ["7S", "8S", "AH"]]
    old = game(hands, trump="8D", stock=("KS", "KH"), first_attacker=0, throw_in_waits="holders")
    play_exactly(old, "0: attack 6S")
    events = play_exactly(old, "1: cover 7S>6S")
    assert "bito" in [e.kind for e in events] and old.awaiting() == {1: "lead"}
