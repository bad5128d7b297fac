"""SHIPS & TACTICS ``evolve``: apply one fact. No validation, no dice, never raises."""

from __future__ import annotations

from collections.abc import Iterable

from domain.cards import replay_shuffle
from domain.events import DomainEvent, GameEnded
from domain.frozen import changed
from domain.rulesets.ships import events as ev
from domain.rulesets.ships.state import DamageEntry, Pending, Player, ShipsState, Unit


def take(cards: tuple[str, ...], gone: Iterable[str]) -> tuple[str, ...]:
    """``cards`` without one copy of each card in ``gone`` (missing ones are ignored)."""
    out = list(cards)
    for card in gone:
        if card in out:
            out.remove(card)
    return tuple(out)


def _player(state: ShipsState, pid: str, **update: object) -> dict[str, Player]:
    players = dict(state.players)
    players[pid] = changed(players[pid], **update)
    return players


def _unit(state: ShipsState, uid: str, **update: object) -> dict[str, Unit]:
    units = dict(state.units)
    if uid in units:
        units[uid] = changed(units[uid], **update)
    return units


def _drawn(state: ShipsState, e: ev.CardsDrawn) -> ShipsState:
    p = state.players[e.player]
    deck = p.deck[len(e.cards) :] if state.deck_known else take(p.deck, e.cards)
    return changed(state, players=_player(state, e.player, deck=deck, hand=p.hand + tuple(e.cards)))


def _hit(state: ShipsState, e: ev.HitResolved) -> ShipsState:
    units = _unit(
        state, e.target, damage=e.total, status="sunk" if e.sunk else state.units[e.target].status
    )
    players = state.players
    if e.sunk:  # ST-5.1: only the last blow scores
        players = dict(players)
        players[e.player] = changed(players[e.player], vp=players[e.player].vp + e.vp)
    entry = DamageEntry(
        battle=state.battle,
        segment=e.segment,
        target=e.target,
        by=e.player,
        source=e.source,
        amount=e.damage,
        total=e.total,
    )
    log = (*state.damage_log, entry) if e.damage > 0 else state.damage_log
    return changed(state, units=units, players=players, damage_log=log, pending=None)


def evolve(state: ShipsState, event: DomainEvent) -> ShipsState:
    e = event
    if isinstance(e, ev.StepStarted):
        if e.phase == "setup":
            return changed(state, phase="setup", cursor=0, pending=None)
        acted = () if e.phase == "turns" else state.acted
        return changed(state, phase=e.phase, cursor=e.cursor, acted=acted, pending=None)
    if isinstance(e, ev.BattleStarted):
        return changed(
            state,
            battle=e.battle,
            phase="setup",
            segment=None,
            order=(),
            cursor=0,
            sealed={},
            planned={},
            revealed={},
            units={},
            acted=(),
            pending=None,
            minovsky=False,
        )
    if isinstance(e, ev.DeckShuffled):
        deck = tuple(replay_shuffle(e.deck, e.faces)) if e.known else tuple(e.deck)
        return changed(
            state,
            players=_player(state, e.player, deck=deck),
            deck_known=state.deck_known and e.known,
        )
    if isinstance(e, ev.CardsDrawn):
        return _drawn(state, e)
    if isinstance(e, ev.TurnOrderDrawn):
        return changed(state, order=tuple(e.order), cursor=0)
    if isinstance(e, ev.PlayerDroppedOut):
        return changed(
            state,
            players=_player(state, e.player, out=True),
            order=tuple(p for p in state.order if p != e.player),
        )
    if isinstance(e, ev.FleetCommitted):
        planned = state.planned if e.fleet is None else {**state.planned, e.player: e.fleet}
        return changed(state, sealed={**state.sealed, e.player: e.digest}, planned=planned)
    if isinstance(e, ev.FleetCorrected):  # the new seal follows (FleetCommitted)
        planned = {k: v for k, v in state.planned.items() if k != e.player}
        return changed(state, planned=planned)
    if isinstance(e, ev.FleetRevealed):
        return changed(state, revealed={**state.revealed, e.player: e.fleet})
    if isinstance(e, ev.FleetsPlaced):
        players = dict(state.players)
        for unit in e.units:
            p = players[unit.owner]
            players[unit.owner] = changed(p, hand=take(p.hand, (unit.card, *unit.extra_cards)))
        return changed(state, players=players, units={u.id: u for u in e.units}, planned={})
    if isinstance(e, ev.SegmentStarted):
        return changed(state, segment=e.segment, acted=(), cursor=0, pending=None)
    if isinstance(e, ev.MinovskyAnswered):
        if not e.dispersed:
            return state
        p = state.players[e.player]
        hand = take(p.hand, [e.card]) if e.card else p.hand
        return changed(state, minovsky=True, players=_player(state, e.player, hand=hand))
    if isinstance(e, ev.AircraftLaunched):
        units = dict(state.units)
        for uid in e.aircraft:
            units[uid] = changed(units[uid], air="out")
        for pilot, plane in e.pilots.items():
            units[pilot] = changed(units[pilot], on=plane)
        return changed(state, units=units)
    if isinstance(e, ev.AttackDeclared):
        p = state.players[e.player]
        declared = Pending(
            player=e.player,
            ship=e.ship,
            segment=e.segment,
            cards=tuple(e.cards),
            targets=tuple(e.targets),
            line=e.line,
            centre=e.centre,
            defenders=tuple(e.defenders),
        )
        return changed(
            state,
            players=_player(state, e.player, hand=take(p.hand, e.cards)),
            acted=(*state.acted, e.ship),
            pending=declared,
        )
    if isinstance(e, ev.DefencePlayed):
        p = state.players[e.player]
        pending = state.pending
        if pending is not None:
            pending = changed(
                pending,
                defenders=pending.defenders[1:],
                defences={**pending.defences, e.player: tuple(e.cards)},
            )
        return changed(
            state, players=_player(state, e.player, hand=take(p.hand, e.cards)), pending=pending
        )
    if isinstance(e, ev.HitResolved):
        return _hit(state, e)
    if isinstance(e, ev.DogfightResolved):
        units = dict(state.units)
        for uid in (*e.attackers_lost, *e.defenders_lost):
            units[uid] = changed(units[uid], status="shot_down", air=None)
        return changed(state, units=units)
    if isinstance(e, ev.AirStrikeFlown):
        flown = [uid for group in e.groups.values() for uid in group]
        return changed(state, acted=(*state.acted, *flown))
    if isinstance(e, ev.AircraftReturned):
        units = dict(state.units)
        for uid in e.aircraft:
            units[uid] = changed(units[uid], air="returning")
        return changed(state, units=units)
    if isinstance(e, ev.AircraftRecovered):
        units = dict(state.units)
        for uid in e.recovered:
            units[uid] = changed(units[uid], air="aboard")
        for uid in e.lost:
            units[uid] = changed(units[uid], air=None, status="lost")
        return changed(state, units=units)
    if isinstance(e, ev.BoardingResolved):
        acted = (*state.acted, e.ship)
        if not e.captured:
            return changed(state, acted=acted)
        players = dict(state.players)
        players[e.player] = changed(players[e.player], vp=players[e.player].vp + e.vp)
        units = _unit(state, e.target, status="captured")
        return changed(state, units=units, players=players, acted=acted)
    if isinstance(e, ev.ShipsHacked):
        units = dict(state.units)
        for uid in e.targets:
            units[uid] = changed(units[uid], hacked=True)
        p = state.players[e.player]
        return changed(
            state, units=units, players=_player(state, e.player, hand=take(p.hand, [e.card]))
        )
    if isinstance(e, ev.TurnEnded):
        return state
    if isinstance(e, ev.BattleScored):
        players = dict(state.players)
        for pid, gained in e.vp.items():
            players[pid] = changed(players[pid], vp=players[pid].vp + gained)
        return changed(state, players=players, units={}, segment=None, pending=None, acted=())
    if isinstance(e, GameEnded):
        return changed(state, phase="over", finished=True, pending=None)
    return state
