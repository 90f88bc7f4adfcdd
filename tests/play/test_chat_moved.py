"""The table chat's models moved from ``games`` to ``play`` by state alone (``play.0001``,
``games.0019``): a database that had chat lines, reports and moderation actions before the move
keeps every row after it, and their content types follow them."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engine import Rules
from play.models import ChatLine, ChatReport, ModerationAction
from tests.ratings.builders import finished_match, make_users

BEFORE = [("games", "0018_ratedquit_left_too_early"), ("play", None)]


def apps_before() -> Any:
    """The database migrated back to before the move; the apps of that state."""
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    return executor.loader.project_state([("games", "0018_ratedquit_left_too_early")]).apps


def migrate_to_latest() -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_chat_lines_reports_and_actions_stay_across_the_move() -> None:
    olga, ivan = make_users(2)
    match = finished_match([olga, ivan], Rules(players=2), seed="moved", rng=random.Random(3))
    old = apps_before()
    line = old.get_model("games", "ChatLine").objects.create(
        match_id=match.pk, author_id=olga.pk, room="players", seat=0, text="удачи"
    )
    phrase = old.get_model("games", "ChatLine").objects.create(
        match_id=match.pk, author_id=ivan.pk, room="players", seat=1, phrase="gg"
    )
    report = old.get_model("games", "ChatReport").objects.create(line_id=line.pk, reporter_id=ivan.pk)
    old.get_model("games", "ModerationAction").objects.create(
        user_id=olga.pk, staff_id=ivan.pk, kind="dismiss", reason="fine", report_id=report.pk
    )
    migrate_to_latest()
    lines = list(ChatLine.objects.filter(match=match).order_by("pk").values_list("pk", "text", "phrase"))
    assert lines == [(line.pk, "удачи", ""), (phrase.pk, "", "gg")]
    assert ChatReport.objects.get(pk=report.pk).line_id == line.pk
    assert ModerationAction.objects.get(report_id=report.pk).reason == "fine"
    assert ContentType.objects.filter(app_label="play", model="chatline").exists()
    assert not ContentType.objects.filter(app_label="games", model="chatline").exists()
