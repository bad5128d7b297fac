"""Issue 23 item 3 (and issue 21 item 1): annotations are redacted for a side like every other
fact. Each says who may see it (a side, the umpire, everyone); ``wake annotations --as``, ``wake
report --as``, ``wake export --as`` and the viewer at ``?as=SIDE`` show a side only what it may
see. A ruling diff kept by ``wake rerun --annotate`` in a hidden-information game quotes unredacted
values, so it is the umpire's alone by default; an annotation written before visibility existed
is the umpire's alone in such a game and everyone's in a game without hidden information."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from domain.annotations import Annotation
from domain.record import read_record_file
from domain.store import GameStore
from tests.cli_helpers import wake
from tests.helpers import FIXTURES

APP = str(Path(__file__).resolve().parents[1] / "viewer" / "app.py")
HAMPTON = "00000000-0000-4000-8000-000000000101"  # Iron & Oak: order cards and hands are hidden
RIVER_PLATE = "00000000-0000-4000-8000-000000000001"  # Morze: nothing is hidden
FILES = {
    HAMPTON: FIXTURES / "games" / "iron_oak" / "hampton_roads-magazine.wake.json",
    RIVER_PLATE: FIXTURES / "games" / "morze" / "river_plate-annihilation.wake.json",
}
MARKS = {"USA": "secretusaonly", "umpire": "umpirenotexyz", "all": "forallabc"}


@pytest.fixture()
def store(tmp_path: Path) -> str:
    location = str(tmp_path / "notes.sqlite3")
    st = GameStore(location)
    for path in FILES.values():
        rec = read_record_file(path)
        st.import_game(rec.header, rec.events, rec.seed_reveal)
    for visible, mark in MARKS.items():
        code, out, err = wake(
            "annotate", HAMPTON, "5", "--author", "Ann", "--kind", "note", "--text", mark,
            "--visible-to", visible, "--store", location,
        )  # fmt: skip
        assert code == 0 and f"visible to {visible}" in out, err
    return location


def _listed(store: str, *args: str) -> set[str]:
    code, out, err = wake("annotations", HAMPTON, "--json", *args, "--store", store)
    assert code == 0, err
    return {note["text"] for note in json.loads(out)}


def test_annotations_as_a_side_lists_what_it_may_see(store: str) -> None:
    """Issue 23 item 3: a side sees its own and everyone's; the umpire sees all."""
    assert _listed(store) == set(MARKS.values())
    assert _listed(store, "--as", "USA") == {MARKS["USA"], MARKS["all"]}
    assert _listed(store, "--as", "CSA") == {MARKS["all"]}
    code, _, err = wake("annotations", HAMPTON, "--as", "UNION", "--store", store)
    assert code == 2 and "no side 'UNION'" in err and err.count("\n") == 1


def test_a_visibility_the_game_does_not_have_is_refused(store: str) -> None:
    """Issue 23 item 3: ``--visible-to`` names a side of the game, the umpire or all."""
    code, _, err = wake(
        "annotate", HAMPTON, "5", "--author", "Ann", "--kind", "note", "--text", "x",
        "--visible-to", "Kriegsmarine", "--store", store,
    )  # fmt: skip
    assert code == 2 and "not 'all', 'umpire' or one of the game's sides" in err
    assert len(GameStore(store).annotations(HAMPTON)) == len(MARKS)


def test_a_ruling_diff_in_a_hidden_information_game_is_the_umpires(
    store: str, tmp_path: Path
) -> None:
    """Issue 23 item 3: ``rerun --annotate`` quotes unredacted values: umpire-only by default,
    and neither ``report --as`` nor ``export --as`` shows it to a side."""
    code, _, err = wake(
        "rerun", HAMPTON, "--option", "shield_line=always", "--annotate", "Umpire",
        "--store", store,
    )  # fmt: skip
    assert code == 1, err
    ruling = GameStore(store).annotations(HAMPTON)[-1]
    assert ruling.kind == "ruling" and ruling.visible_to == "umpire"
    for side in ("CSA", "USA"):
        page = tmp_path / f"{side}.html"
        code, _, err = wake(
            "report", HAMPTON, str(ruling.event), "-o", str(page), "--as", side, "--store", store
        )
        assert code == 0, err
        assert "ruling diff (wake rerun)" not in page.read_text("utf-8")
    umpire = tmp_path / "umpire.html"
    assert wake("report", HAMPTON, str(ruling.event), "-o", str(umpire), "--store", store)[0] == 0
    assert "ruling diff (wake rerun)" in umpire.read_text("utf-8")
    out = tmp_path / "csa.json"
    assert wake("export", HAMPTON, "--as", "CSA", "-o", str(out), "--store", store)[0] == 0
    texts = {note["text"] for note in json.loads(out.read_text("utf-8"))["annotations"]}
    assert texts == {MARKS["all"]}


def test_old_annotations_without_visibility(tmp_path: Path) -> None:
    """Issue 23 item 3: a record's annotation without ``visible_to`` is the umpire's alone in
    Iron & Oak and everyone's in Morze."""
    store = str(tmp_path / "old.sqlite3")
    st = GameStore(store)
    for path in FILES.values():
        rec = read_record_file(path)
        digest = rec.events[2].digest
        old = Annotation(
            number=1, event=3, digest=digest, kind="note", author="Ann",
            time="2026-01-01T00:00:00Z", text="an old note",
        )  # fmt: skip
        assert "visible_to" not in old.model_dump(mode="json")
        st.import_game(rec.header, rec.events, rec.seed_reveal, annotations=[old])
    assert wake("annotations", HAMPTON, "--as", "USA", "--store", store)[1].startswith("no ")
    code, out, _ = wake("annotations", RIVER_PLATE, "--as", "royal_navy", "--store", store)
    assert code == 0 and "an old note" in out


def _everything(at: AppTest) -> str:
    """Every element of the page, as its protobuf text (strings, tables, components)."""
    found: list[str] = []

    def walk(node: Any) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None:
            found.append(str(proto))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return "\n".join(found)


@pytest.mark.parametrize(
    ("side", "seen"), [("CSA", {"all"}), ("USA", {"USA", "all"}), (None, set(MARKS))]
)
def test_the_viewer_shows_a_side_only_its_annotations(
    side: str | None, seen: set[str], store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23 item 3: the viewer at ``?as=SIDE`` (the umpire without it)."""
    monkeypatch.setenv("WAKE_STORE", store)
    monkeypatch.setattr(sys, "argv", ["app.py"])
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["game"] = HAMPTON
    at.query_params["event"] = "5"
    if side is not None:
        at.query_params["as"] = side
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    page = _everything(at)
    assert {who for who, mark in MARKS.items() if mark in page} == seen
