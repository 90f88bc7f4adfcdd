"""The queue ping: beat sends it to each queue (``durak_site.celery``), and the worker that takes it
records that queue's heartbeat (``ops.health`` reads it). Cheaper and steadier than asking every
worker over the broker at each probe (``celery inspect``), which waits for the slowest to answer."""

from celery import shared_task

from durak_site import heartbeat


@shared_task(name="ops.ping", ignore_result=True)
def ping(queue: str) -> None:
    """A worker of ``queue`` is alive: record it (harmless twice)."""
    heartbeat.beat(f"queue:{queue}")
