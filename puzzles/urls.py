"""Routes of the puzzles (``/puzzles/``)."""

from django.urls import path

from puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("", views.next_puzzle, name="next"),
    path("<int:puzzle_id>/", views.detail, name="detail"),
    path("<int:puzzle_id>/move/", views.move, name="move"),
]
