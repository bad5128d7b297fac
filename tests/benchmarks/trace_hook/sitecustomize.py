"""Put on the scribe server's ``PYTHONPATH`` by ``bench_scribe``: when ``WAKE_WATCH_TRACE``
names a file, each page's runs and watch ticks (``viewer.scribe.page.TRACE``) are logged there
with their times, so a page that stopped following its game can be told from a harness client
that stopped asking."""

import logging
import os

_path = os.environ.get("WAKE_WATCH_TRACE")
if _path:
    _handler = logging.FileHandler(_path)
    _handler.setFormatter(logging.Formatter("%(created).3f %(threadName)s %(message)s"))
    _trace = logging.getLogger("wake.scribe.watch")
    _trace.addHandler(_handler)
    _trace.setLevel(logging.DEBUG)
    _trace.propagate = False

    # When each page's finished run is handed to its websocket: a page may show an event late
    # because the script ran late (the run and tick lines above), because the server's event
    # loop flushed it late (this line), or because the client read it late (the harness).
    from streamlit.web.server.starlette import starlette_websocket as _ws

    _write = _ws.StarletteSessionClient.write_forward_msg
    _sessions: dict[int, str] = {}

    def _traced_write(self, msg):  # type: ignore[no-untyped-def]
        kind = msg.WhichOneof("type")
        if kind == "new_session" and msg.new_session.initialize.session_id:
            _sessions[id(self)] = msg.new_session.initialize.session_id[:8]
        elif kind == "script_finished":
            _trace.debug("flushed %s: a run", _sessions.get(id(self), "-"))
        return _write(self, msg)

    _ws.StarletteSessionClient.write_forward_msg = _traced_write
