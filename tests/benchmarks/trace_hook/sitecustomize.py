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
