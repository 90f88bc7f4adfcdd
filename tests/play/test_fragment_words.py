"""The words of a push, remembered per language (``games.memos``: the fragments' labels, the
legal actions, the log lines, the rating chip): whatever was remembered before, each language
draws exactly what Django's own ``gettext`` draws, and a changed setting forgets them."""

from __future__ import annotations

from datetime import UTC, datetime
from unittest import mock

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import engines
from django.test import override_settings
from django.utils import translation
from django.utils.safestring import mark_safe

from accounts.models import User
from games import memos, words
from games.engine import Rules
from games.words import action_label
from play import fragments, presenters, selectors
from play.presenters import present_match
from play.ratings import ShownRating
from tests.play.services_support import match_state

from .services_support import make_user, play_default, start_match

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def _viewers(match_id: int) -> list[User | AnonymousUser]:
    loaded = selectors.match_load(match_id=match_id, moves_after=None)
    assert loaded is not None
    return [*(p.user for p in loaded.players), AnonymousUser()]


def test_each_languages_macros_draw_what_djangos_gettext_draws() -> None:
    """The environment's own module translates through Django's ``gettext`` at every label; the
    module of the active language must draw the same push, byte for byte, in both languages and
    back again (a module or a translation of the other language would show here)."""
    match = start_match(humans=[make_user("a"), make_user("b"), make_user("c")], rules=Rules(players=3))
    own = engines["jinja2"].env.get_template(fragments.TEMPLATE).module  # type: ignore[attr-defined]
    pushes: dict[str, set[str]] = {"en": set(), "ru": set()}
    with mock.patch("django.utils.timezone.now", return_value=NOW):
        for _step in range(8):
            play_default(match)
            loaded = selectors.match_load(match_id=match.pk, moves_after=0)
            assert loaded is not None
            for language in ("en", "ru", "en", "ru"):
                with translation.override(language):
                    for user in _viewers(match.pk):
                        context = present_match(loaded, user)
                        drawn = str(fragments.macros().push(context, "", True))
                        assert drawn == str(own.push(context, "", True))
                        pushes[language].add(drawn)
    assert pushes["en"].isdisjoint(pushes["ru"])
    assert all('aria-label="Ваши карты"' in push for push in pushes["ru"])
    assert all('aria-label="Your hand"' in push for push in pushes["en"])


def test_every_legal_action_is_worded_in_the_language_active_when_it_is_drawn() -> None:
    match = start_match(humans=[make_user("a"), make_user("b")])
    for _step in range(6):
        play_default(match)
        state = match_state(match)
        for seat in state.awaiting():
            legal = state.view(seat).moves
            for language in ("ru", "en", "ru"):
                with translation.override(language):
                    words = [choice.label for choice in presenters._choices(legal, bito=False)]
                    assert words == [action_label(move) for move in legal]
    with translation.override("ru"):
        ru = presenters._choices(legal, bito=False)
    with translation.override("en"):
        en = presenters._choices(legal, bito=False)
    assert [c.action for c in ru] == [c.action for c in en] and [c.label for c in ru] != [c.label for c in en]


def test_a_log_line_is_worded_in_its_language_and_a_name_escaped_whatever_was_remembered() -> None:
    """The same event in two languages, and for a name marked safe (not escaped again) and the
    same text unmarked (escaped): four lines, each the one worded afresh."""
    event = {"kind": "attack", "seat": 0, "cards": ["6S"], "count": 1}
    lines: dict[tuple[str, bool], str] = {}
    for language in ("en", "ru", "en"):
        with translation.override(language):
            for name in ("<b>ann</b>", mark_safe("<b>ann</b>")):
                line = words.describe_event(event, {0: name})
                memos.forget()
                assert line == words.describe_event(event, {0: name})
                lines[language, isinstance(name, type(mark_safe("")))] = str(line)
    assert len(set(lines.values())) == 4
    assert "&lt;b&gt;ann&lt;/b&gt; leads" in lines["en", False] and "<b>ann</b> leads" in lines["en", True]
    assert "заходит" in lines["ru", False]


def test_the_rating_chip_is_worded_in_its_language() -> None:
    for provisional in (False, True):
        rating = ShownRating(1512.4, provisional)
        with translation.override("en"):
            en = rating.chip
        with translation.override("ru"):
            ru = rating.chip
        assert en != ru and 'data-rating="1512"' in en and 'data-rating="1512"' in ru
        assert ("?</span>" in en) is provisional
        assert 'title="rating in this pool' in en


@pytest.mark.parametrize(
    ("remembered", "djangos", "args"),
    [
        (memos.gettext, translation.gettext, ("Your hand",)),
        (
            memos.ngettext,
            translation.ngettext,
            ("stock: <strong>%(counter)s</strong> card", "stock: <strong>%(counter)s</strong> cards", 1),
        ),
        (
            memos.ngettext,
            translation.ngettext,
            ("stock: <strong>%(counter)s</strong> card", "stock: <strong>%(counter)s</strong> cards", 5),
        ),
        (memos.pgettext, translation.pgettext, ("seconds", "s")),
    ],
)
def test_the_remembered_gettexts_say_what_djangos_say_in_each_language_in_turn(
    remembered: object, djangos: object, args: tuple[object, ...]
) -> None:
    """The presenters' and the words' ``_``, ``ngettext`` and ``pgettext`` are remembered per
    language: asked in one language and then the other, each says what Django's says there."""
    said = {}
    for language in ("en", "ru", "en", "ru"):
        with translation.override(language):
            assert remembered(*args) == djangos(*args)  # type: ignore[operator]
            said[language] = remembered(*args)  # type: ignore[operator]
    assert said["en"] != said["ru"]


def test_a_message_marked_safe_is_translated_marked_safe_whatever_was_remembered() -> None:
    """A plain message and one marked safe of the same text are kept apart: Django marks the
    translation of a safe message safe, and a remembered plain one must not stand for it."""
    with translation.override("ru"):
        plain = memos.gettext("Your hand")
        safe = memos.gettext(mark_safe("Your hand"))
    assert plain == safe and not hasattr(plain, "__html__") and hasattr(safe, "__html__")


def test_a_changed_setting_forgets_the_remembered_words() -> None:
    match = start_match(humans=[make_user("a"), make_user("b")])
    play_default(match)
    loaded = selectors.match_load(match_id=match.pk, moves_after=0)
    assert loaded is not None
    with translation.override("ru"):
        fragments.match_fragments(loaded, loaded.players[0].user)
    remembered = (fragments._module, fragments._translated, fragments._drawn, presenters._choice)
    assert all(memo.cache_info().currsize for memo in remembered)
    assert words._described in memos.MEMOS and words._described.cache_info().currsize
    with override_settings(LANGUAGE_CODE="ru"):
        assert not any(memo.cache_info().currsize for memo in memos.MEMOS)
