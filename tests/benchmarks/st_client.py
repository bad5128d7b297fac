"""A page without a browser, for load on the hosted server (issue 20's benchmark): a websocket
client speaking Streamlit's own protocol, as its frontend does, to measure the server rather
than thirty Chromium renderers on a two-core machine.

It asks for a page (``page_name``, ``query_string``: a capability link's key), re-runs each
fragment at the interval the server asks for (``auto_rerun``), does what the scribe page's
watch component does (``viewer/scribe/static/watch.js``: asks ``/wake-watch/<token>`` and, when
the game moved on, sets the component's value, which re-runs the page), and notes, on the
machine's clock, when each event number first shows in the page's caption ("… · event N ·
…"). It enters no orders: it watches, as a side's phone on the table does between its own.
"""

from __future__ import annotations

import asyncio
import json
import math
import multiprocessing
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

EVENT = re.compile(r"· event (\d+) ·")


@dataclass
class WatchingClient:
    """One page on ``url`` (``http://host:port``) watching ``page_name?query_string``."""

    url: str
    page_name: str
    query_string: str
    seen: dict[int, float] = field(default_factory=dict)  # event -> when first shown
    runs: int = 0  # scripts (and fragments) the server finished for this page
    session: str = ""  # the server's session id for this page (its first 8 characters)
    ticks: int = 0  # fragment re-runs asked for
    last_tick: float = 0.0  # when the last was asked for (``time.time``)
    last_finished: float = 0.0  # when the server last finished a run for this page
    errors: list[str] = field(default_factory=list)
    until: float = math.inf  # when to stop watching (``time.monotonic``); set from another thread
    _fragments: dict[str, float] = field(default_factory=dict)
    _page_hash: str = ""  # the page the server ran, which a fragment's run must name
    _token: str = ""  # the position the page's watch component follows
    _ws: Any = None
    _follows: set[Any] = field(default_factory=set)  # the component's requests under way

    def _rerun(self, fragment_id: str = "", widget: tuple[str, str] | None = None) -> bytes:
        msg = BackMsg()
        msg.rerun_script.query_string = self.query_string
        msg.rerun_script.page_name = self.page_name
        msg.rerun_script.page_script_hash = self._page_hash
        if widget is not None:
            state = msg.rerun_script.widget_states.widgets.add()
            state.id, state.json_value = widget
        if fragment_id:
            msg.rerun_script.fragment_id = fragment_id
            msg.rerun_script.is_auto_rerun = True
        return bytes(msg.SerializeToString())

    def opened(self) -> bool:
        return bool(self.seen) or bool(self.errors)

    async def run(self) -> None:
        """Watch until ``self.until``."""
        stream = self.url.replace("http", "ws", 1) + "/_stcore/stream"
        try:
            async with websockets.connect(
                stream, subprotocols=[websockets.Subprotocol("streamlit")], max_size=None
            ) as ws:
                self._ws = ws
                await ws.send(self._rerun())
                ticker = asyncio.create_task(self._tick(ws))
                try:
                    while time.monotonic() < self.until:
                        try:
                            data = await asyncio.wait_for(ws.recv(), timeout=1.0)
                        except TimeoutError:
                            continue
                        if isinstance(data, bytes):
                            self._read(data)
                finally:
                    ticker.cancel()
                    for follow in self._follows:
                        follow.cancel()
                    self._follows = set()  # the client goes back to the harness's process:
                    self._ws = None  # nothing of this process's event loop may stay in it
        except (OSError, websockets.WebSocketException) as exc:
            self.errors.append(f"{type(exc).__name__}: {exc}")

    def _read(self, data: bytes) -> None:
        msg = ForwardMsg()
        msg.ParseFromString(data)
        kind = msg.WhichOneof("type")
        if kind == "new_session" and msg.new_session.initialize.session_id:
            self.session = msg.new_session.initialize.session_id[:8]
        if kind == "auto_rerun":
            self._fragments.setdefault(msg.auto_rerun.fragment_id, msg.auto_rerun.interval)
        elif kind == "navigation":
            self._page_hash = msg.navigation.page_script_hash
        elif kind == "script_finished":
            self.runs += 1
            self.last_finished = time.time()
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            if element.WhichOneof("type") == "component_instance":
                self._component(element.component_instance)
            if element.WhichOneof("type") == "markdown":
                found = EVENT.search(element.markdown.body)
                if found:
                    self.seen.setdefault(int(found.group(1)), time.time())

    def _component(self, instance: Any) -> None:
        if not instance.component_name.endswith("wake_watch"):
            return
        token = str(json.loads(instance.json_args).get("token", ""))
        if token and token != self._token:
            self._token = token
            self._follows.add(asyncio.create_task(self._follow(instance.id, token)))

    async def _follow(self, widget: str, token: str) -> None:
        """As the watch component: ask until the game moved on, then re-run the page."""
        while token == self._token and time.monotonic() < self.until:
            try:
                status, body = await _get(self.url, f"/wake-watch/{token}")
            except OSError:
                await asyncio.sleep(2.0)
                continue
            if token != self._token or status != 200:
                return
            if json.loads(body).get("moved"):
                value = json.dumps({"token": token, "why": "moved"})
                await self._ws.send(self._rerun(widget=(widget, value)))
                return

    async def _tick(self, ws: websockets.ClientConnection) -> None:
        """Re-run each fragment at its interval, as the frontend's timer does."""
        due: dict[str, float] = {}
        while time.monotonic() < self.until:
            now = time.monotonic()
            for fragment, interval in list(self._fragments.items()):
                if now >= due.setdefault(fragment, now + interval):
                    due[fragment] = now + interval
                    await ws.send(self._rerun(fragment))
                    self.ticks += 1
                    self.last_tick = time.time()
            await asyncio.sleep(0.05)


async def _get(url: str, path: str) -> tuple[int, bytes]:
    """A GET on ``url`` (``http://host:port``) without a thread: the status and the body."""
    host, port = url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        data = await reader.read()
    finally:
        writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def watch_all(clients: list[WatchingClient]) -> None:
    """Run every client at once until each one's ``until`` (call from a thread of its own)."""

    async def _all() -> None:
        await asyncio.gather(*(client.run() for client in clients))

    asyncio.run(_all())


def _watch_apart(
    url: str, page_name: str, queries: list[str], opened: Any, stop: Any, out: Any
) -> None:
    clients = [WatchingClient(url, page_name, query) for query in queries]
    thread = threading.Thread(target=watch_all, args=(clients,))
    thread.start()
    while not all(c.opened() for c in clients) and not stop.is_set():
        time.sleep(0.2)
    opened.set()
    stop.wait()
    for client in clients:
        client.until = 0.0
    thread.join()
    out.put(clients)


class ClientsApart:
    """Clients watching ``page_name`` with each of ``queries``, in a process of their own.

    In the harness's own process they shared its interpreter lock with the devices entering
    orders (bots folding and deciding), and a page's "shown" time included that wait: up to
    20 s under load when the server had sent the event within 2-4 s (its trace said so)."""

    def __init__(self, url: str, page_name: str, queries: list[str]) -> None:
        ctx = multiprocessing.get_context("spawn")  # the parent runs Playwright's threads
        self._opened = ctx.Event()
        self._stop = ctx.Event()
        self._out: Any = ctx.Queue()
        self._process = ctx.Process(
            target=_watch_apart,
            args=(url, page_name, queries, self._opened, self._stop, self._out),
            daemon=True,
        )
        self._process.start()
        self._clients: list[WatchingClient] | None = None

    def wait_opened(self, timeout: float) -> bool:
        """Whether every client saw its page (or failed) within ``timeout`` seconds."""
        return bool(self._opened.wait(timeout))

    def stop(self) -> list[WatchingClient]:
        """Stop watching; the clients as they ended, with what each saw."""
        if self._clients is None:
            self._stop.set()
            self._clients = list(self._out.get(timeout=120))
            self._process.join(timeout=30)
        return self._clients
