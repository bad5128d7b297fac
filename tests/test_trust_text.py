"""Issue 23 item 9: control and bidirectional characters in the text a record carries (titles, side
names, the scenario's id and title) are refused wherever a header is made or read, so no command
prints a terminal escape (OSC ``\\x1b]0;…\\x07``, C1 CSI U+009B, RLO, backspaces)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from domain.canonical import canonical_json, jcs, sha256_hex
from domain.engine import fact_digest
from domain.errors import RecordError
from domain.record import read_record_file
from tests.cli_helpers import wake
from tests.forge import load
from tests.helpers import FIXTURES

RECORD = FIXTURES / "games" / "morze" / "river_plate-annihilation.wake.json"
SCENARIO = FIXTURES / "scenarios" / "morze" / "river_plate.json"
NASTY = ["\x1b]0;owned\x07", "\x9b31m", "\u202eevil", "abc\x08\x08\x08xyz", "two\nlines"]
BAD = ("\x1b", "\x9b", "\u202e", "\x08", "\x07")


def forged(edit: Callable[[dict[str, Any]], None], path: Path) -> str:
    """``tests.forge.forged`` without validating the edited header (which would refuse it)."""
    return json.dumps(forged_body(edit, load(path)), indent=1, ensure_ascii=False)


def forged_body(edit: Callable[[dict[str, Any]], None], original: dict[str, Any]) -> dict[str, Any]:
    """A copy of a record's body after ``edit``, its chain recomputed (header not validated)."""
    body = copy.deepcopy(original)
    edit(body)
    version = body["header"].get("format_version", 1)
    head = sha256_hex((jcs if version >= 2 else canonical_json)(body["header"]))
    body["chain"]["genesis"] = head
    for event in body["events"]:
        head = event["digest"] = fact_digest(
            head, event["seq"], event["command"], event["topic"], event["automatic"],
            event["payload"], version,
        )  # fmt: skip
    body["chain"]["head"] = head
    return body


def _title(text: str) -> Callable[[dict[str, Any]], None]:
    def edit(body: dict[str, Any]) -> None:
        body["header"]["title"] = text

    return edit


def _side_name(text: str) -> Callable[[dict[str, Any]], None]:
    def edit(body: dict[str, Any]) -> None:
        body["header"]["sides"][0]["name"] = text

    return edit


def _scenario_title(text: str) -> Callable[[dict[str, Any]], None]:
    def edit(body: dict[str, Any]) -> None:
        body["header"]["scenario"]["title"] = text

    return edit


@pytest.mark.parametrize("text", NASTY)
@pytest.mark.parametrize("where", [_title, _side_name, _scenario_title])
def test_a_record_with_control_characters_in_its_names_is_refused(
    where: Callable[[str], Callable[[dict[str, Any]], None]], text: str, tmp_path: Path
) -> None:
    """Issue 23 item 9: the reader refuses it; ``rerun --option`` prints no escape."""
    record = tmp_path / "nasty.wake.json"
    record.write_text(forged(where(text), RECORD), "utf-8")
    with pytest.raises(RecordError, match="control character"):
        read_record_file(record)
    code, out, err = wake("rerun", str(record), "--option", "range_rounding=up")
    assert code == 2 and err.count("\n") == 1
    assert not any(c in out + err for c in BAD)


@pytest.mark.parametrize("text", NASTY)
def test_a_new_game_or_fork_title_with_control_characters_is_refused(
    text: str, tmp_path: Path
) -> None:
    """Issue 23 item 9: ``wake start --title`` and ``wake fork --title`` refuse it."""
    store = str(tmp_path / "s.sqlite3")
    code, _, err = wake("start", "morze", str(SCENARIO), "--title", text, "--store", store)
    assert code == 2 and "control character" in err and err.count("\n") == 1
    assert not any(c in err for c in BAD)
    assert wake("import", str(RECORD), "--store", store)[0] == 0
    gid = read_record_file(RECORD).header.game_id
    code, _, err = wake("fork", gid, "--at", "6", "--title", text, "--store", store)
    assert code == 2 and "control character" in err and err.count("\n") == 1
