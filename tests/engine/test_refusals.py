"""Every sentence the engine refuses an action with is declared once (``games/engine/refusals.py``),
by a stable code, and is what ``makemessages`` extracts for the site to translate."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from games.engine import (
    POSITION_REFUSALS,
    REFUSALS,
    TABLE_REFUSALS,
    GameState,
    IllegalAction,
    PositionError,
    Rules,
    RulesError,
)
from games.engine.refusals import ORDINALS

ENGINE = Path(__file__).parents[2] / "games" / "engine"


def _raised_codes(error: str = "IllegalAction") -> set[str]:
    raised = re.compile(error + r'\.of\(\s*"(\w+)"')
    return {code for path in ENGINE.rglob("*.py") for code in raised.findall(path.read_text())}


def test_every_code_the_engine_raises_is_declared_and_every_declared_one_is_raised() -> None:
    assert _raised_codes() == set(REFUSALS)


def test_an_illegal_action_renders_its_declared_template() -> None:
    err = IllegalAction.of("rank_not_on_table", cards="7♠")
    assert str(err) == err.message == "no card of the rank of 7♠ is on the table"
    assert err.refusal is REFUSALS["rank_not_on_table"] and err.params == {"cards": "7♠"}
    assert IllegalAction("bot_illegal", "the bot chose badly").refusal is None


@pytest.mark.parametrize(
    ("cards", "sentence"),
    [
        (1, "the next defender holds 1 card: too many attack cards for a transfer"),
        (3, "the next defender holds 3 cards: too many attack cards for a transfer"),
    ],
)
def test_a_counted_refusal_has_a_singular_and_a_plural(cards: int, sentence: str) -> None:
    refusal = REFUSALS["transfer_limit"]
    assert refusal.count == "cards" and refusal.plural is not None
    assert str(IllegalAction.of("transfer_limit", cards=cards)) == sentence


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs GNU gettext")
def test_makemessages_extracts_every_refusal() -> None:
    """Django's ``makemessages`` runs xgettext with ``--keyword=gettext_noop`` on top of the
    default keywords (``ngettext:1,2`` among them)."""
    catalogue = subprocess.run(
        [
            "xgettext",
            "--language=Python",
            "--keyword=gettext_noop",
            "--from-code=UTF-8",
            "--output=-",
            str(ENGINE / "refusals.py"),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    ids = set(re.findall(r'^msgid(?:_plural)? ((?:".*"\n)+)', catalogue, flags=re.M))
    texts = {"".join(re.findall(r'"(.*)"', block)) for block in ids}
    for refusal in REFUSALS.values():
        assert refusal.template in texts
        assert refusal.plural is None or refusal.plural in texts
    assert set(ORDINALS) <= texts


def test_every_table_the_engine_refuses_has_a_declared_code_and_every_declared_one_is_raised() -> None:
    """``RulesError`` as ``IllegalAction``: the site translates by the code, never by re-deriving
    the engine's checks."""
    assert _raised_codes("RulesError") == set(TABLE_REFUSALS)
    assert not re.search(r"raise RulesError\(", (ENGINE / "rules.py").read_text())


@pytest.mark.parametrize(
    ("options", "code", "params", "sentence"),
    [
        (
            {"players": 3, "teams": True},
            "teams",
            {},
            "teams play 2 against 2: the table needs exactly 4 players",
        ),
        (
            {"players": 6, "deck": 24},
            "six_each",
            {"players": 6, "cards": 36, "deck": 24},
            "6 players need 36 cards: the 24-card deck cannot deal six to each",
        ),
        ({"players": 7}, "players", {"players": 7}, "a table seats 2 to 6 players, not 7"),
    ],
)
def test_an_impossible_table_carries_its_code_and_params(
    options: dict[str, object], code: str, params: dict[str, object], sentence: str
) -> None:
    with pytest.raises(RulesError) as caught:
        Rules(**options)  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.params, str(caught.value)) == (code, params, sentence)
    assert caught.value.refusal is TABLE_REFUSALS[code]


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs GNU gettext")
def test_makemessages_extracts_every_table_refusal() -> None:
    RULES = str(ENGINE / "rules.py")
    catalogue = subprocess.run(
        ["xgettext", "--language=Python", "--keyword=gettext_noop", "--from-code=UTF-8", "--output=-", RULES],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    ids = set(re.findall(r'^msgid(?:_plural)? ((?:".*"\n)+)', catalogue, flags=re.M))
    texts = {"".join(re.findall(r'"(.*)"', block)).replace("\\'", "'") for block in ids}
    for refusal in TABLE_REFUSALS.values():
        assert refusal.template in texts
        assert refusal.plural is None or refusal.plural in texts


def test_every_position_the_engine_refuses_has_a_declared_code_and_every_declared_one_is_raised() -> None:
    """``PositionError`` as ``RulesError``: each refusal of a position's text has a code the site
    translates by; a position naming an impossible table keeps the table's code, so the two sets
    of codes never meet."""
    assert _raised_codes("PositionError") == set(POSITION_REFUSALS)
    assert not re.search(r"raise PositionError\(", (ENGINE / "position.py").read_text())
    assert set(POSITION_REFUSALS).isdisjoint(TABLE_REFUSALS)


@pytest.mark.parametrize(
    ("text", "code", "params", "sentence"),
    [
        ("podkidnoy trump=6D hands=6S/6S attacker=0", "two_places", {"card": "6S"}, "6S is in two places"),
        ("podkidnoy trump=6D hands=6S/7S attacker=2", "no_seat", {"seat": 2}, "there is no seat 2"),
        (
            "podkidnoy trump=6D hands=6S/7S attacker=0 taking=maybe",
            "not_yes_no",
            {"text": "maybe"},
            "'maybe' is not yes or no",
        ),
        (
            "podkidnoy trump=6D hands=6S/7S attacker=rules defender=1",
            "fresh_deal_token",
            {"rules": "rules", "token": "defender"},
            "attacker=rules opens the bout as the rules do: no defender=",
        ),
        (
            "podkidnoy trump=6D hands=6S/7S players=2 attacker=0",
            "unknown_token",
            {"token": "players"},
            "unknown token 'players'",
        ),
    ],
)
def test_a_refused_position_carries_its_code_and_params(
    text: str, code: str, params: dict[str, object], sentence: str
) -> None:
    with pytest.raises(PositionError) as caught:
        GameState.from_position(text)
    assert (caught.value.code, caught.value.params, str(caught.value)) == (code, params, sentence)
    assert caught.value.refusal is POSITION_REFUSALS[code]


def test_a_position_naming_an_impossible_table_is_refused_with_the_tables_code() -> None:
    with pytest.raises(PositionError) as caught:
        GameState.from_position("podkidnoy trump=6D hands=6S/7S teams=yes attacker=0")
    assert caught.value.code == "teams" and caught.value.refusal is TABLE_REFUSALS["teams"]
    assert str(caught.value) == "teams play 2 against 2: the table needs exactly 4 players"


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs GNU gettext")
def test_makemessages_extracts_every_position_refusal() -> None:
    catalogue = subprocess.run(
        [
            "xgettext",
            "--language=Python",
            "--keyword=gettext_noop",
            "--from-code=UTF-8",
            "--output=-",
            str(ENGINE / "position.py"),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    ids = set(re.findall(r'^msgid(?:_plural)? ((?:".*"\n)+)', catalogue, flags=re.M))
    texts = {"".join(re.findall(r'"(.*)"', block)).replace("\\'", "'") for block in ids}
    assert {refusal.template for refusal in POSITION_REFUSALS.values()} <= texts
