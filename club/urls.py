"""Routes of the club's pages (the home page keeps the global name ``home``, in ``durak_site.urls``)."""

from django.urls import path

from club import views

app_name = "club"

urlpatterns = [
    path("players/<int:pk>/", views.profile, name="profile"),
    path("friends/", views.friends, name="friends"),
    path("friends/panel/", views.friends_panel, name="friends_panel"),
]
