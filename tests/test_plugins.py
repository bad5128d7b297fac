"""Rulesets are plugins (issue 9, DESIGN 11): the built-in ones and a third party's register the
same way, through the ``wake.rulesets`` entry-point group; the engine imports none by name; the
published conformance suite runs against a ruleset Wake has never heard of; a plugin that does
not load is named with the reason and takes nothing else down."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain import ruleset as registry
from domain.conformance import check_refusals, check_ruleset
from domain.errors import UnknownRuleset
from tests.helpers import ROOT

WAKE = [sys.executable, "-m", "domain.cli.app"]


def _package(where: Path, points: dict[str, str]) -> None:
    """Install (by path) a distribution that declares ``points`` in the ``wake.rulesets`` group."""
    info = where / "wake_duel-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: wake-duel\nVersion: 0.1\n")
    lines = "".join(f"{name} = {target}\n" for name, target in points.items())
    (info / "entry_points.txt").write_text(f"[wake.rulesets]\n{lines}")


@pytest.fixture
def third_party(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A package providing ``duel`` (tests/plugin_toy) and ``broken`` (a missing module)."""
    _package(
        tmp_path,
        {"duel": "tests.plugin_toy.duel:DuelRuleset", "broken": "wake_missing.mod:Nothing"},
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry._entry_points.cache_clear()
    yield tmp_path
    registry._entry_points.cache_clear()
    for rid in ("duel", "broken"):
        registry._INSTANCES.pop(rid, None)


def test_the_built_in_rulesets_are_entry_points() -> None:
    """Nothing is registered in process: morze and iron_oak come from the package's metadata."""
    found = {p.id: p for p in registry.plugins()}
    assert {"morze", "iron_oak"} <= set(found)
    assert found["morze"].distribution == "wake"
    assert found["iron_oak"].target == "domain.rulesets.iron_oak.ruleset:IronOakRuleset"
    assert not registry._REGISTERED


def test_a_third_party_ruleset_plugs_in_and_passes_the_conformance_suite(
    third_party: Path, tmp_path: Path
) -> None:
    assert "duel" in registry.known_rulesets()
    assert registry.get_ruleset("duel").meta.name.startswith("Gunboat duel")
    session = check_ruleset("duel", {"id": "harbour"}, workdir=tmp_path)
    assert session.state.result is not None
    assert check_refusals("duel", {"id": "harbour"}) > 0


def test_a_plugin_that_does_not_load_is_named_with_the_reason(third_party: Path) -> None:
    found = {p.id: p for p in registry.plugins()}
    assert "ModuleNotFoundError" in found["broken"].error
    assert found["duel"].error == "" and found["morze"].error == ""
    with pytest.raises(UnknownRuleset, match="ruleset plugin 'broken'"):
        registry.get_ruleset("broken")


def test_wake_rulesets_lists_the_plugins_found(third_party: Path, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(third_party)])}
    out = subprocess.run(
        [*WAKE, "rulesets"], capture_output=True, text=True, env=env, cwd=ROOT, check=True
    ).stdout
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert "plugin tests.plugin_toy.duel:DuelRuleset [wake-duel]" in lines["duel"]
    assert "plugin domain.rulesets.morze:MorzeRuleset [wake]" in lines["morze"]
    assert "NOT LOADED" in lines["broken"] and "ModuleNotFoundError" in lines["broken"]
    scenario = tmp_path / "duel.json"
    scenario.write_text(json.dumps({"id": "harbour"}))
    store = str(tmp_path / "s.sqlite3")
    started = subprocess.run(
        [*WAKE, "start", "duel", str(scenario), "--seed", "4", "--store", store],
        capture_output=True, text=True, env=env, cwd=ROOT,
    )
    assert started.returncode == 0, started.stderr
    refused = subprocess.run(
        [*WAKE, "start", "broken", str(scenario), "--store", store],
        capture_output=True, text=True, env=env, cwd=ROOT,
    )
    assert refused.returncode == 2
    assert "ruleset plugin 'broken'" in refused.stderr + refused.stdout
    assert "Traceback" not in refused.stderr
