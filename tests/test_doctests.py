"""The examples in docstrings are part of each module's contract (python-chess style): run them.

Every module of the project's packages is walked, and each one whose docstrings hold examples is
a test case, so a new module's examples run without being listed anywhere (a module that is
missed by accident cannot hide stale examples). Left out: migrations, and the two
measuring programs in ``tools`` whose "examples" are their printed output.
"""

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

PACKAGES = ("accounts", "games", "ratings", "tournaments", "history", "club", "tools", "durak_site")
SKIPPED = {"tools.bench_engine", "tools.bot_matches"}


def _modules() -> list[str]:
    names = list(PACKAGES)
    for package in PACKAGES:
        path = importlib.import_module(package).__path__
        for info in pkgutil.walk_packages(path, prefix=f"{package}."):
            if ".migrations" not in info.name and info.name not in SKIPPED:
                names.append(info.name)
    return sorted(names)


def _has_examples(name: str) -> bool:
    module = importlib.import_module(name)
    return any(test.examples for test in doctest.DocTestFinder().find(module))


MODULES = [name for name in _modules() if _has_examples(name)]


def test_the_walk_finds_the_modules_with_examples() -> None:
    """A guard on the walk itself: an import error or a wrong path must not empty the list."""
    expected = {"games.engine.state", "games.pools", "games.words", "tournaments.formats.favourites"}
    assert expected <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module: ModuleType = importlib.import_module(name)
    failures, _tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
