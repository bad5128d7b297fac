"""Start the Streamlit viewer as a child process (``wake view``)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import webbrowser
from pathlib import Path

from viewer.loading import MAX_UPLOAD_BYTES

# the server: viewer/app.py as an st.App with the route that serves the components' files for
# good (viewer/wake_asgi.py); `streamlit run` finds the app there
APP = Path(__file__).resolve().parent / "wake_asgi.py"


def free_port(preferred: int = 8501) -> int:
    """``preferred`` if it is free on the loopback interface, else any free port."""
    for port in (preferred, 0):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(sock.getsockname()[1])
    raise OSError("no free port on 127.0.0.1")


def streamlit_command(port: int, app_args: list[str], address: str = "127.0.0.1") -> list[str]:
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(APP),
        "--server.headless",
        "true",
        "--server.port",
        str(port),
        "--server.address",
        address,
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
        "--runner.postScriptGC",  # a full collection after every run, a fragment's tick too,
        "false",  # was half the hosted server's CPU with six pages open (py-spy, issue 20)
        "--client.showErrorDetails",
        "none",
        "--client.toolbarMode",  # no "Deploy" button: this is a local tool, not an app to host
        "minimal",
        "--server.maxUploadSize",  # in MB: Streamlit holds an upload in memory before Wake
        str(max(1, MAX_UPLOAD_BYTES // (1024 * 1024))),  # reads it
        "--",
        *app_args,
    ]


def can_open_browser() -> bool:
    """A desktop to open a browser on: macOS, Windows, or a Linux session with a display (a
    server or a CI machine has none, and the address printed is all it needs)."""
    if os.environ.get("WAKE_NO_BROWSER"):
        return False
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _open_when_up(url: str, port: int, timeout: float = 60.0) -> None:
    """Open ``url`` in the user's browser once the server answers its health check."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
                webbrowser.open(url)
                return
        except OSError:
            time.sleep(0.3)


def run_viewer(
    app_args: list[str],
    port: int | None = None,
    *,
    address: str = "127.0.0.1",
    page: str = "",
    announce: bool = True,
    open_browser: bool | None = None,
) -> int:
    """Run the viewer until interrupted; returns Streamlit's exit status. ``address``: where it
    listens (``0.0.0.0`` for every device on the table's network, hosted mode); ``page`` the
    path shown in the address printed (``record``); ``open_browser``: open the page in the
    user's browser (default: where there is a desktop, see ``can_open_browser``)."""
    chosen = free_port(port or 8501) if address == "127.0.0.1" else (port or 8501)
    shown = "127.0.0.1" if address in ("127.0.0.1", "0.0.0.0") else address
    url = f"http://{shown}:{chosen}/{page}"
    if announce:
        print(f"Wake viewer: open {url}  (Ctrl+C stops it)", flush=True)
    if open_browser if open_browser is not None else (announce and can_open_browser()):
        threading.Thread(target=_open_when_up, args=(url, chosen), daemon=True).start()
    try:
        return subprocess.call(streamlit_command(chosen, app_args, address))
    except KeyboardInterrupt:
        return 0
