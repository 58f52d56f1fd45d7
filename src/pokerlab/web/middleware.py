"""The server's ASGI middleware: request log, security headers, the ``Host`` check and a request
body cap.

Plain ASGI classes rather than Starlette's ``BaseHTTPMiddleware``, so a route still sees the
client's own ``receive`` (and with it a disconnect) and nothing is buffered twice.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from typing import Any

from starlette.exceptions import HTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "SECURITY_HEADERS",
    "BodyLimit",
    "HostCheck",
    "RequestLog",
    "SecurityHeaders",
    "error_body",
]

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


def error_body(kind: str, message: str, field: str | None = None) -> dict[str, Any]:
    """The body of every error answer: ``{"error": {"type", "message", "field"}}``."""
    return {"error": {"type": kind, "message": message, "field": field}}


async def send_error(send: Send, status: int, body: dict[str, Any]) -> None:
    """Answer ``status`` with the JSON ``body`` and close the connection (the request's body,
    if any, is left unread)."""
    data = json.dumps(body).encode()
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"application/json"),
                    (b"content-length", str(len(data)).encode()),
                    (b"connection", b"close")],
    })  # fmt: skip
    await send({"type": "http.response.body", "body": data})


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
        await send_error(send, 413, error_body("TooLarge", _too_large(self.max_bytes)))


_ADMITTED = "pokerlab.host_admitted"


async def _admit(scope: Scope, receive: Receive, send: Send) -> None:
    """What :class:`HostCheck`'s Starlette check calls for a name it admits."""
    scope[_ADMITTED] = True


_FOREIGN_HOST = (
    "this server does not answer the host name in the request's Host header (a guard against "
    "DNS rebinding); open the page by a name it answers, or start it with --allowed-host NAME"
)


class HostCheck:
    """Answers only the ``Host`` names in ``allowed_hosts`` (against DNS rebinding), as
    Starlette's ``TrustedHostMiddleware`` decides, but refuses any other with a 400 in the JSON
    error body of every other answer (Starlette's is plain text)."""

    def __init__(self, app: ASGIApp, allowed_hosts: Sequence[str]) -> None:
        self.app = app
        self.check = TrustedHostMiddleware(_admit, list(allowed_hosts), www_redirect=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not await self._admits(scope, receive):
            if scope["type"] == "http":
                await send_error(send, 400, error_body("InvalidHost", _FOREIGN_HOST))
            else:
                await send({"type": "websocket.close", "code": 1008})  # policy violation
            return
        await self.app(scope, receive, send)

    async def _admits(self, scope: Scope, receive: Receive) -> bool:
        probe = dict(scope)  # the check's refusal goes nowhere: this one answers instead

        async def discard(_: Message) -> None:
            pass

        await self.check(probe, receive, discard)
        return bool(probe.get(_ADMITTED))
