"""Issue 22 item 8: the two readings of ST-3.1 that were silent are options with documented
defaults: a line centred on the firer's own seat (``line_centre_on_self``, default allowed: it
hits the two neighbours' vanguards) and the seats of players who dropped out (ST-5.5)
(``line_empty_seats``, default ``closed``: the players either side become neighbours;
``gaps``: the empty seat stays in the circle)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import IllegalCommand
from domain.rulesets.ships import bot
from domain.rulesets.ships.board import line_players
from domain.rulesets.ships.commands import LineAttack
from domain.rulesets.ships.state import ShipsState
from tests.ships_helpers import decide, ship, table

SEATS = ("P1", "P2", "P3", "P4", "P5", "P6")


def _six(order: tuple[str, ...] = SEATS, **options: Any) -> ShipsState:
    units = [ship("P1", "yamato"), *(ship(p, "imperial_bb") for p in order if p != "P1")]
    return table(
        "multi6",
        units=units,
        segment="long",
        hands={"P1": ["wave_motion_gun"]},
        order=order,
        **options,
    )


def test_ST_3_1_a_line_centred_on_the_firer_hits_its_two_neighbours_by_default() -> None:
    state = _six()
    assert line_players(state, "P1", "P1") == ["P6", "P2"]
    order = {"type": "line_attack", "ship": "P1-b1-V1", "centre": "P1", "card": "wave_motion_gun"}
    assert decide(state, "P1", order)[0].targets == ["P6-b1-V1", "P2-b1-V1"]


def test_ST_3_1_option_line_centre_on_self_off_refuses_it_and_the_bot_aims_elsewhere() -> None:
    state = _six(line_centre_on_self=False)
    order = {"type": "line_attack", "ship": "P1-b1-V1", "centre": "P1", "card": "wave_motion_gun"}
    with pytest.raises(IllegalCommand) as info:
        decide(state, "P1", order)
    assert info.value.rule == "ST-3.1" and "line_centre_on_self" in str(info.value)
    lines = [c for c in bot.candidates(state, "P1") if isinstance(c, LineAttack)]
    assert lines and all(c.centre != "P1" for c in lines)


def test_ST_3_1_ST_5_5_a_dropped_out_seat_closes_the_circle_by_default() -> None:
    """P3 dropped out (not fighting this battle): P2 and P4 are neighbours."""
    order = ("P1", "P2", "P4", "P5", "P6")
    assert line_players(_six(order), "P2", "P1") == ["P2", "P4"]
    gaps = _six(order, line_empty_seats="gaps")
    assert line_players(gaps, "P2", "P1") == ["P2"]  # P3's empty seat takes the hit
    assert line_players(gaps, "P4", "P1") == ["P4", "P5"]
