"""The position notation (``games/engine/position.py``, ``docs/position.md``): every reachable
position of every variant is written as one line, read back into a state that plays on
identically, and written again the same way; bad text is refused with a reason."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Action, Event, GameState, PositionError, Rules, new_game
from games.engine.cards import card_str
from tests.engine.tables import random_walk
from tests.engine.test_conformance import CONFIGS, config_id

#: Every table of the conformance suite, and games short enough to end at the move cap.
TABLES = [
    *CONFIGS,
    Rules(players=4, max_actions=100),
    Rules.for_variant("circle", 3, jokers=2, max_actions=100),
]


def _same_play(state: GameState, copy: GameState, rng: random.Random) -> None:
    """One action, the same for both: the same legal actions, events, views and position."""
    assert copy.position() == state.position()
    assert copy.actors() == state.actors() and copy.awaiting() == state.awaiting()
    seat = rng.choice(state.actors())
    legal = state.legal_fast(seat)
    assert copy.legal_fast(seat) == legal
    assert copy.view(seat) == state.view(seat) and copy.full_view() == state.full_view()
    fa = rng.choice(legal)
    events: list[Event] = []
    again: list[Event] = []
    state.apply_fast(seat, fa, events)
    copy.apply_fast(seat, fa, again)
    assert again == events
    assert copy.position() == state.position()


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(TABLES), st.integers(min_value=0, max_value=10**6))
def test_every_position_of_a_random_game_plays_on_identically(rules: Rules, n: int) -> None:
    rng = random.Random(n)
    for state, _ in random_walk(rules, f"position-{n}"):
        text = state.position()
        copy = GameState.from_position(text)
        assert copy.position() == text
        _same_play(state, copy, rng)


@pytest.mark.parametrize("rules", CONFIGS[::5], ids=config_id)
def test_a_position_from_the_middle_plays_the_whole_game_on_identically(rules: Rules) -> None:
    rng = random.Random(config_id(rules))
    state = new_game(rules, seed="middle")
    for _ in range(15):
        seat = rng.choice(state.actors())
        state.apply_fast(seat, rng.choice(state.legal_fast(seat)))
    copy = GameState.from_position(state.position())
    while not state.is_over:
        _same_play(state, copy, rng)
    assert copy.is_over and copy.result() == state.result()
    final = GameState.from_position(state.position())
    assert final.is_over and final.result() == state.result() and final.full_view() == state.full_view()


def test_a_position_is_short_where_the_rules_say_the_rest() -> None:
    """Every token that equals its default is left out: the defender, the throwers, the
    limit and the hand the defender began with follow from the rules."""
    state = new_game(Rules(players=3), seed="short", dealer=2)
    assert state.position().split()[2:4] == ["dealer=2", f"trump={state.view(0).trump_card}"]
    assert "defender=" not in state.position() and "limit=" not in state.position()


def test_a_late_position_with_players_out_and_passes_so_far() -> None:
    """A position a deal cannot describe: seat 1 is out in first place, the first bito is
    made, seat 0 has led and seat 3 has passed; seat 2 defends."""
    state = GameState.from_position(
        "podkidnoy trump=6D hands=9S,AC/-/7S,8C,10D/6H,KH table=6S attacker=0 passed=3 bito=yes places=1"
    )
    assert state.defender == 2 and state.view(0).out == [1] and state.attack_limit == 3
    # seat 0 holds no six but holds cards: the bout waits for it as for anyone (§3 "Waiting
    # for the throwers"); seat 3 has passed.
    assert state.actors() == (0, 2) and state.view(3).legal == []
    assert state.view(0).legal == ["pass"]
    state.apply(2, Action.parse("cover 7S>6S"))  # a change on the table reopens the pass
    assert state.result() is None and state.awaiting() == {0: "throw_in", 3: "throw_in"}


def test_a_circle_stage_1_in_progress() -> None:
    """Stage 1 half collected: the drawn card waits to beat, the trump card still under the
    (empty) stock."""
    state = GameState.from_position(
        "circle trump=2D hands=9H,8H/-/- stock=2D circle=7H,3S,4C,5C,6S,9C drawn=4S turn=2"
    )
    assert state.stage == 1 and state.awaiting() == {2: "beat"}
    assert [str(a) for a in state.legal_actions(2)] == ["beat 4S>3S"]
    state.apply(2, Action.parse("beat 4S>3S"))
    assert state.view(0).drawn == "2D" and state.awaiting() == {0: "beat"}


def test_circle_turn_without_a_drawn_card_is_a_seat_about_to_draw() -> None:
    """Seat 2 draws the 4S, which beats only the 3S: the position waits for that beat. Seat 0
    then takes the trump card, the 2D, and chooses what it beats."""
    state = GameState.from_position("circle trump=2D hands=9H,8H/-/- stock=4S,2D circle=7H,3S,4C turn=2")
    assert state.position() == "circle trump=2D hands=8H,9H/-/- stock=2D circle=7H,3S,4C drawn=4S turn=2"
    state.apply(2, Action.parse("beat 4S>3S"))
    assert state.view(0).drawn == "2D" and [str(a) for a in state.legal_actions(0)] == [
        "beat 2D>7H",
        "beat 2D>4C",
    ]


def _with(text: str, **tokens: str | None) -> str:
    """``text`` with each of ``tokens`` set (None: left out), the others as they were."""
    words = text.split()
    pairs = dict(w.split("=", 1) for w in words[1:])
    for key, value in tokens.items():
        if value is None:
            pairs.pop(key, None)
        else:
            pairs[key] = value
    return " ".join([words[0], *(f"{k}={v}" for k, v in pairs.items())])


def _stock(state: GameState) -> list[str]:
    text = dict(w.split("=", 1) for w in state.position().split()[1:]).get("stock", "-")
    return [] if text == "-" else text.split(",")


CIRCLES = [rules for rules in TABLES if rules.variant == "circle"]


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(CIRCLES), st.integers(min_value=0, max_value=10**6))
def test_a_seat_about_to_draw_reads_into_the_choice_its_draw_leads_to(rules: Rules, n: int) -> None:
    """Every choice of stage 1, written a moment earlier (the drawn card back on top of the stock,
    no ``drawn=``), is the same position: the engine plays the draw on."""
    rng = random.Random(n)
    state = new_game(rules, seed=f"draw-{n}")
    while state.stage == 1:
        drawn = state.view(state.stage1_turn).drawn
        assert drawn is not None
        before = _with(state.position(), drawn=None, stock=",".join([drawn, *_stock(state)]))
        assert "drawn=" not in before and f"turn={state.stage1_turn}" in before
        _same_play(state, GameState.from_position(before), rng)


@pytest.mark.parametrize("rules", CIRCLES, ids=config_id)
@pytest.mark.parametrize("seed", ["a", "b", "c", "d"])
def test_a_circle_deal_written_before_its_first_draw_is_the_game_new_game_deals(
    rules: Rules, seed: str
) -> None:
    """The layout before anyone draws: the circle, the stock with the trump card under it, the
    dealer's left to draw; the forced draws up to the first choice are the engine's."""
    events: list[Event] = []
    state = new_game(rules, seed=seed, events=events)
    turned = [card_str(e.cards[0]) for e in events if e.kind in ("turn_up", "trump_taken")]
    joined = sum(e.kind == "to_circle" for e in events)
    view = state.full_view()
    circle = view.circle[: len(view.circle) - joined] if joined else view.circle
    before = _with(
        state.position(),
        hands="/".join(["-"] * rules.players),
        stock=",".join([*turned, *_stock(state)]),
        circle=",".join(circle),
        drawn=None,
        turn=str((state.dealer + 1) % rules.players),
    )
    assert GameState.from_position(before).to_json() == state.to_json()


def _fresh_deals(rules: Rules, seed: str) -> GameState:
    """A state whose attacker the rules found: a new game, or ``circle``'s first lead of stage 2."""
    state = new_game(rules, seed=seed)
    rng = random.Random(seed)
    while state.stage == 1:
        seat = state.actors()[0]
        state.apply_fast(seat, rng.choice(state.legal_fast(seat)))
    return state


@pytest.mark.parametrize("rules", TABLES, ids=config_id)
def test_attacker_rules_finds_the_first_attacker_as_the_deal_does(rules: Rules) -> None:
    """``attacker=rules`` on a fresh deal: the lowest trump leads and is shown (``opening``),
    else the dealer's left; the state is the one the deal made."""
    for seed in ("a", "b", "c", "d", "e", "f"):
        state = _fresh_deals(rules, seed)
        fresh = _with(state.position(), attacker="rules", opening=None)
        copy = GameState.from_position(fresh)
        assert copy.position() == state.position() and copy.to_json() == state.to_json()


def test_a_seed_with_spaces_and_percent_signs_round_trips() -> None:
    state = new_game(Rules(), seed="a b%c=d")
    assert "seed=a%20b%25c=d" in state.position()
    assert GameState.from_position(state.position()).seed == "a b%c=d"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("podkidnoy hands=6S/7S", "needs trump="),
        ("podkidnoy trump=6D", "needs hands="),
        ("whist trump=6D hands=6S/7S attacker=0", "unknown variant"),
        ("podkidnoy trump=6D hands=6S/7S attacker=0 colour=red", "unknown token"),
        ("podkidnoy trump=6D hands=6S/7S attacker=0 attacker=1", "given twice"),
        ("podkidnoy trump=6D hands=6S/6S attacker=0", "6S is in two places"),
        ("podkidnoy trump=6D hands=2S/7S attacker=0", "not in this table's deck"),
        ("podkidnoy trump=6D hands=6S/7S stock=8S attacker=0", "stock's last card"),
        ("podkidnoy trump=6D hands=6S/7S", "needs attacker="),
        ("podkidnoy trump=6D hands=6S/7S attacker=2", "no seat 2"),
        ("podkidnoy trump=6D hands=6S/- attacker=0", "nobody to attack"),
        ("podkidnoy trump=6D hands=6S/7S attacker=0 taking=maybe", "yes or no"),
        ("podkidnoy trump=6D hands=6S/7S attacker=0 result=won:1", "not a result"),
        ("podkidnoy trump=6D hands=-/7S attacker=0 result=fool:1", "bout's tokens"),
        ("podkidnoy trump=XX hands=6S/7S attacker=0", "not a card"),
        ("podkidnoy trump=6D hands=6S/7S table=6S attacker=0 turn=1", "turn="),
        ("circle trump=RJ hands=6S/7S attacker=0", "joker cannot be the trump"),
        ("podkidnoy trump=6D hands=6S/7S teams=yes attacker=0", "exactly 4 players"),
        ("circle trump=2D hands=-/- stock=2D circle=7H,3S drawn=2S turn=0", "2S beats no circle card"),
        ("circle trump=2D hands=-/- stock=4S,2D circle=7H,3S turn=0 attacker=0", "stage 1 .* no attacker="),
        ("circle trump=2D hands=-/- stock=4S,2D circle=7H,3S turn=2", "no seat 2"),
        ("podkidnoy trump=6D hands=6S/7S table=6S attacker=rules", "name the attacker"),
        ("podkidnoy trump=6D hands=6S/7S attacker=rules opening=6D", "no opening="),
        ("podkidnoy trump=6D hands=6S/7S attacker=rules defender=1", "no defender="),
        ("podkidnoy trump=6D hands=6S/- attacker=rules", "nobody to attack"),
    ],
)
def test_bad_positions_say_why(text: str, words: str) -> None:
    with pytest.raises(PositionError, match=words):
        GameState.from_position(text)
