"""Fixtures of the tournament site tests (their helpers are in ``tests.tournaments.support``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from tests.play.services_support import make_user


@pytest.fixture
def organiser(db: None) -> User:
    return make_user("organiser")


@pytest.fixture
def make_player(db: None) -> Callable[[str], User]:
    return make_user
