"""Engine test options: ``--soak`` turns the random-playout conformance suite from a few
thousand games (the CI default) into a million."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--soak",
        action="store_true",
        default=False,
        help="run the engine conformance soak: a million random games",
    )


@pytest.fixture
def soak(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--soak"))
