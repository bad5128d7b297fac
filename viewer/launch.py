"""Start the Streamlit viewer as a child process (``wake view``)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from viewer.loading import MAX_UPLOAD_BYTES

APP = Path(__file__).resolve().parent / "app.py"


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
        "--client.showErrorDetails",
        "none",
        "--client.toolbarMode",  # no "Deploy" button: this is a local tool, not an app to host
        "minimal",
        "--server.maxUploadSize",  # in MB: Streamlit holds an upload in memory before Wake
        str(max(1, MAX_UPLOAD_BYTES // (1024 * 1024))),  # reads it
        "--",
        *app_args,
    ]


def run_viewer(
    app_args: list[str],
    port: int | None = None,
    *,
    address: str = "127.0.0.1",
    page: str = "",
    announce: bool = True,
) -> int:
    """Run the viewer until interrupted; returns Streamlit's exit status. ``address``: where it
    listens (``0.0.0.0`` for every device on the table's network, hosted mode); ``page`` the
    path shown in the address printed (``record``)."""
    chosen = free_port(port or 8501) if address == "127.0.0.1" else (port or 8501)
    if announce:
        shown = "127.0.0.1" if address in ("127.0.0.1", "0.0.0.0") else address
        print(f"Wake viewer: open http://{shown}:{chosen}/{page}  (Ctrl+C stops it)", flush=True)
    try:
        return subprocess.call(streamlit_command(chosen, app_args, address))
    except KeyboardInterrupt:
        return 0
