"""A tournament's times (issue #17, item 11): the page of a started or finished tournament shows
when it really started and ended, not the planned start nor what happens "before the start"; and
every time is shown and entered in the viewer's time zone (the ``tz`` cookie the browser's script
sets, ``durak_site.middleware``), UTC without one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from durak_site.middleware import zone_named
from tests.tournaments.support import open_with_bots, play_running_games, started_with_player
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

BEFORE_START = "Before the start, registration closes"


def client_in(zone: str | None, user: User | None = None) -> Client:
    client = Client()
    if zone is not None:
        client.cookies["tz"] = zone
    if user is not None:
        client.force_login(user)
    return client


def detail(client: Client, tournament: Tournament) -> str:
    return client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()


def test_a_finished_tournament_shows_its_real_start_and_end(organiser: User) -> None:
    planned = timezone.now() + timedelta(days=3)
    tournament, _player = started_with_player(organiser, 3, "fin", starts_at=planned)
    tournament = play_running_games(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    html = detail(client_in(None, organiser), tournament)
    assert BEFORE_START not in html
    assert "Started" in html and "Finished" in html
    assert tournament.started_at is not None
    assert f'datetime="{tournament.started_at.astimezone(UTC):%Y-%m-%dT%H:%M:%S}' in html
    assert f'datetime="{planned.astimezone(UTC):%Y-%m-%dT%H:%M:%S}' not in html
    cards = client_in(None).get(reverse("tournaments")).content.decode()
    assert "Starts " not in cards


def test_an_upcoming_tournament_explains_the_start(organiser: User) -> None:
    tournament = open_with_bots(organiser, 1)
    html = detail(client_in(None, organiser), tournament)
    assert BEFORE_START in html
    assert "Starts" in html and "Started" not in html


def test_times_are_shown_in_the_viewers_zone(organiser: User) -> None:
    starts = datetime(2031, 6, 1, 12, 0, tzinfo=UTC)
    tournament = open_with_bots(organiser, 1, starts_at=starts)
    assert ">1 Jun 2031, 12:00<" in detail(client_in(None), tournament)
    moscow = detail(client_in("Europe/Moscow"), tournament)
    assert ">1 Jun 2031, 15:00<" in moscow
    assert 'data-time-zone="Europe/Moscow"' in moscow
    assert "Times are in your time zone, Europe/Moscow." in moscow
    assert ">1 Jun 2031, 12:00<" in detail(client_in("Not/A_Zone"), tournament)  # UTC fallback
    listing = client_in("America/New_York").get(reverse("tournaments")).content.decode()
    assert "1 Jun 2031, 08:00" in listing


def test_the_form_reads_times_in_the_viewers_zone(organiser: User) -> None:
    from tests.tournaments.test_site_views import form_data

    client = client_in("Asia/Tokyo", organiser)
    page = client.get(reverse("tournaments:create")).content.decode()
    assert "In your time zone, Asia/Tokyo." in page
    response = client.post(reverse("tournaments:create"), form_data(starts_at="2031-06-01T21:00"))
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Spring open")
    assert tournament.starts_at == datetime(2031, 6, 1, 12, 0, tzinfo=UTC)
    edit = client.get(reverse("tournaments:edit", args=[tournament.pk])).content.decode()
    assert 'value="2031-06-01T21:00"' in edit


@pytest.mark.parametrize("name", ["", "UTC/../../etc/passwd", "/etc/localtime", "x" * 100, "Mars/Olympus"])
def test_a_cookie_that_names_no_zone_means_utc(name: str) -> None:
    assert zone_named(name) is None


def test_a_real_zone_is_found() -> None:
    zone = zone_named("Europe/Moscow")
    assert zone is not None and str(zone) == "Europe/Moscow"
