"""The public fragments a push remembers (``play.fragments``): every viewer's push is byte
for byte the template's "push" drawn from that viewer's whole context, whatever was remembered
before it (other matches, versions, languages and viewers), and nothing private is remembered."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from accounts.models import User
from games.engine import Rules
from games.models import Match
from play import fragments, selectors
from play.fragments import match_fragments
from play.presenters import Choice, HandCard, present_match
from tests.play.services_support import match_state

from .services_support import make_user, play_default, start_match

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def fixed_clock() -> Iterator[None]:
    """One instant for both ways of drawing a push (the timer is drawn from it)."""
    with mock.patch("django.utils.timezone.now", return_value=NOW):
        clear = fragments._drawn.cache_clear
        clear()
        yield
        clear()


def _template_push(match_id: int, user: User | AnonymousUser, log_after: int | None) -> str:
    """The push as the template's "push" macro draws it from the viewer's whole context."""
    loaded = selectors.match_load(match_id=match_id, moves_after=log_after or 0)
    assert loaded is not None
    return str(fragments.macros().push(present_match(loaded, user), "", log_after is None))


def _push(match_id: int, user: User | AnonymousUser, log_after: int | None) -> str:
    loaded = selectors.match_load(match_id=match_id, moves_after=log_after or 0)
    assert loaded is not None
    return match_fragments(loaded, user, log_after=log_after)[0]


def _viewers(match: Match) -> list[User | AnonymousUser]:
    players = match.players.select_related("user").order_by("seat")
    seated: list[User | AnonymousUser] = [p.user for p in players]
    return [*seated, make_user(f"watcher-{match.pk}"), AnonymousUser()]


def test_every_viewers_push_is_the_templates_push_whatever_was_remembered_before() -> None:
    """Two matches, three players each, move by move: each seat, a spectator and an anonymous
    visitor, in English and Russian, the whole log and the last line; drawn cold and warm."""
    rules = Rules(players=3)
    matches = [start_match(humans=[make_user(f"{t}{s}") for s in range(3)], rules=rules) for t in "ab"]
    viewers = {match.pk: _viewers(match) for match in matches}
    for _step in range(6):
        for match in matches:
            play_default(match)
            for language in ("en", "ru"):
                with translation.override(language):
                    for user in viewers[match.pk]:
                        for log_after in (None, match.last_seq - 1):
                            expected = _template_push(match.pk, user, log_after)
                            assert _push(match.pk, user, log_after) == expected
                            assert _push(match.pk, user, log_after) == expected
    assert fragments._drawn.cache_info().hits > 0


def test_spectators_share_the_public_fragments() -> None:
    match = start_match(humans=[make_user("a"), make_user("b")])
    play_default(match)
    first, second = make_user("w1"), make_user("w2")
    _push(match.pk, first, None)
    drawn = fragments._drawn.cache_info()
    assert _push(match.pk, second, None) == _push(match.pk, first, None)
    after = fragments._drawn.cache_info()
    assert after.misses == drawn.misses and after.hits > drawn.hits


def _private(value: Any) -> bool:
    """Whether ``value`` holds a card of the viewer's hand or a legal action."""
    if isinstance(value, (HandCard, Choice)):
        return True
    if isinstance(value, (tuple, frozenset, list)):
        return any(_private(item) for item in value)
    return False


def test_no_hand_and_no_action_is_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The remembered fragments' keys hold no hand card and no action, and while the match runs
    the seats and the felt drawn for a player show the face of no card in anyone's hand."""
    match = start_match(humans=[make_user("a"), make_user("b"), make_user("c")], rules=Rules(players=3))
    drawn: list[tuple[str, tuple[Any, ...], str]] = []
    real = fragments._drawn

    def spy(name: str, language: str | None, values: tuple[Any, ...]) -> str:
        html = real(name, language, values)
        drawn.append((name, values, html))
        return html

    monkeypatch.setattr(fragments, "_drawn", spy)
    seated = _viewers(match)[:3]
    for _step in range(10):
        play_default(match)
        state = match_state(match)
        in_hands = {code for seat in range(state.n) for code in state.view(seat).hand}
        drawn.clear()
        for user in seated:
            _push(match.pk, user, None)
        assert drawn
        for name, values, html in drawn:
            assert not _private(values)
            if name in ("players", "table"):
                assert not [code for code in in_hands if f'#card-{code}"' in html]


def test_each_public_fragment_is_remembered_under_every_field_its_partial_reads() -> None:
    """A field a public macro reads but ``PUBLIC`` does not list would be drawn from whatever the
    first viewer had: the macros (with the macros they call) and the list must name the same
    fields."""
    text = (Path(settings.BASE_DIR) / "templates" / "jinja2" / fragments.TEMPLATE).read_text(encoding="utf-8")
    bodies = dict(re.findall(r"{%\s*macro (\w+)\(.*?%}(.*?){%-?\s*endmacro", text, flags=re.S))
    for name, fields in fragments.PUBLIC.items():
        body = bodies[name]
        for called in set(re.findall(r"\b(\w+)\(m\b", body)) & set(bodies):
            body += bodies[called]
        read = set(re.findall(r"\bm\.(\w+)", body))
        assert read <= set(fields), f"{name} reads {sorted(read - set(fields))} not in fragments.PUBLIC"
