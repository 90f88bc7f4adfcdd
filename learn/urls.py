"""Routes of the lessons (``/learn/``)."""

from django.urls import path

from learn import views

app_name = "learn"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.lesson, name="lesson"),
    path("<slug:slug>/<int:number>/", views.answer, name="answer"),
]
