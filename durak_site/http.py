"""The request the site's views get: Django's, with what django-htmx's middleware adds."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that went through ``HtmxMiddleware`` (every request of the site): the type of a
    view that reads ``request.htmx`` (django-htmx's recipe for type checkers)."""

    htmx: HtmxDetails
