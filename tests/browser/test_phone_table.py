"""A phone's table with a big hand, in Chromium at 390x844 (and 1280x800; the header at 360 px), in
English and Russian (issue #37, item 2).

With 16 to 21 cards the hand wraps into two rows; the buttons the player must press this turn
(Take as the defender, Pass as the attacker whose card was beaten) and Resign must still be on the
first screen, at every one of those hand sizes, for 2 to 6 players. The header must show every link
of the main navigation whole ("Правила" was cut to "Пр…") at 360 and 390 px, on the table and on
the home page. Screenshots go to ``build/screenshots/phone-*.png``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from .chromium import DESKTOP, PHONE, ROOT, signed_in, visit
from .site import served_site

playwright = pytest.importorskip("playwright.sync_api")
if TYPE_CHECKING:
    from playwright.sync_api import Browser, FloatRect, Page, ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTEFACTS = ROOT / "build" / "screenshots"
HAND_SIZES = tuple(range(16, 22))

#: For n players and k cards in Ann's hand: she defends against the 6S (Take), or she attacked
#: with the 6S and it was beaten (Pass). Every other seat holds 4 high cards.
SETUP = """
import json
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from games.engine import GameState, Rules
from play import selectors, services
from games.models import Match, MatchPlayer, Table

ann = User.objects.create_user(username="ann", email="ann@example.com", password=None, display_name="Ann")
DECK = [r + s for r in "2 3 4 5 6 7 8 9 10 J Q K A".split() for s in "SCDH"]

def staged(players, cards, role):
    table = services.table_create(creator=ann, rules=Rules(players=players, deck=52), turn_seconds=600)
    services.seats_fill_with_bots(table_id=table.pk, user=ann, level="easy")
    match = selectors.table_current_match(table_id=table.pk)
    seat = match.players.get(user=ann).seat
    # The others hold the high cards (nothing to throw in: the table stays as staged while the bots
    # pass), Ann the low ones, the stock the middle.
    rest = [c for c in DECK if c not in ("6S", "7S")]
    high = rest[len(rest) - 4 * (players - 1):]
    hands = [high[4 * (i - (i > seat)):4 * (i - (i > seat) + 1)] for i in range(players)]
    hands[seat] = rest[:cards]
    stock = rest[cards:len(rest) - len(high)]
    words = ["podkidnoy", "deck=52", "trump=" + stock[-1], "stock=" + ",".join(stock),
             "hands=" + "/".join(",".join(hand) for hand in hands)]
    if role == "take":
        words += ["table=6S", f"attacker={(seat - 1) % players}"]
    else:
        words += ["table=7S>6S", f"attacker={seat}"]
    state = GameState.from_position(" ".join(words))
    Match.objects.filter(pk=match.pk).update(snapshot=state.to_json(), version=match.version + 1)
    # The bots pass at once, which leaves Ann the throw-in window: an hour (past the form's range on
    # purpose), so her Pass stays to be measured.
    Table.objects.filter(pk=table.pk).update(throw_in_seconds=3600)
    return match.pk

ids = {f"{role}-{n}-{k}": staged(n, k, role)
       for role in ("take", "pass") for n in range(2, 7) for k in range(16, 22)}
# Ann's time ran out three times: a bot plays her seat, and the table says so in a long badge.
# Bea, a person with no page open, defends against Ann's 6S with a day on her clock: nothing moves.
bea = User.objects.create_user(username="bea", email="bea@example.com", password=None, display_name="Bea")
table = services.table_create(creator=ann, rules=Rules(players=2, deck=52), turn_seconds=600)
services.table_join(table_id=table.pk, user=bea)
match = selectors.table_current_match(table_id=table.pk)
seat = match.players.get(user=ann).seat
hands = [DECK[8:14], DECK[20:26]] if seat == 0 else [DECK[20:26], DECK[8:14]]
hands[seat].remove(DECK[8])
state = GameState.from_position(" ".join([
    "podkidnoy", "deck=52", "trump=AH", "stock=" + ",".join(DECK[30:52]),
    "hands=" + "/".join(",".join(hand) for hand in hands), "table=" + DECK[8], f"attacker={seat}",
]))
Match.objects.filter(pk=match.pk).update(
    snapshot=state.to_json(), version=match.version + 1, deadline_at=timezone.now() + timedelta(days=1))
MatchPlayer.objects.filter(match_id=match.pk, user=ann).update(autopilot=True)
ids["autopilot"] = match.pk
ids["session"] = signed_in_session(ann)
print(json.dumps(ids))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    with served_site(tmp_path_factory.mktemp("phone"), SETUP) as served:
        yield served.url, json.loads(served.setup_output.strip().splitlines()[-1])


def open_match(page: Page, base: str, match_id: int) -> None:
    visit(page, f"{base}/play/match/{match_id}/")
    page.wait_for_selector("#match[data-synced='1']")  # the socket's full view is drawn


def on_first_screen(page: Page, selector: str, size: ViewportSize) -> FloatRect:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (selector, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (selector, box)
    return box


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("role", ["take", "pass"])
def test_the_buttons_of_the_turn_stay_on_the_first_screen_with_a_big_hand(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, role: str, size: ViewportSize
) -> None:
    base, ids = site
    page = signed_in(browser, base, ids, language, size).new_page()
    key = "t" if role == "take" else "p"
    for players in range(2, 7):
        for cards in HAND_SIZES:
            open_match(page, base, ids[f"{role}-{players}-{cards}"])
            assert page.locator("#match-hand .hand__card").count() == cards
            assert page.evaluate("window.scrollY") == 0
            where = (players, cards)
            button = on_first_screen(page, f"#match-actions .table-action[data-key='{key}']", size)
            resign = on_first_screen(page, "#match-actions form[action$='/resign/'] button", size)
            # nothing covers them: a tap in the middle of each lands on it
            for box, selector in ((button, ".table-action"), (resign, "form[action$='/resign/'] button")):
                middle = [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]
                hit = page.evaluate(
                    "([x, y, s]) => !!document.elementFromPoint(x, y)?.closest(s)", [*middle, selector]
                )
                assert hit, (where, selector)
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], where
            if cards == 21 and players in (2, 6):
                ARTEFACTS.mkdir(parents=True, exist_ok=True)
                name = f"{role}-{players}p-{cards}-{language}-{size['width']}x{size['height']}"
                page.screenshot(path=str(ARTEFACTS / f"phone-table-{name}.png"))
    page.context.close()


#: Each link of the main navigation and of the account's: whether its text is cut (an ellipsis or
#: a box narrower than its text) or lies outside the screen.
NAV_CUT = """width => [...document.querySelectorAll(".site-header a, .site-header button")]
    .filter(el => el.getClientRects().length)
    .map(el => { const box = el.getBoundingClientRect();
                 return {text: el.textContent.trim(), cut: el.scrollWidth > el.clientWidth + 1,
                         outside: box.left < 0 || box.right > width}; })
    .filter(link => link.cut || link.outside)"""


@pytest.mark.parametrize("where", ["table", "home"])
@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_header_shows_every_link_whole_on_a_phone(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, width: int, where: str
) -> None:
    base, ids = site
    size: ViewportSize = {"width": width, "height": 800}
    page = signed_in(browser, base, ids, language, size).new_page()
    if where == "table":  # the table's header is packed tighter (play.css)
        open_match(page, base, ids["take-4-21"])
    else:
        visit(page, f"{base}/")
    assert page.evaluate(NAV_CUT, width) == []
    rules = page.locator(".main-nav a[href$='/rules/']")
    assert rules.inner_text() == {"en": "Rules", "ru": "Правила"}[language]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"phone-header-{where}-{width}-{language}.png"))
    page.context.close()


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_autopilot_badge_wraps_on_a_phone(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, width: int
) -> None:
    """ "A bot plays your seat: your time ran out 3 times in a row" is the longest badge of the
    table: on a phone it wraps instead of widening the page."""
    base, ids = site
    size: ViewportSize = {"width": width, "height": 800}
    page = signed_in(browser, base, ids, language, size).new_page()
    open_match(page, base, ids["autopilot"])
    # Read in one step: the socket's first frame may swap the fragment between two calls.
    box = page.evaluate(
        """() => { const badge = document.querySelector("#match .seat-badge--note");
                   const box = badge.getBoundingClientRect(); return [box.left, box.right]; }"""
    )
    assert 0 <= box[0] < box[1] <= width, box
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"phone-autopilot-{width}-{language}.png"))
    page.context.close()
