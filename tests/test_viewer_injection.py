"""Issue 12, gap 4: no record or URL text is rendered as HTML or Markdown by the viewer, and a
crash shows one line, never a traceback.

A forged (re-chained) record carries HTML and Markdown in its title, a roll's purpose and side
and a modifier's reason; ``?game=`` carries Markdown. Every Markdown element's source must hold
that text escaped (or not at all), no element may allow HTML, and the text is still shown,
literally, as plain text.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from domain.store import GameStore
from tests.forge import RIVER_PLATE_RECORD, forged, load
from viewer.safe_text import WORD_JOINER, escape_markdown

APP = str(Path(__file__).resolve().parents[1] / "viewer" / "app.py")
ROLL = "wake.DiceRolled/1"
MARKUP = (
    '<img src="http://127.0.0.1:9/wake-injected.png"> <span style="color:red">wake-styled</span>'
    " **wake-bold** [wake-link](http://127.0.0.1:9/wake-link) ![i](http://127.0.0.1:9/i.png)"
    " :red[wake-red] www.wake-injected.invalid"
)
# markup that would be live in a Markdown source: not preceded by a backslash
LIVE = re.compile(r"(?<!\\)<(img|span)|(?<!\\)\]\((?=http)|(?<!\\)\*\*wake|(?<!\\)\[wake")


def _roll_seq() -> int:
    return next(e["seq"] for e in load()["events"] if e["topic"] == ROLL and e["payload"]["target"])


def _forge(body: dict[str, Any]) -> None:
    body["header"]["title"] = f"Title {MARKUP}"
    roll = next(e for e in body["events"] if e["seq"] == _roll_seq())["payload"]
    roll["purpose"] = f"purpose {MARKUP}"
    roll["roll"]["side"] = f"side {MARKUP}"
    roll["roll"]["modifiers"] = [{"value": 0, "rule": "PL-4", "reason": f"reason {MARKUP}"}]


@pytest.fixture(scope="module")
def forged_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("inject") / "forged.wake.json"
    path.write_text(forged(_forge), "utf-8")
    return path


def _markdown_sources(at: AppTest) -> list[tuple[str, Any]]:
    found = []
    for kind in (
        "markdown",
        "caption",
        "title",
        "header",
        "subheader",
        "error",
        "warning",
        "info",
        "success",
    ):
        for element in getattr(at, kind):
            found.append((kind, element))
    return found


def _assert_no_live_markup(at: AppTest) -> None:
    for kind, element in _markdown_sources(at):
        value = str(element.value)
        assert not LIVE.search(value), f"{kind} renders record text as markup: {value[:300]}"
        proto = element.proto
        allow = getattr(proto, "allow_html", False)
        if kind in ("markdown", "caption", "title", "header", "subheader"):
            assert not allow, f"{kind} allows HTML: {value[:200]}"
    for button in at.button:
        assert not LIVE.search(str(button.help or "")), button.help


def test_escape_markdown_makes_markup_literal() -> None:
    escaped = escape_markdown(MARKUP + "\n# heading")
    assert not LIVE.search(escaped)
    assert "\n" not in escaped and r"\#" in escaped and f"www{WORD_JOINER}\\.wake" in escaped
    literal = re.sub(r"\\(.)", r"\1", escaped).replace(WORD_JOINER, "")
    assert literal == " ".join((MARKUP + " # heading").split())
    assert "http://" not in escaped.replace("\\", "") and "www." not in escaped.replace("\\", "")


def test_a_forged_record_s_markup_is_shown_as_text(
    forged_record: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("WAKE_STORE", str(tmp_path / "unused.sqlite3"))
    monkeypatch.setattr(sys, "argv", ["app.py", "--record", str(forged_record)])
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["event"] = str(_roll_seq())
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    _assert_no_live_markup(at)
    assert at.title[0].value.startswith(r"Title \<img")
    plain = "\n".join(t.value for t in at.text)
    assert f"side {MARKUP}" in plain and f"reason {MARKUP}" in plain  # shown, literally
    assert st.get_option("client.showErrorDetails") == "none"


def test_the_url_s_game_is_not_echoed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    store = str(tmp_path / "s.sqlite3")
    from domain.record import read_record_file

    rec = read_record_file(RIVER_PLATE_RECORD)
    GameStore(store).import_game(rec.header, rec.events)
    monkeypatch.setenv("WAKE_STORE", store)
    monkeypatch.setattr(sys, "argv", ["app.py"])
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["game"] = MARKUP
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    _assert_no_live_markup(at)
    assert any("not in the store" in w.value for w in at.warning)
    assert not any("wake-link" in w.value for w in at.warning)


def test_a_crash_is_one_line_without_a_traceback(
    forged_record: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import viewer.timeline

    def boom(*_: Any, **__: Any) -> None:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(viewer.timeline.Timeline, "__init__", boom)
    copy = tmp_path / "crash.wake.json"
    copy.write_bytes(forged_record.read_bytes())
    monkeypatch.setenv("WAKE_STORE", str(tmp_path / "unused.sqlite3"))
    monkeypatch.setattr(sys, "argv", ["app.py", "--record", str(copy)])
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value for e in at.error]
    assert errors == [
        "The viewer could not show this page (RuntimeError); the details are in the server's log."
    ]
    assert "secret detail" not in "\n".join(m.value for m in at.markdown)


def test_the_launcher_hides_error_details() -> None:
    from viewer.launch import streamlit_command

    cmd = streamlit_command(8600, [])
    assert cmd[cmd.index("--client.showErrorDetails") + 1] == "none"


def test_the_launcher_bounds_uploads() -> None:
    from viewer.launch import streamlit_command
    from viewer.loading import MAX_UPLOAD_BYTES

    cmd = streamlit_command(8600, [])
    assert int(cmd[cmd.index("--server.maxUploadSize") + 1]) * 1024 * 1024 == MAX_UPLOAD_BYTES


def test_a_local_record_that_is_a_fifo_is_refused(tmp_path: Path) -> None:
    import os

    from viewer.loading import LoadError, from_file

    if not hasattr(os, "mkfifo"):
        pytest.skip("needs FIFOs")
    fifo = tmp_path / "p.wake.json"
    os.mkfifo(fifo)
    with pytest.raises(LoadError, match="not a regular file"):
        from_file(fifo)


def test_the_launcher_hides_the_deploy_button() -> None:
    """Issue 13 (polish): the viewer is a local tool; Streamlit's Deploy button is not shown."""
    from viewer.launch import streamlit_command

    cmd = streamlit_command(8501, [])
    assert cmd[cmd.index("--client.toolbarMode") + 1] == "minimal"
