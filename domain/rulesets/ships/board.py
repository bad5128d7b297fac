"""The table: players seated in a circle (``domain.board.ZoneBoard``), each with a vanguard and a
rearguard box. Line weapons use the seating (ST-3.1): the players still fighting this battle sit
in their seating order, so a player who dropped out leaves no gap (option ``line_empty_seats``:
``gaps`` keeps the empty seat)."""

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
    ``line_hits_own_fleet``; the seats of players who dropped out are closed up, or stay as gaps
    (option ``line_empty_seats``)."""
    board = table(state)
    if board is None:
        return []
    if state.options.line_empty_seats == "gaps" and centre in state.seating:
        board = ZoneBoard(seats=list(state.seating), zones=ZONES[:2])
    seats = [s for s in board.line_targets(centre) if s in state.order]
    if not state.options.line_includes_centre and len(set(board.seats)) > 2:
        seats = [s for s in seats if s != centre]
    if not state.options.line_hits_own_fleet:
        seats = [s for s in seats if s != firer]
    return seats


def line_centres(state: ShipsState, firer: str) -> list[str]:
    """The players a line weapon may be centred on (ST-3.1): any player fighting this battle,
    the firer itself included unless option ``line_centre_on_self`` is off."""
    return [p for p in state.order if p != firer or state.options.line_centre_on_self]
