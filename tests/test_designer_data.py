"""A rules designer's own data (issue 22 items 9 and 10): data is told by its content digest,
never by its ``source`` label, and a changed table can be given to every tool as a copy of the
shipped data file with values changed.

Item 9 (a wrong result): a River Plate game re-run with a changed class table (PL-5: the light
cruiser's Hit 5 -> 6) that keeps the shipped table's ``source`` was later reported CHANGED by
``wake verify --rerun``: the table was taken for the shipped one and replaced. Now such a game is
NOT RE-RUN (data not available) until the table is given, and then UNCHANGED.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from domain.data_versions import ShippedData, choose_parts, data_digest
from domain.errors import DataNotAvailable
from domain.record import read_record_file
from domain.ruleset import get_ruleset
from tests.cli_helpers import wake
from tests.helpers import FIXTURES
from viewer import report as _report  # noqa: F401  (loaded before pytester runs in process)

pytest_plugins = ["pytester"]

MORZE = FIXTURES / "games" / "morze"
RIVER_PLATE = MORZE / "river_plate-annihilation.wake.json"
DENMARK = MORZE / "denmark_strait-draw.wake.json"  # battleships and a heavy cruiser only
IO_LEGACY = FIXTURES / "legacy" / "iron_oak-1.0" / "hampton_roads-magazine.wake.json"


def shipped_classes() -> dict[str, Any]:
    """Morze's data/classes.json as shipped (the file a designer copies)."""
    text = resources.files("domain.rulesets.morze").joinpath("data/classes.json").read_text()
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@pytest.fixture
def my_classes(tmp_path: Path) -> Path:
    """A copy of the shipped class table, the light cruiser's Hit 5 -> 6 (PL-4b, PL-5), its
    ``source`` left as shipped."""
    table = shipped_classes()
    table["classes"]["light_cruiser"]["hit"] = 6
    path = tmp_path / "my_classes.json"
    path.write_text(json.dumps(table, indent=1), "utf-8")
    return path


def test_a_game_made_with_a_changed_copy_is_not_reported_changed(
    tmp_path: Path, my_classes: Path
) -> None:
    """Item 9 end to end: rerun with the changed table (wrapped as a merge patch, the form that
    worked before), save it, verify --rerun: never a false CHANGED; with the table given, the
    saved game re-runs UNCHANGED."""
    patch = tmp_path / "patch.json"
    patch.write_text(json.dumps({"classes": json.loads(my_classes.read_text())}), "utf-8")
    saved = tmp_path / "x.wake.json"
    code, out, err = wake("rerun", str(RIVER_PLATE), "--data", str(patch), "-o", str(saved))
    assert code == 1, err
    assert "(rule PL-4b" in out
    code, out, err = wake("verify", "--rerun", str(saved))
    assert "CHANGED" not in out.replace("UNCHANGED", ""), out
    assert f"{saved}: NOT RE-RUN (data not available) - the game's classes table" in out
    assert "give it with --data FILE" in out
    assert out.splitlines()[-1].endswith("1 not re-run (data not available)")
    assert code == 1
    code, out, err = wake("verify", "--rerun", str(saved), "--data", str(my_classes))
    assert code == 0, out + err
    assert f"{saved}: UNCHANGED (morze 1.0 -> 1.0, with my_classes.json, as recorded)" in out


def test_a_table_of_its_own_is_kept_as_recorded(tmp_path: Path) -> None:
    """Item 9: a table with a source of its own is the game's own; verify --rerun keeps it."""
    table = shipped_classes()
    table["source"] = "my club's house table"
    table["classes"]["light_cruiser"]["hit"] = 6
    own = tmp_path / "house.json"
    own.write_text(json.dumps(table), "utf-8")
    saved = tmp_path / "house.wake.json"
    code, _, err = wake("rerun", str(RIVER_PLATE), "--data", str(own), "-o", str(saved))
    assert code == 1, err
    code, out, _ = wake("verify", "--rerun", str(saved))
    assert code == 0, out
    assert "UNCHANGED (morze 1.0 -> 1.0, its own classes as recorded)" in out


def test_shipped_data_is_told_by_digest_never_by_label() -> None:
    """Item 9: the shipped table and an earlier shipped version (Iron & Oak 1.0's tables, by
    digest) are replaced by today's; a changed copy with the shipped label is refused; a table
    with another label is kept."""
    shipped = ShippedData(
        parts={"t": {"source": "S", "v": 2}}, earlier={"t": (data_digest({"source": "S", "v": 1}),)}
    )
    for recorded in ({"source": "S", "v": 2}, {"source": "S", "v": 1}):
        (choice,) = choose_parts({"t": recorded}, shipped, {})
        assert choice.reading == "shipped" and choice.part == {"source": "S", "v": 2}
    with pytest.raises(DataNotAvailable, match="t table names the source"):
        choose_parts({"t": {"source": "S", "v": 3}}, shipped, {})
    (given,) = choose_parts({"t": {"source": "S", "v": 3}}, shipped, {"t": {"source": "S", "v": 3}})
    assert given.reading == "given" and not given.changed
    (own,) = choose_parts({"t": {"source": "mine", "v": 3}}, shipped, {})
    assert own.reading == "own" and own.part == {"source": "mine", "v": 3}
    legacy = read_record_file(IO_LEGACY)
    iron_oak = get_ruleset("iron_oak")
    scenario, choices = iron_oak.current_data(legacy.header.scenario)
    tables = next(c for c in choices if c.name == "tables")
    assert tables.reading == "shipped" and tables.changed
    assert scenario["data"]["tables"] == iron_oak.shipped_data().parts["tables"]


def test_every_bundled_records_data_is_a_version_wake_shipped() -> None:
    """Item 9: when a shipped data file changes, the digest of the version games embedded
    before must be listed (``shipped_data().earlier``); every record Wake ships that names a
    shipped table's source is recognised as a shipped version."""
    for path in sorted(FIXTURES.rglob("*.wake.json")):
        header = read_record_file(path).header
        ruleset = get_ruleset(header.ruleset.id)
        shipped = ruleset.shipped_data()
        for name, part in ruleset.data_parts(header.scenario).items():
            label = part.get("source") if isinstance(part, dict) else None
            if label is not None and label == shipped.parts[name].get("source"):
                assert shipped.is_shipped(name, part), f"{path}: {name}"


# --- item 10: --data and --option everywhere ----------------------------------------------------


def test_rerun_takes_a_copy_of_the_shipped_file(my_classes: Path) -> None:
    """Item 10: the copied file is accepted as is (before: ``classes.battleship: Extra inputs
    are not permitted`` until wrapped in {"classes": ...})."""
    code, out, err = wake("rerun", str(RIVER_PLATE), "--data", str(my_classes))
    assert code == 1, err
    assert "ruling: data patched (my_classes.json as the classes table)" in out
    assert "(rule PL-4b" in out and "compared_with: 5 != 6" in out


def test_a_data_file_that_fits_nothing_says_what_fits(tmp_path: Path) -> None:
    """Item 10: a file neither a patch nor a copy names both forms (one line, exit 2)."""
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"battleship": {"hit": 3}}), "utf-8")
    code, out, err = wake("rerun", str(RIVER_PLATE), "--data", str(bad))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "JSON merge patch over the game's scenario" in err
    assert "classes: keys classes, provisional_note, source" in err


def test_verify_rerun_over_a_folder_with_a_changed_table(tmp_path: Path, my_classes: Path) -> None:
    """Item 10: a designer changes one value and reads which games change and where."""
    code, out, err = wake("verify", "--rerun", str(MORZE), "--data", str(my_classes))
    assert code == 1, err
    lines = out.splitlines()
    river = next(line for line in lines if "river_plate-annihilation.wake.json:" in line)
    strait = next(line for line in lines if "denmark_strait-draw.wake.json:" in line)
    assert "CHANGED (morze 1.0 -> 1.0, with my_classes.json) - first at event" in river
    assert "rule PL-4b" in river
    assert "UNCHANGED" in strait
    code, out, _ = wake("verify", "--rerun", str(RIVER_PLATE), "--option", "attacks_per_unit=2")
    assert code == 0 and "UNCHANGED" in out
    code, _, err = wake("verify", str(RIVER_PLATE), "--data", str(my_classes))
    assert code == 2 and "go with --rerun" in err


def test_pytest_plugin_takes_data_and_options(pytester: pytest.Pytester, my_classes: Path) -> None:
    """Item 10: ``--wake-data`` and ``--wake-option`` re-run every record with them."""
    games = pytester.mkdir("games")
    for path in (RIVER_PLATE, DENMARK):
        (games / path.name).write_bytes(path.read_bytes())
    result = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "--wake-rerun", "--wake-data", str(my_classes), "games"
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*river_plate-annihilation.wake.json::verify*"])
    assert "with my_classes.json" in result.stdout.str()
    result = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "--wake-option", "attacks_per_unit=2", "games"
    )
    result.assert_outcomes(passed=2)
    result = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "--wake-option", "initiative_tie=keep_previous", "games"
    )
    assert result.ret != 0


def test_report_takes_data(tmp_path: Path, my_classes: Path) -> None:
    """Item 10: ``wake report --data`` shows the data's ruling diff on the page."""
    page = tmp_path / "r.html"
    code, _, err = wake(
        "report", str(RIVER_PLATE), "10", "-o", str(page), "--data", str(my_classes)
    )
    assert code == 0, err
    html = page.read_text("utf-8")
    assert "my_classes.json as the classes table" in html and "PL-4b" in html
