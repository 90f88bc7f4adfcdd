"""Routes of match history, mounted at the site root (``durak_site.urls``): the names ``history``
and the match page are global because the site navigation links them."""

from django.urls import path

from history import views as history_views
from history.review import views as review_views

urlpatterns = [
    path("history/", history_views.history, name="history"),
    path("history/export.csv", history_views.history_export, name="history_export"),
    path("matches/<int:match_id>/", history_views.match_page, name="match_record"),
    path("matches/<int:match_id>/export.json", history_views.match_export_json, name="match_export"),
    path("matches/<int:match_id>/reviews/", review_views.review_panel, name="match_reviews"),
    path("matches/<int:match_id>/reviews/<int:seat>/", review_views.review_ask, name="match_review_ask"),
    path("fair/", history_views.fair, name="fair"),
]
