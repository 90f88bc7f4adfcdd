"""Who may run a tournament (issue 35 §3): its organiser, and whoever holds
``tournaments.run_any_tournament`` (the "Tournament directors" group, or a superuser). Staff
without the permission (the "Club staff" group only views) may not. Every role is tried against
every organiser action through the pages, and a refused action changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import club_staff_group_ensure
from tests.play.services_support import make_user
from tests.tournaments.support import open_with_bots, tournament_settings
from tournaments import services
from tournaments.models import Entry, ResultCorrection, Tournament

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "player", "organiser", "staff", "director", "superuser")
ALLOWED = {"organiser", "director", "superuser"}


def person(role: str, organiser: User) -> User | None:
    """A user of ``role`` (``None``: anonymous)."""
    if role == "anonymous":
        return None
    if role == "organiser":
        return organiser
    user = make_user(role)
    if role == "staff":  # staff in the view-only "Club staff" group: may look, may not run
        user.is_staff = True
        user.save()
        user.groups.add(club_staff_group_ensure())
    elif role == "director":
        user.is_staff = True
        user.save()
        user.groups.add(services.directors_group_ensure())
    elif role == "superuser":
        user.is_staff = user.is_superuser = True
        user.save()
    return user


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@dataclass
class Case:
    """An organiser action: the tournament it needs, the request, and whether it happened."""

    prepare: Callable[[User], Tournament]
    request: Callable[[Client, Tournament], int]
    happened: Callable[[Tournament], bool]
    draft: bool = False


def draft(organiser: User) -> Tournament:
    return services.tournament_create(organiser=organiser, settings=tournament_settings())


def registration(organiser: User) -> Tournament:
    return open_with_bots(organiser, 2)


def running(organiser: User) -> Tournament:
    tournament = open_with_bots(organiser, 2)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    return tournament


def action(name: str) -> Callable[[Client, Tournament], int]:
    def post(client: Client, tournament: Tournament) -> int:
        return client.post(reverse("tournaments:action", args=[tournament.pk, name])).status_code

    return post


def status_is(status: str) -> Callable[[Tournament], bool]:
    def check(tournament: Tournament) -> bool:
        tournament.refresh_from_db()
        return tournament.status == status

    return check


def remove(client: Client, tournament: Tournament) -> int:
    player = tournament.entries.order_by("pk").first()
    assert player is not None
    return client.post(reverse("tournaments:remove", args=[tournament.pk, player.player_id])).status_code


def correct(client: Client, tournament: Tournament) -> int:
    pairing = tournament.pairings.get()
    url = reverse("tournaments:correct", args=[tournament.pk, pairing.pk])
    return client.post(url, {"score": "1", "reason": "agreed"}).status_code


def see_draft(client: Client, tournament: Tournament) -> int:
    return client.get(reverse("tournaments:detail", args=[tournament.pk])).status_code


def edit_draft(client: Client, tournament: Tournament) -> int:
    return client.get(reverse("tournaments:edit", args=[tournament.pk])).status_code


CASES = {
    "open": Case(draft, action("open"), status_is(Tournament.Status.REGISTRATION), draft=True),
    "start": Case(registration, action("start"), status_is(Tournament.Status.RUNNING)),
    "cancel": Case(registration, action("cancel"), status_is(Tournament.Status.CANCELLED)),
    "finish": Case(running, action("finish"), status_is(Tournament.Status.FINISHED)),
    "remove": Case(registration, remove, lambda t: t.entries.filter(state=Entry.State.REMOVED).exists()),
    "correct": Case(
        running, correct, lambda t: ResultCorrection.objects.filter(pairing__tournament=t).exists()
    ),
    "see a draft": Case(draft, see_draft, lambda t: True, draft=True),
    "edit a draft": Case(draft, edit_draft, lambda t: True, draft=True),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("role", ROLES)
def test_every_role_against_every_organiser_action(role: str, name: str) -> None:
    case = CASES[name]
    organiser = make_user("organiser")
    tournament = case.prepare(organiser)
    status = case.request(client_for(person(role, organiser)), tournament)
    if role in ALLOWED:
        assert status in (200, 302)
        assert case.happened(tournament)
        return
    if role == "anonymous" and name != "see a draft":
        assert status == 302  # to the login page
    else:
        assert status == (404 if case.draft else 403)  # a draft is not even shown
    if name not in ("see a draft", "edit a draft"):
        assert not case.happened(tournament)


def test_staff_without_the_permission_see_no_one_else_s_draft_in_the_list() -> None:
    organiser = make_user("organiser")
    hidden = draft(organiser)
    staff = person("staff", organiser)
    director = person("director", organiser)
    page = client_for(staff).get(reverse("tournaments")).content.decode()
    assert reverse("tournaments:detail", args=[hidden.pk]) not in page
    page = client_for(director).get(reverse("tournaments")).content.decode()
    assert reverse("tournaments:detail", args=[hidden.pk]) in page


def test_the_directors_group_holds_the_permission_and_club_staff_does_not() -> None:
    directors = services.directors_group_ensure()
    assert directors.permissions.filter(codename="run_any_tournament").exists()
    assert not club_staff_group_ensure().permissions.filter(codename="run_any_tournament").exists()
    assert services.directors_group_ensure().pk == directors.pk  # made once
