"""The table: players seated in a circle (``domain.board.ZoneBoard``), each with a vanguard and a
rearguard box. Line weapons use the seating (ST-3.1): the players still fighting this battle sit
in their seating order, so a player who dropped out leaves no gap."""

from __future__ import annotations

from domain.board import ZoneBoard
from domain.rulesets.ships.state import ShipsState

ZONES = ["vanguard", "rearguard", "air", "hand"]


def table(state: ShipsState) -> ZoneBoard | None:
    """The players of this battle in seating order (None with fewer than two)."""
    seated = [p for p in state.seating if p in state.order]
    return ZoneBoard(seats=seated, zones=ZONES[:2]) if len(seated) >= 2 else None


def line_players(state: ShipsState, centre: str, firer: str) -> list[str]:
    """ST-3.1: the players whose vanguards a line weapon at ``centre`` hits: the centre (option
    ``line_includes_centre``) and both its neighbours, never the firer itself unless
    ``line_hits_own_fleet``."""
    board = table(state)
    if board is None:
        return []
    seats = board.line_targets(centre)
    if not state.options.line_includes_centre and len(set(board.seats)) > 2:
        seats = [s for s in seats if s != centre]
    if not state.options.line_hits_own_fleet:
        seats = [s for s in seats if s != firer]
    return seats
