"""Routes of the operator's endpoints (under ``/ops/``)."""

from django.urls import path

from ops import views

app_name = "ops"

urlpatterns = [
    path("", views.overview, name="overview"),
    path("health/live", views.live, name="live"),
    path("health/ready", views.ready, name="ready"),
    path("metrics", views.metrics, name="metrics"),
]
