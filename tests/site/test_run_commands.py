"""The run entry points start the embedded worker; nothing else does."""

from unittest import mock

from daphne.management.commands.runserver import Command as DaphneRunserverCommand
from django.apps import apps

from durak_site.management.commands import runserver


def test_runserver_starts_the_worker_in_the_serving_process() -> None:
    """...and re-arms the deadlines there, since the countdowns died with the previous process."""
    with (
        mock.patch.object(runserver, "start_embedded_worker") as start,
        mock.patch.object(runserver, "call_command") as command,
        mock.patch.object(DaphneRunserverCommand, "inner_run") as serve,
    ):
        runserver.Command().inner_run(use_reloader=False)
    start.assert_called_once_with()
    command.assert_called_once_with("rearm_matches")
    serve.assert_called_once()


def test_no_app_starts_a_worker_when_django_loads() -> None:
    from durak_site import embedded_worker

    assert apps.ready
    assert embedded_worker._worker is None
