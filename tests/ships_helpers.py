"""Helpers for the SHIPS & TACTICS tests: physical-card games with named draws (exact hands),
sealed fleets, and hand-built combat tables for the provisional engine."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from domain.dice import FixedDice
from domain.engine import CommandEnvelope, Session, header_for, registry_for
from domain.events import DomainEvent
from domain.frozen import changed
from domain.ruleset import get_ruleset
from domain.rulesets.ships.fleet import Fleet, fleet_content
from domain.rulesets.ships.state import ShipsState, Unit
from domain.sealed import seal
from tests.helpers import FIXTURES

SCENARIOS = FIXTURES / "scenarios" / "ships"
SALT = "test-salt"


def scenario(name: str = "multi3") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCENARIOS / f"{name}.json").read_text("utf-8"))
    return data


def session(name: str = "multi3", *, seed: int | None = None, **options: Any) -> Session:
    gid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"ships-test-{name}-{seed}"))  # records need a UUID
    return Session(header_for("ships", scenario(name), game_id=gid, seed=seed, options=options))


def submit(s: Session, side: str | None, command: Mapping[str, Any]) -> list[DomainEvent]:
    facts = s.submit(CommandEnvelope(side=side, command=dict(command)))
    load = registry_for("ships").load
    return [load(f.topic, f.payload) for f in facts[1:]]


def loaded(s: Session) -> list[DomainEvent]:
    """Every event of a game (orders included), decoded."""
    load = registry_for("ships").load
    return [load(f.topic, f.payload) for f in s.facts]


def rules(s: Session) -> ShipsState:
    state: ShipsState = s.state.rules
    return state


def topics(events: Iterable[DomainEvent]) -> list[str]:
    return [type(e).__name__ for e in events]


def fleet(vanguard: list[Any], rearguard: list[Any] | None = None) -> Fleet:
    """``fleet(["yamato"], [{"card": "kongo_cruiser", "characters": ["shima"]}])``."""

    def plan(x: Any) -> dict[str, Any]:
        return {"card": x} if isinstance(x, str) else x

    return Fleet.model_validate(
        {"vanguard": [plan(x) for x in vanguard], "rearguard": [plan(x) for x in rearguard or []]}
    )


def commit(
    s: Session, player: str, f: Fleet, salt: str = SALT, *, show: bool = False
) -> list[DomainEvent]:
    """Seal ``f``; with ``show`` the player also gives the fleet and salt (its own view)."""
    digest = seal(fleet_content(player, rules(s).battle, f), salt).digest
    command: dict[str, Any] = {"type": "form_fleet", "digest": digest}
    if show:
        command |= {"fleet": f.model_dump(mode="json"), "salt": salt}
    return submit(s, player, command)


def reveal(s: Session, player: str, f: Fleet, salt: str = SALT) -> list[DomainEvent]:
    return submit(
        s, player, {"type": "reveal_fleet", "fleet": f.model_dump(mode="json"), "salt": salt}
    )


def form_all(s: Session, fleets: Mapping[str, Fleet]) -> list[DomainEvent]:
    """Every player seals its fleet, then reveals it, in turn order."""
    order = rules(s).order
    for p in order:
        commit(s, p, fleets[p])
    out: list[DomainEvent] = []
    for p in order:
        out += reveal(s, p, fleets[p])
    return out


def pass_questions(s: Session) -> None:
    """Answer the Minovsky question with no and launch nothing, until a turn step."""
    while rules(s).phase in ("minovsky", "launch"):
        state = rules(s)
        kind = "minovsky" if state.phase == "minovsky" else "launch_aircraft"
        submit(s, state.active, {"type": kind})


# --- hand-built tables for the combat engine ------------------------------------------------


def table(
    name: str = "multi3",
    *,
    segment: str = "medium",
    units: Iterable[Unit] = (),
    hands: Mapping[str, list[str]] | None = None,
    order: Iterable[str] | None = None,
    cursor: int = 0,
    **options: Any,
) -> ShipsState:
    """A state in a segment's turns with the given units and hands (no events behind it)."""
    header = header_for("ships", scenario(name), game_id="table", seed=1, options=options)
    state: ShipsState = get_ruleset("ships").initial_state(header)
    players = dict(state.players)
    for pid, cards in (hands or {}).items():
        players[pid] = changed(players[pid], hand=tuple(cards))
    return changed(
        state,
        players=players,
        battle=1,
        phase="turns",
        segment=segment,
        order=tuple(order or state.seating),
        cursor=cursor,
        units={u.id: u for u in units},
    )


def ship(owner: str, card: str, box: str = "vanguard", n: int = 1, **kw: Any) -> Unit:
    return Unit(
        id=f"{owner}-b1-{box[0].upper()}{n}", owner=owner, card=card, kind="ship", box=box, **kw
    )


def plane(carrier: Unit, card: str, n: int = 1, **kw: Any) -> Unit:
    return Unit(
        id=f"{carrier.id}-A{n}",
        owner=carrier.owner,
        card=card,
        kind="aircraft",
        box=carrier.box,
        on=carrier.id,
        air=kw.pop("air", "out"),
        **kw,
    )


def char(on: Unit, card: str, n: int = 1) -> Unit:
    return Unit(
        id=f"{on.id}-C{n}", owner=on.owner, card=card, kind="character", box=on.box, on=on.id
    )


def decide(state: ShipsState, side: str | None, command: Mapping[str, Any]) -> list[DomainEvent]:
    ruleset = get_ruleset("ships")
    return ruleset.decide(state, side, ruleset.parse_command(dict(command)), FixedDice([]))


def play(
    state: ShipsState, side: str | None, command: Mapping[str, Any]
) -> tuple[ShipsState, list[DomainEvent]]:
    """Decide and apply one order on a hand-built state."""
    events = decide(state, side, command)
    ruleset = get_ruleset("ships")
    for e in events:
        state = ruleset.evolve(state, e)
    return state, events
