"""A request id for every request: in the response's X-Request-ID header and in every log line.

The id comes from the proxy's X-Request-ID header when it sends a plausible one (so one id follows a
request through the proxy's log and ours), otherwise it is made here.
"""

from __future__ import annotations

import logging
import re
import uuid
from contextvars import ContextVar

HEADER = "X-Request-ID"
_PLAUSIBLE = re.compile(r"^[A-Za-z0-9._-]{8,64}$")
current: ContextVar[str] = ContextVar("request_id", default="-")


class RequestIdMiddleware:
    """Sets `request.request_id` for the duration of the request (first in MIDDLEWARE)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        given = request.headers.get(HEADER, "")
        request.request_id = given if _PLAUSIBLE.match(given) else uuid.uuid4().hex
        token = current.set(request.request_id)
        try:
            response = self.get_response(request)
        finally:
            current.reset(token)
        response[HEADER] = request.request_id
        return response


class RequestIdFilter(logging.Filter):
    """Adds `request_id` to every log record ("-" outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current.get()
        return True
