"""The examples in docstrings are part of each module's contract (python-chess style): run them.

Every module of the engine is walked, so a new engine module's examples run without being listed;
the site modules with examples are named here. (The tournaments' pure modules have their own
module in tests/tournaments.)
"""

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import games.engine

ENGINE_MODULES = [
    f"games.engine.{info.name}"
    for info in pkgutil.iter_modules(games.engine.__path__)
    if info.name not in {"bench", "arena"}  # command-line programs, their examples are their output
]
SITE_MODULES = [
    "games.elo",
    "games.outcome",
    "games.services",
    "games.fairness",
    "games.history",
    "games.ratelimit",
    "games.loadclient",
    "accounts.charts",
    "accounts.ratings",
    "durak_site.env",
]


@pytest.mark.parametrize("name", ["games.engine", *ENGINE_MODULES, *SITE_MODULES])
def test_docstring_examples(name: str) -> None:
    module: ModuleType = importlib.import_module(name)
    failures, _tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
