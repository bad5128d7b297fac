"""A page without a browser, for load on the hosted server (issue 20's benchmark): a websocket
client speaking Streamlit's own protocol, as its frontend does, to measure the server rather
than thirty Chromium renderers on a two-core machine.

It asks for a page (``page_name``, ``query_string``: a capability link's key), re-runs each
fragment at the interval the server asks for (``auto_rerun``, how the page watches for another
device's order), and notes, on the machine's clock, when each event number first shows in the
page's caption ("… · event N · …"). It sends no widget states: it watches, as a side's phone
on the table does between its own orders.
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from dataclasses import dataclass, field

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
    errors: list[str] = field(default_factory=list)
    until: float = math.inf  # when to stop watching (``time.monotonic``); set from another thread
    _fragments: dict[str, float] = field(default_factory=dict)
    _page_hash: str = ""  # the page the server ran, which a fragment's run must name

    def _rerun(self, fragment_id: str = "") -> bytes:
        msg = BackMsg()
        msg.rerun_script.query_string = self.query_string
        msg.rerun_script.page_name = self.page_name
        msg.rerun_script.page_script_hash = self._page_hash
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
        except (OSError, websockets.WebSocketException) as exc:
            self.errors.append(f"{type(exc).__name__}: {exc}")

    def _read(self, data: bytes) -> None:
        msg = ForwardMsg()
        msg.ParseFromString(data)
        kind = msg.WhichOneof("type")
        if kind == "auto_rerun":
            self._fragments.setdefault(msg.auto_rerun.fragment_id, msg.auto_rerun.interval)
        elif kind == "navigation":
            self._page_hash = msg.navigation.page_script_hash
        elif kind == "script_finished":
            self.runs += 1
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            if element.WhichOneof("type") == "markdown":
                found = EVENT.search(element.markdown.body)
                if found:
                    self.seen.setdefault(int(found.group(1)), time.time())

    async def _tick(self, ws: websockets.ClientConnection) -> None:
        """Re-run each fragment at its interval, as the frontend's timer does."""
        due: dict[str, float] = {}
        while time.monotonic() < self.until:
            now = time.monotonic()
            for fragment, interval in list(self._fragments.items()):
                if now >= due.setdefault(fragment, now + interval):
                    due[fragment] = now + interval
                    await ws.send(self._rerun(fragment))
            await asyncio.sleep(0.05)


def watch_all(clients: list[WatchingClient]) -> None:
    """Run every client at once until each one's ``until`` (call from a thread of its own)."""

    async def _all() -> None:
        await asyncio.gather(*(client.run() for client in clients))

    asyncio.run(_all())
