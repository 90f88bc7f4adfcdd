"""docs/rules.md §4 — the transfer (perevodnoy) and the transfer by showing a trump."""

from __future__ import annotations

from typing import Any

from games.engine import Action
from games.engine.state import GameState
from tests.engine.scripted import game, play, refusal

#: Three players, trump ♦ (7♦ under the stock); seat 0 attacks seat 1.
THREE = [
    ["6S", "9C", "10C", "JC", "QC", "KC"],
    ["6C", "6H", "8S", "9S", "AS", "10H"],
    ["6D", "7S", "8H", "JS", "QS", "KS"],
]
STOCK = ("AC", "AH", "KH", "QH", "JH")


def three(hands: list[list[str]] = THREE, **options: Any) -> GameState:
    """A perevodnoy table (unless ``variant=`` says otherwise) of ``hands``."""
    options.setdefault("variant", "perevodnoy")
    return game(hands, trump="7D", stock=STOCK, first_attacker=0, **options)


def test_the_defender_transfers_with_a_card_of_the_attack_rank() -> None:
    """ "Before covering any card, the defender may add one or more cards of the rank that every
    attack card shares. The defender then becomes the attacker and the next player clockwise
    with cards becomes the defender" [002]."""
    state = three()
    play(state, "0: attack 6S")
    assert Action.parse("transfer 6C") in state.legal_actions(1)
    events = play(state, "1: transfer 6C")
    assert [(e.kind, e.seat) for e in events] == [("transfer", 1)]
    assert (state.attacker, state.defender) == (1, 2)
    assert state.awaiting() == {2: "cover"}
    assert [a for a, _ in state.view(2).table] == ["6S", "6C"]


def test_a_transfer_may_lay_several_cards_of_the_rank() -> None:
    """ "The defender may add one or more cards of the rank" [002]."""
    state = three()
    play(state, "0: attack 6S", "1: transfer 6C 6H")
    assert len(state.view(2).table) == 3 and state.defender == 2


def test_the_attack_may_travel_round_the_table() -> None:
    """ "The attack may travel round the table like this" [002]."""
    state = three()
    play(state, "0: attack 6S", "1: transfer 6C", "2: transfer 6D")
    assert (state.attacker, state.defender) == (2, 0)
    assert len(state.view(0).table) == 3


def test_with_two_players_the_transfer_goes_back_to_the_attacker() -> None:
    """ "With two players the transfer goes straight back to the attacker" [002]."""
    state = three(THREE[:2])
    play(state, "0: attack 6S", "1: transfer 6C")
    assert (state.attacker, state.defender) == (1, 0)
    assert state.awaiting() == {0: "cover"}


def test_a_transfer_may_not_exceed_the_new_defenders_hand() -> None:
    """ "The attack cards, the transferred ones included, may not exceed the new defender's hand
    (nor 6, nor 5 before the game's first bito). A transfer that would break the limit is
    refused" [000, 001: the limit; 002: the transfer]."""
    state = three([THREE[0], THREE[1], ["6D", "7S"]])
    play(state, "0: attack 6S")
    assert Action.parse("transfer 6C 6H") not in state.legal_actions(1)
    assert refusal(state, "1: transfer 6C 6H") == (
        "the next defender holds 2 cards: too many attack cards for a transfer"
    )
    play(state, "1: transfer 6C")
    assert state.defender == 2


def test_after_a_transfer_the_limit_is_the_new_defenders_hand() -> None:
    """ "The limit holds after a transfer too: the attack cards may not exceed the new
    defender's hand" [000, 001: the limit; 002: the transfer]: seat 2 holds 2 cards, so no
    third card is thrown in."""
    state = three(
        [["6S", "6H", "9C", "10C", "JC", "QC"], ["6C", "8S", "9S", "AS", "10H", "KC"], ["7S", "KS"]]
    )
    play(state, "0: attack 6S", "1: transfer 6C")
    assert state.legal_actions(0) == [] and 0 not in state.actors()


def test_no_transfer_once_a_card_is_covered() -> None:
    """ "No transfer after a cover. Once any card of the bout is covered, the defender can only
    cover or take" [002]."""
    state = three()
    play(state, "0: attack 6S", "1: cover 8S>6S")
    assert [a.kind for a in state.legal_actions(1)] == []
    state = three([["6S", "6H", "9C", "10C", "JC", "QC"], ["6C", "8S", "9S", "AS", "10H", "KC"], THREE[2]])
    play(state, "0: attack 6S 6H", "1: cover 8S>6S")
    assert "transfer" not in [a.kind for a in state.legal_actions(1)]
    assert refusal(state, "1: transfer 6C") == "no transfer once a card is covered"


def test_a_transfer_uses_the_rank_on_the_table() -> None:
    """ "Cards of the rank that every attack card shares" [002]."""
    state = three()
    play(state, "0: attack 6S")
    assert refusal(state, "1: transfer 8S") == "a transfer uses cards of the rank on the table"


def test_podkidnoy_has_no_transfer() -> None:
    """The transfer is perevodnoy's [002]; podkidnoy has none [000, 001]."""
    state = three(variant="podkidnoy")
    play(state, "0: attack 6S")
    assert "transfer" not in [a.kind for a in state.legal_actions(1)]
    assert refusal(state, "1: transfer 6C") == "podkidnoy has no transfer"


def test_a_throw_in_before_any_cover_keeps_the_transfer_possible() -> None:
    """ "Before any cover every card on the table has the same rank, so a throw-in never stops a
    transfer" [002]."""
    state = three()
    play(state, "0: attack 6S", "2: attack 6D", "1: transfer 6C")
    assert state.defender == 2 and len(state.view(2).table) == 3


def test_after_a_transfer_the_transferrer_is_the_attacker_for_neighbours() -> None:
    """ "After a transfer the transferrer is the bout's attacker (for neighbours and
    throw-ins)" (choice: the transferrer is the one attacking now): seat 0, who led, may no
    longer throw in; seat 3, after the new defender, may."""
    state = game(
        [["6S", "6H", "JC"], ["6C", "8S", "9S"], ["7S", "8H", "9H"], ["6D", "QS", "KS"]],
        trump="7D",
        stock=STOCK,
        first_attacker=0,
        throw_in="neighbours",
        variant="perevodnoy",
    )
    play(state, "0: attack 6S", "1: transfer 6C")
    assert state.legal_actions(0) == []
    assert refusal(state, "0: attack 6H") == (
        "only the attacker and the player after the defender may throw in"
    )
    assert Action.parse("attack 6D") in state.legal_actions(3)


def test_after_a_transfer_the_draw_still_starts_with_the_player_who_led() -> None:
    """ "The draw still starts with the player who led the bout" [002: "starting with the one who
    moved"], the final
    defender last [001]."""
    state = three()
    events = play(state, "0: attack 6S", "1: transfer 6C", "2: cover 7S>6S", "2: cover 6D>6C", "1: pass")
    assert [(e.seat, e.count) for e in events if e.kind == "draw"] == [(0, 1), (1, 1), (2, 2)]
    assert state.awaiting() == {2: "lead"}


# ---------------------------------------------------------------- transfer by showing a trump

SHOW = [["6S", "6C", "9C", "10C", "JC", "QC"], ["6D", "6H", "8S", "9S"]]


def test_the_trump_show_is_off_by_default() -> None:
    """ "Option transfer_by_trump_show, default off" (choice: a house rule, in no text)."""
    state = three(SHOW)
    play(state, "0: attack 6S")
    assert "show" not in [a.kind for a in state.legal_actions(1)]
    assert refusal(state, "1: show 6D") == "this table does not transfer by showing a trump"


def test_showing_a_trump_of_the_attack_rank_transfers_and_keeps_the_card() -> None:
    """ "Instead of laying the card, the defender shows a trump of the attack rank and keeps
    it" (choice: house rule, in no text)."""
    state = three(SHOW, transfer_by_trump_show=True)
    play(state, "0: attack 6S")
    events = play(state, "1: show 6D")
    assert [(e.kind, e.seat) for e in events] == [("show", 1)]
    assert (state.attacker, state.defender) == (1, 0)
    assert state.view(0).table == [("6S", None)]
    assert "6D" in state.view(1).hand


def test_only_a_trump_may_be_shown() -> None:
    """ "The defender shows a trump of the attack rank" (choice: house rule, in no text)."""
    state = three(SHOW, transfer_by_trump_show=True)
    play(state, "0: attack 6S")
    assert refusal(state, "1: show 6H") == "show a trump of the attack rank"


def test_each_trump_may_be_shown_once_per_bout() -> None:
    """ "Each trump may be shown once per bout, so a bout that travels back to the same player
    needs another card" (choice: house rule, in no text)."""
    state = three(SHOW, transfer_by_trump_show=True)
    play(state, "0: attack 6S", "1: show 6D", "0: transfer 6C")
    assert "show" not in [a.kind for a in state.legal_actions(1)]
    assert refusal(state, "1: show 6D") == "that trump was already shown this bout"
    play(state, "1: transfer 6D")  # laying it is still a transfer
    assert state.defender == 0 and len(state.view(0).table) == 3


def test_a_trump_show_respects_the_new_defenders_hand() -> None:
    """ "The limit holds after a transfer too" [000, 001, 002] (choice for the show): showing
    adds no card, but the attack cards may not exceed the new defender's hand."""
    state = three([["6S", "6C", "6H"], ["6D", "8S", "9S", "10S"], ["KS"]], transfer_by_trump_show=True)
    play(state, "0: attack 6S 6C")
    assert "show" not in [a.kind for a in state.legal_actions(1)]
