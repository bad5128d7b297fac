"""``wake annotate`` / ``annotations`` / ``withdraw-annotation``, ``wake rerun --annotate`` and the
dispute report's annotations (issue 14).

Bad input exits 2 with one line on stderr and stores nothing; a ruling diff kept with
``--annotate`` lands on the first event that changes (on the game when nothing changes); the
report lists the event's and the game's annotations as escaped text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from domain.record import read_record_file
from domain.store import GameStore
from tests.cli_helpers import wake
from tests.helpers import FIXTURES

GAMES = FIXTURES / "games"
RIVER_PLATE = "00000000-0000-4000-8000-000000000001"
HAMPTON = "00000000-0000-4000-8000-000000000101"
DEPLOYMENT = "00000000-0000-4000-8000-000000000204"
FILES = {
    RIVER_PLATE: GAMES / "morze" / "river_plate-annihilation.wake.json",
    HAMPTON: GAMES / "iron_oak" / "hampton_roads-magazine.wake.json",
    DEPLOYMENT: GAMES / "armada" / "core_deployment-last-ship.wake.json",
}
HTML = '<img src="http://127.0.0.1:9/x.png"> <b>bold</b> & "quoted"'


@pytest.fixture()
def store(tmp_path: Path) -> str:
    location = str(tmp_path / "cli.sqlite3")
    st = GameStore(location)
    for path in FILES.values():
        rec = read_record_file(path)
        st.import_game(rec.header, rec.events, rec.seed_reveal)
    return location


def test_annotate_lists_and_exports(store: str, tmp_path: Path) -> None:
    code, out, _ = wake(
        "annotate", RIVER_PLATE, "12", "--author", "Ann", "--kind", "disputed",
        "--text", "the shot\nshould have missed", "--store", store,
    )  # fmt: skip
    assert code == 0 and "annotation #1 on event 12" in out
    code, out, _ = wake(
        "annotate", RIVER_PLATE, "0", "--author", "Bob", "--kind", "note", "--text", "gg",
        "--store", store,
    )  # fmt: skip
    assert code == 0 and "annotation #2 on the game" in out
    code, out, _ = wake("annotations", RIVER_PLATE, "--store", store)
    assert code == 0
    assert re.search(r"^#1  event 12  disputed  by Ann  \S+Z\n    the shot\n    should", out, re.M)
    assert "#2  the game  note  by Bob" in out
    code, out, _ = wake("annotations", RIVER_PLATE, "--kind", "note", "--json", "--store", store)
    assert code == 0 and [n["number"] for n in json.loads(out)] == [2]
    code, out, _ = wake("annotations", RIVER_PLATE, "--event", "12", "--author", "Bob",
                        "--store", store)  # fmt: skip
    assert code == 0 and "no annotations" in out
    target = tmp_path / "out.wake.json"
    assert wake("export", RIVER_PLATE, "-o", str(target), "--store", store)[0] == 0
    rec = read_record_file(target, strict=True)
    assert [n.number for n in rec.annotations or []] == [1, 2]
    code, out, err = wake("verify", str(target))  # verify reports on stderr, beside its progress
    assert code == 0 and "2 annotation(s), each bound to this chain" in out + err
    other = str(tmp_path / "other.sqlite3")
    code, out, _ = wake("import", str(target), "--store", other)
    assert code == 0, out
    assert GameStore(other).annotations(RIVER_PLATE) == rec.annotations


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope", "1", "--kind", "note"], "error (not_found): 'nope' is not a game id"),
        (["00000000-0000-4000-8000-0000000000ff", "1", "--kind", "note"], "no game"),
        ([RIVER_PLATE, "292", "--kind", "note"], "error (no_event): "),
        ([RIVER_PLATE, "1", "--kind", "verdict"], "unknown annotation kind 'verdict'"),
        ([RIVER_PLATE, "1", "--kind", "note", "--text", "   "], "the text is empty"),
        ([RIVER_PLATE, "1", "--kind", "note", "--text", "\x1b[2J"], "U+001B"),
        ([RIVER_PLATE, "1", "--kind", "note", "--text", "x" * 4001], "at most 4000"),
    ],
)
def test_annotate_bad_input_exits_2_with_one_line_and_stores_nothing(
    store: str, args: list[str], message: str
) -> None:
    full = [*args]
    if "--text" not in full:
        full += ["--text", "x"]
    code, out, err = wake("annotate", *full, "--author", "Ann", "--store", store)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1, err
    assert GameStore(store).annotation_history(RIVER_PLATE) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kind", "verdict"], "unknown annotation kind"),
        (["--event", "999"], "not 999"),
    ],
)
def test_annotations_bad_filters_exit_2(store: str, args: list[str], message: str) -> None:
    code, _, err = wake("annotations", RIVER_PLATE, *args, "--store", store)
    assert code == 2 and message in err and err.count("\n") == 1


def test_withdraw_by_its_author_only(store: str) -> None:
    wake("annotate", RIVER_PLATE, "3", "--author", "Ann", "--kind", "blunder", "--text", "x",
         "--store", store)  # fmt: skip
    code, _, err = wake("withdraw-annotation", RIVER_PLATE, "1", "--author", "Bob",
                        "--store", store)  # fmt: skip
    assert code == 2 and "only its author" in err
    code, out, _ = wake("withdraw-annotation", RIVER_PLATE, "1", "--author", "Ann",
                        "--store", store)  # fmt: skip
    assert code == 0 and "withdrawn" in out
    assert "no annotations" in wake("annotations", RIVER_PLATE, "--store", store)[1]
    code, out, _ = wake("annotations", RIVER_PLATE, "--withdrawn", "--store", store)
    assert "#1  event 3  blunder  by Ann" in out and "(withdrawn " in out


def test_rerun_annotate_keeps_the_ruling_on_the_first_changed_event(store: str) -> None:
    """IO-6.2: with ``shield_line=always`` event 203 of the magazine game changes."""
    code, out, _ = wake(
        "rerun", HAMPTON, "--option", "shield_line=always", "--annotate", "Umpire",
        "--store", store,
    )  # fmt: skip
    assert code == 1, out
    first = re.search(r"event (\d+) differs on re-run", out)
    assert first is not None
    seq = int(first[1])
    assert f"kept as annotation #1 on event {seq} (ruling by Umpire)" in out
    [note] = GameStore(store).annotations(HAMPTON)
    assert (note.event, note.kind, note.author) == (seq, "ruling", "Umpire")
    assert note.text.startswith('ruling diff (wake rerun):\nruling: shield_line = "always"')
    assert f"event {seq} differs on re-run (rule IO-6.2" in note.text
    assert "re-run line:" in note.text
    assert note.digest == GameStore(store).facts(HAMPTON)[1][seq - 1].digest


def test_rerun_annotate_on_the_game_when_nothing_changes_or_on_a_refused_order(
    store: str,
) -> None:
    """Armada: ``points=updated`` cannot matter in this game; ``evade=ltp_2015`` (SWA-DEF)
    refuses an order with no event differing before it."""
    code, out, _ = wake(
        "rerun", DEPLOYMENT, "--option", "points=updated", "--annotate", "Umpire",
        "--store", store,
    )  # fmt: skip
    assert code == 0 and "kept as annotation #1 on the game" in out
    code, out, _ = wake(
        "rerun", DEPLOYMENT, "--option", "evade=ltp_2015", "--annotate", "Umpire",
        "--store", store,
    )  # fmt: skip
    refused = re.search(r"recorded event (\d+)\) is refused on re-run", out)
    assert code == 1 and refused is not None
    assert f"kept as annotation #2 on event {refused[1]}" in out
    notes = GameStore(store).annotations(DEPLOYMENT)
    assert [(n.event, n.kind) for n in notes] == [(0, "ruling"), (int(refused[1]), "ruling")]
    assert "identical: all" in notes[0].text and "[rule SWA-DEF]" in notes[1].text


@pytest.mark.parametrize(
    ("game", "author", "message"),
    [
        (str(FILES[HAMPTON]), "Umpire", "--annotate keeps the ruling diff with a stored game"),
        (HAMPTON, " ", "the author is empty"),
    ],
)
def test_rerun_annotate_bad_input_exits_2_before_rerunning(
    store: str, game: str, author: str, message: str
) -> None:
    code, out, err = wake(
        "rerun", game, "--option", "shield_line=always", "--annotate", author, "--store", store
    )
    assert code == 2 and out == "" and message in err and err.count("\n") == 1
    assert GameStore(store).annotation_history(HAMPTON) == []


def test_report_lists_the_events_and_the_games_annotations_escaped(
    store: str, tmp_path: Path
) -> None:
    st = GameStore(store)
    st.annotate(RIVER_PLATE, 12, "disputed", "Ann <i>", f"text {HTML}\nsecond line")
    st.annotate(RIVER_PLATE, 0, "note", "Bob", "on the whole game")
    st.annotate(RIVER_PLATE, 13, "note", "Cy", "another event: not in this report")
    page_path = tmp_path / "report.html"
    code, _, err = wake("report", RIVER_PLATE, "12", "-o", str(page_path), "--store", store)
    assert code == 0, err
    page = page_path.read_text("utf-8")
    section = page[page.index("<h2>Annotations</h2>") :]
    assert "&lt;img src=&quot;http://127.0.0.1:9/x.png&quot;&gt; &lt;b&gt;bold&lt;/b&gt;" in section
    assert "<img src" not in section and "<b>bold" not in section
    assert "Ann &lt;i&gt;" in section and "second line" in section
    assert "on the whole game" in section
    assert "not in this report" not in page
    # the same page from the exported record
    record = tmp_path / "rp.wake.json"
    assert wake("export", RIVER_PLATE, "-o", str(record), "--store", store)[0] == 0
    page_path2 = tmp_path / "report2.html"
    assert wake("report", str(record), "12", "-o", str(page_path2))[0] == 0
    again = page_path2.read_text("utf-8")
    assert again[again.index("<h2>Annotations</h2>") :] == section


def test_report_shows_the_ruling_diff_kept_for_its_event(store: str, tmp_path: Path) -> None:
    """The ruling diffs that were run for an event are kept with the game and in its report."""
    code, _, _ = wake(
        "rerun", HAMPTON, "--option", "shield_line=always", "--annotate", "Umpire",
        "--store", store,
    )  # fmt: skip
    assert code == 1
    [note] = GameStore(store).annotations(HAMPTON)
    page_path = tmp_path / "report.html"
    code, _, err = wake("report", HAMPTON, str(note.event), "-o", str(page_path), "--store", store)
    assert code == 0, err
    page = page_path.read_text("utf-8")
    assert "Ruling diffs and rulings kept with the game for this event: #1 (event" in page
    section = page[page.index("<h2>Annotations</h2>") :]
    assert "ruling diff (wake rerun):\nruling: shield_line = &quot;always&quot;" in section
    assert f"event {note.event} differs on re-run (rule IO-6.2" in section


def test_report_says_when_there_are_no_annotations(store: str, tmp_path: Path) -> None:
    page_path = tmp_path / "report.html"
    assert wake("report", RIVER_PLATE, "12", "-o", str(page_path), "--store", store)[0] == 0
    assert "No annotations on this event or on the game" in page_path.read_text("utf-8")
