"""Shared test helpers: small scenarios and bot games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domain.engine import Session, header_for

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
RECORDS = sorted((FIXTURES / "games").rglob("*.wake.json"))


def small_scenario(turn_limit: int | None = 8) -> dict[str, Any]:
    return {
        "id": "test_small",
        "title": "test",
        "table": {"width": 100, "height": 60},
        "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "units": [
            {"id": "a1", "side": "a", "class": "heavy_cruiser", "x": 10, "y": 20},
            {"id": "a2", "side": "a", "class": "destroyer", "x": 10, "y": 30},
            {"id": "a3", "side": "a", "class": "light_cruiser", "x": 10, "y": 40},
            {"id": "b1", "side": "b", "class": "heavy_cruiser", "x": 90, "y": 20},
            {"id": "b2", "side": "b", "class": "destroyer", "x": 90, "y": 30},
            {"id": "b3", "side": "b", "class": "corvette", "x": 90, "y": 40},
        ],
        "victory": {"annihilation": True, "turn_limit": turn_limit},
    }


def bot_game(
    seed: int | None = 1,
    scenario: dict[str, Any] | None = None,
    game_id: str = "00000000-0000-4000-8000-0000000000aa",
) -> Session:
    session = Session(header_for("morze", scenario or small_scenario(), game_id=game_id, seed=seed))
    while session.submit_bot() is not None:
        pass
    return session
