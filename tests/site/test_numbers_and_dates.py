"""Numbers and dates in both languages (issue #17, item 12).

Every number that is not for people (SVG geometry, data attributes, form values, steps in links)
is rendered unlocalised, so Russian's decimal comma never reaches the rating chart ("14,0" made its
grid collapse and its points vanish); numbers for people are localised; dates read as each
language's readers expect ("1 декабря 2026 г.", "01.12.2026"; "1 Dec 2026"). The pages are
rendered in Russian with thousands separators switched on too, so an integer that is not for
people would show up as well ("1 234").
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import formats, translation

from accounts.models import User
from games.engine import Rules
from games.models import Match
from ratings.services import match_rate
from tests.play.services_support import make_user
from tests.ratings.builders import finished_match, make_users
from tests.tournaments.support import play_running_games, started_with_player
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.django_db

#: Attributes that carry numbers for machines: SVG geometry, form values and data attributes.
NUMERIC_ATTRIBUTES = re.compile(
    r'\s(x|y|x1|x2|y1|y2|cx|cy|r|width|height|min|max|value|start|data-[a-z-]+)="([^"]*)"'
)
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
LOOKS_NUMERIC = re.compile(r"^[-\d\s.,\u00a0]+$")


def machine_numbers(html: str) -> list[tuple[str, str]]:
    """Every numeric-looking attribute value of ``html`` (and the parts of viewBox and points)."""
    found = [(name, value) for name, value in NUMERIC_ATTRIBUTES.findall(html) if LOOKS_NUMERIC.match(value)]
    for box in re.findall(r'viewBox="([^"]*)"', html):
        found += [("viewBox", part) for part in box.split()]
    for points in re.findall(r'points="([^"]*)"', html):
        found += [("points", part) for pair in points.split() for part in pair.split(",")]
    for step in re.findall(r'\?step=([^"&<\s]*)', html):
        found.append(("step", step))
    return found


def assert_unlocalised(html: str) -> int:
    numbers = machine_numbers(html)
    bad = [(name, value) for name, value in numbers if not NUMBER.match(value)]
    assert bad == []
    for _name, value in numbers:
        float(value)
    return len(numbers)


@pytest.fixture
def rated_player() -> tuple[User, list[Match]]:
    """A player with a rating history of a few games (fractional chart coordinates)."""
    rng = random.Random(12)
    users = make_users(2, prefix="n")
    matches = []
    for n in range(5):
        match = finished_match(users, Rules.for_variant("podkidnoy", players=2), seed=f"n-{n}", rng=rng)
        match_rate(match.pk)
        matches.append(match)
    return users[0], matches


def russian_client(user: User | None = None) -> Client:
    client = Client(headers={"accept-language": "ru"})
    client.cookies["django_language"] = "ru"
    if user is not None:
        client.force_login(user)
    return client


@override_settings(USE_THOUSAND_SEPARATOR=True)
def test_the_rating_chart_in_russian_has_plain_numbers(rated_player: tuple[User, list[Match]]) -> None:
    user, _matches = rated_player
    html = russian_client().get(reverse("club:profile", args=[user.pk])).content.decode()
    assert '<html lang="ru"' in html
    svg = html[html.index("<svg viewBox") : html.index("</svg>")]
    assert re.search(r'cy="\d+\.\d"', svg), "the chart has fractional coordinates to get wrong"
    assert assert_unlocalised(svg) > 10
    for y in re.findall(r'<line class="rating-chart__grid"[^>]*y1="([^"]+)"', svg):
        assert 0 <= float(y) <= 180
    assert len(re.findall(r"<circle ", svg)) == 5


@override_settings(USE_THOUSAND_SEPARATOR=True)
def test_pages_with_numbers_render_machine_numbers_unlocalised(
    rated_player: tuple[User, list[Match]],
) -> None:
    user, matches = rated_player
    organiser = make_user("organiser")
    tournament, _ = started_with_player(organiser, 3, "rr", format=Tournament.Format.ROUND_ROBIN)
    tournament = play_running_games(tournament)
    client = russian_client(user)
    pages = [
        reverse("club:profile", args=[user.pk]),
        reverse("match_record", args=[matches[-1].pk]),
        reverse("match_record", args=[matches[-1].pk]) + "?step=2",
        reverse("history"),
        reverse("leaderboard") + "?pool=podkidnoy:2",
        reverse("tournaments"),
        reverse("tournaments:detail", args=[tournament.pk]),
        reverse("play"),
    ]
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        assert assert_unlocalised(response.content.decode()) >= 0, path


def test_numbers_for_people_are_localised() -> None:
    organiser = make_user("organiser")
    tournament, _ = started_with_player(organiser, 4, "rr", format=Tournament.Format.SWISS, rounds=3)
    tournament = play_running_games(tournament)
    # A drawn game gives half points, so the page has a fraction to show whatever the games did.
    drawn = Pairing.objects.filter(tournament=tournament, status=Pairing.Status.DONE).first()
    assert drawn is not None
    Pairing.objects.filter(pk=drawn.pk).update(score=0.5, winner=None, fool=None)
    html = russian_client().get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    start = html.index('class="standings"')
    standings = html[start : html.index("</table>", start)]
    cells = re.findall(r'<td class="num">([^<]*)</td>', standings)
    assert cells and any("," in cell for cell in cells), cells  # tiebreaks like 1,25 in Russian
    assert not any("." in cell for cell in cells), cells


@pytest.mark.parametrize(
    ("language", "date", "short", "moment"),
    [
        ("ru", "1 декабря 2026 г.", "01.12.2026", "1 декабря 2026 г., 14:05"),
        ("en", "1 Dec 2026", "1 Dec 2026", "1 Dec 2026, 14:05"),
    ],
)
def test_dates_read_as_each_language_writes_them(language: str, date: str, short: str, moment: str) -> None:
    when = datetime(2026, 12, 1, 14, 5, tzinfo=UTC)
    with translation.override(language):
        assert formats.date_format(when, "DATE_FORMAT") == date
        assert formats.date_format(when, "SHORT_DATE_FORMAT") == short
        assert formats.date_format(when, "DATETIME_FORMAT") == moment


def test_a_member_since_date_in_russian(rated_player: tuple[User, list[Match]]) -> None:
    user, _ = rated_player
    User.objects.filter(pk=user.pk).update(date_joined=datetime(2026, 12, 1, 12, tzinfo=UTC))
    html = russian_client().get(reverse("club:profile", args=[user.pk])).content.decode()
    assert "1 декабря 2026 г." in html
    assert "Дек" not in html
