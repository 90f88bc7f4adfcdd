"""``manage.py bench_moves`` at a small scale: its report's shape, its clean-up, that it says
when it measures with ``DEBUG`` on (every query logged, templates checked for changes), so that
two runs compared are known to be run alike, and its two options for counting instructions
(``--untimed`` plays every move unmeasured, ``--seed`` deals the same games). Not a timed test:
the figures are the command's output, read by a person."""

from __future__ import annotations

import json
from itertools import pairwise

import pytest
from django.core.management import call_command
from django.test import override_settings

from accounts.models import User
from games.models import Match, Table

STEPS = ("apply", "mover", "other", "move")


@pytest.mark.parametrize("debug", [False, True])
def test_bench_moves_reports_each_step_says_whether_debug_was_on_and_leaves_nothing(
    db: None, capsys: pytest.CaptureFixture[str], debug: bool
) -> None:
    with override_settings(DEBUG=debug):
        call_command("bench_moves", "--moves", "6", "--json")
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["moves"] == 6 and report["debug"] is debug
    for step in STEPS:
        assert report[step]["cpu_ms"] > 0
    assert report["apply"]["queries"] > 0 and report["other"]["bytes"] > 0
    assert report["move"]["cpu_ms"] >= report["apply"]["cpu_ms"]
    assert ("DJANGO_DEBUG=0" in captured.err) is debug
    assert not User.objects.filter(username__startswith="bench-").exists()
    assert not Table.objects.exists()


def test_bench_moves_untimed_plays_every_move_over_several_matches_and_measures_nothing(
    db: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--untimed`` is for counting the process's instructions: the same moves, applied and
    pushed, each chosen on the state the move before returned, from one match into the next."""
    from play import services

    applied: list[int] = []
    apply = services.action_apply

    def counted(**kwargs: object) -> object:
        applied.append(int(kwargs["expected_version"]))  # type: ignore[call-overload]
        return apply(**kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(services, "action_apply", counted)
    call_command("bench_moves", "--moves", "150", "--untimed", "--json")
    report = json.loads(capsys.readouterr().out)
    assert report == {"moves": 150, "debug": False}
    assert len(applied) == 150
    # More than one match: the versions start again at a new match's deal.
    assert sum(1 for before, after in pairwise(applied) if after < before) >= 1
    assert not User.objects.filter(username__startswith="bench-").exists()
    assert not Table.objects.exists()


def test_bench_moves_with_a_seed_deals_the_same_games_and_puts_the_deal_hook_back(
    db: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two runs with one ``--seed`` play the same games (the moves' instruction counts of two
    codes compare the same work); the tables' own seed hook is back afterwards."""
    from play.services import tables

    own = tables.new_seed
    seeds: list[list[str]] = []
    create = Match.objects.create

    def dealt(**kwargs: object) -> Match:
        seeds[-1].append(str(kwargs["seed"]))
        return create(**kwargs)

    monkeypatch.setattr(Match.objects, "create", dealt)
    for _ in range(2):
        seeds.append([])
        call_command("bench_moves", "--moves", "100", "--untimed", "--seed", "x")
    assert seeds[0] == seeds[1] and len(seeds[0]) == 2
    assert tables.new_seed is own
    capsys.readouterr()
