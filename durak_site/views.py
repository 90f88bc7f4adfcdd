"""Site pages that belong to no app: the home page and placeholders for sections still to come."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

#: Sections linked from the navigation that later issues fill in: url name -> page title.
COMING_SOON = {
    "play": _("Play"),
}


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "site/home.html")


def coming_soon(request: HttpRequest, section: str) -> HttpResponse:
    return render(request, "site/coming_soon.html", {"title": COMING_SOON[section]})
