from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tournaments import receivers

        receivers.connect()
        post_migrate.connect(_directors_ensure, sender=self, dispatch_uid="tournaments.directors")


def _directors_ensure(sender: AppConfig, **kwargs: Any) -> None:
    """After ``migrate``: the "Tournament directors" group exists with its permission."""
    from tournaments.services import directors_group_ensure

    directors_group_ensure(using=kwargs.get("using", "default"))
