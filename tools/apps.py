from django.apps import AppConfig


class ToolsConfig(AppConfig):
    """Installed so that ``manage.py`` finds the measuring commands; it has no models."""

    name = "tools"
    verbose_name = "Tools"
