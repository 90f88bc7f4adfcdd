"""The staff's queue of suspicious pairs (issue 35 §2, "boosting is flagged for staff"): two
accounts of one person, one resigning at once game after game, show up there; an ordinary pair
does not; only those holding ``ratings.view_suspicious_pairs`` see the page."""

from __future__ import annotations

import random

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from accounts.models import User
from accounts.services import club_staff_group_ensure
from games.engine import Rules
from play import selectors as live_selectors
from play import services
from ratings import selectors
from ratings.tasks import rate_match
from tests.play.services_support import make_user

from .builders import finished_match, make_users

pytestmark = pytest.mark.django_db

TWO = Rules.for_variant("podkidnoy", players=2)


def boost(main: User, second: User, times: int) -> None:
    """``second`` resigns ``times`` rated games against ``main`` at once."""
    for _ in range(times):
        table = services.table_create(creator=main, rules=TWO, rated=True)
        services.table_join(table_id=table.pk, user=second)
        match = live_selectors.table_current_match(table_id=table.pk)
        assert match is not None
        services.match_resign(match_id=match.pk, user=second)
        rate_match(match.pk)


@override_settings(GAMES_RATED_QUITS=100)
def test_a_boosting_pair_is_in_the_queue_and_an_ordinary_pair_is_not() -> None:
    main, second = make_user("main"), make_user("second")
    boost(main, second, selectors.PAIRS_MIN_GAMES)
    rng = random.Random(1)
    a, b = make_users(2, prefix="o")
    for n in range(2):  # few games together: not a pattern
        finished_match([a, b], TWO, seed=f"o{n}", rng=rng)
    (row,) = selectors.suspicious_pairs()
    assert (row.leader, row.other) == (main, second)
    assert row.flag.games == selectors.PAIRS_MIN_GAMES == row.flag.early == row.leader_wins
    assert row.other_wins == 0


@override_settings(GAMES_RATED_QUITS=100)
def test_one_game_short_of_the_threshold_is_not_listed() -> None:
    main, second = make_user("main"), make_user("second")
    boost(main, second, selectors.PAIRS_MIN_GAMES - 1)
    assert selectors.suspicious_pairs() == []


def staff(name: str, *, group: bool = False, superuser: bool = False) -> User:
    user = make_user(name)
    user.is_staff = True
    user.is_superuser = superuser
    user.save()
    if group:
        user.groups.add(club_staff_group_ensure())
    return user


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("player", 403), ("staff", 403), ("club staff", 200), ("superuser", 200)],
)
@override_settings(GAMES_RATED_QUITS=100)
def test_only_holders_of_the_permission_see_the_queue(who: str, status: int) -> None:
    main, second = make_user("main"), make_user("second")
    boost(main, second, selectors.PAIRS_MIN_GAMES)
    client = Client()
    users = {
        "player": lambda: make_user("player"),
        "staff": lambda: staff("staff"),
        "club staff": lambda: staff("clubstaff", group=True),
        "superuser": lambda: staff("root", superuser=True),
    }
    if who in users:
        client.force_login(users[who]())
    response = client.get(reverse("suspicious_pairs"))
    assert response.status_code == status
    if status == 200:
        assert f'data-pair="{main.pk}-{second.pk}"' in response.content.decode()
