"""Timeouts explained (issue #17 item 6): the log says what the timer played and why, the
viewer is warned before the timeout that puts a bot in the seat, and the countdown is shown only
while a human is awaited."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from games.engine import Rules
from games.models import Move
from play import presenters, selectors, services

from .services_support import make_user, player, start_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("play.services.tables.new_seed", lambda: "timeout-words-seed")


def _timeout_until_autopilot(match_id: int) -> list[Move]:
    while True:
        loaded = selectors.match_load(match_id=match_id, moves_after=None)
        assert loaded is not None
        if not loaded.match.is_active or any(p.autopilot for p in loaded.players):
            return list(Move.objects.filter(match_id=match_id).order_by("seq"))
        assert services.match_timeout(match_id=match_id, version=loaded.match.version)


def test_every_timeout_logs_why_the_timer_played_and_the_third_says_a_bot_takes_the_seat() -> None:
    a, b = make_user("a"), make_user("b")
    match = start_match(humans=[a, b], rules=Rules(players=2))
    played = _timeout_until_autopilot(match.pk)
    assert all(move.by == Move.By.TIMEOUT for move in played)
    # The throw-in window's end passes for the awaited throwers without counting a timeout
    # (docs/rules.md §3 "Waiting for the throwers"): those passes carry no note.
    window = [move for move in played if move.events[0]["kind"] == "pass"]
    assert all(move.action == "pass" for move in window)
    moves = [move for move in played if move not in window]
    for move in moves:
        note = move.events[0]
        assert note["kind"] == "timeout" and note["seat"] == move.seat and note["limit"] == 3
    counts = [move.events[0]["count"] for move in moves if move.events[0]["count"]]
    assert max(counts) == 3
    last = moves[-1]
    assert [e["kind"] for e in last.events[:2]] == ["timeout", "autopilot"]
    client = Client()
    client.force_login(a)
    page = client.get(f"/play/match/{match.pk}/", headers={"accept-language": "en"}).content.decode()
    assert "so the timer played:" in page
    assert "ran out of time 3 times in a row: a bot plays the seat from now on" in page
    with translation.override("ru"):
        ru = client.get(f"/play/match/{match.pk}/", headers={"accept-language": "ru"}).content.decode()
    assert "вышло время" in ru


def test_the_viewer_is_warned_before_the_timeout_that_ends_in_autopilot() -> None:
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    match = start_match(humans=[a, b, c], rules=Rules(players=3))
    seat = next(iter(selectors.match_load(match_id=match.pk, moves_after=None).state.awaiting()))  # type: ignore[union-attr]
    mover = player(match, seat)
    for count, expected in ((1, "1 of 3"), (2, "Last warning")):
        mover.timeouts = count
        mover.save(update_fields=["timeouts"])
        loaded = selectors.match_load(match_id=match.pk, moves_after=None)
        assert loaded is not None
        with translation.override("en"):
            context = presenters.present_match(loaded, mover.user)
        assert expected in context.timeout_note
        assert context.me is not None and context.me.timeouts_text == f"{count}/3"
        others = [s for s in context.seats if s.position == seat]
        assert not others  # the viewer's own seat is not among the opponents


def test_no_countdown_is_shown_while_only_bots_are_awaited() -> None:
    human = make_user("h")
    table = services.table_create(creator=human, rules=Rules(players=2), turn_seconds=60)
    services.seats_fill_with_bots(table_id=table.pk, user=human, level="easy")
    match = selectors.table_current_match(table_id=table.pk)
    assert match is not None
    loaded = selectors.match_load(match_id=match.pk, moves_after=None)
    assert loaded is not None
    awaited = set(loaded.state.awaiting())
    human_seat = next(p.seat for p in loaded.players if p.user_id == human.pk)
    context = presenters.present_match(loaded, human)
    if human_seat in awaited:
        assert context.remaining_ms is not None
    else:
        assert context.remaining_ms is None
    # Put the human's seat on autopilot: now only bots are awaited, whoever it is.
    player(match, human_seat).__class__.objects.filter(match=match, seat=human_seat).update(autopilot=True)
    loaded = selectors.match_load(match_id=match.pk, moves_after=None)
    assert loaded is not None
    assert presenters.present_match(loaded, human).remaining_ms is None
