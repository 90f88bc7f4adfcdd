"""The embedded mode's Celery: a worker thread in the serving process, countdowns honoured."""

import json
from unittest import mock

import pytest
from django.db import transaction

from durak_site.tasks import enqueue_on_commit

from .helpers import clean_env, run_python

WORKER_SCRIPT = """
import json, threading, time, django
django.setup()
from datetime import datetime
from durak_site.celery import app
from durak_site.embedded_worker import start_embedded_worker

ran = threading.Event()
seen = {}

@app.task(name="tests.mark_ran", bind=True)
def mark_ran(self):
    seen.update(at=time.time(), eta=self.request.eta, eager=self.request.is_eager,
                main_thread=threading.current_thread() is threading.main_thread())
    ran.set()

worker = start_embedded_worker()
assert worker is not None and start_embedded_worker() is worker, "one worker per process"
mark_ran.apply_async(countdown=0.5)
assert not ran.is_set(), "run eagerly"
assert ran.wait(10), "the task never ran"
seen["not_before_eta"] = seen["at"] >= datetime.fromisoformat(seen["eta"]).timestamp()
seen["polling_interval"] = worker.consumer.connection.transport.polling_interval
print(json.dumps(seen))
"""


@pytest.mark.slow
def test_worker_thread_runs_a_task_after_its_countdown() -> None:
    """Not eager (that would ignore the countdown): the worker thread runs it, no earlier than its
    ETA; and the in-memory broker is polled every 20 ms, not kombu's default second, which would
    hold every task up to a second."""
    result = run_python(WORKER_SCRIPT, clean_env())
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["eager"] is False and seen["main_thread"] is False and seen["eta"]
    assert seen["not_before_eta"]
    assert seen["polling_interval"] == 0.02


def test_no_embedded_worker_with_a_real_broker() -> None:
    code = (
        "import django; django.setup()\n"
        "from durak_site.embedded_worker import start_embedded_worker\n"
        "print(start_embedded_worker())\n"
    )
    result = run_python(code, clean_env(REDIS_URL="redis://127.0.0.1:1/0"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "None"


@pytest.mark.django_db(transaction=True)
def test_enqueue_on_commit_waits_for_the_commit() -> None:
    task = mock.Mock()
    with transaction.atomic():
        enqueue_on_commit(task, 42, countdown=1.5, reason="deadline")
        task.apply_async.assert_not_called()
    task.apply_async.assert_called_once_with(args=(42,), kwargs={"reason": "deadline"}, countdown=1.5)


@pytest.mark.django_db(transaction=True)
def test_enqueue_on_commit_drops_the_task_on_rollback() -> None:
    task = mock.Mock()
    with pytest.raises(RuntimeError), transaction.atomic():
        enqueue_on_commit(task, 42)
        raise RuntimeError("rolled back")
    task.apply_async.assert_not_called()


BEAT_SCRIPT = """
import threading, django
django.setup()
from durak_site.celery import app

ran = threading.Event()

@app.task(name="tests.tick")
def tick():
    ran.set()

app.conf.beat_schedule = {"tick": {"task": "tests.tick", "schedule": 0.5}}
from durak_site.embedded_worker import start_embedded_worker
start_embedded_worker()
assert ran.wait(15), "the embedded beat never sent the periodic task"
print("ticked")
"""


@pytest.mark.slow
def test_embedded_beat_thread_sends_periodic_tasks() -> None:
    """The beat schedule (deadline sweep, tournament starts) runs without a ``celery beat`` process."""
    result = run_python(BEAT_SCRIPT, clean_env())
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "ticked"


def test_bot_turns_have_a_queue_of_their_own() -> None:
    """A slow search never holds a turn deadline behind it: production runs a worker per queue,
    and a worker started without -Q (the embedded one) takes both."""
    from durak_site.celery import app

    assert app.amqp.router.route({}, "games.bot_turn")["queue"].name == "bots"
    assert app.amqp.router.route({}, "games.clock")["queue"].name == "celery"
    assert {"celery", "bots"} <= set(app.amqp.queues)
