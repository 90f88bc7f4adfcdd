"""The examples in the pure modules' docstrings are part of their contract: run them."""

import doctest

import pytest

from tournaments import elimination, multitable, roundrobin, seeding, standings, swiss


@pytest.mark.parametrize("module", [seeding, elimination, roundrobin, swiss, multitable, standings], ids=str)
def test_docstring_examples(module: object) -> None:
    failures, _ = doctest.testmod(module)  # type: ignore[arg-type]
    assert failures == 0
