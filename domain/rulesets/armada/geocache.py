"""Keys for remembering Armada's geometry answers by the positions that decide them.

A measurement (arc, range, line of sight, obstruction) or an engagement depends only on where
the units involved stand, which other ships stand in the way, and the obstacles: not on shields,
tokens, dials or whose turn it is. A bot asks the same questions again and again between two
moves (every legal attack, every candidate order, then ``decide`` and ``evolve`` once more), and
rollouts from one position ask them again in every rollout. The keys here name exactly those
inputs, so an answer kept in the game data's memo (:meth:`.data.ArmadaData.memo`) is the answer
that would be computed: nothing else is read by the functions that use them.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import count
from typing import Any

from domain.rulesets.armada.state import ArmadaState


def ship_key(state: ArmadaState, ship_id: str) -> tuple[str, float | None, float | None, float]:
    """What places a ship's shapes: its card and pose."""
    ship = state.ships[ship_id]
    return (ship.card, ship.x, ship.y, ship.heading)


def unit_key(state: ArmadaState, unit: str) -> tuple[Any, ...]:
    """A ship's card and pose, or a squadron's position (its base is the same for every card)."""
    ship = state.ships.get(unit)
    if ship is not None:
        return ("ship", ship.card, ship.x, ship.y, ship.heading)
    squadron = state.squadrons[unit]
    return ("squadron", squadron.x, squadron.y)


def ships_in_play(state: ArmadaState, exclude: tuple[str, ...] = ()) -> int:
    """Every ship in play but ``exclude``, by id, card and pose (scenario order), as a token:
    equal tokens mean equal ships (:func:`_token`)."""
    ships = state.ships
    # only ships change the content: a squadron's id left out leaves the same content, so the
    # same part is not rebuilt for every squadron excluded (a squadron attacker, its target)
    exclude = tuple(e for e in exclude if e in ships)
    return _by_identity(
        ships,
        exclude,
        lambda: tuple(
            (s.id, s.card, s.x, s.y, s.heading)
            for s in ships.values()
            if s.in_play and s.id not in exclude
        ),
    )


def obstacles_key(state: ArmadaState) -> int:
    """The obstacles' placements (they never move in a game, but a memo outlives a game), as
    a token."""
    obstacles = state.scenario.obstacles
    return _by_identity(
        obstacles,
        (),
        lambda: tuple((o.id, o.shape, o.x, o.y, o.heading, o.flipped) for o in obstacles),
    )


def enemy_squadrons(state: ArmadaState, side: str) -> int:
    """The squadrons in play not of ``side``, by id and position (scenario order), as a token;
    0 when there are none."""
    squadrons = state.squadrons
    return _by_identity(
        squadrons,
        side,
        lambda: tuple(
            (sq.id, sq.x, sq.y) for sq in squadrons.values() if sq.in_play and sq.side != side
        ),
    )


def positions(state: ArmadaState) -> tuple[int, int, int]:
    """Where everything stands: the ships in play, the squadrons in play (with their sides)
    and the obstacles, as three tokens. A coarse key (any unit moving changes it) that costs
    three look-ups by identity: the first memo level before a question's own key. A unit out
    of play is not in it: a question about one adds the unit's own key (:func:`unit_key`).
    The last state asked about is remembered with its answer (the same state is asked again
    and again between two events: every engagement, every measurement)."""
    last = _LAST
    if last[0] is state:
        return last[1]
    squadrons = state.squadrons
    found = (
        ships_in_play(state),
        _by_identity(
            squadrons,
            "all",
            lambda: tuple((sq.id, sq.side, sq.x, sq.y) for sq in squadrons.values() if sq.in_play),
        ),
        obstacles_key(state),
    )
    _set_last((state, found))
    return found


_LAST: tuple[object, tuple[int, int, int]] = (None, (0, 0, 0))
"""The last state :func:`positions` answered and its answer, as one tuple (replaced whole, so
a thread never reads one state's answer for another)."""


def _set_last(entry: tuple[object, tuple[int, int, int]]) -> None:
    global _LAST
    _LAST = entry


# A key part is built once per state part, not once per question. The game state never changes
# a part in place (evolve copies the dict or tuple it changes), so the part's identity stands for
# its content while the part is alive: each entry holds the part itself, so its id cannot be
# reused by another object while the entry is kept. The content is then replaced by a small
# token (equal contents, equal tokens; a token is never given to another content), which is
# cheaper to hash in every memo look-up than the nested tuple.

PARTS_LIMIT = 4096
"""Parts (and contents) remembered before starting again (a game makes a few hundred)."""
_PARTS: dict[tuple[int, Any], tuple[object, int]] = {}
_TOKENS: dict[Any, int] = {}
_NEXT = count(1)


def _by_identity(part: object, extra: Any, content: Callable[[], Any]) -> int:
    key = (id(part), extra)
    entry = _PARTS.get(key)
    if entry is not None and entry[0] is part:
        return entry[1]
    token = _token(content())
    if len(_PARTS) >= PARTS_LIMIT:
        _PARTS.clear()
    _PARTS[key] = (part, token)
    return token


def _token(content: Any) -> int:
    """The token of ``content``: 0 for an empty one, else a number given to it alone (never
    reused for another content, even after the table starts again)."""
    if not content:
        return 0
    token = _TOKENS.get(content)
    if token is None:
        if len(_TOKENS) >= PARTS_LIMIT:
            _TOKENS.clear()
        token = _TOKENS[content] = next(_NEXT)
    return token


def content_token(content: Any) -> int:
    """A small number standing for ``content`` (hashable) in a memo key: equal contents get
    equal tokens while the table lasts, and a token is never given to another content, so a
    key holding it names the content exactly (cheaper to hash than a nested content)."""
    return _token(content)
