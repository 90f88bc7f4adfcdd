"""Circle stage 1 (issue #17 item 3): a drawn card that can beat exactly one circle card has no
choice in it, so the service plays it at once (``Move.By.FORCED``) in the same change, nobody
waits for it and it never counts towards autopilot; a card with two targets still waits."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import GameState, Rules
from games.models import Match, Move
from play import services
from play.services import turn

from .services_support import make_user, player, start_match, state_of, task_sends

pytestmark = pytest.mark.django_db

#: Seat 0's drawn 10H may beat 7H or 9H (a choice); then seat 1 turns up 7C, which beats only
#: the 6C, and seat 0 the 8S, which beats only the 6S: both forced.
POSITION = "circle trump=6D hands=-/- stock=7C,8S,6D circle=6S,6C,7H,9H,10C drawn=10H turn=0"


def _staged(position: str) -> Match:
    a, b = make_user("a"), make_user("b")
    match = start_match(humans=[a, b], rules=Rules(variant="circle", deck=52), turn_seconds=60)
    Match.objects.filter(pk=match.pk).update(snapshot=GameState.from_position(position).to_json())
    match.refresh_from_db()
    return match


def test_forced_action_is_the_only_beat_of_a_drawn_card_and_none_when_there_is_a_choice() -> None:
    state = GameState.from_position(POSITION)
    assert turn.forced_action(state, 0) is None
    state.apply(0, state.legal_actions(0)[0])
    assert str(turn.forced_action(state, 1)) == "beat 7C>6C"
    assert turn.forced_action(state, 0) is None


def test_a_drawn_card_with_one_target_is_played_at_once_in_the_same_change() -> None:
    match = _staged(POSITION)
    assert set(state_of(match).awaiting()) == {0}
    before = player(match, 1).timeouts
    services.action_apply(
        match_id=match.pk,
        user=player(match, 0).user,
        action_text="beat 10H>9H",
        expected_version=match.version,
    )
    moves = list(match.moves.order_by("seq"))
    assert [(m.seat, m.action, m.by) for m in moves[:3]] == [
        (0, "beat 10H>9H", Move.By.PLAYER),
        (1, "beat 7C>6C", Move.By.FORCED),
        (0, "beat 8S>6S", Move.By.FORCED),
    ]
    state = state_of(match)
    for seat, _code in state.awaiting().items():
        assert turn.forced_action(state, seat) is None  # nothing forced is left waiting
    match.refresh_from_db()
    assert match.version == 1  # one change
    assert player(match, 1).timeouts == before


def test_a_forced_move_at_the_deal_is_sent_at_once_and_played_by_the_turn_task(
    django_capture_on_commit_callbacks: Any,
) -> None:
    match = _staged(POSITION)
    state = state_of(match)
    state.apply(0, state.legal_actions(0)[0])  # now seat 1's 7C has only the 6C to beat
    Match.objects.filter(pk=match.pk).update(snapshot=state.to_json())
    match.refresh_from_db()
    with task_sends(turn.BOT_TURN_TASK) as sent, django_capture_on_commit_callbacks(execute=True):
        turn.send_bot_turns(match, state, list(match.players.select_related("user")))
    assert [call.kwargs.get("countdown") for call in sent.call_args_list] == [0]
    assert services.bot_turn(match_id=match.pk, version=match.version, seat=1) is True
    assert match.moves.get(seq=1).by == Move.By.FORCED
    # A human's seat with a real choice is never played by the turn task.
    match.refresh_from_db()
    awaited = state_of(match).awaiting()
    for seat in awaited:
        assert services.bot_turn(match_id=match.pk, version=match.version, seat=seat) is False
