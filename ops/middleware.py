"""The outermost HTTP middleware: every request gets an id for its log lines (nginx's
``X-Request-ID`` when it sends one, so its access log and ours match) and every response is
counted by status (``durak_site.metrics.HTTP_RESPONSES``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase

from durak_site import logcontext, metrics

Handler = Callable[[HttpRequest], Awaitable[HttpResponseBase]] | Callable[[HttpRequest], HttpResponseBase]


class RequestMiddleware:
    """Sets the request id, answers with it (``X-Request-ID``) and counts the response's status."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        if self.is_async:
            return self._acall(request)
        rid = logcontext.new_request(request.headers.get("X-Request-ID", ""))
        response = self.get_response(request)
        assert isinstance(response, HttpResponseBase)
        return self._done(response, rid)

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        rid = logcontext.new_request(request.headers.get("X-Request-ID", ""))
        response = self.get_response(request)
        assert not isinstance(response, HttpResponseBase)
        return self._done(await response, rid)

    @staticmethod
    def _done(response: HttpResponseBase, rid: str) -> HttpResponseBase:
        metrics.HTTP_RESPONSES.labels(str(response.status_code)).inc()
        response["X-Request-ID"] = rid
        return response
