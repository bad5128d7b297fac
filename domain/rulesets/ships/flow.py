"""The sequence of a SHIPS & TACTICS game: who acts now, and what comes after a step.

A battle (ST-4.3) is: setup (refill, order cards, ST-1.2/1.7) → fleet formation face down in turn
order (ST-1.3) → reveal in turn order, every fleet placed together (ST-1.9) → the Combat Phase's
five segments, long → medium → aircraft → short → boarding (ST-2.2), each opened by the Minovsky
question (ST-5.3), the aircraft segment by the launch (ST-3.3.1), then each player's turn in turn
order (ST-2.2) → scoring (ST-4.1, 4.2). Five battles (ST-4.4).

``decide`` works through an :class:`Emitter`: each event it emits is folded into a running state
at once, so later checks see results already applied (ST-2.3: results apply immediately).
"""

from __future__ import annotations

from domain.events import DomainEvent, GameEnded
from domain.rulesets.ships import events as ev
from domain.rulesets.ships.data import SEGMENTS, AircraftCard, MinovskyCard
from domain.rulesets.ships.evolve import evolve
from domain.rulesets.ships.placement import fleets_placed
from domain.rulesets.ships.state import ShipsState

PHASE_RULE = {
    "formation": "ST-1.3",
    "reveal": "ST-1.9",
    "minovsky": "ST-5.3",
    "launch": "ST-3.3.1",
    "turns": "ST-2.2",
    "setup": "ST-4.3",
}


class Emitter:
    """Events in the making, with the state they lead to."""

    def __init__(self, state: ShipsState) -> None:
        self.state = state
        self.events: list[DomainEvent] = []

    def emit(self, event: DomainEvent) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def to_act(state: ShipsState) -> list[str | None]:
    """Who gives the next order: the setup is a system step (None); a waiting attack asks the
    next target player for defence cards; otherwise the player whose step it is."""
    if state.finished:
        return []
    if state.phase == "setup":
        return [None]
    if state.pending is not None and state.pending.defenders:
        return [state.pending.defenders[0]]
    active = state.active
    return [active] if active is not None else []


def minovsky_in_game(state: ShipsState) -> bool:
    """Whether any deck of this game holds a Minovsky card (public: the deck lists)."""
    decks = {d.id: d for d in state.data.decks.decks}
    cards = state.data.cards.by_id()
    return any(
        isinstance(cards.get(card), MinovskyCard)
        for p in state.players.values()
        for card in decks[p.deck_id].card_ids()
    )


def needs_act(state: ShipsState, phase: str, player: str) -> bool:
    """Whether ``player`` has a step in ``phase`` (players with nothing to do are passed by)."""
    if phase in ("formation", "reveal"):
        return True
    units = [u for u in state.units.values() if u.owner == player and u.status == "active"]
    ships = {u.id for u in units if u.kind == "ship"}
    if phase == "minovsky":
        if state.minovsky:
            return False
        if state.options.minovsky_ask == "all":
            return True
        cards = state.data.cards.by_id()
        return any(isinstance(cards.get(c), MinovskyCard) for c in state.players[player].hand)
    if phase == "launch":
        return any(u.kind == "aircraft" and u.air == "aboard" and u.on in ships for u in units)
    if state.segment == "aircraft":
        return any(u.kind == "aircraft" and u.air == "out" for u in units)
    return bool(ships)


def _open_segment(em: Emitter, index: int) -> None:
    """Start segment ``SEGMENTS[index]`` and its first step."""
    segment = SEGMENTS[index]
    if segment == "boarding":
        _recover_aircraft(em)
    em.emit(ev.SegmentStarted(segment=segment))
    if minovsky_in_game(em.state) and not em.state.minovsky:
        _next_step(em, "minovsky", -1)
    elif segment == "aircraft":
        _next_step(em, "launch", -1)
    else:
        _next_step(em, "turns", -1)


def _recover_aircraft(em: Emitter) -> None:
    """ST-3.3.7: aircraft come back aboard just before boarding; without their ship, lost."""
    s = em.state
    recovered, lost = [], []
    for u in s.units.values():
        if u.kind != "aircraft" or u.status != "active" or u.air == "aboard":
            continue
        carrier = s.units.get(u.on or "")
        if carrier is not None and carrier.status == "active":
            recovered.append(u.id)
        else:
            lost.append(u.id)
    if recovered or lost:
        em.emit(ev.AircraftRecovered(recovered=recovered, lost=lost))


def _next_step(em: Emitter, phase: str, cursor: int) -> None:
    """Move to the next player after ``cursor`` who has a step in ``phase``; when the phase is
    over, go on to what follows it."""
    s = em.state
    for i in range(cursor + 1, len(s.order)):
        if needs_act(s, phase, s.order[i]):
            em.emit(
                ev.StepStarted(phase=phase, player=s.order[i], cursor=i, rule=PHASE_RULE[phase])
            )
            return
    _after_phase(em, phase)


def _after_phase(em: Emitter, phase: str) -> None:
    s = em.state
    if phase == "formation":
        _next_step(em, "reveal", -1)
    elif phase == "reveal":
        em.emit(fleets_placed(s))
        _open_segment(em, 0)
    elif phase == "minovsky":
        _next_step(em, "launch" if s.segment == "aircraft" else "turns", -1)
    elif phase == "launch":
        _next_step(em, "turns", -1)
    elif phase == "turns":
        assert s.segment is not None
        index = SEGMENTS.index(s.segment)
        if index + 1 < len(SEGMENTS):
            _open_segment(em, index + 1)
        else:
            end_battle(em)


def step_done(em: Emitter) -> None:
    """The current player's step is over: on to the next one."""
    s = em.state
    _next_step(em, s.phase, s.cursor)


def end_battle(em: Emitter) -> None:
    """ST-4.1/4.2: surviving ships become their owner's VP; then the next battle or the end."""
    s = em.state
    survivors: dict[str, list[str]] = {}
    vp: dict[str, int] = {}
    cards = s.data.cards.by_id()
    for u in s.units.values():
        if u.kind == "ship" and u.status == "active":
            survivors.setdefault(u.owner, []).append(u.id)
            vp[u.owner] = vp.get(u.owner, 0) + cards[u.card].vp
    em.emit(ev.BattleScored(battle=s.battle, survivors=survivors, vp=vp))
    if em.state.battle >= em.state.scenario.battles:
        end_game(em, "five Combat Phases fought", "ST-4.4")
    else:
        em.emit(ev.StepStarted(phase="setup", player=None, cursor=0, rule="ST-4.3"))


def end_game(em: Emitter, reason: str, rule: str) -> None:
    """The most VP wins (ST-4.4); a tie at the top is a draw."""
    vp = {pid: p.vp for pid, p in em.state.players.items()}
    best = max(vp.values())
    leaders = [pid for pid, v in vp.items() if v == best]
    winner = leaders[0] if len(leaders) == 1 else None
    em.emit(GameEnded(winner=winner, reason=reason, rule=rule, vp=vp))


def has_aircraft_card(state: ShipsState, card: str) -> bool:
    return isinstance(state.data.cards.by_id().get(card), AircraftCard)
