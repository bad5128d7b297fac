"""Issue 21 item 12: the first run. ``wake demo`` opens River Plate at its start (no spoiler),
says where the viewer is in a few short lines (no wide table), and opens a browser where there
is a desktop; ``wake view --at`` opens at a named moment."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from domain.cli.app import app
from viewer import launch

runner = CliRunner()


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []

    def fake(app_args: list[str], port: int | None = None, **kw: Any) -> int:
        calls.append({"args": app_args, "port": port, **kw})
        return 0

    monkeypatch.setattr(launch, "run_viewer", fake)
    return calls


def test_demo_opens_river_plate_at_its_start(
    tmp_path: Path, launched: list[dict[str, Any]]
) -> None:
    result = runner.invoke(app, ["demo", "--store", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 0, result.output
    (call,) = launched
    args = call["args"]
    assert args[args.index("--at") + 1] == "0"
    assert "at its start" in result.output and "River Plate" in result.output
    assert not any(c in result.output for c in "│┃┏━")  # no 170-column table of every game


def test_view_opens_at_a_named_moment(tmp_path: Path, launched: list[dict[str, Any]]) -> None:
    result = runner.invoke(
        app, ["view", "some-game", "--at", "42", "--no-browser", "--store", str(tmp_path / "s")]
    )
    assert result.exit_code == 0, result.output
    (call,) = launched
    assert call["args"][call["args"].index("--at") + 1] == "42"
    assert call["open_browser"] is False


def test_a_browser_opens_only_where_there_is_a_desktop(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "WAKE_NO_BROWSER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(launch.sys, "platform", "linux")
    assert not launch.can_open_browser()  # a server or CI machine: the address printed
    monkeypatch.setenv("DISPLAY", ":0")
    assert launch.can_open_browser()
    monkeypatch.setenv("WAKE_NO_BROWSER", "1")
    assert not launch.can_open_browser()
