"""The ``ops`` app: at start-up it hooks Celery's task signals and, given a DSN, Sentry."""

from django.apps import AppConfig
from django.conf import settings


class OpsConfig(AppConfig):
    name = "ops"
    verbose_name = "Operations"

    def ready(self) -> None:
        from ops import sentry, signals

        signals.connect()
        if settings.SENTRY_DSN:
            sentry.start(settings.SENTRY_DSN, environment=settings.DJANGO_ENV)
