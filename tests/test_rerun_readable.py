"""Readable ruling diffs (issue 22 item 11): a list field's diff names the element added or
removed (not two copies of the list cut at the same prefix), long strings show where they
differ, values read as JSON (no Python reprs), and the ruling line names the option's own rule."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from domain.cli.app import app
from domain.divergence import show_diff
from domain.record import read_record_file
from domain.rerun import FieldDiff, Ruling, field_diffs, rerun
from domain.ruleset import get_ruleset, known_rulesets
from tests.helpers import FIXTURES

runner = CliRunner()
FIRE5 = FIXTURES / "games" / "iron_oak" / "mobile_bay-fire5.wake.json"
SMOKE = {"reason": "light smoke on fort_gaines.north_face", "rule": "IO-6.2.3C", "value": -1}
RAPID = {"reason": "Rapid Fire card", "rule": "IO-7.0", "value": 1}


def test_a_list_diff_names_the_element_added_or_removed() -> None:
    """Item 11: [RAPID] -> [SMOKE, RAPID] is one element added at [0], shown whole."""
    diffs = field_diffs({"roll": {"modifiers": [RAPID]}}, {"roll": {"modifiers": [SMOKE, RAPID]}})
    assert diffs == [FieldDiff("roll.modifiers[0]", "(absent)", SMOKE)]
    line = show_diff(diffs[0])
    assert line.startswith("roll.modifiers[0]: added {")
    assert '"rule": "IO-6.2.3C"' in line and '"value": -1' in line
    removed = field_diffs([1, 2, 3], [1, 3])
    assert removed == [FieldDiff("[1]", 2, "(absent)")]
    assert show_diff(removed[0]) == "[1]: removed 2"
    # a replaced element of a list that also grew is compared field by field
    assert field_diffs([{"a": 1}, 5], [{"a": 2}, 5, 6]) == [
        FieldDiff("[0].a", 1, 2),
        FieldDiff("[2]", "(absent)", 6),
    ]


def test_values_read_as_json_and_long_strings_show_where_they_differ() -> None:
    """Item 11 (and the house rule: no Python reprs in text a person reads)."""
    assert show_diff(FieldDiff("outcome", "success", "failure")) == (
        'outcome: "success" != "failure"'
    )
    assert show_diff(FieldDiff("success", True, False)) == "success: true != false"
    head = "a shield line that reads the same for a long while, " * 3
    line = show_diff(FieldDiff("band_text", head + "then 2 hits", head + "then no hits"))
    assert "2 hits" in line and "no hits" in line


def test_the_cli_shows_the_added_modifier_and_the_options_rule() -> None:
    """Item 11 end to end: ``smoke_penalises=both`` adds a smoke modifier (IO-6.2.3C) to a
    roll that already had one (Rapid Fire, IO-7.0); the diff shows it, and the ruling line
    names the option's rule, IO-6.2.3C (the event's own rule is IO-6.2)."""
    result = runner.invoke(app, ["rerun", str(FIRE5), "--option", "smoke_penalises=both"])
    assert result.exit_code == 1
    out = result.stdout
    assert "roll.modifiers[0]: added {" in out and '"rule": "IO-6.2.3C"' in out
    ruling = next(line for line in out.splitlines() if line.startswith("ruling: "))
    assert "smoke_penalises" in ruling and "IO-6.2.3C" in ruling
    assert "'" not in out.split("differing fields")[1].split("first refused")[0]


def test_every_option_of_every_ruleset_names_its_rule() -> None:
    """Item 11: the ruling line can name an option's own rule only if every option has one."""
    for ruleset_id in known_rulesets():
        ruleset = get_ruleset(ruleset_id)
        options = ruleset.resolve_options({})
        missing = [name for name in options if not ruleset.option_rule(name)]
        assert not missing, f"{ruleset_id}: options without a rule: {missing}"
        for name in options:
            assert ruleset.option_rule(name).startswith(ruleset.meta.rule_prefix + "-"), name


def test_the_report_page_shows_the_added_element(tmp_path: Path) -> None:
    """Item 11 in the dispute report: the same readable diff."""
    record = read_record_file(FIRE5)
    report = rerun(record.header, record.events, Ruling(options={"smoke_penalises": "both"}))
    assert report.divergence is not None
    seq = report.divergence.seq
    out = tmp_path / "r.html"
    result = runner.invoke(
        app, ["report", str(FIRE5), str(seq), "-o", str(out), "--option", "smoke_penalises=both"]
    )
    assert result.exit_code == 0, result.output
    page = out.read_text("utf-8")
    assert "roll.modifiers[0]: added {" in page and "IO-6.2.3C" in page
