"""Routes of the people app: the follow and block buttons (``people:tie``)."""

from django.urls import path

from . import views

app_name = "people"

urlpatterns = [
    path("players/<int:pk>/<str:verb>/", views.tie, name="tie"),
]
