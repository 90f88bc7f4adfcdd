"""Pages a socket keeps drawing, in Chromium through the real site (daphne, websockets, htmx).

Every form of a fragment a socket pushed posts successfully: a pushed fragment is rendered with no
request, so it holds no CSRF field, and "Turn free text on" in the table chat once answered 403 and
threw the player out of the game (``static/js/csrf.js``). The forms are pressed as a player
presses them, from the pushed markup: the chat panel's plain form, the table seats' htmx forms,
the match's abort or resignation.

And a page left open on a finished game sends no fair-deal value (``static/js/fair_seed.js``):
neither on a finished casual game, nor on a finished tournament's game, nor on a tournament
game whose next game was dealt, across a reload, in English at 1280x800 and Russian at 390x844.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from .chromium import DESKTOP, PHONE, signed_in, visit, wait_for_path
from .site import served_site

playwright = pytest.importorskip("playwright.sync_api")
if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Request, ViewportSize

pytestmark = [pytest.mark.browser, pytest.mark.slow]


SETUP = """
import json
from accounts.models import User
from games.engine import Rules
from play import selectors, services
from games.models import Match
from tests.play.services_support import play_out
from tests.tournaments.support import finish_one, play_running_games, started_with_player

def user(name):
    return User.objects.create_user(username=name, email=name + "@example.com", password=None,
                                    display_name=name.capitalize())

ids = {}
alice, bob = user("alice"), user("bob")  # both keep free text off
table = services.table_create(creator=alice, rules=Rules(), turn_seconds=600)
services.table_join(table_id=table.pk, user=bob)
ids["chat"] = table.matches.get().pk
carol, dave, erin = user("carol"), user("dave"), user("erin")
for name, creator, other in (("en", carol, erin), ("ru", dave, erin)):
    table = services.table_create(creator=creator, rules=Rules(players=4), turn_seconds=600)
    services.table_join(table_id=table.pk, user=other)
    ids[f"seats-{name}"] = table.pk
frank = user("frank")
for name in ("en", "ru"):  # a casual game against a bot, played out; its table stays open
    table = services.table_create(creator=frank, rules=Rules(players=2, deck=24), turn_seconds=600)
    services.seats_fill_with_bots(table_id=table.pk, user=frank, level="easy")
    ids[f"casual-{name}"] = play_out(selectors.table_current_match(table_id=table.pk)).pk
cup, gina = started_with_player(frank, 1, "gina")  # one game, then the cup is over
play_running_games(cup)
ids["cup"] = Match.objects.get(players__user=gina).pk
series, hana = started_with_player(frank, 1, "hana", best_of=3)  # a series: its second game is dealt
first = Match.objects.get(players__user=hana)
finish_one(first)
ids["series"] = first.pk
for person in (alice, bob, carol, dave, erin, gina, hana):
    ids[person.username] = signed_in_session(person)
frank_key = signed_in_session(frank)
ids["frank"] = frank_key
print(json.dumps(ids))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    with served_site(tmp_path_factory.mktemp("pushed"), SETUP) as served:
        yield served.url, json.loads(served.setup_output.strip().splitlines()[-1])


def page_of(
    browser: Browser, base: str, ids: dict[str, Any], name: str, language: str, size: ViewportSize
) -> Page:
    context = signed_in(browser, base, {"session": ids[name]}, language, size)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def errors_of(page: Page) -> list[str]:
    return list(page.errors)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("name", "language", "size", "words"),
    [("alice", "en", DESKTOP, "Say something"), ("bob", "ru", PHONE, "Напишите")],
)
def test_turning_free_text_on_from_the_pushed_chat_keeps_the_player_at_the_table(
    site: tuple[str, dict[str, Any]],
    browser: Browser,
    name: str,
    language: str,
    size: ViewportSize,
    words: str,
) -> None:
    base, ids = site
    page = page_of(browser, base, ids, name, language, size)
    match_url = f"{base}/play/match/{ids['chat']}/"
    visit(page, match_url)
    hint = page.locator("#chat-panel form.chat__hint button[type=submit]")
    hint.wait_for()  # the panel came over the chat socket: drawn with no request, no CSRF field
    assert page.locator("#chat-panel form.chat__hint input[name=csrfmiddlewaretoken]").count() == 0
    with page.expect_navigation() as arrived:
        hint.click()
    response = arrived.value
    assert response is not None and response.ok and response.url == match_url, response
    page.wait_for_selector("#chat-say input[name=text]")  # the panel now offers free text
    assert words in (page.get_attribute("#chat-say input[name=text]", "placeholder") or "")
    assert not errors_of(page), errors_of(page)
    page.context.close()


#: Which fragments the sockets swapped in since the page loaded (by id): a table socket sends the
#: seats as soon as it opens, so the forms pressed below are the ones a push drew.
PUSHES = """window.__pushed = [];
document.addEventListener("htmx:oobAfterSwap", event => window.__pushed.push(event.detail.target.id));"""


def wait_pushed(page: Page, fragment: str) -> None:
    page.wait_for_function("id => window.__pushed.includes(id)", arg=fragment)


@pytest.mark.parametrize(
    ("creator", "language", "size"), [("carol", "en", DESKTOP), ("dave", "ru", PHONE)], ids=["en", "ru"]
)
def test_the_forms_of_pushed_seats_and_match_controls_post(
    site: tuple[str, dict[str, Any]], browser: Browser, creator: str, language: str, size: ViewportSize
) -> None:
    """Erin leaves her seat and sits down again, the creator invites bots, each with a form of the
    seats the table's socket drew; then the creator ends the game with the form the match's socket
    drew."""
    base, ids = site
    table = f"{base}/play/table/{ids[f'seats-{language}']}/"
    host, erin = (page_of(browser, base, ids, who, language, size) for who in (creator, "erin"))
    for page in (host, erin):
        page.context.add_init_script(PUSHES)
        visit(page, table)
        wait_pushed(page, "table-seats")
    with erin.expect_response(lambda r: r.url.endswith("/leave/")) as left:
        erin.click("#table-seats form[action$='/leave/'] button[type=submit]")
    assert left.value.ok, left.value.status
    erin.wait_for_url(lambda url: "/play/table/" not in url)  # off to the lobby; she comes back
    visit(erin, table)
    wait_pushed(erin, "table-seats")
    with erin.expect_response(lambda r: r.url.endswith("/sit/")) as sat:
        erin.locator("#table-seats form[action$='/sit/'] button[type=submit]").first.click()
    assert sat.value.ok, sat.value.status
    # Erin left and sat again: the host's seats were drawn by the socket on opening and twice since.
    host.wait_for_function("() => window.__pushed.filter(id => id === 'table-seats').length >= 3")
    with host.expect_response(lambda r: r.url.endswith("/bots/")) as filled:
        host.click("#table-seats form.bot-fill button[type=submit]")
    assert filled.value.ok, filled.value.status
    wait_for_path(host, re.compile(r"/play/match/\d+/$"))
    # Before the first move the page offers to abort the game, after it to resign: either is the
    # control a push of the match drew.
    control = "#match-actions form[action$='/resign/'], #match-actions form[action$='/abort/']"
    host.wait_for_selector(f"#match[data-synced='1'] :is({control})")
    host.on("dialog", lambda dialog: dialog.accept())
    with host.expect_response(lambda r: r.url.endswith(("/resign/", "/abort/"))) as ended:
        host.locator(control).first.locator("button[type=submit]").click()
    assert ended.value.ok, ended.value.status
    for page in (host, erin):
        assert not errors_of(page), errors_of(page)
        page.context.close()


@pytest.mark.parametrize("game", ["casual", "cup", "series"])
@pytest.mark.parametrize(("language", "size"), [("en", DESKTOP), ("ru", PHONE)], ids=["en", "ru"])
def test_a_page_left_open_on_a_finished_game_sends_no_value(
    site: tuple[str, dict[str, Any]], browser: Browser, game: str, language: str, size: ViewportSize
) -> None:
    base, ids = site
    player = {"casual": "frank", "cup": "gina", "series": "hana"}[game]
    match = ids[f"casual-{language}"] if game == "casual" else ids[game]
    page = page_of(browser, base, ids, player, language, size)
    sent: list[Request] = []
    page.on("request", lambda request: sent.append(request) if request.url.endswith("/seed/") else None)
    for _ in range(2):  # left open, then opened again
        visit(page, f"{base}/play/match/{match}/")
        page.wait_for_selector("#match[data-synced='1']")  # the socket's full view is drawn
        page.wait_for_timeout(1500)  # what a page would send on its own, it sends at once
    assert sent == [], [request.url for request in sent]
    assert not errors_of(page), errors_of(page)
    page.context.close()
