"""Simulation: reproducible bot games in parallel processes, statistics with Wilson intervals."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from domain.cli.app import app
from domain.simulate import simulate, summarise, wilson_interval
from domain.store import GameStore
from tests.helpers import FIXTURES, small_scenario


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-3) and high == pytest.approx(0.9433, abs=1e-3)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_parallel_and_serial_runs_agree() -> None:
    """Game k is seed base+k whatever the process: the same outcomes in and out of parallel."""
    serial = simulate("morze", small_scenario(turn_limit=5), 6, options={}, base_seed=3, workers=1)
    parallel = simulate(
        "morze", small_scenario(turn_limit=5), 6, options={}, base_seed=3, workers=2
    )
    assert serial == parallel
    assert [o.seed for o in serial] == list(range(3, 9))


def test_summary_counts_every_game() -> None:
    outcomes = simulate("morze", small_scenario(turn_limit=5), 8, options={}, workers=1)
    summary = summarise(outcomes, ["a", "b"])
    assert sum(summary.wins.values()) == 8
    assert set(summary.mean_vp) == {"a", "b"}
    assert all(0 <= r <= 1 for r in summary.loss_rate_by_class.values())
    assert summary.mean_turns <= 5


def test_cli_simulate_reports_and_saves(tmp_path: Path) -> None:
    store = str(tmp_path / "sim.sqlite3")
    result = CliRunner().invoke(
        app,
        [
            "simulate",
            "morze",
            str(FIXTURES / "scenarios/morze/river_plate.json"),
            "-n",
            "4",
            "--workers",
            "1",
            "--save",
            "--store",
            store,
        ],
    )
    assert result.exit_code == 0, result.output
    assert "95% CI (Wilson)" in result.output and "royal_navy" in result.output
    assert len(GameStore(store).game_ids()) == 4
