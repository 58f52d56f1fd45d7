"""The server's ASGI middleware: request log, security headers and a request body cap.

Plain ASGI classes rather than Starlette's ``BaseHTTPMiddleware``, so a route still sees the
client's own ``receive`` (and with it a disconnect) and nothing is buffered twice.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SECURITY_HEADERS", "BodyLimit", "RequestLog", "SecurityHeaders"]

log = logging.getLogger("pokerlab.web")

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
"""Sent with every answer: no inline script or style, nothing from another origin, no
content-type guessing, no framing."""


class RequestLog:
    """Logs each HTTP request as ``METHOD path status milliseconds``: INFO, a 503 (warming up,
    busy, a worker died: the pool logs why) as WARNING, any other 5xx as ERROR."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 0

        async def logged_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, logged_send)
        except BaseException:
            status = status or 500
            raise
        finally:
            ms = (time.perf_counter() - started) * 1000
            level = logging.INFO if status < 500 else logging.WARNING
            if status >= 500 and status != 503:
                level = logging.ERROR
            log.log(level, "%s %s %d %.1f ms", scope["method"], scope["path"], status, ms)


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *self.headers]}
            await send(message)

        await self.app(scope, receive, with_headers)


def _too_large(limit: int) -> str:
    return f"the request body is larger than the server's limit of {limit:,} bytes"


class BodyLimit:
    """Answers 413 to a request whose body is over ``max_bytes``: at once from its
    Content-Length, or (a chunked body) as soon as what arrived passes the limit, before any
    of it is parsed."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise HTTPException(413, _too_large(self.max_bytes))
            return message

        await self.app(scope, counted, send)

    async def _refuse(self, send: Send) -> None:
        body: dict[str, Any] = {
            "error": {"type": "TooLarge", "message": _too_large(self.max_bytes), "field": None}
        }
        data = json.dumps(body).encode()
        await send({
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"),
                        (b"content-length", str(len(data)).encode()),
                        (b"connection", b"close")],
        })  # fmt: skip
        await send({"type": "http.response.body", "body": data})
