"""Routes of ratings, mounted at the site root: ``leaderboard`` is a global name (the navigation
links it)."""

from django.urls import path

from ratings import views as rating_views

urlpatterns = [
    path("leaderboard/", rating_views.leaderboard, name="leaderboard"),
    path("staff/pairs/", rating_views.suspicious_pairs, name="suspicious_pairs"),
]
