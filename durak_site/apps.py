"""The project package as an app, so that its management commands (serve, runserver) are found."""

from django.apps import AppConfig


class DurakSiteConfig(AppConfig):
    name = "durak_site"
    verbose_name = "Durak club"
