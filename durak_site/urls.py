"""HTTP routes. Websocket routes live in ``durak_site.routing``."""

from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    # Live play (games.urls) comes before the placeholders so that /play/ is the lobby.
    path("play/", include("games.urls")),
    *(
        path(f"{section}/", views.coming_soon, {"section": section}, name=section)
        for section in views.COMING_SOON
    ),
]
