"""Engine test options: ``--soak`` (registered in the root ``tests/conftest.py`` so that
``pytest --soak`` works from the project root) turns the random-playout conformance
suite from a few thousand games (the CI default) into a million."""

from __future__ import annotations

import pytest


@pytest.fixture
def soak(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--soak"))
