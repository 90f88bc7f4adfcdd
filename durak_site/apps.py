"""The project package as an app, so that its management commands (serve, runserver) and its
deployment checks (``durak_site.checks``) are found."""

from django.apps import AppConfig


class DurakSiteConfig(AppConfig):
    name = "durak_site"
    verbose_name = "Durak club"

    def ready(self) -> None:
        from durak_site import checks  # noqa: F401  (registers the deployment checks)
