"""Routes of the people app: the follow and block buttons (``people:tie``)."""

from django.urls import re_path

from . import views

app_name = "people"

urlpatterns = [
    re_path(r"^players/(?P<pk>[0-9]+)/(?P<verb>follow|unfollow|block|unblock)/$", views.tie, name="tie"),
]
