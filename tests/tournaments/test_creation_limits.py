"""How many tournaments one user may set up: at most ``TOURNAMENTS_OPEN_PER_USER`` not yet over
at once (drafts included) and ``TOURNAMENTS_CREATE_RATE`` per window (issue 35 §4: one user set
up 25 in a row, each openable to the public list)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from tests.tournaments.support import tournament_settings
from tests.tournaments.test_site_views import form_data
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@override_settings(TOURNAMENTS_OPEN_PER_USER=2, TOURNAMENTS_CREATE_RATE=(100, 86400))
def test_a_user_with_as_many_tournaments_not_over_as_allowed_is_refused_another_until_one_ends(
    organiser: User, make_player: Callable[[str], User]
) -> None:
    draft = services.tournament_create(organiser=organiser, settings=tournament_settings())
    opened = services.tournament_create(organiser=organiser, settings=tournament_settings())
    services.registration_open(tournament_id=opened.pk, user=organiser)
    with pytest.raises(services.TournamentError, match="2 tournaments that are not over"):
        services.tournament_create(organiser=organiser, settings=tournament_settings())
    assert Tournament.objects.filter(organiser=organiser).count() == 2  # nothing was made
    services.tournament_create(organiser=make_player("other"), settings=tournament_settings())  # own limit
    services.tournament_cancel(tournament_id=draft.pk, user=organiser)
    services.tournament_create(organiser=organiser, settings=tournament_settings())


@override_settings(TOURNAMENTS_OPEN_PER_USER=100, TOURNAMENTS_CREATE_RATE=(2, 86400))
def test_a_user_who_set_up_as_many_tournaments_as_the_window_allows_waits_for_it_even_after_cancelling(
    organiser: User,
) -> None:
    made = [services.tournament_create(organiser=organiser, settings=tournament_settings()) for _ in range(2)]
    for tournament in made:
        services.tournament_cancel(tournament_id=tournament.pk, user=organiser)
    with pytest.raises(services.TournamentError, match="2 tournaments in the last 24 hours"):
        services.tournament_create(organiser=organiser, settings=tournament_settings())
    Tournament.objects.filter(pk=made[0].pk).update(created=timezone.now() - timedelta(days=1, minutes=1))
    services.tournament_create(organiser=organiser, settings=tournament_settings())


@override_settings(TOURNAMENTS_OPEN_PER_USER=1, TOURNAMENTS_CREATE_RATE=(100, 86400))
def test_the_form_says_why_a_tournament_was_refused_in_english_and_russian(organiser: User) -> None:
    services.tournament_create(organiser=organiser, settings=tournament_settings())
    for language, words in (
        ("en", "You already have 1 tournament that is not over"),
        ("ru", "У вас уже есть 1 незавершённый турнир"),
    ):
        client = Client(headers={"accept-language": language})
        client.force_login(organiser)
        response = client.post(reverse("tournaments:create"), form_data())
        assert response.status_code == 200 and words in response.content.decode()
    assert Tournament.objects.filter(organiser=organiser).count() == 1
