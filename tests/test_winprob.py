"""Issue 24 item 2: the win-probability graph's read model and what the scrubber receives.

The analysed fixture (``channel_skirmish-analysed``: ``wake analyse --every order --rollouts
40`` exported with ``--analysis``) is a finished game; its prefix with the points analysed so
far stands for a live game. The graph goes to the umpire and, once the game is over, to every
side; a side's view (or the public page) of a live game carries no analysis at all.
"""

from __future__ import annotations

import base64
import itertools
import json
import zlib
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from domain.analysis import stored
from domain.analysis.model import CAVEAT, Analysis, Estimate
from domain.record import read_record_file
from domain.record.model import Record
from domain.scribe.table import PUBLIC
from domain.store import GameStore
from tests.helpers import FIXTURES
from viewer.loading import from_file
from viewer.scrubber.payload import encode
from viewer.timeline import Timeline
from viewer.winprob import (
    MIN_SWING,
    TITLE,
    TURNING_POINTS,
    graph_data,
    keep_analysis,
    record_analysis,
    scrubber_payload,
    signed,
)

ANALYSED = FIXTURES / "games/morze/channel_skirmish-analysed.wake.json"
LIVE_AT = 150  # events of the live prefix


@cache
def _record() -> Record:
    return read_record_file(ANALYSED, strict=True)


@cache
def _timeline(length: int | None = None) -> Timeline:
    rec = _record()
    return Timeline(rec.header, rec.events[:length] if length else rec.events)


def _analysis() -> Analysis:
    found = _record().analysis
    assert found is not None, "the analysed fixture lost its analysis section"
    return found


def _live() -> tuple[Timeline, Analysis]:
    """The game after LIVE_AT events, with the points and estimates analysed up to there."""
    whole = _analysis()
    points = [p for p in whole.points if p.after <= LIVE_AT]
    estimates = [e for e in whole.estimates if e.seq <= LIVE_AT]
    assert points and len(points) < len(whole.points)
    return _timeline(LIVE_AT), whole.model_copy(
        update={"points": points, "estimates": estimates}
    )


def _sent(payload: dict[str, Any]) -> str:
    """The payload as the browser receives it, inflated back to its JSON text."""
    return zlib.decompress(base64.b64decode(encode(payload).data)).decode("utf-8")


def test_the_umpire_and_every_side_of_a_finished_game_get_the_graph() -> None:
    tl = _timeline()
    assert tl.final.result is not None
    sides = [s.id for s in tl.header.sides]
    for viewer in (None, *sides, PUBLIC):
        graph = scrubber_payload(tl, viewer, _analysis()).get("winprob")
        assert graph is not None, viewer
        assert graph["title"] == TITLE and graph["caveat"] == CAVEAT
        assert "bots" in graph["title"] and "not a truth" in graph["caveat"]
        assert set(graph["series"]) == set(sides)
        for side, points in graph["series"].items():
            events = [p[0] for p in points]
            assert events == sorted(set(events)) and events[0] >= 0 and events[-1] <= tl.length
            for _, p, low, high in points:
                assert 0 <= low <= p <= high <= 1, side
    # each plotted value is a stored estimate's share of wins
    found = {e.seq: e for e in _analysis().estimates if e.start == "position"}
    graph = graph_data(tl, _analysis(), None)
    assert graph is not None
    for seq, p, _, _ in graph["series"]["royal_navy"]:
        estimate = found[seq]
        assert p == pytest.approx(estimate.outcomes.get("royal_navy", 0) / estimate.rollouts)


def test_a_side_sees_no_analysis_of_a_live_game() -> None:
    """Issue 24: during a live game a side's view never shows the analysis (nor the public
    page); the umpire's does."""
    tl, analysis = _live()
    assert tl.final.result is None
    umpire = scrubber_payload(tl, None, analysis)
    assert "winprob" in umpire and CAVEAT in _sent(umpire)
    for viewer in ("royal_navy", "kriegsmarine", PUBLIC):
        payload = scrubber_payload(tl, viewer, analysis)
        assert "winprob" not in payload, viewer
        text = _sent(payload)
        assert CAVEAT not in text and TITLE not in text and "turning point" not in text


def test_turning_points_are_the_biggest_swings() -> None:
    graph = graph_data(_timeline(), _analysis(), None)
    assert graph is not None
    turning = graph["turning"]
    assert 1 <= len(turning) <= TURNING_POINTS
    assert [t["event"] for t in turning] == sorted(t["event"] for t in turning)
    assert all(t["swing"] >= MIN_SWING for t in turning)
    # the biggest jump between consecutive plotted values of a side is among them
    series = graph["series"]["royal_navy"]
    jumps = [(abs(b[1] - a[1]), b[0]) for a, b in itertools.pairwise(series)]
    biggest, at = max(jumps)
    assert at in {t["event"] for t in turning}
    mark = next(t for t in turning if t["event"] == at)
    assert mark["swing"] == pytest.approx(biggest, abs=1e-3)
    text = "\n".join(mark["lines"])
    assert "Royal Navy" in text and "Kriegsmarine" in text and "→" in text
    assert "dice there:" in text  # Morze's dice are thrown between the sides' orders
    assert "None" not in text and "{" not in text


def _with_a_costly_decision() -> tuple[Analysis, int, str]:
    """The fixture's analysis with one point's estimates changed: the side that decided wins
    50 % before its order, 30 % with its order on fresh dice, 10 % after its real dice; and the
    bots would have given another order there."""
    analysis = _analysis()
    point = next(p for p in analysis.points if p.side == "kriegsmarine" and p.index > 5)
    other = "royal_navy"
    n = analysis.spec.rollouts
    share = {"position": {point.before: 0.5, point.after: 0.1}, "order": {point.before: 0.3}}

    def changed(e: Estimate) -> Estimate:
        p = share.get(e.start, {}).get(e.seq)
        if p is None:
            return e
        wins = round(p * n)
        return e.model_copy(update={"outcomes": {point.side: wins, other: n - wins}})

    points = [
        p.model_copy(update={"bot_command": {"type": "end_movement"}}) if p == point else p
        for p in analysis.points
    ]
    return (
        analysis.model_copy(
            update={"points": points, "estimates": [changed(e) for e in analysis.estimates]}
        ),
        point.after,
        point.side,
    )


def test_a_turning_point_splits_decision_and_luck_in_players_words() -> None:
    analysis, event, side = _with_a_costly_decision()
    tl = _timeline()
    graph = graph_data(tl, analysis, None)
    assert graph is not None
    mark = next(t for t in graph["turning"] if t["event"] == event)
    assert mark["side"] == side and mark["p"] == pytest.approx(0.1)
    assert "Kriegsmarine: 50 % → 10 % (−40 %)" in mark["lines"]
    assert mark["lines"][-2].startswith("decision −20 % for Kriegsmarine (the bots would have: ")
    assert mark["lines"][-1].startswith("luck −20 % for Kriegsmarine")
    assert mark["lines"][0].startswith(f"Event {event}: Kriegsmarine's order — ")
    # the automatic annotation of kind "analysis" for the move list, by event
    assert "decision" in graph["notes"][str(event)]
    # what the bots would have done is for the umpire and the side that decided only
    for viewer, told in (("kriegsmarine", True), ("royal_navy", False)):
        seen = graph_data(tl, analysis, viewer)
        assert seen is not None
        line = next(t for t in seen["turning"] if t["event"] == event)["lines"][-2]
        assert ("the bots would have" in line) is told, viewer


def test_signed_percentages_read_as_players_write_them() -> None:
    assert signed(-0.18) == "−18 %"
    assert signed(0.25) == "+25 %"
    assert signed(0.001) == "±0 %"


def test_an_opened_record_carries_its_analysis_when_it_fits(tmp_path: Path) -> None:
    game = from_file(ANALYSED)
    assert game.analysis == _analysis()
    kept, words = record_analysis(game.header, game.facts, game.analysis)
    assert kept == _analysis() and "not re-run" in words
    stale = _analysis().model_copy(
        update={"spec": _analysis().spec.model_copy(update={"ruleset_version": "0.0"})}
    )
    kept, words = record_analysis(game.header, game.facts, stale)
    assert kept is None and words.startswith("The record's analysis is not drawn: ")
    # a record without one: nothing to draw, nothing to say
    body = json.loads(ANALYSED.read_text("utf-8"))
    del body["analysis"]
    plain = tmp_path / "plain.wake.json"
    plain.write_text(json.dumps(body), "utf-8")
    assert from_file(plain).analysis is None
    assert record_analysis(game.header, game.facts, None) == (None, "")


def test_keeping_an_opened_record_keeps_its_analysis_once_a_sample_re_runs(
    tmp_path: Path,
) -> None:
    """The viewer's "Keep it in the store" keeps a record's analysis as ``wake import`` does:
    after a sample of its rollouts re-runs to the same counts; a forged one is refused."""
    game = from_file(ANALYSED)
    assert game.analysis is not None
    good = GameStore(str(tmp_path / "good.sqlite3"))
    good.import_game(game.header, game.facts)
    assert keep_analysis(good, game) is None
    assert stored.stored_spec(good, game.header.game_id) == (
        game.analysis.spec,
        list(game.analysis.estimates),
    )
    forged = game.analysis.model_copy(
        update={
            "estimates": [
                e.model_copy(update={"outcomes": {"kriegsmarine": e.rollouts}})
                for e in game.analysis.estimates
            ]
        }
    )
    bad = GameStore(str(tmp_path / "bad.sqlite3"))
    bad.import_game(game.header, game.facts)
    problem = keep_analysis(bad, replace(game, analysis=forged))
    assert problem is not None and "does not re-run" in problem
    assert stored.stored_spec(bad, game.header.game_id) == (None, [])
