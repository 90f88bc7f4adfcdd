from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from play import ratings as shown_ratings
        from ratings import receivers
        from ratings.shown import Reader

        receivers.connect()
        shown_ratings.register(Reader())
