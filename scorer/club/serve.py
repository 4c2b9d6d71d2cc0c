"""``scorer club serve``: the evening on one board in a browser -- a small read-only web app.

Starlette (the app) on uvicorn (the server). One poller watches the club database (a cheap query
every ``poll_seconds``); when anything changed it rebuilds the board's data once and every open page
gets it by server-sent events (``GET /events``). ``GET /api/tables.json`` and
``GET /api/standings.json`` give the same data. Only GET routes: nothing on the page writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import logging
import sys
from pathlib import Path
from typing import Any, AsyncIterator, TextIO

import anyio.to_thread
from sqlalchemy.engine import Engine
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from scorer.club.board import BoardData

STATIC = Path(__file__).resolve().parent / "static"
HEARTBEAT_S = 15.0
log = logging.getLogger(__name__)

_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'",
    "Referrer-Policy": "no-referrer",
}


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _as_sent(tables: dict[str, Any]) -> dict[str, Any]:
    """The tables with the server's time as they are sent: "generated" is when they last changed, and a page
    (re)connecting long after must know how long each match has been quiet since."""
    return {**tables, "sent": dt.datetime.now().isoformat(timespec="seconds")}


class Hub:
    """The board's latest data, and the pages waiting for the next change."""

    def __init__(self, data: BoardData, poll_seconds: float) -> None:
        self.data = data
        self.poll_seconds = poll_seconds
        self.version = 0
        self.tables: dict[str, Any] = {}
        self.standings: dict[str, Any] = {}
        self.error: str | None = None
        self._token: Any = None
        self._standings_token: Any = None
        self._changed: asyncio.Condition | None = None

    async def refresh(self) -> bool:
        token = await anyio.to_thread.run_sync(self.data.token)
        if token == self._token:
            return False
        now = dt.datetime.now()
        tables = await anyio.to_thread.run_sync(self.data.tables, now)
        evening, (count, _lines, _updated, finished, playing), _minute = token
        standings_token = (evening, count, finished, playing)
        if standings_token != self._standings_token:
            self.standings = await anyio.to_thread.run_sync(self.data.standings, now)
            self._standings_token = standings_token
        self.tables = tables
        self._token = token
        self.version += 1
        assert self._changed is not None
        async with self._changed:
            self._changed.notify_all()
        return True

    async def run(self) -> None:
        while True:
            try:
                await self.refresh()
                self.error = None
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the poller's guard (it must not die): the database away for a while, the page keeps what it had
                if self.error != str(exc):
                    log.warning("club board: cannot read the database: %s", exc)
                self.error = str(exc)
            await asyncio.sleep(self.poll_seconds)

    async def wait_newer(self, seen: int, timeout: float) -> bool:
        assert self._changed is not None
        async with self._changed:
            if self.version != seen:
                return True
            with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout)
        return self.version != seen


def create_app(engine: Engine, *, season_since: dt.date | None = None, poll_seconds: float = 0.25) -> Starlette:
    hub = Hub(BoardData(engine, season_since), poll_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub._changed = asyncio.Condition()
        await hub.refresh()  # the first data before the first request
        task = asyncio.create_task(hub.run())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=_HEADERS)

    async def tables(request: Request) -> Response:
        return JSONResponse(_as_sent(hub.tables), headers=_HEADERS)

    async def standings(request: Request) -> Response:
        return JSONResponse(hub.standings, headers=_HEADERS)

    async def events(request: Request) -> Response:
        async def stream() -> AsyncIterator[str]:
            seen = -1
            yield "retry: 2000\n\n"
            while True:
                if await hub.wait_newer(seen, HEARTBEAT_S):
                    seen = hub.version
                    yield f"event: tables\ndata: {_dumps(_as_sent(hub.tables))}\n\n"
                    yield f"event: standings\ndata: {_dumps(hub.standings)}\n\n"
                else:
                    yield ": still here\n\n"  # keeps proxies from closing a quiet stream
                if await request.is_disconnected():
                    return

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**_HEADERS, "X-Accel-Buffering": "no"})

    routes = [
        Route("/", index, methods=["GET"]),
        Route("/api/tables.json", tables, methods=["GET"]),
        Route("/api/standings.json", standings, methods=["GET"]),
        Route("/events", events, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return app


def serve(engine: Engine, host: str = "127.0.0.1", port: int = 8000, *, season_since: dt.date | None = None,
          poll_seconds: float = 0.25, out: TextIO | None = None) -> int:
    """Run the board until Ctrl+C (or SIGTERM)."""
    import uvicorn

    out = out or sys.stdout
    app = create_app(engine, season_since=season_since, poll_seconds=poll_seconds)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False, timeout_graceful_shutdown=2,
                            lifespan="on")
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host
    out.write(f"the club board is at http://{shown}:{port}/ (in Finnish: http://{shown}:{port}/?lang=fi; Ctrl+C to stop)\n")
    if host not in ("127.0.0.1", "localhost", "::1"):
        out.write("  open to the network: anyone who can reach this address sees the board (it is read-only)\n")
    out.flush()
    server.run()
    return 0 if server.started else 1
