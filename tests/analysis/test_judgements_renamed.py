"""An evaluation's ``results`` became its ``judgements`` by state alone (``analysis.0002``): the
column keeps its name, so an evaluation judged before the rename reads the same after it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from analysis.models import Evaluation
from tests.ratings.builders import make_users

BEFORE = [("analysis", "0001_evaluation")]


@pytest.mark.django_db(transaction=True)
def test_an_evaluation_judged_before_the_rename_keeps_its_moves() -> None:
    [olga] = make_users(1)
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("analysis", "Evaluation")
    judged = [{"move": "take", "p": 0.25, "samples": 30}, {"move": "pass", "p": 0.5, "samples": 30}]
    before = old.objects.create(user_id=olga.pk, position="p", seat=0, total=2, done=2, results=judged)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Evaluation.objects.get(pk=before.pk).judgements == judged
