"""Routes of the analysis board (``/analysis/``)."""

from django.urls import path

from analysis import views

app_name = "analysis"

urlpatterns = [
    path("", views.board, name="board"),
    path("editor/", views.editor, name="editor"),
    path("evaluate/", views.evaluate, name="evaluate"),
    path("evaluation/<int:evaluation_id>/", views.evaluation, name="evaluation"),
]
