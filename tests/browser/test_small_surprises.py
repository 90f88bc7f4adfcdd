"""The small surprises a newcomer met (issue #37, item 8), in Chromium at 1280x800 and 390x844, in
English and Russian, as Ann: the custom seek's turn timers in the page's language; on Boris's
page the nav does not mark "Profile", and Challenge / Follow / Block are one row of like buttons,
Block changing in place; the chat input shows its whole placeholder; her lost game's flawless
review says the deal decided it (his won one does not); her finished Swiss has no empty
"Organiser" panel, and the tournament list's Russian headings agree with their plural.
Screenshots go to ``build/screenshots/surprise-*.png``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from .chromium import DESKTOP, PHONE, ROOT, signed_in, visit
from .site import served_site

playwright = pytest.importorskip("playwright.sync_api")
if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTEFACTS = ROOT / "build" / "screenshots"

#: Ann (free text on) at a table with Boris; a finished duel of theirs, reviewed for both seats
#: with every decision good; a finished Swiss and one open for registration, both hers.
SETUP = """
import json, random
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from games.engine import Rules
from play import services
from history.review.models import Review, ReviewDecision
from tests.ratings.builders import finished_match
from tournaments.models import Tournament

ann = User.objects.create_user(username="ann", email="ann@example.com", password=None, display_name="Ann",
                               chat_free_text=True)
boris = User.objects.create_user(username="boris", email="boris@example.com", password=None,
                                 display_name="Boris")
table = services.table_create(creator=ann, rules=Rules(), turn_seconds=600)
services.table_join(table_id=table.pk, user=boris)
match = finished_match([ann, boris], Rules.for_variant("podkidnoy", players=2), seed="surprise",
                       rng=random.Random(5), rated=False)
for player in match.players.all():
    moves = list(match.moves.filter(seat=player.seat))
    review = Review.objects.create(match=match, seat=player.seat, status=Review.Status.DONE,
                                   total=len(moves), done=len(moves), finished_at=timezone.now())
    ReviewDecision.objects.bulk_create(
        ReviewDecision(review=review, seq=move.seq, played=move.action, best=move.action, p_played=0.5,
                       p_best=0.5, samples_played=10, samples_best=10, label="good")
        for move in moves)
now = timezone.now()
swiss = {"organiser": ann, "format": Tournament.Format.SWISS, "rounds": 3,
         "rules": Rules.for_variant("podkidnoy", players=2).to_dict(), "starts_at": now + timedelta(days=1)}
done = Tournament.objects.create(name="Done Swiss", status=Tournament.Status.FINISHED, finished_at=now,
                                 **swiss)
open_ = Tournament.objects.create(name="Open Swiss", status=Tournament.Status.REGISTRATION, **swiss)
session_key = signed_in_session(ann)
fool = match.players.get(fool=True)
print(json.dumps({"session": session_key, "ann": ann.pk, "boris": boris.pk,
                  "table": table.matches.get().pk, "finished": match.pk, "fool": fool.seat,
                  "fool_is_ann": fool.user_id == ann.pk, "done": done.pk, "open": open_.pk}))
"""

SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
LANGUAGES = pytest.mark.parametrize("language", ["en", "ru"])


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    with served_site(tmp_path_factory.mktemp("surprises"), SETUP) as served:
        yield served.url, json.loads(served.setup_output.strip().splitlines()[-1])


def shoot(page: Page, name: str, language: str, size: ViewportSize) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"surprise-{name}-{language}-{size['width']}x{size['height']}.png"))


@SIZES
@LANGUAGES
def test_the_custom_seek_offers_its_turn_timers_in_the_page_language(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: ViewportSize
) -> None:
    base, ids = site
    page = signed_in(browser, base, ids, language, size).new_page()
    visit(page, f"{base}/pair/new/")
    options = page.locator("select[name=turn_seconds] option").all_inner_texts()
    word = {"en": "s a move", "ru": "с на ход"}[language]
    assert options and all(text.endswith(word) for text in options), options
    shoot(page, "seek", language, size)
    page.context.close()


#: Each box of the profile's action row: its text, top, height, width and font size.
ROW = """() => [...document.querySelectorAll('.profile-actions a.button, .profile-actions button')]
    .map(el => { const box = el.getBoundingClientRect();
                 return {text: el.textContent.trim(), top: Math.round(box.top),
                         height: Math.round(box.height), width: box.width,
                         font: getComputedStyle(el).fontSize}; })"""


@SIZES
@LANGUAGES
def test_another_players_page_has_one_row_of_like_buttons_and_block_changes_in_place(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: ViewportSize
) -> None:
    base, ids = site
    page = signed_in(browser, base, ids, language, size).new_page()
    visit(page, f"{base}/players/{ids['ann']}/")
    assert page.locator(".main-nav a[aria-current='page']").count() == 1  # her own page: Profile
    visit(page, f"{base}/players/{ids['boris']}/")
    assert page.locator(".main-nav a[aria-current='page']").count() == 0
    row = page.evaluate(ROW)
    assert len(row) == 3, row  # Challenge, Follow, Block
    assert len({box["top"] for box in row}) == 1, row
    assert len({box["height"] for box in row}) == 1, row
    assert len({box["font"] for box in row}) == 1, row
    shoot(page, "profile", language, size)

    page.evaluate("window.stayed = true")  # gone if the page is loaded again
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("button[data-tie='block']")
    page.wait_for_selector("button[data-tie='unblock']")
    assert page.evaluate("window.stayed === true")
    assert page.locator("button[data-tie='follow']").count() == 0
    shoot(page, "profile-blocked", language, size)
    page.click("button[data-tie='unblock']")
    page.wait_for_selector("button[data-tie='block']")
    assert page.evaluate("window.stayed === true")
    assert len(page.evaluate(ROW)) == 3
    page.context.close()


#: Whether the chat input's placeholder fits inside its box (measured in the input's own font).
PLACEHOLDER_FITS = """() => { const input = document.querySelector('#chat-say .chat__input');
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d');
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return {text: input.placeholder, need: context.measureText(input.placeholder).width, room}; }"""


@SIZES
@LANGUAGES
def test_the_chat_input_shows_its_whole_placeholder(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: ViewportSize
) -> None:
    base, ids = site
    page = signed_in(browser, base, ids, language, size).new_page()
    visit(page, f"{base}/play/match/{ids['table']}/")
    page.wait_for_selector("#chat-say .chat__input")
    fit = page.evaluate(PLACEHOLDER_FITS)
    assert fit["need"] <= fit["room"], fit
    send = page.locator("#chat-say button").bounding_box()
    assert send is not None and send["x"] + send["width"] <= size["width"]
    page.locator("#chat-box").scroll_into_view_if_needed()
    shoot(page, "chat", language, size)
    page.context.close()


@SIZES
@LANGUAGES
def test_a_lost_game_reviewed_without_a_mistake_says_the_deal_decided_it(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: ViewportSize
) -> None:
    base, ids = site
    page = signed_in(browser, base, ids, language, size).new_page()
    visit(page, f"{base}/matches/{ids['finished']}/")
    for seat in (0, 1):
        review = page.locator(f"#reviews .review[data-seat='{seat}']")
        assert review.locator(".review__accuracy").get_attribute("data-accuracy") == "100"
        said = review.locator("[data-dealt-loss]")
        assert said.count() == (1 if seat == ids["fool"] else 0), seat
    words = {"en": "the cards dealt decided", "ru": "партию решила раздача"}[language]
    assert words in page.locator(f"#reviews .review[data-seat='{ids['fool']}']").inner_text()
    page.locator("#reviews").scroll_into_view_if_needed()
    shoot(page, "review", language, size)
    page.context.close()


@SIZES
@LANGUAGES
def test_a_finished_swiss_shows_its_organiser_no_empty_panel(
    site: tuple[str, dict[str, Any]], browser: Browser, language: str, size: ViewportSize
) -> None:
    base, ids = site
    page = signed_in(browser, base, ids, language, size).new_page()
    visit(page, f"{base}/tournaments/{ids['open']}/")
    assert page.locator(".organiser-controls button, .organiser-controls a").count() > 0
    visit(page, f"{base}/tournaments/{ids['done']}/")
    assert page.locator(".organiser-controls").count() == 0
    shoot(page, "swiss-finished", language, size)
    # The list's headings agree with what they head ("Идут", "Завершённые": tournaments, plural).
    visit(page, f"{base}/tournaments/")
    headings = [page.locator(f"#{key}-title").inner_text() for key in ("running", "finished")]
    assert headings == {"en": ["Running", "Finished"], "ru": ["Идут", "Завершённые"]}[language]
    assert page.locator("main a", has_text="Done Swiss").count() == 1
    page.context.close()
