"""Issue 24 item 1: ``wake analyse`` — decision points, rollouts, the decision/luck split,
reproducible seeds, results beside the game (resumable), the record section re-checked on
import, and no analysis in a side's view of a live game. Few rollouts: these check behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domain.analysis import stored
from domain.analysis.model import Analysis, read_model
from domain.analysis.run import analyse, plan, recheck, spec_for
from domain.cli.app import app
from domain.distributed import InProcess
from domain.engine import bot_order, header_for
from domain.record.reader import read_record_file
from domain.store import GameStore
from tests.helpers import FIXTURES, small_scenario

GAME = FIXTURES / "games/morze/river_plate-annihilation.wake.json"
GAME_ID = "00000000-0000-4000-8000-000000000001"


def _analysis(rollouts: int = 3, batch: int = 10) -> Analysis:
    rec = read_record_file(GAME)
    spec = spec_for(rec.header, "activation", rollouts)
    points = plan(rec.header, rec.events, "activation")
    estimates = analyse(rec.header, rec.events, spec, points, InProcess(), batch=batch)
    return Analysis(spec=spec, points=points, estimates=estimates)


def test_decision_and_luck_add_up_to_the_swing() -> None:
    """decision + luck = P(after) − P(before) for every side at every point (issue 24)."""
    analysis = _analysis()
    view = read_model(analysis, ["royal_navy", "kriegsmarine"])
    assert view.points and len(view.points) == len(analysis.points)
    for point in view.points:
        for before, after in zip(point.before, point.after, strict=True):
            swing = after.p - before.p
            total = point.decision[before.side] + point.luck[before.side]
            assert total == pytest.approx(swing)
            assert 0.0 <= after.low <= after.p <= after.high <= 1.0
    assert "Wake's bots" in view.caveat


def test_rollouts_are_the_same_whatever_the_batches() -> None:
    """Seeds derive from the game and the rollout index: batches of 1 or 10, same counts."""
    assert _analysis(batch=1).estimates == _analysis(batch=10).estimates


def test_an_order_the_bots_would_give_has_no_decision() -> None:
    """Common random numbers: a bot game analysed by the same bots shows decision 0 exactly
    at every point (the order replayed equals the bots' own play, die for die)."""
    view = read_model(_analysis(), ["royal_navy", "kriegsmarine"])
    assert all(p.decision[p.side] == 0 for p in view.points)


def test_analysis_is_stored_beside_the_game_and_resumes(tmp_path: Path) -> None:
    """Estimates are kept as they finish: an analysis stopped half-way resumes with them, the
    game's chain is untouched, and the finished result equals an uninterrupted one."""
    st = GameStore(str(tmp_path / "s.sqlite3"))
    rec = read_record_file(GAME)
    st.import_game(rec.header, rec.events)
    head = st.state(GAME_ID).head
    spec = spec_for(rec.header, "activation", 3)
    points = plan(rec.header, rec.events, "activation")

    class Stop(Exception):
        pass

    def crash_after_two(estimate: object) -> None:
        stored.add(st, GAME_ID, estimate)  # type: ignore[arg-type]
        if len(stored.stored_spec(st, GAME_ID)[1]) == 2:
            raise Stop

    stored.begin(st, GAME_ID, spec)
    with pytest.raises(Stop):
        analyse(rec.header, rec.events, spec, points, InProcess(), done=crash_after_two)
    known = stored.begin(st, GAME_ID, spec)
    assert len(known) == 2
    seen: list[object] = []
    final = analyse(
        rec.header, rec.events, spec, points, InProcess(), known=known, done=seen.append
    )
    assert len(seen) == len(final) - 2
    assert final == _analysis().estimates
    assert st.state(GAME_ID).head == head


def test_a_side_sees_no_analysis_of_a_live_game(tmp_path: Path) -> None:
    """A side's view of a live game never shows the analysis (it would leak hidden
    information); the umpire's does, and a side's does once the game is over."""
    st = GameStore(str(tmp_path / "s.sqlite3"))
    header = header_for("morze", small_scenario(turn_limit=3), game_id=GAME_ID, seed=4)
    st.create_game(header)
    for _ in range(6):
        st.submit_next(GAME_ID, bot_order)
    assert st.state(GAME_ID).result is None
    _, facts = st.facts(GAME_ID)
    spec = spec_for(header, "order", 2)
    points = plan(header, facts, "order")
    stored.begin(st, GAME_ID, spec)
    analyse(header, facts, spec, points, InProcess(), done=lambda e: stored.add(st, GAME_ID, e))
    assert stored.for_viewer(st, GAME_ID, None) is not None
    assert stored.for_viewer(st, GAME_ID, "a") is None
    assert stored.for_viewer(st, GAME_ID, "b") is None


def test_export_import_rechecks_and_refuses_a_forged_analysis(tmp_path: Path) -> None:
    """`wake export --analysis` carries it outside the chain; `wake import` re-runs a sample:
    the genuine section is kept, a forged one refused with one line and nothing stored."""
    runner = CliRunner()
    store = str(tmp_path / "a.sqlite3")
    assert runner.invoke(app, ["import", str(GAME), "--store", store]).exit_code == 0
    done = runner.invoke(
        app, ["analyse", GAME_ID, "--rollouts", "2", "--workers", "1", "--store", store]
    )
    assert done.exit_code == 0, done.output
    assert "Wake's bots" in done.output
    out = tmp_path / "g.wake.json"
    exported = runner.invoke(
        app, ["export", GAME_ID, "--analysis", "--store", store, "-o", str(out)]
    )
    assert exported.exit_code == 0, exported.output
    body = json.loads(out.read_text())
    assert body["analysis"]["spec"]["rollouts"] == 2
    other = str(tmp_path / "b.sqlite3")
    assert runner.invoke(app, ["import", str(out), "--store", other]).exit_code == 0
    assert stored.stored_analysis(GameStore(other), GAME_ID) is not None
    sides = [s["id"] for s in body["header"]["sides"]]
    for estimate in body["analysis"]["estimates"]:  # every rollout won by the other side
        winner = next(iter(estimate["outcomes"]))
        estimate["outcomes"] = {sides[1] if winner == sides[0] else sides[0]: 2}
    forged = tmp_path / "forged.wake.json"
    forged.write_text(json.dumps(body))
    third = str(tmp_path / "c.sqlite3")
    refused = runner.invoke(app, ["import", str(forged), "--store", third])
    assert refused.exit_code == 2
    assert "analysis section is refused" in refused.output
    assert GameStore(third).game_ids() == []


def test_recheck_refuses_a_changed_spec() -> None:
    """An analysis made with other bots or seeds is refused, not re-run as if it were ours."""
    rec = read_record_file(GAME)
    analysis = _analysis(rollouts=2)
    changed = analysis.model_copy(
        update={"spec": analysis.spec.model_copy(update={"ruleset_version": "0.0"})}
    )
    problem = recheck(rec.header, rec.events, changed, 1, InProcess())
    assert problem is not None and "run `wake analyse` again" in problem
    assert recheck(rec.header, rec.events, analysis, 1, InProcess()) is None
